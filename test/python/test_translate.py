"""mlc-translate --mlir-to-llvmir: llvm-dialect modules to LLVM IR text, parsed and verified by
llvmlite and run through mlc.runtime against NumPy; the driver's flags and exit codes."""

from __future__ import annotations

import struct
import subprocess
import sys

import llvmlite.binding as llvm_binding
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mlc.lowering.translate import TranslationError, float_literal, translate_module
from mlc.tools.mlc_translate import main as translate_main

from mlc.ir import attributes as A
from mlc.runtime import ArgSpec, Signature, compile_llvm_ir
from mlc.syntax.parser import parse_module
from mlc.verifier import verify


def translate(text: str) -> str:
    module = parse_module(text)
    verify(module)
    ir = translate_module(module)
    llvm_binding.parse_assembly(ir).verify()
    return ir


# A hand-written kernel in the lowering's ABI: y[i] = select(x[i] > 0, x[i], 0.1 * x[i]) and a
# running maximum through a loop-carried value, with a switch on the step kind.
LEAKY = """
llvm.func @leaky(%xa: !llvm.ptr, %x: !llvm.ptr, %xo: i64, %n: i64, %xs: i64,
                 %ya: !llvm.ptr, %y: !llvm.ptr, %yo: i64, %yn: i64, %ys: i64,
                 %ma: !llvm.ptr, %m: !llvm.ptr, %mo: i64, %mn: i64, %ms: i64) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  %slope = llvm.mlir.constant(0.1 : f32) : f32
  %ninf = llvm.mlir.constant(0xFF800000 : f32) : f32
  %kind = llvm.trunc %n : i64 to i32
  llvm.br ^head(%c0, %ninf : i64, f32)
^head(%i: i64, %best: f32):
  %more = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %more, ^body, ^done(%best : f32)
^body:
  %px = llvm.getelementptr inbounds %x[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %v = llvm.load %px {alignment = 4 : i64} : !llvm.ptr -> f32
  %pos = llvm.fcmp "ogt" %v, %zero : f32
  %scaled = llvm.fmul %v, %slope : f32
  %r = llvm.select %pos, %v, %scaled : i1, f32
  %py = llvm.getelementptr inbounds %y[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  llvm.store %r, %py {alignment = 4 : i64} : f32, !llvm.ptr
  %nb = llvm.intr.maxnum(%best, %r) : (f32, f32) -> f32
  %next = llvm.add %i, %c1 : i64
  llvm.switch %kind : i32, ^head(%next, %nb : i64, f32) [
    -1: ^done(%nb : f32)
  ]
^done(%result: f32):
  llvm.store %result, %m {alignment = 4 : i64} : f32, !llvm.ptr
  llvm.return
}
"""


def test_hand_written_kernel_runs() -> None:
    ir = translate(LEAKY)
    assert "switch i32" in ir and "phi float" in ir and "@llvm.maxnum.f32" in ir
    s = Signature(
        [ArgSpec("x", "f32", ("n",))], [ArgSpec("y", "f32", ("n",)), ArgSpec("m", "f32", (1,))]
    )
    mod = compile_llvm_ir(ir, {"leaky": s})
    x = np.random.default_rng(0).standard_normal(9).astype(np.float32)
    y, m = mod.leaky(x)  # type: ignore[attr-defined]
    want = np.where(x > 0, x, np.float32(0.1) * x)
    np.testing.assert_allclose(y, want, rtol=1e-6)
    assert m[0] == want.max()


GLOBALS = """
llvm.mlir.global private constant @w(dense<[[1.5, -2.0], [0.25, 8.0]]> : tensor<2x2xf64>)
    {alignment = 16 : i64} : !llvm.array<2 x array<2 x f64>>
llvm.mlir.global internal @bias(dense<[3, -4]> : tensor<2xi32>) : !llvm.array<2 x i32>
llvm.func @affine(%xa: !llvm.ptr, %x: !llvm.ptr, %xo: i64, %xn: i64, %xs: i64,
                  %ya: !llvm.ptr, %y: !llvm.ptr, %yo: i64, %yn: i64, %ys: i64) {
  %w = llvm.mlir.addressof @w : !llvm.ptr
  %b = llvm.mlir.addressof @bias : !llvm.ptr
  %x0 = llvm.load %x : !llvm.ptr -> f64
  %p1 = llvm.getelementptr %x[1] : (!llvm.ptr) -> !llvm.ptr, f64
  %x1 = llvm.load %p1 : !llvm.ptr -> f64
  %v = llvm.mlir.undef : vector<2xf64>
  %i0 = llvm.mlir.constant(0 : i32) : i32
  %i1 = llvm.mlir.constant(1 : i32) : i32
  %xv0 = llvm.insertelement %x0, %v[%i0 : i32] : vector<2xf64>
  %xv = llvm.insertelement %x1, %xv0[%i1 : i32] : vector<2xf64>
  %row0 = llvm.load %w : !llvm.ptr -> vector<2xf64>
  %pr1 = llvm.getelementptr %w[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<2 x array<2 x f64>>
  %row1 = llvm.load %pr1 : !llvm.ptr -> vector<2xf64>
  %m0 = llvm.fmul %row0, %xv : vector<2xf64>
  %m1 = llvm.fmul %row1, %xv : vector<2xf64>
  %a0 = llvm.extractelement %m0[%i0 : i32] : vector<2xf64>
  %b0 = llvm.extractelement %m0[%i1 : i32] : vector<2xf64>
  %a1 = llvm.extractelement %m1[%i0 : i32] : vector<2xf64>
  %b1 = llvm.extractelement %m1[%i1 : i32] : vector<2xf64>
  %s0 = llvm.fadd %a0, %b0 : f64
  %s1 = llvm.fadd %a1, %b1 : f64
  %bias0 = llvm.load %b : !llvm.ptr -> i32
  %pb1 = llvm.getelementptr %b[1] : (!llvm.ptr) -> !llvm.ptr, i32
  %bias1 = llvm.load %pb1 : !llvm.ptr -> i32
  %f0 = llvm.sitofp %bias0 : i32 to f64
  %f1 = llvm.sitofp %bias1 : i32 to f64
  %r0 = llvm.intr.fma(%s0, %f0, %s0) : (f64, f64, f64) -> f64
  %r1 = llvm.fadd %s1, %f1 : f64
  llvm.store %r0, %y : f64, !llvm.ptr
  %py1 = llvm.getelementptr %y[1] : (!llvm.ptr) -> !llvm.ptr, f64
  llvm.store %r1, %py1 : f64, !llvm.ptr
  llvm.return
}
"""


def test_globals_vectors_and_intrinsics_run() -> None:
    ir = translate(GLOBALS)
    assert "@w = private constant [2 x [2 x double]]" in ir
    assert "@llvm.fma.f64" in ir
    s = Signature([ArgSpec("x", "f64", (2,))], [ArgSpec("y", "f64", (2,))])
    mod = compile_llvm_ir(ir, {"affine": s})
    x = np.array([2.0, -3.0])
    w = np.array([[1.5, -2.0], [0.25, 8.0]])
    s0, s1 = w @ x
    np.testing.assert_allclose(mod.affine(x), [s0 * 3 + s0, s1 - 4])  # type: ignore[attr-defined]


def test_memcpy_memset_and_internal_calls_run() -> None:
    text = """
    llvm.func internal @fill(%p: !llvm.ptr, %n: i64) {
      %z = llvm.mlir.constant(1 : i8) : i8
      "llvm.intr.memset"(%p, %z, %n) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
      llvm.return
    }
    llvm.func @copy(%xa: !llvm.ptr, %x: !llvm.ptr {llvm.noalias}, %xo: i64, %xn: i64, %xs: i64,
                    %ya: !llvm.ptr, %y: !llvm.ptr {llvm.noalias}, %yo: i64, %yn: i64, %ys: i64) {
      %four = llvm.mlir.constant(4 : i64) : i64
      %bytes = llvm.mul %xn, %four : i64
      llvm.call @fill(%y, %bytes) : (!llvm.ptr, i64) -> ()
      %half = llvm.sdiv %bytes, %four : i64
      "llvm.intr.memcpy"(%y, %x, %half) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
      llvm.return
    }
    """
    ir = translate(text)
    s = Signature([ArgSpec("x", "i32", ("n",))], [ArgSpec("y", "i32", ("n",))])
    mod = compile_llvm_ir(ir, {"copy": s})
    x = np.arange(8, dtype=np.int32) + 100
    y = mod.copy(x)  # type: ignore[attr-defined]
    # memcpy copied n bytes = n/4 elements; the rest keeps memset's 0x01010101.
    np.testing.assert_array_equal(y[:2], x[:2])
    assert (y[2:] == 0x01010101).all()


@given(st.floats(allow_nan=False, width=32))
def test_float_literals_are_exact_f32(v: float) -> None:
    text = float_literal(v, A.f32)
    bits = int(text[2:], 16)
    assert struct.unpack(">d", struct.pack(">Q", bits))[0] == np.float32(v)


@given(st.floats(allow_nan=False))
def test_float_literals_are_exact_f64(v: float) -> None:
    bits = int(float_literal(v, A.f64)[2:], 16)
    assert struct.unpack(">d", struct.pack(">Q", bits))[0] == v


def test_half_literal() -> None:
    assert float_literal(1.0, A.f16) == "0xH3C00"
    assert float_literal(-2.0, A.f16) == "0xHC000"
    assert float_literal(1.0, A.bf16) == "0xR3F80"


def test_unsupported_op_is_located() -> None:
    module = parse_module("func.func @f() {\n  return\n}")
    with pytest.raises(TranslationError) as e:
        translate_module(module)
    (diag,) = e.value.diagnostics
    assert diag.message == "not supported: 'func.func' in the translation to LLVM IR"
    assert diag.location is not None and "1:1" in str(diag.location)


# ---------------------------------------------------------------------------------------------
# The driver


def test_cli_output_file_and_exit_codes(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    src = tmp_path / "in.mlir"
    src.write_text("llvm.func @f() {\n  llvm.return\n}\n")
    out = tmp_path / "out.ll"
    assert translate_main(["--mlir-to-llvmir", str(src), "-o", str(out)]) == 0
    assert "define void @f() {" in out.read_text()
    assert translate_main([str(src)]) == 1  # no translation chosen
    assert "no translation given" in capsys.readouterr().err
    bad = tmp_path / "bad.mlir"
    bad.write_text("llvm.func @f() {\n  %0 = llvm.add : i32\n}\n")
    assert translate_main(["-mlir-to-llvmir", str(bad), "-o", str(tmp_path / "x.ll")]) == 1
    assert not (tmp_path / "x.ll").exists()  # no partial output
    assert "bad.mlir:2:" in capsys.readouterr().err


def test_cli_split_input_file(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    src = tmp_path / "in.mlir"
    src.write_text(
        "llvm.func @a() {\n  llvm.return\n}\n// -----\nfunc.func @b() {\n  return\n}\n"
        "// -----\nllvm.func @c() {\n  llvm.return\n}\n"
    )
    assert translate_main(["--mlir-to-llvmir", "--split-input-file", str(src)]) == 1
    captured = capsys.readouterr()
    assert "define void @a()" in captured.out and "define void @c()" in captured.out
    assert captured.out.count("// -----") == 2
    assert "in.mlir:5:1: error: not supported: 'func.func'" in captured.err


def test_cli_as_a_module_reads_stdin() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mlc.tools.mlc_translate", "--mlir-to-llvmir"],
        input="llvm.func @g(%x: i32) -> i32 {\n  llvm.return %x : i32\n}\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "define i32 @g(i32 %arg0) {" in proc.stdout and "ret i32 %arg0" in proc.stdout
