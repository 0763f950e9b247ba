"""tensor ops, including `tensor.generic` evaluated over whole NumPy arrays.

`tensor.generic` runs its scalar body once over arrays spanning the parallel loops ("loop
space": one axis per loop, size 1 where an operand does not depend on the loop), and once per
point of the reduction loops, in lexicographic order. Operands with projected-permutation maps
are views; other affine maps (`d0 + d1`, ...) gather with index grids.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from mlc.interp.core import dtype_of, handles, op_error, unsupported
from mlc.ir import attributes as A
from mlc.ir.affine import (
    ADD,
    CEILDIV,
    FLOORDIV,
    MOD,
    MUL,
    AffineBinaryExpr,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from mlc.ir.core import Operation

__all__ = ["TensorHandlers", "eval_affine"]

DYNAMIC_INDEX = -(1 << 63)
"""The dynamic entry of `static_offsets`/`static_sizes`/... (MLIR's ShapedType::kDynamic)."""


def _index(op: Operation, v: Any) -> int:
    if isinstance(v, np.ndarray) and v.ndim:
        raise unsupported(op, "with array-valued sizes or offsets")
    return int(v)


def _mixed(op: Operation, names: Sequence[str], dynamic: Sequence[Any]) -> list[list[int]]:
    """Static arrays `names` with their dynamic entries taken, in order, from `dynamic`."""
    it = iter(dynamic)
    out = []
    for name in names:
        attr = op.get_attr(name)
        values = [] if attr is None else attr.values  # type: ignore[attr-defined]
        out.append([_index(op, next(it)) if v == DYNAMIC_INDEX else v for v in values])
    return out


def _result_shape(op: Operation, dynamic: Sequence[Any]) -> tuple[int, ...]:
    """The result type's shape with its `?` dims taken, in order, from `dynamic` sizes."""
    it = iter(dynamic)
    shape = []
    for d in op.results[0].type.shape:  # type: ignore[attr-defined]
        if d == A.DYNAMIC:
            size = _index(op, next(it))
            if size < 0:
                raise op_error(op, f"negative dynamic size {size}")
            shape.append(size)
        else:
            shape.append(d)
    return tuple(shape)


def _slices(
    op: Operation, shape: Sequence[int], offsets: list[int], sizes: list[int], strides: list[int]
) -> tuple[slice, ...]:
    """Basic-indexing slices for offsets/sizes/strides, bounds-checked against `shape`."""
    out = []
    for d, (o, s, st) in enumerate(zip(offsets, sizes, strides)):
        if s < 0 or st < 1 or o < 0 or (s > 0 and o + (s - 1) * st >= shape[d]):
            raise op_error(
                op,
                f"slice (offset {o}, size {s}, stride {st}) out of bounds for dim {d} "
                f"of size {shape[d]}",
            )
        out.append(slice(o, o + (s - 1) * st + 1, st) if s else slice(o, o))
    return tuple(out)


def _kept_dims(op: Operation, static_sizes: Sequence[int], reduced: Sequence[int]) -> list[int]:
    """Dims of a slice kept in the rank-reduced type (MLIR's computeRankReductionMask)."""
    if len(static_sizes) == len(reduced):
        return list(range(len(reduced)))
    kept, j = [], 0
    for i, s in enumerate(static_sizes):
        s = A.DYNAMIC if s == DYNAMIC_INDEX else s
        if j < len(reduced) and s == reduced[j]:
            kept.append(i)
            j += 1
        elif s != 1:
            raise op_error(op, "cannot match the slice sizes to the rank-reduced type")
    if j != len(reduced):
        raise op_error(op, "cannot match the slice sizes to the rank-reduced type")
    return kept


def _groups(op: Operation) -> list[list[int]]:
    return [[a.value for a in g] for g in op.get_attr("reassociation")]  # type: ignore


# ---------------------------------------------------------------------------------------------
# Affine maps over index grids


def eval_affine(e: AffineExpr, dims: Sequence[Any]) -> Any:
    """Evaluate `e` with `dims` bound to integers or integer arrays (MLIR's floordiv/mod)."""
    t = type(e)
    if t is AffineDimExpr:
        return dims[e.position]  # type: ignore[attr-defined]
    if t is AffineConstantExpr:
        return e.value  # type: ignore[attr-defined]
    if t is AffineBinaryExpr:
        a = eval_affine(e.lhs, dims)  # type: ignore[attr-defined]
        b = eval_affine(e.rhs, dims)  # type: ignore[attr-defined]
        kind = e.kind  # type: ignore[attr-defined]
        if kind is ADD:
            return a + b
        if kind is MUL:
            return a * b
        if kind is FLOORDIV:
            return np.floor_divide(a, b)
        if kind is CEILDIV:
            return -np.floor_divide(-a, b)
        if kind is MOD:
            return np.mod(a, b)
    raise ValueError(f"not supported: affine expression {e}")


def _loop_sizes(op: Operation, maps: list[AffineMap], operands: Sequence[Any], n: int) -> list[int]:
    """Each loop's size, from the operand dims indexed by a bare loop index (all must agree)."""
    sizes: list[int | None] = [None] * n
    for k, (x, m) in enumerate(zip(operands, maps)):
        for j, e in enumerate(m.results):
            if type(e) is AffineDimExpr:
                d = e.position
                if sizes[d] is None:
                    sizes[d] = x.shape[j]
                elif sizes[d] != x.shape[j]:
                    raise op_error(
                        op,
                        f"loop d{d} has size {sizes[d]} from an earlier operand and "
                        f"{x.shape[j]} from operand {k} dim {j}",
                    )
    for d, s in enumerate(sizes):
        if s is None:
            raise unsupported(op, f"with loop d{d} not indexing any operand dimension directly")
    return sizes  # type: ignore[return-value]


def _permuted_view(x: np.ndarray, m: AffineMap, n: int) -> np.ndarray | None:
    """x as a loop-space view when each map result is a distinct loop or a constant, else None."""
    positions = []
    index: list[Any] = []
    for j, e in enumerate(m.results):
        if type(e) is AffineDimExpr:
            positions.append(e.position)
            index.append(slice(None))
        elif type(e) is AffineConstantExpr:
            if not 0 <= e.value < x.shape[j]:
                return None  # the gather path reports the bad index
            index.append(e.value)
        else:
            return None
    if len(set(positions)) != len(positions):
        return None
    v = x[(*index, Ellipsis)]  # a view even when every index is an integer
    order = sorted(range(len(positions)), key=positions.__getitem__)
    v = np.transpose(v, order)
    missing = tuple(d for d in range(n) if d not in positions)
    return np.expand_dims(v, missing) if missing else v


def _gathered(op: Operation, x: np.ndarray, m: AffineMap, grids: list[np.ndarray]) -> np.ndarray:
    """x[map(loops)] over the whole loop space (a copy), bounds-checked."""
    n = len(grids)
    indices = []
    for j, e in enumerate(m.results):
        try:
            idx = eval_affine(e, grids)
        except ValueError:
            raise unsupported(op, f"with indexing map {m}") from None
        idx = np.asarray(idx, np.int64)
        if idx.ndim < n:
            idx = idx.reshape((1,) * (n - idx.ndim) + idx.shape)
        if idx.size and (idx.min() < 0 or idx.max() >= x.shape[j]):
            raise op_error(op, f"indexing map {m} reads outside dim {j} of size {x.shape[j]}")
        indices.append(idx)
    if not indices:
        return x.reshape((1,) * n)
    return x[tuple(indices)]


def _fit(y: Any, shape: tuple[int, ...]) -> Any:
    """A body result broadcast to a target; where the target has extent 1 and the result does
    not, several iterations wrote one element and the last one wins."""
    y = np.asarray(y)
    if y.ndim == len(shape):
        for ax, (t, s) in enumerate(zip(shape, y.shape)):
            if t == 1 and s > 1:
                y = np.take(y, [-1], axis=ax)
    return np.broadcast_to(y, shape)


class TensorHandlers:
    """Handlers of the tensor dialect."""

    @handles("tensor.empty")
    def _tensor_empty(self, op: Operation, *sizes: Any) -> np.ndarray:
        # Contents are undefined; zeros make runs reproducible.
        return np.zeros(_result_shape(op, sizes), dtype_of(op.results[0].type))

    @handles("tensor.splat")
    def _tensor_splat(self, op: Operation, value: Any, *sizes: Any) -> np.ndarray:
        return np.full(_result_shape(op, sizes), value, dtype_of(op.results[0].type))

    @handles("tensor.dim")
    def _tensor_dim(self, op: Operation, x: np.ndarray, i: Any) -> np.int64:
        d = _index(op, i)
        if not 0 <= d < x.ndim:
            raise op_error(op, f"dimension {d} out of range for rank {x.ndim}")
        return np.int64(x.shape[d])

    @handles("tensor.cast")
    def _tensor_cast(self, op: Operation, x: np.ndarray) -> np.ndarray:
        return x  # the result check rejects a shape the target type does not admit

    @handles("tensor.extract")
    def _tensor_extract(self, op: Operation, x: np.ndarray, *indices: Any) -> Any:
        for d, i in enumerate(indices):
            if np.any(np.asarray(i) < 0) or np.any(np.asarray(i) >= x.shape[d]):
                raise op_error(op, f"index {i} out of bounds for dim {d} of size {x.shape[d]}")
        return x[tuple(indices)]

    @handles("tensor.insert")
    def _tensor_insert(self, op: Operation, v: Any, dest: np.ndarray, *indices: Any) -> np.ndarray:
        idx = tuple(_index(op, i) for i in indices)
        for d, i in enumerate(idx):
            if not 0 <= i < dest.shape[d]:
                raise op_error(op, f"index {i} out of bounds for dim {d} of size {dest.shape[d]}")
        out = dest.copy()
        out[idx] = v
        return out

    @handles("tensor.extract_slice")
    def _tensor_extract_slice(self, op: Operation, src: np.ndarray, *dyn: Any) -> np.ndarray:
        offsets, sizes, strides = _mixed(op, _SLICE_PROPS, dyn)
        part = src[_slices(op, src.shape, offsets, sizes, strides)]
        reduced = op.results[0].type.shape  # type: ignore[attr-defined]
        kept = _kept_dims(op, op.get_attr("static_sizes").values, reduced)  # type: ignore
        return part.reshape([sizes[i] for i in kept])

    @handles("tensor.insert_slice")
    def _tensor_insert_slice(
        self, op: Operation, src: np.ndarray, dest: np.ndarray, *dyn: Any
    ) -> np.ndarray:
        offsets, sizes, strides = _mixed(op, _SLICE_PROPS, dyn)
        out = dest.copy()
        region = _slices(op, dest.shape, offsets, sizes, strides)
        target = out[region]
        if target.size != src.size:
            raise op_error(op, f"source of shape {src.shape} does not fill the slice {sizes}")
        out[region] = src.reshape(target.shape)
        return out

    @handles("tensor.collapse_shape")
    def _tensor_collapse_shape(self, op: Operation, src: np.ndarray) -> np.ndarray:
        shape = [math.prod(src.shape[i] for i in g) for g in _groups(op)]
        return src.reshape(shape)

    @handles("tensor.expand_shape")
    def _tensor_expand_shape(self, op: Operation, src: np.ndarray, *dyn: Any) -> np.ndarray:
        (shape,) = _mixed(op, ("static_output_shape",), dyn)
        for k, g in enumerate(_groups(op)):
            if math.prod(shape[i] for i in g) != src.shape[k]:
                sizes = [shape[i] for i in g]
                raise op_error(op, f"output sizes {sizes} do not expand dim {k} ({src.shape[k]})")
        return src.reshape(shape)

    @handles("tensor.pad")
    def _tensor_pad(self, op: Operation, src: np.ndarray, *dyn: Any) -> np.ndarray:
        low, high = _mixed(op, ("static_low", "static_high"), dyn)
        if any(p < 0 for p in low + high):
            raise unsupported(op, "with negative padding")
        shape = tuple(s + lo + hi for s, lo, hi in zip(src.shape, low, high))
        body = op.regions[0].blocks[0]
        # The body runs once over index grids of the result, so index-dependent padding works.
        grids = list(np.ogrid[tuple(slice(0, s) for s in shape)]) if shape else []
        self.lanes += 1  # type: ignore[attr-defined]
        try:
            (value,) = self.run_block(body, grids, ("tensor.yield",))  # type: ignore[attr-defined]
        finally:
            self.lanes -= 1  # type: ignore[attr-defined]
        out = np.array(np.broadcast_to(value, shape), dtype_of(op.results[0].type))
        out[tuple(slice(lo, lo + s) for lo, s in zip(low, src.shape))] = src
        return out

    @handles("tensor.generic")
    def _tensor_generic(self, op: Operation, *operands: np.ndarray) -> Any:
        n_out = len(op.results)
        n_in = len(operands) - n_out
        maps = [m.value for m in op.get_attr("indexing_maps")]  # type: ignore[union-attr]
        kinds = [k.value for k in op.get_attr("iterator_types")]  # type: ignore[union-attr]
        n = len(kinds)
        if any(m.num_symbols for m in maps):
            raise unsupported(op, "with symbols in indexing maps")
        sizes = _loop_sizes(op, maps, operands, n)
        grids = list(np.ogrid[tuple(slice(0, s) for s in sizes)]) if n else []
        views = []
        for x, m in zip(operands[:n_in], maps):
            v = _permuted_view(x, m, n)
            views.append(v if v is not None else _gathered(op, x, m, grids))
        accs = [np.array(x) for x in operands[n_in:]]  # the results, updated in place
        for acc, m in zip(accs, maps[n_in:]):
            v = _permuted_view(acc, m, n)
            if v is None:
                raise unsupported(op, f"with output indexing map {m}")
            views.append(v)
        reductions = [d for d in range(n) if kinds[d] == "reduction"]
        body = op.regions[0].blocks[0]
        self.lanes += 1  # type: ignore[attr-defined]
        try:
            if not reductions:
                self._generic_step(body, views, n_in, ())
            else:
                for point in np.ndindex(*[sizes[d] for d in reductions]):
                    self._generic_step(body, views, n_in, tuple(zip(reductions, point)))
        finally:
            self.lanes -= 1  # type: ignore[attr-defined]
        return accs[0] if n_out == 1 else accs

    def _generic_step(
        self, body: Any, views: list[np.ndarray], n_in: int, point: tuple[tuple[int, int], ...]
    ) -> None:
        """Run the body over all parallel loops at one point of the reduction loops."""
        keys = []
        for v in views:
            key: list[Any] = [slice(None)] * v.ndim
            for d, r in point:
                key[d] = r if v.shape[d] > 1 else 0
            keys.append(tuple(key))
        args = [v[k] for v, k in zip(views, keys)]
        yielded = self.run_block(body, args, ("tensor.yield",))  # type: ignore[attr-defined]
        for v, k, y in zip(views[n_in:], keys[n_in:], yielded):
            v[k] = _fit(y, np.shape(v[k]))


_SLICE_PROPS = ("static_offsets", "static_sizes", "static_strides")
