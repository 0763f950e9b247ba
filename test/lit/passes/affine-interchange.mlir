// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-interchange))' | filecheck %s

// A column-order copy: the stride-1 loop (%j over the last dim) goes innermost.
// CHECK-LABEL: func.func @column_order_copy
// CHECK: affine.for %[[I:.+]] = 0 to 64 {
// CHECK-NEXT: affine.for %[[J:.+]] = 0 to 128 {
// CHECK-NEXT: affine.load %{{.+}}[%[[I]], %[[J]]]
func.func @column_order_copy(%A: memref<64x128xf32>) {
  %B = memref.alloc() : memref<64x128xf32>
  affine.for %j = 0 to 128 {
    affine.for %i = 0 to 64 {
      %v = affine.load %A[%i, %j] : memref<64x128xf32>
      affine.store %v, %B[%i, %j] : memref<64x128xf32>
    }
  }
  return
}

// -----

// Matmul i, j, k: the reduction loop k moves out so that j (stride 1 in B and C, A invariant)
// is innermost; the accumulation order over k of each C element is kept.
// CHECK-LABEL: func.func @matmul
// CHECK: affine.for %[[I:.+]] = 0 to %{{.+}} {
// CHECK-NEXT: affine.for %[[K:.+]] = 0 to 32 {
// CHECK-NEXT: affine.for %[[J:.+]] = 0 to 48 {
// CHECK-NEXT: affine.load %{{.+}}[%[[I]], %[[K]]]
func.func @matmul(%n: index) {
  %A = memref.alloc(%n) : memref<?x32xf32>
  %B = memref.alloc() : memref<32x48xf32>
  %C = memref.alloc(%n) : memref<?x48xf32>
  affine.for %i = 0 to %n {
    affine.for %j = 0 to 48 {
      affine.for %k = 0 to 32 {
        %a = affine.load %A[%i, %k] : memref<?x32xf32>
        %b = affine.load %B[%k, %j] : memref<32x48xf32>
        %c = affine.load %C[%i, %j] : memref<?x48xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<?x48xf32>
      }
    }
  }
  return
}

// -----

// Illegal: interchanging would reverse the (<, >) dependence, so the order stays even though
// the inner loop is the strided one.
// CHECK-LABEL: func.func @wavefront
// CHECK: affine.for %[[J:.+]] = 0 to 99 {
// CHECK-NEXT: affine.for %[[I:.+]] = 1 to 100 {
// CHECK-NEXT: affine.load %{{.+}}[%[[I]] - 1, %[[J]] + 1]
func.func @wavefront(%A: memref<100x100xf32>) {
  affine.for %j = 0 to 99 {
    affine.for %i = 1 to 100 {
      %a = affine.load %A[%i - 1, %j + 1] : memref<100x100xf32>
      affine.store %a, %A[%i, %j] : memref<100x100xf32>
    }
  }
  return
}

// -----

// Left alone: a nest whose inner bound uses the outer iv, an inner loop with iter_args, and
// an imperfect nest.
// CHECK-LABEL: func.func @not_candidates
// CHECK: affine.for %[[J:.+]] = 0 to 64 {
// CHECK-NEXT: affine.for %{{.+}} = #{{.+}}(%[[J]]) to 64 {
// CHECK: affine.for %{{.+}} = 0 to 64 {
// CHECK-NEXT: affine.for %{{.+}} = 0 to 64 iter_args
// CHECK: affine.for %[[J2:.+]] = 0 to 64 {
// CHECK-NEXT: affine.store
// CHECK-NEXT: affine.for %{{.+}} = 0 to 64 {
func.func @not_candidates(%A: memref<64x64xf32>, %R: memref<64xf32>) {
  %B = memref.alloc() : memref<64x64xf32>
  affine.for %j = 0 to 64 {
    affine.for %i = affine_map<(d0) -> (d0)>(%j) to 64 {
      %v = affine.load %A[%i, %j] : memref<64x64xf32>
      affine.store %v, %B[%i, %j] : memref<64x64xf32>
    }
  }
  %z = arith.constant 0.0 : f32
  affine.for %j = 0 to 64 {
    %s = affine.for %i = 0 to 64 iter_args(%acc = %z) -> (f32) {
      %v = affine.load %B[%i, %j] : memref<64x64xf32>
      %t = arith.addf %acc, %v : f32
      affine.yield %t : f32
    }
    affine.store %s, %R[%j] : memref<64xf32>
  }
  affine.for %j = 0 to 64 {
    affine.store %z, %R[%j] : memref<64xf32>
    affine.for %i = 0 to 64 {
      %v = affine.load %B[%i, %j] : memref<64x64xf32>
      affine.store %v, %B[%j, %i] : memref<64x64xf32>
    }
  }
  return
}
