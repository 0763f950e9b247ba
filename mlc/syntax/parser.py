"""MLIR's textual IR parser: operations (generic and custom), regions, blocks, SSA names, and the
OpAsmParser API that custom `parse_asm` hooks call (see docs/internals.md).

    >>> module = parse_module('"test.op"() : () -> ()', allow_unregistered=True)
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence
from itertools import islice
from typing import Any

from mlc.diagnostics import ParseError, register_source
from mlc.ir import affine
from mlc.ir import attributes as A
from mlc.ir.context import Context
from mlc.ir.core import Block, BlockArgument, Operation, Region, UnregisteredOp, Value
from mlc.ir.opdef import OperationState
from mlc.syntax import lexer as _lexer
from mlc.syntax.attr_parser import AttrParser, float_from_bits
from mlc.syntax.lexer import EOF, EOF_PADDING, tokenize, want_line_ops

__all__ = [
    "Argument",
    "Parser",
    "UnresolvedOperand",
    "ensure_terminator",
    "parse_attribute",
    "parse_module",
    "parse_type",
]

_tuple_new = tuple.__new__
_FileLineColLoc = A.FileLineColLoc
_DELIMITERS = {
    "paren": ("(", ")"),
    "square": ("[", "]"),
    "angle": ("<", ">"),
    "brace": ("{", "}"),
}


_EOF_TAIL = [EOF] * (1 + EOF_PADDING)
_new_list = list.__new__


class _LineStarts(list):
    """Token offsets of a custom line op token past its first `skip` tokens, lexed with the
    plain lexer on first use (only errors and forward references ask)."""

    __slots__ = ("_line",)  # (start of the token, its text, tokens before the list's first)

    def _fill(self) -> None:
        start, tok, skip = self._line
        list.extend(self, tokenize(tok + "\n", start)[1][skip:])

    def __getitem__(self, k: Any) -> Any:
        if not list.__len__(self):
            self._fill()
        return list.__getitem__(self, k)

    def __setitem__(self, k: Any, v: Any) -> None:
        if not list.__len__(self):
            self._fill()
        list.__setitem__(self, k, v)

    def __len__(self) -> int:
        if not list.__len__(self):
            self._fill()
        return list.__len__(self)

    def __iter__(self) -> Any:
        if not list.__len__(self):
            self._fill()
        return list.__iter__(self)


class UnresolvedOperand(tuple):
    """An operand use `(name, number, pos)` not yet resolved: `%x#1` is ('%x', 1, pos)."""

    __slots__ = ()

    @property
    def name(self) -> str:
        return self[0]

    @property
    def number(self) -> int:
        return self[1]

    @property
    def pos(self) -> int:
        return self[2]


class Argument:
    """A block argument being defined: `%x: type {attrs} loc(...)` (name None when unnamed)."""

    __slots__ = ("name", "type", "attrs", "loc", "pos")

    def __init__(
        self,
        name: str | None,
        type: A.Type | None,  # noqa: A002
        attrs: dict[str, A.Attribute] | None = None,
        loc: A.Location | None = None,
        pos: int = 0,
    ) -> None:
        self.name = name
        self.type = type
        self.attrs = attrs
        self.loc = loc
        self.pos = pos

    def __repr__(self) -> str:
        return f"Argument({self.name!r}, {self.type!r})"


def _show(x: Any) -> str:
    """`str(x)` that cannot fail while an error is being reported."""
    try:
        return str(x)
    except Exception:  # noqa: BLE001 - the printer may be unavailable
        return repr(x)


def _is_bare_id(tok: str) -> bool:
    c = tok[:1]
    return "a" <= c <= "z" or "A" <= c <= "Z" or c == "_"


class Parser(AttrParser):
    """The IR parser; also the `OpAsmParser` handed to custom `parse_asm` hooks."""

    __slots__ = (
        "values",
        "fwd",
        "fwd_pos",
        "_sig_cache",
        "blocks",
        "fwd_blocks",
        "default_dialect",
        "_region_dialect",
        "_generic_cache",
        "_custom_ops",
        "_custom_caches",
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
        super().__init__(
            text,
            filename=filename,
            ctx=ctx,
            allow_unregistered=allow_unregistered,
            line_offset=line_offset,
            line_ops=line_ops,
        )
        self.values: dict[str, Value] = {}
        self.fwd: dict[str, Value] = {}
        self.fwd_pos: dict[Value, int] = {}
        # Signatures of generic ops by the rest of their line: `(i32, i32) -> i32`.
        self._sig_cache: dict[str, tuple[list[A.Type], list[A.Type], int]] = {}
        self.blocks: dict[str, Block] = {}
        self.fwd_blocks: dict[Block, int] = {}
        self.default_dialect = ""
        self._region_dialect = ""
        # Op classes (None: unregistered) and their default-valued properties, by name.
        self._generic_cache: dict[str, type[Operation] | None] = {}
        # Custom op classes by spelled name, one table per default dialect, with the default
        # dialect inside their regions and their default-valued properties.
        self._custom_caches: dict[str, dict[str, tuple[type[Operation], str, Any, Any]]] = {"": {}}
        self._custom_ops = self._custom_caches[""]

    # -- the top level --------------------------------------------------------------------------

    def parse_top_level(self, implicit_module: bool = True) -> Operation:
        """Parse the whole text: alias definitions, file metadata and top-level operations."""
        block = Block()
        toks = self.toks
        while True:
            tok = toks[self.i]
            if tok == EOF:
                break
            c = tok[0]
            if (c == "#" or c == "!") and toks[self.i + 1] == "=":
                self._parse_alias_def()
            elif tok == "{-#":
                self._skip_file_metadata()
            else:
                block.append(self._parse_op())
        self._check_forward_refs()
        if self._deferred_locs:
            self._resolve_deferred_locs(block)
        return self._top_level_op(block, implicit_module)

    def _top_level_op(self, block: Block, implicit_module: bool) -> Operation:
        first = block.first
        if not implicit_module:
            if first is None or first.next is not None:
                raise self.error(
                    f"source must contain a single top-level operation, found: {len(block)}", 0
                )
            return first.detach()
        if first is not None and first.next is None and first.name == "builtin.module":
            return first.detach()
        loc = _FileLineColLoc(self.filename, 0, 0)
        cls = self._lookup_op("builtin.module")
        region = Region([block])
        if cls is None:
            return UnregisteredOp.create([], [], None, [region], [], loc, "builtin.module")
        return cls.create([], [], None, [region], [], loc)

    def _parse_alias_def(self) -> None:
        tok = self.toks[self.i]
        name = tok[1:]
        is_attr = tok[0] == "#"
        if "." in name:
            what = "attribute" if is_attr else "type"
            raise self.error(f"{what} names with a '.' are reserved for dialect-defined names")
        table: dict[str, Any] = self.attr_aliases if is_attr else self.type_aliases
        if name in table:
            what = "attribute" if is_attr else "type"
            raise self.error(f"redefinition of {what} alias id '{name}'")
        self.i += 2
        if is_attr:
            table[name] = self.parse_attribute()
        else:
            table[name] = self._type_cache[tok] = self.parse_type()

    def _skip_file_metadata(self) -> None:
        """`{-# dialect_resources: ... #-}`: skipped (dense_resource uses are not supported)."""
        toks = self.toks
        while toks[self.i] != "#-}":
            if toks[self.i] == EOF:
                raise self.expected("expected '#-}' to end file metadata")
            self.i += 1
        self.i += 1

    def _resolve_deferred_locs(self, block: Block) -> None:
        memo: dict[Any, A.Location] = {}
        resolve = self.resolve_deferred
        stack = [block]
        while stack:
            blk = stack.pop()
            for arg in blk.arguments:
                if arg.location is not None:
                    arg.location = resolve(arg.location, memo)
            for op in blk:
                op.location = resolve(op.location, memo)
                for region in op.regions:
                    stack.extend(region.blocks)

    # -- operations -----------------------------------------------------------------------------

    def _op_loc(self, name_pos: int) -> A.Location:
        """The location of an op whose name starts at `name_pos`: `location_at` (ops come in
        text order, so `line_col_at` counts the newlines since the last located op), built
        without `FileLineColLoc.__new__`."""
        line, col = self.line_col_at(name_pos)
        if not self._ascii:
            col = self.byte_column(line, name_pos)
        # `FileLineColLoc(file, line, col)` without its `__new__` call (a tuple underneath).
        return _tuple_new(_FileLineColLoc, (self.filename, line + self.line_offset, col))

    def _parse_op(self) -> Operation:
        toks = self.toks
        i = self.i
        tok = toks[i]
        if tok[:1] == "\n":
            # A line op is read once: its token's memory goes back to the allocator now, for
            # the op's objects, instead of at the end of the parse (100k lines: 9 MB fewer
            # pages touched). The marker still reads as a line op (see parse_module).
            toks[i] = "\n"
            if '"' in tok:
                return self._parse_line_op(tok)
            return self._parse_custom_line(tok)
        start = self.starts[i]
        results: Any = None
        if tok[:1] == "%":
            if toks[i + 1] == "=" and "#" not in tok:
                results = tok
                self.i = i + 2
            else:
                results = self._parse_result_groups()
            tok = toks[self.i]
        # As in MLIR, an op is located at its name (not at its results).
        loc = self._op_loc(self.starts[self.i])
        c = tok[:1]
        if c == '"':
            op = self._parse_generic_op(tok, loc)
        elif "a" <= c <= "z" or "A" <= c <= "Z" or c == "_":
            custom = self._custom_ops
            entry = custom[tok] if tok in custom else None
            if entry is not None and entry[2] is not None:
                self._region_dialect = entry[1]
                self.i += 1
                op = entry[2](entry[0], self, loc)
            else:
                op = self._parse_custom_op(tok, loc)
        else:
            raise self.expected("expected operation name in quotes")
        if results is not None:
            res = op.results
            values = self.values
            if type(results) is str and len(res) == 1 and results not in values and not self.fwd:
                values[results] = res[0]
            else:
                self._bind_results(results, op, start)
        return op

    def _parse_line_op(self, tok: str) -> Operation:
        """A line op token (see `mlc.syntax.lexer.LINE_OP_PARTS`): a generic op built from
        the memos of its property dict and signature; anything else (a first occurrence, a
        forward reference, an error) goes through `_parse_line_tokens`, the token path."""
        start = self.starts[self.i]
        m = _lexer.LINE_OP_PARTS.match(self.text, start)
        cls = self._generic_cache.get(m["name"][1:-1], False)  # type: ignore[index]
        uses = m["ops"]  # type: ignore[index]
        values = self.values
        try:
            sig = self._sig_cache[m["sig"]]  # type: ignore[index]
            if cls is False or cls is None:
                raise KeyError
            operands = [values[u.strip()] for u in uses.split(",")] if uses else []
            inputs, outputs, _ = sig
            if [v.type for v in operands] != inputs:
                raise KeyError
            props = m["props"]  # type: ignore[index]
            attrs = self._dict_cache[props].copy() if props else None
            extra = m["attrs"]  # type: ignore[index]
            if extra:
                extra_attrs = self._dict_cache[extra]
                if attrs:
                    attrs.update(extra_attrs)
                else:
                    attrs = extra_attrs.copy()
        except KeyError:
            return self._parse_line_tokens(tok)
        op = cls.create(operands, outputs, attrs, (), (), self._op_loc(start + tok.find('"')))
        self.i += 1
        res = m["res"]  # type: ignore[index]
        if res is not None:
            if len(op.results) == 1 and res not in values and not self.fwd:
                values[res] = op.results[0]
            else:
                self._bind_results(res, op, self.starts[self.i - 1] + tok.find("%"))
        return op

    def _parse_custom_line(self, tok: str) -> Operation:
        """A custom line op token (see `mlc.syntax.lexer.CUSTOM_LINE_OP`): the op's format
        fast path reads the line's plain tokens, split by str methods; their offsets are only
        computed if something asks (an error, a forward reference)."""
        parts = tok.replace(",", " , ").replace("=", " = ").replace(":", " : ").split()
        k = 2 if parts[1] == "=" else 0
        name = parts[k]
        entry = self._custom_ops.get(name)
        if entry is None or entry[2] is None:
            return self._parse_line_tokens(tok)
        toks, starts, i = self.toks, self.starts, self.i
        start = starts[i]
        loc = self._op_loc(start + tok.find(name, tok.find("=") + 1 if k else 0))
        line = entry[3]
        # The format's line path: the op straight from `parts`, or None (a first type, a
        # forward reference, an error, another shape) for the token path.
        op = None if line is None else line(entry[0], self, parts, k, loc)
        if op is None:
            sub = parts[k + 1 :]
            sub += _EOF_TAIL
            self.toks = sub
            lazy = self.starts = _new_list(_LineStarts)
            lazy._line = (start, tok, k + 1)
            self.i = 0
            self._region_dialect = entry[1]
            try:
                op = entry[2](entry[0], self, loc)
                if self.toks[self.i] != EOF:  # the plain parse decides what this is
                    raise self.expected("expected operation name in quotes")
            finally:
                self.toks, self.starts = toks, starts
        self.i = i + 1
        if k:
            name = parts[0]  # the result
            values = self.values
            if len(op.results) == 1 and name not in values and not self.fwd:
                values[name] = op.results[0]
            else:
                self._bind_results(name, op, start + tok.find("%"))
        return op

    def _parse_line_tokens(self, tok: str) -> Operation:
        """Parse line op token `tok` as the plain lexer's tokens of its text would be."""
        toks, starts, i = self.toks, self.starts, self.i
        self.toks, self.starts = tokenize(tok + "\n", starts[i])
        self.i = 0
        try:
            op = self._parse_op()
            if self.toks[self.i] != EOF:  # cannot happen: the plain parse decides if it does
                raise self.expected("expected operation name in quotes")
        finally:
            self.toks, self.starts = toks, starts
        self.i = i + 1
        return op

    def _parse_result_groups(self) -> list[tuple[str, int, int]]:
        toks = self.toks
        groups = []
        while True:
            tok = toks[self.i]
            pos = self.starts[self.i]
            if tok[:1] != "%" or "#" in tok:
                raise self.expected("expected valid ssa identifier")
            self.i += 1
            count = 1
            if toks[self.i] == ":":
                self.i += 1
                num = toks[self.i]
                if not num.isdigit():
                    raise self.expected("expected integer number of results")
                count = int(num)
                if count < 1:
                    raise self.error("expected named operation to have at least 1 result")
                self.i += 1
            groups.append((tok, count, pos))
            if toks[self.i] != ",":
                break
            self.i += 1
        self.expect("=", "expected '=' after SSA name")
        return groups

    def _bind_results(
        self, results: str | list[tuple[str, int, int]], op: Operation, pos: int
    ) -> None:
        if type(results) is str:
            if len(op.results) == 1:
                self._define(results, op.results[0], pos)
                return
            results = [(results, 1, pos)]
        res = op.results
        total = sum(count for _, count, _ in results)
        if total != len(res):
            raise self.error(
                f"operation defines {len(res)} results but was provided {total} to bind", pos
            )
        k = 0
        for name, count, gpos in results:
            self._define(name, res[k], gpos)
            if count > 1:
                for j in range(count):
                    self._define(f"{name}#{j}", res[k + j], gpos)
            k += count

    def _parse_generic_op(self, tok: str, loc: A.Location) -> Operation:
        toks = self.toks
        name = tok[1:-1]
        if "\\" in name or len(tok) < 2:
            name = self._op_name_value(tok)
        try:
            cls = self._generic_cache[name]
        except KeyError:
            cls = self._generic_op_class(name)
        first = i = self.i + 2
        if toks[i - 1] != "(":
            self.i = i - 1
            raise self.expected("expected '(' to start operand list")
        if toks[i] != ")":
            if toks[i][:1] != "%":
                self.i = i
                raise self.expected("expected ')' to end operand list")
            while True:
                i += 1
                tok = toks[i]
                if tok == ")":
                    break
                if tok != ",":
                    self.i = i
                    raise self.expected("expected ')' to end operand list")
                i += 1
                if toks[i][:1] != "%":
                    self.i = i
                    raise self.expected("expected SSA operand")
        uses = toks[first:i:2]
        self.i = i + 1
        tok = toks[self.i]
        successors: Any = ()
        if tok == "[":
            successors = self._parse_successor_list()
            tok = toks[self.i]
        attrs: dict[str, A.Attribute] | None = None
        prop_names: frozenset[str] | None = None
        if tok == "<":
            if toks[self.i + 1] == "{":  # inline `_parse_generic_props` for the common case
                self.i += 1
                attrs = self.parse_attr_dict_memo()
                if toks[self.i] == ">":
                    self.i += 1
                else:
                    self.expect(">", "expected '>' to close properties")
            else:
                attrs = self._parse_generic_props()
            if cls is None:
                prop_names = frozenset(attrs)
            tok = toks[self.i]
        regions: Any = ()
        if tok == "(":
            regions = self._parse_generic_regions()
            tok = toks[self.i]
        if tok == "{":
            attrs = self._parse_generic_attrs(attrs)
            tok = toks[self.i]
        if tok != ":":
            raise self.expected("expected ':' followed by operation type")
        self.i = i = self.i + 1
        type_pos = self.starts[i]
        # `_parse_op_function_type`, inlined for a memoized signature.
        text = self.text
        eol = text.find("\n", type_pos)
        sig = self._sig_cache.get(text[type_pos:eol] if eol >= 0 else text[type_pos:])
        if sig is not None:
            inputs, outputs, n = sig
            self.i = i + n
        else:
            inputs, outputs = self._parse_op_function_type()
        if len(inputs) != len(uses):
            raise self.error(
                f"expected {len(uses)} operand type{'s' if len(uses) != 1 else ''} "
                f"but had {len(inputs)}",
                type_pos,
            )
        values = self.values
        try:
            operands = [values[tok] for tok in uses]
        except KeyError:
            operands = None
        if operands is None or [v.type for v in operands] != inputs:
            operands = self._resolve_uses(first, inputs)
        if toks[self.i] == "loc":
            loc = self.parse_optional_location()  # type: ignore[assignment]
        if cls is None:
            op = UnregisteredOp.create(operands, outputs, attrs, regions, successors, loc, name)
            if prop_names:
                op._unreg_props = prop_names  # type: ignore[attr-defined]
            return op
        return cls.create(operands, outputs, attrs, regions, successors, loc)

    def _op_name_value(self, tok: str) -> str:
        value = self.string_value(tok)
        if type(value) is not str:
            # Not UTF-8: keep the bytes as surrogate escapes, the form raw bytes in a file decode
            # to, so `"f\FF.op"` and the raw byte name the same op (and print the same).
            value = value.decode("utf-8", "surrogateescape")
        return value

    def _parse_generic_props(self) -> dict[str, A.Attribute]:
        self.i += 1
        if self.toks[self.i] != "{":
            raise self.expected("expected '{' to start properties")
        props = self.parse_attr_dict_memo()
        self.expect(">", "expected '>' to close properties")
        return props

    def _parse_generic_attrs(self, props: dict[str, A.Attribute] | None) -> dict[str, A.Attribute]:
        attrs = self.parse_attr_dict_memo()
        if props:
            props.update(attrs)
            return props
        return attrs

    def _parse_op_function_type(self) -> tuple[list[A.Type], list[A.Type]]:
        """The `(ins) -> outs` of a generic op, memoized by the rest of the line when the
        signature ends it (the lists are shared: do not mutate them)."""
        i = self.i
        text = self.text
        pos = self.starts[i]
        eol = text.find("\n", pos)
        if eol < 0:
            eol = len(text)
        key = text[pos:eol]
        try:
            inputs, outputs, n = self._sig_cache[key]
        except KeyError:
            relexed = self.relex_count
            inputs, outputs = self._parse_signature()
            # Re-lexing changes token counts: such signatures are not memoized.
            if self.starts[self.i] > eol and self.relex_count == relexed:
                self._sig_cache[key] = (inputs, outputs, self.i - i)
            return inputs, outputs
        self.i = i + n
        return inputs, outputs

    def _parse_signature(self) -> tuple[list[A.Type], list[A.Type]]:
        if self.toks[self.i] != "(":
            pos = self.pos()
            t = self.parse_type()
            if type(t) is not A.FunctionType:
                raise self.error("expected function type", pos)
            return list(t.inputs), list(t.results)
        self.i += 1
        inputs = self._parse_types_until(")")
        if self.toks[self.i] != "->":
            raise self.expected("expected '->' in function type")
        self.i += 1
        return inputs, self._parse_function_results()

    def _resolve_uses(self, first: int, types: list[A.Type]) -> list[Value]:
        """Operand uses at token indices first, first + 2, ... with `types` (forward refs)."""
        toks, starts = self.toks, self.starts
        return [
            self._resolve_key(toks[first + 2 * k], t, starts[first + 2 * k])
            for k, t in enumerate(types)
        ]

    def _generic_op_class(self, name: str) -> type[Operation] | None:
        cls = self._lookup_op(name)
        if cls is None:
            dialect, dot, _ = name.partition(".")
            if dot and self._get_dialect(dialect) is not None:
                raise self.error(
                    f"unregistered operation '{name}' found in dialect ('{dialect}') "
                    "that does not allow unknown operations"
                )
            if not self.allow_unregistered:
                raise self.error(
                    "operation being parsed with an unregistered dialect. If this is intended, "
                    "please use -allow-unregistered-dialect with the MLIR tool used",
                    self.starts[self.i + 1],
                )
        self._generic_cache[name] = cls
        return cls

    def _lookup_op(self, name: str) -> type[Operation] | None:
        try:
            return self.ctx.get_op(name)
        except ImportError:  # a dialect module that is not available
            return None

    def _get_dialect(self, name: str) -> Any:
        try:
            return self.ctx.get_dialect(name)
        except ImportError:
            return None

    def _custom_op_class(self, name: str) -> tuple[type[Operation], str, Any]:
        """The op class for custom op `name` and the default dialect inside its regions."""
        dd = self.default_dialect
        if "." in name:
            cls = self._lookup_op(name)
            if cls is None:
                dialect = name.partition(".")[0]
                if self._get_dialect(dialect) is None:
                    raise self.error(f"Dialect `{dialect}' not found for custom op '{name}' ")
                raise self.error(f"custom op '{name}' is unknown")
        else:
            cls = self._lookup_op(f"{dd}.{name}") if dd else None
            if cls is None:
                cls = self._lookup_op(f"builtin.{name}")
            if cls is None:
                raise self.error(
                    f"custom op '{name}' is unknown (tried '{dd or 'builtin'}.{name}' as well)"
                )
        if getattr(cls, "parse_asm", None) is None:
            raise self.error(
                f"custom op '{name}' has no custom assembly form; use the generic form"
            )
        dd = getattr(cls, "default_dialect", None) or ""
        if not isinstance(dd, str):
            raise self.error(f"op class of '{name}' has an invalid default_dialect")
        # Format-generated ops also have a fast path that parses and creates the op in one call,
        # and most a line path (`_parse_custom_line`).
        hook = getattr(cls.parse_asm, "__func__", None)
        fast = getattr(hook, "_fast", None)
        line = getattr(hook, "_line", None) if fast is not None else None
        entry = self._custom_ops[name] = (cls, dd, fast, line)
        return entry

    def _parse_custom_op(self, name: str, loc: A.Location) -> Operation:
        try:
            cls, self._region_dialect, fast, _ = self._custom_ops[name]
        except KeyError:
            cls, self._region_dialect, fast, _ = self._custom_op_class(name)
        self.i += 1
        if fast is not None:
            return fast(cls, self, loc)
        state = OperationState(cls, loc)
        cls.parse_asm(self, state)  # type: ignore[attr-defined]
        if self.toks[self.i] == "loc":
            state.location = self.parse_optional_location()
        return cls.create(
            state.operands,
            state.result_types,
            state.attributes,
            state.regions,
            state.successors,
            state.location,
        )

    # -- SSA values -----------------------------------------------------------------------------

    def _define(self, key: str, value: Value, pos: int) -> None:
        values = self.values
        if key in values:
            prior = values[key]
            err = self.error(f"redefinition of SSA value '{key}'", pos)
            raise self._note_value(err, prior, "previously defined here")
        if self.fwd:
            self._resolve_forward(key, value, pos)
        values[key] = value

    def _note_value(self, err: ParseError, value: Value, message: str) -> ParseError:
        pos = self.fwd_pos.get(value)
        if pos is not None:
            return self.note(err, message, pos)
        loc: A.Location | None = None
        owner = getattr(value, "op", None)
        if owner is not None:
            loc = owner.location
        elif isinstance(value, BlockArgument):
            loc = value.location
        if loc is None:
            return err
        if self._deferred_locs:
            # `loc(#alias)` of an alias defined further on is a placeholder until the end of
            # the parse: the note gets what it stands for, or no place if that is not known yet.
            try:
                loc = self.resolve_deferred(loc, {})
            except ParseError:
                loc = A.UnknownLoc()
        return self.note(err, message, location=loc)

    def _resolve_forward(self, key: str, value: Value, pos: int) -> None:
        ph = self.fwd.pop(key, None)
        if ph is None:
            return
        use_pos = self.fwd_pos.pop(ph)
        if ph.type is not value.type:
            name = key if "#" in key else f"{key}#0"
            err = self.error(
                f"definition of SSA value '{name}' has type '{_show(value.type)}'", pos
            )
            raise self.note(err, f"previously used here with type '{_show(ph.type)}'", use_pos)
        ph.replace_all_uses_with(value)

    def _resolve_key(self, key: str, t: A.Type, pos: int) -> Value:
        """The value of use `key` (`%x` or `%x#n`) with type `t`; a placeholder when undefined."""
        values = self.values
        if "#" in key:
            name, _, num = key.partition("#")
            key = name if int(num) == 0 else f"{name}#{int(num)}"
        v = values.get(key)
        if v is None:
            v = self.fwd.get(key)
            if v is None:
                v = Value(t)
                self.fwd[key] = v
                self.fwd_pos[v] = pos
                return v
        if v.type is not t:
            name = key.partition("#")[0]
            err = self.error(
                f"use of value '{name}' expects different type than prior uses: "
                f"'{_show(t)}' vs '{_show(v.type)}'",
                pos,
            )
            raise self._note_value(err, v, "prior use here")
        return v

    def _check_forward_refs(self) -> None:
        if self.fwd_pos:
            raise self.error("use of undeclared SSA value name", min(self.fwd_pos.values()))
        if self.fwd_blocks:
            raise self.error("reference to an undefined block", min(self.fwd_blocks.values()))

    # -- regions and blocks ---------------------------------------------------------------------

    def _parse_generic_regions(self) -> list[Region]:
        toks = self.toks
        self.i += 1
        regions = []
        while True:
            self._region_dialect = ""
            regions.append(self.parse_region())
            tok = toks[self.i]
            self.i += 1
            if tok == ")":
                return regions
            if tok != ",":
                self.i -= 1
                raise self.expected("expected ')' to end region list")

    def parse_region(
        self, arguments: Sequence[Argument] | None = None, enable_name_shadowing: bool = False
    ) -> Region:
        """`{ ... }`; the entry block's arguments are defined from `arguments`.

        Names follow MLIR: a region sees the names defined around it (isolated ops included)
        and may not redefine them; its own names end with it. With `enable_name_shadowing`
        the region is a fresh name scope (MLIR's isolated name scope): outer names are
        invisible and may be reused.
        """
        if self.toks[self.i] != "{":
            raise self.expected("expected '{' to begin a region")
        self.i += 1
        region = Region()
        if self.toks[self.i] == "}" and not arguments:
            self.i += 1
            return region
        saved = (self.blocks, self.fwd_blocks, self.default_dialect, self._region_dialect)
        self.blocks = {}
        self.fwd_blocks = {}
        dd = self.default_dialect = self._region_dialect or ""
        self._custom_ops = self._custom_caches.setdefault(dd, {})
        if enable_name_shadowing:
            outer_values = (self.values, self.fwd, self.fwd_pos)
            self.values, self.fwd, self.fwd_pos = {}, {}, {}
        # Names defined inside are the last ones inserted into `values` (never redefined or
        # deleted otherwise); dropping them on exit ends their scope.
        n_outer = len(self.values)
        self._parse_region_body(region, arguments)
        self.i += 1  # the closing brace
        if self.fwd_blocks:
            raise self.error("reference to an undefined block", min(self.fwd_blocks.values()))
        if enable_name_shadowing:
            self._check_forward_refs()
            self.values, self.fwd, self.fwd_pos = outer_values
        else:
            self._drop_names(n_outer)
        self.blocks, self.fwd_blocks, self.default_dialect, self._region_dialect = saved
        self._custom_ops = self._custom_caches[self.default_dialect]
        return region

    def _drop_names(self, keep: int) -> None:
        """Remove all but the first `keep` names of the scope (in definition order)."""
        values = self.values
        extra = len(values) - keep
        if keep == 0:
            values.clear()
        elif extra > keep:
            self.values = dict(islice(values.items(), keep))
        else:
            pop = values.popitem
            for _ in range(extra):
                pop()

    def parse_optional_region(
        self, arguments: Sequence[Argument] | None = None, enable_name_shadowing: bool = False
    ) -> Region | None:
        if self.toks[self.i] != "{":
            return None
        return self.parse_region(arguments, enable_name_shadowing)

    def _parse_region_body(self, region: Region, arguments: Sequence[Argument] | None) -> None:
        toks = self.toks
        if arguments:
            if toks[self.i][:1] == "^":
                raise self.error("invalid block name in region with named arguments")
            block = Block()
            for arg in arguments:
                self._add_block_argument(block, arg, "region entry argument")
        elif toks[self.i][:1] == "^":
            block = self._parse_block_label()
        else:
            block = Block()
        region.add_block(block)
        self._parse_block_ops(block)
        while True:
            tok = toks[self.i]
            if tok == "}":
                return
            if tok[:1] != "^":  # EOF: the op loop stops there
                raise self.expected("expected operation name in quotes")
            block = self._parse_block_label()
            region.add_block(block)
            self._parse_block_ops(block)

    def _parse_block_ops(self, block: Block) -> None:
        toks = self.toks
        append = block.append
        parse_op = self._parse_op
        custom_line = self._parse_custom_line
        while True:
            tok = toks[self.i]
            c = tok[:1]
            if c == "\n" and '"' not in tok:  # `_parse_op`'s first case, without its call
                toks[self.i] = "\n"
                append(custom_line(tok))
            elif tok == "}" or c == "^" or tok == EOF:
                return
            else:
                append(parse_op())

    def _add_block_argument(self, block: Block, arg: Argument, what: str) -> BlockArgument:
        if arg.type is None:
            raise self.error("expected a type for the block argument", arg.pos)
        loc = arg.loc if arg.loc is not None else self.location_at(arg.pos)
        value = block.add_argument(arg.type, loc)
        if arg.name:
            if what == "region entry argument":
                # A name used above (defined, or a forward reference, as in MLIR) is in use.
                prior = self.values.get(arg.name) or self.fwd.get(arg.name)
                if prior is not None:
                    msg = f"region entry argument '{arg.name}' is already in use"
                    err = self.error(msg, arg.pos)
                    raise self._note_value(err, prior, "previously referenced here")
            self._define(arg.name, value, arg.pos)
        return value

    def _parse_block_label(self) -> Block:
        tok = self.toks[self.i]
        pos = self.pos()
        block = self.blocks.get(tok)
        if block is None:
            block = self.blocks[tok] = Block()
        elif block in self.fwd_blocks:
            del self.fwd_blocks[block]
        else:
            raise self.error(f"redefinition of block '{tok}'", pos)
        self.i += 1
        if self.toks[self.i] == "(":
            for arg in self.parse_argument_list("paren", allow_type=True):
                self._add_block_argument(block, arg, "block argument")
        self.expect(":", "expected ':' after block name")
        return block

    def _parse_successor_list(self) -> list[Block]:
        self.i += 1
        succs = []
        while True:
            succs.append(self.parse_successor())
            tok = self.toks[self.i]
            self.i += 1
            if tok == "]":
                return succs
            if tok != ",":
                self.i -= 1
                raise self.expected("expected ']' to end successor list")

    # -- OpAsmParser: punctuation, keywords, literals -------------------------------------------

    def parse_punct(self, p: str) -> None:
        """One of `( ) [ ] { } < > , : = -> ? * + - | ... ::`."""
        if self.toks[self.i] != p:
            raise self.expected(f"expected '{p}'")
        self.i += 1

    def parse_optional_punct(self, p: str) -> bool:
        if self.toks[self.i] != p:
            return False
        self.i += 1
        return True

    def parse_keyword(self, kw: str | None = None) -> str:
        """A bare identifier (exactly `kw` when given)."""
        tok = self.toks[self.i]
        if (tok != kw) if kw is not None else not _is_bare_id(tok):
            raise self.expected(f"expected '{kw}'" if kw is not None else "expected keyword")
        self.i += 1
        return tok

    def parse_optional_keyword(self, kw: str | None = None) -> str | None:
        tok = self.toks[self.i]
        if (tok != kw) if kw is not None else not _is_bare_id(tok):
            return None
        self.i += 1
        return tok

    def parse_optional_keyword_in(self, kws: Sequence[str] | frozenset[str]) -> str | None:
        tok = self.toks[self.i]
        if tok not in kws or not _is_bare_id(tok):
            return None
        self.i += 1
        return tok

    def parse_integer(self) -> int:
        """A decimal or hexadecimal integer with an optional `-`."""
        value = self.parse_optional_integer()
        if value is None:
            raise self.expected("expected integer value")
        return value

    def parse_optional_integer(self) -> int | None:
        toks = self.toks
        neg = toks[self.i] == "-"
        tok = toks[self.i + neg]
        if not tok[:1].isdigit() or "." in tok:
            return None
        self.i += neg + 1
        value = int(tok, 16) if tok[1:2] == "x" else int(tok)
        return -value if neg else value

    def parse_float(self) -> float:
        """A float literal or integer, with an optional `-`."""
        toks = self.toks
        neg = toks[self.i] == "-"
        tok = toks[self.i + neg]
        if not tok[:1].isdigit():
            self.i += neg
            raise self.expected("expected floating point literal")
        self.i += neg + 1
        if tok[1:2] == "x":  # the bits of an f64, as MLIR's parseFloat
            bits = float_from_bits(int(tok, 16), A.f64)
            if bits is None or neg:
                raise self.error("invalid hexadecimal float literal")
            return bits
        value = float(tok)
        return -value if neg else value

    def parse_string(self) -> str:
        """A string literal with escapes decoded (bytes when not valid UTF-8)."""
        value = self.parse_optional_string()
        if value is None:
            raise self.expected("expected string")
        return value

    def parse_optional_string(self) -> str | None:
        tok = self.toks[self.i]
        if tok[:1] != '"':
            return None
        value = self.string_value(tok)
        self.i += 1
        return value  # type: ignore[return-value]

    # -- OpAsmParser: operands ------------------------------------------------------------------

    def parse_operand(self) -> UnresolvedOperand:
        """`%name` or `%name#3`."""
        tok = self.toks[self.i]
        if tok[:1] != "%":
            raise self.expected("expected SSA operand")
        pos = self.starts[self.i]
        self.i += 1
        if "#" in tok:
            name, _, num = tok.partition("#")
            return _tuple_new(UnresolvedOperand, (name, int(num), pos))
        return _tuple_new(UnresolvedOperand, (tok, 0, pos))

    def parse_optional_operand(self) -> UnresolvedOperand | None:
        if self.toks[self.i][:1] != "%":
            return None
        return self.parse_operand()

    def parse_operand_list(self, delimiter: str = "none") -> list[UnresolvedOperand]:
        """Comma-separated operands; with `none`, possibly empty."""
        operands: list[UnresolvedOperand] = []
        if delimiter == "none":
            if self.toks[self.i][:1] == "%":
                operands.append(self.parse_operand())
                while self.toks[self.i] == ",":
                    self.i += 1
                    operands.append(self.parse_operand())
            return operands

        def one() -> None:
            operands.append(self.parse_operand())

        self.parse_comma_separated_list(delimiter, one)
        return operands

    def resolve_operand(self, u: UnresolvedOperand, type: A.Type) -> Value:  # noqa: A002
        """The value of an operand use with its type (forward references allowed)."""
        name, num, pos = u
        if num == 0:
            try:
                v = self.values[name]
            except KeyError:
                return self._resolve_key(name, type, pos)
            if v.type is type:
                return v
            return self._resolve_key(name, type, pos)
        return self._resolve_key(f"{name}#{num}", type, pos)

    def resolve_operands(
        self, us: Sequence[UnresolvedOperand], types: Sequence[A.Type], pos: int | None = None
    ) -> list[Value]:
        """Resolve `us` with `types`; the counts must match."""
        if len(us) != len(types):
            where = pos if pos is not None else (us[0][2] if us else None)
            raise self.error(f"{len(us)} operands present, but expected {len(types)}", where)
        resolve = self.resolve_operand
        return [resolve(u, t) for u, t in zip(us, types, strict=True)]

    # -- OpAsmParser: types ---------------------------------------------------------------------

    def parse_colon_type(self) -> A.Type:
        """`: type`."""
        if self.toks[self.i] != ":":
            raise self.expected("expected ':'")
        self.i += 1
        t = self._type_cache.get(self.toks[self.i])
        if t is not None:
            self.i += 1
            return t
        return self.parse_type()

    def parse_type_list(self) -> list[A.Type]:
        """Comma-separated types, at least one, no delimiters."""
        types = [self.parse_type()]
        while self.toks[self.i] == ",":
            self.i += 1
            types.append(self.parse_type())
        return types

    def parse_colon_type_list(self) -> list[A.Type]:
        if self.toks[self.i] != ":":
            raise self.expected("expected ':'")
        self.i += 1
        return self.parse_type_list()

    def parse_arrow_type_list(self) -> list[A.Type]:
        """`-> t` or `-> (t1, t2)`."""
        if self.toks[self.i] != "->":
            raise self.expected("expected '->'")
        self.i += 1
        return self._parse_function_results()

    def parse_optional_arrow_type_list(self) -> list[A.Type] | None:
        if self.toks[self.i] != "->":
            return None
        return self.parse_arrow_type_list()

    # -- OpAsmParser: attributes ----------------------------------------------------------------

    def parse_optional_attr_dict(self, attrs: dict[str, A.Attribute]) -> None:
        """`{...}` merged into `attrs`, if present."""
        if self.toks[self.i] == "{":
            self.parse_attr_dict_into(attrs)

    def parse_optional_attr_dict_with_keyword(self, attrs: dict[str, A.Attribute]) -> None:
        """`attributes {...}` merged into `attrs`, if present."""
        if self.toks[self.i] == "attributes":
            self.i += 1
            if self.toks[self.i] != "{":
                raise self.expected("expected '{' in attribute dictionary")
            self.parse_attr_dict_into(attrs)

    def parse_optional_prop_dict(self, attrs: dict[str, A.Attribute]) -> None:
        """`<{...}>` merged into `attrs`, if present."""
        if self.toks[self.i] == "<" and self.toks[self.i + 1] == "{":
            attrs.update(self._parse_generic_props())

    # -- OpAsmParser: block arguments, regions, successors --------------------------------------

    def parse_argument(self, allow_type: bool = True, allow_attrs: bool = False) -> Argument:
        """A block argument being defined: `%x: type {attrs} loc(...)`."""
        tok = self.toks[self.i]
        if tok[:1] != "%" or "#" in tok:
            raise self.expected("expected SSA identifier")
        pos = self.pos()
        self.i += 1
        arg = Argument(tok, None, None, None, pos)
        if allow_type:
            arg.type = self.parse_colon_type()
        if allow_attrs and self.toks[self.i] == "{":
            attrs: dict[str, A.Attribute] = {}
            self.parse_attr_dict_into(attrs)
            arg.attrs = attrs
        if self.toks[self.i] == "loc":
            arg.loc = self.parse_optional_location()
        return arg

    def parse_optional_argument(
        self, allow_type: bool = True, allow_attrs: bool = False
    ) -> Argument | None:  # noqa: E501
        if self.toks[self.i][:1] != "%":
            return None
        return self.parse_argument(allow_type, allow_attrs)

    def parse_argument_list(
        self, delimiter: str = "paren", allow_type: bool = True, allow_attrs: bool = False
    ) -> list[Argument]:
        args: list[Argument] = []

        def one() -> None:
            args.append(self.parse_argument(allow_type, allow_attrs))

        if delimiter == "none":
            if self.toks[self.i][:1] == "%":
                one()
                while self.toks[self.i] == ",":
                    self.i += 1
                    one()
            return args
        self.parse_comma_separated_list(delimiter, one)
        return args

    def parse_successor(self) -> Block:
        """`^bb1` (a forward reference creates the block)."""
        tok = self.toks[self.i]
        if tok[:1] != "^":
            raise self.expected("expected block name")
        block = self.blocks.get(tok)
        if block is None:
            block = self.blocks[tok] = Block()
            self.fwd_blocks[block] = self.starts[self.i]
        self.i += 1
        return block

    def parse_optional_successor(self) -> Block | None:
        if self.toks[self.i][:1] != "^":
            return None
        return self.parse_successor()

    def parse_successor_and_use_list(self) -> tuple[Block, list[Value]]:
        """`^bb1` or `^bb1(%a, %b : i32, f32)`."""
        block = self.parse_successor()
        values: list[Value] = []
        if self.toks[self.i] == "(":
            self.i += 1
            pos = self.pos()
            operands = self.parse_operand_list()
            types = self.parse_colon_type_list() if operands else []
            self.expect(")", "expected ')' to close argument list")
            values = self.resolve_operands(operands, types, pos)
        return block, values

    def ensure_terminator(self, region: Region, builder_fn: Callable[[], Operation]) -> None:
        """Append `builder_fn()` to a single-block region whose terminator was elided."""
        ensure_terminator(region, builder_fn)

    # -- OpAsmParser: lists and raw text --------------------------------------------------------

    def parse_comma_separated_list(self, delimiter: str, fn: Callable[[], Any]) -> bool:
        """Call `fn` per element; False when an `optional_*` delimiter is absent."""
        optional = delimiter.startswith("optional_")
        kind = delimiter[9:] if optional else delimiter
        if kind == "none":
            fn()
            while self.toks[self.i] == ",":
                self.i += 1
                fn()
            return True
        open_, close = _DELIMITERS[kind]
        if self.toks[self.i] != open_:
            if optional:
                return False
            raise self.expected(f"expected '{open_}'")
        self.i += 1
        if self.toks[self.i] == close:
            self.i += 1
            return True
        while True:
            fn()
            tok = self.toks[self.i]
            self.i += 1
            if tok == close:
                return True
            if tok != ",":
                self.i -= 1
                raise self.expected(f"expected ',' or '{close}'")

    def parse_affine_map_of_ssa_ids(
        self, delimiter: str = "["
    ) -> tuple[affine.AffineMap, list[UnresolvedOperand], list[UnresolvedOperand]]:
        """`[%i + 1, symbol(%n)]` (or `(...)`, or `""`: one bare expression), as affine.load
        writes subscripts: the map and the operands bound to its dims and symbols."""
        pos = self.pos()
        try:
            amap, dims, syms, end = affine.parse_affine_map_of_ssa_ids(self.text, pos, delimiter)
        except affine.AffineParseError as e:
            raise self.error(e.message, e.position) from None
        self.seek(end)

        def operand(name: str) -> UnresolvedOperand:
            base, _, num = name.partition("#")
            return _tuple_new(UnresolvedOperand, (base, int(num or 0), pos))

        return amap, [operand(d) for d in dims], [operand(s) for s in syms]


def ensure_terminator(region: Region, builder_fn: Callable[[], Operation]) -> None:
    """Give a region with an elided terminator its block and terminator (`builder_fn()`)."""
    if not region.blocks:
        region.add_block(Block())
    block = region.blocks[-1]
    if block.last is None or not block.last._is_terminator:
        block.append(builder_fn())


# ---------------------------------------------------------------------------------------------
# Entry points


def _run(make: Callable[[], Parser], fn: Callable[[Parser], Any]) -> Any:
    """Build a parser and run `fn` on it with the cyclic GC paused (parsing allocates many
    long-lived objects, and GC passes over a growing heap make it quadratic). Only ParseError
    escapes, whatever the input."""
    gc_enabled = gc.isenabled()
    gc.disable()
    parser = None
    try:
        parser = make()
        return fn(parser)
    except ParseError:
        raise
    except RecursionError:
        if parser is None:
            raise
        raise parser.error("nesting too deep") from None
    except ValueError as e:  # invalid parameters refused by a type/attribute constructor
        if parser is None:
            raise
        raise parser.error(str(e)) from e
    except Exception as e:  # noqa: BLE001 - never a traceback for bad input
        if parser is None:
            raise
        raise parser.error(f"internal error while parsing: {type(e).__name__}: {e}") from e
    finally:
        if gc_enabled:
            gc.enable()


def parse_module(
    text: str,
    *,
    filename: str = "<stdin>",
    allow_unregistered: bool = False,
    implicit_module: bool = True,
    ctx: Context | None = None,
    line_offset: int = 0,
) -> Operation:
    """Parse MLIR text into its top-level `builtin.module` (implicit around bare top-level ops).

    `line_offset` is added to every reported line (for a chunk of a split input file).
    Raises `mlc.ParseError` with a located diagnostic on bad input.
    """
    register_source(filename, "\n" * line_offset + text if line_offset else text)
    made: list[Parser] = []

    def make(line_ops: bool = True) -> Parser:
        parser = Parser(
            text,
            filename=filename,
            ctx=ctx,
            allow_unregistered=allow_unregistered,
            line_offset=line_offset,
            line_ops=line_ops,
        )
        made.append(parser)
        return parser

    def parse(p: Parser) -> Operation:
        return p.parse_top_level(implicit_module)

    # Line op tokens once the process parses enough text for their pattern to pay off.
    line_ops = want_line_ops(text)
    try:
        return _run(lambda: make(line_ops), parse)
    except ParseError:
        # Line op tokens are read where an op starts; anywhere else they are an error the
        # plain tokens may not be. Bad input is rare: the plain lexer decides it.
        if not made or not any(tok[:1] == "\n" for tok in made[0].toks):
            raise
    return _run(lambda: make(False), parse)


def _parse_whole(
    text: str,
    fn: Callable[[Parser], Any],
    what: str,
    ctx: Context | None,
    allow_unregistered: bool,
    filename: str,
) -> Any:
    register_source(filename, text)

    def make() -> Parser:
        return Parser(text, filename=filename, ctx=ctx, allow_unregistered=allow_unregistered)

    def run(parser: Parser) -> Any:
        result = fn(parser)
        if parser.toks[parser.i] != EOF:
            raise parser.error(f"unexpected text after {what}")
        return result

    return _run(make, run)


def parse_attribute(
    text: str,
    *,
    ctx: Context | None = None,
    allow_unregistered: bool = True,
    filename: str = "<string>",
) -> A.Attribute:
    """Parse one attribute (the whole text), e.g. `dense<1.0> : tensor<4xf32>`."""
    return _parse_whole(
        text, Parser.parse_attribute, "attribute", ctx, allow_unregistered, filename
    )


def parse_type(
    text: str,
    *,
    ctx: Context | None = None,
    allow_unregistered: bool = True,
    filename: str = "<string>",
) -> A.Type:
    """Parse one type (the whole text), e.g. `memref<4x?xf32, strided<[?, 1]>>`."""
    return _parse_whole(text, Parser.parse_type, "type", ctx, allow_unregistered, filename)
