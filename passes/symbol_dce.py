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
    symbols: dict[str, Operation] = {}
    # Top-level symbols of the processed table: public ones are live; `nested` visibility is
    # private here (nothing outside this table can see it). Ops that are not symbols are live.
    live_ops: list[Operation] = []
    private: list[Operation] = []
    for op in body:
        name = get_symbol_name(op)
        if name is None:
            live_ops.append(op)
            continue
        symbols.setdefault(name, op)
        if get_symbol_visibility(op) == "public":
            live_ops.append(op)
        else:
            private.append(op)
    live = {id(op) for op in live_ops}
    worklist = live_ops
    names: list[str] = []
    while worklist:
        op = worklist.pop()
        _refs(op, names)
        for n in names:
            target = symbols.get(n)
            if target is not None and id(target) not in live:
                live.add(id(target))
                worklist.append(target)
        names.clear()
    erased = 0
    for op in private:
        if id(op) not in live:
            op.erase(drop_uses=True)
            erased += 1
    for op in body:
        if op._has_symbol_table and op is not table_op:
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
