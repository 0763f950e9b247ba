"""`affine-nontemporal-stores`: non-temporal vector stores of a kernel's outputs (affine level).

A vector loop that writes a function argument the function never reads (an output) gets a
run-time version, taken when the output is large and 16-byte aligned, whose stores are
`vector.store ... {nontemporal = true, alignment = 16}`: the lines go to memory through the
write-combining buffers, without being read first (no read-for-ownership) and without
evicting cached data.
"""

from __future__ import annotations

import platform
from functools import lru_cache

from mlc.dialects.affine import ForOp, IfOp
from mlc.dialects.affine_ops import ApplyOp, PrefetchOp, StoreOp, VectorStoreOp
from mlc.dialects.arith import ConstantOp, MulIOp
from mlc.dialects.memref import DimOp, ExtractAlignedPointerAsIndexOp
from mlc.dialects.vector import StoreOp as VectorDialectStoreOp
from mlc.passes.affine_vectorize import offset_from

from mlc.ir import attributes as A
from mlc.ir.affine import (
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    IntegerSet,
    dim,
    sym,
)
from mlc.ir.core import BlockArgument, Operation, Value
from mlc.knobs import Choice
from mlc.pass_manager import KnobDecl, Option, Pass, PassContext, Statistic

__all__ = ["AffineNontemporalStoresPass", "default_min_bytes", "default_mode"]

NT_ALIGN = 16  # bytes: what the non-temporal version asks of each vector store's address
NT_MODES = ("never", "large", "always")
Constraint = tuple[AffineExpr, bool]  # (expression, is an equality) of an IntegerSet


def default_mode() -> str:
    """`large` on x86 hosts (where the translation adds the `sfence` that non-temporal stores
    need before the function returns), `never` elsewhere."""
    machine = platform.machine().lower()
    return "large" if machine in ("x86_64", "amd64", "i386", "i686") else "never"


@lru_cache(maxsize=1)
def default_min_bytes() -> int:
    """Half the last-level cache this process can use (the L3 share of each usable core):
    an output at least that large does not stay in the caches for its reader anyway, and
    storing it through them evicts the kernel's inputs."""
    from mlc.lowering.microkernel import cache_sizes
    from mlc.runtime.parallel import usable_cores

    return max(1, cache_sizes().l3 * usable_cores() // 2)


def _element_bytes(t: A.Type) -> int | None:
    if type(t) in (A.FloatType, A.IntegerType):
        bits = t.width  # type: ignore[attr-defined]
        return bits // 8 if bits % 8 == 0 and bits // 8 in (1, 2, 4, 8) else None
    return None


class _Output:
    """A function argument written only by vector stores directly in loops (and by scalar
    stores, write prefetches; its sizes read by `memref.dim`)."""

    __slots__ = ("arg", "elem", "loops", "prefetches")

    def __init__(self, arg: BlockArgument, elem: int) -> None:
        self.arg = arg
        self.elem = elem
        self.loops: dict[ForOp, list[Operation]] = {}  # loop -> its vector stores of arg
        self.prefetches: list[Operation] = []


def _output(arg: BlockArgument) -> _Output | None:
    t = arg.type
    if type(t) is not A.MemRefType or t.layout is not None or t.rank == 0:  # type: ignore[attr-defined]
        return None
    elem = _element_bytes(t.element_type)  # type: ignore[attr-defined]
    if elem is None:
        return None
    out = _Output(arg, elem)
    for use in arg.uses:
        o = use.owner
        if type(o) is VectorStoreOp and use.index == 1:
            loop = o.parent_op
            if type(loop) is not ForOp:
                return None
            out.loops.setdefault(loop, []).append(o)
        elif type(o) is StoreOp and use.index == 1:
            continue
        elif type(o) is PrefetchOp and o.get_attr("isWrite").value:  # type: ignore[union-attr]
            out.prefetches.append(o)
        elif type(o) is not DimOp:
            return None  # read, viewed, passed on: not a write-only output
    return out if out.loops else None


def _loop_condition(
    out: _Output, loop: ForOp, stores: list[Operation]
) -> tuple[list[Constraint], list[Value]] | None:
    """Constraints on the loop's lower-bound operands (as dims 0..) under which each of its
    vector `stores` of `out` is NT_ALIGN-aligned when the buffer's base is; None when some
    store can never be (a constant misaligned offset, a store not at `iv + c`)."""
    m = NT_ALIGN // out.elem  # elements per aligned block
    if loop.results or (loop.step_value * out.elem) % NT_ALIGN:
        return None
    iv = loop.induction_var
    for st in stores:
        amap, args = st.affine_map, st.map_operands
        lanes = st.operands[0].type.shape[0]  # type: ignore[attr-defined]
        if (lanes * out.elem) % NT_ALIGN:
            return None
        c = offset_from(amap.results[-1], args, iv)
        if c is None or c % m:
            return None
        for e in amap.results[:-1]:
            if any(args[p] is iv for p in range(amap.num_dims) if e.is_function_of_dim(p)):
                return None
    lb = loop.lower_bound_map
    if lb.num_results != 1:
        return None
    e = lb.results[0]
    if type(e) is AffineConstantExpr:
        return ([], []) if e.value % m == 0 else None
    operands = list(loop.lowerBoundOperands)
    dims = [dim(k) for k in range(lb.num_dims)]
    syms = [dim(lb.num_dims + k) for k in range(lb.num_symbols)]
    return [(e.replace_dims_and_symbols(dims, syms) % m, True)], operands


def _top_values(func: Operation, out: _Output) -> tuple[Value, Value, Value | None]:
    """At the function's entry: the output's aligned base address, its size in bytes, and
    (when dynamic) its last dimension, all `index` values (valid affine symbols)."""
    entry = func.regions[0].blocks[0]
    anchor = entry.first
    t = out.arg.type
    made: list[Operation] = []

    def add(op: Operation) -> Value:
        made.append(op)
        return op.results[0]

    def const(v: int) -> Value:
        return add(ConstantOp.from_int(v))

    base = add(ExtractAlignedPointerAsIndexOp.create([out.arg], [A.index]))
    static = out.elem
    sizes: list[Value] = []
    last: Value | None = None
    for k, n in enumerate(t.shape):  # type: ignore[attr-defined]
        if n == A.DYNAMIC:
            d = add(DimOp.create([out.arg, const(k)], [A.index]))
            sizes.append(d)
            if k == t.rank - 1 and k > 0:  # type: ignore[attr-defined]
                last = d
        else:
            static *= n
    nbytes = const(static)
    for d in sizes:
        nbytes = add(MulIOp.create([nbytes, d], [A.index]))
    for op in made:
        entry.insert_before(op, anchor)  # type: ignore[arg-type]
    return base, nbytes, last


def _top_condition(
    out: _Output, top: tuple[Value, Value, Value | None], mode: str, min_bytes: int
) -> tuple[list[Constraint], list[Value]]:
    """Constraints on the top-level values `top` (base, bytes, dynamic last dimension) as
    symbols 0.., and the values used: an aligned base, rows of a whole number of aligned
    blocks, and for `large` at least `min_bytes` bytes."""
    base, nbytes, last = top
    cs: list[Constraint] = [(sym(0) % NT_ALIGN, True)]
    values = [base]
    if last is not None:
        cs.append((sym(len(values)) % (NT_ALIGN // out.elem), True))
        values.append(last)
    if mode == "large":
        cs.append((sym(len(values)) - min_bytes, False))
        values.append(nbytes)
    return cs, values


def _static_rows_aligned(out: _Output) -> bool:
    """Every row (all dims but the last) starts NT_ALIGN-aligned when the base is, as far
    as the static shape tells (a dynamic last dimension is checked at run time)."""
    t = out.arg.type
    n = t.shape[-1]  # type: ignore[attr-defined]
    return t.rank == 1 or n == A.DYNAMIC or (n * out.elem) % NT_ALIGN == 0  # type: ignore[attr-defined]


def _make_set(cs: list[Constraint], n_dims: int, n_syms: int) -> IntegerSet:
    return IntegerSet(n_dims, n_syms, [e for e, _ in cs], [eq for _, eq in cs])


def _nontemporal_store(st: Operation) -> None:
    """Replace an `affine.vector_store` by `vector.store ... nontemporal, alignment 16` at the
    same address (its subscripts computed by `affine.apply` where not an operand)."""
    amap, args = st.affine_map, st.map_operands
    block = st.parent
    indices: list[Value] = []
    for e in amap.results:
        if type(e) is AffineDimExpr:
            indices.append(args[e.position])
            continue
        one = AffineMap(amap.num_dims, amap.num_symbols, [e])
        ap = ApplyOp.build_apply(one, list(args), location=st.location)
        block.insert_before(ap, st)  # type: ignore[union-attr]
        indices.append(ap.results[0])
    attrs = {"nontemporal": A.BoolAttr(True), "alignment": A.IntegerAttr(NT_ALIGN, A.i64)}
    new = VectorDialectStoreOp.create(
        [st.operands[0], st.operands[1], *indices], [], attrs, location=st.location
    )
    block.insert_before(new, st)  # type: ignore[union-attr]
    st.erase()


def _version(
    loop: ForOp, iset: IntegerSet, operands: list[Value], out: _Output, stores: list[Operation]
) -> None:
    """`affine.if iset { loop with non-temporal stores } else { loop }`; the output's write
    prefetches inside the loop are dropped from the then version."""
    if_op = IfOp.build_if(iset, operands, with_else=True, location=loop.location)
    loop.parent.insert_before(if_op, loop)  # type: ignore[union-attr]
    nt = loop.clone()
    twin = dict(zip(loop.walk(), nt.walk()))  # a clone walks in the same order
    then_block, else_block = if_op.regions[0].blocks[0], if_op.regions[1].blocks[0]
    then_block.insert_before(nt, then_block.last)
    else_block.insert_before(loop.detach(), else_block.last)
    for st in stores:
        _nontemporal_store(twin[st])
    for pf in out.prefetches:
        if loop.is_ancestor(pf):
            twin[pf].erase()


def _guard_prefetch(pf: Operation, iset: IntegerSet, operands: list[Value]) -> None:
    """`affine.if iset {} else { pf }`: a write prefetch fetches the line for ownership, the
    read that non-temporal stores avoid."""
    if_op = IfOp.build_if(iset, operands, with_else=True, location=pf.location)
    pf.parent.insert_before(if_op, pf)  # type: ignore[union-attr]
    else_block = if_op.regions[1].blocks[0]
    else_block.insert_before(pf.detach(), else_block.last)


def _nearest(op: Operation, loops: list[ForOp]) -> ForOp | None:
    """The loop of `loops` nested in the closest ancestor of `op` that holds one."""
    anc = op.parent_op
    while anc is not None:
        for loop in loops:
            if anc.is_ancestor(loop):
                return loop
        anc = anc.parent_op
    return None


def stream_outputs(func: Operation, ctx: PassContext, default: str, min_bytes: int) -> int:
    """Version each vector loop writing a write-only output of `func` on `affine.if
    (aligned and, for `large`, at least min_bytes)`, with non-temporal stores in the then
    version; the output's write prefetches near that loop run only in the other case. Knob
    `nontemporal` at the loop: `never`, `large`, `always` (whenever aligned), default
    `default`. Returns the number of loops versioned."""
    if not func.regions or not func.regions[0].blocks:
        return 0
    count = 0
    for arg in func.regions[0].blocks[0].arguments:
        out = _output(arg)  # type: ignore[arg-type]
        if out is None or not _static_rows_aligned(out):
            continue
        top: tuple[Value, Value, Value | None] | None = None
        guards: dict[ForOp, tuple[IntegerSet, list[Value]]] = {}
        for loop, stores in out.loops.items():
            cond = _loop_condition(out, loop, stores)
            if cond is None:
                continue
            mode = ctx.knob(ctx.site(loop), "nontemporal", Choice(*NT_MODES), default)
            if mode == "never":
                continue
            top = top or _top_values(func, out)
            top_cs, top_values = _top_condition(out, top, mode, min_bytes)
            guards[loop] = (_make_set(top_cs, 0, len(top_values)), top_values)
            loop_cs, loop_ops = cond
            iset = _make_set(loop_cs + top_cs, len(loop_ops), len(top_values))
            _version(loop, iset, loop_ops + top_values, out, stores)
            count += 1
        for pf in out.prefetches:
            near = _nearest(pf, list(out.loops))
            if near is not None and near in guards and not near.is_ancestor(pf):
                _guard_prefetch(pf, *guards[near])
    return count


class AffineNontemporalStoresPass(Pass):
    """Give vector loops that write a kernel's output a version with non-temporal stores.

    A function argument used only as the memref of stores (vector stores directly in
    `affine.for` loops, scalar stores), of write prefetches and of `memref.dim` is an output
    the function never reads back. Each loop holding vector stores of it at `[..., iv + c]`
    (whole 16-byte blocks: `c`, the step and the vector size) is wrapped in
    `affine.if (base % 16 == 0, the last dimension and the lower bound a whole number of
    16-byte blocks[, size in bytes >= min-bytes])`: the then version stores with
    `vector.store ... {alignment = 16, nontemporal = true}`, the else version is the loop
    unchanged. The output's write prefetches nearest that loop (affine-vectorize's, which
    fetch the lines for ownership: the read the stores avoid) run only in the else case.
    `convert-to-llvm` puts an `sfence` before the return of a function that stores
    non-temporally (x86's `movnt*` stores are weakly ordered).

    Knob `nontemporal` per loop: `never`, `large` (from `min-bytes` on: an output that large
    does not stay cached for its reader anyway, and storing it through the caches evicts the
    inputs), `always` (whenever aligned). Default: the `mode` option, else `large` on x86
    hosts and `never` elsewhere.
    """

    name = "affine-nontemporal-stores"
    anchor = "func.func"
    mode = Option(
        str,
        "",
        "Default of the per-loop `nontemporal` knob: never, large, always (empty: large on "
        "x86 hosts, never elsewhere)",
    )
    min_bytes = Option(
        int,
        0,
        "Output size in bytes from which `large` stores non-temporally (0: half the "
        "last-level cache this process can use)",
    )
    num_versioned = Statistic(
        "num-versioned-loops", "Number of loops given a version with non-temporal stores"
    )
    knobs = (
        KnobDecl(
            "nontemporal",
            "choice",
            "Store this loop's write-only output non-temporally: never, large (from "
            "min-bytes on), always (when the output is 16-byte aligned, checked at run time)",
        ),
    )

    def run(self, op: Operation, ctx: PassContext) -> None:
        if self.mode not in ("", *NT_MODES):
            ctx.error(f"mode must be one of {', '.join(NT_MODES)}, got '{self.mode}'", op)
            return
        if self.min_bytes < 0:
            ctx.error(f"min-bytes must be >= 0, got {self.min_bytes}", op)
            return
        min_bytes = self.min_bytes or default_min_bytes()
        self.num_versioned += stream_outputs(op, ctx, self.mode or default_mode(), min_bytes)
