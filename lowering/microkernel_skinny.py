"""Matrix-vector and skinny contractions for `contraction-microkernel`: register-tiled kernels
that read both operands in place, for shapes the packed BLIS nest serves badly (M = 1, N = 1,
a small N, a dynamic M that is small at run time).

    axpy-<p>  vectors along the output dim p (n or m) of the operand that holds p, which must
              be contiguous along p; the other operand's element is broadcast:
                  acc[r][u] += broadcast(Q[q0 + r, k]) * P[k, p0 + u*vl : ...]   for every k
    dot-<p>   vectors along k: every output of an R x Q tile is a dot product of a row of the
              p-operand (contiguous along k) and a row of the q-operand (read in place when it
              is contiguous along k, else packed once into a Q x K buffer):
                  acc[r][q] += P[p0 + r, k : k+vl] * Q[q, k : k+vl]
              then summed across lanes (a tree: a reassociated sum) plus a scalar tail over
              K mod vl.

Neither packs the big operand: it is read once (a matrix-vector product) or a few times from
cache. Initializer and epilogues run on the accumulators before the store, as in the BLIS nest.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mlc.dialects import affine, arith, memref, vector
from mlc.dialects.arith import FastMathFlagsAttr
from mlc.dialects.math import FmaOp
from mlc.dialects.vector import CombiningKindAttr
from mlc.lowering.microkernel_emit import _E, Config, Idx, _eval_stage, _ident, _Nest, _off
from mlc.lowering.microkernel_match import Contraction, _root

from mlc.ir import attributes as A
from mlc.ir.affine import AffineConstantExpr, AffineMap, IntegerSet, dim, simplify_affine_expr
from mlc.ir.core import Operation, Value

__all__ = ["KINDS", "SkinnyConfig", "along", "axpy_ok", "dot_mode", "emit_any", "step_along"]

# Kernel names of the `kernel` knob besides "blis".
KINDS = ("axpy-n", "axpy-m", "dot-m", "dot-n")
DOT_MAX_Q = 16  # widest q extent a dot tile holds (R x Q accumulators)


class SkinnyConfig:
    """Decisions for one skinny kernel: kind ("axpy" | "dot"), the output dim `p` ("m" | "n")
    the kernel runs along, tile rows R, vectors per row U (axpy), vector width, the parallel
    loop ("none", "jc", "ic", "batch") and whether a dot kernel packs its q-operand."""

    __slots__ = (
        "kind", "p", "rows", "vecs", "vl", "parallel", "pack_q", "kblock", "parts", "unroll_kblock"
    )

    def __init__(
        self,
        kind: str,
        p: str,
        rows: int,
        vecs: int,
        vl: int,
        parallel: str,
        pack_q: bool,
        kblock: int = 0,
        parts: int = 0,
        unroll_kblock: bool = False,
    ) -> None:
        self.kind, self.p, self.rows, self.vecs, self.vl = kind, p, rows, vecs, vl
        self.parallel, self.pack_q = parallel, pack_q
        # axpy: k in blocks of this many rows with the p sweep inside each (0: all of K per
        # tile): the p-operand is then read row after row, which the prefetchers follow.
        self.kblock = kblock
        # axpy split along p: this many contiguous column ranges (multiples of the tile width),
        # each running the serial sweep (k blocks, aligned head) on the pool; 0: one pool
        # iteration per column tile, each over all of K.
        self.parts = parts
        # axpy: a whole k block of at most UNROLL_KBLOCK steps (static K a multiple of kblock)
        # as straight-line code instead of a loop (LLVM does not unroll the vector loops).
        self.unroll_kblock = unroll_kblock

    @property
    def name(self) -> str:
        return f"{self.kind}-{self.p}"


# Analysis: which kernels a contraction allows


def along(mem: Value, view: AffineMap, d: int) -> str | None:
    """How `mem` read through `view` moves along view dim `d`: "bcast" (not at all), "vec"
    (to the next element: unit stride), None (anything else, or unknown strides)."""
    if not view.is_function_of_dim(d):
        return "bcast"
    return "vec" if step_along(mem, view, d) == 1 else None


def step_along(mem: Value, view: AffineMap, d: int) -> int | None:
    """Elements `mem` read through `view` moves when view dim `d` advances by one (None: not
    constant, or unknown strides)."""
    t = mem.type
    if type(t) is not A.MemRefType:
        return None
    try:
        strides, _ = t.strides_and_offset()
    except ValueError:
        return None
    return _step(view, strides, d)


def _step(view: AffineMap, strides: list[int], d: int) -> int | None:
    """Elements the address moves when view dim d advances by one (None: not constant)."""
    shift = [dim(i) + 1 if i == d else dim(i) for i in range(view.num_dims)]
    step = 0
    for r, s in zip(view.results, strides):
        if not r.is_function_of_dim(d):
            continue
        delta = simplify_affine_expr(
            r.replace_dims_and_symbols(shift, []) - r, view.num_dims, view.num_symbols
        )
        if type(delta) is not AffineConstantExpr or s == A.DYNAMIC:
            return None
        step += delta.value * s
    return step


def _dims(c: Contraction) -> dict[str, int]:
    """View dim positions of m, n and k."""
    nb = c.nb
    return {"m": nb, "n": nb + 1, "k": nb + 2}


def _operands(c: Contraction, p: str) -> tuple[tuple[Value, AffineMap], tuple[Value, AffineMap]]:
    """(the operand holding output dim p, the other one), each as (memref, view)."""
    a, b = (c.a, c.a_view), (c.b, c.b_view)
    return (b, a) if p == "n" else (a, b)


def stage_kinds(c: Contraction, d: int) -> list[list[str]] | None:
    """Per absorbed stage, each input's kind along view dim d; None if one is not vec/bcast."""
    out = []
    for st in [c.init, *c.epilogues]:
        if st is None:
            out.append([])
            continue
        kinds = []
        for kind, mem, view in st.inputs:
            if kind in ("cur", "unused"):
                kinds.append(kind)
                continue
            got = along(mem, view, d)  # type: ignore[arg-type]
            if got is None:
                return None
            kinds.append(got)
        out.append(kinds)
    return out


def axpy_ok(c: Contraction, p: str) -> bool:
    """axpy-p: the p-operand, the destination and every stage input are contiguous along p
    (or, for stage inputs, independent of it)."""
    d = _dims(c)[p]
    (pm, pv), _ = _operands(c, p)
    if along(pm, pv, d) != "vec" or along(c.dest, c.dest_view, d) != "vec":
        return False
    return stage_kinds(c, d) is not None


def dot_mode(c: Contraction, p: str) -> str | None:
    """dot-p: "inplace" / "pack" (how the q-operand is read), or None when not applicable
    (the p-operand is not contiguous along k, or the q extent is not static and small)."""
    dims = _dims(c)
    (pm, pv), (qm, qv) = _operands(c, p)
    if along(pm, pv, dims["k"]) != "vec":
        return None
    q = "m" if p == "n" else "n"
    qdims = c.mdims if q == "m" else [c.ndim]
    extent = 1
    for d in qdims:
        if c.sizes[d] == A.DYNAMIC:
            return None
        extent *= c.sizes[d]
    if not 1 <= extent <= DOT_MAX_Q:
        return None
    return "inplace" if along(qm, qv, dims["k"]) == "vec" else "pack"


# Emission


# The longest k block `unroll_kblock` writes out as straight-line code.
UNROLL_KBLOCK = 8


def _ceil_to(x: int, unit: int) -> int:
    return -(-x // unit) * unit


class _Skinny(_Nest):
    """One contraction as an axpy or dot kernel nest (batch loops from `_Nest`)."""

    def __init__(
        self,
        c: Contraction,
        sk: SkinnyConfig,
        e: _E,
        loop_size: list[Idx] | None = None,
        top: _E | None = None,
    ) -> None:
        par = "batch" if sk.parallel == "batch" and c.batch else "none"
        super().__init__(c, Config(1, sk.vl, sk.vl, 1, 1, 1, "jc-pc-ic", par), e, loop_size)
        self.sk = sk
        self.top = top if top is not None else e  # the function's entry block: affine symbols
        self.dims = _dims(c)
        (self.pmem, self.pview), (self.qmem, self.qview) = _operands(c, sk.p)
        self.q = "m" if sk.p == "n" else "n"
        kinds = stage_kinds(c, self.dims[sk.p]) if sk.kind == "axpy" else None
        self.init_kinds = kinds[0] if kinds else None
        self.epi_kinds = kinds[1:] if kinds else [None] * len(c.epilogues)
        # Overlapping vectors may store a lane twice: only when nothing the tile reads can be
        # one it wrote (no stage input in C or the destination, no partial sums in C).
        roots = {_root(c.c), _root(c.dest)}
        self.overlap_ok = not sk.kblock and not any(
            v is not None and _root(v) in roots
            for st in [c.init, *c.epilogues]
            if st is not None
            for _, v, _ in st.inputs
        )
        # The parallel dim: p (tiles of the sweep), q (axpy tiles of rows) or none.
        names = {"jc": "n", "ic": "m"}
        self.par_dim = names.get(sk.parallel)
        if sk.kind == "dot" and self.par_dim == self.q:
            self.par_dim = None  # a dot tile spans all of q: nothing to split

    def pt(self, pval: Idx, qval: Idx, k: Idx) -> list[Idx]:
        """The view point (b..., m, n, k) of output coordinates p, q and reduction index k."""
        m, n = (qval, pval) if self.sk.p == "n" else (pval, qval)
        return [*self.bvals, m, n, k]

    def emit(self) -> None:
        e = self.e0
        self.allocs = []
        self.sizes()
        self.P, self.Q = (self.N, self.M) if self.sk.p == "n" else (self.M, self.N)
        self.p_lo, self.p_hi = 0, self.P  # the columns the axpy sweep covers (a chunk's)
        self.zero = e.fconst(0.0, A.f32)
        self.qpack = None
        if self.sk.kind == "dot" and self.sk.pack_q:
            batch_private = self.cfg.parallel == "batch"
            lead = [self.loop_size[self.c.batch[0]]] if batch_private else []
            self.qpack = self.alloc([*lead, self.Q, self.K])
        self.head = self.alignment_head(e)
        self.batch_loops(e, 0, [])
        self.guard_empty_k(e)
        for v in reversed(self.allocs):
            e.put(memref.DeallocOp.build([v]))

    def alignment_head(self, e: _E) -> Idx | None:
        """axpy: columns before the p-operand's first vl-aligned one (a run-time value), when
        every other dim moves its address by a multiple of vl elements, P is static and at
        least a vector, and overlapping stores are allowed; else None. NumPy's arrays are
        16-byte aligned: an unaligned 16-lane load splits two cache lines, and the M = 1
        product ran 1.5x slower on them."""
        sk = self.sk
        P = self.P
        if sk.kind != "axpy" or type(P) is not int or P < 2 * sk.vl:
            return None
        if not self.overlap_ok and not (self.blocked() and type(self.Q) is int):
            # k blocks take the head in pieces that do not overlap: their code adds about
            # 0.1 s of compile time, which a dynamic M's small-M variant (the MLP at batch 1,
            # 0.45 s) does not get.
            return None
        t = self.pmem.type
        try:
            strides, offset = t.strides_and_offset()
        except ValueError:
            return None
        if offset == A.DYNAMIC or (self.par_dim == sk.p and not self.chunked()):
            return None
        if self.chunked() and min(self.chunk_lengths()) < 2 * sk.vl:
            return None
        view, d = self.pview, self.dims[sk.p]
        for other in range(view.num_dims):
            if other == d:
                continue
            step = _step(view, strides, other)
            if step is None or step % sk.vl:
                return None
        vl = sk.vl
        op = memref.ExtractAlignedPointerAsIndexOp.create([self.pmem], [A.index])
        ptr = self.top.v(op)
        return e.ix(lambda a: (vl - (a.floordiv(4) + offset) % vl) % vl, ptr)

    def outer(self, e: _E, depth: int, env: dict[str, Idx]) -> None:
        if self.sk.kind == "dot":
            self.dot(e)
        else:
            self.axpy(e)

    # Loops over tiles

    def tiles(
        self,
        e: _E,
        start: Idx,
        extent: Idx,
        unit: int,
        par: bool,
        full: Callable[[_E, Idx], None],
        tail: Callable[[_E, Idx], None],
    ) -> None:
        """full(e, i) for each whole tile [i, i + unit) of [start, extent), then tail(e, i) for
        the partial last one [i, extent); tiles run on the thread pool when `par`."""
        ntiles = e.ix(lambda s, x: (x - s).ceildiv(unit), start, extent)
        nfull = e.ix(lambda s, x: (x - s).floordiv(unit), start, extent)
        exact = type(ntiles) is int and ntiles == nfull
        if par:
            loop, body = e.parallel(ntiles)
            t = loop.regions[0].blocks[0].arguments[0]
            i0 = body.ix(lambda s, tt: s + tt * unit, start, t)
            if exact:
                full(body, i0)
                return
            _, then, other = body.if_(lambda i, x: [(x - i - unit, False)], [i0, extent], True)
            full(then, i0)
            tail(other, i0)  # type: ignore[arg-type]
            return
        if nfull != 0:
            if nfull == 1:
                full(e, start)
            else:
                _, body = e.for_(0, nfull)
                i0 = body.ix(lambda s, tt: s + tt * unit, start, body.block.arguments[0])
                full(body, i0)
        if exact:
            return
        rest = e.ix(lambda s, x, f: s + f * unit, start, extent, nfull)
        if type(ntiles) is int:
            tail(e, rest)
            return
        _, then, _ = e.if_(lambda s, x: [((x - s) % unit - 1, False)], [start, extent], False)
        tail(then, rest)

    def rows(self, e: _E, start: Idx, extent: Idx, fn: Callable[[_E, Idx], None]) -> None:
        """fn(e, i) for each i in [start, extent) (one row at a time)."""
        n = e.ix(lambda s, x: x - s, start, extent)
        if n == 1:
            fn(e, start)
            return
        _, body = e.for_(start, extent)
        fn(body, body.block.arguments[0])

    # axpy

    def chunked(self) -> bool:
        """axpy split along p in `parts` column ranges (a static P of more than one range)."""
        sk = self.sk
        return (
            sk.kind == "axpy" and self.par_dim == sk.p and sk.parts > 1 and type(self.P) is int
        )

    def chunk_lengths(self) -> list[int]:
        """Column counts of the ranges of a chunked split: equal multiples of the tile width,
        the last one shorter."""
        assert type(self.P) is int
        w = self.sk.vecs * self.sk.vl
        share = _ceil_to(_ceil_to(self.P, self.sk.parts) // self.sk.parts, w)
        n = -(-self.P // share)
        return [share] * (n - 1) + [self.P - (n - 1) * share]

    def blocked(self) -> bool:
        """axpy in k blocks of `kblock` rows (partial sums in C between them)."""
        kb = self.sk.kblock
        return bool(kb) and not (type(self.K) is int and self.K <= kb)

    def axpy(self, e: _E) -> None:
        sk = self.sk
        U = sk.vecs
        row_fn = self.k_blocks if self.blocked() else self.p_sweep
        if self.chunked():
            # Each pool iteration sweeps its own contiguous columns as the serial kernel does
            # (whole rows of the k block, the aligned head), not a column tile over all of K.
            lengths = self.chunk_lengths()
            share, last = lengths[0], lengths[-1]
            loop, body = e.parallel(len(lengths))
            t = loop.regions[0].blocks[0].arguments[0]
            lo = body.ix(lambda tt: tt * share, t)

            def part(ee: _E, start: Idx, end: Idx) -> None:
                self.p_lo, self.p_hi = start, end
                self.q_chain(ee, 0, self.Q, False, row_fn)
                self.p_lo, self.p_hi = 0, self.P

            if last == share:
                part(body, lo, _off(lo, share))
                return
            n = len(lengths)
            _, then, other = body.if_(lambda tt: [(n - 2 - tt, False)], [t], True)
            part(then, lo, _off(lo, share))
            part(other, (n - 1) * share, self.P)  # type: ignore[arg-type]
            return
        if self.par_dim == sk.p:
            # p tiles on the pool, each running every row of q (all with U vectors).
            self.tiles(
                e,
                0,
                self.P,
                U * sk.vl,
                True,
                lambda e2, p0: self.q_chain(
                    e2, 0, self.Q, False, lambda e3, q0, r: self.axpy_tile(e3, q0, r, p0, U, sk.vl)
                ),
                lambda e2, p0: self.q_chain(
                    e2, 0, self.Q, False, lambda e3, q0, r: self.axpy_tail(e3, q0, r, p0)
                ),
            )
            return
        # Row tiles outermost (on the pool when q is the parallel dim), each sweeping all of p.
        self.q_chain(e, 0, self.Q, self.par_dim == self.q, row_fn)

    def vecs_for(self, r: int) -> int:
        """Vectors per row of an r-row tile: the `vecs` knob for full tiles; the widest that
        fits the registers (at most 8, at most P) for the smaller tiles of the last rows."""
        sk = self.sk
        if r == sk.rows:
            return sk.vecs
        regs = 32 if sk.vl == 16 else 16
        width = self.P if type(self.P) is int else 1 << 30
        fits = [u for u in (1, 2, 4, 8) if r * u + u + 1 <= regs and (u == 1 or u * sk.vl <= width)]
        return max(fits)

    def q_chain(
        self, e: _E, qs: Idx, qe: Idx, par: bool, fn: Callable[[_E, Idx, int], None]
    ) -> None:
        """fn(e, q0, R) on the full R-row tiles of [qs, qe), then the rest in tiles of halving
        powers of two below R (each taken at most once: 4, 2, 1 after R = 8 or 6)."""
        R = self.sk.rows

        def rest(ee: _E, cur: Idx) -> None:
            size = 1
            while size * 2 < R:
                size *= 2
            while size >= 1:
                count = ee.ix(lambda s, x, z=size: (x - s).floordiv(z), cur, qe)
                if count != 0:
                    if count == 1:
                        fn(ee, cur, size)
                    else:
                        _, body = ee.for_(0, count)
                        q0 = body.ix(lambda s, t, z=size: s + t * z, cur, body.block.arguments[0])
                        fn(body, q0, size)
                    cur = ee.ix(lambda s, x, z=size: s + (x - s).floordiv(z) * z, cur, qe)
                size //= 2

        self.tiles(e, qs, qe, R, par, lambda e2, q0: fn(e2, q0, R), rest)

    def p_sweep(self, e: _E, q0: Idx, r: int) -> None:
        """Rows [q0, q0 + r) over all of p: tiles of vecs_for(r) vectors, then the tail."""
        U = self.vecs_for(r)
        if self.head is not None and r == 1:
            # Single rows only (a matrix-vector product, a batch of one): the three extra
            # one-vector kernels of the aligned sweep cost LLVM time for every row tile size.
            self.aligned_sweep(e, q0, r, U)
            return
        self.tiles(
            e,
            self.p_lo,
            self.p_hi,
            U * self.sk.vl,
            False,
            lambda e2, p0: self.axpy_tile(e2, q0, r, p0, U, self.sk.vl),
            lambda e2, p0: self.axpy_tail(e2, q0, r, p0),
        )

    def aligned_sweep(self, e: _E, q0: Idx, r: int, U: int) -> None:
        """A vector at 0 (covering the unaligned head), U-vector tiles from the first aligned
        column, single vectors after them and a last vector ending at P (the overlaps store
        the same values twice)."""
        vl, lo, P = self.sk.vl, self.p_lo, self.p_hi
        h = e.ix(lambda a, b: a + b, lo, self.head)  # type: ignore[arg-type]
        W = U * vl
        self.axpy_tile(e, q0, r, lo, 1, vl)
        nfull = e.ix(lambda x, y: (y - x).floordiv(W), h, P)
        _, body = e.for_(0, nfull)
        p0 = body.ix(lambda x, t: x + t * W, h, body.block.arguments[0])
        self.axpy_tile(body, q0, r, p0, U, vl)
        cur = e.ix(lambda x, y: x + (y - x).floordiv(W) * W, h, P)
        if U > 1:
            nvec = e.ix(lambda x, y: (y - x).floordiv(vl), cur, P)
            _, body = e.for_(0, nvec)
            p1 = body.ix(lambda x, t: x + t * vl, cur, body.block.arguments[0])
            self.axpy_tile(body, q0, r, p1, 1, vl)
        self.axpy_tile(e, q0, r, e.ix(lambda y: y - vl, P), 1, vl)

    def k_blocks(self, e: _E, q0: Idx, r: int) -> None:
        """Rows [q0, q0 + r): k in blocks of kblock, each sweeping all of p (partial sums in
        C between blocks; the initializer before the first, the epilogues after the last)."""
        sk = self.sk
        U = self.vecs_for(r)
        kb, W = sk.kblock, U * sk.vl
        nkb = e.ix(lambda k: k.ceildiv(kb), self.K)
        loop, body = e.for_(0, nkb)
        b = body.block.arguments[0]
        k0 = body.ix(lambda t: t * kb, b)
        krange = (b, k0, (lambda t, k: [t * kb + kb, k], (b, self.K)), nkb)
        if sk.unroll_kblock and kb <= UNROLL_KBLOCK and type(self.K) is int and self.K % kb == 0:
            krange = (*krange, kb)  # whole blocks: kb steps of straight-line code
        if self.head is not None and r == 1:
            self.aligned_blocks(body, q0, r, U, krange)
            return
        self.tiles(
            body,
            self.p_lo,
            self.p_hi,
            W,
            False,
            lambda e2, p0: self.axpy_tile(e2, q0, r, p0, U, sk.vl, krange),
            lambda e2, p0: self.axpy_tail(e2, q0, r, p0, krange),
        )

    def aligned_blocks(self, e: _E, q0: Idx, r: int, U: int, krange: Any) -> None:
        """One k block of rows [q0, q0 + r) from the first vl-aligned column on: the head's
        columns in pieces that do not overlap (C holds partial sums between blocks), U-vector
        tiles from the aligned column, single vectors, and the last columns in pieces again.
        NumPy's arrays are 16-byte aligned: half of the 8-lane loads of each row split two
        cache lines (1 x 784 x 512 on the Zen 3 VM: 7% slower than on a 32-byte aligned copy
        of the same weights)."""
        vl, lo, P, head = self.sk.vl, self.p_lo, self.p_hi, self.head
        assert head is not None
        # The run-time positions as values (affine.apply), so that the maps using them stay
        # short: folded in, each repeated the head's expression (3.5x the LLVM IR).
        hv = e.index(head)
        self.bit_pieces(e, q0, r, lo, hv, krange)
        h0 = e.index(e.ix(lambda x, h: x + h, lo, hv))
        W = U * vl
        _, body = e.for_(0, e.ix(lambda x, y: (y - x).floordiv(W), h0, P))
        p0 = body.ix(lambda x, t: x + t * W, h0, body.block.arguments[0])
        self.axpy_tile(body, q0, r, p0, U, vl, krange)
        cur = e.index(e.ix(lambda x, y: x + (y - x).floordiv(W) * W, h0, P))
        if U > 1:
            _, body = e.for_(0, e.ix(lambda x, y: (y - x).floordiv(vl), cur, P))
            p1 = body.ix(lambda x, t: x + t * vl, cur, body.block.arguments[0])
            self.axpy_tile(body, q0, r, p1, 1, vl, krange)
        self.bit_pieces(e, q0, r, cur, e.index(e.ix(lambda x, y: y - x, cur, P)), krange)

    def bit_pieces(self, e: _E, q0: Idx, r: int, start: Idx, count: Idx, krange: Any) -> None:
        """The last `count mod vl` of the columns [start, start + count) (`count` a run-time
        value): a piece of w = vl/2, ..., 4 lanes for each of those bits of it, under an
        affine.if each, largest first (a piece of w lanes starts at start + count floordiv 2w
        * 2w), then `count mod 4` columns one by one as vector<1xf32> (a loop of scalars
        LLVM vectorized with masked loads, and a piece per bit, both cost compile time)."""
        w = self.sk.vl // 2
        while w >= 4:
            _, then, _ = e.if_(lambda c, w=w: [(c.floordiv(w) % 2 - 1, False)], [count], False)
            at = then.ix(lambda x, c, w=w: x + c.floordiv(2 * w) * (2 * w), start, count)
            self.axpy_tile(then, q0, r, at, 1, w, krange)
            w //= 2
        # (Only for operands not 16-byte aligned: their k loop stays, for compile time.)
        _, body = e.for_(0, e.ix(lambda c: c % 4, count))
        at = body.ix(
            lambda x, c, t: x + c.floordiv(4) * 4 + t, start, count, body.block.arguments[0]
        )
        self.axpy_tile(body, q0, r, at, 1, 1, krange[:4], one_lane=True)

    def axpy_tail(self, e: _E, q0: Idx, r: int, p0: Idx, krange: Any = None) -> None:
        """Columns [p0, P) of fewer than W: with a static P of at least a vector, one tile of
        vectors whose last one ends at P (overlapping the one before: its common lanes are
        computed the same way and stored twice with the same value); else single vectors, a
        half vector (16 lanes) and scalars."""
        vl = self.sk.vl
        P = self.p_hi
        if self.overlap_ok and krange is None and type(p0) is int and type(P) is int:
            if P >= vl and P > p0:
                offsets: list[Idx] = list(range(p0, P - vl + 1, vl))
                if not offsets or offsets[-1] != P - vl:
                    offsets.append(P - vl)
                self.axpy_tile(e, q0, r, p0, len(offsets), vl, None, offsets)
                return
        widths = [vl] + ([vl // 2] if vl == 16 else []) + [1]
        cur = p0
        for w in widths:
            count = e.ix(lambda s, x, w=w: (x - s).floordiv(w), cur, P)
            if count == 0:
                continue
            if count == 1:
                self.axpy_tile(e, q0, r, cur, 1, w, krange)
            else:
                _, body = e.for_(0, count)
                i = body.ix(lambda s, t, w=w: s + t * w, cur, body.block.arguments[0])
                self.axpy_tile(body, q0, r, i, 1, w, krange)
            cur = e.ix(lambda s, x, w=w: s + (x - s).floordiv(w) * w, cur, P)

    def axpy_tile(
        self,
        e: _E,
        q0: Idx,
        R: int,
        p0: Idx,
        U: int,
        w: int,
        krange: Any = None,
        offsets: list[Idx] | None = None,
        one_lane: bool = False,
    ) -> None:
        """R rows of q x U vectors of w lanes along p at (q0, p0) (or at `offsets`): k loop,
        epilogue, stores.

        krange = (block index, first k, end bound, block count): one k block of `k_blocks`
        (start from C after the first block, store raw sums to C before the last)."""
        c = self.c
        vt = A.VectorType([w], A.f32) if w > 1 or one_lane else None
        et = vt if vt is not None else A.f32
        if offsets is None:
            offsets = [_off(p0, u * w) for u in range(U)]
        points = [self.pt(offsets[u], _off(q0, r), 0) for r in range(R) for u in range(U)]

        def starts(ee: _E) -> list[Value]:
            if c.init is not None and not c.init_zero:
                return [_eval_stage(ee, c.init, None, p, vt, self.init_kinds) for p in points]
            zero = self.zero
            if vt is not None:
                zero = ee.v(arith.ConstantOp.from_attr(A.DenseElementsAttr(vt, [0.0] * w)))
            return [zero] * len(points)  # type: ignore[list-item]

        def partial(ee: _E) -> list[Value]:
            if vt is None:
                return [ee.load(c.c, c.c_view, p) for p in points]
            return [ee.vload(vt, c.c, c.c_view, p) for p in points]

        if krange is None:
            inits = starts(e)
            k_lo: Idx = 0
            k_hi: Any = self.K
        else:
            blk, k_lo, k_hi, nkb = krange[:4]
            iset = IntegerSet(1, 0, [dim(0)], [True])
            op = affine.IfOp.build_if(iset, [e.index(blk)], [et] * len(points))
            e.put(op)
            then = _E(op.regions[0].blocks[0], None, e.loc)
            other = _E(op.regions[1].blocks[0], None, e.loc)
            then.put(affine.YieldOp.create(starts(then), []))
            other.put(affine.YieldOp.create(partial(other), []))
            inits = list(op.results)
        def step(body: _E, k: Idx, accs: list[Value]) -> list[Value]:
            pv = []
            for u in range(U):
                at = self.pt(offsets[u], 0, k)
                if vt is None:
                    pv.append(body.load(self.pmem, self.pview, at))
                else:
                    pv.append(body.vload(vt, self.pmem, self.pview, at))
            new: list[Value] = []
            for r in range(R):
                a = body.load(self.qmem, self.qview, self.pt(0, _off(q0, r), k))
                if vt is not None:
                    a = body.bcast(a, vt)
                for u in range(U):
                    acc = accs[r * U + u]
                    if vt is None:
                        new.append(body.v(FmaOp.create([a, pv[u], acc], [et])))
                    else:
                        new.append(body.v(vector.FMAOp.create([a, pv[u], acc], [et])))
            return new

        if krange is not None and len(krange) > 4:
            results = inits
            for j in range(krange[4]):
                results = step(e, _off(k_lo, j), results)
        else:
            loop, body = e.for_(k_lo, k_hi, inits)
            args = loop.body_block.arguments
            body.put(affine.YieldOp.create(step(body, args[0], list(args[1:])), []))
            results = list(loop.results)

        def store(ee: _E, last: bool) -> None:
            for p, v in zip(points, results):
                mem, view = c.c, c.c_view
                if last:
                    for st, kinds in zip(c.epilogues, self.epi_kinds):
                        v = _eval_stage(ee, st, v, p, vt, kinds)
                    mem, view = c.dest, c.dest_view
                if vt is None:
                    ee.store(v, mem, view, p)
                else:
                    ee.vstore(v, mem, view, p)

        if krange is None or not (c.epilogues or c.dest is not c.c):
            store(e, True)
            return
        blk, _, _, nkb = krange[:4]
        _, then, other = e.if_(lambda t, n: [(n - t - 1, True)], [blk, nkb], True)
        store(then, True)
        store(other, False)  # type: ignore[arg-type]

    # dot

    def dot(self, e: _E) -> None:
        sk = self.sk
        assert type(self.Q) is int
        if self.qpack is not None:
            self.pack_q(e)
        R = sk.rows
        self.tiles(
            e,
            0,
            self.P,
            R,
            self.par_dim == sk.p,
            lambda e2, p0: self.dot_tile(e2, p0, R),
            lambda e2, p0: self.rows(e2, p0, self.P, lambda e3, p: self.dot_tile(e3, p, 1)),
        )

    def _qslot(self) -> list[Idx]:
        return [self.par_iv] if self.cfg.parallel == "batch" else []

    def pack_q(self, e: _E) -> None:
        """Qp[q][k] = the q-operand at (q, k): k contiguous for the dot kernel's vector loads."""
        slot = self._qslot()
        ident = _ident(len(slot) + 2)
        _, ek = e.for_(0, self.K)
        k = ek.block.arguments[0]
        _, eq = ek.for_(0, self.Q)
        q = eq.block.arguments[0]
        v = eq.load(self.qmem, self.qview, self.pt(0, q, k))
        eq.store(v, self.qpack, ident, [*slot, q, k])  # type: ignore[arg-type]

    def qload(self, e: _E, vt: A.VectorType | None, q: int, k: Idx) -> Value:
        if self.qpack is not None:
            slot = self._qslot()
            ident = _ident(len(slot) + 2)
            if vt is None:
                return e.load(self.qpack, ident, [*slot, q, k])
            return e.vload(vt, self.qpack, ident, [*slot, q, k])
        at = self.pt(0, q, k)
        if vt is None:
            return e.load(self.qmem, self.qview, at)
        return e.vload(vt, self.qmem, self.qview, at)

    def dot_masked_tail(
        self, e: _E, p0: Idx, R: int, accs: list[Value], k: int, skip: int
    ) -> list[Value]:
        """accs += P[p0 + r, k : k+vl] * Q[q, k : k+vl] in the lanes from `skip` on."""
        vl, Q, vt = self.sk.vl, self.Q, self.vt
        assert type(Q) is int
        mt = A.VectorType([vl], A.i1)
        mask = e.v(
            arith.ConstantOp.from_attr(A.DenseElementsAttr(mt, [j >= skip for j in range(vl)]))
        )
        pv = [e.vload(vt, self.pmem, self.pview, self.pt(_off(p0, r), 0, k)) for r in range(R)]
        out = list(accs)
        for q in range(Q):
            qv = self.qload(e, vt, q, k)
            for r in range(R):
                i = r * Q + q
                f = e.v(vector.FMAOp.create([pv[r], qv, accs[i]], [vt]))
                out[i] = e.v(arith.SelectOp.create([mask, f, accs[i]], [vt]))
        return out

    def dot_tile(self, e: _E, p0: Idx, R: int) -> None:
        """R rows of p x all Q: vector dot products over k, lane sums, the K mod vl tail, then
        the initializer and epilogues in scalar form and scalar stores."""
        c, vl = self.c, self.sk.vl
        Q = self.Q
        assert type(Q) is int
        vt = self.vt
        zero_vec = e.v(arith.ConstantOp.from_attr(A.DenseElementsAttr(vt, [0.0] * vl)))
        nk = e.ix(lambda k: k.floordiv(vl), self.K)
        cells = [(r, q) for r in range(R) for q in range(Q)]
        sums: list[Value]
        if nk != 0:
            loop, body = e.for_(0, nk, [zero_vec] * len(cells))
            args = loop.body_block.arguments
            k = body.ix(lambda t: t * vl, args[0])
            accs = list(args[1:])
            pv = [
                body.vload(vt, self.pmem, self.pview, self.pt(_off(p0, r), 0, k)) for r in range(R)
            ]
            new: list[Value | None] = [None] * len(cells)
            for q in range(Q):
                qv = self.qload(body, vt, q, k)
                for r in range(R):
                    i = r * Q + q
                    new[i] = body.v(vector.FMAOp.create([pv[r], qv, accs[i]], [vt]))
            body.put(affine.YieldOp.create(new, []))  # type: ignore[arg-type]
            accs = list(loop.results)
            rest = e.ix(lambda k: k % vl, self.K)
            if type(rest) is int and rest:
                # A static K mod vl: one more vector step ending at K, its lanes already
                # counted masked off by a select (exact for any input, inf and nan included).
                accs = self.dot_masked_tail(e, p0, R, accs, self.K - vl, vl - rest)  # type: ignore[operator]
            reassoc = FastMathFlagsAttr.from_names("reassoc")
            attrs = {"kind": CombiningKindAttr("add"), "fastmath": reassoc}
            sums = [
                e.v(vector.ReductionOp.create([acc, self.zero], [A.f32], dict(attrs)))
                for acc in accs
            ]
        else:
            sums = [self.zero] * len(cells)  # type: ignore[list-item]
        rest = e.ix(lambda k: k % vl, self.K)
        if rest != 0 and not (type(rest) is int and nk != 0):
            start = e.ix(lambda k: k.floordiv(vl) * vl, self.K)
            tail, body = e.for_(start, self.K, sums)
            args = tail.body_block.arguments
            k, accs = args[0], list(args[1:])
            pv = [body.load(self.pmem, self.pview, self.pt(_off(p0, r), 0, k)) for r in range(R)]
            qs = [self.qload(body, None, q, k) for q in range(Q)]
            new = [body.v(FmaOp.create([pv[r], qs[q], accs[r * Q + q]], [A.f32])) for r, q in cells]
            body.put(affine.YieldOp.create(new, []))  # type: ignore[arg-type]
            sums = list(tail.results)
        for (r, q), v in zip(cells, sums):
            p = self.pt(_off(p0, r), q, 0)
            if c.init is not None and not c.init_zero:
                init = _eval_stage(e, c.init, None, p, None)
                v = e.v(arith.AddFOp.create([init, v], [A.f32]))
            for st in c.epilogues:
                v = _eval_stage(e, st, v, p, None)
            e.store(v, c.dest, c.dest_view, p)


def emit_any(
    c: Contraction,
    cfg: Config,
    skinny: SkinnyConfig | None = None,
    small: tuple[SkinnyConfig, int] | None = None,
) -> None:
    """Replace c's generic (and its absorbed stages) by the BLIS nest `cfg`, the skinny kernel
    `skinny`, or, with `small = (kernel, t)`, both behind `affine.if M <= t` (a dynamic M)."""
    op = c.op
    e = _E(op.parent, op, op.location)
    before = op.prev
    if skinny is not None:
        _Skinny(c, skinny, e).emit()
    elif small is not None:
        sk, t = small
        sizes = _Nest(c, cfg, e).loop_sizes()
        rows: Idx = sizes[c.mdims[0]]
        for d in c.mdims[1:]:
            rows = e.ix(lambda x, s=sizes[d]: x * s, rows)
        guard, then, other = e.if_(lambda x: [(t - x, False)], [rows], True)
        _Skinny(c, sk, then, sizes, _E(op.parent, guard, op.location)).emit()
        _Nest(c, cfg, other, sizes).emit()  # type: ignore[arg-type]
    else:
        _Nest(c, cfg, e).emit()
    _mark_serial(before.next if before is not None else op.parent.first, op)
    for st in [c.init, *c.epilogues]:
        if st is not None:
            st.op.erase()
    op.erase()


def _mark_serial(first: Operation, stop: Operation) -> None:
    """Mark the emitted loop nests that run no loop on the thread pool `mlc.serial`, so that
    affine-parallelize does not thread them behind the pass's cost model."""
    cur: Operation | None = first
    while cur is not None and cur is not stop:
        if cur.regions and not any(o.get_attr("mlc.parallel") is not None for o in cur.walk()):
            cur.set_attr("mlc.serial", A.UnitAttr())
        cur = cur.next
