"""The `memref` dialect: buffers (allocation, access, views, globals) at the affine/loop level,
with MLIR's names, properties (generic form), verifiers and custom syntax.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mlc.dialects.index_lists import (
    DYNAMIC_INDEX,
    parse_dynamic_index_list,
    print_dynamic_index_list,
)

from mlc.diagnostics import Diagnostic, VerifyError
from mlc.interfaces import (
    ALLOCATE,
    FREE,
    READ,
    WRITE,
    ConditionallySpeculatable,
    EffectInstance,
    MemoryEffectsOpInterface,
    NoMemoryEffect,
)
from mlc.ir import attributes as A
from mlc.ir.context import Dialect
from mlc.ir.core import Operation, Value
from mlc.ir.opdef import (
    AnyMemRef,
    AttrSizedOperandSegments,
    Constraint,
    DenseI64ArrayAttr,
    FlatSymbolRefAttrC,
    Index,
    InferTypeOpInterface,
    Op,
    OperationState,
    Pure,
    StrAttr,
    Symbol,
    SymbolUserOpInterface,
    UnitAttrC,
    operand,
    opt_prop,
    prop,
    result,
    var_operand,
)
from mlc.ir.symbols import lookup_nearest_symbol_from

_EMPTY: dict = {}

# ---------------------------------------------------------------------------------------------
# Constraints


def _ranked_memref(t: Any) -> bool:
    return type(t) is A.MemRefType


def _positive_pow2_i64(a: Any) -> bool:
    return (
        type(a) is A.IntegerAttr
        and a.type is A.i64
        and a.value > 0
        and a.value & (a.value - 1) == 0
    )


def _is_bool(a: Any) -> bool:
    return type(a) is A.IntegerAttr and a.type is A.i1


RankedMemRef = Constraint(_ranked_memref, "memref of any type values")
NonZeroRankedOrUnrankedMemRef = Constraint(
    lambda t: type(t) is A.UnrankedMemRefType or (type(t) is A.MemRefType and t.rank > 0),
    "unranked.memref of any non-token type values or non-0-ranked.memref of any non-token type "
    "values",
)
AlignmentAttr = Constraint(
    _positive_pow2_i64,
    "64-bit signless integer attribute whose value is positive and whose value is a power of "
    "two > 0",
)
BoolAttrC = Constraint(_is_bool, "bool attribute")
MemRefTypeAttr = Constraint(
    lambda a: type(a) is A.TypeAttr and type(a.value) is A.MemRefType, "memref type attribute"
)
AnyAttrC = Constraint(lambda a: isinstance(a, A.Attribute), "any attribute")


# ---------------------------------------------------------------------------------------------
# Public helpers: strides, subview type inference


def strides_and_offset(memref_type: A.MemRefType) -> tuple[tuple[int, ...], int]:
    """Strides and offset of a memref type with an identity or strided layout (A.DYNAMIC for `?`).

    Raises ValueError ("not supported: ...") for other (affine map) layouts.
    """
    return memref_type.strides_and_offset()


def _is_dyn(v: int) -> bool:
    return v == A.DYNAMIC or v == DYNAMIC_INDEX


def _sat_mul(a: int, b: int) -> int:
    """Product where `?` is unknown but 0 * ? = 0 (MLIR's SaturatedInteger)."""
    if a == 0 or b == 0:
        return 0
    return A.DYNAMIC if _is_dyn(a) or _is_dyn(b) else a * b


def _sat_add(a: int, b: int) -> int:
    return A.DYNAMIC if _is_dyn(a) or _is_dyn(b) else a + b


def infer_subview_type(
    source: A.MemRefType, offsets: Sequence[int], sizes: Sequence[int], strides: Sequence[int]
) -> A.MemRefType:
    """The result type of a subview of `source` (MLIR's SubViewOp::inferResultType).

    `offsets`/`sizes`/`strides` are static values, dynamic ones as `A.DYNAMIC` (MLIR's int64
    sentinel is accepted too). The result has the sizes as shape and a strided layout:
    stride_i = source_stride_i * stride_i, offset = source_offset + sum(offset_i * source_stride_i),
    where `?` absorbs every sum and product except a product with 0.
    """
    src_strides, src_offset = strides_and_offset(source)
    offset = src_offset
    for off, st in zip(offsets, src_strides):
        offset = _sat_add(offset, _sat_mul(off, st))
    out_strides = [_sat_mul(st, step) for st, step in zip(src_strides, strides)]
    shape = [A.DYNAMIC if _is_dyn(s) else s for s in sizes]
    layout = A.StridedLayoutAttr(out_strides, offset)
    return A.MemRefType(shape, source.element_type, layout, source.memory_space)


def _rank_reduction_mask(expected: Sequence[int], actual: Sequence[int]) -> list[int] | None:
    """Indices of `expected` kept in `actual` when only unit dims are dropped, matched greedily
    (MLIR's computeRankReductionMask), else None."""
    kept: list[int] = []
    j = 0
    for i, d in enumerate(expected):
        if j < len(actual) and actual[j] == d:
            kept.append(i)
            j += 1
        elif d != 1:
            return None
    return kept if j == len(actual) else None


def _canonical_layout(t: A.MemRefType) -> tuple[tuple[int, ...], int] | None:
    try:
        return t.strides_and_offset()
    except ValueError:
        return None


def _located(op: Operation, message: str) -> VerifyError:
    """An error at the op's location without the "'op' op" prefix (MLIR's emitError(loc))."""
    return VerifyError(Diagnostic("error", message, op.location))


# ---------------------------------------------------------------------------------------------
# Custom syntax helpers: mixed static/dynamic index lists, `name(value)` / `name = value` flags


def parse_access_flags(parser: Any, attrs: dict[str, A.Attribute], style: str) -> None:
    """Optional `alignment`/`nontemporal` flags in any order: `name(v)` (memref.load/store) or
    `name = v` (alloc, global, vector.load/store) style, as MLIR spells them."""
    while True:
        kw = parser.parse_optional_keyword_in(("alignment", "nontemporal"))
        if kw is None:
            return
        if style == "paren":
            parser.parse_punct("(")
        else:
            parser.parse_punct("=")
        if kw == "alignment":
            attrs[kw] = A.IntegerAttr(parser.parse_integer(), A.i64)
        else:
            b = parser.parse_optional_keyword_in(("true", "false"))
            if b is None:
                raise parser.error("expected 'true' or 'false'")
            attrs[kw] = A.BoolAttr(b == "true")
        if style == "paren":
            parser.parse_punct(")")


def print_access_flags(p: Any, attrs: dict[str, A.Attribute], style: str) -> None:
    al = attrs.get("alignment")
    if type(al) is A.IntegerAttr:
        p.write(f" alignment({al.value})" if style == "paren" else f" alignment = {al.value}")
    nt = attrs.get("nontemporal")
    if type(nt) is A.IntegerAttr and nt.value:
        p.write(" nontemporal(true)" if style == "paren" else " nontemporal = true")


def access_flags_shown(attrs: dict[str, A.Attribute]) -> tuple[str, ...]:
    """Flag names printed by print_access_flags (the rest stay in the attribute dictionary)."""
    out = []
    if type(attrs.get("alignment")) is A.IntegerAttr:
        out.append("alignment")
    nt = attrs.get("nontemporal")
    if type(nt) is A.IntegerAttr:
        out.append("nontemporal")  # false is the default: dropped from the custom form, as MLIR
    return tuple(out)


def _parse_memref_type(parser: Any) -> A.Type:
    pos = parser.pos()
    t = parser.parse_type()
    if type(t) is not A.MemRefType and type(t) is not A.UnrankedMemRefType:
        raise parser.error(
            f"invalid kind of type specified: expected builtin.memref, but found '{t}'", pos
        )
    return t


def _result_namer(name: str) -> Callable[[Operation, Callable[[Value, str], None]], None]:
    def get_asm_result_names(self: Operation, set_name: Callable[[Value, str], None]) -> None:
        set_name(self.results[0], name)

    return get_asm_result_names


# ---------------------------------------------------------------------------------------------
# Allocation


class _AllocLikeOp(Op, MemoryEffectsOpInterface):
    """Base of alloc/alloca: dynamic sizes, layout-map symbols and an optional alignment."""

    traits = (AttrSizedOperandSegments,)
    dynamicSizes = var_operand(Index)  # noqa: N815 - MLIR's operand name
    symbolOperands = var_operand(Index)  # noqa: N815
    alignment = opt_prop(AlignmentAttr)
    memref = result(RankedMemRef)

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        sizes = parser.parse_operand_list("paren")
        syms = parser.parse_operand_list("optional_square")
        attrs = state.attributes
        parse_access_flags(parser, attrs, "equals")
        parser.parse_optional_attr_dict(attrs)
        parser.parse_punct(":")
        pos = parser.pos()
        t = parser.parse_type()
        if type(t) is not A.MemRefType:
            raise parser.error(f"expected a ranked memref type, but got '{t}'", pos)
        index = A.index
        state.operands = parser.resolve_operands(
            sizes, [index] * len(sizes)
        ) + parser.resolve_operands(syms, [index] * len(syms))
        attrs["operandSegmentSizes"] = A.DenseArrayAttr(A.i32, [len(sizes), len(syms)])
        state.result_types = [t]

    def print_asm(self, p: Any) -> None:
        p.write("(")
        p.print_operands(self.dynamicSizes)
        p.write(")")
        syms = self.symbolOperands
        if syms:
            p.write("[")
            p.print_operands(syms)
            p.write("]")
        attrs = self._attrs or _EMPTY
        print_access_flags(p, attrs, "equals")
        p.print_attr_dict(attrs, ("operandSegmentSizes", "alignment"))
        p.write(" : ")
        p.print_type(self.memref.type)

    def verify_op(self) -> None:
        t = self.memref.type
        n_dyn = t.num_dynamic_dims()
        n_sizes = len(self.dynamicSizes)
        if n_sizes != n_dyn:
            raise self.error(f"incorrect number of dynamic sizes, has {n_sizes}, expected {n_dyn}")
        layout = t.layout
        n_sym = layout.value.num_symbols if type(layout) is A.AffineMapAttr else 0
        n_ops = len(self.symbolOperands)
        if n_ops != n_sym:
            raise self.error(
                f"symbol operand count does not equal memref symbol count: expected {n_sym}, got {n_ops}"  # noqa: E501
            )

    def get_effects(self) -> list[EffectInstance]:
        return [EffectInstance(ALLOCATE, self.results[0])]


class AllocOp(_AllocLikeOp):
    """Heap allocation of a buffer.

    Allocates memory for a memref type; one `index` operand per dynamic dimension (in order) and,
    for an affine-map layout, one per map symbol. `alignment` (a power of two, in bytes) is
    optional. The buffer lives until a `memref.dealloc`.

        %0 = memref.alloc(%n) alignment = 64 : memref<?x4xf32>
    """

    name = "memref.alloc"
    get_asm_result_names = _result_namer("alloc")


class AllocaOp(_AllocLikeOp):
    """Stack allocation of a buffer, freed when the enclosing scope returns.

    Like `memref.alloc` but the memory belongs to the closest automatic-allocation scope (the
    function), so it needs no dealloc.

        %0 = memref.alloca() : memref<4x4xf32>
    """

    name = "memref.alloca"
    get_asm_result_names = _result_namer("alloca")


class DeallocOp(Op, MemoryEffectsOpInterface):
    """Frees a buffer allocated by `memref.alloc`.

    The memref and every view of it become invalid.

        memref.dealloc %0 : memref<?x4xf32>
    """

    name = "memref.dealloc"
    memref = operand(AnyMemRef)
    format = "$memref attr-dict `:` type($memref)"

    def get_effects(self) -> list[EffectInstance]:
        return [EffectInstance(FREE, self.memref)]


# ---------------------------------------------------------------------------------------------
# Access


class LoadOp(Op, InferTypeOpInterface, MemoryEffectsOpInterface):
    """Reads one element of a memref.

    One `index` per dimension; the result has the memref's element type. Optional
    `nontemporal` (a hint) and `alignment` (bytes) properties.

        %v = memref.load %m[%i, %j] : memref<?x?xf32>
    """

    name = "memref.load"
    memref = operand(AnyMemRef)
    indices = var_operand(Index)
    nontemporal = opt_prop(BoolAttrC)
    alignment = opt_prop(AlignmentAttr)
    res = result()

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        return [operand_types[0].element_type]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        m = parser.parse_operand()
        idx = parser.parse_operand_list("square")
        attrs = state.attributes
        parse_access_flags(parser, attrs, "paren")
        parser.parse_optional_attr_dict(attrs)
        parser.parse_punct(":")
        t = _parse_memref_type(parser)
        state.operands = [
            parser.resolve_operand(m, t),
            *parser.resolve_operands(idx, [A.index] * len(idx)),
        ]
        state.result_types = [t.element_type]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.memref)
        p.write("[")
        p.print_operands(self.indices)
        p.write("]")
        attrs = self._attrs or _EMPTY
        print_access_flags(p, attrs, "paren")
        p.print_attr_dict(attrs, access_flags_shown(attrs))
        p.write(" : ")
        p.print_type(self.memref.type)

    def verify_op(self) -> None:
        uses = self._operands  # memref, then the indices (no segment lookups on this hot path)
        t = uses[0].value.type
        if type(t) is A.MemRefType and len(uses) - 1 != t.rank:
            raise self.error(
                "invalid number of indices for accessed memref, expected "
                f"{t.rank} but got {len(uses) - 1}"
            )
        if self.results[0].type is not t.element_type:
            raise self.error("failed to verify that result type matches element type of 'memref'")

    def get_effects(self) -> list[EffectInstance]:
        return [EffectInstance(READ, self._operands[0].value)]


class StoreOp(Op, MemoryEffectsOpInterface):
    """Writes one element of a memref.

    The value has the memref's element type; one `index` per dimension. Optional `nontemporal`
    and `alignment` properties as for `memref.load`.

        memref.store %v, %m[%i, %j] : memref<?x?xf32>
    """

    name = "memref.store"
    value = operand()
    memref = operand(AnyMemRef)
    indices = var_operand(Index)
    nontemporal = opt_prop(BoolAttrC)
    alignment = opt_prop(AlignmentAttr)

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        v = parser.parse_operand()
        parser.parse_punct(",")
        m = parser.parse_operand()
        idx = parser.parse_operand_list("square")
        attrs = state.attributes
        parse_access_flags(parser, attrs, "paren")
        parser.parse_optional_attr_dict(attrs)
        parser.parse_punct(":")
        t = _parse_memref_type(parser)
        state.operands = [
            parser.resolve_operand(v, t.element_type),
            parser.resolve_operand(m, t),
            *parser.resolve_operands(idx, [A.index] * len(idx)),
        ]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.value)
        p.write(", ")
        p.print_operand(self.memref)
        p.write("[")
        p.print_operands(self.indices)
        p.write("]")
        attrs = self._attrs or _EMPTY
        print_access_flags(p, attrs, "paren")
        p.print_attr_dict(attrs, access_flags_shown(attrs))
        p.write(" : ")
        p.print_type(self.memref.type)

    def verify_op(self) -> None:
        uses = self._operands  # value, memref, then the indices
        t = uses[1].value.type
        if type(t) is A.MemRefType and len(uses) - 2 != t.rank:
            raise self.error(
                "invalid number of indices for accessed memref, expected "
                f"{t.rank} but got {len(uses) - 2}"
            )
        if uses[0].value.type is not t.element_type:
            raise self.error(
                "failed to verify that type of 'value' matches element type of 'memref'"
            )

    def get_effects(self) -> list[EffectInstance]:
        return [EffectInstance(WRITE, self._operands[1].value)]


class CopyOp(Op, MemoryEffectsOpInterface):
    """Copies the contents of one memref into another of the same shape and element type.

    Layouts may differ; the source is read and the target written.

        memref.copy %a, %b : memref<4xf32> to memref<4xf32, strided<[2]>>
    """

    name = "memref.copy"
    source = operand(AnyMemRef)
    target = operand(AnyMemRef)
    format = "$source `,` $target attr-dict `:` type($source) `to` type($target)"

    def verify_op(self) -> None:
        s, t = self.source.type, self.target.type
        if type(s) is A.MemRefType and type(t) is A.MemRefType and s.shape != t.shape:
            raise self.error("requires the same shape for all operands")
        if s.element_type is not t.element_type:
            raise self.error("requires the same element type for all operands")

    def get_effects(self) -> list[EffectInstance]:
        return [EffectInstance(READ, self.source), EffectInstance(WRITE, self.target)]


# ---------------------------------------------------------------------------------------------
# Shape queries and views


class DimOp(Op, InferTypeOpInterface, ConditionallySpeculatable):
    """The size of one dimension of a memref, as an `index`.

    Folds to a constant when the dimension is static and the index a constant.

        %d = memref.dim %m, %c1 : memref<4x?xf32>
    """

    name = "memref.dim"
    traits = (NoMemoryEffect,)
    source = operand(NonZeroRankedOrUnrankedMemRef)
    index = operand(Index)
    res = result(Index)
    format = "attr-dict $source `,` $index `:` type($source)"
    get_asm_result_names = _result_namer("dim")

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        return [A.index]

    def _constant_index(self) -> int | None:
        d = self.index.defining_op()
        if d is None or d.name != "arith.constant":
            return None
        v = d.get_attr("value")
        return v.value if type(v) is A.IntegerAttr else None

    def verify_op(self) -> None:
        # Not an MLIR rule any more (MLIR treats an out-of-range dim as undefined behaviour);
        # a constant index past the rank is always a bug, so mlc reports it.
        t = self.source.type
        i = self._constant_index()
        if i is not None and type(t) is A.MemRefType and not 0 <= i < t.rank:
            raise self.error("index is out of range")

    def is_speculatable(self) -> bool:
        """Only with a constant index within the rank (else undefined behaviour), as MLIR."""
        t = self.source.type
        i = self._constant_index()
        return i is not None and type(t) is A.MemRefType and 0 <= i < t.rank

    def fold(self, operand_attrs: list) -> A.Attribute | Value | None:
        t = self.source.type
        idx = operand_attrs[1]
        if type(t) is not A.MemRefType or type(idx) is not A.IntegerAttr:
            return None
        i = idx.value
        if not 0 <= i < t.rank:
            return None
        if t.shape[i] != A.DYNAMIC:
            return A.IntegerAttr(t.shape[i], A.index)
        # The size operand of the allocation that made the memref.
        alloc = self.source.defining_op()
        if type(alloc) is AllocOp or type(alloc) is AllocaOp:
            return alloc.operand(t.shape[:i].count(A.DYNAMIC))
        return None


def _layouts_compatible(a: A.MemRefType, b: A.MemRefType) -> bool:
    if a.layout is b.layout:
        return True
    la, lb = _canonical_layout(a), _canonical_layout(b)
    if la is None or lb is None:
        return False
    (sa, oa), (sb, ob) = la, lb
    if oa != ob and oa != A.DYNAMIC and ob != A.DYNAMIC:
        return False
    return all(x == y or x == A.DYNAMIC or y == A.DYNAMIC for x, y in zip(sa, sb))


def cast_compatible(a: A.Type, b: A.Type) -> bool:
    """MLIR's memref.cast compatibility (CastOp::areCastCompatible)."""
    ta, tb = type(a), type(b)
    if a.element_type is not b.element_type or a.memory_space is not b.memory_space:  # type: ignore[attr-defined]
        return False
    if ta is A.MemRefType and tb is A.MemRefType:
        if a.rank != b.rank:  # type: ignore[attr-defined]
            return False
        for x, y in zip(a.shape, b.shape):  # type: ignore[attr-defined]
            if x != y and x != A.DYNAMIC and y != A.DYNAMIC:
                return False
        return _layouts_compatible(a, b)  # type: ignore[arg-type]
    return True


class ExtractAlignedPointerAsIndexOp(Op, InferTypeOpInterface):
    """The aligned base pointer of a memref as an `index`.

    The address of element 0 before the offset is added: what a lowering needs to align its
    vector accesses at run time.

        %p = memref.extract_aligned_pointer_as_index %m : memref<4x?xf32> -> index
    """

    name = "memref.extract_aligned_pointer_as_index"
    traits = (Pure,)
    source = operand(AnyMemRef)
    aligned_pointer = result(Index)
    format = "$source attr-dict `:` type($source) `->` type($aligned_pointer)"
    get_asm_result_names = _result_namer("intptr")

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        return [A.index]


class CastOp(Op):
    """Converts a memref to a compatible memref type (static <-> dynamic dims, ranked <-> unranked).

    Shapes, strides and offsets may become more or less static as long as the known values
    agree; element type and memory space stay the same.

        %1 = memref.cast %0 : memref<?x?xf32> to memref<4x?xf32>
    """

    name = "memref.cast"
    traits = (Pure,)
    source = operand(AnyMemRef)
    dest = result(AnyMemRef)
    format = "$source attr-dict `:` type($source) `to` type($dest)"
    get_asm_result_names = _result_namer("cast")

    def verify_op(self) -> None:
        s, d = self.source.type, self.dest.type
        if not cast_compatible(s, d):
            raise self.error(f"operand type '{s}' and result type '{d}' are cast incompatible")

    def fold(self, operand_attrs: list) -> Value | None:
        src = self.source
        if src.type is self.dest.type:
            return src
        inner = src.defining_op()
        if type(inner) is CastOp and inner.source.type is self.dest.type:
            return inner.source  # a cast and its inverse
        return None


# --- offsets/sizes/strides ops (subview, reinterpret_cast)

_OSS = ("offsets", "sizes", "strides")


def _verify_mixed(op: Operation, max_ranks: tuple[int, int, int]) -> None:
    """MLIR's OffsetSizeAndStrideOpInterface checks: the offsets/sizes/strides lists have
    consistent ranks (`max_ranks` each) and one operand per dynamic entry."""
    attrs = op._attrs or _EMPTY
    statics = [attrs[f"static_{n}"].values for n in _OSS]  # type: ignore[union-attr]
    n_off, n_sizes, n_strides = (len(v) for v in statics)
    if not (n_off == 1 and max_ranks[0] == 1) and n_off != n_sizes:
        raise _located(
            op,
            f"expected mixed offsets rank to match mixed sizes rank ({n_off} vs {n_sizes}) "
            "so the rank of the result type is well-formed.",
        )
    if n_sizes != n_strides:
        raise _located(
            op,
            f"expected mixed sizes rank to match mixed strides rank ({n_sizes} vs {n_strides}) "
            "so the rank of the result type is well-formed.",
        )
    groups = (op.offsets, op.sizes, op.strides)  # type: ignore[attr-defined]
    for name, want, static, group in zip(("offset", "size", "stride"), max_ranks, statics, groups):
        if len(static) != want:
            raise _located(op, f"expected {want} {name} values, got {len(static)}")
        n_dyn = sum(1 for v in static if v == DYNAMIC_INDEX)
        if n_dyn != len(group):
            raise _located(
                op,
                f"expected the number of '{name}s' to match the number of dynamic entries in "
                f"'static_{name}s' ({len(group)} vs {n_dyn})",
            )


def _parse_oss_lists(parser: Any, keywords: bool) -> tuple[list[Any], list[list[int]]]:
    operands: list[Any] = []
    statics: list[list[int]] = []
    for i, kw in enumerate(("offset", "sizes", "strides")):
        if keywords:
            if i:
                parser.parse_punct(",")
            parser.parse_keyword(kw)
            parser.parse_punct(":")
        us, st = parse_dynamic_index_list(parser)
        operands.append(us)
        statics.append(st)
    return operands, statics


def _finish_oss(
    parser: Any, state: OperationState, src: Any, operands: list, statics: list
) -> None:
    attrs = state.attributes
    parser.parse_optional_attr_dict(attrs)
    parser.parse_punct(":")
    st = _parse_memref_type(parser)
    parser.parse_keyword("to")
    rt = parser.parse_type()
    index = A.index
    state.operands = [parser.resolve_operand(src, st)]
    for us in operands:
        state.operands += parser.resolve_operands(us, [index] * len(us))
    for n, s in zip(_OSS, statics):
        attrs[f"static_{n}"] = A.DenseArrayAttr(A.i64, s)
    attrs["operandSegmentSizes"] = A.DenseArrayAttr(A.i32, [1, *(len(u) for u in operands)])
    state.result_types = [rt]


def _print_oss(op: Operation, p: Any, keywords: bool) -> None:
    attrs = op._attrs or _EMPTY
    for i, (n, g) in enumerate(zip(_OSS, (op.offsets, op.sizes, op.strides))):  # type: ignore[attr-defined]
        if keywords:
            p.write((", " if i else " ") + ("offset" if i == 0 else n) + ": ")
        elif i:
            p.write(" ")
        static = attrs.get(f"static_{n}")
        print_dynamic_index_list(p, g, static.values if static is not None else ())
    p.print_attr_dict(
        attrs, ("operandSegmentSizes", "static_offsets", "static_sizes", "static_strides")
    )
    p.write(" : ")
    p.print_type(op.operand(0).type)
    p.write(" to ")
    p.print_type(op.results[0].type)


class SubViewOp(Op):
    """A strided view of a sub-box of a memref.

    Offsets, sizes and strides (static or `index` operands) select the box; the result layout is
    strided (see `infer_subview_type`); unit dims may be dropped (rank-reducing subview).

        %1 = memref.subview %0[%i, 0] [4, 4] [1, 1] : memref<?x?xf32> to memref<4x4xf32, strided<[?, 1], offset: ?>>
    """  # noqa: E501

    name = "memref.subview"
    traits = (Pure, AttrSizedOperandSegments)
    source = operand(RankedMemRef)
    offsets = var_operand(Index)
    sizes = var_operand(Index)
    strides = var_operand(Index)
    static_offsets = prop(DenseI64ArrayAttr)
    static_sizes = prop(DenseI64ArrayAttr)
    static_strides = prop(DenseI64ArrayAttr)
    res = result(RankedMemRef)
    get_asm_result_names = _result_namer("subview")

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        src = parser.parse_operand()
        operands, statics = _parse_oss_lists(parser, keywords=False)
        _finish_oss(parser, state, src, operands, statics)

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.source)
        _print_oss(self, p, keywords=False)

    def verify_op(self) -> None:
        src, res = self.source.type, self.res.type
        _verify_mixed(self, (src.rank,) * 3)
        offsets = self.static_offsets.values
        if src.memory_space is not res.memory_space:
            raise _located(
                self,
                f"different memory spaces specified for base memref type '{src}' and subview "
                f"memref type '{res}'",
            )
        if res.element_type is not src.element_type:
            raise _located(
                self, f"expected result element type to be '{src.element_type}', but got '{res}'"
            )
        try:
            expected = infer_subview_type(
                src, offsets, self.static_sizes.values, self.static_strides.values
            )
        except ValueError as e:
            raise self.error(str(e)) from None
        why = _subview_mismatch(expected, res)
        if why is not None:
            raise _located(
                self,
                f"expected result type to be '{expected}' or a rank-reduced version. ({why}), "
                f"but got '{res}'",
            )


def _subview_mismatch(expected: A.MemRefType, actual: A.MemRefType) -> str | None:
    """Why `actual` is neither `expected` nor a rank-reduced version of it (None when it is)."""
    if actual.rank > expected.rank:
        return "mismatch of result rank"
    kept = _rank_reduction_mask(expected.shape, actual.shape)
    if kept is None:
        return "mismatch of result sizes"
    exp_strides, exp_offset = expected.strides_and_offset()
    got = _canonical_layout(actual)
    if got is None:
        return "mismatch of result layout"
    got_strides, got_offset = got
    if got_offset != exp_offset or tuple(exp_strides[i] for i in kept) != got_strides:
        # A kept unit dim's stride does not matter when it has a single element.
        if got_offset != exp_offset:
            return "mismatch of result layout"
        for i, gs in zip(kept, got_strides):
            if exp_strides[i] != gs and expected.shape[i] != 1:
                return "mismatch of result layout"
    return None


class ReinterpretCastOp(Op):
    """A view of a memref's buffer with a new offset, sizes and strides.

    One offset and one size and stride per result dimension, static or `index` operands; the
    static ones must agree with the result type.

        %1 = memref.reinterpret_cast %0 to offset: [0], sizes: [%n, 4], strides: [4, 1] : memref<?x?xf32> to memref<?x4xf32, strided<[4, 1]>>
    """  # noqa: E501

    name = "memref.reinterpret_cast"
    traits = (Pure, AttrSizedOperandSegments)
    source = operand(AnyMemRef)
    offsets = var_operand(Index)
    sizes = var_operand(Index)
    strides = var_operand(Index)
    static_offsets = prop(DenseI64ArrayAttr)
    static_sizes = prop(DenseI64ArrayAttr)
    static_strides = prop(DenseI64ArrayAttr)
    res = result(RankedMemRef)
    get_asm_result_names = _result_namer("reinterpret_cast")

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        src = parser.parse_operand()
        parser.parse_keyword("to")
        operands, statics = _parse_oss_lists(parser, keywords=True)
        _finish_oss(parser, state, src, operands, statics)

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.source)
        p.write(" to")
        _print_oss(self, p, keywords=True)

    def verify_op(self) -> None:
        src, res = self.source.type, self.res.type
        _verify_mixed(self, (1, res.rank, res.rank))
        if src.memory_space is not res.memory_space:
            raise _located(
                self,
                f"different memory spaces specified for source type '{src}' and result memref "
                f"type '{res}'",
            )
        if src.element_type is not res.element_type:
            raise self.error(
                f"source element type ('{src.element_type}') does not match result element type "
                f"('{res.element_type}')"
            )
        for d, (want, got) in enumerate(zip(self.static_sizes.values, res.shape)):
            if _is_dyn(want) != (got == A.DYNAMIC) or (not _is_dyn(want) and want != got):
                raise self.error_plain(
                    f"expected result type with size = {_dyn_text(want)} instead of "
                    f"{_dyn_text(got)} in dim = {d}"
                )
        layout = _canonical_layout(res)
        if layout is None:
            raise self.error(f"not supported: result layout of '{res}' (expected a strided layout)")
        strides, offset = layout
        want = self.static_offsets.values[0]
        if _is_dyn(want) != (offset == A.DYNAMIC) or (not _is_dyn(want) and want != offset):
            raise self.error_plain(
                f"expected result type with offset = {_dyn_text(want)} instead of "
                f"{_dyn_text(offset)}"
            )
        for d, (want, got) in enumerate(zip(self.static_strides.values, strides)):
            if _is_dyn(want) != (got == A.DYNAMIC) or (not _is_dyn(want) and want != got):
                raise self.error_plain(
                    f"expected result type with stride = {_dyn_text(want)} instead of "
                    f"{_dyn_text(got)} in dim = {d}"
                )

    def error_plain(self, message: str) -> VerifyError:
        return _located(self, message)


def _dyn_text(v: int) -> str:
    return "dynamic" if _is_dyn(v) else str(v)


# ---------------------------------------------------------------------------------------------
# Globals


def _tensor_of(t: A.MemRefType) -> A.RankedTensorType:
    return A.RankedTensorType(t.shape, t.element_type)


class GlobalOp(Op, MemoryEffectsOpInterface):
    """A named global buffer (a symbol), optionally initialized and constant.

    `initial_value` is a dense elements attribute of the memref's shape (as a tensor), a unit
    attribute for an uninitialized definition (`= uninitialized`), or absent for a declaration.

        memref.global "private" constant @c : memref<2xf32> = dense<[1.0, 2.0]>
    """

    name = "memref.global"
    traits = (Symbol,)
    sym_name = prop(StrAttr)
    sym_visibility = opt_prop(StrAttr)
    type = prop(MemRefTypeAttr)
    initial_value = opt_prop(AnyAttrC)
    constant = opt_prop(UnitAttrC)
    alignment = opt_prop(AlignmentAttr)

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        attrs = state.attributes
        vis = parser.parse_optional_string()
        if vis is not None:
            attrs["sym_visibility"] = A.StringAttr(vis)
        if parser.parse_optional_keyword("constant"):
            attrs["constant"] = A.UnitAttr()
        attrs["sym_name"] = A.StringAttr(parser.parse_symbol_name())
        parser.parse_punct(":")
        pos = parser.pos()
        t = parser.parse_type()
        if type(t) is not A.MemRefType or not t.has_static_shape():
            raise parser.error(f"type should be static shaped memref, but got '{t}'", pos)
        attrs["type"] = A.TypeAttr(t)
        if parser.parse_optional_punct("="):
            if parser.parse_optional_keyword("uninitialized"):
                attrs["initial_value"] = A.UnitAttr()
            else:
                pos = parser.pos()
                value = parser.parse_attribute(_tensor_of(t))
                if type(value) is not A.DenseElementsAttr:
                    raise parser.error("initial value should be a unit or elements attribute", pos)
                attrs["initial_value"] = value
        parse_access_flags(parser, attrs, "equals")
        parser.parse_optional_attr_dict(attrs)

    def print_asm(self, p: Any) -> None:
        attrs = self._attrs or _EMPTY
        vis = attrs.get("sym_visibility")
        if type(vis) is A.StringAttr:
            p.write(" ")
            p.print_string(vis.value)
        if "constant" in attrs:
            p.write(" constant")
        p.write(" ")
        p.print_symbol_name(self.sym_name.value)
        p.write(" : ")
        t = self.type.value
        p.print_type(t)
        init = attrs.get("initial_value")
        if type(init) is A.UnitAttr:
            p.write(" = uninitialized")
        elif init is not None:
            p.write(" = ")
            if getattr(init, "type", None) is _tensor_of(t):
                p.print_attribute_without_type(init)
            else:
                p.print_attribute(init)
        print_access_flags(p, attrs, "equals")
        p.print_attr_dict(
            attrs,
            ("sym_name", "sym_visibility", "type", "initial_value", "constant", "alignment"),
        )

    def verify_op(self) -> None:
        t = self.type.value
        if not t.has_static_shape():
            raise self.error(f"type should be static shaped memref, but got '{t}'")
        init = self.initial_value
        if init is not None and type(init) is not A.UnitAttr:
            if type(init) is not A.DenseElementsAttr:
                raise self.error(
                    f"initial value should be a unit or elements attribute, but got {init}"
                )
            want = _tensor_of(t)
            if init.type is not want:
                raise self.error(
                    f"initial value expected to be of type '{want}', but was of type '{init.type}'"
                )

    def get_effects(self) -> list[EffectInstance]:
        return []

    @property
    def is_external(self) -> bool:
        """A declaration (no initial value)."""
        return self.initial_value is None


class GetGlobalOp(Op, SymbolUserOpInterface):
    """The memref of a `memref.global`, by symbol.

    The result type must be the global's type.

        %0 = memref.get_global @c : memref<2xf32>
    """

    name = "memref.get_global"
    traits = (Pure,)
    res = result(RankedMemRef)

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        state.attributes["name"] = A.SymbolRefAttr(parser.parse_symbol_name())
        parser.parse_punct(":")
        state.result_types = [parser.parse_type()]
        parser.parse_optional_attr_dict(state.attributes)

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_symbol_name(self.global_name.root)
        p.write(" : ")
        p.print_type(self.res.type)
        p.print_attr_dict(self._attrs or _EMPTY, ("name",))

    @property
    def global_name(self) -> A.SymbolRefAttr:
        """The `name` property (the referenced global)."""
        return self.get_attr("name")  # type: ignore[return-value]

    def verify_op(self) -> None:
        ref = self.get_attr("name")
        if ref is None:
            raise self.error("requires attribute 'name'")
        if not FlatSymbolRefAttrC.check(ref):
            raise self.error(
                "attribute 'name' failed to satisfy constraint: flat symbol reference attribute"
            )

    def verify_symbol_uses(self, tables: Any) -> None:
        ref = self.global_name
        if tables is not None:
            g = tables.lookup_nearest_symbol_from(self, ref)
        else:
            g = lookup_nearest_symbol_from(self, ref)
        if type(g) is not GlobalOp:
            raise self.error(f"'{ref.root}' does not reference a valid global memref")
        gt = g.type.value
        if gt is not self.res.type:
            raise self.error(
                f"result type '{self.res.type}' does not match type '{gt}' of the global "
                f"memref @{ref.root}"
            )


GetGlobalOp._prop_names = GetGlobalOp._prop_names | frozenset({"name"})  # type: ignore[attr-defined]


def materialize_constant(
    value: A.Attribute, result_type: A.Type, location: A.Location | None = None
) -> Operation | None:
    """Constants folded from memref ops (dim sizes) are `arith.constant`s."""
    from mlc.dialects.arith import materialize_constant as arith_materialize

    return arith_materialize(value, result_type, location)


DIALECT = Dialect(
    "memref",
    ops=[
        AllocOp, AllocaOp, DeallocOp, LoadOp, StoreOp, CopyOp, DimOp, CastOp, SubViewOp,
        ReinterpretCastOp, GlobalOp, GetGlobalOp, ExtractAlignedPointerAsIndexOp,
    ],
    materialize_constant=materialize_constant,
)  # fmt: skip
