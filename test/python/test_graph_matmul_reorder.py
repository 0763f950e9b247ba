"""graph-matmul-reorder: the order enumeration, the dynamic program, the rewrite and its knob,
checked against brute force and against the reference interpreter on random chains."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mlc.passes.graph_matmul_reorder import (
    chain_flops,
    index_of_order,
    num_orders,
    optimal_order,
    order_domain,
    order_of_index,
    order_text,
)

import mlc
from mlc.diagnostics import engine
from mlc.interp import run
from mlc.knobs import Choice, IntRange, KnobContext, KnobStore

PIPELINE = "builtin.module(func.func(graph-matmul-reorder))"


def all_trees(lo: int, hi: int) -> list:
    if hi - lo == 1:
        return [lo]
    out = []
    for k in range(lo + 1, hi):
        for left in all_trees(lo, k):
            for right in all_trees(k, hi):
                out.append((left, right))
    return out


def test_order_enumeration_is_a_bijection() -> None:
    assert [num_orders(n) for n in range(1, 9)] == [1, 1, 2, 5, 14, 42, 132, 429]
    for n in range(1, 8):
        trees = [order_of_index(n, i) for i in range(num_orders(n))]
        assert len({order_text(t) for t in trees}) == num_orders(n)
        assert sorted(map(order_text, trees)) == sorted(map(order_text, all_trees(0, n)))
        assert [index_of_order(t) for t in trees] == list(range(num_orders(n)))
    with pytest.raises(ValueError):
        order_of_index(3, 2)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(1, 40), min_size=2, max_size=8))
def test_dynamic_program_matches_brute_force(dims: list[int]) -> None:
    n = len(dims) - 1
    best = min(chain_flops(t, dims) for t in all_trees(0, n))
    assert chain_flops(optimal_order(dims), dims) == best


def test_long_chains_get_a_restricted_domain() -> None:
    dims = [3, 50, 2, 40, 7, 1, 9, 30, 4, 8, 5, 60, 2]  # 12 matrices: 58786 orders
    best = optimal_order(dims)
    domain = order_domain(dims, best)
    assert type(domain) is Choice
    assert index_of_order(best) in domain.options
    assert domain.options[0] == index_of_order(best)  # sorted by FLOPs
    flops = [chain_flops(order_of_index(12, i), dims) for i in domain.options]
    assert flops == sorted(flops)
    assert type(order_domain(dims[:11], optimal_order(dims[:11]))) is IntRange


class Result:
    """A module after the pass, with the knob context and the remarks of the run."""

    def __init__(self, module: object, ctx: KnobContext, remarks: list[str]) -> None:
        self.module, self.ctx, self.remarks = module, ctx, remarks

    def __str__(self) -> str:
        return str(self.module)

    def walk(self) -> object:
        return self.module.walk()  # type: ignore[attr-defined]

    def verify(self) -> None:
        self.module.verify()  # type: ignore[attr-defined]


def parse_run(text: str, knobs: object = None) -> tuple[Result, KnobContext]:
    module = mlc.parse(text)
    with engine.capture() as diags:
        ctx = mlc.run_pipeline(module, PIPELINE, knobs=knobs)
    remarks = [d.message for d in diags if d.severity == "remark"]
    return Result(module, ctx, remarks), ctx


def matmuls(module: object) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    return [
        (op.operands[0].type.shape, op.operands[1].type.shape)
        for op in module.walk()  # type: ignore[attr-defined]
        if op.name == "graph.matmul"
    ]


CLASSIC = """
func.func @main(%a: tensor<10x1000xf64>, %b: tensor<1000x1000xf64>, %c: tensor<1000x1xf64>)
    -> tensor<10x1xf64> {
  %0 = graph.matmul %a, %b : (tensor<10x1000xf64>, tensor<1000x1000xf64>) -> tensor<10x1000xf64>
  %1 = graph.matmul %0, %c : (tensor<10x1000xf64>, tensor<1000x1xf64>) -> tensor<10x1xf64>
  return %1 : tensor<10x1xf64>
}
"""


def test_classic_chain_is_reordered() -> None:
    module, ctx = parse_run(CLASSIC)
    assert matmuls(module) == [((1000, 1000), (1000, 1)), ((10, 1000), (1000, 1))]
    assert module.remarks == [
        "matmul chain [10x1000, 1000x1000, 1000x1]: order ((0 1) 2) -> (0 (1 2)), "
        "estimated FLOPs 20020000 -> 2020000"
    ]
    (knob,) = ctx.space()
    assert knob.name == "order" and knob.value == index_of_order((0, (1, 2)))
    assert knob.domain == IntRange(0, 1)
    rng = np.random.default_rng(0)
    args = [rng.standard_normal(s) for s in [(10, 1000), (1000, 1000), (1000, 1)]]
    np.testing.assert_allclose(run(module.module, "main", *args)[0], args[0] @ args[1] @ args[2])
    # The knob can force the original order back: then the IR is kept as it was.
    module, _ = parse_run(CLASSIC, {knob.key: index_of_order(((0, 1), 2))})
    assert matmuls(module) == [((10, 1000), (1000, 1000)), ((10, 1000), (1000, 1))]
    assert "kept order ((0 1) 2)" in module.remarks[0]


def test_gram_times_vector_is_kept() -> None:
    text = """
func.func @main(%x: tensor<1000x50xf32>, %p: tensor<50x1xf32>) -> tensor<50x1xf32> {
  %t = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<1000x50xf32>) -> tensor<50x1000xf32>
  %0 = graph.matmul %x, %p : (tensor<1000x50xf32>, tensor<50x1xf32>) -> tensor<1000x1xf32>
  %1 = graph.matmul %t, %0 : (tensor<50x1000xf32>, tensor<1000x1xf32>) -> tensor<50x1xf32>
  return %1 : tensor<50x1xf32>
}
"""
    module, _ = parse_run(text)
    assert str(module) == str(mlc.parse(text))
    assert module.remarks == [
        "matmul chain [50x1000, 1000x50, 50x1]: kept order (0 (1 2)), estimated FLOPs 200000"
    ]


def test_shared_intermediate_is_a_fixed_point() -> None:
    text = """
func.func @main(%a: tensor<10x100xf64>, %b: tensor<100x100xf64>, %c: tensor<100x100xf64>,
                %d: tensor<100x1xf64>) -> (tensor<10x100xf64>, tensor<10x1xf64>) {
  %0 = graph.matmul %a, %b : (tensor<10x100xf64>, tensor<100x100xf64>) -> tensor<10x100xf64>
  %1 = graph.matmul %0, %c : (tensor<10x100xf64>, tensor<100x100xf64>) -> tensor<10x100xf64>
  %2 = graph.matmul %1, %d : (tensor<10x100xf64>, tensor<100x1xf64>) -> tensor<10x1xf64>
  return %0, %2 : tensor<10x100xf64>, tensor<10x1xf64>
}
"""
    module, _ = parse_run(text)
    # %0 is returned: it stays, and the chain above it is %0 (c d).
    assert matmuls(module) == [
        ((10, 100), (100, 100)),
        ((100, 100), (100, 1)),
        ((10, 100), (100, 1)),
    ]
    assert module.remarks == [
        "matmul chain [10x100, 100x100, 100x1]: order ((0 1) 2) -> (0 (1 2)), "
        "estimated FLOPs 202000 -> 22000"
    ]
    rng = np.random.default_rng(1)
    args = [rng.standard_normal(s) for s in [(10, 100), (100, 100), (100, 100), (100, 1)]]
    expected = run(mlc.parse(text), "main", *args)
    for e, g in zip(expected, run(module.module, "main", *args)):
        np.testing.assert_allclose(g, e)


def test_transposes_and_scalars_are_looked_through() -> None:
    # ((c^T a)^T) * s ... = s * a^T c with a vector c: the product of the chain is reordered
    # through the outer transpose and the scalar moves to the smallest matrix.
    text = """
func.func @main(%a: tensor<500x200xf64>, %b: tensor<200x300xf64>, %c: tensor<300x1xf64>,
                %s: tensor<f64>) -> tensor<1x500xf64> {
  %0 = graph.matmul %a, %b : (tensor<500x200xf64>, tensor<200x300xf64>) -> tensor<500x300xf64>
  %1 = graph.matmul %0, %c : (tensor<500x300xf64>, tensor<300x1xf64>) -> tensor<500x1xf64>
  %2 = graph.transpose %1 {perm = array<i64: 1, 0>} : (tensor<500x1xf64>) -> tensor<1x500xf64>
  %3 = graph.mul %s, %2 : (tensor<f64>, tensor<1x500xf64>) -> tensor<1x500xf64>
  return %3 : tensor<1x500xf64>
}
"""
    module, _ = parse_run(text)
    # Chain (as transposed factors): c^T b^T a^T, dims 1, 300, 200, 500: ((c^T b^T) a^T).
    assert matmuls(module) == [((1, 300), (300, 200)), ((1, 200), (200, 500))]
    assert module.remarks == [
        "matmul chain [1x300, 300x200, 200x500]: order (0 (1 2)) -> ((0 1) 2), "
        "estimated FLOPs 60300000 -> 320000"
    ]
    rng = np.random.default_rng(2)
    args = [rng.standard_normal(s) for s in [(500, 200), (200, 300), (300, 1)]] + [np.array(1.5)]
    (got,) = run(module.module, "main", *args)
    np.testing.assert_allclose(got, 1.5 * (args[0] @ args[1] @ args[2]).T)


def test_dynamic_dims_use_the_size_hint() -> None:
    text = """
func.func @main(%a: tensor<?x8xf32>, %b: tensor<8x64xf32>, %c: tensor<64x2xf32>)
    -> tensor<?x2xf32> {
  %0 = graph.matmul %a, %b : (tensor<?x8xf32>, tensor<8x64xf32>) -> tensor<?x64xf32>
  %1 = graph.matmul %0, %c : (tensor<?x64xf32>, tensor<64x2xf32>) -> tensor<?x2xf32>
  return %1 : tensor<?x2xf32>
}
"""
    # (a b) c costs 1280 h FLOPs for h rows, a (b c) 2048 + 32 h: the hint decides.
    module, _ = parse_run(text)
    assert module.remarks == [
        "matmul chain [?x8, 8x64, 64x2]: order ((0 1) 2) -> (0 (1 2)), "
        "estimated FLOPs 1310720 -> 34816"
    ]
    rng = np.random.default_rng(3)
    args = [rng.standard_normal(s).astype(np.float32) for s in [(3, 8), (8, 64), (64, 2)]]
    (got,) = run(module.module, "main", *args)
    np.testing.assert_allclose(got, args[0] @ args[1] @ args[2], rtol=1e-4, atol=1e-4)
    module = mlc.parse(text)
    with engine.capture() as diags:
        mlc.run_pipeline(module, "builtin.module(func.func(graph-matmul-reorder{size-hint=1}))")
    assert [d.message for d in diags] == [
        "matmul chain [?x8, 8x64, 64x2]: kept order ((0 1) 2), estimated FLOPs 1280"
    ]
    assert str(module) == str(mlc.parse(text))


def test_bad_size_hint_is_a_located_error() -> None:
    module = mlc.parse(CLASSIC)
    with engine.capture(), pytest.raises(mlc.pass_manager.PassError, match="size-hint"):
        mlc.run_pipeline(module, "builtin.module(func.func(graph-matmul-reorder{size-hint=0}))")


def test_batched_and_rank1_products_are_left_alone() -> None:
    text = """
func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %c: tensor<2x5x6xf32>)
    -> tensor<2x3x6xf32> {
  %0 = graph.matmul %a, %b : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %1 = graph.matmul %0, %c : (tensor<2x3x5xf32>, tensor<2x5x6xf32>) -> tensor<2x3x6xf32>
  return %1 : tensor<2x3x6xf32>
}
"""
    module, ctx = parse_run(text)
    assert str(module) == str(mlc.parse(text)) and not ctx.space() and not module.remarks


# ---------------------------------------------------------------------------------------------
# Random chains under random orders, against the interpreter


class RandomOrder(KnobStore):
    """Answers every `order` knob with a seeded random index (the store sees no domain, so it
    draws from the full range and out-of-domain answers fall back to the default)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def get(self, key: str) -> object:
        if key.endswith("/order"):
            return random.Random(f"{self.seed}:{key}").randrange(num_orders(6))
        return None


@st.composite
def chains(draw: st.DrawFn) -> tuple[str, list[tuple[int, ...]]]:
    n = draw(st.integers(2, 6))
    dims = draw(st.lists(st.sampled_from([1, 2, 3, 5, 8]), min_size=n + 1, max_size=n + 1))
    params: list[tuple[int, ...]] = []
    lines: list[str] = []
    returned: list[tuple[str, tuple[int, int]]] = []
    counter = itertools.count()

    def ty(shape: tuple[int, ...]) -> str:
        return "tensor<" + "".join(f"{d}x" for d in shape) + "f64>"

    def new(text: str, shape: tuple[int, int]) -> str:
        name = f"%v{next(counter)}"
        lines.append(f"  {name} = {text}")
        return name

    def transpose(x: str, shape: tuple[int, int]) -> str:
        r, c = shape
        return new(
            f"graph.transpose {x} {{perm = array<i64: 1, 0>}} : ({ty((r, c))}) -> {ty((c, r))}",
            (c, r),
        )

    def expr(i: int, j: int, t: bool = False, flipped: bool = False) -> str:
        """The product of matrices i..j-1 (transposed when `t`)."""
        shape = (dims[j], dims[i]) if t else (dims[i], dims[j])
        if j - i == 1:
            if draw(st.booleans()):
                params.append((shape[1], shape[0]))
                return transpose(f"%arg{len(params) - 1}", (shape[1], shape[0]))
            params.append(shape)
            return f"%arg{len(params) - 1}"
        if not flipped and draw(st.integers(0, 3)) == 0:  # a transpose of the transposed product
            return transpose(expr(i, j, not t, True), (shape[1], shape[0]))
        k = draw(st.integers(i + 1, j - 1))
        if t:
            left, right = expr(k, j, True), expr(i, k, True)
            lt, rt = ty((dims[j], dims[k])), ty((dims[k], dims[i]))
        else:
            left, right = expr(i, k), expr(k, j)
            lt, rt = ty((dims[i], dims[k])), ty((dims[k], dims[j]))
        x = new(f"graph.matmul {left}, {right} : ({lt}, {rt}) -> {ty(shape)}", shape)
        wrap = draw(st.sampled_from(["none", "none", "scalar", "shared"]))
        if wrap == "scalar":
            params.append(())
            x = new(
                f"graph.mul {x}, %arg{len(params) - 1} : ({ty(shape)}, tensor<f64>) -> {ty(shape)}",
                shape,
            )  # noqa: E501
        elif wrap == "shared":
            returned.append((x, shape))
        return x

    root = expr(0, n)
    returned.append((root, (dims[0], dims[n])))
    sig = ", ".join(f"%arg{i}: {ty(s)}" for i, s in enumerate(params))
    rets = ", ".join(ty(s) for _, s in returned)
    text = (
        f"func.func @main({sig}) -> ({rets}) {{\n" + "\n".join(lines)
        + f"\n  return {', '.join(v for v, _ in returned)} : {rets}\n}}\n"
    )  # fmt: skip
    return text, params


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chains(), st.integers(0, 2**16))
def test_random_chains_random_orders_match_interpreter(chain: tuple, seed: int) -> None:
    text, params = chain
    rng = np.random.default_rng(seed)
    args = [rng.standard_normal(s) if s else np.array(rng.standard_normal()) for s in params]
    expected = run(mlc.parse(text), "main", *args)
    for knobs in (None, KnobContext(store=RandomOrder(seed))):
        module, ctx = parse_run(text, knobs)
        module.verify()
        for e, g in zip(expected, run(module.module, "main", *args)):
            np.testing.assert_allclose(g, e, rtol=1e-9, atol=1e-9)
        # The order used is the one the knob says, and the default is never worse.
        for rec in ctx.space():
            assert rec.domain.contains(rec.value)
        if knobs is None:
            module_flops = sum(2 * a[0] * a[1] * b[1] for a, b in matmuls(module))
            original_flops = sum(2 * a[0] * a[1] * b[1] for a, b in matmuls(mlc.parse(text)))
            assert module_flops <= original_flops


def _left_deep_chain(n: int) -> tuple[str, list[tuple[int, int]]]:
    """((a0 a1) a2) ... a(n-1) with small, varied dims."""
    dims = [(i * 7) % 5 + 2 for i in range(n + 1)]
    shapes = [(dims[i], dims[i + 1]) for i in range(n)]

    def ty(r: int, c: int) -> str:
        return f"tensor<{r}x{c}xf64>"

    args = ", ".join(f"%a{i}: {ty(*s)}" for i, s in enumerate(shapes))
    lines, v, vt = [], "%a0", ty(*shapes[0])
    for i in range(1, n):
        rt = ty(dims[0], dims[i + 1])
        lines.append(f"  %m{i} = graph.matmul {v}, %a{i} : ({vt}, {ty(*shapes[i])}) -> {rt}")
        v, vt = f"%m{i}", rt
    body = "\n".join(lines)
    return f"func.func @main({args}) -> {vt} {{\n{body}\n  return {v} : {vt}\n}}\n", shapes


def test_long_chain_is_cut_at_max_chain_length() -> None:
    text, shapes = _left_deep_chain(10)
    module = mlc.parse(text)
    pipeline = "builtin.module(func.func(graph-matmul-reorder{max-chain-length=4}))"
    with engine.capture() as diags:
        mlc.run_pipeline(module, pipeline)
    remarks = [d.message for d in diags if d.severity == "remark"]
    # 10 matrices in chains of at most 4: the root's chain (the cut value and 3 matrices),
    # then the cut chain, and so on: 4 + 3 + 3 factors with the cut values as leaves.
    assert len(remarks) == 3, remarks
    assert all(r.split("]")[0].count("x") <= 4 for r in remarks)
    rng = np.random.default_rng(1)
    args = [rng.standard_normal(s) for s in shapes]
    want = args[0]
    for a in args[1:]:
        want = want @ a
    np.testing.assert_allclose(run(module, "main", *args)[0], want, rtol=1e-9)
    with engine.capture(), pytest.raises(mlc.pass_manager.PassError, match="max-chain-length"):
        bad = "builtin.module(func.func(graph-matmul-reorder{max-chain-length=1}))"
        mlc.run_pipeline(mlc.parse(text), bad)


def test_very_long_chain_neither_recurses_nor_searches_cubically() -> None:
    # 1,500 matrices: one chain used to exceed the recursion limit (and an O(n^4) search).
    text, shapes = _left_deep_chain(1500)
    module = mlc.parse(text)
    with engine.capture() as diags:
        mlc.run_pipeline(module, PIPELINE)
    assert not [d for d in diags if d.severity == "error"]
    assert sum(1 for op in module.walk() if op.name == "graph.matmul") == 1499
    rng = np.random.default_rng(2)
    args = [rng.standard_normal(s) * 0.5 for s in shapes]
    want = args[0]
    for a in args[1:]:
        want = want @ a
    np.testing.assert_allclose(run(module, "main", *args)[0], want, rtol=1e-6)
