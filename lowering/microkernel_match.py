"""Recognition for `contraction-microkernel`: a buffer-form contraction generic, the generic
that initializes its output (a fill, a broadcast bias) and the elementwise epilogues after it.

The contraction is seen in its GEMM view: loop dims split into batch dims, M dims (in A and C,
not in B), the N dim (C's last dim, in B, not in A) and K dims (the reductions, in A and B).
Several M or K dims (conv2d's implicit GEMM) are flattened, outermost first; the inner ones
need static sizes. Every access is rewritten as an affine map of the *view* dims
`(b0, ..., m, n, k)`.
"""

from __future__ import annotations

from typing import Any

from mlc.dialects import func, tensor

from mlc.interfaces import is_memory_effect_free
from mlc.ir import attributes as A
from mlc.ir.affine import AffineExpr, AffineMap, dim
from mlc.ir.core import Block, BlockArgument, Operation, Value

__all__ = ["Contraction", "Stage", "match_contractions"]

DYN = A.DYNAMIC
# Ops between the absorbed generics that may stay where they are (they touch no memory).
_VIEW_OPS = frozenset(
    {
        "memref.subview",
        "memref.cast",
        "memref.reinterpret_cast",
        "memref.collapse_shape",
        "memref.expand_shape",
        "memref.view",
        "memref.transpose",
    }
)


class Stage:
    """An absorbed elementwise generic: the output's initializer or an epilogue.

    `inputs[i]` describes body argument i: ("cur", None, None) for the current value of the
    output element, ("vec" | "bcast", memref, view map) for an operand read through `view`
    (along n contiguously, or independent of n).
    """

    __slots__ = ("op", "inputs", "dest", "dest_view", "out_is_cur")

    def __init__(self, op: Any) -> None:
        self.op = op
        self.inputs: list[tuple[str, Value | None, AffineMap | None]] = []
        self.dest: Value = op.outputs[0]
        self.dest_view: AffineMap | None = None
        self.out_is_cur = False


class Contraction:
    """A matched contraction generic in its GEMM view, with its absorbed stages."""

    __slots__ = (
        "op",
        "a",
        "b",
        "c",
        "a_view",
        "b_view",
        "c_view",
        "batch",
        "mdims",
        "ndim",
        "kdims",
        "sizes",
        "view",
        "init",
        "init_zero",
        "epilogues",
        "dest",
        "dest_view",
        "block",
        "b_direct",
    )

    def __init__(self, op: Any) -> None:
        self.op = op
        self.init: Stage | None = None
        self.init_zero = False
        self.epilogues: list[Stage] = []
        self.batch: list[int] = []
        self.mdims: list[int] = []
        self.kdims: list[int] = []
        self.ndim = -1

    @property
    def nb(self) -> int:
        return len(self.batch)

    def n_view_dim(self) -> int:
        return len(self.batch) + 1


def _root(v: Value) -> Value:
    """The buffer `v` is a view of (through view-like memref ops)."""
    while True:
        owner = v.defining_op()
        if owner is None or owner.name not in _VIEW_OPS or not owner.operands:
            return v
        v = owner.operands[0]


def _unit_last_stride(v: Value) -> bool:
    t = v.type
    if type(t) is not A.MemRefType or t.rank == 0:
        return False
    try:
        strides, _ = t.strides_and_offset()
    except ValueError:
        return False
    return strides[-1] == 1


def _is_f32_memref(v: Value) -> bool:
    t = v.type
    return type(t) is A.MemRefType and t.element_type is A.f32


def _body_ops(op: Any) -> tuple[list[Operation], Operation]:
    ops = list(op.body)
    return ops[:-1], ops[-1]


def _contraction_body(op: Any) -> bool:
    """Body is `out + in0 * in1` (either operand order) yielded."""
    ops, term = _body_ops(op)
    if len(ops) != 2 or term.name != "tensor.yield" or len(term.operands) != 1:
        return False
    mul, add = ops
    args = op.body.arguments
    if mul.name != "arith.mulf" or add.name != "arith.addf":
        return False
    if set(mul.operands) != {args[0], args[1]} or args[0] is args[1]:
        return False
    if set(add.operands) != {args[2], mul.results[0]}:
        return False
    return term.operands[0] is add.results[0] and mul.results[0].num_uses() == 1


def _decompose(e: AffineExpr, sizes: list[int]) -> list[AffineExpr]:
    """Flattened index `e` over dims of `sizes` (outermost first) as one expression per dim."""
    out = []
    for j in range(len(sizes)):
        inner = 1
        for s in sizes[j + 1 :]:
            inner *= s
        x = e.floordiv(inner) if inner > 1 else e
        if j > 0:
            x = x % sizes[j]
        out.append(x)
    return out


def _view_map(c: Contraction, nloops: int) -> AffineMap:
    """View dims `(b..., m, n, k)` -> loop dims."""
    nb = c.nb
    res: list[AffineExpr | None] = [None] * nloops
    for p, d in enumerate(c.batch):
        res[d] = dim(p)
    for d, e in zip(c.mdims, _decompose(dim(nb), [c.sizes[d] for d in c.mdims])):
        res[d] = e
    res[c.ndim] = dim(nb + 1)
    for d, e in zip(c.kdims, _decompose(dim(nb + 2), [c.sizes[d] for d in c.kdims])):
        res[d] = e
    return AffineMap(nb + 3, 0, res)  # type: ignore[arg-type]


def _uses_dim(amap: AffineMap, d: int) -> bool:
    return amap.is_function_of_dim(d)


def analyze(op: Any) -> Contraction | None:
    """The GEMM view of contraction generic `op`, or None when it is not one we handle."""
    if not op.has_buffer_semantics or len(op.inputs) != 2 or len(op.outputs) != 1:
        return None
    if not all(_is_f32_memref(v) for v in op.operands):
        return None
    if not _contraction_body(op):
        return None
    maps = op.indexing_map_list()
    kinds = op.iterator_kinds()
    n = len(kinds)
    cm = maps[2]
    if cm.num_results == 0 or not cm.is_projected_permutation():
        return None
    c_dims = [r.position for r in cm.results]  # type: ignore[attr-defined]
    reds = [d for d in range(n) if kinds[d] == "reduction"]
    pars = [d for d in range(n) if kinds[d] == "parallel"]
    if not reds or sorted(c_dims) != pars:
        return None
    ndim = c_dims[-1]
    a_uses_n, b_uses_n = _uses_dim(maps[0], ndim), _uses_dim(maps[1], ndim)
    if a_uses_n == b_uses_n:
        return None
    ai, bi = (1, 0) if a_uses_n else (0, 1)
    am, bm = maps[ai], maps[bi]
    c = Contraction(op)
    c.a, c.b, c.c = op.operands[ai], op.operands[bi], op.operands[2]
    c.ndim = ndim
    for d in reds:
        if not (_uses_dim(am, d) and _uses_dim(bm, d)):
            return None
    c.kdims = reds
    for d in c_dims[:-1]:
        in_a, in_b = _uses_dim(am, d), _uses_dim(bm, d)
        if in_a and not in_b:
            c.mdims.append(d)
        else:
            c.batch.append(d)
    try:
        c.sizes = op.loop_sizes()
        op.shape_to_loops()
    except ValueError:
        return None
    for group in (c.mdims, c.kdims):
        if any(c.sizes[d] == DYN for d in group[1:]):
            return None  # a flattened index needs static inner sizes
    if not _unit_last_stride(c.c):
        return None
    if _root(c.c) in (_root(c.a), _root(c.b)):
        return None
    c.view = _view_map(c, n)
    c.a_view, c.b_view, c.c_view = am.compose(c.view), bm.compose(c.view), cm.compose(c.view)
    # B can be read in place by vector loads when n is its contiguous last index.
    nvd = c.n_view_dim()
    res = c.b_view.results
    c.b_direct = (
        bool(res)
        and res[-1] == dim(nvd)
        and not any(r.is_function_of_dim(nvd) for r in res[:-1])
        and _unit_last_stride(c.b)
    )
    return c


# Stages (initializer and epilogues)


def _stage_body_ok(op: Any) -> bool:
    ops, term = _body_ops(op)
    if term.name != "tensor.yield" or len(term.operands) != 1:
        return False
    for inner in ops:
        if inner.regions or not (inner.name.startswith("arith.") or inner.name.startswith("math.")):
            return False
        for r in inner.results:
            t = r.type
            if type(t) not in (A.FloatType, A.IntegerType):
                return False
        for v in inner.operands:
            if type(v.type) not in (A.FloatType, A.IntegerType):
                return False
    y = term.operands[0]
    return type(y.type) is A.FloatType


def _outside_values(op: Any) -> list[Value]:
    body = op.body
    seen: list[Value] = []
    for inner in body:
        for v in inner.operands:
            owner = v.owner
            if type(v) is BlockArgument:
                if owner is body:
                    continue
            elif owner.parent is body:
                continue
            seen.append(v)
    return seen


def _stage(c: Contraction, g: Any, cur: Value | None, pos: dict[Operation, int]) -> Stage | None:
    """`g` as a stage over c's output space (cur: the buffer holding the current value, None
    for an initializer), or None."""
    if type(g) is not tensor.GenericOp or not g.has_buffer_semantics or len(g.outputs) != 1:
        return None
    if any(k != "parallel" for k in g.iterator_kinds()) or not _stage_body_ok(g):
        return None
    if not all(_is_f32_memref(v) for v in g.operands):
        return None
    maps = g.indexing_map_list()
    om = maps[-1]
    rank = c.c.type.rank
    if om.num_results != rank or not om.is_permutation() or g.num_loops != rank:
        return None
    dest = g.outputs[0]
    if not _unit_last_stride(dest):
        return None
    cm = c.op.indexing_map_list()[2]
    # Stage loop dim q writes dest dim p with om.results[p] == q; the contraction writes that
    # dim from its loop dim cm.results[p].
    e2l = [None] * rank
    for p, r in enumerate(om.results):
        e2l[r.position] = cm.results[p]  # type: ignore[attr-defined, call-overload]
    to_loops = AffineMap(c.op.num_loops, 0, e2l)  # type: ignore[arg-type]
    st = Stage(g)
    st.dest_view = om.compose(to_loops).compose(c.view)
    nvd = c.n_view_dim()
    args = g.body.arguments
    n_in = len(g.inputs)
    dest_root = _root(dest)
    for i, (v, m) in enumerate(zip(g.inputs, maps[:n_in])):
        if not args[i].has_uses():
            st.inputs.append(("unused", None, None))
            continue
        if cur is not None and v is cur and m == om:
            st.inputs.append(("cur", None, None))
            continue
        if cur is not None and _root(v) == _root(cur):
            return None
        view = m.compose(to_loops).compose(c.view)
        if _root(v) == dest_root and view != st.dest_view:
            return None
        if cur is None and _root(v) == _root(c.c):
            return None
        if not view.is_function_of_dim(nvd):
            st.inputs.append(("bcast", v, view))
            continue
        last = view.results[-1] if view.num_results else None
        if last != dim(nvd) or not _unit_last_stride(v):
            return None
        if any(r.is_function_of_dim(nvd) for r in view.results[:-1]):
            return None
        st.inputs.append(("vec", v, view))
    out_arg = args[n_in]
    if out_arg.has_uses():
        if cur is None or dest is not cur:
            return None
        st.out_is_cur = True
    if dest_root in (_root(c.a), _root(c.b)):
        return None
    for v in _outside_values(g):
        if not _dominates(v, c.op, pos):
            return None
    return st


def _dominates(v: Value, op: Operation, pos: dict[Operation, int]) -> bool:
    """`v` is available before `op` (op in a function's entry block)."""
    if type(v) is BlockArgument:
        return v.owner is op.parent
    owner = v.owner
    if owner.parent is op.parent:
        return pos[owner] < pos[op]
    return False


def _is_zero_fill(st: Stage) -> bool:
    ops, term = _body_ops(st.op)
    y = term.operands[0]
    owner = y.defining_op()
    if owner is None or owner.name != "arith.constant":
        return False
    attr = owner.get_attr("value")
    return type(attr) is A.FloatAttr and attr.value == 0.0


def _gap_ok(op: Operation, protected: set[Value]) -> bool:
    if op.name == "memref.dealloc":
        return _root(op.operands[0]) not in protected
    return not op.regions and is_memory_effect_free(op)


def _only_dead_uses(v: Value, after: Operation, pos: dict[Operation, int]) -> bool:
    """Every use of buffer `v` after `after` only frees it or reads its sizes."""
    if v.defining_op() is None or v.defining_op().name != "memref.alloc":
        return False
    for use in v.uses:
        user = use.owner
        top = user
        while top.parent is not None and top.parent is not after.parent:
            top = top.parent_op  # type: ignore[assignment]
            if top is None:
                return False
        if pos.get(top, -1) > pos[after] and user.name not in ("memref.dealloc", "memref.dim"):
            return False
    return True


def _absorb(c: Contraction, pos: dict[Operation, int]) -> None:
    """Find c's initializer before it and its epilogue chain after it."""
    op = c.op
    croot = _root(c.c)
    prev = op.prev
    while prev is not None and type(prev) is not tensor.GenericOp and _gap_ok(prev, {croot}):
        prev = prev.prev
    if prev is not None and type(prev) is tensor.GenericOp and prev.outputs[0] is c.c:
        st = _stage(c, prev, None, pos)
        if st is not None and st.dest is c.c:
            c.init = st
            c.init_zero = _is_zero_fill(st)
    cur = c.c
    c.dest, c.dest_view = c.c, c.c_view
    nxt = op.next
    while nxt is not None:
        protected = {_root(cur)}
        g = nxt
        while g is not None and type(g) is not tensor.GenericOp and _gap_ok(g, protected):
            g = g.next
        if g is None or type(g) is not tensor.GenericOp:
            break
        if cur not in g.inputs and g.outputs[0] is not cur:
            break
        st = _stage(c, g, cur, pos)
        if st is None:
            break
        uses_cur = any(k == "cur" for k, _, _ in st.inputs) or st.out_is_cur
        if not uses_cur:
            break
        if any(_root(v) in protected for k, v, _ in st.inputs if v is not None):
            break
        if st.dest is not cur and not _only_dead_uses(cur, g, pos):
            break
        for _k, v, _ in st.inputs:  # what the stage reads must not be freed before it
            if v is not None and not _dominates(v, op, pos):
                break
        else:
            if not _dominates(st.dest, op, pos):
                break
            c.epilogues.append(st)
            cur = st.dest
            c.dest, c.dest_view = st.dest, st.dest_view
            nxt = g.next
            continue
        break


def match_contractions(fn: Operation) -> list[Contraction]:
    """Contractions in the entry block of function `fn`, with their stages absorbed."""
    if type(fn) is not func.FuncOp or not fn.regions[0].blocks:
        return []
    block: Block = fn.regions[0].blocks[0]
    pos = {o: i for i, o in enumerate(block)}
    found: list[Contraction] = []
    taken: set[Operation] = set()
    for o in block:
        if type(o) is not tensor.GenericOp or o in taken:
            continue
        c = analyze(o)
        if c is None:
            continue
        _absorb(c, pos)
        if c.init is not None and c.init.op in taken:
            c.init = None
            c.init_zero = False
        for st in ([c.init] if c.init else []) + c.epilogues:
            taken.add(st.op)
        taken.add(o)
        c.block = block
        found.append(c)
    return found
