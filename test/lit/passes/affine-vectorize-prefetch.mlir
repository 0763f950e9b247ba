// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-vectorize{vector-bits=256}))' --split-input-file | filecheck %s
// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-vectorize{vector-bits=256 prefetch=false}))' --split-input-file | filecheck %s --check-prefix=OFF
// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-vectorize{vector-bits=256}))' --dump-knobs=%t.json -o /dev/null
// RUN: filecheck %s --check-prefix=DUMP --input-file=%t.json
// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-vectorize{vector-bits=256 prefetch-distance=1}))' --split-input-file | filecheck %s --check-prefix=NEAR
// RUN: not mlc-opt %s -p 'builtin.module(func.func(affine-vectorize{prefetch-distance=3}))' --split-input-file 2>&1 | filecheck %s --check-prefix=BAD
// BAD: prefetch-distance must be 1, 2 or 4, got 3

// The knob sits at the row loop; asked only where the pattern is found.
// DUMP: "key": "@two_passes/affine.parallel:{{.+}}/0/prefetch",
// DUMP: "pass": "affine-vectorize",
// DUMP: "knob": "prefetch",
// DUMP: "key": "@two_passes/affine.parallel:{{.+}}/0/prefetch_distance",
// DUMP: "knob": "prefetch_distance",
// DUMP: "default": 2,
// DUMP-NOT: /prefetch",

// A row loop with two passes over the row of %x (a max, then exp-and-sum into %y's row):
// the last pass of the widest step prefetches the row of %x two ahead (`prefetch-distance`,
// default 2) and the current row of the output %y (for writing), one prefetch per 64-byte
// line (two vectors of 8 x f32). The exp pass is a heavy body: 2 accumulators (step 16), so
// one line per iteration.
// CHECK-LABEL: func.func @two_passes(
// CHECK-SAME:      %[[X:.*]]: memref<?x1024xf32>, %[[Y:.*]]: memref<?x1024xf32>, %[[S:.*]]: memref<?xf32>
// CHECK:         affine.parallel (%[[I:.*]]) =
// CHECK:           affine.for %[[J:.*]] = 0 to 1024 step 32 iter_args(
// CHECK-NOT:         affine.prefetch
// CHECK:           affine.for %[[K:.*]] = 0 to 1024 step 16 iter_args(
// CHECK:             affine.vector_load %[[X]][%[[I]], %[[K]]] : memref<?x1024xf32>, vector<8xf32>
// CHECK-NEXT:        affine.prefetch %[[X]][%[[I]] + 2, %[[K]]], read, locality<3>, data : memref<?x1024xf32>
// CHECK-NEXT:        affine.prefetch %[[Y]][%[[I]], %[[K]]], write, locality<3>, data : memref<?x1024xf32>
// CHECK:             affine.vector_load %[[X]][%[[I]], %[[K]] + 8] : memref<?x1024xf32>, vector<8xf32>
// CHECK-NOT:         affine.prefetch
// CHECK:             affine.yield
// OFF-LABEL: func.func @two_passes(
// OFF-NOT:     affine.prefetch
// NEAR-LABEL: func.func @two_passes(
// NEAR:          affine.prefetch %{{.*}}[%{{.*}} + 1, %{{.*}}], read, locality<3>, data
func.func @two_passes(%x: memref<?x1024xf32>, %y: memref<?x1024xf32>, %s: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?x1024xf32>
  affine.parallel (%i) = (0) to (symbol(%n)) {
    %m = affine.for %j = 0 to 1024 iter_args(%acc = %ninf) -> (f32) {
      %v = affine.load %x[%i, %j] : memref<?x1024xf32>
      %r = arith.maxnumf %v, %acc : f32
      affine.yield %r : f32
    }
    %t = affine.for %k = 0 to 1024 iter_args(%acc = %zero) -> (f32) {
      %v = affine.load %x[%i, %k] : memref<?x1024xf32>
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      affine.store %e, %y[%i, %k] : memref<?x1024xf32>
      %r = arith.addf %e, %acc : f32
      affine.yield %r : f32
    }
    affine.store %t, %s[%i] : memref<?xf32>
  }
  return
}

// -----

// One pass over each row (a row sum): the hardware prefetchers stream it; no prefetch.
// CHECK-LABEL: func.func @one_pass(
// CHECK-NOT:     affine.prefetch
// CHECK:         return
func.func @one_pass(%x: memref<?x1024xf32>, %s: memref<?xf32>, %n: index) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to %n {
    %t = affine.for %k = 0 to 1024 iter_args(%acc = %zero) -> (f32) {
      %v = affine.load %x[%i, %k] : memref<?x1024xf32>
      %r = arith.addf %v, %acc : f32
      affine.yield %r : f32
    }
    affine.store %t, %s[%i] : memref<?xf32>
  }
  return
}

// -----

// The buffer read twice is also written in the row loop: no prefetch of it.
// CHECK-LABEL: func.func @in_place(
// CHECK-NOT:     affine.prefetch
// CHECK:         return
func.func @in_place(%x: memref<?x1024xf32>, %n: index) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to %n {
    %t = affine.for %k = 0 to 1024 iter_args(%acc = %zero) -> (f32) {
      %v = affine.load %x[%i, %k] : memref<?x1024xf32>
      %r = arith.addf %v, %acc : f32
      affine.yield %r : f32
    }
    affine.for %k = 0 to 1024 {
      %v = affine.load %x[%i, %k] : memref<?x1024xf32>
      %d = arith.divf %v, %t : f32
      affine.store %d, %x[%i, %k] : memref<?x1024xf32>
    }
  }
  return
}

// -----

// A dynamic row length: the vectorizer splits the one pass into a main loop, a vector
// remainder loop and a scalar epilogue, which all read the row; they are one pass (only the
// main loop starts at the row's first column): no prefetch.
// CHECK-LABEL: func.func @one_dynamic_pass(
// CHECK-NOT:     affine.prefetch
// CHECK:         return
func.func @one_dynamic_pass(%x: memref<?x?xf32>, %s: memref<?xf32>, %n: index, %m: index) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to %n {
    %t = affine.for %k = 0 to %m iter_args(%acc = %zero) -> (f32) {
      %v = affine.load %x[%i, %k] : memref<?x?xf32>
      %r = arith.addf %v, %acc : f32
      affine.yield %r : f32
    }
    affine.store %t, %s[%i] : memref<?xf32>
  }
  return
}
