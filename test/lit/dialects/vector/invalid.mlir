// RUN: mlc-opt %s -split-input-file -verify-diagnostics

func.func @broadcast_rank(%v: vector<4x8xf32>) {
  // expected-error@+1 {{'vector.broadcast' op source rank higher than destination rank}}
  %0 = vector.broadcast %v : vector<4x8xf32> to vector<8xf32>
  return
}

// -----

func.func @broadcast_dims(%v: vector<4x8xf32>) {
  // expected-error@+1 {{'vector.broadcast' op dimension mismatch (4 vs. 3)}}
  %0 = vector.broadcast %v : vector<4x8xf32> to vector<2x3x8xf32>
  return
}

// -----

func.func @broadcast_element_type(%x: f64) {
  // expected-error@+1 {{'vector.broadcast' op failed to verify that source operand and result have same element type}}
  %0 = vector.broadcast %x : f64 to vector<4xf32>
  return
}

// -----

func.func @broadcast_scalable(%x: f32) {
  // expected-error@+1 {{'vector.broadcast' op not supported: scalable vectors}}
  %0 = vector.broadcast %x : f32 to vector<[4]xf32>
  return
}

// -----

func.func @splat_type(%x: f64) {
  // expected-error@+1 {{'vector.splat' op failed to verify that operand type matches element type of result}}
  %0 = "vector.splat"(%x) : (f64) -> vector<4xf32>
  return
}

// -----

func.func @fma_types(%v: vector<8xf32>, %w: vector<4xf32>) {
  // expected-error@+1 {{'vector.fma' op failed to verify that all of {lhs, rhs, acc, result} have same type}}
  %0 = "vector.fma"(%v, %w, %v) : (vector<8xf32>, vector<4xf32>, vector<8xf32>) -> vector<8xf32>
  return
}

// -----

func.func @fma_integer(%v: vector<8xi32>) {
  // expected-error@+1 {{'vector.fma' op operand #0 must be vector of floating-point values, but got 'vector<8xi32>'}}
  %0 = vector.fma %v, %v, %v : vector<8xi32>
  return
}

// -----

func.func @reduction_float_kind_on_int(%v: vector<8xi32>) {
  // expected-error@+1 {{'vector.reduction' op unsupported reduction type ''i32'' for kind 'maxnumf'}}
  %0 = vector.reduction <maxnumf>, %v : vector<8xi32> into i32
  return
}

// -----

func.func @reduction_int_kind_on_float(%v: vector<8xf32>) {
  // expected-error@+1 {{'vector.reduction' op unsupported reduction type ''f32'' for kind 'maxsi'}}
  %0 = vector.reduction <maxsi>, %v : vector<8xf32> into f32
  return
}

// -----

func.func @reduction_result_type(%v: vector<8xf32>) {
  // expected-error@+1 {{'vector.reduction' op failed to verify that source operand and result have same element type}}
  %0 = vector.reduction <add>, %v : vector<8xf32> into f64
  return
}

// -----

func.func @reduction_rank(%v: vector<4x8xf32>) {
  // expected-error@+1 {{'vector.reduction' op unsupported reduction rank: 2}}
  %0 = vector.reduction <add>, %v : vector<4x8xf32> into f32
  return
}

// -----

func.func @reduction_acc_type(%v: vector<8xf32>, %a: f64) {
  // expected-error@+1 {{'vector.reduction' op failed to verify that dest and acc have the same type}}
  %0 = "vector.reduction"(%v, %a) <{kind = #vector.kind<add>}> : (vector<8xf32>, f64) -> f32
  return
}

// -----

func.func @reduction_unknown_kind(%v: vector<8xf32>) {
  // expected-error@+1 {{expected ::mlir::vector::CombiningKind to be one of: add, mul, minui, minsi, minnumf, maxui, maxsi, maxnumf, and, or, xor, minimumf, maximumf}}
  %0 = vector.reduction <sum>, %v : vector<8xf32> into f32
  return
}

// -----

func.func @extract_position_out_of_bounds(%v: vector<4x8xf32>) {
  // expected-error@+1 {{'vector.extract' op expected position attribute #1 to be a non-negative integer smaller than the corresponding vector dimension or poison (-1)}}
  %0 = vector.extract %v[4] : vector<8xf32> from vector<4x8xf32>
  return
}

// -----

func.func @extract_dynamic_position_out_of_bounds(%v: vector<4x8xf32>) {
  %c8 = arith.constant 8 : index
  // expected-error@+1 {{'vector.extract' op expected position attribute #2 to be a non-negative integer smaller than the corresponding vector dimension or poison (-1)}}
  %0 = vector.extract %v[0, %c8] : f32 from vector<4x8xf32>
  return
}

// -----

func.func @extract_position_rank(%v: vector<4x8xf32>) {
  // expected-error@+1 {{'vector.extract' op expected position attribute of rank no greater than vector rank}}
  %0 = vector.extract %v[1, 2, 3] : f32 from vector<4x8xf32>
  return
}

// -----

func.func @extract_result_type(%v: vector<4x8xf32>) {
  // expected-error@+1 {{'vector.extract' op inferred type(s) 'vector<8xf32>' are incompatible with return type(s) of operation 'f32'}}
  %0 = vector.extract %v[1] : f32 from vector<4x8xf32>
  return
}

// -----

func.func @extract_dynamic_count(%v: vector<4x8xf32>) {
  // expected-error@+1 {{'vector.extract' op mismatch between dynamic and static positions (kDynamic marker but no corresponding dynamic position) -- this can only happen due to an incorrect fold/rewrite}}
  %0 = "vector.extract"(%v) <{static_position = array<i64: -9223372036854775808>}> : (vector<4x8xf32>) -> vector<8xf32>
  return
}

// -----

func.func @insert_position_out_of_bounds(%v: vector<4x8xf32>, %x: f32) {
  // expected-error@+1 {{'vector.insert' op expected position attribute #2 to be a non-negative integer smaller than the corresponding dest vector dimension}}
  %0 = vector.insert %x, %v[1, 8] : f32 into vector<4x8xf32>
  return
}

// -----

func.func @insert_scalar_rank(%v: vector<4x8xf32>, %x: f32) {
  // expected-error@+1 {{'vector.insert' op expected position attribute rank to match the dest vector rank}}
  %0 = vector.insert %x, %v[1] : f32 into vector<4x8xf32>
  return
}

// -----

func.func @insert_vector_rank(%v: vector<4x8xf32>, %x: vector<8xf32>) {
  // expected-error@+1 {{'vector.insert' op expected position attribute rank + source rank to match dest vector rank}}
  %0 = vector.insert %x, %v[1, 1] : vector<8xf32> into vector<4x8xf32>
  return
}

// -----

func.func @insert_vector_shape(%v: vector<4x8xf32>, %x: vector<4xf32>) {
  // expected-error@+1 {{'vector.insert' op expected source type 'vector<4xf32>' to match the trailing dims of 'vector<4x8xf32>'}}
  %0 = vector.insert %x, %v[1] : vector<4xf32> into vector<4x8xf32>
  return
}

// -----

func.func @insert_scalar_type(%v: vector<4x8xf32>, %x: f64) {
  // expected-error@+1 {{'vector.insert' op expected source type 'f64' to be the element type of 'vector<4x8xf32>'}}
  %0 = vector.insert %x, %v[1, 1] : f64 into vector<4x8xf32>
  return
}

// -----

func.func @insert_result_type(%v: vector<4x8xf32>, %x: f32) {
  // expected-error@+1 {{'vector.insert' op failed to verify that all of {dest, result} have same type}}
  %0 = "vector.insert"(%x, %v) <{static_position = array<i64: 1, 1>}> : (f32, vector<4x8xf32>) -> vector<4x8xf64>
  return
}

// -----

func.func @load_index_count(%m: memref<?x?xf32>, %i: index) {
  // expected-error@+1 {{'vector.load' op requires 2 indices}}
  %0 = vector.load %m[%i] : memref<?x?xf32>, vector<8xf32>
  return
}

// -----

func.func @load_element_type(%m: memref<?x?xf32>, %i: index) {
  // expected-error@+1 {{'vector.load' op base and result element types should match}}
  %0 = vector.load %m[%i, %i] : memref<?x?xf32>, vector<8xi32>
  return
}

// -----

func.func @load_vector_element_type(%m: memref<?xvector<4xf32>>, %i: index) {
  // expected-error@+1 {{'vector.load' op base memref and result vector types should match}}
  %0 = vector.load %m[%i] : memref<?xvector<4xf32>>, vector<8xf32>
  return
}

// -----

func.func @load_alignment(%m: memref<?xf32>, %i: index) {
  // expected-error@+1 {{'vector.load' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
  %0 = vector.load %m[%i] alignment = 3 : memref<?xf32>, vector<8xf32>
  return
}

// -----

func.func @store_index_count(%m: memref<?x?xf32>, %i: index, %v: vector<8xf32>) {
  // expected-error@+1 {{'vector.store' op requires 2 indices}}
  vector.store %v, %m[%i] : memref<?x?xf32>, vector<8xf32>
  return
}

// -----

func.func @store_element_type(%m: memref<?x?xf32>, %i: index, %v: vector<8xi32>) {
  // expected-error@+1 {{'vector.store' op base and valueToStore element type should match}}
  vector.store %v, %m[%i, %i] : memref<?x?xf32>, vector<8xi32>
  return
}

// -----

func.func @transfer_read_index_count(%m: memref<?x?xf32>, %i: index, %x: f32) {
  // expected-error@+1 {{'vector.transfer_read' op requires 2 indices}}
  %0 = vector.transfer_read %m[%i], %x : memref<?x?xf32>, vector<8xf32>
  return
}

// -----

func.func @transfer_read_map_results(%m: memref<?x?xf32>, %i: index, %x: f32) {
  // expected-error@+1 {{'vector.transfer_read' op requires a permutation_map with result dims of the same rank as the vector type}}
  %0 = vector.transfer_read %m[%i, %i], %x {permutation_map = affine_map<(d0, d1) -> (d0, d1)>} : memref<?x?xf32>, vector<8xf32>
  return
}

// -----

func.func @transfer_read_map_inputs(%m: memref<?x?xf32>, %i: index, %x: f32) {
  // expected-error@+1 {{'vector.transfer_read' op requires a permutation_map with input dims of the same rank as the source type}}
  %0 = vector.transfer_read %m[%i, %i], %x {permutation_map = affine_map<(d0) -> (d0)>} : memref<?x?xf32>, vector<8xf32>
  return
}

// -----

func.func @transfer_read_map_symbols(%m: memref<?x?xf32>, %i: index, %x: f32) {
  // expected-error@+1 {{'vector.transfer_read' op requires permutation_map without symbols}}
  %0 = vector.transfer_read %m[%i, %i], %x {permutation_map = affine_map<(d0, d1)[s0] -> (d1)>} : memref<?x?xf32>, vector<8xf32>
  return
}

// -----

func.func @transfer_read_not_projected(%m: memref<?x?xf32>, %i: index, %x: f32) {
  // expected-error@+1 {{'vector.transfer_read' op requires a projected permutation_map (at most one dim or the zero constant can appear in each result)}}
  %0 = vector.transfer_read %m[%i, %i], %x {permutation_map = affine_map<(d0, d1) -> (d0 + d1)>} : memref<?x?xf32>, vector<8xf32>
  return
}

// -----

func.func @transfer_read_repeated_dim(%m: memref<?x?xf32>, %i: index, %x: f32) {
  // expected-error@+1 {{'vector.transfer_read' op requires a permutation_map that is a permutation (found one dim used more than once)}}
  %0 = vector.transfer_read %m[%i, %i], %x {permutation_map = affine_map<(d0, d1) -> (d0, d0)>} : memref<?x?xf32>, vector<8x8xf32>
  return
}

// -----

func.func @transfer_read_in_bounds_size(%m: memref<?x?xf32>, %i: index, %x: f32) {
  // expected-error@+1 {{'vector.transfer_read' op expects the in_bounds attr of same rank as permutation_map results: affine_map<(d0, d1) -> (d1)> vs inBounds of size: 2}}
  %0 = vector.transfer_read %m[%i, %i], %x {in_bounds = [true, true]} : memref<?x?xf32>, vector<8xf32>
  return
}

// -----

func.func @transfer_read_padding(%m: memref<?xf32>, %i: index, %x: i32) {
  // expected-error@+1 {{'vector.transfer_read' op requires formal padding and source of the same elemental type}}
  %0 = "vector.transfer_read"(%m, %i, %x) <{in_bounds = [false], operandSegmentSizes = array<i32: 1, 1, 1, 0>, permutation_map = affine_map<(d0) -> (d0)>}> : (memref<?xf32>, index, i32) -> vector<8xi32>
  return
}

// -----

func.func @transfer_read_mask_type(%m: memref<?x?xf32>, %i: index, %x: f32, %mk: vector<4xi1>) {
  // expected-error@+1 {{'vector.transfer_read' op inferred mask type ('vector<8xi1>') and mask operand type ('vector<4xi1>') don't match}}
  %0 = "vector.transfer_read"(%m, %i, %i, %x, %mk) <{in_bounds = [false], operandSegmentSizes = array<i32: 1, 2, 1, 1>, permutation_map = affine_map<(d0, d1) -> (d1)>}> : (memref<?x?xf32>, index, index, f32, vector<4xi1>) -> vector<8xf32>
  return
}

// -----

func.func @transfer_write_index_count(%m: memref<?x?xf32>, %i: index, %v: vector<8xf32>) {
  // expected-error@+1 {{'vector.transfer_write' op requires 2 indices}}
  vector.transfer_write %v, %m[%i] : vector<8xf32>, memref<?x?xf32>
  return
}

// -----

func.func @transfer_write_tensor_result(%t: tensor<?xf32>, %i: index, %v: vector<8xf32>) {
  // expected-error@+1 {{'vector.transfer_write' op expects a result of the tensor type of the base}}
  "vector.transfer_write"(%v, %t, %i) <{in_bounds = [false], operandSegmentSizes = array<i32: 1, 1, 1, 0>, permutation_map = affine_map<(d0) -> (d0)>}> : (vector<8xf32>, tensor<?xf32>, index) -> ()
  return
}

// -----

func.func @transfer_write_memref_result(%m: memref<?xf32>, %i: index, %v: vector<8xf32>) {
  // expected-error@+1 {{'vector.transfer_write' op expects no result when the base is a memref}}
  %0 = "vector.transfer_write"(%v, %m, %i) <{in_bounds = [false], operandSegmentSizes = array<i32: 1, 1, 1, 0>, permutation_map = affine_map<(d0) -> (d0)>}> : (vector<8xf32>, memref<?xf32>, index) -> tensor<?xf32>
  return
}

// -----

func.func @shuffle_index(%a: vector<4xf32>, %b: vector<2xf32>) {
  // expected-error@+1 {{'vector.shuffle' op mask index #2 out of range}}
  %0 = vector.shuffle %a, %b [0, 6] : vector<4xf32>, vector<2xf32>
  return
}

// -----

func.func @shuffle_negative(%a: vector<4xf32>) {
  // expected-error@+1 {{'vector.shuffle' op mask index #1 out of range}}
  %0 = vector.shuffle %a, %a [-2] : vector<4xf32>, vector<4xf32>
  return
}

// -----

func.func @shuffle_length(%a: vector<4xf32>, %b: vector<2xf32>) {
  // expected-error@+1 {{'vector.shuffle' op mask length mismatch}}
  %0 = "vector.shuffle"(%a, %b) <{mask = array<i64: 0>}> : (vector<4xf32>, vector<2xf32>) -> vector<2xf32>
  return
}

// -----

func.func @shuffle_empty(%a: vector<4xf32>) {
  // expected-error@+1 {{'vector.shuffle' op invalid mask length}}
  %0 = "vector.shuffle"(%a, %a) <{mask = array<i64>}> : (vector<4xf32>, vector<4xf32>) -> vector<1xf32>
  return
}

// -----

func.func @shuffle_element_type(%a: vector<4xf32>, %e: vector<2xi32>) {
  // expected-error@+1 {{'vector.shuffle' op failed to verify that second operand v2 and result have same element type}}
  %0 = "vector.shuffle"(%a, %e) <{mask = array<i64: 0>}> : (vector<4xf32>, vector<2xi32>) -> vector<1xf32>
  return
}

// -----

func.func @shuffle_trailing_dims(%d: vector<2x3xi8>) {
  // expected-error@+1 {{'vector.shuffle' op dimension mismatch}}
  %0 = "vector.shuffle"(%d, %d) <{mask = array<i64: 0>}> : (vector<2x3xi8>, vector<2x3xi8>) -> vector<1x2xi8>
  return
}

// -----

func.func @shuffle_rank(%a: vector<4xf32>, %d: vector<2x4xf32>) {
  // expected-error@+1 {{'vector.shuffle' op rank mismatch}}
  %0 = "vector.shuffle"(%a, %d) <{mask = array<i64: 0>}> : (vector<4xf32>, vector<2x4xf32>) -> vector<1xf32>
  return
}
