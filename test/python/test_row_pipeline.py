"""Row pipelining (affine-row-pipeline, run by affine-vectorize in lower-to-cpu): the output
pass of row r - 1 in chunks between those of row r's heaviest pass. Compiled kernels against
the interpreter for row counts around the chunk sizes, on one thread and on the pool, under
the knobs; where the default applies it."""

from __future__ import annotations

import numpy as np
import pytest

import mlc

SOFTMAX = """
func.func @main(%x: tensor<?x{cols}xf32>) -> tensor<?x{cols}xf32> {{
  %0 = graph.softmax %x {{axis = 1 : i64}} : (tensor<?x{cols}xf32>) -> tensor<?x{cols}xf32>
  return %0 : tensor<?x{cols}xf32>
}}
"""

LAYERNORM = """
func.func @main(%x: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %mean = graph.reduce_mean %x {axes = array<i64: 1>, keepdims = true}
      : (tensor<?x1024xf32>) -> tensor<?x1xf32>
  %d = graph.sub %x, %mean : (tensor<?x1024xf32>, tensor<?x1xf32>) -> tensor<?x1024xf32>
  %sq = graph.mul %d, %d : (tensor<?x1024xf32>, tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %var = graph.reduce_mean %sq {axes = array<i64: 1>, keepdims = true}
      : (tensor<?x1024xf32>) -> tensor<?x1xf32>
  %eps = graph.constant dense<1.0e-5> : tensor<f32>
  %ve = graph.add %var, %eps : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
  %r = graph.rsqrt %ve : tensor<?x1xf32>
  %y = graph.mul %d, %r : (tensor<?x1024xf32>, tensor<?x1xf32>) -> tensor<?x1024xf32>
  return %y : tensor<?x1024xf32>
}
"""

# Around the chunk sizes: one row, a chunk's first row alone, full chunks, one row past them.
ROWS = (1, 2, 3, 15, 16, 17, 33, 70, 129)


def _knobs(text: str, **values: object) -> tuple[dict[str, object], dict[str, object]]:
    """(the config setting `values` by knob name, the defaults of those knobs)."""
    space = mlc.run_pipeline(mlc.parse(text), "lower-to-cpu").space()
    config = {r.key: values[r.name] for r in space if r.name in values}
    defaults = {r.name: r.default for r in space if r.name in values}
    return config, defaults


def _check(text: str, rows: tuple[int, ...], knobs: dict, threads: int | None = None) -> None:
    compiled = mlc.compile(text, knobs=knobs, threads=threads)
    cols = int(text.split("tensor<?x")[1].split("xf32")[0])
    for n in rows:
        x = (np.random.default_rng(n).standard_normal((n, cols)) * 4).astype(np.float32)
        (want,) = mlc.interp.run(mlc.parse(text), "main", x)
        np.testing.assert_allclose(compiled.main(x), want, rtol=2e-5, atol=2e-6)


def test_off_by_default_and_asked_at_the_row_loop() -> None:
    """lower-to-cpu asks the knob at softmax's and layernorm's row loops, off by default (the
    standalone pass's `mode=heavy`, lit affine-row-pipeline.mlir, still picks heavy passes)."""
    for text in (SOFTMAX.format(cols=1024), LAYERNORM):
        _, defaults = _knobs(text, row_pipeline=0)
        assert defaults == {"row_pipeline": 0}


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("rows", [2, 4, 16, 64])
def test_softmax_pipelined_equals_interpreter(rows: int, threads: int) -> None:
    text = SOFTMAX.format(cols=1024)
    config, _ = _knobs(text, row_pipeline=rows)
    _check(text, ROWS, config, threads)


@pytest.mark.parametrize("columns", [32, 128, 256])
def test_softmax_column_chunks_equal_interpreter(columns: int) -> None:
    text = SOFTMAX.format(cols=1024)
    config, _ = _knobs(text, row_pipeline=8, row_pipeline_columns=columns)
    _check(text, (1, 9, 40), config)


def test_softmax_pipelined_into_strided_output() -> None:
    """An output at a 16-byte offset (NumPy's) takes the non-temporal stores, one that is not
    the stores through the caches: both right, in every chunk of the pool."""
    text = SOFTMAX.format(cols=1024)
    config, _ = _knobs(text, row_pipeline=4, nontemporal="always")
    compiled = mlc.compile(text, knobs=config)
    x = np.random.default_rng(5).standard_normal((37, 1024)).astype(np.float32)
    (want,) = mlc.interp.run(mlc.parse(text), "main", x)
    raw = np.empty(x.size + 16, np.float32)
    for skip in (0, 1):
        lead = (-raw.ctypes.data % 16) // 4 + skip
        out = raw[lead : lead + x.size].reshape(x.shape)
        compiled.main(x, out=out)
        np.testing.assert_allclose(out, want, rtol=2e-5, atol=2e-6)


def test_layernorm_pipelined_when_asked() -> None:
    config, _ = _knobs(LAYERNORM, row_pipeline=4)
    assert config  # the knob is asked: the pattern is there
    _check(LAYERNORM, (1, 5, 17), config, threads=2)


def test_pipelined_loop_structure() -> None:
    """With `row-pipeline=heavy`, softmax's exp pass is heavy enough: one parallel loop over
    chunks of 16 rows, a doubled row buffer, the scale pass in chunks of 64 columns inside the
    loop over the chunk's rows."""
    module = mlc.parse(SOFTMAX.format(cols=1024))
    mlc.run_pipeline(
        module,
        "builtin.module(graph-shape-inference,canonicalize,graph-fusion,cse,"
        "convert-graph-to-tensor,canonicalize,cse,bufferize,convert-tensor-to-affine,"
        "canonicalize,cse,affine-loop-fusion,affine-parallelize{threads-only=true},"
        "affine-vectorize{vector-bits=256 row-pipeline=heavy})",
    )
    text = str(module)
    assert text.count("affine.parallel") == 1 and ") step (16) {" in text
    assert "memref<2x1024xf32>" in text and "memref<1024xf32>" not in text
    assert "affine.for %arg5 = 0 to 1024 step 64 iter_args(" in text
    assert text.count("math.exp") == 4  # two vectors per iteration, prologue and steady rows


def test_rows_not_multiple_of_chunk_columns_left_alone() -> None:
    """1031 columns: the vectorized passes have remainder loops; not pipelined, right."""
    text = SOFTMAX.format(cols=1031)
    config, _ = _knobs(text, row_pipeline=4)
    _check(text, (1, 6), config)
    module = mlc.run_pipeline(mlc.parse(text), "lower-to-cpu")
    assert "2x1031" not in str(module)
