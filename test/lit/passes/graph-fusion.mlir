// RUN: mlc-opt %s -p 'builtin.module(func.func(graph-fusion))' --split-input-file | filecheck %s
// RUN: mlc-opt %s -p 'builtin.module(func.func(graph-fusion))' --split-input-file | mlc-opt --split-input-file --mlir-print-op-generic | mlc-opt --split-input-file | filecheck %s

// (a + s*b) * c: one kernel; inputs in order of first use.
// CHECK-LABEL: func.func @elementwise_chain
//  CHECK-SAME: (%[[A:.+]]: tensor<16xf32>, %[[B:.+]]: tensor<16xf32>, %[[C:.+]]: tensor<16xf32>, %[[S:.+]]: tensor<f32>)
//       CHECK: %[[F:.+]] = graph.fused ins(%[[S]], %[[B]], %[[A]], %[[C]] : tensor<f32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32> {
//  CHECK-NEXT: ^bb0(%[[S2:.+]]: tensor<f32>, %[[B2:.+]]: tensor<16xf32>, %[[A2:.+]]: tensor<16xf32>, %[[C2:.+]]: tensor<16xf32>):
//  CHECK-NEXT:   %[[M:.+]] = graph.mul %[[S2]], %[[B2]]
//  CHECK-NEXT:   %[[AD:.+]] = graph.add %[[A2]], %[[M]]
//  CHECK-NEXT:   %[[R:.+]] = graph.mul %[[AD]], %[[C2]]
//  CHECK-NEXT:   graph.yield %[[R]] : tensor<16xf32>
//  CHECK-NEXT: }
//  CHECK-NEXT: return %[[F]]
func.func @elementwise_chain(%a: tensor<16xf32>, %b: tensor<16xf32>, %c: tensor<16xf32>, %s: tensor<f32>) -> tensor<16xf32> {
  %0 = graph.mul %s, %b : (tensor<f32>, tensor<16xf32>) -> tensor<16xf32>
  %1 = graph.add %a, %0 : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %2 = graph.mul %1, %c : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %2 : tensor<16xf32>
}

// -----

// Softmax written out: max/sub/exp/sum/div are one kernel.
// CHECK-LABEL: func.func @softmax
//       CHECK: %[[F:.+]] = graph.fused ins(%{{.+}} : tensor<4x8xf32>) -> tensor<4x8xf32> {
//  CHECK-NEXT: ^bb0(%[[X:.+]]: tensor<4x8xf32>):
//  CHECK-NEXT:   %[[M:.+]] = graph.reduce_max %[[X]]
//  CHECK-NEXT:   %[[S:.+]] = graph.sub %[[X]], %[[M]]
//  CHECK-NEXT:   %[[E:.+]] = graph.exp %[[S]]
//  CHECK-NEXT:   %[[Z:.+]] = graph.reduce_sum %[[E]]
//  CHECK-NEXT:   %[[D:.+]] = graph.div %[[E]], %[[Z]]
//  CHECK-NEXT:   graph.yield %[[D]]
//  CHECK-NEXT: }
//  CHECK-NEXT: return %[[F]]
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = graph.reduce_max %x {axes = array<i64: 1>, keepdims = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %s = graph.sub %x, %m : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %e = graph.exp %s : tensor<4x8xf32>
  %z = graph.reduce_sum %e {axes = array<i64: 1>, keepdims = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %d = graph.div %e, %z : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}

// -----

// Input fusion: a broadcast and a multiplication feeding a reduction.
// CHECK-LABEL: func.func @input_fusion
//       CHECK: graph.fused ins
//  CHECK-NEXT: ^bb0
//  CHECK-NEXT:   graph.broadcast_to
//  CHECK-NEXT:   graph.mul
//  CHECK-NEXT:   graph.reduce_sum
//  CHECK-NEXT:   graph.yield
func.func @input_fusion(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4xf32> {
  %0 = graph.broadcast_to %b {shape = array<i64: 4, 8>} : (tensor<8xf32>) -> tensor<4x8xf32>
  %1 = graph.mul %x, %0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = graph.reduce_sum %1 {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// A matmul with its epilogue (bias, activation, residual add); the value that is also
// returned becomes a second result of the kernel; the matmul consuming the exp stays out.
// CHECK-LABEL: func.func @mlp_layer
//       CHECK: %[[F:.+]]:2 = graph.fused ins(%{{.+}} : tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>, tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
//  CHECK-NEXT: ^bb0
//  CHECK-NEXT:   %[[MM:.+]] = graph.matmul
//  CHECK-NEXT:   %[[B:.+]] = graph.add %[[MM]]
//  CHECK-NEXT:   %[[R:.+]] = graph.relu %[[B]]
//  CHECK-NEXT:   %[[RES:.+]] = graph.add %[[R]]
//  CHECK-NEXT:   %[[E:.+]] = graph.exp %[[RES]]
//  CHECK-NEXT:   graph.yield %[[RES]], %[[E]]
//  CHECK-NEXT: }
//       CHECK: %[[MM2:.+]] = graph.matmul %[[F]]#1, %{{.+}}
//       CHECK: return %[[F]]#0, %[[MM2]]
func.func @mlp_layer(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>, %r: tensor<4x16xf32>, %w2: tensor<16x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %0 = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = graph.add %0, %b : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %2 = graph.relu %1 : tensor<4x16xf32>
  %3 = graph.add %2, %r : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %4 = graph.exp %3 : tensor<4x16xf32>
  %5 = graph.matmul %4, %w2 : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
  return %3, %5 : tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// conv2d epilogue.
// CHECK-LABEL: func.func @conv_epilogue
//       CHECK: graph.fused
//  CHECK-NEXT: ^bb0
//  CHECK-NEXT:   graph.conv2d
//  CHECK-NEXT:   graph.add
//  CHECK-NEXT:   graph.relu
//  CHECK-NEXT:   graph.yield
func.func @conv_epilogue(%x: tensor<1x3x8x8xf32>, %f: tensor<4x3x3x3xf32>, %b: tensor<4x1x1xf32>) -> tensor<1x4x6x6xf32> {
  %0 = graph.conv2d %x, %f : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %1 = graph.add %0, %b : (tensor<1x4x6x6xf32>, tensor<4x1x1xf32>) -> tensor<1x4x6x6xf32>
  %2 = graph.relu %1 : tensor<1x4x6x6xf32>
  return %2 : tensor<1x4x6x6xf32>
}

// -----

// Not fused: an elementwise producer of a matmul (no prologue fusion), a reduction into a
// consumer of another shape, two matmuls, and a transpose.
// CHECK-LABEL: func.func @not_fused
//   CHECK-NOT: graph.fused
//       CHECK: return
func.func @not_fused(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>, %y: tensor<2x4xf32>) -> (tensor<4x8xf32>, tensor<2x4xf32>, tensor<8x8xf32>) {
  %0 = graph.relu %x : tensor<4x8xf32>
  %1 = graph.matmul %0, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %2 = graph.matmul %1, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %3 = graph.reduce_sum %x {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  %4 = graph.add %y, %3 : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %5 = graph.transpose %w {perm = array<i64: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %2, %4, %5 : tensor<4x8xf32>, tensor<2x4xf32>, tensor<8x8xf32>
}

// -----

// A broadcast shared by two matmul epilogues (which cannot merge) is duplicated into both.
// CHECK-LABEL: func.func @duplicate_cheap_producer
//       CHECK: graph.fused
//  CHECK-NEXT: ^bb0
//  CHECK-NEXT:   graph.broadcast_to
//  CHECK-NEXT:   graph.matmul
//  CHECK-NEXT:   graph.add
//       CHECK: graph.fused
//  CHECK-NEXT: ^bb0
//  CHECK-NEXT:   graph.broadcast_to
//  CHECK-NEXT:   graph.matmul
//  CHECK-NEXT:   graph.mul
//   CHECK-NOT: graph.broadcast_to
//       CHECK: return
func.func @duplicate_cheap_producer(%x: tensor<4x8xf32>, %v: tensor<8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %b = graph.broadcast_to %v {shape = array<i64: 4, 8>} : (tensor<8xf32>) -> tensor<4x8xf32>
  %0 = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %1 = graph.add %0, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %3 = graph.mul %2, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1, %3 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Fusing the exp into the tanh/add kernel as an output would make a cycle through the
// transpose; recomputing it costs more than reading it back, so it is materialized.
// CHECK-LABEL: func.func @materialize_expensive_producer
//       CHECK: %[[E:.+]] = graph.exp
//       CHECK: %[[T:.+]] = graph.transpose %[[E]]
//       CHECK: graph.fused ins(%[[E]], %[[T]] :
//  CHECK-NEXT: ^bb0
//  CHECK-NEXT:   graph.tanh
//  CHECK-NEXT:   graph.add
func.func @materialize_expensive_producer(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %a = graph.exp %x : tensor<8x8xf32>
  %t = graph.transpose %a {perm = array<i64: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %b = graph.tanh %a : tensor<8x8xf32>
  %d = graph.add %b, %t : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %d : tensor<8x8xf32>
}

// -----

// Dynamic shapes fuse; unranked tensors and existing kernels are left alone.
// CHECK-LABEL: func.func @dynamic_and_unranked
//       CHECK: graph.fused ins(%{{.+}} : tensor<?x8xf32>) -> tensor<?x8xf32>
//       CHECK: graph.exp %{{.+}} : tensor<*xf32>
//       CHECK: graph.tanh %{{.+}} : tensor<*xf32>
//       CHECK: graph.fused ins(%{{.+}} : tensor<4xf32>)
//  CHECK-NEXT: ^bb0
//  CHECK-NEXT:   graph.neg
//  CHECK-NEXT:   graph.yield
func.func @dynamic_and_unranked(%x: tensor<?x8xf32>, %u: tensor<*xf32>, %v: tensor<4xf32>) -> (tensor<?x8xf32>, tensor<*xf32>, tensor<4xf32>) {
  %0 = graph.exp %x : tensor<?x8xf32>
  %1 = graph.tanh %0 : tensor<?x8xf32>
  %2 = graph.exp %u : tensor<*xf32>
  %3 = graph.tanh %2 : tensor<*xf32>
  %4 = graph.fused ins(%v : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %n = graph.neg %a : tensor<4xf32>
    graph.yield %n : tensor<4xf32>
  }
  return %1, %3, %4 : tensor<?x8xf32>, tensor<*xf32>, tensor<4xf32>
}
