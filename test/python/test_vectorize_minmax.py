"""affine-vectorize's integer-key f32 maximumf/minimumf reductions (knob `int_minmax`): exact
against a reference of the ops' semantics (NaN if any element is NaN, -0 < +0) on rows full of
special values, at every width and accumulator count, lengths with and without a scalar
epilogue, and with the knob off."""

from __future__ import annotations

import numpy as np
import pytest

import mlc

ROWS = """
func.func @main(%x: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %max = graph.reduce_max %x {axes = array<i64: 1>} : (tensor<?x?xf32>) -> tensor<?xf32>
  %min = graph.reduce_min %x {axes = array<i64: 1>} : (tensor<?x?xf32>) -> tensor<?xf32>
  return %max, %min : tensor<?xf32>, tensor<?xf32>
}
"""

SPECIALS = np.array(
    [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, 1e-45, -1e-45, 3.4e38, -3.4e38, 0.5, -0.5],
    np.float32,
)
POS_NAN = np.array([0x7FC00000, 0x7F800001, 0x7FFFFFFF], np.uint32).view(np.float32)
NEG_NAN = np.array([0xFFC00000, 0xFF800001, 0xFFFFFFFF], np.uint32).view(np.float32)


def _reference(x: np.ndarray, largest: bool) -> np.ndarray:
    """maximumf/minimumf over each row: NaN if any NaN, else the extreme with -0 < +0."""
    out = np.empty(x.shape[0], np.float32)
    for i, row in enumerate(x):
        if np.isnan(row).any():
            out[i] = np.nan
            continue
        m = row.max() if largest else row.min()
        if m == 0:
            zeros = row[row == 0]
            pos = ~np.signbit(zeros)
            m = np.float32(0.0) if (pos.any() if largest else pos.all()) else np.float32(-0.0)
        out[i] = m
    return out


def _rows(cols: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((40, cols)).astype(np.float32)
    for i in range(1, 40):
        # Rows of one sign, rows of zeros of both signs, rows with NaNs of either sign.
        kind = i % 8
        if kind == 1:
            x[i] = -np.abs(x[i])
        elif kind == 2:
            x[i] = rng.choice([0.0, -0.0], cols).astype(np.float32)
        elif kind == 3:
            x[i] = -np.abs(x[i])
            x[i, rng.integers(cols)] = -0.0
        elif kind == 4:
            x[i] = rng.choice(SPECIALS, cols)
        elif kind == 5:
            x[i, rng.integers(cols)] = rng.choice(POS_NAN)
        elif kind == 6:
            x[i, rng.integers(cols)] = rng.choice(NEG_NAN)
        elif kind == 7:
            x[i] = rng.choice([np.inf, -np.inf], cols).astype(np.float32)
    return x


def _knobs(**values: object) -> dict:
    space = mlc.run_pipeline(mlc.parse(ROWS), "lower-to-cpu").space()
    out = {}
    for r in space:
        if r.pass_name == "affine-vectorize" and r.name in values:
            v = values[r.name]
            if r.name == "width":
                v = max(w for w in r.domain.values() if w <= v)
            out[r.key] = v
    return out


def _same(got: np.ndarray, want: np.ndarray) -> None:
    assert np.array_equal(np.isnan(got), np.isnan(want))
    ok = ~np.isnan(want)
    np.testing.assert_array_equal(got[ok], want[ok])
    np.testing.assert_array_equal(np.signbit(got[ok]), np.signbit(want[ok]))


def test_int_minmax_is_a_knob_on_f32_max_and_min_loops() -> None:
    space = mlc.run_pipeline(mlc.parse(ROWS), "lower-to-cpu").space()
    knobs = [r for r in space if r.name == "int_minmax"]
    assert len(knobs) == 2 and all(r.default is True for r in knobs)


@pytest.mark.parametrize("cols", [1, 3, 8, 13, 32, 64, 100, 1024])
@pytest.mark.parametrize("int_minmax", [True, False])
def test_exact_on_special_values(cols: int, int_minmax: bool) -> None:
    x = _rows(cols, cols)
    f = mlc.compile(ROWS, knobs=_knobs(int_minmax=int_minmax))
    got_max, got_min = f.main(x)
    _same(got_max, _reference(x, True))
    _same(got_min, _reference(x, False))


@pytest.mark.parametrize("width", [4, 8, 16])
@pytest.mark.parametrize("accumulators", [1, 2, 8])
def test_exact_at_every_width_and_accumulator_count(width: int, accumulators: int) -> None:
    x = _rows(77, width * 10 + accumulators)
    f = mlc.compile(ROWS, knobs=_knobs(width=width, accumulators=accumulators))
    got_max, got_min = f.main(x)
    _same(got_max, _reference(x, True))
    _same(got_min, _reference(x, False))


def test_ir_reduces_the_bits_as_integers() -> None:
    module = mlc.parse(ROWS)
    mlc.run_pipeline(
        module,
        "builtin.module(graph-shape-inference,canonicalize,convert-graph-to-tensor,canonicalize,"
        "cse,bufferize,convert-tensor-to-affine,canonicalize,cse,affine-vectorize,canonicalize)",
    )
    text = str(module)
    for op in ("arith.maxsi", "arith.minui", "arith.maxui", "arith.minsi"):
        assert f"{op} %" in text
    assert "xi32>" in text
    assert "arith.maximumf %" in text and "arith.minimumf %" in text  # the initial values
    assert "vector.reduction <maximumf>" not in text
