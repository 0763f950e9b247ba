// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-tile{sizes=32,16}))' | filecheck %s
// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-loop-tile{tile-sizes=32,16}))' | filecheck %s

// Partial tiles: min bounds against a constant (100 is not a multiple of 32) and a dynamic
// upper bound; the original loops become the point loops.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[UB0:.+]] = affine_map<(d0) -> (d0 + 32, 100)>
// CHECK-DAG: #[[UB1:.+]] = affine_map<(d0)[s0] -> (d0 + 16, s0)>
// CHECK-LABEL: func.func @partial_and_dynamic
// CHECK-SAME: (%[[A:.+]]: memref<100x90xf32>, %[[N:.+]]: index)
// CHECK: affine.for %[[TI:.+]] = 0 to 100 step 32 {
// CHECK-NEXT: affine.for %[[TJ:.+]] = 0 to %[[N]] step 16 {
// CHECK-NEXT: affine.for %[[I:.+]] = #[[ID]](%[[TI]]) to min #[[UB0]](%[[TI]]) {
// CHECK-NEXT: affine.for %[[J:.+]] = #[[ID]](%[[TJ]]) to min #[[UB1]](%[[TJ]])[%[[N]]] {
// CHECK-NEXT: affine.load %[[A]][%[[I]], %[[J]]]
func.func @partial_and_dynamic(%A: memref<100x90xf32>, %n: index) {
  %B = memref.alloc() : memref<100x90xf32>
  affine.for %i = 0 to 100 {
    affine.for %j = 0 to %n {
      %v = affine.load %A[%i, %j] : memref<100x90xf32>
      affine.store %v, %B[%i, %j] : memref<100x90xf32>
    }
  }
  return
}

// -----

// Tile sizes dividing the range need no min; a step multiplies the tile loop's step; a size
// reaching the trip count leaves the loop untiled.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[P32:.+]] = affine_map<(d0) -> (d0 + 32)>
// CHECK-LABEL: func.func @exact_and_stepped
// CHECK: affine.for %[[TI:.+]] = 0 to 128 step 32 {
// CHECK-NEXT: affine.for %[[I:.+]] = #[[ID]](%[[TI]]) to #[[P32]](%[[TI]]) {
// CHECK-NEXT: affine.for %[[J:.+]] = 0 to 12 step 3 {
func.func @exact_and_stepped(%A: memref<128x16xf32>) {
  %B = memref.alloc() : memref<128x16xf32>
  affine.for %i = 0 to 128 {
    affine.for %j = 0 to 12 step 3 {
      %v = affine.load %A[%i, %j] : memref<128x16xf32>
      affine.store %v, %B[%i, %j] : memref<128x16xf32>
    }
  }
  return
}

// -----

// Not tiled: a dependence with directions (<, >) (tiling would reverse it). In a triangular
// (non-rectangular) nest only the inner loop, a band of its own, is tiled.
// CHECK-LABEL: func.func @illegal_stencil
// CHECK: affine.for %{{.+}} = 1 to 100 {
// CHECK-NEXT: affine.for %{{.+}} = 0 to 99 {
func.func @illegal_stencil(%A: memref<100x100xf32>) {
  affine.for %i = 1 to 100 {
    affine.for %j = 0 to 99 {
      %a = affine.load %A[%i - 1, %j + 1] : memref<100x100xf32>
      affine.store %a, %A[%i, %j] : memref<100x100xf32>
    }
  }
  return
}

// CHECK-LABEL: func.func @triangular
// CHECK: affine.for %[[I:.+]] = 0 to 100 {
// CHECK-NEXT: affine.for %[[T:.+]] = 0 to #{{.+}}(%[[I]]) step 32 {
// CHECK-NEXT: affine.for %{{.+}} = #{{.+}}(%[[T]]) to min #{{.+}}(%[[T]], %[[I]]) {
func.func @triangular(%A: memref<100x100xf32>) {
  %B = memref.alloc() : memref<100x100xf32>
  affine.for %i = 0 to 100 {
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      %a = affine.load %A[%i, %j] : memref<100x100xf32>
      affine.store %a, %B[%i, %j] : memref<100x100xf32>
    }
  }
  return
}

// -----

// A reduction nest (matmul) is fully permutable: tiled; the accumulator's direction '*' on k
// is a reduction the tiling keeps in order.
// CHECK-LABEL: func.func @matmul
// CHECK: affine.for %{{.+}} = 0 to 64 step 32 {
// CHECK-NEXT: affine.for %{{.+}} = 0 to 48 step 16 {
// CHECK-NEXT: affine.for %{{.+}} = 0 to 40 step 16 {
func.func @matmul() {
  %A = memref.alloc() : memref<64x40xf32>
  %B = memref.alloc() : memref<40x48xf32>
  %C = memref.alloc() : memref<64x48xf32>
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 48 {
      affine.for %k = 0 to 40 {
        %a = affine.load %A[%i, %k] : memref<64x40xf32>
        %b = affine.load %B[%k, %j] : memref<40x48xf32>
        %c = affine.load %C[%i, %j] : memref<64x48xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<64x48xf32>
      }
    }
  }
  return
}
