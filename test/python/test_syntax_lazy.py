"""Declarative formats compile on first use: defining an op checks its format and generates the
hooks' sources, the first parse or print of the op compiles them (see mlc/syntax/format.py)."""

from __future__ import annotations

import pytest

from mlc.ir import attributes as A
from mlc.ir.context import Context, Dialect
from mlc.ir.core import Block, UnregisteredOp
from mlc.ir.opdef import Index, Op, SameOperandsAndResultType, operand, result
from mlc.syntax.format import _LazyHook
from mlc.syntax.parser import parse_module


def _define() -> tuple[type, type]:
    class LazyOp(Op):
        name = "lazy.twice"
        traits = (SameOperandsAndResultType,)
        x = operand(Index)
        r = result(Index)
        format = "$x attr-dict `:` type($r)"

    class LazyChildOp(LazyOp):
        """Inherits the parent's format (and its lazy hooks)."""

        name = "lazy.child"

    return LazyOp, LazyChildOp


def _context(*ops: type) -> Context:
    ctx = Context()
    ctx.register_dialect(Dialect("lazy", ops))
    return ctx


def test_hooks_are_compiled_on_first_use_only() -> None:
    lazy_op, _ = _define()
    assert type(lazy_op.__dict__["print_asm"]) is _LazyHook
    assert type(lazy_op.__dict__["parse_asm"]) is _LazyHook
    ctx = _context(lazy_op)
    text = '%0 = "test.i"() : () -> index\n%1 = lazy.twice %0 : index\n'
    module = parse_module(text, ctx=ctx, allow_unregistered=True)
    # The parse compiled both hooks (with the fast path), replacing the placeholders.
    assert callable(lazy_op.__dict__["print_asm"])
    assert type(lazy_op.__dict__["parse_asm"]) is classmethod
    assert lazy_op.parse_asm.__func__._fast is not None
    assert "%1 = lazy.twice %0 : index" in str(module)


def test_print_first_then_parse() -> None:
    lazy_op, _ = _define()
    module = UnregisteredOp.create_named("builtin.module", regions=1)
    block = Block()
    module.regions[0].add_block(block)
    i = block.append(UnregisteredOp.create_named("test.i", result_types=[A.index]))
    block.append(lazy_op.create([i.results[0]], [A.index]))
    text = str(module)
    assert "lazy.twice %0 : index" in text
    again = parse_module(text, ctx=_context(lazy_op), allow_unregistered=True)
    assert str(again).splitlines()[1:3] == text.splitlines()[1:3]


def test_subclass_compiles_the_parent_hooks() -> None:
    parent, child = _define()
    assert "print_asm" not in child.__dict__
    hook = child.parse_asm  # through the subclass: compiles the parent's hooks
    assert type(parent.__dict__["parse_asm"]) is classmethod
    assert hook.__self__ is child


def test_bad_format_still_fails_at_definition() -> None:
    with pytest.raises(TypeError, match="BadLazyOp: bad assembly format"):

        class BadLazyOp(Op):
            name = "lazy.bad"
            x = operand()
            format = "$x (`a`)? attr-dict type($x)"


def test_every_dialect_op_compiles() -> None:
    """Compiling every registered format (what lazy loading postpones) raises nothing."""
    from mlc.ir.context import default_context

    checked = 0
    for dialect in default_context().load_all():
        for cls in dialect.ops.values():
            for klass in cls.__mro__:
                hook = klass.__dict__.get("print_asm")
                if type(hook) is _LazyHook:
                    hook.hooks.install()
            assert type(cls.__dict__.get("parse_asm")) is not _LazyHook
            assert type(cls.__dict__.get("print_asm")) is not _LazyHook
            checked += 1
    assert checked > 150


def _family() -> tuple[type, type, type]:
    class _UnaryBase(Op):
        traits = (SameOperandsAndResultType,)
        x = operand(Index)
        r = result(Index)

    fmt = "$x attr-dict `:` type($r)"
    first = type(_UnaryBase)("FirstOp", (_UnaryBase,), {"name": "fam.first", "format": fmt})
    second = type(_UnaryBase)("SecondOp", (_UnaryBase,), {"name": "fam.second", "format": fmt})
    return _UnaryBase, first, second


def test_a_family_shares_the_checked_format() -> None:
    """Classes with one format on the same definitions share its check and sources, each
    under its own name."""
    _, first, second = _family()
    hooks = [cls.__dict__["parse_asm"].hooks for cls in (first, second)]
    assert hooks[0].parser.source == hooks[1].parser.source
    assert hooks[0].printer.source == hooks[1].printer.source
    assert hooks[1].info.cls is second and hooks[1].parser.qualname == "SecondOp.parse_asm"
    text = '%0 = "test.i"() : () -> index\n%1 = fam.first %0 : index\n%2 = fam.second %1 : index\n'
    ctx = Context()
    ctx.register_dialect(Dialect("fam", (first, second)))
    module = parse_module(text, ctx=ctx, allow_unregistered=True)
    ops = module.regions[0].blocks[0].ops
    assert [type(op) for op in ops[1:]] == [first, second]
    assert second.parse_asm.__func__.__qualname__ == "SecondOp.parse_asm"
    assert second.print_asm.__qualname__ == "SecondOp.print_asm"
    assert "%2 = fam.second %1 : index" in str(module)


def test_same_format_on_other_definitions_is_checked_again() -> None:
    _family()
    with pytest.raises(TypeError, match="NoResultOp: bad assembly format: .*'\\$r'"):

        class NoResultOp(Op):
            name = "fam.noresult"
            x = operand(Index)
            format = "$x attr-dict `:` type($r)"
