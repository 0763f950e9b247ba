// RUN: mlc-opt %s -p 'builtin.module(convert-to-llvm)' | filecheck %s

// A static buffer of at most 32 KiB used only in place and freed in its own block (a row
// kernel's per-row buffer) gets one stack slot at the top of the entry block, reused by every
// execution of the alloc: no malloc/free per row. Its dealloc is a no-op.
// CHECK-LABEL: llvm.func @per_row(
// CHECK:         %[[ONE:.+]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:    %{{.+}} = llvm.alloca %[[ONE]] x !llvm.array<4096 x i8> {alignment = 64 : i64} : (i64) -> !llvm.ptr
// CHECK-NOT:     malloc
// CHECK-NOT:     free
// CHECK:         llvm.return
func.func @per_row(%x: memref<?x1024xf32>, %n: index) {
  affine.for %i = 0 to %n {
    %row = memref.alloc() alignment = 64 : memref<1024xf32>
    affine.for %j = 0 to 1024 {
      %v = affine.load %x[%i, %j] : memref<?x1024xf32>
      affine.store %v, %row[%j] : memref<1024xf32>
    }
    affine.for %j = 0 to 1024 {
      %v = affine.load %row[%j] : memref<1024xf32>
      affine.store %v, %x[%i, %j] : memref<?x1024xf32>
    }
    memref.dealloc %row : memref<1024xf32>
  }
  return
}

// Kept on the heap: a buffer that escapes into a call, one larger than 32 KiB, a dynamic
// one, and one freed in another block than its own.
// CHECK-LABEL: llvm.func @heap(
// CHECK-NOT:     llvm.alloca
// CHECK-COUNT-4: llvm.call @malloc
// CHECK:         llvm.return
func.func private @use(memref<8xf32>)
func.func @heap(%n: index, %c: i1) {
  %a = memref.alloc() : memref<8xf32>
  func.call @use(%a) : (memref<8xf32>) -> ()
  memref.dealloc %a : memref<8xf32>
  %b = memref.alloc() : memref<8193xf32>
  memref.dealloc %b : memref<8193xf32>
  %d = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %d : memref<?xf32>
  %e = memref.alloc() : memref<8xf32>
  affine.for %i = 0 to 1 {
    memref.dealloc %e : memref<8xf32>
  }
  return
}
