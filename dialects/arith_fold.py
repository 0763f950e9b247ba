"""Folding for arith and math: constant arithmetic (two's-complement integers of any width, IEEE
floats rounded to their type's precision, over scalars and dense constants) and the folds with at
most one constant operand (identities such as x + 0, cast chains such as extsi(extsi(x))).

Folders return an attribute (a constant), an existing Value, a list of those (multi-result ops),
or None. Returning the op's own result means "updated in place" (MLIR's convention), as when a
commutative op moves its constant operand to the right.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from mlc.ir import attributes as A
from mlc.ir.opdef import ConstantLike
from mlc.syntax import floats as FL

INDEX_WIDTH = 64
"""Bit width folders use for `index` (MLIR's IndexType::kInternalStorageBitWidth)."""

DENSE_FOLD_LIMIT = 4096
"""Non-splat constants with more elements are not folded: the result would bloat the IR."""

_INF = float("inf")

# ---------------------------------------------------------------------------------------------
# Integers: values are Python ints; attributes store the signed value (i1: 0 or 1), as MLIR prints.


def int_width(t: A.Type) -> int:
    """Bit width of an integer or index type (scalar or element type)."""
    return INDEX_WIDTH if type(t) is A.IndexType else t.width  # type: ignore[attr-defined]


def wrap(v: int, w: int) -> int:
    """The canonical stored value of `v` truncated to `w` bits."""
    if w <= 1:
        return v & w
    v &= (1 << w) - 1
    return v - (1 << w) if v >> (w - 1) else v


def to_unsigned(v: int, w: int) -> int:
    return v & ((1 << w) - 1)


def to_signed(v: int, w: int) -> int:
    """The two's-complement signed reading of the low `w` bits (i1 `true` reads as -1)."""
    v &= (1 << w) - 1
    return v - (1 << w) if w and v >> (w - 1) else v


def int_min(w: int) -> int:
    return -(1 << (w - 1))


def int_max(w: int) -> int:
    return (1 << (w - 1)) - 1


def _sdiv_trunc(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def divsi(a: int, b: int, w: int) -> int | None:
    a, b = to_signed(a, w), to_signed(b, w)
    if b == 0 or (a == int_min(w) and b == -1):
        return None  # division by zero or overflow: undefined behaviour, left alone
    return _sdiv_trunc(a, b)


def divui(a: int, b: int, w: int) -> int | None:
    a, b = to_unsigned(a, w), to_unsigned(b, w)
    return None if b == 0 else a // b


def remsi(a: int, b: int, w: int) -> int | None:
    a, b = to_signed(a, w), to_signed(b, w)
    if b == 0:
        return None
    return a - b * _sdiv_trunc(a, b)


def remui(a: int, b: int, w: int) -> int | None:
    a, b = to_unsigned(a, w), to_unsigned(b, w)
    return None if b == 0 else a % b


def ceildivsi(a: int, b: int, w: int) -> int | None:
    a, b = to_signed(a, w), to_signed(b, w)
    if b == 0 or (a == int_min(w) and b == -1):
        return None
    return -((-a) // b)


def ceildivui(a: int, b: int, w: int) -> int | None:
    a, b = to_unsigned(a, w), to_unsigned(b, w)
    return None if b == 0 else -((-a) // b)


def floordivsi(a: int, b: int, w: int) -> int | None:
    a, b = to_signed(a, w), to_signed(b, w)
    if b == 0 or (a == int_min(w) and b == -1):
        return None
    return a // b


def shli(a: int, b: int, w: int) -> int | None:
    b = to_unsigned(b, w)
    return None if b >= w else a << b  # shifting by the width or more is poison


def shrui(a: int, b: int, w: int) -> int | None:
    b = to_unsigned(b, w)
    return None if b >= w else to_unsigned(a, w) >> b


def shrsi(a: int, b: int, w: int) -> int | None:
    b = to_unsigned(b, w)
    return None if b >= w else to_signed(a, w) >> b


def maxsi(a: int, b: int, w: int) -> int:
    return a if to_signed(a, w) >= to_signed(b, w) else b


def minsi(a: int, b: int, w: int) -> int:
    return a if to_signed(a, w) <= to_signed(b, w) else b


def maxui(a: int, b: int, w: int) -> int:
    return a if to_unsigned(a, w) >= to_unsigned(b, w) else b


def minui(a: int, b: int, w: int) -> int:
    return a if to_unsigned(a, w) <= to_unsigned(b, w) else b


# cmpi predicates (MLIR's CmpIPredicate numbering).
CMPI_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


def cmpi(pred: int, a: int, b: int, w: int) -> bool:
    if pred >= 6:
        a, b = to_unsigned(a, w), to_unsigned(b, w)
        pred -= 4
    elif pred >= 2:
        a, b = to_signed(a, w), to_signed(b, w)
    else:
        a, b = to_unsigned(a, w), to_unsigned(b, w)
    if pred == 0:
        return a == b
    if pred == 1:
        return a != b
    return (a < b, a <= b, a > b, a >= b)[pred - 2]


def cmpi_equal_operands(pred: int) -> bool:
    """The value of `cmpi pred, %x, %x`."""
    return pred in (0, 3, 5, 7, 9)


# ---------------------------------------------------------------------------------------------
# Floats: values are Python floats holding the exact value of the type's number.

# Kinds whose arithmetic is exact in double precision followed by one rounding (IEEE-style
# formats of at most 24 significand bits: a double holds any sum/product/quotient exactly enough).
_FOLDABLE_FLOATS = frozenset(
    kind for kind, (_, _, mbits, style) in FL.SEMANTICS.items() if style == "ieee" and mbits <= 23
) | {"f64"}


def can_fold_float(t: A.Type) -> bool:
    """Whether folders can compute in this float type's semantics (f16, bf16, f32, f64, ...)."""
    return t.kind in _FOLDABLE_FLOATS  # type: ignore[attr-defined]


def round_float(x: float | int, t: A.Type) -> float | None:
    """`x` rounded to nearest-even in float type `t` (inf on overflow); None for other types."""
    kind = t.kind  # type: ignore[attr-defined]
    if kind not in _FOLDABLE_FLOATS:
        return None
    if type(x) is int and (kind == "f64" or abs(x) >= 1 << 53):
        return _round_int(x, kind)
    return FL.round_to_kind(float(x), kind)


def _round_int(v: int, kind: str) -> float:
    """An integer of any size rounded to `kind` in one step (no double rounding via f64)."""
    _, ebits, mbits, _ = FL.SEMANTICS[kind]
    emax = (1 << (ebits - 1)) - 1
    mag = abs(v)
    shift = mag.bit_length() - (mbits + 1)
    if shift > 0:
        q, r = divmod(mag, 1 << shift)
        half = 1 << (shift - 1)
        if r > half or (r == half and q & 1):
            q += 1
        mag = q << shift
    if mag >= 1 << (emax + 1):
        return math.copysign(_INF, v)
    return float(-mag if v < 0 else mag)


def float_is_exact_in(x: float, t: A.Type) -> bool:
    r = round_float(x, t)
    return r is not None and (r == x or (r != r and x != x))


def float_to_bits(x: float, t: A.Type) -> int | None:
    kind = t.kind  # type: ignore[attr-defined]
    return FL.float_to_bits(x, kind) if kind in _FOLDABLE_FLOATS else None


def float_from_bits(bits: int, t: A.Type) -> float | None:
    kind = t.kind  # type: ignore[attr-defined]
    return FL.float_from_bits(bits, kind) if kind in _FOLDABLE_FLOATS else None


def fptoint(x: float, w: int, is_signed: bool) -> int | None:
    """Truncation toward zero; None when NaN, infinite or out of range (MLIR's opInvalidOp)."""
    if x != x or x in (_INF, -_INF):
        return None
    v = int(x)
    lo, hi = (int_min(w), int_max(w)) if is_signed else (0, (1 << w) - 1)
    return v if lo <= v <= hi else None


def ieee(fn: Callable[..., float]) -> Callable[..., float]:
    """`fn` with MLIR's (APFloat's) NaN: a NaN made from non-NaN operands is the positive
    default NaN (x86 makes a negative one); NaN operands propagate as they are."""

    def apply(*args: float) -> float:
        r = fn(*args)
        if r != r and all(a == a for a in args):
            return math.nan
        return r

    return apply


def _np(x: float) -> np.float64:
    return np.float64(x)


def maximumf(a: float, b: float) -> float:
    """IEEE maximum: NaN-propagating, -0 < +0 (llvm::maximum)."""
    if a != a or b != b:
        return math.nan
    if a == b == 0.0:
        return b if math.copysign(1.0, a) < 0 else a
    return a if a > b else b


def minimumf(a: float, b: float) -> float:
    if a != a or b != b:
        return math.nan
    if a == b == 0.0:
        return a if math.copysign(1.0, a) < 0 else b
    return a if a < b else b


def maxnumf(a: float, b: float) -> float:
    """IEEE maxNum: a NaN operand yields the other one (llvm::maxnum)."""
    if a != a:
        return b
    if b != b:
        return a
    return maximumf(a, b)


def minnumf(a: float, b: float) -> float:
    if a != a:
        return b
    if b != b:
        return a
    return minimumf(a, b)


def remf(a: float, b: float) -> float:
    with np.errstate(all="ignore"):
        return float(np.fmod(_np(a), _np(b)))


def divf(a: float, b: float) -> float:
    with np.errstate(all="ignore"):
        return float(_np(a) / _np(b))


# cmpf predicates (MLIR's CmpFPredicate numbering): bit 0 = less, 1 = equal, 2 = greater,
# 3 = unordered, as in LLVM's FCmpInst encoding.
CMPF_PREDICATES = (
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
)  # fmt: skip
_CMPF_MASKS = (0, 2, 4, 6, 1, 3, 5, 7, 10, 12, 14, 9, 11, 13, 8, 15)


def cmpf(pred: int, a: float, b: float) -> bool:
    if a != a or b != b:
        outcome = 8
    elif a < b:
        outcome = 1
    elif a == b:
        outcome = 2
    else:
        outcome = 4
    return bool(_CMPF_MASKS[pred] & outcome)


# ---------------------------------------------------------------------------------------------
# Constant attributes: scalars (IntegerAttr, FloatAttr) and DenseElementsAttr, elementwise.


def splat_value(attr: A.Attribute | None) -> int | float | None:
    """The value of a scalar constant or of a splat dense constant, else None."""
    t = type(attr)
    if t is A.IntegerAttr or t is A.FloatAttr:
        return attr.value  # type: ignore[union-attr]
    if t is A.DenseElementsAttr and attr.is_splat:  # type: ignore[union-attr]
        v = attr.splat_value  # type: ignore[union-attr]
        return int(v) if type(v) is bool else v
    return None


def is_int_splat(attr: A.Attribute | None, value: int) -> bool:
    """A scalar or splat integer constant equal to `value` (compared in the type's width)."""
    if attr is None:  # the folders' common case: the operand is not a constant
        return False
    if type(attr) is A.IntegerAttr:
        v, et = attr.value, attr.type  # type: ignore[attr-defined]
    else:
        v = splat_value(attr)
        if v is None or type(v) is float:
            return False
        et = A.element_type_of(attr.type)  # type: ignore[attr-defined]
    if v == value:
        return True
    w = int_width(et)
    return wrap(v, w) == wrap(value, w)  # type: ignore[arg-type]


def is_float_splat(attr: A.Attribute | None, value: float) -> bool:
    """A scalar or splat float constant equal to `value`, sign of zero included."""
    v = splat_value(attr)
    if type(v) is not float:
        return False
    return v == value and math.copysign(1.0, v) == math.copysign(1.0, value)  # type: ignore[arg-type]


def _element_converter(et: A.Type) -> Callable[[Any], Any] | None:
    """A function turning a computed scalar into the stored value for element type `et`."""
    tt = type(et)
    if tt is A.IntegerType or tt is A.IndexType:
        w = int_width(et)
        return lambda v: wrap(int(v), w)
    if tt is A.FloatType:
        if not can_fold_float(et):
            return None
        return lambda v: round_float(v, et)
    return None


def scalar_attr(value: Any, t: A.Type) -> A.Attribute | None:
    """The constant attribute of scalar type `t` holding `value` (None if `t` cannot fold)."""
    conv = _element_converter(t)
    if conv is None:
        return None
    v = conv(value)
    if v is None:
        return None
    return A.FloatAttr(v, t) if type(t) is A.FloatType else A.IntegerAttr(v, t)


def _dense_values(attr: A.DenseElementsAttr) -> list[Any]:
    values = attr.array.reshape(-1).tolist()
    if attr.type.element_type is A.i1:
        return [int(v) for v in values]
    return values


def fold_elementwise(
    fn: Callable[..., Any], operands: Sequence[A.Attribute | None], result_type: A.Type
) -> A.Attribute | None:
    """Apply scalar `fn` (None = no fold) to constant operands, elementwise for dense ones.

    Operands must all be scalars or all dense constants of one shape; the result is built for
    `result_type`, wrapping integers and rounding floats to its element type.
    """
    first = operands[0]
    if type(first) is A.IntegerAttr or type(first) is A.FloatAttr:
        for a in operands:
            if type(a) is not A.IntegerAttr and type(a) is not A.FloatAttr:
                return None
        v = fn(*[a.value for a in operands])  # type: ignore[union-attr]
        return None if v is None else scalar_attr(v, result_type)
    if type(first) is not A.DenseElementsAttr or not isinstance(result_type, A.ShapedType):
        return None
    for a in operands:
        if type(a) is not A.DenseElementsAttr:
            return None
    if not result_type.has_static_shape():
        return None
    conv = _element_converter(result_type.element_type)
    if conv is None:
        return None
    if all(a.is_splat for a in operands):  # type: ignore[union-attr]
        v = fn(*[splat_value(a) for a in operands])
        if v is None or (v := conv(v)) is None:
            return None
        return A.DenseElementsAttr(result_type, v)
    if result_type.num_elements > DENSE_FOLD_LIMIT:
        return None
    columns = [_dense_values(a) for a in operands]  # type: ignore[arg-type]
    out = []
    for args in zip(*columns, strict=True):
        v = fn(*args)
        if v is None or (v := conv(v)) is None:
            return None
        out.append(v)
    return A.DenseElementsAttr(result_type, np.array(out).reshape(result_type.shape))


def splat_like(value: Any, t: A.Type) -> A.Attribute | None:
    """A constant of type `t` (scalar, or statically shaped vector/tensor) with every element
    equal to `value`."""
    if isinstance(t, A.ShapedType):
        if type(t) not in (A.VectorType, A.RankedTensorType) or not t.has_static_shape():
            return None
        conv = _element_converter(t.element_type)
        if conv is None:
            return None
        return A.DenseElementsAttr(t, conv(value))
    return scalar_attr(value, t)


# ---------------------------------------------------------------------------------------------
# math dialect helpers


def fma(a: float, b: float, c: float, t: A.Type) -> float | None:
    """a * b + c with a single rounding to float type `t`."""
    if not all(math.isfinite(x) for x in (a, b, c)):
        with np.errstate(all="ignore"):
            return round_float(float(_np(a) * _np(b) + _np(c)), t)
    q = Fraction(a) * Fraction(b) + Fraction(c)
    if q == 0:
        # The sign of an exact zero follows IEEE: -0 only when both addends are -0 (or the
        # product is -0 and c is -0).
        prod = a * b
        return round_float(prod + c, t)
    r = float(q)  # correctly rounded to double
    if Fraction(r) != q and t.kind != "f64":  # type: ignore[attr-defined]
        r = _round_to_odd(q, r)  # so that rounding again to `t` is correct
    return round_float(r, t)


def _round_to_odd(q: Fraction, nearest: float) -> float:
    toward_zero = nearest if abs(Fraction(nearest)) < abs(q) else math.nextafter(nearest, 0.0)
    bits = struct.unpack("<Q", struct.pack("<d", toward_zero))[0]
    if bits & 1:
        return toward_zero
    return math.nextafter(toward_zero, math.copysign(_INF, toward_zero))


def ctlz(a: int, w: int) -> int:
    return w - to_unsigned(a, w).bit_length()


def cttz(a: int, w: int) -> int:
    u = to_unsigned(a, w)
    return w if u == 0 else (u & -u).bit_length() - 1


def ctpop(a: int, w: int) -> int:
    return bin(to_unsigned(a, w)).count("1")


def ipowi(base: int, power: int, w: int) -> int | None:
    """Integer power with wrap-around; MLIR's folding rules for negative powers."""
    base, power = to_signed(base, w), to_signed(power, w)
    if power == 0:
        return 1
    if power < 0:
        if base == 0:
            return None
        if base == 1:
            return 1
        if base != -1:
            return 0
        return -1 if power & 1 else 1
    return pow(base, power, 1 << w)


def round_half_away(x: float) -> float:
    """C's round(): to the nearest integer, halfway cases away from zero."""
    if not math.isfinite(x):
        return x
    t = math.trunc(x)
    if abs(x - t) >= 0.5:
        t += 1 if x > 0 else -1
    return math.copysign(float(t), x)


def is_normal(x: float, t: A.Type) -> bool:
    """Finite, non-zero and not subnormal in float type `t`."""
    if not math.isfinite(x) or x == 0.0:
        return False
    _, ebits, _, _ = FL.SEMANTICS[t.kind]  # type: ignore[attr-defined]
    return abs(x) >= math.ldexp(1.0, 2 - (1 << (ebits - 1)))


# ---------------------------------------------------------------------------------------------
# Folds with at most one constant operand. Ops are matched by name, so that this module does
# not import the dialects; `op.lhs` / `op.rhs` / `op.input` / `op.res` are their accessors.


def constant_of(value: Any) -> A.Attribute | None:
    """The attribute of a value defined by a ConstantLike op, else None."""
    op = value.defining_op()
    if op is not None and ConstantLike in type(op)._traits:
        return op.get_attr("value")
    return None


def _defined_by(value: Any, name: str) -> Any:
    op = value.defining_op()
    return op if op is not None and op.name == name else None


def _all_ones(attr: A.Attribute | None) -> bool:
    return is_int_splat(attr, -1)


def _is_not_of(value: Any, x: Any) -> bool:
    """`value` is `arith.xori x, -1`."""
    op = _defined_by(value, "arith.xori")
    return op is not None and op.lhs is x and _all_ones(constant_of(op.rhs))


def move_constant_right(op: Any) -> Any:
    """Swap the operands of a commutative op whose only constant is on the left, in place (MLIR's
    commutative trait fold); returns the op's own result."""
    lhs, rhs = op.operand(0), op.operand(1)
    op.set_operand(0, rhs)
    op.set_operand(1, lhs)
    return op.results[0]


Attr = A.Attribute | None


def addi_identity(op: Any, lhs: Attr, rhs: Attr) -> Any:
    # Operands read from the operand list (addi's two fixed operands): a fold runs at every
    # visit of every addi, and the named accessors cost a call each.
    a, b = op._operands[0].value, op._operands[1].value
    if rhs is not None and is_int_splat(rhs, 0):
        return a
    for mine, other in ((a, b), (b, a)):
        sub = mine.defining_op()
        if sub is not None and sub.name == "arith.subi" and sub._operands[1].value is other:
            return sub._operands[0].value  # (a - b) + b -> a
    return None


def subi_identity(op: Any, lhs: Attr, rhs: Attr) -> Any:
    if op.lhs is op.rhs:
        return splat_like(0, op.res.type)
    if is_int_splat(rhs, 0):
        return op.lhs
    add = _defined_by(op.lhs, "arith.addi")
    if add is not None:
        if add.rhs is op.rhs:
            return add.lhs  # (a + b) - b -> a
        if add.lhs is op.rhs:
            return add.rhs  # (a + b) - a -> b
    return None


def muli_identity(op: Any, lhs: Attr, rhs: Attr) -> Any:
    if is_int_splat(rhs, 0):
        return op.rhs
    return op.lhs if is_int_splat(rhs, 1) else None


# Identities of division-like ops hold where the divisor is non-zero; a zero divisor is
# undefined behaviour, so any result refines it (as in MLIR).


def div_identity(op: Any, lhs: Attr, rhs: Attr) -> Any:
    if is_int_splat(rhs, 1) or is_int_splat(lhs, 0):
        return op.lhs  # x / 1 -> x;  0 / x -> 0
    return splat_like(1, op.res.type) if op.lhs is op.rhs else None


def rem_identity(op: Any, lhs: Attr, rhs: Attr) -> Any:
    if is_int_splat(lhs, 0):
        return op.lhs  # 0 % x -> 0
    if is_int_splat(rhs, 1) or op.lhs is op.rhs:
        return splat_like(0, op.res.type)
    return None


def shift_identity(op: Any, lhs: Attr, rhs: Attr) -> Any:
    """x << 0 -> x; 0 << x -> 0; for right shifts x >> x -> 0 (x < 2^x, or poison)."""
    if is_int_splat(rhs, 0) or is_int_splat(lhs, 0):
        return op.lhs
    if op.name != "arith.shli" and op.lhs is op.rhs:
        return splat_like(0, op.res.type)
    if op.name == "arith.shrsi" and _all_ones(lhs):
        return op.lhs  # -1 >>s x -> -1
    return None


def andi_identity(op: Any, lhs: Attr, rhs: Attr) -> Any:
    if is_int_splat(rhs, 0):
        return op.rhs
    if _all_ones(rhs) or op.lhs is op.rhs:
        return op.lhs
    if _is_not_of(op.lhs, op.rhs) or _is_not_of(op.rhs, op.lhs):
        return splat_like(0, op.res.type)  # x & ~x -> 0
    return None


def ori_identity(op: Any, lhs: Attr, rhs: Attr) -> Any:
    if is_int_splat(rhs, 0) or op.lhs is op.rhs:
        return op.lhs
    if _all_ones(rhs):
        return op.rhs
    if _is_not_of(op.lhs, op.rhs) or _is_not_of(op.rhs, op.lhs):
        return splat_like(-1, op.res.type)  # x | ~x -> -1
    return None


def xori_identity(op: Any, lhs: Attr, rhs: Attr) -> Any:
    if is_int_splat(rhs, 0):
        return op.lhs
    if op.lhs is op.rhs:
        return splat_like(0, op.res.type)
    inner = _defined_by(op.lhs, "arith.xori")
    if inner is not None:
        if inner.rhs is op.rhs:
            return inner.lhs  # (x ^ a) ^ a -> x
        if inner.lhs is op.rhs:
            return inner.rhs  # (a ^ x) ^ a -> x
    return None


def min_max_identity(op: Any, lhs: Attr, rhs: Attr) -> Any:
    """(x, x) -> x; with the absorbing bound -> the bound; with the neutral bound -> x."""
    if op.lhs is op.rhs:
        return op.lhs
    if rhs is None:
        return None
    w = int_width(A.element_type_of(op.lhs.type))
    top, bottom = (int_max(w), int_min(w)) if op._signed else (-1, 0)
    absorbing, neutral = (top, bottom) if op._is_max else (bottom, top)
    if is_int_splat(rhs, absorbing):
        return op.rhs
    return op.lhs if is_int_splat(rhs, neutral) else None


def addf_identity(op: Any, lhs: Attr, rhs: Attr) -> Any:
    return op.lhs if is_float_splat(rhs, -0.0) else None  # x + -0.0 -> x


def subf_identity(op: Any, lhs: Attr, rhs: Attr) -> Any:
    return op.lhs if is_float_splat(rhs, 0.0) else None  # x - +0.0 -> x


def mul_div_f_identity(op: Any, lhs: Attr, rhs: Attr) -> Any:
    return op.lhs if is_float_splat(rhs, 1.0) else None  # x * 1.0, x / 1.0 -> x


def maximumf_identity(op: Any, lhs: Attr, rhs: Attr) -> Any:
    return op.lhs if op.lhs is op.rhs or is_float_splat(rhs, -_INF) else None


def minimumf_identity(op: Any, lhs: Attr, rhs: Attr) -> Any:
    return op.lhs if op.lhs is op.rhs or is_float_splat(rhs, _INF) else None


def num_min_max_identity(op: Any, lhs: Attr, rhs: Attr) -> Any:
    """maxnumf/minnumf: (x, x) -> x; (x, NaN) -> x."""
    v = splat_value(rhs)
    return op.lhs if op.lhs is op.rhs or (v is not None and v != v) else None


# cmpi with its operands swapped: eq, ne, sgt, sge, slt, sle, ugt, uge, ult, ule.
_CMPI_SWAPPED = (0, 1, 4, 5, 2, 3, 8, 9, 6, 7)


def fold_cmpi(op: Any, operand_attrs: list) -> Any:
    lhs, rhs = operand_attrs
    pred = op.get_attr("predicate").value
    if op.lhs is op.rhs:
        return splat_like(int(cmpi_equal_operands(pred)), op.res.type)
    is_bool = A.element_type_of(op.lhs.type) is A.i1
    if pred == 1 and is_int_splat(rhs, 0):
        ext = op.lhs.defining_op()
        if ext is not None and ext.name in ("arith.extsi", "arith.extui"):
            if A.element_type_of(ext.input.type) is A.i1:
                return ext.input  # ext(%x : i1) != 0 -> %x
        if is_bool:
            return op.lhs  # %x != false -> %x
    if pred == 0 and is_bool and is_int_splat(rhs, 1):
        return op.lhs  # %x == true -> %x
    if lhs is not None and rhs is None:
        op.set_attr("predicate", A.IntegerAttr(_CMPI_SWAPPED[pred], A.i64))
        return move_constant_right(op)
    if lhs is None or rhs is None:
        return None
    w = int_width(A.element_type_of(op.lhs.type))
    return fold_elementwise(lambda a, b: cmpi(pred, a, b, w), operand_attrs, op.res.type)


def fold_cmpf(op: Any, operand_attrs: list) -> Any:
    lhs, rhs = operand_attrs
    pred = op.get_attr("predicate").value
    if pred in (0, 15):
        return splat_like(int(pred == 15), op.res.type)
    # With one NaN operand the other operand does not matter.
    for v in (splat_value(lhs), splat_value(rhs)):
        if v is not None and v != v:
            return splat_like(int(cmpf(pred, v, v)), op.res.type)
    if lhs is None or rhs is None:
        return None
    return fold_elementwise(lambda a, b: cmpf(pred, a, b), operand_attrs, op.res.type)


def fold_select(op: Any, operand_attrs: list) -> Any:
    cond, tv, fv = operand_attrs
    if op.true_value is op.false_value or is_int_splat(cond, 1):
        return op.true_value
    if is_int_splat(cond, 0):
        return op.false_value
    if op.res.type is A.i1 and is_int_splat(tv, 1) and is_int_splat(fv, 0):
        return op.condition  # select(c, true, false) -> c
    cmp = _defined_by(op.condition, "arith.cmpi")
    if cmp is not None and cmp.get_attr("predicate").value in (0, 1):
        operands = {cmp.lhs, cmp.rhs}
        if operands == {op.true_value, op.false_value}:
            # select(a == b, a, b) -> b;  select(a != b, a, b) -> a
            return op.true_value if cmp.get_attr("predicate").value == 1 else op.false_value
    if type(cond) is A.DenseElementsAttr and tv is not None and fv is not None:
        return fold_elementwise(lambda c, a, b: a if c else b, operand_attrs, op.res.type)
    return None


def fold_addui_extended(op: Any, operand_attrs: list) -> Any:
    lhs, rhs = operand_attrs
    if is_int_splat(rhs, 0):
        no_carry = splat_like(0, op.overflow.type)
        return None if no_carry is None else [op.lhs, no_carry]
    if lhs is None or rhs is None:
        return None
    t = op.sum.type
    w = int_width(A.element_type_of(t))
    total = fold_elementwise(lambda a, b: a + b, operand_attrs, t)
    carry = fold_elementwise(
        lambda a, b: to_unsigned(a, w) + to_unsigned(b, w) >> w, operand_attrs, op.overflow.type
    )
    return None if total is None or carry is None else [total, carry]


def fold_mul_extended(op: Any, operand_attrs: list) -> Any:
    lhs, rhs = operand_attrs
    if is_int_splat(rhs, 0):
        return [op.rhs, op.rhs]
    if not op._signed and is_int_splat(rhs, 1):
        zero = splat_like(0, op.lhs.type)
        return None if zero is None else [op.lhs, zero]
    if lhs is None or rhs is None:
        return None
    t = op.lhs.type
    w = int_width(A.element_type_of(t))
    conv = to_signed if op._signed else to_unsigned
    low = fold_elementwise(lambda a, b: a * b, operand_attrs, t)
    high = fold_elementwise(lambda a, b: conv(a, w) * conv(b, w) >> w, operand_attrs, t)
    return None if low is None or high is None else [low, high]


# Cast chains.


def ext_of_same(op: Any) -> Any:
    """ext(ext(x)) -> ext(x), updated in place."""
    inner = _defined_by(op.input, op.name)
    if inner is None:
        return None
    op.set_operand(0, inner.input)
    return op.res


def trunci_chain(op: Any) -> Any:
    inner = op.input.defining_op()
    name = "" if inner is None else inner.name
    if name in ("arith.extsi", "arith.extui"):
        src = inner.input
        if src.type is op.res.type:
            return src  # trunci(ext(x)) -> x
        if int_width(A.element_type_of(src.type)) > int_width(A.element_type_of(op.res.type)):
            op.set_operand(0, src)  # trunci(ext(x)) -> trunci(x)
            return op.res
    elif name == "arith.trunci":
        op.set_operand(0, inner.input)  # trunci(trunci(x)) -> trunci(x)
        return op.res
    return None


def _contracts(op: Any) -> bool:
    flags = op.get_attr("fastmath")
    return flags is not None and flags.flags & 32 != 0  # `contract`


def extf_chain(op: Any) -> Any:
    """extf(truncf(x)) -> x, only when both allow contraction (it skips a rounding)."""
    inner = _defined_by(op.input, "arith.truncf")
    if (
        inner is not None
        and inner.input.type is op.res.type
        and _contracts(op)
        and _contracts(inner)
    ):
        return inner.input
    return None


def truncf_chain(op: Any) -> Any:
    inner = _defined_by(op.input, "arith.extf")
    return inner.input if inner is not None and inner.input.type is op.res.type else None


def bitcast_chain(op: Any) -> Any:
    inner = _defined_by(op.input, "arith.bitcast")
    return inner.input if inner is not None and inner.input.type is op.res.type else None
