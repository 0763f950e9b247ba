// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-tile{sizes=32},affine-tile{sizes=8}))' | filecheck %s

// Two runs: the second tiles the point loops of the first (the innermost rectangular band),
// its min bounds also respecting the outer tile's.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[UB1:.+]] = affine_map<(d0) -> (d0 + 32, 100)>
// CHECK-DAG: #[[UB2:.+]] = affine_map<(d0, d1) -> (d0 + 8, d1 + 32, 100)>
// CHECK-LABEL: func.func @two_levels
// CHECK: affine.for %[[T:.+]] = 0 to 100 step 32 {
// CHECK-NEXT: affine.for %[[U:.+]] = #[[ID]](%[[T]]) to min #[[UB1]](%[[T]]) step 8 {
// CHECK-NEXT: affine.for %[[I:.+]] = #[[ID]](%[[U]]) to min #[[UB2]](%[[U]], %[[T]]) {
// A trailing loop with iter_args stays in the body of the tiled band.
// CHECK-NEXT: affine.for %{{.+}} = 0 to 16 iter_args
func.func @two_levels(%A: memref<100x16xf32>) {
  %B = memref.alloc() : memref<100xf32>
  %z = arith.constant 0.0 : f32
  affine.for %i = 0 to 100 {
    %s = affine.for %j = 0 to 16 iter_args(%acc = %z) -> (f32) {
      %v = affine.load %A[%i, %j] : memref<100x16xf32>
      %t = arith.addf %acc, %v : f32
      affine.yield %t : f32
    }
    affine.store %s, %B[%i] : memref<100xf32>
  }
  return
}
