"""affine-vectorize: compiled (lower-to-cpu, every width) against the interpreter, and its knobs."""

from __future__ import annotations

import numpy as np
import pytest
from mlc.passes.affine_vectorize import host_vector_bits

import mlc

ELEMENTWISE = """
func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>, %c: tensor<?xf32>) -> tensor<?xf32> {
  %s = graph.constant dense<2.5> : tensor<f32>
  %0 = graph.mul %s, %b : (tensor<f32>, tensor<?xf32>) -> tensor<?xf32>
  %1 = graph.add %a, %0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %2 = graph.mul %1, %c : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %3 = graph.exp %a : tensor<?xf32>
  %4 = graph.sub %c, %a : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %5 = graph.relu %4 : tensor<?xf32>
  %6 = graph.mul %3, %b : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %7 = graph.add %6, %5 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %8 = graph.add %2, %7 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %8 : tensor<?xf32>
}
"""

ROWS = """
func.func @main(%x: tensor<?x?xf32>)
    -> (tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32>) {
  %sm = graph.softmax %x {axis = 1 : i64} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %sum = graph.reduce_sum %x {axes = array<i64: 1>} : (tensor<?x?xf32>) -> tensor<?xf32>
  %max = graph.reduce_max %x {axes = array<i64: 1>} : (tensor<?x?xf32>) -> tensor<?xf32>
  %mean = graph.reduce_mean %x {axes = array<i64: 1>, keepdims = true}
      : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %d = graph.sub %x, %mean : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  %sq = graph.mul %d, %d : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %var = graph.reduce_mean %sq {axes = array<i64: 1>, keepdims = true}
      : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %eps = graph.constant dense<1.0e-5> : tensor<f32>
  %ve = graph.add %var, %eps : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
  %r = graph.rsqrt %ve : tensor<?x1xf32>
  %ln = graph.mul %d, %r : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  return %sm, %sum, %max, %ln : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32>
}
"""

INTEGER = """
func.func @main(%x: tensor<?x?xi32>, %y: tensor<?x?xi64>)
    -> (tensor<?xi32>, tensor<?xi32>, tensor<?x?xi64>) {
  %s = graph.reduce_sum %x {axes = array<i64: 1>} : (tensor<?x?xi32>) -> tensor<?xi32>
  %m = graph.reduce_min %x {axes = array<i64: 1>} : (tensor<?x?xi32>) -> tensor<?xi32>
  %p = graph.mul %y, %y : (tensor<?x?xi64>, tensor<?x?xi64>) -> tensor<?x?xi64>
  return %s, %m, %p : tensor<?xi32>, tensor<?xi32>, tensor<?x?xi64>
}
"""

STATIC_F64 = """
func.func @main(%x: tensor<5x13xf64>, %b: tensor<13xf64>) -> (tensor<5x13xf64>, tensor<5xf64>) {
  %0 = graph.add %x, %b : (tensor<5x13xf64>, tensor<13xf64>) -> tensor<5x13xf64>
  %1 = graph.tanh %0 : tensor<5x13xf64>
  %2 = graph.reduce_sum %1 {axes = array<i64: 1>} : (tensor<5x13xf64>) -> tensor<5xf64>
  return %1, %2 : tensor<5x13xf64>, tensor<5xf64>
}
"""


def _width_space(text: str) -> list:
    """The affine-vectorize `width` knobs that lower-to-cpu meets for `text`."""
    knobs = mlc.run_pipeline(mlc.parse(text), "lower-to-cpu")
    return [r for r in knobs.space() if r.pass_name == "affine-vectorize" and r.name == "width"]


def _config(text: str, lanes: int) -> dict:
    """Every width knob set to `lanes` (or the largest lane count its domain has below it)."""
    out = {}
    for r in _width_space(text):
        out[r.key] = max(v for v in r.domain.values() if v <= lanes)
    return out


def _check(text: str, inputs: list[np.ndarray], knobs: dict | None, rtol: float = 2e-5) -> None:
    got = mlc.compile(text, knobs=knobs).main(*inputs)
    want = mlc.interp.run(mlc.parse(text), "main", *inputs)
    got = got if isinstance(got, tuple) else (got,)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        if w.dtype.kind == "f":
            np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol)
        else:
            np.testing.assert_array_equal(g, w)


def test_widths_are_knobs_with_the_f32_domain() -> None:
    space = _width_space(ELEMENTWISE)
    assert space, "the elementwise loop must be a vectorization site"
    for r in space:
        # The default fills the host's widest vector register (512 bits with AVX-512).
        assert list(r.domain.values()) == [1, 4, 8, 16]
        assert r.default == host_vector_bits() // 32
        assert r.key.endswith("/width") and "affine.for" in r.key


@pytest.mark.parametrize("lanes", [1, 4, 8, 16])
def test_elementwise_every_width_and_size(lanes: int) -> None:
    rng = np.random.default_rng(lanes)
    config = _config(ELEMENTWISE, lanes)
    for n in (0, 1, 3, 7, 8, 9, 16, 17, 1000, 2051):
        a, b, c = (rng.standard_normal(n).astype(np.float32) for _ in range(3))
        _check(ELEMENTWISE, [a, b, c], config)


@pytest.mark.parametrize("lanes", [1, 4, 8, 16])
def test_row_reductions_softmax_layernorm(lanes: int) -> None:
    rng = np.random.default_rng(10 + lanes)
    config = _config(ROWS, lanes)
    for shape in ((1, 1), (3, 5), (4, 8), (2, 33), (7, 100)):
        x = rng.standard_normal(shape).astype(np.float32)
        _check(ROWS, [x], config, rtol=1e-4)


@pytest.mark.parametrize("lanes", [1, 4, 8, 16])
def test_integer_reductions_are_exact(lanes: int) -> None:
    rng = np.random.default_rng(20 + lanes)
    config = _config(INTEGER, lanes)
    for shape in ((1, 1), (3, 7), (2, 64), (5, 33)):
        x = rng.integers(-1000, 1000, shape).astype(np.int32)
        y = rng.integers(-1000, 1000, shape).astype(np.int64)
        _check(INTEGER, [x, y], config)


def test_static_f64_with_remainder_and_reduction() -> None:
    space = _width_space(STATIC_F64)
    assert space and all(list(r.domain.values()) == [1, 2, 4, 8] for r in space)
    rng = np.random.default_rng(3)
    x, b = rng.standard_normal((5, 13)), rng.standard_normal(13)
    for lanes in (1, 2, 4, 8):
        _check(STATIC_F64, [x, b], {r.key: lanes for r in space}, rtol=1e-12)


def test_max_reduction_propagates_nan_and_signed_zero() -> None:
    x = np.full((3, 20), -1.0, np.float32)
    x[0, 11] = np.nan
    x[1, :] = -0.0
    x[1, 17] = 0.0
    x[2, :] = -np.inf
    got = mlc.compile(ROWS).main(x)[2]
    assert np.isnan(got[0])
    assert got[1] == 0.0 and not np.signbit(got[1])
    assert got[2] == -np.inf


AFFINE = (
    "builtin.module(graph-shape-inference,canonicalize,graph-fusion,convert-graph-to-tensor,"
    "canonicalize,cse,bufferize,convert-tensor-to-affine,canonicalize,cse,"
    "affine-vectorize,canonicalize,cse)"
)


def _lowered_affine(text: str, knobs: dict | None = None) -> str:
    module = mlc.parse(text)
    mlc.run_pipeline(module, AFFINE, knobs)
    return str(module)


def test_reassoc_knob_keeps_float_sums_scalar_but_not_max() -> None:
    text = ROWS
    knobs = mlc.run_pipeline(mlc.parse(text), AFFINE)
    reassoc = [r for r in knobs.space() if r.name == "reassoc"]
    assert reassoc and all(r.default is True for r in reassoc)
    before = _lowered_affine(text)
    after = _lowered_affine(text, {r.key: False for r in reassoc})
    assert "vector.reduction <add>" in before and "vector.reduction <add>" not in after
    # The max is still vectorized (on its f32 bits as integers, knob int_minmax).
    assert "vector.reduction <maxsi>" in after
    lowered = mlc.run_pipeline(mlc.parse(text), "lower-to-cpu").space()
    config = {r.key: False for r in lowered if r.name == "reassoc"}
    x = np.random.default_rng(0).standard_normal((6, 77)).astype(np.float32)
    _check(text, [x], config, rtol=1e-4)


def test_option_reassoc_false_and_width_option() -> None:
    module = mlc.parse(ROWS)
    mlc.run_pipeline(
        module,
        "builtin.module(graph-shape-inference,canonicalize,convert-graph-to-tensor,canonicalize,"
        "bufferize,convert-tensor-to-affine,canonicalize,"
        "func.func(affine-vectorize{reassoc=false virtual-vector-size=4}))",
    )
    text = str(module)
    assert "vector.reduction <add>" not in text
    assert "vector<4xf32>" in text and "vector<8xf32>" not in text


def test_out_of_domain_width_is_an_error_naming_the_knob() -> None:
    from mlc.pass_manager import PassError

    key = _width_space(ELEMENTWISE)[0].key
    with pytest.raises(
        PassError, match=r"knob '.*/width' is outside its domain choice\[1, 4, 8, 16\]"
    ):
        mlc.compile(ELEMENTWISE, knobs={key: 3})


def test_bad_virtual_vector_size_is_a_pass_error() -> None:
    from mlc.pass_manager import PassError

    with pytest.raises(PassError, match="virtual-vector-size must be 0 or a power of two"):
        mlc.run_pipeline(
            mlc.parse(ELEMENTWISE), "func.func(affine-vectorize{virtual-vector-size=6})"
        )


def test_unaligned_numpy_views_are_handled() -> None:
    # Inputs offset by one float from an aligned buffer: the vector accesses are unaligned.
    rng = np.random.default_rng(5)
    n = 1001
    raw = [rng.standard_normal(n + 1).astype(np.float32) for _ in range(3)]
    a, b, c = (np.ascontiguousarray(r)[1:] for r in raw)
    assert a.ctypes.data % 32 != 0
    _check(ELEMENTWISE, [a, b, c], None)


SOFTMAX_LAYERNORM_1024 = """
func.func @main(%x: tensor<?x1024xf32>) -> (tensor<?x1024xf32>, tensor<?x1024xf32>) {
  %sm = graph.softmax %x {axis = 1 : i64} : (tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %mean = graph.reduce_mean %x {axes = array<i64: 1>, keepdims = true}
      : (tensor<?x1024xf32>) -> tensor<?x1xf32>
  %d = graph.sub %x, %mean : (tensor<?x1024xf32>, tensor<?x1xf32>) -> tensor<?x1024xf32>
  %sq = graph.mul %d, %d : (tensor<?x1024xf32>, tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %var = graph.reduce_mean %sq {axes = array<i64: 1>, keepdims = true}
      : (tensor<?x1024xf32>) -> tensor<?x1xf32>
  %eps = graph.constant dense<1.0e-5> : tensor<f32>
  %ve = graph.add %var, %eps : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
  %r = graph.rsqrt %ve : tensor<?x1xf32>
  %ln = graph.mul %d, %r : (tensor<?x1024xf32>, tensor<?x1xf32>) -> tensor<?x1024xf32>
  return %sm, %ln : tensor<?x1024xf32>, tensor<?x1024xf32>
}
"""


def test_row_kernels_prefetch_next_row_and_match_the_interpreter() -> None:
    """softmax and layernorm rows (one fused row loop with several passes over x) get
    prefetches of the next row of x and of the output rows; results equal the interpreter's
    with and without them, for one row (the prefetch of the row after the last points past
    the buffer: a hint, no fault)."""
    knobs = mlc.run_pipeline(mlc.parse(SOFTMAX_LAYERNORM_1024), "lower-to-cpu")
    records = [r for r in knobs.space() if r.name == "prefetch"]
    # one row loop (the thread-pool loop; below its run-time trip-count test the caller runs
    # the same body)
    assert len(records) == 1 and all(r.default is True for r in records)
    on = mlc.compile(SOFTMAX_LAYERNORM_1024)
    assert on.llvm_ir.count("@llvm.prefetch.p0(") >= 4
    off_config = {r.key: False for r in records}
    off = mlc.compile(SOFTMAX_LAYERNORM_1024, knobs=off_config)
    assert "@llvm.prefetch" not in off.llvm_ir
    rng = np.random.default_rng(5)
    (min_trips,) = [r.default for r in knobs.space() if r.name == "min-trips"]
    for rows in (1, 2, 7, min_trips + 1):  # the calling thread, then the thread pool
        x = (3 * rng.standard_normal((rows, 1024))).astype(np.float32)
        _check(SOFTMAX_LAYERNORM_1024, [x], None, rtol=1e-4)
        _check(SOFTMAX_LAYERNORM_1024, [x], off_config, rtol=1e-4)


def test_prefetch_distance_knob_rows_ahead_and_numerics() -> None:
    """`prefetch_distance` (1, 2, 4; default 2) at the row loop: the read prefetches fetch the
    row that many ahead (the write prefetches stay on the current output row); results equal
    the interpreter's for each distance, with rows fewer than the distance (prefetches past
    the buffer: hints, no fault) and on the thread pool."""
    knobs = mlc.run_pipeline(mlc.parse(SOFTMAX_LAYERNORM_1024), "lower-to-cpu")
    (rec,) = [r for r in knobs.space() if r.name == "prefetch_distance"]
    assert rec.default == 2 and list(rec.domain.values()) == [1, 2, 4]
    (min_trips,) = [r.default for r in knobs.space() if r.name == "min-trips"]
    rng = np.random.default_rng(8)
    for distance in (1, 2, 4):
        module = mlc.parse(SOFTMAX_LAYERNORM_1024)
        pipeline = (
            "builtin.module(graph-shape-inference,canonicalize,graph-fusion,cse,"
            "convert-graph-to-tensor,canonicalize,cse,bufferize,convert-tensor-to-affine,"
            "canonicalize,cse,affine-loop-fusion,affine-parallelize{threads-only=true},"
            f"affine-vectorize{{vector-bits=256 prefetch-distance={distance}}})"
        )
        mlc.run_pipeline(module, pipeline)
        lines = [ln for ln in str(module).splitlines() if "affine.prefetch" in ln]
        reads = [ln for ln in lines if ", read," in ln]
        writes = [ln for ln in lines if ", write," in ln]
        assert reads and all(f" + {distance}, " in ln for ln in reads), reads
        # the output's row is the current one: `[%row, %col]`, no offset in the first index
        assert writes and not any(" + " in ln.split("[")[1].split(",")[0] for ln in writes)
        config = {rec.key: distance}
        for rows in (1, 3, min_trips + 1):
            x = (3 * rng.standard_normal((rows, 1024))).astype(np.float32)
            _check(SOFTMAX_LAYERNORM_1024, [x], config, rtol=1e-4)


def test_softmax_odd_short_and_dynamic_rows() -> None:
    """Row lengths that are not multiples of the vector (remainder loops), shorter than one
    vector, and both dims dynamic."""
    text = """
    func.func @main(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
      %0 = graph.softmax %x {axis = 1 : i64} : (tensor<?x?xf32>) -> tensor<?x?xf32>
      return %0 : tensor<?x?xf32>
    }"""
    rng = np.random.default_rng(6)
    for shape in ((1, 1), (3, 5), (2, 15), (4, 17), (3, 1023), (2, 1025)):
        x = (4 * rng.standard_normal(shape)).astype(np.float32)
        _check(text, [x], None, rtol=1e-4)


def test_special_values_through_exp_sigmoid_tanh_softmax() -> None:
    """inf, -inf, NaN, large negative and large positive inputs through the compiled
    (approximated, vectorized) exp, sigmoid and tanh, and softmax rows holding them: the
    interpreter's values, NaN where it has NaN."""
    text = """
    func.func @main(%a: tensor<?xf32>, %x: tensor<?x?xf32>)
        -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32>) {
      %0 = graph.exp %a : tensor<?xf32>
      %1 = graph.sigmoid %a : tensor<?xf32>
      %2 = graph.tanh %a : tensor<?xf32>
      %3 = graph.softmax %x {axis = 1 : i64} : (tensor<?x?xf32>) -> tensor<?x?xf32>
      return %0, %1, %2, %3 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32>
    }"""
    specials = [np.inf, -np.inf, np.nan, -1e30, 1e30, -200.0, -104.5, -103.9, -88.0, -87.5,
                88.5, 88.8, 89.0, 0.0, -0.0, 1e-40, -1e-40, 20.0, -20.0]  # fmt: skip
    a = np.array(specials * 3, np.float32)  # 57: full vectors and a remainder
    rows = np.zeros((5, 40), np.float32)
    rows[1, 3] = np.nan
    rows[2, 7] = np.inf
    rows[3, :] = -np.inf
    rows[4, :] = np.linspace(-150, 50, 40)
    got = mlc.compile(text).main(a, rows)
    want = mlc.interp.run(mlc.parse(text), "main", a, rows)
    for g, w in zip(got, want):
        assert np.array_equal(np.isnan(g), np.isnan(w)), (g, w)
        ok = ~np.isnan(w)
        # exp(y) for |y| up to ~100 carries y's rounding (relative error |y| * 2^-24).
        np.testing.assert_allclose(g[ok], w[ok], rtol=1e-5, atol=1e-37)


def test_softmax_row_max_select_form_ignores_nan_like_maxnum() -> None:
    """softmax's row max (maxnumf from -inf) combines its vector partials with
    `select(x > acc, x, acc)`: NaN in any lane position or accumulator, rows of -inf, +inf,
    -0/+0 and all-NaN rows give the interpreter's results under every accumulator count."""
    text = """
    func.func @main(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
      %0 = graph.softmax %x {axis = 1 : i64} : (tensor<?x?xf32>) -> tensor<?x?xf32>
      return %0 : tensor<?x?xf32>
    }"""
    module = mlc.parse(text)
    fused = AFFINE.replace("cse,affine-vectorize", "cse,affine-loop-fusion,affine-vectorize")
    mlc.run_pipeline(module, fused)
    lowered = str(module)  # the fused row loop: the row max is an iter_arg from -inf
    assert "arith.cmpf ogt" in lowered and "arith.select" in lowered
    rng = np.random.default_rng(12)
    cols = 75  # 2 x 32 in the main loop at 4 accumulators, one more vector, 3 scalars
    x = rng.standard_normal((cols + 6, cols)).astype(np.float32)
    for j in range(cols):
        x[j, j] = np.nan
    x[cols, :] = -np.inf
    x[cols + 1, :] = np.nan
    x[cols + 2, 40] = np.inf
    x[cols + 3, :] = -0.0
    x[cols + 3, 33] = 0.0
    x[cols + 4, :] = -1e30
    x[cols + 5, 74] = 80.0
    (want,) = mlc.interp.run(mlc.parse(text), "main", x)
    space = mlc.run_pipeline(mlc.parse(text), "lower-to-cpu").space()
    for k in (1, 2, 4, 8):
        knobs = {r.key: k for r in space if r.name == "accumulators"}
        got = mlc.compile(text, knobs=knobs).main(x)
        assert np.array_equal(np.isnan(got), np.isnan(want)), k
        ok = ~np.isnan(want)
        np.testing.assert_allclose(got[ok], want[ok], rtol=2e-5, atol=1e-37)


def test_prefetch_store_pass_knob_defaults_and_numerics() -> None:
    """`prefetch_store_pass` at the row loop: layernorm's prefetches sit in its light centering
    pass, so by default its output pass prefetches the row two ahead once more; softmax's sit
    in its exp pass (heavy): off by default. Either way the results equal the interpreter's,
    for rows fewer than the prefetch distance (prefetches past the buffer) and on the pool."""
    knobs = mlc.run_pipeline(mlc.parse(SOFTMAX_LAYERNORM_1024), "lower-to-cpu")
    (rec,) = [r for r in knobs.space() if r.name == "prefetch_store_pass"]
    assert rec.default is True  # the fused row loop's pass carrying the prefetches is light
    (min_trips,) = [r.default for r in knobs.space() if r.name == "min-trips"]
    softmax = """
    func.func @main(%x: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
      %0 = graph.softmax %x {axis = 1 : i64} : (tensor<?x1024xf32>) -> tensor<?x1024xf32>
      return %0 : tensor<?x1024xf32>
    }
    """
    (sm,) = [
        r
        for r in mlc.run_pipeline(mlc.parse(softmax), "lower-to-cpu").space()
        if r.name == "prefetch_store_pass"
    ]
    assert sm.default is False
    rng = np.random.default_rng(14)
    for text, key in ((SOFTMAX_LAYERNORM_1024, rec.key), (softmax, sm.key)):
        counts = []
        for value in (False, True):
            config = {key: value}
            counts.append(mlc.compile(text, knobs=config).llvm_ir.count("@llvm.prefetch.p0("))
            for rows in (1, 3, min_trips + 1):
                x = (3 * rng.standard_normal((rows, 1024))).astype(np.float32)
                _check(text, [x], config, rtol=1e-4)
        assert counts[1] > counts[0], counts
