// RUN: mlc-opt %s -p 'builtin.module(convert-to-llvm)' | filecheck %s

// The micro-kernel's scratch buffers (memref.alloc {mlc.workspace}) come from the calling
// thread's workspace, kept across calls (mlc/runtime/workspace.py): acquire/release instead of
// malloc/free. A plain alloc still mallocs (a dynamic one: a small static one that dies in its
// block gets a stack slot, docs/lowering.md).
// CHECK-LABEL: llvm.func @scratch(
// CHECK: %[[P:.+]] = llvm.call @mlc_workspace_acquire(%{{.+}}) : (i64) -> !llvm.ptr
// CHECK: %[[Q:.+]] = llvm.call @mlc_workspace_acquire(%{{.+}}) : (i64) -> !llvm.ptr
// CHECK: llvm.call @malloc
// CHECK: llvm.call @free
// CHECK: llvm.call @mlc_workspace_release(%[[Q]]) : (!llvm.ptr) -> ()
// CHECK: llvm.call @mlc_workspace_release(%[[P]]) : (!llvm.ptr) -> ()
// CHECK: llvm.return
func.func @scratch(%n: index) {
  %a = memref.alloc() alignment = 64 {mlc.workspace} : memref<4x32x6xf32>
  %b = memref.alloc(%n) alignment = 64 {mlc.workspace} : memref<?x16xf32>
  %c = memref.alloc(%n) alignment = 64 : memref<?xf32>
  %z = arith.constant 0.0 : f32
  %i = arith.constant 0 : index
  memref.store %z, %a[%i, %i, %i] : memref<4x32x6xf32>
  memref.store %z, %b[%i, %i] : memref<?x16xf32>
  memref.store %z, %c[%i] : memref<?xf32>
  memref.dealloc %c : memref<?xf32>
  memref.dealloc %b : memref<?x16xf32>
  memref.dealloc %a : memref<4x32x6xf32>
  return
}
