// RUN: mlc-opt %s -split-input-file --verify-diagnostics -p convert-tensor-to-affine

func.func @tensors(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+2 {{failed to legalize operation 'tensor.generic'}}
  // expected-note@+1 {{not supported: tensor.generic on tensors; run bufferize first}}
  %0 = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%a : tensor<4xf32>) {
  ^bb0(%o: f32):
    tensor.yield %o : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @layout(%a: memref<4xf32, affine_map<(d0) -> (d0 * 2)>>) {
  // expected-error@+2 {{failed to legalize operation 'tensor.generic'}}
  // expected-note@+1 {{not supported: operand of type memref<4xf32, affine_map<(d0) -> (d0 * 2)>> (only identity and strided layouts)}}
  tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%a : memref<4xf32, affine_map<(d0) -> (d0 * 2)>>) {
  ^bb0(%o: f32):
    tensor.yield %o : f32
  }
  return
}
