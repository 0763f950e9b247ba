// One public function per graph op case, compiled together by test_compile.py and compared
// with the reference interpreter (broadcasting, dynamic dims, keepdims, strides/pads/groups).

func.func @add_bcast(%a0: tensor<?x4xf32>, %a1: tensor<4xf32>) -> tensor<?x4xf32> {
  %r = graph.add %a0, %a1 : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}

func.func @sub_col(%a0: tensor<3x1xf64>, %a1: tensor<1x5xf64>) -> tensor<3x5xf64> {
  %r = graph.sub %a0, %a1 : (tensor<3x1xf64>, tensor<1x5xf64>) -> tensor<3x5xf64>
  return %r : tensor<3x5xf64>
}

func.func @mul_i32(%a0: tensor<6xi32>, %a1: tensor<6xi32>) -> tensor<6xi32> {
  %r = graph.mul %a0, %a1 : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
  return %r : tensor<6xi32>
}

func.func @div_f32(%a0: tensor<2x3xf32>, %a1: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = graph.div %a0, %a1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

func.func @max_f32(%a0: tensor<2x3xf32>, %a1: tensor<3xf32>) -> tensor<2x3xf32> {
  %r = graph.max %a0, %a1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

func.func @min_i64(%a0: tensor<4xi64>, %a1: tensor<4xi64>) -> tensor<4xi64> {
  %r = graph.min %a0, %a1 : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  return %r : tensor<4xi64>
}

func.func @pow_f32(%a0: tensor<5xf32>, %a1: tensor<5xf32>) -> tensor<5xf32> {
  %r = graph.pow %a0, %a1 : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
  return %r : tensor<5xf32>
}

func.func @cmp_lt(%a0: tensor<2x3xf32>, %a1: tensor<3xf32>) -> tensor<2x3xi1> {
  %r = graph.cmp "lt", %a0, %a1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  return %r : tensor<2x3xi1>
}

func.func @neg_i32(%a0: tensor<5xi32>) -> tensor<5xi32> {
  %r = graph.neg %a0 : tensor<5xi32>
  return %r : tensor<5xi32>
}

func.func @abs_f32(%a0: tensor<5xf32>) -> tensor<5xf32> {
  %r = graph.abs %a0 : tensor<5xf32>
  return %r : tensor<5xf32>
}

func.func @exp_f32(%a0: tensor<?xf32>) -> tensor<?xf32> {
  %r = graph.exp %a0 : tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @log_f64(%a0: tensor<5xf64>) -> tensor<5xf64> {
  %r = graph.log %a0 : tensor<5xf64>
  return %r : tensor<5xf64>
}

func.func @sqrt_f32(%a0: tensor<5xf32>) -> tensor<5xf32> {
  %r = graph.sqrt %a0 : tensor<5xf32>
  return %r : tensor<5xf32>
}

func.func @rsqrt_f32(%a0: tensor<5xf32>) -> tensor<5xf32> {
  %r = graph.rsqrt %a0 : tensor<5xf32>
  return %r : tensor<5xf32>
}

func.func @tanh_f32(%a0: tensor<5xf32>) -> tensor<5xf32> {
  %r = graph.tanh %a0 : tensor<5xf32>
  return %r : tensor<5xf32>
}

func.func @sigmoid_f32(%a0: tensor<5xf32>) -> tensor<5xf32> {
  %r = graph.sigmoid %a0 : tensor<5xf32>
  return %r : tensor<5xf32>
}

func.func @relu_f32(%a0: tensor<2x?xf32>) -> tensor<2x?xf32> {
  %r = graph.relu %a0 : tensor<2x?xf32>
  return %r : tensor<2x?xf32>
}

func.func @erf_f32(%a0: tensor<5xf32>) -> tensor<5xf32> {
  %r = graph.erf %a0 : tensor<5xf32>
  return %r : tensor<5xf32>
}

func.func @gelu_f32(%a0: tensor<5xf32>) -> tensor<5xf32> {
  %r = graph.gelu %a0 : tensor<5xf32>
  return %r : tensor<5xf32>
}

func.func @cast_f32_i32(%a0: tensor<6xf32>) -> tensor<6xi32> {
  %r = graph.cast %a0 : tensor<6xf32> to tensor<6xi32>
  return %r : tensor<6xi32>
}

func.func @matmul_batch(%a0: tensor<2x3x4xf32>, %a1: tensor<4x5xf32>) -> tensor<2x3x5xf32> {
  %r = graph.matmul %a0, %a1 : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  return %r : tensor<2x3x5xf32>
}

func.func @transpose(%a0: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %r = graph.transpose %a0 {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  return %r : tensor<4x2x3xf32>
}

func.func @reshape(%a0: tensor<2x6xf32>) -> tensor<3x4xf32> {
  %r = graph.reshape %a0 {shape = array<i64: 3, -1>} : (tensor<2x6xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

func.func @broadcast_to(%a0: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %r = graph.broadcast_to %a0 {shape = array<i64: 2, 3, 4>} : (tensor<3x1xf32>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}

func.func @slice(%a0: tensor<8x6xf32>) -> tensor<3x2xf32> {
  %r = graph.slice %a0 {starts = array<i64: 1, 0>, limits = array<i64: 7, 6>, strides = array<i64: 2, 3>} : (tensor<8x6xf32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

func.func @reduce_sum_keep(%a0: tensor<3x4xf32>) -> tensor<3x1xf32> {
  %r = graph.reduce_sum %a0 {axes = array<i64: 1>, keepdims = true} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  return %r : tensor<3x1xf32>
}

func.func @reduce_max(%a0: tensor<3x4xf32>) -> tensor<4xf32> {
  %r = graph.reduce_max %a0 {axes = array<i64: 0>} : (tensor<3x4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @reduce_min_i32(%a0: tensor<3x4xi32>) -> tensor<i32> {
  %r = graph.reduce_min %a0 {axes = array<i64: 0, 1>} : (tensor<3x4xi32>) -> tensor<i32>
  return %r : tensor<i32>
}

func.func @reduce_mean(%a0: tensor<?x4xf32>) -> tensor<?xf32> {
  %r = graph.reduce_mean %a0 {axes = array<i64: 1>} : (tensor<?x4xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @softmax(%a0: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = graph.softmax %a0 {axis = 1 : i64} : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

func.func @conv2d(%a0: tensor<1x4x7x7xf32>, %a1: tensor<6x2x3x3xf32>, %a2: tensor<6xf32>) -> tensor<1x6x4x5xf32> {
  %r = graph.conv2d %a0, %a1, %a2 {strides = array<i64: 2, 1>, pads = array<i64: 1, 0, 1, 2>, dilations = array<i64: 1, 2>, groups = 2 : i64} : (tensor<1x4x7x7xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x4x5xf32>
  return %r : tensor<1x6x4x5xf32>
}

func.func @max_pool(%a0: tensor<1x2x6x6xf32>) -> tensor<1x2x3x3xf32> {
  %r = graph.max_pool2d %a0 {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x6x6xf32>) -> tensor<1x2x3x3xf32>
  return %r : tensor<1x2x3x3xf32>
}

func.func @avg_pool(%a0: tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32> {
  %r = graph.avg_pool2d %a0 {kernel = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>} : (tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  return %r : tensor<1x2x6x6xf32>
}

func.func @concat(%a0: tensor<2x3xf32>, %a1: tensor<2x1xf32>) -> tensor<2x4xf32> {
  %r = graph.concat %a0, %a1 {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

func.func @select(%a0: tensor<4xi1>, %a1: tensor<4xf32>, %a2: tensor<1xf32>) -> tensor<4xf32> {
  %r = graph.select %a0, %a1, %a2 : (tensor<4xi1>, tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @constant(%a0: tensor<3xf32>) -> tensor<3xf32> {
  %c = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %r = graph.mul %a0, %c : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

func.func @fused(%a0: tensor<4xf32>, %a1: tensor<4xf32>) -> tensor<4xf32> {
  %r = graph.fused ins(%a0, %a1 : tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>, %y: tensor<4xf32>):
    %s = graph.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %e = graph.exp %s : tensor<4xf32>
    graph.yield %e : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
