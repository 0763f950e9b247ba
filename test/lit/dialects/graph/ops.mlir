// RUN: mlc-opt %s | mlc-opt | filecheck %s
// RUN: mlc-opt %s --mlir-print-op-generic | mlc-opt | filecheck %s

// Every graph op in its custom form; both the custom and the generic print read back the same.

// CHECK-LABEL: func.func @constant
func.func @constant() -> (tensor<4xf32>, tensor<2x2xi32>, tensor<2xi1>, tensor<f64>) {
  // CHECK: %[[A:.+]] = graph.constant dense<1.000000e+00> : tensor<4xf32>
  %a = graph.constant dense<1.0> : tensor<4xf32>
  // CHECK: %[[B:.+]] = graph.constant dense<{{\[}}[1, 2], [3, 4]]> : tensor<2x2xi32>
  %b = graph.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  // CHECK: %[[C:.+]] = graph.constant dense<[true, false]> : tensor<2xi1>
  %c = graph.constant dense<[true, false]> : tensor<2xi1>
  // CHECK: %[[D:.+]] = graph.constant dense<2.500000e+00> : tensor<f64>
  %d = graph.constant dense<2.5> : tensor<f64>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]]
  return %a, %b, %c, %d : tensor<4xf32>, tensor<2x2xi32>, tensor<2xi1>, tensor<f64>
}

// CHECK-LABEL: func.func @binary
// CHECK-SAME: (%[[X:.+]]: tensor<4x1xf32>, %[[Y:.+]]: tensor<5xf32>, %[[I:.+]]: tensor<3xi32>, %[[B:.+]]: tensor<3xi1>)
func.func @binary(%x: tensor<4x1xf32>, %y: tensor<5xf32>, %i: tensor<3xi32>, %b: tensor<3xi1>) {
  // CHECK: graph.add %[[X]], %[[Y]] : (tensor<4x1xf32>, tensor<5xf32>) -> tensor<4x5xf32>
  %0 = graph.add %x, %y : (tensor<4x1xf32>, tensor<5xf32>) -> tensor<4x5xf32>
  // CHECK: graph.sub %[[I]], %[[I]] : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  %1 = graph.sub %i, %i : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  // CHECK: graph.mul %[[X]], %[[Y]] : (tensor<4x1xf32>, tensor<5xf32>) -> tensor<4x5xf32>
  %2 = graph.mul %x, %y : (tensor<4x1xf32>, tensor<5xf32>) -> tensor<4x5xf32>
  // CHECK: graph.div %[[I]], %[[I]] : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  %3 = graph.div %i, %i : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  // CHECK: graph.max %[[B]], %[[B]] : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  %4 = graph.max %b, %b : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  // CHECK: graph.min %[[X]], %[[X]] : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %5 = graph.min %x, %x : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  // CHECK: graph.pow %[[Y]], %[[X]] : (tensor<5xf32>, tensor<4x1xf32>) -> tensor<4x5xf32>
  %6 = graph.pow %y, %x : (tensor<5xf32>, tensor<4x1xf32>) -> tensor<4x5xf32>
  return
}

// CHECK-LABEL: func.func @cmp_select
// CHECK-SAME: (%[[X:.+]]: tensor<4x1xf32>, %[[Y:.+]]: tensor<5xf32>, %[[I:.+]]: tensor<?xi64>)
func.func @cmp_select(%x: tensor<4x1xf32>, %y: tensor<5xf32>, %i: tensor<?xi64>) {
  // CHECK: %[[C:.+]] = graph.cmp "lt", %[[X]], %[[Y]] : (tensor<4x1xf32>, tensor<5xf32>) -> tensor<4x5xi1>
  %c = graph.cmp "lt", %x, %y : (tensor<4x1xf32>, tensor<5xf32>) -> tensor<4x5xi1>
  // CHECK: graph.cmp "eq", %[[I]], %[[I]] : (tensor<?xi64>, tensor<?xi64>) -> tensor<?xi1>
  %0 = graph.cmp "eq", %i, %i : (tensor<?xi64>, tensor<?xi64>) -> tensor<?xi1>
  // CHECK: graph.cmp "ne"
  %1 = graph.cmp "ne", %y, %y : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  // CHECK: graph.cmp "le"
  %2 = graph.cmp "le", %y, %y : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  // CHECK: graph.cmp "gt"
  %3 = graph.cmp "gt", %y, %y : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  // CHECK: graph.cmp "ge"
  %4 = graph.cmp "ge", %y, %y : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  // CHECK: graph.select %[[C]], %[[X]], %[[Y]] : (tensor<4x5xi1>, tensor<4x1xf32>, tensor<5xf32>) -> tensor<4x5xf32>
  %5 = graph.select %c, %x, %y : (tensor<4x5xi1>, tensor<4x1xf32>, tensor<5xf32>) -> tensor<4x5xf32>
  return
}

// CHECK-LABEL: func.func @unary
// CHECK-SAME: (%[[X:.+]]: tensor<4x5xf32>, %[[I:.+]]: tensor<?xi32>, %[[U:.+]]: tensor<*xf16>)
func.func @unary(%x: tensor<4x5xf32>, %i: tensor<?xi32>, %u: tensor<*xf16>) {
  // CHECK: graph.neg %[[I]] : tensor<?xi32>
  %0 = graph.neg %i : tensor<?xi32>
  // CHECK: graph.abs %[[X]] : tensor<4x5xf32>
  %1 = graph.abs %x : tensor<4x5xf32>
  // CHECK: graph.exp %[[U]] : tensor<*xf16>
  %2 = graph.exp %u : tensor<*xf16>
  // CHECK: graph.log %[[X]] : tensor<4x5xf32>
  %3 = graph.log %x : tensor<4x5xf32>
  // CHECK: graph.sqrt %[[X]] : tensor<4x5xf32>
  %4 = graph.sqrt %x : tensor<4x5xf32>
  // CHECK: graph.rsqrt %[[X]] : tensor<4x5xf32>
  %5 = graph.rsqrt %x : tensor<4x5xf32>
  // CHECK: graph.tanh %[[X]] : tensor<4x5xf32>
  %6 = graph.tanh %x : tensor<4x5xf32>
  // CHECK: graph.sigmoid %[[X]] : tensor<4x5xf32>
  %7 = graph.sigmoid %x : tensor<4x5xf32>
  // CHECK: graph.relu %[[I]] : tensor<?xi32>
  %8 = graph.relu %i : tensor<?xi32>
  // CHECK: graph.erf %[[X]] : tensor<4x5xf32>
  %9 = graph.erf %x : tensor<4x5xf32>
  // CHECK: graph.gelu %[[X]] : tensor<4x5xf32>
  %10 = graph.gelu %x : tensor<4x5xf32>
  // CHECK: graph.cast %[[X]] : tensor<4x5xf32> to tensor<4x5xi32>
  %11 = graph.cast %x : tensor<4x5xf32> to tensor<4x5xi32>
  // CHECK: graph.cast %[[I]] : tensor<?xi32> to tensor<?xi1>
  %12 = graph.cast %i : tensor<?xi32> to tensor<?xi1>
  // CHECK: graph.cast %[[U]] : tensor<*xf16> to tensor<*xf64>
  %13 = graph.cast %u : tensor<*xf16> to tensor<*xf64>
  return
}

// CHECK-LABEL: func.func @shapes
// CHECK-SAME: (%[[A:.+]]: tensor<2x4x8xf32>, %[[B:.+]]: tensor<8x16xf32>, %[[C:.+]]: tensor<4x3xf32>)
func.func @shapes(%a: tensor<2x4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x3xf32>) {
  // CHECK: graph.matmul %[[A]], %[[B]] : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
  %0 = graph.matmul %a, %b : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
  // CHECK: graph.transpose %[[A]] {perm = array<i64: 2, 0, 1>} : (tensor<2x4x8xf32>) -> tensor<8x2x4xf32>
  %1 = graph.transpose %a {perm = array<i64: 2, 0, 1>} : (tensor<2x4x8xf32>) -> tensor<8x2x4xf32>
  // CHECK: graph.reshape %[[C]] {shape = array<i64: 2, -1>} : (tensor<4x3xf32>) -> tensor<2x6xf32>
  %2 = graph.reshape %c {shape = array<i64: 2, -1>} : (tensor<4x3xf32>) -> tensor<2x6xf32>
  // CHECK: graph.broadcast_to %[[C]] {shape = array<i64: 5, 4, 3>} : (tensor<4x3xf32>) -> tensor<5x4x3xf32>
  %3 = graph.broadcast_to %c {shape = array<i64: 5, 4, 3>} : (tensor<4x3xf32>) -> tensor<5x4x3xf32>
  // CHECK: graph.concat %[[C]], %[[C]], %[[C]] {axis = 1 : i64} : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x9xf32>
  %4 = graph.concat %c, %c, %c {axis = 1 : i64} : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x9xf32>
  // CHECK: graph.concat %[[C]] {axis = 0 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %5 = graph.concat %c {axis = 0 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  // CHECK: graph.slice %[[C]] {limits = array<i64: 4, 3>, starts = array<i64: 1, 0>, strides = array<i64: 2, 2>} : (tensor<4x3xf32>) -> tensor<2x2xf32>
  %6 = graph.slice %c {starts = array<i64: 1, 0>, limits = array<i64: 4, 3>, strides = array<i64: 2, 2>} : (tensor<4x3xf32>) -> tensor<2x2xf32>
  return
}

// CHECK-LABEL: func.func @reductions
// CHECK-SAME: (%[[X:.+]]: tensor<4x5xf32>, %[[I:.+]]: tensor<4x5xi64>)
func.func @reductions(%x: tensor<4x5xf32>, %i: tensor<4x5xi64>) {
  // CHECK: graph.reduce_sum %[[X]] {axes = array<i64: 1>, keepdims = true} : (tensor<4x5xf32>) -> tensor<4x1xf32>
  %0 = graph.reduce_sum %x {axes = array<i64: 1>, keepdims = true} : (tensor<4x5xf32>) -> tensor<4x1xf32>
  // CHECK: graph.reduce_max %[[I]] {axes = array<i64: 0>} : (tensor<4x5xi64>) -> tensor<5xi64>
  %1 = graph.reduce_max %i {axes = array<i64: 0>} : (tensor<4x5xi64>) -> tensor<5xi64>
  // The default keepdims = false is not printed.
  // CHECK: graph.reduce_min %[[X]] {axes = array<i64: 0, 1>} : (tensor<4x5xf32>) -> tensor<f32>
  %2 = graph.reduce_min %x {axes = array<i64: 0, 1>, keepdims = false} : (tensor<4x5xf32>) -> tensor<f32>
  // CHECK: graph.reduce_mean %[[X]] {axes = array<i64>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  %3 = graph.reduce_mean %x {axes = array<i64>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  // CHECK: graph.softmax %[[X]] {axis = 1 : i64} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  %4 = graph.softmax %x {axis = 1 : i64} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  return
}

// CHECK-LABEL: func.func @conv_pool
// CHECK-SAME: (%[[X:.+]]: tensor<1x4x8x8xf32>, %[[W:.+]]: tensor<6x2x3x3xf32>, %[[B:.+]]: tensor<6xf32>)
func.func @conv_pool(%x: tensor<1x4x8x8xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<6xf32>) {
  // CHECK: graph.conv2d %[[X]], %[[W]] {groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x6x6xf32>
  %0 = graph.conv2d %x, %w {groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x6x6xf32>
  // CHECK: graph.conv2d %[[X]], %[[W]], %[[B]] {dilations = array<i64: 2, 1>, groups = 2 : i64, pads = array<i64: 1, 2, 3, 4>, strides = array<i64: 2, 3>} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x4x4xf32>
  %1 = graph.conv2d %x, %w, %b {strides = array<i64: 2, 3>, pads = array<i64: 1, 2, 3, 4>, dilations = array<i64: 2, 1>, groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x4x4xf32>
  // Default-valued properties are not printed in the custom form.
  // CHECK: graph.conv2d %[[X]], %[[W]], %[[B]] {groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x6x6xf32>
  %2 = graph.conv2d %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x6x6xf32>
  // CHECK: graph.max_pool2d %[[X]] {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  %3 = graph.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  // CHECK: graph.avg_pool2d %[[X]] {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %4 = graph.avg_pool2d %x {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return
}

// CHECK-LABEL: func.func @fused
// CHECK-SAME: (%[[A:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<4xf32>)
func.func @fused(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi1>) {
  // CHECK: %[[R:.+]]:2 = graph.fused ins(%[[A]], %[[B]] : tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi1>) attributes {tag = "k0"} {
  // CHECK-NEXT: ^bb0(%[[X:.+]]: tensor<4xf32>, %[[Y:.+]]: tensor<4xf32>):
  // CHECK-NEXT: %[[S:.+]] = graph.add %[[X]], %[[Y]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK-NEXT: %[[C:.+]] = arith.constant 0.000000e+00 : f32
  // CHECK-NEXT: %[[Z:.+]] = graph.constant dense<0.000000e+00> : tensor<4xf32>
  // CHECK-NEXT: %[[M:.+]] = graph.cmp "gt", %[[S]], %[[Z]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK-NEXT: graph.yield %[[S]], %[[M]] : tensor<4xf32>, tensor<4xi1>
  // CHECK-NEXT: }
  %r:2 = graph.fused ins(%a, %b : tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi1>) attributes {tag = "k0"} {
  ^bb0(%x: tensor<4xf32>, %y: tensor<4xf32>):
    %s = graph.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %c = arith.constant 0.0 : f32
    %z = graph.constant dense<0.0> : tensor<4xf32>
    %m = graph.cmp "gt", %s, %z : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    graph.yield %s, %m : tensor<4xf32>, tensor<4xi1>
  }
  // A fused op without inputs.
  // CHECK: graph.fused -> tensor<2xi32> {
  // CHECK-NEXT: graph.constant dense<[1, 2]> : tensor<2xi32>
  // CHECK-NEXT: graph.yield
  %k = graph.fused -> tensor<2xi32> {
    %v = graph.constant dense<[1, 2]> : tensor<2xi32>
    graph.yield %v : tensor<2xi32>
  }
  // CHECK: return %[[R]]#0, %[[R]]#1
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xi1>
}
