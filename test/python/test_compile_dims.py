"""Dynamic dims at the call boundary of `mlc.compile`: output dims computed from input dims
(concat, strided convolution), and the input dims the compiled code needs equal, checked on
every call instead of being read out of bounds."""

from __future__ import annotations

import numpy as np
import pytest

import mlc
import mlc.interp
from mlc.runtime import ArgSpec, DimExpr, InputDim, Signature, SignatureError

CONCAT = """
func.func @main(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %r = graph.concat %a, %b {axis = 0 : i64} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}"""

CONV = """
func.func @main(%x: tensor<1x3x?x?xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x?x?xf32> {
  %r = graph.conv2d %x, %w {strides = array<i64: 2, 1>, pads = array<i64: 0, 1, 0, 1>,
    dilations = array<i64: 1, 1>, groups = 1 : i64}
    : (tensor<1x3x?x?xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x?x?xf32>
  return %r : tensor<1x4x?x?xf32>
}"""

CHAIN = """
func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>, %c: tensor<?xf32>) -> tensor<?xf32> {
  %t = graph.add %a, %b : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %r = graph.mul %t, %c : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}"""

TO_STATIC = """
func.func @main(%a: tensor<?x?xf32>, %b: tensor<5xf32>) -> tensor<?x5xf32> {
  %r = graph.add %a, %b : (tensor<?x?xf32>, tensor<5xf32>) -> tensor<?x5xf32>
  return %r : tensor<?x5xf32>
}"""

MATMUL = """
func.func @main(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = graph.matmul %a, %b : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}"""


def _check(text: str, *args: np.ndarray) -> np.ndarray:
    got = mlc.compile(text).main(*args)
    (want,) = mlc.interp.run(mlc.parse(text), "main", *args)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    return got


def _rand(*shape: int) -> np.ndarray:
    return np.random.default_rng(sum(shape)).standard_normal(shape).astype(np.float32)


@pytest.mark.parametrize(("m", "n"), [(3, 5), (0, 2), (1, 0)])
def test_concat_of_dynamic_tensors_has_the_summed_dim(m: int, n: int) -> None:
    assert _check(CONCAT, _rand(m, 4), _rand(n, 4)).shape == (m + n, 4)


@pytest.mark.parametrize(("h", "w"), [(9, 8), (3, 1), (4, 13)])
def test_strided_conv_with_dynamic_spatial_dims(h: int, w: int) -> None:
    out = _check(CONV, _rand(1, 3, h, w), _rand(4, 3, 3, 3))
    assert out.shape == (1, 4, (h - 3) // 2 + 1, w)


def test_conv_input_smaller_than_the_window_is_a_value_error() -> None:
    fn = mlc.compile(CONV).main
    with pytest.raises(
        ValueError, match=r"result .result0. dim 2 .* would be -1 .*arg0=\(1, 3, 0, 5\)"
    ):
        fn(_rand(1, 3, 0, 5), _rand(4, 3, 3, 3))


def test_dims_assumed_equal_are_checked_not_read_out_of_bounds() -> None:
    fn = mlc.compile(CHAIN).main
    x = _rand(10)
    np.testing.assert_allclose(fn(x, x, x), (x + x) * x, rtol=1e-6)
    with pytest.raises(ValueError, match=r"argument 'arg2' \(#3\) dim 0 must equal dim 0 of"):
        fn(x, x, _rand(5))
    # A dynamic size-1 dim is not broadcast at run time (as in MLIR's lowering): rejected.
    with pytest.raises(ValueError, match=r"argument 'arg1' \(#2\) dim 0 must equal"):
        fn(x, _rand(1), x)


def test_dynamic_dim_broadcast_against_a_static_one_must_have_its_size() -> None:
    fn = mlc.compile(TO_STATIC).main
    _check(TO_STATIC, _rand(2, 5), _rand(5))
    with pytest.raises(ValueError, match=r"argument 'arg0' \(#1\) dim 1 must be 5"):
        fn(_rand(2, 7), _rand(5))


def test_matmul_contracting_dims_must_agree() -> None:
    fn = mlc.compile(MATMUL).main
    _check(MATMUL, _rand(3, 4), _rand(4, 2))
    with pytest.raises(ValueError, match=r"argument 'arg1' \(#2\) dim 0 must equal dim 1 of"):
        fn(_rand(3, 4), _rand(6, 2))


def test_signature_dim_expressions() -> None:
    ins = [ArgSpec("a", "f32", (None, 4)), ArgSpec("b", "f32", (None, 4))]
    sig = Signature(ins, [ArgSpec("r", "f32", (DimExpr("add", InputDim("a", 0), ("in", 1, 0)), 4))])
    assert sig.text("f") == (
        "f(a: memref<?x4xf32> (?, 4), b: memref<?x4xf32> (?, 4)) -> "
        "(r: memref<?x4xf32> ((#0[0] + #1[0]), 4))"
    )
    # Constant operands fold away.
    sig = Signature(ins, [ArgSpec("r", "f32", (DimExpr("mul", InputDim("a", 1), 2),))])
    assert sig.outputs[0].shape == (8,)
    bad = [
        (DimExpr("pow", InputDim(0, 0), 2), "unknown dim expression operator"),
        (DimExpr("floordiv", InputDim(0, 0), 0), "positive constant divisor"),
        (DimExpr("mul", InputDim(0, 0), InputDim(1, 0)), "needs a constant operand"),
        (DimExpr("add", InputDim(0, 7), 1), "has no dim 7"),
        (DimExpr("add", "n", 1), "symbol 'n' is not a dim of any input"),
    ]
    for expr, message in bad:
        with pytest.raises(SignatureError, match=message):
            Signature(ins, [ArgSpec("r", "f32", (expr,))])
    with pytest.raises(SignatureError, match="computed dims are for outputs only"):
        Signature([ArgSpec("a", "f32", (DimExpr("add", 1, 2),))], [])


def test_verify_each_off_still_verifies_the_lowered_module() -> None:
    pipeline = "builtin.module(lower-to-cpu,llvm.func(test-pass-invalid-ir))"
    with pytest.raises(mlc.VerifyError) as info:
        mlc.compile(CHAIN, pipeline=pipeline, use_cache=False)
    assert "compile with verify_each=True" in str(info.value)
    with pytest.raises(mlc.pass_manager.PassError, match="test-pass-invalid-ir"):
        mlc.compile(CHAIN, pipeline=pipeline, use_cache=False, verify_each=True)


def test_remarks_are_kept_on_the_compiled_module_not_printed(capfd) -> None:  # type: ignore[no-untyped-def]
    text = """
func.func @main(%a: tensor<10x1000xf32>, %b: tensor<1000x1000xf32>, %c: tensor<1000x1xf32>)
    -> tensor<10x1xf32> {
  %ab = graph.matmul %a, %b : (tensor<10x1000xf32>, tensor<1000x1000xf32>) -> tensor<10x1000xf32>
  %r = graph.matmul %ab, %c : (tensor<10x1000xf32>, tensor<1000x1xf32>) -> tensor<10x1xf32>
  return %r : tensor<10x1xf32>
}"""
    compiled = mlc.compile(text, use_cache=False)
    assert any("matmul chain" in r for r in compiled.remarks)
    assert "remark" not in capfd.readouterr().err
    assert compiled.remarks == mlc.compile(text).remarks  # also on a lowering-cache hit


def test_broadcast_to_and_static_reshape_fix_their_dynamic_operand_dims() -> None:
    bcast = """
func.func @main(%x: tensor<?xf32>) -> tensor<4x3xf32> {
  %r = graph.broadcast_to %x {shape = array<i64: 4, 3>} : (tensor<?xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}"""
    _check(bcast, _rand(3))
    with pytest.raises(ValueError, match=r"argument 'arg0' \(#1\) dim 0 must be 3"):
        mlc.compile(bcast).main(_rand(1))  # a dynamic size-1 dim is not broadcast
    reshape = """
func.func @main(%x: tensor<?x2xf32>) -> tensor<3x4xf32> {
  %r = graph.reshape %x {shape = array<i64: 3, 4>} : (tensor<?x2xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}"""
    _check(reshape, _rand(6, 2))
    with pytest.raises(ValueError, match=r"argument 'arg0' \(#1\) dim 0 must be 6"):
        mlc.compile(reshape).main(_rand(2, 2))


def test_slice_of_a_dynamic_dim_needs_the_dim_to_reach_its_limit() -> None:
    text = """
func.func @main(%a: tensor<?x6xf32>) -> tensor<3x2xf32> {
  %r = graph.slice %a {starts = array<i64: 1, 0>, limits = array<i64: 7, 6>,
    strides = array<i64: 2, 3>} : (tensor<?x6xf32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}"""
    _check(text, _rand(7, 6))
    _check(text, _rand(9, 6))
    with pytest.raises(ValueError, match=r"argument 'arg0' \(#1\) dim 0 must be at least 7"):
        mlc.compile(text).main(_rand(2, 6))
    for bad in [(0, 1, "min", 3), (0, 0, "max", 3), (0, 0, "multiple", 0), (1, 0, "min", 1)]:
        with pytest.raises(SignatureError, match="dim_checks entry"):
            Signature([ArgSpec("a", "f32", (None,))], [], dim_checks=(bad,))


def test_dynamic_reshape_needs_a_divisible_element_count() -> None:
    text = """
func.func @main(%a: tensor<?x2xf32>) -> tensor<?x4xf32> {
  %r = graph.reshape %a {shape = array<i64: -1, 4>} : (tensor<?x2xf32>) -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}"""
    assert _check(text, _rand(6, 2)).shape == (3, 4)
    with pytest.raises(ValueError, match=r"argument 'arg0' \(#1\) dim 0 must be a multiple of 2"):
        mlc.compile(text).main(_rand(5, 2))
