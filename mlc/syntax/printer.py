"""The textual IR printer: ops in MLIR's generic and custom forms, types, attributes, locations.

`print_op` prints like `mlir-opt` (SSA numbering, `#map`/`#set`/`#loc` aliases, the generic,
debug-info and local-scope variants); `Printer` is the OpAsmPrinter of docs/internals.md that
custom `print_asm` hooks and generated declarative formats write through.

Op-class hooks read here (all optional): `print_asm(self, printer)`; `default_dialect`;
`get_asm_result_names(self, set_name)` and `get_asm_block_argument_names(self, region,
set_name)`, which call `set_name(value, "name")` to print `%name` instead of a number (MLIR's
OpAsmOpInterface: names are sanitized and uniqued as `%name_0`, `%name_1`, ...; custom form only).
"""

from __future__ import annotations

import gc
import re
import threading
from collections import deque
from itertools import repeat
from operator import attrgetter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from mlc.ir import attributes as A
from mlc.ir.attributes import DYNAMIC, Attribute, Location, Type
from mlc.ir.core import UNNAMED, Block, BlockArgument, Operation, OpResult, Region, Value
from mlc.syntax.floats import float_to_bits, format_float, round_to_kind

__all__ = ["Printer", "print_op", "attr_to_str", "escape_string", "keyword_or_string"]

UNKNOWN_VALUE = UNNAMED
UNKNOWN_BLOCK = "<<UNKNOWN BLOCK>>"
_VALUE = attrgetter("value")
_VALUE_TYPE = attrgetter("value.type")
_TYPE = attrgetter("type")
_CHUNK = range(256)
"""Ops printed between joins of the output pieces in a block's custom-form loop."""
_MEMO_LIMIT = 4096
"""Entries kept per print session in each memo of generic-form pieces."""
HEX_THRESHOLD = 100
"""Dense elements attributes with more elements than this (and not a splat) print as hex."""

# ---------------------------------------------------------------------------------------------
# Small text helpers


def _escape_table() -> list[str]:
    table = [f"\\{b:02X}" for b in range(256)]
    for b in range(0x20, 0x7F):
        table[b] = chr(b)
    table[ord('"')] = "\\22"
    table[ord("\\")] = "\\\\"
    return table


_ESCAPE = _escape_table()


def escape_string(s: str | bytes) -> str:
    """`"text"` with MLIR's escapes: `\\\\`, and `\\XX` hex for `"` and non-printable bytes."""
    if type(s) is str:
        if s.isascii() and s.isprintable() and '"' not in s and "\\" not in s:
            return '"' + s + '"'
        s = s.encode("utf-8", "surrogateescape")
    table = _ESCAPE
    return '"' + "".join([table[b] for b in s]) + '"'


_BARE_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")
_KEYWORDS: dict[str, str] = {}


def keyword_or_string(s: str | bytes) -> str:
    """`s` itself when it is a bare identifier, else the quoted string (MLIR's rule for keys).
    Bytes (a string literal that is not UTF-8, e.g. a symbol name) are always quoted."""
    text = _KEYWORDS.get(s)  # type: ignore[arg-type]
    if text is None:
        text = s if type(s) is str and _BARE_ID.fullmatch(s) else escape_string(s)
        if len(_KEYWORDS) < 65536:
            _KEYWORDS[s] = text  # type: ignore[index]
    return text


def _int_value(value: int, t: Type) -> int:
    """The value as MLIR prints it: two's complement in the type's width, signed unless ui."""
    tt = type(t)
    if tt is A.IntegerType:
        w = t.width  # type: ignore[attr-defined]
        if w == 0:
            return 0
        if t.signedness == A.UNSIGNED:  # type: ignore[attr-defined]
            return value & ((1 << w) - 1)
        half = 1 << (w - 1)
        return ((value + half) & ((1 << w) - 1)) - half
    if tt is A.IndexType:
        return ((value + (1 << 63)) & ((1 << 64) - 1)) - (1 << 63)
    return value


def _dims(shape: Sequence[int]) -> str:
    return "".join(["?x" if d == DYNAMIC else f"{d}x" for d in shape])


class _Cache(dict):
    """A dict computing missing entries with `fn` (lookups of present keys stay in C)."""

    __slots__ = ("fn",)

    def __init__(self, fn: Callable[[Any], Any]) -> None:
        super().__init__()
        self.fn = fn

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self.fn(key)
        return value


class _Names(dict):
    """SSA names by value; a value not numbered in the printed scope prints as MLIR's marker."""

    __slots__ = ()

    def __missing__(self, key: Any) -> str:
        return UNKNOWN_VALUE


class _SlotNames:
    """SSA names kept on the values (`Value._name`), read through the same `names[value]`
    as `_Names`: subscripting is a C-level read of the slot (`__getitem__` is an attrgetter,
    called without `self`: it is not a descriptor). A value the session did not name holds
    UNNAMED (UNKNOWN_VALUE).

    A 100k-entry dict keyed by value costs a random access to its index table, one to its
    entry and one to the string per operand printed; the slot costs the value and the
    string. An empty dict subclass falling to `__missing__` (the earlier form) hashes the
    value and probes the table first: about 120 ns per lookup against 70. `print_op` uses it
    for one session at a time and resets the names after."""

    __slots__ = ()

    __getitem__ = attrgetter("_name")


# One print session at a time names values in their slots; a nested or concurrent one (a
# print hook printing, another thread) uses a `_Names` dict.
_SLOT_SESSION = threading.Lock()


def _asm_hook(cls: type) -> Any:
    return getattr(cls, "print_asm", None)


def _result_names_hook(cls: type) -> Any:
    return getattr(cls, "get_asm_result_names", None)


def _arg_names_hook(cls: type) -> Any:
    return getattr(cls, "get_asm_block_argument_names", None)


_ASM_HOOKS = _Cache(_asm_hook)
_RESULT_NAME_HOOKS = _Cache(_result_names_hook)
_ARG_NAME_HOOKS = _Cache(_arg_names_hook)


_DEFAULT_DIALECTS: dict[type, str] = {}
"""`default_dialect_of` by registered op class."""


def default_dialect_of(op: Operation | None) -> str:
    """The dialect whose prefix may be dropped from op names inside `op`'s regions."""
    if op is None:
        return ""
    name = getattr(type(op), "default_dialect", None)
    if name is None:
        return "builtin" if op.name == "builtin.module" else ""
    return name


# ---------------------------------------------------------------------------------------------
# SSA numbering (MLIR's SSANameState)

_PERCENT: list[str] = []
"""`%0`, `%1`, ...: the names of numbered values, made once and shared by print sessions (a
session assigns them to values and the reset frees nothing: no int-to-text, allocation or
deallocation per printed op). About 70 bytes per entry, as large as the largest block printed."""
_PERCENT_LIMIT = 1 << 20
"""The shared table stops growing here; numbers past it are made per use."""


_ARG_NAMES = [f"arg{i}" for i in range(64)]


def _percent_names(n: int) -> list[str]:
    """The shared table, grown to at least `n` names (up to its limit). A grown table is a new
    list (a session still reading the old one sees a correct prefix; threads may race)."""
    global _PERCENT
    table = _PERCENT
    have = len(table)
    if have < n and have < _PERCENT_LIMIT:
        grown = min(max(n, 2 * have, 1024), _PERCENT_LIMIT)
        table = _PERCENT = table + [f"%{i}" for i in range(have, grown)]
    return table


class _Scope:
    __slots__ = ("used", "parent")

    def __init__(self, parent: _Scope | None) -> None:
        self.used: set[str] = set()
        self.parent = parent

    def contains(self, name: str) -> bool:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.used:
                return True
            scope = scope.parent
        return False


_INVALID_NAME_CHAR = re.compile(r"[^A-Za-z0-9$._\-]")


def _sanitize(name: str) -> str:
    if name and not name[0].isdigit() and not _INVALID_NAME_CHAR.search(name):
        return name

    def fix(m: re.Match[str]) -> str:
        c = m.group(0)
        return "_" if c == " " else c.encode("utf-8").hex().upper()

    fixed = _INVALID_NAME_CHAR.sub(fix, name)
    return "_" + fixed if not name or name[0].isdigit() else fixed


class _Namer:
    """Assigns `%N`, `%argN`, `%name` and `^bbN` exactly as MLIR does.

    Regions are numbered from a stack (last pushed first). In the custom form, every region
    restarts from the counters reached at the end of its parent region, so sibling regions
    reuse numbers; the generic form never resets (MLIR prints unique ids there).
    """

    __slots__ = (
        "names",
        "slots",
        "heads",
        "blocks",
        "unique",
        "custom",
        "nv",
        "na",
        "nc",
        "scope",
        "_groups",
        "named",
        "pending",
    )

    def __init__(
        self,
        names: _Names | _SlotNames,
        heads: dict,
        blocks: dict,
        generic: bool,
        named: list[Value] | None = None,
    ) -> None:
        self.names = names
        self.slots = type(names) is _SlotNames
        # With slot names: every value whose slot this session set, in order (the reset
        # after the session goes through this list instead of walking the IR again).
        self.named: list[Value] = [] if named is None else named
        self.heads = heads
        self.blocks = blocks
        self.unique = generic
        self.custom = not generic
        self.nv = self.na = self.nc = 0
        self.scope = _Scope(None)
        self._groups: list[int] = []
        # Lazy numbering (see `start`): region -> (nv, na, nc, scope, prepared) to number from.
        self.pending: dict[Region, tuple] = {}

    def run(self, root: Operation) -> None:
        top = self.scope
        stack = [(r, 0, 0, 0, top) for r in root.regions]
        self._number_op_results(root)
        while stack:
            region, nv, na, nc, parent = stack.pop()
            if not self.unique:
                self.nv, self.na, self.nc = nv, na, nc
            self.scope = scope = _Scope(parent)
            nested = self._number_region(region)
            state = (self.nv, self.na, self.nc, scope)
            stack.extend([(r, *state) for r in nested])

    def unique_name(self, name: str) -> str:
        return self._unique(_sanitize(name))

    def _unique(self, name: str) -> str:
        """`name` (already valid), suffixed with `_N` if an enclosing scope uses it."""
        scope = self.scope
        s: _Scope | None = scope
        while s is not None:
            if name in s.used:
                break
            s = s.parent
        else:
            scope.used.add(name)
            return name
        while True:
            probe = f"{name}_{self.nc}"
            self.nc += 1
            if not scope.contains(probe):
                break
        scope.used.add(probe)
        return probe

    def _put(self, value: Value, text: str) -> None:
        if self.slots:
            value._name = text
            self.named.append(value)
        else:
            self.names[value] = text

    def _named(self, value: Value) -> bool:
        if self.slots:
            return value._name is not UNNAMED
        return value in self.names

    def _set_name(self, value: Value, name: str) -> None:
        if not name:
            self._put(value, f"%{self.nv}")
            self.nv += 1
        else:
            self._put(value, "%" + self.unique_name(name))
        if type(value) is OpResult and value.index:
            self._groups.append(value.index)

    def _number_region(self, region: Region) -> list[Region]:
        self._region_head(region)
        nested: list[Region] = []
        for index, block in enumerate(region.blocks):
            self._number_args(block, index)
            self._number_ops(block.first, nested)
        return nested

    def _region_head(self, region: Region) -> None:
        """What numbering a region starts with: the block labels and the parent's arg hook."""
        blocks = self.blocks
        for index, block in enumerate(region.blocks):
            blocks[block] = f"^bb{index}"
        if self.custom and region.parent is not None:
            hook = _ARG_NAME_HOOKS[type(region.parent)]
            if hook is not None:
                hook(region.parent, region, self._set_name)

    def _number_args(self, block: Block, index: int) -> None:
        args = block.arguments
        if not args:
            return
        if index == 0 and self.slots:
            # `%argN`, inline: unique unless an enclosing scope used the name (hook names).
            scope = self.scope
            record = self.named.append
            for arg in args:
                if arg._name is not UNNAMED:
                    continue
                na = self.na
                name = _ARG_NAMES[na] if na < 64 else f"arg{na}"
                s: _Scope | None = scope
                while s is not None:
                    if name in s.used:
                        arg._name = "%" + self._unique(name)
                        break
                    s = s.parent
                else:
                    scope.used.add(name)
                    arg._name = "%" + name
                record(arg)
                self.na = na + 1
            return
        for arg in args:
            if self._named(arg):
                continue
            if index == 0:
                self._put(arg, "%" + self._unique(f"arg{self.na}"))
                self.na += 1
            else:
                self._put(arg, f"%{self.nv}")
                self.nv += 1

    def _number_ops(self, op: Operation | None, nested: list[Region]) -> None:
        """Number the results of `op` and the ops after it in its block; collect their regions."""
        if op is None:
            return
        names = self.names
        custom = self.custom
        slots = self.slots
        record = self.named.append
        nv = self.nv
        hooks = _RESULT_NAME_HOOKS
        pct = _percent_names(nv + op.parent._len) if op.parent is not None else _PERCENT
        while op is not None:
            res = op.results
            if res:
                r0 = res[0]
                if (custom and hooks[type(op)] is not None) or res[-1] is not r0:
                    self.nv = nv
                    self._number_op_results(op)
                    nv = self.nv
                else:
                    try:
                        text = pct[nv]
                    except IndexError:  # past the table's limit (or a hook took numbers)
                        text = f"%{nv}"
                    if slots:
                        r0._name = text
                        record(r0)
                    else:
                        names[r0] = text
                    nv += 1
            if op.regions:
                nested.extend(op.regions)
            op = op.next
        self.nv = nv

    # -- lazy numbering: the custom form's print numbers a region's ops as it prints them ------
    #
    # A region's numbering starts from its parent region's final counters (custom form), so
    # a region is numbered in print order until an op with regions comes: then the rest of
    # it is numbered at once (`finish`) and the nested regions wait, with those counters, in
    # `pending` until printed. At 100k ops in a block this touches each op, its results and
    # their names once instead of in a numbering pass and again when printing. A name read
    # before its value is numbered (a forward reference) prints as the UNNAMED marker, and
    # `print_op` prints again with the numbering done first.

    def start(self, root: Operation) -> None:
        """Lazy numbering: `root`'s results now, its regions when printed."""
        self._number_op_results(root)
        state = (0, 0, 0, self.scope, False)
        for r in root.regions:
            self.pending[r] = state
        for r in root.regions:
            self.prepare(r)

    def prepare(self, region: Region) -> None:
        """Before `region`'s op prints: its labels, arg hook and entry block arguments (custom
        hooks print them in signatures before the region)."""
        pending = self.pending
        state = pending.get(region)
        if state is not None and not state[4]:
            pending[region] = self._prepared(region, state)

    def _prepared(self, region: Region, state: tuple) -> tuple:
        self.nv, self.na, self.nc, parent, _ = state
        self.scope = _Scope(parent)
        self._region_head(region)
        blocks = region.blocks
        if blocks:
            self._number_args(blocks[0], 0)
        return (self.nv, self.na, self.nc, self.scope, True)

    def begin(self, region: Region) -> bool:
        """Set the counters for printing pending `region` (False: already numbered)."""
        state = self.pending.pop(region, None)
        if state is None:
            return False
        if not state[4]:
            state = self._prepared(region, state)
        self.nv, self.na, self.nc, self.scope, _ = state
        return True

    def finish(self, block: Block, op: Operation | None) -> None:
        """Number `op` and the rest of the region from it (at self.nv); its nested regions
        become pending with the region's final counters."""
        nested: list[Region] = []
        self._number_ops(op, nested)
        region = block.parent
        if region is not None:
            blocks = region.blocks
            index = next((i for i, b in enumerate(blocks) if b is block), len(blocks))
            for i in range(index + 1, len(blocks)):
                self._number_args(blocks[i], i)
                self._number_ops(blocks[i].first, nested)
        state = (self.nv, self.na, self.nc, self.scope, False)
        pending = self.pending
        for r in nested:
            pending[r] = state

    def _number_op_results(self, op: Operation) -> None:
        res = op.results
        self._groups = groups = [0]
        if self.custom:
            hook = _RESULT_NAME_HOOKS[type(op)]
            if hook is not None:
                hook(op, self._set_name)
        if not res:
            return
        names = self.names
        if not self._named(res[0]):
            self._put(res[0], f"%{self.nv}")
            self.nv += 1
        if len(res) == 1:
            return
        starts = sorted(set(groups))
        bounds = [*starts, len(res)]
        heads = []
        for start, end in zip(bounds, bounds[1:], strict=False):
            base = names[res[start]]
            if end - start > 1:
                heads.append(f"{base}:{end - start}")
                for k in range(start, end):
                    self._put(res[k], f"{base}#{k - start}")
            else:
                heads.append(base)
        self.heads[op] = ", ".join(heads)


# ---------------------------------------------------------------------------------------------
# The printer

_LOC_TYPES = (A.UnknownLoc, A.FileLineColLoc, A.NameLoc, A.CallSiteLoc, A.FusedLoc)
_ALIAS_NAMES: dict[type, str] = {A.AffineMapAttr: "map", A.IntegerSetAttr: "set"}
_ALIAS_NAMES.update({t: "loc" for t in _LOC_TYPES})
_MARKER = re.compile("\x01(\\d+)([\x02\x03])")


class Printer:
    """MLIR's OpAsmPrinter: the methods custom `print_asm` hooks call (docs/internals.md).

    Text goes into `_out` (a list joined once). `_names` (value -> `%name`), `_tstr`
    (type -> text) and `_astr` (attribute -> text, aliases applied) are dicts that generated
    format code reads directly; missing entries are computed on first use and cached for the
    print session (types and attributes are uniqued, so keys are identities).
    """

    __slots__ = (
        "_out", "_names", "_heads", "_blocks", "_tstr", "_astr", "_indent", "_generic",
        "_debuginfo", "_aliasing", "_alias_recs", "_alias_roots", "_dialect", "_short", "_kinds",
        "_short_caches", "_preds", "_quoted", "_generic_attrs", "_signatures", "_kind_caches",
        "_namer",
    )  # fmt: skip

    def __init__(
        self,
        *,
        generic: bool = False,
        debuginfo: bool = False,
        aliases: bool = False,
        slot_names: bool = False,
    ) -> None:
        self._out: list[str] = []
        # `slot_names`: names on the values (see _SlotNames; the caller resets them after).
        self._names: _Names | _SlotNames = _SlotNames() if slot_names else _Names()
        # Multi-result heads (`%0:2`); a missing one (not numbered yet) prints the marker.
        self._heads: dict[Operation, str] = _Names()
        self._namer: _Namer | None = None  # set while numbering lazily (see _Namer.start)
        self._blocks: dict[Block, str] = {}
        self._tstr = _Cache(self._type_text)
        self._astr = _Cache(self._attr_entry)
        self._indent = 0
        self._generic = generic
        self._debuginfo = debuginfo
        self._aliasing = aliases
        self._alias_recs: list[list[Any]] = []  # [attribute, alias name, body text]
        self._alias_roots: set[int] = set()
        # The dialect whose prefix op names drop here (see `default_dialect_of`), and its
        # caches: op name -> short name, op class -> (hook, ` = name`, `name`).
        self._dialect = "builtin"
        self._short_caches: dict[str, _Cache] = {}
        self._short = self._short_cache("builtin")
        self._kind_caches: dict[str, _Cache] = {}
        self._kinds = self._kind_cache("builtin")
        self._preds: dict[Block, list[Block]] = {}
        # Generic-form pieces by what they depend on (attributes and types are uniqued):
        # the quoted op name, ` <{props}>` and the ` {attrs}` split, and ` : (ins) -> outs`.
        self._quoted = _Cache(escape_string)
        self._generic_attrs: dict[tuple, tuple[str, dict[str, Attribute] | None]] = {}
        self._signatures: dict[tuple, str] = {}

    # -- OpAsmPrinter ----------------------------------------------------------------------------

    def write(self, text: str) -> None:
        """Raw text."""
        self._out.append(text)

    def print_operand(self, value: Value) -> None:
        """`%name` (`%0#1` for a result of a multi-result op)."""
        self._out.append(self._names[value])

    def print_operands(self, values: Iterable[Value]) -> None:
        """Comma-separated `%names`."""
        self._out.append(", ".join(map(self._names.__getitem__, values)))

    def value_name(self, value: Value) -> str:
        """The `%name` this print session gives `value`."""
        return self._names[value]

    def print_type(self, t: Type) -> None:
        self._out.append(self._tstr[t])

    def print_types(self, types: Iterable[Type]) -> None:
        """Comma-separated types."""
        self._out.append(", ".join(map(self._tstr.__getitem__, types)))

    def print_attribute(self, attr: Attribute) -> None:
        """An attribute with its type suffix when it has one (`1 : i32`), aliases applied."""
        self._out.append(self._astr[attr])

    def print_attribute_without_type(self, attr: Attribute) -> None:
        """An attribute without its `: type` suffix (`1` for `1 : i32`)."""
        self._out.append(self._attr_notype(attr))

    def print_attr_dict(
        self, attrs: dict[str, Attribute] | None, elided: Iterable[str] = ()
    ) -> None:
        """` {a = 1 : i32, b}` (sorted by name), or nothing when empty after eliding."""
        if attrs:
            text = self._dict_entries(attrs, elided)
            if text:
                self._out.append(" {" + text + "}")

    print_optional_attr_dict = print_attr_dict

    def print_attr_dict_with_keyword(
        self, attrs: dict[str, Attribute] | None, elided: Iterable[str] = ()
    ) -> None:
        """` attributes {...}`, or nothing when empty after eliding."""
        if attrs:
            text = self._dict_entries(attrs, elided)
            if text:
                self._out.append(" attributes {" + text + "}")

    def print_op_attrs(self, op: Operation, elided: Iterable[str] = ()) -> None:
        """The op's attributes (inherent and discardable) minus `elided`, as an attr dict."""
        self.print_attr_dict(op._attrs, elided)

    def print_string(self, s: str | bytes) -> None:
        self._out.append(escape_string(s))

    def print_keyword_or_string(self, s: str) -> None:
        """`s` bare when it is an identifier, else quoted."""
        self._out.append(keyword_or_string(s))

    def print_symbol_name(self, name: str) -> None:
        """`@name` or `@"needs quotes"`."""
        self._out.append("@" + keyword_or_string(name))

    def _symbol_text(self, name: str) -> str:
        """What `print_symbol_name` writes."""
        return "@" + keyword_or_string(name)

    def print_integer(self, value: int) -> None:
        self._out.append(str(value))

    def print_float(self, value: float, t: Type = A.f64) -> None:
        """A float literal as MLIR prints it for type `t` (no type suffix)."""
        self._out.append(_float_text(value, t.kind)[0])  # type: ignore[attr-defined]

    def print_dimension_list(self, shape: Sequence[int]) -> None:
        """`4x?x8` (no trailing `x`)."""
        self._out.append("x".join(["?" if d == DYNAMIC else str(d) for d in shape]))

    def print_arrow_type_list(self, types: Sequence[Type]) -> None:
        """`-> t`, or `-> (t1, t2)` / `-> ()` (no leading space)."""
        self._out.append("-> " + self._results_text(types))

    def print_optional_arrow_type_list(self, types: Sequence[Type]) -> None:
        """` -> t` (with a leading space) unless `types` is empty."""
        if types:
            self._out.append(" -> " + self._results_text(types))

    def print_function_type(self, ft: A.FunctionType | Any) -> None:
        """`(a, b) -> c`."""
        self._out.append(self._tstr[ft] if type(ft) is A.FunctionType else self._functional(ft))

    def print_functional_type(self, inputs: Sequence[Type], results: Sequence[Type]) -> None:
        """`(a, b) -> c` from two type lists."""
        tstr = self._tstr
        self._out.append(
            "(" + ", ".join(map(tstr.__getitem__, inputs)) + ") -> " + self._results_text(results)
        )

    def print_successor(self, block: Block) -> None:
        self._out.append(self._blocks.get(block, UNKNOWN_BLOCK))

    def print_successor_and_use_list(self, block: Block, values: Sequence[Value]) -> None:
        """`^bb1` or `^bb1(%0, %1 : i32, f32)`."""
        text = self._blocks.get(block, UNKNOWN_BLOCK)
        if values:
            names, tstr = self._names, self._tstr
            text += (
                "(" + ", ".join([names[v] for v in values]) + " : "
                + ", ".join([tstr[v.type] for v in values]) + ")"
            )  # fmt: skip
        self._out.append(text)

    def print_block_argument(self, arg: BlockArgument, with_type: bool = True) -> None:
        """`%arg0: i32` (plus ` loc(...)` when printing debug info)."""
        self.print_region_argument(arg, None, omit_type=not with_type)

    def print_region_argument(
        self, arg: BlockArgument, attrs: dict[str, Attribute] | None = None, omit_type: bool = False
    ) -> None:
        """`%arg0: i32 {attrs} loc(...)`: a region argument as function-like ops print it."""
        text = self._names[arg]
        if not omit_type:
            text += ": " + self._tstr[arg.type]
        self._out.append(text)
        if attrs:
            self.print_attr_dict(attrs)
        if self._debuginfo:
            self._out.append(self._arg_loc(arg))

    def print_optional_location(self, loc: Location | None) -> None:
        """` loc(...)` when printing debug info, else nothing."""
        if self._debuginfo and loc is not None:
            self._out.append(self._op_loc(loc))

    def print_new_line(self) -> None:
        self._out.append("\n" + " " * self._indent)

    def increase_indent(self) -> None:
        self._indent += 2

    def decrease_indent(self) -> None:
        self._indent -= 2

    def print_region(
        self,
        region: Region,
        print_entry_block_args: bool = True,
        print_empty_block: bool = False,
        print_block_terminators: bool = True,
    ) -> None:
        """` {` newline, the blocks indented, `}` (the leading space is the caller's)."""
        out = self._out
        out.append("{")
        blocks = region.blocks
        if blocks:
            parent = region.parent
            cls = type(parent)
            dialect = _DEFAULT_DIALECTS.get(cls)
            if dialect is None:
                dialect = default_dialect_of(parent)
                if getattr(cls, "_is_registered", False):  # a class-level name
                    _DEFAULT_DIALECTS[cls] = dialect
            outer = self._dialect
            if dialect != outer:
                outer_short, outer_kinds = self._short, self._kinds
                self._set_dialect(dialect)
            entry = blocks[0]
            header = (print_empty_block and entry.first is None) or (
                print_entry_block_args and bool(entry.arguments)
            )
            if len(blocks) > 1:
                self._collect_preds(region)
            namer = self._namer
            jit = namer is not None and namer.begin(region)
            jit = self._print_block(entry, header, print_block_terminators, jit, 0)
            for index in range(1, len(blocks)):
                jit = self._print_block(blocks[index], True, True, jit, index)
            if dialect != outer:
                self._dialect, self._short, self._kinds = outer, outer_short, outer_kinds
        out.append("\n" + " " * self._indent + "}")

    def _capture(self, fn: Callable[..., Any], *args: Any) -> str:
        """What `fn(self, *args)` writes, as a string."""
        saved = self._out
        self._out = buf = []
        try:
            fn(self, *args)
        finally:
            self._out = saved
        return "".join(buf)

    def _params_text(self, attr: Any) -> str:
        """A dialect attribute or type without its `#dialect.mnemonic` (MLIR's stripped form)."""
        if attr is None:
            return "<<NULL ATTRIBUTE>>"
        return self._capture(_print_parameters, attr)

    def _attr_dict_text(
        self, attrs: dict[str, Attribute], elided: Iterable[str], keyword: bool = False
    ) -> str:
        text = self._dict_entries(attrs, elided)
        if not text:
            return ""
        return (" attributes {" if keyword else " {") + text + "}"

    def _prop_dict_text(self, attrs: dict[str, Attribute], names: frozenset[str]) -> str:
        """` <{...}>` of the inherent attributes `names` that are present, or nothing."""
        props = {k: v for k, v in attrs.items() if k in names}
        if not props:
            return ""
        return " <{" + self._dict_entries(props, ()) + "}>"

    def print_operation(self, op: Operation) -> None:
        """A nested op on its own line at the current indentation (for custom region forms)."""
        self._print_op(op, "\n" + " " * self._indent)

    # -- ops, blocks, regions --------------------------------------------------------------------

    def _short_cache(self, dialect: str) -> _Cache:
        cache = self._short_caches.get(dialect)
        if cache is None:
            prefix = dialect + "." if dialect else "\0"

            def short(name: str) -> str:
                if name.startswith(prefix) and name.count(".") == 1:
                    return name[len(prefix) :]
                return name

            cache = self._short_caches[dialect] = _Cache(short)
        return cache

    def _kind_cache(self, dialect: str) -> _Cache:
        """op class -> (print_asm hook, ` = name`, `name`) with the name shortened in `dialect`'s
        regions; (None, None, None) for a class printed through `_print_op` (no hook, or a
        per-instance name)."""
        cache = self._kind_caches.get(dialect)
        if cache is None:
            short = self._short_cache(dialect)

            def kind(cls: type) -> tuple[Any, str | None, str | None]:
                asm = _ASM_HOOKS[cls]
                name = getattr(cls, "name", None)
                if asm is None or type(name) is not str:
                    return None, None, None
                text = short[name]
                return asm, " = " + text, text

            cache = self._kind_caches[dialect] = _Cache(kind)
        return cache

    def _set_dialect(self, dialect: str) -> None:
        self._dialect = dialect
        cache = self._short_caches.get(dialect)
        self._short = cache if cache is not None else self._short_cache(dialect)
        kinds = self._kind_caches.get(dialect)
        self._kinds = kinds if kinds is not None else self._kind_cache(dialect)

    def _print_op(self, op: Operation, lead: str) -> None:
        """`lead`, the results, the op in custom or generic form, and its location."""
        res = op.results
        if res:
            lead += (self._names[res[0]] if res[-1] is res[0] else self._heads[op]) + " = "
        if self._namer is not None and op.regions:
            for r in op.regions:
                self._namer.prepare(r)
        loc = self._op_loc(op.location) if self._debuginfo else None
        asm = None if self._generic else _ASM_HOOKS[type(op)]
        if asm is None:
            self._print_generic(op, lead)
        else:
            self._out.append(lead + self._short[op.name])
            asm(op, self)
        if loc is not None:
            self._out.append(loc)

    def _print_generic(self, op: Operation, lead: str) -> None:
        out = self._out
        operands = op._operands
        if operands:
            # C-level maps (a list comprehension is a Python call per op).
            text = ", ".join(map(self._names.__getitem__, map(_VALUE, operands)))
            text = f"{lead}{self._quoted[op.name]}({text})"
        else:
            text = f"{lead}{self._quoted[op.name]}()"
        if op.successors:
            blocks = self._blocks
            text += "[" + ", ".join([blocks.get(b, UNKNOWN_BLOCK) for b in op.successors]) + "]"
        attrs = op._attrs
        defaults = op._prop_defaults
        discardable: dict[str, Attribute] | None = None
        if defaults and not attrs:  # every property at its default: the split is the class's
            split = self._generic_attrs.get(type(op))  # type: ignore[call-overload]
            if split is None:
                split = self._generic_attrs[type(op)] = self._split_generic_attrs(  # type: ignore[index]
                    op._prop_names, defaults
                )
            text += split[0]
            discardable = split[1]
            attrs = None
        elif defaults:  # MLIR's generic form spells out every property, defaults included
            attrs = {**defaults, **attrs}
        if attrs:
            key = (op._prop_names, *attrs.items())
            split = self._generic_attrs.get(key)
            if split is None:
                split = self._split_generic_attrs(op._prop_names, attrs)
                if len(self._generic_attrs) < _MEMO_LIMIT:
                    self._generic_attrs[key] = split
            text += split[0]
            discardable = split[1]
        if op.regions:
            out.append(text + " (")
            for i, region in enumerate(op.regions):
                if i:
                    out.append(", ")
                self.print_region(region, True, True, True)
            text = ")"
        if discardable:
            text += " {" + self._dict_entries(discardable, ()) + "}"
        res = op.results
        key = (*map(_VALUE_TYPE, operands), None, *map(_TYPE, res))
        sig = self._signatures.get(key)
        if sig is None:
            sig = self._generic_signature(operands, res)
            if len(self._signatures) < _MEMO_LIMIT:
                self._signatures[key] = sig
        out.append(text + sig)

    def _split_generic_attrs(
        self, inherent: frozenset[str], attrs: dict[str, Attribute]
    ) -> tuple[str, dict[str, Attribute] | None]:
        """` <{props}>` and the discardable attributes of a generic op's attribute dict."""
        if inherent and not inherent.isdisjoint(attrs):
            props = {k: v for k, v in attrs.items() if k in inherent}
            discardable = {k: v for k, v in attrs.items() if k not in inherent}
            return " <{" + self._dict_entries(props, ()) + "}>", discardable or None
        return "", attrs

    def _generic_signature(self, operands: Sequence[Any], res: Sequence[Value]) -> str:
        tstr = self._tstr
        text = " : (" + ", ".join([tstr[u.value.type] for u in operands]) + ") -> "
        if not res:
            return text + "()"
        if len(res) == 1 and type(res[0].type) is not A.FunctionType:
            return text + tstr[res[0].type]
        return text + "(" + ", ".join([tstr[r.type] for r in res]) + ")"

    def _collect_preds(self, region: Region) -> None:
        preds = self._preds
        for block in region.blocks:
            preds[block] = []
        for block in region.blocks:
            last = block.last
            if last is not None and last.successors:
                for succ in last.successors:
                    lst = preds.get(succ)
                    if lst is not None:
                        lst.append(block)

    def _block_header(self, block: Block) -> str:
        blocks = self._blocks
        text = "\n" + " " * self._indent + blocks.get(block, UNKNOWN_BLOCK)
        if block.arguments:
            names, tstr = self._names, self._tstr
            parts = []
            for arg in block.arguments:
                part = names[arg] + ": " + tstr[arg.type]
                if self._debuginfo:
                    part += self._arg_loc(arg)
                parts.append(part)
            text += "(" + ", ".join(parts) + ")"
        text += ":"
        region = block.parent
        if region is None:
            return text + "  // block is not in a region!"
        preds = self._preds.get(block)
        if not preds:
            if region.blocks[0] is not block:
                text += "  // no predecessors"
        elif all(p is preds[0] for p in preds):
            text += "  // pred: " + blocks.get(preds[0], UNKNOWN_BLOCK)
        else:
            order = {b: i for i, b in enumerate(region.blocks)}
            ordered = sorted(preds, key=lambda b: order.get(b, -1))
            text += f"  // {len(preds)} preds: " + ", ".join(
                [blocks.get(b, UNKNOWN_BLOCK) for b in ordered]
            )
        return text

    def _print_block(
        self, block: Block, header: bool, print_terminator: bool, jit: bool = False, index: int = 0
    ) -> bool:
        """Print `block`; with `jit`, number its values as its ops print (lazy numbering).
        Returns whether the next block of the region is still to be numbered that way."""
        out = self._out
        namer = self._namer
        if jit:
            if index:
                namer._number_args(block, index)  # type: ignore[union-attr]
            if self._debuginfo or self._generic:
                namer.finish(block, block.first)  # type: ignore[union-attr]
                jit = False
        if header:
            out.append(self._block_header(block))
        stop = None
        if not print_terminator:
            last = block.last
            if last is not None and (last._is_terminator or not last._is_registered):
                stop = last
        self._indent += 2
        lead = "\n" + " " * self._indent
        print_op = self._print_op
        op = block.first
        if self._debuginfo or self._generic:
            while op is not None and op is not stop:
                print_op(op, lead)
                op = op.next
        elif namer is not None:
            jit = self._print_block_lazy(block, op, stop, lead, jit)
        else:
            # The hot path of `_print_op`, inlined: custom form, no location.
            names, heads = self._names, self._heads
            kinds = self._kinds
            slots = type(names) is _SlotNames
            # In chunks: the pieces of each chunk of ops are joined as soon as it is printed,
            # so that their memory is reused while in the cache (one list of every piece of a
            # 100k-op block, joined at the end, touches a fresh ~15 MB three times).
            while op is not None and op is not stop:
                mark = len(out)
                for _ in _CHUNK:
                    asm, eq, bare = kinds[type(op)]
                    if asm is None:
                        print_op(op, lead)
                    else:
                        res = op.results
                        if res:
                            r0 = res[0]
                            if res[-1] is not r0:
                                head = heads[op]
                            else:
                                head = r0._name if slots else names[r0]
                            out.append(f"{lead}{head}{eq}")
                        else:
                            out.append(lead + bare)
                        asm(op, self)
                    op = op.next
                    if op is None or op is stop:
                        break
                out[mark:] = ("".join(out[mark:]),)
        self._indent -= 2
        return jit

    def _print_block_lazy(
        self, block: Block, op: Operation | None, stop: Operation | None, lead: str, jit: bool
    ) -> bool:
        """The custom-form loop of `_print_block` in a lazily numbered session: with `jit`, an
        op's results are numbered just before it prints; an op with regions numbers the rest
        of the region (`_Namer.finish`) and gets its regions ready (`_Namer.prepare`)."""
        out = self._out
        namer: _Namer = self._namer  # type: ignore[assignment]
        heads = self._heads
        kinds = self._kinds
        hooks = _RESULT_NAME_HOOKS
        record = namer.named.append
        nv = namer.nv
        pct = _PERCENT
        if len(pct) < nv + block._len:
            pct = _percent_names(nv + block._len)
        prepare = namer.prepare
        while op is not None and op is not stop:
            mark = len(out)
            for _ in _CHUNK:
                res = op.results
                if op.regions:
                    if jit:
                        namer.nv = nv
                        namer.finish(block, op)
                        jit = False
                    for r in op.regions:
                        prepare(r)
                elif jit and res:
                    r0 = res[0]
                    if res[-1] is not r0 or hooks[type(op)] is not None:
                        namer.nv = nv
                        namer._number_op_results(op)
                        nv = namer.nv
                    else:
                        try:
                            r0._name = pct[nv]
                        except IndexError:  # past the table's limit
                            r0._name = f"%{nv}"
                        record(r0)
                        nv += 1
                asm, eq, bare = kinds[type(op)]
                if asm is None:
                    self._print_op(op, lead)
                else:
                    if res:
                        r0 = res[0]
                        head = heads[op] if res[-1] is not r0 else r0._name
                        out.append(f"{lead}{head}{eq}")
                    else:
                        out.append(lead + bare)
                    asm(op, self)
                op = op.next
                if op is None or op is stop:
                    break
            out[mark:] = ("".join(out[mark:]),)
        if jit:
            namer.nv = nv
            if stop is not None:  # the unprinted terminator is numbered all the same
                namer.finish(block, stop)
                jit = False
        return jit

    # -- types -----------------------------------------------------------------------------------

    def _type_text(self, t: Type) -> str:
        fn = _TYPE_PRINTERS.get(type(t))
        if fn is not None:
            return fn(self, t)
        if isinstance(t, A.DialectType):
            return self._dialect_text("!", t)
        raise TypeError(f"cannot print {type(t).__name__} as a type")

    def _dialect_text(self, sigil: str, obj: Any) -> str:
        saved = self._out
        self._out = buf = [sigil, obj.name]
        try:
            obj.print_parameters(self)
        finally:
            self._out = saved
        return "".join(buf)

    def _results_text(self, types: Sequence[Type]) -> str:
        tstr = self._tstr
        if len(types) == 1 and type(types[0]) is not A.FunctionType:
            return tstr[types[0]]
        return "(" + ", ".join(map(tstr.__getitem__, types)) + ")"

    def _functional(self, ft: Any) -> str:
        tstr = self._tstr
        return (
            "("
            + ", ".join(map(tstr.__getitem__, ft.inputs))
            + ") -> "
            + self._results_text(ft.results)
        )

    # -- attributes ------------------------------------------------------------------------------

    def _attr_entry(self, attr: Any) -> str:
        if self._aliasing:
            name = _ALIAS_NAMES.get(type(attr))
            if name is not None:
                return self._record_alias(attr, name)
        fn = _ATTR_PRINTERS.get(type(attr))
        if fn is not None:
            return fn(self, attr)
        return self._attr_text(attr)

    def _attr_text(self, attr: Any) -> str:
        fn = _ATTR_PRINTERS.get(type(attr))
        if fn is not None:
            return fn(self, attr)
        if isinstance(attr, A.DialectAttr):
            return self._dialect_text("#", attr)
        if isinstance(attr, Type):
            return self._tstr[attr]
        raise TypeError(f"cannot print {type(attr).__name__} as an attribute")

    def _attr_may(self, attr: Attribute) -> str:
        """The attribute with its type elided where MLIR may elide it (i64 ints, f64 floats)."""
        ta = type(attr)
        if ta is A.IntegerAttr and attr.type is A.i64:  # type: ignore[attr-defined]
            return str(_int_value(attr.value, A.i64))  # type: ignore[attr-defined]
        if ta is A.FloatAttr and attr.type is A.f64:  # type: ignore[attr-defined]
            text, is_hex = _float_text(attr.value, "f64")  # type: ignore[attr-defined]
            if not is_hex:
                return text
        return self._astr[attr]

    def _attr_notype(self, attr: Attribute) -> str:
        ta = type(attr)
        if ta is A.IntegerAttr:
            if attr.type is A.i1:  # type: ignore[attr-defined]
                return "true" if attr.value else "false"  # type: ignore[attr-defined]
            return str(_int_value(attr.value, attr.type))  # type: ignore[attr-defined]
        if ta is A.FloatAttr:
            return _float_text(attr.value, attr.type.kind)[0]  # type: ignore[attr-defined]
        if ta is A.StringAttr:
            return escape_string(attr.value)  # type: ignore[attr-defined]
        if ta is A.DenseElementsAttr:
            return "dense<" + self._dense_body(attr) + ">"  # type: ignore[arg-type]
        if ta is A.OpaqueAttr:
            return "#" + attr.dialect + attr.data  # type: ignore[attr-defined]
        return self._astr[attr]

    def _dict_entries(self, attrs: dict[str, Attribute], elided: Iterable[str]) -> str:
        astr = self._astr
        keys = sorted(attrs)
        if elided:
            skip = elided if isinstance(elided, (set, frozenset)) else frozenset(elided)
            keys = [k for k in keys if k not in skip]
        unit = _UNIT
        return ", ".join(
            [
                keyword_or_string(k)
                if attrs[k] is unit
                else keyword_or_string(k) + " = " + astr[attrs[k]]
                for k in keys
            ]
        )

    def _dense_body(self, attr: A.DenseElementsAttr) -> str:
        arr = attr._array
        et = attr.type.element_type
        if arr.size == 0:
            return ""
        fmt = _element_formatter(et)
        if arr.ndim == 0:
            return fmt(arr.item())
        if arr.size > HEX_THRESHOLD and fmt is not None:
            return '"0x' + _dense_hex(arr, et) + '"'
        return _nested(arr.tolist(), fmt)

    # -- locations and aliases -------------------------------------------------------------------

    def _loc_ref(self, loc: Location) -> str:
        """A nested location: its alias when aliasing, else its body."""
        if self._aliasing:
            return self._astr[loc]
        return self._loc_body(loc)

    def _loc_body(self, loc: Any) -> str:
        t = type(loc)
        if t is A.UnknownLoc:
            return "unknown"
        if t is A.FileLineColLoc:
            text = f"{escape_string(loc.filename)}:{loc.line}:{loc.col}"
            if loc.end_line is not None and (loc.end_line, loc.end_col) != (loc.line, loc.col):
                if loc.end_line == loc.line:
                    return f"{text} to :{loc.end_col}"
                return f"{text} to {loc.end_line}:{loc.end_col}"
            return text
        if t is A.NameLoc:
            text = escape_string(loc.loc_name)
            child = loc.child
            if child is not None and type(child) is not A.UnknownLoc:
                text += "(" + self._loc_ref(child) + ")"
            return text
        if t is A.CallSiteLoc:
            return f"callsite({self._loc_ref(loc.callee)} at {self._loc_ref(loc.caller)})"
        if t is A.FusedLoc:
            text = "fused"
            if loc.metadata is not None:
                text += "<" + self._astr[loc.metadata] + ">"
            return text + "[" + ", ".join([self._loc_ref(x) for x in loc.locations]) + "]"
        raise TypeError(f"cannot print {t.__name__} as a location")

    def _op_loc(self, loc: Location) -> str:
        """` loc(...)` after an op: an alias reference that may be defined at the file end."""
        if self._aliasing:
            return " loc(" + self._astr[loc][:-1] + "\x03)"
        return " loc(" + self._loc_body(loc) + ")"

    def _arg_loc(self, arg: BlockArgument) -> str:
        """` loc(...)` of a block argument: always inline, but its alias is still defined."""
        loc = arg.location or _UNKNOWN_LOC
        if self._aliasing:
            marker = self._astr[loc]
            self._alias_roots.add(int(marker[1:-1]))
        return " loc(" + self._loc_body(loc) + ")"

    def _record_alias(self, attr: Any, name: str) -> str:
        recs = self._alias_recs
        index = len(recs)
        rec = [attr, name, ""]
        recs.append(rec)
        rec[2] = self._attr_text(attr)
        return f"\x01{index}\x02"

    def _finish(self, text: str) -> str:
        """Substitute alias markers and add the alias definitions (top: needed; end: deferred)."""
        recs = self._alias_recs
        if not recs:
            return text
        children = [[int(m.group(1)) for m in _MARKER.finditer(r[2])] for r in recs]
        depth: dict[int, int] = {}

        def depth_of(i: int) -> int:
            d = depth.get(i)
            if d is None:
                d = depth[i] = 1 + max(map(depth_of, children[i])) if children[i] else 0
            return d

        order = sorted(range(len(recs)), key=lambda i: (depth_of(i), recs[i][1]))
        counts: dict[str, int] = {}
        alias = [""] * len(recs)
        for i in order:
            name = recs[i][1]
            k = counts.get(name, 0)
            counts[name] = k + 1
            alias[i] = "#" + name + ("" if not k else ("_" if name[-1].isdigit() else "") + str(k))
        needed = set(self._alias_roots)
        needed.update(int(m.group(1)) for m in _MARKER.finditer(text) if m.group(2) == "\x02")
        todo = list(needed)
        while todo:
            for c in children[todo.pop()]:
                if c not in needed:
                    needed.add(c)
                    todo.append(c)

        def sub(s: str) -> str:
            return _MARKER.sub(lambda m: alias[int(m.group(1))], s)

        top = "".join([f"{alias[i]} = {sub(recs[i][2])}\n" for i in order if i in needed])
        end = "".join([f"\n{alias[i]} = {sub(recs[i][2])}" for i in order if i not in needed])
        return top + sub(text) + end

    # -- whole ops -------------------------------------------------------------------------------

    def number(
        self, root: Operation, named: list[Value] | None = None, lazy: bool = False
    ) -> list[Value]:
        """Name every value and block under `root` (done once before printing; with `lazy`,
        custom form with slot names only, while printing `root`: see `_Namer.start`). With
        `slot_names`, the values named are appended to `named` (returned) as they are named,
        for `_reset_names` after the session (also after an exception)."""
        namer = _Namer(self._names, self._heads, self._blocks, self._generic, named)
        if lazy and namer.slots and namer.custom and not self._debuginfo:
            self._namer = namer
            namer.start(root)
        else:
            namer.run(root)
        return namer.named

    def print_top(self, op: Operation) -> str:
        """The op at indentation 0 (numbered beforehand), with aliases resolved."""
        self._print_op(op, "")
        text = "".join(self._out)
        self._out = []
        return self._finish(text)


_UNIT = A.UnitAttr()


def _print_parameters(p: Printer, obj: Any) -> None:
    obj.print_parameters(p)


_UNKNOWN_LOC = A.UnknownLoc()


# ---------------------------------------------------------------------------------------------
# Type printers


def _integer_type(p: Printer, t: Any) -> str:
    return ("i", "si", "ui")[t.signedness] + str(t.width)


def _tensor_type(p: Printer, t: Any) -> str:
    text = "tensor<" + _dims(t.shape) + p._tstr[t.element_type]
    if t.encoding is not None:
        text += ", " + p._astr[t.encoding]
    return text + ">"


def _memref_type(p: Printer, t: Any) -> str:
    text = "memref<" + _dims(t.shape) + p._tstr[t.element_type]
    if t.layout is not None:
        text += ", " + p._attr_may(t.layout)
    if t.memory_space is not None:
        text += ", " + p._attr_may(t.memory_space)
    return text + ">"


def _unranked_memref_type(p: Printer, t: Any) -> str:
    text = "memref<*x" + p._tstr[t.element_type]
    if t.memory_space is not None:
        text += ", " + p._attr_may(t.memory_space)
    return text + ">"


def _vector_type(p: Printer, t: Any) -> str:
    dims = "".join([f"[{d}]x" if s else f"{d}x" for d, s in zip(t.shape, t.scalable, strict=True)])
    return "vector<" + dims + p._tstr[t.element_type] + ">"


_TYPE_PRINTERS: dict[type, Callable[[Printer, Any], str]] = {
    A.IntegerType: _integer_type,
    A.IndexType: lambda p, t: "index",
    A.FloatType: lambda p, t: t.kind,
    A.NoneType: lambda p, t: "none",
    A.ComplexType: lambda p, t: "complex<" + p._tstr[t.element_type] + ">",
    A.TupleType: lambda p, t: "tuple<" + ", ".join(map(p._tstr.__getitem__, t.types)) + ">",
    A.FunctionType: lambda p, t: p._functional(t),
    A.RankedTensorType: _tensor_type,
    A.UnrankedTensorType: lambda p, t: "tensor<*x" + p._tstr[t.element_type] + ">",
    A.MemRefType: _memref_type,
    A.UnrankedMemRefType: _unranked_memref_type,
    A.VectorType: _vector_type,
    A.OpaqueType: lambda p, t: "!" + t.dialect + t.data,
    type(None): lambda p, t: "<<NULL TYPE>>",
}


# ---------------------------------------------------------------------------------------------
# Attribute printers


def _integer_attr(p: Printer, a: Any) -> str:
    t = a.type
    if t is A.i1:
        return "true" if a.value else "false"
    return f"{_int_value(a.value, t)} : {p._tstr[t]}"


def _float_text(value: float, kind: str) -> tuple[str, bool]:
    """MLIR's text of a float of type `kind` (the value rounded to the type first)."""
    return format_float(round_to_kind(value, kind), kind)


def _float_attr(p: Printer, a: Any) -> str:
    return _float_text(a.value, a.type.kind)[0] + " : " + p._tstr[a.type]


def _typed_suffix(p: Printer, t: Type | None) -> str:
    return "" if t is None or type(t) is A.NoneType else " : " + p._tstr[t]


def _dict_attr(p: Printer, a: Any) -> str:
    astr, unit, kw = p._astr, _UNIT, keyword_or_string
    return (
        "{" + ", ".join([kw(k) if v is unit else kw(k) + " = " + astr[v] for k, v in a.value]) + "}"
    )


def _symbol_ref(p: Printer, a: Any) -> str:
    return "@" + "::@".join(map(keyword_or_string, (a.root, *a.nested)))


def _strided(p: Printer, a: Any) -> str:
    text = "strided<[" + ", ".join(["?" if s == DYNAMIC else str(s) for s in a.strides]) + "]"
    if a.offset != 0:
        text += ", offset: " + ("?" if a.offset == DYNAMIC else str(a.offset))
    return text + ">"


def _dense_array(p: Printer, a: Any) -> str:
    et = a.element_type
    text = "array<" + p._tstr[et]
    if a.values:
        fmt = _element_formatter(et)
        text += ": " + ", ".join(map(fmt, a.values))  # type: ignore[arg-type]
    return text + ">"


def _dense_elements(p: Printer, a: Any) -> str:
    return "dense<" + p._dense_body(a) + "> : " + p._tstr[a.type]


_ATTR_PRINTERS: dict[type, Callable[[Printer, Any], str]] = {
    A.IntegerAttr: _integer_attr,
    A.FloatAttr: _float_attr,
    A.StringAttr: lambda p, a: escape_string(a.value) + _typed_suffix(p, a.type),
    A.UnitAttr: lambda p, a: "unit",
    A.ArrayAttr: lambda p, a: "[" + ", ".join(map(p._attr_may, a.value)) + "]",
    A.DictionaryAttr: _dict_attr,
    A.TypeAttr: lambda p, a: p._tstr[a.value],
    A.SymbolRefAttr: _symbol_ref,
    A.AffineMapAttr: lambda p, a: f"affine_map<{a.value}>",
    A.IntegerSetAttr: lambda p, a: f"affine_set<{a.value}>",
    A.StridedLayoutAttr: _strided,
    A.DenseArrayAttr: _dense_array,
    A.DenseElementsAttr: _dense_elements,
    A.OpaqueAttr: lambda p, a: "#" + a.dialect + a.data + _typed_suffix(p, a.type),
    type(None): lambda p, a: "<<NULL ATTRIBUTE>>",
}
for _loc_type in _LOC_TYPES:
    _ATTR_PRINTERS[_loc_type] = lambda p, a: "loc(" + p._loc_body(a) + ")"


# ---------------------------------------------------------------------------------------------
# Dense elements


def _element_formatter(et: Type) -> Callable[[Any], str] | None:
    """Text of one element of type `et` (a Python scalar); None when not numeric."""
    tt = type(et)
    if tt is A.IntegerType:
        if et.width == 1 and et.signedness == A.SIGNLESS:  # type: ignore[attr-defined]
            return lambda v: "true" if v else "false"
        return lambda v: str(_int_value(int(v), et))
    if tt is A.IndexType:
        return str
    if tt is A.FloatType:
        kind = et.kind  # type: ignore[attr-defined]
        return lambda v: _float_text(float(v), kind)[0]
    if tt is A.ComplexType:
        part = _element_formatter(et.element_type)  # type: ignore[attr-defined]
        if part is None:
            return None
        return lambda v: f"({part(v.real)},{part(v.imag)})"
    return None


def _nested(values: Any, fmt: Callable[[Any], str]) -> str:
    if type(values) is list:
        return "[" + ", ".join([_nested(v, fmt) for v in values]) + "]"
    return fmt(values)


def _dense_hex(arr: np.ndarray, et: Type) -> str:
    """The raw little-endian storage MLIR prints for large dense elements."""
    flat = arr.reshape(-1)
    tt = type(et)
    if tt is A.ComplexType:
        parts = np.stack([flat.real, flat.imag], axis=-1).reshape(-1)
        return _dense_hex(parts, et.element_type)  # type: ignore[attr-defined]
    if tt is A.FloatType:
        kind = et.kind  # type: ignore[attr-defined]
        if kind == "bf16":
            return (
                b"".join(float_to_bits(float(v), kind).to_bytes(2, "little") for v in flat)
                .hex()
                .upper()
            )
        if kind not in ("f16", "f32", "f64"):
            nbytes = (A._FLOAT_WIDTHS[kind] + 7) // 8
            return (
                b"".join(float_to_bits(float(v), kind).to_bytes(nbytes, "little") for v in flat)
                .hex()
                .upper()
            )  # noqa: E501
        return flat.astype(flat.dtype.newbyteorder("<")).tobytes().hex().upper()
    width = 64 if tt is A.IndexType else et.width  # type: ignore[attr-defined]
    nbytes = max(1, (width + 7) // 8)
    mask = (1 << width) - 1
    if width in (8, 16, 32, 64):
        return flat.astype(np.dtype(f"<u{nbytes}"), casting="unsafe").tobytes().hex().upper()
    return b"".join((int(v) & mask).to_bytes(nbytes, "little") for v in flat.tolist()).hex().upper()


# ---------------------------------------------------------------------------------------------
# Entry points


def _numbering_root(op: Operation, local_scope: bool) -> Operation:
    root = op
    while True:
        if local_scope and root._is_isolated:
            return root
        parent = root.parent_op
        if parent is None:
            return root
        root = parent


def print_op(
    op: Operation, *, generic: bool = False, debuginfo: bool = False, local_scope: bool = False
) -> str:
    """The op as `mlir-opt` prints it (without the final newline).

    A top-level op (no parent) gets `#map`/`#set`/`#loc` aliases, defined before it (and, for
    op locations, after it) unless `local_scope`. A nested op is numbered as part of its
    top-level op (or its nearest isolated-from-above ancestor with `local_scope`) and printed
    alone without aliases.
    """
    aliases = op.parent is None and not local_scope
    # The cyclic GC is paused as in the parser: numbering and printing allocate many strings
    # and dict entries, and collections over a large module would make printing superlinear.
    gc_enabled = gc.isenabled()
    gc.disable()
    slots = _SLOT_SESSION.acquire(blocking=False)
    root = _numbering_root(op, local_scope)
    named: list[Value] = []
    try:
        # Lazy numbering when printing the whole numbered tree in the custom form; a name
        # missing from its text (a forward reference, or a value from outside the tree, which
        # prints the marker either way) means printing again with the numbering done first.
        lazy = slots and op is root and not generic and not debuginfo
        p = Printer(generic=generic, debuginfo=debuginfo, aliases=aliases, slot_names=slots)
        p.number(root, named, lazy)
        text = p.print_top(op)
        if lazy and (UNKNOWN_VALUE in text or UNKNOWN_BLOCK in text):
            _reset_names(named)
            named.clear()
            p = Printer(generic=generic, debuginfo=debuginfo, aliases=aliases, slot_names=slots)
            p.number(root, named)
            text = p.print_top(op)
        return text
    finally:
        if slots:
            try:
                _reset_names(named)
            finally:
                _SLOT_SESSION.release()
        if gc_enabled:
            gc.enable()


def _reset_names(named: list[Value]) -> None:
    """Put UNNAMED back in the `_name` of the values a session named (C-level: `setattr` mapped
    over the list). The list is the session's record, not a walk of the IR: at 100k ops a walk
    of ops, result tuples and results after the print misses the caches for all three again,
    where the results alone lie contiguous."""
    deque(map(setattr, named, repeat("_name"), repeat(UNNAMED)), maxlen=0)


_PLAIN: Printer | None = None


def attr_to_str(obj: Attribute | Type) -> str:
    """The text of a type or attribute, without aliases (what `str()` gives)."""
    global _PLAIN
    p = _PLAIN
    if p is None or len(p._astr) + len(p._tstr) > 4096:
        p = _PLAIN = Printer()
    if isinstance(obj, Type):
        return p._tstr[obj]
    return p._astr[obj]
