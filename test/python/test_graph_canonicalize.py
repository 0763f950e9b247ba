"""Canonicalization patterns of the graph dialect: random programs built to hit them, run by the
reference interpreter before and after `canonicalize` on the same inputs (equal values, signed
zeros and NaNs included), and the float rules MLIR's arith folders follow."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mlc.dialects.graph_canon import DEFAULT_FOLD_LIMIT, PATTERNS, FoldConstantGraphOp

import mlc
from mlc.interp import run
from mlc.rewrite import FrozenPatternSet, apply_patterns_greedily

CANON = "builtin.module(canonicalize)"


def tt(shape: tuple[int, ...], et: str = "f32") -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + et + ">"


def same(a: np.ndarray, b: np.ndarray) -> None:
    """Equal values (NaN equals NaN; floats to a few ulps; signed zeros must agree)."""
    assert a.shape == b.shape and a.dtype == b.dtype
    if a.dtype.kind == "f":
        np.testing.assert_allclose(a, b, rtol=2e-6, atol=0, equal_nan=True)
        zeros = (a == 0) & (b == 0)
        assert np.array_equal(np.signbit(a[zeros]), np.signbit(b[zeros]))
    else:
        np.testing.assert_array_equal(a, b)


def canonicalized(text: str, *inputs: np.ndarray) -> tuple[str, tuple]:
    module = mlc.parse(text)
    before = run(module, "main", *inputs)
    mlc.run_pipeline(module, CANON)
    after = run(module, "main", *inputs)
    for b, a in zip(before, after):
        same(np.asarray(b), np.asarray(a))
    return str(module), after


def test_patterns_are_registered_with_canonicalize() -> None:
    names = {p.debug_name for p in FrozenPatternSet.canonicalization()}
    for p in PATTERNS:
        assert p.debug_name in names


def test_float_add_zero_is_not_an_identity() -> None:
    """-0.0 + 0.0 is +0.0: x + 0.0 stays, x + (-0.0) goes (and the values agree both ways)."""
    text = """
    func.func @main(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
      %z = graph.constant dense<0.0> : tensor<3xf32>
      %nz = graph.constant dense<-0.0> : tensor<3xf32>
      %0 = graph.add %x, %z : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      %1 = graph.add %x, %nz : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      %2 = graph.mul %x, %z : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      return %0, %1, %2 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
    }"""
    x = np.array([-0.0, np.nan, np.inf], np.float32)
    out, (r0, r1, r2) = canonicalized(text, x)
    assert out.count("graph.add") == 1 and out.count("graph.mul") == 1
    assert not np.signbit(r0[0]) and np.signbit(r1[0])  # +0.0 vs the input's -0.0
    assert np.isnan(r2[1]) and np.isnan(r2[2])  # NaN * 0 and inf * 0 are NaN, not 0


def test_integer_mul_zero_folds() -> None:
    text = """
    func.func @main(%x: tensor<2x3xi64>) -> tensor<2x3xi64> {
      %z = graph.constant dense<0> : tensor<i64>
      %0 = graph.mul %z, %x : (tensor<i64>, tensor<2x3xi64>) -> tensor<2x3xi64>
      return %0 : tensor<2x3xi64>
    }"""
    out, (r,) = canonicalized(text, np.arange(6, dtype=np.int64).reshape(2, 3))
    assert "graph.mul" not in out and "dense<0> : tensor<2x3xi64>" in out
    assert not r.any()


def test_neg_neg_wraps_for_int_min() -> None:
    text = """
    func.func @main(%x: tensor<2xi32>) -> tensor<2xi32> {
      %0 = graph.neg %x : tensor<2xi32>
      %1 = graph.neg %0 : tensor<2xi32>
      return %1 : tensor<2xi32>
    }"""
    out, (r,) = canonicalized(text, np.array([np.iinfo(np.int32).min, 5], np.int32))
    assert "graph.neg" not in out
    assert r[0] == np.iinfo(np.int32).min


def test_fold_limit_is_an_option_of_the_pattern() -> None:
    text = """
    func.func @main() -> tensor<40x40xf32> {
      %c = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
      %0 = graph.broadcast_to %c {shape = array<i64: 40, 20, 2>}
        : (tensor<2xf32>) -> tensor<40x20x2xf32>
      %1 = graph.reshape %0 {shape = array<i64: 40, 40>}
        : (tensor<40x20x2xf32>) -> tensor<40x40xf32>
      return %1 : tensor<40x40xf32>
    }"""
    assert 40 * 40 > DEFAULT_FOLD_LIMIT
    module = mlc.parse(text)
    mlc.run_pipeline(module, CANON)
    assert "graph.broadcast_to" in str(module)
    module = mlc.parse(text)
    (expected,) = run(module, "main")
    apply_patterns_greedily(module, FrozenPatternSet([FoldConstantGraphOp(max_elements=4096)]))
    out = str(module)
    assert "graph.broadcast_to" not in out and "graph.reshape" not in out
    (got,) = run(module, "main")
    np.testing.assert_array_equal(got, expected)


def test_fused_with_constant_inputs_folds() -> None:
    text = """
    func.func @main() -> (tensor<2xf32>, tensor<2xi1>) {
      %a = graph.constant dense<[1.0, -2.0]> : tensor<2xf32>
      %0:2 = graph.fused ins(%a : tensor<2xf32>) -> (tensor<2xf32>, tensor<2xi1>) {
      ^bb0(%x: tensor<2xf32>):
        %r = graph.relu %x : tensor<2xf32>
        %c = graph.cmp "gt", %x, %r : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
        graph.yield %r, %c : tensor<2xf32>, tensor<2xi1>
      }
      return %0#0, %0#1 : tensor<2xf32>, tensor<2xi1>
    }"""
    out, (r, c) = canonicalized(text)
    assert "graph.fused" not in out and "graph.relu" not in out
    np.testing.assert_array_equal(r, [1.0, 0.0])
    np.testing.assert_array_equal(c, [False, False])


# ---------------------------------------------------------------------------------------------
# Random programs aimed at the patterns


class Builder:
    def __init__(self, rng: random.Random, et: str) -> None:
        self.rng = rng
        self.et = et
        self.args: list[tuple[str, tuple[int, ...]]] = []
        self.lines: list[str] = []
        self.values: list[tuple[str, tuple[int, ...]]] = []
        self.n = 0

    def fresh(self) -> str:
        self.n += 1
        return f"%v{self.n}"

    def emit(self, text: str, shape: tuple[int, ...]) -> str:
        name = self.fresh()
        self.lines.append(f"  {name} = {text}")
        self.values.append((name, shape))
        return name

    def arg(self, shape: tuple[int, ...]) -> str:
        name = f"%a{len(self.args)}"
        self.args.append((name, shape))
        self.values.append((name, shape))
        return name

    def const(self, shape: tuple[int, ...], splat: float | None = None) -> str:
        et = self.et
        if splat is not None:
            lit = repr(float(splat)) if et == "f32" else str(int(splat))
            return self.emit(f"graph.constant dense<{lit}> : {tt(shape, et)}", shape)
        n = int(np.prod(shape))
        vals = [self.rng.randint(-3, 3) for _ in range(n)]
        flat = ", ".join(f"{v}.0" if et == "f32" else str(v) for v in vals)
        body = flat if not shape else _nest(flat.split(", "), shape)
        return self.emit(f"graph.constant dense<{body}> : {tt(shape, et)}", shape)

    def step(self) -> None:
        rng, et = self.rng, self.et
        x, xs = rng.choice(self.values)
        kind = rng.randrange(8)
        t = tt(xs, et)
        if kind == 0 and len(xs) >= 2:  # transpose chain
            p = list(range(len(xs)))
            rng.shuffle(p)
            ys = tuple(xs[i] for i in p)
            y = self.emit(f"graph.transpose {x} {{perm = {_arr(p)}}} : ({t}) -> {tt(ys, et)}", ys)
            q = list(range(len(xs)))
            rng.shuffle(q)
            zs = tuple(ys[i] for i in q)
            self.emit(
                f"graph.transpose {y} {{perm = {_arr(q)}}} : ({tt(ys, et)}) -> {tt(zs, et)}", zs
            )
        elif kind == 1:  # reshape chain
            n = int(np.prod(xs))
            mid = (n,) if rng.random() < 0.5 else (1, n)
            y = self.emit(
                f"graph.reshape {x} {{shape = {_arr(mid)}}} : ({t}) -> {tt(mid, et)}", mid
            )
            self.emit(f"graph.reshape {y} {{shape = {_arr(xs)}}} : ({tt(mid, et)}) -> {t}", xs)
        elif kind == 2:  # broadcast then elementwise
            target = (rng.randint(1, 3), *xs)
            other = self.arg(target) if rng.random() < 0.5 else self.const(target)
            b = self.emit(
                f"graph.broadcast_to {x} {{shape = {_arr(target)}}} : ({t}) -> {tt(target, et)}",
                target,
            )
            op = rng.choice(("add", "mul", "max", "sub"))
            tr = tt(target, et)
            self.emit(f"graph.{op} {other}, {b} : ({tr}, {tr}) -> {tr}", target)
        elif kind == 3:  # identity constants
            choices = [0.0, 1.0, -0.0] if et == "f32" else [0, 1]
            c = self.const((), splat=rng.choice(choices))
            op = rng.choice(("add", "sub", "mul", "div"))
            lhs, rhs = (x, c) if op in ("sub", "div") or rng.random() < 0.5 else (c, x)
            lt, rt = (t, tt((), et)) if lhs == x else (tt((), et), t)
            if op == "div" and et != "f32":
                c2 = self.const((), splat=1)
                lhs, rhs, lt, rt = x, c2, t, tt((), et)
            self.emit(f"graph.{op} {lhs}, {rhs} : ({lt}, {rt}) -> {t}", xs)
        elif kind == 4:  # neg(neg)
            y = self.emit(f"graph.neg {x} : {t}", xs)
            self.emit(f"graph.neg {y} : {t}", xs)
        elif kind == 5 and et == "f32":  # exp(log(non-negative))
            y = self.emit(f"graph.{rng.choice(('exp', 'abs', 'sigmoid'))} {x} : {t}", xs)
            z = self.emit(f"graph.log {y} : {t}", xs)
            self.emit(f"graph.exp {z} : {t}", xs)
        elif kind == 6:  # a constant subgraph
            c = self.const(xs)
            op = rng.choice(("add", "mul", "max", "min"))
            self.emit(f"graph.{op} {c}, {c} : ({t}, {t}) -> {t}", xs)
        else:  # max(x, x), relu(relu), abs(abs)
            if rng.random() < 0.5:
                self.emit(f"graph.max {x}, {x} : ({t}, {t}) -> {t}", xs)
            else:
                op = "abs" if et == "i32" or rng.random() < 0.5 else "relu"
                y = self.emit(f"graph.{op} {x} : {t}", xs)
                self.emit(f"graph.{op} {y} : {t}", xs)

    def text(self) -> str:
        outs = self.values[-3:]
        sig = ", ".join(f"{n}: {tt(s, self.et)}" for n, s in self.args)
        rets = ", ".join(tt(s, self.et) for _, s in outs)
        return (
            f"func.func @main({sig}) -> ({rets}) {{\n"
            + "\n".join(self.lines)
            + f"\n  return {', '.join(n for n, _ in outs)} : {rets}\n}}\n"
        )


def _arr(values: tuple[int, ...] | list[int]) -> str:
    return "array<i64" + (": " + ", ".join(map(str, values)) if values else "") + ">"


def _nest(flat: list[str], shape: tuple[int, ...]) -> str:
    if len(shape) == 1:
        return "[" + ", ".join(flat) + "]"
    step = len(flat) // shape[0]
    return (
        "["
        + ", ".join(_nest(flat[i : i + step], shape[1:]) for i in range(0, len(flat), step))
        + "]"
    )


def _inputs(args: list[tuple[str, tuple[int, ...]]], et: str, seed: int) -> list[np.ndarray]:
    g = np.random.default_rng(seed)
    out = []
    for _, shape in args:
        if et == "f32":
            a = g.standard_normal(shape).astype(np.float32)
            a[g.random(shape) < 0.1] = -0.0
            a[g.random(shape) < 0.05] = np.nan
        else:
            a = g.integers(-5, 5, shape).astype(np.int32)
        out.append(a)
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31), st.sampled_from(["f32", "i32"]))
def test_random_programs_keep_their_values(seed: int, et: str) -> None:
    rng = random.Random(seed)
    b = Builder(rng, et)
    b.arg(tuple(rng.randint(1, 3) for _ in range(rng.randint(1, 3))))
    for _ in range(rng.randint(1, 6)):
        b.step()
    text = b.text()
    module = mlc.parse(text)
    n_before = sum(1 for _ in module.walk())
    inputs = _inputs(b.args, et, seed)
    out, _ = canonicalized(text, *inputs)
    assert sum(1 for _ in mlc.parse(out).walk()) <= n_before


@pytest.mark.parametrize("perm1,perm2", [((1, 2, 0), (2, 0, 1)), ((0, 2, 1), (1, 0, 2))])
def test_transpose_merge_values(perm1: tuple[int, ...], perm2: tuple[int, ...]) -> None:
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    s1 = tuple(x.shape[p] for p in perm1)
    s2 = tuple(s1[p] for p in perm2)
    text = f"""
    func.func @main(%x: tensor<2x3x4xf32>) -> {tt(s2)} {{
      %0 = graph.transpose %x {{perm = {_arr(perm1)}}} : (tensor<2x3x4xf32>) -> {tt(s1)}
      %1 = graph.transpose %0 {{perm = {_arr(perm2)}}} : ({tt(s1)}) -> {tt(s2)}
      return %1 : {tt(s2)}
    }}"""
    out, (r,) = canonicalized(text, x)
    assert out.count("graph.transpose") == (0 if s2 == x.shape else 1)
    np.testing.assert_array_equal(r, np.transpose(np.transpose(x, perm1), perm2))


@pytest.mark.parametrize(
    "xs,ys",
    [((5, 3), (4, 5)), ((2, 5, 3), (4, 5)), ((1, 5, 3), (3, 4, 5)), ((2, 1, 6, 2), (3, 7, 6))],
)
def test_matmul_of_transposes_values(xs: tuple[int, ...], ys: tuple[int, ...]) -> None:
    g = np.random.default_rng(len(xs) * 10 + len(ys))
    x = g.standard_normal(xs).astype(np.float32)
    y = g.standard_normal(ys).astype(np.float32)

    def swap(n: int) -> tuple[int, ...]:
        return (*range(n - 2), n - 1, n - 2)

    xts = tuple(xs[p] for p in swap(len(xs)))
    yts = tuple(ys[p] for p in swap(len(ys)))
    out = np.matmul(np.transpose(x, swap(len(xs))), np.transpose(y, swap(len(ys)))).shape
    text = f"""
    func.func @main(%x: {tt(xs)}, %y: {tt(ys)}) -> {tt(out)} {{
      %xt = graph.transpose %x {{perm = {_arr(swap(len(xs)))}}} : ({tt(xs)}) -> {tt(xts)}
      %yt = graph.transpose %y {{perm = {_arr(swap(len(ys)))}}} : ({tt(ys)}) -> {tt(yts)}
      %0 = graph.matmul %xt, %yt : ({tt(xts)}, {tt(yts)}) -> {tt(out)}
      return %0 : {tt(out)}
    }}"""
    text_out, (r,) = canonicalized(text, x, y)
    assert text_out.count("graph.transpose") == 1
    assert "graph.matmul %arg1, %arg0" in text_out
    expected = np.matmul(np.transpose(x, swap(len(xs))), np.transpose(y, swap(len(ys))))
    np.testing.assert_allclose(r, expected, rtol=1e-5, atol=1e-6)
