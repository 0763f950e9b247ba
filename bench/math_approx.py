"""Elementwise exp/tanh/sigmoid/log/erf/gelu on f32: mlc with the polynomial approximations
(`math-polynomial-approximation`, the default of lower-to-cpu), mlc with libm/intrinsic calls
(the pass's `approximate` knobs off) and NumPy, in one run; and the maximum error of each
approximation in ulps over a strided sweep of all f32 bit patterns.

    python bench/math_approx.py                  # 1M and 10M elements, sweep step 64
    python bench/math_approx.py --quick          # 1M only, fewer repeats, step 1024
"""

from __future__ import annotations

import argparse
import math
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import mlc
import mlc.runtime
from mlc.knobs import KnobContext

try:
    from scipy.special import erf as np_erf
except ImportError:  # pragma: no cover
    np_erf = np.vectorize(math.erf, otypes=[np.float64])

PROGRAM = """
func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {{
  %0 = graph.{op} %x : tensor<?xf32>
  return %0 : tensor<?xf32>
}}
"""


def np_sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


def np_gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1 + np_erf(x * np.float32(math.sqrt(0.5)))).astype(np.float32)


CASES: list[tuple[str, Callable[[np.ndarray], np.ndarray]]] = [
    ("exp", np.exp),
    ("tanh", np.tanh),
    ("sigmoid", np_sigmoid),
    ("log", np.log),
    ("gelu", np_gelu),
]


def best_time(fn: Callable[[], object], repeat: int) -> float:
    fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def compile_both(op: str) -> tuple[Callable, Callable]:
    text = PROGRAM.format(op=op)
    kc = KnobContext()
    fast = mlc.compile(text, knobs=kc).main
    off = {r.key: False for r in kc.space() if r.name == "approximate"}
    assert off, f"no math op to approximate in graph.{op}"
    return fast, mlc.compile(text, knobs=off).main


def bench_speed(sizes: list[int], repeat: int) -> None:
    print("== elementwise f32, best of", repeat, "(ratios in the same run) ==")
    print(f"{'op':8} {'n':>11} {'approx':>10} {'libm':>10} {'numpy':>10} {'approx/np':>10} "
          f"{'libm/np':>8}")  # fmt: skip
    rng = np.random.default_rng(0)
    for op, ref in CASES:
        fast, libm = compile_both(op)
        for n in sizes:
            x = rng.uniform(-4, 4, n).astype(np.float32)
            if op == "log":
                x = np.abs(x) + np.float32(1e-3)
            want = ref(x)
            np.testing.assert_allclose(fast(x), want, rtol=2e-5, atol=1e-6)
            t_fast = best_time(lambda f=fast, x=x: f(x), repeat)  # type: ignore[misc]
            t_libm = best_time(lambda f=libm, x=x: f(x), repeat)  # type: ignore[misc]
            t_np = best_time(lambda f=ref, x=x: f(x), repeat)  # type: ignore[misc]
            print(
                f"{op:8} {n:>11,} {t_fast * 1e3:8.2f}ms {t_libm * 1e3:8.2f}ms {t_np * 1e3:8.2f}ms "
                f"{t_fast / t_np:10.2f} {t_libm / t_np:8.2f}"
            )
    print()


SWEEP = """
func.func @k_{fn}(%a: memref<?xf32>, %b: memref<?xf32>) {{
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  affine.for %i = 0 to %n {{
    %x = affine.load %a[%i] : memref<?xf32>
    %y = math.{fn} %x : f32
    affine.store %y, %b[%i] : memref<?xf32>
  }}
  return
}}
"""
REFERENCE = {
    "exp": np.exp, "exp2": np.exp2, "expm1": np.expm1, "log": np.log, "log2": np.log2,
    "log10": np.log10, "log1p": np.log1p, "tanh": np.tanh, "erf": np_erf,
}  # fmt: skip


def _sweep_jit(ldexp: str) -> Any:
    from mlc.lowering.to_llvm import lower_module
    from mlc.lowering.translate import translate_module

    from mlc.runtime import ArgSpec, Signature, compile_llvm_ir

    module = mlc.parse("\n".join(SWEEP.format(fn=fn) for fn in REFERENCE))
    mlc.run_pipeline(module, f"builtin.module(math-polynomial-approximation{{ldexp={ldexp}}})")
    assert lower_module(module)
    sig = Signature([ArgSpec("a", "f32", ("n",))], [ArgSpec("b", "f32", ("n",))])
    return compile_llvm_ir(translate_module(module), {f"k_{fn}": sig for fn in REFERENCE})


def bench_accuracy(step: int) -> None:
    """Max ulp error of both ways of scaling by 2^k (exponent-field arithmetic, ldexp=false;
    llvm.intr.ldexp, ldexp=true), and whether they give the same bits (both round once)."""
    print(f"== max error in f32 ulps vs float64, every {step}th f32 bit pattern ==")
    jits = {form: _sweep_jit(form) for form in ("false", "true")}
    bits = np.arange(0, 1 << 32, step, dtype=np.uint64).astype(np.uint32)
    x = bits.view(np.float32)
    x = x[np.isfinite(x)]
    print(f"{'fn':6} {'ldexp=false':>20} {'ldexp=true':>12}  same bits")
    for fn, ref_fn in REFERENCE.items():
        worst = {form: (0.0, 0.0) for form in jits}
        same_bits = True
        for chunk in np.array_split(x, 16):
            outs = {}
            with np.errstate(all="ignore"):
                ref = ref_fn(chunk.astype(np.float64))
                ref32 = ref.astype(np.float32)
                _, e = np.frexp(np.abs(ref))
                ulp = np.ldexp(1.0, np.maximum(e - 24, -149))
            for form, jit in jits.items():
                out32 = np.asarray(jit[f"k_{fn}"](chunk))
                outs[form] = out32.view(np.uint32)
                got = out32.astype(np.float64)
                with np.errstate(all="ignore"):
                    err = np.abs(got - ref) / ulp
                special = ~np.isfinite(ref32) | ~np.isfinite(got)
                same = (np.isnan(got) & np.isnan(ref)) | (got == ref32)
                err = np.where(special, np.where(same, 0.0, np.inf), err)
                i = int(np.argmax(err))
                if err[i] > worst[form][0]:
                    worst[form] = (float(err[i]), float(chunk[i]))
            same_bits = same_bits and bool(np.array_equal(outs["false"], outs["true"]))
        (w0, at0), (w1, _) = worst["false"], worst["true"]
        print(f"{fn:6} {w0:6.3f} ulp (x={at0:.6g}) {w1:8.3f} ulp  {'yes' if same_bits else 'no'}")
    print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--no-speed", action="store_true")
    ap.add_argument("--no-accuracy", action="store_true")
    args = ap.parse_args()
    print(f"mlc threads: {mlc.runtime.default_threads()}; load {os.getloadavg()[0]:.1f}\n")
    if not args.no_speed:
        bench_speed([1_000_000] if args.quick else [1_000_000, 10_000_000], 5 if args.quick else 11)
    if not args.no_accuracy:
        bench_accuracy(1024 if args.quick else 64)


if __name__ == "__main__":
    main()
