"""affine-vectorize: fused elementwise kernels and row reductions, mlc default vs vectorizer
off vs NumPy, and each kernel's bandwidth as a share of the triad's (all in one run).

    python bench/vectorize.py                 # 10M elements, 4096x1024 rows, best of 7
    python bench/vectorize.py --quick         # 1M elements, 512x1024 rows, best of 3
    python bench/vectorize.py --rows 16384    # 64 MiB row kernels (4096 rows: 16 MiB, L3-sized)
    python bench/vectorize.py --knob-ab       # CPU time of the ldexp/prefetch knobs, one thread
    python bench/vectorize.py --dynamic       # dynamic triad: serial / pool / default by size
    python bench/vectorize.py --row-pipeline-ab  # softmax/layernorm rows, row_pipeline off/on
    python bench/vectorize.py --c-reference   # also hand-written AVX2 C rows (gcc), same run

Bandwidth = bytes the kernel must move (each input read once, each output written once) /
time: softmax and layernorm move two streams (read x, write y), 8 bytes per element. The bound
is the triad `a = b + s*c` compiled by mlc into a preallocated output (`out=`, so no
allocation is timed; 12 bytes per element; its dynamic loop runs on the pool from 131,072
elements on, decided at run time); every mlc kernel is timed the same way,
into a preallocated output, and "bound ms" is its bytes at the triad's bandwidth. NumPy's triad is
shown too, timed as
`np.multiply(c, s, out=t); np.add(b, t, out=a)` (two passes: 20 bytes per element of traffic
for 12 useful, so it is not the bound). mlc runs outer parallel loops on its thread pool
(`--threads`, default: every core); NumPy runs on one core.

Every kernel, the triad included, is counted the same way: the bytes it must move (STREAM's
convention), not what DRAM moves. A store through the caches reads its line first (read for
ownership), so from DRAM the triad moves 16 bytes per element for its 12 and a row kernel 12
for its 8: with both stores through the caches, a row kernel at the machine's bandwidth shows
(8/12) / (12/16) = 89% of the triad. A non-temporal store moves only the counted bytes:
`affine-nontemporal-stores` gives them by default to the loops writing outputs of at least
half the L3 (here: the 10M-element kernels, the triad included, and the row kernels from
4,096 rows on), so both sides then move what they are counted for. `--nontemporal never`
compiles every mlc kernel, the triad too, without them (16 vs 12 real bytes again).

Where the row kernels read from: at 4,096 rows x is 16 MiB, half the 32 MiB L3, but every
timed run of a kernel follows a triad run (`_best_interleaved`), whose 80 MB of reads evict
it, so the kernels read x from DRAM at 4,096 rows as at 16,384. Run back to back over the
same x instead, they read it from the L3 (session 14: layernorm 109%, row sum 107% and row
max 128% of the triad then).

`--c-reference` also builds `bench/c_rows.c` with gcc (AVX2 + FMA, OpenMP over the same
threads, passive waiting so that its idle threads do not hold the cores) and times its
softmax and layernorm rows like mlc's: the same schedule written by hand (a pass that reads
each row from memory, passes in L1, an output pass with non-temporal stores where mlc uses
them, the row two ahead prefetched), so the `% triad` a C compiler reaches on this machine
at this moment stands beside mlc's.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import mlc

TRIAD = """
func.func @main(%b: tensor<?xf32>, %c: tensor<?xf32>) -> tensor<?xf32> {
  %s = graph.constant dense<3.0> : tensor<f32>
  %0 = graph.mul %s, %c : (tensor<f32>, tensor<?xf32>) -> tensor<?xf32>
  %1 = graph.add %b, %0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %1 : tensor<?xf32>
}
"""

AXPBY = """
func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>, %c: tensor<?xf32>) -> tensor<?xf32> {
  %s = graph.constant dense<3.0> : tensor<f32>
  %0 = graph.mul %s, %b : (tensor<f32>, tensor<?xf32>) -> tensor<?xf32>
  %1 = graph.add %a, %0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %2 = graph.mul %1, %c : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %2 : tensor<?xf32>
}
"""

EXP_RELU = """
func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>, %c: tensor<?xf32>) -> tensor<?xf32> {
  %0 = graph.exp %a : tensor<?xf32>
  %1 = graph.mul %0, %b : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %2 = graph.sub %c, %a : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %3 = graph.relu %2 : tensor<?xf32>
  %4 = graph.add %1, %3 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %4 : tensor<?xf32>
}
"""

SOFTMAX = """
func.func @main(%x: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %0 = graph.softmax %x {axis = 1 : i64} : (tensor<?x1024xf32>) -> tensor<?x1024xf32>
  return %0 : tensor<?x1024xf32>
}
"""

LAYERNORM = """
func.func @main(%x: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %mean = graph.reduce_mean %x {axes = array<i64: 1>, keepdims = true}
      : (tensor<?x1024xf32>) -> tensor<?x1xf32>
  %d = graph.sub %x, %mean : (tensor<?x1024xf32>, tensor<?x1xf32>) -> tensor<?x1024xf32>
  %sq = graph.mul %d, %d : (tensor<?x1024xf32>, tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %var = graph.reduce_mean %sq {axes = array<i64: 1>, keepdims = true}
      : (tensor<?x1024xf32>) -> tensor<?x1xf32>
  %eps = graph.constant dense<1.0e-5> : tensor<f32>
  %ve = graph.add %var, %eps : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
  %r = graph.rsqrt %ve : tensor<?x1xf32>
  %y = graph.mul %d, %r : (tensor<?x1024xf32>, tensor<?x1xf32>) -> tensor<?x1024xf32>
  return %y : tensor<?x1024xf32>
}
"""

ROW_SUM = """
func.func @main(%x: tensor<?x1024xf32>) -> tensor<?xf32> {
  %0 = graph.reduce_sum %x {axes = array<i64: 1>} : (tensor<?x1024xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
"""

ROW_MAX = """
func.func @main(%x: tensor<?x1024xf32>) -> tensor<?xf32> {
  %0 = graph.reduce_max %x {axes = array<i64: 1>} : (tensor<?x1024xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
"""


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _layernorm(x: np.ndarray) -> np.ndarray:
    d = x - x.mean(axis=1, keepdims=True)
    return d / np.sqrt((d * d).mean(axis=1, keepdims=True) + np.float32(1e-5))


def _load() -> str:
    """The 1, 5 and 15 minute load averages."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _best(fn: Callable[[], Any], repeat: int) -> float:
    fn()  # warm-up (page faults of fresh outputs, thread pool start)
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def _best_interleaved(fns: list[Callable[[], Any]], repeat: int) -> list[float]:
    """Best time of each function, the functions run in turn `repeat` times: a kernel and the
    triad measured this way see the same machine (the bound moves with the load)."""
    for fn in fns:
        fn()
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            t0 = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - t0)
    return best


def _scalar_config(text: str) -> dict[str, int]:
    """Every affine-vectorize width knob at 1: the vectorizer off (LLVM's own still runs)."""
    knobs = mlc.run_pipeline(mlc.parse(text), "lower-to-cpu")
    return {
        r.key: 1 for r in knobs.space() if r.pass_name == "affine-vectorize" and r.name == "width"
    }


def _nontemporal_config(text: str, mode: str | None) -> dict[str, str]:
    """Every `nontemporal` knob (affine-nontemporal-stores) at `mode`; None: the defaults."""
    if mode is None:
        return {}
    space = mlc.run_pipeline(mlc.parse(text), "lower-to-cpu").space()
    return {r.key: mode for r in space if r.name == "nontemporal"}


def knob_ab(repeat: int) -> None:
    """CPU time per element of softmax and layernorm rows on one thread, in cache (256 rows)
    and from DRAM (16,384 rows), with the `ldexp` (math-polynomial-approximation) and
    `prefetch` (affine-vectorize) knobs off and on, `prefetch` also with
    `prefetch_store_pass` off and on ("+store pass": the output pass prefetches the row ahead
    once more; default on for layernorm, off for softmax), and the triad: interleaved
    best-of in one process, `time.thread_time` (what a thread spends, less sensitive to other
    processes than wall time)."""

    def config(text: str, ldexp: bool, prefetch: bool, store: bool) -> dict[str, bool]:
        space = mlc.run_pipeline(mlc.parse(text), "lower-to-cpu").space()
        values = {"ldexp": ldexp, "prefetch": prefetch, "prefetch_store_pass": store}
        return {r.key: values[r.name] for r in space if r.name in values}

    runs: dict[str, tuple[Callable[[], Any], int, int]] = {}  # fn, bytes/element, elements
    for rows in (256, 16384):
        x = np.random.default_rng(0).standard_normal((rows, 1024)).astype(np.float32)
        y = np.empty_like(x)
        b = x.reshape(-1)
        c, o = b[::-1].copy(), np.empty_like(b)
        triad = mlc.compile(TRIAD, threads=1)
        run_triad = lambda t=triad, b=b, c=c, o=o: t.main(b, c, out=o)  # noqa: E731
        runs[f"triad, {b.size} elements"] = (run_triad, 12, b.size)
        for name, text in (("softmax", SOFTMAX), ("layernorm", LAYERNORM)):
            for ldexp in (False, True):
                for prefetch, store in ((False, False), (True, False), (True, True)):
                    knobs = config(text, ldexp, prefetch, store)
                    f = mlc.compile(text, knobs=knobs, threads=1)
                    key = f"{name}, {rows} rows, ldexp={int(ldexp)} prefetch={int(prefetch)}"
                    key += " +store pass" if store else ""
                    runs[key] = (lambda f=f, x=x, y=y: f.main(x, out=y), 8, x.size)
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeat):
        for key, (fn, _, _) in runs.items():
            fn()
            t0 = time.thread_time()
            fn()
            best[key] = min(best[key], time.thread_time() - t0)
    print(f"one thread, CPU time, best of {repeat} (load {os.getloadavg()[0]:.1f})")
    for key, (_, per, n) in runs.items():
        print(
            f"{key:56} {best[key] * 1e3:8.2f} ms {best[key] / n * 1e9:7.3f} ns/element "
            f"{per * n / best[key] / 1e9:6.1f} GB/s per CPU second"
        )


def row_pipeline_ab(repeat: int, threads: int | None, rows: int, rounds: int = 6) -> None:
    """Softmax and layernorm rows with the `row_pipeline` knob (affine-vectorize) off (the
    default since session 16) and at 16 rows (what `row-pipeline=heavy` gives softmax), each
    run right after a triad run, in turn within each round (wall time, best of `repeat`), on
    the pool: the time with over the time without, and each as a share of the triad of the
    same round."""
    n = 10_000_000
    rng = np.random.default_rng(0)
    b, c = (rng.standard_normal(n).astype(np.float32) for _ in range(2))
    out = np.empty(n, np.float32)
    triad = mlc.compile(TRIAD, threads=threads)
    x = rng.standard_normal((rows, 1024)).astype(np.float32)
    y = np.empty_like(x)
    print(f"row_pipeline A/B, {rows} x 1024 rows, threads {threads or 'all'}, best of {repeat}")
    for name, text in (("softmax", SOFTMAX), ("layernorm", LAYERNORM)):
        space = mlc.run_pipeline(mlc.parse(text), "lower-to-cpu").space()
        keys = [r.key for r in space if r.name == "row_pipeline"]
        off, on = (
            mlc.compile(text, knobs=dict.fromkeys(keys, k), threads=threads) for k in (0, 16)
        )
        on.main(x, out=y)
        np.testing.assert_allclose(y, off.main(x), rtol=1e-5, atol=1e-6)
        for r in range(rounds):
            t = _best_interleaved(
                [
                    lambda: triad.main(b, c, out=out),
                    lambda: off.main(x, out=y),  # noqa: B023 - used now
                    lambda: triad.main(b, c, out=out),
                    lambda: on.main(x, out=y),  # noqa: B023
                ],
                repeat,
            )
            bw = 12 * n / min(t[0], t[2])
            share = [100 * 2 * x.nbytes / k / bw for k in (t[1], t[3])]
            print(
                f"{name:10} round {r}: off {t[1] * 1e3:6.2f} ms ({share[0]:3.0f}% triad)  "
                f"16 rows {t[3] * 1e3:6.2f} ms ({share[1]:3.0f}%)  ratio {t[3] / t[1]:.3f}  "
                f"load {_load()}"
            )


def dynamic_sweep(repeat: int, threads: int | None) -> None:
    """The dynamic triad at sizes around affine-parallelize's run-time threshold: serial
    (`threads` knob off), always on the pool (`min-trips` 1) and the default (the pool from
    `min-trips` on), interleaved best-of in one process (wall time)."""
    space = mlc.run_pipeline(mlc.parse(TRIAD), "lower-to-cpu").space()
    (rec,) = [r for r in space if r.name == "min-trips"]
    variants = {
        "serial": {r.key: False for r in space if r.name == "threads"},
        "pool": {rec.key: 1},
        "default": {},
    }
    compiled = {k: mlc.compile(TRIAD, knobs=v, threads=threads) for k, v in variants.items()}
    print(
        f"dynamic triad a = b + 3c, min-trips default {rec.default}; best of {repeat}, "
        f"threads {threads or 'all'}, load {os.getloadavg()[0]:.1f}"
    )
    print(f"{'n':>10} {'serial us':>10} {'pool us':>10} {'default us':>11} {'pool/serial':>12}")
    for n in (4096, 16384, 65536, 131072, 262144, 1 << 20, 1 << 22, 10_000_000):
        rng = np.random.default_rng(n)
        b, c = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
        out = np.empty(n, np.float32)
        times = _best_interleaved(
            [lambda f=f: f.main(b, c, out=out) for f in compiled.values()],  # noqa: B023
            repeat if n < 1 << 20 else max(3, repeat // 4),
        )
        ser, pool, dflt = (t * 1e6 for t in times)
        print(f"{n:>10} {ser:>10.1f} {pool:>10.1f} {dflt:>11.1f} {pool / ser:>11.2f}x")


def c_reference(threads: int | None) -> dict[str, Callable[..., Any]] | str:
    """`bench/c_rows.c` built with gcc and loaded: {"softmax rows": f, "layernorm rows": f},
    each `f(x, y, nt)` on C-contiguous f32 (rows, 1024) arrays; or why it is not available."""
    from mlc.runtime import host_target

    target = host_target()
    if not (target.has_feature("avx2") and target.has_feature("fma")):
        return "the host has no AVX2 + FMA"
    cc = os.environ.get("CC", "gcc")
    if shutil.which(cc) is None:
        return f"no C compiler ({cc})"
    # libgomp reads these when it loads: the thread count, and idle threads that sleep at once
    # instead of spinning for a while after each region (they would take the cores from mlc's
    # pool, which runs next).
    os.environ["OMP_NUM_THREADS"] = str(threads or os.cpu_count() or 1)
    os.environ["OMP_WAIT_POLICY"] = "passive"
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "c_rows.c")
    flags = ["-O3", "-mavx2", "-mfma", "-fopenmp", "-shared", "-fPIC"]
    with tempfile.TemporaryDirectory(prefix="mlc-bench-") as tmp:
        out = os.path.join(tmp, "c_rows.so")
        done = subprocess.run([cc, *flags, src, "-o", out], capture_output=True, text=True)
        if done.returncode != 0:
            return f"{cc} failed: {done.stderr.strip()[:200]}"
        lib = ctypes.CDLL(out)  # mapped: the file may go with the directory
    fns: dict[str, Callable[..., Any]] = {}
    kernels = (("softmax rows", lib.softmax_rows), ("layernorm rows", lib.layernorm_rows))
    for name, symbol in kernels:
        symbol.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_long, ctypes.c_int]
        symbol.restype = None

        def run(x: np.ndarray, y: np.ndarray, nt: bool, symbol: Any = symbol) -> None:
            assert x.shape == y.shape and x.shape[1:] == (1024,) and x.dtype == np.float32
            assert x.flags.c_contiguous and y.flags.c_contiguous
            symbol(x.ctypes.data, y.ctypes.data, x.shape[0], int(nt))

        fns[name] = run
    return fns


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="small sizes, best of 3")
    p.add_argument("--repeat", type=int, default=None, help="runs per measurement (best of)")
    p.add_argument("--threads", type=int, default=None, help="mlc worker threads")
    p.add_argument("--rows", type=int, default=None, help="rows of the 1024-column kernels")
    p.add_argument(
        "--nontemporal",
        choices=("never", "large", "always"),
        default=None,
        help="the nontemporal knob of every mlc kernel, the triad included (default: the "
        "knobs' defaults)",
    )
    p.add_argument(
        "--knob-ab",
        action="store_true",
        help="only the one-thread CPU-time A/B of the ldexp and prefetch knobs on the row kernels",
    )
    p.add_argument(
        "--row-pipeline-ab",
        action="store_true",
        help="only the same-process A/B of the row_pipeline knob on softmax and layernorm rows",
    )
    p.add_argument(
        "--c-reference",
        action="store_true",
        help="also time bench/c_rows.c (gcc, AVX2): softmax and layernorm rows written by hand",
    )
    p.add_argument(
        "--dynamic",
        action="store_true",
        help="only the dynamic triad serial / pool / default at sizes around the threshold",
    )
    args = p.parse_args(argv)
    if args.dynamic:
        dynamic_sweep(args.repeat or 50, args.threads)
        return 0
    if args.knob_ab:
        knob_ab(args.repeat or 7)
        return 0
    if args.row_pipeline_ab:
        row_pipeline_ab(args.repeat or 7, args.threads, args.rows or 4096)
        return 0
    n = 1_000_000 if args.quick else 10_000_000
    rows = args.rows or (512 if args.quick else 4096)
    repeat = args.repeat or (3 if args.quick else 7)
    rng = np.random.default_rng(0)
    a, b, c = (rng.standard_normal(n).astype(np.float32) for _ in range(3))
    x = rng.standard_normal((rows, 1024)).astype(np.float32)

    # The bound is the machine's bandwidth: with default knobs the triad's dynamic loop runs
    # on the pool from 131,072 elements on (affine-parallelize versions it on its run-time
    # trip count), so it runs on `--threads` like the kernels.
    nt = args.nontemporal
    triad = mlc.compile(TRIAD, knobs=_nontemporal_config(TRIAD, nt), threads=args.threads)
    out = np.empty(n, np.float32)
    tmp = np.empty(n, np.float32)

    def run_triad() -> None:
        triad.main(b, c, out=out)

    t_triad = _best(run_triad, repeat)
    assert np.allclose(out, b + np.float32(3) * c)
    bw_triad = 12 * n / t_triad

    def np_triad() -> None:
        np.multiply(c, np.float32(3), out=tmp)
        np.add(b, tmp, out=out)

    t_np_triad = _best(np_triad, repeat)
    print(
        f"machine: {os.cpu_count()} cores; mlc threads: {args.threads or 'all'}; best of {repeat}; "
        f"nontemporal: {nt or 'default'}; load {_load()}"
    )
    print(
        f"triad a = b + 3c, n={n}: mlc (out=) {t_triad * 1e3:.2f} ms = {bw_triad / 1e9:.1f} GB/s "
        f"(the bound); numpy two passes {t_np_triad * 1e3:.2f} ms = "
        f"{12 * n / t_np_triad / 1e9:.1f} GB/s useful"
    )

    elem = 4 * n
    cases: list[tuple[str, str, tuple[np.ndarray, ...], Callable[[], Any], int]] = [
        ("(a + 3b) * c", AXPBY, (a, b, c), lambda: (a + np.float32(3) * b) * c, 4 * elem),
        (
            "exp(a)*b + relu(c - a)",
            EXP_RELU,
            (a, b, c),
            lambda: np.exp(a) * b + np.maximum(c - a, 0),
            4 * elem,
        ),
        ("softmax rows", SOFTMAX, (x,), lambda: _softmax(x), 2 * x.nbytes),
        ("layernorm rows", LAYERNORM, (x,), lambda: _layernorm(x), 2 * x.nbytes),
        ("row sum", ROW_SUM, (x,), lambda: x.sum(axis=1), x.nbytes + 4 * rows),
        ("row max", ROW_MAX, (x,), lambda: x.max(axis=1), x.nbytes + 4 * rows),
    ]
    header = (
        f"{'kernel':24} {'mlc ms':>8} {'bound ms':>9} {'novec ms':>9} {'numpy ms':>9} "
        f"{'vec gain':>9} {'vs numpy':>9} {'GB/s':>6} {'% triad':>8} {'% triad*':>9}"
    )
    print(header)
    print("-" * len(header))
    for name, text, inputs, reference, nbytes in cases:
        nt_knobs = _nontemporal_config(text, nt)
        fast = mlc.compile(text, knobs=nt_knobs, threads=args.threads)
        slow = mlc.compile(
            text, knobs={**_scalar_config(text), **nt_knobs}, threads=args.threads
        )
        want = reference()
        dest = np.empty_like(want)
        for compiled in (fast, slow):
            compiled.main(*inputs, out=dest)
            np.testing.assert_allclose(dest, want, rtol=2e-4, atol=2e-3)
        # The kernel and the triad in turn (the "% triad*" column: the bound of the same
        # moments), then the scalar variant and NumPy.
        t_fast, t_tri = _best_interleaved(
            [lambda: fast.main(*inputs, out=dest), run_triad],  # noqa: B023 - used now
            repeat,
        )
        t_slow = _best(lambda: slow.main(*inputs, out=dest), repeat)  # noqa: B023
        t_np = _best(reference, repeat)
        print(
            f"{name:24} {t_fast * 1e3:8.2f} {nbytes / bw_triad * 1e3:9.2f} "
            f"{t_slow * 1e3:9.2f} {t_np * 1e3:9.2f} {t_slow / t_fast:8.2f}x "
            f"{t_np / t_fast:8.2f}x {_shares(nbytes / t_fast, bw_triad, 12 * n / t_tri)}"
        )
    if args.c_reference:
        _c_rows(args, x, run_triad, bw_triad, n, repeat)
    print(f"load at the end: {_load()}")
    return 0


def _shares(bw: float, bound: float, beside: float) -> str:
    """The last columns of a kernel's line: its bandwidth, as a share of the bound (the triad
    timed first) and of the triad timed beside it."""
    return f"{bw / 1e9:6.1f} {100 * bw / bound:7.0f}% {100 * bw / beside:8.0f}%"


def _c_rows(
    args: argparse.Namespace,
    x: np.ndarray,
    run_triad: Callable[[], None],
    bw_triad: float,
    n: int,
    repeat: int,
) -> None:
    """The C reference rows, timed as mlc's (each run right after a triad run)."""
    fns = c_reference(args.threads)
    if isinstance(fns, str):
        print(f"C reference skipped: {fns}")
        return
    from mlc.passes.affine_nontemporal import default_min_bytes

    y = np.empty_like(x)
    large = y.nbytes >= default_min_bytes()
    nt = {"never": False, "always": True}.get(args.nontemporal or "", large)
    for name, reference in (("softmax rows", _softmax), ("layernorm rows", _layernorm)):
        f = fns[name]
        f(x, y, nt)
        np.testing.assert_allclose(y, reference(x), rtol=2e-4, atol=2e-3)
        t_c, t_tri = _best_interleaved([lambda f=f: f(x, y, nt), run_triad], repeat)
        nbytes = 2 * x.nbytes
        print(
            f"{name + ' (C)':24} {t_c * 1e3:8.2f} {nbytes / bw_triad * 1e3:9.2f} "
            f"{'-':>9} {'-':>9} {'-':>9} {'-':>9} {_shares(nbytes / t_c, bw_triad, 12 * n / t_tri)}"
        )
    print(f"(C): bench/c_rows.c by gcc -O3 -mavx2 -mfma -fopenmp, non-temporal stores: {nt}")


if __name__ == "__main__":
    sys.exit(main())
