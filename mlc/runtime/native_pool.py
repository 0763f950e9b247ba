"""The native thread pool behind `mlc_parallel_for`: the same contract as the Python pool of
`mlc.runtime.parallel`, without a Python callback, a queue or the GIL on the way.

    void mlc_parallel_for(ptr body, ptr ctx, i64 lower, i64 upper, i64 step)
    void mlc_pool_set_threads(i64 n)    ; the calling thread's width (0: the process default)
    i64  mlc_pool_take_error()          ; the calling thread's last error (0: none), cleared
    void mlc_pool_reset()               ; (re)initialize: at load, and in a forked child

A region splits its iterations into `min(threads, trips)` chunks exactly as `chunk_bounds`
does. Chunk 0 runs on the caller; every other chunk is claimed once, by an atomic counter, by a
pool worker or by the caller once it is done with its own (so a worker that wakes late costs no
wait). The caller returns when every chunk has finished: the chunks share `ctx`, which lives in
the caller's frame. A call made inside a region (nested parallelism, on a worker or on the
caller) or while another thread's region holds the pool runs the whole range inline: a
parallel loop's iterations are independent, so the result does not depend on the split.

Workers are detached pthreads created on demand (up to the widest region asked for), sleeping
on a condition variable between regions after a spin (about 250 us on the Zen 3 VM) that
yields the CPU every few microseconds (`sched_yield`). Per-thread state (inside a region,
the width, the last error) lives in pthread keys. The code is part of the runtime's support
module (`mlc.runtime.support`), JIT-compiled once per process and kept alive for the process.
"""

from __future__ import annotations

import ctypes
import os
import threading
from typing import Any

from mlc.runtime import support

__all__ = ["NativePool", "load"]

# Sizes reserved for a pthread_mutex_t / pthread_cond_t (glibc x86-64: 40 and 48 bytes; the
# largest of the common C libraries is 64): generous, 64-byte aligned.
_SYNC_BYTES = 256
# Iterations of the spin (each a `pause` on x86, 30 ns on the Zen 3 VM: about 250 us there)
# before a waiting thread blocks. A worker that blocked between two calls costs the next region
# a futex wake: 256^3 at 2 threads, back to back (25-45 us apart), with 1024 steps (31 us) the
# caller's chunk started 8-10 us and the worker's 16-20 us after the region's start, with 8192
# 0.3 and 0.5 us: the region took 258 us instead of 279-284 (medians of 90-180 calls, threads
# at real-time priority so that other jobs did not take the cores; `mlc_pool_spin` set between
# blocks of calls of one process). Settable at run time: `NativePool.set_spin`.
SPIN = 8192
# Spin steps between two `sched_yield` calls of a waiting thread, so that a long spin gives its
# core to whoever else wants it (another process, or the caller when both share a core on a busy
# machine). Without it the longer spin lost under load (the 256^3 case above, load 2, normal
# priority, medians of 180 calls in two runs: 1024 steps 504 / 532 us, 8192 without yields 702 /
# 751 us, 8192 yielding every 64 steps 428 / 449 us).
YIELD_EVERY = 64

_IR = r"""
@mlc_pool_key_depth = global i32 0
@mlc_pool_key_threads = global i32 0
@mlc_pool_key_error = global i32 0
@mlc_pool_error_flag = global i64 0, align 64
@mlc_pool_entries = global i64 0, align 64
@mlc_pool_error_step = global i64 0
@mlc_pool_error_threads = global i64 0
@mlc_pool_default_threads = global i64 1
@mlc_pool_mutex = global [{sync} x i8] zeroinitializer, align 64
@mlc_pool_cv_work = global [{sync} x i8] zeroinitializer, align 64
@mlc_pool_cv_done = global [{sync} x i8] zeroinitializer, align 64
@mlc_pool_busy = global i32 0, align 64
@mlc_pool_gen = global i64 0, align 64
@mlc_pool_active = global i64 0
@mlc_pool_nworkers = global i64 0
@mlc_pool_body = global ptr null, align 64
@mlc_pool_ctx = global ptr null
@mlc_pool_lo = global i64 0
@mlc_pool_up = global i64 0
@mlc_pool_step = global i64 0
@mlc_pool_n = global i64 0
@mlc_pool_q = global i64 0
@mlc_pool_r = global i64 0
@mlc_pool_next = global i64 0, align 64
@mlc_pool_finished = global i64 0, align 64
@mlc_pool_spin = global i64 {spin}
@mlc_pool_yield = global i64 {yield_every}

declare i32 @pthread_mutex_init(ptr, ptr)
declare i32 @pthread_cond_init(ptr, ptr)
declare i32 @pthread_mutex_lock(ptr)
declare i32 @sched_yield()
declare i32 @pthread_mutex_unlock(ptr)
declare i32 @pthread_cond_wait(ptr, ptr)
declare i32 @pthread_cond_broadcast(ptr)
declare i32 @pthread_create(ptr, ptr, ptr, ptr)
declare i32 @pthread_detach(i64)
declare ptr @pthread_getspecific(i32)
declare i32 @pthread_setspecific(i32, ptr)
{pause_decl}

define internal void @relax() {{
entry:
  {pause_call}
  ret void
}}

; One step of a spin-wait: a `pause`, and every @mlc_pool_yield-th step the CPU offered to
; whatever else is runnable on it (another process, or the other side of this wait when both
; share a core), so that a waiting thread does not hold a core someone needs.
define internal void @backoff(i64 %i) {{
entry:
  call void @relax()
  %every = load atomic i64, ptr @mlc_pool_yield monotonic, align 8
  %on = icmp sgt i64 %every, 0
  br i1 %on, label %count, label %done
count:
  %r = urem i64 %i, %every
  %due = icmp eq i64 %r, 0
  br i1 %due, label %yield, label %done
yield:
  %y = call i32 @sched_yield()
  br label %done
done:
  ret void
}}

define internal i64 @key_get(ptr %keyp) {{
entry:
  %k = load i32, ptr %keyp
  %p = call ptr @pthread_getspecific(i32 %k)
  %v = ptrtoint ptr %p to i64
  ret i64 %v
}}

define internal void @key_set(ptr %keyp, i64 %v) {{
entry:
  %k = load i32, ptr %keyp
  %p = inttoptr i64 %v to ptr
  %rc = call i32 @pthread_setspecific(i32 %k, ptr %p)
  ret void
}}

define void @mlc_pool_set_threads(i64 %n) {{
entry:
  call void @key_set(ptr @mlc_pool_key_threads, i64 %n)
  ret void
}}

define i64 @mlc_pool_take_error() {{
entry:
  %e = call i64 @key_get(ptr @mlc_pool_key_error)
  call void @key_set(ptr @mlc_pool_key_error, i64 0)
  ret i64 %e
}}

define void @mlc_pool_reset() {{
entry:
  %a = call i32 @pthread_mutex_init(ptr @mlc_pool_mutex, ptr null)
  %b = call i32 @pthread_cond_init(ptr @mlc_pool_cv_work, ptr null)
  %c = call i32 @pthread_cond_init(ptr @mlc_pool_cv_done, ptr null)
  store atomic i32 0, ptr @mlc_pool_busy seq_cst, align 4
  store atomic i64 0, ptr @mlc_pool_active seq_cst, align 8
  store atomic i64 0, ptr @mlc_pool_nworkers seq_cst, align 8
  ret void
}}

; Chunk k of the current region: [lo + start(k)*step, lo + start(k+1)*step), the last one ending
; at `up`, with start(k) = k*q + min(k, r) (q, r = divmod(trips, n)): `chunk_bounds`' split.
define internal void @run_chunk(i64 %k) {{
entry:
  %lo = load atomic i64, ptr @mlc_pool_lo monotonic, align 8
  %up = load atomic i64, ptr @mlc_pool_up monotonic, align 8
  %step = load atomic i64, ptr @mlc_pool_step monotonic, align 8
  %n = load atomic i64, ptr @mlc_pool_n monotonic, align 8
  %q = load atomic i64, ptr @mlc_pool_q monotonic, align 8
  %r = load atomic i64, ptr @mlc_pool_r monotonic, align 8
  %body = load atomic ptr, ptr @mlc_pool_body monotonic, align 8
  %ctx = load atomic ptr, ptr @mlc_pool_ctx monotonic, align 8
  %kq = mul i64 %k, %q
  %klt = icmp slt i64 %k, %r
  %kmin = select i1 %klt, i64 %k, i64 %r
  %s0 = add i64 %kq, %kmin
  %k1 = add i64 %k, 1
  %k1q = mul i64 %k1, %q
  %k1lt = icmp slt i64 %k1, %r
  %k1min = select i1 %k1lt, i64 %k1, i64 %r
  %s1 = add i64 %k1q, %k1min
  %o0 = mul i64 %s0, %step
  %begin = add i64 %lo, %o0
  %o1 = mul i64 %s1, %step
  %end0 = add i64 %lo, %o1
  %last = icmp eq i64 %k1, %n
  %end = select i1 %last, i64 %up, i64 %end0
  call void %body(i64 %begin, i64 %end, ptr %ctx)
  ret void
}}

; Claim and run chunks of the current region until none is left; whoever finishes the last one
; wakes the threads waiting for the region's end.
define internal void @claim_chunks() {{
entry:
  br label %loop
loop:
  %k = atomicrmw add ptr @mlc_pool_next, i64 1 acq_rel
  %n = load atomic i64, ptr @mlc_pool_n monotonic, align 8
  %more = icmp slt i64 %k, %n
  br i1 %more, label %run, label %done
run:
  call void @run_chunk(i64 %k)
  %f = atomicrmw add ptr @mlc_pool_finished, i64 1 acq_rel
  %f1 = add i64 %f, 1
  %all = icmp eq i64 %f1, %n
  br i1 %all, label %wake, label %loop
wake:
  %l = call i32 @pthread_mutex_lock(ptr @mlc_pool_mutex)
  %b = call i32 @pthread_cond_broadcast(ptr @mlc_pool_cv_done)
  %u = call i32 @pthread_mutex_unlock(ptr @mlc_pool_mutex)
  br label %loop
done:
  ret void
}}

define internal ptr @worker(ptr %arg) {{
entry:
  call void @key_set(ptr @mlc_pool_key_depth, i64 1)
  %l0 = call i32 @pthread_mutex_lock(ptr @mlc_pool_mutex)
  br label %check
check:
  %seen = phi i64 [ 0, %entry ], [ %seen, %sleep ], [ %g, %relock ]
  %g = load atomic i64, ptr @mlc_pool_gen monotonic, align 8
  %new = icmp ne i64 %g, %seen
  br i1 %new, label %go, label %sleep
sleep:
  %w = call i32 @pthread_cond_wait(ptr @mlc_pool_cv_work, ptr @mlc_pool_mutex)
  br label %check
go:
  %a = load atomic i64, ptr @mlc_pool_active monotonic, align 8
  %a1 = add i64 %a, 1
  store atomic i64 %a1, ptr @mlc_pool_active monotonic, align 8
  %u0 = call i32 @pthread_mutex_unlock(ptr @mlc_pool_mutex)
  call void @claim_chunks()
  %l1 = call i32 @pthread_mutex_lock(ptr @mlc_pool_mutex)
  %b = load atomic i64, ptr @mlc_pool_active monotonic, align 8
  %b1 = sub i64 %b, 1
  store atomic i64 %b1, ptr @mlc_pool_active monotonic, align 8
  %idle = icmp eq i64 %b1, 0
  br i1 %idle, label %signal, label %spin_start
signal:
  %s = call i32 @pthread_cond_broadcast(ptr @mlc_pool_cv_done)
  br label %spin_start
spin_start:
  %u1 = call i32 @pthread_mutex_unlock(ptr @mlc_pool_mutex)
  br label %spin
spin:
  %i = phi i64 [ 0, %spin_start ], [ %i1, %spin_more ]
  %g2 = load atomic i64, ptr @mlc_pool_gen monotonic, align 8
  %moved = icmp ne i64 %g2, %g
  br i1 %moved, label %relock, label %spin_more
spin_more:
  %i1 = add i64 %i, 1
  call void @backoff(i64 %i1)
  %limit = load atomic i64, ptr @mlc_pool_spin monotonic, align 8
  %again = icmp ult i64 %i1, %limit
  br i1 %again, label %spin, label %relock
relock:
  %l2 = call i32 @pthread_mutex_lock(ptr @mlc_pool_mutex)
  br label %check
}}

define void @mlc_parallel_for(ptr %body, ptr %ctx, i64 %lo, i64 %up, i64 %step) {{
entry:
  %tid = alloca i64, align 8
  %calls = atomicrmw add ptr @mlc_pool_entries, i64 1 monotonic
  %bad = icmp sle i64 %step, 0
  br i1 %bad, label %error, label %ok
error:
  %te = call i64 @key_get(ptr @mlc_pool_key_threads)
  store atomic i64 %step, ptr @mlc_pool_error_step monotonic, align 8
  store atomic i64 %te, ptr @mlc_pool_error_threads monotonic, align 8
  call void @key_set(ptr @mlc_pool_key_error, i64 1)
  store atomic i64 1, ptr @mlc_pool_error_flag seq_cst, align 8
  ret void
ok:
  %empty = icmp sle i64 %up, %lo
  br i1 %empty, label %return, label %count
count:
  %span = sub i64 %up, %lo
  %span1 = add i64 %span, %step
  %span2 = sub i64 %span1, 1
  %trips = sdiv i64 %span2, %step
  %depth = call i64 @key_get(ptr @mlc_pool_key_depth)
  %t0 = call i64 @key_get(ptr @mlc_pool_key_threads)
  %tdef = load atomic i64, ptr @mlc_pool_default_threads monotonic, align 8
  %tz = icmp sle i64 %t0, 0
  %t = select i1 %tz, i64 %tdef, i64 %t0
  %tl = icmp slt i64 %trips, %t
  %n0 = select i1 %tl, i64 %trips, i64 %t
  %nested = icmp ne i64 %depth, 0
  %n = select i1 %nested, i64 1, i64 %n0
  %solo = icmp sle i64 %n, 1
  br i1 %solo, label %inline, label %take
inline:
  call void @key_set(ptr @mlc_pool_key_depth, i64 1)
  call void %body(i64 %lo, i64 %up, ptr %ctx)
  call void @key_set(ptr @mlc_pool_key_depth, i64 %depth)
  br label %return
take:
  %cx = cmpxchg ptr @mlc_pool_busy, i32 0, i32 1 acq_rel monotonic
  %got = extractvalue {{ i32, i1 }} %cx, 1
  br i1 %got, label %spawn, label %inline
spawn:
  %have = load atomic i64, ptr @mlc_pool_nworkers monotonic, align 8
  %want = sub i64 %n, 1
  %enough = icmp sge i64 %have, %want
  br i1 %enough, label %start, label %create
create:
  %rc = call i32 @pthread_create(ptr %tid, ptr null, ptr @worker, ptr null)
  %failed = icmp ne i32 %rc, 0
  br i1 %failed, label %start, label %created
created:
  %tv = load i64, ptr %tid, align 8
  %dr = call i32 @pthread_detach(i64 %tv)
  %have1 = add i64 %have, 1
  store atomic i64 %have1, ptr @mlc_pool_nworkers monotonic, align 8
  br label %spawn
start:
  %hw = load atomic i64, ptr @mlc_pool_nworkers monotonic, align 8
  %noworker = icmp eq i64 %hw, 0
  br i1 %noworker, label %give_back, label %region
give_back:
  store atomic i32 0, ptr @mlc_pool_busy release, align 4
  br label %inline
region:
  %l0 = call i32 @pthread_mutex_lock(ptr @mlc_pool_mutex)
  br label %idle
idle:
  %act = load atomic i64, ptr @mlc_pool_active monotonic, align 8
  %stale = icmp ne i64 %act, 0
  br i1 %stale, label %wait_idle, label %setup
wait_idle:
  %wi = call i32 @pthread_cond_wait(ptr @mlc_pool_cv_done, ptr @mlc_pool_mutex)
  br label %idle
setup:
  %q = sdiv i64 %trips, %n
  %r = srem i64 %trips, %n
  store atomic ptr %body, ptr @mlc_pool_body monotonic, align 8
  store atomic ptr %ctx, ptr @mlc_pool_ctx monotonic, align 8
  store atomic i64 %lo, ptr @mlc_pool_lo monotonic, align 8
  store atomic i64 %up, ptr @mlc_pool_up monotonic, align 8
  store atomic i64 %step, ptr @mlc_pool_step monotonic, align 8
  store atomic i64 %n, ptr @mlc_pool_n monotonic, align 8
  store atomic i64 %q, ptr @mlc_pool_q monotonic, align 8
  store atomic i64 %r, ptr @mlc_pool_r monotonic, align 8
  store atomic i64 0, ptr @mlc_pool_finished seq_cst, align 8
  store atomic i64 1, ptr @mlc_pool_next seq_cst, align 8
  %gen = load atomic i64, ptr @mlc_pool_gen monotonic, align 8
  %gen1 = add i64 %gen, 1
  store atomic i64 %gen1, ptr @mlc_pool_gen seq_cst, align 8
  %bc = call i32 @pthread_cond_broadcast(ptr @mlc_pool_cv_work)
  %u0 = call i32 @pthread_mutex_unlock(ptr @mlc_pool_mutex)
  call void @key_set(ptr @mlc_pool_key_depth, i64 1)
  call void @run_chunk(i64 0)
  %f0 = atomicrmw add ptr @mlc_pool_finished, i64 1 acq_rel
  call void @claim_chunks()
  br label %spin
spin:
  %i = phi i64 [ 0, %setup ], [ %i1, %spin_more ]
  %fin = load atomic i64, ptr @mlc_pool_finished acquire, align 8
  %done = icmp eq i64 %fin, %n
  br i1 %done, label %finish, label %spin_more
spin_more:
  %i1 = add i64 %i, 1
  call void @backoff(i64 %i1)
  %limit = load atomic i64, ptr @mlc_pool_spin monotonic, align 8
  %again = icmp ult i64 %i1, %limit
  br i1 %again, label %spin, label %block
block:
  %l1 = call i32 @pthread_mutex_lock(ptr @mlc_pool_mutex)
  br label %block_check
block_check:
  %fin2 = load atomic i64, ptr @mlc_pool_finished acquire, align 8
  %done2 = icmp eq i64 %fin2, %n
  br i1 %done2, label %block_done, label %block_wait
block_wait:
  %bw = call i32 @pthread_cond_wait(ptr @mlc_pool_cv_done, ptr @mlc_pool_mutex)
  br label %block_check
block_done:
  %u1 = call i32 @pthread_mutex_unlock(ptr @mlc_pool_mutex)
  br label %finish
finish:
  call void @key_set(ptr @mlc_pool_key_depth, i64 %depth)
  store atomic i32 0, ptr @mlc_pool_busy release, align 4
  br label %return
return:
  ret void
}}
"""


class NativePool:
    """The JIT-compiled pool of a process: entry address and the Python side's controls."""

    __slots__ = (
        "_engine", "address", "_entries", "_error_flag", "_set_threads", "_take_error", "_reset"
    )  # fmt: skip

    def __init__(self, engine: Any) -> None:
        self._engine = engine  # its code must live as long as the process
        fn = engine.get_function_address
        self.address: int = fn("mlc_parallel_for")
        self._error_flag = ctypes.c_int64.from_address(
            engine.get_global_value_address("mlc_pool_error_flag")
        )
        self._entries = ctypes.c_int64.from_address(
            engine.get_global_value_address("mlc_pool_entries")
        )
        self._set_threads = ctypes.CFUNCTYPE(None, ctypes.c_int64)(fn("mlc_pool_set_threads"))
        self._take_error = ctypes.CFUNCTYPE(ctypes.c_int64)(fn("mlc_pool_take_error"))
        self._reset = ctypes.CFUNCTYPE(None)(fn("mlc_pool_reset"))

    def entries(self) -> int:
        """The number of `mlc_parallel_for` calls so far (every thread, inline ones too)."""
        return self._entries.value

    def set_threads(self, n: int) -> None:
        """The calling thread's region width from now on (0: the process default)."""
        self._set_threads(n)

    def set_default_threads(self, n: int) -> None:
        """The width of regions entered by a thread that never set its own."""
        ctypes.c_int64.from_address(
            self._engine.get_global_value_address("mlc_pool_default_threads")
        ).value = n

    def set_spin(self, n: int) -> None:
        """Pause iterations a thread spins before it blocks (workers between regions, the
        caller waiting for the region's end)."""
        self._set_global("mlc_pool_spin", n)

    def set_yield(self, n: int) -> None:
        """Spin steps between `sched_yield` calls of a waiting thread (0: never)."""
        self._set_global("mlc_pool_yield", n)

    def _set_global(self, name: str, n: int) -> None:
        ctypes.c_int64.from_address(self._engine.get_global_value_address(name)).value = n

    def take_error(self) -> BaseException | None:
        """The error of the calling thread's last region, if any (cleared)."""
        if not self._error_flag.value or not self._take_error():
            return None
        g = self._engine.get_global_value_address
        step = ctypes.c_int64.from_address(g("mlc_pool_error_step")).value
        threads = ctypes.c_int64.from_address(g("mlc_pool_error_threads")).value
        return ValueError(
            f"parallel loop step and thread count must be positive, got {step}, {threads}"
        )

    def after_fork(self) -> None:
        """In a forked child: no worker survived fork(); start over with an empty pool."""
        self._reset()


def _ir() -> str | None:
    if os.environ.get("MLC_NATIVE_POOL", "").strip() == "0":
        return None
    import llvmlite.binding as llvm

    x86 = llvm.get_process_triple().startswith(("x86_64", "i386", "i686"))
    return _IR.format(
        sync=_SYNC_BYTES,
        spin=SPIN,
        yield_every=YIELD_EVERY,
        pause_decl="declare void @llvm.x86.sse2.pause()" if x86 else "",
        pause_call="call void @llvm.x86.sse2.pause()" if x86 else "",
    )


support.register("native_pool", _ir)

_lock = threading.Lock()
_state: dict[str, NativePool | None] = {}


def load() -> NativePool | None:
    """The process's native pool, from the runtime's support module (`mlc.runtime.support`,
    compiled on first use; the JIT's target must be initialized); None when `MLC_NATIVE_POOL=0`
    held when that module was built, or when the pool cannot start here (the Python pool is
    used)."""
    with _lock:
        if "pool" in _state:
            return _state["pool"]
        pool = None
        if support.built_with("native_pool"):
            try:
                pool = _attach(support.engine())
            except OSError:  # no pthread keys left: the Python pool still works
                pool = None
        _state["pool"] = pool
        return pool


def _attach(engine: Any) -> NativePool:
    libc = ctypes.CDLL(None)
    for name in ("mlc_pool_key_depth", "mlc_pool_key_threads", "mlc_pool_key_error"):
        key = ctypes.c_uint(0)
        if libc.pthread_key_create(ctypes.byref(key), None) != 0:
            raise OSError("pthread_key_create failed")
        ctypes.c_uint.from_address(engine.get_global_value_address(name)).value = key.value
    pool = NativePool(engine)
    pool.after_fork()  # the first initialization of the mutex and condition variables
    return pool
