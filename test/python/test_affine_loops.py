"""Affine loop transformations (affine-tile, affine-interchange, affine-unroll, affine-unroll-jam,
affine-parallelize) and their dependence analysis: programs from graph ops compiled under
default and seeded random knob configurations equal the interpreter; thread-pool results are
bitwise equal to one thread; the analysis answers the textbook cases.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from mlc.dialects import affine as AF
from mlc.passes.affine_dependence import (
    DependenceInfo,
    band_is_permutable,
    is_parallel,
    is_reduction_loop,
    nest_of,
    permutation_is_legal,
)

import mlc
import mlc.interp
from mlc.pass_manager import PassError

FRONT = (
    "graph-shape-inference,canonicalize,graph-fusion,cse,convert-graph-to-tensor,tensor-fusion,"
    "canonicalize,cse,bufferize,convert-tensor-to-affine,canonicalize,cse,"
)
BACK = "canonicalize,cse,convert-to-llvm,reconcile-unrealized-casts,canonicalize,cse"
LOOPS = "affine-interchange,affine-tile,affine-unroll-jam,affine-unroll,affine-parallelize,"
PIPELINE = f"builtin.module({FRONT}{LOOPS}{BACK})"

PROGRAMS = {
    "matmul": (
        """
func.func @main(%a: tensor<?x37xf32>, %b: tensor<37x45xf32>) -> tensor<?x45xf32> {
  %0 = graph.matmul %a, %b : (tensor<?x37xf32>, tensor<37x45xf32>) -> tensor<?x45xf32>
  return %0 : tensor<?x45xf32>
}
""",
        [(29, 37), (37, 45)],
    ),
    "softmax": (
        """
func.func @main(%x: tensor<13x?xf32>) -> tensor<13x?xf32> {
  %0 = graph.softmax %x {axis = 1 : i64} : (tensor<13x?xf32>) -> tensor<13x?xf32>
  return %0 : tensor<13x?xf32>
}
""",
        [(13, 70)],
    ),
    "elementwise": (
        """
func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>, %c: tensor<?xf32>, %s: tensor<f32>)
    -> tensor<?xf32> {
  %0 = graph.mul %b, %s : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  %1 = graph.add %a, %0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %2 = graph.mul %1, %c : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %2 : tensor<?xf32>
}
""",
        [(3001,), (3001,), (3001,), ()],
    ),
    "reductions": (
        """
func.func @main(%x: tensor<23x41xf32>) -> (tensor<41xf32>, tensor<23xf32>) {
  %0 = graph.reduce_sum %x {axes = array<i64: 0>, keepdims = false}
      : (tensor<23x41xf32>) -> tensor<41xf32>
  %t = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<23x41xf32>) -> tensor<41x23xf32>
  %1 = graph.reduce_max %t {axes = array<i64: 0>, keepdims = false}
      : (tensor<41x23xf32>) -> tensor<23xf32>
  return %0, %1 : tensor<41xf32>, tensor<23xf32>
}
""",
        [(23, 41)],
    ),
    "conv": (
        """
func.func @main(%x: tensor<?x3x12x12xf32>, %w: tensor<5x3x3x3xf32>, %b: tensor<5xf32>)
    -> tensor<?x5x6x6xf32> {
  %c = graph.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>}
      : (tensor<?x3x12x12xf32>, tensor<5x3x3x3xf32>, tensor<5xf32>) -> tensor<?x5x12x12xf32>
  %r = graph.relu %c : tensor<?x5x12x12xf32>
  %p = graph.max_pool2d %r {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>}
      : (tensor<?x5x12x12xf32>) -> tensor<?x5x6x6xf32>
  return %p : tensor<?x5x6x6xf32>
}
""",
        [(2, 3, 12, 12), (5, 3, 3, 3), (5,)],
    ),
}


def _inputs(shapes: list[tuple[int, ...]], seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s).astype(np.float32) for s in shapes]


def _random_config(text: str, seed: int) -> dict:
    """Seeded random values for every knob of the loop passes that a default run meets."""
    module = mlc.parse(text)
    space = mlc.run_pipeline(module, PIPELINE).space()
    rng = random.Random(seed)
    loop_passes = {
        "affine-tile",
        "affine-interchange",
        "affine-unroll",
        "affine-unroll-jam",
        "affine-parallelize",
    }
    return {
        r.key: r.domain.to_json_value(r.domain.sample(rng))
        for r in space
        if r.pass_name in loop_passes
    }


def _check(text: str, args: list[np.ndarray], knobs: dict | None, threads: int = 2) -> list:
    expected = mlc.interp.run(mlc.parse(text), "main", *args)
    compiled = mlc.compile(text, pipeline=PIPELINE, knobs=knobs, threads=threads)
    got = compiled.main(*args)
    got = got if isinstance(got, tuple) else (got,)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=2e-4, atol=2e-4)
    return list(got)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_default_knobs_match_interpreter(name: str) -> None:
    text, shapes = PROGRAMS[name]
    _check(text, _inputs(shapes, 0), None)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("seed", [1, 2])
def test_random_knobs_match_interpreter(name: str, seed: int) -> None:
    text, shapes = PROGRAMS[name]
    config = _random_config(text, seed)
    assert config, "the loop passes met no knob"
    _check(text, _inputs(shapes, seed), config)


@pytest.mark.parametrize("name", ["softmax", "elementwise", "matmul"])
def test_threads_bitwise_equal_to_one_thread(name: str) -> None:
    text, shapes = PROGRAMS[name]
    args = _inputs(shapes, 5)
    one = _check(text, args, None, threads=1)
    two = _check(text, args, None, threads=2)
    for a, b in zip(one, two):
        assert a.tobytes() == b.tobytes()


def test_lower_to_cpu_marks_thread_loops() -> None:
    text, _ = PROGRAMS["softmax"]
    module = mlc.parse(text)
    mlc.run_pipeline(
        module, f"builtin.module({FRONT}affine-parallelize{{threads-only=true min-work=0}})"
    )
    marked = [o for o in module.walk() if o.get_attr("mlc.parallel") is not None]
    assert marked and all(type(o) is AF.ParallelOp for o in marked)
    # No marked loop is nested in another one.
    for o in marked:
        assert not any(p.get_attr("mlc.parallel") is not None for p in _ancestors(o))


def _ancestors(op):
    cur = op.parent_op
    while cur is not None:
        yield cur
        cur = cur.parent_op


MATMUL_AFFINE = """
func.func @f(%n: index) {
  %A = memref.alloc(%n) : memref<?x32xf32>
  %B = memref.alloc() : memref<32x48xf32>
  %C = memref.alloc(%n) : memref<?x48xf32>
  affine.for %i = 0 to %n {
    affine.for %j = 0 to 48 {
      affine.for %k = 0 to 32 {
        %a = affine.load %A[%i, %k] : memref<?x32xf32>
        %b = affine.load %B[%k, %j] : memref<32x48xf32>
        %c = affine.load %C[%i, %j] : memref<?x48xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<?x48xf32>
      }
    }
  }
  %D = memref.alloc() : memref<100x100xf32>
  affine.for %i = 1 to 100 {
    affine.for %j = 0 to 99 {
      %v = affine.load %D[%i - 1, %j + 1] : memref<100x100xf32>
      affine.store %v, %D[%i, %j] : memref<100x100xf32>
    }
  }
  return
}
"""


def _top_loops(text: str) -> list:
    module = mlc.parse(text)
    fn = next(module.ops_in_regions())
    return [o for o in fn.ops_in_regions() if type(o) is AF.ForOp], module


def test_dependence_matmul() -> None:
    (mm, _stencil), _m = _top_loops(MATMUL_AFFINE)
    i, j, k = nest_of(mm)
    info = DependenceInfo(mm)
    assert info.is_parallel(i) and info.is_parallel(j) and not info.is_parallel(k)
    assert info.is_reduction_loop(k) and not info.is_reduction_loop(i)
    assert is_parallel(j) and is_reduction_loop(k)
    for perm in [(0, 1, 2), (0, 2, 1), (2, 1, 0), (1, 2, 0)]:
        assert permutation_is_legal([i, j, k], perm)
    assert band_is_permutable([i, j, k])


def test_dependence_stencil_forbids_interchange() -> None:
    (_mm, stencil), _m = _top_loops(MATMUL_AFFINE)
    i, j = nest_of(stencil)
    assert not is_parallel(i) and is_parallel(j)
    assert permutation_is_legal([i, j], (0, 1))
    assert not permutation_is_legal([i, j], (1, 0))
    assert not band_is_permutable([i, j])


def test_function_arguments_may_alias_unless_entry() -> None:
    text = """
func.func @f(%A: memref<64xf32>, %B: memref<64xf32>) {
  affine.for %i = 0 to 64 {
    %v = affine.load %A[%i] : memref<64xf32>
    affine.store %v, %B[%i] : memref<64xf32>
  }
  return
}
"""
    loops, _ = _top_loops(text)
    assert not is_parallel(loops[0])  # %A and %B may be the same array, shifted
    entry = text.replace(") {", ") attributes {mlc.result_shapes = []} {", 1)
    loops, _ = _top_loops(entry)
    assert is_parallel(loops[0])  # the runtime passes fresh outputs (docs/runtime.md)


def test_illegal_interchange_knob_is_refused_with_warning(capsys) -> None:
    module = mlc.parse(MATMUL_AFFINE)
    space = mlc.run_pipeline(module, "builtin.module(func.func(affine-interchange))").space()
    key = [r.key for r in space if r.domain.size() == 2][0]  # the stencil's 2-loop nest
    module = mlc.parse(MATMUL_AFFINE)
    before = str(module)
    mlc.run_pipeline(module, "builtin.module(func.func(affine-interchange))", knobs={key: [1, 0]})
    assert "not applied" in capsys.readouterr().err
    stencil_before = before[before.index("memref<100x100xf32>") :]
    stencil_after = str(module)[str(module).index("memref<100x100xf32>") :]
    assert stencil_before == stencil_after


def test_out_of_domain_tile_knob_is_an_error() -> None:
    module = mlc.parse(MATMUL_AFFINE)
    space = mlc.run_pipeline(module, "builtin.module(func.func(affine-tile{sizes=4}))").space()
    key = next(r.key for r in space if r.name == "tile1")
    with pytest.raises(PassError, match="tile1' is outside its domain"):
        mlc.run_pipeline(mlc.parse(MATMUL_AFFINE), "builtin.module(affine-tile)", knobs={key: 7})


CACHE_MODEL = """
func.func @f() {
  %A = memref.alloc() : memref<1024x1024xf32>
  %B = memref.alloc() : memref<1024x1024xf32>
  %C = memref.alloc() : memref<1024x1024xf32>
  %z = arith.constant 0.0 : f32
  affine.for %i = 0 to 1024 {
    affine.for %j = 0 to 1024 {
      affine.store %z, %C[%i, %j] : memref<1024x1024xf32>
    }
  }
  affine.for %i = 0 to 1024 {
    affine.for %j = 0 to 1024 {
      affine.for %k = 0 to 1024 {
        %a = affine.load %A[%i, %k] : memref<1024x1024xf32>
        %b = affine.load %B[%k, %j] : memref<1024x1024xf32>
        %c = affine.load %C[%i, %j] : memref<1024x1024xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<1024x1024xf32>
      }
    }
  }
  return
}
"""


def test_tile_cache_model_defaults() -> None:
    from mlc.passes.affine_tile import footprint

    module = mlc.parse(CACHE_MODEL)
    space = mlc.run_pipeline(module, "builtin.module(func.func(affine-tile{cache-size=512}))")
    by_site: dict[str, list[int]] = {}
    for r in space.space():
        by_site.setdefault(r.site, []).append(r.value)
    fill, matmul = by_site.values()
    assert fill == [1, 1]  # a fill reuses nothing: not tiled
    t = matmul[0]
    assert matmul == [t, t, t] and 1 < t < 1024
    # The chosen tile fits 512 KiB and the next power of two does not.
    loops, _ = _top_loops(CACHE_MODEL)
    nest = nest_of(loops[1])
    info = DependenceInfo(nest[0])
    assert footprint(nest, [t] * 3, info) <= 512 * 1024 < footprint(nest, [2 * t] * 3, info)
