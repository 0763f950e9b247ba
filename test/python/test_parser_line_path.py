"""The per-format line path of the parser (`mlc.syntax.format_gen.line_parser_source`): a custom
op alone on its line built straight from its split tokens must give exactly what the token path
gives (ops, names, types, locations), and any line it does not take (a forward reference, a
wrong type, another shape) must go to the token path with the same diagnostic."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_line_ops import _outcome  # the IR or the error of a parse, line ops on or off

from mlc.diagnostics import ParseError
from mlc.ir import attributes as A
from mlc.ir.context import default_context
from mlc.ir.core import Value, leaf_op_builder
from mlc.syntax import format as F
from mlc.syntax.format_gen import line_parser_source
from mlc.syntax.parser import Parser, parse_module

_HEAD = "func.func @g(%a: i32, %b: i32, %f: f32, %i: index, %c: i1) -> i32 {\n"
_TAIL = "  return %a : i32\n}\n"
# Line-path formats of several shapes, ops without one, and unknown names.
_OPS = [
    "arith.addi",
    "arith.xori",
    "arith.addf",
    "arith.negf",
    "math.exp",
    "arith.andi",
    "arith.cmpi",
    "arith.extsi",
    "addi",
    "nosuch.op",
]
_ITEMS = [
    "%a",
    "%b",
    "%f",
    "%i",
    "%c",
    "%0",
    "%1",
    "%x",
    "%later",
    "%undef",
    "slt",
    "7",
    "overflow",
]
_TYPES = ["i32", "f32", "index", "i1", "i64", "i7", "bogus"]


_BY_TYPE = {"i32": ["%a", "%b"], "f32": ["%f"], "index": ["%i"], "i1": ["%c"]}
_WELL_TYPED = {  # op: (operand count, types it takes)
    "arith.addi": (2, ["i32", "index", "i1"]),
    "arith.xori": (2, ["i32", "i1"]),
    "arith.addf": (2, ["f32"]),
    "arith.negf": (1, ["f32"]),
    "math.exp": (1, ["f32"]),
}


@st.composite
def _custom_line(draw: st.DrawFn) -> str:
    result = draw(st.sampled_from(["", "%0 = ", "%1 = ", "%x=", "%a = ", "%later = ", "%0 = "]))
    sep = draw(st.sampled_from([", ", ",", " ,"]))
    colon = draw(st.sampled_from([" : ", ":", " :"]))
    indent = draw(st.sampled_from(["  ", "", "\t"]))
    if draw(st.integers(0, 3)):
        # Mostly lines the line path takes (or nearly: a name from the other lines).
        name = draw(st.sampled_from(sorted(_WELL_TYPED)))
        count, types = _WELL_TYPED[name]
        typ = draw(st.sampled_from(types))
        names = [*_BY_TYPE[typ], "%0", "%x", "%later"]
        items = [draw(st.sampled_from(names)) for _ in range(count)]
    else:
        name = draw(st.sampled_from(_OPS))
        items = draw(st.lists(st.sampled_from(_ITEMS), max_size=3))
        typ = draw(st.sampled_from(_TYPES))
    return f"{indent}{result}{name} {sep.join(items)}{colon}{typ}\n"


@settings(max_examples=300, deadline=None)
@given(st.lists(_custom_line(), min_size=1, max_size=8))
def test_line_path_parses_as_plain_tokens(lines: list[str]) -> None:
    text = _HEAD + "".join(lines) + _TAIL
    plain = _outcome(text, False)
    # Custom line ops fall back to the token path themselves: errors are the same too.
    assert _outcome(text, True) == plain
    try:
        public = parse_module(text, allow_unregistered=True).print(generic=True, debuginfo=True)
    except ParseError as e:
        public = "error: " + str(e)
    assert public == plain


def _line_hook(name: str):  # noqa: ANN202 - the generated function
    cls = default_context().get_op(name)
    return cls, cls.parse_asm.__func__._line


def test_line_path_builds_or_declines() -> None:
    cls, line = _line_hook("arith.addi")
    assert line is not None
    text = "func.func @h(%a: i32, %b: i64) -> i32 {\n  return %a : i32\n}\n"
    parser = Parser(text)
    a, b = Value(A.i32), Value(A.i64)
    parser.values.update({"%a": a, "%b": b})
    loc = A.FileLineColLoc("<stdin>", 2, 8)
    parts = ["%r", "=", "arith.addi", "%a", ",", "%a", ":", "i32"]
    op = line(cls, parser, parts, 2, loc)
    assert type(op) is cls and op.operands == (a, a) and op.location == loc
    assert [r.type for r in op.results] == [A.i32] and op._attrs is None
    assert [u.owner for u in a.uses] == [op, op]
    # Not this path's line: an undefined or forward name, another type, an unknown type,
    # another shape. Nothing is consumed and no op is made.
    for bad in (
        ["arith.addi", "%a", ",", "%zz", ":", "i32"],
        ["arith.addi", "%a", ",", "%b", ":", "i32"],
        ["arith.addi", "%a", ",", "%a", ":", "i64"],
        ["arith.addi", "%a", ",", "%a", ":", "bogus"],
        ["arith.addi", "%a", ":", "i32"],
        ["arith.addi", "%a", ",", "%a", ",", "%a", ":", "i32"],
        ["arith.addi", "7", ",", "%a", ":", "i32"],
    ):
        assert line(cls, parser, bad, 0, loc) is None, bad
    assert a.num_uses() == 2 and b.num_uses() == 0


def test_line_path_formats() -> None:
    # Formats that read plain tokens with their optional parts absent have a line path...
    for name in ("arith.addi", "arith.addf", "arith.negf", "math.exp", "arith.extsi"):
        assert _line_hook(name)[1] is not None, name
    # ...those with a property outside an optional group (`slt`), an operand only inside an
    # optional group or variadic operands have none.
    for name in ("arith.cmpi", "arith.constant", "func.return"):
        cls = default_context().get_op(name)
        assert line_parser_source(F._check(cls, cls.format)) is None, name
    # An optional group just before a type could take the type's token: no line path.
    cls = default_context().get_op("arith.addi")
    fmt = "$lhs `,` $rhs attr-dict `:` (`overflow` `` $overflowFlags^)? type($res)"
    assert line_parser_source(F._check(cls, fmt)) is None
    fmt = "$lhs `,` $rhs attr-dict (`overflow` `` $overflowFlags^)? `:` type($res)"
    assert line_parser_source(F._check(cls, fmt)) is not None


def test_leaf_op_builder_matches_create() -> None:
    cls = default_context().get_op("arith.addi")
    loc = A.FileLineColLoc("f", 1, 2)
    a, b = Value(A.i32), Value(A.i32)
    built = leaf_op_builder(2, 1)(cls, a, b, A.i32, loc)
    made = cls.create([a, b], [A.i32], {}, (), (), loc)
    for op in (built, made):
        assert op.operands == (a, b) and [u.index for u in op.op_operands] == [0, 1]
        assert op.results[0].op is op and op.results[0].index == 0 and not op.has_uses()
        assert op._attrs is None and op.regions == () and op.successors == ()
        assert op.parent is None and op.prev is None and op.next is None and op.location == loc
    assert [u.owner for u in a.uses] == [made, built]
    assert leaf_op_builder(2, 1) is leaf_op_builder(2, 1)
    zero = leaf_op_builder(0, 0)(cls, loc)
    assert zero.operands == () and zero.results == ()


def test_line_path_diagnostics() -> None:
    # Errors on lines the line path declines are the token path's, at the same place.
    cases = [
        ("  %0 = arith.addi %a, %f : i32\n", "<stdin>:2:"),
        ("  %0 = arith.addi %a, %nope : i32\n", "<stdin>:2:"),
        ("  %a = arith.addi %a, %b : i32\n", "redefinition of SSA value '%a'"),
        ("  %0 = arith.addi %a, %b : i32\n  %0 = arith.addi %a, %b : i32\n", "redefinition"),
    ]
    for body, expected in cases:
        text = _HEAD + body + _TAIL
        plain = _outcome(text, False)
        assert plain.startswith("error: ") and expected in plain, plain
        assert _outcome(text, True) == plain
