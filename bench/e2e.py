"""End to end: the four examples compiled by mlc against the same computation written in NumPy,
an elementwise-heavy program against NumPy, and the compile time of examples/mlp.mlir through
`lower-to-cpu` to a callable, per stage.

    python bench/e2e.py              # everything (about a minute on a quiet 2-core machine)
    python bench/e2e.py --quick      # fewer repeats
    python bench/e2e.py --no-compile-time / --no-examples / --no-elementwise
    python bench/e2e.py --single-thread   # NumPy's BLAS, mlc's parallel loops, peers on one thread
    python bench/e2e.py --peers torch     # only these peers ('' for none)

Run times are the median of N warm calls (wall clock); every ratio is mlc / NumPy (or mlc / peer)
measured in the same run (below 1: mlc is faster). The peers (bench/peers.py: onnxruntime, JAX
jit, PyTorch eager; each where installed, `--peers` to choose) run the same examples on the same
inputs with the same thread count. Every compiled result is checked against the NumPy result
before it is timed. Compile time is cold: the lowering cache (`mlc.lowering.compile`) and the
runtime's machine-code cache (`mlc.runtime.cache`) are cleared first, in a process that has
already imported everything (a first compile of an unrelated program), best of a few runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

if __name__ == "__main__" and "--single-thread" in sys.argv[1:]:
    # Before NumPy loads OpenBLAS (it reads these once) and before mlc sizes its thread pool.
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "MLC_NUM_THREADS"):
        os.environ[var] = "1"

import numpy as np  # noqa: E402
from mlc.lowering import compile as lowering_compile  # noqa: E402

import mlc  # noqa: E402
from mlc.runtime import JitOptions, cache, host_target  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peers as bench_peers  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SETTLE = 0.3  # seconds of idle before each timing (see median_time)


def median_time(fn: Callable[[], object], repeat: int, min_total: float = 0.2) -> float:
    """Median seconds per call over `repeat` batches (batches of about min_total / repeat).

    Starts with a pause: the thread pools of the runtime timed just before (OpenBLAS,
    onnxruntime, torch) spin for a while after their last call, and on a 2-core machine those
    spinning threads would take the cores from the one timed now."""
    time.sleep(SETTLE)
    fn()  # warm
    t = time.perf_counter()
    fn()
    once = max(time.perf_counter() - t, 1e-7)
    number = max(1, int(min_total / repeat / once))
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t) / number)
    return statistics.median(times)


def fmt_time(s: float) -> str:
    if s >= 1e-1:
        return f"{s:8.3f} s "
    if s >= 1e-3:
        return f"{s * 1e3:8.2f} ms"
    return f"{s * 1e6:8.1f} us"


# --------------------------------------------------------------------------------------------
# NumPy versions of the examples (plain NumPy expressions, the way one would write them)


def _softmax(z: np.ndarray, axis: int) -> np.ndarray:
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def np_mlp(x, w1, b1, w2, b2, w3, b3):  # type: ignore[no-untyped-def]
    h = np.maximum(x @ w1 + b1, 0)
    h = np.maximum(h @ w2 + b2, 0)
    return _softmax(h @ w3 + b3, 1)


def np_attention(q, k, v):  # type: ignore[no-untyped-def]
    return _softmax((q @ k.T) * np.float32(0.125), 1) @ v


def np_conv(x, w, b):  # type: ignore[no-untyped-def]
    n = x.shape[0]
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    # im2col: (n, c, 32, 32, 3, 3) windows, contracted with the filter by BLAS.
    win = np.lib.stride_tricks.sliding_window_view(xp, (3, 3), axis=(2, 3))
    conv = np.tensordot(win, w, axes=([1, 4, 5], [1, 2, 3]))  # (n, 32, 32, 16)
    conv = conv.transpose(0, 3, 1, 2) + b[None, :, None, None]
    r = np.maximum(conv, 0)
    return r.reshape(n, 16, 16, 2, 16, 2).max(axis=(3, 5))


np_linreg_cg = bench_peers.linreg_cg_step


def _rand(rng: np.random.Generator, *shape: int, scale: float = 1.0) -> np.ndarray:
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def example_cases(rng: np.random.Generator) -> list[tuple[str, str, list[np.ndarray], Callable]]:
    def mlp(batch: int) -> list[np.ndarray]:
        return [
            _rand(rng, batch, 784),
            _rand(rng, 784, 512, scale=0.05),
            _rand(rng, 512, scale=0.1),
            _rand(rng, 512, 512, scale=0.05),
            _rand(rng, 512, scale=0.1),
            _rand(rng, 512, 10, scale=0.05),
            _rand(rng, 10, scale=0.1),
        ]

    seq = 128
    rows = 2048
    return [
        ("mlp, batch 64", "mlp", mlp(64), np_mlp),
        ("mlp, batch 1", "mlp", mlp(1), np_mlp),
        ("mlp, batch 256", "mlp", mlp(256), np_mlp),
        ("attention, seq 128", "attention", [_rand(rng, seq, 64) for _ in range(3)], np_attention),
        (
            "conv, batch 8",
            "conv",
            [_rand(rng, 8, 3, 32, 32), _rand(rng, 16, 3, 3, 3, scale=0.3), _rand(rng, 16)],
            np_conv,
        ),
        (
            "linreg_cg, 2048 rows",
            "linreg_cg",
            [
                _rand(rng, rows, 100, scale=0.1),
                _rand(rng, 100, 1),
                _rand(rng, 100, 1),
                _rand(rng, 100, 1),
                np.array(0.1, np.float32),
            ],
            np_linreg_cg,
        ),
    ]


def _check(got: object, want: object, what: str) -> None:
    got_t = got if isinstance(got, tuple) else (got,)
    want_t = want if isinstance(want, tuple) else (want,)
    for g, w in zip(got_t, want_t, strict=True):
        if not np.allclose(g, w, rtol=1e-3, atol=1e-4):
            sys.exit(f"e2e: {what}: the compiled result differs from NumPy")


def bench_examples(repeat: int, peers: list[str], threads: int) -> None:
    """mlc and NumPy on every case first, then each peer on every case: no peer's thread pool
    exists while mlc and NumPy are timed."""
    print("== examples: mlc.compile(...).main vs the same computation in NumPy and the peers ==")
    short = {"onnxruntime": "ort", "jax": "jax", "torch": "torch"}
    head = f"{'case':24} {'mlc':>11} {'numpy':>11} {'mlc/numpy':>10}"
    head += "".join(f" {p:>13} {'mlc/' + short[p]:>9}" for p in peers)
    rng = np.random.default_rng(0)
    cases = example_cases(rng)
    compiled: dict[str, object] = {}
    rows, t_mlc, wants = [], [], []
    for label, name, inputs, ref in cases:
        if name not in compiled:
            compiled[name] = mlc.compile((ROOT / "examples" / f"{name}.mlir").read_text()).main
        fn = compiled[name]
        want = ref(*inputs)
        _check(fn(*inputs), want, label)  # type: ignore[operator]
        t = median_time(lambda fn=fn, a=inputs: fn(*a), repeat)  # type: ignore[misc]
        t_np = median_time(lambda ref=ref, a=inputs: ref(*a), repeat)  # type: ignore[misc]
        rows.append(f"{label:24} {fmt_time(t)} {fmt_time(t_np)} {t / t_np:10.2f}")
        t_mlc.append(t)
        wants.append(want)
    for p in peers:
        fns: dict[str, Callable[..., object]] = {}
        for k, (label, name, inputs, _) in enumerate(cases):
            if name not in fns:
                fns[name] = bench_peers.make(p, name, threads)
            pf = fns[name]
            _check(bench_peers.to_numpy(pf(*inputs)), wants[k], f"{label} ({p})")
            t_p = median_time(lambda pf=pf, a=inputs: pf(*a), repeat)  # type: ignore[misc]
            rows[k] += f"   {fmt_time(t_p)} {t_mlc[k] / t_p:9.2f}"
    print(head)
    print("\n".join(rows))
    print()


# --------------------------------------------------------------------------------------------
# Elementwise-heavy programs

N_ELEMENTWISE = 1 << 20

# Six elementwise ops on 1M f32, each NumPy op a separate ufunc call (as one writes it).
ARITH_CHAIN = """
func.func @main(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %0 = graph.mul %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %1 = graph.add %0, %x : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %2 = graph.sub %1, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %3 = graph.relu %2 : tensor<?xf32>
  %4 = graph.max %3, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %5 = graph.mul %4, %4 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %5 : tensor<?xf32>
}
"""


def np_arith_chain(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    t = x * y + x - y
    t = np.maximum(np.maximum(t, 0), y)
    return t * t


# The same length with transcendental ops (exp, tanh, sigmoid): libm calls per element in mlc
# against NumPy's SIMD loops.
MATH_CHAIN = """
func.func @main(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %0 = graph.mul %x, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %1 = graph.tanh %0 : tensor<?xf32>
  %2 = graph.add %1, %x : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %3 = graph.exp %2 : tensor<?xf32>
  %4 = graph.sigmoid %3 : tensor<?xf32>
  %5 = graph.mul %4, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %5 : tensor<?xf32>
}
"""


def np_math_chain(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    t = np.exp(np.tanh(x * y) + x)
    return 1 / (1 + np.exp(-t)) * y


def bench_elementwise(repeat: int) -> None:
    n = N_ELEMENTWISE
    print(f"== elementwise: a chain of 6 ops on {n:,} f32 elements vs NumPy ==")
    print(f"{'case':24} {'mlc':>11} {'numpy':>11} {'mlc/numpy':>10}")
    rng = np.random.default_rng(1)
    x, y = _rand(rng, n), _rand(rng, n, scale=0.5)
    for label, text, ref in (
        ("mul,add,sub,relu,max,mul", ARITH_CHAIN, np_arith_chain),
        ("mul,tanh,add,exp,sigm,mul", MATH_CHAIN, np_math_chain),
    ):
        fn = mlc.compile(text).main
        _check(fn(x, y), ref(x, y), label)
        t_mlc = median_time(lambda fn=fn: fn(x, y), repeat)  # type: ignore[misc]
        t_np = median_time(lambda ref=ref: ref(x, y), repeat)  # type: ignore[misc]
        print(f"{label:24} {fmt_time(t_mlc)} {fmt_time(t_np)} {t_mlc / t_np:10.2f}")
    print()


# --------------------------------------------------------------------------------------------
# Compile time of examples/mlp.mlir, per stage


def _pipeline_times(text: str) -> tuple[float, list[tuple[str, float]], float, float, str]:
    """Parse+verify, per-pass times (the pass manager's timing instrumentation), the verifier
    run after each pass, the whole pipeline, and the LLVM IR text of the translation."""
    from mlc.lowering.translate import translate_module

    from mlc.pass_manager import PassManager

    t0 = time.perf_counter()
    module = mlc.parse(text)
    module.verify()
    t1 = time.perf_counter()
    pm = PassManager.parse("lower-to-cpu", "builtin.module")
    pm.enable_timing()
    pm.run(module)
    timing = pm.timing
    assert timing is not None
    passes = [(e.display_name, timing.times.get(id(e), 0.0)) for e in pm.passes()]
    t2 = time.perf_counter()
    llvm_ir = translate_module(module)
    t3 = time.perf_counter()
    return t1 - t0, passes, timing.verifier, t3 - t2, llvm_ir


def _llvm_phases(llvm_ir: str) -> tuple[float, float, float]:
    """LLVM's phases of the runtime on `llvm_ir`, timed one by one with the runtime's own
    settings: parse + verify, O3 optimization for the host, MCJIT machine-code generation."""
    from llvmlite import binding as llvm

    from mlc.runtime import engine

    engine._init_llvm()
    target = host_target()
    opts = JitOptions()
    ctx = llvm.create_context()
    t0 = time.perf_counter()
    mod = llvm.parse_assembly(llvm_ir, context=ctx)
    mod.verify()
    t1 = time.perf_counter()
    tm = engine._target_machine(target, opts.opt_level)
    mod.triple = target.triple
    mod.data_layout = str(tm.target_data)
    engine._optimize(mod, tm, opts)
    t2 = time.perf_counter()
    ee = llvm.create_mcjit_compiler(mod, engine._target_machine(target, opts.opt_level))
    ee.finalize_object()
    t3 = time.perf_counter()
    ee.close()
    tm.close()
    return t1 - t0, t2 - t1, t3 - t2


def bench_compile_time(runs: int) -> None:
    text = (ROOT / "examples" / "mlp.mlir").read_text()
    print("== compile time: examples/mlp.mlir through lower-to-cpu to a callable (cold caches) ==")
    # Import and initialize everything once, on another program.
    mlc.compile(ARITH_CHAIN.replace("@main", "@warm"))
    totals, stages = [], []
    for _ in range(runs):
        lowering_compile.clear_cache()
        cache.clear()
        t = time.perf_counter()
        compiled = mlc.compile(text)
        totals.append(time.perf_counter() - t)
        parse, passes, verifier, translate, llvm_ir = _pipeline_times(text)
        assert llvm_ir == compiled.llvm_ir, "the staged lowering differs from mlc.compile's"
        stages.append((parse, passes, verifier, translate, _llvm_phases(llvm_ir)))
    best = min(range(runs), key=lambda i: totals[i])
    parse, passes, verifier, translate, (l_parse, l_opt, l_codegen) = stages[best]
    rows: list[tuple[str, float]] = [("parse + verify (mlc)", parse)]
    rows += [(f"  pass {name}", t) for name, t in passes]
    rows += [("  verifier after each pass", verifier)]
    pipeline = sum(t for _, t in passes) + verifier
    rows += [("lower-to-cpu pipeline", pipeline), ("translate to LLVM IR", translate)]
    rows += [
        ("LLVM parse + verify", l_parse),
        ("LLVM O3 optimization", l_opt),
        ("LLVM machine code (MCJIT)", l_codegen),
    ]
    llvm_total = l_parse + l_opt + l_codegen
    rows += [("LLVM phase", llvm_total)]
    for name, t in rows:
        print(f"{name:34} {t * 1e3:9.1f} ms")
    staged = parse + pipeline + translate + llvm_total
    print(f"{'sum of the stages':34} {staged * 1e3:9.1f} ms")
    print(
        f"{'mlc.compile, cold (best of ' + str(runs) + ')':34} {totals[best] * 1e3:9.1f} ms   "
        f"(median {statistics.median(totals) * 1e3:.0f} ms; target < 1000 ms: "
        f"{'met' if totals[best] < 1.0 else 'missed'})"
    )
    lowering_compile.clear_cache()
    cache.clear()
    mlc.compile(text)
    t = time.perf_counter()
    mlc.compile(text)
    print(f"{'mlc.compile, both caches hit':34} {(time.perf_counter() - t) * 1e3:9.2f} ms")
    print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer repeats")
    ap.add_argument("--no-compile-time", action="store_true")
    ap.add_argument("--no-examples", action="store_true")
    ap.add_argument("--no-elementwise", action="store_true")
    ap.add_argument(
        "--peers",
        default=",".join(bench_peers.PEERS),
        help="comma-separated peers to run next to mlc and NumPy where installed "
        "(default: onnxruntime,jax,torch; '' for none)",
    )
    ap.add_argument(
        "--single-thread", action="store_true", help="one thread for NumPy's BLAS and for mlc"
    )
    args = ap.parse_args()
    repeat = 5 if args.quick else 11
    t = host_target()
    blas = os.environ.get("OPENBLAS_NUM_THREADS", "default")
    print(
        f"host: {t.cpu}; mlc threads: {mlc.runtime.default_threads()}; numpy {np.__version__} "
        f"(OPENBLAS_NUM_THREADS={blas}); load average {os.getloadavg()[0]:.1f}\n"
    )
    if not args.no_compile_time:
        bench_compile_time(2 if args.quick else 3)
    threads = mlc.runtime.default_threads()
    peers = []
    for p in filter(None, "" if args.no_examples else args.peers.split(",")):
        if p not in bench_peers.PEERS:
            ap.error(f"--peers: unknown peer {p!r} (known: {', '.join(bench_peers.PEERS)})")
        if bench_peers.available(p):
            peers.append(p)
        else:
            print(f"peer {p}: not installed, skipped")
    if peers:
        print("peers: " + ", ".join(f"{p} {bench_peers.version(p)}" for p in peers))
        print(f"(each peer on {threads} intra-op thread(s); torch eager, JAX jit, onnxruntime")
        print(" with its default graph optimizations)\n")
    if not args.no_examples:
        bench_examples(repeat, peers, threads)
    if not args.no_elementwise:
        bench_elementwise(repeat)


if __name__ == "__main__":
    main()
