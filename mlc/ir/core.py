"""The SSA IR core: values with use-lists, operations, blocks (intrusive op lists) and regions.

Everything here is plain, slotted and free of dialect knowledge, so that it could be compiled
natively later without an API change. Op *definitions* (operands, traits, verifiers) live in
`mlc.ir.opdef`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mlc.ir.attributes import Attribute, Location, Type

__all__ = [
    "Value",
    "OpResult",
    "BlockArgument",
    "OpOperand",
    "Operation",
    "Block",
    "Region",
    "IRError",
]

_EMPTY: tuple = ()

UNNAMED = "<<UNKNOWN SSA VALUE>>"
"""What `Value._name` holds outside a print session (MLIR's marker for an unnamed value)."""


class IRError(Exception):
    """Misuse of the IR API (erasing an op with uses, inserting an op twice, ...)."""


# ---------------------------------------------------------------------------------------------
# Values and uses


class OpOperand:
    """One use of a value: operand `index` of `owner`, linked into the value's use-list."""

    __slots__ = ("value", "owner", "index", "_prev", "_next")

    def __init__(self, value: Value, owner: Operation, index: int) -> None:
        self.value = value
        self.owner = owner
        self.index = index
        self._prev: OpOperand | None = None
        nxt = value._first_use
        self._next = nxt
        if nxt is not None:
            nxt._prev = self
        value._first_use = self

    def _unlink(self) -> None:
        prev, nxt = self._prev, self._next
        if prev is None:
            self.value._first_use = nxt
        else:
            prev._next = nxt
        if nxt is not None:
            nxt._prev = prev
        self._prev = self._next = None

    def set(self, value: Value) -> None:
        """Make this operand use `value` instead (O(1))."""
        if value is self.value:
            return
        self._unlink()
        self.value = value
        nxt = value._first_use
        self._next = nxt
        if nxt is not None:
            nxt._prev = self
        value._first_use = self

    def __repr__(self) -> str:
        return f"<OpOperand #{self.index} of {self.owner.name}>"


class Value:
    """An SSA value: the result of an operation or an argument of a block."""

    # Scratch for two walks, kept on the value so that they need no table keyed by value:
    # `_stamp` for the verifier's dominance checks (mlc.verifier), `_name` for the printer's
    # SSA name during a print session (mlc.syntax.printer; UNNAMED otherwise).
    __slots__ = ("type", "_first_use", "_stamp", "_name")

    def __init__(self, type: Type) -> None:  # noqa: A002 - MLIR's name
        self.type = type
        self._first_use: OpOperand | None = None
        self._stamp = None
        self._name = UNNAMED

    @property
    def uses(self) -> Iterator[OpOperand]:
        """The uses of this value; safe against unlinking the use just yielded."""
        use = self._first_use
        while use is not None:
            nxt = use._next
            yield use
            use = nxt

    @property
    def users(self) -> Iterator[Operation]:
        """Operations using this value (an op using it twice appears twice)."""
        use = self._first_use
        while use is not None:
            nxt = use._next
            yield use.owner
            use = nxt

    def has_uses(self) -> bool:
        return self._first_use is not None

    def has_one_use(self) -> bool:
        use = self._first_use
        return use is not None and use._next is None

    def num_uses(self) -> int:
        n = 0
        use = self._first_use
        while use is not None:
            n += 1
            use = use._next
        return n

    def replace_all_uses_with(self, new: Value) -> None:
        """Redirect every use of this value to `new` (O(uses))."""
        if new is self:
            return
        use = self._first_use
        if use is None:
            return
        last = use
        while True:
            last.value = new
            if last._next is None:
                break
            last = last._next
        # Splice the whole chain in front of new's use-list.
        old_first = new._first_use
        last._next = old_first
        if old_first is not None:
            old_first._prev = last
        new._first_use = use
        self._first_use = None

    def replace_uses_with_if(self, new: Value, pred: Callable[[OpOperand], bool]) -> None:
        for use in list(self.uses):
            if pred(use):
                use.set(new)

    @property
    def owner(self) -> Operation | Block:
        raise NotImplementedError

    def defining_op(self) -> Operation | None:
        return None

    def parent_block(self) -> Block | None:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} : {self.type}>"


class OpResult(Value):
    """Result number `index` of operation `op`."""

    # `_pad` is unused: it makes a result 96 bytes, a size of its own for CPython's allocator,
    # so the results of a parsed block lie contiguous instead of between its operands (the
    # verifier and the printer reach the value of each operand: at 100k ops, a printed chain
    # with random uses costs 2.8 us per op this way against 3.2).
    __slots__ = ("op", "index", "_pad")

    def __init__(self, type: Type, op: Operation, index: int) -> None:  # noqa: A002
        self.type = type
        self._first_use = None
        self._stamp = None
        self._name = UNNAMED
        self.op = op
        self.index = index

    @property
    def owner(self) -> Operation:
        return self.op

    def defining_op(self) -> Operation:
        return self.op

    def parent_block(self) -> Block | None:
        return self.op.parent


class BlockArgument(Value):
    """Argument number `index` of `block`."""

    __slots__ = ("block", "index", "location")

    def __init__(
        self,
        type: Type,
        block: Block,
        index: int,
        location: Location | None = None,  # noqa: A002
    ) -> None:
        self.type = type
        self._first_use = None
        self._stamp = None
        self._name = UNNAMED
        self.block = block
        self.index = index
        self.location = location

    @property
    def owner(self) -> Block:
        return self.block

    def parent_block(self) -> Block:
        return self.block


# ---------------------------------------------------------------------------------------------
# Operations


class Operation:
    """An operation. Registered ops are subclasses made by `mlc.ir.opdef.Op`.

    Slots are public for speed on hot paths; mutate operands through `set_operand(s)` and the
    op list through the block/op methods so that use-lists and links stay consistent.
    `attributes` holds inherent (property) and discardable attributes alike; the op class says
    which names are inherent (`_prop_names`).
    """

    __slots__ = (
        "_operands",
        "results",
        "_attrs",
        "regions",
        "successors",
        "parent",
        "prev",
        "next",
        "location",
    )

    name: str = ""
    # Class-level facts, precomputed by the op definition machinery.
    _prop_names: frozenset[str] = frozenset()
    # Default-valued properties. A property holding its default is not stored (MLIR keeps
    # properties inline; a dict per op would cost more than the op), so it reads as the default.
    _prop_defaults: dict[str, Attribute] = {}
    _is_terminator = False
    _is_isolated = False
    _has_symbol_table = False
    _is_registered = False
    _traits: frozenset = frozenset()

    def __init__(self) -> None:
        raise TypeError("create operations with Operation.create(...) or an op class's build")

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        operands: Sequence[Value] = _EMPTY,
        result_types: Sequence[Type] = _EMPTY,
        attributes: dict[str, Attribute] | None = None,
        regions: Sequence[Region] | int = _EMPTY,
        successors: Sequence[Block] = _EMPTY,
        location: Location | None = None,
        name: str | None = None,
    ) -> Operation:
        """Create a detached op of this class (the one construction path everything uses).

        `regions` is either regions to take (they must be detached) or a count of empty
        regions to create. `name` is only for unregistered ops.
        """
        op = object.__new__(cls)
        if name is not None:
            if cls._is_registered:
                raise IRError(f"cannot rename registered op '{cls.name}'")
            op.name = name  # type: ignore[misc]  (UnregisteredOp has a name slot)
            op._unreg_props = frozenset()  # type: ignore[attr-defined]
        op._operands = tuple([OpOperand(v, op, i) for i, v in enumerate(operands)])
        op.results = tuple([OpResult(t, op, i) for i, t in enumerate(result_types)])
        if attributes:
            defaults = cls._prop_defaults
            if defaults:
                for key, value in defaults.items():
                    if attributes.get(key) is value:
                        del attributes[key]
            op._attrs = attributes or None
        else:
            op._attrs = None
        if type(regions) is int:
            regions = [Region() for _ in range(regions)]
        if regions:
            for r in regions:
                if r.parent is not None:
                    raise IRError("region is already attached to an operation")
                r.parent = op
            op.regions = tuple(regions)
        else:
            op.regions = _EMPTY
        op.successors = list(successors) if successors else _EMPTY
        op.parent = None
        op.prev = None
        op.next = None
        if location is None:
            from mlc.ir.attributes import UnknownLoc

            location = UnknownLoc()
        op.location = location
        return op

    # -- operands -------------------------------------------------------------------------------

    @property
    def operands(self) -> tuple[Value, ...]:
        return tuple([u.value for u in self._operands])

    @property
    def op_operands(self) -> tuple[OpOperand, ...]:
        return self._operands

    @property
    def num_operands(self) -> int:
        return len(self._operands)

    def operand(self, i: int) -> Value:
        return self._operands[i].value

    def set_operand(self, i: int, value: Value) -> None:
        self._operands[i].set(value)

    def set_operands(self, values: Sequence[Value]) -> None:
        """Replace the whole operand list (the count may change)."""
        for u in self._operands:
            u._unlink()
        self._operands = tuple([OpOperand(v, self, i) for i, v in enumerate(values)])

    def drop_all_uses_of_operands(self) -> None:
        for u in self._operands:
            u._unlink()
        self._operands = _EMPTY

    # -- results --------------------------------------------------------------------------------

    @property
    def num_results(self) -> int:
        return len(self.results)

    @property
    def result(self) -> OpResult:
        """The single result (raises if the op has not exactly one)."""
        res = self.results
        if len(res) != 1:
            raise IRError(f"'{self.name}' has {len(res)} results, not one")
        return res[0]

    @property
    def result_types(self) -> tuple[Type, ...]:
        return tuple([r.type for r in self.results])

    def has_uses(self) -> bool:
        for r in self.results:
            if r._first_use is not None:
                return True
        return False

    def replace_all_uses_with(self, values: Sequence[Value] | Operation) -> None:
        if isinstance(values, Operation):
            values = values.results
        if len(values) != len(self.results):
            raise IRError(
                f"replacing '{self.name}' with {len(values)} values for {len(self.results)} results"
            )
        for r, v in zip(self.results, values):
            r.replace_all_uses_with(v)

    # -- attributes -----------------------------------------------------------------------------

    @property
    def attributes(self) -> dict[str, Attribute]:
        """Stored attributes (inherent and discardable), mutable in place.

        Properties at their default value are not stored; `get_attr` and `properties` fill them in.
        """
        attrs = self._attrs
        if attrs is None:
            attrs = self._attrs = {}
        return attrs

    @attributes.setter
    def attributes(self, value: dict[str, Attribute]) -> None:
        """Replace all attributes (default-valued properties may be left out)."""
        self._attrs = value if value else None

    def get_attr(self, name: str) -> Attribute | None:
        """The attribute `name`; an absent default-valued property reads as its default."""
        attrs = self._attrs
        if attrs is not None:
            value = attrs.get(name)
            if value is not None:
                return value
        return self._prop_defaults.get(name)

    def set_attr(self, name: str, value: Attribute) -> None:
        if self._attrs is None:
            self._attrs = {name: value}
        else:
            self._attrs[name] = value

    def remove_attr(self, name: str) -> Attribute | None:
        attrs = self._attrs
        if attrs is None:
            return None
        return attrs.pop(name, None)

    @property
    def properties(self) -> dict[str, Attribute]:
        """Inherent attributes (MLIR's properties) including defaults, a fresh dict."""
        props = dict(self._prop_defaults)
        attrs = self._attrs
        if attrs:
            names = self._prop_names
            props.update((k, v) for k, v in attrs.items() if k in names)
        return props

    @property
    def discardable_attributes(self) -> dict[str, Attribute]:
        attrs = self._attrs
        if not attrs:
            return {}
        props = self._prop_names
        return {k: v for k, v in attrs.items() if k not in props}

    # -- structure ------------------------------------------------------------------------------

    @property
    def dialect_name(self) -> str:
        return self.name.partition(".")[0]

    @property
    def region(self) -> Region:
        """The single region (raises if the op has not exactly one)."""
        if len(self.regions) != 1:
            raise IRError(f"'{self.name}' has {len(self.regions)} regions, not one")
        return self.regions[0]

    @property
    def parent_region(self) -> Region | None:
        block = self.parent
        return None if block is None else block.parent

    @property
    def parent_op(self) -> Operation | None:
        block = self.parent
        if block is None:
            return None
        region = block.parent
        return None if region is None else region.parent

    def parent_of_type(self, cls: type) -> Operation | None:
        op = self.parent_op
        while op is not None and not isinstance(op, cls):
            op = op.parent_op
        return op

    def is_ancestor(self, other: Operation) -> bool:
        """True when `other` is this op or nested (at any depth) in it."""
        op: Operation | None = other
        while op is not None:
            if op is self:
                return True
            op = op.parent_op
        return False

    def is_before_in_block(self, other: Operation) -> bool:
        """True when this op comes before `other` in their common block (O(distance))."""
        if self.parent is not other.parent or self.parent is None:
            raise IRError("ops are not in the same block")
        a, b = self, other
        # Walk from both ends in lock step so the cost is bounded by the distance between them.
        fa, fb = a.next, b.next
        while True:
            if fa is b:
                return True
            if fb is a:
                return False
            if fa is None:
                return False
            if fb is None:
                return True
            fa, fb = fa.next, fb.next

    def has_trait(self, trait: type) -> bool:
        return trait in self._traits

    # -- list manipulation ----------------------------------------------------------------------

    def detach(self) -> Operation:
        """Unlink from the parent block (O(1)); the op keeps its operands and regions."""
        block = self.parent
        if block is None:
            return self
        prev, nxt = self.prev, self.next
        if prev is None:
            block.first = nxt
        else:
            prev.next = nxt
        if nxt is None:
            block.last = prev
        else:
            nxt.prev = prev
        self.prev = self.next = None
        self.parent = None
        block._len -= 1
        return self

    def erase(self, *, drop_uses: bool = False) -> None:
        """Detach and destroy this op: drop its operand uses and erase nested ops.

        The op's results must have no uses left unless `drop_uses` (then the uses are left
        pointing at a dead value, which is the caller's responsibility to fix).
        """
        if not drop_uses and self.has_uses():
            user = next(u.owner for r in self.results for u in r.uses)
            raise IRError(
                f"cannot erase '{self.name}': its results are still used by '{user.name}'"
            )
        self.detach()
        self.drop_all_references()

    def drop_all_references(self) -> None:
        """Drop operand uses here and in all nested ops (so regions can be freed in any order)."""
        for u in self._operands:
            u._unlink()
        self._operands = _EMPTY
        for region in self.regions:
            for block in region.blocks:
                op = block.first
                while op is not None:
                    op.drop_all_references()
                    op = op.next
                for arg in block.arguments:
                    arg._first_use = None
        if self.successors:
            self.successors = _EMPTY

    def move_before(self, other: Operation) -> None:
        self.detach()
        other.parent.insert_before(self, other)  # type: ignore[union-attr]

    def move_after(self, other: Operation) -> None:
        self.detach()
        other.parent.insert_after(self, other)  # type: ignore[union-attr]

    # -- traversal ------------------------------------------------------------------------------

    def walk(self, *, post_order: bool = True) -> Iterator[Operation]:
        """Yield this op and every nested op (post-order by default, like MLIR's walk).

        Erasing or moving the op just yielded is safe: the next op is fetched before yielding.
        In pre-order, an op erased when yielded is not descended into.
        """
        if post_order:
            yield from _walk_post(self)
        else:
            yield from _walk_pre(self)

    def ops_in_regions(self) -> Iterator[Operation]:
        """Ops directly in this op's regions (one level, no recursion)."""
        for region in self.regions:
            for block in region.blocks:
                yield from block

    # -- cloning --------------------------------------------------------------------------------

    def clone(self, mapping: dict[Any, Any] | None = None) -> Operation:
        """Deep copy. `mapping` maps old values/blocks to new ones; it is filled as we go.

        Operands not in the mapping keep referring to the original values (values defined
        above the cloned op).
        """
        if mapping is None:
            mapping = {}
        pending: list[OpOperand] = []
        new = self._clone(mapping, pending)
        _resolve_pending(mapping, pending)
        return new

    def _clone(self, mapping: dict[Any, Any], pending: list[OpOperand]) -> Operation:
        get = mapping.get
        new = object.__new__(type(self))
        if not self._is_registered:
            new.name = self.name  # type: ignore[misc]
            new._unreg_props = self._unreg_props  # type: ignore[attr-defined]
        operands = []
        for i, u in enumerate(self._operands):
            v = get(u.value)
            if v is None:
                # Possibly a forward reference (graph region, later block): re-checked at the end.
                operand = OpOperand(u.value, new, i)
                pending.append(operand)
            else:
                operand = OpOperand(v, new, i)
            operands.append(operand)
        new._operands = tuple(operands)
        new.results = tuple([OpResult(r.type, new, r.index) for r in self.results])
        for old_r, new_r in zip(self.results, new.results):
            mapping[old_r] = new_r
        new._attrs = dict(self._attrs) if self._attrs else None
        new.parent = new.prev = new.next = None
        new.location = self.location
        if self.regions:
            regions = []
            for r in self.regions:
                nr = Region()
                nr.parent = new
                r._clone_into(nr, mapping, pending)
                regions.append(nr)
            new.regions = tuple(regions)
        else:
            new.regions = _EMPTY
        new.successors = [get(b, b) for b in self.successors] if self.successors else _EMPTY
        return new

    # -- printing and verification (implemented in mlc.syntax / mlc.verifier) -------------------

    def print(
        self,
        *,
        generic: bool = False,
        debuginfo: bool = False,
        local_scope: bool = False,
    ) -> str:
        """The textual form: custom syntax unless `generic`; locations with `debuginfo`."""
        from mlc.syntax.printer import print_op

        return print_op(self, generic=generic, debuginfo=debuginfo, local_scope=local_scope)

    def __str__(self) -> str:
        return self.print()

    def __repr__(self) -> str:
        return f"<{self.name} op at {id(self):#x}>"

    def verify(self) -> None:
        """Verify this op and everything nested; raise `mlc.VerifyError` on failure."""
        from mlc.verifier import verify

        verify(self)

    def error(self, message: str) -> Exception:
        """A VerifyError located at this op, with MLIR's "'name' op " prefix (to raise)."""
        from mlc.diagnostics import Diagnostic, VerifyError

        return VerifyError(Diagnostic("error", f"'{self.name}' op {message}", self.location))

    # Hooks for op classes (overridden by opdef-generated or user code).
    def verify_op(self) -> None:
        """Op-specific verification beyond the declared constraints (raise VerifyError)."""


_LEAF_BUILDERS: dict[tuple[int, int], Callable[..., Operation]] = {}


def leaf_op_builder(n_operands: int, n_results: int) -> Callable[..., Operation]:
    """`build(cls, v0, ..., t0, ..., location)`: a detached op of registered class `cls` with
    these operand values and result types and no attributes, regions or successors.

    What `Operation.create` does for such an op, unrolled for the counts and compiled once per
    pair (the parser's per-format fast paths build most ops of a module this way).
    """
    build = _LEAF_BUILDERS.get((n_operands, n_results))
    if build is not None:
        return build
    params = [f"v{i}" for i in range(n_operands)] + [f"t{i}" for i in range(n_results)]
    lines = [f"def build(cls, {''.join(p + ', ' for p in params)}location):", "    op = new(cls)"]
    for i in range(n_operands):
        # OpOperand.__init__, inline: link the use at the head of the value's use-list.
        lines += [
            f"    u{i} = new(OpOperand)",
            f"    u{i}.value = v{i}",
            f"    u{i}.owner = op",
            f"    u{i}.index = {i}",
            f"    u{i}._prev = None",
            f"    nxt = v{i}._first_use",
            f"    u{i}._next = nxt",
            "    if nxt is not None:",
            f"        nxt._prev = u{i}",
            f"    v{i}._first_use = u{i}",
        ]
    for i in range(n_results):
        lines += [
            f"    r{i} = new(OpResult)",
            f"    r{i}.type = t{i}",
            f"    r{i}._first_use = None",
            f"    r{i}._stamp = None",
            f"    r{i}._name = UNNAMED",
            f"    r{i}.op = op",
            f"    r{i}.index = {i}",
        ]
    uses = "".join(f"u{i}, " for i in range(n_operands))
    results = "".join(f"r{i}, " for i in range(n_results))
    lines += [
        f"    op._operands = ({uses})",
        f"    op.results = ({results})",
        "    op._attrs = None",
        "    op.regions = op.successors = EMPTY",
        "    op.parent = op.prev = op.next = None",
        "    op.location = location",
        "    return op",
    ]
    namespace: dict[str, Any] = {
        "new": object.__new__,
        "OpOperand": OpOperand,
        "OpResult": OpResult,
        "EMPTY": _EMPTY,
        "UNNAMED": UNNAMED,
    }
    exec(
        compile("\n".join(lines) + "\n", f"<leaf_op_builder{n_operands, n_results}>", "exec"),
        namespace,
    )
    build = _LEAF_BUILDERS[(n_operands, n_results)] = namespace["build"]
    return build


def _walk_post(op: Operation) -> Iterator[Operation]:
    # Ops without regions are yielded here rather than through a nested generator each: most
    # ops are leaves, and a generator per op was a third of a walk's cost.
    for region in op.regions:
        for block in list(region.blocks):
            child = block.first
            while child is not None:
                nxt = child.next
                if child.regions:
                    yield from _walk_post(child)
                else:
                    yield child
                child = nxt
    yield op


def _walk_pre(op: Operation, root: bool = True) -> Iterator[Operation]:
    yield op
    # A nested op erased (detached) when it was yielded is not descended into.
    if op.regions and (root or op.parent is not None):
        for region in op.regions:
            for block in list(region.blocks):
                child = block.first
                while child is not None:
                    nxt = child.next
                    if child.regions:
                        yield from _walk_pre(child, False)
                    else:
                        yield child
                    child = nxt


def _resolve_pending(mapping: dict[Any, Any], pending: list[OpOperand]) -> None:
    get = mapping.get
    for operand in pending:
        v = get(operand.value)
        if v is not None:
            operand.set(v)


class UnregisteredOp(Operation):
    """An op of an unknown dialect, kept and printed generically (`--allow-unregistered-dialect`).

    `_prop_names` records which of its attributes came in the properties dictionary `<{...}>`.
    """

    __slots__ = ("name", "_unreg_props")

    @classmethod
    def create_named(
        cls,
        name: str,
        operands: Sequence[Value] = _EMPTY,
        result_types: Sequence[Type] = _EMPTY,
        attributes: dict[str, Attribute] | None = None,
        regions: Sequence[Region] | int = _EMPTY,
        successors: Sequence[Block] = _EMPTY,
        location: Location | None = None,
        prop_names: frozenset[str] = frozenset(),
    ) -> UnregisteredOp:
        op = cls.create(operands, result_types, attributes, regions, successors, location, name)
        op._unreg_props = prop_names  # type: ignore[attr-defined]
        return op  # type: ignore[return-value]

    @property
    def _prop_names(self) -> frozenset[str]:  # type: ignore[override]
        return self._unreg_props


# ---------------------------------------------------------------------------------------------
# Blocks and regions


class Block:
    """A basic block: arguments and an intrusive doubly-linked list of operations."""

    __slots__ = ("arguments", "first", "last", "parent", "_len")

    def __init__(
        self, arg_types: Sequence[Type] = _EMPTY, arg_locs: Sequence[Location] | None = None
    ) -> None:
        self.arguments: list[BlockArgument] = [
            BlockArgument(t, self, i, arg_locs[i] if arg_locs else None)
            for i, t in enumerate(arg_types)
        ]
        self.first: Operation | None = None
        self.last: Operation | None = None
        self.parent: Region | None = None
        self._len = 0

    # -- arguments ------------------------------------------------------------------------------

    def add_argument(self, type: Type, location: Location | None = None) -> BlockArgument:  # noqa: A002
        arg = BlockArgument(type, self, len(self.arguments), location)
        self.arguments.append(arg)
        return arg

    def insert_argument(
        self, index: int, type: Type, location: Location | None = None
    ) -> BlockArgument:  # noqa: A002, E501
        arg = BlockArgument(type, self, index, location)
        self.arguments.insert(index, arg)
        for i in range(index + 1, len(self.arguments)):
            self.arguments[i].index = i
        return arg

    def erase_argument(self, index: int) -> None:
        arg = self.arguments[index]
        if arg._first_use is not None:
            raise IRError(f"cannot erase block argument #{index}: it still has uses")
        del self.arguments[index]
        for i in range(index, len(self.arguments)):
            self.arguments[i].index = i

    @property
    def arg_types(self) -> tuple[Type, ...]:
        return tuple([a.type for a in self.arguments])

    # -- the op list ----------------------------------------------------------------------------

    def __iter__(self) -> Iterator[Operation]:
        """Iterate ops in order; erasing or moving the op just yielded is safe."""
        op = self.first
        while op is not None:
            nxt = op.next
            yield op
            op = nxt

    def reversed(self) -> Iterator[Operation]:
        op = self.last
        while op is not None:
            prv = op.prev
            yield op
            op = prv

    def __len__(self) -> int:
        return self._len

    def __bool__(self) -> bool:
        return True

    @property
    def ops(self) -> list[Operation]:
        return list(self)

    def is_empty(self) -> bool:
        return self.first is None

    @property
    def terminator(self) -> Operation | None:
        """The last op if it is a terminator, else None."""
        last = self.last
        if last is not None and last._is_terminator:
            return last
        return None

    def append(self, op: Operation) -> Operation:
        """Insert `op` at the end (O(1)). The op must be detached."""
        if op.parent is not None:
            raise IRError(f"'{op.name}' is already in a block")
        op.parent = self
        last = self.last
        op.prev = last
        op.next = None
        if last is None:
            self.first = op
        else:
            last.next = op
        self.last = op
        self._len += 1
        return op

    def prepend(self, op: Operation) -> Operation:
        first = self.first
        if first is None:
            return self.append(op)
        return self.insert_before(op, first)

    def insert_before(self, op: Operation, anchor: Operation) -> Operation:
        """Insert detached `op` before `anchor`, which must be in this block."""
        if op.parent is not None:
            raise IRError(f"'{op.name}' is already in a block")
        if anchor.parent is not self:
            raise IRError("insertion anchor is not in this block")
        prev = anchor.prev
        op.parent = self
        op.prev = prev
        op.next = anchor
        anchor.prev = op
        if prev is None:
            self.first = op
        else:
            prev.next = op
        self._len += 1
        return op

    def insert_after(self, op: Operation, anchor: Operation) -> Operation:
        nxt = anchor.next
        if nxt is None:
            if anchor.parent is not self:
                raise IRError("insertion anchor is not in this block")
            return self.append(op)
        return self.insert_before(op, nxt)

    def erase(self) -> None:
        """Detach from the region and drop everything inside."""
        for op in self.reversed():
            op.drop_all_references()
        if self.parent is not None:
            self.parent.blocks.remove(self)
            self.parent = None

    # -- structure ------------------------------------------------------------------------------

    @property
    def parent_op(self) -> Operation | None:
        region = self.parent
        return None if region is None else region.parent

    @property
    def successors(self) -> Sequence[Block]:
        term = self.last
        return term.successors if term is not None else _EMPTY

    @property
    def predecessors(self) -> list[Block]:
        """Blocks whose terminator branches here (scans the region: O(blocks))."""
        region = self.parent
        if region is None:
            return []
        return [b for b in region.blocks if b.last is not None and self in b.last.successors]

    def index_in_region(self) -> int:
        return self.parent.blocks.index(self)  # type: ignore[union-attr]

    def is_entry(self) -> bool:
        region = self.parent
        return region is not None and region.blocks[0] is self

    def split_before(self, op: Operation) -> Block:
        """Move `op` and everything after it into a new block inserted after this one."""
        new = Block()
        region = self.parent
        if region is not None:
            region.blocks.insert(region.blocks.index(self) + 1, new)
            new.parent = region
        cur: Operation | None = op
        while cur is not None:
            nxt = cur.next
            cur.detach()
            new.append(cur)
            cur = nxt
        return new

    def __repr__(self) -> str:
        return f"<Block with {len(self.arguments)} args, {self._len} ops>"


class Region:
    """An ordered list of blocks owned by an operation."""

    __slots__ = ("blocks", "parent")

    def __init__(self, blocks: Sequence[Block] = _EMPTY) -> None:
        self.blocks: list[Block] = []
        self.parent: Operation | None = None
        for b in blocks:
            self.add_block(b)

    def add_block(self, block: Block) -> Block:
        if block.parent is not None:
            raise IRError("block is already in a region")
        block.parent = self
        self.blocks.append(block)
        return block

    def insert_block(self, index: int, block: Block) -> Block:
        if block.parent is not None:
            raise IRError("block is already in a region")
        block.parent = self
        self.blocks.insert(index, block)
        return block

    @property
    def block(self) -> Block:
        """The single block (raises unless there is exactly one)."""
        if len(self.blocks) != 1:
            raise IRError(f"region has {len(self.blocks)} blocks, not one")
        return self.blocks[0]

    @property
    def entry(self) -> Block | None:
        return self.blocks[0] if self.blocks else None

    def is_empty(self) -> bool:
        return not self.blocks

    def __iter__(self) -> Iterator[Block]:
        return iter(self.blocks)

    def __len__(self) -> int:
        return len(self.blocks)

    def ops(self) -> Iterator[Operation]:
        """Ops directly in this region's blocks."""
        for block in self.blocks:
            yield from block

    def walk(self, *, post_order: bool = True) -> Iterator[Operation]:
        for block in list(self.blocks):
            op = block.first
            while op is not None:
                nxt = op.next
                yield from op.walk(post_order=post_order)
                op = nxt

    def take_body(self, other: Region) -> None:
        """Move all blocks of `other` into this (empty) region."""
        for b in other.blocks:
            b.parent = self
        self.blocks.extend(other.blocks)
        other.blocks = []

    def clone_into(self, dest: Region, mapping: dict[Any, Any] | None = None) -> None:
        """Append clones of this region's blocks to `dest`, remapping through `mapping`."""
        if mapping is None:
            mapping = {}
        pending: list[OpOperand] = []
        self._clone_into(dest, mapping, pending)
        _resolve_pending(mapping, pending)

    def _clone_into(self, dest: Region, mapping: dict[Any, Any], pending: list[OpOperand]) -> None:
        new_blocks = []
        # Map every block and its arguments first: terminators refer to later blocks.
        for b in self.blocks:
            nb = Block()
            nb.arguments = [BlockArgument(a.type, nb, a.index, a.location) for a in b.arguments]
            mapping[b] = nb
            for a, na in zip(b.arguments, nb.arguments):
                mapping[a] = na
            new_blocks.append(nb)
        for b, nb in zip(self.blocks, new_blocks):
            for op in b:
                nb.append(op._clone(mapping, pending))
            dest.add_block(nb)

    @property
    def parent_op(self) -> Operation | None:
        return self.parent

    def __repr__(self) -> str:
        return f"<Region with {len(self.blocks)} blocks>"
