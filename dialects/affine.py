"""The `affine` dialect: loops (`affine.for`, `affine.parallel`), conditionals (`affine.if`) and
memory accesses whose indices are affine maps of loop induction variables and symbols, with
MLIR's properties, custom syntax, verifiers, folders and canonicalizations.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mlc.dialects import affine_analysis as AA
from mlc.dialects import affine_syntax as S
from mlc.dialects.arith import ATOMIC_RMW_KINDS, AtomicRMWKindAttr, atomic_rmw_kind_matches
from mlc.dialects.arith import materialize_constant as _arith_materialize

from mlc.interfaces import (
    READ,
    WRITE,
    ConditionallySpeculatable,
    EffectInstance,
    LoopLikeOpInterface,
    MemoryEffectsOpInterface,
)
from mlc.ir import attributes as A
from mlc.ir.affine import (
    AffineConstantExpr,
    AffineDimExpr,
    AffineMap,
    AffineSymbolExpr,
    IntegerSet,
    const,
    dim,
    sym,
)
from mlc.ir.context import Dialect
from mlc.ir.core import Block, Operation, Region, Value
from mlc.ir.opdef import (
    AffineMapAttrC,
    AnyMemRef,
    AnyType,
    AnyVector,
    AttrSizedOperandSegments,
    Constraint,
    Index,
    IntegerSetAttrC,
    Op,
    OperationState,
    Pure,
    RecursiveMemoryEffects,
    ReturnLike,
    Terminator,
    operand,
    prop,
    region,
    result,
    single_block_implicit_terminator,
    var_operand,
    var_result,
)
from mlc.rewrite.pattern import PatternRewriter

_ONE = A.IntegerAttr(1, A.index)
_IMPLICIT_YIELD = single_block_implicit_terminator("affine.yield")

I32TensorAttrC = Constraint(
    lambda a: (
        type(a) is A.DenseElementsAttr
        and type(a.type) is A.RankedTensorType
        and a.type.element_type is A.i32
        and len(a.type.shape) == 1
    ),
    "32-bit signless integer elements attribute",
)
I64ArrayAttrC = Constraint(
    lambda a: (
        type(a) is A.ArrayAttr
        and all(type(x) is A.IntegerAttr and x.type is A.i64 for x in a.value)
    ),
    "64-bit integer array attribute",
)
ReductionsAttrC = Constraint(
    lambda a: (
        type(a) is A.ArrayAttr and all(AtomicRMWKindAttr.name_of(x) is not None for x in a.value)
    ),
    "Reduction ops",
)
IndexAttrC = Constraint(lambda a: type(a) is A.IntegerAttr and a.type is A.index, "index attribute")


def _i32_tensor(values: Sequence[int]) -> A.DenseElementsAttr:
    return A.DenseElementsAttr(A.RankedTensorType([len(values)], A.i32), list(values))


def _groups(attr: A.DenseElementsAttr) -> list[int]:
    return [int(x) for x in attr.array.reshape(-1)]


def _q(t: A.Type) -> str:
    return f"'{t}'"


# Custom forms elide an operand-less affine.yield, as MLIR does, except when printing debug info:
# a re-parsed implicit yield would get the parent's location, so it is printed with its own.


def _yield_builder(location: A.Location | None) -> Callable[[], Operation]:
    return lambda: YieldOp.create((), (), None, location=location)


def _replace_map_and_operands(
    op: Operation, rewriter: PatternRewriter, amap: AffineMap, operands: list[Value], first: int
) -> None:
    """Give `op` a new map and map operands (after its first `first` operands), in place."""

    def change() -> None:
        op.set_attr("map", A.AffineMapAttr(amap))
        op.set_operands([u.value for u in op._operands[:first]] + operands)

    old = [u.value for u in op._operands[first:]]
    rewriter.modify_op_in_place(op, change)
    notify_dropped(rewriter, old, operands)


def notify_dropped(rewriter: PatternRewriter, old: Sequence[Value], new: Sequence[Value]) -> None:
    """Tell the rewriter's listener about producers of operands an op no longer uses (they
    may now be dead), as MLIR's driver learns from an op's replacement."""
    kept = set(new)
    for v in old:
        d = v.defining_op()
        if d is not None and v not in kept and d.parent is not None:
            rewriter.listener.notify_op_modified(d)


def _simplify_map_operands(op: Operation, rewriter: PatternRewriter, first: int) -> bool:
    """MLIR's SimplifyAffineOp: compose producing affine.apply ops into the op's map and
    canonicalize the map with its operands."""
    amap = op.get_attr("map").value  # type: ignore[union-attr]
    old = [u.value for u in op._operands[first:]]
    new_map, new_ops = AA.compose_map_and_operands(amap, old)
    if new_map is amap and len(new_ops) == len(old) and all(a is b for a, b in zip(new_ops, old)):
        return False
    _replace_map_and_operands(op, rewriter, new_map, new_ops, first)
    return True


# ---------------------------------------------------------------------------------------------
# affine.apply, affine.min, affine.max


class ApplyOp(Op):
    """Apply a single-result affine map to dim and symbol operands.

    The result is the map's expression evaluated on the operands (dims in parentheses, symbols
    in square brackets); it folds when all operands are constants or the map is a lone dim or
    symbol, and canonicalization composes producing affine.apply ops into its map.

        %1 = affine.apply affine_map<(d0)[s0] -> (d0 * 4 + s0)>(%i)[%n]
    """

    name = "affine.apply"
    traits = (Pure,)
    map = prop(AffineMapAttrC)
    mapOperands = var_operand(Index)  # noqa: N815 - MLIR's name
    res = result(Index)

    @classmethod
    def build_apply(
        cls, amap: AffineMap, operands: Sequence[Value], location: A.Location | None = None
    ) -> ApplyOp:
        """`affine.apply amap(operands)`."""
        attrs = {"map": A.AffineMapAttr(amap)}
        return cls.create(list(operands), [A.index], attrs, location=location)  # type: ignore[return-value]

    @property
    def affine_map(self) -> AffineMap:
        return self.get_attr("map").value  # type: ignore[union-attr, no-any-return]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        amap, operands = S.parse_map_and_operands(parser)
        parser.parse_optional_attr_dict(state.attributes)
        state.attributes["map"] = A.AffineMapAttr(amap)
        state.operands = operands
        state.result_types = [A.index] * amap.num_results

    def print_asm(self, p: Any) -> None:
        S.print_map_and_operands(p, self.affine_map, self.operands)
        p.print_op_attrs(self, elided=("map",))

    def verify_op(self) -> None:
        amap = self.affine_map
        if len(self._operands) != amap.num_inputs:
            raise self.error("operand count and affine map dimension and symbol count must match")
        if amap.num_results != 1:
            raise self.error("mapping must produce one value")
        scope = AA.affine_scope(self)
        for u in self._operands[amap.num_dims :]:
            v = u.value
            if AA.is_valid_dim(v, scope) and not AA.is_valid_symbol(v, scope):
                raise _plain_error(self, "dimensional operand cannot be used as a symbol")

    def fold(self, operand_attrs: list) -> Any:
        amap = self.affine_map
        e = amap.results[0]
        if type(e) is AffineDimExpr:
            return self.operand(e.position)
        if type(e) is AffineSymbolExpr:
            return self.operand(amap.num_dims + e.position)
        values = [a.value if type(a) is A.IntegerAttr else None for a in operand_attrs]
        folded = AA.fold_map(amap, values)[0]
        return None if folded is None else A.IntegerAttr(folded, A.index)

    def canonicalize(self, rewriter: PatternRewriter) -> bool:
        return _simplify_map_operands(self, rewriter, 0)


def _plain_error(op: Operation, message: str) -> Exception:
    """An error at the op's location without the `'op' op` prefix (MLIR's emitError)."""
    from mlc.diagnostics import Diagnostic, VerifyError

    return VerifyError(Diagnostic("error", message, op.location))


class _MinMaxOp(Op):
    """Base of affine.min / affine.max: `map(operands)` reduced by `_pick`."""

    traits = (Pure,)
    map = prop(AffineMapAttrC)
    mapOperands = var_operand(Index)  # noqa: N815
    res = result(Index)
    _pick: Callable[[list[int]], int] = min

    @classmethod
    def build_minmax(
        cls, amap: AffineMap, operands: Sequence[Value], location: A.Location | None = None
    ) -> Operation:
        return cls.create(
            list(operands), [A.index], {"map": A.AffineMapAttr(amap)}, location=location
        )

    @property
    def affine_map(self) -> AffineMap:
        return self.get_attr("map").value  # type: ignore[union-attr, no-any-return]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        pos = parser.pos()
        attr = parser.parse_attribute()
        if type(attr) is not A.AffineMapAttr:
            raise parser.error("invalid kind of attribute specified", pos)
        operands, _ = S.parse_dim_and_symbol_list(parser)
        parser.parse_optional_attr_dict(state.attributes)
        state.attributes["map"] = attr
        state.operands = S.resolve_indices(parser, operands)
        state.result_types = [A.index]

    def print_asm(self, p: Any) -> None:
        S.print_map_and_operands(p, self.affine_map, self.operands)
        p.print_op_attrs(self, elided=("map",))

    def verify_op(self) -> None:
        amap = self.affine_map
        if len(self._operands) != amap.num_inputs:
            raise self.error("operand count and affine map dimension and symbol count must match")
        if amap.num_results == 0:
            raise self.error("affine map expect at least one result")

    def fold(self, operand_attrs: list) -> Any:
        amap = self.affine_map
        values = [a.value if type(a) is A.IntegerAttr else None for a in operand_attrs]
        folded = AA.fold_map(amap, values)
        if all(v is not None for v in folded):
            return A.IntegerAttr(type(self)._pick(folded), A.index)  # type: ignore[arg-type]
        if amap.num_results == 1:
            e = amap.results[0]
            if type(e) is AffineSymbolExpr:
                return self.operand(amap.num_dims + e.position)
            if type(e) is AffineDimExpr:
                return self.operand(e.position)
        return None

    def canonicalize(self, rewriter: PatternRewriter) -> bool:
        """Compose producing affine.apply ops, canonicalize operands, drop duplicate results."""
        amap = self.affine_map
        old = self.operands
        new_map, new_ops = AA.canonicalize_map_and_operands(amap, old)
        new_map, new_ops = _compose_each_result(new_map, new_ops)
        seen: list[Any] = []
        for e in new_map.results:
            if e not in seen:
                seen.append(e)
        new_map = AffineMap(new_map.num_dims, new_map.num_symbols, seen)
        if new_map is amap and list(new_ops) == list(old):
            return False
        _replace_map_and_operands(self, rewriter, new_map, new_ops, 0)
        return True


def _compose_each_result(amap: AffineMap, operands: list[Value]) -> tuple[AffineMap, list[Value]]:
    """Compose apply producers into a multi-result map (per result, then merged)."""
    if not any(AA._apply_producer(v) is not None for v in operands):
        return amap, operands
    dims: list[Value] = []
    syms: list[Value] = []
    exprs = []
    for i in range(amap.num_results):
        sub, sub_ops = AA.compose_map_and_operands(amap.get_sub_map([i]), operands)
        nd = sub.num_dims
        shifted = sub.replace_dims_and_symbols(
            [dim(len(dims) + k) for k in range(nd)],
            [sym(len(syms) + k) for k in range(sub.num_symbols)],
            len(dims) + nd,
            len(syms) + sub.num_symbols,
        )
        dims.extend(sub_ops[:nd])
        syms.extend(sub_ops[nd:])
        exprs.append(shifted.results[0])
    merged = AffineMap(len(dims), len(syms), exprs)
    return AA.canonicalize_map_and_operands(merged, dims + syms)


class MinOp(_MinMaxOp):
    """The minimum of the results of an affine map applied to dim and symbol operands.

    Folds to a constant when every result is constant, and to its operand when the map is a
    lone dim or symbol; canonicalization composes affine.apply producers and drops duplicate
    results.

        %0 = affine.min affine_map<(d0)[s0] -> (1000, d0 + 512, s0)>(%i)[%n]
    """

    name = "affine.min"
    _pick = min
    canonicalize = _MinMaxOp.canonicalize


class MaxOp(_MinMaxOp):
    """The maximum of the results of an affine map applied to dim and symbol operands.

    Folds and canonicalizes like affine.min.

        %0 = affine.max affine_map<(d0)[s0] -> (0, d0 - s0)>(%i)[%n]
    """

    name = "affine.max"
    _pick = max
    canonicalize = _MinMaxOp.canonicalize


# ---------------------------------------------------------------------------------------------
# Memory accesses


def _memref_type(parser: Any, pos: int) -> A.MemRefType:
    t = parser.parse_type()
    if type(t) is not A.MemRefType:
        raise parser.error(
            f"invalid kind of type specified: expected builtin.memref, but found '{t}'", pos
        )
    return t  # type: ignore[no-any-return]


def _verify_indexing(op: Operation, amap: AffineMap, indices: Sequence[Value], mt: Any) -> None:
    """Checks shared by load/store/vector_load/vector_store (MLIR's verifyMemoryOpIndexing)."""
    if type(mt) is not A.MemRefType:
        raise op.error(f"operand must be memref of any type values, but got {_q(mt)}")
    if amap.num_results != len(mt.shape):
        raise op.error("affine map num results must equal memref rank")
    if amap.num_inputs != len(indices):
        raise op.error("expects as many subscripts as affine map inputs")
    scope = AA.affine_scope(op)
    for i, v in enumerate(indices):
        if i < amap.num_dims:
            if not AA.is_valid_dim(v, scope):
                raise op.error("operand cannot be used as a dimension id")
        elif not AA.is_valid_symbol(v, scope):
            raise op.error("operand cannot be used as a symbol")


def _identity_for(memref: Value) -> AffineMap:
    t = memref.type
    if type(t) is not A.MemRefType:
        raise TypeError(f"expected a memref value, got {t}")
    return AffineMap.identity(len(t.shape))  # type: ignore[attr-defined]


class _AccessOp(Op):
    """Base of the four memory access ops: `memref`, `indices` and the `map` property."""

    _first_index = 1  # operand position of the first index

    @property
    def affine_map(self) -> AffineMap:
        return self.get_attr("map").value  # type: ignore[union-attr, no-any-return]

    @property
    def map_operands(self) -> tuple[Value, ...]:
        return tuple(u.value for u in self._operands[type(self)._first_index :])

    @property
    def memref_value(self) -> Value:
        return self._operands[type(self)._first_index - 1].value

    def _subscripts(self, p: Any) -> None:
        p.print_operand(self.memref_value)
        p.write("[" + S.subscripts_text(p, self.affine_map, self.map_operands) + "]")
        p.print_op_attrs(self, elided=("map",))

    def canonicalize(self, rewriter: PatternRewriter) -> bool:
        return _simplify_map_operands(self, rewriter, type(self)._first_index)


class LoadOp(_AccessOp, MemoryEffectsOpInterface):
    """Load an element of a memref at affine subscripts of dims and symbols.

    Subscripts are affine expressions of SSA values: plain names are dims, `symbol(%n)` marks
    symbols. The result type is the memref's element type. Canonicalization composes producing
    affine.apply ops into the map.

        %v = affine.load %A[%i + 1, symbol(%n)] : memref<?x?xf32>
    """

    name = "affine.load"
    canonicalize = _AccessOp.canonicalize
    memref = operand(AnyMemRef)
    indices = var_operand(Index)
    res = result(AnyType)
    map = prop(AffineMapAttrC)

    @classmethod
    def build_load(
        cls,
        memref: Value,
        indices: Sequence[Value],
        amap: AffineMap | None = None,
        location: A.Location | None = None,
    ) -> LoadOp:
        """`affine.load memref[amap(indices)]` (identity map by default)."""
        amap = _identity_for(memref) if amap is None else amap
        et = memref.type.element_type  # type: ignore[attr-defined]
        attrs = {"map": A.AffineMapAttr(amap)}
        return cls.create([memref, *indices], [et], attrs, location=location)  # type: ignore[return-value]

    def get_effects(self) -> list[EffectInstance]:
        return [EffectInstance(READ, self._operands[0].value)]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        memref = parser.parse_operand()
        amap, idx = S.parse_subscripts(parser)
        parser.parse_optional_attr_dict(state.attributes)
        parser.parse_punct(":")
        mt = _memref_type(parser, parser.pos())
        state.attributes["map"] = A.AffineMapAttr(amap)
        state.operands = [parser.resolve_operand(memref, mt), *S.resolve_indices(parser, idx)]
        state.result_types = [mt.element_type]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        self._subscripts(p)
        p.write(" : ")
        p.print_type(self.memref_value.type)

    def verify_op(self) -> None:
        mt = self.memref_value.type
        if type(mt) is A.MemRefType and self.results[0].type is not mt.element_type:
            raise self.error("result type must match element type of memref")
        _verify_indexing(self, self.affine_map, self.map_operands, mt)


class StoreOp(_AccessOp, MemoryEffectsOpInterface):
    """Store a value into a memref at affine subscripts of dims and symbols.

    The value's type must be the memref's element type; subscripts are written as for
    affine.load.

        affine.store %v, %A[%i, %j + 2] : memref<?x?xf32>
    """

    name = "affine.store"
    canonicalize = _AccessOp.canonicalize
    value = operand(AnyType)
    memref = operand(AnyMemRef)
    indices = var_operand(Index)
    map = prop(AffineMapAttrC)
    _first_index = 2

    @classmethod
    def build_store(
        cls,
        value: Value,
        memref: Value,
        indices: Sequence[Value],
        amap: AffineMap | None = None,
        location: A.Location | None = None,
    ) -> StoreOp:
        """`affine.store value, memref[amap(indices)]` (identity map by default)."""
        amap = _identity_for(memref) if amap is None else amap
        attrs = {"map": A.AffineMapAttr(amap)}
        return cls.create([value, memref, *indices], (), attrs, location=location)  # type: ignore[return-value]

    def get_effects(self) -> list[EffectInstance]:
        return [EffectInstance(WRITE, self._operands[1].value)]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        value = parser.parse_operand()
        parser.parse_punct(",")
        memref = parser.parse_operand()
        amap, idx = S.parse_subscripts(parser)
        parser.parse_optional_attr_dict(state.attributes)
        parser.parse_punct(":")
        mt = _memref_type(parser, parser.pos())
        state.attributes["map"] = A.AffineMapAttr(amap)
        state.operands = [
            parser.resolve_operand(value, mt.element_type),
            parser.resolve_operand(memref, mt),
            *S.resolve_indices(parser, idx),
        ]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self._operands[0].value)
        p.write(", ")
        self._subscripts(p)
        p.write(" : ")
        p.print_type(self.memref_value.type)

    def verify_op(self) -> None:
        mt = self.memref_value.type
        if type(mt) is A.MemRefType and self._operands[0].value.type is not mt.element_type:
            raise self.error("value to store must have the same type as memref element type")
        _verify_indexing(self, self.affine_map, self.map_operands, mt)


def _verify_vector(op: Operation, mt: Any, vt: Any) -> None:
    if type(mt) is A.MemRefType and mt.element_type is not vt.element_type:
        raise op.error("requires memref and vector types of the same elemental type")


class VectorLoadOp(_AccessOp, MemoryEffectsOpInterface):
    """Load a vector from a memref at affine subscripts (the vector's first element there).

    The vector and memref element types must match.

        %v = affine.vector_load %A[%i, %j * 8] : memref<100x100xf32>, vector<8xf32>
    """

    name = "affine.vector_load"
    canonicalize = _AccessOp.canonicalize
    memref = operand(AnyMemRef)
    indices = var_operand(Index)
    res = result(AnyVector)
    map = prop(AffineMapAttrC)

    @classmethod
    def build_vector_load(
        cls,
        vector_type: A.VectorType,
        memref: Value,
        indices: Sequence[Value],
        amap: AffineMap | None = None,
        location: A.Location | None = None,
    ) -> VectorLoadOp:
        amap = _identity_for(memref) if amap is None else amap
        attrs = {"map": A.AffineMapAttr(amap)}
        return cls.create([memref, *indices], [vector_type], attrs, location=location)  # type: ignore[return-value]

    def get_effects(self) -> list[EffectInstance]:
        return [EffectInstance(READ, self._operands[0].value)]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        memref = parser.parse_operand()
        amap, idx = S.parse_subscripts(parser)
        parser.parse_optional_attr_dict(state.attributes)
        parser.parse_punct(":")
        mt = _memref_type(parser, parser.pos())
        parser.parse_punct(",")
        pos = parser.pos()
        vt = parser.parse_type()
        if type(vt) is not A.VectorType:
            raise parser.error(
                f"invalid kind of type specified: expected builtin.vector, but found '{vt}'", pos
            )
        state.attributes["map"] = A.AffineMapAttr(amap)
        state.operands = [parser.resolve_operand(memref, mt), *S.resolve_indices(parser, idx)]
        state.result_types = [vt]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        self._subscripts(p)
        p.write(" : ")
        p.print_type(self.memref_value.type)
        p.write(", ")
        p.print_type(self.results[0].type)

    def verify_op(self) -> None:
        mt = self.memref_value.type
        _verify_indexing(self, self.affine_map, self.map_operands, mt)
        _verify_vector(self, mt, self.results[0].type)


class VectorStoreOp(_AccessOp, MemoryEffectsOpInterface):
    """Store a vector into a memref at affine subscripts (its first element there).

    The vector and memref element types must match.

        affine.vector_store %v, %A[%i, %j * 8] : memref<100x100xf32>, vector<8xf32>
    """

    name = "affine.vector_store"
    canonicalize = _AccessOp.canonicalize
    value = operand(AnyVector)
    memref = operand(AnyMemRef)
    indices = var_operand(Index)
    map = prop(AffineMapAttrC)
    _first_index = 2

    @classmethod
    def build_vector_store(
        cls,
        value: Value,
        memref: Value,
        indices: Sequence[Value],
        amap: AffineMap | None = None,
        location: A.Location | None = None,
    ) -> VectorStoreOp:
        amap = _identity_for(memref) if amap is None else amap
        attrs = {"map": A.AffineMapAttr(amap)}
        return cls.create([value, memref, *indices], (), attrs, location=location)  # type: ignore[return-value]

    def get_effects(self) -> list[EffectInstance]:
        return [EffectInstance(WRITE, self._operands[1].value)]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        value = parser.parse_operand()
        parser.parse_punct(",")
        memref = parser.parse_operand()
        amap, idx = S.parse_subscripts(parser)
        parser.parse_optional_attr_dict(state.attributes)
        parser.parse_punct(":")
        mt = _memref_type(parser, parser.pos())
        parser.parse_punct(",")
        pos = parser.pos()
        vt = parser.parse_type()
        if type(vt) is not A.VectorType:
            raise parser.error(
                f"invalid kind of type specified: expected builtin.vector, but found '{vt}'", pos
            )
        state.attributes["map"] = A.AffineMapAttr(amap)
        state.operands = [
            parser.resolve_operand(value, vt),
            parser.resolve_operand(memref, mt),
            *S.resolve_indices(parser, idx),
        ]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self._operands[0].value)
        p.write(", ")
        self._subscripts(p)
        p.write(" : ")
        p.print_type(self.memref_value.type)
        p.write(", ")
        p.print_type(self._operands[0].value.type)

    def verify_op(self) -> None:
        mt = self.memref_value.type
        _verify_indexing(self, self.affine_map, self.map_operands, mt)
        _verify_vector(self, mt, self._operands[0].value.type)


# ---------------------------------------------------------------------------------------------
# affine.yield


class YieldOp(Op):
    """Terminate an affine.for, affine.parallel or affine.if region, yielding its values.

    The operand types must be the parent's result types. A yield without operands may be left
    out of the custom syntax: the parser adds it.

        affine.yield %sum, %prod : f32, f32
    """

    name = "affine.yield"
    traits = (Pure, Terminator, ReturnLike)
    operands_ = var_operand(AnyType)
    format = "attr-dict ($operands_^ `:` type($operands_))?"

    def verify_op(self) -> None:
        parent = self.parent_op
        if type(parent) not in (ForOp, IfOp, ParallelOp):
            raise self.error("only terminates affine.if/for/parallel regions")
        results = parent.results  # type: ignore[union-attr]
        uses = self._operands
        if len(results) != len(uses):
            raise self.error(
                "parent of yield must have same number of results as the yield operands"
            )
        for r, u in zip(results, uses):
            if r.type is not u.value.type:
                raise self.error("types mismatch between yield op and its parent")


# ---------------------------------------------------------------------------------------------
# affine.for


class ForOp(Op, LoopLikeOpInterface, ConditionallySpeculatable):
    """A loop from a lower to an upper bound (affine maps of dims and symbols) by a constant
    positive step, with optional loop-carried values.

    A bound with several results is the max (lower) or min (upper) of them. The body's first
    argument is the induction variable, the others the `iter_args`, initialized from the init
    operands and updated by the body's affine.yield; the results are their final values.
    Implements the loop-like interface (LICM and the tiling passes use it); constant bounds
    are folded into the maps, and a loop doing nothing is removed by canonicalization.

        %sum = affine.for %i = 0 to %n step 4 iter_args(%acc = %zero) -> (f32) {
          %v = affine.load %A[%i] : memref<?xf32>
          %s = arith.addf %acc, %v : f32
          affine.yield %s : f32
        }
        affine.for %j = max #lb(%i)[%n] to min #ub(%i)[%n] {
        }
    """

    name = "affine.for"
    traits = (AttrSizedOperandSegments, RecursiveMemoryEffects, _IMPLICIT_YIELD)
    lowerBoundOperands = var_operand(Index)  # noqa: N815 - MLIR's names
    upperBoundOperands = var_operand(Index)  # noqa: N815
    inits = var_operand(AnyType)
    res = var_result(AnyType)
    lowerBoundMap = prop(AffineMapAttrC)  # noqa: N815
    upperBoundMap = prop(AffineMapAttrC)  # noqa: N815
    step = prop(IndexAttrC, default=_ONE)
    body = region()

    # -- building -------------------------------------------------------------------------------

    @classmethod
    def build_for(
        cls,
        lower: int | Value | tuple[AffineMap, Sequence[Value]],
        upper: int | Value | tuple[AffineMap, Sequence[Value]],
        step: int = 1,
        iter_args: Sequence[Value] = (),
        location: A.Location | None = None,
    ) -> ForOp:
        """A loop with its body block (induction variable, then one argument per iter_arg).

        A bound is an int (constant map), an index Value (`()[s0] -> (s0)`), or a map with its
        operands. Without iter_args the body gets its affine.yield; with them the caller adds
        the yield of the loop-carried values.
        """
        if step <= 0:
            raise ValueError(f"affine.for step must be positive, got {step}")
        lb_map, lb_ops = _bound(lower)
        ub_map, ub_ops = _bound(upper)
        attrs: dict[str, A.Attribute] = {
            "lowerBoundMap": A.AffineMapAttr(lb_map),
            "upperBoundMap": A.AffineMapAttr(ub_map),
            "step": A.IntegerAttr(step, A.index),
            "operandSegmentSizes": A.DenseArrayAttr(
                A.i32, [len(lb_ops), len(ub_ops), len(iter_args)]
            ),
        }
        block = Block(
            [A.index, *(v.type for v in iter_args)],
            [location] * (1 + len(iter_args)) if location else None,
        )
        if not iter_args:
            block.append(_yield_builder(location)())
        operands = [*lb_ops, *ub_ops, *iter_args]
        types = [v.type for v in iter_args]
        return cls.create(operands, types, attrs, [Region([block])], location=location)  # type: ignore[return-value]

    # -- accessors ------------------------------------------------------------------------------

    @property
    def lower_bound_map(self) -> AffineMap:
        return self.get_attr("lowerBoundMap").value  # type: ignore[union-attr, no-any-return]

    @property
    def upper_bound_map(self) -> AffineMap:
        return self.get_attr("upperBoundMap").value  # type: ignore[union-attr, no-any-return]

    @property
    def step_value(self) -> int:
        return self.get_attr("step").value  # type: ignore[union-attr, no-any-return]

    @property
    def body_block(self) -> Block:
        return self.regions[0].blocks[0]

    @property
    def induction_var(self) -> Value:
        return self.regions[0].blocks[0].arguments[0]

    @property
    def region_iter_args(self) -> list[Value]:
        return list(self.regions[0].blocks[0].arguments[1:])

    def induction_vars(self) -> Sequence[Value]:
        return (self.induction_var,)

    def has_constant_lower_bound(self) -> bool:
        return self.lower_bound_map.is_single_constant()

    def has_constant_upper_bound(self) -> bool:
        return self.upper_bound_map.is_single_constant()

    def constant_lower_bound(self) -> int | None:
        """The lower bound when it is a single constant, else None."""
        m = self.lower_bound_map
        return m.results[0].value if m.is_single_constant() else None  # type: ignore[attr-defined]

    def constant_upper_bound(self) -> int | None:
        """The upper bound when it is a single constant, else None."""
        m = self.upper_bound_map
        return m.results[0].value if m.is_single_constant() else None  # type: ignore[attr-defined]

    def constant_trip_count(self) -> int | None:
        """ceil((ub - lb) / step) (0 for an empty range) when both bounds are constants."""
        lb, ub = self.constant_lower_bound(), self.constant_upper_bound()
        if lb is None or ub is None:
            return None
        step = self.step_value
        return 0 if ub <= lb else (ub - lb + step - 1) // step

    def set_lower_bound(self, amap: AffineMap, operands: Sequence[Value]) -> None:
        self._set_bound(0, amap, operands)

    def set_upper_bound(self, amap: AffineMap, operands: Sequence[Value]) -> None:
        self._set_bound(1, amap, operands)

    def _set_bound(self, which: int, amap: AffineMap, operands: Sequence[Value]) -> None:
        groups = [list(self.lowerBoundOperands), list(self.upperBoundOperands), list(self.inits)]
        groups[which] = list(operands)
        self.set_operands([v for g in groups for v in g])
        self.set_attr("operandSegmentSizes", A.DenseArrayAttr(A.i32, [len(g) for g in groups]))
        self.set_attr("lowerBoundMap" if which == 0 else "upperBoundMap", A.AffineMapAttr(amap))

    def is_speculatable(self) -> bool:
        # A unit-step loop terminates whatever its bounds (MLIR's RecursivelySpeculatable).
        return self.step_value == 1

    # -- syntax ---------------------------------------------------------------------------------

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        iv = parser.parse_argument(allow_type=False)
        iv.type = A.index
        parser.parse_punct("=")
        lb_map, lb_ops = S.parse_loop_bound(parser, True)
        parser.parse_keyword("to")
        ub_map, ub_ops = S.parse_loop_bound(parser, False)
        attrs = state.attributes
        if parser.parse_optional_keyword("step") is not None:
            pos = parser.pos()
            step = parser.parse_attribute(A.index)
            if type(step) is not A.IntegerAttr or step.value <= 0:
                raise parser.error(
                    "expected step to be representable as a positive signed integer", pos
                )
            attrs["step"] = A.IntegerAttr(step.value, A.index)
        args = [iv]
        inits: list[Value] = []
        if parser.parse_optional_keyword("iter_args") is not None:
            pairs: list[tuple[Any, Any]] = []

            def one() -> None:
                arg = parser.parse_argument(allow_type=False)
                parser.parse_punct("=")
                pairs.append((arg, parser.parse_operand()))

            parser.parse_comma_separated_list("paren", one)
            pos = parser.pos()
            types = parser.parse_arrow_type_list()
            if len(types) != len(pairs):
                raise parser.error(
                    "mismatch between the number of loop-carried values and results", pos
                )
            for (arg, use), t in zip(pairs, types):
                arg.type = t
                args.append(arg)
                inits.append(parser.resolve_operand(use, t))
            state.result_types = list(types)
        attrs["lowerBoundMap"] = A.AffineMapAttr(lb_map)
        attrs["upperBoundMap"] = A.AffineMapAttr(ub_map)
        attrs["operandSegmentSizes"] = A.DenseArrayAttr(
            A.i32, [len(lb_ops), len(ub_ops), len(inits)]
        )
        body = parser.parse_region(args)
        parser.ensure_terminator(body, _yield_builder(state.location))
        parser.parse_optional_attr_dict(attrs)
        state.operands = [*lb_ops, *ub_ops, *inits]
        state.regions = [body]

    def print_asm(self, p: Any) -> None:
        block = self.regions[0].blocks[0]
        p.write(" ")
        p.print_region_argument(block.arguments[0], omit_type=True)
        p.write(" = ")
        S.print_loop_bound(p, self.lower_bound_map, self.lowerBoundOperands, "max")
        p.write(" to ")
        S.print_loop_bound(p, self.upper_bound_map, self.upperBoundOperands, "min")
        step = self.step_value
        if step != 1:
            p.write(f" step {step}")
        inits = self.inits
        if inits:
            p.write(" iter_args(")
            for i, (arg, init) in enumerate(zip(block.arguments[1:], inits)):
                if i:
                    p.write(", ")
                p.print_region_argument(arg, omit_type=True)
                p.write(" = ")
                p.print_operand(init)
            p.write(") -> (")
            p.print_types([r.type for r in self.results])
            p.write(")")
        p.write(" ")
        p.print_region(
            self.regions[0],
            print_entry_block_args=False,
            print_block_terminators=bool(inits) or p._debuginfo,
        )
        p.print_op_attrs(
            self, elided=("lowerBoundMap", "upperBoundMap", "step", "operandSegmentSizes")
        )

    # -- verification ---------------------------------------------------------------------------

    def verify_op(self) -> None:
        step = self.step_value
        if step <= 0:
            raise self.error(f"expected step to be a positive integer, got {step}")
        for which, amap, ops in (
            ("lower", self.lower_bound_map, self.lowerBoundOperands),
            ("upper", self.upper_bound_map, self.upperBoundOperands),
        ):
            if amap.num_results == 0:
                raise self.error(f"expected {which} bound map to have at least one result")
            if amap.num_inputs != len(ops):
                raise self.error(
                    f"{which} bound operand count ({len(ops)}) does not match the number of "
                    f"{which} bound map inputs ({amap.num_inputs})"
                )
        blocks = self.regions[0].blocks
        if not blocks:
            raise self.error("expected a body block")
        args = blocks[0].arguments
        if not args or args[0].type is not A.index:
            raise self.error("expected body to have an index argument for the induction variable")
        inits = self.inits
        n_iter = len(args) - 1
        if len(inits) != n_iter:
            raise self.error(
                f"different number of inits and region iter_args: {len(inits)} != {n_iter}"
            )
        for i, (init, arg) in enumerate(zip(inits, args[1:])):
            if init.type is not arg.type:
                raise self.error(
                    f"along control flow edge from parent to Region #0: successor operand type "
                    f"#{i} {_q(init.type)} should match successor input type #{i} {_q(arg.type)}"
                )
        AA.verify_dims_and_symbols(self, self.lowerBoundOperands, self.lower_bound_map.num_dims)
        AA.verify_dims_and_symbols(self, self.upperBoundOperands, self.upper_bound_map.num_dims)

    def verify_regions(self) -> None:
        term = self.regions[0].blocks[0].last
        n_iter = len(self.regions[0].blocks[0].arguments) - 1
        if type(term) is YieldOp and len(term._operands) != n_iter:
            raise self.error(
                "different number of region iter_args and yielded values: "
                f"{n_iter} != {len(term._operands)}"
            )
        if len(self.results) != n_iter:
            raise self.error("mismatch between the number of loop-carried values and results")

    # -- folding --------------------------------------------------------------------------------

    def fold(self, operand_attrs: list) -> Any:
        """A loop with results and zero iterations yields its inits."""
        if self.constant_trip_count() == 0 and self.results:
            return list(self.inits)
        return None

    def canonicalize(self, rewriter: PatternRewriter) -> bool:
        """Fold constant bounds, compose/canonicalize the bound maps, drop an empty loop."""
        if self._canonicalize_bounds(rewriter):
            return True
        return self._fold_empty_loop(rewriter)

    def _canonicalize_bounds(self, rewriter: PatternRewriter) -> bool:
        changed = False
        for which, lower in ((0, True), (1, False)):
            amap = self.lower_bound_map if lower else self.upper_bound_map
            ops = list(self.lowerBoundOperands if lower else self.upperBoundOperands)
            if amap.is_single_constant():
                continue
            values = [AA.constant_index(v) for v in ops]
            folded = AA.fold_map(amap, values)
            if all(v is not None for v in folded):
                new_map, new_ops = AffineMap.constant(max(folded) if lower else min(folded)), []  # type: ignore[type-var]
            else:
                new_map, new_ops = AA.compose_map_and_operands(amap, ops)
                seen: list[Any] = []
                for e in new_map.results:
                    if e not in seen:
                        seen.append(e)
                new_map = AffineMap(new_map.num_dims, new_map.num_symbols, seen)
            if (
                new_map is amap
                and all(a is b for a, b in zip(new_ops, ops))
                and len(new_ops) == len(ops)
            ):
                continue
            rewriter.modify_op_in_place(
                self, lambda w=which, m=new_map, o=new_ops: self._set_bound(w, m, o)
            )
            notify_dropped(rewriter, ops, new_ops)
            changed = True
        return changed

    def _fold_empty_loop(self, rewriter: PatternRewriter) -> bool:
        """MLIR's AffineForEmptyLoopFolder for a body that only yields."""
        block = self.regions[0].blocks[0]
        if block.first is not block.last or not self.results:
            return False
        trip = self.constant_trip_count()
        inits = list(self.inits)
        if trip == 0:
            rewriter.replace_op(self, inits)
            return True
        yielded = [u.value for u in block.last._operands]  # type: ignore[union-attr]
        iter_args = block.arguments[1:]
        replacements = []
        outside = out_of_order = False
        for i, v in enumerate(yielded):
            if v in iter_args:
                pos = iter_args.index(v)  # type: ignore[arg-type]
                out_of_order |= pos != i
                replacements.append(inits[pos])
            else:
                outside = True
                replacements.append(v)
        if trip is None and (outside or out_of_order):
            return False
        if trip is not None and trip >= 2 and out_of_order:
            return False
        rewriter.replace_op(self, replacements)
        return True


def _bound(b: Any) -> tuple[AffineMap, list[Value]]:
    if isinstance(b, int):
        return AffineMap.constant(b), []
    if isinstance(b, Value):
        return AffineMap(0, 1, (sym(0),)), [b]
    amap, ops = b
    if amap.num_inputs != len(ops):
        raise ValueError(f"bound map {amap} takes {amap.num_inputs} operands, got {len(ops)}")
    return amap, list(ops)


# ---------------------------------------------------------------------------------------------
# affine.parallel


class ParallelOp(Op, LoopLikeOpInterface):
    """A multi-dimensional parallel loop nest with optional reductions.

    Each dimension has a lower bound (the max of its group of lower-bound results), an upper
    bound (the min of its group) and a constant step. Each result is the reduction, by its
    `reduce` kind (arith's atomic RMW kinds: "addf", "mulf", "maxs", ...), of the values the
    body yields over all iterations. Implements the loop-like interface.

        %sum = affine.parallel (%i, %j) = (0, 0) to (%n, min(%m, 16)) step (1, 4)
            reduce ("addf") -> (f32) {
          %v = affine.load %A[%i, %j] : memref<?x?xf32>
          affine.yield %v : f32
        }
    """

    name = "affine.parallel"
    traits = (RecursiveMemoryEffects, _IMPLICIT_YIELD)
    reductions = prop(ReductionsAttrC)
    lowerBoundsMap = prop(AffineMapAttrC)  # noqa: N815 - MLIR's names
    lowerBoundsGroups = prop(I32TensorAttrC)  # noqa: N815
    upperBoundsMap = prop(AffineMapAttrC)  # noqa: N815
    upperBoundsGroups = prop(I32TensorAttrC)  # noqa: N815
    steps = prop(I64ArrayAttrC)
    mapOperands = var_operand(Index)  # noqa: N815
    res = var_result(AnyType)
    body = region()

    @classmethod
    def build_parallel(
        cls,
        lower: Sequence[int | Value],
        upper: Sequence[int | Value],
        steps: Sequence[int] | None = None,
        reductions: Sequence[tuple[str, A.Type]] = (),
        location: A.Location | None = None,
    ) -> ParallelOp:
        """A parallel nest over [lower[k], upper[k]) (ints or index symbols), one group per
        dimension; `reductions` gives (kind, result type) pairs. The body block gets one index
        argument per dimension (and an affine.yield when there are no reductions)."""
        if len(lower) != len(upper):
            raise ValueError("lower and upper bounds differ in count")
        steps = [1] * len(lower) if steps is None else list(steps)
        lb_map, lb_ops = _flat_bounds(lower)
        ub_map, ub_ops = _flat_bounds(upper)
        attrs: dict[str, A.Attribute] = {
            "reductions": A.ArrayAttr([AtomicRMWKindAttr.get(k) for k, _ in reductions]),
            "lowerBoundsMap": A.AffineMapAttr(lb_map),
            "lowerBoundsGroups": _i32_tensor([1] * len(lower)),
            "upperBoundsMap": A.AffineMapAttr(ub_map),
            "upperBoundsGroups": _i32_tensor([1] * len(upper)),
            "steps": A.ArrayAttr([A.IntegerAttr(s, A.i64) for s in steps]),
        }
        block = Block([A.index] * len(lower))
        if not reductions:
            block.append(_yield_builder(location)())
        types = [t for _, t in reductions]
        return cls.create([*lb_ops, *ub_ops], types, attrs, [Region([block])], location=location)  # type: ignore[return-value]

    @property
    def lower_bounds_map(self) -> AffineMap:
        return self.get_attr("lowerBoundsMap").value  # type: ignore[union-attr, no-any-return]

    @property
    def upper_bounds_map(self) -> AffineMap:
        return self.get_attr("upperBoundsMap").value  # type: ignore[union-attr, no-any-return]

    @property
    def lower_bounds_operands(self) -> tuple[Value, ...]:
        return self.operands[: self.lower_bounds_map.num_inputs]

    @property
    def upper_bounds_operands(self) -> tuple[Value, ...]:
        return self.operands[self.lower_bounds_map.num_inputs :]

    @property
    def step_values(self) -> list[int]:
        return [a.value for a in self.get_attr("steps").value]  # type: ignore[union-attr]

    @property
    def reduction_kinds(self) -> list[str]:
        """The reduction kind names ("addf", ...) of the results."""
        return [AtomicRMWKindAttr.name_of(a) for a in self.get_attr("reductions").value]  # type: ignore[union-attr]

    def induction_vars(self) -> Sequence[Value]:
        return tuple(self.regions[0].blocks[0].arguments)

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        ivs = parser.parse_argument_list("paren", allow_type=False)
        for iv in ivs:
            iv.type = A.index
        parser.parse_punct("=")
        lb_map, lb_groups, lb_ops = S.parse_parallel_bounds(parser, "max")
        parser.parse_keyword("to")
        ub_map, ub_groups, ub_ops = S.parse_parallel_bounds(parser, "min")
        attrs = state.attributes
        if parser.parse_optional_keyword("step") is not None:
            pos = parser.pos()
            smap, sdims, ssyms = parser.parse_affine_map_of_ssa_ids("(")
            if sdims or ssyms or not smap.is_constant():
                raise parser.error("steps must be constant integers", pos)
            steps = list(smap.constant_results())
        else:
            steps = [1] * len(ivs)
        reductions: list[A.Attribute] = []
        if parser.parse_optional_keyword("reduce") is not None:

            def one() -> None:
                pos = parser.pos()
                kind = parser.parse_string()
                if kind not in ATOMIC_RMW_KINDS:
                    raise parser.error(f'invalid reduction value: "{kind}"', pos)
                reductions.append(AtomicRMWKindAttr.get(kind))

            parser.parse_comma_separated_list("paren", one)
        types = parser.parse_optional_arrow_type_list() or []
        attrs["reductions"] = A.ArrayAttr(reductions)
        attrs["lowerBoundsMap"] = A.AffineMapAttr(lb_map)
        attrs["lowerBoundsGroups"] = _i32_tensor(lb_groups)
        attrs["upperBoundsMap"] = A.AffineMapAttr(ub_map)
        attrs["upperBoundsGroups"] = _i32_tensor(ub_groups)
        attrs["steps"] = A.ArrayAttr([A.IntegerAttr(s, A.i64) for s in steps])
        body = parser.parse_region(ivs)
        parser.parse_optional_attr_dict(attrs)
        parser.ensure_terminator(body, _yield_builder(state.location))
        state.operands = [*lb_ops, *ub_ops]
        state.result_types = list(types)
        state.regions = [body]

    def print_asm(self, p: Any) -> None:
        block = self.regions[0].blocks[0]
        p.write(" (")
        for i, arg in enumerate(block.arguments):
            if i:
                p.write(", ")
            p.print_region_argument(arg, omit_type=True)
        p.write(") = ")
        S.print_parallel_bounds(
            p, self.lower_bounds_map, _groups(self.get_attr("lowerBoundsGroups")),  # type: ignore[arg-type]
            self.lower_bounds_operands, "max",
        )  # fmt: skip
        p.write(" to ")
        S.print_parallel_bounds(
            p, self.upper_bounds_map, _groups(self.get_attr("upperBoundsGroups")),  # type: ignore[arg-type]
            self.upper_bounds_operands, "min",
        )  # fmt: skip
        steps = self.step_values
        if any(s != 1 for s in steps):
            p.write(" step (" + ", ".join(map(str, steps)) + ")")
        if self.results:
            p.write(" reduce (" + ", ".join(f'"{k}"' for k in self.reduction_kinds) + ") -> (")
            p.print_types([r.type for r in self.results])
            p.write(")")
        p.write(" ")
        p.print_region(
            self.regions[0],
            print_entry_block_args=False,
            print_block_terminators=bool(self.results) or p._debuginfo,
        )
        p.print_op_attrs(
            self,
            elided=("reductions", "lowerBoundsMap", "lowerBoundsGroups", "upperBoundsMap",
                    "upperBoundsGroups", "steps"),
        )  # fmt: skip

    def canonicalize(self, rewriter: PatternRewriter) -> bool:
        """Compose affine.apply producers into the bound maps and canonicalize their operands
        (MLIR's fold of affine.parallel)."""
        lb_map, ub_map = self.lower_bounds_map, self.upper_bounds_map
        lb_ops, ub_ops = list(self.lower_bounds_operands), list(self.upper_bounds_operands)
        new_lb, new_lb_ops = AA.compose_map_and_operands(lb_map, lb_ops)
        new_ub, new_ub_ops = AA.compose_map_and_operands(ub_map, ub_ops)
        if (new_lb is lb_map and new_lb_ops == lb_ops) and (
            new_ub is ub_map and new_ub_ops == ub_ops
        ):
            return False

        def change() -> None:
            self.set_attr("lowerBoundsMap", A.AffineMapAttr(new_lb))
            self.set_attr("upperBoundsMap", A.AffineMapAttr(new_ub))
            self.set_operands([*new_lb_ops, *new_ub_ops])

        rewriter.modify_op_in_place(self, change)
        notify_dropped(rewriter, lb_ops + ub_ops, new_lb_ops + new_ub_ops)
        return True

    def verify_op(self) -> None:
        blocks = self.regions[0].blocks
        n_args = len(blocks[0].arguments) if blocks else 0
        lbg = _groups(self.get_attr("lowerBoundsGroups"))  # type: ignore[arg-type]
        ubg = _groups(self.get_attr("upperBoundsGroups"))  # type: ignore[arg-type]
        steps = self.step_values
        n = len(steps)
        if len(lbg) != n or len(ubg) != n or n_args != n:
            raise self.error(
                f"the number of region arguments ({n_args}) and the number of map groups for "
                f"lower ({len(lbg)}) and upper bound ({len(ubg)}), and the number of steps "
                f"({n}) must all match"
            )
        lb_map, ub_map = self.lower_bounds_map, self.upper_bounds_map
        for which, groups, amap in (("lower", lbg, lb_map), ("upper", ubg, ub_map)):
            if sum(groups) != amap.num_results:
                raise self.error(f"expected {which} bounds map to have {sum(groups)} results")
        if lb_map.num_inputs + ub_map.num_inputs != len(self._operands):
            raise self.error(
                f"operand count ({len(self._operands)}) does not match the number of lower and "
                f"upper bound map inputs ({lb_map.num_inputs} + {ub_map.num_inputs})"
            )
        for s in steps:
            if s <= 0:
                raise self.error(f"expected steps to be positive integers, got {s}")
        for arg in blocks[0].arguments:
            if arg.type is not A.index:
                raise self.error("expected body arguments to be of index type")
        reductions = self.get_attr("reductions").value  # type: ignore[union-attr]
        if len(reductions) != len(self.results):
            raise self.error("a reduction must be specified for each output")
        for attr, r in zip(reductions, self.results):
            if not atomic_rmw_kind_matches(attr, r.type):
                raise self.error("result type cannot match reduction attribute")
        AA.verify_dims_and_symbols(self, self.lower_bounds_operands, lb_map.num_dims)
        AA.verify_dims_and_symbols(self, self.upper_bounds_operands, ub_map.num_dims)


def _flat_bounds(bounds: Sequence[int | Value]) -> tuple[AffineMap, list[Value]]:
    exprs = []
    syms: list[Value] = []
    for b in bounds:
        if isinstance(b, int):
            exprs.append(const(b))
        else:
            exprs.append(sym(len(syms)))
            syms.append(b)
    return AffineMap(0, len(syms), exprs), syms


# ---------------------------------------------------------------------------------------------
# affine.if


class IfOp(Op):
    """Run the `then` region when the operands satisfy an integer set, else the optional
    `else` region; results (which need an else region) are what the executed region yields.

    Canonicalization composes producing affine.apply ops into the set, removes an empty else
    region, and inlines the taken region when the set is trivially true or false.

        %r = affine.if affine_set<(d0)[s0] : (d0 - 10 >= 0, s0 - d0 - 1 >= 0)>(%i)[%n] -> f32 {
          affine.yield %a : f32
        } else {
          affine.yield %b : f32
        }
    """

    name = "affine.if"
    traits = (RecursiveMemoryEffects, _IMPLICIT_YIELD)
    condition = prop(IntegerSetAttrC)
    operands_ = var_operand(Index)
    res = var_result(AnyType)
    thenRegion = region()  # noqa: N815 - MLIR's names
    elseRegion = region()  # noqa: N815

    @classmethod
    def build_if(
        cls,
        iset: IntegerSet,
        operands: Sequence[Value],
        result_types: Sequence[A.Type] = (),
        with_else: bool = False,
        location: A.Location | None = None,
    ) -> IfOp:
        """An affine.if with a then block (and an else block if asked or if it has results);
        without results the blocks get their affine.yield."""
        with_else = with_else or bool(result_types)
        regions = []
        for present in (True, with_else):
            r = Region()
            if present:
                block = Block()
                if not result_types:
                    block.append(_yield_builder(location)())
                r.add_block(block)
            regions.append(r)
        attrs = {"condition": A.IntegerSetAttr(iset)}
        return cls.create(list(operands), list(result_types), attrs, regions, location=location)  # type: ignore[return-value]

    @property
    def integer_set(self) -> IntegerSet:
        return self.get_attr("condition").value  # type: ignore[union-attr, no-any-return]

    @property
    def has_else(self) -> bool:
        return bool(self.regions[1].blocks)

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        pos = parser.pos()
        attr = parser.parse_attribute()
        if type(attr) is not A.IntegerSetAttr:
            raise parser.error("invalid kind of attribute specified", pos)
        operands, num_dims = S.parse_dim_and_symbol_list(parser)
        iset = attr.value
        if iset.num_dims != num_dims:
            raise parser.error("dim operand count and integer set dim count must match", pos)
        if num_dims + iset.num_symbols != len(operands):
            raise parser.error("symbol operand count and integer set symbol count must match", pos)
        state.operands = S.resolve_indices(parser, operands)
        state.result_types = list(parser.parse_optional_arrow_type_list() or [])
        then = parser.parse_region()
        parser.ensure_terminator(then, _yield_builder(state.location))
        other = Region()
        if parser.parse_optional_keyword("else") is not None:
            other = parser.parse_region()
            parser.ensure_terminator(other, _yield_builder(state.location))
        parser.parse_optional_attr_dict(state.attributes)
        state.attributes["condition"] = attr
        state.regions = [then, other]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_attribute(self.get_attr("condition"))
        S.print_dim_and_symbol_list(p, self.operands, self.integer_set.num_dims)
        p.print_optional_arrow_type_list([r.type for r in self.results])
        p.write(" ")
        terms = bool(self.results) or p._debuginfo
        p.print_region(self.regions[0], print_entry_block_args=False, print_block_terminators=terms)
        if self.regions[1].blocks:
            p.write(" else ")
            p.print_region(
                self.regions[1], print_entry_block_args=False, print_block_terminators=terms
            )
        p.print_op_attrs(self, elided=("condition",))

    def verify_op(self) -> None:
        iset = self.integer_set
        if len(self._operands) != iset.num_inputs:
            raise self.error(
                "operand count and condition integer set dimension and symbol count must match"
            )
        AA.verify_dims_and_symbols(self, self.operands, iset.num_dims)
        if self.results and not self.regions[1].blocks:
            raise self.error(
                "along control flow edge from parent to Operation affine.if: region branch "
                f"point has 0 operands, but region successor needs {len(self.results)} inputs"
            )
        for i, r in enumerate(self.regions):
            if r.blocks and r.blocks[0].arguments:
                raise self.error(f"region #{i} should have no arguments")

    def canonicalize(self, rewriter: PatternRewriter) -> bool:
        iset = self.integer_set
        ops = self.operands
        new_set, new_ops = AA.canonicalize_set_and_operands(iset, ops)
        if new_set is not iset or list(new_ops) != list(ops):

            def change() -> None:
                self.set_attr("condition", A.IntegerSetAttr(new_set))
                self.set_operands(new_ops)

            rewriter.modify_op_in_place(self, change)
            notify_dropped(rewriter, ops, new_ops)
            return True
        return self._remove_dead_else(rewriter) or self._fold_trivial(rewriter)

    def _remove_dead_else(self, rewriter: PatternRewriter) -> bool:
        other = self.regions[1]
        if not other.blocks or self.results:
            return False
        block = other.blocks[0]
        if block.first is not block.last:
            return False
        rewriter.erase_block(block)
        rewriter.modify_op_in_place(self)
        return True

    def _fold_trivial(self, rewriter: PatternRewriter) -> bool:
        iset = self.integer_set
        if iset.is_empty_set():
            if not self.results and not self.regions[1].blocks:
                rewriter.erase_op(self)
                return True
            if not self.regions[1].blocks:
                return False
            block = self.regions[1].blocks[0]
        elif (
            iset.num_constraints == 1
            and iset.num_equalities == 1
            and type(iset.constraints[0]) is AffineConstantExpr
            and iset.constraints[0].value == 0
        ):
            block = self.regions[0].blocks[0]
        else:
            return False
        term = block.last
        values = [u.value for u in term._operands] if term is not None else []  # type: ignore[union-attr]
        if term is not None:
            rewriter.erase_op(term)
        rewriter.inline_block_before(block, self)
        rewriter.replace_op(self, values)
        return True


# ---------------------------------------------------------------------------------------------
# The dialect


def materialize_constant(
    value: A.Attribute, result_type: A.Type, location: A.Location | None = None
) -> Operation | None:
    """Folded affine values are index constants: an `arith.constant`."""
    return _arith_materialize(value, result_type, location)


DIALECT = Dialect(
    "affine",
    ops=[
        ApplyOp, MinOp, MaxOp, LoadOp, StoreOp, VectorLoadOp, VectorStoreOp,
        YieldOp, ForOp, ParallelOp, IfOp,
    ],
    materialize_constant=materialize_constant,
)  # fmt: skip
