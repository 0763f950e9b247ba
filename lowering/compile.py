"""`mlc.compile`: a module (or its text) -> callables on NumPy arrays.

    compiled = mlc.compile(text)                 # pipeline "lower-to-cpu", default knobs
    probs = compiled.main(x, w1, b1, ...)        # or compiled["main"](...)

Steps: parse (or clone: the caller's module is never changed), verify, record the signature of
every public function (its tensor/scalar argument and result types), run the pipeline, translate
the llvm dialect to LLVM IR text, and JIT-compile it with `mlc.runtime` (which validates every
call's arrays against those signatures). Result shapes come from the `mlc.result_shapes` maps
that `bufferize` attaches: each output dim is an affine function of the input dims (a constant,
an input dim, or e.g. the sum of two for a concat), computed before the call. Input dims that
the compiled code needs equal (see lowering/input_dims.py) are checked at every call.

Compiling the same text with the same pipeline, knobs and JIT options again is free: the
lowered LLVM IR is cached per (text, pipeline, knobs), and the runtime caches machine code per
(LLVM IR, signatures, options, target).
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from mlc.ir import attributes as A
from mlc.ir.affine import (
    AffineBinaryExpr,
    AffineConstantExpr,
    AffineExpr,
    AffineMap,
    AffineSymbolExpr,
)
from mlc.ir.core import Operation

__all__ = ["CompileError", "CompiledModule", "compile"]


class CompileError(ValueError):
    """An input that `mlc.compile` cannot compile (unsupported signature, bad argument)."""


_SCALARS = ("i1", "i8", "i16", "i32", "i64", "index", "f16", "f32", "f64")


def _element_name(t: A.Type, where: str) -> str:
    name = str(t)
    if name not in _SCALARS:
        raise CompileError(f"not supported: {where} has element type {name}")
    return name


def _public_functions(module: Operation) -> list[Operation]:
    out = []
    for op in module.regions[0].blocks[0].ops:
        if op.name != "func.func" or not op.regions[0].blocks:
            continue
        vis = op.get_attr("sym_visibility")
        if vis is None or vis.value == "public":
            out.append(op)
    return out


class _FunctionInfo:
    """The source-level signature of a public function (before lowering)."""

    __slots__ = ("name", "inputs", "results", "input_dims", "dim_checks")

    def __init__(self, fn: Operation, classes: Any) -> None:
        self.name: str = fn.get_attr("sym_name").value  # type: ignore[union-attr]
        ftype = fn.get_attr("function_type").value  # type: ignore[union-attr]
        self.inputs: list[tuple[str, str, tuple[int, ...] | None]] = []
        for i, t in enumerate(ftype.inputs):
            self.inputs.append(self._spec(f"arg{i}", t, f"@{self.name} argument {i}"))
        # The input dims as the call boundary checks them (see lowering/input_dims.py).
        self.input_dims: list[tuple[Any, ...] | None] = classes.signature_dims(fn)
        self.dim_checks: list[tuple[int, int, str, int]] = classes.dim_checks(fn)
        self.results: list[tuple[str, str, tuple[int, ...] | None]] = []
        for i, t in enumerate(ftype.results):
            spec = self._spec(f"result{i}", t, f"@{self.name} result {i}")
            if spec[2] is None:
                raise CompileError(
                    f"not supported: @{self.name} result {i} is a scalar ({t}); return a "
                    "rank-0 tensor instead"
                )
            self.results.append(spec)

    @staticmethod
    def _spec(name: str, t: A.Type, where: str) -> tuple[str, str, tuple[int, ...] | None]:
        if isinstance(t, A.RankedTensorType):
            return (name, _element_name(t.element_type, where), tuple(t.shape))
        if isinstance(t, A.ShapedType):
            raise CompileError(f"not supported: {where} has type {t} (ranked tensors only)")
        return (name, _element_name(t, where), None)


def _dim_of(expr: AffineExpr, symbols: list[tuple[int, int, int]]) -> Any:
    """An output dim of the runtime signature from its `mlc.result_shapes` expression: an int,
    an InputDim, or a DimExpr over them; None when an operand is not an input dim."""
    from mlc.runtime import DimExpr, InputDim

    if isinstance(expr, AffineConstantExpr):
        return expr.value
    if isinstance(expr, AffineSymbolExpr):
        if expr.position >= len(symbols):
            return None
        k, kd, static = symbols[expr.position]
        return static if static >= 0 else InputDim(k, kd)
    if isinstance(expr, AffineBinaryExpr):
        lhs, rhs = _dim_of(expr.lhs, symbols), _dim_of(expr.rhs, symbols)
        if lhs is None or rhs is None:
            return None
        return DimExpr(expr.kind, lhs, rhs)
    return None


def _signature(info: _FunctionInfo, llvm_fn: Operation | None) -> Any:
    from mlc.runtime import ArgSpec, Signature

    inputs = [
        ArgSpec(n, dt, None if shape is None else info.input_dims[k])
        for k, (n, dt, shape) in enumerate(info.inputs)
    ]
    # Symbols of the result-shape maps: every dim of every memref input, in argument order.
    symbols: list[tuple[int, int, int]] = []  # (input index, dim, static size or -1)
    for k, (_, _, shape) in enumerate(info.inputs):
        if shape is not None:
            symbols += [(k, d, size) for d, size in enumerate(shape)]
    maps_attr = None if llvm_fn is None else llvm_fn.get_attr("mlc.result_shapes")
    maps = [] if maps_attr is None else [m.value for m in maps_attr.value]
    outputs = []
    for r, (n, dt, shape) in enumerate(info.results):
        assert shape is not None
        amap: AffineMap | None = maps[r] if r < len(maps) else None
        dims: list[Any] = []
        for d, size in enumerate(shape):
            if size >= 0:
                dims.append(size)
                continue
            expr = None if amap is None else amap.results[d]
            dim = None if expr is None else _dim_of(expr, symbols)
            if dim is None:
                shown = "unknown" if expr is None else str(expr)
                raise CompileError(
                    f"not supported: dim {d} of @{info.name} result {r} ({shown}) is not an "
                    "affine function of the input dims"
                )
            dims.append(dim)
        outputs.append(ArgSpec(n, dt, tuple(dims)))
    return Signature(inputs=inputs, outputs=outputs, dim_checks=tuple(info.dim_checks))


class CompiledModule:
    """The public functions of a compiled module, callable on NumPy arrays.

    `compiled["main"](x, w)` or `compiled.main(x, w)`; a function returns one array, or a tuple
    when it has several results. `compiled.main(x, w, out=y)` writes into the caller's array(s)
    and returns them; otherwise large results come from `mlc.runtime.result_pool`, which
    recycles the buffers of dropped results. Wrong arrays raise TypeError/ValueError naming the
    argument (or `out`). `compiled.remarks` holds the remarks the passes made (e.g. which
    matmul-chain order was chosen), rendered: `mlc.compile` keeps them instead of printing them
    (warnings and errors still go to stderr or raise).
    """

    def __init__(
        self, jit: Any, llvm_ir: str, timings: dict[str, float], remarks: tuple[str, ...] = ()
    ) -> None:
        self._jit = jit
        self.llvm_ir = llvm_ir
        self.timings = timings
        self.remarks = list(remarks)

    def __getitem__(self, name: str) -> Callable[..., Any]:
        return self._jit[name]

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._jit[name]
        except KeyError as e:
            raise AttributeError(str(e)) from None

    def __contains__(self, name: object) -> bool:
        return name in self._jit

    @property
    def functions(self) -> list[str]:
        return list(self._jit)

    @property
    def signatures(self) -> dict[str, Any]:
        return self._jit.signatures

    @property
    def jit(self) -> Any:
        """The underlying `mlc.runtime.JitModule` (optimized IR, assembly, ...)."""
        return self._jit

    def __repr__(self) -> str:
        return f"<CompiledModule {', '.join(self.functions)}>"


# (text, pipeline, knobs) -> (LLVM IR, signatures, JIT options recorded by `llvm-options`):
# the lowering is deterministic.
_LOWERED: OrderedDict[tuple[str, str, str], tuple[str, dict[str, Any], dict[str, Any]]] = (
    OrderedDict()
)
_LOWERED_MAX = 64
_LOCK = threading.Lock()


def _knob_key(knobs: Any) -> str:
    if knobs is None:
        return ""
    if isinstance(knobs, Mapping):
        return json.dumps(dict(knobs), sort_keys=True, default=str)
    if isinstance(knobs, str):
        return "file:" + knobs
    return ""  # a KnobContext: not cached


def _lower(
    module: Operation, pipeline: str, knobs: Any, verify_each: bool
) -> tuple[str, dict[str, Any], dict, dict[str, Any], tuple[str, ...]]:
    from mlc.lowering.input_dims import InputDimClasses
    from mlc.lowering.translate import translate_module
    from mlc.passes.llvm_options import jit_options_of

    from mlc.diagnostics import REMARK, VerifyError, engine
    from mlc.pass_manager import PassManager

    public = _public_functions(module)
    classes = InputDimClasses(module) if public else None
    infos = [_FunctionInfo(fn, classes) for fn in public]
    if not infos:
        raise CompileError("not supported: the module has no public function with a body")
    t0 = time.perf_counter()
    pm = PassManager.parse(pipeline, module.name)
    pm.enable_verifier(verify_each)
    remarks: list[str] = []
    outer = engine.current_handler

    def keep_remarks(diag: Any) -> None:
        if diag.severity == REMARK:
            remarks.append(diag.render())
        else:
            outer(diag)

    with engine.handler(keep_remarks):
        pm.run(module, knobs)
    if not verify_each:
        # The lowered module is verified once; `verify_each=True` names the pass that broke it.
        try:
            module.verify()
        except VerifyError as e:
            e.diagnostic.attach_note(
                f"the module is invalid after the pipeline '{pipeline}'; compile with "
                "verify_each=True to find the pass that produced it"
            )
            raise
    t1 = time.perf_counter()
    llvm_fns = {
        op.get_attr("sym_name").value: op  # type: ignore[union-attr]
        for op in module.regions[0].blocks[0].ops
        if op.name == "llvm.func"
    }
    signatures = {info.name: _signature(info, llvm_fns.get(info.name)) for info in infos}
    text = translate_module(module)
    t2 = time.perf_counter()
    stages = {"pipeline": t1 - t0, "translate": t2 - t1}
    return text, signatures, stages, jit_options_of(module), tuple(remarks)


def compile(  # noqa: A001 - mlc.compile is the public name
    module_or_text: Operation | str,
    pipeline: str = "lower-to-cpu",
    knobs: Any = None,
    *,
    threads: int | None = None,
    opt_level: int | None = None,
    use_cache: bool = True,
    verify_each: bool = False,
    compile_threads: int | None = None,
) -> CompiledModule:
    """Compile a module (an op or MLIR text) to callables on NumPy arrays.

    `pipeline`: pass pipeline text ending in the llvm dialect; `knobs`: a mapping, JSON path or
    KnobContext (as `mlc.run_pipeline`); `threads`: worker threads for parallel loops (default:
    `MLC_NUM_THREADS`, else all cores), which the pipeline plans its parallel schedules for;
    `opt_level`: LLVM's (0-3; default: what the pipeline's `llvm-options` pass recorded, else
    3; the other LLVM options come from there too);
    `verify_each`: verify the IR after every pass (as `mlc-opt` does) instead of once after the
    pipeline (the default: half of the pipeline's time on examples/mlp.mlir goes to the
    verifier otherwise); `compile_threads`: threads LLVM compiles the module's parts on
    (default: `MLC_COMPILE_THREADS`, else the usable cores up to 8; see docs/runtime.md,
    "Compile time"). The input is not modified.
    Raises `mlc.ParseError`/`mlc.VerifyError` for bad IR, `mlc.pass_manager.PassError` when a
    pass fails (e.g. `failed to legalize`), `CompileError` for unsupported signatures.
    """
    import mlc
    from mlc.runtime.parallel import planning_threads, resolve_threads

    if not isinstance(pipeline, str):
        raise TypeError(f"pipeline must be pipeline text, got {type(pipeline).__name__}")
    if opt_level is not None and not (
        isinstance(opt_level, int) and not isinstance(opt_level, bool) and 0 <= opt_level <= 3
    ):
        raise ValueError(f"opt_level must be 0, 1, 2 or 3, got {opt_level!r}")
    t0 = time.perf_counter()
    if isinstance(module_or_text, str):
        text = module_or_text
        module = None
    elif isinstance(module_or_text, Operation):
        module = module_or_text
        text = module.print(generic=True)
    else:
        raise TypeError(f"expected a module op or MLIR text, got {type(module_or_text).__name__}")
    # The pipeline plans its parallel schedules for the thread count the code will run with,
    # so the lowered module depends on it.
    n_threads = resolve_threads(threads)
    key = (text, pipeline, _knob_key(knobs), n_threads)
    cacheable = use_cache and (knobs is None or key[2] != "")
    with _LOCK:
        hit = _LOWERED.get(key) if cacheable else None
        if hit is not None:
            _LOWERED.move_to_end(key)
    timings: dict[str, float] = {}
    if hit is None:
        from mlc.pass_manager import _gc_paused

        # The cyclic GC is paused from the parse to the translation (the pass manager pauses
        # it for the pipeline already): otherwise the IR built here survives the collections
        # that run meanwhile, reaches the oldest generation and is reclaimed, once dead, only
        # by a full collection, which traverses the whole heap. Paused, the module dies young
        # and the first collection after this block frees it (the MLP, 16 compiles at load 5:
        # 20-33 ms of collections per compile, against 53-83 ms with a full one among them).
        with _gc_paused():
            work = mlc.parse(text) if module is None else module.clone()
            if work.name != "builtin.module":
                raise CompileError(f"expected a builtin.module, got '{work.name}'")
            work.verify()
            timings["parse"] = time.perf_counter() - t0
            with planning_threads(n_threads):
                llvm_ir, signatures, stage, jit_options, remarks = _lower(
                    work, pipeline, knobs, verify_each
                )
            del work
        timings.update(stage)
        if cacheable:
            with _LOCK:
                _LOWERED[key] = (llvm_ir, signatures, jit_options, remarks)
                while len(_LOWERED) > _LOWERED_MAX:
                    _LOWERED.popitem(last=False)
    else:
        llvm_ir, signatures, jit_options, remarks = hit
    if opt_level is not None:
        jit_options = {**jit_options, "opt_level": opt_level}
    t3 = time.perf_counter()
    from mlc.runtime import JitOptions, compile_llvm_ir

    jit = compile_llvm_ir(
        llvm_ir,
        signatures,
        threads=n_threads,
        options=JitOptions(**jit_options),
        use_cache=use_cache,
        compile_threads=compile_threads,
    )
    timings["jit"] = time.perf_counter() - t3
    if jit.built:  # LLVM ran (not a cache hit): its phases
        for phase in ("parse", "compile", "load"):
            timings["llvm_" + phase] = jit.engine.timings[phase]
    return CompiledModule(jit, llvm_ir, timings, remarks)


def clear_cache() -> None:
    """Forget the lowered modules (the runtime's machine-code cache: `mlc.runtime.cache`)."""
    with _LOCK:
        _LOWERED.clear()
