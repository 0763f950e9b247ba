"""`inline`: inline calls to functions (func.call of func.func, or any call/callable interface).

Functions are visited callees-first (strongly connected components of the call graph in
post-order); calls within one component (recursion) are never inlined. Whether to inline a call
site is a knob (`inline`, a bool) whose default is "the callee has at most `threshold` ops".
"""

from __future__ import annotations

from typing import Any

from mlc.interfaces import call_like, callable_like
from mlc.ir.attributes import CallSiteLoc, SymbolRefAttr
from mlc.ir.core import Block, Operation, Region
from mlc.ir.opdef import ReturnLike
from mlc.ir.symbols import (
    SymbolTable,
    get_symbol_name,
    get_symbol_visibility,
    symbol_refs_in,
    walk_symbol_table,
)
from mlc.knobs import Bool
from mlc.pass_manager import KnobDecl, Option, Pass, PassContext, Statistic


def _sccs(nodes: list[Operation], edges: dict[Operation, list[Operation]]) -> list[list[Operation]]:
    """Tarjan's strongly connected components, in post-order (callees before callers)."""
    index: dict[Operation, int] = {}
    low: dict[Operation, int] = {}
    on_stack: set[Operation] = set()
    stack: list[Operation] = []
    out: list[list[Operation]] = []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work: list[tuple[Operation, int]] = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on_stack.add(v)
            succ = edges.get(v, [])
            if i < len(succ):
                work.append((v, i + 1))
                w = succ[i]
                if w not in index:
                    work.append((w, 0))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            # All successors done: propagate low-links from children, close the component.
            for w in succ:
                if w in on_stack:
                    low[v] = min(low[v], low[w])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w is v:
                        break
                out.append(comp)
    return out


def _body_size(region: Region) -> int:
    n = 0
    for op in region.walk():
        if ReturnLike not in type(op)._traits:
            n += 1
    return n


def _inlinable_body(region: Region) -> bool:
    """Every block ends in a return-like terminator or branches within the region."""
    for block in region.blocks:
        last = block.last
        if last is None:
            return False
        if not last.successors and ReturnLike not in type(last)._traits:
            return False
    return True


def inline_call(call: Operation, region: Region, ctx: Any = None) -> bool:
    """Inline `region` (a callable body) at `call`, replacing it. False when not possible
    (a multi-block body needs `cf.br`, which must be registered)."""
    args = list(call_like(call).arg_operands())
    entry = region.blocks[0]
    if len(args) != len(entry.arguments):
        return False
    block = call.parent
    assert block is not None
    call_loc = call.location
    if len(region.blocks) == 1:
        ret = entry.last
        if ret is None or ReturnLike not in type(ret)._traits:
            return False
        mapping: dict[Any, Any] = {a: v for a, v in zip(entry.arguments, args)}
        op = entry.first
        while op is not ret:
            new = op.clone(mapping)
            _relocate(new, call_loc)
            block.insert_before(new, call)
            op = op.next  # type: ignore[union-attr]
        values = [mapping.get(v, v) for v in ret.operands]
        if len(values) != len(call.results):
            return False
        for r, v in zip(call.results, values):
            r.replace_all_uses_with(v)
        call.erase()
        return True
    if ctx is None:
        from mlc.ir.context import default_context

        ctx = default_context()
    br = ctx.get_op("cf.br")
    if br is None:
        return False
    caller_region = block.parent
    assert caller_region is not None
    tail = (
        block.split_before(call.next)
        if call.next is not None
        else _append_block(caller_region, block)
    )
    for r in call.results:
        arg = tail.add_argument(r.type, call_loc)
        r.replace_all_uses_with(arg)
    tmp = Region()
    mapping = {}
    region.clone_into(tmp, mapping)
    new_blocks = list(tmp.blocks)
    tmp.blocks = []
    pos = caller_region.blocks.index(tail)
    for i, nb in enumerate(new_blocks):
        nb.parent = None
        caller_region.insert_block(pos + i, nb)
        for op in list(nb):
            for nested in op.walk():
                _relocate_one(nested, call_loc)
            if ReturnLike in type(op)._traits:
                term = br.create(op.operands, (), None, (), [tail], op.location)
                nb.insert_before(term, op)
                op.erase()
    call.erase()
    block.append(br.create(args, (), None, (), [new_blocks[0]], call_loc))
    return True


def _append_block(region: Region, after: Block) -> Block:
    nb = Block()
    nb.parent = region
    region.blocks.insert(region.blocks.index(after) + 1, nb)
    return nb


def _relocate_one(op: Operation, call_loc: Any) -> None:
    op.location = CallSiteLoc(op.location, call_loc)


def _relocate(op: Operation, call_loc: Any) -> None:
    for nested in op.walk():
        _relocate_one(nested, call_loc)


class InlinerPass(Pass):
    """Inline function calls (callees first; recursive calls are kept)."""

    name = "inline"
    threshold = Option(int, 1000, "Largest callee (in ops) inlined by default; a knob can override")
    knobs = (
        KnobDecl("inline", "bool", "Inline this call site (default: callee size <= threshold)"),
    )
    num_inlined = Statistic("num-inlined", "Number of call sites inlined")
    num_erased = Statistic("num-callees-erased", "Number of private callees erased once unused")

    def run(self, op: Operation, ctx: PassContext) -> None:
        if not op._has_symbol_table:
            ctx.error(f"inline expects a symbol table op, got '{op.name}'", op)
            return
        table = SymbolTable(op)
        funcs = [f for f in op.ops_in_regions() if callable_like(f) is not None]
        bodies: dict[Operation, Region | None] = {
            f: callable_like(f).callable_region() for f in funcs
        }

        def resolve(nested: Operation) -> Operation | None:
            call = call_like(nested)
            if call is None:
                return None
            ref = call.callee_ref()
            if type(ref) is not SymbolRefAttr or ref.nested:
                return None
            callee = table.lookup(ref.root)
            return callee if callee is not None and callee in bodies else None

        def calls_in(f: Operation) -> list[tuple[Operation, Operation]]:
            body = bodies.get(f)
            if body is None:
                return []
            found = []
            for nested in body.walk(post_order=False):
                callee = resolve(nested)
                if callee is not None:
                    found.append((nested, callee))
            return found

        # One walk of every body: the call sites serve the call graph and then the inlining
        # (a function's body only changes when calls are inlined into it, at its own turn).
        sites = {f: calls_in(f) for f in funcs}
        edges = {f: [c for _, c in found] for f, found in sites.items()}
        sizes: dict[Operation, int] = {}
        inlined_callees: set[Operation] = set()
        sccs = _sccs(funcs, edges)
        recursive: set[Operation] = set()
        for comp in sccs:
            if len(comp) > 1 or comp[0] in edges[comp[0]]:
                recursive.update(comp)
        for comp in sccs:
            members = recursive  # never inline a recursive callee (it would unfold forever)
            for f in comp:
                self._inline_into(
                    f, members, sites.pop(f), resolve, bodies, sizes, inlined_callees, ctx
                )
        if not inlined_callees:
            return
        # Private callees nothing refers to any more go (one walk for all of them).
        referenced: set[str] = set()
        for nested in walk_symbol_table(op.regions):
            attrs = nested._attrs
            if attrs:
                for value in attrs.values():
                    for ref in symbol_refs_in(value):
                        referenced.add(ref.root)
        for callee in inlined_callees:
            if callee.parent is None or get_symbol_visibility(callee) != "private":
                continue
            name = get_symbol_name(callee)
            if name is not None and name not in referenced:
                table.erase(callee)
                self.num_erased += 1

    def _inline_into(
        self,
        f: Operation,
        members: set[Operation],
        calls: list[tuple[Operation, Operation]],
        resolve: Any,
        bodies: dict[Operation, Region | None],
        sizes: dict[Operation, int],
        inlined_callees: set[Operation],
        ctx: PassContext,
    ) -> None:
        worklist = list(reversed(calls))
        while worklist:
            call, callee = worklist.pop()
            if call.parent is None or callee in members:
                continue  # erased, or a recursive callee
            body = bodies[callee]
            if body is None or not body.blocks or callee.get_attr("no_inline") is not None:
                continue
            if not _inlinable_body(body):
                continue
            size = sizes.get(callee)
            if size is None:
                size = sizes[callee] = _body_size(body)
            if not ctx.knob(call, "inline", Bool(), size <= self.threshold):
                continue
            before, after, block = call.prev, call.next, call.parent
            single = len(body.blocks) == 1
            if not inline_call(call, body, ctx.context):
                continue
            self.num_inlined += 1
            inlined_callees.add(callee)
            if not single:
                continue
            # Calls that came in with the body are candidates too (their callees are final).
            new_calls = []
            op = before.next if before is not None else block.first
            while op is not None and op is not after:
                for nested in op.walk(post_order=False):
                    target = resolve(nested)
                    if target is not None:
                        new_calls.append((nested, target))
                op = op.next
            worklist.extend(reversed(new_calls))
