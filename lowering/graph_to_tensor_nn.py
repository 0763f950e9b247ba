"""`convert-graph-to-tensor`, part 2: matmul, reductions, softmax, conv2d and pooling as
tensor.generic ops with reduction loops (registered into `graph_to_tensor.LOWERINGS`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mlc.dialects import arith, graph, math, tensor
from mlc.passes.math_approx import SHIFTED_EXP
from mlc.lowering.graph_to_tensor import (
    DYNAMIC,
    FLOATS,
    LOWERINGS,
    PARALLEL,
    REDUCTION,
    Body,
    Emitter,
    broadcast_map,
    identity_map,
    identity_value,
    ranked,
    scalar_constant,
    unsupported,
)

from mlc.ir import attributes as A
from mlc.ir.affine import AffineExpr, AffineMap, dim
from mlc.ir.core import Operation, Value
from mlc.knobs import Bool

Size = int | Value


def _type_of(sizes: Sequence[Size], et: A.Type) -> A.RankedTensorType:
    return A.RankedTensorType([s if isinstance(s, int) else DYNAMIC for s in sizes], et)


def _map(n: int, exprs: Sequence[AffineExpr]) -> AffineMap:
    return AffineMap(n, 0, list(exprs))


# ---------------------------------------------------------------------------------------------
# Matmul


def permuted_source(v: Value) -> tuple[Value, list[int]] | None:
    """(x, where) if `v` is a transposed copy of `x` (the generic lower_transpose builds: one
    input read through a permutation, an identity output, a body yielding the input): dim i
    of `v` is dim `where[i]` of `x`. Consumers then read `x` directly, through composed maps."""
    gen = v.defining_op()
    if type(gen) is not tensor.GenericOp or gen.has_buffer_semantics:
        return None
    if len(gen.inputs) != 1 or len(gen.outputs) != 1 or len(gen.results) != 1:
        return None
    in_map, out_map = gen.indexing_map_list()
    if not in_map.is_permutation() or out_map != identity_map(out_map.num_dims):
        return None
    if any(k.value != "parallel" for k in gen.iterator_types):
        return None
    block = gen.regions[0].blocks[0]
    term = block.first
    if term is not block.last or term._operands[0].value is not block.arguments[0]:
        return None
    where = [0] * in_map.num_dims
    for j, r in enumerate(in_map.results):
        where[r.position] = j  # type: ignore[attr-defined]
    return gen.inputs[0], where


def lower_matmul(em: Emitter, op: Operation, operands: list[Value]) -> list[Value]:
    """One generic with loops (batch..., m, n, k), k a reduction, accumulating into a
    zero-filled output; batch dims broadcast through the maps. A transposed operand is read
    in place through a permuted map (no transposed copy is materialized)."""
    a, b = operands
    at, bt = ranked(a), ranked(b)
    res_t = ranked(em.result_type)
    et = res_t.element_type
    nb = res_t.rank - 2
    n = nb + 3
    out_batch = res_t.shape[:nb]
    a_batch, b_batch = at.shape[:-2], bt.shape[:-2]
    a_exprs = [*broadcast_map(a_batch, out_batch, n).results, dim(nb), dim(nb + 2)]
    b_exprs = [*broadcast_map(b_batch, out_batch, n).results, dim(nb + 2), dim(nb + 1)]
    # Each operand as (the value read, its dim for each dim of the logical operand).
    sources = []
    for v in (a, b):
        src = permuted_source(v)
        sources.append(src if src is not None else (v, list(range(ranked(v).rank))))

    def size(k: int, i: int) -> Size:
        v, where = sources[k]
        return em.size_of(v, where[i])

    sizes: list[Size] = []
    for i, d in enumerate(out_batch):
        if d != DYNAMIC:
            sizes.append(d)
            continue
        for k, shape in enumerate((a_batch, b_batch)):
            j = i - (nb - len(shape))
            if j >= 0 and shape[j] != 1:
                sizes.append(shape[j] if shape[j] != DYNAMIC else size(k, j))
                break
        else:
            sizes.append(1)
    sizes += [size(0, at.rank - 2), size(1, bt.rank - 1)]
    out_t = _type_of(sizes, et)
    init = em.fill(out_t, sizes, 0)
    maps = []
    for (_, where), exprs in zip(sources, (a_exprs, b_exprs)):
        read = [exprs[0]] * len(where)
        for i, j in enumerate(where):
            read[j] = exprs[i]
        maps.append(_map(n, read))
    maps.append(_map(n, [dim(i) for i in range(nb + 2)]))

    def body(bb: Body, args: list[Value]) -> list[Value]:
        x, y, acc = args  # graph.matmul rejects i1, so mul/add are arithmetic
        return [bb.add(acc, bb.mul(x, y))]

    iters = [PARALLEL] * (nb + 2) + [REDUCTION]
    out = em.generic([sources[0][0], sources[1][0]], [init], maps, iters, body)[0]
    return [em.cast(out, res_t)]


# ---------------------------------------------------------------------------------------------
# Reductions and softmax

_COMBINE = {
    "sum": Body.add,
    "max": Body.max,
    "min": Body.min,
    # IEEE maxNum (a NaN operand is ignored): cheaper than maximumf's NaN and signed-zero
    # handling, for reductions whose users give the same result either way (softmax).
    "maxnum": lambda b, x, y: b.op(arith.MaxNumFOp, [x, y]),
}


def reduce_to(em: Emitter, x: Value, axes: Sequence[int], kind: str) -> Value:
    """`kind` (sum, max, min) of `x` over `axes`, without the reduced dims: a generic with
    reduction loops over an output filled with the identity."""
    xt = ranked(x)
    rank = xt.rank
    kept = [i for i in range(rank) if i not in axes]
    sizes = [em.size_of(x, i) for i in kept]
    init = em.fill(_type_of(sizes, xt.element_type), sizes, identity_value(kind, xt.element_type))
    maps = [identity_map(rank), _map(rank, [dim(i) for i in kept])]
    iters = [REDUCTION if i in axes else PARALLEL for i in range(rank)]
    combine = _COMBINE[kind]
    return em.generic([x], [init], maps, iters, lambda b, a: [combine(b, a[0], a[1])])[0]


def keepdims_groups(rank: int, axes: Sequence[int]) -> list[list[int]]:
    """Reassociation of the expansion from the reduced shape to the keepdims shape: each kept
    dim with the reduced (unit) dims after it; leading reduced dims join the first group."""
    kept = [i for i in range(rank) if i not in axes]
    if not kept:
        return []
    groups = [[k] for k in kept]
    for a in axes:
        owner = max((g for g, k in enumerate(kept) if k < a), default=0)
        groups[owner].append(a)
    return [sorted(g) for g in groups]


_REDUCE_KIND = {
    graph.ReduceSumOp: "sum",
    graph.ReduceMaxOp: "max",
    graph.ReduceMinOp: "min",
    graph.ReduceMeanOp: "sum",
}


def lower_reduce(em: Emitter, op: Operation, operands: list[Value]) -> list[Value]:
    """reduce_to, then for reduce_mean a division by the number of reduced elements, then for
    keepdims a tensor.expand_shape restoring the reduced dims as 1."""
    (x,) = operands
    xt = ranked(x)
    et = xt.element_type
    res_t = em.result_type
    axes = list(op.axes_value())  # type: ignore[attr-defined]
    if not axes:
        return [em.cast(x, res_t)]
    kind = _REDUCE_KIND[type(op)]  # sum/mean reject i1; max/min on i1 are or/and
    red = reduce_to(em, x, axes, kind)
    if type(op) is graph.ReduceMeanOp:
        count: Size = 1
        for a in axes:
            count = em.mul(count, em.size_of(x, a))
        kept = [em.size_of(x, i) for i in range(xt.rank) if i not in axes]
        red = _divide_by_count(em, red, kept, count)
    if op.keepdims_value():  # type: ignore[attr-defined]
        rank = xt.rank
        sizes: list[Size] = [1 if i in axes else em.size_of(x, i) for i in range(rank)]
        red = em.expand(red, _type_of(sizes, et), keepdims_groups(rank, axes), sizes)
    return [em.cast(red, res_t)]


def _divide_by_count(em: Emitter, x: Value, sizes: Sequence[Size], count: Size) -> Value:
    """x / count elementwise (x with dim sizes `sizes`; count a static int or an index value,
    converted to the element type)."""
    xt = ranked(x)
    et = xt.element_type
    if isinstance(count, int):
        c = em.rewriter.insert(scalar_constant(float(count), et, em.loc)).results[0]
    else:
        i64 = em.create(arith.IndexCastOp, [count], [A.i64]).results[0]
        c = em.create(arith.SIToFPOp, [i64], [et]).results[0]
    rank = xt.rank
    init = em.empty(xt, sizes)
    ident = identity_map(rank)
    return em.generic(
        [x], [init], [ident, ident], [PARALLEL] * rank,
        lambda b, a: [b.op(arith.DivFOp, [a[0], c])],
    )[0]  # fmt: skip


def lower_softmax(em: Emitter, op: Operation, operands: list[Value]) -> list[Value]:
    """Numerically stable: m = max(x), e = exp(x - m), s = sum(e), e * (1 / s) along `axis`
    (knob `reciprocal`, default on: one divide per row instead of one per element; the result
    differs from e / s by at most about one ulp), else e / s. Knob `shifted_exp` (default on)
    marks the exp as taking arguments <= 0 (`mlc.shifted_exp`), which
    math-polynomial-approximation expands in 12 vector ops instead of 20: exponentials below
    2^-126 (so outputs below about 2^-126) flushed to zero, relative error below 2^-21 (the
    exact exp: below 2^-23)."""
    (x,) = operands
    xt = ranked(x)
    rank = xt.rank
    axis = op.axis_value()  # type: ignore[attr-defined]
    sizes = [em.size_of(x, i) for i in range(rank)]
    ident = identity_map(rank)
    drop = _map(rank, [dim(i) for i in range(rank) if i != axis])
    par = [PARALLEL] * rank
    # The row maximum only shifts the exponents: a NaN in the row makes its sum and so the
    # whole row NaN whether or not the maximum propagated it, and exp(x - (+0)) = exp(x - (-0)),
    # so maxnumf (one vmaxps and a NaN select per vector) gives maximumf's results.
    floats = xt.element_type in FLOATS
    m = reduce_to(em, x, [axis], "maxnum" if floats else "max")
    # x - m is <= 0 (or NaN): math-polynomial-approximation may then expand the exp with one
    # clamp, a shorter reduction and polynomial and one scaling, flushing results below
    # 2^-126 to zero (knob `shifted_exp`).
    exp_attrs = None
    if floats and em.knob(op, "shifted_exp", Bool(), True):
        exp_attrs = {SHIFTED_EXP: A.UnitAttr()}
    e = em.generic(
        [x, m], [em.empty(xt, sizes)], [ident, drop, ident], par,
        lambda b, a: [b.op(math.ExpOp, [b.op(arith.SubFOp, [a[0], a[1]])], attrs=exp_attrs)],
    )[0]  # fmt: skip
    s = reduce_to(em, e, [axis], "sum")
    if em.knob(op, "reciprocal", Bool(), True):
        st = ranked(s)
        rank_s = st.rank
        s = em.generic(
            [s], [em.empty(st, [em.size_of(s, i) for i in range(rank_s)])],
            [identity_map(rank_s)] * 2, [PARALLEL] * rank_s,
            lambda b, a: [b.div(b.const(1.0, st.element_type), a[0])],
        )[0]  # fmt: skip
        combine: Any = arith.MulFOp
    else:
        combine = arith.DivFOp
    y = em.generic(
        [e, s], [em.empty(xt, sizes)], [ident, drop, ident], par,
        lambda b, a: [b.op(combine, [a[0], a[1]])],
    )[0]  # fmt: skip
    return [em.cast(y, em.result_type)]


# ---------------------------------------------------------------------------------------------
# Convolution and pooling


def window_count(
    em: Emitter, size: Size, pad: int, extent: Size, dilation: int, stride: int
) -> Size:
    """Output positions of a window: (size + pad - dilation * (extent - 1) - 1) // stride + 1."""
    if isinstance(size, int) and isinstance(extent, int):
        return (size + pad - dilation * (extent - 1) - 1) // stride + 1
    span = em.mul(em.add(extent, -1), dilation)  # dilation * (extent - 1)
    room = em.sub(em.add(size, pad - 1), span)
    return em.add(em.floordiv(room, stride), 1)


def lower_conv2d(em: Emitter, op: Operation, operands: list[Value]) -> list[Value]:
    """Zero padding (tensor.pad), then one generic with loops (n, o, oh, ow, ci, kh, kw) and
    the input read at (n, g * C/G + ci, oh * sh + kh * dh, ow * sw + kw * dw), g = o // (O/G);
    the output starts as the broadcast bias (or zeros)."""
    x, w = operands[0], operands[1]
    bias = operands[2] if len(operands) > 2 else None
    xt, wt = ranked(x), ranked(w)
    et = xt.element_type
    sh, sw = op.strides_value()  # type: ignore[attr-defined]
    top, left, bottom, right = op.pads_value()  # type: ignore[attr-defined]
    dh, dw = op.dilations_value()  # type: ignore[attr-defined]
    groups = op.groups_value()  # type: ignore[attr-defined]
    o_static, cg, _, _ = wt.shape
    if groups > 1 and (o_static == DYNAMIC or cg == DYNAMIC):
        raise unsupported("grouped graph.conv2d with a dynamic number of filter channels")
    if bias is not None:
        ranked(bias)
    xp = em.pad(x, [0, 0, top, left], [0, 0, bottom, right], 0.0)
    sizes: list[Size] = [
        em.size_of(x, 0),
        em.size_of(w, 0),
        window_count(em, em.size_of(x, 2), top + bottom, em.size_of(w, 2), dh, sh),
        window_count(em, em.size_of(x, 3), left + right, em.size_of(w, 3), dw, sw),
    ]
    out_t = _type_of(sizes, et)
    ident4 = identity_map(4)
    if bias is not None:
        init = em.generic(
            [bias], [em.empty(out_t, sizes)], [_map(4, [dim(1)]), ident4], [PARALLEL] * 4,
            lambda b, a: [a[0]],
        )[0]  # fmt: skip
    else:
        init = em.fill(out_t, sizes, 0.0)
    channel = dim(4) if groups == 1 else dim(1).floordiv(o_static // groups) * cg + dim(4)
    in_map = _map(7, [dim(0), channel, dim(2) * sh + dim(5) * dh, dim(3) * sw + dim(6) * dw])
    w_map = _map(7, [dim(1), dim(4), dim(5), dim(6)])
    out_map = _map(7, [dim(0), dim(1), dim(2), dim(3)])
    iters = [PARALLEL] * 4 + [REDUCTION] * 3
    out = em.generic(
        [xp, w], [init], [in_map, w_map, out_map], iters,
        lambda b, a: [b.op(arith.AddFOp, [a[2], b.op(arith.MulFOp, [a[0], a[1]])])],
    )[0]  # fmt: skip
    return [em.cast(out, em.result_type)]


def _window_generic(
    em: Emitter, x: Value, init: Value, kernel: Sequence[int], strides: Sequence[int], add: bool
) -> Value:
    """Sum (add) or max of the windows of `x` (rank 2 or 4, windows on the last two dims) into
    `init`; the kernel loops take their sizes from a tensor.empty of the kernel shape."""
    rank = ranked(x).rank
    n = rank + 2
    kh, kw = rank, rank + 1
    lead = [dim(i) for i in range(rank - 2)]
    sh, sw = strides
    in_map = _map(n, [*lead, dim(rank - 2) * sh + dim(kh), dim(rank - 1) * sw + dim(kw)])
    window = em.empty(A.RankedTensorType(list(kernel), ranked(x).element_type), [])
    maps = [in_map, _map(n, [dim(kh), dim(kw)]), _map(n, [dim(i) for i in range(rank)])]
    iters = [PARALLEL] * rank + [REDUCTION] * 2
    if add:
        return em.generic(
            [x, window], [init], maps, iters, lambda b, a: [b.op(arith.AddFOp, [a[2], a[0]])]
        )[0]
    return em.generic(
        [x, window], [init], maps, iters, lambda b, a: [b.op(arith.MaximumFOp, [a[2], a[0]])]
    )[0]


def lower_pool2d(em: Emitter, op: Operation, operands: list[Value]) -> list[Value]:
    """Pad with -inf (max) or 0 (avg), a generic with window loops (kh, kw) as reductions; avg
    divides by the number of non-padded elements per window: kh * kw without padding, else
    the same window sum over a zero-padded tensor of ones."""
    (x,) = operands
    xt = ranked(x)
    et = xt.element_type
    kernel = op.kernel_value()  # type: ignore[attr-defined]
    strides = op.strides_value()  # type: ignore[attr-defined]
    top, left, bottom, right = op.pads_value()  # type: ignore[attr-defined]
    is_max = type(op) is graph.MaxPool2DOp
    pad_value = float("-inf") if is_max else 0.0
    xp = em.pad(x, [0, 0, top, left], [0, 0, bottom, right], pad_value)
    h, w = em.size_of(x, 2), em.size_of(x, 3)
    oh = window_count(em, h, top + bottom, kernel[0], 1, strides[0])
    ow = window_count(em, w, left + right, kernel[1], 1, strides[1])
    sizes: list[Size] = [em.size_of(x, 0), em.size_of(x, 1), oh, ow]
    out_t = _type_of(sizes, et)
    init = em.fill(out_t, sizes, pad_value)
    out = _window_generic(em, xp, init, kernel, strides, add=not is_max)
    if not is_max:
        if not any((top, left, bottom, right)):
            out = _divide_by_count(em, out, sizes, kernel[0] * kernel[1])
        else:
            ones = em.fill(_type_of([h, w], et), [h, w], 1.0)
            padded = em.pad(ones, [top, left], [bottom, right], 0.0)
            counts = em.fill(_type_of([oh, ow], et), [oh, ow], 0.0)
            counts = _window_generic(em, padded, counts, kernel, strides, add=True)
            ident = identity_map(4)
            out = em.generic(
                [out, counts], [em.empty(out_t, sizes)],
                [ident, _map(4, [dim(2), dim(3)]), ident], [PARALLEL] * 4,
                lambda b, a: [b.op(arith.DivFOp, [a[0], a[1]])],
            )[0]  # fmt: skip
    return [em.cast(out, em.result_type)]


LOWERINGS.update({
    graph.MatmulOp: lower_matmul,
    graph.ReduceSumOp: lower_reduce,
    graph.ReduceMaxOp: lower_reduce,
    graph.ReduceMinOp: lower_reduce,
    graph.ReduceMeanOp: lower_reduce,
    graph.SoftmaxOp: lower_softmax,
    graph.Conv2DOp: lower_conv2d,
    graph.MaxPool2DOp: lower_pool2d,
    graph.AvgPool2DOp: lower_pool2d,
})  # fmt: skip
