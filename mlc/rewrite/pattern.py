"""Rewrite patterns, the pattern rewriter (all IR changes go through it), frozen pattern sets.

class FoldDoubleNeg(RewritePattern):
    '''neg(neg(x)) -> x'''
    root = NegOp
    def rewrite(self, op, rewriter):
        inner = op.operand(0).defining_op()
        if type(inner) is not NegOp:
            return False
        rewriter.replace_op(op, [inner.operand(0)])
        return True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from mlc.ir.attributes import Location
from mlc.ir.builder import Builder
from mlc.ir.core import Block, IRError, Operation, Region, Value

__all__ = ["RewritePattern", "Listener", "PatternRewriter", "FrozenPatternSet"]


class RewritePattern:
    """A rewrite rooted at an op class (`root`), or at any op (`root = None`).

    `rewrite(op, rewriter)` returns True when it changed the IR (only through `rewriter`) and
    False, without touching the IR, when it does not apply. Higher `benefit` is tried first.
    `root` may also be an op name string (for ops whose class is not importable here).
    """

    root: type[Operation] | str | None = None
    benefit: int = 1
    label: str = ""

    def __init__(
        self, root: type[Operation] | str | None = None, benefit: int | None = None
    ) -> None:
        if root is not None:
            self.root = root
        if benefit is not None:
            self.benefit = benefit

    @property
    def debug_name(self) -> str:
        """The name used to enable/disable the pattern (its `label`, else its class name)."""
        return self.label or type(self).__name__

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        raise NotImplementedError

    def __repr__(self) -> str:
        root = self.root if isinstance(self.root, str) or self.root is None else self.root.name
        return f"<{self.debug_name} on {root or 'any op'} benefit {self.benefit}>"


class _MethodPattern(RewritePattern):
    """Wraps an op class's `canonicalize(self, rewriter) -> bool` method as a pattern."""

    def __init__(self, cls: type[Operation]) -> None:
        super().__init__(cls)
        self.label = f"{cls.__name__}.canonicalize"
        self._fn = cls.canonicalize  # type: ignore[attr-defined]

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        return bool(self._fn(op, rewriter))


class Listener:
    """Observer of rewriter changes (the greedy driver keeps its worklist with these)."""

    def notify_op_inserted(self, op: Operation) -> None:
        pass

    def notify_op_modified(self, op: Operation) -> None:
        pass

    def notify_op_replaced(self, op: Operation, values: Sequence[Value]) -> None:
        pass

    def notify_op_erased(self, op: Operation) -> None:
        pass

    def notify_block_erased(self, block: Block) -> None:
        pass

    def notify_match_failure(self, op: Operation, reason: str) -> None:
        pass


_NULL_LISTENER = Listener()


class PatternRewriter(Builder):
    """A Builder that also replaces, erases, moves and modifies IR, telling its listener about
    every change (the greedy driver keeps its worklist from these notifications).

    `create(OpClass, operands, result_types=None, ...)` builds through `OpClass.build`
    (inferred result types, grouped variadic operands) at the insertion point.
    """

    __slots__ = ("listener",)

    def __init__(self, listener: Listener | None = None, location: Location | None = None) -> None:
        super().__init__(None, location)
        self.listener: Listener = listener if listener is not None else _NULL_LISTENER

    def insert(self, op: Operation) -> Operation:
        """Insert detached `op` at the insertion point and notify the listener."""
        ip = self.ip
        if ip is None:
            raise IRError("the rewriter has no insertion point")
        anchor = ip.anchor
        if anchor is None:
            ip.block.append(op)
        else:
            ip.block.insert_before(op, anchor)
        self._notify_inserted(op)
        return op

    def _notify_inserted(self, op: Operation) -> None:
        listener = self.listener
        if listener is _NULL_LISTENER:
            return
        listener.notify_op_inserted(op)
        if op.regions:
            for region in op.regions:
                for nested in region.walk(post_order=False):
                    listener.notify_op_inserted(nested)

    # -- replacing and erasing ------------------------------------------------------------------

    def replace_all_uses_with(self, old: Value, new: Value) -> None:
        """Redirect all uses of `old` to `new`, notifying each user as modified."""
        listener = self.listener
        if listener is not _NULL_LISTENER:
            for user in old.users:
                listener.notify_op_modified(user)
        old.replace_all_uses_with(new)

    def replace_uses_with_if(self, old: Value, new: Value, pred: Callable[[Any], bool]) -> None:
        for use in list(old.uses):
            if pred(use):
                use.set(new)
                self.listener.notify_op_modified(use.owner)

    def replace_op(self, op: Operation, values: Sequence[Value] | Operation) -> None:
        """Replace `op`'s results by `values` (or another op's results) and erase `op`."""
        if isinstance(values, Operation):
            values = values.results
        results = op.results
        if len(values) != len(results):
            raise IRError(
                f"replacing '{op.name}' with {len(values)} values for {len(results)} results"
            )
        self.listener.notify_op_replaced(op, values)
        for r, v in zip(results, values):
            if r._first_use is not None:
                self.replace_all_uses_with(r, v)
        self.erase_op(op)

    def replace_op_with_new(
        self, op: Operation, op_class: type[Operation], *args: Any, **kwargs: Any
    ) -> Operation:
        """`create(op_class, *args, **kwargs)` before `op`, replacing `op` with it."""
        self.set_insertion_point_before(op)
        new = self.create(op_class, *args, **kwargs)
        self.replace_op(op, new.results)
        return new

    def erase_op(self, op: Operation) -> None:
        """Erase `op` (its results must be unused) and everything nested in it."""
        if op.has_uses():
            raise IRError(f"cannot erase '{op.name}': its results still have uses")
        listener = self.listener
        if listener is not _NULL_LISTENER:
            # Nested ops first (post-order), as MLIR notifies.
            for region in op.regions:
                for nested in region.walk(post_order=True):
                    listener.notify_op_erased(nested)
            listener.notify_op_erased(op)
        op.detach()
        op.drop_all_references()

    def erase_block(self, block: Block) -> None:
        """Erase `block` and its ops; uses of its values must be inside it or gone."""
        listener = self.listener
        if listener is not _NULL_LISTENER:
            for op in block.reversed():
                for region in op.regions:
                    for nested in region.walk(post_order=True):
                        listener.notify_op_erased(nested)
                listener.notify_op_erased(op)
            listener.notify_block_erased(block)
        block.erase()

    # -- moving and modifying in place ----------------------------------------------------------

    def modify_op_in_place(self, op: Operation, fn: Callable[[], Any] | None = None) -> None:
        """Run `fn` (which changes `op`'s operands/attributes) and notify; or just notify."""
        if fn is not None:
            fn()
        self.listener.notify_op_modified(op)

    def move_op_before(self, op: Operation, anchor: Operation) -> None:
        op.move_before(anchor)
        self.listener.notify_op_modified(op)

    def move_op_after(self, op: Operation, anchor: Operation) -> None:
        op.move_after(anchor)
        self.listener.notify_op_modified(op)

    def inline_block_before(
        self,
        source: Block,
        anchor: Operation | None,
        args: Sequence[Value] = (),
        dest: Block | None = None,
    ) -> None:
        """Move `source`'s ops before `anchor` (or to the end of `dest`), its arguments replaced
        by `args`, and erase the emptied `source` block."""
        if len(args) != len(source.arguments):
            raise IRError(
                f"inlining a block of {len(source.arguments)} arguments with {len(args)} values"
            )
        for arg, value in zip(source.arguments, args):
            self.replace_all_uses_with(arg, value)
        target = anchor.parent if anchor is not None else dest
        if target is None:
            raise IRError("inline_block_before needs an anchor op or a destination block")
        op = source.first
        while op is not None:
            nxt = op.next
            op.detach()
            if anchor is None:
                target.append(op)
            else:
                target.insert_before(op, anchor)
            self.listener.notify_op_modified(op)
            op = nxt
        if source.parent is not None:
            source.parent.blocks.remove(source)
            source.parent = None

    def merge_blocks(self, source: Block, dest: Block, args: Sequence[Value] = ()) -> None:
        """Append `source`'s ops to `dest` (arguments replaced by `args`); erase `source`."""
        self.inline_block_before(source, None, args, dest)

    def inline_region_before(
        self, region: Region, dest_region: Region, before: Block | None = None
    ) -> None:
        """Move all blocks of `region` into `dest_region` before block `before` (or at the end)."""
        index = len(dest_region.blocks) if before is None else dest_region.blocks.index(before)
        blocks = list(region.blocks)
        region.blocks = []
        for b in blocks:
            b.parent = None
            dest_region.insert_block(index, b)
            index += 1
            for op in b:
                self.listener.notify_op_modified(op)

    def split_block(self, block: Block, before: Operation) -> Block:
        """Split `block` before `before`; the tail goes into a new block right after it."""
        return block.split_before(before)

    def notify_match_failure(self, op: Operation, reason: str) -> bool:
        """Record why a pattern did not apply (shown in debug output); returns False."""
        self.listener.notify_match_failure(op, reason)
        return False


# ---------------------------------------------------------------------------------------------
# Frozen pattern sets


def _instantiate(p: Any) -> RewritePattern:
    if isinstance(p, type):
        return p()  # type: ignore[no-any-return]
    return p  # type: ignore[no-any-return]


class FrozenPatternSet:
    """Patterns indexed by root op class once; `patterns_for(op)` is one dict lookup.

    Within a root, patterns are ordered by descending benefit (stable: insertion order breaks
    ties); any-op patterns are merged into each root's list by benefit.
    """

    __slots__ = ("patterns", "_by_class", "_by_name", "_generic", "_cache")

    def __init__(
        self,
        patterns: Iterable[RewritePattern | type[RewritePattern]] = (),
        *,
        disabled: Iterable[str] = (),
        enabled: Iterable[str] = (),
    ) -> None:
        disabled_set = set(disabled)
        enabled_set = set(enabled)
        pats: list[RewritePattern] = []
        for p in patterns:
            pat = _instantiate(p)
            name = pat.debug_name
            if name in disabled_set or (enabled_set and name not in enabled_set):
                continue
            pats.append(pat)
        self.patterns: tuple[RewritePattern, ...] = tuple(pats)
        self._by_class: dict[type, list[tuple[int, int, RewritePattern]]] = {}
        self._by_name: dict[str, list[tuple[int, int, RewritePattern]]] = {}
        self._generic: list[tuple[int, int, RewritePattern]] = []
        for i, pat in enumerate(pats):
            entry = (-pat.benefit, i, pat)
            root = pat.root
            if root is None:
                self._generic.append(entry)
            elif isinstance(root, str):
                self._by_name.setdefault(root, []).append(entry)
            else:
                self._by_class.setdefault(root, []).append(entry)
        self._cache: dict[Any, tuple[RewritePattern, ...]] = {}

    def patterns_for(self, op: Operation) -> tuple[RewritePattern, ...]:
        """The patterns that may match `op`, best first."""
        cls = type(op)
        key: Any = cls if cls._is_registered else op.name
        try:
            return self._cache[key]
        except KeyError:
            pass
        entries = list(self._generic)
        entries += self._by_name.get(op.name, ())
        if cls._is_registered:
            for klass in cls.__mro__:
                entries += self._by_class.get(klass, ())
        entries.sort(key=lambda e: (e[0], e[1]))
        result = tuple(e[2] for e in entries)
        self._cache[key] = result
        return result

    def __len__(self) -> int:
        return len(self.patterns)

    def __iter__(self) -> Any:
        return iter(self.patterns)

    @staticmethod
    def canonicalization(
        ctx: Any = None, *, disabled: Iterable[str] = (), enabled: Iterable[str] = ()
    ) -> FrozenPatternSet:
        """Every canonicalization pattern of the dialects registered in `ctx` (default context):
        op classes' `canonicalization_patterns`, `canonicalize` methods, and dialect-wide ones."""
        from mlc.ir.context import default_context

        ctx = ctx if ctx is not None else default_context()
        patterns: list[Any] = []
        for dialect in ctx.load_all():
            for cls in dialect.ops.values():
                for p in getattr(cls, "canonicalization_patterns", ()):
                    pat = _instantiate(p)
                    if pat.root is None:
                        # Declared on the op: rooted there unless it says otherwise.
                        pat = _rooted_copy(pat, cls)
                    patterns.append(pat)
                if callable(cls.__dict__.get("canonicalize")):
                    patterns.append(_MethodPattern(cls))
            patterns.extend(_instantiate(p) for p in dialect.canonicalization_patterns)
        return FrozenPatternSet(patterns, disabled=disabled, enabled=enabled)


def _rooted_copy(pat: RewritePattern, cls: type) -> RewritePattern:
    import copy

    new = copy.copy(pat)
    new.root = cls
    return new
