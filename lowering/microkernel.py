"""`contraction-microkernel`: contractions (matmul, batched matmul, conv2d's implicit GEMM) on
buffers become a packed, cache-blocked BLIS loop nest around a register-blocked vector
micro-kernel, with the output's initializer and elementwise epilogues applied in its stores.

Runs after `bufferize` and before `convert-tensor-to-affine`; generics it does not recognize
stay for the generic path. Recognition is in `microkernel_match.py`, emission in
`microkernel_emit.py`; this file holds the pass, its knobs and the cache model behind their
defaults.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import lru_cache

from mlc.lowering.microkernel_emit import Config
from mlc.lowering.microkernel_match import Contraction, match_contractions
from mlc.lowering.microkernel_skinny import (
    KINDS,
    SkinnyConfig,
    axpy_ok,
    dot_mode,
    emit_any,
    step_along,
)

from mlc.ir import attributes as A
from mlc.ir.core import Operation
from mlc.knobs import Bool, Choice, IntRange
from mlc.pass_manager import KnobDecl, Option, Pass, PassContext, Statistic

__all__ = ["ContractionMicrokernelPass", "CacheSizes", "cache_sizes", "legal_tiles"]

ORDERS = ("jc-pc-ic", "pc-jc-ic", "jc-ic-pc", "ic-jc-pc", "ic-pc-jc", "pc-ic-jc")
MRS = (1, 2, 3, 4, 6, 8, 10, 12, 14)


class CacheSizes:
    """Data cache sizes in bytes (L1d, L2, L3 share per core) and the L1d's ways."""

    __slots__ = ("l1", "l2", "l3", "l1_ways")

    def __init__(self, l1: int, l2: int, l3: int, l1_ways: int = 8) -> None:
        self.l1, self.l2, self.l3, self.l1_ways = l1, l2, l3, l1_ways


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def _parse_size(text: str) -> int:
    text = text.strip().upper()
    mult = 1
    if text.endswith("K"):
        mult, text = 1024, text[:-1]
    elif text.endswith("M"):
        mult, text = 1024 * 1024, text[:-1]
    return int(text) * mult


@lru_cache(maxsize=1)
def cache_sizes() -> CacheSizes:
    """From /sys/devices/system/cpu/cpu0/cache (fallbacks: 32 KiB, 512 KiB, 4 MiB per core;
    8 ways)."""
    l1, l2, l3, ways = 32 * 1024, 512 * 1024, 4 * 1024 * 1024, 8
    base = "/sys/devices/system/cpu/cpu0/cache"
    try:
        for entry in sorted(os.listdir(base)):
            if not entry.startswith("index"):
                continue
            path = os.path.join(base, entry)

            def read(name: str, path: str = path) -> str:
                with open(os.path.join(path, name), encoding="ascii") as f:
                    return f.read().strip()

            level, kind, size = int(read("level")), read("type"), _parse_size(read("size"))
            if kind == "Instruction":
                continue
            if level == 1:
                l1 = size
                ways = int(read("ways_of_associativity")) or ways
            elif level == 2:
                l2 = size
            elif level == 3:
                cores = max(1, os.cpu_count() or 1)
                l3 = max(size // cores, l2)
    except (OSError, ValueError):
        pass
    return CacheSizes(l1, l2, l3, ways)


@lru_cache(maxsize=1)
def host_vector_width() -> int:
    """f32 lanes of the host's widest vector registers the JIT uses: 16 with AVX-512, else 8."""
    try:
        from mlc.runtime import host_target

        return 16 if host_target().has_feature("avx512f") else 8
    except Exception:  # no llvmlite: assume AVX2
        return 8


def _runtime_threads() -> int:
    """The thread count compiled code will be called with: the `threads` of `mlc.compile` (its
    `planning_threads`), else MLC_NUM_THREADS, else the cores."""
    try:
        from mlc.runtime.parallel import planned_threads

        return planned_threads()
    except (ImportError, ValueError):
        return max(1, os.cpu_count() or 1)


def legal_tiles(vl: int) -> list[tuple[int, int]]:
    """(mr, nr) pairs whose accumulators, B vectors and the A broadcast fit the registers."""
    regs = 32 if vl == 16 else 16
    out = []
    for mr in MRS:
        for q in (1, 2, 3, 4):
            if mr * q + q + 1 <= regs:
                out.append((mr, q * vl))
    return out


def _default_tile(vl: int, m: int, n: int) -> tuple[int, int]:
    """The tile with the most FMAs per load, weighted by how much of it the edges use.

    Defaults keep at most 16 (AVX-512) / 12 (AVX2) accumulators and nr <= 2 vectors: wider
    tiles are legal knob values, but measured slower here (register pressure, L1 footprint of
    the B micro-panel) and they cost compile time.
    """
    cap = 16 if vl == 16 else 12
    best, best_score = (1, vl), -1.0
    for mr, nr in legal_tiles(vl):
        nv = nr // vl
        if mr * nv > cap or nv > 2:
            continue
        use_m = m / (_ceil(m, mr) * mr)
        use_n = n / (_ceil(n, nr) * nr)
        intensity = (mr * nv) / (mr + nv)
        # Fewer than ~4 independent accumulators leave the FMA latency exposed.
        latency = min(1.0, mr * nv / 4)
        score = intensity * use_m * use_n * latency
        if score > best_score + 1e-9:
            best, best_score = (mr, nr), score
    return best


ROWS = (1, 2, 3, 4, 6, 8, 12, 16)
VECS = (1, 2, 4, 8)
KBLOCKS = (0, 1, 2, 4, 8, 16, 32, 64, 128)
# axpy k blocks when the streamed operands do not stay in L2 between calls: each block reads
# whole rows of the big operand (measured on 1 x 784 x 512 with two weight sets alternating:
# 72 -> 62 us, NumPy 62; the MLP at batch 1: 130 -> 105 us); without blocks when they do stay
# (the same product on hot weights: 24.5 us against 27.5 with blocks). 8 rows rather than 16
# on the Zen 3 VM (32 KiB L1, 512 KiB L2: the 1.6 MB weights come from L3): thread CPU time
# 31.5 -> 28.7 us (NumPy 28.7), 4 rows 28.9, 32 and 64 rows 50 us (load 4.5, best of 9 rounds).
KBLOCK_STREAMED = 8
# Rows of the small-M axpy-n tile (then 1 for the last row): each tile kernel costs LLVM time
# (on 784 x 512: +0.17 s with 1 row, +0.27 s with 2 rows, +0.6 s with 6 rows then 4, 2, 1).
SMALL_ROWS = 2
# Default small-m at most this (measured crossover with the nest: 24-32 rows on 784 x 512)
SMALL_M_MAX = 32
# One parallel loop's hand-off to the thread pool and join, in the cycle estimates' units
# (about 1.7 per ns: 512^3 on one thread is estimated at 4.2M cycles and took 2.5 ms on the
# AVX-512 host). The native pool (mlc/runtime/native_pool.py) measured +0.75 us best, +1.6 us
# median per call on the Zen 3 VM (a 24 x 64 x 32 product split in two against serial, 6000
# back-to-back calls); the Python pool's was 7-10 us at best (then 40,000). A worker that is
# late costs no wait: the caller runs the chunks nobody has started.
POOL_CYCLES = 4_000
# A parallel schedule is the default only when estimated at most this fraction of the serial
# time: the estimates' error, and a second thread that may have to wait for a core.
PAR_GAIN = 0.8
# The packed B panel (kc x nc) at most this many L2 sizes. It was half the L3 share (8 MiB of
# the 32 MiB L3 the Zen 3 VM reports for its 2 cores), but an L3 shared with other tenants
# and jobs serves less: on that VM 1024^3 at nc = 256 (1 MiB panel) against 1024 (4 MiB):
# thread CPU 26.2 vs 31.7 ms and 26.2 vs 28.7 ms (NumPy 30.3, 26.5) in two runs at load 2-4;
# 2048^3 (kc 512) nc 512 (1 MiB) vs 2048: 246 vs 250 ms (NumPy 200), nc 256: 273 ms.
PANEL_L2S = 2
# And at least two B panels when N has at least twice this many nr-wide strips: 512^3 (kc 512,
# A read in place) at nc 256 against 512 on the Zen 3 VM, thread CPU 3.59 vs 4.32 ms,
# 3.63 vs 4.73, 4.29 vs 5.30 and 3.28 vs 3.31 ms in four runs (NumPy 3.61, 3.72, 4.08, 3.32;
# load 2-6): why the single 1 MiB panel loses there and not at 2048^3 is not pinned down.
NC_HALF_STRIPS = 16
# axpy split along p: one contiguous column range per planned thread, swept as the serial
# kernel sweeps (k blocks reading whole rows, the aligned head), instead of one pool
# iteration per column tile over all of K (0: the latter).
AXPY_PARTS = 1
# Streaming from L2 measured about 16 bytes per cycle here (1 x 784 x 512 in 40 us).
L2_BYTES_PER_CYCLE = 16
# Large products (at least this many multiply-adds, 512^3 and up) get a schedule that holds
# up better when the two cores (and other jobs) share L3 and memory: the micro-kernel loop
# unrolled twice along k (`k-unroll` 2), the next micro-tile's C rows prefetched
# (`prefetch-c`), and an A block of a quarter of L2 instead of half (`mc`). Same-process A/B
# on the Zen 3 VM (session 13, load 6-11 from other jobs, real-time priority, the variants'
# order rotating per round, medians of per-round paired ratios), against the previous
# defaults: 2 threads 2048^3 +12..+20% in seven runs (medians 152 against 129 GFLOPS, NumPy
# 146; bests 165 against 157), 512^3 +7%, 1024^3 +2%; 1 thread (thread CPU time) 512^3 +7%,
# 2048^3 +2%, 1024^3 0%. Each alone moved 2048^3 on 2 threads by less: k-unroll +2..+13%, the
# A block and the C prefetch 0..+4%. Smaller products keep the lighter kernel: the unrolled
# loop costs LLVM time (the MLP's LLVM optimization about +9% were it applied there), and on
# 256^3 and 64 x 784 x 512 it moved them by 0..+6%.
LARGE_MADDS = 1 << 27
# ... but an A block of at least this many mr-row strips, the reuse of each B micro-panel
# loaded into L1: 1024^3 (kc 1024) on 2 threads ran 3.6% faster with 10 strips (the half-L2
# block) than with the quarter-L2 block's 5, and the same on 1 thread.
LARGE_MIN_STRIPS = 10
# Products of a static size (every dim known) of at least this many multiply-adds (256^3 and
# 64 x 784 x 512 and up) also get the k loop unrolled twice. Same-process A/B on the Zen 3 VM
# (session 14, real-time priority, load 1.3-2.5 from other jobs, the kernels' order rotating
# per round, medians of per-round paired ratios over 25 rounds): 256^3 on 2 threads +13%, +9%
# (an identical copy of the default: 0.999), 64 x 784 x 512 +7.5%, +7%, -0.5% on one thread
# (thread CPU time), 256^3 on one thread +1%. A dynamic size (the MLP's batch) keeps the lighter
# kernel: the unrolled loop adds about 9% to the MLP's LLVM optimization.
UNROLL_STATIC_MADDS = 1 << 24


def _skinny_kinds(c: Contraction) -> dict[str, str]:
    """The skinny kernels contraction c allows -> "" (axpy) or how a dot kernel reads q."""
    out = {}
    for name in KINDS:
        kind, p = name.split("-")
        if kind == "axpy":
            if axpy_ok(c, p):
                out[name] = ""
        else:
            mode = dot_mode(c, p)
            if mode is not None:
                out[name] = mode
    return out


def _regs(vl: int) -> int:
    return 32 if vl == 16 else 16


def _stream_rate(segment: int) -> float:
    """Bytes per cycle reading an operand from L2 in rows of `segment` contiguous bytes with
    a large stride: the prefetchers follow wide segments at full speed and narrow ones badly
    (measured on 784 x 512: 512-byte rows 40 us, 256-byte 50 us, 128-byte about 100 us)."""
    for size, share in ((512, 1.0), (256, 0.8), (128, 0.4)):
        if segment >= size:
            return L2_BYTES_PER_CYCLE * share
    return L2_BYTES_PER_CYCLE * 0.2


def _a_in_place(c: Contraction) -> bool:
    """Whether the kernel may read A in place by default: A contiguous along k, and its rows
    (the m step) a constant stride apart that is not a multiple of 4 KiB, where the mr rows
    of a strip would all map to the same L1 sets (1024^3 in place: 0.84 of NumPy against
    1.03 packed). Packing A costs about a cycle per element per jc block (16/N of the kernel
    time: 6% at N = 256, more per thread under a jc split), which reading in place saves
    (measured +1..+3% at 256^3, 512^3 and 64 x 784 x 512 on one thread)."""
    nb = c.nb
    if step_along(c.a, c.a_view, nb + 2) != 1:
        return False
    step_m = step_along(c.a, c.a_view, nb)
    return step_m is not None and step_m > 0 and (step_m * 4) % 4096 != 0


def _blis_cycles(
    m: int, n: int, k: int, vl: int, mr: int, nr: int, pack: bool, pack_a: bool = True
) -> float:
    """Estimated cycles of the packed nest: FMAs and loads on two ports each, the packing
    copies (B into a buffer fresh from malloc: measured about 1.2 cycles per element for
    512 x 512 and 784 x 512 even as vector copies; A: a scalar transposing copy), edge tiles
    stored element by element through the scratch tile, and B streamed in nr-wide strips
    when it is read in place."""
    tm, tn = _ceil(m, mr), _ceil(n, nr)
    nv = nr // vl
    kernel = tm * tn * k * max(mr * nv / 2, (mr + nv) / 2)
    packing = (tm * mr * k * 1.0 if pack_a else 0) + (tn * nr * k * 1.2 if pack else 0)
    edges = ((tm if n % nr else 0) + (tn if m % mr else 0)) * mr * nr * 2
    # The packing buffers cost a malloc and a free each per call.
    stream = 0 if pack else k * n * 4 / _stream_rate(nr * 4)
    return max(kernel, stream) + packing + edges + 4000


def _axpy_cycles(p: int, q: int, k: int, vl: int, rows: int, vecs: int) -> float:
    """axpy: R x U tiles (R broadcasts and U vector loads per k), single vectors and scalars
    for the last columns, and at least the time to stream the p-operand from L2 once per row
    tile."""
    w = vecs * vl
    full, rest = p // w, p % w
    # The last q mod R rows go in tiles of halving powers of two, one stream each.
    rt = q // rows + bin(q % rows).count("1")

    def per(nvec: int) -> float:
        return max(rows * nvec / 2, (rows + nvec) / 2)

    # The last p mod W columns: one tile of vectors (the last overlapping) when p >= vl,
    # else scalars.
    tail = per(_ceil(rest, vl)) if p >= vl else rest * rows / 2
    cyc = _ceil(q, rows) * k * (full * per(vecs) + (tail if rest else 0))
    cyc += rt * (full + 1) * 12  # set-up and stores per tile
    # The p-operand streamed once per row tile, the broadcast q-operand once per column tile.
    p_stream = rt * k * p * 4 / _stream_rate(min(w, p) * 4)
    q_stream = (full + (1 if rest else 0)) * q * k * 4 / _stream_rate(4)
    return max(cyc, p_stream + q_stream)


def _dot_cycles(p: int, q: int, k: int, vl: int, rows: int, pack: bool) -> float:
    """dot: R x Q tiles of vector FMAs over k (R + Q loads per step), lane sums, a scalar tail
    over K mod vl, the packing of q, and at least streaming the p-operand from L2."""
    per = max(rows * q / 2, (rows + q) / 2)
    tiles = _ceil(p, rows)
    cyc = tiles * ((k // vl) * per + rows * q * (8 + (k % vl) * 0.5) + 12)
    cyc += q * k if pack else 0
    return max(cyc, p * k * 4 / L2_BYTES_PER_CYCLE)


def _static_input_bytes(found: list[Contraction]) -> int:
    """Bytes of the contractions' statically shaped inputs (weights, mostly): when they fit in
    L2 together, a function called repeatedly finds them there."""
    seen: set[int] = set()
    total = 0
    for c in found:
        for v in c.op.inputs:
            t = v.type
            if id(v) in seen or not isinstance(t, A.MemRefType):
                continue
            seen.add(id(v))
            if all(d != A.DYNAMIC for d in t.shape):
                size = 4
                for d in t.shape:
                    size *= d
                total += size
    return total


def _split(size: int, parts: int, unit: int) -> int:
    """size / parts rounded up to a multiple of unit."""
    return _ceil(_ceil(size, parts), unit) * unit


def _parallel_cost(serial: float, per_thread: float, calls: int) -> float:
    """Estimated time of a schedule running `per_thread` on each thread after `calls` pool
    hand-offs; inf when it is not worth PAR_GAIN of the serial time."""
    t = per_thread + calls * POOL_CYCLES
    return t if t <= PAR_GAIN * serial else float("inf")


def _fit_rows(rows: int, need: Callable[[int], int], regs: int) -> int:
    """The largest of ROWS up to `rows` whose tile needs at most `regs` registers."""
    fits = [r for r in ROWS if r <= rows and need(r) <= regs]
    return max(fits) if fits else 1


class ContractionMicrokernelPass(Pass):
    """Lower contraction generics to a packed BLIS nest around a vector micro-kernel.

    Recognizes buffer-form tensor.generic contractions (`out += a * b` with one or more
    reduction dims: matmul, batched and transposed matmul, conv2d as an implicit GEMM), the
    generic initializing the output before it (a zero fill, a broadcast bias) and the
    elementwise generics after it that read the result in place (bias, activation, residual).
    They become loops jc/pc/ic (blocks nc, kc, mc, in a configurable order), packing of the B
    panel into nr-wide strips and of the A block into mr-tall strips (zero-padded), and loops
    over micro-tiles whose kernel keeps mr x nr/vl vector accumulators in `iter_args` over k
    (vector.broadcast of A, vector.fma with contiguous loads of packed B). The first kc block
    stores init + acc, later blocks accumulate, the last applies the epilogues in registers
    before the store; edge tiles store their valid part through a scratch tile. One outer loop
    may run on the thread pool (affine.parallel {mlc.parallel}); buffers written under it are
    private per iteration, so results do not depend on the thread count. Knobs per
    contraction: mr, nr, mc, kc, nc, order, parallel, pack.

    Skinny shapes (M = 1, N = 1, a small N) take an unpacked register-tiled kernel instead
    when a cycle estimate says so (knob `kernel`): axpy-n / axpy-m keep vectors along n / m
    of the operand contiguous along it and broadcast the other; dot-m / dot-n take vector dot
    products along k (lanes summed in a tree at the end: a reassociated sum) with a masked
    last vector. Knobs rows, vecs, kblock. A dynamic M also gets axpy-n behind an affine.if
    for at most `small-m` rows at run time (knobs small-m, small-parallel).
    """

    name = "contraction-microkernel"
    anchor = "func.func"
    vector_width = Option(int, 0, "f32 lanes per vector (8: AVX2, 16: AVX-512; 0: the host's)")
    min_flops = Option(
        int, 4096, "Contractions with fewer multiply-adds (static sizes) stay on the generic path"
    )
    threads = Option(
        int,
        0,
        "Threads the parallel default plans for (0: mlc.compile's threads, else "
        "MLC_NUM_THREADS, else the cores)",
    )
    size_hint = Option(int, 256, "Size assumed for a dynamic dim by the default heuristics")
    skinny = Option(
        bool, True, "Consider the unpacked skinny kernels (false: the packed nest for all)"
    )
    single_k_block = Option(
        int, 1024, "K up to which the default kc covers K in one block (else the L1 model)"
    )
    knobs = (
        KnobDecl(
            "mr", "choice", "Micro-tile rows (capped so that the tile fits the vector registers)"
        ),
        KnobDecl("nr", "choice", "Micro-tile columns (1 to 4 vectors)"),
        KnobDecl("kc", "int", "K block: depth of the packed panels (default: L1 model)"),
        KnobDecl("mc", "int", "M block: rows of the packed A block, rounded up to mr (L2 model)"),
        KnobDecl("nc", "int", "N block: columns of the B panel, rounded up to nr (L3 model)"),
        KnobDecl("order", "choice", "Order of the jc/pc/ic block loops"),
        KnobDecl("pack", "bool", "Pack B panels (else B is read in place; asked when B allows it)"),
        KnobDecl(
            "pack-a", "bool", "Pack A blocks (else A is read in place, its edge strip packed)"
        ),
        KnobDecl("k-unroll", "choice", "k steps per iteration of the micro-kernel loop"),
        KnobDecl("prefetch", "choice", "Prefetch the packed panels this many k steps ahead"),
        KnobDecl("prefetch-c", "bool", "Prefetch the next micro-tile's C tile before a kernel"),
        KnobDecl(
            "edge-m-kernel",
            "bool",
            "Static M: the partial last row strip runs a kernel of its own height (static products)",
        ),
        KnobDecl(
            "pack-a-once",
            "bool",
            "Pack A once for all column blocks (jc outermost, not split; static products)",
        ),
        KnobDecl(
            "pack-a-shared",
            "bool",
            "With jc split: pack all of A once before the split loop, shared (static products)",
        ),
        KnobDecl(
            "inline-pack-b",
            "bool",
            "Pack each B strip right before the first A block uses it (else the whole panel first)",
        ),
        KnobDecl("parallel", "choice", "Loop run on the thread pool: none, jc, ic or batch"),
        KnobDecl(
            "kernel",
            "choice",
            "blis (packed nest) or an unpacked skinny kernel: axpy-n, axpy-m, dot-m, dot-n",
        ),
        KnobDecl("rows", "choice", "Skinny kernels: rows of the register tile (capped to fit)"),
        KnobDecl("vecs", "choice", "axpy kernels: vectors per row of the register tile"),
        KnobDecl(
            "small-m",
            "int",
            "Dynamic M: at most this many rows at run time take the axpy-n kernel (0: never)",
        ),
        KnobDecl("small-parallel", "bool", "Run the small-M axpy-n variant on the thread pool"),
        KnobDecl(
            "kblock",
            "choice",
            "axpy kernels: k rows per block of the p sweep (0: all; default by L2 residency)",
        ),
    )
    num_lowered = Statistic("num-lowered", "Number of contractions lowered to micro-kernels")
    num_epilogues = Statistic("num-epilogues", "Number of epilogue generics absorbed")

    def run(self, op: Operation, ctx: PassContext) -> None:
        vl = self.vector_width or host_vector_width()
        if vl not in (8, 16):
            ctx.error(f"contraction-microkernel: vector-width must be 0, 8 or 16, got {vl}", op)
            return
        found = [c for c in match_contractions(op) if self._worth_it(c, vl)]
        resident = _static_input_bytes(found) <= cache_sizes().l2
        configs = [self._configure(c, vl, ctx, resident) for c in found]
        for c, (cfg, skinny, small) in zip(found, configs):
            emit_any(c, cfg, skinny, small)
            self.num_lowered += 1
            self.num_epilogues += len(c.epilogues)

    def _hint(self, size: int) -> int:
        return self.size_hint if size == A.DYNAMIC else size

    def _gemm_sizes(self, c: Contraction) -> tuple[int, int, int, int]:
        def prod(dims: list[int]) -> int:
            out = 1
            for d in dims:
                out *= self._hint(c.sizes[d])
            return out

        return prod(c.batch), prod(c.mdims), self._hint(c.sizes[c.ndim]), prod(c.kdims)

    def _worth_it(self, c: Contraction, vl: int) -> bool:
        n = c.sizes[c.ndim]
        if n != A.DYNAMIC and 2 * n < vl and not (self.skinny and _skinny_kinds(c)):
            return False  # a matrix-vector product: most vector lanes would be padding
        if any(s == A.DYNAMIC for s in c.sizes):
            return True
        b, m, n, k = self._gemm_sizes(c)
        return b * m * n * k >= self.min_flops

    def _configure(
        self, c: Contraction, vl: int, ctx: PassContext, resident: bool
    ) -> tuple[Config, SkinnyConfig | None, tuple[SkinnyConfig, int] | None]:
        blis = self._configure_blis(c, vl, ctx)
        skinny, small = self._configure_skinny(c, vl, ctx, blis, resident)
        choices = ["none", "jc", "ic"] + (["batch"] if c.batch else [])
        par0 = skinny.parallel if skinny is not None else blis.parallel
        par = ctx.knob(ctx.site(c.op), "parallel", Choice(*choices), par0)
        if skinny is not None:
            skinny.parallel = par
        else:
            blis.parallel = par
        return blis, skinny, small

    def _configure_blis(self, c: Contraction, vl: int, ctx: PassContext) -> Config:
        site = ctx.site(c.op)
        b, m, n, k = self._gemm_sizes(c)
        caches = cache_sizes()
        mr0, nr0 = _default_tile(vl, m, n)
        tiles = legal_tiles(vl)
        mrs = sorted({t[0] for t in tiles})
        # Independent domains (any sampled configuration is valid): a tile that would not fit
        # the registers keeps nr and gets the largest mr that fits.
        mr = ctx.knob(site, "mr", Choice(*mrs), mr0)
        nr = ctx.knob(site, "nr", Choice(*[q * vl for q in (1, 2, 3, 4)]), nr0)
        mr = max(t[0] for t in tiles if t[1] == nr and t[0] <= mr)
        # kc: an A and a B micro-panel, (mr + nr) x kc, take 1.5 x L1: twice the classic
        # 3/4-of-L1 rule, measured 13% faster at 2048^3 on the AVX-512 host (the micro-panels
        # stream well from L2; fewer kc blocks mean fewer passes over C).
        kc0 = max(8, min(2048, (caches.l1 * 3 // 2) // ((mr + nr) * 4)) // 8 * 8)
        if k <= max(kc0 * 3 // 2, self.single_k_block):
            # One block: no partial sums through C and one store variant (about half the code
            # and LLVM time); the B micro-panel then streams from L2.
            kc0 = max(8, _ceil(k, 8) * 8)
        else:  # equal blocks: no short last block
            kc0 = _ceil(_ceil(k, _ceil(k, kc0)), 8) * 8
        kc0 = min(kc0, 4096)
        kc = ctx.knob(site, "kc", IntRange(8, 4096, 8), kc0)
        kce = min(kc, k)
        threads = self.threads or _runtime_threads()
        # mc: the A block takes half of L2 (a quarter for large products); nc: the B panel at
        # most the smaller of half the L3 share and PANEL_L2S x L2, in equal blocks.
        large = b * m * n * k >= LARGE_MADDS
        mc0 = max(mr, (caches.l2 // (4 if large else 2)) // (kce * 4) // mr * mr)
        if large:  # each B micro-panel still serves LARGE_MIN_STRIPS strips of A
            mc0 = max(mc0, LARGE_MIN_STRIPS * mr)
        mc0 = min(mc0, -(-m // mr) * mr, 4096 // mr * mr)
        # With a single row block the B panel serves one pass of the strip loops, right after
        # its packing: its size does not decide any reuse, so neither the L2 cap nor the
        # two-panel rule applies (64 x 784 x 512 on one thread: nc 512 against 256, +3.0,
        # +3.2, +2.7%, an identical copy +0.2, +0.6, +0.1%; session 15, see docs/codegen.md).
        one_row_block = m <= mc0
        panel = caches.l3 // 2 if one_row_block else min(caches.l3 // 2, PANEL_L2S * caches.l2)
        nc0 = max(nr, panel // (kce * 4) // nr * nr)
        nc0 = min(nc0, -(-n // nr) * nr, 8192 // nr * nr)
        if n >= 2 * NC_HALF_STRIPS * nr and not one_row_block:
            nc0 = min(nc0, _split(n, 2, nr))
        nc0 = _split(n, _ceil(n, nc0), nr)
        pack_a0 = not _a_in_place(c)
        # The schedule and kernel choices keep the packed-A estimate they were calibrated with.
        par0 = self._blis_parallel(c, b, m, n, k, vl, mr, nr, mc0, nc0, kce, threads)
        # The split loop's blocks in a multiple of the threads, in equal parts: the pool gives
        # each thread a contiguous run of ceil(trips / threads) or floor of it, so 3 blocks on
        # 2 threads ran one thread 2 blocks and the other 1 (768^3, 1280^3, 1536^3 had 3).
        if par0 == "jc":
            nc0 = min(nc0, _split(n, threads, nr))
            nc0 = _split(n, _ceil(_ceil(n, nc0), threads) * threads, nr)
        elif par0 == "ic":
            mc0 = min(mc0, _split(m, threads, mr))
            mc0 = _split(m, _ceil(_ceil(m, mc0), threads) * threads, mr)
        # mc and nc are rounded up to multiples of mr and nr.
        mc = _ceil(ctx.knob(site, "mc", IntRange(1, 4096), mc0), mr) * mr
        nc = _ceil(ctx.knob(site, "nc", IntRange(1, 8192), nc0), nr) * nr
        order = ctx.knob(site, "order", Choice(*ORDERS), "jc-pc-ic")
        pack = True
        if c.b_direct:
            # Packing pays when the B panel is reused by several row strips of A.
            pack = ctx.knob(site, "pack", Bool(), _ceil(m, mr) > 2)
        pack_a = ctx.knob(site, "pack-a", Bool(), pack_a0)
        inline_b = ctx.knob(site, "inline-pack-b", Bool(), False)
        static = all(s != A.DYNAMIC for s in c.sizes)
        unrolled = large or (static and b * m * n * k >= UNROLL_STATIC_MADDS)
        # Static products unroll 4 k steps (session 15, same-process A/B against 2, medians of
        # paired ratios, chrt -f 5, load 1.2-2.5; an identical copy as control): one thread
        # 256^3 +4.3, +1.2, +1.4% (copy -1.3, +0.3, +0.1), 512^3 +2.2, +2.2, -0.8%, 1024^3
        # +4.3% (copy +2.3), 64 x 784 x 512 -1.0, +0.4, +1.5% (copy -0.3, +0.8, +0.4); two
        # threads 256^3 +5.9% (copy +1.8), 1024^3 +1.5% (0.0), 64 x 784 x 512 +4.2% (+2.9);
        # for about 20 ms more of LLVM time per contraction. A dynamic size keeps 2.
        unroll0 = (4 if static else 2) if unrolled else 1
        unroll = ctx.knob(site, "k-unroll", Choice(1, 2, 4, 8), unroll0)
        prefetch = ctx.knob(site, "prefetch", Choice(0, 4, 8, 16, 32), 0)
        prefetch_c = ctx.knob(site, "prefetch-c", Bool(), large)
        # A packed once for all column blocks (the emitter applies it with jc outermost, A
        # packed, static M and K, several jc blocks and no split): large static products whose
        # A fits the L3 share of a core. 2048^3 on one thread (4 column blocks, A rows 8 KiB
        # apart: the transposing copy is slow) ran 3.6-5.9% faster (session 14, same-process
        # A/B, thread CPU time, real-time priority, load 3.3-3.9); 1024^3 -0.5..+0.9%.
        # Asked for static products of at least UNROLL_STATIC_MADDS multiply-adds (below, the
        # repacking of A is a small cost; dynamic sizes keep their knob space).
        pack_a_once = edge_m = pack_a_shared = False
        if static and b * m * n * k >= UNROLL_STATIC_MADDS:
            once0 = large and m * k * 4 <= caches.l3
            pack_a_once = ctx.knob(site, "pack-a-once", Bool(), once0)
            edge_m = ctx.knob(site, "edge-m-kernel", Bool(), True)
            pack_a_shared = ctx.knob(site, "pack-a-shared", Bool(), False)
        # `parallel` is asked by _configure once the kernel is known (par0: the nest's default).
        return Config(
            mr, nr, vl, mc, kc, nc, order, par0, pack, pack_a, inline_b, unroll, prefetch,
            prefetch_c, pack_a_once, edge_m, pack_a_shared,
        )

    def _blis_parallel(
        self,
        c: Contraction,
        b: int,
        m: int,
        n: int,
        k: int,
        vl: int,
        mr: int,
        nr: int,
        mc: int,
        nc: int,
        kc: int,
        threads: int,
        pack_a: bool = True,
    ) -> str:
        """The nest's `parallel` default: the schedule with the lowest estimated time, where
        a split loop costs a pool hand-off per execution and each thread packs what it uses
        (jc: all of A, its part of B; ic: B once, by one thread, then its part of A), and
        any split has to beat the serial nest by PAR_GAIN."""

        def nest(rows: int, cols: int) -> float:
            return _blis_cycles(rows, cols, k, vl, mr, nr, True, pack_a)

        serial = b * nest(m, n)
        if threads < 2:
            return "none"
        costs = {"none": serial}
        # One hand-off per execution of the split loop: per iteration of the loops around it
        # (batch loops, and the block loops before it in the default order).
        trips = {"jc": _ceil(n, nc), "pc": _ceil(k, kc), "ic": _ceil(m, mc)}
        order = ORDERS[0].split("-")

        def calls(loop: str) -> int:
            out = b
            for x in order[: order.index(loop)]:
                out *= trips[x]
            return out

        if c.batch and b >= threads:
            costs["batch"] = _parallel_cost(serial, _ceil(b, threads) * nest(m, n), 1)
        if _ceil(n, nr) >= threads:
            per = b * nest(m, _split(n, threads, nr))
            costs["jc"] = _parallel_cost(serial, per, calls("jc"))
        if _ceil(m, mr) >= threads:
            per = b * nest(_split(m, threads, mr), n)
            costs["ic"] = _parallel_cost(serial, per, calls("ic"))
        return min(costs, key=lambda x: costs[x])

    def _configure_skinny(
        self, c: Contraction, vl: int, ctx: PassContext, blis: Config, resident: bool
    ) -> tuple[SkinnyConfig | None, tuple[SkinnyConfig, int] | None]:
        """The `kernel` knob (blis or a skinny kernel, by the cycle estimates), the skinny
        tile, and for a dynamic M the run-time switch to axpy-n for small row counts."""
        kinds = _skinny_kinds(c) if self.skinny else {}
        if not kinds:
            return None, None
        site = ctx.site(c.op)
        b, m, n, k = self._gemm_sizes(c)
        regs = _regs(vl)
        ways = cache_sizes().l1_ways
        threads = self.threads or _runtime_threads()

        def best_tile(name: str, rows: int) -> tuple[float, int, int]:
            """(estimated cycles, R, U) of the best register tile of kernel `name`."""
            kind, p = name.split("-")
            pe, qe = (n, rows) if p == "n" else (rows, n)
            if kind == "axpy":
                options = [
                    (_axpy_cycles(pe, qe, k, vl, r, u), -r * u, r, u)
                    for r in ROWS
                    for u in VECS
                    if r <= max(1, qe) and r * u + u + 1 <= regs and (u == 1 or u * vl < 2 * pe)
                ]
            else:
                pack = kinds[name] == "pack"
                # At most one row per L1 way: the R rows are R streams read in step, and
                # rows a multiple of 4 KiB apart all map to one L1 set. On the Zen 3 VM (8
                # ways), 1024 x 1024 x 1: 12 rows 15-16 GFLOPS, 8 rows 24-31 (NumPy 26-30) on
                # one thread, 25 against 41-43 on two; 2048 x 100 x 1, 4096 x 64 x 1 and
                # 8192 x 256 x 1 (rows not 4 KiB apart): 8 and 12 rows within +-5% in three
                # runs (same-process A/B, load 6-7).
                options = [
                    (_dot_cycles(pe, qe, k, vl, r, pack), -r, r, 1)
                    for r in ROWS
                    if r <= max(1, pe) and r * qe + min(r, qe) + 1 <= regs and r <= ways
                ]
            if not options:  # no tile fits the registers (a wide dot on AVX2): it spills
                return float("inf"), 1, 1
            cyc, _, r, u = min(options)
            return b * cyc, r, u

        def blis_cycles(rows: int) -> float:
            return b * _blis_cycles(rows, n, k, vl, blis.mr, blis.nr, blis.pack)

        estimates = {name: best_tile(name, m) for name in kinds}
        default = min(estimates, key=lambda x: estimates[x][0])
        if estimates[default][0] >= blis_cycles(m):
            default = "blis"
        kernel = ctx.knob(site, "kernel", Choice("blis", *kinds), default)
        small_t = 0
        m_dynamic = bool(c.mdims) and c.sizes[c.mdims[0]] == A.DYNAMIC
        if kernel == "blis" and m_dynamic and "axpy-n" in kinds:
            # A dynamic M planned for size-hint rows: up to small-m rows at run time take
            # axpy-n (no packing); the default is where the estimates cross.
            r_small = SMALL_ROWS
            u_small = max(u for u in VECS if r_small * u + u + 1 <= regs)
            for rows_rt in range(1, SMALL_M_MAX + 1):
                cyc = b * _axpy_cycles(n, rows_rt, k, vl, r_small, u_small)
                if cyc > blis_cycles(rows_rt):
                    break
                small_t = rows_rt
            small_t = ctx.knob(site, "small-m", IntRange(0, 64), small_t)
            estimates["axpy-n"] = (0.0, r_small, u_small)
        tile_of = kernel if kernel != "blis" else ("axpy-n" if small_t else default)
        if tile_of == "blis":
            tile_of = next(iter(kinds))
        _, r0, u0 = estimates[tile_of]
        rows = ctx.knob(site, "rows", Choice(*ROWS), r0)
        vecs = ctx.knob(site, "vecs", Choice(*VECS), u0)
        kb = ctx.knob(site, "kblock", Choice(*KBLOCKS), 0 if resident else KBLOCK_STREAMED)
        if kernel == "blis" and not small_t:
            return None, None
        name = kernel if kernel != "blis" else "axpy-n"
        kind, p = name.split("-")
        if kind == "axpy":
            vecs = max(u for u in VECS if u <= vecs and u + u + 1 <= regs)
            rows = _fit_rows(rows, lambda r: r * vecs + vecs + 1, regs)
        else:
            q = m if p == "n" else n
            rows = _fit_rows(rows, lambda r: r * q + min(r, q) + 1, regs)
        if kernel != "blis":
            par0 = "none"
            if threads > 1:
                # Split along p (each thread streams its part of the big operand), or the
                # first batch dim; the same PAR_GAIN rule as the nest's.
                est = estimates[kernel][0]
                extent = n if p == "n" else m
                tiles = _ceil(extent, vecs * vl if kind == "axpy" else rows)
                share = est / min(threads, tiles)
                costs = {"none": est, "jc" if p == "n" else "ic": _parallel_cost(est, share, b)}
                if c.batch and b >= threads:
                    costs["batch"] = _parallel_cost(est, _ceil(b, threads) * est / b, 1)
                par0 = min(costs, key=lambda x: costs[x])
            # A static product's k blocks as straight-line code (session 14: 1 x 784 x 512 on
            # one thread +3..+7% in six same-process A/B runs); a dynamic one's small-M variant
            # keeps the loop (unrolled, the MLP's compile took +40% of CPU time).
            static = all(s != A.DYNAMIC for s in c.sizes)
            sk = SkinnyConfig(
                kind,
                p,
                rows,
                vecs,
                vl,
                par0,
                kinds[kernel] == "pack",
                kb,
                threads * AXPY_PARTS,
                unroll_kblock=static,
            )
            return sk, None
        # By the estimate at one row (batch-1 inference), where the split pays least: on for
        # the MLP's 784 x 512 layer with the native pool (the Python pool's hand-off measured
        # -15% at 1 row, +15% at 32 rows at 2 threads), off for a few hundred multiply-adds.
        one = b * _axpy_cycles(n, 1, k, vl, rows, vecs)
        spar0 = threads > 1 and _parallel_cost(one, one / threads, b) < one
        spar = ctx.knob(site, "small-parallel", Bool(), spar0)
        sk = SkinnyConfig(
            "axpy", "n", rows, vecs, vl, "jc" if spar else "none", False, kb, threads * AXPY_PARTS
        )
        return None, (sk, small_t)
