"""affine-parallelize on loops with a dynamic trip count: the thread-pool loop records its
run-time trip-count threshold (`mlc.parallel_min_extent`, from `min-trips`) and convert-to-llvm
tests it, calling the loop's outlined body on the calling thread below it, so a light
elementwise loop runs on the pool when the call is large and without it when small."""

from __future__ import annotations

import numpy as np
import pytest

import mlc
import mlc.interp
import mlc.runtime.parallel as P
from mlc.pass_manager import PassError
from mlc.passes.affine_parallelize import MIN_EXTENT_ATTR as MIN_EXTENT

TRIAD = """
func.func @main(%b: tensor<?xf32>, %c: tensor<?xf32>) -> tensor<?xf32> {
  %s = graph.constant dense<3.0> : tensor<f32>
  %0 = graph.mul %s, %c : (tensor<f32>, tensor<?xf32>) -> tensor<?xf32>
  %1 = graph.add %b, %0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %1 : tensor<?xf32>
}
"""

# Rows of 3: the dynamic loop is the outer one, its body a 3-trip loop.
ROWS = """
func.func @main(%a: tensor<?x3xf32>, %b: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = graph.exp %a : tensor<?x3xf32>
  %1 = graph.mul %0, %b : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  return %1 : tensor<?x3xf32>
}
"""

FRONT = (
    "graph-shape-inference,canonicalize,graph-fusion,cse,convert-graph-to-tensor,canonicalize,"
    "cse,bufferize,convert-tensor-to-affine,canonicalize,cse,affine-loop-fusion,"
)


def _knobs(text: str, **values: object) -> dict[str, object]:
    """Knob keys of affine-parallelize's knobs named in `values` (`min_trips` for min-trips)."""
    space = mlc.run_pipeline(mlc.parse(text), "lower-to-cpu").space()
    named = {k.replace("_", "-"): v for k, v in values.items()}
    return {
        r.key: named[r.name]
        for r in space
        if r.pass_name == "affine-parallelize" and r.name in named
    }


def _lowered(text: str, options: str = "threads-only=true", knobs: dict | None = None):
    module = mlc.parse(text)
    mlc.run_pipeline(module, f"builtin.module({FRONT}affine-parallelize{{{options}}})", knobs)
    return module


def _names(module) -> list[str]:
    return [op.name for op in module.walk(post_order=False)]


def _min_extents(module) -> list[int]:
    return [
        op.get_attr(MIN_EXTENT).value for op in module.walk() if op.get_attr(MIN_EXTENT) is not None
    ]


def test_dynamic_loop_records_its_trip_count_test() -> None:
    module = _lowered(TRIAD)
    assert "affine.if" not in _names(module)  # one version of the nest
    (par,) = [op for op in module.walk() if op.get_attr("mlc.parallel") is not None]
    # trip >= 131072: 2^19 (runtime-min-work) over 5 ops per iteration, rounded up to 2^k;
    # the extent is (131072 - 1) * step + 1 (step 1; the chunk loop keeps the bounds)
    assert par.name == "affine.parallel" and _min_extents(module) == [131072]
    (rec,) = [
        r
        for r in mlc.run_pipeline(mlc.parse(TRIAD), "lower-to-cpu").space()
        if r.name == "min-trips"
    ]
    assert rec.default == 131072 and rec.domain.lo == 1


def test_runtime_min_work_sets_the_threshold() -> None:
    module = _lowered(TRIAD, "threads-only=true runtime-min-work=640")
    assert _min_extents(module) == [128]  # 640 / 5 ops
    # 0: always the pool (a run-time trip count below 2 runs on the caller anyway)
    module = _lowered(TRIAD, "threads-only=true runtime-min-work=0")
    assert _min_extents(module) == []
    assert [op.get_attr("mlc.parallel") is not None for op in module.walk()].count(True) == 1
    with pytest.raises(PassError, match="runtime-min-work must be non-negative"):
        _lowered(TRIAD, "runtime-min-work=-1")


def test_knobs_turn_the_test_off() -> None:
    # min-trips 1 or 2: no test (the pool runs a 1-trip loop inline)
    for value in (1, 2):
        module = _lowered(TRIAD, knobs=_knobs(TRIAD, min_trips=value))
        assert _min_extents(module) == []
    # threads off: the loop stays serial, nothing to test
    module = _lowered(TRIAD, knobs=_knobs(TRIAD, threads=False))
    assert _min_extents(module) == []
    assert not any(op.get_attr("mlc.parallel") for op in module.walk())
    with pytest.raises(Exception, match="min-trips"):
        _lowered(TRIAD, knobs=_knobs(TRIAD, min_trips=3))  # not a power of two


def test_static_trip_counts_are_not_tested() -> None:
    module = _lowered(TRIAD.replace("?", "300000"))
    assert _min_extents(module) == []  # decided at compile time: threaded
    assert any(op.get_attr("mlc.parallel") for op in module.walk())


def test_mlir_mode_converts_the_one_version() -> None:
    # Without threads-only, every parallel loop becomes affine.parallel; there is no copy.
    module = _lowered(TRIAD, "")
    assert "affine.for" not in _names(module) and "affine.if" not in _names(module)
    assert _min_extents(module) == [131072]


def test_the_serial_path_calls_the_outlined_body() -> None:
    """The LLVM lowering tests the extent and calls the same body directly below it: the nest
    is outlined and compiled once."""
    module = _lowered(TRIAD)
    mlc.run_pipeline(module, "builtin.module(convert-to-llvm,reconcile-unrealized-casts)")
    bodies = [
        op for op in module.walk() if op.name == "llvm.func" and "parallel_body" in str(op.sym_name)
    ]
    assert len(bodies) == 1
    calls = [op for op in module.walk() if op.name == "llvm.call"]
    assert sum(1 for c in calls if c.get_attr("callee") is None) == 1  # the serial call
    assert sum(1 for c in calls if "mlc_parallel_for" in str(c.get_attr("callee"))) == 1


def test_a_bad_min_extent_is_diagnosed() -> None:
    module = _lowered(TRIAD)
    (par,) = [op for op in module.walk() if op.get_attr(MIN_EXTENT) is not None]
    par.set_attr(MIN_EXTENT, mlc.ir.attributes.IntegerAttr(0))
    with pytest.raises(PassError, match="parallel_min_extent"):
        mlc.run_pipeline(module, "builtin.module(convert-to-llvm)")


class _CountPoolCalls:
    """`calls`: the calls into the thread pool's entry point since this object was made."""

    def __init__(self) -> None:
        self._start = P.parallel_calls()

    @property
    def calls(self) -> int:
        return P.parallel_calls() - self._start


@pytest.mark.parametrize("n", [0, 1, 15, 63, 64, 65, 1000, 4099])
def test_triad_numerics_below_and_above_the_threshold(n: int) -> None:
    # min-trips 64, chunks of 16: the pool splits the larger calls over 2 threads.
    knobs = _knobs(TRIAD, min_trips=64, chunk=16)
    compiled = mlc.compile(TRIAD, knobs=knobs, threads=2)
    rng = np.random.default_rng(n)
    b, c = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    pool = _CountPoolCalls()
    got = compiled.main(b, c)
    np.testing.assert_array_equal(got, b + np.float32(3) * c)
    assert pool.calls == (1 if n >= 64 else 0)  # the pool only at or above min-trips


@pytest.mark.parametrize("rows", [1, 7, 8, 9, 100])
def test_outer_dynamic_loop_numerics(rows: int) -> None:
    knobs = _knobs(ROWS, min_trips=8)
    compiled = mlc.compile(ROWS, knobs=knobs, threads=2)
    rng = np.random.default_rng(rows)
    a = rng.uniform(-3, 3, (rows, 3)).astype(np.float32)
    b = rng.standard_normal((rows, 3)).astype(np.float32)
    pool = _CountPoolCalls()
    got = compiled.main(a, b)
    (want,) = mlc.interp.run(mlc.parse(ROWS), "main", a, b)
    np.testing.assert_allclose(got, want, rtol=2e-6, atol=0)
    assert pool.calls == (1 if rows >= 8 else 0)


def test_default_threads_a_large_dynamic_triad() -> None:
    """With default knobs the dynamic triad uses the pool for a large call only."""
    compiled = mlc.compile(TRIAD, threads=2)
    for n, expected in ((1000, 0), (131071, 0), (131072, 1), (300001, 1)):
        b = np.arange(n, dtype=np.float32)
        c = np.ones(n, np.float32)
        pool = _CountPoolCalls()
        np.testing.assert_array_equal(compiled.main(b, c), b + np.float32(3))
        assert pool.calls == expected, n
