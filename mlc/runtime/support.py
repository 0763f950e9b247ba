"""The runtime's native support code, JIT-compiled once per process as one LLVM module.

Parts of the runtime written in LLVM IR (the workspace arena of `mlc.runtime.workspace`, the
thread pool of `mlc.runtime.native_pool`) register their IR here when imported; the first call
of `engine()` links every registered part into one module and compiles it with one MCJIT
engine, kept alive for the process. One module instead of one per part: each engine costs its
own target machine, code generation set-up and link, and every process pays for them before
its first compile.

The module is compiled at O0 (FastISel): the code is small and its cost is in the atomics,
locks and system calls it makes, while O2 took about 3x the CPU of O0 for the pool's part alone
(52 against 16 ms), in every process before its first compile.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

__all__ = ["built_with", "engine", "register"]

_lock = threading.Lock()
# (name, function returning its IR text or None when the part is off), in registration order.
_parts: list[tuple[str, Callable[[], str | None]]] = []
_built: dict[str, Any] = {}  # "engine", "parts" (the names of the parts in it), once built


def register(name: str, ir: Callable[[], str | None]) -> None:
    """Add a part: `ir()` returns its LLVM IR text, or None when the part is turned off (asked
    at the first `engine()` call). Parts define disjoint global names; declarations of the same
    external function may repeat."""
    with _lock:
        if _built:
            raise RuntimeError(f"runtime support part '{name}' registered after the build")
        _parts.append((name, ir))


def engine() -> Any:
    """The MCJIT engine holding every registered part, compiled on the first call (the JIT's
    native target must be initialized)."""
    with _lock:
        if not _built:
            _build()
        return _built["engine"]


def built_with(name: str) -> bool:
    """Whether the part `name` is in the engine (which this builds if needed): False when its
    `ir()` turned it off."""
    engine()
    return name in _built["parts"]


def _build() -> None:
    import llvmlite.binding as llvm

    triple = llvm.get_process_triple()
    mod = llvm.parse_assembly("")
    mod.triple = triple
    names = []
    for name, ir in _parts:
        text = ir()
        if text is None:
            continue
        part = llvm.parse_assembly(text)
        part.triple = triple
        part.verify()
        mod.link_in(part)  # consumes `part`
        names.append(name)
    mod.verify()
    target = llvm.Target.from_triple(triple).create_target_machine(opt=0)
    ee = llvm.create_mcjit_compiler(mod, target)  # owns both
    ee.finalize_object()
    _built["parts"] = frozenset(names)
    _built["engine"] = ee
