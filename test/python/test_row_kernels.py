"""Softmax, layernorm and row reductions: compiled (lower-to-cpu) against the interpreter on
odd, short and dynamic rows, under the accumulators/width/reciprocal knobs, and the loop
structure that keeps them at memory bandwidth (one parallel row loop, per-row buffers)."""

from __future__ import annotations

import numpy as np
import pytest

import mlc
from mlc.ir.core import Operation

SOFTMAX = """
func.func @main(%x: tensor<{shape}xf32>) -> tensor<{shape}xf32> {{
  %0 = graph.softmax %x {{axis = {axis} : i64}} : (tensor<{shape}xf32>) -> tensor<{shape}xf32>
  return %0 : tensor<{shape}xf32>
}}
"""

LAYERNORM = """
func.func @main(%x: tensor<{shape}xf32>) -> tensor<{shape}xf32> {{
  %mean = graph.reduce_mean %x {{axes = array<i64: 1>, keepdims = true}}
      : (tensor<{shape}xf32>) -> tensor<{keep}xf32>
  %d = graph.sub %x, %mean : (tensor<{shape}xf32>, tensor<{keep}xf32>) -> tensor<{shape}xf32>
  %sq = graph.mul %d, %d : (tensor<{shape}xf32>, tensor<{shape}xf32>) -> tensor<{shape}xf32>
  %var = graph.reduce_mean %sq {{axes = array<i64: 1>, keepdims = true}}
      : (tensor<{shape}xf32>) -> tensor<{keep}xf32>
  %eps = graph.constant dense<1.0e-5> : tensor<f32>
  %ve = graph.add %var, %eps : (tensor<{keep}xf32>, tensor<f32>) -> tensor<{keep}xf32>
  %r = graph.rsqrt %ve : tensor<{keep}xf32>
  %y = graph.mul %d, %r : (tensor<{shape}xf32>, tensor<{keep}xf32>) -> tensor<{shape}xf32>
  return %y : tensor<{shape}xf32>
}}
"""

REDUCE = """
func.func @main(%x: tensor<{shape}xf32>) -> tensor<{rows}xf32> {{
  %0 = graph.{op} %x {{axes = array<i64: 1>}} : (tensor<{shape}xf32>) -> tensor<{rows}xf32>
  return %0 : tensor<{rows}xf32>
}}
"""

# Row lengths: shorter than a vector, odd, one past a multiple of 4 x 16 lanes, long.
COLS = (1, 3, 7, 16, 17, 33, 65, 100, 1031)


def _softmax(cols: int | str, axis: int = 1) -> str:
    return SOFTMAX.format(shape=f"?x{cols}", axis=axis)


def _layernorm(cols: int | str) -> str:
    return LAYERNORM.format(shape=f"?x{cols}", keep="?x1")


def _vectorize_config(text: str, **values: object) -> dict[str, object]:
    space = mlc.run_pipeline(mlc.parse(text), "lower-to-cpu").space()
    return {
        r.key: values[r.name]
        for r in space
        if r.pass_name == "affine-vectorize" and r.name in values
    }


def _check(text: str, x: np.ndarray, knobs: dict | None = None, rtol: float = 2e-5) -> None:
    (want,) = mlc.interp.run(mlc.parse(text), "main", x)
    got = mlc.compile(text, knobs=knobs).main(x)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=2e-6)


@pytest.mark.parametrize("cols", COLS)
def test_softmax_rows_equal_interpreter(cols: int) -> None:
    rng = np.random.default_rng(cols)
    text = _softmax(cols)
    for rows in (1, 5):
        x = (rng.standard_normal((rows, cols)) * 4).astype(np.float32)
        _check(text, x)


@pytest.mark.parametrize("cols", COLS)
def test_layernorm_rows_equal_interpreter(cols: int) -> None:
    rng = np.random.default_rng(100 + cols)
    text = _layernorm(cols)
    for rows in (1, 6):
        x = (rng.standard_normal((rows, cols)) * 3 + 1).astype(np.float32)
        _check(text, x, rtol=1e-4)


@pytest.mark.parametrize("op", ["reduce_sum", "reduce_max", "reduce_min"])
def test_row_reductions_every_accumulator_count(op: str) -> None:
    text = REDUCE.format(shape="?x?", rows="?", op=op)
    rng = np.random.default_rng(3)
    for k in (1, 2, 4, 8):
        for width in (4, 8, 16):
            knobs = _vectorize_config(text, accumulators=k, width=width)
            compiled = mlc.compile(text, knobs=knobs)
            for cols in (5, 64, 129, 200):
                x = rng.standard_normal((3, cols)).astype(np.float32)
                (want,) = mlc.interp.run(mlc.parse(text), "main", x)
                np.testing.assert_allclose(compiled.main(x), want, rtol=2e-5, atol=2e-5)


def test_row_max_is_exact_with_nan_and_signed_zeros() -> None:
    """maximumf reassociates exactly: NaN anywhere in a row wins, +0 beats -0, whatever the
    partial-result vector that holds it."""
    text = REDUCE.format(shape="?x?", rows="?", op="reduce_max")
    x = np.full((4, 131), -1.0, np.float32)
    x[0, 97] = np.nan
    x[1, :] = -0.0
    x[1, 70] = 0.0
    x[2, :] = -0.0
    x[3, 130] = 5.0
    for k in (1, 4, 8):
        got = mlc.compile(text, knobs=_vectorize_config(text, accumulators=k)).main(x)
        assert np.isnan(got[0])
        assert got[1] == 0.0 and not np.signbit(got[1])
        assert got[2] == 0.0 and np.signbit(got[2])
        assert got[3] == 5.0


def test_softmax_knobs_and_dynamic_columns() -> None:
    text = _softmax("?")
    rng = np.random.default_rng(9)
    space = mlc.run_pipeline(mlc.parse(text), "lower-to-cpu").space()
    (recip,) = [r for r in space if r.name == "reciprocal"]
    assert recip.pass_name == "convert-graph-to-tensor" and recip.default is True
    for config in (
        None,
        {recip.key: False},
        _vectorize_config(text, width=4, accumulators=8),
        _vectorize_config(text, width=16, accumulators=2),
    ):
        for cols in (2, 15, 300):
            x = (rng.standard_normal((3, cols)) * 5).astype(np.float32)
            _check(text, x, config)


def test_softmax_axis_zero() -> None:
    text = SOFTMAX.format(shape="37x?", axis=0)
    x = np.random.default_rng(4).standard_normal((37, 9)).astype(np.float32)
    _check(text, x)


def test_softmax_reciprocal_is_one_divide_per_row() -> None:
    text = _softmax(1024)
    pipeline = (
        "builtin.module(graph-shape-inference,canonicalize,graph-fusion,cse,"
        "convert-graph-to-tensor,canonicalize,cse,bufferize,convert-tensor-to-affine,"
        "canonicalize,cse,affine-loop-fusion,"
        # runtime-min-work=0: no serial version of the row loop for small batches
        "affine-parallelize{threads-only=true runtime-min-work=0},"
        "affine-vectorize{vector-bits=256},canonicalize,cse)"
    )
    module = mlc.parse(text)
    mlc.run_pipeline(module, pipeline)
    divs = [op for op in module.walk() if op.name == "arith.divf"]
    # a scalar divide; two with the rows pipelined (the chunk's first row, then each next one)
    assert len(divs) in (1, 2) and all(str(d.results[0].type) == "f32" for d in divs)
    (row_loop,) = [op for op in module.walk() if op.name == "affine.parallel"]
    # the divide runs once per row: in the row loop's body (or in the loop over the rows of
    # a pipelined chunk, whose bounds are not constants), outside every loop over columns
    for d in divs:
        parent = d.parent_op
        assert parent is row_loop or (
            parent.parent_op is row_loop and parent.constant_upper_bound() is None
        )


def _lowered_structure(text: str) -> Operation:
    module = mlc.parse(text)
    mlc.run_pipeline(
        module,
        "builtin.module(graph-shape-inference,canonicalize,graph-fusion,cse,"
        "convert-graph-to-tensor,canonicalize,cse,bufferize,convert-tensor-to-affine,"
        "canonicalize,cse,affine-loop-fusion,"
        # runtime-min-work=0: the row loop is not versioned on the (dynamic) row count
        "affine-parallelize{threads-only=true runtime-min-work=0})",
    )
    return module


@pytest.mark.parametrize("kernel", ["softmax", "layernorm"])
def test_one_parallel_row_loop_and_per_row_buffers(kernel: str) -> None:
    """The whole kernel is one thread-pool loop over the rows; its intermediates are at most a
    row long, allocated inside that loop (no full-size temporary)."""
    text = _softmax(1024) if kernel == "softmax" else _layernorm(1024)
    module = _lowered_structure(text)
    func = module.regions[0].blocks[0].first
    body = [op.name for op in func.regions[0].blocks[0]]
    assert body.count("affine.parallel") == 1 and "affine.for" not in body
    (row_loop,) = [op for op in module.walk() if op.name == "affine.parallel"]
    assert row_loop.get_attr("mlc.parallel") is not None
    for alloc in [op for op in module.walk() if op.name == "memref.alloc"]:
        assert alloc.parent_op is row_loop
        assert list(alloc.results[0].type.shape) == [1024]


ELEMENTWISE = """
func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = graph.exp %a : tensor<?xf32>
  %1 = graph.mul %0, %b : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %1 : tensor<?xf32>
}
"""


def _nontemporal_config(text: str, mode: str) -> dict[str, object]:
    space = mlc.run_pipeline(mlc.parse(text), "lower-to-cpu").space()
    keys = [r.key for r in space if r.name == "nontemporal"]
    assert keys, "no nontemporal knob asked"
    return dict.fromkeys(keys, mode)


def _outputs(shape: tuple[int, ...]) -> list[np.ndarray]:
    """Output buffers at every 4-byte offset from a 64-byte boundary: the non-temporal
    version runs for the 16-byte-aligned ones, the other version for the rest."""
    n = int(np.prod(shape))
    outs = []
    for skip in range(4):
        raw = np.empty(n + 32, np.float32)
        lead = (-raw.ctypes.data % 64) // 4 + skip
        outs.append(raw[lead : lead + n].reshape(shape))
    return outs


@pytest.mark.parametrize("kernel", ["softmax", "layernorm", "elementwise"])
@pytest.mark.parametrize("mode", ["always", "large"])
def test_nontemporal_outputs_equal_interpreter(kernel: str, mode: str) -> None:
    # `always` takes the non-temporal version whenever the output is aligned; `large` only
    # from the default threshold on (half the L3), so these sizes run the other version.
    rng = np.random.default_rng(7)
    if kernel == "elementwise":
        text = ELEMENTWISE
        cases = [(rng.standard_normal(n).astype(np.float32),) for n in (5, 1000, 300_001)]
    else:
        text = _softmax(1024) if kernel == "softmax" else _layernorm(1024)
        cases = [(rng.standard_normal((rows, 1024)).astype(np.float32),) for rows in (1, 3, 70)]
    compiled = mlc.compile(text, knobs=_nontemporal_config(text, mode))
    ir = compiled.jit.llvm_ir_optimized
    assert "!nontemporal" in ir and "llvm.x86.sse.sfence" in ir
    for args in cases:
        if kernel == "elementwise":
            args = (args[0], args[0][::-1].copy())
        (want,) = mlc.interp.run(mlc.parse(text), "main", *args)
        for out in _outputs(want.shape):
            compiled.main(*args, out=out)
            np.testing.assert_allclose(out, want, rtol=2e-5, atol=2e-6)
