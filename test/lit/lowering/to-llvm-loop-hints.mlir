// RUN: mlc-opt %s -p 'builtin.module(convert-to-llvm)' | filecheck %s
// RUN: mlc-opt %s -p 'builtin.module(convert-to-llvm)' --mlir-pass-statistics 2>&1 >/dev/null | filecheck %s --check-prefix=STATS

// A loop whose body mlc vectorized (vector ops, affine.vector_load/store, at any depth) gets
// `vectorize<disable>` and `unroll<disable>` on its latch: LLVM would only duplicate it. A
// scalar loop is left to LLVM (but for maxnum/minnum reductions: to-llvm-minmax-reduction.mlir).
// The knob `loop_hints` (default true) decides per loop.

// First (outlined bodies precede their function): the outlined parallel body's loop over vector code.
// CHECK-LABEL: llvm.func internal @mixed_parallel_body(
// CHECK:       llvm.br ^bb{{[0-9]+}}(%{{.*}}) loop_annotation = #llvm.loop_annotation<vectorize = #llvm.loop_vectorize<disable = true>, unroll = #llvm.loop_unroll<disable = true>>
// CHECK-LABEL: llvm.func @mixed(
// The scalar loop: a plain latch.
// CHECK:       llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK:       llvm.br ^bb{{[0-9]+}}(%{{.*}} : i64){{$}}
// The inner vector loop, then the outer loop that contains it.
// CHECK:       llvm.load %{{.*}} : !llvm.ptr -> vector<8xf32>
// CHECK:       llvm.br ^bb{{[0-9]+}}(%{{.*}}) loop_annotation = #llvm.loop_annotation<vectorize = #llvm.loop_vectorize<disable = true>, unroll = #llvm.loop_unroll<disable = true>>
// CHECK:       llvm.br ^bb{{[0-9]+}}(%{{.*}}) loop_annotation = #llvm.loop_annotation<vectorize = #llvm.loop_vectorize<disable = true>, unroll = #llvm.loop_unroll<disable = true>>
// STATS: (S) 3 num-loop-hints
func.func @mixed(%a: memref<64x64xf32>, %s: memref<64xf32>) {
  affine.for %i = 0 to 64 {
    %x = affine.load %s[%i] : memref<64xf32>
    %y = arith.addf %x, %x : f32
    affine.store %y, %s[%i] : memref<64xf32>
  }
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 step 8 {
      %v = affine.vector_load %a[%i, %j] : memref<64x64xf32>, vector<8xf32>
      %w = arith.addf %v, %v : vector<8xf32>
      affine.vector_store %w, %a[%i, %j] : memref<64x64xf32>, vector<8xf32>
    }
  }
  affine.parallel (%i) = (0) to (64) {
    %c0 = arith.constant 0 : index
    %v = vector.load %a[%i, %c0] : memref<64x64xf32>, vector<8xf32>
    vector.store %v, %a[%i, %c0] : memref<64x64xf32>, vector<8xf32>
  } {mlc.parallel}
  return
}
