// RUN: mlc-opt %s -p 'builtin.module(convert-to-llvm)' | filecheck %s
// RUN: mlc-opt %s -p 'builtin.module(convert-to-llvm{merge-bodies=false})' | filecheck %s --check-prefix=APART
// RUN: mlc-opt %s -p 'builtin.module(convert-to-llvm)' --mlir-pass-statistics 2>&1 >/dev/null | filecheck %s --check-prefix=STATS

// Two outlined bodies that differ only in integer constants (the row length 16 / 8: a loop
// bound and a stride) share one function; the constants that differ travel in the context
// struct, after the captured descriptor, and each call site stores its own values (before
// the body's address is taken, which dominates a serial call of the body too). The
// constants both bodies agree on (the step 1, the zero) stay constants in the body.
// CHECK-LABEL: llvm.func internal @rows_parallel_body(%arg0: i64, %arg1: i64, %arg2: !llvm.ptr)
// CHECK:         %[[P:.*]] = llvm.getelementptr %arg2[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, i64)>
// CHECK:         %[[N:.*]] = llvm.load %[[P]] : !llvm.ptr -> i64
// CHECK:         llvm.icmp "slt" %{{.*}}, %[[N]] : i64
// CHECK:         llvm.mul %{{.*}}, %[[N]] : i64
// CHECK:         llvm.return
// CHECK-NOT:   @rows_parallel_body_1(
// CHECK-LABEL: llvm.func @rows(
// CHECK-COUNT-2: llvm.alloca %{{.*}} x !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, i64)> : (i64) -> !llvm.ptr
// CHECK:         %[[C16:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK:         %[[F16:.*]] = llvm.getelementptr %{{.*}}[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, i64)>
// CHECK:         llvm.store %[[C16]], %[[F16]] : i64, !llvm.ptr
// CHECK:         llvm.mlir.addressof @rows_parallel_body : !llvm.ptr
// CHECK:         llvm.call @mlc_parallel_for
// CHECK:         %[[C8:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK:         %[[F8:.*]] = llvm.getelementptr %{{.*}}[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, i64)>
// CHECK:         llvm.store %[[C8]], %[[F8]] : i64, !llvm.ptr
// CHECK:         llvm.mlir.addressof @rows_parallel_body : !llvm.ptr
// CHECK:         llvm.call @mlc_parallel_for

// A float constant that differs keeps the bodies apart.
// CHECK-LABEL: llvm.func internal @scales_parallel_body(
// CHECK-LABEL: llvm.func internal @scales_parallel_body_1(

// APART-LABEL: llvm.func internal @rows_parallel_body(
// APART-LABEL: llvm.func internal @rows_parallel_body_1(

// STATS: 1 num-merged-bodies
func.func @rows(%a: memref<4x16xf32>, %b: memref<4x8xf32>) {
  %one = arith.constant 1.0 : f32
  affine.parallel (%i) = (0) to (4) {
    affine.for %j = 0 to 16 {
      %v = affine.load %a[%i, %j] : memref<4x16xf32>
      %w = arith.addf %v, %one : f32
      affine.store %w, %a[%i, %j] : memref<4x16xf32>
    }
  } {mlc.parallel}
  affine.parallel (%i) = (0) to (4) {
    affine.for %j = 0 to 8 {
      %v = affine.load %b[%i, %j] : memref<4x8xf32>
      %w = arith.addf %v, %one : f32
      affine.store %w, %b[%i, %j] : memref<4x8xf32>
    }
  } {mlc.parallel}
  return
}

func.func @scales(%a: memref<4x16xf32>) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  affine.parallel (%i) = (0) to (4) {
    affine.for %j = 0 to 16 {
      %v = affine.load %a[%i, %j] : memref<4x16xf32>
      %w = arith.mulf %v, %one : f32
      affine.store %w, %a[%i, %j] : memref<4x16xf32>
    }
  } {mlc.parallel}
  affine.parallel (%i) = (0) to (4) {
    affine.for %j = 0 to 16 {
      %v = affine.load %a[%i, %j] : memref<4x16xf32>
      %w = arith.mulf %v, %two : f32
      affine.store %w, %a[%i, %j] : memref<4x16xf32>
    }
  } {mlc.parallel}
  return
}
