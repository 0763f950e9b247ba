// memref ops in custom form: allocation, access, views, globals (mlc's memref dialect).
memref.global "private" constant @c : memref<2xf32> = dense<[1.0, 2.0]>
memref.global @u : memref<4xi32> = uninitialized alignment = 16
memref.global "public" @z : memref<3xf32>
memref.global "private" @e : memref<f32> = dense<0.0> {test.attr}
func.func @f(%n: index, %m: memref<?x?xf32>, %i: index, %j: index, %v: f32, %s: memref<4xf32>, %u: memref<*xf32>) {
  %a = memref.alloc(%n) alignment = 64 : memref<?x4xf32>
  %b = memref.alloca() : memref<4x4xf32, 1>
  %b2 = memref.alloc(%n)[%i] : memref<?x4xf32, affine_map<(d0, d1)[s0] -> (d0 * 4 + d1 + s0)>>
  %l = memref.load %m[%i, %j] : memref<?x?xf32>
  %l2 = memref.load %m[%i, %j] nontemporal(true) alignment(8) : memref<?x?xf32>
  memref.store %v, %m[%i, %j] : memref<?x?xf32>
  memref.store %l, %m[%i, %j] nontemporal(true) {test.x} : memref<?x?xf32>
  %d = memref.dim %m, %i : memref<?x?xf32>
  %d2 = memref.dim %u, %i : memref<*xf32>
  %c = memref.cast %m : memref<?x?xf32> to memref<4x?xf32>
  %cu = memref.cast %m : memref<?x?xf32> to memref<*xf32>
  %cs = memref.cast %s : memref<4xf32> to memref<?xf32, strided<[?], offset: ?>>
  %sv = memref.subview %m[%i, 0] [4, 4] [1, 1] : memref<?x?xf32> to memref<4x4xf32, strided<[?, 1], offset: ?>>
  %sv2 = memref.subview %m[%i, 0] [1, %n] [1, 2] : memref<?x?xf32> to memref<?xf32, strided<[2], offset: ?>>
  %sv3 = memref.subview %s[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
  memref.copy %s, %s : memref<4xf32> to memref<4xf32>
  %g = memref.get_global @c : memref<2xf32>
  %r = memref.reinterpret_cast %m to offset: [0], sizes: [%n, 4], strides: [4, 1] : memref<?x?xf32> to memref<?x4xf32, strided<[4, 1]>>
  %r2 = memref.reinterpret_cast %u to offset: [%i], sizes: [10], strides: [1] : memref<*xf32> to memref<10xf32, strided<[1], offset: ?>>
  memref.dealloc %a : memref<?x4xf32>
  return
}
