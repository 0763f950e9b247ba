// RUN: mlc-opt %s -p 'builtin.module(func.func(graph-matmul-reorder))' --split-input-file --verify-diagnostics | filecheck %s

// A(10x1000) B(1000x1000) c(1000x1): (A B) c -> A (B c).
// CHECK-LABEL: func.func @classic
//  CHECK-SAME: (%[[A:.+]]: tensor<10x1000xf32>, %[[B:.+]]: tensor<1000x1000xf32>, %[[C:.+]]: tensor<1000x1xf32>)
//       CHECK: %[[BC:.+]] = graph.matmul %[[B]], %[[C]] : (tensor<1000x1000xf32>, tensor<1000x1xf32>) -> tensor<1000x1xf32>
//       CHECK: %[[R:.+]] = graph.matmul %[[A]], %[[BC]] : (tensor<10x1000xf32>, tensor<1000x1xf32>) -> tensor<10x1xf32>
//       CHECK: return %[[R]]
func.func @classic(%a: tensor<10x1000xf32>, %b: tensor<1000x1000xf32>, %c: tensor<1000x1xf32>) -> tensor<10x1xf32> {
  %0 = graph.matmul %a, %b : (tensor<10x1000xf32>, tensor<1000x1000xf32>) -> tensor<10x1000xf32>
  // expected-remark@+1 {{matmul chain [10x1000, 1000x1000, 1000x1]: order ((0 1) 2) -> (0 (1 2)), estimated FLOPs 20020000 -> 2020000}}
  %1 = graph.matmul %0, %c : (tensor<10x1000xf32>, tensor<1000x1xf32>) -> tensor<10x1xf32>
  return %1 : tensor<10x1xf32>
}

// -----

// t(X) (X p) is already the cheap order: the IR is kept as is.
// CHECK-LABEL: func.func @gram_times_vector
//       CHECK: %[[T:.+]] = graph.transpose %[[X:.+]] {perm = array<i64: 1, 0>}
//       CHECK: %[[XP:.+]] = graph.matmul %[[X]], %[[P:.+]] :
//       CHECK: %[[R:.+]] = graph.matmul %[[T]], %[[XP]] :
//       CHECK: return %[[R]]
func.func @gram_times_vector(%x: tensor<1000x50xf32>, %p: tensor<50x1xf32>) -> tensor<50x1xf32> {
  %t = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<1000x50xf32>) -> tensor<50x1000xf32>
  %0 = graph.matmul %x, %p : (tensor<1000x50xf32>, tensor<50x1xf32>) -> tensor<1000x1xf32>
  // expected-remark@+1 {{matmul chain [50x1000, 1000x50, 50x1]: kept order (0 (1 2)), estimated FLOPs 200000}}
  %1 = graph.matmul %t, %0 : (tensor<50x1000xf32>, tensor<1000x1xf32>) -> tensor<50x1xf32>
  return %1 : tensor<50x1xf32>
}

// -----

// An intermediate with another user is a materialization point: the chain above it is
// %0 C d (reordered to %0 (C d)), and %0 itself is not recomputed.
// CHECK-LABEL: func.func @shared_intermediate
//  CHECK-SAME: (%[[A:.+]]: tensor<10x100xf32>, %[[B:.+]]: tensor<100x100xf32>, %[[C:.+]]: tensor<100x100xf32>, %[[D:.+]]: tensor<100x1xf32>)
//       CHECK: %[[AB:.+]] = graph.matmul %[[A]], %[[B]] :
//       CHECK: %[[CD:.+]] = graph.matmul %[[C]], %[[D]] :
//       CHECK: %[[R:.+]] = graph.matmul %[[AB]], %[[CD]] :
//       CHECK: return %[[AB]], %[[R]]
func.func @shared_intermediate(%a: tensor<10x100xf32>, %b: tensor<100x100xf32>, %c: tensor<100x100xf32>, %d: tensor<100x1xf32>) -> (tensor<10x100xf32>, tensor<10x1xf32>) {
  %0 = graph.matmul %a, %b : (tensor<10x100xf32>, tensor<100x100xf32>) -> tensor<10x100xf32>
  %1 = graph.matmul %0, %c : (tensor<10x100xf32>, tensor<100x100xf32>) -> tensor<10x100xf32>
  // expected-remark@+1 {{matmul chain [10x100, 100x100, 100x1]: order ((0 1) 2) -> (0 (1 2)), estimated FLOPs 202000 -> 22000}}
  %2 = graph.matmul %1, %d : (tensor<10x100xf32>, tensor<100x1xf32>) -> tensor<10x1xf32>
  return %0, %2 : tensor<10x100xf32>, tensor<10x1xf32>
}

// -----

// Through a transpose ((A B) c)^T = c^T B^T A^T and a scalar: the scalar moves to the
// smallest matrix (c^T, 1x300) and the transposed leaves are materialized once.
// CHECK-LABEL: func.func @transpose_and_scalar
//  CHECK-SAME: (%[[A:.+]]: tensor<500x200xf32>, %[[B:.+]]: tensor<200x300xf32>, %[[C:.+]]: tensor<300x1xf32>, %[[S:.+]]: tensor<f32>)
//       CHECK: %[[CT:.+]] = graph.transpose %[[C]] {perm = array<i64: 1, 0>} : (tensor<300x1xf32>) -> tensor<1x300xf32>
//       CHECK: %[[SC:.+]] = graph.mul %[[CT]], %[[S]] : (tensor<1x300xf32>, tensor<f32>) -> tensor<1x300xf32>
//       CHECK: %[[BT:.+]] = graph.transpose %[[B]] {perm = array<i64: 1, 0>} : (tensor<200x300xf32>) -> tensor<300x200xf32>
//       CHECK: %[[M0:.+]] = graph.matmul %[[SC]], %[[BT]] : (tensor<1x300xf32>, tensor<300x200xf32>) -> tensor<1x200xf32>
//       CHECK: %[[AT:.+]] = graph.transpose %[[A]] {perm = array<i64: 1, 0>} : (tensor<500x200xf32>) -> tensor<200x500xf32>
//       CHECK: %[[R:.+]] = graph.matmul %[[M0]], %[[AT]] : (tensor<1x200xf32>, tensor<200x500xf32>) -> tensor<1x500xf32>
//       CHECK: return %[[R]]
func.func @transpose_and_scalar(%a: tensor<500x200xf32>, %b: tensor<200x300xf32>, %c: tensor<300x1xf32>, %s: tensor<f32>) -> tensor<1x500xf32> {
  %0 = graph.matmul %a, %b : (tensor<500x200xf32>, tensor<200x300xf32>) -> tensor<500x300xf32>
  %1 = graph.matmul %0, %c : (tensor<500x300xf32>, tensor<300x1xf32>) -> tensor<500x1xf32>
  %2 = graph.transpose %1 {perm = array<i64: 1, 0>} : (tensor<500x1xf32>) -> tensor<1x500xf32>
  // expected-remark@+1 {{matmul chain [1x300, 300x200, 200x500]: order (0 (1 2)) -> ((0 1) 2), estimated FLOPs 60300000 -> 320000}}
  %3 = graph.mul %s, %2 : (tensor<f32>, tensor<1x500xf32>) -> tensor<1x500xf32>
  return %3 : tensor<1x500xf32>
}

// -----

// Dynamic dims count as the size hint (1024): ((A B) c) with ? rows becomes A (B c); the
// result keeps its declared type.
// CHECK-LABEL: func.func @dynamic
//       CHECK: %[[BC:.+]] = graph.matmul %{{.+}}, %{{.+}} : (tensor<8x64xf32>, tensor<64x2xf32>) -> tensor<8x2xf32>
//       CHECK: graph.matmul %{{.+}}, %[[BC]] : (tensor<?x8xf32>, tensor<8x2xf32>) -> tensor<?x2xf32>
func.func @dynamic(%a: tensor<?x8xf32>, %b: tensor<8x64xf32>, %c: tensor<64x2xf32>) -> tensor<?x2xf32> {
  %0 = graph.matmul %a, %b : (tensor<?x8xf32>, tensor<8x64xf32>) -> tensor<?x64xf32>
  // expected-remark@+1 {{matmul chain [?x8, 8x64, 64x2]: order ((0 1) 2) -> (0 (1 2)), estimated FLOPs 1310720 -> 34816}}
  %1 = graph.matmul %0, %c : (tensor<?x64xf32>, tensor<64x2xf32>) -> tensor<?x2xf32>
  return %1 : tensor<?x2xf32>
}

// -----

// Two matrices, batched products and non-matrix multiplications are not chains.
// CHECK-LABEL: func.func @not_chains
//       CHECK: graph.matmul %arg0, %arg1
//       CHECK: graph.matmul %arg2, %arg3
//       CHECK: graph.matmul
func.func @not_chains(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %x: tensor<3x4x8xf32>, %y: tensor<3x8x2xf32>, %z: tensor<3x2x5xf32>) -> (tensor<4x2xf32>, tensor<3x4x5xf32>) {
  %0 = graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  %1 = graph.matmul %x, %y : (tensor<3x4x8xf32>, tensor<3x8x2xf32>) -> tensor<3x4x2xf32>
  %2 = graph.matmul %1, %z : (tensor<3x4x2xf32>, tensor<3x2x5xf32>) -> tensor<3x4x5xf32>
  return %0, %2 : tensor<4x2xf32>, tensor<3x4x5xf32>
}
