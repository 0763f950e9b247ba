"""The printer against MLIR's exact output (strings recorded from `iree-opt`, i.e. mlir-opt).

Covers types, attributes, float and dense-elements text, SSA/block numbering in the custom and
generic forms, aliases (`#map`, `#set`, `#loc`), debug info, local scope, nested-op printing,
and the contract print(parse(print(x))) == print(x).
"""

from __future__ import annotations

import cProfile
import math
import pstats
from typing import Any

import numpy as np
import pytest
from mlc.dialects.builtin import ModuleOp

from mlc.ir import affine
from mlc.ir import attributes as A
from mlc.ir.attributes import DYNAMIC, f16, f32, f64, i1, i8, i32, i64, index
from mlc.ir.core import Block, UnregisteredOp
from mlc.ir.opdef import IsolatedFromAbove, Op, SameOperandsAndResultType, operand, region, result
from mlc.syntax.floats import float_from_bits, format_float, round_to_kind
from mlc.syntax.parser import parse_module
from mlc.syntax.printer import Printer, attr_to_str, escape_string, print_op

U = UnregisteredOp.create_named


def parse(text: str) -> Any:
    return parse_module(text, allow_unregistered=True)


# ---------------------------------------------------------------------------------------------
# Types

AFFINE_T = A.AffineMapAttr(affine.AffineMap(2, 0, (affine.dim(1), affine.dim(0))))


@pytest.mark.parametrize(
    ("t", "text"),
    [
        (i32, "i32"),
        (A.IntegerType(8, A.SIGNED), "si8"),
        (A.IntegerType(8, A.UNSIGNED), "ui8"),
        (A.IntegerType(0), "i0"),
        (index, "index"),
        (f16, "f16"),
        (A.bf16, "bf16"),
        (A.FloatType("f8E4M3FN"), "f8E4M3FN"),
        (A.ComplexType(f32), "complex<f32>"),
        (A.NoneType(), "none"),
        (A.TupleType(), "tuple<>"),
        (A.TupleType([i32, f32]), "tuple<i32, f32>"),
        (A.RankedTensorType([4, DYNAMIC], f32), "tensor<4x?xf32>"),
        (A.RankedTensorType([], f32), "tensor<f32>"),
        (A.RankedTensorType([4], f32, A.StringAttr("enc")), 'tensor<4xf32, "enc">'),
        (A.RankedTensorType([4], f32, A.IntegerAttr(1)), "tensor<4xf32, 1 : i64>"),
        (A.UnrankedTensorType(f32), "tensor<*xf32>"),
        (A.MemRefType([4, DYNAMIC], f32), "memref<4x?xf32>"),
        (A.MemRefType([], f32), "memref<f32>"),
        (
            A.MemRefType(
                [4, DYNAMIC], f32, A.StridedLayoutAttr([DYNAMIC, 1], DYNAMIC), A.IntegerAttr(1)
            ),
            "memref<4x?xf32, strided<[?, 1], offset: ?>, 1>",
        ),
        (A.MemRefType([4], f32, None, A.IntegerAttr(1, i32)), "memref<4xf32, 1 : i32>"),
        (A.MemRefType([4], f32, None, A.IntegerAttr(0)), "memref<4xf32>"),
        (A.MemRefType([4, 4], f32, AFFINE_T), "memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>"),
        (
            A.MemRefType([4, 4], f32, A.StridedLayoutAttr([4, 1], 0)),
            "memref<4x4xf32, strided<[4, 1]>>",
        ),
        (A.UnrankedMemRefType(f32), "memref<*xf32>"),
        (A.UnrankedMemRefType(f32, A.IntegerAttr(3)), "memref<*xf32, 3>"),
        (A.VectorType([4], f32, [True]), "vector<[4]xf32>"),
        (A.VectorType([2, 4], f32, [False, True]), "vector<2x[4]xf32>"),
        (A.VectorType([], f32), "vector<f32>"),
        (A.FunctionType([i32], [i32]), "(i32) -> i32"),
        (A.FunctionType(), "() -> ()"),
        (A.FunctionType([i32], [i32, i32]), "(i32) -> (i32, i32)"),
        (A.FunctionType([A.FunctionType([i32], [i32])], [i32]), "((i32) -> i32) -> i32"),
        (A.FunctionType([], [A.FunctionType([i32], [i32])]), "() -> ((i32) -> i32)"),
        (A.OpaqueType("foo", ".bar"), "!foo.bar"),
        (A.OpaqueType("foo", '<"x y">'), '!foo<"x y">'),
    ],
)
def test_type_text(t: A.Type, text: str) -> None:
    assert str(t) == text


class PairType(A.DialectType):
    __slots__ = ("first", "second")
    name = "test.pair"

    def print_parameters(self, printer: Any) -> None:
        printer.write("<")
        printer.print_type(self.first)
        printer.write(", ")
        printer.print_attribute(self.second)
        printer.write(">")


def test_dialect_type_and_attr_print_their_parameters() -> None:
    assert str(PairType(i32, A.IntegerAttr(3, i8))) == "!test.pair<i32, 3 : i8>"
    assert str(A.TypeAttr(PairType(index, A.UnitAttr()))) == "!test.pair<index, unit>"


# ---------------------------------------------------------------------------------------------
# Attributes

SET = affine.IntegerSet(2, 1, (affine.dim(0) - 1, affine.sym(0) - affine.dim(1)), (False, True))


@pytest.mark.parametrize(
    ("attr", "text"),
    [
        (A.IntegerAttr(42), "42 : i64"),
        (A.IntegerAttr(-7, i32), "-7 : i32"),
        (A.IntegerAttr(255, i8), "-1 : i8"),
        (A.IntegerAttr(0xFFFFFFFF, i32), "-1 : i32"),
        (A.IntegerAttr(200, A.IntegerType(8, A.UNSIGNED)), "200 : ui8"),
        (
            A.IntegerAttr(18446744073709551615, A.IntegerType(64, A.UNSIGNED)),
            "18446744073709551615 : ui64",
        ),  # noqa: E501
        (A.IntegerAttr(5, index), "5 : index"),
        (A.IntegerAttr(0, A.IntegerType(0)), "0 : i0"),
        (A.BoolAttr(True), "true"),
        (A.BoolAttr(False), "false"),
        (A.FloatAttr(1.0, f32), "1.000000e+00 : f32"),
        (A.FloatAttr(-0.0, f32), "-0.000000e+00 : f32"),
        (A.FloatAttr(0.1, f64), "1.000000e-01 : f64"),
        (A.FloatAttr(3.0), "3.000000e+00 : f64"),
        (A.FloatAttr(math.inf, f32), "0x7F800000 : f32"),
        (A.FloatAttr(math.nan, f64), "0x7FF8000000000000 : f64"),
        (A.StringAttr("hello"), '"hello"'),
        (A.StringAttr("s", i32), '"s" : i32'),
        (A.UnitAttr(), "unit"),
        (A.ArrayAttr(), "[]"),
        (
            A.ArrayAttr(
                [
                    A.IntegerAttr(1, i32),
                    A.StringAttr("x"),
                    A.ArrayAttr([A.FloatAttr(2.0, f32), A.UnitAttr()]),
                    A.TypeAttr(i64),
                ]
            ),  # noqa: E501
            '[1 : i32, "x", [2.000000e+00 : f32, unit], i64]',
        ),
        (
            A.ArrayAttr(
                [A.FloatAttr(1.0), A.IntegerAttr(2), A.FloatAttr(math.nan), A.IntegerAttr(7, index)]
            ),  # noqa: E501
            "[1.000000e+00, 2, 0x7FF8000000000000 : f64, 7 : index]",
        ),
        (A.DictionaryAttr(), "{}"),
        (
            A.DictionaryAttr(
                {"z": A.IntegerAttr(2), "quoted key": A.IntegerAttr(1), "a": A.UnitAttr()}
            ),
            '{a, "quoted key" = 1 : i64, z = 2 : i64}',
        ),
        (A.TypeAttr(A.FunctionType([i32], [f32])), "(i32) -> f32"),
        (A.SymbolRefAttr("a"), "@a"),
        (A.SymbolRefAttr("a", ["b", "c"]), "@a::@b::@c"),
        (A.SymbolRefAttr("quoted sym"), '@"quoted sym"'),
        (AFFINE_T, "affine_map<(d0, d1) -> (d1, d0)>"),
        (A.IntegerSetAttr(SET), "affine_set<(d0, d1)[s0] : (d0 - 1 >= 0, -d1 + s0 == 0)>"),
        (A.StridedLayoutAttr([4, 1], DYNAMIC), "strided<[4, 1], offset: ?>"),
        (A.StridedLayoutAttr([1]), "strided<[1]>"),
        (A.DenseArrayAttr(i64, [1, 2]), "array<i64: 1, 2>"),
        (A.DenseArrayAttr(i32), "array<i32>"),
        (A.DenseArrayAttr(i1, [1, 0]), "array<i1: true, false>"),
        (A.DenseArrayAttr(f32, [1.0, -2.5]), "array<f32: 1.000000e+00, -2.500000e+00>"),
        (A.OpaqueAttr("foo", '.bar<"x">'), '#foo.bar<"x">'),
        (A.OpaqueAttr("foo", '<"raw text">'), '#foo<"raw text">'),
        (A.UnknownLoc(), "loc(unknown)"),
        (A.FileLineColLoc("f", 1, 2), 'loc("f":1:2)'),
        (A.FileLineColLoc("model.py", 3, 12, 3, 20), 'loc("model.py":3:12 to :20)'),
        (A.FileLineColLoc("model.py", 3, 12, 4, 20), 'loc("model.py":3:12 to 4:20)'),
        (A.NameLoc("named_op"), 'loc("named_op")'),
        (A.NameLoc('q"', A.FileLineColLoc("c.py", 4, 2)), 'loc("q\\22"("c.py":4:2))'),
        (
            A.CallSiteLoc(A.FileLineColLoc("a", 1, 1), A.FileLineColLoc("b", 2, 2)),
            'loc(callsite("a":1:1 at "b":2:2))',
        ),
        (
            A.FusedLoc([A.FileLineColLoc("a", 1, 2), A.FileLineColLoc("b", 3, 4)]),
            'loc(fused["a":1:2, "b":3:4])',
        ),  # noqa: E501
        (
            A.FusedLoc([A.FileLineColLoc("c", 5, 6), A.UnknownLoc()], A.StringAttr("m")),
            'loc(fused<"m">["c":5:6])',
        ),
    ],
)
def test_attribute_text(attr: A.Attribute, text: str) -> None:
    assert str(attr) == text


def test_string_escapes_like_mlir() -> None:
    assert (
        escape_string('with "quotes" and \\ backslash')
        == '"with \\22quotes\\22 and \\\\ backslash"'
    )
    assert escape_string("tab\tnewline\n") == '"tab\\09newline\\0A"'
    assert escape_string("unicode é ∀") == '"unicode \\C3\\A9 \\E2\\88\\80"'
    assert escape_string(b"hex\x00\xff\x7f") == '"hex\\00\\FF\\7F"'


# ---------------------------------------------------------------------------------------------
# Floats: MLIR's choice between `%e` with 6 digits, APFloat's default form, and hex.


@pytest.mark.parametrize(
    ("value", "kind", "text"),
    [
        (0.1234567, "f64", "0.1234567"),
        (3.14159265358979, "f64", "3.14159265358979"),
        (1.0e20, "f64", "1.000000e+20"),
        (1.2345678e20, "f64", "1.2345678E+20"),
        (1.0e-20, "f32", "9.99999968E-21"),
        (3.4028235e38, "f32", "3.40282347E+38"),
        (16777217.0, "f64", "0x4170000010000000"),
        (123456789.0, "f64", "0x419D6F3454000000"),
        (0.333333343, "f32", "0.333333343"),
        (1.7976931348623157e308, "f64", "1.7976931348623157E+308"),
        (2.0, "tf32", "2.000000e+00"),
        (0.1, "f16", "9.997550e-02"),
        (0.1, "bf16", "1.000980e-01"),
        (65504.0, "f16", "6.550400e+04"),
        (5.0e-324, "f64", "4.940660e-324"),
        (1.4e-45, "f32", "1.401300e-45"),
        (2.5, "f8E4M3FN", "2.500000e+00"),
        (-0.0, "f32", "-0.000000e+00"),
        (math.inf, "f16", "0x7C00"),
        (-math.inf, "f32", "0xFF800000"),
        (math.nan, "bf16", "0x7FC0"),
    ],
)
def test_float_text(value: float, kind: str, text: str) -> None:
    assert format_float(round_to_kind(value, kind), kind)[0] == text


@pytest.mark.parametrize(
    ("bits", "kind"), [(0x7FA00000, "f32"), (0xFFC00000, "f32"), (0x7E01, "f16")]
)
def test_nan_payloads_survive(bits: int, kind: str) -> None:
    assert format_float(float_from_bits(bits, kind), kind)[0] == f"0x{bits:X}"


# ---------------------------------------------------------------------------------------------
# Dense elements


def _dense(shape: list[int], et: A.Type, values: Any) -> str:
    return str(A.DenseElementsAttr(A.RankedTensorType(shape, et), values))


def test_dense_elements_text() -> None:
    assert _dense([4], f32, 1.0) == "dense<1.000000e+00> : tensor<4xf32>"
    assert _dense([2, 2], f32, [[1, 2], [3, 4]]) == (
        "dense<[[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>"
    )
    assert _dense([2], i1, [True, False]) == "dense<[true, false]> : tensor<2xi1>"
    assert _dense([4], i1, True) == "dense<true> : tensor<4xi1>"
    assert _dense([0], f32, []) == "dense<> : tensor<0xf32>"
    assert _dense([], i64, 5) == "dense<5> : tensor<i64>"
    assert _dense([2], A.ComplexType(f64), [1 - 1j, 2.5j]) == (
        "dense<[(1.000000e+00,-1.000000e+00), (0.000000e+00,2.500000e+00)]> : "
        "tensor<2xcomplex<f64>>"
    )
    assert _dense([2], A.IntegerType(8, A.UNSIGNED), [0, 255]) == "dense<[0, 255]> : tensor<2xui8>"
    assert _dense([2], f64, [0.1, 123456789.0]) == (
        "dense<[1.000000e-01, 0x419D6F3454000000]> : tensor<2xf64>"
    )


def test_dense_switches_to_hex_above_100_elements() -> None:
    values = [i % 7 for i in range(101)]
    assert _dense([100], i32, values[:100]).startswith("dense<[0, 1, 2, 3, 4, 5, 6, 0, 1,")
    text = _dense([101], i32, values)
    assert text.startswith('dense<"0x00000000010000000200000003000000')
    assert text.endswith('0000000100000002000000"> : tensor<101xi32>')
    bools = _dense([101], i1, [i % 3 == 0 for i in range(101)])
    assert bools.startswith('dense<"0x010000010000') and bools.endswith('0100"> : tensor<101xi1>')
    halves = _dense([101], A.bf16, [i * 0.5 for i in range(101)])
    assert halves.startswith('dense<"0x0000003F803FC03F004020404040')
    assert _dense([101], i8, 1) == "dense<1> : tensor<101xi8>"  # a splat never goes hex


# ---------------------------------------------------------------------------------------------
# Ops: numbering, blocks, regions, generic vs custom


def _structure() -> Any:
    """The IR of MLIR's structure test, built by hand."""
    module = U("builtin.module", regions=1)
    blk = Block()
    module.regions[0].add_block(blk)
    multi = blk.append(U("test.multi", result_types=[i32, f32, index]))
    blk.append(U("test.use", operands=[multi.results[0], multi.results[2]]))
    regions = blk.append(U("test.regions", result_types=[i64], regions=3))
    regions.regions[0].add_block(Block()).append(U("test.yield"))
    b0 = regions.regions[1].add_block(Block([i32, f32]))
    b1 = regions.regions[1].add_block(Block([i32]))
    b0.append(U("test.br", operands=[b0.arguments[0]], successors=[b1]))
    b1.append(U("test.yield", operands=[b1.arguments[0]]))
    cfg = blk.append(U("test.cfg", regions=1))
    c0, c1, c2 = (cfg.regions[0].add_block(Block()) for _ in range(3))
    cond = c0.append(U("test.cond", result_types=[i1]))
    c0.append(U("test.successors", operands=[cond.results[0]], successors=[c1, c2]))
    c1.append(U("test.term"))
    c2.append(U("test.term"))
    props = {"prop": A.IntegerAttr(1, i32), "other": A.StringAttr("s"), "attr": A.IntegerAttr(2)}
    blk.append(U("test.props", attributes=props, prop_names=frozenset({"prop", "other"})))
    graph = blk.append(U("test.graph", regions=1))
    gb = graph.regions[0].add_block(Block())
    late = U("test.def", result_types=[i32])
    gb.append(U("test.use2", operands=[late.results[0]]))
    gb.append(late)
    return module


STRUCTURE_TAIL = """\
  "test.props"() <{other = "s", prop = 1 : i32}> {attr = 2 : i64} : () -> ()
  "test.graph"() ({
    "test.use2"(%2) : (i32) -> ()
    %2 = "test.def"() : () -> i32
  }) : () -> ()
}) : () -> ()"""


def test_generic_numbering_is_unique_across_regions() -> None:
    # MLIR's generic form never resets numbers; regions are numbered last-pushed first.
    assert (
        _structure().print(generic=True)
        == """\
"builtin.module"() ({
  %0:3 = "test.multi"() : () -> (i32, f32, index)
  "test.use"(%0#0, %0#2) : (i32, index) -> ()
  %1 = "test.regions"() ({
    "test.yield"() : () -> ()
  }, {
  ^bb0(%arg0: i32, %arg1: f32):
    "test.br"(%arg0)[^bb1] : (i32) -> ()
  ^bb1(%4: i32):  // pred: ^bb0
    "test.yield"(%4) : (i32) -> ()
  }, {
  }) : () -> i64
  "test.cfg"() ({
    %3 = "test.cond"() : () -> i1
    "test.successors"(%3)[^bb1, ^bb2] : (i1) -> ()
  ^bb1:  // pred: ^bb0
    "test.term"() : () -> ()
  ^bb2:  // pred: ^bb0
    "test.term"() : () -> ()
  }) : () -> ()
"""
        + STRUCTURE_TAIL
    )


def test_custom_numbering_restarts_in_sibling_regions() -> None:
    text = str(_structure())
    assert "  ^bb1(%2: i32):  // pred: ^bb0\n" in text
    assert '    %2 = "test.cond"() : () -> i1\n' in text
    assert text.endswith(STRUCTURE_TAIL)


def test_root_regions_are_numbered_before_root_results() -> None:
    root = U("test.op", result_types=[i32], regions=2)
    outer = root.regions[0].add_block(Block())
    outer.append(U("test.x", result_types=[i32]))
    inner_op = outer.append(U("test.r", regions=1))
    inner_op.regions[0].add_block(Block()).append(U("test.y", result_types=[i32]))
    outer.append(U("test.x", result_types=[i32]))
    root.regions[1].add_block(Block()).append(U("test.z", result_types=[i32]))
    assert (
        str(root)
        == """\
%0 = "test.op"() ({
  %0 = "test.x"() : () -> i32
  "test.r"() ({
    %2 = "test.y"() : () -> i32
  }) : () -> ()
  %1 = "test.x"() : () -> i32
}, {
  %0 = "test.z"() : () -> i32
}) : () -> i32"""
    )
    assert root.print(generic=True).splitlines()[1] == '  %2 = "test.x"() : () -> i32'


NAMES_INPUT = """\
func.func @a(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %r = "test.region"() ({
    %c1 = arith.constant 0 : i32
    %c2 = arith.constant 1 : index
    "test.yield"(%c1) : (i32) -> ()
  }) : () -> i32
  %b = arith.constant 0 : i32
  "test.br"(%x)[^bb1, ^bb2] : (i32) -> ()
^bb1:
  "test.br"()[^bb3] : () -> ()
^bb2:
  "test.br"()[^bb3, ^bb3] : () -> ()
^bb3:
  "test.br"()[^bb4] : () -> ()
^bb4:
  return %c0 : i32
^bb5:
  "test.br"()[^bb4] : () -> ()
}
func.func @b() -> i32 {
  %c0 = arith.constant 0 : i32
  %t = arith.constant true
  %a:2 = "test.two"() : () -> (i32, i32)
  "test.use"(%a#1) : (i32) -> ()
  return %c0 : i32
}"""

NAMES_EXPECTED = """\
module {
  func.func @a(%arg0: i32) -> i32 {
    %c0_i32 = arith.constant 0 : i32
    %0 = "test.region"() ({
      %c0_i32_1 = arith.constant 0 : i32
      %c1 = arith.constant 1 : index
      "test.yield"(%c0_i32_1) : (i32) -> ()
    }) : () -> i32
    %c0_i32_0 = arith.constant 0 : i32
    "test.br"(%arg0)[^bb1, ^bb2] : (i32) -> ()
  ^bb1:  // pred: ^bb0
    "test.br"()[^bb3] : () -> ()
  ^bb2:  // pred: ^bb0
    "test.br"()[^bb3, ^bb3] : () -> ()
  ^bb3:  // 3 preds: ^bb1, ^bb2, ^bb2
    "test.br"()[^bb4] : () -> ()
  ^bb4:  // 2 preds: ^bb3, ^bb5
    return %c0_i32 : i32
  ^bb5:  // no predecessors
    "test.br"()[^bb4] : () -> ()
  }
  func.func @b() -> i32 {
    %c0_i32 = arith.constant 0 : i32
    %true = arith.constant true
    %0:2 = "test.two"() : () -> (i32, i32)
    "test.use"(%0#1) : (i32) -> ()
    return %c0_i32 : i32
  }
}"""


def test_result_names_conflicts_and_predecessor_comments() -> None:
    module = parse(NAMES_INPUT)
    assert str(module) == NAMES_EXPECTED
    generic = module.print(generic=True).splitlines()
    assert generic[3] == '    %3 = "arith.constant"() <{value = 0 : i32}> : () -> i32'


def test_default_dialect_prefixes() -> None:
    # builtin ops keep their prefix inside func.func, `module` drops it inside a module.
    text = """\
func.func @f(%a: i32) -> i64 {
  %0 = builtin.unrealized_conversion_cast %a : i32 to i64
  "test.r"() ({
    "func.return"() : () -> ()
  }) : () -> ()
  return %0 : i64
}
module @m {
}"""
    printed = str(parse_module(text, allow_unregistered=True))
    assert "    %0 = builtin.unrealized_conversion_cast %arg0 : i32 to i64\n" in printed
    assert '      "func.return"() : () -> ()\n' in printed or "      func.return\n" in printed
    assert "  module @m {\n  }\n" in printed


# ---------------------------------------------------------------------------------------------
# Aliases and debug info

LOC_INPUT = """\
#map = affine_map<(d0) -> (d0 + 1)>
module {
  func.func @f(%a: i32 loc("a.py":1:1), %b: i32 loc(fused["x.py":1:1, "y.py":2:2])) -> i32 {
    %0 = "test.x"(%a) {m = affine_map<(d0, d1) -> (d1)>, s = affine_set<(d0) : (d0 >= 0)>, t = memref<4xf32, #map>, l = loc("attr.py":3:3)} : (i32) -> i32 loc(callsite("c.py":1:1 at "y.py":2:2))
    %1 = "test.y"(%0) ({
      ^bb0(%z: i32 loc("z.py":5:5)):
        "test.yield"(%z) : (i32) -> () loc("y.py":2:2)
    }) : (i32) -> i32 loc("n"("x.py":1:1))
    return %1 : i32 loc(unknown)
  } loc("f.py":9:9)
} loc(unknown)"""  # noqa: E501

LOC_TOP = """\
#loc2 = loc("a.py":1:1)
#loc3 = loc("x.py":1:1)
#loc4 = loc("y.py":2:2)
#loc6 = loc("attr.py":3:3)
#loc7 = loc("z.py":5:5)
#map = affine_map<(d0, d1) -> (d1)>
#map1 = affine_map<(d0) -> (d0 + 1)>
#set = affine_set<(d0) : (d0 >= 0)>
#loc8 = loc(fused[#loc3, #loc4])
"""
LOC_END = """
#loc = loc(unknown)
#loc1 = loc("f.py":9:9)
#loc5 = loc("c.py":1:1)
#loc9 = loc(callsite(#loc5 at #loc4))
#loc10 = loc("n"(#loc3))"""

LOC_CUSTOM = """\
module {
  func.func @f(%arg0: i32 loc("a.py":1:1), %arg1: i32 loc(fused[#loc3, #loc4])) -> i32 {
    %0 = "test.x"(%arg0) {l = #loc6, m = #map, s = #set, t = memref<4xf32, #map1>} : (i32) -> i32 loc(#loc9)
    %1 = "test.y"(%0) ({
    ^bb0(%arg2: i32 loc("z.py":5:5)):
      "test.yield"(%arg2) : (i32) -> () loc(#loc4)
    }) : (i32) -> i32 loc(#loc10)
    return %1 : i32 loc(#loc)
  } loc(#loc1)
} loc(#loc)"""  # noqa: E501

LOC_GENERIC = """\
"builtin.module"() ({
  "func.func"() <{function_type = (i32, i32) -> i32, sym_name = "f"}> ({
  ^bb0(%arg0: i32 loc("a.py":1:1), %arg1: i32 loc(fused[#loc3, #loc4])):
    %0 = "test.x"(%arg0) {l = #loc6, m = #map, s = #set, t = memref<4xf32, #map1>} : (i32) -> i32 loc(#loc9)
    %1 = "test.y"(%0) ({
    ^bb0(%arg2: i32 loc("z.py":5:5)):
      "test.yield"(%arg2) : (i32) -> () loc(#loc4)
    }) : (i32) -> i32 loc(#loc10)
    "func.return"(%1) : (i32) -> () loc(#loc)
  }) : () -> () loc(#loc1)
}) : () -> () loc(#loc)"""  # noqa: E501

LOC_LOCAL = """\
module {
  func.func @f(%arg0: i32 loc("a.py":1:1), %arg1: i32 loc(fused["x.py":1:1, "y.py":2:2])) -> i32 {
    %0 = "test.x"(%arg0) {l = loc("attr.py":3:3), m = affine_map<(d0, d1) -> (d1)>, s = affine_set<(d0) : (d0 >= 0)>, t = memref<4xf32, affine_map<(d0) -> (d0 + 1)>>} : (i32) -> i32 loc(callsite("c.py":1:1 at "y.py":2:2))
    %1 = "test.y"(%0) ({
    ^bb0(%arg2: i32 loc("z.py":5:5)):
      "test.yield"(%arg2) : (i32) -> () loc("y.py":2:2)
    }) : (i32) -> i32 loc("n"("x.py":1:1))
    return %1 : i32 loc(unknown)
  } loc("f.py":9:9)
} loc(unknown)"""  # noqa: E501


def test_debuginfo_aliases_like_mlir() -> None:
    module = parse(LOC_INPUT)
    assert module.print(debuginfo=True) == LOC_TOP + LOC_CUSTOM + LOC_END
    assert module.print(debuginfo=True, generic=True) == LOC_TOP + LOC_GENERIC + LOC_END
    assert module.print(debuginfo=True, local_scope=True) == LOC_LOCAL


def test_aliases_without_debuginfo() -> None:
    text = str(parse(LOC_INPUT))
    assert text.startswith(
        '#loc = loc("attr.py":3:3)\n#map = affine_map<(d0, d1) -> (d1)>\n'
        "#map1 = affine_map<(d0) -> (d0 + 1)>\n#set = affine_set<(d0) : (d0 >= 0)>\nmodule {\n"
    )
    assert "{l = #loc, m = #map, s = #set, t = memref<4xf32, #map1>}" in text


def test_alias_names_are_regenerated_and_round_trip() -> None:
    module = parse(LOC_INPUT)
    for kw in ({}, {"generic": True}, {"debuginfo": True}, {"debuginfo": True, "generic": True}):
        text = module.print(**kw)
        assert parse(text).print(**kw) == text


# ---------------------------------------------------------------------------------------------
# Printing one nested op


def test_nested_op_is_numbered_from_its_root_without_aliases() -> None:
    module = parse(LOC_INPUT)
    func = module.regions[0].blocks[0].first
    ops = list(func.regions[0].blocks[0])
    assert str(ops[0]) == (
        '%0 = "test.x"(%arg0) {l = loc("attr.py":3:3), m = affine_map<(d0, d1) -> (d1)>, '
        "s = affine_set<(d0) : (d0 >= 0)>, t = memref<4xf32, affine_map<(d0) -> (d0 + 1)>>} "
        ": (i32) -> i32"
    )
    assert str(ops[-1]) == "func.return %1 : i32"
    assert ops[-1].print(local_scope=True) == "func.return %1 : i32"
    inner = ops[1].regions[0].blocks[0].first
    assert inner.print(local_scope=True) == '"test.yield"(%arg2) : (i32) -> ()'


class IsolatedOp(Op):
    name = "test.isolated"
    traits = (IsolatedFromAbove,)
    body = region()


def test_local_scope_does_not_know_values_from_above() -> None:
    module = ModuleOp.build_module()
    top = module.regions[0].blocks[0]
    a = top.append(U("t.a", result_types=[i32]))
    iso = top.append(IsolatedOp.create(regions=1))
    use = iso.regions[0].add_block(Block()).append(U("t.use", operands=[a.results[0]]))
    assert str(use) == '"t.use"(%0) : (i32) -> ()'
    assert print_op(use, local_scope=True) == '"t.use"(<<UNKNOWN SSA VALUE>>) : (i32) -> ()'


# ---------------------------------------------------------------------------------------------
# Round trips of MLIR-printed text


ROUND_TRIP_INPUTS = [NAMES_INPUT, LOC_INPUT, _structure().print(generic=True)]


@pytest.mark.parametrize("text", ROUND_TRIP_INPUTS)
@pytest.mark.parametrize("generic", [False, True])
def test_print_parse_print_is_stable(text: str, generic: bool) -> None:
    once = parse(text).print(generic=generic)
    assert parse(once).print(generic=generic) == once


def test_every_attribute_round_trips_through_the_parser() -> None:
    attrs = {
        "f": A.FloatAttr(round_to_kind(0.1, "bf16"), A.bf16),
        "g": A.FloatAttr(float_from_bits(0x7FA00000, "f32"), f32),
        "d": A.DenseElementsAttr(A.RankedTensorType([101], f16), np.arange(101) / 4),
        "s": A.StringAttr('a\x00"b\\'),
        "m": AFFINE_T,
        "t": A.TypeAttr(A.MemRefType([4, 4], f32, AFFINE_T, A.IntegerAttr(2))),
    }
    module = ModuleOp.build_module()
    module.regions[0].blocks[0].append(U("test.attrs", attributes=attrs))
    text = str(module)
    again = parse(text)
    assert str(again) == text
    assert again.regions[0].blocks[0].first.get_attr("g") is attrs["g"]


# ---------------------------------------------------------------------------------------------
# The cost of printing


class ChainAddOp(Op):
    name = "test.chain_add"
    traits = (SameOperandsAndResultType,)
    lhs = operand()
    rhs = operand()
    res = result()
    format = "$lhs `,` $rhs attr-dict `:` type($res)"


def test_python_calls_per_printed_op_stay_low() -> None:
    n = 2000
    module = ModuleOp.build_module()
    holder = module.regions[0].blocks[0].append(U("test.holder", regions=1))
    block = holder.regions[0].add_block(Block([i32, i32]))
    x, y = block.arguments
    for _ in range(n):
        op = block.append(ChainAddOp.create([x, y], [i32]))
        x, y = op.results[0], x
    profile = cProfile.Profile()
    profile.enable()
    text = str(module)
    profile.disable()
    calls = pstats.Stats(profile).total_calls  # type: ignore[attr-defined]
    assert text.count("test.chain_add") == n
    assert calls / n <= 30


def test_printer_api_writes_through_one_buffer() -> None:
    p = Printer()
    p.print_type(A.FunctionType([i32], [i32, f32]))
    p.write(" ")
    p.print_arrow_type_list([i32])
    p.write(" ")
    p.print_symbol_name("a b")
    p.print_attr_dict({"b": A.UnitAttr(), "a": A.IntegerAttr(1, i8)}, elided=("c",))
    p.print_attr_dict_with_keyword({"c": A.UnitAttr()}, elided=("c",))
    assert "".join(p._out) == '(i32) -> (i32, f32) -> i32 @"a b" {a = 1 : i8, b}'
    assert attr_to_str(i32) == "i32"


def test_value_names_last_one_session() -> None:
    """A print session names values in their `_name` slot and puts UNNAMED back after; a
    session that starts while one is running (a hook printing, another thread) uses a dict."""
    from mlc.ir.core import UNNAMED
    from mlc.syntax import printer as P

    text = (
        "func.func @f(%arg0: i32) -> i32 {\n  %0 = arith.addi %arg0, %arg0 : i32\n"
        "  return %0 : i32\n}"
    )
    m = parse_module(text)
    assert print_op(m) == "module {\n" + "\n".join("  " + s for s in text.split("\n")) + "\n}"
    add = m.regions[0].blocks[0].first.regions[0].blocks[0].first
    assert add.results[0]._name is UNNAMED
    assert add.regions == () and add.parent.arguments[0]._name is UNNAMED
    # A detached op using the printed module's value: not named by its own session.
    user = UnregisteredOp.create_named("test.use", [add.results[0]])
    assert print_op(user) == '"test.use"(<<UNKNOWN SSA VALUE>>) : (i32) -> ()'
    # While a session holds the slots, another prints the same text through its dict.
    assert P._SLOT_SESSION.acquire(blocking=False)
    try:
        inner = print_op(m, generic=True)
        inner_custom = print_op(m)
    finally:
        P._SLOT_SESSION.release()
    assert inner == print_op(m, generic=True) and inner_custom == print_op(m)
    assert add.results[0]._name is UNNAMED


class RaisingPrintOp(Op):
    name = "test.raising_print"
    res = result()

    def print_asm(self, printer: Any) -> None:
        raise RuntimeError("print hook failed")


def test_value_names_reset_after_a_failed_print() -> None:
    """The session's record of the values it named puts UNNAMED back even when a print hook
    raises half-way; block arguments, results before and after the failing op included."""
    from mlc.ir.core import UNNAMED

    module = ModuleOp.build_module()
    holder = module.regions[0].blocks[0].append(U("test.holder", regions=1))
    block = holder.regions[0].add_block(Block([i32]))
    first = block.append(U("test.a", operands=[block.arguments[0]], result_types=[i32]))
    block.append(RaisingPrintOp.create([], [i32]))
    last = block.append(U("test.b", operands=[first.results[0]], result_types=[i32, i32]))
    with pytest.raises(RuntimeError, match="print hook failed"):
        str(module)
    values = [block.arguments[0], *first.results, *last.results]
    assert all(v._name is UNNAMED for v in values)
    # A detached op using them afterwards does not see names from the failed session.
    user = U("test.use", operands=[last.results[1]])
    assert print_op(user) == '"test.use"(<<UNKNOWN SSA VALUE>>) : (i32) -> ()'


def test_numbers_past_the_shared_name_table_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """SSA numbers come from a shared table of `%N` strings; past its limit they are made per
    use, and a block longer than the table prints the same text."""
    import mlc.syntax.printer as printer_mod

    lines = ["func.func @f(%a: i32) -> i32 {"]
    prev = "%a"
    for i in range(40):
        lines.append(f"  %{i} = arith.addi {prev}, %a : i32")
        prev = f"%{i}"
    lines += [f"  return {prev} : i32", "}"]
    text = "\n".join(lines)
    expected = str(parse_module(text))
    monkeypatch.setattr(printer_mod, "_PERCENT", [])
    monkeypatch.setattr(printer_mod, "_PERCENT_LIMIT", 16)
    module = parse_module(text)
    assert str(module) == expected
    assert len(printer_mod._PERCENT) == 16
    assert "%39 = arith.addi %38, %arg0 : i32" in expected
    # The names are reset after the session: a second print numbers afresh.
    assert str(module) == expected
