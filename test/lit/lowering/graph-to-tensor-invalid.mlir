// RUN: mlc-opt %s -split-input-file --verify-diagnostics -p convert-graph-to-tensor
// RUN: not mlc-opt %s -split-input-file -p convert-graph-to-tensor 2>&1 | filecheck %s

// An op the conversion cannot lower fails the pass with MLIR's full-conversion error at the
// op, and a note saying what is not supported.

// CHECK: error: failed to legalize operation 'graph.exp'
// CHECK: note: not supported: unranked tensor type tensor<*xf32>
func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error@+2 {{failed to legalize operation 'graph.exp'}}
  // expected-note@+1 {{not supported: unranked tensor type tensor<*xf32>}}
  %0 = graph.exp %x : tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// CHECK: error: failed to legalize operation 'graph.conv2d'
// CHECK: note: not supported: grouped graph.conv2d with a dynamic number of filter channels
func.func @grouped_dynamic_filter(%x: tensor<1x4x5x5xf32>, %w: tensor<?x2x3x3xf32>) -> tensor<1x?x3x3xf32> {
  // expected-error@+2 {{failed to legalize operation 'graph.conv2d'}}
  // expected-note@+1 {{not supported: grouped graph.conv2d with a dynamic number of filter channels}}
  %0 = graph.conv2d %x, %w {groups = 2 : i64} : (tensor<1x4x5x5xf32>, tensor<?x2x3x3xf32>) -> tensor<1x?x3x3xf32>
  return %0 : tensor<1x?x3x3xf32>
}

// -----

// Inside graph.fused, the failing op is reported where it was written.
// CHECK: error: failed to legalize operation 'graph.reshape'
// CHECK: note: not supported: reshape inferring a dimension next to a zero-size one
func.func @reshape_in_fused(%x: tensor<?x?xf32>) -> tensor<0x?xf32> {
  %0 = graph.fused ins(%x : tensor<?x?xf32>) -> tensor<0x?xf32> {
  ^bb0(%a: tensor<?x?xf32>):
    %e = graph.exp %a : tensor<?x?xf32>
    // expected-error@+2 {{failed to legalize operation 'graph.reshape'}}
    // expected-note@+1 {{not supported: reshape inferring a dimension next to a zero-size one}}
    %1 = graph.reshape %e {shape = array<i64: 0, -1>} : (tensor<?x?xf32>) -> tensor<0x?xf32>
    graph.yield %1 : tensor<0x?xf32>
  }
  return %0 : tensor<0x?xf32>
}
