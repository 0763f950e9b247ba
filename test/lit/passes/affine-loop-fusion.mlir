// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-loop-fusion),canonicalize)' --split-input-file --allow-unregistered-dialect | filecheck %s

// Softmax rows (as convert-tensor-to-affine lowers them): the row loops of the max, exp, sum
// and div nests fuse into one; inside it, exp and sum fuse (the sum's init store moves above
// the exp loop); max and div cannot join their neighbours (they need the whole row's max/sum).
// The per-row max and sum become loop-carried values and the exp row a private buffer.
// CHECK-LABEL: func.func @softmax_rows
//  CHECK-SAME: (%[[X:.+]]: memref<?x2048xf32>, %[[OUT:.+]]: memref<?x2048xf32>)
//       CHECK: affine.for %[[I:.+]] = 0 to %{{.+}} {
//  CHECK-NEXT:   %[[ROW:.+]] = memref.alloc() alignment = 64 : memref<2048xf32>
//  CHECK-NEXT:   %[[MAX:.+]] = affine.for %{{.+}} = 0 to 2048 iter_args(%[[M:.+]] = %{{.+}}) -> (f32) {
//       CHECK:     arith.maximumf
//       CHECK:   %[[SUM:.+]] = affine.for %[[J:.+]] = 0 to 2048 iter_args(%[[S:.+]] = %{{.+}}) -> (f32) {
//       CHECK:     arith.subf %{{.+}}, %[[MAX]]
//       CHECK:     math.exp
//       CHECK:     affine.store %{{.+}}, %[[ROW]][%[[J]]] : memref<2048xf32>
//       CHECK:     arith.addf
//       CHECK:   affine.for %[[K:.+]] = 0 to 2048 {
//  CHECK-NEXT:     %[[E:.+]] = affine.load %[[ROW]][%[[K]]] : memref<2048xf32>
//  CHECK-NEXT:     %[[D:.+]] = arith.divf %[[E]], %[[SUM]] : f32
//  CHECK-NEXT:     affine.store %[[D]], %[[OUT]][%[[I]], %[[K]]]
//       CHECK:   memref.dealloc %[[ROW]] : memref<2048xf32>
//  CHECK-NEXT: }
//  CHECK-NEXT: return
func.func @softmax_rows(%arg0: memref<?x2048xf32>, %arg1: memref<?x2048xf32>) {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0xFF800000 : f32
  %cst_0 = arith.constant 0.000000e+00 : f32
  %dim = memref.dim %arg0, %c0 : memref<?x2048xf32>
  %alloc = memref.alloc(%dim) alignment = 64 : memref<?xf32>
  affine.for %i = 0 to %dim {
    affine.store %cst, %alloc[%i] : memref<?xf32>
  }
  affine.for %i = 0 to %dim {
    affine.for %j = 0 to 2048 {
      %0 = affine.load %arg0[%i, %j] : memref<?x2048xf32>
      %1 = affine.load %alloc[%i] : memref<?xf32>
      %2 = arith.maximumf %0, %1 : f32
      affine.store %2, %alloc[%i] : memref<?xf32>
    }
  }
  %alloc_1 = memref.alloc(%dim) alignment = 64 : memref<?x2048xf32>
  affine.for %i = 0 to %dim {
    affine.for %j = 0 to 2048 {
      %0 = affine.load %arg0[%i, %j] : memref<?x2048xf32>
      %1 = affine.load %alloc[%i] : memref<?xf32>
      %2 = arith.subf %0, %1 : f32
      %3 = math.exp %2 : f32
      affine.store %3, %alloc_1[%i, %j] : memref<?x2048xf32>
    }
  }
  memref.dealloc %alloc : memref<?xf32>
  %alloc_2 = memref.alloc(%dim) alignment = 64 : memref<?xf32>
  affine.for %i = 0 to %dim {
    affine.store %cst_0, %alloc_2[%i] : memref<?xf32>
  }
  affine.for %i = 0 to %dim {
    affine.for %j = 0 to 2048 {
      %0 = affine.load %alloc_1[%i, %j] : memref<?x2048xf32>
      %1 = affine.load %alloc_2[%i] : memref<?xf32>
      %2 = arith.addf %0, %1 : f32
      affine.store %2, %alloc_2[%i] : memref<?xf32>
    }
  }
  affine.for %i = 0 to %dim {
    affine.for %j = 0 to 2048 {
      %0 = affine.load %alloc_1[%i, %j] : memref<?x2048xf32>
      %1 = affine.load %alloc_2[%i] : memref<?xf32>
      %2 = arith.divf %0, %1 : f32
      affine.store %2, %arg1[%i, %j] : memref<?x2048xf32>
    }
  }
  memref.dealloc %alloc_2 : memref<?xf32>
  memref.dealloc %alloc_1 : memref<?x2048xf32>
  return
}

// -----

// A small private row (below private-min-bytes) keeps its full size: a malloc per row would
// cost more than the row's work. The loops still fuse.
// CHECK-LABEL: func.func @small_rows_keep_their_buffer
//       CHECK: %[[T:.+]] = memref.alloc() {{.*}}: memref<64x16xf32>
//       CHECK: affine.for %[[I:.+]] = 0 to 64 {
//  CHECK-NEXT:   affine.for %[[J:.+]] = 0 to 16 {
//       CHECK:     affine.store %{{.+}}, %[[T]][%[[I]], %[[J]]]
//       CHECK:     affine.load %[[T]][%[[I]], %[[J]]]
//   CHECK-NOT: affine.for
//       CHECK: memref.dealloc %[[T]]
func.func @small_rows_keep_their_buffer(%a: memref<64x16xf32>, %b: memref<64x16xf32>) {
  %t = memref.alloc() : memref<64x16xf32>
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 16 {
      %0 = affine.load %a[%i, %j] : memref<64x16xf32>
      %1 = arith.negf %0 : f32
      affine.store %1, %t[%i, %j] : memref<64x16xf32>
    }
  }
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 16 {
      %0 = affine.load %t[%i, %j] : memref<64x16xf32>
      %1 = arith.mulf %0, %0 : f32
      affine.store %1, %b[%i, %j] : memref<64x16xf32>
    }
  }
  memref.dealloc %t : memref<64x16xf32>
  return
}

// -----

// Not fused: the consumer reads the next row (written by a later producer iteration).
// CHECK-LABEL: func.func @shifted_read
//       CHECK: affine.for
//       CHECK: affine.for
//   CHECK-NOT: affine.for
func.func @shifted_read(%a: memref<65xf32>, %t: memref<65xf32>, %b: memref<64xf32>) {
  affine.for %i = 0 to 64 {
    %0 = affine.load %a[%i] : memref<65xf32>
    affine.store %0, %t[%i] : memref<65xf32>
  }
  affine.for %i = 0 to 64 {
    %0 = affine.load %t[%i + 1] : memref<65xf32>
    affine.store %0, %b[%i] : memref<64xf32>
  }
  return
}

// -----

// Not fused: different bounds; and an op with unknown effects between two loops.
// CHECK-LABEL: func.func @not_fusible
//  CHECK-COUNT-4: affine.for
func.func @not_fusible(%a: memref<64xf32>, %b: memref<64xf32>) {
  affine.for %i = 0 to 64 {
    %0 = affine.load %a[%i] : memref<64xf32>
    affine.store %0, %b[%i] : memref<64xf32>
  }
  affine.for %i = 0 to 32 {
    %0 = affine.load %b[%i] : memref<64xf32>
    affine.store %0, %a[%i] : memref<64xf32>
  }
  affine.for %i = 0 to 16 {
    %0 = affine.load %a[%i] : memref<64xf32>
    affine.store %0, %b[%i] : memref<64xf32>
  }
  "test.opaque"() : () -> ()
  affine.for %i = 0 to 16 {
    %0 = affine.load %b[%i] : memref<64xf32>
    affine.store %0, %a[%i] : memref<64xf32>
  }
  return
}

// -----

// A contraction (matmul) keeps its epilogue in a nest of its own (contraction-microkernel's
// business), and nests with vector ops or affine.parallel are left alone.
// CHECK-LABEL: func.func @contraction_and_vectors
//  CHECK-COUNT-2: affine.for %{{.+}} = 0 to 8 {
//       CHECK: affine.parallel
//       CHECK: affine.for %{{.+}} = 0 to 8 step 8
//       CHECK: affine.for %{{.+}} = 0 to 8 {
func.func @contraction_and_vectors(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %c: memref<8x8xf32>, %v: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      affine.for %k = 0 to 8 {
        %0 = affine.load %a[%i, %k] : memref<8x8xf32>
        %1 = affine.load %b[%k, %j] : memref<8x8xf32>
        %2 = affine.load %c[%i, %j] : memref<8x8xf32>
        %3 = arith.mulf %0, %1 : f32
        %4 = arith.addf %2, %3 : f32
        affine.store %4, %c[%i, %j] : memref<8x8xf32>
      }
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %0 = affine.load %c[%i, %j] : memref<8x8xf32>
      %1 = arith.maximumf %0, %0 : f32
      affine.store %1, %c[%i, %j] : memref<8x8xf32>
    }
  }
  affine.parallel (%i) = (0) to (8) {
    %0 = affine.load %v[%i] : memref<8xf32>
    affine.store %0, %v[%i] : memref<8xf32>
  }
  affine.for %i = 0 to 8 step 8 {
    %0 = affine.vector_load %v[%i] : memref<8xf32>, vector<8xf32>
    affine.vector_store %0, %v[%i] : memref<8xf32>, vector<8xf32>
  }
  affine.for %i = 0 to 8 {
    %0 = affine.load %v[%i] : memref<8xf32>
    affine.store %0, %v[%i] : memref<8xf32>
  }
  return
}

// -----

// Siblings reading the same input fuse; loops sharing nothing stay apart (cost model).
// CHECK-LABEL: func.func @siblings
//       CHECK: affine.for
//  CHECK-NEXT:   affine.load %arg0
//       CHECK:   affine.load %arg0
//       CHECK: }
//  CHECK-NEXT: affine.for
//  CHECK-NEXT:   affine.load %arg3
//       CHECK: return
func.func @siblings(%a: memref<16xf32>, %b: memref<16xf32>, %c: memref<16xf32>, %d: memref<16xf32>, %e: memref<16xf32>) {
  affine.for %i = 0 to 16 {
    %0 = affine.load %a[%i] : memref<16xf32>
    affine.store %0, %b[%i] : memref<16xf32>
  }
  affine.for %i = 0 to 16 {
    %0 = affine.load %a[%i] : memref<16xf32>
    %1 = arith.negf %0 : f32
    affine.store %1, %c[%i] : memref<16xf32>
  }
  affine.for %i = 0 to 16 {
    %0 = affine.load %d[%i] : memref<16xf32>
    affine.store %0, %e[%i] : memref<16xf32>
  }
  return
}

// -----

// Layernorm's tail (as bufferize and convert-tensor-to-affine leave it): the rsqrt nest is
// bounded by a memref.dim of the keepdims view and reads a constant global. The dim folds to
// the view's size operand, loads of a global the function only reads are no dependence, so
// all three row loops fuse and the per-row buffer becomes an SSA value.
// CHECK-LABEL: func.func @rsqrt_rows(
// CHECK-SAME: %[[X:\w+]]: memref<?x8xf32>, %[[OUT:\w+]]: memref<?x8xf32>)
// CHECK: %[[G:.+]] = memref.get_global @eps : memref<f32>
// CHECK: %[[N:.+]] = memref.dim %[[X]]
// CHECK-NOT: memref.alloc
// CHECK: affine.for %[[I:.+]] = 0 to %[[N]] {
// CHECK-NEXT: %[[V:.+]] = affine.load %[[X]][%[[I]], 0]
// CHECK-NEXT: %[[R:.+]] = affine.for %{{.+}} = 0 to 1 iter_args(%[[A:.+]] = %[[V]]) -> (f32) {
// CHECK-NEXT: %[[E:.+]] = affine.load %[[G]][] : memref<f32>
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[A]], %[[E]]
// CHECK-NEXT: %[[Q:.+]] = math.rsqrt %[[S]]
// CHECK-NEXT: affine.yield %[[Q]]
// CHECK: affine.for %[[J:.+]] = 0 to 8 {
// CHECK: arith.mulf %{{.+}}, %[[R]]
// CHECK-NOT: affine.for
// CHECK: return
memref.global "private" constant @eps : memref<f32> = dense<1.0e-05>
func.func @rsqrt_rows(%x: memref<?x8xf32>, %out: memref<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %g = memref.get_global @eps : memref<f32>
  %n = memref.dim %x, %c0 : memref<?x8xf32>
  %v = memref.alloc(%n) : memref<?xf32>
  affine.for %i = 0 to %n {
    %0 = affine.load %x[%i, 0] : memref<?x8xf32>
    affine.store %0, %v[%i] : memref<?xf32>
  }
  %view = memref.reinterpret_cast %v to offset: [0], sizes: [%n, 1], strides: [1, 1] : memref<?xf32> to memref<?x1xf32>
  %m = memref.dim %view, %c0 : memref<?x1xf32>
  affine.for %i = 0 to %m {
    affine.for %j = 0 to 1 {
      %0 = affine.load %view[%i, %j] : memref<?x1xf32>
      %1 = affine.load %g[] : memref<f32>
      %2 = arith.addf %0, %1 : f32
      %3 = math.rsqrt %2 : f32
      affine.store %3, %view[%i, %j] : memref<?x1xf32>
    }
  }
  affine.for %i = 0 to %n {
    affine.for %j = 0 to 8 {
      %0 = affine.load %x[%i, %j] : memref<?x8xf32>
      %1 = affine.load %view[%i, 0] : memref<?x1xf32>
      %2 = arith.mulf %0, %1 : f32
      affine.store %2, %out[%i, %j] : memref<?x8xf32>
    }
  }
  memref.dealloc %v : memref<?xf32>
  return
}

// -----

// A global the function writes is not read-only: the loop reading it does not fuse with the
// loop writing it through another get_global of the same symbol.
// CHECK-LABEL: func.func @written_global(
// CHECK: affine.for
// CHECK: affine.store %{{.+}}, %{{.+}}[] : memref<f32>
// CHECK: affine.for
// CHECK: affine.load %{{.+}}[] : memref<f32>
memref.global "private" @acc : memref<f32> = dense<0.0>
func.func @written_global(%x: memref<8xf32>, %y: memref<8xf32>) {
  %g = memref.get_global @acc : memref<f32>
  %h = memref.get_global @acc : memref<f32>
  affine.for %i = 0 to 8 {
    %0 = affine.load %x[%i] : memref<8xf32>
    affine.store %0, %g[] : memref<f32>
  }
  affine.for %i = 0 to 8 {
    %0 = affine.load %h[] : memref<f32>
    affine.store %0, %y[%i] : memref<8xf32>
  }
  return
}
