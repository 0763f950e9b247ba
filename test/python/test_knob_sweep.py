"""Random legal knob configurations of `lower-to-cpu` on contraction, convolution, softmax,
layer-norm and elementwise programs: every configuration compiles and equals the interpreter.

The knob space is whatever the pipeline meets (fusion decisions, chain orders, micro-kernel
shapes and cache blocks, tiles, loop orders, unroll factors, vector widths, parallel loops,
LLVM options): it is recorded by a first run with default values, then each trial samples every
knob from its domain. Knobs met only under some decisions (sites created by an earlier choice)
keep their defaults in that trial, which is what `complete` gives an autotuner too.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import mlc
import mlc.interp
from mlc.knobs import KnobContext

PROGRAMS = {
    "matmul_bias_relu": """
func.func @main(%x: tensor<?x37xf32>, %w: tensor<37x29xf32>, %b: tensor<29xf32>) -> tensor<?x29xf32> {
  %m = graph.matmul %x, %w : (tensor<?x37xf32>, tensor<37x29xf32>) -> tensor<?x29xf32>
  %a = graph.add %m, %b : (tensor<?x29xf32>, tensor<29xf32>) -> tensor<?x29xf32>
  %r = graph.relu %a : tensor<?x29xf32>
  return %r : tensor<?x29xf32>
}""",
    "batch_matmul": """
func.func @main(%a: tensor<3x17x9xf32>, %b: tensor<3x9x13xf32>) -> tensor<3x17x13xf32> {
  %r = graph.matmul %a, %b : (tensor<3x17x9xf32>, tensor<3x9x13xf32>) -> tensor<3x17x13xf32>
  return %r : tensor<3x17x13xf32>
}""",
    "conv2d": """
func.func @main(%x: tensor<2x3x9x8xf32>, %w: tensor<5x3x3x3xf32>, %b: tensor<5xf32>) -> tensor<2x5x5x4xf32> {
  %r = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x3x9x8xf32>, tensor<5x3x3x3xf32>, tensor<5xf32>) -> tensor<2x5x5x4xf32>
  return %r : tensor<2x5x5x4xf32>
}""",
    "softmax": """
func.func @main(%x: tensor<?x33xf32>) -> tensor<?x33xf32> {
  %r = graph.softmax %x {axis = 1 : i64} : (tensor<?x33xf32>) -> tensor<?x33xf32>
  return %r : tensor<?x33xf32>
}""",
    "layernorm": """
func.func @main(%x: tensor<?x40xf32>, %g: tensor<40xf32>) -> tensor<?x40xf32> {
  %m = graph.reduce_mean %x {axes = array<i64: 1>, keepdims = true} : (tensor<?x40xf32>) -> tensor<?x1xf32>
  %d = graph.sub %x, %m : (tensor<?x40xf32>, tensor<?x1xf32>) -> tensor<?x40xf32>
  %s = graph.mul %d, %d : (tensor<?x40xf32>, tensor<?x40xf32>) -> tensor<?x40xf32>
  %v = graph.reduce_mean %s {axes = array<i64: 1>, keepdims = true} : (tensor<?x40xf32>) -> tensor<?x1xf32>
  %r = graph.rsqrt %v : tensor<?x1xf32>
  %n = graph.mul %d, %r : (tensor<?x40xf32>, tensor<?x1xf32>) -> tensor<?x40xf32>
  %y = graph.mul %n, %g : (tensor<?x40xf32>, tensor<40xf32>) -> tensor<?x40xf32>
  return %y : tensor<?x40xf32>
}""",
    "elementwise": """
func.func @main(%a: tensor<?x45xf32>, %b: tensor<?x45xf32>, %c: tensor<45xf32>) -> tensor<?x45xf32> {
  %e = graph.exp %a : tensor<?x45xf32>
  %m = graph.mul %e, %b : (tensor<?x45xf32>, tensor<?x45xf32>) -> tensor<?x45xf32>
  %d = graph.sub %c, %a : (tensor<45xf32>, tensor<?x45xf32>) -> tensor<?x45xf32>
  %r = graph.relu %d : tensor<?x45xf32>
  %y = graph.add %m, %r : (tensor<?x45xf32>, tensor<?x45xf32>) -> tensor<?x45xf32>
  return %y : tensor<?x45xf32>
}""",
}

TRIALS = 4


def _inputs(text: str, rng: np.random.Generator, dyn: int) -> list[np.ndarray]:
    module = mlc.parse(text)
    fn = next(iter(module.regions[0].blocks[0].ops))
    out = []
    for t in fn.get_attr("function_type").value.inputs:
        shape = tuple(dyn if d < 0 else d for d in t.shape)
        out.append(rng.standard_normal(shape).astype(np.float32))
    return out


def _space(text: str) -> list:
    ctx = KnobContext()
    mlc.compile(text, knobs=ctx, use_cache=False)
    return ctx.space()


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_random_knob_configurations_equal_interpreter(name: str) -> None:
    text = PROGRAMS[name]
    space = _space(text)
    rng = np.random.default_rng(7)
    pick = random.Random(f"{name}-sweep")
    for dyn in (1, 7):
        args = _inputs(text, rng, dyn)
        if name == "layernorm":
            args[0] = args[0] * 3 + 1
        (want,) = mlc.interp.run(mlc.parse(text), "main", *args)
        for trial in range(TRIALS):
            config = {r.key: r.domain.to_json_value(r.domain.sample(pick)) for r in space}
            compiled = mlc.compile(text, knobs=config)
            got = compiled.main(*args)
            np.testing.assert_allclose(
                got, want, rtol=2e-4, atol=2e-5, err_msg=f"{name} dyn={dyn} trial {trial}: {config}"
            )
