"""Canonicalization patterns of the `graph` dialect: algebraic identities, chains of data
movement, redundant broadcasts, and constant folding of small constants through the NumPy
reference interpreter. Importing the module attaches `PATTERNS` to the graph dialect.

Float rewrites follow MLIR's arith canonicalization (no fast-math): x + (-0.0), x - 0.0,
x * 1.0, x / 1.0 and x ** 1.0 fold to x; x + 0.0 and x * 0 do not (-0.0, NaN, inf).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import mlc.dialects.graph as G
import numpy as np
from mlc.dialects.graph_infer import ShapeInferenceError

from mlc.ir import attributes as A
from mlc.ir.core import Operation, Value
from mlc.ir.opdef import Elementwise
from mlc.rewrite.pattern import PatternRewriter, RewritePattern

__all__ = [
    "FoldTransposeOfTranspose",
    "FoldReshapeOfReshape",
    "FoldBroadcastOfBroadcast",
    "FoldMatmulOfTransposes",
    "RemoveRedundantBroadcast",
    "SimplifyArithIdentity",
    "FoldInvolution",
    "FoldIdempotent",
    "FoldExpOfLog",
    "FoldConstantGraphOp",
    "PATTERNS",
    "DEFAULT_FOLD_LIMIT",
]

DEFAULT_FOLD_LIMIT = 1024
"""Largest element count (of any operand or result) that constant folding computes."""

_FLOATS = frozenset((A.f16, A.f32, A.f64))


def _defining(v: Value) -> Operation | None:
    return getattr(v, "op", None)


def _splat(v: Value) -> Any:
    """The Python value of a splat graph.constant defining `v`, else None."""
    op = getattr(v, "op", None)
    if type(op) is not G.ConstantOp:
        return None
    value = op.get_attr("value")
    if type(value) is not A.DenseElementsAttr or not value.is_splat:
        return None
    return value.splat_value


def _replace_with_new(
    rewriter: PatternRewriter,
    op: Operation,
    cls: type[Operation],
    operands: Sequence[Value],
    attrs: dict[str, A.Attribute] | None,
) -> None:
    """Replace single-result `op` by a new `cls` op that keeps `op`'s declared result type, so
    every user stays valid."""
    rewriter.set_insertion_point_before(op)
    new = cls.create(list(operands), [op.results[0].type], attrs, location=op.location)
    rewriter.insert(new)
    rewriter.replace_op(op, new.results)


# ---------------------------------------------------------------------------------------------
# Chains of data movement


class FoldTransposeOfTranspose(RewritePattern):
    """transpose(transpose(x, p), q) -> transpose(x, [p[q[i]]]) (x itself when the composed
    permutation is the identity and the types agree)."""

    root = G.TransposeOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        inner = _defining(op._operands[0].value)
        if type(inner) is not G.TransposeOp:
            return False
        p, q = inner.perm_value(), op.perm_value()  # type: ignore[attr-defined]
        perm = tuple(p[i] for i in q)
        x = inner.operands[0]
        if perm == tuple(range(len(perm))) and x.type is op.results[0].type:
            rewriter.replace_op(op, [x])
            return True
        attrs = {"perm": A.DenseArrayAttr(A.i64, perm)}
        _replace_with_new(rewriter, op, G.TransposeOp, [x], attrs)
        return True


class FoldReshapeOfReshape(RewritePattern):
    """reshape(reshape(x, s1), s2) -> reshape(x, s2): row-major reshapes compose."""

    root = G.ReshapeOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        inner = _defining(op._operands[0].value)
        if type(inner) is not G.ReshapeOp:
            return False
        x = inner.operands[0]
        if x.type is op.results[0].type:
            rewriter.replace_op(op, [x])
            return True
        _replace_with_new(rewriter, op, G.ReshapeOp, [x], {"shape": op.get_attr("shape")})
        return True


class FoldBroadcastOfBroadcast(RewritePattern):
    """broadcast_to(broadcast_to(x, s1), s2) -> broadcast_to(x, s2): x broadcasts to s1 and s1
    to s2, so x broadcasts to s2 with the same values."""

    root = G.BroadcastToOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        inner = _defining(op._operands[0].value)
        if type(inner) is not G.BroadcastToOp:
            return False
        x = inner.operands[0]
        if x.type is op.results[0].type:
            rewriter.replace_op(op, [x])
            return True
        _replace_with_new(rewriter, op, G.BroadcastToOp, [x], {"shape": op.get_attr("shape")})
        return True


def _aligned(shape: Sequence[int], rank: int, i: int) -> int:
    """Dim `i` of an output of `rank` dims as `shape` contributes to it (1 when absent)."""
    j = i - (rank - len(shape))
    return shape[j] if j >= 0 else 1


class RemoveRedundantBroadcast(RewritePattern):
    """An explicit broadcast_to feeding a broadcasting elementwise op goes when the op's
    implicit broadcasting gives the same result: op(broadcast_to(x, s), y) -> op(x, y).

    For each dim where x is not already s (x is 1 or `?` there), another operand must have the
    static size s (a `?` there could be 1 at run time, and then the result would be smaller).
    """

    root = None  # registered for each broadcasting elementwise op below
    benefit = 1

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        for u in op._operands:
            if type(_defining(u.value)) is G.BroadcastToOp:
                break
        else:
            return False  # the common case: no broadcast_to operand
        operands = op.operands
        res_t = op.results[0].type
        if type(res_t) is not A.RankedTensorType:
            return False
        for index, v in enumerate(operands):
            bcast = _defining(v)
            if type(bcast) is G.BroadcastToOp and self._removable(op, index, bcast):
                # A new op rather than an in-place change: erasing the old one tells the driver
                # that the broadcast may have become dead.
                operands = list(operands)
                operands[index] = bcast.operands[0]
                attrs = dict(op._attrs) if op._attrs else None
                _replace_with_new(rewriter, op, type(op), operands, attrs)
                return True
        return False

    @staticmethod
    def _removable(op: Operation, index: int, bcast: Operation) -> bool:
        x = bcast.operands[0]
        types = [v.type for v in op.operands]
        if any(type(t) is not A.RankedTensorType for t in (*types, x.type)):
            return False
        target = bcast.shape_value()  # type: ignore[attr-defined]
        others = [t.shape for k, t in enumerate(types) if k != index]  # type: ignore[attr-defined]
        rank = op.results[0].type.rank  # type: ignore[attr-defined]
        xs = x.type.shape  # type: ignore[attr-defined]
        for i in range(rank):
            s = _aligned(target, rank, i)
            if _aligned(xs, rank, i) == s or s == 1:
                continue
            if not any(_aligned(o, rank, i) == s for o in others):
                return False
        new_types = list(types)
        new_types[index] = x.type
        try:
            inferred = type(op).infer_result_types(new_types, op._attrs or {})
        except ShapeInferenceError:
            return False
        return type(inferred[0]) is A.RankedTensorType and inferred[0].rank == rank


def _swaps_last_two(op: Operation | None) -> bool:
    """`op` is a graph.transpose that swaps the last two dims and keeps the others in place."""
    if type(op) is not G.TransposeOp:
        return False
    perm = op.perm_value()  # type: ignore[attr-defined]
    n = len(perm)
    return n >= 2 and perm == (*range(n - 2), n - 1, n - 2)


class FoldMatmulOfTransposes(RewritePattern):
    """matmul(transpose(x), transpose(y)) -> transpose(matmul(y, x)) when both transposes swap
    the last two dims and have no other user: A^T B^T = (B A)^T, one transpose instead of two
    (and none when a transpose of the result follows, by FoldTransposeOfTranspose). The same
    products are summed in the same order, so the values are identical."""

    root = G.MatmulOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        a, b = op.operands
        ta, tb = _defining(a), _defining(b)
        if not (_swaps_last_two(ta) and _swaps_last_two(tb)):
            return False
        if not (a.has_one_use() and b.has_one_use()) or a is b:
            return False
        res_t = op.results[0].type
        if type(res_t) is not A.RankedTensorType:
            return False
        x, y = ta.operands[0], tb.operands[0]  # type: ignore[union-attr]
        try:
            (prod_t,) = G.MatmulOp.infer_result_types([y.type, x.type], {})
        except ShapeInferenceError:
            return False
        rewriter.set_insertion_point_before(op)
        prod = rewriter.insert(G.MatmulOp.create([y, x], [prod_t], None, location=op.location))
        perm = ta.get_attr("perm")  # type: ignore[union-attr]
        _replace_with_new(rewriter, op, G.TransposeOp, prod.results, {"perm": perm})
        return True


# ---------------------------------------------------------------------------------------------
# Algebraic identities


def _is_neg_zero(c: Any) -> bool:
    return c == 0 and math.copysign(1.0, c) < 0


def _is_pos_zero(c: Any) -> bool:
    return c == 0 and math.copysign(1.0, c) > 0


class SimplifyArithIdentity(RewritePattern):
    """Identities with a splat constant operand, as MLIR's arith folders have them.

    integers: x + 0, 0 + x, x - 0, x * 1, 1 * x, x / 1 -> x; x * 0, 0 * x -> 0 (a splat zero
    of the result type, which must be static). floats: x + (-0.0), x - 0.0, x * 1.0, x / 1.0,
    x ** 1.0 -> x (x + 0.0 is not x for x = -0.0; x * 0.0 is not 0 for NaN, inf or -x).
    max(x, x), min(x, x) -> x. A rewrite to x needs x to have the result type (no
    broadcasting by the constant).
    """

    root = None  # registered for each op below

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        cls = type(op)
        lhs, rhs = op._operands[0].value, op._operands[1].value
        res_t = op.results[0].type
        if cls is G.MaxOp or cls is G.MinOp:
            if lhs is rhs and lhs.type is res_t:
                rewriter.replace_op(op, [lhs])
                return True
            return False
        c = _splat(rhs)
        x = lhs
        if c is None and (cls is G.AddOp or cls is G.MulOp):
            c, x = _splat(lhs), rhs  # commutative: the constant may come first
        if c is None:
            return False
        is_float = A.element_type_of(res_t) in _FLOATS
        if cls is G.AddOp:
            keep = _is_neg_zero(c) if is_float else c == 0
        elif cls is G.SubOp:
            keep = _is_pos_zero(c) if is_float else c == 0
        elif cls is G.MulOp:
            keep = c == 1
            if not keep and not is_float and c == 0:
                return self._zero(op, rewriter)
        else:  # div, pow
            keep = c == 1
        if not keep or x.type is not res_t:
            return False
        rewriter.replace_op(op, [x])
        return True

    @staticmethod
    def _zero(op: Operation, rewriter: PatternRewriter) -> bool:
        t = op.results[0].type
        if type(t) is not A.RankedTensorType or not t.has_static_shape():
            return False
        rewriter.set_insertion_point_before(op)
        zero = rewriter.insert(G.ConstantOp.from_attr(A.DenseElementsAttr(t, 0), op.location))
        rewriter.replace_op(op, zero.results)
        return True


class FoldInvolution(RewritePattern):
    """neg(neg(x)) -> x (exact for floats; integer negation wraps, so also for INT_MIN)."""

    root = G.NegOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        inner = _defining(op._operands[0].value)
        if type(inner) is not type(op):
            return False
        x = inner.operands[0]
        if x.type is not op.results[0].type:
            return False
        rewriter.replace_op(op, [x])
        return True


class FoldIdempotent(RewritePattern):
    """abs(abs(x)) -> abs(x), relu(relu(x)) -> relu(x)."""

    root = None  # registered for abs and relu

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        inner = _defining(op._operands[0].value)
        if type(inner) is not type(op) or inner.results[0].type is not op.results[0].type:
            return False
        rewriter.replace_op(op, inner.results)
        return True


def _non_negative(v: Value) -> bool:
    """`v` is, element by element, +0.0, positive, +inf or NaN (never negative, never -0.0)."""
    op = _defining(v)
    cls = type(op)
    if cls in (G.ExpOp, G.SigmoidOp, G.AbsOp, G.SoftmaxOp):
        return True
    if cls is G.MulOp:
        return op.operands[0] is op.operands[1]  # type: ignore[union-attr]
    if cls is G.ConstantOp:
        value = op.get_attr("value")  # type: ignore[union-attr]
        if type(value) is not A.DenseElementsAttr:
            return False
        arr = value._array
        with np.errstate(invalid="ignore"):
            return bool(np.all(np.isnan(arr) | (arr > 0) | ((arr == 0) & ~np.signbit(arr))))
    return False


class FoldExpOfLog(RewritePattern):
    """exp(log(x)) -> x where x is known to be >= +0.0 or NaN (x from exp, sigmoid, abs,
    softmax, x*x, or a constant of such values).

    For negative x, log gives NaN (and log(-0.0) = -inf, exp(-inf) = +0.0), so the identity
    does not hold there and the rewrite is not made. Where it is made, the only difference is
    rounding: the rewrite gives x exactly instead of exp(log(x)) rounded twice.
    """

    root = G.ExpOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        inner = _defining(op._operands[0].value)
        if type(inner) is not G.LogOp:
            return False
        x = inner.operands[0]
        if x.type is not op.results[0].type or not _non_negative(x):
            return False
        rewriter.replace_op(op, [x])
        return True


# ---------------------------------------------------------------------------------------------
# Constant folding


_NO_FOLD = (G.ConstantOp,)
_SPLAT_PRESERVING = (G.ReshapeOp, G.TransposeOp, G.BroadcastToOp)


def _dense(v: Value) -> A.DenseElementsAttr | None:
    op = _defining(v)
    if type(op) is not G.ConstantOp:
        return None
    value = op.get_attr("value")
    return value if type(value) is A.DenseElementsAttr else None


class FoldConstantGraphOp(RewritePattern):
    """A graph op whose operands are all graph.constant becomes a graph.constant, computed by
    the NumPy reference interpreter (`mlc.interp`), when no operand and no result has more than
    `max_elements` elements. Splat operands of elementwise and data-movement ops give a splat
    result at any size (computed on one element).

    Not folded: results without a static shape, integer division by a zero element (undefined),
    and anything the interpreter reports as undefined (e.g. the max of an empty dim).
    """

    root = G.GraphOp
    benefit = 2

    def __init__(self, max_elements: int = DEFAULT_FOLD_LIMIT) -> None:
        super().__init__()
        self.max_elements = max_elements
        self._interp: Any = None

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        cls = type(op)
        if cls in _NO_FOLD or not op._operands:
            return False
        for u in op._operands:
            if type(_defining(u.value)) is not G.ConstantOp:
                return False  # the common case: some operand is not a constant
        attrs = []
        for u in op._operands:
            a = _dense(u.value)
            if a is None:
                return False
            attrs.append(a)
        results = op.results
        for r in results:
            t = r.type
            if type(t) is not A.RankedTensorType or not t.has_static_shape():
                return False
        if cls is G.DivOp and A.element_type_of(results[0].type) not in _FLOATS:
            if any(not np.all(a._array) for a in attrs[1:]):
                return False
        all_splat = all(a.is_splat for a in attrs)
        if all_splat and (Elementwise in cls._traits or cls in _SPLAT_PRESERVING):
            values = self._evaluate(op, [a._array for a in attrs], splat=True)
        else:
            limit = self.max_elements
            if any(a.type.num_elements > limit for a in attrs) or any(
                r.type.num_elements > limit for r in results
            ):
                return False
            values = self._evaluate(op, [a.array for a in attrs], splat=False)
        if values is None:
            return False
        rewriter.set_insertion_point_before(op)
        new = []
        for r, v in zip(results, values):
            c = G.ConstantOp.from_attr(A.DenseElementsAttr(r.type, v), op.location)
            new.append(rewriter.insert(c).results[0])
        rewriter.replace_op(op, new)
        return True

    def _evaluate(self, op: Operation, arrays: list[np.ndarray], splat: bool) -> list | None:
        """The result arrays of `op` on `arrays` (None when the interpreter refuses)."""
        from mlc.interp import Interpreter, InterpreterError

        interp = self._interp
        if interp is None:
            interp = self._interp = Interpreter(op)
        handler = interp._table.get(op.name)
        if handler is None:
            return None
        cls = type(op)
        if splat and cls in _SPLAT_PRESERVING:
            return [arrays[0]]
        try:
            with np.errstate(all="ignore"):
                out = handler(op, *arrays)
        except (InterpreterError, ValueError, IndexError, TypeError, ArithmeticError):
            return None
        outs = list(out) if len(op.results) != 1 else [out]
        checked = []
        for r, v in zip(op.results, outs):
            v = np.asarray(v)
            if v.dtype != _dtype(r.type):
                return None
            if splat:
                if v.size != 1:
                    return None
                v = v.reshape(())
            elif tuple(v.shape) != tuple(r.type.shape):  # type: ignore[attr-defined]
                return None
            checked.append(v)
        return checked


def _dtype(t: A.Type) -> np.dtype:
    from mlc.interp.core import dtype_of

    return dtype_of(t)


# ---------------------------------------------------------------------------------------------
# Registration


def _rooted(pattern: type[RewritePattern], roots: Sequence[type[Operation]]) -> list:
    return [pattern(root) for root in roots]


_BROADCASTING = (
    G.AddOp, G.SubOp, G.MulOp, G.DivOp, G.MaxOp, G.MinOp, G.PowOp, G.CmpOp, G.SelectOp,
)  # fmt: skip

PATTERNS: tuple[RewritePattern, ...] = (
    FoldTransposeOfTranspose(),
    FoldReshapeOfReshape(),
    FoldBroadcastOfBroadcast(),
    FoldMatmulOfTransposes(),
    *_rooted(RemoveRedundantBroadcast, _BROADCASTING),
    *_rooted(
        SimplifyArithIdentity,
        (G.AddOp, G.SubOp, G.MulOp, G.DivOp, G.PowOp, G.MaxOp, G.MinOp),
    ),
    FoldInvolution(),
    *_rooted(FoldIdempotent, (G.AbsOp, G.ReluOp)),
    FoldExpOfLog(),
    FoldConstantGraphOp(),
)
"""The graph dialect's canonicalization patterns (`canonicalize` uses them)."""

# The patterns need the op classes, so graph.py imports this module at its end; whichever of
# the two modules is imported first, the patterns are attached once both are complete.
G.DIALECT.canonicalization_patterns = PATTERNS
