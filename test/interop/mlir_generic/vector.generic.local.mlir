"builtin.module"() ({
  "func.func"() <{function_type = (f32, vector<8xf32>, vector<4x8xf32>, memref<?x?xf32>, index, index, vector<8xi32>, f32, vector<8x4xi1>, tensor<?x?xf32>) -> tensor<?x?xf32>, sym_name = "v"}> ({
  ^bb0(%arg0: f32, %arg1: vector<8xf32>, %arg2: vector<4x8xf32>, %arg3: memref<?x?xf32>, %arg4: index, %arg5: index, %arg6: vector<8xi32>, %arg7: f32, %arg8: vector<8x4xi1>, %arg9: tensor<?x?xf32>):
    %0 = "vector.broadcast"(%arg0) : (f32) -> vector<4x8xf32>
    %1 = "vector.broadcast"(%arg1) {test.x} : (vector<8xf32>) -> vector<4x8xf32>
    %2 = "vector.fma"(%arg1, %arg1, %arg1) : (vector<8xf32>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
    %3 = "vector.reduction"(%arg1) <{fastmath = #arith.fastmath<none>, kind = #vector.kind<add>}> : (vector<8xf32>) -> f32
    %4 = "vector.reduction"(%arg1, %arg7) <{fastmath = #arith.fastmath<fast>, kind = #vector.kind<maxnumf>}> : (vector<8xf32>, f32) -> f32
    %5 = "vector.reduction"(%arg6) <{fastmath = #arith.fastmath<none>, kind = #vector.kind<minui>}> : (vector<8xi32>) -> i32
    %6 = "vector.extract"(%arg2) <{static_position = array<i64: 1>}> : (vector<4x8xf32>) -> vector<8xf32>
    %7 = "vector.extract"(%arg2, %arg4) <{static_position = array<i64: -9223372036854775808, 2>}> : (vector<4x8xf32>, index) -> f32
    %8 = "vector.extract"(%arg2) <{static_position = array<i64: -1, 2>}> : (vector<4x8xf32>) -> f32
    %9 = "vector.insert"(%arg0, %arg2) <{static_position = array<i64: 1, 2>}> : (f32, vector<4x8xf32>) -> vector<4x8xf32>
    %10 = "vector.insert"(%arg1, %arg2, %arg4) <{static_position = array<i64: -9223372036854775808>}> : (vector<8xf32>, vector<4x8xf32>, index) -> vector<4x8xf32>
    %11 = "vector.load"(%arg3, %arg4, %arg5) : (memref<?x?xf32>, index, index) -> vector<8xf32>
    %12 = "vector.load"(%arg3, %arg4, %arg5) <{alignment = 16 : i64, nontemporal = true}> : (memref<?x?xf32>, index, index) -> vector<8xf32>
    "vector.store"(%arg1, %arg3, %arg4, %arg5) : (vector<8xf32>, memref<?x?xf32>, index, index) -> ()
    "vector.store"(%arg1, %arg3, %arg4, %arg5) <{alignment = 32 : i64}> : (vector<8xf32>, memref<?x?xf32>, index, index) -> ()
    %13 = "vector.transfer_read"(%arg3, %arg4, %arg5, %arg0) <{in_bounds = [true], operandSegmentSizes = array<i32: 1, 2, 1, 0>, permutation_map = affine_map<(d0, d1) -> (d1)>}> : (memref<?x?xf32>, index, index, f32) -> vector<8xf32>
    %14 = "vector.transfer_read"(%arg3, %arg4, %arg5, %arg0) <{in_bounds = [true], operandSegmentSizes = array<i32: 1, 2, 1, 0>, permutation_map = affine_map<(d0, d1) -> (d0)>}> : (memref<?x?xf32>, index, index, f32) -> vector<8xf32>
    %15 = "vector.transfer_read"(%arg3, %arg4, %arg5, %arg0) <{in_bounds = [false, false], operandSegmentSizes = array<i32: 1, 2, 1, 0>, permutation_map = affine_map<(d0, d1) -> (d0, d1)>}> : (memref<?x?xf32>, index, index, f32) -> vector<4x8xf32>
    %16 = "vector.transfer_read"(%arg3, %arg4, %arg5, %arg0, %arg8) <{in_bounds = [false, false], operandSegmentSizes = array<i32: 1, 2, 1, 1>, permutation_map = affine_map<(d0, d1) -> (d1, d0)>}> : (memref<?x?xf32>, index, index, f32, vector<8x4xi1>) -> vector<4x8xf32>
    %17 = "vector.transfer_read"(%arg3, %arg4, %arg5, %arg0) <{in_bounds = [true, false], operandSegmentSizes = array<i32: 1, 2, 1, 0>, permutation_map = affine_map<(d0, d1) -> (0, d1)>}> : (memref<?x?xf32>, index, index, f32) -> vector<4x8xf32>
    "vector.transfer_write"(%arg1, %arg3, %arg4, %arg5) <{in_bounds = [true], operandSegmentSizes = array<i32: 1, 1, 2, 0>, permutation_map = affine_map<(d0, d1) -> (d1)>}> : (vector<8xf32>, memref<?x?xf32>, index, index) -> ()
    "vector.transfer_write"(%arg2, %arg3, %arg4, %arg5) <{in_bounds = [false, false], operandSegmentSizes = array<i32: 1, 1, 2, 0>, permutation_map = affine_map<(d0, d1) -> (d0, d1)>}> : (vector<4x8xf32>, memref<?x?xf32>, index, index) -> ()
    %18 = "vector.transfer_write"(%arg1, %arg9, %arg4, %arg5) <{in_bounds = [false], operandSegmentSizes = array<i32: 1, 1, 2, 0>, permutation_map = affine_map<(d0, d1) -> (d1)>}> : (vector<8xf32>, tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
    %19 = "vector.shuffle"(%arg1, %arg1) <{mask = array<i64: 0, 8, 1, -1>}> : (vector<8xf32>, vector<8xf32>) -> vector<4xf32>
    %20 = "vector.shuffle"(%arg2, %0) <{mask = array<i64: 7, 0>}> {test.x} : (vector<4x8xf32>, vector<4x8xf32>) -> vector<2x8xf32>
    "func.return"(%18) : (tensor<?x?xf32>) -> ()
  }) : () -> ()
}) : () -> ()
