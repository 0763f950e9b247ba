"""Ops of the affine dialect that compute indices or access memory: `affine.apply`,
`affine.min`, `affine.max`, `affine.load`, `affine.store`, `affine.vector_load`,
`affine.vector_store`, with MLIR's syntax, verifiers, folders and canonicalizations (the
loops and the dialect itself are in `mlc.dialects.affine`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mlc.dialects import affine_analysis as AA
from mlc.dialects import affine_syntax as S

from mlc.diagnostics import Diagnostic, VerifyError
from mlc.interfaces import READ, WRITE, EffectInstance, MemoryEffectsOpInterface
from mlc.ir import attributes as A
from mlc.ir.affine import AffineDimExpr, AffineMap, AffineSymbolExpr, dim, sym
from mlc.ir.core import Operation, Value
from mlc.ir.opdef import (
    AffineMapAttrC,
    AnyMemRef,
    AnyType,
    AnyVector,
    Index,
    IntegerAttrC,
    Op,
    OperationState,
    Pure,
    operand,
    prop,
    result,
    var_operand,
)
from mlc.rewrite.pattern import PatternRewriter


def _q(t: A.Type) -> str:
    return f"'{t}'"


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
        """Compose producing affine.apply ops, canonicalize operands, drop duplicate results;
        a single-result min/max becomes an affine.apply."""
        amap = self.affine_map
        old = self.operands
        if amap.num_results == 1:
            rewriter.set_insertion_point_before(self)
            apply = rewriter.insert(ApplyOp.build_apply(amap, old, self.location))
            rewriter.replace_op(self, apply.results)
            return True
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
        raise op.error(f"expects a ranked memref, but got {_q(mt)}")
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


_BOOL = A.BoolAttr(True).type


class PrefetchOp(_AccessOp):
    """Prefetch the cache line of a memref element at affine subscripts (a hint: no effect on
    the program's results, never a fault, even out of bounds).

    `read`/`write` is the expected access, `locality<0..3>` the temporal locality (3: keep in
    every cache level), `data`/`instr` the cache. Lowered to `llvm.intr.prefetch`.

        affine.prefetch %A[%i + 1, %j], read, locality<3>, data : memref<?x1024xf32>
    """

    name = "affine.prefetch"
    canonicalize = _AccessOp.canonicalize
    memref = operand(AnyMemRef)
    indices = var_operand(Index)
    isWrite = prop(IntegerAttrC)  # noqa: N815 - MLIR's property names
    localityHint = prop(IntegerAttrC)  # noqa: N815
    isDataCache = prop(IntegerAttrC)  # noqa: N815
    map = prop(AffineMapAttrC)

    @classmethod
    def build_prefetch(
        cls,
        memref: Value,
        indices: Sequence[Value],
        amap: AffineMap,
        *,
        write: bool = False,
        locality: int = 3,
        data: bool = True,
        location: A.Location | None = None,
    ) -> PrefetchOp:
        attrs = {
            "isWrite": A.BoolAttr(write),
            "localityHint": A.IntegerAttr(locality, A.i32),
            "isDataCache": A.BoolAttr(data),
            "map": A.AffineMapAttr(amap),
        }
        return cls.create([memref, *indices], [], attrs, location=location)  # type: ignore[return-value]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        memref = parser.parse_operand()
        amap, idx = S.parse_subscripts(parser)
        parser.parse_punct(",")
        rw = parser.parse_optional_keyword_in(("read", "write"))
        if rw is None:
            raise parser.error("rw specifier has to be 'read' or 'write'")
        parser.parse_punct(",")
        parser.parse_keyword("locality")
        parser.parse_punct("<")
        pos = parser.pos()
        hint = parser.parse_integer()
        if not 0 <= hint <= 3:
            raise parser.error("locality hint has to be within 0 to 3", pos)
        parser.parse_punct(">")
        parser.parse_punct(",")
        cache = parser.parse_optional_keyword_in(("data", "instr"))
        if cache is None:
            raise parser.error("cache type has to be 'data' or 'instr'")
        parser.parse_optional_attr_dict(state.attributes)
        parser.parse_punct(":")
        mt = _memref_type(parser, parser.pos())
        state.attributes.update(
            isWrite=A.BoolAttr(rw == "write"),
            localityHint=A.IntegerAttr(hint, A.i32),
            isDataCache=A.BoolAttr(cache == "data"),
            map=A.AffineMapAttr(amap),
        )
        state.operands = [parser.resolve_operand(memref, mt), *S.resolve_indices(parser, idx)]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.memref_value)
        p.write("[" + S.subscripts_text(p, self.affine_map, self.map_operands) + "]")
        rw = "write" if self.get_attr("isWrite").value else "read"  # type: ignore[union-attr]
        hint = self.get_attr("localityHint").value  # type: ignore[union-attr]
        cache = "data" if self.get_attr("isDataCache").value else "instr"  # type: ignore[union-attr]
        p.write(f", {rw}, locality<{hint}>, {cache}")
        p.print_op_attrs(self, elided=("map", "isWrite", "localityHint", "isDataCache"))
        p.write(" : ")
        p.print_type(self.memref_value.type)

    def verify_op(self) -> None:
        for name in ("isWrite", "isDataCache"):
            if self.get_attr(name).type is not _BOOL:  # type: ignore[union-attr]
                raise self.error(f"'{name}' must be a bool attribute")
        hint = self.get_attr("localityHint")
        if hint.type is not A.i32 or not 0 <= hint.value <= 3:  # type: ignore[union-attr]
            raise self.error("locality hint has to be within 0 to 3")
        _verify_indexing(self, self.affine_map, self.map_operands, self.memref_value.type)
