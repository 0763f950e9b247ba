"""Op locations: the parser locates each op at its name by counting the newlines since the last
op it located (mlc/syntax/parser.py: `_op_loc`); they must be what the line table gives, on
every path (line ops, custom line ops, plain tokens), with UTF-8 byte columns."""

from __future__ import annotations

import pytest

import mlc
from mlc.diagnostics import ParseError
from mlc.ir import attributes as A
from mlc.syntax.lexer import line_col, line_starts
from mlc.syntax.parser import Parser, _run, parse_module

_TEXT = (
    "// a comment with é\n"
    "\n"
    "func.func @f(%a: i32, %b: i32) -> i32 {\n"
    "  %0 = arith.addi %a, %b : i32\n"
    '  %1 = "arith.muli"(%0, %a) : (i32, i32) -> i32\n'
    "\n\n"
    "  %2 =\n"
    "     arith.subi %1, %0 : i32 // é\n"
    '  %3 = "test.x"() {s = "é"} : () -> i32\n'
    "  %4 = arith.xori %2, %3 : i32\n"
    '  "test.region"() ({\n'
    "    %5 = arith.addi %4, %4 : i32\n"
    "  }) : () -> ()\n"
    "  return %4 : i32\n"
    "}\n"
)


def _expected(text: str, op_name: str, occurrence: int = 0) -> tuple[int, int]:
    """Line and UTF-8 byte column of the `occurrence`-th spelling of `op_name` in `text`."""
    pos = -1
    for _ in range(occurrence + 1):
        pos = text.index(op_name, pos + 1)
    line, _ = line_col(line_starts(text), pos)
    start = text.rfind("\n", 0, pos) + 1
    return line, len(text[start:pos].encode()) + 1


def _locations(text: str, line_ops: bool) -> dict[str, list[tuple[int, int]]]:
    def make() -> Parser:
        return Parser(text, allow_unregistered=True, line_ops=line_ops)

    module = _run(make, lambda p: p.parse_top_level(True))
    out: dict[str, list[tuple[int, int]]] = {}
    for op in module.walk():
        loc = op.location
        if isinstance(loc, A.FileLineColLoc):
            out.setdefault(op.name, []).append((loc.line, loc.col))
    return out


def test_op_locations_match_the_line_table() -> None:
    for line_ops in (False, True):
        for text in (_TEXT, _TEXT.replace("é", "e"), _TEXT.replace("\n", "\r\n")):
            locs = _locations(text, line_ops)
            # walk() is post-order: nested ops come before their parents.
            addi = [_expected(text, "arith.addi", k) for k in (0, 1)]
            assert sorted(locs["arith.addi"]) == addi
            assert locs["arith.muli"] == [_expected(text, '"arith.muli"')]
            assert locs["arith.subi"] == [_expected(text, "arith.subi")]
            assert locs["test.x"] == [_expected(text, '"test.x"')]
            assert locs["arith.xori"] == [_expected(text, "arith.xori")]
            assert locs["test.region"] == [_expected(text, '"test.region"')]
            assert locs["func.return"] == [_expected(text, "return")]
            assert locs["func.func"] == [_expected(text, "func.func")]


def test_error_locations_after_many_lines() -> None:
    body = "".join(f"  %v{i} = arith.addi %a, %a : i32\n" for i in range(300))
    text = f"func.func @f(%a: i32) -> i32 {{\n{body}  %bad = arith.addi %a, %nope : i32\n}}\n"
    try:
        parse_module(text)
    except Exception as e:  # noqa: BLE001
        assert "<stdin>:302:" in str(e), str(e)
    else:
        raise AssertionError("expected a parse error")


def test_redefinition_note_at_an_op_located_by_a_later_alias() -> None:
    """The prior definition's location is `loc(#alias)` of an alias defined further on (a
    placeholder while parsing): the diagnostic renders, with the note unplaced."""
    text = """module {
  func.func @f(%a: f32) -> f32 {
    %0 = arith.addf %a, %a : f32 loc(#later)
    %0 = arith.mulf %a, %a : f32
    return %0 : f32
  }
}
#later = loc("x.py":3:4)
"""
    with pytest.raises(ParseError) as info:
        mlc.parse(text)
    shown = info.value.render()
    assert "4:5: error: redefinition of SSA value '%0'" in shown
    assert "note: previously defined here" in shown
