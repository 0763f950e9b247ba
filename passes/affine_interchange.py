"""`affine-interchange`: permute perfect affine.for nests when the dependences allow it, with a
per-nest `order` knob (a permutation) defaulting to a stride/locality heuristic.

    affine.for %j = 0 to 64 {              affine.for %i = 0 to 64 {
      affine.for %i = 0 to 64 {      ==>     affine.for %j = 0 to 64 {
        ... %A[%i, %j] ...                     ... %A[%i, %j] ...
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from mlc.dialects import affine as AF
from mlc.passes.affine_dependence import (
    DependenceInfo,
    is_perfect_nest,
    nest_of,
    permutation_violation,
    touches_thread_loop,
)

from mlc.ir.core import Operation
from mlc.knobs import Permutation
from mlc.pass_manager import KnobDecl, Pass, PassContext, Statistic

MAX_DEPTH = 6  # deeper nests: only the outermost MAX_DEPTH loops are permuted
_EXHAUSTIVE_DEPTH = 4  # up to this depth every permutation is ranked by the cost model
_STRIDED = 8  # cost of an access that jumps in memory from one innermost iteration to the next


def innermost_cost(nest: Sequence[Operation], k: int, info: DependenceInfo) -> int:
    """Cost of running `nest[k]` innermost: per access, 0 when it does not move with the loop
    (register reuse), 1 when it moves by one element of its last dimension (contiguous),
    _STRIDED otherwise; an access of unknown subscripts counts as strided."""
    iv = nest[k].induction_var
    cost = 0
    for acc in info.accesses:
        if acc.subs is None or any(s is None for s in acc.subs):
            cost += _STRIDED
            continue
        coeffs = [s[0].get(iv, 0) for s in acc.subs]  # type: ignore[index]
        if not any(coeffs):
            continue
        last = coeffs[-1] * nest[k].step_value
        cost += 1 if abs(last) <= acc.widths[-1] and not any(coeffs[:-1]) else _STRIDED
    return cost


def order_cost(nest: Sequence[Operation], perm: Sequence[int], info: DependenceInfo,
               costs: list[int]) -> tuple:  # fmt: skip
    """Rank of an order: innermost loop cost first, then the next inner ones, then distance
    from the original order (prefer fewer moves)."""
    inner_first = tuple(costs[p] for p in reversed(perm))
    moved = sum(1 for k, p in enumerate(perm) if k != p)
    return (*inner_first, moved)


def default_order(nest: Sequence[Operation], info: DependenceInfo) -> tuple[int, ...]:
    """The best-ranked legal order (identity when nothing better is legal)."""
    n = len(nest)
    costs = [innermost_cost(nest, k, info) for k in range(n)]
    identity = tuple(range(n))
    if n <= _EXHAUSTIVE_DEPTH:
        candidates = sorted(
            itertools.permutations(range(n)), key=lambda p: order_cost(nest, p, info, costs)
        )
    else:  # loops sorted by cost, cheapest innermost; ties keep their order
        ranked = sorted(range(n), key=lambda k: (-costs[k], k))
        candidates = [tuple(ranked)]
    for perm in candidates:
        if perm == identity:
            return identity
        if permutation_violation(nest, perm, info) is None:
            return tuple(perm)
    return identity


def permute_nest(nest: Sequence[Operation], perm: Sequence[int]) -> list[Operation]:
    """Re-nest the perfect nest so position k holds `nest[perm[k]]` (loops keep their bounds,
    ivs and attributes; the innermost body moves to the new innermost loop)."""
    n = len(nest)
    outer = nest[0]
    parent = outer.parent
    body = nest[-1].regions[0].blocks[0]
    ops = [o for o in body if type(o) is not AF.YieldOp]
    for o in ops:
        o.detach()
    for lp in nest[1:]:
        lp.detach()
    new = [nest[p] for p in perm]
    if new[0] is not outer:
        parent.insert_before(new[0], outer)  # type: ignore[union-attr]
        outer.detach()
    for a, b in zip(new, new[1:]):
        blk = a.regions[0].blocks[0]
        blk.insert_before(b, blk.last)
    inner = new[-1].regions[0].blocks[0]
    for o in ops:
        inner.insert_before(o, inner.last)
    assert len(new) == n
    return new


class AffineInterchangePass(Pass):
    """Permute perfectly nested affine.for loops (per-nest `order` knob, legality-checked).

    For each perfect nest of at least two affine.for loops (rectangular: no bound uses an
    iv of the nest; no iter_args), the `order` knob (a permutation: new position k runs old
    loop order[k]) at the outermost loop picks the order. Its default comes from a locality
    model: the loop whose iterations move the fewest accesses by more than one element goes
    innermost (reduction and parallel dims alike; legality decides). A permutation is applied
    only when every dependence keeps its direction (DependenceInfo); an illegal configured
    order is not applied and a warning says which dependence it would reverse.
    """

    name = "affine-interchange"
    anchor = "func.func"
    knobs = (KnobDecl("order", "perm", "Loop order of this nest (new position k: old loop)"),)
    num_interchanged = Statistic("num-interchanged", "Number of nests permuted")

    def run(self, op: Operation, ctx: PassContext) -> None:
        for nest in _nests(op):
            if touches_thread_loop(nest[0]):
                continue
            info = DependenceInfo(nest[0])
            if info.opaque:
                continue
            default = default_order(nest, info)
            perm = ctx.knob(nest[0], "order", Permutation(len(nest)), default)
            perm = tuple(perm)
            if perm == tuple(range(len(nest))):
                continue
            why = permutation_violation(nest, perm, info)
            if why is not None:
                ctx.warning(f"affine-interchange: loop order {list(perm)} not applied: {why}",
                            nest[0])  # fmt: skip
                continue
            permute_nest(nest, perm)
            self.num_interchanged += 1


def _nests(op: Operation) -> list[list[Operation]]:
    """Maximal perfect, rectangular affine.for nests of depth >= 2 (outermost first)."""
    out: list[list[Operation]] = []

    def visit(o: Operation) -> None:
        for region in o.regions:
            for block in region.blocks:
                for child in list(block):
                    if type(child) is not AF.ForOp:
                        visit(child)
                        continue
                    nest = nest_of(child)[:MAX_DEPTH]
                    while len(nest) >= 2 and (
                        not is_perfect_nest(nest) or any(lp.results for lp in nest)
                    ):
                        nest = nest[:-1]
                    if len(nest) >= 2 and _rectangular(nest):
                        out.append(nest)
                    visit(nest[-1])

    visit(op)
    return out


def _rectangular(nest: Sequence[Operation]) -> bool:
    ivs = {lp.induction_var for lp in nest}
    return not any(u.value in ivs for lp in nest for u in lp._operands)


__all__ = ["AffineInterchangePass", "default_order", "innermost_cost", "permute_nest"]
