"""`JitModule` (a compiled LLVM module and its callable entries), `compile_llvm_ir` and the
process-wide compiled-module cache.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from mlc.runtime import calling
from mlc.runtime.calling import caller_template, make_caller
from mlc.runtime.engine import (
    Engine,
    EntryNotFoundError,
    HostTarget,
    JitOptions,
    host_target,
    resolve_compile_threads,
    text_hash,
)
from mlc.runtime.parallel import resolve_threads
from mlc.runtime.signature import Signature, SignatureError

__all__ = ["CacheInfo", "CompileCache", "JitModule", "cache", "compile_llvm_ir"]


def _signatures(signatures: Mapping[str, Signature]) -> dict[str, Signature]:
    if not isinstance(signatures, Mapping):
        raise SignatureError("signatures must be a mapping: entry name -> Signature")
    out = {}
    for name, sig in signatures.items():
        if not isinstance(name, str) or not name:
            raise SignatureError(f"entry name must be a non-empty string, got {name!r}")
        if not isinstance(sig, Signature):
            raise SignatureError(f"signature of '{name}' must be a Signature, got {sig!r}")
        out[name] = sig
    return out


def _options(options: JitOptions | None, knobs: dict[str, Any]) -> JitOptions:
    if options is not None and knobs:
        raise TypeError("pass either options= or individual option keywords, not both")
    if options is None:
        try:
            return JitOptions(**knobs)
        except TypeError as e:
            raise TypeError(f"unknown JIT option: {e}") from None
    return options


class JitModule:
    """LLVM IR text compiled for the host, with one Python callable per entry function.

        m = JitModule(llvm_ir, {"add": Signature(...)}, opt_level=3, threads=4)
        y = m.add(x0, x1)          # or m["add"](x0, x1)
        m.add(x0, x1, out=y)       # into the caller's array (a tuple for several results)

    Results the runtime allocates come from `mlc.runtime.result_pool`, which recycles the buffers
    of results the caller has dropped (`docs/runtime.md`, "Outputs").

    The constructor always compiles; `compile_llvm_ir` returns a cached compilation when it has
    one. Keywords are `JitOptions` fields (opt_level, loop_vectorize, slp_vectorize, loop_unroll,
    unroll_threshold, fast_math) or `options=JitOptions(...)`. `threads` (default:
    `MLC_NUM_THREADS`, else all cores) is the width of the module's parallel loops;
    `compile_threads` (default: `MLC_COMPILE_THREADS`, else the usable cores up to 8) the number
    of threads LLVM compiles the module's parts on (`docs/runtime.md`, "Compile time").
    """

    # No __slots__: entries are also instance attributes, so `m.main` is a plain lookup.

    def __init__(
        self,
        llvm_ir: str,
        signatures: Mapping[str, Signature],
        *,
        threads: int | None = None,
        options: JitOptions | None = None,
        compile_threads: int | None = None,
        **knobs: Any,
    ) -> None:
        opts = _options(options, knobs)
        nthreads = resolve_threads(threads)
        workers = resolve_compile_threads(compile_threads)
        sigs = _signatures(signatures)
        engine = Engine(llvm_ir, sigs, opts, host_target(), calling.ARRAY_STRUCT_OK, workers)
        cache.count_compilation()
        self._bind(engine, nthreads)
        self._built = True

    @classmethod
    def _from_engine(cls, engine: Engine, threads: int) -> JitModule:
        self = cls.__new__(cls)
        self._bind(engine, threads)
        self._built = False
        return self

    def _bind(self, engine: Engine, threads: int) -> None:
        self.engine = engine
        self.threads = threads
        templates = engine.caller_templates
        if templates is None:
            templates = engine.caller_templates = {
                name: caller_template(
                    name, sig, uses_parallel=engine.uses_parallel, from_objects=engine.from_objects
                )
                for name, sig in engine.signatures.items()
            }
        self._entries = {
            name: make_caller(t, engine.wrapper_addresses[name], threads=threads, keepalive=engine)
            for name, t in templates.items()
        }
        for name, fn in self._entries.items():
            if name.isidentifier() and not name.startswith("_") and not hasattr(JitModule, name):
                self.__dict__[name] = fn

    def __getitem__(self, name: str) -> Callable[..., Any]:
        try:
            return self._entries[name]
        except KeyError:
            raise EntryNotFoundError(
                f"no entry function '{name}' (entries: {', '.join(self._entries) or 'none'})"
            ) from None

    def __getattr__(self, name: str) -> Callable[..., Any]:
        # Only reached for names that are not attributes; entries starting with '_' need m[name].
        if name.startswith("_"):
            raise AttributeError(name)
        if name not in self._entries:
            raise AttributeError(
                f"JitModule has no entry function '{name}' (entries: {', '.join(self._entries)})"
            )
        return self._entries[name]

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Any:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def signatures(self) -> dict[str, Signature]:
        return dict(self.engine.signatures)

    @property
    def built(self) -> bool:
        """Whether making this module ran LLVM (False: the compiled-module cache had it)."""
        return self._built

    @property
    def options(self) -> JitOptions:
        return self.engine.options

    @property
    def llvm_ir_optimized(self) -> str:
        """The module after optimization, including the `__mlc_call.<entry>` wrappers."""
        return self.engine.llvm_ir_optimized

    def asm(self) -> str:
        """The host assembly (AT&T syntax) of the optimized module."""
        return self.engine.asm()

    def address(self, name: str) -> int:
        """The native address of entry `name` itself (expanded-descriptor ABI, for ctypes)."""
        self[name]
        return self.engine.addresses[name]

    def __repr__(self) -> str:
        entries = ", ".join(sig.text(n) for n, sig in self.engine.signatures.items())
        return f"<JitModule {entries} O{self.options.opt_level} threads={self.threads}>"


# ---------------------------------------------------------------------------------------------
# The compiled-module cache


class CacheInfo(NamedTuple):
    """Counters of the compiled-module cache (`mlc.runtime.cache.info()`)."""

    hits: int
    misses: int
    compilations: int  # engines built, by the cache and by `JitModule(...)` directly
    size: int
    maxsize: int


class CompileCache:
    """A process-wide LRU of compiled engines keyed by (IR text hash, signatures, options,
    target, calling mode). A hit returns the same `Engine`: no LLVM work at all."""

    def __init__(self, maxsize: int = 64) -> None:
        self._entries: OrderedDict[Any, Engine] = OrderedDict()
        self._lock = threading.RLock()
        self._maxsize = maxsize
        self.hits = self.misses = self.compilations = 0

    @property
    def maxsize(self) -> int:
        return self._maxsize

    @maxsize.setter
    def maxsize(self, n: int) -> None:
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"cache maxsize must be a non-negative int, got {n!r}")
        with self._lock:
            self._maxsize = n
            self._evict()

    def _evict(self) -> None:
        while len(self._entries) > self._maxsize:
            self._entries.popitem(last=False)

    def count_compilation(self) -> None:
        with self._lock:
            self.compilations += 1

    def get_or_build(self, key: Any, build: Callable[[], Engine]) -> Engine:
        with self._lock:  # one compilation per key even when threads race for it
            engine = self._entries.get(key)
            if engine is not None:
                self.hits += 1
                self._entries.move_to_end(key)
                return engine
            self.misses += 1
            engine = build()
            self.compilations += 1
            if self._maxsize:
                self._entries[key] = engine
                self._evict()
            return engine

    def info(self) -> CacheInfo:
        return CacheInfo(
            self.hits, self.misses, self.compilations, len(self._entries), self._maxsize
        )

    def clear(self) -> None:
        """Drop every cached engine (modules still referenced elsewhere stay alive)."""
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


cache = CompileCache()

if hasattr(os, "register_at_fork"):  # a child must not inherit a lock held by another thread
    os.register_at_fork(after_in_child=lambda: setattr(cache, "_lock", threading.RLock()))


def compile_llvm_ir(
    llvm_ir: str,
    signatures: Mapping[str, Signature],
    *,
    threads: int | None = None,
    options: JitOptions | None = None,
    use_cache: bool = True,
    compile_threads: int | None = None,
    **knobs: Any,
) -> JitModule:
    """A `JitModule` for `llvm_ir`, reusing the cached compilation of the same text, signatures,
    options and target (`threads` and `compile_threads` are not part of the key: the first only
    affects the calls, the second how fast the same machine code is made)."""
    opts = _options(options, knobs)
    nthreads = resolve_threads(threads)
    workers = resolve_compile_threads(compile_threads)
    sigs = _signatures(signatures)
    target: HostTarget = host_target()
    mode = calling.ARRAY_STRUCT_OK
    if not use_cache:
        return JitModule(llvm_ir, sigs, threads=nthreads, options=opts, compile_threads=workers)
    key = (text_hash(llvm_ir), tuple(sigs.items()), opts, target, mode)
    built = False

    def build() -> Engine:
        nonlocal built
        built = True
        return Engine(llvm_ir, sigs, opts, target, mode, workers)

    module = JitModule._from_engine(cache.get_or_build(key, build), nthreads)
    module._built = built
    return module
