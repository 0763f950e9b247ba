"""tensor-fusion: elementwise tensor.generic producers fused into consumers, checked against the
reference interpreter on random graphs lowered by convert-graph-to-tensor."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_graph_fusion import SOFTMAX, assert_same, graphs, inputs

import mlc
from mlc.interp import run

LOWER = "builtin.module(func.func(graph-fusion,convert-graph-to-tensor))"


def generics(module: object) -> int:
    return sum(1 for op in module.walk() if op.name == "tensor.generic")  # type: ignore[attr-defined]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs(), st.integers(0, 2**16))
def test_random_graphs_match_interpreter(text: str, seed: int) -> None:
    args = inputs(seed)
    expected = run(mlc.parse(text), "main", *args)
    module = mlc.parse(text)
    mlc.run_pipeline(module, LOWER)
    before = generics(module)
    mlc.run_pipeline(module, "builtin.module(func.func(tensor-fusion))")
    assert generics(module) <= before
    assert_same(expected, run(module, "main", *args))


def test_softmax_kernel_loses_its_elementwise_nests() -> None:
    unfused = mlc.parse(SOFTMAX)
    mlc.run_pipeline(
        unfused, "builtin.module(func.func(graph-fusion,convert-graph-to-tensor{fuse-kernels=0}))"
    )
    module = mlc.parse(SOFTMAX)
    mlc.run_pipeline(module, LOWER)
    # Lowering the kernel fuses its generics: sub feeds exp (one use): fused; exp has two
    # users (sum and div): kept. A later tensor-fusion finds nothing more.
    assert generics(module) == generics(unfused) - 1
    mlc.run_pipeline(module, "builtin.module(func.func(tensor-fusion))")
    assert generics(module) == generics(unfused) - 1
    x = inputs(0)[0]
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(
        run(module, "main", x)[0], e / e.sum(axis=1, keepdims=True), rtol=1e-6
    )


def test_chain_through_a_transpose_collapses_into_the_reduction() -> None:
    text = """
func.func @main(%a: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = graph.exp %a : tensor<4x8xf32>
  %1 = graph.transpose %0 {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %2 = graph.neg %1 : tensor<8x4xf32>
  %3 = graph.reduce_sum %2 {axes = array<i64: 0>} : (tensor<8x4xf32>) -> tensor<4xf32>
  return %3 : tensor<4xf32>
}
"""
    module = mlc.parse(text)
    mlc.run_pipeline(
        module, "builtin.module(func.func(convert-graph-to-tensor,tensor-fusion,canonicalize))"
    )
    # One nest for the init fill, one for exp/transpose/neg/sum.
    assert generics(module) == 2
    a = inputs(1)[0]
    np.testing.assert_allclose(run(module, "main", a)[0], -np.exp(a).sum(axis=1), rtol=1e-6)


def test_producer_defining_a_loop_size_is_not_fused() -> None:
    # The broadcast is the only operand with the reduced dim (4): fusing it would leave the
    # reduction loop without a size (found by the derandomized CI run of the random test).
    text = """
func.func @main(%v: tensor<8xf32>) -> tensor<8xf32> {
  %b = graph.broadcast_to %v {shape = array<i64: 4, 8>} : (tensor<8xf32>) -> tensor<4x8xf32>
  %m = graph.reduce_mean %b {axes = array<i64: 0>} : (tensor<4x8xf32>) -> tensor<8xf32>
  return %m : tensor<8xf32>
}"""
    module = mlc.parse(text)
    mlc.run_pipeline(module, LOWER)
    before = generics(module)
    mlc.run_pipeline(module, "builtin.module(func.func(tensor-fusion))")
    module.verify()
    assert generics(module) == before
    v = np.arange(8, dtype=np.float32)
    assert_same(run(mlc.parse(text), "main", v), run(module, "main", v))


CHAIN = """
func.func @main(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = graph.exp %x : tensor<4x8xf32>
  %1 = graph.add %0, %y : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = graph.tanh %1 : tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}
"""


def test_kernel_generics_follow_the_graph_fusion_knobs() -> None:
    """convert-graph-to-tensor fuses exactly within each graph.fused kernel: with a producer's
    fuse knob off, its generic stays apart (the later generics still fuse with each other)."""
    module = mlc.parse(CHAIN)
    ctx = mlc.run_pipeline(module, LOWER)
    assert generics(module) == 1
    keys = {r.key.split("/")[1].split(":")[0]: r.key for r in ctx.space()}
    for cut, expected in (("graph.exp", 2), ("graph.add", 2)):
        module = mlc.parse(CHAIN)
        mlc.run_pipeline(module, LOWER, knobs={keys[cut]: False})
        assert generics(module) == expected, cut
        args = inputs(2)[:2]
        assert_same(run(mlc.parse(CHAIN), "main", *args), run(module, "main", *args))
    # Both off: three kernels, three generics; tensor-fusion alone would have fused them.
    module = mlc.parse(CHAIN)
    mlc.run_pipeline(module, LOWER, knobs={k: False for k in keys.values()})
    assert generics(module) == 3


TRANSPOSED = """
func.func @main(%a: tensor<8x4xf32>, %b: tensor<5x8xf32>, %c: tensor<2x8x3xf32>,
                %d: tensor<2x3x5xf32>) -> (tensor<4x5xf32>, tensor<2x5x8xf32>) {
  %ta = graph.transpose %a {perm = array<i64: 1, 0>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %tb = graph.transpose %b {perm = array<i64: 1, 0>} : (tensor<5x8xf32>) -> tensor<8x5xf32>
  %0 = graph.matmul %ta, %tb : (tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  %td = graph.transpose %d {perm = array<i64: 0, 2, 1>} : (tensor<2x3x5xf32>) -> tensor<2x5x3xf32>
  %tc = graph.transpose %c {perm = array<i64: 0, 2, 1>} : (tensor<2x8x3xf32>) -> tensor<2x3x8xf32>
  %1 = graph.matmul %td, %tc : (tensor<2x5x3xf32>, tensor<2x3x8xf32>) -> tensor<2x5x8xf32>
  return %0, %1 : tensor<4x5xf32>, tensor<2x5x8xf32>
}
"""


def test_transposed_matmul_operands_are_read_in_place() -> None:
    rng = np.random.default_rng(5)
    args = [
        rng.standard_normal(s).astype(np.float32) for s in ((8, 4), (5, 8), (2, 8, 3), (2, 3, 5))
    ]
    module = mlc.parse(TRANSPOSED)
    mlc.run_pipeline(module, "builtin.module(func.func(convert-graph-to-tensor,canonicalize))")
    # Two fills and two contractions: no transposed copies.
    assert generics(module) == 4
    expected = (args[0].T @ args[1].T, args[3].transpose(0, 2, 1) @ args[2].transpose(0, 2, 1))
    assert_same(expected, run(module, "main", *args))
    got = mlc.compile(TRANSPOSED).main(*args)
    assert_same(expected, got)
