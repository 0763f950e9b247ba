"""`affine-unroll` (alias `affine-loop-unroll`) and `affine-unroll-jam` (alias
`affine-loop-unroll-jam`): unroll affine.for loops by a per-loop `factor` knob, with a cleanup
loop for the iterations left over (constant, dynamic or `min` trip counts).

    affine.for %i = 0 to %n {           affine.for %i = 0 to #split()[%n] step 4 { 4 copies }
      body(%i)                   ==>    affine.for %i = #split()[%n] to %n { body(%i) }
    }
"""

from __future__ import annotations

from collections.abc import Sequence

from mlc.dialects import affine as AF
from mlc.dialects import affine_ops as AO
from mlc.dialects.arith import ConstantOp
from mlc.passes.affine_dependence import DependenceInfo

from mlc.interfaces import is_memory_effect_free
from mlc.ir.affine import AffineExpr, AffineMap, dim, sym
from mlc.ir.core import Operation, Value
from mlc.knobs import Choice
from mlc.pass_manager import KnobDecl, Option, Pass, PassContext, Statistic

_SMALL_FACTORS = (1, 2, 3, 4, 5, 6, 7, 8, 16, 32)
MAX_FULL_UNROLL = 256


# ---------------------------------------------------------------------------------------------
# Trip counts and bounds


def _linear(e: AffineExpr, num_dims: int, operands: Sequence[Value]) -> dict | None:
    """`e` as {operand or 1: coefficient} (None when not a sum of scaled operands)."""
    from mlc.ir.affine import AffineBinaryExpr, AffineConstantExpr, AffineDimExpr

    t = type(e)
    if t is AffineConstantExpr:
        return {1: e.value}
    if t is AffineDimExpr:
        return {operands[e.position]: 1}
    if t is not AffineBinaryExpr:
        return {operands[num_dims + e.position]: 1}  # a symbol
    lhs = _linear(e.lhs, num_dims, operands)
    rhs = _linear(e.rhs, num_dims, operands)
    if lhs is None or rhs is None:
        return None
    if e.kind == "add":
        out = dict(lhs)
        for k, c in rhs.items():
            out[k] = out.get(k, 0) + c
        return out
    if e.kind == "mul" and set(rhs) <= {1}:
        return {k: c * rhs.get(1, 0) for k, c in lhs.items()}
    return None


def trip_count(loop: Operation) -> int | None:
    """The loop's trip count when it is a constant: constant bounds, or single-result bounds
    whose difference is constant (`%t to %t + 32`)."""
    t = loop.constant_trip_count()
    if t is not None:
        return t
    lb_map, ub_map = loop.lower_bound_map, loop.upper_bound_map
    if lb_map.num_results != 1 or ub_map.num_results != 1:
        return None
    lb = _linear(lb_map.results[0], lb_map.num_dims, list(loop.lowerBoundOperands))
    ub = _linear(ub_map.results[0], ub_map.num_dims, list(loop.upperBoundOperands))
    if lb is None or ub is None:
        return None
    diff = dict(ub)
    for k, c in lb.items():
        diff[k] = diff.get(k, 0) - c
    if any(c for k, c in diff.items() if k != 1):
        return None
    span = diff.get(1, 0)
    step = loop.step_value
    return 0 if span <= 0 else (span + step - 1) // step


def _split_bound(loop: Operation, factor: int, trip: int | None) -> tuple[AffineMap, list] | None:
    """The bound (map, operands) where the unrolled main loop stops: lb + the largest multiple
    of factor*step iterations within the loop's range; None when not expressible (a lower
    bound with several results, or an upper bound with several results and no constant trip
    count)."""
    lb_map, ub_map = loop.lower_bound_map, loop.upper_bound_map
    if lb_map.num_results != 1:
        return None
    step = loop.step_value
    lb_ops = list(loop.lowerBoundOperands)
    lb_e = lb_map.results[0]
    if trip is not None:
        return AffineMap(
            lb_map.num_dims, lb_map.num_symbols, (lb_e + (trip - trip % factor) * step,)
        ), lb_ops
    if ub_map.num_results != 1:
        return None
    nd1, ns1 = lb_map.num_dims, lb_map.num_symbols
    nd2, ns2 = ub_map.num_dims, ub_map.num_symbols
    ub_e = ub_map.replace_dims_and_symbols(
        [dim(nd1 + k) for k in range(nd2)], [sym(ns1 + k) for k in range(ns2)], nd1 + nd2, ns1 + ns2
    ).results[0]
    lb_e = lb_map.replace_dims_and_symbols(
        [dim(k) for k in range(nd1)], [sym(k) for k in range(ns1)], nd1 + nd2, ns1 + ns2
    ).results[0]
    split = lb_e + (((ub_e - lb_e).ceildiv(step)).floordiv(factor)) * (factor * step)
    ub_ops = list(loop.upperBoundOperands)
    operands = [*lb_ops[:nd1], *ub_ops[:nd2], *lb_ops[nd1:], *ub_ops[nd2:]]
    return AffineMap(nd1 + nd2, ns1 + ns2, (split,)), operands


def factor_domain(trip: int | None) -> Choice:
    """Unroll factors: 1 (none), small factors below the trip count, and the trip count itself
    (full unrolling) when it is at most MAX_FULL_UNROLL."""
    if trip is None:
        return Choice(*_SMALL_FACTORS)
    vals = {f for f in _SMALL_FACTORS if f <= max(trip, 1)}
    if 1 <= trip <= MAX_FULL_UNROLL:
        vals.add(trip)
    return Choice(*sorted(vals))


# ---------------------------------------------------------------------------------------------
# The transformations


def _shifted_iv(iv: Value, offset: int, before: Operation) -> Value:
    """`affine.apply (d0) -> (d0 + offset)(iv)` inserted before `before`."""
    apply = AO.ApplyOp.build_apply(AffineMap(1, 0, (dim(0) + offset,)), [iv], before.location)
    before.parent.insert_before(apply, before)  # type: ignore[union-attr]
    return apply.results[0]


def _make_main_loop(loop: Operation, bound: tuple[AffineMap, list], factor: int) -> Operation:
    """A loop with the original lower bound, upper bound `bound`, step factor*step and the
    original inits, placed before `loop`; its body is empty but for the yield (no iter_args)."""
    main = AF.ForOp.build_for(
        (loop.lower_bound_map, list(loop.lowerBoundOperands)),
        bound,
        loop.step_value * factor,
        iter_args=list(loop.inits),
        location=loop.location,
    )
    for key, value in (loop._attrs or {}).items():
        if key not in ("lowerBoundMap", "upperBoundMap", "step", "operandSegmentSizes"):
            main.set_attr(key, value)
    loop.parent.insert_before(main, loop)
    return main


_Bound = tuple[AffineMap, list]  # the main loop's upper bound map and its operands


def _finish(loop: Operation, main: Operation, bound: _Bound, trip: int | None,
            factor: int) -> None:  # fmt: skip
    """Keep `loop` as the cleanup loop from `bound`, or drop it when nothing is left over."""
    if trip is not None and trip % factor == 0:
        for r, new in zip(loop.results, main.results):
            r.replace_all_uses_with(new)
        loop.erase()
        return
    loop.set_lower_bound(*bound)
    if loop.inits:
        lb_ops, ub_ops = list(loop.lowerBoundOperands), list(loop.upperBoundOperands)
        loop.set_operands([*lb_ops, *ub_ops, *main.results])
    promote_single_iteration(loop)


def _main_loop_for(
    loop: Operation, factor: int
) -> tuple[Operation, int, _Bound, int | None] | None:
    """The (empty) main loop of an unrolling of `loop` by `factor` (clamped to a known trip
    count) before `loop`, which stays as the cleanup loop; None when there is nothing to
    unroll or the bounds cannot be split (see _split_bound)."""
    trip = trip_count(loop)
    if factor <= 1 or trip == 0:
        return None
    factor = min(factor, trip) if trip is not None else factor
    bound = _split_bound(loop, factor, trip)
    if bound is None:
        return None
    return _make_main_loop(loop, bound, factor), factor, bound, trip


def _complete(
    loop: Operation, main: Operation, bound: _Bound, trip: int | None, factor: int
) -> Operation:
    """Finish an unrolling begun by _main_loop_for once `main`'s body is built."""
    _finish(loop, main, bound, trip, factor)
    if trip is not None and trip // factor == 1:
        promote_single_iteration(main)
    return main


def unroll_by_factor(loop: Operation, factor: int) -> Operation | None:
    """Unroll `loop` by `factor` (the body repeated with iv, iv+step, ...; iter_args chained),
    leaving the original loop as the cleanup loop for the remaining iterations. Returns the
    main loop, or None when the bounds cannot be split (see _split_bound)."""
    made = _main_loop_for(loop, factor)
    if made is None:
        return None
    main, factor, bound, trip = made
    old = loop.regions[0].blocks[0]
    new = main.regions[0].blocks[0]
    old_yield = old.last
    if not loop.inits:
        new_yield = new.last
    else:
        new_yield = AF.YieldOp.create([], [], None, location=loop.location)
        new.append(new_yield)
    carried = list(new.arguments[1:])
    step = loop.step_value
    for r in range(factor):
        iv = new.arguments[0] if r == 0 else _shifted_iv(new.arguments[0], r * step, new_yield)
        mapping: dict = {old.arguments[0]: iv}
        for a, v in zip(old.arguments[1:], carried):
            mapping[a] = v
        for op in old:
            if op is old_yield:
                break
            new.insert_before(op.clone(mapping), new_yield)
        carried = [mapping.get(u.value, u.value) for u in old_yield._operands]
    new_yield.set_operands(carried)
    return _complete(loop, main, bound, trip, factor)


def promote_single_iteration(loop: Operation) -> bool:
    """Inline the body of a loop that runs exactly once (iv = its lower bound)."""
    if trip_count(loop) != 1 or loop.lower_bound_map.num_results != 1:
        return False
    block = loop.regions[0].blocks[0]
    lb = loop.constant_lower_bound()
    if lb is not None:
        c = ConstantOp.from_int(lb)
        loop.parent.insert_before(c, loop)
        iv = c.results[0]
    else:
        apply = AO.ApplyOp.build_apply(
            loop.lower_bound_map, list(loop.lowerBoundOperands), loop.location
        )
        loop.parent.insert_before(apply, loop)
        iv = apply.results[0]
    block.arguments[0].replace_all_uses_with(iv)
    for a, init in zip(block.arguments[1:], loop.inits):
        a.replace_all_uses_with(init)
    term = block.last
    yielded = [u.value for u in term._operands]
    term.erase()
    while block.first is not None:
        op = block.first.detach()
        loop.parent.insert_before(op, loop)
    for r, v in zip(loop.results, yielded):
        r.replace_all_uses_with(v)
    loop.erase()
    return True


def unroll_jam_by_factor(loop: Operation, factor: int) -> Operation | None:
    """Unroll `loop` by `factor` and jam the copies of its one inner affine.for: the inner
    loop's body holds the `factor` copies. The body of `loop` must be effect-free ops around
    one inner loop without results whose bounds do not use `loop`'s iv, and `loop` must have
    no iter_args. Returns the main loop, or None when not applicable."""
    inner = jam_target(loop)
    made = None if inner is None else _main_loop_for(loop, factor)
    if made is None:
        return None
    main, factor, bound, trip = made
    old = loop.regions[0].blocks[0]
    new = main.regions[0].blocks[0]
    new_yield = new.last
    step = loop.step_value
    mappings: list[dict] = [{old.arguments[0]: new.arguments[0]} for _ in range(factor)]
    jammed_inner: Operation | None = None
    for op in old:
        if type(op) is AF.YieldOp:
            break
        if op is not inner:
            for r in range(factor):
                if r and old.arguments[0] in [u.value for u in _all_operands(op)]:
                    _ensure_iv(mappings[r], old.arguments[0], new.arguments[0], r * step, new_yield)
                new.insert_before(op.clone(mappings[r]), new_yield)
            continue
        jammed_inner = AF.ForOp.build_for(
            (inner.lower_bound_map, [mappings[0].get(v, v) for v in inner.lowerBoundOperands]),
            (inner.upper_bound_map, [mappings[0].get(v, v) for v in inner.upperBoundOperands]),
            inner.step_value,
            location=inner.location,
        )
        new.insert_before(jammed_inner, new_yield)
        ib = inner.regions[0].blocks[0]
        jb = jammed_inner.regions[0].blocks[0]
        for r in range(factor):
            m = mappings[r]
            m[ib.arguments[0]] = jb.arguments[0]
            if r:
                _ensure_iv(m, old.arguments[0], new.arguments[0], r * step, jb.last)
            for child in ib:
                if type(child) is AF.YieldOp:
                    break
                jb.insert_before(child.clone(m), jb.last)
    return _complete(loop, main, bound, trip, factor)


def _all_operands(op: Operation) -> list:
    return [u for o in op.walk() for u in o._operands]


def _ensure_iv(mapping: dict, old_iv: Value, new_iv: Value, offset: int, before: Operation) -> None:
    """Map the old iv to `new_iv + offset`, materialized before `before` (once per block)."""
    key = ("shifted", before.parent)
    if mapping.get(key) is None:
        mapping[key] = _shifted_iv(new_iv, offset, before)
    mapping[old_iv] = mapping[key]


def jam_target(loop: Operation) -> Operation | None:
    """The one inner affine.for that unroll-and-jam of `loop` would jam, or None."""
    if type(loop) is not AF.ForOp or loop.results:
        return None
    inner = None
    for op in loop.regions[0].blocks[0]:
        if type(op) is AF.YieldOp:
            continue
        if type(op) is AF.ForOp:
            if inner is not None or op.results:
                return None
            if not all(_defined_outside(u.value, loop) for u in op._operands):
                return None
            inner = op
        elif op.regions or not is_memory_effect_free(op):
            return None
    return inner


def _defined_outside(v: Value, loop: Operation) -> bool:
    owner = v.defining_op() if v.defining_op() is not None else v.parent_block().parent_op
    return owner is None or not loop.is_ancestor(owner)


def _innermost_loops(op: Operation) -> list[Operation]:
    out = []
    for o in op.walk():
        if type(o) is AF.ForOp and not any(
            type(c) in (AF.ForOp, AF.ParallelOp) for c in o.walk() if c is not o
        ):
            out.append(o)
    return out


class AffineUnrollPass(Pass):
    """Unroll innermost affine.for loops (per-loop `factor` knob; cleanup loop for the rest).

    Each innermost affine.for is unrolled by its `factor` knob (default: `unroll-factor`, or
    its trip count with `unroll-full` or when it is at most `unroll-full-threshold`): the
    body is repeated `factor` times in a loop with `factor` times the step (iter_args
    chained through the copies), and the original loop runs the remaining iterations from
    the split point (`lb + ((ub - lb) ceildiv step floordiv factor) * factor * step` for
    dynamic bounds; no cleanup loop when the factor divides a constant trip count). A loop
    left with a single iteration is inlined. Bounds with several results (max/min) are
    supported when the trip count is constant; otherwise the loop is left alone.
    """

    name = "affine-unroll"
    anchor = "func.func"
    unroll_factor = Option(int, 4, "Unroll factor for all loops (default of the knob)")
    unroll_full = Option(bool, False, "Fully unroll loops with a constant trip count")
    unroll_full_threshold = Option(int, 0, "Fully unroll loops with a trip count up to this")
    knobs = (KnobDecl("factor", "choice", "Unroll factor of this loop (1: not unrolled)"),)
    num_unrolled = Statistic("num-unrolled", "Number of loops unrolled")

    def run(self, op: Operation, ctx: PassContext) -> None:
        if self.unroll_factor < 1 or self.unroll_full_threshold < 0:
            ctx.error("affine-unroll: unroll-factor must be >= 1, the threshold >= 0", op)
            return
        for loop in _innermost_loops(op):
            trip = trip_count(loop)
            if trip == 0 or (self.unroll_full and trip is None):
                continue  # full unrolling needs a constant trip count (as in MLIR)
            default = self.unroll_factor
            if trip is not None and (
                (self.unroll_full or trip <= self.unroll_full_threshold) and trip <= MAX_FULL_UNROLL
            ):
                default = trip
            domain = factor_domain(trip)
            if not domain.contains(default):
                default = max(v for v in domain.values() if v <= default)
            if trip is None and _split_bound(loop, 2, None) is None:
                continue  # cannot split: no knob to offer
            factor = ctx.knob(loop, "factor", domain, default)
            if unroll_by_factor(loop, factor) is not None:
                self.num_unrolled += 1


class AffineLoopUnrollPass(AffineUnrollPass):
    """Unroll innermost affine.for loops (MLIR's name for `affine-unroll`).

    The same pass as `affine-unroll`.
    """

    name = "affine-loop-unroll"


class AffineUnrollJamPass(Pass):
    """Unroll-and-jam affine.for loops around one inner loop (per-loop `jam_factor` knob).

    For each outermost affine.for whose body is effect-free ops around exactly one inner
    affine.for (bounds independent of the outer iv, no iter_args), the outer loop is unrolled
    by its `jam_factor` knob (default `unroll-jam-factor`) and the copies of the inner loop's
    body are jammed into one inner loop; a cleanup loop runs the remaining iterations as for
    `affine-unroll`. The jam is applied only when the dependences allow moving the unrolled
    iterations inside the inner loop (the interchange of the two loops is legal).
    """

    name = "affine-unroll-jam"
    anchor = "func.func"
    unroll_jam_factor = Option(int, 4, "Unroll-and-jam factor (default of the knob)")
    knobs = (KnobDecl("jam_factor", "choice", "Unroll-and-jam factor of this loop (1: none)"),)
    num_jammed = Statistic("num-jammed", "Number of loops unrolled and jammed")

    def run(self, op: Operation, ctx: PassContext) -> None:
        if self.unroll_jam_factor < 1:
            ctx.error("affine-unroll-jam: unroll-jam-factor must be >= 1", op)
            return
        loops = [o for o in op.walk(post_order=False) if type(o) is AF.ForOp]
        done: set = set()
        for loop in loops:
            if any(a in done for a in _ancestors(loop)) or loop in done:
                continue
            inner = jam_target(loop)
            if inner is None:
                continue
            done.add(loop)
            trip = trip_count(loop)
            if trip == 0 or (trip is None and _split_bound(loop, 2, None) is None):
                continue
            info = DependenceInfo(loop)
            if info.opaque or info.permutation_violation([loop, inner], (1, 0)) is not None:
                continue
            domain = factor_domain(trip)
            default = self.unroll_jam_factor
            if not domain.contains(default):
                default = max(v for v in domain.values() if v <= default)
            factor = ctx.knob(loop, "jam_factor", domain, default)
            if unroll_jam_by_factor(loop, factor) is not None:
                self.num_jammed += 1


class AffineLoopUnrollJamPass(AffineUnrollJamPass):
    """Unroll-and-jam affine.for loops (MLIR's name for `affine-unroll-jam`).

    The same pass as `affine-unroll-jam`.
    """

    name = "affine-loop-unroll-jam"


def _ancestors(op: Operation) -> list[Operation]:
    out = []
    cur = op.parent_op
    while cur is not None:
        out.append(cur)
        cur = cur.parent_op
    return out


__all__ = [
    "AffineUnrollPass",
    "AffineLoopUnrollPass",
    "AffineUnrollJamPass",
    "AffineLoopUnrollJamPass",
    "factor_domain",
    "promote_single_iteration",
    "trip_count",
    "unroll_by_factor",
    "unroll_jam_by_factor",
]
