// RUN: mlc-opt %s -split-input-file -p 'builtin.module(graph-shape-inference,convert-graph-to-tensor,bufferize,func.func(contraction-microkernel{vector-width=16 threads=1}))' | filecheck %s

// N = 1 with A contiguous along k: dot-m. Tiles of R rows (16 fit the AVX-512 registers; at
// most the host's L1d ways, 8 on the Zen 3 VM, 12 on a 48 KiB L1d) keep one vector<16xf32> per row
// over k (6 full vectors of the 100 columns), a last vector at k = 84 whose first 12 lanes (already
// counted) a select masks off, then one reassociated lane sum and a scalar store per row; the
// last rows (a dynamic count) one at a time.
// CHECK-LABEL: func.func @matvec(
// CHECK-SAME: %[[X:\w+]]: memref<?x100xf32>, %[[V:\w+]]: memref<100x1xf32>, %[[OUT:\w+]]: memref<?x1xf32>)
// CHECK-NOT: tensor.generic
// CHECK: %[[ACC:.+]]:[[R:8|12|16]] = affine.for %[[K:\w+]] = 0 to 6 iter_args(
// CHECK: affine.vector_load %[[X]][%{{.+}} * [[R]], %[[K]] * 16] : memref<?x100xf32>, vector<16xf32>
// CHECK: affine.vector_load %[[V]][%[[K]] * 16, 0] : memref<100x1xf32>, vector<16xf32>
// CHECK: %[[MASK:.+]] = arith.constant dense<[false, false, false, false, false, false, false, false, false, false, false, false, true, true, true, true]> : vector<16xi1>
// CHECK: affine.vector_load %[[X]][%{{.+}} * [[R]], 84]
// CHECK: %[[F:.+]] = vector.fma %{{.+}}, %{{.+}}, %[[ACC]]#0 : vector<16xf32>
// CHECK: %[[SEL:.+]] = arith.select %[[MASK]], %[[F]], %[[ACC]]#0 : vector<16xi1>, vector<16xf32>
// CHECK: %[[SUM:.+]] = vector.reduction <add>, %[[SEL]], %{{.+}} fastmath<reassoc> : vector<16xf32> into f32
// CHECK: affine.store %[[SUM]], %[[OUT]][%{{.+}} * [[R]], 0] : memref<?x1xf32>
// CHECK: affine.if
// CHECK: vector.reduction <add>
// CHECK: return
func.func @matvec(%x: tensor<?x100xf32>, %v: tensor<100x1xf32>) -> tensor<?x1xf32> {
  %0 = graph.matmul %x, %v : (tensor<?x100xf32>, tensor<100x1xf32>) -> tensor<?x1xf32>
  return %0 : tensor<?x1xf32>
}

// -----

// M = 1 with B contiguous along n: axpy-n, B read in place (no packing buffer). A vector at
// column 0, then 8-vector tiles from the first column where B is 64-byte aligned (from
// memref.extract_aligned_pointer_as_index), single vectors, a last vector ending at 256; the
// bias is added to the accumulators before each store.
// CHECK-LABEL: func.func @row_times_matrix(
// CHECK-SAME: %[[X:\w+]]: memref<1x64xf32>, %[[W:\w+]]: memref<64x256xf32>, %[[B:\w+]]: memref<256xf32>, %[[OUT:\w+]]: memref<1x256xf32>)
// CHECK-NOT: memref<{{[0-9]+}}x64x{{[0-9]+}}xf32>
// CHECK: %[[P:.+]] = memref.extract_aligned_pointer_as_index %[[W]] : memref<64x256xf32> -> index
// CHECK: %[[H:.+]] = affine.for %{{.+}} = 0 to 64 iter_args(%{{.+}}) -> (vector<16xf32>)
// CHECK: affine.vector_store %{{.+}}, %[[OUT]][0, 0]
// CHECK: affine.for %[[T:\w+]] = 0 to #{{.+}}(%[[P]])
// CHECK: %[[ACC:.+]]:8 = affine.for %[[K:\w+]] = 0 to 64 iter_args(
// CHECK: affine.vector_load %[[W]][%[[K]], (-((%[[P]] floordiv 4) mod 16)) mod 16 + %[[T]] * 128]
// CHECK: %[[BV:.+]] = affine.vector_load %[[B]][(-((%[[P]] floordiv 4) mod 16)) mod 16 + %[[T]] * 128]
// CHECK: %[[S:.+]] = arith.addf %[[ACC]]#0, %[[BV]] : vector<16xf32>
// CHECK: affine.vector_store %[[S]], %[[OUT]][0, (-((%[[P]] floordiv 4) mod 16)) mod 16 + %[[T]] * 128]
// CHECK: affine.vector_store %{{.+}}, %[[OUT]][0, 240]
// CHECK: return
func.func @row_times_matrix(%x: tensor<1x64xf32>, %w: tensor<64x256xf32>, %b: tensor<256xf32>) -> tensor<1x256xf32> {
  %0 = graph.matmul %x, %w : (tensor<1x64xf32>, tensor<64x256xf32>) -> tensor<1x256xf32>
  %1 = graph.add %0, %b : (tensor<1x256xf32>, tensor<256xf32>) -> tensor<1x256xf32>
  return %1 : tensor<1x256xf32>
}

// -----

// A dynamic M: the packed nest for many rows, and axpy-n (2-row tiles of 8 vectors, then a
// single row) behind an affine.if on the run-time row count.
// CHECK-LABEL: func.func @dynamic_rows(
// CHECK-SAME: %[[X:\w+]]: memref<?x64xf32>
// CHECK: memref.dim %[[X]], %{{.+}} : memref<?x64xf32>
// CHECK: affine.if #{{.+}}(%{{.+}}) {
// CHECK: affine.for %{{.+}} = 0 to 64 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK: } else {
// CHECK: memref.alloc() alignment = 64 {mlc.workspace} : memref<{{[0-9]+}}x64x32xf32>
// CHECK: return
func.func @dynamic_rows(%x: tensor<?x64xf32>, %w: tensor<64x256xf32>) -> tensor<?x256xf32> {
  %0 = graph.matmul %x, %w : (tensor<?x64xf32>, tensor<64x256xf32>) -> tensor<?x256xf32>
  return %0 : tensor<?x256xf32>
}
