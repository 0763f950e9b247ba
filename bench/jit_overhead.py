"""JIT runtime overheads, as ratios measured in one run: the cost of calling a compiled elementwise
kernel against the NumPy ufunc doing the same work, compile time against a cache hit, parallel
loops on 1 thread against all cores, and RSS over many calls of a kernel that mallocs and frees.

    python bench/jit_overhead.py                 # everything
    python bench/jit_overhead.py --quick         # fewer repeats
    python bench/jit_overhead.py --rss 10000     # RSS check over 10,000 calls (the default)
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

import numpy as np

from mlc.runtime import ArgSpec, JitModule, Signature, cache, compile_llvm_ir, default_threads

# y = x0 + x1 over memref<?xf32>, as the lowering emits it (offset 0, unit stride).
ADD = """
define void @add(ptr %a.alloc, ptr %a, i64 %a.off, i64 %n, i64 %a.st,
                 ptr %b.alloc, ptr %b, i64 %b.off, i64 %b.n, i64 %b.st,
                 ptr %y.alloc, ptr %y, i64 %y.off, i64 %y.n, i64 %y.st) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %exit
body:
  %pa = getelementptr float, ptr %a, i64 %i
  %pb = getelementptr float, ptr %b, i64 %i
  %x = load float, ptr %pa, align 4
  %z = load float, ptr %pb, align 4
  %s = fadd float %x, %z
  %py = getelementptr float, ptr %y, i64 %i
  store float %s, ptr %py, align 4
  %i.next = add i64 %i, 1
  br label %loop
exit:
  ret void
}
"""
ADD_SIG = Signature(
    [ArgSpec("a", "f32", ("n",)), ArgSpec("b", "f32", ("n",))], [ArgSpec("y", "f32", ("n",))]
)

# y[i] = exp(x[i]) * 0.5 with the loop outlined for mlc_parallel_for (chunks of consecutive i).
PAR = """
declare void @mlc_parallel_for(ptr, ptr, i64, i64, i64)
declare float @llvm.exp.f32(float)

define internal void @body(i64 %begin, i64 %end, ptr %ctx) {
entry:
  %x = load ptr, ptr %ctx, align 8
  %yp = getelementptr ptr, ptr %ctx, i64 1
  %y = load ptr, ptr %yp, align 8
  br label %loop
loop:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %b ]
  %more = icmp slt i64 %i, %end
  br i1 %more, label %b, label %exit
b:
  %px = getelementptr float, ptr %x, i64 %i
  %v = load float, ptr %px, align 4
  %e = call fast float @llvm.exp.f32(float %v)
  %h = fmul fast float %e, 0.5
  %py = getelementptr float, ptr %y, i64 %i
  store float %h, ptr %py, align 4
  %i.next = add i64 %i, 1
  br label %loop
exit:
  ret void
}

define void @par(ptr %x.a, ptr %x, i64 %x.o, i64 %n, i64 %x.s,
                 ptr %y.a, ptr %y, i64 %y.o, i64 %y.n, i64 %y.s) {
  %ctx = alloca [2 x ptr], align 8
  store ptr %x, ptr %ctx, align 8
  %yp = getelementptr ptr, ptr %ctx, i64 1
  store ptr %y, ptr %yp, align 8
  call void @mlc_parallel_for(ptr @body, ptr %ctx, i64 0, i64 %n, i64 1)
  ret void
}
"""
PAR_SIG = Signature([ArgSpec("x", "f32", ("n",))], [ArgSpec("y", "f32", ("n",))])

# A kernel that mallocs 64 KiB, fills it from x, sums it into s and frees it.
SCRATCH = """
declare ptr @malloc(i64)
declare void @free(ptr)

define void @scratch(ptr %x.a, ptr %x, i64 %x.o, i64 %n, i64 %x.s,
                     ptr %s.a, ptr %s, i64 %s.o) {
entry:
  %buf = call ptr @malloc(i64 65536)
  br label %fill
fill:
  %i = phi i64 [ 0, %entry ], [ %i.next, %fill ]
  %k = urem i64 %i, %n
  %px = getelementptr float, ptr %x, i64 %k
  %v = load float, ptr %px, align 4
  %pb = getelementptr float, ptr %buf, i64 %i
  store float %v, ptr %pb, align 4
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, 16384
  br i1 %more, label %fill, label %sum
sum:
  %j = phi i64 [ 0, %fill ], [ %j.next, %sum ]
  %acc = phi float [ 0.0, %fill ], [ %acc.next, %sum ]
  %j7 = mul i64 %j, 7
  %jj = urem i64 %j7, 16384
  %pq = getelementptr float, ptr %buf, i64 %jj
  %w = load float, ptr %pq, align 4
  %acc.next = fadd float %acc, %w
  %j.next = add i64 %j, 1
  %again = icmp ult i64 %j.next, 16384
  br i1 %again, label %sum, label %done
done:
  store float %acc.next, ptr %s, align 4
  call void @free(ptr %buf)
  ret void
}
"""
SCRATCH_SIG = Signature([ArgSpec("x", "f32", ("n",))], [ArgSpec("s", "f32", ())])


def best(fn: Callable[[], object], number: int, repeat: int) -> float:
    """Best time per call over `repeat` runs of `number` calls (seconds)."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t) / number)
    return min(times)


def rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def bench_compile(repeat: int) -> None:
    print("== compile: cold compile (JitModule) vs cache hit (compile_llvm_ir) ==")
    cold = min(
        best(lambda: JitModule(ADD, {"add": ADD_SIG}), 1, 1) for _ in range(max(3, repeat // 2))
    )
    compile_llvm_ir(ADD, {"add": ADD_SIG})
    hit = best(lambda: compile_llvm_ir(ADD, {"add": ADD_SIG}), 200, repeat)
    print(f"cold {cold * 1e3:8.2f} ms   hit {hit * 1e6:8.1f} us   cold/hit {cold / hit:8.0f}x")
    print()


def bench_calls(repeat: int) -> None:
    print("== call: compiled add vs np.add (both allocate the result) ==")
    add = compile_llvm_ir(ADD, {"add": ADD_SIG}).add  # bind once: as a caller would
    print(f"{'n':>9} {'mlc':>10} {'numpy':>10} {'mlc/numpy':>10}")
    for n in (1, 16, 1024, 65536, 1 << 20):
        a = np.random.default_rng(0).standard_normal(n).astype(np.float32)
        b = np.random.default_rng(1).standard_normal(n).astype(np.float32)
        assert np.array_equal(add(a, b), a + b)
        number = max(10, min(20000, (1 << 24) // max(n, 1) // 8))
        t_mlc = best(lambda a=a, b=b: add(a, b), number, repeat)
        t_np = best(lambda a=a, b=b: np.add(a, b), number, repeat)
        print(f"{n:9d} {t_mlc * 1e6:8.2f}us {t_np * 1e6:8.2f}us {t_mlc / t_np:10.2f}")
    print()


def bench_parallel(repeat: int) -> None:
    threads = default_threads()
    print(f"== parallel loop: exp over 4M floats, threads=1 vs threads={threads} ==")
    x = np.random.default_rng(2).standard_normal(1 << 22).astype(np.float32)
    one = compile_llvm_ir(PAR, {"par": PAR_SIG}, threads=1)
    many = compile_llvm_ir(PAR, {"par": PAR_SIG}, threads=threads)
    assert np.allclose(one.par(x), np.exp(x) * 0.5, rtol=1e-5)
    assert np.array_equal(one.par(x), many.par(x))
    t1 = best(lambda: one.par(x), 5, repeat)
    tn = best(lambda: many.par(x), 5, repeat)
    tnp = best(lambda: np.exp(x) * np.float32(0.5), 5, repeat)
    print(
        f"1 thread {t1 * 1e3:7.2f} ms   {threads} threads {tn * 1e3:7.2f} ms   "
        f"speedup {t1 / tn:5.2f}x   numpy {tnp * 1e3:7.2f} ms   "
        f"numpy/mlc({threads}) {tnp / tn:5.2f}"
    )
    print()


def bench_rss(calls: int) -> None:
    print(f"== memory: RSS over {calls} calls of a kernel that mallocs/frees 64 KiB ==")
    m = compile_llvm_ir(SCRATCH, {"scratch": SCRATCH_SIG})
    assert "@malloc(" in m.llvm_ir_optimized.split("define void @scratch(")[1]
    x = np.arange(100, dtype=np.float32)
    for _ in range(200):
        m.scratch(x)
    before = rss()
    for _ in range(calls):
        m.scratch(x)
    grew = rss() - before
    print(
        f"RSS before {before / 2**20:.1f} MiB, growth {grew / 2**10:.0f} KiB "
        f"({'flat' if grew < 1 << 20 else 'GROWING'}; a leak would be {calls * 64 / 1024:.0f} MiB)"
    )
    print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer repeats")
    ap.add_argument("--rss", type=int, default=10000, metavar="N", help="calls for the RSS check")
    args = ap.parse_args()
    repeat = 3 if args.quick else 7
    cache.clear()
    bench_compile(repeat)
    bench_calls(repeat)
    bench_parallel(repeat)
    if os.path.exists("/proc/self/statm") and args.rss > 0:
        bench_rss(args.rss)


if __name__ == "__main__":
    main()
