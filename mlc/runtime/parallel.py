"""`mlc_parallel_for`: the runtime symbol that JIT-compiled code calls to run an outlined parallel
loop body over a persistent pool of worker threads.

    void mlc_parallel_for(ptr body, ptr ctx, i64 lower, i64 upper, i64 step)
    void body(i64 begin, i64 end, ptr ctx)     ; runs for i = begin; i < end; i += step

The iterations lower, lower+step, ... < upper are split into `min(threads, trip count)` chunks of
consecutive iterations (sizes differ by at most one), a pure function of the arguments and the
thread count, so results never depend on timing. Chunk 0 runs on the calling thread, the others
on pool workers, except that the caller, once done with its chunk, runs the chunks no worker has
started yet itself (a worker that has not woken up by then, on a busy machine or for a small
loop, costs no wait); each chunk's `begin` is `lower + k*step` and its `end` the next chunk's
`begin` (the last is `upper`). A call made while a parallel region runs on the same thread
(nested parallelism) runs the whole range inline. Native bodies run with the GIL released.

Two pools implement it: the native one of `mlc.runtime.native_pool` (the default: JIT-compiled
pthreads code, no Python on the way, a few microseconds per region), which also runs inline a
region entered while another thread's region holds the pool, and the Python pool below (worker
threads fed by a queue, called back through ctypes: tens of microseconds per region), used when
the native one cannot be built or `MLC_NATIVE_POOL=0`.
"""

from __future__ import annotations

import collections
import contextlib
import contextvars
import ctypes
import os
import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

from mlc.runtime import native_pool
from mlc.runtime.native_pool import NativePool

__all__ = [
    "chunk_bounds",
    "default_threads",
    "parallel_calls",
    "parallel_for_address",
    "planned_threads",
    "planning_threads",
    "resolve_threads",
    "take_pending",
]

_BODY_TYPE = ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p)
_ENTRY_TYPE = ctypes.CFUNCTYPE(
    None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64
)


def env_thread_count(var: str) -> int | None:
    """The positive integer in environment variable `var`, None when unset or blank."""
    env = os.environ.get(var, "").strip()
    if not env:
        return None
    try:
        n = int(env)
    except ValueError:
        n = 0
    if n < 1:
        raise ValueError(f"{var} must be a positive integer, got {env!r}")
    return n


def usable_cores() -> int:
    """The number of cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # no affinity API on this platform
        return max(1, os.cpu_count() or 1)


def default_threads() -> int:
    """`MLC_NUM_THREADS` if set, else the number of cores this process may run on."""
    n = env_thread_count("MLC_NUM_THREADS")
    return usable_cores() if n is None else n


def check_thread_count(name: str, value: int | None, default: Callable[[], int]) -> int:
    """`value` checked (a positive int), or `default()` when None."""
    if value is None:
        return default()
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive integer or None, got {value!r}")
    return value


# The thread count a compilation plans its parallel schedules for; see `planning_threads`.
_PLANNED: contextvars.ContextVar[int | None] = contextvars.ContextVar("mlc_planned_threads")


@contextlib.contextmanager
def planning_threads(threads: int | None) -> Iterator[int]:
    """Within the block, passes that plan for a thread count (contraction-microkernel's
    parallel default) plan for `threads` (checked; None: `default_threads()`), the count the
    compiled code will be called with: `mlc.compile(..., threads=N)` lowers under it."""
    n = resolve_threads(threads)
    token = _PLANNED.set(n)
    try:
        yield n
    finally:
        _PLANNED.reset(token)


def planned_threads() -> int:
    """The thread count set by the enclosing `planning_threads`, else `default_threads()`."""
    n = _PLANNED.get(None)
    return default_threads() if n is None else n


def resolve_threads(threads: int | None) -> int:
    """`threads` checked (a positive int), or `default_threads()` when None."""
    return check_thread_count("threads", threads, default_threads)


def chunk_bounds(lower: int, upper: int, step: int, threads: int) -> list[tuple[int, int]]:
    """The `(begin, end)` chunks that `mlc_parallel_for` hands to the body, in order."""
    if step <= 0 or threads < 1:
        raise ValueError(
            f"parallel loop step and thread count must be positive, got {step}, {threads}"
        )
    if upper <= lower:
        return []
    trips = (upper - lower + step - 1) // step
    n = min(threads, trips)
    q, r = divmod(trips, n)
    bounds = []
    start = 0
    for k in range(n):
        stop = start + q + (1 if k < r else 0)
        bounds.append((lower + start * step, upper if k == n - 1 else lower + stop * step))
        start = stop
    return bounds


class _State(threading.local):
    """Per-thread state of the entry calls: the width they run regions with, and a failure
    noted during the last native call, for the caller to raise."""

    depth: int = 0  # > 0 while this thread runs a chunk of a parallel region (Python pool)
    _threads: int = 0
    _pending: tuple[BaseException, bool] | None = None

    @property
    def threads(self) -> int:
        """Set by each entry call of a module that calls mlc_parallel_for (0: the default)."""
        return self._threads

    @threads.setter
    def threads(self, n: int) -> None:
        if n != self._threads:  # the native pool keeps its own copy per thread
            self._threads = n
            if _NATIVE is not None:
                _NATIVE.set_threads(n)

    @property
    def pending(self) -> tuple[BaseException, bool] | None:
        """The first failure noted during the last native call on this thread (the callback's,
        or the native pool's: both are fatal, the iterations did not run)."""
        p = self._pending
        if p is None and _NATIVE is not None:
            err = _NATIVE.take_error()
            if err is not None:
                p = self._pending = (err, True)
        return p

    @pending.setter
    def pending(self, value: tuple[BaseException, bool] | None) -> None:
        self._pending = value


_TLS = _State()
# The native pool (mlc.runtime.native_pool), once `parallel_for_address` has loaded it.
_NATIVE: NativePool | None = None


class _Pool:
    """Daemon worker threads fed by one task queue; grows to the largest width asked for."""

    def __init__(self) -> None:
        self._tasks: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._workers: list[threading.Thread] = []
        self._lock = threading.Lock()

    def ensure(self, n: int) -> None:
        if len(self._workers) >= n:
            return
        with self._lock:
            while len(self._workers) < n:
                t = threading.Thread(
                    target=self._work, name=f"mlc-worker-{len(self._workers)}", daemon=True
                )
                t.start()
                self._workers.append(t)

    def submit(self, task: tuple[Any, ...]) -> None:
        self._tasks.put(task)

    def _work(self) -> None:
        _TLS.depth = 1  # anything a worker runs is inside a parallel region
        get = self._tasks.get
        while True:
            body, todo, ctx, done = get()
            try:
                begin, end = todo.popleft()  # atomic: each chunk is claimed once
            except IndexError:  # the caller ran the rest itself (or another worker did)
                continue
            try:
                body(begin, end, ctx)
            except BaseException as e:  # a native body cannot raise; keep the worker alive anyway
                done.put(e)
            else:
                done.put(None)


_POOL = _Pool()
_BODIES: dict[int, Any] = {}  # body address -> ctypes function (the address is the identity)


def _reset_after_fork() -> None:
    # Worker threads do not survive fork(); the child starts with an empty pool.
    global _POOL
    _POOL = _Pool()
    _TLS.depth = 0
    if _NATIVE is not None:
        _NATIVE.after_fork()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_after_fork)


def _run_inline(body: Any, begin: int, end: int, ctx: int) -> None:
    tls = _TLS
    tls.depth += 1
    try:
        body(begin, end, ctx)
    finally:
        tls.depth -= 1


_CALLS = 0  # mlc_parallel_for calls served by the Python pool (see `parallel_calls`)


def parallel_calls() -> int:
    """The number of `mlc_parallel_for` calls made so far in this process, by any thread and
    through either pool, including those that ran inline (one chunk, nested, `threads=1`)."""
    return _CALLS + (_NATIVE.entries() if _NATIVE is not None else 0)


def _parallel_for(body_addr: int, ctx: int, lower: int, upper: int, step: int) -> None:
    # A ctypes callback: nothing may propagate into the native caller, and every iteration must
    # have run when it returns (the chunks share `ctx`, which lives in the caller's frame).
    global _CALLS
    _CALLS += 1
    try:
        body = _BODIES.get(body_addr)
        if body is None:
            if len(_BODIES) > 4096:
                _BODIES.clear()
            body = _BODIES[body_addr] = _BODY_TYPE(body_addr)
        tls = _TLS
        threads = 1 if tls.depth else (tls.threads or default_threads())
        chunks = chunk_bounds(lower, upper, step, threads)
    except BaseException as e:
        _note_failure(e, fatal=True)
        return
    if len(chunks) <= 1:
        if chunks:
            _run_inline(body, lower, upper, ctx)
        return
    done: queue.SimpleQueue[Any] = queue.SimpleQueue()
    # The chunks after the first, claimed by popleft (atomic) by a worker or by this thread.
    todo = collections.deque(chunks[1:])
    try:
        pool = _POOL
        pool.ensure(len(chunks) - 1)
        for _ in chunks[1:]:
            pool.submit((body, todo, ctx, done))
    except BaseException as e:  # no pool: the chunks not handed out run here
        _note_failure(e, fatal=False)
    _run_inline(body, chunks[0][0], chunks[0][1], ctx)
    mine = 1
    while True:  # the chunks no worker has started yet run here
        try:
            begin, end = todo.popleft()
        except IndexError:
            break
        _run_inline(body, begin, end, ctx)
        mine += 1
    # Every chunk is claimed now; wait for the ones workers run (`ctx` must outlive them).
    pending = len(chunks) - mine
    while pending:
        try:
            err = done.get()
        except BaseException as e:  # e.g. KeyboardInterrupt while waiting: keep waiting
            _note_failure(e, fatal=True)
            continue
        pending -= 1
        if err is not None:
            _note_failure(err, fatal=True)


def _note_failure(e: BaseException, *, fatal: bool) -> None:
    """Keep the first exception raised inside the callback for the entry call to handle: raise
    it when `fatal` (iterations may not have run), else warn (they all ran, serially)."""
    if _TLS.pending is None:
        _TLS.pending = (e, fatal)


def take_pending() -> tuple[BaseException, bool] | None:
    """The (exception, fatal) noted during the last native call on this thread (cleared)."""
    e = _TLS.pending
    _TLS.pending = None
    return e


_CALLBACK = _ENTRY_TYPE(_parallel_for)


def parallel_for_address() -> int:
    """The address of `mlc_parallel_for`: the native pool's (mlc.runtime.native_pool), or where
    that cannot be built or `MLC_NATIVE_POOL=0`, the Python pool's ctypes callback (both kept
    alive for the process). The JIT's target must be initialized."""
    global _NATIVE
    pool = native_pool.load()
    if pool is not None:
        if _NATIVE is None:
            pool.set_default_threads(default_threads())
            _NATIVE = pool
            _NATIVE.set_threads(_TLS.threads)  # a width this thread set before the load
        return pool.address
    addr = ctypes.cast(_CALLBACK, ctypes.c_void_p).value
    assert addr is not None
    return addr
