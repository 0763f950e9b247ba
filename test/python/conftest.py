"""Shared pytest fixtures: run the installed `mlc-opt`; hypothesis profiles."""

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import settings

# Derandomized in CI: the same examples every run, so a submission never fails by chance.
settings.register_profile("ci", deadline=None, derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

MlcOpt = Callable[..., tuple[int, str, str]]


def _mlc_opt_path() -> str:
    """The console script next to the running interpreter (the venv's), else the one on PATH."""
    beside = Path(sys.executable).parent / "mlc-opt"
    if beside.exists():
        return str(beside)
    found = shutil.which("mlc-opt")
    if found is None:
        pytest.fail("mlc-opt is not installed: run `make venv` (pip install -e '.[test]')")
    return found


@pytest.fixture
def mlc_opt() -> MlcOpt:
    """Run `mlc-opt *args` with `text` on stdin; return (returncode, stdout, stderr).

    >>> rc, out, err = mlc_opt("func.func @f() { return }", "--mlir-print-op-generic")
    """
    exe = _mlc_opt_path()

    def run(text: str = "", *args: str, timeout: float = 120) -> tuple[int, str, str]:
        proc = subprocess.run(
            [exe, *args],
            input=text,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        return proc.returncode, proc.stdout, proc.stderr

    return run
