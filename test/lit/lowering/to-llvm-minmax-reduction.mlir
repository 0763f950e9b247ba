// RUN: mlc-opt %s -p 'builtin.module(convert-to-llvm)' | filecheck %s

// A scalar loop carrying a maxnumf/minnumf reduction keeps LLVM's loop vectorizer away
// (`vectorize<disable>` on its latch, unrolling left to LLVM): LLVM 22 miscompiles such a
// reduction over a small constant trip count (it drops the iterations after the first vector
// one when no element is NaN). A loop whose maxnum does not feed its own carried value, or
// whose reduction is maximumf, stays a plain loop.

// CHECK-LABEL: llvm.func @rowmax(
// CHECK:       llvm.intr.maxnum
// CHECK:       llvm.br ^bb{{[0-9]+}}(%{{.*}}) loop_annotation = #llvm.loop_annotation<vectorize = #llvm.loop_vectorize<disable = true>>{{$}}
func.func @rowmax(%a: memref<10xf32>) -> f32 {
  %init = arith.constant 0xFF800000 : f32
  %m = affine.for %i = 0 to 10 iter_args(%acc = %init) -> (f32) {
    %x = affine.load %a[%i] : memref<10xf32>
    %y = arith.maxnumf %x, %acc : f32
    affine.yield %y : f32
  }
  return %m : f32
}

// CHECK-LABEL: llvm.func @rowmin(
// CHECK:       llvm.intr.minnum
// CHECK:       llvm.br ^bb{{[0-9]+}}(%{{.*}}) loop_annotation = #llvm.loop_annotation<vectorize = #llvm.loop_vectorize<disable = true>>{{$}}
func.func @rowmin(%a: memref<13xf32>) -> f32 {
  %init = arith.constant 0x7F800000 : f32
  %m = affine.for %i = 0 to 13 iter_args(%acc = %init) -> (f32) {
    %x = affine.load %a[%i] : memref<13xf32>
    %y = arith.minnumf %acc, %x : f32
    affine.yield %y : f32
  }
  return %m : f32
}

// CHECK-LABEL: llvm.func @elementwise(
// CHECK:       llvm.intr.maxnum
// CHECK:       llvm.br ^bb{{[0-9]+}}(%{{.*}} : i64){{$}}
func.func @elementwise(%a: memref<10xf32>, %b: memref<10xf32>) {
  affine.for %i = 0 to 10 {
    %x = affine.load %a[%i] : memref<10xf32>
    %y = affine.load %b[%i] : memref<10xf32>
    %z = arith.maxnumf %x, %y : f32
    affine.store %z, %a[%i] : memref<10xf32>
  }
  return
}

// CHECK-LABEL: llvm.func @rowmaximum(
// CHECK:       llvm.fcmp "uno"
// CHECK:       llvm.br ^bb{{[0-9]+}}(%{{.*}} : i64, f32){{$}}
func.func @rowmaximum(%a: memref<10xf32>) -> f32 {
  %init = arith.constant 0xFF800000 : f32
  %m = affine.for %i = 0 to 10 iter_args(%acc = %init) -> (f32) {
    %x = affine.load %a[%i] : memref<10xf32>
    %y = arith.maximumf %x, %acc : f32
    affine.yield %y : f32
  }
  return %m : f32
}
