"""Fused elementwise chains on 10M-element f32 tensors against NumPy and against the machine's
memory bandwidth (a triad timed in the same run), with fresh results from the recycled buffer
pool, with results written into `out=`, with fresh pages (pool off), and unfused; then the MLP
and attention examples fused vs unfused vs NumPy.

    python bench/fusion.py                 # everything (about a minute on the 2-core VM)
    python bench/fusion.py --quick         # fewer repeats, 2M elements
    python bench/fusion.py --n 4000000 --repeat 9 --threads 1,2 --dynamic --no-examples

Every time is the best of `--repeat` warm calls (wall clock), each call's result assigned over
the previous one as a loop would (`y = f(a, b, c)`): the previous result is still alive during
the call. Every compiled result is checked against NumPy's before it is timed.

The bound: the bandwidth B is the best of the triads `t = b + s * c` measured here (compiled into
`out=` at each thread count, and NumPy's `np.multiply(c, s, out=t); np.add(b, t, out=a)`, each
timed again before every chain, so that a slow minute of the VM does not set the bound),
counting 12 bytes per element (two arrays read, one written: STREAM's convention, which leaves
out the write-allocate read of the destination). A chain with k input arrays and one result
moves 4 (k + 1) bytes per element by the same count; its bound is that / B.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from mlc.lowering.pipelines import LowerToCPUPipeline

import mlc
from mlc.pass_manager import OpPassManager, Pass
from mlc.runtime import result_pool

ROOT = Path(__file__).resolve().parents[1]
S = 2.5  # the scalar of the triad and of (a + s*b) * c

# name -> (graph body on %a, %b, %c, %d (as many as used), NumPy version, input count)
CHAINS: dict[str, tuple[str, Callable[..., np.ndarray], int]] = {
    "triad b + s*c": (
        """
  %s = graph.constant dense<2.5> : tensor<f32>
  %0 = graph.mul %b, %s : (T, tensor<f32>) -> T
  %r = graph.add %a, %0 : (T, T) -> T""",
        lambda a, b: a + np.float32(S) * b,
        2,
    ),
    "(a + s*b) * c": (
        """
  %s = graph.constant dense<2.5> : tensor<f32>
  %0 = graph.mul %b, %s : (T, tensor<f32>) -> T
  %1 = graph.add %a, %0 : (T, T) -> T
  %r = graph.mul %1, %c : (T, T) -> T""",
        lambda a, b, c: (a + np.float32(S) * b) * c,
        3,
    ),
    "exp(a)*b + relu(c - a)": (
        """
  %0 = graph.exp %a : T
  %1 = graph.mul %0, %b : (T, T) -> T
  %2 = graph.sub %c, %a : (T, T) -> T
  %3 = graph.relu %2 : T
  %r = graph.add %1, %3 : (T, T) -> T""",
        lambda a, b, c: np.exp(a) * b + np.maximum(c - a, 0),
        3,
    ),
    "sigmoid(a) * b": (
        """
  %0 = graph.sigmoid %a : T
  %r = graph.mul %0, %b : (T, T) -> T""",
        lambda a, b: 1 / (1 + np.exp(-a)) * b,
        2,
    ),
    "a*b + c*d": (
        """
  %0 = graph.mul %a, %b : (T, T) -> T
  %1 = graph.mul %c, %d : (T, T) -> T
  %r = graph.add %0, %1 : (T, T) -> T""",
        lambda a, b, c, d: a * b + c * d,
        4,
    ),
}
TRIAD = "triad b + s*c"
FUSION_PASSES = {"graph-fusion", "tensor-fusion", "affine-loop-fusion"}


def program(body: str, inputs: int, n: int | None) -> str:
    t = f"tensor<{'?' if n is None else n}xf32>"
    args = ", ".join(f"%{x}: {t}" for x in "abcd"[:inputs])
    return f"func.func @main({args}) -> {t} {{{body.replace('T', t)}\n  return %r : {t}\n}}\n"


def unfused_pipeline() -> str:
    """`lower-to-cpu` as registered now, without its fusion passes."""

    def drop(pm: OpPassManager) -> OpPassManager:
        kept: list[Pass | OpPassManager] = []
        for e in pm.elements:
            if isinstance(e, OpPassManager):
                e = drop(e)
                if e.elements:
                    kept.append(e)
            elif e.name not in FUSION_PASSES:
                kept.append(e)
        pm.elements = kept
        return pm

    pm = OpPassManager("builtin.module")
    LowerToCPUPipeline().build(pm)
    return str(drop(pm))


def best(fn: Callable[[], object], repeat: int) -> float:
    """Best seconds per call; each result replaces the previous one after the call."""
    keep = fn()
    keep = fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        keep = fn()
        times.append(time.perf_counter() - t)
    del keep
    return min(times)


def fmt(s: float) -> str:
    return f"{s * 1e3:8.2f} ms" if s >= 1e-3 else f"{s * 1e6:8.1f} us"


def check(got: np.ndarray, want: np.ndarray, what: str) -> None:
    if not np.allclose(got, want, rtol=1e-4, atol=1e-5):
        bad = int(np.argmax(~np.isclose(got, want, rtol=1e-4, atol=1e-5)))
        sys.exit(f"fusion: {what}: element {bad} is {got.flat[bad]}, NumPy gives {want.flat[bad]}")


def measure_chain(
    text: str,
    ins: list[np.ndarray],
    want: np.ndarray,
    what: str,
    threads: list[int],
    repeat: int,
    unfused: str,
) -> dict[str, float]:
    """Seconds per call of each mlc variant of one chain."""
    row: dict[str, float] = {}
    out = np.empty_like(want)
    for label, pipeline in (("", "lower-to-cpu"), ("unfused ", unfused)):
        for t in threads:
            fn = mlc.compile(text, pipeline, threads=t).main
            check(fn(*ins), want, f"{what}, {label}threads={t}")
            row[f"{label}pool t{t}"] = best(lambda fn=fn: fn(*ins), repeat)
            if label:
                continue
            row[f"out= t{t}"] = best(lambda fn=fn: fn(*ins, out=out), repeat)
            check(out, want, f"{what}, out=, threads={t}")
            old = result_pool.max_bytes
            result_pool.max_bytes = 0  # every result on fresh pages
            try:
                row[f"fresh t{t}"] = best(lambda fn=fn: fn(*ins), repeat)
            finally:
                result_pool.max_bytes = old
    return row


def numpy_triad(a: np.ndarray, b: np.ndarray, repeat: int) -> float:
    """NumPy's triad into preallocated arrays: two ufuncs, no temporaries."""
    tmp, dst = np.empty_like(a), np.empty_like(a)
    s = np.float32(S)

    def run() -> None:
        np.multiply(b, s, out=tmp)
        np.add(a, tmp, out=dst)

    return best(run, repeat)


def bench_chains(n: int, repeat: int, threads: list[int], dynamic: bool) -> None:
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(n).astype(np.float32) for _ in range(4)]
    unfused = unfused_pipeline()
    print(f"== elementwise chains on {n:,} f32 ({'dynamic' if dynamic else 'static'} shape) ==")
    pm = OpPassManager("builtin.module")
    LowerToCPUPipeline().build(pm)
    print(f"lower-to-cpu: {pm}")
    print(f"unfused: the same without {', '.join(sorted(FUSION_PASSES))}")
    if hasattr(os, "getloadavg"):
        print(f"load average at start: {os.getloadavg()[0]:.1f}")
    print()
    rows: dict[str, dict[str, float]] = {}
    # The triad is timed again before every chain (compiled, into out=, at each thread count;
    # and NumPy's) and the best over the run sets the bound: this VM's speed moves by up to 2x
    # from one minute to the next, and a bound taken in a slow minute would be too lax.
    body, _, k = CHAINS[TRIAD]
    triad_text = program(body, k, None if dynamic else n)
    triad_fns = {f"out= t{t}": mlc.compile(triad_text, threads=t).main for t in threads}
    triad_out = np.empty_like(arrays[0])
    triad_times: dict[str, float] = {}

    def time_triad() -> None:
        for key, fn in triad_fns.items():
            t = best(lambda fn=fn: fn(*arrays[:2], out=triad_out), repeat)
            triad_times[key] = min(t, triad_times.get(key, t))
        t = numpy_triad(arrays[0], arrays[1], repeat)
        triad_times["numpy out="] = min(t, triad_times.get("numpy out=", t))

    for name, (body, ref, k) in CHAINS.items():
        time_triad()
        ins = arrays[:k]
        want = ref(*ins)
        text = program(body, k, None if dynamic else n)
        rows[name] = {"numpy": best(lambda ref=ref, ins=ins: ref(*ins), repeat)}
        rows[name].update(measure_chain(text, ins, want, name, threads, repeat, unfused))
    time_triad()
    source, t_triad = min(triad_times.items(), key=lambda kv: kv[1])
    bandwidth = 12 * n / t_triad
    print(
        f"bandwidth: {bandwidth / 1e9:.1f} GB/s from the triad ({source}: {fmt(t_triad)}; "
        f"best of {len(CHAINS) + 1} timings spread over the run);"
    )
    for k, v in sorted(triad_times.items()):
        print(f"  triad {k:12} {fmt(v)}  {12 * n / v / 1e9:5.1f} GB/s")
    fastest = max(
        (4 * (CHAINS[name][2] + 1) * n / v, name, c)
        for name, row in rows.items()
        for c, v in row.items()
        if c.startswith(("pool", "out="))
    )
    verdict = "above the triad's: the bound is lax" if fastest[0] > bandwidth else "below it"
    print(
        f"  highest rate of any mlc chain: {fastest[0] / 1e9:.1f} GB/s ({fastest[1]}, "
        f"{fastest[2]}; {verdict})"
    )
    print()
    cols = [c for c in rows[TRIAD] if c not in ("numpy", "numpy out=")]
    for name, row in rows.items():
        k = CHAINS[name][2]
        bound = 4 * (k + 1) * n / bandwidth
        print(f"-- {name}: {k} inputs, bound {fmt(bound)} ({4 * (k + 1)} bytes/element)")
        print(f"   {'variant':16} {'time':>11} {'numpy/mlc':>10} {'mlc/bound':>10}")
        print(f"   {'numpy':16} {fmt(row['numpy'])} {1.0:10.2f} {row['numpy'] / bound:10.2f}")
        for c in cols:
            v = row[c]
            print(f"   {'mlc ' + c:16} {fmt(v)} {row['numpy'] / v:10.2f} {v / bound:10.2f}")
        t_best = max(threads)
        pool, into = row[f"pool t{t_best}"], row[f"out= t{t_best}"]
        speed = row["numpy"] / pool
        print(
            f"   targets (threads={t_best}): >= 2x NumPy: {speed:.2f}x "
            f"{'met' if speed >= 2 else 'missed'}; within 1.5x of the bound: out= "
            f"{into / bound:.2f}x {'met' if into <= 1.5 * bound else 'missed'}, pool "
            f"{pool / bound:.2f}x {'met' if pool <= 1.5 * bound else 'missed'}"
        )
    print()


def bench_examples(repeat: int, threads: int) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from e2e import np_attention, np_mlp  # the same NumPy versions as bench/e2e.py

    rng = np.random.default_rng(1)

    def rand(*shape: int, scale: float = 1.0) -> np.ndarray:
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    cases = [
        (
            "mlp, batch 64",
            "mlp",
            [rand(64, 784)]
            + [rand(784, 512, scale=0.05), rand(512, scale=0.1)]
            + [rand(512, 512, scale=0.05), rand(512, scale=0.1)]
            + [rand(512, 10, scale=0.05), rand(10, scale=0.1)],
            np_mlp,
        ),
        ("attention, seq 128", "attention", [rand(128, 64) for _ in range(3)], np_attention),
    ]
    unfused = unfused_pipeline()
    print(f"== examples, threads={threads}: fused (lower-to-cpu) vs unfused vs NumPy ==")
    print(
        f"{'case':20} {'fused':>11} {'unfused':>11} {'numpy':>11} {'unf/fused':>10} "
        f"{'fused/numpy':>12}"
    )
    for label, name, ins, ref in cases:
        text = (ROOT / "examples" / f"{name}.mlir").read_text()
        want = ref(*ins)
        times = []
        for pipeline in ("lower-to-cpu", unfused):
            fn = mlc.compile(text, pipeline, threads=threads).main
            got = fn(*ins)
            if not np.allclose(got, want, rtol=1e-3, atol=1e-4):
                sys.exit(f"fusion: {label}: the compiled result differs from NumPy")
            times.append(best(lambda fn=fn, ins=ins: fn(*ins), repeat))
        t_np = best(lambda ref=ref, ins=ins: ref(*ins), repeat)
        fused, unf = times
        print(
            f"{label:20} {fmt(fused)} {fmt(unf)} {fmt(t_np)} {unf / fused:10.2f} "
            f"{fused / t_np:12.2f}"
        )
    print()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=10_000_000, help="elements per array")
    ap.add_argument("--repeat", type=int, default=7, help="timed calls per figure (best of)")
    ap.add_argument("--threads", default="1,2", help="thread counts, comma-separated")
    ap.add_argument("--quick", action="store_true", help="2M elements, 3 repeats")
    ap.add_argument("--dynamic", action="store_true", help="tensor<?xf32> instead of static")
    ap.add_argument("--no-chains", action="store_true")
    ap.add_argument("--no-examples", action="store_true")
    args = ap.parse_args(argv)
    try:
        threads = sorted({int(t) for t in args.threads.split(",")})
    except ValueError:
        ap.error(f"--threads: expected comma-separated integers, got {args.threads!r}")
    if not threads or threads[0] < 1 or args.n < 1 or args.repeat < 1:
        ap.error("--n, --repeat and every --threads value must be positive")
    n, repeat = (2_000_000, 3) if args.quick else (args.n, args.repeat)
    if not args.no_chains:
        bench_chains(n, repeat, threads, args.dynamic)
    if not args.no_examples:
        bench_examples(max(3, repeat), max(threads))


if __name__ == "__main__":
    main()
