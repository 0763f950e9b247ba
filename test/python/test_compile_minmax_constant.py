"""arith.maximumf/minimumf against a constant (relu's max(x, +0.0)) lower to one unordered
compare and a select instead of the general NaN/signed-zero expansion; the results stay
IEEE 754-2019 maximum/minimum (NaN propagates, -0.0 < +0.0) for every constant, either
operand order, scalars and vectors, and the general expansion remains where it is needed."""

from __future__ import annotations

import numpy as np
import pytest
from mlc.lowering.to_llvm import lower_module
from mlc.lowering.translate import translate_module

from mlc.runtime import ArgSpec, InputDim, Signature, compile_llvm_ir
from mlc.syntax.parser import parse_module

VALUES = np.array(
    [np.nan, -np.inf, np.inf, -0.0, 0.0, -1.5, 1.5, 2.0, -2.0, 3e38, -1e-45, 1e-45, 7.0, -7.0,
     0.5, -0.5],
    dtype=np.float32,
)  # fmt: skip
CONSTANTS = [
    ("0.0", 0.0), ("-0.0", -0.0), ("2.0", 2.0), ("-2.0", -2.0), ("0x7F800000", np.inf),
    ("0xFF800000", -np.inf), ("0x7FC00000", np.nan),
]  # fmt: skip


def _program(op: str, constant: str, constant_first: bool, vector: bool) -> str:
    args = "%c, %v" if constant_first else "%v, %c"
    if vector:
        body = f"""
  %c = arith.constant dense<{constant}> : vector<16xf32>
  %v = vector.load %x[%i] : memref<16xf32>, vector<16xf32>
  %r = arith.{op} {args} : vector<16xf32>
  vector.store %r, %o[%i] : memref<16xf32>, vector<16xf32>"""
    else:
        body = f"""
  %c = arith.constant {constant} : f32
  affine.for %j = 0 to 16 {{
    %v = affine.load %x[%j] : memref<16xf32>
    %r = arith.{op} {args} : f32
    affine.store %r, %o[%j] : memref<16xf32>
  }}"""
    return f"""
func.func @f(%x: memref<16xf32>, %o: memref<16xf32>) {{
  %i = arith.constant 0 : index{body}
  return
}}"""


def _ieee(op: str, x: np.ndarray, c: np.float32) -> np.ndarray:
    """IEEE 754-2019 maximum/minimum (NumPy's picks an operand when +0.0 and -0.0 meet)."""
    out = (np.maximum if op == "maximumf" else np.minimum)(x, c)
    zeros = (x == 0) & (c == 0)
    want_negative = (
        np.signbit(x) & np.signbit(c) if op == "maximumf" else np.signbit(x) | np.signbit(c)
    )
    out[zeros] = np.where(want_negative, np.float32(-0.0), np.float32(0.0))[zeros]
    return out


def _llvm_ir(text: str) -> str:
    module = parse_module(text)
    assert lower_module(module)
    return translate_module(module)


@pytest.mark.parametrize("vector", [True, False], ids=["vector", "scalar"])
@pytest.mark.parametrize("op", ["maximumf", "minimumf"])
def test_against_every_constant_equals_numpy(op: str, vector: bool) -> None:
    signature = Signature([ArgSpec("x", "f32", (16,))], [ArgSpec("o", "f32", (InputDim(0, 0),))])
    for text, value in CONSTANTS:
        for first in (False, True):
            ir = _llvm_ir(_program(op, text, first, vector))
            got = compile_llvm_ir(ir, {"f": signature}).f(VALUES.copy())  # type: ignore[attr-defined]
            want = _ieee(op, VALUES, np.float32(value))
            where = f"{op}({'c, x' if first else 'x, c'}) with c = {text}"
            np.testing.assert_array_equal(got, want, err_msg=where)
            finite = ~np.isnan(want)
            assert list(np.signbit(got[finite])) == list(np.signbit(want[finite])), where


@pytest.mark.parametrize(
    ("op", "constant", "short"),
    [
        ("maximumf", "0.0", True),  # relu
        ("maximumf", "-2.0", True),
        ("minimumf", "-0.0", True),
        ("maximumf", "-0.0", False),  # +0.0 must win over the constant -0.0
        ("minimumf", "0.0", False),  # -0.0 must win over the constant +0.0
        ("maximumf", "0x7FC00000", False),  # a NaN constant
    ],
)
def test_short_form_only_where_exact(op: str, constant: str, short: bool) -> None:
    ir = _llvm_ir(_program(op, constant, False, True))
    assert ("bitcast" not in ir) is short, ir
    assert ("fcmp ugt" in ir or "fcmp ult" in ir) is short
