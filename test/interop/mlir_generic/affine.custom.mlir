#map = affine_map<(d0)[s0] -> (d0, s0 - 4)>
#map1 = affine_map<(d0)[s0] -> (d0 + 10, s0)>
#map2 = affine_map<(d0)[s0] -> (d0 * 4 + s0)>
#map3 = affine_map<()[s0] -> (s0 ceildiv 8)>
#set = affine_set<(d0)[s0] : (d0 - 10 >= 0, -d0 + s0 - 1 >= 0)>
module {
  func.func @loops(%arg0: memref<?x?xf32>, %arg1: memref<100xf32>, %arg2: index, %arg3: f32) -> (f32, f32) {
    affine.for %arg4 = 0 to %arg2 step 4 {
      %2 = affine.load %arg0[%arg4 + 1, symbol(%arg2)] : memref<?x?xf32>
      affine.store %2, %arg0[%arg4, %arg4 floordiv 2] : memref<?x?xf32>
      %3 = affine.vector_load %arg1[%arg4] : memref<100xf32>, vector<8xf32>
      affine.vector_store %3, %arg1[%arg4 + 8] : memref<100xf32>, vector<8xf32>
      affine.for %arg5 = max #map(%arg4)[%arg2] to min #map1(%arg4)[%arg2] step 2 {
        %4 = affine.load %arg0[%arg4, %arg5 mod 3] : memref<?x?xf32>
      }
    }
    %0 = affine.for %arg4 = -2 to 64 iter_args(%arg5 = %arg3) -> (f32) {
      %2 = affine.load %arg1[%arg4 + 2] : memref<100xf32>
      %3 = arith.addf %arg5, %2 : f32
      affine.yield %3 : f32
    }
    %1:2 = affine.parallel (%arg4, %arg5) = (max(0, %arg2 - 8), 0) to (min(%arg2, 100), %arg2 floordiv 2) step (2, 4) reduce ("addf", "maximumf") -> (f32, f32) {
      %2 = affine.load %arg0[%arg4, %arg5] : memref<?x?xf32>
      affine.yield %2, %2 : f32, f32
    }
    affine.parallel (%arg4) = (0) to (symbol(%arg2) + 1) {
      affine.store %arg3, %arg0[%arg4, 0] : memref<?x?xf32>
    }
    return %0, %1#1 : f32, f32
  }
  func.func @conditionals(%arg0: index, %arg1: index, %arg2: f32, %arg3: f32, %arg4: memref<f32>) -> f32 {
    affine.if #set(%arg0)[%arg1] {
      affine.store %arg2, %arg4[] : memref<f32>
    }
    affine.if #set(%arg0)[%arg1] {
      affine.store %arg2, %arg4[] : memref<f32>
    } else {
      affine.store %arg3, %arg4[] : memref<f32>
    }
    %0 = affine.if #set(%arg0)[%arg1] -> f32 {
      affine.yield %arg2 : f32
    } else {
      %1 = affine.load %arg4[] : memref<f32>
      affine.yield %1 : f32
    }
    return %0 : f32
  }
  func.func @index_math(%arg0: index, %arg1: index) -> (index, index, index, index) {
    %0 = affine.apply #map2(%arg0)[%arg1]
    %1 = affine.apply #map3()[%arg1]
    %2 = affine.min #map1(%arg0)[%arg1]
    %3 = affine.max #map(%0)[%1]
    return %0, %1, %2, %3 : index, index, index, index
  }
}

