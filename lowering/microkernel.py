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
from functools import lru_cache

from mlc.lowering.microkernel_emit import Config, emit_contraction
from mlc.lowering.microkernel_match import Contraction, match_contractions

from mlc.ir import attributes as A
from mlc.ir.core import Operation
from mlc.knobs import Bool, Choice, IntRange
from mlc.pass_manager import KnobDecl, Option, Pass, PassContext, Statistic

__all__ = ["ContractionMicrokernelPass", "CacheSizes", "cache_sizes", "legal_tiles"]

ORDERS = ("jc-pc-ic", "pc-jc-ic", "jc-ic-pc", "ic-jc-pc", "ic-pc-jc", "pc-ic-jc")
MRS = (1, 2, 3, 4, 6, 8, 10, 12, 14)


class CacheSizes:
    """Data cache sizes in bytes (L1d, L2, L3 share per core)."""

    __slots__ = ("l1", "l2", "l3")

    def __init__(self, l1: int, l2: int, l3: int) -> None:
        self.l1, self.l2, self.l3 = l1, l2, l3


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
    """From /sys/devices/system/cpu/cpu0/cache (fallbacks: 32 KiB, 512 KiB, 4 MiB per core)."""
    l1, l2, l3 = 32 * 1024, 512 * 1024, 4 * 1024 * 1024
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
            elif level == 2:
                l2 = size
            elif level == 3:
                cores = max(1, os.cpu_count() or 1)
                l3 = max(size // cores, l2)
    except (OSError, ValueError):
        pass
    return CacheSizes(l1, l2, l3)


@lru_cache(maxsize=1)
def host_vector_width() -> int:
    """f32 lanes of the host's widest vector registers the JIT uses: 16 with AVX-512, else 8."""
    try:
        from mlc.runtime import host_target

        return 16 if host_target().has_feature("avx512f") else 8
    except Exception:  # no llvmlite: assume AVX2
        return 8


def _runtime_threads() -> int:
    """The thread count compiled code will get by default (MLC_NUM_THREADS, else the cores)."""
    try:
        from mlc.runtime.parallel import default_threads

        return default_threads()
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
    contraction: mr, nr, mc, kc, nc, order, parallel.
    """

    name = "contraction-microkernel"
    anchor = "func.func"
    vector_width = Option(int, 0, "f32 lanes per vector (8: AVX2, 16: AVX-512; 0: the host's)")
    min_flops = Option(
        int, 4096, "Contractions with fewer multiply-adds (static sizes) stay on the generic path"
    )
    threads = Option(
        int, 0, "Threads the parallel default plans for (0: MLC_NUM_THREADS, else the cores)"
    )
    size_hint = Option(int, 256, "Size assumed for a dynamic dim by the default heuristics")
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
        KnobDecl("parallel", "choice", "Loop run on the thread pool: none, jc, ic or batch"),
    )
    num_lowered = Statistic("num-lowered", "Number of contractions lowered to micro-kernels")
    num_epilogues = Statistic("num-epilogues", "Number of epilogue generics absorbed")

    def run(self, op: Operation, ctx: PassContext) -> None:
        vl = self.vector_width or host_vector_width()
        if vl not in (8, 16):
            ctx.error(f"contraction-microkernel: vector-width must be 0, 8 or 16, got {vl}", op)
            return
        found = [c for c in match_contractions(op) if self._worth_it(c, vl)]
        configs = [self._configure(c, vl, ctx) for c in found]
        for c, cfg in zip(found, configs):
            emit_contraction(c, cfg)
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
        if n != A.DYNAMIC and 2 * n < vl:
            return False  # a matrix-vector product: most vector lanes would be padding
        if any(s == A.DYNAMIC for s in c.sizes):
            return True
        b, m, n, k = self._gemm_sizes(c)
        return b * m * n * k >= self.min_flops

    def _configure(self, c: Contraction, vl: int, ctx: PassContext) -> Config:
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
        # mc: the A block takes half of L2; nc: the B panel takes half of the L3 share.
        mc0 = max(mr, (caches.l2 // 2) // (kce * 4) // mr * mr)
        nc0 = max(nr, (caches.l3 // 2) // (kce * 4) // nr * nr)
        mc0 = min(mc0, -(-m // mr) * mr, 4096 // mr * mr)
        nc0 = min(nc0, -(-n // nr) * nr, 8192 // nr * nr)
        par0 = "none"
        flops = b * m * n * k
        if threads > 1 and flops >= 2_000_000:
            if c.batch and b >= threads:
                par0 = "batch"
            elif -(-n // nr) >= 2 * threads or -(-m // mr) < threads:
                if -(-n // nr) >= threads:
                    par0 = "jc"
                    nc0 = min(nc0, _ceil(_ceil(n, threads), nr) * nr)
            else:
                par0 = "ic"
                mc0 = min(mc0, _ceil(_ceil(m, threads), mr) * mr)
        # mc and nc are rounded up to multiples of mr and nr.
        mc = _ceil(ctx.knob(site, "mc", IntRange(1, 4096), mc0), mr) * mr
        nc = _ceil(ctx.knob(site, "nc", IntRange(1, 8192), nc0), nr) * nr
        order = ctx.knob(site, "order", Choice(*ORDERS), "jc-pc-ic")
        choices = ["none", "jc", "ic"] + (["batch"] if c.batch else [])
        par = ctx.knob(site, "parallel", Choice(*choices), par0)
        pack = True
        if c.b_direct:
            # Packing pays when the B panel is reused by several row strips of A.
            pack = ctx.knob(site, "pack", Bool(), _ceil(m, mr) > 2)
        return Config(mr, nr, vl, mc, kc, nc, order, par, pack)
