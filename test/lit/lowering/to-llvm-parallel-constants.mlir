// RUN: mlc-opt %s -p 'builtin.module(convert-to-llvm)' | filecheck %s

// Constants defined outside an outlined mlc.parallel loop are rematerialized in the body, not
// passed through the context struct: only the memref descriptor (and the index bound) travel.
// CHECK-LABEL: llvm.func internal @scale_parallel_body(%arg0: i64, %arg1: i64, %arg2: !llvm.ptr)
// CHECK-DAG:     llvm.mlir.constant(dense<2.000000e+00> : vector<4xf32>) : vector<4xf32>
// CHECK-DAG:     llvm.mlir.constant(1.500000e+00 : f32) : f32
// CHECK-DAG:     llvm.getelementptr %arg2[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i64, struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>)>
// CHECK:         llvm.return
// CHECK-LABEL: llvm.func @scale(
// CHECK:         llvm.alloca %{{.*}} x !llvm.struct<(i64, struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>)> : (i64) -> !llvm.ptr
// CHECK-NOT:     llvm.store %{{.*}} : f32
// CHECK-NOT:     llvm.store %{{.*}} : vector<4xf32>
// CHECK:         llvm.call @mlc_parallel_for
func.func @scale(%x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %two = arith.constant dense<2.0> : vector<4xf32>
  %s = arith.constant 1.5 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  affine.parallel (%i) = (0) to (%n) step (4) {
    %v = vector.load %x[%i] : memref<?xf32>, vector<4xf32>
    %w = arith.mulf %v, %two : vector<4xf32>
    vector.store %w, %x[%i] : memref<?xf32>, vector<4xf32>
    %e = affine.load %x[%i] : memref<?xf32>
    %f = arith.addf %e, %s : f32
    affine.store %f, %x[%i] : memref<?xf32>
  } {mlc.parallel}
  return
}
