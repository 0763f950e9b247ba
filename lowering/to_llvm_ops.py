"""`convert-to-llvm`, part 3: arith, math and vector ops (scalar and 1-D vector values).

Math functions with an LLVM intrinsic in the llvm dialect (exp, log, sqrt, fabs, fma, pow,
maxnum/minnum) use it; the others call libm (`tanhf`/`tanh`, `erff`/`erf`, ...), element by
element for vectors; f16 and bf16 compute in f32.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from mlc.dialects import llvm
from mlc.dialects import llvm_ops_arith as LA
from mlc.dialects import llvm_ops_elements as LE
from mlc.dialects.llvm_types import FastmathFlagsAttr
from mlc.lowering.to_llvm import (
    DYNAMIC,
    FCMP,
    I64,
    PTR,
    FnLowering,
    convert_type,
    llvm_bool,
    lowering,
    unsupported,
)

from mlc.ir import attributes as A
from mlc.ir.core import Operation, Value

__all__ = ["binary_by_kind", "libm_call", "fastmath", "float_minmax", "int_minmax"]

# ---------------------------------------------------------------------------------------------
# Helpers

_ARITH_FM_BITS = {
    "reassoc": 1, "nnan": 2, "ninf": 4, "nsz": 8, "arcp": 16, "contract": 32, "afn": 64,
}  # fmt: skip


def fastmath(op: Operation) -> dict[str, A.Attribute]:
    """The llvm `fastmathFlags` of an arith/math op's `fastmath` (empty when none)."""
    a = op.get_attr("fastmath")
    flags = getattr(a, "flags", 0) if a is not None else 0
    if not flags:
        return {}
    names = [n for n, b in _ARITH_FM_BITS.items() if flags & b]
    return {"fastmathFlags": FastmathFlagsAttr.from_names(*names)}


def _elem(t: A.Type) -> A.Type:
    return t.element_type if type(t) is A.VectorType else t  # type: ignore[attr-defined]


def splat_int(fn: FnLowering, value: int, t: A.Type) -> Value:
    if type(t) is A.VectorType:
        et = t.element_type  # type: ignore[attr-defined]
        if et.width == 1:  # type: ignore[attr-defined]
            value &= 1
        attr = A.DenseElementsAttr(A.VectorType(t.shape, et), value)  # type: ignore[attr-defined]
        return fn.v(llvm.ConstantOp, [], t, {"value": attr})
    return fn.const(value & 1 if t is A.i1 else value, t)


def _is_float(t: A.Type) -> bool:
    return type(_elem(t)) is A.FloatType


def _fcmp(fn: FnLowering, pred: str, a: Value, b: Value, fm: dict | None = None) -> Value:
    attrs = {"predicate": A.IntegerAttr(FCMP[pred], I64), **(fm or {})}
    return fn.v(LA.FCmpOp, [a, b], llvm_bool(a.type), attrs)


# ---------------------------------------------------------------------------------------------
# arith


@lowering("arith.constant")
def _constant(fn: FnLowering, op: Operation) -> None:
    value = op.get_attr("value")
    t = convert_type(op.results[0].type)
    tv = type(value)
    if isinstance(value, A.IntegerAttr) and type(t) is A.IntegerType:
        attr: A.Attribute = A.IntegerAttr(int(value.value), t)
    elif tv is A.FloatAttr:
        attr = value  # type: ignore[assignment]
    elif tv is A.DenseElementsAttr and type(t) is A.VectorType:
        if value.type.element_type is A.index:  # type: ignore[union-attr]
            attr = A.DenseElementsAttr(t, value.array)  # type: ignore[union-attr]
        elif value.type is not t:  # type: ignore[union-attr]
            attr = A.DenseElementsAttr(t, value.array)  # type: ignore[union-attr]
        else:
            attr = value  # type: ignore[assignment]
    else:
        raise unsupported(f"arith.constant of {op.results[0].type}")
    fn.vmap[op.results[0]] = fn.v(llvm.ConstantOp, [], t, {"value": attr})


def _binary(cls: type, flags: str = "") -> Callable[[FnLowering, Operation], None]:
    def lower(fn: FnLowering, op: Operation) -> None:
        a, b = fn.gets(op.operands)
        attrs: dict[str, A.Attribute] = {}
        if flags == "overflow":
            o = op.get_attr("overflowFlags")
            if o is not None and o.flags:  # type: ignore[attr-defined]
                attrs["overflowFlags"] = A.IntegerAttr(o.flags, A.i32)  # type: ignore[attr-defined]
        elif flags == "fastmath":
            attrs = fastmath(op)  # type: ignore[assignment]
        fn.vmap[op.results[0]] = fn.v(cls, [a, b], a.type, attrs)

    return lower


for _name, _cls, _flags in (
    ("arith.addi", LA.AddOp, "overflow"),
    ("arith.subi", LA.SubOp, "overflow"),
    ("arith.muli", LA.MulOp, "overflow"),
    ("arith.shli", LA.ShlOp, "overflow"),
    ("arith.divui", LA.UDivOp, ""),
    ("arith.divsi", LA.SDivOp, ""),
    ("arith.remui", LA.URemOp, ""),
    ("arith.remsi", LA.SRemOp, ""),
    ("arith.andi", LA.AndOp, ""),
    ("arith.ori", LA.OrOp, ""),
    ("arith.xori", LA.XOrOp, ""),
    ("arith.shrui", LA.LShrOp, ""),
    ("arith.shrsi", LA.AShrOp, ""),
    ("arith.addf", LA.FAddOp, "fastmath"),
    ("arith.subf", LA.FSubOp, "fastmath"),
    ("arith.mulf", LA.FMulOp, "fastmath"),
    ("arith.divf", LA.FDivOp, "fastmath"),
    ("arith.remf", LA.FRemOp, "fastmath"),
    ("arith.maxnumf", LE.MaxNumOp, "fastmath"),
    ("arith.minnumf", LE.MinNumOp, "fastmath"),
):
    lowering(_name)(_binary(_cls, _flags))


def int_minmax(fn: FnLowering, pred: str, a: Value, b: Value) -> Value:
    c = fn.v(LA.ICmpOp, [a, b], llvm_bool(a.type), {"predicate": A.IntegerAttr(_ICMP[pred], I64)})
    return fn.select(c, a, b)


_ICMP = {n: i for i, n in enumerate(llvm.ICMP_PREDICATES)}


@lowering("arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui")
def _int_minmax(fn: FnLowering, op: Operation) -> None:
    pred = {"maxsi": "sgt", "minsi": "slt", "maxui": "ugt", "minui": "ult"}[op.name[6:]]
    a, b = fn.gets(op.operands)
    fn.vmap[op.results[0]] = int_minmax(fn, pred, a, b)


def _float_constant(v: Value) -> float | None:
    """The value of an llvm.mlir.constant float (or splat vector of one), else None."""
    op = v.defining_op()
    if op is None or type(op) is not llvm.ConstantOp:
        return None
    a = op.get_attr("value")
    if type(a) is A.FloatAttr:
        return float(a.value)  # type: ignore[attr-defined]
    if type(a) is A.DenseElementsAttr and a.is_splat:  # type: ignore[attr-defined]
        return float(a.splat_value)  # type: ignore[attr-defined]
    return None


def float_minmax(fn: FnLowering, is_max: bool, a: Value, b: Value, fm: dict | None = None) -> Value:
    """arith.maximumf/minimumf: NaN if either is NaN, and -0.0 < +0.0."""
    fm = fm or {}
    t = a.type
    # Against a constant that is not NaN and not the zero the order would have to lift (-0.0
    # for max, +0.0 for min), one unordered compare and a select are exact: a NaN operand or
    # the strictly better one is picked, otherwise the constant (relu: max(x, +0.0)).
    for x, c in ((a, b), (b, a)):
        k = _float_constant(c)
        lifted = -1.0 if is_max else 1.0  # the sign of the zero that must not be the constant
        if k is not None and k == k and not (k == 0.0 and math.copysign(1.0, k) == lifted):
            return fn.select(_fcmp(fn, "ugt" if is_max else "ult", x, c, fm), x, c)
    pick = fn.select(_fcmp(fn, "ogt" if is_max else "olt", a, b, fm), a, b)
    # Equal values (incl. +0/-0): and/or of the bits picks +0 for max, -0 for min.
    et = _elem(t)
    it: A.Type = A.IntegerType(et.width)  # type: ignore[attr-defined]
    if type(t) is A.VectorType:
        it = A.VectorType(t.shape, it)  # type: ignore[attr-defined]
    ai = fn.v(LA.BitcastOp, [a], it)
    bi = fn.v(LA.BitcastOp, [b], it)
    both = fn.v(LA.AndOp if is_max else LA.OrOp, [ai, bi], it)
    eq_value = fn.v(LA.BitcastOp, [both], t)
    pick = fn.select(_fcmp(fn, "oeq", a, b, fm), eq_value, pick)
    nan = fn.v(LA.FAddOp, [a, b], t)  # NaN when either is
    return fn.select(_fcmp(fn, "uno", a, b, fm), nan, pick)


@lowering("arith.maximumf", "arith.minimumf")
def _float_minmax(fn: FnLowering, op: Operation) -> None:
    a, b = fn.gets(op.operands)
    fn.vmap[op.results[0]] = float_minmax(fn, op.name == "arith.maximumf", a, b, fastmath(op))


@lowering("arith.ceildivui")
def _ceildivui(fn: FnLowering, op: Operation) -> None:
    a, b = fn.gets(op.operands)
    t = a.type
    zero, one = splat_int(fn, 0, t), splat_int(fn, 1, t)
    q = fn.v(LA.UDivOp, [fn.v(LA.SubOp, [a, one], t), b], t)
    q1 = fn.v(LA.AddOp, [q, one], t)
    is_zero = fn.v(
        LA.ICmpOp, [a, zero], llvm_bool(t), {"predicate": A.IntegerAttr(_ICMP["eq"], I64)}
    )
    fn.vmap[op.results[0]] = fn.select(is_zero, zero, q1)


@lowering("arith.ceildivsi", "arith.floordivsi")
def _signed_round_div(fn: FnLowering, op: Operation) -> None:
    a, b = fn.gets(op.operands)
    t = a.type
    bt = llvm_bool(t)
    zero, one = splat_int(fn, 0, t), splat_int(fn, 1, t)

    def icmp(p: str, x: Value, y: Value) -> Value:
        return fn.v(LA.ICmpOp, [x, y], bt, {"predicate": A.IntegerAttr(_ICMP[p], I64)})

    q = fn.v(LA.SDivOp, [a, b], t)
    r = fn.v(LA.SRemOp, [a, b], t)
    inexact = icmp("ne", r, zero)
    same_sign = icmp("eq", icmp("slt", r, zero), icmp("slt", b, zero))
    if op.name == "arith.ceildivsi":
        adjust = fn.v(LA.AndOp, [inexact, same_sign], bt)
        fn.vmap[op.results[0]] = fn.select(adjust, fn.v(LA.AddOp, [q, one], t), q)
    else:
        differ = fn.v(LA.XOrOp, [same_sign, splat_int(fn, 1, bt)], bt)
        adjust = fn.v(LA.AndOp, [inexact, differ], bt)
        fn.vmap[op.results[0]] = fn.select(adjust, fn.v(LA.SubOp, [q, one], t), q)


@lowering("arith.addui_extended")
def _addui_extended(fn: FnLowering, op: Operation) -> None:
    a, b = fn.gets(op.operands)
    total = fn.v(LA.AddOp, [a, b], a.type)
    attrs = {"predicate": A.IntegerAttr(_ICMP["ult"], I64)}
    fn.vmap[op.results[0]] = total
    fn.vmap[op.results[1]] = fn.v(LA.ICmpOp, [total, a], llvm_bool(a.type), attrs)


@lowering("arith.mulsi_extended", "arith.mului_extended")
def _mul_extended(fn: FnLowering, op: Operation) -> None:
    """Low and high halves of the double-width product (MLIR's expansion)."""
    a, b = fn.gets(op.operands)
    t = a.type
    w = _width(t)
    wide_e: A.Type = A.IntegerType(2 * w)
    wide = A.VectorType(t.shape, wide_e) if type(t) is A.VectorType else wide_e  # type: ignore[attr-defined]
    ext = LA.SExtOp if op.name == "arith.mulsi_extended" else LA.ZExtOp
    p = fn.v(LA.MulOp, [fn.v(ext, [a], wide), fn.v(ext, [b], wide)], wide)
    fn.vmap[op.results[0]] = fn.v(LA.TruncOp, [p], t)
    high = fn.v(LA.LShrOp, [p, splat_int(fn, w, wide)], wide)
    fn.vmap[op.results[1]] = fn.v(LA.TruncOp, [high], t)


@lowering("arith.negf")
def _negf(fn: FnLowering, op: Operation) -> None:
    a = fn.get(op.operands[0])
    fn.vmap[op.results[0]] = fn.v(LA.FNegOp, [a], a.type, fastmath(op))


@lowering("arith.cmpi")
def _cmpi(fn: FnLowering, op: Operation) -> None:
    a, b = fn.gets(op.operands)
    pred = op.get_attr("predicate").value  # type: ignore[union-attr]
    attrs = {"predicate": A.IntegerAttr(pred, I64)}
    fn.vmap[op.results[0]] = fn.v(LA.ICmpOp, [a, b], llvm_bool(a.type), attrs)


@lowering("arith.cmpf")
def _cmpf(fn: FnLowering, op: Operation) -> None:
    a, b = fn.gets(op.operands)
    pred = op.get_attr("predicate").value  # type: ignore[union-attr]
    attrs = {"predicate": A.IntegerAttr(pred, I64), **fastmath(op)}
    fn.vmap[op.results[0]] = fn.v(LA.FCmpOp, [a, b], llvm_bool(a.type), attrs)


@lowering("arith.select")
def _select(fn: FnLowering, op: Operation) -> None:
    c, a, b = fn.gets(op.operands)
    fn.vmap[op.results[0]] = fn.select(c, a, b)


def _width(t: A.Type) -> int:
    return _elem(t).width  # type: ignore[attr-defined, no-any-return]


def _cast(cls: type, flag: str = "") -> Callable[[FnLowering, Operation], None]:
    def lower(fn: FnLowering, op: Operation) -> None:
        a = fn.get(op.operands[0])
        t = convert_type(op.results[0].type)
        attrs: dict[str, A.Attribute] = {}
        if flag == "nneg" and op.get_attr("nonNeg") is not None:
            attrs["nonNeg"] = A.UnitAttr()
        elif flag == "fastmath":
            attrs = fastmath(op)  # type: ignore[assignment]
        elif flag == "overflow":
            o = op.get_attr("overflowFlags")
            if o is not None and o.flags:  # type: ignore[attr-defined]
                attrs["overflowFlags"] = A.IntegerAttr(o.flags, A.i32)  # type: ignore[attr-defined]
        fn.vmap[op.results[0]] = fn.v(cls, [a], t, attrs)

    return lower


for _name, _cls, _flags in (
    ("arith.extui", LA.ZExtOp, "nneg"),
    ("arith.extsi", LA.SExtOp, ""),
    ("arith.trunci", LA.TruncOp, "overflow"),
    ("arith.extf", LA.FPExtOp, "fastmath"),
    ("arith.uitofp", LA.UIToFPOp, "nneg"),
    ("arith.sitofp", LA.SIToFPOp, ""),
    ("arith.fptoui", LA.FPToUIOp, ""),
    ("arith.fptosi", LA.FPToSIOp, ""),
    ("arith.bitcast", LA.BitcastOp, ""),
):
    lowering(_name)(_cast(_cls, _flags))


@lowering("arith.truncf")
def _truncf(fn: FnLowering, op: Operation) -> None:
    if op.get_attr("roundingmode") is not None:
        raise unsupported("arith.truncf with an explicit rounding mode")
    _cast(LA.FPTruncOp, "fastmath")(fn, op)


@lowering("arith.index_cast", "arith.index_castui")
def _index_cast(fn: FnLowering, op: Operation) -> None:
    a = fn.get(op.operands[0])
    t = convert_type(op.results[0].type)
    wa, wt = _width(a.type), _width(t)
    if wa == wt:
        fn.vmap[op.results[0]] = a
    elif wt < wa:
        fn.vmap[op.results[0]] = fn.v(LA.TruncOp, [a], t)
    else:
        cls = LA.SExtOp if op.name == "arith.index_cast" else LA.ZExtOp
        fn.vmap[op.results[0]] = fn.v(cls, [a], t)


# ---------------------------------------------------------------------------------------------
# math

_INTRINSICS = {
    "math.exp": LE.ExpOp, "math.log": LE.LogOp, "math.sqrt": LE.SqrtOp, "math.absf": LE.FAbsOp,
    "math.fma": LE.FMAOp, "math.powf": LE.PowOp,
}  # fmt: skip
_LIBM = (
    "acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "ceil", "cos", "cosh", "erf",
    "erfc", "exp2", "expm1", "floor", "log10", "log1p", "log2", "round", "roundeven", "sin",
    "sinh", "tan", "tanh", "trunc", "atan2", "copysign",
)  # fmt: skip
_NARROW = ("f16", "bf16")


def _widen(fn: FnLowering, vals: list[Value]) -> tuple[list[Value], A.Type | None]:
    """f16/bf16 operands extended to f32 (the narrow type is returned to truncate back)."""
    t = vals[0].type
    et = _elem(t)
    if type(et) is A.FloatType and et.kind in _NARROW:  # type: ignore[attr-defined]
        wt: A.Type = A.f32 if type(t) is not A.VectorType else A.VectorType(t.shape, A.f32)  # type: ignore[attr-defined]
        return [fn.v(LA.FPExtOp, [v], wt) for v in vals], t
    return vals, None


def _narrow(fn: FnLowering, v: Value, t: A.Type | None) -> Value:
    return v if t is None else fn.v(LA.FPTruncOp, [v], t)


def libm_call(fn: FnLowering, base: str, vals: list[Value]) -> Value:
    """Call libm's `base` (f32: `basef`), element by element for a vector."""
    t = vals[0].type
    if type(t) is A.VectorType:
        out = fn.undef(t)
        for k in range(t.shape[0]):  # type: ignore[attr-defined]
            idx = fn.const(k)
            elems = [fn.v(LE.ExtractElementOp, [v, idx], t.element_type) for v in vals]  # type: ignore[attr-defined]
            r = libm_call(fn, base, elems)
            out = fn.v(LE.InsertElementOp, [out, r, idx], t)
        return out
    if t is A.f32:
        name = base + "f"
    elif t is A.f64:
        name = base
    else:
        raise unsupported(f"libm function '{base}' on {t}")
    fn.m.declare(name, t, [t] * len(vals))
    return fn.call(name, vals, t)  # type: ignore[return-value]


@lowering(*_INTRINSICS)
def _intrinsic(fn: FnLowering, op: Operation) -> None:
    vals, narrow = _widen(fn, fn.gets(op.operands))
    r = fn.v(_INTRINSICS[op.name], vals, vals[0].type, fastmath(op))
    fn.vmap[op.results[0]] = _narrow(fn, r, narrow)


@lowering(*(f"math.{n}" for n in _LIBM))
def _libm(fn: FnLowering, op: Operation) -> None:
    vals, narrow = _widen(fn, fn.gets(op.operands))
    fn.vmap[op.results[0]] = _narrow(fn, libm_call(fn, op.name[5:], vals), narrow)


@lowering("math.rsqrt")
def _rsqrt(fn: FnLowering, op: Operation) -> None:
    vals, narrow = _widen(fn, fn.gets(op.operands))
    fm = fastmath(op)
    s = fn.v(LE.SqrtOp, vals, vals[0].type, fm)
    r = fn.v(LA.FDivOp, [fn.fconst(1.0, s.type), s], s.type, fm)
    fn.vmap[op.results[0]] = _narrow(fn, r, narrow)


@lowering("math.fpowi")
def _fpowi(fn: FnLowering, op: Operation) -> None:
    (x,), narrow = _widen(fn, [fn.get(op.operands[0])])
    n = fn.v(LA.SIToFPOp, [fn.get(op.operands[1])], x.type)
    r = fn.v(LE.PowOp, [x, n], x.type, fastmath(op))
    fn.vmap[op.results[0]] = _narrow(fn, r, narrow)


@lowering("math.absi")
def _absi(fn: FnLowering, op: Operation) -> None:
    a = fn.get(op.operands[0])
    zero = splat_int(fn, 0, a.type)
    neg = fn.v(LA.SubOp, [zero, a], a.type)
    fn.vmap[op.results[0]] = int_minmax(fn, "sgt", a, neg)


@lowering("math.isnan", "math.isinf", "math.isfinite", "math.isnormal")
def _classify(fn: FnLowering, op: Operation) -> None:
    a = fn.get(op.operands[0])
    kind = op.name[5:]
    if kind == "isnan":
        fn.vmap[op.results[0]] = _fcmp(fn, "uno", a, a)
        return
    t = a.type
    absv = fn.v(LE.FAbsOp, [a], t)
    inf = fn.fconst(float("inf"), t)
    if kind == "isinf":
        fn.vmap[op.results[0]] = _fcmp(fn, "oeq", absv, inf)
    elif kind == "isfinite":
        fn.vmap[op.results[0]] = _fcmp(fn, "one", absv, inf)
    else:
        et = _elem(t)
        smallest = {16: 2.0**-14, 32: 2.0**-126, 64: 2.0**-1022}[et.width]  # type: ignore[attr-defined]
        if et.kind == "bf16":  # type: ignore[attr-defined]
            smallest = 2.0**-126
        normal = _fcmp(fn, "oge", absv, fn.fconst(smallest, t))
        finite = _fcmp(fn, "one", absv, inf)
        fn.vmap[op.results[0]] = fn.v(LA.AndOp, [normal, finite], normal.type)


# ---------------------------------------------------------------------------------------------
# vector


def _splat(fn: FnLowering, scalar: Value, t: A.Type) -> Value:
    n = t.shape[0]  # type: ignore[attr-defined]
    v = fn.v(LE.InsertElementOp, [fn.undef(t), scalar, fn.const(0)], t)
    mask = A.DenseArrayAttr(A.i32, [0] * n)
    return fn.v(LE.ShuffleVectorOp, [v, v], t, {"mask": mask})


@lowering("vector.broadcast", "vector.splat")
def _broadcast(fn: FnLowering, op: Operation) -> None:
    src = fn.get(op.operands[0])
    t = convert_type(op.results[0].type)
    if src.type is t:
        fn.vmap[op.results[0]] = src
    elif type(src.type) is not A.VectorType:
        fn.vmap[op.results[0]] = _splat(fn, src, t)
    elif src.type.shape == (1,):  # type: ignore[attr-defined]
        e = fn.v(LE.ExtractElementOp, [src, fn.const(0)], src.type.element_type)  # type: ignore[attr-defined]
        fn.vmap[op.results[0]] = _splat(fn, e, t)
    else:
        raise unsupported(f"vector.broadcast from {op.operands[0].type}")


@lowering("vector.fma")
def _vfma(fn: FnLowering, op: Operation) -> None:
    a, b, c = fn.gets(op.operands)
    fn.vmap[op.results[0]] = fn.v(LE.FMAOp, [a, b, c], a.type)


def binary_by_kind(fn: FnLowering, kind: str, a: Value, b: Value, fm: dict | None = None) -> Value:
    """a <kind> b for vector combining kinds and arith's atomic RMW kinds."""
    t = a.type
    fl = _is_float(t)
    fm = fm or {}
    if kind in ("add", "addf", "addi"):
        return fn.v(LA.FAddOp, [a, b], t, fm) if fl else fn.v(LA.AddOp, [a, b], t)
    if kind in ("mul", "mulf", "muli"):
        return fn.v(LA.FMulOp, [a, b], t, fm) if fl else fn.v(LA.MulOp, [a, b], t)
    if kind in ("and", "andi"):
        return fn.v(LA.AndOp, [a, b], t)
    if kind in ("or", "ori"):
        return fn.v(LA.OrOp, [a, b], t)
    if kind in ("xor", "xori"):
        return fn.v(LA.XOrOp, [a, b], t)
    ints = {"maxsi": "sgt", "maxs": "sgt", "minsi": "slt", "mins": "slt", "maxui": "ugt",
            "maxu": "ugt", "minui": "ult", "minu": "ult"}  # fmt: skip
    if kind in ints:
        return int_minmax(fn, ints[kind], a, b)
    if kind == "maxnumf":
        return fn.v(LE.MaxNumOp, [a, b], t, fm)
    if kind == "minnumf":
        return fn.v(LE.MinNumOp, [a, b], t, fm)
    if kind in ("maximumf", "minimumf"):
        return float_minmax(fn, kind == "maximumf", a, b, fm)
    raise unsupported(f"combining kind '{kind}'")


def _reorderable(op: Operation, kind: str, et: A.Type) -> bool:
    """Whether a reduction may combine in any order: integer and min/max kinds always, float
    add/mul with the `reassoc` fast-math flag."""
    if type(et) is not A.FloatType or kind not in ("add", "mul"):
        return True
    a = op.get_attr("fastmath")
    return bool(getattr(a, "flags", 0) & _ARITH_FM_BITS["reassoc"])


@lowering("vector.reduction")
def _reduction(fn: FnLowering, op: Operation) -> None:
    vec = fn.get(op.operands[0])
    kind = op.get_attr("kind").kind  # type: ignore[union-attr]
    et = vec.type.element_type  # type: ignore[attr-defined]
    fm = fastmath(op)
    acc = fn.get(op.operands[1]) if len(op.operands) > 1 else None
    n = vec.type.shape[0]  # type: ignore[attr-defined]
    if n > 1 and n & (n - 1) == 0 and _reorderable(op, kind, et):
        # log2(n) halving steps (a tree) instead of a chain of n - 1 dependent ops.
        while n > 1:
            h = n // 2
            half = A.VectorType([h], et)
            lo = fn.v(
                LE.ShuffleVectorOp,
                [vec, vec],
                half,
                {"mask": A.DenseArrayAttr(A.i32, list(range(h)))},
            )
            hi = fn.v(
                LE.ShuffleVectorOp,
                [vec, vec],
                half,
                {"mask": A.DenseArrayAttr(A.i32, list(range(h, n)))},
            )
            vec = binary_by_kind(fn, kind, lo, hi, fm)
            n = h
        e = fn.v(LE.ExtractElementOp, [vec, fn.const(0)], et)
        fn.vmap[op.results[0]] = e if acc is None else binary_by_kind(fn, kind, acc, e, fm)
        return
    for k in range(n):
        e = fn.v(LE.ExtractElementOp, [vec, fn.const(k)], et)
        acc = e if acc is None else binary_by_kind(fn, kind, acc, e, fm)
    fn.vmap[op.results[0]] = acc  # type: ignore[assignment]


def _position(fn: FnLowering, op: Operation, first: int) -> list[Value]:
    """The position of vector.extract/insert: constants, and the dynamic operands in order."""
    static = op.get_attr("static_position").values  # type: ignore[union-attr]
    dyn = iter(fn.gets(op.operands[first:]))
    return [next(dyn) if p < 0 else fn.const(p) for p in static]


@lowering("vector.extract")
def _extract(fn: FnLowering, op: Operation) -> None:
    src = fn.get(op.operands[0])
    pos = _position(fn, op, 1)
    if not pos:
        fn.vmap[op.results[0]] = src
        return
    if len(pos) != 1 or type(op.results[0].type) is A.VectorType:
        raise unsupported("vector.extract from n-D vectors")
    fn.vmap[op.results[0]] = fn.v(LE.ExtractElementOp, [src, pos[0]], src.type.element_type)  # type: ignore[attr-defined]


@lowering("vector.insert")
def _insert(fn: FnLowering, op: Operation) -> None:
    val = fn.get(op.operands[0])
    dest = fn.get(op.operands[1])
    pos = _position(fn, op, 2)
    if not pos:
        fn.vmap[op.results[0]] = val
        return
    if len(pos) != 1 or type(op.operands[0].type) is A.VectorType:
        raise unsupported("vector.insert into n-D vectors")
    fn.vmap[op.results[0]] = fn.v(LE.InsertElementOp, [dest, val, pos[0]], dest.type)


@lowering("vector.shuffle")
def _shuffle(fn: FnLowering, op: Operation) -> None:
    """One `llvm.shufflevector` for operands of one type, else element by element (LLVM's
    shuffle takes two operands of the same type), as MLIR's conversion does."""
    t1, t2 = op.operands[0].type, op.operands[1].type
    rt = op.results[0].type
    if t1.rank != 1 or t2.rank != 1:  # type: ignore[attr-defined]
        raise unsupported("vector.shuffle of n-D or 0-D vectors")
    v1, v2 = fn.get(op.operands[0]), fn.get(op.operands[1])
    mask = op.get_attr("mask").values  # type: ignore[union-attr]
    if t1 is t2:
        attrs = {"mask": A.DenseArrayAttr(A.i32, mask)}
        fn.vmap[op.results[0]] = fn.v(LE.ShuffleVectorOp, [v1, v2], rt, attrs)
        return
    n1 = t1.shape[0]  # type: ignore[attr-defined]
    et = rt.element_type  # type: ignore[attr-defined]
    out = fn.undef(rt)
    for i, m in enumerate(mask):
        if m < 0:  # poison: the lane keeps undef
            continue
        src, k = (v1, m) if m < n1 else (v2, m - n1)
        e = fn.v(LE.ExtractElementOp, [src, fn.const(k)], et)
        out = fn.v(LE.InsertElementOp, [out, e, fn.const(i)], rt)
    fn.vmap[op.results[0]] = out


def _transfer_checks(op: Operation, base_t: A.Type, has_mask: bool) -> None:
    """The transfers that are plain vector loads/stores: a memref base, no mask, all in bounds,
    a 1-D vector along the minor dimension (the contiguous case of MLIR's lowering)."""
    if type(base_t) is not A.MemRefType:
        raise unsupported(f"'{op.name}' on {base_t} (run bufferize first)")
    if has_mask:
        raise unsupported(f"masked '{op.name}'")
    in_bounds = op.get_attr("in_bounds").value  # type: ignore[union-attr]
    if not all(b.value for b in in_bounds):
        raise unsupported(f"'{op.name}' that may be out of bounds (in_bounds = false)")
    m = op.get_attr("permutation_map").value  # type: ignore[union-attr]
    if not m.is_minor_identity() or m.num_results != 1:
        raise unsupported(f"'{op.name}' with permutation map {m}")
    strides, _ = base_t.strides_and_offset()  # type: ignore[attr-defined]
    if strides and strides[-1] != 1:
        raise unsupported(f"'{op.name}' along a non-contiguous dimension of {base_t}")


@lowering("vector.transfer_read")
def _transfer_read(fn: FnLowering, op: Operation) -> None:
    from mlc.lowering.to_llvm_affine import _load

    seg = op.get_attr("operandSegmentSizes").values  # type: ignore[union-attr]
    _transfer_checks(op, op.operands[0].type, bool(seg[-1]))
    _load(fn, op, op.operands[0], op.operands[1 : 1 + seg[1]])


@lowering("vector.transfer_write")
def _transfer_write(fn: FnLowering, op: Operation) -> None:
    from mlc.lowering.to_llvm_affine import _store

    seg = op.get_attr("operandSegmentSizes").values  # type: ignore[union-attr]
    _transfer_checks(op, op.operands[1].type, bool(seg[-1]))
    if op.results:
        raise unsupported("vector.transfer_write on tensors (run bufferize first)")
    _store(fn, op, op.operands[0], op.operands[1], op.operands[2 : 2 + seg[2]])


# ---------------------------------------------------------------------------------------------
# affine.prefetch


@lowering("affine.prefetch")
def _prefetch(fn: FnLowering, op: Operation) -> None:
    """`llvm.intr.prefetch` of the element's address. The GEP has no `inbounds`: a prefetch
    may point past the buffer (the next row after the last), which is harmless for the hint
    but would make an inbounds address poison."""
    memref, *indices = op.operands
    t = memref.type
    idx = fn.map_results(op.get_attr("map").value, fn.gets(indices))  # type: ignore[union-attr]
    desc = fn.get(memref)
    strides, offset = t.strides_and_offset()  # type: ignore[attr-defined]
    lin = fn.extract(desc, [2], I64) if offset == DYNAMIC else fn.const(offset)
    for k, i in enumerate(idx):
        lin = fn.add(lin, fn.mul(i, fn.desc_stride(t, desc, k, strides)))  # type: ignore[arg-type]
    attrs = {
        "rawConstantIndices": A.DenseArrayAttr(A.i32, [llvm.GEP_DYNAMIC_INDEX]),
        "elem_type": A.TypeAttr(convert_type(t.element_type)),  # type: ignore[attr-defined]
        "noWrapFlags": A.IntegerAttr(0, A.i32),
    }
    p = fn.v(llvm.GEPOp, [fn.desc_field(desc, 1), lin], PTR, attrs)
    hint = {
        "rw": A.IntegerAttr(op.get_attr("isWrite").value, A.i32),  # type: ignore[union-attr]
        "hint": A.IntegerAttr(op.get_attr("localityHint").value, A.i32),  # type: ignore[union-attr]
        "cache": A.IntegerAttr(op.get_attr("isDataCache").value, A.i32),  # type: ignore[union-attr]
    }
    fn.op(LE.PrefetchOp, [p], [], hint)
