"""The Python examples of the guides in docs/ run, in order, in one namespace per page: a page
whose example stops working fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"

# page -> the fewest Python blocks it has (so a page that loses its examples fails too)
PAGES = {
    "compile.md": 5,
    "graph-passes.md": 2,
    "loop-transforms.md": 5,
    "vectorize.md": 4,
    "math-approximation.md": 2,
    "codegen.md": 2,
}


@pytest.mark.parametrize("page", sorted(PAGES))
def test_docs_examples_run(page: str) -> None:
    doc = DOCS / page
    blocks = re.findall(r"```python\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= PAGES[page]
    namespace: dict = {"__name__": "docs_" + page.removesuffix(".md").replace("-", "_")}
    for i, code in enumerate(blocks):
        exec(compile(code, f"{doc.name}[block {i}]", "exec"), namespace)  # noqa: S102
