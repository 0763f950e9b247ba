"""`graph-shape-inference`: refine tensor types through graph ops, graph.fused bodies and
func.call (private callees refined or specialized per call-site signature), and
`DimEquivalence`, the analysis of which unknown dims are equal at run time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import mlc.dialects.graph as G
from mlc.dialects.func import CallOp, FuncOp, ReturnOp
from mlc.dialects.graph_infer import DYNAMIC, ShapeInferenceError
from mlc.dialects.tensor import CastOp as TensorCastOp

from mlc.ir import attributes as A
from mlc.ir.core import Block, BlockArgument, Operation, OpResult, Value
from mlc.ir.symbols import SymbolTable, get_symbol_visibility, symbol_refs_in, walk_symbol_table
from mlc.knobs import Bool
from mlc.pass_manager import KnobDecl, Option, Pass, PassContext, Statistic

__all__ = ["GraphShapeInferencePass", "DimEquivalence", "refine_type", "generalize_types"]

_RANKED = A.RankedTensorType
_UNRANKED = A.UnrankedTensorType


# ---------------------------------------------------------------------------------------------
# The type lattice: `refine_type` is the meet (most refined type compatible with both),
# `generalize_types` the join (most refined type every input refines).


def refine_type(declared: A.Type, inferred: A.Type) -> A.Type | None:
    """The most refined type compatible with both tensor types; None on a conflict (element
    types, ranks, or static sizes differ). Non-tensor types must be identical."""
    if declared is inferred:
        return declared
    td, ti = type(declared), type(inferred)
    if td not in (_RANKED, _UNRANKED) or ti not in (_RANKED, _UNRANKED):
        return None
    if declared.element_type is not inferred.element_type:  # type: ignore[attr-defined]
        return None
    if ti is _UNRANKED:
        return declared
    if td is _UNRANKED:
        return inferred
    s1, s2 = declared.shape, inferred.shape  # type: ignore[attr-defined]
    if len(s1) != len(s2):
        return None
    out = []
    for a, b in zip(s1, s2):
        if a == b or b == DYNAMIC:
            out.append(a)
        elif a == DYNAMIC:
            out.append(b)
        else:
            return None
    return declared.clone_with(shape=out)  # type: ignore[attr-defined]


def generalize_types(types: Sequence[A.Type]) -> A.Type | None:
    """The most refined type that each of `types` refines (dims that differ become `?`, ranks
    that differ unranked); None when the element types (or non-tensor types) differ."""
    first = types[0]
    if all(t is first for t in types):
        return first
    if any(type(t) not in (_RANKED, _UNRANKED) for t in types):
        return None
    et = first.element_type  # type: ignore[attr-defined]
    if any(t.element_type is not et for t in types):  # type: ignore[attr-defined]
        return None
    if any(type(t) is _UNRANKED for t in types):
        return _UNRANKED(et)
    rank = len(first.shape)  # type: ignore[attr-defined]
    if any(len(t.shape) != rank for t in types):  # type: ignore[attr-defined]
        return _UNRANKED(et)
    dims = list(first.shape)  # type: ignore[attr-defined]
    for t in types[1:]:
        for i, d in enumerate(t.shape):  # type: ignore[attr-defined]
            if dims[i] != d:
                dims[i] = DYNAMIC
    return _RANKED(dims, et)


# ---------------------------------------------------------------------------------------------
# Dim equivalence


class DimEquivalence:
    """Which dims of which tensor values are equal at run time, from the ops' semantics.

    A union-find over (value, dim) pairs of ranked tensor values under `root` (a module or a
    function), seeded by the graph ops (elementwise ops and broadcasting where no dynamic
    broadcast can intervene, matmul's contracting and batch dims, transpose, reshape dims that
    keep their place, concat, reductions, softmax, conv2d and pooling batch/channel dims,
    graph.fused arguments and results), tensor.cast, and func.call (arguments to callee
    parameters, results to returned values). A class may know its static size (a member is
    static); two different static sizes in one class are a conflict (`conflicts`).

        eq = DimEquivalence(module)
        eq.equivalent(x, 0, y, 0)     # the batch dims of x and y are the same size
        eq.static_size(x, 1)          # 16 when some equal dim is known to be 16, else None
    """

    __slots__ = ("_index", "_keys", "_parent", "_size", "conflicts")

    def __init__(self, root: Operation) -> None:
        self._index: dict[tuple[Value, int], int] = {}
        self._keys: list[tuple[Value, int]] = []
        self._parent: list[int] = []
        self._size: dict[int, int] = {}
        self.conflicts: list[tuple[Operation, str]] = []
        table = _callee_table(root)
        ops = list(root.walk(post_order=False))
        counts: dict[str, int] = {}
        for op in ops:
            if type(op) is CallOp:
                name = op.get_attr("callee").root  # type: ignore[union-attr]
                counts[name] = counts.get(name, 0) + 1
        # Calls link dims across functions only for a callee with one call site: with several,
        # its parameters stand for different sizes at different sites.
        single = {name: f for name, f in table.items() if counts.get(name) == 1}
        for op in ops:
            self._seed(op, single)

    # -- union-find ------------------------------------------------------------------------------

    def _id(self, v: Value, d: int) -> int:
        key = (v, d)
        i = self._index.get(key)
        if i is None:
            i = self._index[key] = len(self._keys)
            self._keys.append(key)
            self._parent.append(i)
            size = v.type.shape[d]  # type: ignore[attr-defined]
            if size != DYNAMIC:
                self._size[i] = size
        return i

    def _root(self, i: int) -> int:
        parent = self._parent
        r = i
        while parent[r] != r:
            r = parent[r]
        while parent[i] != r:
            parent[i], i = r, parent[i]
        return r

    def union(self, a: Value, i: int, b: Value, j: int, op: Operation | None = None) -> None:
        """Record that dim i of `a` equals dim j of `b` (both ranked)."""
        da, db = a.type.shape[i], b.type.shape[j]  # type: ignore[attr-defined]
        if da != DYNAMIC and db != DYNAMIC:
            if da != db and op is not None:
                self.conflicts.append((op, f"dimension of size {da} must equal one of size {db}"))
            return  # static dims need no class
        ra, rb = self._root(self._id(a, i)), self._root(self._id(b, j))
        if ra == rb:
            return
        sa, sb = self._size.get(ra), self._size.get(rb)
        if sa is not None and sb is not None and sa != sb and op is not None:
            self.conflicts.append((op, f"dimension of size {sa} must equal one of size {sb}"))
        self._parent[rb] = ra
        if sa is None and sb is not None:
            self._size[ra] = sb

    # -- queries ---------------------------------------------------------------------------------

    def equivalent(self, a: Value, i: int, b: Value, j: int) -> bool:
        """Dim i of `a` and dim j of `b` are known equal (same static size, or same class)."""
        if _is_ranked(a) and _is_ranked(b):
            da, db = a.type.shape[i], b.type.shape[j]  # type: ignore[attr-defined]
            if da != DYNAMIC and da == db:
                return True
        ka, kb = self._index.get((a, i)), self._index.get((b, j))
        return ka is not None and kb is not None and self._root(ka) == self._root(kb)

    def class_id(self, v: Value, d: int) -> int | None:
        """A representative id of the class of dim d of `v` (None if it was never seeded)."""
        k = self._index.get((v, d))
        return None if k is None else self._root(k)

    def static_size(self, v: Value, d: int) -> int | None:
        """The static size dim d of `v` is known to have (its own, or an equal dim's)."""
        size = v.type.shape[d] if _is_ranked(v) else DYNAMIC  # type: ignore[attr-defined]
        if size != DYNAMIC:
            return size
        k = self._index.get((v, d))
        return None if k is None else self._size.get(self._root(k))

    def classes(self) -> list[list[tuple[Value, int]]]:
        """The classes with more than one member, members in seeding order."""
        groups: dict[int, list[tuple[Value, int]]] = {}
        for i, key in enumerate(self._keys):
            groups.setdefault(self._root(i), []).append(key)
        return [g for g in groups.values() if len(g) > 1]

    # -- seeding from the op semantics -----------------------------------------------------------

    def _same(self, a: Value, b: Value, op: Operation) -> None:
        if _is_ranked(a) and _is_ranked(b):
            for i in range(min(a.type.rank, b.type.rank)):  # type: ignore[attr-defined]
                self.union(a, i, b, i, op)

    def _broadcast(self, out: Value, ins: Sequence[Value], op: Operation, lead: int = 0) -> None:
        """Dims of broadcasting operands `ins` (the first `rank - lead` dims of each) against
        `out`: a result dim equals an operand dim when every other operand has a static 1 there
        (or lacks the dim), or when all non-1 operand dims there are already equal."""
        if not _is_ranked(out) or not all(_is_ranked(v) for v in ins):
            return
        rank = out.type.rank - lead  # type: ignore[attr-defined]
        shapes = [v.type.shape[: v.type.rank - lead] for v in ins]  # type: ignore[attr-defined]
        out_shape = out.type.shape  # type: ignore[attr-defined]
        for i in range(rank):
            if out_shape[i] != DYNAMIC:
                continue  # a static result dim needs no class
            live = []
            for v, s in zip(ins, shapes):
                j = i - (rank - len(s))
                if j >= 0 and s[j] != 1:
                    live.append((v, j))
            if not live:
                continue
            first = live[0]
            if all(self.equivalent(first[0], first[1], v, j) for v, j in live[1:]):
                for v, j in live:
                    self.union(out, i, v, j, op)

    def _seed(self, op: Operation, table: dict[str, Operation]) -> None:
        cls = type(op)
        if cls is G.FusedOp:
            args = op.regions[0].blocks[0].arguments if op.regions[0].blocks else ()
            for v, a in zip(op.operands, args):
                self._same(v, a, op)
            last = op.regions[0].blocks[0].last if op.regions[0].blocks else None
            if type(last) is G.YieldOp:
                for r, v in zip(op.results, last.operands):
                    self._same(r, v, op)
            return
        if not op.results and cls is not CallOp:
            return
        if cls is CallOp:
            self._seed_call(op, table)
            return
        if cls is TensorCastOp:
            self._same(op.operands[0], op.results[0], op)
            return
        if not isinstance(op, G.GraphOp):
            return
        seed = _SEEDS.get(cls)
        if seed is not None:
            seed(self, op)
        elif G.Elementwise in cls._traits:
            self._broadcast(op.results[0], op.operands, op)

    def _seed_call(self, op: Operation, table: dict[str, Operation]) -> None:
        ref = op.get_attr("callee")
        callee = table.get(ref.root) if type(ref) is A.SymbolRefAttr else None  # type: ignore
        if type(callee) is not FuncOp or callee.is_declaration:  # type: ignore[attr-defined]
            return
        entry = callee.regions[0].blocks[0]
        for v, a in zip(op.operands, entry.arguments):
            self._same(v, a, op)
        last = entry.last
        if type(last) is ReturnOp and len(callee.regions[0].blocks) == 1:
            for r, v in zip(op.results, last.operands):
                self._same(r, v, op)


def _is_ranked(v: Value) -> bool:
    return type(v.type) is _RANKED


def _seed_matmul(eq: DimEquivalence, op: Operation) -> None:
    a, b = op.operands
    out = op.results[0]
    if not (_is_ranked(a) and _is_ranked(b) and _is_ranked(out)):
        return
    ra, rb, ro = a.type.rank, b.type.rank, out.type.rank  # type: ignore[attr-defined]
    eq.union(a, ra - 1, b, rb - 2, op)
    eq.union(out, ro - 2, a, ra - 2, op)
    eq.union(out, ro - 1, b, rb - 1, op)
    eq._broadcast(out, [a, b], op, lead=2)


def _seed_transpose(eq: DimEquivalence, op: Operation) -> None:
    x, out = op.operands[0], op.results[0]
    if _is_ranked(x) and _is_ranked(out):
        for i, p in enumerate(op.perm_value()):  # type: ignore[attr-defined]
            eq.union(out, i, x, p, op)


def _seed_reshape(eq: DimEquivalence, op: Operation) -> None:
    """Dims whose products before and after match on both sides keep their place: with one
    dynamic operand dim p and target entry q, result dim q equals operand dim p."""
    x, out = op.operands[0], op.results[0]
    if not (_is_ranked(x) and _is_ranked(out)):
        return
    src, dst = x.type.shape, out.type.shape  # type: ignore[attr-defined]
    dyn_src = [i for i, d in enumerate(src) if d == DYNAMIC]
    dyn_dst = [i for i, d in enumerate(dst) if d == DYNAMIC]
    if len(dyn_src) != 1 or len(dyn_dst) != 1:
        return
    p, q = dyn_src[0], dyn_dst[0]
    if _prod(src[:p]) == _prod(dst[:q]) and _prod(src[p + 1 :]) == _prod(dst[q + 1 :]):
        eq.union(out, q, x, p, op)


def _prod(dims: Sequence[int]) -> int:
    n = 1
    for d in dims:
        n *= d
    return n


def _seed_concat(eq: DimEquivalence, op: Operation) -> None:
    out = op.results[0]
    if not _is_ranked(out):
        return
    axis = op.axis_value()  # type: ignore[attr-defined]
    for v in op.operands:
        if _is_ranked(v):
            for i in range(out.type.rank):  # type: ignore[attr-defined]
                if i != axis:
                    eq.union(out, i, v, i, op)


def _seed_reduce(eq: DimEquivalence, op: Operation) -> None:
    x, out = op.operands[0], op.results[0]
    if not (_is_ranked(x) and _is_ranked(out)):
        return
    axes = set(op.axes_value())  # type: ignore[attr-defined]
    keep = op.keepdims_value()  # type: ignore[attr-defined]
    j = 0
    for i in range(x.type.rank):  # type: ignore[attr-defined]
        if i in axes:
            j += 1 if keep else 0
            continue
        eq.union(out, j, x, i, op)
        j += 1


def _seed_same_shape(eq: DimEquivalence, op: Operation) -> None:
    eq._same(op.operands[0], op.results[0], op)


def _seed_window(eq: DimEquivalence, op: Operation) -> None:
    """conv2d / pooling: N kept; conv O from the filter (and bias), pooling C kept; OH == H and
    OW == W for stride 1 with "same" padding."""
    x, out = op.operands[0], op.results[0]
    if not (_is_ranked(x) and _is_ranked(out)):
        return
    eq.union(out, 0, x, 0, op)
    strides, pads = op.strides_value(), op.pads_value()  # type: ignore[attr-defined]
    if type(op) is G.Conv2DOp:
        w = op.operands[1]
        if not _is_ranked(w):
            return
        eq.union(out, 1, w, 0, op)
        if len(op.operands) == 3 and _is_ranked(op.operands[2]):
            eq.union(out, 1, op.operands[2], 0, op)
        if op.groups_value() == 1:  # type: ignore[attr-defined]
            eq.union(x, 1, w, 1, op)
        dil = op.dilations_value()  # type: ignore[attr-defined]
        kh, kw = w.type.shape[2], w.type.shape[3]  # type: ignore[attr-defined]
        extents = (
            DYNAMIC if kh == DYNAMIC else dil[0] * (kh - 1) + 1,
            DYNAMIC if kw == DYNAMIC else dil[1] * (kw - 1) + 1,
        )
    else:
        eq.union(out, 1, x, 1, op)
        extents = tuple(op.kernel_value())  # type: ignore[attr-defined]
    for k in range(2):
        e = extents[k]
        if e != DYNAMIC and strides[k] == 1 and pads[k] + pads[k + 2] == e - 1:
            eq.union(out, 2 + k, x, 2 + k, op)


_SEEDS: dict[type, Any] = {
    G.MatmulOp: _seed_matmul,
    G.TransposeOp: _seed_transpose,
    G.ReshapeOp: _seed_reshape,
    G.ConcatOp: _seed_concat,
    G.ReduceSumOp: _seed_reduce,
    G.ReduceMaxOp: _seed_reduce,
    G.ReduceMinOp: _seed_reduce,
    G.ReduceMeanOp: _seed_reduce,
    G.SoftmaxOp: _seed_same_shape,
    G.CastOp: _seed_same_shape,
    G.Conv2DOp: _seed_window,
    G.MaxPool2DOp: _seed_window,
    G.AvgPool2DOp: _seed_window,
    G.BroadcastToOp: lambda eq, op: None,  # result dims are static
    G.SliceOp: lambda eq, op: None,  # result dims are static
}


def _callee_table(root: Operation) -> dict[str, Operation]:
    """Top-level functions of the symbol table at (or above) `root`, by name."""
    table_op: Operation | None = root
    while table_op is not None and not table_op._has_symbol_table:
        table_op = table_op.parent_op
    if table_op is None:
        return {}
    out: dict[str, Operation] = {}
    for block in table_op.regions[0].blocks:
        for op in block:
            if type(op) is FuncOp:
                out[op.get_attr("sym_name").value] = op  # type: ignore[union-attr]
    return out


# ---------------------------------------------------------------------------------------------
# The pass


class _Conflict(Exception):
    def __init__(self, op: Operation, message: str) -> None:
        super().__init__(message)
        self.op = op


def _graph_op(op: Operation) -> bool:
    return isinstance(op, G.GraphOp)


class _Refiner:
    """Forward refinement of result types in function bodies; remembers original types."""

    def __init__(self, funcs: dict[str, Operation]) -> None:
        self.funcs = funcs
        self.original: dict[Value, A.Type] = {}
        self.num_refined = 0
        # Values refined since the last drain, and callees of the calls refined since then:
        # the interprocedural fixpoint propagates from these instead of re-sweeping bodies.
        self.changed: list[Value] = []
        self.callees: list[Operation] = []
        # Refined result types per graph op signature (see `_refine_graph`).
        self.memo: dict[tuple, list[A.Type]] = {}

    def set_type(self, v: Value, t: A.Type) -> None:
        if v not in self.original:
            self.original[v] = v.type
        v.type = t
        self.num_refined += 1
        self.changed.append(v)

    def refine_block(self, block: Block) -> None:
        for op in block:
            self.refine_op(op)

    def refine_op(self, op: Operation) -> None:
        cls = type(op)
        if cls is G.FusedOp:
            self._refine_fused(op)
            return
        if cls is CallOp:
            self._refine_call(op)
            return
        if _graph_op(op):
            self._refine_graph(op)
            return
        if cls is TensorCastOp:
            # The cast's value is its source's, so it may take the source's refinements, unless
            # no user could use them (they would get a cast back).
            r = op.results[0]
            new = refine_type(r.type, op._operands[0].value.type)
            if (
                new is not None
                and new is not r.type
                and any(type(u) in _TAKES_REFINED or _graph_op(u) for u in r.users)
            ):
                self.set_type(r, new)
            return
        for region in op.regions:
            for block in region.blocks:
                self.refine_block(block)

    def _refine_graph(self, op: Operation) -> None:
        results = op.results
        cls = type(op)
        if len(results) == 1 and G.Elementwise in cls._traits:
            # An elementwise op whose operands all have its result type infers that type.
            t = results[0].type
            for u in op._operands:
                if u.value.type is not t:
                    break
            else:
                return
        key: tuple | None = None
        if not op.regions:
            # The refined result types are a function of the op class, the operand and result
            # types and the attributes (all interned, hashed by identity): computed once per
            # signature (graphs repeat a few layer shapes many times).
            attrs = op._attrs
            operands = op._operands
            n = len(operands)
            if not attrs and len(results) == 1 and n <= 2:
                # The common shapes, built without the intermediate lists (the same key).
                if n == 2:
                    t0, t1 = operands[0].value.type, operands[1].value.type
                    key = (cls, t0, t1, None, results[0].type)
                elif n == 1:
                    key = (cls, operands[0].value.type, None, results[0].type)
                else:
                    key = (cls, None, results[0].type)
            else:
                key = (
                    cls,
                    *[u.value.type for u in operands],
                    None,
                    *[r.type for r in results],
                    *(attrs.items() if attrs else ()),
                )
            refined = self.memo.get(key)
            if refined is not None:
                for r, new in zip(results, refined):
                    if new is not r.type:
                        self.set_type(r, new)
                return
        try:
            inferred = cls.infer_from(  # type: ignore[attr-defined]
                [u.value.type for u in op._operands],
                op._attrs or {},
                [r.type for r in results],
                op.regions,
            )
        except ShapeInferenceError as e:
            raise _Conflict(op, f"shape conflict: {e}") from None
        refined = []
        for i, (r, t) in enumerate(zip(results, inferred)):
            new = refine_type(r.type, t)
            if new is None:
                raise _Conflict(
                    op, f"shape conflict: result #{i} has type {r.type}, but the operands give {t}"
                )
            refined.append(new)
        if key is not None:
            self.memo[key] = refined
        for r, new in zip(results, refined):
            if new is not r.type:
                self.set_type(r, new)

    def _refine_fused(self, op: Operation) -> None:
        body = op.regions[0]
        if not body.blocks:
            return
        entry = body.blocks[0]
        for a, u in zip(entry.arguments, op._operands):
            if a.type is not u.value.type:
                self.set_type(a, u.value.type)
        self.refine_block(entry)
        last = entry.last
        if type(last) is not G.YieldOp:
            return
        for i, (r, u) in enumerate(zip(op.results, last._operands)):
            t = u.value.type
            new = refine_type(r.type, t)
            if new is None:
                raise _Conflict(
                    op, f"shape conflict: result #{i} has type {r.type}, but the body yields {t}"
                )
            if new is not r.type:
                self.set_type(r, new)

    def _refine_call(self, op: Operation) -> None:
        ref = op.get_attr("callee")
        callee = self.funcs.get(ref.root) if type(ref) is A.SymbolRefAttr else None  # type: ignore
        if callee is None:
            return
        self.callees.append(callee)
        want = callee.func_type.results  # type: ignore[attr-defined]
        for i, (r, t) in enumerate(zip(op.results, want)):
            new = refine_type(r.type, t)
            if new is None:
                raise _Conflict(
                    op, f"shape conflict: result #{i} has type {r.type}, but the callee returns {t}"
                )
            if new is not r.type:
                self.set_type(r, new)


class GraphShapeInferencePass(Pass):
    """Refine tensor types through graph ops, graph.fused bodies and function calls.

    Result types become the most refined type compatible with the declared one and the one
    inferred from the operands (unranked types get ranks where derivable); `?` stays where the
    size is unknown. Private functions called only by func.call get argument types from their
    call sites: the generalization of all sites, or, when sites disagree, one specialized copy
    per call signature (knob `specialize`). Public functions keep their argument types (the
    contract); their results may be refined. A use that needs the old type (a non-graph op, a
    public callee) gets a tensor.cast. A shape conflict is an error at the op.
    """

    name = "graph-shape-inference"
    anchor = "builtin.module"
    max_specializations = Option(
        int, 4, "Most call signatures a private function is specialized for by default"
    )
    annotate_dims = Option(
        bool,
        False,
        "Record the classes of equal dynamic dims of each function's arguments and results "
        "as a `graph.dim_classes` function attribute",
    )
    knobs = (
        KnobDecl(
            "specialize",
            "bool",
            "Specialize this private function per call signature when its call sites disagree "
            "(default: at most max-specializations signatures)",
        ),
    )
    num_refined = Statistic("num-refined", "Number of value types refined")
    num_specialized = Statistic("num-specialized", "Number of function specializations created")
    num_casts = Statistic("num-casts", "Number of tensor.cast ops inserted for fixed types")

    def run(self, op: Operation, ctx: PassContext) -> None:
        try:
            self._run(op, ctx)
        except _Conflict as e:
            ctx.error(str(e), e.op)

    def _run(self, module: Operation, ctx: PassContext) -> None:
        table = SymbolTable(module)
        funcs = _callee_table(module)
        refiner = _Refiner(funcs)
        calls, escaping = _call_sites(module, funcs)
        fixed_args = {
            f
            for f in funcs.values()
            if get_symbol_visibility(f) != "private" or f.is_declaration or f in escaping
        }
        recursive = _recursive(funcs, calls)
        state = _State(refiner, funcs, calls, fixed_args)
        order = _callers_first(funcs, calls)
        state.fixpoint(order)
        # Specialize private callees whose call sites disagree, callers first.
        for f in order:
            if f in fixed_args or f in recursive or f.parent is None:
                continue
            sites = [c for c in calls.get(f, ()) if c.parent is not None]
            groups: dict[tuple[A.Type, ...], list[Operation]] = {}
            for c in sites:
                groups.setdefault(tuple(v.type for v in c.operands), []).append(c)
            if len(groups) < 2:
                continue
            if not ctx.knob(f, "specialize", Bool(), len(groups) <= self.max_specializations):
                continue
            clones = []
            for members in list(groups.values())[1:]:
                mapping: dict[Any, Any] = {}
                clone = f.clone(mapping)
                for old, new in mapping.items():  # the copies need the same casts back
                    if old in refiner.original and isinstance(new, Value):
                        refiner.original[new] = refiner.original[old]
                table.insert(clone, f.next)
                name = clone.get_attr("sym_name").value  # type: ignore[union-attr]
                funcs[name] = clone
                ref = A.SymbolRefAttr(name)
                for c in members:
                    c.set_attr("callee", ref)
                calls[clone] = members
                moved = set(members)
                calls[f] = [c for c in calls[f] if c not in moved]
                for nested in clone.walk():
                    if type(nested) is CallOp:
                        callee = funcs.get(nested.get_attr("callee").root)  # type: ignore
                        if callee is not None:
                            calls.setdefault(callee, []).append(nested)
                clones.append(clone)
                self.num_specialized += 1
            state.fixpoint([f, *clones])
        self.num_casts += _insert_casts(module, refiner, funcs, calls)
        self.num_refined += refiner.num_refined
        if self.annotate_dims:
            eq = DimEquivalence(module)
            if eq.conflicts:
                op, message = eq.conflicts[0]
                ctx.error(f"shape conflict: {message}", op)
                return
            for f in funcs.values():
                if not f.is_declaration and f.parent is not None:
                    _annotate(f, eq)


class _State:
    """The interprocedural fixpoint: refine bodies, propagate results to callers and call-site
    types to private callees' arguments, until nothing changes.

    Each function body is swept once per `fixpoint` seed; later changes (a callee's results,
    a caller's operand types) are propagated sparsely from the values they refine to their
    users, so a function with many calls is not re-swept per callee (which was quadratic).
    A value's type only gets more refined, so each use is revisited a bounded number of times.
    """

    def __init__(
        self,
        refiner: _Refiner,
        funcs: dict[str, Operation],
        calls: dict[Operation, list[Operation]],
        fixed_args: set[Operation],
    ) -> None:
        self.refiner = refiner
        self.funcs = funcs
        self.calls = calls
        self.fixed_args = fixed_args
        self.swept: set[Operation] = set()
        # Pending work of the propagation, in insertion order (dicts as ordered sets).
        self.results_dirty: dict[Operation, None] = {}
        self.args_dirty: dict[Operation, None] = {}

    def fixpoint(self, seed: list[Operation]) -> None:
        """Sweep the functions of `seed` (callers before callees, so that arguments are refined
        from final call sites where possible), then propagate what changed until stable."""
        refiner = self.refiner
        for f in seed:
            if f.parent is None or f.is_declaration:  # type: ignore[attr-defined]
                continue
            if f not in self.fixed_args:
                self._refine_args(f)
            del refiner.callees[:]
            for block in f.regions[0].blocks:
                refiner.refine_block(block)
            # The sweep visited every use of what it refined in `f`, except in returns and
            # calls: those are the function's results and its callees' arguments.
            del refiner.changed[:]
            self.swept.add(f)
            self.results_dirty[f] = None
            for g in refiner.callees:
                if g in self.swept and g not in self.fixed_args:
                    self.args_dirty[g] = None
        self._propagate()

    def _propagate(self) -> None:
        refiner = self.refiner
        changed = refiner.changed
        while True:
            while changed:
                self._visit_users(changed.pop())
            if self.results_dirty:
                f = next(iter(self.results_dirty))
                del self.results_dirty[f]
                if f.parent is not None and self._refine_results(f):
                    for c in self.calls.get(f, ()):
                        if c.parent is not None:
                            refiner.refine_op(c)
                continue
            if self.args_dirty:
                g = next(iter(self.args_dirty))
                del self.args_dirty[g]
                if g.parent is not None:
                    self._refine_args(g)
                continue
            return

    def _visit_users(self, v: Value) -> None:
        """Re-refine the users of `v`, whose type was just refined."""
        refiner = self.refiner
        for use in list(v.uses):
            user = use.owner
            cls = type(user)
            if cls is ReturnOp:
                f = user.parent_op
                if type(f) is FuncOp:
                    self.results_dirty[f] = None
            elif cls is CallOp:
                ref = user.get_attr("callee")
                g = self.funcs.get(ref.root) if type(ref) is A.SymbolRefAttr else None  # type: ignore
                if g is not None and g not in self.fixed_args:
                    self.args_dirty[g] = None
            elif cls is G.YieldOp:
                parent = user.parent_op
                if type(parent) is G.FusedOp:
                    refiner.refine_op(parent)
            else:
                refiner.refine_op(user)

    def _refine_results(self, f: Operation) -> bool:
        returns = [b.last for b in f.regions[0].blocks if type(b.last) is ReturnOp]
        if not returns:
            return False
        ft = f.func_type  # type: ignore[attr-defined]
        results = list(ft.results)
        changed = False
        for i, t in enumerate(results):
            if i >= len(returns[0].operands):
                return False
            general = generalize_types([r.operands[i].type for r in returns])
            new = refine_type(t, general) if general is not None else t
            if new is None:
                raise _Conflict(
                    returns[0], f"shape conflict: result #{i} of the function is {t}, but "
                    f"{general} is returned"
                )  # fmt: skip
            if new is not t:
                results[i] = new
                changed = True
        if changed:
            f.set_attr("function_type", A.TypeAttr(A.FunctionType(ft.inputs, results)))
        return changed

    def _refine_args(self, g: Operation) -> bool:
        """Arguments of private `g` from its call sites' operand types; True if refined."""
        sites = [c for c in self.calls.get(g, ()) if c.parent is not None]
        if not sites or g.is_declaration:  # type: ignore[attr-defined]
            return False
        ft = g.func_type  # type: ignore[attr-defined]
        inputs = list(ft.inputs)
        entry = g.regions[0].blocks[0]
        changed = False
        for i, t in enumerate(inputs):
            general = generalize_types([c.operands[i].type for c in sites])
            new = refine_type(t, general) if general is not None else t
            if new is None or new is t:
                continue  # conflicting call sites are reported by the verifier
            inputs[i] = new
            self.refiner.set_type(entry.arguments[i], new)
            changed = True
        if changed:
            g.set_attr("function_type", A.TypeAttr(A.FunctionType(inputs, ft.results)))
        return changed


def _call_sites(
    module: Operation, funcs: dict[str, Operation]
) -> tuple[dict[Operation, list[Operation]], set[Operation]]:
    """func.call sites of each function, and the functions referenced other than by a call.

    One walk of the module; only attribute values that can hold a symbol reference (a
    reference, an array or a dictionary: what `symbol_refs_in` looks into) are scanned, so
    the dense constants and integer attributes of a graph cost one type test each."""
    calls: dict[Operation, list[Operation]] = {}
    escaping: set[Operation] = set()
    holders = _REF_HOLDERS
    for op in walk_symbol_table(module.regions):
        attrs = op._attrs
        if not attrs:
            continue
        if type(op) is CallOp:
            callee = funcs.get(op.get_attr("callee").root)  # type: ignore[union-attr]
            if callee is not None:
                calls.setdefault(callee, []).append(op)
            continue
        for key, value in attrs.items():
            if type(value) not in holders or (key == "sym_name" and type(op) is FuncOp):
                continue
            for ref in symbol_refs_in(value):
                f = funcs.get(ref.root)
                if f is not None:
                    escaping.add(f)
    return calls, escaping


# The attribute kinds `symbol_refs_in` yields from or descends into (exact types, as there).
_REF_HOLDERS = frozenset((A.SymbolRefAttr, A.ArrayAttr, A.DictionaryAttr))


def _edges(
    funcs: dict[str, Operation], calls: dict[Operation, list[Operation]]
) -> dict[Operation, dict[Operation, None]]:
    """Caller -> callees (ordered sets, so that the orders derived from them are deterministic;
    a set of ops iterates in address order)."""
    edges: dict[Operation, dict[Operation, None]] = {f: {} for f in funcs.values()}
    for callee, sites in calls.items():
        for c in sites:
            op = c.parent_op
            while op is not None and type(op) is not FuncOp:
                op = op.parent_op
            if op is not None:
                edges.setdefault(op, {})[callee] = None
    return edges


def _recursive(
    funcs: dict[str, Operation], calls: dict[Operation, list[Operation]]
) -> set[Operation]:
    from mlc.passes.inline import _sccs

    edges = _edges(funcs, calls)
    nodes = list(funcs.values())
    position = {f: i for i, f in enumerate(nodes)}
    out: set[Operation] = set()
    for comp in _sccs(nodes, {f: sorted(edges[f], key=position.__getitem__) for f in nodes}):
        if len(comp) > 1 or comp[0] in edges[comp[0]]:
            out.update(comp)
    return out


def _callers_first(
    funcs: dict[str, Operation], calls: dict[Operation, list[Operation]]
) -> list[Operation]:
    """Functions in reverse post-order of the call graph (callers before their callees)."""
    edges = _edges(funcs, calls)
    nodes = list(funcs.values())
    order: list[Operation] = []
    seen: set[Operation] = set()
    for root in nodes:
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(edges[root]))]
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                order.append(node)
            elif nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, iter(edges.get(nxt, ()))))
    order.reverse()
    return order


def _insert_casts(
    module: Operation,
    refiner: _Refiner,
    funcs: dict[str, Operation],
    calls: dict[Operation, list[Operation]],
) -> int:
    """tensor.cast back to the type a use requires, where the use cannot take the refined type:
    call operands vs the callee's parameters, returns vs the function's results, and any
    other non-graph user vs the value's original type.

    The returns are the terminators of each function's blocks and the calls those gathered
    by `_call_sites` (kept current through specialization): no second walk of the module,
    which at 100k ops no longer fits in the last-level cache."""
    count = 0
    casts: dict[Value, Value] = {}
    for v, old in refiner.original.items():
        if v.type is old:
            continue
        for use in list(v.uses):
            user = use.owner
            cls = type(user)
            if cls in _TAKES_REFINED or _graph_op(user):
                continue
            cast = casts.get(v)
            if cast is None:
                cast = casts[v] = _cast_after_def(v, old)
                count += 1
            if cast.op is not user:  # type: ignore[attr-defined]
                use.set(cast)
    bodies = set()
    for f in funcs.values():
        if f.parent is None or f.is_declaration:  # type: ignore[attr-defined]
            continue
        bodies.add(f)
        results = f.func_type.results  # type: ignore[attr-defined]
        for block in f.regions[0].blocks:
            last = block.last
            if type(last) is ReturnOp:
                count += _cast_operands(last, results)
    for callee, sites in calls.items():
        inputs = callee.func_type.inputs  # type: ignore[attr-defined]
        for c in sites:
            # Only calls inside a function body of this module (as a walk of the bodies).
            top = c.parent_op
            while top is not None and top.parent_op is not module:
                top = top.parent_op
            if top in bodies:
                count += _cast_operands(c, inputs)
    return count


# Users that take a refined operand as it is: the pass fixes call and return operands against
# the signatures afterwards, graph.yield sets the fused results, and tensor.cast accepts any
# compatible source type.
_TAKES_REFINED = (CallOp, ReturnOp, G.YieldOp, TensorCastOp)


def _cast_operands(op: Operation, want: Sequence[A.Type]) -> int:
    n = 0
    for i, (v, t) in enumerate(zip(op.operands, want)):
        if v.type is not t and refine_type(t, v.type) is not None:
            cast = TensorCastOp.create([v], [t], location=op.location)
            op.parent.insert_before(cast, op)  # type: ignore[union-attr]
            op.set_operand(i, cast.results[0])
            n += 1
    return n


def _cast_after_def(v: Value, old: A.Type) -> Value:
    if type(v) is OpResult:
        owner = v.op
        cast = TensorCastOp.create([v], [old], location=owner.location)
        owner.parent.insert_after(cast, owner)  # type: ignore[union-attr]
    else:
        assert type(v) is BlockArgument
        block = v.block
        cast = TensorCastOp.create([v], [old], location=v.location)
        if block.first is None:
            block.append(cast)
        else:
            block.insert_before(cast, block.first)
    return cast.results[0]


def _annotate(f: Operation, eq: DimEquivalence) -> None:
    """`graph.dim_classes`: classes (of two or more members) of the dynamic dims of `f`'s
    arguments (`argN:d`) and returned values (`resN:d`)."""
    entry = f.regions[0].blocks[0]
    members: list[tuple[str, Value, int]] = []
    for i, a in enumerate(entry.arguments):
        if _is_ranked(a):
            for d, size in enumerate(a.type.shape):  # type: ignore[attr-defined]
                if size == DYNAMIC:
                    members.append((f"arg{i}:{d}", a, d))
    last = entry.last
    if type(last) is ReturnOp:
        for i, v in enumerate(last.operands):
            if _is_ranked(v):
                for d, size in enumerate(v.type.shape):  # type: ignore[attr-defined]
                    if size == DYNAMIC:
                        members.append((f"res{i}:{d}", v, d))
    groups: dict[int, list[str]] = {}
    for name, v, d in members:
        k = eq.class_id(v, d)
        if k is not None:
            groups.setdefault(k, []).append(name)
    classes = [g for g in groups.values() if len(g) > 1]
    if classes:
        attr = A.ArrayAttr([A.ArrayAttr([A.StringAttr(n) for n in g]) for g in classes])
        f.set_attr("graph.dim_classes", attr)
