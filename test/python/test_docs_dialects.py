"""docs/dialects/ is what `python -m mlc.docgen docs/dialects` generates from the op definitions
(so the reference cannot drift from the code), and every op documents itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from mlc.docgen import _split_doc, generate, main
from mlc.ir.context import BUILTIN_DIALECT_MODULES, default_context

DOCS = Path(__file__).resolve().parents[2] / "docs" / "dialects"
PAGES = generate()


@pytest.mark.parametrize("name", sorted(PAGES))
def test_page_is_up_to_date(name: str) -> None:
    path = DOCS / name
    assert path.exists(), f"missing {path}: run `make docs`"
    assert path.read_text() == PAGES[name], f"{path} is stale: run `make docs`"


def test_no_page_without_a_dialect() -> None:
    assert {p.name for p in DOCS.glob("*.md")} == set(PAGES)


@pytest.mark.parametrize("dialect", sorted(BUILTIN_DIALECT_MODULES))
def test_every_op_has_a_summary_and_an_example(dialect: str) -> None:
    d = default_context().get_dialect(dialect)
    assert d is not None
    page = PAGES[f"{dialect}.md"]
    for name, cls in d.ops.items():
        summary, _ = _split_doc(cls)
        assert summary, f"{name} has no summary"
        section = page.split(f'<a id="{name.replace(".", "")}">')[1].split("<a id=")[0]
        assert "```mlir" in section, f"{name} has no example in its docstring"


def test_check_mode_reports_stale_pages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path)]) == 0
    assert main(["--check", str(tmp_path)]) == 0
    (tmp_path / "arith.md").write_text("stale")
    assert main(["--check", str(tmp_path)]) == 1
    assert "arith.md" in capsys.readouterr().err
