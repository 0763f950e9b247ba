"""mlc: an MLIR-style multi-level IR compiler infrastructure for machine learning, in Python.

    >>> import mlc
    >>> m = mlc.parse('func.func @f(%a: i32) -> i32 { return %a : i32 }')
    >>> print(m)  # doctest: +SKIP

Heavy parts (parser, printer, dialects) are imported on first use, so `import mlc` is cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mlc.diagnostics import Diagnostic, DiagnosticError, ParseError, VerifyError

if TYPE_CHECKING:
    from mlc.ir.core import Operation

__version__ = "0.1.0"

__all__ = [
    "Diagnostic",
    "DiagnosticError",
    "ParseError",
    "VerifyError",
    "parse",
    "parse_file",
    "verify",
    "run_pipeline",
    "compile",
    "__version__",
]


def parse(
    text: str,
    *,
    allow_unregistered: bool = False,
    filename: str = "<stdin>",
    implicit_module: bool = True,
) -> Operation:
    """Parse MLIR text into its top-level `builtin.module` (made implicitly around bare ops).

    Raises `mlc.ParseError` with a located diagnostic on malformed text. With
    `implicit_module=False` the text must hold exactly one top-level op, which is returned.
    """
    from mlc.syntax.parser import parse_module

    return parse_module(
        text,
        filename=filename,
        allow_unregistered=allow_unregistered,
        implicit_module=implicit_module,
    )


def parse_file(path: str, *, allow_unregistered: bool = False) -> Operation:
    """Parse the file at `path` (see `parse`)."""
    # Bytes that are not UTF-8 (allowed in MLIR string literals) survive as surrogate escapes.
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
    return parse(text, allow_unregistered=allow_unregistered, filename=path)


def verify(op: Operation) -> None:
    """Verify `op` and everything nested in it; raise `mlc.VerifyError` on failure."""
    from mlc.verifier import verify as _verify

    _verify(op)


def run_pipeline(module: Operation, pipeline: str, knobs: Any = None) -> Any:
    """Run a pass pipeline (`"builtin.module(func.func(cse),canonicalize)"`) on `module` in place.

    `knobs`: a mapping key -> value, a JSON file path, or a `mlc.knobs.KnobContext`. Raises
    `mlc.pass_manager.PipelineError` / `PassError`; returns the knob context of the run.
    """
    from mlc.pass_manager import run_pipeline as _run_pipeline

    return _run_pipeline(module, pipeline, knobs)


def compile(  # noqa: A001 - MLIR/JAX-style public name
    module_or_text: Operation | str,
    pipeline: str = "lower-to-cpu",
    knobs: Any = None,
    **options: Any,
) -> Any:
    """Compile a module (op or text) to callables on NumPy arrays: `mlc.compile(text).main(x)`.

    Options: `threads`, `opt_level`, `use_cache`. See `mlc.lowering.compile.compile`.
    """
    from mlc.lowering.compile import compile as _compile

    return _compile(module_or_text, pipeline, knobs, **options)


def __getattr__(name: str) -> Any:
    # Lazily expose subpackages that later issues add (mlc.interp, mlc.knobs, ...).
    import importlib

    if name in {"ir", "syntax", "dialects", "passes", "lowering", "tools"} or name in {
        "knobs",
        "pass_manager",
        "rewrite",
        "interfaces",
        "interp",
    }:
        return importlib.import_module(f"mlc.{name}")
    raise AttributeError(f"module 'mlc' has no attribute '{name}'")
