"""Symbols and symbol tables (MLIR's SymbolTable): name lookup, nested `@a::@b` references, uses.

A symbol is an op with a `sym_name` StringAttr directly in the single block of an op with the
SymbolTable trait (builtin.module). References are `SymbolRefAttr`s anywhere in attributes.

    table = SymbolTable(module)
    f = table.lookup("f")
    callee = lookup_nearest_symbol_from(call_op, call_op.get_attr("callee"))
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from mlc.ir.attributes import ArrayAttr, Attribute, DictionaryAttr, StringAttr, SymbolRefAttr
from mlc.ir.core import Block, IRError, Operation, Region

__all__ = [
    "SYM_NAME",
    "SYM_VISIBILITY",
    "SymbolTable",
    "SymbolTableCollection",
    "SymbolUse",
    "get_symbol_name",
    "set_symbol_name",
    "get_symbol_visibility",
    "set_symbol_visibility",
    "is_private",
    "is_symbol_table",
    "get_nearest_symbol_table",
    "lookup_symbol_in",
    "lookup_nearest_symbol_from",
    "symbol_refs_in",
    "get_symbol_uses",
    "symbol_known_use_empty",
    "replace_all_symbol_uses",
    "walk_symbol_table",
]

SYM_NAME = "sym_name"
SYM_VISIBILITY = "sym_visibility"
PUBLIC, PRIVATE, NESTED = "public", "private", "nested"


# ---------------------------------------------------------------------------------------------
# Single symbols


def get_symbol_name(op: Operation) -> str | None:
    """The op's `sym_name`, or None when it has no StringAttr of that name."""
    attrs = op._attrs
    if attrs is None:
        return None
    name = attrs.get(SYM_NAME)
    return name.value if type(name) is StringAttr else None


def set_symbol_name(op: Operation, name: str) -> None:
    op.set_attr(SYM_NAME, StringAttr(name))


def get_symbol_visibility(op: Operation) -> str:
    """`public` (the default), `private` or `nested`."""
    vis = op.get_attr(SYM_VISIBILITY)
    return vis.value if type(vis) is StringAttr else PUBLIC


def set_symbol_visibility(op: Operation, visibility: str) -> None:
    """Set the visibility; `public` is the default and is stored as no attribute (as MLIR)."""
    if visibility not in (PUBLIC, PRIVATE, NESTED):
        raise ValueError(f"unknown symbol visibility '{visibility}'")
    if visibility == PUBLIC:
        op.remove_attr(SYM_VISIBILITY)
    else:
        op.set_attr(SYM_VISIBILITY, StringAttr(visibility))


def is_private(op: Operation) -> bool:
    return get_symbol_visibility(op) == PRIVATE


def is_symbol_table(op: Operation) -> bool:
    return op._has_symbol_table


def get_nearest_symbol_table(op: Operation) -> Operation | None:
    """`op` itself if it is a symbol table, else its closest symbol-table ancestor."""
    cur: Operation | None = op
    while cur is not None and not cur._has_symbol_table:
        block = cur.parent
        if block is None:
            return None
        region = block.parent
        cur = None if region is None else region.parent
    return cur


def _body(table_op: Operation) -> Block:
    regions = table_op.regions
    if len(regions) != 1 or len(regions[0].blocks) != 1:
        raise IRError(f"symbol table '{table_op.name}' must have one region with one block")
    return regions[0].blocks[0]


# ---------------------------------------------------------------------------------------------
# A symbol table


class SymbolTable:
    """Name -> op for the symbols directly in a symbol-table op's body (built once, O(n)).

    The table is a cache: it stays right while changes go through `insert`, `remove`,
    `erase` and `rename`; rebuild it after editing the body another way.
    """

    __slots__ = ("op", "_table", "_counter")

    def __init__(self, op: Operation) -> None:
        if not op._has_symbol_table:
            raise IRError(f"'{op.name}' is not a symbol table")
        self.op = op
        self._table: dict[str, Operation] = {}
        self._counter = 0
        table = self._table
        for child in _body(op):
            name = get_symbol_name(child)
            if name is not None and name not in table:
                table[name] = child

    def lookup(self, name: str | StringAttr) -> Operation | None:
        if type(name) is StringAttr:
            name = name.value
        return self._table.get(name)  # type: ignore[arg-type]

    def __contains__(self, name: str) -> bool:
        return name in self._table

    def __getitem__(self, name: str) -> Operation:
        return self._table[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)

    def insert(self, op: Operation, anchor: Operation | None = None) -> str:
        """Add symbol `op` (inserting it into the body if detached: before `anchor`, else at
        the end, before a terminator) and return its name, renamed `name_N` on a conflict."""
        name = get_symbol_name(op)
        if name is None:
            raise IRError(f"'{op.name}' has no '{SYM_NAME}' attribute")
        body = _body(self.op)
        if op.parent is None:
            if anchor is None:
                anchor = body.terminator
            if anchor is None:
                body.append(op)
            else:
                body.insert_before(op, anchor)
        elif op.parent is not body:
            raise IRError("symbol is already in another block")
        table = self._table
        existing = table.get(name)
        if existing is op:
            return name
        if existing is None:
            table[name] = op
            return name
        # MLIR's uniquing: one counter per table, suffixes `_0`, `_1`, ... until free.
        while True:
            candidate = f"{name}_{self._counter}"
            self._counter += 1
            if candidate not in table:
                break
        set_symbol_name(op, candidate)
        table[candidate] = op
        return candidate

    def remove(self, op: Operation) -> None:
        """Forget symbol `op` and detach it from the body (it stays alive)."""
        name = get_symbol_name(op)
        if name is not None and self._table.get(name) is op:
            del self._table[name]
        op.detach()

    def erase(self, op: Operation) -> None:
        """Forget and erase symbol `op`."""
        self.remove(op)
        op.erase()

    def rename(self, op_or_name: Operation | str, new_name: str) -> None:
        """Rename a symbol and every reference to it in this table's op (not nested tables'
        shadowed names), like MLIR's `SymbolTable::rename`."""
        op = self.lookup(op_or_name) if isinstance(op_or_name, str) else op_or_name
        if op is None:
            raise IRError(f"no symbol named '{op_or_name}'")
        old = get_symbol_name(op)
        if old is None:
            raise IRError(f"'{op.name}' has no '{SYM_NAME}' attribute")
        if old == new_name:
            return
        if new_name in self._table:
            raise IRError(f"symbol '{new_name}' already exists")
        replace_all_symbol_uses(old, new_name, self.op)
        set_symbol_name(op, new_name)
        if self._table.get(old) is op:
            del self._table[old]
        self._table[new_name] = op

    def __repr__(self) -> str:
        return f"<SymbolTable of '{self.op.name}': {len(self._table)} symbols>"


# ---------------------------------------------------------------------------------------------
# Lookup


def lookup_symbol_in(table_op: Operation, symref: SymbolRefAttr | str) -> Operation | None:
    """Resolve `@a` or `@a::@b::@c` starting in `table_op` (a linear scan of each body).

    For repeated lookups use a `SymbolTableCollection`.
    """
    return _lookup(table_op, symref, _scan)


def _scan(table_op: Operation, name: str) -> Operation | None:
    if not table_op._has_symbol_table:
        return None
    regions = table_op.regions
    if len(regions) != 1 or not regions[0].blocks:
        return None
    for child in regions[0].blocks[0]:
        if get_symbol_name(child) == name:
            return child
    return None


def _lookup(
    table_op: Operation,
    symref: SymbolRefAttr | str,
    find: Callable[[Operation, str], Operation | None],
) -> Operation | None:
    if isinstance(symref, str):
        return find(table_op, symref)
    op = find(table_op, symref.root)
    for name in symref.nested:
        if op is None:
            return None
        op = find(op, name)
    return op


def lookup_nearest_symbol_from(from_op: Operation, symref: SymbolRefAttr | str) -> Operation | None:
    """Resolve `symref` in the closest symbol table enclosing (or being) `from_op`."""
    table = get_nearest_symbol_table(from_op)
    return None if table is None else lookup_symbol_in(table, symref)


class SymbolTableCollection:
    """A cache of SymbolTables, one per table op, for O(1) lookups (used by the verifier)."""

    __slots__ = ("_tables",)

    def __init__(self) -> None:
        self._tables: dict[Operation, SymbolTable] = {}

    def get_symbol_table(self, table_op: Operation) -> SymbolTable:
        table = self._tables.get(table_op)
        if table is None:
            table = self._tables[table_op] = SymbolTable(table_op)
        return table

    def _find(self, table_op: Operation, name: str) -> Operation | None:
        if not table_op._has_symbol_table:
            return None
        regions = table_op.regions
        if len(regions) != 1 or len(regions[0].blocks) != 1:
            return None
        return self.get_symbol_table(table_op).lookup(name)

    def lookup_symbol_in(
        self, table_op: Operation, symref: SymbolRefAttr | str
    ) -> Operation | None:
        return _lookup(table_op, symref, self._find)

    def lookup_nearest_symbol_from(
        self, from_op: Operation, symref: SymbolRefAttr | str
    ) -> Operation | None:
        table = get_nearest_symbol_table(from_op)
        if table is None:
            return None
        if type(symref) is SymbolRefAttr and not symref.nested:
            # The common flat reference to an already built table: one dict lookup.
            cached = self._tables.get(table)
            if cached is not None:
                regions = table.regions
                if len(regions) != 1 or len(regions[0].blocks) != 1:
                    return None
                return cached._table.get(symref.root)
        return self.lookup_symbol_in(table, symref)

    def invalidate(self, table_op: Operation) -> None:
        """Drop the cached table of `table_op` (after editing its body directly)."""
        self._tables.pop(table_op, None)

    def clear(self) -> None:
        self._tables.clear()


# ---------------------------------------------------------------------------------------------
# Uses


class SymbolUse:
    """One reference to a symbol: `ref` found in an attribute of `user`."""

    __slots__ = ("user", "ref")

    def __init__(self, user: Operation, ref: SymbolRefAttr) -> None:
        self.user = user
        self.ref = ref

    def __repr__(self) -> str:
        return f"<SymbolUse @{self.ref.root} in '{self.user.name}'>"


def symbol_refs_in(attr: Attribute) -> Iterator[SymbolRefAttr]:
    """Every SymbolRefAttr in `attr`, looking into arrays and dictionaries (iteratively)."""
    stack = [attr]
    while stack:
        a = stack.pop()
        t = type(a)
        if t is SymbolRefAttr:
            yield a  # type: ignore[misc]
        elif t is ArrayAttr:
            stack.extend(reversed(a.value))  # type: ignore[attr-defined]
        elif t is DictionaryAttr:
            stack.extend(v for _, v in reversed(a.value))  # type: ignore[attr-defined]


def walk_symbol_table(regions: tuple[Region, ...] | list[Region]) -> Iterator[Operation]:
    """Ops nested in `regions`, not descending into nested symbol tables (which are yielded
    themselves); MLIR's walk order (a worklist of regions)."""
    worklist = list(regions)
    while worklist:
        region = worklist.pop()
        for block in region.blocks:
            for op in block:
                yield op
                if op.regions and not op._has_symbol_table:
                    worklist.extend(op.regions)


def get_symbol_uses(from_op: Operation, symbol: str | Operation | None = None) -> list[SymbolUse]:
    """References in ops nested in `from_op`'s regions (not inside nested symbol tables).

    With `symbol` (a name or a symbol op), only references whose root is that name.
    """
    name = get_symbol_name(symbol) if isinstance(symbol, Operation) else symbol
    uses: list[SymbolUse] = []
    for op in walk_symbol_table(from_op.regions):
        attrs = op._attrs
        if not attrs:
            continue
        for value in attrs.values():
            for ref in symbol_refs_in(value):
                if name is None or ref.root == name:
                    uses.append(SymbolUse(op, ref))
    return uses


def symbol_known_use_empty(symbol: str | Operation, from_op: Operation) -> bool:
    """True when nothing nested in `from_op` references `symbol`."""
    return not get_symbol_uses(from_op, symbol)


def _replace_refs(attr: Attribute, old: str, new: SymbolRefAttr) -> Attribute:
    t = type(attr)
    if t is SymbolRefAttr:
        if attr.root != old:  # type: ignore[attr-defined]
            return attr
        return SymbolRefAttr(new.root, new.nested + attr.nested)  # type: ignore[attr-defined]
    if t is ArrayAttr:
        items = attr.value  # type: ignore[attr-defined]
        new_items = tuple(_replace_refs(a, old, new) for a in items)
        return (
            attr
            if all(a is b for a, b in zip(items, new_items, strict=True))
            else ArrayAttr(new_items)
        )
    if t is DictionaryAttr:
        entries = attr.value  # type: ignore[attr-defined]
        new_entries = tuple((k, _replace_refs(v, old, new)) for k, v in entries)
        if all(a[1] is b[1] for a, b in zip(entries, new_entries, strict=True)):
            return attr
        return DictionaryAttr(new_entries)
    return attr


def replace_all_symbol_uses(old: str, new: str | SymbolRefAttr, from_op: Operation) -> None:
    """Rewrite references rooted at `@old` to `new` in ops nested in `from_op` (not inside
    nested symbol tables)."""
    new_ref = SymbolRefAttr(new) if isinstance(new, str) else new
    for op in walk_symbol_table(from_op.regions):
        attrs = op._attrs
        if not attrs:
            continue
        for key, value in list(attrs.items()):
            replaced = _replace_refs(value, old, new_ref)
            if replaced is not value:
                attrs[key] = replaced
