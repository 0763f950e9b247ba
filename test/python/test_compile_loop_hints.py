"""convert-to-llvm's `loop_hints`: loops mlc vectorized reach LLVM with `!llvm.loop` metadata
that disables LLVM's loop vectorizer and unroller on them (less IR for LLVM to optimize and
compile), llvmlite accepts it whole and split, the results stay right, and the knob turns it
off per loop."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import mlc
from mlc.pass_manager import PassError, PassManager
from mlc.runtime import compile_llvm_ir

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# Two kernels: an elementwise chain (affine-vectorize's vector loop plus a scalar remainder)
# and a matmul (the micro-kernel's vector loops).
PROGRAM = """
func.func @main(%a: tensor<?x67xf32>, %w: tensor<67x40xf32>) -> tensor<?x40xf32> {
  %0 = graph.matmul %a, %w : (tensor<?x67xf32>, tensor<67x40xf32>) -> tensor<?x40xf32>
  %1 = graph.relu %0 : tensor<?x40xf32>
  %2 = graph.tanh %1 : tensor<?x40xf32>
  return %2 : tensor<?x40xf32>
}
"""
HINTS = (
    '!{!"llvm.loop.vectorize.enable", i1 false}',
    '!{!"llvm.loop.unroll.disable"}',
)


def _inputs(rows: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(rows)
    return (
        rng.standard_normal((rows, 67)).astype(np.float32),
        rng.standard_normal((67, 40)).astype(np.float32),
    )


def _loop_md(llvm_ir: str) -> list[str]:
    return re.findall(r", !llvm\.loop !(\d+)", llvm_ir)


def _knob_keys() -> list[str]:
    pm = PassManager.parse("builtin.module(lower-to-cpu)")
    kctx = pm.run(mlc.parse(PROGRAM))
    return [k for k in kctx.to_json()["knobs"] if k["knob"] == "loop_hints"]  # type: ignore[index]


def test_vectorized_loops_carry_the_metadata_and_compute_right() -> None:
    compiled = mlc.compile(PROGRAM, use_cache=False)
    ir = compiled.llvm_ir
    loops = _loop_md(ir)
    assert loops, "no !llvm.loop metadata in the LLVM IR"
    for h in HINTS:
        assert h in ir
    # Every annotated latch names a distinct self-referential node.
    for k in loops:
        assert re.search(rf"^!{k} = distinct !{{!{k}, ", ir, re.M)
    assert len(set(loops)) == len(loops)
    for rows in (1, 5, 64):
        a, w = _inputs(rows)
        want = np.tanh(np.maximum(a.astype(np.float64) @ w, 0))
        np.testing.assert_allclose(compiled.main(a, w), want, rtol=1e-4, atol=1e-5)


def test_scalar_loops_are_left_to_llvm() -> None:
    # No vector code anywhere (the vectorizer's width knob at 1): no metadata.
    text = """
func.func @main(%a: tensor<?xi32>) -> tensor<?xi32> {
  %0 = graph.add %a, %a : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  return %0 : tensor<?xi32>
}
"""
    pipeline = (
        "builtin.module(graph-shape-inference,convert-graph-to-tensor,bufferize,"
        "convert-tensor-to-affine,convert-to-llvm,reconcile-unrealized-casts,canonicalize)"
    )
    compiled = mlc.compile(text, pipeline=pipeline, use_cache=False)
    assert "!llvm.loop" not in compiled.llvm_ir
    a = np.arange(10, dtype=np.int32)
    np.testing.assert_array_equal(compiled.main(a), 2 * a)


def test_the_knob_turns_the_hints_off_per_loop() -> None:
    keys = _knob_keys()
    assert keys, "--dump-knobs lists no loop_hints site"
    assert all(k["default"] is True and k["pass"] == "convert-to-llvm" for k in keys)
    off = {k["key"]: False for k in keys}
    compiled = mlc.compile(PROGRAM, knobs=off, use_cache=False)
    assert "!llvm.loop" not in compiled.llvm_ir
    one = {keys[0]["key"]: False}
    partial = mlc.compile(PROGRAM, knobs=one, use_cache=False)
    assert len(_loop_md(partial.llvm_ir)) == len(keys) - 1
    a, w = _inputs(7)
    np.testing.assert_allclose(
        compiled.main(a, w), np.tanh(np.maximum(a.astype(np.float64) @ w, 0)), rtol=1e-4,
        atol=1e-5,
    )  # fmt: skip


def test_out_of_domain_knob_value_names_the_knob() -> None:
    key = _knob_keys()[0]["key"]
    with pytest.raises(PassError, match=f"knob '{re.escape(key)}' is outside its domain bool"):
        mlc.compile(PROGRAM, knobs={key: 3}, use_cache=False)


@pytest.mark.parametrize("compile_threads", [1, 2])
def test_llvmlite_accepts_the_metadata_whole_and_split(compile_threads: int) -> None:
    # Its parallel loops are outlined into functions of their own: more than one part.
    compiled = mlc.compile((EXAMPLES / "mlp.mlir").read_text())
    assert "!llvm.loop" in compiled.llvm_ir
    jit = compile_llvm_ir(
        compiled.llvm_ir, compiled.signatures, use_cache=False, compile_threads=compile_threads
    )
    assert jit.engine.timings["compile"] > 0
    if compile_threads > 1:
        assert len(jit.engine.parts) > 1, jit.engine.split
    # LLVM kept the loop metadata on the optimized code (it is not dropped as malformed).
    assert "llvm.loop.unroll.disable" in jit.llvm_ir_optimized


def test_dump_knobs_lists_the_sites(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from mlc.tools.mlc_opt import main

    src = tmp_path / "p.mlir"
    src.write_text(PROGRAM)
    out = tmp_path / "knobs.json"
    main([str(src), "-p", "builtin.module(lower-to-cpu)", f"--dump-knobs={out}", "-o", "-"])
    knobs = [k for k in json.loads(out.read_text())["knobs"] if k["knob"] == "loop_hints"]
    assert knobs and all("affine." in k["site"] for k in knobs)
