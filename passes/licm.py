"""`loop-invariant-code-motion`: hoist pure, loop-invariant ops out of loop-like ops.

Generic over `LoopLikeOpInterface` (mlc.interfaces): any loop op implementing it (affine.for,
scf.for, ...) gets LICM without this pass knowing it. Inner loops are processed first, so code
can move out of a whole nest.
"""

from __future__ import annotations

from typing import Any

from mlc.interfaces import is_memory_effect_free, is_speculatable, loop_like
from mlc.ir.core import Operation
from mlc.pass_manager import Pass, PassContext, Statistic


def _uses_only_outside(op: Operation, loop: Any) -> bool:
    """Every value `op` (and its regions) uses is defined outside the loop or inside `op`."""
    for u in op._operands:
        if not loop.is_defined_outside_of_loop(u.value):
            return False
    if op.regions:
        for nested in op.walk(post_order=False):
            if nested is op:
                continue
            for u in nested._operands:
                v = u.value
                block = v.parent_block()
                owner = block.parent_op if block is not None else None
                if owner is not None and op.is_ancestor(owner):
                    continue
                if not loop.is_defined_outside_of_loop(v):
                    return False
    return True


def move_loop_invariant_code(loop_op: Operation) -> int:
    """Hoist the invariant, speculatable, effect-free ops of one loop; return how many moved."""
    loop = loop_like(loop_op)
    if loop is None:
        return 0
    moved = 0
    for region in loop.loop_regions():
        worklist = [op for block in region.blocks for op in block]
        in_region = set(worklist)
        i = 0
        while i < len(worklist):
            op = worklist[i]
            i += 1
            if op.parent is None or op.parent.parent is not region or type(op)._is_terminator:
                continue
            if not (
                _uses_only_outside(op, loop) and is_memory_effect_free(op) and is_speculatable(op)
            ):
                continue
            loop.move_out_of_loop(op)
            moved += 1
            # Users in this region may have become invariant.
            for r in op.results:
                for user in r.users:
                    if (
                        user in in_region
                        and user.parent is not None
                        and user.parent.parent is region
                    ):
                        worklist.append(user)
    return moved


class LoopInvariantCodeMotionPass(Pass):
    """Hoist loop-invariant, side-effect-free, speculatable ops out of loops."""

    name = "loop-invariant-code-motion"
    num_hoisted = Statistic("num-hoisted", "Number of ops hoisted out of loops")

    def run(self, op: Operation, ctx: PassContext) -> None:
        loops: list[Operation] = []
        _collect_loops(op, loops)
        for loop in loops:
            self.num_hoisted += move_loop_invariant_code(loop)


def _collect_loops(op: Operation, out: list[Operation]) -> None:
    """The loop-like ops nested in `op`, inner loops before outer ones (post-order). Only ops
    with regions can be loops: the others are passed over without an interface query."""
    for region in op.regions:
        for block in region.blocks:
            child = block.first
            while child is not None:
                if child.regions:
                    _collect_loops(child, out)
                    if loop_like(child) is not None:
                        out.append(child)
                child = child.next
