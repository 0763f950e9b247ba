"""`symbol-privatize`: make the top-level public symbols private (except those excluded)."""

from __future__ import annotations

from mlc.ir.core import Operation
from mlc.ir.symbols import get_symbol_name, get_symbol_visibility, set_symbol_visibility
from mlc.pass_manager import ListOption, Pass, PassContext, Statistic


class SymbolPrivatizePass(Pass):
    """Mark symbols private: every public symbol directly in the symbol table, except `exclude`."""

    name = "symbol-privatize"
    exclude = ListOption(str, (), "Symbols to keep public")
    num_privatized = Statistic("num-privatized", "Number of symbols made private")

    def run(self, op: Operation, ctx: PassContext) -> None:
        if not op._has_symbol_table:
            ctx.error(f"symbol-privatize expects a symbol table op, got '{op.name}'", op)
            return
        exclude = set(self.exclude)
        for region in op.regions:
            for block in region.blocks:
                for child in block:
                    name = get_symbol_name(child)
                    if name is None or name in exclude:
                        continue
                    if get_symbol_visibility(child) == "public":
                        set_symbol_visibility(child, "private")
                        self.num_privatized += 1
