// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-unroll{unroll-factor=4}))' | filecheck %s
// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-loop-unroll{unroll-factor=4}))' | filecheck %s
// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-unroll{unroll-full=true}))' | filecheck %s --check-prefix=FULL

// A dynamic trip count: the main loop stops at the last multiple of 4 iterations, the
// original loop runs the rest (as MLIR's affine-loop-unroll).
// CHECK-DAG: #[[SPLIT:.+]] = affine_map<()[s0] -> ((s0 floordiv 4) * 4)>
// CHECK-DAG: #[[P1:.+]] = affine_map<(d0) -> (d0 + 1)>
// CHECK-DAG: #[[P3:.+]] = affine_map<(d0) -> (d0 + 3)>
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[A:.+]]: memref<?xf32>, %[[N:.+]]: index)
// CHECK: affine.for %[[I:.+]] = 0 to #[[SPLIT]]()[%[[N]]] step 4 {
// CHECK-NEXT: affine.load %[[A]][%[[I]]]
// CHECK: %[[I1:.+]] = affine.apply #[[P1]](%[[I]])
// CHECK-NEXT: affine.load %[[A]][%[[I1]]]
// CHECK: affine.apply #[[P3]](%[[I]])
// CHECK: affine.for %[[R:.+]] = #[[SPLIT]]()[%[[N]]] to %[[N]] {
// CHECK-NEXT: affine.load %[[A]][%[[R]]]
// FULL-LABEL: func.func @dynamic
// FULL: affine.for %{{.+}} = 0 to %{{.+}} {
func.func @dynamic(%A: memref<?xf32>, %n: index) {
  %B = memref.alloc(%n) : memref<?xf32>
  affine.for %i = 0 to %n {
    %v = affine.load %A[%i] : memref<?xf32>
    affine.store %v, %B[%i] : memref<?xf32>
  }
  return
}

// -----

// iter_args are chained through the copies; 10 is not a multiple of 4: the cleanup loop
// continues from the main loop's result.
// CHECK-LABEL: func.func @reduction
// CHECK: %[[M:.+]] = affine.for %[[I:.+]] = 0 to 8 step 4 iter_args(%[[ACC:.+]] = %{{.+}}) -> (f32) {
// CHECK: %[[S0:.+]] = arith.addf %[[ACC]], %{{.+}} : f32
// CHECK: %[[S1:.+]] = arith.addf %[[S0]], %{{.+}} : f32
// CHECK: %[[S2:.+]] = arith.addf %[[S1]], %{{.+}} : f32
// CHECK: %[[S3:.+]] = arith.addf %[[S2]], %{{.+}} : f32
// CHECK-NEXT: affine.yield %[[S3]] : f32
// CHECK: %[[R:.+]] = affine.for %{{.+}} = 8 to 10 iter_args(%{{.+}} = %[[M]]) -> (f32) {
// CHECK: return %[[R]] : f32
// Full unrolling of a constant trip count leaves straight-line code.
// FULL-LABEL: func.func @reduction
// FULL-NOT: affine.for
// FULL-COUNT-10: arith.addf
// FULL: return
func.func @reduction(%A: memref<10xf32>) -> f32 {
  %z = arith.constant 0.0 : f32
  %r = affine.for %i = 0 to 10 iter_args(%acc = %z) -> (f32) {
    %a = affine.load %A[%i] : memref<10xf32>
    %s = arith.addf %acc, %a : f32
    affine.yield %s : f32
  }
  return %r : f32
}

// -----

// A multiple of the factor: no cleanup loop. A trip count below the factor: unrolled by
// the trip count (full unrolling). Only innermost loops are unrolled.
// CHECK-LABEL: func.func @exact_and_short
// CHECK: affine.for %[[I:.+]] = 0 to 16 {
// CHECK-NEXT: affine.for %{{.+}} = 0 to 8 step 4 {
// CHECK-NOT: affine.for
// CHECK: return
func.func @exact_and_short(%A: memref<16x8xf32>) {
  %B = memref.alloc() : memref<16x8xf32>
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 8 {
      %v = affine.load %A[%i, %j] : memref<16x8xf32>
      affine.store %v, %B[%i, %j] : memref<16x8xf32>
    }
  }
  %C = memref.alloc() : memref<3xf32>
  %c = arith.constant 1.0 : f32
  affine.for %k = 0 to 3 {
    affine.store %c, %C[%k] : memref<3xf32>
  }
  return
}

// -----

// A point loop of a tile (constant trip count 32 between symbolic bounds) and a partial
// tile (min bound: the trip count is not constant and the bound has two results, so it is
// left alone).
// CHECK-LABEL: func.func @tile_points
// CHECK: affine.for %[[T:.+]] = 0 to 128 step 32 {
// CHECK-NEXT: affine.for %{{.+}} = #{{.+}}(%[[T]]) to #{{.+}}(%[[T]]) step 4 {
// CHECK: affine.for %[[T2:.+]] = 0 to 100 step 32 {
// CHECK-NEXT: affine.for %{{.+}} = #{{.+}}(%[[T2]]) to min #{{.+}}(%[[T2]]) {
func.func @tile_points(%A: memref<128xf32>) {
  %B = memref.alloc() : memref<128xf32>
  affine.for %t = 0 to 128 step 32 {
    affine.for %i = affine_map<(d0) -> (d0)>(%t) to affine_map<(d0) -> (d0 + 32)>(%t) {
      %v = affine.load %A[%i] : memref<128xf32>
      affine.store %v, %B[%i] : memref<128xf32>
    }
  }
  affine.for %t = 0 to 100 step 32 {
    affine.for %i = affine_map<(d0) -> (d0)>(%t) to min affine_map<(d0) -> (d0 + 32, 100)>(%t) {
      %v = affine.load %A[%i] : memref<128xf32>
      affine.store %v, %B[%i] : memref<128xf32>
    }
  }
  return
}
