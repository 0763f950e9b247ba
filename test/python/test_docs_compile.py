"""The Python examples of docs/compile.md run, in order, in one namespace."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "compile.md"


def test_docs_compile_examples_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 5
    namespace: dict = {"__name__": "docs_compile"}
    for i, code in enumerate(blocks):
        exec(compile(code, f"{DOC.name}[block {i}]", "exec"), namespace)  # noqa: S102
