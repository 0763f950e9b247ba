// RUN: mlc-opt %s -p 'builtin.module(canonicalize)' | filecheck %s

// The graph folders: identity transpose, reshape/broadcast_to/cast to the identical type.

// CHECK-LABEL: func.func @identity_folds
// CHECK-SAME: (%[[X:.+]]: tensor<4x5xf32>)
func.func @identity_folds(%x: tensor<4x5xf32>) -> (tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) {
  %0 = graph.transpose %x {perm = array<i64: 0, 1>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  %1 = graph.reshape %0 {shape = array<i64: 4, -1>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  %2 = graph.broadcast_to %1 {shape = array<i64: 4, 5>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  %3 = graph.cast %2 : tensor<4x5xf32> to tensor<4x5xf32>
  // CHECK-NOT: graph.
  // CHECK: return %[[X]], %[[X]], %[[X]], %[[X]]
  return %0, %1, %2, %3 : tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>
}

// CHECK-LABEL: func.func @no_fold
// CHECK-SAME: (%[[X:.+]]: tensor<4x5xf32>, %[[D:.+]]: tensor<?x5xf32>)
func.func @no_fold(%x: tensor<4x5xf32>, %d: tensor<?x5xf32>) -> (tensor<5x4xf32>, tensor<4x5xf32>, tensor<20xf32>, tensor<4x5xi32>) {
  // A real permutation, a type-refining reshape, a real reshape and a real cast stay.
  // CHECK: %[[T:.+]] = graph.transpose %[[X]] {perm = array<i64: 1, 0>}
  %0 = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<4x5xf32>) -> tensor<5x4xf32>
  // CHECK: %[[R:.+]] = graph.reshape %[[D]] {shape = array<i64: 4, 5>} : (tensor<?x5xf32>) -> tensor<4x5xf32>
  %1 = graph.reshape %d {shape = array<i64: 4, 5>} : (tensor<?x5xf32>) -> tensor<4x5xf32>
  // CHECK: %[[F:.+]] = graph.reshape %[[X]] {shape = array<i64: 20>}
  %2 = graph.reshape %x {shape = array<i64: 20>} : (tensor<4x5xf32>) -> tensor<20xf32>
  // CHECK: %[[C:.+]] = graph.cast %[[X]] : tensor<4x5xf32> to tensor<4x5xi32>
  %3 = graph.cast %x : tensor<4x5xf32> to tensor<4x5xi32>
  // CHECK: return %[[T]], %[[R]], %[[F]], %[[C]]
  return %0, %1, %2, %3 : tensor<5x4xf32>, tensor<4x5xf32>, tensor<20xf32>, tensor<4x5xi32>
}

// CHECK-LABEL: func.func @constants_are_kept
func.func @constants_are_kept() -> tensor<2xf32> {
  // CHECK: %[[C:.+]] = graph.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  // CHECK-NEXT: return %[[C]]
  %0 = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %1 : tensor<2xf32>
}
