"""The `math` dialect: elementary functions on floats and integers, elementwise over
vectors/tensors, with MLIR's syntax (`math.exp %x fastmath<fast> : f32`) and constant folders.
"""

from __future__ import annotations

import math as _m
from collections.abc import Callable
from typing import Any

import numpy as np
from mlc.dialects import arith_fold as F
from mlc.dialects.arith import (
    BINARY,
    BINARY_FASTMATH,
    FASTMATH_NONE,
    UNARY_FASTMATH,
    FastMathAttrC,
    bool_like,
    infer_bool_like,
    infer_same_type,
    materialize_constant,
)

from mlc.ir import attributes as A
from mlc.ir.context import Dialect
from mlc.ir.opdef import (
    BoolLike,
    Elementwise,
    FloatLike,
    InferTypeOpInterface,
    Op,
    Pure,
    SameOperandsAndResultShape,
    SameOperandsAndResultType,
    SignlessIntegerLike,
    operand,
    prop,
    result,
)

# NumPy's names for the functions whose `math` version can raise.
_NUMPY_NAMES = {
    "asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh",
    "acosh": "arccosh", "atanh": "arctanh", "atan2": "arctan2", "pow": "power",
}  # fmt: skip


def _libm(name: str) -> Callable[..., float]:
    """The platform libm's double function `name` (as MLIR's folders call it), via `math`;
    where `math` raises (overflow, pole, domain) NumPy gives the IEEE result instead."""
    fn = getattr(_m, name)
    fallback = getattr(np, _NUMPY_NAMES.get(name, name), None)

    def apply(*args: float) -> float:
        try:
            return float(fn(*args))
        except (OverflowError, ValueError):
            with np.errstate(all="ignore"):
                return float(fallback(*[np.float64(a) for a in args]))  # type: ignore[misc]

    return apply


def _exact(fn: Callable[[np.float64], Any]) -> Callable[[float], float]:
    """A NumPy function with an exact result (ceil, floor, ...) on Python floats."""
    return lambda x: float(fn(np.float64(x)))


class _FloatUnaryOp(Op, InferTypeOpInterface):
    """Base of `$input [fastmath<...>] attr-dict : type` float functions.

    `_fn` folds one element in double precision (the result is rounded to the type);
    transcendental folds are limited to f32/f64 as in MLIR (`_any_float` lifts that), and a
    NaN from a non-NaN input (a domain error) is not folded.
    """

    traits = (Pure, SameOperandsAndResultType, Elementwise)
    input = operand(FloatLike)
    res = result(FloatLike)
    fastmath = prop(FastMathAttrC, default=FASTMATH_NONE)
    infer_result_types = classmethod(infer_same_type)
    _fn: Callable[[float], float] | None = None
    _any_float = False

    def fold(self, operand_attrs: list) -> Any:
        fn = type(self)._fn
        if operand_attrs[0] is None or fn is None:
            return None
        kind = A.element_type_of(self.res.type).kind  # type: ignore[attr-defined]
        if not self._any_float and kind not in ("f32", "f64"):
            return None

        def apply(x: float) -> float | None:
            y = fn(x)
            return None if y != y and x == x else y

        return F.fold_elementwise(apply, operand_attrs, self.res.type)


def _unary(
    op_name: str, cls_name: str, doc: str, fn: Callable[[float], float], any_float: bool = False
) -> type[_FloatUnaryOp]:
    """A float function op class (one line per op instead of a dozen identical bodies)."""
    return type(_FloatUnaryOp)(cls_name, (_FloatUnaryOp,), {
        "__doc__": f"{doc}\n\n        %1 = {op_name} %0 : f32\n    ",
        "__module__": __name__,
        "__qualname__": cls_name,
        "name": op_name,
        "_fn": staticmethod(fn),
        "_any_float": any_float,
        "format": UNARY_FASTMATH,
        "summary": doc,
    })  # fmt: skip


def _rsqrt(x: float) -> float:
    return 1.0 / _libm("sqrt")(x) if x else _m.copysign(_m.inf, x)


AbsFOp = _unary("math.absf", "AbsFOp", "Absolute value of a float.", abs, any_float=True)
AcosOp = _unary("math.acos", "AcosOp", "Arcus cosine.", _libm("acos"))
AcoshOp = _unary("math.acosh", "AcoshOp", "Inverse hyperbolic cosine.", _libm("acosh"))
AsinOp = _unary("math.asin", "AsinOp", "Arcus sine.", _libm("asin"))
AsinhOp = _unary("math.asinh", "AsinhOp", "Inverse hyperbolic sine.", _libm("asinh"))
AtanOp = _unary("math.atan", "AtanOp", "Arcus tangent.", _libm("atan"))
AtanhOp = _unary("math.atanh", "AtanhOp", "Inverse hyperbolic tangent.", _libm("atanh"))
CbrtOp = _unary("math.cbrt", "CbrtOp", "Cube root.", _libm("cbrt"))
CeilOp = _unary("math.ceil", "CeilOp", "Round up to an integer.", _exact(np.ceil), True)
CosOp = _unary("math.cos", "CosOp", "Cosine.", _libm("cos"))
CoshOp = _unary("math.cosh", "CoshOp", "Hyperbolic cosine.", _libm("cosh"))
ErfOp = _unary("math.erf", "ErfOp", "The error function.", _libm("erf"))
ErfcOp = _unary("math.erfc", "ErfcOp", "The complementary error function.", _libm("erfc"))
ExpOp = _unary("math.exp", "ExpOp", "Base-e exponential.", _libm("exp"))
Exp2Op = _unary("math.exp2", "Exp2Op", "Base-2 exponential.", _libm("exp2"))
ExpM1Op = _unary("math.expm1", "ExpM1Op", "exp(x) - 1, accurate near zero.", _libm("expm1"))
FloorOp = _unary("math.floor", "FloorOp", "Round down to an integer.", _exact(np.floor), True)
LogOp = _unary("math.log", "LogOp", "Natural logarithm.", _libm("log"))
Log10Op = _unary("math.log10", "Log10Op", "Base-10 logarithm.", _libm("log10"))
Log1pOp = _unary("math.log1p", "Log1pOp", "log(1 + x), accurate near zero.", _libm("log1p"))
Log2Op = _unary("math.log2", "Log2Op", "Base-2 logarithm.", _libm("log2"))
RoundOp = _unary("math.round", "RoundOp", "Round half away from zero.", F.round_half_away, True)
RoundEvenOp = _unary("math.roundeven", "RoundEvenOp", "Round half to even.", _exact(np.rint), True)
RsqrtOp = _unary("math.rsqrt", "RsqrtOp", "Reciprocal of the square root.", _rsqrt)
SinOp = _unary("math.sin", "SinOp", "Sine.", _libm("sin"))
SinhOp = _unary("math.sinh", "SinhOp", "Hyperbolic sine.", _libm("sinh"))
SqrtOp = _unary("math.sqrt", "SqrtOp", "Square root.", _libm("sqrt"))
TanOp = _unary("math.tan", "TanOp", "Tangent.", _libm("tan"))
TanhOp = _unary("math.tanh", "TanhOp", "Hyperbolic tangent.", _libm("tanh"))
TruncOp = _unary("math.trunc", "TruncOp", "Round toward zero.", _exact(np.trunc), True)


class _FloatBinaryOp(Op, InferTypeOpInterface):
    """Base of `$lhs, $rhs [fastmath<...>] attr-dict : type` float functions."""

    traits = (Pure, SameOperandsAndResultType, Elementwise)
    lhs = operand(FloatLike)
    rhs = operand(FloatLike)
    res = result(FloatLike)
    fastmath = prop(FastMathAttrC, default=FASTMATH_NONE)
    infer_result_types = classmethod(infer_same_type)
    _fn: Callable[[float, float], float] | None = None
    _any_float = False

    def fold(self, operand_attrs: list) -> Any:
        fn = type(self)._fn
        if None in operand_attrs or fn is None:
            return None
        kind = A.element_type_of(self.res.type).kind  # type: ignore[attr-defined]
        if not self._any_float and kind not in ("f32", "f64"):
            return None

        def apply(a: float, b: float) -> float | None:
            y = fn(a, b)
            return None if y != y and a == a and b == b else y

        return F.fold_elementwise(apply, operand_attrs, self.res.type)


class Atan2Op(_FloatBinaryOp):
    """The angle of the point (rhs, lhs): atan(lhs / rhs) in the right quadrant.

    %2 = math.atan2 %y, %x : f32
    """

    name = "math.atan2"
    format = BINARY_FASTMATH
    _fn = staticmethod(_libm("atan2"))


class CopySignOp(_FloatBinaryOp):
    """The magnitude of lhs with the sign of rhs.

    %2 = math.copysign %a, %b : f32
    """

    name = "math.copysign"
    format = BINARY_FASTMATH
    _fn = staticmethod(_m.copysign)
    _any_float = True


_powf = _libm("pow")


class PowFOp(_FloatBinaryOp):
    """lhs raised to the power rhs.

    %2 = math.powf %a, %b : f32
    """

    name = "math.powf"
    format = BINARY_FASTMATH
    _fn = staticmethod(_powf)


class FPowIOp(Op):
    """A float raised to a signed integer power.

    %2 = math.fpowi %x, %n : f32, i32
    """

    name = "math.fpowi"
    traits = (Pure, SameOperandsAndResultShape, Elementwise)
    lhs = operand(FloatLike)
    rhs = operand(SignlessIntegerLike)
    res = result(FloatLike)
    fastmath = prop(FastMathAttrC, default=FASTMATH_NONE)
    format = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($lhs) `,` type($rhs)"
    format_type_equalities = (("lhs", "res"),)

    def verify_op(self) -> None:
        if self.res.type is not self.lhs.type:
            raise self.error("failed to verify that all of {lhs, result} have same type")

    def fold(self, operand_attrs: list) -> Any:
        if None in operand_attrs:
            return None
        kind = A.element_type_of(self.res.type).kind  # type: ignore[attr-defined]
        if kind not in ("f32", "f64"):
            return None
        w = F.int_width(A.element_type_of(self.rhs.type))
        return F.fold_elementwise(
            lambda a, n: _powf(a, float(F.to_signed(n, w))), operand_attrs, self.res.type
        )


class FmaOp(Op, InferTypeOpInterface):
    """Fused multiply-add: a * b + c with a single rounding.

    %3 = math.fma %a, %b, %c : f32
    """

    name = "math.fma"
    traits = (Pure, SameOperandsAndResultType, Elementwise)
    a = operand(FloatLike)
    b = operand(FloatLike)
    c = operand(FloatLike)
    res = result(FloatLike)
    fastmath = prop(FastMathAttrC, default=FASTMATH_NONE)
    format = "$a `,` $b `,` $c (`fastmath` `` $fastmath^)? attr-dict `:` type($res)"
    infer_result_types = classmethod(infer_same_type)

    def fold(self, operand_attrs: list) -> Any:
        if None in operand_attrs:
            return None
        et = A.element_type_of(self.res.type)
        fma = F.ieee(lambda a, b, c: F.fma(a, b, c, et))
        return F.fold_elementwise(fma, operand_attrs, self.res.type)


class _IntUnaryOp(Op, InferTypeOpInterface):
    """Base of `$input attr-dict : type` integer functions; `_eval(a, width)` folds."""

    traits = (Pure, SameOperandsAndResultType, Elementwise)
    input = operand(SignlessIntegerLike)
    res = result(SignlessIntegerLike)
    infer_result_types = classmethod(infer_same_type)

    @staticmethod
    def _eval(a: int, w: int) -> int:
        raise NotImplementedError

    def fold(self, operand_attrs: list) -> Any:
        if operand_attrs[0] is None:
            return None
        w = F.int_width(A.element_type_of(self.res.type))
        fn = self._eval
        return F.fold_elementwise(lambda a: fn(a, w), operand_attrs, self.res.type)


class AbsIOp(_IntUnaryOp):
    """Absolute value of a signed integer (the minimum value maps to itself).

    %1 = math.absi %0 : i32
    """

    name = "math.absi"
    format = "$input attr-dict `:` type($res)"
    _eval = staticmethod(lambda a, w: abs(F.to_signed(a, w)))


class CountLeadingZerosOp(_IntUnaryOp):
    """Number of leading zero bits (the bit width for zero).

    %1 = math.ctlz %0 : i32
    """

    name = "math.ctlz"
    format = "$input attr-dict `:` type($res)"
    _eval = staticmethod(F.ctlz)


class CountTrailingZerosOp(_IntUnaryOp):
    """Number of trailing zero bits (the bit width for zero).

    %1 = math.cttz %0 : i32
    """

    name = "math.cttz"
    format = "$input attr-dict `:` type($res)"
    _eval = staticmethod(F.cttz)


class CtPopOp(_IntUnaryOp):
    """Number of set bits.

    %1 = math.ctpop %0 : i32
    """

    name = "math.ctpop"
    format = "$input attr-dict `:` type($res)"
    _eval = staticmethod(F.ctpop)


class IPowIOp(Op, InferTypeOpInterface):
    """A signed integer raised to a signed integer power (wrapping).

    %2 = math.ipowi %b, %n : i32
    """

    name = "math.ipowi"
    traits = (Pure, SameOperandsAndResultType, Elementwise)
    lhs = operand(SignlessIntegerLike)
    rhs = operand(SignlessIntegerLike)
    res = result(SignlessIntegerLike)
    format = BINARY
    infer_result_types = classmethod(infer_same_type)

    def fold(self, operand_attrs: list) -> Any:
        if None in operand_attrs:
            return None
        w = F.int_width(A.element_type_of(self.res.type))
        return F.fold_elementwise(lambda a, b: F.ipowi(a, b, w), operand_attrs, self.res.type)


class _ClassifyOp(Op, InferTypeOpInterface):
    """Base of `$input [fastmath<...>] attr-dict : type` float classifications (i1 results)."""

    traits = (Pure, Elementwise)
    input = operand(FloatLike)
    res = result(BoolLike)
    fastmath = prop(FastMathAttrC, default=FASTMATH_NONE)
    infer_result_types = classmethod(infer_bool_like)

    @staticmethod
    def _test(x: float, t: A.Type) -> bool:
        raise NotImplementedError

    def verify_op(self) -> None:
        if self.res.type is not bool_like(self.input.type):
            raise self.error(
                "failed to verify that result type has i1 element type and same shape as operands"
            )

    def fold(self, operand_attrs: list) -> Any:
        if operand_attrs[0] is None:
            return None
        et, test = A.element_type_of(self.input.type), self._test
        return F.fold_elementwise(lambda x: int(test(x, et)), operand_attrs, self.res.type)


class IsNaNOp(_ClassifyOp):
    """Whether a float is NaN.

    %1 = math.isnan %0 : f32
    """

    name = "math.isnan"
    format = "$input (`fastmath` `` $fastmath^)? attr-dict `:` type($input)"
    _test = staticmethod(lambda x, t: x != x)


class IsInfOp(_ClassifyOp):
    """Whether a float is an infinity.

    %1 = math.isinf %0 : f32
    """

    name = "math.isinf"
    format = "$input (`fastmath` `` $fastmath^)? attr-dict `:` type($input)"
    _test = staticmethod(lambda x, t: _m.isinf(x))


class IsFiniteOp(_ClassifyOp):
    """Whether a float is neither an infinity nor NaN.

    %1 = math.isfinite %0 : f32
    """

    name = "math.isfinite"
    format = "$input (`fastmath` `` $fastmath^)? attr-dict `:` type($input)"
    _test = staticmethod(lambda x, t: _m.isfinite(x))


class IsNormalOp(_ClassifyOp):
    """Whether a float is normal (finite, non-zero, not subnormal).

    %1 = math.isnormal %0 : f32
    """

    name = "math.isnormal"
    format = "$input (`fastmath` `` $fastmath^)? attr-dict `:` type($input)"
    _test = staticmethod(F.is_normal)


DIALECT = Dialect(
    "math",
    ops=[
        AbsFOp, AcosOp, AcoshOp, AsinOp, AsinhOp, AtanOp, AtanhOp, CbrtOp, CeilOp, CosOp, CoshOp,
        ErfOp, ErfcOp, ExpOp, Exp2Op, ExpM1Op, FloorOp, LogOp, Log10Op, Log1pOp, Log2Op, RoundOp,
        RoundEvenOp, RsqrtOp, SinOp, SinhOp, SqrtOp, TanOp, TanhOp, TruncOp,
        Atan2Op, CopySignOp, PowFOp, FPowIOp, FmaOp,
        AbsIOp, CountLeadingZerosOp, CountTrailingZerosOp, CtPopOp, IPowIOp,
        IsNaNOp, IsInfOp, IsFiniteOp, IsNormalOp,
    ],
    materialize_constant=materialize_constant,
)  # fmt: skip
