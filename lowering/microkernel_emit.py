"""IR emission for `contraction-microkernel`: the BLIS loop nest in affine + vector + memref ops.

    batch loops
      jc / pc / ic (in the configured order; one may be an affine.parallel {mlc.parallel})
        pack B panel  Bp[t][kk][0..nr)   (kc x nc in nr-wide strips, zero-padded past N)
        pack A block  Ap[s][kk][0..mr)   (mc x kc in mr-tall strips, zero-padded past M)
        jr (strip t) / ir (strip s)
          micro-kernel: affine.for kk iter_args(mr x nr/vl vector accumulators):
                        vector_load Bp, broadcast Ap elements, vector.fma
          store: C = init + acc (first kc block) or C += acc, epilogue on the last kc block;
                 a full tile stores vectors, an edge tile goes through a scratch tile and
                 scalar stores of its valid part.

Buffers written inside the parallel loop get a leading dimension indexed by that loop's
iteration, so every thread owns its packing buffers and C tiles (deterministic results).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mlc.dialects import affine, affine_ops, arith, memref, vector
from mlc.lowering.microkernel_match import Contraction, Stage

from mlc.ir import attributes as A
from mlc.ir.affine import (
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    IntegerSet,
    dim,
)
from mlc.ir.core import Block, Operation, Value

__all__ = ["Config", "emit_contraction"]


class Ex:
    """An index as an affine expression of loop ivs and sizes, folded into the maps that use it
    (loads, stores, bounds, conditions) instead of a chain of affine.apply ops."""

    __slots__ = ("expr", "ops")

    def __init__(self, expr: AffineExpr, ops: list[Value]) -> None:
        self.expr, self.ops = expr, ops


Idx = int | Value | Ex
# An upper bound: the min of the expressions `fn(*args)` returns (folded into the bound map,
# since an affine.min result is not a valid affine dim).
Ub = tuple[Callable[..., list[AffineExpr]], tuple[Idx, ...]]


ALIGN = 64


class Config:
    """The decisions for one contraction (the pass's knob values)."""

    __slots__ = (
        "mr", "nr", "vl", "mc", "kc", "nc", "order", "parallel", "pack", "pack_a", "inline_b",
        "unroll", "prefetch", "prefetch_c", "pack_a_once", "edge_m", "pack_a_shared",
    )

    def __init__(
        self,
        mr: int,
        nr: int,
        vl: int,
        mc: int,
        kc: int,
        nc: int,
        order: str,
        parallel: str,
        pack: bool = True,
        pack_a: bool = True,
        inline_b: bool = False,
        unroll: int = 1,
        prefetch: int = 0,
        prefetch_c: bool = False,
        pack_a_once: bool = False,
        edge_m: bool = False,
        pack_a_shared: bool = False,
    ) -> None:
        # With jc split between threads: all of A packed once, before the split loop, by a
        # parallel loop over the row blocks, into one buffer the threads share (else every
        # thread packs every A block into its own buffer). Static M and K, jc outermost.
        self.pack_a_shared = pack_a_shared
        # With a static M that is not a multiple of mr, the last row strip runs a kernel of
        # M mod mr rows (else the mr-row kernel on zero-padded rows, stored through scratch).
        self.edge_m = edge_m
        # Pack all of A once (by the first column block) into a buffer of every A block and
        # reuse it for the later column blocks, instead of packing each A block again per jc
        # block. Applies with jc the outermost block loop, A packed, static M and K, more than
        # one jc block and no parallel loop.
        self.pack_a_once = pack_a_once
        # Prefetch (for writing) the C tile of the next micro-tile before each kernel: a later
        # kc block starts from C's partial sums, which would stall the kernel on a cache miss.
        self.prefetch_c = prefetch_c
        # Prefetch the packed A and B micro-panels this many k steps ahead (0: none)
        self.prefetch = prefetch
        # k steps per iteration of the micro-kernel loop (used when it divides every k block)
        self.unroll = unroll
        # Pack each B strip right before the first A block uses it (while it is in L1/L2),
        # rather than the whole panel before the strip loops.
        self.inline_b = inline_b
        self.pack = pack  # pack B panels (else read B in place; only a partial strip is packed)
        self.pack_a = pack_a  # pack A blocks (else A is read in place; a partial strip packed)
        self.mr, self.nr, self.vl = mr, nr, vl
        self.mc, self.kc, self.nc = mc, kc, nc
        self.order = order  # e.g. "jc-pc-ic"
        self.parallel = parallel  # "none", "jc", "ic", "batch"


def _off(x: Idx, k: int) -> Idx:
    """x + k."""
    if k == 0:
        return x
    if type(x) is int:
        return x + k
    if type(x) is Ex:
        return Ex(x.expr + k, x.ops)
    return Ex(dim(0) + k, [x])  # type: ignore[list-item]


def _position(ops: list[Value], v: Value) -> int:
    for i, o in enumerate(ops):
        if o is v:
            return i
    ops.append(v)
    return len(ops) - 1


def _exprs(args: Sequence[Idx]) -> tuple[list[AffineExpr], list[Value]]:
    """Each argument as an expression of dims over one deduplicated operand list."""
    exprs: list[AffineExpr] = []
    ops: list[Value] = []
    for a in args:
        if type(a) is int:
            exprs.append(AffineConstantExpr(a))
        elif type(a) is Ex:
            dims = [dim(_position(ops, v)) for v in a.ops]
            exprs.append(a.expr.replace_dims_and_symbols(dims, []))
        else:
            exprs.append(dim(_position(ops, a)))  # type: ignore[arg-type]
    return exprs, ops


class _E:
    """Inserts ops before `anchor` in `block` (at the end when anchor is None)."""

    __slots__ = ("block", "anchor", "loc")

    def __init__(self, block: Block, anchor: Operation | None, loc: A.Location) -> None:
        self.block, self.anchor, self.loc = block, anchor, loc

    def put(self, op: Operation) -> Operation:
        op.location = self.loc
        if self.anchor is not None:
            self.block.insert_before(op, self.anchor)
        else:
            self.block.append(op)
        return op

    def v(self, op: Operation) -> Value:
        return self.put(op).results[0]

    def inside(self, op: Operation, region: int = 0) -> _E:
        """An emitter before the terminator of op's region (or at its end if none yet)."""
        block = op.regions[region].blocks[0]
        last = block.last
        return _E(
            block, last if last is not None and last.name == "affine.yield" else None, self.loc
        )

    def index(self, x: Idx) -> Value:
        """x as an SSA value (a constant or an affine.apply where needed)."""
        if type(x) is int:
            return self.v(arith.ConstantOp.from_int(x, A.index))
        if type(x) is Ex:
            amap = AffineMap(len(x.ops), 0, [x.expr])
            return self.v(affine_ops.ApplyOp.build_apply(amap, x.ops))
        return x  # type: ignore[return-value]

    def ix(self, fn: Callable[..., AffineExpr], *args: Idx) -> Idx:
        """fn of the arguments: an int when all are ints, else an expression (no op)."""
        exprs, ops = _exprs(args)
        e = fn(*exprs)
        if type(e) is AffineConstantExpr:
            return e.value
        if type(e) is AffineDimExpr:
            return ops[e.position]
        return Ex(e, ops)

    def bound(self, x: Idx | Ub) -> Any:
        """An int, or (map, operands): a value, or the min of `fn(*args)` (a `Ub`)."""
        if type(x) is int:
            return x
        if type(x) is tuple:
            fn, args = x
            exprs, ops = _exprs(args)
            results = fn(*exprs)
            if all(type(r) is AffineConstantExpr for r in results):
                return min(r.value for r in results)
            return (AffineMap(len(ops), 0, results), ops)
        exprs, ops = _exprs([x])  # type: ignore[list-item]
        return (AffineMap(len(ops), 0, exprs), ops)

    def for_(self, lb: Idx, ub: Idx | Ub, iter_args: Sequence[Value] = ()) -> tuple[Any, _E]:
        loop = affine.ForOp.build_for(self.bound(lb), self.bound(ub), 1, iter_args)
        self.put(loop)
        return loop, self.inside(loop)

    def parallel(self, ub: Idx) -> tuple[Any, _E]:
        if type(ub) is Ex:
            ub = self.index(ub)
        par = affine.ParallelOp.build_parallel([0], [ub], [1])
        par.set_attr("mlc.parallel", A.UnitAttr())
        self.put(par)
        return par, self.inside(par)

    def if_(
        self,
        constraints: Callable[..., list[tuple[AffineExpr, bool]]],
        args: Sequence[Idx],
        with_else: bool,
    ) -> tuple[Any, _E, _E | None]:  # noqa: E501
        exprs, ops = _exprs(args)
        cons = constraints(*exprs)
        iset = IntegerSet(len(ops), 0, [e for e, _ in cons], [eq for _, eq in cons])
        op = affine.IfOp.build_if(iset, ops, with_else=with_else)
        self.put(op)
        return op, self.inside(op, 0), self.inside(op, 1) if with_else else None

    def _access(self, view: AffineMap, args: Sequence[Idx]) -> tuple[AffineMap, list[Value]]:
        exprs, ops = _exprs(args)
        return view.replace_dims_and_symbols(exprs, [], len(ops), 0), ops

    def load(self, mem: Value, view: AffineMap, args: Sequence[Idx]) -> Value:
        amap, ops = self._access(view, args)
        return self.v(affine_ops.LoadOp.build_load(mem, ops, amap))

    def store(self, value: Value, mem: Value, view: AffineMap, args: Sequence[Idx]) -> None:
        amap, ops = self._access(view, args)
        self.put(affine_ops.StoreOp.build_store(value, mem, ops, amap))

    def vload(self, vt: A.VectorType, mem: Value, view: AffineMap, args: Sequence[Idx]) -> Value:
        amap, ops = self._access(view, args)
        return self.v(affine_ops.VectorLoadOp.build_vector_load(vt, mem, ops, amap))

    def vstore(self, value: Value, mem: Value, view: AffineMap, args: Sequence[Idx]) -> None:
        amap, ops = self._access(view, args)
        self.put(affine_ops.VectorStoreOp.build_vector_store(value, mem, ops, amap))

    def bcast(self, x: Value, vt: A.VectorType) -> Value:
        return self.v(vector.BroadcastOp.create([x], [vt]))

    def fconst(self, value: float, t: A.Type) -> Value:
        return self.v(arith.ConstantOp.from_float(value, t))


def _ident(rank: int) -> AffineMap:
    return AffineMap.identity(rank)


# Stage bodies in scalar or vector form


def _eval_stage(
    e: _E,
    st: Stage,
    cur: Value | None,
    vargs: list[Idx],
    vt: A.VectorType | None,
    kinds: Sequence[str] | None = None,
) -> Value:
    """Emit stage `st`'s body at view point `vargs` (b..., m, n, 0); vector form when `vt`
    (vectors along n, or along the dim `kinds` classifies the inputs by: "vec" / "bcast")."""
    g = st.op
    body = g.body
    n_in = len(g.inputs)
    mapping: dict[Any, Any] = {}
    for i, (arg, (kind, mem, view)) in enumerate(zip(body.arguments[:n_in], st.inputs)):
        if kinds is not None:
            kind = kinds[i]
        if kind == "cur":
            mapping[arg] = cur
        elif kind == "unused":
            continue
        elif vt is None:
            mapping[arg] = e.load(mem, view, vargs)  # type: ignore[arg-type]
        elif kind == "vec":
            mapping[arg] = e.vload(vt, mem, view, vargs)  # type: ignore[arg-type]
        else:
            mapping[arg] = e.bcast(e.load(mem, view, vargs), vt)  # type: ignore[arg-type]
    if st.out_is_cur:
        mapping[body.arguments[n_in]] = cur
    widened: dict[Value, Value] = {}

    def operand(v: Value) -> Value:
        got = mapping.get(v)
        if got is not None:
            return got  # type: ignore[no-any-return]
        if vt is None:
            return v
        w = widened.get(v)
        if w is None:
            w = widened[v] = e.bcast(v, A.VectorType([vt.shape[0]], v.type))
        return w

    term = body.last
    for inner in body:
        if inner is term:
            break
        if vt is None:
            new = inner.clone(mapping)
            e.put(new)
            for old, nw in zip(inner.results, new.results):
                mapping[old] = nw
            continue
        if inner.name == "arith.constant":
            attr = inner.get_attr("value")
            rt = A.VectorType([vt.shape[0]], inner.results[0].type)
            val = attr.value  # type: ignore[union-attr]
            c = arith.ConstantOp.from_attr(A.DenseElementsAttr(rt, [val] * vt.shape[0]))
            mapping[inner.results[0]] = e.v(c)
            continue
        ops = [operand(v) for v in inner.operands]
        rts = [A.VectorType([vt.shape[0]], r.type) for r in inner.results]
        new = type(inner).create(ops, rts, dict(inner.attributes))
        e.put(new)
        for old, nw in zip(inner.results, new.results):
            mapping[old] = nw
    return operand(term.operands[0])


# The nest


class _Nest:
    """State of one contraction's emission."""

    def __init__(
        self, c: Contraction, cfg: Config, e: _E, loop_size: list[Idx] | None = None
    ) -> None:
        self.c, self.cfg, self.e0 = c, cfg, e
        self.vt = A.VectorType([cfg.vl], A.f32)
        self.zero_vec: Value | None = None
        self.zero = None
        self.preset_sizes = loop_size

    def loop_sizes(self) -> list[Idx]:
        """Each loop's extent: its static size or a memref.dim of an operand."""
        c, e = self.c, self.e0
        src = c.op.shape_to_loops()
        operands = list(c.op.operands)
        out: list[Idx] = []
        for d, s in enumerate(c.sizes):
            if s != A.DYNAMIC:
                out.append(s)
            else:
                k, i = src[d]
                out.append(e.v(memref.DimOp.build([operands[k], e.index(i)])))
        return out

    def sizes(self) -> None:
        c, e = self.c, self.e0
        self.loop_size = self.preset_sizes if self.preset_sizes is not None else self.loop_sizes()

        def prod(dims: list[int]) -> Idx:
            if not dims:
                return 1
            total: Idx = self.loop_size[dims[0]]
            for d in dims[1:]:
                s = self.loop_size[d]
                total = e.ix(lambda a, s=s: a * s, total)  # static inner sizes
            return total

        self.M = prod(c.mdims)
        self.N = self.loop_size[c.ndim]
        self.K = prod(c.kdims)

    def blocks(self) -> None:
        cfg, e = self.cfg, self.e0
        mr, nr = cfg.mr, cfg.nr

        def clamp(block: int, size: Idx, unit: int) -> int:
            if type(size) is int:
                return max(unit, min(block, -(-size // unit) * unit))
            return block

        self.kcE = clamp(cfg.kc, self.K, 1)
        # Unrolled k loop only where the factor divides every k block (static K and kc).
        self.unroll = 1
        if type(self.K) is int:
            self.unroll = max(
                u for u in (1, 2, 4, 8) if u <= cfg.unroll and self.kcE % u == 0 and self.K % u == 0
            )
        self.mcE = clamp(cfg.mc, self.M, mr)
        self.ncE = clamp(cfg.nc, self.N, nr)
        self.nMB = e.ix(lambda m: m.ceildiv(self.mcE), self.M)
        self.nNB = e.ix(lambda n: n.ceildiv(self.ncE), self.N)
        self.nKB = e.ix(lambda k: k.ceildiv(self.kcE), self.K)

    def alloc(self, shape: list[Idx]) -> Value:
        t = A.MemRefType([s if type(s) is int else A.DYNAMIC for s in shape], A.f32)
        dyn = [self.e0.index(s) for s in shape if type(s) is not int]
        # From the calling thread's workspace (kept across calls; a stack: freed in reverse).
        attrs = {"alignment": A.IntegerAttr(ALIGN, A.i64), "mlc.workspace": A.UnitAttr()}
        v = self.e0.v(memref.AllocOp.build([dyn, []], [t], attrs))
        self.allocs.append(v)
        return v

    def slot_count(self, inner_of: str) -> Idx | None:
        """Number of private copies of a buffer used below outer loop `inner_of` ("" for the
        innermost point), or None when it is shared."""
        par = self.cfg.parallel
        if par == "none":
            return None
        if par == "batch":
            return self.loop_size[self.c.batch[0]]
        if inner_of == "" or self.order.index(par) <= self.order.index(inner_of):
            return {"jc": self.nNB, "ic": self.nMB}[par]
        return None

    def emit(self) -> None:
        c, cfg, e = self.c, self.cfg, self.e0
        self.allocs: list[Value] = []
        self.sizes()
        self.blocks()
        self.order = cfg.order.split("-")
        if cfg.parallel == "batch" and not c.batch:
            cfg.parallel = "none"
        mr, nr, vl = cfg.mr, cfg.nr, cfg.vl
        # Where each packing happens: in the body of the deeper of its two loops.
        self.b_at = max(self.order.index("jc"), self.order.index("pc"))
        self.a_at = max(self.order.index("ic"), self.order.index("pc"))
        sb = self.slot_count(self.order[self.b_at])
        # A packed before the split jc loop and shared (see Config.pack_a_shared).
        self.a_shared = (
            cfg.pack_a_shared
            and cfg.pack_a
            and cfg.parallel == "jc"
            and self.order[0] == "jc"
            and type(self.M) is int
            and type(self.K) is int
        )
        sa = None if self.a_shared else self.slot_count(self.order[self.a_at])
        ss = self.slot_count("")
        # B strips packed inline (in the strip loop, by the first ic block): possible when the
        # ic loop runs inside the B packing and is not split between threads. With one ic
        # block, the packed panel is a single strip reused (it stays in L1/L2).
        self.inline_b = (
            cfg.pack
            and cfg.inline_b
            and self.order.index("ic") > self.b_at
            and cfg.parallel != "ic"
        )
        strips = self.ncE // nr if cfg.pack else 1
        if self.inline_b and self.nMB == 1:
            strips = 1
        self.full_m = type(self.M) is int and self.M % mr == 0
        # The partial last row strip by a kernel of its own height (static M).
        self.edge_m = cfg.edge_m and type(self.M) is int and not self.full_m
        self.full_n = type(self.N) is int and self.N % nr == 0
        self.bp = self.alloc(([sb] if sb is not None else []) + [strips, self.kcE, nr])
        # A read in place: only its partial last strip is packed (zero-padded, at strip 0).
        a_strips = self.mcE // mr if cfg.pack_a else (0 if self.full_m or self.edge_m else 1)
        # A packed once for all column blocks: one buffer slot per (k block, row block).
        self.a_once = (
            cfg.pack_a_once
            and cfg.pack_a
            and cfg.parallel == "none"
            and self.order[0] == "jc"
            and type(self.M) is int
            and type(self.K) is int
            and type(self.nNB) is int
            and self.nNB > 1
        )
        a_lead: list[Idx] = [self.nKB, self.nMB] if self.a_once or self.a_shared else []
        self.ap = (
            self.alloc(([sa] if sa is not None else []) + a_lead + [a_strips, self.kcE, mr])
            if a_strips
            else None
        )
        self.b_private, self.a_private = sb is not None, sa is not None
        self.scratch = None
        if not (self.full_m and self.full_n):
            self.scratch = self.alloc(([ss] if ss is not None else []) + [mr, nr])
        self.s_private = ss is not None
        self.zero_vec = e.v(arith.ConstantOp.from_attr(A.DenseElementsAttr(self.vt, [0.0] * vl)))
        self.zero = e.fconst(0.0, A.f32)
        self.batch_loops(e, 0, [])
        self.guard_empty_k(e)
        for v in reversed(self.allocs):
            e.put(memref.DeallocOp.build([v]))

    def guard_empty_k(self, e: _E) -> None:
        """K = 0 (a dynamic size): the output is the initializer followed by the epilogues."""
        K = self.K
        if type(K) is int and K > 0:
            return
        if type(K) is int:  # K == 0: nothing but the stages
            inner = e
        else:
            _, inner, _ = e.if_(lambda k: [(-k, False)], [K], False)  # type: ignore[misc]
        stages = ([self.c.init.op] if self.c.init else []) + [s.op for s in self.c.epilogues]
        for g in stages:
            inner.put(g.clone({}))

    def batch_loops(self, e: _E, i: int, ivs: list[Idx]) -> None:
        c = self.c
        if i == len(c.batch):
            self.bvals = ivs
            self.outer(e, 0, {})
            return
        size = self.loop_size[c.batch[i]]
        if i == 0 and self.cfg.parallel == "batch":
            loop, inner = e.parallel(size)
            self.par_iv = loop.regions[0].blocks[0].arguments[0]
            iv = self.par_iv
        else:
            loop, inner = e.for_(0, size)
            iv = loop.induction_var
        self.batch_loops(inner, i + 1, [*ivs, iv])

    def outer(self, e: _E, depth: int, env: dict[str, Idx]) -> None:
        if depth == 3:
            self.micro_loops(e, env)
            return
        if depth == 0 and self.a_shared:
            self.pack_a_shared(e)
        name = self.order[depth]
        trips = {"jc": self.nNB, "pc": self.nKB, "ic": self.nMB}[name]
        block = {"jc": self.ncE, "pc": self.kcE, "ic": self.mcE}[name]
        if self.cfg.parallel == name:
            loop, inner = e.parallel(trips)
            iv: Idx = loop.regions[0].blocks[0].arguments[0]
            self.par_iv = iv
        elif trips == 1:
            iv, inner = 0, e
        else:
            loop, inner = e.for_(0, trips)
            iv = loop.induction_var
        env = dict(env)
        env[name + "_t"] = iv
        env[name] = inner.ix(lambda t: t * block, iv)
        if depth == self.b_at and not self.inline_b:
            self.pack_b(inner, env)
        if depth == self.a_at and not self.a_shared:
            if self.a_once:  # the first column block packs, the later ones reuse
                _, first, _ = inner.if_(lambda j: [(j, True)], [env["jc_t"]], False)
                self.pack_a(first, env)
            else:
                self.pack_a(inner, env)
        self.outer(inner, depth + 1, env)

    def pack_a_shared(self, e: _E) -> None:
        """All A blocks into their (k block, row block) slots of the shared buffer: the row
        blocks split between the threads, each packing its blocks for every k block."""
        loop, body = e.parallel(self.nMB)
        it = loop.regions[0].blocks[0].arguments[0]
        env: dict[str, Idx] = {"ic_t": it, "ic": body.ix(lambda t: t * self.mcE, it)}
        if self.nKB == 1:
            inner, kt = body, 0
        else:
            kloop, inner = body.for_(0, self.nKB)
            kt = kloop.induction_var
        env["pc_t"] = kt
        env["pc"] = inner.ix(lambda t: t * self.kcE, kt)
        self.pack_a(inner, env)

    def _slot(self, private: bool) -> list[Idx]:
        return [self.par_iv] if private else []

    def _aslot(self, env: dict[str, Idx]) -> list[Idx]:
        """Leading indices of the packed A buffer: the thread's slot, and with A packed once
        the k block and row block."""
        lead = [env["pc_t"], env["ic_t"]] if self.a_once or self.a_shared else []
        return self._slot(self.a_private) + lead

    def kcur(self, env: dict[str, Idx]) -> Ub:
        kc = self.kcE
        return (lambda p, k: [AffineConstantExpr(kc), k - p], (env["pc"], self.K))

    def pack_b(self, e: _E, env: dict[str, Idx]) -> None:
        """Bp[t][kk][c] = B(k = pc + kk, n = jc + t*nr + c), zero past N."""
        self.pack_b_strips(e, env, None)

    def pack_b_strips(self, e: _E, env: dict[str, Idx], only: Idx | None) -> None:
        """The panel's strips (only == None), or strip `only` of it into slot 0 of a one-strip
        buffer when there is a single ic block, else into its own slot."""
        c, nr, nc = self.c, self.cfg.nr, self.ncE
        jc, pc = env["jc"], env["pc"]
        slot = self._slot(self.b_private)
        ident = _ident(len(slot) + 3)
        kcur = self.kcur(env)
        one = only is not None and self.nMB == 1

        def strip(e2: _E, t: Idx, valid: Idx | Ub) -> None:
            dst = 0 if one else t
            _, ek = e2.for_(0, kcur)
            kk = ek.block.arguments[0]
            k = ek.ix(lambda a, b: a + b, pc, kk)
            if valid == nr and c.b_direct:
                # A full strip of a B contiguous along n: vector copies (a scalar copy loop
                # cost about 1.3 cycles per element, as much as the kernel for small M).
                vl = self.cfg.vl
                for q in range(nr // vl):
                    n = ek.ix(lambda j, tt: j + tt * nr + q * vl, jc, t)  # noqa: B023
                    v = ek.vload(self.vt, c.b, c.b_view, [*self.bvals, 0, n, k])
                    ek.vstore(v, self.bp, ident, [*slot, dst, kk, q * vl])
                return
            _, ec = ek.for_(0, valid)
            col = ec.block.arguments[0]
            n = ec.ix(lambda j, tt, cc: j + tt * nr + cc, jc, t, col)
            v = ec.load(c.b, c.b_view, [*self.bvals, 0, n, k])
            ec.store(v, self.bp, ident, [*slot, dst, kk, col])
            if valid != nr:
                lo = valid if type(valid) is not tuple else 0
                loop, ez = ek.for_(lo, nr)
                ez.store(self.zero, self.bp, ident, [*slot, dst, kk, loop.induction_var])

        if only is not None:
            if self.full_n:
                strip(e, only, nr)
                return
            _, ef, ep = e.if_(
                lambda j, tt, n: [(n - j - tt * nr - nr, False)], [jc, only, self.N], True
            )
            strip(ef, only, nr)
            strip(ep, only, ep.ix(lambda n: n % nr, self.N))  # type: ignore[arg-type]
            return
        full: Ub = (lambda j, n: [AffineConstantExpr(nc // nr), (n - j).floordiv(nr)], (jc, self.N))
        if self.cfg.pack and e.bound(full) != 0 and c.b_direct:
            # The full strips row by row of B (k outer): B is read sequentially. Strip by strip
            # (k inner), each k step read one line of another row: at 2048 x 2048 (8 KiB rows,
            # B out of cache) 4 cycles per element, the prefetchers not following.
            vl = self.cfg.vl
            _, ek = e.for_(0, kcur)
            kk = ek.block.arguments[0]
            k = ek.ix(lambda a, b: a + b, pc, kk)
            _, et = ek.for_(0, full)
            t = et.block.arguments[0]
            for q in range(nr // vl):
                n = et.ix(lambda j, tt: j + tt * nr + q * vl, jc, t)  # noqa: B023
                v = et.vload(self.vt, c.b, c.b_view, [*self.bvals, 0, n, k])
                et.vstore(v, self.bp, ident, [*slot, t, kk, q * vl])
        elif self.cfg.pack and e.bound(full) != 0:
            _, es = e.for_(0, full)
            strip(es, es.block.arguments[0], nr)
        if not self.full_n:
            # The partial strip exists when this panel reaches N and N is not a multiple of nr.
            _, et, _ = e.if_(
                lambda j, n: [(j + nc - n - 1, False), (n % nr - 1, False)], [jc, self.N], False
            )
            t = et.ix(lambda j, n: (n - j).floordiv(nr), jc, self.N)
            if not self.cfg.pack:
                # Read in place, B's partial strip is the only one packed (zero-padded, at 0):
                # strip index t of the panel is the column offset t * nr.
                jc = et.ix(lambda j, tt: j + tt * nr, jc, t)
                t = 0
            strip(et, t, et.ix(lambda n: n % nr, self.N))

    def pack_a(self, e: _E, env: dict[str, Idx]) -> None:
        """Ap[s][kk][r] = A(m = ic + s*mr + r, k = pc + kk), zero past M."""
        c, mr, mc = self.c, self.cfg.mr, self.mcE
        ic, pc = env["ic"], env["pc"]
        slot = self._aslot(env)
        ident = _ident(len(slot) + 3)
        kcur = self.kcur(env)

        def strip(e2: _E, s: Idx, valid: Idx, dst: Idx | None = None) -> None:
            # kk outer, r inner: each k step writes mr contiguous elements (the short inner
            # loop is unrolled by LLVM, rather than mr vectorized strided copies).
            d = s if dst is None else dst
            _, ek = e2.for_(0, kcur)
            kk = ek.block.arguments[0]
            k = ek.ix(lambda a, b: a + b, pc, kk)
            _, er = ek.for_(0, valid)
            r = er.block.arguments[0]
            m = er.ix(lambda i, ss, rr: i + ss * mr + rr, ic, s, r)
            v = er.load(c.a, c.a_view, [*self.bvals, m, 0, k])
            er.store(v, self.ap, ident, [*slot, d, kk, r])
            if valid != mr:
                loop, ez = ek.for_(valid, mr)
                ez.store(self.zero, self.ap, ident, [*slot, d, kk, loop.induction_var])

        full: Ub = (lambda i, m: [AffineConstantExpr(mc // mr), (m - i).floordiv(mr)], (ic, self.M))
        if self.cfg.pack_a and e.bound(full) != 0:
            _, es = e.for_(0, full)
            strip(es, es.block.arguments[0], mr)
        if not self.full_m and (self.cfg.pack_a or not self.edge_m):
            _, et, _ = e.if_(
                lambda i, m: [(i + mc - m - 1, False), (m % mr - 1, False)], [ic, self.M], False
            )
            s = et.ix(lambda i, m: (m - i).floordiv(mr), ic, self.M)
            strip(et, s, et.ix(lambda m: m % mr, self.M), None if self.cfg.pack_a else 0)

    def micro_loops(self, e: _E, env: dict[str, Idx]) -> None:
        mr, nr, mc, nc = self.cfg.mr, self.cfg.nr, self.mcE, self.ncE
        jc, ic = env["jc"], env["ic"]
        ntiles: Ub = (
            lambda j, n: [AffineConstantExpr(nc // nr), (n - j).ceildiv(nr)],
            (jc, self.N),
        )
        _, et = e.for_(0, ntiles)
        t = et.block.arguments[0]
        bstrip: Idx = t
        if self.inline_b:
            if self.nMB == 1:
                self.pack_b_strips(et, env, t)
                bstrip = 0
            else:  # the first ic block packs the strip, the others find it in the panel
                _, first, _ = et.if_(lambda i: [(i, True)], [env["ic_t"]], False)
                self.pack_b_strips(first, env, t)
        # With an exact edge strip the strip loop runs the full-height strips only.
        exact = self.edge_m
        mtiles: Ub = (
            lambda i, m: [
                AffineConstantExpr(mc // mr), (m - i).floordiv(mr) if exact else (m - i).ceildiv(mr)
            ],
            (ic, self.M),
        )
        _, es = et.for_(0, mtiles)
        s = es.block.arguments[0]
        i0 = es.ix(lambda i, ss: i + ss * mr, ic, s)
        j0 = es.ix(lambda j, tt: j + tt * nr, jc, t)
        saved_full = self.full_m
        self.full_m = saved_full or exact  # (the strip loop's strips are all full then)
        try:
            self.strip_tiles(es, env, s, i0, j0, bstrip)
        finally:
            self.full_m = saved_full
        if exact:
            # The partial last strip (rows M - rem .. M) in the row block holding it, by a
            # kernel of its own height: no padded rows computed, no scratch tile for M.
            assert type(self.M) is int
            rem = self.M % mr
            top = self.M - rem
            _, el, _ = et.if_(
                lambda i: [(top - i, False), (i + mc - 1 - top, False)], [ic], False
            )
            sl = el.ix(lambda i: (top - i).floordiv(mr), ic)
            jl = el.ix(lambda j, tt: j + tt * nr, jc, t)
            saved = self.cfg.mr, self.full_m
            self.cfg.mr, self.full_m = rem, True
            try:
                self.strip_tiles(el, env, sl, top, jl, bstrip)
            finally:
                self.cfg.mr, self.full_m = saved

    def strip_tiles(
        self, es: _E, env: dict[str, Idx], s: Idx, i0: Idx, j0: Idx, bstrip: Idx
    ) -> None:
        """The micro-tile of row strip s (rows from i0) and column strip bstrip (from j0)."""
        nr = self.cfg.nr

        def by_a(ee: _E, bsrc: tuple[str, Idx]) -> None:
            if self.cfg.pack_a:
                self.tile(ee, env, s, i0, j0, bsrc, ("packed", s))
            elif self.full_m:
                self.tile(ee, env, s, i0, j0, bsrc, ("direct", i0))
            else:
                # A read in place: full-height strips from A, the partial one from its copy
                # (two k loops, one set of stores: see `kernel`).
                self.tile(ee, env, s, i0, j0, bsrc, ("split", i0))

        if self.cfg.pack:
            by_a(es, ("packed", bstrip))
            return
        if self.full_n:
            by_a(es, ("direct", j0))
            return
        # B read in place: full-width strips from B, the partial strip from its packed copy.
        _, then, other = es.if_(lambda j, n: [(n - j - nr, False)], [j0, self.N], True)
        by_a(then, ("direct", j0))
        by_a(other, ("packed", 0))  # type: ignore[arg-type]

    def tile(
        self,
        es: _E,
        env: dict[str, Idx],
        s: Idx,
        i0: Idx,
        j0: Idx,
        bsrc: tuple[str, Idx],
        asrc: tuple[str, Idx],
    ) -> None:
        """Start values, kernel and stores of the micro-tile at (i0, j0)."""
        mr, nr = self.cfg.mr, self.cfg.nr
        pc_t = env["pc_t"]
        if self.cfg.prefetch_c:
            c = self.c
            for r in range(mr):
                for col in (0, nr - 1):
                    pt = [*self.bvals, _off(i0, mr + r), _off(j0, col), 0]
                    amap, ops = es._access(c.c_view, pt)
                    es.put(affine_ops.PrefetchOp.build_prefetch(c.c, ops, amap, write=True))
        if self.full_m and self.full_n:
            init0 = self.init_full(es, i0, j0, pc_t)
            accs = self.kernel(es, asrc, bsrc, env, init0)
            self.by_last(es, pc_t, lambda ee, last: self.store_full(ee, accs, i0, j0, last))
            return

        # One kernel for full and edge tiles; only full tiles start from C or the initializer
        # (an edge tile adds them element by element).
        def full_tile(ee: _E, results: int = 0) -> tuple[Any, _E, _E]:
            exprs, ops = _exprs([i0, j0, self.M, self.N])
            i, j, m, n = exprs
            iset = IntegerSet(len(ops), 0, [m - i - mr, n - j - nr], [False, False])
            types = [self.vt] * results
            op = affine.IfOp.build_if(iset, ops, types, with_else=True)
            ee.put(op)
            return op, ee.inside(op, 0), ee.inside(op, 1)

        init: list[Value] | None = None
        if not (self.c.init_zero and self._first(pc_t) is True):
            nacc = mr * (nr // self.cfg.vl)
            op, then, other = full_tile(es, nacc)
            start = self.init_full(then, i0, j0, pc_t)
            zeros = [self.zero_vec] * nacc
            then.put(affine.YieldOp.create(start if start is not None else zeros, []))
            other.put(affine.YieldOp.create(zeros, []))  # type: ignore[arg-type]
            init = list(op.results)
        accs = self.kernel(es, asrc, bsrc, env, init)
        _, full, edge = full_tile(es)
        self.by_last(full, pc_t, lambda ee, last: self.store_full(ee, accs, i0, j0, last))
        if self.full_n:
            self.store_rows(edge, accs, i0, j0, pc_t)
        else:
            self.store_edge(edge, accs, i0, j0, pc_t)

    def store_rows(self, e: _E, accs: list[Value], i0: Idx, j0: Idx, pc_t: Idx) -> None:
        """An edge tile in M only (N is a multiple of nr): accumulators to the scratch tile,
        then a loop over its valid rows storing vectors (one copy of the epilogue per vector
        of a row, not per accumulator)."""
        mr, nv, vl = self.cfg.mr, self.cfg.nr // self.cfg.vl, self.cfg.vl
        c = self.c
        assert self.scratch is not None
        slot = self._slot(self.s_private)
        smap = _ident(len(slot) + 2)
        for r in range(mr):
            for q in range(nv):
                e.vstore(accs[r * nv + q], self.scratch, smap, [*slot, r, q * vl])

        def rows(ee: _E, first: bool, last: bool) -> None:
            _, er = ee.for_(0, (lambda m, i: [AffineConstantExpr(mr), m - i], (self.M, i0)))
            r = er.block.arguments[0]
            m = er.ix(lambda a, b: a + b, i0, r)
            for q in range(nv):
                p = [*self.bvals, m, _off(j0, q * vl), 0]
                v = er.vload(self.vt, self.scratch, smap, [*slot, r, q * vl])  # type: ignore[arg-type]
                if first and c.init is not None:
                    if not c.init_zero:
                        init = _eval_stage(er, c.init, None, p, self.vt)
                        v = er.v(arith.AddFOp.create([init, v], [self.vt]))
                else:
                    old = er.vload(self.vt, c.c, c.c_view, p)
                    v = er.v(arith.AddFOp.create([old, v], [self.vt]))
                if not last:
                    er.vstore(v, c.c, c.c_view, p)
                    continue
                for st in c.epilogues:
                    v = _eval_stage(er, st, v, p, self.vt)
                er.vstore(v, c.dest, c.dest_view, p)

        first = self._first(pc_t)
        if first is not None:
            self.by_last(e, pc_t, lambda ee, last: rows(ee, first, last))
            return
        _, then, other = e.if_(lambda t: [(t, True)], [pc_t], True)
        self.by_last(then, pc_t, lambda ee, last: rows(ee, True, last))
        self.by_last(other, pc_t, lambda ee, last: rows(ee, False, last))  # type: ignore[arg-type]

    def kernel(
        self,
        e: _E,
        asrc: tuple[str, Idx],
        bsrc: tuple[str, Idx],
        env: dict[str, Idx],
        init: list[Value] | None,
    ) -> list[Value]:
        """The k loop: mr x nr/vl vector accumulators in iter_args (from `init`, else zero).

        B comes from strip t of the packed panel (`("packed", t)`) or in place from column
        j0 of B (`("direct", j0)`); A from strip s of the packed block or in place from row i0.
        """
        mr, nr, vl = self.cfg.mr, self.cfg.nr, self.cfg.vl
        nv = nr // vl
        if asrc[0] == "split":
            # A in place for a full-height strip, else from the copy of the partial strip:
            # an affine.if whose branches run the k loop on either and yield the
            # accumulators, so that the tile's stores (the epilogue, most of the code) are
            # emitted once.
            i0 = asrc[1]
            exprs, ops = _exprs([i0, self.M])
            i, m = exprs
            iset = IntegerSet(len(ops), 0, [m - i - mr], [False])
            op = affine.IfOp.build_if(iset, ops, [self.vt] * (mr * nv), with_else=True)
            e.put(op)
            for region, src in ((0, ("direct", i0)), (1, ("packed", 0))):
                branch = e.inside(op, region)
                branch.put(affine.YieldOp.create(self.kernel(branch, src, bsrc, env, init), []))  # type: ignore[arg-type]
            return list(op.results)
        inits = init if init is not None else [self.zero_vec] * (mr * nv)
        u = self.unroll
        kc, pc = self.kcE, env["pc"]
        trips: Ub = (lambda p, k: [AffineConstantExpr(kc // u), (k - p).floordiv(u)], (pc, self.K))
        loop, body = e.for_(0, trips if u > 1 else self.kcur(env), inits)  # type: ignore[arg-type]
        args = loop.body_block.arguments
        accs = list(args[1:])
        for step in range(u):
            kk = args[0] if u == 1 else body.ix(lambda q, st=step: q * u + st, args[0])
            accs = self.kernel_step(body, asrc, bsrc, env, kk, accs)
        body.put(affine.YieldOp.create(accs, []))
        return list(loop.results)

    def _prefetch(self, e: _E, mem: Value, view: AffineMap, args: Sequence[Idx]) -> None:
        amap, ops = e._access(view, args)
        e.put(affine_ops.PrefetchOp.build_prefetch(mem, ops, amap, locality=3))

    def kernel_step(
        self,
        body: _E,
        asrc: tuple[str, Idx],
        bsrc: tuple[str, Idx],
        env: dict[str, Idx],
        kk: Idx,
        accs: list[Value],
    ) -> list[Value]:
        """One k step of the micro-kernel: B vectors, broadcast A elements, mr x nr/vl FMAs."""
        mr, nr, vl = self.cfg.mr, self.cfg.nr, self.cfg.vl
        nv = nr // vl
        bslot, aslot = self._slot(self.b_private), self._aslot(env)
        bmap, amap = _ident(len(bslot) + 3), _ident(len(aslot) + 3)
        kind, where = bsrc
        k_in: Idx | None = None
        d = self.cfg.prefetch
        if kind == "packed":
            bv = [
                body.vload(self.vt, self.bp, bmap, [*bslot, where, kk, q * vl]) for q in range(nv)
            ]
            if d:
                self._prefetch(body, self.bp, bmap, [*bslot, where, _off(kk, d), 0])
        else:
            k_in = k = body.ix(lambda p, x: p + x, env["pc"], kk)
            c = self.c
            bv = [
                body.vload(self.vt, c.b, c.b_view, [*self.bvals, 0, _off(where, q * vl), k])
                for q in range(nv)
            ]
        if d and asrc[0] == "packed":
            self._prefetch(body, self.ap, amap, [*aslot, asrc[1], _off(kk, d), 0])
        new: list[Value] = []
        akind, awhere = asrc
        if akind == "direct" and k_in is None:
            k_in = body.ix(lambda p, x: p + x, env["pc"], kk)
        for r in range(mr):
            if akind == "packed":
                a = body.load(self.ap, amap, [*aslot, awhere, kk, r])  # type: ignore[arg-type]
            else:
                pt = [*self.bvals, _off(awhere, r), 0, k_in]
                a = body.load(self.c.a, self.c.a_view, pt)  # type: ignore[arg-type]
            ab = body.bcast(a, self.vt)
            for q in range(nv):
                new.append(body.v(vector.FMAOp.create([ab, bv[q], accs[r * nv + q]], [self.vt])))
        return new

    def _points(self, i0: Idx, j0: Idx) -> list[list[Idx]]:
        """View points (b..., m, n, 0) of the tile's vectors, row-major."""
        mr, nv, vl = self.cfg.mr, self.cfg.nr // self.cfg.vl, self.cfg.vl
        return [
            [*self.bvals, _off(i0, r), _off(j0, q * vl), 0] for r in range(mr) for q in range(nv)
        ]

    def _first(self, pc_t: Idx) -> bool | None:
        """True/False when every kc block is/is not the first the tile sees; None: varies."""
        if self.c.init is None:
            return False
        if type(self.nKB) is int and self.nKB == 1:
            return True
        return None

    def init_full(self, e: _E, i0: Idx, j0: Idx, pc_t: Idx) -> list[Value] | None:
        """Accumulator start values of a full tile: the initializer in the first kc block, the
        partial sums in C after it (None: zero)."""
        c = self.c
        first = self._first(pc_t)
        pts = self._points(i0, j0)

        def from_init(ee: _E) -> list[Value]:
            if c.init_zero:
                return [self.zero_vec] * len(pts)  # type: ignore[list-item]
            return [_eval_stage(ee, c.init, None, p, self.vt) for p in pts]  # type: ignore[arg-type]

        def from_c(ee: _E) -> list[Value]:
            return [ee.vload(self.vt, c.c, c.c_view, p) for p in pts]

        if first is True:
            return None if c.init_zero else from_init(e)
        if first is False:
            return from_c(e)
        iset = IntegerSet(1, 0, [dim(0)], [True])
        op = affine.IfOp.build_if(iset, [e.index(pc_t)], [self.vt] * len(pts))
        e.put(op)
        then = _E(op.regions[0].blocks[0], None, e.loc)
        other = _E(op.regions[1].blocks[0], None, e.loc)
        then.put(affine.YieldOp.create(from_init(then), []))
        other.put(affine.YieldOp.create(from_c(other), []))
        return list(op.results)

    def by_last(self, e: _E, pc_t: Idx, body: Callable[[_E, bool], None]) -> None:
        """`body(last)` under an affine.if on the last kc block where that matters."""
        c = self.c
        if (type(self.nKB) is int and self.nKB == 1) or not (c.epilogues or c.dest is not c.c):
            body(e, True)  # without epilogues every block may store as the last
            return
        kc = self.kcE
        _, then, other = e.if_(lambda t, k: [(t * kc + kc - k, False)], [pc_t, self.K], True)
        body(then, True)
        body(other, False)  # type: ignore[arg-type]

    def store_full(self, e: _E, accs: list[Value], i0: Idx, j0: Idx, last: bool) -> None:
        c = self.c
        for acc, p in zip(accs, self._points(i0, j0)):
            if not last:
                e.vstore(acc, c.c, c.c_view, p)
                continue
            for st in c.epilogues:
                acc = _eval_stage(e, st, acc, p, self.vt)
            e.vstore(acc, c.dest, c.dest_view, p)

    def store_edge(self, e: _E, accs: list[Value], i0: Idx, j0: Idx, pc_t: Idx) -> None:
        """An edge tile: accumulators to the scratch tile, then its valid part element by
        element (initializer or partial sum added, epilogue on the last kc block)."""
        mr, nr, vl = self.cfg.mr, self.cfg.nr, self.cfg.vl
        c = self.c
        assert self.scratch is not None
        slot = self._slot(self.s_private)
        smap = _ident(len(slot) + 2)
        nv = nr // vl
        for r in range(mr):
            for q in range(nv):
                e.vstore(accs[r * nv + q], self.scratch, smap, [*slot, r, q * vl])
        _, er = e.for_(0, (lambda m, i: [AffineConstantExpr(mr), m - i], (self.M, i0)))
        r = er.block.arguments[0]
        _, ec = er.for_(0, (lambda n, j: [AffineConstantExpr(nr), n - j], (self.N, j0)))
        col = ec.block.arguments[0]
        acc = ec.load(self.scratch, smap, [*slot, r, col])
        p = [*self.bvals, ec.ix(lambda a, b: a + b, i0, r), ec.ix(lambda a, b: a + b, j0, col), 0]
        addf = arith.AddFOp

        def with_init(ee: _E) -> Value:
            if c.init_zero:
                return acc
            init = _eval_stage(ee, c.init, None, p, None)  # type: ignore[arg-type]
            return ee.v(addf.create([init, acc], [A.f32]))

        def with_c(ee: _E) -> Value:
            return ee.v(addf.create([ee.load(c.c, c.c_view, p), acc], [A.f32]))

        first = self._first(pc_t)
        if first is True:
            v = with_init(ec)
        elif first is False:
            v = with_c(ec)
        else:
            iset = IntegerSet(1, 0, [dim(0)], [True])
            op = affine.IfOp.build_if(iset, [ec.index(pc_t)], [A.f32])
            ec.put(op)
            then = _E(op.regions[0].blocks[0], None, ec.loc)
            other = _E(op.regions[1].blocks[0], None, ec.loc)
            then.put(affine.YieldOp.create([with_init(then)], []))
            other.put(affine.YieldOp.create([with_c(other)], []))
            v = op.results[0]

        def finish(ee: _E, last: bool) -> None:
            if not last:
                ee.store(v, c.c, c.c_view, p)
                return
            out = v
            for st in c.epilogues:
                out = _eval_stage(ee, st, out, p, None)
            ee.store(out, c.dest, c.dest_view, p)

        self.by_last(ec, pc_t, finish)


def emit_contraction(c: Contraction, cfg: Config) -> None:
    """Replace c's generic (and its absorbed stages) by the micro-kernel nest."""
    op = c.op
    e = _E(op.parent, op, op.location)
    _Nest(c, cfg, e).emit()
    for st in [c.init, *c.epilogues]:
        if st is not None:
            st.op.erase()
    op.erase()
