// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-vectorize{vector-bits=256}))' --split-input-file | filecheck %s
// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-vectorize{vector-bits=256 prefetch-store-pass=false}))' --split-input-file | filecheck %s --check-prefix=OFF
// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-vectorize{vector-bits=256 prefetch-store-pass=true}))' --split-input-file | filecheck %s --check-prefix=ON
// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-vectorize{vector-bits=256 prefetch-distance=4}))' --split-input-file | filecheck %s --check-prefix=FAR
// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-vectorize{vector-bits=256}))' --dump-knobs=%t.json -o /dev/null
// RUN: filecheck %s --check-prefix=DUMP --input-file=%t.json
// RUN: not mlc-opt %s -p 'builtin.module(func.func(affine-vectorize{prefetch-store-pass=maybe}))' --split-input-file 2>&1 | filecheck %s --check-prefix=BAD
// BAD: error: invalid value 'maybe' for option 'prefetch-store-pass' of 'affine-vectorize': expected one of light, true, false

// The knob sits at the row loop, asked where a pass after the one carrying the row
// prefetches stores an output row: the light kernel's default is true, the heavy one's false.
// DUMP: "key": "@light/affine.for:{{.+}}/prefetch_store_pass",
// DUMP: "pass": "affine-vectorize",
// DUMP: "knob": "prefetch_store_pass",
// DUMP: "default": true
// DUMP: "key": "@heavy/affine.for:{{.+}}/prefetch_store_pass",
// DUMP: "default": false

// A layernorm-like row loop: a sum over the row of %x (4 accumulators, step 32: it carries
// the prefetches, one add per vector: light), the centered row stored into a row buffer, and
// the pass storing the output row %y, which prefetches the row of %x two ahead once more,
// once per iteration (step 8: twice per 64-byte line).
// CHECK-LABEL: func.func @light(
// CHECK-SAME:      %[[X:.*]]: memref<?x1024xf32>, %[[Y:.*]]: memref<?x1024xf32>
// CHECK:         affine.for %[[I:.*]] = 0 to
// CHECK:           affine.for %[[J:.*]] = 0 to 1024 step 32 iter_args(
// CHECK:             affine.prefetch %[[X]][%[[I]] + 2, %[[J]]], read, locality<3>, data
// CHECK:           affine.for %[[K:.*]] = 0 to 1024 step 8 {
// CHECK-NOT:         affine.prefetch
// CHECK:             affine.vector_store %{{.*}}, %[[BUF:.*]][%[[K]]] : memref<1024xf32>, vector<8xf32>
// CHECK:           affine.for %[[L:.*]] = 0 to 1024 step 8 {
// CHECK-NEXT:        affine.prefetch %[[X]][%[[I]] + 2, %[[L]]], read, locality<3>, data : memref<?x1024xf32>
// CHECK-NEXT:        affine.vector_load %[[BUF]][%[[L]]]
// CHECK:             affine.vector_store %{{.*}}, %[[Y]][%[[I]], %[[L]]] : memref<?x1024xf32>, vector<8xf32>
// OFF-LABEL: func.func @light(
// OFF:         affine.for %{{.*}} = 0 to 1024 step 8 {
// OFF-NOT:     affine.prefetch
// OFF:         return
// FAR-LABEL: func.func @light(
// FAR:         affine.for %{{.*}} = 0 to 1024 step 8 {
// FAR:         affine.for %[[L:.*]] = 0 to 1024 step 8 {
// FAR-NEXT:      affine.prefetch %{{.*}}[%{{.*}} + 4, %[[L]]], read
func.func @light(%x: memref<?x1024xf32>, %y: memref<?x1024xf32>, %n: index) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to %n {
    %buf = memref.alloc() : memref<1024xf32>
    %t = affine.for %k = 0 to 1024 iter_args(%acc = %zero) -> (f32) {
      %v = affine.load %x[%i, %k] : memref<?x1024xf32>
      %r = arith.addf %v, %acc : f32
      affine.yield %r : f32
    }
    affine.for %k = 0 to 1024 {
      %v = affine.load %x[%i, %k] : memref<?x1024xf32>
      %d = arith.subf %v, %t : f32
      affine.store %d, %buf[%k] : memref<1024xf32>
    }
    affine.for %k = 0 to 1024 {
      %d = affine.load %buf[%k] : memref<1024xf32>
      %e = arith.mulf %d, %t : f32
      affine.store %e, %y[%i, %k] : memref<?x1024xf32>
    }
    memref.dealloc %buf : memref<1024xf32>
  }
  return
}

// -----

// A softmax-like row loop: the pass carrying the prefetches computes an exp per element
// (weighed as the ~16 vector ops it expands into): heavy, so its store pass gets no prefetch
// by default (`prefetch-store-pass=true` forces it).
// CHECK-LABEL: func.func @heavy(
// CHECK:         affine.for %{{.*}} = 0 to 1024 step 16 iter_args(
// CHECK:           affine.prefetch
// CHECK:         affine.for %{{.*}} = 0 to 1024 step 8 {
// CHECK-NOT:       affine.prefetch
// CHECK:         return
// ON-LABEL: func.func @heavy(
// ON:          affine.for %[[L:.*]] = 0 to 1024 step 8 {
// ON-NEXT:       affine.prefetch %{{.*}}[%{{.*}} + 2, %[[L]]], read
func.func @heavy(%x: memref<?x1024xf32>, %y: memref<?x1024xf32>, %n: index) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  affine.for %i = 0 to %n {
    %buf = memref.alloc() : memref<1024xf32>
    %m = affine.for %k = 0 to 1024 iter_args(%acc = %ninf) -> (f32) {
      %v = affine.load %x[%i, %k] : memref<?x1024xf32>
      %r = arith.maxnumf %v, %acc : f32
      affine.yield %r : f32
    }
    %s = affine.for %k = 0 to 1024 iter_args(%acc = %zero) -> (f32) {
      %v = affine.load %x[%i, %k] : memref<?x1024xf32>
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      affine.store %e, %buf[%k] : memref<1024xf32>
      %r = arith.addf %e, %acc : f32
      affine.yield %r : f32
    }
    affine.for %k = 0 to 1024 {
      %e = affine.load %buf[%k] : memref<1024xf32>
      %q = arith.divf %e, %s : f32
      affine.store %q, %y[%i, %k] : memref<?x1024xf32>
    }
    memref.dealloc %buf : memref<1024xf32>
  }
  return
}

// -----

// The pass carrying the prefetches stores the output row itself (a reduction too: step 32,
// the last pass covering a line); no pass after it: no knob, no second prefetch.
// CHECK-LABEL: func.func @no_store_pass(
// CHECK:         affine.for %{{.*}} = 0 to 1024 step 32 iter_args(
// CHECK-NOT:       affine.prefetch
// CHECK:         affine.for %{{.*}} = 0 to 1024 step 32 iter_args(
// CHECK-COUNT-4:   affine.prefetch
// CHECK-NOT:     affine.prefetch
// CHECK:         return
// DUMP-NOT: "@no_store_pass/{{.*}}/prefetch_store_pass"
func.func @no_store_pass(%x: memref<?x1024xf32>, %y: memref<?x1024xf32>, %s: memref<?xf32>, %n: index) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to %n {
    %m = affine.for %j = 0 to 1024 iter_args(%acc = %zero) -> (f32) {
      %v = affine.load %x[%i, %j] : memref<?x1024xf32>
      %r = arith.addf %v, %acc : f32
      affine.yield %r : f32
    }
    %q = affine.for %k = 0 to 1024 iter_args(%acc = %zero) -> (f32) {
      %v = affine.load %x[%i, %k] : memref<?x1024xf32>
      %d = arith.subf %v, %m : f32
      affine.store %d, %y[%i, %k] : memref<?x1024xf32>
      %r = arith.addf %d, %acc : f32
      affine.yield %r : f32
    }
    affine.store %q, %s[%i] : memref<?xf32>
  }
  return
}
