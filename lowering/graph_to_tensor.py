"""`convert-graph-to-tensor`: lower every graph op to tensor-level IR (tensor.generic with
arith/math bodies, tensor.empty/pad/extract_slice/insert_slice/collapse_shape/expand_shape).

This module holds the pass, the shared building helpers, the elementwise, constant, data
movement and graph.fused lowerings; matmul, reductions, softmax, conv2d and pooling live in
`graph_to_tensor_nn`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mlc.dialects import arith, graph, math, tensor
from mlc.lowering.index_arith import IndexArith
from mlc.passes.tensor_fusion import fuse_in_block

from mlc.diagnostics import Diagnostic, engine
from mlc.ir import attributes as A
from mlc.ir.affine import AffineExpr, AffineMap, const, dim
from mlc.ir.core import Block, Operation, Region, Value
from mlc.knobs import Domain
from mlc.pass_manager import KnobDecl, Option, Pass, PassContext, Statistic
from mlc.rewrite.conversion import (
    ConversionPattern,
    ConversionPatternRewriter,
    ConversionTarget,
    apply_full_conversion,
)

__all__ = ["ConvertGraphToTensorPass", "graph_to_tensor_patterns", "LOWERINGS"]

DYNAMIC = A.DYNAMIC
PARALLEL, REDUCTION = tensor.PARALLEL, tensor.REDUCTION
FLOATS = frozenset((A.f16, A.f32, A.f64))


# Asks the running pass's knob context: (graph op, knob name, domain, default) -> decision.
KnobFn = Callable[[Operation, str, Domain, Any], Any]


class Unsupported(Exception):
    """A graph op this conversion cannot lower; the message says what (`not supported: ...`)."""


def unsupported(what: str) -> Unsupported:
    return Unsupported(f"not supported: {what}")


# ---------------------------------------------------------------------------------------------
# Building scalar bodies


def scalar_constant(value: float, t: A.Type, loc: A.Location | None) -> Operation:
    """arith.constant of float or integer type `t` (ints wrap; i1 is 0/1)."""
    if t in FLOATS:
        c = arith.ConstantOp.from_float(value, t)
    elif t is A.i1:
        c = arith.ConstantOp.from_attr(A.BoolAttr(bool(value)))
    else:
        c = arith.ConstantOp.from_int(int(value), t)
    c.location = loc
    return c


class Body:
    """Appends scalar arith/math ops to a block (a tensor.generic or tensor.pad body)."""

    __slots__ = ("block", "loc")

    def __init__(self, block: Block, loc: A.Location | None) -> None:
        self.block = block
        self.loc = loc

    def op(
        self,
        cls: Any,
        operands: Sequence[Value],
        result_types: Sequence[A.Type] | None = None,
        attrs: dict[str, A.Attribute] | None = None,
    ) -> Value:
        new = cls.build(list(operands), result_types, attrs, None, (), self.loc)
        self.block.append(new)
        return new.results[0]

    def const(self, value: float, t: A.Type) -> Value:
        c = scalar_constant(value, t, self.loc)
        self.block.append(c)
        return c.results[0]

    def cmp(self, predicate: str, a: Value, b: Value) -> Value:
        cls = arith.CmpFOp if a.type in FLOATS else arith.CmpIOp
        c = cls.get(predicate, a, b)
        c.location = self.loc
        self.block.append(c)
        return c.results[0]

    # Typed helpers: pick the float, integer or i1 flavour from the operand type.

    def add(self, a: Value, b: Value) -> Value:
        return self.op(arith.AddFOp if a.type in FLOATS else arith.AddIOp, [a, b])

    def sub(self, a: Value, b: Value) -> Value:
        return self.op(arith.SubFOp if a.type in FLOATS else arith.SubIOp, [a, b])

    def mul(self, a: Value, b: Value) -> Value:
        return self.op(arith.MulFOp if a.type in FLOATS else arith.MulIOp, [a, b])

    def div(self, a: Value, b: Value) -> Value:
        return self.op(arith.DivFOp if a.type in FLOATS else arith.DivSIOp, [a, b])

    def max(self, a: Value, b: Value) -> Value:
        """np.maximum: NaN-propagating on floats, signed on ints, `or` on i1."""
        t = a.type
        cls = arith.MaximumFOp if t in FLOATS else arith.OrIOp if t is A.i1 else arith.MaxSIOp
        return self.op(cls, [a, b])

    def min(self, a: Value, b: Value) -> Value:
        """np.minimum: NaN-propagating on floats, signed on ints, `and` on i1."""
        t = a.type
        cls = arith.MinimumFOp if t in FLOATS else arith.AndIOp if t is A.i1 else arith.MinSIOp
        return self.op(cls, [a, b])


def identity_value(kind: str, t: A.Type) -> float:
    """The neutral element of a reduction `kind` (sum, max, maxnum, min) on element type `t`."""
    if kind == "sum":
        return 0
    if t in FLOATS:
        return float("-inf") if kind in ("max", "maxnum") else float("inf")
    if t is A.i1:
        return 0 if kind == "max" else 1  # or / and
    bits = t.width  # type: ignore[attr-defined]
    return -(1 << (bits - 1)) if kind == "max" else (1 << (bits - 1)) - 1


# ---------------------------------------------------------------------------------------------
# Building tensor-level IR before the op being lowered


def identity_map(n: int) -> AffineMap:
    return AffineMap(n, 0, [dim(i) for i in range(n)])


def broadcast_map(shape: Sequence[int], out_shape: Sequence[int], n_loops: int) -> AffineMap:
    """Map from the loops of `out_shape` (trailing-aligned, NumPy broadcasting) to an operand
    of `shape`: a static size-1 dim against a non-1 result dim reads index 0, dropped leading
    dims are not indexed. A `?` operand dim is assumed equal to the result dim."""
    off = len(out_shape) - len(shape)
    exprs: list[AffineExpr] = []
    for j, d in enumerate(shape):
        i = off + j
        exprs.append(const(0) if d == 1 and out_shape[i] != 1 else dim(i))
    return AffineMap(n_loops, 0, exprs)


def ranked(v: Value | A.Type) -> A.RankedTensorType:
    t = v if isinstance(v, A.Type) else v.type
    if type(t) is not A.RankedTensorType:
        raise unsupported(f"unranked tensor type {t}")
    return t


class Emitter(IndexArith):
    """Creates ops through the conversion rewriter, before the op being lowered, at its
    location; caches index constants."""

    __slots__ = ("rewriter", "loc", "result_type", "knob_fn", "_indices", "_dims")

    def __init__(
        self,
        rewriter: Any,
        loc: A.Location | None,
        result_type: A.Type | None = None,
        knob_fn: KnobFn | None = None,
    ) -> None:
        self.rewriter = rewriter
        self.loc = loc
        self.knob_fn = knob_fn
        # The type the lowering produces for the op's (first) result: the op's result type, or
        # the inferred ranked type when the op declares an unranked result.
        self.result_type = result_type
        self._indices: dict[int, Value] = {}
        self._dims: dict[tuple[Value, int], Value] = {}

    def knob(self, op: Operation, name: str, domain: Domain, default: Any) -> Any:
        """The pass's decision `name` for graph op `op` (the default outside a pass run)."""
        return default if self.knob_fn is None else self.knob_fn(op, name, domain, default)

    def create(
        self,
        cls: Any,
        operands: Sequence[Any] = (),
        result_types: Sequence[Any] | None = None,
        attrs: dict[str, A.Attribute] | None = None,
        regions: Sequence[Region] | None = None,
    ) -> Operation:
        op = cls.build(list(operands), result_types, attrs, regions, (), self.loc)
        return self.rewriter.insert(op)

    # -- index arithmetic (shapes) ------------------------------------------------------------

    def index(self, n: int) -> Value:
        v = self._indices.get(n)
        if v is None:
            c = arith.ConstantOp.from_int(n, A.index)
            c.location = self.loc
            v = self._indices[n] = self.rewriter.insert(c).results[0]
        return v

    def dim(self, v: Value, i: int) -> Value:
        """Size of dim `i` of tensor `v` as an index (a constant when static)."""
        d = ranked(v).shape[i]
        if d != DYNAMIC:
            return self.index(d)
        size = self._dims.get((v, i))
        if size is None:
            size = self._dims[v, i] = self.create(tensor.DimOp, [v, self.index(i)]).results[0]
        return size

    def arith_op(self, cls: Any, operands: list[Value]) -> Value:
        return self.create(cls, operands).results[0]

    def size_of(self, v: Value, i: int) -> int | Value:
        """Dim `i` of `v`: an int when static, else a tensor.dim value."""
        d = ranked(v).shape[i]
        return d if d != DYNAMIC else self.dim(v, i)

    # -- tensors -------------------------------------------------------------------------------

    def empty(self, t: A.RankedTensorType, sizes: Sequence[int | Value | None]) -> Value:
        """tensor.empty of type `t`; `sizes[i]` gives dim i where `t` has `?`."""
        dyn = [self.size(sizes[i]) for i, d in enumerate(t.shape) if d == DYNAMIC]  # type: ignore
        return self.create(tensor.EmptyOp, [dyn], [t]).results[0]

    def generic(
        self,
        inputs: Sequence[Value],
        outputs: Sequence[Value],
        maps: Sequence[AffineMap],
        iterators: Sequence[str],
        body: Callable[[Body, list[Value]], list[Value]],
    ) -> list[Value]:
        """A tensor.generic; `body(b, args)` builds the scalar ops and returns the yielded values
        (`args`: one element per input, then per output)."""
        block = Block([v.type.element_type for v in (*inputs, *outputs)])  # type: ignore
        b = Body(block, self.loc)
        yielded = body(b, list(block.arguments))
        block.append(tensor.YieldOp.build([yielded], None, None, None, (), self.loc))
        attrs = {
            "indexing_maps": A.ArrayAttr([A.AffineMapAttr(m) for m in maps]),
            "iterator_types": A.ArrayAttr([A.StringAttr(k) for k in iterators]),
        }
        op = self.create(
            tensor.GenericOp,
            [list(inputs), list(outputs)],
            [[v.type for v in outputs]],
            attrs,
            [Region([block])],
        )
        return list(op.results)

    def fill(
        self, t: A.RankedTensorType, sizes: Sequence[int | Value | None], value: float
    ) -> Value:
        """A tensor of type `t` with every element `value` (a generic without inputs over a
        tensor.empty, as linalg.fill on tensors)."""
        init = self.empty(t, sizes)
        et = t.element_type
        rank = t.rank
        return self.generic(
            [], [init], [identity_map(rank)], [PARALLEL] * rank, lambda b, a: [b.const(value, et)]
        )[0]

    def pad(self, x: Value, low: Sequence[int], high: Sequence[int], value: float) -> Value:
        """tensor.pad of `x` with static `low`/`high` amounts and a constant `value`."""
        t = ranked(x)
        if not any(low) and not any(high):
            return x
        et = t.element_type
        pad_value = self.rewriter.insert(scalar_constant(value, et, self.loc)).results[0]
        block = Block([A.index] * t.rank)
        block.append(tensor.YieldOp.build([[pad_value]], None, None, None, (), self.loc))
        shape = [DYNAMIC if d == DYNAMIC else d + lo + hi for d, lo, hi in zip(t.shape, low, high)]
        attrs = {"static_low": tensor.i64_array(low), "static_high": tensor.i64_array(high)}
        op = self.create(
            tensor.PadOp,
            [x, [], []],
            [A.RankedTensorType(shape, et)],
            attrs,
            [Region([block])],
        )
        return op.results[0]

    def cast(self, v: Value, t: A.Type) -> Value:
        """`v` as type `t` (a tensor.cast when the static information differs)."""
        if v.type is t:
            return v
        return self.create(tensor.CastOp, [v], [t]).results[0]

    def expand(
        self, v: Value, t: A.RankedTensorType, groups: list[list[int]], sizes: Sequence[Any]
    ) -> Value:
        """tensor.expand_shape of `v` into `t`; `sizes[i]` gives dim i where `t` has `?`."""
        dyn = [self.size(sizes[i]) for i, d in enumerate(t.shape) if d == DYNAMIC]
        static = [tensor.to_static_entry(d) for d in t.shape]
        attrs = {
            "reassociation": tensor.reassociation_attr(groups),
            "static_output_shape": tensor.i64_array(static),
        }
        return self.create(tensor.ExpandShapeOp, [v, dyn], [t], attrs).results[0]

    def collapse(self, v: Value, t: A.RankedTensorType, groups: list[list[int]]) -> Value:
        attrs = {"reassociation": tensor.reassociation_attr(groups)}
        return self.create(tensor.CollapseShapeOp, [v], [t], attrs).results[0]


def broadcast_size(
    em: Emitter, operands: Sequence[Value], shapes: Sequence[Sequence[int]], out_rank: int, i: int
) -> int | Value:
    """Size of result dim `i` of a NumPy broadcast: from an operand whose (trailing-aligned)
    dim is not a static 1 (a `?` one is assumed to be the broadcast size), else 1."""
    for v, s in zip(operands, shapes):
        j = i - (out_rank - len(s))
        if j < 0 or s[j] == 1:
            continue
        return s[j] if s[j] != DYNAMIC else em.dim(v, j)
    return 1


# ---------------------------------------------------------------------------------------------
# Elementwise ops

ScalarFn = Callable[[Body, list[Value], Operation], Value]

_CMP_F = {"eq": "oeq", "ne": "une", "lt": "olt", "le": "ole", "gt": "ogt", "ge": "oge"}
_CMP_SI = {"eq": "eq", "ne": "ne", "lt": "slt", "le": "sle", "gt": "sgt", "ge": "sge"}
# i1 orders false < true (NumPy's bool), so its comparisons are unsigned.
_CMP_UI = {"eq": "eq", "ne": "ne", "lt": "ult", "le": "ule", "gt": "ugt", "ge": "uge"}


def _cmp(b: Body, args: list[Value], op: Operation) -> Value:
    p = op.predicate_value()  # type: ignore[attr-defined]
    t = args[0].type
    table = _CMP_F if t in FLOATS else _CMP_UI if t is A.i1 else _CMP_SI
    return b.cmp(table[p], args[0], args[1])


def _neg(b: Body, args: list[Value], op: Operation) -> Value:
    (x,) = args
    if x.type in FLOATS:
        return b.op(arith.NegFOp, [x])
    return b.op(arith.SubIOp, [b.const(0, x.type), x])


def _abs(b: Body, args: list[Value], op: Operation) -> Value:
    (x,) = args
    return b.op(math.AbsFOp if x.type in FLOATS else math.AbsIOp, [x])


def _relu(b: Body, args: list[Value], op: Operation) -> Value:
    (x,) = args
    return b.max(x, b.const(0, x.type))


def _sigmoid(b: Body, args: list[Value], op: Operation) -> Value:
    (x,) = args
    one = b.const(1.0, x.type)
    e = b.op(math.ExpOp, [b.op(arith.NegFOp, [x])])
    return b.op(arith.DivFOp, [one, b.op(arith.AddFOp, [one, e])])


def _gelu(b: Body, args: list[Value], op: Operation) -> Value:
    (x,) = args
    t = x.type
    erf = b.op(math.ErfOp, [b.op(arith.MulFOp, [x, b.const(0.7071067811865476, t)])])
    one_plus = b.op(arith.AddFOp, [b.const(1.0, t), erf])
    half_x = b.op(arith.MulFOp, [b.const(0.5, t), x])
    return b.op(arith.MulFOp, [half_x, one_plus])


def _unary_math(cls: Any) -> ScalarFn:
    return lambda b, args, op: b.op(cls, args)


def convert_scalar(b: Body, x: Value, dst: A.Type) -> Value:
    """graph.cast of one element: the arith cast for the (src, dst) element types."""
    src = x.type
    if src is dst:
        return x
    if dst is A.i1:
        return b.cmp("une" if src in FLOATS else "ne", x, b.const(0, src))
    if src in FLOATS:
        if dst in FLOATS:
            wider = dst.width > src.width  # type: ignore[attr-defined]
            return b.op(arith.ExtFOp if wider else arith.TruncFOp, [x], [dst])
        return b.op(arith.FPToSIOp, [x], [dst])
    if dst in FLOATS:
        return b.op(arith.UIToFPOp if src is A.i1 else arith.SIToFPOp, [x], [dst])
    if src is A.i1:
        return b.op(arith.ExtUIOp, [x], [dst])
    wider = dst.width > src.width  # type: ignore[attr-defined]
    return b.op(arith.ExtSIOp if wider else arith.TruncIOp, [x], [dst])


def _cast(b: Body, args: list[Value], op: Operation) -> Value:
    return convert_scalar(b, args[0], A.element_type_of(op.results[0].type))


SCALAR_FNS: dict[type, ScalarFn] = {
    graph.AddOp: lambda b, a, op: b.add(*a),
    graph.SubOp: lambda b, a, op: b.sub(*a),
    graph.MulOp: lambda b, a, op: b.mul(*a),
    graph.DivOp: lambda b, a, op: b.div(*a),
    graph.MaxOp: lambda b, a, op: b.max(*a),
    graph.MinOp: lambda b, a, op: b.min(*a),
    graph.PowOp: _unary_math(math.PowFOp),
    graph.CmpOp: _cmp,
    graph.SelectOp: lambda b, a, op: b.op(arith.SelectOp, a),
    graph.NegOp: _neg,
    graph.AbsOp: _abs,
    graph.ExpOp: _unary_math(math.ExpOp),
    graph.LogOp: _unary_math(math.LogOp),
    graph.SqrtOp: _unary_math(math.SqrtOp),
    graph.RsqrtOp: _unary_math(math.RsqrtOp),
    graph.TanhOp: _unary_math(math.TanhOp),
    graph.SigmoidOp: _sigmoid,
    graph.ReluOp: _relu,
    graph.ErfOp: _unary_math(math.ErfOp),
    graph.GeluOp: _gelu,
    graph.CastOp: _cast,
}


def lower_elementwise(em: Emitter, op: Operation, operands: list[Value]) -> list[Value]:
    """One tensor.generic over the result's iteration space; inputs broadcast through maps."""
    res_t = ranked(em.result_type)
    shapes = [ranked(v).shape for v in operands]
    out = res_t.shape
    rank = res_t.rank
    if type(op) is graph.CastOp and operands[0].type is res_t:
        return [operands[0]]
    sizes = [
        broadcast_size(em, operands, shapes, rank, i) if d == DYNAMIC else None
        for i, d in enumerate(out)
    ]
    init = em.empty(res_t, sizes)
    maps = [broadcast_map(s, out, rank) for s in shapes] + [identity_map(rank)]
    fn = SCALAR_FNS[type(op)]
    n_in = len(operands)
    return em.generic(operands, [init], maps, [PARALLEL] * rank, lambda b, a: [fn(b, a[:n_in], op)])


# ---------------------------------------------------------------------------------------------
# Constants and data movement


def lower_constant(em: Emitter, op: Operation, operands: list[Value]) -> list[Value]:
    """graph.constant -> arith.constant with the same dense elements attribute."""
    return [em.create(arith.ConstantOp, [], [em.result_type], {"value": op.value}).results[0]]  # type: ignore[attr-defined]


def lower_transpose(em: Emitter, op: Operation, operands: list[Value]) -> list[Value]:
    """A generic whose input map is the inverse permutation: out[i...] = x[perm-permuted i]."""
    (x,) = operands
    xt = ranked(x)
    perm = op.perm_value()  # type: ignore[attr-defined]
    rank = xt.rank
    res_t = A.RankedTensorType([xt.shape[p] for p in perm], xt.element_type)
    inverse = [0] * rank
    for i, p in enumerate(perm):
        inverse[p] = i
    init = em.empty(res_t, [em.size_of(x, p) for p in perm])
    in_map = AffineMap(rank, 0, [dim(inverse[j]) for j in range(rank)])
    out = em.generic(
        [x], [init], [in_map, identity_map(rank)], [PARALLEL] * rank, lambda b, a: [a[0]]
    )[0]
    return [em.cast(out, em.result_type)]


def lower_broadcast_to(em: Emitter, op: Operation, operands: list[Value]) -> list[Value]:
    """A generic over the target shape reading the operand through a broadcasting map."""
    (x,) = operands
    xt = ranked(x)
    target = list(op.shape_value())  # type: ignore[attr-defined]
    res_t = A.RankedTensorType(target, xt.element_type)
    rank = len(target)
    init = em.empty(res_t, [])
    maps = [broadcast_map(xt.shape, target, rank), identity_map(rank)]
    out = em.generic([x], [init], maps, [PARALLEL] * rank, lambda b, a: [a[0]])[0]
    return [em.cast(out, em.result_type)]


def lower_slice(em: Emitter, op: Operation, operands: list[Value]) -> list[Value]:
    """tensor.extract_slice with offsets = starts, sizes = ceil((limit - start) / stride)."""
    (x,) = operands
    ranked(x)
    starts = op.starts_value()  # type: ignore[attr-defined]
    limits = op.limits_value()  # type: ignore[attr-defined]
    strides = op.strides_value()  # type: ignore[attr-defined]
    sizes = [-(-(lim - s) // st) for s, lim, st in zip(starts, limits, strides)]
    attrs = {
        "static_offsets": tensor.i64_array(starts),
        "static_sizes": tensor.i64_array(sizes),
        "static_strides": tensor.i64_array(strides),
    }
    out = em.create(tensor.ExtractSliceOp, [x, [], [], []], None, attrs).results[0]
    return [em.cast(out, em.result_type)]


def lower_concat(em: Emitter, op: Operation, operands: list[Value]) -> list[Value]:
    """tensor.empty of the result, then one tensor.insert_slice per operand at an offset along
    `axis` that accumulates the sizes before it (index arithmetic when dynamic)."""
    axis = op.axis_value()  # type: ignore[attr-defined]
    types = [ranked(v) for v in operands]
    res_t = ranked(em.result_type)
    if len(operands) == 1:
        return [em.cast(operands[0], res_t)]
    rank = res_t.rank
    parts = [[em.size_of(v, i) for i in range(rank)] for v in operands]
    offsets: list[int | Value] = [0]
    for part in parts[:-1]:
        offsets.append(em.add(offsets[-1], part[axis]))
    total = em.add(offsets[-1], parts[-1][axis])
    # A non-axis dim from the first operand that knows it statically.
    sizes: list[int | Value] = []
    for i in range(rank):
        static = [t.shape[i] for t in types if t.shape[i] != DYNAMIC]
        sizes.append(total if i == axis else static[0] if static else parts[0][i])
    shape = [s if isinstance(s, int) else DYNAMIC for s in sizes]
    acc = em.empty(A.RankedTensorType(shape, res_t.element_type), sizes)
    for v, part, offset in zip(operands, parts, offsets):
        offs = [offset if i == axis else 0 for i in range(rank)]
        attrs = {
            "static_offsets": tensor.i64_array(_static_entries(offs)),
            "static_sizes": tensor.i64_array(_static_entries(part)),
            "static_strides": tensor.i64_array([1] * rank),
        }
        dyn_offs = [o for o in offs if not isinstance(o, int)]
        dyn_sizes = [s for s in part if not isinstance(s, int)]
        acc = em.create(
            tensor.InsertSliceOp, [v, acc, dyn_offs, dyn_sizes, []], None, attrs
        ).results[0]
    return [em.cast(acc, res_t)]


def _static_entries(values: Sequence[int | Value]) -> list[int]:
    return [v if isinstance(v, int) else tensor.DYNAMIC_INDEX for v in values]


def collapse_groups(src: Sequence[int], dst: Sequence[int]) -> list[list[int]] | None:
    """Groups of consecutive `src` dims whose products are the `dst` dims (a static dst dim
    takes a group of static dims, a `?` one a group with at least one `?`), or None."""
    if not dst:
        return [] if all(d == 1 for d in src) else None
    memo: dict[tuple[int, int], list[list[int]] | None] = {}

    def solve(i: int, j: int) -> list[list[int]] | None:
        if j == len(dst):
            return [] if i == len(src) else None
        key = (i, j)
        if key in memo:
            return memo[key]
        memo[key] = None
        t = dst[j]
        product, dynamic = 1, False
        for k in range(i, len(src)):
            if src[k] == DYNAMIC:
                dynamic = True
            else:
                product *= src[k]
            if j == len(dst) - 1 and k != len(src) - 1:
                continue  # the last group takes everything left
            ok = dynamic if t == DYNAMIC else (not dynamic and product == t)
            if ok:
                rest = solve(k + 1, j + 1)
                if rest is not None:
                    memo[key] = [list(range(i, k + 1)), *rest]
                    return memo[key]
        return None

    return solve(0, 0)


def lower_reshape(em: Emitter, op: Operation, operands: list[Value]) -> list[Value]:
    """tensor.collapse_shape or tensor.expand_shape when the reshape is one of them, else a
    collapse to 1-D followed by an expand (dynamic sizes by index arithmetic)."""
    (x,) = operands
    xt = ranked(x)
    src = list(xt.shape)
    et = xt.element_type
    dst = list(graph.ReshapeOp.infer_result_types([xt], op.attributes)[0].shape)  # type: ignore
    res_t = em.result_type
    dst_t = A.RankedTensorType(dst, et)
    if src == dst:
        return [em.cast(x, res_t)]
    groups = collapse_groups(src, dst) if len(dst) <= len(src) else None
    if groups is not None:
        return [em.cast(em.collapse(x, dst_t, groups), res_t)]
    groups = collapse_groups(dst, src) if len(dst) >= len(src) else None
    if groups is not None:
        sizes = _expand_sizes(em, [em.size_of(x, i) for i in range(xt.rank)], dst, groups)
        return [em.cast(em.expand(x, dst_t, groups, sizes), res_t)]
    # General case: through 1-D.
    total: int | Value = 1
    for i in range(xt.rank):
        total = em.mul(total, em.size_of(x, i))
    flat_t = A.RankedTensorType([total if isinstance(total, int) else DYNAMIC], et)
    if xt.rank == 0:
        flat = em.expand(x, flat_t, [], [])
    else:
        flat = em.collapse(x, flat_t, [list(range(xt.rank))]) if xt.rank != 1 else x
    groups = [list(range(len(dst)))]
    sizes = _expand_sizes(em, [total], dst, groups)
    return [em.cast(em.expand(flat, dst_t, groups, sizes), res_t)]


def _expand_sizes(
    em: Emitter, src: Sequence[int | Value], dst: Sequence[int], groups: list[list[int]]
) -> list[int | Value | None]:
    """The dynamic dst sizes of an expansion of a source with sizes `src`: per group, the source
    size divided by the product of the group's static dims (a group has at most one `?`)."""
    sizes: list[int | Value | None] = [None] * len(dst)
    for k, g in enumerate(groups):
        dynamic = [i for i in g if dst[i] == DYNAMIC]
        if not dynamic:
            continue
        if len(dynamic) > 1:
            raise unsupported("reshape expanding one dimension into several dynamic ones")
        static = 1
        for i in g:
            if dst[i] != DYNAMIC:
                static *= dst[i]
        if static == 0:
            raise unsupported("reshape inferring a dimension next to a zero-size one")
        sizes[dynamic[0]] = em.floordiv(src[k], static)
    return sizes


def lower_fused(op: Operation, operands: list[Value], rewriter: Any) -> None:
    """Inline the body in place of the op: its graph ops are lowered next, as if unfused."""
    block = op.regions[0].blocks[0]
    term = block.last
    rewriter.inline_block_before(block, op, operands)
    values = [u.value for u in term._operands]  # type: ignore[union-attr]
    rewriter.erase_op(term)
    rewriter.replace_op(op, values)


# ---------------------------------------------------------------------------------------------
# Patterns and the pass

Lowering = Callable[[Emitter, Operation, list[Value]], list[Value]]

LOWERINGS: dict[type, Lowering] = {cls: lower_elementwise for cls in SCALAR_FNS}
LOWERINGS.update({
    graph.ConstantOp: lower_constant,
    graph.TransposeOp: lower_transpose,
    graph.BroadcastToOp: lower_broadcast_to,
    graph.SliceOp: lower_slice,
    graph.ConcatOp: lower_concat,
    graph.ReshapeOp: lower_reshape,
})  # fmt: skip


class LowerGraphOp(ConversionPattern):
    """Lower one graph op class with a function of the LOWERINGS table; an op it cannot lower
    is left unchanged (everything built for it is erased) and the reason is recorded."""

    def __init__(
        self,
        root: type,
        fn: Lowering,
        reasons: dict[Operation, str],
        kernels: Kernels | None = None,
        knob_fn: KnobFn | None = None,
    ) -> None:
        super().__init__(None, root)
        self.fn = fn
        self.reasons = reasons
        self.kernels = kernels
        self.knob_fn = knob_fn

    def match_and_rewrite(
        self, op: Operation, operands: list[Value], rewriter: ConversionPatternRewriter
    ) -> bool:
        before = op.prev
        operands = [_ranked_source(v) for v in operands]
        em = Emitter(rewriter, op.location, _lowered_result_type(op, operands), self.knob_fn)
        try:
            values = self.fn(em, op, operands)
            values = [em.cast(v, r.type) for v, r in zip(values, op.results)]
        except Unsupported as e:
            cur = op.prev
            while cur is not before and cur is not None:
                prev = cur.prev
                rewriter.erase_op(cur)
                cur = prev
            self.reasons[op] = str(e)
            return False
        if self.kernels is not None:
            self.kernels.record(op, before)
        rewriter.replace_op(op, values)
        return True


class Kernels:
    """Which generics each graph.fused kernel (or unfused graph op) lowered to, so that the
    kernel's generics, and only they, are fused with one another afterwards."""

    __slots__ = ("of_graph_op", "of_generic", "count")

    def __init__(self) -> None:
        self.of_graph_op: dict[Operation, int] = {}
        self.of_generic: dict[Operation, int] = {}
        self.count = 0

    def new(self) -> int:
        self.count += 1
        return self.count

    def enter_fused(self, fused: Operation) -> None:
        """The body ops of graph.fused `fused` form one kernel."""
        k = self.new()
        for member in fused.regions[0].blocks[0]:
            self.of_graph_op[member] = k

    def record(self, op: Operation, before: Operation | None) -> None:
        """The generics just built in front of graph op `op` (after `before`) are its kernel's."""
        k = self.of_graph_op.get(op) or self.new()
        cur = op.prev
        while cur is not None and cur is not before:
            if type(cur) is tensor.GenericOp:
                self.of_generic[cur] = k
            cur = cur.prev

    def same(self, producer: Operation, consumer: Operation) -> bool:
        k = self.of_generic.get(producer)
        return k is not None and k == self.of_generic.get(consumer)

    def fused(self, old: Operation, new: Operation) -> None:
        self.of_generic[new] = self.of_generic[old]


def _ranked_source(v: Value) -> Value:
    """`v`, or the ranked tensor that a tensor.cast erased the shape of to make `v`."""
    if type(v.type) is A.UnrankedTensorType:
        src = v.defining_op()
        if type(src) is tensor.CastOp and type(src.operand(0).type) is A.RankedTensorType:
            return src.operand(0)
    return v


def _lowered_result_type(op: Operation, operands: list[Value]) -> A.Type | None:
    """The op's result type, refined by shape inference when it is unranked while the operands
    are ranked (the lowering then casts its ranked result to the unranked type)."""
    if not op.results:
        return None
    t = op.results[0].type
    if type(t) is not A.UnrankedTensorType:
        return t
    types = [v.type for v in operands]
    if any(type(x) is not A.RankedTensorType for x in types):
        return t
    try:
        inferred = type(op).infer_from(types, op._attrs or {}, [t], op.regions)  # type: ignore
    except graph.ShapeInferenceError:
        return t
    return inferred[0]


class InlineFused(ConversionPattern):
    """graph.fused -> its body's ops, in place."""

    root = graph.FusedOp

    def __init__(self, kernels: Kernels | None = None) -> None:
        super().__init__()
        self.kernels = kernels

    def match_and_rewrite(
        self, op: Operation, operands: list[Value], rewriter: ConversionPatternRewriter
    ) -> bool:
        if self.kernels is not None:
            self.kernels.enter_fused(op)
        lower_fused(op, operands, rewriter)
        return True


def graph_to_tensor_patterns(
    reasons: dict[Operation, str] | None = None,
    kernels: Kernels | None = None,
    knob_fn: KnobFn | None = None,
) -> list[Any]:
    """The conversion patterns (one per graph op class); `reasons` collects why ops failed;
    `kernels`, when given, records which generics each kernel lowered to; `knob_fn` answers
    the lowerings' decisions (defaults without it)."""
    if reasons is None:
        reasons = {}
    patterns: list[Any] = [
        LowerGraphOp(cls, fn, reasons, kernels, knob_fn) for cls, fn in LOWERINGS.items()
    ]
    patterns.append(InlineFused(kernels))
    return patterns


class ConvertGraphToTensorPass(Pass):
    """Lower graph ops to tensor.generic and tensor ops with arith/math scalar bodies.

    Every graph op nested in the anchor is converted (a full conversion: an op that cannot be
    lowered fails the pass with `failed to legalize operation 'graph.x'` at the op, with a note
    saying what is not supported). graph.fused is inlined and its body lowered in place; then
    the generics of each kernel (a graph.fused body, or one unfused graph op such as softmax)
    are fused with one another as tensor-fusion does, and never across kernels, so the
    graph-fusion decisions (its `fuse` knobs) are what the loop nests follow.
    """

    name = "convert-graph-to-tensor"
    fuse_kernels = Option(
        bool, True, "Fuse the generics of each kernel (tensor-fusion within a kernel)"
    )
    broadcast_recompute_limit = Option(
        int, 4, "tensor-fusion's broadcast-recompute-limit for the kernels' generics"
    )
    knobs = (
        KnobDecl(
            "reciprocal",
            "bool",
            "graph.softmax: divide the exponentials by their sum as one reciprocal per row and "
            "a multiply per element (else a divide per element)",
        ),
        KnobDecl(
            "shifted_exp",
            "bool",
            "graph.softmax: mark exp(x - max) as taking arguments <= 0, for a shorter "
            "expansion (relative error below 2^-21) that flushes exponentials below 2^-126 "
            "to zero",
        ),
    )
    num_lowered = Statistic("num-lowered", "Number of graph ops lowered")
    num_fused = Statistic("num-fused", "Number of generics fused within kernels")

    def run(self, op: Operation, ctx: PassContext) -> None:
        count = sum(
            1
            for o in op.walk()
            if o.dialect_name == "graph" and type(o) is not graph.YieldOp and o is not op
        )
        target = ConversionTarget()
        target.add_illegal_dialect("graph")
        target.mark_unknown_op_dynamically_legal(lambda o: True)
        reasons: dict[Operation, str] = {}
        kernels = Kernels()
        patterns = graph_to_tensor_patterns(reasons, kernels, ctx.knob)
        with engine.capture() as diags:
            ok = apply_full_conversion(op, target, patterns)
        for diag in diags:
            _attach_reason(diag, reasons)
            engine.emit(diag)
        if not ok:
            ctx.signal_failure()
            return
        self.num_lowered += count
        if self.fuse_kernels:
            for region in op.regions:
                for block in region.blocks:
                    self.num_fused += fuse_in_block(
                        block, kernels.same, self.broadcast_recompute_limit, kernels.fused
                    )
        for generic in [o for o in op.walk() if type(o) is tensor.GenericOp]:
            fold_splat_inputs(generic)


def _splat_input(v: Value) -> A.Attribute | None:
    """The scalar of a splat (or rank-0) dense tensor constant `v`, else None."""
    d = v.defining_op()
    if type(d) is not arith.ConstantOp:
        return None
    attr = d.get_attr("value")
    if type(attr) is not A.DenseElementsAttr or not attr.is_splat:
        return None
    et = attr.type.element_type  # type: ignore[attr-defined]
    if et in FLOATS:
        return A.FloatAttr(float(attr.splat_value), et)
    if type(et) is A.IntegerType:
        return (
            A.BoolAttr(bool(attr.splat_value))
            if et is A.i1
            else A.IntegerAttr(int(attr.splat_value), et)
        )
    return None


def fold_splat_inputs(generic: Operation) -> bool:
    """Replace the splat-constant inputs of tensor.generic `generic` by scalar constants in its
    body (MLIR's linalg FoldScalarOrSplatConstant): the loops then read no constant buffer."""
    inputs = list(generic.inputs)  # type: ignore[attr-defined]
    scalars = [_splat_input(v) for v in inputs]
    if all(c is None for c in scalars):
        return False
    old = generic.regions[0].blocks[0]
    maps = generic.indexing_map_list()  # type: ignore[attr-defined]
    outputs = list(generic.outputs)  # type: ignore[attr-defined]
    keep = [i for i, c in enumerate(scalars) if c is None]
    new_inputs = [inputs[i] for i in keep]
    block = Block([v.type.element_type for v in (*new_inputs, *outputs)])  # type: ignore[attr-defined]
    mapping: dict[Any, Any] = {}
    for i, c in enumerate(scalars):
        if c is not None:
            const = arith.ConstantOp.from_attr(c)
            const.location = generic.location
            block.append(const)
            mapping[old.arguments[i]] = const.results[0]
    for k, i in enumerate(keep):
        mapping[old.arguments[i]] = block.arguments[k]
    n_in = len(inputs)
    for k in range(len(outputs)):
        mapping[old.arguments[n_in + k]] = block.arguments[len(keep) + k]
    for child in old:
        block.append(child.clone(mapping))
    attrs = dict(generic._attrs or {})
    attrs["indexing_maps"] = A.ArrayAttr(
        [A.AffineMapAttr(maps[i]) for i in keep] + [A.AffineMapAttr(m) for m in maps[n_in:]]
    )
    attrs.pop("operandSegmentSizes", None)
    new = tensor.GenericOp.build(
        [new_inputs, outputs],
        [[r.type for r in generic.results]],
        attrs,
        regions=[Region([block])],
        location=generic.location,
    )
    generic.parent.insert_before(new, generic)  # type: ignore[union-attr]
    for a, b in zip(generic.results, new.results):
        a.replace_all_uses_with(b)
    generic.erase()
    return True


def _attach_reason(diag: Diagnostic, reasons: dict[Operation, str]) -> None:
    for failed, reason in reasons.items():
        if diag.location == failed.location and f"'{failed.name}'" in diag.message:
            diag.attach_note(reason)
            return


# The nn lowerings register themselves in LOWERINGS (they import this module's helpers).
from mlc.lowering import graph_to_tensor_nn as _nn  # noqa: E402, F401
