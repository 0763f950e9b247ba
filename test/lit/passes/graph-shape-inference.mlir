// RUN: mlc-opt %s --split-input-file -p 'builtin.module(graph-shape-inference{annotate-dims=true})' | filecheck %s

// Result types refine through every op; the batch dim stays `?` but is tracked: the argument's
// and the result's batch dims are one class.

// CHECK-LABEL: func.func @mlp
// CHECK-SAME: -> tensor<?x4xf32> attributes {graph.dim_classes = {{\[\[}}"arg0:0", "res0:0"]]}
func.func @mlp(%x: tensor<?x8xf32>, %w1: tensor<8x16xf32>, %b1: tensor<16xf32>, %w2: tensor<16x4xf32>) -> tensor<*xf32> {
  // CHECK: graph.matmul %{{.+}}, %{{.+}} : (tensor<?x8xf32>, tensor<8x16xf32>) -> tensor<?x16xf32>
  %0 = graph.matmul %x, %w1 : (tensor<?x8xf32>, tensor<8x16xf32>) -> tensor<?x?xf32>
  // CHECK: graph.add %{{.+}}, %{{.+}} : (tensor<?x16xf32>, tensor<16xf32>) -> tensor<?x16xf32>
  %1 = graph.add %0, %b1 : (tensor<?x?xf32>, tensor<16xf32>) -> tensor<*xf32>
  // CHECK: graph.relu %{{.+}} : tensor<?x16xf32>
  %2 = graph.relu %1 : tensor<*xf32>
  %3 = tensor.cast %2 : tensor<*xf32> to tensor<?x16xf32>
  // CHECK: graph.matmul %{{.+}}, %{{.+}} : (tensor<?x16xf32>, tensor<16x4xf32>) -> tensor<?x4xf32>
  %4 = graph.matmul %3, %w2 : (tensor<?x16xf32>, tensor<16x4xf32>) -> tensor<*xf32>
  // CHECK: return %{{.+}} : tensor<?x4xf32>
  return %4 : tensor<*xf32>
}

// -----

// Declared result types that are more refined than the operands give are kept.

// CHECK-LABEL: func.func @keeps_declared
// CHECK: graph.add %{{.+}}, %{{.+}} : (tensor<?xf32>, tensor<?xf32>) -> tensor<8xf32>
// CHECK: graph.exp %{{.+}} : tensor<8xf32>
func.func @keeps_declared(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = graph.add %a, %b : (tensor<?xf32>, tensor<?xf32>) -> tensor<8xf32>
  %1 = graph.exp %0 : tensor<8xf32>
  %2 = graph.cast %1 : tensor<8xf32> to tensor<?xf32>
  return %2 : tensor<?xf32>
}

// -----

// graph.fused: block arguments take the refined inputs, the body refines, the results follow.

// CHECK-LABEL: func.func @fused
// CHECK-SAME: -> tensor<2x3xf32>
// CHECK: graph.fused ins(%{{.+}}, %{{.+}} : tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: ^bb0(%{{.+}}: tensor<2x3xf32>, %{{.+}}: tensor<3xf32>):
// CHECK: graph.add %{{.+}}, %{{.+}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: graph.yield %{{.+}} : tensor<2x3xf32>
func.func @fused(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<?x?xf32> {
  %a1 = graph.relu %a : tensor<2x3xf32>
  %0 = graph.fused ins(%a1, %b : tensor<2x3xf32>, tensor<3xf32>) -> tensor<?x?xf32> {
  ^bb0(%x: tensor<2x3xf32>, %y: tensor<3xf32>):
    %s = graph.add %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<?x?xf32>
    graph.yield %s : tensor<?x?xf32>
  }
  return %0 : tensor<?x?xf32>
}

// -----

// A private callee takes its arguments from its only call site (unranked gets a rank), and the
// call's result follows the callee's refined result.

// CHECK-LABEL: func.func @caller
// CHECK: %[[R:.+]] = call @act(%{{.+}}) : (tensor<4x?xf32>) -> tensor<4x?xf32>
// CHECK: return %[[R]] : tensor<4x?xf32>
// CHECK-LABEL: func.func private @act
// CHECK-SAME: (%{{.+}}: tensor<4x?xf32>) -> tensor<4x?xf32>
// CHECK-SAME: graph.dim_classes = {{\[\[}}"arg0:1", "res0:1"]]
func.func @caller(%x: tensor<4x?xf32>) -> tensor<*xf32> {
  %0 = graph.cast %x : tensor<4x?xf32> to tensor<*xf32>
  %1 = call @act(%0) : (tensor<*xf32>) -> tensor<*xf32>
  return %1 : tensor<*xf32>
}
func.func private @act(%a: tensor<*xf32>) -> tensor<*xf32> {
  %0 = graph.tanh %a : tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Call sites that disagree: one specialization per call signature.

// CHECK-LABEL: func.func @two_sites
// CHECK: call @sq(%{{.+}}) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK: call @sq_0(%{{.+}}) : (tensor<3x5xf32>) -> tensor<3x5xf32>
// CHECK-LABEL: func.func private @sq(
// CHECK-SAME: tensor<2xf32>) -> tensor<2xf32>
// CHECK-LABEL: func.func private @sq_0(
// CHECK-SAME: tensor<3x5xf32>) -> tensor<3x5xf32>
func.func @two_sites(%a: tensor<2xf32>, %b: tensor<3x5xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %a0 = graph.cast %a : tensor<2xf32> to tensor<*xf32>
  %b0 = graph.cast %b : tensor<3x5xf32> to tensor<*xf32>
  %0 = call @sq(%a0) : (tensor<*xf32>) -> tensor<*xf32>
  %1 = call @sq(%b0) : (tensor<*xf32>) -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}
func.func private @sq(%a: tensor<*xf32>) -> tensor<*xf32> {
  %0 = graph.mul %a, %a : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Public functions keep their argument types (the contract): a call passing a more refined
// value gets a tensor.cast; the public function's result is refined.

// CHECK-LABEL: func.func @public_callee
// CHECK-SAME: (%{{.+}}: tensor<?xf32>) -> tensor<?xf32>
func.func @public_callee(%a: tensor<?xf32>) -> tensor<*xf32> {
  %0 = graph.neg %a : tensor<?xf32>
  %1 = graph.cast %0 : tensor<?xf32> to tensor<*xf32>
  return %1 : tensor<*xf32>
}
// CHECK-LABEL: func.func @user
// CHECK: %[[C:.+]] = tensor.cast %{{.+}} : tensor<4xf32> to tensor<?xf32>
// CHECK: call @public_callee(%[[C]]) : (tensor<?xf32>) -> tensor<?xf32>
func.func @user(%x: tensor<4xf32>) -> tensor<*xf32> {
  %0 = graph.abs %x : tensor<4xf32>
  %1 = graph.cast %0 : tensor<4xf32> to tensor<?xf32>
  %2 = call @public_callee(%1) : (tensor<?xf32>) -> tensor<*xf32>
  return %2 : tensor<*xf32>
}

// -----

// A use outside the graph dialect keeps the old type through a tensor.cast.

// CHECK-LABEL: func.func @foreign_use
// CHECK: %[[E:.+]] = graph.exp %{{.+}} : tensor<3xf32>
// CHECK: %[[C:.+]] = tensor.cast %[[E]] : tensor<3xf32> to tensor<?xf32>
// CHECK: arith.addf %[[C]], %[[C]] : tensor<?xf32>
func.func @foreign_use(%x: tensor<3xf32>) -> tensor<?xf32> {
  %0 = graph.cast %x : tensor<3xf32> to tensor<?xf32>
  %1 = graph.exp %0 : tensor<?xf32>
  %2 = arith.addf %1, %1 : tensor<?xf32>
  return %2 : tensor<?xf32>
}

// -----

// Equal unknown dims through transpose, reduction and concat.

// CHECK-LABEL: func.func @dims
// CHECK-SAME: graph.dim_classes = {{\[\[}}"arg0:0", "arg1:1", "res0:1", "res1:0"]]
func.func @dims(%x: tensor<?x5xf32>, %y: tensor<2x?xf32>) -> (tensor<?x?xf32>, tensor<?xf32>) {
  %t = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<?x5xf32>) -> tensor<5x?xf32>
  %c = graph.concat %t, %y {axis = 0 : i64} : (tensor<5x?xf32>, tensor<2x?xf32>) -> tensor<?x?xf32>
  %r = graph.reduce_sum %c {axes = array<i64: 0>} : (tensor<?x?xf32>) -> tensor<?xf32>
  return %c, %r : tensor<?x?xf32>, tensor<?xf32>
}
