"builtin.module"() ({
  "func.func"() <{function_type = (index, f32, tensor<?x?xf32>) -> (tensor<?x4xf32>, tensor<4xf32>, tensor<?x4xf32>, index, tensor<4x?xf32>, tensor<*xf32>), sym_name = "create"}> ({
  ^bb0(%arg19: index, %arg20: f32, %arg21: tensor<?x?xf32>):
    %16 = "arith.constant"() <{value = 1 : index}> : () -> index
    %17 = "tensor.empty"(%arg19) : (index) -> tensor<?x4xf32>
    %18 = "tensor.splat"(%arg20) : (f32) -> tensor<4xf32>
    %19 = "tensor.splat"(%arg20, %arg19) : (f32, index) -> tensor<?x4xf32>
    %20 = "tensor.dim"(%arg21, %16) : (tensor<?x?xf32>, index) -> index
    %21 = "tensor.cast"(%arg21) : (tensor<?x?xf32>) -> tensor<4x?xf32>
    %22 = "tensor.cast"(%arg21) : (tensor<?x?xf32>) -> tensor<*xf32>
    "func.return"(%17, %18, %19, %20, %21, %22) : (tensor<?x4xf32>, tensor<4xf32>, tensor<?x4xf32>, index, tensor<4x?xf32>, tensor<*xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x?xf32>, index, f32, tensor<i32>) -> (f32, tensor<8x?xf32>, i32), sym_name = "elements"}> ({
  ^bb0(%arg15: tensor<8x?xf32>, %arg16: index, %arg17: f32, %arg18: tensor<i32>):
    %13 = "tensor.extract"(%arg15, %arg16, %arg16) : (tensor<8x?xf32>, index, index) -> f32
    %14 = "tensor.insert"(%arg17, %arg15, %arg16, %arg16) {tag = "x"} : (f32, tensor<8x?xf32>, index, index) -> tensor<8x?xf32>
    %15 = "tensor.extract"(%arg18) : (tensor<i32>) -> i32
    "func.return"(%13, %14, %15) : (f32, tensor<8x?xf32>, i32) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x?xf32>, index, tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>, tensor<?x?xf32>, tensor<8x?xf32>, tensor<8x?xf32>), sym_name = "slices"}> ({
  ^bb0(%arg12: tensor<8x?xf32>, %arg13: index, %arg14: tensor<4x4xf32>):
    %8 = "tensor.extract_slice"(%arg12, %arg13) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, static_offsets = array<i64: 0, -9223372036854775808>, static_sizes = array<i64: 4, 4>, static_strides = array<i64: 1, 1>}> : (tensor<8x?xf32>, index) -> tensor<4x4xf32>
    %9 = "tensor.extract_slice"(%arg12) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 2, 0>, static_sizes = array<i64: 1, 4>, static_strides = array<i64: 1, 1>}> : (tensor<8x?xf32>) -> tensor<4xf32>
    %10 = "tensor.extract_slice"(%arg12, %arg13, %arg13, %arg13, %arg13, %arg13) <{operandSegmentSizes = array<i32: 1, 2, 2, 1>, static_offsets = array<i64: -9223372036854775808, -9223372036854775808>, static_sizes = array<i64: -9223372036854775808, -9223372036854775808>, static_strides = array<i64: -9223372036854775808, 2>}> : (tensor<8x?xf32>, index, index, index, index, index) -> tensor<?x?xf32>
    %11 = "tensor.insert_slice"(%arg14, %arg12, %arg13) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, static_offsets = array<i64: 0, -9223372036854775808>, static_sizes = array<i64: 4, 4>, static_strides = array<i64: 1, 1>}> : (tensor<4x4xf32>, tensor<8x?xf32>, index) -> tensor<8x?xf32>
    %12 = "tensor.insert_slice"(%9, %arg12, %arg13, %arg13) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>, static_offsets = array<i64: -9223372036854775808, 0>, static_sizes = array<i64: 1, 4>, static_strides = array<i64: 1, -9223372036854775808>}> : (tensor<4xf32>, tensor<8x?xf32>, index, index) -> tensor<8x?xf32>
    "func.return"(%8, %9, %10, %11, %12) : (tensor<4x4xf32>, tensor<4xf32>, tensor<?x?xf32>, tensor<8x?xf32>, tensor<8x?xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<?xf32>, tensor<4x8x?xf32>, index, tensor<f32>) -> (tensor<?x4xf32>, tensor<32x?xf32>, tensor<1x1xf32>, tensor<f32>), sym_name = "reshapes"}> ({
  ^bb0(%arg8: tensor<?xf32>, %arg9: tensor<4x8x?xf32>, %arg10: index, %arg11: tensor<f32>):
    %4 = "tensor.expand_shape"(%arg8, %arg10) <{reassociation = [[0, 1]], static_output_shape = array<i64: -9223372036854775808, 4>}> : (tensor<?xf32>, index) -> tensor<?x4xf32>
    %5 = "tensor.collapse_shape"(%arg9) <{reassociation = [[0, 1], [2]]}> : (tensor<4x8x?xf32>) -> tensor<32x?xf32>
    %6 = "tensor.expand_shape"(%arg11) <{reassociation = [], static_output_shape = array<i64: 1, 1>}> : (tensor<f32>) -> tensor<1x1xf32>
    %7 = "tensor.collapse_shape"(%6) <{reassociation = []}> : (tensor<1x1xf32>) -> tensor<f32>
    "func.return"(%4, %5, %6, %7) : (tensor<?x4xf32>, tensor<32x?xf32>, tensor<1x1xf32>, tensor<f32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<?x?xf32>, index, f32, tensor<4x4xf32>) -> (tensor<?x?xf32>, tensor<5x6xf32>), sym_name = "pad"}> ({
  ^bb0(%arg0: tensor<?x?xf32>, %arg1: index, %arg2: f32, %arg3: tensor<4x4xf32>):
    %0 = "tensor.pad"(%arg0, %arg1) <{operandSegmentSizes = array<i32: 1, 0, 1>, static_high = array<i64: -9223372036854775808, 0>, static_low = array<i64: 1, 2>}> ({
    ^bb0(%arg6: index, %arg7: index):
      "tensor.yield"(%arg2) : (f32) -> ()
    }) : (tensor<?x?xf32>, index) -> tensor<?x?xf32>
    %1 = "tensor.pad"(%arg3) <{nofold, operandSegmentSizes = array<i32: 1, 0, 0>, static_high = array<i64: 0, 0>, static_low = array<i64: 1, 2>}> ({
    ^bb0(%arg4: index, %arg5: index):
      %2 = "arith.index_cast"(%arg4) : (index) -> i32
      %3 = "arith.sitofp"(%2) : (i32) -> f32
      "tensor.yield"(%3) : (f32) -> ()
    }) : (tensor<4x4xf32>) -> tensor<5x6xf32>
    "func.return"(%0, %1) : (tensor<?x?xf32>, tensor<5x6xf32>) -> ()
  }) : () -> ()
}) : () -> ()
