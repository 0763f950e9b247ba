"""`reconcile-unrealized-casts`: fold chains of `builtin.unrealized_conversion_cast` that convert
values back to their original types, and erase the casts left unused."""

from __future__ import annotations

from mlc.ir.core import Operation, Value
from mlc.pass_manager import Pass, PassContext, Statistic
from mlc.rewrite.conversion import CAST_OP_NAME


def _input_cast(cast: Operation) -> Operation | None:
    """The cast op that defines all of `cast`'s inputs, in order (else None)."""
    operands = cast._operands
    if not operands:
        return None
    first = operands[0].value.defining_op()
    if first is None or first.name != CAST_OP_NAME or len(first.results) != len(operands):
        return None
    for u, r in zip(operands, first.results):
        if u.value is not r:
            return None
    return first


def _collect_casts(op: Operation, out: list[Operation]) -> None:
    """The casts nested in `op` (and `op` itself), in post-order like `walk`, without a
    generator per op with regions."""
    for region in op.regions:
        for block in region.blocks:
            child = block.first
            while child is not None:
                if child.regions:
                    _collect_casts(child, out)
                elif child.name == CAST_OP_NAME:
                    out.append(child)
                child = child.next
    if op.name == CAST_OP_NAME:
        out.append(op)


def reconcile_unrealized_casts(root: Operation) -> tuple[int, int]:
    """Replace casts that round-trip to the original types; erase dead casts.

    Returns (casts folded, casts erased). Casts that do not cancel out are kept.
    """
    casts: list[Operation] = []
    _collect_casts(root, casts)
    folded = 0
    for cast in casts:
        if cast.parent is None:
            continue
        want = [r.type for r in cast.results]
        # Identity cast.
        inputs: list[Value] = [u.value for u in cast._operands]
        if [v.type for v in inputs] == want:
            cast.replace_all_uses_with(inputs)
            folded += 1
            continue
        # Walk up the chain of casts looking for the original values.
        cur = _input_cast(cast)
        seen = set()
        while cur is not None and cur not in seen:
            seen.add(cur)
            ins = [u.value for u in cur._operands]
            if [v.type for v in ins] == want:
                cast.replace_all_uses_with(ins)
                folded += 1
                break
            cur = _input_cast(cur)
    # Erase dead casts, following chains upwards.
    erased = 0
    worklist = [c for c in casts if c.parent is not None]
    while worklist:
        cast = worklist.pop()
        if cast.parent is None or cast.has_uses():
            continue
        defs = [u.value.defining_op() for u in cast._operands]
        cast.erase()
        erased += 1
        for d in defs:
            if d is not None and d.name == CAST_OP_NAME:
                worklist.append(d)
    return folded, erased


class ReconcileUnrealizedCastsPass(Pass):
    """Simplify and eliminate unrealized conversion casts that cancel out."""

    name = "reconcile-unrealized-casts"
    num_folded = Statistic("num-folded", "Number of cast chains folded")
    num_erased = Statistic("num-erased", "Number of casts erased")

    def run(self, op: Operation, ctx: PassContext) -> None:
        folded, erased = reconcile_unrealized_casts(op)
        self.num_folded += folded
        self.num_erased += erased
