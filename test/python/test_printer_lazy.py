"""Lazy SSA numbering in the custom form: values are numbered as their ops print (a region's
rest at once when an op with regions comes), with a second, numbered-first print when a name
was read before its value was numbered. The text must be the numbered-first printer's."""

from __future__ import annotations

from typing import Any

import mlc
import pytest
from mlc.ir.core import UNNAMED
from mlc.syntax import printer as P

BODY = """func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = "t.r"(%0) ({
    %5 = arith.muli %0, %a : i32
    "t.y"(%5) : (i32) -> ()
  }, {
  ^bb0(%z: i32):
    %6 = arith.subi %0, %z : i32
    "t.y"(%6) : (i32) -> ()
  }) : (i32) -> i32
  %2 = arith.addi %1, %0 : i32
  %s, %o = arith.addui_extended %2, %2 : i32, i1
  %p:2 = "t.pair"(%s) : (i32) -> (i32, i32)
  "t.br"()[^bb2] : () -> ()
^bb1(%x: i32):
  return %x : i32
^bb2:
  %3 = arith.addi %s, %p#1 : i32
  "t.in"() ({
    %7 = arith.addi %3, %3 : i32
    "t.y"(%7) : (i32) -> ()
  }) : () -> ()
  "t.br"(%3)[^bb1] : (i32) -> ()
}
func.func @g(%b: i32) -> i32 {
  %0 = arith.muli %b, %b : i32
  return %0 : i32
}
"""

FORWARD_IN_GRAPH = '"t.a"(%top) : (i32) -> ()\n%top = "t.b"() : () -> i32\n'

FORWARD_ACROSS_BLOCKS = """func.func @h(%a: i32) -> i32 {
  "t.br"()[^bb2] : () -> ()
^bb1:
  return %late : i32
^bb2:
  %late = arith.addi %a, %a : i32
  "t.br"()[^bb1] : () -> ()
}
"""


def _prints(module: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str, list[bool]]:
    """(text, text numbered first, the `lazy` flag of each numbering of the first print)."""
    calls: list[bool] = []
    number = P.Printer.number

    def spy(self: Any, root: Any, named: Any = None, lazy: bool = False) -> Any:
        calls.append(lazy)
        return number(self, root, named, lazy)

    def eager(self: Any, root: Any, named: Any = None, lazy: bool = False) -> Any:
        return number(self, root, named, False)

    monkeypatch.setattr(P.Printer, "number", spy)
    text = str(module)
    monkeypatch.setattr(P.Printer, "number", eager)
    reference = str(module)
    monkeypatch.setattr(P.Printer, "number", number)
    return text, reference, calls


def test_lazy_numbering_prints_the_numbered_first_text(monkeypatch: pytest.MonkeyPatch) -> None:
    module = mlc.parse(BODY, allow_unregistered=True)
    text, reference, calls = _prints(module, monkeypatch)
    assert text == reference
    assert calls == [True]  # no second print
    # Sibling regions restart from the parent region's final counters (after %5 of ^bb2).
    assert "%6 = arith.muli %0, %arg0 : i32" in text
    assert "^bb0(%arg1: i32):\n      %6 = arith.subi %0, %arg1 : i32" in text
    assert "%sum, %overflow = arith.addui_extended" in text
    assert '%3:2 = "t.pair"(%sum)' in text and "%5 = arith.addi %sum, %3#1 : i32" in text
    assert "^bb1(%4: i32):  // pred: ^bb2" in text
    assert "%6 = arith.addi %5, %5 : i32" in text
    assert "func.func @g(%arg0: i32) -> i32 {\n    %0 = arith.muli %arg0, %arg0 : i32" in text
    assert mlc.parse(text, allow_unregistered=True).print() == text


@pytest.mark.parametrize("source", [FORWARD_IN_GRAPH + BODY, FORWARD_ACROSS_BLOCKS])
def test_forward_references_print_again_numbered_first(
    source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = mlc.parse(source, allow_unregistered=True)
    text, reference, calls = _prints(module, monkeypatch)
    assert text == reference
    assert calls == [True, False]
    assert UNNAMED not in text
    assert all(v._name is UNNAMED for op in module.walk() for v in op.results)


def test_nested_op_and_generic_prints_number_first(monkeypatch: pytest.MonkeyPatch) -> None:
    module = mlc.parse(BODY, allow_unregistered=True)
    func = module.regions[0].blocks[0].first
    calls: list[bool] = []
    number = P.Printer.number

    def spy(self: Any, root: Any, named: Any = None, lazy: bool = False) -> Any:
        calls.append(lazy)
        return number(self, root, named, lazy)

    monkeypatch.setattr(P.Printer, "number", spy)
    inner = str(func)
    generic = module.print(generic=True)
    debug = module.print(debuginfo=True)
    assert calls == [False, False, False]
    assert inner.startswith("func.func @f(%arg0: i32)") and "%6 = arith.muli %0, %arg0" in inner
    assert '"arith.addi"(%arg1, %arg1)' in generic and " loc(" in debug


def test_entry_argument_names_unique_against_hook_names(monkeypatch: pytest.MonkeyPatch) -> None:
    """A nested region's `%argN` that a result-name hook took in an enclosing scope is uniqued
    (`%arg1_0`, as MLIR prints), in the lazy session and in a numbered-first one alike."""
    from mlc.ir.context import default_context

    cls = default_context().get_op("arith.constant")
    monkeypatch.setattr(
        cls, "get_asm_result_names", lambda self, set_name: set_name(self.results[0], "arg1"),
        raising=False,
    )
    monkeypatch.delitem(P._RESULT_NAME_HOOKS, cls, raising=False)
    m = mlc.parse(
        "func.func @f(%a: index) {\n  %c = arith.constant 0 : index\n"
        "  affine.for %i = 0 to 8 {\n    affine.for %j = 0 to 4 {\n    }\n  }\n  return\n}"
    )
    expected = (
        "module {\n  func.func @f(%arg0: index) {\n    %arg1 = arith.constant 0 : index\n"
        "    affine.for %arg1_0 = 0 to 8 {\n      affine.for %arg2 = 0 to 4 {\n      }\n    }\n"
        "    return\n  }\n}"
    )
    assert str(m) == expected
    assert m.print(local_scope=True) == expected
    func = m.regions[0].blocks[0].first
    assert "affine.for %arg1_0 = 0 to 8" in func.print()  # a nested op numbers first
