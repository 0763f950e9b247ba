"""Memory ops of the `llvm` dialect: `llvm.alloca`, `llvm.load`, `llvm.store` and
`llvm.getelementptr`, with MLIR's properties (alignment, volatility, atomic ordering, no-wrap
flags) and custom syntax.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mlc.dialects.llvm_ops_arith import LLVMAnyType, LLVMInt, LLVMIntLike, LLVMPtr, LLVMPtrLike
from mlc.dialects.llvm_types import (
    LLVMArrayType,
    LLVMFunctionType,
    LLVMPointerType,
    LLVMStructType,
    is_compatible_type,
    is_valid_element_type,
)

from mlc.interfaces import ALLOCATE, READ, WRITE, EffectInstance, MemoryEffectsOpInterface
from mlc.ir import attributes as A
from mlc.ir.core import Operation, Value
from mlc.ir.opdef import (
    Constraint,
    DenseI32ArrayAttr,
    Op,
    OperationState,
    Pure,
    StrAttr,
    UnitAttrC,
    int_attr_of,
    operand,
    opt_prop,
    prop,
    result,
    var_operand,
)

_EMPTY: dict[str, A.Attribute] = {}
I32Attr = int_attr_of(A.i32)
I64Attr = int_attr_of(A.i64)
ZERO_I64 = A.IntegerAttr(0, A.i64)
ZERO_I32 = A.IntegerAttr(0, A.i32)
TypeAttrC = Constraint(
    lambda a: type(a) is A.TypeAttr and is_compatible_type(a.value), "LLVM type attribute"
)


def _q(t: Any) -> str:
    return f"'{t}'"


def _parse_enum_keyword(parser: Any, names: Sequence[str]) -> int | None:
    kw = parser.parse_optional_keyword_in([n for n in names if n])
    return None if kw is None else list(names).index(kw)


ORDERINGS = (
    "not_atomic", "unordered", "monotonic", "", "acquire", "release", "acq_rel", "seq_cst",
)  # fmt: skip
GEP_INBOUNDS, GEP_NUSW, GEP_NUW = 1, 2, 4
GEP_DYNAMIC_INDEX = -(2**31)  # rawConstantIndices sentinel: the index is the next dynamic operand


class AllocaOp(Op, MemoryEffectsOpInterface):
    """Stack allocation of `arraySize` elements of `elem_type`; yields a pointer.

    The element type is a property (`elem_type`); `alignment` and `inalloca` map to
    LLVM IR's; the memory lives until the function returns.

        %0 = llvm.alloca %n x f32 {alignment = 16 : i64} : (i64) -> !llvm.ptr
    """

    name = "llvm.alloca"
    arraySize = operand(LLVMInt)  # noqa: N815
    alignment = opt_prop(I64Attr)
    elem_type = prop(TypeAttrC)
    inalloca = opt_prop(UnitAttrC)
    res = result(LLVMPtr)
    format = "(`inalloca` $inalloca^)? $arraySize `x` $elem_type attr-dict `:` functional-type($arraySize, results)"  # noqa: E501
    llvm_opcode = "alloca"

    def get_effects(self) -> list[EffectInstance]:
        return [EffectInstance(ALLOCATE, self.res, "AutomaticAllocationScope")]

    def verify_op(self) -> None:
        t = self.get_attr("elem_type").value  # type: ignore[union-attr]
        if not is_valid_element_type(t):
            raise self.error(f"expected a sized element type, got {_q(t)}")


def _parse_memory_tail(parser: Any, attrs: dict[str, A.Attribute], is_load: bool) -> None:
    """`[atomic [syncscope("s")] ordering] [invariant] [invariant_group] [<alignment = N,
    nontemporal>]` after the operands of a load/store."""
    if parser.parse_optional_keyword("atomic"):
        if parser.parse_optional_keyword("syncscope"):
            parser.parse_punct("(")
            attrs["syncscope"] = A.StringAttr(parser.parse_string())
            parser.parse_punct(")")
        o = _parse_enum_keyword(parser, ORDERINGS)
        if o is None:
            raise parser.error("expected an atomic ordering keyword")
        attrs["ordering"] = A.IntegerAttr(o, A.i64)
    if is_load and parser.parse_optional_keyword("invariant"):
        attrs["invariant"] = A.UnitAttr()
    if parser.parse_optional_keyword("invariant_group"):
        attrs["invariantGroup"] = A.UnitAttr()
    if parser.parse_optional_punct("<"):
        while True:
            pos = parser.pos()
            key = parser.parse_keyword()
            if key == "alignment":
                parser.parse_punct("=")
                attrs["alignment"] = A.IntegerAttr(parser.parse_integer(), A.i64)
            elif key == "nontemporal":
                attrs["nontemporal"] = A.UnitAttr()
            else:
                raise parser.error(f"not supported: '{key}' in llvm memory access properties", pos)
            if not parser.parse_optional_punct(","):
                break
        parser.parse_punct(">")
    parser.parse_optional_attr_dict(attrs)


def _print_memory_tail(p: Any, op: Operation, is_load: bool) -> None:
    attrs = op._attrs or _EMPTY
    o = attrs.get("ordering")
    if o is not None and o.value:  # type: ignore[attr-defined]
        p.write(" atomic")
        s = attrs.get("syncscope")
        if s is not None:
            p.write(" syncscope(")
            p.print_string(s.value)  # type: ignore[attr-defined]
            p.write(")")
        p.write(" " + ORDERINGS[o.value])  # type: ignore[attr-defined]
    if is_load and "invariant" in attrs:
        p.write(" invariant")
    if "invariantGroup" in attrs:
        p.write(" invariant_group")
    inner = []
    if "alignment" in attrs:
        inner.append(f"alignment = {attrs['alignment'].value}")  # type: ignore[attr-defined]
    if "nontemporal" in attrs:
        inner.append("nontemporal")
    if inner:
        p.write(" <" + ", ".join(inner) + ">")
    p.print_attr_dict(op.attributes, elided=_MEMORY_ELIDED)


_MEMORY_ELIDED = frozenset(
    (
        "volatile_",
        "ordering",
        "syncscope",
        "invariant",
        "invariantGroup",
        "alignment",
        "nontemporal",
    )
)


class _MemoryAccessOp(Op, MemoryEffectsOpInterface):
    """Shared properties and checks of load/store."""

    alignment = opt_prop(I64Attr)
    volatile_ = opt_prop(UnitAttrC)
    nontemporal = opt_prop(UnitAttrC)
    invariantGroup = opt_prop(UnitAttrC)  # noqa: N815
    ordering = prop(I64Attr, default=ZERO_I64)
    syncscope = opt_prop(StrAttr)
    _bad_orderings: tuple[str, ...] = ()

    def _verify_access(self, t: A.Type) -> None:
        if not is_valid_element_type(t) or type(t) is LLVMFunctionType:
            raise self.error(f"type must be LLVM type with size, but got {_q(t)}")
        attrs = self._attrs or _EMPTY
        o = attrs.get("ordering", ZERO_I64).value  # type: ignore[attr-defined]
        if not 0 <= o < len(ORDERINGS) or not ORDERINGS[o]:
            raise self.error(f"invalid atomic ordering {o}")
        if o == 0:
            if "syncscope" in attrs:
                raise self.error("expected syncscope to be null for non-atomic access")
            return
        if ORDERINGS[o] in self._bad_orderings:
            raise self.error(f"unsupported ordering '{ORDERINGS[o]}'")
        if "alignment" not in attrs:
            raise self.error("expected alignment for atomic access")


class LoadOp(_MemoryAccessOp):
    """Load a value of the result type from a pointer.

    Optional alignment, volatility, nontemporal hint and atomic ordering map to LLVM's.

        %0 = llvm.load %p <alignment = 4> : !llvm.ptr -> f32
        %1 = llvm.load volatile %p atomic monotonic <alignment = 8> : !llvm.ptr -> i64
    """

    name = "llvm.load"
    addr = operand(LLVMPtr)
    invariant = opt_prop(UnitAttrC)
    res = result(LLVMAnyType)
    llvm_opcode = "load"
    _bad_orderings = ("release", "acq_rel")

    def get_effects(self) -> list[EffectInstance]:
        return [EffectInstance(READ, self.addr)]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        attrs = state.attributes
        if parser.parse_optional_keyword("volatile"):
            attrs["volatile_"] = A.UnitAttr()
        addr = parser.parse_operand()
        _parse_memory_tail(parser, attrs, True)
        parser.parse_punct(":")
        pos = parser.pos()
        pt = parser.parse_type()
        if type(pt) is not LLVMPointerType:
            raise parser.error(f"expected LLVM pointer type, got {_q(pt)}", pos)
        parser.parse_punct("->")
        state.result_types = [parser.parse_type()]
        state.operands = [parser.resolve_operand(addr, pt)]

    def print_asm(self, p: Any) -> None:
        attrs = self._attrs or _EMPTY
        p.write(" volatile " if "volatile_" in attrs else " ")
        p.print_operand(self.addr)
        _print_memory_tail(p, self, True)
        p.write(" : ")
        p.print_type(self.addr.type)
        p.write(" -> ")
        p.print_type(self.res.type)

    def verify_op(self) -> None:
        self._verify_access(self.res.type)


class StoreOp(_MemoryAccessOp):
    """Store a value to a pointer.

    Optional alignment, volatility, nontemporal hint and atomic ordering map to LLVM's.

        llvm.store %v, %p <alignment = 4> : f32, !llvm.ptr
    """

    name = "llvm.store"
    value = operand(LLVMAnyType)
    addr = operand(LLVMPtr)
    llvm_opcode = "store"
    _bad_orderings = ("acquire", "acq_rel")

    def get_effects(self) -> list[EffectInstance]:
        return [EffectInstance(WRITE, self.addr)]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        attrs = state.attributes
        if parser.parse_optional_keyword("volatile"):
            attrs["volatile_"] = A.UnitAttr()
        value = parser.parse_operand()
        parser.parse_punct(",")
        addr = parser.parse_operand()
        _parse_memory_tail(parser, attrs, False)
        parser.parse_punct(":")
        vt = parser.parse_type()
        parser.parse_punct(",")
        pos = parser.pos()
        pt = parser.parse_type()
        if type(pt) is not LLVMPointerType:
            raise parser.error(f"expected LLVM pointer type, got {_q(pt)}", pos)
        state.operands = [parser.resolve_operand(value, vt), parser.resolve_operand(addr, pt)]

    def print_asm(self, p: Any) -> None:
        attrs = self._attrs or _EMPTY
        p.write(" volatile " if "volatile_" in attrs else " ")
        p.print_operand(self.value)
        p.write(", ")
        p.print_operand(self.addr)
        _print_memory_tail(p, self, False)
        p.write(" : ")
        p.print_type(self.value.type)
        p.write(", ")
        p.print_type(self.addr.type)

    def verify_op(self) -> None:
        self._verify_access(self.value.type)


def gep_flag_names(flags: int) -> list[str]:
    """The LLVM IR keywords of a getelementptr `noWrapFlags` value (`inbounds`, `nusw`, `nuw`)."""
    names = []
    if flags & (GEP_INBOUNDS | GEP_NUSW) == GEP_INBOUNDS | GEP_NUSW:
        names.append("inbounds")
    elif flags & GEP_NUSW:
        names.append("nusw")
    if flags & GEP_NUW:
        names.append("nuw")
    return names


_GEP_FLAG_BITS = {"inbounds": GEP_INBOUNDS | GEP_NUSW, "nusw": GEP_NUSW, "nuw": GEP_NUW}


class GEPOp(Op):
    """Address arithmetic: a pointer plus indices into `elem_type` (constant or dynamic).

    Constant indices are stored in `rawConstantIndices`, with INT32_MIN marking the place
    of each dynamic index operand; struct fields must be indexed by constants in range.

        %1 = llvm.getelementptr inbounds %p[%i, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(f32, i32)>
    """  # noqa: E501

    name = "llvm.getelementptr"
    traits = (Pure,)
    base = operand(LLVMPtrLike)
    dynamicIndices = var_operand(LLVMIntLike)  # noqa: N815
    rawConstantIndices = prop(DenseI32ArrayAttr)  # noqa: N815
    elem_type = prop(TypeAttrC)
    noWrapFlags = prop(I32Attr, default=ZERO_I32)  # noqa: N815
    res = result(LLVMPtrLike)
    llvm_opcode = "getelementptr"

    @property
    def indices(self) -> list[int | Value]:
        """The indices in order: ints for constants, Values for dynamic ones."""
        dyn = iter(self.operands[1:])
        return [next(dyn) if i == GEP_DYNAMIC_INDEX else i for i in self.rawConstantIndices.values]  # type: ignore[attr-defined]  # noqa: E501

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        attrs = state.attributes
        flags = 0
        while True:
            kw = parser.parse_optional_keyword_in(_GEP_FLAG_BITS)
            if kw is None:
                break
            flags |= _GEP_FLAG_BITS[kw]
            if not parser.parse_optional_punct("|"):
                break
        if flags:
            attrs["noWrapFlags"] = A.IntegerAttr(flags, A.i32)
        base = parser.parse_operand()
        raw: list[int] = []
        dyn: list[Any] = []

        def one() -> None:
            u = parser.parse_optional_operand()
            if u is not None:
                dyn.append(u)
                raw.append(GEP_DYNAMIC_INDEX)
            else:
                pos = parser.pos()
                i = parser.parse_integer()
                if not -(2**31) < i < 2**31:
                    raise parser.error("constant index out of the i32 range", pos)
                raw.append(i)

        parser.parse_comma_separated_list("square", one)
        attrs["rawConstantIndices"] = A.DenseArrayAttr(A.i32, raw)
        parser.parse_optional_attr_dict(attrs)
        parser.parse_punct(":")
        pos = parser.pos()
        ft = parser.parse_type()
        if type(ft) is not A.FunctionType or len(ft.results) != 1 or not ft.inputs:
            raise parser.error("expected a function type (base, indices...) -> result", pos)
        parser.parse_punct(",")
        attrs["elem_type"] = A.TypeAttr(parser.parse_type())
        if len(ft.inputs) != 1 + len(dyn):
            raise parser.error(
                f"{len(dyn)} dynamic indices but {len(ft.inputs) - 1} index types", pos
            )
        state.operands = [
            parser.resolve_operand(base, ft.inputs[0]),
            *parser.resolve_operands(dyn, ft.inputs[1:], pos),
        ]
        state.result_types = [ft.results[0]]

    def print_asm(self, p: Any) -> None:
        attrs = self._attrs or _EMPTY
        flags = attrs.get("noWrapFlags", ZERO_I32).value  # type: ignore[attr-defined]
        if flags:
            p.write(" " + "|".join(gep_flag_names(flags)))
        p.write(" ")
        p.print_operand(self.base)
        p.write("[")
        names = []
        dyn = iter(self.operands[1:])
        for i in attrs["rawConstantIndices"].values:  # type: ignore[attr-defined]
            if i == GEP_DYNAMIC_INDEX:
                names.append(p._names[next(dyn)])
            else:
                names.append(str(i))
        p.write(", ".join(names) + "]")
        p.print_attr_dict(
            self.attributes, elided=("rawConstantIndices", "elem_type", "noWrapFlags")
        )
        p.write(" : ")
        p.print_function_type(A.FunctionType([v.type for v in self.operands], [self.res.type]))
        p.write(", ")
        p.print_type(attrs["elem_type"].value)  # type: ignore[attr-defined]

    def verify_op(self) -> None:
        raw = self.rawConstantIndices.values  # type: ignore[attr-defined]
        n_dyn = sum(1 for i in raw if i == GEP_DYNAMIC_INDEX)
        if n_dyn != len(self.operands) - 1:
            raise self.error(
                "expected as many dynamic indices as specified in 'rawConstantIndices'"
            )
        if not raw:
            raise self.error("expected at least one index")
        if self.res.type is not _gep_result_type(self.base.type, self.operands[1:]):
            raise self.error(f"result type {_q(self.res.type)} does not match the base and indices")
        t = self.get_attr("elem_type").value  # type: ignore[union-attr]
        indices = self.indices
        for k, idx in enumerate(indices[1:], start=1):
            if type(t) is LLVMStructType:
                if not isinstance(idx, int):
                    raise self.error(f"expected index {k} indexing a struct to be constant")
                if not 0 <= idx < len(t.body):
                    raise self.error(f"index {k} indexing a struct is out of bounds")
                t = t.body[idx]
            elif type(t) in (LLVMArrayType, A.VectorType):
                t = t.element_type  # type: ignore[attr-defined]
            else:
                raise self.error(f"type {_q(t)} cannot be indexed (index #{k})")


def _gep_result_type(base: A.Type, dyn: Sequence[Value]) -> A.Type:
    """Pointer, or vector of pointers when the base or any index is a vector."""
    if type(base) is A.VectorType:
        return base
    for v in dyn:
        if type(v.type) is A.VectorType:
            return A.VectorType(v.type.shape, base)
    return base


MEMORY_OPS: list[type[Operation]] = [AllocaOp, LoadOp, StoreOp, GEPOp]
