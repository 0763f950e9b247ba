// RUN: mlc-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(graph-shape-inference)'

// A refined operand contradicts a declared result type.

func.func @conflict_result(%a: tensor<4xf32>) -> tensor<?xf32> {
  %0 = graph.cast %a : tensor<4xf32> to tensor<?xf32>
  // expected-error@+1 {{shape conflict: result #0 has type tensor<5xf32>, but the operands give tensor<4xf32>}}
  %1 = graph.add %0, %0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<5xf32>
  return %0 : tensor<?xf32>
}

// -----

// Refined operands that do not broadcast.

func.func @conflict_broadcast(%a: tensor<4xf32>, %b: tensor<5xf32>) -> tensor<?xf32> {
  %0 = graph.cast %a : tensor<4xf32> to tensor<?xf32>
  // expected-error@+1 {{shape conflict: shapes [4], [5] are not broadcast-compatible}}
  %1 = graph.add %0, %b : (tensor<?xf32>, tensor<5xf32>) -> tensor<?xf32>
  return %1 : tensor<?xf32>
}

// -----

// A call site's refined argument makes the callee's body inconsistent.

func.func @caller(%a: tensor<3x4xf32>) -> tensor<?x?xf32> {
  %0 = graph.cast %a : tensor<3x4xf32> to tensor<?x?xf32>
  %1 = call @mm(%0) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}
func.func private @mm(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  // expected-error@+1 {{shape conflict: contracting dimensions do not match: 4 vs 3}}
  %0 = graph.matmul %x, %x : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
