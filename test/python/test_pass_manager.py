"""The pass manager: pipeline syntax and errors, nesting, options, registry, instrumentation,
failures and crashes, statistics, timing, knobs through passes, the CLI glue."""

from __future__ import annotations

import argparse
import io
import json

import pytest
from pass_test_dialect import func, module

from mlc.diagnostics import engine
from mlc.ir.core import Operation
from mlc.pass_manager import (
    KnobDecl,
    ListOption,
    OpPassManager,
    Option,
    Pass,
    PassContext,
    PassError,
    PassInstrumentation,
    PassManager,
    PassPipeline,
    PipelineError,
    Statistic,
    add_cli_options,
    get_pass_class,
    print_pass_list,
    register_pass,
    register_pipeline,
    run_cli,
)


def _module_with_funcs(n: int = 2) -> Operation:
    m, body = module()
    for i in range(n):
        f, b = func(body, f"f{i}")
        x = b.block.arguments[0]
        c = b.const(1)
        b.ret(b.add(b.add(x, c), b.add(x, c)))  # one add is redundant (CSE)
    return m


# ---------------------------------------------------------------------------------------------
# Passes defined for these tests


@register_pass
class RecordPass(Pass):
    """Record which ops it ran on (in a class-level log)."""

    name = "test-record"
    tag = Option(str, "", "A tag written to the log")
    log: list[tuple[str, str, str]] = []

    def run(self, op: Operation, ctx: PassContext) -> None:
        sym = op.get_attr("sym_name")
        RecordPass.log.append((self.tag, op.name, sym.value if sym is not None else ""))


@register_pass
class FuncAnchoredPass(Pass):
    """Anchored on tp.func."""

    name = "test-func-anchored"
    anchor = "tp.func"
    runs = Statistic("num-runs", "Times run")

    def run(self, op: Operation, ctx: PassContext) -> None:
        self.runs += 1


@register_pass
class KnobPass(Pass):
    """Ask a knob per tp.add and record the answers as attributes."""

    name = "test-knob"
    knobs = (KnobDecl("factor", "pow2", "A factor"),)

    def run(self, op: Operation, ctx: PassContext) -> None:
        from mlc.ir.attributes import IntegerAttr
        from mlc.knobs import PowerOfTwo

        for nested in op.walk():
            if nested.name == "tp.add":
                v = ctx.knob(nested, "factor", PowerOfTwo(1, 8), 2)
                nested.set_attr("factor", IntegerAttr(v))


@register_pass
class UndeclaredKnobPass(Pass):
    """Asks a knob it does not declare."""

    name = "test-undeclared-knob"
    knobs = (KnobDecl("a", "bool"),)

    def run(self, op: Operation, ctx: PassContext) -> None:
        from mlc.knobs import Bool

        ctx.knob(op, "b", Bool(), False)


def _pm(text: str, anchor: str | None = "tp.module") -> PassManager:
    pm = PassManager.parse(text, anchor)
    pm.enable_verifier(False)
    return pm


# ---------------------------------------------------------------------------------------------
# Pipeline syntax


@pytest.mark.parametrize(
    "text, printed",
    [
        ("tp.module(cse,canonicalize)", "tp.module(cse,canonicalize)"),
        ("tp.module(tp.func(cse, canonicalize))", "tp.module(tp.func(cse,canonicalize))"),
        ("cse", "tp.module(cse)"),
        (
            "canonicalize{max-iterations=3 top-down=false}",
            "tp.module(canonicalize{top-down=false max-iterations=3})",
        ),
        ("tp.module(canonicalize{max-iterations=10})", "tp.module(canonicalize)"),
        ("tp.module(test-func-anchored)", "tp.module(tp.func(test-func-anchored))"),
        (
            "tp.module(test-func-anchored,test-func-anchored)",
            "tp.module(tp.func(test-func-anchored,test-func-anchored))",
        ),
        ("any(cse)", "any(cse)"),
        ("tp.module()", "tp.module()"),
        ("", "tp.module()"),
        ("tp.func(cse)", "tp.module(tp.func(cse))"),
    ],
)
def test_pipeline_round_trip(text: str, printed: str) -> None:
    assert str(PassManager.parse(text, "tp.module")) == printed


def test_options_typed() -> None:
    pm = PassManager.parse(
        'test-options{count=0x10 flag label="a b}c" sizes=32,64,128 mode=slow}', "tp.module"
    )
    (p,) = list(pm.passes())
    assert p.count == 16 and p.flag is True and p.label == "a b}c"
    assert p.sizes == (32, 64, 128) and p.mode == "slow"
    # Printing quotes what needs it, and parses back to the same values.
    again = PassManager.parse(str(pm))
    (q,) = list(again.passes())
    assert (q.count, q.flag, q.label, q.sizes, q.mode) == (16, True, "a b}c", (32, 64, 128), "slow")


def test_list_option_braces_and_empty() -> None:
    (p,) = PassManager.parse("test-options{sizes={1,2}}").passes()
    assert p.sizes == (1, 2)
    (p,) = PassManager.parse("test-options{sizes=}").passes()
    assert p.sizes == ()


def _error(text: str) -> PipelineError:
    with pytest.raises(PipelineError) as info:
        PassManager.parse(text, "tp.module")
    return info.value


@pytest.mark.parametrize(
    "text, col, message",
    [
        ("tp.module(cse,nope)", 15, "'nope' does not refer to a registered pass or pass pipeline"),
        ("tp.module(cse", 10, "expected ')' to close the 'tp.module' pipeline opened here"),
        ("tp.module(cse))", 15, "unbalanced ')' in pass pipeline"),
        ("tp.module(cse cse)", 15, "expected ',' or ')' in the pass pipeline"),
        (
            "canonicalize{max-iterations=x}",
            14,
            "invalid value 'x' for option 'max-iterations' of 'canonicalize': expected an integer",
        ),
        ("canonicalize{bogus=1}", 14, "no option 'bogus' for 'canonicalize'"),
        ("canonicalize{max-iterations=3", 13, "expected '}' to close the options opened here"),
        ("test-options{mode=medium}", 14, "expected one of fast, slow"),
        ("cse,", 5, "expected a pass or op name at the end of the pipeline"),
        ("cse,,dce", 5, "expected a pass or op name, found ','"),
        ("test-options{flag=maybe}", 14, "expected 'true' or 'false'"),
    ],
)
def test_pipeline_errors_point_at_column(text: str, col: int, message: str) -> None:
    err = _error(text)
    loc = err.diagnostic.location
    assert loc.col == col, err.render()
    assert message in err.diagnostic.message
    rendered = err.render()
    # The source line and a caret under the column.
    assert text in rendered
    assert rendered.splitlines()[-1] == " " * (col - 1) + "^"


def test_named_pipeline_expands_with_options() -> None:
    pm = PassManager.parse("tp.module(simplify{max-iterations=4})")
    assert str(pm) == "tp.module(canonicalize{max-iterations=4},cse,canonicalize{max-iterations=4})"


def test_register_pipeline_text_and_builder() -> None:
    register_pipeline("test-twice-cse", "CSE twice", "cse,cse")
    register_pipeline("test-built", "builder", lambda pm: pm.add("dce"))
    assert (
        str(PassManager.parse("test-twice-cse,test-built", "tp.module")) == "tp.module(cse,cse,dce)"
    )

    class Piped(PassPipeline):
        """With an option."""

        name = "test-piped"
        n = Option(int, 1, "copies")

        def build(self, pm: OpPassManager) -> None:
            for _ in range(self.n):
                pm.add("cse")

    register_pipeline(Piped)
    assert str(PassManager.parse("test-piped{n=3}", "tp.module")) == "tp.module(cse,cse,cse)"


def test_build_in_code() -> None:
    from mlc.passes.canonicalize import CanonicalizePass
    from mlc.passes.cse import CSEPass

    pm = PassManager("tp.module")
    pm.nest("tp.func").add(CSEPass()).add(CanonicalizePass(max_iterations=2))
    pm.add(FuncAnchoredPass())  # nests implicitly, reusing the trailing tp.func manager
    pm.add("symbol-dce")
    assert (
        str(pm)
        == "tp.module(tp.func(cse,canonicalize{max-iterations=2},test-func-anchored),symbol-dce)"
    )
    with pytest.raises(TypeError):
        CanonicalizePass(bogus=1)
    with pytest.raises(ValueError):
        CanonicalizePass(max_iterations="three")


# ---------------------------------------------------------------------------------------------
# Execution


def test_nested_runs_op_by_op_on_matching_children() -> None:
    m = _module_with_funcs(2)
    RecordPass.log = []
    _pm(
        "tp.module(test-record{tag=a},tp.func(test-record{tag=b},test-record{tag=c}),any(test-record{tag=d}))"
    ).execute(m)
    assert RecordPass.log == [
        ("a", "tp.module", ""),
        ("b", "tp.func", "f0"),
        ("c", "tp.func", "f0"),
        ("b", "tp.func", "f1"),
        ("c", "tp.func", "f1"),
        ("d", "tp.func", "f0"),
        ("d", "tp.func", "f1"),
    ]


def test_anchor_mismatch_is_an_error() -> None:
    m = _module_with_funcs(1)
    with engine.capture() as diags:
        ok = PassManager.parse("tp.func(cse)", "tp.func").execute(m)
    assert not ok
    assert "can't run 'tp.func' pass manager on 'tp.module' op" in diags[0].message


def test_pass_failure_stops_pipeline_and_names_error() -> None:
    m = _module_with_funcs(2)
    RecordPass.log = []
    with engine.capture() as diags:
        ok = _pm("tp.module(tp.func(test-pass-failure),test-record)").execute(m)
    assert not ok
    assert [d.message for d in diags] == ["test-pass-failure: failing on purpose"]
    assert RecordPass.log == []  # later passes did not run


def test_silent_failure_gets_a_diagnostic_naming_the_pass() -> None:
    m = _module_with_funcs(1)
    with engine.capture() as diags:
        ok = _pm("test-pass-failure{silent=true}").execute(m)
    assert not ok and diags[0].message == "pass 'test-pass-failure' failed"


def test_crash_is_reported_against_the_pass() -> None:
    m = _module_with_funcs(1)
    with engine.capture() as diags:
        ok = _pm("tp.module(tp.func(test-pass-crash))").execute(m)
    assert not ok
    assert (
        diags[0].message
        == "pass 'test-pass-crash' crashed: RuntimeError: test-pass-crash: crashing on purpose"
    )
    assert diags[0].location is m.regions[0].blocks[0].first.location


def test_run_raises_pass_error_with_diagnostics() -> None:
    m = _module_with_funcs(1)
    with pytest.raises(PassError) as info:
        _pm("test-pass-failure").run(m)
    assert info.value.diagnostic.message == "test-pass-failure: failing on purpose"


def test_wrong_anchor_for_pass_run_directly() -> None:
    m = _module_with_funcs(1)
    pm = PassManager(None)
    pm.elements.append(FuncAnchoredPass())  # bypass implicit nesting
    with engine.capture() as diags:
        assert not pm.execute(m)
    assert (
        "pass 'test-func-anchored' expects a 'tp.func' op, but was run on 'tp.module'"
        in diags[0].message
    )


def test_statistics_accumulate_and_report() -> None:
    m = _module_with_funcs(3)
    pm = _pm("tp.module(tp.func(test-func-anchored,cse))")
    pm.execute(m)
    report = pm.statistics_report()
    assert "'tp.func' Pipeline" in report
    assert "(S) 3 num-runs - Times run" in report
    assert "(S) 3 num-cse'd - Number of operations CSE'd" in report
    # A second run starts from zero.
    pm.execute(m)
    assert "(S) 3 num-runs" in pm.statistics_report()


def test_timing_report_nested_like_pipeline() -> None:
    m = _module_with_funcs(2)
    pm = _pm("tp.module(tp.func(cse,canonicalize),symbol-dce)")
    pm.enable_timing()
    pm.execute(m)
    lines = pm.timing_report().splitlines()
    names = [ln.split(")", 1)[1] for ln in lines if "%)" in ln]
    assert names == [
        "  'tp.func' Pipeline",
        "    CSE",
        "    Canonicalize",
        "  SymbolDCE",
        "  Total",
    ]
    assert "Total Execution Time:" in pm.timing_report()


def test_instrumentation_hooks_order() -> None:
    events: list[str] = []

    class Log(PassInstrumentation):
        def run_before_pipeline(self, pm: OpPassManager, op: Operation) -> None:
            events.append(f"pipeline {pm.anchor_name}")

        def run_before_pass(self, p: Pass, op: Operation) -> None:
            events.append(f"before {p.name}")

        def run_after_pass(self, p: Pass, op: Operation) -> None:
            events.append(f"after {p.name}")

        def run_after_pass_failed(self, p: Pass, op: Operation) -> None:
            events.append(f"failed {p.name}")

    m = _module_with_funcs(1)
    pm = _pm("tp.module(tp.func(cse),test-pass-failure)")
    pm.add_instrumentation(Log())
    with engine.capture():
        pm.execute(m)
    assert events == [
        "pipeline tp.func",
        "before cse",
        "after cse",
        "before test-pass-failure",
        "failed test-pass-failure",
    ]


# ---------------------------------------------------------------------------------------------
# Knobs through passes


def test_knobs_default_dump_and_apply(tmp_path) -> None:  # noqa: ANN001
    m = _module_with_funcs(1)
    kctx = _pm("test-knob").run(m)
    space = kctx.space()
    assert len(space) == 3 and all(r.value == 2 and r.source == "default" for r in space)
    assert all(r.pass_name == "test-knob" and r.name == "factor" for r in space)
    dump = json.loads(kctx.dump(tmp_path / "k.json"))
    assert dump["knobs"][0]["domain"] == {"kind": "pow2", "min": 1, "max": 8}
    # Apply a configuration to a fresh copy of the same program: same keys.
    key = space[0].key
    m2 = _module_with_funcs(1)
    (tmp_path / "cfg.json").write_text(json.dumps({key: 8}))
    kctx2 = _pm("test-knob").run(m2, str(tmp_path / "cfg.json"))
    assert [r.value for r in kctx2.space()] == [8, 2, 2]
    adds = [op for op in m2.walk() if op.name == "tp.add"]
    assert adds[0].get_attr("factor").value == 8


def test_knob_out_of_domain_fails_the_pass() -> None:
    m = _module_with_funcs(1)
    key = _pm("test-knob").run(_module_with_funcs(1)).space()[0].key
    with pytest.raises(PassError) as info:
        _pm("test-knob").run(m, {key: 3})
    msg = info.value.diagnostic.message
    assert msg == f"value 3 of knob '{key}' is outside its domain pow2[1..8]"


def test_undeclared_knob_is_a_pass_bug() -> None:
    m = _module_with_funcs(1)
    with pytest.raises(PassError) as info:
        _pm("test-undeclared-knob").run(m)
    assert "asks for undeclared knob 'b'" in info.value.diagnostic.message


# ---------------------------------------------------------------------------------------------
# Registry and CLI


def test_registry_lookup_and_listing() -> None:
    assert get_pass_class("cse").name == "cse"
    assert get_pass_class("no-such-pass") is None
    out = io.StringIO()
    print_pass_list(out)
    text = out.getvalue()
    assert "  canonicalize - Canonicalize operations" in text
    assert "      max-iterations=<int> (default: 10) - " in text
    assert "      knob inline: bool - " in text
    assert "Available pass pipelines:" in text and "  simplify - " in text


def _cli(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_cli_options(parser)
    return parser.parse_args(list(argv))


def test_cli_flags_parse() -> None:
    args = _cli(
        "-p",
        "cse",
        "--verify-each=false",
        "--mlir-print-ir-after=cse,canonicalize",
        "--mlir-timing",
        "--dump-knobs=k.json",
    )
    assert args.pass_pipeline == "cse" and args.verify_each == "false"
    assert args.mlir_print_ir_after == ["cse,canonicalize"] and args.mlir_timing
    assert args.dump_knobs == "k.json" and args.knobs is None
    assert _cli("--verify-each").verify_each == "true"


def test_run_cli_runs_and_reports(tmp_path, capsys) -> None:  # noqa: ANN001
    m = _module_with_funcs(1)
    dump = tmp_path / "space.json"
    ok = run_cli(
        m,
        _cli(
            "-p",
            "tp.module(test-knob)",
            "--verify-each=false",
            "--mlir-timing",
            "--mlir-pass-statistics",
            f"--dump-knobs={dump}",
        ),
    )
    assert ok
    err = capsys.readouterr().err
    assert "Execution time report" in err and "Pass statistics report" in err
    assert len(json.loads(dump.read_text())["knobs"]) == 3


def test_run_cli_bad_pipeline_and_bad_flag(capsys) -> None:  # noqa: ANN001
    m = _module_with_funcs(1)
    assert not run_cli(m, _cli("-p", "tp.module(bogus)"))
    err = capsys.readouterr().err
    assert "<pass-pipeline>:1:11: error: 'bogus' does not refer to a registered pass" in err
    assert not run_cli(m, _cli("-p", "cse", "--verify-each=perhaps"))
    assert not run_cli(m, _cli("-p", "cse", "--mlir-print-ir-after=nope"))


def test_run_cli_unknown_knob_key_warns(tmp_path) -> None:  # noqa: ANN001
    m = _module_with_funcs(1)
    cfg = tmp_path / "cfg.json"
    cfg.write_text(json.dumps({"@nowhere/x:00000000/0/factor": 2}))
    with engine.capture() as diags:
        ok = run_cli(m, _cli("-p", "test-knob", "--verify-each=false", f"--knobs={cfg}"))
    assert ok
    assert [d.severity for d in diags] == ["warning"]
    assert "unknown knob key '@nowhere/x:00000000/0/factor'" in diags[0].message


def test_run_cli_bad_knob_file(tmp_path, capsys) -> None:  # noqa: ANN001
    m = _module_with_funcs(1)
    assert not run_cli(m, _cli("-p", "cse", f"--knobs={tmp_path / 'missing.json'}"))
    assert "cannot read knob configuration" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    assert not run_cli(m, _cli("-p", "cse", f"--knobs={bad}"))
    assert "must be a JSON object" in capsys.readouterr().err
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe{}")
    assert not run_cli(m, _cli("-p", "cse", f"--knobs={binary}"))
    assert "is not UTF-8 text (byte 0)" in capsys.readouterr().err


def test_list_option_defaults_are_tuples() -> None:
    class P(Pass):
        name = "test-list-defaults"
        xs = ListOption(int, [1, 2], "numbers")

    assert P().xs == (1, 2)
    assert P(xs=[3]).xs == (3,)


def test_ir_printing_api_after_change_and_module_scope() -> None:
    import mlc

    m = mlc.parse(
        "func.func @a(%x: i32) -> i32 {\n  %c0 = arith.constant 0 : i32\n"
        "  %0 = arith.addi %x, %c0 : i32\n  return %0 : i32\n}\n"
        "func.func @b(%x: i32) -> i32 {\n  return %x : i32\n}\n"
    )
    out = io.StringIO()
    pm = PassManager.parse("builtin.module(func.func(canonicalize,cse))")
    pm.enable_ir_printing(after_change=True, out=out)
    pm.run(m)
    headers = [ln for ln in out.getvalue().splitlines() if ln.startswith("// -----//")]
    assert headers == ["// -----// IR Dump After Canonicalize (canonicalize) //----- //"]
    assert "func.func @a" in out.getvalue() and "func.func @b" not in out.getvalue()
    out = io.StringIO()
    pm = PassManager.parse("builtin.module(func.func(cse))")
    pm.enable_ir_printing(before=["cse"], module_scope=True, out=out)
    pm.run(m)
    text = out.getvalue()
    assert text.count("IR Dump Before CSE (cse)") == 2 and text.count("module {") == 2


def test_run_pipeline_api() -> None:
    import mlc
    from mlc.pass_manager import PipelineError

    m = mlc.parse("func.func private @dead() {\n  return\n}\n")
    kctx = mlc.run_pipeline(m, "builtin.module(symbol-dce)")
    assert kctx.space() == [] and "dead" not in str(m)
    with pytest.raises(PipelineError):
        mlc.run_pipeline(m, "builtin.module(nope)")
    with pytest.raises(PassError):
        mlc.run_pipeline(m, "test-pass-failure")
