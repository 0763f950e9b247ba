// RUN: mlc-opt %s -split-input-file -verify-diagnostics

func.func @mixed(%a: tensor<4xf32>, %b: memref<4xf32>) {
  // expected-error@+1 {{'tensor.generic' op expected all input/output operands to be tensors or all to be memrefs (mixed tensor and buffer semantics is not supported)}}
  tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    tensor.yield %in : f32
  }
  return
}

// -----

func.func @buffer_with_result(%a: memref<4xf32>, %b: memref<4xf32>) {
  // expected-error@+1 {{'tensor.generic' op expected the number of tensor results (1) to be equal to the number of output tensors (0)}}
  %0 = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    tensor.yield %in : f32
  } -> tensor<4xf32>
  return
}

// -----

func.func @bad_element(%a: memref<4xf32>, %b: memref<4xi32>) {
  tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : memref<4xf32>) outs(%b : memref<4xi32>) {
  ^bb0(%in: f32, %out: i32):
    // expected-error@+1 {{'tensor.yield' op type of yield operand #0 ('f32') does not match the element type of output #0 ('i32')}}
    tensor.yield %in : f32
  }
  return
}

// -----

func.func @loop_sizes(%a: memref<4xf32>, %b: memref<5xf32>) {
  // expected-error@+1 {{'tensor.generic' op loop d0 has inconsistent sizes: 4 from operand #0 dim 0 and 5 from operand #1 dim 0}}
  tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : memref<4xf32>) outs(%b : memref<5xf32>) {
  ^bb0(%in: f32, %out: f32):
    tensor.yield %in : f32
  }
  return
}
