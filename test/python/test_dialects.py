"""The builtin, func, arith and math dialects: folders, verifiers, builders, and the folders
checked against MLIR's own (iree-opt --canonicalize) on generated constant expressions."""

from __future__ import annotations

import math
import random
import shutil
import subprocess
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mlc.dialects import arith, arith_fold, builtin, func
from mlc.dialects import math as math_d

import mlc
from mlc.interfaces import constant_value, is_speculatable
from mlc.ir import attributes as A
from mlc.ir.context import default_context
from mlc.ir.core import Block, Operation, Value

# ---------------------------------------------------------------------------------------------
# Helpers


def parse_func(body: str, args: str = "", results: str = "") -> Operation:
    """`func.func @f(args) -> (results) { body }`, parsed and verified; returns the func."""
    ret = f" -> ({results})" if results else ""
    module = mlc.parse(f"func.func @f({args}){ret} {{\n{body}\n}}\n")
    module.verify()
    return module.regions[0].blocks[0].first  # type: ignore[return-value]


def fold_last(body: str, args: str = "", results: str = "") -> tuple[Operation, Any]:
    """Fold the op before the terminator with its constant operands; (func, fold result)."""
    f = parse_func(body, args, results)
    op = f.regions[0].blocks[0].last.prev  # type: ignore[union-attr]
    return f, op.fold([constant_value(v) for v in op.operands])  # type: ignore[union-attr]


def folded_text(body: str, args: str = "", results: str = "") -> str | None:
    """The folded constant as text, `argN` for a function argument, `%name` of another value."""
    f, res = fold_last(body, args, results)
    if res is None:
        return None
    if isinstance(res, Value):
        entry = f.regions[0].blocks[0]
        if res in entry.arguments:
            return f"arg{entry.arguments.index(res)}"
        return f"value of {res.defining_op().name}"  # type: ignore[union-attr]
    return str(res)


def binary(op: str, t: str, a: str, b: str, result: str | None = None) -> str | None:
    """Fold `op %a, %b : t` of two constants (the result has type `result`, default `t`)."""
    rt = result or t
    return folded_text(
        f"%a = arith.constant {a} : {t}\n%b = arith.constant {b} : {t}\n"
        f"%r = {op} %a, %b : {t}\nreturn %r : {rt}",
        results=rt,
    )


# ---------------------------------------------------------------------------------------------
# Registration and definitions


def test_dialects_register_their_ops() -> None:
    ctx = default_context()
    counts = {name: len(ctx.get_dialect(name).ops) for name in ("builtin", "func", "arith", "math")}
    assert counts == {"builtin": 2, "func": 5, "arith": 49, "math": 44}
    assert ctx.get_op("arith.addi") is arith.AddIOp
    assert ctx.get_op("func.func") is func.FuncOp
    assert ctx.get_attr("arith.fastmath") is arith.FastMathFlagsAttr


def test_every_op_has_a_docstring_with_an_example() -> None:
    ctx = default_context()
    for name in ("builtin", "func", "arith", "math"):
        for op_name, cls in ctx.get_dialect(name).ops.items():
            doc = cls.__doc__ or ""
            assert cls.summary, op_name
            assert op_name.partition(".")[2] in doc, f"{op_name}: no example in the docstring"


def test_op_class_names_follow_the_mnemonic() -> None:
    assert arith.CmpIOp.name == "arith.cmpi"
    assert arith.IndexCastUIOp.name == "arith.index_castui"
    assert math_d.CountLeadingZerosOp.name == "math.ctlz"
    assert builtin.UnrealizedConversionCastOp.name == "builtin.unrealized_conversion_cast"


def test_property_names_are_mlirs() -> None:
    assert arith.AddIOp._prop_names == {"overflowFlags"}
    assert arith.CmpFOp._prop_names == {"predicate", "fastmath"}
    assert arith.TruncFOp._prop_names == {"roundingmode", "fastmath"}
    assert func.FuncOp._prop_names == {
        "sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs", "no_inline",
    }  # fmt: skip
    assert builtin.ModuleOp._prop_names == {"sym_name", "sym_visibility"}


def test_division_is_speculatable_only_with_a_safe_constant_divisor() -> None:
    f = parse_func(
        "%c2 = arith.constant 2 : i32\n%m1 = arith.constant -1 : i32\n"
        "%0 = arith.divsi %a, %c2 : i32\n%1 = arith.divsi %a, %m1 : i32\n"
        "%2 = arith.divui %a, %m1 : i32\n%3 = arith.divui %a, %a : i32\n"
        "%4 = arith.addi %a, %a : i32\nreturn",
        "%a: i32",
    )
    ops = [op for op in f.regions[0].blocks[0] if op.name != "arith.constant"][:-1]
    assert [is_speculatable(op) for op in ops] == [True, False, True, False, True]


# ---------------------------------------------------------------------------------------------
# Attributes


def test_fastmath_flags_print_like_mlir() -> None:
    fm = arith.FastMathFlagsAttr
    assert str(fm.from_names("nnan", "ninf")) == "#arith.fastmath<nnan,ninf>"
    assert str(fm(0)) == "#arith.fastmath<none>"
    assert str(fm.from_names("fast")) == "#arith.fastmath<fast>"
    assert fm.from_names("fast").has("contract")
    assert str(arith.IntegerOverflowFlagsAttr(3)) == "#arith.overflow<nsw, nuw>"


def test_dialect_attributes_parse() -> None:
    from mlc.syntax.parser import parse_attribute

    assert parse_attribute("#arith.fastmath<reassoc,afn>") is arith.FastMathFlagsAttr(65)
    assert parse_attribute("#arith.overflow<nuw>") is arith.IntegerOverflowFlagsAttr(2)


def test_custom_form_defaults_and_generic_properties() -> None:
    f = parse_func(
        "%0 = arith.addf %x, %x fastmath<fast> : f32\n"
        '%1 = "arith.addf"(%x, %x) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32\n'
        "%2 = arith.cmpi ult, %i, %i : i32\nreturn",
        "%x: f32, %i: i32",
    )
    ops = list(f.regions[0].blocks[0])
    assert ops[0].get_attr("fastmath") is arith.FastMathFlagsAttr(127)
    assert ops[1].fastmath is arith.FASTMATH_NONE
    assert ops[2].get_attr("predicate") is A.IntegerAttr(6, A.i64)
    text = f.print(generic=True)
    assert '"arith.cmpi"(%arg1, %arg1) <{predicate = 6 : i64}>' in text
    assert "<{fastmath = #arith.fastmath<fast>}>" in text


# ---------------------------------------------------------------------------------------------
# Builders


def test_build_a_module_with_a_function_and_a_call() -> None:
    module = builtin.ModuleOp.build_module()
    callee = func.FuncOp.build_func("twice", [A.i32], [A.i32])
    x = callee.entry_block.arguments[0]
    add = arith.AddIOp.build([x, x])
    callee.entry_block.append(add)
    callee.entry_block.append(func.ReturnOp.build_return([add.res]))
    decl = func.FuncOp.build_func("ext", [A.f32], [], visibility="private", declaration=True)
    main = func.FuncOp.build_func("main", [], [A.i32])
    c = arith.ConstantOp.from_int(21, A.i32)
    call = func.CallOp.build_call(callee, [c.res])
    for op in (c, call, func.ReturnOp.build_return(call.results)):
        main.entry_block.append(op)
    for op in (callee, decl, main):
        module.block.append(op)
    module.verify()
    assert str(module) == (
        "module {\n"
        "  func.func @twice(%arg0: i32) -> i32 {\n"
        "    %0 = arith.addi %arg0, %arg0 : i32\n"
        "    return %0 : i32\n"
        "  }\n"
        "  func.func private @ext(f32)\n"
        "  func.func @main() -> i32 {\n"
        "    %c21_i32 = arith.constant 21 : i32\n"
        "    %0 = call @twice(%c21_i32) : (i32) -> i32\n"
        "    return %0 : i32\n"
        "  }\n"
        "}"
    )
    # Builders fill default-valued properties, as MLIR's properties always have a value.
    assert add.get_attr("overflowFlags") is arith.OVERFLOW_NONE


def test_constant_builders_wrap_and_round() -> None:
    assert arith.ConstantOp.from_int(255, A.i8).value is A.IntegerAttr(-1, A.i8)
    assert arith.ConstantOp.from_int(3).res.type is A.index
    assert arith.ConstantOp.from_float(0.1, A.f16).value.value == float(np.float16(0.1))
    splat = arith.ConstantOp.from_float(2.0, A.VectorType([4], A.f32)).value
    assert type(splat) is A.DenseElementsAttr and splat.is_splat and splat.splat_value == 2.0
    with pytest.raises(ValueError):
        arith.ConstantOp.from_int(1, A.RankedTensorType([A.DYNAMIC], A.i32))


def test_cmp_and_cast_builders() -> None:
    block = Block([A.VectorType([4], A.i32), A.f32])
    v, x = block.arguments
    cmp = arith.CmpIOp.get("sle", v, v)
    assert cmp.res.type is A.VectorType([4], A.i1)
    cmpf = arith.CmpFOp.get("uno", x, x)
    assert cmpf.get_attr("fastmath") is arith.FASTMATH_NONE
    ext = arith.ExtFOp.get(x, A.f64)
    trunc = arith.TruncIOp.get(v, A.VectorType([4], A.i8))
    for op in (cmp, cmpf, ext, trunc):
        block.append(op)
        op.verify()
    assert trunc.get_attr("overflowFlags") is arith.OVERFLOW_NONE


def test_materialize_constant() -> None:
    ctx = default_context()
    mat = ctx.get_dialect("arith").materialize_constant
    op = mat(A.IntegerAttr(7, A.i16), A.i16)
    assert type(op) is arith.ConstantOp and op.res.type is A.i16
    assert mat(A.IntegerAttr(7, A.i16), A.i32) is None  # type mismatch
    assert mat(A.StringAttr("x"), A.i32) is None
    fn_t = A.FunctionType([A.i32], [A.i32])
    fop = ctx.get_dialect("func").materialize_constant(A.SymbolRefAttr("f"), fn_t)
    assert type(fop) is func.ConstantOp and fop.res.type is fn_t
    assert ctx.get_dialect("math").materialize_constant(A.FloatAttr(1.0, A.f32), A.f32) is not None


def test_verify_errors_from_built_ops() -> None:
    block = Block([A.i32, A.i64])
    a, b = block.arguments
    bad = arith.AddIOp.create([a, b], [A.i32], {"overflowFlags": arith.OVERFLOW_NONE})
    block.append(bad)
    with pytest.raises(
        mlc.VerifyError, match="requires the same type for all operands and results"
    ):
        bad.verify()
    cast = arith.ExtSIOp.get(b, A.i32)
    block.append(cast)
    with pytest.raises(mlc.VerifyError, match="'i64' and result type 'i32' are cast incompatible"):
        cast.verify()


# ---------------------------------------------------------------------------------------------
# Integer folding


@pytest.mark.parametrize(
    ("op", "t", "a", "b", "expected"),
    [
        ("arith.addi", "i8", "127", "1", "-128 : i8"),
        ("arith.addi", "i32", "-1", "1", "0 : i32"),
        ("arith.subi", "i8", "-128", "1", "127 : i8"),
        ("arith.muli", "i16", "300", "300", "24464 : i16"),
        ("arith.muli", "index", "4", "5", "20 : index"),
        ("arith.divsi", "i32", "-7", "2", "-3 : i32"),
        ("arith.divsi", "i32", "7", "0", None),
        ("arith.divsi", "i8", "-128", "-1", None),
        ("arith.divui", "i8", "-1", "2", "127 : i8"),
        ("arith.divui", "i8", "5", "0", None),
        ("arith.ceildivsi", "i32", "-7", "2", "-3 : i32"),
        ("arith.ceildivsi", "i32", "7", "2", "4 : i32"),
        ("arith.ceildivsi", "i32", "-7", "-2", "4 : i32"),
        ("arith.ceildivui", "i8", "-1", "2", "-128 : i8"),
        ("arith.floordivsi", "i32", "-7", "2", "-4 : i32"),
        ("arith.floordivsi", "i32", "7", "-2", "-4 : i32"),
        ("arith.remsi", "i32", "-7", "2", "-1 : i32"),
        ("arith.remsi", "i32", "7", "-2", "1 : i32"),
        ("arith.remui", "i8", "-1", "10", "5 : i8"),
        ("arith.remui", "i8", "3", "0", None),
        ("arith.andi", "i8", "12", "10", "8 : i8"),
        ("arith.ori", "i8", "12", "10", "14 : i8"),
        ("arith.xori", "i8", "12", "10", "6 : i8"),
        ("arith.shli", "i8", "1", "7", "-128 : i8"),
        ("arith.shli", "i8", "1", "8", None),
        ("arith.shrui", "i8", "-128", "7", "1 : i8"),
        ("arith.shrsi", "i8", "-128", "7", "-1 : i8"),
        ("arith.shrsi", "i8", "1", "-1", None),
        ("arith.maxsi", "i8", "-1", "1", "1 : i8"),
        ("arith.maxui", "i8", "-1", "1", "-1 : i8"),
        ("arith.minsi", "i8", "-1", "1", "-1 : i8"),
        ("arith.minui", "i8", "-1", "1", "1 : i8"),
    ],
)
def test_integer_constant_folding(op: str, t: str, a: str, b: str, expected: str | None) -> None:
    assert binary(op, t, a, b) == expected


def test_i1_arithmetic() -> None:
    f = "%a = arith.constant true\n%b = arith.constant true\n%r = {op} %a, %b : i1\nreturn %r : i1"
    fold = lambda op: folded_text(f.format(op=op), results="i1")  # noqa: E731
    assert fold("arith.addi") == "false"
    assert fold("arith.andi") == "true"
    assert fold("arith.maxsi") == "true"  # true is -1 signed: max(-1, -1)
    assert fold("arith.muli") == "true"


@pytest.mark.parametrize(
    ("pred", "a", "b", "expected"),
    [
        ("eq", "3", "3", "true"), ("ne", "3", "3", "false"),
        ("slt", "-1", "1", "true"), ("ult", "-1", "1", "false"),
        ("sle", "2", "2", "true"), ("ule", "-2", "-1", "true"),
        ("sgt", "-1", "-2", "true"), ("ugt", "1", "-1", "false"),
        ("sge", "-128", "127", "false"), ("uge", "-128", "127", "true"),
    ],
)  # fmt: skip
def test_cmpi_folding(pred: str, a: str, b: str, expected: str) -> None:
    assert binary(f"arith.cmpi {pred},", "i8", a, b, "i1") == expected


def test_cmpi_of_a_value_with_itself() -> None:
    for pred, expected in (("eq", "true"), ("ult", "false"), ("sge", "true"), ("ne", "false")):
        body = f"%r = arith.cmpi {pred}, %x, %x : i32\nreturn %r : i1"
        assert folded_text(body, "%x: i32", "i1") == expected
    body = "%r = arith.cmpi slt, %x, %x : vector<2xi32>\nreturn %r : vector<2xi1>"
    assert folded_text(body, "%x: vector<2xi32>", "vector<2xi1>") == "dense<false> : vector<2xi1>"


def test_cmpi_moves_the_constant_right_in_place() -> None:
    body = "%c = arith.constant 5 : i32\n%r = arith.cmpi slt, %c, %x : i32\nreturn %r : i1"
    f, res = fold_last(body, "%x: i32", "i1")
    op = f.regions[0].blocks[0].last.prev
    assert res is op.res
    assert op.get_attr("predicate").value == 4  # slt with swapped operands is sgt
    assert op.lhs is f.regions[0].blocks[0].arguments[0]


def test_commutative_ops_move_the_constant_right_in_place() -> None:
    body = "%c = arith.constant 5 : i32\n%r = arith.addi %c, %x : i32\nreturn %r : i32"
    f, res = fold_last(body, "%x: i32", "i32")
    op = f.regions[0].blocks[0].last.prev
    assert res is op.res and op.lhs is f.regions[0].blocks[0].arguments[0]
    body = "%c = arith.constant 5 : i32\n%r = arith.subi %c, %x : i32\nreturn %r : i32"
    assert fold_last(body, "%x: i32", "i32")[1] is None  # not commutative


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("%c = arith.constant 0 : i32\n%r = arith.addi %x, %c : i32", "arg0"),
        ("%c = arith.constant 1 : i32\n%r = arith.muli %x, %c : i32", "arg0"),
        ("%c = arith.constant 0 : i32\n%r = arith.muli %x, %c : i32", "value of arith.constant"),
        ("%r = arith.subi %x, %x : i32", "0 : i32"),
        ("%s = arith.subi %x, %y : i32\n%r = arith.addi %s, %y : i32", "arg0"),
        ("%s = arith.addi %x, %y : i32\n%r = arith.subi %s, %y : i32", "arg0"),
        ("%s = arith.addi %x, %y : i32\n%r = arith.subi %s, %x : i32", "arg1"),
        ("%c = arith.constant 1 : i32\n%r = arith.divsi %x, %c : i32", "arg0"),
        ("%c = arith.constant 0 : i32\n%r = arith.divui %c, %x : i32", "value of arith.constant"),
        ("%r = arith.divui %x, %x : i32", "1 : i32"),
        ("%c = arith.constant 1 : i32\n%r = arith.remsi %x, %c : i32", "0 : i32"),
        ("%r = arith.remui %x, %x : i32", "0 : i32"),
        ("%c = arith.constant 0 : i32\n%r = arith.andi %x, %c : i32", "value of arith.constant"),
        ("%c = arith.constant -1 : i32\n%r = arith.andi %x, %c : i32", "arg0"),
        ("%r = arith.andi %x, %x : i32", "arg0"),
        ("%m = arith.constant -1 : i32\n%n = arith.xori %x, %m : i32\n%r = arith.andi %x, %n : i32",
         "0 : i32"),
        ("%m = arith.constant -1 : i32\n%n = arith.xori %x, %m : i32\n%r = arith.ori %n, %x : i32",
         "-1 : i32"),
        ("%c = arith.constant 0 : i32\n%r = arith.ori %x, %c : i32", "arg0"),
        ("%c = arith.constant -1 : i32\n%r = arith.ori %x, %c : i32", "value of arith.constant"),
        ("%r = arith.xori %x, %x : i32", "0 : i32"),
        ("%s = arith.xori %x, %y : i32\n%r = arith.xori %s, %y : i32", "arg0"),
        ("%c = arith.constant 0 : i32\n%r = arith.shli %x, %c : i32", "arg0"),
        ("%c = arith.constant 0 : i32\n%r = arith.shrui %c, %x : i32", "value of arith.constant"),
        ("%c = arith.constant -1 : i32\n%r = arith.shrsi %c, %x : i32", "value of arith.constant"),
        ("%r = arith.shrui %x, %x : i32", "0 : i32"),
        ("%c = arith.constant 2147483647 : i32\n%r = arith.maxsi %x, %c : i32",
         "value of arith.constant"),
        ("%c = arith.constant -2147483648 : i32\n%r = arith.maxsi %x, %c : i32", "arg0"),
        ("%c = arith.constant 0 : i32\n%r = arith.minui %x, %c : i32", "value of arith.constant"),
        ("%c = arith.constant -1 : i32\n%r = arith.minui %x, %c : i32", "arg0"),
        ("%r = arith.maxui %x, %x : i32", "arg0"),
    ],
)  # fmt: skip
def test_integer_identities(body: str, expected: str) -> None:
    assert folded_text(body + "\nreturn %r : i32", "%x: i32, %y: i32", "i32") == expected


def test_identities_on_splat_vectors() -> None:
    body = "%c = arith.constant dense<1> : vector<4xi32>\n%r = arith.muli %x, %c : vector<4xi32>"
    assert folded_text(body + "\nreturn %r : vector<4xi32>", "%x: vector<4xi32>",
                       "vector<4xi32>") == "arg0"  # fmt: skip
    body = "%r = arith.subi %x, %x : tensor<?xi32>\nreturn %r : tensor<?xi32>"
    assert folded_text(body, "%x: tensor<?xi32>", "tensor<?xi32>") is None  # no dynamic constant


def test_dense_folding_elementwise_and_splat() -> None:
    t = "vector<4xi8>"
    assert binary("arith.addi", t, "dense<[1, 2, 127, -128]>", "dense<100>") == (
        "dense<[101, 102, -29, -28]> : vector<4xi8>"
    )
    assert binary("arith.muli", t, "dense<3>", "dense<5>") == "dense<15> : vector<4xi8>"
    # One lane dividing by zero leaves the whole op unfolded.
    assert binary("arith.divsi", t, "dense<[1, 2, 3, 4]>", "dense<[1, 0, 1, 1]>") is None
    assert binary(
        "arith.cmpi sgt,", "tensor<2xi32>", "dense<[1, -1]>", "dense<0>", "tensor<2xi1>"
    ) == ("dense<[true, false]> : tensor<2xi1>")


def test_large_non_splat_constants_are_not_folded() -> None:
    n = arith_fold.DENSE_FOLD_LIMIT + 1
    t = A.RankedTensorType([n], A.i32)
    a = A.DenseElementsAttr(t, np.arange(n, dtype=np.int32))
    assert arith_fold.fold_elementwise(lambda x, y: x + y, [a, a], t) is None
    small = A.RankedTensorType([4], A.i32)
    b = A.DenseElementsAttr(small, [1, 2, 3, 4])
    assert arith_fold.fold_elementwise(lambda x, y: x + y, [b, b], small).array.tolist() == [
        2,
        4,
        6,
        8,
    ]


def test_extended_arithmetic() -> None:
    body = (
        "%a = arith.constant -1 : i8\n%b = arith.constant 2 : i8\n"
        "%s, %o = arith.addui_extended %a, %b : i8, i1\n"
        "%l, %h = arith.mulsi_extended %a, %b : i8\n"
        "%ul, %uh = arith.mului_extended %a, %b : i8\n"
        "return %s, %o, %l, %h, %ul, %uh : i8, i1, i8, i8, i8, i8"
    )
    f = parse_func(body, results="i8, i1, i8, i8, i8, i8")
    ops = list(f.regions[0].blocks[0])[2:5]
    folded = [[str(r) for r in op.fold([constant_value(v) for v in op.operands])] for op in ops]
    assert folded == [
        ["1 : i8", "true"],
        ["-2 : i8", "-1 : i8"],
        ["-2 : i8", "1 : i8"],
    ]


@given(st.integers(-(2**31), 2**31 - 1), st.integers(-(2**31), 2**31 - 1))
def test_signed_division_matches_c_semantics(a: int, b: int) -> None:
    w = 32
    if b == 0 or (a == -(2**31) and b == -1):
        assert arith_fold.divsi(a, b, w) is None
        return
    q = int(np.trunc(np.float64(a) / np.float64(b))) if abs(a) < 2**52 else None
    got = arith_fold.divsi(a, b, w)
    if q is not None and abs(a / b - round(a / b)) > 1e-9:
        assert got == q
    assert arith_fold.remsi(a, b, w) == a - b * got  # type: ignore[operator]
    assert arith_fold.floordivsi(a, b, w) == a // b
    assert arith_fold.ceildivsi(a, b, w) == -((-a) // b)


@given(st.integers(0, 2**16 - 1), st.integers(0, 2**16 - 1))
def test_i16_wraparound_matches_numpy(a: int, b: int) -> None:
    x, y = np.uint16(a).view(np.int16), np.uint16(b).view(np.int16)
    with np.errstate(all="ignore"):
        assert arith_fold.wrap(int(x) + int(y), 16) == int(x + y)
        assert arith_fold.wrap(int(x) * int(y), 16) == int(x * y)
        assert arith_fold.wrap(int(x) - int(y), 16) == int(x - y)
    if b:
        assert arith_fold.divui(a, b, 16) == a // b


# ---------------------------------------------------------------------------------------------
# Float folding


@given(st.floats(width=32), st.floats(width=32))
def test_f32_arithmetic_matches_numpy(a: float, b: float) -> None:
    fa, fb = np.float32(a), np.float32(b)
    with np.errstate(all="ignore"):
        cases = [(lambda x, y: x + y, fa + fb), (lambda x, y: x * y, fa * fb),
                 (arith_fold.divf, fa / fb), (lambda x, y: x - y, fa - fb)]  # fmt: skip
    for fn, want in cases:
        got = arith_fold.round_float(fn(a, b), A.f32)
        assert got == float(want) or (math.isnan(got) and np.isnan(want))


@given(st.floats(width=16), st.floats(width=16))
def test_f16_arithmetic_matches_numpy(a: float, b: float) -> None:
    with np.errstate(all="ignore"):
        want = np.float16(a) * np.float16(b)
    got = arith_fold.round_float(a * b, A.f16)
    assert got == float(want) or (math.isnan(got) and np.isnan(want))


def test_float_rounding_edges() -> None:
    r = arith_fold.round_float
    assert r(65519.99, A.f16) == 65504.0 and r(65520.0, A.f16) == math.inf
    assert r(1.00390625, A.bf16) == 1.0 and r(1.01171875, A.bf16) == 1.015625
    assert math.copysign(1.0, r(-1e-10, A.f16)) == -1.0
    assert r(2**24 + 1, A.f32) == 2.0**24  # ties to even
    assert r(2**64 - 1, A.f32) == 2.0**64  # integers round once, not via f64
    assert r(1.0, A.FloatType("f8E4M3FN")) is None  # not foldable


@pytest.mark.parametrize(
    ("op", "t", "a", "b", "expected"),
    [
        ("arith.addf", "f32", "0.1", "0.2", "3.000000e-01 : f32"),  # 0.300000012 in f32
        ("arith.addf", "f16", "65504.0", "65504.0", "0x7C00 : f16"),
        ("arith.subf", "f64", "1.0", "1.0", "0.000000e+00 : f64"),
        ("arith.mulf", "bf16", "3.0", "0.5", "1.500000e+00 : bf16"),
        ("arith.divf", "f32", "1.0", "0.0", "0x7F800000 : f32"),
        ("arith.divf", "f32", "0.0", "0.0", "0x7FC00000 : f32"),
        ("arith.remf", "f32", "-7.5", "2.0", "-1.500000e+00 : f32"),
        ("arith.remf", "f16", "-2.5", "-0.0", "0x7E00 : f16"),
        ("arith.maximumf", "f32", "-0.0", "0.0", "0.000000e+00 : f32"),
        ("arith.minimumf", "f32", "-0.0", "0.0", "-0.000000e+00 : f32"),
        ("arith.maximumf", "f32", "0x7FC00000", "1.0", "0x7FC00000 : f32"),
        ("arith.maxnumf", "f32", "0x7FC00000", "1.0", "1.000000e+00 : f32"),
        ("arith.minnumf", "f32", "2.0", "0x7FC00000", "2.000000e+00 : f32"),
        ("arith.addf", "f8E4M3FN", "1.0", "1.0", None),
    ],
)
def test_float_constant_folding(op: str, t: str, a: str, b: str, expected: str | None) -> None:
    assert binary(op, t, a, b) == expected


@pytest.mark.parametrize(
    ("pred", "a", "b", "expected"),
    [
        ("oeq", "1.0", "1.0", "true"), ("one", "1.0", "2.0", "true"),
        ("olt", "0x7FC00000", "1.0", "false"), ("ult", "0x7FC00000", "1.0", "true"),
        ("ord", "1.0", "2.0", "true"), ("uno", "1.0", "0x7FC00000", "true"),
        ("oge", "-0.0", "0.0", "true"), ("une", "-0.0", "0.0", "false"),
        ("false", "1.0", "1.0", "false"), ("true", "0x7FC00000", "1.0", "true"),
    ],
)  # fmt: skip
def test_cmpf_folding(pred: str, a: str, b: str, expected: str) -> None:
    assert binary(f"arith.cmpf {pred},", "f32", a, b, "i1") == expected


def test_cmpf_with_one_nan_operand() -> None:
    body = "%n = arith.constant 0x7FC00000 : f32\n%r = arith.cmpf {p}, %x, %n : f32\nreturn %r : i1"
    assert folded_text(body.format(p="oeq"), "%x: f32", "i1") == "false"
    assert folded_text(body.format(p="ugt"), "%x: f32", "i1") == "true"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("%c = arith.constant -0.0 : f32\n%r = arith.addf %x, %c : f32", "arg0"),
        ("%c = arith.constant 0.0 : f32\n%r = arith.addf %x, %c : f32", None),  # -0 + 0 = +0
        ("%c = arith.constant 0.0 : f32\n%r = arith.subf %x, %c : f32", "arg0"),
        ("%c = arith.constant 1.0 : f32\n%r = arith.mulf %x, %c : f32", "arg0"),
        ("%c = arith.constant 1.0 : f32\n%r = arith.divf %x, %c : f32", "arg0"),
        ("%c = arith.constant 0xFF800000 : f32\n%r = arith.maximumf %x, %c : f32", "arg0"),
        ("%c = arith.constant 0x7F800000 : f32\n%r = arith.minimumf %x, %c : f32", "arg0"),
        ("%c = arith.constant 0x7FC00000 : f32\n%r = arith.maxnumf %x, %c : f32", "arg0"),
        ("%r = arith.minnumf %x, %x : f32", "arg0"),
        ("%n = arith.negf %x : f32\n%r = arith.negf %n : f32", "arg0"),
    ],
)
def test_float_identities(body: str, expected: str | None) -> None:
    assert folded_text(body + "\nreturn %r : f32", "%x: f32", "f32") == expected


# ---------------------------------------------------------------------------------------------
# Select and casts


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("%c = arith.constant true\n%r = arith.select %c, %x, %y : i32", "arg0"),
        ("%c = arith.constant false\n%r = arith.select %c, %x, %y : i32", "arg1"),
        ("%r = arith.select %b, %x, %x : i32", "arg0"),
        ("%e = arith.cmpi eq, %x, %y : i32\n%r = arith.select %e, %x, %y : i32", "arg1"),
        ("%e = arith.cmpi ne, %x, %y : i32\n%r = arith.select %e, %x, %y : i32", "arg0"),
        ("%e = arith.cmpi slt, %x, %y : i32\n%r = arith.select %e, %x, %y : i32", None),
    ],
)
def test_select_folding(body: str, expected: str | None) -> None:
    assert folded_text(body + "\nreturn %r : i32", "%x: i32, %y: i32, %b: i1", "i32") == expected


def test_select_of_booleans_and_vectors() -> None:
    body = ("%t = arith.constant true\n%f = arith.constant false\n"
            "%r = arith.select %b, %t, %f : i1\nreturn %r : i1")  # fmt: skip
    assert folded_text(body, "%b: i1", "i1") == "arg0"
    body = (
        "%c = arith.constant dense<[true, false]> : vector<2xi1>\n"
        "%a = arith.constant dense<[1, 2]> : vector<2xi32>\n"
        "%z = arith.constant dense<7> : vector<2xi32>\n"
        "%r = arith.select %c, %a, %z : vector<2xi1>, vector<2xi32>\nreturn %r : vector<2xi32>"
    )
    assert folded_text(body, results="vector<2xi32>") == "dense<[1, 7]> : vector<2xi32>"


@pytest.mark.parametrize(
    ("cast", "value", "src", "dst", "expected"),
    [
        ("extsi", "-1", "i8", "i32", "-1 : i32"),
        ("extui", "-1", "i8", "i32", "255 : i32"),
        ("extui", "true", "i1", "i8", "1 : i8"),
        ("extsi", "true", "i1", "i8", "-1 : i8"),
        ("trunci", "511", "i32", "i8", "-1 : i8"),
        ("index_cast", "-1", "i32", "index", "-1 : index"),
        ("index_castui", "-1", "i32", "index", "4294967295 : index"),
        ("index_cast", "4294967296", "index", "i32", "0 : i32"),
        ("sitofp", "-1", "i8", "f32", "-1.000000e+00 : f32"),
        ("uitofp", "-1", "i8", "f32", "2.550000e+02 : f32"),
        ("sitofp", "16777217", "i32", "f32", "0x4B800000 : f32"),  # 2^24: ties to even
        ("fptosi", "-2.75", "f32", "i8", "-2 : i8"),
        ("fptosi", "300.5", "f32", "i8", None),
        ("fptoui", "-0.5", "f32", "i8", "0 : i8"),
        ("fptoui", "-1.5", "f32", "i8", None),
        ("fptosi", "0x7FC00000", "f32", "i32", None),
        ("extf", "0.1", "f32", "f64", "0.10000000149011612 : f64"),
        ("truncf", "1.5", "f64", "bf16", "1.500000e+00 : bf16"),
        ("truncf", "0.1", "f64", "f32", None),  # inexact: MLIR does not fold it
        ("bitcast", "1.0", "f32", "i32", "1065353216 : i32"),
        ("bitcast", "-1", "i16", "f16", "0xFFFF : f16"),
        ("bitcast", "1.0", "bf16", "f16", "1.875000e+00 : f16"),
    ],
)
def test_cast_folding(cast: str, value: str, src: str, dst: str, expected: str | None) -> None:
    const = value if src == "i1" else f"{value} : {src}"
    body = f"%a = arith.constant {const}\n%r = arith.{cast} %a : {src} to {dst}\nreturn %r : {dst}"
    assert folded_text(body, results=dst) == expected


def test_cast_chains_fold_in_place() -> None:
    body = ("%0 = arith.extsi %x : i8 to i16\n%1 = arith.extsi %0 : i16 to i64\n"
            "return %1 : i64")  # fmt: skip
    f, res = fold_last(body, "%x: i8", "i64")
    op = f.regions[0].blocks[0].last.prev
    assert res is op.res and op.input is f.regions[0].blocks[0].arguments[0]
    body = "%0 = arith.extui %x : i8 to i32\n%1 = arith.trunci %0 : i32 to i8\nreturn %1 : i8"
    assert folded_text(body, "%x: i8", "i8") == "arg0"
    body = "%0 = arith.extsi %x : i64 to i128\n%1 = arith.trunci %0 : i128 to i16\nreturn %1 : i16"
    f, res = fold_last(body, "%x: i64", "i16")
    op = f.regions[0].blocks[0].last.prev
    assert res is op.res and op.input.type is A.i64  # trunci(extsi(x)) -> trunci(x)
    body = "%0 = arith.extsi %x : i8 to i32\n%1 = arith.trunci %0 : i32 to i16\nreturn %1 : i16"
    assert folded_text(body, "%x: i8", "i16") is None  # extsi(x) is a pattern, not a fold
    body = "%0 = arith.extf %x : f16 to f32\n%1 = arith.truncf %0 : f32 to f16\nreturn %1 : f16"
    assert folded_text(body, "%x: f16", "f16") == "arg0"
    body = "%0 = arith.truncf %x : f32 to f16\n%1 = arith.extf %0 : f16 to f32\nreturn %1 : f32"
    assert folded_text(body, "%x: f32", "f32") is None  # skipping a rounding needs `contract`
    body = ("%0 = arith.truncf %x fastmath<contract> : f32 to f16\n"
            "%1 = arith.extf %0 fastmath<contract> : f16 to f32\nreturn %1 : f32")  # fmt: skip
    assert folded_text(body, "%x: f32", "f32") == "arg0"
    body = "%0 = arith.bitcast %x : f32 to i32\n%1 = arith.bitcast %0 : i32 to f32\nreturn %1 : f32"
    assert folded_text(body, "%x: f32", "f32") == "arg0"


def test_cmpi_of_extended_booleans() -> None:
    body = ("%z = arith.constant 0 : i32\n%e = arith.extui %b : i1 to i32\n"
            "%r = arith.cmpi ne, %e, %z : i32\nreturn %r : i1")  # fmt: skip
    assert folded_text(body, "%b: i1", "i1") == "arg0"


def test_unrealized_casts_fold_round_trips() -> None:
    body = ("%0 = builtin.unrealized_conversion_cast %x : i32 to i64\n"
            "%1 = builtin.unrealized_conversion_cast %0 : i64 to i32\nreturn %1 : i32")  # fmt: skip
    f, res = fold_last(body, "%x: i32", "i32")
    assert res == [f.regions[0].blocks[0].arguments[0]]
    body = "%0 = builtin.unrealized_conversion_cast %x : i32 to i32\nreturn %0 : i32"
    f, res = fold_last(body, "%x: i32", "i32")
    assert res == [f.regions[0].blocks[0].arguments[0]]
    body = "%0 = builtin.unrealized_conversion_cast %x : i32 to i64\nreturn %0 : i64"
    assert fold_last(body, "%x: i32", "i64")[1] is None


# ---------------------------------------------------------------------------------------------
# math folding


@pytest.mark.parametrize(
    ("op", "t", "value", "expected"),
    [
        ("math.sqrt", "f32", "4.0", "2.000000e+00 : f32"),
        ("math.sqrt", "f32", "-1.0", None),  # domain error: not folded
        ("math.sqrt", "f16", "4.0", None),  # transcendental: f32/f64 only, as MLIR
        ("math.exp", "f64", "0.0", "1.000000e+00 : f64"),
        ("math.exp", "f32", "1000.0", "0x7F800000 : f32"),
        ("math.log", "f32", "0.0", "0xFF800000 : f32"),
        ("math.absf", "bf16", "-2.5", "2.500000e+00 : bf16"),
        ("math.ceil", "f16", "1.25", "2.000000e+00 : f16"),
        ("math.floor", "f32", "-1.25", "-2.000000e+00 : f32"),
        ("math.round", "f32", "2.5", "3.000000e+00 : f32"),
        ("math.round", "f32", "-2.5", "-3.000000e+00 : f32"),
        ("math.roundeven", "f32", "2.5", "2.000000e+00 : f32"),
        ("math.trunc", "f32", "-2.75", "-2.000000e+00 : f32"),
        ("math.rsqrt", "f64", "4.0", "5.000000e-01 : f64"),
        ("math.cbrt", "f64", "-8.0", "-2.000000e+00 : f64"),
        ("math.erf", "f64", "0.0", "0.000000e+00 : f64"),
        ("math.tanh", "f32", "1.0", "0.761594176 : f32"),
    ],
)
def test_math_unary_folding(op: str, t: str, value: str, expected: str | None) -> None:
    body = f"%a = arith.constant {value} : {t}\n%r = {op} %a : {t}\nreturn %r : {t}"
    assert folded_text(body, results=t) == expected


def test_math_f64_folds_agree_with_the_platform_libm() -> None:
    for name in ("exp", "log", "sin", "cos", "tan", "tanh", "atan", "sinh", "cosh", "erf", "erfc",
                 "expm1", "log1p", "log2", "log10", "cbrt", "exp2"):  # fmt: skip
        body = f"%a = arith.constant 0.7 : f64\n%r = math.{name} %a : f64\nreturn %r : f64"
        _, res = fold_last(body, results="f64")
        assert res.value == getattr(math, name)(0.7), name


@pytest.mark.parametrize(
    ("op", "t", "args", "expected"),
    [
        ("math.powf", "f32", ("2.0", "10.0"), "1.024000e+03 : f32"),
        ("math.atan2", "f64", ("1.0", "1.0"), "0.78539816339744828 : f64"),
        ("math.copysign", "f16", ("2.0", "-0.0"), "-2.000000e+00 : f16"),
        ("math.fma", "f64", ("0.1", "10.0", "-1.0"), "5.5511151231257827E-17 : f64"),
        ("math.fma", "f32", ("1.0", "2.0", "3.0"), "5.000000e+00 : f32"),
    ],
)
def test_math_binary_and_ternary_folding(op: str, t: str, args: tuple, expected: str) -> None:
    names = "abc"[: len(args)]
    body = "".join(f"%{n} = arith.constant {v} : {t}\n" for n, v in zip(names, args, strict=True))
    body += f"%r = {op} {', '.join('%' + n for n in names)} : {t}\nreturn %r : {t}"
    assert folded_text(body, results=t) == expected


def test_math_integer_folding() -> None:
    cases = [
        ("math.absi", "-128", "i8", "-128 : i8"),
        ("math.absi", "-5", "i32", "5 : i32"),
        ("math.ctlz", "1", "i32", "31 : i32"),
        ("math.ctlz", "0", "i16", "16 : i16"),
        ("math.cttz", "8", "i8", "3 : i8"),
        ("math.ctpop", "-1", "i64", "64 : i64"),
    ]
    for op, v, t, expected in cases:
        body = f"%a = arith.constant {v} : {t}\n%r = {op} %a : {t}\nreturn %r : {t}"
        assert folded_text(body, results=t) == expected, op
    assert binary("math.ipowi", "i32", "3", "4") == "81 : i32"
    assert binary("math.ipowi", "i8", "3", "5") == "-13 : i8"  # 243 wraps
    assert binary("math.ipowi", "i32", "2", "-1") == "0 : i32"
    assert binary("math.ipowi", "i32", "-1", "-3") == "-1 : i32"
    assert binary("math.ipowi", "i32", "0", "-1") is None


def test_math_classification_and_fpowi() -> None:
    cases = [
        ("math.isnan", "0x7FC00000", "true"),
        ("math.isinf", "0xFF800000", "true"),
        ("math.isfinite", "0x7F800000", "false"),
        ("math.isnormal", "1.0e-40", "false"),  # subnormal
        ("math.isnormal", "1.0", "true"),
    ]
    for op, v, expected in cases:
        body = f"%a = arith.constant {v} : f32\n%r = {op} %a : f32\nreturn %r : i1"
        assert folded_text(body, results="i1") == expected, op
    body = ("%a = arith.constant 2.0 : f64\n%n = arith.constant -2 : i32\n"
            "%r = math.fpowi %a, %n : f64, i32\nreturn %r : f64")  # fmt: skip
    assert folded_text(body, results="f64") == "2.500000e-01 : f64"


# ---------------------------------------------------------------------------------------------
# Symbol uses of func.call / func.constant


def test_call_resolves_the_nearest_symbol_table() -> None:
    module = mlc.parse(
        "module @outer {\n  func.func private @g() -> i32\n  module @inner {\n"
        "    func.func @f() -> i32 {\n      %0 = call @g() : () -> i32\n      return %0 : i32\n"
        "    }\n  }\n}\n"
    )
    with pytest.raises(mlc.VerifyError, match="'g' does not reference a valid function"):
        module.verify()


def test_func_accessors() -> None:
    f = parse_func("return %a : i32", "%a: i32", "i32")
    assert f.func_type is A.FunctionType([A.i32], [A.i32])
    assert not f.is_declaration
    assert f.callable_region() is f.regions[0]
    assert list(f.callable_argument_types()) == [A.i32]
    assert f.arguments == list(f.entry_block.arguments)


# ---------------------------------------------------------------------------------------------
# The folders against MLIR's own, on generated constant expressions

IREE_OPT = shutil.which("iree-opt")

_INT_OPS = ["addi", "subi", "muli", "divui", "divsi", "ceildivui", "ceildivsi", "floordivsi",
            "remui", "remsi", "andi", "ori", "xori", "maxsi", "maxui", "minsi",
            "minui"]  # fmt: skip
_FLOAT_OPS = ["addf", "subf", "mulf", "divf", "remf", "maximumf", "minimumf", "maxnumf", "minnumf"]
_MATH_F64 = ["exp", "log", "sin", "cos", "tanh", "atan", "sqrt", "expm1", "log1p", "floor",
             "ceil", "round", "roundeven", "trunc", "absf", "cbrt", "erf"]  # fmt: skip
_CASTS = [("extsi", "i8", "i32"), ("extui", "i16", "i64"), ("trunci", "i64", "i8"),
          ("sitofp", "i32", "f32"), ("uitofp", "i64", "f32"), ("fptosi", "f32", "i16"),
          ("fptoui", "f64", "i8"), ("extf", "f16", "f64"), ("truncf", "f64", "bf16"),
          ("index_cast", "index", "i32"), ("index_castui", "i16", "index"),
          ("bitcast", "f32", "i32")]  # fmt: skip


def _rand_int(rng: random.Random, t: str) -> str:
    w = 64 if t == "index" else int(t[1:])
    lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
    v = rng.choice([0, 1, -1, 2, 3, 7, lo, hi]) if rng.random() < 0.6 else rng.randint(lo, hi)
    return f"{v} : {t}"


def _rand_float(rng: random.Random, t: str) -> str:
    v = rng.choice(["0.0", "-0.0", "1.0", "-1.0", "0.5", "2.5", "-2.5", "0.1", "1.0e10", "3.0"])
    if rng.random() < 0.4:
        v = repr(round(rng.uniform(-300, 300), rng.randint(0, 6)))
    return f"{v} : {t}"


def _binary_case(rng: random.Random, op: str, t: str, rand: Any) -> list[str]:
    a, b = rand(rng, t), rand(rng, t)
    return [f"%a = arith.constant {a}", f"%b = arith.constant {b}", f"%r = {op} %a, %b : {t}"]


def _generated_case(rng: random.Random) -> tuple[list[str], str]:
    """One constant expression (its ops, ending in `%r`) and the type of `%r`."""
    kind = rng.random()
    if kind < 0.35:
        t = rng.choice(["i8", "i16", "i32", "i64", "index"])
        return _binary_case(rng, "arith." + rng.choice(_INT_OPS), t, _rand_int), t
    if kind < 0.45:
        op = f"arith.cmpi {rng.choice(arith_fold.CMPI_PREDICATES)},"
        return _binary_case(rng, op, rng.choice(["i8", "i32"]), _rand_int), "i1"
    if kind < 0.7:
        t = rng.choice(["f16", "bf16", "f32", "f64"])
        return _binary_case(rng, "arith." + rng.choice(_FLOAT_OPS), t, _rand_float), t
    if kind < 0.8:
        op = f"arith.cmpf {rng.choice(arith_fold.CMPF_PREDICATES)},"
        return _binary_case(rng, op, rng.choice(["f32", "f64"]), _rand_float), "i1"
    if kind < 0.9:
        op = rng.choice(_MATH_F64)
        value = _rand_float(rng, "f64")
        if op in ("log", "sqrt", "log1p"):
            value = value.lstrip("-")  # no domain errors: MLIR folds those to NaN, mlc does not
        return [f"%a = arith.constant {value}", f"%r = math.{op} %a : f64"], "f64"
    cast, src, t = rng.choice(_CASTS)
    value = _rand_float(rng, src) if src[0] in "fb" else _rand_int(rng, src)
    return [f"%a = arith.constant {value}", f"%r = arith.{cast} %a : {src} to {t}"], t


def _generated_module(seed: int, n: int) -> str:
    rng = random.Random(seed)
    funcs = []
    for i in range(n):
        ops, t = _generated_case(rng)
        body = "".join(f"    {op}\n" for op in ops)
        funcs.append(f"  func.func @f{i}() -> {t} {{\n{body}    return %r : {t}\n  }}\n")
    return "module {\n" + "".join(funcs) + "}\n"


def _returned(f: Operation) -> Value:
    return f.regions[0].blocks[0].last.operand(0)  # type: ignore[union-attr]


@pytest.mark.skipif(IREE_OPT is None, reason="iree-opt is not installed")
@pytest.mark.parametrize("seed", [1, 2])
def test_folders_agree_with_mlir(seed: int) -> None:
    """Every generated expression folds in mlc exactly when, and to what, MLIR folds it."""
    src = _generated_module(seed, 250)
    proc = subprocess.run(
        [IREE_OPT, "--canonicalize", "-"], input=src, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    ref = {f.get_attr("sym_name").value: f for f in mlc.parse(proc.stdout).regions[0].blocks[0]}
    mismatches = []
    for f in mlc.parse(src).regions[0].blocks[0]:
        op = f.regions[0].blocks[0].last.prev
        got = op.fold([constant_value(v) for v in op.operands])
        if isinstance(got, Value):
            got = constant_value(got)
        want = constant_value(_returned(ref[f.get_attr("sym_name").value]))
        if got is not want:
            mismatches.append(f"{op}: mlir {want}, mlc {got}")
    assert not mismatches, "\n".join(mismatches)
