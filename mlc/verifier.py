"""The IR verifier: op definitions and traits, blocks and terminators, successors, SSA dominance,
isolation from above, symbol tables and symbol uses; MLIR's rules, order and wording.

    mlc.verifier.verify(module)           # raises mlc.VerifyError
    errors = mlc.verifier.collect_errors(module)

Like MLIR's OperationVerifier, each op that is isolated from above is verified on its own: a
failure stops the verification of the enclosing isolated op, but sibling isolated ops (the
functions of a module) are all verified, so one run can report one error per function.
Everything is iterative: no Python recursion, whatever the nesting depth.
"""

from __future__ import annotations

import gc
import itertools
from collections.abc import Callable, Generator
from typing import Any, NoReturn

from mlc.diagnostics import Diagnostic, VerifyError
from mlc.ir import opdef
from mlc.ir.attributes import StringAttr, SymbolRefAttr, UnitAttr, UnknownLoc
from mlc.ir.core import Block, BlockArgument, Operation, OpResult, Region
from mlc.ir.opdef import GraphRegions, NoTerminator, Symbol, SymbolUserOpInterface, Terminator

__all__ = ["verify", "collect_errors", "DominanceInfo"]


def verify(op: Operation, *, print_op_on_diagnostic: bool = False) -> None:
    """Verify `op` and everything nested in it; raise `mlc.VerifyError` on failure.

    The error's `diagnostics` are those MLIR would report (the first is `.diagnostic`). With
    `print_op_on_diagnostic`, errors at an op carry a note `see current operation: ...` (the
    op in generic form), as `mlir-opt` prints by default.
    """
    errors = collect_errors(op, print_op_on_diagnostic=print_op_on_diagnostic)
    if errors:
        raise VerifyError(errors)


def collect_errors(op: Operation, *, print_op_on_diagnostic: bool = False) -> list[Diagnostic]:
    """The verification errors of `op` (empty when it is valid), without raising."""
    # The cyclic GC is paused as in the parser: the walk allocates many small objects, and
    # collections over a large module would make verification superlinear.
    gc_enabled = gc.isenabled()
    gc.disable()
    try:
        return _collect_errors(op, print_op_on_diagnostic)
    finally:
        if gc_enabled:
            gc.enable()


def _collect_errors(op: Operation, print_op_on_diagnostic: bool) -> list[Diagnostic]:
    verifier = _Verifier(print_op_on_diagnostic)
    # A trampoline over per-isolated-op generators: a walk yields each nested isolated op it
    # needs verified and receives the result, so nesting depth costs heap, not Python stack.
    stack: list[Generator[tuple[Operation, Operation | None], bool, bool]] = [
        verifier.run(op, None)
    ]
    result: Any = None
    while stack:
        try:
            child, table = stack[-1].send(result)
        except StopIteration as stop:
            stack.pop()
            result = stop.value
            continue
        stack.append(verifier.run(child, table))
        result = None
    return verifier.errors


# ---------------------------------------------------------------------------------------------
# Per-class facts, computed once per op class


class _Info:
    """What the verifier needs to know about an op class."""

    __slots__ = (
        "entry",
        "exit",
        "is_user",
        "is_symbol",
        "graph",
        "no_terminator",
        "may_terminate",
    )

    def __init__(self, cls: type[Operation]) -> None:
        registered = cls._is_registered
        traits = cls._traits
        entry: list[Callable[[Operation], None]] = []
        exit_: list[Callable[[Operation], None]] = []
        if registered:
            verify_defs = getattr(cls, "_verify_defs", None)
            trait_verifiers = list(getattr(cls, "_trait_verifiers", ()))
            if verify_defs is opdef.Op._verify_defs:
                check, inlined = _compile_defs(cls, trait_verifiers[0] if trait_verifiers else None)
                entry.append(check)
                if inlined:
                    del trait_verifiers[0]
            elif verify_defs is not None:
                entry.append(verify_defs)
            entry.extend(trait_verifiers)
            if Terminator in traits:
                entry.append(_verify_is_terminator)
            if Symbol in traits:
                entry.append(_verify_symbol)
            if cls.verify_op is not Operation.verify_op:
                entry.append(cls.verify_op)
            verify_regions = getattr(cls, "verify_regions", None)
            if verify_regions is not None:
                exit_.append(verify_regions)
        self.entry = tuple(entry)
        self.exit = tuple(exit_)
        self.is_user = isinstance(cls, type) and issubclass(cls, SymbolUserOpInterface)
        # MLIR's SymbolOpInterface: the Symbol trait, or an optional symbol name (builtin.module);
        # an unregistered op's `sym_name` does not make it a symbol.
        self.is_symbol = registered and (Symbol in traits or "sym_name" in cls._prop_names)
        # MLIR: single-block regions of unregistered ops have no SSA dominance; registered ops
        # opt out with RegionKindInterface (here: the GraphRegions trait).
        self.graph = not registered or GraphRegions in traits
        # mightHaveTrait<NoTerminator> / mightHaveTrait<IsTerminator>: unknown ops might.
        self.no_terminator = not registered or NoTerminator in traits
        self.may_terminate = not registered or cls._is_terminator


_INFO: dict[type, _Info] = {}

# ---------------------------------------------------------------------------------------------
# A generated fast path for the structural checks of an op definition.
#
# `opdef._verify_structure` interprets the definition per op (about 25 Python calls for
# arith.addi). The check below is generated once per class and does the same work in one call:
# operand and result counts by tuple unpacking, constraints through a per-constraint memo of
# the types (or attributes) that passed, which is sound because types and attributes are
# uniqued and immutable. On any doubt it calls `_verify_structure`, which raises with the
# precise message, so the two can never disagree on an invalid op.

_ACCEPTED: dict[Any, set] = {}
_NO_ATTRS: dict = {}
_ABSENT = object()  # what a generated check's `attrs.get` returns for a missing property


# Attribute constraints checked inline by class (names unique per op, such as `sym_name` or a
# callee, would only fill a memo that never hits).
_INLINE_ATTR_CHECKS: dict[Any, str] = {
    opdef.StrAttr: "type(t) is _StringAttr",
    opdef.FlatSymbolRefAttrC: "type(t) is _SymbolRefAttr and not t.nested",
    opdef.SymbolRefAttrC: "type(t) is _SymbolRefAttr",
    opdef.UnitAttrC: "type(t) is _UnitAttr",
}


def _memo(accepted: set, constraint: Any, value: Any) -> bool:
    if constraint.check(value):
        accepted.add(value)
        return True
    return False


# Trait verifiers the generated check can do itself when they come first (same order of
# errors): the same type for operands and results, checked on the unpacked values.
_INLINE_TRAITS = {
    opdef.SameOperandsAndResultType.verify: True,
    opdef.SameTypeOperands.verify: False,
}


def _compile_defs(
    cls: type, first_trait: Callable[[Operation], None] | None
) -> tuple[Callable[[Operation], None], bool]:
    """The generated structural check of `cls`, and whether it also does `first_trait`."""
    slow = opdef._verify_structure
    ns: dict[str, Any] = {
        "_slow": slow, "_memo": _memo, "_NO_ATTRS": _NO_ATTRS, "_ABSENT": _ABSENT,
        "_StringAttr": StringAttr, "_SymbolRefAttr": SymbolRefAttr, "_UnitAttr": UnitAttr,
    }  # fmt: skip
    lines = ["def check(op):"]

    def emit(line: str, indent: int = 1) -> None:
        lines.append("    " * indent + line)

    def guard(condition: str, indent: int = 1) -> None:
        emit(f"if {condition}:", indent)
        emit("return _slow(op)", indent + 1)

    def check(expr: str, name: str, constraint: Any, indent: int = 1) -> None:
        """`expr` (a type) must satisfy `constraint`, memoized in set `a_<name>`."""
        ns[f"c_{name}"] = constraint
        ns[f"a_{name}"] = _ACCEPTED.setdefault(constraint, set())
        emit(f"t = {expr}", indent)
        guard(f"t not in a_{name} and not _memo(a_{name}, c_{name}, t)", indent)

    def values(defs: tuple, attr: str, get_type: str, tag: str) -> bool:
        arities = [d.arity for _, d in defs]
        n_var = sum(1 for a in arities if a != opdef.SINGLE)
        if n_var > 1:
            return False  # segment sizes: leave it to _verify_structure
        if n_var == 0:
            if not defs:
                guard(f"op.{attr}")
                return True
            names = ", ".join(f"{tag}{i}" for i in range(len(defs))) + ","
            emit("try:")
            emit(f"{names} = op.{attr}", 2)
            emit("except ValueError:")
            emit("return _slow(op)", 2)
            for i, (_, d) in enumerate(defs):
                check(f"{tag}{i}{get_type}", f"{tag}{i}", d.constraint)
            return True
        # One variadic or optional group, with fixed values before and after it.
        v = arities.index(opdef.VARIADIC if opdef.VARIADIC in arities else opdef.OPTIONAL)
        before, after = v, len(defs) - v - 1
        emit(f"vs = op.{attr}")
        emit("n = len(vs)")
        guard(f"n < {before + after}")
        if arities[v] == opdef.OPTIONAL:
            guard(f"n > {before + after + 1}")
        for i, (_, d) in enumerate(defs):
            if i < v:
                check(f"vs[{i}]{get_type}", f"{tag}{i}", d.constraint)
            elif i > v:
                check(f"vs[n - {len(defs) - i}]{get_type}", f"{tag}{i}", d.constraint)
            else:
                emit(f"for x in vs[{before}:n - {after}]:")
                check(f"x{get_type}", f"{tag}{i}", d.constraint, 2)
        return True

    if not values(cls._operand_defs, "_operands", ".value.type", "o"):
        return slow, False
    if not values(cls._result_defs, "results", ".type", "r"):
        return slow, False
    if cls._prop_defs:
        emit("attrs = op._attrs")
        emit("if attrs is None:")
        emit("attrs = _NO_ATTRS", 2)
        for i, (key, d) in enumerate(cls._prop_defs):
            name = f"p{i}"
            ns[f"c_{name}"] = d.constraint
            ns[f"a_{name}"] = _ACCEPTED.setdefault(d.constraint, set())
            # A property holding its default is not stored (an optional one usually is
            # absent): `get`, not a KeyError raised and caught per op.
            emit(f"t = attrs.get({key!r}, _ABSENT)")
            if d.arity == opdef.SINGLE:
                guard("t is _ABSENT")
                ind = 1
            else:
                emit("if t is not _ABSENT:")
                ind = 2
            inline = _INLINE_ATTR_CHECKS.get(d.constraint)
            if inline is not None:
                guard(f"not ({inline})", ind)
                continue
            emit("try:", ind)
            emit(f"ok = t in a_{name}", ind + 1)
            emit("except TypeError:  # not an attribute at all", ind)
            emit("ok = False", ind + 1)
            guard(f"not ok and (t is None or not _memo(a_{name}, c_{name}, t))", ind)
    for attr, defs in (("regions", cls._region_defs), ("successors", cls._successor_defs)):
        n_single = sum(1 for _, d in defs if d.arity == opdef.SINGLE)
        if not defs:
            guard(f"op.{attr}")
        elif n_single == len(defs):
            guard(f"len(op.{attr}) != {n_single}")
        else:
            guard(f"len(op.{attr}) < {n_single}")
    inlined = False
    fixed = all(d.arity == opdef.SINGLE for _, d in cls._operand_defs + cls._result_defs)
    if first_trait in _INLINE_TRAITS and fixed:
        types = [f"o{i}.value.type" for i in range(len(cls._operand_defs))]
        if _INLINE_TRAITS[first_trait]:
            types += [f"r{i}.type" for i in range(len(cls._result_defs))]
        if len(types) > 1:
            ns["_trait"] = first_trait
            emit(f"t = {types[0]}")
            emit(f"if {' or '.join(f'{t} is not t' for t in types[1:])}:")
            emit("_trait(op)", 2)
        inlined = True
        trait = first_trait

        def fallback(op: Operation) -> None:
            slow(op)
            trait(op)  # type: ignore[misc]

        ns["_slow"] = fallback  # a bail-out must still check the trait done here
    source = "\n".join(lines) + "\n"
    exec(compile(source, f"<verify {cls.name}>", "exec"), ns)  # noqa: S102 - generated above
    return ns["check"], inlined


def _info(cls: type[Operation]) -> _Info:
    info = _INFO.get(cls)
    if info is None:
        info = _INFO[cls] = _Info(cls)
    return info


def _verify_is_terminator(op: Operation) -> None:
    if op.parent is None or op.next is not None:
        raise op.error("must be the last operation in the parent block")


_VISIBILITIES = ("public", "private", "nested")


def _verify_symbol(op: Operation) -> None:
    attrs = op._attrs
    if attrs is not None and type(attrs.get("sym_name")) is StringAttr:
        if "sym_visibility" not in attrs and "sym_visibility" not in op._prop_defaults:
            return  # the common case, decided from the dict alone
    elif type(op.get_attr("sym_name")) is not StringAttr:
        raise op.error("requires string attribute 'sym_name'")
    vis = op.get_attr("sym_visibility")
    if vis is not None:
        if type(vis) is not StringAttr:
            raise op.error(
                "requires visibility attribute 'sym_visibility' to be a string attribute, "
                f"but got {vis}"
            )
        if vis.value not in _VISIBILITIES:
            raise op.error(
                f'visibility expected to be one of ["public", "private", "nested"], but got {vis}'
            )


def _may_lack_terminator(block: Block) -> bool:
    """MLIR's mayBeValidWithoutTerminator."""
    region = block.parent
    if region is None:
        return True
    if len(region.blocks) != 1:
        return False
    op = region.parent
    if op is None:
        return True
    info = _INFO.get(type(op))
    return (info or _info(type(op))).no_terminator


def _is_graph_region(region: Region) -> bool:
    """No SSA dominance inside the block: a single-block region of a graph-region op."""
    op = region.parent
    return op is not None and len(region.blocks) == 1 and _info(type(op)).graph


def _op_text(op: Operation) -> str:
    """The op in generic form with local names, for messages (MLIR's `<< op` in an error)."""
    try:
        from mlc.syntax.printer import print_op

        return print_op(op, generic=True, local_scope=True).rstrip("\n")
    except Exception:  # a message must not fail because the printer cannot print broken IR
        return f'"{op.name}"(...)'


def _with_op(message: str, op: Operation) -> str:
    """`message` followed by `op` in generic form, on a new line if it takes several (MLIR's
    Diagnostic::appendOp)."""
    text = _op_text(op)
    return message + ("\n" if "\n" in text else "") + text


def _error(op: Operation, message: str) -> VerifyError:
    """An error at `op` without the "'name' op " prefix (MLIR's op->emitError)."""
    return VerifyError(Diagnostic("error", message, op.location))


def _region_location(region: Region) -> Any:
    op = region.parent
    return op.location if op is not None else UnknownLoc()


# ---------------------------------------------------------------------------------------------
# Dominance


class DominanceInfo:
    """Dominators of the blocks of one region (Cooper-Harvey-Kennedy over reverse post-order),
    with pre/post numbers of the dominator tree for O(1) queries. Only terminator successors
    are edges; blocks unreachable from the entry have no numbers."""

    __slots__ = ("pre", "post", "idom")

    def __init__(self, region: Region) -> None:
        blocks = region.blocks
        self.pre: dict[Block, int] = {}
        self.post: dict[Block, int] = {}
        self.idom: dict[Block, Block] = {}
        if not blocks:
            return
        entry = blocks[0]
        # Reverse post-order by an iterative DFS.
        order: list[Block] = []
        seen = {entry}
        stack: list[tuple[Block, int]] = [(entry, 0)]
        while stack:
            block, i = stack[-1]
            last = block.last
            succs = last.successors if last is not None else ()
            if i < len(succs):
                stack[-1] = (block, i + 1)
                s = succs[i]
                if s not in seen and s.parent is region:
                    seen.add(s)
                    stack.append((s, 0))
            else:
                stack.pop()
                order.append(block)
        order.reverse()
        num = {b: i for i, b in enumerate(order)}
        n = len(order)
        preds: list[list[int]] = [[] for _ in range(n)]
        for b in order:
            last = b.last
            if last is None:
                continue
            bi = num[b]
            for s in last.successors:
                si = num.get(s)
                if si is not None:
                    preds[si].append(bi)
        idom: list[int] = [-1] * n
        idom[0] = 0
        changed = True
        while changed:
            changed = False
            for i in range(1, n):
                new = -1
                for p in preds[i]:
                    if idom[p] < 0:
                        continue
                    if new < 0:
                        new = p
                        continue
                    a, b = p, new
                    while a != b:
                        while a > b:
                            a = idom[a]
                        while b > a:
                            b = idom[b]
                    new = a
                if idom[i] != new:
                    idom[i] = new
                    changed = True
        children: list[list[int]] = [[] for _ in range(n)]
        for i in range(1, n):
            children[idom[i]].append(i)
            self.idom[order[i]] = order[idom[i]]
        # Pre/post numbering of the dominator tree (iterative).
        counter = 0
        pre, post = self.pre, self.post
        walk: list[tuple[int, int]] = [(0, 0)]
        pre[order[0]] = counter
        while walk:
            node, i = walk[-1]
            kids = children[node]
            if i < len(kids):
                walk[-1] = (node, i + 1)
                counter += 1
                pre[order[kids[i]]] = counter
                walk.append((kids[i], 0))
            else:
                walk.pop()
                counter += 1
                post[order[node]] = counter

    def is_reachable(self, block: Block) -> bool:
        return block in self.pre

    def properly_dominates(self, a: Block, b: Block) -> bool:
        """LLVM's semantics: an unreachable block is dominated by everything and dominates
        nothing."""
        if a is b:
            return False
        pb = self.pre.get(b)
        if pb is None:
            return True
        pa = self.pre.get(a)
        if pa is None:
            return False
        return pa < pb and self.post[b] < self.post[a]

    def dominates(self, a: Block, b: Block) -> bool:
        return a is b or self.properly_dominates(a, b)


def _is_proper_ancestor(outer: Region, inner: Region) -> bool:
    op = inner.parent
    while op is not None:
        block = op.parent
        if block is None:
            return False
        region = block.parent
        if region is None:
            return False
        if region is outer:
            return True
        op = region.parent
    return False


def _is_inside(region: Region, op: Operation) -> bool:
    """Is `region` one of `op`'s regions or nested in one?"""
    owner = region.parent
    while owner is not None:
        if owner is op:
            return True
        block = owner.parent
        if block is None:
            return False
        parent_region = block.parent
        if parent_region is None:
            return False
        owner = parent_region.parent
    return False


def _dominance_error(op: Operation, index: int) -> VerifyError:
    """MLIR's diagnoseInvalidOperandDominance."""
    diag = Diagnostic("error", f"operand #{index} does not dominate this use", op.location)
    value = op.operand(index)
    block1 = op.parent
    region1 = block1.parent if block1 is not None else None
    if type(value) is OpResult:
        def_op = value.op
        block2 = def_op.parent
        region2 = block2.parent if block2 is not None else None
        if block1 is block2:
            where = "op in the same block"
        elif region1 is region2:
            where = "op in the same region"
        elif region1 is not None and region2 is not None and _is_proper_ancestor(region2, region1):
            where = "op in a parent region"
        elif region1 is not None and region2 is not None and _is_proper_ancestor(region1, region2):
            where = "op in a child region"
        else:
            where = "op is neither in a parent nor in a child region"
        diag.attach_note(f"operand defined here ({where})", def_op.location)
        return VerifyError(diag)
    block2 = value.block  # type: ignore[attr-defined]
    region2 = block2.parent
    owner = block2.parent_op
    loc = owner.location if owner is not None else UnknownLoc()
    if region2 is None:
        diag.attach_note(" (block without parent)", loc)
        return VerifyError(diag)
    index2 = region2.blocks.index(block2)
    if region1 is region2:
        where = "in the same region"
    elif region1 is not None and _is_proper_ancestor(region2, region1):
        where = "in a parent region"
    elif region1 is not None and _is_proper_ancestor(region1, region2):
        where = "in a child region"
    else:
        where = "neither in a parent nor in a child region"
    diag.attach_note(f"operand defined as a block argument (block #{index2} {where})", loc)
    return VerifyError(diag)


# ---------------------------------------------------------------------------------------------
# The verifier


# Tokens of block visits (see `_Verifier.run`): unique over the process, so a stamp left on a
# value by an earlier verification never matches.
_TOKENS = itertools.count(1 << 62)


class _Verifier:
    __slots__ = ("errors", "print_op", "doms", "users", "tables", "outer")

    def __init__(self, print_op: bool) -> None:
        self.errors: list[Diagnostic] = []
        self.print_op = print_op
        self.doms: dict[Region, DominanceInfo] = {}
        # Symbol users found under each symbol-table op, checked when the table is exited.
        self.users: dict[Operation, list[Operation]] = {}
        self.tables: Any = None  # a SymbolTableCollection, made on first use
        # Positions of the ops of a block, indexed when a use the stamps do not settle needs
        # them (a block above the root, a later definition, a nested verification).
        self.outer: dict[Block, dict[Operation, int]] = {}

    # -- reporting ------------------------------------------------------------------------------

    def record(self, error: VerifyError, op: Operation | None) -> None:
        for diag in error.diagnostics:
            if self.print_op and op is not None and diag.location is op.location:
                note = Diagnostic("note", _with_op("see current operation: ", op), op.location)
                diag.notes.insert(0, note)
            self.errors.append(diag)

    def fail(self, error: VerifyError, op: Operation | None) -> NoReturn:
        """Record `error` (at `op`, for the see-current-operation note) and stop the walk."""
        self.record(error, op)
        raise _Reported()

    def dom(self, region: Region) -> DominanceInfo:
        info = self.doms.get(region)
        if info is None:
            info = self.doms[region] = DominanceInfo(region)
        return info

    # -- one isolated op (MLIR's verifyOpAndDominance) -------------------------------------------

    def run(
        self, root: Operation, table: Operation | None
    ) -> Generator[tuple[Operation, Operation | None], bool, bool]:
        """Verify `root` and the ops nested in it that are not isolated from above; yield each
        nested isolated op (with its symbol table) to be verified first. `table` is the
        symbol-table op whose region holds `root`, if any. Returns success.

        The walk is MLIR's (entrance of an op, its blocks in order, their ops, exit), and also
        checks dominance and isolation on the way. When that finds a problem, the exact MLIR
        passes run again at the root's exit to report what MLIR reports first. One more
        saving: MLIR scans every block on entrance for ops with successors before the end;
        here each op is checked when visited, and the blocks on the current path are scanned
        before reporting an error or verifying isolated ops, which finds the same error."""
        INFO = _INFO
        users = self.users
        slow = self.dominates_slow
        iso_root = root if root._is_isolated else None
        flags = 0  # 1: a use may not be dominated; 2: a use may come from outside iso_root
        # Dominance without a table: each block visit takes a fresh token, stamped on the
        # block's arguments on entry and on each op's results once the op is done, so a use
        # in the block is dominated when its value bears the token (MLIR's op order kept on
        # the values); `ptoks` holds the tokens of the enclosing blocks on the walk's path,
        # whose values stamped so far come before the op being walked.
        tok: Any = None
        ptoks: set[int] = set()
        new_token = _TOKENS.__next__
        cur = root
        stack: list[tuple] = []
        block: Block | None = None
        try:
            try:
                info = INFO[type(root)]
            except KeyError:
                info = _info(type(root))
            for f in info.entry:
                f(root)
            if info.is_user and table is not None:
                users[table].append(root)
            tbl = table
            if root._has_symbol_table:
                tbl = root
                users[root] = []
            if root.regions:
                self.enter_regions(root)
            op = root
            blocks = [b for r in root.regions for b in r.blocks] if root.regions else []
            bi = -1
            child: Operation | None = None
            iso: list[Operation] | None = None  # isolated ops directly in `op`, in order
            graph = check = False  # `block` has no SSA dominance / is reachable
            while True:
                if child is None:
                    if block is not None:
                        cur = block.last or op
                        self.exit_block(block)
                        block = None
                    bi += 1
                    if bi < len(blocks):
                        nb = blocks[bi]
                        cur = op
                        self.enter_block(nb)
                        block = nb
                        child = nb.first
                        tok = new_token()
                        for a in nb.arguments:
                            a._stamp = tok
                        region = nb.parent
                        if len(region.blocks) == 1:  # type: ignore[union-attr]
                            graph = INFO[type(op)].graph
                            check = True
                        else:
                            graph = False
                            check = nb in self.dom(region).pre  # type: ignore[arg-type]
                        continue
                    # Exit `op`: first the isolated ops directly inside it, then its own
                    # region invariants.
                    if iso:
                        self.scan_path(stack)
                        ok = True
                        for o in iso:
                            if not (yield (o, tbl)):
                                ok = False
                        if not ok:
                            return False
                    cur = op
                    if op is root:
                        return self.exit_root(root, flags)
                    self.region_invariants(op, INFO[type(op)])
                    done = op
                    op, blocks, bi, block, child, tbl, iso, tok, graph, check = stack.pop()
                    ptoks.discard(tok)
                    for r in done.results:
                        r._stamp = tok
                    continue
                o = child
                child = o.next
                if o.successors and child is not None:
                    self.scan_path(stack, block)
                if check:
                    for u in o._operands:
                        v = u.value
                        s = v._stamp
                        if s is tok or s in ptoks:
                            continue
                        if graph and type(v) is OpResult and v.op.parent is block:
                            continue
                        status = slow(v, o, None, iso_root)
                        if status is None:
                            flags |= 2
                        elif not status:
                            flags |= 1
                if not o.regions:
                    for r in o.results:
                        r._stamp = tok
                elif o._is_isolated:
                    for r in o.results:
                        r._stamp = tok
                    if iso is None:
                        iso = [o]
                    else:
                        iso.append(o)
                    continue
                cur = o
                cls = type(o)
                try:
                    info = INFO[cls]
                except KeyError:
                    info = _info(cls)
                for f in info.entry:
                    f(o)
                if info.is_user and tbl is not None:
                    users[tbl].append(o)
                if o.regions:
                    self.enter_regions(o)
                    stack.append((op, blocks, bi, block, child, tbl, iso, tok, graph, check))
                    ptoks.add(tok)
                    op = o
                    blocks = [b for r in o.regions for b in r.blocks]
                    bi = -1
                    block = None
                    child = None  # o's siblings resume from the stack, after its regions
                    iso = None
                    if o._has_symbol_table:
                        tbl = o
                        users[o] = []
                elif info.exit:
                    for f in info.exit:
                        f(o)
        except _Reported:
            return False
        except VerifyError as e:
            # MLIR would have found an op with successors in the middle of an entered block
            # before anything inside it.
            try:
                self.scan_path(stack, block)
            except _Reported:
                return False
            self.record(e, cur)
            return False

    def scan_path(self, stack: list[tuple], block: Block | None = None) -> None:
        """Fail on the first op with successors before the end of a block on the walk's path
        (outermost first), as MLIR's block entrance check would have."""
        for b in [f[3] for f in stack] + [block]:
            if b is None:
                continue
            last = b.last
            o = b.first
            while o is not last:
                if o.successors:  # type: ignore[union-attr]
                    msg = "operation with block successors must terminate its parent block"
                    self.fail(_error(o, msg), o)  # type: ignore[arg-type]
                o = o.next  # type: ignore[union-attr]

    # -- checks on entering and leaving ops and blocks -------------------------------------------

    def enter_regions(self, op: Operation) -> None:
        """Region checks of MLIR's verifyOnEntrance(Operation)."""
        registered_graph = op._is_registered and GraphRegions in op._traits
        for i, region in enumerate(op.regions):
            blocks = region.blocks
            if not blocks:
                continue
            if registered_graph and len(blocks) > 1:
                self.fail(op.error(f"expects graph region #{i} to have 0 or 1 blocks"), op)
            entry = blocks[0]
            for b in blocks:
                last = b.last
                if last is not None and last.successors and entry in last.successors:
                    msg = "entry block of region may not have predecessors"
                    self.fail(VerifyError(Diagnostic("error", msg, op.location)), None)

    def enter_block(self, block: Block) -> None:
        for arg in block.arguments:
            if arg.block is not block:
                loc = arg.location if arg.location is not None else UnknownLoc()
                msg = "block argument not owned by block"
                self.fail(VerifyError(Diagnostic("error", msg, loc)), None)
        last = block.last
        if last is None:
            if _may_lack_terminator(block):
                return
            msg = "empty block: expect at least a terminator"
            loc = _region_location(block.parent)  # type: ignore[arg-type]
            self.fail(VerifyError(Diagnostic("error", msg, loc)), None)

    def exit_block(self, block: Block) -> None:
        last = block.last
        if last is None:
            return
        region = block.parent
        for succ in last.successors:
            if succ.parent is not region:
                self.fail(last.error("branching to block of a different region"), last)
        if _may_lack_terminator(block):
            return
        info = _INFO.get(type(last)) or _info(type(last))
        if not info.may_terminate:
            self.fail(_error(last, _with_op("block with no terminator, has ", last)), last)

    def region_invariants(self, op: Operation, info: _Info) -> None:
        """MLIR's verifyRegionInvariants, except isolation (checked with dominance)."""
        if op._has_symbol_table:
            self.verify_symbol_table(op)
        for f in info.exit:
            f(op)

    def exit_root(self, root: Operation, flags: int) -> bool:
        """Leave the walk's root: isolation, other region invariants, then dominance (each
        reported as MLIR would: the exact passes run only when the walk saw a problem)."""
        dom_error = None
        if flags:
            iso_root = root if root._is_isolated else None
            dom_error, iso_seen = self.dominance(root, iso_root)
            if iso_root is not None and (iso_seen or dom_error is not None):
                self.check_isolation(root)
        self.region_invariants(root, _INFO[type(root)])
        if dom_error is not None:
            user, index = dom_error
            self.record(_dominance_error(user, index), user)
            return False
        return True

    # -- isolation --------------------------------------------------------------------------------

    def check_isolation(self, iso: Operation) -> None:
        """MLIR's verifyIsIsolatedFromAbove, in its order (only run when a use looked outside)."""
        for region in iso.regions:
            pending = [region]
            while pending:
                for block in pending.pop().blocks:
                    for op in block:
                        for v in op.operands:
                            if type(v) is OpResult:
                                b = v.op.parent
                                vr = b.parent if b is not None else None
                            else:
                                vr = v.block.parent  # type: ignore[attr-defined]
                            if vr is None:
                                self.fail(_error(op, "operation's operand is unlinked"), op)
                            if vr is not region and not _is_proper_ancestor(region, vr):
                                err = op.error("using value defined outside the region")
                                err.diagnostic.attach_note(
                                    "required by region isolation constraints", iso.location
                                )
                                self.fail(err, op)
                        if op.regions and not op._is_isolated:
                            pending.extend(op.regions)

    # -- dominance --------------------------------------------------------------------------------

    def dominance(
        self, root: Operation, iso_root: Operation | None
    ) -> tuple[tuple[Operation, int] | None, bool]:
        """MLIR's verifyDominanceOfContainedRegions (same order, first failure wins), also
        noting whether any use reaches outside an isolated root.

        Same-block uses are checked against a position index filled while walking the block;
        other uses go through `dominates_slow` (ancestor regions, dominator trees)."""
        idx: dict[Operation, int] = {}
        iso_seen = False
        worklist = [root]
        while worklist:
            op = worklist.pop()
            graph_kind = _info(type(op)).graph
            for region in op.regions:
                blocks = region.blocks
                if not blocks:
                    continue
                if len(blocks) == 1:
                    reach = None
                    graph = graph_kind
                else:
                    reach = self.dom(region).pre
                    graph = False
                for block in blocks:
                    check = reach is None or block in reach
                    i = 0
                    o = block.first
                    while o is not None:
                        if check:
                            for u in o._operands:
                                v = u.value
                                if type(v) is OpResult:
                                    if v.op.parent is block and (graph or v.op in idx):
                                        continue
                                elif type(v) is BlockArgument and v.block is block:
                                    continue
                                status = self.dominates_slow(v, o, idx, iso_root)
                                if status is None:
                                    iso_seen = True
                                elif not status:
                                    return (o, u.index), iso_seen
                        idx[o] = i
                        i += 1
                        if o.regions and not o._is_isolated:
                            worklist.append(o)
                        o = o.next
        return None, iso_seen

    def dominates_slow(
        self,
        v: Any,
        user: Operation,
        idx: dict[Operation, int] | None,
        iso_root: Operation | None,
    ) -> bool | None:
        """Does `v` properly dominate `user`? None when `v` comes from outside `iso_root`.

        `idx` holds the positions of the ops visited so far in their blocks, with every op
        before `user` in its block (the exact pass); None means nothing is known and positions
        come from a full index of the block."""
        if type(v) is OpResult:
            d: Operation | None = v.op
            def_block = d.parent  # type: ignore[union-attr]
        elif type(v) is BlockArgument:
            d = None
            def_block = v.block
        else:
            return False
        if def_block is None:
            return False
        def_region = def_block.parent
        if def_region is None:
            return False
        # The ancestor of `user` (or `user` itself) whose block is in the defining region.
        a = user
        while True:
            b = a.parent
            if b is None:
                return False
            r = b.parent
            if r is def_region:
                break
            if r is None:
                return False
            p = r.parent
            if p is None:
                return False
            if p is iso_root:
                # The defining region is not around `user`: a value from outside the isolated
                # root (for the isolation check), or one nested elsewhere inside it, which
                # does not dominate `user`.
                return False if _is_inside(def_region, iso_root) else None
            a = p
        ab = a.parent
        graph = _is_graph_region(def_region)
        if d is not None:
            if a is d:
                # `user` is nested in the defining op: only graph regions allow that.
                return graph
            if ab is def_block:
                if graph:
                    return True
                if idx is None:
                    idx = self.outer_index(def_block)
                elif a is user:
                    return False  # same block: the caller found `d` is not before `user`
                pa = idx.get(a)
                if pa is None:
                    # A block outside the walk (the root is not isolated): index it apart.
                    idx = self.outer_index(def_block)
                    pa = idx[a]
                pd = idx.get(d)
                return pd is not None and pd < pa
            return self.dom(def_region).properly_dominates(def_block, ab)  # type: ignore[arg-type]
        if ab is def_block:
            return True
        return self.dom(def_region).properly_dominates(def_block, ab)  # type: ignore[arg-type]

    def outer_index(self, block: Block) -> dict[Operation, int]:
        index = self.outer.get(block)
        if index is None:
            index = self.outer[block] = {}
            i = 0
            o = block.first
            while o is not None:
                index[o] = i
                i += 1
                o = o.next
        return index

    # -- symbol tables ----------------------------------------------------------------------------

    def verify_symbol_table(self, op: Operation) -> None:
        """MLIR's verifySymbolTable: one region, one block, unique names, then symbol uses."""
        if len(op.regions) != 1:
            raise op.error("Operations with a 'SymbolTable' must have exactly one region")
        if len(op.regions[0].blocks) != 1:
            raise op.error("Operations with a 'SymbolTable' must have exactly one block")
        seen: dict[str, Operation] = {}
        INFO = _INFO
        for child in op.regions[0].blocks[0]:
            info = INFO.get(type(child)) or _info(type(child))
            if not info.is_symbol:
                continue
            attrs = child._attrs
            name = attrs.get("sym_name") if attrs is not None else None
            if name is None:
                name = child.get_attr("sym_name")
            if type(name) is not StringAttr:
                continue
            first = seen.get(name.value)
            if first is None:
                seen[name.value] = child
                continue
            err = _error(child, f"redefinition of symbol named '{name.value}'")
            err.diagnostic.attach_note("see existing symbol definition here", first.location)
            self.fail(err, child)
        users = self.users.pop(op, None)
        if not users:
            return
        if self.tables is None:
            from mlc.ir.symbols import SymbolTableCollection

            self.tables = SymbolTableCollection()
        tables = self.tables
        try:
            for user in users:
                user.verify_symbol_uses(tables)  # type: ignore[attr-defined]
        except VerifyError:
            # Report the failure MLIR would find first: its walk order differs from ours.
            from mlc.ir.symbols import walk_symbol_table

            for user in walk_symbol_table(op.regions):
                if _info(type(user)).is_user:
                    try:
                        user.verify_symbol_uses(tables)  # type: ignore[attr-defined]
                    except VerifyError as e:
                        self.fail(e, user)
            raise


class _Reported(VerifyError):
    """A failure whose diagnostics were already recorded (nothing more to record)."""

    def __init__(self) -> None:
        super().__init__([])
