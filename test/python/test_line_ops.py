"""Line op tokens (a generic op alone on its line, lexed as one token and built from memos) must
give exactly what the plain tokens give: same ops, names, attributes, locations, and the same
diagnostics on bad input (see mlc/syntax/lexer.py: LINE_OP_PARTS)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mlc.diagnostics import ParseError, register_source
from mlc.syntax.lexer import EOF_PADDING, LINE_OP_PARTS, split_custom_line, tokenize
from mlc.syntax.parser import Parser, _run, parse_module

_HEAD = (
    '"func.func"() <{function_type = (i32, i32) -> i32, sym_name = "f"}> ({\n'
    "^bb0(%arg0: i32, %arg1: i32):\n"
)
_TAIL = '  "func.return"(%arg0) : (i32) -> ()\n}) : () -> ()\n'
_NAMES = ["%arg0", "%arg1", "%0", "%1", "%2", "%x", "%y.z", "%undef"]
_OPS = ['"arith.addi"', '"arith.muli"', '"arith.xori"', '"test.op"', '"arith.nosuch"']
_PROPS = [
    "",
    " <{overflowFlags = #arith.overflow<none>}>",
    " <{overflowFlags = #arith.overflow<nsw>}>",
    " <{}>",
    " <{overflowFlags = 1 : i32}>",
]
_ATTRS = ["", " {foo}", " {a = 1 : i64, b = [1, 2]}", " {}"]
_SIGS = [
    "(i32, i32) -> i32",
    "(i32, i32) -> i32  ",
    "(i32, i64) -> i32",
    "(i32) -> i32",
    "(i32, i32) -> (i32)",
    "(i32, i32) -> (i32, i32)",
    "(i32, i32) -> tensor<4xi32>",
    "(i32,i32)->i32",
]


@st.composite
def _line(draw: st.DrawFn) -> str:
    result = draw(
        st.sampled_from(["", "%0 = ", "%1 = ", "%x = ", "%y.z = ", "%arg0 = ", "%0=", "%r:2 = "])
    )
    name = draw(st.sampled_from(_OPS))
    operands = draw(st.lists(st.sampled_from(_NAMES), min_size=0, max_size=3))
    sep = draw(st.sampled_from([", ", ",", " , "]))
    props = draw(st.sampled_from(_PROPS))
    attrs = draw(st.sampled_from(_ATTRS))
    sig = draw(st.sampled_from(_SIGS))
    indent = draw(st.sampled_from(["  ", "", "\t"]))
    line = f"{indent}{result}{name}({sep.join(operands)}){props}{attrs} : {sig}"
    if draw(st.booleans()) and draw(st.booleans()):
        line += draw(st.sampled_from([" loc(unknown)", "\n  loc(unknown)", " // c", "\r"]))
    return line + "\n"


def _outcome(text: str, line_ops: bool) -> str:
    register_source("<stdin>", text)

    def make() -> Parser:
        return Parser(text, allow_unregistered=True, line_ops=line_ops)

    try:
        module = _run(make, lambda p: p.parse_top_level(True))
    except ParseError as e:
        return "error: " + str(e)
    return module.print(generic=True, debuginfo=True)


@settings(max_examples=150, deadline=None)
@given(st.lists(_line(), min_size=1, max_size=6))
def test_line_ops_parse_as_plain_tokens(lines: list[str]) -> None:
    text = _HEAD + "".join(lines) + _TAIL
    plain = _outcome(text, False)
    fast = _outcome(text, True)
    if not fast.startswith("error: "):
        # A success with line op tokens is the plain parse (ops, names, locations).
        assert fast == plain
    # What users get (parse_module: a failure is decided by the plain tokens) is the same.
    try:
        public = parse_module(text, allow_unregistered=True).print(generic=True, debuginfo=True)
    except ParseError as e:
        public = "error: " + str(e)
    assert public == plain


def test_line_op_token_spelling() -> None:
    text = '"a.b"() : () -> ()\n  %0 = "x.y"(%a, %b) <{p = 1 : i32}> : (i32, i32) -> i32\n'
    toks, starts = tokenize(text, 0, line_ops=True)
    line_op = [t for t in toks if t[:1] == "\n"]
    assert line_op == ['\n  %0 = "x.y"(%a, %b) <{p = 1 : i32}> : (i32, i32) -> i32']
    m = LINE_OP_PARTS.match(text, starts[toks.index(line_op[0])])
    assert m is not None
    assert (m["res"], m["name"], m["ops"], m["props"], m["sig"]) == (
        "%0",
        '"x.y"',
        "%a, %b",
        "{p = 1 : i32}",
        "(i32, i32) -> i32",
    )
    # The first line has no newline before it; lines with strings, regions or comments stay
    # plain tokens.
    for plain in ['"a"() {s = "x"} : () -> ()', '"a"() ({\n}) : () -> ()', '"a"() : () -> () // c']:
        toks, _ = tokenize("\n" + plain + "\n", 0, line_ops=True)
        assert not any(t[:1] == "\n" for t in toks)


def test_line_ops_locations_and_forward_references() -> None:
    text = (
        '"test.region"() ({\n'
        '  %0 = "test.use"(%1) : (i32) -> i32\n'
        '  %1 = "test.def"() : () -> i32\n'
        '  %2 = "test.use"(%0, %1) : (i32, i32) -> i32\n'
        "}) : () -> ()\n"
    )
    assert _outcome(text, True) == _outcome(text, False)
    assert 'loc("<stdin>":4:8)' in _outcome(text, True)


_CUSTOM_HEAD = "func.func @g(%arg0: i32, %arg1: i32, %i: index) -> i32 {\n"
_CUSTOM_TAIL = "  return %arg0 : i32\n}\n"


@st.composite
def _custom_line(draw: st.DrawFn) -> str:
    result = draw(st.sampled_from(["", "%0 = ", "%1 = ", "%x=", "%arg0 = ", "%y.z = "]))
    name = draw(
        st.sampled_from(["arith.addi", "arith.muli", "arith.cmpi", "arith.constant", "addi", "foo"])
    )
    items = draw(
        st.lists(
            st.sampled_from(["%arg0", "%arg1", "%0", "%1", "%x", "%i", "%undef", "slt", "5"]),
            max_size=3,
        )
    )
    sep = draw(st.sampled_from([", ", ",", " ,"]))
    typ = draw(st.sampled_from(["i32", "i64", "index", "i1", "f32", "bogus"]))
    indent = draw(st.sampled_from(["  ", "", "\t"]))
    colon = draw(st.sampled_from([" : ", ":", " :"]))
    line = f"{indent}{result}{name} {sep.join(items)}{colon}{typ}"
    if draw(st.booleans()) and draw(st.booleans()):
        line += draw(st.sampled_from([" loc(unknown)", "\n  loc(unknown)", " // c", " {a}"]))
    return line + "\n"


@settings(max_examples=150, deadline=None)
@given(st.lists(_custom_line(), min_size=1, max_size=6))
def test_custom_line_ops_parse_as_plain_tokens(lines: list[str]) -> None:
    text = _CUSTOM_HEAD + "".join(lines) + _CUSTOM_TAIL
    plain = _outcome(text, False)
    fast = _outcome(text, True)
    if not fast.startswith("error: "):
        assert fast == plain
    try:
        public = parse_module(text, allow_unregistered=True).print(generic=True, debuginfo=True)
    except ParseError as e:
        public = "error: " + str(e)
    assert public == plain


def test_custom_line_tokens_are_the_plain_tokens() -> None:
    lines = [
        "  %5 = arith.addi %4, %2 : i32",
        "%x=arith.cmpi slt,%a,%b:i1",
        "\treturn %5 : i32",
        "  %c = arith.constant 42 : index",
        "  %y.z$ = foo.bar %a-b, %_c : f32",
    ]
    for line in lines:
        toks, _ = tokenize("\n" + line + "\n", 0, line_ops=True)
        assert len(toks) == 1 + 1 + EOF_PADDING, line  # the line op, then EOF
        assert split_custom_line(toks[0]) == tokenize(line)[0][: -1 - EOF_PADDING]
    # Items where the plain lexer would end a token elsewhere keep plain tokens.
    for line in ["  %5x = arith.addi %4, %2 : i32", "  %0 = foo %a#1 : i32", "  %0 = f 4x : i32"]:
        toks, _ = tokenize("\n" + line + "\n", 0, line_ops=True)
        assert not any(t[:1] == "\n" for t in toks), line


def test_custom_line_error_positions() -> None:
    text = (
        "func.func @h(%a: i32) -> i32 {\n  %0 = arith.addi %a, %nope : i32\n  return %0 : i32\n}\n"
    )
    plain = _outcome(text, False)
    assert plain.startswith("error: <stdin>:2:")
    assert _outcome(text, True) == plain


def test_generic_line_op_result_is_a_plain_ssa_token() -> None:
    # `%5x` lexes as `%5` `x` plainly: an error. A generic line op whose signature and op were
    # memoized by an earlier line used to bind the name `%5x` instead.
    body = (
        '  %0 = "arith.addi"(%arg0, %arg1) : (i32, i32) -> i32\n'
        '  %5x = "arith.addi"(%0, %arg1) : (i32, i32) -> i32\n'
    )
    text = _HEAD + body + _TAIL
    plain = _outcome(text, False)
    assert plain.startswith("error: <stdin>:4:") and "expected '='" in plain, plain
    assert _outcome(text, True) == plain
    toks, _ = tokenize(text, 0, line_ops=True)
    assert "\n" + body.splitlines()[0] in toks
    assert "\n" + body.splitlines()[1] not in toks


def test_line_op_patterns_compile_on_demand() -> None:
    # Importing the parser compiles no lexer regex; parsing small texts compiles only the
    # plain pattern until enough lines were parsed; the line op patterns agree with the
    # combined one (run in a fresh interpreter: the patterns are per process).
    code = """if True:
        from mlc.syntax import lexer as L
        from mlc.syntax.parser import parse_module
        assert L._TOKEN is None and L._TOKEN_LINES is None
        assert "LINE_OP_PARTS" not in vars(L) and "CUSTOM_LINE_OP" not in vars(L)
        small = (
            "func.func @f(%a: i32) -> i32 {\\n  %0 = arith.addi %a, %a : i32\\n"
            "  return %0 : i32\\n}\\n"
        )
        for _ in range(10):
            parse_module(small)
        assert L._TOKEN is not None and L._TOKEN_LINES is None
        line = "  %v{} = arith.addi %0, %a : i32\\n"
        ops = "".join(line.format(i) for i in range(L._LINES_BEFORE_COMPILE))
        big = small.replace("  return", ops + "  return")
        parse_module(big)
        assert L._TOKEN_LINES is L.TOKEN_LINES
        assert L.LINE_OP_PARTS.match("\\n  %1 = \\"a.b\\"(%0) : (i32) -> i32\\n")["res"] == "%1"
        assert L.CUSTOM_LINE_OP.match("\\n  %1 = arith.addi %0, %a : i32\\n")
        assert L.want_line_ops(small)
    """
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
