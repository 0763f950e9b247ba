// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-loop-fusion{mode=producer}))' | filecheck %s --check-prefix=PRODUCER
// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-loop-fusion{mode=sibling}))' | filecheck %s --check-prefix=SIBLING
// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-loop-fusion))' | filecheck %s --check-prefix=GREEDY
// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-loop-fusion{fusion-maximal=true}))' | filecheck %s --check-prefix=MAXIMAL
// RUN: not mlc-opt %s -p 'builtin.module(func.func(affine-loop-fusion{private-min-bytes=-1}))' 2>&1 | filecheck %s --check-prefix=BAD
// BAD: error: affine-loop-fusion: private-min-bytes must be >= 0

// The second loop reads what the first writes.
// PRODUCER-LABEL: func.func @producer_consumer
//  PRODUCER-COUNT-1: affine.for
//   PRODUCER-NOT: affine.for
// SIBLING-LABEL: func.func @producer_consumer
//  SIBLING-COUNT-2: affine.for
// GREEDY-LABEL: func.func @producer_consumer
//  GREEDY-COUNT-1: affine.for
//   GREEDY-NOT: affine.for
func.func @producer_consumer(%a: memref<16xf32>, %t: memref<16xf32>, %b: memref<16xf32>) {
  affine.for %i = 0 to 16 {
    %0 = affine.load %a[%i] : memref<16xf32>
    affine.store %0, %t[%i] : memref<16xf32>
  }
  affine.for %i = 0 to 16 {
    %0 = affine.load %t[%i] : memref<16xf32>
    affine.store %0, %b[%i] : memref<16xf32>
  }
  return
}

// -----

// The two loops only share an input.
// PRODUCER-LABEL: func.func @siblings
//  PRODUCER-COUNT-2: affine.for
// SIBLING-LABEL: func.func @siblings
//  SIBLING-COUNT-1: affine.for
//   SIBLING-NOT: affine.for
// GREEDY-LABEL: func.func @siblings
//  GREEDY-COUNT-1: affine.for
//   GREEDY-NOT: affine.for
func.func @siblings(%a: memref<16xf32>, %t: memref<16xf32>, %c: memref<16xf32>) {
  affine.for %i = 0 to 16 {
    %0 = affine.load %a[%i] : memref<16xf32>
    affine.store %0, %t[%i] : memref<16xf32>
  }
  affine.for %i = 0 to 16 {
    %0 = affine.load %a[%i] : memref<16xf32>
    affine.store %0, %c[%i] : memref<16xf32>
  }
  return
}

// -----

// Nothing shared: the cost model says no, fusion-maximal says yes.
// GREEDY-LABEL: func.func @unrelated
//  GREEDY-COUNT-2: affine.for
// MAXIMAL-LABEL: func.func @unrelated
// SIBLING-LABEL: func.func @unrelated
// PRODUCER-LABEL: func.func @unrelated
//  MAXIMAL-COUNT-1: affine.for
//   MAXIMAL-NOT: affine.for
func.func @unrelated(%a: memref<16xf32>, %b: memref<16xf32>, %d: memref<16xf32>, %e: memref<16xf32>) {
  affine.for %i = 0 to 16 {
    %0 = affine.load %a[%i] : memref<16xf32>
    affine.store %0, %b[%i] : memref<16xf32>
  }
  affine.for %i = 0 to 16 {
    %0 = affine.load %d[%i] : memref<16xf32>
    affine.store %0, %e[%i] : memref<16xf32>
  }
  return
}
