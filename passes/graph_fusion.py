"""`graph-fusion`: group graph ops into `graph.fused` kernels (XLA-style producer/consumer fusion).

Ops are visited consumers first; each producer decides (knob `fuse`, default from a cost model)
whether it joins the groups of its consumers: merged into one group (multi-output when its value
also escapes), or duplicated into each consumer group when the groups cannot merge. Legality
rules keep every group one kernel's worth of work. Acyclicity: a kernel is placed at its last
member, and every edge of the kernel graph goes from an earlier position to a later one (merges
that would break this are refused), so placing kernels there keeps the block in SSA order.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from operator import attrgetter
from typing import Any

from mlc.dialects.graph import DIALECT as GRAPH
from mlc.dialects.graph import (
    DYNAMIC,
    BroadcastToOp,
    Conv2DOp,
    FusedOp,
    MatmulOp,
    ReduceMaxOp,
    ReduceMeanOp,
    ReduceMinOp,
    ReduceSumOp,
    SoftmaxOp,
    YieldOp,
)

from mlc.ir import attributes as A
from mlc.ir.core import Block, Operation, Region, Value
from mlc.ir.opdef import Elementwise
from mlc.knobs import Bool, Site, _attr_text, fingerprint
from mlc.pass_manager import KnobDecl, Option, Pass, PassContext, Statistic

# Op kinds, by what a kernel can do with them.
ELEMENTWISE, BROADCAST, REDUCTION, HEAVY = 1, 2, 3, 4
_NO_USER = 1 << 62  # the user bound of a group whose members have no outside users
_BOOL = Bool()
_position = attrgetter("index")

_KINDS: dict[type, int] = {c: ELEMENTWISE for c in GRAPH.ops.values() if Elementwise in c._traits}
_KINDS[BroadcastToOp] = BROADCAST
for _c in (ReduceSumOp, ReduceMaxOp, ReduceMinOp, ReduceMeanOp, SoftmaxOp):
    _KINDS[_c] = REDUCTION
_KINDS[MatmulOp] = HEAVY
_KINDS[Conv2DOp] = HEAVY

# Estimated FLOPs per result element of elementwise ops (transcendentals cost more).
_FLOPS_PER_ELEMENT = {
    "graph.div": 4,
    "graph.pow": 20,
    "graph.exp": 10,
    "graph.log": 10,
    "graph.sqrt": 4,
    "graph.rsqrt": 5,
    "graph.tanh": 12,
    "graph.sigmoid": 12,
    "graph.erf": 12,
    "graph.gelu": 16,
}
_BYTES = {"f16": 2, "f32": 4, "f64": 8, "i1": 1, "i32": 4, "i64": 8}


def _fingerprint(op: Operation, texts: dict[int, tuple[Any, str]]) -> str:
    """`mlc.knobs.fingerprint(op)` for an op without regions, with the text of each (interned)
    type and attribute printed once per block instead of once per use."""
    if op.regions:
        return fingerprint(op)

    def text(attr: Any) -> str:
        hit = texts.get(id(attr))
        if hit is None:
            hit = texts[id(attr)] = (attr, _attr_text(attr))
        return hit[1]

    parts = [
        op.name,
        "(" + ",".join(text(u.value.type) for u in op._operands) + ")",
        "->(" + ",".join(text(r.type) for r in op.results) + ")",
    ]
    attrs = op._attrs
    if attrs:
        parts.extend(f"{k}={text(attrs[k])}" for k in sorted(attrs))
    return hashlib.blake2b("\x1f".join(parts).encode(), digest_size=4).hexdigest()


class Group:
    """The fusion state of one op of the block, and a union-find node of the kernels being
    formed (one record per op, so the walk touches one object per op instead of several
    op-keyed tables). `members` is None until the op is visited (a group of its own) and empty
    once merged into another group; a root's `members` are the records of the ops of one
    graph.fused."""

    __slots__ = (
        "op",
        "index",
        "kind",
        "site",
        "members",
        "parent",
        "heavy",
        "reductions",
        "max_index",
        "user_bound",
        "witness",
    )

    def __init__(self, op: Operation, index: int, kind: int, site: str | None) -> None:
        self.op = op
        self.index = index
        self.kind = kind
        # `fingerprint/occurrence` of the knob site (None for ops fusion leaves alone).
        self.site = site
        self.members: list[Group] | None = None
        self.parent: Group | None = None
        self.heavy = 0
        self.reductions = 0
        # The kernel-graph position of a root: its last member (the op itself until visited).
        self.max_index = index
        # For `_BlockFusion._group_users_after`: a lower bound of the kernel-graph position of
        # the members' users outside the group (positions only grow and users only leave that
        # set as groups merge, so a bound stays valid), and a user that failed the check.
        self.user_bound = _NO_USER
        self.witness: Operation | None = None


def _find(g: Group) -> Group:
    root = g
    while root.parent is not None:
        root = root.parent
    while g.parent is not None:
        g.parent, g = root, g.parent
    return root


def _union(a: Group, b: Group) -> Group:
    a, b = _find(a), _find(b)
    if a is b:
        return a
    if len(a.members) < len(b.members):  # type: ignore[arg-type]
        a, b = b, a
    b.parent = a
    a.members.extend(b.members)  # type: ignore[union-attr, arg-type]
    b.members = []
    a.heavy += b.heavy
    a.reductions += b.reductions
    if b.max_index > a.max_index:
        a.max_index = b.max_index
    if b.user_bound < a.user_bound:
        a.user_bound = b.user_bound
    if a.witness is None:
        a.witness = b.witness
    return a


class _BlockFusion:
    """Fusion of the ops of one block."""

    def __init__(
        self,
        pass_: GraphFusionPass,
        block: Block,
        ctx: PassContext,
        scope: str,
        occurrences: dict[str, int],
    ) -> None:
        self.pass_ = pass_
        self.block = block
        self.ctx = ctx
        self.scope = scope
        # Sites (`@function/op-name:fingerprint/occurrence`, as `mlc.knobs.site_of` spells them)
        # are numbered before any rewrite, so keys do not depend on earlier decisions. Ops with
        # the same name, operand/result types and attributes (interned, so compared by
        # identity) share one fingerprint, computed once.
        texts: dict[int, tuple[Any, str]] = {}
        prints: dict[tuple, str] = {}  # the fingerprint of each key
        node: dict[Operation, Group] = {}
        order: list[Group] = []
        kinds = _KINDS
        ranked = A.RankedTensorType
        for i, op in enumerate(block):
            k = kinds.get(type(op), 0)
            site = None
            if k:
                # A kernel op has ranked tensor operands and results; the key of its
                # fingerprint is its class, types and attributes.
                key: list[Any] = [type(op)]
                for u in op._operands:
                    t = u.value.type
                    if type(t) is not ranked:
                        k = 0
                        break
                    key.append(t)
                key.append(None)
                for r in op.results:
                    t = r.type
                    if type(t) is not ranked:
                        k = 0
                        break
                    key.append(t)
            if k:
                if op.regions:
                    fp = f"{op.name}:{_fingerprint(op, texts)}"
                else:
                    attrs = op._attrs
                    if attrs:
                        key.extend([(a, id(v)) for a, v in attrs.items()])
                    memo = tuple(key)
                    fp = prints.get(memo)  # type: ignore[assignment]
                    if fp is None:
                        fp = prints[memo] = f"{op.name}:{_fingerprint(op, texts)}"
                n = occurrences.get(fp, 0)
                occurrences[fp] = n + 1
                site = f"{fp}/{n}"
            g = node[op] = Group(op, i, k, site)
            order.append(g)
        self.node = node
        self.order = order

    # -- structure ------------------------------------------------------------------------------

    def _in_block(self, op: Operation) -> Operation | None:
        """The ancestor of `op` that is in this block (None if it is not nested in it)."""
        block = self.block
        while op is not None and op.parent is not block:
            op = op.parent_op  # type: ignore[assignment]
        return op

    def _users(self, v: Value) -> list[Operation]:
        out = []
        for use in v.uses:
            user = self._in_block(use.owner)
            if user is not None:
                out.append(user)
        return out

    def _group_of(self, op: Operation) -> Group | None:
        """The root of `op`'s kernel (None for an op of another block or not yet visited)."""
        g = self.node.get(op)
        if g is None or g.members is None:
            return None
        return _find(g)

    def _shape(self, v: Value) -> tuple[int, ...]:
        return v.type.shape

    # -- legality -------------------------------------------------------------------------------

    def _can_join(self, p: Operation, kp: int, g: Group, users: list[Group]) -> bool:
        """Whether producer `p` (of kind `kp`) may join group `g` through its uses by `users`
        (records of members of g)."""
        if kp == HEAVY and (g.heavy or g.reductions):
            return False  # one matmul/conv per kernel, with an elementwise epilogue only
        if kp == REDUCTION and g.heavy:
            return False
        out_shape = self._shape(p.results[0])
        for u in users:
            ku = u.kind
            if ku == HEAVY:
                return False  # no prologue fusion into a matmul/conv
            u_shape = self._shape(u.op.results[0])
            if kp == HEAVY and (ku != ELEMENTWISE or u_shape != out_shape):
                return False
            if kp == REDUCTION and ku == ELEMENTWISE:
                in_shape = self._shape(p._operands[0].value)
                if u_shape != out_shape and u_shape != in_shape:
                    return False
        return True

    def _pos(self, op: Operation) -> int:
        """Where `op`'s node of the kernel graph sits: its group's last member, or itself."""
        return _find(self.node[op]).max_index

    def _users_after(
        self, ops: list[Operation], p: Operation, groups: Collection[Group], pos: int
    ) -> bool:
        """Every user of `ops` outside the kernel of `p` and `groups` (root groups) sits after
        `pos` in the kernel graph. Membership is asked of the union-find, so the check costs
        the uses of `ops`, not the size of the groups."""
        node = self.node
        for m in ops:
            for r in m.results:
                for user in self._users(r):
                    if user is p:
                        continue
                    g = _find(node[user])
                    if g in groups:
                        continue
                    if g.max_index <= pos:
                        return False
        return True

    def _can_merge_siblings(self, p: Operation, groups: list[Group]) -> bool:
        kp = self.node[p].kind
        heavy = sum(g.heavy for g in groups) + (kp == HEAVY)
        reductions = sum(g.reductions for g in groups) + (kp == REDUCTION)
        if heavy > 1 or (heavy and reductions) or any(g.heavy for g in groups):
            return False
        # The groups must not feed each other: that edge was a decision of its own.
        largest = max(groups, key=lambda g: len(g.members))  # type: ignore[arg-type]
        for g in groups:
            if g is largest:
                continue
            for rec in g.members:  # type: ignore[union-attr]
                m = rec.op
                for u in m._operands:
                    d = u.value.defining_op()
                    if d is not None:
                        dg = self._group_of(d)
                        if dg is not None and dg is not g and dg in groups:
                            return False
                for r in m.results:
                    for user in self._users(r):
                        ug = self._group_of(user)
                        if ug is not None and ug is not g and ug in groups:
                            return False
        # The merged kernel sits at its last member: users of the other groups must follow it.
        pos = max(g.max_index for g in groups)
        roots = set(groups)
        return all(self._group_users_after(g, p, roots, pos) for g in groups if g.max_index < pos)

    def _group_users_after(self, g: Group, p: Operation, roots: set[Group], pos: int) -> bool:
        """`_users_after` of g's member ops, without rescanning a big group each time it
        is asked (which made sibling merges quadratic in the kernel size): the group's user
        bound answers yes, its last witness answers no. The users of the members do not change
        during the walk (only unvisited producers are cloned or erased)."""
        if g.user_bound > pos:
            return True
        node = self.node
        w = g.witness
        if w is not None and w is not p:
            wg = _find(node[w])
            if wg not in roots and wg.max_index <= pos:
                return False
        low = _NO_USER
        for rec in g.members:  # type: ignore[union-attr]
            for r in rec.op.results:
                for user in self._users(r):
                    ug = _find(node[user])
                    if ug is g:
                        continue
                    upos = ug.max_index
                    if upos < low:
                        low = upos
                    if upos <= pos and user is not p and ug not in roots:
                        g.witness = user
                        return False
        g.user_bound = low
        return True

    # -- cost model -----------------------------------------------------------------------------

    def _numel(self, v: Value) -> int:
        n = 1
        for d in v.type.shape:
            n *= self.pass_.size_hint if d == DYNAMIC else d
        return n

    def _bytes(self, v: Value) -> int:
        return self._numel(v) * _BYTES.get(str(v.type.element_type), 4)

    def _flops(self, p: Operation) -> int:
        kind = self.node[p].kind
        if kind == ELEMENTWISE:
            return _FLOPS_PER_ELEMENT.get(p.name, 1) * self._numel(p.results[0])
        if kind == BROADCAST:
            return 0
        if kind == REDUCTION:
            return 4 * self._numel(p._operands[0].value)
        hint = self.pass_.size_hint
        a, b = p._operands[0].value, p._operands[1].value
        if type(p) is MatmulOp:
            k = self._shape(a)[-1]
            return 2 * self._numel(p.results[0]) * (hint if k == DYNAMIC else k)
        # conv2d: 2 * output elements * C/G * KH * KW
        _, cg, kh, kw = (hint if d == DYNAMIC else d for d in self._shape(b))
        return 2 * self._numel(p.results[0]) * cg * kh * kw

    def duplication_pays(self, p: Operation, num_groups: int, escapes: bool) -> bool:
        """Cost model: recompute `p` in each of `num_groups` kernels vs write it once and read it
        back in each (in FLOP-equivalents; one byte moved costs `flops-per-byte` FLOPs)."""
        per_byte = self.pass_.flops_per_byte
        out = self._bytes(p.results[0])
        inputs = sum(self._bytes(u.value) for u in p._operands)
        materialize = per_byte * out * (num_groups + (0 if escapes else 1))
        duplicate = num_groups * (self._flops(p) + per_byte * inputs)
        return duplicate < materialize

    # -- the walk -------------------------------------------------------------------------------

    def run(self) -> int:
        block = self.block
        for g in reversed(self.order):
            if g.kind and g.op.parent is block:
                self._visit(g)
        return self._materialize()

    def _new_group(self, g: Group, bound: int | None = None) -> None:
        """Make visited op `g.op` a group of its own; `bound` is the least kernel-graph position
        of its users when the caller has it."""
        op = g.op
        if bound is None:
            bound = min(
                (self._pos(u) for r in op.results for u in self._users(r)), default=_NO_USER
            )
        g.members = [g]
        g.heavy = 1 if g.kind == HEAVY else 0
        g.reductions = 1 if g.kind == REDUCTION else 0
        g.user_bound = bound

    def _visit(self, g: Group) -> None:
        p = g.op
        node = self.node
        by_group: dict[Group, list[Group]] = {}
        outside = False
        bound = _NO_USER  # the least position of p's users, for its own group
        for u in self._users(p.results[0]):
            n = node[u]
            root = _find(n)
            if root.max_index < bound:
                bound = root.max_index
            if n.members is None:
                outside = True  # not a kernel op
            else:
                by_group.setdefault(root, []).append(n)
        if len(p.results) > 1:
            bound = None  # type: ignore[assignment]  (computed over every result)
        kind = g.kind
        legal = [r for r, us in by_group.items() if self._can_join(p, kind, r, us)]
        if len(legal) < len(by_group):
            outside = True  # p is materialized for the groups it may not join
        if not legal:
            self._new_group(g, bound)
            return
        if len(legal) == 1 and not outside:
            plan, default = "merge", True  # all users in one kernel: free to fuse
        elif len(legal) == 1 and self._users_after([p], p, legal, legal[0].max_index):
            plan, default = "merge", True  # multi-output: p is written once, never read back
        elif len(legal) > 1 and not outside and self._can_merge_siblings(p, legal):
            plan, default = "siblings", True
        else:
            plan, default = "duplicate", self.duplication_pays(p, len(legal), outside)
        site = Site(f"{self.scope}/{g.site}", p)
        if not self.ctx.knob(site, "fuse", _BOOL, default):
            self._new_group(g, bound)
            return
        if plan == "merge" or plan == "siblings":
            self._new_group(g, bound)
            for other in legal:
                g = _union(g, other)
            return
        self._duplicate(g, legal)

    def _duplicate(self, g: Group, groups: list[Group]) -> None:
        p = g.op
        kind = g.kind
        for kg in groups:
            clone = p.clone()
            self.block.insert_before(clone, p)
            c = self.node[clone] = Group(clone, g.index, kind, None)
            c.members = []  # a member of kg, never visited
            c.parent = kg
            kg.members.append(c)  # type: ignore[union-attr]
            kg.heavy += kind == HEAVY
            kg.reductions += kind == REDUCTION
            p.results[0].replace_uses_with_if(
                clone.results[0], lambda use, kg=kg: self._group_of(self._in_block(use.owner)) is kg
            )
            self.pass_.num_duplicated += 1
        if p.results[0].has_uses():
            self._new_group(g)  # its remaining users are outside every kernel it joined
        else:
            p.erase()

    # -- building graph.fused -------------------------------------------------------------------

    def _materialize(self) -> int:
        block = self.block
        built = 0
        for g in self.order:
            group = g.members
            g.members = None  # a root's list holds the root: the cycle goes with the pass
            if g.parent is not None or group is None or len(group) < 2:
                continue
            # Block order within a kernel is index order: a clone sits just before the op it
            # copies and has its index (two such ops never use each other).
            members = [m for m in group if m.op.parent is block]
            members.sort(key=_position)
            if len(members) > 1 and self._build([m.op for m in members]):
                built += 1
        return built

    def _build(self, members: list[Operation]) -> bool:
        member_set = set(members)
        inputs: dict[Value, None] = {}
        outputs: list[Value] = []
        for m in members:
            for u in m._operands:
                v = u.value
                if getattr(v, "op", None) not in member_set:  # a block argument has no `op`
                    inputs.setdefault(v, None)
            for r in m.results:
                for use in r.uses:
                    if self._in_block(use.owner) not in member_set:
                        outputs.append(r)
                        break
        # A kernel whose values are all dead is still built (with no results): its members
        # must move together, or a clone left in place could precede its producer's kernel.
        last = members[-1]
        loc = last.location
        region = Region()
        body = Block()
        region.add_block(body)
        args = {v: body.add_argument(v.type, loc) for v in inputs}
        types = [r.type for r in outputs]
        fused = FusedOp.create(list(inputs), types, None, [region], (), loc)
        self.block.insert_before(fused, last)
        for r, new in zip(outputs, fused.results):
            r.replace_uses_with_if(new, lambda use: use.owner not in member_set)
        # The members move into the body (no clones): operands from outside become arguments.
        for m in members:
            m.detach()
            body.append(m)
            for i, u in enumerate(m._operands):
                arg = args.get(u.value)
                if arg is not None:
                    m.set_operand(i, arg)
        body.append(YieldOp.create(outputs, location=loc))
        self.pass_.num_fused_ops += len(members)
        return True


class GraphFusionPass(Pass):
    """Group graph ops into graph.fused kernels (per-node `fuse` knobs, a cost model default).

    Fuses elementwise producer/consumer chains, broadcasts and elementwise ops into reductions
    (input fusion), reductions into elementwise consumers over the reduction's input or output
    shape (softmax's max/sub/exp/sum/div become one kernel), and elementwise epilogues of
    matmul/conv2d (bias, activation, residual add). A producer with consumers in several
    kernels is merged with them when they can form one convex kernel, else duplicated into
    each or materialized: the `fuse` knob decides, defaulting to the cost model (bytes moved
    vs FLOPs recomputed). Every knob configuration gives a correct program.
    """

    name = "graph-fusion"
    anchor = "func.func"
    size_hint = Option(int, 1024, "Size assumed for a dynamic dim in the cost model")
    flops_per_byte = Option(
        int, 4, "Cost model: FLOPs worth one byte of memory traffic (machine balance)"
    )
    knobs = (
        KnobDecl(
            "fuse",
            "bool",
            "Fuse this op into the kernels of its consumers (default: the cost model)",
        ),
    )
    num_groups = Statistic("num-groups", "Number of graph.fused kernels created")
    num_fused_ops = Statistic("num-fused-ops", "Number of ops moved into kernels")
    num_duplicated = Statistic("num-duplicated", "Number of producers duplicated into a kernel")

    def run(self, op: Operation, ctx: PassContext) -> None:
        if self.size_hint < 1 or self.flops_per_byte < 0:
            ctx.error("graph-fusion: size-hint must be >= 1 and flops-per-byte >= 0", op)
            return
        name = op.get_attr("sym_name")
        scope = "@" + str(getattr(name, "value", "")) if name is not None else "@"
        occurrences: dict[str, int] = {}
        for region in op.regions:
            for block in region.blocks:
                self._run_on_block(block, ctx, scope, occurrences)

    def _run_on_block(
        self, block: Block, ctx: PassContext, scope: str, occurrences: dict[str, int]
    ) -> None:
        for op in list(block):
            if type(op) is FusedOp:
                continue  # already a kernel
            for region in op.regions:
                for nested in region.blocks:
                    self._run_on_block(nested, ctx, scope, occurrences)
        self.num_groups += _BlockFusion(self, block, ctx, scope, occurrences).run()
