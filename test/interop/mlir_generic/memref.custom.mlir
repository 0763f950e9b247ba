#map = affine_map<(d0, d1)[s0] -> (d0 * 4 + d1 + s0)>
module {
  memref.global "private" constant @c : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]>
  memref.global @u : memref<4xi32> = uninitialized alignment = 16
  memref.global "public" @z : memref<3xf32>
  memref.global "private" @e : memref<f32> = dense<0.000000e+00> {test.attr}
  func.func @f(%arg0: index, %arg1: memref<?x?xf32>, %arg2: index, %arg3: index, %arg4: f32, %arg5: memref<4xf32>, %arg6: memref<*xf32>) {
    %alloc = memref.alloc(%arg0) alignment = 64 : memref<?x4xf32>
    %alloca = memref.alloca() : memref<4x4xf32, 1>
    %alloc_0 = memref.alloc(%arg0)[%arg2] : memref<?x4xf32, #map>
    %0 = memref.load %arg1[%arg2, %arg3] : memref<?x?xf32>
    %1 = memref.load %arg1[%arg2, %arg3] alignment(8) nontemporal(true) : memref<?x?xf32>
    memref.store %arg4, %arg1[%arg2, %arg3] : memref<?x?xf32>
    memref.store %0, %arg1[%arg2, %arg3] nontemporal(true) {test.x} : memref<?x?xf32>
    %dim = memref.dim %arg1, %arg2 : memref<?x?xf32>
    %dim_1 = memref.dim %arg6, %arg2 : memref<*xf32>
    %cast = memref.cast %arg1 : memref<?x?xf32> to memref<4x?xf32>
    %cast_2 = memref.cast %arg1 : memref<?x?xf32> to memref<*xf32>
    %cast_3 = memref.cast %arg5 : memref<4xf32> to memref<?xf32, strided<[?], offset: ?>>
    %subview = memref.subview %arg1[%arg2, 0] [4, 4] [1, 1] : memref<?x?xf32> to memref<4x4xf32, strided<[?, 1], offset: ?>>
    %subview_4 = memref.subview %arg1[%arg2, 0] [1, %arg0] [1, 2] : memref<?x?xf32> to memref<?xf32, strided<[2], offset: ?>>
    %subview_5 = memref.subview %arg5[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
    memref.copy %arg5, %arg5 : memref<4xf32> to memref<4xf32>
    %2 = memref.get_global @c : memref<2xf32>
    %reinterpret_cast = memref.reinterpret_cast %arg1 to offset: [0], sizes: [%arg0, 4], strides: [4, 1] : memref<?x?xf32> to memref<?x4xf32, strided<[4, 1]>>
    %reinterpret_cast_6 = memref.reinterpret_cast %arg6 to offset: [%arg2], sizes: [10], strides: [1] : memref<*xf32> to memref<10xf32, strided<[1], offset: ?>>
    memref.dealloc %alloc : memref<?x4xf32>
    return
  }
}

