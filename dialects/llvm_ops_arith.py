"""Value ops of the `llvm` dialect: constants, integer and float arithmetic, comparisons, select,
casts, vector and aggregate element access, and the math/memory intrinsics used by lowering.

Each op class carries the LLVM IR instruction or intrinsic it maps to (`llvm_opcode`), so the
translation to LLVM IR text is table-driven.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mlc.dialects.llvm_types import (
    FASTMATH_NONE,
    FastmathFlagsAttr,
    LLVMArrayType,
    LLVMPointerType,
    LLVMStructType,
    bare_error,
    is_compatible_type,
)

from mlc.interfaces import (
    ConditionallySpeculatable,
    EffectInstance,
    MemoryEffectsOpInterface,
)
from mlc.ir import attributes as A
from mlc.ir.core import Operation
from mlc.ir.opdef import (
    AnyAttr,
    Commutative,
    ConstantLike,
    Constraint,
    DenseI32ArrayAttr,
    DenseI64ArrayAttr,
    InferTypeOpInterface,
    Op,
    OperationState,
    Pure,
    SameOperandsAndResultType,
    SameTypeOperands,
    UnitAttrC,
    operand,
    opt_prop,
    prop,
    result,
)
from mlc.syntax.format import format_constraint

# ---------------------------------------------------------------------------------------------
# Type constraints (MLIR's LLVM_* type constraints)


def _scalar_or_vector(pred: Callable[[Any], bool]) -> Callable[[Any], bool]:
    def check(t: Any) -> bool:
        if type(t) is A.VectorType:
            return pred(t.element_type)
        return pred(t)

    return check


def _is_int(t: Any) -> bool:
    return type(t) is A.IntegerType and t.signedness == A.SIGNLESS


def _is_float(t: Any) -> bool:
    return type(t) is A.FloatType and is_compatible_type(t)


def _is_ptr(t: Any) -> bool:
    return type(t) is LLVMPointerType


LLVMAnyType = Constraint(is_compatible_type, "LLVM dialect-compatible type")
LLVMIntLike = Constraint(
    _scalar_or_vector(_is_int),
    "signless integer or LLVM dialect-compatible vector of signless integer",
)
LLVMFloatLike = Constraint(
    _scalar_or_vector(_is_float),
    "floating point LLVM type or LLVM dialect-compatible vector of floating point LLVM type",
)
LLVMPtrLike = Constraint(
    _scalar_or_vector(_is_ptr), "LLVM pointer or LLVM dialect-compatible vector of LLVM pointer"
)
LLVMI1Like = Constraint(
    _scalar_or_vector(lambda t: t is A.i1),
    "1-bit signless integer or LLVM dialect-compatible vector of 1-bit signless integer",
)
LLVMVector = Constraint(
    lambda t: type(t) is A.VectorType and is_compatible_type(t),
    "LLVM dialect-compatible vector type",
)
LLVMAggregate = Constraint(
    lambda t: type(t) in (LLVMStructType, LLVMArrayType), "LLVM aggregate type"
)
LLVMNonAggregate = Constraint(
    lambda t: type(t) not in (LLVMStructType, LLVMArrayType) and is_compatible_type(t),
    "LLVM-compatible non-aggregate type",
)
LLVMInt = Constraint(_is_int, "integer")
LLVMPtr = Constraint(_is_ptr, "LLVM pointer type")

# ---------------------------------------------------------------------------------------------
# Attribute constraints and their custom syntax

OVERFLOW_FLAG_NAMES = ("nsw", "nuw")
OVERFLOW_NONE = A.IntegerAttr(0, A.i32)


def _parse_overflow(parser: Any) -> A.Attribute:
    parser.parse_punct("<")
    flags = 0
    while True:
        kw = parser.parse_optional_keyword_in(("none", *OVERFLOW_FLAG_NAMES))
        if kw is None:
            raise parser.error(
                "expected ::mlir::LLVM::IntegerOverflowFlags to be one of: none, nsw, nuw"
            )
        if kw != "none":
            flags |= 1 << OVERFLOW_FLAG_NAMES.index(kw)
        if not parser.parse_optional_punct(","):
            break
    parser.parse_punct(">")
    return A.IntegerAttr(flags, A.i32)


def overflow_names(flags: int) -> list[str]:
    """The LLVM IR keywords of an `overflowFlags` value (`nsw`, `nuw`)."""
    return [n for i, n in enumerate(OVERFLOW_FLAG_NAMES) if flags >> i & 1]


def _print_overflow(p: Any, a: A.Attribute) -> None:
    p.write("<" + (", ".join(overflow_names(a.value)) or "none") + ">")  # type: ignore[attr-defined]


OverflowFlagsC = format_constraint(
    Constraint(
        lambda a: type(a) is A.IntegerAttr and a.type is A.i32 and 0 <= a.value < 4,
        "LLVM integer overflow flags",
    ),
    parse_hook=_parse_overflow,
    print_hook=_print_overflow,
)
FastmathC = format_constraint(FastmathFlagsAttr, "LLVM fastmath flags")

ICMP_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
FCMP_PREDICATES = (
    "_false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "_true",
)  # fmt: skip


def _predicate_constraint(names: tuple[str, ...], what: str) -> Any:
    n = len(names)

    def check(a: Any) -> bool:
        return type(a) is A.IntegerAttr and a.type is A.i64 and 0 <= a.value < n

    def parse(parser: Any) -> A.Attribute:
        pos = parser.pos()
        s = parser.parse_optional_string()
        if s is None:
            s = parser.parse_optional_keyword()
        if s not in names:
            raise parser.error(
                "expected string or keyword containing one of the following enum values for "
                f"attribute 'predicate' [{', '.join(names)}]",
                pos,
            )
        return A.IntegerAttr(names.index(s), A.i64)

    def print_hook(p: Any, a: A.Attribute) -> None:
        p.print_string(names[a.value]) if check(a) else p.print_attribute(a)  # type: ignore[attr-defined]

    return format_constraint(
        Constraint(check, f"{what} predicate (case 0..{n - 1})"),
        parse_hook=parse,
        print_hook=print_hook,
    )


ICmpPredicateC = _predicate_constraint(ICMP_PREDICATES, "llvm.icmp")
FCmpPredicateC = _predicate_constraint(FCMP_PREDICATES, "llvm.fcmp")


def parse_index_list(parser: Any, t: A.Type) -> A.Attribute:
    values: list[int] = []
    parser.parse_comma_separated_list("square", lambda: values.append(parser.parse_integer()))
    return A.DenseArrayAttr(t, values)


def print_index_list(p: Any, a: A.Attribute) -> None:
    p.write("[" + ", ".join(map(str, a.values)) + "]")  # type: ignore[attr-defined]


PositionC = format_constraint(
    DenseI64ArrayAttr, parse_hook=lambda p: parse_index_list(p, A.i64), print_hook=print_index_list
)
MaskC = format_constraint(
    DenseI32ArrayAttr, parse_hook=lambda p: parse_index_list(p, A.i32), print_hook=print_index_list
)


def _q(t: A.Type) -> str:
    return f"'{t}'"


def bool_like(t: A.Type) -> A.Type:
    """i1, or a vector of i1 with the shape of vector `t`."""
    if type(t) is A.VectorType:
        return A.VectorType(t.shape, A.i1, t.scalable)
    return A.i1


# ---------------------------------------------------------------------------------------------
# Constants


class ConstantOp(Op, InferTypeOpInterface):
    """An LLVM constant: integer, float, or dense elements of a vector/array.

    The value attribute's type must agree with the result type: integer attributes with
    integer results of the same width, float attributes with the same float type, elements
    attributes with vectors (or arrays) of as many elements.

        %0 = llvm.mlir.constant(1 : i64) : i64
        %1 = llvm.mlir.constant(dense<1.0> : vector<4xf32>) : vector<4xf32>
    """

    name = "llvm.mlir.constant"
    traits = (Pure, ConstantLike)
    value = prop(AnyAttr)
    res = result(LLVMAnyType)
    format = "`(` $value `)` attr-dict `:` type($res)"

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        return [attributes["value"].type]

    def verify_op(self) -> None:
        value, t = self.value, self.res.type
        vt = type(value)
        if vt is A.IntegerAttr:
            if type(t) is not A.IntegerType:
                raise self.error("expected integer type")
            if value.type is not t:
                raise self.error(
                    f"attribute and type have different integer types: {_q(value.type)} vs. {_q(t)}"
                )
        elif vt is A.FloatAttr:
            if type(t) is not A.FloatType or value.type is not t:
                raise self.error(
                    "attribute and type have different float semantics: "
                    f"{_q(value.type)} vs. {_q(t)}"
                )
        elif vt is A.DenseElementsAttr:
            if type(t) is A.VectorType:
                if (
                    value.type.shape != t.shape
                    or A.element_type_of(value.type) is not t.element_type
                ):
                    raise self.error(
                        f"expected the elements' type {_q(value.type)} to match vector result "
                        f"type {_q(t)}"
                    )
            elif type(t) is LLVMArrayType:
                n = 1
                for d in value.type.shape:
                    n *= d
                if _array_leaf_count(t) != n:
                    raise self.error(
                        "constant array does not have as many elements as the array type"
                    )
            else:
                raise self.error("expected vector or array type for an elements attribute")
        elif vt is A.StringAttr:
            if (
                type(t) is not LLVMArrayType
                or t.element_type is not A.i8
                or t.num_elements
                != len(value.value.encode() if isinstance(value.value, str) else value.value)
            ):
                raise self.error("expected array type of the string's length with i8 elements")
        else:
            raise self.error("only supports integer, float, string or elements attributes")

    def fold(self, operand_attrs: list) -> A.Attribute:
        return self.value  # type: ignore[no-any-return]


def _array_leaf_count(t: A.Type) -> int:
    if type(t) is LLVMArrayType:
        return t.num_elements * _array_leaf_count(t.element_type)
    if type(t) is A.VectorType:
        n = 1
        for d in t.shape:
            n *= d
        return n
    return 1


class UndefOp(Op):
    """An undefined value of any LLVM type (LLVM IR's `undef`).

    Each use may observe a different value; used to start building aggregates with
    `llvm.insertvalue`.

        %0 = llvm.mlir.undef : !llvm.struct<(i32, f32)>
    """

    name = "llvm.mlir.undef"
    traits = (Pure, ConstantLike)
    res = result(LLVMAnyType)
    format = "attr-dict `:` type($res)"
    llvm_opcode = "undef"


class PoisonOp(Op):
    """A poison value of any LLVM type (LLVM IR's `poison`).

    Operations on poison yield poison; it is a stronger form of undef.

        %0 = llvm.mlir.poison : f32
    """

    name = "llvm.mlir.poison"
    traits = (Pure, ConstantLike)
    res = result(LLVMAnyType)
    format = "attr-dict `:` type($res)"
    llvm_opcode = "poison"


class ZeroOp(Op):
    """The all-zero value of any LLVM type (`zeroinitializer`, or `null` for pointers).

    Works for every LLVM type, aggregates included.

        %0 = llvm.mlir.zero : !llvm.ptr
    """

    name = "llvm.mlir.zero"
    traits = (Pure, ConstantLike)
    res = result(LLVMAnyType)
    format = "attr-dict `:` type($res)"
    llvm_opcode = "zeroinitializer"


# ---------------------------------------------------------------------------------------------
# Integer and float arithmetic


class _BinaryOp(Op, InferTypeOpInterface):
    """Base of the binary arithmetic ops: operands and result of one type (each op adds Pure,
    except the divisions, which may trap)."""

    traits = (SameOperandsAndResultType,)
    lhs = operand(LLVMIntLike)
    rhs = operand(LLVMIntLike)
    res = result(LLVMIntLike)
    llvm_opcode = ""

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        return [operand_types[0]]


_INT_FORMAT = "$lhs `,` $rhs attr-dict `:` type($res)"
_OVERFLOW_FORMAT = "$lhs `,` $rhs `` custom<OverflowFlags>($overflowFlags) attr-dict `:` type($res)"
_EXACT_FORMAT = "(`exact` $isExact^)? $lhs `,` $rhs attr-dict `:` type($res)"
_FLOAT_FORMAT = "$lhs `,` $rhs `` custom<Fastmath>($fastmathFlags) attr-dict `:` type($res)"


def _print_overflow_directive(self: Any, p: Any, attr: Any) -> None:
    if attr is not None and attr.value:
        p.write(" overflow")
        _print_overflow(p, attr)


def _parse_overflow_directive(cls: Any, parser: Any, state: OperationState) -> Any:
    if parser.parse_optional_keyword("overflow"):
        return _parse_overflow(parser)
    return None


def print_fastmath_directive(self: Any, p: Any, attr: Any) -> None:
    if attr is not None and attr.flags:
        p.write(" fastmath")
        attr.print_parameters(p)


def parse_fastmath_directive(cls: Any, parser: Any, state: OperationState) -> Any:
    if parser.parse_optional_keyword("fastmath"):
        return FastmathFlagsAttr.parse_parameters(parser)
    return None


class _OverflowBinaryOp(_BinaryOp):
    """Integer arithmetic with `overflow<nsw, nuw>` flags."""

    overflowFlags = prop(OverflowFlagsC, default=OVERFLOW_NONE)  # noqa: N815 - MLIR's name
    print_OverflowFlags = _print_overflow_directive
    parse_OverflowFlags = classmethod(_parse_overflow_directive)


class _FloatBinaryOp(Op, InferTypeOpInterface):
    """Float arithmetic with fast-math flags."""

    traits = (Pure, SameOperandsAndResultType)
    llvm_opcode = ""
    infer_result_types = _BinaryOp.infer_result_types

    lhs = operand(LLVMFloatLike)
    rhs = operand(LLVMFloatLike)
    res = result(LLVMFloatLike)
    fastmathFlags = prop(FastmathC, default=FASTMATH_NONE)  # noqa: N815 - MLIR's name
    format = _FLOAT_FORMAT
    print_Fastmath = print_fastmath_directive
    parse_Fastmath = classmethod(parse_fastmath_directive)


def _int_op(
    mnemonic: str, summary: str, example: str, kind: str, commutative: bool = False
) -> type:
    """One integer binary op class; `kind` is '' (plain), 'overflow', 'exact' or 'disjoint'."""
    base: type = _OverflowBinaryOp if kind == "overflow" else _BinaryOp
    ns: dict[str, Any] = {
        "__doc__": f"{summary}\n\n    Maps to LLVM IR's `{mnemonic}`; operands and result "
        "share one integer (or vector\n"
        f"    of integers) type.\n\n        {example}\n",
        "name": f"llvm.{mnemonic}",
        "llvm_opcode": mnemonic,
        "traits": (Pure, SameOperandsAndResultType) + ((Commutative,) if commutative else ()),
        "__module__": __name__,
    }
    if kind == "overflow":
        ns["format"] = _OVERFLOW_FORMAT
    elif kind == "exact":
        ns["isExact"] = opt_prop(UnitAttrC)
        ns["format"] = _EXACT_FORMAT
    elif kind == "disjoint":
        ns["isDisjoint"] = opt_prop(UnitAttrC)
        ns["format"] = "(`disjoint` $isDisjoint^)? $lhs `,` $rhs attr-dict `:` type($res)"
    else:
        ns["format"] = _INT_FORMAT
    if mnemonic in ("udiv", "sdiv", "urem", "srem"):
        ns["traits"] = (SameOperandsAndResultType,)  # division may trap: not speculatable
        return type(camel_name(mnemonic) + "Op", (base, _DivisionEffects), ns)
    return type(camel_name(mnemonic) + "Op", (base,), ns)


class _DivisionEffects(MemoryEffectsOpInterface, ConditionallySpeculatable):
    """Divisions: no memory effects, but not speculatable (division by zero is UB)."""

    __slots__ = ()

    def get_effects(self) -> list[EffectInstance]:
        return []

    def is_speculatable(self) -> bool:
        return False


def camel_name(mnemonic: str) -> str:
    return "".join(part.capitalize() for part in mnemonic.replace(".", "_").split("_"))


AddOp = _int_op(
    "add", "Integer addition.", "%2 = llvm.add %0, %1 overflow<nsw> : i32", "overflow", True
)
SubOp = _int_op("sub", "Integer subtraction.", "%2 = llvm.sub %0, %1 : i64", "overflow")
MulOp = _int_op(
    "mul", "Integer multiplication.", "%2 = llvm.mul %0, %1 : vector<4xi32>", "overflow", True
)
ShlOp = _int_op("shl", "Shift left.", "%2 = llvm.shl %0, %1 overflow<nuw> : i32", "overflow")
UDivOp = _int_op("udiv", "Unsigned integer division.", "%2 = llvm.udiv exact %0, %1 : i32", "exact")
SDivOp = _int_op("sdiv", "Signed integer division.", "%2 = llvm.sdiv %0, %1 : i32", "exact")
URemOp = _int_op("urem", "Unsigned integer remainder.", "%2 = llvm.urem %0, %1 : i32", "")
SRemOp = _int_op("srem", "Signed integer remainder.", "%2 = llvm.srem %0, %1 : i32", "")
AndOp = _int_op("and", "Bitwise and.", "%2 = llvm.and %0, %1 : i1", "", True)
OrOp = _int_op("or", "Bitwise or.", "%2 = llvm.or disjoint %0, %1 : i32", "disjoint", True)
XOrOp = _int_op("xor", "Bitwise exclusive or.", "%2 = llvm.xor %0, %1 : i32", "", True)
LShrOp = _int_op("lshr", "Logical shift right.", "%2 = llvm.lshr exact %0, %1 : i32", "exact")
AShrOp = _int_op("ashr", "Arithmetic shift right.", "%2 = llvm.ashr %0, %1 : i32", "exact")


def _float_op(mnemonic: str, summary: str, commutative: bool = False) -> type:
    ns: dict[str, Any] = {
        "__doc__": f"{summary}\n\n    Maps to LLVM IR's `{mnemonic}`; operands and result "
        "share one float (or vector of\n"
        "    floats) type; fast-math flags print as `fastmath<...>`.\n\n"
        f"        %2 = llvm.{mnemonic} %0, %1 fastmath<fast> : f32\n",
        "name": f"llvm.{mnemonic}",
        "llvm_opcode": mnemonic,
        "traits": (Pure, SameOperandsAndResultType) + ((Commutative,) if commutative else ()),
        "format": _FLOAT_FORMAT,
        "__module__": __name__,
    }
    return type(camel_name(mnemonic) + "Op", (_FloatBinaryOp,), ns)


FAddOp = _float_op("fadd", "Float addition.", True)
FSubOp = _float_op("fsub", "Float subtraction.")
FMulOp = _float_op("fmul", "Float multiplication.", True)
FDivOp = _float_op("fdiv", "Float division.")
FRemOp = _float_op("frem", "Float remainder.")


class FNegOp(Op, InferTypeOpInterface):
    """Float negation.

    Maps to LLVM IR's `fneg`; flips the sign bit.

        %1 = llvm.fneg %0 : vector<4xf32>
    """

    name = "llvm.fneg"
    traits = (Pure, SameOperandsAndResultType)
    operand_ = operand(LLVMFloatLike)
    res = result(LLVMFloatLike)
    fastmathFlags = prop(FastmathC, default=FASTMATH_NONE)  # noqa: N815
    format = "$operand_ `` custom<Fastmath>($fastmathFlags) attr-dict `:` type($res)"
    llvm_opcode = "fneg"
    print_Fastmath = print_fastmath_directive
    parse_Fastmath = classmethod(parse_fastmath_directive)

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        return [operand_types[0]]


# ---------------------------------------------------------------------------------------------
# Comparisons and select


class ICmpOp(Op, InferTypeOpInterface):
    """Integer or pointer comparison with one of LLVM's 10 predicates.

    The result is i1, or a vector of i1 for vector operands. Predicates: eq, ne, slt, sle,
    sgt, sge, ult, ule, ugt, uge (stored as their index in that list).

        %2 = llvm.icmp "slt" %0, %1 : i64
    """

    name = "llvm.icmp"
    traits = (Pure, SameTypeOperands)
    predicate = prop(ICmpPredicateC)
    lhs = operand(LLVMIntLike | LLVMPtrLike)
    rhs = operand(LLVMIntLike | LLVMPtrLike)
    res = result(LLVMI1Like)
    format = "$predicate $lhs `,` $rhs attr-dict `:` type($lhs)"
    llvm_opcode = "icmp"
    predicates = ICMP_PREDICATES
    ir_predicates = ICMP_PREDICATES

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        return [bool_like(operand_types[0])]

    def verify_op(self) -> None:
        if self.res.type is not bool_like(self.lhs.type):
            raise self.error(
                "failed to verify that result type has i1 element type and same shape as operands"
            )


class FCmpOp(Op, InferTypeOpInterface):
    """Float comparison with one of LLVM's 16 predicates.

    Predicates: _false, oeq, ogt, oge, olt, ole, one, ord, ueq, ugt, uge, ult, ule, une, uno,
    _true (stored as their index). The result is i1 or a vector of i1.

        %2 = llvm.fcmp "olt" %0, %1 fastmath<nnan> : f32
    """

    name = "llvm.fcmp"
    traits = (Pure, SameTypeOperands)
    predicate = prop(FCmpPredicateC)
    lhs = operand(LLVMFloatLike)
    rhs = operand(LLVMFloatLike)
    res = result(LLVMI1Like)
    fastmathFlags = prop(FastmathC, default=FASTMATH_NONE)  # noqa: N815
    format = "$predicate $lhs `,` $rhs `` custom<Fastmath>($fastmathFlags) attr-dict `:` type($lhs)"
    llvm_opcode = "fcmp"
    predicates = FCMP_PREDICATES
    # LLVM IR's spelling of each predicate (MLIR's `_false`/`_true` are `false`/`true`).
    ir_predicates = tuple(p.lstrip("_") for p in FCMP_PREDICATES)
    print_Fastmath = print_fastmath_directive
    parse_Fastmath = classmethod(parse_fastmath_directive)

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        return [bool_like(operand_types[0])]

    def verify_op(self) -> None:
        if self.res.type is not bool_like(self.lhs.type):
            raise self.error(
                "failed to verify that result type has i1 element type and same shape as operands"
            )


class SelectOp(Op, InferTypeOpInterface):
    """Choose between two values by an i1 condition (elementwise for a vector of i1).

    The two values and the result share one type; a vector condition selects per
    element and must have the values' shape. Fast-math flags print as `fastmath<...>`.

        %2 = llvm.select %c, %0, %1 : i1, f32
    """

    name = "llvm.select"
    traits = (Pure,)
    condition = operand(LLVMI1Like)
    trueValue = operand(LLVMAnyType)  # noqa: N815 - MLIR's name
    falseValue = operand(LLVMAnyType)  # noqa: N815
    res = result(LLVMAnyType)
    fastmathFlags = prop(FastmathC, default=FASTMATH_NONE)  # noqa: N815
    format = (
        "$condition `,` $trueValue `,` $falseValue `` custom<Fastmath>($fastmathFlags) attr-dict "
        "`:` type($condition) `,` type($res)"
    )
    format_type_equalities = (("trueValue", "falseValue", "res"),)
    llvm_opcode = "select"
    print_Fastmath = print_fastmath_directive
    parse_Fastmath = classmethod(parse_fastmath_directive)

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        return [operand_types[1]]

    def verify_op(self) -> None:
        t = self.res.type
        if self.trueValue.type is not t or self.falseValue.type is not t:
            raise self.error(
                "failed to verify that all of {trueValue, falseValue, res} have same type"
            )
        c = self.condition.type
        if type(c) is A.VectorType and (type(t) is not A.VectorType or t.shape != c.shape):
            raise self.error("expected a vector condition to have the shape of the values")


# ---------------------------------------------------------------------------------------------
# Casts


def _width(t: A.Type) -> int:
    t = A.element_type_of(t)
    if type(t) is A.IntegerType:
        return t.width
    if type(t) is A.FloatType:
        return t.width
    return 0


def _shape(t: A.Type) -> tuple[int, ...] | None:
    return t.shape if type(t) is A.VectorType else None  # type: ignore[attr-defined]


class _CastOp(Op):
    """Base of the casts: one operand, one result, `$arg : type to type`."""

    traits = (Pure,)
    arg = operand(LLVMAnyType)
    res = result(LLVMAnyType)
    format = "$arg attr-dict `:` type($arg) `to` type($res)"
    llvm_opcode = ""
    _width_rule = ""  # "<" result narrower, ">" result wider, "=" same size

    def verify_op(self) -> None:
        src, dst = self.arg.type, self.res.type
        if _shape(src) != _shape(dst):
            raise bare_error(self, "input and output vectors are of incompatible shape")
        rule = self._width_rule
        if not rule:
            return
        a, b = _width(src), _width(dst)
        if rule == "<" and not b < a:
            raise self.error(f"result type {_q(dst)} must be narrower than operand type {_q(src)}")
        if rule == ">" and not b > a:
            kind = "integer" if type(A.element_type_of(src)) is A.IntegerType else "float"
            raise bare_error(
                self,
                f"{kind} width of the output type is smaller or equal to the {kind} width of "
                "the input type",
            )


def _cast_op(
    mnemonic: str,
    summary: str,
    src: Constraint,
    dst: Constraint,
    rule: str,
    example: str,
    flag: str = "",
) -> type:
    ns: dict[str, Any] = {
        "__doc__": f"{summary}\n\n    Maps to LLVM IR's `{mnemonic}`; scalars or vectors of one "
        f"shape.\n\n        {example}\n",
        "name": f"llvm.{mnemonic}",
        "llvm_opcode": mnemonic,
        "arg": operand(src),
        "res": result(dst),
        "_width_rule": rule,
        "format": _CastOp.format,
        "__module__": __name__,
    }
    if flag == "overflow":
        ns["overflowFlags"] = prop(OverflowFlagsC, default=OVERFLOW_NONE)
        ns["format"] = (
            "$arg `` custom<OverflowFlags>($overflowFlags) attr-dict `:` type($arg) `to` type($res)"
        )
        ns["print_OverflowFlags"] = _print_overflow_directive
        ns["parse_OverflowFlags"] = classmethod(_parse_overflow_directive)
    elif flag == "nneg":
        ns["nonNeg"] = opt_prop(UnitAttrC)
        ns["format"] = "(`nneg` $nonNeg^)? $arg attr-dict `:` type($arg) `to` type($res)"
    elif flag == "fastmath":
        ns["fastmathFlags"] = prop(FastmathC, default=FASTMATH_NONE)
        ns["format"] = (
            "$arg `` custom<Fastmath>($fastmathFlags) attr-dict `:` type($arg) `to` type($res)"
        )
        ns["print_Fastmath"] = print_fastmath_directive
        ns["parse_Fastmath"] = classmethod(parse_fastmath_directive)
    return type(camel_name(mnemonic) + "Op", (_CastOp,), ns)


TruncOp = _cast_op(
    "trunc",
    "Integer truncation.",
    LLVMIntLike,
    LLVMIntLike,
    "<",
    "%1 = llvm.trunc %0 : i64 to i32",
    "overflow",
)
ZExtOp = _cast_op(
    "zext",
    "Integer zero extension.",
    LLVMIntLike,
    LLVMIntLike,
    ">",
    "%1 = llvm.zext nneg %0 : i32 to i64",
    "nneg",
)
SExtOp = _cast_op(
    "sext",
    "Integer sign extension.",
    LLVMIntLike,
    LLVMIntLike,
    ">",
    "%1 = llvm.sext %0 : i32 to i64",
)
FPTruncOp = _cast_op(
    "fptrunc",
    "Float truncation.",
    LLVMFloatLike,
    LLVMFloatLike,
    "<",
    "%1 = llvm.fptrunc %0 : f64 to f32",
    "fastmath",
)
FPExtOp = _cast_op(
    "fpext",
    "Float extension.",
    LLVMFloatLike,
    LLVMFloatLike,
    ">",
    "%1 = llvm.fpext %0 : f32 to f64",
    "fastmath",
)
FPToSIOp = _cast_op(
    "fptosi",
    "Float to signed integer.",
    LLVMFloatLike,
    LLVMIntLike,
    "",
    "%1 = llvm.fptosi %0 : f32 to i32",
)
FPToUIOp = _cast_op(
    "fptoui",
    "Float to unsigned integer.",
    LLVMFloatLike,
    LLVMIntLike,
    "",
    "%1 = llvm.fptoui %0 : f32 to i32",
)
SIToFPOp = _cast_op(
    "sitofp",
    "Signed integer to float.",
    LLVMIntLike,
    LLVMFloatLike,
    "",
    "%1 = llvm.sitofp %0 : i64 to f32",
)
UIToFPOp = _cast_op(
    "uitofp",
    "Unsigned integer to float.",
    LLVMIntLike,
    LLVMFloatLike,
    "",
    "%1 = llvm.uitofp nneg %0 : i32 to f32",
    "nneg",
)
PtrToIntOp = _cast_op(
    "ptrtoint",
    "Pointer to integer.",
    LLVMPtrLike,
    LLVMIntLike,
    "",
    "%1 = llvm.ptrtoint %0 : !llvm.ptr to i64",
)
IntToPtrOp = _cast_op(
    "inttoptr",
    "Integer to pointer.",
    LLVMIntLike,
    LLVMPtrLike,
    "",
    "%1 = llvm.inttoptr %0 : i64 to !llvm.ptr",
)
AddrSpaceCastOp = _cast_op(
    "addrspacecast",
    "Pointer cast between address spaces.",
    LLVMPtrLike,
    LLVMPtrLike,
    "",
    "%1 = llvm.addrspacecast %0 : !llvm.ptr to !llvm.ptr<1>",
)


def _bit_size(t: A.Type) -> int | None:
    if type(t) is A.VectorType:
        w = _width(t.element_type)
        if not w or any(t.scalable):
            return None
        n = 1
        for d in t.shape:
            n *= d
        return n * w
    return _width(t) or None


class BitcastOp(_CastOp):
    """Reinterpret the bits of a non-aggregate value as another type of the same size.

    Pointers cast only to pointers (of the same address space); a cast to the operand's own
    type folds to the operand.

        %1 = llvm.bitcast %0 : i32 to f32
    """

    name = "llvm.bitcast"
    arg = operand(LLVMNonAggregate)
    res = result(LLVMNonAggregate)
    format = _CastOp.format
    llvm_opcode = "bitcast"

    def verify_op(self) -> None:
        src, dst = self.arg.type, self.res.type
        sp, dp = LLVMPtrLike.check(src), LLVMPtrLike.check(dst)
        if sp != dp:
            raise self.error("can only cast pointers from and to pointers")
        if sp:
            if _shape(src) != _shape(dst):
                raise self.error("cannot cast vector of pointers to a vector of another shape")
            if A.element_type_of(src) is not A.element_type_of(dst):
                raise self.error(
                    "cannot cast pointers of different address spaces, use 'llvm.addrspacecast' "
                    "instead"
                )
            return
        a, b = _bit_size(src), _bit_size(dst)
        if a is not None and b is not None and a != b:
            raise self.error(
                f"operand type {_q(src)} and result type {_q(dst)} have different bit sizes"
            )

    def fold(self, operand_attrs: list) -> Any:
        if self.arg.type is self.res.type:
            return self.arg
        return None


VALUE_OPS: list[type[Operation]] = [
    ConstantOp, UndefOp, PoisonOp, ZeroOp,
    AddOp, SubOp, MulOp, ShlOp, UDivOp, SDivOp, URemOp, SRemOp, AndOp, OrOp, XOrOp, LShrOp, AShrOp,
    FAddOp, FSubOp, FMulOp, FDivOp, FRemOp, FNegOp,
    ICmpOp, FCmpOp, SelectOp,
    TruncOp, ZExtOp, SExtOp, FPTruncOp, FPExtOp, FPToSIOp, FPToUIOp, SIToFPOp, UIToFPOp,
    PtrToIntOp, IntToPtrOp, BitcastOp, AddrSpaceCastOp,
]  # fmt: skip
