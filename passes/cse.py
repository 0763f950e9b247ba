"""`cse`: common subexpression elimination, scoped by dominance and regions.

An op is replaced by an earlier equivalent one (same op, operands, attributes, result types)
that dominates it. Effect-free ops are eligible everywhere; ops that only read memory are
eligible within a block when no op that may write lies between them. Isolated-from-above ops
start a fresh scope.
"""

from __future__ import annotations

from typing import Any

from mlc.interfaces import (
    _NO_EFFECT,
    _PURE,
    _UNKNOWN,
    _effect_kind,
    get_effects,
    is_memory_effect_free,
    would_op_be_trivially_dead,
)
from mlc.ir.core import Block, Operation, Region
from mlc.pass_manager import Pass, PassContext, Statistic


def _dominator_children(region: Region) -> dict[Block, list[Block]]:
    """The dominator tree of a region's CFG (Cooper, Harvey, Kennedy), as children lists."""
    blocks = region.blocks
    entry = blocks[0]
    # Reverse post-order from the entry.
    order: list[Block] = []
    seen = {entry}
    stack: list[tuple[Block, int]] = [(entry, 0)]
    while stack:
        b, i = stack.pop()
        succs = b.last.successors if b.last is not None else ()
        if i < len(succs):
            stack.append((b, i + 1))
            s = succs[i]
            if s not in seen:
                seen.add(s)
                stack.append((s, 0))
        else:
            order.append(b)
    order.reverse()
    number = {b: i for i, b in enumerate(order)}
    preds: dict[Block, list[Block]] = {b: [] for b in order}
    for b in order:
        if b.last is not None:
            for s in b.last.successors:
                if s in preds:
                    preds[s].append(b)
    idom: dict[Block, Block] = {entry: entry}
    changed = True
    while changed:
        changed = False
        for b in order[1:]:
            new = None
            for p in preds[b]:
                if p not in idom:
                    continue
                if new is None:
                    new = p
                    continue
                x, y = p, new
                while x is not y:
                    while number[x] > number[y]:
                        x = idom[x]
                    while number[y] > number[x]:
                        y = idom[y]
                new = x
            if new is not None and idom.get(b) is not new:
                idom[b] = new
                changed = True
    children: dict[Block, list[Block]] = {b: [] for b in order}
    for b in order[1:]:
        if b in idom:
            children[idom[b]].append(b)
    return children


class _CSE:
    """The scoped hash table is one dict of keys inserted in the enclosing scopes plus an undo
    list: a scope is a mark in the list, and leaving it deletes the keys inserted since (keys
    are only inserted when absent, so undoing is a deletion). An isolated-from-above op starts
    a fresh table."""

    __slots__ = ("num_cse", "num_dce", "infos")

    def __init__(self) -> None:
        self.num_cse = 0
        self.num_dce = 0
        self.infos: dict[type, tuple[int, Any]] = {}

    def run_on(self, op: Operation) -> None:
        table: dict[Any, Operation] = {}
        undo: list[Any] = []
        for region in op.regions:
            self.region(region, table, undo)

    def region(self, region: Region, table: dict[Any, Operation], undo: list[Any]) -> None:
        blocks = region.blocks
        if not blocks:
            return
        if len(blocks) == 1:
            mark = len(undo)
            self.block(blocks[0], table, undo)
            if len(undo) > mark:
                for key in undo[mark:]:
                    del table[key]
                del undo[mark:]
            return
        children = _dominator_children(region)
        # Walk the dominator tree depth-first; each block's scope holds its dominators' ops.
        stack: list[tuple[Block, int, bool]] = [(blocks[0], 0, False)]
        while stack:
            b, mark, done = stack.pop()
            if done:
                for key in undo[mark:]:
                    del table[key]
                del undo[mark:]
                continue
            mark = len(undo)
            self.block(b, table, undo)
            stack.append((b, mark, True))
            for c in reversed(children.get(b, ())):
                stack.append((c, 0, False))

    @staticmethod
    def _kind(op: Operation) -> int:
        """0: not eligible, 1: effect-free, 2: only reads (eligible within a write-free span)."""
        if op.regions or op.successors or type(op)._is_terminator:
            return 0
        effects = get_effects(op)
        if effects is None:
            return 0
        if not effects:
            return 1
        return 2 if all(e.kind == "read" for e in effects) else 0

    def _class_info(self, op: Operation) -> tuple[int, Any]:
        """(kind, name) of `op`'s class: the eligibility of an op of this class without regions
        or successors (see `_kind`; -1: ask `_kind` per op), and the key's name (the class when
        registered)."""
        cls = type(op)
        ek = _effect_kind(op)
        if cls._is_terminator or ek == _UNKNOWN:
            kind = 0
        elif ek == _PURE or ek == _NO_EFFECT:
            kind = 1
        else:
            kind = -1
        info = (kind, cls if cls._is_registered else op.name)
        if cls._is_registered:
            self.infos[cls] = info
        return info

    def block(self, block: Block, table: dict[Any, Operation], undo: list[Any]) -> None:
        lookup = table.get
        infos = self.infos
        reads: dict[Any, Operation] | None = None
        op = block.first
        while op is not None:
            nxt = op.next
            results = op.results
            # Already dead: erase (MLIR's CSE does the same).
            if results:
                for r in results:
                    if r._first_use is not None:
                        break
                else:
                    if would_op_be_trivially_dead(op):
                        op.erase()
                        self.num_dce += 1
                        op = nxt
                        continue
            info = infos.get(type(op))
            if info is None:
                info = self._class_info(op)
            kind, name = info
            regions = op.regions
            if kind and (regions or op.successors):
                kind = 0
            elif kind < 0:
                kind = self._kind(op)
            if kind:
                attrs = op._attrs
                if attrs:
                    akey: Any = (
                        tuple(attrs.items()) if len(attrs) == 1 else frozenset(attrs.items())
                    )
                else:
                    akey = None
                operands = op._operands
                # One flat tuple: fewer allocations than nested ones, which matters for the GC
                # on big modules. The common shapes are spelled out; the general one carries the
                # operand count (an int, never equal to a Value) to keep the shapes apart.
                n = len(operands)
                if len(results) == 1 and n < 3:
                    if n == 2:
                        key = (name, akey, operands[0].value, operands[1].value, results[0].type)
                    elif n == 1:
                        key = (name, akey, operands[0].value, results[0].type)
                    else:
                        key = (name, akey, results[0].type)
                else:
                    key = (
                        name,
                        akey,
                        n,
                        *[u.value for u in operands],
                        *[r.type for r in results],
                    )
                if kind == 1:
                    existing = lookup(key)
                    if existing is None:
                        table[key] = op
                        undo.append(key)
                        op = nxt
                        continue
                else:
                    if reads is None:
                        reads = {}
                    existing = reads.get(key)
                    if existing is None:
                        reads[key] = op
                        op = nxt
                        continue
                for r, e in zip(results, existing.results):
                    r.replace_all_uses_with(e)
                op.erase()
                self.num_cse += 1
            else:
                if regions:
                    if op._is_isolated:
                        # A fresh scope: nothing defined outside is visible inside.
                        if len(regions) == 1 and len(regions[0].blocks) == 1:
                            self.block(regions[0].blocks[0], {}, [])
                        else:
                            self.run_on(op)
                    else:
                        for region in regions:
                            self.region(region, table, undo)
                # Anything that may write ends the span in which reads can be reused.
                if reads and not is_memory_effect_free(op):
                    effects = get_effects(op)
                    if effects is None or any(e.kind != "read" for e in effects):
                        reads.clear()
            op = nxt


def cse(op: Operation) -> tuple[int, int]:
    """Run CSE on the regions of `op`; return (ops CSE'd, dead ops erased)."""
    driver = _CSE()
    driver.run_on(op)
    return driver.num_cse, driver.num_dce


class CSEPass(Pass):
    """Eliminate common subexpressions (dominance- and region-scoped, effect-aware)."""

    name = "cse"
    num_cse = Statistic("num-cse'd", "Number of operations CSE'd")
    num_dce = Statistic("num-dce'd", "Number of operations DCE'd")

    def run(self, op: Operation, ctx: PassContext) -> None:
        n_cse, n_dce = cse(op)
        self.num_cse += n_cse
        self.num_dce += n_dce
