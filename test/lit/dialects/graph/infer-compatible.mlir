// RUN: mlc-opt %s | filecheck %s

// Declared result types only need to be compatible with the inferred ones: a `?` dim matches
// any size in either direction, and an unranked result matches any shape.

// CHECK-LABEL: func.func @dynamic_result_dims
func.func @dynamic_result_dims(%a: tensor<4x1xf32>, %b: tensor<5xf32>, %c: tensor<4x6xf32>) {
  // CHECK: graph.add %{{.+}}, %{{.+}} : (tensor<4x1xf32>, tensor<5xf32>) -> tensor<?x5xf32>
  %0 = graph.add %a, %b : (tensor<4x1xf32>, tensor<5xf32>) -> tensor<?x5xf32>
  // CHECK: graph.reshape %{{.+}} {shape = array<i64: 3, -1>} : (tensor<4x6xf32>) -> tensor<3x?xf32>
  %1 = graph.reshape %c {shape = array<i64: 3, -1>} : (tensor<4x6xf32>) -> tensor<3x?xf32>
  // CHECK: graph.matmul %{{.+}}, %{{.+}} : (tensor<4x6xf32>, tensor<6x4xf32>) -> tensor<?x?xf32>
  %t = graph.transpose %c {perm = array<i64: 1, 0>} : (tensor<4x6xf32>) -> tensor<6x4xf32>
  %2 = graph.matmul %c, %t : (tensor<4x6xf32>, tensor<6x4xf32>) -> tensor<?x?xf32>
  // CHECK: graph.add %{{.+}}, %{{.+}} : (tensor<4x1xf32>, tensor<5xf32>) -> tensor<*xf32>
  %3 = graph.add %a, %b : (tensor<4x1xf32>, tensor<5xf32>) -> tensor<*xf32>
  return
}

// CHECK-LABEL: func.func @static_result_of_dynamic_operands
func.func @static_result_of_dynamic_operands(%a: tensor<?x?xf32>, %u: tensor<*xf32>, %b: tensor<3xf32>) {
  // CHECK: graph.add %{{.+}}, %{{.+}} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<2x3xf32>
  %0 = graph.add %a, %a : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<2x3xf32>
  // CHECK: graph.reshape %{{.+}} {shape = array<i64: -1, 2>} : (tensor<?x?xf32>) -> tensor<8x2xf32>
  %1 = graph.reshape %a {shape = array<i64: -1, 2>} : (tensor<?x?xf32>) -> tensor<8x2xf32>
  // An unranked operand of an elementwise op: any ranked result of the element type.
  // CHECK: graph.mul %{{.+}}, %{{.+}} : (tensor<*xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = graph.mul %u, %b : (tensor<*xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: graph.cast %{{.+}} : tensor<*xf32> to tensor<*xi64>
  %3 = graph.cast %u : tensor<*xf32> to tensor<*xi64>
  return
}
