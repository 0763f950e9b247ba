"""The IR core API: use-lists, the intrusive op list, walks, RAUW, cloning, symbols, the builder."""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable

import pytest

from mlc.ir import attributes as A
from mlc.ir.builder import Builder, InsertionPoint
from mlc.ir.core import Block, BlockArgument, IRError, Operation, OpResult, Region, UnregisteredOp
from mlc.ir.opdef import (
    AnyType,
    NoTerminator,
    Op,
    StrAttr,
    Symbol,
    SymbolTable,
    Terminator,
    opt_prop,
    prop,
    region,
    result,
    var_operand,
)
from mlc.ir.symbols import SymbolTable as SymTable
from mlc.ir.symbols import (
    SymbolTableCollection,
    get_nearest_symbol_table,
    get_symbol_name,
    get_symbol_uses,
    get_symbol_visibility,
    lookup_nearest_symbol_from,
    lookup_symbol_in,
    replace_all_symbol_uses,
    set_symbol_visibility,
    symbol_known_use_empty,
    symbol_refs_in,
)


class UseOp(Op):
    name = "tc.use"
    args = var_operand()


class DefOp(Op):
    name = "tc.def"
    res = result(AnyType)


class YieldOp(Op):
    name = "tc.yield"
    traits = (Terminator,)
    args = var_operand()


class TableOp(Op):
    name = "tc.table"
    traits = (SymbolTable, Symbol, NoTerminator)
    sym_name = opt_prop(StrAttr)
    body = region()


class SymOp(Op):
    name = "tc.sym"
    traits = (Symbol,)
    sym_name = prop(StrAttr)


def new_def(t: A.Type = A.i32) -> Operation:
    return DefOp.build([], [t])


def uses(*values: object) -> Operation:
    return UseOp.build([list(values)])


def block_of(n: int) -> tuple[Block, list[Operation]]:
    block = Block()
    ops = [block.append(new_def()) for _ in range(n)]
    return block, ops


def names(block: Block) -> list[Operation]:
    return list(block)


def check_links(block: Block) -> None:
    """prev/next/first/last/len/parent agree."""
    ops = list(block)
    assert len(block) == len(ops)
    assert block.first is (ops[0] if ops else None)
    assert block.last is (ops[-1] if ops else None)
    for i, op in enumerate(ops):
        assert op.parent is block
        assert op.prev is (ops[i - 1] if i else None)
        assert op.next is (ops[i + 1] if i + 1 < len(ops) else None)
    assert list(block.reversed()) == ops[::-1]


def line_events(fn: Callable[[], object]) -> int:
    """How many Python lines `fn` executes (a machine-independent cost measure)."""
    count = 0

    def tracer(frame, event, arg):  # noqa: ANN001, ANN202
        nonlocal count
        if event == "line":
            count += 1
        return tracer

    # A collection during `fn` may run unrelated Python code (finalizers, callbacks) and be counted.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    sys.settrace(tracer)
    try:
        fn()
    finally:
        sys.settrace(None)
        if gc_was_enabled:
            gc.enable()
    return count


# ---------------------------------------------------------------------------------------------
# Use-lists


def test_use_lists_track_operands() -> None:
    d = new_def()
    v = d.result
    assert not v.has_uses() and v.num_uses() == 0
    u1 = uses(v, v)
    u2 = uses(v)
    assert v.num_uses() == 3 and not v.has_one_use()
    assert sorted(id(o) for o in v.users) == sorted([id(u1), id(u1), id(u2)])
    assert {(u.owner, u.index) for u in v.uses} == {(u1, 0), (u1, 1), (u2, 0)}
    w = new_def().result
    u1.set_operand(0, w)
    assert v.num_uses() == 2 and w.has_one_use()
    assert u1.operand(0) is w and u1.operands == (w, v)
    u1.set_operands([w])
    assert v.has_one_use() and w.num_uses() == 1 and u1.num_operands == 1
    u2.drop_all_uses_of_operands()
    assert not v.has_uses()


def test_use_iteration_survives_unlinking() -> None:
    v = new_def().result
    w = new_def().result
    users = [uses(v) for _ in range(5)]
    for use in v.uses:
        use.set(w)
    assert not v.has_uses() and w.num_uses() == 5
    assert {u.owner for u in w.uses} == set(users)


def test_replace_all_uses_with() -> None:
    a, b = new_def(), new_def()
    users = [uses(a.result, a.result) for _ in range(3)]
    other = uses(b.result)
    a.result.replace_all_uses_with(b.result)
    assert not a.result.has_uses()
    assert b.result.num_uses() == 7
    assert all(u.operands == (b.result, b.result) for u in users)
    assert other.operand(0) is b.result
    # Op-level RAUW, and a count mismatch is an error.
    c = new_def()
    c_user = uses(c.result)
    c.replace_all_uses_with(b)
    assert c_user.operand(0) is b.result
    with pytest.raises(IRError):
        b.replace_all_uses_with([])
    # Conditional replacement.
    x, y = new_def(), new_def()
    keep, move = uses(x.result), uses(x.result)
    x.result.replace_uses_with_if(y.result, lambda use: use.owner is move)
    assert keep.operand(0) is x.result and move.operand(0) is y.result


# ---------------------------------------------------------------------------------------------
# The intrusive op list


def test_insert_erase_move() -> None:
    block, ops = block_of(4)
    a, b, c, d = ops
    e = new_def()
    block.insert_before(e, c)
    f = new_def()
    block.insert_after(f, d)
    g = new_def()
    block.prepend(g)
    assert names(block) == [g, a, b, e, c, d, f]
    check_links(block)
    e.erase()
    g.erase()
    f.erase()
    assert names(block) == [a, b, c, d]
    check_links(block)
    d.move_before(a)
    a.move_after(c)
    assert names(block) == [d, b, c, a]
    check_links(block)
    other = Block()
    b.detach()
    other.append(b)
    assert b.parent is other and names(block) == [d, c, a]
    check_links(block)
    check_links(other)
    with pytest.raises(IRError):
        block.append(b)  # still in `other`


def test_erase_with_uses_is_an_error() -> None:
    block, (a, b) = block_of(2)
    user = block.append(uses(a.result))
    with pytest.raises(IRError):
        a.erase()
    user.erase()
    a.erase()
    assert names(block) == [b]
    assert not b.result.has_uses()


def test_list_edits_are_constant_time() -> None:
    """Inserting, erasing and moving near the end of a block costs the same whatever its size."""

    def cost(n: int) -> tuple[int, int, int]:
        block, ops = block_of(n)
        anchor = ops[-2]
        new = new_def()
        insert = line_events(lambda: block.insert_before(new, anchor))
        erase = line_events(lambda: new.erase())
        move = line_events(lambda: ops[-1].move_before(anchor))
        return insert, erase, move

    assert cost(10) == cost(20_000)


def test_is_before_in_block() -> None:
    block, ops = block_of(6)
    assert ops[1].is_before_in_block(ops[4])
    assert not ops[4].is_before_in_block(ops[1])
    assert not ops[2].is_before_in_block(ops[2])
    with pytest.raises(IRError):
        ops[0].is_before_in_block(new_def())


# ---------------------------------------------------------------------------------------------
# Walks


def nest() -> tuple[Operation, list[Operation]]:
    """outer { a; inner { b; c }; d } as unregistered ops."""
    a, b, c, d = (UnregisteredOp.create_named(f"t.{n}") for n in "abcd")
    inner = UnregisteredOp.create_named("t.inner", regions=[Region([Block()])])
    inner.regions[0].blocks[0].append(b)
    inner.regions[0].blocks[0].append(c)
    outer = UnregisteredOp.create_named("t.outer", regions=[Region([Block()])])
    for op in (a, inner, d):
        outer.regions[0].blocks[0].append(op)
    return outer, [a, b, c, inner, d]


def test_walk_orders() -> None:
    outer, (a, b, c, inner, d) = nest()
    assert list(outer.walk()) == [a, b, c, inner, d, outer]
    assert list(outer.walk(post_order=False)) == [outer, a, inner, b, c, d]


def test_walk_tolerates_erasing_the_current_op() -> None:
    outer, (a, b, c, inner, d) = nest()
    seen = []
    for op in outer.walk():
        seen.append(op.name)
        if op is not outer:
            op.erase()
    assert seen == ["t.a", "t.b", "t.c", "t.inner", "t.d", "t.outer"]
    assert outer.regions[0].blocks[0].is_empty()
    # Pre-order: an op erased when visited is not descended into.
    outer, (a, b, c, inner, d) = nest()
    seen = []
    for op in outer.walk(post_order=False):
        seen.append(op.name)
        if op is inner:
            op.erase()
    assert seen == ["t.outer", "t.a", "t.inner", "t.d"]


# ---------------------------------------------------------------------------------------------
# Cloning


def test_clone_remaps_and_keeps_outer_values() -> None:
    outside = new_def()
    region = Region([Block([A.i32])])
    body = region.blocks[0]
    inner_def = body.append(new_def())
    body.append(YieldOp.build([[body.arguments[0], inner_def.result, outside.result]]))
    op = UnregisteredOp.create_named("t.wrap", [outside.result], [A.i32], regions=[region])
    mapping: dict = {}
    copy = op.clone(mapping)
    assert copy is not op and copy.name == "t.wrap"
    new_body = copy.regions[0].blocks[0]
    y = new_body.last
    assert y is not body.last
    assert y.operand(0) is new_body.arguments[0]
    assert y.operand(1) is new_body.first.result
    assert y.operand(2) is outside.result  # defined above: not remapped
    assert mapping[op.result] is copy.result and mapping[body] is new_body
    # A prefilled mapping substitutes values defined above.
    repl = new_def()
    copy2 = op.clone({outside.result: repl.result})
    assert copy2.operand(0) is repl.result
    assert copy2.regions[0].blocks[0].last.operand(2) is repl.result


def test_clone_resolves_forward_references() -> None:
    # A graph-like region: the first op uses the result of the second; a branch names a later
    # block.
    region = Region([Block(), Block()])
    b0, b1 = region.blocks
    user = b0.append(uses())
    later = b0.append(new_def())
    user.set_operands([later.result])
    b0.append(UnregisteredOp.create_named("t.br", successors=[b1]))
    b1.append(YieldOp.build([[later.result]]))
    op = UnregisteredOp.create_named("t.g", regions=[region])
    copy = op.clone()
    nb0, nb1 = copy.regions[0].blocks
    new_user, new_later, new_br = list(nb0)
    assert new_user.operand(0) is new_later.result
    assert new_br.successors == [nb1]
    assert nb1.first.operand(0) is new_later.result
    assert later.result.num_uses() == 2  # the original is untouched


# ---------------------------------------------------------------------------------------------
# Symbols


def table_with(*symbols: str) -> Operation:
    t = TableOp.build([], [], None, 1)
    block = Block()
    t.regions[0].add_block(block)
    for s in symbols:
        block.append(SymOp.build([], [], {"sym_name": A.StringAttr(s)}))
    return t


def test_symbol_table_lookup_insert_rename_erase() -> None:
    t = table_with("f", "g")
    table = SymTable(t)
    f = table.lookup("f")
    assert get_symbol_name(f) == "f" and "g" in table and len(table) == 2
    assert table.lookup("nope") is None
    # Insertion renames on a conflict, MLIR's way: one counter per table.
    assert table.insert(SymOp.build([], [], {"sym_name": A.StringAttr("f")})) == "f_0"
    assert table.insert(SymOp.build([], [], {"sym_name": A.StringAttr("g")})) == "g_1"
    assert table.insert(SymOp.build([], [], {"sym_name": A.StringAttr("h")})) == "h"
    assert [get_symbol_name(o) for o in t.regions[0].blocks[0]] == ["f", "g", "f_0", "g_1", "h"]
    # Renaming updates references, also nested in arrays and dictionaries.
    ref = A.ArrayAttr([A.SymbolRefAttr("f"), A.DictionaryAttr({"k": A.SymbolRefAttr("f")})])
    user = UnregisteredOp.create_named("t.user", attributes={"r": ref})
    t.regions[0].blocks[0].append(user)
    table.rename("f", "main")
    assert table.lookup("main") is f and table.lookup("f") is None
    assert list(symbol_refs_in(user.get_attr("r"))) == [A.SymbolRefAttr("main")] * 2
    table.erase(f)
    assert table.lookup("main") is None and f.parent is None


def test_nested_lookup_and_nearest_table() -> None:
    outer = table_with("a")
    inner = TableOp.build([], [], {"sym_name": A.StringAttr("m")}, 1)
    inner.regions[0].add_block(Block())
    outer.regions[0].blocks[0].append(inner)
    leaf = inner.regions[0].blocks[0].append(SymOp.build([], [], {"sym_name": A.StringAttr("b")}))
    user = inner.regions[0].blocks[0].append(uses())
    assert lookup_symbol_in(outer, A.SymbolRefAttr("m", ["b"])) is leaf
    assert lookup_symbol_in(outer, "a") is outer.regions[0].blocks[0].first
    assert lookup_symbol_in(outer, A.SymbolRefAttr("a", ["b"])) is None  # @a is no table
    assert get_nearest_symbol_table(user) is inner
    assert lookup_nearest_symbol_from(user, "b") is leaf
    assert lookup_nearest_symbol_from(user, "a") is None  # only the nearest table is searched
    tables = SymbolTableCollection()
    assert tables.lookup_symbol_in(outer, A.SymbolRefAttr("m", ["b"])) is leaf
    assert tables.lookup_nearest_symbol_from(user, "b") is leaf
    assert tables.get_symbol_table(inner) is tables.get_symbol_table(inner)  # cached


def test_symbol_uses_stop_at_nested_tables() -> None:
    outer = table_with("f")
    body = outer.regions[0].blocks[0]
    ref_f = A.SymbolRefAttr("f")
    body.append(UnregisteredOp.create_named("t.call", attributes={"callee": ref_f}))
    inner = TableOp.build([], [], {"sym_name": A.StringAttr("m"), "tag": ref_f}, 1)
    inner.regions[0].add_block(Block())
    body.append(inner)
    inner_call = UnregisteredOp.create_named("t.call", attributes={"c": ref_f})
    inner.regions[0].blocks[0].append(inner_call)
    found = get_symbol_uses(outer)
    # The nested table's own attribute counts; what is inside it does not.
    assert [(u.user.name, u.ref.root) for u in found] == [("t.call", "f"), ("tc.table", "f")]
    assert len(get_symbol_uses(outer, "f")) == 2
    assert symbol_known_use_empty("g", outer)
    replace_all_symbol_uses("f", "g", outer)
    assert body.ops[1].get_attr("callee") is A.SymbolRefAttr("g")
    assert inner_call.get_attr("c") is ref_f  # a nested table is another scope


def test_visibility() -> None:
    op = SymOp.build([], [], {"sym_name": A.StringAttr("s")})
    assert get_symbol_visibility(op) == "public"
    set_symbol_visibility(op, "private")
    assert op.get_attr("sym_visibility") is A.StringAttr("private")
    set_symbol_visibility(op, "public")
    assert op.get_attr("sym_visibility") is None
    with pytest.raises(ValueError):
        set_symbol_visibility(op, "secret")


# ---------------------------------------------------------------------------------------------
# The builder


def test_builder_insertion_points() -> None:
    block, (a, b) = block_of(2)
    builder = Builder.at_end(block)
    c = builder.create(DefOp, [], [A.i64])
    assert c.result.type is A.i64 and block.last is c
    with builder.at(InsertionPoint.before(b)):
        x = builder.create(DefOp, [], [A.i32])
        y = builder.create(DefOp, [], [A.i32])
    assert names(block) == [a, x, y, b, c]
    with builder.at(InsertionPoint.after(a)):
        p = builder.insert(new_def())
        q = builder.insert(new_def())
    assert names(block) == [a, p, q, x, y, b, c]
    with builder.at(InsertionPoint.at_start(block)):
        s = builder.insert(new_def())
    assert block.first is s
    z = builder.create(UseOp, [[c.result]])  # the previous point is back: the end
    assert block.last is z and z.operand(0) is c.result
    check_links(block)


def test_builder_blocks_and_unregistered_ops() -> None:
    region = Region()
    loc = A.FileLineColLoc("b.mlir", 3, 4)
    builder = Builder(location=loc)
    first = builder.create_block(region, [A.i32])
    op = builder.create_unregistered("t.op", [first.arguments[0]], [A.f32])
    assert op.parent is first and op.location == loc
    assert isinstance(first.arguments[0], BlockArgument) and isinstance(op.result, OpResult)
    second = builder.create_block(region)
    t = builder.create(YieldOp, [[op.result]])
    assert t.parent is second
    zeroth = builder.create_block(region, insert_before=first)
    assert region.blocks == [zeroth, first, second]
    assert builder.block is zeroth
    block = Block()
    with builder.at(block):
        builder.insert(new_def())
    assert len(block) == 1 and builder.block is zeroth
