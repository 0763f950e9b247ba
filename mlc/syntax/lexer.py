"""MLIR's token grammar as one compiled regex, and a bulk tokenizer into parallel lists.

A token is its spelling: the parser tells kinds apart by the spelling itself (punctuation,
keywords) or its first character (`%`, `^`, `#`, `!`, `@`, `"`, digits, letters).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate, compress, repeat
from operator import add, not_

__all__ = ["TOKEN", "tokenize", "line_starts", "line_col", "EOF", "EOF_PADDING", "unescape_string"]

EOF = ""
"""The spelling of the end-of-input token (the last entries of every token list)."""
EOF_PADDING = 4

# One token per match of `split`; what lies between matches is whitespace (the last alternative
# takes any other character, so nothing else can fall between). Comments are matched as tokens
# and filtered out afterwards. An `x` right after a digit, `?` or `]` is its own token so that
# shapes (`4x?x[8]xf32`) split into dims, `x` and the element type.
TOKEN = re.compile(
    r"("
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
    r")"
)


def tokenize(text: str, base: int = 0) -> tuple[list[str], list[int]]:
    """Split `text` into token spellings and their start offsets (plus `base`).

    The token list ends with `1 + EOF_PADDING` EOF tokens (`""`) at the end of the text, so
    that the parser may look a few tokens ahead without bounds checks. Runs in C except for a
    handful of calls, whatever the size of the input.
    """
    parts = TOKEN.split(text)
    # parts = [space, tok, space, tok, ..., space]: a token starts where the space before ends.
    starts = list(accumulate(map(len, parts), initial=base))[1::2]
    toks = parts[1::2]
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
