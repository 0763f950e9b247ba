// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-unroll-jam{unroll-jam-factor=4}))' | filecheck %s
// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-loop-unroll-jam{unroll-jam-factor=4}))' | filecheck %s

// The outer loop is unrolled by 4 and the copies of the inner body jammed into one inner
// loop (as MLIR's affine-loop-unroll-jam); 10 rows leave a cleanup loop of 2.
// CHECK-DAG: #[[P1:.+]] = affine_map<(d0) -> (d0 + 1)>
// CHECK-LABEL: func.func @rows
// CHECK: affine.for %[[I:.+]] = 0 to 8 step 4 {
// CHECK-NEXT: affine.for %[[J:.+]] = 0 to %{{.+}} {
// CHECK-NEXT: affine.load %{{.+}}[%[[I]], %[[J]]]
// CHECK-NEXT: affine.store
// CHECK-NEXT: %[[I1:.+]] = affine.apply #[[P1]](%[[I]])
// CHECK-NEXT: affine.load %{{.+}}[%[[I1]], %[[J]]]
// CHECK: affine.for %[[R:.+]] = 8 to 10 {
// CHECK-NEXT: affine.for %[[J2:.+]] = 0 to %{{.+}} {
// CHECK-NEXT: affine.load %{{.+}}[%[[R]], %[[J2]]]
func.func @rows(%A: memref<10x?xf32>, %n: index) {
  %B = memref.alloc(%n) : memref<10x?xf32>
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to %n {
      %v = affine.load %A[%i, %j] : memref<10x?xf32>
      affine.store %v, %B[%i, %j] : memref<10x?xf32>
    }
  }
  return
}

// -----

// Illegal: jamming would run row i+1 of the inner loop before the later columns of row i,
// which the (<, >) dependence forbids; also left alone: an inner bound that uses the outer
// iv, and an outer loop whose body has a store outside the inner loop.
// CHECK-LABEL: func.func @not_jammed
// CHECK: affine.for %{{.+}} = 1 to 100 {
// CHECK: affine.for %[[I:.+]] = 0 to 16 {
// CHECK-NEXT: affine.for %{{.+}} = 0 to #{{.+}}(%[[I]]) {
// CHECK: affine.for %{{.+}} = 0 to 16 {
// CHECK-NEXT: affine.store
func.func @not_jammed(%A: memref<100x100xf32>, %R: memref<16xf32>) {
  affine.for %i = 1 to 100 {
    affine.for %j = 0 to 99 {
      %a = affine.load %A[%i - 1, %j + 1] : memref<100x100xf32>
      affine.store %a, %A[%i, %j] : memref<100x100xf32>
    }
  }
  %B = memref.alloc() : memref<16x16xf32>
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      %v = affine.load %A[%i, %j] : memref<100x100xf32>
      affine.store %v, %B[%i, %j] : memref<16x16xf32>
    }
  }
  %z = arith.constant 0.0 : f32
  affine.for %i = 0 to 16 {
    affine.store %z, %R[%i] : memref<16xf32>
    affine.for %j = 0 to 16 {
      %v = affine.load %A[%i, %j] : memref<100x100xf32>
      affine.store %v, %B[%i, %j] : memref<16x16xf32>
    }
  }
  return
}
