// RUN: mlc-opt %s -p 'builtin.module(convert-to-llvm)' | filecheck %s
// RUN: mlc-opt %s -p 'builtin.module(convert-to-llvm,reconcile-unrealized-casts)' | %python -m mlc.tools.mlc_translate --mlir-to-llvmir | filecheck %s --check-prefix=IR

// (x86 host.) `alignment` and `nontemporal = true` of vector/memref loads and stores become the
// llvm.load/store properties (the alignment never below the element's); a function that
// stores non-temporally ends in `llvm.x86.sse.sfence` (`movnt*` stores are weakly ordered:
// the fence makes them visible before the caller or the thread pool learns of the end).
// CHECK-LABEL: llvm.func @stream(
// CHECK:         llvm.store %{{.+}}, %{{.+}} <alignment = 16, nontemporal> : vector<8xf32>, !llvm.ptr
// CHECK:         llvm.store %{{.+}}, %{{.+}} <alignment = 4> : vector<8xf32>, !llvm.ptr
// CHECK:         llvm.load %{{.+}} <alignment = 32, nontemporal> : !llvm.ptr -> vector<8xf32>
// CHECK:         llvm.call @llvm.x86.sse.sfence() : () -> ()
// CHECK-NEXT:    llvm.return
// IR-LABEL: define void @stream(
// IR:         store <8 x float> %{{.+}}, ptr %{{.+}}, align 16, !nontemporal ![[NT:[0-9]+]]
// IR:         load <8 x float>, ptr %{{.+}}, align 32, !nontemporal ![[NT]]
// IR:         call void @llvm.x86.sse.sfence()
// IR-NEXT:    ret void
// IR: ![[NT]] = !{i32 1}
func.func @stream(%y: memref<?x1024xf32>, %v: vector<8xf32>, %i: index, %j: index) {
  vector.store %v, %y[%i, %j] {alignment = 16 : i64, nontemporal = true} : memref<?x1024xf32>, vector<8xf32>
  vector.store %v, %y[%i, %j] {nontemporal = false} : memref<?x1024xf32>, vector<8xf32>
  %w = vector.load %y[%i, %j] {alignment = 32 : i64, nontemporal = true} : memref<?x1024xf32>, vector<8xf32>
  vector.store %w, %y[%j, %i] : memref<?x1024xf32>, vector<8xf32>
  return
}

// The fence goes at the end of the outlined body of a thread-pool loop (once per chunk), not
// after each store; a function without non-temporal stores has none.
// CHECK-LABEL: llvm.func internal @par_parallel_body(
// CHECK:         llvm.store {{.+}} <alignment = 16, nontemporal>
// CHECK:         llvm.call @llvm.x86.sse.sfence() : () -> ()
// CHECK-NEXT:    llvm.return
// CHECK-LABEL: llvm.func @par(
// CHECK-NOT:     sfence
// CHECK:         llvm.return
func.func @par(%y: memref<?x1024xf32>, %v: vector<8xf32>, %n: index) {
  affine.parallel (%i) = (0) to (symbol(%n)) {
    affine.for %j = 0 to 1024 step 8 {
      vector.store %v, %y[%i, %j] {alignment = 16 : i64, nontemporal = true} : memref<?x1024xf32>, vector<8xf32>
    }
  } {mlc.parallel}
  return
}
