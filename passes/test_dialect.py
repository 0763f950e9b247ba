"""`ptest`: a tiny dialect for the lit tests of generic passes: a loop-like op, memory reads and
writes, and branches (for multi-block regions). mlc-opt makes it loadable; nothing else uses it.

    "ptest.loop"() ({
    ^bb0(%i: index):
      %v = "ptest.load"(%p) : (i32) -> i32
      "ptest.store"(%v) : (i32) -> ()
      "ptest.yield"() : () -> ()
    }) : () -> ()
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mlc.interfaces import (
    READ,
    WRITE,
    BranchOpInterface,
    EffectInstance,
    LoopLikeOpInterface,
    MemoryEffectsOpInterface,
)
from mlc.ir import attributes as A
from mlc.ir.context import Dialect
from mlc.ir.opdef import (
    AnyType,
    BoolLike,
    Op,
    Pure,
    RecursiveMemoryEffects,
    Terminator,
    operand,
    region,
    result,
    successor,
    var_operand,
)


class LoopOp(Op, LoopLikeOpInterface):
    """A loop whose single-block body takes an `index` induction variable."""

    name = "ptest.loop"
    traits = (RecursiveMemoryEffects,)
    body = region()

    def induction_vars(self) -> Sequence[Any]:
        blocks = self.regions[0].blocks
        return blocks[0].arguments if blocks else ()


class YieldOp(Op):
    """Ends a loop body."""

    name = "ptest.yield"
    traits = (Pure, Terminator)


class LoadOp(Op, MemoryEffectsOpInterface):
    """Reads the resource its operand names."""

    name = "ptest.load"
    ref = operand(AnyType)
    res = result(AnyType)

    def get_effects(self) -> list[EffectInstance]:
        return [EffectInstance(READ, self.operand(0))]


class StoreOp(Op, MemoryEffectsOpInterface):
    """Writes the resource its operand names."""

    name = "ptest.store"
    ref = operand(AnyType)

    def get_effects(self) -> list[EffectInstance]:
        return [EffectInstance(WRITE, self.operand(0))]


class BrOp(Op, BranchOpInterface):
    """Unconditional branch forwarding its operands."""

    name = "ptest.br"
    traits = (Pure, Terminator)
    args = var_operand(AnyType)
    dest = successor()

    def successor_operands(self, index: int) -> Sequence[Any]:
        return self.op_operands


class CondBrOp(Op):
    """Two-way branch on an i1; folds to `ptest.br` when the condition is constant."""

    name = "ptest.cond_br"
    traits = (Pure, Terminator)
    cond = operand(BoolLike)
    then_dest = successor()
    else_dest = successor()

    @staticmethod
    def canonicalize(op: Any, rewriter: Any) -> bool:
        c = op.operand(0).defining_op()
        value = c.get_attr("value") if c is not None and c.name == "arith.constant" else None
        if type(value) is not A.IntegerAttr:
            return False
        dest = op.successors[0] if value.value else op.successors[1]
        rewriter.set_insertion_point_before(op)
        rewriter.insert(BrOp.create([], [], None, (), [dest], op.location))
        rewriter.erase_op(op)
        return True


DIALECT = Dialect("ptest", ops=[LoopOp, YieldOp, LoadOp, StoreOp, BrOp, CondBrOp])
