// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-parallelize{min-work=0}))' | filecheck %s
// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-parallelize{min-work=0 max-nested=1}))' | filecheck %s --check-prefix=MAX1
// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-parallelize{min-work=0 parallel-reductions=true}))' | filecheck %s --check-prefix=RED
// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-parallelize))' | filecheck %s --check-prefix=SMALL
// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-parallelize{threads-only=true min-work=0}))' | filecheck %s --check-prefix=THREADS

// Both loops are parallel (as MLIR's affine-parallelize); the outer one runs on the thread
// pool, the inner one stays sequential inside each thread. A dynamic bound becomes a symbol,
// and the trip count is tested at run time (4096 rows of 2 x 64 ops give one pool call 2^19).
// CHECK-LABEL: func.func @copy
// CHECK: affine.parallel (%[[I:.+]]) = (0) to (symbol(%{{.+}})) {
// CHECK-NEXT: affine.parallel (%[[J:.+]]) = (0) to (64) {
// CHECK: } {mlc.parallel, mlc.parallel_min_extent = 4096 : i64}
// MAX1-LABEL: func.func @copy
// MAX1: affine.parallel (%[[I:.+]]) = (0) to (symbol(%{{.+}})) {
// MAX1-NEXT: affine.for %{{.+}} = 0 to 64 {
// MAX1: } {mlc.parallel, mlc.parallel_min_extent = 4096 : i64}
// With threads-only, only the thread-pool loop is converted.
// THREADS-LABEL: func.func @copy
// THREADS: affine.parallel (%[[I:.+]]) = (0) to (symbol(%{{.+}})) {
// THREADS-NEXT: affine.for %{{.+}} = 0 to 64 {
// THREADS: } {mlc.parallel, mlc.parallel_min_extent = 4096 : i64}
func.func @copy(%A: memref<?x64xf32>, %n: index) {
  %B = memref.alloc(%n) : memref<?x64xf32>
  affine.for %i = 0 to %n {
    affine.for %j = 0 to 64 {
      %v = affine.load %A[%i, %j] : memref<?x64xf32>
      affine.store %v, %B[%i, %j] : memref<?x64xf32>
    }
  }
  return
}

// -----

// A reduction through memory (the k loop of a matmul) is not parallel; i and j are, and only
// the outermost one gets the thread pool.
// CHECK-LABEL: func.func @matmul
// CHECK: affine.parallel (%{{.+}}) = (0) to (16) {
// CHECK-NEXT: affine.parallel (%{{.+}}) = (0) to (8) {
// CHECK-NEXT: affine.for %{{.+}} = 0 to 4 {
// CHECK: } {mlc.parallel}
// CHECK-NOT: mlc.parallel
// Below the default min-work (16x8x4 iterations), threads cost more than they save.
// SMALL-LABEL: func.func @matmul
// SMALL-NOT: mlc.parallel
// SMALL-LABEL: func.func @sum
func.func @matmul() {
  %A = memref.alloc() : memref<16x4xf32>
  %B = memref.alloc() : memref<4x8xf32>
  %C = memref.alloc() : memref<16x8xf32>
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 8 {
      affine.for %k = 0 to 4 {
        %a = affine.load %A[%i, %k] : memref<16x4xf32>
        %b = affine.load %B[%k, %j] : memref<4x8xf32>
        %c = affine.load %C[%i, %j] : memref<16x8xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<16x8xf32>
      }
    }
  }
  return
}

// -----

// A loop-carried value (iter_args) is a reduction: converted only with parallel-reductions,
// into an affine.parallel with `reduce` that never runs on the thread pool (deterministic);
// the init is combined after the loop, as in MLIR.
// CHECK-LABEL: func.func @sum
// CHECK: affine.for %{{.+}} = 0 to 100 iter_args
// RED-LABEL: func.func @sum
// RED: %[[R:.+]] = affine.parallel (%{{.+}}) = (0) to (100) reduce ("addf") -> (f32) {
// RED-NEXT: %[[V:.+]] = affine.load
// RED-NEXT: affine.yield %[[V]] : f32
// RED-NEXT: {{^ *}}}{{$}}
// RED-NEXT: %[[T:.+]] = arith.addf %{{.+}}, %[[R]] : f32
// RED-NEXT: return %[[T]]
func.func @sum(%A: memref<100xf32>) -> f32 {
  %z = arith.constant 1.0 : f32
  %r = affine.for %i = 0 to 100 iter_args(%acc = %z) -> (f32) {
    %a = affine.load %A[%i] : memref<100xf32>
    %s = arith.addf %acc, %a : f32
    affine.yield %s : f32
  }
  return %r : f32
}

// -----

// Loop-carried dependences: a recurrence through memory, and a loop whose iterations write
// the same element; neither is parallel.
// CHECK-LABEL: func.func @sequential
// CHECK-NOT: affine.parallel
// CHECK: return
func.func @sequential(%A: memref<100xf32>, %x: f32) {
  affine.for %i = 1 to 100 {
    %a = affine.load %A[%i - 1] : memref<100xf32>
    affine.store %a, %A[%i] : memref<100xf32>
  }
  affine.for %i = 0 to 100 {
    affine.store %x, %A[0] : memref<100xf32>
  }
  return
}

// -----

// A nest that already has a thread-pool loop (e.g. from contraction-microkernel) is left
// alone: no nested parallelism.
// CHECK-LABEL: func.func @already_threaded
// CHECK: affine.parallel (%{{.+}}) = (0) to (64) {
// CHECK-NEXT: affine.for %{{.+}} = 0 to 64 {
// CHECK: } {mlc.parallel}
func.func @already_threaded(%A: memref<64x64xf32>) {
  %B = memref.alloc() : memref<64x64xf32>
  affine.parallel (%i) = (0) to (64) {
    affine.for %j = 0 to 64 {
      %v = affine.load %A[%i, %j] : memref<64x64xf32>
      affine.store %v, %B[%i, %j] : memref<64x64xf32>
    }
  } {mlc.parallel}
  return
}

// -----

// Innermost loops given the thread pool are strip-mined into chunks (knob `chunk`, default
// 1024) so that each parallel iteration runs an inner affine.for over its chunk.
// THREADS-DAG: #[[ID:.+]] = affine_map<(d0) -> (d0)>
// THREADS-DAG: #[[UB:.+]] = affine_map<(d0)[s0] -> (d0 + 1024, s0)>
// THREADS-LABEL: func.func @vector_add
// THREADS: affine.parallel (%[[C:.+]]) = (0) to (symbol(%[[N:.+]])) step (1024) {
// THREADS-NEXT: affine.for %{{.+}} = #[[ID]](%[[C]]) to min #[[UB]](%[[C]])[%[[N]]] {
// THREADS: } {mlc.parallel, mlc.parallel_min_extent = 131072 : i64}
func.func @vector_add(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {
  %C = memref.alloc(%n) : memref<?xf32>
  affine.for %i = 0 to %n {
    %a = affine.load %A[%i] : memref<?xf32>
    %b = affine.load %B[%i] : memref<?xf32>
    %s = arith.addf %a, %b : f32
    affine.store %s, %C[%i] : memref<?xf32>
  }
  return
}

// -----

// A column reduction: the row loop carries the accumulation, the column loop is parallel.
// Its chunk loop is hoisted outside the row loop (legal: each column is accumulated by one
// thread in row order), so one pool call covers the nest instead of one per row.
// THREADS-LABEL: func.func @column_sum
// THREADS: affine.parallel (%[[C:.+]]) = (0) to (2048) step (1024) {
// THREADS-NEXT: affine.for %[[I:.+]] = 0 to 2048 {
// THREADS-NEXT: affine.for %[[J:.+]] = #{{.+}}(%[[C]]) to #{{.+}}(%[[C]]) {
// THREADS-NEXT: affine.load %{{.+}}[%[[I]], %[[J]]]
// THREADS: } {mlc.parallel}
func.func @column_sum(%X: memref<2048x2048xf32>) {
  %S = memref.alloc() : memref<2048xf32>
  affine.for %i = 0 to 2048 {
    affine.for %j = 0 to 2048 {
      %x = affine.load %X[%i, %j] : memref<2048x2048xf32>
      %s = affine.load %S[%j] : memref<2048xf32>
      %t = arith.addf %x, %s : f32
      affine.store %t, %S[%j] : memref<2048xf32>
    }
  }
  return
}

// -----

// A nest marked `mlc.serial` (its producer chose one thread) is not offered to the pool.
// THREADS-LABEL: func.func @serial_nest
// THREADS: affine.for
// THREADS-NOT: mlc.parallel
// THREADS: {mlc.serial}
func.func @serial_nest(%A: memref<4096xf32>) {
  %B = memref.alloc() : memref<4096xf32>
  affine.for %i = 0 to 4096 {
    %a = affine.load %A[%i] : memref<4096xf32>
    affine.store %a, %B[%i] : memref<4096xf32>
  } {mlc.serial}
  return
}
