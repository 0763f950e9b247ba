"""LLVM IR text -> native code: llvmlite parses the IR, checks the entry functions against
their `Signature`s, adds one packed-argument wrapper per entry, splits the module into parts
(`mlc.runtime.split`) that are optimized for the host CPU (O0-O3 with loop and SLP vectorization)
and compiled to object code on several threads, and links the objects with MCJIT.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import re
import threading
import time
from dataclasses import dataclass
from typing import Any

import llvmlite.binding as llvm
from llvmlite.binding import ffi

from mlc.runtime import workspace
from mlc.runtime.parallel import (
    check_thread_count,
    env_thread_count,
    parallel_for_address,
    usable_cores,
)
from mlc.runtime.signature import Signature
from mlc.runtime.split import Part, split_module

__all__ = ["Engine", "EntryNotFoundError", "HostTarget", "JITError", "JitOptions", "host_target"]

PARALLEL_FOR = "mlc_parallel_for"
_PARALLEL_FOR_TYPE = "void (ptr, ptr, i64, i64, i64)"
WRAPPER_PREFIX = "__mlc_call."

# NumPy's PyArrayObject: PyObject_HEAD, then `char *data`, `int nd`, `npy_intp *dimensions`.
ARRAY_DATA_OFFSET = 16
ARRAY_DIMS_OFFSET = 32

FAST_MATH_FLAGS = ("reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "fast")


class JITError(RuntimeError):
    """LLVM rejected the module (parse or verifier error), or an entry function does not match
    its `Signature`. The message holds LLVM's message and the offending source line."""


class EntryNotFoundError(JITError, KeyError):
    """An entry function that the module does not define (or that has no signature)."""

    def __str__(self) -> str:  # KeyError would show the repr of the message
        return str(self.args[0]) if self.args else ""


_LOCK = threading.RLock()  # LLVM's global options and target set-up are not thread-safe
_initialized = False


def _new_lock_after_fork() -> None:
    # A child forked while another thread compiled must not inherit the held lock.
    global _LOCK
    _LOCK = threading.RLock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_new_lock_after_fork)


def _init_llvm() -> None:
    global _initialized
    if _initialized:
        return
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    llvm.add_symbol(PARALLEL_FOR, parallel_for_address())
    for name, address in workspace.symbols().items():
        llvm.add_symbol(name, address)
    _load_compiler_runtime()
    _initialized = True


# The C libraries holding the compiler runtime's builtins, by platform (macOS has them in
# libSystem, always loaded).
_COMPILER_RUNTIME = ("libgcc_s.so.1",)


def _load_compiler_runtime() -> None:
    # Code generation calls builtins that no IR declares (f16 conversions such as __truncdfhf2
    # on a CPU without native f16 arithmetic, 128-bit division): MCJIT binds them from the
    # process, which holds libgcc_s only if something else loaded it, and an unbound builtin is
    # a call to address 0. Loading it here makes them resolvable in every process.
    for name in _COMPILER_RUNTIME:
        try:
            llvm.load_library_permanently(name)
        except RuntimeError:  # not on this platform
            pass


@dataclass(frozen=True)
class HostTarget:
    """The machine code is generated for: the process triple, the host CPU and its features."""

    triple: str
    cpu: str
    features: str

    def has_feature(self, name: str) -> bool:
        return f"+{name}" in self.features.split(",")


_HOST: HostTarget | None = None


def host_target() -> HostTarget:
    """The host's triple, CPU name (e.g. `znver3`) and feature string (`+avx2,+fma,...`)."""
    global _HOST
    if _HOST is None:
        with _LOCK:
            _init_llvm()
            _HOST = HostTarget(
                llvm.get_process_triple(),
                llvm.get_host_cpu_name(),
                llvm.get_host_cpu_features().flatten(),
            )
    return _HOST


@dataclass(frozen=True)
class JitOptions:
    """How the LLVM IR is optimized (all part of the compile-cache key).

    `opt_level` 0-3; `loop_vectorize` / `slp_vectorize` / `loop_unroll` turn those passes on or
    off; `unroll_threshold` overrides LLVM's unroll cost threshold (None: LLVM's default, 300 at
    O3 and 150 below); `fast_math`: None leaves the IR's own flags, True adds `fast`, or a tuple
    of LLVM flag names (`("contract",)`, `("reassoc", "contract")`) added to every floating-point
    arithmetic instruction, `fcmp` and call returning a floating-point type. `loop_unroll` also
    turns loop interleaving on or off. `loop_unswitch`: LLVM's non-trivial loop unswitching
    (O3 only: a loop copied for each side of a loop-invariant branch inside it), off by
    default: mlc's passes version loops themselves where it pays (`affine.if`), and the
    branches left inside loops (a micro-kernel's first/last k-block tests) are cheap, so the
    copies cost compile time only (the MLP's LLVM instructions -16%; trivial unswitching stays).
    """

    opt_level: int = 3
    loop_vectorize: bool = True
    slp_vectorize: bool = True
    loop_unroll: bool = True
    unroll_threshold: int | None = None
    fast_math: bool | tuple[str, ...] | None = None
    loop_unswitch: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.opt_level, bool) or self.opt_level not in (0, 1, 2, 3):
            raise ValueError(f"opt_level must be 0, 1, 2 or 3, got {self.opt_level!r}")
        for name in ("loop_vectorize", "slp_vectorize", "loop_unroll", "loop_unswitch"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be a bool, got {getattr(self, name)!r}")
        t = self.unroll_threshold
        if t is not None and (isinstance(t, bool) or not isinstance(t, int) or t < 0):
            raise ValueError(f"unroll_threshold must be a non-negative int or None, got {t!r}")
        fm = self.fast_math
        if fm is False:
            fm = None
        elif fm is True:
            fm = ("fast",)
        elif fm is not None:
            if isinstance(fm, str):
                fm = tuple(f for f in fm.replace(",", " ").split() if f)
            fm = tuple(sorted(set(fm)))
            bad = [f for f in fm if f not in FAST_MATH_FLAGS]
            if bad or not fm:
                raise ValueError(
                    f"fast_math flags not supported: {bad or fm!r} (allowed: "
                    f"{', '.join(FAST_MATH_FLAGS)})"
                )
        object.__setattr__(self, "fast_math", fm)


# ---------------------------------------------------------------------------------------------
# Fast-math: `<res> = fadd [flags] <ty> ...` and friends, and calls returning a floating type.

_NAME = r'%(?:"[^"]*"|[-\w.$]+)'
_FP_SCALAR = r"(?:half|bfloat|float|double|fp128|x86_fp80)"
_FP_TYPE = r"(?:" + _FP_SCALAR + r"|<\s*\d+\s*x\s*" + _FP_SCALAR + r"\s*>)"
_FLAGS_RE = r"((?:\s+(?:" + "|".join(FAST_MATH_FLAGS) + r"))*)"
_FP_INST = re.compile(
    r"^(\s*" + _NAME + r"\s*=\s*(?:fadd|fsub|fmul|fdiv|frem|fneg|fcmp))" + _FLAGS_RE + r"(?=\s)",
    re.M,
)
_FP_CALL = re.compile(
    r"^(\s*"
    + _NAME
    + r"\s*=\s*(?:tail\s+|musttail\s+|notail\s+)?call)"
    + _FLAGS_RE
    + r"(?=\s+"
    + _FP_TYPE
    + r"\s+@)",
    re.M,
)


def apply_fast_math(text: str, flags: tuple[str, ...]) -> str:
    """`text` with `flags` added to every FP arithmetic instruction, `fcmp` and FP-typed call."""

    def add(m: re.Match[str]) -> str:
        have = m.group(2).split()
        new = [f for f in flags if f not in have]
        return m.group(1) + m.group(2) + "".join(" " + f for f in new)

    return _FP_CALL.sub(add, _FP_INST.sub(add, text))


# ---------------------------------------------------------------------------------------------
# Diagnostics


_LOC = re.compile(r"<string>:(\d+):(\d+): error: (.*)")


def _parse_error(message: str, text: str) -> JITError:
    """A JITError for llvmlite's parse error, with the offending line of `text`."""
    body = message.split("\n", 1)[1] if message.startswith("LLVM IR parsing error") else message
    m = _LOC.search(body)
    if m is None:
        return JITError(f"LLVM IR parse error: {body.strip()}")
    line, col, what = int(m.group(1)), int(m.group(2)), m.group(3)
    lines = text.splitlines()
    src = lines[line - 1] if 0 < line <= len(lines) else ""
    caret = " " * max(col - 1, 0) + "^"
    return JITError(f"LLVM IR parse error at line {line}:{col}: {what}\n{src}\n{caret}")


def _check_entry(mod: Any, name: str, sig: Signature) -> None:
    try:
        fn = mod.get_function(name)
    except NameError:
        fn = None
    if fn is None or fn.is_declaration:
        defined = sorted(
            f.name for f in mod.functions if not f.is_declaration and not f.name.startswith("llvm.")
        )
        raise EntryNotFoundError(
            f"entry function '{name}' is not defined in the LLVM module "
            f"(defined: {', '.join(defined) or 'none'})"
        )
    if fn.linkage in (llvm.Linkage.internal, llvm.Linkage.private):
        raise JITError(
            f"entry function '{name}' has {fn.linkage.name} linkage: entry functions must be "
            "externally visible"
        )
    ftype = str(fn.global_value_type)
    ret = ftype.split(" (", 1)[0]
    if ret != "void":
        raise JITError(
            f"entry function '{name}' returns {ret}: entry functions return void and write "
            "results into output memrefs"
        )
    got = [str(a.type) for a in fn.arguments]
    want = sig.llvm_params()
    if ftype.endswith("...)"):
        raise JITError(f"entry function '{name}' is variadic: not supported")
    roles = [r for a in sig.args for r in a.param_roles()]
    if len(got) != len(want):
        raise JITError(
            f"entry function '{name}' has {len(got)} parameters, its signature "
            f"{sig.text(name)} expands to {len(want)}: ({', '.join(want)})"
        )
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            raise JITError(
                f"entry function '{name}' parameter {i} is {g}, expected {w} (the {roles[i]} in "
                f"{sig.text(name)})"
            )


# ---------------------------------------------------------------------------------------------
# The packed-argument wrappers


def _quote(name: str) -> str:
    """An LLVM global name in quoted form (`@"a.b"`), escaping `"`, `\\` and non-printables."""
    out = []
    for ch in name.encode("utf-8"):
        c = chr(ch)
        out.append(c if 32 <= ch < 127 and c not in '"\\' else f"\\{ch:02X}")
    return '@"' + "".join(out) + '"'


def _wrapper_ir(name: str, sig: Signature, from_objects: bool) -> str:
    """`void @"__mlc_call.<name>"(ptr %args)`: unpack 8-byte slots and call the entry.

    Each memref takes one slot: the ndarray object (`from_objects`, read through NumPy's struct
    layout) or, portably, its data pointer followed by one slot per dim. Scalars take one slot:
    an i64 for integers, a double for floats (narrowed here).
    """
    lines = [f"define void {_quote(WRAPPER_PREFIX + name)}(ptr %args) {{", "entry:"]
    emit = lines.append
    slot = 0
    call_args: list[str] = []

    def load(ty: str, tmp: str) -> str:
        nonlocal slot
        emit(f"  %{tmp}.p = getelementptr inbounds i64, ptr %args, i64 {slot}")
        emit(f"  %{tmp} = load {ty}, ptr %{tmp}.p, align 8")
        slot += 1
        return f"%{tmp}"

    for k, a in enumerate(sig.args):
        v = f"a{k}"
        if a.shape is None:
            t = a.llvm_type
            if t in ("half", "float"):
                d = load("double", v + ".d")
                emit(f"  %{v} = fptrunc double {d} to {t}")
            elif t == "double":
                load("double", v)
            elif t == "i64":
                load("i64", v)
            else:
                q = load("i64", v + ".q")
                emit(f"  %{v} = trunc i64 {q} to {t}")
            call_args.append(f"{t} %{v}")
            continue
        sizes: list[str] = []
        if from_objects:
            obj = load("ptr", v + ".obj")
            emit(f"  %{v}.dp = getelementptr inbounds i8, ptr {obj}, i64 {ARRAY_DATA_OFFSET}")
            emit(f"  %{v}.data = load ptr, ptr %{v}.dp, align 8")
            if a.rank:
                emit(f"  %{v}.sp = getelementptr inbounds i8, ptr {obj}, i64 {ARRAY_DIMS_OFFSET}")
                emit(f"  %{v}.dims = load ptr, ptr %{v}.sp, align 8")
            for i, d in enumerate(a.shape):
                if isinstance(d, int):
                    sizes.append(str(d))  # checked at the call boundary: a constant helps LLVM
                    continue
                emit(f"  %{v}.s{i}.p = getelementptr inbounds i64, ptr %{v}.dims, i64 {i}")
                emit(f"  %{v}.s{i} = load i64, ptr %{v}.s{i}.p, align 8")
                sizes.append(f"%{v}.s{i}")
            data = f"%{v}.data"
        else:
            data = load("ptr", v + ".data")
            for i, d in enumerate(a.shape):
                s = load("i64", f"{v}.s{i}")
                sizes.append(str(d) if isinstance(d, int) else s)
        # Identity layout: stride[r-1] = 1, stride[i] = stride[i+1] * size[i+1] (in elements).
        strides = ["1"] * a.rank
        for i in range(a.rank - 2, -1, -1):
            nxt, sz = strides[i + 1], sizes[i + 1]
            if nxt.isdigit() and sz.isdigit():
                strides[i] = str(int(nxt) * int(sz))
            else:
                emit(f"  %{v}.st{i} = mul i64 {nxt}, {sz}")
                strides[i] = f"%{v}.st{i}"
        call_args += [f"ptr {data}", f"ptr {data}", "i64 0"]
        call_args += [f"i64 {s}" for s in sizes + strides]
    emit(f"  call void {_quote(name)}({', '.join(call_args)})")
    emit("  ret void")
    emit("}")
    params = ", ".join(sig.llvm_params())
    return f"declare void {_quote(name)}({params})\n\n" + "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# Compilation
#
# A module is compiled as one LLVM module, or split (`mlc.runtime.split`) into parts that are
# optimized and compiled to object code on several threads, each with its own LLVM context and
# target machine; MCJIT then loads every object and resolves the references between them. The
# two long LLVM calls (the optimization pipeline and code generation) are made without
# llvmlite's global lock, which would serialize them: LLVM supports concurrent work on distinct
# contexts. Everything else, and every engine disposal, stays under `_LOCK`, which the thread
# that compiles holds until all its workers are done.


def default_compile_threads() -> int:
    """Threads that compile one module's parts: `MLC_COMPILE_THREADS`, else the usable cores
    (at most 8)."""
    n = env_thread_count("MLC_COMPILE_THREADS")
    return min(usable_cores(), 8) if n is None else n


def resolve_compile_threads(compile_threads: int | None) -> int:
    return check_thread_count("compile_threads", compile_threads, default_compile_threads)


def _target_machine(target: HostTarget, opt_level: int) -> Any:
    return llvm.Target.from_triple(target.triple).create_target_machine(
        cpu=target.cpu, features=target.features, opt=opt_level, jit=True
    )


def _set_unroll_threshold(opts: JitOptions) -> None:
    # LLVM's defaults for the two thresholds the unroller picks from by opt level; an explicit
    # threshold sets both, None restores the defaults (these are process-wide options).
    t = opts.unroll_threshold
    aggressive, default = (300, 150) if t is None else (t, t)
    llvm.set_option("mlc", f"-unroll-threshold-aggressive={aggressive}")
    llvm.set_option("mlc", f"-unroll-threshold-default={default}")
    # Non-trivial unswitching takes candidates up to this cost (LLVM's default 50); 1 admits
    # none (0 trips an assertion of LLVM's cost-multiplier check in llvmlite's build).
    llvm.set_option("mlc", f"-unswitch-threshold={50 if opts.loop_unswitch else 1}")


def _unlocked(name: str) -> Any:
    """The ctypes function behind llvmlite's locking wrapper of `name` (the wrapper itself if
    llvmlite changes its internals: correct, only serialized)."""
    fn = getattr(ffi.lib, name)
    return getattr(fn, "_cfn", fn)


def _run_passes(mod: Any, tm: Any, opts: JitOptions) -> None:
    """LLVM's default pipeline at `opts.opt_level` (the unroll threshold must be set already)."""
    pto = llvm.create_pipeline_tuning_options(speed_level=opts.opt_level)
    pto.loop_vectorization = opts.loop_vectorize
    pto.slp_vectorization = opts.slp_vectorize
    pto.loop_unrolling = opts.loop_unroll
    pto.loop_interleaving = opts.loop_unroll
    pb = llvm.create_pass_builder(tm, pto)
    mpm = pb.getModulePassManager()
    try:
        _unlocked("LLVMPY_RunNewModulePassManager")(mpm, mod, pb)
    finally:
        mpm.close()
        pb.close()
        pto.close()


def _optimize(mod: Any, tm: Any, opts: JitOptions) -> None:
    """Optimize `mod` in place as the runtime does (sets the process-wide unroll threshold)."""
    _set_unroll_threshold(opts)
    _run_passes(mod, tm, opts)


def _emit_object(tm: Any, mod: Any) -> bytes:
    """The object code of `mod` (what `TargetMachine.emit_object` returns)."""
    with ffi.OutputString() as err:
        buf = _unlocked("LLVMPY_TargetMachineEmitToMemory")(tm, mod, 1, err)
        if not buf:
            raise JITError(f"LLVM code generation failed: {err}")
    try:
        start = ffi.lib.LLVMPY_GetBufferStart(buf)
        return ctypes.string_at(start, ffi.lib.LLVMPY_GetBufferSize(buf))
    finally:
        ffi.lib.LLVMPY_DisposeMemoryBuffer(buf)


class _Worker(threading.local):
    active = False  # set in compile worker threads


_WORKER = _Worker()
_DEFERRED: list[Any] = []  # engines collected inside a worker thread, closed by its parent


def _close_deferred() -> None:
    while _DEFERRED:
        _DEFERRED.pop().close()


@dataclass(frozen=True)
class PartStats:
    """One compiled part: its functions, its size estimate, and the thread CPU seconds LLVM
    spent optimizing it and generating its machine code."""

    functions: tuple[str, ...]
    lines: int
    optimize: float
    codegen: float


class _PartFailed(Exception):
    """A part of a split module that LLVM rejected: the module is compiled whole instead."""


def _part_object(
    text: str, wrappers: str, target: HostTarget, opts: JitOptions
) -> tuple[bytes, float, float]:
    """(object code, optimize seconds, codegen seconds) of one part, in its own context."""
    ctx = llvm.create_context()
    mod = tm = None
    try:
        try:
            mod = llvm.parse_assembly(text, context=ctx)
            if wrappers:
                mod.link_in(llvm.parse_assembly(wrappers, context=ctx))
        except RuntimeError as e:
            raise _PartFailed(str(e).strip()) from None
        tm = _target_machine(target, opts.opt_level)
        return _object(mod, tm, opts)
    finally:
        for obj in (tm, mod, ctx):
            if obj is not None and not obj.closed:
                obj.close()


def _object(mod: Any, tm: Any, opts: JitOptions) -> tuple[bytes, float, float]:
    mod.triple = tm.triple
    mod.data_layout = str(tm.target_data)
    t0 = time.thread_time()
    _run_passes(mod, tm, opts)
    t1 = time.thread_time()
    obj = _emit_object(tm, mod)
    return obj, t1 - t0, time.thread_time() - t1


def _compile_parts(
    jobs: list[tuple[str, str]], threads: int, target: HostTarget, opts: JitOptions
) -> list[tuple[bytes, float, float]]:
    """Every job's `_part_object`, largest first, on `threads` threads (this one included)."""
    results: list[Any] = [None] * len(jobs)
    errors: list[BaseException] = []
    next_job = iter(range(len(jobs)))
    take = threading.Lock()

    def work() -> None:
        while not errors:
            with take:
                k = next(next_job, None)
            if k is None:
                return
            try:
                results[k] = _part_object(jobs[k][0], jobs[k][1], target, opts)
            except BaseException as e:  # re-raised by the parent
                errors.append(e)

    def worker() -> None:
        _WORKER.active = True
        work()

    helpers = [threading.Thread(target=worker, daemon=True) for _ in range(threads - 1)]
    for t in helpers:
        t.start()
    try:
        work()
    finally:
        for t in helpers:
            t.join()
    if errors:
        raise errors[0]
    return results


class Engine:
    """A JIT-compiled module: the MCJIT engine holding its machine code, and the addresses of
    the entry functions and their wrappers.

    `timings` holds the seconds of each LLVM phase (wall clock: `parse` (parse + verify +
    checks), `compile` (optimization and machine code of every part, on `threads` threads),
    `load` (MCJIT links the objects); thread CPU time summed over the parts: `optimize_cpu`,
    `codegen_cpu`); `parts` one `PartStats` per part (one when the module was not split) and
    `split` why it was split or not.
    """

    __slots__ = (
        "_asm",
        "_ee",
        "_ir_optimized",
        "_max_parts",
        "_source",
        "addresses",
        "caller_templates",
        "from_objects",
        "options",
        "parts",
        "signatures",
        "split",
        "target",
        "text_hash",
        "threads",
        "timings",
        "uses_parallel",
        "wrapper_addresses",
    )

    def __init__(
        self,
        text: str,
        signatures: dict[str, Signature],
        options: JitOptions,
        target: HostTarget,
        from_objects: bool,
        compile_threads: int = 1,
    ) -> None:
        self.options = options
        self.signatures = dict(signatures)
        self.target = target
        self.from_objects = from_objects
        self.text_hash = text_hash(text)
        self._asm: str | None = None
        self._ir_optimized: str | None = None
        self.caller_templates: dict[str, Any] | None = None  # filled by the first JitModule
        source = text if options.fast_math is None else apply_fast_math(text, options.fast_math)
        self._source = source
        self.timings: dict[str, float] = {}
        # Every LLVM object is created and disposed under the lock: disposal left to the garbage
        # collector could run in another thread while LLVM compiles there, and crash.
        with _LOCK:
            _init_llvm()
            try:
                self._compile(source, compile_threads)
            finally:
                _close_deferred()

    def _checked_module(self, source: str, ctx: Any) -> Any:
        """The whole module parsed and verified, its entries and externals checked."""
        try:
            mod = llvm.parse_assembly(source, context=ctx)
        except RuntimeError as e:
            raise _parse_error(str(e), source) from None
        try:
            mod.verify()
        except RuntimeError as e:
            mod.close()
            raise JITError(f"invalid LLVM IR: {str(e).strip()}") from None
        try:
            par = _function_or_none(mod, PARALLEL_FOR)
            self.uses_parallel = par is not None
            if par is not None and str(par.global_value_type) != _PARALLEL_FOR_TYPE:
                raise JITError(
                    f"{PARALLEL_FOR} is declared as {par.global_value_type}, expected "
                    f"{_PARALLEL_FOR_TYPE}"
                )
            for name, sig in self.signatures.items():
                _check_entry(mod, name, sig)
            _check_externals(mod)
        except BaseException:
            mod.close()
            raise
        return mod

    def _wrappers(self, names: tuple[str, ...] | None = None) -> str:
        """The packed-argument wrappers of the entries (of those among `names`)."""
        return "".join(
            _wrapper_ir(name, sig, self.from_objects)
            for name, sig in self.signatures.items()
            if names is None or name in names
        )

    def _compile(self, source: str, compile_threads: int) -> None:
        t0 = time.perf_counter()
        ctx = llvm.create_context()
        try:
            mod = self._checked_module(source, ctx)
            # A few parts per thread, so that the threads stay busy when the sizes mislead.
            self._max_parts = 4 * compile_threads if compile_threads > 1 else 1
            parts, self.split = split_module(source, self._max_parts)
            t1 = time.perf_counter()
            _set_unroll_threshold(self.options)
            stats: list[PartStats] = []
            if parts:
                mod.close()
                self.threads = min(compile_threads, len(parts))
                try:
                    objects = self._compile_split(parts)
                    stats = [
                        PartStats(p.functions, p.lines, o[1], o[2]) for p, o in zip(parts, objects)
                    ]
                except _PartFailed as e:
                    self.split = f"not split: a part was rejected ({e.args[0].splitlines()[0]})"
                    mod = self._checked_module(source, ctx)
            if not stats:
                self.threads = self._max_parts = 1
                functions = tuple(f.name for f in mod.functions if not f.is_declaration)
                objects = [self._compile_whole(mod, ctx)]
                stats = [PartStats(functions, source.count("\n"), objects[0][1], objects[0][2])]
        finally:
            ctx.close()  # every module in it is closed by now
        t2 = time.perf_counter()
        self._load([o[0] for o in objects])
        t3 = time.perf_counter()
        self.parts = tuple(stats)
        self.timings = {
            "parse": t1 - t0,
            "compile": t2 - t1,
            "load": t3 - t2,
            "optimize_cpu": sum(s.optimize for s in stats),
            "codegen_cpu": sum(s.codegen for s in stats),
        }

    def _compile_split(self, parts: list[Part]) -> list[tuple[bytes, float, float]]:
        jobs = [(p.text, self._wrappers(p.functions)) for p in parts]
        return _compile_parts(jobs, self.threads, self.target, self.options)

    def _compile_whole(self, mod: Any, ctx: Any) -> tuple[bytes, float, float]:
        """The object code of the checked module `mod` with the wrappers (closes `mod`)."""
        tm = None
        try:
            wrappers = self._wrappers()
            if wrappers:
                try:
                    mod.link_in(llvm.parse_assembly(wrappers, context=ctx))
                except RuntimeError as e:
                    raise JITError(f"linking the entry wrappers failed: {str(e).strip()}") from None
            tm = _target_machine(self.target, self.options.opt_level)
            return _object(mod, tm, self.options)
        finally:
            for obj in (tm, mod):
                if obj is not None and not obj.closed:
                    obj.close()

    def _load(self, objects: list[bytes]) -> None:
        """An MCJIT engine (on an empty module) holding `objects`, linked and finalized."""
        # The empty module lives in the global context, which is never disposed: the garbage
        # collector may finalize an engine after a context it would still need otherwise.
        host = llvm.parse_assembly("")
        ee_tm = _target_machine(self.target, self.options.opt_level)
        host.triple = self.target.triple
        host.data_layout = str(ee_tm.target_data)
        self._ee = llvm.create_mcjit_compiler(host, ee_tm)  # owns both
        for data in objects:
            obj = llvm.ObjectFileRef.from_data(data)
            try:
                self._ee.add_object_file(obj)
            finally:
                obj.close()
        self._ee.finalize_object()
        self.addresses = {n: self._ee.get_function_address(n) for n in self.signatures}
        self.wrapper_addresses = {
            n: self._ee.get_function_address(WRAPPER_PREFIX + n) for n in self.signatures
        }

    def __del__(self) -> None:
        ee = getattr(self, "_ee", None)
        if ee is None:
            return
        try:
            if _WORKER.active:  # the compiling thread holds _LOCK and waits for this one
                _DEFERRED.append(ee)
                return
            with _LOCK:
                ee.close()
        except Exception:  # interpreter shutdown (module globals already None): nothing to protect
            pass

    def _optimized_parts(self, emit: Any) -> list[str]:
        """`emit(module, target machine)` of every part optimized again as it was compiled
        (LLVM is deterministic), for inspection."""
        parts, _ = split_module(self._source, self._max_parts)
        texts = [(p.text, self._wrappers(p.functions)) for p in parts]
        if not texts:
            texts = [(self._source, self._wrappers())]
        out = []
        with _LOCK:
            _set_unroll_threshold(self.options)
            for text, wrappers in texts:
                ctx = llvm.create_context()
                mod = tm = None
                try:
                    mod = llvm.parse_assembly(text, context=ctx)
                    if wrappers:
                        mod.link_in(llvm.parse_assembly(wrappers, context=ctx))
                    tm = _target_machine(self.target, self.options.opt_level)
                    mod.triple = tm.triple
                    mod.data_layout = str(tm.target_data)
                    _run_passes(mod, tm, self.options)
                    out.append(emit(mod, tm))
                finally:
                    for obj in (tm, mod, ctx):
                        if obj is not None and not obj.closed:
                            obj.close()
        return out

    @property
    def llvm_ir_optimized(self) -> str:
        """The optimized LLVM IR (generated on first request: the optimization is run again);
        the parts one after the other when the module was compiled split."""
        if self._ir_optimized is None:
            self._ir_optimized = "\n".join(self._optimized_parts(lambda mod, tm: str(mod)))
        return self._ir_optimized

    def asm(self) -> str:
        """The host assembly of the optimized module (generated on first request)."""
        if self._asm is None:
            self._asm = "\n".join(self._optimized_parts(lambda mod, tm: tm.emit_assembly(mod)))
        return self._asm


_PROCESS: Any = None


def _resolvable(name: str) -> bool:
    """Whether MCJIT can bind external `name`: a runtime symbol or one in the process."""
    global _PROCESS
    if llvm.address_of_symbol(name) is not None:
        return True
    if _PROCESS is None:
        _PROCESS = ctypes.CDLL(None)
    try:
        _PROCESS[name]
    except AttributeError:
        return False
    return True


def _check_externals(mod: Any) -> None:
    # An unresolved symbol is a fatal LLVM error (process abort) in MCJIT: catch it first.
    decls = [f.name for f in mod.functions if f.is_declaration]
    decls += [g.name for g in mod.global_variables if g.is_declaration]
    for name in decls:
        if not name.startswith("llvm.") and not _resolvable(name):
            raise JITError(
                f"external symbol '{name}' cannot be resolved: it is not defined in the module, "
                "by the runtime or in the process"
            )


def _function_or_none(mod: Any, name: str) -> Any:
    try:
        return mod.get_function(name)
    except NameError:
        return None


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()
