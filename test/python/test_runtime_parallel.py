"""mlc.runtime parallel loops: outlined bodies run by `mlc_parallel_for` over the thread pool, with
deterministic chunks, the same results for any thread count, nested loops run inline."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable

import numpy as np
import pytest

from mlc.runtime import ArgSpec, JITError, JitModule, Signature, chunk_bounds, compile_llvm_ir
from mlc.runtime.parallel import default_threads

# par(x, lo, step) -> (y, cnt, tid): for i in range(lo, n, step) in parallel:
#   y[i] = 2 * x[i]; cnt[i] += 1; tid[i] = pthread_self()       (all three zeroed first)
PAR = """
%ctx = type { ptr, ptr, ptr, ptr, i64 }

declare void @mlc_parallel_for(ptr, ptr, i64, i64, i64)
declare i64 @pthread_self()
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

define internal void @par.body(i64 %begin, i64 %end, ptr %c) {
entry:
  %x.p = getelementptr inbounds %ctx, ptr %c, i32 0, i32 0
  %x = load ptr, ptr %x.p
  %y.p = getelementptr inbounds %ctx, ptr %c, i32 0, i32 1
  %y = load ptr, ptr %y.p
  %cnt.p = getelementptr inbounds %ctx, ptr %c, i32 0, i32 2
  %cnt = load ptr, ptr %cnt.p
  %tid.p = getelementptr inbounds %ctx, ptr %c, i32 0, i32 3
  %tid = load ptr, ptr %tid.p
  %step.p = getelementptr inbounds %ctx, ptr %c, i32 0, i32 4
  %step = load i64, ptr %step.p
  %self = call i64 @pthread_self()
  br label %loop
loop:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %body ]
  %ok = icmp slt i64 %i, %end
  br i1 %ok, label %body, label %exit
body:
  %px = getelementptr float, ptr %x, i64 %i
  %v = load float, ptr %px, align 4
  %v2 = fmul float %v, 2.0
  %py = getelementptr float, ptr %y, i64 %i
  store float %v2, ptr %py, align 4
  %pc = getelementptr i32, ptr %cnt, i64 %i
  %cv = load i32, ptr %pc, align 4
  %cv1 = add i32 %cv, 1
  store i32 %cv1, ptr %pc, align 4
  %pt = getelementptr i64, ptr %tid, i64 %i
  store i64 %self, ptr %pt, align 8
  %i.next = add i64 %i, %step
  br label %loop
exit:
  ret void
}

define void @par(ptr %x.a, ptr %x, i64 %x.o, i64 %n, i64 %x.s, i64 %lo, i64 %step,
                 ptr %y.a, ptr %y, i64 %y.o, i64 %y.n, i64 %y.s,
                 ptr %c.a, ptr %cnt, i64 %c.o, i64 %c.n, i64 %c.s,
                 ptr %t.a, ptr %tid, i64 %t.o, i64 %t.n, i64 %t.s) {
entry:
  %b4 = mul i64 %n, 4
  %b8 = mul i64 %n, 8
  call void @llvm.memset.p0.i64(ptr %y, i8 0, i64 %b4, i1 false)
  call void @llvm.memset.p0.i64(ptr %cnt, i8 0, i64 %b4, i1 false)
  call void @llvm.memset.p0.i64(ptr %tid, i8 0, i64 %b8, i1 false)
  %c = alloca %ctx, align 8
  %f0 = getelementptr inbounds %ctx, ptr %c, i32 0, i32 0
  store ptr %x, ptr %f0
  %f1 = getelementptr inbounds %ctx, ptr %c, i32 0, i32 1
  store ptr %y, ptr %f1
  %f2 = getelementptr inbounds %ctx, ptr %c, i32 0, i32 2
  store ptr %cnt, ptr %f2
  %f3 = getelementptr inbounds %ctx, ptr %c, i32 0, i32 3
  store ptr %tid, ptr %f3
  %f4 = getelementptr inbounds %ctx, ptr %c, i32 0, i32 4
  store i64 %step, ptr %f4
  call void @mlc_parallel_for(ptr @par.body, ptr %c, i64 %lo, i64 %n, i64 %step)
  ret void
}
"""

PAR_SIG = Signature(
    inputs=[ArgSpec("x", "f32", ("n",)), ArgSpec("lo", "i64"), ArgSpec("step", "i64")],
    outputs=[
        ArgSpec("y", "f32", ("n",)),
        ArgSpec("cnt", "i32", ("n",)),
        ArgSpec("tid", "ui64", ("n",)),
    ],
)

# nested(x) -> (y, tid): rows in parallel; each row's columns by a nested mlc_parallel_for.
NESTED = """
%outer = type { ptr, ptr, ptr, i64 }
%inner = type { ptr, ptr, ptr }

declare void @mlc_parallel_for(ptr, ptr, i64, i64, i64)
declare i64 @pthread_self()

define internal void @inner.body(i64 %begin, i64 %end, ptr %c) {
entry:
  %xr.p = getelementptr inbounds %inner, ptr %c, i32 0, i32 0
  %xr = load ptr, ptr %xr.p
  %yr.p = getelementptr inbounds %inner, ptr %c, i32 0, i32 1
  %yr = load ptr, ptr %yr.p
  %tr.p = getelementptr inbounds %inner, ptr %c, i32 0, i32 2
  %tr = load ptr, ptr %tr.p
  %self = call i64 @pthread_self()
  br label %loop
loop:
  %j = phi i64 [ %begin, %entry ], [ %j.next, %body ]
  %ok = icmp slt i64 %j, %end
  br i1 %ok, label %body, label %exit
body:
  %px = getelementptr float, ptr %xr, i64 %j
  %v = load float, ptr %px, align 4
  %v1 = fadd float %v, 1.0
  %py = getelementptr float, ptr %yr, i64 %j
  store float %v1, ptr %py, align 4
  %pt = getelementptr i64, ptr %tr, i64 %j
  store i64 %self, ptr %pt, align 8
  %j.next = add i64 %j, 1
  br label %loop
exit:
  ret void
}

define internal void @outer.body(i64 %begin, i64 %end, ptr %c) {
entry:
  %ic = alloca %inner, align 8
  %x.p = getelementptr inbounds %outer, ptr %c, i32 0, i32 0
  %x = load ptr, ptr %x.p
  %y.p = getelementptr inbounds %outer, ptr %c, i32 0, i32 1
  %y = load ptr, ptr %y.p
  %t.p = getelementptr inbounds %outer, ptr %c, i32 0, i32 2
  %t = load ptr, ptr %t.p
  %n.p = getelementptr inbounds %outer, ptr %c, i32 0, i32 3
  %n = load i64, ptr %n.p
  br label %loop
loop:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %body ]
  %ok = icmp slt i64 %i, %end
  br i1 %ok, label %body, label %exit
body:
  %row = mul i64 %i, %n
  %xr = getelementptr float, ptr %x, i64 %row
  %yr = getelementptr float, ptr %y, i64 %row
  %tr = getelementptr i64, ptr %t, i64 %row
  %g0 = getelementptr inbounds %inner, ptr %ic, i32 0, i32 0
  store ptr %xr, ptr %g0
  %g1 = getelementptr inbounds %inner, ptr %ic, i32 0, i32 1
  store ptr %yr, ptr %g1
  %g2 = getelementptr inbounds %inner, ptr %ic, i32 0, i32 2
  store ptr %tr, ptr %g2
  call void @mlc_parallel_for(ptr @inner.body, ptr %ic, i64 0, i64 %n, i64 1)
  %i.next = add i64 %i, 1
  br label %loop
exit:
  ret void
}

define void @nested(ptr %x.a, ptr %x, i64 %x.o, i64 %m, i64 %n, i64 %x.s0, i64 %x.s1,
                    ptr %y.a, ptr %y, i64 %y.o, i64 %y.m, i64 %y.n, i64 %y.s0, i64 %y.s1,
                    ptr %t.a, ptr %t, i64 %t.o, i64 %t.m, i64 %t.n, i64 %t.s0, i64 %t.s1) {
entry:
  %c = alloca %outer, align 8
  %f0 = getelementptr inbounds %outer, ptr %c, i32 0, i32 0
  store ptr %x, ptr %f0
  %f1 = getelementptr inbounds %outer, ptr %c, i32 0, i32 1
  store ptr %y, ptr %f1
  %f2 = getelementptr inbounds %outer, ptr %c, i32 0, i32 2
  store ptr %t, ptr %f2
  %f3 = getelementptr inbounds %outer, ptr %c, i32 0, i32 3
  store i64 %n, ptr %f3
  call void @mlc_parallel_for(ptr @outer.body, ptr %c, i64 0, i64 %m, i64 1)
  ret void
}
"""

NESTED_SIG = Signature(
    inputs=[ArgSpec("x", "f32", ("m", "n"))],
    outputs=[ArgSpec("y", "f32", ("m", "n")), ArgSpec("tid", "ui64", ("m", "n"))],
)


@pytest.fixture(scope="module")
def par1() -> JitModule:
    return compile_llvm_ir(PAR, {"par": PAR_SIG}, threads=1)


@pytest.fixture(scope="module")
def par2(par1: JitModule) -> JitModule:
    return compile_llvm_ir(PAR, {"par": PAR_SIG}, threads=2)  # the same engine, 2 threads


@pytest.fixture(scope="module")
def nested() -> JitModule:
    return compile_llvm_ir(NESTED, {"nested": NESTED_SIG}, threads=2)


def _expected(x: np.ndarray, lo: int, step: int) -> tuple[np.ndarray, np.ndarray]:
    y = np.zeros_like(x)
    cnt = np.zeros(x.shape, np.int32)
    y[lo::step] = 2 * x[lo::step]
    cnt[lo::step] = 1
    return y, cnt


@pytest.mark.parametrize("n, lo, step", [(1000, 0, 1), (37, 1, 3), (5, 0, 7), (0, 0, 1), (9, 9, 1)])
def test_same_result_for_any_thread_count(
    par1: JitModule, par2: JitModule, n: int, lo: int, step: int
) -> None:
    assert par1.engine is par2.engine
    x = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    want_y, want_cnt = _expected(x, lo, step)
    for m in (par1, par2):
        y, cnt, _tid = m.par(x, lo, step)
        np.testing.assert_array_equal(y, want_y)
        np.testing.assert_array_equal(cnt, want_cnt)  # every iteration ran exactly once


def test_threads_one_runs_inline(par1: JitModule) -> None:
    _y, cnt, tid = par1.par(np.ones(100, np.float32), 0, 1)
    assert set(tid.tolist()) == {threading.get_ident()}


def _worker_ran(call: Callable[[], np.ndarray], tries: int = 5) -> np.ndarray:
    """The thread ids of a call in which a pool worker ran a chunk: the caller runs the chunks
    no worker has started when it is done with its own, so a worker delayed (a loaded
    machine) may get none; the chunks here are long (4M elements: milliseconds)."""
    me = threading.get_ident()
    for _ in range(tries):
        tid = call()
        if set(tid.tolist()) != {me}:
            return tid
    raise AssertionError("no pool worker ran a chunk in any of the calls")


def test_two_threads_share_the_work(par2: JitModule) -> None:
    n = 1 << 22
    x = np.ones(n, np.float32)
    tid = _worker_ran(lambda: par2.par(x, 0, 1)[2])
    me = threading.get_ident()
    # Chunk 0 (the first half) runs on the caller, chunk 1 on a pool worker.
    assert set(tid[: n // 2].tolist()) == {me}
    assert len(set(tid[n // 2 :].tolist())) == 1 and tid[n // 2] != me


def test_caller_runs_the_chunks_no_worker_started(par2: JitModule) -> None:
    # A short loop: the caller is done with chunk 0 long before a worker wakes up, and takes
    # chunk 1 too (no wait); each chunk still runs on one thread, every iteration once.
    me = threading.get_ident()
    x = np.ones(100, np.float32)
    for _ in range(20):
        _y, cnt, tid = par2.par(x, 0, 1)
        np.testing.assert_array_equal(cnt, np.ones(100, np.int32))
        assert set(tid[:50].tolist()) == {me} and len(set(tid[50:].tolist())) == 1


def test_more_threads_than_iterations() -> None:
    m = compile_llvm_ir(PAR, {"par": PAR_SIG}, threads=8)
    x = np.arange(3, dtype=np.float32)
    y, cnt, tid = m.par(x, 0, 1)
    np.testing.assert_array_equal(cnt, [1, 1, 1])
    # Three one-iteration chunks: the first on the caller, the others on pool workers (or on
    # the caller, when it finishes before they start).
    assert tid[0] == threading.get_ident()


def test_concurrent_callers(par2: JitModule) -> None:
    """Several Python threads calling parallel kernels at once share the pool."""
    errors: list[BaseException] = []

    def work(seed: int) -> None:
        try:
            x = np.random.default_rng(seed).standard_normal(5000).astype(np.float32)
            for _ in range(20):
                y, cnt, _ = par2.par(x, 0, 1)
                np.testing.assert_array_equal(y, 2 * x)
                assert (cnt == 1).all()
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_nested_parallel_loops_run_inline(nested: JitModule) -> None:
    x = np.random.default_rng(0).standard_normal((6, 50)).astype(np.float32)
    y, tid = nested.nested(x)
    np.testing.assert_array_equal(y, x + 1)
    for row in tid:  # the inner loop ran entirely on the thread that ran its row
        assert len(set(row.tolist())) == 1
    assert set(tid[:3, 0].tolist()) == {threading.get_ident()}  # chunk 0 of the rows


def test_chunk_bounds_are_deterministic_and_cover() -> None:
    assert chunk_bounds(0, 10, 1, 3) == [(0, 4), (4, 7), (7, 10)]
    assert chunk_bounds(1, 37, 3, 4) == [(1, 10), (10, 19), (19, 28), (28, 37)]
    assert chunk_bounds(0, 5, 7, 4) == [(0, 5)]
    assert chunk_bounds(5, 5, 1, 2) == [] and chunk_bounds(7, 5, 1, 2) == []
    with pytest.raises(ValueError, match="step and thread count must be positive, got 0, 2"):
        chunk_bounds(0, 5, 0, 2)
    for lower, upper, step, threads in [(0, 100, 1, 7), (3, 101, 5, 4), (-10, 10, 3, 16)]:
        chunks = chunk_bounds(lower, upper, step, threads)
        covered = [i for b, e in chunks for i in range(b, e, step)]
        assert covered == list(range(lower, upper, step))
        sizes = [len(range(b, e, step)) for b, e in chunks]
        assert max(sizes) - min(sizes) <= 1 and len(chunks) == min(threads, len(covered))


def test_thread_count_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MLC_NUM_THREADS", "3")
    assert default_threads() == 3
    assert compile_llvm_ir(PAR, {"par": PAR_SIG}).threads == 3
    assert compile_llvm_ir(PAR, {"par": PAR_SIG}, threads=5).threads == 5  # threads= wins
    for bad in ("0", "two", "-1"):
        monkeypatch.setenv("MLC_NUM_THREADS", bad)
        with pytest.raises(ValueError, match="MLC_NUM_THREADS must be a positive integer"):
            compile_llvm_ir(PAR, {"par": PAR_SIG})
    monkeypatch.delenv("MLC_NUM_THREADS")
    assert default_threads() >= 1


def test_parallel_for_declared_with_the_wrong_type() -> None:
    bad = PAR.replace(
        "declare void @mlc_parallel_for(ptr, ptr, i64, i64, i64)",
        "declare void @mlc_parallel_for(ptr, ptr, i64, i64)",
    )
    bad = bad.replace("i64 %lo, i64 %n, i64 %step)", "i64 %lo, i64 %n)")
    with pytest.raises(
        JITError,
        match=r"mlc_parallel_for is declared as void \(ptr, ptr, i64, i64\), "
        r"expected void \(ptr, ptr, i64, i64, i64\)",
    ):
        JitModule(bad, {"par": PAR_SIG})


def test_non_positive_step_is_an_error(par2: JitModule) -> None:
    """The callback cannot raise into native code: the entry call raises after it returns."""
    with pytest.raises(RuntimeError, match="parallel loop failed: ValueError.*got 0, 2"):
        par2.par(np.ones(4, np.float32), 0, 0)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
def test_forked_child_gets_its_own_pool(par2: JitModule) -> None:
    x = np.ones(100, np.float32)
    par2.par(x, 0, 1)  # the parent's pool has a worker now
    pid = os.fork()
    if pid == 0:  # the child: old module and a fresh compile, both with 2 threads
        code = 3
        try:
            _, cnt, tid = par2.par(x, 0, 1)
            fresh = compile_llvm_ir(PAR + "; child\n", {"par": PAR_SIG}, threads=2)
            big = np.ones(1 << 22, np.float32)
            tid2 = _worker_ran(lambda: fresh.par(big, 0, 1)[2])
            ok = cnt.sum() == 100 and len(set(tid2.tolist())) == 2
            code = 0 if ok else 1
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def test_native_pool_is_the_default(par2: JitModule) -> None:
    from mlc.runtime import parallel

    par2.par(np.ones(8, np.float32), 0, 1)
    assert parallel._NATIVE is not None
    assert parallel.parallel_for_address() == parallel._NATIVE.address


def test_many_short_regions_back_to_back(par2: JitModule, par1: JitModule) -> None:
    """Regions that end before the workers are done waking up, one after the other, with the
    width changing between calls: every iteration runs exactly once in each."""
    rng = np.random.default_rng(7)
    for k in range(1000):
        n = int(rng.integers(0, 70))
        lo, step = int(rng.integers(0, 3)), int(rng.integers(1, 4))
        x = rng.standard_normal(n).astype(np.float32)
        y, cnt, _ = (par2 if k % 7 else par1).par(x, lo, step)
        want_y, want_cnt = _expected(x, lo, step)
        np.testing.assert_array_equal(cnt, want_cnt)
        np.testing.assert_array_equal(y, want_y)


@pytest.mark.parametrize("spin, every", [(0, 0), (1, 1), (64, 0), (300, 7)])
def test_spin_and_yield_settings_keep_every_iteration(
    par2: JitModule, spin: int, every: int
) -> None:
    """Workers that block at once (spin 0), spin briefly, or yield at every step: each region
    still runs every iteration exactly once, the long ones on a worker too."""
    from mlc.runtime import native_pool

    pool = native_pool.load()
    assert pool is not None
    try:
        pool.set_spin(spin)
        pool.set_yield(every)
        rng = np.random.default_rng(spin)
        for k in range(200):
            n = int(rng.integers(0, 70)) if k % 50 else 1 << 20
            x = rng.standard_normal(n).astype(np.float32)
            y, cnt, _ = par2.par(x, 0, 1)
            np.testing.assert_array_equal(cnt, np.ones(n, np.int32))
            np.testing.assert_array_equal(y, 2 * x)
    finally:
        pool.set_spin(native_pool.SPIN)
        pool.set_yield(native_pool.YIELD_EVERY)


def test_python_pool_when_the_native_one_is_off() -> None:
    """MLC_NATIVE_POOL=0: the Python pool runs the regions, with the same results."""
    import subprocess
    import sys

    code = (
        "import numpy as np, threading, sys\n"
        "sys.path.insert(0, %r)\n"
        "from test_runtime_parallel import PAR, PAR_SIG, _worker_ran\n"
        "from mlc.runtime import compile_llvm_ir, parallel\n"
        "m = compile_llvm_ir(PAR, {'par': PAR_SIG}, threads=2)\n"
        "x = np.ones(1 << 22, np.float32)\n"
        "tid = _worker_ran(lambda: m.par(x, 0, 1)[2])\n"
        "y, cnt, _ = m.par(x, 0, 1)\n"
        "assert parallel._NATIVE is None and (cnt == 1).all() and (y == 2).all()\n"
        "assert len(set(tid.tolist())) == 2\n"
    ) % os.path.dirname(__file__)
    env = dict(os.environ, MLC_NATIVE_POOL="0")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_runtime_support_is_one_module(par2: JitModule) -> None:
    """The workspace arena and the native pool are compiled as one support module (one engine
    per process); a part registered after that build is refused."""
    from mlc.runtime import native_pool, support, workspace

    par2.par(np.ones(8, np.float32), 0, 1)
    ee = support.engine()
    assert support.built_with("workspace") and support.built_with("native_pool")
    assert workspace.symbols()[workspace.ACQUIRE] == ee.get_function_address(workspace.ACQUIRE)
    pool = native_pool.load()
    assert pool is not None and pool.address == ee.get_function_address("mlc_parallel_for")
    with pytest.raises(RuntimeError, match="registered after the build"):
        support.register("late", lambda: None)
