"""The NumPy reference interpreter on graph ops, against independently written NumPy/loops."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mlc
from mlc.interp import InterpreterError, run
from mlc.interp import graph as G

RNG = np.random.default_rng(0)


def rand(*shape: int, dtype: type = np.float32) -> np.ndarray:
    return RNG.standard_normal(shape).astype(dtype)


def ttype(shape: tuple[int | None, ...], et: str = "f32") -> str:
    dims = "".join(("?" if d is None else str(d)) + "x" for d in shape)
    return f"tensor<{dims}{et}>"


def run_op(body: str, args: list[tuple[str, np.ndarray]], results: list[str]) -> tuple:
    """Run a @main whose arguments are (type, value) pairs and whose body returns `results`."""
    params = ", ".join(f"%a{i}: {t}" for i, (t, _) in enumerate(args))
    text = f"func.func @main({params}) -> ({', '.join(results)}) {{\n{body}\n}}"
    return run(text, "main", *[v for _, v in args])


def i64s(values: tuple[int, ...]) -> str:
    return f"array<i64: {', '.join(map(str, values))}>"


def unary_ir(op: str, t: str) -> str:
    return f"%0 = graph.{op} %a0 : {t}\nreturn %0 : {t}"


# ---------------------------------------------------------------------------------------------
# Elementwise


@pytest.mark.parametrize(
    "op,fn",
    [
        ("add", np.add),
        ("sub", np.subtract),
        ("mul", np.multiply),
        ("div", np.divide),
        ("max", np.maximum),
        ("min", np.minimum),
    ],
)
def test_binary_broadcasting_float(op: str, fn) -> None:
    a, b = rand(4, 1), rand(5)
    t_a, t_b, t_r = ttype((4, 1)), ttype((5,)), ttype((4, 5))
    body = f"%0 = graph.{op} %a0, %a1 : ({t_a}, {t_b}) -> {t_r}\nreturn %0 : {t_r}"
    (r,) = run_op(body, [(t_a, a), (t_b, b)], [t_r])
    assert r.dtype == np.float32 and r.shape == (4, 5)
    np.testing.assert_array_equal(r, fn(a, b))


def test_pow_and_rank0_broadcast() -> None:
    a = np.abs(rand(3)) + 0.5
    b = np.array(2.5, np.float32)
    t, s = ttype((3,)), "tensor<f32>"
    body = f"%0 = graph.pow %a0, %a1 : ({t}, {s}) -> {t}\nreturn %0 : {t}"
    (r,) = run_op(body, [(t, a), (s, b)], [t])
    np.testing.assert_allclose(r, a**2.5, rtol=1e-6)


def test_integer_div_truncates_and_wraps() -> None:
    a = np.array([7, -7, 7, -7, 2**31 - 1], np.int32)
    b = np.array([2, 2, -2, -2, 1], np.int32)
    t = ttype((5,), "i32")
    body = (
        f"%0 = graph.div %a0, %a1 : ({t}, {t}) -> {t}\n"
        f"%1 = graph.add %a0, %a0 : ({t}, {t}) -> {t}\n"
        f"return %0, %1 : {t}, {t}"
    )
    q, s = run_op(body, [(t, a), (t, b)], [t, t])
    assert q.tolist() == [3, -3, -3, 3, 2**31 - 1]
    assert s[-1] == -2  # 2 * (2**31 - 1) wraps


def test_integer_div_by_zero_does_not_crash() -> None:
    a = np.array([1, 2], np.int64)
    (q,) = run_op(
        "%0 = graph.div %a0, %a1 : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>\n"
        "return %0 : tensor<2xi64>",
        [("tensor<2xi64>", a), ("tensor<2xi64>", np.zeros(2, np.int64))],
        ["tensor<2xi64>"],
    )
    assert q.dtype == np.int64 and q.shape == (2,)


def test_max_min_propagate_nan() -> None:
    a = np.array([np.nan, 1.0, 2.0], np.float32)
    b = np.array([0.0, np.nan, 1.0], np.float32)
    t = ttype((3,))
    body = (
        f"%0 = graph.max %a0, %a1 : ({t}, {t}) -> {t}\n"
        f"%1 = graph.min %a0, %a1 : ({t}, {t}) -> {t}\n"
        f"return %0, %1 : {t}, {t}"
    )
    mx, mn = run_op(body, [(t, a), (t, b)], [t, t])
    assert np.isnan(mx[:2]).all() and mx[2] == 2.0
    assert np.isnan(mn[:2]).all() and mn[2] == 1.0


@pytest.mark.parametrize("pred", ["eq", "ne", "lt", "le", "gt", "ge"])
def test_cmp_predicates_with_nan(pred: str) -> None:
    a = np.array([1.0, 2.0, np.nan, 3.0], np.float32)
    b = np.array([1.0, 1.0, 1.0, np.nan], np.float32)
    t, r = ttype((4,)), ttype((4,), "i1")
    body = f'%0 = graph.cmp "{pred}", %a0, %a1 : ({t}, {t}) -> {r}\nreturn %0 : {r}'
    (out,) = run_op(body, [(t, a), (t, b)], [r])
    expected = {
        "eq": [True, False, False, False],
        "ne": [False, True, True, True],
        "lt": [False, False, False, False],
        "le": [True, False, False, False],
        "gt": [False, True, False, False],
        "ge": [True, True, False, False],
    }[pred]
    assert out.dtype == np.bool_ and out.tolist() == expected


def test_select_three_way_broadcast() -> None:
    c = np.array([[True], [False]])
    a = rand(2, 3)
    b = np.array(-1.0, np.float32)
    tc, ta, tb = ttype((2, 1), "i1"), ttype((2, 3)), "tensor<f32>"
    body = f"%0 = graph.select %a0, %a1, %a2 : ({tc}, {ta}, {tb}) -> {ta}\nreturn %0 : {ta}"
    (r,) = run_op(body, [(tc, c), (ta, a), (tb, b)], [ta])
    np.testing.assert_array_equal(r[0], a[0])
    assert (r[1] == -1.0).all()


def test_unary_ops_against_formulas() -> None:
    x = rand(3, 4)
    pos = np.abs(x) + 0.1
    t = ttype((3, 4))
    cases = {
        "neg": (x, -x),
        "abs": (x, np.abs(x)),
        "exp": (x, np.exp(x)),
        "log": (pos, np.log(pos)),
        "sqrt": (pos, np.sqrt(pos)),
        "rsqrt": (pos, 1 / np.sqrt(pos.astype(np.float64))),
        "tanh": (x, np.tanh(x)),
        "sigmoid": (x, 1 / (1 + np.exp(-x.astype(np.float64)))),
        "relu": (x, np.where(x > 0, x, 0)),
        "erf": (x, np.vectorize(math.erf)(x.astype(np.float64))),
    }
    for op, (arg, expected) in cases.items():
        (r,) = run_op(unary_ir(op, t), [(t, arg)], [t])
        assert r.dtype == np.float32, op
        np.testing.assert_allclose(r, expected, rtol=2e-6, atol=1e-7, err_msg=op)


def test_gelu_exact_erf_form() -> None:
    x = np.linspace(-5, 5, 41).astype(np.float64)
    t = ttype((41,), "f64")
    (r,) = run_op(unary_ir("gelu", t), [(t, x)], [t])
    expected = [0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x]
    np.testing.assert_allclose(r, expected, rtol=1e-15, atol=1e-300)


def test_integer_neg_abs_relu() -> None:
    x = np.array([-3, 0, 5, -(2**31)], np.int32)
    t = ttype((4,), "i32")
    (n,) = run_op(unary_ir("neg", t), [(t, x)], [t])
    (a,) = run_op(unary_ir("abs", t), [(t, x)], [t])
    (r,) = run_op(unary_ir("relu", t), [(t, x)], [t])
    assert n.tolist() == [3, 0, -5, -(2**31)]
    assert a.tolist() == [3, 0, 5, -(2**31)]
    assert r.tolist() == [0, 0, 5, 0]


@pytest.mark.parametrize(
    "src,dst,values,expected",
    [
        ("f32", "i32", [1.9, -1.9, 0.5, -0.0], [1, -1, 0, 0]),
        ("f32", "i1", [0.0, -0.0, 0.1, np.nan], [False, False, True, True]),
        ("i32", "i1", [0, 2, -1, 256], [False, True, True, True]),
        ("i1", "i32", [True, False, True, False], [1, 0, 1, 0]),
        ("i1", "f32", [True, False, True, False], [1.0, 0.0, 1.0, 0.0]),
        ("i64", "i32", [2**32 + 5, -1, 2**31, 7], [5, -1, -(2**31), 7]),
        ("i32", "i64", [-5, 5, -(2**31), 0], [-5, 5, -(2**31), 0]),
        (
            "f64",
            "f16",
            [1.0009765625, 65504.0, 1e6, 0.1],
            [1.0009765625, 65504.0, np.inf, 0.0999755859375],
        ),
        ("i32", "f32", [16777217, -3, 0, 1], [16777216.0, -3.0, 0.0, 1.0]),
    ],
)
def test_cast_rules(src: str, dst: str, values: list, expected: list) -> None:
    dtypes = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i32": np.int32}
    dtypes.update({"i64": np.int64, "i1": np.bool_})
    x = np.array(values, dtype=dtypes[src])
    ts, td = ttype((4,), src), ttype((4,), dst)
    (r,) = run_op(f"%0 = graph.cast %a0 : {ts} to {td}\nreturn %0 : {td}", [(ts, x)], [td])
    assert r.dtype == dtypes[dst]
    assert r.tolist() == expected


# ---------------------------------------------------------------------------------------------
# Linear algebra and layout


def test_matmul_batch_broadcast() -> None:
    a, b = rand(2, 1, 3, 4), rand(5, 4, 6)
    ta, tb, tr = ttype((2, 1, 3, 4)), ttype((5, 4, 6)), ttype((2, 5, 3, 6))
    body = f"%0 = graph.matmul %a0, %a1 : ({ta}, {tb}) -> {tr}\nreturn %0 : {tr}"
    (r,) = run_op(body, [(ta, a), (tb, b)], [tr])
    expected = np.einsum("xymk,ykn->xymn", a.astype(np.float64), np.broadcast_to(b, (5, 4, 6)))
    np.testing.assert_allclose(r, np.broadcast_to(expected, (2, 5, 3, 6)), rtol=1e-6)


def test_matmul_dynamic_dims_bind_per_call() -> None:
    ta, tb, tr = ttype((None, 4)), ttype((4, None)), ttype((None, None))
    text = (
        f"func.func @main(%a: {ta}, %b: {tb}) -> {tr} {{\n"
        f"  %0 = graph.matmul %a, %b : ({ta}, {tb}) -> {tr}\n  return %0 : {tr}\n}}"
    )
    module = mlc.parse(text)
    for m, n in [(2, 3), (5, 1)]:
        a, b = rand(m, 4), rand(4, n)
        (r,) = run(module, "main", a, b)
        assert r.shape == (m, n)
        np.testing.assert_allclose(r, a.astype(np.float64) @ b, rtol=1e-6)


def test_transpose_reshape_broadcast_concat() -> None:
    x = rand(2, 3, 4)
    t, tt = ttype((2, 3, 4)), ttype((4, 2, 3))
    body = (
        f"%0 = graph.transpose %a0 {{perm = array<i64: 2, 0, 1>}} : ({t}) -> {tt}\nreturn %0 : {tt}"
    )
    (r,) = run_op(body, [(t, x)], [tt])
    for i, j, k in itertools.product(range(4), range(2), range(3)):
        assert r[i, j, k] == x[j, k, i]

    tr = ttype((3, 8))
    body = f"%0 = graph.reshape %a0 {{shape = array<i64: 3, -1>}} : ({t}) -> {tr}\nreturn %0 : {tr}"
    (r,) = run_op(body, [(t, x)], [tr])
    assert r.shape == (3, 8) and r.flatten().tolist() == x.flatten().tolist()

    tb = ttype((5, 2, 3, 4))
    body = (
        f"%0 = graph.broadcast_to %a0 {{shape = array<i64: 5, 2, 3, 4>}} : ({t}) -> {tb}\n"
        f"return %0 : {tb}"
    )
    (r,) = run_op(body, [(t, x)], [tb])
    assert r.shape == (5, 2, 3, 4) and all((r[i] == x).all() for i in range(5))
    assert r.flags.writeable  # results are the caller's

    y = rand(2, 1, 4)
    ty, tc = ttype((2, 1, 4)), ttype((2, 4, 4))
    body = f"%0 = graph.concat %a0, %a1 {{axis = 1 : i64}} : ({t}, {ty}) -> {tc}\nreturn %0 : {tc}"
    (r,) = run_op(body, [(t, x), (ty, y)], [tc])
    assert (r[:, :3] == x).all() and (r[:, 3:] == y).all()


def test_reshape_dynamic_minus_one() -> None:
    t, tr = ttype((None, 4)), ttype((None, 2))
    body = f"%0 = graph.reshape %a0 {{shape = array<i64: -1, 2>}} : ({t}) -> {tr}\nreturn %0 : {tr}"
    for rows in (1, 3):
        x = rand(rows, 4)
        (r,) = run_op(body, [(t, x)], [tr])
        assert r.shape == (rows * 2, 2) and (r.reshape(-1) == x.reshape(-1)).all()


def test_slice_with_strides() -> None:
    x = np.arange(4 * 7, dtype=np.int32).reshape(4, 7)
    t, tr = ttype((4, 7), "i32"), ttype((2, 2), "i32")
    body = (
        f"%0 = graph.slice %a0 {{limits = array<i64: 4, 6>, starts = array<i64: 1, 1>, "
        f"strides = array<i64: 2, 3>}} : ({t}) -> {tr}\nreturn %0 : {tr}"
    )
    (r,) = run_op(body, [(t, x)], [tr])
    assert r.tolist() == [[x[1, 1], x[1, 4]], [x[3, 1], x[3, 4]]]


# ---------------------------------------------------------------------------------------------
# Reductions and softmax


@pytest.mark.parametrize("keep", [False, True])
def test_reductions_keepdims(keep: bool) -> None:
    x = rand(3, 4, 5)
    t = ttype((3, 4, 5))
    tr = ttype((3, 1, 1) if keep else (3,))
    kd = "true" if keep else "false"
    for op, fn in [
        ("reduce_sum", np.sum),
        ("reduce_max", np.max),
        ("reduce_min", np.min),
        ("reduce_mean", np.mean),
    ]:
        body = (
            f"%0 = graph.{op} %a0 {{axes = array<i64: 1, 2>, keepdims = {kd}}} : ({t}) -> {tr}\n"
            f"return %0 : {tr}"
        )
        (r,) = run_op(body, [(t, x)], [tr])
        expected = fn(x.astype(np.float64), axis=(1, 2), keepdims=keep)
        assert r.shape == expected.shape and r.dtype == np.float32
        np.testing.assert_allclose(r, expected, rtol=1e-6, err_msg=op)


def test_reduce_sum_integer_keeps_dtype_and_empty_axes_is_identity() -> None:
    x = np.array([[2**30, 2**30], [1, 2]], np.int32)
    t, tr = ttype((2, 2), "i32"), ttype((2,), "i32")
    body = f"%0 = graph.reduce_sum %a0 {{axes = array<i64: 1>}} : ({t}) -> {tr}\nreturn %0 : {tr}"
    (r,) = run_op(body, [(t, x)], [tr])
    assert r.dtype == np.int32 and r.tolist() == [-(2**31), 3]
    body = f"%0 = graph.reduce_max %a0 {{axes = array<i64>}} : ({t}) -> {t}\nreturn %0 : {t}"
    (r,) = run_op(body, [(t, x)], [t])
    assert (r == x).all()


def test_reduce_max_of_empty_dim_is_a_clear_error() -> None:
    t, tr = ttype((None, 3)), ttype((3,))
    body = f"%0 = graph.reduce_max %a0 {{axes = array<i64: 0>}} : ({t}) -> {tr}\nreturn %0 : {tr}"
    with pytest.raises(InterpreterError, match="graph.reduce_max.*empty"):
        run_op(body, [(t, np.zeros((0, 3), np.float32))], [tr])
    body = body.replace("reduce_max", "reduce_mean")
    (r,) = run_op(body, [(t, np.zeros((0, 3), np.float32))], [tr])
    assert np.isnan(r).all()


def test_softmax_rows() -> None:
    x = rand(3, 6) * 30  # large values: only the stable form stays finite
    t = ttype((3, 6))
    body = f"%0 = graph.softmax %a0 {{axis = 1 : i64}} : ({t}) -> {t}\nreturn %0 : {t}"
    (r,) = run_op(body, [(t, x)], [t])
    np.testing.assert_allclose(r.sum(axis=1), 1.0, rtol=1e-6)
    w = x.astype(np.float64)
    expected = np.exp(w - w.max(1, keepdims=True))
    expected /= expected.sum(1, keepdims=True)
    np.testing.assert_allclose(r, expected, rtol=1e-6, atol=1e-12)


# ---------------------------------------------------------------------------------------------
# Convolution and pooling against explicit loops


def conv_loops(x, w, b, stride, pad, dil, groups):
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    sh, sw = stride
    top, left, bottom, right = pad
    dh, dw = dil
    oh = (h + top + bottom - dh * (kh - 1) - 1) // sh + 1
    ow = (wd + left + right - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((n, o, oh, ow))
    og = o // groups
    for ni, oi, y, xx in itertools.product(range(n), range(o), range(oh), range(ow)):
        g = oi // og
        acc = 0.0 if b is None else float(b[oi])
        for ci, i, j in itertools.product(range(cg), range(kh), range(kw)):
            yy = y * sh - top + i * dh
            xi = xx * sw - left + j * dw
            if 0 <= yy < h and 0 <= xi < wd:
                acc += float(x[ni, g * cg + ci, yy, xi]) * float(w[oi, ci, i, j])
        out[ni, oi, y, xx] = acc
    return out


@pytest.mark.parametrize(
    "c,o,groups,stride,pad,dil,bias",
    [
        (3, 4, 1, (1, 1), (0, 0, 0, 0), (1, 1), False),
        (3, 4, 1, (2, 1), (1, 0, 2, 1), (1, 1), True),
        (4, 6, 2, (1, 2), (1, 1, 1, 1), (2, 1), True),
        (4, 4, 4, (1, 1), (1, 1, 1, 1), (1, 1), False),  # depthwise
        (2, 2, 1, (3, 3), (2, 2, 2, 2), (2, 2), True),
    ],
)
def test_conv2d_against_loops(c, o, groups, stride, pad, dil, bias) -> None:
    x = rand(2, c, 6, 7)
    w = rand(o, c // groups, 3, 2)
    b = rand(o) if bias else None
    expected = conv_loops(x, w, b, stride, pad, dil, groups)
    tx, tw, tb, tr = ttype(x.shape), ttype(w.shape), ttype((o,)), ttype(expected.shape)
    attrs = (
        f"{{dilations = array<i64: {dil[0]}, {dil[1]}>, groups = {groups} : i64, "
        f"pads = {i64s(pad)}, strides = {i64s(stride)}}}"
    )
    operands = "%a0, %a1, %a2" if bias else "%a0, %a1"
    types = f"{tx}, {tw}, {tb}" if bias else f"{tx}, {tw}"
    args = [(tx, x), (tw, w)] + ([(tb, b)] if bias else [])
    body = f"%0 = graph.conv2d {operands} {attrs} : ({types}) -> {tr}\nreturn %0 : {tr}"
    (r,) = run_op(body, args, [tr])
    assert r.dtype == np.float32
    np.testing.assert_allclose(r, expected, rtol=1e-5, atol=1e-5)


def pool_loops(x, kernel, stride, pad, kind):
    n, c, h, w = x.shape
    kh, kw = kernel
    top, left, bottom, right = pad
    oh = (h + top + bottom - kh) // stride[0] + 1
    ow = (w + left + right - kw) // stride[1] + 1
    out = np.zeros((n, c, oh, ow))
    for ni, ci, y, xx in itertools.product(range(n), range(c), range(oh), range(ow)):
        vals = []
        for i, j in itertools.product(range(kh), range(kw)):
            yy, xi = y * stride[0] - top + i, xx * stride[1] - left + j
            if 0 <= yy < h and 0 <= xi < w:
                vals.append(float(x[ni, ci, yy, xi]))
        out[ni, ci, y, xx] = max(vals) if kind == "max" else sum(vals) / len(vals)
    return out


@pytest.mark.parametrize("kind", ["max", "avg"])
@pytest.mark.parametrize(
    "kernel,stride,pad", [((2, 2), (2, 2), (0, 0, 0, 0)), ((3, 3), (1, 2), (1, 2, 2, 1))]
)
def test_pooling_against_loops(kind, kernel, stride, pad) -> None:
    x = rand(1, 2, 5, 6) - 3.0  # all negative: max pooling must not see zero padding
    expected = pool_loops(x, kernel, stride, pad, kind)
    tx, tr = ttype(x.shape), ttype(expected.shape)
    attrs = f"{{kernel = {i64s(kernel)}, pads = {i64s(pad)}, strides = {i64s(stride)}}}"
    body = f"%0 = graph.{kind}_pool2d %a0 {attrs} : ({tx}) -> {tr}\nreturn %0 : {tr}"
    (r,) = run_op(body, [(tx, x)], [tr])
    np.testing.assert_allclose(r, expected, rtol=1e-6)


# ---------------------------------------------------------------------------------------------
# constant, fused, and the kernels used directly


def test_constant_splat_and_dense() -> None:
    t = ttype((2, 2))
    body = (
        f"%0 = graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : {t}\n"
        f"%1 = graph.constant dense<0.5> : {t}\n"
        f"%2 = graph.add %0, %1 : ({t}, {t}) -> {t}\n"
        f"return %2, %1 : {t}, {t}"
    )
    r, splat = run_op(body, [], [t, t])
    assert r.tolist() == [[1.5, 2.5], [3.5, 4.5]]
    assert splat.flags.writeable and splat.tolist() == [[0.5, 0.5], [0.5, 0.5]]


def test_fused_region_binds_inputs() -> None:
    t = ttype((4,))
    body = (
        f"%r = graph.fused ins(%a0, %a1 : {t}, {t}) -> {t} {{\n"
        f"^bb0(%x: {t}, %y: {t}):\n"
        f"  %s = graph.sub %x, %y : ({t}, {t}) -> {t}\n"
        f"  %q = graph.relu %s : {t}\n"
        f"  graph.yield %q : {t}\n"
        f"}}\nreturn %r : {t}"
    )
    a, b = rand(4), rand(4)
    (r,) = run_op(body, [(t, a), (t, b)], [t])
    np.testing.assert_array_equal(r, np.maximum(a - b, 0))


def test_kernels_directly() -> None:
    x = rand(1, 1, 4, 4)
    w = np.ones((1, 1, 2, 2), np.float32)
    r = G.conv2d(x, w, strides=(2, 2))
    assert r.shape == (1, 1, 2, 2)
    assert np.isclose(r[0, 0, 0, 0], x[0, 0, :2, :2].sum())
    assert G.cast(np.array([2.7, -2.7]), np.int32).tolist() == [2, -2]
    with pytest.raises(ValueError, match="not supported on i1"):
        G.binary("add", np.array([True]), np.array([False]))


def test_unranked_elementwise_and_cast() -> None:
    t, ti = "tensor<*xf32>", "tensor<*xi32>"
    body = (
        f"%0 = graph.add %a0, %a1 : ({t}, {t}) -> {t}\n"
        f"%1 = graph.cast %0 : {t} to {ti}\n"
        f"return %1 : {ti}"
    )
    a, b = np.full((2, 3), 1.7, np.float32), np.array([0.0, -4.0, 1.0], np.float32)
    (r,) = run_op(body, [(t, a), (t, b)], [ti])
    assert r.dtype == np.int32 and r.tolist() == [[1, -2, 2], [1, -2, 2]]


@settings(max_examples=25, deadline=None)
@given(
    shape_a=st.lists(st.sampled_from([1, 2, 3]), min_size=0, max_size=3),
    drop=st.lists(st.booleans(), min_size=3, max_size=3),
    op=st.sampled_from(["add", "sub", "mul", "max", "min"]),
)
def test_binary_broadcasting_property(shape_a: list[int], drop: list[bool], op: str) -> None:
    # b's shape: a suffix of a's with some dims replaced by 1 (always broadcast-compatible).
    shape_b = [1 if d else s for s, d in zip(shape_a, drop)][len(shape_a) // 2 :]
    a = np.arange(1, math.prod(shape_a) + 1, dtype=np.int64).reshape(shape_a) * 7 - 5
    b = np.arange(math.prod(shape_b), dtype=np.int64).reshape(shape_b) - 3
    expected = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "max": np.maximum,
                "min": np.minimum}[op](a, b)  # fmt: skip
    ta, tb, tr = ttype(a.shape, "i64"), ttype(b.shape, "i64"), ttype(expected.shape, "i64")
    body = f"%0 = graph.{op} %a0, %a1 : ({ta}, {tb}) -> {tr}\nreturn %0 : {tr}"
    (r,) = run_op(body, [(ta, a), (tb, b)], [tr])
    assert r.shape == expected.shape and (r == expected).all()


def test_dynamic_dims_that_do_not_broadcast_are_located_errors() -> None:
    t = ttype((None,))
    body = f"%0 = graph.add %a0, %a1 : ({t}, {t}) -> {t}\nreturn %0 : {t}"
    with pytest.raises(InterpreterError, match=r"'graph.add' \(at .*\): operands could not be"):
        run_op(body, [(t, rand(3)), (t, rand(4))], [t])


def test_fused_body_with_arith_and_math_on_tensors() -> None:
    t = ttype((2, 3))
    body = (
        f"%r:2 = graph.fused ins(%a0 : {t}) -> ({t}, {t}) {{\n"
        f"^bb0(%x: {t}):\n"
        f"  %c = arith.constant dense<2.0> : {t}\n"
        f"  %m = arith.mulf %x, %c : {t}\n"
        f"  %e = math.exp %m : {t}\n"
        f"  graph.yield %m, %e : {t}, {t}\n"
        f"}}\nreturn %r#0, %r#1 : {t}, {t}"
    )
    x = rand(2, 3)
    m, e = run_op(body, [(t, x)], [t, t])
    np.testing.assert_array_equal(m, x * 2)
    np.testing.assert_allclose(e, np.exp(x * 2), rtol=1e-6)
