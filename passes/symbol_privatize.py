"""`symbol-privatize`: make the top-level public symbols private (except those excluded)."""

from __future__ import annotations

from mlc.ir.attributes import StringAttr
from mlc.ir.core import Operation
from mlc.ir.symbols import PRIVATE, PUBLIC, SYM_NAME, SYM_VISIBILITY
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
        private = StringAttr(PRIVATE)
        n = 0
        for region in op.regions:
            for block in region.blocks:
                child = block.first
                while child is not None:
                    # get_symbol_name / get_symbol_visibility / set_symbol_visibility, inlined:
                    # one attribute dict read per op and no per-op attribute construction.
                    attrs = child._attrs
                    if attrs is not None and type(attrs.get(SYM_NAME)) is StringAttr:
                        vis = attrs.get(SYM_VISIBILITY)
                        if vis is None:
                            vis = type(child)._prop_defaults.get(SYM_VISIBILITY)
                        if (type(vis) is not StringAttr or vis.value == PUBLIC) and not (
                            exclude and attrs[SYM_NAME].value in exclude
                        ):
                            attrs[SYM_VISIBILITY] = private
                            n += 1
                    child = child.next
        self.num_privatized += n
