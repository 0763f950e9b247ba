"""The core passes on IR built in Python: cse, dce, remove-dead-values, symbol-dce,
symbol-privatize, inline (with its knob), loop-invariant-code-motion, reconcile casts."""

from __future__ import annotations

from pass_test_dialect import B, CallOp, LoopOp, YieldOp, func, i32, module, names

from mlc.interfaces import is_pure, would_op_be_trivially_dead
from mlc.ir import attributes as A
from mlc.ir.core import Block, Operation
from mlc.pass_manager import PassManager


def run(op: Operation, pipeline: str, knobs=None):  # noqa: ANN001, ANN201
    pm = PassManager.parse(pipeline, op.name)
    pm.enable_verifier(False)
    return pm.run(op, knobs)


def _fn(n_args: int = 1):  # noqa: ANN202
    m, body = module()
    f, b = func(body, "f", n_args=n_args)
    return m, f, b


# ---------------------------------------------------------------------------------------------
# cse


def test_cse_basic_and_keeps_first() -> None:
    m, f, b = _fn()
    x = b.block.arguments[0]
    a1 = b.add(x, x)
    a2 = b.add(x, x)
    n = b.neg(x)
    b.ret(b.add(a1, b.add(a2, n)))
    run(m, "cse")
    adds = [op for op in b.block if op.name == "tp.add"]
    assert len(adds) == 3 and adds[1].operands == (a1, n)


def test_cse_respects_attributes_and_types() -> None:
    m, f, b = _fn()
    x = b.block.arguments[0]
    c1, c2, c1b = b.const(1), b.const(2), b.const(1)
    b.ret(b.add(b.add(c1, c2), c1b))
    run(m, "cse")
    assert [op.get_attr("value").value for op in b.block if op.name == "tp.const"] == [1, 2]
    assert x is not None


def test_cse_scoped_regions_and_isolation() -> None:
    m, f, b = _fn()
    x = b.block.arguments[0]
    outer = b.neg(x)
    loop = b.op(LoopOp, regions=1)
    body = Block()
    loop.regions[0].add_block(body)
    lb = B(body)
    inner = lb.neg(x)  # same as outer: reuses it (outer dominates the region)
    inner2 = lb.add(inner, inner)
    lb.store(inner2)
    lb.op(YieldOp)
    after = b.add(outer, outer)  # must NOT reuse inner2 (defined in the nested region)
    # A nested isolated function does not see the outer scope.
    g, gb = func(m.regions[0].blocks[0], "g")
    gn = gb.neg(gb.block.arguments[0])
    gb.ret(gn)
    b.ret(after)
    run(m, "cse")
    assert names(body) == ["tp.add", "tp.store", "tp.yield"]
    assert body.first.operands == (outer, outer)
    assert after.op.parent is b.block and after.op.operands == (outer, outer)
    assert inner2.op.parent is body
    assert names(gb.block) == ["tp.neg", "tp.ret"]


def test_cse_memory_effects() -> None:
    m, f, b = _fn()
    x = b.block.arguments[0]
    l1 = b.load(x)
    l2 = b.load(x)  # same span: reused
    b.store(x)
    l3 = b.load(x)  # after a write: kept
    o1 = b.opaque(x, n_results=1)
    o2 = b.opaque(x, n_results=1)  # unknown effects: never CSE'd
    b.ret(b.add(b.add(l1, l2), b.add(l3, b.add(o1.results[0], o2.results[0]))))
    run(m, "cse")
    assert names(b.block).count("tp.load") == 2 and names(b.block).count("tp.opaque") == 2


def test_cse_multi_block_dominance() -> None:
    from pass_test_dialect import BrOp, CondBrOp

    m, f, b = _fn()
    region = f.regions[0]
    x = b.block.arguments[0]
    left, right, join = Block(), Block(), Block()
    for blk in (left, right, join):
        region.add_block(blk)
    top = b.neg(x)
    b.op(CondBrOp, [x], successors=[left, right])
    lb, rb, jb = B(left), B(right), B(join)
    ln = lb.neg(x)  # dominated by entry: reuses top
    lb.op(BrOp, successors=[join])
    rn = rb.add(x, x)
    rb.store(rn)
    rb.op(BrOp, successors=[join])
    jn = jb.add(x, x)  # right does not dominate join: kept
    jb.ret(jb.add(jn, top))
    run(m, "cse")
    assert names(left) == ["tp.br"]
    assert names(right) == ["tp.add", "tp.store", "tp.br"] and names(join) == [
        "tp.add",
        "tp.add",
        "tp.ret",
    ]
    assert ln.op.parent is None and rn.op.parent is right


# ---------------------------------------------------------------------------------------------
# dce and remove-dead-values


def test_dce_erases_dead_code_and_unreachable_blocks() -> None:
    m, f, b = _fn()
    x = b.block.arguments[0]
    b.neg(b.add(x, b.const(1)))  # dead chain
    b.store(x)
    b.ret(x)
    dead = Block()
    f.regions[0].add_block(dead)
    B(dead).ret(B(dead).neg(x))
    pm = PassManager.parse("dce", "tp.module")
    pm.enable_verifier(False)
    pm.enable_statistics()
    pm.run(m)
    assert names(b.block) == ["tp.store", "tp.ret"] and len(f.regions[0].blocks) == 1
    report = pm.statistics_report()
    assert "(S) 3 num-erased" in report and "(S) 1 num-blocks-erased" in report


def test_remove_dead_values_drops_unused_args_and_results() -> None:
    m, body = module()
    callee, cb = func(body, "callee", n_args=2, n_results=2, private=True)
    a, unused = cb.block.arguments
    cb.ret(cb.neg(a), cb.add(a, a))
    main, mb = func(body, "main", n_args=1)
    x = mb.block.arguments[0]
    call = mb.call("callee", [x, mb.neg(x)], n_results=2)
    mb.ret(call.results[0])
    run(m, "remove-dead-values")
    assert callee.get_attr("function_type") == A.FunctionType([i32], [i32])
    assert len(cb.block.arguments) == 1 and names(cb.block) == ["tp.neg", "tp.ret"]
    (new_call,) = [op for op in mb.block if type(op) is CallOp]
    assert new_call.operands == (x,) and len(new_call.results) == 1
    assert names(mb.block) == ["tp.call", "tp.ret"]  # the dead argument's neg is gone too


def test_remove_dead_values_keeps_public_functions() -> None:
    m, body = module()
    pub, pb = func(body, "pub", n_args=2)
    pb.ret(pb.block.arguments[0])
    run(m, "remove-dead-values")
    assert len(pb.block.arguments) == 2


# ---------------------------------------------------------------------------------------------
# symbol-dce and symbol-privatize


def _sym_module():  # noqa: ANN202
    m, body = module()
    main, mb = func(body, "main")
    mb.ret(mb.call("used", [mb.block.arguments[0]]).results[0])
    used, ub = func(body, "used", private=True)
    ub.ret(ub.call("transitive", [ub.block.arguments[0]]).results[0])
    trans, tb = func(body, "transitive", private=True)
    tb.ret(tb.block.arguments[0])
    dead, db = func(body, "dead", private=True)
    db.ret(db.call("dead2", [db.block.arguments[0]]).results[0])
    dead2, d2b = func(body, "dead2", private=True)
    d2b.ret(d2b.block.arguments[0])
    return m, body


def test_symbol_dce() -> None:
    m, body = _sym_module()
    pm = PassManager.parse("symbol-dce", "tp.module")
    pm.enable_verifier(False)
    pm.enable_statistics()
    pm.run(m)
    assert [op.get_attr("sym_name").value for op in body] == ["main", "used", "transitive"]
    assert "(S) 2 num-dce'd" in pm.statistics_report()


def test_symbol_privatize_then_dce() -> None:
    m, body = _sym_module()
    run(m, "symbol-privatize{exclude=main},symbol-dce")
    assert [op.get_attr("sym_name").value for op in body] == ["main", "used", "transitive"]
    assert main_visibility(body) == [None, "private", "private"]
    m, body = _sym_module()
    run(m, "symbol-privatize,symbol-dce")
    assert len(list(body)) == 0


def main_visibility(body: Block) -> list:
    return [getattr(op.get_attr("sym_visibility"), "value", None) for op in body]


# ---------------------------------------------------------------------------------------------
# inline


def _inline_module():  # noqa: ANN202
    m, body = module()
    small, sb = func(body, "small", private=True)
    sb.ret(sb.neg(sb.block.arguments[0]))
    big, bb = func(body, "big", private=True)
    v = bb.block.arguments[0]
    for _ in range(5):
        v = bb.add(v, v)
    bb.ret(bb.call("small", [v]).results[0])
    rec, rb = func(body, "rec", private=True)
    rb.ret(rb.call("rec", [rb.block.arguments[0]]).results[0])
    main, mb = func(body, "main")
    x = mb.block.arguments[0]
    y = mb.call("small", [x]).results[0]
    z = mb.call("big", [y]).results[0]
    w = mb.call("rec", [z]).results[0]
    mb.ret(w)
    return m, body, main, mb


def test_inline_callees_first_recursion_kept_dead_callees_erased() -> None:
    m, body, main, mb = _inline_module()
    kctx = run(m, "inline")
    assert names(mb.block) == ["tp.neg"] + ["tp.add"] * 5 + ["tp.neg", "tp.call", "tp.ret"]
    assert [op.get_attr("sym_name").value for op in body] == ["rec", "main"]
    # Every call site was a knob; the recursive one never asks.
    assert [r.name for r in kctx.space()] == ["inline"] * 3
    # Inlined ops carry call-site locations.
    assert type(mb.block.first.location) is A.CallSiteLoc


def test_inline_threshold_and_knob_override() -> None:
    m, body, main, mb = _inline_module()
    kctx = run(m, "inline{threshold=3}")
    # big (6 ops) is over the threshold; small is inlined everywhere (also into big).
    assert names(mb.block) == ["tp.neg", "tp.call", "tp.call", "tp.ret"]
    big_site = [r for r in kctx.space() if r.default is False]
    assert len(big_site) == 1 and big_site[0].key.startswith("@main/tp.call:")
    # The knob overrides the threshold for that one site.
    m, body, main, mb = _inline_module()
    run(m, "inline{threshold=3}", {big_site[0].key: True})
    assert names(mb.block).count("tp.add") == 5


# ---------------------------------------------------------------------------------------------
# loop-invariant-code-motion


def test_licm_hoists_invariant_pure_ops_only() -> None:
    m, f, b = _fn()
    x = b.block.arguments[0]
    loop = b.op(LoopOp, regions=1)
    body = Block([i32])  # an induction variable
    loop.regions[0].add_block(body)
    lb = B(body)
    iv = body.arguments[0]
    inv = lb.neg(x)  # invariant
    inv2 = lb.add(inv, inv)  # invariant once inv is hoisted
    var = lb.add(iv, inv2)  # depends on the induction variable
    ld = lb.load(x)  # reads memory: not hoisted (not speculatable)
    lb.store(var)
    lb.add(ld, ld)
    lb.op(YieldOp)
    b.ret(x)
    pm = PassManager.parse("loop-invariant-code-motion", "tp.module")
    pm.enable_verifier(False)
    pm.enable_statistics()
    pm.run(m)
    assert names(b.block) == ["tp.neg", "tp.add", "tp.loop", "tp.ret"]
    assert names(body) == ["tp.add", "tp.load", "tp.store", "tp.add", "tp.yield"]
    assert "(S) 2 num-hoisted" in pm.statistics_report()
    assert inv.op.parent is b.block and inv2.op.parent is b.block and var.op.parent is body


def test_licm_nested_loops_move_out_of_the_whole_nest() -> None:
    m, f, b = _fn()
    x = b.block.arguments[0]
    outer = b.op(LoopOp, regions=1)
    ob = Block()
    outer.regions[0].add_block(ob)
    inner = B(ob).op(LoopOp, regions=1)
    B(ob).op(YieldOp)
    ib = Block()
    inner.regions[0].add_block(ib)
    n = B(ib).neg(x)
    B(ib).store(n)
    B(ib).op(YieldOp)
    b.ret(x)
    run(m, "loop-invariant-code-motion")
    assert n.op.parent is b.block and names(ib) == ["tp.store", "tp.yield"]


# ---------------------------------------------------------------------------------------------
# interfaces


def test_effect_queries() -> None:
    m, f, b = _fn()
    x = b.block.arguments[0]
    assert is_pure(b.neg(x).op)
    assert not is_pure(b.load(x).op) and would_op_be_trivially_dead(b.block.last)
    assert not would_op_be_trivially_dead(b.store(x))
    assert not would_op_be_trivially_dead(b.opaque(x))
    assert not would_op_be_trivially_dead(f)  # symbols never are
