// RUN: mlc-opt %s --split-input-file --verify-diagnostics

// One case per verifier rule of the graph dialect.

func.func @operand_not_graph_tensor(%a: tensor<4xi8>) {
  // expected-error@+1 {{'graph.relu' op operand #0 must be tensor of f16, f32, f64, i1, i32 or i64 values, but got tensor<4xi8>}}
  %0 = graph.relu %a : tensor<4xi8>
  return
}

// -----

func.func @operand_vector(%a: vector<4xf32>) {
  // expected-error@+1 {{'graph.exp' op operand #0 must be tensor of f16, f32, f64, i1, i32 or i64 values, but got vector<4xf32>}}
  %0 = "graph.exp"(%a) : (vector<4xf32>) -> vector<4xf32>
  return
}

// -----

func.func @constant_value_type() {
  // expected-error@+1 {{'graph.constant' op result type tensor<5xf32> is incompatible with the inferred tensor<4xf32>}}
  %0 = "graph.constant"() <{value = dense<1.0> : tensor<4xf32>}> : () -> tensor<5xf32>
  return
}

// -----

func.func @constant_not_dense() {
  // expected-error@+1 {{'graph.constant' op attribute 'value' failed to satisfy constraint: dense elements attribute of tensor type}}
  %0 = "graph.constant"() <{value = 1.0 : f32}> : () -> tensor<f32>
  return
}

// -----

func.func @constant_element_type() {
  // expected-error@+1 {{'graph.constant' op result #0 must be tensor of f16, f32, f64, i1, i32 or i64 values, but got tensor<4xi8>}}
  %0 = "graph.constant"() <{value = dense<1> : tensor<4xi8>}> : () -> tensor<4xi8>
  return
}

// -----

func.func @binary_result_shape(%a: tensor<4x1xf32>, %b: tensor<5xf32>) {
  // expected-error@+1 {{'graph.add' op result type tensor<4x6xf32> is incompatible with the inferred tensor<4x5xf32>}}
  %0 = graph.add %a, %b : (tensor<4x1xf32>, tensor<5xf32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @binary_result_element_type(%a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.add' op result type tensor<4xf64> is incompatible with the inferred tensor<4xf32>}}
  %0 = graph.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf64>
  return
}

// -----

func.func @binary_result_rank(%a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.mul' op result type tensor<1x4xf32> is incompatible with the inferred tensor<4xf32>}}
  %0 = graph.mul %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  return
}

// -----

func.func @binary_not_broadcastable(%a: tensor<3xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{'graph.sub' op shapes [3], [4] are not broadcast-compatible}}
  %0 = graph.sub %a, %b : (tensor<3xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @binary_element_types(%a: tensor<4xf32>, %b: tensor<4xi32>) {
  // expected-error@+1 {{'graph.max' op operands must have the same element type, but got f32 and i32}}
  %0 = graph.max %a, %b : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

func.func @add_i1(%a: tensor<4xi1>) {
  // expected-error@+1 {{'graph.add' op not supported on i1}}
  %0 = graph.add %a, %a : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @div_i1(%a: tensor<4xi1>) {
  // expected-error@+1 {{'graph.div' op not supported on i1}}
  %0 = graph.div %a, %a : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @pow_int(%a: tensor<4xi32>) {
  // expected-error@+1 {{'graph.pow' op requires a floating-point element type, but got i32}}
  %0 = graph.pow %a, %a : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @cmp_bad_predicate(%a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.cmp' op predicate must be one of eq, ne, lt, le, gt, ge, but got "olt"}}
  %0 = graph.cmp "olt", %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}

// -----

func.func @cmp_predicate_not_string(%a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.cmp' op attribute 'predicate' failed to satisfy constraint: string attribute}}
  %0 = "graph.cmp"(%a, %a) <{predicate = 1 : i64}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}

// -----

func.func @cmp_missing_predicate(%a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.cmp' op requires attribute 'predicate'}}
  %0 = "graph.cmp"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}

// -----

func.func @cmp_result_not_i1(%a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.cmp' op result type tensor<4xf32> is incompatible with the inferred tensor<4xi1>}}
  %0 = graph.cmp "eq", %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @cmp_element_types(%a: tensor<4xf32>, %b: tensor<4xf64>) {
  // expected-error@+1 {{'graph.cmp' op operands must have the same element type, but got f32 and f64}}
  %0 = graph.cmp "eq", %a, %b : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xi1>
  return
}

// -----

func.func @select_condition_not_i1(%c: tensor<4xi32>, %a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.select' op condition must have i1 element type, but got i32}}
  %0 = graph.select %c, %a, %a : (tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @select_value_types(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xi32>) {
  // expected-error@+1 {{'graph.select' op true and false values must have the same element type, but got f32 and i32}}
  %0 = graph.select %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

func.func @select_not_broadcastable(%c: tensor<3xi1>, %a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.select' op shapes [3], [4], [4] are not broadcast-compatible}}
  %0 = graph.select %c, %a, %a : (tensor<3xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @unary_result_type(%a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.exp' op requires the same type for all operands and results}}
  %0 = "graph.exp"(%a) : (tensor<4xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @exp_int(%a: tensor<4xi32>) {
  // expected-error@+1 {{'graph.exp' op requires a floating-point element type, but got i32}}
  %0 = graph.exp %a : tensor<4xi32>
  return
}

// -----

func.func @neg_i1(%a: tensor<4xi1>) {
  // expected-error@+1 {{'graph.neg' op not supported on i1}}
  %0 = graph.neg %a : tensor<4xi1>
  return
}

// -----

func.func @cast_shape(%a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.cast' op result type tensor<5xi32> is incompatible with the inferred tensor<4xi32>}}
  %0 = graph.cast %a : tensor<4xf32> to tensor<5xi32>
  return
}

// -----

func.func @cast_rank(%a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.cast' op result type tensor<4x1xi32> is incompatible with the inferred tensor<4xi32>}}
  %0 = graph.cast %a : tensor<4xf32> to tensor<4x1xi32>
  return
}

// -----

func.func @unranked_not_supported(%a: tensor<*xf32>) {
  // expected-error@+1 {{'graph.transpose' op not supported: unranked tensor operand}}
  %0 = graph.transpose %a {perm = array<i64: 0>} : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @matmul_rank1(%a: tensor<4xf32>, %b: tensor<4x2xf32>) {
  // expected-error@+1 {{'graph.matmul' op operand #0 must have rank >= 2, but has rank 1 (rank-1 matmul is not supported)}}
  %0 = graph.matmul %a, %b : (tensor<4xf32>, tensor<4x2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @matmul_contracting(%a: tensor<3x4xf32>, %b: tensor<5x2xf32>) {
  // expected-error@+1 {{'graph.matmul' op contracting dimensions do not match: 4 vs 5}}
  %0 = graph.matmul %a, %b : (tensor<3x4xf32>, tensor<5x2xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @matmul_batch(%a: tensor<2x3x4xf32>, %b: tensor<3x4x2xf32>) {
  // expected-error@+1 {{'graph.matmul' op batch dimensions [2] and [3] are not broadcast-compatible}}
  %0 = graph.matmul %a, %b : (tensor<2x3x4xf32>, tensor<3x4x2xf32>) -> tensor<3x3x2xf32>
  return
}

// -----

func.func @matmul_element_types(%a: tensor<3x4xf32>, %b: tensor<4x2xf16>) {
  // expected-error@+1 {{'graph.matmul' op operands must have the same element type, but got f32 and f16}}
  %0 = graph.matmul %a, %b : (tensor<3x4xf32>, tensor<4x2xf16>) -> tensor<3x2xf32>
  return
}

// -----

func.func @matmul_result(%a: tensor<3x4xf32>, %b: tensor<4x2xf32>) {
  // expected-error@+1 {{'graph.matmul' op result type tensor<3x4xf32> is incompatible with the inferred tensor<3x2xf32>}}
  %0 = graph.matmul %a, %b : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @transpose_not_permutation(%a: tensor<4x5xf32>) {
  // expected-error@+1 {{'graph.transpose' op perm [0, 0] is not a permutation of 0..1}}
  %0 = graph.transpose %a {perm = array<i64: 0, 0>} : (tensor<4x5xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @transpose_perm_length(%a: tensor<4x5xf32>) {
  // expected-error@+1 {{'graph.transpose' op 'perm' must have 2 entries (the operand rank), but has 3}}
  %0 = graph.transpose %a {perm = array<i64: 1, 0, 2>} : (tensor<4x5xf32>) -> tensor<5x4xf32>
  return
}

// -----

func.func @transpose_perm_type(%a: tensor<4x5xf32>) {
  // expected-error@+1 {{'graph.transpose' op attribute 'perm' failed to satisfy constraint: i64 dense array attribute}}
  %0 = graph.transpose %a {perm = array<i32: 1, 0>} : (tensor<4x5xf32>) -> tensor<5x4xf32>
  return
}

// -----

func.func @transpose_missing_perm(%a: tensor<4x5xf32>) {
  // expected-error@+1 {{'graph.transpose' op requires attribute 'perm'}}
  %0 = "graph.transpose"(%a) : (tensor<4x5xf32>) -> tensor<5x4xf32>
  return
}

// -----

func.func @transpose_result(%a: tensor<4x5xf32>) {
  // expected-error@+1 {{'graph.transpose' op result type tensor<4x5xf32> is incompatible with the inferred tensor<5x4xf32>}}
  %0 = graph.transpose %a {perm = array<i64: 1, 0>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @reshape_two_minus_one(%a: tensor<4x6xf32>) {
  // expected-error@+1 {{'graph.reshape' op shape [-1, -1] has more than one -1}}
  %0 = graph.reshape %a {shape = array<i64: -1, -1>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @reshape_negative(%a: tensor<4x6xf32>) {
  // expected-error@+1 {{'graph.reshape' op shape [-2, 12] entries must be >= 0 or -1}}
  %0 = graph.reshape %a {shape = array<i64: -2, 12>} : (tensor<4x6xf32>) -> tensor<2x12xf32>
  return
}

// -----

func.func @reshape_count(%a: tensor<4x6xf32>) {
  // expected-error@+1 {{'graph.reshape' op cannot reshape 24 elements into shape [5, 5] (25 elements)}}
  %0 = graph.reshape %a {shape = array<i64: 5, 5>} : (tensor<4x6xf32>) -> tensor<5x5xf32>
  return
}

// -----

func.func @reshape_not_divisible(%a: tensor<4x6xf32>) {
  // expected-error@+1 {{'graph.reshape' op cannot reshape 24 elements into shape [5, -1]}}
  %0 = graph.reshape %a {shape = array<i64: 5, -1>} : (tensor<4x6xf32>) -> tensor<5x5xf32>
  return
}

// -----

func.func @reshape_result(%a: tensor<4x6xf32>) {
  // expected-error@+1 {{'graph.reshape' op result type tensor<3x9xf32> is incompatible with the inferred tensor<3x8xf32>}}
  %0 = graph.reshape %a {shape = array<i64: 3, -1>} : (tensor<4x6xf32>) -> tensor<3x9xf32>
  return
}

// -----

func.func @broadcast_to_rank(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{'graph.broadcast_to' op operand rank 2 exceeds the rank 1 of shape [3]}}
  %0 = graph.broadcast_to %a {shape = array<i64: 3>} : (tensor<2x3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @broadcast_to_dims(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{'graph.broadcast_to' op operand shape [2, 3] cannot be broadcast to [4, 3]}}
  %0 = graph.broadcast_to %a {shape = array<i64: 4, 3>} : (tensor<2x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @broadcast_to_negative(%a: tensor<3xf32>) {
  // expected-error@+1 {{'graph.broadcast_to' op shape [-1, 3] entries must be >= 0}}
  %0 = graph.broadcast_to %a {shape = array<i64: -1, 3>} : (tensor<3xf32>) -> tensor<?x3xf32>
  return
}

// -----

func.func @concat_no_operands() {
  // expected-error@+1 {{'graph.concat' op requires at least one operand}}
  %0 = "graph.concat"() <{axis = 0 : i64}> : () -> tensor<4xf32>
  return
}

// -----

func.func @concat_axis_negative(%a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.concat' op axis -1 is out of range [0, 1)}}
  %0 = graph.concat %a {axis = -1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @concat_axis_range(%a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.concat' op axis 1 is out of range [0, 1)}}
  %0 = graph.concat %a {axis = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @concat_ranks(%a: tensor<4xf32>, %b: tensor<4x1xf32>) {
  // expected-error@+1 {{'graph.concat' op operands must have the same rank, but got 1 and 2}}
  %0 = graph.concat %a, %b {axis = 0 : i64} : (tensor<4xf32>, tensor<4x1xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @concat_dims(%a: tensor<4x2xf32>, %b: tensor<4x3xf32>) {
  // expected-error@+1 {{'graph.concat' op operand #1 has size 3 in dimension 1, expected 2}}
  %0 = graph.concat %a, %b {axis = 0 : i64} : (tensor<4x2xf32>, tensor<4x3xf32>) -> tensor<8x2xf32>
  return
}

// -----

func.func @concat_element_types(%a: tensor<4xf32>, %b: tensor<4xi32>) {
  // expected-error@+1 {{'graph.concat' op operands must have the same element type, but got f32 and i32}}
  %0 = graph.concat %a, %b {axis = 0 : i64} : (tensor<4xf32>, tensor<4xi32>) -> tensor<8xf32>
  return
}

// -----

func.func @concat_axis_type(%a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.concat' op attribute 'axis' failed to satisfy constraint: i64 integer attribute}}
  %0 = graph.concat %a {axis = 0 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @slice_lengths(%a: tensor<4x6xf32>) {
  // expected-error@+1 {{'graph.slice' op 'starts' must have 2 entries (the operand rank), but has 1}}
  %0 = graph.slice %a {starts = array<i64: 0>, limits = array<i64: 4, 6>, strides = array<i64: 1, 1>} : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @slice_stride(%a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.slice' op stride 0 in dimension 0 must be >= 1}}
  %0 = graph.slice %a {starts = array<i64: 0>, limits = array<i64: 4>, strides = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @slice_start_after_limit(%a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.slice' op dimension 0 needs 0 <= start <= limit, but has start 3 and limit 2}}
  %0 = graph.slice %a {starts = array<i64: 3>, limits = array<i64: 2>, strides = array<i64: 1>} : (tensor<4xf32>) -> tensor<0xf32>
  return
}

// -----

func.func @slice_limit_out_of_bounds(%a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.slice' op limit 5 in dimension 0 exceeds its size 4}}
  %0 = graph.slice %a {starts = array<i64: 0>, limits = array<i64: 5>, strides = array<i64: 1>} : (tensor<4xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @slice_result(%a: tensor<8xf32>) {
  // expected-error@+1 {{'graph.slice' op result type tensor<2xf32> is incompatible with the inferred tensor<3xf32>}}
  %0 = graph.slice %a {starts = array<i64: 1>, limits = array<i64: 8>, strides = array<i64: 3>} : (tensor<8xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @reduce_axes_order(%a: tensor<4x5xf32>) {
  // expected-error@+1 {{'graph.reduce_sum' op axes [1, 0] must be strictly increasing}}
  %0 = graph.reduce_sum %a {axes = array<i64: 1, 0>} : (tensor<4x5xf32>) -> tensor<f32>
  return
}

// -----

func.func @reduce_axes_duplicate(%a: tensor<4x5xf32>) {
  // expected-error@+1 {{'graph.reduce_max' op axes [1, 1] must be strictly increasing}}
  %0 = graph.reduce_max %a {axes = array<i64: 1, 1>} : (tensor<4x5xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @reduce_axis_range(%a: tensor<4x5xf32>) {
  // expected-error@+1 {{'graph.reduce_min' op axis 2 is out of range [0, 2)}}
  %0 = graph.reduce_min %a {axes = array<i64: 2>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @reduce_keepdims_type(%a: tensor<4x5xf32>) {
  // expected-error@+1 {{'graph.reduce_sum' op attribute 'keepdims' failed to satisfy constraint: bool attribute}}
  %0 = graph.reduce_sum %a {axes = array<i64: 1>, keepdims = 1 : i64} : (tensor<4x5xf32>) -> tensor<4x1xf32>
  return
}

// -----

func.func @reduce_mean_int(%a: tensor<4x5xi32>) {
  // expected-error@+1 {{'graph.reduce_mean' op requires a floating-point element type, but got i32}}
  %0 = graph.reduce_mean %a {axes = array<i64: 1>} : (tensor<4x5xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @reduce_keepdims_result(%a: tensor<4x5xf32>) {
  // expected-error@+1 {{'graph.reduce_sum' op result type tensor<4xf32> is incompatible with the inferred tensor<4x1xf32>}}
  %0 = graph.reduce_sum %a {axes = array<i64: 1>, keepdims = true} : (tensor<4x5xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @softmax_axis(%a: tensor<4x5xf32>) {
  // expected-error@+1 {{'graph.softmax' op axis 2 is out of range [0, 2)}}
  %0 = graph.softmax %a {axis = 2 : i64} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @softmax_int(%a: tensor<4x5xi32>) {
  // expected-error@+1 {{'graph.softmax' op requires a floating-point element type, but got i32}}
  %0 = graph.softmax %a {axis = 1 : i64} : (tensor<4x5xi32>) -> tensor<4x5xi32>
  return
}

// -----

func.func @conv_input_rank(%x: tensor<3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'graph.conv2d' op input must have rank 4, but has rank 3}}
  %0 = graph.conv2d %x, %w : (tensor<3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_filter_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{'graph.conv2d' op filter must have rank 4, but has rank 3}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error@+1 {{'graph.conv2d' op input channels 3 must equal groups (1) * filter channels (2)}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_groups_divide(%x: tensor<1x4x8x8xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error@+1 {{'graph.conv2d' op groups 2 does not divide the output channels 3}}
  %0 = graph.conv2d %x, %w {groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x6x6xf32>
  return
}

// -----

func.func @conv_groups_positive(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) {
  // expected-error@+1 {{'graph.conv2d' op groups 0 must be >= 1}}
  %0 = graph.conv2d %x, %w {groups = 0 : i64} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_strides_length(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'graph.conv2d' op 'strides' must have 2 entries, but has 1}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_pads_length(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'graph.conv2d' op 'pads' must have 4 entries, but has 2}}
  %0 = graph.conv2d %x, %w {pads = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @conv_dilations_length(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'graph.conv2d' op 'dilations' must have 2 entries, but has 3}}
  %0 = graph.conv2d %x, %w {dilations = array<i64: 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_stride_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'graph.conv2d' op 'strides' entries must be >= 1, but got [0, 1]}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 0, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_pad_negative(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'graph.conv2d' op 'pads' entries must be >= 0, but got [-1, 0, 0, 0]}}
  %0 = graph.conv2d %x, %w {pads = array<i64: -1, 0, 0, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_dilation_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'graph.conv2d' op 'dilations' entries must be >= 1, but got [1, 0]}}
  %0 = graph.conv2d %x, %w {dilations = array<i64: 1, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_output_empty(%x: tensor<1x3x2x2xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'graph.conv2d' op convolution output size 0 is < 1 (input 2, pads 0+0, window 3, stride 1)}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x2x2xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x0x0xf32>
  return
}

// -----

func.func @conv_bias(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<5xf32>) {
  // expected-error@+1 {{'graph.conv2d' op bias size 5 does not match output channels 4}}
  %0 = graph.conv2d %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<5xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_int(%x: tensor<1x3x8x8xi32>, %w: tensor<4x3x3x3xi32>) {
  // expected-error@+1 {{'graph.conv2d' op requires a floating-point element type, but got i32}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xi32>, tensor<4x3x3x3xi32>) -> tensor<1x4x6x6xi32>
  return
}

// -----

func.func @conv_result(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'graph.conv2d' op result type tensor<1x4x6x6xf32> is incompatible with the inferred tensor<1x4x3x3xf32>}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @pool_missing_kernel(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'graph.max_pool2d' op requires attribute 'kernel'}}
  %0 = "graph.max_pool2d"(%x) : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @pool_kernel_length(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'graph.max_pool2d' op 'kernel' must have 2 entries, but has 1}}
  %0 = graph.max_pool2d %x {kernel = array<i64: 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----

func.func @pool_kernel_zero(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'graph.avg_pool2d' op 'kernel' entries must be >= 1, but got [0, 2]}}
  %0 = graph.avg_pool2d %x {kernel = array<i64: 0, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x9x7xf32>
  return
}

// -----

func.func @pool_pad_too_large(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'graph.avg_pool2d' op pad 2 must be smaller than the kernel size 2}}
  %0 = graph.avg_pool2d %x {kernel = array<i64: 2, 2>, pads = array<i64: 0, 2, 0, 0>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x9xf32>
  return
}

// -----

func.func @pool_input_rank(%x: tensor<3x8x8xf32>) {
  // expected-error@+1 {{'graph.max_pool2d' op input must have rank 4, but has rank 3}}
  %0 = graph.max_pool2d %x {kernel = array<i64: 2, 2>} : (tensor<3x8x8xf32>) -> tensor<3x7x7xf32>
  return
}

// -----

func.func @pool_int(%x: tensor<1x3x8x8xi32>) {
  // expected-error@+1 {{'graph.max_pool2d' op requires a floating-point element type, but got i32}}
  %0 = graph.max_pool2d %x {kernel = array<i64: 2, 2>} : (tensor<1x3x8x8xi32>) -> tensor<1x3x7x7xi32>
  return
}

// -----

func.func @pool_output_empty(%x: tensor<1x3x1x1xf32>) {
  // expected-error@+1 {{'graph.max_pool2d' op pooling output size 0 is < 1 (input 1, pads 0+0, window 2, stride 1)}}
  %0 = graph.max_pool2d %x {kernel = array<i64: 2, 2>} : (tensor<1x3x1x1xf32>) -> tensor<1x3x0x0xf32>
  return
}

// -----

func.func @pool_result(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'graph.max_pool2d' op result type tensor<1x3x7x7xf32> is incompatible with the inferred tensor<1x3x4x4xf32>}}
  %0 = graph.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----

func.func @fused_argument_count(%a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.fused' op body has 0 arguments, but the op has 1 inputs}}
  %0 = graph.fused ins(%a : tensor<4xf32>) -> tensor<4xf32> {
    %c = graph.constant dense<1.0> : tensor<4xf32>
    graph.yield %c : tensor<4xf32>
  }
  return
}

// -----

func.func @fused_argument_type(%a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.fused' op body argument #0 has type tensor<?xf32>, but input #0 has type tensor<4xf32>}}
  %0 = graph.fused ins(%a : tensor<4xf32>) -> tensor<?xf32> {
  ^bb0(%x: tensor<?xf32>):
    graph.yield %x : tensor<?xf32>
  }
  return
}

// -----

func.func @fused_no_yield(%a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.fused' op body must end with graph.yield}}
  %0 = "graph.fused"(%a) ({
  ^bb0(%x: tensor<4xf32>):
    "func.return"() : () -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @fused_empty_region(%a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.fused' op requires a body block ending in graph.yield}}
  %0 = "graph.fused"(%a) ({
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @fused_two_blocks(%a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.fused' op expects region #0 to have 0 or 1 blocks}}
  %0 = "graph.fused"(%a) ({
  ^bb0(%x: tensor<4xf32>):
    "graph.yield"(%x) : (tensor<4xf32>) -> ()
  ^bb1:
    "graph.yield"(%x) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @fused_isolated(%a: tensor<4xf32>) {
  // expected-note@+1 {{required by region isolation constraints}}
  %0 = graph.fused -> tensor<4xf32> {
    // expected-error@+1 {{using value defined outside the region}}
    %r = graph.relu %a : tensor<4xf32>
    graph.yield %r : tensor<4xf32>
  }
  return
}

// -----

func.func @yield_count(%a: tensor<4xf32>) {
  %0 = graph.fused ins(%a : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    // expected-error@+1 {{'graph.yield' op has 2 operands, but the enclosing graph.fused has 1 results}}
    graph.yield %x, %x : tensor<4xf32>, tensor<4xf32>
  }
  return
}

// -----

func.func @yield_type(%a: tensor<4xf32>) {
  %0 = graph.fused ins(%a : tensor<4xf32>) -> tensor<?xf32> {
  ^bb0(%x: tensor<4xf32>):
    // expected-error@+1 {{'graph.yield' op operand #0 has type tensor<4xf32>, but the enclosing graph.fused result #0 has type tensor<?xf32>}}
    graph.yield %x : tensor<4xf32>
  }
  return
}

// -----

func.func @yield_parent(%a: tensor<4xf32>) {
  // expected-error@+1 {{'graph.yield' op expects parent op 'graph.fused'}}
  graph.yield %a : tensor<4xf32>
}

// -----

func.func @constant_dynamic_result() {
  // expected-error@+1 {{'graph.constant' op value type tensor<4xf32> does not match the result type tensor<?xf32>}}
  %0 = "graph.constant"() <{value = dense<1.0> : tensor<4xf32>}> : () -> tensor<?xf32>
  return
}

// -----

func.func @matmul_i1(%a: tensor<2x2xi1>) {
  // expected-error@+1 {{'graph.matmul' op not supported on i1}}
  %0 = graph.matmul %a, %a : (tensor<2x2xi1>, tensor<2x2xi1>) -> tensor<2x2xi1>
  return
}

// -----

func.func @reduce_sum_i1(%a: tensor<2x2xi1>) {
  // expected-error@+1 {{'graph.reduce_sum' op not supported on i1}}
  %0 = graph.reduce_sum %a {axes = array<i64: 0>} : (tensor<2x2xi1>) -> tensor<2xi1>
  return
}

// -----

func.func @fused_ins_count(%a: tensor<4xf32>) {
  // expected-error@+1 {{2 operands present, but expected 1}}
  %0 = graph.fused ins(%a, %a : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    graph.yield %x : tensor<4xf32>
  }
  return
}
