// RUN: mlc-opt %s -split-input-file -p 'builtin.module(graph-shape-inference,convert-graph-to-tensor,bufferize,func.func(contraction-microkernel{vector-width=8 threads=2}))' | filecheck %s

// axpy-n split along n for 2 planned threads: one contiguous column range per thread (288 =
// 9 tiles of 32 columns, then the last 232 behind an affine.if), each swept as the serial
// kernel sweeps: a vector at the range's start, 4-vector tiles from its first aligned column,
// single vectors, a last vector ending at the range's end.
// CHECK-LABEL: func.func @row_times_matrix(
// CHECK-SAME: %[[X:\w+]]: memref<1x64xf32>, %[[W:\w+]]: memref<64x520xf32>, %[[OUT:\w+]]: memref<1x520xf32>)
// CHECK: %[[P:.+]] = memref.extract_aligned_pointer_as_index %[[W]]
// CHECK: affine.parallel (%[[T:\w+]]) = (0) to (2) {
// CHECK-NEXT: affine.if #{{.+}}(%[[T]]) {
// CHECK: affine.vector_load %[[W]][%{{.+}}, %[[T]] * 288] : memref<64x520xf32>, vector<8xf32>
// CHECK: affine.vector_store %{{.+}}, %[[OUT]][0, %[[T]] * 288]
// CHECK: affine.for %[[U:\w+]] = 0 to #{{.+}}(%[[T]], %[[P]]) {
// CHECK: affine.for %{{.+}} = 0 to 64 iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK: affine.vector_store %{{.+}}, %[[OUT]][0, %[[T]] * 288 + (-((%[[P]] floordiv 4) mod 8)) mod 8 + %[[U]] * 32]
// CHECK: affine.vector_store %{{.+}}, %[[OUT]][0, %[[T]] * 288 + 280]
// CHECK: } else {
// CHECK: affine.vector_store %{{.+}}, %[[OUT]][0, 288]
// CHECK: affine.vector_store %{{.+}}, %[[OUT]][0, 512]
// CHECK: } {mlc.parallel}
func.func @row_times_matrix(%x: tensor<1x64xf32>, %w: tensor<64x520xf32>) -> tensor<1x520xf32> {
  %0 = graph.matmul %x, %w : (tensor<1x64xf32>, tensor<64x520xf32>) -> tensor<1x520xf32>
  return %0 : tensor<1x520xf32>
}

// -----

// 512 columns: two equal ranges, no affine.if.
// CHECK-LABEL: func.func @even(
// CHECK: affine.parallel (%[[T:\w+]]) = (0) to (2) {
// CHECK-NOT: affine.if
// CHECK: affine.vector_store %{{.+}}, %{{.+}}[0, %[[T]] * 256 + 248]
// CHECK: } {mlc.parallel}
func.func @even(%x: tensor<1x64xf32>, %w: tensor<64x512xf32>) -> tensor<1x512xf32> {
  %0 = graph.matmul %x, %w : (tensor<1x64xf32>, tensor<64x512xf32>) -> tensor<1x512xf32>
  return %0 : tensor<1x512xf32>
}
