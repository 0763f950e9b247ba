"""`affine-vectorize`: innermost `affine.for` loops -> 1-D vector code (affine level).

Contiguous accesses become `affine.vector_load`/`affine.vector_store`, elementwise arith/math
ops operate on vectors, loop invariants are broadcast, and reductions (into loop-carried values
or into a loop-invariant memref element) get a vector accumulator and a final
`vector.reduction`. A scalar epilogue loop runs the iterations that do not fill a vector.
"""

from __future__ import annotations

from functools import lru_cache

from mlc.dialects.affine import ForOp, ParallelOp, YieldOp
from mlc.dialects.affine_ops import LoadOp, PrefetchOp, StoreOp, VectorLoadOp, VectorStoreOp
from mlc.dialects.arith import (
    AddIOp,
    BitcastOp,
    CmpFOp,
    CmpIOp,
    ConstantOp,
    FastMathFlagsAttr,
    MaximumFOp,
    MaxSIOp,
    MaxUIOp,
    MinimumFOp,
    MinSIOp,
    MinUIOp,
    OrIOp,
    SelectOp,
)
from mlc.dialects.arith_fold import CMPI_PREDICATES
from mlc.dialects.arith_fold import CMPF_PREDICATES
from mlc.dialects.vector import BroadcastOp, CombiningKindAttr, ReductionOp
from mlc.passes.affine_dependence import is_parallel
from mlc.passes.affine_row_pipeline import ROW_CHOICES, ROW_PIPELINE_KNOBS, pipeline_rows

from mlc.interfaces import is_memory_effect_free, is_speculatable
from mlc.ir import attributes as A
from mlc.ir.affine import (
    AffineBinaryExpr,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    dim,
    simplify_affine_expr,
    sym,
)
from mlc.ir.core import Block, BlockArgument, Operation, OpResult, Value
from mlc.ir.opdef import Elementwise
from mlc.knobs import Bool, Choice
from mlc.pass_manager import KnobDecl, Option, Pass, PassContext, Statistic

__all__ = ["AffineVectorizePass", "REDUCTION_KINDS", "offset_from", "vector_widths"]

# Scalar combining op -> (vector.reduction kind, needs float reassociation).
REDUCTION_KINDS: dict[str, tuple[str, bool]] = {
    "arith.addf": ("add", True),
    "arith.mulf": ("mul", True),
    "arith.addi": ("add", False),
    "arith.muli": ("mul", False),
    "arith.maximumf": ("maximumf", False),
    "arith.minimumf": ("minimumf", False),
    "arith.maxnumf": ("maxnumf", False),
    "arith.minnumf": ("minnumf", False),
    "arith.maxsi": ("maxsi", False),
    "arith.minsi": ("minsi", False),
    "arith.maxui": ("maxui", False),
    "arith.minui": ("minui", False),
    "arith.andi": ("and", False),
    "arith.ori": ("or", False),
    "arith.xori": ("xor", False),
}

# Memref ops whose result views (part of) their first operand's buffer.
_VIEW_OPS = frozenset(
    (
        "memref.subview",
        "memref.cast",
        "memref.reinterpret_cast",
        "memref.expand_shape",
        "memref.collapse_shape",
        "memref.transpose",
        "memref.view",
        "memref.reshape",
    )
)
# Ops creating a buffer no other buffer overlaps.
_ALLOC_OPS = frozenset(("memref.alloc", "memref.alloca", "memref.get_global"))


def _bits(t: A.Type) -> int | None:
    """Bit width of a scalar that may become a vector element (None: not vectorizable)."""
    if type(t) is A.FloatType or type(t) is A.IntegerType:
        return t.width  # type: ignore[attr-defined, no-any-return]
    if t is A.index:
        return 64
    return None


@lru_cache(maxsize=1)
def host_vector_bits() -> int:
    """Bits of the widest vector registers of the host the JIT compiles for: 512 with
    AVX-512F, else 256 (also when llvmlite is missing)."""
    try:
        from mlc.runtime import host_target

        return 512 if host_target().has_feature("avx512f") else 256
    except Exception:  # noqa: BLE001 - no JIT available: AVX2 is the common target
        return 256


def vector_widths(element_bits: int) -> tuple[int, ...]:
    """The lane counts offered for a loop: 1 (stay scalar) and 128/256/512-bit vectors."""
    lanes = [max(1, b // element_bits) for b in (128, 256, 512)]
    return tuple(sorted({1, *lanes}))


# ---------------------------------------------------------------------------------------------
# Analysis


class _Reduction:
    """A reduction: `combine` folds a varying value into an accumulator.

    Loop-carried form: `acc` is the iter_arg at `position` (0-based among the iter_args).
    Memory form: `load` and `store` read and write one loop-invariant element.
    """

    __slots__ = ("acc", "combine", "kind", "load", "position", "store")

    def __init__(
        self,
        combine: Operation,
        kind: str,
        acc: Value,
        position: int = -1,
        load: Operation | None = None,
        store: Operation | None = None,
    ) -> None:
        self.combine = combine
        self.kind = kind
        self.acc = acc
        self.position = position
        self.load = load
        self.store = store


class _Plan:
    """What the legality analysis found out about one loop."""

    __slots__ = ("contiguous", "element_bits", "float_reduction", "reductions", "varying")

    def __init__(self) -> None:
        self.contiguous: set[Operation] = set()
        self.varying: set[Value] = set()
        self.reductions: list[_Reduction] = []
        self.element_bits = 0
        self.float_reduction = False


class _Reject(Exception):
    """The loop is left alone (the message says why, for the debug remark)."""


def _iv_coefficient(e: AffineExpr, iv_dims: frozenset[int]) -> int | None:
    """The coefficient of the induction variable (dims `iv_dims`) in `e`; None if not linear."""
    if type(e) is AffineDimExpr:
        return 1 if e.position in iv_dims else 0
    if type(e) is not AffineBinaryExpr:
        return 0
    if not any(e.is_function_of_dim(d) for d in iv_dims):
        return 0
    kind = e.kind
    if kind == "add":
        lc = _iv_coefficient(e.lhs, iv_dims)
        rc = _iv_coefficient(e.rhs, iv_dims)
        return None if lc is None or rc is None else lc + rc
    if kind == "mul":
        for a, b in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
            if type(b) is AffineConstantExpr:
                c = _iv_coefficient(a, iv_dims)
                return None if c is None else c * b.value
    return None  # floordiv/mod/ceildiv of the iv, or a semi-affine product


def _root(memref: Value) -> Value:
    """The buffer a memref value views (through subviews, casts, reshapes)."""
    while type(memref) is OpResult and memref.op.name in _VIEW_OPS:
        memref = memref.op._operands[0].value
    return memref


def _known_root(root: Value) -> bool:
    """Function arguments and allocations are distinct buffers (mlc's calling convention)."""
    if type(root) is BlockArgument:
        return root.block.parent_op is not None and root.block.parent_op.name == "func.func"
    return type(root) is OpResult and root.op.name in _ALLOC_OPS


def _contiguous_layout(t: A.MemRefType) -> bool:
    strides, _ = t.strides_and_offset()
    return not strides or strides[-1] == 1


class _Analysis:
    """Decides whether an innermost loop can run `w` iterations at a time in lock-step."""

    def __init__(self, loop: ForOp, reductions: bool) -> None:
        self.loop = loop
        self.body = loop.body_block
        self.iv = loop.induction_var
        self.allow_reductions = reductions
        self.plan = _Plan()

    def inside(self, v: Value) -> bool:
        return v.parent_block() is self.body

    def run(self) -> _Plan:
        loop = self.loop
        if loop.step_value != 1:
            raise _Reject("step is not 1")
        if loop.lower_bound_map.num_results != 1:
            raise _Reject("max lower bound")
        ops = [op for op in self.body if type(op) is not YieldOp]
        for op in ops:
            if op.regions:
                raise _Reject(f"'{op.name}' has regions")
        self.find_reductions(ops)
        in_reduction = {r.load for r in self.plan.reductions} | {
            r.store for r in self.plan.reductions
        }
        varying = self.plan.varying
        varying.add(self.iv)
        varying.update(r.acc for r in self.plan.reductions)
        accesses: list[tuple[Operation, str]] = []
        for op in ops:
            if op in in_reduction:
                continue
            t = type(op)
            if t is LoadOp or t is StoreOp:
                kind = self.access_kind(op)
                accesses.append((op, kind))
                if kind == "contiguous":
                    self.plan.contiguous.add(op)
                    if t is LoadOp:
                        varying.add(op.results[0])
                elif t is StoreOp:
                    raise _Reject("store to a loop-invariant address")
                continue
            if not is_memory_effect_free(op):
                raise _Reject(f"'{op.name}' has memory effects")
            if any(u.value in varying for u in op._operands):
                if Elementwise not in t._traits:
                    raise _Reject(f"'{op.name}' is not elementwise")
                for v in (*op.operands, *op.results):
                    if type(v.type) is A.VectorType or _bits(v.type) is None:
                        raise _Reject(f"'{op.name}' has a {v.type} operand or result")
                varying.update(op.results)
        self.check_dependences(accesses)
        yield_op = self.body.terminator
        reduced = {r.position for r in self.plan.reductions if r.position >= 0}
        if yield_op is not None and len(yield_op._operands) != len(reduced):
            raise _Reject("loop-carried values that are not reductions")
        return self.plan

    def access_kind(self, op: Operation) -> str:
        """'contiguous' (stride 1 in the iv) or 'invariant'; anything else is rejected."""
        mt = op.memref_value.type
        et = mt.element_type
        bits = _bits(et)
        if bits is None:
            raise _Reject(f"access to {mt}")
        amap = op.affine_map
        operands = op.map_operands
        iv_dims = []
        for i, v in enumerate(operands):
            if v is self.iv:
                if i >= amap.num_dims:
                    raise _Reject("induction variable used as a symbol")
                iv_dims.append(i)
            elif self.inside(v):
                raise _Reject("subscript computed inside the loop")
        if not iv_dims:
            return "invariant"
        dims = frozenset(iv_dims)
        coefs = [_iv_coefficient(e, dims) for e in amap.results]
        if all(c == 0 for c in coefs):
            return "invariant"
        if coefs[-1] != 1 or any(c != 0 for c in coefs[:-1]) or not _contiguous_layout(mt):
            raise _Reject(f"non-contiguous access to {mt}")
        if bits % 8:
            # Sub-byte elements take a byte each in memory but are bit-packed in a vector.
            raise _Reject(f"vector access to {mt}")
        self.plan.element_bits = max(self.plan.element_bits, bits)
        return "contiguous"

    def find_reductions(self, ops: list[Operation]) -> None:
        block_args = self.body.arguments
        yield_op = self.body.terminator
        for k, acc in enumerate(block_args[1:]):
            uses = list(acc.uses)
            if len(uses) != 1:
                raise _Reject("loop-carried value used more than once")
            combine = uses[0].owner
            red = self.reduction_kind(combine)
            res = combine.results[0] if combine.results else None
            if red is None or res is None or combine.parent is not self.body:
                raise _Reject("loop-carried value that is not a reduction")
            r_uses = list(res.uses)
            if len(r_uses) != 1 or r_uses[0].owner is not yield_op or r_uses[0].index != k:
                raise _Reject("partial reduction value used in the loop")
            self.plan.reductions.append(_Reduction(combine, red, acc, position=k))
        for load in ops:
            if type(load) is not LoadOp or not load.results[0].has_one_use():
                continue
            combine = next(iter(load.results[0].users))
            red = self.reduction_kind(combine)
            if red is None or combine.parent is not self.body:
                continue
            res_uses = list(combine.results[0].uses)
            if len(res_uses) != 1:
                continue
            store = res_uses[0].owner
            if (
                type(store) is not StoreOp
                or res_uses[0].index != 0
                or store.memref_value is not load.memref_value
                or store.affine_map is not load.affine_map
                or store.map_operands != load.map_operands
                or self.access_kind(load) != "invariant"
            ):
                continue
            self.plan.reductions.append(
                _Reduction(combine, red, load.results[0], load=load, store=store)
            )
        if self.plan.reductions and not self.allow_reductions:
            raise _Reject("reductions are not vectorized (vectorize-reductions=false)")
        for r in self.plan.reductions:
            bits = _bits(r.acc.type)
            if bits is None:
                raise _Reject(f"reduction of {r.acc.type}")
            self.plan.element_bits = max(self.plan.element_bits, bits)
            if REDUCTION_KINDS[r.combine.name][1]:
                self.plan.float_reduction = True

    def reduction_kind(self, op: Operation) -> str | None:
        entry = REDUCTION_KINDS.get(op.name)
        if entry is None or len(op._operands) != 2:
            return None
        return entry[0]

    def check_dependences(self, accesses: list[tuple[Operation, str]]) -> None:
        """Lock-step execution keeps every dependence when each written buffer is only accessed
        at the stored address (distance 0), and reduction buffers only by their reduction."""
        by_root: dict[Value, list[Operation]] = {}
        unknown = False
        for op, _ in accesses:
            root = _root(op.memref_value)
            unknown |= not _known_root(root)
            by_root.setdefault(root, []).append(op)
        writes_any = any(type(op) is StoreOp for op, _ in accesses)
        reduced: set[Value] = set()
        for r in self.plan.reductions:
            if r.load is None:
                continue
            root = _root(r.load.memref_value)
            if root in by_root or root in reduced or not _known_root(root):
                raise _Reject("reduction buffer accessed elsewhere in the loop")
            reduced.add(root)
            writes_any = True
        conflict = unknown and writes_any
        for ops in by_root.values():
            stores = [op for op in ops if type(op) is StoreOp]
            if not stores or conflict:
                continue
            key = (stores[0].memref_value, stores[0].affine_map, stores[0].map_operands)
            conflict = any((op.memref_value, op.affine_map, op.map_operands) != key for op in ops)
        # Beyond that simple rule, a loop the dependence analysis proves parallel (no
        # loop-carried dependence at all) runs correctly in any order, lock-step included.
        if conflict and (self.plan.reductions or not is_parallel(self.loop)):
            raise _Reject("possible loop-carried dependence through memory")


# ---------------------------------------------------------------------------------------------
# Transformation


# maximumf/minimumf of f32 on the bits as i32 (knob `int_minmax`): 3 integer min/max ops per
# vector (vpmaxsd/vpminud/vpmaxud) against LLVM's 7 for a vector maximum (vmaxps, and a
# compare and a blend each for signed zeros and NaN). As signed integers the non-negative
# floats (+0 up to +inf, then positive NaNs) keep their order and lie above every negative
# float; as unsigned integers the negative floats order by magnitude (-0 lowest, -inf, then
# negative NaNs) above every non-negative one. So:
#   maximumf = the signed maximum if it is >= 0, else the unsigned minimum (all negative);
#   minimumf = the unsigned maximum if it is negative, else the signed minimum;
# NaN when the signed maximum is above +inf's bits or the unsigned maximum above -inf's.
# Each slot: (vector.reduction kind, combining op, initial bits). The initial bits of the
# unsigned minimum and the signed minimum are -inf and +inf, so that an empty vector loop
# yields the neutral element.
_POS_INF_BITS = 0x7F800000
_NEG_INF_BITS = 0xFF800000 - (1 << 32)  # as a signless i32 attribute value
_QNAN_BITS = 0x7FC00000
_INT_KEY_SLOTS: dict[str, tuple[tuple[str, type, int], ...]] = {
    "maximumf": (
        ("maxsi", MaxSIOp, -(1 << 31)),
        ("minui", MinUIOp, _NEG_INF_BITS),
        ("maxui", MaxUIOp, 0),
    ),
    "minimumf": (
        ("maxui", MaxUIOp, 0),
        ("minsi", MinSIOp, _POS_INF_BITS),
        ("maxsi", MaxSIOp, -(1 << 31)),
    ),
}


def _identity_attr(kind: str, t: A.Type) -> A.Attribute:
    """The neutral element of a combining kind, as a scalar attribute of type `t`."""
    if type(t) is A.FloatType:
        value = {
            "add": -0.0,
            "mul": 1.0,
            "maximumf": float("-inf"),
            "minimumf": float("inf"),
            "maxnumf": float("nan"),
            "minnumf": float("nan"),
        }[kind]
        return A.FloatAttr(value, t)
    w = _bits(t) or 64
    value = {
        "add": 0,
        "mul": 1,
        "maxsi": -(1 << (w - 1)) if w > 1 else -1,
        "minsi": (1 << (w - 1)) - 1 if w > 1 else 0,
        "maxui": 0,
        "minui": -1,
        "and": -1,
        "or": 0,
        "xor": 0,
    }[kind]
    return A.IntegerAttr(value, t)


def _splat_constant(kind: str, vt: A.VectorType) -> Operation:
    scalar = _identity_attr(kind, vt.element_type)
    attr = A.DenseElementsAttr(vt, scalar.value)  # type: ignore[attr-defined]
    return ConstantOp.create([], [vt], {"value": attr})


class _Bounds:
    """A loop's bounds rebased onto one operand list (dims, then symbols; each value once)."""

    __slots__ = ("lower", "num_dims", "num_symbols", "operands", "uppers")

    def __init__(self, loop: ForOp) -> None:
        parts = (
            (loop.lower_bound_map, list(loop.lowerBoundOperands)),
            (loop.upper_bound_map, list(loop.upperBoundOperands)),
        )
        dims: list[Value] = []
        syms: list[Value] = []
        for m, ops in parts:
            dims += [v for v in ops[: m.num_dims] if v not in dims]
        for m, ops in parts:
            syms += [v for v in ops[m.num_dims :] if v not in dims and v not in syms]
        position = {v: dim(i) for i, v in enumerate(dims)}
        position.update({v: sym(i) for i, v in enumerate(syms)})
        rebased = [
            [
                e.replace_dims_and_symbols(
                    [position[v] for v in ops[: m.num_dims]],
                    [position[v] for v in ops[m.num_dims :]],
                )
                for e in m.results
            ]
            for m, ops in parts
        ]
        self.lower: AffineExpr = rebased[0][0]
        self.uppers: list[AffineExpr] = rebased[1]
        self.num_dims, self.num_symbols = len(dims), len(syms)
        self.operands = dims + syms

    def split(self, lanes: int) -> tuple[AffineMap, AffineMap | None] | None:
        """The vector loop's upper bound and the epilogue's lower bound (None: no epilogue).

        With L the lower bound and U = min(u_k) the upper one, the vector loop ends at
        L + ((U - L) floordiv lanes) * lanes = min_k(s_k), s_k = L + ((u_k - L) floordiv lanes)
        * lanes. The epilogue starts at max(L, min_k s_k), which an affine lower bound (a max)
        can only express when at most one u_k is not L plus a multiple of `lanes` (those have
        s_k = u_k, and when one of them is the minimum the epilogue is empty anyway): None
        otherwise.
        """
        nd, ns = self.num_dims, self.num_symbols
        low = self.lower
        ends: list[AffineExpr] = []
        cut: AffineExpr | None = None
        for u in self.uppers:
            diff = simplify_affine_expr(u - low, nd, ns)
            if type(diff) is AffineConstantExpr and diff.value % lanes == 0:
                ends.append(u)
                continue
            if cut is not None:
                return None
            cut = low + (u - low).floordiv(lanes) * lanes
            ends.append(cut)
        vec_ub = AffineMap(nd, ns, tuple(ends))
        return vec_ub, (None if cut is None else AffineMap(nd, ns, (low, cut)))


class _Vectorizer:
    """Builds the vector loop in front of `loop` and turns `loop` into the scalar epilogue."""

    def __init__(
        self,
        loop: ForOp,
        plan: _Plan,
        lanes: int,
        copies: int = 1,
        int_keys: frozenset[Operation] = frozenset(),
    ) -> None:
        self.loop = loop
        self.plan = plan
        self.lanes = lanes
        self.copies = copies  # independent partial-result vectors per reduction (main loop)
        self.offset = 0  # the copy being built reads iteration iv + offset
        self.vmap: dict[Value, Value] = {}  # scalar value -> its vector (in the current copy)
        self.smap: dict[Value, Value] = {}  # scalar value in the loop -> its clone
        self.hoisted: dict[Value, Value] = {}  # invariant scalar -> broadcast before the loop
        self.invariant: dict[Value, Value] = {}  # loop-invariant op result -> hoisted clone
        self.body_anchor: Operation | None = None
        self.first: ForOp | None = None  # the first vector loop (invariants go in front)
        self.vloop: ForOp | None = None  # the vector loop being built
        self.partials: list[Value] = []  # per reduction, the vector the last loop ends with
        self.select_combines: set[Operation] = set()  # see nan_free_init
        # maximumf/minimumf combines vectorized on the bits as integers (see _INT_KEY_SLOTS);
        # per combine, its three accumulators in the copy being built.
        self.int_keys = int_keys
        self.key_accs: dict[Operation, list[Value]] = {}

    def slots(self, r: _Reduction) -> tuple[tuple[str, type, int], ...] | None:
        """The integer accumulators of an int-key reduction (None: one float accumulator)."""
        return _INT_KEY_SLOTS[r.kind] if r.combine in self.int_keys else None

    def slot_count(self, r: _Reduction) -> int:
        got = self.slots(r)
        return 1 if got is None else len(got)

    def vtype(self, t: A.Type) -> A.VectorType:
        return A.VectorType([self.lanes], t)

    def insert_before_loop(self, op: Operation) -> Operation:
        """Insert `op` in front of the vector loops (in front of the loop until they exist)."""
        anchor = self.first if self.first is not None else self.loop
        self.loop.parent.insert_before(op, anchor)  # type: ignore[union-attr]
        op.location = self.loop.location
        return op

    def insert_in_body(self, op: Operation, location: A.Location | None = None) -> Operation:
        assert self.vloop is not None and self.body_anchor is not None
        self.vloop.body_block.insert_before(op, self.body_anchor)
        if location is not None:
            op.location = location
        return op

    def scalar(self, v: Value) -> Value:
        got = self.smap.get(v)
        return got if got is not None else self.invariant.get(v, v)

    def outside(self, v: Value) -> bool:
        """`v` is available before the vector loops (defined outside the loop, or hoisted)."""
        return v in self.invariant or v.parent_block() is not self.loop.body_block

    def vector(self, v: Value, location: A.Location) -> Value:
        """The vector of `v`: its vectorized form, or a broadcast of a uniform scalar."""
        got = self.vmap.get(v)
        if got is not None:
            return got
        if v is self.loop.induction_var:
            return self.iota(location)
        if self.outside(v):
            hit = self.hoisted.get(v)
            if hit is None:
                b = BroadcastOp.create([self.scalar(v)], [self.vtype(v.type)])
                hit = self.hoisted[v] = self.insert_before_loop(b).results[0]
            return hit
        b = BroadcastOp.create([self.scalar(v)], [self.vtype(v.type)])
        out = self.insert_in_body(b, location).results[0]
        self.vmap[v] = out
        return out

    def iota(self, location: A.Location) -> Value:
        """`iv + [0, 1, ..., lanes-1]` for an induction variable used as a value."""
        assert self.vloop is not None
        vt = self.vtype(A.index)
        lanes = list(range(self.offset, self.offset + self.lanes))
        steps = ConstantOp.create([], [vt], {"value": A.DenseElementsAttr(vt, lanes)})
        steps_v = self.insert_before_loop(steps).results[0]
        base = self.insert_in_body(BroadcastOp.create([self.vloop.induction_var], [vt]), location)
        add = AddIOp.create([base.results[0], steps_v], [vt])
        out = self.insert_in_body(add, location).results[0]
        self.vmap[self.loop.induction_var] = out
        return out

    def run(self, bounds: _Bounds | None) -> None:
        """Vectorize; `bounds` is None when the trip count is a constant.

        With `copies` k > 1 a main loop of step k * lanes carries k partial-result vectors per
        reduction (independent dependence chains), combined after it; a loop of step `lanes`
        continues from the combined vectors over the whole vectors that remain, then the scalar
        epilogue runs the rest.
        """
        loop, plan = self.loop, self.plan
        lb_ops = list(loop.lowerBoundOperands)
        lanes, k = self.lanes, self.copies
        epilogue: AffineMap | None = None
        # The accumulators start at the neutral element; the original initial value is folded
        # in by the final vector.reduction.
        inits: list[Value] = []
        self.select_combines = {r.combine for r in plan.reductions if self.nan_free_init(r)}
        for r in plan.reductions:
            vt = self.vtype(r.acc.type)
            keys = self.slots(r)
            if keys is not None:
                it = self.vtype(A.IntegerType(32))
                for _, _, init in keys:
                    splat = ConstantOp.create([], [it], {"value": A.DenseElementsAttr(it, init)})
                    inits.append(self.insert_before_loop(splat).results[0])
                continue
            if r.combine in self.select_combines:
                value = float("-inf") if r.kind == "maxnumf" else float("inf")
                splat = ConstantOp.create([], [vt], {"value": A.DenseElementsAttr(vt, value)})
            else:
                splat = _splat_constant(r.kind, vt)
            inits.append(self.insert_before_loop(splat).results[0])
        lower: tuple[AffineMap, list[Value]] = (loop.lower_bound_map, lb_ops)
        if bounds is None:
            lo, trip = loop.constant_lower_bound(), loop.constant_trip_count()
            assert lo is not None and trip is not None
            split = lo + (trip // lanes) * lanes
            if k > 1:
                main_end = lo + (trip // (lanes * k)) * lanes * k
                self.build_loop((AffineMap.constant(lo), []), main_end, k, inits)
                inits = self.partials = self.combine_partials(k)
                lower = (AffineMap.constant(main_end), [])
            if k == 1 or split != lower[0].results[0].value:  # type: ignore[attr-defined]
                self.build_loop(lower, split, 1, inits)
            if split != loop.constant_upper_bound():
                epilogue = AffineMap.constant(split)
        else:
            got = bounds.split(lanes)
            assert got is not None
            vec_ub, epilogue = got
            if k > 1:
                main = bounds.split(lanes * k)
                assert main is not None
                main_ub, main_end = main
                self.build_loop(lower, (main_ub, bounds.operands), k, inits)
                inits = self.partials = self.combine_partials(k)
                end_map = main_ub if main_end is None else main_end
                lower = (end_map, bounds.operands)
            self.build_loop(lower, (vec_ub, bounds.operands), 1, inits)
        self.finish(epilogue, [] if bounds is None else bounds.operands)

    def nan_free_init(self, r: _Reduction) -> bool:
        """A maxnumf/minnumf reduction into an iter_arg whose initial value is a constant that
        is not NaN: its vector partials then start at -inf/+inf instead of NaN and, never NaN,
        combine with `select(x > acc, x, acc)` (`<` for min), one `vmaxps`/`vminps` on x86
        (LLVM's maxnum is a max, a NaN compare and a blend there). The result is maxnum's: the
        maximum of the non-NaN elements and the initial value, which is not NaN."""
        if r.kind not in ("maxnumf", "minnumf") or r.load is not None:
            return False
        op = self.loop.inits[r.position].defining_op()
        if type(op) is not ConstantOp:
            return False
        attr = op.get_attr("value")
        value = getattr(attr, "value", None)
        return isinstance(value, float) and value == value

    def select_combine(self, op: Operation, loc: A.Location) -> None:
        """The vector form of a NaN-free maxnumf/minnumf reduction step (`nan_free_init`)."""
        r = next(r for r in self.plan.reductions if r.combine is op)
        acc = self.vmap[r.acc]
        a, b = (u.value for u in op._operands)
        x = self.vector(b if a is r.acc else a, loc)
        vt = acc.type
        bt = vt.clone_with(element_type=A.i1)  # type: ignore[attr-defined]
        pred = CMPF_PREDICATES.index("ogt" if r.kind == "maxnumf" else "olt")
        cmp = CmpFOp.create([x, acc], [bt], {"predicate": A.IntegerAttr(pred, A.i64)}, location=loc)
        self.insert_in_body(cmp)
        sel = SelectOp.create([cmp.results[0], x, acc], [vt], location=loc)
        self.insert_in_body(sel)
        self.vmap[op.results[0]] = sel.results[0]

    def key_combine(self, op: Operation, loc: A.Location) -> None:
        """The vector form of an int-key maximumf/minimumf step: the element bits as i32 into
        each of the reduction's integer accumulators (`_INT_KEY_SLOTS`)."""
        r = next(r for r in self.plan.reductions if r.combine is op)
        a, b = (u.value for u in op._operands)
        x = self.vector(b if a is r.acc else a, loc)
        it = self.vtype(A.IntegerType(32))
        bits = self.insert_in_body(BitcastOp.create([x], [it]), loc).results[0]
        accs = self.key_accs[op]
        new = []
        for acc, (_, cls, _) in zip(accs, _INT_KEY_SLOTS[r.kind]):
            new.append(self.insert_in_body(cls.create([acc, bits], [it]), loc).results[0])
        self.key_accs[op] = new

    def build_loop(
        self,
        lower: tuple[AffineMap, list[Value]],
        upper: int | tuple[AffineMap, list[Value]],
        copies: int,
        inits: list[Value],
    ) -> None:
        """One vector loop of step `copies * lanes` in front of the scalar loop (`self.vloop`).

        Copy j of the body handles iterations iv + j * lanes and carries its own accumulator
        for each reduction (iter_args ordered by copy, then reduction)."""
        loop, plan = self.loop, self.plan
        n = sum(self.slot_count(r) for r in plan.reductions)
        vloop = ForOp.build_for(lower, upper, self.lanes * copies, inits * copies)
        self.loop.parent.insert_before(vloop, self.loop)  # type: ignore[union-attr]
        vloop.location = self.loop.location
        if self.first is None:
            self.first = vloop
        self.vloop = vloop
        block = vloop.body_block
        if inits:
            block.append(YieldOp.create([], []))
        self.body_anchor = block.terminator
        skip = {r.load for r in plan.reductions} | {r.store for r in plan.reductions}
        yields: list[Value] = []
        for j in range(copies):
            self.offset = j * self.lanes
            self.vmap = {}
            self.smap = {loop.induction_var: vloop.induction_var}
            args = list(block.arguments[1 + j * n : 1 + (j + 1) * n])
            for r in plan.reductions:
                c = self.slot_count(r)
                if self.slots(r) is None:
                    self.vmap[r.acc] = args[0]
                else:
                    self.key_accs[r.combine] = args[:c]
                args = args[c:]
            for op in list(loop.body_block):
                if type(op) is YieldOp or op in skip:
                    continue
                self.vectorize_op(op)
            for r in plan.reductions:
                if self.slots(r) is None:
                    yields.append(self.vmap[r.combine.results[0]])
                else:
                    yields += self.key_accs[r.combine]
        self.offset = 0
        if inits:
            self.body_anchor.set_operands(yields)  # type: ignore[union-attr]
        self.partials = list(vloop.results)

    def combine_partials(self, copies: int) -> list[Value]:
        """Fold the main loop's partial-result vectors pairwise (a tree) into one per
        reduction, with the reduction's own combining op on vectors."""
        assert self.vloop is not None
        plan = self.plan
        n = sum(self.slot_count(r) for r in plan.reductions)
        results = list(self.vloop.results)
        out: list[Value] = []
        after = self.vloop
        i = 0
        for r in plan.reductions:
            keys = self.slots(r)
            combiners: list[tuple[type, dict | None]] = (
                [(type(r.combine), dict(r.combine._attrs) if r.combine._attrs else None)]
                if keys is None
                else [(cls, None) for _, cls, _ in keys]
            )
            for cls, attrs in combiners:
                parts = [results[j * n + i] for j in range(copies)]
                i += 1
                while len(parts) > 1:
                    nxt = []
                    for a, b in zip(parts[::2], parts[1::2]):
                        op = cls.create([a, b], [a.type], attrs)
                        op.location = r.combine.location
                        self.loop.parent.insert_after(op, after)  # type: ignore[union-attr]
                        after = op
                        nxt.append(op.results[0])
                    parts = nxt
                out.append(parts[0])
        return out

    def vectorize_op(self, op: Operation) -> None:
        plan = self.plan
        loc = op.location
        t = type(op)
        if op in plan.contiguous:
            idx = [self.scalar(v) for v in op.map_operands]
            amap = op.affine_map
            if self.offset:
                amap = self.shifted(amap, op.map_operands)
            if t is LoadOp:
                vt = self.vtype(op.results[0].type)
                new = VectorLoadOp.build_vector_load(vt, op.memref_value, idx, amap, loc)
                self.vmap[op.results[0]] = self.insert_in_body(new).results[0]
            else:
                value = self.vector(op._operands[0].value, loc)
                new = VectorStoreOp.build_vector_store(value, op.memref_value, idx, amap, loc)
                self.insert_in_body(new)
            return
        if not any(r in plan.varying for r in op.results):
            if (
                not op.regions
                and is_speculatable(op)
                and all(self.outside(u.value) for u in op._operands)
            ):
                # Loop-invariant and safe to run even if the loop does not: computed once in
                # front of the vector loops (e.g. softmax's reciprocal of the row sum).
                if op.results and op.results[0] not in self.invariant:
                    self.insert_before_loop(op.clone(self.invariant))  # fills `invariant`
                return
            self.insert_in_body(op.clone(self.smap))  # fills smap with the clone's results
            return
        if op in self.select_combines:
            self.select_combine(op, loc)
            return
        if op in self.int_keys:
            self.key_combine(op, loc)
            return
        operands = [self.vector(u.value, loc) for u in op._operands]
        types = [self.vtype(r.type) for r in op.results]
        attrs = dict(op._attrs) if op._attrs else None
        new = t.create(operands, types, attrs, location=loc)
        self.insert_in_body(new)
        for old, new_v in zip(op.results, new.results):
            self.vmap[old] = new_v

    def shifted(self, amap: AffineMap, operands: list[Value]) -> AffineMap:
        """`amap` with the induction variable's dims advanced by the current copy's offset."""
        iv = self.loop.induction_var
        dims = [dim(i) + self.offset if operands[i] is iv else dim(i) for i in range(amap.num_dims)]
        syms = [sym(i) for i in range(amap.num_symbols)]
        results = [
            simplify_affine_expr(
                e.replace_dims_and_symbols(dims, syms), amap.num_dims, amap.num_symbols
            )
            for e in amap.results
        ]
        return AffineMap(amap.num_dims, amap.num_symbols, tuple(results))

    def key_finish(self, r: _Reduction, parts: list[Value], init: Value, after: Operation) -> Value:
        """The float result of an int-key reduction, inserted before `after`: each integer
        accumulator reduced (vector.reduction maxsi/minui/...), NaN when a NaN's bits were
        seen, else the bits the sign case selects (`_INT_KEY_SLOTS`), combined with the
        initial value by the scalar op itself (exact: NaN and signed zeros included)."""
        i32 = A.IntegerType(32)
        loc = r.combine.location
        block = self.loop.parent

        def emit(op: Operation) -> Value:
            op.location = loc
            block.insert_before(op, after)  # type: ignore[union-attr]
            return op.results[0]

        def const(v: int) -> Value:
            return emit(ConstantOp.create([], [i32], {"value": A.IntegerAttr(v, i32)}))

        def cmp(pred: str, a: Value, b: Value) -> Value:
            attrs = {"predicate": A.IntegerAttr(CMPI_PREDICATES.index(pred), A.i64)}
            return emit(CmpIOp.create([a, b], [A.i1], attrs))

        red = {
            name: emit(ReductionOp.create([v], [i32], {"kind": CombiningKindAttr(name)}))
            for (name, _, _), v in zip(_INT_KEY_SLOTS[r.kind], parts)
        }
        # A NaN's bits: above +inf's as signed (positive NaNs), above -inf's as unsigned.
        nan = emit(
            OrIOp.create(
                [
                    cmp("ugt", red["maxui"], const(_NEG_INF_BITS)),
                    cmp("sgt", red["maxsi"], const(_POS_INF_BITS)),
                ],
                [A.i1],
            )
        )
        if r.kind == "maximumf":
            # A non-negative element (signed bits >= 0): the largest is the signed maximum;
            # all negative: the one of least magnitude, the unsigned minimum.
            pick = cmp("sge", red["maxsi"], const(0))
            val = emit(SelectOp.create([pick, red["maxsi"], red["minui"]], [i32]))
        else:
            # A negative element: the one of largest magnitude, the unsigned maximum; else
            # the least non-negative, the signed minimum.
            pick = cmp("slt", red["maxui"], const(0))
            val = emit(SelectOp.create([pick, red["maxui"], red["minsi"]], [i32]))
        bits = emit(SelectOp.create([nan, const(_QNAN_BITS), val], [i32]))
        f = emit(BitcastOp.create([bits], [r.acc.type]))
        return emit(type(r.combine).create([init, f], [r.acc.type]))

    def finish(self, epilogue: AffineMap | None, operands: list[Value]) -> None:
        """Reduce the accumulators after the vector loop; the old loop becomes the epilogue."""
        loop, plan = self.loop, self.plan
        assert self.vloop is not None
        n_lb = len(loop.lowerBoundOperands)
        n_ub = len(loop.upperBoundOperands)
        finals: dict[int, Value] = {}
        after = loop  # new ops go between the vector loop and the epilogue
        partials = list(self.partials)
        for r in plan.reductions:
            c = self.slot_count(r)
            vres, parts = partials[0], partials[:c]
            partials = partials[c:]
            if r.load is not None:
                init_load = self.insert_before_loop(r.load.clone())
                init_load.location = r.load.location
                init = init_load.results[0]
            else:
                init = loop._operands[n_lb + n_ub + r.position].value
            if c > 1:
                res = self.key_finish(r, parts, init, after)
            else:
                attrs: dict[str, A.Attribute] = {"kind": CombiningKindAttr(r.kind)}
                fm = r.combine.get_attr("fastmath")
                flags = getattr(fm, "flags", 0)
                if REDUCTION_KINDS[r.combine.name][1]:
                    # The reassoc knob allowed reordering: the final reduction may use a tree.
                    flags |= FastMathFlagsAttr.from_names("reassoc").flags
                if flags:
                    attrs["fastmath"] = FastMathFlagsAttr(flags)
                red = ReductionOp.create(
                    [vres, init], [r.acc.type], attrs, location=r.combine.location
                )
                loop.parent.insert_before(red, after)  # type: ignore[union-attr]
                res = red.results[0]
            if r.load is not None:
                store = StoreOp.build_store(
                    res,
                    r.store.memref_value,  # type: ignore[union-attr]
                    list(r.store.map_operands),  # type: ignore[union-attr]
                    r.store.affine_map,  # type: ignore[union-attr]
                    r.store.location,  # type: ignore[union-attr]
                )
                loop.parent.insert_before(store, after)  # type: ignore[union-attr]
            else:
                finals[r.position] = res
        if epilogue is None:
            for k, v in finals.items():
                loop.results[k].replace_all_uses_with(v)
            loop.erase()
            return
        for k, v in finals.items():
            loop.set_operand(n_lb + n_ub + k, v)
        loop.set_lower_bound(epilogue, operands)


# ---------------------------------------------------------------------------------------------
# The pass


class AffineVectorizePass(Pass):
    """Vectorize innermost affine.for loops (vector loads/stores, vector arith, reductions).

    An innermost, unit-step `affine.for` with single-result bounds is vectorized when every
    memory access is contiguous in its induction variable (`affine.vector_load`/`store`; the
    last subscript has coefficient 1, the others 0, on a memref whose last stride is 1) or
    loop-invariant (a scalar load, broadcast where a vector needs it), every op using a varying
    value is an elementwise arith/math op, each written buffer is only accessed at the stored
    address, and loop-carried values are reductions. Reductions into an iter_arg or into a
    loop-invariant memref element (`load A[i]; combine; store A[i]`) carry a vector of
    partial results initialized to the neutral element and end in `vector.reduction` with the
    initial value as accumulator. Float add/mul reductions reorder the additions, so they are
    vectorized only when the `reassoc` knob allows it (default: the `reassoc` option, on);
    integer and min/max reductions always are. The vector loop runs floor(n/w)*w iterations;
    the original loop, with its lower bound moved, is the scalar epilogue (dropped when the
    trip count is a known multiple of w). Knob `width` per loop: the lane count, 1 keeping
    the loop scalar (domain: 1 and the lanes of 128/256/512-bit vectors of the widest element;
    default: `virtual-vector-size`, else vectors of `vector-bits`, by default the host's
    widest, 512 bits with AVX-512 and 256 otherwise, clamped to a known trip count). Knob
    `accumulators` per reduction loop (1, 2, 4, 8; default: the `accumulators` option, 4,
    at most 2 for a body heavier than 4 vector ops per element, e.g. one with a `math.exp`):
    the vector loop carries that many partial-result vectors per reduction, so consecutive
    vectors combine into independent dependence chains (halved while the main loop's step
    exceeds a known trip count). Other loops (strided or gathered accesses, calls, nested
    regions, min/max bounds) are left unchanged. Row loops whose passes read the same row
    get next-row prefetches (knobs `prefetch`, `prefetch_distance`, `prefetch_store_pass`);
    then a row loop whose last pass stores an output row from a per-row buffer is pipelined
    (affine-row-pipeline: that pass of row r - 1 in chunks between those of row r's heaviest
    pass; knobs `row_pipeline`, `row_pipeline_columns`; off by default, option `row-pipeline`).
    """

    name = "affine-vectorize"
    anchor = "func.func"
    virtual_vector_size = Option(
        int,
        0,
        "Default lanes per vector (0: as many as fill `vector-bits` with the widest element)",
    )
    vector_bits = Option(
        int,
        0,
        "Bits of a vector register for the default width (0: the host's widest, 512 with "
        "AVX-512, else 256)",
    )
    vectorize_reductions = Option(bool, True, "Vectorize reductions (iter_args and memory)")
    reassoc = Option(
        bool, True, "Default of the per-loop `reassoc` knob (float add/mul reductions)"
    )
    accumulators = Option(
        int,
        4,
        "Default of the per-loop `accumulators` knob: independent partial-result vectors per "
        "reduction, so the loop is not bound by the latency of one combining chain (at most "
        "2 where the body is heavier than 4 vector ops per element)",
    )
    prefetch = Option(
        bool,
        True,
        "Default of the per-row-loop `prefetch` knob: in a loop whose body passes over the "
        "same row of a read-only buffer several times, prefetch the next row during the last pass",
    )
    prefetch_distance = Option(
        int,
        2,
        "Default of the per-row-loop `prefetch_distance` knob: how many rows ahead the row "
        "prefetches fetch (1, 2 or 4)",
    )
    prefetch_store_pass = Option(
        str,
        "light",
        "Default of the per-row-loop `prefetch_store_pass` knob: prefetch the row ahead once "
        "more from the pass that stores the output row ('light': when the pass carrying the "
        "row prefetches is light, at most 4 vector ops per vector of the row; 'true'; 'false')",
        choices=("light", "true", "false"),
    )
    int_minmax = Option(
        bool,
        True,
        "Default of the per-loop `int_minmax` knob: f32 maximumf/minimumf reductions on the "
        "bits as integers (3 integer ops per vector instead of 7)",
    )
    # Off by default since session 16: on a quiet machine softmax's rows ran 1-8% faster
    # unpipelined (docs/vectorize.md); 'heavy' was the default under load.
    row_pipeline = Option(
        str,
        "false",
        "When the per-row-loop `row_pipeline` knob pipelines by default (the output pass of "
        "row r - 1 in chunks between those of row r's heaviest pass, affine-row-pipeline): "
        "'heavy' (that pass does more than 4 vector ops per vector of the row), 'true', 'false'",
        choices=("heavy", "true", "false"),
    )
    row_pipeline_rows = Option(
        int, 16, "Default rows per pipelined chunk of a row loop (the `row_pipeline` knob)"
    )
    num_vectorized = Statistic("num-vectorized-loops", "Number of loops vectorized")
    num_reductions = Statistic("num-reductions", "Number of reductions vectorized")
    num_prefetched = Statistic("num-prefetched-rows", "Number of row loops given prefetches")
    num_pipelined = Statistic("num-pipelined-rows", "Number of row loops pipelined")
    knobs = (
        KnobDecl("width", "choice", "Lanes per vector for this loop (1: leave it scalar)"),
        KnobDecl(
            "reassoc", "bool", "Reorder this loop's float add/mul reductions to vectorize them"
        ),
        KnobDecl(
            "accumulators",
            "choice",
            "Partial-result vectors per reduction in this loop (1: one dependence chain)",
        ),
        KnobDecl(
            "int_minmax",
            "bool",
            "Vectorize this loop's f32 maximumf/minimumf reductions on the bits as integers",
        ),
        KnobDecl(
            "prefetch",
            "bool",
            "Prefetch the next row of this row loop's multi-pass input during its last pass",
        ),
        KnobDecl(
            "prefetch_distance",
            "choice",
            "Rows ahead of the current one that this row loop's read prefetches fetch",
        ),
        KnobDecl(
            "prefetch_store_pass",
            "bool",
            "Prefetch the row ahead once more from this row loop's output-storing pass",
        ),
        *ROW_PIPELINE_KNOBS,
    )

    def run(self, op: Operation, ctx: PassContext) -> None:
        size = self.virtual_vector_size
        if size < 0 or size & (size - 1):
            ctx.error(f"virtual-vector-size must be 0 or a power of two, got {size}", op)
            return
        if self.vector_bits not in (0, 128, 256, 512):
            ctx.error(f"vector-bits must be 0, 128, 256 or 512, got {self.vector_bits}", op)
            return
        if self.accumulators not in (1, 2, 4, 8):
            ctx.error(f"accumulators must be 1, 2, 4 or 8, got {self.accumulators}", op)
            return
        if self.prefetch_distance not in PREFETCH_DISTANCES:
            ctx.error(
                f"prefetch-distance must be 1, 2 or 4, got {self.prefetch_distance}", op
            )
            return
        if self.row_pipeline_rows not in ROW_CHOICES:
            choices = ", ".join(map(str, ROW_CHOICES))
            ctx.error(
                f"row-pipeline-rows must be one of {choices}, got {self.row_pipeline_rows}", op
            )
            return
        loops = [
            o for o in op.walk() if type(o) is ForOp and not any(n.regions for n in o.body_block)
        ]
        for loop in loops:
            self.vectorize_loop(loop, ctx)
        rows = [o for o in op.walk() if type(o) in (ForOp, ParallelOp) and o is not op]
        for row in rows:
            if _prefetch_next_row(
                row, ctx, self.prefetch, self.prefetch_distance, self.prefetch_store_pass
            ):
                self.num_prefetched += 1
        for row in rows:
            # Outer row loops only (a pipelined loop's old passes are gone).
            if row.parent is None or not any(type(o) is ForOp for o in row.regions[0].blocks[0]):
                continue
            if pipeline_rows(row, ctx, self.row_pipeline_rows, self.row_pipeline):
                self.num_pipelined += 1

    def accumulator_count(
        self, wanted: int, lanes: int, trip: int | None, bounds: _Bounds | None
    ) -> int:
        """The partial-result vectors a reduction loop gets: `wanted` (the knob), halved until
        the main loop's step fits a known trip count and its end is an affine bound. The
        domain does not depend on the width, so any configuration of the two knobs is valid."""
        k = wanted
        while k > 1 and (
            (trip is not None and k * lanes > trip)
            or (bounds is not None and bounds.split(k * lanes) is None)
        ):
            k //= 2
        return k

    def vectorize_loop(self, loop: ForOp, ctx: PassContext) -> None:
        try:
            plan = _Analysis(loop, self.vectorize_reductions).run()
        except _Reject:
            return
        bits = plan.element_bits or 32
        widths = vector_widths(bits)
        default = self.virtual_vector_size or max(
            1, (self.vector_bits or host_vector_bits()) // bits
        )
        if default not in widths:
            widths = tuple(sorted({*widths, default}))
        trip = loop.constant_trip_count()
        bounds = None
        if trip is None:
            bounds = _Bounds(loop)
            widths = tuple(w for w in widths if w == 1 or bounds.split(w) is not None)
            if default not in widths:
                default = max(w for w in widths if w <= default)
        else:
            fitting = [w for w in widths if w <= max(trip, 1) and w <= default]
            default = fitting[-1] if fitting else 1
        site = ctx.site(loop)
        if plan.float_reduction and not ctx.knob(site, "reassoc", Bool(), self.reassoc):
            return
        lanes = ctx.knob(site, "width", Choice(*widths), default)
        if lanes == 1 or (trip is not None and trip < lanes):
            return
        copies = 1
        if plan.reductions:
            default_k = self.accumulators
            if _body_weight(loop, plan) > _LIGHT_BODY:
                default_k = min(default_k, _HEAVY_BODY_ACCUMULATORS)
            wanted = ctx.knob(site, "accumulators", Choice(1, 2, 4, 8), default_k)
            copies = self.accumulator_count(wanted, lanes, trip, bounds)
        int_keys = frozenset(
            r.combine
            for r in plan.reductions
            if r.kind in _INT_KEY_SLOTS and r.acc.type == A.f32
        )
        if int_keys and not ctx.knob(site, "int_minmax", Bool(), self.int_minmax):
            int_keys = frozenset()
        _Vectorizer(loop, plan, lanes, copies, int_keys).run(bounds)
        self.num_vectorized += 1
        self.num_reductions += len(plan.reductions)


# The accumulators' default by the weight of the loop body. k copies of a reduction exist to
# overlap the combining op's latency (3-4 cycles, 2 ops per cycle): a body of one or two vector
# ops per element needs 4 chains for that. A heavier body already holds independent work
# (the next elements' computation) to overlap the chain with, and each extra copy of it adds
# its live vectors: softmax's exp-and-sum loop (math.exp: ~16 vector ops after
# math-polynomial-approximation, with 11 constants) spilled ~40 vectors per iteration at 4
# copies on AVX2's 16 registers and none at 2; one thread, 64 rows in L2, load 2.9: 628 ns
# per row at 4 copies, 526 at 2, 587 at 1 (16,384 rows from DRAM: 595 / 511 / 522).
_LIGHT_BODY = 4  # vector ops per element up to which a loop gets the `accumulators` option
_HEAVY_BODY_ACCUMULATORS = 2
# Ops that math-polynomial-approximation (which runs after this pass) expands into a
# polynomial: each weighs about as much as the vector ops it becomes.
_EXPANDED_WEIGHT = 16


@lru_cache(maxsize=None)
def _expanded_math() -> frozenset[str]:
    from mlc.passes.math_approx import APPROXIMATIONS

    return frozenset("math." + n for n in APPROXIMATIONS)


def _body_weight(loop: ForOp, plan: _Plan) -> int:
    """The vector ops one element of `loop` costs: ops on varying values other than memory
    accesses and the terminator, an op that math-polynomial-approximation expands counting
    `_EXPANDED_WEIGHT`."""
    expanded = _expanded_math()
    weight = 0
    for op in loop.body_block:
        t = type(op)
        if t in (LoadOp, StoreOp, YieldOp) or not any(r in plan.varying for r in op.results):
            continue
        weight += _EXPANDED_WEIGHT if op.name in expanded else 1
    return weight


# ---------------------------------------------------------------------------------------------
# Prefetching the next row of a multi-pass row loop

_LINE_BYTES = 64
PREFETCH_DISTANCES = (1, 2, 4)


def _row_reads(loop: Operation, row_iv: Value) -> dict[Value, list[Operation]]:
    """The vector loads directly in `loop` (an innermost vector loop) of 2-D buffers at
    [row_iv, inner + c]: buffer -> loads."""
    inner = loop.body_block.arguments[0]  # type: ignore[attr-defined]
    found: dict[Value, list[Operation]] = {}
    for o in loop.body_block:  # type: ignore[attr-defined]
        if type(o) is not VectorLoadOp:
            continue
        m, args = o.affine_map, o.map_operands
        if len(m.results) != 2 or m.num_symbols or len(args) != 2:
            continue
        r0, r1 = m.results
        if not (type(r0) is AffineDimExpr and args[r0.position] is row_iv):
            continue
        if offset_from(r1, args, inner) is None:
            continue
        found.setdefault(o.memref_value, []).append(o)
    return found


def offset_from(e: AffineExpr, args: tuple[Value, ...], inner: Value) -> int | None:
    """c when `e` is `inner + c` (inner a dim operand: a loop's induction variable), else
    None."""
    if type(e) is AffineDimExpr:
        return 0 if args[e.position] is inner else None
    if type(e) is AffineBinaryExpr and e.kind == "add":
        lhs, rhs = e.lhs, e.rhs
        if type(rhs) is AffineConstantExpr and type(lhs) is AffineDimExpr:
            return rhs.value if args[lhs.position] is inner else None
    return None


def _prefetch_next_row(
    row: Operation,
    ctx: PassContext,
    default: bool,
    distance: int = 2,
    store_pass: str = "light",
) -> bool:
    """In a loop over rows (an `affine.for`, or a 1-D `affine.parallel`) whose body holds two
    or more vector loops reading the current row of the same read-only 2-D buffer (softmax's
    max and exp passes, layernorm's mean and variance passes), prefetch the cache lines of
    the row `distance` rows ahead from the last of those loops whose step covers a cache line
    (else the last with the widest step): the row is then in the caches when its first pass
    starts, instead of that pass waiting for memory (hardware prefetchers stop at the 4 KiB
    page). Knobs `prefetch` and `prefetch_distance` (1, 2, 4; default `distance`) at the row
    loop: two rows ahead give the lines a whole row's time more to arrive (on 2 threads,
    means of alternating runs: softmax 6% and layernorm 12% faster at 4,096 rows, within 3%
    either way at 16,384; docs/vectorize.md). Knob `prefetch_store_pass`: the pass that
    stores the output row prefetches the same row ahead once more (`_prefetch_again`)."""
    body = row.regions[0].blocks[0]
    if len(body.arguments) != 1:
        return False
    row_iv = body.arguments[0]
    passes: dict[Value, list[tuple[Operation, list[Operation]]]] = {}
    for o in body:
        # A pass starts at the row's first column: the remainder loops that the vectorizer
        # made of a pass (starting where its main loop stopped) are not passes of their own.
        if type(o) is ForOp and o.body_block.arguments and o.constant_lower_bound() == 0:
            for buf, loads in _row_reads(o, row_iv).items():
                passes.setdefault(buf, []).append((o, loads))
    candidates = [(buf, ps) for buf, ps in passes.items() if len(ps) >= 2]
    if not candidates:
        return False
    written = {
        u.operands[1] if type(u) in (StoreOp, VectorStoreOp) else None
        for u in row.walk()
        if type(u) in (StoreOp, VectorStoreOp)
    }
    candidates = [(buf, ps) for buf, ps in candidates if buf not in written]
    if not candidates or not ctx.knob(ctx.site(row), "prefetch", Bool(), default):
        return False
    ahead = ctx.knob(
        ctx.site(row), "prefetch_distance", Choice(*PREFETCH_DISTANCES), distance
    )
    outputs = _row_outputs(body, row_iv, written, passes)
    for buf, ps in candidates:
        # The last pass whose step covers a cache line (one prefetch per line), else the last
        # of the widest step.
        line = _LINE_BYTES // _element_bytes(buf)
        widest = max(p[0].step_value for p in ps)  # type: ignore[attr-defined]
        step = min(widest, line)
        loop, loads = [p for p in ps if p[0].step_value >= step][-1]  # type: ignore[attr-defined]
        for ld in loads:
            m = ld.affine_map
            c = offset_from(m.results[1], ld.map_operands, loop.body_block.arguments[0])  # type: ignore[attr-defined]
            if c is None:
                continue
            # The next row of the input; the current row of each output that a later pass
            # writes (fetched for ownership while this pass computes, so that the stores do
            # not wait for memory).
            nxt = AffineMap(m.num_dims, m.num_symbols, [m.results[0] + ahead, m.results[1]])
            targets = [(buf, nxt, False)] + [(out, m, True) for out in outputs]
            for target, amap, write in reversed(targets):
                if (c * _element_bytes(target)) % _LINE_BYTES:
                    continue
                pf = PrefetchOp.build_prefetch(
                    target, list(ld.map_operands), amap, write=write, location=ld.location
                )
                ld.parent.insert_after(pf, ld)  # type: ignore[union-attr]
        _prefetch_again(body, row, row_iv, ctx, buf, loop, loads, outputs, ahead, store_pass)
        break  # one input's passes carry the prefetches (the others' rows share the loop)
    return True


def _pass_weight(loop: Operation, loads: list[Operation]) -> float:
    """Vector ops per vector of the row in a vectorized pass: the ops of its body other than
    memory accesses, constants and the terminator (an op that math-polynomial-approximation
    expands counting `_EXPANDED_WEIGHT`), over its loads of the row."""
    expanded = _expanded_math()
    skip = (LoadOp, StoreOp, VectorLoadOp, VectorStoreOp, PrefetchOp, YieldOp, ConstantOp)
    weight = 0
    for o in loop.body_block:  # type: ignore[attr-defined]
        if type(o) in skip:
            continue
        weight += _EXPANDED_WEIGHT if o.name in expanded else 1
    return weight / max(1, len(loads))


def _prefetch_again(
    body: Block,
    row: Operation,
    row_iv: Value,
    ctx: PassContext,
    buf: Value,
    carrier: Operation,
    loads: list[Operation],
    outputs: list[Value],
    ahead: int,
    option: str,
) -> None:
    """Prefetch the row `ahead` of `buf` once more, from the last pass of the row loop that
    stores an output row (`y[i, j + c]`) after the pass `carrier` that holds the row
    prefetches: one read prefetch per iteration of that loop, or per 64-byte line of a step
    wider than a line. Knob `prefetch_store_pass` at the row loop, default: the option ('light':
    when `carrier` does at most `_LIGHT_BODY` vector ops per vector of the row).

    Measured on the Zen 3 VM (same-process alternating runs, load 2.3-4.5): layernorm, whose
    centering pass carries the prefetches at a few cycles per line, took 0.67-0.95 of the
    time at 4,096 rows on one thread (9 of 10 runs, one even) and 0.83-0.97 on two (6 of 7,
    one at 1.01), 0.78-0.93 at 16,384 and 0.83-0.93 in L2; softmax, whose exp pass spreads
    them over about 5 cycles per vector, was unchanged from DRAM on one thread and 12%
    slower in L2 (the extra prefetch per vector of its store pass), hence 'light'
    (docs/vectorize.md)."""
    stores: Operation | None = None
    seen = False
    for o in body:
        if o is carrier:
            seen = True
            continue
        if not seen or type(o) is not ForOp or not o.body_block.arguments:
            continue
        if o.constant_lower_bound() != 0:
            continue
        inner = o.body_block.arguments[0]
        for st in o.body_block:
            if type(st) is VectorStoreOp and st.memref_value in outputs:
                m, args = st.affine_map, st.map_operands
                r0 = m.results[0]
                if (
                    len(m.results) == 2
                    and type(r0) is AffineDimExpr
                    and args[r0.position] is row_iv
                    and offset_from(m.results[1], args, inner) is not None
                ):
                    stores = o
                    break
    if stores is None:
        return
    default = option == "true" or (
        option == "light" and _pass_weight(carrier, loads) <= _LIGHT_BODY
    )
    if not ctx.knob(ctx.site(row), "prefetch_store_pass", Bool(), default):
        return
    inner = stores.body_block.arguments[0]  # type: ignore[attr-defined]
    step = stores.step_value  # type: ignore[attr-defined]
    line = _LINE_BYTES // _element_bytes(buf)
    first = next(iter(stores.body_block))  # type: ignore[attr-defined]
    for c in range(0, max(step, line), line) if step >= line else (0,):
        amap = AffineMap(2, 0, [dim(0) + ahead, dim(1) + c if c else dim(1)])
        pf = PrefetchOp.build_prefetch(buf, [row_iv, inner], amap, location=stores.location)
        stores.body_block.insert_before(pf, first)  # type: ignore[attr-defined]


def _element_bytes(buf: Value) -> int:
    return (buf.type.element_type.width + 7) // 8  # type: ignore[attr-defined, no-any-return]


def _row_outputs(
    body: Block,
    row_iv: Value,
    written: set[Value | None],
    reads: dict[Value, list[tuple[Operation, list[Operation]]]],
) -> list[Value]:
    """2-D buffers stored by vector loops of `body` at [row_iv, inner + c] and not read in it
    (the kernel's outputs), in program order."""
    outs: list[Value] = []
    for o in body:
        if type(o) is not ForOp or not o.body_block.arguments:
            continue
        inner = o.body_block.arguments[0]
        for st in o.body_block:
            if type(st) is not VectorStoreOp:
                continue
            m, args, buf = st.affine_map, st.map_operands, st.memref_value
            if len(m.results) != 2 or m.num_symbols or len(args) != 2 or buf in reads:
                continue
            r0 = m.results[0]
            if type(r0) is not AffineDimExpr or args[r0.position] is not row_iv:
                continue
            if offset_from(m.results[1], args, inner) is not None and buf in written:
                if buf not in outs:
                    outs.append(buf)
    return outs
