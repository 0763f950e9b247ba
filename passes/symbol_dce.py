"""`symbol-dce`: erase private symbols that nothing live references (transitively)."""

from __future__ import annotations

from mlc.ir.attributes import ArrayAttr, DictionaryAttr, SymbolRefAttr
from mlc.ir.core import Operation
from mlc.ir.symbols import get_symbol_name, get_symbol_visibility, symbol_refs_in
from mlc.pass_manager import Pass, PassContext, Statistic

_REF_HOLDERS = (SymbolRefAttr, ArrayAttr, DictionaryAttr)


def _refs(op: Operation, out: list[str]) -> None:
    """Root names of every symbol reference in `op` and everything nested in it."""
    stack = [op]
    while stack:
        nested = stack.pop()
        attrs = nested._attrs
        if attrs:
            for value in attrs.values():
                t = type(value)
                if t is SymbolRefAttr:
                    out.append(value.root)  # type: ignore[attr-defined]
                elif t in _REF_HOLDERS:
                    for ref in symbol_refs_in(value):
                        out.append(ref.root)
        for region in nested.regions:
            for block in region.blocks:
                child = block.first
                while child is not None:
                    if child.regions:
                        stack.append(child)
                    else:
                        attrs = child._attrs
                        if attrs:
                            for value in attrs.values():
                                t = type(value)
                                if t is SymbolRefAttr:
                                    out.append(value.root)  # type: ignore[attr-defined]
                                elif t in _REF_HOLDERS:
                                    for ref in symbol_refs_in(value):
                                        out.append(ref.root)
                    child = child.next


def symbol_dce(table_op: Operation) -> int:
    """Erase the dead private symbols directly in `table_op` and in nested symbol tables.

    A symbol is live when it is public, or referenced from a live symbol or from an op that is
    not a symbol; a nested symbol table's private symbols are judged within that table.
    Returns the number of symbols erased.
    """
    body = (
        table_op.regions[0].blocks[0] if table_op.regions and table_op.regions[0].blocks else None
    )
    if body is None:
        return 0
    # name -> the private symbol of that name while nothing live has referenced it, None once
    # it is live (or public). No set of live ops: a table keyed by op would be one more
    # random access (and an int object) per lookup on a big module.
    pending: dict[str, Operation | None] = {}
    # Top-level symbols of the processed table: public ones are live; `nested` visibility is
    # private here (nothing outside this table can see it). Ops that are not symbols are live.
    # A second symbol of a name is never the one references resolve to: private, it is dead.
    #
    # One visit per top-level op: its references are collected while it is in the caches (the
    # live ops' into `live_refs`, a private symbol's into `refs_of`), and liveness is then
    # resolved on names alone. Walking the live ops after this loop read every top-level op
    # (and its attribute dict) a second time, after the loop had evicted it on a module bigger
    # than the cache. The price: a dead private symbol's body is walked once more than before.
    private: list[tuple[Operation, str, bool]] = []
    live_refs: list[str] = []
    refs_of: dict[str, list[str]] = {}
    refs: list[str] = []
    tables: list[Operation] = []  # nested symbol tables
    for op in body:
        if op._has_symbol_table:
            tables.append(op)
        name = get_symbol_name(op)
        if name is None:
            _refs(op, live_refs)
            continue
        duplicate = name in pending
        if get_symbol_visibility(op) == "public":
            _refs(op, live_refs)
            if not duplicate:
                pending[name] = None
        else:
            private.append((op, name, duplicate))
            if not duplicate:
                pending[name] = op
                _refs(op, refs)
                if refs:
                    refs_of[name] = refs
                    refs = []
    get = pending.get
    stack = live_refs
    while stack:
        n = stack.pop()
        if get(n) is not None:
            pending[n] = None
            more = refs_of.get(n)
            if more:
                stack.extend(more)
    erased = 0
    for op, name, duplicate in private:
        if duplicate or pending[name] is op:
            op.erase(drop_uses=True)
            erased += 1
    for op in tables:
        if op.parent is not None:  # not erased above
            erased += symbol_dce(op)
    return erased


class SymbolDCEPass(Pass):
    """Eliminate dead symbols: private symbols not reachable from public ones or code."""

    name = "symbol-dce"
    num_dce = Statistic("num-dce'd", "Number of symbols DCE'd")

    def run(self, op: Operation, ctx: PassContext) -> None:
        if not op._has_symbol_table:
            ctx.error(f"symbol-dce expects a symbol table op, got '{op.name}'", op)
            return
        self.num_dce += symbol_dce(op)
