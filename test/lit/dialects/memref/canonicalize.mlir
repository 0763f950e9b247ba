// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(canonicalize))' | filecheck %s

// memref folders: static dims become constants, dims of allocations their size operands,
// identity casts and cast round trips disappear, unused allocations and loads are dead.

// CHECK-LABEL: func.func @dim_static
// CHECK-SAME: (%[[M:.+]]: memref<4x?xf32>)
func.func @dim_static(%m: memref<4x?xf32>) -> (index, index) {
  // CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
  // CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
  // CHECK: %[[D:.+]] = memref.dim %[[M]], %[[C1]] : memref<4x?xf32>
  // CHECK: return %[[C4]], %[[D]]
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = memref.dim %m, %c0 : memref<4x?xf32>
  %d1 = memref.dim %m, %c1 : memref<4x?xf32>
  return %d0, %d1 : index, index
}

// -----

// CHECK-LABEL: func.func @dim_of_alloc
// CHECK-SAME: (%[[N:.+]]: index, %[[K:.+]]: index)
func.func @dim_of_alloc(%n: index, %k: index) -> index {
  // CHECK-NOT: memref.alloc
  // CHECK: return %[[K]]
  %c2 = arith.constant 2 : index
  %a = memref.alloc(%n, %k) : memref<?x4x?xf32>
  %d = memref.dim %a, %c2 : memref<?x4x?xf32>
  return %d : index
}

// -----

// CHECK-LABEL: func.func @dim_out_of_range_not_folded
func.func @dim_out_of_range_not_folded(%m: memref<*xf32>) -> index {
  // CHECK: memref.dim
  %c5 = arith.constant 5 : index
  %d = memref.dim %m, %c5 : memref<*xf32>
  return %d : index
}

// -----

// CHECK-LABEL: func.func @casts
// CHECK-SAME: (%[[M:.+]]: memref<?x?xf32>)
func.func @casts(%m: memref<?x?xf32>) -> (memref<?x?xf32>, memref<?x?xf32>, memref<4x?xf32>) {
  // CHECK: %[[C:.+]] = memref.cast %[[M]] : memref<?x?xf32> to memref<4x?xf32>
  // CHECK: return %[[M]], %[[M]], %[[C]]
  %same = memref.cast %m : memref<?x?xf32> to memref<?x?xf32>
  %c = memref.cast %m : memref<?x?xf32> to memref<4x?xf32>
  %back = memref.cast %c : memref<4x?xf32> to memref<?x?xf32>
  return %same, %back, %c : memref<?x?xf32>, memref<?x?xf32>, memref<4x?xf32>
}

// -----

// CHECK-LABEL: func.func @dead_memory_ops
func.func @dead_memory_ops(%m: memref<4xf32>, %i: index, %x: f32) {
  // CHECK-NOT: memref.alloc
  // CHECK-NOT: memref.load
  // CHECK-NOT: memref.subview
  // CHECK: memref.store
  %a = memref.alloc() : memref<8xf32>
  %b = memref.alloca() : memref<8xf32>
  %l = memref.load %m[%i] : memref<4xf32>
  %s = memref.subview %m[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
  memref.store %x, %m[%i] : memref<4xf32>
  return
}
