// RUN: mlc-opt %s | mlc-opt | filecheck %s
// RUN: mlc-opt %s --mlir-print-op-generic | mlc-opt | filecheck %s

// Every memref op in its custom form; both the custom and the generic print read back the same.

// CHECK: memref.global "private" constant @cst : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]>
memref.global "private" constant @cst : memref<2xf32> = dense<[1.0, 2.0]>
// CHECK: memref.global @uninit : memref<4xi32> = uninitialized alignment = 16
memref.global @uninit : memref<4xi32> = uninitialized alignment = 16
// CHECK: memref.global "public" @decl : memref<3xf32>{{$}}
memref.global "public" @decl : memref<3xf32>
// CHECK: memref.global "private" @scalar : memref<f32> = dense<0.000000e+00> {test.attr}
memref.global "private" @scalar : memref<f32> = dense<0.0> {test.attr}

// CHECK-LABEL: func.func @alloc
func.func @alloc(%n: index, %s: index) {
  // CHECK: %[[A:.+]] = memref.alloc(%{{.+}}) alignment = 64 : memref<?x4xf32>
  %a = memref.alloc(%n) alignment = 64 : memref<?x4xf32>
  // CHECK: memref.alloc(%{{.+}})[%{{.+}}] : memref<?x4xf32, #{{.+}}>
  %b = memref.alloc(%n)[%s] : memref<?x4xf32, affine_map<(d0, d1)[s0] -> (d0 * 4 + d1 + s0)>>
  // CHECK: memref.alloca() : memref<4x4xf32, 1>
  %c = memref.alloca() : memref<4x4xf32, 1>
  // The attribute-dictionary spelling of older MLIR is accepted too.
  // CHECK: memref.alloca() alignment = 8 : memref<2xf32>
  %d = memref.alloca() {alignment = 8 : i64} : memref<2xf32>
  // CHECK: memref.dealloc %[[A]] : memref<?x4xf32>
  memref.dealloc %a : memref<?x4xf32>
  return
}

// CHECK-LABEL: func.func @access
func.func @access(%m: memref<?x?xf32>, %i: index, %j: index, %v: f32, %z: memref<f32>) -> f32 {
  // CHECK: %[[L:.+]] = memref.load %{{.+}}[%{{.+}}, %{{.+}}] : memref<?x?xf32>
  %l = memref.load %m[%i, %j] : memref<?x?xf32>
  // CHECK: memref.load %{{.+}}[%{{.+}}, %{{.+}}] alignment(8) nontemporal(true) : memref<?x?xf32>
  %l2 = memref.load %m[%i, %j] nontemporal(true) alignment(8) : memref<?x?xf32>
  // CHECK: memref.load %{{.+}}[] : memref<f32>
  %l3 = memref.load %z[] : memref<f32>
  // CHECK: memref.store %[[L]], %{{.+}}[%{{.+}}, %{{.+}}] : memref<?x?xf32>
  memref.store %l, %m[%i, %j] : memref<?x?xf32>
  // CHECK: memref.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] nontemporal(true) {test.x} : memref<?x?xf32>
  memref.store %v, %m[%i, %j] nontemporal(true) {test.x} : memref<?x?xf32>
  return %l : f32
}

// CHECK-LABEL: func.func @views
func.func @views(%m: memref<?x?xf32>, %i: index, %n: index, %s: memref<4xf32>, %u: memref<*xf32>) {
  // CHECK: memref.dim %{{.+}}, %{{.+}} : memref<?x?xf32>
  %d = memref.dim %m, %i : memref<?x?xf32>
  // CHECK: memref.dim %{{.+}}, %{{.+}} : memref<*xf32>
  %d2 = memref.dim %u, %i : memref<*xf32>
  // CHECK: %{{.+}} = memref.extract_aligned_pointer_as_index %{{.+}} : memref<?x?xf32> -> index
  %p = memref.extract_aligned_pointer_as_index %m : memref<?x?xf32> -> index
  // CHECK: memref.cast %{{.+}} : memref<?x?xf32> to memref<4x?xf32>
  %c = memref.cast %m : memref<?x?xf32> to memref<4x?xf32>
  // CHECK: memref.cast %{{.+}} : memref<?x?xf32> to memref<*xf32>
  %c2 = memref.cast %m : memref<?x?xf32> to memref<*xf32>
  // CHECK: memref.cast %{{.+}} : memref<4xf32> to memref<?xf32, strided<[?], offset: ?>>
  %c3 = memref.cast %s : memref<4xf32> to memref<?xf32, strided<[?], offset: ?>>
  // CHECK: memref.subview %{{.+}}[%{{.+}}, 0] [4, 4] [1, 1] : memref<?x?xf32> to memref<4x4xf32, strided<[?, 1], offset: ?>>
  %sv = memref.subview %m[%i, 0] [4, 4] [1, 1] : memref<?x?xf32> to memref<4x4xf32, strided<[?, 1], offset: ?>>
  // Rank-reducing, with a dynamic size and a static stride.
  // CHECK: memref.subview %{{.+}}[%{{.+}}, 0] [1, %{{.+}}] [1, 2] : memref<?x?xf32> to memref<?xf32, strided<[2], offset: ?>>
  %sv2 = memref.subview %m[%i, 0] [1, %n] [1, 2] : memref<?x?xf32> to memref<?xf32, strided<[2], offset: ?>>
  // CHECK: memref.subview %{{.+}}[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
  %sv3 = memref.subview %s[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
  // CHECK: memref.copy %{{.+}}, %{{.+}} : memref<4xf32> to memref<4xf32>
  memref.copy %s, %s : memref<4xf32> to memref<4xf32>
  // CHECK: memref.reinterpret_cast %{{.+}} to offset: [0], sizes: [%{{.+}}, 4], strides: [4, 1] : memref<?x?xf32> to memref<?x4xf32, strided<[4, 1]>>
  %r = memref.reinterpret_cast %m to offset: [0], sizes: [%n, 4], strides: [4, 1] : memref<?x?xf32> to memref<?x4xf32, strided<[4, 1]>>
  // CHECK: memref.reinterpret_cast %{{.+}} to offset: [%{{.+}}], sizes: [10], strides: [1] : memref<*xf32> to memref<10xf32, strided<[1], offset: ?>>
  %r2 = memref.reinterpret_cast %u to offset: [%i], sizes: [10], strides: [1] : memref<*xf32> to memref<10xf32, strided<[1], offset: ?>>
  return
}

// CHECK-LABEL: func.func @globals
func.func @globals() -> memref<2xf32> {
  // CHECK: %[[G:.+]] = memref.get_global @cst : memref<2xf32>
  %g = memref.get_global @cst : memref<2xf32>
  // CHECK: return %[[G]]
  return %g : memref<2xf32>
}
