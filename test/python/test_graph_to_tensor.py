"""convert-graph-to-tensor: every graph op, run by the reference interpreter before and after the
conversion on the same random inputs, must give the same values.

Tolerances: integers and i1 are exact. Floats differ only by evaluation order and precision: the
reference accumulates sums, matmul, conv, mean and softmax in float64 and evaluates sigmoid/gelu
in float64 before rounding once, while the lowered code computes in the element type. f32 uses
rtol 2e-5 (elementwise) / 1e-4 (accumulations), f64 1e-12 / 1e-10, f16 2e-3 / 1e-2, with an
absolute term for values near zero.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mlc
from mlc.interp import run
from mlc.pass_manager import PassError

PIPELINE = "builtin.module(convert-graph-to-tensor)"
RNG = np.random.default_rng(1234)

ET = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i1": np.bool_,
      "i32": np.int32, "i64": np.int64}  # fmt: skip
FLOAT_TOL = {"f16": (2e-3, 1e-3), "f32": (2e-5, 1e-6), "f64": (1e-12, 1e-14)}
ACC_TOL = {"f16": (1e-2, 1e-2), "f32": (1e-4, 1e-5), "f64": (1e-10, 1e-12)}


def ttype(shape: tuple[int | None, ...], et: str = "f32") -> str:
    dims = "".join(("?" if d is None else str(d)) + "x" for d in shape)
    return f"tensor<{dims}{et}>"


def rand(shape: tuple[int, ...], et: str, kind: str = "any") -> np.ndarray:
    """Random values; kind "pos" (> 0.1, for log/sqrt/pow), "nonzero" (int divisors)."""
    dt = ET[et]
    if et == "i1":
        return np.asarray(RNG.random(shape) < 0.5)
    if et.startswith("i"):
        x = np.asarray(RNG.integers(-40, 40, size=shape), dt)
        if kind == "nonzero":
            x[x == 0] = 7
        if kind == "pos":
            x = np.abs(x) + 1
        return x
    x = np.asarray(RNG.standard_normal(shape) * 2)
    if kind == "pos":
        x = np.abs(x) + 0.1
    return np.asarray(x, dt)


def lower(text: str) -> mlc.ir.core.Operation:
    module = mlc.parse(text)
    mlc.run_pipeline(module, PIPELINE)
    mlc.verify(module)
    names = {op.name for op in module.walk()}
    assert not any(n.startswith("graph.") for n in names), names
    return module


Case = tuple[str, list[np.ndarray], "tuple[float, float] | None"]


def check(text: str, inputs: list[np.ndarray], tol: tuple[float, float] | None = None) -> str:
    """Run @main before and after the conversion and compare; returns the lowered text."""
    return check_all([(text, inputs, tol)])


def check_all(cases: list[Case]) -> str:
    """Each case's @main becomes @c<i> of one module, converted once; every function runs
    before and after the conversion and the results are compared. Returns the lowered text."""
    text = "\n".join(t.replace("@main(", f"@c{i}(") for i, (t, _, _) in enumerate(cases))
    reference = mlc.parse(text)
    module = lower(text)
    for i, (case, inputs, tol) in enumerate(cases):
        expected = run(reference, f"c{i}", *inputs, verify=False)
        got = run(module, f"c{i}", *inputs, verify=False)
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert (g.dtype, g.shape) == (e.dtype, e.shape), case
            if e.dtype.kind in "biu":
                np.testing.assert_array_equal(g, e, err_msg=case)
            else:
                rtol, atol = tol or FLOAT_TOL[str(e.dtype).replace("float", "f")]
                np.testing.assert_allclose(g, e, rtol=rtol, atol=atol, equal_nan=True, err_msg=case)
    return str(module)


def single(
    op: str, args: list[tuple[tuple[int | None, ...], str]], result: str, attrs: str = ""
) -> str:
    """@main applying one graph op (custom form `op %a0, ... attrs : functional type`)."""
    params = ", ".join(f"%a{i}: {ttype(s, et)}" for i, (s, et) in enumerate(args))
    names = ", ".join(f"%a{i}" for i in range(len(args)))
    types = ", ".join(ttype(s, et) for s, et in args)
    return (
        f"func.func @main({params}) -> {result} {{\n"
        f"  %0 = graph.{op} {names}{attrs} : ({types}) -> {result}\n"
        f"  return %0 : {result}\n}}"
    )


def concrete(shape: tuple[int | None, ...], sizes: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(s if d is None else d for d, s in zip(shape, sizes))


# ---------------------------------------------------------------------------------------------
# Elementwise

BROADCAST_SHAPES = [
    # (lhs type shape, rhs type shape, lhs runtime, rhs runtime, result type shape)
    ((4, 5), (4, 5), (4, 5), (4, 5), (4, 5)),
    ((4, 1), (5,), (4, 1), (5,), (4, 5)),
    ((1, 3), (2, 1), (1, 3), (2, 1), (2, 3)),
    ((), (3,), (), (3,), (3,)),
    ((2, 3, 4), (), (2, 3, 4), (), (2, 3, 4)),
    ((None, 5), (5,), (3, 5), (5,), (None, 5)),
    ((None, 1), (1, None), (3, 1), (1, 4), (None, None)),
    ((None,), (None,), (6,), (6,), (None,)),
    ((4, None), (1, 7), (4, 7), (1, 7), (4, 7)),
]

BINARY_TYPES = {
    "add": ["f32", "f64", "i32", "i64", "f16"],
    "sub": ["f32", "i32"],
    "mul": ["f64", "i64"],
    "div": ["f32", "i32", "i64"],
    "max": ["f32", "i32", "i1"],
    "min": ["f64", "i64", "i1"],
    "pow": ["f32", "f64"],
}


@pytest.mark.parametrize(
    "op,et", [(op, et) for op, ets in BINARY_TYPES.items() for et in ets], ids=str
)
def test_binary(op: str, et: str) -> None:
    cases: list[Case] = []
    for ls, rs, lv, rv, out in BROADCAST_SHAPES:
        text = single(op, [(ls, et), (rs, et)], ttype(out, et))
        a = rand(lv, et, "pos" if op == "pow" else "any")
        b = rand(rv, et, "nonzero" if op == "div" else "any")
        if et.startswith("f") and op in ("max", "min") and a.size:
            a.flat[0] = np.nan  # NaN propagates
        cases.append((text, [a, b], None))
    check_all(cases)


@pytest.mark.parametrize("et", ["f32", "i32", "i1"])
def test_cmp(et: str) -> None:
    cases: list[Case] = []
    for pred in ("eq", "ne", "lt", "le", "gt", "ge"):
        text = single("cmp", [((4, 1), et), ((3,), et)], ttype((4, 3), "i1"))
        text = text.replace("graph.cmp %a0", f'graph.cmp "{pred}", %a0')
        a, b = rand((4, 1), et), rand((3,), et)
        if et == "f32":
            a[0, 0], b[1] = np.nan, a[1, 0]  # unordered and equal cases
        elif et == "i32":
            b[1] = a[1, 0]
        cases.append((text, [a, b], None))
    check_all(cases)


@pytest.mark.parametrize("et", ["f32", "i64", "i1"])
def test_select(et: str) -> None:
    text = single("select", [((None, 1), "i1"), ((1, 4), et), ((), et)], ttype((None, 4), et))
    check(text, [rand((3, 1), "i1"), rand((1, 4), et), rand((), et)])


UNARY_TYPES = {
    "neg": ["f32", "i32", "i64"], "abs": ["f64", "i32"], "exp": ["f32", "f16"],
    "log": ["f32", "f64"], "sqrt": ["f32"], "rsqrt": ["f32", "f64"], "tanh": ["f32"],
    "sigmoid": ["f32", "f64", "f16"], "relu": ["f32", "i32", "i64"], "erf": ["f32", "f64"],
    "gelu": ["f32", "f64"],
}  # fmt: skip


@pytest.mark.parametrize("op", sorted(UNARY_TYPES))
def test_unary(op: str) -> None:
    cases: list[Case] = []
    for et in UNARY_TYPES[op]:
        for shape, runtime in [((2, 3), (2, 3)), ((None, 4), (3, 4)), ((), ())]:
            if op in ("erf", "gelu") and not shape:
                continue  # test_unary_rank0_erf: interpreter bug
            t = ttype(shape, et)
            text = (
                f"func.func @main(%a0: {t}) -> {t} {{\n"
                f"  %0 = graph.{op} %a0 : {t}\n  return %0 : {t}\n}}"
            )
            x = rand(runtime, et, "pos" if op in ("log", "sqrt", "rsqrt") else "any")
            cases.append((text, [x], None))
    check_all(cases)


def test_unary_rank0_erf() -> None:
    t = ttype((), "f32")
    text = f"func.func @main(%a0: {t}) -> {t} {{\n  %0 = graph.erf %a0 : {t}\n  return %0 : {t}\n}}"
    check(text, [rand((), "f32")])


CAST_TYPES = ["f16", "f32", "f64", "i1", "i32", "i64"]


@pytest.mark.parametrize("src", CAST_TYPES)
def test_cast(src: str) -> None:
    cases: list[Case] = []
    for dst in CAST_TYPES:
        st_, dt = ttype((None, 3), src), ttype((None, 3), dst)
        text = (
            f"func.func @main(%a0: {st_}) -> {dt} {{\n"
            f"  %0 = graph.cast %a0 : {st_} to {dt}\n  return %0 : {dt}\n}}"
        )
        x = rand((4, 3), src)
        if src.startswith("f"):
            x = (x * 20).astype(ET[src])  # in range of every integer type
            x.flat[0] = 0.0
            if dst == "i1":
                x.flat[1] = np.nan  # NaN != 0
        cases.append((text, [x], FLOAT_TOL.get(dst)))
    check_all(cases)


# ---------------------------------------------------------------------------------------------
# Matmul

MATMUL = [
    ((4, 8), (8, 5), (4, 8), (8, 5), (4, 5)),
    ((2, 3, 4), (4, 6), (2, 3, 4), (4, 6), (2, 3, 6)),
    ((1, 3, 4), (2, 4, 5), (1, 3, 4), (2, 4, 5), (2, 3, 5)),
    ((2, 1, 3, 4), (5, 4, 2), (2, 1, 3, 4), (5, 4, 2), (2, 5, 3, 2)),
    ((None, None), (None, 5), (3, 7), (7, 5), (None, 5)),
    ((None, 2, 3), (3, None), (4, 2, 3), (3, 6), (None, 2, None)),
]


@pytest.mark.parametrize("et", ["f32", "f64", "i32"])
def test_matmul(et: str) -> None:
    cases: list[Case] = []
    for ls, rs, lv, rv, out in MATMUL:
        text = single("matmul", [(ls, et), (rs, et)], ttype(out, et))
        cases.append((text, [rand(lv, et), rand(rv, et)], ACC_TOL.get(et)))
    check_all(cases)


# ---------------------------------------------------------------------------------------------
# Layout ops


def i64s(values: tuple[int, ...]) -> str:
    return f"array<i64{': ' if values else ''}{', '.join(map(str, values))}>"


def test_transpose() -> None:
    cases: list[Case] = []
    for shape, runtime, perm in [
        ((2, 3, 4), (2, 3, 4), (2, 0, 1)), ((None, 3), (5, 3), (1, 0)), ((4,), (4,), (0,)),
        ((None, 2, None), (3, 2, 4), (1, 2, 0)),
    ]:  # fmt: skip
        out = tuple(shape[p] for p in perm)
        text = single("transpose", [(shape, "i32")], ttype(out, "i32"), f" {{perm = {i64s(perm)}}}")
        cases.append((text, [rand(runtime, "i32")], None))
    check_all(cases)


RESHAPES = [
    # (operand type shape, runtime shape, shape attr, result type shape)
    ((2, 3, 4), (2, 3, 4), (6, 4), (6, 4)),  # collapse
    ((24,), (24,), (2, 3, 4), (2, 3, 4)),  # expand
    ((2, 3, 4), (2, 3, 4), (4, 6), (4, 6)),  # general
    ((2, 3, 4), (2, 3, 4), (4, -1), (4, 6)),
    ((6, 4), (6, 4), (2, 1, 3, 4, 1), (2, 1, 3, 4, 1)),  # expand with unit dims
    ((1, 1), (1, 1), (), ()),  # to rank 0
    ((), (), (1, 1, 1), (1, 1, 1)),  # from rank 0
    ((None, 4), (3, 4), (-1,), (None,)),  # dynamic collapse
    ((None,), (12,), (-1, 4), (None, 4)),  # dynamic expand
    ((None, 6), (2, 6), (-1, 4), (None, 4)),  # dynamic general
    ((2, None, 3), (2, 5, 3), (2, -1), (2, None)),
    ((2, 3, 4), (2, 3, 4), (4, -1), (4, None)),  # result type less static
    ((0, 3), (0, 3), (3, 0), (3, 0)),  # empty
    ((None, None), (4, 6), (2, -1, 4), (2, None, 4)),  # dynamic, through 1-D
]


def test_reshape() -> None:
    cases: list[Case] = []
    for shape, runtime, target, out in RESHAPES:
        text = single("reshape", [(shape, "f32")], ttype(out), f" {{shape = {i64s(target)}}}")
        cases.append((text, [rand(runtime, "f32")], None))
    check_all(cases)


def test_reshape_kinds() -> None:
    """Pure collapses and expansions are one op; other reshapes go through 1-D."""
    x = [rand((2, 3, 4), "f32")]
    text = single("reshape", [((2, 3, 4), "f32")], ttype((6, 4)), " {shape = array<i64: 6, 4>}")
    out = check(text, x)
    assert "tensor.collapse_shape %arg0 [[0, 1], [2]]" in out and "expand_shape" not in out
    text = single("reshape", [((2, 3, 4), "f32")], ttype((4, 6)), " {shape = array<i64: 4, 6>}")
    out = check(text, x)
    assert "[[0, 1, 2]]" in out and "tensor<24xf32> into tensor<4x6xf32>" in out


def test_broadcast_to() -> None:
    cases: list[Case] = []
    for shape, runtime, target in [
        ((3,), (3,), (4, 3)), ((2, 1), (2, 1), (3, 2, 5)), ((), (), (2, 2)),
        ((None, 1), (4, 1), (4, 6)), ((1, 3), (1, 3), (1, 3)),
    ]:  # fmt: skip
        text = single("broadcast_to", [(shape, "i64")], ttype(target, "i64"),
                      f" {{shape = {i64s(target)}}}")  # fmt: skip
        cases.append((text, [rand(runtime, "i64")], None))
    check_all(cases)


CONCATS = [
    ([(2, 3), (4, 3)], [(2, 3), (4, 3)], 0, (6, 3)),
    ([(2, 3), (2, 1), (2, 2)], [(2, 3), (2, 1), (2, 2)], 1, (2, 6)),
    ([(None, 3), (2, 3)], [(5, 3), (2, 3)], 0, (None, 3)),
    ([(None, 2), (None, None)], [(3, 2), (3, 4)], 1, (None, None)),
    ([(2, 0), (2, 3)], [(2, 0), (2, 3)], 1, (2, 3)),
    ([(3,)], [(3,)], 0, (3,)),
]


def test_concat() -> None:
    cases: list[Case] = []
    for shapes, runtimes, axis, out in CONCATS:
        text = single("concat", [(s, "f32") for s in shapes], ttype(out),
                      f" {{axis = {axis} : i64}}")  # fmt: skip
        cases.append((text, [rand(r, "f32") for r in runtimes], None))
    check_all(cases)


def test_slice() -> None:
    cases: list[Case] = []
    for shape, runtime, starts, limits, strides in [
        ((6, 8), (6, 8), (1, 2), (5, 8), (2, 3)),
        ((None, 5), (7, 5), (0, 1), (6, 5), (3, 1)),
        ((4,), (4,), (2,), (2,), (1,)),
    ]:
        out = tuple(-(-(lim - s) // st) for s, lim, st in zip(starts, limits, strides))
        attrs = f" {{limits = {i64s(limits)}, starts = {i64s(starts)}, strides = {i64s(strides)}}}"
        cases.append((single("slice", [(shape, "f32")], ttype(out), attrs),
                      [rand(runtime, "f32")], None))  # fmt: skip
    check_all(cases)


# ---------------------------------------------------------------------------------------------
# Reductions and softmax

REDUCTIONS = [
    # (type shape, runtime, axes)
    ((3, 4, 5), (3, 4, 5), (1,)),
    ((3, 4, 5), (3, 4, 5), (0, 2)),
    ((3, 4, 5), (3, 4, 5), (0, 1, 2)),
    ((3, 4), (3, 4), ()),
    ((None, 4, None), (2, 4, 3), (0, 2)),
    ((None, 4), (5, 4), (1,)),
    ((2, 3, 4, 5), (2, 3, 4, 5), (1, 3)),
]


def reduce_out(shape: tuple, axes: tuple, keep: bool) -> tuple:
    if keep:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


@pytest.mark.parametrize(
    "op,et",
    [("reduce_sum", "f32"), ("reduce_sum", "i32"), ("reduce_max", "f64"), ("reduce_max", "i64"),
     ("reduce_min", "f32"), ("reduce_min", "i1"), ("reduce_max", "i1"), ("reduce_mean", "f32"),
     ("reduce_mean", "f64"), ("reduce_sum", "f16")],
)  # fmt: skip
def test_reduce(op: str, et: str) -> None:
    cases: list[Case] = []
    for shape, runtime, axes in REDUCTIONS:
        for keep in (False, True):
            kd = ", keepdims = true" if keep else ""
            attrs = f" {{axes = {i64s(axes)}{kd}}}"
            text = single(op, [(shape, et)], ttype(reduce_out(shape, axes, keep), et), attrs)
            cases.append((text, [rand(runtime, et)], ACC_TOL.get(et)))
    check_all(cases)


def test_reduce_edge_values() -> None:
    """NaN propagates through max; the mean of an empty dim is NaN (0 / 0)."""
    x = rand((2, 3), "f32")
    x[1, 1] = np.nan
    check_all([
        (single("reduce_max", [((2, 3), "f32")], ttype((2,)), " {axes = array<i64: 1>}"),
         [x], None),
        (single("reduce_mean", [((None, 3), "f32")], ttype((3,)), " {axes = array<i64: 0>}"),
         [np.zeros((0, 3), np.float32)], None),
    ])  # fmt: skip


@pytest.mark.parametrize("et", ["f32", "f64"])
def test_softmax(et: str) -> None:
    cases: list[Case] = []
    for shape, runtime, axis in [
        ((2, 10), (2, 10), 1),
        ((3, 4, 5), (3, 4, 5), 0),
        ((None, 7), (3, 7), 1),
        ((5,), (5,), 0),
        ((3, None), (3, 6), 1),
    ]:
        text = single("softmax", [(shape, et)], ttype(shape, et), f" {{axis = {axis} : i64}}")
        x = rand(runtime, et) * 30  # large values: only the stable form stays finite
        cases.append((text, [x.astype(ET[et])], ACC_TOL[et]))
    check_all(cases)


# ---------------------------------------------------------------------------------------------
# Convolution and pooling


def window_out(size: int | None, pad: int, k: int | None, dil: int, stride: int) -> int | None:
    if size is None or k is None:
        return None
    return (size + pad - dil * (k - 1) - 1) // stride + 1


CONVS = [
    # (x type, w type, x runtime, w runtime, strides, pads, dilations, groups, bias)
    ((1, 3, 8, 8), (4, 3, 3, 3), None, None, (1, 1), (0, 0, 0, 0), (1, 1), 1, False),
    ((2, 3, 9, 7), (4, 3, 3, 2), None, None, (2, 1), (1, 0, 2, 1), (1, 2), 1, True),
    ((1, 4, 6, 6), (6, 2, 3, 3), None, None, (1, 1), (1, 1, 1, 1), (1, 1), 2, True),
    ((2, 6, 7, 7), (6, 1, 3, 3), None, None, (2, 2), (0, 0, 0, 0), (2, 2), 6, False),
    ((None, 3, None, None), (4, 3, 3, 3), (2, 3, 7, 9), None,
     (1, 1), (1, 2, 1, 0), (1, 1), 1, True),
    ((1, 2, 5, 5), (None, 2, None, None), None, (3, 2, 2, 3),
     (2, 1), (0, 0, 0, 0), (1, 1), 1, False),
    ((1, 4, 6, 5), (4, 2, 2, 2), None, None, (1, 2), (1, 1, 0, 0), (2, 1), 2, False),
]  # fmt: skip


def test_conv2d() -> None:
    cases: list[Case] = []
    for xs, ws, xr, wr, strides, pads, dils, groups, bias in CONVS:
        out = (
            xs[0], ws[0],
            window_out(xs[2], pads[0] + pads[2], ws[2], dils[0], strides[0]),
            window_out(xs[3], pads[1] + pads[3], ws[3], dils[1], strides[1]),
        )  # fmt: skip
        attrs = (
            f" {{strides = {i64s(strides)}, pads = {i64s(pads)}, dilations = {i64s(dils)}, "
            f"groups = {groups} : i64}}"
        )
        args = [(xs, "f32"), (ws, "f32")] + ([((ws[0],), "f32")] if bias else [])
        inputs = [rand(xr or xs, "f32"), rand(wr or ws, "f32")]
        if bias:
            inputs.append(rand((ws[0],), "f32"))
        cases.append((single("conv2d", args, ttype(out), attrs), inputs, ACC_TOL["f32"]))
    check_all(cases)


POOLS = [
    # (type shape, runtime shape, kernel, strides, pads)
    ((1, 2, 8, 8), (1, 2, 8, 8), (2, 2), (2, 2), (0, 0, 0, 0)),
    ((2, 3, 7, 6), (2, 3, 7, 6), (3, 2), (2, 1), (1, 0, 2, 1)),
    ((1, 1, 5, 5), (1, 1, 5, 5), (3, 3), (1, 1), (1, 1, 1, 1)),
    ((None, 2, None, None), (2, 2, 6, 5), (3, 3), (1, 2), (2, 1, 0, 2)),
]


@pytest.mark.parametrize("op", ["max_pool2d", "avg_pool2d"])
@pytest.mark.parametrize("et", ["f32", "f64"])
def test_pool2d(op: str, et: str) -> None:
    cases: list[Case] = []
    for shape, runtime, kernel, strides, pads in POOLS:
        out = (
            shape[0], shape[1],
            window_out(shape[2], pads[0] + pads[2], kernel[0], 1, strides[0]),
            window_out(shape[3], pads[1] + pads[3], kernel[1], 1, strides[1]),
        )  # fmt: skip
        attrs = f" {{kernel = {i64s(kernel)}, strides = {i64s(strides)}, pads = {i64s(pads)}}}"
        text = single(op, [(shape, et)], ttype(out, et), attrs)
        cases.append((text, [rand(runtime, et)], ACC_TOL[et]))
    check_all(cases)


# ---------------------------------------------------------------------------------------------
# Constants, fused regions, whole programs


def test_constant_becomes_arith_constant() -> None:
    text = """
func.func @main(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %c = graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %0 = graph.add %x, %c : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}"""
    out = check(text, [rand((2, 2), "f32")])
    assert (
        "arith.constant dense<[[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]>" in out
    )


FUSED = """
func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>, %c: tensor<3xf32>)
    -> (tensor<4x3xf32>, tensor<4xf32>) {
  %0:2 = graph.fused ins(%a, %b, %c : tensor<4x8xf32>, tensor<8x3xf32>, tensor<3xf32>)
      -> (tensor<4x3xf32>, tensor<4xf32>) {
  ^bb0(%x: tensor<4x8xf32>, %y: tensor<8x3xf32>, %z: tensor<3xf32>):
    %m = graph.matmul %x, %y : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
    %s = graph.add %m, %z : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
    %r = graph.gelu %s : tensor<4x3xf32>
    %t = graph.reduce_mean %r {axes = array<i64: 1>} : (tensor<4x3xf32>) -> tensor<4xf32>
    graph.yield %r, %t : tensor<4x3xf32>, tensor<4xf32>
  }
  return %0#0, %0#1 : tensor<4x3xf32>, tensor<4xf32>
}
"""


def test_fused_is_inlined() -> None:
    out = check(
        FUSED, [rand((4, 8), "f32"), rand((8, 3), "f32"), rand((3,), "f32")], ACC_TOL["f32"]
    )
    assert out.count("tensor.generic") >= 5 and "graph." not in out


def test_fused_passthrough_and_nested_calls() -> None:
    text = """
func.func @id(%x: tensor<3xi32>) -> tensor<3xi32> {
  %0 = graph.fused ins(%x : tensor<3xi32>) -> tensor<3xi32> {
  ^bb0(%y: tensor<3xi32>):
    graph.yield %y : tensor<3xi32>
  }
  return %0 : tensor<3xi32>
}
func.func @main(%x: tensor<3xi32>) -> tensor<3xi32> {
  %0 = func.call @id(%x) : (tensor<3xi32>) -> tensor<3xi32>
  %1 = graph.neg %0 : tensor<3xi32>
  return %1 : tensor<3xi32>
}"""
    check(text, [rand((3,), "i32")])


def test_int_min_wraps() -> None:
    t = ttype((3,), "i32")
    text = f"""
func.func @main(%x: {t}) -> ({t}, {t}) {{
  %0 = graph.neg %x : {t}
  %1 = graph.abs %x : {t}
  return %0, %1 : {t}, {t}
}}"""
    check(text, [np.array([-(2**31), 5, -7], np.int32)])


def test_unranked_results_use_inferred_types() -> None:
    """An unranked result with ranked operands is lowered at the inferred type and cast; a later
    op reads through that cast to the ranked value."""
    text = """
func.func @main(%a: tensor<4x1xf32>, %b: tensor<5xf32>) -> tensor<*xi32> {
  %0 = graph.add %a, %b : (tensor<4x1xf32>, tensor<5xf32>) -> tensor<*xf32>
  %1 = graph.cast %0 : tensor<*xf32> to tensor<*xi32>
  return %1 : tensor<*xi32>
}"""
    out = check(text, [rand((4, 1), "f32"), rand((5,), "f32")])
    assert re.search(r"tensor.cast %\w+ : tensor<4x5xi32> to tensor<\*xi32>", out)
    assert "tensor<*xf32>" not in out.split("tensor.generic")[2]  # the cast reads the ranked add


EXAMPLES = sorted(
    p.name
    for p in (Path(__file__).parents[2] / "examples").glob("*.mlir")
    if "graph." in p.read_text()
)


@pytest.mark.parametrize("name", EXAMPLES)
def test_examples(name: str) -> None:
    """The example programs: every function, dynamic dims bound to 3, random inputs."""
    text = (Path(__file__).parents[2] / "examples" / name).read_text()
    reference = mlc.parse(text)
    module = lower(text)
    for func in reference.regions[0].blocks[0]:
        if func.name != "func.func":
            continue
        inputs = [
            rand(tuple(3 if d == -1 else d for d in t.shape), str(t.element_type))
            for t in func.function_type.value.inputs
        ]
        fname = func.sym_name.value
        expected = run(reference, fname, *inputs, verify=False)
        got = run(module, fname, *inputs, verify=False)
        for g, e in zip(got, expected):
            np.testing.assert_allclose(g, e, rtol=1e-4, atol=1e-4, err_msg=f"{name} @{fname}")


# ---------------------------------------------------------------------------------------------
# Failures: a located "failed to legalize" with a note saying what is not supported


def failure(text: str) -> list:
    module = mlc.parse(text)
    with pytest.raises(PassError) as info:
        mlc.run_pipeline(module, PIPELINE)
    return info.value.diagnostics


def test_unranked_operand_fails_to_legalize() -> None:
    diags = failure("""
func.func @main(%x: tensor<*xf32>) -> tensor<*xf32> {
  %0 = graph.exp %x : tensor<*xf32>
  return %0 : tensor<*xf32>
}""")
    errors = [d for d in diags if d.severity == "error"]
    assert errors[0].message == "failed to legalize operation 'graph.exp'"
    assert errors[0].file_loc.line == 3
    assert [n.message for n in errors[0].notes] == [
        "not supported: unranked tensor type tensor<*xf32>"
    ]


def test_failure_leaves_no_partial_ir() -> None:
    text = """
func.func @main(%x: tensor<1x4x5x5xf32>, %w: tensor<?x2x3x3xf32>) -> tensor<1x?x3x3xf32> {
  %0 = graph.conv2d %x, %w {groups = 2 : i64}
      : (tensor<1x4x5x5xf32>, tensor<?x2x3x3xf32>) -> tensor<1x?x3x3xf32>
  return %0 : tensor<1x?x3x3xf32>
}"""
    module = mlc.parse(text)
    before = str(module)
    with pytest.raises(PassError) as info:
        mlc.run_pipeline(module, PIPELINE)
    diags = info.value.diagnostics
    assert str(module) == before  # nothing built for the failed op is left behind
    assert diags[0].message == "failed to legalize operation 'graph.conv2d'"
    assert "not supported: grouped graph.conv2d" in diags[0].notes[0].message


def test_statistic_and_registration() -> None:
    from mlc.lowering import PASSES
    from mlc.lowering.graph_to_tensor import ConvertGraphToTensorPass

    assert PASSES["convert-graph-to-tensor"] == "graph_to_tensor:ConvertGraphToTensorPass"
    assert ConvertGraphToTensorPass.name == "convert-graph-to-tensor"


# ---------------------------------------------------------------------------------------------
# Random chains (hypothesis): elementwise/broadcast, matmul and reductions composed


@st.composite
def chains(draw: st.DrawFn) -> tuple[str, list[np.ndarray]]:
    """A random program: two broadcast-compatible inputs, then 1-4 ops on the latest value."""
    et = draw(st.sampled_from(["f32", "i32"]))
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    dyn = draw(st.booleans())
    a_shape = (rows, cols)
    b_shape = draw(st.sampled_from([(cols,), (1, cols), (rows, 1), (rows, cols), ()]))
    a_type = (None, cols) if dyn else a_shape
    lines = []
    cur, cur_shape = "%a0", a_type
    rt = (rows, cols)
    counter = 0

    def fresh() -> str:
        nonlocal counter
        counter += 1
        return f"%v{counter}"

    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["binary", "unary", "matmul", "reduce"]))
        t = ttype(cur_shape, et)
        v = fresh()
        if kind == "binary":
            op = draw(st.sampled_from(["add", "sub", "mul", "max", "min"]))
            lines.append(
                f"{v} = graph.{op} {cur}, %a1 : ({t}, {ttype(b_shape, et)}) -> {t}"
                if len(b_shape) <= len(cur_shape) and _bcast_ok(b_shape, rt)
                else f"{v} = graph.{op} {cur}, {cur} : ({t}, {t}) -> {t}"
            )
        elif kind == "unary":
            op = draw(
                st.sampled_from(
                    ["neg", "abs", "relu"] + (["tanh", "sigmoid"] if et == "f32" else [])
                )
            )
            lines.append(f"{v} = graph.{op} {cur} : {t}")
        elif kind == "matmul" and len(cur_shape) == 2:
            # square it with its transpose: [r, c] @ [c, r]
            tr = fresh()
            tt = ttype((cur_shape[1], cur_shape[0]), et)
            lines.append(
                f"{tr} = graph.transpose {cur} {{perm = array<i64: 1, 0>}} : ({t}) -> {tt}"
            )
            out_shape = (cur_shape[0], cur_shape[0])
            lines.append(f"{v} = graph.matmul {cur}, {tr} : ({t}, {tt}) -> {ttype(out_shape, et)}")
            cur_shape, rt = out_shape, (rt[0], rt[0])
        elif kind == "reduce" and len(cur_shape) == 2:
            op = draw(st.sampled_from(["reduce_sum", "reduce_max", "reduce_min"]))
            axis = draw(st.integers(0, 1))
            out_shape = tuple(1 if i == axis else d for i, d in enumerate(cur_shape))
            lines.append(
                f"{v} = graph.{op} {cur} {{axes = array<i64: {axis}>, keepdims = true}} : "
                f"({t}) -> {ttype(out_shape, et)}"
            )
            cur_shape, rt = out_shape, tuple(1 if i == axis else d for i, d in enumerate(rt))
        else:
            lines.append(f"{v} = graph.neg {cur} : {t}")
        cur = v
    t = ttype(cur_shape, et)
    text = (
        f"func.func @main(%a0: {ttype(a_type, et)}, %a1: {ttype(b_shape, et)}) -> {t} {{\n  "
        + "\n  ".join(lines)
        + f"\n  return {cur} : {t}\n}}"
    )
    return text, [rand(a_shape, et), rand(b_shape, et)]


def _bcast_ok(b: tuple, rt: tuple) -> bool:
    off = len(rt) - len(b)
    return all(d == 1 or d == rt[off + i] for i, d in enumerate(b)) and all(
        d == 1 or d == r for d, r in zip(b[::-1], rt[::-1])
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chains())
def test_random_chains(program: tuple[str, list[np.ndarray]]) -> None:
    text, inputs = program
    check(text, inputs, ACC_TOL["f32"])
