"""The greedy pattern driver: a worklist of ops, folding, constant materialization, dead-op erasure.

Ops are visited from a worklist (seeded once from the IR, then fed by rewriter notifications),
so the cost is proportional to the IR plus the work the rewrites cause, never a rescan of the
module per rewrite. Each op is, in order: erased if trivially dead; deduplicated and hoisted if a
constant; folded (`op.fold(operand_attrs)`, constants materialized through the dialect's
`materialize_constant`); rewritten by the best matching pattern.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from mlc.interfaces import _NO_EFFECT, _PURE, _effect_kind, would_op_be_trivially_dead
from mlc.ir.builder import InsertionPoint
from mlc.ir.core import Block, Operation, OpResult, Region, Value
from mlc.ir.opdef import ConstantLike, Symbol
from mlc.rewrite.pattern import FrozenPatternSet, Listener, PatternRewriter

__all__ = ["GreedyRewriteConfig", "GreedyResult", "apply_patterns_greedily", "OperationFolder"]


class GreedyRewriteConfig:
    """Knobs of the driver (MLIR's GreedyRewriteConfig).

    `max_iterations` bounds the work: the driver stops (not converged) after
    `max_iterations * (ops in scope + 1)` rewrites (one iteration is, on average, one rewrite per
    op), or after `max_iterations` rounds of region simplification. `max_num_rewrites` (>= 0)
    is an absolute cap.
    """

    __slots__ = (
        "max_iterations",
        "max_num_rewrites",
        "top_down",
        "fold",
        "cse_constants",
        "region_simplification",
    )

    def __init__(
        self,
        max_iterations: int = 10,
        max_num_rewrites: int = -1,
        top_down: bool = True,
        fold: bool = True,
        cse_constants: bool = True,
        region_simplification: bool = True,
    ) -> None:
        self.max_iterations = max_iterations
        self.max_num_rewrites = max_num_rewrites
        self.top_down = top_down
        self.fold = fold
        self.cse_constants = cse_constants
        self.region_simplification = region_simplification


class GreedyResult:
    """What a greedy run did."""

    __slots__ = (
        "converged",
        "changed",
        "num_rewrites",
        "num_folds",
        "num_erased",
        "num_blocks_erased",
    )

    def __init__(self) -> None:
        self.converged = True
        self.changed = False
        self.num_rewrites = 0
        self.num_folds = 0
        self.num_erased = 0
        self.num_blocks_erased = 0

    def __bool__(self) -> bool:
        return self.converged

    def __repr__(self) -> str:
        return (
            f"<GreedyResult converged={self.converged} changed={self.changed} "
            f"rewrites={self.num_rewrites} folds={self.num_folds} erased={self.num_erased}>"
        )


_fold_fns: dict[Any, Any] = {}


def _fold_fn(op: Operation) -> Any:
    cls = type(op)
    try:
        return _fold_fns[cls]
    except KeyError:
        fn = getattr(cls, "fold", None) if cls._is_registered else None
        _fold_fns[cls] = fn
        return fn


def _const_attr(value: Value) -> Any:
    op = getattr(value, "op", None)
    if op is None or ConstantLike not in type(op)._traits:
        return None
    return op.get_attr("value")


def _operand_attrs(operands: Sequence[Any]) -> list[Any]:
    """The constant value (attribute) of each operand, None where it is not a constant."""
    attrs = []
    append = attrs.append
    for u in operands:
        v = u.value
        if type(v) is OpResult:
            d = v.op
            if ConstantLike in type(d)._traits:
                a = d._attrs
                append(a.get("value") if a else None)
                continue
        append(None)
    return attrs


class OperationFolder:
    """Folds ops and owns the constants it materializes, one per (scope, dialect, value, type).

    Constants live at the start of the entry block of the nearest isolated-from-above region
    (or of a root region of the driver), so that a reused constant dominates every use.
    """

    __slots__ = ("ctx", "roots", "_table", "_key_of", "_anchor", "_materializers", "push")

    def __init__(self, ctx: Any, roots: Sequence[Region]) -> None:
        self.ctx = ctx
        self.roots = set(roots)
        self._table: dict[tuple, Operation] = {}
        self._key_of: dict[Operation, tuple] = {}
        self._anchor: dict[Block, Operation] = {}
        self._materializers: dict[str, Any] = {}
        # The greedy driver's worklist push, for a materialized constant without regions (else
        # the rewriter's listener is told of the insertion).
        self.push: Any = None

    def scope_block(self, op: Operation) -> Block | None:
        block = op.parent
        if block is None:
            return None
        region = block.parent
        roots = self.roots
        while region is not None:
            parent = region.parent
            if region in roots or parent is None or parent._is_isolated:
                return region.blocks[0] if region.blocks else None
            block = parent.parent
            if block is None:
                return region.blocks[0] if region.blocks else None
            region = block.parent
        return None

    def _insert_front(self, block: Block, op: Operation, rewriter: PatternRewriter | None) -> None:
        """Place `op` at the end of the constant run that starts `block` (moving it if needed)."""
        anchor = self._anchor.get(block)
        if anchor is not None and anchor.parent is not block:
            anchor = None
        if op.parent is block and op.prev is anchor:
            self._anchor[block] = op  # already right after the run
            return
        if op.parent is not None:
            op.detach()
        if anchor is None:
            if block.first is None:
                block.append(op)
            else:
                block.insert_before(op, block.first)
        else:
            block.insert_after(op, anchor)
        self._anchor[block] = op

    def known_constant(self, op: Operation, rewriter: PatternRewriter) -> Operation | None:
        """Register existing constant `op`; return an equal constant it duplicates, if any."""
        if op in self._key_of:
            return None
        block = self.scope_block(op)
        if block is None:
            return None
        attrs = op._attrs
        attr = attrs.get("value") if attrs else None
        if attr is None:
            attr = op.get_attr("value")
        results = op.results
        if attr is None or len(results) != 1:
            return None
        key = (block, op.name.partition(".")[0], attr, results[0].type)
        existing = self._table.get(key)
        if existing is not None and existing is not op:
            return existing
        self._table[key] = op
        self._key_of[op] = key
        self._insert_front(block, op, rewriter)
        return None

    def get_or_create_constant(
        self,
        block: Block,
        dialect_name: str,
        attr: Any,
        type_: Any,
        location: Any,
        rewriter: PatternRewriter,
    ) -> Value | None:
        key = (block, dialect_name, attr, type_)
        existing = self._table.get(key)
        if existing is not None:
            return existing.results[0]
        try:
            materialize = self._materializers[dialect_name]
        except KeyError:
            dialect = self.ctx.get_dialect(dialect_name)
            materialize = (
                getattr(dialect, "materialize_constant", None) if dialect is not None else None
            )
            self._materializers[dialect_name] = materialize
        if materialize is None:
            return None
        cop = materialize(attr, type_, location)
        if cop is None:
            return None
        if cop.parent is not None:
            cop.detach()
        self._insert_front(block, cop, rewriter)
        self._table[key] = cop
        self._key_of[cop] = key
        if self.push is not None and not cop.regions and not cop.successors:
            self.push(cop)
        else:
            rewriter._notify_inserted(cop)
        return cop.results[0] if len(cop.results) == 1 else None

    def forget(self, op: Operation) -> None:
        key = self._key_of.pop(op, None)
        if key is not None and self._table.get(key) is op:
            del self._table[key]
        block = op.parent
        if block is not None and self._anchor.get(block) is op:
            prev = op.prev
            if prev is not None and prev in self._key_of:
                self._anchor[block] = prev
            else:
                del self._anchor[block]


# The driver's one op-keyed table (`_Driver.state`) maps an op to its position in the
# worklist (>= 0), or to one of these marks.
_AHEAD = -1  # a seed op the sweep has not reached yet: pushing it is a no-op
_ERASED = -2  # erased by this run: never pushed again


class _Driver(Listener):
    """The worklist is a stack of ops (None where an entry was erased) and `state`, one dict
    from op to its stack position, `_AHEAD` or `_ERASED`: a push, a pop and an erasure each
    make one lookup in one table. (MLIR keeps the position in the op itself; an op here has no
    slot for it, and a table per fact (position, erased, not reached yet) cost three lookups
    per push in three tables of up to every op.)"""

    __slots__ = (
        "patterns",
        "config",
        "folder",
        "rewriter",
        "worklist",
        "state",
        "result",
        "dirty_regions",
        "roots",
        "_infos",
        "_name_infos",
    )

    def __init__(
        self,
        roots: Sequence[Region],
        patterns: FrozenPatternSet,
        config: GreedyRewriteConfig,
        ctx: Any,
    ) -> None:
        self.patterns = patterns
        self.config = config
        self.roots = list(roots)
        self.folder = OperationFolder(ctx, roots)
        self.folder.push = self.push
        self.rewriter = PatternRewriter(self)
        self.worklist: list[Operation | None] = []
        self.state: dict[Operation, int] = {}
        self.result = GreedyResult()
        self.dirty_regions: set[Region] = set()
        self._infos: dict[type, tuple] = {}
        self._name_infos: dict[str, tuple] = {}

    # -- worklist -------------------------------------------------------------------------------

    def push(self, op: Operation) -> None:
        state = self.state
        if op in state:  # queued, not reached yet, or erased
            return
        worklist = self.worklist
        state[op] = len(worklist)
        worklist.append(op)

    def _mark_cfg(self, op: Operation) -> None:
        if op.successors:
            block = op.parent
            if block is not None and block.parent is not None:
                self.dirty_regions.add(block.parent)

    # -- listener (changes made by patterns through the rewriter) -------------------------------

    def notify_op_inserted(self, op: Operation) -> None:
        self.push(op)
        if op.successors:
            self._mark_cfg(op)

    def notify_op_modified(self, op: Operation) -> None:
        self.push(op)
        if op.successors:
            self._mark_cfg(op)

    def notify_op_erased(self, op: Operation) -> None:
        state = self.state
        worklist = self.worklist
        i = state.get(op)
        if i is not None and i >= 0:
            worklist[i] = None
        state[op] = _ERASED
        if op in self.folder._key_of:
            self.folder.forget(op)
        if op.successors:
            self._mark_cfg(op)
        self.result.num_erased += 1
        # Definers of its operands may become dead.
        for u in op._operands:
            v = u.value
            if type(v) is OpResult:
                d = v.op
                if d not in state:
                    state[d] = len(worklist)
                    worklist.append(d)

    # -- fast paths for the driver's own changes (folds, constants, dead ops) -------------------

    def _erase(self, op: Operation, visiting: bool = False) -> None:
        """Erase `op` (unused) with the bookkeeping of notify_op_erased, without the rewriter.
        `visiting`: `op` is the op the loop just took, so it is not queued."""
        if op.regions or op.successors:
            for region in op.regions:
                for nested in region.walk(post_order=True):
                    self.notify_op_erased(nested)
            self.notify_op_erased(op)
            op.detach()
            op.drop_all_references()
            return
        # notify_op_erased, detach and drop_all_references in one pass over the operands
        # (the common case: no regions, no successors).
        state = self.state
        worklist = self.worklist
        if not visiting:
            i = state.get(op)
            if i is not None and i >= 0:
                worklist[i] = None
        state[op] = _ERASED
        folder = self.folder
        if op in folder._key_of:
            folder.forget(op)
        self.result.num_erased += 1
        op.detach()
        operands = op._operands
        if operands:
            for u in operands:
                v = u.value
                if type(v) is OpResult:
                    d = v.op
                    if d not in state:
                        state[d] = len(worklist)
                        worklist.append(d)
                u._unlink()
            op._operands = ()

    def _replace(self, op: Operation, values: Sequence[Value]) -> None:
        state = self.state
        worklist = self.worklist
        for r, v in zip(op.results, values):
            use = r._first_use
            if use is None:
                continue
            while use is not None:
                user = use.owner
                if user not in state:
                    state[user] = len(worklist)
                    worklist.append(user)
                use = use._next
            r.replace_all_uses_with(v)
        self._erase(op)

    # -- the loop -------------------------------------------------------------------------------

    def seed(self) -> list[Operation]:
        """Every op in the roots, in processing order: pre-order when top-down, else reverse
        post-order (users before definitions). Multi-block regions are marked for region
        simplification."""
        ops: list[Operation] = []
        append = ops.append
        dirty = self.dirty_regions
        top_down = self.config.top_down

        def visit(block: Block) -> None:
            op = block.first
            if top_down:
                while op is not None:
                    append(op)
                    regions = op.regions
                    if regions:
                        for r in regions:
                            if len(r.blocks) > 1:
                                dirty.add(r)
                            for b in r.blocks:
                                visit(b)
                    op = op.next
                return
            while op is not None:
                regions = op.regions
                if regions:
                    for r in regions:
                        if len(r.blocks) > 1:
                            dirty.add(r)
                        for b in r.blocks:
                            visit(b)
                append(op)
                op = op.next

        for region in self.roots:
            if len(region.blocks) > 1:
                dirty.add(region)
            for block in region.blocks:
                visit(block)
        if not top_down:
            ops.reverse()
        return ops

    def run(self) -> GreedyResult:
        seed = self.seed()
        cfg = self.config
        budget = cfg.max_iterations * (len(seed) + 1)
        if cfg.max_num_rewrites >= 0:
            budget = min(budget, cfg.max_num_rewrites)
        result = self.result
        rounds = 0
        while True:
            if not self._drain(budget, seed):
                result.converged = False
                break
            seed = []
            if not cfg.region_simplification or not self.dirty_regions:
                break
            rounds += 1
            if rounds > cfg.max_iterations:
                result.converged = False
                break
            if not self._simplify_regions():
                break
        return result

    def _info(self, op: Operation) -> tuple:
        """What the loop needs to know of `op`'s kind, computed once per op class (per name for
        unregistered ops): (dead, constant, fold function, patterns). `dead` is 0 when an op of
        this kind is never trivially dead (terminators, symbols, unknown effects), 1 when it
        always is once unused (no memory effects), 2 when that depends on the op (effects from
        an interface or from nested ops: ask `would_op_be_trivially_dead`)."""
        cls = type(op)
        registered = cls._is_registered
        if not registered:
            info = self._name_infos.get(op.name)
            if info is not None:
                return info
        traits = cls._traits
        if cls._is_terminator or Symbol in traits:
            dead = 0
        else:
            kind = _effect_kind(op)
            dead = 1 if kind == _PURE or kind == _NO_EFFECT else 2
        fn = _fold_fn(op) if self.config.fold else None
        pats = self.patterns.patterns_for(op)
        info = (dead, ConstantLike in traits, fn, pats)
        if registered:
            self._infos[cls] = info
        else:
            self._name_infos[op.name] = info
        return info

    def _drain(self, budget: int, seed: list[Operation]) -> bool:
        """Visit the seed ops in order; after each, everything its changes queued (a stack,
        so the effects of a rewrite are followed up at once, as MLIR does)."""
        worklist = self.worklist
        state = self.state
        result = self.result
        rewriter = self.rewriter
        infos = self._infos
        cse_constants = self.config.cse_constants
        folder = self.folder
        known = folder._key_of
        changes = result.num_folds + result.num_rewrites
        # Seed ops not visited yet are marked `_AHEAD`: pushing them is a no-op (the sweep will
        # get there), so that, as with MLIR's all-ops-in-the-worklist start, no op is visited
        # twice just because an earlier rewrite touched it. (Only the first drain has a seed,
        # before anything was queued or erased.)
        if seed:
            if state:
                for op in seed:
                    state.setdefault(op, _AHEAD)
            else:
                state.update(dict.fromkeys(seed, _AHEAD))
        pop = state.pop
        it = iter(seed)
        while True:
            if worklist:
                op = worklist.pop()
                if op is None:
                    continue
                del state[op]
            else:
                op = next(it, None)
                if op is None:
                    return True
                if pop(op) == _ERASED:
                    state[op] = _ERASED
                    continue
            if changes >= budget:
                return False  # out of budget with work left: not converged
            if op.parent is None:
                continue  # detached by a rewrite (moved ops are re-inserted before this point)
            info = infos.get(type(op))
            if info is None:
                info = self._info(op)
            dead, constant, fn, pats = info
            # 1. Trivially dead.
            if dead:
                for r in op.results:
                    if r._first_use is not None:
                        break
                else:
                    if dead == 1 or would_op_be_trivially_dead(op):
                        self._erase(op, True)
                        result.changed = True
                        continue
            # 2. Constants: deduplicate and hoist (a constant the folder knows is in place).
            if constant:
                if cse_constants and op not in known:
                    dup = folder.known_constant(op, rewriter)
                    if dup is not None:
                        self._replace(op, dup.results)
                        result.changed = True
                        continue
            # 3. Fold: the operands' constant values, then the op's folder.
            elif fn is not None and op.results:
                operands = op._operands
                if len(operands) == 2:  # the common case, spelled out
                    a0 = a1 = None
                    v = operands[0].value
                    if type(v) is OpResult:
                        d = v.op
                        if ConstantLike in type(d)._traits:
                            a = d._attrs
                            if a:
                                a0 = a.get("value")
                    v = operands[1].value
                    if type(v) is OpResult:
                        d = v.op
                        if ConstantLike in type(d)._traits:
                            a = d._attrs
                            if a:
                                a1 = a.get("value")
                    folded = fn(op, [a0, a1])
                else:
                    folded = fn(op, _operand_attrs(operands))
                if folded is not None and self._apply_fold(op, folded):
                    result.num_folds += 1
                    result.changed = True
                    changes += 1
                    continue
            # 4. Patterns.
            if pats:
                # Every pattern starts before `op`; one that failed without moving the
                # insertion point leaves it so (an InsertionPoint is never changed in place).
                ip = None
                for pat in pats:
                    if ip is None or rewriter.ip is not ip:
                        ip = rewriter.ip = InsertionPoint(op.parent, op)
                    if pat.rewrite(op, rewriter):
                        result.num_rewrites += 1
                        result.changed = True
                        changes += 1
                        break

    def _try_fold(self, op: Operation, fn: Any) -> bool:
        """Fold `op` with its folder `fn`; True when it folded (the IR changed)."""
        if not op.results:
            return False
        folded = fn(op, _operand_attrs(op._operands))
        return folded is not None and self._apply_fold(op, folded)

    def _apply_fold(self, op: Operation, folded: Any) -> bool:
        """Apply what `op`'s folder returned (not None): its own results (folded in place),
        values, or attributes to materialize as constants. False when nothing changed."""
        results = op.results
        if len(results) == 1:
            # The common case, without the list machinery.
            if type(folded) is list or type(folded) is tuple:
                if len(folded) != 1:
                    return False
                folded = folded[0]
            r = results[0]
            if folded is r:
                self._folded_in_place(op)
                return True
            if isinstance(folded, Value):
                self._replace(op, (folded,))
                return True
            block = self.folder.scope_block(op)
            if block is None:
                return False
            v = self.folder.get_or_create_constant(
                block, op.name.partition(".")[0], folded, r.type, op.location, self.rewriter
            )
            if v is None:
                return False
            self._replace(op, (v,))
            return True
        if type(folded) is not list and type(folded) is not tuple:
            return False
        if len(folded) != len(results):
            return False
        own = [f is r for f, r in zip(folded, results)]
        if all(own):
            self._folded_in_place(op)
            return True
        if any(own):
            return False
        values: list[Value] = []
        created: list[Operation] = []
        block = None
        folder = self.folder
        for f, r in zip(folded, results):
            if isinstance(f, Value):
                values.append(f)
                continue
            if block is None:
                block = folder.scope_block(op)
                if block is None:
                    return False
            n_before = len(folder._table)
            v = folder.get_or_create_constant(
                block, op.dialect_name, f, r.type, op.location, self.rewriter
            )
            if v is None:
                for c in created:
                    if not c.has_uses():
                        self._erase(c)
                return False
            if len(folder._table) != n_before:
                created.append(v.op)  # type: ignore[attr-defined]
            values.append(v)
        self._replace(op, values)
        return True

    def _folded_in_place(self, op: Operation) -> None:
        """The op updated its own operands or attributes: revisit it and its users."""
        self.notify_op_modified(op)
        for r in op.results:
            for user in r.users:
                self.push(user)

    def _simplify_regions(self) -> bool:
        """Erase unreachable blocks of the regions whose control flow changed."""
        changed = False
        regions = self.dirty_regions
        self.dirty_regions = set()
        for region in regions:
            blocks = region.blocks
            if len(blocks) <= 1 or self.state.get(region.parent) == _ERASED:
                continue
            reachable = {blocks[0]}
            stack = [blocks[0]]
            while stack:
                b = stack.pop()
                last = b.last
                if last is not None:
                    for s in last.successors:
                        if s not in reachable:
                            reachable.add(s)
                            stack.append(s)
            dead = [b for b in blocks if b not in reachable]
            if not dead:
                continue
            changed = True
            dead_set = set(dead)
            for b in dead:
                for op in b:
                    for nested in op.walk():
                        self.notify_op_erased(nested)
            for b in dead:
                for op in b.reversed():
                    op.drop_all_references()
                for arg in b.arguments:
                    arg._first_use = None
            region.blocks = [b for b in blocks if b not in dead_set]
            for b in dead:
                b.parent = None
            self.result.num_blocks_erased += len(dead)
            # Predecessor blocks' terminators may now be foldable; revisit the survivors' ends.
            for b in region.blocks:
                if b.last is not None:
                    self.push(b.last)
        if changed:
            self.result.changed = True
        return changed


def apply_patterns_greedily(
    target: Operation | Region | Iterable[Region],
    patterns: FrozenPatternSet | Iterable[Any],
    config: GreedyRewriteConfig | None = None,
    *,
    ctx: Any = None,
) -> GreedyResult:
    """Rewrite the ops in `target`'s regions (an op: its regions) to a fixpoint.

    Returns a GreedyResult whose truth value says whether the driver converged.
    """
    if isinstance(target, Operation):
        roots = list(target.regions)
    elif isinstance(target, Region):
        roots = [target]
    else:
        roots = list(target)
    if not isinstance(patterns, FrozenPatternSet):
        patterns = FrozenPatternSet(patterns)
    if ctx is None:
        from mlc.ir.context import default_context

        ctx = default_context()
    driver = _Driver(roots, patterns, config or GreedyRewriteConfig(), ctx)
    return driver.run()
