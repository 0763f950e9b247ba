"""`affine-loop-fusion`: fuse sibling and producer/consumer affine.for nests that share their outer
loop bounds, level by level, and shrink the intermediates that become private to a fused loop.

    affine.for %i = 0 to %n {              affine.for %i = 0 to %n {
      affine.for %j ... max into %m[%i]      %max = affine.for %j ... iter_args(%m = %init)
    }                                 ==>    affine.for %j ... exp(%x[%i, %j] - %max)
    affine.for %i = 0 to %n {              }
      affine.for %j ... exp(... - %m[%i])
    }
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from mlc.dialects import affine as AF
from mlc.dialects import arith as AR
from mlc.dialects import memref as MR

from mlc.interfaces import get_effects
from mlc.ir import attributes as A
from mlc.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from mlc.ir.core import Block, BlockArgument, Operation, Value
from mlc.knobs import Bool
from mlc.pass_manager import KnobDecl, Option, Pass, PassContext, Statistic

_ACCESS = {"affine.load": False, "affine.store": True}
_MULS = frozenset({"arith.mulf", "arith.muli"})
_FRESH = frozenset({"memref.alloc", "memref.alloca"})
# Region ops whose nested accesses the summary sees through.
_TRANSPARENT = frozenset({"affine.for", "affine.if"})


def _memref_of(op: Operation) -> Value:
    return op._operands[1 if _ACCESS[op.name] else 0].value


def _subscript_operands(op: Operation) -> list[Value]:
    start = 2 if _ACCESS[op.name] else 1
    return [u.value for u in op._operands[start:]]


def pinned_positions(op: Operation, iv: Value) -> frozenset[int]:
    """The subscript positions of access `op` that are exactly the induction variable `iv`."""
    amap = op.get_attr("map").value  # type: ignore[union-attr]
    operands = _subscript_operands(op)
    out = []
    for p, r in enumerate(amap.results):
        if type(r) is AffineDimExpr and operands[r.position] is iv:
            out.append(p)
    return frozenset(out)


class Summary:
    """What a loop (or a fused group of loops) does to memory, seen from one loop level: per
    memref, whether it is written and the subscript positions that every access pins to the
    level's induction variable. `opaque` when something is not understood (unknown effects,
    vector ops, affine.parallel, a memref not known to be distinct from the others)."""

    __slots__ = ("bases", "opaque", "contraction")

    def __init__(self) -> None:
        self.bases: dict[Value, list] = {}  # memref -> [written, pinned positions]
        self.opaque = False
        self.contraction = False

    def add(self, base: Value, write: bool, pinned: frozenset[int]) -> None:
        entry = self.bases.get(base)
        if entry is None:
            self.bases[base] = [write, pinned]
        else:
            entry[0] = entry[0] or write
            entry[1] = entry[1] & pinned

    def merge(self, other: Summary) -> None:
        for base, (write, pinned) in other.bases.items():
            self.add(base, write, pinned)
        self.opaque = self.opaque or other.opaque
        self.contraction = self.contraction or other.contraction


def _distinct_base(v: Value, readonly: frozenset[Value] = frozenset()) -> bool:
    """A memref known not to alias other such memrefs: an allocation or a function argument,
    or a global that the function only reads (`readonly`)."""
    if v in readonly:
        return True
    if type(v) is BlockArgument:
        owner = v.owner.parent_op if v.owner is not None else None  # type: ignore[union-attr]
        return owner is not None and owner.name == "func.func"
    d = v.defining_op()
    return d is not None and d.name in _FRESH


def _walk(op: Operation) -> Iterator[Operation]:
    for region in op.regions:
        for block in region.blocks:
            for child in block:
                yield child
                if child.regions:
                    yield from _walk(child)


def readonly_globals(func: Operation) -> frozenset[Value]:
    """The memref.get_global results in `func` whose global the function only reads (every
    get_global of that symbol in `func` has only load users): no access to them orders
    against another, whatever the loops around them."""
    by_name: dict[str, list[Value]] = {}
    written: set[str] = set()
    for op in func.walk():
        if op.name != "memref.get_global":
            continue
        name = str(op.get_attr("name"))
        mem = op.results[0]
        by_name.setdefault(name, []).append(mem)
        for use in mem.uses:
            user = use.owner
            if user.name not in ("affine.load", "memref.load") or use.index != 0:
                written.add(name)
    return frozenset(v for name, vs in by_name.items() if name not in written for v in vs)


def summarize(loop: Operation, readonly: frozenset[Value] = frozenset()) -> Summary:
    """The Summary of `loop` at its own level (pinned positions relative to its induction var).
    Loads of `readonly` memrefs are no dependences and are left out."""
    s = Summary()
    iv = loop.induction_var  # type: ignore[attr-defined]
    for op in _walk(loop):
        name = op.name
        if name in _ACCESS:
            base = _memref_of(op)
            if base in readonly:
                continue
            if not _distinct_base(base):
                s.opaque = True
            s.add(base, _ACCESS[name], pinned_positions(op, iv))
        elif name in _MULS and _is_contraction_mul(op):
            s.contraction = True
        elif op.regions:
            if name not in _TRANSPARENT:
                s.opaque = True
        elif name in ("affine.yield", "affine.apply"):
            continue
        elif name.startswith("vector.") or get_effects(op) != []:
            s.opaque = True
    if loop.results or loop.get_attr("mlc.parallel") is not None:
        s.opaque = True
    return s


def _is_contraction_mul(mul: Operation) -> bool:
    """A product of loads from two memrefs accumulated across its loop (the loop's induction
    variable is missing from a store's subscripts): the body of a matmul or convolution."""
    loads = [u.value.defining_op() for u in mul._operands]
    if any(d is None or d.name != "affine.load" for d in loads):
        return False
    if _memref_of(loads[0]) is _memref_of(loads[1]):  # type: ignore[arg-type]
        return False
    loop = mul.parent_op
    if loop is None or loop.name != "affine.for":
        return False
    iv = loop.induction_var  # type: ignore[attr-defined]
    for op in mul.parent:  # type: ignore[union-attr]
        if op.name == "affine.store" and iv not in _subscript_operands(op):
            return True
    return False


def _same_bounds(a: Operation, b: Operation) -> bool:
    if a.step_value != b.step_value:  # type: ignore[attr-defined]
        return False
    if a.lower_bound_map != b.lower_bound_map or a.upper_bound_map != b.upper_bound_map:  # type: ignore[attr-defined]
        return False
    return [u.value for u in a._operands] == [u.value for u in b._operands]


def fusion_is_legal(first: Summary, second: Summary) -> bool:
    """Running `second`'s iteration i right after `first`'s iteration i (instead of after all of
    `first`) keeps every dependence: each memref written by either and accessed by both is
    accessed, in both, at a subscript pinned to the induction variable, so the two touch the
    same element only in the same iteration."""
    if first.opaque or second.opaque:
        return False
    for base, (w2, p2) in second.bases.items():
        entry = first.bases.get(base)
        if entry is None:
            continue
        w1, p1 = entry
        if (w1 or w2) and not (p1 & p2):
            return False
    return True


def fusion_pays(first: Summary, second: Summary) -> bool:
    """The cost model: fusing pays when the loops share a memref (the second reads what the
    first wrote, or both read the same input: the shared rows stay in cache), or when one of
    them only initializes memory (a fill, which then sits next to its consumer)."""
    if any(base in first.bases for base in second.bases):
        return True
    return _only_writes(first) or _only_writes(second)


def _only_writes(s: Summary) -> bool:
    return all(written for written, _ in s.bases.values())


def _movable_before(op: Operation, host: Summary, readonly: frozenset[Value] = frozenset()) -> bool:
    """`op`, found between two loops, may move above the first (whose summary is `host`)."""
    if op.regions:
        return False
    if op.name in _ACCESS:
        base = _memref_of(op)
        if not _distinct_base(base, readonly):
            return False
        entry = host.bases.get(base)
        return entry is None or (not _ACCESS[op.name] and not entry[0])
    if op.name in _FRESH:
        return True
    return get_effects(op) == []


class AffineLoopFusionPass(Pass):
    """Fuse affine.for nests with identical bounds, level by level (MLIR's affine-loop-fusion).

    In each block, a loop is fused into the preceding fusible loop when both have the same
    bounds and step and no loop-carried values, and the fusion keeps every dependence: a memref
    written by either and accessed by both must be accessed, in both, at a subscript that is the
    loop's induction variable (so the element one iteration of the second loop reads is the one
    the same iteration of the first wrote). Ops between the two move out of the way when that
    is safe (pure ops, allocations, accesses to memrefs the first loop does not touch, before it;
    deallocations after it). Then the bodies of the fused loops are fused the same way, one level
    deeper. Accesses through memref.reinterpret_cast views that only add or drop unit dims
    (bufferized keepdims reductions) are first rewritten to access the viewed memref. Nests
    with vector ops, affine.parallel, unknown memory effects or a contraction
    (matmul/convolution: contraction-microkernel owns their epilogues) are left alone.

    `mode` restricts the candidates as MLIR's option does (producer-consumer pairs, siblings,
    or both). Each candidate pair is a knob `fuse` (site: the second loop), defaulting to true
    with `fusion-maximal`, else when the two loops share a memref (producer/consumer or common
    input) or one of them only writes (an initialization, fused next to its consumer).

    An allocation whose accesses all lie in one loop, each at a subscript equal to its induction
    variable, is private to the loop's iterations: it is replaced by an allocation without that
    dimension inside the loop body (knob `privatize`; by default for buffers of at least
    `private-min-bytes`), so the intermediate stays in cache and the loop stays parallel; a
    buffer that becomes rank 0 turns into SSA values (loop-carried where a loop updates it).
    """

    name = "affine-loop-fusion"
    anchor = "func.func"
    mode = Option(
        str,
        "greedy",
        "Which pairs to fuse: producer (the second loop reads a memref the first writes), "
        "sibling (no such dependence) or greedy (both)",
        choices=("greedy", "producer", "sibling"),
    )
    fusion_maximal = Option(
        bool, False, "Fuse every legal pair by default (the cost model is not asked)"
    )
    private_min_bytes = Option(
        int,
        4096,
        "Cost model: smallest per-iteration buffer worth allocating in the loop body (smaller "
        "private intermediates keep their full size; scalars always become SSA values)",
    )
    knobs = (
        KnobDecl("fuse", "bool", "Fuse this loop into the preceding loop of equal bounds"),
        KnobDecl("privatize", "bool", "Shrink this allocation to the part one iteration uses"),
    )
    num_fused = Statistic("num-fused", "Number of loops fused into a preceding loop")
    num_private = Statistic("num-private", "Number of intermediates shrunk to a private buffer")

    def run(self, op: Operation, ctx: PassContext) -> None:
        for cast in [o for o in op.walk() if o.name == "memref.reinterpret_cast"]:
            fold_unit_dim_view(cast)
        readonly = readonly_globals(op)
        for region in op.regions:
            for block in region.blocks:
                self._fuse_block(block, ctx, readonly)
        if self.private_min_bytes < 0:
            ctx.error("affine-loop-fusion: private-min-bytes must be >= 0", op)
            return

        def decide(alloc: Operation, shape: list[int]) -> bool:
            return bool(ctx.knob(alloc, "privatize", Bool(), self._privatize_pays(alloc, shape)))

        for alloc in [o for o in op.walk() if o.name == "memref.alloc"]:
            if _privatize(alloc, decide):
                self.num_private += 1

    def _privatize_pays(self, alloc: Operation, shape: list[int]) -> bool:
        """A scalar always pays (it becomes an SSA value); a buffer allocated once per iteration
        pays when its allocation is small next to the work of the iteration that fills it."""
        if not shape:
            return True
        if any(d == A.DYNAMIC for d in shape):
            return True
        n = 1
        for d in shape:
            n *= d
        width = getattr(alloc.results[0].type.element_type, "width", 32)
        return n * max(width // 8, 1) >= self.private_min_bytes

    def _fuse_block(self, block: Block, ctx: PassContext, readonly: frozenset[Value]) -> None:
        host: Operation | None = None
        summary: Summary | None = None
        pending: list[Operation] = []
        op = block.first
        while op is not None:
            nxt = op.next
            if op.name == "affine.for":
                s = summarize(op, readonly)
                if host is not None and self._try_fuse(host, summary, op, s, pending, ctx):  # type: ignore[arg-type]
                    pending = []
                    op = nxt
                    continue
                host, summary, pending = op, s, []
            elif host is not None and (
                op.name == "memref.dealloc" or _movable_before(op, summary, readonly)  # type: ignore[arg-type]
            ):
                pending.append(op)
            else:
                host, summary, pending = None, None, []
            op = nxt
        for child in list(block):
            if child.name == "affine.for" or child.name == "affine.if":
                for region in child.regions:
                    for nested in region.blocks:
                        self._fuse_block(nested, ctx, readonly)

    def _try_fuse(
        self,
        host: Operation,
        hs: Summary,
        loop: Operation,
        ls: Summary,
        pending: list[Operation],
        ctx: PassContext,
    ) -> bool:
        if hs.opaque or ls.opaque or hs.contraction or ls.contraction:
            return False
        if not _same_bounds(host, loop) or not fusion_is_legal(hs, ls):
            return False
        producer = any(hs.bases.get(base, (False,))[0] for base in ls.bases)
        if self.mode == "producer" and not producer or self.mode == "sibling" and producer:
            return False
        default = self.fusion_maximal or fusion_pays(hs, ls)
        if not ctx.knob(loop, "fuse", Bool(), default):
            return False
        after = host
        for op in pending:
            if op.name == "memref.dealloc":
                op.move_after(after)
                after = op
            else:
                op.move_before(host)
        _append_body(host, loop)
        hs.merge(ls)
        self.num_fused += 1
        return True


def _same_size(src: Value, pos: int, size: Value) -> bool:
    """`size` is dim `pos` of `src` (a memref.dim of it, or its allocation's size operand)."""
    d = size.defining_op()
    if d is not None and d.name == "memref.dim" and d._operands[0].value is src:
        c = d._operands[1].value.defining_op()
        value = c.get_attr("value") if c is not None and c.name == "arith.constant" else None
        return value is not None and value.value == pos  # type: ignore[attr-defined]
    alloc = src.defining_op()
    if alloc is None or alloc.name not in _FRESH:
        return False
    k = sum(1 for d in src.type.shape[:pos] if d == A.DYNAMIC)  # type: ignore[attr-defined]
    return alloc._operands[k].value is size


def fold_unit_dim_view(cast: Operation) -> bool:
    """Rewrite the affine accesses through `cast`, a memref.reinterpret_cast that only adds or
    drops unit dims of an identity-layout memref (bufferized keepdims reductions), into
    accesses of its source, so the loops see one memref instead of two names for it."""
    src = cast._operands[0].value
    st, rt = src.type, cast.results[0].type
    if type(st) is not A.MemRefType or type(rt) is not A.MemRefType:
        return False
    if st.layout is not None or rt.layout is not None or st.memory_space is not rt.memory_space:
        return False
    if list(cast.get_attr("static_offsets").values) != [0]:  # type: ignore[union-attr]
        return False
    src_dims = [i for i, d in enumerate(st.shape) if d != 1]
    res_dims = [i for i, d in enumerate(rt.shape) if d != 1]
    if len(src_dims) != len(res_dims):
        return False
    dyn_sizes = list(cast.sizes)  # type: ignore[attr-defined]
    for i, j in zip(src_dims, res_dims):
        if (st.shape[i] == A.DYNAMIC) != (rt.shape[j] == A.DYNAMIC):
            return False
        if st.shape[i] == A.DYNAMIC:
            k = sum(1 for d in rt.shape[:j] if d == A.DYNAMIC)
            if not _same_size(src, i, dyn_sizes[k]):
                return False
        elif st.shape[i] != rt.shape[j]:
            return False
    users = [u.owner for u in cast.results[0].uses]
    dims = [u for u in users if u.name == "memref.dim"]
    positions = [_constant_index(d._operands[1].value) for d in dims]
    if any(j is None or not 0 <= j < len(rt.shape) for j in positions):
        return False
    users = [u for u in users if u.name != "memref.dim"]
    if any(u.name not in _ACCESS or _memref_of(u) is not cast.results[0] for u in users):
        return False
    for d, j in zip(dims, positions):
        # A dim of the view is one of its size operands or a static size, so loops bounded
        # by it get the same bound operands as the loops bounded by the source's size.
        if rt.shape[j] == A.DYNAMIC:  # type: ignore[index]
            size = dyn_sizes[sum(1 for e in rt.shape[:j] if e == A.DYNAMIC)]  # type: ignore[index]
        else:
            const = AR.ConstantOp.create(
                [],
                [A.index],
                {"value": A.IntegerAttr(rt.shape[j], A.index)},  # type: ignore[index]
            )
            d.parent.insert_before(const, d)  # type: ignore[union-attr]
            size = const.results[0]
        d.results[0].replace_all_uses_with(size)
        d.erase()
    to_res = dict(zip(src_dims, res_dims))
    for acc in users:
        amap = acc.get_attr("map").value  # type: ignore[union-attr]
        results = [
            amap.results[to_res[i]] if i in to_res else AffineConstantExpr(0)
            for i in range(len(st.shape))
        ]
        acc.set_attr("map", A.AffineMapAttr(AffineMap(amap.num_dims, amap.num_symbols, results)))
        acc.set_operand(1 if _ACCESS[acc.name] else 0, src)
    cast.erase()
    return True


def _constant_index(v: Value) -> int | None:
    d = v.defining_op()
    if d is None or d.name != "arith.constant":
        return None
    attr = d.get_attr("value")
    value = getattr(attr, "value", None)
    return value if type(value) is int else None


def _append_body(host: Operation, loop: Operation) -> None:
    """Move `loop`'s body to the end of `host`'s (same bounds) and erase `loop`."""
    body = loop.body_block  # type: ignore[attr-defined]
    body.arguments[0].replace_all_uses_with(host.induction_var)  # type: ignore[attr-defined]
    dest = host.body_block  # type: ignore[attr-defined]
    term = dest.last
    op = body.first
    while op is not None and op is not body.last:
        nxt = op.next
        op.detach()
        dest.insert_before(op, term)
        op = nxt
    loop.erase()


def _privatize(alloc: Operation, decide: Callable[[Operation, list[int]], bool]) -> bool:
    """Shrink `alloc` when all its accesses lie in one loop at a subscript equal to the loop's
    induction variable: a buffer without that dimension, allocated in the loop body."""
    mem = alloc.results[0]
    t = mem.type
    if type(t) is not A.MemRefType or t.layout is not None or not t.shape:
        return False
    block = alloc.parent
    accesses, deallocs = [], []
    loop = None
    for use in mem.uses:
        user = use.owner
        if user.name == "memref.dealloc" and user.parent is block:
            deallocs.append(user)
            continue
        if user.name not in _ACCESS or _memref_of(user) is not mem:
            return False
        top = user
        while top is not None and top.parent is not block:
            top = top.parent_op
        if top is None or top.name != "affine.for" or (loop is not None and top is not loop):
            return False
        loop = top
        accesses.append(user)
    if loop is None or loop.results:
        return False
    iv = loop.induction_var  # type: ignore[attr-defined]
    common = None
    for acc in accesses:
        p = pinned_positions(acc, iv)
        common = p if common is None else common & p
        if not common:
            return False
    dim = min(common)  # type: ignore[type-var]
    shape = [d for i, d in enumerate(t.shape) if i != dim]
    if not decide(alloc, shape):
        return False
    dynamic = [u.value for u in alloc._operands]
    sizes, k = [], 0
    for i, d in enumerate(t.shape):
        if d == A.DYNAMIC:
            if i != dim:
                sizes.append(dynamic[k])
            k += 1
    new_t = A.MemRefType(shape, t.element_type, None, t.memory_space)
    attrs = {"alignment": alloc.get_attr("alignment")} if alloc.get_attr("alignment") else None
    new = MR.AllocOp.build([sizes, []], [new_t], attrs, location=alloc.location)
    body = loop.body_block  # type: ignore[attr-defined]
    body.insert_before(new, body.first)
    body.insert_before(
        MR.DeallocOp.create([new.results[0]], [], location=alloc.location), body.last
    )
    for acc in accesses:
        amap = acc.get_attr("map").value  # type: ignore[union-attr]
        results = [r for i, r in enumerate(amap.results) if i != dim]
        acc.set_attr("map", A.AffineMapAttr(AffineMap(amap.num_dims, amap.num_symbols, results)))
        acc.set_operand(1 if _ACCESS[acc.name] else 0, new.results[0])
    for d in deallocs:
        d.erase()
    alloc.erase()
    if not shape:
        promote_scalar(new)
    return True


def _scalar_plan(block: Block, mem: Value, defined: bool) -> bool | None:
    """Whether the accesses to rank-0 `mem` in `block` can become SSA values: every access is a
    direct child of `block` or of nested affine.for bodies (no loop-carried values yet), and no
    load precedes the first store. Returns the new `defined` state, None when not possible."""
    for op in block:
        if op.name in _ACCESS and _memref_of(op) is mem:
            if _ACCESS[op.name]:
                defined = True
            elif not defined:
                return None
        elif op.regions and any(u.owner is not op for u in _uses_in(op, mem)):
            if op.name != "affine.for" or op.results:
                return None
            inner = _scalar_plan(op.body_block, mem, defined)  # type: ignore[attr-defined]
            if inner is None or (inner and not defined and _stores_in(op, mem)):
                return None  # a loop that initializes the scalar in its first iteration only
            defined = defined or inner
    return defined


def _uses_in(op: Operation, mem: Value) -> list:
    return [u for u in mem.uses if op.is_ancestor(u.owner)]


def _stores_in(op: Operation, mem: Value) -> bool:
    return any(u.owner.name == "affine.store" for u in _uses_in(op, mem))


def promote_scalar(alloc: Operation) -> bool:
    """Replace the loads and stores of a rank-0 buffer (allocated at the top of a loop body)
    by SSA values, with loop-carried values for the loops that update it (scalar replacement)."""
    mem = alloc.results[0]
    block = alloc.parent
    if _scalar_plan(block, mem, False) is None:  # type: ignore[arg-type]
        return False
    _promote_block(block, mem, None)  # type: ignore[arg-type]
    for use in list(mem.uses):
        use.owner.erase()  # the deallocs
    alloc.erase()
    return True


def _promote_block(block: Block, mem: Value, cur: Value | None) -> Value | None:
    op = block.first
    while op is not None:
        nxt = op.next
        if op.name in _ACCESS and _memref_of(op) is mem:
            if _ACCESS[op.name]:
                cur = op._operands[0].value
            else:
                op.results[0].replace_all_uses_with(cur)  # type: ignore[arg-type]
            op.erase()
        elif op.name == "affine.for" and _uses_in(op, mem):
            if _stores_in(op, mem):
                op, cur = _carry(op, mem, cur)  # type: ignore[arg-type]
            else:
                _promote_block(op.body_block, mem, cur)  # type: ignore[attr-defined]
        op = nxt
    return cur


def _carry(loop: Operation, mem: Value, init: Value) -> tuple[Operation, Value]:
    """Rebuild `loop` with `mem`'s value as a loop-carried value; returns it and its result."""
    lb = (loop.lower_bound_map, list(loop.lowerBoundOperands))  # type: ignore[attr-defined]
    ub = (loop.upper_bound_map, list(loop.upperBoundOperands))  # type: ignore[attr-defined]
    new = AF.ForOp.build_for(lb, ub, loop.step_value, [init], loop.location)  # type: ignore[attr-defined]
    for key, value in (loop._attrs or {}).items():
        if key not in ("lowerBoundMap", "upperBoundMap", "step", "operandSegmentSizes"):
            new.set_attr(key, value)
    old = loop.body_block  # type: ignore[attr-defined]
    body = new.body_block
    old.arguments[0].replace_all_uses_with(body.arguments[0])
    op = old.first
    while op is not None and op is not old.last:
        nxt = op.next
        op.detach()
        body.append(op)
        op = nxt
    final = _promote_block(body, mem, body.arguments[1])
    body.append(AF.YieldOp.create([final], [], location=loop.location))
    loop.parent.insert_before(new, loop)  # type: ignore[union-attr]
    loop.erase()
    return new, new.results[0]


__all__ = ["AffineLoopFusionPass", "fusion_is_legal", "pinned_positions", "summarize"]
