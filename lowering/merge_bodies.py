"""Merging outlined parallel bodies that differ only in integer constants.

`convert-to-llvm` outlines every `affine.parallel` marked `mlc.parallel` into a function of
its own (`@f_parallel_body_N(i64 begin, i64 end, ptr ctx)`, run by `mlc_parallel_for` on the
thread pool). Layers of one model often lower to bodies that are the same code with other
sizes, which LLVM then optimizes and compiles once per copy.

`merge_outlined_bodies` keeps one body of each such group. The constants that differ become
fields appended to the body's context struct, which each call site fills with its own values
(one stack store per field before the call), and every call site takes the kept body's
address. Bodies that are identical outright simply share one function (LLVM's `mergefunc`).

What may differ: the values of scalar integer `llvm.mlir.constant` ops whose users are all
plain integer arithmetic, comparisons, selects, GEP indices, casts or branch operands (a value
that must stay an immediate, such as an intrinsic's `immarg`, keeps the bodies apart), and
that are no address term in a block with vector FMAs (`_address_constants`). Everything else
(op names, operand wiring, types, attributes, block structure) must be equal. The cost is
that LLVM no longer sees those values as constants: a multiplication takes a register
instead of an immediate, a division by a block size becomes a real division, and trip counts
are known at run time only. In a micro-kernel's inner loop that costs: the MLP's 784 x 512
and 512 x 512 kernels, merged with A's row stride from the context, compiled a third faster
in LLVM and ran 5-14% slower at batch 256, which is why address terms there keep bodies
apart. The `merge_bodies` knob of `convert-to-llvm` turns merging off.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from mlc.dialects import llvm
from mlc.dialects.llvm_types import LLVMStructType
from mlc.ir import attributes as A
from mlc.ir.core import Block, OpOperand, Operation, Value

__all__ = ["MAX_FIELDS", "merge_outlined_bodies"]

# At most this many constants per group become context fields (each one is a store per call
# and a load per chunk); a group that differs in more is left as it is.
MAX_FIELDS = 32

PTR = llvm.LLVMPointerType()

# Users through which a constant may become a run-time value.
_VALUE_USERS = frozenset(
    f"llvm.{n}"
    for n in (
        "add", "sub", "mul", "sdiv", "udiv", "srem", "urem", "shl", "lshr", "ashr", "and",
        "or", "xor", "icmp", "select", "getelementptr", "br", "cond_br", "sext", "zext",
        "trunc", "sitofp", "uitofp", "store", "intr.smax", "intr.smin", "intr.umax",
        "intr.umin",
    )
)  # fmt: skip


class _Body:
    """An outlined body and where it is used: its `llvm.mlir.addressof` and the context
    `llvm.alloca` of the `mlc_parallel_for` call that takes it (None: a null context)."""

    __slots__ = ("func", "address", "call", "calls", "alloca", "key", "constants")

    def __init__(self, func: Operation, address: Operation, call: Operation) -> None:
        self.func = func
        self.address = address
        self.call = call
        self.calls = address.results[0].num_uses()  # the pool's, and a serial one
        ctx = call.operands[1].defining_op()
        self.alloca = ctx if ctx is not None and ctx.name == "llvm.alloca" else None
        self.key: tuple[Any, ...] | None = None
        self.constants: list[OpOperand] = []


def _hashable_attrs(attrs: dict[str, A.Attribute] | None) -> tuple[Any, ...]:
    if not attrs:
        return ()
    return tuple(sorted(attrs.items(), key=lambda kv: kv[0]))


def _describe(body: _Body) -> bool:
    """Fill `body.key` (its structure with the values of the free constants left out) and
    `body.constants` (the operands that use a free constant, in order). A free constant
    counts at each use, not as an op: the lowering shares one constant op between uses of
    equal values, which two bodies with other values share differently. False when the body
    is not mergeable."""
    region = body.func.regions[0]
    number: dict[Value, int] = {}
    blocks: dict[Block, int] = {}
    free: set[Value] = set()
    hot = _address_constants(region)
    for i, block in enumerate(region.blocks):
        blocks[block] = i
        for a in block.arguments:
            number[a] = len(number)
        for op in block:
            if op.regions:
                return False
            if type(op) is llvm.ConstantOp and _free_constant(op, hot):
                free.add(op.results[0])
                continue
            for r in op.results:
                number[r] = len(number)
    items: list[Any] = [_hashable_attrs({k: v for k, v in (body.func._attrs or {}).items()
                                         if k != "sym_name"})]  # fmt: skip
    constants = body.constants
    for block in region.blocks:
        items.append(block.arg_types)
        for op in block:
            if op.results and op.results[0] in free:
                continue
            operands: list[Any] = []
            for use in op._operands:
                v = use.value
                if v in free:
                    operands.append(v.type)
                    constants.append(use)
                    continue
                n = number.get(v)
                if n is None:  # defined outside the body (cannot happen after outlining)
                    return False
                operands.append(n)
            items.append(
                (
                    op.name,
                    tuple(operands),
                    tuple([r.type for r in op.results]),
                    _hashable_attrs(op._attrs),
                    tuple([blocks[s] for s in op.successors]),
                )
            )
    key = tuple(items)
    try:
        hash(key)
    except TypeError:  # an attribute that is not hashable: compare nothing
        return False
    body.key = key
    return True


def _free_constant(op: Operation, hot: set[Operation]) -> bool:
    """A scalar integer constant whose every user may take a run-time value instead, and
    which is not among the `hot` ones (see `_address_constants`)."""
    t = op.results[0].type
    if type(t) is not A.IntegerType or t.width == 1 or op in hot:
        return False
    return all(use.owner.name in _VALUE_USERS for use in op.results[0].uses)


# Integer ops through which a constant reaches an address.
_ADDRESS_ARITH = frozenset(
    f"llvm.{n}" for n in ("add", "sub", "mul", "shl", "sext", "zext", "trunc", "or", "and")
)


def _address_constants(region: Any) -> set[Operation]:
    """The constants that are terms of an address computed in a block with vector FMAs (a
    micro-kernel's inner loop), through integer arithmetic. There a row stride is an
    immediate displacement; from the context it is a register and extra address arithmetic
    per iteration (measured: the MLP's 6x16 kernel with A's row stride from the context ran
    5-10% slower at batch 256), so such constants keep bodies apart."""
    found: set[Operation] = set()
    seen: set[Operation] = set()
    for block in region.blocks:
        if not any(
            op.name == "llvm.intr.fma" and type(op.results[0].type) is A.VectorType
            for op in block
        ):
            continue
        todo = [op for op in block if op.name == "llvm.getelementptr"]
        while todo:
            op = todo.pop()
            for use in op._operands:
                d = use.value.defining_op()
                if d is None or d in seen:
                    continue
                seen.add(d)
                if type(d) is llvm.ConstantOp:
                    found.add(d)
                elif d.name in _ADDRESS_ARITH:
                    todo.append(d)
    return found


def _bodies(outlined: Sequence[Operation], functions: Iterable[Operation]) -> list[_Body]:
    """The outlined bodies whose address is taken once, as the callee operand of an
    `mlc_parallel_for` call, and used nowhere else."""
    names = {f.get_attr("sym_name").value: f for f in outlined}  # type: ignore[union-attr]
    uses: dict[str, list[tuple[Operation, Operation | None]]] = {n: [] for n in names}
    for f in functions:
        for op in f.walk(post_order=False):
            if type(op) is not llvm.AddressOfOp:
                continue
            name = op.get_attr("global_name").root  # type: ignore[union-attr]
            if name not in uses:
                continue
            result = op.results[0]
            calls = [u.owner for u in result.uses if _runs_body(u.owner, u.index)]
            serial = sum(1 for u in result.uses if _calls_body(u.owner, u.index))
            ok = len(calls) == 1 and serial <= 1 and result.num_uses() == 1 + serial
            uses[name].append((op, calls[0] if ok else None))
    out = []
    for name, found in uses.items():
        if len(found) == 1 and found[0][1] is not None:
            out.append(_Body(names[name], found[0][0], found[0][1]))  # type: ignore[arg-type]
    return out


def _runs_body(user: Operation, index: int) -> bool:
    callee = user.get_attr("callee") if user.name == "llvm.call" else None
    return index == 0 and callee is not None and callee.root == "mlc_parallel_for"  # type: ignore[attr-defined]


def _calls_body(user: Operation, index: int) -> bool:
    """`user` calls the body through its address on the calling thread (the serial path of a
    loop with `mlc.parallel_min_extent`)."""
    return user.name == "llvm.call" and index == 0 and user.get_attr("callee") is None


def merge_outlined_bodies(
    outlined: list[tuple[str, Operation]], functions: Iterable[Operation]
) -> int:
    """Merge the bodies of `outlined` ((enclosing function, body) pairs, not yet in the
    module) whose only differences are free integer constants; `functions` are every function
    that may call them. Removes the merged-away bodies from `outlined`; returns how many."""
    # A cheap first key (the blocks and their argument types) so that only bodies that may
    # match are described op by op.
    rough: dict[tuple[Any, ...], list[_Body]] = {}
    for b in _bodies([f for _, f in outlined], functions):
        blocks = b.func.regions[0].blocks
        rough.setdefault(tuple([blk.arg_types for blk in blocks]), []).append(b)
    groups: dict[tuple[Any, ...], list[_Body]] = {}
    for candidates in rough.values():
        if len(candidates) > 1:
            for b in candidates:
                if _describe(b):
                    groups.setdefault(b.key, []).append(b)  # type: ignore[arg-type]
    gone: set[Operation] = set()
    for group in groups.values():
        if len(group) > 1:
            gone.update(_merge(group))
    if gone:
        outlined[:] = [(p, f) for p, f in outlined if f not in gone]
        for f in gone:
            f.drop_all_references()
    return len(gone)


def _merge(group: list[_Body]) -> list[Operation]:
    """Merge `group` into its first body; returns the bodies merged away ([] if none)."""
    keep = group[0]
    # The constants that differ, one field per distinct column of values.
    columns: dict[tuple[Any, ...], int] = {}
    field_of: list[int | None] = []
    types: list[A.Type] = []
    for i, use in enumerate(keep.constants):
        values = tuple(_value(b.constants[i]) for b in group)
        if all(v is values[0] for v in values):
            field_of.append(None)
            continue
        t = use.value.type
        column = (t, values)
        k = columns.get(column)
        if k is None:
            k = columns[column] = len(types)
            types.append(t)
        field_of.append(k)
    if len(types) > MAX_FIELDS:
        return []
    if types:
        # Appending fields keeps the offsets of the captured values; a body without captures
        # (a null context) would need a new stack slot at each call: leave it.
        if any(b.alloca is None for b in group):
            return []
        old = keep.alloca.get_attr("elem_type").value  # type: ignore[union-attr]
        if type(old) is not LLVMStructType or old.identifier or old.packed:
            return []
        if any(b.alloca.get_attr("elem_type").value is not old for b in group):  # type: ignore[union-attr]
            return []
        if any(b.alloca.results[0].num_uses() != len(old.body) + b.calls for b in group):  # type: ignore[union-attr]
            return []  # the slot is shared or escapes: its uses are not just these calls'
        struct = LLVMStructType([*old.body, *types])
        fields = []
        for b in group:  # each call site's values, read before the kept body changes
            values: dict[int, A.Attribute] = {}
            for use, k in zip(b.constants, field_of):
                if k is not None:
                    values[k] = _value(use)
            fields.append([values[k] for k in range(len(types))])
        _load_fields(keep, struct, len(old.body), field_of)
        for b, values in zip(group, fields):  # type: ignore[assignment]
            _store_fields(b, struct, len(old.body), values)  # type: ignore[arg-type]
    name = keep.func.get_attr("sym_name")
    for b in group[1:]:
        b.address.set_attr("global_name", A.SymbolRefAttr(name.value))  # type: ignore[union-attr]
    return [b.func for b in group[1:]]


def _value(use: OpOperand) -> A.Attribute:
    return use.value.defining_op().get_attr("value")  # type: ignore[union-attr]


def _field_ptr(base: Value, struct: A.Type, k: int, location: Any) -> Operation:
    attrs = {
        "rawConstantIndices": A.DenseArrayAttr(A.i32, [0, k]),
        "elem_type": A.TypeAttr(struct),
    }
    return llvm.GEPOp.create([base], [PTR], attrs, location=location)


def _load_fields(body: _Body, struct: A.Type, first: int, field_of: list[int | None]) -> None:
    """In the kept body: load the new fields at entry, use them instead of the constants."""
    entry = body.func.regions[0].blocks[0]
    ctx = entry.arguments[2]
    anchor = entry.ops[0]
    loaded: dict[int, Value] = {}
    replaced: set[Operation] = set()
    for use, k in zip(body.constants, field_of):
        if k is None:
            continue
        v = loaded.get(k)
        if v is None:
            loc = body.func.location
            p = _field_ptr(ctx, struct, first + k, loc)
            load = llvm.LoadOp.create([p.results[0]], [use.value.type], location=loc)
            entry.insert_before(p, anchor)
            entry.insert_before(load, anchor)
            v = loaded[k] = load.results[0]
        replaced.add(use.value.defining_op())  # type: ignore[arg-type]
        use.set(v)
    for c in replaced:
        if not c.results[0].has_uses():
            c.erase()


def _store_fields(body: _Body, struct: A.Type, first: int, values: list[A.Attribute]) -> None:
    """Before the body's address is taken (which dominates its calls): a context slot of type
    `struct` holding `values` after the captured ones."""
    alloca, anchor = body.alloca, body.address
    alloca.set_attr("elem_type", A.TypeAttr(struct))  # type: ignore[union-attr]
    block = anchor.parent
    for j, value in enumerate(values):
        loc = body.call.location
        c = llvm.ConstantOp.create([], [value.type], {"value": value}, location=loc)  # type: ignore[attr-defined]
        p = _field_ptr(alloca.results[0], struct, first + j, loc)  # type: ignore[union-attr]
        store = llvm.StoreOp.create([c.results[0], p.results[0]], [], location=loc)
        for op in (c, p, store):
            block.insert_before(op, anchor)  # type: ignore[union-attr]
