"""mlc.runtime memory: a compiled MLP that allocates its hidden layer with `aligned_alloc` and frees
it keeps the process RSS (and glibc's count of bytes in use) flat over many calls; a leaking
variant is caught. RSS alone cannot catch it reliably: a long-running process (the whole test
suite) has freed-but-resident heap pages that a leak reuses without growing the RSS."""

from __future__ import annotations

import ctypes
import os

import numpy as np
import pytest

from mlc.runtime import ArgSpec, JitModule, Signature, compile_llvm_ir

# y = relu(x @ w1 + b1) @ w2 with x: (n, 8), w1: (8, 16), b1: (16,), w2: (16, 4); the hidden
# (n, 16) buffer comes from aligned_alloc and is freed before returning.
MLP = """
declare ptr @aligned_alloc(i64, i64)
declare void @free(ptr)

define void @mlp(ptr %x.a, ptr %x, i64 %x.o, i64 %n, i64 %x.k, i64 %x.s0, i64 %x.s1,
                 ptr %w1.a, ptr %w1, i64 %w1.o, i64 %w1.k, i64 %w1.h, i64 %w1.s0, i64 %w1.s1,
                 ptr %b1.a, ptr %b1, i64 %b1.o, i64 %b1.h, i64 %b1.s,
                 ptr %w2.a, ptr %w2, i64 %w2.o, i64 %w2.h, i64 %w2.c, i64 %w2.s0, i64 %w2.s1,
                 ptr %y.a, ptr %y, i64 %y.o, i64 %y.n, i64 %y.c, i64 %y.s0, i64 %y.s1) {
entry:
  %hn = mul i64 %n, 64
  %hb = add i64 %hn, 64
  %h = call ptr @aligned_alloc(i64 64, i64 %hb)
  br label %l1.i
l1.i:
  %i = phi i64 [ 0, %entry ], [ %i.next, %l1.i.end ]
  %i.ok = icmp slt i64 %i, %n
  br i1 %i.ok, label %l1.k.pre, label %l2.pre
l1.k.pre:
  br label %l1.k
l1.k:
  %k = phi i64 [ 0, %l1.k.pre ], [ %k.next, %l1.k.end ]
  %k.ok = icmp slt i64 %k, 16
  br i1 %k.ok, label %l1.kb, label %l1.i.end
l1.kb:
  %pb = getelementptr float, ptr %b1, i64 %k
  %bk = load float, ptr %pb, align 4
  br label %l1.j
l1.j:
  %j = phi i64 [ 0, %l1.kb ], [ %j.next, %l1.jb ]
  %acc = phi float [ %bk, %l1.kb ], [ %acc.next, %l1.jb ]
  %j.ok = icmp slt i64 %j, 8
  br i1 %j.ok, label %l1.jb, label %l1.k.end
l1.jb:
  %xi = mul i64 %i, 8
  %xij = add i64 %xi, %j
  %px = getelementptr float, ptr %x, i64 %xij
  %xv = load float, ptr %px, align 4
  %wj = mul i64 %j, 16
  %wjk = add i64 %wj, %k
  %pw = getelementptr float, ptr %w1, i64 %wjk
  %wv = load float, ptr %pw, align 4
  %prod = fmul float %xv, %wv
  %acc.next = fadd float %acc, %prod
  %j.next = add i64 %j, 1
  br label %l1.j
l1.k.end:
  %pos = fcmp ogt float %acc, 0.0
  %relu = select i1 %pos, float %acc, float 0.0
  %hi = mul i64 %i, 16
  %hik = add i64 %hi, %k
  %ph = getelementptr float, ptr %h, i64 %hik
  store float %relu, ptr %ph, align 4
  %k.next = add i64 %k, 1
  br label %l1.k
l1.i.end:
  %i.next = add i64 %i, 1
  br label %l1.i
l2.pre:
  br label %l2.i
l2.i:
  %i2 = phi i64 [ 0, %l2.pre ], [ %i2.next, %l2.i.end ]
  %i2.ok = icmp slt i64 %i2, %n
  br i1 %i2.ok, label %l2.c.pre, label %exit
l2.c.pre:
  br label %l2.c
l2.c:
  %c = phi i64 [ 0, %l2.c.pre ], [ %c.next, %l2.c.end ]
  %c.ok = icmp slt i64 %c, 4
  br i1 %c.ok, label %l2.k.pre, label %l2.i.end
l2.k.pre:
  br label %l2.k
l2.k:
  %k2 = phi i64 [ 0, %l2.k.pre ], [ %k2.next, %l2.kb ]
  %acc2 = phi float [ 0.0, %l2.k.pre ], [ %acc2.next, %l2.kb ]
  %k2.ok = icmp slt i64 %k2, 16
  br i1 %k2.ok, label %l2.kb, label %l2.c.end
l2.kb:
  %hi2 = mul i64 %i2, 16
  %hik2 = add i64 %hi2, %k2
  %ph2 = getelementptr float, ptr %h, i64 %hik2
  %hv = load float, ptr %ph2, align 4
  %wk = mul i64 %k2, 4
  %wkc = add i64 %wk, %c
  %pw2 = getelementptr float, ptr %w2, i64 %wkc
  %wv2 = load float, ptr %pw2, align 4
  %p2 = fmul float %hv, %wv2
  %acc2.next = fadd float %acc2, %p2
  %k2.next = add i64 %k2, 1
  br label %l2.k
l2.c.end:
  %yi = mul i64 %i2, 4
  %yic = add i64 %yi, %c
  %py = getelementptr float, ptr %y, i64 %yic
  store float %acc2, ptr %py, align 4
  %c.next = add i64 %c, 1
  br label %l2.c
l2.i.end:
  %i2.next = add i64 %i2, 1
  br label %l2.i
exit:
  call void @free(ptr %h)
  ret void
}
"""

MLP_SIG = Signature(
    inputs=[
        ArgSpec("x", "f32", ("n", 8)),
        ArgSpec("w1", "f32", (8, 16)),
        ArgSpec("b1", "f32", (16,)),
        ArgSpec("w2", "f32", (16, 4)),
    ],
    outputs=[ArgSpec("y", "f32", ("n", 4))],
)

BATCH = 1024  # a 64 KiB hidden buffer per call
CALLS = 2000  # the figure is 10,000 (bench/jit_overhead.py --rss); 2,000 keeps CI fast
BOUND = 4 << 20  # bytes of RSS growth allowed over CALLS calls; a leak of the buffer is 125 MiB


def rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks")
        + ("uordblks", "fordblks", "keepcost")
    ]


def _mallinfo2() -> object:
    try:
        fn = ctypes.CDLL(None).mallinfo2  # glibc >= 2.33
    except AttributeError:
        return None
    fn.restype = _MallInfo2
    return fn


_MALLINFO2 = _mallinfo2()


def heap_in_use() -> int:
    """Bytes malloc has handed out and not taken back (glibc's mallinfo2)."""
    info = _MALLINFO2()  # type: ignore[misc, operator]
    return info.uordblks + info.hblkhd


def inputs(batch: int) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(0)
    shapes = [(batch, 8), (8, 16), (16,), (16, 4)]
    return tuple(rng.standard_normal(s).astype(np.float32) for s in shapes)


def reference(x: np.ndarray, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray) -> np.ndarray:
    return np.maximum(x @ w1 + b1, 0) @ w2


@pytest.fixture(scope="module")
def mlp() -> JitModule:
    return compile_llvm_ir(MLP, {"mlp": MLP_SIG})


def growth(fn: object, args: tuple, calls: int, measure: object = rss, warmup: int = 200) -> int:
    for _ in range(warmup):  # allocator arenas, NumPy's caches
        fn(*args)  # type: ignore[operator]
    before = measure()  # type: ignore[operator]
    for _ in range(calls):
        fn(*args)  # type: ignore[operator]
    return measure() - before  # type: ignore[operator]


pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc")


def test_mlp_numerics(mlp: JitModule) -> None:
    for batch in (1, 5, 64):
        args = inputs(batch)
        np.testing.assert_allclose(mlp.mlp(*args), reference(*args), rtol=1e-5, atol=1e-5)
    # The allocation survived optimization: the test below measures real malloc/free traffic.
    body = mlp.llvm_ir_optimized.split("define void @mlp(")[1]
    assert "@aligned_alloc(" in body and "@free(" in body


def test_rss_flat_over_many_calls(mlp: JitModule) -> None:
    args = inputs(BATCH)
    grew = growth(mlp.mlp, args, CALLS)
    assert grew < BOUND, f"RSS grew by {grew / 2**20:.1f} MiB over {CALLS} calls"


@pytest.mark.skipif(_MALLINFO2 is None, reason="needs glibc's mallinfo2")
def test_heap_flat_over_many_calls(mlp: JitModule) -> None:
    grew = growth(mlp.mlp, inputs(BATCH), CALLS, heap_in_use)
    assert grew < BOUND, f"the heap grew by {grew / 2**20:.1f} MiB over {CALLS} calls"


@pytest.mark.skipif(_MALLINFO2 is None, reason="needs glibc's mallinfo2")
def test_heap_measure_catches_a_leak() -> None:
    leaky = compile_llvm_ir(MLP.replace("  call void @free(ptr %h)\n", ""), {"mlp": MLP_SIG})
    grew = growth(leaky.mlp, inputs(BATCH), 100, heap_in_use, warmup=10)
    assert grew >= 100 * (BATCH * 64 + 64)  # every call leaks its hidden buffer
