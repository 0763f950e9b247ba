// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(loop-invariant-code-motion))' | filecheck %s

// Pure invariant ops leave affine.for, chains included; ops using the induction variable,
// loads and stores stay.
// CHECK-LABEL: func.func @hoist_from_for
// CHECK-SAME: (%[[A:.+]]: memref<?xf32>, %[[N:.+]]: index, %[[X:.+]]: f32)
func.func @hoist_from_for(%A: memref<?xf32>, %n: index, %x: f32) {
  // CHECK-NEXT: %[[C:.+]] = arith.constant 2.0
  // CHECK-NEXT: %[[M:.+]] = arith.mulf %[[X]], %[[C]]
  // CHECK-NEXT: %[[S:.+]] = arith.addf %[[M]], %[[M]]
  // CHECK-NEXT: affine.for %[[I:.+]] = 0 to %[[N]] {
  // CHECK-NEXT:   %[[J:.+]] = affine.apply #{{.*}}(%[[I]])
  // CHECK-NEXT:   %[[V:.+]] = affine.load %[[A]][%[[J]]]
  // CHECK-NEXT:   %[[T:.+]] = arith.addf %[[V]], %[[S]]
  // CHECK-NEXT:   affine.store %[[T]], %[[A]][%[[I]]]
  // CHECK-NEXT: }
  affine.for %i = 0 to %n {
    %c = arith.constant 2.0 : f32
    %m = arith.mulf %x, %c : f32
    %s = arith.addf %m, %m : f32
    %j = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)
    %v = affine.load %A[%j] : memref<?xf32>
    %t = arith.addf %v, %s : f32
    affine.store %t, %A[%i] : memref<?xf32>
  }
  return
}

// -----

// affine.parallel is loop-like too; an affine.apply of symbols only is invariant.
// CHECK-LABEL: func.func @hoist_from_parallel
func.func @hoist_from_parallel(%A: memref<?x?xf32>, %n: index, %x: f32) {
  // CHECK-NEXT: %[[K:.+]] = affine.apply #{{.*}}()[%{{.*}}]
  // CHECK-NEXT: %[[E:.+]] = math.exp
  // CHECK-NEXT: affine.parallel (%{{.*}}, %{{.*}}) = (0, 0) to (%{{.*}}, 16) {
  // CHECK-NEXT:   affine.store %[[E]]
  // CHECK-NEXT: }
  affine.parallel (%i, %j) = (0, 0) to (%n, 16) {
    %k = affine.apply affine_map<()[s0] -> (s0 * 2)>()[%n]
    %e = math.exp %x : f32
    affine.store %e, %A[%i, %j + %k] : memref<?x?xf32>
  }
  return
}

// -----

// Nested loops: code invariant in both leaves the nest; code using the outer induction
// variable moves out of the inner loop only. Loads are not hoisted (not speculatable pure).
// CHECK-LABEL: func.func @nest
func.func @nest(%A: memref<?x?xf32>, %n: index) {
  // CHECK-NEXT: %[[C:.+]] = arith.constant 1.0
  // CHECK-NEXT: affine.for %[[I:.+]] = 0 to 10 {
  // CHECK-NEXT:   %[[P:.+]] = affine.apply #{{.*}}(%[[I]])
  // CHECK-NEXT:   affine.for %[[J:.+]] = 0 to 20 {
  // CHECK-NEXT:     %[[V:.+]] = affine.load %{{.*}}[%[[P]], %[[J]]]
  // CHECK-NEXT:     %[[W:.+]] = arith.addf %[[V]], %[[C]]
  // CHECK-NEXT:     affine.store %[[W]]
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 20 {
      %c = arith.constant 1.0 : f32
      %p = affine.apply affine_map<(d0) -> (d0 * 2)>(%i)
      %v = affine.load %A[%p, %j] : memref<?x?xf32>
      %w = arith.addf %v, %c : f32
      affine.store %w, %A[%p, %j] : memref<?x?xf32>
    }
  }
  return
}

// -----

// A loop-carried value is defined inside the loop: its users stay.
// CHECK-LABEL: func.func @iter_args
func.func @iter_args(%n: index, %z: f32, %x: f32) -> f32 {
  // CHECK-NEXT: %[[D:.+]] = arith.mulf
  // CHECK-NEXT: affine.for {{.*}} iter_args(%[[ACC:.+]] = %{{.*}}) -> (f32) {
  // CHECK-NEXT:   %[[S:.+]] = arith.addf %[[ACC]], %[[D]]
  // CHECK-NEXT:   affine.yield %[[S]] : f32
  %r = affine.for %i = 0 to %n iter_args(%acc = %z) -> (f32) {
    %d = arith.mulf %x, %x : f32
    %s = arith.addf %acc, %d : f32
    affine.yield %s : f32
  }
  return %r : f32
}

// -----

// Nothing invariant: unchanged.
// CHECK-LABEL: func.func @nothing
// CHECK-NEXT: affine.for
// CHECK-NEXT: affine.store
func.func @nothing(%A: memref<?xf32>, %n: index, %x: f32) {
  affine.for %i = 0 to %n {
    affine.store %x, %A[%i] : memref<?xf32>
  }
  return
}
