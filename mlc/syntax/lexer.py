"""MLIR's token grammar as one compiled regex, and a bulk tokenizer into parallel lists.

A token is its spelling: the parser tells kinds apart by the spelling itself (punctuation,
keywords) or its first character (`%`, `^`, `#`, `!`, `@`, `"`, digits, letters).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate, compress, repeat
from operator import add, not_

__all__ = [
    "CUSTOM_LINE_OP",
    "LINE_OP_PARTS",
    "TOKEN",
    "TOKEN_LINES",
    "split_custom_line",
    "token_lines_pattern",
    "token_pattern",
    "want_line_ops",
    "tokenize",
    "line_starts",
    "line_col",
    "EOF",
    "EOF_PADDING",
    "unescape_string",
]

EOF = ""
"""The spelling of the end-of-input token (the last entries of every token list)."""
EOF_PADDING = 4

# One token per match of `split`; what lies between matches is whitespace (the last alternative
# takes any other character, so nothing else can fall between). Comments are matched as tokens
# and filtered out afterwards. An `x` right after a digit, `?` or `]` is its own token so that
# shapes (`4x?x[8]xf32`) split into dims, `x` and the element type.
_TOKEN_BODY = (
    r"[(),=<>\[\]}]|::?|\{(?!-\#)"  # frequent punctuation first (alternatives are tried in order)
    r"|%(?:[0-9]+|[A-Za-z$._\-][A-Za-z0-9$._\-]*)(?:#[0-9]+)?"  # SSA use/def, `%x#1`
    r"|x(?<=[0-9?\]]x)"  # the `x` of a dimension list
    r"|[A-Za-z_][A-Za-z0-9_$.]*"  # bare identifier or keyword
    r"|->|\.\.\.|\{-\#|\#-\}"  # other multi-character punctuation
    r"|0x[0-9A-Fa-f]+"  # hexadecimal integer
    r"|[0-9]+(?:\.[0-9]*(?:[eE][-+]?[0-9]+)?)?"  # integer or float
    r"|\"(?:[^\"\\\n]|\\[^\n])*\""  # string literal
    r"|\^(?:[0-9]+|[A-Za-z$._\-][A-Za-z0-9$._\-]*)"  # block label
    r"|@(?:[A-Za-z_][A-Za-z0-9_$.]*|\"(?:[^\"\\\n]|\\[^\n])*\")"  # symbol reference
    r"|[#!](?:[0-9]+|[A-Za-z$._\-][A-Za-z0-9$._\-]*)"  # attribute/type alias or dialect name
    r"|//[^\n]*"  # comment (dropped)
    r"|\S"  # any other single character (junk is reported by the parser)
)
_TOKEN_SOURCE = "(" + _TOKEN_BODY + ")"

# A whole generic op on one line, made one "line op" token (spelled from the newline before it
# to the end of its line) that the parser reads with `LINE_OP_PARTS` instead of ~20 tokens:
# `%r = "d.op"(%a, %b) <{props}> {attrs} : (types) -> type(s)` without strings, regions,
# successors, locations, comments or `#n` uses. A line op token starts with "\n", which no
# other token does; the parser accepts one only where an op starts, and a parse that fails
# with line ops is redone with the plain lexer (so they never change what is accepted).
#
# A custom-form op alone on its line whose tokens are SSA names, bare identifiers, integers,
# `=`, `,` and `:` (`%5 = arith.addi %4, %2 : i32`) is a line op token too (`CUSTOM_LINE_OP`):
# the parser gets its plain tokens from `split_custom_line` (str methods, no regex per token);
# each item ends where the plain lexer ends its token (`%5x` or `4x` are not such lines).
#
# Both kinds share their start (newline, indentation, an optional result spelled as the plain
# lexer spells one), matched once in `TOKEN_LINES`; the generic rest starts with `"`, which the
# regex engine checks before trying that branch.
_SSA = r"%[A-Za-z0-9$._\-]+"
_EXACT_SSA = r"%(?:[0-9]+|[A-Za-z$._\-][A-Za-z0-9$._\-]*)(?![A-Za-z0-9$._\-#])"
_ID = r"[A-Za-z_][A-Za-z0-9_$.]*"
_DICT = r'\{[^"{}\n%/]*\}'
_ANGLE = r'[^<>\n"{}%/]*'
_TYPE = rf"[A-Za-z!][A-Za-z0-9_.$]*(?:<{_ANGLE}(?:<{_ANGLE}(?:<{_ANGLE}>{_ANGLE})*>{_ANGLE})*>)?"
_TYPES = rf"\((?:{_TYPE}(?:[ \t]*,[ \t]*{_TYPE})*)?\)"
_GENERIC_REST = (
    rf'(?P<name>"{_ID}")'
    rf"\((?P<ops>(?:{_SSA}(?:[ \t]*,[ \t]*{_SSA})*)?)\)"
    rf"(?:[ \t]*<(?P<props>{_DICT})>)?(?:[ \t]*(?P<attrs>{_DICT}))?"
    rf"[ \t]*:[ \t]*(?P<sig>{_TYPES}[ \t]*->[ \t]*(?:{_TYPE}|{_TYPES})[ \t\r]*)(?=\n)"
)
_ITEM = rf"(?:{_EXACT_SSA}|[0-9]+(?![0-9A-Za-z_.$])|{_ID})"
_CUSTOM_REST = rf"{_ID}(?:[ \t]+{_ITEM}(?:[ \t]*,[ \t]*{_ITEM})*)?[ \t]*:[ \t]*{_ID}[ \t\r]*(?=\n)"
_LINE_START = rf"\n[ \t]*(?:(?P<res>{_EXACT_SSA})[ \t]*=[ \t]*)?"
_LINE_OP_PARTS_SOURCE = _LINE_START + _GENERIC_REST
_CUSTOM_LINE_OP_SOURCE = _LINE_START.replace("(?P<res>", "(?:") + _CUSTOM_REST
# Both line op patterns without groups (re.split returns every group), tried first.
_TOKEN_LINES_SOURCE = (
    "("
    + re.sub(r"\(\?P<[a-z]+>", "(?:", f"{_LINE_START}(?:{_GENERIC_REST}|{_CUSTOM_REST})")
    + "|"
    + _TOKEN_BODY
    + ")"
)

# The patterns are compiled on first use (`re.compile` runs in Python: ~1 ms for TOKEN, 3-4 ms
# for TOKEN_LINES), so that importing the parser costs no regex compilation and a process that
# only parses small texts never compiles the line op patterns (see `want_line_ops`).
_TOKEN: re.Pattern[str] | None = None
_TOKEN_LINES: re.Pattern[str] | None = None
_LAZY_SOURCES = {
    "TOKEN": _TOKEN_SOURCE,
    "TOKEN_LINES": _TOKEN_LINES_SOURCE,
    "LINE_OP_PARTS": _LINE_OP_PARTS_SOURCE,
    "CUSTOM_LINE_OP": _CUSTOM_LINE_OP_SOURCE,
}


def __getattr__(name: str) -> re.Pattern[str]:
    """`TOKEN`, `TOKEN_LINES`, `LINE_OP_PARTS` and `CUSTOM_LINE_OP`, compiled on first access."""
    source = _LAZY_SOURCES.get(name)
    if source is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    pattern = globals()[name] = re.compile(source)
    return pattern


def token_pattern() -> re.Pattern[str]:
    """`TOKEN`, the plain lexer's pattern (compiled on the first call)."""
    global _TOKEN
    if _TOKEN is None:
        _TOKEN = __getattr__("TOKEN")
    return _TOKEN


def token_lines_pattern() -> re.Pattern[str]:
    """`TOKEN_LINES`, the plain lexer's pattern with line op tokens tried first."""
    global _TOKEN_LINES
    if _TOKEN_LINES is None:
        _TOKEN_LINES = __getattr__("TOKEN_LINES")
    return _TOKEN_LINES


# Lines parsed with plain tokens while TOKEN_LINES was not compiled (see `want_line_ops`).
_LINES_BEFORE_COMPILE = 2000
_plain_lines = 0


def want_line_ops(text: str) -> bool:
    """Whether a parse of `text` should lex line op tokens (`TOKEN_LINES`).

    Yes once `TOKEN_LINES` is compiled. Before, a text is lexed plainly (same result, slower
    per line when its lines are line ops) until the texts lexed so have added up to
    `_LINES_BEFORE_COMPILE` lines (one text that long included): compiling costs about as much
    as parsing a few thousand plain lines, so a process that only ever parses small inputs
    (a fresh `mlc.compile` of a model) does not pay it, and one that parses much pays at most
    about twice what it needs to.
    """
    global _plain_lines
    if _TOKEN_LINES is not None:
        return True
    _plain_lines += text.count("\n")
    return _plain_lines >= _LINES_BEFORE_COMPILE


def split_custom_line(tok: str) -> list[str]:
    """The plain tokens of a custom line op token (see `CUSTOM_LINE_OP`)."""
    return tok.replace(",", " , ").replace("=", " = ").replace(":", " : ").split()


def tokenize(text: str, base: int = 0, line_ops: bool = False) -> tuple[list[str], list[int]]:
    """Split `text` into token spellings and their start offsets (plus `base`); with
    `line_ops`, a generic op alone on its line is one token (see `LINE_OP_PARTS`).

    The token list ends with `1 + EOF_PADDING` EOF tokens (`""`) at the end of the text, so
    that the parser may look a few tokens ahead without bounds checks. Runs in C except for a
    handful of calls, whatever the size of the input.
    """
    if line_ops:
        parts = (_TOKEN_LINES or token_lines_pattern()).split(text)
    else:
        parts = (_TOKEN or token_pattern()).split(text)
    # parts = [space, tok, space, tok, ..., space]: a token starts where the space before ends,
    # i.e. after the (space, token) pairs before it and its own space. (Summed pair by pair so
    # that only the starts stay allocated, not an offset per space as well: 4.8 MB fewer pages
    # touched at 100k tokens.)
    spaces = parts[0::2]
    toks = parts[1::2]
    pairs = accumulate(map(add, map(len, spaces), map(len, toks)), initial=base)
    starts = list(map(add, pairs, map(len, spaces)))
    toks.append(EOF)
    if "//" in text:
        keep = list(map(not_, map(str.startswith, toks, repeat("//"))))
        toks = list(compress(toks, keep))
        starts = list(compress(starts, keep))
    toks += [EOF] * EOF_PADDING
    starts += [starts[-1]] * EOF_PADDING
    return toks, starts


def line_starts(text: str) -> list[int]:
    """Offsets of the first character of each line."""
    lengths = map(add, map(len, text.split("\n")), repeat(1))
    starts = list(accumulate(lengths, initial=0))
    starts.pop()
    return starts


def line_col(starts: list[int], pos: int) -> tuple[int, int]:
    """1-based line and column of offset `pos`, given `line_starts` of the text."""
    line = bisect_right(starts, pos)
    return line, pos - starts[line - 1] + 1


_ESCAPE = re.compile(r"\\([0-9A-Fa-f]{2}|.)", re.DOTALL)
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def unescape_string(body: str) -> str | bytes | None:
    """Decode the body of a string literal (between the quotes).

    Returns `str` when the bytes are valid UTF-8, else `bytes`; None on a bad escape. Raw
    bytes that are not UTF-8 arrive as surrogate escapes (text decoded with
    `errors="surrogateescape"`) and count as those bytes.
    """
    if "\\" not in body and body.isascii():
        return body
    out = bytearray()
    pos = 0
    for m in _ESCAPE.finditer(body):
        out += body[pos : m.start()].encode("utf-8", "surrogateescape")
        esc = m.group(1)
        if len(esc) == 2:
            out.append(int(esc, 16))
        else:
            simple = _SIMPLE_ESCAPES.get(esc)
            if simple is None:
                return None
            out += simple.encode()
        pos = m.end()
    out += body[pos:].encode("utf-8", "surrogateescape")
    try:
        return out.decode()
    except UnicodeDecodeError:
        return bytes(out)
