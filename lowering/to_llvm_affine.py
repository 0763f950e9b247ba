"""`convert-to-llvm`, part 2: affine control flow and accesses, memref ops and globals.

Loops become blocks (header with the induction variable and the loop-carried values as block
arguments); `affine.parallel` with `mlc.parallel` is outlined into a body function called
through the runtime's `mlc_parallel_for(ptr body, ptr ctx, i64 lower, i64 upper, i64 step)`,
its captured values passed in a struct on the caller's stack; with `mlc.parallel_min_extent`,
a smaller range calls the body on the calling thread instead.
"""

from __future__ import annotations

from collections.abc import Sequence

from mlc.dialects import llvm
from mlc.dialects.llvm_ops_arith import AndOp, PtrToIntOp, URemOp, ZeroOp
from mlc.dialects.llvm_ops_elements import MaxNumOp, MemcpyOp, MinNumOp
from mlc.dialects.llvm_types import (
    LinkageAttr,
    LLVMArrayType,
    LLVMStructType,
    LoopAnnotationAttr,
    LoopVectorizeAttr,
)
from mlc.lowering.to_llvm import (
    ALLOC_ALIGNMENT,
    DYNAMIC,
    I64,
    PTR,
    FnLowering,
    convert_type,
    drop_dead_constants,
    element_size,
    lower_op,
    lowering,
    natural_alignment,
    unsupported,
)

from mlc.ir import attributes as A
from mlc.ir.core import Operation, Value
from mlc.passes.affine_parallelize import MIN_EXTENT_ATTR

__all__ = ["emit_loop", "lower_global", "reduction_identity", "combine"]

# ---------------------------------------------------------------------------------------------
# Loops

# LLVM 22's loop vectorizer miscompiles a maxnum/minnum reduction (no fast-math flags) over a
# small constant trip count: with 10 or 13 iterations and unrolling off it runs one 8-wide
# iteration and, finding no NaN, leaves out the remaining 2 or 1 (a softmax whose row maximum
# sat there overflowed to NaN). Loops carrying such a reduction that mlc left scalar keep
# LLVM's vectorizer away; mlc's own vectorizer handles these reductions.
NO_LLVM_VECTORIZE = LoopAnnotationAttr(vectorize=LoopVectorizeAttr(disable=True))
_NUM_MINMAX = (MaxNumOp, MinNumOp)


def _carries_num_minmax(iters: Sequence[Value], nexts: Sequence[Value]) -> bool:
    """Whether a loop-carried value is updated by maxnum/minnum of itself."""
    for it, nxt in zip(iters, nexts):
        owner = getattr(nxt, "op", None)
        if isinstance(owner, _NUM_MINMAX) and any(v is it for v in owner.operands):
            return True
    return False


def _bound(fn: FnLowering, amap: object, operands: Sequence[Value], upper: bool) -> Value:
    vals = fn.map_results(amap, operands)  # type: ignore[arg-type]
    out = vals[0]
    for v in vals[1:]:
        out = fn.smin(out, v) if upper else fn.smax(out, v)
    return out


def emit_loop(
    fn: FnLowering,
    lb: Value,
    ub: Value,
    step: int,
    inits: Sequence[Value],
    body: object,
    loop: Operation | None = None,
) -> list[Value]:
    """`for (iv = lb; iv < ub; iv += step)` carrying `inits`; `body(iv, iters)` builds the body
    at the current block and returns the next iteration's values. Returns the final values.
    `loop`: the op being lowered; when the body lowered vector ops, its latch gets the
    annotation `fn.m.loop_hints(loop)` decides."""
    vector_ops = fn.vector_ops
    header = fn.new_block([I64, *[v.type for v in inits]])
    fn.br(header, [lb, *inits])
    fn.enter(header)
    # Made in the header, which dominates them both.
    body_block = fn.new_block()
    exit_block = fn.new_block([v.type for v in inits])
    iv, iters = header.arguments[0], list(header.arguments[1:])
    cond = fn.icmp("slt", iv, ub)
    fn.cond_br(cond, body_block, exit_block, (), iters)
    fn.enter(body_block)
    nexts = body(iv, iters)  # type: ignore[operator]
    latch = fn.br(header, [fn.add(iv, fn.const(step)), *nexts])
    hints = None
    if loop is not None and fn.vector_ops != vector_ops:
        hints = fn.m.loop_hints(loop)
    if hints is None and _carries_num_minmax(iters, nexts):
        hints = NO_LLVM_VECTORIZE
    if hints is not None:
        latch.set_attr("loop_annotation", hints)
    fn.enter(exit_block)
    return list(exit_block.arguments)


@lowering("affine.for")
def _for(fn: FnLowering, op: Operation) -> None:
    nl = op.lower_bound_map.num_inputs  # type: ignore[attr-defined]
    nu = op.upper_bound_map.num_inputs  # type: ignore[attr-defined]
    ops = fn.gets(op.operands)
    lb = _bound(fn, op.lower_bound_map, ops[:nl], False)  # type: ignore[attr-defined]
    ub = _bound(fn, op.upper_bound_map, ops[nl : nl + nu], True)  # type: ignore[attr-defined]
    inits = ops[nl + nu :]
    old = op.regions[0].blocks[0]

    def body(iv: Value, iters: list[Value]) -> list[Value]:
        fn.vmap[old.arguments[0]] = iv
        for a, v in zip(old.arguments[1:], iters):
            fn.vmap[a] = v
        return fn.lower_ops(old)

    results = emit_loop(fn, lb, ub, op.step_value, inits, body, op)  # type: ignore[attr-defined]
    for r, v in zip(op.results, results):
        fn.vmap[r] = v


def _groups(attr: A.Attribute) -> list[int]:
    return [int(x) for x in attr.array.reshape(-1)]  # type: ignore[attr-defined]


def _parallel_bounds(
    fn: FnLowering, op: Operation, ops: Sequence[Value]
) -> list[tuple[Value, Value]]:
    lmap, umap = op.lower_bounds_map, op.upper_bounds_map  # type: ignore[attr-defined]
    lvals = fn.map_results(lmap, ops[: lmap.num_inputs])
    uvals = fn.map_results(umap, ops[lmap.num_inputs :])
    out = []
    li = ui = 0
    for ng, nu in zip(
        _groups(op.get_attr("lowerBoundsGroups")), _groups(op.get_attr("upperBoundsGroups"))
    ):  # type: ignore[arg-type]  # noqa: E501
        lb = lvals[li]
        for v in lvals[li + 1 : li + ng]:
            lb = fn.smax(lb, v)
        ub = uvals[ui]
        for v in uvals[ui + 1 : ui + nu]:
            ub = fn.smin(ub, v)
        li += ng
        ui += nu
        out.append((lb, ub))
    return out


def _parallel_nest(
    fn: FnLowering,
    op: Operation,
    bounds: Sequence[tuple[Value, Value]],
    first: int,
    ivs: list[Value],
    accs: list[Value],
) -> list[Value]:
    """Sequential loops over dims `first`.. of an affine.parallel; returns the accumulators."""
    old = op.regions[0].blocks[0]
    kinds = op.reduction_kinds  # type: ignore[attr-defined]
    steps = op.step_values  # type: ignore[attr-defined]
    if first == len(bounds):
        for a, v in zip(old.arguments, ivs):
            fn.vmap[a] = v
        yields = fn.lower_ops(old)
        return [combine(fn, k, a, y) for k, a, y in zip(kinds, accs, yields)]
    lb, ub = bounds[first]

    def body(iv: Value, iters: list[Value]) -> list[Value]:
        return _parallel_nest(fn, op, bounds, first + 1, [*ivs, iv], iters)

    return emit_loop(fn, lb, ub, steps[first], accs, body, op)


@lowering("affine.parallel")
def _parallel(fn: FnLowering, op: Operation) -> None:
    if not op.regions[0].blocks or not op.regions[0].blocks[0].arguments:
        raise unsupported("affine.parallel without induction variables")
    if op.get_attr("mlc.parallel") is not None:
        _outline_parallel(fn, op)
        return
    ops = fn.gets(op.operands)
    bounds = _parallel_bounds(fn, op, ops)
    inits = [
        reduction_identity(fn, k, convert_type(r.type))
        for k, r in zip(op.reduction_kinds, op.results)
    ]  # type: ignore[attr-defined]  # noqa: E501
    results = _parallel_nest(fn, op, bounds, 0, [], inits)
    for r, v in zip(op.results, results):
        fn.vmap[r] = v


def reduction_identity(fn: FnLowering, kind: str, t: A.Type) -> Value:
    """The neutral value of an affine.parallel reduction kind (arith's atomic RMW kinds)."""
    et = t.element_type if type(t) is A.VectorType else t  # type: ignore[attr-defined]
    if kind in ("addf", "mulf", "maximumf", "minimumf", "maxnumf", "minnumf"):
        value = {
            "addf": 0.0, "mulf": 1.0, "maximumf": float("-inf"), "minimumf": float("inf"),
            "maxnumf": float("nan"), "minnumf": float("nan"),
        }[kind]  # fmt: skip
        return fn.fconst(value, t)
    if type(et) is not A.IntegerType:
        raise unsupported(f"reduction '{kind}' of {t}")
    w = et.width
    ints = {
        "addi": 0, "muli": 1, "ori": 0, "xori": 0, "andi": -1,
        "maxs": -(1 << (w - 1)), "mins": (1 << (w - 1)) - 1, "maxu": 0, "minu": -1,
    }  # fmt: skip
    if kind not in ints:
        raise unsupported(f"reduction kind '{kind}'")
    if type(t) is A.VectorType:
        attr = A.DenseElementsAttr(A.VectorType(t.shape, et), ints[kind])  # type: ignore[attr-defined]
        return fn.v(llvm.ConstantOp, [], t, {"value": attr})
    value = ints[kind]
    if w == 1:
        value = value & 1
    return fn.const(value, t)


def combine(fn: FnLowering, kind: str, a: Value, b: Value) -> Value:
    """a <kind> b for an affine.parallel reduction."""
    from mlc.lowering.to_llvm_ops import binary_by_kind

    return binary_by_kind(fn, kind, a, b)


def _captured(op: Operation) -> list[Value]:
    """Values used in `op` (its operands included) that are defined outside it, in use order."""
    seen: dict[Value, None] = {}
    for v in op.operands:
        seen.setdefault(v, None)
    for inner in op.walk(post_order=False):
        if inner is op:
            continue
        for v in inner.operands:
            if v in seen:
                continue
            b = v.parent_block()
            owner = b.parent_op if b is not None else None
            if owner is None or not op.is_ancestor(owner):
                seen[v] = None
    return list(seen)


_CONSTANT_OPS = frozenset(("arith.constant", "llvm.mlir.constant"))


def _outline_parallel(fn: FnLowering, op: Operation) -> None:
    from mlc.lowering.to_llvm import FnLowering as Fn

    if op.results:
        raise unsupported("affine.parallel with reductions and 'mlc.parallel'")
    mod = fn.m
    # Constants are rematerialized in the body rather than passed through the context: a load
    # hides their value from LLVM (no folding, no immediate operands) and grows the struct.
    captured, constants = [], []
    for v in _captured(op):
        d = v.defining_op()
        if d is not None and d.name in _CONSTANT_OPS and not d.regions:
            constants.append(d)
        else:
            captured.append(v)
    ctx_type = LLVMStructType([fn.get(v).type for v in captured])
    name = mod.unique_name(f"{fn.func_name}_parallel_body")
    body_fn = llvm.LLVMFuncOp.build_func(
        name, [I64, I64, PTR], None, linkage="internal", location=op.location
    )
    # The module lowering inserts the body before the enclosing function when all succeeded.
    mod.outlined.append((fn.func_name, body_fn))
    bf = Fn(mod, body_fn.regions[0], name)
    bf.loc = op.location
    begin, end, ctx = bf.block.arguments
    for k, v in enumerate(captured):
        p = _struct_field_ptr(bf, ctx, ctx_type, k)
        bf.vmap[v] = bf.v(llvm.LoadOp, [p], fn.get(v).type)
    for c in constants:
        lower_op(bf, c)
    ops = bf.gets(op.operands)
    bounds = _parallel_bounds(bf, op, ops)
    steps = op.step_values  # type: ignore[attr-defined]

    def body(iv: Value, iters: list[Value]) -> list[Value]:
        return _parallel_nest(bf, op, bounds, 1, [iv], iters)

    emit_loop(bf, begin, end, steps[0], [], body, op)
    bf.op(llvm.ReturnOp)
    drop_dead_constants(body_fn)
    # The caller: fill the context, call the runtime.
    lb, ub = _parallel_bounds(fn, op, fn.gets(op.operands))[0]
    ctx_ptr = fn.entry_alloca(ctx_type) if ctx_type.body else None
    for k, v in enumerate(captured):
        p = _struct_field_ptr(fn, ctx_ptr, ctx_type, k)  # type: ignore[arg-type]
        fn.op(llvm.StoreOp, [fn.get(v), p])
    body_ptr = fn.v(llvm.AddressOfOp, [], PTR, {"global_name": A.SymbolRefAttr(name)})
    if ctx_ptr is None:
        ctx_ptr = fn.v(ZeroOp, [], PTR)
    mod.declare("mlc_parallel_for", None, [PTR, PTR, I64, I64, I64])
    min_extent = _min_extent(op)
    merge = None
    if min_extent is not None:
        # Below the extent the caller runs the whole range through the same body (not
        # inlined: the nest is compiled once), without the pool.
        pool, serial, merge = fn.new_block(), fn.new_block(), fn.new_block()
        fn.cond_br(fn.icmp("sge", fn.sub(ub, lb), fn.const(min_extent)), pool, serial)
        fn.enter(serial)
        segments = A.DenseArrayAttr(A.i32, [4, 0])
        attrs = {"operandSegmentSizes": segments, "no_inline": A.UnitAttr()}
        fn.op(llvm.CallOp, [body_ptr, lb, ub, ctx_ptr], [], attrs)  # indirect: @body(lb, ub, ctx)
        fn.br(merge)
        fn.enter(pool)
    fn.call("mlc_parallel_for", [body_ptr, ctx_ptr, lb, ub, fn.const(steps[0])], None)
    if merge is not None:
        fn.br(merge)
        fn.enter(merge)


def _min_extent(op: Operation) -> int | None:
    """The `mlc.parallel_min_extent` of a thread-pool loop (affine-parallelize's run-time
    `min-trips` test): the smallest upper - lower bound run on the pool."""
    attr = op.get_attr(MIN_EXTENT_ATTR)
    if attr is None:
        return None
    if type(attr) is not A.IntegerAttr or attr.value < 1:  # type: ignore[attr-defined]
        raise unsupported(f"'{MIN_EXTENT_ATTR}' must be a positive integer, got {attr}")
    return attr.value  # type: ignore[attr-defined,no-any-return]


def _struct_field_ptr(fn: FnLowering, base: Value, st: A.Type, k: int) -> Value:
    attrs = {
        "rawConstantIndices": A.DenseArrayAttr(A.i32, [0, k]),
        "elem_type": A.TypeAttr(st),
    }
    return fn.v(llvm.GEPOp, [base], PTR, attrs)


@lowering("affine.if")
def _if(fn: FnLowering, op: Operation) -> None:
    iset = op.integer_set  # type: ignore[attr-defined]
    ops = fn.gets(op.operands)
    dims, syms = ops[: iset.num_dims], ops[iset.num_dims :]
    cond = None
    zero = fn.const(0)
    for e, eq in zip(iset.constraints, iset.eq_flags):
        v = fn.expr(e, dims, syms)
        c = fn.icmp("eq" if eq else "sge", v, zero)
        cond = c if cond is None else fn.v(AndOp, [cond, c], A.i1)
    types = [convert_type(r.type) for r in op.results]
    then_b = fn.new_block()
    merge = fn.new_block(types)
    has_else = bool(op.regions[1].blocks)
    else_b = fn.new_block() if has_else else merge
    fn.cond_br(cond, then_b, else_b)  # type: ignore[arg-type]
    fn.enter(then_b)
    fn.br(merge, fn.lower_ops(op.regions[0].blocks[0]))
    if has_else:
        fn.enter(else_b)
        fn.br(merge, fn.lower_ops(op.regions[1].blocks[0]))
    fn.enter(merge)
    for r, v in zip(op.results, merge.arguments):
        fn.vmap[r] = v


@lowering("affine.apply")
def _apply(fn: FnLowering, op: Operation) -> None:
    amap = op.get_attr("map").value  # type: ignore[union-attr]
    fn.vmap[op.results[0]] = fn.map_results(amap, fn.gets(op.operands))[0]


@lowering("affine.min", "affine.max")
def _minmax(fn: FnLowering, op: Operation) -> None:
    amap = op.get_attr("map").value  # type: ignore[union-attr]
    fn.vmap[op.results[0]] = _bound(fn, amap, fn.gets(op.operands), op.name == "affine.min")


# ---------------------------------------------------------------------------------------------
# Accesses


def _access_ptr(fn: FnLowering, op: Operation, memref: Value, indices: Sequence[Value]) -> Value:
    t = memref.type
    amap = op.get_attr("map")
    idx = fn.gets(indices)
    if amap is not None:
        idx = fn.map_results(amap.value, idx)  # type: ignore[attr-defined]
    return fn.element_ptr(t, fn.get(memref), idx)  # type: ignore[arg-type]


def _access_attrs(op: Operation, t: A.Type) -> dict[str, A.Attribute]:
    """The llvm.load/store properties of an access: the element's alignment, or the op's
    `alignment` when larger (memref/vector load and store; the op promises it), and LLVM's
    `nontemporal` hint for `nontemporal = true` (x86: `movntps` for an aligned vector)."""
    align = natural_alignment(t)
    a = op.get_attr("alignment")
    if a is not None:
        align = max(align, a.value)  # type: ignore[attr-defined]
    attrs: dict[str, A.Attribute] = {"alignment": A.IntegerAttr(align, I64)}
    nt = op.get_attr("nontemporal")
    if nt is not None and nt.value:  # type: ignore[attr-defined]
        attrs["nontemporal"] = A.UnitAttr()
    return attrs


def _load(fn: FnLowering, op: Operation, memref: Value, indices: Sequence[Value]) -> None:
    t = convert_type(op.results[0].type)
    p = _access_ptr(fn, op, memref, indices)
    attrs = _access_attrs(op, op.results[0].type)
    fn.vmap[op.results[0]] = fn.v(llvm.LoadOp, [p], t, attrs)


def _store(
    fn: FnLowering, op: Operation, value: Value, memref: Value, indices: Sequence[Value]
) -> None:
    p = _access_ptr(fn, op, memref, indices)
    fn.op(llvm.StoreOp, [fn.get(value), p], [], _access_attrs(op, value.type))


@lowering("affine.load", "affine.vector_load", "memref.load", "vector.load")
def _any_load(fn: FnLowering, op: Operation) -> None:
    _load(fn, op, op.operands[0], op.operands[1:])


@lowering("affine.store", "affine.vector_store", "memref.store", "vector.store")
def _any_store(fn: FnLowering, op: Operation) -> None:
    _store(fn, op, op.operands[0], op.operands[1], op.operands[2:])


# ---------------------------------------------------------------------------------------------
# memref


def _identity_strides(fn: FnLowering, t: A.MemRefType, sizes: Sequence[Value]) -> list[Value]:
    strides, offset = t.strides_and_offset()
    if t.layout is not None and (offset == DYNAMIC or DYNAMIC in strides):
        raise unsupported(f"allocation of {t} (a layout with dynamic strides or offset)")
    if t.layout is not None:
        return [fn.const(s) for s in strides]
    out: list[Value] = []
    acc = fn.const(1)
    for s in reversed(sizes):
        out.append(acc)
        acc = fn.mul(acc, s)
    return list(reversed(out))


def _alloc_sizes(fn: FnLowering, op: Operation) -> tuple[A.MemRefType, list[Value]]:
    t = op.results[0].type
    dyn = iter(fn.gets(op.operands))
    sizes = [next(dyn) if d == DYNAMIC else fn.const(d) for d in t.shape]  # type: ignore[attr-defined]
    return t, sizes  # type: ignore[return-value]


def _offset(t: A.MemRefType) -> int:
    return t.strides_and_offset()[1] if t.layout is not None else 0


def _alloc_shape(
    fn: FnLowering, op: Operation
) -> tuple[A.MemRefType, list[Value], list[Value], Value]:
    """An allocation's type, sizes, identity strides and element count."""
    t, sizes = _alloc_sizes(fn, op)
    convert_type(t)
    strides = _identity_strides(fn, t, sizes)
    n = fn.const(1)
    for s in sizes:
        n = fn.mul(n, s)
    return t, sizes, strides, n


def _workspace(op: Operation) -> bool:
    """A memref.alloc marked `mlc.workspace` (scratch from the thread's workspace, 64-aligned)."""
    a = op.get_attr("alignment")
    return op.get_attr("mlc.workspace") is not None and (a is None or a.value <= 64)  # type: ignore[attr-defined]


# A static buffer of at most this many bytes that lives within one execution of its block
# gets a stack slot instead of malloc/free (at most STACK_FUNCTION_BYTES per function: thread
# stacks are a few MiB).
STACK_BUFFER_BYTES = 32 * 1024
STACK_FUNCTION_BYTES = 256 * 1024
# Uses that access a buffer in place (operand index of the buffer).
_IN_PLACE: dict[str, int] = {
    "affine.load": 0,
    "affine.vector_load": 0,
    "memref.load": 0,
    "vector.load": 0,
    "affine.store": 1,
    "affine.vector_store": 1,
    "memref.store": 1,
    "vector.store": 1,
    "affine.prefetch": 0,
    "memref.dim": 0,
}


def _stack_bytes(op: Operation) -> int | None:
    """The size of a `memref.alloc` that can live in one stack slot of the function's entry
    block, reused by every execution of the alloc (the per-row buffers of a row kernel: no
    malloc/free per row): static, at most STACK_BUFFER_BYTES, used only by accesses in place
    and by one `memref.dealloc` in the alloc's own block, so that each execution's buffer is
    dead before the next one is made; None otherwise."""
    t = op.results[0].type
    if op.operands or _workspace(op) or not t.has_static_shape or t.layout is not None:  # type: ignore[attr-defined]
        return None
    nbytes = element_size(t.element_type)  # type: ignore[attr-defined]
    for d in t.shape:  # type: ignore[attr-defined]
        nbytes *= d
    if nbytes > STACK_BUFFER_BYTES:
        return None
    deallocs = 0
    for use in op.results[0].uses:
        o = use.owner
        if o.name == "memref.dealloc" and o.parent is op.parent:
            deallocs += 1
        elif _IN_PLACE.get(o.name) != use.index:
            return None
    return nbytes if deallocs == 1 else None


def _stack_slot(fn: FnLowering, op: Operation) -> bool:
    """Lower `op` to an entry-block stack slot when `_stack_bytes` allows and the function's
    slots stay within STACK_FUNCTION_BYTES; the slot's memref.dealloc is then a no-op."""
    nbytes = _stack_bytes(op)
    if nbytes is None or fn.stack_bytes + nbytes > STACK_FUNCTION_BYTES:
        return False
    fn.stack_bytes += nbytes
    fn.stack_slots.add(op.results[0])
    t, sizes = _alloc_sizes(fn, op)
    a = op.get_attr("alignment")
    align = max(ALLOC_ALIGNMENT, a.value if a is not None else 0)  # type: ignore[attr-defined]
    p = fn.entry_alloca(LLVMArrayType(max(nbytes, 1), A.i8), align)
    strides = _identity_strides(fn, t, sizes)
    fn.vmap[op.results[0]] = fn.make_desc(p, p, fn.const(_offset(t)), sizes, strides)
    return True


@lowering("memref.alloc")
def _alloc(fn: FnLowering, op: Operation) -> None:
    if _stack_slot(fn, op):
        return
    t, sizes, strides, n = _alloc_shape(fn, op)
    align_attr = op.get_attr("alignment")
    align = max(ALLOC_ALIGNMENT, align_attr.value if align_attr is not None else 0)  # type: ignore[attr-defined]
    nbytes = fn.mul(n, fn.const(element_size(t.element_type)))
    if _workspace(op):
        # A scratch buffer from the calling thread's workspace (mlc/runtime/workspace.py).
        fn.m.declare("mlc_workspace_acquire", PTR, [I64])
        p = fn.call("mlc_workspace_acquire", [nbytes], PTR)
        fn.vmap[op.results[0]] = fn.make_desc(p, p, fn.const(_offset(t)), sizes, strides)  # type: ignore[arg-type]
        return
    total = fn.add(nbytes, fn.const(align - 1))
    fn.m.declare("malloc", PTR, [I64])
    allocated = fn.call("malloc", [total], PTR)
    addr = fn.v(PtrToIntOp, [allocated], I64)  # type: ignore[list-item]
    bumped = fn.add(addr, fn.const(align - 1))
    misalign = fn.v(URemOp, [bumped, fn.const(align)], I64)
    shift = fn.sub(fn.const(align - 1), misalign)
    attrs = {
        "rawConstantIndices": A.DenseArrayAttr(A.i32, [llvm.GEP_DYNAMIC_INDEX]),
        "elem_type": A.TypeAttr(A.i8),
    }
    aligned = fn.v(llvm.GEPOp, [allocated, shift], PTR, attrs)  # type: ignore[list-item]
    fn.vmap[op.results[0]] = fn.make_desc(allocated, aligned, fn.const(_offset(t)), sizes, strides)  # type: ignore[arg-type]


@lowering("memref.alloca")
def _alloca(fn: FnLowering, op: Operation) -> None:
    t, sizes, strides, n = _alloc_shape(fn, op)
    attrs: dict[str, A.Attribute] = {"elem_type": A.TypeAttr(convert_type(t.element_type))}
    a = op.get_attr("alignment")
    if a is not None:
        attrs["alignment"] = A.IntegerAttr(a.value, I64)  # type: ignore[attr-defined]
    p = fn.v(llvm.AllocaOp, [n], PTR, attrs)
    fn.vmap[op.results[0]] = fn.make_desc(p, p, fn.const(_offset(t)), sizes, strides)


@lowering("memref.dealloc")
def _dealloc(fn: FnLowering, op: Operation) -> None:
    if type(op.operands[0].type) is not A.MemRefType:
        raise unsupported("dealloc of an unranked memref")
    if op.operands[0] in fn.stack_slots:
        return
    src = getattr(op.operands[0], "op", None)
    if src is not None and src.name == "memref.alloc" and _workspace(src):
        fn.m.declare("mlc_workspace_release", None, [PTR])
        fn.call("mlc_workspace_release", [fn.desc_field(fn.get(op.operands[0]), 0)], None)
        return
    fn.m.declare("free", None, [PTR])
    fn.call("free", [fn.desc_field(fn.get(op.operands[0]), 0)], None)


@lowering("memref.extract_aligned_pointer_as_index")
def _aligned_pointer(fn: FnLowering, op: Operation) -> None:
    if type(op.operands[0].type) is not A.MemRefType:
        raise unsupported("memref.extract_aligned_pointer_as_index of an unranked memref")
    aligned = fn.desc_field(fn.get(op.operands[0]), 1)
    fn.vmap[op.results[0]] = fn.v(PtrToIntOp, [aligned], I64)  # type: ignore[list-item]


@lowering("memref.dim")
def _dim(fn: FnLowering, op: Operation) -> None:
    t = op.operands[0].type
    if type(t) is not A.MemRefType:
        raise unsupported("memref.dim of an unranked memref")
    desc = fn.get(op.operands[0])
    idx = fn.get(op.operands[1])
    k = fn._cval(idx)
    if k is not None:
        if not 0 <= k < len(t.shape):
            raise unsupported(f"memref.dim with out-of-range index {k}")
        fn.vmap[op.results[0]] = fn.desc_size(t, desc, k)
        return
    # A dynamic index: spill the sizes to the stack and load the one asked for.
    r = len(t.shape)
    arr_t = LLVMArrayType(r, I64)
    sizes = fn.extract(desc, [3], arr_t)
    slot = fn.entry_alloca(arr_t)
    fn.op(llvm.StoreOp, [sizes, slot])
    attrs = {
        "rawConstantIndices": A.DenseArrayAttr(A.i32, [0, llvm.GEP_DYNAMIC_INDEX]),
        "elem_type": A.TypeAttr(arr_t),
    }
    p = fn.v(llvm.GEPOp, [slot, idx], PTR, attrs)
    fn.vmap[op.results[0]] = fn.v(llvm.LoadOp, [p], I64)


@lowering("memref.cast")
def _cast(fn: FnLowering, op: Operation) -> None:
    src, dst = op.operands[0].type, op.results[0].type
    if type(src) is not A.MemRefType or type(dst) is not A.MemRefType:
        raise unsupported("memref.cast to or from an unranked memref")
    fn.vmap[op.results[0]] = fn.get(op.operands[0])


@lowering("memref.copy")
def _copy(fn: FnLowering, op: Operation) -> None:
    src, dst = op.operands[0].type, op.operands[1].type
    if type(src) is not A.MemRefType or type(dst) is not A.MemRefType:
        raise unsupported("memref.copy of unranked memrefs")
    s, d = fn.get(op.operands[0]), fn.get(op.operands[1])
    if src.layout is None and dst.layout is None:  # type: ignore[attr-defined]
        n = fn.num_elements(src, s)  # type: ignore[arg-type]
        nbytes = fn.mul(n, fn.const(element_size(src.element_type)))  # type: ignore[attr-defined]
        attrs = {"isVolatile": A.IntegerAttr(0, A.i1)}
        fn.op(MemcpyOp, [fn.element_ptr(dst, d, []), fn.element_ptr(src, s, []), nbytes], [], attrs)  # type: ignore[arg-type]
        return
    # Strided views: an element-by-element loop nest.
    elem = convert_type(src.element_type)  # type: ignore[attr-defined]
    align = A.IntegerAttr(natural_alignment(src.element_type), I64)  # type: ignore[attr-defined]
    rank = len(src.shape)  # type: ignore[attr-defined]
    sizes = [fn.desc_size(src, s, k) for k in range(rank)]  # type: ignore[arg-type]

    def nest(k: int, ivs: list[Value]) -> None:
        if k == rank:
            v = fn.v(llvm.LoadOp, [fn.element_ptr(src, s, ivs)], elem, {"alignment": align})  # type: ignore[arg-type]
            fn.op(llvm.StoreOp, [v, fn.element_ptr(dst, d, ivs)], [], {"alignment": align})  # type: ignore[arg-type]
            return

        def body(iv: Value, iters: list[Value]) -> list[Value]:
            nest(k + 1, [*ivs, iv])
            return []

        emit_loop(fn, fn.const(0), sizes[k], 1, [], body)

    nest(0, [])


def _global_array_type(t: A.MemRefType) -> A.Type:
    out = convert_type(t.element_type)
    for d in reversed(t.shape):
        out = LLVMArrayType(d, out)
    return out


def lower_global(op: Operation) -> Operation:
    """llvm.mlir.global of a memref.global (nested arrays of the element type)."""
    from mlc.lowering.to_llvm import LegalizeError

    t = op.get_attr("type").value  # type: ignore[union-attr]
    try:
        if not t.has_static_shape or t.layout is not None:
            raise unsupported(f"memref.global of type {t} (static identity-layout shapes only)")
        gt = _global_array_type(t)
    except Exception as e:  # noqa: BLE001 - Unsupported
        raise LegalizeError(op, str(e)) from None
    name = op.get_attr("sym_name")
    vis = op.get_attr("sym_visibility")
    private = vis is not None and vis.value == "private"  # type: ignore[attr-defined]
    init = op.get_attr("initial_value")
    attrs: dict[str, A.Attribute] = {
        "sym_name": name,  # type: ignore[dict-item]
        "global_type": A.TypeAttr(gt),
        "linkage": LinkageAttr("private" if private else "external"),
    }
    if op.get_attr("constant") is not None:
        attrs["constant"] = A.UnitAttr()
    if type(init) is A.DenseElementsAttr:
        et = t.element_type
        value = init
        if et is A.index:
            value = A.DenseElementsAttr(A.RankedTensorType(t.shape, I64), init.array)
        attrs["value"] = value
    # uninitialized (a unit attribute): no value; the translation gives it an undef initializer
    align = op.get_attr("alignment")
    if align is not None:
        attrs["alignment"] = A.IntegerAttr(align.value, I64)  # type: ignore[attr-defined]
    return llvm.GlobalOp.create((), (), attrs, 1, location=op.location)


@lowering("memref.get_global")
def _get_global(fn: FnLowering, op: Operation) -> None:
    t = op.results[0].type
    name = op.get_attr("name").root  # type: ignore[union-attr]
    p = fn.v(llvm.AddressOfOp, [], PTR, {"global_name": A.SymbolRefAttr(name)})
    sizes = [fn.const(d) for d in t.shape]  # type: ignore[attr-defined]
    strides = _identity_strides(fn, t, sizes)  # type: ignore[arg-type]
    fn.vmap[op.results[0]] = fn.make_desc(p, p, fn.const(0), sizes, strides)


# ---------------------------------------------------------------------------------------------
# Views


def _mixed(fn: FnLowering, static: Sequence[int], dynamic: Sequence[Value]) -> list[Value]:
    """Static values (DYNAMIC or MLIR's kDynamic, -2**63, marks the next dynamic operand) as i64
    values."""
    dyn = iter(dynamic)
    return [next(dyn) if s in (DYNAMIC, -(2**63)) else fn.const(s) for s in static]


def _view_operands(fn: FnLowering, op: Operation) -> tuple[list[Value], list[Value], list[Value]]:
    seg = op.get_attr("operandSegmentSizes").values  # type: ignore[union-attr]
    ops = fn.gets(op.operands)
    start = seg[0]
    offs = ops[start : start + seg[1]]
    sizes = ops[start + seg[1] : start + seg[1] + seg[2]]
    strides = ops[start + seg[1] + seg[2] :]
    return (
        _mixed(fn, op.get_attr("static_offsets").values, offs),  # type: ignore[union-attr]
        _mixed(fn, op.get_attr("static_sizes").values, sizes),  # type: ignore[union-attr]
        _mixed(fn, op.get_attr("static_strides").values, strides),  # type: ignore[union-attr]
    )


def _kept_dims(op: Operation, static_sizes: Sequence[int], result: A.MemRefType) -> list[int]:
    """The source dims a (possibly rank-reducing) subview keeps: unit dims are dropped where the
    result shape does not have them (a dropped dim has size 1, so its stride is irrelevant)."""
    kept: list[int] = []
    j = 0
    for k, s in enumerate(static_sizes):
        if j < len(result.shape) and (result.shape[j] == s or DYNAMIC in (s, result.shape[j])):
            kept.append(k)
            j += 1
        elif s != 1:
            raise unsupported(f"the rank reduction of '{op.name}' to {result}")
    if j != len(result.shape):
        raise unsupported(f"the rank reduction of '{op.name}' to {result}")
    return kept


@lowering("memref.subview")
def _subview(fn: FnLowering, op: Operation) -> None:
    src_t: A.MemRefType = op.operands[0].type  # type: ignore[assignment]
    res_t: A.MemRefType = op.results[0].type  # type: ignore[assignment]
    convert_type(res_t)
    desc = fn.get(op.operands[0])
    offsets, sizes, strides = _view_operands(fn, op)
    src_strides, src_offset = src_t.strides_and_offset()
    off = fn.extract(desc, [2], I64) if src_offset == DYNAMIC else fn.const(src_offset)
    new_strides = []
    for k in range(len(src_t.shape)):
        s = fn.desc_stride(src_t, desc, k, src_strides)
        off = fn.add(off, fn.mul(offsets[k], s))
        new_strides.append(fn.mul(strides[k], s))
    kept = _kept_dims(op, op.get_attr("static_sizes").values, res_t)  # type: ignore[union-attr]
    fn.vmap[op.results[0]] = fn.make_desc(
        fn.desc_field(desc, 0),
        fn.desc_field(desc, 1),
        off,
        [sizes[k] for k in kept],
        [new_strides[k] for k in kept],
    )


@lowering("memref.reinterpret_cast")
def _reinterpret_cast(fn: FnLowering, op: Operation) -> None:
    if type(op.operands[0].type) is not A.MemRefType:
        raise unsupported("memref.reinterpret_cast of an unranked memref")
    convert_type(op.results[0].type)
    desc = fn.get(op.operands[0])
    (offset,), sizes, strides = _view_operands(fn, op)
    fn.vmap[op.results[0]] = fn.make_desc(
        fn.desc_field(desc, 0), fn.desc_field(desc, 1), offset, sizes, strides
    )
