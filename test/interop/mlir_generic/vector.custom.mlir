#map = affine_map<(d0, d1) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d1, d0)>
#map2 = affine_map<(d0, d1) -> (0, d1)>
module {
  func.func @v(%arg0: f32, %arg1: vector<8xf32>, %arg2: vector<4x8xf32>, %arg3: memref<?x?xf32>, %arg4: index, %arg5: index, %arg6: vector<8xi32>, %arg7: f32, %arg8: vector<8x4xi1>, %arg9: tensor<?x?xf32>) -> tensor<?x?xf32> {
    %0 = vector.broadcast %arg0 : f32 to vector<4x8xf32>
    %1 = vector.broadcast %arg1 {test.x} : vector<8xf32> to vector<4x8xf32>
    %2 = vector.fma %arg1, %arg1, %arg1 : vector<8xf32>
    %3 = vector.reduction <add>, %arg1 : vector<8xf32> into f32
    %4 = vector.reduction <maxnumf>, %arg1, %arg7 fastmath<fast> : vector<8xf32> into f32
    %5 = vector.reduction <minui>, %arg6 : vector<8xi32> into i32
    %6 = vector.extract %arg2[1] : vector<8xf32> from vector<4x8xf32>
    %7 = vector.extract %arg2[%arg4, 2] : f32 from vector<4x8xf32>
    %8 = vector.extract %arg2[-1, 2] : f32 from vector<4x8xf32>
    %9 = vector.insert %arg0, %arg2 [1, 2] : f32 into vector<4x8xf32>
    %10 = vector.insert %arg1, %arg2 [%arg4] : vector<8xf32> into vector<4x8xf32>
    %11 = vector.load %arg3[%arg4, %arg5] : memref<?x?xf32>, vector<8xf32>
    %12 = vector.load %arg3[%arg4, %arg5] alignment = 16 nontemporal = true : memref<?x?xf32>, vector<8xf32>
    vector.store %arg1, %arg3[%arg4, %arg5] : memref<?x?xf32>, vector<8xf32>
    vector.store %arg1, %arg3[%arg4, %arg5] alignment = 32 : memref<?x?xf32>, vector<8xf32>
    %13 = vector.transfer_read %arg3[%arg4, %arg5], %arg0 {in_bounds = [true]} : memref<?x?xf32>, vector<8xf32>
    %14 = vector.transfer_read %arg3[%arg4, %arg5], %arg0 {in_bounds = [true], permutation_map = #map} : memref<?x?xf32>, vector<8xf32>
    %15 = vector.transfer_read %arg3[%arg4, %arg5], %arg0 : memref<?x?xf32>, vector<4x8xf32>
    %16 = vector.transfer_read %arg3[%arg4, %arg5], %arg0, %arg8 {permutation_map = #map1} : memref<?x?xf32>, vector<4x8xf32>
    %17 = vector.transfer_read %arg3[%arg4, %arg5], %arg0 {in_bounds = [true, false], permutation_map = #map2} : memref<?x?xf32>, vector<4x8xf32>
    vector.transfer_write %arg1, %arg3[%arg4, %arg5] {in_bounds = [true]} : vector<8xf32>, memref<?x?xf32>
    vector.transfer_write %arg2, %arg3[%arg4, %arg5] : vector<4x8xf32>, memref<?x?xf32>
    %18 = vector.transfer_write %arg1, %arg9[%arg4, %arg5] : vector<8xf32>, tensor<?x?xf32>
    %19 = vector.shuffle %arg1, %arg1 [0, 8, 1, -1] : vector<8xf32>, vector<8xf32>
    %20 = vector.shuffle %arg2, %0 [7, 0] {test.x} : vector<4x8xf32>, vector<4x8xf32>
    return %18 : tensor<?x?xf32>
  }
}

