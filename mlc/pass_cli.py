"""The pass-manager part of mlc-opt's command line: flags, running the requested pipeline with
its instrumentation, `--list-passes`, and rerunning crash reproducers."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import IO, Any

from mlc.diagnostics import DiagnosticError
from mlc.ir.attributes import file_line_col
from mlc.ir.core import Operation
from mlc.knobs import KnobContext, load_config
from mlc.pass_manager import (
    PassManager,
    PipelineError,
    get_pass_class,
    get_pipeline,
    registered_pass_names,
    registered_pipeline_names,
)

__all__ = ["add_cli_options", "run_cli", "print_pass_list"]


def add_cli_options(parser: Any) -> None:
    """Register the pass-manager flags of mlc-opt on an argparse parser."""
    from mlc.ir.context import default_context

    # The `ptest` dialect (a loop, memory effects, branches) serves the lit tests of passes.
    default_context().register_dialect_module("ptest", "mlc.passes.test_dialect")
    g = parser.add_argument_group("pass pipeline")
    g.add_argument(
        "-p",
        "--pass-pipeline",
        dest="pass_pipeline",
        metavar="PIPELINE",
        help="the pass pipeline to run, e.g. 'builtin.module(func.func(cse))'",
    )
    g.add_argument(
        "--list-passes", action="store_true", help="list registered passes and pipelines"
    )
    g.add_argument(
        "--verify-each",
        nargs="?",
        const="true",
        default="true",
        metavar="BOOL",
        help="verify the IR after every pass (default true)",
    )
    g.add_argument(
        "--mlir-print-ir-before",
        action="append",
        default=[],
        metavar="PASS",
        help="print the IR before the named pass(es)",
    )
    g.add_argument(
        "--mlir-print-ir-after",
        action="append",
        default=[],
        metavar="PASS",
        help="print the IR after the named pass(es)",
    )
    g.add_argument(
        "--mlir-print-ir-before-all", action="store_true", help="print the IR before every pass"
    )
    g.add_argument(
        "--mlir-print-ir-after-all", action="store_true", help="print the IR after every pass"
    )
    g.add_argument(
        "--mlir-print-ir-after-change",
        action="store_true",
        help="print the IR after a pass only when it changed the IR",
    )
    g.add_argument(
        "--mlir-print-ir-after-failure", action="store_true", help="print the IR after a pass fails"
    )
    g.add_argument(
        "--mlir-print-ir-module-scope",
        action="store_true",
        help="print the whole top-level op instead of the pass's anchor op",
    )
    g.add_argument("--mlir-timing", action="store_true", help="report per-pass wall time")
    g.add_argument("--mlir-pass-statistics", action="store_true", help="report pass statistics")
    g.add_argument(
        "--mlir-pass-pipeline-crash-reproducer",
        metavar="FILE",
        default=None,
        help="on a pass failure, write the IR before that pass and the pipeline to FILE",
    )
    g.add_argument(
        "--dump-knobs",
        metavar="FILE",
        default=None,
        help="write the knob space the pipeline met (JSON)",
    )
    g.add_argument(
        "--knobs",
        metavar="FILE",
        default=None,
        help="apply a knob configuration (JSON object: key -> value)",
    )


def _parse_bool_flag(text: str) -> bool | None:
    low = str(text).lower()
    if low in ("true", "1", "on", "yes"):
        return True
    if low in ("false", "0", "off", "no"):
        return False
    return None


def _split_names(values: Iterable[str]) -> set[str]:
    return {n.strip() for v in values for n in v.split(",") if n.strip()}


_REPRO_PREFIX = "// configuration: "


def _reproducer_pipeline(module: Operation, args: Any) -> tuple[str | None, bool | None]:
    """The pipeline (and verify-each setting) recorded in a crash reproducer input, if any."""
    from mlc.diagnostics import _SOURCES

    text = None
    loc = file_line_col(module.location)
    if loc is not None:
        text = _SOURCES.get(loc.filename)
    if text is None:
        for attr in ("input", "input_file", "filename", "file"):
            path = getattr(args, attr, None)
            if isinstance(path, str) and path != "-" and os.path.isfile(path):
                with open(path, encoding="utf-8") as f:
                    text = f.read(4096)
                break
    if not text:
        return None, None
    for line in text.splitlines()[:4]:
        if line.startswith(_REPRO_PREFIX):
            rest = line[len(_REPRO_PREFIX) :]
            if rest.startswith("-p '"):
                end = rest.find("'", 4)
                if end > 0:
                    verify = False if "--verify-each=false" in rest[end:] else None
                    return rest[4:end], verify
    return None, None


def print_pass_list(out: IO[str] | None = None) -> None:
    """`--list-passes`: names, summaries, options (type, default) and knobs of every pass."""
    out = out if out is not None else sys.stdout
    out.write("Available passes:\n")
    for name in registered_pass_names():
        cls = get_pass_class(name)
        if cls is None:
            continue
        anchor = f" [on {cls.anchor}]" if cls.anchor else ""
        out.write(f"  {name}{anchor} - {cls.summary}\n")
        for opt in cls.option_defs():
            default = opt.format(opt.default)
            out.write(f"      {opt.name}=<{opt.type_name}> (default: {default}) - {opt.help}\n")
        for k in cls.knobs:
            out.write(f"      knob {k.name}: {k.domain} - {k.help}\n")
    pipes = registered_pipeline_names()
    if pipes:
        out.write("Available pass pipelines:\n")
        for name in pipes:
            pcls = get_pipeline(name)
            if pcls is None:
                continue
            out.write(f"  {name} - {pcls.summary}\n")
            for opt in pcls.option_defs():
                default = opt.format(opt.default)
                out.write(f"      {opt.name}=<{opt.type_name}> (default: {default}) - {opt.help}\n")


def run_cli(module: Operation, args: Any) -> bool:
    """Run the pipeline the parsed flags ask for on `module` (in place), with instrumentation.

    Diagnostics go to the engine (stderr, or mlc-opt's `--verify-diagnostics` handler); reports
    (timing, statistics, IR dumps) to stderr. Returns success.
    """
    if getattr(args, "list_passes", False):
        print_pass_list()
        return True
    err = sys.stderr
    pipeline = getattr(args, "pass_pipeline", None)
    verify_override = None
    if pipeline is None:
        pipeline, verify_override = _reproducer_pipeline(module, args)
    verify = _parse_bool_flag(getattr(args, "verify_each", "true"))
    if verify is None:
        err.write(
            f"error: invalid value '{args.verify_each}' for --verify-each "
            "(expected true or false)\n"
        )
        return False
    if verify_override is not None:
        verify = verify_override
    try:
        pm = PassManager.parse(pipeline or "", module.name)
    except PipelineError as e:
        err.write(e.render() + "\n")
        return False
    pm.enable_verifier(verify)
    before = _split_names(getattr(args, "mlir_print_ir_before", ()) or ())
    after = _split_names(getattr(args, "mlir_print_ir_after", ()) or ())
    for flagged in before | after:
        if get_pass_class(flagged) is None:
            err.write(f"error: '{flagged}' does not refer to a registered pass\n")
            return False
    if (
        before
        or after
        or getattr(args, "mlir_print_ir_before_all", False)
        or getattr(args, "mlir_print_ir_after_all", False)
        or getattr(args, "mlir_print_ir_after_change", False)
        or getattr(args, "mlir_print_ir_after_failure", False)
    ):
        pm.enable_ir_printing(
            before=before,
            after=after,
            before_all=getattr(args, "mlir_print_ir_before_all", False),
            after_all=getattr(args, "mlir_print_ir_after_all", False),
            after_change=getattr(args, "mlir_print_ir_after_change", False),
            after_failure=getattr(args, "mlir_print_ir_after_failure", False),
            module_scope=getattr(args, "mlir_print_ir_module_scope", False),
        )
    if getattr(args, "mlir_timing", False):
        pm.enable_timing()
    repro = getattr(args, "mlir_pass_pipeline_crash_reproducer", None)
    if repro:
        pm.enable_crash_reproducer(repro)
    knobs_path = getattr(args, "knobs", None)
    try:
        kctx = KnobContext(load_config(knobs_path)) if knobs_path else KnobContext()
    except DiagnosticError as e:
        err.write(e.render() + "\n")
        return False
    ok = pm.execute(module, kctx)
    if knobs_path and ok:
        kctx.warn_unknown_keys()
    dump = getattr(args, "dump_knobs", None)
    if dump:
        try:
            kctx.dump(dump)
        except OSError as e:
            err.write(f"error: cannot write knob space to '{dump}': {e.strerror}\n")
            ok = False
    if getattr(args, "mlir_timing", False):
        err.write(pm.timing_report())
    if getattr(args, "mlir_pass_statistics", False):
        err.write(pm.statistics_report())
    return ok
