"""The text parser for affine maps, integer sets and expressions (core IR): MLIR's
`affine_map<...>` / `affine_set<...>` bodies and affine ops' SSA-id operand lists.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from mlc.ir.affine import (
    _INT64_MAX,
    _INT64_MIN,
    _MINUS_ONE,
    _ZERO,
    CEILDIV,
    FLOORDIV,
    MOD,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineParseError,
    AffineSymbolExpr,
    IntegerSet,
    _add,
    _ceildiv,
    _floordiv,
    _mod,
    _mul,
    const,
    dim,
    sym,
)

__all__ = [
    "AffineParseError",
    "parse_affine_expr",
    "parse_affine_map",
    "parse_affine_map_of_ssa_ids",
    "parse_affine_map_or_set",
    "parse_affine_map_or_set_at",
    "parse_integer_set",
]


# Blanks and comments, then one token: integer, bare identifier, SSA name, `->`, or any one
# character (punctuation, or something no rule accepts). A token's kind comes from its first
# character: "int", "id", "ssa", a keyword's or punctuation's own spelling, or "eof".
_TOKEN_RE = re.compile(
    r"(?:\s|//[^\n]*)*"
    r"(0x[0-9a-fA-F]+|[0-9]+|[A-Za-z_][A-Za-z0-9_$.]*|%[A-Za-z0-9_$.\-]+(?:#[0-9]+)?|->|.)?",
    re.DOTALL,
)
_SKIP_RE = re.compile(r"(?:\s|//[^\n]*)*")


def _skip(text: str, pos: int) -> int:
    """The index of the first character at or after `pos` that is not blank or comment."""
    m = _SKIP_RE.match(text, pos)
    assert m is not None  # the pattern matches the empty string
    return m.end()


_ID_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_KEYWORDS = frozenset((FLOORDIV, CEILDIV, MOD))
_HIGH_PREC = frozenset(("*", FLOORDIV, CEILDIV, MOD))
_HIGH_BUILDERS = {"*": _mul, FLOORDIV: _floordiv, CEILDIV: _ceildiv, MOD: _mod}
_NON_AFFINE_MUL = (
    "non-affine expression: at least one of the multiply operands has to be either a constant "
    "or symbolic"
)


class _Parser:
    """Recursive descent over a lazily lexed string; token kinds are 'int', 'id', 'ssa',
    'eof', 'other', or the spelling of a punctuation or keyword token."""

    __slots__ = (
        "base",
        "dim_ssa",
        "end",
        "floor",
        "kind",
        "names",
        "prev_end",
        "ssa_mode",
        "start",
        "sym_ssa",
        "text",
        "tok",
    )

    def __init__(self, text: str, pos: int, base: int) -> None:
        self.text = text
        self.base = base
        self.floor = pos
        self.end = pos
        self.prev_end = pos
        self.kind = "eof"
        self.tok = ""
        self.start = pos
        self.names: dict[str, AffineExpr] = {}
        self.ssa_mode = False
        self.dim_ssa: list[str] = []
        self.sym_ssa: list[str] = []
        self.advance()

    def advance(self) -> None:
        self.prev_end = self.end
        m = _TOKEN_RE.match(self.text, self.end)
        assert m is not None  # the pattern matches the empty string
        tok = m.group(1)
        self.end = m.end()
        if tok is None:
            self.kind = "eof"
            self.tok = ""
            self.start = self.end
            return
        self.tok = tok
        self.start = m.start(1)
        first = tok[0]
        if first in _ID_START:
            self.kind = tok if tok in _KEYWORDS else "id"
        elif first in "0123456789":
            self.kind = "int"
        elif first == "%" and len(tok) > 1:
            self.kind = "ssa"
        else:
            self.kind = tok

    def error(self, message: str, at: int | None = None) -> AffineParseError:
        """An error at the current token (or at `at`), like MLIR's emitError."""
        return AffineParseError(message, self.base + (self.start if at is None else at))

    def wrong_token(self, message: str) -> AffineParseError:
        """An error just past the previous token, like MLIR's emitWrongTokenError: backs up
        over blanks, line breaks and `//` comments to where the expected token belongs."""
        text = self.text
        floor = self.floor
        i = self.start
        while True:
            while i > floor and text[i - 1] in " \t":
                i -= 1
            if i == floor:
                return self.error(message)
            if text[i - 1] not in "\n\r":
                return self.error(message, i)
            i -= 1
            line_start = max(text.rfind("\n", floor, i), text.rfind("\r", floor, i), floor - 1) + 1
            comment = text.find("//", line_start, i)
            if comment != -1:
                i = comment

    def expect(self, kind: str, message: str) -> None:
        if self.kind != kind:
            raise self.wrong_token(message)
        self.advance()

    # Identifier lists ----------------------------------------------------------------------

    def parse_id_list(
        self, open_: str, close: str, context: str, make: Callable[[int], AffineExpr]
    ) -> int:
        self.expect(open_, f"expected '{open_}' in {context}")
        count = 0
        if self.kind == close:
            self.advance()
            return 0
        while True:
            if self.kind != "id" and self.kind not in _KEYWORDS:
                raise self.wrong_token("expected bare identifier")
            name = self.tok
            if name in self.names:
                raise self.error(f"redefinition of identifier '{name}'")
            self.names[name] = make(count)
            count += 1
            self.advance()
            if self.kind == ",":
                self.advance()
                continue
            self.expect(close, f"expected '{close}' in {context}")
            return count

    def parse_map_or_set(self) -> AffineMap | IntegerSet:
        num_dims = self.parse_id_list("(", ")", "dimensional identifier list", AffineDimExpr)
        num_syms = 0
        if self.kind == "[":
            num_syms = self.parse_id_list("[", "]", "symbol list", AffineSymbolExpr)
        if self.kind == "->":
            self.advance()
            return AffineMap(num_dims, num_syms, self.parse_expr_list("(", " in affine map range"))
        if self.kind != ":":
            raise self.wrong_token("expected '->' or ':'")
        self.advance()
        self.expect("(", "expected '(' in integer set constraint list")
        constraints: list[AffineExpr] = []
        eqs: list[bool] = []
        if self.kind != ")":
            while True:
                lhs = self.parse_expr(False)
                op = self.parse_comparison()
                rhs = self.parse_expr(False)
                constraints.append(_add(rhs, -lhs) if op == "<=" else _add(lhs, -rhs))
                eqs.append(op == "==")
                if self.kind != ",":
                    break
                self.advance()
        self.expect(")", "expected ')' in integer set constraint list")
        if not constraints:  # `()` is the universe, spelled `0 == 0` as MLIR does
            return IntegerSet(num_dims, num_syms, (_ZERO,), (True,))
        return IntegerSet(num_dims, num_syms, constraints, eqs)

    def parse_comparison(self) -> str:
        """`>=`, `<=` or `==`, each lexed as two tokens as MLIR does (so `> =` is accepted)."""
        for first in (">", "<", "="):
            if self.kind == first:
                self.advance()
                if self.kind == "=":
                    self.advance()
                    return first + "=" if first != "=" else "=="
        raise self.error(
            "expected '== affine-expr' or '>= affine-expr' at end of affine constraint"
        )

    def parse_expr_list(self, open_: str, context: str) -> tuple[AffineExpr, ...]:
        close = ")" if open_ == "(" else "]"
        self.expect(open_, f"expected '{open_}'{context}")
        exprs: list[AffineExpr] = []
        if self.kind == close:
            self.advance()
            return ()
        while True:
            exprs.append(self.parse_expr(False))
            if self.kind != ",":
                break
            self.advance()
        self.expect(close, f"expected '{close}'{context}")
        return tuple(exprs)

    # Expressions ---------------------------------------------------------------------------

    def parse_expr(self, after_op: bool) -> AffineExpr:
        """Sum of products, left-associative, as MLIR's parseAffineLowPrecOpExpr."""
        lhs = self.parse_product(after_op)
        while True:
            kind = self.kind
            if kind == "+":
                self.advance()
                lhs = _add(lhs, self.parse_product(True))
            elif kind == "-":
                self.advance()
                lhs = _add(lhs, _mul(self.parse_product(True), _MINUS_ONE))
            else:
                return lhs

    def parse_product(self, after_op: bool) -> AffineExpr:
        lhs = self.parse_operand(after_op)
        while self.kind in _HIGH_PREC:
            op = self.kind
            op_pos = self.start
            self.advance()
            rhs = self.parse_operand(True)
            if op == "*":
                if not lhs._symbolic and not rhs._symbolic:
                    raise self.error(_NON_AFFINE_MUL, op_pos)
            elif not rhs._symbolic:
                raise self.error(
                    f"non-affine expression: right operand of {op} has to be either a constant "
                    "or symbolic",
                    op_pos,
                )
            lhs = _HIGH_BUILDERS[op](lhs, rhs)
        return lhs

    def parse_operand(self, after_op: bool) -> AffineExpr:
        kind = self.kind
        if kind == "id" or kind in _KEYWORDS:  # MLIR lets `mod` etc. name identifiers
            name = self.tok
            if name == "symbol" and self.ssa_mode:
                return self.parse_ssa_symbol()
            e = self.names.get(name)
            if e is None:
                raise self.wrong_token("use of undeclared identifier")
            self.advance()
            return e
        if kind == "int":
            text = self.tok
            value = int(text, 16) if text.startswith("0x") else int(text)
            if value > _INT64_MAX + 1:
                raise self.error("constant too large for index")
            self.advance()
            # MLIR accepts 2**63 (so that -2**63 can be written) and wraps it to int64.
            return const(value if value <= _INT64_MAX else _INT64_MIN)
        if kind == "(":
            self.advance()
            if self.kind == ")":
                raise self.error("no expression inside parentheses")
            e = self.parse_expr(False)
            self.expect(")", "expected ')'")
            return e
        if kind == "-":
            self.advance()
            return _mul(self.parse_operand(after_op), _MINUS_ONE)
        if kind == "ssa":
            return self.parse_ssa(False)
        if kind == "+" or kind == "*":
            side = "right" if after_op else "left"
            raise self.error(f"missing {side} operand of binary operator")
        if after_op:
            raise self.error("missing right operand of binary operator")
        raise self.error("expected affine expression")

    def parse_ssa(self, is_symbol: bool) -> AffineExpr:
        if not self.ssa_mode:
            raise self.wrong_token("unexpected ssa identifier")
        if self.kind != "ssa":
            raise self.wrong_token("expected ssa identifier")
        name = self.tok
        e = self.names.get(name)
        if e is None:
            if is_symbol:
                e = sym(len(self.sym_ssa))
                self.sym_ssa.append(name)
            else:
                e = dim(len(self.dim_ssa))
                self.dim_ssa.append(name)
            self.names[name] = e
        self.advance()
        return e

    def parse_ssa_symbol(self) -> AffineExpr:
        self.advance()
        self.expect("(", "expected '('")
        e = self.parse_ssa(True)
        self.expect(")", "expected ')'")
        return e

    def expect_eof(self, what: str) -> None:
        if self.kind != "eof":
            raise self.error(f"unexpected text after {what}")


# Parse results by text. Results are uniqued and immutable, so a hit can return the same
# object; only successful parses are stored, and the caches are dropped when they grow large.
_CACHE_LIMIT = 4096
_BODY_CACHE: dict[str, AffineMap | IntegerSet] = {}
_SSA_CACHE: dict[str, tuple[AffineMap, tuple[str, ...], tuple[str, ...]]] = {}
# The `>` closing `affine_map<...>`/`affine_set<...>`: not that of `->`, `>=` or `> =`.
_CLOSE_RE = re.compile(r"(?<!-)>(?!\s*=)")
_V = TypeVar("_V")


def _remember(cache: dict[str, _V], key: str, value: _V) -> None:
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = value


def parse_affine_map_or_set_at(text: str, pos: int = 0) -> tuple[AffineMap | IntegerSet, int]:
    """Parse a map or set body starting at `text[pos]`; return it and the index of the next
    token (blanks and comments skipped).

    For the IR parser: call it after `affine_map<` and expect `>` at the returned index. Error
    positions are indices into `text`.
    """
    close = _CLOSE_RE.search(text, pos)
    key = text[pos : close.start()] if close is not None else None
    if key is not None:
        hit = _BODY_CACHE.get(key)
        if hit is not None:
            return hit, pos + len(key)
    p = _Parser(text, pos, 0)
    result = p.parse_map_or_set()
    # Stored only if the parse ended right at the `>` that the key stops at, so that a hit
    # (same text up to that `>`) would have parsed the same way.
    if key is not None and close is not None and p.start == close.start():
        _remember(_BODY_CACHE, key, result)
    return result, p.start


def parse_affine_map_or_set(text: str, offset: int = 0) -> AffineMap | IntegerSet:
    """Parse `text`, the body of `affine_map<...>` or `affine_set<...>`.

    Error positions are `offset` plus the index into `text`.
    """
    hit = _BODY_CACHE.get(text)
    if hit is not None:
        return hit
    p = _Parser(text, 0, offset)
    result = p.parse_map_or_set()
    p.expect_eof("affine map" if type(result) is AffineMap else "integer set")
    _remember(_BODY_CACHE, text, result)
    return result


def parse_affine_map(text: str, offset: int = 0) -> AffineMap:
    """Parse the body of `affine_map<...>`, e.g. `(d0, d1)[s0] -> (d0 + s0, d1 floordiv 4)`."""
    result = parse_affine_map_or_set(text, offset)
    if type(result) is not AffineMap:
        raise AffineParseError("expected AffineMap, but got IntegerSet", offset)
    return result


def parse_integer_set(text: str, offset: int = 0) -> IntegerSet:
    """Parse the body of `affine_set<...>`, e.g. `(d0)[s0] : (d0 - 10 >= 0, s0 - d0 == 0)`."""
    result = parse_affine_map_or_set(text, offset)
    if type(result) is not IntegerSet:
        raise AffineParseError("expected IntegerSet, but got AffineMap", offset)
    return result


def parse_affine_expr(
    text: str,
    offset: int = 0,
    dim_names: Sequence[str] = (),
    sym_names: Sequence[str] = (),
) -> AffineExpr:
    """Parse one expression whose identifiers are the given dim and symbol names."""
    p = _Parser(text, 0, offset)
    for i, name in enumerate(dim_names):
        p.names[name] = dim(i)
    for i, name in enumerate(sym_names):
        p.names[name] = sym(i)
    e = p.parse_expr(False)
    p.expect_eof("affine expression")
    return e


def parse_affine_map_of_ssa_ids(
    text: str, pos: int = 0, delimiter: str = "["
) -> tuple[AffineMap, tuple[str, ...], tuple[str, ...], int]:
    """Parse expressions over SSA names, as in `affine.load %A[%i + 1, symbol(%n)]`.

    `delimiter` is "[" or "(" for a bracketed list, or "" for one bare expression. Each new
    `%x` becomes the next dim and each new `symbol(%x)` the next symbol. Returns the map, the
    SSA names bound to its dims and to its symbols, and the index just past the parsed text.
    """
    if delimiter not in ("[", "(", ""):
        raise ValueError(f"delimiter must be '[', '(' or '', got {delimiter!r}")
    # `[...]` lists hold no brackets, so the text up to the first `]` keys the cache.
    key = None
    if delimiter == "[":
        close = text.find("]", pos)
        if close != -1:
            key = text[pos : close + 1]
            hit = _SSA_CACHE.get(key)
            if hit is not None:
                return (*hit, _skip(text, close + 1))
    p = _Parser(text, pos, 0)
    p.ssa_mode = True
    if delimiter:
        exprs = p.parse_expr_list(delimiter, "")
    else:
        exprs = (p.parse_expr(False),)
    result = (AffineMap(len(p.dim_ssa), len(p.sym_ssa), exprs), tuple(p.dim_ssa), tuple(p.sym_ssa))
    if key is not None and p.prev_end == pos + len(key):  # the list closed at that `]`
        _remember(_SSA_CACHE, key, result)
    return (*result, p.start)
