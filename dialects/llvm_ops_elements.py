"""Element-access ops and intrinsics of the `llvm` dialect: extract/insert of vector elements
and aggregate members, `llvm.shufflevector`, and the math/memory intrinsics used by lowering.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mlc.dialects.llvm_ops_arith import (
    FASTMATH_NONE,
    FastmathC,
    LLVMAggregate,
    LLVMAnyType,
    LLVMFloatLike,
    LLVMInt,
    LLVMIntLike,
    LLVMPtr,
    LLVMVector,
    MaskC,
    PositionC,
    camel_name,
    parse_fastmath_directive,
    parse_index_list,
    print_fastmath_directive,
    print_index_list,
)
from mlc.dialects.llvm_types import LLVMArrayType, LLVMStructType, is_compatible_type

from mlc.interfaces import READ, WRITE, EffectInstance, MemoryEffectsOpInterface
from mlc.ir import attributes as A
from mlc.ir.core import Operation
from mlc.ir.opdef import (
    Constraint,
    InferTypeOpInterface,
    IntegerAttrC,
    Op,
    OperationState,
    Pure,
    SameOperandsAndResultType,
    SameTypeOperands,
    operand,
    prop,
    result,
)


def _q(t: A.Type) -> str:
    return f"'{t}'"


# ---------------------------------------------------------------------------------------------
# Vector and aggregate element access


class ExtractElementOp(Op, InferTypeOpInterface):
    """Extract one element of a vector at a dynamic integer position.

    The result type is the vector's element type; the position is any integer type.

        %1 = llvm.extractelement %v[%i : i32] : vector<4xf32>
    """

    name = "llvm.extractelement"
    traits = (Pure,)
    vector = operand(LLVMVector)
    position = operand(LLVMInt)
    res = result(LLVMAnyType)
    llvm_opcode = "extractelement"

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        return [operand_types[0].element_type]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        vector = parser.parse_operand()
        parser.parse_punct("[")
        position = parser.parse_operand()
        parser.parse_punct(":")
        pt = parser.parse_type()
        parser.parse_punct("]")
        parser.parse_optional_attr_dict(state.attributes)
        parser.parse_punct(":")
        vt = _parse_vector_type(parser)
        state.operands = [parser.resolve_operand(vector, vt), parser.resolve_operand(position, pt)]
        state.result_types = [vt.element_type]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.vector)
        p.write("[")
        p.print_operand(self.position)
        p.write(" : ")
        p.print_type(self.position.type)
        p.write("]")
        p.print_op_attrs(self)
        p.write(" : ")
        p.print_type(self.vector.type)

    def verify_op(self) -> None:
        if self.res.type is not self.vector.type.element_type:
            raise self.error("failed to verify that result type matches vector element type")


class InsertElementOp(Op, InferTypeOpInterface):
    """Insert a value into a vector at a dynamic integer position.

    The value has the vector's element type; the result has the vector's type.

        %1 = llvm.insertelement %x, %v[%i : i32] : vector<4xf32>
    """

    name = "llvm.insertelement"
    traits = (Pure,)
    vector = operand(LLVMVector)
    value = operand(LLVMAnyType)
    position = operand(LLVMInt)
    res = result(LLVMVector)
    llvm_opcode = "insertelement"

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        return [operand_types[0]]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        value = parser.parse_operand()
        parser.parse_punct(",")
        vector = parser.parse_operand()
        parser.parse_punct("[")
        position = parser.parse_operand()
        parser.parse_punct(":")
        pt = parser.parse_type()
        parser.parse_punct("]")
        parser.parse_optional_attr_dict(state.attributes)
        parser.parse_punct(":")
        vt = _parse_vector_type(parser)
        state.operands = [
            parser.resolve_operand(vector, vt),
            parser.resolve_operand(value, vt.element_type),
            parser.resolve_operand(position, pt),
        ]
        state.result_types = [vt]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.value)
        p.write(", ")
        p.print_operand(self.vector)
        p.write("[")
        p.print_operand(self.position)
        p.write(" : ")
        p.print_type(self.position.type)
        p.write("]")
        p.print_op_attrs(self)
        p.write(" : ")
        p.print_type(self.vector.type)

    def verify_op(self) -> None:
        vt = self.vector.type
        if self.res.type is not vt:
            raise self.error("failed to verify that result has the vector's type")
        if self.value.type is not vt.element_type:
            raise self.error("failed to verify that argument type matches vector element type")


class ShuffleVectorOp(Op, InferTypeOpInterface):
    """Build a vector from elements of two vectors picked by a constant mask (-1: poison).

    The mask indexes the concatenation of the two (1-D) operands; the result is a
    vector of the operands' element type with one element per mask entry.

        %2 = llvm.shufflevector %0, %1 [0, 1, 4, 5] : vector<4xf32>
    """

    name = "llvm.shufflevector"
    traits = (Pure, SameTypeOperands)
    v1 = operand(LLVMVector)
    v2 = operand(LLVMVector)
    mask = prop(MaskC)
    res = result(LLVMVector)
    llvm_opcode = "shufflevector"

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        v1 = parser.parse_operand()
        parser.parse_punct(",")
        v2 = parser.parse_operand()
        mask = parse_index_list(parser, A.i32)
        state.attributes["mask"] = mask
        parser.parse_optional_attr_dict(state.attributes)
        parser.parse_punct(":")
        vt = _parse_vector_type(parser)
        state.operands = [parser.resolve_operand(v1, vt), parser.resolve_operand(v2, vt)]
        state.result_types = cls.infer_result_types([vt], state.attributes)

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.v1)
        p.write(", ")
        p.print_operand(self.v2)
        p.write(" ")
        print_index_list(p, self.mask)
        p.print_op_attrs(self, elided=("mask",))
        p.write(" : ")
        p.print_type(self.v1.type)

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        t = operand_types[0]
        return [A.VectorType([len(attributes["mask"].values)], t.element_type, [t.scalable[0]])]

    def verify_op(self) -> None:
        t = self.v1.type
        if t.rank != 1:
            raise self.error(f"expected a 1-D vector operand, got {_q(t)}")
        mask = self.mask.values
        n = 2 * t.shape[0]
        for m in mask:
            if m != -1 and not 0 <= m < n:
                raise self.error(
                    f"mask index {m} is out of range for two vectors of {t.shape[0]} elements"
                )
        want = self.infer_result_types([t], {"mask": self.mask})[0]
        if self.res.type is not want:
            raise self.error(f"expected result type {_q(want)}")


def _position_type(op: Op, t: A.Type, position: Sequence[int]) -> A.Type:
    """The type at `position` inside aggregate `t`, or an error on the op."""
    for i in position:
        if type(t) is LLVMArrayType:
            if not 0 <= i < t.num_elements:
                raise op.error(f"position out of bounds: {i}")
            t = t.element_type
        elif type(t) is LLVMStructType:
            if not 0 <= i < len(t.body):
                raise op.error(f"position out of bounds: {i}")
            t = t.body[i]
        else:
            raise op.error(f"expected LLVM IR structure/array type, got: {_q(t)}")
    return t


class _AggregateOp(Op):
    """Shared checks of extractvalue/insertvalue."""

    def _element_type(self, container: A.Type) -> A.Type:
        pos = self.position.values  # type: ignore[attr-defined]
        if not pos:
            raise self.error("expected a non-empty position")
        return _position_type(self, container, pos)


def _parse_vector_type(parser: Any) -> A.VectorType:
    """The `: vector<...>` type of a vector op's custom form (anything else is an error)."""
    pos = parser.pos()
    vt = parser.parse_type()
    if type(vt) is not A.VectorType or not is_compatible_type(vt):
        raise parser.error(f"expected LLVM dialect-compatible vector type, got {_q(vt)}", pos)
    return vt  # type: ignore[no-any-return]


def _position_error(t: A.Type, position: Sequence[int]) -> str:
    """Why `position` does not address an element of aggregate `t`."""
    for i in position:
        if type(t) is LLVMArrayType:
            if not 0 <= i < t.num_elements:
                return f"position out of bounds: {i}"
            t = t.element_type
        elif type(t) is LLVMStructType:
            if not 0 <= i < len(t.body):
                return f"position out of bounds: {i}"
            t = t.body[i]
        else:
            return f"expected LLVM IR structure/array type, got: {_q(t)}"
    return "expected a non-empty position"


def _infer_position(t: A.Type, position: Sequence[int]) -> A.Type | None:
    for i in position:
        if type(t) is LLVMArrayType and 0 <= i < t.num_elements:
            t = t.element_type
        elif type(t) is LLVMStructType and 0 <= i < len(t.body):
            t = t.body[i]
        else:
            return None
    return t


class ExtractValueOp(_AggregateOp, InferTypeOpInterface):
    """Extract a value from a struct or array at a constant position path.

    Each position entry indexes one level of nested structs and arrays; the result type
    is the member's type.

        %1 = llvm.extractvalue %s[0, 1] : !llvm.struct<(array<2 x f32>, i32)>
    """

    name = "llvm.extractvalue"
    traits = (Pure,)
    container = operand(LLVMAggregate)
    position = prop(PositionC)
    res = result(LLVMAnyType)
    llvm_opcode = "extractvalue"

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        t = _infer_position(operand_types[0], attributes["position"].values)
        if t is None:
            raise ValueError(_position_error(operand_types[0], attributes["position"].values))
        return [t]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        container = parser.parse_operand()
        pos_attr = parse_index_list(parser, A.i64)
        state.attributes["position"] = pos_attr
        parser.parse_optional_attr_dict(state.attributes)
        parser.parse_punct(":")
        pos = parser.pos()
        ct = parser.parse_type()
        t = _infer_position(ct, pos_attr.values) if pos_attr.values else None  # type: ignore[attr-defined]
        if t is None:
            raise parser.error(_position_error(ct, pos_attr.values), pos)  # type: ignore[attr-defined]
        state.operands = [parser.resolve_operand(container, ct)]
        state.result_types = [t]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.container)
        print_index_list(p, self.position)
        p.print_op_attrs(self, elided=("position",))
        p.write(" : ")
        p.print_type(self.container.type)

    def verify_op(self) -> None:
        t = self._element_type(self.container.type)
        if self.res.type is not t:
            raise self.error(
                f"Type mismatch: extracting from {_q(self.container.type)} should produce "
                f"{_q(t)} but this op returns {_q(self.res.type)}"
            )


class InsertValueOp(_AggregateOp, InferTypeOpInterface):
    """Insert a value into a struct or array at a constant position path.

    The value must have the type of the member at the position; the result has the
    container's type.

        %1 = llvm.insertvalue %x, %s[1] : !llvm.struct<(i32, f32)>
    """

    name = "llvm.insertvalue"
    traits = (Pure,)
    container = operand(LLVMAggregate)
    value = operand(LLVMAnyType)
    position = prop(PositionC)
    res = result(LLVMAggregate)
    llvm_opcode = "insertvalue"

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        return [operand_types[0]]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        value = parser.parse_operand()
        parser.parse_punct(",")
        container = parser.parse_operand()
        pos_attr = parse_index_list(parser, A.i64)
        state.attributes["position"] = pos_attr
        parser.parse_optional_attr_dict(state.attributes)
        parser.parse_punct(":")
        pos = parser.pos()
        ct = parser.parse_type()
        vt = _infer_position(ct, pos_attr.values) if pos_attr.values else None  # type: ignore[attr-defined]
        if vt is None:
            raise parser.error(_position_error(ct, pos_attr.values), pos)  # type: ignore[attr-defined]
        state.operands = [parser.resolve_operand(container, ct), parser.resolve_operand(value, vt)]
        state.result_types = [ct]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.value)
        p.write(", ")
        p.print_operand(self.container)
        print_index_list(p, self.position)
        p.print_op_attrs(self, elided=("position",))
        p.write(" : ")
        p.print_type(self.container.type)

    def verify_op(self) -> None:
        t = self._element_type(self.container.type)
        if self.value.type is not t:
            raise self.error(
                f"Type mismatch: cannot insert {_q(self.value.type)} into {_q(self.container.type)}"
            )
        if self.res.type is not self.container.type:
            raise self.error("failed to verify that the result has the container's type")


# ---------------------------------------------------------------------------------------------
# Intrinsics


class _FloatIntrinsicOp(Op, InferTypeOpInterface):
    """Base of the float intrinsics: operands and result of one float(-vector) type."""

    traits = (Pure, SameOperandsAndResultType)
    res = result(LLVMFloatLike)
    fastmathFlags = prop(FastmathC, default=FASTMATH_NONE)  # noqa: N815
    format = (
        "`(` operands `)` `` custom<Fastmath>($fastmathFlags) attr-dict "
        "`:` functional-type(operands, results)"
    )
    llvm_opcode = ""
    print_Fastmath = print_fastmath_directive
    parse_Fastmath = classmethod(parse_fastmath_directive)

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        return [operand_types[0]]


def _intrinsic(mnemonic: str, arity: int, summary: str) -> type:
    ops = ["%a", "%b", "%c"][:arity]
    types = ", ".join(["f32"] * arity)
    ns: dict[str, Any] = {
        "__doc__": f"{summary}\n\n    Calls LLVM's `llvm.{mnemonic}` intrinsic (overloaded on the "
        "float or vector type).\n\n"
        f"        %r = llvm.intr.{mnemonic}({', '.join(ops)}) : ({types}) -> f32\n",
        "name": f"llvm.intr.{mnemonic}",
        "llvm_opcode": f"llvm.{mnemonic}",
        "format": _FloatIntrinsicOp.format,
        "__module__": __name__,
    }
    for name in ("a", "b", "c")[:arity]:
        ns[name] = operand(LLVMFloatLike)
    return type(camel_name(mnemonic) + "Op", (_FloatIntrinsicOp,), ns)


FMAOp = _intrinsic("fma", 3, "Fused multiply-add: a * b + c with a single rounding.")
ExpOp = _intrinsic("exp", 1, "Base-e exponential.")
LogOp = _intrinsic("log", 1, "Natural logarithm.")
SqrtOp = _intrinsic("sqrt", 1, "Square root.")
FAbsOp = _intrinsic("fabs", 1, "Absolute value.")
MaxNumOp = _intrinsic("maxnum", 2, "Maximum of two floats (NaN-ignoring, IEEE maxNum).")
MinNumOp = _intrinsic("minnum", 2, "Minimum of two floats (NaN-ignoring, IEEE minNum).")
PowOp = _intrinsic("pow", 2, "a raised to the power b.")


class LdexpOp(Op, InferTypeOpInterface):
    """x * 2^k with one rounding (overflow to inf, subnormal results exact).

    Calls LLVM's `llvm.ldexp` intrinsic (overloaded on both types); `k` is an integer or a
    vector of integers with as many lanes as `x`. With AVX-512 it is one `vscalefps` per
    vector; elsewhere LLVM calls libm's `ldexpf` per element. Unlike MLIR's op, whose
    exponent is a scalar, `k` may be a vector (LLVM's intrinsic takes both).

        %r = llvm.intr.ldexp(%x, %k) : (vector<16xf32>, vector<16xi32>) -> vector<16xf32>
    """

    name = "llvm.intr.ldexp"
    traits = (Pure,)
    x = operand(LLVMFloatLike)
    k = operand(LLVMIntLike)
    res = result(LLVMFloatLike)
    fastmathFlags = prop(FastmathC, default=FASTMATH_NONE)  # noqa: N815
    format = _FloatIntrinsicOp.format
    llvm_opcode = "llvm.ldexp"
    print_Fastmath = print_fastmath_directive
    parse_Fastmath = classmethod(parse_fastmath_directive)

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        return [operand_types[0]]

    def verify_op(self) -> None:
        xt, kt = self.x.type, self.k.type
        xv, kv = type(xt) is A.VectorType, type(kt) is A.VectorType
        if xv != kv or (xv and xt.shape != kt.shape):  # type: ignore[attr-defined]
            raise self.error(f"expected the exponent {_q(kt)} to have the shape of {_q(xt)}")
        if self.res.type is not xt:
            raise self.error("failed to verify that the result has the type of x")


class PrefetchOp(Op):
    """Prefetch the cache line at `addr` (a hint: no effect on the results, never a fault).

    `rw` 0 read / 1 write, `hint` the temporal locality 0..3 (3: keep in every cache level),
    `cache` 0 instruction / 1 data, as LLVM's `llvm.prefetch`. No custom syntax (as in MLIR).

        "llvm.intr.prefetch"(%p) <{cache = 1 : i32, hint = 3 : i32, rw = 0 : i32}> : (!llvm.ptr) -> ()
    """  # noqa: E501

    name = "llvm.intr.prefetch"
    addr = operand(LLVMPtr)
    rw = prop(IntegerAttrC)
    hint = prop(IntegerAttrC)
    cache = prop(IntegerAttrC)

    def verify_op(self) -> None:
        for name, top in (("rw", 1), ("hint", 3), ("cache", 1)):
            a = self.get_attr(name)
            if a.type is not A.i32 or not 0 <= a.value <= top:  # type: ignore[union-attr]
                raise self.error(f"'{name}' must be an i32 within 0 to {top}")


class _MemIntrinsicOp(Op, MemoryEffectsOpInterface):
    """Base of memcpy/memset: a destination pointer, a source, a length, `isVolatile`."""

    dst = operand(LLVMPtr)
    len = operand(LLVMInt)
    isVolatile = prop(
        Constraint(
            lambda a: type(a) is A.IntegerAttr and a.type is A.i1,
            "1-bit signless integer attribute",
        )
    )  # noqa: N815

    def verify_op(self) -> None:
        if self.len.type.width not in (32, 64):
            raise self.error(f"expected the length to be i32 or i64, got {_q(self.len.type)}")


class MemcpyOp(_MemIntrinsicOp):
    """Copy `len` bytes between non-overlapping memory (LLVM's `llvm.memcpy`).

    MLIR gives it no custom syntax; it prints in generic form.

        "llvm.intr.memcpy"(%dst, %src, %n) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
    """  # noqa: E501

    name = "llvm.intr.memcpy"
    dst = operand(LLVMPtr)
    src = operand(LLVMPtr)
    len = operand(LLVMInt)
    llvm_opcode = "llvm.memcpy"

    def get_effects(self) -> list[EffectInstance]:
        return [EffectInstance(WRITE, self.dst), EffectInstance(READ, self.src)]


class MemsetOp(_MemIntrinsicOp):
    """Fill `len` bytes of memory with an i8 value (LLVM's `llvm.memset`).

    MLIR gives it no custom syntax; it prints in generic form.

        "llvm.intr.memset"(%dst, %v, %n) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
    """

    name = "llvm.intr.memset"
    dst = operand(LLVMPtr)
    val = operand(Constraint(lambda t: t is A.i8, "8-bit signless integer"))
    len = operand(LLVMInt)
    llvm_opcode = "llvm.memset"

    def get_effects(self) -> list[EffectInstance]:
        return [EffectInstance(WRITE, self.dst)]


ELEMENT_OPS: list[type[Operation]] = [
    ExtractElementOp, InsertElementOp, ShuffleVectorOp, ExtractValueOp, InsertValueOp,
    FMAOp, ExpOp, LogOp, SqrtOp, FAbsOp, MaxNumOp, MinNumOp, PowOp, LdexpOp, PrefetchOp,
    MemcpyOp, MemsetOp,
]  # fmt: skip
