// RUN: mlc-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

func.func @empty_dynamic_count(%d: index) {
  // expected-error@+1 {{'tensor.empty' op incorrect number of dynamic sizes, has 1, expected 0}}
  %0 = tensor.empty(%d) : tensor<4xf32>
  return
}

// -----

func.func @dim_out_of_range(%t: tensor<4xf32>) {
  %c = arith.constant 3 : index
  // expected-error@+1 {{'tensor.dim' op index 3 is out of range for a tensor of rank 1}}
  %0 = tensor.dim %t, %c : tensor<4xf32>
  return
}

// -----

func.func @cast_incompatible(%t: tensor<4xf32>) {
  // expected-error@+1 {{'tensor.cast' op operand type 'tensor<4xf32>' and result type 'tensor<5xf32>' are cast incompatible}}
  %0 = tensor.cast %t : tensor<4xf32> to tensor<5xf32>
  return
}

// -----

func.func @cast_element_type(%t: tensor<4xf32>) {
  // expected-error@+1 {{are cast incompatible}}
  %0 = tensor.cast %t : tensor<4xf32> to tensor<?xf64>
  return
}

// -----

func.func @splat_element_type(%c: f32) {
  // expected-error@+1 {{'tensor.splat' op failed to verify that operand type matches element type of result}}
  %0 = "tensor.splat"(%c) : (f32) -> tensor<4xf64>
  return
}

// -----

func.func @splat_dynamic_count(%c: f32) {
  // expected-error@+1 {{'tensor.splat' op incorrect number of dynamic sizes, has 0, expected 1}}
  %0 = tensor.splat %c : tensor<?xf32>
  return
}

// -----

func.func @extract_result_type(%t: tensor<4xf32>, %i: index) {
  // expected-error@+1 {{'tensor.extract' op failed to verify that result type matches element type of tensor}}
  %0 = "tensor.extract"(%t, %i) : (tensor<4xf32>, index) -> f64
  return
}

// -----

func.func @extract_index_count(%t: tensor<4xf32>, %i: index) {
  // expected-error@+1 {{'tensor.extract' op incorrect number of indices for extract_element}}
  %0 = tensor.extract %t[%i, %i] : tensor<4xf32>
  return
}

// -----

func.func @insert_result_type(%c: f32, %t: tensor<4xf32>, %i: index) {
  // expected-error@+1 {{'tensor.insert' op failed to verify that result type matches type of dest}}
  %0 = "tensor.insert"(%c, %t, %i) : (f32, tensor<4xf32>, index) -> tensor<5xf32>
  return
}

// -----

func.func @insert_scalar_type(%c: f64, %t: tensor<4xf32>, %i: index) {
  // expected-error@+1 {{'tensor.insert' op failed to verify that scalar type matches element type of dest}}
  %0 = "tensor.insert"(%c, %t, %i) : (f64, tensor<4xf32>, index) -> tensor<4xf32>
  return
}

// -----

func.func @insert_index_count(%c: f32, %t: tensor<4xf32>) {
  // expected-error@+1 {{'tensor.insert' op incorrect number of indices}}
  %0 = tensor.insert %c into %t[] : tensor<4xf32>
  return
}

// -----

func.func @slice_offsets_vs_sizes(%t: tensor<8x16xf32>) {
  // expected-error@+1 {{expected mixed offsets rank to match mixed sizes rank (1 vs 2) so the rank of the result type is well-formed.}}
  %0 = tensor.extract_slice %t[0] [4, 4] [1, 1] : tensor<8x16xf32> to tensor<4x4xf32>
  return
}

// -----

func.func @slice_sizes_vs_strides(%t: tensor<8x16xf32>) {
  // expected-error@+1 {{expected mixed sizes rank to match mixed strides rank (2 vs 1) so the rank of the result type is well-formed.}}
  %0 = tensor.extract_slice %t[0, 0] [4, 4] [1] : tensor<8x16xf32> to tensor<4x4xf32>
  return
}

// -----

func.func @slice_list_length(%t: tensor<8x16xf32>) {
  // expected-error@+1 {{expected 2 offset values, got 1}}
  %0 = tensor.extract_slice %t[0] [4] [1] : tensor<8x16xf32> to tensor<4xf32>
  return
}

// -----

func.func @slice_dynamic_entries(%t: tensor<8x16xf32>, %i: index) {
  // expected-error@+1 {{expected the number of 'offsets' to match the number of dynamic entries in 'static_offsets' (1 vs 0)}}
  %0 = "tensor.extract_slice"(%t, %i) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, static_offsets = array<i64: 0, 0>, static_sizes = array<i64: 4, 4>, static_strides = array<i64: 1, 1>}> : (tensor<8x16xf32>, index) -> tensor<4x4xf32>
  return
}

// -----

func.func @slice_negative_size(%t: tensor<8x16xf32>) {
  // expected-error@+1 {{expected sizes to be non-negative, but got -2}}
  %0 = tensor.extract_slice %t[0, 0] [4, -2] [1, 1] : tensor<8x16xf32> to tensor<4x?xf32>
  return
}

// -----

func.func @slice_rank_too_large(%t: tensor<8x16xf32>) {
  // expected-error@+1 {{expected rank to be smaller or equal to the other rank.}}
  %0 = tensor.extract_slice %t[0, 0] [4, 4] [1, 1] : tensor<8x16xf32> to tensor<4x4x1xf32>
  return
}

// -----

func.func @slice_size_mismatch(%t: tensor<8x16xf32>) {
  // expected-error@+1 {{expected type to be 'tensor<4x4xf32>' or a rank-reduced version. (size mismatch)}}
  %0 = tensor.extract_slice %t[0, 0] [4, 4] [1, 1] : tensor<8x16xf32> to tensor<4x5xf32>
  return
}

// -----

func.func @slice_reduce_non_unit(%t: tensor<8x16xf32>) {
  // expected-error@+1 {{expected type to be 'tensor<4x4xf32>' or a rank-reduced version. (size mismatch)}}
  %0 = tensor.extract_slice %t[0, 0] [4, 4] [1, 1] : tensor<8x16xf32> to tensor<4xf32>
  return
}

// -----

func.func @slice_element_type(%t: tensor<8x16xf32>) {
  // expected-error@+1 {{expected element type to be 'f32'}}
  %0 = tensor.extract_slice %t[0, 0] [4, 4] [1, 1] : tensor<8x16xf32> to tensor<4x4xf64>
  return
}

// -----

func.func @slice_offset_out_of_bounds(%t: tensor<8x16xf32>) {
  // expected-error@+1 {{offset 0 is out-of-bounds: 9 >= 8}}
  %0 = tensor.extract_slice %t[9, 0] [4, 4] [1, 1] : tensor<8x16xf32> to tensor<4x4xf32>
  return
}

// -----

func.func @slice_runs_out_of_bounds(%t: tensor<8x16xf32>) {
  // expected-error@+1 {{slice along dimension 1 runs out-of-bounds: 18 >= 16}}
  %0 = tensor.extract_slice %t[0, 0] [4, 10] [1, 2] : tensor<8x16xf32> to tensor<4x10xf32>
  return
}

// -----

func.func @insert_slice_result_type(%t: tensor<8x16xf32>, %s: tensor<4x4xf32>) {
  // expected-error@+1 {{'tensor.insert_slice' op failed to verify that expected result type to match dest type}}
  %0 = "tensor.insert_slice"(%s, %t) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>, static_offsets = array<i64: 0, 0>, static_sizes = array<i64: 4, 4>, static_strides = array<i64: 1, 1>}> : (tensor<4x4xf32>, tensor<8x16xf32>) -> tensor<8x15xf32>
  return
}

// -----

func.func @insert_slice_source_type(%t: tensor<8x16xf32>, %s: tensor<4x5xf32>) {
  // expected-error@+1 {{expected type to be 'tensor<4x4xf32>' or a rank-reduced version. (size mismatch)}}
  %0 = tensor.insert_slice %s into %t[0, 0] [4, 4] [1, 1] : tensor<4x5xf32> into tensor<8x16xf32>
  return
}

// -----

func.func @insert_slice_out_of_bounds(%t: tensor<8x16xf32>, %s: tensor<4x4xf32>) {
  // expected-error@+1 {{slice along dimension 0 runs out-of-bounds: 9 >= 8}}
  %0 = tensor.insert_slice %s into %t[6, 0] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<8x16xf32>
  return
}

// -----

func.func @collapse_group_count(%t: tensor<4x8xf32>) {
  // expected-error@+1 {{'tensor.collapse_shape' op expected collapsed rank (1) to equal the number of reassociation maps (2).}}
  %0 = tensor.collapse_shape %t [[0], [1]] : tensor<4x8xf32> into tensor<32xf32>
  return
}

// -----

func.func @collapse_not_contiguous(%t: tensor<4x8xf32>) {
  // expected-error@+1 {{'tensor.collapse_shape' op expected reassociation map #0 to be valid and contiguous.}}
  %0 = tensor.collapse_shape %t [[1, 0]] : tensor<4x8xf32> into tensor<32xf32>
  return
}

// -----

func.func @collapse_not_covering(%t: tensor<4x8x2xf32>) {
  // expected-error@+1 {{'tensor.collapse_shape' op expected reassociation map #0 to have size equal to the expanded rank (3), but it is  2.}}
  %0 = tensor.collapse_shape %t [[0, 1]] : tensor<4x8x2xf32> into tensor<32xf32>
  return
}

// -----

func.func @collapse_higher_rank(%t: tensor<32xf32>) {
  // expected-error@+1 {{to have a higher (or same) rank than the collapsed type}}
  %0 = tensor.collapse_shape %t [[0], [0]] : tensor<32xf32> into tensor<4x8xf32>
  return
}

// -----

func.func @collapse_static_product(%t: tensor<4x8xf32>) {
  // expected-error@+1 {{'tensor.collapse_shape' op expected dimension 0 of collapsed type to be static value of 32}}
  %0 = tensor.collapse_shape %t [[0, 1]] : tensor<4x8xf32> into tensor<30xf32>
  return
}

// -----

func.func @collapse_dynamic(%t: tensor<4x?xf32>) {
  // expected-error@+1 {{'tensor.collapse_shape' op expected dimension 0 of collapsed type to be dynamic since one or more of the corresponding dimensions in the expanded type is dynamic}}
  %0 = tensor.collapse_shape %t [[0, 1]] : tensor<4x?xf32> into tensor<32xf32>
  return
}

// -----

func.func @collapse_element_type(%t: tensor<4x8xf32>) {
  // expected-error@+1 {{'tensor.collapse_shape' op expected collapsed type to be 'tensor<32xf32>', but got 'tensor<32xf64>'}}
  %0 = tensor.collapse_shape %t [[0, 1]] : tensor<4x8xf32> into tensor<32xf64>
  return
}

// -----

func.func @collapse_to_rank0(%t: tensor<1x2xf32>) {
  // expected-error@+1 {{'tensor.collapse_shape' op number of elements must be preserved: 2 != 1}}
  %0 = tensor.collapse_shape %t [] : tensor<1x2xf32> into tensor<f32>
  return
}

// -----

func.func @collapse_bad_reassociation(%t: tensor<4x8xf32>) {
  // expected-error@+1 {{'tensor.collapse_shape' op attribute 'reassociation' failed to satisfy constraint: Array of 64-bit integer array attributes}}
  %0 = "tensor.collapse_shape"(%t) <{reassociation = [0, 1]}> : (tensor<4x8xf32>) -> tensor<32xf32>
  return
}

// -----

func.func @expand_static_count(%t: tensor<32xf32>) {
  // expected-error@+1 {{'tensor.expand_shape' op expected number of static shape dims to be equal to the output rank (2) but found 3 inputs instead}}
  %0 = tensor.expand_shape %t [[0, 1]] output_shape [4, 8, 1] : tensor<32xf32> into tensor<4x8xf32>
  return
}

// -----

func.func @expand_dynamic_count(%t: tensor<32xf32>, %d: index) {
  // expected-error@+1 {{'tensor.expand_shape' op incorrect number of dynamic sizes, has 1, expected 0}}
  %0 = tensor.expand_shape %t [[0, 1]] output_shape [%d, 8] : tensor<32xf32> into tensor<4x8xf32>
  return
}

// -----

func.func @expand_output_shape(%t: tensor<32xf32>) {
  // expected-error@+1 {{'tensor.expand_shape' op invalid output shape provided at pos 1}}
  %0 = tensor.expand_shape %t [[0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x7xf32>
  return
}

// -----

func.func @expand_dynamic_sentinel(%t: tensor<?xf32>, %d: index) {
  // expected-error@+1 {{'tensor.expand_shape' op mismatch in dynamic dims in output_shape and static_output_shape: static_output_shape has 0 dynamic dims while output_shape has 1 values}}
  %0 = "tensor.expand_shape"(%t, %d) <{reassociation = [[0, 1]], static_output_shape = array<i64: -1, 4>}> : (tensor<?xf32>, index) -> tensor<?x4xf32>
  return
}

// -----

func.func @expand_product(%t: tensor<32xf32>) {
  // expected-error@+1 {{'tensor.expand_shape' op expected dimension 0 of collapsed type to be static value of 16}}
  %0 = tensor.expand_shape %t [[0, 1]] output_shape [4, 4] : tensor<32xf32> into tensor<4x4xf32>
  return
}

// -----

func.func @expand_element_type(%t: tensor<32xf32>) {
  // expected-error@+1 {{'tensor.expand_shape' op expected collapsed type to be 'tensor<32xi32>', but got 'tensor<32xf32>'}}
  %0 = tensor.expand_shape %t [[0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xi32>
  return
}

// -----

func.func @pad_result_shape(%t: tensor<4x4xf32>, %c: f32) {
  // expected-error@+1 {{specified type 'tensor<5x5xf32>' does not match the inferred type 'tensor<5x6xf32>'}}
  %0 = tensor.pad %t low[1, 2] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<4x4xf32> to tensor<5x5xf32>
  return
}

// -----

func.func @pad_result_rank(%t: tensor<4x4xf32>, %c: f32) {
  // expected-error@+1 {{specified type 'tensor<5x5x1xf32>' does not match the inferred type 'tensor<5x5xf32>'}}
  %0 = tensor.pad %t low[1, 1] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<4x4xf32> to tensor<5x5x1xf32>
  return
}

// -----

func.func @pad_negative_size(%t: tensor<4xf32>, %c: f32) {
  // expected-error@+1 {{specified type 'tensor<?xf32>' does not match the inferred type 'tensor<-1xf32>'}}
  %0 = tensor.pad %t low[-5] high[0] {
  ^bb0(%i: index):
    tensor.yield %c : f32
  } : tensor<4xf32> to tensor<?xf32>
  return
}

// -----

func.func @pad_list_length(%t: tensor<4x4xf32>, %c: f32) {
  // expected-error@+1 {{failed to infer expectedType from sourceType 'tensor<4x4xf32>', specified resultType is 'tensor<5x6xf32>'}}
  %0 = tensor.pad %t low[1] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<4x4xf32> to tensor<5x6xf32>
  return
}

// -----

func.func @pad_dynamic_entries(%t: tensor<4x4xf32>, %c: f32, %h: index) {
  // expected-error@+1 {{'tensor.pad' op expected the number of 'high' operands to match the number of dynamic entries in 'static_high' (1 vs 0)}}
  %0 = "tensor.pad"(%t, %h) <{operandSegmentSizes = array<i32: 1, 0, 1>, static_low = array<i64: 0, 0>, static_high = array<i64: 1, 1>}> ({
  ^bb0(%i: index, %j: index):
    "tensor.yield"(%c) : (f32) -> ()
  }) : (tensor<4x4xf32>, index) -> tensor<5x5xf32>
  return
}

// -----

func.func @pad_block_arg_count(%t: tensor<4x4xf32>, %c: f32) {
  // expected-error@+1 {{expected the block to have 2 arguments}}
  %0 = tensor.pad %t low[1, 2] high[0, 0] {
  ^bb0(%i: index):
    tensor.yield %c : f32
  } : tensor<4x4xf32> to tensor<5x6xf32>
  return
}

// -----

func.func @pad_block_arg_type(%t: tensor<4x4xf32>, %c: f32) {
  // expected-error@+1 {{'tensor.pad' op expected block argument 2 to be an index}}
  %0 = tensor.pad %t low[1, 2] high[0, 0] {
  ^bb0(%i: index, %j: i32):
    tensor.yield %c : f32
  } : tensor<4x4xf32> to tensor<5x6xf32>
  return
}

// -----

func.func @pad_yield_type(%t: tensor<4x4xf32>, %c: f64) {
  // expected-error@+1 {{'tensor.pad' op expected yield type to match shape element type}}
  %0 = tensor.pad %t low[1, 2] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f64
  } : tensor<4x4xf32> to tensor<5x6xf32>
  return
}

// -----

func.func @pad_no_block(%t: tensor<4xf32>) {
  // expected-error@+1 {{'tensor.pad' op region #0 ('region') failed to verify constraint: region with 1 blocks}}
  %0 = "tensor.pad"(%t) <{operandSegmentSizes = array<i32: 1, 0, 0>, static_low = array<i64: 0>, static_high = array<i64: 0>}> ({
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @pad_terminator(%t: tensor<4xf32>) {
  // expected-error@+1 {{'tensor.pad' op expects regions to end with 'tensor.yield', found 'test.term'}}
  %0 = "tensor.pad"(%t) <{operandSegmentSizes = array<i32: 1, 0, 0>, static_low = array<i64: 0>, static_high = array<i64: 0>}> ({
  ^bb0(%i: index):
    "test.term"() : () -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @yield_parent(%c: f32) {
  "test.region"() ({
    // expected-error@+1 {{'tensor.yield' op expects parent op to be one of 'tensor.generic', 'tensor.pad'}}
    tensor.yield %c : f32
  }) : () -> ()
  return
}

// -----

#id = affine_map<(d0) -> (d0)>

func.func @generic_map_count(%a: tensor<4xf32>, %o: tensor<4xf32>) {
  // expected-error@+1 {{'tensor.generic' op expected the number of indexing_map (1) to be equal to the number of input/output operands (2)}}
  %0 = tensor.generic {indexing_maps = [#id], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    tensor.yield %in : f32
  } -> tensor<4xf32>
  return
}

// -----

#id = affine_map<(d0) -> (d0)>

func.func @generic_iterator_type(%o: tensor<4xf32>, %v: f32) {
  // expected-error@+1 {{'tensor.generic' op unexpected iterator_type "window" (expected 'parallel' or 'reduction')}}
  %0 = tensor.generic {indexing_maps = [#id], iterator_types = ["window"]} outs(%o : tensor<4xf32>) {
  ^bb0(%out: f32):
    tensor.yield %v : f32
  } -> tensor<4xf32>
  return
}

// -----

func.func @generic_symbols(%o: tensor<4xf32>, %v: f32) {
  // expected-error@+1 {{'tensor.generic' op unexpected symbols in indexing_map #0}}
  %0 = tensor.generic {indexing_maps = [affine_map<(d0)[s0] -> (d0)>], iterator_types = ["parallel"]} outs(%o : tensor<4xf32>) {
  ^bb0(%out: f32):
    tensor.yield %v : f32
  } -> tensor<4xf32>
  return
}

// -----

func.func @generic_map_dims(%o: tensor<4xf32>, %v: f32) {
  // expected-error@+1 {{'tensor.generic' op expected indexing_map #0 to have 1 dim(s) to match the number of loops}}
  %0 = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel"]} outs(%o : tensor<4xf32>) {
  ^bb0(%out: f32):
    tensor.yield %v : f32
  } -> tensor<4xf32>
  return
}

// -----

func.func @generic_map_rank(%o: tensor<4x4xf32>, %v: f32) {
  // expected-error@+1 {{'tensor.generic' op expected operand #0 rank (2) to match the result rank of indexing_map (1)}}
  %0 = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "parallel"]} outs(%o : tensor<4x4xf32>) {
  ^bb0(%out: f32):
    tensor.yield %v : f32
  } -> tensor<4x4xf32>
  return
}

// -----

func.func @generic_output_not_permutation(%a: tensor<8xf32>, %o: tensor<4xf32>) {
  // expected-error@+1 {{'tensor.generic' op expected indexing_map #1 (output) to be a projected permutation}}
  %0 = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0 * 2)>, affine_map<(d0) -> (d0 + 1)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    tensor.yield %in : f32
  } -> tensor<4xf32>
  return
}

// -----

func.func @generic_output_uses_reduction(%a: tensor<4x8xf32>, %o: tensor<8xf32>) {
  // expected-error@+1 {{'tensor.generic' op expected indexing_map #1 (output) not to use reduction loop d1}}
  %0 = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4x8xf32>) outs(%o : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    tensor.yield %in : f32
  } -> tensor<8xf32>
  return
}

// -----

#id = affine_map<(d0) -> (d0)>

func.func @generic_result_count(%o: tensor<4xf32>, %v: f32) {
  // expected-error@+1 {{'tensor.generic' op expected the number of tensor results (0) to be equal to the number of output tensors (1)}}
  tensor.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%o : tensor<4xf32>) {
  ^bb0(%out: f32):
    tensor.yield %v : f32
  }
  return
}

// -----

#id = affine_map<(d0) -> (d0)>

func.func @generic_result_type(%o: tensor<4xf32>, %v: f32) {
  // expected-error@+1 {{'tensor.generic' op expected type of operand #0 ('tensor<4xf32>') to match type of corresponding result ('tensor<?xf32>')}}
  %0 = tensor.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%o : tensor<4xf32>) {
  ^bb0(%out: f32):
    tensor.yield %v : f32
  } -> tensor<?xf32>
  return
}

// -----

#id = affine_map<(d0) -> (d0)>

func.func @generic_block_arg_count(%a: tensor<4xf32>, %o: tensor<4xf32>) {
  // expected-error@+1 {{'tensor.generic' op expected as many non-induction variable region arguments as the number of input/output operands (1 vs 2)}}
  %0 = tensor.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%in: f32):
    tensor.yield %in : f32
  } -> tensor<4xf32>
  return
}

// -----

#id = affine_map<(d0) -> (d0)>

func.func @generic_block_arg_type(%a: tensor<4xf32>, %o: tensor<4xf32>) {
  // expected-error@+1 {{'tensor.generic' op expected type of bb argument #0 ('f64') to match element type of the corresponding operand ('f32')}}
  %0 = tensor.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%in: f64, %out: f32):
    tensor.yield %out : f32
  } -> tensor<4xf32>
  return
}

// -----

#id = affine_map<(d0) -> (d0)>

func.func @generic_yield_count(%a: tensor<4xf32>, %o: tensor<4xf32>) {
  %0 = tensor.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    // expected-error@+1 {{'tensor.yield' op expected number of yield values (2) to match the number of outputs of the enclosing 'tensor.generic' (1)}}
    tensor.yield %in, %out : f32, f32
  } -> tensor<4xf32>
  return
}

// -----

#id = affine_map<(d0) -> (d0)>

func.func @generic_yield_type(%a: tensor<4xf32>, %o: tensor<4xf32>, %x: i32) {
  %0 = tensor.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    // expected-error@+1 {{'tensor.yield' op type of yield operand #0 ('i32') does not match the element type of output #0 ('f32')}}
    tensor.yield %x : i32
  } -> tensor<4xf32>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>

func.func @generic_inconsistent_sizes(%a: tensor<4x8xf32>, %o: tensor<4x8xf32>) {
  // expected-error@+1 {{'tensor.generic' op loop d0 has inconsistent sizes: 4 from operand #0 dim 0 and 8 from operand #1 dim 1}}
  %0 = tensor.generic {indexing_maps = [#id, #t], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%o : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    tensor.yield %in : f32
  } -> tensor<4x8xf32>
  return
}

// -----

func.func @generic_undefined_loop(%a: tensor<4xf32>, %o: tensor<4xf32>) {
  // expected-error@+1 {{'tensor.generic' op loop d1 has no operand dimension that defines its size}}
  %0 = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    tensor.yield %in : f32
  } -> tensor<4xf32>
  return
}

// -----

func.func @generic_window_out_of_bounds(%a: tensor<4xf32>, %k: tensor<3xf32>, %o: tensor<3xf32>) {
  // expected-error@+1 {{'tensor.generic' op inferred input/output operand #0 has shape's dimension #0 to be greater than or equal to 5, but found 4}}
  %0 = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a, %k : tensor<4xf32>, tensor<3xf32>) outs(%o : tensor<3xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    tensor.yield %in : f32
  } -> tensor<3xf32>
  return
}

// -----

func.func @generic_no_block(%o: tensor<4xf32>) {
  // expected-error@+1 {{'tensor.generic' op region #0 ('region') failed to verify constraint: region with 1 blocks}}
  %0 = "tensor.generic"(%o) <{indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 0, 1>}> ({
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}
