"""The result-buffer pool: large outputs of compiled calls are carved from buffers that earlier
results gave back once the caller dropped them, so a call does not pay the first-touch page faults
of fresh memory (about 8 ms for a fresh 40 MB array on the project's machine).

Ownership: every pooled result is an ndarray whose base is a *lease*, a ctypes char array made
with `from_address` over the pool's buffer. NumPy never collapses a view's base past a non-ndarray
object, so every view, memoryview or ctypes export derived from the result keeps the lease alive.
A weak reference with a callback on the lease tells the pool when the last of them is gone; only
then does the buffer go back to the free lists. The buffer itself (a NumPy uint8 array) is held by
the pool alone and is not reachable from the result.
"""

from __future__ import annotations

import collections
import ctypes
import math
import os
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

__all__ = ["BufferPool", "PoolInfo", "default_pool", "page_aligned", "size_class"]

_PAGE = 4096
_DEFAULT_MIN_BYTES = 4 << 20
_DEFAULT_MAX_BYTES = 256 << 20


def page_aligned(nbytes: int) -> tuple[np.ndarray, int]:
    """A fresh buffer holding `nbytes` from a page boundary: (the buffer, that address).

    Large outputs start on a page boundary rather than the next 64-byte one: NumPy's large
    arrays are glibc mmap chunks, which start 16 bytes into a page, so a 64-byte-aligned output
    would sit 48 bytes after its inputs modulo the page, and the CPU then takes the loads that
    run ahead of each store for loads of the stored address (4K aliasing: `(a + s*b) * c` on
    10M f32, one thread, with non-temporal stores: 9.4 ms CPU at page offset 0x40 against
    7.0 at 0x0, 6.9-7.2 at 0x10, 0x400 or 0x800; load 2). At offset 0 an output trails such
    inputs by 16 bytes and lines up with other pooled results."""
    buf = np.empty(nbytes + _PAGE - 1, np.uint8)
    return buf, -(-buf.ctypes.data // _PAGE) * _PAGE


def _env_bytes(name: str, default: int) -> int:
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        raise ValueError(f"{name} must be a non-negative number of bytes, got {text!r}")
    return n


def size_class(nbytes: int) -> int:
    """The usable size of the buffer that serves `nbytes`: rounded up to 16 classes per power of
    two and to whole pages, so at most 1/16 of a buffer is slack and results of nearly equal
    sizes (a dynamic batch) share buffers. Powers of two are classes."""
    step = max(_PAGE, 1 << max(0, (nbytes - 1).bit_length() - 5))
    return -(-nbytes // step) * step


class PoolInfo(NamedTuple):
    """Counters of a `BufferPool` (`mlc.runtime.result_pool.info()`)."""

    hits: int  # results served from a recycled buffer
    misses: int  # results that needed a fresh buffer
    released: int  # buffers given back after the caller dropped every view of a result
    evicted: int  # given-back buffers freed to keep the pool under max_bytes
    pooled_bytes: int  # bytes of free buffers held for reuse
    leased_bytes: int  # bytes of buffers backing results that are still alive
    max_bytes: int
    min_bytes: int


class BufferPool:
    """Output arrays of at least `min_bytes` served from recycled buffers; free buffers are kept
    up to `max_bytes` (least recently given back are freed first; 0 disables reuse). Smaller
    arrays, and all when disabled, come from `fallback`. Thread-safe.

        y = pool.empty((1000, 1000), np.float32)   # a C-contiguous array, 64-byte aligned
        del y                                      # its buffer can serve the next request
    """

    def __init__(
        self,
        max_bytes: int = _DEFAULT_MAX_BYTES,
        min_bytes: int = _DEFAULT_MIN_BYTES,
        *,
        fallback: Callable[[tuple[int, ...], np.dtype], np.ndarray] = np.empty,
    ) -> None:
        self.fallback = fallback  # makes the arrays the pool does not serve
        self._lock = threading.Lock()
        self._free: dict[int, list[tuple[np.ndarray, int]]] = {}  # class -> [(buffer, address)]
        self._lru: OrderedDict[int, int] = OrderedDict()  # id(buffer) -> class, oldest first
        self._leased: dict[int, tuple[Any, np.ndarray, int, int]] = {}  # id(ref) -> entry
        self._pending: collections.deque[Any] = collections.deque()  # refs released while locked
        self._lease_types: dict[int, Any] = {}
        self._max_bytes = self._check("max_bytes", max_bytes)
        self._min_bytes = self._check("min_bytes", min_bytes)
        self.hits = self.misses = self.released = self.evicted = 0
        self.pooled_bytes = 0
        self._on_release = self._make_callback()

    @staticmethod
    def _check(name: str, n: int) -> int:
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"{name} must be a non-negative int (bytes), got {n!r}")
        return n

    @property
    def max_bytes(self) -> int:
        """Bytes of free buffers kept for reuse; setting it frees the excess at once."""
        return self._max_bytes

    @max_bytes.setter
    def max_bytes(self, n: int) -> None:
        n = self._check("max_bytes", n)
        with self._lock:
            self._max_bytes = n
            self._drain()
            self._evict()

    @property
    def min_bytes(self) -> int:
        """Smaller results come from `fallback` (below glibc's largest mmap threshold, 32 MiB,
        malloc reuses freed blocks itself; the pool pays where fresh pages would be faulted)."""
        return self._min_bytes

    @min_bytes.setter
    def min_bytes(self, n: int) -> None:
        self._min_bytes = self._check("min_bytes", n)

    def _make_callback(self) -> Any:
        # The callback runs wherever the last view dies, possibly in another thread or inside
        # one of this pool's locked sections: it never blocks, it queues when the lock is busy.
        pool_ref = weakref.ref(self)

        def on_release(ref: Any) -> None:
            pool = pool_ref()
            if pool is None:
                return
            if pool._lock.acquire(blocking=False):
                try:
                    pool._release(ref)
                    pool._drain()
                finally:
                    pool._lock.release()
            else:
                pool._pending.append(ref)

        return on_release

    # -- under the lock ------------------------------------------------------------------------

    def _release(self, ref: Any) -> None:
        entry = self._leased.pop(id(ref), None)
        if entry is None:
            return
        _, buf, addr, size = entry
        self.released += 1
        if size > self._max_bytes:
            self.evicted += 1
            return  # dropping the last reference frees it
        self._free.setdefault(size, []).append((buf, addr))
        self._lru[id(buf)] = size
        self.pooled_bytes += size
        self._evict()

    def _drain(self) -> None:
        pending = self._pending
        while pending:
            self._release(pending.popleft())

    def _evict(self) -> None:
        while self.pooled_bytes > self._max_bytes:
            key, size = self._lru.popitem(last=False)
            bufs = self._free[size]
            for i, (buf, _) in enumerate(bufs):
                if id(buf) == key:
                    del bufs[i]
                    break
            if not bufs:
                del self._free[size]
            self.pooled_bytes -= size
            self.evicted += 1

    def _take(self, size: int) -> tuple[np.ndarray, int] | None:
        if self._pending:
            self._drain()
        bufs = self._free.get(size)
        if not bufs:
            self.misses += 1
            return None
        buf, addr = bufs.pop()  # the most recently given back: likeliest still in cache
        if not bufs:
            del self._free[size]
        del self._lru[id(buf)]
        self.pooled_bytes -= size
        self.hits += 1
        return buf, addr

    # -- public --------------------------------------------------------------------------------

    def empty(self, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        """An uninitialized C-contiguous array, from a recycled buffer when one fits."""
        if not isinstance(dtype, np.dtype):
            dtype = np.dtype(dtype)
        nbytes = math.prod(shape) * dtype.itemsize
        if nbytes < self._min_bytes or not nbytes or not self._max_bytes:
            return self.fallback(shape, dtype)
        size = size_class(nbytes)
        with self._lock:
            found = self._take(size)
        if found is None:
            buf, addr = page_aligned(size)
        else:
            buf, addr = found
        lease_type = self._lease_types.get(size)
        if lease_type is None:
            lease_type = self._lease_types[size] = ctypes.c_char * size
        lease = lease_type.from_address(addr)
        ref = weakref.ref(lease, self._on_release)
        # One dict store, atomic under the GIL: no lock (the callback pops it under the lock).
        self._leased[id(ref)] = (ref, buf, addr, size)
        return np.ndarray(shape, dtype, lease)

    def info(self) -> PoolInfo:
        with self._lock:
            self._drain()
            return PoolInfo(
                self.hits,
                self.misses,
                self.released,
                self.evicted,
                self.pooled_bytes,
                sum(e[3] for e in list(self._leased.values())),
                self._max_bytes,
                self._min_bytes,
            )

    def clear(self) -> None:
        """Free every buffer held for reuse (results still alive are not affected)."""
        with self._lock:
            self._drain()
            self.evicted += len(self._lru)
            self._free.clear()
            self._lru.clear()
            self.pooled_bytes = 0

    def owns(self, array: np.ndarray) -> bool:
        """Whether `array` (or the array it views) is backed by a buffer of this pool."""
        base = array
        while isinstance(base, np.ndarray):
            base = base.base
        if not isinstance(base, ctypes.Array):
            return False
        addr = ctypes.addressof(base)
        with self._lock:
            return any(e[2] == addr and e[0]() is base for e in self._leased.values())

    def _after_fork(self) -> None:
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        i = self.info()
        return (
            f"<BufferPool pooled={i.pooled_bytes} leased={i.leased_bytes} "
            f"max_bytes={i.max_bytes} hits={i.hits} misses={i.misses}>"
        )


def default_pool(fallback: Callable[[tuple[int, ...], np.dtype], np.ndarray]) -> BufferPool:
    """A pool sized by `MLC_POOL_MAX_BYTES` / `MLC_POOL_MIN_BYTES` (bytes; defaults 256 MiB and
    4 MiB) that survives `fork()` (the child gets a fresh lock)."""
    pool = BufferPool(
        _env_bytes("MLC_POOL_MAX_BYTES", _DEFAULT_MAX_BYTES),
        _env_bytes("MLC_POOL_MIN_BYTES", _DEFAULT_MIN_BYTES),
        fallback=fallback,
    )
    if hasattr(os, "register_at_fork"):  # a child must not inherit a lock held by a thread
        os.register_at_fork(after_in_child=pool._after_fork)
    return pool
