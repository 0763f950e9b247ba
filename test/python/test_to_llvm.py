"""convert-to-llvm end to end: affine/memref/arith/math/vector programs lowered to the llvm
dialect, translated to LLVM IR, compiled by mlc.runtime and compared with NumPy; plus the
failure diagnostics of the pass."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from mlc.lowering.to_llvm import lower_module
from mlc.lowering.translate import translate_module

import mlc
from mlc.diagnostics import engine
from mlc.interp import run
from mlc.ir import attributes as A
from mlc.runtime import ArgSpec, InputDim, Signature, compile_llvm_ir
from mlc.syntax.parser import parse_module
from mlc.syntax.printer import print_op
from mlc.verifier import verify


def lower(text: str) -> object:
    module = parse_module(text)
    verify(module)
    assert lower_module(module)
    verify(module)
    for op in module.walk():
        assert op.dialect_name in ("llvm", "builtin"), op.name
    return module


def build(text: str, signatures: dict[str, Signature], threads: int | None = None) -> object:
    ir = translate_module(lower(text))  # type: ignore[arg-type]
    if threads is None:
        return compile_llvm_ir(ir, signatures)
    return compile_llvm_ir(ir, signatures, threads=threads)


def sig(inputs: list, outputs: list) -> Signature:
    return Signature([ArgSpec(*a) for a in inputs], [ArgSpec(*a) for a in outputs])


RNG = np.random.default_rng(0)


MATMUL = """
func.func @matmul(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %k = memref.dim %a, %c1 : memref<?x?xf32>
  %n = memref.dim %b, %c1 : memref<?x?xf32>
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to %m {
    affine.for %j = 0 to %n {
      %s = affine.for %p = 0 to %k iter_args(%acc = %zero) -> (f32) {
        %x = affine.load %a[%i, %p] : memref<?x?xf32>
        %y = affine.load %b[%p, %j] : memref<?x?xf32>
        %xy = arith.mulf %x, %y : f32
        %r = arith.addf %acc, %xy : f32
        affine.yield %r : f32
      }
      affine.store %s, %c[%i, %j] : memref<?x?xf32>
    }
  }
  return
}
"""


def test_matmul_loop_nest() -> None:
    s = sig([("a", "f32", ("m", "k")), ("b", "f32", ("k", "n"))], [("c", "f32", ("m", "n"))])
    mod = build(MATMUL, {"matmul": s})
    a = RNG.standard_normal((5, 7)).astype(np.float32)
    b = RNG.standard_normal((7, 3)).astype(np.float32)
    np.testing.assert_allclose(mod.matmul(a, b), a @ b, rtol=1e-5, atol=1e-5)  # type: ignore[attr-defined]


ELEMENTWISE = """
func.func @ew(%x: memref<?xf32>, %y: memref<?xf64>, %out: memref<?xf32>, %out2: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  affine.for %i = 0 to %n {
    %v = affine.load %x[%i] : memref<?xf32>
    %e = math.exp %v : f32
    %t = math.tanh %v : f32
    %q = math.erf %v : f32
    %a = math.absf %v : f32
    %s = math.sqrt %a : f32
    %m = arith.maximumf %e, %t : f32
    %r0 = arith.addf %m, %q fastmath<contract> : f32
    %r1 = arith.subf %r0, %s : f32
    affine.store %r1, %out[%i] : memref<?xf32>
    %w = affine.load %y[%i] : memref<?xf64>
    %wf = math.floor %w : f64
    %wc = math.cos %w : f64
    %p = math.powf %wc, %wf : f64
    %h = arith.truncf %p : f64 to f16
    %hh = math.sin %h : f16
    %back = arith.extf %hh : f16 to f64
    affine.store %back, %out2[%i] : memref<?xf64>
  }
  return
}
"""


def test_elementwise_dynamic_sizes_intrinsics_and_libm() -> None:
    s = sig(
        [("x", "f32", ("n",)), ("y", "f64", ("n",))],
        [("o", "f32", ("n",)), ("o2", "f64", ("n",))],
    )
    mod = build(ELEMENTWISE, {"ew": s})
    import math

    erf = np.vectorize(math.erf)
    for n in (1, 13):
        x = RNG.standard_normal(n).astype(np.float32)
        y = RNG.standard_normal(n) * 3
        o, o2 = mod.ew(x, y)  # type: ignore[attr-defined]
        want = np.maximum(np.exp(x), np.tanh(x)) + erf(x) - np.sqrt(np.abs(x))
        np.testing.assert_allclose(o, want.astype(np.float32), rtol=1e-5, atol=1e-6)
        h = (np.cos(y) ** np.floor(y)).astype(np.float16)
        want2 = np.sin(h.astype(np.float32)).astype(np.float16).astype(np.float64)
        np.testing.assert_allclose(o2, want2, rtol=2e-3)


REDUCE_IF = """
func.func @rowstats(%x: memref<?x8xf32>, %sum: memref<?xf32>, %clip: memref<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x8xf32>
  %z = arith.constant 0.0 : f32
  affine.for %i = 0 to %n {
    %s = affine.for %j = 0 to 8 step 2 iter_args(%acc = %z) -> (f32) {
      %v = affine.load %x[%i, %j] : memref<?x8xf32>
      %w = affine.load %x[%i, %j + 1] : memref<?x8xf32>
      %vw = arith.addf %v, %w : f32
      %r = arith.addf %acc, %vw : f32
      affine.yield %r : f32
    }
    affine.store %s, %sum[%i] : memref<?xf32>
    affine.for %j = 0 to 8 {
      %v = affine.load %x[%i, %j] : memref<?x8xf32>
      %r = affine.if affine_set<(d0, d1) : (d0 - d1 - 1 >= 0)>(%i, %j) -> f32 {
        affine.yield %v : f32
      } else {
        %neg = arith.negf %v : f32
        affine.yield %neg : f32
      }
      affine.store %r, %clip[%i, %j] : memref<?x8xf32>
    }
  }
  return
}
"""


def test_reduction_iter_args_and_affine_if() -> None:
    s = sig([("x", "f32", ("n", 8))], [("s", "f32", (InputDim(0, 0),)), ("c", "f32", ("n", 8))])
    mod = build(REDUCE_IF, {"rowstats": s})
    x = RNG.standard_normal((11, 8)).astype(np.float32)
    total, clip = mod.rowstats(x)  # type: ignore[attr-defined]
    np.testing.assert_allclose(total, x.sum(axis=1), rtol=1e-5, atol=1e-5)
    i, j = np.indices(x.shape)
    np.testing.assert_array_equal(clip, np.where(i - j - 1 >= 0, x, -x))


AFFINE_MATH = """
func.func @divmod(%x: memref<?xi64>, %o: memref<?x4xi64>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xi64>
  affine.for %i = 0 to %n {
    %v = affine.load %x[%i] : memref<?xi64>
    %k = arith.index_cast %v : i64 to index
    %f = affine.apply affine_map<(d0) -> (d0 floordiv 3)>(%k)
    %c = affine.apply affine_map<(d0) -> (d0 ceildiv 3)>(%k)
    %m = affine.apply affine_map<(d0) -> (d0 mod 3)>(%k)
    %mx = affine.max affine_map<(d0)[s0] -> (d0 * 2, s0 - 5, -7)>(%k)[%n]
    %fi = arith.index_cast %f : index to i64
    %ci = arith.index_cast %c : index to i64
    %mi = arith.index_cast %m : index to i64
    %xi = arith.index_cast %mx : index to i64
    affine.store %fi, %o[%i, 0] : memref<?x4xi64>
    affine.store %ci, %o[%i, 1] : memref<?x4xi64>
    affine.store %mi, %o[%i, 2] : memref<?x4xi64>
    affine.store %xi, %o[%i, 3] : memref<?x4xi64>
  }
  return
}
"""


def test_affine_floordiv_ceildiv_mod_on_negatives_and_max() -> None:
    s = sig([("x", "i64", ("n",))], [("o", "i64", (InputDim(0, 0), 4))])
    mod = build(AFFINE_MATH, {"divmod": s})
    x = np.arange(-9, 10, dtype=np.int64)
    o = mod.divmod(x)  # type: ignore[attr-defined]
    n = len(x)
    np.testing.assert_array_equal(o[:, 0], x // 3)
    np.testing.assert_array_equal(o[:, 1], -(-x // 3))
    np.testing.assert_array_equal(o[:, 2], x % 3)
    np.testing.assert_array_equal(o[:, 3], np.maximum(np.maximum(2 * x, n - 5), -7))


TEMP_AND_GLOBAL = """
memref.global "private" constant @w : memref<2x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]>
func.func @f(%x: memref<?x3xf32>, %y: memref<?x2xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x3xf32>
  %w = memref.get_global @w : memref<2x3xf32>
  %t = memref.alloc(%n) : memref<?x3xf32>
  affine.for %i = 0 to %n {
    affine.for %j = 0 to 3 {
      %v = affine.load %x[%i, %j] : memref<?x3xf32>
      %e = arith.mulf %v, %v : f32
      affine.store %e, %t[%i, %j] : memref<?x3xf32>
    }
  }
  %z = arith.constant 0.0 : f32
  affine.for %i = 0 to %n {
    affine.for %o = 0 to 2 {
      %s = affine.for %j = 0 to 3 iter_args(%acc = %z) -> (f32) {
        %a = affine.load %t[%i, %j] : memref<?x3xf32>
        %b = affine.load %w[%o, %j] : memref<2x3xf32>
        %ab = arith.mulf %a, %b : f32
        %r = arith.addf %acc, %ab : f32
        affine.yield %r : f32
      }
      affine.store %s, %y[%i, %o] : memref<?x2xf32>
    }
  }
  memref.dealloc %t : memref<?x3xf32>
  return
}
"""


def test_alloc_dealloc_temporary_and_global_constant() -> None:
    s = sig([("x", "f32", ("n", 3))], [("y", "f32", ("n", 2))])
    mod = build(TEMP_AND_GLOBAL, {"f": s})
    w = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.float32)
    for n in (1, 6):
        x = RNG.standard_normal((n, 3)).astype(np.float32)
        np.testing.assert_allclose(mod.f(x), (x * x) @ w.T, rtol=1e-5, atol=1e-5)  # type: ignore[attr-defined]


def test_alloc_is_64_byte_aligned() -> None:
    # A dynamic size: a small static buffer freed in its block gets a stack slot instead.
    text = """
    func.func @addr(%o: memref<1xi64>) {
      %n = arith.constant 3 : index
      %t = memref.alloc(%n) : memref<?xf32>
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      memref.store %one, %t[%c0] : memref<?xf32>
      %v = memref.load %t[%c0] : memref<?xf32>
      memref.dealloc %t : memref<?xf32>
      %c = arith.fptosi %v : f32 to i64
      memref.store %c, %o[%c0] : memref<1xi64>
      return
    }
    """
    m = lower(text)
    ir = translate_module(m)  # type: ignore[arg-type]
    assert "call ptr @malloc(i64 75)" in ir and "urem i64" in ir and "call void @free" in ir
    mod = compile_llvm_ir(ir, {"addr": sig([], [("o", "i64", (1,))])})
    assert mod.addr()[0] == 1  # type: ignore[attr-defined]


VECTOR = """
func.func @saxpy(%x: memref<?xf32>, %y: memref<?xf32>, %o: memref<?xf32>, %s: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %a = arith.constant dense<2.5> : vector<8xf32>
  %z = arith.constant dense<0.0> : vector<8xf32>
  %acc = affine.for %i = 0 to %n step 8 iter_args(%acc = %z) -> (vector<8xf32>) {
    %vx = affine.vector_load %x[%i] : memref<?xf32>, vector<8xf32>
    %vy = affine.vector_load %y[%i] : memref<?xf32>, vector<8xf32>
    %r = vector.fma %a, %vx, %vy : vector<8xf32>
    affine.vector_store %r, %o[%i] : memref<?xf32>, vector<8xf32>
    %next = arith.addf %acc, %r : vector<8xf32>
    affine.yield %next : vector<8xf32>
  }
  %sum = vector.reduction <add>, %acc : vector<8xf32> into f32
  affine.store %sum, %s[0] : memref<1xf32>
  return
}
"""


def test_vector_load_store_loop_and_reduction() -> None:
    s = sig(
        [("x", "f32", ("n",)), ("y", "f32", ("n",))], [("o", "f32", ("n",)), ("s", "f32", (1,))]
    )
    mod = build(VECTOR, {"saxpy": s})
    x = RNG.standard_normal(32).astype(np.float32)
    y = RNG.standard_normal(32).astype(np.float32)
    o, total = mod.saxpy(x, y)  # type: ignore[attr-defined]
    np.testing.assert_allclose(o, 2.5 * x + y, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(total[0], (2.5 * x + y).sum(), rtol=1e-4, atol=1e-4)


PARALLEL = """
func.func @scale(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %x, %c0 : memref<?x?xf32>
  %n = memref.dim %x, %c1 : memref<?x?xf32>
  %k = arith.constant 3.0 : f32
  affine.parallel (%i, %j) = (0, 0) to (%m, %n) {
    %v = affine.load %x[%i, %j] : memref<?x?xf32>
    %w = arith.mulf %v, %k : f32
    affine.store %w, %y[%i, %j] : memref<?x?xf32>
  } {mlc.parallel}
  return
}
"""


@pytest.mark.parametrize("outlined", [True, False])
def test_affine_parallel_outlined_and_sequential(outlined: bool) -> None:
    text = PARALLEL if outlined else PARALLEL.replace(" {mlc.parallel}", "")
    ir = translate_module(lower(text))  # type: ignore[arg-type]
    assert ("@mlc_parallel_for" in ir) == outlined
    s = sig([("x", "f32", ("m", "n"))], [("y", "f32", ("m", "n"))])
    mod = compile_llvm_ir(ir, {"scale": s}, threads=3)
    x = RNG.standard_normal((10, 5)).astype(np.float32)
    np.testing.assert_array_equal(mod.scale(x), x * np.float32(3))  # type: ignore[attr-defined]


PAR_REDUCE = """
func.func @colsum(%x: memref<?x4xf32>, %o: memref<4xf32>, %mx: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x4xf32>
  affine.for %j = 0 to 4 {
    %s = affine.parallel (%i) = (0) to (%n) reduce ("addf") -> (f32) {
      %v = affine.load %x[%i, %j] : memref<?x4xf32>
      affine.yield %v : f32
    }
    affine.store %s, %o[%j] : memref<4xf32>
  }
  %m = affine.parallel (%i, %j) = (0, 0) to (%n, 4) reduce ("maxs") -> (i32) {
    %v = affine.load %x[%i, %j] : memref<?x4xf32>
    %t = arith.fptosi %v : f32 to i32
    affine.yield %t : i32
  }
  affine.store %m, %mx[0] : memref<1xi32>
  return
}
"""


def test_affine_parallel_reductions() -> None:
    s = sig([("x", "f32", ("n", 4))], [("o", "f32", (4,)), ("m", "i32", (1,))])
    mod = build(PAR_REDUCE, {"colsum": s})
    x = (RNG.standard_normal((9, 4)) * 10).astype(np.float32)
    o, m = mod.colsum(x)  # type: ignore[attr-defined]
    np.testing.assert_allclose(o, x.sum(axis=0), rtol=1e-5, atol=1e-4)
    assert m[0] == x.astype(np.int32).max()


CALLS = """
func.func private @helper(%x: memref<?xf32>, %i: index) -> (f32, index) {
  %v = memref.load %x[%i] : memref<?xf32>
  %two = arith.constant 2.0 : f32
  %r = arith.mulf %v, %two : f32
  %c1 = arith.constant 1 : index
  %j = arith.addi %i, %c1 : index
  return %r, %j : f32, index
}
func.func @main(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  affine.for %i = 0 to %n {
    %r, %j = func.call @helper(%x, %i) : (memref<?xf32>, index) -> (f32, index)
    %ji = arith.index_cast %j : index to i64
    %jf = arith.sitofp %ji : i64 to f32
    %s = arith.addf %r, %jf : f32
    memref.store %s, %y[%i] : memref<?xf32>
  }
  return
}
"""


def test_calls_expand_memrefs_and_pack_results() -> None:
    mod = build(CALLS, {"main": sig([("x", "f32", ("n",))], [("y", "f32", ("n",))])})
    x = RNG.standard_normal(6).astype(np.float32)
    np.testing.assert_allclose(mod.main(x), 2 * x + np.arange(1, 7), rtol=1e-6)  # type: ignore[attr-defined]


INTS = """
func.func @ints(%a: memref<?xi32>, %b: memref<?xi32>, %o: memref<?x6xi32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?xi32>
  affine.for %i = 0 to %n {
    %x = affine.load %a[%i] : memref<?xi32>
    %y = affine.load %b[%i] : memref<?xi32>
    %r0 = arith.floordivsi %x, %y : i32
    %r1 = arith.ceildivsi %x, %y : i32
    %r2 = arith.remsi %x, %y : i32
    %r3 = arith.maxsi %x, %y : i32
    %r4 = arith.minui %x, %y : i32
    %r5 = math.absi %x : i32
    affine.store %r0, %o[%i, 0] : memref<?x6xi32>
    affine.store %r1, %o[%i, 1] : memref<?x6xi32>
    affine.store %r2, %o[%i, 2] : memref<?x6xi32>
    affine.store %r3, %o[%i, 3] : memref<?x6xi32>
    affine.store %r4, %o[%i, 4] : memref<?x6xi32>
    affine.store %r5, %o[%i, 5] : memref<?x6xi32>
  }
  return
}
"""


def test_integer_arith_expansions() -> None:
    s = sig([("a", "i32", ("n",)), ("b", "i32", ("n",))], [("o", "i32", (InputDim(0, 0), 6))])
    mod = build(INTS, {"ints": s})
    a = np.array([7, -7, 7, -7, 6, -6, 0, 5], dtype=np.int32)
    b = np.array([2, 2, -2, -2, 3, -3, 4, -1], dtype=np.int32)
    o = mod.ints(a, b)  # type: ignore[attr-defined]
    np.testing.assert_array_equal(o[:, 0], a // b)
    np.testing.assert_array_equal(o[:, 1], -(-a // b))
    np.testing.assert_array_equal(o[:, 2], np.fmod(a, b))
    np.testing.assert_array_equal(o[:, 3], np.maximum(a, b))
    np.testing.assert_array_equal(
        o[:, 4], np.minimum(a.view(np.uint32), b.view(np.uint32)).view(np.int32)
    )
    np.testing.assert_array_equal(o[:, 5], np.abs(a))


def test_maximumf_minimumf_nan_and_signed_zero() -> None:
    text = """
    func.func @mm(%a: memref<?xf32>, %b: memref<?xf32>, %o: memref<?x2xf32>) {
      %c0 = arith.constant 0 : index
      %n = memref.dim %a, %c0 : memref<?xf32>
      affine.for %i = 0 to %n {
        %x = affine.load %a[%i] : memref<?xf32>
        %y = affine.load %b[%i] : memref<?xf32>
        %mx = arith.maximumf %x, %y : f32
        %mn = arith.minimumf %x, %y : f32
        affine.store %mx, %o[%i, 0] : memref<?x2xf32>
        affine.store %mn, %o[%i, 1] : memref<?x2xf32>
      }
      return
    }
    """
    s = sig([("a", "f32", ("n",)), ("b", "f32", ("n",))], [("o", "f32", (InputDim(0, 0), 2))])
    mod = build(text, {"mm": s})
    a = np.array([0.0, -0.0, np.nan, 1.0, 3.0], dtype=np.float32)
    b = np.array([-0.0, 0.0, 1.0, np.nan, -2.0], dtype=np.float32)
    o = mod.mm(a, b)  # type: ignore[attr-defined]
    # IEEE 754-2019 maximum/minimum (MLIR's semantics): NaN propagates, -0.0 < +0.0.
    nan = np.nan
    np.testing.assert_array_equal(o[:, 0], [0.0, 0.0, nan, nan, 3.0])
    np.testing.assert_array_equal(o[:, 1], [-0.0, -0.0, nan, nan, -2.0])
    assert list(np.signbit(o[:2, 0])) == [False, False]
    assert list(np.signbit(o[:2, 1])) == [True, True]


# ---------------------------------------------------------------------------------------------
# Failures


def _errors(text: str) -> list[str]:
    module = parse_module(text)
    with engine.capture() as diags:
        ok = lower_module(module)
    assert not ok
    return [d.render(show_source=False) + "".join(n.message for n in d.notes) for d in diags]


def test_unlowerable_op_fails_to_legalize_and_leaves_module_unchanged() -> None:
    text = """
    func.func @f(%x: memref<4xf32>) {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %t = memref.alloc() : memref<4xf32>
      memref.copy %x, %t : memref<4xf32> to memref<4xf32>
      %v = vector.transfer_read %x[%c0], %pad : memref<4xf32>, vector<4xf32>
      return
    }
    """
    module = parse_module(text)
    before = str(module)
    with engine.capture() as diags:
        assert not lower_module(module)
    assert "failed to legalize operation 'vector.transfer_read'" in diags[0].message
    assert str(module) == before


def test_not_supported_reason_is_a_note() -> None:
    text = """
    func.func @f(%x: memref<4xf32>, %i: index, %s: index) {
      %v = affine.apply affine_map<(d0)[s0] -> (d0 mod s0)>(%i)[%s]
      return
    }
    """
    (msg,) = _errors(text)
    assert "failed to legalize operation 'affine.apply'" in msg
    assert "not supported: semi-affine expression" in msg


# ---------------------------------------------------------------------------------------------
# Graph programs end to end: graph -> tensor -> bufferize -> affine -> llvm -> LLVM IR -> JIT,
# compared with the reference interpreter.

GRAPH_PIPELINE = (
    "builtin.module(convert-graph-to-tensor,bufferize,convert-tensor-to-affine,convert-to-llvm)"
)
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NP_TYPES = {
    "f16": np.float16,
    "f32": np.float32,
    "f64": np.float64,
    "i32": np.int32,
    "i64": np.int64,
}


def graph_signatures(module: object, originals: dict) -> dict[str, Signature]:
    """Runtime signatures of the lowered entry functions: inputs from the original tensor types,
    output dims from `mlc.result_shapes` (symbols: all input dims in argument order)."""
    sigs = {}
    for op in module.regions[0].blocks[0]:  # type: ignore[attr-defined]
        shapes = op.get_attr("mlc.result_shapes")
        name = op.get_attr("sym_name")
        if op.name != "llvm.func" or shapes is None or name.value not in originals:
            continue
        ins, outs = originals[name.value]
        dims: list[tuple[int, int, int]] = []
        inputs = []
        for k, t in enumerate(ins):
            shape = tuple(None if d == A.DYNAMIC else d for d in t.shape)
            inputs.append(ArgSpec(f"a{k}", str(t.element_type), shape))
            dims += [(k, j, d) for j, d in enumerate(t.shape)]
        outputs = []
        for r, (t, m) in enumerate(zip(outs, shapes.value)):
            shape: list = []
            for e in m.value.results:
                if e.kind == "constant":
                    shape.append(e.value)
                else:
                    assert e.kind == "symbol", f"output dim {e} is not an input dim"
                    k, j, d = dims[e.position]
                    shape.append(d if d != A.DYNAMIC else InputDim(k, j))
            outputs.append(ArgSpec(f"r{r}", str(t.element_type), tuple(shape)))
        sigs[name.value] = Signature(inputs, outputs)
    return sigs


def compile_graph(text: str) -> tuple[object, dict]:
    module = mlc.parse(text)
    originals = {}
    for op in module.regions[0].blocks[0]:
        ft = op.get_attr("function_type")
        if op.name == "func.func" and op.get_attr("sym_visibility") is None:
            ins, outs = ft.value.inputs, ft.value.results  # type: ignore[union-attr]
            if all(type(t) is A.RankedTensorType for t in (*ins, *outs)):
                originals[op.get_attr("sym_name").value] = (ins, outs)  # type: ignore[union-attr]
    mlc.run_pipeline(module, GRAPH_PIPELINE)
    ir = translate_module(module)
    return compile_llvm_ir(ir, graph_signatures(module, originals)), originals


@pytest.mark.parametrize("example", ["mlp", "attention", "conv", "linreg_cg"])
def test_graph_examples_match_the_interpreter(example: str) -> None:
    text = (EXAMPLES / f"{example}.mlir").read_text()
    jit, originals = compile_graph(text)
    assert originals
    rng = np.random.default_rng(7)
    for name, (ins, _) in originals.items():
        for batch in (1, 3):
            args = [
                rng.standard_normal([batch if d == A.DYNAMIC else d for d in t.shape]).astype(
                    NP_TYPES[str(t.element_type)]
                )
                for t in ins
            ]
            want = run(text, name, *args)
            got = jit[name](*args)  # type: ignore[index]
            got = got if isinstance(got, tuple) else (got,)
            for w, g in zip(want, got):
                np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)


GRAPH_OPS = """
func.func @main(%x: tensor<?x6xf32>, %y: tensor<6xf32>) -> (tensor<?x6xf32>, tensor<?xf32>) {
  %a = graph.add %x, %y : (tensor<?x6xf32>, tensor<6xf32>) -> tensor<?x6xf32>
  %t = graph.tanh %a : tensor<?x6xf32>
  %e = graph.exp %t : tensor<?x6xf32>
  %m = graph.reduce_max %e {axes = array<i64: 1>} : (tensor<?x6xf32>) -> tensor<?xf32>
  return %e, %m : tensor<?x6xf32>, tensor<?xf32>
}
"""


def test_graph_elementwise_and_reduction_two_results() -> None:
    try:
        jit, _ = compile_graph(GRAPH_OPS)
    except Exception as e:  # noqa: BLE001 - report which level rejected the program
        pytest.fail(f"lowering failed: {e}")
    x = RNG.standard_normal((4, 6)).astype(np.float32)
    y = RNG.standard_normal(6).astype(np.float32)
    want = run(GRAPH_OPS, "main", x, y)
    got = jit["main"](x, y)  # type: ignore[index]
    for w, g in zip(want, got):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


@pytest.mark.skipif(shutil.which("iree-opt") is None, reason="iree-opt (MLIR) not installed")
def test_lowered_ir_verifies_in_mlir() -> None:
    """MLIR's own verifier accepts the llvm dialect convert-to-llvm produces (generic form);
    one iree-opt run over all programs."""
    programs = [MATMUL, TEMP_AND_GLOBAL, VECTOR, PARALLEL, PAR_REDUCE, CALLS, INTS, ELEMENTWISE]
    text = "\n// -----\n".join(print_op(lower(p), generic=True) for p in programs)  # type: ignore[arg-type]
    proc = subprocess.run(
        ["iree-opt", "--split-input-file", "-"],
        input=text,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("llvm.func") >= len(programs)


def test_extended_arithmetic() -> None:
    text = """
    func.func @ext(%a: memref<?xi32>, %b: memref<?xi32>, %o: memref<?x5xi32>) {
      %c0 = arith.constant 0 : index
      %n = memref.dim %a, %c0 : memref<?xi32>
      affine.for %i = 0 to %n {
        %x = affine.load %a[%i] : memref<?xi32>
        %y = affine.load %b[%i] : memref<?xi32>
        %s, %c = arith.addui_extended %x, %y : i32, i1
        %sl, %sh = arith.mulsi_extended %x, %y : i32
        %ul, %uh = arith.mului_extended %x, %y : i32
        %ci = arith.extui %c : i1 to i32
        affine.store %s, %o[%i, 0] : memref<?x5xi32>
        affine.store %ci, %o[%i, 1] : memref<?x5xi32>
        affine.store %sl, %o[%i, 2] : memref<?x5xi32>
        affine.store %sh, %o[%i, 3] : memref<?x5xi32>
        affine.store %uh, %o[%i, 4] : memref<?x5xi32>
      }
      return
    }
    """
    s = sig([("a", "i32", ("n",)), ("b", "i32", ("n",))], [("o", "i32", (InputDim(0, 0), 5))])
    mod = build(text, {"ext": s})
    a = np.array([3, -1, 2**31 - 1, -(2**31), 123456789], dtype=np.int32)
    b = np.array([4, 1, 2, -1, -987654321], dtype=np.int32)
    o = mod.ext(a, b)  # type: ignore[attr-defined]
    ua, ub = a.view(np.uint32).astype(np.uint64), b.view(np.uint32).astype(np.uint64)
    np.testing.assert_array_equal(o[:, 0], (a.astype(np.int64) + b).astype(np.int32))
    np.testing.assert_array_equal(o[:, 1], (ua + ub) >> 32)
    sp = a.astype(np.int64) * b.astype(np.int64)
    np.testing.assert_array_equal(o[:, 2], sp.astype(np.int32))
    np.testing.assert_array_equal(o[:, 3], (sp >> 32).astype(np.int32))
    np.testing.assert_array_equal(o[:, 4], ((ua * ub) >> 32).astype(np.uint32).view(np.int32))


REUSE = """
func.func @reuse(%a: memref<?x16xf32>, %b: memref<?x16xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?x16xf32>
  affine.for %i = 0 to %n {
    %first = affine.load %a[%i, 0] : memref<?x16xf32>
    affine.store %first, %b[%i, 0] : memref<?x16xf32>
    affine.for %j = 0 to 16 step 2 {
      %x = affine.load %a[%i, %j floordiv 2] : memref<?x16xf32>
      %y = affine.load %b[%i, %j floordiv 2] : memref<?x16xf32>
      %s = arith.addf %x, %y : f32
      affine.store %s, %a[%i, %j floordiv 2] : memref<?x16xf32>
    }
  }
  return
}
"""


def test_equal_pure_ops_and_constants_are_built_once() -> None:
    module = lower(REUSE)
    (func,) = [op for op in module.walk() if op.name == "llvm.func"]
    blocks = func.regions[0].blocks
    # The inner loop's three accesses share one index computation (floordiv: a compare, two
    # selects, a division), and the row offset (i * 16) comes from the outer loop's body,
    # which dominates the inner one: as cse would make of it.
    outer = [op.name for op in blocks[2].ops]
    inner = [op.name for op in blocks[4].ops]
    assert outer.count("llvm.mul") == 1, outer
    assert inner.count("llvm.sdiv") == 1 and inner.count("llvm.select") == 2, inner
    assert inner.count("llvm.mul") == 0 and inner.count("llvm.load") == 2, inner
    # Each constant is made once per function, at the top of the entry block.
    consts = [op for op in func.walk() if op.name == "llvm.mlir.constant"]
    assert all(c.parent is blocks[0] for c in consts)
    values = [(c.get_attr("value"), c.results[0].type) for c in consts]
    assert len(values) == len(set(values))
    # What cse finds left to do (the same computation in different blocks) changes nothing here.
    before = print_op(module)
    mlc.run_pipeline(module, "builtin.module(cse)")
    assert print_op(module) == before
    a = RNG.standard_normal((3, 16)).astype(np.float32)
    b = RNG.standard_normal((3, 16)).astype(np.float32)
    expected = a.copy()
    b_in = b.copy()
    b_in[:, 0] = a[:, 0]
    b = b_in.copy()
    for j in range(0, 16, 2):
        expected[:, j // 2] = expected[:, j // 2] + b[:, j // 2]
    s = sig([("a", np.float32, ("n", 16)), ("b", np.float32, ("n", 16))], [])
    m = compile_llvm_ir(translate_module(module), {"reuse": s})
    m["reuse"](a, b)
    np.testing.assert_array_equal(a, expected)


@pytest.mark.parametrize("example", ["mlp", "attention", "conv", "linreg_cg"])
def test_lower_to_cpu_leaves_cse_nothing_to_do(example: str) -> None:
    # lower-to-cpu has no cse after convert-to-llvm: the conversion builds each effect-free op
    # once per dominating block, so a cse there would change nothing.
    module = mlc.parse((EXAMPLES / f"{example}.mlir").read_text())
    mlc.run_pipeline(module, "builtin.module(lower-to-cpu)")
    before = print_op(module)
    mlc.run_pipeline(module, "builtin.module(cse)")
    assert print_op(module) == before
