"""`graph-matmul-reorder`: re-parenthesize chains of rank-2 graph.matmul to minimize FLOPs.

A chain is a tree of matmuls, transposes (`(A B)^T = B^T A^T`) and multiplications by scalars
(`s (A B) = (s A) B`) whose inner values have no other users; values with other users are
materialization points (leaves of the chain). The order is chosen by the classic O(n^3)
dynamic program and is a knob per chain (`order`, the index of a parenthesization).
"""

from __future__ import annotations

import hashlib
from functools import cache
from typing import Any

from mlc.dialects.graph import DYNAMIC, MatmulOp, MulOp, TransposeOp

from mlc.ir import attributes as A
from mlc.ir.core import Block, Operation, Value
from mlc.knobs import Choice, Domain, IntRange, Site
from mlc.pass_manager import KnobDecl, Option, Pass, PassContext, Statistic

# A parenthesization: a leaf index (int) or a pair of subtrees.
Tree = Any

# Chains with more parenthesizations than this get a restricted `order` domain (see `_domain`).
MAX_FULL_DOMAIN = 4862  # Catalan(9): chains of up to 10 matrices enumerate every order


@cache
def num_orders(n: int) -> int:
    """Number of parenthesizations of a chain of `n` matrices (Catalan(n - 1))."""
    if n <= 1:
        return 1
    return sum(num_orders(k) * num_orders(n - k) for k in range(1, n))


def order_of_index(n: int, index: int, offset: int = 0) -> Tree:
    """The parenthesization with `index` in the canonical enumeration of chains of `n` matrices.

    Trees are ordered by the size of the left subtree (1 first), then by the left subtree's
    index, then by the right subtree's index; leaves are numbered from `offset`.
    """
    if n == 1:
        return offset
    for k in range(1, n):
        right = num_orders(n - k)
        count = num_orders(k) * right
        if index < count:
            li, ri = divmod(index, right)
            return (order_of_index(k, li, offset), order_of_index(n - k, ri, offset + k))
        index -= count
    raise ValueError("order index out of range")


def index_of_order(tree: Tree) -> int:
    """The inverse of `order_of_index`."""
    return _rank(tree)[0]


def _rank(tree: Tree) -> tuple[int, int]:
    if type(tree) is int:
        return 0, 1
    li, ln = _rank(tree[0])
    ri, rn = _rank(tree[1])
    n = ln + rn
    return _orders_before(n, ln) + li * num_orders(rn) + ri, n


@cache
def _orders_before(n: int, ln: int) -> int:
    """Orders of a chain of `n` matrices whose left subtree has fewer than `ln` matrices."""
    if ln <= 1:
        return 0
    return _orders_before(n, ln - 1) + num_orders(ln - 1) * num_orders(n - ln + 1)


def order_text(tree: Tree) -> str:
    """`(0 (1 2))`-style text of a parenthesization."""
    if type(tree) is int:
        return str(tree)
    return f"({order_text(tree[0])} {order_text(tree[1])})"


def chain_flops(tree: Tree, dims: list[int]) -> int:
    """FLOPs (2 m k n per product) of evaluating the chain with dims `dims` in order `tree`."""
    return _flops_and_bounds(tree, dims)[0]


def _flops_and_bounds(tree: Tree, dims: list[int]) -> tuple[int, int, int]:
    """FLOPs of `tree`, its first leaf and one past its last leaf (one visit per node)."""
    if type(tree) is int:
        return 0, tree, tree + 1
    fl, i, k = _flops_and_bounds(tree[0], dims)
    fr, _, j = _flops_and_bounds(tree[1], dims)
    return fl + fr + 2 * dims[i] * dims[k] * dims[j], i, j


def _split_table(dims: list[int]) -> list[list[int]]:
    """The O(n^3) dynamic program: split[i][j] is the best split point of matrices i..j (ties
    to the smallest), for every sub-chain at once."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(2, n + 1):
        for i in range(n - length + 1):
            j = i + length - 1
            best, best_k = -1, i
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + 2 * dims[i] * dims[k + 1] * dims[j + 1]
                if best < 0 or c < best:
                    best, best_k = c, k
            cost[i][j], split[i][j] = best, best_k
    return split


def _build(split: list[list[int]], i: int, j: int) -> Tree:
    """The optimal order of matrices i..j from the DP table (leaves numbered globally)."""
    if i == j:
        return i
    k = split[i][j]
    return (_build(split, i, k), _build(split, k + 1, j))


def optimal_order(dims: list[int]) -> Tree:
    """The FLOP-minimal parenthesization of matrices `dims[i] x dims[i+1]` (O(n^3) DP).

    Ties go to the smallest split point, so the result is deterministic.
    """
    return _build(_split_table(dims), 0, len(dims) - 2)


def candidate_orders(dims: list[int]) -> list[Tree]:
    """The orders a long chain's knob may pick: the optimal one, left-to-right, right-to-left,
    and for each split point at the root, the optimal left and right sub-chains."""
    n = len(dims) - 1
    left: Tree = 0
    for i in range(1, n):
        left = (left, i)
    right: Tree = n - 1
    for i in range(n - 2, -1, -1):
        right = (i, right)
    # One table serves every sub-chain (a DP per split point was O(n^4)).
    split = _split_table(dims)
    orders = [_build(split, 0, n - 1), left, right]
    for k in range(1, n):
        orders.append((_build(split, 0, k - 1), _build(split, k, n - 1)))
    return orders


def order_domain(dims: list[int], best: Tree) -> Domain:
    """The `order` knob's domain: every parenthesization index for chains of up to 10
    matrices, else `best` and the candidate orders of `candidate_orders` (by FLOPs, then
    index)."""
    n = len(dims) - 1
    total = num_orders(n)
    if total <= MAX_FULL_DOMAIN:
        return IntRange(0, total - 1)
    orders = [best, *candidate_orders(dims)]
    scored = {index_of_order(t): chain_flops(t, dims) for t in orders}
    return Choice(*sorted(scored, key=lambda i: (scored[i], i)))


# ---------------------------------------------------------------------------------------------
# Finding chains


def _matrix_type(t: Any) -> bool:
    return type(t) is A.RankedTensorType and len(t.shape) == 2


def _is_scalar_like(t: Any) -> bool:
    return type(t) is A.RankedTensorType and len(t.shape) <= 2 and all(d == 1 for d in t.shape)


def _scalar_mul_parts(op: Operation) -> tuple[Value, Value] | None:
    """(matrix, scalar) of a graph.mul of a matrix by a scalar-like tensor, else None."""
    lhs, rhs = op._operands[0].value, op._operands[1].value
    res = op.results[0].type
    if lhs.type is res and _matrix_type(res) and _is_scalar_like(rhs.type):
        return lhs, rhs
    if rhs.type is res and _matrix_type(res) and _is_scalar_like(lhs.type):
        return rhs, lhs
    return None


def _chain_inputs(op: Operation) -> tuple[Value, ...] | None:
    """The matrix operands through which `op` continues a chain, or None if it is no chain op."""
    t = type(op)
    if t is MatmulOp:
        a, b = op._operands[0].value, op._operands[1].value
        if _matrix_type(a.type) and _matrix_type(b.type) and _matrix_type(op.results[0].type):
            return (a, b)
        return None
    if t is TransposeOp:
        x = op._operands[0].value
        if _matrix_type(x.type) and tuple(op.perm_value()) == (1, 0):
            return (x,)
        return None
    if t is MulOp:
        parts = _scalar_mul_parts(op)
        return (parts[0],) if parts is not None else None
    return None


class Chain:
    """A matmul chain rooted at `root`: factors (leaf value, transposed), scalars, its tree."""

    __slots__ = (
        "root", "factors", "scalars", "tree", "interior", "num_matmuls", "num_ops", "limit", "cuts"
    )  # fmt: skip

    def __init__(self, root: Operation, limit: int = 1 << 30) -> None:
        self.root = root
        self.factors: list[tuple[Value, bool]] = []
        self.scalars: list[Value] = []
        self.interior: list[Operation] = []  # chain ops below the root, children first
        self.num_matmuls = 0
        # At most `limit` matrices (and 4 * limit chain ops): an op beyond that stays a leaf
        # and roots a chain of its own (`cuts`), so the DP and the recursion stay bounded.
        self.num_ops = 1
        self.limit = limit
        self.cuts: list[Operation] = []
        self.tree = self._flatten_op(root, False)

    def _absorbed(self, v: Value, block: Block) -> Operation | None:
        op = v.defining_op()
        if op is None or op.parent is not block or not v.has_one_use():
            return None
        if _chain_inputs(op) is None:
            return None
        matmul = type(op) is MatmulOp
        if self.num_matmuls + matmul >= self.limit or self.num_ops >= 4 * self.limit:
            self.cuts.append(op)
            return None
        self.num_ops += 1
        return op

    def _flatten(self, v: Value, transposed: bool) -> Tree:
        op = self._absorbed(v, self.root.parent)
        if op is None:
            self.factors.append((v, transposed))
            return len(self.factors) - 1
        tree = self._flatten_op(op, transposed)
        self.interior.append(op)
        return tree

    def _flatten_op(self, op: Operation, transposed: bool) -> Tree:
        t = type(op)
        if t is MatmulOp:
            self.num_matmuls += 1
            a, b = op._operands[0].value, op._operands[1].value
            if transposed:
                right = self._flatten(b, True)
                return (right, self._flatten(a, True))
            left = self._flatten(a, False)
            return (left, self._flatten(b, False))
        if t is TransposeOp:
            return self._flatten(op._operands[0].value, not transposed)
        matrix, scalar = _scalar_mul_parts(op)  # type: ignore[misc]
        self.scalars.append(scalar)
        return self._flatten(matrix, transposed)

    def shapes(self) -> list[tuple[int, int]]:
        out = []
        for v, transposed in self.factors:
            r, c = v.type.shape
            out.append((c, r) if transposed else (r, c))
        return out


def _dims(shapes: list[tuple[int, int]], hint: int) -> list[int]:
    """Chain dims d0..dn; a dynamic dim takes its static partner, else the size hint."""
    dims = [shapes[0][0]]
    for i, (_, c) in enumerate(shapes):
        if c == DYNAMIC and i + 1 < len(shapes):
            c = shapes[i + 1][0]
        dims.append(c)
    return [hint if d == DYNAMIC else d for d in dims]


def _fingerprint(chain: Chain) -> str:
    parts = [str(chain.root.results[0].type.element_type)]
    for (_, transposed), (r, c) in zip(chain.factors, chain.shapes()):
        flag = "t" if transposed else ""
        parts.append(f"{'?' if r == DYNAMIC else r}x{'?' if c == DYNAMIC else c}{flag}")
    parts.append(f"s{len(chain.scalars)}")
    return hashlib.blake2b(",".join(parts).encode(), digest_size=4).hexdigest()


# ---------------------------------------------------------------------------------------------
# Rewriting


class _Builder:
    """Emits the chain in a new order before its root."""

    def __init__(self, chain: Chain) -> None:
        self.chain = chain
        self.root = chain.root
        self.block = chain.root.parent
        self.loc = chain.root.location
        self.transposed: dict[Value, Value] = {}

    def insert(self, op: Operation) -> Value:
        self.block.insert_before(op, self.root)
        return op.results[0]

    def leaf(self, i: int, scaled: dict[int, Value]) -> Value:
        if i in scaled:
            return scaled[i]
        v, transposed = self.chain.factors[i]
        if not transposed:
            return v
        t = self.transposed.get(v)
        if t is None:
            r, c = v.type.shape
            ty = A.RankedTensorType((c, r), v.type.element_type)
            perm = A.DenseArrayAttr(A.i64, (1, 0))
            t = self.insert(TransposeOp.create([v], [ty], {"perm": perm}, location=self.loc))
            self.transposed[v] = t
        return t

    def scale(self, x: Value, result_type: Any = None) -> Value:
        for s in self.chain.scalars:
            ty = result_type if result_type is not None else x.type
            x = self.insert(MulOp.create([x, s], [ty], location=self.loc))
        return x

    def emit(self, tree: Tree, scaled: dict[int, Value], result_type: Any) -> Value:
        if type(tree) is int:
            return self.leaf(tree, scaled)
        lhs = self.emit(tree[0], scaled, None)
        rhs = self.emit(tree[1], scaled, None)
        if result_type is None:
            result_type = MatmulOp.infer_result_types([lhs.type, rhs.type], {})[0]
        return self.insert(MatmulOp.create([lhs, rhs], [result_type], location=self.loc))


def _rewrite(chain: Chain, tree: Tree, dims: list[int]) -> None:
    b = _Builder(chain)
    root = chain.root
    root_type = root.results[0].type
    scaled: dict[int, Value] = {}
    final_type: Any = root_type
    if chain.scalars:
        # Multiply the scalars into the smallest matrix: a factor or the result.
        sizes = [dims[i] * dims[i + 1] for i in range(len(chain.factors))]
        best = min(range(len(sizes)), key=lambda i: sizes[i])
        if sizes[best] < dims[0] * dims[-1]:
            scaled[best] = b.scale(b.leaf(best, {}))
        else:
            final_type = None
    value = b.emit(tree, scaled, final_type)
    if chain.scalars and final_type is None:
        value = b.scale(value, root_type)
    root.results[0].replace_all_uses_with(value)
    root.erase()
    for op in reversed(chain.interior):
        op.erase()


class GraphMatmulReorderPass(Pass):
    """Reorder chains of matmuls (through transposes and scalar factors) to minimize FLOPs.

    Finds trees of rank-2 `graph.matmul`, `graph.transpose` (perm [1, 0]) and `graph.mul` by a
    scalar-like tensor (every dim 1) whose inner values have one use; a value with other users
    is a materialization point and stays a leaf. The default order is the FLOP-minimal one (a
    dynamic program over the chain); the `order` knob picks any parenthesization by index.
    Dynamic dims count as `size-hint`. Each chain of three or more matrices gets a remark with
    the order chosen and the estimated FLOPs before and after. A chain of more than
    `max-chain-length` matrices is cut into chains of at most that many, so the pass stays
    linear in the IR size.
    """

    name = "graph-matmul-reorder"
    anchor = "func.func"
    size_hint = Option(int, 1024, "Size assumed for a dynamic dim when estimating FLOPs")
    max_chain_length = Option(
        int,
        32,
        "Most matrices reordered as one chain; a longer chain is cut into chains of at most "
        "this many (the values at the cuts are materialized), which bounds the O(n^3) search",
    )
    knobs = (
        KnobDecl(
            "order",
            "int",
            "Parenthesization of this matmul chain, by index (default: fewest FLOPs)",
        ),
    )
    num_chains = Statistic("num-chains", "Number of matmul chains of three or more matrices")
    num_reordered = Statistic("num-reordered", "Number of chains rewritten in a new order")

    def run(self, op: Operation, ctx: PassContext) -> None:
        if self.size_hint < 1:
            ctx.error("graph-matmul-reorder: size-hint must be >= 1", op)
            return
        if self.max_chain_length < 2:
            ctx.error("graph-matmul-reorder: max-chain-length must be >= 2", op)
            return
        name = op.get_attr("sym_name")
        scope = "@" + str(getattr(name, "value", "")) if name is not None else "@"
        occurrences: dict[str, int] = {}
        for region in op.regions:
            for block in region.blocks:
                self._run_on_block(block, scope, occurrences, ctx)

    def _run_on_block(
        self, block: Block, scope: str, occurrences: dict[str, int], ctx: PassContext
    ) -> None:
        roots = []
        for op in block:
            for nested_region in op.regions:
                for nested in nested_region.blocks:
                    self._run_on_block(nested, scope, occurrences, ctx)
            if _chain_inputs(op) is None:
                continue
            res = op.results[0]
            if res.has_one_use():
                user = next(iter(res.users))
                if user.parent is block and res in (_chain_inputs(user) or ()):
                    continue  # an inner node of its user's chain
            roots.append(op)
        # Roots in program order; the cut points of chains longer than `max-chain-length`
        # follow as roots of their own chains.
        i = 0
        while i < len(roots):
            chain = Chain(roots[i], self.max_chain_length)
            i += 1
            roots.extend(chain.cuts)
            if len(chain.factors) < 3 or chain.num_matmuls == 0:
                continue
            self._reorder(chain, scope, occurrences, ctx)

    def _reorder(
        self, chain: Chain, scope: str, occurrences: dict[str, int], ctx: PassContext
    ) -> None:
        self.num_chains += 1
        shapes = chain.shapes()
        dims = _dims(shapes, self.size_hint)
        n = len(shapes)
        best = optimal_order(dims)
        if chain_flops(chain.tree, dims) <= chain_flops(best, dims):
            best = chain.tree  # as good as the optimum: keep the program as written
        domain = order_domain(dims, best)
        fp = _fingerprint(chain)
        occ = occurrences.get(fp, 0)
        occurrences[fp] = occ + 1
        site = Site(f"{scope}/graph-matmul-chain:{fp}/{occ}", chain.root)
        index = ctx.knob(site, "order", domain, index_of_order(best))
        tree = order_of_index(n, index)
        before, after = chain_flops(chain.tree, dims), chain_flops(tree, dims)
        shape_text = ", ".join(
            f"{'?' if r == DYNAMIC else r}x{'?' if c == DYNAMIC else c}" for r, c in shapes
        )
        if tree == chain.tree:
            ctx.remark(
                f"matmul chain [{shape_text}]: kept order {order_text(tree)}, "
                f"estimated FLOPs {before}",
                chain.root,
            )
            return
        ctx.remark(
            f"matmul chain [{shape_text}]: order {order_text(chain.tree)} -> "
            f"{order_text(tree)}, estimated FLOPs {before} -> {after}",
            chain.root,
        )
        _rewrite(chain, tree, dims)
        self.num_reordered += 1
