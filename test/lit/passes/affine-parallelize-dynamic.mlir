// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-parallelize{threads-only=true}))' | filecheck %s
// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-parallelize{threads-only=true runtime-min-work=0}))' | filecheck %s --check-prefix=NOVER
// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-parallelize))' | filecheck %s --check-prefix=MLIR
// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-parallelize{threads-only=true}),convert-to-llvm,reconcile-unrealized-casts)' | filecheck %s --check-prefix=LLVM

// A light loop with a dynamic trip count is tested on its run-time trip count: 2 ops per
// iteration, so the pool from 2^19 / 2 = 262144 trips on, i.e. (%n - %lo) >= (262144 - 1) * 2
// + 1; the thread-pool loop carries that extent, and convert-to-llvm calls the loop's outlined
// body on the calling thread below it (one copy of the nest).
// CHECK-LABEL: func.func @copy
// CHECK-NOT: affine.if
// CHECK: affine.parallel (%{{.+}}) = (symbol(%[[LO:.+]])) to (symbol(%[[N:.+]])) step (2048) {
// CHECK: } {mlc.parallel, mlc.parallel_min_extent = 524287 : i64}
// CHECK-NEXT: return
// NOVER-LABEL: func.func @copy
// NOVER-NOT: affine.if
// NOVER: } {mlc.parallel}
// Without threads-only, the chunk loop becomes affine.parallel too (MLIR's conversion).
// MLIR-LABEL: func.func @copy
// MLIR-NOT: affine.if
// MLIR: affine.parallel (%{{.+}}) = (%{{.+}}) to (min(%{{.+}} + 2048, symbol(%{{.+}}))) step (2) {
// MLIR: } {mlc.parallel, mlc.parallel_min_extent = 524287 : i64}
// LLVM-LABEL: llvm.func @copy(
// LLVM: %[[EXT:.+]] = llvm.mlir.constant(524287 : i64) : i64
// LLVM: %[[BODY:.+]] = llvm.mlir.addressof @copy_parallel_body : !llvm.ptr
// LLVM: %[[RANGE:.+]] = llvm.sub %[[UB:.+]], %[[LB:.+]] : i64
// LLVM: %[[BIG:.+]] = llvm.icmp "sge" %[[RANGE]], %[[EXT]] : i64
// LLVM: llvm.cond_br %[[BIG]], ^[[POOL:.+]], ^[[SERIAL:[^ ]+]]
// LLVM: ^[[SERIAL]]:
// LLVM-NEXT: llvm.call %[[BODY]](%[[LB]], %[[UB]], %[[CTX:.+]]) {no_inline} : !llvm.ptr, (i64, i64, !llvm.ptr) -> ()
// LLVM-NEXT: llvm.br ^[[DONE:.+]]
// LLVM: ^[[POOL]]:
// LLVM-NEXT: llvm.call @mlc_parallel_for(%[[BODY]], %[[CTX]], %[[LB]], %[[UB]], %{{.+}})
func.func @copy(%A: memref<?xf32>, %lo: index, %n: index) {
  %B = memref.alloc(%n) : memref<?xf32>
  affine.for %i = %lo to %n step 2 {
    %a = affine.load %A[%i] : memref<?xf32>
    affine.store %a, %B[%i] : memref<?xf32>
  }
  return
}

// -----

// A bound with several results (min) cannot be tested by one affine.if: the trip count is
// guessed at compile time (4,096: too little work for threads), as before.
// CHECK-LABEL: func.func @min_bound
// CHECK-NOT: mlc.parallel
// CHECK: return
func.func @min_bound(%A: memref<?xf32>, %n: index, %m: index) {
  affine.for %i = 0 to min affine_map<()[s0, s1] -> (s0, s1)>()[%n, %m] {
    %a = affine.load %A[%i] : memref<?xf32>
    affine.store %a, %A[%i] : memref<?xf32>
  }
  return
}

// -----

// A heavy body (2 x 1024 ops per row): from 256 rows on; the static inner loop stays inside.
// CHECK-LABEL: func.func @rows
// CHECK: affine.parallel (%{{.+}}) = (0) to (symbol(%{{.+}})) {
// CHECK-NEXT: affine.for %{{.+}} = 0 to 1024 {
// CHECK: } {mlc.parallel, mlc.parallel_min_extent = 256 : i64}
func.func @rows(%A: memref<?x1024xf32>, %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to 1024 {
      %a = affine.load %A[%i, %j] : memref<?x1024xf32>
      affine.store %a, %A[%i, %j] : memref<?x1024xf32>
    }
  }
  return
}
