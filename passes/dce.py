"""`dce`: erase trivially dead ops and unreachable blocks; `remove-dead-values`: also drop
unused arguments and results of private functions (and the matching call operands/results).
"""

from __future__ import annotations

from mlc.interfaces import call_like, callable_like, is_op_trivially_dead
from mlc.ir.attributes import ArrayAttr, DictionaryAttr, FunctionType, SymbolRefAttr, TypeAttr
from mlc.ir.core import Block, Operation, Region
from mlc.ir.opdef import ReturnLike
from mlc.ir.symbols import get_symbol_name, get_symbol_visibility, symbol_refs_in
from mlc.pass_manager import Pass, PassContext, Statistic


def erase_unreachable_blocks(region: Region) -> int:
    """Erase the blocks of `region` not reachable from its entry; return how many."""
    blocks = region.blocks
    if len(blocks) <= 1:
        return 0
    reachable = {blocks[0]}
    stack = [blocks[0]]
    while stack:
        b = stack.pop()
        if b.last is not None:
            for s in b.last.successors:
                if s not in reachable:
                    reachable.add(s)
                    stack.append(s)
    dead = [b for b in blocks if b not in reachable]
    if not dead:
        return 0
    for b in dead:
        for op in b.reversed():
            op.drop_all_references()
        for arg in b.arguments:
            arg._first_use = None
    region.blocks = [b for b in blocks if b in reachable]
    for b in dead:
        b.parent = None
    return len(dead)


class _DCE:
    """Bottom-up erasure: a block is scanned backwards (users before definitions), nested
    regions first; erasing an op queues the definers of its operands."""

    __slots__ = ("num_ops", "num_blocks", "worklist")

    def __init__(self) -> None:
        self.num_ops = 0
        self.num_blocks = 0
        self.worklist: list[Operation] = []

    def region(self, region: Region) -> None:
        self.num_blocks += erase_unreachable_blocks(region)
        for block in reversed(region.blocks):
            self.block(block)

    def block(self, block: Block) -> None:
        op = block.last
        while op is not None:
            prev = op.prev
            for r in op.regions:
                self.region(r)
            if is_op_trivially_dead(op):
                self.erase(op)
            op = prev

    def erase(self, op: Operation) -> None:
        definers = [u.value.op for u in op._operands if hasattr(u.value, "op")]  # type: ignore[attr-defined]
        op.erase()
        self.num_ops += 1
        self.worklist.extend(definers)

    def drain(self) -> None:
        worklist = self.worklist
        while worklist:
            op = worklist.pop()
            if op.parent is not None and is_op_trivially_dead(op):
                self.erase(op)


def dce(op: Operation) -> tuple[int, int]:
    """Erase dead ops and unreachable blocks in `op`'s regions; return (ops, blocks) erased."""
    d = _DCE()
    for r in op.regions:
        d.region(r)
    d.drain()
    return d.num_ops, d.num_blocks


class DCEPass(Pass):
    """Erase trivially dead operations and unreachable blocks."""

    name = "dce"
    num_ops = Statistic("num-erased", "Number of ops erased")
    num_blocks = Statistic("num-blocks-erased", "Number of unreachable blocks erased")

    def run(self, op: Operation, ctx: PassContext) -> None:
        n_ops, n_blocks = dce(op)
        self.num_ops += n_ops
        self.num_blocks += n_blocks


# ---------------------------------------------------------------------------------------------
# remove-dead-values


def _filter_array(attr: object, keep: list[bool]) -> object:
    if type(attr) is not ArrayAttr or len(attr) != len(keep):  # type: ignore[arg-type]
        return attr
    return ArrayAttr([a for a, k in zip(attr, keep) if k])  # type: ignore[attr-defined]


def _rebuild_call(call: Operation, keep_args: list[bool], keep_results: list[bool]) -> Operation:
    """A copy of `call` without the dropped operands/results, replacing it in place."""
    operands = [v for v, k in zip(call.operands, keep_args) if k]
    result_types = [r.type for r, k in zip(call.results, keep_results) if k]
    attrs = dict(call._attrs) if call._attrs else None
    new = type(call).create(operands, result_types, attrs, (), call.successors, call.location)
    call.parent.insert_before(new, call)  # type: ignore[union-attr]
    kept = iter(new.results)
    for r, k in zip(call.results, keep_results):
        if k:
            r.replace_all_uses_with(next(kept))
    call.erase()
    return new


_REF_HOLDERS = (SymbolRefAttr, ArrayAttr, DictionaryAttr)


class _RemoveDeadValues(_DCE):
    """`_DCE`'s bottom-up walk that also gathers what the signature analysis needs, so the
    module is walked once: the callable symbols directly in the module (`funcs`) and the ops
    holding symbol references outside nested symbol tables (`holders`, as
    `walk_symbol_table` would yield them). Every op is touched once; the signature changes
    afterwards only queue the definers of the values they drop (`drain`)."""

    __slots__ = ("funcs", "holders", "stale")

    def __init__(self) -> None:
        super().__init__()
        # (op, name, private) per callable symbol, read while the walk has the op at hand.
        self.funcs: list[tuple[Operation, str, bool]] = []
        self.holders: list[Operation] = []
        # Whether a gathered holder may have been erased since (then each is checked).
        self.stale = False

    def walk_module(self, module: Operation) -> None:
        for region in module.regions:
            self.num_blocks += erase_unreachable_blocks(region)
            for block in reversed(region.blocks):
                self.collect_block(block, True)
        n = self.num_ops
        self.drain()
        if self.num_ops != n:
            self.stale = True
        self.funcs.reverse()  # module order, as the analysis reads them
        self.holders.reverse()

    def collect_region(self, region: Region, in_table: bool) -> None:
        self.num_blocks += erase_unreachable_blocks(region)
        for block in reversed(region.blocks):
            self.collect_block(block, False, in_table)

    def collect_block(self, block: Block, top: bool, in_table: bool = True) -> None:
        holders, funcs = self.holders, self.funcs
        op = block.last
        while op is not None:
            prev = op.prev
            if op.regions:
                # A nested symbol table's own references are not this table's: only the
                # table op itself is looked at (walk_symbol_table's rule).
                nested = in_table and not op._has_symbol_table
                for r in op.regions:
                    if nested:
                        self.collect_region(r, True)
                    else:
                        self.region(r)
            if is_op_trivially_dead(op):
                if op.regions:
                    self.stale = True  # holders nested in it were gathered already
                self.erase(op)
            else:
                attrs = op._attrs
                if in_table and attrs:
                    for value in attrs.values():
                        if type(value) in _REF_HOLDERS:
                            holders.append(op)
                            break
                if top:
                    name = get_symbol_name(op)
                    if name is not None and callable_like(op) is not None:
                        funcs.append((op, name, get_symbol_visibility(op) == "private"))
            op = prev


def _alive(op: Operation, root: Operation) -> bool:
    """`op` is still nested in `root` (the drain may have erased it or an ancestor)."""
    while op is not root:
        block = op.parent
        if block is None or block.parent is None or block.parent.parent is None:
            return False
        op = block.parent.parent
    return True


def _queue_definers(d: _DCE, values: list[object]) -> None:
    d.worklist.extend(v.op for v in values if hasattr(v, "op"))  # type: ignore[attr-defined]


def _remove_dead_signature(module: Operation, d: _RemoveDeadValues) -> tuple[int, int]:
    """Drop unused arguments / never-used results of private functions called only directly.

    `d` has walked the module (dead code erased, functions and symbol users gathered); the ops
    the changes make dead are erased through its worklist."""
    # name -> the function; None for one whose signature must stay (not private).
    funcs: dict[str, Operation | None] = {}
    for op, name, private in d.funcs:
        funcs[name] = op if private else None
    if not funcs:
        return 0, 0
    # Every reference to a function: from a call's callee (ok), or anything else (pins it).
    calls: dict[str, list[Operation]] = {n: [] for n, f in funcs.items() if f is not None}
    pinned: set[str] = set()
    stale = d.stale
    for op in d.holders:
        if stale and (op.parent is None or not _alive(op, module)):
            continue
        call = call_like(op)
        callee = call.callee_ref() if call is not None else None
        for value in op._attrs.values():  # type: ignore[union-attr]
            for ref in symbol_refs_in(value):
                if funcs.get(ref.root) is None:
                    continue
                if value is callee and type(callee) is SymbolRefAttr and not callee.nested:
                    calls[ref.root].append(op)
                else:
                    pinned.add(ref.root)
    n_args = n_results = 0
    for name, f in funcs.items():
        if f is None or name in pinned:
            continue
        region = callable_like(f).callable_region()
        if region is None:
            continue
        entry = region.blocks[0]
        fattr = f.get_attr("function_type")
        wrapped = type(fattr) is TypeAttr  # func.func keeps a TypeAttr, as MLIR
        ftype = fattr.value if wrapped else fattr  # type: ignore[union-attr]
        if type(ftype) is not FunctionType or len(ftype.inputs) != len(entry.arguments):
            continue
        sites = calls[name]
        keep_results = [
            any(c.results[i].has_uses() for c in sites) for i in range(len(ftype.results))
        ]
        returns = [
            b.last
            for b in region.blocks
            if b.last is not None and ReturnLike in type(b.last)._traits
        ]
        if any(len(r._operands) != len(keep_results) for r in returns):
            continue
        if not all(keep_results):
            # Drop the dead results first: what computed them may be all that used an argument.
            for ret in returns:
                operands = ret.operands
                ret.set_operands([v for v, k in zip(operands, keep_results) if k])
                _queue_definers(d, [v for v, k in zip(operands, keep_results) if not k])
            d.drain()
        keep_args = [a.has_uses() for a in entry.arguments]
        if all(keep_args) and all(keep_results):
            continue
        for i in reversed(range(len(keep_args))):
            if not keep_args[i]:
                entry.erase_argument(i)
        new_type = FunctionType(
            [t for t, k in zip(ftype.inputs, keep_args) if k],
            [t for t, k in zip(ftype.results, keep_results) if k],
        )
        f.set_attr("function_type", TypeAttr(new_type) if wrapped else new_type)
        for key, keep in (("arg_attrs", keep_args), ("res_attrs", keep_results)):
            old = f.get_attr(key)
            if old is not None:
                f.set_attr(key, _filter_array(old, keep))  # type: ignore[arg-type]
        for c in sites:
            if len(c._operands) == len(keep_args) and len(c.results) == len(keep_results):
                dropped = [v for v, k in zip(c.operands, keep_args) if not k]
                _rebuild_call(c, keep_args, keep_results)
                # What only fed the dropped operands is dead now.
                _queue_definers(d, dropped)
        n_args += keep_args.count(False)
        n_results += keep_results.count(False)
    d.drain()
    return n_args, n_results


class RemoveDeadValuesPass(Pass):
    """Remove dead values: dead ops and blocks, unused function arguments and results.

    Arguments and results are removed from private functions whose only uses are direct calls
    (the call sites are updated)."""

    name = "remove-dead-values"
    num_ops = Statistic("num-erased", "Number of ops erased")
    num_args = Statistic("num-args-removed", "Number of function arguments removed")
    num_results = Statistic("num-results-removed", "Number of function results removed")

    def run(self, op: Operation, ctx: PassContext) -> None:
        if not op._has_symbol_table:
            n_ops, _ = dce(op)
            self.num_ops += n_ops
            return
        # One walk: dead code goes and the signature analysis' inputs are gathered; the
        # signature changes then erase what they made dead through the same worklist.
        d = _RemoveDeadValues()
        d.walk_module(op)
        n_args, n_results = _remove_dead_signature(op, d)
        self.num_args += n_args
        self.num_results += n_results
        self.num_ops += d.num_ops
