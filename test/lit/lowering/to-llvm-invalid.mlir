// RUN: mlc-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(convert-to-llvm)'
// RUN: not mlc-opt %s -p 'builtin.module(convert-to-llvm)' 2>&1 | filecheck %s --check-prefix=EXIT

// EXIT: error: failed to legalize operation 'vector.transfer_read'

func.func @transfer(%x: memref<4xf32>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  // expected-error@+2 {{failed to legalize operation 'vector.transfer_read'}}
  // expected-note@+1 {{not supported: 'vector.transfer_read' that may be out of bounds (in_bounds = false)}}
  %v = vector.transfer_read %x[%c0], %pad : memref<4xf32>, vector<4xf32>
  return %v : vector<4xf32>
}

// -----

func.func @semi_affine(%i: index, %s: index) -> index {
  // expected-error@+2 {{failed to legalize operation 'affine.apply'}}
  // expected-note@+1 {{not supported: semi-affine expression 'd0 mod s0' (division by a non-constant)}}
  %r = affine.apply affine_map<(d0)[s0] -> (d0 mod s0)>(%i)[%s]
  return %r : index
}

// -----

// expected-error@+2 {{failed to legalize operation 'func.func'}}
// expected-note@+1 {{not supported: type memref<*xf32>}}
func.func @unranked(%x: memref<*xf32>) {
  return
}

// -----

// expected-error@+2 {{failed to legalize operation 'func.func'}}
// expected-note@+1 {{not supported: type tensor<4xf32>}}
func.func @tensor_arg(%x: tensor<4xf32>) {
  return
}

// -----

func.func @nd_vector(%x: vector<2x4xf32>) {
  return
}
// expected-error@-3 {{failed to legalize operation 'func.func'}}
// expected-note@-4 {{not supported: type vector<2x4xf32> (only fixed 1-D vectors lower)}}

// -----

func.func @parallel_reduction(%x: memref<?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  // expected-error@+2 {{failed to legalize operation 'affine.parallel'}}
  // expected-note@+1 {{not supported: affine.parallel with reductions and 'mlc.parallel'}}
  %s = affine.parallel (%i) = (0) to (%n) reduce ("addf") -> (f32) {
    %v = affine.load %x[%i] : memref<?xf32>
    affine.yield %v : f32
  } {mlc.parallel}
  return %s : f32
}

// -----

func.func @truncf_rounding(%x: f32) -> f16 {
  // expected-error@+2 {{failed to legalize operation 'arith.truncf'}}
  // expected-note@+1 {{not supported: arith.truncf with an explicit rounding mode}}
  %r = arith.truncf %x to_nearest_even : f32 to f16
  return %r : f16
}

// -----

func.func @bad_cast(%i: index) -> f32 {
  // expected-error@+2 {{failed to legalize operation 'builtin.unrealized_conversion_cast'}}
  // expected-note@+1 {{not supported: unrealized_conversion_cast from index to f32}}
  %f = builtin.unrealized_conversion_cast %i : index to f32
  return %f : f32
}
