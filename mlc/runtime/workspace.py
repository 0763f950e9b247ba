"""Per-thread workspace for the scratch buffers of compiled code (the packing buffers of the
matmul micro-kernel nest): kept across calls instead of malloc'ed and freed on every call.

    ptr  mlc_workspace_acquire(i64 bytes)   ; 64-byte aligned, valid until released
    void mlc_workspace_release(ptr p)       ; in reverse order of acquisition (a stack)

Each thread owns an arena (found through a pthread key, created on first use, freed by the
key's destructor when the thread ends). `acquire` bumps the arena's top; `release` pops it back
to `p`. A request that does not fit is served by `aligned_alloc` (and `release` frees it) and
raises the arena's high-water mark; the next time the arena is empty it is reallocated to that
mark, so from the second call of a function on a thread on, its buffers come from the arena
with no malloc, no page faults and no trimming of the heap by glibc. An arena never grows past
`MAX_BYTES` (`MLC_WORKSPACE_MAX` in MiB; 0 turns the arena off: every request is
`aligned_alloc`/`free`).

A `memref.alloc` carrying the unit attribute `mlc.workspace` lowers to `acquire`, its
`memref.dealloc` to `release` (convert-to-llvm): the contraction micro-kernel's buffers do so.
The functions are native code, part of the runtime's support module (`mlc.runtime.support`,
JIT-compiled once per process); the pthread key is stored into it and its symbols registered
with the JIT before any module is loaded.
"""

from __future__ import annotations

import ctypes
import os
import threading
from typing import Any

from mlc.runtime import support

__all__ = ["ACQUIRE", "RELEASE", "MAX_BYTES", "symbols"]

ACQUIRE = "mlc_workspace_acquire"
RELEASE = "mlc_workspace_release"
MAX_BYTES = 64 << 20  # the largest arena kept per thread (default; MLC_WORKSPACE_MAX in MiB)

# The arena: { ptr base, i64 cap, i64 top, i64 want, i64 pending }. `want`: the high-water mark
# of the bytes in use (arena and heap blocks together), the size the arena gets when next
# empty; `pending`: the bytes of heap blocks handed out and not yet released. A heap block has
# a 64-byte header holding its size.
_IR = r"""
%Arena = type {{ ptr, i64, i64, i64, i64 }}

@mlc_workspace_key = global i32 0

declare ptr @pthread_getspecific(i32)
declare i32 @pthread_setspecific(i32, ptr)
declare ptr @calloc(i64, i64)
declare ptr @aligned_alloc(i64, i64)
declare void @free(ptr)

define internal ptr @arena() {{
entry:
  %key = load i32, ptr @mlc_workspace_key
  %a = call ptr @pthread_getspecific(i32 %key)
  %none = icmp eq ptr %a, null
  br i1 %none, label %make, label %done
make:
  %n = call ptr @calloc(i64 1, i64 40)
  %made = icmp ne ptr %n, null
  br i1 %made, label %set, label %done
set:
  %ok = call i32 @pthread_setspecific(i32 %key, ptr %n)
  br label %done
done:
  %r = phi ptr [ %a, %entry ], [ null, %make ], [ %n, %set ]
  ret ptr %r
}}

define internal ptr @heap(i64 %n) {{
entry:
  %size = add i64 %n, 64
  %h = call ptr @aligned_alloc(i64 64, i64 %size)
  %null = icmp eq ptr %h, null
  br i1 %null, label %fail, label %ok
fail:
  ret ptr null
ok:
  store i64 %n, ptr %h
  %p = getelementptr i8, ptr %h, i64 64
  ret ptr %p
}}

define ptr @{acquire}(i64 %bytes) {{
entry:
  %b1 = add i64 %bytes, 63
  %b2 = and i64 %b1, -64
  %zero = icmp eq i64 %b2, 0
  %n = select i1 %zero, i64 64, i64 %b2
  %a = call ptr @arena()
  %noa = icmp eq ptr %a, null
  br i1 %noa, label %raw, label %have
have:
  %pbase = getelementptr %Arena, ptr %a, i32 0, i32 0
  %pcap = getelementptr %Arena, ptr %a, i32 0, i32 1
  %ptop = getelementptr %Arena, ptr %a, i32 0, i32 2
  %pwant = getelementptr %Arena, ptr %a, i32 0, i32 3
  %ppend = getelementptr %Arena, ptr %a, i32 0, i32 4
  %top = load i64, ptr %ptop
  %pend = load i64, ptr %ppend
  %want0 = load i64, ptr %pwant
  %end = add i64 %top, %n
  %used = add i64 %end, %pend
  %more = icmp ugt i64 %used, %want0
  %want = select i1 %more, i64 %used, i64 %want0
  store i64 %want, ptr %pwant
  %inuse = or i64 %top, %pend
  %empty = icmp eq i64 %inuse, 0
  %cap0 = load i64, ptr %pcap
  %small = icmp ugt i64 %want, %cap0
  %keep = icmp ule i64 %want, {max_bytes}
  %g1 = and i1 %empty, %small
  %grow = and i1 %g1, %keep
  br i1 %grow, label %regrow, label %try
regrow:
  %old = load ptr, ptr %pbase
  call void @free(ptr %old)
  %nb = call ptr @aligned_alloc(i64 64, i64 %want)
  store ptr %nb, ptr %pbase
  %nbnull = icmp eq ptr %nb, null
  %ncap = select i1 %nbnull, i64 0, i64 %want
  store i64 %ncap, ptr %pcap
  br label %try
try:
  %cap = load i64, ptr %pcap
  %fits = icmp ule i64 %end, %cap
  br i1 %fits, label %bump, label %fallback
bump:
  %base = load ptr, ptr %pbase
  %p = getelementptr i8, ptr %base, i64 %top
  store i64 %end, ptr %ptop
  ret ptr %p
fallback:
  %pend2 = add i64 %pend, %n
  store i64 %pend2, ptr %ppend
  br label %raw
raw:
  %q = call ptr @heap(i64 %n)
  ret ptr %q
}}

define void @{release}(ptr %p) {{
entry:
  %isnull = icmp eq ptr %p, null
  br i1 %isnull, label %done, label %look
look:
  %key = load i32, ptr @mlc_workspace_key
  %a = call ptr @pthread_getspecific(i32 %key)
  %noa = icmp eq ptr %a, null
  br i1 %noa, label %heap, label %have
have:
  %pbase = getelementptr %Arena, ptr %a, i32 0, i32 0
  %pcap = getelementptr %Arena, ptr %a, i32 0, i32 1
  %ptop = getelementptr %Arena, ptr %a, i32 0, i32 2
  %ppend = getelementptr %Arena, ptr %a, i32 0, i32 4
  %base = load ptr, ptr %pbase
  %cap = load i64, ptr %pcap
  %bi = ptrtoint ptr %base to i64
  %pi = ptrtoint ptr %p to i64
  %off = sub i64 %pi, %bi
  %inside = icmp ult i64 %off, %cap
  br i1 %inside, label %pop, label %heap_arena
pop:
  store i64 %off, ptr %ptop
  br label %done
heap_arena:
  %h1 = getelementptr i8, ptr %p, i64 -64
  %n1 = load i64, ptr %h1
  %pend = load i64, ptr %ppend
  %pend2 = sub i64 %pend, %n1
  store i64 %pend2, ptr %ppend
  call void @free(ptr %h1)
  br label %done
heap:
  %h2 = getelementptr i8, ptr %p, i64 -64
  call void @free(ptr %h2)
  br label %done
done:
  ret void
}}

define void @mlc_workspace_destroy(ptr %a) {{
entry:
  %pbase = getelementptr %Arena, ptr %a, i32 0, i32 0
  %base = load ptr, ptr %pbase
  call void @free(ptr %base)
  call void @free(ptr %a)
  ret void
}}
"""

_lock = threading.Lock()
_state: dict[str, Any] = {}


def max_bytes() -> int:
    """The arena cap: MLC_WORKSPACE_MAX (MiB) when set, else MAX_BYTES."""
    env = os.environ.get("MLC_WORKSPACE_MAX", "").strip()
    if not env:
        return MAX_BYTES
    try:
        mib = int(env)
    except ValueError:
        raise ValueError(f"MLC_WORKSPACE_MAX must be a non-negative integer (MiB), got {env!r}")
    if mib < 0:
        raise ValueError(f"MLC_WORKSPACE_MAX must be a non-negative integer (MiB), got {env!r}")
    return mib << 20


def _ir() -> str:
    return _IR.format(acquire=ACQUIRE, release=RELEASE, max_bytes=max_bytes())


support.register("workspace", _ir)


def symbols() -> dict[str, int]:
    """{name: address} of `mlc_workspace_acquire` and `mlc_workspace_release` (the runtime's
    support module is compiled on the first call of either; the JIT's target must be
    initialized)."""
    with _lock:
        if "symbols" in _state:
            return _state["symbols"]  # type: ignore[no-any-return]
        engine = support.engine()
        # The key's destructor frees a thread's arena when the thread ends.
        key = ctypes.c_uint(0)
        destroy = engine.get_function_address("mlc_workspace_destroy")
        libc = ctypes.CDLL(None)
        if libc.pthread_key_create(ctypes.byref(key), ctypes.c_void_p(destroy)) != 0:
            raise OSError("pthread_key_create failed")
        address = engine.get_global_value_address("mlc_workspace_key")
        ctypes.c_uint.from_address(address).value = key.value
        _state["symbols"] = {
            ACQUIRE: engine.get_function_address(ACQUIRE),
            RELEASE: engine.get_function_address(RELEASE),
        }
        return _state["symbols"]  # type: ignore[no-any-return]
