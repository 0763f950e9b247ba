"""Declarative assembly formats: MLIR's spacing, optional groups, type inference, round trips.

The `mlirops` dialects below re-declare upstream MLIR ops (math.fma, memref.load, cf.cond_br,
tensor.generate, ...) with their ODS `assemblyFormat`; `EXPECTED` is what `iree-opt` prints for
them, so the generated printers are checked against MLIR's real output.
"""

from __future__ import annotations

from typing import Any

import pytest
from mlc.dialects.arith import FASTMATH_NONE, FastMathFlagsAttr

from mlc.ir import attributes as A
from mlc.ir.context import Context, Dialect
from mlc.ir.core import Block, UnregisteredOp
from mlc.ir.opdef import (
    AttrSizedOperandSegments,
    FlatSymbolRefAttrC,
    Index,
    InferTypeOpInterface,
    IntegerAttrC,
    Op,
    Pure,
    SameOperandsAndResultType,
    Terminator,
    UnitAttrC,
    operand,
    opt_operand,
    opt_prop,
    prop,
    region,
    result,
    single_block_implicit_terminator,
    successor,
    var_operand,
    var_result,
)
from mlc.syntax.format import FormatConstraint, compile_format, format_constraint
from mlc.syntax.parser import parse_module

# ---------------------------------------------------------------------------------------------
# Upstream ops, declared with their upstream formats

CMP_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


def _print_predicate(p: Any, attr: A.IntegerAttr) -> None:
    p.write(CMP_PREDICATES[attr.value])


def _parse_predicate(parser: Any) -> A.IntegerAttr:
    kw = parser.parse_optional_keyword_in(CMP_PREDICATES)
    if kw is None:
        raise parser.error("expected a comparison predicate")
    return A.IntegerAttr(CMP_PREDICATES.index(kw), A.i64)


Predicate = FormatConstraint(
    IntegerAttrC.check, "cmpi predicate", print_hook=_print_predicate, parse_hook=_parse_predicate
)
I1 = FormatConstraint(lambda t: t is A.i1, "i1", buildable_type=A.i1)


class FmaOp(Op):
    name = "math.fma"
    traits = (Pure, SameOperandsAndResultType)
    a = operand()
    b = operand()
    c = operand()
    res = result()
    fastmath = prop(format_constraint(FastMathFlagsAttr), default=FASTMATH_NONE)
    format = "$a `,` $b `,` $c (`fastmath` `` $fastmath^)? attr-dict `:` type($res)"


class CmpIOp(Op, InferTypeOpInterface):
    name = "arith.cmpi"
    predicate = prop(Predicate)
    lhs = operand()
    rhs = operand()
    res = result()
    format_type_equalities = (("lhs", "rhs"),)
    format = "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)"

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        t = operand_types[0]
        return [t.clone_with(element_type=A.i1) if isinstance(t, A.ShapedType) else A.i1]


class LoadOp(Op, InferTypeOpInterface):
    name = "memref.load"
    memref = operand()
    indices = var_operand(Index)
    res = result()
    nontemporal = opt_prop()
    format = "$memref `[` $indices `]` attr-dict `:` type($memref)"

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        return [operand_types[0].element_type]


class AllocOp(Op):
    name = "memref.alloc"
    traits = (AttrSizedOperandSegments,)
    dynamicSizes = var_operand(Index)  # noqa: N815 - MLIR's name
    symbolOperands = var_operand(Index)  # noqa: N815
    memref = result()
    alignment = opt_prop()
    format = "`(`$dynamicSizes`)` (`` `[` $symbolOperands^ `]`)? attr-dict `:` type($memref)"

    def get_asm_result_names(self, set_name: Any) -> None:
        set_name(self.results[0], "alloc")


class CallOp(Op):
    name = "func.call"
    callee = prop(FlatSymbolRefAttrC)
    args = var_operand()
    outs = var_result()
    format = "$callee `(` $args `)` attr-dict `:` functional-type($args, results)"


class TensorYieldOp(Op):
    name = "tensor.yield"
    traits = (Terminator,)
    value = operand()
    format = "$value attr-dict `:` type($value)"


class GenerateOp(Op):
    name = "tensor.generate"
    traits = (single_block_implicit_terminator("tensor.yield"),)
    dynamicExtents = var_operand(Index)  # noqa: N815
    res = result()
    body = region()
    format = "$dynamicExtents $body attr-dict `:` type($res)"

    def get_asm_result_names(self, set_name: Any) -> None:
        set_name(self.results[0], "generated")


class DimOp(Op, InferTypeOpInterface):
    name = "tensor.dim"
    source = operand()
    index = operand(Index)
    res = result()
    format = "attr-dict $source `,` $index `:` type($source)"

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        return [A.index]

    def get_asm_result_names(self, set_name: Any) -> None:
        set_name(self.results[0], "dim")


class EmptyOp(Op):
    name = "tensor.empty"
    dynamicSizes = var_operand(Index)  # noqa: N815
    res = result()
    format = "`(`$dynamicSizes`)` attr-dict `:` type($res)"


class IndexCastOp(Op):
    name = "arith.index_cast"
    inp = operand()
    out = result()
    format = "$inp attr-dict `:` type($inp) `to` type($out)"


class BranchOp(Op):
    name = "cf.br"
    traits = (Terminator,)
    destOperands = var_operand()  # noqa: N815
    dest = successor()
    format = "$dest (`(` $destOperands^ `:` type($destOperands) `)`)? attr-dict"


class CondBranchOp(Op):
    name = "cf.cond_br"
    traits = (Terminator, AttrSizedOperandSegments)
    condition = operand(I1)
    trueDestOperands = var_operand()  # noqa: N815
    falseDestOperands = var_operand()  # noqa: N815
    trueDest = successor()  # noqa: N815
    falseDest = successor()  # noqa: N815
    format = (
        "$condition `,` $trueDest (`(` $trueDestOperands^ `:` type($trueDestOperands) `)`)? `,` "
        "$falseDest (`(` $falseDestOperands^ `:` type($falseDestOperands) `)`)? attr-dict"
    )


def upstream_context() -> Context:
    ctx = Context()
    for name, ops in (
        ("math", [FmaOp]),
        ("memref", [LoadOp, AllocOp]),
        ("tensor", [TensorYieldOp, GenerateOp, DimOp, EmptyOp]),
        ("cf", [BranchOp, CondBranchOp]),
    ):
        ctx.register_dialect(Dialect(name, ops=ops))
    return ctx


# The output of `iree-opt` on this very text (its own input, minus `module {` nesting).
EXPECTED = """\
#map = affine_map<(d0, d1)[s0] -> (d0 * 4 + d1 + s0)>
module {
  func.func @f(%arg0: f32, %arg1: f32, %arg2: i32, %arg3: memref<?x4xf32>, %arg4: index, %arg5: tensor<?xf32>) -> f32 {
    %0 = math.fma %arg0, %arg1, %arg0 fastmath<fast> : f32
    %1 = math.fma %arg0, %arg1, %arg0 : f32
    %2 = arith.cmpi slt, %arg2, %arg2 : i32
    %3 = memref.load %arg3[%arg4, %arg4] : memref<?x4xf32>
    %4 = call @g(%arg0) : (f32) -> f32
    call @h() : () -> ()
    %alloc = memref.alloc(%arg4) : memref<?x4xf32>
    %alloc_0 = memref.alloc(%arg4)[%arg4] : memref<?x4xf32, #map>
    %alloc_1 = memref.alloc() : memref<4xf32>
    %generated = tensor.generate %arg4 {
    ^bb0(%arg6: index):
      %cst = arith.constant 1.000000e+00 : f32
      tensor.yield %cst : f32
    } : tensor<?xf32>
    %dim = tensor.dim %arg5, %arg4 : tensor<?xf32>
    %5 = tensor.empty(%arg4) : tensor<?xf32>
    %6 = arith.select %2, %arg0, %arg1 : f32
    %7 = arith.index_cast %arg2 : i32 to index
    cf.br ^bb1(%arg0 : f32)
  ^bb1(%8: f32):  // pred: ^bb0
    cf.cond_br %2, ^bb2, ^bb3(%8, %arg0 : f32, f32)
  ^bb2:  // pred: ^bb1
    return %8 : f32
  ^bb3(%9: f32, %10: f32):  // pred: ^bb1
    return %9 : f32
  }
  func.func private @g(f32) -> f32
  func.func private @h()
}"""  # noqa: E501


def test_upstream_formats_print_like_mlir() -> None:
    ctx = upstream_context()
    module = parse_module(EXPECTED, ctx=ctx)
    assert str(module) == EXPECTED


def test_upstream_formats_generic_round_trip() -> None:
    ctx = upstream_context()
    module = parse_module(EXPECTED, ctx=ctx)
    generic = module.print(generic=True)
    assert '"math.fma"(%arg0, %arg1, %arg0) <{fastmath = #arith.fastmath<fast>}>' in generic
    assert "operandSegmentSizes = array<i32: 1, 1>" in generic
    assert '"math.fma"(%arg0, %arg1, %arg0) <{fastmath = #arith.fastmath<none>}>' in generic
    again = parse_module(generic, ctx=ctx)
    assert again.print(generic=True) == generic
    assert str(again) == EXPECTED


def test_implicit_terminator_is_added_by_the_parser() -> None:
    ctx = upstream_context()
    text = '%n = "other.n"() : () -> index\n%g = tensor.generate %n {\n^bb0(%i: index):\n}'
    with pytest.raises(Exception, match="tensor.yield|operand"):
        # A tensor.yield needs an operand: the implicit one cannot be built empty here.
        parse_module(text + " : tensor<?xf32>", ctx=ctx, allow_unregistered=True).verify()


# ---------------------------------------------------------------------------------------------
# Spacing rules, optional groups, custom directives on test ops


def _ctx(*ops: type) -> Context:
    ctx = Context()
    ctx.register_dialect(Dialect("test", ops=list(ops)))
    return ctx


def _round_trip(ctx: Context, text: str) -> str:
    module = parse_module(text, ctx=ctx, allow_unregistered=True)
    printed = str(module)
    assert str(parse_module(printed, ctx=ctx, allow_unregistered=True)) == printed
    generic = module.print(generic=True)
    assert parse_module(generic, ctx=ctx, allow_unregistered=True).print(generic=True) == generic
    return printed


class PunctOp(Op):
    name = "test.punct"
    x = operand(Index)
    y = var_operand(Index)
    format = "`<` $x `>` `[` $y `]` `{` `}` `->` `:` `(` `)` attr-dict"


class KeywordsOp(Op):
    name = "test.keywords"
    x = operand(Index)
    y = operand(Index)
    format = "`to` $x `step` `` `(` $y `)` attr-dict"


class UnitFlagOp(Op):
    name = "test.unit_flag"
    x = operand(Index)
    fast = opt_prop(UnitAttrC)
    format = "$x (`fast` $fast^)? attr-dict"


class OptOperandOp(Op):
    name = "test.opt_operand"
    x = opt_operand(Index)
    res = var_result()
    format = "(`with` $x^)? attr-dict (`:` type($res)^)?"


class TypedAttrOp(Op):
    name = "test.typed_attr"
    value = prop()
    count = prop(format_constraint(IntegerAttrC, attr_type=A.i32))
    format = "$value `,` $count attr-dict"


class RegionOp(Op):
    name = "test.region_op"
    x = operand(Index)
    body = region()
    format = "$x $body attr-dict-with-keyword"


class CustomOp(Op):
    name = "test.custom"
    x = operand(Index)
    format = "custom<Twice>($x) attr-dict"

    @classmethod
    def parse_Twice(cls, parser: Any, state: Any) -> Any:  # noqa: N802 - MLIR's naming
        first = parser.parse_operand()
        parser.parse_keyword("twice")
        return first

    def print_Twice(self, p: Any, x: Any) -> None:  # noqa: N802
        p.print_operand(x)
        p.write(" twice")


class ElseOp(Op):
    name = "test.else"
    flag = opt_prop(UnitAttrC)
    format = "(`yes` $flag^) : (`no`)? attr-dict"


class PropDictOp(Op):
    name = "test.prop_dict"
    a = opt_prop()
    b = opt_prop()
    format = "$a prop-dict attr-dict"


DEF = '%0 = "other.i"() : () -> index\n'


@pytest.mark.parametrize(
    ("op", "text"),
    [
        (PunctOp, "test.punct<%0> [%0, %0] {} -> : () {a}"),
        (KeywordsOp, "test.keywords to %0 step(%0)"),
        (UnitFlagOp, "test.unit_flag %0 fast"),
        (UnitFlagOp, "test.unit_flag %0"),
        (OptOperandOp, "%1 = test.opt_operand with %0 : i32"),
        (OptOperandOp, "test.opt_operand"),
        (TypedAttrOp, "test.typed_attr 5 : i16, 7"),
        (RegionOp, 'test.region_op %0 {\n  "other.t"() : () -> ()\n} attributes {a}'),
        (CustomOp, "test.custom %0 twice"),
        (ElseOp, "test.else yes"),
        (ElseOp, "test.else no"),
        (PropDictOp, 'test.prop_dict 1 : i8 <{b = "x"}> {c}'),
    ],
)
def test_format_text(op: type, text: str) -> None:
    printed = _round_trip(_ctx(op), DEF + text)
    body = printed.split("\n", 2)[2].rsplit("\n", 1)[0]
    expected = "\n".join("  " + line for line in text.split("\n"))
    assert body == expected


def test_typed_attr_keeps_or_elides_type() -> None:
    module = parse_module(
        DEF + "test.typed_attr 5 : i16, 7", ctx=_ctx(TypedAttrOp), allow_unregistered=True
    )
    op = module.regions[0].blocks[0].last
    assert op.get_attr("count") is A.IntegerAttr(7, A.i32)
    assert op.get_attr("value") is A.IntegerAttr(5, A.i16)


def test_generated_code_is_plain_python() -> None:
    # The generated printer is straight-line code over slots: no format interpretation per op.
    src = FmaOp.print_asm.__doc__
    assert "names[self._operands[0].value]" in src
    assert "for" not in src.split("attrs =")[1].split("if")[0]


# ---------------------------------------------------------------------------------------------
# Bad formats fail at class definition


@pytest.mark.parametrize(
    ("fmt", "message"),
    [
        ("$x", "attr-dict"),
        ("$nope attr-dict", "'\\$nope' is not an operand"),
        ("attr-dict", "operand 'x' not found"),
        ("$x $x attr-dict", "more than once"),
        ("$x attr-dict `:` type($r)", None),
        ("$x $r attr-dict", "result '\\$r' may only appear in type directives"),
        ("$x (`a`)? attr-dict", "anchor"),
        ("$x attr-dict frob", "unknown directive"),
        ("(`a` $x^)? attr-dict type($x) type($r)", "not optional"),
        ("$x attr-dict `:` type($x)", "type of result 'r'"),
        ("attr-dict custom<Nope>($x) type($x) type($r)", "print_Nope"),
    ],
)
def test_bad_formats(fmt: str, message: str | None) -> None:
    def define() -> type:
        class BadOp(Op):
            name = "test.bad"
            x = operand()
            r = result()
            format = fmt

        return BadOp

    if message is None:
        with pytest.raises(TypeError, match="BadOp: bad assembly format: type of operand 'x'"):
            define()
        return
    with pytest.raises(TypeError, match="BadOp: bad assembly format: " + ".*" + message):
        define()


def test_compile_format_can_be_called_directly() -> None:
    class LaterOp(Op):
        name = "test.later"
        x = operand(Index)

    compile_format(LaterOp, "$x `!` attr-dict")
    module = UnregisteredOp.create_named("builtin.module", regions=1)
    block = Block()
    module.regions[0].add_block(block)
    i = block.append(UnregisteredOp.create_named("test.i", result_types=[A.index]))
    block.append(LaterOp.create([i.results[0]]))
    assert str(module).splitlines()[2] == "  test.later %0 !"


class DefaultOp(Op):
    name = "test.default"
    mode = prop(IntegerAttrC, default=A.IntegerAttr(0, A.i32))
    format = "attr-dict"


class DefaultPropDictOp(Op):
    name = "test.default_pd"
    mode = prop(IntegerAttrC, default=A.IntegerAttr(0, A.i32))
    format = "prop-dict attr-dict"


@pytest.mark.parametrize("op", [DefaultOp, DefaultPropDictOp])
def test_default_valued_properties(op: type) -> None:
    # Parsing fills in the default (generic forms show it, as MLIR's do); custom forms elide a
    # property that holds its default.
    ctx = _ctx(op)
    module = parse_module(f"{op.name}\n{op.name} {{mode = 1 : i32}}", ctx=ctx)
    first, second = module.regions[0].blocks[0]
    assert first.get_attr("mode") is A.IntegerAttr(0, A.i32)
    assert str(first) == op.name
    dict_text = "<{mode = 1 : i32}>" if op is DefaultPropDictOp else "{mode = 1 : i32}"
    assert str(second) == f"{op.name} {dict_text}"
    assert first.print(generic=True) == f'"{op.name}"() <{{mode = 0 : i32}}> : () -> ()'
    _round_trip(ctx, f"{op.name} {dict_text}")
