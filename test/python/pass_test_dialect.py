"""A small dialect (`tp`) for testing passes without the parser: module, functions, calls,
constants with folding, memory effects, a loop, branches; plus IR-building helpers."""

from __future__ import annotations

from typing import Any

from mlc.interfaces import (
    READ,
    WRITE,
    CallableOpInterface,
    CallOpInterface,
    EffectInstance,
    LoopLikeOpInterface,
    MemoryEffectsOpInterface,
)
from mlc.ir import attributes as A
from mlc.ir.context import Dialect, default_context
from mlc.ir.core import Block, Operation, Value
from mlc.ir.opdef import (
    Commutative,
    ConstantLike,
    IsolatedFromAbove,
    NoTerminator,
    Op,
    Pure,
    ReturnLike,
    Symbol,
    SymbolTable,
    Terminator,
    operand,
    opt_prop,
    prop,
    region,
    result,
    successor,
    var_operand,
    var_result,
)
from mlc.rewrite import PatternRewriter, RewritePattern

i32 = A.i32


class ModuleOp(Op):
    name = "tp.module"
    traits = (SymbolTable, IsolatedFromAbove, NoTerminator)
    body = region()


class FuncOp(Op, CallableOpInterface):
    name = "tp.func"
    traits = (Symbol, IsolatedFromAbove)
    sym_name = prop()
    function_type = prop()
    sym_visibility = opt_prop()
    body = region()

    def callable_region(self) -> Any:
        r = self.regions[0]
        return r if r.blocks else None

    def callable_argument_types(self) -> Any:
        return self.function_type.inputs

    def callable_result_types(self) -> Any:
        return self.function_type.results


class ConstOp(Op):
    name = "tp.const"
    traits = (Pure, ConstantLike)
    value = prop()
    res = result()


class AddOp(Op):
    name = "tp.add"
    traits = (Pure, Commutative)
    lhs = operand()
    rhs = operand()
    res = result()

    def fold(self, attrs: list) -> Any:
        a, b = attrs
        if a is not None and b is not None:
            return A.IntegerAttr(a.value + b.value, a.type)
        if b is not None and b.value == 0:
            return self.lhs
        return None


class FoldNegNeg(RewritePattern):
    """neg(neg(x)) -> x"""

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        inner = op.operand(0).defining_op()
        if type(inner) is not NegOp:
            return False
        rewriter.replace_op(op, [inner.operand(0)])
        return True


class NegOp(Op):
    name = "tp.neg"
    traits = (Pure,)
    x = operand()
    res = result()
    canonicalization_patterns = (FoldNegNeg,)


class RetOp(Op):
    name = "tp.ret"
    traits = (Pure, Terminator, ReturnLike)
    args = var_operand()


class CallOp(Op, CallOpInterface):
    name = "tp.call"
    callee = prop()
    args = var_operand()
    res = var_result()

    def callee_ref(self) -> Any:
        return self.callee

    def arg_operands(self) -> Any:
        return self.operands


class LoadOp(Op, MemoryEffectsOpInterface):
    name = "tp.load"
    x = operand()
    res = result()

    def get_effects(self) -> list[EffectInstance]:
        return [EffectInstance(READ, self.operand(0))]


class StoreOp(Op, MemoryEffectsOpInterface):
    name = "tp.store"
    x = operand()

    def get_effects(self) -> list[EffectInstance]:
        return [EffectInstance(WRITE, self.operand(0))]


class OpaqueOp(Op):
    """Unknown effects."""

    name = "tp.opaque"
    args = var_operand()
    res = var_result()


class LoopOp(Op, LoopLikeOpInterface):
    name = "tp.loop"
    body = region()


class YieldOp(Op):
    name = "tp.yield"
    traits = (Pure, Terminator)


class BrOp(Op):
    name = "tp.br"
    traits = (Pure, Terminator)
    args = var_operand()
    dest = successor()


class CondBrOp(Op):
    name = "tp.cond_br"
    traits = (Pure, Terminator)
    cond = operand()
    then_dest = successor()
    else_dest = successor()

    def fold(self, attrs: list) -> Any:
        return None


class FoldConstCondBr(RewritePattern):
    """cond_br on a constant -> br"""

    root = CondBrOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        c = op.operand(0).defining_op()
        if type(c) is not ConstOp:
            return False
        dest = op.successors[0] if c.value.value else op.successors[1]
        rewriter.set_insertion_point_before(op)
        rewriter.insert(BrOp.create([], [], None, (), [dest], op.location))
        rewriter.erase_op(op)
        return True


def materialize(attr: A.Attribute, t: A.Type, loc: A.Location | None) -> Operation | None:
    if type(attr) is not A.IntegerAttr:
        return None
    return ConstOp.create((), [t], {"value": attr}, location=loc)


DIALECT = Dialect(
    "tp",
    ops=[
        ModuleOp,
        FuncOp,
        ConstOp,
        AddOp,
        NegOp,
        RetOp,
        CallOp,
        LoadOp,
        StoreOp,
        OpaqueOp,
        LoopOp,
        YieldOp,
        BrOp,
        CondBrOp,
    ],
    materialize_constant=materialize,
    canonicalization_patterns=[FoldConstCondBr],
)
default_context().register_dialect(DIALECT)


# ---------------------------------------------------------------------------------------------
# Builders


class B:
    """Appends ops to a block: `b.const(1)`, `b.add(x, y)`, ..."""

    def __init__(self, block: Block) -> None:
        self.block = block

    def op(
        self, cls: type, operands: Any = (), types: Any = (), attrs: Any = None, **kw: Any
    ) -> Operation:
        return self.block.append(cls.create(list(operands), list(types), attrs, **kw))

    def const(self, v: int) -> Value:
        return self.op(ConstOp, (), [i32], {"value": A.IntegerAttr(v, i32)}).results[0]

    def add(self, a: Value, b: Value) -> Value:
        return self.op(AddOp, [a, b], [i32]).results[0]

    def neg(self, a: Value) -> Value:
        return self.op(NegOp, [a], [i32]).results[0]

    def ret(self, *vals: Value) -> Operation:
        return self.op(RetOp, vals)

    def call(self, callee: str, args: Any = (), n_results: int = 1) -> Operation:
        return self.op(CallOp, args, [i32] * n_results, {"callee": A.SymbolRefAttr(callee)})

    def load(self, x: Value) -> Value:
        return self.op(LoadOp, [x], [i32]).results[0]

    def store(self, x: Value) -> Operation:
        return self.op(StoreOp, [x])

    def opaque(self, *args: Value, n_results: int = 0) -> Operation:
        return self.op(OpaqueOp, args, [i32] * n_results)


def module() -> tuple[Operation, Block]:
    m = ModuleOp.create(regions=1)
    body = Block()
    m.regions[0].add_block(body)
    return m, body


def func(
    parent: Block, name: str, n_args: int = 1, n_results: int = 1, private: bool = False
) -> tuple[Operation, B]:
    attrs: dict[str, A.Attribute] = {
        "sym_name": A.StringAttr(name),
        "function_type": A.FunctionType([i32] * n_args, [i32] * n_results),
    }
    if private:
        attrs["sym_visibility"] = A.StringAttr("private")
    f = FuncOp.create((), (), attrs, 1)
    entry = Block([i32] * n_args)
    f.regions[0].add_block(entry)
    parent.append(f)
    return f, B(entry)


def names(block: Block) -> list[str]:
    return [op.name for op in block]
