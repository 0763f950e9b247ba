"""The `arith` dialect: integer and float arithmetic, comparisons, select and casts on scalars and
elementwise on vectors/tensors, with MLIR's names, properties, verifiers and syntax. The folders'
arithmetic and identities live in `arith_fold`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mlc.dialects import arith_fold as F

from mlc.interfaces import ConditionallySpeculatable, NoMemoryEffect
from mlc.ir import attributes as A
from mlc.ir.attributes import DialectAttr, Uniqued
from mlc.ir.context import Dialect
from mlc.ir.core import Operation, Value
from mlc.ir.opdef import (
    AnyType,
    BoolLike,
    Commutative,
    ConstantLike,
    Constraint,
    Elementwise,
    FloatLike,
    Idempotent,
    InferTypeOpInterface,
    Op,
    OperationState,
    Pure,
    SameOperandsAndResultShape,
    SameOperandsAndResultType,
    SameTypeOperands,
    SignlessIntegerLike,
    TypedAttr,
    UnitAttrC,
    operand,
    opt_prop,
    prop,
    result,
)
from mlc.syntax.format import FormatConstraint, format_constraint

# ---------------------------------------------------------------------------------------------
# Attributes: #arith.fastmath<...> and #arith.overflow<...>


class _BitEnumAttr(DialectAttr):
    """A set of named flags printed as `<a,b>`, `<none>` when empty (MLIR's BitEnumAttr)."""

    __slots__ = ("flags",)
    _names: tuple[tuple[str, int], ...] = ()
    _all: str = ""  # the keyword for all flags set ("fast"), if any
    _sep = ","

    def __new__(cls, flags: int = 0) -> Any:
        return Uniqued.__new__(cls, flags)

    @classmethod
    def from_names(cls, *names: str) -> Any:
        bits = dict(cls._names)
        if cls._all:
            bits[cls._all] = sum(b for _, b in cls._names)
        flags = 0
        for n in names:
            if n != "none":
                flags |= bits[n]
        return cls(flags)

    def has(self, name: str) -> bool:
        bit = dict(self._names)[name]
        return self.flags & bit == bit

    @property
    def keywords(self) -> list[str]:
        if self.flags == 0:
            return ["none"]
        everything = sum(b for _, b in self._names)
        if self._all and self.flags == everything:
            return [self._all]
        return [n for n, b in self._names if self.flags & b]

    @classmethod
    def parse_parameters(cls, parser: Any) -> Any:
        valid = ["none", *(n for n, _ in cls._names)] + ([cls._all] if cls._all else [])
        parser.parse_punct("<")
        names = []
        while True:
            kw = parser.parse_optional_keyword_in(valid)
            if kw is None:
                raise parser.error(f"expected {cls._enum_name} to be one of: {', '.join(valid)}")
            names.append(kw)
            if not parser.parse_optional_punct(","):
                break
        parser.parse_punct(">")
        return cls.from_names(*names)

    def print_parameters(self, printer: Any) -> None:
        printer.write(f"<{self._sep.join(self.keywords)}>")

    _enum_name = ""


class FastMathFlagsAttr(_BitEnumAttr):
    """`#arith.fastmath<nnan,ninf>`: floating-point fast-math flags (`none`, `fast` = all)."""

    __slots__ = ()
    name = "arith.fastmath"
    _names = (
        ("reassoc", 1), ("nnan", 2), ("ninf", 4), ("nsz", 8),
        ("arcp", 16), ("contract", 32), ("afn", 64),
    )  # fmt: skip
    _all = "fast"
    _enum_name = "::mlir::arith::FastMathFlags"


class IntegerOverflowFlagsAttr(_BitEnumAttr):
    """`#arith.overflow<nsw, nuw>`: no-signed/unsigned-wrap flags of integer arithmetic."""

    __slots__ = ()
    name = "arith.overflow"
    _names = (("nsw", 1), ("nuw", 2))
    _sep = ", "
    _enum_name = "::mlir::arith::IntegerOverflowFlags"


FASTMATH_NONE = FastMathFlagsAttr(0)
OVERFLOW_NONE = IntegerOverflowFlagsAttr(0)


# ---------------------------------------------------------------------------------------------
# AtomicRMWKind: MLIR's I64EnumAttr, stored as an `i64` IntegerAttr holding the case's value
# (affine.parallel's `reductions = [0, 12]`). MLIR has no `#arith.atomic_rmw_kind<...>` syntax.

ATOMIC_RMW_KINDS = (
    "addf", "addi", "andi", "assign", "maximumf", "maxnumf", "maxs", "maxu",
    "minimumf", "minnumf", "mins", "minu", "mulf", "muli", "ori", "xori",
)  # fmt: skip
_FLOAT_RMW_KINDS = frozenset(("addf", "maximumf", "maxnumf", "minimumf", "minnumf", "mulf"))


class AtomicRMWKindAttr:
    """The kinds of atomic read-modify-write (and reduction) operations, as MLIR stores them:
    an `i64` IntegerAttr whose value is the case's index in ATOMIC_RMW_KINDS."""

    __slots__ = ()
    cases = ATOMIC_RMW_KINDS

    @staticmethod
    def get(kind: str) -> A.IntegerAttr:
        """The attribute of case `kind` ("addf", ...); ValueError for an unknown kind."""
        try:
            return A.IntegerAttr(ATOMIC_RMW_KINDS.index(kind), A.i64)
        except ValueError:
            raise ValueError(f"unknown atomic RMW kind '{kind}'") from None

    @staticmethod
    def name_of(attr: A.Attribute) -> str | None:
        """The case name an attribute holds, or None when it holds no valid case."""
        if type(attr) is not A.IntegerAttr or not 0 <= attr.value < len(ATOMIC_RMW_KINDS):
            return None
        return ATOMIC_RMW_KINDS[attr.value]


def atomic_rmw_kind_matches(attr: A.Attribute, t: A.Type) -> bool:
    """Whether a reduction of kind `attr` applies to values of type `t` (MLIR's rule: float
    kinds need a float, integer kinds an integer, maxs/mins not unsigned, maxu/minu not
    signed, assign anything)."""
    kind = AtomicRMWKindAttr.name_of(attr)
    if kind is None:
        return False
    if kind == "assign":
        return True
    if kind in _FLOAT_RMW_KINDS:
        return type(t) is A.FloatType
    if type(t) is not A.IntegerType:
        return False
    if kind in ("maxs", "mins"):
        return t.signedness != A.UNSIGNED
    if kind in ("maxu", "minu"):
        return t.signedness != A.SIGNED
    return True


# ---------------------------------------------------------------------------------------------
# ---------------------------------------------------------------------------------------------
# Constraints (MLIR's descriptions) and their custom-syntax hints


def _like(pred: Callable[[Any], bool]) -> Callable[[Any], bool]:
    def check(t: Any) -> bool:
        tt = type(t)
        if tt is A.VectorType or tt is A.RankedTensorType or tt is A.UnrankedTensorType:
            return pred(t.element_type)
        return pred(t)

    return check


def _signless_int(t: Any) -> bool:
    return type(t) is A.IntegerType and t.signedness == A.SIGNLESS


SignlessFixedWidthIntegerLike = Constraint(
    _like(_signless_int), "signless-fixed-width-integer-like"
)
SignlessIntegerOrFloatLike = Constraint(
    _like(lambda t: _signless_int(t) or type(t) is A.FloatType), "signless-integer-or-float-like"
)
FastMathAttrC = format_constraint(FastMathFlagsAttr, "Floating point fast math flags")
OverflowAttrC = format_constraint(IntegerOverflowFlagsAttr, "Integer overflow arith flags")


def parse_enum_case(parser: Any, names: tuple[str, ...], attr_name: str) -> int:
    """A case of an integer enum spelled as its keyword (or string), e.g. `slt`."""
    kw = parser.parse_optional_keyword_in(names)
    if kw is None:
        kw = parser.parse_optional_string()
    if kw is None or kw not in names:
        raise parser.error(
            "expected string or keyword containing one of the following enum values for "
            f"attribute '{attr_name}' [{', '.join(names)}]"
        )
    return names.index(kw)


def _enum_attr(t: A.IntegerType, names: tuple[str, ...], attr_name: str) -> FormatConstraint:
    """An IntegerAttr of type `t` holding a case of `names`, printed as the case's keyword."""
    n = len(names)

    def check(a: Any) -> bool:
        return type(a) is A.IntegerAttr and a.type is t and 0 <= a.value < n

    def print_hook(p: Any, a: A.Attribute) -> None:
        p.write(names[a.value] if check(a) else str(a.value))  # type: ignore[attr-defined]

    return FormatConstraint(
        check,
        f"allowed {t.width}-bit signless integer cases: {', '.join(map(str, range(n)))}",
        parse_hook=lambda parser: A.IntegerAttr(parse_enum_case(parser, names, attr_name), t),
        print_hook=print_hook,
    )


ROUNDING_MODES = ("to_nearest_even", "downward", "upward", "toward_zero", "to_nearest_away")
CmpIPredicateC = _enum_attr(A.i64, F.CMPI_PREDICATES, "predicate")
CmpFPredicateC = _enum_attr(A.i64, F.CMPF_PREDICATES, "predicate")
RoundingModeC = _enum_attr(A.i32, ROUNDING_MODES, "roundingmode")

# Assembly formats shared by op families.
BINARY = "$lhs `,` $rhs attr-dict `:` type($res)"
BINARY_OVERFLOW = "$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($res)"
BINARY_FASTMATH = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($res)"
UNARY_FASTMATH = "$input (`fastmath` `` $fastmath^)? attr-dict `:` type($res)"
CAST = "$input attr-dict `:` type($input) `to` type($res)"
CAST_NNEG = "$input (`nneg` $nonNeg^)? attr-dict `:` type($input) `to` type($res)"


def bool_like(t: A.Type) -> A.Type:
    """i1, or the vector/tensor of i1 with the shape of `t`."""
    if isinstance(t, A.ShapedType):
        return t.clone_with(element_type=A.i1)
    return A.i1


def _elem(t: A.Type) -> A.Type:
    return A.element_type_of(t)


def infer_same_type(cls: type, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
    """`infer_result_types` of ops whose result has the first operand's type."""
    return [operand_types[0]]


def infer_bool_like(cls: type, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
    """`infer_result_types` of predicates: i1 with the first operand's shape."""
    return [bool_like(operand_types[0])]


_RESULT_SHAPE_MESSAGE = (
    "failed to verify that result type has i1 element type and same shape as operands"
)

# ---------------------------------------------------------------------------------------------
# Constants


class ConstantOp(Op, InferTypeOpInterface):
    """Integer, float or elements constant.

    %c42 = arith.constant 42 : i32
    %cst = arith.constant dense<[1.0, 2.0]> : vector<2xf32>
    """

    name = "arith.constant"
    traits = (Pure, ConstantLike)
    value = prop(TypedAttr)
    res = result(AnyType)
    format = "attr-dict $value"

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        return [attributes["value"].type]

    @classmethod
    def from_attr(cls, value: A.Attribute, location: A.Location | None = None) -> ConstantOp:
        """`arith.constant` holding `value` (its type is the result type)."""
        return cls.create((), [value.type], {"value": value}, location=location)  # type: ignore[attr-defined, return-value]

    @classmethod
    def from_int(cls, value: int, t: A.Type = A.index) -> ConstantOp:
        """An integer/index constant (a splat for vectors/tensors); the value wraps."""
        attr = F.splat_like(value, t)
        if attr is None:
            raise ValueError(f"cannot make an integer constant of type {t}")
        return cls.from_attr(attr)

    @classmethod
    def from_float(cls, value: float, t: A.Type = A.f32) -> ConstantOp:
        """A float constant (a splat for vectors/tensors), rounded to the type's precision."""
        attr = F.splat_like(value, t)
        if attr is None:
            raise ValueError(f"cannot make a float constant of type {t}")
        return cls.from_attr(attr)

    def get_asm_result_names(self, set_name: Callable[[Value, str], None]) -> None:
        """MLIR's names: `%c42_i32`, `%c3` (index), `%true`/`%false`, else `%cst`."""
        value, t = self.value, self.res.type
        if type(value) is not A.IntegerAttr:
            set_name(self.res, "cst")
        elif t is A.i1:
            set_name(self.res, "true" if value.value else "false")
        elif type(t) is A.IntegerType:
            set_name(self.res, f"c{value.value}_{t}")
        else:
            set_name(self.res, f"c{value.value}")

    def verify_op(self) -> None:
        value, t = self.value, self.res.type
        if value.type is not t:
            raise self.error("failed to verify that all of {value, result} have same type")
        if type(t) is A.IntegerType and t.signedness != A.SIGNLESS:
            raise self.error("integer return type must be signless")
        if type(value) not in (A.IntegerAttr, A.FloatAttr) and not isinstance(t, A.ShapedType):
            raise self.error("value must be an integer, float, or elements attribute")
        if type(t) is A.VectorType and any(t.scalable):
            if not (type(value) is A.DenseElementsAttr and value.is_splat):
                raise self.error(
                    "initializing scalable vectors with elements attribute is not supported "
                    "unless it's a vector splat"
                )

    def fold(self, operand_attrs: list) -> A.Attribute:
        return self.value


def materialize_constant(
    value: A.Attribute, result_type: A.Type, location: A.Location | None = None
) -> Operation | None:
    """An `arith.constant` of `result_type` holding `value`, if arith can hold it."""
    if getattr(value, "type", None) is not result_type:
        return None
    if type(value) not in (A.IntegerAttr, A.FloatAttr, A.DenseElementsAttr):
        return None
    if type(result_type) is A.IntegerType and result_type.signedness != A.SIGNLESS:
        return None
    return ConstantOp.from_attr(value, location)


# ---------------------------------------------------------------------------------------------
# Integer binary ops


class _IntBinaryOp(Op, InferTypeOpInterface, ConditionallySpeculatable):
    """Base of the integer binary ops (format BINARY or BINARY_OVERFLOW).

    A subclass gives `_eval(a, b, width)`, the constant folder on stored values (None when the
    result is undefined), and `_fold_identity(lhs_attr, rhs_attr)` for folds with at most one
    constant operand. Ops without the Pure trait (divisions) are speculatable only when their
    divisor is a constant that cannot trap.
    """

    traits = (SameOperandsAndResultType, Elementwise)
    lhs = operand(SignlessIntegerLike)
    rhs = operand(SignlessIntegerLike)
    res = result(SignlessIntegerLike)
    infer_result_types = classmethod(infer_same_type)
    _signed = False

    @staticmethod
    def _eval(a: int, b: int, w: int) -> int | None:
        raise NotImplementedError

    def _fold_identity(self, lhs: A.Attribute | None, rhs: A.Attribute | None) -> Any:
        return None

    def is_speculatable(self) -> bool:
        divisor = F.constant_of(self.rhs)
        if F.splat_value(divisor) is None or F.is_int_splat(divisor, 0):
            return False
        return not (self._signed and F.is_int_splat(divisor, -1))

    def fold(self, operand_attrs: list) -> Any:
        lhs, rhs = operand_attrs
        if lhs is not None and rhs is not None:
            w = F.int_width(_elem(self.res.type))
            fn = self._eval
            folded = F.fold_elementwise(lambda a, b: fn(a, b, w), operand_attrs, self.res.type)
            if folded is not None:
                return folded
        elif lhs is not None and Commutative in self._traits:
            return F.move_constant_right(self)
        return self._fold_identity(lhs, rhs)


class AddIOp(_IntBinaryOp):
    """Integer addition (wraps), with optional no-wrap flags.

    %2 = arith.addi %0, %1 overflow<nsw> : i32
    """

    name = "arith.addi"
    traits = (Pure, Commutative)
    overflowFlags = prop(OverflowAttrC, default=OVERFLOW_NONE)  # noqa: N815 - MLIR's name
    format = BINARY_OVERFLOW
    _eval = staticmethod(lambda a, b, w: a + b)
    _fold_identity = F.addi_identity


class SubIOp(_IntBinaryOp):
    """Integer subtraction (wraps).

    %2 = arith.subi %0, %1 : i64
    """

    name = "arith.subi"
    traits = (Pure,)
    overflowFlags = prop(OverflowAttrC, default=OVERFLOW_NONE)  # noqa: N815
    format = BINARY_OVERFLOW
    _eval = staticmethod(lambda a, b, w: a - b)
    _fold_identity = F.subi_identity


class MulIOp(_IntBinaryOp):
    """Integer multiplication (wraps).

    %2 = arith.muli %0, %1 : vector<4xi32>
    """

    name = "arith.muli"
    traits = (Pure, Commutative)
    overflowFlags = prop(OverflowAttrC, default=OVERFLOW_NONE)  # noqa: N815
    format = BINARY_OVERFLOW
    _eval = staticmethod(lambda a, b, w: a * b)
    _fold_identity = F.muli_identity


class DivUIOp(_IntBinaryOp):
    """Unsigned integer division, rounding toward zero (division by zero is undefined).

    %2 = arith.divui %0, %1 : i32
    """

    name = "arith.divui"
    traits = (NoMemoryEffect,)
    format = BINARY
    _eval = staticmethod(F.divui)
    _fold_identity = F.div_identity


class DivSIOp(_IntBinaryOp):
    """Signed integer division, rounding toward zero (x / 0 and MIN / -1 are undefined).

    %2 = arith.divsi %0, %1 : i32
    """

    name = "arith.divsi"
    traits = (NoMemoryEffect,)
    format = BINARY
    _signed = True
    _eval = staticmethod(F.divsi)
    _fold_identity = F.div_identity


class CeilDivUIOp(_IntBinaryOp):
    """Unsigned integer division, rounding toward positive infinity.

    %2 = arith.ceildivui %0, %1 : i32
    """

    name = "arith.ceildivui"
    traits = (NoMemoryEffect,)
    format = BINARY
    _eval = staticmethod(F.ceildivui)
    _fold_identity = F.div_identity


class CeilDivSIOp(_IntBinaryOp):
    """Signed integer division, rounding toward positive infinity.

    %2 = arith.ceildivsi %0, %1 : i32
    """

    name = "arith.ceildivsi"
    traits = (NoMemoryEffect,)
    format = BINARY
    _signed = True
    _eval = staticmethod(F.ceildivsi)
    _fold_identity = F.div_identity


class FloorDivSIOp(_IntBinaryOp):
    """Signed integer division, rounding toward negative infinity.

    %2 = arith.floordivsi %0, %1 : i32
    """

    name = "arith.floordivsi"
    traits = (NoMemoryEffect,)
    format = BINARY
    _signed = True
    _eval = staticmethod(F.floordivsi)
    _fold_identity = F.div_identity


class RemUIOp(_IntBinaryOp):
    """Unsigned integer remainder.

    %2 = arith.remui %0, %1 : i32
    """

    name = "arith.remui"
    traits = (NoMemoryEffect,)
    format = BINARY
    _eval = staticmethod(F.remui)
    _fold_identity = F.rem_identity


class RemSIOp(_IntBinaryOp):
    """Signed integer remainder; the result has the sign of the dividend.

    %2 = arith.remsi %0, %1 : i32
    """

    name = "arith.remsi"
    traits = (NoMemoryEffect,)
    format = BINARY
    _signed = True
    _eval = staticmethod(F.remsi)
    _fold_identity = F.rem_identity


class AndIOp(_IntBinaryOp):
    """Bitwise and.

    %2 = arith.andi %0, %1 : i1
    """

    name = "arith.andi"
    traits = (Pure, Commutative, Idempotent)
    format = BINARY
    _eval = staticmethod(lambda a, b, w: a & b)
    _fold_identity = F.andi_identity


class OrIOp(_IntBinaryOp):
    """Bitwise or.

    %2 = arith.ori %0, %1 : i32
    """

    name = "arith.ori"
    traits = (Pure, Commutative, Idempotent)
    format = BINARY
    _eval = staticmethod(lambda a, b, w: a | b)
    _fold_identity = F.ori_identity


class XOrIOp(_IntBinaryOp):
    """Bitwise exclusive or.

    %2 = arith.xori %0, %1 : i32
    """

    name = "arith.xori"
    traits = (Pure, Commutative)
    format = BINARY
    _eval = staticmethod(lambda a, b, w: a ^ b)
    _fold_identity = F.xori_identity


class ShLIOp(_IntBinaryOp):
    """Shift left; shifting by the bit width or more is poison.

    %2 = arith.shli %0, %1 : i32
    """

    name = "arith.shli"
    traits = (Pure,)
    overflowFlags = prop(OverflowAttrC, default=OVERFLOW_NONE)  # noqa: N815
    format = BINARY_OVERFLOW
    _eval = staticmethod(F.shli)
    _fold_identity = F.shift_identity


class ShRUIOp(_IntBinaryOp):
    """Logical (zero-filling) shift right.

    %2 = arith.shrui %0, %1 : i32
    """

    name = "arith.shrui"
    traits = (Pure,)
    format = BINARY
    _eval = staticmethod(F.shrui)
    _fold_identity = F.shift_identity


class ShRSIOp(_IntBinaryOp):
    """Arithmetic (sign-filling) shift right.

    %2 = arith.shrsi %0, %1 : i32
    """

    name = "arith.shrsi"
    traits = (Pure,)
    format = BINARY
    _eval = staticmethod(F.shrsi)
    _fold_identity = F.shift_identity


class MaxSIOp(_IntBinaryOp):
    """Signed integer maximum.

    %2 = arith.maxsi %0, %1 : i32
    """

    name = "arith.maxsi"
    traits = (Pure, Commutative)
    format = BINARY
    _signed, _is_max = True, True
    _eval = staticmethod(F.maxsi)
    _fold_identity = F.min_max_identity


class MaxUIOp(_IntBinaryOp):
    """Unsigned integer maximum.

    %2 = arith.maxui %0, %1 : i32
    """

    name = "arith.maxui"
    traits = (Pure, Commutative)
    format = BINARY
    _signed, _is_max = False, True
    _eval = staticmethod(F.maxui)
    _fold_identity = F.min_max_identity


class MinSIOp(_IntBinaryOp):
    """Signed integer minimum.

    %2 = arith.minsi %0, %1 : i32
    """

    name = "arith.minsi"
    traits = (Pure, Commutative)
    format = BINARY
    _signed, _is_max = True, False
    _eval = staticmethod(F.minsi)
    _fold_identity = F.min_max_identity


class MinUIOp(_IntBinaryOp):
    """Unsigned integer minimum.

    %2 = arith.minui %0, %1 : i32
    """

    name = "arith.minui"
    traits = (Pure, Commutative)
    format = BINARY
    _signed, _is_max = False, False
    _eval = staticmethod(F.minui)
    _fold_identity = F.min_max_identity


class AddUIExtendedOp(Op):
    """Unsigned addition returning the wrapped sum and an overflow (carry) bit.

    %sum, %overflow = arith.addui_extended %a, %b : i32, i1
    """

    name = "arith.addui_extended"
    traits = (Pure, Commutative, SameOperandsAndResultShape, Elementwise)
    lhs = operand(SignlessIntegerLike)
    rhs = operand(SignlessIntegerLike)
    sum = result(SignlessIntegerLike)
    overflow = result(BoolLike)
    format = "$lhs `,` $rhs attr-dict `:` type($sum) `,` type($overflow)"
    format_type_equalities = (("lhs", "rhs", "sum"),)
    fold = F.fold_addui_extended

    def get_asm_result_names(self, set_name: Callable[[Value, str], None]) -> None:
        set_name(self.sum, "sum")
        set_name(self.overflow, "overflow")

    def verify_op(self) -> None:
        if self.lhs.type is not self.sum.type or self.rhs.type is not self.sum.type:
            raise self.error("failed to verify that all of {lhs, rhs, sum} have same type")


class _MulExtendedOp(Op):
    """Base of the widening multiplications: `%low, %high = ... %a, %b : type`."""

    traits = (Pure, Commutative, Elementwise)
    lhs = operand(SignlessIntegerLike)
    rhs = operand(SignlessIntegerLike)
    low = result(SignlessIntegerLike)
    high = result(SignlessIntegerLike)
    format_type_equalities = (("lhs", "rhs", "low", "high"),)
    _signed = False
    fold = F.fold_mul_extended

    def verify_op(self) -> None:
        t = self.lhs.type
        if self.rhs.type is not t or self.low.type is not t or self.high.type is not t:
            raise self.error("failed to verify that all of {lhs, rhs, low, high} have same type")

    def get_asm_result_names(self, set_name: Callable[[Value, str], None]) -> None:
        set_name(self.low, "low")
        set_name(self.high, "high")


class MulSIExtendedOp(_MulExtendedOp):
    """Signed widening multiplication: the low and high halves of the double-width product.

    %low, %high = arith.mulsi_extended %a, %b : i32
    """

    name = "arith.mulsi_extended"
    format = "$lhs `,` $rhs attr-dict `:` type($lhs)"
    _signed = True


class MulUIExtendedOp(_MulExtendedOp):
    """Unsigned widening multiplication: the low and high halves of the double-width product.

    %low, %high = arith.mului_extended %a, %b : i32
    """

    name = "arith.mului_extended"
    format = "$lhs `,` $rhs attr-dict `:` type($lhs)"


# ---------------------------------------------------------------------------------------------
# Float ops


class _FloatBinaryOp(Op, InferTypeOpInterface):
    """Base of the float binary ops (format BINARY_FASTMATH); `_eval(a, b)` computes in double
    precision and the folder rounds to the result type."""

    traits = (Pure, SameOperandsAndResultType, Elementwise)
    lhs = operand(FloatLike)
    rhs = operand(FloatLike)
    res = result(FloatLike)
    fastmath = prop(FastMathAttrC, default=FASTMATH_NONE)
    infer_result_types = classmethod(infer_same_type)

    @staticmethod
    def _eval(a: float, b: float) -> float | None:
        raise NotImplementedError

    def _fold_identity(self, lhs: A.Attribute | None, rhs: A.Attribute | None) -> Any:
        return None

    def fold(self, operand_attrs: list) -> Any:
        lhs, rhs = operand_attrs
        if lhs is not None and rhs is not None:
            folded = F.fold_elementwise(F.ieee(self._eval), operand_attrs, self.res.type)
            if folded is not None:
                return folded
        elif lhs is not None and Commutative in self._traits:
            return F.move_constant_right(self)
        return self._fold_identity(lhs, rhs)


class AddFOp(_FloatBinaryOp):
    """Float addition.

    %2 = arith.addf %0, %1 fastmath<fast> : f32
    """

    name = "arith.addf"
    traits = (Commutative,)
    format = BINARY_FASTMATH
    _eval = staticmethod(lambda a, b: a + b)
    _fold_identity = F.addf_identity


class SubFOp(_FloatBinaryOp):
    """Float subtraction.

    %2 = arith.subf %0, %1 : f64
    """

    name = "arith.subf"
    format = BINARY_FASTMATH
    _eval = staticmethod(lambda a, b: a - b)
    _fold_identity = F.subf_identity


class MulFOp(_FloatBinaryOp):
    """Float multiplication.

    %2 = arith.mulf %0, %1 : vector<4xf32>
    """

    name = "arith.mulf"
    traits = (Commutative,)
    format = BINARY_FASTMATH
    _eval = staticmethod(lambda a, b: a * b)
    _fold_identity = F.mul_div_f_identity


class DivFOp(_FloatBinaryOp):
    """Float division (IEEE: x / 0 is an infinity or NaN).

    %2 = arith.divf %0, %1 : f32
    """

    name = "arith.divf"
    format = BINARY_FASTMATH
    _eval = staticmethod(F.divf)
    _fold_identity = F.mul_div_f_identity


class RemFOp(_FloatBinaryOp):
    """Float remainder with the sign of the dividend (C's fmod).

    %2 = arith.remf %0, %1 : f32
    """

    name = "arith.remf"
    format = BINARY_FASTMATH
    _eval = staticmethod(F.remf)


class MaximumFOp(_FloatBinaryOp):
    """Float maximum, propagating NaN; -0.0 < +0.0.

    %2 = arith.maximumf %0, %1 : f32
    """

    name = "arith.maximumf"
    traits = (Commutative,)
    format = BINARY_FASTMATH
    _eval = staticmethod(F.maximumf)
    _fold_identity = F.maximumf_identity


class MinimumFOp(_FloatBinaryOp):
    """Float minimum, propagating NaN; -0.0 < +0.0.

    %2 = arith.minimumf %0, %1 : f32
    """

    name = "arith.minimumf"
    traits = (Commutative,)
    format = BINARY_FASTMATH
    _eval = staticmethod(F.minimumf)
    _fold_identity = F.minimumf_identity


class MaxNumFOp(_FloatBinaryOp):
    """Float maximum ignoring a NaN operand (IEEE maxNum).

    %2 = arith.maxnumf %0, %1 : f32
    """

    name = "arith.maxnumf"
    traits = (Commutative,)
    format = BINARY_FASTMATH
    _eval = staticmethod(F.maxnumf)
    _fold_identity = F.num_min_max_identity


class MinNumFOp(_FloatBinaryOp):
    """Float minimum ignoring a NaN operand (IEEE minNum).

    %2 = arith.minnumf %0, %1 : f32
    """

    name = "arith.minnumf"
    traits = (Commutative,)
    format = BINARY_FASTMATH
    _eval = staticmethod(F.minnumf)
    _fold_identity = F.num_min_max_identity


class NegFOp(Op, InferTypeOpInterface):
    """Float negation (flips the sign bit).

    %1 = arith.negf %0 : f32
    """

    name = "arith.negf"
    traits = (Pure, SameOperandsAndResultType, Elementwise)
    input = operand(FloatLike)
    res = result(FloatLike)
    fastmath = prop(FastMathAttrC, default=FASTMATH_NONE)
    format = UNARY_FASTMATH
    infer_result_types = classmethod(infer_same_type)

    def fold(self, operand_attrs: list) -> Any:
        inner = self.input.defining_op()
        if type(inner) is NegFOp:
            return inner.input  # -(-x) -> x
        if operand_attrs[0] is None:
            return None
        return F.fold_elementwise(lambda a: -a, operand_attrs, self.res.type)


# ---------------------------------------------------------------------------------------------
# Comparisons and select


class CmpIOp(Op, InferTypeOpInterface):
    """Integer comparison by predicate (eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge).

    %2 = arith.cmpi slt, %0, %1 : i32
    """

    name = "arith.cmpi"
    traits = (Pure, SameTypeOperands, Elementwise)
    predicate = prop(CmpIPredicateC)
    lhs = operand(SignlessIntegerLike)
    rhs = operand(SignlessIntegerLike)
    res = result(BoolLike)
    format = "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)"
    infer_result_types = classmethod(infer_bool_like)
    fold = F.fold_cmpi

    @classmethod
    def get(cls, predicate: str, lhs: Value, rhs: Value) -> Operation:
        """`arith.cmpi predicate, lhs, rhs`."""
        attrs = {"predicate": A.IntegerAttr(F.CMPI_PREDICATES.index(predicate), A.i64)}
        return cls.build([lhs, rhs], None, attrs)

    def verify_op(self) -> None:
        if self.res.type is not bool_like(self.lhs.type):
            raise self.error(_RESULT_SHAPE_MESSAGE)


class CmpFOp(Op, InferTypeOpInterface):
    """Float comparison by predicate: ordered (o*), unordered (u*), ord, uno, true, false.

    %2 = arith.cmpf olt, %0, %1 : f32
    """

    name = "arith.cmpf"
    traits = (Pure, SameTypeOperands, Elementwise)
    predicate = prop(CmpFPredicateC)
    lhs = operand(FloatLike)
    rhs = operand(FloatLike)
    res = result(BoolLike)
    fastmath = prop(FastMathAttrC, default=FASTMATH_NONE)
    format = "$predicate `,` $lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($lhs)"
    infer_result_types = classmethod(infer_bool_like)
    fold = F.fold_cmpf

    @classmethod
    def get(cls, predicate: str, lhs: Value, rhs: Value) -> Operation:
        """`arith.cmpf predicate, lhs, rhs`."""
        attrs = {"predicate": A.IntegerAttr(F.CMPF_PREDICATES.index(predicate), A.i64)}
        return cls.build([lhs, rhs], None, attrs)

    def verify_op(self) -> None:
        if self.res.type is not bool_like(self.lhs.type):
            raise self.error(_RESULT_SHAPE_MESSAGE)


class SelectOp(Op, InferTypeOpInterface):
    """Choose between two values by an i1 condition (elementwise for a vector/tensor of i1).

    %2 = arith.select %c, %a, %b : i32
    %3 = arith.select %vc, %va, %vb : vector<4xi1>, vector<4xf32>
    """

    name = "arith.select"
    traits = (Pure, Elementwise)
    condition = operand(BoolLike)
    true_value = operand(AnyType)
    false_value = operand(AnyType)
    res = result(AnyType)
    fold = F.fold_select

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        return [operand_types[1]]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        # `: type` for an i1 condition, `: cond_type, type` for a vector/tensor one (as MLIR).
        pos = parser.pos()
        names = parser.parse_operand_list()
        if len(names) != 3:
            raise parser.error("expected 3 operands", pos)
        parser.parse_optional_attr_dict(state.attributes)
        t = parser.parse_colon_type()
        cond_t: A.Type = A.i1
        if parser.parse_optional_punct(","):
            cond_t, t = t, parser.parse_type()
        state.operands = parser.resolve_operands(names, [cond_t, t, t])
        state.result_types = [t]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operands(self.operands)
        p.print_op_attrs(self)
        p.write(" : ")
        cond_t = self.condition.type
        if isinstance(cond_t, A.ShapedType):
            p.print_type(cond_t)
            p.write(", ")
        p.print_type(self.res.type)

    def verify_op(self) -> None:
        t = self.res.type
        if self.true_value.type is not t or self.false_value.type is not t:
            raise self.error(
                "failed to verify that all of {true_value, false_value, result} have same type"
            )
        cond_t = self.condition.type
        if cond_t is not A.i1 and bool_like(t) is not cond_t:
            raise self.error("failed to verify that condition is signless i1 or has matching shape")


# ---------------------------------------------------------------------------------------------
# Casts


class _CastOp(Op):
    """Base of the casts (format CAST and variants); `_compatible(src, dst)` checks the element
    types, `_eval(x, src, dst)` folds one element (None: not foldable), `_fold_chain()` folds
    cast chains."""

    traits = (Pure, SameOperandsAndResultShape, Elementwise)

    @staticmethod
    def _compatible(src: A.Type, dst: A.Type) -> bool:
        raise NotImplementedError

    @staticmethod
    def _eval(x: Any, src: A.Type, dst: A.Type) -> Any:
        return None

    def _fold_chain(self) -> Any:
        return None

    @classmethod
    def get(cls, value: Value, result_type: A.Type) -> Operation:
        """This cast of `value` to `result_type`."""
        return cls.build([value], [result_type])

    def verify_op(self) -> None:
        src, dst = self.operand(0).type, self.results[0].type
        if not self._compatible(_elem(src), _elem(dst)):
            raise self.error(f"operand type '{src}' and result type '{dst}' are cast incompatible")

    def fold(self, operand_attrs: list) -> Any:
        folded = self._fold_chain()
        if folded is not None or operand_attrs[0] is None:
            return folded
        src, dst = _elem(self.operand(0).type), _elem(self.results[0].type)
        fn = self._eval
        return F.fold_elementwise(lambda x: fn(x, src, dst), operand_attrs, self.results[0].type)


def _is_int(t: A.Type) -> bool:
    return type(t) is A.IntegerType


def _int_wider(src: A.Type, dst: A.Type) -> bool:
    return _is_int(src) and _is_int(dst) and dst.width > src.width  # type: ignore[attr-defined]


def _float_wider(src: A.Type, dst: A.Type) -> bool:
    return type(src) is A.FloatType and type(dst) is A.FloatType and dst.width > src.width  # type: ignore[attr-defined]


def _int_to_float(src: A.Type, dst: A.Type) -> bool:
    return _is_int(src) and type(dst) is A.FloatType


def _float_to_int(src: A.Type, dst: A.Type) -> bool:
    return type(src) is A.FloatType and _is_int(dst)


class ExtUIOp(_CastOp):
    """Zero-extend an integer to a wider type.

    %1 = arith.extui %0 : i8 to i32
    """

    name = "arith.extui"
    input = operand(SignlessFixedWidthIntegerLike)
    res = result(SignlessFixedWidthIntegerLike)
    nonNeg = opt_prop(UnitAttrC)  # noqa: N815
    format = CAST_NNEG
    _compatible = staticmethod(_int_wider)
    _eval = staticmethod(lambda x, src, dst: F.to_unsigned(x, src.width))
    _fold_chain = F.ext_of_same


class ExtSIOp(_CastOp):
    """Sign-extend an integer to a wider type.

    %1 = arith.extsi %0 : i32 to i64
    """

    name = "arith.extsi"
    input = operand(SignlessFixedWidthIntegerLike)
    res = result(SignlessFixedWidthIntegerLike)
    format = CAST
    _compatible = staticmethod(_int_wider)
    _eval = staticmethod(lambda x, src, dst: F.to_signed(x, src.width))
    _fold_chain = F.ext_of_same


class TruncIOp(_CastOp):
    """Truncate an integer to a narrower type (keeps the low bits).

    %1 = arith.trunci %0 : i64 to i32
    """

    name = "arith.trunci"
    input = operand(SignlessFixedWidthIntegerLike)
    res = result(SignlessFixedWidthIntegerLike)
    overflowFlags = prop(OverflowAttrC, default=OVERFLOW_NONE)  # noqa: N815
    format = "$input (`overflow` `` $overflowFlags^)? attr-dict `:` type($input) `to` type($res)"
    _compatible = staticmethod(lambda src, dst: _int_wider(dst, src))
    _eval = staticmethod(lambda x, src, dst: x)
    _fold_chain = F.trunci_chain


class ExtFOp(_CastOp):
    """Extend a float to a wider type (exact).

    %1 = arith.extf %0 : f16 to f32
    """

    name = "arith.extf"
    input = operand(FloatLike)
    res = result(FloatLike)
    fastmath = opt_prop(FastMathAttrC)
    format = "$input (`fastmath` `` $fastmath^)? attr-dict `:` type($input) `to` type($res)"
    _compatible = staticmethod(_float_wider)
    _eval = staticmethod(lambda x, src, dst: x)
    _fold_chain = F.extf_chain


class TruncFOp(_CastOp):
    """Round a float to a narrower type (folds only when exact).

    %1 = arith.truncf %0 : f32 to bf16
    %2 = arith.truncf %0 to_nearest_even : f32 to f16
    """

    name = "arith.truncf"
    input = operand(FloatLike)
    res = result(FloatLike)
    roundingmode = opt_prop(RoundingModeC)
    fastmath = opt_prop(FastMathAttrC)
    format = (
        "$input `` custom<RoundingMode>($roundingmode) (`fastmath` `` $fastmath^)? attr-dict "
        "`:` type($input) `to` type($res)"
    )
    _compatible = staticmethod(lambda src, dst: _float_wider(dst, src))
    _eval = staticmethod(lambda x, src, dst: x if F.float_is_exact_in(x, dst) else None)
    _fold_chain = F.truncf_chain

    @classmethod
    def parse_RoundingMode(cls, parser: Any, state: OperationState) -> A.Attribute | None:  # noqa: N802
        kw = parser.parse_optional_keyword_in(ROUNDING_MODES)
        return None if kw is None else A.IntegerAttr(ROUNDING_MODES.index(kw), A.i32)

    def print_RoundingMode(self, p: Any, mode: A.Attribute | None) -> None:  # noqa: N802
        if mode is not None:
            p.write(" ")
            RoundingModeC.print_hook(p, mode)  # type: ignore[misc]


class UIToFPOp(_CastOp):
    """Convert an unsigned integer to the nearest float.

    %1 = arith.uitofp %0 : i32 to f32
    """

    name = "arith.uitofp"
    input = operand(SignlessFixedWidthIntegerLike)
    res = result(FloatLike)
    nonNeg = opt_prop(UnitAttrC)  # noqa: N815
    format = CAST_NNEG
    _compatible = staticmethod(_int_to_float)
    _eval = staticmethod(lambda x, src, dst: F.round_float(F.to_unsigned(x, src.width), dst))


class SIToFPOp(_CastOp):
    """Convert a signed integer to the nearest float.

    %1 = arith.sitofp %0 : i32 to f32
    """

    name = "arith.sitofp"
    input = operand(SignlessFixedWidthIntegerLike)
    res = result(FloatLike)
    format = CAST
    _compatible = staticmethod(_int_to_float)
    _eval = staticmethod(lambda x, src, dst: F.round_float(F.to_signed(x, src.width), dst))


class FPToUIOp(_CastOp):
    """Convert a float to an unsigned integer, rounding toward zero.

    %1 = arith.fptoui %0 : f32 to i32
    """

    name = "arith.fptoui"
    input = operand(FloatLike)
    res = result(SignlessFixedWidthIntegerLike)
    format = CAST
    _compatible = staticmethod(_float_to_int)
    _eval = staticmethod(lambda x, src, dst: F.fptoint(x, dst.width, False))


class FPToSIOp(_CastOp):
    """Convert a float to a signed integer, rounding toward zero.

    %1 = arith.fptosi %0 : f32 to i32
    """

    name = "arith.fptosi"
    input = operand(FloatLike)
    res = result(SignlessFixedWidthIntegerLike)
    format = CAST
    _compatible = staticmethod(_float_to_int)
    _eval = staticmethod(lambda x, src, dst: F.fptoint(x, dst.width, True))


def _index_and_int(src: A.Type, dst: A.Type) -> bool:
    return (type(src) is A.IndexType and _is_int(dst)) or (
        _is_int(src) and type(dst) is A.IndexType
    )


class IndexCastOp(_CastOp):
    """Convert between index and an integer type (sign-extending or truncating).

    %1 = arith.index_cast %0 : i32 to index
    """

    name = "arith.index_cast"
    input = operand(SignlessIntegerLike)
    res = result(SignlessIntegerLike)
    format = CAST
    _compatible = staticmethod(_index_and_int)
    _eval = staticmethod(lambda x, src, dst: F.to_signed(x, F.int_width(src)))


class IndexCastUIOp(_CastOp):
    """Convert between index and an integer type (zero-extending or truncating).

    %1 = arith.index_castui %0 : index to i32
    """

    name = "arith.index_castui"
    input = operand(SignlessIntegerLike)
    res = result(SignlessIntegerLike)
    format = CAST
    _compatible = staticmethod(_index_and_int)
    _eval = staticmethod(lambda x, src, dst: F.to_unsigned(x, F.int_width(src)))


def _bitcast_element(x: Any, src: A.Type, dst: A.Type) -> Any:
    bits = F.float_to_bits(x, src) if type(src) is A.FloatType else x
    if bits is None or type(dst) is not A.FloatType:
        return bits
    return F.float_from_bits(F.to_unsigned(bits, dst.width), dst)  # type: ignore[attr-defined]


class BitcastOp(_CastOp):
    """Reinterpret the bits of an integer or float as another type of the same width.

    %1 = arith.bitcast %0 : f32 to i32
    """

    name = "arith.bitcast"
    input = operand(SignlessIntegerOrFloatLike)
    res = result(SignlessIntegerOrFloatLike)
    format = CAST
    _compatible = staticmethod(lambda src, dst: src.width == dst.width)
    _eval = staticmethod(_bitcast_element)
    _fold_chain = F.bitcast_chain


DIALECT = Dialect(
    "arith",
    ops=[
        ConstantOp,
        AddIOp, SubIOp, MulIOp, DivUIOp, DivSIOp, CeilDivUIOp, CeilDivSIOp, FloorDivSIOp,
        RemUIOp, RemSIOp, AndIOp, OrIOp, XOrIOp, ShLIOp, ShRUIOp, ShRSIOp,
        MaxSIOp, MaxUIOp, MinSIOp, MinUIOp, AddUIExtendedOp, MulSIExtendedOp, MulUIExtendedOp,
        AddFOp, SubFOp, MulFOp, DivFOp, RemFOp, MaximumFOp, MinimumFOp, MaxNumFOp, MinNumFOp,
        NegFOp, CmpIOp, CmpFOp, SelectOp,
        ExtUIOp, ExtSIOp, TruncIOp, ExtFOp, TruncFOp, UIToFPOp, SIToFPOp, FPToUIOp, FPToSIOp,
        IndexCastOp, IndexCastUIOp, BitcastOp,
    ],
    attributes=[FastMathFlagsAttr, IntegerOverflowFlagsAttr],
    materialize_constant=materialize_constant,
)  # fmt: skip
