// RUN: mlc-opt %s --split-input-file --verify-diagnostics

// Shape inference: each op declares a result with a wrong element type, so the verifier's
// message shows the exact inferred type (static and `?` dims, broadcasting corner cases).

func.func @bcast_static(%a: tensor<4x1xf32>, %b: tensor<5xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<4x5xf32>}}
  %0 = graph.add %a, %b : (tensor<4x1xf32>, tensor<5xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @bcast_scalar(%a: tensor<f32>, %b: tensor<2x3xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<2x3xf32>}}
  %0 = graph.mul %a, %b : (tensor<f32>, tensor<2x3xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @bcast_dyn_one(%a: tensor<?xf32>, %b: tensor<1xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<?xf32>}}
  %0 = graph.add %a, %b : (tensor<?xf32>, tensor<1xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @bcast_dyn_n(%a: tensor<?x3xf32>, %b: tensor<4x1xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<4x3xf32>}}
  %0 = graph.sub %a, %b : (tensor<?x3xf32>, tensor<4x1xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @bcast_dyn_dyn(%a: tensor<?xf32>, %b: tensor<?xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<?xf32>}}
  %0 = graph.max %a, %b : (tensor<?xf32>, tensor<?xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @bcast_zero(%a: tensor<0x1xf32>, %b: tensor<3xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<0x3xf32>}}
  %0 = graph.min %a, %b : (tensor<0x1xf32>, tensor<3xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @bcast_rank_extend(%a: tensor<2x1x3xi32>, %b: tensor<4x1xi32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<2x4x3xi32>}}
  %0 = graph.div %a, %b : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<*xi1>
  return
}

// -----

func.func @bcast_unranked(%a: tensor<*xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<*xf32>}}
  %0 = graph.pow %a, %b : (tensor<*xf32>, tensor<4xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @cmp_bcast(%a: tensor<?x1xf32>, %b: tensor<5xf32>) {
  // expected-error@+1 {{result type tensor<*xf32> is incompatible with the inferred tensor<?x5xi1>}}
  %0 = graph.cmp "ge", %a, %b : (tensor<?x1xf32>, tensor<5xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @select_three_way(%c: tensor<3x1x1xi1>, %a: tensor<4x1xf64>, %b: tensor<5xf64>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<3x4x5xf64>}}
  %0 = graph.select %c, %a, %b : (tensor<3x1x1xi1>, tensor<4x1xf64>, tensor<5xf64>) -> tensor<*xi1>
  return
}

// -----

func.func @matmul_2d(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<3x5xf32>}}
  %0 = graph.matmul %a, %b : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @matmul_batch_bcast(%a: tensor<2x1x3x4xf32>, %b: tensor<6x4x5xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<2x6x3x5xf32>}}
  %0 = graph.matmul %a, %b : (tensor<2x1x3x4xf32>, tensor<6x4x5xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @matmul_dyn(%a: tensor<?x3x?xf32>, %b: tensor<7x5xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<?x3x5xf32>}}
  %0 = graph.matmul %a, %b : (tensor<?x3x?xf32>, tensor<7x5xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @matmul_dyn_batch(%a: tensor<?x3x4xf16>, %b: tensor<1x4x?xf16>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<?x3x?xf16>}}
  %0 = graph.matmul %a, %b : (tensor<?x3x4xf16>, tensor<1x4x?xf16>) -> tensor<*xi1>
  return
}

// -----

func.func @transpose_3d(%a: tensor<2x?x4xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<4x2x?xf32>}}
  %0 = graph.transpose %a {perm = array<i64: 2, 0, 1>} : (tensor<2x?x4xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @reshape_infer(%a: tensor<4x6xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<3x4x2xf32>}}
  %0 = graph.reshape %a {shape = array<i64: 3, -1, 2>} : (tensor<4x6xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @reshape_static(%a: tensor<4x6xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<24xf32>}}
  %0 = graph.reshape %a {shape = array<i64: 24>} : (tensor<4x6xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @reshape_dyn_operand(%a: tensor<?x6xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<?x3xf32>}}
  %0 = graph.reshape %a {shape = array<i64: -1, 3>} : (tensor<?x6xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @reshape_dyn_no_minus_one(%a: tensor<?x6xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<2x3xf32>}}
  %0 = graph.reshape %a {shape = array<i64: 2, 3>} : (tensor<?x6xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @reshape_scalar(%a: tensor<1x1xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<f32>}}
  %0 = graph.reshape %a {shape = array<i64>} : (tensor<1x1xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @reshape_zero(%a: tensor<0x4xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<2x0xf32>}}
  %0 = graph.reshape %a {shape = array<i64: 2, 0>} : (tensor<0x4xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @broadcast_to(%a: tensor<3x1xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<2x3x4xf32>}}
  %0 = graph.broadcast_to %a {shape = array<i64: 2, 3, 4>} : (tensor<3x1xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @broadcast_to_dyn(%a: tensor<?xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<2x5xf32>}}
  %0 = graph.broadcast_to %a {shape = array<i64: 2, 5>} : (tensor<?xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @concat_static(%a: tensor<2x3xf32>, %b: tensor<5x3xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<7x3xf32>}}
  %0 = graph.concat %a, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<5x3xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @concat_dyn_axis(%a: tensor<2x3xf32>, %b: tensor<?x3xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<?x3xf32>}}
  %0 = graph.concat %a, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<?x3xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @concat_dyn_other(%a: tensor<?x3xf32>, %b: tensor<4x2xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<4x5xf32>}}
  %0 = graph.concat %a, %b {axis = 1 : i64} : (tensor<?x3xf32>, tensor<4x2xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @slice_strided(%a: tensor<10x7xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<3x4xf32>}}
  %0 = graph.slice %a {starts = array<i64: 1, 0>, limits = array<i64: 10, 7>, strides = array<i64: 3, 2>} : (tensor<10x7xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @slice_dyn(%a: tensor<?xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<4xf32>}}
  %0 = graph.slice %a {starts = array<i64: 2>, limits = array<i64: 9>, strides = array<i64: 2>} : (tensor<?xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @slice_empty(%a: tensor<5xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<0xf32>}}
  %0 = graph.slice %a {starts = array<i64: 3>, limits = array<i64: 3>, strides = array<i64: 1>} : (tensor<5xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @reduce_keepdims(%a: tensor<2x?x4xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<1x?x1xf32>}}
  %0 = graph.reduce_sum %a {axes = array<i64: 0, 2>, keepdims = true} : (tensor<2x?x4xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @reduce_drop(%a: tensor<2x?x4xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<?xf32>}}
  %0 = graph.reduce_max %a {axes = array<i64: 0, 2>} : (tensor<2x?x4xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @reduce_all(%a: tensor<2x3xi32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<i32>}}
  %0 = graph.reduce_min %a {axes = array<i64: 0, 1>} : (tensor<2x3xi32>) -> tensor<*xi1>
  return
}

// -----

func.func @reduce_none(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<2x3xf32>}}
  %0 = graph.reduce_mean %a {axes = array<i64>, keepdims = true} : (tensor<2x3xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @reduce_dyn_axis(%a: tensor<?x3xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<1x3xf32>}}
  %0 = graph.reduce_mean %a {axes = array<i64: 0>, keepdims = true} : (tensor<?x3xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @softmax(%a: tensor<?x10xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<?x10xf32>}}
  %0 = graph.softmax %a {axis = 1 : i64} : (tensor<?x10xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @conv_basic(%x: tensor<2x3x32x32xf32>, %w: tensor<8x3x5x5xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<2x8x28x28xf32>}}
  %0 = graph.conv2d %x, %w : (tensor<2x3x32x32xf32>, tensor<8x3x5x5xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @conv_stride_pad(%x: tensor<1x3x224x224xf32>, %w: tensor<64x3x7x7xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<1x64x112x112xf32>}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 3, 3, 3, 3>} : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @conv_asym_pad(%x: tensor<1x1x10x10xf32>, %w: tensor<1x1x3x3xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<1x1x10x12xf32>}}
  %0 = graph.conv2d %x, %w {pads = array<i64: 0, 1, 2, 3>} : (tensor<1x1x10x10xf32>, tensor<1x1x3x3xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @conv_dilation(%x: tensor<1x1x10x10xf32>, %w: tensor<1x1x3x3xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<1x1x6x4xf32>}}
  %0 = graph.conv2d %x, %w {dilations = array<i64: 2, 3>} : (tensor<1x1x10x10xf32>, tensor<1x1x3x3xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @conv_stride_floor(%x: tensor<1x1x10x10xf32>, %w: tensor<1x1x3x3xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<1x1x3x2xf32>}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 3, 4>} : (tensor<1x1x10x10xf32>, tensor<1x1x3x3xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @conv_groups_depthwise(%x: tensor<1x8x6x6xf64>, %w: tensor<16x1x3x3xf64>, %b: tensor<16xf64>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<1x16x4x4xf64>}}
  %0 = graph.conv2d %x, %w, %b {groups = 8 : i64} : (tensor<1x8x6x6xf64>, tensor<16x1x3x3xf64>, tensor<16xf64>) -> tensor<*xi1>
  return
}

// -----

func.func @conv_dyn(%x: tensor<?x3x?x9xf32>, %w: tensor<4x3x3x?xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<?x4x?x?xf32>}}
  %0 = graph.conv2d %x, %w : (tensor<?x3x?x9xf32>, tensor<4x3x3x?xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @max_pool(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<1x3x4x4xf32>}}
  %0 = graph.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @max_pool_pad_floor(%x: tensor<1x3x7x7xf32>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<1x3x4x4xf32>}}
  %0 = graph.max_pool2d %x {kernel = array<i64: 3, 2>, strides = array<i64: 2, 2>, pads = array<i64: 1, 0, 1, 1>} : (tensor<1x3x7x7xf32>) -> tensor<*xi1>
  return
}

// -----

func.func @avg_pool_dyn(%x: tensor<?x3x?x8xf16>) {
  // expected-error@+1 {{result type tensor<*xi1> is incompatible with the inferred tensor<?x3x?x8xf16>}}
  %0 = graph.avg_pool2d %x {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<?x3x?x8xf16>) -> tensor<*xi1>
  return
}
