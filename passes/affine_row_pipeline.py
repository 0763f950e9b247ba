"""`affine-row-pipeline`: software-pipeline a row loop's output pass into the next row's
heaviest pass (affine level, after `affine-vectorize`), so output stores overlap computation.

A row kernel such as softmax (max pass, exp-and-sum pass into a per-row buffer, scale pass
storing the output row) runs each row's passes one after the other: while the exp pass
computes, no output is stored, and the scale pass then stores a whole row while nothing
computes. Pipelined, the scale pass of row r - 1 runs in column chunks between the chunks of
row r's exp pass, from a second row buffer:

    affine.parallel (%i) = (0) to (%n) step (16) {          // 16 rows per iteration
      %buf = memref.alloc() : memref<2x1024xf32>           // row r's buffer: %buf[r mod 2]
      <passes of row %i, its output pass left out>
      %v = affine.for %r = %i + 1 to min(%i + 16, %n) iter_args(%s = <row %i's scalars>) {
        <passes of row %r before the heavy one>
        affine.for %jj = 0 to 1024 step 64 {
          affine.for %j = %jj to %jj + 64 step 16 { <heavy pass of row %r> }
          affine.for %j = %jj to %jj + 64 step 8 { <output pass of row %r - 1, from %s> }
        }
        <the rest of row %r>
      }
      <output pass of the last row: min(%i + 16, %n) - 1, from %v>
    }

The chunks are separate loops, so the two passes do not share a register file (merged
element by element, AVX2 runs out of registers for the exp's constants).
"""

from __future__ import annotations

from mlc.dialects.affine import ForOp, ParallelOp, YieldOp
from mlc.dialects.affine_ops import (
    ApplyOp,
    LoadOp,
    PrefetchOp,
    StoreOp,
    VectorLoadOp,
    VectorStoreOp,
)
from mlc.dialects.arith import ConstantOp
from mlc.dialects.memref import AllocOp, DeallocOp
from mlc.interfaces import is_memory_effect_free
from mlc.ir import attributes as A
from mlc.ir.affine import AffineExpr, AffineMap, dim, sym
from mlc.ir.core import Block, Operation, Value
from mlc.knobs import Choice
from mlc.pass_manager import KnobDecl, Option, Pass, PassContext, Statistic

__all__ = ["AffineRowPipelinePass", "ROW_PIPELINE_KNOBS", "pipeline_rows"]

# Rows per pipelined chunk of the row loop (0: not pipelined), and columns per chunk of the
# interleaved passes.
ROW_CHOICES = (0, 2, 4, 8, 16, 32, 64)
COLUMN_CHOICES = (32, 64, 128, 256)
DEFAULT_ROWS = 16
DEFAULT_COLUMNS = 64
# The heavy pass must do more vector ops per vector of the row than this for the default to
# pipeline (softmax's exp pass: about 18; layernorm's centering pass: 3).
HEAVY_PASS = 4.0
# Largest row buffer pipelined by default: its two copies stay well inside a 32 KiB L1.
MAX_BUFFER_BYTES = 8192

_ACCESS_OPS = (LoadOp, StoreOp, VectorLoadOp, VectorStoreOp, PrefetchOp)

ROW_PIPELINE_KNOBS = (
    KnobDecl(
        "row_pipeline",
        "choice",
        "Rows per pipelined chunk of this row loop (0: each row's passes in turn)",
    ),
    KnobDecl(
        "row_pipeline_columns",
        "choice",
        "Columns per chunk of this row loop's interleaved heavy and output passes",
    ),
)


class _Plan:
    """The parts of a row loop body: privatized buffers, the heavy pass, the output pass."""

    __slots__ = ("body", "row_iv", "buffers", "scratch", "heavy", "output", "ops", "carried")

    def __init__(self, body: Block, row_iv: Value) -> None:
        self.body = body
        self.row_iv = row_iv
        self.buffers: list[Operation] = []  # allocs the output pass reads: double-buffered
        self.scratch: list[Operation] = []  # the other allocs (hoisted out of the rows)
        self.heavy: ForOp | None = None
        self.output: ForOp | None = None
        self.ops: list[Operation] = []  # the row's ops other than allocs, output, deallocs
        self.carried: list[Value] = []  # row values the output pass uses (loop-carried)


def _static_alloc(op: Operation) -> bool:
    t = op.results[0].type
    return (
        type(op) is AllocOp
        and not op.operands
        and type(t) is A.MemRefType
        and t.layout is None  # type: ignore[attr-defined]
        and all(s >= 0 for s in t.shape)  # type: ignore[attr-defined]
    )


def _memref_of(op: Operation) -> Value | None:
    return op.memref_value if isinstance(op, _ACCESS_OPS) else None  # type: ignore[attr-defined]


def _pass_weight(loop: ForOp) -> float:
    """Vector ops per vector of the row in a vectorized pass (memory accesses, constants and
    the terminator not counted; a math op that math-polynomial-approximation expands counts
    as 16)."""
    from mlc.passes.affine_vectorize import _EXPANDED_WEIGHT, _expanded_math

    expanded = _expanded_math()
    skip = (*_ACCESS_OPS, YieldOp, ConstantOp)
    weight, vectors = 0, 0
    for o in loop.body_block:
        if type(o) is VectorLoadOp or type(o) is VectorStoreOp:
            vectors += 1
        if type(o) in skip:
            continue
        weight += _EXPANDED_WEIGHT if o.name in expanded else 1
    # Each vector of the row is loaded once (and stored once into the buffer): count pairs.
    return 2 * weight / max(1, vectors)


def _row_loop(row: Operation) -> tuple[Block, Value] | None:
    """The body and induction variable of a unit-step 1-D row loop without results whose
    bounds are single expressions."""
    if row.results or not row.regions or not row.regions[0].blocks:
        return None
    body = row.regions[0].blocks[0]
    if len(body.arguments) != 1:
        return None
    if type(row) is ParallelOp:
        if row.step_values != [1]:
            return None
        if row.lower_bounds_map.num_results != 1 or row.upper_bounds_map.num_results != 1:
            return None
    elif type(row) is ForOp:
        if row.step_value != 1:
            return None
        if row.lower_bound_map.num_results != 1 or row.upper_bound_map.num_results != 1:
            return None
    else:
        return None
    return body, body.arguments[0]


def _analyze(row: Operation) -> _Plan | None:
    """The plan of `row` when its last pass (the output pass) can run one row late: it
    writes only outputs nothing else in the row loop touches, reads only buffers the other
    passes do not write or per-row buffers (allocated in the body), and a heavier pass over
    the same columns precedes it."""
    found = _row_loop(row)
    if found is None:
        return None
    body, row_iv = found
    plan = _Plan(body, row_iv)
    ops = list(body)
    if type(ops[-1]) is not YieldOp or ops[-1].operands:
        return None
    ops = ops[:-1]
    while ops and type(ops[-1]) is DeallocOp:
        ops.pop()
    deallocs = list(body)[len(ops) : -1]
    if not ops or type(ops[-1]) is not ForOp:
        return None
    output: ForOp = ops.pop()  # type: ignore[assignment]
    if output.results or output.constant_lower_bound() != 0 or output.step_value <= 0:
        return None
    if any(type(o) is ForOp for o in output.body_block) or not _iv_in_subscripts_only(output):
        return None
    columns = output.constant_upper_bound()
    if columns is None:
        return None
    allocs = [o for o in ops if type(o) is AllocOp]
    if not all(_static_alloc(a) for a in allocs):
        return None
    freed = {d.operands[0] for d in deallocs}
    alloc_values = {a.results[0] for a in allocs}
    if freed != alloc_values or len(deallocs) != len(allocs):
        return None
    # A per-row buffer is only accessed in place (a view of it would miss the doubling), and
    # no memref in the body is viewed (the accesses below name every buffer they touch).
    for a in allocs:
        for use in a.results[0].uses:
            o = use.owner
            if type(o) is not DeallocOp and _memref_of(o) is not a.results[0]:
                return None
    from mlc.passes.affine_vectorize import _VIEW_OPS

    if any(o.name in _VIEW_OPS for o in row.walk()):
        return None
    # Memrefs written and read by the row's ops other than the output pass.
    written: set[Value] = set()
    read: set[Value] = set()
    for o in ops:
        for inner in o.walk():
            m = _memref_of(inner)
            if m is None:
                if not inner.regions and not is_memory_effect_free(inner) and inner not in allocs:
                    return None  # calls, memref.store, ...: not reasoned about
                continue
            if type(inner) is StoreOp or type(inner) is VectorStoreOp:
                written.add(m)
            elif type(inner) is not PrefetchOp:
                read.add(m)
    out_read: set[Value] = set()
    out_written: set[Value] = set()
    for inner in output.walk():
        if inner is output:
            continue
        m = _memref_of(inner)
        if m is None:
            if not inner.regions and not is_memory_effect_free(inner):
                return None
            continue
        if type(inner) is StoreOp or type(inner) is VectorStoreOp:
            out_written.add(m)
        elif type(inner) is not PrefetchOp:
            out_read.add(m)
        elif inner.get_attr("isWrite").value and m not in out_written:  # type: ignore[union-attr]
            out_written.add(m)
    if not out_written:
        return None
    for m in out_written:
        # An output row of its own: nothing else in the row loop reads or writes it (write
        # prefetches aside), and it is not a per-row buffer.
        if m in alloc_values or m in read or m in written:
            return None
    for m in out_read:
        if m in written and m not in alloc_values:
            return None
    plan.buffers = [a for a in allocs if a.results[0] in out_read]
    plan.scratch = [a for a in allocs if a.results[0] not in out_read]
    plan.output = output
    plan.ops = [o for o in ops if type(o) is not AllocOp]
    # The heavy pass: the heaviest loop over the same columns, from column 0.
    best: tuple[float, ForOp] | None = None
    for o in plan.ops:
        if type(o) is not ForOp or o.constant_lower_bound() != 0:
            continue
        if o.constant_upper_bound() != columns:
            continue
        if any(type(inner) is ForOp and inner is not o for inner in o.walk()):
            continue
        w = _pass_weight(o)
        if best is None or w > best[0]:
            best = (w, o)
    if best is None:
        return None
    plan.heavy = best[1]
    # Values of the row the output pass uses: carried from one row to the next.
    defined = {r for o in plan.ops for r in o.results}
    seen: dict[Value, None] = {}
    for inner in output.walk():
        for v in inner.operands:
            if v in defined and type(v.op) is not ConstantOp:  # type: ignore[attr-defined]
                seen.setdefault(v, None)
    plan.carried = list(seen)
    if any(v.type is A.index for v in plan.carried):
        return None  # an index carried by the row loop is no valid subscript operand
    return plan


def _bound_operands(row: Operation) -> tuple[AffineMap, list[Value], AffineMap, list[Value]]:
    if type(row) is ParallelOp:
        return (
            row.lower_bounds_map,
            list(row.lower_bounds_operands),
            row.upper_bounds_map,
            list(row.upper_bounds_operands),
        )
    return (
        row.lower_bound_map,  # type: ignore[attr-defined]
        list(row.lowerBoundOperands),  # type: ignore[attr-defined]
        row.upper_bound_map,  # type: ignore[attr-defined]
        list(row.upperBoundOperands),  # type: ignore[attr-defined]
    )


def _with_row(ub: AffineMap, exprs: list[AffineExpr], use_ub: bool) -> AffineMap:
    """A map over (row, ub's dims)[ub's symbols]: `exprs` (of dim 0, the row) and, with
    `use_ub`, ub's expressions shifted past the row dim."""
    dims = [dim(k + 1) for k in range(ub.num_dims)]
    syms = [sym(k) for k in range(ub.num_symbols)]
    results = list(exprs)
    if use_ub:
        results += [e.replace_dims_and_symbols(dims, syms) for e in ub.results]
    return AffineMap(1 + ub.num_dims, ub.num_symbols, results)


def _double_buffer(ops: list[Operation], twins: dict[Value, Value], row: Value) -> None:
    """Accesses in `ops` (and nested) of a per-row buffer `b` become accesses of
    `twins[b][row mod 2, ...]`."""
    for top in ops:
        for o in top.walk():
            m = _memref_of(o)
            if m is None or m not in twins:
                continue
            first = type(o)._first_index  # type: ignore[attr-defined]
            amap: AffineMap = o.affine_map  # type: ignore[attr-defined]
            args = list(o.map_operands)  # type: ignore[attr-defined]
            nd = amap.num_dims
            new_map = AffineMap(nd + 1, amap.num_symbols, [dim(nd) % 2, *amap.results])
            lead = list(o.operands[: first - 1])
            o.set_operands([*lead, twins[m], *args[:nd], row, *args[nd:]])
            o.set_attr("map", A.AffineMapAttr(new_map))


def _iv_in_subscripts_only(loop: ForOp) -> bool:
    """Whether the loop's induction variable is used only as a dim of access subscripts."""
    iv = loop.induction_var
    for use in iv.uses:
        o = use.owner
        if not isinstance(o, _ACCESS_OPS):
            return False
        first = type(o)._first_index  # type: ignore[attr-defined]
        if use.index - first >= o.affine_map.num_dims:  # type: ignore[attr-defined]
            return False
    return True


def _unrolled(
    loop: ForOp, mapping: dict[Value, Value], iv: Value, copies: int, carried: list[Value]
) -> tuple[list[Operation], list[Value]]:
    """The body of `loop` `copies` times at `iv`, `iv + step`, ... (the offsets folded into
    the subscripts, so each access stays `[.., iv + c]`), its iter_args chained from
    `carried`: the ops and the values the last copy yields."""
    body = loop.body_block
    old_iv, term = body.arguments[0], body.last
    ops: list[Operation] = []
    for k in range(copies):
        m = dict(mapping)
        m[old_iv] = iv
        m.update(zip(body.arguments[1:], carried))
        made = [o.clone(m) for o in body if o is not term]
        shift = k * loop.step_value
        for top in made:
            for o in top.walk():
                if shift and isinstance(o, _ACCESS_OPS):
                    _shift_subscripts(o, iv, shift)
        ops.extend(made)
        carried = [m.get(v, v) for v in term.operands]  # type: ignore[union-attr]
    return ops, carried


def _shift_subscripts(o: Operation, iv: Value, shift: int) -> None:
    amap: AffineMap = o.affine_map  # type: ignore[attr-defined]
    args = o.map_operands  # type: ignore[attr-defined]
    dims = [dim(p) + shift if args[p] is iv else dim(p) for p in range(amap.num_dims)]
    syms = [sym(k) for k in range(amap.num_symbols)]
    results = [e.replace_dims_and_symbols(dims, syms) for e in amap.results]
    o.set_attr("map", A.AffineMapAttr(AffineMap(amap.num_dims, amap.num_symbols, results)))


def _chunked(
    plan: _Plan,
    mapping: dict[Value, Value],
    prev: dict[Value, Value],
    columns: int,
    twins: dict[Value, Value],
    rows: tuple[Value, Value],
) -> ForOp:
    """A loop over the columns in chunks of `columns`, each running the heavy pass's
    iterations of the chunk (cloned with `mapping`) and then the output pass's (cloned with
    `prev`: the previous row, unrolled). `mapping` gets the heavy pass's results."""
    heavy, output = plan.heavy, plan.output
    assert heavy is not None and output is not None
    width = output.constant_upper_bound()
    assert width is not None
    inits = [mapping.get(v, v) for v in heavy.inits]
    outer = ForOp.build_for(0, width, columns, iter_args=inits, location=heavy.location)
    jj = outer.induction_var
    # The heavy chunk stays a loop (bounds jj, jj + columns). Unrolled (as the output
    # chunk is), LLVM's register allocator spilled the exp's constants around the
    # write-prefetch branches: no faster (same-process A/B, docs/vectorize.md).
    h = heavy.clone(mapping)
    h.set_operands([jj, jj, *outer.region_iter_args])
    h.set_attr("operandSegmentSizes", A.DenseArrayAttr(A.i32, [1, 1, len(inits)]))
    h.set_attr("lowerBoundMap", A.AffineMapAttr(AffineMap(1, 0, [dim(0)])))
    h.set_attr("upperBoundMap", A.AffineMapAttr(AffineMap(1, 0, [dim(0) + columns])))
    h_ops, carried = [h], list(h.results)
    # The output chunk stays a loop (of one trip) without results, whose stores
    # affine-nontemporal-stores can version.
    one = AffineMap(1, 0, [dim(0) + columns])
    tail = ForOp.build_for(
        (AffineMap(1, 0, [dim(0)]), [jj]), (one, [jj]), columns, location=output.location
    )
    o_ops, _ = _unrolled(output, prev, tail.induction_var, columns // output.step_value, [])
    for o in o_ops:
        tail.body_block.insert_before(o, tail.body_block.last)  # type: ignore[arg-type]
    _double_buffer(h_ops, twins, rows[0])
    _double_buffer(o_ops, twins, rows[1])
    block = outer.body_block
    if inits:
        for o in (*h_ops, tail):
            block.append(o)
        block.append(YieldOp.create(carried, [], location=heavy.location))
    else:
        for o in (*h_ops, tail):
            block.insert_before(o, block.last)  # type: ignore[arg-type]
    for old, new in zip(heavy.results, outer.results):
        mapping[old] = new
    return outer


def _transform(row: Operation, plan: _Plan, rows: int, columns: int) -> None:
    body, row_iv = plan.body, plan.row_iv
    output = plan.output
    assert output is not None
    loc = row.location
    _, _, ub, ub_ops = _bound_operands(row)
    nd = ub.num_dims
    bound_ops = [row_iv, *ub_ops[:nd], *ub_ops[nd:]]
    # Buffers: per-row ones doubled (row r uses [r mod 2]), scratch ones hoisted.
    twins: dict[Value, Value] = {}
    new_ops: list[Operation] = []
    for a in plan.buffers:
        t = a.results[0].type
        doubled = A.MemRefType([2, *t.shape], t.element_type)  # type: ignore[attr-defined]
        attrs = {k: v for k, v in (a._attrs or {}).items()}
        twin = AllocOp.create([], [doubled], attrs, location=a.location)
        twins[a.results[0]] = twin.results[0]
        new_ops.append(twin)
    new_ops.extend(a.detach() for a in plan.scratch)
    # Prologue: the first row of the chunk without its output pass.
    first: dict[Value, Value] = {}
    prologue = [o.clone(first) for o in plan.ops]
    _double_buffer(prologue, twins, row_iv)
    new_ops.extend(prologue)
    consts = {v: first[v] for v in first if type(getattr(v, "op", None)) is ConstantOp}
    # Steady state: rows i + 1 .. min(i + rows, ub) - 1, each with the previous row's output.
    lb_map = _with_row(ub, [dim(0) + 1], False)
    ub_map = _with_row(ub, [dim(0) + rows], True)
    inits = [first[v] for v in plan.carried]
    steady = ForOp.build_for((lb_map, bound_ops), (ub_map, bound_ops), 1, inits, location=loc)
    r = steady.induction_var
    sblock = steady.body_block
    steady_ops: list[Operation] = []
    prev_row = ApplyOp.build_apply(AffineMap(1, 0, [dim(0) - 1]), [r], location=loc)
    steady_ops.append(prev_row)
    mapping: dict[Value, Value] = {row_iv: r}
    prev: dict[Value, Value] = {row_iv: prev_row.results[0], **consts}
    prev.update(zip(plan.carried, steady.region_iter_args))
    for o in plan.ops:
        if o is plan.heavy:
            rows_of = (r, prev_row.results[0])
            steady_ops.append(_chunked(plan, mapping, prev, columns, twins, rows_of))
        else:
            c = o.clone(mapping)
            steady_ops.append(c)
            _double_buffer([c], twins, r)
    if plan.carried:
        steady_ops.append(YieldOp.create([mapping[v] for v in plan.carried], [], location=loc))
        for c in steady_ops:
            sblock.append(c)
    else:
        for c in steady_ops:
            sblock.insert_before(c, sblock.last)  # type: ignore[arg-type]
    new_ops.append(steady)
    # Epilogue: the output pass of the chunk's last row, min(i + rows, ub) - 1, as a loop of
    # one trip in one of two cases: a full chunk (row i + rows - 1) or the loop's last,
    # partial one (row ub - 1).
    last_vals = dict(zip(plan.carried, steady.results))
    cases = (
        (_with_row(ub, [dim(0) + rows - 1], False), _with_row(ub, [dim(0) + rows], True)),
        (
            AffineMap(
                1 + nd,
                ub.num_symbols,
                [dim(0)]
                + [
                    e.replace_dims_and_symbols(
                        [dim(k + 1) for k in range(nd)], [sym(k) for k in range(ub.num_symbols)]
                    )
                    - 1
                    for e in ub.results
                ],
            ),
            _with_row(ub, [dim(0) + rows - 1], True),
        ),
    )
    for lo, hi in cases:
        tail = ForOp.build_for((lo, bound_ops), (hi, bound_ops), 1, location=loc)
        e = tail.induction_var
        oc = output.clone({row_iv: e, **consts, **last_vals})
        tail.body_block.insert_before(oc, tail.body_block.last)
        _double_buffer([oc], twins, e)
        new_ops.append(tail)
    for t in twins.values():
        new_ops.append(DeallocOp.create([t], [], location=loc))
    for a in plan.scratch:
        new_ops.append(DeallocOp.create([a.results[0]], [], location=loc))
    # Replace the body (the terminator stays).
    term = body.last
    old = [o for o in body if o is not term]
    for o in reversed(old):
        o.erase(drop_uses=True)
    for o in new_ops:
        body.insert_before(o, term)  # type: ignore[arg-type]
    if type(row) is ParallelOp:
        row.set_attr("steps", A.ArrayAttr([A.IntegerAttr(rows, A.i64)]))
    else:
        row.set_attr("step", A.IntegerAttr(rows, A.index))


def pipeline_rows(
    row: Operation, ctx: PassContext, default_rows: int, mode: str = "heavy"
) -> bool:
    """Pipeline `row`'s output pass into the next row's heaviest pass (module docstring).
    Knobs at the row loop: `row_pipeline` (rows per pipelined chunk, 0 off; default
    `default_rows` when `mode` is 'true', or 'heavy' and the heavy pass does more than
    HEAVY_PASS vector ops per vector of the row with per-row buffers of at most
    MAX_BUFFER_BYTES; else 0) and `row_pipeline_columns` (columns per interleaved chunk).
    Returns whether the loop was changed."""
    plan = _analyze(row)
    if plan is None or plan.heavy is None or plan.output is None:
        return False
    heavy, output = plan.heavy, plan.output
    width = output.constant_upper_bound()
    assert width is not None
    small = all(
        _buffer_bytes(a.results[0].type) <= MAX_BUFFER_BYTES for a in plan.buffers
    )
    on = mode == "true" or (mode == "heavy" and small and _pass_weight(heavy) > HEAVY_PASS)
    site = ctx.site(row)
    rows = ctx.knob(site, "row_pipeline", Choice(*ROW_CHOICES), default_rows if on else 0)
    if not rows:
        return False
    columns = ctx.knob(site, "row_pipeline_columns", Choice(*COLUMN_CHOICES), DEFAULT_COLUMNS)
    steps = (heavy.step_value, output.step_value)
    if width % columns or any(columns % s for s in steps):
        return False
    _transform(row, plan, rows, columns)
    return True


def _buffer_bytes(t: A.Type) -> int:
    n = 1
    for s in t.shape:  # type: ignore[attr-defined]
        n *= s
    return n * ((t.element_type.width + 7) // 8)  # type: ignore[attr-defined,no-any-return]


class AffineRowPipelinePass(Pass):
    """Software-pipeline row loops: the output pass of row r - 1 runs in column chunks
    between the chunks of row r's heaviest pass (module docstring). Runs inside
    `affine-vectorize` (its `row-pipeline` option) in `lower-to-cpu`; standalone for tests.
    """

    name = "affine-row-pipeline"
    anchor = "func.func"
    rows = Option(int, DEFAULT_ROWS, "Default rows per pipelined chunk (0: off)")
    mode = Option(
        str,
        "heavy",
        "When the default pipelines: 'heavy' (the heavy pass does more than 4 vector ops per "
        "vector of the row), 'true', 'false'",
        choices=("heavy", "true", "false"),
    )
    num_pipelined = Statistic("num-pipelined-loops", "Number of row loops pipelined")
    knobs = ROW_PIPELINE_KNOBS

    def run(self, op: Operation, ctx: PassContext) -> None:
        if self.rows not in ROW_CHOICES:
            choices = ", ".join(map(str, ROW_CHOICES))
            ctx.error(f"rows must be one of {choices}, got {self.rows}", op)
            return
        rows = [o for o in op.walk() if type(o) in (ForOp, ParallelOp) and o is not op]
        for row in rows:
            if row.parent is not None and pipeline_rows(row, ctx, self.rows, self.mode):
                self.num_pipelined += 1
