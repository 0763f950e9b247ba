"""The token cursor, located errors, and the parsers of MLIR's types, attributes and locations.

`AttrParser` is the base of `mlc.syntax.parser.Parser`; it works on the parallel token lists
made by `mlc.syntax.lexer.tokenize` and knows nothing about operations or SSA values.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable
from typing import Any

import numpy as np

from mlc.diagnostics import Diagnostic, ParseError
from mlc.ir import affine
from mlc.ir import attributes as A
from mlc.ir.context import Context
from mlc.syntax import floats
from mlc.syntax.lexer import EOF, line_col, line_starts, tokenize, unescape_string
from mlc.syntax.lexer import token_pattern

_INT_TYPE = re.compile(r"(si|ui|i)([0-9]+)")
_SIGNEDNESS = {"i": A.SIGNLESS, "si": A.SIGNED, "ui": A.UNSIGNED}
_OPEN_TO_CLOSE = {"<": ">", "(": ")", "[": "]", "{": "}"}
_CLOSERS = frozenset(_OPEN_TO_CLOSE.values())
_MAX_WIDTH = 16777215
_NOT_SUPPORTED = {
    "dense_resource": "not supported: dense_resource elements",
    "sparse": "not supported: sparse elements",
    "distinct": "not supported: distinct attributes",
}


def _base_type_cache() -> dict[str, A.Type]:
    cache: dict[str, A.Type] = {"index": A.index, "none": A.none_type}
    for kind in A.FloatType.kinds():
        cache[kind] = A.FloatType(kind)
    for width in (1, 8, 16, 32, 64):
        cache[f"i{width}"] = A.IntegerType(width)
    return cache


def round_float(value: float, t: A.Type) -> float:
    """`value` rounded to the precision of float type `t` (to +-inf when out of range)."""
    return floats.round_to_kind(value, t.kind)  # type: ignore[attr-defined]


def float_from_bits(bits: int, t: A.Type) -> float | None:
    """The float whose bit pattern in type `t` is `bits`; None when `bits` does not fit."""
    kind = t.kind  # type: ignore[attr-defined]
    if bits >> floats.SEMANTICS[kind][0]:
        return None
    return floats.float_from_bits(bits, kind)


class DeferredLoc(A.Location):
    """A placeholder for `loc(#alias)` whose alias is defined later in the file."""

    __slots__ = ("alias", "pos")

    def __new__(cls, alias: str, pos: int) -> DeferredLoc:
        return A.Uniqued.__new__(cls, alias, pos)


class AttrParser:
    """Cursor over a token list with MLIR's type, attribute and location grammar."""

    __slots__ = (
        "text",
        "toks",
        "starts",
        "i",
        "filename",
        "line_offset",
        "_lines",
        "_line_hint",
        "_line_hint_pos",
        "_line_hint_start",
        "_ascii",
        "ctx",
        "allow_unregistered",
        "attr_aliases",
        "type_aliases",
        "_type_cache",
        "_deferred_locs",
        "relex_count",
        "_symbol_cache",
        "_dict_cache",
    )

    def __init__(
        self,
        text: str,
        *,
        filename: str = "<stdin>",
        ctx: Context | None = None,
        allow_unregistered: bool = False,
        line_offset: int = 0,
        line_ops: bool = False,
    ) -> None:
        if ctx is None:
            from mlc.ir.context import default_context

            ctx = default_context()
        self.text = text
        self.toks, self.starts = tokenize(text, 0, line_ops)
        self.i = 0
        self.filename = filename
        self.line_offset = line_offset
        # Offsets of the line starts, made on first need (`_line_starts`): ops are located
        # from the last one located instead (ops come in text order), by counting the
        # newlines in between; a table of every line would cost a string and an int per line.
        self._lines: list[int] | None = None
        # Line `_line_hint` holds offset `_line_hint_pos` and starts at `_line_hint_start`.
        self._line_hint = 1
        self._line_hint_pos = 0
        self._line_hint_start = 0
        self._ascii = text.isascii()
        self.ctx = ctx
        self.allow_unregistered = allow_unregistered
        self.attr_aliases: dict[str, A.Attribute] = {}
        self.type_aliases: dict[str, A.Type] = {}
        self._type_cache = _base_type_cache()
        self._deferred_locs = 0
        self.relex_count = 0
        self._symbol_cache: dict[str, A.Type | A.Attribute] = {}
        self._dict_cache: dict[str, dict[str, A.Attribute]] = {}

    # -- positions and errors -------------------------------------------------------------------

    def pos(self) -> int:
        """Source offset of the current token."""
        return self.starts[self.i]

    def _line_starts(self) -> list[int]:
        """Offsets of the first character of each line (made on the first call)."""
        lines = self._lines
        if lines is None:
            lines = self._lines = line_starts(self.text)
        return lines

    def line_col_at(self, pos: int) -> tuple[int, int]:
        """1-based line and column (in characters) of source offset `pos`: counted from the
        last position asked when `pos` is not before it (positions are mostly asked in text
        order), else looked up in the line table."""
        hint = self._line_hint_pos
        if pos < hint:
            return line_col(self._line_starts(), pos)
        text = self.text
        nl = text.rfind("\n", hint, pos)
        if nl >= 0:
            self._line_hint += text.count("\n", hint, nl) + 1
            self._line_hint_start = nl + 1
        self._line_hint_pos = pos
        return self._line_hint, pos - self._line_hint_start + 1

    def location_at(self, pos: int) -> A.FileLineColLoc:
        """The file location of source offset `pos` (columns count UTF-8 bytes, as MLIR)."""
        line, col = self.line_col_at(pos)
        if not self._ascii:
            col = self.byte_column(line, pos)
        return A.FileLineColLoc(self.filename, line + self.line_offset, col)

    def byte_column(self, line: int, pos: int) -> int:
        """1-based column of offset `pos` on 1-based `line`, counted in UTF-8 bytes."""
        start = self.text.rfind("\n", 0, pos) + 1
        return len(self.text[start:pos].encode("utf-8", "surrogateescape")) + 1

    def error(self, message: str, pos: int | None = None) -> ParseError:
        """A located ParseError (at the current token unless `pos` is given), to raise."""
        if pos is None:
            pos = self.starts[self.i]
        return ParseError(Diagnostic("error", message, self.location_at(pos)))

    def expected(self, message: str) -> ParseError:
        """An error about the current token, placed as MLIR's emitWrongTokenError does: a token
        that starts a line is reported at the end of the previous non-blank line."""
        pos = self.starts[self.i]
        head = self.text[:pos]
        while True:
            head = head.rstrip(" \t")
            if not head:
                return self.error(message, pos)
            if head[-1] not in "\n\r":
                return self.error(message, len(head))
            head = head[:-1]
            line_start = head.rfind("\n") + 1
            comment = head.find("//", line_start)
            if comment >= 0:
                head = head[:comment]

    def note(
        self,
        err: ParseError,
        message: str,
        pos: int | None = None,
        location: A.Location | None = None,
    ) -> ParseError:
        """Attach a note at `pos` (or `location`) to `err` and return it."""
        loc = location if location is not None else self.location_at(pos or 0)
        err.diagnostic.attach_note(message, loc)
        return err

    # -- tokens ---------------------------------------------------------------------------------

    def peek(self, ahead: int = 0) -> str:
        """The spelling of the current token (or one `ahead`); EOF is `""`."""
        return self.toks[min(self.i + ahead, len(self.toks) - 1)]

    def expect(self, tok: str, message: str) -> None:
        if self.toks[self.i] != tok:
            raise self.expected(message)
        self.i += 1

    def relex(self, index: int, new_start: int) -> None:
        """Split token `index` so that its remaining text starting at `new_start` is re-lexed
        (the parser consumed a prefix of it, e.g. the `x` of `xf32` in a dimension list)."""
        self.relex_count += 1
        toks, starts = self.toks, self.starts
        end = starts[index] + len(toks[index])
        # The split-off text may merge with adjacent identifier tokens (`0xf8E4` `M3FN`).
        last = index
        while starts[last + 1] == end and (
            toks[last + 1][:1].isalnum() or toks[last + 1][:1] == "_"
        ):
            last += 1
            end += len(toks[last])
        # finditer with a start offset lets the lexer's lookbehind see the consumed prefix.
        found = [
            m for m in token_pattern().finditer(self.text, new_start, end) if m.group()[:2] != "//"
        ]
        toks[index : last + 1] = [m.group() for m in found]
        starts[index : last + 1] = [m.start() for m in found]

    def seek(self, pos: int) -> None:
        """Move the cursor to the token starting at source offset `pos` (after raw-text parsing)."""
        j = bisect_left(self.starts, pos, self.i)
        if j >= len(self.starts) or self.starts[j] != pos:
            raise self.error("unexpected character", pos)
        self.i = j

    def skip_balanced(self) -> int:
        """Skip a bracketed token group starting at the current `<([{`; return its end offset."""
        toks = self.toks
        stack: list[int] = []  # token indices of the open brackets
        while True:
            tok = toks[self.i]
            if tok in _OPEN_TO_CLOSE:
                stack.append(self.i)
            elif tok in _CLOSERS or tok == EOF:
                if not stack or _OPEN_TO_CLOSE[toks[stack[-1]]] != tok:
                    where = stack[-1] if stack else self.i
                    raise self.error(
                        f"unbalanced '{toks[where]}' character in pretty dialect name",
                        self.starts[where],
                    )
                stack.pop()
            self.i += 1
            if not stack:
                return self.starts[self.i - 1] + len(tok)

    # -- literals -------------------------------------------------------------------------------

    def string_value(self, tok: str, pos: int | None = None) -> str | bytes:
        """The decoded value of string token `tok` (with quotes)."""
        if len(tok) < 2 or tok[-1] != '"':  # the lexer's lone `"`: an unterminated string
            start = self.starts[self.i] if pos is None else pos
            eol = self.text.find("\n", start)
            raise self.error("expected '\"' in string literal", len(self.text) if eol < 0 else eol)
        value = unescape_string(tok[1:-1])
        if value is None:
            raise self.error("unknown escape in string literal", pos)
        return value

    def parse_str_token(self) -> str:
        """A string literal decoded to `str` (invalid UTF-8 is an error here)."""
        tok = self.toks[self.i]
        if tok[:1] != '"':
            raise self.expected("expected string")
        value = self.string_value(tok)
        if type(value) is bytes:
            raise self.error("expected valid UTF-8 string")
        self.i += 1
        return value  # type: ignore[return-value]

    def _parse_int_token(self, neg: bool) -> int:
        tok = self.toks[self.i]
        if tok[:2] == "0x":
            value = int(tok, 16)
        elif tok[:1].isdigit() and "." not in tok:
            value = int(tok)
        else:
            raise self.expected("expected integer value")
        self.i += 1
        return -value if neg else value

    # -- types ----------------------------------------------------------------------------------

    def parse_type(self) -> A.Type:
        """Any type, including aliases `!t`."""
        t = self._type_cache.get(self.toks[self.i])
        if t is not None:
            self.i += 1
            return t
        t = self.parse_optional_type()
        if t is None:
            raise self.expected("expected non-function type")
        return t

    def parse_optional_type(self) -> A.Type | None:
        tok = self.toks[self.i]
        t = self._type_cache.get(tok)
        if t is not None:
            self.i += 1
            return t
        c = tok[:1]
        if c == "(":
            return self.parse_function_type()
        if c == "!":
            return self._parse_extended_type()
        if "a" <= c <= "z":
            return self._parse_keyword_type(tok)
        return None

    def _parse_keyword_type(self, tok: str) -> A.Type | None:
        m = _INT_TYPE.fullmatch(tok)
        if m is not None:
            width = int(m.group(2))
            if width > _MAX_WIDTH:
                raise self.error(f"integer bitwidth is limited to {_MAX_WIDTH} bits")
            t = A.IntegerType(width, _SIGNEDNESS[m.group(1)])
            self._type_cache[tok] = t
            self.i += 1
            return t
        parse = _SHAPED_TYPE_PARSERS.get(tok)
        if parse is None:
            return None
        self.i += 1
        self.expect("<", f"expected '<' in {tok} type")
        return parse(self)

    def parse_function_type(self) -> A.FunctionType:
        """`(ins) -> outs`."""
        self.expect("(", "expected '('")
        inputs = self._parse_types_until(")")
        self.expect("->", "expected '->' in function type")
        return A.FunctionType(inputs, self._parse_function_results())

    def _parse_function_results(self) -> list[A.Type]:
        if self.toks[self.i] == "(":
            self.i += 1
            return self._parse_types_until(")")
        return [self.parse_type()]

    def _parse_types_until(self, close: str) -> list[A.Type]:
        """Comma-separated types up to and including `close` (which may come first)."""
        toks = self.toks
        if toks[self.i] == close:
            self.i += 1
            return []
        cache = self._type_cache
        types = []
        while True:
            t = cache.get(toks[self.i])
            if t is None:
                t = self.parse_type()
            else:
                self.i += 1
            types.append(t)
            tok = toks[self.i]
            self.i += 1
            if tok == ",":
                continue
            if tok == close:
                return types
            self.i -= 1
            raise self.expected(f"expected ',' or '{close}'")

    def parse_dimension_list(self, allow_dynamic: bool = True) -> list[int]:
        """`4x?x` (the trailing `x` consumed); stops before the element type."""
        return self._parse_dims(allow_dynamic, None)

    def _parse_dims(self, allow_dynamic: bool, scalable: list[bool] | None) -> list[int]:
        toks = self.toks
        dims: list[int] = []
        while True:
            tok = toks[self.i]
            c = tok[:1]
            if "0" <= c <= "9":
                if tok[1:2] == "x":  # `0x4xf32` lexes as hex `0x4`: a zero dimension
                    dims.append(0)
                    self.relex(self.i, self.starts[self.i] + 1)
                elif "." in tok:
                    raise self.expected("expected 'x' in dimension list")
                else:
                    dims.append(int(tok))
                    self.i += 1
            elif tok == "?":
                if not allow_dynamic:
                    raise self.error("expected static shape")
                dims.append(A.DYNAMIC)
                self.i += 1
            elif tok == "[" and scalable is not None:
                self.i += 1
                dims.append(self._parse_int_token(False))
                self.expect("]", "missing ']' closing scalable dimension")
                scalable.append(True)
                self._parse_x()
                continue
            else:
                return dims
            if scalable is not None:
                scalable.append(False)
            self._parse_x()

    def _parse_x(self) -> None:
        tok = self.toks[self.i]
        if tok == "x":
            self.i += 1
        elif tok[:1] == "x" and tok[1:2].isalnum():
            self.relex(self.i, self.starts[self.i] + 1)
        else:
            raise self.expected("expected 'x' in dimension list")

    def _parse_tensor(self) -> A.Type:
        if self.toks[self.i] == "*":
            self.i += 1
            self._parse_x()
            et = self.parse_type()
            self.expect(">", "expected '>' in tensor type")
            return A.UnrankedTensorType(et)
        dims = self._parse_dims(True, None)
        et = self.parse_type()
        encoding = None
        if self.toks[self.i] == ",":
            self.i += 1
            encoding = self.parse_attribute()
        self.expect(">", "expected '>' in tensor type")
        return self._checked(A.RankedTensorType, dims, et, encoding)

    def _parse_memref(self) -> A.Type:
        unranked = self.toks[self.i] == "*"
        if unranked:
            self.i += 1
            self._parse_x()
            dims: list[int] = []
        else:
            dims = self._parse_dims(True, None)
        et = self.parse_type()
        layout = space = None
        while self.toks[self.i] == ",":
            self.i += 1
            pos = self.pos()
            attr = self.parse_attribute()
            if type(attr) is A.AffineMapAttr or type(attr) is A.StridedLayoutAttr:
                if unranked:
                    raise self.error("cannot have affine map for unranked memref type", pos)
                if space is not None:
                    raise self.error("expected memory space to be last in memref type", pos)
                layout = attr
            elif space is not None:
                raise self.error("multiple memory spaces specified in memref type", pos)
            else:
                space = attr
        self.expect(">", "expected '>' in memref type")
        if type(space) is A.IntegerAttr and space.value == 0:  # MLIR drops the default space
            space = None
        if unranked:
            return A.UnrankedMemRefType(et, space)
        return self._checked(A.MemRefType, dims, et, layout, space)

    def _parse_vector(self) -> A.Type:
        scalable: list[bool] = []
        pos = self.starts[self.i - 2]
        dims = self._parse_dims(False, scalable)
        et = self.parse_type()
        self.expect(">", "expected '>' in vector type")
        if any(d <= 0 for d in dims):
            raise self.error(
                "vector types must have positive constant sizes but got "
                + ", ".join(map(str, dims)),
                pos,
            )
        return A.VectorType(dims, et, scalable)

    def _parse_complex(self) -> A.Type:
        et = self.parse_type()
        self.expect(">", "expected '>' in complex type")
        return A.ComplexType(et)

    def _parse_tuple(self) -> A.Type:
        return A.TupleType(self._parse_types_until(">"))

    def _checked(self, cls: Callable[..., Any], *args: Any) -> Any:
        """`cls(*args)` with the constructor's ValueError turned into a ParseError."""
        try:
            return cls(*args)
        except ValueError as e:
            raise self.error(str(e)) from None

    def _parse_extended_type(self) -> A.Type:
        tok = self.toks[self.i]
        name = tok[1:]
        if "." not in name:
            alias = self.type_aliases.get(name)
            if alias is not None:
                self.i += 1
                return alias
        return self._parse_dialect_symbol(tok, True)  # type: ignore[return-value]

    def _parse_dialect_symbol(self, tok: str, is_type: bool) -> A.Type | A.Attribute:
        """`!dialect.mnemonic<...>` / `#dialect.mnemonic<...>`, memoized by its text (dialect
        attributes such as `#arith.fastmath<none>` repeat on many ops)."""
        i = self.i
        start = self.starts[i]
        if self.toks[i + 1] == "<":
            self.i = i + 1
            end = self.skip_balanced()
            after = self.i
            self.i = i
        else:
            end = start + len(tok)
            after = i + 1
        key = self.text[start:end]
        try:
            cached = self._symbol_cache[key]
        except KeyError:
            result = self._parse_dialect_symbol_text(tok, is_type)
            if self.i == after:
                self._symbol_cache[key] = result
            return result
        self.i = after
        return cached

    def _parse_dialect_symbol_text(self, tok: str, is_type: bool) -> A.Type | A.Attribute:
        pos = self.pos()
        name = tok[1:]
        dialect, dot, mnemonic = name.partition(".")
        has_body = self.toks[self.i + 1] == "<"
        if not dot and not has_body:
            raise self.error(f"undefined symbol alias id '{name}'")
        try:
            cls = (self.ctx.get_type(name) if is_type else self.ctx.get_attr(name)) if dot else None
        except ImportError:
            cls = None
        self.i += 1
        if cls is not None:
            result = cls.parse_parameters(self)  # type: ignore[attr-defined]
            if not isinstance(result, A.Type if is_type else A.Attribute):
                raise self.error(f"invalid {'type' if is_type else 'attribute'} of '{name}'", pos)
            return result
        known = self._known_dialect(dialect)
        if known or not self.allow_unregistered:
            what = "type" if is_type else "attribute"
            if known:
                raise self.error(f"dialect '{dialect}' has no {what} named '{mnemonic}'", pos)
            raise self.error(
                f"`{tok}` {what} created with unregistered dialect. If this is "
                "intended, please use -allow-unregistered-dialect with the MLIR "
                "tool used",
                pos,
            )
        body_start = pos + 1 + len(dialect)
        end = self.skip_balanced() if has_body else pos + len(tok)
        data = self.text[body_start:end]
        if is_type:
            return A.OpaqueType(dialect, data)
        return A.OpaqueAttr(dialect, data, None)

    def _known_dialect(self, name: str) -> bool:
        try:
            return self.ctx.get_dialect(name) is not None
        except ImportError:  # a registered dialect module that cannot be imported
            return False

    # -- attributes -----------------------------------------------------------------------------

    def parse_attribute(self, type: A.Type | None = None) -> A.Attribute:  # noqa: A002
        """Any attribute; literals take `type` or a `: type` suffix as in MLIR."""
        attr = self.parse_optional_attribute(type)
        if attr is None:
            raise self.expected("expected attribute value")
        return attr

    def parse_optional_attribute(self, type: A.Type | None = None) -> A.Attribute | None:  # noqa: A002
        tok = self.toks[self.i]
        c = tok[:1]
        if "0" <= c <= "9" or c == "-":
            return self._parse_number_attr(type)
        if c == '"':
            return self._parse_string_attr(type)
        if c == "#":
            return self._parse_hash_attr(tok)
        if c == "[":
            self.i += 1
            return A.ArrayAttr(self._parse_attrs_until("]"))
        if c == "{":
            if tok != "{":
                return None
            attrs: dict[str, A.Attribute] = {}
            self.parse_attr_dict_into(attrs)
            return A.DictionaryAttr(attrs)
        if c == "@":
            return self._parse_symbol_ref()
        keyword = _KEYWORD_ATTRS.get(tok)
        if keyword is not None:
            if type is not None and tok == "dense":
                return self._parse_dense(type)  # the `: type` suffix is optional (MLIR)
            return keyword(self)
        t = self.parse_optional_type()
        return None if t is None else A.TypeAttr(t)

    def _parse_attrs_until(self, close: str) -> list[A.Attribute]:
        toks = self.toks
        if toks[self.i] == close:
            self.i += 1
            return []
        items = []
        while True:
            items.append(self.parse_attribute())
            tok = toks[self.i]
            if tok == ",":
                self.i += 1
            elif tok == close:
                self.i += 1
                return items
            else:
                raise self.expected(f"expected ',' or '{close}'")

    def parse_attr_dict_into(self, attrs: dict[str, A.Attribute]) -> None:
        """`{a = 1, b, "c" = 2}` (current token `{`) merged into `attrs`."""
        toks = self.toks
        self.i += 1
        if toks[self.i] == "}":
            self.i += 1
            return
        while True:
            tok = toks[self.i]
            pos = self.starts[self.i]
            c = tok[:1]
            if c == '"':
                key = self.string_value(tok)
                if type(key) is bytes or not key:
                    raise self.error("expected valid attribute name")
            elif "a" <= c <= "z" or "A" <= c <= "Z" or c == "_":
                key = tok
            else:
                raise self.expected("expected attribute name")
            self.i += 1
            if toks[self.i] == "=":
                self.i += 1
                value = self.parse_attribute()
            else:
                value = _UNIT
            if key in attrs:
                raise self.error(f"duplicate key '{key}' in dictionary attribute", pos)
            attrs[key] = value  # type: ignore[index]
            tok = toks[self.i]
            self.i += 1
            if tok == ",":
                continue
            if tok == "}":
                return
            self.i -= 1
            raise self.expected("expected '}' in attribute dictionary")

    def parse_attr_dict_memo(self) -> dict[str, A.Attribute]:
        """`{...}` (current token `{`) as a fresh dict, memoized by its text: generic ops
        repeat the same property dictionaries (`<{fastmath = #arith.fastmath<none>}>`)."""
        toks = self.toks
        i = j = self.i
        depth = 0
        while True:
            tok = toks[j]
            if tok == "{":
                depth += 1
            elif tok == "}":
                depth -= 1
                if not depth:
                    break
            elif tok == EOF:
                break
            j += 1
        key = self.text[self.starts[i] : self.starts[j] + 1]
        try:
            cached = self._dict_cache[key]
        except KeyError:
            attrs: dict[str, A.Attribute] = {}
            self.parse_attr_dict_into(attrs)
            if self.i == j + 1:
                self._dict_cache[key] = attrs.copy()
            return attrs
        self.i = j + 1
        return cached.copy()

    def _parse_colon_type_suffix(self, type: A.Type | None) -> A.Type | None:  # noqa: A002
        if type is None and self.toks[self.i] == ":":
            self.i += 1
            return self.parse_type()
        return type

    def _parse_number_attr(self, type: A.Type | None) -> A.Attribute:  # noqa: A002
        neg = self.toks[self.i] == "-"
        if neg:
            self.i += 1
        pos = self.pos()
        tok = self.toks[self.i]
        if not tok[:1].isdigit():
            raise self.expected("expected integer or floating point literal")
        self.i += 1
        type = self._parse_colon_type_suffix(type)
        if "." in tok:
            if type is None:
                type = A.f64
            elif type.__class__ is not A.FloatType:
                raise self.error("floating point value not valid for specified type", pos)
            value = float(tok)
            return A.FloatAttr(round_float(-value if neg else value, type), type)
        value = int(tok, 16) if tok[1:2] == "x" else int(tok)
        if type is None:
            type = A.i64
        if type.__class__ is A.FloatType:
            return self._float_from_int_literal(tok, value, neg, type, pos)
        return A.IntegerAttr(self._check_int(-value if neg else value, type, pos), type)

    def _float_from_int_literal(
        self, tok: str, value: int, neg: bool, t: A.Type, pos: int
    ) -> A.Attribute:
        if tok[1:2] != "x":
            err = self.error("unexpected decimal integer literal for a floating point value", pos)
            raise self.note(err, "add a trailing dot to make the literal a float", pos)
        if neg:
            raise self.error("hexadecimal float literal should not have a leading minus", pos)
        f = float_from_bits(value, t)
        if f is None:
            raise self.error(f"hexadecimal float constant out of range for type {t}", pos)
        return A.FloatAttr(f, t)

    def _check_int(self, value: int, t: A.Type, pos: int) -> int:
        """Range-check `value` for integer type `t`; signless values are kept sign-extended."""
        if t.__class__ is A.IntegerType:
            lo, hi = t.value_range()  # type: ignore[attr-defined]
            if not lo <= value <= hi:
                if value < 0 and t.signedness == A.UNSIGNED:  # type: ignore[attr-defined]
                    raise self.error(
                        "negative integer literal not valid for unsigned integer type", pos
                    )
                raise self.error("integer constant out of range for attribute", pos)
            width = t.width  # type: ignore[attr-defined]
            if t.signedness == A.SIGNLESS and width > 1 and value >= 1 << (width - 1):  # type: ignore[attr-defined]  # noqa: E501
                value -= 1 << width
            return value
        if t.__class__ is A.IndexType:
            if not -(1 << 63) <= value < (1 << 64):
                raise self.error("integer constant out of range for attribute", pos)
            return value
        raise self.error("integer literal not valid for specified type", pos)

    def _parse_string_attr(self, type: A.Type | None) -> A.Attribute:  # noqa: A002
        value = self.string_value(self.toks[self.i])
        self.i += 1
        return A.StringAttr(value, self._parse_colon_type_suffix(type))

    def _parse_hash_attr(self, tok: str) -> A.Attribute:
        name = tok[1:]
        if "." not in name:
            alias = self.attr_aliases.get(name)
            if alias is not None:
                self.i += 1
                return alias
        return self._parse_dialect_symbol(tok, False)  # type: ignore[return-value]

    def parse_symbol_name(self) -> str:
        """`@name` or `@"quoted"`; returns the name."""
        name = self.parse_optional_symbol_name()
        if name is None:
            raise self.expected("expected valid '@'-identifier for symbol name")
        return name

    def parse_optional_symbol_name(self) -> str | None:
        tok = self.toks[self.i]
        if tok[:1] != "@":
            return None
        if tok[1:2] == '"':
            value = self.string_value(tok[1:])
            if type(value) is bytes:
                raise self.error("expected valid UTF-8 symbol name")
        else:
            value = tok[1:]
        self.i += 1
        return value  # type: ignore[return-value]

    def _parse_symbol_ref(self) -> A.Attribute:
        root = self.parse_symbol_name()
        nested = []
        while self.toks[self.i] == "::":
            self.i += 1
            nested.append(self.parse_symbol_name())
        return A.SymbolRefAttr(root, nested)

    def _parse_bool(self) -> A.Attribute:
        value = self.toks[self.i] == "true"
        self.i += 1
        return A.BoolAttr(value)

    def _parse_unit(self) -> A.Attribute:
        self.i += 1
        return _UNIT

    def _parse_not_supported(self) -> A.Attribute:
        raise self.error(_NOT_SUPPORTED[self.toks[self.i]])

    def _parse_loc_attr(self) -> A.Attribute:
        loc = self.parse_optional_location()
        assert loc is not None
        return loc

    def _parse_affine_attr(self) -> A.Attribute:
        kw = self.toks[self.i]
        self.i += 1
        if self.toks[self.i] != "<":
            raise self.expected(f"expected '<' in {kw}")
        start = self.starts[self.i] + 1
        try:
            value, end = affine.parse_affine_map_or_set_at(self.text, start)
        except affine.AffineParseError as e:
            raise self.error(e.message, e.position) from None
        self.seek(end)
        self.expect(">", f"expected '>' in {kw}")
        if kw == "affine_map":
            if type(value) is not affine.AffineMap:
                raise self.error("expected AffineMap, but got IntegerSet", start)
            return A.AffineMapAttr(value)
        if type(value) is not affine.IntegerSet:
            raise self.error("expected IntegerSet, but got AffineMap", start)
        return A.IntegerSetAttr(value)

    def _parse_strided(self) -> A.Attribute:
        self.i += 1
        self.expect("<", "expected '<' after 'strided'")
        self.expect("[", "expected '['")
        strides = []
        if self.toks[self.i] != "]":
            while True:
                strides.append(self._parse_int_or_question())
                if self.toks[self.i] != ",":
                    break
                self.i += 1
        self.expect("]", "expected ']'")
        offset = 0
        if self.toks[self.i] == ",":
            self.i += 1
            self.expect("offset", "expected 'offset' after comma")
            self.expect(":", "expected ':' after 'offset'")
            offset = self._parse_int_or_question()
        self.expect(">", "expected '>'")
        return A.StridedLayoutAttr(strides, offset)

    def _parse_int_or_question(self) -> int:
        if self.toks[self.i] == "?":
            self.i += 1
            return A.DYNAMIC
        neg = self.toks[self.i] == "-"
        self.i += neg
        return self._parse_int_token(neg)

    def _parse_dense_array(self) -> A.Attribute:
        self.i += 1
        self.expect("<", "expected '<' after 'array'")
        et = self.parse_type()
        if et.__class__ is not A.IntegerType and et.__class__ is not A.FloatType:
            raise self.error("expected integer or float type")
        values: list[int | float] = []
        if self.toks[self.i] == ":":
            self.i += 1
            while True:
                values.append(self._parse_scalar(et))
                if self.toks[self.i] != ",":
                    break
                self.i += 1
        self.expect(">", "expected '>' to close an array attribute")
        return A.DenseArrayAttr(et, values)

    def _parse_scalar(self, et: A.Type) -> int | float:
        """One integer/float/bool element of type `et` (for `array<...>` and `dense<...>`)."""
        tok = self.toks[self.i]
        pos = self.pos()
        if tok == "true" or tok == "false":
            self.i += 1
            return int(tok == "true")
        neg = tok == "-"
        if neg:
            self.i += 1
            tok = self.toks[self.i]
        if not tok[:1].isdigit():
            raise self.expected("expected integer or floating point literal")
        self.i += 1
        if et.__class__ is A.FloatType:
            if "." in tok:
                return round_float(-float(tok) if neg else float(tok), et)
            return self._float_from_int_literal(
                tok, int(tok, 0) if tok[1:2] == "x" else int(tok), neg, et, pos
            ).value  # type: ignore[attr-defined]
        if "." in tok:
            raise self.error("expected integer elements, but parsed floating-point", pos)
        value = int(tok, 16) if tok[1:2] == "x" else int(tok)
        return self._check_int(-value if neg else value, et, pos)

    # -- dense elements -------------------------------------------------------------------------

    def _parse_dense(self, type: A.Type | None = None) -> A.Attribute:  # noqa: A002
        """`dense<...> : type`; with `type` given, the suffix may be left out."""
        self.i += 1
        self.expect("<", "expected '<' after 'dense'")
        lit_pos = self.pos()
        tok = self.toks[self.i]
        hex_data: str | None = None
        elements: list[int] = []
        shape: list[int] | None = None
        if tok == ">":
            shape = [0]
        elif tok[:1] == '"':
            hex_data = tok[1:-1]
            self.i += 1
        else:
            shape = self._parse_dense_literal(elements)
        self.expect(">", "expected '>'")
        type_pos = self.pos()
        if type is not None and self.toks[self.i] != ":":
            t = type
        else:
            self.expect(":", "expected ':'")
            type_pos = self.pos()
            t = self.parse_type()
        if not isinstance(t, A.ShapedType) or not t.has_static_shape():
            raise self.error("elements literal type must have static shape", type_pos)
        if hex_data is not None:
            return self._dense_from_hex(hex_data, t, lit_pos)
        assert shape is not None
        if shape and shape != list(t.shape) and not (shape == [0] and t.num_elements == 0):
            raise self.error(
                f"inferred shape of elements literal ({shape}) does not match "
                f"type ({list(t.shape)})",
                lit_pos,
            )
        values = self._dense_values(elements, t.element_type)
        try:
            arr = np.array(values, dtype=self._dense_dtype(t.element_type, type_pos))
            return A.DenseElementsAttr(t, arr.reshape(t.shape) if shape else arr.reshape(()))
        except (ValueError, TypeError, OverflowError) as e:
            raise self.error(f"not supported: {e}", lit_pos) from None

    def _dense_dtype(self, et: A.Type, pos: int) -> np.dtype:
        """The NumPy dtype for elements of `et`; unsupported types are reported at `pos`."""
        if et is A.bf16:
            return np.dtype(np.float32)
        try:
            return A.numpy_dtype(et)
        except ValueError as e:
            raise self.error(str(e), pos) from None

    def _parse_dense_literal(self, elements: list[int]) -> list[int]:
        """A nested list or a scalar; token indices of the elements (negated via `~` when
        preceded by `-`; complex `(a, b)` pairs as two entries) go to `elements`. Returns the
        literal's shape ([] for a scalar)."""
        toks = self.toks
        tok = toks[self.i]
        if tok == "[":
            self.i += 1
            if toks[self.i] == "]":
                self.i += 1
                return [0]
            sub_shape = None
            count = 0
            while True:
                pos = self.pos()
                shape = self._parse_dense_literal(elements)
                if sub_shape is None:
                    sub_shape = shape
                elif shape != sub_shape:
                    raise self.error(
                        "tensor literal is invalid; ranks are not consistent between elements", pos
                    )
                count += 1
                tok = toks[self.i]
                self.i += 1
                if tok == "]":
                    return [count, *sub_shape]
                if tok != ",":
                    self.i -= 1
                    raise self.expected("expected ',' or ']'")
        if tok == "(":
            self.i += 1
            elements.append(self._dense_element_index())
            self.expect(",", "expected ',' between complex parts")
            elements.append(self._dense_element_index())
            self.expect(")", "expected ')' after complex value")
            elements.append(-(1 << 62))  # marks the pair as complex
            return []
        elements.append(self._dense_element_index())
        return []

    def _dense_element_index(self) -> int:
        tok = self.toks[self.i]
        neg = tok == "-"
        if neg:
            self.i += 1
            tok = self.toks[self.i]
        if not (tok[:1].isdigit() or tok == "true" or tok == "false" or tok[:1] == '"'):
            raise self.expected("expected element literal of primitive type")
        self.i += 1
        return ~(self.i - 1) if neg else self.i - 1

    def _dense_values(self, elements: list[int], et: A.Type) -> list[Any]:
        complex_mark = -(1 << 62)
        if et.__class__ is A.ComplexType:
            inner = et.element_type  # type: ignore[attr-defined]
            out: list[Any] = []
            for k in range(0, len(elements), 3):
                if k + 2 >= len(elements) or elements[k + 2] != complex_mark:
                    raise self.error("expected complex element literal (real, imag)")
                re_ = self._dense_scalar(elements[k], inner)
                im = self._dense_scalar(elements[k + 1], inner)
                out.append(complex(re_, im))
            return out
        if complex_mark in elements:
            raise self.error("complex literal for a non-complex element type")
        return [self._dense_scalar(e, et) for e in elements]

    def _dense_scalar(self, index: int, et: A.Type) -> int | float:
        neg = index < 0
        j = ~index if neg else index
        save = self.i
        self.i = j - 1 if neg else j
        try:
            if self.toks[self.i][:1] == '"':
                raise self.error("not supported: string elements in dense attributes")
            return self._parse_scalar(et)
        finally:
            self.i = save

    def _dense_from_hex(self, data: str, t: A.ShapedType, pos: int) -> A.Attribute:
        if data[:2] != "0x":
            raise self.error("not supported: string elements in dense attributes", pos)
        try:
            raw = bytes.fromhex(data[2:])
        except ValueError:
            raise self.error("elements hex string should start with '0x'", pos) from None
        et = t.element_type
        if et is A.bf16:
            bits = np.frombuffer(raw, dtype="<u2") if len(raw) % 2 == 0 else None
            arr = None if bits is None else (bits.astype(np.uint32) << 16).view(np.float32)
        else:
            dtype = self._dense_dtype(et, pos).newbyteorder("<")
            arr = np.frombuffer(raw, dtype=dtype) if len(raw) % dtype.itemsize == 0 else None
        n = t.num_elements
        if arr is None or (arr.size != n and arr.size != 1):
            raise self.error("elements hex data size is invalid for provided type", pos)
        arr = arr.reshape(()) if arr.size == 1 and n != 1 else arr.reshape(t.shape)
        return A.DenseElementsAttr(t, arr)

    # -- locations ------------------------------------------------------------------------------

    def parse_optional_location(self) -> A.Location | None:
        """`loc(...)`, or None when the current token is not `loc`."""
        if self.toks[self.i] != "loc":
            return None
        self.i += 1
        self.expect("(", "expected '(' in location")
        loc = self._parse_loc_instance()
        self.expect(")", "expected ')' in location")
        return loc

    def _parse_loc_instance(self) -> A.Location:
        tok = self.toks[self.i]
        c = tok[:1]
        if c == '"':
            return self._parse_name_or_file_loc()
        if c == "#":
            return self._parse_loc_alias(tok)
        if tok == "unknown":
            self.i += 1
            return A.UnknownLoc()
        if tok == "callsite":
            self.i += 1
            self.expect("(", "expected '(' in callsite location")
            callee = self._parse_loc_instance()
            self.expect("at", "expected 'at' in callsite location")
            caller = self._parse_loc_instance()
            self.expect(")", "expected ')' in callsite location")
            return A.CallSiteLoc(callee, caller)
        if tok == "fused":
            return self._parse_fused_loc()
        raise self.expected("expected location instance")

    def _parse_loc_alias(self, tok: str) -> A.Location:
        name = tok[1:]
        pos = self.pos()
        self.i += 1
        attr = self.attr_aliases.get(name)
        if attr is None:
            self._deferred_locs += 1
            return DeferredLoc(name, pos)
        if not isinstance(attr, A.Location):
            raise self.error(f"expected location, but found '{attr}'", pos)
        return attr

    def _parse_fused_loc(self) -> A.Location:
        self.i += 1
        metadata = None
        if self.toks[self.i] == "<":
            self.i += 1
            metadata = self.parse_attribute()
            self.expect(">", "expected '>' after fused location metadata")
        self.expect("[", "expected '[' in fused location")
        locs = []
        if self.toks[self.i] != "]":
            while True:
                locs.append(self._parse_loc_instance())
                if self.toks[self.i] != ",":
                    break
                self.i += 1
        self.expect("]", "expected ']' in fused location")
        return A.FusedLoc(locs, metadata)

    def _parse_name_or_file_loc(self) -> A.Location:
        name = self.parse_str_token()
        tok = self.toks[self.i]
        if tok == ":":
            self.i += 1
            line = self._parse_int_token(False)
            self.expect(":", "expected ':' in FileLineColLoc")
            col = self._parse_int_token(False)
            if self.toks[self.i] != "to":
                return A.FileLineColLoc(name, line, col)
            self.i += 1
            end_line = line
            if self.toks[self.i] != ":":
                end_line = self._parse_int_token(False)
            self.expect(":", "expected ':' in FileLineColRange")
            return A.FileLineColLoc(name, line, col, end_line, self._parse_int_token(False))
        if tok == "(":
            self.i += 1
            child = self._parse_loc_instance()
            self.expect(")", "expected ')' after child location of NameLoc")
            return A.NameLoc(name, child)
        return A.NameLoc(name)

    def resolve_deferred(
        self, loc: A.Location, memo: dict[Any, A.Location], depth: int = 0
    ) -> A.Location:
        """`loc` with DeferredLoc placeholders replaced by their (now defined) aliases."""
        done = memo.get(loc)
        if done is not None:
            return done
        t = type(loc)
        result = loc
        if depth > 100:
            raise self.error("location alias cycle", getattr(loc, "pos", None))
        if t is DeferredLoc:
            attr = self.attr_aliases.get(loc.alias)  # type: ignore[attr-defined]
            if attr is None:
                raise self.error("operation location alias was never defined", loc.pos)  # type: ignore[attr-defined]
            if not isinstance(attr, A.Location):
                raise self.error(f"expected location, but found '{attr}'", loc.pos)  # type: ignore[attr-defined]
            result = self.resolve_deferred(attr, memo, depth + 1)
        elif t is A.NameLoc and loc.child is not None:  # type: ignore[attr-defined]
            result = A.NameLoc(loc.loc_name, self.resolve_deferred(loc.child, memo, depth + 1))  # type: ignore[attr-defined]
        elif t is A.CallSiteLoc:
            result = A.CallSiteLoc(
                self.resolve_deferred(loc.callee, memo, depth + 1),  # type: ignore[attr-defined]
                self.resolve_deferred(loc.caller, memo, depth + 1),
            )  # type: ignore[attr-defined]
        elif t is A.FusedLoc:
            result = A.FusedLoc(
                [self.resolve_deferred(x, memo, depth + 1) for x in loc.locations],  # type: ignore[attr-defined]
                loc.metadata,
            )  # type: ignore[attr-defined]
        memo[loc] = result
        return result


_UNIT = A.UnitAttr()

_SHAPED_TYPE_PARSERS: dict[str, Callable[[AttrParser], A.Type]] = {
    "tensor": AttrParser._parse_tensor,
    "memref": AttrParser._parse_memref,
    "vector": AttrParser._parse_vector,
    "complex": AttrParser._parse_complex,
    "tuple": AttrParser._parse_tuple,
}

_KEYWORD_ATTRS: dict[str, Callable[[AttrParser], A.Attribute]] = {
    "true": AttrParser._parse_bool,
    "false": AttrParser._parse_bool,
    "unit": AttrParser._parse_unit,
    "dense": AttrParser._parse_dense,
    "array": AttrParser._parse_dense_array,
    "affine_map": AttrParser._parse_affine_attr,
    "affine_set": AttrParser._parse_affine_attr,
    "strided": AttrParser._parse_strided,
    "loc": AttrParser._parse_loc_attr,
    "dense_resource": AttrParser._parse_not_supported,
    "sparse": AttrParser._parse_not_supported,
    "distinct": AttrParser._parse_not_supported,
}
