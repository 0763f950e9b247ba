"""arith and math ops on NumPy scalars and arrays (elementwise on vectors and tensors alike).

Integers are stored sign-extended in the NumPy container of their width (i1 as bool, index as
int64); `wrap` restores that invariant after an operation, which gives two's complement wrap
for every width up to 64.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mlc.interp.core import dtype_of, handles, unsupported
from mlc.ir import attributes as A
from mlc.ir.core import Operation

__all__ = [
    "ArithHandlers", "MathHandlers", "bit_width", "wrap", "as_signed", "as_unsigned", "erf",
    "div_trunc", "cmpf", "attribute_value", "truncate_float",
]  # fmt: skip

_UNSIGNED_OF = {1: np.uint8, 8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def bit_width(t: A.Type) -> int:
    """Width of an integer, index (64) or float type (elements of a shaped type)."""
    et = A.element_type_of(t)
    if type(et) is A.IndexType:
        return 64
    return et.width  # type: ignore[attr-defined]


def _container_bits(w: int) -> int:
    for bits in (8, 16, 32, 64):
        if w <= bits:
            return bits
    raise ValueError(f"not supported: integers wider than 64 bits (i{w})")


def as_signed(x: Any, w: int) -> Any:
    """The signed values of stored integers (i1: true is -1), in a signed container."""
    if w == 1:
        return -np.asarray(x).astype(np.int8)
    return x


def as_unsigned(x: Any, w: int) -> Any:
    """The unsigned values of stored integers of width `w`, in an unsigned container."""
    if w == 1:
        return np.asarray(x).astype(np.uint8)
    bits = _container_bits(w)
    u = np.asarray(x).astype(_UNSIGNED_OF[bits])
    if w < bits:
        u = u & _UNSIGNED_OF[bits]((1 << w) - 1)
    return u


def wrap(x: Any, t: A.Type) -> Any:
    """Integers (any NumPy int dtype) reduced modulo 2**width and stored as type `t` holds them."""
    dtype = dtype_of(t)
    w = bit_width(t)
    x = np.asarray(x)
    if w == 1:
        return _scalar_if_0d((x & 1).astype(np.bool_))
    y = x.astype(dtype)
    bits = dtype.itemsize * 8
    if w < bits:
        shift = dtype.type(bits - w)
        y = (y << shift) >> shift
    return _scalar_if_0d(y)


def _scalar_if_0d(x: Any) -> Any:
    return x[()] if type(x) is np.ndarray and x.ndim == 0 else x


def _guard(b: Any) -> Any:
    """Divisor with zeros replaced by one: division by zero is undefined, but must not trap."""
    return np.where(b == 0, np.ones_like(b), b)


def div_trunc(a: Any, b: Any) -> Any:
    """Signed integer division rounding toward zero (arith.divsi), in the operands' dtype."""
    b = _guard(b)
    neg_one = b == -1
    b = np.where(neg_one, np.ones_like(b), b)  # INT_MIN / -1 would trap: negate instead
    q = (a - np.fmod(a, b)) // b
    return np.where(neg_one, -a, q).astype(np.result_type(a, b))


def rem_trunc(a: Any, b: Any) -> Any:
    """Signed remainder with the dividend's sign (arith.remsi)."""
    return np.fmod(a, _guard(b)).astype(np.result_type(a, b))


def _float_max(a: Any, b: Any) -> Any:
    """maximumf: NaN-propagating, and +0.0 is greater than -0.0."""
    return np.where(a == b, np.where(np.signbit(a), b, a), np.maximum(a, b))


def _float_min(a: Any, b: Any) -> Any:
    return np.where(a == b, np.where(np.signbit(a), a, b), np.minimum(a, b))


def _float_same(op: Operation, x: Any) -> Any:
    """`x` in the dtype of `op`'s result (NumPy promotes some scalar mixes)."""
    return np.asarray(x).astype(dtype_of(op.results[0].type), copy=False)


_CMPI = {
    "eq": np.equal, "ne": np.not_equal, "slt": np.less, "sle": np.less_equal,
    "sgt": np.greater, "sge": np.greater_equal, "ult": np.less, "ule": np.less_equal,
    "ugt": np.greater, "uge": np.greater_equal,
}  # fmt: skip
_CMPI_NAMES = tuple(_CMPI)
_CMPF_NAMES = (
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
)  # fmt: skip
_CMPF_BASE = {
    "eq": np.equal, "gt": np.greater, "ge": np.greater_equal, "lt": np.less, "le": np.less_equal,
    "ne": np.not_equal,
}  # fmt: skip


def cmpf(pred: str, a: Any, b: Any) -> Any:
    """Float comparison by an arith.cmpf predicate name (o* ordered, u* unordered)."""
    if pred == "false":
        return np.zeros(np.broadcast(a, b).shape, np.bool_)
    if pred == "true":
        return np.ones(np.broadcast(a, b).shape, np.bool_)
    unordered = np.isnan(a) | np.isnan(b)
    if pred == "ord":
        return ~unordered
    if pred == "uno":
        return unordered
    base = _CMPF_BASE[pred[1:]]
    if pred[0] == "o":
        return base(a, b) & ~unordered
    return base(a, b) | unordered


def erf(x: Any) -> Any:
    """erf elementwise, through the C library's erf in double precision, rounded to x's dtype."""
    arr = np.asarray(x)
    # frompyfunc returns a Python float (not an array) for a 0-d input: asarray covers both.
    out = np.asarray(_ERF(arr.astype(np.float64)), dtype=np.float64).astype(arr.dtype)
    return _scalar_if_0d(out)


def erfc(x: Any) -> Any:
    arr = np.asarray(x)
    out = np.asarray(_ERFC(arr.astype(np.float64)), dtype=np.float64).astype(arr.dtype)
    return _scalar_if_0d(out)


_ERF = np.frompyfunc(math.erf, 1, 1)
_ERFC = np.frompyfunc(math.erfc, 1, 1)


def _round_half_away(x: Any) -> Any:
    # floor(|x| + 0.5) is wrong for 0.49999999999999994 (the sum rounds up): correct that case.
    a = np.abs(x)
    r = np.floor(a)
    r = np.where(a - r >= 0.5, r + 1, r).astype(np.asarray(x).dtype)
    return np.copysign(r, x)


class ArithHandlers:
    """Handlers of the arith dialect."""

    @handles("arith.constant")
    def _constant(self, op: Operation) -> Any:
        return attribute_value(op, op.get_attr("value"), op.results[0].type)

    # -- integer arithmetic (wrapping) -------------------------------------------------------------

    @handles("arith.addi", "arith.subi", "arith.muli")
    def _int_ring(self, op: Operation, a: Any, b: Any) -> Any:
        t = op.results[0].type
        w = bit_width(t)
        fn = _RING[op.name]
        return wrap(fn(as_signed(a, w), as_signed(b, w)), t)

    @handles("arith.andi", "arith.ori", "arith.xori")
    def _bitwise(self, op: Operation, a: Any, b: Any) -> Any:
        return _BITWISE[op.name](a, b)

    @handles("arith.divsi", "arith.remsi", "arith.floordivsi", "arith.ceildivsi")
    def _signed_div(self, op: Operation, a: Any, b: Any) -> Any:
        t = op.results[0].type
        w = bit_width(t)
        a, b = np.asarray(as_signed(a, w)), np.asarray(as_signed(b, w))
        if w < 64:  # room for INT_MIN / -1 without overflow
            a, b = a.astype(np.int64), b.astype(np.int64)
        name = op.name
        if name == "arith.divsi":
            r = div_trunc(a, b)
        elif name == "arith.remsi":
            r = rem_trunc(a, b)
        else:
            q = div_trunc(a, b)
            rem = a - q * _guard(b)
            if name == "arith.floordivsi":
                r = q - ((rem != 0) & ((a < 0) != (b < 0)))
            else:
                r = q + ((rem != 0) & ((a < 0) == (b < 0)))
        return wrap(r, t)

    @handles("arith.divui", "arith.remui", "arith.ceildivui")
    def _unsigned_div(self, op: Operation, a: Any, b: Any) -> Any:
        t = op.results[0].type
        w = bit_width(t)
        a, b = as_unsigned(a, w), _guard(as_unsigned(b, w))
        if op.name == "arith.divui":
            r = a // b
        elif op.name == "arith.remui":
            r = a % b
        else:
            r = a // b + (a % b != 0)
        return wrap(r, t)

    @handles("arith.shli", "arith.shrui", "arith.shrsi")
    def _shift(self, op: Operation, a: Any, b: Any) -> Any:
        # A shift by >= the width is poison in MLIR; it gives 0 (or the sign) here.
        t = op.results[0].type
        w = bit_width(t)
        amount = as_unsigned(b, w).astype(np.uint64)
        too_far = amount >= w
        amount = np.where(too_far, 0, amount)
        if op.name == "arith.shli":
            u = as_unsigned(a, w)
            r = np.where(too_far, 0, u << amount.astype(u.dtype))
        elif op.name == "arith.shrui":
            u = as_unsigned(a, w)
            r = np.where(too_far, 0, u >> amount.astype(u.dtype))
        else:
            s = np.asarray(as_signed(a, w)).astype(np.int64)
            r = s >> np.where(too_far, w - 1, amount).astype(np.int64)
        return wrap(r, t)

    @handles("arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui")
    def _int_minmax(self, op: Operation, a: Any, b: Any) -> Any:
        t = op.results[0].type
        w = bit_width(t)
        fn = np.maximum if op.name.startswith("arith.max") else np.minimum
        if op.name.endswith("ui"):
            return wrap(fn(as_unsigned(a, w), as_unsigned(b, w)), t)
        return wrap(fn(as_signed(a, w), as_signed(b, w)), t)

    @handles("arith.addui_extended")
    def _addui_extended(self, op: Operation, a: Any, b: Any) -> tuple[Any, Any]:
        t = op.results[0].type
        w = bit_width(t)
        total = wrap(as_signed(a, w) + as_signed(b, w), t)
        return total, _scalar_if_0d(np.asarray(as_unsigned(total, w) < as_unsigned(a, w)))

    @handles("arith.mulsi_extended", "arith.mului_extended")
    def _mul_extended(self, op: Operation, a: Any, b: Any) -> tuple[Any, Any]:
        t = op.results[0].type
        w = bit_width(t)
        convert = as_unsigned if op.name == "arith.mului_extended" else as_signed
        # Python integers (object arrays) hold the double-width product exactly.
        pa = np.asarray(convert(a, w)).astype(object)
        pb = np.asarray(convert(b, w)).astype(object)
        full = pa * pb
        mask = (1 << w) - 1
        low = np.asarray(full & mask).astype(object)
        high = np.asarray((full >> w) & mask).astype(object)
        return _wrap_python(low, t), _wrap_python(high, t)

    # -- floats ---------------------------------------------------------------------------------

    @handles("arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.remf")
    def _float_arith(self, op: Operation, a: Any, b: Any) -> Any:
        return _float_same(op, _FLOAT_BINARY[op.name](a, b))

    @handles("arith.maximumf", "arith.minimumf", "arith.maxnumf", "arith.minnumf")
    def _float_minmax(self, op: Operation, a: Any, b: Any) -> Any:
        return _float_same(op, _FLOAT_MINMAX[op.name](a, b))

    @handles("arith.negf")
    def _negf(self, op: Operation, a: Any) -> Any:
        return np.negative(a)

    # -- comparisons and select ------------------------------------------------------------------

    @handles("arith.cmpi")
    def _cmpi(self, op: Operation, a: Any, b: Any) -> Any:
        pred = _CMPI_NAMES[op.get_attr("predicate").value]  # type: ignore[union-attr]
        w = bit_width(op.operand(0).type)
        if pred[0] == "u":
            a, b = as_unsigned(a, w), as_unsigned(b, w)
        elif pred[0] == "s":
            a, b = as_signed(a, w), as_signed(b, w)
        return _CMPI[pred](a, b)

    @handles("arith.cmpf")
    def _cmpf(self, op: Operation, a: Any, b: Any) -> Any:
        return cmpf(_CMPF_NAMES[op.get_attr("predicate").value], a, b)  # type: ignore[union-attr]

    @handles("arith.select")
    def _select(self, op: Operation, cond: Any, a: Any, b: Any) -> Any:
        return np.where(cond, a, b)

    # -- casts ----------------------------------------------------------------------------------

    @handles("arith.extsi", "arith.trunci", "arith.index_cast")
    def _signed_int_cast(self, op: Operation, x: Any) -> Any:
        src = op.operand(0).type
        return wrap(np.asarray(as_signed(x, bit_width(src))).astype(np.int64), op.results[0].type)

    @handles("arith.extui", "arith.index_castui")
    def _unsigned_int_cast(self, op: Operation, x: Any) -> Any:
        src = op.operand(0).type
        return wrap(as_unsigned(x, bit_width(src)), op.results[0].type)

    @handles("arith.extf")
    def _extf(self, op: Operation, x: Any) -> Any:
        return np.asarray(x).astype(dtype_of(op.results[0].type))

    @handles("arith.truncf")
    def _truncf(self, op: Operation, x: Any) -> Any:
        mode = op.get_attr("roundingmode")
        dtype = dtype_of(op.results[0].type)
        if mode is None or mode.value == 0:  # type: ignore[attr-defined]
            return np.asarray(x).astype(dtype)
        if not 0 < mode.value < len(_ROUNDING_MODES):  # type: ignore[attr-defined]
            raise unsupported(op, f"with rounding mode {mode}")
        return truncate_float(np.asarray(x), dtype, _ROUNDING_MODES[mode.value])  # type: ignore

    @handles("arith.sitofp", "arith.uitofp")
    def _int_to_float(self, op: Operation, x: Any) -> Any:
        w = bit_width(op.operand(0).type)
        ints = as_unsigned(x, w) if op.name == "arith.uitofp" else as_signed(x, w)
        return np.asarray(ints).astype(dtype_of(op.results[0].type))

    @handles("arith.fptosi", "arith.fptoui")
    def _float_to_int(self, op: Operation, x: Any) -> Any:
        # Out-of-range values are poison in MLIR; the container's cast result is kept.
        t = op.results[0].type
        container = np.uint64 if op.name == "arith.fptoui" else np.int64
        return wrap(np.trunc(x).astype(container), t)

    @handles("arith.bitcast")
    def _bitcast(self, op: Operation, x: Any) -> Any:
        dst = op.results[0].type
        dtype = dtype_of(dst)
        src_w = bit_width(op.operand(0).type)
        arr = np.asarray(x)
        if arr.dtype == np.bool_ or dtype == np.bool_:
            return arr.astype(dtype)
        if arr.dtype.itemsize * 8 != src_w or dtype.itemsize * 8 != src_w:
            if type(A.element_type_of(dst)) is A.FloatType:
                raise unsupported(op, f"to {dst}")
            return wrap(as_unsigned(arr, src_w), dst)
        return _scalar_if_0d(np.array(arr, order="C").view(dtype))


_ROUNDING_MODES = ("to_nearest_even", "downward", "upward", "toward_zero", "to_nearest_away")


def truncate_float(x: np.ndarray, dtype: np.dtype, mode: str) -> np.ndarray:
    """x rounded to the narrower float `dtype` by an arith.truncf rounding mode.

    Starts from the nearest-even result and steps one ulp where the mode wants the other
    neighbour; differences of neighbours of x are exact in x's precision (Sterbenz).
    """
    r = x.astype(dtype)
    back = r.astype(x.dtype)
    if mode == "downward":
        fix = back > x
        target = -np.inf
    elif mode == "upward":
        fix = back < x
        target = np.inf
    elif mode == "toward_zero":
        fix = np.abs(back) > np.abs(x)
        target = 0.0
    else:  # to_nearest_away: on a tie, nearest-even may have picked the smaller magnitude
        other = np.nextafter(r, np.where(back < x, np.inf, -np.inf).astype(dtype))
        tie = ((x - back) == (other.astype(x.dtype) - x)) & np.isfinite(other)
        fix = tie & (np.abs(other) > np.abs(r))
        return np.where(fix, other, r)
    return np.where(fix, np.nextafter(r, np.asarray(target, dtype)), r)


def _wrap_python(values: np.ndarray, t: A.Type) -> Any:
    """Object arrays of non-negative Python ints below 2**width, stored as type `t`."""
    w = bit_width(t)
    half = 1 << (w - 1)
    signed = np.where(values >= half, values - (1 << w), values) if w > 1 else values
    if w == 1:
        return _scalar_if_0d(np.asarray(signed).astype(np.bool_))
    return _scalar_if_0d(np.asarray(signed).astype(np.int64).astype(dtype_of(t)))


_RING = {"arith.addi": np.add, "arith.subi": np.subtract, "arith.muli": np.multiply}
_BITWISE = {"arith.andi": np.bitwise_and, "arith.ori": np.bitwise_or, "arith.xori": np.bitwise_xor}
_FLOAT_BINARY = {
    "arith.addf": np.add, "arith.subf": np.subtract, "arith.mulf": np.multiply,
    "arith.divf": np.divide, "arith.remf": np.fmod,
}  # fmt: skip
_FLOAT_MINMAX = {
    "arith.maximumf": _float_max, "arith.minimumf": _float_min,
    "arith.maxnumf": np.fmax, "arith.minnumf": np.fmin,
}  # fmt: skip


def attribute_value(op: Operation, attr: Any, t: A.Type) -> Any:
    """The run-time value of a constant attribute (IntegerAttr, FloatAttr, DenseElementsAttr)."""
    kind = type(attr)
    if kind is A.DenseElementsAttr:
        if isinstance(t, A.ShapedType) and attr.type is t:
            arr = attr.array
            dtype = dtype_of(t)
            return arr if arr.dtype == dtype else arr.astype(dtype)
        raise unsupported(op, f"with a dense value of type {attr.type} for {t}")
    dtype = dtype_of(t)
    if kind is A.IntegerAttr:
        w = bit_width(t)
        v = attr.value & ((1 << w) - 1)
        if w == 1:
            return np.bool_(v)
        if v >= 1 << (w - 1):
            v -= 1 << w
        return dtype.type(v)
    if kind is A.FloatAttr:
        return dtype.type(attr.value)
    raise unsupported(op, f"with value {attr}")


# ---------------------------------------------------------------------------------------------
# math


def _rsqrt(x: Any) -> Any:
    return np.reciprocal(np.sqrt(x))


_MATH_UNARY = {
    "math.absf": np.abs, "math.acos": np.arccos, "math.acosh": np.arccosh,
    "math.asin": np.arcsin, "math.asinh": np.arcsinh, "math.atan": np.arctan,
    "math.atanh": np.arctanh, "math.cbrt": np.cbrt, "math.ceil": np.ceil, "math.cos": np.cos,
    "math.cosh": np.cosh, "math.erf": erf, "math.erfc": erfc, "math.exp": np.exp,
    "math.exp2": np.exp2, "math.expm1": np.expm1, "math.floor": np.floor, "math.log": np.log,
    "math.log10": np.log10, "math.log1p": np.log1p, "math.log2": np.log2,
    "math.round": _round_half_away, "math.roundeven": np.rint, "math.rsqrt": _rsqrt,
    "math.sin": np.sin, "math.sinh": np.sinh, "math.sqrt": np.sqrt, "math.tan": np.tan,
    "math.tanh": np.tanh, "math.trunc": np.trunc,
}  # fmt: skip
_MATH_BINARY = {"math.atan2": np.arctan2, "math.copysign": np.copysign, "math.powf": np.power}


def _count_bits(u: Any, w: int, what: str) -> Any:
    """ctlz / cttz / ctpop of unsigned values of width `w` (vectorized over bit positions)."""
    u = np.asarray(u).astype(np.uint64)
    bits = (u[..., None] >> np.arange(w, dtype=np.uint64)) & np.uint64(1)
    if what == "ctpop":
        return bits.sum(axis=-1)
    if what == "cttz":
        seen = np.cumsum(bits, axis=-1) > 0
        return w - seen.sum(axis=-1)
    seen = np.cumsum(bits[..., ::-1], axis=-1) > 0
    return w - seen.sum(axis=-1)


def _split(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    c = x * 134217729.0  # 2**27 + 1
    hi = c - (c - x)
    return hi, x - hi


def _fma64(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    p = a * b
    if not np.all(np.isfinite(p)):
        return np.where(np.isfinite(p), _fma64_finite(a, b, c, p), p + c)
    return _fma64_finite(a, b, c, p)


def _fma64_finite(a: np.ndarray, b: np.ndarray, c: np.ndarray, p: np.ndarray) -> np.ndarray:
    ahi, alo = _split(a)
    bhi, blo = _split(b)
    e = ((ahi * bhi - p) + ahi * blo + alo * bhi) + alo * blo  # p + e == a * b exactly
    s = p + c
    bb = s - p
    t = (p - (s - bb)) + (c - bb)  # s + t == p + c exactly
    return s + (t + e)


class MathHandlers:
    """Handlers of the math dialect."""

    @handles(*_MATH_UNARY)
    def _math_unary(self, op: Operation, x: Any) -> Any:
        return _float_same(op, _MATH_UNARY[op.name](x))

    @handles(*_MATH_BINARY)
    def _math_binary(self, op: Operation, a: Any, b: Any) -> Any:
        return _float_same(op, _MATH_BINARY[op.name](a, b))

    @handles("math.fma")
    def _fma(self, op: Operation, a: Any, b: Any, c: Any) -> Any:
        # One rounding: f16/f32 products are exact in double. For f64 the product is made
        # exact with Dekker's split and added with a compensated sum (faithful rounding).
        dtype = dtype_of(op.results[0].type)
        if dtype != np.float64:
            wide = np.asarray(a).astype(np.float64) * np.asarray(b).astype(np.float64) + c
            return np.asarray(wide).astype(dtype)
        return np.asarray(_fma64(np.asarray(a), np.asarray(b), np.asarray(c)))

    @handles("math.fpowi")
    def _fpowi(self, op: Operation, x: Any, n: Any) -> Any:
        w = bit_width(op.operand(1).type)
        return _float_same(op, np.power(x, np.asarray(as_signed(n, w)).astype(np.float64)))

    @handles("math.ipowi")
    def _ipowi(self, op: Operation, x: Any, n: Any) -> Any:
        # Square-and-multiply over all elements at once (wrapping); negative exponents follow
        # MLIR's fold: 1 for base 1, +-1 for base -1, 0 otherwise (0 ** -n is undefined).
        t = op.results[0].type
        w = bit_width(t)
        base = np.asarray(as_signed(x, w)).astype(np.int64)
        exp = np.asarray(as_signed(n, w)).astype(np.int64)
        result = np.ones(np.broadcast(base, exp).shape, np.int64)
        e = np.where(exp < 0, 0, exp)
        b = np.broadcast_to(base, result.shape).copy()
        while np.any(e > 0):
            result = np.where(e & 1, result * b, result)
            b = b * b
            e = e >> 1
        neg = np.where(base == 1, 1, np.where(base == -1, np.where(exp & 1, -1, 1), 0))
        return wrap(np.where(exp < 0, neg, result), t)

    @handles("math.absi")
    def _absi(self, op: Operation, x: Any) -> Any:
        t = op.results[0].type
        return wrap(np.abs(np.asarray(as_signed(x, bit_width(t))).astype(np.int64)), t)

    @handles("math.ctlz", "math.cttz", "math.ctpop")
    def _bit_count(self, op: Operation, x: Any) -> Any:
        t = op.results[0].type
        w = bit_width(t)
        return wrap(_count_bits(as_unsigned(x, w), w, op.name[5:]), t)

    @handles("math.isnan", "math.isinf", "math.isfinite", "math.isnormal")
    def _classify(self, op: Operation, x: Any) -> Any:
        if op.name == "math.isnan":
            return np.isnan(x)
        if op.name == "math.isinf":
            return np.isinf(x)
        if op.name == "math.isfinite":
            return np.isfinite(x)
        a = np.abs(x)
        return np.isfinite(a) & (a >= np.finfo(np.asarray(x).dtype).tiny)
