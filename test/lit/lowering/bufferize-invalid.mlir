// RUN: mlc-opt %s -split-input-file --verify-diagnostics --allow-unregistered-dialect -p bufferize

// A result size that is not an affine function of the input dims cannot be given to the
// caller in mlc.result_shapes.
func.func @product(%a: tensor<?x?xf32>) -> tensor<?xf32> {
  %0 = tensor.collapse_shape %a [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  // expected-error@+1 {{not supported: result #0 dim 0 is not an affine function of the input dimensions (mlc.result_shapes)}}
  return %0 : tensor<?xf32>
}

// -----

func.func @scalar_size(%a: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  %0 = tensor.pad %a low[%n] high[0] {
  ^bb0(%i: index):
    %z = arith.constant 0.0 : f32
    tensor.yield %z : f32
  } : tensor<?xf32> to tensor<?xf32>
  // expected-error@+1 {{not supported: result #0 dim 0 is not an affine function of the input dimensions (mlc.result_shapes)}}
  return %0 : tensor<?xf32>
}

// -----

func.func @pad_index_value(%a: tensor<4xindex>) -> tensor<6xindex> {
  // expected-error@+1 {{not supported: tensor.pad whose padding value depends on the indices}}
  %0 = tensor.pad %a low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %i : index
  } : tensor<4xindex> to tensor<6xindex>
  return %0 : tensor<6xindex>
}

// -----

// expected-error@+1 {{not supported: unranked tensor type tensor<*xf32>}}
func.func @unranked(%a: tensor<*xf32>) -> tensor<*xf32> {
  return %a : tensor<*xf32>
}

// -----

func.func @branches(%c: i1) {
  // expected-error@+1 {{not supported: 'tensor.empty' on tensors in a function with several blocks}}
  %a = tensor.empty() : tensor<4xf32>
  "cf.cond_br"(%c, %a, %a) [^bb1, ^bb1] <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (i1, tensor<4xf32>, tensor<4xf32>) -> ()
^bb1(%x: tensor<4xf32>):
  return
}

// -----

// expected-error@+1 {{not supported: tensor arguments or results of a function with several blocks}}
func.func @blocks(%a: tensor<4xf32>) -> tensor<4xf32> {
  "test.br"()[^bb1] : () -> ()
^bb1:
  return %a : tensor<4xf32>
}
