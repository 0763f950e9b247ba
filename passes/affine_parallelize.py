"""`affine-parallelize`: convert affine.for loops proven parallel into 1-D affine.parallel ops,
and choose, per loop nest, the loop that runs on the thread pool (unit attribute `mlc.parallel`).

    affine.for %i = 0 to %n {               affine.parallel (%i) = (0) to (symbol(%n)) {
      %v = affine.load %A[%i] ...    ==>      ...
    }                                       } {mlc.parallel}
"""

from __future__ import annotations

from mlc.dialects import affine as AF
from mlc.dialects.arith import AtomicRMWKindAttr
from mlc.passes.affine_dependence import (
    REDUCTION_COMBINERS,
    DependenceInfo,
    permutation_violation,
)
from mlc.passes.affine_interchange import permute_nest
from mlc.passes.affine_tile import tile_perfect_nest

from mlc.ir import attributes as A
from mlc.ir.core import Block, Operation, Region
from mlc.knobs import Bool, PowerOfTwo
from mlc.pass_manager import KnobDecl, Option, Pass, PassContext, Statistic

_DYNAMIC_TRIP_GUESS = 4096  # a dynamic trip count is assumed large
MAX_CHUNK = 1 << 16
DEFAULT_CHUNK = 1024  # iterations per parallel iteration of an innermost marked loop
# Unit attribute of a loop nest whose thread count another pass decided (one thread).
SERIAL_ATTR = "mlc.serial"
# On an `mlc.parallel` loop: the smallest iteration range (upper - lower bound) run on the thread
# pool; a smaller one runs the same outlined body on the calling thread (convert-to-llvm).
MIN_EXTENT_ATTR = "mlc.parallel_min_extent"
MAX_MIN_TRIPS = 1 << 30  # the largest `min-trips` knob value
# Work (ops x trips) below which one pool call costs more than it saves: waking a worker and
# the callback into the runtime take about 10-20 us on the 2-core VM, about what 2^19 light
# vectorized ops take on one core (measured on the dynamic 1-D triad, docs/parallelize.md).
RUNTIME_MIN_WORK = 1 << 19


def _i32_tensor(values: list[int]) -> A.DenseElementsAttr:
    return A.DenseElementsAttr(A.RankedTensorType([len(values)], A.i32), values)


def for_to_parallel(loop: Operation, reductions: list[str] | None = None) -> Operation:
    """Replace `loop` by a 1-D affine.parallel with the same bounds, step and body; its
    iter_args become reductions of the given kinds (their inits are combined after the loop)."""
    kinds = reductions or []
    lb_map, ub_map = loop.lower_bound_map, loop.upper_bound_map
    attrs: dict[str, A.Attribute] = {
        "reductions": A.ArrayAttr([AtomicRMWKindAttr.get(k) for k in kinds]),
        "lowerBoundsMap": A.AffineMapAttr(lb_map),
        "lowerBoundsGroups": _i32_tensor([lb_map.num_results]),
        "upperBoundsMap": A.AffineMapAttr(ub_map),
        "upperBoundsGroups": _i32_tensor([ub_map.num_results]),
        "steps": A.ArrayAttr([A.IntegerAttr(loop.step_value, A.i64)]),
    }
    for key, value in (loop._attrs or {}).items():
        if key not in ("lowerBoundMap", "upperBoundMap", "step", "operandSegmentSizes"):
            attrs[key] = value
    operands = [*loop.lowerBoundOperands, *loop.upperBoundOperands]
    types = [r.type for r in loop.results]
    block = Block([A.index])
    par = AF.ParallelOp.create(operands, types, attrs, [Region([block])], location=loop.location)
    old = loop.regions[0].blocks[0]
    old.arguments[0].replace_all_uses_with(block.arguments[0])
    inits = list(loop.inits)
    combiners = []
    for arg in old.arguments[1:]:
        # One iteration yields its combiner's other operand; the parallel op reduces those.
        (use,) = list(arg.uses)
        combiner = use.owner
        other = [u.value for u in combiner._operands if u.value is not arg][0]
        combiner.results[0].replace_all_uses_with(other)
        combiners.append(combiner)
    for combiner in combiners:
        combiner.erase()
    while old.first is not None:
        block.append(old.first.detach())
    loop.parent.insert_before(par, loop)
    results = list(par.results)
    for k, (init, res) in enumerate(zip(inits, par.results)):
        # The loop's inits are combined with the reduced values after the loop.
        results[k] = _create_binary(_COMBINER_OF_KIND[kinds[k]], init, res, par).results[0]
    for r, new in zip(loop.results, results):
        r.replace_all_uses_with(new)
    loop.erase()
    return par


_COMBINER_OF_KIND = {v: k for k, v in REDUCTION_COMBINERS.items()}


def _create_binary(name: str, lhs: object, rhs: object, before: Operation) -> Operation:
    from mlc.ir.context import default_context

    cls = default_context().get_op(name)
    op = cls.create([lhs, rhs], [lhs.type], None, location=before.location)  # type: ignore[attr-defined]
    before.parent.insert_after(op, before)  # type: ignore[union-attr]
    return op


def _reduction_kinds(loop: Operation) -> list[str] | None:
    """The reduction kinds of the loop's iter_args when each is updated by one combiner whose
    result is only yielded, else None."""
    term = loop.regions[0].blocks[0].last
    kinds = []
    for k, arg in enumerate(loop.region_iter_args):
        uses = list(arg.uses)
        if len(uses) != 1:
            return None
        comb = uses[0].owner
        if comb.name not in REDUCTION_COMBINERS or len(comb._operands) != 2:
            return None
        res = comb.results[0]
        if [u.owner for u in res.uses] != [term] or term._operands[k].value is not res:
            return None
        kinds.append(REDUCTION_COMBINERS[comb.name])
    return kinds


def _parallel_depth(op: Operation) -> int:
    depth = 0
    cur = op.parent_op
    while cur is not None:
        if type(cur) is AF.ParallelOp:
            depth += 1
        cur = cur.parent_op
    return depth


def _work(op: Operation) -> int:
    """Estimated body executions x ops below `op` (dynamic trip counts guessed)."""
    total = 0
    for region in op.regions:
        for block in region.blocks:
            for child in block:
                total += _work(child) if child.regions else 1
    return total * _trip(op) if type(op) in (AF.ForOp, AF.ParallelOp) else total


def _trip(op: Operation) -> int:
    if type(op) is AF.ForOp:
        t = op.constant_trip_count()
        return _DYNAMIC_TRIP_GUESS if t is None else t
    lb, ub = op.lower_bounds_map, op.upper_bounds_map
    n = 1
    for k, s in enumerate(op.step_values):
        if lb.num_results == len(op.step_values) and ub.num_results == len(op.step_values):
            lo, hi = lb.results[k], ub.results[k]
            if hasattr(lo, "value") and hasattr(hi, "value"):
                n *= max(0, -(-(hi.value - lo.value) // s))
                continue
        n *= _DYNAMIC_TRIP_GUESS
    return n


def _dynamic_step(op: Operation, outer: Operation) -> int | None:
    """The step of the 1-D loop `op` when its trip count is dynamic, its bounds are single
    expressions and their operands are defined outside `outer` (so the trip count can be
    tested where the thread-pool loop ends up, hoisted out of `outer`'s nest at most); else
    None."""
    if type(op) is AF.ForOp:
        if op.constant_trip_count() is not None:
            return None
        bounds = [
            (op.lower_bound_map, op.lowerBoundOperands),
            (op.upper_bound_map, op.upperBoundOperands),
        ]
        step = op.step_value
    elif type(op) is AF.ParallelOp and len(op.step_values) == 1:
        bounds = [
            (op.lower_bounds_map, op.lower_bounds_operands),
            (op.upper_bounds_map, op.upper_bounds_operands),
        ]
        step = op.step_values[0]
    else:
        return None
    if any(amap.num_results != 1 for amap, _ in bounds):
        return None
    if all(hasattr(amap.results[0], "value") for amap, _ in bounds):
        return None  # constant bounds
    for _, operands in bounds:
        for v in operands:
            block = v.parent_block()
            cur = block.parent_op if block is not None else None
            while cur is not None:
                if cur is outer:
                    return None  # the bound depends on a value of the nest
                cur = cur.parent_op
    return step


def _hoist_chain(loop: Operation) -> list[Operation]:
    """The loops `loop` is perfectly nested in (outermost first, `loop` last) when moving it
    outermost is legal, else `[loop]`."""
    chain = [loop]
    while True:
        parent = chain[0].parent_op
        if type(parent) is not AF.ForOp or parent.results:
            break
        body = [o for o in parent.regions[0].blocks[0] if type(o) is not AF.YieldOp]
        if body != [chain[0]]:
            break
        chain.insert(0, parent)
    if len(chain) == 1:
        return chain
    perm = (len(chain) - 1, *range(len(chain) - 1))
    return chain if permutation_violation(chain, perm) is None else [loop]


def _hoist_outermost(loop: Operation) -> bool:
    """Move `loop` outside the sequential loops it is perfectly nested in, when the
    dependences allow it (one thread-pool call for the nest instead of one per iteration of
    the outer loops: a column reduction runs over column chunks in parallel)."""
    chain = _hoist_chain(loop)
    if len(chain) == 1:
        return False
    permute_nest(chain, (len(chain) - 1, *range(len(chain) - 1)))
    return True


class AffineParallelizePass(Pass):
    """Convert parallel affine.for loops to affine.parallel; pick the loops run on threads.

    Like MLIR's pass, every affine.for that carries no dependence (DependenceInfo) becomes a
    1-D affine.parallel, outermost first, up to `max-nested` nested parallel ops; with
    `parallel-reductions`, loops whose iter_args are reductions (arith.addf, maximumf, ...)
    become affine.parallel ops with `reduce` (those run sequentially: never split over
    threads, so results stay deterministic). With `threads-only`, only the loops chosen for
    the thread pool are converted (others stay affine.for, for affine-vectorize).

    Before that conversion, in each loop nest without an `mlc.parallel` loop, the outermost
    result-less parallel loops are offered to the thread pool: knob `threads` (bool, at that loop;
    default: when the estimated work of one pool call is at least `min-work` and the trip
    count is at least 2) marks the loop `mlc.parallel` (convert-to-llvm runs it through
    `mlc_parallel_for`); a refused loop passes the offer to the parallel loops inside it.
    A loop whose trip count is dynamic (single-expression bounds whose operands are defined
    outside its nest) is instead decided at run time: its `threads` default is yes, and knob
    `min-trips` (power of two; default: the trips that give one pool call `runtime-min-work`,
    rounded up) is recorded on the marked loop as `mlc.parallel_min_extent` (the smallest
    upper - lower bound run on the pool, (min-trips - 1) * step + 1): convert-to-llvm tests it
    at run time and calls the loop's outlined body on the calling thread below it, so a small
    call never pays for the pool and the nest is compiled once (min-trips 1 or 2: no test; the
    pool runs a 1-trip loop on the caller).
    Only one loop per path is marked, so parallelism never nests; ops carrying the unit
    attribute `mlc.serial` are never offered (a pass that planned their threads chose one).
    Knob `chunk` (power of two, innermost marked loops only; default 1024) strip-mines the
    marked loop so each parallel iteration runs that many consecutive iterations in an inner
    affine.for. Knob `hoist` (default: yes) moves a marked affine.for (or its chunk loop)
    outside the sequential loops it is perfectly nested in, when the dependences allow the
    interchange.
    """

    name = "affine-parallelize"
    anchor = "func.func"
    max_nested = Option(int, 2**31 - 1, "Maximum number of nested parallel loops to produce")
    parallel_reductions = Option(bool, False, "Convert reduction loops (iter_args) too")
    threads_only = Option(bool, False, "Convert only the loops chosen for the thread pool")
    min_work = Option(int, 1 << 15, "Smallest estimated work (ops x trips) worth threads")
    runtime_min_work = Option(
        int,
        RUNTIME_MIN_WORK,
        "Smallest work (ops x run-time trips) a dynamic loop runs on threads (min-trips default)",
    )
    knobs = (
        KnobDecl("threads", "bool", "Run this parallel loop on the thread pool"),
        KnobDecl(
            "min-trips",
            "pow2",
            "Smallest run-time trip count of a dynamic loop run on the pool (1: always)",
        ),
        KnobDecl("chunk", "pow2", "Consecutive iterations per parallel iteration (innermost)"),
        KnobDecl("hoist", "bool", "Move the thread loop outside the sequential loops around it"),
    )
    num_parallel = Statistic("num-parallel", "Number of affine.for loops made affine.parallel")
    num_threaded = Statistic("num-threaded", "Number of loops marked mlc.parallel")
    num_versioned = Statistic(
        "num-versioned", "Number of dynamic loops given a run-time trip-count test"
    )

    def run(self, op: Operation, ctx: PassContext) -> None:
        if self.max_nested < 0 or self.min_work < 0 or self.runtime_min_work < 0:
            ctx.error(
                "affine-parallelize: max-nested, min-work and runtime-min-work must be "
                "non-negative",
                op,
            )
            return
        for top in [o for o in op.ops_in_regions() if type(o) in (AF.ForOp, AF.ParallelOp)]:
            if any(o.get_attr("mlc.parallel") is not None for o in top.walk()):
                continue  # another pass already chose this nest's threads
            info = DependenceInfo(top)
            parallel = self._parallel_loops(top, info)
            # Knobs are asked on the loops as they are before any conversion (stable sites,
            # and no site renumbering for ops created by this pass).
            self._offer(top, ctx, info, set(parallel))
            if self.threads_only:
                continue
            for lp in parallel:  # pre-order: outer loops first
                if lp.parent is None or _parallel_depth(lp) >= self.max_nested:
                    continue  # converted for the thread pool, or too deep
                kinds = _reduction_kinds(lp) if lp.results else []
                if kinds is not None:
                    for_to_parallel(lp, kinds)
                    self.num_parallel += 1

    def _parallel_loops(self, top: Operation, info: DependenceInfo) -> list[Operation]:
        out = []
        for lp in top.walk(post_order=False):
            if type(lp) is not AF.ForOp:
                continue
            if info.is_parallel(lp):
                out.append(lp)
            elif self.parallel_reductions and lp.results and not info.carried_by(lp):
                out.append(lp)
        return out

    def _offer(self, op: Operation, ctx: PassContext, info: DependenceInfo, parallel: set) -> None:
        """Offer the outermost thread candidates under (and including) `op` the thread pool.

        The default is yes when one pool call would get at least `min-work`: the loop's own
        work, or the work of the nest it can be hoisted out of. Ops with the unit attribute
        `mlc.serial` (their producer chose one thread, e.g. contraction-microkernel) are skipped.
        """
        if op.get_attr(SERIAL_ATTR) is not None:
            return
        is_candidate = (type(op) is AF.ParallelOp and not op.results and _trip(op) != 0) or (
            type(op) is AF.ForOp and op in parallel and not op.results
        )
        if is_candidate:
            trip = _trip(op)
            chain = _hoist_chain(op) if type(op) is AF.ForOp else [op]
            work = _work(chain[0])
            step = _dynamic_step(op, chain[0])
            if step is None:
                default = work >= self.min_work and trip >= 2
            else:
                # Dynamic trip count: thread it, and test the real trip count at run time
                # against the count that gives one pool call `runtime-min-work`.
                per_trip = max(1, work // max(1, trip))
                need = max(1, -(-self.runtime_min_work // per_trip))
                default = True
            if ctx.knob(op, "threads", Bool(), default):
                min_extent = None
                if step is not None:
                    domain = PowerOfTwo(1, MAX_MIN_TRIPS)
                    guess = 1 << (need - 1).bit_length()  # the power of two >= need
                    min_trips = ctx.knob(op, "min-trips", domain, min(guess, MAX_MIN_TRIPS))
                    if min_trips > 2:  # the pool runs fewer than 2 trips on the caller
                        # trip >= min_trips <=> upper - lower >= (min_trips - 1) * step + 1
                        min_extent = (min_trips - 1) * step + 1
                        self.num_versioned += 1
                loop = self._mark(op, ctx)
                if min_extent is not None:
                    loop.set_attr(MIN_EXTENT_ATTR, A.IntegerAttr(min_extent, A.i64))
                return
        for region in op.regions:
            for block in region.blocks:
                for child in list(block):
                    if child.regions:
                        self._offer(child, ctx, info, parallel)

    def _mark(self, loop: Operation, ctx: PassContext) -> Operation:
        """Chunk, hoist and convert `loop` for the thread pool; returns the `mlc.parallel` op."""
        innermost = not any(
            type(o) in (AF.ForOp, AF.ParallelOp) for o in loop.walk() if o is not loop
        )
        if type(loop) is AF.ForOp and innermost:
            trip = loop.constant_trip_count()
            hi = MAX_CHUNK if trip is None else max(1, min(MAX_CHUNK, trip // 2))
            # Chunks keep an inner affine.for per parallel iteration for affine-vectorize.
            domain = PowerOfTwo(1, hi)
            chunk = ctx.knob(loop, "chunk", domain, min(DEFAULT_CHUNK, domain.hi))
            tiles = tile_perfect_nest([loop], [chunk]) if chunk > 1 else []
            if tiles:
                loop = tiles[0]  # each of its iterations runs one chunk
        if type(loop) is AF.ForOp and ctx.knob(loop, "hoist", Bool(), True):
            _hoist_outermost(loop)
        if type(loop) is AF.ForOp:
            loop = for_to_parallel(loop)
            self.num_parallel += 1
        loop.set_attr("mlc.parallel", A.UnitAttr())
        self.num_threaded += 1
        return loop
