"""Tests of the MLIR text parser: grammar, SSA scoping, errors with locations, fuzzing."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mlc
from mlc.ir import attributes as A
from mlc.ir.context import Context, Dialect
from mlc.ir.core import Block, UnregisteredOp
from mlc.ir.opdef import (
    IsolatedFromAbove,
    Op,
    OperationState,
    Terminator,
    operand,
    region,
    result,
    var_operand,
    var_successor,
)
from mlc.syntax.lexer import tokenize
from mlc.syntax.parser import Parser, parse_attribute, parse_module, parse_type

INTEROP = Path(__file__).resolve().parents[1] / "interop" / "mlir_generic"

# ---------------------------------------------------------------------------------------------
# A small test dialect with custom assembly


class AddOp(Op):
    """`test.add %a, %b : i32`."""

    name = "test.add"
    lhs = operand()
    rhs = operand()
    res = result()

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        a = parser.parse_operand()
        parser.parse_punct(",")
        b = parser.parse_operand()
        parser.parse_optional_attr_dict(state.attributes)
        t = parser.parse_colon_type()
        state.operands = parser.resolve_operands([a, b], [t, t])
        state.result_types = [t]


class RetOp(Op):
    """`test.ret %a, %b : i32, i32` (or `return` inside test regions)."""

    name = "test.ret"
    traits = (Terminator,)
    args = var_operand()

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        uses = parser.parse_operand_list()
        if uses:
            state.operands = parser.resolve_operands(uses, parser.parse_colon_type_list())


class BrOp(Op):
    """`test.br ^bb1(%a : i32), ^bb2`: successors with operands."""

    name = "test.br"
    traits = (Terminator,)
    args = var_operand()
    dests = var_successor()

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        def one() -> None:
            block, values = parser.parse_successor_and_use_list()
            state.successors.append(block)
            state.operands.extend(values)

        parser.parse_comma_separated_list("none", one)


class ScopeOp(Op):
    """`test.scope { ... }`: a plain region; bare op names resolve in `test`."""

    name = "test.scope"
    body = region()
    default_dialect = "test"

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        parser.parse_optional_attr_dict_with_keyword(state.attributes)
        state.regions = [parser.parse_region()]


class IsolatedOp(Op):
    """`test.isolated(%x: i32) { ... }`: an isolated region whose arguments may shadow."""

    name = "test.isolated"
    traits = (IsolatedFromAbove,)
    body = region()
    default_dialect = "test"

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        args = parser.parse_argument_list("paren")
        state.regions = [parser.parse_region(args, enable_name_shadowing=True)]


class FuncOp(Op):
    """`test.func @f(%a: i32) { ... }`: arguments must not shadow (as func.func)."""

    name = "test.func"
    traits = (IsolatedFromAbove,)
    body = region()
    default_dialect = "test"

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        state.attributes["sym_name"] = A.StringAttr(parser.parse_symbol_name())
        args = parser.parse_argument_list("paren")
        results = parser.parse_optional_arrow_type_list() or []
        ft = A.FunctionType([a.type for a in args], results)
        state.attributes["function_type"] = A.TypeAttr(ft)
        state.regions = [parser.parse_region(args)]


class PairType(A.DialectType):
    """`!test.pair<i32, f32>`."""

    name = "test.pair"
    __slots__ = ("first", "second")

    @classmethod
    def parse_parameters(cls, parser: Any) -> A.DialectType:
        parser.parse_punct("<")
        first = parser.parse_type()
        parser.parse_punct(",")
        second = parser.parse_type()
        parser.parse_punct(">")
        return cls(first, second)


class FlagAttr(A.DialectAttr):
    """`#test.flag<fast>`."""

    name = "test.flag"
    __slots__ = ("value",)

    @classmethod
    def parse_parameters(cls, parser: Any) -> A.DialectAttr:
        parser.parse_punct("<")
        value = parser.parse_keyword()
        parser.parse_punct(">")
        return cls(value)


TEST_DIALECT = Dialect(
    "test",
    ops=[AddOp, RetOp, BrOp, ScopeOp, IsolatedOp, FuncOp],
    types=[PairType],
    attributes=[FlagAttr],
)


@pytest.fixture
def ctx() -> Context:
    c = Context()
    c.register_dialect(TEST_DIALECT)
    return c


def parse(text: str, ctx: Context | None = None, **kw: Any) -> Any:
    kw.setdefault("allow_unregistered", True)
    return parse_module(text, ctx=ctx, **kw)


def top_ops(module: Any) -> list[Any]:
    return list(module.regions[0].blocks[0])


def error_of(text: str, ctx: Context | None = None, **kw: Any) -> tuple[int, int, str]:
    """(line, col, message) of the ParseError that parsing `text` raises."""
    with pytest.raises(mlc.ParseError) as info:
        parse(text, ctx, **kw)
    diag = info.value.diagnostic
    loc = diag.file_loc
    assert loc is not None, diag.message
    assert "internal error" not in diag.message
    return loc.line, loc.col, diag.message


# ---------------------------------------------------------------------------------------------
# Lexer


def test_lexer_splits_shapes_and_keeps_offsets() -> None:
    text = '%0:2 = "a.b"(%x#1) // c\n : tensor<4x?x[8]xf32> -> i32 {-# #-}'
    toks, starts = tokenize(text)
    assert toks[:8] == ["%0", ":", "2", "=", '"a.b"', "(", "%x#1", ")"]
    assert toks[8:19] == [":", "tensor", "<", "4", "x", "?", "x", "[", "8", "]", "x"]
    assert toks[-7:] == ["->", "i32", "{-#", "#-}", "", "", ""][-7:] or toks[-1] == ""
    for tok, start in zip(toks, starts, strict=True):
        if tok:
            assert text[start : start + len(tok)] == tok
    assert toks[-1] == "" and starts[-1] == len(text)


# ---------------------------------------------------------------------------------------------
# Types


@pytest.mark.parametrize(
    "text, expected",
    [
        ("i1", A.i1),
        ("i32", A.i32),
        ("si8", A.IntegerType(8, A.SIGNED)),
        ("ui16", A.IntegerType(16, A.UNSIGNED)),
        ("index", A.index),
        ("f16", A.f16),
        ("bf16", A.bf16),
        ("f80", A.FloatType("f80")),
        ("tf32", A.FloatType("tf32")),
        ("f8E4M3FN", A.FloatType("f8E4M3FN")),
        ("none", A.none_type),
        ("complex<f32>", A.ComplexType(A.f32)),
        ("tensor<4x?xf32>", A.RankedTensorType([4, A.DYNAMIC], A.f32)),
        ("tensor<f32>", A.RankedTensorType([], A.f32)),
        ("tensor<*xf32>", A.UnrankedTensorType(A.f32)),
        ("tensor<0xf32>", A.RankedTensorType([0], A.f32)),
        ("tensor<0x4xbf16>", A.RankedTensorType([0, 4], A.bf16)),
        ("tensor<4 x f32>", A.RankedTensorType([4], A.f32)),
        ('tensor<4xf32, "enc">', A.RankedTensorType([4], A.f32, A.StringAttr("enc"))),
        ("memref<4x?xf32>", A.MemRefType([4, A.DYNAMIC], A.f32)),
        ("memref<*xf32>", A.UnrankedMemRefType(A.f32)),
        ("memref<*xf32, 1>", A.UnrankedMemRefType(A.f32, A.IntegerAttr(1))),
        ("memref<4xf32, 1>", A.MemRefType([4], A.f32, None, A.IntegerAttr(1))),
        ("memref<4xf32, 0>", A.MemRefType([4], A.f32)),
        (
            "memref<4xf32, strided<[?, 1], offset: ?>>",
            A.MemRefType([4], A.f32, A.StridedLayoutAttr([A.DYNAMIC, 1], A.DYNAMIC)),
        ),
        ("vector<4xf32>", A.VectorType([4], A.f32)),
        ("vector<[4]xf32>", A.VectorType([4], A.f32, [True])),
        ("vector<2x[4]xf32>", A.VectorType([2, 4], A.f32, [False, True])),
        ("vector<f32>", A.VectorType([], A.f32)),
        ("(i32, f32) -> i32", A.FunctionType([A.i32, A.f32], [A.i32])),
        ("() -> ()", A.FunctionType([], [])),
        ("(i32) -> (i32, i32)", A.FunctionType([A.i32], [A.i32, A.i32])),
        (
            "((i32) -> i32) -> (() -> ())",
            A.FunctionType([A.FunctionType([A.i32], [A.i32])], [A.FunctionType([], [])]),
        ),
        ("tuple<i32, f32>", A.TupleType([A.i32, A.f32])),
        ("tuple<>", A.TupleType([])),
        ("!foo.bar", A.OpaqueType("foo", ".bar")),
        ('!foo.bar<"x", 4>', A.OpaqueType("foo", '.bar<"x", 4>')),
        ('!foo<"x">', A.OpaqueType("foo", '<"x">')),
        ("!nodialect.struct<(i32, ptr)>", A.OpaqueType("nodialect", ".struct<(i32, ptr)>")),
    ],
)
def test_types(text: str, expected: A.Type) -> None:
    assert parse_type(text) is expected


def test_memref_affine_layout() -> None:
    t = parse_type("memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>, 2>")
    assert type(t.layout) is A.AffineMapAttr
    assert t.layout.value.num_dims == 2
    assert t.memory_space is A.IntegerAttr(2)
    # The identity map is the default layout.
    assert parse_type("memref<4xf32, affine_map<(d0) -> (d0)>>") is A.MemRefType([4], A.f32)


def test_dialect_type_and_attr_hooks(ctx: Context) -> None:
    m = parse('"t.op"() {a = !test.pair<i32, f32>, b = #test.flag<fast>} : () -> ()', ctx)
    attrs = top_ops(m)[0].attributes
    assert attrs["a"].value is PairType(A.i32, A.f32)
    assert attrs["b"] is FlagAttr("fast")


def test_type_alias() -> None:
    m = parse('!t = tensor<4xf32>\n"t.op"() {a = !t} : (!t) -> ()'.replace("(!t)", "()"))
    assert top_ops(m)[0].attributes["a"].value is A.RankedTensorType([4], A.f32)
    m = parse('!t = i32\n%0 = "t.a"() : () -> !t\n"t.b"(%0) : (!t) -> ()')
    assert top_ops(m)[1].operand(0).type is A.i32


# ---------------------------------------------------------------------------------------------
# Attributes


@pytest.mark.parametrize(
    "text, expected",
    [
        ("4 : i32", A.IntegerAttr(4, A.i32)),
        ("-1 : i64", A.IntegerAttr(-1, A.i64)),
        ("0x1F : i32", A.IntegerAttr(31, A.i32)),
        ("4", A.IntegerAttr(4, A.i64)),
        ("5 : index", A.IntegerAttr(5, A.index)),
        ("255 : i8", A.IntegerAttr(-1, A.i8)),  # signless: kept sign-extended
        ("255 : ui8", A.IntegerAttr(255, A.IntegerType(8, A.UNSIGNED))),
        ("true", A.BoolAttr(True)),
        ("false", A.BoolAttr(False)),
        ("1.0 : f32", A.FloatAttr(1.0, A.f32)),
        ("1.5e-3", A.FloatAttr(1.5e-3, A.f64)),
        ("1.", A.FloatAttr(1.0, A.f64)),
        ("0x3F800000 : f32", A.FloatAttr(1.0, A.f32)),
        ("0x7F800000 : f32", A.FloatAttr(math.inf, A.f32)),
        ("0xFF800000 : f32", A.FloatAttr(-math.inf, A.f32)),
        ("0x7C00 : f16", A.FloatAttr(math.inf, A.f16)),
        ("0.1 : f32", A.FloatAttr(0.10000000149011612, A.f32)),
        ("1.0e40 : f32", A.FloatAttr(math.inf, A.f32)),
        ('"a\\n\\"b\\\\"', A.StringAttr('a\n"b\\')),
        ('"tab\\09x\\41"', A.StringAttr("tab\tx A".replace(" ", ""))),
        ('"\\C3\\A9"', A.StringAttr("é")),
        ('"\\FF\\00"', A.StringAttr(b"\xff\x00")),
        ('"s" : i32', A.StringAttr("s", A.i32)),
        ("unit", A.UnitAttr()),
        ("[]", A.ArrayAttr([])),
        (
            "[1, [2 : i32], i64]",
            A.ArrayAttr(
                [A.IntegerAttr(1), A.ArrayAttr([A.IntegerAttr(2, A.i32)]), A.TypeAttr(A.i64)]
            ),
        ),
        (
            '{a = 1, b, "quoted key" = 2}',
            A.DictionaryAttr(
                {"a": A.IntegerAttr(1), "b": A.UnitAttr(), "quoted key": A.IntegerAttr(2)}
            ),
        ),
        ("{}", A.DictionaryAttr({})),
        ("i32", A.TypeAttr(A.i32)),
        ("(i32) -> i32", A.TypeAttr(A.FunctionType([A.i32], [A.i32]))),
        ("none", A.TypeAttr(A.none_type)),
        ("@a", A.SymbolRefAttr("a")),
        ("@a::@b::@c", A.SymbolRefAttr("a", ["b", "c"])),
        ('@"quoted name"', A.SymbolRefAttr("quoted name")),
        ("array<i64: 1, -2>", A.DenseArrayAttr(A.i64, [1, -2])),
        ("array<f32: 1.0, 2.5>", A.DenseArrayAttr(A.f32, [1.0, 2.5])),
        ("array<i1: true, false>", A.DenseArrayAttr(A.i1, [1, 0])),
        ("array<i64>", A.DenseArrayAttr(A.i64, [])),
        ("strided<[8, 1], offset: ?>", A.StridedLayoutAttr([8, 1], A.DYNAMIC)),
        ("strided<[?, 1]>", A.StridedLayoutAttr([A.DYNAMIC, 1], 0)),
        ("#foo.bar<1, [2]>", A.OpaqueAttr("foo", ".bar<1, [2]>", None)),
        ('#foo<"raw text">', A.OpaqueAttr("foo", '<"raw text">', None)),
        ("#foo.baz", A.OpaqueAttr("foo", ".baz", None)),
        ("loc(unknown)", A.UnknownLoc()),
    ],
)
def test_attributes(text: str, expected: A.Attribute) -> None:
    assert parse_attribute(text) is expected


def test_raw_non_utf8_bytes_in_strings() -> None:
    # Text read with errors="surrogateescape" (as mlc.parse_file does) keeps raw bytes.
    raw = b'"a\xff"'.decode("utf-8", "surrogateescape")
    assert parse_attribute(raw) is parse_attribute('"a\\FF"') is A.StringAttr(b"a\xff")


def test_negative_zero_and_nan() -> None:
    z = parse_attribute("-0.0")
    assert z.value == 0.0 and math.copysign(1.0, z.value) == -1.0
    assert parse_attribute("-0.0") is not parse_attribute("0.0")
    assert math.isnan(parse_attribute("0x7FC00000 : f32").value)
    assert math.isnan(parse_attribute("0x7FF8000000000000 : f64").value)


def test_affine_attributes() -> None:
    amap = parse_attribute("affine_map<(d0, d1)[s0] -> (d0 + s0, d1 floordiv 2)>")
    assert type(amap) is A.AffineMapAttr
    assert (amap.value.num_dims, amap.value.num_symbols) == (2, 1)
    assert amap.value.evaluate([3, 8], [1]) == (4, 4)
    iset = parse_attribute("affine_set<(d0)[s0] : (d0 >= 0, s0 - d0 == 0)>")
    assert type(iset) is A.IntegerSetAttr


def test_dense_elements() -> None:
    a = parse_attribute("dense<1.0> : tensor<4xf32>")
    assert a.is_splat and a.array.tolist() == [1.0] * 4
    a = parse_attribute("dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>")
    assert a.array.tolist() == [[1, 2], [3, 4]]
    a = parse_attribute("dense<[[1, -2], [3, -4]]> : tensor<2x2xi8>")
    assert a.array.dtype == np.int8 and a.array.tolist() == [[1, -2], [3, -4]]
    a = parse_attribute("dense<[true, false]> : tensor<2xi1>")
    assert a.array.tolist() == [True, False]
    a = parse_attribute("dense<> : tensor<0xf32>")
    assert a.array.shape == (0,)
    a = parse_attribute("dense<5> : tensor<i64>")
    assert a.array.tolist() == 5
    a = parse_attribute("dense<[0x7FC00000, 1.0]> : tensor<2xf32>")
    assert math.isnan(a.array[0]) and a.array[1] == 1.0
    a = parse_attribute("dense<[1, 2, 3, 4]> : vector<4xi32>")
    assert type(a.type) is A.VectorType
    a = parse_attribute("dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>")
    assert a.array.tolist() == [1 + 2j, 1 + 2j]
    a = parse_attribute("dense<[(1.0, -1.0), (0.0, 2.5)]> : tensor<2xcomplex<f64>>")
    assert a.array.tolist() == [1 - 1j, 2.5j]


def test_dense_hex() -> None:
    a = parse_attribute('dense<"0x0000803F00000040"> : tensor<2xf32>')
    assert a.array.tolist() == [1.0, 2.0]
    splat = parse_attribute('dense<"0x0000803F"> : tensor<4xf32>')
    assert splat.is_splat and splat.array.tolist() == [1.0] * 4
    a = parse_attribute('dense<"0xDEADBEEF"> : tensor<1xi32>')
    assert a.array.tolist() == [int.from_bytes(bytes.fromhex("DEADBEEF"), "little", signed=True)]
    a = parse_attribute('dense<"0x803F0040"> : tensor<2xbf16>')
    assert a.array.tolist() == [1.0, 2.0]


def test_attribute_alias_and_dict_keys() -> None:
    m = parse(
        "#map = affine_map<(d0) -> (d0 * 2)>\n#a = [1, #map]\n"
        '"t.op"() {k = #a, dollar$ = 1, key.with.dots = 2, _u} : () -> ()'
    )
    attrs = top_ops(m)[0].attributes
    assert type(attrs["k"].value[1]) is A.AffineMapAttr
    assert set(attrs) == {"k", "dollar$", "key.with.dots", "_u"}


# ---------------------------------------------------------------------------------------------
# Locations


@pytest.mark.parametrize(
    "text, expected",
    [
        ("loc(unknown)", A.UnknownLoc()),
        ('loc("f.py":1:2)', A.FileLineColLoc("f.py", 1, 2)),
        ('loc("f.py":1:2 to 3:4)', A.FileLineColLoc("f.py", 1, 2, 3, 4)),
        ('loc("f.py":1:2 to :4)', A.FileLineColLoc("f.py", 1, 2, 1, 4)),
        ('loc("name")', A.NameLoc("name")),
        ('loc("name"("f":1:2))', A.NameLoc("name", A.FileLineColLoc("f", 1, 2))),
        (
            'loc(callsite("a" at "b":1:2))',
            A.CallSiteLoc(A.NameLoc("a"), A.FileLineColLoc("b", 1, 2)),
        ),
        ('loc(fused["a", "b"])', A.FusedLoc([A.NameLoc("a"), A.NameLoc("b")])),
        ('loc(fused<"meta">["a"])', A.FusedLoc([A.NameLoc("a")], A.StringAttr("meta"))),
        # FusedLoc::get's canonical forms: no unknowns or duplicates, nested fusions flattened.
        ("loc(fused[])", A.UnknownLoc()),
        ('loc(fused["a", unknown, "a"])', A.NameLoc("a")),
        ('loc(fused["a", fused["b", "c"]])', A.FusedLoc([A.NameLoc(x) for x in "abc"])),
        ('loc(fused<"m">[unknown])', A.FusedLoc([A.UnknownLoc()], A.StringAttr("m"))),
    ],
)
def test_locations(text: str, expected: A.Location) -> None:
    assert parse_attribute(text) == expected


def test_op_locations_are_at_the_op_name() -> None:
    m = parse('"t.a"() : () -> ()\n\n  %x, %y = "t.b"() : () -> (i32, i32)\n', filename="f.mlir")
    a, b = top_ops(m)
    assert a.location == A.FileLineColLoc("f.mlir", 1, 1)
    assert b.location == A.FileLineColLoc("f.mlir", 3, 12)
    assert m.location == A.FileLineColLoc("f.mlir", 0, 0)


def test_explicit_and_block_argument_locations() -> None:
    m = parse(
        '"t.r"() ({\n^bb0(%a: i32 loc("x":7:8), %b: f32):\n'
        '  "t.y"(%a) : (i32) -> () loc(callsite("c" at "d":1:2))\n}) : () -> ()',
        filename="g.mlir",
    )
    block = top_ops(m)[0].regions[0].blocks[0]
    assert block.arguments[0].location == A.FileLineColLoc("x", 7, 8)
    assert block.arguments[1].location == A.FileLineColLoc("g.mlir", 2, 28)
    assert type(block.first.location) is A.CallSiteLoc


def test_deferred_location_aliases() -> None:
    text = (
        '"t.r"() ({\n^bb0(%a: i32 loc(#loc2)):\n  "t.y"() : () -> () loc(#loc3)\n'
        "}) : () -> () loc(#loc)\n"
        '#loc = loc("m.py":0:0)\n#loc1 = loc("c.py":4:2)\n#loc2 = loc("a.py":1:1)\n'
        '#loc3 = loc("n"(#loc1))\n'
    )
    op = top_ops(parse(text))[0]
    assert op.location == A.FileLineColLoc("m.py", 0, 0)
    block = op.regions[0].blocks[0]
    assert block.arguments[0].location == A.FileLineColLoc("a.py", 1, 1)
    assert block.first.location == A.NameLoc("n", A.FileLineColLoc("c.py", 4, 2))


def test_deferred_location_errors() -> None:
    assert error_of('"t.a"() : () -> () loc(#foo)') == (
        1,
        24,
        "operation location alias was never defined",
    )
    line, col, msg = error_of('"t.a"() : () -> () loc(#foo)\n#foo = 1')
    assert (line, col) == (1, 24) and msg.startswith("expected location, but found")


# ---------------------------------------------------------------------------------------------
# Operations, regions, blocks


def test_generic_operation_parts() -> None:
    m = parse(
        '%r:2, %s = "t.op"(%a#1, %b) [^bb1] <{prop = 1 : i32}> ({\n  "t.y"() : () -> ()\n}, {\n'
        '}) {attr = "x"} : (i32, f32) -> (i1, i8, i16)\n'.replace(" [^bb1]", "")
        .replace("%a#1, %b", "")
        .replace("(i32, f32) ->", "() ->")
    )
    op = top_ops(m)[0]
    assert type(op) is UnregisteredOp and op.name == "t.op"
    assert [r.type for r in op.results] == [A.i1, A.i8, A.i16]
    assert op.attributes == {"prop": A.IntegerAttr(1, A.i32), "attr": A.StringAttr("x")}
    assert op._prop_names == frozenset({"prop"})
    assert len(op.regions) == 2 and not op.regions[1].blocks


def test_non_utf8_generic_op_name_round_trips() -> None:
    # A raw 0xFF byte (read with surrogateescape) and its printed escape `\FF` name the same op,
    # so print -> parse is a fixpoint.
    raw = b'"f\xff.op"() : () -> ()'.decode("utf-8", "surrogateescape")
    escaped = '"f\\FF.op"() : () -> ()'
    for text in (raw, escaped):
        m = mlc.parse(text, allow_unregistered=True)
        assert top_ops(m)[0].name == "f\udcff.op"
        printed = str(m)
        assert '"f\\FF.op"() : () -> ()' in printed
        assert str(mlc.parse(printed, allow_unregistered=True)) == printed


def test_result_groups_and_uses() -> None:
    m = parse(
        '%0:3 = "t.multi"() : () -> (i32, f32, index)\n'
        '%1, %2:2 = "t.two"() : () -> (i1, i8, i16)\n'
        '"t.use"(%0#0, %0#2, %0, %2#1, %1) : (i32, index, i32, i16, i1) -> ()'
    )
    multi, two, use = top_ops(m)
    assert use.operands == (
        multi.results[0],
        multi.results[2],
        multi.results[0],
        two.results[2],
        two.results[0],
    )


def test_successors_and_block_arguments() -> None:
    m = parse(
        '"t.f"() ({\n'
        "^bb0(%a: i32, %b: f32):\n"
        '  "t.br"(%a)[^bb2, ^bb1] : (i32) -> ()\n'
        "^bb1:\n"
        '  "t.ret"() : () -> ()\n'
        "^bb2(%c: i32):\n"
        '  "t.ret"(%c) : (i32) -> ()\n'
        "}) : () -> ()"
    )
    blocks = top_ops(m)[0].regions[0].blocks
    assert len(blocks) == 3
    br = blocks[0].first
    assert br.successors == [blocks[2], blocks[1]]
    assert blocks[2].last.operand(0) is blocks[2].arguments[0]


def test_entry_block_without_label_and_empty_region() -> None:
    m = parse('"t.r"() ({\n  %0 = "t.c"() : () -> i32\n}, {\n}, {}) : () -> ()')
    op = top_ops(m)[0]
    assert len(op.regions[0].blocks) == 1 and len(op.regions[0].blocks[0]) == 1
    assert not op.regions[1].blocks and not op.regions[2].blocks


def test_forward_references_in_graph_region() -> None:
    m = parse(
        '"t.g"() ({\n  "t.use"(%late) : (i32) -> ()\n  %late = "t.def"() : () -> i32\n}) : () -> ()'
    )
    use, define = list(top_ops(m)[0].regions[0].blocks[0])
    assert use.operand(0) is define.results[0]
    assert define.results[0].num_uses() == 1


def test_forward_reference_from_nested_region() -> None:
    m = parse(
        '"t.g"() ({\n  "t.r"() ({\n    "t.use"(%v) : (i32) -> ()\n  }) : () -> ()\n'
        '  %v = "t.def"() : () -> i32\n}) : () -> ()'
    )
    outer = top_ops(m)[0].regions[0].blocks[0]
    assert outer.first.regions[0].blocks[0].first.operand(0) is outer.last.results[0]


def test_custom_ops_and_default_dialect(ctx: Context) -> None:
    m = parse(
        "test.func @f(%a: i32, %b: i32) -> i32 {\n"
        "  %0 = test.add %a, %b : i32\n"
        "  %1 = add %0, %a {tag} : i32\n"
        "  test.scope {\n    %2 = add %1, %1 : i32\n  }\n"
        "  ret %1 : i32\n"
        "}",
        ctx,
    )
    func = top_ops(m)[0]
    assert type(func) is FuncOp
    body = func.regions[0].blocks[0]
    add0, add1, scope, ret = list(body)
    assert type(add1) is AddOp and add1.attributes == {"tag": A.UnitAttr()}
    assert add1.operand(0) is add0.results[0] and add0.operand(0) is body.arguments[0]
    assert type(scope.regions[0].blocks[0].first) is AddOp
    assert type(ret) is RetOp and ret.operand(0) is add1.results[0]
    assert add1.location.line == 3


def test_custom_successors_with_operands(ctx: Context) -> None:
    m = parse(
        "test.func @f(%a: i32) {\n"
        "  test.br ^bb1(%a : i32), ^bb2\n"
        "^bb1(%x: i32):\n  test.ret\n^bb2:\n  test.ret\n}",
        ctx,
    )
    blocks = top_ops(m)[0].regions[0].blocks
    br = blocks[0].first
    assert br.successors == [blocks[1], blocks[2]]
    assert br.operand(0) is blocks[0].arguments[0]


def test_implicit_and_explicit_module() -> None:
    m = parse('module {\n  "t.a"() : () -> ()\n}')
    assert m.name == "builtin.module" and len(m.regions[0].blocks[0]) == 1
    m = parse('module {\n}\n"t.a"() : () -> ()')
    assert m.name == "builtin.module" and len(top_ops(m)) == 2
    op = parse('"t.a"() : () -> ()', implicit_module=False)
    assert op.name == "t.a" and op.parent is None
    assert error_of('"t.a"() : () -> ()\n"t.b"() : () -> ()', implicit_module=False)[2] == (
        "source must contain a single top-level operation, found: 2"
    )


def test_file_metadata_is_skipped() -> None:
    m = parse(
        '"t.a"() : () -> ()\n{-#\n  dialect_resources: {\n    builtin: {\n'
        '      blob1: "0x04000000"\n    }\n  }\n#-}\n'
    )
    assert len(top_ops(m)) == 1


def test_generic_op_registered(ctx: Context) -> None:
    m = parse(
        '%a = "t.c"() : () -> i32\n%0 = "test.add"(%a, %a) <{x = 1}> {y = 2} : (i32, i32) -> i32',
        ctx,
        allow_unregistered=True,
    )
    add = top_ops(m)[1]
    assert type(add) is AddOp and set(add.attributes) == {"x", "y"}


def test_columns_count_utf8_bytes() -> None:
    m = parse('"t.a"() {s = "é"} : () -> ()\n  "t.b"() : () -> () loc("x":1:1)\n"é"() : () -> ()')
    assert error_of('"t.a"() {s = "é"} : () -> ()  %x')[:2] == (1, 34)
    assert top_ops(m)[2].location.col == 1


def test_line_offset_for_split_input() -> None:
    with pytest.raises(mlc.ParseError) as info:
        parse_module(
            '"t.a"() : () -> ()\n"t.b"(%x) : (i32) -> ()',
            allow_unregistered=True,
            filename="split.mlir",
            line_offset=10,
        )
    loc = info.value.diagnostic.file_loc
    assert (loc.line, loc.col) == (12, 7)
    assert '"t.b"(%x) : (i32) -> ()' in info.value.render()
    m = parse_module('"t.a"() : () -> ()', allow_unregistered=True, line_offset=4)
    assert top_ops(m)[0].location.line == 5


def test_parser_api_literals() -> None:
    p = Parser('foo -12 0x10 2.5 -3 "s\\n" @sym %x#2 ( ) -> ...')
    assert p.parse_optional_keyword("bar") is None
    assert p.parse_keyword("foo") == "foo"
    assert p.parse_integer() == -12
    assert p.parse_optional_integer() == 16
    assert p.parse_float() == 2.5
    assert p.parse_float() == -3.0
    assert p.parse_string() == "s\n"
    assert p.parse_symbol_name() == "sym"
    u = p.parse_operand()
    assert (u.name, u.number) == ("%x", 2) and tuple(u) == ("%x", 2, u.pos)
    assert p.parse_optional_punct("(") and p.parse_optional_punct(")")
    assert not p.parse_optional_punct("(")
    p.parse_punct("->")
    assert p.parse_optional_keyword_in(("a", "b")) is None
    p.parse_punct("...")


def test_parser_api_lists_and_dims() -> None:
    p = Parser("[1, 2] (3) 4x?x8xf32 <> {a = 1} attributes {b} <{c = 2}>")
    got: list[int] = []
    assert p.parse_comma_separated_list("square", lambda: got.append(p.parse_integer()))
    assert not p.parse_comma_separated_list("optional_square", lambda: None)
    assert p.parse_comma_separated_list("optional_paren", lambda: got.append(p.parse_integer()))
    assert got == [1, 2, 3]
    assert p.parse_dimension_list() == [4, A.DYNAMIC, 8]
    assert p.parse_type() is A.f32
    assert p.parse_comma_separated_list("angle", lambda: None)
    attrs: dict[str, A.Attribute] = {}
    p.parse_optional_attr_dict(attrs)
    p.parse_optional_attr_dict_with_keyword(attrs)
    p.parse_optional_prop_dict(attrs)
    assert attrs == {"a": A.IntegerAttr(1), "b": A.UnitAttr(), "c": A.IntegerAttr(2)}


def test_parser_api_types() -> None:
    p = Parser(": i32, f32 -> (i1, i8) -> index (i32) -> f32 : i64")
    assert p.parse_colon_type_list() == [A.i32, A.f32]
    assert p.parse_arrow_type_list() == [A.i1, A.i8]
    assert p.parse_optional_arrow_type_list() == [A.index]
    assert p.parse_function_type() is A.FunctionType([A.i32], [A.f32])
    assert p.parse_colon_type() is A.i64
    assert p.parse_optional_type() is None


def test_ensure_terminator() -> None:
    from mlc.syntax.parser import ensure_terminator

    region = parse('"t.r"() ({\n  "t.a"() : () -> ()\n}) : () -> ()')
    r = top_ops(region)[0].regions[0]
    ensure_terminator(r, lambda: RetOp.create())
    assert type(r.blocks[0].last) is RetOp
    ensure_terminator(r, lambda: RetOp.create())
    assert len(r.blocks[0]) == 2


# ---------------------------------------------------------------------------------------------
# SSA name scoping (as MLIR: one name table per isolated scope; regions only end names)


def test_redefinition_in_nested_region_is_an_error() -> None:
    text = '%0 = "t.a"() : () -> i32\n"t.r"() ({\n  %0 = "t.b"() : () -> i32\n}) : () -> ()'
    assert error_of(text) == (3, 3, "redefinition of SSA value '%0'")


def test_redefinition_in_isolated_generic_op_is_an_error() -> None:
    text = (
        '%0 = "t.a"() : () -> i32\n"func.func"() <{function_type = () -> (), '
        'sym_name = "f"}> ({\n  %0 = "t.b"() : () -> i32\n  "func.return"() : () -> ()\n'
        "}) : () -> ()"
    )
    assert error_of(text) == (3, 3, "redefinition of SSA value '%0'")


def test_sibling_regions_reuse_names() -> None:
    m = parse(
        '"t.r"() ({\n  %0 = "t.b"() : () -> i32\n}) : () -> ()\n'
        '%0 = "t.a"() : () -> i32\n"t.r"() ({\n  %1 = "t.b"(%0) : (i32) -> i32\n'
        "}) : () -> ()"
    )
    assert len(top_ops(m)) == 3


def test_outer_values_are_visible_in_isolated_regions(ctx: Context) -> None:
    m = parse('%0 = "t.a"() : () -> i32\ntest.func @f() {\n  "t.use"(%0) : (i32) -> ()\n}', ctx)
    outer, func = top_ops(m)
    assert func.regions[0].blocks[0].first.operand(0) is outer.results[0]


def test_region_argument_already_in_use(ctx: Context) -> None:
    text = '%0 = "t.a"() : () -> i32\ntest.func @f(%0: i32) {\n  test.ret\n}'
    assert error_of(text, ctx) == (2, 14, "region entry argument '%0' is already in use")


def test_name_shadowing_regions(ctx: Context) -> None:
    m = parse(
        '%0 = "t.a"() : () -> i32\ntest.isolated(%0: i32) {\n  %1 = add %0, %0 : i32\n}\n'
        '"t.use"(%0) : (i32) -> ()',
        ctx,
    )
    outer, iso, use = top_ops(m)
    block = iso.regions[0].blocks[0]
    assert block.first.operand(0) is block.arguments[0]
    assert use.operand(0) is outer.results[0]
    line, col, msg = error_of(
        'test.isolated() {\n  "t.use"(%x) : (i32) -> ()\n}\n%x = "t.a"() : () -> i32', ctx
    )
    assert (line, col, msg) == (2, 11, "use of undeclared SSA value name")


# ---------------------------------------------------------------------------------------------
# Errors: MLIR's messages at MLIR's positions


@pytest.mark.parametrize(
    "text, expected",
    [
        ('"t.a"(%x) : (i32) -> ()', (1, 7, "use of undeclared SSA value name")),
        ('"t.a"()', (1, 8, "expected ':' followed by operation type")),
        (
            '"t.a"() {a = 1 \n\n  "t.b"() : () -> ()',
            (1, 15, "expected '}' in attribute dictionary"),
        ),
        ('"t.a"(1) : () -> ()', (1, 7, "expected ')' to end operand list")),
        # Wrong-token errors sit right after the previous token, as in MLIR.
        ('"t.a"(%a, 1) : () -> ()', (1, 10, "expected SSA operand")),
        ('"t.a"() : (i32) -> ()', (1, 11, "expected 0 operand types but had 1")),
        ('"t.br"()[^bb1] : () -> ()', (1, 10, "reference to an undefined block")),
        (
            '%0:2 = "t.a"() : () -> i32',
            (1, 1, "operation defines 1 results but was provided 2 to bind"),
        ),
        (
            '%0 = "t.a"() : () -> (i32, i32)',
            (1, 1, "operation defines 2 results but was provided 1 to bind"),
        ),
        (
            '%x = "t.b"() : () -> i64\n"t.a"(%x) : (i32) -> ()',
            (2, 7, "use of value '%x' expects different type than prior uses: 'i32' vs 'i64'"),
        ),
        (
            '"t.r"() ({\n  "t.a"(%x) : (i32) -> ()\n  "t.a"(%x) : (i64) -> ()\n}) : () -> ()',
            (3, 9, "use of value '%x' expects different type than prior uses: 'i64' vs 'i32'"),
        ),
        (
            '"t.r"() ({\n  "t.a"(%x) : (i32) -> ()\n  %x = "t.b"() : () -> i64\n}) : () -> ()',
            (3, 3, "definition of SSA value '%x#0' has type 'i64'"),
        ),
        (
            '%x = "t.a"() : () -> i32\n%x = "t.a"() : () -> i32',
            (2, 1, "redefinition of SSA value '%x'"),
        ),
        (
            '"t.r"() ({\n^bb0:\n  "t.b"() : () -> ()\n^bb0:\n  "t.b"() : () -> ()\n}) : () -> ()',
            (4, 1, "redefinition of block '^bb0'"),
        ),
        ("#a.b = 1", (1, 1, "attribute names with a '.' are reserved for dialect-defined names")),
        ("#a = 1\n#a = 2", (2, 1, "redefinition of attribute alias id 'a'")),
        ('"t.a"() {a = 1, a = 2} : () -> ()', (1, 17, "duplicate key 'a' in dictionary attribute")),
        ('"t.a"() {a = #nope} : () -> ()', (1, 14, "undefined symbol alias id 'nope'")),
        ('"t.a"() {a = tensor<4>} : () -> ()', (1, 22, "expected 'x' in dimension list")),
        (
            '"t.a"() {a = vector<2x0xf32>} : () -> ()',
            (1, 14, "vector types must have positive constant sizes but got 2, 0"),
        ),
        ('"t.a"() {a = "\\q"} : () -> ()', (1, 14, "unknown escape in string literal")),
        ('"t.a"() {a = "abc} : () -> ()', (1, 30, "expected '\"' in string literal")),
        (
            '"t.a"() {a = !foo.bar<a, ) x} : () -> ()',
            (1, 22, "unbalanced '<' character in pretty dialect name"),
        ),
        (
            '"t.a"() {a = 1.5 : i32} : () -> ()',
            (1, 14, "floating point value not valid for specified type"),
        ),
        (
            '"t.a"() {a = 1 : f32} : () -> ()',
            (1, 14, "unexpected decimal integer literal for a floating point value"),
        ),
        (
            '"t.a"() {a = -0x7F800000 : f32} : () -> ()',
            (1, 15, "hexadecimal float literal should not have a leading minus"),
        ),
        (
            '"t.a"() {a = 300 : i8} : () -> ()',
            (1, 14, "integer constant out of range for attribute"),
        ),
        (
            '"t.a"() {a = affine_map<(d0) -> (d1)>} : () -> ()',
            (1, 34, "use of undeclared identifier"),
        ),
        (
            '"t.a"() {a = dense<[1, 2]> : tensor<3xi32>} : () -> ()',
            (1, 20, "inferred shape of elements literal ([2]) does not match type ([3])"),
        ),
        (
            '"t.a"() {a = dense<1> : tensor<?xi32>} : () -> ()',
            (1, 25, "elements literal type must have static shape"),
        ),
        ('"t.a"() {a = distinct[0]<1>} : () -> ()', (1, 14, "not supported: distinct attributes")),
        (
            '"t.a"() {a = dense_resource<b> : tensor<2xf32>} : () -> ()',
            (1, 14, "not supported: dense_resource elements"),
        ),
        ('"t.a"() ({\n  "t.b"() : () -> ()\n', (2, 21, "expected operation name in quotes")),
    ],
)
def test_error_messages(text: str, expected: tuple[int, int, str]) -> None:
    line, col, msg = error_of(text)
    assert (line, col) == expected[:2], msg
    assert msg == expected[2]


def test_unregistered_dialect_errors() -> None:
    assert error_of('"foo.bar"() : () -> ()', allow_unregistered=False) == (
        1,
        10,
        "operation being parsed with an unregistered dialect. If this is intended, "
        "please use -allow-unregistered-dialect with the MLIR tool used",
    )
    assert error_of('"builtin.nope"() : () -> ()', allow_unregistered=True) == (
        1,
        1,
        "unregistered operation 'builtin.nope' found in dialect ('builtin') that does not "
        "allow unknown operations",
    )
    line, col, msg = error_of('"t.a"() {a = !foo.bar} : () -> ()', allow_unregistered=False)
    assert msg.startswith("operation being parsed with an unregistered dialect")


def test_custom_op_lookup_errors(ctx: Context) -> None:
    assert error_of("foo.bar", ctx) == (1, 1, "Dialect `foo' not found for custom op 'foo.bar' ")
    assert error_of("test.nope", ctx) == (1, 1, "custom op 'test.nope' is unknown")
    assert error_of("test.func @f() {\n  bar\n}", ctx) == (
        2,
        3,
        "custom op 'bar' is unknown (tried 'test.bar' as well)",
    )
    assert error_of('"t.r"() ({\n  bar\n}) : () -> ()', ctx) == (
        2,
        3,
        "custom op 'bar' is unknown (tried 'builtin.bar' as well)",
    )


def test_diagnostic_renders_source_line() -> None:
    with pytest.raises(mlc.ParseError) as info:
        mlc.parse('"t.a"(%x) : (i32) -> ()', allow_unregistered=True, filename="r.mlir")
    assert info.value.render() == (
        'r.mlir:1:7: error: use of undeclared SSA value name\n"t.a"(%x) : (i32) -> ()\n      ^'
    )


def test_notes_point_at_prior_definition() -> None:
    with pytest.raises(mlc.ParseError) as info:
        parse('%x = "t.a"() : () -> i32\n%x = "t.a"() : () -> i32')
    note = info.value.diagnostic.notes[0]
    assert note.message == "previously defined here" and note.file_loc.line == 1


def test_deep_nesting_is_a_parse_error() -> None:
    with pytest.raises(mlc.ParseError):
        parse('"t.a"() {a = ' + "[" * 20000 + "]" * 20000 + "} : () -> ()")
    with pytest.raises(mlc.ParseError):
        parse('"t.r"() (' + "{" * 5000 + "}" * 5000 + ") : () -> ()")


# ---------------------------------------------------------------------------------------------
# Round trips through the printer and MLIR's own prints


@pytest.mark.parametrize(
    "name",
    [
        "arith.generic",
        "cf.generic",
        "func.generic",
        "locations.generic",
        "locations.debuginfo",
        "builtin_types.generic",
    ],
)
def test_mlir_generic_prints_round_trip(name: str) -> None:
    path = INTEROP / f"{name}.mlir"
    if not path.exists():
        pytest.skip(f"{path} is missing")
    text = path.read_text()
    m = parse_module(text, filename=str(path), allow_unregistered=True)
    assert m.print(generic=True, debuginfo="debuginfo" in name).strip() == text.strip()


def test_custom_round_trip_through_printer() -> None:
    text = (
        '%0:2 = "t.multi"() : () -> (i32, f32)\n'
        '"t.r"(%0#0) ({\n^bb0(%a: i32):\n  "t.br"(%a)[^bb1] : (i32) -> ()\n'
        '^bb1:\n  "t.y"() : () -> ()\n}) {k = dense<[1, 2]> : tensor<2xi32>} : (i32) -> ()'
    )
    once = parse(text).print(generic=True)
    assert parse(once).print(generic=True) == once


# ---------------------------------------------------------------------------------------------
# Fuzzing: only ParseError may escape, whatever the input


_FUZZ_SEEDS = [
    "#map = affine_map<(d0)[s0] -> (d0 + s0)>\n!t = tensor<4x?xf32>\n"
    '%0:2 = "t.a"() {m = #map, d = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> (i32, !t)\n'
    '"t.r"(%0#0) ({\n^bb0(%a: i32 loc("f":1:2)):\n  "t.br"(%a)[^bb1] : (i32) -> ()\n'
    '^bb1:\n  "t.y"() <{p = array<i64: 1, 2>}> : () -> () loc(#loc1)\n}) : (i32) -> ()\n'
    '#loc1 = loc(fused<"m">["a":1:2, callsite("b" at "c":3:4)])\n',
    "test.func @f(%a: i32, %b: i32) -> i32 {\n  %0 = test.add %a, %b : i32\n"
    "  test.scope {\n    %1 = add %0, %0 : i32\n  }\n  test.br ^bb1(%0 : i32)\n"
    "^bb1(%x: i32):\n  ret %x : i32\n}\n",
    '"t.a"() {a = memref<4x4xf32, strided<[4, 1], offset: ?>, 1>, b = vector<2x[4]xf32>, '
    'c = "s\\22\\0A", d = @a::@b, e = {x, y = [true, unit]}, f = 0x7FC00000 : f32, '
    'g = !foo.bar<"x", (i32)>, h = #foo<"y">, i = dense<"0x0000803F"> : tensor<2xf32>} '
    ": () -> ()\n",
]
_FUZZ_TOKENS = [
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "<",
    ">",
    ",",
    ":",
    "=",
    "->",
    "%0",
    "%x#1",
    "^bb0",
    "^bb1",
    "@f",
    "#map",
    "!t",
    '"s"',
    "0x1F",
    "-",
    "1.5",
    "loc",
    "dense",
    "tensor",
    "x",
    "?",
    "i32",
    "affine_map",
    "{-#",
    "#-}",
    "\\",
    '"',
    "::",
    "*",
    "memref",
    "vector",
    "array",
    "strided",
    "true",
    "unit",
    "test.add",
    "module",
    "\n",
    "// c\n",
    "#loc1",
    "^",
    "%",
    "!",
    "#",
    "@",
    "\x00",
    "é",
    "9" * 30,
    "0x",
    "1e",
    "add",
]


def _mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(5)
        p = rng.randrange(len(text) + 1)
        if kind == 0:
            text = text[:p]
        elif kind == 1 and p < len(text):
            text = text[:p] + chr(rng.randrange(32, 127)) + text[p + 1 :]
        elif kind == 2:
            text = text[:p] + text[p + rng.randint(1, 20) :]
        elif kind == 3:
            text = text[:p] + rng.choice(_FUZZ_TOKENS) + text[p:]
        else:
            text = text[:p] + " " + rng.choice(_FUZZ_TOKENS) + " " + text[p:]
    return text


def test_fuzz_only_parse_errors_escape(ctx: Context) -> None:
    rng = random.Random(1234)
    for seed in _FUZZ_SEEDS:  # the seeds themselves are valid
        parse(seed, ctx)
    for _ in range(3000):
        text = _mutate(rng.choice(_FUZZ_SEEDS), rng)
        try:
            parse(text, ctx, allow_unregistered=rng.random() < 0.8)
        except mlc.ParseError as e:
            assert "internal error" not in e.diagnostic.message, (text, e.render())
            assert e.diagnostic.file_loc is not None


def test_parse_errors_for_empty_and_junk_input() -> None:
    assert len(top_ops(parse(""))) == 0
    assert len(top_ops(parse("  // only a comment\n"))) == 0
    for junk in ["$", "%", "}", "(", '"', "\x00", "é", "%0 =", "^bb0:", "#x =", "!x = "]:
        with pytest.raises(mlc.ParseError):
            parse(junk)


def test_block_is_reused_for_forward_reference() -> None:
    m = parse('"t.r"() ({\n  "t.br"()[^bb1] : () -> ()\n^bb1:\n  "t.y"() : () -> ()\n}) : () -> ()')
    blocks = top_ops(m)[0].regions[0].blocks
    assert isinstance(blocks[1], Block) and blocks[0].first.successors[0] is blocks[1]
