// RUN: mlc-opt %s --split-input-file | mlc-opt --split-input-file | filecheck %s
// RUN: mlc-opt %s --split-input-file --mlir-print-op-generic | mlc-opt --split-input-file | filecheck %s
// RUN: mlc-opt %s --split-input-file | %python -m mlc.tools.mlc_translate --mlir-to-llvmir --split-input-file | filecheck %s --check-prefix=IR

// llvm.intr.ldexp: x * 2^k, on scalars and on vectors with a vector of exponents.
// CHECK-LABEL: llvm.func @ldexp(
// CHECK-SAME:      %[[X:.*]]: f32, %[[K:.*]]: i32, %[[V:.*]]: vector<16xf32>, %[[KV:.*]]: vector<16xi32>)
// CHECK:         llvm.intr.ldexp(%[[X]], %[[K]]) : (f32, i32) -> f32
// CHECK:         llvm.intr.ldexp(%[[V]], %[[KV]]) : (vector<16xf32>, vector<16xi32>) -> vector<16xf32>
// IR-LABEL: define float @ldexp(
// IR:         call float @llvm.ldexp.f32.i32(float %arg0, i32 %arg1)
// IR:         call <16 x float> @llvm.ldexp.v16f32.v16i32(<16 x float> %arg2, <16 x i32> %arg3)
// IR-DAG:   declare float @llvm.ldexp.f32.i32(float, i32)
// IR-DAG:   declare <16 x float> @llvm.ldexp.v16f32.v16i32(<16 x float>, <16 x i32>)
llvm.func @ldexp(%x: f32, %k: i32, %v: vector<16xf32>, %kv: vector<16xi32>) -> f32 {
  %0 = llvm.intr.ldexp(%x, %k) : (f32, i32) -> f32
  %1 = llvm.intr.ldexp(%v, %kv) : (vector<16xf32>, vector<16xi32>) -> vector<16xf32>
  llvm.return %0 : f32
}

// -----

// Fast-math flags are printed after the operands and become LLVM's call flags.
// CHECK-LABEL: llvm.func @ldexp_fast(
// CHECK:         llvm.intr.ldexp(%{{.*}}, %{{.*}}) fastmath<fast> : (f64, i32) -> f64
// IR-LABEL: define double @ldexp_fast(
// IR:         call fast double @llvm.ldexp.f64.i32(double %arg0, i32 %arg1)
llvm.func @ldexp_fast(%x: f64, %k: i32) -> f64 {
  %0 = "llvm.intr.ldexp"(%x, %k) <{fastmathFlags = #llvm.fastmath<fast>}> : (f64, i32) -> f64
  llvm.return %0 : f64
}
