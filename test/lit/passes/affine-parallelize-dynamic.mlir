// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-parallelize{threads-only=true}))' | filecheck %s
// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-parallelize{threads-only=true runtime-min-work=0}))' | filecheck %s --check-prefix=NOVER
// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-parallelize))' | filecheck %s --check-prefix=MLIR

// A light loop with a dynamic trip count is versioned on its run-time trip count: 2 ops per
// iteration, so the pool from 2^19 / 2 = 262144 trips on (the step scales the test:
// (%n - %lo) > (262144 - 1) * 2); below, a serial copy runs without calling the pool.
// CHECK: #[[SET:.+]] = affine_set<(d0, d1) : (d1 - d0 - 524287 >= 0)>
// CHECK-LABEL: func.func @copy
// CHECK: affine.if #[[SET]](%[[LO:.+]], %[[N:.+]]) {
// CHECK-NEXT: affine.parallel
// CHECK: } {mlc.parallel}
// CHECK-NEXT: } else {
// CHECK-NEXT: affine.for %{{.+}} = %[[LO]] to %[[N]] step 2 {
// CHECK-NOT: mlc.parallel
// CHECK: return
// NOVER-LABEL: func.func @copy
// NOVER-NOT: affine.if
// NOVER: } {mlc.parallel}
// Without threads-only, both versions become affine.parallel (MLIR's conversion).
// MLIR-LABEL: func.func @copy
// MLIR: affine.if
// MLIR: } {mlc.parallel}
// MLIR-NEXT: } else {
// MLIR-NEXT: affine.parallel (%{{.+}}) = (symbol(%{{.+}})) to (symbol(%{{.+}})) step (2) {
func.func @copy(%A: memref<?xf32>, %lo: index, %n: index) {
  %B = memref.alloc(%n) : memref<?xf32>
  affine.for %i = %lo to %n step 2 {
    %a = affine.load %A[%i] : memref<?xf32>
    affine.store %a, %B[%i] : memref<?xf32>
  }
  return
}

// -----

// A bound with several results (min) cannot be tested by one affine.if: the trip count is
// guessed at compile time (4,096: too little work for threads), as before.
// CHECK-LABEL: func.func @min_bound
// CHECK-NOT: affine.if
// CHECK-NOT: mlc.parallel
// CHECK: return
func.func @min_bound(%A: memref<?xf32>, %n: index, %m: index) {
  affine.for %i = 0 to min affine_map<()[s0, s1] -> (s0, s1)>()[%n, %m] {
    %a = affine.load %A[%i] : memref<?xf32>
    affine.store %a, %A[%i] : memref<?xf32>
  }
  return
}

// -----

// A heavy body (2 x 1024 ops per row): from 256 rows on; the static inner loop stays inside.
// CHECK: #[[SET:.+]] = affine_set<(d0) : (d0 - 256 >= 0)>
// CHECK-LABEL: func.func @rows
// CHECK: affine.if #[[SET]](%{{.+}}) {
// CHECK: } {mlc.parallel}
// CHECK: } else {
// CHECK-NEXT: affine.for %{{.+}} = 0 to %{{.+}} {
// CHECK-NEXT: affine.for %{{.+}} = 0 to 1024 {
func.func @rows(%A: memref<?x1024xf32>, %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to 1024 {
      %a = affine.load %A[%i, %j] : memref<?x1024xf32>
      affine.store %a, %A[%i, %j] : memref<?x1024xf32>
    }
  }
  return
}
