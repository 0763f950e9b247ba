"""vector.shuffle: compiled results against NumPy for random masks (one llvm.shufflevector for
operands of one type, lane by lane for two lengths), the folds, and the verifier's checks."""

from __future__ import annotations

import random

import numpy as np
import pytest
from mlc.lowering.to_llvm import lower_module
from mlc.lowering.translate import translate_module

import mlc
from mlc.runtime import ArgSpec, Signature, compile_llvm_ir
from mlc.syntax.parser import parse_module


def _program(n1: int, n2: int, mask: list[int], et: str) -> str:
    m = len(mask)
    return f"""
func.func @f(%a: memref<{n1}x{et}>, %b: memref<{n2}x{et}>, %o: memref<{m}x{et}>) {{
  %i = arith.constant 0 : index
  %va = vector.load %a[%i] : memref<{n1}x{et}>, vector<{n1}x{et}>
  %vb = vector.load %b[%i] : memref<{n2}x{et}>, vector<{n2}x{et}>
  %s = vector.shuffle %va, %vb {mask} : vector<{n1}x{et}>, vector<{n2}x{et}>
  vector.store %s, %o[%i] : memref<{m}x{et}>, vector<{m}x{et}>
  return
}}"""


@pytest.mark.parametrize("et", ["f32", "i32", "f64"])
@pytest.mark.parametrize("lengths", [(8, 8), (4, 2), (3, 5), (1, 1)])
def test_random_masks_equal_numpy(et: str, lengths: tuple[int, int]) -> None:
    n1, n2 = lengths
    rng = random.Random(f"{et}{lengths}")
    dtype = {"f32": np.float32, "i32": np.int32, "f64": np.float64}[et]
    a = np.arange(1, n1 + 1, dtype=dtype) * 3
    b = -np.arange(1, n2 + 1, dtype=dtype)
    for _ in range(4):
        mask = [rng.randrange(n1 + n2) for _ in range(rng.randint(1, 12))]
        module = parse_module(_program(n1, n2, mask, et))
        assert lower_module(module)
        ir = translate_module(module)
        assert ("shufflevector" in ir) == (n1 == n2)
        sig = Signature(
            [ArgSpec("a", et, (n1,)), ArgSpec("b", et, (n2,))], [ArgSpec("o", et, (len(mask),))]
        )
        got = compile_llvm_ir(ir, {"f": sig}).f(a, b)  # type: ignore[attr-defined]
        np.testing.assert_array_equal(got, np.concatenate([a, b])[mask], err_msg=str(mask))


def test_identity_mask_folds_to_the_first_operand() -> None:
    text = """
func.func @f(%a: vector<4xf32>, %b: vector<4xf32>) -> vector<4xf32> {
  %0 = vector.shuffle %a, %b [0, 1, 2, 3] : vector<4xf32>, vector<4xf32>
  return %0 : vector<4xf32>
}"""
    module = mlc.parse(text)
    mlc.run_pipeline(module, "builtin.module(func.func(canonicalize))")
    assert "vector.shuffle" not in str(module)


@pytest.mark.parametrize(
    ("types", "mask", "result", "message"),
    [
        ("vector<4xf32>, vector<2xf32>", "0, 6", "vector<2xf32>", "mask index #2 out of range"),
        ("vector<4xf32>, vector<2xf32>", "0", "vector<2xf32>", "mask length mismatch"),
        ("vector<4xf32>, vector<4xi32>", "0", "vector<1xf32>", "second operand v2 and result"),
        ("vector<2x3xf32>, vector<2x3xf32>", "0", "vector<1x4xf32>", "dimension mismatch"),
        ("vector<4xf32>, vector<2x4xf32>", "0", "vector<1xf32>", "rank mismatch"),
    ],
)
def test_verifier(types: str, mask: str, result: str, message: str) -> None:
    t1, t2 = types.split(", ")
    text = f"""
func.func @f(%a: {t1}, %b: {t2}) {{
  %0 = "vector.shuffle"(%a, %b) <{{mask = array<i64: {mask}>}}> : ({types}) -> {result}
  return
}}"""
    with pytest.raises(mlc.VerifyError, match=f"'vector.shuffle' op .*{message}"):
        mlc.parse(text).verify()
