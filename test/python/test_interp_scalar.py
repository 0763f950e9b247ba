"""The reference interpreter on func, arith and math ops, and its calling convention."""

from __future__ import annotations

import math

import numpy as np
import pytest

import mlc
from mlc.interp import Interpreter, InterpreterError, handles, run


def run1(body: str, sig: str, results: str, *args):
    return run(f"func.func @main({sig}) -> ({results}) {{\n{body}\n}}", "main", *args)


def binop(op: str, t: str, a, b):
    (r,) = run1(f"%0 = arith.{op} %a, %b : {t}\nreturn %0 : {t}", f"%a: {t}, %b: {t}", t, a, b)
    return r


# ---------------------------------------------------------------------------------------------
# Integers


def test_integer_wrap_and_types() -> None:
    r = binop("addi", "i32", np.int32(2**31 - 1), np.int32(1))
    assert type(r) is np.int32 and r == -(2**31)
    assert binop("muli", "i8", np.int8(16), np.int8(16)) == 0
    assert binop("subi", "i64", np.int64(-(2**63)), np.int64(1)) == 2**63 - 1
    assert binop("addi", "index", np.int64(3), np.int64(4)) == 7
    # i1: add is xor, mul is and
    assert binop("addi", "i1", np.True_, np.True_) == np.False_
    assert binop("muli", "i1", np.True_, np.True_) == np.True_


def test_odd_width_integers_wrap() -> None:
    # i4 lives in an int8 container but wraps at 4 bits: 7 + 1 = -8.
    r = binop("addi", "i4", np.int8(7), np.int8(1))
    assert type(r) is np.int8 and r == -8
    assert binop("divui", "i4", np.int8(-1), np.int8(2)) == 7  # 15 / 2


@pytest.mark.parametrize(
    "op,a,b,expected",
    [
        ("divsi", -7, 2, -3),
        ("divsi", 7, -2, -3),
        ("remsi", -7, 2, -1),
        ("remsi", 7, -2, 1),
        ("floordivsi", -7, 2, -4),
        ("floordivsi", 7, 2, 3),
        ("ceildivsi", 7, 2, 4),
        ("ceildivsi", -7, 2, -3),
        ("divui", -1, 2, 2**31 - 1),
        ("remui", -1, 10, (2**32 - 1) % 10),
        ("ceildivui", 7, 2, 4),
        ("shli", 1, 31, -(2**31)),
        ("shrui", -8, 1, (2**32 - 8) >> 1),
        ("shrsi", -8, 1, -4),
        ("maxsi", -1, 1, 1),
        ("maxui", -1, 1, -1),
        ("minsi", -1, 1, -1),
        ("minui", -1, 1, 1),
        ("andi", 12, 10, 8),
        ("ori", 12, 10, 14),
        ("xori", 12, 10, 6),
    ],
)
def test_integer_semantics(op: str, a: int, b: int, expected: int) -> None:
    assert binop(op, "i32", np.int32(a), np.int32(b)) == expected


def test_division_overflow_and_by_zero_do_not_crash() -> None:
    r = binop("divsi", "i32", np.int32(-(2**31)), np.int32(-1))
    assert type(r) is np.int32
    assert type(binop("divsi", "i32", np.int32(1), np.int32(0))) is np.int32
    assert type(binop("remui", "i64", np.int64(1), np.int64(0))) is np.int64


def test_extended_arithmetic() -> None:
    sig = "%a: i32, %b: i32"
    body = (
        "%s, %o = arith.addui_extended %a, %b : i32, i1\n"
        "%l, %h = arith.mulsi_extended %a, %b : i32\n"
        "%ul, %uh = arith.mului_extended %a, %b : i32\n"
        "return %s, %o, %l, %h, %ul, %uh : i32, i1, i32, i32, i32, i32"
    )
    s, o, lo, hi, ulo, uhi = run1(
        body, sig, "i32, i1, i32, i32, i32, i32", np.int32(-1), np.int32(2)
    )
    assert (s, o) == (1, True)
    assert (lo, hi) == (-2, -1)  # -1 * 2 = -2: low word -2, high word all ones
    assert (ulo, uhi) == (-2, 1)  # (2**32 - 1) * 2 = 2**33 - 2
    assert all(type(v) is np.int32 for v in (s, lo, hi, ulo, uhi)) and type(o) is np.bool_


def test_cmpi_all_predicates() -> None:
    preds = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
    body = "\n".join(f"%{p} = arith.cmpi {p}, %a, %b : i32" for p in preds)
    body += "\nreturn " + ", ".join(f"%{p}" for p in preds) + " : " + ", ".join(["i1"] * 10)
    r = run1(body, "%a: i32, %b: i32", ", ".join(["i1"] * 10), np.int32(-1), np.int32(1))
    assert list(map(bool, r)) == [False, True, True, True, False, False, False, False, True, True]


# ---------------------------------------------------------------------------------------------
# Floats


def test_cmpf_all_predicates_with_nan() -> None:
    preds = [
        "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
        "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
    ]  # fmt: skip
    body = "\n".join(f"%{p} = arith.cmpf {p}, %a, %b : tensor<3xf32>" for p in preds)
    body += "\nreturn " + ", ".join(f"%{p}" for p in preds) + " : "
    body += ", ".join(["tensor<3xi1>"] * 16)
    a = np.array([1.0, 2.0, np.nan], np.float32)
    b = np.array([1.0, 1.0, 1.0], np.float32)
    sig = "%a: tensor<3xf32>, %b: tensor<3xf32>"
    r = dict(zip(preds, run1(body, sig, ", ".join(["tensor<3xi1>"] * 16), a, b)))
    # columns: equal, greater, unordered
    expected = {
        "false": "000", "oeq": "100", "ogt": "010", "oge": "110", "olt": "000", "ole": "100",
        "one": "010", "ord": "110", "ueq": "101", "ugt": "011", "uge": "111", "ult": "001",
        "ule": "101", "une": "011", "uno": "001", "true": "111",
    }  # fmt: skip
    for p in preds:
        assert "".join("1" if v else "0" for v in r[p]) == expected[p], p


def test_float_minmax_nan_and_signed_zero() -> None:
    t = "tensor<3xf32>"
    a = np.array([np.nan, -0.0, 1.0], np.float32)
    b = np.array([1.0, 0.0, 2.0], np.float32)
    mx = binop("maximumf", t, a, b)
    mn = binop("minimumf", t, a, b)
    assert np.isnan(mx[0]) and not np.signbit(mx[1]) and mx[2] == 2.0
    assert np.isnan(mn[0]) and np.signbit(mn[1]) and mn[2] == 1.0
    swapped = binop("maximumf", t, b, a)
    assert not np.signbit(swapped[1]) and np.signbit(binop("minimumf", t, b, a)[1])
    assert binop("maxnumf", t, a, b)[0] == 1.0
    assert binop("minnumf", t, a, b)[0] == 1.0


def test_float_arith_f16_and_remf() -> None:
    r = binop("addf", "f16", np.float16(2048), np.float16(1))
    assert type(r) is np.float16 and r == 2048  # rounds to even at f16 precision
    assert binop("remf", "f32", np.float32(-7.5), np.float32(2)) == -1.5
    assert binop("divf", "f64", 1.0, 0.0) == np.inf  # Python floats convert to f64


def test_casts() -> None:
    body = (
        "%0 = arith.fptosi %f : f32 to i32\n"
        "%1 = arith.fptoui %f2 : f32 to i8\n"
        "%2 = arith.sitofp %i : i32 to f32\n"
        "%3 = arith.uitofp %i : i32 to f32\n"
        "%4 = arith.extsi %i : i32 to i64\n"
        "%5 = arith.extui %i : i32 to i64\n"
        "%6 = arith.trunci %l : i64 to i16\n"
        "%7 = arith.index_cast %i : i32 to index\n"
        "%8 = arith.index_castui %i : i32 to index\n"
        "%9 = arith.extf %f : f32 to f64\n"
        "%10 = arith.truncf %d : f64 to f16\n"
        "%11 = arith.bitcast %f : f32 to i32\n"
        "%12 = arith.extui %t : i1 to i32\n"
        "%13 = arith.extsi %t : i1 to i32\n"
        "return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13 : "
        "i32, i8, f32, f32, i64, i64, i16, index, index, f64, f16, i32, i32, i32"
    )
    sig = "%f: f32, %f2: f32, %i: i32, %l: i64, %d: f64, %t: i1"
    res = "i32, i8, f32, f32, i64, i64, i16, index, index, f64, f16, i32, i32, i32"
    r = run1(body, sig, res, np.float32(-2.75), np.float32(200.9), np.int32(-1),
             np.int64(0x12345678), np.float64(1 / 3), np.True_)  # fmt: skip
    assert r[0] == -2 and type(r[0]) is np.int32
    assert r[1] == np.int8(-56)  # 200 as an unsigned byte
    assert r[2] == -1.0 and r[3] == np.float32(2.0**32)
    assert r[4] == -1 and r[5] == 2**32 - 1
    assert r[6] == 0x5678 and type(r[6]) is np.int16
    assert r[7] == -1 and r[8] == 2**32 - 1 and type(r[8]) is np.int64
    assert r[9] == np.float64(np.float32(-2.75))
    assert r[10] == np.float16(1 / 3)
    assert r[11] == np.float32(-2.75).view(np.int32)
    assert r[12] == 1 and r[13] == -1


def test_constants_select_and_dense() -> None:
    body = (
        "%c = arith.constant 4294967295 : i32\n"
        "%t = arith.constant true\n"
        "%d = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>\n"
        "%s = arith.constant dense<2.0> : tensor<3xf32>\n"
        "%m = arith.mulf %d, %s : tensor<3xf32>\n"
        "%x = arith.select %t, %m, %d : tensor<3xf32>\n"
        "return %c, %x : i32, tensor<3xf32>"
    )
    c, x = run1(body, "", "i32, tensor<3xf32>")
    assert c == -1 and type(c) is np.int32
    assert x.tolist() == [2.0, 4.0, 6.0]


def test_elementwise_select_on_tensors() -> None:
    body = (
        "%0 = arith.cmpf olt, %a, %b : tensor<4xf32>\n"
        "%1 = arith.select %0, %a, %b : tensor<4xi1>, tensor<4xf32>\n"
        "return %1 : tensor<4xf32>"
    )
    a = np.array([1, 5, 3, 0], np.float32)
    b = np.array([2, 4, 3, -1], np.float32)
    (r,) = run1(body, "%a: tensor<4xf32>, %b: tensor<4xf32>", "tensor<4xf32>", a, b)
    assert r.tolist() == np.minimum(a, b).tolist()


# ---------------------------------------------------------------------------------------------
# math


def test_math_functions() -> None:
    x = np.array([0.1, 0.5, 0.9], np.float64)
    names = {
        "exp": np.exp, "log": np.log, "sqrt": np.sqrt, "tanh": np.tanh, "sin": np.sin,
        "erf": np.vectorize(math.erf), "erfc": np.vectorize(math.erfc),
        "rsqrt": lambda v: 1 / np.sqrt(v), "atan": np.arctan, "log1p": np.log1p,
        "cbrt": np.cbrt, "exp2": np.exp2,
    }  # fmt: skip
    t = "tensor<3xf64>"
    for name, fn in names.items():
        (r,) = run1(f"%0 = math.{name} %a : {t}\nreturn %0 : {t}", f"%a: {t}", t, x)
        np.testing.assert_allclose(r, fn(x), rtol=1e-15, err_msg=name)


def test_math_rounding_and_integer_ops() -> None:
    t = "tensor<6xf32>"
    x = np.array([0.5, 1.5, -0.5, -2.5, 2.4999998, 0.49999997], np.float32)
    (rnd,) = run1(f"%0 = math.round %a : {t}\nreturn %0 : {t}", f"%a: {t}", t, x)
    (even,) = run1(f"%0 = math.roundeven %a : {t}\nreturn %0 : {t}", f"%a: {t}", t, x)
    assert rnd.tolist() == [1.0, 2.0, -1.0, -3.0, 2.0, 0.0]
    assert even.tolist() == [0.0, 2.0, -0.0, -2.0, 2.0, 0.0]
    ti = "tensor<3xi32>"
    v = np.array([1, 8, -1], np.int32)
    for name, expected in [("ctlz", [31, 28, 0]), ("cttz", [0, 3, 0]), ("ctpop", [1, 1, 32])]:
        (r,) = run1(f"%0 = math.{name} %a : {ti}\nreturn %0 : {ti}", f"%a: {ti}", ti, v)
        assert r.tolist() == expected, name
    (r,) = run1(f"%0 = math.absi %a : {ti}\nreturn %0 : {ti}", f"%a: {ti}", ti, v)
    assert r.tolist() == [1, 8, 1]
    (r,) = run1(
        f"%0 = math.ipowi %a, %b : {ti}\nreturn %0 : {ti}",
        f"%a: {ti}, %b: {ti}",
        ti,
        np.array([3, 2, -1], np.int32),
        np.array([4, 31, 3], np.int32),
    )
    assert r.tolist() == [81, -(2**31), -1]


def test_fma_rounds_once() -> None:
    # a*b + c where a*b is not representable: a two-rounding evaluation gives 0.
    a = np.float64(1 + 2**-30)
    c = -np.float64(1 + 2**-29)
    body = "%0 = math.fma %a, %a, %c : f64\nreturn %0 : f64"
    (r,) = run1(body, "%a: f64, %c: f64", "f64", a, c)
    assert r == 2.0**-60


# ---------------------------------------------------------------------------------------------
# func and the calling convention

MODULE = """
func.func @square_plus(%n: i64, %k: i64) -> i64 {
  %sq = arith.muli %n, %n : i64
  %r = arith.addi %sq, %k : i64
  return %r : i64
}
func.func @twice(%n: i64) -> i64 {
  %a = func.call @square_plus(%n, %n) : (i64, i64) -> i64
  %b = func.call @square_plus(%a, %n) : (i64, i64) -> i64
  return %b : i64
}
func.func @main(%x: tensor<?x4xf32>, %w: tensor<4xf32>) -> (tensor<?x4xf32>, i64) {
  %0 = func.call @scale(%x, %w) : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %c5 = arith.constant 5 : i64
  %f = func.call @twice(%c5) : (i64) -> i64
  return %0, %f : tensor<?x4xf32>, i64
}
func.func @scale(%x: tensor<?x4xf32>, %w: tensor<4xf32>) -> tensor<?x4xf32> {
  %0 = graph.mul %x, %w : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
"""


def test_func_calls() -> None:
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    w = np.array([1, 2, 3, 4], np.float32)
    y, f = run(MODULE, "main", x, w)
    assert (y == x * w).all() and f == 30 * 30 + 5
    x_before = x.copy()
    run(MODULE, "main", x, w)
    assert (x == x_before).all()


def test_unbounded_recursion_is_an_interpreter_error() -> None:
    text = (
        "func.func @f(%n: i64) -> i64 {\n"
        "  %r = func.call @f(%n) : (i64) -> i64\n  return %r : i64\n}"
    )
    with pytest.raises(InterpreterError, match="call depth above 200 .* calling @f"):
        run(text, "f", 1)


def test_results_do_not_alias_inputs() -> None:
    text = "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> { return %a : tensor<2xf32> }"
    a = np.ones(2, np.float32)
    (r,) = run(text, "main", a)
    r[0] = 5.0
    assert a[0] == 1.0


@pytest.mark.parametrize(
    "args,exc,message",
    [
        ((np.ones((3, 5), np.float32), np.ones(4, np.float32)), ValueError,
         r"argument 0 \(%arg0\): expected shape \(\?, 4\) \(tensor<\?x4xf32>\), got \(3, 5\)"),
        ((np.ones((3, 4), np.float64), np.ones(4, np.float32)), TypeError,
         r"argument 0 \(%arg0\): expected dtype float32 \(tensor<\?x4xf32>\), got float64"),
        ((np.ones((3, 4), np.float32), np.ones((1, 4), np.float32)), ValueError,
         r"argument 1 \(%arg1\): expected rank 1 \(tensor<4xf32>\), got rank 2"),
        ((np.ones((3, 4), np.float32),), TypeError, r"@main takes 2 arguments, got 1"),
        ((np.ones((3, 4), np.float32), [1.0, 2.0, 3.0, 4.0]), TypeError,
         r"argument 1 \(%arg1\): expected a NumPy array"),
    ],
)  # fmt: skip
def test_argument_checks_name_the_argument(args, exc, message) -> None:
    with pytest.raises(exc, match=message):
        run(MODULE, "main", *args)


def test_scalar_arguments() -> None:
    text = "func.func @main(%a: i8, %b: f32) -> (i8, f32) { return %a, %b : i8, f32 }"
    a, b = run(text, "main", 5, 1.5)
    assert type(a) is np.int8 and type(b) is np.float32
    with pytest.raises(ValueError, match=r"argument 0 \(%arg0\): 300 does not fit in i8"):
        run(text, "main", 300, 1.5)
    with pytest.raises(TypeError, match=r"argument 1 \(%arg1\): expected dtype float32"):
        run(text, "main", 5, np.float64(1.5))


def test_run_rejects_a_non_module() -> None:
    func = mlc.parse(MODULE).body.blocks[0].first
    with pytest.raises(TypeError, match="expected a builtin.module op or IR text"):
        run(func, "main")


def test_unsupported_op_is_located() -> None:
    text = (
        "func.func @main(%a: f32) -> f32 {\n"
        '  %0 = "test.unknown"(%a) : (f32) -> f32\n'
        "  return %0 : f32\n}"
    )
    module = mlc.parse(text, allow_unregistered=True, filename="m.mlir")
    with pytest.raises(InterpreterError, match=r"not supported: test.unknown \(at m.mlir:2:8\)"):
        run(module, "main", np.float32(1))


def test_external_function_and_missing_function() -> None:
    text = (
        "func.func private @ext(f32) -> f32\n"
        "func.func @main(%a: f32) -> f32 {\n"
        "  %0 = func.call @ext(%a) : (f32) -> f32\n  return %0 : f32\n}"
    )
    with pytest.raises(InterpreterError, match="not supported: func.func call to the external"):
        run(text, "main", np.float32(1))
    with pytest.raises(InterpreterError, match="no function named @nope"):
        run(text, "nope")


def test_extension_by_subclass_and_register() -> None:
    text = (
        "func.func @main(%a: f32) -> f32 {\n"
        '  %0 = "my.twice"(%a) : (f32) -> f32\n'
        '  %1 = "my.square"(%0) : (f32) -> f32\n'
        "  return %1 : f32\n}"
    )
    module = mlc.parse(text, allow_unregistered=True)

    class MyInterpreter(Interpreter):
        @handles("my.square")
        def _square(self, op, x):
            return x * x

    MyInterpreter.register("my.twice", lambda interp, op, x: x + x)
    (r,) = MyInterpreter(module).run_function("main", [np.float32(3)])
    assert r == 36.0 and type(r) is np.float32
    assert "my.twice" not in Interpreter.handled_ops()
    with pytest.raises(InterpreterError, match="not supported: my.twice"):
        run(module, "main", np.float32(3))


def test_wrong_handler_result_is_reported_against_the_op() -> None:
    class Broken(Interpreter):
        @handles("arith.addf")
        def _addf(self, op, a, b):
            return np.float64(a) + b

    module = mlc.parse("func.func @main(%a: f32) -> f32 {\n"
                       "  %0 = arith.addf %a, %a : f32\n  return %0 : f32\n}")  # fmt: skip
    with pytest.raises(InterpreterError, match=r"'arith.addf' .*result 0 is a float64 scalar"):
        Broken(module).run_function("main", [np.float32(1)])


def test_docs_examples_run() -> None:
    import pathlib
    import re

    doc = pathlib.Path(__file__).resolve().parents[2] / "docs" / "interp.md"
    blocks = re.findall(r"```python\n(.*?)```", doc.read_text(), re.S)
    assert len(blocks) >= 3
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(doc), "exec"), namespace)


def test_every_op_of_the_covered_dialects_has_a_handler() -> None:
    import importlib

    handled = Interpreter.handled_ops()
    structural = {"func.func", "func.return", "graph.yield", "tensor.yield"}
    for dialect in ("func", "arith", "math", "graph", "tensor"):
        ops = set(importlib.import_module(f"mlc.dialects.{dialect}").DIALECT.ops)
        assert ops - handled - structural == set(), dialect


def test_module_docstring_examples() -> None:
    import doctest

    import mlc.interp.core
    import mlc.interp.interpreter

    for module in (mlc.interp, mlc.interp.interpreter, mlc.interp.core):
        failed, attempted = doctest.testmod(module, verbose=False)
        assert attempted and not failed, module.__name__


def test_call_indirect_through_func_constant() -> None:
    text = """
    func.func @double(%x: f32) -> f32 {
      %0 = arith.addf %x, %x : f32
      return %0 : f32
    }
    func.func @main(%x: f32) -> f32 {
      %f = func.constant @double : (f32) -> f32
      %0 = func.call_indirect %f(%x) : (f32) -> f32
      return %0 : f32
    }"""
    (r,) = run(text, "main", np.float32(1.25))
    assert r == 2.5 and type(r) is np.float32


def test_unsupported_element_type_is_located() -> None:
    text = "func.func @main() -> bf16 {\n  %0 = arith.constant 1.0 : bf16\n  return %0 : bf16\n}"
    with pytest.raises(
        InterpreterError, match=r"'arith.constant' \(at .*:2:.*not supported: element type bf16"
    ):
        run(text, "main")
    with pytest.raises(TypeError, match=r"argument 0 \(%arg0\): not supported: element type bf16"):
        run("func.func @main(%a: bf16) -> bf16 { return %a : bf16 }", "main", 1.0)


@pytest.mark.parametrize(
    "mode,expected",
    [
        ("to_nearest_even", [1.0, -1.0, 1.0, 1 + 2**-23]),
        ("to_nearest_away", [1 + 2**-23, -(1 + 2**-23), 1.0, 1 + 2**-23]),
        ("downward", [1.0, -(1 + 2**-23), 1.0, 1.0]),
        ("upward", [1 + 2**-23, -1.0, 1 + 2**-23, 1 + 2**-23]),
        ("toward_zero", [1.0, -1.0, 1.0, 1.0]),
    ],
)
def test_truncf_rounding_modes(mode: str, expected: list[float]) -> None:
    # 1 + 2**-24 is halfway between two f32 values; 1 + 2**-25 is below half; the last is above.
    x = np.array([1 + 2**-24, -(1 + 2**-24), 1 + 2**-25, 1 + 2**-24 + 2**-40], np.float64)
    t, r = "tensor<4xf64>", "tensor<4xf32>"
    spelled = "" if mode == "to_nearest_even" else f" {mode}"
    body = f"%0 = arith.truncf %a{spelled} : {t} to {r}\nreturn %0 : {r}"
    (out,) = run1(body, f"%a: {t}", r, x)
    assert out.dtype == np.float32 and out.tolist() == expected
