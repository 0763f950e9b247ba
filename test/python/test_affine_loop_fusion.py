"""affine-loop-fusion: loop-nest counts of fused kernels (softmax, an MLP layer), numerics of the
fused loops (the test executor of test_bufferize.py, and compiled code) against the reference
interpreter, under default and random fuse/privatize knobs."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_bufferize import run_buffers
from test_graph_fusion import EPILOGUE, SOFTMAX, assert_same, graphs, inputs

import mlc
from mlc.interp import run
from mlc.ir.core import Operation
from mlc.knobs import KnobContext, KnobStore

TO_AFFINE = (
    "builtin.module(graph-shape-inference,canonicalize,graph-fusion,cse,"
    "convert-graph-to-tensor,canonicalize,cse,bufferize,convert-tensor-to-affine,canonicalize,cse"
)


def to_affine(text: str, fusion: str = "affine-loop-fusion", knobs: object = None) -> Operation:
    module = mlc.parse(text)
    tail = f",func.func({fusion}),canonicalize,cse)" if fusion else ")"
    mlc.run_pipeline(module, TO_AFFINE + tail, knobs=knobs)
    mlc.verify(module)
    return module


def top_loops(module: Operation) -> list[Operation]:
    func = next(op for op in module.walk() if op.name == "func.func")
    return [op for op in func.regions[0].blocks[0] if op.name == "affine.for"]


class RandomBools(KnobStore):
    """Every bool knob (graph-fusion's and affine-loop-fusion's) answered by a seeded coin."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def get(self, key: str) -> object:
        if key.endswith(("/fuse", "/privatize")):
            return random.Random(f"{self.seed}:{key}").random() < 0.5
        return None


def softmax_ref(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def test_softmax_kernel_is_one_loop_nest() -> None:
    unfused = to_affine(SOFTMAX, fusion="")
    assert len(top_loops(unfused)) == 6  # two fills; the max, exp, sum and div rows
    module = to_affine(SOFTMAX, fusion="affine-loop-fusion{private-min-bytes=0}")
    (row,) = top_loops(module)
    inner = [op.name for op in row.body_block]
    # max (loop-carried), exp+sum (fused, loop-carried sum), div; the exp row is private.
    assert inner.count("affine.for") == 3
    assert "memref.alloc" in inner and "memref.dealloc" in inner
    assert sum(1 for op in row.walk() if op.name == "affine.for" and op.results) == 2
    x = inputs(0)[0]
    np.testing.assert_allclose(run_buffers(module, "main", [x])[0], softmax_ref(x), rtol=1e-6)


def test_softmax_fused_and_compiled() -> None:
    f = mlc.compile(SOFTMAX)
    x = inputs(3)[0]
    np.testing.assert_allclose(f.main(x), softmax_ref(x), rtol=1e-5, atol=1e-7)


def test_mlp_layer_epilogue_is_one_generic() -> None:
    """matmul + bias + relu + residual: one contraction and one fused elementwise epilogue."""
    module = mlc.parse(EPILOGUE)
    mlc.run_pipeline(
        module,
        "builtin.module(graph-shape-inference,canonicalize,graph-fusion,cse,"
        "convert-graph-to-tensor,canonicalize,cse)",
    )
    generics = [op for op in module.walk() if op.name == "tensor.generic"]
    # relu prologue, zero fill, contraction, and broadcast-add-relu-add as one generic.
    assert len(generics) == 4
    body = [op.name for op in generics[-1].regions[0].blocks[0]]
    assert body.count("arith.addf") == 2 and "arith.maximumf" in body
    args = [a.astype(np.float32) for a in (inputs(4)[0], inputs(5)[4], inputs(6)[3], inputs(7)[0])]
    assert_same(run(mlc.parse(EPILOGUE), "main", *args), run(module, "main", *args))


def test_illegal_and_unknown_nests_are_kept_apart() -> None:
    text = """
func.func @main(%a: memref<9xf32>, %b: memref<8xf32>) {
  %t = memref.alloc() : memref<9xf32>
  affine.for %i = 0 to 9 {
    %0 = affine.load %a[%i] : memref<9xf32>
    %1 = arith.negf %0 : f32
    affine.store %1, %t[%i] : memref<9xf32>
  }
  affine.for %i = 0 to 8 {
    %0 = affine.load %t[%i + 1] : memref<9xf32>
    affine.store %0, %b[%i] : memref<8xf32>
  }
  memref.dealloc %t : memref<9xf32>
  return
}"""
    module = mlc.parse(text)
    mlc.run_pipeline(module, "builtin.module(func.func(affine-loop-fusion))")
    assert len(top_loops(module)) == 2


def test_shifted_consumer_with_equal_bounds_is_not_fused() -> None:
    # Same bounds, but iteration i reads what iteration i + 1 of the producer writes.
    text = """
func.func @main(%a: memref<8xf32>, %b: memref<8xf32>) attributes {mlc.result_shapes = []} {
  %t = memref.alloc() : memref<9xf32>
  %z = arith.constant 0.0 : f32
  affine.store %z, %t[0] : memref<9xf32>
  affine.for %i = 0 to 8 {
    %0 = affine.load %a[%i] : memref<8xf32>
    affine.store %0, %t[%i + 1] : memref<9xf32>
  }
  affine.for %i = 0 to 8 {
    %0 = affine.load %t[%i + 1] : memref<9xf32>
    %1 = affine.load %t[%i] : memref<9xf32>
    %2 = arith.addf %0, %1 : f32
    affine.store %2, %b[%i] : memref<8xf32>
  }
  memref.dealloc %t : memref<9xf32>
  return
}"""
    module = mlc.parse(text)
    mlc.run_pipeline(module, "builtin.module(func.func(affine-loop-fusion))")
    assert len(top_loops(module)) == 2


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs(), st.integers(0, 2**16))
def test_random_graphs_fused_loops_match_interpreter(text: str, seed: int) -> None:
    """Random graphs under random graph-fusion and affine-loop-fusion knobs, run by the
    buffer-level executor after fusion (with scalar promotion and private buffers forced on
    by `private-min-bytes=0` where the knob says so)."""
    args = inputs(seed)
    expected = run(mlc.parse(text), "main", *args)
    for knobs in (None, KnobContext(store=RandomBools(seed))):
        module = to_affine(text, "affine-loop-fusion{private-min-bytes=0}", knobs)
        assert_same(expected, tuple(run_buffers(module, "main", list(args))))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs(), st.integers(0, 2**16))
def test_random_graphs_compiled_match_interpreter(text: str, seed: int) -> None:
    args = inputs(seed)
    expected = run(mlc.parse(text), "main", *args)
    compiled = mlc.compile(text, knobs=KnobContext(store=RandomBools(seed)))
    got = compiled.main(*args)
    assert_same(expected, got if isinstance(got, tuple) else (got,))
