"""graph ops: NumPy kernels written from the graph dialect's semantics, and their handlers.

The kernels are plain functions on arrays (vectorized, no per-element Python loops), usable
and tested on their own. Floats accumulate in float64 (sums, means, matmul, conv, softmax) and
round once to the element type, so the oracle is at least as accurate as any compiled order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

from mlc.interp.core import dtype_of, handles, op_error, unsupported
from mlc.interp.scalar import attribute_value, div_trunc, erf
from mlc.ir import attributes as A
from mlc.ir.core import Operation

__all__ = [
    "binary", "compare", "unary", "cast", "matmul", "reduce", "softmax", "conv2d", "max_pool2d",
    "avg_pool2d", "slice_", "reshape", "GraphHandlers",
]  # fmt: skip


def _wide(x: np.ndarray) -> np.ndarray:
    """Floats as float64 for accumulation (other dtypes unchanged)."""
    return x.astype(np.float64) if x.dtype.kind == "f" else x


def _is_float(x: np.ndarray) -> bool:
    return x.dtype.kind == "f"


# ---------------------------------------------------------------------------------------------
# Elementwise


def _div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if _is_float(a):
        return np.divide(a, b)
    return div_trunc(a, b)


_BINARY = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": _div,
    "max": np.maximum, "min": np.minimum, "pow": np.power,
}  # fmt: skip


def binary(kind: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """graph.add/sub/mul/div/max/min/pow with NumPy broadcasting, in the operands' dtype.

    Integer div truncates toward zero (division by zero gives an unspecified value);
    max/min propagate NaN; integer add/sub/mul wrap.
    """
    if a.dtype == np.bool_ and kind in ("add", "sub", "mul", "div", "pow"):
        raise ValueError(f"graph.{kind} is not supported on i1")
    if kind == "pow" and not _is_float(a):
        raise ValueError("graph.pow is only defined on floats")
    return np.asarray(_BINARY[kind](a, b)).astype(a.dtype, copy=False)


_COMPARE = {
    "eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
    "gt": np.greater, "ge": np.greater_equal,
}  # fmt: skip


def compare(predicate: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """graph.cmp: broadcasting comparison giving bool; float compares are ordered except "ne"."""
    return np.asarray(_COMPARE[predicate](a, b))


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-_wide(x)))


def _gelu(x: np.ndarray) -> np.ndarray:
    w = _wide(x)
    return 0.5 * w * (1.0 + erf(w / math.sqrt(2.0)))


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, x.dtype.type(0))


_UNARY = {
    "neg": np.negative, "abs": np.abs, "exp": np.exp, "log": np.log, "sqrt": np.sqrt,
    "rsqrt": lambda x: np.reciprocal(np.sqrt(_wide(x))), "tanh": np.tanh,
    "sigmoid": _sigmoid, "relu": _relu, "erf": erf, "gelu": _gelu,
}  # fmt: skip
_FLOAT_ONLY = frozenset({"exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "erf", "gelu"})


def unary(kind: str, x: np.ndarray) -> np.ndarray:
    """graph.neg/abs/exp/log/sqrt/rsqrt/tanh/sigmoid/relu/erf/gelu, in x's dtype."""
    if kind in _FLOAT_ONLY and not _is_float(x):
        raise ValueError(f"graph.{kind} is only defined on floats")
    if x.dtype == np.bool_:
        raise ValueError(f"graph.{kind} is not supported on i1")
    return np.asarray(_UNARY[kind](x)).astype(x.dtype, copy=False)


def cast(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """graph.cast: float->int truncates toward zero, anything->bool is `x != 0`, else astype."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return np.asarray(x != 0)
    if _is_float(x) and dtype.kind in "iu":
        return np.trunc(x).astype(dtype)
    return x.astype(dtype)


# ---------------------------------------------------------------------------------------------
# Linear algebra, layout, reductions


def matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """graph.matmul: a[..., m, k] @ b[..., k, n] with broadcast batch dims (ranks >= 2)."""
    if a.ndim < 2 or b.ndim < 2:
        raise ValueError("graph.matmul needs operands of rank >= 2")
    return np.matmul(_wide(a), _wide(b)).astype(a.dtype, copy=False)


def reshape(x: np.ndarray, shape: Sequence[int]) -> np.ndarray:
    """graph.reshape in row-major order; one entry may be -1."""
    return np.reshape(x, tuple(shape))


def slice_(
    x: np.ndarray, starts: Sequence[int], limits: Sequence[int], strides: Sequence[int]
) -> np.ndarray:
    """graph.slice: x[start:limit:stride] per dim (stablehlo.slice)."""
    for d, (s, lim, st) in enumerate(zip(starts, limits, strides)):
        if not (st >= 1 and 0 <= s <= lim <= x.shape[d]):
            raise ValueError(
                f"slice [{s}:{lim}:{st}] out of bounds for dim {d} of size {x.shape[d]}"
            )
    return x[tuple(slice(s, lim, st) for s, lim, st in zip(starts, limits, strides))]


def reduce(kind: str, x: np.ndarray, axes: Sequence[int], keepdims: bool) -> np.ndarray:
    """graph.reduce_sum/max/min/mean over `axes` (empty: identity)."""
    axes = tuple(axes)
    if not axes:
        return x
    if x.dtype == np.bool_ and kind in ("sum", "mean"):
        raise ValueError(f"graph.reduce_{kind} is not supported on i1")
    if kind in ("max", "min") and any(x.shape[a] == 0 for a in axes):
        raise ValueError(f"graph.reduce_{kind} of an empty dimension is undefined")
    if kind == "sum":
        out = np.sum(_wide(x), axis=axes, keepdims=keepdims, dtype=_wide(x).dtype)
    elif kind == "mean":
        if not _is_float(x):
            raise ValueError("graph.reduce_mean is only defined on floats")
        count = math.prod(x.shape[a] for a in axes)
        out = np.sum(_wide(x), axis=axes, keepdims=keepdims) / np.float64(count)
    elif kind == "max":
        out = np.max(x, axis=axes, keepdims=keepdims)
    else:
        out = np.min(x, axis=axes, keepdims=keepdims)
    return np.asarray(out).astype(x.dtype, copy=False)


def softmax(x: np.ndarray, axis: int) -> np.ndarray:
    """graph.softmax: exp(x - max) / sum(exp(x - max)) along `axis` (floats)."""
    if not _is_float(x):
        raise ValueError("graph.softmax is only defined on floats")
    w = _wide(x)
    if w.shape[axis] == 0:
        return x.copy()
    e = np.exp(w - np.max(w, axis=axis, keepdims=True))
    return (e / np.sum(e, axis=axis, keepdims=True)).astype(x.dtype)


# ---------------------------------------------------------------------------------------------
# Convolution and pooling (NCHW)


def _windows(
    x: np.ndarray, kernel: Sequence[int], strides: Sequence[int], dilations: Sequence[int]
) -> np.ndarray:
    """A read-only view [N, C, OH, OW, KH, KW] of the windows of (already padded) x."""
    n, c, h, w = x.shape
    (kh, kw), (sh, sw), (dh, dw) = kernel, strides, dilations
    oh = (h - dh * (kh - 1) - 1) // sh + 1
    ow = (w - dw * (kw - 1) - 1) // sw + 1
    if oh < 1 or ow < 1:
        raise ValueError(f"window {kh}x{kw} does not fit the padded input {h}x{w}")
    s = x.strides
    return as_strided(
        x,
        shape=(n, c, oh, ow, kh, kw),
        strides=(s[0], s[1], s[2] * sh, s[3] * sw, s[2] * dh, s[3] * dw),
        writeable=False,
    )


def _pad_hw(x: np.ndarray, pads: Sequence[int], value: float) -> np.ndarray:
    top, left, bottom, right = pads
    if not any(pads):
        return np.ascontiguousarray(x)
    return np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)), constant_values=value)


def conv2d(
    x: np.ndarray,
    w: np.ndarray,
    bias: np.ndarray | None = None,
    strides: Sequence[int] = (1, 1),
    pads: Sequence[int] = (0, 0, 0, 0),
    dilations: Sequence[int] = (1, 1),
    groups: int = 1,
) -> np.ndarray:
    """graph.conv2d: x [N, C, H, W], w [O, C/G, KH, KW], optional bias [O] -> [N, O, OH, OW]."""
    n, c, _, _ = x.shape
    o, cg, kh, kw = w.shape
    if groups < 1 or c != groups * cg or o % groups:
        raise ValueError(f"conv2d channels do not match: C={c}, filter {w.shape}, groups={groups}")
    win = _windows(_pad_hw(_wide(x), pads, 0.0), (kh, kw), strides, dilations)
    _, _, oh, ow, _, _ = win.shape
    win = win.reshape(n, groups, cg, oh, ow, kh, kw)
    wg = _wide(w).reshape(groups, o // groups, cg, kh, kw)
    out = np.einsum("ngcyxhw,gochw->ngoyx", win, wg, optimize=True).reshape(n, o, oh, ow)
    if bias is not None:
        out = out + _wide(bias)[None, :, None, None]
    return out.astype(x.dtype)


def max_pool2d(
    x: np.ndarray,
    kernel: Sequence[int],
    strides: Sequence[int] = (1, 1),
    pads: Sequence[int] = (0, 0, 0, 0),
) -> np.ndarray:
    """graph.max_pool2d: window maximum, padding is -inf."""
    win = _windows(_pad_hw(x, pads, -np.inf), kernel, strides, (1, 1))
    return win.max(axis=(4, 5)).astype(x.dtype, copy=False)


def avg_pool2d(
    x: np.ndarray,
    kernel: Sequence[int],
    strides: Sequence[int] = (1, 1),
    pads: Sequence[int] = (0, 0, 0, 0),
) -> np.ndarray:
    """graph.avg_pool2d: window mean over the non-padding elements (count_include_pad false)."""
    win = _windows(_pad_hw(_wide(x), pads, 0.0), kernel, strides, (1, 1))
    ones = np.ones((1, 1) + x.shape[2:], np.float64)
    counts = _windows(_pad_hw(ones, pads, 0.0), kernel, strides, (1, 1)).sum(axis=(4, 5))
    return (win.sum(axis=(4, 5)) / counts).astype(x.dtype)


# ---------------------------------------------------------------------------------------------
# Handlers


def _ints(op: Operation, name: str, default: Sequence[int] | None = None) -> tuple[int, ...]:
    attr = op.get_attr(name)
    if attr is None:
        if default is None:
            raise op_error(op, f"missing attribute '{name}'")
        return tuple(default)
    if type(attr) is A.DenseArrayAttr:
        return tuple(attr.values)  # type: ignore[arg-type]
    if type(attr) is A.ArrayAttr:
        return tuple(a.value for a in attr)  # type: ignore[attr-defined]
    raise op_error(op, f"attribute '{name}' is not an integer array: {attr}")


def _int(op: Operation, name: str, default: int | None = None) -> int:
    attr = op.get_attr(name)
    if attr is None:
        if default is None:
            raise op_error(op, f"missing attribute '{name}'")
        return default
    return attr.value  # type: ignore[attr-defined]


def _array(op: Operation, v: Any) -> np.ndarray:
    if type(v) is not np.ndarray:
        raise unsupported(op, "on a scalar operand")
    return v


class GraphHandlers:
    """Handlers of the graph dialect."""

    @handles("graph.constant")
    def _graph_constant(self, op: Operation) -> np.ndarray:
        return attribute_value(op, op.get_attr("value"), op.results[0].type)

    @handles(*(f"graph.{k}" for k in _BINARY))
    def _graph_binary(self, op: Operation, a: Any, b: Any) -> np.ndarray:
        return binary(op.name[6:], _array(op, a), _array(op, b))

    @handles("graph.cmp")
    def _graph_cmp(self, op: Operation, a: Any, b: Any) -> np.ndarray:
        pred = op.get_attr("predicate")
        if type(pred) is not A.StringAttr or pred.value not in _COMPARE:  # type: ignore
            raise unsupported(op, f"with predicate {pred}")
        return compare(pred.value, a, b)  # type: ignore[union-attr]

    @handles("graph.select")
    def _graph_select(self, op: Operation, cond: Any, a: Any, b: Any) -> np.ndarray:
        return np.asarray(np.where(cond, a, b))

    @handles(*(f"graph.{k}" for k in _UNARY))
    def _graph_unary(self, op: Operation, x: Any) -> np.ndarray:
        return unary(op.name[6:], _array(op, x))

    @handles("graph.cast")
    def _graph_cast(self, op: Operation, x: Any) -> np.ndarray:
        return cast(_array(op, x), dtype_of(op.results[0].type))

    @handles("graph.matmul")
    def _graph_matmul(self, op: Operation, a: Any, b: Any) -> np.ndarray:
        return matmul(a, b)

    @handles("graph.transpose")
    def _graph_transpose(self, op: Operation, x: Any) -> np.ndarray:
        return np.transpose(x, _ints(op, "perm"))

    @handles("graph.reshape")
    def _graph_reshape(self, op: Operation, x: Any) -> np.ndarray:
        return reshape(x, _ints(op, "shape"))

    @handles("graph.broadcast_to")
    def _graph_broadcast_to(self, op: Operation, x: Any) -> np.ndarray:
        return np.broadcast_to(x, _ints(op, "shape"))

    @handles("graph.concat")
    def _graph_concat(self, op: Operation, *xs: Any) -> np.ndarray:
        return np.concatenate(xs, axis=_int(op, "axis"))

    @handles("graph.slice")
    def _graph_slice(self, op: Operation, x: Any) -> np.ndarray:
        return slice_(x, _ints(op, "starts"), _ints(op, "limits"), _ints(op, "strides"))

    @handles("graph.reduce_sum", "graph.reduce_max", "graph.reduce_min", "graph.reduce_mean")
    def _graph_reduce(self, op: Operation, x: Any) -> np.ndarray:
        keepdims = op.get_attr("keepdims")
        keep = bool(keepdims.value) if keepdims is not None else False  # type: ignore[attr-defined]
        return reduce(op.name[13:], x, _ints(op, "axes"), keep)

    @handles("graph.softmax")
    def _graph_softmax(self, op: Operation, x: Any) -> np.ndarray:
        return softmax(x, _int(op, "axis"))

    @handles("graph.conv2d")
    def _graph_conv2d(self, op: Operation, x: Any, w: Any, bias: Any = None) -> np.ndarray:
        return conv2d(
            x,
            w,
            bias,
            strides=_ints(op, "strides", (1, 1)),
            pads=_ints(op, "pads", (0, 0, 0, 0)),
            dilations=_ints(op, "dilations", (1, 1)),
            groups=_int(op, "groups", 1),
        )

    @handles("graph.max_pool2d", "graph.avg_pool2d")
    def _graph_pool(self, op: Operation, x: Any) -> np.ndarray:
        fn = max_pool2d if op.name == "graph.max_pool2d" else avg_pool2d
        kernel = _ints(op, "kernel")
        return fn(x, kernel, _ints(op, "strides", (1, 1)), _ints(op, "pads", (0, 0, 0, 0)))

    @handles("graph.fused")
    def _graph_fused(self, op: Operation, *inputs: Any) -> Any:
        body = op.regions[0]
        if len(body.blocks) != 1:
            raise unsupported(op, "with a region of several blocks")
        values = self.run_block(body.blocks[0], inputs, ("graph.yield",))  # type: ignore
        n = len(op.results)
        return values[0] if n == 1 else (values if n else None)
