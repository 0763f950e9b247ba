"""Pattern rewriting: the rewriter and its notifications, frozen pattern sets, the greedy driver
(folding, constants, dead code, benefits, limits, region simplification), dialect conversion."""

from __future__ import annotations

import pytest
from pass_test_dialect import (
    AddOp,
    B,
    BrOp,
    CondBrOp,
    ConstOp,
    FoldNegNeg,
    NegOp,
    OpaqueOp,
    RetOp,
    func,
    i32,
    module,
    names,
)

from mlc.diagnostics import engine
from mlc.ir import attributes as A
from mlc.ir.core import Block, Operation
from mlc.rewrite import (
    FrozenPatternSet,
    GreedyRewriteConfig,
    Listener,
    PatternRewriter,
    RewritePattern,
    apply_patterns_greedily,
)
from mlc.rewrite.conversion import (
    CAST_OP_NAME,
    ConversionPattern,
    ConversionTarget,
    TypeConverter,
    apply_full_conversion,
    apply_partial_conversion,
)


def _fn(n_args: int = 1) -> tuple[Operation, Operation, B]:
    m, body = module()
    f, b = func(body, "f", n_args=n_args)
    return m, f, b


def _consts(block: Block) -> list[int]:
    return [op.get_attr("value").value for op in block if type(op) is ConstOp]


# ---------------------------------------------------------------------------------------------
# The rewriter


class _Recorder(Listener):
    def __init__(self) -> None:
        self.events: list[str] = []

    def notify_op_inserted(self, op: Operation) -> None:
        self.events.append(f"insert {op.name}")

    def notify_op_modified(self, op: Operation) -> None:
        self.events.append(f"modify {op.name}")

    def notify_op_replaced(self, op: Operation, values) -> None:  # noqa: ANN001
        self.events.append(f"replace {op.name}")

    def notify_op_erased(self, op: Operation) -> None:
        self.events.append(f"erase {op.name}")


def test_rewriter_notifies_every_change() -> None:
    _, _, b = _fn()
    x = b.block.arguments[0]
    n = b.neg(x)
    ret = b.ret(n)
    rec = _Recorder()
    rw = PatternRewriter(rec)
    rw.set_insertion_point_before(ret)
    c = rw.create(ConstOp, (), [i32], {"value": A.IntegerAttr(5, i32)}).results[0]
    assert rw.block is b.block
    rw.replace_op(n.op, [c])
    assert rec.events == ["insert tp.const", "replace tp.neg", "modify tp.ret", "erase tp.neg"]
    assert names(b.block) == ["tp.const", "tp.ret"] and ret.operand(0) is c


def test_rewriter_insertion_points_and_inline_block() -> None:
    _, _, b = _fn()
    ret = b.ret(b.block.arguments[0])
    rw = PatternRewriter()
    rw.set_insertion_point_to_start(b.block)
    rw.create(ConstOp, (), [i32], {"value": A.IntegerAttr(1, i32)})
    rw.set_insertion_point_after(b.block.first)
    two = rw.create(ConstOp, (), [i32], {"value": A.IntegerAttr(2, i32)})
    assert _consts(b.block) == [1, 2]
    # Inline a block with an argument before the terminator.
    src = Block([i32])
    sb = B(src)
    sb.neg(src.arguments[0])
    rw.inline_block_before(src, ret, [two.results[0]])
    assert names(b.block) == ["tp.const", "tp.const", "tp.neg", "tp.ret"]
    assert b.block.ops[2].operand(0) is two.results[0]
    with pytest.raises(Exception):  # noqa: B017 - erasing an op with uses is an IRError
        rw.erase_op(two)


# ---------------------------------------------------------------------------------------------
# Pattern sets


class _Named(RewritePattern):
    def __init__(self, label: str, root, benefit: int, log: list[str], ok: bool = False) -> None:  # noqa: ANN001
        super().__init__(root, benefit)
        self.label = label
        self.log = log
        self.ok = ok

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        self.log.append(self.label)
        return self.ok


def test_pattern_set_orders_by_benefit_and_merges_any_op() -> None:
    log: list[str] = []
    pats = [
        _Named("low", AddOp, 1, log),
        _Named("any", None, 5, log),
        _Named("high", AddOp, 10, log),
        _Named("byname", "tp.add", 3, log),
        _Named("other", NegOp, 100, log),
    ]
    s = FrozenPatternSet(pats)
    _, _, b = _fn()
    add = b.add(b.block.arguments[0], b.block.arguments[0]).op
    assert [p.debug_name for p in s.patterns_for(add)] == ["high", "any", "byname", "low"]
    assert s.patterns_for(add) is s.patterns_for(add)  # indexed once per class
    assert [p.debug_name for p in FrozenPatternSet(pats, disabled=["high"]).patterns_for(add)] == [
        "any",
        "byname",
        "low",
    ]
    assert [p.debug_name for p in FrozenPatternSet(pats, enabled=["low"]).patterns_for(add)] == [
        "low"
    ]


def test_canonicalization_set_collects_dialect_patterns() -> None:
    s = FrozenPatternSet.canonicalization()
    labels = {p.debug_name for p in s}
    assert {"FoldNegNeg", "FoldConstCondBr"} <= labels
    (neg_pat,) = [p for p in s if p.debug_name == "FoldNegNeg"]
    assert neg_pat.root is NegOp  # declared on the op: rooted there


# ---------------------------------------------------------------------------------------------
# The greedy driver


def test_folds_chain_and_dedups_hoisted_constants() -> None:
    m, f, b = _fn()
    x = b.block.arguments[0]
    v = b.const(1)
    for _ in range(5):
        v = b.add(v, b.const(1))  # folds all the way to 6
    y = b.add(x, b.const(0))  # x + 0 -> x
    b.ret(b.add(y, v))
    r = apply_patterns_greedily(f, [])
    assert r.converged and r.changed and r.num_folds == 6
    assert names(b.block) == ["tp.const", "tp.add", "tp.ret"]
    assert _consts(b.block) == [6]
    assert b.block.ops[1].operands == (x, b.block.first.results[0])


def test_existing_constants_are_deduplicated_and_hoisted() -> None:
    _, f, b = _fn()
    x = b.block.arguments[0]
    a = b.add(x, b.const(7))
    c = b.add(a, b.const(7))
    b.ret(c)
    apply_patterns_greedily(f, [])
    assert names(b.block) == ["tp.const", "tp.add", "tp.add", "tp.ret"]
    k = b.block.first.results[0]
    assert [op.operand(1) for op in b.block.ops[1:3]] == [k, k]


def test_dead_ops_erased_transitively_but_not_effects() -> None:
    _, f, b = _fn()
    x = b.block.arguments[0]
    b.neg(b.neg(b.add(x, x)))  # dead chain
    b.opaque(x)  # unknown effects: kept
    b.store(x)  # writes: kept
    b.load(x)  # read-only and unused: dead
    b.ret(x)
    r = apply_patterns_greedily(f, [], GreedyRewriteConfig(fold=False))
    assert names(b.block) == ["tp.opaque", "tp.store", "tp.ret"]
    assert r.num_erased == 4


def test_patterns_apply_and_benefit_decides() -> None:
    _, f, b = _fn()
    x = b.block.arguments[0]
    b.ret(b.neg(b.neg(x)))
    log: list[str] = []
    low = _Named("low", NegOp, 0, log, ok=False)
    r = apply_patterns_greedily(f, [low, FoldNegNeg(NegOp, 5)])
    assert names(b.block) == ["tp.ret"] and b.block.last.operand(0) is x
    assert r.num_rewrites == 1
    assert "low" in log  # tried for the inner neg, which FoldNegNeg does not match


class _PingPong(RewritePattern):
    """Swap the operands of every add forever."""

    root = AddOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        a, b = op.operands
        rewriter.modify_op_in_place(op, lambda: op.set_operands([b, a]))
        return True


def test_non_convergence_stops_at_the_iteration_limit() -> None:
    _, f, b = _fn(2)
    x, y = b.block.arguments
    b.ret(b.add(x, y))
    n_ops = 2
    r = apply_patterns_greedily(f, [_PingPong()], GreedyRewriteConfig(max_iterations=3))
    assert not r.converged
    assert r.num_rewrites == 3 * (n_ops + 1)
    r = apply_patterns_greedily(f, [_PingPong()], GreedyRewriteConfig(max_num_rewrites=2))
    assert not r.converged and r.num_rewrites == 2


def test_canonicalize_warns_or_fails_on_non_convergence() -> None:
    import mlc.passes.canonicalize as canon

    from mlc.pass_manager import PassError, PassManager

    m, f, b = _fn(2)
    x, y = b.block.arguments
    b.ret(b.add(x, y))
    AddOp.canonicalization_patterns = (_PingPong,)
    try:
        pm = PassManager.parse("canonicalize{max-iterations=2}", "tp.module")
        pm.enable_verifier(False)
        with engine.capture() as diags:
            pm.run(m)
        assert [d.severity for d in diags] == ["warning"]
        assert diags[0].message == "canonicalization did not converge within 2 iterations"
        pm = PassManager.parse("canonicalize{max-iterations=2 test-convergence=true}", "tp.module")
        pm.enable_verifier(False)
        with pytest.raises(PassError):
            pm.run(m)
    finally:
        AddOp.canonicalization_patterns = ()
    assert canon.CanonicalizePass.name == "canonicalize"


def test_in_place_fold_revisits_users() -> None:
    _, f, b = _fn()
    x = b.block.arguments[0]

    calls: list[int] = []

    def fold(self, attrs):  # noqa: ANN001, ANN202 - folds in place once: swaps operands
        calls.append(1)
        if len(calls) == 1:
            self.set_operands(list(reversed(self.operands)))
            return self.results[0]
        return None

    OpaqueOp.fold = fold
    try:
        op = b.opaque(x, b.const(3), n_results=1)
        b.ret(op.results[0])
        r = apply_patterns_greedily(f, [])
    finally:
        del OpaqueOp.fold
    assert r.num_folds == 1 and len(calls) == 2
    assert op.operand(1) is x


def test_unreachable_blocks_erased_after_branch_folds() -> None:
    _, f, b = _fn()
    region = f.regions[0]
    entry = b.block
    then_b, else_b, dead = Block(), Block(), Block()
    for blk in (then_b, else_b, dead):
        region.add_block(blk)
    cond = b.const(1)
    b.op(CondBrOp, [cond], successors=[then_b, else_b])
    B(then_b).ret(entry.arguments[0])
    B(else_b).ret(B(else_b).neg(entry.arguments[0]))
    B(dead).op(BrOp, [], successors=[else_b])
    r = apply_patterns_greedily(f, FrozenPatternSet.canonicalization())
    assert r.converged and r.num_blocks_erased == 2
    assert region.blocks == [entry, then_b]
    assert names(entry) == ["tp.br"]
    r = apply_patterns_greedily(
        f, FrozenPatternSet.canonicalization(), GreedyRewriteConfig(region_simplification=False)
    )
    assert r.num_blocks_erased == 0


def test_bottom_up_order() -> None:
    _, f, b = _fn()
    x = b.block.arguments[0]
    n1 = b.neg(x)
    n2 = b.neg(n1)
    b.ret(n2)
    seen: list[Operation] = []

    class Spy(RewritePattern):
        root = NegOp

        def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
            seen.append(op)
            return False

    apply_patterns_greedily(f, [Spy()], GreedyRewriteConfig(top_down=False))
    assert seen == [n2.op, n1.op]
    seen.clear()
    apply_patterns_greedily(f, [Spy()])
    assert seen == [n1.op, n2.op]


def test_greedy_linear_worklist_on_long_chain() -> None:
    _, f, b = _fn()
    v = b.const(0)
    for _ in range(20000):
        v = b.add(v, b.const(1))
    b.ret(v)
    r = apply_patterns_greedily(f, [])
    assert _consts(b.block) == [20000] and r.num_folds == 20000


# ---------------------------------------------------------------------------------------------
# Dialect conversion


i64 = A.i64


class _AddToNeg(ConversionPattern):
    """tp.add(a, b) -> tp.neg(a) (a made-up lowering; operands come converted)."""

    root = AddOp

    def match_and_rewrite(self, op: Operation, operands, rewriter) -> bool:  # noqa: ANN001
        rewriter.replace_op(op, rewriter.create(NegOp, [operands[0]], [operands[0].type]).results)
        return True


def _i32_to_i64() -> TypeConverter:
    tc = TypeConverter()
    tc.add_conversion(lambda t: i64 if t is i32 else None)
    return tc


def test_full_conversion_success_with_materializations() -> None:
    m, f, b = _fn()
    x = b.block.arguments[0]
    b.ret(b.add(x, x))
    target = ConversionTarget()
    target.add_legal_op(NegOp, RetOp, "tp.func", "tp.module")
    target.add_illegal_op(AddOp)
    tc = _i32_to_i64()
    ok = apply_full_conversion(m, target, [_AddToNeg(tc)], tc)
    assert ok
    # The neg works on i64: x is cast to i64, and its result cast back for tp.ret (still i32).
    assert names(b.block) == [CAST_OP_NAME, "tp.neg", CAST_OP_NAME, "tp.ret"]
    c1, neg, c2, ret = b.block.ops
    assert c1.operand(0) is x and c1.results[0].type is i64
    assert (
        neg.results[0].type is i64 and c2.results[0].type is i32 and ret.operand(0) is c2.results[0]
    )


def test_conversion_chains_through_converted_producers() -> None:
    m, f, b = _fn()
    x = b.block.arguments[0]
    b.ret(b.add(b.add(x, x), x))
    target = ConversionTarget()
    target.add_legal_dialect("tp")
    target.add_illegal_op(AddOp)
    tc = _i32_to_i64()
    assert apply_partial_conversion(m, target, [_AddToNeg(tc)], tc)
    # The second neg consumes the first neg's i64 result directly (the bridge cast is gone).
    negs = [op for op in b.block if type(op) is NegOp]
    assert negs[1].operand(0) is negs[0].results[0]
    assert sum(1 for op in b.block if op.name == CAST_OP_NAME) == 2


def test_full_conversion_fails_on_unknown_and_illegal() -> None:
    m, f, b = _fn()
    x = b.block.arguments[0]
    b.ret(b.neg(x))
    target = ConversionTarget()
    target.add_legal_op(RetOp, "tp.func", "tp.module")
    with engine.capture() as diags:
        ok = apply_full_conversion(m, target, [])
    assert not ok and [d.message for d in diags] == ["failed to legalize operation 'tp.neg'"]
    target.add_illegal_op(NegOp)
    with engine.capture() as diags:
        ok = apply_partial_conversion(m, target, [])
    assert not ok
    assert (
        diags[0].message
        == "failed to legalize operation 'tp.neg' that was explicitly marked illegal"
    )


def test_partial_conversion_leaves_unknown_ops() -> None:
    m, f, b = _fn()
    x = b.block.arguments[0]
    b.ret(b.neg(b.add(x, x)))
    target = ConversionTarget()
    target.add_illegal_op(AddOp)
    assert apply_partial_conversion(m, target, [_AddToNeg()])
    assert names(b.block) == ["tp.neg", "tp.neg", "tp.ret"]


def test_dynamic_legality_and_recursive_legal() -> None:
    m, f, b = _fn()
    x = b.block.arguments[0]
    b.ret(b.add(x, x))
    target = ConversionTarget()
    target.add_legal_dialect("tp")
    target.add_dynamically_legal_op(AddOp, lambda op: op.get_attr("ok") is not None)
    target.mark_op_recursively_legal("tp.func", lambda op: op.get_attr("skip") is not None)
    f.set_attr("skip", A.UnitAttr())
    with engine.capture() as diags:
        assert apply_full_conversion(m, target, [])  # everything inside f is legal
    assert not diags
    f.remove_attr("skip")
    with engine.capture() as diags:
        assert not apply_full_conversion(m, target, [])
    assert diags[0].message == "failed to legalize operation 'tp.add'"


def test_region_signature_conversion_and_reconcile() -> None:
    from mlc.passes.reconcile_casts import reconcile_unrealized_casts

    m, f, b = _fn()
    x = b.block.arguments[0]
    b.ret(b.neg(x))
    tc = _i32_to_i64()

    class ConvertFunc(ConversionPattern):
        root = "tp.func"

        def match_and_rewrite(self, op: Operation, operands, rewriter) -> bool:  # noqa: ANN001
            if op.get_attr("done") is not None:
                return False
            rewriter.convert_region_types(op.regions[0], tc)
            rewriter.modify_op_in_place(op, lambda: op.set_attr("done", A.UnitAttr()))
            return True

    target = ConversionTarget()
    target.add_legal_dialect("tp")
    target.add_dynamically_legal_op("tp.func", lambda op: op.get_attr("done") is not None)
    assert apply_partial_conversion(m, target, [ConvertFunc()], tc)
    assert x.type is i64
    cast = b.block.first
    assert cast.name == CAST_OP_NAME and cast.operand(0) is x and cast.results[0].type is i32
    # A round trip i64 -> i32 -> i64 folds away; the single remaining cast stays.
    neg = b.block.ops[1]
    rw = PatternRewriter()
    rw.set_insertion_point_after(neg)
    from mlc.rewrite.conversion import create_unrealized_cast

    back = create_unrealized_cast(rw, i64, [cast.results[0]])
    user = rw.create(NegOp, [back.results[0]], [i64])
    folded, erased = reconcile_unrealized_casts(m)
    assert folded == 1 and erased == 1 and user.operand(0) is x
