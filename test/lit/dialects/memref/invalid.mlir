// RUN: mlc-opt %s -split-input-file -verify-diagnostics

func.func @alloc_missing_dynamic_size() {
  // expected-error@+1 {{'memref.alloc' op incorrect number of dynamic sizes, has 0, expected 1}}
  %0 = memref.alloc() : memref<?xf32>
  return
}

// -----

func.func @alloca_extra_dynamic_size(%n: index) {
  // expected-error@+1 {{'memref.alloca' op incorrect number of dynamic sizes, has 1, expected 0}}
  %0 = memref.alloca(%n) : memref<4xf32>
  return
}

// -----

func.func @alloc_symbol_count(%n: index) {
  // expected-error@+1 {{symbol operand count does not equal memref symbol count: expected 0, got 1}}
  %0 = memref.alloc()[%n] : memref<4xf32>
  return
}

// -----

func.func @alloc_alignment_not_pow2() {
  // expected-error@+1 {{attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
  %0 = memref.alloc() alignment = 3 : memref<4xf32>
  return
}

// -----

func.func @alloc_unranked() {
  // expected-error@+1 {{expected a ranked memref type, but got 'memref<*xf32>'}}
  %0 = memref.alloc() : memref<*xf32>
  return
}

// -----

func.func @load_index_count(%m: memref<4x4xf32>, %i: index) {
  // expected-error@+1 {{'memref.load' op invalid number of indices for accessed memref, expected 2 but got 1}}
  %0 = memref.load %m[%i] : memref<4x4xf32>
  return
}

// -----

func.func @load_result_type(%m: memref<4xf32>, %i: index) {
  // expected-error@+1 {{'memref.load' op failed to verify that result type matches element type of 'memref'}}
  %0 = "memref.load"(%m, %i) : (memref<4xf32>, index) -> f64
  return
}

// -----

func.func @load_alignment(%m: memref<4xf32>, %i: index) {
  // expected-error@+1 {{'memref.load' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
  %0 = memref.load %m[%i] alignment(6) : memref<4xf32>
  return
}

// -----

func.func @load_nontemporal_not_bool(%m: memref<4xf32>, %i: index) {
  // expected-error@+1 {{'memref.load' op attribute 'nontemporal' failed to satisfy constraint: bool attribute}}
  %0 = "memref.load"(%m, %i) <{nontemporal = 1 : i32}> : (memref<4xf32>, index) -> f32
  return
}

// -----

func.func @store_index_count(%m: memref<4x4xf32>, %i: index, %v: f32) {
  // expected-error@+1 {{'memref.store' op invalid number of indices for accessed memref, expected 2 but got 1}}
  memref.store %v, %m[%i] : memref<4x4xf32>
  return
}

// -----

func.func @store_value_type(%m: memref<4xf32>, %i: index, %v: f64) {
  // expected-error@+1 {{'memref.store' op failed to verify that type of 'value' matches element type of 'memref'}}
  "memref.store"(%v, %m, %i) : (f64, memref<4xf32>, index) -> ()
  return
}

// -----

func.func @dim_of_0d(%m: memref<f32>, %i: index) {
  // expected-error@+1 {{'memref.dim' op operand #0 must be unranked.memref of any non-token type values or non-0-ranked.memref of any non-token type values}}
  %0 = memref.dim %m, %i : memref<f32>
  return
}

// -----

func.func @dim_out_of_range(%m: memref<4x4xf32>) {
  %c = arith.constant 2 : index
  // expected-error@+1 {{'memref.dim' op index is out of range}}
  %0 = memref.dim %m, %c : memref<4x4xf32>
  return
}

// -----

func.func @cast_static_mismatch(%m: memref<4xf32>) {
  // expected-error@+1 {{'memref.cast' op operand type 'memref<4xf32>' and result type 'memref<5xf32>' are cast incompatible}}
  %0 = memref.cast %m : memref<4xf32> to memref<5xf32>
  return
}

// -----

func.func @cast_element_type(%m: memref<*xf32>) {
  // expected-error@+1 {{are cast incompatible}}
  %0 = memref.cast %m : memref<*xf32> to memref<4xi32>
  return
}

// -----

func.func @cast_rank(%m: memref<4xf32>) {
  // expected-error@+1 {{are cast incompatible}}
  %0 = memref.cast %m : memref<4xf32> to memref<4x1xf32>
  return
}

// -----

func.func @cast_layout(%m: memref<4xf32>) {
  // expected-error@+1 {{'memref<4xf32>' and result type 'memref<4xf32, strided<[2]>>' are cast incompatible}}
  %0 = memref.cast %m : memref<4xf32> to memref<4xf32, strided<[2]>>
  return
}

// -----

func.func @cast_memory_space(%m: memref<4xf32>) {
  // expected-error@+1 {{are cast incompatible}}
  %0 = memref.cast %m : memref<4xf32> to memref<4xf32, 1>
  return
}

// -----

func.func @copy_shape(%a: memref<4xf32>, %b: memref<5xf32>) {
  // expected-error@+1 {{'memref.copy' op requires the same shape for all operands}}
  memref.copy %a, %b : memref<4xf32> to memref<5xf32>
  return
}

// -----

func.func @copy_element_type(%a: memref<4xf32>, %b: memref<4xi32>) {
  // expected-error@+1 {{'memref.copy' op requires the same element type for all operands}}
  memref.copy %a, %b : memref<4xf32> to memref<4xi32>
  return
}

// -----

func.func @get_global_undefined() {
  // expected-error@+1 {{'memref.get_global' op 'nope' does not reference a valid global memref}}
  %0 = memref.get_global @nope : memref<4xf32>
  return
}

// -----

func.func @not_a_global() {
  return
}

func.func @get_global_of_func() {
  // expected-error@+1 {{'not_a_global' does not reference a valid global memref}}
  %0 = memref.get_global @not_a_global : memref<4xf32>
  return
}

// -----

memref.global @g : memref<4xf32>

func.func @get_global_type() {
  // expected-error@+1 {{result type 'memref<5xf32>' does not match type 'memref<4xf32>' of the global memref @g}}
  %0 = memref.get_global @g : memref<5xf32>
  return
}

// -----

// expected-error@+1 {{type should be static shaped memref, but got 'memref<?xf32>'}}
memref.global @dynamic : memref<?xf32>

// -----

// expected-error@+1 {{'memref.global' op type should be static shaped memref, but got 'memref<?xf32>'}}
"memref.global"() <{sym_name = "g", type = memref<?xf32>}> : () -> ()

// -----

// expected-error@+1 {{'memref.global' op initial value expected to be of type 'tensor<4xf32>', but was of type 'tensor<5xf32>'}}
memref.global @shape : memref<4xf32> = dense<1.0> : tensor<5xf32>

// -----

// expected-error@+1 {{'memref.global' op initial value should be a unit or elements attribute, but got 3 : i32}}
"memref.global"() <{sym_name = "g", type = memref<4xf32>, initial_value = 3 : i32}> : () -> ()

// -----

// expected-error@+1 {{'memref.global' op attribute 'type' failed to satisfy constraint: memref type attribute}}
"memref.global"() <{sym_name = "g", type = i32}> : () -> ()

// -----

func.func @subview_layout(%m: memref<4x4xf32>) {
  // expected-error@+1 {{expected result type to be 'memref<2x2xf32, strided<[4, 1]>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<2x2xf32>'}}
  %0 = memref.subview %m[0, 0] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32>
  return
}

// -----

func.func @subview_sizes(%m: memref<4x4xf32>) {
  // expected-error@+1 {{(mismatch of result sizes), but got 'memref<2x3xf32, strided<[4, 1]>>'}}
  %0 = memref.subview %m[0, 0] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x3xf32, strided<[4, 1]>>
  return
}

// -----

func.func @subview_rank_reduction_of_non_unit_dim(%m: memref<4x4xf32>) {
  // expected-error@+1 {{expected result type to be 'memref<1x2xf32, strided<[4, 1]>>' or a rank-reduced version. (mismatch of result sizes)}}
  %0 = memref.subview %m[0, 0] [1, 2] [1, 1] : memref<4x4xf32> to memref<3xf32, strided<[1]>>
  return
}

// -----

func.func @subview_rank_reduced_offset(%m: memref<4x4xf32>, %i: index) {
  // expected-error@+1 {{expected result type to be 'memref<1x4xf32, strided<[4, 1], offset: ?>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<4xf32, strided<[1], offset: 2>>'}}
  %0 = memref.subview %m[%i, 0] [1, 4] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[1], offset: 2>>
  return
}

// -----

func.func @subview_element_type(%m: memref<4x4xf32>) {
  // expected-error@+1 {{expected result element type to be 'f32', but got 'memref<2x2xi32, strided<[4, 1]>>'}}
  %0 = memref.subview %m[0, 0] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xi32, strided<[4, 1]>>
  return
}

// -----

func.func @subview_memory_space(%m: memref<4x4xf32>) {
  // expected-error@+1 {{different memory spaces specified for base memref type 'memref<4x4xf32>' and subview memref type 'memref<2x2xf32, strided<[4, 1]>, 1>'}}
  %0 = memref.subview %m[0, 0] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1]>, 1>
  return
}

// -----

func.func @subview_mixed_ranks(%m: memref<4x4xf32>) {
  // expected-error@+1 {{expected mixed offsets rank to match mixed sizes rank (1 vs 2) so the rank of the result type is well-formed.}}
  %0 = memref.subview %m[0] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32>
  return
}

// -----

func.func @subview_source_rank(%m: memref<4x4xf32>) {
  // expected-error@+1 {{expected 2 offset values, got 3}}
  %0 = memref.subview %m[0, 0, 0] [1, 1, 1] [1, 1, 1] : memref<4x4xf32> to memref<1xf32>
  return
}

// -----

func.func @subview_dynamic_count(%m: memref<4x4xf32>) {
  // expected-error@+1 {{expected the number of 'sizes' to match the number of dynamic entries in 'static_sizes' (0 vs 1)}}
  %0 = "memref.subview"(%m) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0, 0>, static_sizes = array<i64: 4, -9223372036854775808>, static_strides = array<i64: 1, 1>}> : (memref<4x4xf32>) -> memref<4x4xf32>
  return
}

// -----

func.func @reinterpret_cast_strides_count(%m: memref<4x4xf32>) {
  // expected-error@+1 {{expected mixed sizes rank to match mixed strides rank (1 vs 2) so the rank of the result type is well-formed.}}
  %0 = memref.reinterpret_cast %m to offset: [0], sizes: [4], strides: [1, 1] : memref<4x4xf32> to memref<4xf32>
  return
}

// -----

func.func @reinterpret_cast_sizes_vs_rank(%m: memref<4x4xf32>) {
  // expected-error@+1 {{expected 1 size values, got 2}}
  %0 = memref.reinterpret_cast %m to offset: [0], sizes: [4, 4], strides: [4, 1] : memref<4x4xf32> to memref<16xf32>
  return
}

// -----

func.func @reinterpret_cast_offsets_count(%m: memref<4x4xf32>) {
  // expected-error@+1 {{expected mixed offsets rank to match mixed sizes rank (2 vs 1)}}
  %0 = memref.reinterpret_cast %m to offset: [0, 1], sizes: [4], strides: [1] : memref<4x4xf32> to memref<4xf32>
  return
}

// -----

func.func @reinterpret_cast_size(%m: memref<4x4xf32>) {
  // expected-error@+1 {{expected result type with size = 5 instead of 4 in dim = 0}}
  %0 = memref.reinterpret_cast %m to offset: [0], sizes: [5], strides: [1] : memref<4x4xf32> to memref<4xf32>
  return
}

// -----

func.func @reinterpret_cast_dynamic_size(%m: memref<4x4xf32>, %n: index) {
  // expected-error@+1 {{expected result type with size = dynamic instead of 4 in dim = 0}}
  %0 = memref.reinterpret_cast %m to offset: [0], sizes: [%n], strides: [1] : memref<4x4xf32> to memref<4xf32>
  return
}

// -----

func.func @reinterpret_cast_offset(%m: memref<4x4xf32>) {
  // expected-error@+1 {{expected result type with offset = 1 instead of 0}}
  %0 = memref.reinterpret_cast %m to offset: [1], sizes: [4], strides: [1] : memref<4x4xf32> to memref<4xf32>
  return
}

// -----

func.func @reinterpret_cast_stride(%m: memref<4x4xf32>) {
  // expected-error@+1 {{expected result type with stride = 2 instead of 1 in dim = 0}}
  %0 = memref.reinterpret_cast %m to offset: [0], sizes: [4], strides: [2] : memref<4x4xf32> to memref<4xf32>
  return
}

// -----

func.func @reinterpret_cast_element_type(%m: memref<4x4xf32>) {
  // expected-error@+1 {{'memref.reinterpret_cast' op source element type ('f32') does not match result element type ('i32')}}
  %0 = memref.reinterpret_cast %m to offset: [0], sizes: [4], strides: [1] : memref<4x4xf32> to memref<4xi32>
  return
}

// -----

func.func @reinterpret_cast_memory_space(%m: memref<4x4xf32>) {
  // expected-error@+1 {{different memory spaces specified for source type 'memref<4x4xf32>' and result memref type 'memref<4xf32, 1>'}}
  %0 = memref.reinterpret_cast %m to offset: [0], sizes: [4], strides: [1] : memref<4x4xf32> to memref<4xf32, 1>
  return
}

// -----

func.func @reinterpret_cast_affine_layout(%m: memref<4x4xf32>) {
  // expected-error@+1 {{not supported: result layout of 'memref<4xf32, affine_map<(d0) -> (d0 * 2)>>' (expected a strided layout)}}
  %0 = memref.reinterpret_cast %m to offset: [0], sizes: [4], strides: [2] : memref<4x4xf32> to memref<4xf32, affine_map<(d0) -> (d0 * 2)>>
  return
}
