"""Insertion points and the builder that creates ops at them (MLIR's OpBuilder).

b = Builder.at_end(func_body)
c = b.create(ConstantOp, [], [i32], {"value": IntegerAttr(1, i32)})
with b.at(InsertionPoint.before(c)):
    b.create(OtherOp, ...)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from mlc.ir.core import Block, IRError, Operation, Region, UnregisteredOp

if TYPE_CHECKING:
    from mlc.ir.attributes import Attribute, Location, Type

__all__ = ["InsertionPoint", "Builder"]


class InsertionPoint:
    """A place in a block: before op `anchor`, or at the block's end when `anchor` is None.

    Ops inserted one after another at the same point come out in insertion order, as in MLIR.
    """

    __slots__ = ("block", "anchor")

    def __init__(self, block: Block, anchor: Operation | None = None) -> None:
        if anchor is not None and anchor.parent is not block:
            raise IRError("insertion point op is not in the given block")
        self.block = block
        self.anchor = anchor

    @classmethod
    def at_end(cls, block: Block) -> InsertionPoint:
        return cls(block, None)

    @classmethod
    def at_start(cls, block: Block) -> InsertionPoint:
        return cls(block, block.first)

    @classmethod
    def before(cls, op: Operation) -> InsertionPoint:
        block = op.parent
        if block is None:
            raise IRError(f"'{op.name}' is not in a block")
        return cls(block, op)

    @classmethod
    def after(cls, op: Operation) -> InsertionPoint:
        block = op.parent
        if block is None:
            raise IRError(f"'{op.name}' is not in a block")
        return cls(block, op.next)

    @classmethod
    def before_terminator(cls, block: Block) -> InsertionPoint:
        """Before the block's terminator, or at its end if it has none."""
        return cls(block, block.terminator)

    def insert(self, op: Operation) -> Operation:
        """Insert detached `op` here (O(1))."""
        anchor = self.anchor
        if anchor is None:
            return self.block.append(op)
        return self.block.insert_before(op, anchor)

    def __repr__(self) -> str:
        where = "end" if self.anchor is None else f"before '{self.anchor.name}'"
        return f"<InsertionPoint at {where} of {self.block!r}>"


class Builder:
    """Creates ops at an insertion point. Subclasses (the rewriter) override `insert` to observe.

    `location` is used for ops created without one.
    """

    __slots__ = ("ip", "location")

    def __init__(self, ip: InsertionPoint | None = None, location: Location | None = None) -> None:
        self.ip = ip
        self.location = location

    @classmethod
    def at_end(cls, block: Block, location: Location | None = None) -> Builder:
        return cls(InsertionPoint(block, None), location)

    @classmethod
    def at_start(cls, block: Block, location: Location | None = None) -> Builder:
        return cls(InsertionPoint(block, block.first), location)

    @classmethod
    def before(cls, op: Operation, location: Location | None = None) -> Builder:
        return cls(InsertionPoint.before(op), location)

    @classmethod
    def after(cls, op: Operation, location: Location | None = None) -> Builder:
        return cls(InsertionPoint.after(op), location)

    # -- the insertion point --------------------------------------------------------------------

    def set_insertion_point(self, ip: InsertionPoint | None) -> None:
        self.ip = ip

    def set_insertion_point_to_end(self, block: Block) -> None:
        self.ip = InsertionPoint(block, None)

    def set_insertion_point_to_start(self, block: Block) -> None:
        self.ip = InsertionPoint(block, block.first)

    def set_insertion_point_before(self, op: Operation) -> None:
        self.ip = InsertionPoint.before(op)

    def set_insertion_point_after(self, op: Operation) -> None:
        self.ip = InsertionPoint.after(op)

    @property
    def block(self) -> Block | None:
        """The block ops are inserted into (None without an insertion point)."""
        ip = self.ip
        return None if ip is None else ip.block

    @contextmanager
    def at(self, ip: InsertionPoint | Block | None) -> Iterator[Builder]:
        """Temporarily insert at `ip` (a block means its end); restores the previous point."""
        saved = self.ip
        self.ip = InsertionPoint(ip, None) if type(ip) is Block else ip  # type: ignore[arg-type]
        try:
            yield self
        finally:
            self.ip = saved

    # -- creating ops ---------------------------------------------------------------------------

    def insert(self, op: Operation) -> Operation:
        """Insert detached `op` at the insertion point (a no-op without one) and return it."""
        ip = self.ip
        if ip is not None:
            anchor = ip.anchor
            if anchor is None:
                ip.block.append(op)
            else:
                ip.block.insert_before(op, anchor)
        return op

    def create(
        self,
        op_class: type[Operation],
        operands: Sequence[Any] = (),
        result_types: Sequence[Any] | None = None,
        attributes: dict[str, Attribute] | None = None,
        regions: Sequence[Region] | int | None = None,
        successors: Sequence[Block] = (),
        location: Location | None = None,
    ) -> Operation:
        """Build an op with `op_class.build(...)` (grouped operands, inferred result types ...)
        and insert it."""
        if location is None:
            location = self.location
        op = op_class.build(  # type: ignore[attr-defined]
            operands, result_types, attributes, regions, successors, location
        )
        return self.insert(op)

    def create_unregistered(
        self,
        name: str,
        operands: Sequence[Any] = (),
        result_types: Sequence[Type] = (),
        attributes: dict[str, Attribute] | None = None,
        regions: Sequence[Region] | int = (),
        successors: Sequence[Block] = (),
        location: Location | None = None,
    ) -> Operation:
        """Create and insert an op of an unregistered dialect, named `name`."""
        if location is None:
            location = self.location
        op = UnregisteredOp.create_named(
            name, operands, result_types, attributes, regions, successors, location
        )
        return self.insert(op)

    def clone(self, op: Operation, mapping: dict[Any, Any] | None = None) -> Operation:
        """Insert a deep copy of `op` (operands remapped through `mapping`, which is filled)."""
        return self.insert(op.clone(mapping))

    def create_block(
        self,
        region: Region,
        arg_types: Sequence[Type] = (),
        arg_locs: Sequence[Location] | None = None,
        *,
        insert_before: Block | None = None,
    ) -> Block:
        """Add a block to `region` (at its end, or before `insert_before`) and move the
        insertion point to the new block's end, as MLIR's `createBlock` does."""
        block = Block(arg_types, arg_locs)
        if insert_before is None:
            region.add_block(block)
        else:
            if insert_before.parent is not region:
                raise IRError("insert_before is not a block of the region")
            region.insert_block(region.blocks.index(insert_before), block)
        self.ip = InsertionPoint(block, None)
        return block

    def __repr__(self) -> str:
        return f"<Builder {self.ip!r}>"
