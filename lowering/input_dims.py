"""Which input dims compiled code needs equal (or of a given size): the call-boundary contract.

The lowering reads operands through index maps sized by one of them: a broadcasting op whose
operand has a `?` dim reads it as if it were the result dim (`broadcast_map`: a dynamic size-1
dim is not broadcast at run time, as in MLIR's linalg lowering), a matmul reads its contracting
dim from the left operand, and so on. An array that breaks such an assumption would be read out
of bounds. So `mlc.compile` turns the assumptions into the runtime signature: dims known equal
share a symbol (checked at each call, with a `ValueError` naming both arguments), and a dim
known to equal a static size becomes that size.

The classes are `DimEquivalence`'s (the graph ops' semantics: matmul's contracting dims,
concat's other dims, reductions, windows, calls ...), with broadcasting (elementwise ops and
`graph.broadcast_to`) taken as the lowering takes it: every operand dim that is not a static 1
equals the result dim; and a reshape to a static shape fixes its one `?` operand dim.

Two conditions are not equalities and go to `Signature.dim_checks`: a `graph.slice` of a `?` dim
needs that dim to reach the slice's limit ("min"), and a reshape between shapes with one `?`
each needs the element count to divide by the result's static sizes ("multiple"). Not covered:
reshapes with several `?` source dims (their product is what must divide).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import gcd, lcm

import mlc.dialects.graph as G
from mlc.passes.graph_shape_inference import DYNAMIC, DimEquivalence

from mlc.ir import attributes as A
from mlc.ir.core import Operation, Value

__all__ = ["InputDimClasses"]


class InputDimClasses(DimEquivalence):
    """`DimEquivalence` of a module under the lowering's broadcasting assumption.

    classes = InputDimClasses(module)
    classes.signature_dims(fn)   # per argument: a tuple of int | str | None per dim
    """

    __slots__ = ("_checks",)

    def __init__(self, root: Operation) -> None:
        self._checks: list[tuple[int, str, int]] = []  # (dim id, "min" or "multiple", value)
        super().__init__(root)

    def _broadcast(self, out: Value, ins: Sequence[Value], op: Operation, lead: int = 0) -> None:
        if type(out.type) is not A.RankedTensorType:
            return
        rank = out.type.rank - lead  # type: ignore[attr-defined]
        for v in ins:
            if type(v.type) is not A.RankedTensorType:
                continue
            shape = v.type.shape  # type: ignore[attr-defined]
            r = len(shape) - lead
            for j in range(r):
                if shape[j] != 1:
                    self.union(out, rank - r + j, v, j, op)

    def _seed(self, op: Operation, table: dict[str, Operation]) -> None:
        cls = type(op)
        if cls is G.BroadcastToOp:
            # A `?` operand dim is read as the (static) target dim.
            self._broadcast(op.results[0], op.operands, op)
        elif cls is G.ReshapeOp:
            self._seed_static_reshape(op)
        elif cls is G.SliceOp:
            self._seed_slice(op)
        super()._seed(op, table)

    def _seed_slice(self, op: Operation) -> None:
        """A non-empty slice of a `?` dim reads up to its limit: the dim must reach it."""
        x = op.operands[0]
        if type(x.type) is not A.RankedTensorType:
            return
        starts, limits = op.starts_value(), op.limits_value()  # type: ignore[attr-defined]
        for d, size in enumerate(x.type.shape):  # type: ignore[attr-defined]
            if size == DYNAMIC and d < len(limits) and starts[d] < limits[d]:
                self._checks.append((self._id(x, d), "min", limits[d]))

    def dim_checks(self, fn: Operation) -> list[tuple[int, int, str, int]]:
        """(argument, dim, kind, value) for the dynamic argument dims that must be at least
        some size ("min": a slice reads up to its limit) or a multiple of one ("multiple": a
        reshape keeps the element count), merged per class."""
        need: dict[tuple[int, str], int] = {}
        for i, kind, value in self._checks:
            key = (self._root(i), kind)
            old = need.get(key)
            if old is not None:
                value = max(old, value) if kind == "min" else lcm(old, value)
            need[key] = value
        out: list[tuple[int, int, str, int]] = []
        if not need:
            return out
        for k, a in enumerate(fn.regions[0].blocks[0].arguments):
            if type(a.type) is not A.RankedTensorType:
                continue
            for d, size in enumerate(a.type.shape):  # type: ignore[attr-defined]
                cid = self.class_id(a, d) if size == DYNAMIC else None
                for kind in ("min", "multiple"):
                    value = need.get((cid, kind)) if cid is not None else None
                    if value is not None and (kind == "min" or value > 1):
                        out.append((k, d, kind, value))
        return out

    def _seed_static_reshape(self, op: Operation) -> None:
        """A reshape to a static shape from one `?` dim: that dim has the one size that keeps
        the element count (the lowering reads that many elements)."""
        x, out = op.operands[0], op.results[0]
        if type(x.type) is not A.RankedTensorType or type(out.type) is not A.RankedTensorType:
            return
        src, dst = x.type.shape, out.type.shape  # type: ignore[attr-defined]
        dynamic = [i for i, d in enumerate(src) if d == DYNAMIC]
        if len(dynamic) != 1:
            return
        if DYNAMIC in dst:
            # One `?` on each side: the element count n * (static source sizes) must be a
            # multiple of the static result sizes (the lowering divides by them).
            ks = kd = 1
            for d in src:
                ks *= d if d != DYNAMIC else 1
            for d in dst:
                kd *= d if d != DYNAMIC else 1
            if dst.count(DYNAMIC) == 1 and ks and kd:
                m = kd // gcd(ks, kd)
                if m > 1:
                    self._checks.append((self._id(x, dynamic[0]), "multiple", m))
            return
        total = 1
        for d in dst:
            total *= d
        known = 1
        for d in src:
            if d != DYNAMIC:
                known *= d
        if known and total % known == 0:
            i = self._id(x, dynamic[0])
            root = self._root(i)
            size = total // known
            have = self._size.get(root)
            if have is None:
                self._size[root] = size
            elif have != size:
                self.conflicts.append(
                    (op, f"dimension of size {have} must equal one of size {size}")
                )

    def signature_dims(self, fn: Operation) -> list[tuple[int | str | None, ...] | None]:
        """For each argument of `fn` (None for a non-tensor), its dims as the runtime signature
        takes them: static sizes (also a `?` known to equal one), a symbol shared by the
        arguments' dims of one class, or None (free)."""
        args = fn.regions[0].blocks[0].arguments
        members: dict[int, list[tuple[int, int]]] = {}
        for k, a in enumerate(args):
            if type(a.type) is not A.RankedTensorType:
                continue
            for d, size in enumerate(a.type.shape):  # type: ignore[attr-defined]
                if size == DYNAMIC:
                    cid = self.class_id(a, d)
                    if cid is not None:
                        members.setdefault(cid, []).append((k, d))
        out: list[tuple[int | str | None, ...] | None] = []
        for a in args:
            if type(a.type) is not A.RankedTensorType:
                out.append(None)
                continue
            dims: list[int | str | None] = []
            for d, size in enumerate(a.type.shape):  # type: ignore[attr-defined]
                if size != DYNAMIC:
                    dims.append(size)
                    continue
                known = self.static_size(a, d)
                cid = self.class_id(a, d)
                if known is not None:
                    dims.append(known)
                elif cid is not None and len(members[cid]) > 1:
                    k0, d0 = members[cid][0]
                    dims.append(f"arg{k0}[{d0}]")
                else:
                    dims.append(None)
            out.append(tuple(dims))
        return out
