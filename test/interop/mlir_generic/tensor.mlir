// The tensor dialect ops that MLIR has (tensor.generic is mlc's own): custom forms as MLIR reads them.
func.func @create(%d: index, %v: f32, %t: tensor<?x?xf32>) -> (tensor<?x4xf32>, tensor<4xf32>, tensor<?x4xf32>, index, tensor<4x?xf32>, tensor<*xf32>) {
  %c1 = arith.constant 1 : index
  %0 = tensor.empty(%d) : tensor<?x4xf32>
  %1 = tensor.splat %v : tensor<4xf32>
  %2 = tensor.splat %v[%d] : tensor<?x4xf32>
  %3 = tensor.dim %t, %c1 : tensor<?x?xf32>
  %4 = tensor.cast %t : tensor<?x?xf32> to tensor<4x?xf32>
  %5 = tensor.cast %t : tensor<?x?xf32> to tensor<*xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<?x4xf32>, tensor<4xf32>, tensor<?x4xf32>, index, tensor<4x?xf32>, tensor<*xf32>
}

func.func @elements(%t: tensor<8x?xf32>, %i: index, %v: f32, %s: tensor<i32>) -> (f32, tensor<8x?xf32>, i32) {
  %0 = tensor.extract %t[%i, %i] : tensor<8x?xf32>
  %1 = tensor.insert %v into %t[%i, %i] {tag = "x"} : tensor<8x?xf32>
  %2 = tensor.extract %s[] : tensor<i32>
  return %0, %1, %2 : f32, tensor<8x?xf32>, i32
}

func.func @slices(%t: tensor<8x?xf32>, %i: index, %s: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>, tensor<?x?xf32>, tensor<8x?xf32>, tensor<8x?xf32>) {
  %0 = tensor.extract_slice %t[0, %i] [4, 4] [1, 1] : tensor<8x?xf32> to tensor<4x4xf32>
  %1 = tensor.extract_slice %t[2, 0] [1, 4] [1, 1] : tensor<8x?xf32> to tensor<4xf32>
  %2 = tensor.extract_slice %t[%i, %i] [%i, %i] [%i, 2] : tensor<8x?xf32> to tensor<?x?xf32>
  %3 = tensor.insert_slice %s into %t[0, %i] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<8x?xf32>
  %4 = tensor.insert_slice %1 into %t[%i, 0] [1, 4] [1, %i] : tensor<4xf32> into tensor<8x?xf32>
  return %0, %1, %2, %3, %4 : tensor<4x4xf32>, tensor<4xf32>, tensor<?x?xf32>, tensor<8x?xf32>, tensor<8x?xf32>
}

func.func @reshapes(%a: tensor<?xf32>, %b: tensor<4x8x?xf32>, %d: index, %z: tensor<f32>) -> (tensor<?x4xf32>, tensor<32x?xf32>, tensor<1x1xf32>, tensor<f32>) {
  %0 = tensor.expand_shape %a [[0, 1]] output_shape [%d, 4] : tensor<?xf32> into tensor<?x4xf32>
  %1 = tensor.collapse_shape %b [[0, 1], [2]] : tensor<4x8x?xf32> into tensor<32x?xf32>
  %2 = tensor.expand_shape %z [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
  %3 = tensor.collapse_shape %2 [] : tensor<1x1xf32> into tensor<f32>
  return %0, %1, %2, %3 : tensor<?x4xf32>, tensor<32x?xf32>, tensor<1x1xf32>, tensor<f32>
}

func.func @pad(%t: tensor<?x?xf32>, %h: index, %cst: f32, %s: tensor<4x4xf32>) -> (tensor<?x?xf32>, tensor<5x6xf32>) {
  %0 = tensor.pad %t low[1, 2] high[%h, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<?x?xf32> to tensor<?x?xf32>
  %1 = tensor.pad %s nofold low[1, 2] high[0, 0] {
  ^bb0(%i: index, %j: index):
    %x = arith.index_cast %i : index to i32
    %y = arith.sitofp %x : i32 to f32
    tensor.yield %y : f32
  } : tensor<4x4xf32> to tensor<5x6xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<5x6xf32>
}
