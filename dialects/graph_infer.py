"""Shape inference of the `graph` dialect: broadcasting and the per-op result-type rules.

Every function takes operand types and the op's attribute dict (default-valued properties may
be absent) and returns the result types, or raises `ShapeInferenceError` with the message that
the verifier reports at the op.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mlc.ir import attributes as A

DYNAMIC = A.DYNAMIC
ELEMENT_TYPES = (A.f16, A.f32, A.f64, A.i1, A.i32, A.i64)
FLOAT_TYPES = (A.f16, A.f32, A.f64)
PREDICATES = ("eq", "ne", "lt", "le", "gt", "ge")

Shape = tuple[int, ...]


class ShapeInferenceError(ValueError):
    """Operands or attributes a graph op cannot accept (the message names the rule)."""


def _fmt(shape: Sequence[int]) -> str:
    """A shape for messages (`?` for dynamic dims)."""
    return "[" + ", ".join("?" if d == DYNAMIC else str(d) for d in shape) + "]"


def _vals(values: Sequence[int]) -> str:
    """Attribute values for messages (-1 stays -1)."""
    return "[" + ", ".join(map(str, values)) + "]"


def broadcast_shapes(*shapes: Sequence[int]) -> Shape:
    """NumPy's broadcast of `shapes` with `?` (DYNAMIC) dims: (?, 1) -> ?, (?, n) -> n for
    n != 1, (?, ?) -> ?. Raises ShapeInferenceError for incompatible shapes.

        broadcast_shapes((4, 1), (5,)) == (4, 5)
    """
    rank = max((len(s) for s in shapes), default=0)
    out = [1] * rank
    for s in shapes:
        off = rank - len(s)
        for i, d in enumerate(s):
            j = off + i
            cur = out[j]
            if d == 1 or d == cur:
                continue
            if cur == 1:
                out[j] = d
            elif d == DYNAMIC:
                continue  # cur is static n != 1 (a runtime check) or already ?
            elif cur == DYNAMIC:
                out[j] = d
            else:
                raise ShapeInferenceError(
                    f"shapes {', '.join(_fmt(x) for x in shapes)} are not broadcast-compatible"
                )
    return tuple(out)


def types_compatible(inferred: A.Type, declared: A.Type) -> bool:
    """Same element type, and shapes equal where both are known (`?` and unranked match all)."""
    if inferred is declared:
        return True
    if A.element_type_of(inferred) is not A.element_type_of(declared):
        return False
    if type(inferred) is A.UnrankedTensorType or type(declared) is A.UnrankedTensorType:
        return True
    s1, s2 = inferred.shape, declared.shape  # type: ignore[attr-defined]
    if len(s1) != len(s2):
        return False
    for a, b in zip(s1, s2):
        if a != b and a != DYNAMIC and b != DYNAMIC:
            return False
    return True


# ---------------------------------------------------------------------------------------------
# Attribute readers: normalized Python values, with the verifier's messages on bad input


def int_list(attrs: dict[str, Any], key: str, default: Shape | None = None) -> Shape:
    """The values of i64 dense array attribute `key` (or `default` when absent)."""
    a = attrs.get(key)
    if a is None:
        if default is None:
            raise ShapeInferenceError(f"requires attribute '{key}'")
        return default
    if type(a) is not A.DenseArrayAttr or a.element_type is not A.i64:
        raise ShapeInferenceError(f"attribute '{key}' must be an i64 dense array")
    return a.values  # type: ignore[return-value]


def int_value(attrs: dict[str, Any], key: str, default: int | None = None) -> int:
    """The value of i64 integer attribute `key` (or `default` when absent)."""
    a = attrs.get(key)
    if a is None:
        if default is None:
            raise ShapeInferenceError(f"requires attribute '{key}'")
        return default
    if type(a) is not A.IntegerAttr or a.type is not A.i64:
        raise ShapeInferenceError(f"attribute '{key}' must be an i64 integer")
    return a.value


def bool_value(attrs: dict[str, Any], key: str, default: bool) -> bool:
    a = attrs.get(key)
    if a is None:
        return default
    if type(a) is not A.IntegerAttr or a.type is not A.i1:
        raise ShapeInferenceError(f"attribute '{key}' must be a bool")
    return bool(a.value)


def predicate_value(attrs: dict[str, Any]) -> str:
    a = attrs.get("predicate")
    if a is None:
        raise ShapeInferenceError("requires attribute 'predicate'")
    if type(a) is not A.StringAttr or a.value not in PREDICATES:
        shown = f'"{a.value}"' if type(a) is A.StringAttr else str(a)
        raise ShapeInferenceError(
            f"predicate must be one of {', '.join(PREDICATES)}, but got {shown}"
        )
    return a.value


# ---------------------------------------------------------------------------------------------
# Operand checks


def _elem(t: A.Type) -> A.Type:
    return t.element_type  # type: ignore[attr-defined]


def ranked_shape(t: A.Type) -> Shape:
    """The shape of a ranked tensor; unranked operands are rejected."""
    if type(t) is not A.RankedTensorType:
        raise ShapeInferenceError("not supported: unranked tensor operand")
    return t.shape


def same_element_type(types: Sequence[A.Type], what: str = "operands") -> A.Type:
    et = _elem(types[0])
    for t in types[1:]:
        if _elem(t) is not et:
            raise ShapeInferenceError(
                f"{what} must have the same element type, but got {et} and {_elem(t)}"
            )
    return et


def require_float(et: A.Type) -> None:
    if et not in FLOAT_TYPES:
        raise ShapeInferenceError(f"requires a floating-point element type, but got {et}")


def require_not_i1(et: A.Type) -> None:
    if et is A.i1:
        raise ShapeInferenceError("not supported on i1")


def _tensor(shape: Sequence[int], et: A.Type) -> A.Type:
    return A.RankedTensorType(shape, et)


def broadcast_types(types: Sequence[A.Type], et: A.Type) -> A.Type:
    """The broadcast result tensor type (unranked when any operand is unranked)."""
    ranked = [t.shape for t in types if type(t) is A.RankedTensorType]  # type: ignore[attr-defined]
    shape = broadcast_shapes(*ranked)
    if len(ranked) != len(types):
        return A.UnrankedTensorType(et)
    return _tensor(shape, et)


def _check_axis(axis: int, rank: int, what: str = "axis") -> None:
    if not 0 <= axis < rank:
        raise ShapeInferenceError(f"{what} {axis} is out of range [0, {rank})")


def _check_length(values: Shape, n: int, key: str, of: str = "") -> None:
    if len(values) != n:
        raise ShapeInferenceError(f"'{key}' must have {n} entries{of}, but has {len(values)}")


# ---------------------------------------------------------------------------------------------
# Per-op rules


def infer_binary(types: Sequence[A.Type], float_only: bool, allow_i1: bool) -> list[A.Type]:
    et = same_element_type(types)
    if float_only:
        require_float(et)
    elif not allow_i1:
        require_not_i1(et)
    return [broadcast_types(types, et)]


def infer_cmp(types: Sequence[A.Type], attrs: dict[str, Any]) -> list[A.Type]:
    predicate_value(attrs)
    same_element_type(types)
    return [broadcast_types(types, A.i1)]


def infer_select(types: Sequence[A.Type]) -> list[A.Type]:
    if _elem(types[0]) is not A.i1:
        raise ShapeInferenceError(f"condition must have i1 element type, but got {_elem(types[0])}")
    et = same_element_type(types[1:], "true and false values")
    return [broadcast_types(types, et)]


def infer_unary(types: Sequence[A.Type], float_only: bool) -> list[A.Type]:
    et = _elem(types[0])
    if float_only:
        require_float(et)
    else:
        require_not_i1(et)
    return [types[0]]


def infer_cast(t: A.Type, result_et: A.Type) -> list[A.Type]:
    if type(t) is A.UnrankedTensorType:
        return [A.UnrankedTensorType(result_et)]
    return [_tensor(t.shape, result_et)]  # type: ignore[attr-defined]


def infer_matmul(types: Sequence[A.Type]) -> list[A.Type]:
    a, b = ranked_shape(types[0]), ranked_shape(types[1])
    for i, s in enumerate((a, b)):
        if len(s) < 2:
            raise ShapeInferenceError(
                f"operand #{i} must have rank >= 2, but has rank {len(s)} "
                "(rank-1 matmul is not supported)"
            )
    et = same_element_type(types)
    require_not_i1(et)
    ka, kb = a[-1], b[-2]
    if ka != kb and ka != DYNAMIC and kb != DYNAMIC:
        raise ShapeInferenceError(f"contracting dimensions do not match: {ka} vs {kb}")
    try:
        batch = broadcast_shapes(a[:-2], b[:-2])
    except ShapeInferenceError:
        raise ShapeInferenceError(
            f"batch dimensions {_fmt(a[:-2])} and {_fmt(b[:-2])} are not broadcast-compatible"
        ) from None
    return [_tensor((*batch, a[-2], b[-1]), et)]


def infer_transpose(t: A.Type, attrs: dict[str, Any]) -> list[A.Type]:
    shape = ranked_shape(t)
    perm = int_list(attrs, "perm")
    _check_length(perm, len(shape), "perm", " (the operand rank)")
    if sorted(perm) != list(range(len(shape))):
        raise ShapeInferenceError(f"perm {_vals(perm)} is not a permutation of 0..{len(shape) - 1}")
    return [_tensor([shape[p] for p in perm], _elem(t))]


def infer_reshape(t: A.Type, attrs: dict[str, Any]) -> list[A.Type]:
    shape = ranked_shape(t)
    target = int_list(attrs, "shape")
    if any(d < -1 for d in target):
        raise ShapeInferenceError(f"shape {_vals(target)} entries must be >= 0 or -1")
    n_infer = target.count(-1)
    if n_infer > 1:
        raise ShapeInferenceError(f"shape {_vals(target)} has more than one -1")
    known = 1
    for d in target:
        if d != -1:
            known *= d
    if DYNAMIC in shape:
        return [_tensor(target, _elem(t))]  # -1 stays `?`
    count = 1
    for d in shape:
        count *= d
    if n_infer == 0:
        if known != count:
            raise ShapeInferenceError(
                f"cannot reshape {count} elements into shape {_vals(target)} ({known} elements)"
            )
        return [_tensor(target, _elem(t))]
    if known == 0 or count % known != 0:
        raise ShapeInferenceError(f"cannot reshape {count} elements into shape {_vals(target)}")
    return [_tensor([count // known if d == -1 else d for d in target], _elem(t))]


def infer_broadcast_to(t: A.Type, attrs: dict[str, Any]) -> list[A.Type]:
    shape = ranked_shape(t)
    target = int_list(attrs, "shape")
    if any(d < 0 for d in target):
        raise ShapeInferenceError(f"shape {_vals(target)} entries must be >= 0")
    off = len(target) - len(shape)
    if off < 0:
        raise ShapeInferenceError(
            f"operand rank {len(shape)} exceeds the rank {len(target)} of shape {_vals(target)}"
        )
    for i, d in enumerate(shape):
        if d != 1 and d != DYNAMIC and d != target[off + i]:
            raise ShapeInferenceError(
                f"operand shape {_fmt(shape)} cannot be broadcast to {_vals(target)}"
            )
    return [_tensor(target, _elem(t))]


def infer_concat(types: Sequence[A.Type], attrs: dict[str, Any]) -> list[A.Type]:
    if not types:
        raise ShapeInferenceError("requires at least one operand")
    shapes = [ranked_shape(t) for t in types]
    et = same_element_type(types)
    rank = len(shapes[0])
    axis = int_value(attrs, "axis")
    for s in shapes[1:]:
        if len(s) != rank:
            raise ShapeInferenceError(
                f"operands must have the same rank, but got {len(shapes[0])} and {len(s)}"
            )
    _check_axis(axis, rank)
    out = list(shapes[0])
    for k, s in enumerate(shapes[1:], 1):
        for i, d in enumerate(s):
            if i == axis:
                out[i] = DYNAMIC if DYNAMIC in (out[i], d) else out[i] + d
            elif out[i] == DYNAMIC:
                out[i] = d
            elif d != DYNAMIC and d != out[i]:
                raise ShapeInferenceError(
                    f"operand #{k} has size {d} in dimension {i}, expected {out[i]}"
                )
    return [_tensor(out, et)]


def infer_slice(t: A.Type, attrs: dict[str, Any]) -> list[A.Type]:
    shape = ranked_shape(t)
    rank = len(shape)
    starts, limits = int_list(attrs, "starts"), int_list(attrs, "limits")
    strides = int_list(attrs, "strides")
    for key, vals in (("starts", starts), ("limits", limits), ("strides", strides)):
        _check_length(vals, rank, key, " (the operand rank)")
    out = []
    for i, (s, lim, st, d) in enumerate(zip(starts, limits, strides, shape)):
        if st < 1:
            raise ShapeInferenceError(f"stride {st} in dimension {i} must be >= 1")
        if not 0 <= s <= lim:
            raise ShapeInferenceError(
                f"dimension {i} needs 0 <= start <= limit, but has start {s} and limit {lim}"
            )
        if d != DYNAMIC and lim > d:
            raise ShapeInferenceError(f"limit {lim} in dimension {i} exceeds its size {d}")
        out.append(-(-(lim - s) // st))
    return [_tensor(out, _elem(t))]


def infer_reduce(
    t: A.Type, attrs: dict[str, Any], float_only: bool, allow_i1: bool
) -> list[A.Type]:
    shape = ranked_shape(t)
    et = _elem(t)
    if float_only:
        require_float(et)
    elif not allow_i1:
        require_not_i1(et)
    axes = int_list(attrs, "axes")
    keepdims = bool_value(attrs, "keepdims", False)
    for i, a in enumerate(axes):
        _check_axis(a, len(shape))
        if i and a <= axes[i - 1]:
            raise ShapeInferenceError(f"axes {_vals(axes)} must be strictly increasing")
    if keepdims:
        out = [1 if i in axes else d for i, d in enumerate(shape)]
    else:
        out = [d for i, d in enumerate(shape) if i not in axes]
    return [_tensor(out, et)]


def infer_softmax(t: A.Type, attrs: dict[str, Any]) -> list[A.Type]:
    shape = ranked_shape(t)
    require_float(_elem(t))
    _check_axis(int_value(attrs, "axis"), len(shape))
    return [t]


def _window_size(size: int, lo: int, hi: int, extent: int, stride: int, what: str) -> int:
    """Output size of a window of `extent` elements (dilation applied) along one dim."""
    if size == DYNAMIC or extent == DYNAMIC:
        return DYNAMIC
    out = (size + lo + hi - extent) // stride + 1
    if out < 1:
        raise ShapeInferenceError(
            f"{what} output size {out} is < 1 (input {size}, pads {lo}+{hi}, "
            f"window {extent}, stride {stride})"
        )
    return out


def _positive(vals: Shape, key: str) -> None:
    for v in vals:
        if v < 1:
            raise ShapeInferenceError(f"'{key}' entries must be >= 1, but got {_vals(vals)}")


def _non_negative(vals: Shape, key: str) -> None:
    for v in vals:
        if v < 0:
            raise ShapeInferenceError(f"'{key}' entries must be >= 0, but got {_vals(vals)}")


def _rank(shape: Shape, n: int, what: str) -> None:
    if len(shape) != n:
        raise ShapeInferenceError(f"{what} must have rank {n}, but has rank {len(shape)}")


CONV_DEFAULTS = {"strides": (1, 1), "pads": (0, 0, 0, 0), "dilations": (1, 1)}


def infer_conv2d(types: Sequence[A.Type], attrs: dict[str, Any]) -> list[A.Type]:
    x, w = ranked_shape(types[0]), ranked_shape(types[1])
    _rank(x, 4, "input")
    _rank(w, 4, "filter")
    et = same_element_type(types)
    require_float(et)
    strides = int_list(attrs, "strides", CONV_DEFAULTS["strides"])
    pads = int_list(attrs, "pads", CONV_DEFAULTS["pads"])
    dilations = int_list(attrs, "dilations", CONV_DEFAULTS["dilations"])
    groups = int_value(attrs, "groups", 1)
    _check_length(strides, 2, "strides")
    _check_length(pads, 4, "pads")
    _check_length(dilations, 2, "dilations")
    _positive(strides, "strides")
    _non_negative(pads, "pads")
    _positive(dilations, "dilations")
    if groups < 1:
        raise ShapeInferenceError(f"groups {groups} must be >= 1")
    n, c, h, wd = x
    o, cg, kh, kw = w
    if c != DYNAMIC and cg != DYNAMIC and c != groups * cg:
        raise ShapeInferenceError(
            f"input channels {c} must equal groups ({groups}) * filter channels ({cg})"
        )
    if o != DYNAMIC and o % groups != 0:
        raise ShapeInferenceError(f"groups {groups} does not divide the output channels {o}")
    if len(types) == 3:
        b = ranked_shape(types[2])
        _rank(b, 1, "bias")
        if b[0] != DYNAMIC and o != DYNAMIC and b[0] != o:
            raise ShapeInferenceError(f"bias size {b[0]} does not match output channels {o}")
    ekh = DYNAMIC if kh == DYNAMIC else dilations[0] * (kh - 1) + 1
    ekw = DYNAMIC if kw == DYNAMIC else dilations[1] * (kw - 1) + 1
    oh = _window_size(h, pads[0], pads[2], ekh, strides[0], "convolution")
    ow = _window_size(wd, pads[1], pads[3], ekw, strides[1], "convolution")
    return [_tensor((n, o, oh, ow), et)]


POOL_DEFAULTS = {"strides": (1, 1), "pads": (0, 0, 0, 0)}


def infer_pool2d(t: A.Type, attrs: dict[str, Any]) -> list[A.Type]:
    x = ranked_shape(t)
    _rank(x, 4, "input")
    require_float(_elem(t))
    kernel = int_list(attrs, "kernel")
    strides = int_list(attrs, "strides", POOL_DEFAULTS["strides"])
    pads = int_list(attrs, "pads", POOL_DEFAULTS["pads"])
    _check_length(kernel, 2, "kernel")
    _check_length(strides, 2, "strides")
    _check_length(pads, 4, "pads")
    _positive(kernel, "kernel")
    _positive(strides, "strides")
    _non_negative(pads, "pads")
    for i, p in enumerate(pads):
        k = kernel[i % 2]
        if p >= k:
            raise ShapeInferenceError(f"pad {p} must be smaller than the kernel size {k}")
    n, c, h, w = x
    oh = _window_size(h, pads[0], pads[2], kernel[0], strides[0], "pooling")
    ow = _window_size(w, pads[1], pads[3], kernel[1], strides[1], "pooling")
    return [_tensor((n, c, oh, ow), _elem(t))]
