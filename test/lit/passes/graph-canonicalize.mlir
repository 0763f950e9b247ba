// RUN: mlc-opt %s --split-input-file -p 'builtin.module(canonicalize)' | filecheck %s

// CHECK-LABEL: func.func @transpose_chains
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4xf32>)
func.func @transpose_chains(%x: tensor<2x3x4xf32>) -> (tensor<4x3x2xf32>, tensor<2x3x4xf32>) {
  // CHECK: %[[T:.+]] = graph.transpose %[[X]] {perm = array<i64: 2, 1, 0>} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %0 = graph.transpose %x {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = graph.transpose %0 {perm = array<i64: 2, 0, 1>} : (tensor<3x2x4xf32>) -> tensor<4x3x2xf32>
  // Inverse permutations cancel.
  %2 = graph.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %3 = graph.transpose %2 {perm = array<i64: 1, 2, 0>} : (tensor<4x2x3xf32>) -> tensor<2x3x4xf32>
  // CHECK-NOT: graph.transpose
  // CHECK: return %[[T]], %[[X]]
  return %1, %3 : tensor<4x3x2xf32>, tensor<2x3x4xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_and_broadcast_chains
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4xf32>, %[[V:.+]]: tensor<3xf32>, %[[D:.+]]: tensor<?x4xf32>)
func.func @reshape_and_broadcast_chains(%x: tensor<2x3x4xf32>, %v: tensor<3xf32>, %d: tensor<?x4xf32>) -> (tensor<6x4xf32>, tensor<2x3xf32>, tensor<5x2x3xf32>, tensor<?xf32>) {
  // CHECK: %[[R:.+]] = graph.reshape %[[X]] {shape = array<i64: 6, -1>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %0 = graph.reshape %x {shape = array<i64: 24>} : (tensor<2x3x4xf32>) -> tensor<24xf32>
  %1 = graph.reshape %0 {shape = array<i64: 6, -1>} : (tensor<24xf32>) -> tensor<6x4xf32>
  // A round trip through a reshape disappears.
  %2 = graph.reshape %x {shape = array<i64: 24>} : (tensor<2x3x4xf32>) -> tensor<24xf32>
  %3 = graph.reshape %2 {shape = array<i64: 2, 3, 4>} : (tensor<24xf32>) -> tensor<2x3x4xf32>
  %4 = graph.reduce_sum %3 {axes = array<i64: 2>} : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
  // CHECK: %[[S:.+]] = graph.reduce_sum %[[X]]
  // CHECK: %[[B:.+]] = graph.broadcast_to %[[V]] {shape = array<i64: 5, 2, 3>} : (tensor<3xf32>) -> tensor<5x2x3xf32>
  %5 = graph.broadcast_to %v {shape = array<i64: 2, 3>} : (tensor<3xf32>) -> tensor<2x3xf32>
  %6 = graph.broadcast_to %5 {shape = array<i64: 5, 2, 3>} : (tensor<2x3xf32>) -> tensor<5x2x3xf32>
  // A dynamic operand keeps its -1 in the merged reshape.
  // CHECK: %[[F:.+]] = graph.reshape %[[D]] {shape = array<i64: -1>} : (tensor<?x4xf32>) -> tensor<?xf32>
  %7 = graph.reshape %d {shape = array<i64: 2, -1>} : (tensor<?x4xf32>) -> tensor<2x?xf32>
  %8 = graph.reshape %7 {shape = array<i64: -1>} : (tensor<2x?xf32>) -> tensor<?xf32>
  // CHECK: return %[[R]], %[[S]], %[[B]], %[[F]]
  return %1, %4, %6, %8 : tensor<6x4xf32>, tensor<2x3xf32>, tensor<5x2x3xf32>, tensor<?xf32>
}

// -----

// CHECK-LABEL: func.func @redundant_broadcast
// CHECK-SAME: (%[[A:.+]]: tensor<4x3xf32>, %[[B:.+]]: tensor<3xf32>, %[[D:.+]]: tensor<?x3xf32>)
func.func @redundant_broadcast(%a: tensor<4x3xf32>, %b: tensor<3xf32>, %d: tensor<?x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  // The add broadcasts %b by itself; the mul keeps the broadcast: %d's `?` could be 1 at run
  // time, and then the result would have 1 row.
  // CHECK: %[[E:.+]] = graph.broadcast_to %[[B]]
  // CHECK: graph.add %[[A]], %[[B]] : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  // CHECK: graph.mul %[[D]], %[[E]] : (tensor<?x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %0 = graph.broadcast_to %b {shape = array<i64: 4, 3>} : (tensor<3xf32>) -> tensor<4x3xf32>
  %1 = graph.add %a, %0 : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %2 = graph.mul %d, %0 : (tensor<?x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %1, %2 : tensor<4x3xf32>, tensor<4x3xf32>
}

// -----

// MLIR's arith identities: exact for integers, and for floats only where IEEE allows.

// CHECK-LABEL: func.func @identities
// CHECK-SAME: (%[[I:.+]]: tensor<4xi32>, %[[F:.+]]: tensor<4xf32>)
func.func @identities(%i: tensor<4xi32>, %f: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %z = graph.constant dense<0> : tensor<4xi32>
  %o = graph.constant dense<1> : tensor<4xi32>
  %fz = graph.constant dense<0.0> : tensor<f32>
  %fnz = graph.constant dense<-0.0> : tensor<f32>
  %fo = graph.constant dense<1.0> : tensor<4xf32>
  // CHECK-DAG: %[[ZERO:.+]] = graph.constant dense<0> : tensor<4xi32>
  // CHECK-DAG: %[[FZ:.+]] = graph.constant dense<0.000000e+00> : tensor<f32>
  %0 = graph.add %z, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = graph.mul %0, %o : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // Integer x * 0 is 0.
  %2 = graph.mul %i, %z : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // x + (-0.0), x - 0.0, x * 1.0, x / 1.0 are x.
  %3 = graph.add %f, %fnz : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %4 = graph.sub %3, %fz : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %5 = graph.mul %fo, %4 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %6 = graph.div %5, %fo : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // Not folded: x + 0.0 (-0.0 + 0.0 is +0.0) and x * 0.0 (NaN, inf, -0.0).
  // CHECK: %[[ADD:.+]] = graph.add %[[F]], %[[FZ]]
  %7 = graph.add %f, %fz : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK: %[[MUL:.+]] = graph.mul %[[F]], %[[FZ]]
  %8 = graph.mul %f, %fz : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK: return %[[I]], %[[I]], %[[ZERO]], %[[F]], %[[F]], %[[F]], %[[F]], %[[ADD]], %[[MUL]]
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @unary
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>)
func.func @unary(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = graph.neg %x : tensor<4xf32>
  %1 = graph.neg %0 : tensor<4xf32>
  // exp(log(y)) is y when y cannot be negative (here y = exp(x)).
  // CHECK: %[[E:.+]] = graph.exp %[[X]] : tensor<4xf32>
  %e = graph.exp %x : tensor<4xf32>
  %l = graph.log %e : tensor<4xf32>
  %2 = graph.exp %l : tensor<4xf32>
  // Kept for an arbitrary x: log of a negative is NaN.
  // CHECK: %[[L:.+]] = graph.log %[[X]]
  // CHECK: %[[K:.+]] = graph.exp %[[L]]
  %l2 = graph.log %x : tensor<4xf32>
  %3 = graph.exp %l2 : tensor<4xf32>
  // CHECK: %[[R:.+]] = graph.relu %[[X]]
  // CHECK-NOT: graph.relu
  %r = graph.relu %x : tensor<4xf32>
  %4 = graph.relu %r : tensor<4xf32>
  // CHECK: return %[[X]], %[[E]], %[[K]], %[[R]]
  return %1, %2, %3, %4 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Constant folding through the interpreter (up to 1024 elements), splats at any size.

// CHECK-LABEL: func.func @constants
func.func @constants() -> (tensor<2x2xf32>, tensor<2xi32>, tensor<1000x1000xf32>, tensor<2000xf32>, tensor<2xi32>) {
  %c = graph.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %0 = graph.matmul %c, %c : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %t = graph.transpose %0 {perm = array<i64: 1, 0>} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  // CHECK-DAG: graph.constant dense<{{\[\[}}7.000000e+00, 1.500000e+01], [1.000000e+01, 2.200000e+01]]> : tensor<2x2xf32>
  %i = graph.constant dense<[7, -7]> : tensor<2xi32>
  %two = graph.constant dense<2> : tensor<2xi32>
  %1 = graph.div %i, %two : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  // CHECK-DAG: graph.constant dense<[3, -3]> : tensor<2xi32>
  %s = graph.constant dense<2.0> : tensor<f32>
  %2 = graph.broadcast_to %s {shape = array<i64: 1000, 1000>} : (tensor<f32>) -> tensor<1000x1000xf32>
  %3 = graph.exp %2 : tensor<1000x1000xf32>
  // CHECK-DAG: graph.constant dense<7.38905{{[0-9]+}}> : tensor<1000x1000xf32>
  // Over the limit and not a splat: kept.
  %big = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %4 = graph.broadcast_to %big {shape = array<i64: 1000, 2>} : (tensor<2xf32>) -> tensor<1000x2xf32>
  %5 = graph.reshape %4 {shape = array<i64: 2000>} : (tensor<1000x2xf32>) -> tensor<2000xf32>
  // CHECK-DAG: graph.broadcast_to
  // Integer division by zero is undefined: not folded.
  %zero = graph.constant dense<[1, 0]> : tensor<2xi32>
  // CHECK-DAG: graph.div
  %6 = graph.div %i, %zero : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %t, %1, %3, %5, %6 : tensor<2x2xf32>, tensor<2xi32>, tensor<1000x1000xf32>, tensor<2000xf32>, tensor<2xi32>
}

// -----

// Transposed matmul operands: A^T B^T = (B A)^T, and a transpose of that result cancels.

// CHECK-LABEL: func.func @matmul_of_transposes
// CHECK-SAME: (%[[X:.+]]: tensor<2x5x3xf32>, %[[Y:.+]]: tensor<4x5xf32>)
func.func @matmul_of_transposes(%x: tensor<2x5x3xf32>, %y: tensor<4x5xf32>) -> (tensor<2x3x4xf32>, tensor<2x4x3xf32>) {
  // CHECK: %[[P:.+]] = graph.matmul %[[Y]], %[[X]] : (tensor<4x5xf32>, tensor<2x5x3xf32>) -> tensor<2x4x3xf32>
  // CHECK: %[[T:.+]] = graph.transpose %[[P]] {perm = array<i64: 0, 2, 1>} : (tensor<2x4x3xf32>) -> tensor<2x3x4xf32>
  %xt = graph.transpose %x {perm = array<i64: 0, 2, 1>} : (tensor<2x5x3xf32>) -> tensor<2x3x5xf32>
  %yt = graph.transpose %y {perm = array<i64: 1, 0>} : (tensor<4x5xf32>) -> tensor<5x4xf32>
  %0 = graph.matmul %xt, %yt : (tensor<2x3x5xf32>, tensor<5x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: %[[Q:.+]] = graph.matmul %[[Y]], %[[X]]
  %xt2 = graph.transpose %x {perm = array<i64: 0, 2, 1>} : (tensor<2x5x3xf32>) -> tensor<2x3x5xf32>
  %yt2 = graph.transpose %y {perm = array<i64: 1, 0>} : (tensor<4x5xf32>) -> tensor<5x4xf32>
  %1 = graph.matmul %xt2, %yt2 : (tensor<2x3x5xf32>, tensor<5x4xf32>) -> tensor<2x3x4xf32>
  %2 = graph.transpose %1 {perm = array<i64: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  // CHECK-NOT: graph.transpose
  // CHECK: return %[[T]], %[[Q]]
  return %0, %2 : tensor<2x3x4xf32>, tensor<2x4x3xf32>
}

// -----

// CHECK-LABEL: func.func @matmul_transposes_kept
func.func @matmul_transposes_kept(%x: tensor<5x3xf32>, %y: tensor<4x5xf32>) -> (tensor<3x4xf32>, tensor<3x5xf32>) {
  // A transpose with another user stays (rewriting would add a transpose).
  // CHECK: %[[XT:.+]] = graph.transpose
  // CHECK: %[[YT:.+]] = graph.transpose
  // CHECK: graph.matmul %[[XT]], %[[YT]]
  %xt = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<5x3xf32>) -> tensor<3x5xf32>
  %yt = graph.transpose %y {perm = array<i64: 1, 0>} : (tensor<4x5xf32>) -> tensor<5x4xf32>
  %0 = graph.matmul %xt, %yt : (tensor<3x5xf32>, tensor<5x4xf32>) -> tensor<3x4xf32>
  return %0, %xt : tensor<3x4xf32>, tensor<3x5xf32>
}

// -----

// Only the second broadcast is redundant: the first one's row count comes from nowhere else.

// CHECK-LABEL: func.func @second_broadcast_redundant
// CHECK-SAME: (%[[B:.+]]: tensor<3xf32>, %[[C:.+]]: tensor<1x1xf32>)
func.func @second_broadcast_redundant(%b: tensor<3xf32>, %c: tensor<1x1xf32>) -> tensor<4x3xf32> {
  // CHECK: %[[E:.+]] = graph.broadcast_to %[[B]] {shape = array<i64: 4, 3>}
  // CHECK-NEXT: graph.add %[[E]], %[[C]] : (tensor<4x3xf32>, tensor<1x1xf32>) -> tensor<4x3xf32>
  %0 = graph.broadcast_to %b {shape = array<i64: 4, 3>} : (tensor<3xf32>) -> tensor<4x3xf32>
  %1 = graph.broadcast_to %c {shape = array<i64: 1, 3>} : (tensor<1x1xf32>) -> tensor<1x3xf32>
  %2 = graph.add %0, %1 : (tensor<4x3xf32>, tensor<1x3xf32>) -> tensor<4x3xf32>
  return %2 : tensor<4x3xf32>
}
