module {
  func.func @create(%arg0: index, %arg1: f32, %arg2: tensor<?x?xf32>) -> (tensor<?x4xf32>, tensor<4xf32>, tensor<?x4xf32>, index, tensor<4x?xf32>, tensor<*xf32>) {
    %c1 = arith.constant 1 : index
    %0 = tensor.empty(%arg0) : tensor<?x4xf32>
    %splat = tensor.splat %arg1 : tensor<4xf32>
    %splat_0 = tensor.splat %arg1[%arg0] : tensor<?x4xf32>
    %dim = tensor.dim %arg2, %c1 : tensor<?x?xf32>
    %cast = tensor.cast %arg2 : tensor<?x?xf32> to tensor<4x?xf32>
    %cast_1 = tensor.cast %arg2 : tensor<?x?xf32> to tensor<*xf32>
    return %0, %splat, %splat_0, %dim, %cast, %cast_1 : tensor<?x4xf32>, tensor<4xf32>, tensor<?x4xf32>, index, tensor<4x?xf32>, tensor<*xf32>
  }
  func.func @elements(%arg0: tensor<8x?xf32>, %arg1: index, %arg2: f32, %arg3: tensor<i32>) -> (f32, tensor<8x?xf32>, i32) {
    %extracted = tensor.extract %arg0[%arg1, %arg1] : tensor<8x?xf32>
    %inserted = tensor.insert %arg2 into %arg0[%arg1, %arg1] {tag = "x"} : tensor<8x?xf32>
    %extracted_0 = tensor.extract %arg3[] : tensor<i32>
    return %extracted, %inserted, %extracted_0 : f32, tensor<8x?xf32>, i32
  }
  func.func @slices(%arg0: tensor<8x?xf32>, %arg1: index, %arg2: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>, tensor<?x?xf32>, tensor<8x?xf32>, tensor<8x?xf32>) {
    %extracted_slice = tensor.extract_slice %arg0[0, %arg1] [4, 4] [1, 1] : tensor<8x?xf32> to tensor<4x4xf32>
    %extracted_slice_0 = tensor.extract_slice %arg0[2, 0] [1, 4] [1, 1] : tensor<8x?xf32> to tensor<4xf32>
    %extracted_slice_1 = tensor.extract_slice %arg0[%arg1, %arg1] [%arg1, %arg1] [%arg1, 2] : tensor<8x?xf32> to tensor<?x?xf32>
    %inserted_slice = tensor.insert_slice %arg2 into %arg0[0, %arg1] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<8x?xf32>
    %inserted_slice_2 = tensor.insert_slice %extracted_slice_0 into %arg0[%arg1, 0] [1, 4] [1, %arg1] : tensor<4xf32> into tensor<8x?xf32>
    return %extracted_slice, %extracted_slice_0, %extracted_slice_1, %inserted_slice, %inserted_slice_2 : tensor<4x4xf32>, tensor<4xf32>, tensor<?x?xf32>, tensor<8x?xf32>, tensor<8x?xf32>
  }
  func.func @reshapes(%arg0: tensor<?xf32>, %arg1: tensor<4x8x?xf32>, %arg2: index, %arg3: tensor<f32>) -> (tensor<?x4xf32>, tensor<32x?xf32>, tensor<1x1xf32>, tensor<f32>) {
    %expanded = tensor.expand_shape %arg0 [[0, 1]] output_shape [%arg2, 4] : tensor<?xf32> into tensor<?x4xf32>
    %collapsed = tensor.collapse_shape %arg1 [[0, 1], [2]] : tensor<4x8x?xf32> into tensor<32x?xf32>
    %expanded_0 = tensor.expand_shape %arg3 [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
    %collapsed_1 = tensor.collapse_shape %expanded_0 [] : tensor<1x1xf32> into tensor<f32>
    return %expanded, %collapsed, %expanded_0, %collapsed_1 : tensor<?x4xf32>, tensor<32x?xf32>, tensor<1x1xf32>, tensor<f32>
  }
  func.func @pad(%arg0: tensor<?x?xf32>, %arg1: index, %arg2: f32, %arg3: tensor<4x4xf32>) -> (tensor<?x?xf32>, tensor<5x6xf32>) {
    %padded = tensor.pad %arg0 low[1, 2] high[%arg1, 0] {
    ^bb0(%arg4: index, %arg5: index):
      tensor.yield %arg2 : f32
    } : tensor<?x?xf32> to tensor<?x?xf32>
    %padded_0 = tensor.pad %arg3 nofold low[1, 2] high[0, 0] {
    ^bb0(%arg4: index, %arg5: index):
      %0 = arith.index_cast %arg4 : index to i32
      %1 = arith.sitofp %0 : i32 to f32
      tensor.yield %1 : f32
    } : tensor<4x4xf32> to tensor<5x6xf32>
    return %padded, %padded_0 : tensor<?x?xf32>, tensor<5x6xf32>
  }
}

