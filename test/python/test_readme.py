"""The README's Python examples run as written (in a fresh interpreter: one registers a dialect)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), flags=re.S)


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_python_block_runs(index: int) -> None:
    run = subprocess.run(
        [sys.executable, "-c", BLOCKS[index]], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr


def test_readme_opens_with_make_demo_and_make_test() -> None:
    first_block = (ROOT / "README.md").read_text().split("```")[1]
    assert "make demo" in first_block and "make test" in first_block
