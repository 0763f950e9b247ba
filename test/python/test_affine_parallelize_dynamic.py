"""affine-parallelize on loops with a dynamic trip count: the loop is versioned on its run-time
trip count (`affine.if` trip >= min-trips: the thread-pool version, else a serial copy), so a
light elementwise loop runs on the pool when the call is large and without it when small."""

from __future__ import annotations

import numpy as np
import pytest

import mlc
import mlc.interp
import mlc.runtime.parallel as P
from mlc.pass_manager import PassError

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


def test_dynamic_loop_is_versioned_on_its_trip_count() -> None:
    module = _lowered(TRIAD)
    (if_op,) = [op for op in module.walk() if op.name == "affine.if"]
    # trip >= 131072: 2^19 (runtime-min-work) over 5 ops per iteration, rounded up to 2^k
    assert str(if_op.integer_set) == "(d0) : (d0 - 131072 >= 0)"
    then_ops = list(if_op.regions[0].blocks[0])
    else_ops = list(if_op.regions[1].blocks[0])
    assert then_ops[0].name == "affine.parallel" and then_ops[0].get_attr("mlc.parallel")
    assert else_ops[0].name == "affine.for"
    assert not any(op.get_attr("mlc.parallel") for op in else_ops[0].walk())
    (rec,) = [
        r
        for r in mlc.run_pipeline(mlc.parse(TRIAD), "lower-to-cpu").space()
        if r.name == "min-trips"
    ]
    assert rec.default == 131072 and rec.domain.lo == 1


def test_runtime_min_work_sets_the_threshold() -> None:
    module = _lowered(TRIAD, "threads-only=true runtime-min-work=640")
    (if_op,) = [op for op in module.walk() if op.name == "affine.if"]
    assert str(if_op.integer_set) == "(d0) : (d0 - 128 >= 0)"  # 640 / 5 ops
    # 0: always the pool (a run-time trip count below 2 runs on the caller anyway)
    module = _lowered(TRIAD, "threads-only=true runtime-min-work=0")
    assert "affine.if" not in _names(module)
    assert [op.get_attr("mlc.parallel") is not None for op in module.walk()].count(True) == 1
    with pytest.raises(PassError, match="runtime-min-work must be non-negative"):
        _lowered(TRIAD, "runtime-min-work=-1")


def test_knobs_turn_versioning_off() -> None:
    # min-trips 1 or 2: no test (the pool runs a 1-trip loop inline)
    for value in (1, 2):
        module = _lowered(TRIAD, knobs=_knobs(TRIAD, min_trips=value))
        assert "affine.if" not in _names(module)
    # threads off: the loop stays serial, nothing to version
    module = _lowered(TRIAD, knobs=_knobs(TRIAD, threads=False))
    assert "affine.if" not in _names(module)
    assert not any(op.get_attr("mlc.parallel") for op in module.walk())
    with pytest.raises(Exception, match="min-trips"):
        _lowered(TRIAD, knobs=_knobs(TRIAD, min_trips=3))  # not a power of two


def test_static_trip_counts_are_not_versioned() -> None:
    module = _lowered(TRIAD.replace("?", "300000"))
    assert "affine.if" not in _names(module)  # decided at compile time: threaded
    assert any(op.get_attr("mlc.parallel") for op in module.walk())


def test_mlir_mode_converts_both_versions() -> None:
    # Without threads-only, every parallel loop becomes affine.parallel, the serial copy too.
    module = _lowered(TRIAD, "")
    (if_op,) = [op for op in module.walk() if op.name == "affine.if"]
    else_ops = [op.name for op in if_op.regions[1].blocks[0]]
    assert else_ops[0] == "affine.parallel" and "affine.for" not in else_ops


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
