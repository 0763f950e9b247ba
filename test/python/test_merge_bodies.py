"""Outlined parallel bodies that differ only in integer constants share one function
(`mlc.lowering.merge_bodies`): the merged code computes what the separate bodies did."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import mlc
from mlc.lowering.to_llvm import lower_module
from mlc.lowering.translate import translate_module
from mlc.runtime import ArgSpec, Signature, compile_llvm_ir
from mlc.syntax.parser import parse_module
from mlc.verifier import verify

ROOT = Path(__file__).resolve().parents[2]
RNG = np.random.default_rng(7)
OFF = {"@/convert-to-llvm/merge_bodies": False}

# Three parallel loops over rows of three widths (the widths are constants of the bodies:
# a bound, a stride) and one with another scale (a float: not merged).
ROWS = """
func.func @rows(%a: memref<?x16xf32>, %b: memref<?x8xf32>, %c: memref<?x24xf32>, %d: memref<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %n = memref.dim %a, %c0 : memref<?x16xf32>
  affine.parallel (%i) = (0) to (%n) {
    affine.for %j = 0 to 16 {
      %v = affine.load %a[%i, %j] : memref<?x16xf32>
      %w = arith.addf %v, %one : f32
      affine.store %w, %a[%i, %j] : memref<?x16xf32>
    }
  } {mlc.parallel}
  affine.parallel (%i) = (0) to (%n) {
    affine.for %j = 0 to 8 {
      %v = affine.load %b[%i, %j] : memref<?x8xf32>
      %w = arith.addf %v, %one : f32
      affine.store %w, %b[%i, %j] : memref<?x8xf32>
    }
  } {mlc.parallel}
  affine.parallel (%i) = (0) to (%n) {
    affine.for %j = 0 to 24 {
      %v = affine.load %c[%i, %j] : memref<?x24xf32>
      %w = arith.addf %v, %one : f32
      affine.store %w, %c[%i, %j] : memref<?x24xf32>
    }
  } {mlc.parallel}
  affine.parallel (%i) = (0) to (%n) {
    affine.for %j = 0 to 8 {
      %v = affine.load %d[%i, %j] : memref<?x8xf32>
      %w = arith.addf %v, %two : f32
      affine.store %w, %d[%i, %j] : memref<?x8xf32>
    }
  } {mlc.parallel}
  return
}
"""


def _lowered(text: str, merge: bool) -> tuple[str, dict[str, int]]:
    module = parse_module(text)
    verify(module)
    stats: dict[str, int] = {}
    assert lower_module(module, merge_bodies=merge, stats=stats)
    verify(module)
    return translate_module(module), stats


@pytest.mark.parametrize("merge", [True, False])
def test_merged_rows_compute_the_same(merge: bool) -> None:
    ir, stats = _lowered(ROWS, merge)
    bodies = ir.count("define internal void @rows_parallel_body")
    assert (bodies, stats["merged"]) == ((2, 2) if merge else (4, 0))
    widths = {"a": 16, "b": 8, "c": 24, "d": 8}
    s = Signature([ArgSpec(k, "f32", ("n", w)) for k, w in widths.items()], [])
    mod = compile_llvm_ir(ir, {"rows": s}, threads=2)
    for n in (1, 3, 17):
        arrays = {k: RNG.standard_normal((n, w)).astype(np.float32) for k, w in widths.items()}
        want = {k: v + np.float32(2.0 if k == "d" else 1.0) for k, v in arrays.items()}
        mod.rows(*arrays.values())  # type: ignore[attr-defined]  # in place
        for k in widths:
            np.testing.assert_array_equal(arrays[k], want[k], err_msg=f"{k}, n={n}")


def test_bodies_with_a_serial_path_merge() -> None:
    """Loops with a run-time trip-count test (`mlc.parallel_min_extent`) also call their body
    on the calling thread; merged bodies read the differing constants from the context on
    both paths (the fields are stored before the body's address is taken)."""
    text = ROWS.replace("} {mlc.parallel}", "} {mlc.parallel, mlc.parallel_min_extent = 8 : i64}")
    ir, stats = _lowered(text, True)
    assert ir.count("define internal void @rows_parallel_body") == 2 and stats["merged"] == 2
    serial = [line for line in ir.splitlines() if "call void @rows_parallel_body" in line]
    assert len(serial) == 4 and all(line.endswith(") noinline") for line in serial)
    widths = {"a": 16, "b": 8, "c": 24, "d": 8}
    s = Signature([ArgSpec(k, "f32", ("n", w)) for k, w in widths.items()], [])
    mod = compile_llvm_ir(ir, {"rows": s}, threads=2)
    for n in (1, 7, 8, 17):  # below the extent: the caller; from 8 rows: the pool
        arrays = {k: RNG.standard_normal((n, w)).astype(np.float32) for k, w in widths.items()}
        want = {k: v + np.float32(2.0 if k == "d" else 1.0) for k, v in arrays.items()}
        mod.rows(*arrays.values())  # type: ignore[attr-defined]  # in place
        for k in widths:
            np.testing.assert_array_equal(arrays[k], want[k], err_msg=f"{k}, n={n}")


def test_immediate_operands_keep_bodies_apart() -> None:
    """A constant used where LLVM needs an immediate (here a prefetch's locality) is part of
    the structure: bodies that differ there are not merged."""
    text = """
func.func @pf(%a: memref<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?x8xf32>
  affine.parallel (%i) = (0) to (%n) {
    affine.prefetch %a[%i, 0], read, locality<3>, data : memref<?x8xf32>
  } {mlc.parallel}
  affine.parallel (%i) = (0) to (%n) {
    affine.prefetch %a[%i, 0], read, locality<1>, data : memref<?x8xf32>
  } {mlc.parallel}
  return
}
"""
    ir, stats = _lowered(text, True)
    assert stats["merged"] == 0
    assert ir.count("define internal void @pf_parallel_body") == 2


def test_mlp_kernels_with_other_strides_stay_apart() -> None:
    """The MLP's two wide layers lower to the same micro-kernel and small-M bodies with other
    sizes, but K (784, 512) is A's row stride in the kernels' FMA loops, where it is an
    immediate displacement: those bodies are not merged, and the module computes the same
    with the knob on or off on every path (small-M rows, packed nest, edge tiles)."""
    text = (ROOT / "examples" / "mlp.mlir").read_text()
    on = mlc.compile(text, threads=2, use_cache=False)
    off = mlc.compile(text, threads=2, knobs=OFF, use_cache=False)
    count = "define internal void @main_parallel_body"
    assert on.llvm_ir.count(count) == off.llvm_ir.count(count) == 6
    sig = on.signatures["main"]
    for batch in (1, 3, 7, 64, 131):
        args = [
            RNG.standard_normal([d if isinstance(d, int) else batch for d in a.shape]).astype(
                a.np_dtype
            )
            for a in sig.inputs
        ]
        np.testing.assert_allclose(on.main(*args), off.main(*args), rtol=1e-5, atol=1e-7)
