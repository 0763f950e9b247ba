"""Passes and the pass manager: typed options, statistics, knobs, nesting, the textual pipeline
syntax, named pipelines, instrumentation (verify-each, IR printing, timing, statistics, crash
reproducers) and the mlc-opt command-line glue.

    class MyPass(Pass):
        '''Do something to every function.'''
        name = "my-pass"
        anchor = "func.func"
        threshold = Option(int, 8, "Largest size handled")
        num_changed = Statistic("num-changed", "Functions changed")

        def run(self, op, ctx):
            ...

    pm = PassManager.parse("builtin.module(func.func(cse,canonicalize{max-iterations=3}))")
    pm.run(module)
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import os
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import IO, Any

from mlc.diagnostics import Diagnostic, DiagnosticError, VerifyError, engine
from mlc.ir.attributes import Location
from mlc.ir.core import Operation
from mlc.knobs import Domain, KnobContext, Site, load_config

__all__ = [
    "Option",
    "ListOption",
    "Statistic",
    "KnobDecl",
    "Pass",
    "PassPipeline",
    "PassContext",
    "OpPassManager",
    "PassManager",
    "PassInstrumentation",
    "PassError",
    "PipelineError",
    "register_pass",
    "register_pipeline",
    "get_pass_class",
    "get_pipeline",
    "registered_pass_names",
    "parse_pipeline",
    "run_pipeline",
    "add_cli_options",
    "run_cli",
    "print_pass_list",
]

# ---------------------------------------------------------------------------------------------
# Options, statistics, knob declarations


class PassError(DiagnosticError):
    """A pass pipeline failed; carries the error diagnostics emitted during the run."""


class PipelineError(DiagnosticError):
    """A malformed pipeline string or option value, located at its column."""


_TYPE_NAMES = {int: "int", float: "float", bool: "bool", str: "string"}


class Option:
    """A typed pass option, declared as a class field: `max_iterations = Option(int, 10, "...")`.

    Its textual name is the field name in kebab-case (`max-iterations`) unless `name` is given.
    `choices` restricts the values. Read it as `self.max_iterations` inside the pass.
    """

    is_list = False

    def __init__(
        self,
        type: type,  # noqa: A002 - reads as the option's type
        default: Any,
        help: str = "",  # noqa: A002
        *,
        name: str | None = None,
        choices: Sequence[Any] | None = None,
    ) -> None:
        self.type = type
        self.default = default
        self.help = help
        self.name = name or ""
        self.attr = ""
        self.choices = tuple(choices) if choices is not None else None

    def __set_name__(self, owner: type, attr: str) -> None:
        self.attr = attr
        if not self.name:
            self.name = attr.replace("_", "-")

    def __get__(self, inst: Any, owner: type) -> Any:
        if inst is None:
            return self
        return inst._options.get(self.attr, self.default)

    def __set__(self, inst: Any, value: Any) -> None:
        inst._options[self.attr] = self.check(value)

    @property
    def type_name(self) -> str:
        return _TYPE_NAMES.get(self.type, self.type.__name__)

    def check(self, value: Any) -> Any:
        """Validate a Python value (raises ValueError)."""
        if self.type is float and type(value) is int:
            value = float(value)
        if type(value) is not self.type:
            raise ValueError(f"option '{self.name}' expects {self.type_name}, got {value!r}")
        if self.choices is not None and value not in self.choices:
            raise ValueError(
                f"option '{self.name}' must be one of {', '.join(map(str, self.choices))}"
            )
        return value

    def parse_scalar(self, text: str, typ: type) -> Any:
        text = _unquote(text)
        if typ is bool:
            low = text.lower()
            if low in ("true", "1", "on", "yes"):
                return True
            if low in ("false", "0", "off", "no"):
                return False
            raise ValueError("expected 'true' or 'false'")
        if typ is int:
            try:
                return int(text, 0)
            except ValueError:
                raise ValueError("expected an integer") from None
        if typ is float:
            try:
                return float(text)
            except ValueError:
                raise ValueError("expected a number") from None
        return text

    def parse(self, text: str | None) -> Any:
        """The value for option text (`None`: the key was given without `=value`)."""
        if text is None:
            if self.type is bool:
                return True
            raise ValueError("expected a value")
        value = self.parse_scalar(text, self.type)
        if self.choices is not None and value not in self.choices:
            raise ValueError(f"expected one of {', '.join(map(str, self.choices))}")
        return value

    def format(self, value: Any) -> str:
        if type(value) is bool:
            return "true" if value else "false"
        text = str(value)
        if text == "" or any(c in text for c in " {}\"'"):
            return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
        return text


class ListOption(Option):
    """A comma-separated list option: `sizes = ListOption(int, (32, 32), "...")` (a tuple)."""

    is_list = True

    def __init__(self, type: type, default: Sequence[Any] = (), help: str = "", **kw: Any) -> None:  # noqa: A002
        super().__init__(type, tuple(default), help, **kw)

    @property
    def type_name(self) -> str:
        return f"list<{_TYPE_NAMES.get(self.type, self.type.__name__)}>"

    def check(self, value: Any) -> Any:
        if not isinstance(value, (list, tuple)):
            raise ValueError(f"option '{self.name}' expects a list of {_TYPE_NAMES.get(self.type)}")
        out = []
        for v in value:
            if self.type is float and type(v) is int:
                v = float(v)
            if type(v) is not self.type:
                raise ValueError(f"option '{self.name}' expects {self.type_name}, got {v!r}")
            out.append(v)
        return tuple(out)

    def parse(self, text: str | None) -> Any:
        if text is None:
            raise ValueError("expected a value")
        text = _unquote(text) if text[:1] in "\"'" else text
        if text.startswith("{") and text.endswith("}"):
            text = text[1:-1]
        if text.strip() == "":
            return ()
        return tuple(self.parse_scalar(part.strip(), self.type) for part in _split_top(text, ","))

    def format(self, value: Any) -> str:
        return ",".join(Option.format(self, v) for v in value)


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        body = text[1:-1]
        return body.replace('\\"', '"').replace("\\\\", "\\") if text[0] == '"' else body
    return text


def _split_top(text: str, sep: str) -> list[str]:
    """Split at `sep` outside brackets and quotes."""
    parts: list[str] = []
    depth = 0
    quote = ""
    start = 0
    for i, c in enumerate(text):
        if quote:
            if c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


class Statistic:
    """A counter a pass declares: `num_erased = Statistic("num-erased", "Ops erased")`.

    `self.num_erased += 1` inside `run`; values accumulate over all runs of the pass instance
    and are reported by `--mlir-pass-statistics`.
    """

    def __init__(self, name: str, description: str = "") -> None:
        self.name = name
        self.description = description
        self.attr = ""

    def __set_name__(self, owner: type, attr: str) -> None:
        self.attr = attr

    def __get__(self, inst: Any, owner: type) -> Any:
        if inst is None:
            return self
        return inst._stats.get(self.attr, 0)

    def __set__(self, inst: Any, value: int) -> None:
        inst._stats[self.attr] = value


class KnobDecl:
    """A knob a pass may ask for (listed by `--list-passes`): name, domain kind, description."""

    __slots__ = ("name", "domain", "help")

    def __init__(self, name: str, domain: str, help: str = "") -> None:  # noqa: A002
        self.name = name
        self.domain = domain
        self.help = help


# ---------------------------------------------------------------------------------------------
# Passes


def _describe(cls: type) -> None:
    """Default `summary` (first docstring line, no final period) and `description` (the rest)."""
    doc = cls.__doc__
    if not doc:
        return
    lines = doc.strip().splitlines()
    if not cls.__dict__.get("summary"):
        cls.summary = lines[0].strip().rstrip(".")  # type: ignore[attr-defined]
    if not cls.__dict__.get("description"):
        import textwrap

        cls.description = textwrap.dedent("\n".join(lines[1:])).strip()  # type: ignore[attr-defined]


class Pass:
    """Base of passes: `name` (kebab-case), `anchor` (op name, or None for any op), options,
    statistics, knobs, and `run(op, ctx)`.

    `run` reports expected failures through `ctx.error(...)` / `ctx.signal_failure()`; it keeps
    no state between runs (per-pipeline setup, like building a pattern set, goes in
    `initialize(ctx)`, called once before the pipeline runs).
    """

    name: str = ""
    summary: str = ""
    description: str = ""
    anchor: str | None = None
    knobs: tuple[KnobDecl, ...] = ()

    def __init__(self, **options: Any) -> None:
        self._options: dict[str, Any] = {}
        self._stats: dict[str, int] = {}
        by_attr = {o.attr: o for o in self.option_defs()}
        by_name = {o.name: o for o in self.option_defs()}
        for key, value in options.items():
            opt = by_attr.get(key) or by_name.get(key)
            if opt is None:
                raise TypeError(f"pass '{self.name}' has no option '{key}'")
            self._options[opt.attr] = opt.check(value)

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        _describe(cls)

    @classmethod
    def option_defs(cls) -> list[Option]:
        seen: dict[str, Option] = {}
        for klass in reversed(cls.__mro__):
            for v in klass.__dict__.values():
                if isinstance(v, Option):
                    seen[v.attr] = v
        return list(seen.values())

    @classmethod
    def statistic_defs(cls) -> list[Statistic]:
        seen: dict[str, Statistic] = {}
        for klass in reversed(cls.__mro__):
            for v in klass.__dict__.values():
                if isinstance(v, Statistic):
                    seen[v.attr] = v
        return list(seen.values())

    @property
    def display_name(self) -> str:
        n = type(self).__name__
        return n[:-4] if n.endswith("Pass") and len(n) > 4 else n

    def initialize(self, ctx: Any) -> None:
        """Once per pipeline run, before any `run` (ctx: the IR Context)."""

    def run(self, op: Operation, ctx: PassContext) -> None:
        raise NotImplementedError

    def options_text(self, *, all_options: bool = False) -> str:
        parts = []
        for opt in self.option_defs():
            value = self._options.get(opt.attr, opt.default)
            if all_options or (opt.attr in self._options and value != opt.default):
                parts.append(f"{opt.name}={opt.format(value)}")
        return "{" + " ".join(parts) + "}" if parts else ""

    def __str__(self) -> str:
        return self.name + self.options_text()

    def __repr__(self) -> str:
        return f"<Pass {self}>"


class PassPipeline:
    """A named pipeline: options like a pass, and `build(pm)` adding passes to `pm`.

    A subclass may instead set `text` (pipeline elements, e.g. "canonicalize,cse").
    """

    name: str = ""
    summary: str = ""
    description: str = ""
    text: str = ""

    def __init__(self, **options: Any) -> None:
        Pass.__init__(self, **options)  # type: ignore[arg-type]

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        _describe(cls)

    option_defs = classmethod(Pass.option_defs.__func__)  # type: ignore[attr-defined]

    def build(self, pm: OpPassManager) -> None:
        pm.add_text(self.text)


# ---------------------------------------------------------------------------------------------
# The registry: data tables of "name": "module:Class" (imported on first use)

_registered_passes: dict[str, type[Pass]] = {}
_registered_pipelines: dict[str, type[PassPipeline]] = {}
_TABLE_PACKAGES = ("mlc.passes", "mlc.lowering")


def register_pass(cls: type[Pass]) -> type[Pass]:
    """Register a pass class under its `name` (also usable as a class decorator)."""
    _registered_passes[cls.name] = cls
    return cls


def register_pipeline(
    name_or_cls: str | type[PassPipeline], summary: str = "", text: str | Callable[..., None] = ""
) -> type[PassPipeline]:
    """Register a named pipeline: a PassPipeline subclass, or a name + text (or builder fn)."""
    if isinstance(name_or_cls, str):
        attrs: dict[str, Any] = {"name": name_or_cls, "summary": summary}
        if callable(text):
            builder = text
            attrs["build"] = lambda self, pm: builder(pm)
        else:
            attrs["text"] = text
        cls = type(f"Pipeline_{name_or_cls}", (PassPipeline,), attrs)
    else:
        cls = name_or_cls
    _registered_pipelines[cls.name] = cls
    return cls


def _tables(attr: str) -> list[tuple[str, dict[str, str]]]:
    out = []
    for pkg in _TABLE_PACKAGES:
        try:
            mod = importlib.import_module(pkg)
        except ImportError:
            continue
        table = getattr(mod, attr, None)
        if table:
            out.append((pkg, table))
    return out


def _load(pkg: str, ref: str) -> Any:
    module, _, cls_name = ref.partition(":")
    if "." not in module:
        module = f"{pkg}.{module}"
    return getattr(importlib.import_module(module), cls_name)


def _lookup(name: str, cache: dict[str, Any], table_name: str) -> Any:
    """The class registered as `name`: from `cache`, else loaded from a `table_name` table."""
    cls = cache.get(name)
    if cls is not None:
        return cls
    for pkg, table in _tables(table_name):
        ref = table.get(name)
        if ref is not None:
            cls = cache[name] = _load(pkg, ref)
            return cls
    return None


def get_pass_class(name: str) -> type[Pass] | None:
    return _lookup(name, _registered_passes, "PASSES")


def get_pipeline(name: str) -> type[PassPipeline] | None:
    return _lookup(name, _registered_pipelines, "PIPELINES")


def registered_pass_names() -> list[str]:
    names = set(_registered_passes)
    for _, table in _tables("PASSES"):
        names.update(table)
    return sorted(names)


def registered_pipeline_names() -> list[str]:
    names = set(_registered_pipelines)
    for _, table in _tables("PIPELINES"):
        names.update(table)
    return sorted(names)


# ---------------------------------------------------------------------------------------------
# Pass managers


class OpPassManager:
    """An ordered list of passes and nested pass managers, anchored on an op name (None: any).

    Nested managers run on the ops directly inside the anchor op's regions whose name matches.
    Adding a pass anchored on another op nests it implicitly (reusing a trailing nest).
    """

    def __init__(self, anchor: str | None = "builtin.module") -> None:
        self.anchor = None if anchor == "any" else anchor
        self.elements: list[Pass | OpPassManager] = []

    def add(self, p: Pass | OpPassManager | str) -> OpPassManager:
        """Add a pass (instance, or pipeline text like "cse,canonicalize{max-iterations=2}")."""
        if isinstance(p, str):
            return self.add_text(p)
        if isinstance(p, OpPassManager):
            self.elements.append(p)
            return self
        if p.anchor is not None and p.anchor != self.anchor:
            self.nest(p.anchor, reuse=True).add(p)
        else:
            self.elements.append(p)
        return self

    def add_text(self, text: str) -> OpPassManager:
        from mlc.pipeline_parser import PipelineParser

        PipelineParser(text).parse_into(self)
        return self

    def nest(self, anchor: str, *, reuse: bool = False) -> OpPassManager:
        """A nested manager for `anchor` ops (with `reuse`, the trailing one if it matches)."""
        key = None if anchor == "any" else anchor
        if reuse and self.elements:
            last = self.elements[-1]
            if isinstance(last, OpPassManager) and last.anchor == key:
                return last
        npm = OpPassManager(anchor)
        self.elements.append(npm)
        return npm

    @property
    def anchor_name(self) -> str:
        return self.anchor or "any"

    def passes(self) -> Iterable[Pass]:
        """All passes, nested ones included, in pipeline order."""
        for e in self.elements:
            if isinstance(e, OpPassManager):
                yield from e.passes()
            else:
                yield e

    def __str__(self) -> str:
        return f"{self.anchor_name}({','.join(str(e) for e in self.elements)})"

    def __repr__(self) -> str:
        return f"<OpPassManager {self}>"


class PassInstrumentation:
    """Hooks around pass and pipeline execution (subclass and override what you need)."""

    def run_before_pipeline(self, pm: OpPassManager, op: Operation) -> None:
        pass

    def run_after_pipeline(self, pm: OpPassManager, op: Operation) -> None:
        pass

    def run_before_pass(self, p: Pass, op: Operation) -> None:
        pass

    def run_after_pass(self, p: Pass, op: Operation) -> None:
        pass

    def run_after_pass_failed(self, p: Pass, op: Operation) -> None:
        pass


class PassContext:
    """What a running pass sees: knobs, diagnostics, failure signalling, the IR context."""

    __slots__ = ("pass_", "knob_context", "context", "failed", "num_errors")

    def __init__(self, pass_: Pass, knob_context: KnobContext, context: Any) -> None:
        self.pass_ = pass_
        self.knob_context = knob_context
        self.context = context
        self.failed = False
        self.num_errors = 0

    def knob(self, site: Site | Operation, name: str, domain: Domain, default: Any) -> Any:
        """The decision for knob `name` at `site` (an op or a Site): configured, else `default`."""
        decls = self.pass_.knobs
        if decls and not any(d.name == name for d in decls):
            raise ValueError(f"pass '{self.pass_.name}' asks for undeclared knob '{name}'")
        return self.knob_context.ask(site, name, domain, default, self.pass_.name)

    def site(self, op: Operation, memo: dict[Operation, str] | None = None) -> Site:
        """The knob site of `op`; `memo` shares op descriptions between the sites a pass asks
        while those ops do not change (see `mlc.knobs.site_of`)."""
        return self.knob_context.site(op, memo)

    def _loc(self, where: Operation | Location | None) -> Location | None:
        if isinstance(where, Operation):
            return where.location
        return where

    def error(self, message: str, where: Operation | Location | None = None) -> Diagnostic:
        """Emit an error (at an op or location) and mark the pass failed."""
        diag = Diagnostic("error", message, self._loc(where))
        engine.emit(diag)  # counted in num_errors by the pass manager's handler
        self.failed = True
        return diag

    def warning(self, message: str, where: Operation | Location | None = None) -> Diagnostic:
        diag = Diagnostic("warning", message, self._loc(where))
        engine.emit(diag)
        return diag

    def remark(self, message: str, where: Operation | Location | None = None) -> Diagnostic:
        diag = Diagnostic("remark", message, self._loc(where))
        engine.emit(diag)
        return diag

    def signal_failure(self) -> None:
        self.failed = True


class PassManager(OpPassManager):
    """The top-level pass manager: runs its pipeline on an op, with instrumentation.

    pm = PassManager("builtin.module")
    pm.nest("func.func").add(CSEPass())
    pm.add("symbol-dce")
    pm.run(module)             # raises PassError on failure
    """

    def __init__(self, anchor: str | None = "builtin.module") -> None:
        super().__init__(anchor)
        self.verify_each = True
        self.instrumentations: list[PassInstrumentation] = []
        self.timing: _Timing | None = None
        self.crash_reproducer: str | None = None
        self.statistics = False
        self.out: IO[str] | None = None  # reports go here (default: stderr at report time)

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str, anchor: str | None = None) -> PassManager:
        """A pass manager from pipeline text. `builtin.module(a,b)` anchors it explicitly; a bare
        list (`cse,canonicalize`) is anchored on `anchor` (None: whatever op it runs on)."""
        from mlc.pipeline_parser import PipelineParser

        parser = PipelineParser(text)
        # Collected on a manager anchored like the result, so that a bare pass anchored on that
        # op (`bufferize` on `builtin.module`) runs on it instead of nesting implicitly.
        root = OpPassManager(anchor)
        parser.parse_into(root)
        pm = cls(anchor)
        if len(root.elements) == 1 and isinstance(root.elements[0], OpPassManager):
            only = root.elements[0]
            # `builtin.module(...)` is always a root; other anchors are roots only when they
            # match the op the pipeline is for (else `func.func(cse)` nests implicitly).
            if anchor is None or only.anchor in (anchor, None, "builtin.module"):
                pm.anchor = only.anchor
                pm.elements = only.elements
                return pm
        for e in root.elements:
            pm.add(e)
        return pm

    def add_instrumentation(self, inst: PassInstrumentation) -> None:
        self.instrumentations.append(inst)

    def enable_verifier(self, enabled: bool = True) -> None:
        self.verify_each = enabled

    def enable_ir_printing(
        self,
        *,
        before: Iterable[str] = (),
        after: Iterable[str] = (),
        before_all: bool = False,
        after_all: bool = False,
        after_change: bool = False,
        after_failure: bool = False,
        module_scope: bool = False,
        out: IO[str] | None = None,
    ) -> None:
        """Print the IR around passes (`before`/`after`: pass names), MLIR's `--mlir-print-ir-*`."""
        self.add_instrumentation(
            _IRPrinter(
                set(before),
                set(after),
                before_all,
                after_all,
                after_change,
                after_failure,
                module_scope,
                out,
            )
        )

    def enable_timing(self) -> None:
        self.timing = _Timing()

    def enable_statistics(self) -> None:
        self.statistics = True

    def enable_crash_reproducer(self, path: str) -> None:
        self.crash_reproducer = path

    # -- running --------------------------------------------------------------------------------

    def run(self, op: Operation, knobs: Any = None) -> KnobContext:
        """Run on `op` in place; raise PassError with the error diagnostics on failure.

        `knobs`: None (defaults), a KnobContext, a mapping key -> value, or a JSON file path.
        Returns the knob context (the knobs met and the values used).
        """
        kctx = _knob_context(knobs)
        errors: list[Diagnostic] = []
        outer = engine._handlers[-1]

        def handle(diag: Diagnostic) -> None:
            if diag.severity == "error":
                errors.append(diag)
            else:
                outer(diag)

        with engine.handler(handle):
            ok = self.execute(op, kctx)
        if not ok:
            if not errors:
                errors.append(Diagnostic("error", "pass pipeline failed", op.location))
            raise PassError(errors)
        return kctx

    def execute(self, op: Operation, knob_context: KnobContext | None = None) -> bool:
        """Run on `op`, emitting diagnostics to the engine; return success."""
        from mlc.ir.context import default_context

        kctx = knob_context if knob_context is not None else KnobContext()
        if self.anchor is not None and op.name != self.anchor:
            engine.emit(
                Diagnostic(
                    "error",
                    f"can't run '{self.anchor}' pass manager on '{op.name}' op",
                    op.location,
                )
            )
            return False
        ir_ctx = default_context()
        for p in self.passes():
            p._stats = {}
        # The collector is paused from the passes' set-up (pattern sets, lazily imported
        # dialects) to the end of the pipeline.
        with _gc_paused():
            try:
                for p in self.passes():
                    p.initialize(ir_ctx)
            except DiagnosticError as e:
                for d in e.diagnostics:
                    engine.emit(d)
                return False
            runner = _Runner(self, op, kctx, ir_ctx)
            start = time.perf_counter()
            ok = runner.run_pm(self, op, [self.anchor_name])
            if self.timing is not None:
                self.timing.total += time.perf_counter() - start
        return ok

    # -- reports --------------------------------------------------------------------------------

    def timing_report(self) -> str:
        """MLIR's execution time report (empty unless `enable_timing()`)."""
        if self.timing is None:
            return ""
        return self.timing.report(self)

    def statistics_report(self) -> str:
        """MLIR's pass statistics report."""
        lines = [_BANNER, _center("... Pass statistics report ..."), _BANNER]
        self._stats_lines(self, 0, lines)
        return "\n".join(lines) + "\n"

    def _stats_lines(self, pm: OpPassManager, depth: int, lines: list[str]) -> None:
        pad = "  " * depth
        for e in pm.elements:
            if isinstance(e, OpPassManager):
                lines.append(f"{pad}'{e.anchor_name}' Pipeline")
                self._stats_lines(e, depth + 1, lines)
                continue
            lines.append(f"{pad}{e.display_name}")
            for s in e.statistic_defs():
                value = e._stats.get(s.attr, 0)
                lines.append(f"{pad}  (S) {value} {s.name} - {s.description}")


_gc_depth = 0


@contextlib.contextmanager
def _gc_paused() -> Any:
    """Pause the cyclic GC while a pipeline runs (as the parser does while it builds IR).

    Passes allocate in proportion to the IR; on CPython 3.11 that triggers full collections
    that each traverse the whole, mostly unchanged module (measured: 2 full collections were
    6.5 s of a 9 s CSE run on 100k ops). The garbage a run leaves (erased ops) is collected
    normally once the GC resumes: one young-generation collection of what the run allocated.

    `gc.freeze()` after parsing is not used: while the collector is paused it would not change
    the passes' time, and frozen objects are never collected, so in a long-lived process (the
    tuner compiles thousands of candidates) erased IR, which is full of reference cycles,
    would leak.
    """
    global _gc_depth
    if _gc_depth == 0 and not gc.isenabled():
        yield  # the caller manages the GC itself
        return
    _gc_depth += 1
    gc.disable()
    try:
        yield
    finally:
        _gc_depth -= 1
        if _gc_depth == 0:
            gc.enable()


def _knob_context(knobs: Any) -> KnobContext:
    if knobs is None:
        return KnobContext()
    if isinstance(knobs, KnobContext):
        return knobs
    return KnobContext(load_config(knobs))


_BANNER = "===" + "-" * 73 + "==="


def _center(text: str) -> str:
    return text.center(len(_BANNER)).rstrip()


class _Timing:
    """Wall time per pass instance and per nested manager, summed over all ops it ran on."""

    def __init__(self) -> None:
        self.times: dict[int, float] = {}
        self.verifier = 0.0
        self.total = 0.0

    def add(self, key: object, dt: float) -> None:
        k = id(key)
        self.times[k] = self.times.get(k, 0.0) + dt

    def report(self, pm: PassManager) -> str:
        total = self.total or 1e-12
        lines = [
            _BANNER,
            _center("... Execution time report ..."),
            _BANNER,
            f"  Total Execution Time: {self.total:.4f} seconds",
            "",
            "  ----Wall Time----  ----Name----",
        ]

        def row(t: float, name: str, depth: int) -> None:
            lines.append(f"  {t:8.4f} ({100.0 * t / total:5.1f}%)  {'  ' * depth}{name}")

        def walk(p: OpPassManager, depth: int) -> None:
            for e in p.elements:
                t = self.times.get(id(e), 0.0)
                if isinstance(e, OpPassManager):
                    row(t, f"'{e.anchor_name}' Pipeline", depth)
                    walk(e, depth + 1)
                else:
                    row(t, e.display_name, depth)

        walk(pm, 0)
        if self.verifier:
            row(self.verifier, "(A) Verifier", 0)
        row(self.total, "Total", 0)
        return "\n".join(lines) + "\n"


class _IRPrinter(PassInstrumentation):
    def __init__(
        self,
        before: set[str],
        after: set[str],
        before_all: bool,
        after_all: bool,
        after_change: bool,
        after_failure: bool,
        module_scope: bool,
        out: IO[str] | None,
    ) -> None:
        self.before, self.after = before, after
        self.before_all, self.after_all = before_all, after_all
        self.after_change, self.after_failure = after_change, after_failure
        self.module_scope = module_scope
        self.out = out
        self.root: Operation | None = None
        self._fingerprints: list[str] = []

    def _print(self, header: str, p: Pass, op: Operation, suffix: str = "") -> None:
        out = self.out if self.out is not None else sys.stderr
        target = op
        if self.module_scope and self.root is not None:
            target = self.root
        try:
            text = target.print()
        except Exception:  # the IR may be broken after a failed pass: fall back to generic form
            text = target.print(generic=True)
        out.write(
            f"// -----// IR Dump {header} {p.display_name}{suffix} ({p.name}) //----- //\n"
            f"{text}\n\n"
        )

    def run_before_pass(self, p: Pass, op: Operation) -> None:
        if self.before_all or p.name in self.before:
            self._print("Before", p, op)
        if self.after_change:
            self._fingerprints.append(op.print(generic=True))

    def run_after_pass(self, p: Pass, op: Operation) -> None:
        if self.after_change:
            old = self._fingerprints.pop()
            if old == op.print(generic=True):
                return
            self._print("After", p, op)
            return
        if self.after_all or p.name in self.after:
            self._print("After", p, op)

    def run_after_pass_failed(self, p: Pass, op: Operation) -> None:
        if self.after_change:
            self._fingerprints.pop()
        if self.after_failure:
            self._print("After", p, op, " Failed")


class _Runner:
    """Executes a pass manager tree on IR (op-by-op: each child runs the whole nested list)."""

    def __init__(self, pm: PassManager, root: Operation, kctx: KnobContext, ir_ctx: Any) -> None:
        self.pm = pm
        self.root = root
        self.kctx = kctx
        self.ir_ctx = ir_ctx
        self.insts = pm.instrumentations
        for inst in self.insts:
            if isinstance(inst, _IRPrinter):
                inst.root = root
        self.timing = pm.timing
        self.reproducer = pm.crash_reproducer

    def run_pm(self, pm: OpPassManager, op: Operation, path: list[str]) -> bool:
        timing = self.timing
        for e in pm.elements:
            if timing is not None:
                start, verified = time.perf_counter(), timing.verifier
            if isinstance(e, OpPassManager):
                ok = self.run_nested(e, op, path)
            else:
                ok = self.run_pass(e, op, path)
            if timing is not None:
                # Verification is reported on its own line, not as the pass's time.
                timing.add(e, time.perf_counter() - start - (timing.verifier - verified))
            if not ok:
                return False
        return True

    def run_nested(self, npm: OpPassManager, op: Operation, path: list[str]) -> bool:
        anchor = npm.anchor
        children = [
            child
            for region in op.regions
            for block in region.blocks
            for child in block
            if anchor is None or child.name == anchor
        ]
        sub = path + [npm.anchor_name]
        for child in children:
            for inst in self.insts:
                inst.run_before_pipeline(npm, child)
            ok = self.run_pm(npm, child, sub)
            for inst in self.insts:
                inst.run_after_pipeline(npm, child)
            if not ok:
                return False
        return True

    def run_pass(self, p: Pass, op: Operation, path: list[str]) -> bool:
        if p.anchor is not None and op.name != p.anchor:
            engine.emit(
                Diagnostic(
                    "error",
                    f"pass '{p.name}' expects a '{p.anchor}' op, but was run on '{op.name}'",
                    op.location,
                )
            )
            return False
        snapshot = op.clone() if self.reproducer else None
        for inst in self.insts:
            inst.run_before_pass(p, op)
        self.kctx.invalidate()
        ctx = PassContext(p, self.kctx, self.ir_ctx)
        # Count the errors the pass emits by any route (ctx.error, or helpers such as the
        # conversion driver emitting to the engine), so a failure is never reported twice.
        outer = engine._handlers[-1]

        def count(diag: Diagnostic) -> None:
            if diag.severity == "error":
                ctx.num_errors += 1
            outer(diag)

        with engine.handler(count):
            try:
                p.run(op, ctx)
            except DiagnosticError as e:
                for d in e.diagnostics:
                    engine.emit(d)
                ctx.failed = True
            except Exception as e:  # a bug in the pass: report it against the pass, not the input
                diag = Diagnostic(
                    "error", f"pass '{p.name}' crashed: {type(e).__name__}: {e}", op.location
                )
                if os.environ.get("MLC_TRACEBACK"):
                    import traceback

                    traceback.print_exc()
                engine.emit(diag)
                ctx.failed = True
        if ctx.failed and ctx.num_errors == 0:
            engine.emit(Diagnostic("error", f"pass '{p.name}' failed", op.location))
        if not ctx.failed and self.pm.verify_each:
            ctx.failed = not self._verify(p, op)
        if ctx.failed:
            for inst in self.insts:
                inst.run_after_pass_failed(p, op)
            if snapshot is not None:
                self._write_reproducer(p, op, snapshot, path)
            return False
        for inst in self.insts:
            inst.run_after_pass(p, op)
        return True

    def _verify(self, p: Pass, op: Operation) -> bool:
        from mlc.verifier import verify

        start = time.perf_counter()
        try:
            verify(op)
            return True
        except VerifyError as e:
            for d in e.diagnostics:
                d.attach_note(f"the IR is invalid after pass '{p.name}'", d.location)
                engine.emit(d)
            return False
        finally:
            if self.timing is not None:
                self.timing.verifier += time.perf_counter() - start

    def _write_reproducer(
        self, p: Pass, op: Operation, snapshot: Operation, path: list[str]
    ) -> None:
        pipeline = str(p)
        for anchor in reversed(path):
            pipeline = f"{anchor}({pipeline})"
        root = self.root
        if op is root:
            text = snapshot.print()
        elif op.parent is not None and not op.has_uses():
            block = op.parent
            block.insert_before(snapshot, op)
            op.detach()
            try:
                text = root.print()
            finally:
                block.insert_before(op, snapshot)
                snapshot.detach()
                snapshot.drop_all_references()
        else:
            text = root.print()
        flags = "" if self.pm.verify_each else " --verify-each=false"
        header = (
            f"// mlc crash reproducer: the IR before pass '{p.name}' failed; "
            "`mlc-opt FILE` reruns it.\n"
            f"// configuration: -p '{pipeline}'{flags}\n"
        )
        assert self.reproducer is not None
        with open(self.reproducer, "w", encoding="utf-8") as f:
            f.write(header + text + "\n")
        engine.emit(
            Diagnostic(
                "note", f"pipeline crash reproducer written to '{self.reproducer}'", op.location
            )
        )


def parse_pipeline(text: str, anchor: str | None = None) -> PassManager:
    """`PassManager.parse(text, anchor)`."""
    return PassManager.parse(text, anchor)


def run_pipeline(
    module: Operation, pipeline: str | OpPassManager, knobs: Any = None
) -> KnobContext:
    """Run `pipeline` on `module` in place (verifying after each pass).

    Raises `PipelineError` for a bad pipeline and `PassError` when a pass fails. `knobs` is a
    mapping key -> value, a JSON file path, or a KnobContext; the knob context is returned.
    """
    if isinstance(pipeline, PassManager):
        pm = pipeline
    elif isinstance(pipeline, OpPassManager):
        pm = PassManager(pipeline.anchor)
        pm.elements = pipeline.elements
    else:
        pm = PassManager.parse(pipeline, module.name)
    return pm.run(module, knobs)


# ---------------------------------------------------------------------------------------------
# Command line (implemented in mlc.pass_cli; re-exported for tools/mlc_opt.py)


def add_cli_options(parser: Any) -> None:
    """Register the pass-manager flags of mlc-opt on an argparse parser."""
    from mlc.pass_cli import add_cli_options as add

    add(parser)


def run_cli(module: Operation, args: Any) -> bool:
    """Run the pipeline the parsed flags ask for on `module`; return success."""
    from mlc.pass_cli import run_cli as run

    return run(module, args)


def print_pass_list(out: IO[str] | None = None) -> None:
    """`--list-passes`: every registered pass and pipeline with its options and knobs."""
    from mlc.pass_cli import print_pass_list as show

    show(out)
