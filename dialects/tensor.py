"""The `tensor` dialect: value-semantic tensors (MLIR's tensor ops, properties and syntax) and
`tensor.generic`, mlc's structured iteration space (linalg.generic on tensors) that the graph
level lowers to and bufferization turns into loops.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mlc.dialects.index_lists import (
    DYNAMIC_INDEX,
    parse_dynamic_index_list,
    print_dynamic_index_list,
)

from mlc.interfaces import (
    READ,
    WRITE,
    ConditionallySpeculatable,
    EffectInstance,
    MemoryEffectsOpInterface,
    constant_value,
    get_effects,
)
from mlc.ir import attributes as A
from mlc.ir.affine import AffineDimExpr, AffineMap
from mlc.ir.context import Dialect
from mlc.ir.core import Block, Operation, Region, Value
from mlc.ir.opdef import (
    AnyRankedTensor,
    AnyTensor,
    AnyType,
    Constraint,
    DenseI64ArrayAttr,
    Index,
    InferTypeOpInterface,
    Op,
    OperationState,
    Pure,
    RecursiveMemoryEffects,
    SingleBlock,
    StrAttr,
    Terminator,
    UnitAttrC,
    has_parent,
    operand,
    opt_prop,
    prop,
    region,
    result,
    var_operand,
    var_result,
)

_SEGMENTS = "operandSegmentSizes"


# ---------------------------------------------------------------------------------------------
# Helpers shared by the ops (public ones are used by passes and other dialects)


def to_shape_dim(v: int) -> int:
    """A static-array entry as a type dimension (the sentinel becomes `A.DYNAMIC`)."""
    return A.DYNAMIC if v == DYNAMIC_INDEX else v


def to_static_entry(d: int) -> int:
    """A type dimension as a static-array entry (`A.DYNAMIC` becomes the sentinel)."""
    return DYNAMIC_INDEX if d == A.DYNAMIC else d


def i64_array(values: Sequence[int]) -> A.DenseArrayAttr:
    return A.DenseArrayAttr(A.i64, values)


def segments(*sizes: int) -> A.DenseArrayAttr:
    return A.DenseArrayAttr(A.i32, sizes)


def mixed_to_static(entries: Sequence[int | Value]) -> tuple[list[Value], list[int]]:
    """Split a mixed list (ints and `index` values) into the operands and the static entries."""
    values: list[Value] = []
    static: list[int] = []
    for e in entries:
        if isinstance(e, Value):
            values.append(e)
            static.append(DYNAMIC_INDEX)
        else:
            static.append(int(e))
    return values, static


def _slice_state(
    offsets: Sequence[int | Value], sizes: Sequence[int | Value], strides: Sequence[int | Value]
) -> tuple[list[list[Value]], dict[str, A.Attribute]]:
    groups, attrs = [], {}
    for name, entries in (("offsets", offsets), ("sizes", sizes), ("strides", strides)):
        values, static = mixed_to_static(entries)
        groups.append(values)
        attrs[f"static_{name}"] = i64_array(static)
    return groups, attrs


def infer_extract_slice_type(
    source_type: A.RankedTensorType, static_sizes: Sequence[int]
) -> A.RankedTensorType:
    """The (non rank-reduced) result type of slicing `source_type` with `static_sizes`."""
    return A.RankedTensorType(
        [to_shape_dim(s) for s in static_sizes], source_type.element_type, source_type.encoding
    )


def rank_reduction_mask(original: Sequence[int], reduced: Sequence[int]) -> list[int] | None:
    """The dims of `original` dropped to get `reduced` (only unit dims may go), else None."""
    dropped: list[int] = []
    j = 0
    for i, d in enumerate(original):
        if j < len(reduced) and reduced[j] == d:
            j += 1
        elif d == 1:
            dropped.append(i)
        else:
            return None
    return dropped if j == len(reduced) else None


def _check_slice_type(
    op: Operation, expected: A.RankedTensorType, actual: A.RankedTensorType
) -> None:
    """`actual` must be `expected` or a rank-reduced version of it (MLIR's messages; like
    MLIR, the encoding is not compared)."""
    if actual.rank > expected.rank:
        raise op.error("expected rank to be smaller or equal to the other rank.")
    if rank_reduction_mask(expected.shape, actual.shape) is None:
        raise op.error(
            f"expected type to be '{expected}' or a rank-reduced version. (size mismatch)"
        )
    if actual.element_type is not expected.element_type:
        raise op.error(f"expected element type to be '{expected.element_type}'")


def _check_static_list(
    op: Operation, name: str, static: A.DenseArrayAttr, values: Sequence[Value], rank: int
) -> None:
    if len(static) != rank:
        raise op.error(f"expected {rank} {name} values, got {len(static)}")
    n_dyn = sum(1 for s in static.values if s == DYNAMIC_INDEX)
    if n_dyn != len(values):
        raise op.error(
            f"expected the number of '{name}s' to match the number of dynamic entries in "
            f"'static_{name}s' ({len(values)} vs {n_dyn})"
        )


def _verify_offsets_sizes_strides(op: Any, rank: int) -> None:
    """The OffsetSizeAndStrideOpInterface rules shared by extract_slice and insert_slice."""
    offs, sizes, strides = op.static_offsets, op.static_sizes, op.static_strides
    if len(offs) != len(sizes):
        raise op.error(
            f"expected mixed offsets rank to match mixed sizes rank ({len(offs)} vs {len(sizes)}) "
            "so the rank of the result type is well-formed."
        )
    if len(sizes) != len(strides):
        raise op.error(
            f"expected mixed sizes rank to match mixed strides rank ({len(sizes)} vs "
            f"{len(strides)}) so the rank of the result type is well-formed."
        )
    _check_static_list(op, "offset", offs, op.offsets, rank)
    _check_static_list(op, "size", sizes, op.sizes, rank)
    _check_static_list(op, "stride", strides, op.strides, rank)
    for what, arr in (("offsets", offs), ("sizes", sizes)):
        for v in arr.values:
            if v != DYNAMIC_INDEX and v < 0:
                raise op.error(f"expected {what} to be non-negative, but got {v}")


def _verify_in_bounds(op: Any, shape: Sequence[int]) -> None:
    """Static offsets/sizes/strides must stay inside the static dims of `shape`."""
    for i, (dim, off, size, stride) in enumerate(
        zip(shape, op.static_offsets.values, op.static_sizes.values, op.static_strides.values)
    ):
        if dim == A.DYNAMIC or off == DYNAMIC_INDEX:
            continue
        if off >= dim:
            raise op.error(f"offset {i} is out-of-bounds: {off} >= {dim}")
        if size == DYNAMIC_INDEX or stride == DYNAMIC_INDEX or size <= 0:
            continue
        last = off + (size - 1) * stride
        if last >= dim:
            raise op.error(f"slice along dimension {i} runs out-of-bounds: {last} >= {dim}")


def _is_full_slice(op: Any, shape: Sequence[int]) -> bool:
    """Offsets 0, strides 1 and static sizes equal to the static `shape`."""
    if op.offsets or op.sizes or op.strides:
        return False
    return (
        all(v == 0 for v in op.static_offsets.values)
        and all(v == 1 for v in op.static_strides.values)
        and tuple(op.static_sizes.values) == tuple(shape)
        and A.DYNAMIC not in shape
    )


def _constant_index(v: Value) -> int | None:
    """The value of an index/integer constant defining `v`, else None."""
    attr = constant_value(v)
    return attr.value if type(attr) is A.IntegerAttr else None


def _parse_slice_lists(parser: Any) -> tuple[list[Any], list[Any], list[Any], list[list[int]]]:
    offs, s_offs = parse_dynamic_index_list(parser)
    sizes, s_sizes = parse_dynamic_index_list(parser)
    strides, s_strides = parse_dynamic_index_list(parser)
    return offs, sizes, strides, [s_offs, s_sizes, s_strides]


def _print_slice_lists(p: Any, op: Any) -> None:
    print_dynamic_index_list(p, op.offsets, op.static_offsets.values)
    p.write(" ")
    print_dynamic_index_list(p, op.sizes, op.static_sizes.values)
    p.write(" ")
    print_dynamic_index_list(p, op.strides, op.static_strides.values)


_SLICE_PROPS = (_SEGMENTS, "static_offsets", "static_sizes", "static_strides")


def _dynamic_count_error(op: Operation, has: int, expected: int) -> Exception:
    return op.error(f"incorrect number of dynamic sizes, has {has}, expected {expected}")


def _reassociation(op: Any) -> list[list[int]]:
    """The reassociation groups as int lists (the property's constraint is checked first)."""
    return [[e.value for e in g] for g in op.reassociation]


def _is_reassociation(a: Any) -> bool:
    if type(a) is not A.ArrayAttr:
        return False
    for g in a:
        if type(g) is not A.ArrayAttr:
            return False
        for e in g:
            if type(e) is not A.IntegerAttr or e.type is not A.i64:
                return False
    return True


ReassociationAttrC = Constraint(_is_reassociation, "Array of 64-bit integer array attributes")


def reassociation_attr(groups: Sequence[Sequence[int]]) -> A.ArrayAttr:
    """`[[0, 1], [2]]` as the `reassociation` property (ArrayAttr of ArrayAttr of i64)."""
    return A.ArrayAttr([A.ArrayAttr([A.IntegerAttr(d, A.i64) for d in g]) for g in groups])


def _verify_reshape(
    op: Any, expanded: A.RankedTensorType, collapsed: A.RankedTensorType
) -> list[list[int]]:
    """Reassociation validity and per-group sizes of collapse_shape / expand_shape."""
    groups = _reassociation(op)
    if expanded.rank < collapsed.rank:
        raise op.error(
            f"expected the expanded type, '{expanded}' to have a higher (or same) rank than the "
            f"collapsed type, '{collapsed}'."
        )
    if len(groups) != collapsed.rank:
        raise op.error(
            f"expected collapsed rank ({collapsed.rank}) to equal the number of reassociation "
            f"maps ({len(groups)})."
        )
    if not groups:
        # To/from rank 0: every expanded dimension is a unit one (checked when static).
        if expanded.has_static_shape():
            n = 1
            for d in expanded.shape:
                n *= d
            if n != 1:
                raise op.error(f"number of elements must be preserved: {n} != 1")
        _check_reshape_element_type(op, expanded, collapsed)
        return groups
    nxt = 0
    for i, g in enumerate(groups):
        if not g or g != list(range(nxt, nxt + len(g))):
            raise op.error(f"expected reassociation map #{i} to be valid and contiguous.")
        nxt += len(g)
    if nxt != expanded.rank:
        raise op.error(
            f"expected reassociation map #{len(groups) - 1} to have size equal to the expanded "
            f"rank ({expanded.rank}), but it is  {nxt}."
        )
    for i, g in enumerate(groups):
        dims = [expanded.shape[d] for d in g]
        c = collapsed.shape[i]
        if A.DYNAMIC in dims:
            if c != A.DYNAMIC:
                raise op.error(
                    f"expected dimension {i} of collapsed type to be dynamic since one or more of "
                    "the corresponding dimensions in the expanded type is dynamic"
                )
            continue
        product = 1
        for d in dims:
            product *= d
        if c != product:
            raise op.error(
                f"expected dimension {i} of collapsed type to be static value of {product}"
            )
    _check_reshape_element_type(op, expanded, collapsed)
    return groups


def _check_reshape_element_type(
    op: Any, expanded: A.RankedTensorType, collapsed: A.RankedTensorType
) -> None:
    if expanded.element_type is not collapsed.element_type:
        want = collapsed.clone_with(element_type=expanded.element_type)
        raise op.error(f"expected collapsed type to be '{want}', but got '{collapsed}'")


def _fold_reshape_pair(op: Any, inverse: type) -> Value | None:
    """reshape(inverse_reshape(x)) -> x when both use the same reassociation and types match."""
    src = op.src.defining_op()
    if type(src) is inverse and src.src.type is op.result.type:
        if src.reassociation is op.reassociation:
            return src.src
    return None


# ---------------------------------------------------------------------------------------------
# Creation, shape queries and casts


class EmptyOp(Op):
    """An uninitialized tensor of a given shape.

    Only the shape matters: the contents are undefined (bufferization turns it into an
    allocation). One `index` operand gives each dynamic dimension, in order.

        %0 = tensor.empty(%d) : tensor<?x4xf32>
    """

    name = "tensor.empty"
    traits = (Pure,)
    dynamicSizes = var_operand(Index)  # noqa: N815 - MLIR's name
    res = result(AnyRankedTensor)

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        names = parser.parse_operand_list("paren")
        parser.parse_optional_attr_dict(state.attributes)
        t = parser.parse_colon_type()
        state.operands = parser.resolve_operands(names, [A.index] * len(names))
        state.result_types = [t]

    def print_asm(self, p: Any) -> None:
        p.write("(")
        p.print_operands(self.operands)
        p.write(")")
        p.print_op_attrs(self)
        p.write(" : ")
        p.print_type(self.result.type)

    def verify_op(self) -> None:
        expected = self.result.type.num_dynamic_dims()
        if len(self._operands) != expected:
            raise _dynamic_count_error(self, len(self._operands), expected)

    def dynamic_size(self, dim: int) -> Value:
        """The operand giving dynamic dimension `dim` of the result."""
        shape = self.result.type.shape
        return self.operand(shape[:dim].count(A.DYNAMIC))

    def canonicalize(self, rewriter: Any) -> bool:
        """Fold constant dynamic sizes into the type, casting back to the original type."""
        t = self.result.type
        shape = list(t.shape)
        kept: list[Value] = []
        k = 0
        for i, d in enumerate(shape):
            if d != A.DYNAMIC:
                continue
            v = self._operands[k].value
            k += 1
            c = _constant_index(v)
            if c is None or c < 0:
                kept.append(v)
            else:
                shape[i] = c
        if len(kept) == len(self._operands):
            return False
        new_t = t.clone_with(shape=shape)
        rewriter.set_insertion_point_before(self)
        empty = rewriter.insert(EmptyOp.create(kept, [new_t], location=self.location))
        cast = rewriter.insert(CastOp.create([empty.result], [t], location=self.location))
        rewriter.replace_op(self, [cast.result])
        return True


class DimOp(Op, InferTypeOpInterface):
    """The size of one dimension of a tensor, as an `index`.

    Folds to a constant when the dimension is static (and to the size operand of a
    `tensor.empty`/`tensor.splat` source). A constant index must be in range.

        %dim = tensor.dim %t, %c1 : tensor<4x?xf32>
    """

    name = "tensor.dim"
    traits = (Pure,)
    source = operand(AnyTensor)
    index = operand(Index)
    res = result(Index)

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        return [A.index]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        parser.parse_optional_attr_dict(state.attributes)
        src = parser.parse_operand()
        parser.parse_punct(",")
        idx = parser.parse_operand()
        t = parser.parse_colon_type()
        state.operands = [parser.resolve_operand(src, t), parser.resolve_operand(idx, A.index)]
        state.result_types = [A.index]

    def print_asm(self, p: Any) -> None:
        p.print_op_attrs(self)
        p.write(" ")
        p.print_operands(self.operands)
        p.write(" : ")
        p.print_type(self.source.type)

    def get_asm_result_names(self, set_name: Callable[[Value, str], None]) -> None:
        set_name(self.result, "dim")

    def verify_op(self) -> None:
        t = self.source.type
        c = _constant_index(self.index)
        if c is not None and type(t) is A.RankedTensorType and not 0 <= c < t.rank:
            raise self.error(f"index {c} is out of range for a tensor of rank {t.rank}")

    def fold(self, operand_attrs: list) -> Any:
        idx = operand_attrs[1]
        t = self.source.type
        if type(idx) is not A.IntegerAttr or type(t) is not A.RankedTensorType:
            return None
        i = idx.value
        if not 0 <= i < t.rank:
            return None
        if t.shape[i] != A.DYNAMIC:
            return A.IntegerAttr(t.shape[i], A.index)
        src = self.source.defining_op()
        if type(src) is EmptyOp or type(src) is SplatOp:
            return src.dynamic_size(i)
        return None


def cast_compatible(a: A.Type, b: A.Type) -> bool:
    """Tensor types that `tensor.cast` may convert between (same element type, same rank or one
    unranked, static dims equal where both are static)."""
    ra, rb = type(a), type(b)
    if ra not in (A.RankedTensorType, A.UnrankedTensorType) or rb not in (
        A.RankedTensorType,
        A.UnrankedTensorType,
    ):
        return False
    if a.element_type is not b.element_type:  # type: ignore[attr-defined]
        return False
    if ra is A.UnrankedTensorType or rb is A.UnrankedTensorType:
        return True
    if a.rank != b.rank:  # type: ignore[attr-defined]
        return False
    return all(
        x == y or x == A.DYNAMIC or y == A.DYNAMIC
        for x, y in zip(a.shape, b.shape)  # type: ignore[attr-defined]
    )


class CastOp(Op):
    """Convert a tensor to a compatible tensor type (more or less static information).

    Both types have the same element type; ranks agree (or one side is unranked) and static
    dimensions agree where both are static. Folds away when the types are identical.

        %cast = tensor.cast %t : tensor<?x?xf32> to tensor<4x?xf32>
    """

    name = "tensor.cast"
    traits = (Pure,)
    source = operand(AnyTensor)
    dest = result(AnyTensor)

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        src = parser.parse_operand()
        parser.parse_optional_attr_dict(state.attributes)
        t = parser.parse_colon_type()
        parser.parse_keyword("to")
        state.operands = [parser.resolve_operand(src, t)]
        state.result_types = [parser.parse_type()]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.source)
        p.print_op_attrs(self)
        p.write(" : ")
        p.print_type(self.source.type)
        p.write(" to ")
        p.print_type(self.dest.type)

    def get_asm_result_names(self, set_name: Callable[[Value, str], None]) -> None:
        set_name(self.dest, "cast")

    def verify_op(self) -> None:
        a, b = self.source.type, self.dest.type
        if not cast_compatible(a, b):
            raise self.error(f"operand type '{a}' and result type '{b}' are cast incompatible")

    def fold(self, operand_attrs: list) -> Any:
        src = self.source
        if src.type is self.dest.type:
            return src
        inner = src.defining_op()
        if type(inner) is CastOp and inner.source.type is self.dest.type:
            return inner.source
        return None


class SplatOp(Op):
    """A tensor whose elements all equal one scalar.

    The scalar's type is the element type; one `index` operand gives each dynamic dimension.
    Folds to a splat `dense<...>` constant for a constant scalar and a static shape.

        %splat = tensor.splat %v : tensor<4xf32>
        %splat_0 = tensor.splat %v[%d] : tensor<?x4xf32>
    """

    name = "tensor.splat"
    traits = (Pure,)
    input = operand(AnyType)
    dynamicSizes = var_operand(Index)  # noqa: N815 - MLIR's name
    aggregate = result(AnyRankedTensor)

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        v = parser.parse_operand()
        sizes = []
        if parser.parse_optional_punct("["):
            sizes = parser.parse_operand_list()
            parser.parse_punct("]")
        parser.parse_optional_attr_dict(state.attributes)
        t = parser.parse_colon_type()
        if not isinstance(t, A.ShapedType):
            raise parser.error(f"expected a tensor type, got '{t}'")
        state.operands = [parser.resolve_operand(v, t.element_type)]
        state.operands += parser.resolve_operands(sizes, [A.index] * len(sizes))
        state.result_types = [t]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.input)
        sizes = self.dynamicSizes
        if sizes:
            p.write("[")
            p.print_operands(sizes)
            p.write("]")
        p.print_op_attrs(self)
        p.write(" : ")
        p.print_type(self.aggregate.type)

    def get_asm_result_names(self, set_name: Callable[[Value, str], None]) -> None:
        set_name(self.aggregate, "splat")

    def verify_op(self) -> None:
        t = self.aggregate.type
        if self.input.type is not t.element_type:
            raise self.error("failed to verify that operand type matches element type of result")
        n = len(self._operands) - 1
        if n != t.num_dynamic_dims():
            raise _dynamic_count_error(self, n, t.num_dynamic_dims())

    def dynamic_size(self, dim: int) -> Value:
        """The operand giving dynamic dimension `dim` of the result."""
        return self.operand(1 + self.aggregate.type.shape[:dim].count(A.DYNAMIC))

    def fold(self, operand_attrs: list) -> Any:
        v = operand_attrs[0]
        t = self.aggregate.type
        if type(v) not in (A.IntegerAttr, A.FloatAttr) or not t.has_static_shape():
            return None
        try:
            return A.DenseElementsAttr(t, v.value)
        except (ValueError, TypeError):
            return None


# ---------------------------------------------------------------------------------------------
# Elements


class ExtractOp(Op, InferTypeOpInterface):
    """Read one element of a ranked tensor at the given indices (one per dimension).

    Folds when reading a `tensor.splat` or a `dense<...>` constant at constant indices.

        %extracted = tensor.extract %t[%i, %j] : tensor<4x?xf32>
    """

    name = "tensor.extract"
    traits = (Pure,)
    tensor = operand(AnyRankedTensor)
    indices = var_operand(Index)
    res = result(AnyType)

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        return [operand_types[0].element_type]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        t_name = parser.parse_operand()
        idx = parser.parse_operand_list("square")
        parser.parse_optional_attr_dict(state.attributes)
        pos = parser.pos()
        t = parser.parse_colon_type()
        if not isinstance(t, A.ShapedType):
            raise parser.error(f"expected a ranked tensor type, got '{t}'", pos)
        state.operands = [parser.resolve_operand(t_name, t)]
        state.operands += parser.resolve_operands(idx, [A.index] * len(idx))
        state.result_types = [t.element_type]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.tensor)
        p.write("[")
        p.print_operands(self.indices)
        p.write("]")
        p.print_op_attrs(self)
        p.write(" : ")
        p.print_type(self.tensor.type)

    def get_asm_result_names(self, set_name: Callable[[Value, str], None]) -> None:
        set_name(self.result, "extracted")

    def verify_op(self) -> None:
        t = self.tensor.type
        if self.result.type is not t.element_type:
            raise self.error("failed to verify that result type matches element type of tensor")
        if len(self._operands) - 1 != t.rank:
            raise self.error("incorrect number of indices for extract_element")

    def fold(self, operand_attrs: list) -> Any:
        src = self.tensor.defining_op()
        if type(src) is SplatOp:
            return src.input
        dense = operand_attrs[0]
        if type(dense) is not A.DenseElementsAttr:
            return None
        if dense.is_splat:
            return _scalar_attr(dense.splat_value, self.result.type)
        idx = []
        for a, d in zip(operand_attrs[1:], dense.type.shape):
            if type(a) is not A.IntegerAttr or not 0 <= a.value < d:
                return None
            idx.append(a.value)
        return _scalar_attr(dense.array[tuple(idx)].item(), self.result.type)


def _scalar_attr(value: Any, t: A.Type) -> A.Attribute | None:
    if type(t) is A.FloatType:
        return A.FloatAttr(float(value), t)
    if type(t) is A.IntegerType or type(t) is A.IndexType:
        return A.IntegerAttr(int(value), t)
    return None


class InsertOp(Op, InferTypeOpInterface):
    """A copy of `dest` with one element replaced by `scalar` (value semantics).

    There is one index per dimension; the result has the type of `dest`.

        %inserted = tensor.insert %v into %t[%i, %j] : tensor<4x?xf32>
    """

    name = "tensor.insert"
    traits = (Pure,)
    scalar = operand(AnyType)
    dest = operand(AnyRankedTensor)
    indices = var_operand(Index)
    res = result(AnyRankedTensor)

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        return [operand_types[1]]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        s = parser.parse_operand()
        parser.parse_keyword("into")
        d = parser.parse_operand()
        idx = parser.parse_operand_list("square")
        parser.parse_optional_attr_dict(state.attributes)
        pos = parser.pos()
        t = parser.parse_colon_type()
        if not isinstance(t, A.ShapedType):
            raise parser.error(f"expected a ranked tensor type, got '{t}'", pos)
        state.operands = [parser.resolve_operand(s, t.element_type), parser.resolve_operand(d, t)]
        state.operands += parser.resolve_operands(idx, [A.index] * len(idx))
        state.result_types = [t]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.scalar)
        p.write(" into ")
        p.print_operand(self.dest)
        p.write("[")
        p.print_operands(self.indices)
        p.write("]")
        p.print_op_attrs(self)
        p.write(" : ")
        p.print_type(self.dest.type)

    def get_asm_result_names(self, set_name: Callable[[Value, str], None]) -> None:
        set_name(self.result, "inserted")

    def verify_op(self) -> None:
        t = self.dest.type
        if self.result.type is not t:
            raise self.error("failed to verify that result type matches type of dest")
        if self.scalar.type is not t.element_type:
            raise self.error("failed to verify that scalar type matches element type of dest")
        if len(self._operands) - 2 != t.rank:
            raise self.error("incorrect number of indices")


# ---------------------------------------------------------------------------------------------
# Slices


class ExtractSliceOp(Op, InferTypeOpInterface):
    """A strided sub-tensor of a ranked tensor, optionally rank-reduced.

    Offsets, sizes and strides are each a mix of constants (`static_*` properties, the
    dynamic sentinel where an SSA operand is used instead) and `index` operands. The result
    has the sizes as its shape, possibly with unit dimensions dropped.

        %extracted_slice = tensor.extract_slice %t[0, %i] [4, 4] [1, 1]
            : tensor<8x?xf32> to tensor<4x4xf32>
    """

    name = "tensor.extract_slice"
    traits = (Pure,)
    source = operand(AnyRankedTensor)
    offsets = var_operand(Index)
    sizes = var_operand(Index)
    strides = var_operand(Index)
    static_offsets = prop(DenseI64ArrayAttr)
    static_sizes = prop(DenseI64ArrayAttr)
    static_strides = prop(DenseI64ArrayAttr)
    res = result(AnyRankedTensor)

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        sizes = attributes.get("static_sizes")
        if type(sizes) is not A.DenseArrayAttr:
            raise ValueError("tensor.extract_slice infers its result type from 'static_sizes'")
        return [infer_extract_slice_type(operand_types[0], sizes.values)]

    @classmethod
    def of(
        cls,
        source: Value,
        offsets: Sequence[int | Value],
        sizes: Sequence[int | Value],
        strides: Sequence[int | Value],
        result_type: A.RankedTensorType | None = None,
        location: A.Location | None = None,
    ) -> ExtractSliceOp:
        """A slice from mixed lists (ints and `index` values); the result type is inferred
        (not rank-reduced) unless given."""
        groups, attrs = _slice_state(offsets, sizes, strides)
        types = None if result_type is None else [result_type]
        return cls.build([source, *groups], types, attrs, location=location)  # type: ignore[return-value]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        src = parser.parse_operand()
        offs, sizes, strides, static = _parse_slice_lists(parser)
        parser.parse_optional_attr_dict(state.attributes)
        src_t = parser.parse_colon_type()
        parser.parse_keyword("to")
        res_t = parser.parse_type()
        idx = A.index
        state.operands = [parser.resolve_operand(src, src_t)]
        for group in (offs, sizes, strides):
            state.operands += parser.resolve_operands(group, [idx] * len(group))
        state.attributes.update(
            static_offsets=i64_array(static[0]),
            static_sizes=i64_array(static[1]),
            static_strides=i64_array(static[2]),
            operandSegmentSizes=segments(1, len(offs), len(sizes), len(strides)),
        )
        state.result_types = [res_t]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.source)
        _print_slice_lists(p, self)
        p.print_op_attrs(self, _SLICE_PROPS)
        p.write(" : ")
        p.print_type(self.source.type)
        p.write(" to ")
        p.print_type(self.result.type)

    def get_asm_result_names(self, set_name: Callable[[Value, str], None]) -> None:
        set_name(self.result, "extracted_slice")

    def verify_op(self) -> None:
        src_t = self.source.type
        _verify_offsets_sizes_strides(self, src_t.rank)
        expected = infer_extract_slice_type(src_t, self.static_sizes.values)
        _check_slice_type(self, expected, self.result.type)
        _verify_in_bounds(self, src_t.shape)

    def dropped_dims(self) -> list[int]:
        """The unit dims of the slice that the (rank-reduced) result type drops."""
        expected = infer_extract_slice_type(self.source.type, self.static_sizes.values)
        return rank_reduction_mask(expected.shape, self.result.type.shape) or []

    def fold(self, operand_attrs: list) -> Any:
        src = self.source
        if src.type is self.result.type and _is_full_slice(self, src.type.shape):
            return src
        return None


class InsertSliceOp(Op, InferTypeOpInterface):
    """A copy of `dest` with a strided slice replaced by `source` (value semantics).

    Offsets, sizes and strides are as in `tensor.extract_slice`, on the destination; the source
    is the slice's type or a rank-reduced version of it. The result has the type of `dest`.

        %inserted_slice = tensor.insert_slice %s into %t[0, %i] [4, 4] [1, 1]
            : tensor<4x4xf32> into tensor<8x?xf32>
    """

    name = "tensor.insert_slice"
    traits = (Pure,)
    source = operand(AnyRankedTensor)
    dest = operand(AnyRankedTensor)
    offsets = var_operand(Index)
    sizes = var_operand(Index)
    strides = var_operand(Index)
    static_offsets = prop(DenseI64ArrayAttr)
    static_sizes = prop(DenseI64ArrayAttr)
    static_strides = prop(DenseI64ArrayAttr)
    res = result(AnyRankedTensor)

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        return [operand_types[1]]

    @classmethod
    def of(
        cls,
        source: Value,
        dest: Value,
        offsets: Sequence[int | Value],
        sizes: Sequence[int | Value],
        strides: Sequence[int | Value],
        location: A.Location | None = None,
    ) -> InsertSliceOp:
        """An insertion from mixed lists (ints and `index` values)."""
        groups, attrs = _slice_state(offsets, sizes, strides)
        return cls.build([source, dest, *groups], None, attrs, location=location)  # type: ignore[return-value]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        src = parser.parse_operand()
        parser.parse_keyword("into")
        dst = parser.parse_operand()
        offs, sizes, strides, static = _parse_slice_lists(parser)
        parser.parse_optional_attr_dict(state.attributes)
        src_t = parser.parse_colon_type()
        parser.parse_keyword("into")
        dst_t = parser.parse_type()
        idx = A.index
        state.operands = [parser.resolve_operand(src, src_t), parser.resolve_operand(dst, dst_t)]
        for group in (offs, sizes, strides):
            state.operands += parser.resolve_operands(group, [idx] * len(group))
        state.attributes.update(
            static_offsets=i64_array(static[0]),
            static_sizes=i64_array(static[1]),
            static_strides=i64_array(static[2]),
            operandSegmentSizes=segments(1, 1, len(offs), len(sizes), len(strides)),
        )
        state.result_types = [dst_t]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.source)
        p.write(" into ")
        p.print_operand(self.dest)
        _print_slice_lists(p, self)
        p.print_op_attrs(self, _SLICE_PROPS)
        p.write(" : ")
        p.print_type(self.source.type)
        p.write(" into ")
        p.print_type(self.dest.type)

    def get_asm_result_names(self, set_name: Callable[[Value, str], None]) -> None:
        set_name(self.result, "inserted_slice")

    def verify_op(self) -> None:
        dst_t = self.dest.type
        if self.result.type is not dst_t:
            raise self.error("failed to verify that expected result type to match dest type")
        _verify_offsets_sizes_strides(self, dst_t.rank)
        expected = infer_extract_slice_type(dst_t, self.static_sizes.values)
        _check_slice_type(self, expected, self.source.type)
        _verify_in_bounds(self, dst_t.shape)

    def fold(self, operand_attrs: list) -> Any:
        src = self.source
        if src.type is self.result.type and _is_full_slice(self, src.type.shape):
            return src
        return None


# ---------------------------------------------------------------------------------------------
# Reshapes


class CollapseShapeOp(Op):
    """Merge groups of adjacent dimensions into one (a reshape without data movement).

    `reassociation` lists, for each result dimension, the contiguous source dimensions it
    merges; a static result dimension is the product of its group's sizes.

        %collapsed = tensor.collapse_shape %t [[0, 1], [2]]
            : tensor<4x8x?xf32> into tensor<32x?xf32>
    """

    name = "tensor.collapse_shape"
    traits = (Pure,)
    src = operand(AnyRankedTensor)
    reassociation = prop(ReassociationAttrC)
    res = result(AnyRankedTensor)

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        src = parser.parse_operand()
        state.attributes["reassociation"] = _parse_reassociation(parser)
        parser.parse_optional_attr_dict(state.attributes)
        src_t = parser.parse_colon_type()
        parser.parse_keyword("into")
        state.result_types = [parser.parse_type()]
        state.operands = [parser.resolve_operand(src, src_t)]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.src)
        p.write(" ")
        p.print_attribute(self.reassociation)
        p.print_op_attrs(self, ("reassociation",))
        p.write(" : ")
        p.print_type(self.src.type)
        p.write(" into ")
        p.print_type(self.result.type)

    def get_asm_result_names(self, set_name: Callable[[Value, str], None]) -> None:
        set_name(self.result, "collapsed")

    def verify_op(self) -> None:
        _verify_reshape(self, self.src.type, self.result.type)

    def reassociation_indices(self) -> list[list[int]]:
        """The groups as lists of source dimensions."""
        return _reassociation(self)

    def fold(self, operand_attrs: list) -> Any:
        if self.src.type is self.result.type:
            return self.src
        return _fold_reshape_pair(self, ExpandShapeOp)


def _parse_reassociation(parser: Any) -> A.ArrayAttr:
    groups: list[list[int]] = []

    def group() -> None:
        dims: list[int] = []
        parser.parse_comma_separated_list("square", lambda: dims.append(parser.parse_integer()))
        groups.append(dims)

    parser.parse_comma_separated_list("square", group)
    return reassociation_attr(groups)


class ExpandShapeOp(Op):
    """Split dimensions into groups of adjacent dimensions (a reshape without data movement).

    `reassociation` lists, for each source dimension, the result dimensions it becomes;
    `output_shape` gives the result shape as constants (`static_output_shape`) and `index`
    operands for its dynamic dimensions.

        %expanded = tensor.expand_shape %a [[0, 1]] output_shape [%d, 4]
            : tensor<?xf32> into tensor<?x4xf32>
    """

    name = "tensor.expand_shape"
    traits = (Pure,)
    src = operand(AnyRankedTensor)
    output_shape = var_operand(Index)
    reassociation = prop(ReassociationAttrC)
    static_output_shape = prop(DenseI64ArrayAttr)
    res = result(AnyRankedTensor)

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        src = parser.parse_operand()
        state.attributes["reassociation"] = _parse_reassociation(parser)
        parser.parse_keyword("output_shape")
        dyn, static = parse_dynamic_index_list(parser)
        state.attributes["static_output_shape"] = i64_array(static)
        parser.parse_optional_attr_dict(state.attributes)
        src_t = parser.parse_colon_type()
        parser.parse_keyword("into")
        state.result_types = [parser.parse_type()]
        state.operands = [parser.resolve_operand(src, src_t)]
        state.operands += parser.resolve_operands(dyn, [A.index] * len(dyn))

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.src)
        p.write(" ")
        p.print_attribute(self.reassociation)
        p.write(" output_shape ")
        print_dynamic_index_list(p, self.output_shape, self.static_output_shape.values)
        p.print_op_attrs(self, ("reassociation", "static_output_shape"))
        p.write(" : ")
        p.print_type(self.src.type)
        p.write(" into ")
        p.print_type(self.result.type)

    def get_asm_result_names(self, set_name: Callable[[Value, str], None]) -> None:
        set_name(self.result, "expanded")

    def verify_op(self) -> None:
        res_t = self.result.type
        static = self.static_output_shape.values
        if len(static) != res_t.rank:
            raise self.error(
                "expected number of static shape dims to be equal to the output rank "
                f"({res_t.rank}) but found {len(static)} inputs instead"
            )
        n_dyn = len(self._operands) - 1
        if n_dyn != res_t.num_dynamic_dims():
            raise _dynamic_count_error(self, n_dyn, res_t.num_dynamic_dims())
        n_sentinels = static.count(DYNAMIC_INDEX)
        if n_sentinels != n_dyn:
            raise self.error(
                "mismatch in dynamic dims in output_shape and static_output_shape: "
                f"static_output_shape has {n_sentinels} dynamic dims while output_shape has "
                f"{n_dyn} values"
            )
        for i, (s, d) in enumerate(zip(static, res_t.shape)):
            if d != A.DYNAMIC and s != d:
                raise self.error(f"invalid output shape provided at pos {i}")
        _verify_reshape(self, res_t, self.src.type)

    def reassociation_indices(self) -> list[list[int]]:
        """The groups as lists of result dimensions."""
        return _reassociation(self)

    def fold(self, operand_attrs: list) -> Any:
        if self.src.type is self.result.type:
            return self.src
        return _fold_reshape_pair(self, CollapseShapeOp)


# ---------------------------------------------------------------------------------------------
# Padding

_ONE_BLOCK_MESSAGE = "region #0 ('region') failed to verify constraint: region with 1 blocks"


class PadOp(Op):
    """Pad a tensor with `low`/`high` elements per dimension, computed by a region.

    The region takes one `index` per dimension (the position in the result) and yields the
    padding value with `tensor.yield`. Low and high amounts mix constants (`static_low`,
    `static_high`) and `index` operands; `nofold` keeps a no-op pad from folding away.

        %padded = tensor.pad %t low[1, 2] high[%h, 0] {
        ^bb0(%i: index, %j: index):
          tensor.yield %cst : f32
        } : tensor<?x?xf32> to tensor<?x?xf32>
    """

    name = "tensor.pad"
    traits = (Pure, SingleBlock)
    source = operand(AnyRankedTensor)
    low = var_operand(Index)
    high = var_operand(Index)
    static_low = prop(DenseI64ArrayAttr)
    static_high = prop(DenseI64ArrayAttr)
    nofold = opt_prop(UnitAttrC)
    pad_region = region()
    res = result(AnyRankedTensor)

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        src = parser.parse_operand()
        if parser.parse_optional_keyword("nofold"):
            state.attributes["nofold"] = A.UnitAttr()
        parser.parse_keyword("low")
        low, s_low = parse_dynamic_index_list(parser)
        parser.parse_keyword("high")
        high, s_high = parse_dynamic_index_list(parser)
        state.regions = [parser.parse_region()]
        parser.parse_optional_attr_dict(state.attributes)
        src_t = parser.parse_colon_type()
        parser.parse_keyword("to")
        state.result_types = [parser.parse_type()]
        state.operands = [parser.resolve_operand(src, src_t)]
        state.operands += parser.resolve_operands(low, [A.index] * len(low))
        state.operands += parser.resolve_operands(high, [A.index] * len(high))
        state.attributes.update(
            static_low=i64_array(s_low),
            static_high=i64_array(s_high),
            operandSegmentSizes=segments(1, len(low), len(high)),
        )

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.source)
        if self.nofold is not None:
            p.write(" nofold")
        p.write(" low")
        print_dynamic_index_list(p, self.low, self.static_low.values)
        p.write(" high")
        print_dynamic_index_list(p, self.high, self.static_high.values)
        p.write(" ")
        p.print_region(self.pad_region)
        p.print_op_attrs(self, (_SEGMENTS, "static_low", "static_high", "nofold"))
        p.write(" : ")
        p.print_type(self.source.type)
        p.write(" to ")
        p.print_type(self.result.type)

    def get_asm_result_names(self, set_name: Callable[[Value, str], None]) -> None:
        set_name(self.result, "padded")

    @staticmethod
    def infer_result_shape(
        source_type: A.RankedTensorType,
        static_low: Sequence[int],
        static_high: Sequence[int],
        hint: Sequence[int] = (),
    ) -> list[int] | None:
        """Each dim is source + low + high when all three are static, else `hint`'s dim (or
        dynamic), as static entries (`DYNAMIC_INDEX` for dynamic: negative padding can give a
        negative dim, even -1); None when the lists do not match the rank."""
        rank = source_type.rank
        if len(static_low) != rank or len(static_high) != rank:
            return None
        shape = []
        for i, (d, lo, hi) in enumerate(zip(source_type.shape, static_low, static_high)):
            if d == A.DYNAMIC or lo == DYNAMIC_INDEX or hi == DYNAMIC_INDEX:
                shape.append(to_static_entry(hint[i]) if len(hint) == rank else DYNAMIC_INDEX)
            else:
                shape.append(d + lo + hi)
        return shape

    @classmethod
    def infer_result_type(
        cls,
        source_type: A.RankedTensorType,
        static_low: Sequence[int],
        static_high: Sequence[int],
        hint: Sequence[int] = (),
    ) -> A.RankedTensorType | None:
        """The padded type (None when the lists do not match the rank or a dim is negative)."""
        shape = cls.infer_result_shape(source_type, static_low, static_high, hint)
        if shape is None or any(d < 0 and d != DYNAMIC_INDEX for d in shape):
            return None
        return A.RankedTensorType([to_shape_dim(d) for d in shape], source_type.element_type)

    def verify_op(self) -> None:
        src_t, res_t = self.source.type, self.result.type
        s_low, s_high = self.static_low.values, self.static_high.values
        for name, static, values in (("low", s_low, self.low), ("high", s_high, self.high)):
            n_dyn = static.count(DYNAMIC_INDEX)
            if n_dyn != len(values):
                raise self.error(
                    f"expected the number of '{name}' operands to match the number of dynamic "
                    f"entries in 'static_{name}' ({len(values)} vs {n_dyn})"
                )
        shape = self.infer_result_shape(src_t, s_low, s_high, res_t.shape)
        if shape is None:
            raise self.error(
                f"failed to infer expectedType from sourceType '{src_t}', specified resultType "
                f"is '{res_t}'"
            )
        if (
            res_t.rank != len(shape)
            or res_t.element_type is not src_t.element_type
            or any(
                to_static_entry(r) != e and e != DYNAMIC_INDEX for r, e in zip(res_t.shape, shape)
            )
        ):
            # Spelled out: negative padding can give a negative dim, which no type can hold.
            dims = "".join(("?" if d == DYNAMIC_INDEX else str(d)) + "x" for d in shape)
            raise self.error(
                f"specified type '{res_t}' does not match the inferred type "
                f"'tensor<{dims}{src_t.element_type}>'"
            )
        blocks = self.pad_region.blocks
        if len(blocks) != 1:
            raise self.error(_ONE_BLOCK_MESSAGE)
        block = blocks[0]
        if len(block.arguments) != src_t.rank:
            raise self.error(f"expected the block to have {src_t.rank} arguments")
        for i, arg in enumerate(block.arguments):
            if arg.type is not A.index:
                raise self.error(f"expected block argument {i + 1} to be an index")

    def verify_regions(self) -> None:
        term = self.pad_region.blocks[0].last
        if type(term) is not YieldOp:
            found = "nothing" if term is None else f"'{term.name}'"
            raise self.error(f"expects regions to end with 'tensor.yield', found {found}")
        types = [v.type for v in term.operands]
        if types != [self.result.type.element_type]:
            raise self.error("expected yield type to match shape element type")

    def padding_value(self) -> Value | None:
        """The yielded value when it is defined outside the region (a constant pad), else None."""
        term = self.pad_region.blocks[0].last
        if type(term) is not YieldOp or len(term.operands) != 1:
            return None
        v = term.operand(0)
        if v.parent_block() is self.pad_region.blocks[0]:
            return None
        return v

    def fold(self, operand_attrs: list) -> Any:
        if self.nofold is not None or self.low or self.high:
            return None
        t = self.result.type
        if t is not self.source.type or not t.has_static_shape():
            return None
        if any(self.static_low.values) or any(self.static_high.values):
            return None
        return self.source


# ---------------------------------------------------------------------------------------------
# The structured op: tensor.generic

PARALLEL, REDUCTION = "parallel", "reduction"
_GENERIC_PROPS = ("doc", "indexing_maps", "iterator_types", "library_call")
_TensorOrMemRef = Constraint(
    lambda t: type(t) is A.RankedTensorType or type(t) is A.MemRefType, "ranked tensor or memref"
)


class GenericOp(Op, MemoryEffectsOpInterface, ConditionallySpeculatable):
    """A structured computation over an iteration space on tensors or buffers (linalg.generic).

    Each loop of the iteration space is `parallel` or `reduction` (`iterator_types`); each
    input and output has an affine `indexing_maps` entry from the loop indices to its element
    indices. The body takes one scalar per input and per output (the current output value) and
    yields the new output values with `tensor.yield`; the results are the updated outputs. Loop
    sizes are inferred from the operand shapes through map results that are bare loop indices.

        %0 = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                              affine_map<(d0, d1) -> (d0)>],
                             iterator_types = ["parallel", "reduction"]}
            ins(%a : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
        ^bb0(%in: f32, %out: f32):
          %1 = arith.addf %in, %out : f32
          tensor.yield %1 : f32
        } -> tensor<4xf32>

    The buffer form (what `bufferize` produces, like linalg.generic on buffers) has memref
    operands only and no results: the body's yielded values are stored into the outputs in
    place, the inputs are read. It has memory effects (reads of the inputs, reads and writes of
    the outputs); `convert-tensor-to-affine` turns it into a loop nest.

        tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                         affine_map<(d0, d1) -> (d0)>],
                        iterator_types = ["parallel", "reduction"]}
            ins(%a : memref<4x8xf32>) outs(%acc : memref<4xf32>) {
        ^bb0(%in: f32, %out: f32):
          %1 = arith.addf %in, %out : f32
          tensor.yield %1 : f32
        }
    """

    name = "tensor.generic"
    traits = (RecursiveMemoryEffects, SingleBlock)
    inputs = var_operand(_TensorOrMemRef)
    outputs = var_operand(_TensorOrMemRef)
    indexing_maps = prop(
        Constraint(
            lambda a: type(a) is A.ArrayAttr and all(type(m) is A.AffineMapAttr for m in a),
            "AffineMap array attribute",
        )
    )
    iterator_types = prop(
        Constraint(
            lambda a: type(a) is A.ArrayAttr and all(type(s) is A.StringAttr for s in a),
            "array of iterator type strings",
        )
    )
    doc = opt_prop(StrAttr)
    library_call = opt_prop(StrAttr)
    body_region = region()
    result_tensors = var_result(AnyRankedTensor)

    @classmethod
    def of(
        cls,
        inputs: Sequence[Value],
        outputs: Sequence[Value],
        indexing_maps: Sequence[AffineMap],
        iterator_types: Sequence[str],
        body: Callable[[Block], Sequence[Value]],
        location: A.Location | None = None,
        **attributes: A.Attribute,
    ) -> GenericOp:
        """A generic op whose body `body(block)` fills (the block has one argument per input
        and output, of their element types) and returns the values to yield."""
        block = Block([v.type.element_type for v in (*inputs, *outputs)])  # type: ignore[attr-defined]
        yielded = body(block)
        block.append(YieldOp.create(list(yielded), [], location=location))
        attrs: dict[str, A.Attribute] = {
            "indexing_maps": A.ArrayAttr([A.AffineMapAttr(m) for m in indexing_maps]),
            "iterator_types": A.ArrayAttr([A.StringAttr(k) for k in iterator_types]),
            **attributes,
        }
        return cls.build(  # type: ignore[return-value]
            [list(inputs), list(outputs)],
            [[v.type for v in outputs if type(v.type) is A.RankedTensorType]],
            attrs,
            regions=[Region([block])],
            location=location,
        )

    # -- semantics: tensors (values) or buffers (memrefs written in place) ----------------------

    @property
    def has_buffer_semantics(self) -> bool:
        """True for the buffer form: every operand a memref, no results."""
        ops = self._operands
        return bool(ops) and all(type(u.value.type) is A.MemRefType for u in ops)

    def get_effects(self) -> list[EffectInstance]:
        """Buffer form: reads of the inputs, reads and writes of the outputs (plus the body's
        effects); tensor form: only the body's effects (none for arith/math bodies)."""
        effects: list[EffectInstance] = []
        for child in self.regions[0].blocks[0] if self.regions[0].blocks else ():
            sub = get_effects(child)
            if sub is None:
                return [EffectInstance(READ), EffectInstance(WRITE)]
            effects.extend(sub)
        n_in = len(self.inputs)
        for i, u in enumerate(self._operands):
            v = u.value
            if type(v.type) is A.MemRefType:
                effects.append(EffectInstance(READ, v))
                if i >= n_in:
                    effects.append(EffectInstance(WRITE, v))
        return effects

    def is_speculatable(self) -> bool:
        """The tensor form is pure (hoistable); the buffer form writes memory."""
        return not any(type(u.value.type) is A.MemRefType for u in self._operands)

    # -- accessors used by lowering, fusion and the interpreter ---------------------------------

    @property
    def body(self) -> Block:
        """The single block of the body region."""
        return self.regions[0].blocks[0]

    @property
    def num_loops(self) -> int:
        return len(self.iterator_types)

    def iterator_kinds(self) -> list[str]:
        """`parallel`/`reduction` per loop."""
        return [s.value for s in self.iterator_types]

    def is_reduction(self, d: int) -> bool:
        """Whether loop `d` is a reduction loop."""
        return self.iterator_types[d].value == REDUCTION

    def indexing_map_list(self) -> list[AffineMap]:
        """One map per operand (inputs, then outputs)."""
        return [m.value for m in self.indexing_maps]

    def input_maps(self) -> list[AffineMap]:
        return self.indexing_map_list()[: len(self.inputs)]

    def output_maps(self) -> list[AffineMap]:
        return self.indexing_map_list()[len(self.inputs) :]

    def _loop_sources(self) -> list[list[tuple[int, int, int]]]:
        """For each loop: the (operand index, dim, static size or DYNAMIC) that index it bare."""
        sources: list[list[tuple[int, int, int]]] = [[] for _ in range(self.num_loops)]
        for k, (v, m) in enumerate(zip(self.operands, self.indexing_maps)):
            shape = v.type.shape
            for dim, e in enumerate(m.value.results):
                if type(e) is AffineDimExpr and e.position < len(sources) and dim < len(shape):
                    sources[e.position].append((k, dim, shape[dim]))
        return sources

    def loop_sizes(self) -> list[int]:
        """The static size of each loop (`A.DYNAMIC` when only dynamic dims define it)."""
        sizes = []
        for srcs in self._loop_sources():
            static = [s for _, _, s in srcs if s != A.DYNAMIC]
            sizes.append(static[0] if static else A.DYNAMIC)
        return sizes

    def shape_to_loops(self) -> list[tuple[int, int]]:
        """For each loop, an (operand index, dim) whose size is the loop's (static ones first)."""
        result: list[tuple[int, int]] = []
        for d, srcs in enumerate(self._loop_sources()):
            if not srcs:
                raise ValueError(f"loop d{d} has no operand dimension that defines its size")
            static = [s for s in srcs if s[2] != A.DYNAMIC]
            k, dim, _ = (static or srcs)[0]
            result.append((k, dim))
        return result

    # -- syntax -------------------------------------------------------------------------------

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        attrs = state.attributes
        parser.parse_optional_attr_dict(attrs)
        groups: list[list[Value]] = []
        for kw in ("ins", "outs"):
            values: list[Value] = []
            if parser.parse_optional_keyword(kw):
                parser.parse_punct("(")
                names = parser.parse_operand_list()
                parser.parse_punct(":")
                pos = parser.pos()
                types = parser.parse_type_list()
                parser.parse_punct(")")
                values = parser.resolve_operands(names, types, pos)
            groups.append(values)
        if parser.parse_optional_keyword("attrs"):
            parser.parse_punct("=")
            parser.parse_optional_attr_dict(attrs)
        state.regions = [parser.parse_region()]
        state.result_types = parser.parse_optional_arrow_type_list() or []
        state.operands = groups[0] + groups[1]
        attrs[_SEGMENTS] = segments(len(groups[0]), len(groups[1]))

    def print_asm(self, p: Any) -> None:
        attrs = self._attrs or {}
        p.print_attr_dict({k: attrs[k] for k in _GENERIC_PROPS if k in attrs})
        for kw, values in (("ins", self.inputs), ("outs", self.outputs)):
            if values:
                p.write(f" {kw}(")
                p.print_operands(values)
                p.write(" : ")
                p.print_types([v.type for v in values])
                p.write(")")
        rest = {k: v for k, v in attrs.items() if k not in _GENERIC_PROPS and k != _SEGMENTS}
        if rest:
            p.write(" attrs =")
            p.print_attr_dict(rest)
        p.write(" ")
        p.print_region(self.regions[0])
        p.print_optional_arrow_type_list([r.type for r in self.results])

    def get_asm_block_argument_names(
        self, region: Region, set_name: Callable[[Value, str], None]
    ) -> None:
        if not region.blocks:
            return
        n_in = len(self.inputs)
        for i, arg in enumerate(region.blocks[0].arguments):
            set_name(arg, "in" if i < n_in else "out")

    # -- verification -------------------------------------------------------------------------

    def verify_op(self) -> None:
        ins, outs = self.inputs, self.outputs
        operands = list(ins) + list(outs)
        maps = self.indexing_map_list()
        if len(maps) != len(operands):
            raise self.error(
                f"expected the number of indexing_map ({len(maps)}) to be equal to the number "
                f"of input/output operands ({len(operands)})"
            )
        kinds = self.iterator_kinds()
        for k in kinds:
            if k not in (PARALLEL, REDUCTION):
                raise self.error(
                    f"unexpected iterator_type \"{k}\" (expected 'parallel' or 'reduction')"
                )
        memrefs = [type(v.type) is A.MemRefType for v in operands]
        if any(memrefs) and not all(memrefs):
            raise self.error(
                "expected all input/output operands to be tensors or all to be memrefs (mixed "
                "tensor and buffer semantics is not supported)"
            )
        n_loops = len(kinds)
        for i, (m, v) in enumerate(zip(maps, operands)):
            if m.num_symbols != 0:
                raise self.error(f"unexpected symbols in indexing_map #{i}")
            if m.num_dims != n_loops:
                raise self.error(
                    f"expected indexing_map #{i} to have {n_loops} dim(s) to match the number "
                    "of loops"
                )
            if m.num_results != v.type.rank:
                raise self.error(
                    f"expected operand #{i} rank ({v.type.rank}) to match the result rank of "
                    f"indexing_map ({m.num_results})"
                )
        for j, m in enumerate(maps[len(ins) :]):
            i = len(ins) + j
            if not m.is_projected_permutation():
                raise self.error(
                    f"expected indexing_map #{i} (output) to be a projected permutation"
                )
            for e in m.results:
                if kinds[e.position] == REDUCTION:
                    raise self.error(
                        f"expected indexing_map #{i} (output) not to use reduction loop "
                        f"d{e.position}"
                    )
        results = self.results
        tensor_outs = [o for o in outs if type(o.type) is A.RankedTensorType]
        if len(results) != len(tensor_outs):
            raise self.error(
                f"expected the number of tensor results ({len(results)}) to be equal to the "
                f"number of output tensors ({len(tensor_outs)})"
            )
        for i, (r, o) in enumerate(zip(results, tensor_outs)):
            if r.type is not o.type:
                raise self.error(
                    f"expected type of operand #{len(ins) + i} ('{o.type}') to match type of "
                    f"corresponding result ('{r.type}')"
                )
        self._verify_block(operands)
        self._verify_loop_sizes()

    def _verify_block(self, operands: list[Value]) -> None:
        blocks = self.regions[0].blocks
        if len(blocks) != 1:
            raise self.error(_ONE_BLOCK_MESSAGE)
        args = blocks[0].arguments
        if len(args) != len(operands):
            raise self.error(
                "expected as many non-induction variable region arguments as the number of "
                f"input/output operands ({len(args)} vs {len(operands)})"
            )
        for i, (a, v) in enumerate(zip(args, operands)):
            et = v.type.element_type
            if a.type is not et:
                raise self.error(
                    f"expected type of bb argument #{i} ('{a.type}') to match element type of "
                    f"the corresponding operand ('{et}')"
                )

    def _verify_loop_sizes(self) -> None:
        for d, srcs in enumerate(self._loop_sources()):
            if not srcs:
                raise self.error(f"loop d{d} has no operand dimension that defines its size")
            first = None
            for k, dim, size in srcs:
                if size == A.DYNAMIC:
                    continue
                if first is None:
                    first = (k, dim, size)
                elif size != first[2]:
                    raise self.error(
                        f"loop d{d} has inconsistent sizes: {first[2]} from operand #{first[0]} "
                        f"dim {first[1]} and {size} from operand #{k} dim {dim}"
                    )
        self._verify_access_bounds()

    def _verify_access_bounds(self) -> None:
        """Results that are not bare loop indices (`d0 + d1`) must stay inside static dims,
        checked at the first and last iteration as linalg does (exact for monotone maps)."""
        sizes = self.loop_sizes()
        for k, (v, m) in enumerate(zip(self.operands, self.indexing_maps)):
            shape = v.type.shape
            for j, e in enumerate(m.value.results):
                if type(e) is AffineDimExpr or shape[j] == A.DYNAMIC:
                    continue
                used = [d for d in range(len(sizes)) if e.is_function_of_dim(d)]
                if any(sizes[d] == A.DYNAMIC or sizes[d] == 0 for d in used):
                    continue
                start = e.evaluate([0] * len(sizes))
                end = e.evaluate([max(s, 1) - 1 for s in sizes])
                inferred = max(start, end) + 1
                if shape[j] < inferred:
                    raise self.error(
                        f"inferred input/output operand #{k} has shape's dimension #{j} to be "
                        f"greater than or equal to {inferred}, but found {shape[j]}"
                    )


# ---------------------------------------------------------------------------------------------
# The terminator


class YieldOp(Op):
    """Yield values from the body of `tensor.generic` (one per output) or `tensor.pad`.

    In `tensor.generic` the values are the new output elements (the outputs' element types);
    in `tensor.pad` the single value is the padding element.

        tensor.yield %v : f32
    """

    name = "tensor.yield"
    traits = (Pure, Terminator, has_parent("tensor.generic", "tensor.pad"))
    values = var_operand(AnyType)

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        names = parser.parse_operand_list()
        parser.parse_optional_attr_dict(state.attributes)
        types = parser.parse_colon_type_list() if names else []
        state.operands = parser.resolve_operands(names, types)

    def print_asm(self, p: Any) -> None:
        values = self.operands
        if values:
            p.write(" ")
            p.print_operands(values)
        p.print_op_attrs(self)
        if values:
            p.write(" : ")
            p.print_types([v.type for v in values])

    def verify_op(self) -> None:
        parent = self.parent_op
        if type(parent) is not GenericOp:
            return
        outs = parent.outputs
        if len(self._operands) != len(outs):
            raise self.error(
                f"expected number of yield values ({len(self._operands)}) to match the number "
                f"of outputs of the enclosing 'tensor.generic' ({len(outs)})"
            )
        for i, (v, o) in enumerate(zip(self.operands, outs)):
            et = o.type.element_type
            if v.type is not et:
                raise self.error(
                    f"type of yield operand #{i} ('{v.type}') does not match the element type "
                    f"of output #{i} ('{et}')"
                )


def materialize_constant(
    value: A.Attribute, result_type: A.Type, location: A.Location | None = None
) -> Operation | None:
    """Folded tensor ops (tensor.dim, tensor.splat, tensor.extract) materialize arith constants."""
    from mlc.dialects import arith

    return arith.materialize_constant(value, result_type, location)


DIALECT = Dialect(
    "tensor",
    ops=[
        EmptyOp, DimOp, CastOp, SplatOp, ExtractOp, InsertOp, ExtractSliceOp, InsertSliceOp,
        CollapseShapeOp, ExpandShapeOp, PadOp, GenericOp, YieldOp,
    ],
    materialize_constant=materialize_constant,
)  # fmt: skip
