"""mlc-opt: flags (MLIR's spellings), exit codes, messages, and never a traceback on bad input."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from mlc.tools import mlc_opt
from mlc.tools.mlc_opt import main, split_input

FUNC = "func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n  return %0 : i32\n}\n"
BAD_DOMINANCE = (
    "func.func @g(%a: i32) -> i32 {\n  %0 = arith.addi %1, %a : i32\n"
    "  %1 = arith.addi %a, %a : i32\n  return %0 : i32\n}\n"
)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def write(tmp_path: Path):  # noqa: ANN201
    def make(text: str, name: str = "in.mlir") -> str:
        path = tmp_path / name
        path.write_text(text)
        return str(path)

    return make


# ---------------------------------------------------------------------------------------------
# Through the installed console script


def test_console_script_round_trip(mlc_opt) -> None:  # noqa: ANN001
    code, out, err = mlc_opt(FUNC)
    assert code == 0, err
    assert out.startswith("module {\n  func.func @f(%arg0: i32) -> i32 {")
    assert out.endswith("}\n\n")  # MLIR's: the module, its newline, and one more
    assert err == ""


def test_console_script_bad_input(mlc_opt) -> None:  # noqa: ANN001
    code, out, err = mlc_opt(BAD_DOMINANCE)
    assert code == 1 and out == ""
    assert "<stdin>:2:" in err and "error: operand #0 does not dominate this use" in err
    assert "  %0 = arith.addi %1, %a : i32\n" in err  # the source line, then a caret
    assert "Traceback" not in err


def test_version_imports_nothing_heavy() -> None:
    code = (
        "import sys; from mlc.tools.mlc_opt import main; rc = main(['--version']); "
        "print(rc, 'numpy' in sys.modules, 'mlc.ir.core' in sys.modules)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    first, last = proc.stdout.splitlines()
    assert first.startswith("mlc-opt (mlc) version ")
    assert last == "0 False False"


def test_broken_pipe_is_quiet(tmp_path: Path) -> None:
    big = tmp_path / "big.mlir"
    big.write_text("".join(FUNC.replace("@f", f"@f{i}") for i in range(3000)))
    proc = subprocess.Popen(
        [sys.executable, "-m", "mlc.tools.mlc_opt", str(big)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()  # like `| head -1`
    err = proc.stderr.read().decode()
    proc.wait(timeout=120)
    assert "Traceback" not in err and "Error" not in err


# ---------------------------------------------------------------------------------------------
# In process


def test_help_lists_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for flag in (
        "--split-input-file",
        "--verify-diagnostics",
        "--allow-unregistered-dialect",
        "--mlir-print-op-generic",
        "--mlir-print-debuginfo",
        "--mlir-print-local-scope",
        "--no-implicit-module",
        "-o FILE",
        "--pass-pipeline",
    ):
        assert flag in out
    assert "exit status" in out and "MLC_DEBUG" in out


def test_missing_input_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.mlir")
    code, out, err = run(capsys, missing)
    assert code == 1 and out == ""
    assert err == f"error: cannot open input file '{missing}': No such file or directory\n"
    code, _, err = run(capsys, str(tmp_path))
    assert code == 1 and "cannot open input file" in err


def test_unknown_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--split-input-fil")
    assert code == 1 and out == ""
    assert "Unknown command line argument '--split-input-fil'" in err
    assert "Did you mean '--split-input-file'?" in err
    code, _, err = run(capsys, "a.mlir", "b.mlir")
    assert code == 1 and "Too many positional arguments specified!" in err


def test_single_dash_long_options(capsys: pytest.CaptureFixture[str], write) -> None:  # noqa: ANN001
    path = write('"test.op"() : () -> ()\n// -----\n' + FUNC)
    code, out, err = run(
        capsys, path, "-split-input-file", "-allow-unregistered-dialect", "-mlir-print-op-generic"
    )
    assert code == 0, err
    assert '"test.op"() : () -> ()' in out and '"func.func"()' in out
    assert "\n// -----\n" in out


def test_bool_values_and_flag_before_file(capsys: pytest.CaptureFixture[str], write) -> None:  # noqa: ANN001
    path = write('"test.op"() : () -> ()\n')
    code, _, err = run(capsys, "--allow-unregistered-dialect=false", path)
    assert code == 1 and "unregistered" in err
    code, _, _ = run(capsys, "--allow-unregistered-dialect=true", path)
    assert code == 0
    # A flag with an optional value does not take the next argument as its value.
    code, _, err = run(capsys, "--verify-diagnostics", path, "--allow-unregistered-dialect")
    assert code == 0, err


def test_output_file(capsys: pytest.CaptureFixture[str], write, tmp_path: Path) -> None:  # noqa: ANN001
    path = write(FUNC)
    out_path = tmp_path / "out.mlir"
    code, out, _ = run(capsys, path, "-o", str(out_path))
    assert code == 0 and out == ""
    assert out_path.read_text().startswith("module {")
    out2 = tmp_path / "out2.mlir"
    code, _, _ = run(capsys, path, f"-o={out2}")
    assert code == 0 and out2.read_text() == out_path.read_text()
    # On failure the output file is not left behind (as MLIR's ToolOutputFile).
    bad = write(BAD_DOMINANCE, "bad.mlir")
    code, _, _ = run(capsys, bad, "-o", str(out_path))
    assert code == 1 and not out_path.exists()
    code, _, err = run(capsys, path, "-o", str(tmp_path / "no" / "such" / "dir.mlir"))
    assert code == 1 and "cannot open output file" in err


def test_see_current_operation_note(capsys: pytest.CaptureFixture[str], write) -> None:  # noqa: ANN001
    path = write(BAD_DOMINANCE)
    code, _, err = run(capsys, path)
    assert code == 1
    lines = err.splitlines()
    assert "error: operand #0 does not dominate this use" in lines[0]
    assert "note: see current operation: %0 = " in lines[3]
    assert "note: operand defined here (op in the same block)" in lines[4]
    code, _, err = run(capsys, path, "--mlir-print-op-on-diagnostic=false")
    assert "see current operation" not in err


def test_verify_diagnostics_exit_codes(capsys: pytest.CaptureFixture[str], write) -> None:  # noqa: ANN001
    good = write(
        "func.func @g(%a: i32) -> i32 {\n"
        "  // expected-error@+1 {{does not dominate}}\n  %0 = arith.addi %1, %a : i32\n"
        "  // expected-note@+1 {{defined here}}\n  %1 = arith.addi %a, %a : i32\n"
        "  return %0 : i32\n}\n",
        "good.mlir",
    )
    code, out, err = run(capsys, good, "--verify-diagnostics")
    assert (code, out, err) == (0, "", "")
    bad = write(FUNC.replace("  return", "  // expected-error@+1 {{nothing}}\n  return"))
    code, out, err = run(capsys, bad, "-verify-diagnostics")
    assert code == 1
    assert 'error: expected error "nothing" was not produced' in err
    assert out.startswith("module {")  # a chunk that verifies still prints


def test_split_markers(capsys: pytest.CaptureFixture[str], write) -> None:  # noqa: ANN001
    path = write(FUNC + "//###\n" + FUNC.replace("@f", "@h"))
    code, out, _ = run(capsys, path, "--split-input-file=//###", "--output-split-marker=XX")
    assert code == 0 and out.count("module {") == 2 and "\nXX\n" in out
    # A near miss warns and does not split (so both functions share a module here).
    path = write(FUNC + "// ----\n" + FUNC.replace("@f", "@h"))
    code, out, err = run(capsys, path, "-split-input-file")
    assert code == 0 and out.count("module {") == 1
    assert "in.mlir:5:7: warning: near miss with file split marker" in err


def test_split_input_positions() -> None:
    text = "a\n// -----\nb\nc\n// -----\nd"
    assert split_input(text, "// -----", "t") == [
        ("a\n", 0),
        ("        \nb\nc\n", 1),
        ("        \nd", 4),
    ]
    # MLIR's quirks: a leading marker does not split, a trailing one adds an empty chunk.
    assert [c for c, _ in split_input("// -----\nx\n", "// -----", "t")] == ["      --\nx\n"]
    assert len(split_input("x\n// -----\n", "// -----", "t")) == 2


def test_no_implicit_module(capsys: pytest.CaptureFixture[str], write) -> None:  # noqa: ANN001
    path = write(FUNC)
    code, out, _ = run(capsys, path, "--no-implicit-module")
    assert code == 0 and out.startswith("func.func @f")
    path = write(FUNC + FUNC.replace("@f", "@h"))
    code, _, err = run(capsys, path, "--no-implicit-module")
    assert code == 1 and "single top-level operation" in err


def test_empty_and_binary_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    empty = tmp_path / "empty.mlir"
    empty.write_text("")
    assert run(capsys, str(empty)) == (0, "module {\n}\n\n", "")
    binary = tmp_path / "bin.mlir"
    binary.write_bytes(b"\xff\xfe\x00 bad")
    code, _, err = run(capsys, str(binary))
    assert code == 1 and "bin.mlir:1:1: error:" in err and "Traceback" not in err


def test_show_dialects(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--show-dialects")
    assert code == 0 and out.startswith("Available Dialects: ")
    assert {"arith", "builtin", "func", "math"} <= set(out.split(": ", 1)[1].strip().split(","))


def test_internal_error(capsys, write, monkeypatch) -> None:  # noqa: ANN001
    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(mlc_opt, "_process_file", boom)
    path = write(FUNC)
    monkeypatch.delenv("MLC_DEBUG", raising=False)
    code, _, err = run(capsys, path)
    assert code == 2
    assert err.splitlines()[0] == "mlc-opt: internal error: RuntimeError: boom"
    assert "Traceback" not in err
    monkeypatch.setenv("MLC_DEBUG", "1")
    code, _, err = run(capsys, path)
    assert code == 2 and "Traceback" in err


def test_stdin_filename(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mlc.tools.mlc_opt", "-"],
        input='"bad',
        capture_output=True,
        text=True,
        env={**os.environ, "MLC_DEBUG": ""},
    )
    assert proc.returncode == 1
    assert proc.stderr.startswith("<stdin>:1:5: error:")
