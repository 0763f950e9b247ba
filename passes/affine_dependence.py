"""Dependence analysis on affine loop nests: direction vectors between memory accesses, and the
legality queries the loop transformations ask (parallel loops, reductions, permutations, tiling).

    info = DependenceInfo(outer_loop)
    info.is_parallel(inner_loop)             # no dependence carried by that loop
    permutation_is_legal([i, j, k], (1, 0, 2))

Accesses are affine.load/store/vector_load/vector_store and memref.load/store (indices taken
through affine.apply and constants); any other op with memory effects on a value is an access of
unknown subscripts, and an op with unknown effects makes every loop around it dependent.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from mlc.dialects import affine as AF
from mlc.dialects import affine_ops as AO

from mlc.interfaces import ALLOCATE, FREE, WRITE, get_effects
from mlc.ir import attributes as A
from mlc.ir.affine import (
    AffineBinaryExpr,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymbolExpr,
)
from mlc.ir.core import BlockArgument, Operation, Value
from mlc.pass_manager import Pass, PassContext

__all__ = [
    "touches_thread_loop",
    "LT",
    "EQ",
    "GT",
    "ALL",
    "Access",
    "Dependence",
    "DependenceInfo",
    "direction_text",
    "nest_of",
    "is_perfect_nest",
    "loop_ivs",
    "is_parallel",
    "is_reduction_loop",
    "permutation_is_legal",
    "permutation_violation",
    "band_is_permutable",
    "REDUCTION_COMBINERS",
]

# Direction sets are bitmasks: which of i' - i < 0 ... is possible, seen from the source access
# at iteration i to the destination at i'. LT means the destination runs in a later iteration.
LT, EQ, GT = 1, 2, 4
ALL = LT | EQ | GT

# Pairs of accesses examined per analysis before it gives up and assumes every loop dependent;
# keeps the analysis linear in the IR size for huge unrolled bodies.
MAX_PAIRS = 20000

# Scalar ops that combine a loop-carried accumulator in a reduction (the op's name -> kind).
REDUCTION_COMBINERS = {
    "arith.addf": "addf",
    "arith.mulf": "mulf",
    "arith.addi": "addi",
    "arith.muli": "muli",
    "arith.maximumf": "maximumf",
    "arith.minimumf": "minimumf",
    "arith.maxnumf": "maxnumf",
    "arith.minnumf": "minnumf",
    "arith.maxsi": "maxs",
    "arith.minsi": "mins",
    "arith.maxui": "maxu",
    "arith.minui": "minu",
    "arith.andi": "andi",
    "arith.ori": "ori",
}

_VIEW_OPS = frozenset(
    {
        "memref.cast",
        "memref.subview",
        "memref.reinterpret_cast",
        "memref.collapse_shape",
        "memref.expand_shape",
        "memref.transpose",
        "memref.view",
    }
)
_FRESH_OPS = frozenset({"memref.alloc", "memref.alloca", "memref.get_global"})


def direction_text(dirs: Sequence[int]) -> str:
    """`(<, =, *)` for a vector of direction sets (`*` any, `<=` two of three...)."""

    def one(d: int) -> str:
        if d == ALL:
            return "*"
        return "".join(s for bit, s in ((LT, "<"), (EQ, "="), (GT, ">")) if d & bit) or "0"

    return "(" + ", ".join(one(d) for d in dirs) + ")"


# ---------------------------------------------------------------------------------------------
# Loop structure


def loop_ivs(op: Operation) -> tuple[Value, ...]:
    """The induction variables of an affine.for (one) or affine.parallel (one per dim)."""
    if type(op) is AF.ForOp:
        return (op.induction_var,)
    if type(op) is AF.ParallelOp:
        return tuple(op.regions[0].blocks[0].arguments)
    return ()


def _body_ops(loop: Operation) -> list[Operation]:
    return [o for o in loop.regions[0].blocks[0] if type(o) is not AF.YieldOp]


def nest_of(loop: Operation) -> list[Operation]:
    """The affine.for loops perfectly nested from `loop` down: each body holds only the next
    loop (and the terminator). `[loop]` when its body holds anything else."""
    nest = [loop]
    while True:
        ops = _body_ops(nest[-1])
        if len(ops) != 1 or type(ops[0]) is not AF.ForOp or nest[-1].results:
            return nest
        nest.append(ops[0])


def touches_thread_loop(loop: Operation) -> bool:
    """True when `loop` is inside or contains a loop marked `mlc.parallel` (that nest belongs to
    whoever placed the thread loop: transforming it could nest parallelism or move the loop)."""
    cur: Operation | None = loop
    while cur is not None:
        if cur.get_attr("mlc.parallel") is not None:
            return True
        cur = cur.parent_op
    return any(o.get_attr("mlc.parallel") is not None for o in loop.walk())


def is_perfect_nest(loops: Sequence[Operation]) -> bool:
    """True when each loop's body is exactly the next loop plus its terminator, and no loop
    but the innermost carries iter_args (results)."""
    for outer, inner in zip(loops, loops[1:]):
        if type(outer) is not AF.ForOp or outer.results:
            return False
        ops = _body_ops(outer)
        if len(ops) != 1 or ops[0] is not inner:
            return False
    return all(type(lp) is AF.ForOp for lp in loops)


def _loop_extent(loop: Operation, iv_pos: int) -> tuple[int | None, int | None, int]:
    """(constant lower bound or None, constant upper bound or None, step) of one loop dim."""
    if type(loop) is AF.ForOp:
        return loop.constant_lower_bound(), loop.constant_upper_bound(), loop.step_value
    lbg = [int(x) for x in loop.get_attr("lowerBoundsGroups").array.reshape(-1)]
    ubg = [int(x) for x in loop.get_attr("upperBoundsGroups").array.reshape(-1)]
    step = loop.step_values[iv_pos]

    def one(amap: Any, groups: list[int]) -> int | None:
        start = sum(groups[:iv_pos])
        if groups[iv_pos] != 1:
            return None
        e = amap.results[start]
        return e.value if type(e) is AffineConstantExpr else None

    return one(loop.lower_bounds_map, lbg), one(loop.upper_bounds_map, ubg), step


# ---------------------------------------------------------------------------------------------
# Accesses and their subscripts as linear forms

# A linear form is (terms: dict[Value, int], constant): sum(coeff * value) + constant, where the
# values are loop induction variables or values invariant in the analysed nest.
Linear = tuple[dict[Value, int], int]


class Access:
    """One memory access: op, memref, its base allocation, read/write, subscripts as linear
    forms (None: unknown) with the width of each (vector accesses cover several elements), and
    the loops enclosing it inside the analysed root (outermost first)."""

    __slots__ = ("op", "memref", "base", "write", "subs", "widths", "loops")

    def __init__(
        self,
        op: Operation,
        memref: Value,
        write: bool,
        subs: list[Linear | None] | None,
        widths: list[int],
        loops: tuple[Operation, ...],
    ) -> None:
        self.op = op
        self.memref = memref
        self.base = _base_memref(memref)
        self.write = write
        self.subs = subs
        self.widths = widths
        self.loops = loops


def _base_memref(v: Value) -> Value:
    while True:
        d = v.defining_op()
        if d is None or d.name not in _VIEW_OPS:
            return v
        v = d._operands[0].value


class Dependence:
    """A possible dependence between two accesses (at least one a write): the common loops
    (outermost first) and, per loop, the set of possible directions (LT|EQ|GT bits)."""

    __slots__ = ("src", "dst", "loops", "dirs")

    def __init__(
        self, src: Access, dst: Access, loops: tuple[Operation, ...], dirs: list[int]
    ) -> None:
        self.src = src
        self.dst = dst
        self.loops = loops
        self.dirs = dirs

    def __repr__(self) -> str:
        return f"<Dependence {self.src.op.name} -> {self.dst.op.name} {direction_text(self.dirs)}>"


class DependenceInfo:
    """Dependences between the memory accesses nested in `root` (a loop, or any op).

    Built once per query root; each question is answered from the pairs computed here. Loops
    are affine.for and each dim of affine.parallel; values defined outside `root` are invariant.
    """

    def __init__(self, root: Operation) -> None:
        self.root = root
        self.opaque = False  # an op with unknown effects: everything may depend on everything
        self.accesses: list[Access] = []
        self._forms: dict[Value, Linear | None] = {}
        self._entry_args = _entry_function_args(root)
        self._collect(root, (root,) if type(root) in (AF.ForOp, AF.ParallelOp) else ())
        self.deps: list[Dependence] = [] if self.opaque else self._pairs()

    # -- collection -----------------------------------------------------------------------------

    def _collect(self, op: Operation, loops: tuple[Operation, ...]) -> None:
        for region in op.regions:
            for block in region.blocks:
                for child in block:
                    self._visit(child, loops)
                    if self.opaque:
                        return

    def _visit(self, op: Operation, loops: tuple[Operation, ...]) -> None:
        cls = type(op)
        if cls is AF.ForOp or cls is AF.ParallelOp:
            self._collect(op, loops + (op,))
            return
        if cls is AO.LoadOp or cls is AO.VectorLoadOp:
            self._affine_access(op, False, loops)
            return
        if cls is AO.StoreOp or cls is AO.VectorStoreOp:
            self._affine_access(op, True, loops)
            return
        if op.name == "memref.load" or op.name == "memref.store":
            write = op.name == "memref.store"
            memref = op._operands[1 if write else 0].value
            idx = [u.value for u in op._operands[2 if write else 1 :]]
            subs = [self._value_form(v) for v in idx]
            self.accesses.append(Access(op, memref, write, subs, [1] * len(subs), loops))
            return
        if op.regions and cls is not AF.IfOp:
            effects = get_effects(op)
            if effects is None:
                self.opaque = True
                return
            self._effects_access(op, effects, loops)
            return
        if cls is AF.IfOp:
            self._collect(op, loops)
            return
        effects = get_effects(op)
        if effects is None:
            self.opaque = True
            return
        self._effects_access(op, effects, loops)

    def _effects_access(self, op: Operation, effects: list, loops: tuple[Operation, ...]) -> None:
        for e in effects:
            if e.kind == ALLOCATE:
                continue
            if e.value is None or type(e.value.type) is not A.MemRefType:
                self.opaque = True
                return
            write = e.kind == WRITE or e.kind == FREE
            self.accesses.append(Access(op, e.value, write, None, [], loops))

    def _affine_access(self, op: Operation, write: bool, loops: tuple[Operation, ...]) -> None:
        amap = op.affine_map
        operands = op.map_operands
        subs = [self._expr_form(e, operands, amap.num_dims) for e in amap.results]
        widths = [1] * len(subs)
        if type(op) is AO.VectorLoadOp or type(op) is AO.VectorStoreOp:
            vt = op.results[0].type if not write else op._operands[0].value.type
            shape = list(getattr(vt, "shape", ()))
            for k, w in enumerate(shape):
                pos = len(widths) - len(shape) + k
                if pos >= 0:
                    widths[pos] = w
        self.accesses.append(Access(op, op.memref_value, write, subs, widths, loops))

    # -- linear forms ---------------------------------------------------------------------------

    def _is_invariant(self, v: Value) -> bool:
        owner = v.block.parent_op if type(v) is BlockArgument else v.defining_op()
        return owner is None or not self.root.is_ancestor(owner)

    def _value_form(self, v: Value) -> Linear | None:
        cached = self._forms.get(v, False)
        if cached is not False:
            return cached  # type: ignore[return-value]
        form: Linear | None
        if type(v) is BlockArgument:
            owner = v.block.parent_op
            is_iv = (type(owner) is AF.ForOp and v.index == 0) or type(owner) is AF.ParallelOp
            form = ({v: 1}, 0) if is_iv or self._is_invariant(v) else None
        else:
            d = v.defining_op()
            if type(d) is AO.ApplyOp:
                amap = d.affine_map
                form = self._expr_form(amap.results[0], d.operands, amap.num_dims)
            elif d is not None and d.name == "arith.constant" and v.type is A.index:
                form = ({}, d.get_attr("value").value)
            elif self._is_invariant(v):
                form = ({v: 1}, 0)
            else:
                form = None
        self._forms[v] = form
        return form

    def _expr_form(self, e: AffineExpr, operands: Sequence[Value], num_dims: int) -> Linear | None:
        t = type(e)
        if t is AffineConstantExpr:
            return ({}, e.value)
        if t is AffineDimExpr:
            return self._value_form(operands[e.position])
        if t is AffineSymbolExpr:
            return self._value_form(operands[num_dims + e.position])
        if t is not AffineBinaryExpr:
            return None
        lhs = self._expr_form(e.lhs, operands, num_dims)
        if lhs is None:
            return None
        rhs = self._expr_form(e.rhs, operands, num_dims)
        if rhs is None:
            return None
        kind = e.kind
        if kind == "add":
            terms = dict(lhs[0])
            for v, c in rhs[0].items():
                terms[v] = terms.get(v, 0) + c
            return ({v: c for v, c in terms.items() if c}, lhs[1] + rhs[1])
        if kind == "mul":
            if not rhs[0]:
                lhs, rhs = rhs, lhs
            if lhs[0]:
                return None
            k = lhs[1]
            return ({v: c * k for v, c in rhs[0].items() if c * k}, rhs[1] * k)
        if lhs[0] or rhs[0] or rhs[1] == 0:
            return None
        a, b = lhs[1], rhs[1]
        if kind == "mod":
            return ({}, a % b)
        if kind == "floordiv":
            return ({}, a // b)
        if kind == "ceildiv":
            return ({}, -(-a // b))
        return None

    # -- pairs ----------------------------------------------------------------------------------

    def _may_alias(self, a: Access, b: Access) -> bool:
        if a.base is b.base:
            return True
        da, db = a.base.defining_op(), b.base.defining_op()
        fresh_a = da is not None and da.name in _FRESH_OPS
        fresh_b = db is not None and db.name in _FRESH_OPS
        if fresh_a and fresh_b:
            if da.name == "memref.get_global" and db.name == "memref.get_global":
                return da.get_attr("name") == db.get_attr("name")
            return False
        if fresh_a and da.name != "memref.get_global" or fresh_b and db.name != "memref.get_global":
            return False  # a fresh allocation aliases nothing that existed before it
        # Arguments of an entry function never alias each other (docs/runtime.md).
        return not (a.base in self._entry_args and b.base in self._entry_args)

    def _pairs(self) -> list[Dependence]:
        by_base: dict[Value, list[Access]] = {}
        for acc in self.accesses:
            by_base.setdefault(acc.base, []).append(acc)
        groups = list(by_base.values())
        deps: list[Dependence] = []
        budget = MAX_PAIRS
        for gi, group in enumerate(groups):
            writes = [a for a in group if a.write]
            if not writes:
                pass
            else:
                n = len(group)
                budget -= n * n
                if budget < 0:
                    self.opaque = True
                    return []
                for i in range(n):
                    for j in range(i, n):
                        a, b = group[i], group[j]
                        if not (a.write or b.write):
                            continue
                        dep = self._test(a, b, same=True)
                        if dep is not None:
                            deps.append(dep)
            for other in groups[gi + 1 :]:
                if not self._may_alias(group[0], other[0]):
                    continue
                if not writes and not any(x.write for x in other):
                    continue
                budget -= len(group) * len(other)
                if budget < 0:
                    self.opaque = True
                    return []
                for a in group:
                    for b in other:
                        if a.write or b.write:
                            deps.append(self._test(a, b, same=False))  # type: ignore[arg-type]
        return deps

    def _test(self, a: Access, b: Access, same: bool) -> Dependence | None:
        common: list[Operation] = []
        for la, lb in zip(a.loops, b.loops):
            if la is not lb:
                break
            common.append(la)
        ivs: list[Value] = []
        owner_loop: list[int] = []
        for k, lp in enumerate(common):
            for iv in loop_ivs(lp):
                ivs.append(iv)
                owner_loop.append(k)
        dirs = [ALL] * len(ivs)
        if same and a.subs is not None and b.subs is not None and len(a.subs) == len(b.subs):
            iv_index = {iv: k for k, iv in enumerate(ivs)}
            for fa, fb, wa, wb in zip(a.subs, b.subs, a.widths, b.widths):
                if fa is None or fb is None:
                    continue
                if not self._subscript(fa, fb, wa, wb, ivs, iv_index, owner_loop, common, dirs):
                    return None
        # An allocation inside a loop is private to each of its iterations.
        if same:
            alloc = a.base.defining_op()
            if alloc is not None and alloc.name in _FRESH_OPS:
                for k in range(len(ivs)):
                    if common[owner_loop[k]].is_ancestor(alloc):
                        dirs[k] &= EQ
                        if not dirs[k]:
                            return None
        if not _refine_tiles(ivs, common, owner_loop, dirs):
            return None
        # Report a dependence that certainly runs backwards from the destination's side.
        for d in dirs:
            if d == GT:
                flip = {LT: GT, GT: LT}
                dirs = [(d2 & EQ) | sum(flip[b] for b in (LT, GT) if d2 & b) for d2 in dirs]
                a, b = b, a
                break
            if d != EQ:
                break
        return Dependence(a, b, tuple(common), dirs)

    def _subscript(
        self,
        fa: Linear,
        fb: Linear,
        wa: int,
        wb: int,
        ivs: list[Value],
        iv_index: dict[Value, int],
        owner_loop: list[int],
        common: list[Operation],
        dirs: list[int],
    ) -> bool:
        """Narrow `dirs` by one subscript equation; False when it proves independence."""
        ta, tb = fa[0], fb[0]
        lo = fb[1] - fa[1] - (wa - 1)
        hi = fb[1] - fa[1] + (wb - 1)
        # Invariant (non-loop) terms must cancel, else nothing is known from this subscript.
        coeffs: list[int] = []
        strong: dict[int, int] = {}
        for v in set(ta) | set(tb):
            ca, cb = ta.get(v, 0), tb.get(v, 0)
            k = iv_index.get(v)
            if k is None and not _is_nest_iv(v, self.root):
                if ca != cb:
                    return True
                continue
            if ca:
                coeffs.append(ca)
            if cb:
                coeffs.append(cb)
            if k is not None and ca == cb:
                strong[k] = ca
            else:
                strong[-1] = 0  # a term that is not a strong single-IV term
        if not coeffs:
            return lo <= 0 <= hi
        if len(strong) == 1 and -1 not in strong:
            ((k, a),) = strong.items()
            # a * (i - i') in [lo, hi] with d = i' - i: a * d in [-hi, -lo].
            if a < 0:
                a, lo, hi = -a, -hi, -lo
            dmin, dmax = -(hi // a), (-lo) // a  # ceil(-hi / a), floor(-lo / a)
            loop = common[owner_loop[k]]
            pos = list(loop_ivs(loop)).index(ivs[k])
            lb, ub, step = _loop_extent(loop, pos)
            if lb is not None:
                dmin = -((-dmin) // step) * step  # round inward to multiples of the step
                dmax = (dmax // step) * step
            if lb is not None and ub is not None:
                span = max(ub - lb - 1, 0)
                dmin, dmax = max(dmin, -span), min(dmax, span)
            if dmin > dmax:
                return False
            got = (
                (LT if dmax > 0 else 0) | (GT if dmin < 0 else 0) | (EQ if dmin <= 0 <= dmax else 0)
            )
            dirs[k] &= got
            return dirs[k] != 0
        g = 0
        for c in coeffs:
            g = math.gcd(g, c)
        # Some multiple of g must lie in [lo, hi].
        return -(-lo // g) * g <= hi

    # -- queries --------------------------------------------------------------------------------

    def _position(self, dep: Dependence, loop: Operation, iv_pos: int = 0) -> int | None:
        k = 0
        for lp in dep.loops:
            n = len(loop_ivs(lp))
            if lp is loop:
                return k + iv_pos
            k += n
        return None

    def carried_by(self, loop: Operation, iv_pos: int = 0) -> list[Dependence]:
        """The dependences `loop` (dim `iv_pos` of an affine.parallel) may carry: those whose
        directions at the enclosing loop dims inside the root may all be '=' and whose
        direction at this loop may be '<' or '>'."""
        out = []
        for dep in self.deps:
            p = self._position(dep, loop, iv_pos)
            if p is None:
                continue
            if all(d & EQ for d in dep.dirs[:p]) and dep.dirs[p] & (LT | GT):
                out.append(dep)
        return out

    def is_parallel(self, loop: Operation) -> bool:
        """True when `loop` (nested in the root, or the root) carries no dependence, has no
        iter_args, and nothing in it has unknown effects."""
        if self.opaque or (type(loop) is AF.ForOp and loop.results):
            return False
        return not any(self.carried_by(loop, p) for p in range(len(loop_ivs(loop))))

    def is_reduction_loop(self, loop: Operation) -> bool:
        """True when every dependence `loop` carries is a reduction: iter_args updated by one
        combining op each (arith.addf, maximumf, ...), or a load and a store of one element
        whose address does not depend on the loop, the store's value combining the load."""
        if self.opaque or type(loop) is not AF.ForOp:
            return False
        carried = self.carried_by(loop)
        if not loop.results and not carried:
            return False
        for arg, yielded in zip(loop.region_iter_args, _yielded(loop)):
            if not _combines(yielded, arg):
                return False
        checked: dict[Value, bool] = {}
        for dep in carried:
            base = dep.src.base
            if dep.dst.base is not base:
                return False
            ok = checked.get(base)
            if ok is None:
                ok = checked[base] = _is_rmw(base, loop, self.accesses)
            if not ok:
                return False
        return True

    def permutation_violation(
        self, nest: Sequence[Operation], perm: Sequence[int]
    ) -> tuple[Dependence, tuple[int, ...]] | None:
        """A dependence (and a concrete direction vector of it over `nest`) that the permuted
        order (new position k runs `nest[perm[k]]`) would reverse; None when the order is legal."""
        if self.opaque:
            return (None, ())  # type: ignore[return-value]
        for dep in self.deps:
            pos = [self._position(dep, lp) for lp in nest]
            if any(p is None for p in pos):
                continue
            outer = [d for lp, d in _outer_dirs(dep, nest[0])]
            if not all(d & EQ for d in outer):
                continue
            sets = [dep.dirs[p] for p in pos]  # type: ignore[index]
            bad = _sign_flip(sets, perm)
            if bad is not None:
                return dep, bad
        return None

    def band_is_permutable(self, nest: Sequence[Operation]) -> bool:
        """True when every dependence has only non-negative directions over the band (the
        condition for tiling it): no vector mixes '<' and '>' inside `nest`."""
        if self.opaque:
            return False
        for dep in self.deps:
            outer = [d for lp, d in _outer_dirs(dep, nest[0])]
            if not all(d & EQ for d in outer):
                continue
            sets = [dep.dirs[p] for p in (self._position(dep, lp) for lp in nest) if p is not None]
            for i, si in enumerate(sets):
                if si & LT and any(sj & GT for j, sj in enumerate(sets) if j != i):
                    return False
        return True


def _tile_of(loop: Operation) -> tuple[Value, int] | None:
    """(tile iv, span) when `loop` is a point loop `tile to min(tile + span, ...)`."""
    if type(loop) is not AF.ForOp:
        return None
    lb, ub = loop.lower_bound_map, loop.upper_bound_map
    if lb.num_results != 1 or lb.num_dims < 1 or lb.results[0] is not AffineDimExpr(0):
        return None
    tile = loop.lowerBoundOperands[0]
    ub_ops = loop.upperBoundOperands
    if not ub_ops or ub_ops[0] is not tile or ub.num_dims < 1:
        return None
    first = ub.results[0]
    if type(first) is not AffineBinaryExpr or first.kind != "add":
        return None
    if first.lhs is not AffineDimExpr(0) or type(first.rhs) is not AffineConstantExpr:
        return None
    return tile, first.rhs.value


def _refine_tiles(
    ivs: list[Value], common: list[Operation], owner_loop: list[int], dirs: list[int]
) -> bool:
    """Couple the directions of a tile loop and its point loop (the point loop's range lies
    inside the tile's step): equal points mean equal tiles; different tiles order the points
    the same way. False when that leaves no direction."""
    index = {iv: k for k, iv in enumerate(ivs)}
    for k in range(len(ivs)):
        loop = common[owner_loop[k]]
        if type(loop) is not AF.ForOp:
            continue
        found = _tile_of(loop)
        if found is None:
            continue
        t = index.get(found[0])
        if t is None:
            continue
        owner = common[owner_loop[t]]
        step = owner.step_value if type(owner) is AF.ForOp else None
        if step is None or found[1] > step:
            continue
        dirs[t] &= EQ | (dirs[k] & (LT | GT))
        if not dirs[t] & EQ:
            dirs[k] &= dirs[t]
        if not dirs[t] or not dirs[k]:
            return False
    return True


def _outer_dirs(dep: Dependence, first: Operation) -> list[tuple[Operation, int]]:
    out = []
    k = 0
    for lp in dep.loops:
        if lp is first:
            break
        for _ in loop_ivs(lp):
            out.append((lp, dep.dirs[k]))
            k += 1
    return out


def _sign_flip(sets: list[int], perm: Sequence[int]) -> tuple[int, ...] | None:
    """A concrete direction vector from the product of `sets` whose lexicographic sign changes
    (positive <-> negative) under `perm`, or None. Depth-first over the product: at most
    3^depth vectors per dependence, and the nests asked about are at most 8 deep."""
    n = len(sets)
    choice = [0] * n

    def sign(vec: list[int], order: Sequence[int]) -> int | None:
        for p in order:
            d = vec[p]
            if d == 0:
                return None  # undecided yet
            if d == LT:
                return 1
            if d == GT:
                return -1
        return 0

    def rec(i: int) -> tuple[int, ...] | None:
        if i == n:
            s1 = sign(choice, range(n))
            s2 = sign(choice, perm)
            if s1 is not None and s2 is not None and s1 * s2 < 0:
                return tuple(choice)
            return None
        for bit in (LT, EQ, GT):
            if sets[i] & bit:
                choice[i] = bit
                found = rec(i + 1)
                if found is not None:
                    return found
        choice[i] = 0
        return None

    return rec(0)


def _is_nest_iv(v: Value, root: Operation) -> bool:
    if type(v) is not BlockArgument:
        return False
    owner = v.block.parent_op
    return (
        (type(owner) is AF.ForOp and v.index == 0) or type(owner) is AF.ParallelOp
    ) and root.is_ancestor(owner)  # type: ignore[arg-type]


def _entry_function_args(root: Operation) -> set[Value]:
    """Memref arguments of the entry function around `root` (public, made by bufferize: it has
    `mlc.result_shapes`): the runtime passes read-only inputs and fresh outputs, so no write is
    seen through two of them."""
    fn = root
    while fn is not None and fn.name != "func.func":
        fn = fn.parent_op  # type: ignore[assignment]
    if fn is None or fn.get_attr("mlc.result_shapes") is None:
        return set()
    if fn.get_attr("sym_visibility") is not None or not fn.regions[0].blocks:
        return set()
    return {a for a in fn.regions[0].blocks[0].arguments if type(a.type) is A.MemRefType}


def _yielded(loop: Operation) -> list[Value]:
    term = loop.regions[0].blocks[0].last
    return [u.value for u in term._operands] if term is not None else []


def _combines(value: Value, acc: Value) -> bool:
    """`value` is a reduction combiner applied to `acc` (used once) and something else."""
    d = value.defining_op()
    if d is None or d.name not in REDUCTION_COMBINERS or len(d._operands) != 2:
        return False
    ops = [u.value for u in d._operands]
    if ops.count(acc) != 1:
        return False
    return sum(1 for _ in acc.uses) == 1


def _is_rmw(base: Value, loop: Operation, accesses: list[Access]) -> bool:
    """The accesses to `base` inside `loop` are one reduction update `m[x] = m[x] op y`: an
    affine.load and an affine.store of the same address, which does not involve the loop's
    induction variable, the stored value combining the loaded one."""
    mine = [x for x in accesses if x.base is base and loop in x.loops]
    if len(mine) != 2 or mine[0].write == mine[1].write:
        return False
    load, store = (mine[0], mine[1]) if mine[1].write else (mine[1], mine[0])
    if type(load.op) is not AO.LoadOp or type(store.op) is not AO.StoreOp:
        return False
    if load.memref is not store.memref or load.op.affine_map is not store.op.affine_map:
        return False
    if load.op.map_operands != store.op.map_operands:
        return False
    iv = loop.induction_var
    if load.subs is None or any(s is None or iv in s[0] for s in load.subs):
        return False
    return _combines(store.op._operands[0].value, load.op.results[0])


# ---------------------------------------------------------------------------------------------
# Convenience queries (each builds the analysis of the loop it is asked about)


def is_parallel(loop: Operation, info: DependenceInfo | None = None) -> bool:
    """No dependence carried by `loop`: its iterations may run in any order or concurrently."""
    return (info or DependenceInfo(loop)).is_parallel(loop)


def is_reduction_loop(loop: Operation, info: DependenceInfo | None = None) -> bool:
    """`loop` carries only reduction dependences (see DependenceInfo.is_reduction_loop)."""
    return (info or DependenceInfo(loop)).is_reduction_loop(loop)


def _bounds_respect_order(nest: Sequence[Operation], perm: Sequence[int]) -> bool:
    """No loop's bounds use the induction variable of a loop placed inside it by `perm`."""
    placed: set[Value] = set()
    for k in range(len(perm) - 1, -1, -1):
        lp = nest[perm[k]]
        if any(u.value in placed for u in lp._operands):
            return False
        placed.add(lp.induction_var)
    return True


def permutation_violation(
    nest: Sequence[Operation], perm: Sequence[int], info: DependenceInfo | None = None
) -> str | None:
    """Why permuting the perfect nest `nest` by `perm` (new position k runs `nest[perm[k]]`) is
    illegal, or None when it is legal."""
    if sorted(perm) != list(range(len(nest))):
        return f"{list(perm)} is not a permutation of {len(nest)} loops"
    if not is_perfect_nest(nest):
        return "the loops are not a perfect nest without iter_args"
    if not _bounds_respect_order(nest, perm):
        return "a loop bound uses the induction variable of a loop that would be outside it"
    info = info or DependenceInfo(nest[0])
    if info.opaque:
        return "the nest holds an operation with unknown memory effects"
    found = info.permutation_violation(nest, perm)
    if found is None:
        return None
    dep, vec = found
    return (
        f"it reverses the dependence from '{dep.src.op.name}' to '{dep.dst.op.name}' "
        f"with direction {direction_text(vec)}"
    )


def permutation_is_legal(
    nest: Sequence[Operation], perm: Sequence[int], info: DependenceInfo | None = None
) -> bool:
    """True when running the perfect nest in the order `perm` keeps every dependence."""
    return permutation_violation(nest, perm, info) is None


def band_is_permutable(nest: Sequence[Operation], info: DependenceInfo | None = None) -> bool:
    """True when the perfect nest can be tiled (all dependences non-negative over it)."""
    if not is_perfect_nest(nest):
        return False
    return (info or DependenceInfo(nest[0])).band_is_permutable(nest)


# ---------------------------------------------------------------------------------------------
# A test pass printing the analysis as remarks (test/lit/passes/affine-dependence.mlir)


class TestAffineDependencePass(Pass):
    """Report, for each affine.for, whether it is parallel, a reduction, or carries dependences.

    Emits a remark at each loop: `parallel`, `reduction`, or `sequential` followed by the first
    carried dependence and its direction vector over the loops from the outermost one.
    """

    name = "test-affine-dependence"
    anchor = "func.func"

    def run(self, op: Operation, ctx: PassContext) -> None:
        for root in [o for o in op.ops_in_regions() if type(o) in (AF.ForOp, AF.ParallelOp)]:
            info = DependenceInfo(root)
            for loop in [o for o in root.walk(post_order=False) if type(o) is AF.ForOp]:
                if info.is_parallel(loop):
                    ctx.remark("parallel", loop)
                elif info.is_reduction_loop(loop):
                    ctx.remark("reduction", loop)
                elif info.opaque:
                    ctx.remark("sequential: unknown memory effects", loop)
                else:
                    dep = info.carried_by(loop)[0] if info.carried_by(loop) else None
                    text = (
                        f"'{dep.src.op.name}' -> '{dep.dst.op.name}' {direction_text(dep.dirs)}"
                        if dep is not None
                        else "iter_args"
                    )
                    ctx.remark(f"sequential: {text}", loop)
