// RUN: mlc-opt %s | mlc-opt | filecheck %s
// RUN: mlc-opt %s --mlir-print-op-generic | mlc-opt | filecheck %s
// RUN: mlc-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: mlc-opt %s -p 'builtin.module(canonicalize,cse)' | filecheck %s --check-prefix=KEPT
// RUN: mlc-opt %s -p 'builtin.module(convert-to-llvm,reconcile-unrealized-casts)' | filecheck %s --check-prefix=LLVM
// RUN: mlc-opt %s -p 'builtin.module(convert-to-llvm,reconcile-unrealized-casts)' | %python -m mlc.tools.mlc_translate --mlir-to-llvmir | filecheck %s --check-prefix=IR

// affine.prefetch: MLIR's syntax (read/write, locality<0..3>, data/instr); the subscripts
// are affine like affine.load's.
// CHECK-LABEL: func.func @prefetch(
// CHECK-SAME:      %[[A:.*]]: memref<?x1024xf32>, %[[N:.*]]: index)
// CHECK:         affine.for %[[I:.*]] = 0 to %[[N]] {
// CHECK:           affine.for %[[J:.*]] = 0 to 1024 step 16 {
// CHECK-NEXT:        affine.prefetch %[[A]][%[[I]] + 1, %[[J]]], read, locality<3>, data : memref<?x1024xf32>
// CHECK-NEXT:        affine.prefetch %[[A]][%[[I]], %[[J]] + symbol(%[[N]])], write, locality<0>, instr : memref<?x1024xf32>
// GENERIC: "affine.prefetch"(%{{.*}}, %{{.*}}, %{{.*}}) <{isDataCache = true, isWrite = false, localityHint = 3 : i32, map = #{{.*}}}> : (memref<?x1024xf32>, index, index) -> ()
// A prefetch has no results but is not dead: canonicalize and cse keep it.
// KEPT-COUNT-2: affine.prefetch
// Lowered to the element's address (a GEP without inbounds: a prefetch may point past the
// buffer) and llvm.intr.prefetch with rw/hint/cache.
// LLVM-LABEL: llvm.func @prefetch(
// LLVM:         %[[P:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// LLVM-NEXT:    "llvm.intr.prefetch"(%[[P]]) <{cache = 1 : i32, hint = 3 : i32, rw = 0 : i32}> : (!llvm.ptr) -> ()
// LLVM:         "llvm.intr.prefetch"(%{{.*}}) <{cache = 0 : i32, hint = 0 : i32, rw = 1 : i32}> : (!llvm.ptr) -> ()
// IR:      %[[Q:.*]] = getelementptr float, ptr %{{.*}}, i64 %{{.*}}
// IR-NEXT: call void @llvm.prefetch.p0(ptr %[[Q]], i32 0, i32 3, i32 1)
// IR:      call void @llvm.prefetch.p0(ptr %{{.*}}, i32 1, i32 0, i32 0)
// IR:      declare void @llvm.prefetch.p0(ptr, i32, i32, i32)
func.func @prefetch(%A: memref<?x1024xf32>, %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to 1024 step 16 {
      affine.prefetch %A[%i + 1, %j], read, locality<3>, data : memref<?x1024xf32>
      affine.prefetch %A[%i, %j + symbol(%n)], write, locality<0>, instr : memref<?x1024xf32>
    }
  }
  return
}
