// RUN: mlc-opt %s -p 'builtin.module(graph-shape-inference,convert-graph-to-tensor,bufferize,func.func(contraction-microkernel{vector-width=8 threads=1 min-flops=0}))' --dump-knobs=%t.json > /dev/null
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); json.dump({k['key']: {'kernel': 'axpy-n', 'kblock': 8, 'vecs': 4, 'rows': 1}[k['knob']] for k in d['knobs'] if k['knob'] in ('kernel', 'kblock', 'vecs', 'rows')}, sys.stdout)" %t.json > %t.cfg.json
// RUN: mlc-opt %s -p 'builtin.module(graph-shape-inference,convert-graph-to-tensor,bufferize,func.func(contraction-microkernel{vector-width=8 threads=1 min-flops=0}))' --knobs=%t.cfg.json | filecheck %s

// axpy-n in k blocks of 8 rows (partial sums in C between blocks) starts each block's 4-vector
// tiles at the first column where B is 32-byte aligned. The head's columns before it come in
// pieces that do not overlap (C must not get a column's block added twice): a 4-lane vector when
// bit 2 of the head is set, then the head mod 4 columns one by one; after the tiles, single
// vectors, a 4-lane vector and scalars up to column 64. The bias is added after the last block.
// CHECK: #[[BIT2:.+]] = affine_set<(d0) : ((((-((d0 floordiv 4) mod 8)) mod 8) floordiv 4) mod 2 - 1 >= 0)>
// CHECK-LABEL: func.func @row_times_matrix(
// CHECK-SAME: %[[X:\w+]]: memref<1x16xf32>, %[[W:\w+]]: memref<16x64xf32>, %[[B:\w+]]: memref<64xf32>, %[[OUT:\w+]]: memref<1x64xf32>)
// CHECK: %[[P:.+]] = memref.extract_aligned_pointer_as_index %[[W]] : memref<16x64xf32> -> index
// CHECK: affine.for %[[KB:\w+]] = 0 to 2 {
// CHECK: affine.if #[[BIT2]](%[[P]]) {
// CHECK: affine.vector_load %[[W]][%[[KB]] * 8, {{.+}}] : memref<16x64xf32>, vector<4xf32>
// CHECK: affine.for %[[H:\w+]] = 0 to #{{.+}}(%[[P]]) {
// CHECK: affine.load %[[W]][%[[KB]] * 8, (((-((%[[P]] floordiv 4) mod 8)) mod 8) floordiv 4) * 4 + %[[H]]] : memref<16x64xf32>
// CHECK: affine.for %[[T:\w+]] = 0 to #{{.+}}(%[[P]]) {
// CHECK: affine.vector_load %[[W]][%[[KB]] * 8, (-((%[[P]] floordiv 4) mod 8)) mod 8 + %[[T]] * 32] : memref<16x64xf32>, vector<8xf32>
// CHECK: affine.vector_load %[[W]][%[[KB]] * 8 + 7, (-((%[[P]] floordiv 4) mod 8)) mod 8 + %[[T]] * 32 + 24] : memref<16x64xf32>, vector<8xf32>
// CHECK: arith.addf %{{.+}}, %{{.+}} : vector<8xf32>
// CHECK: affine.for
// CHECK-SAME: to #{{.+}}(%[[P]]) {
// CHECK: vector<8xf32>
// CHECK: affine.for
// CHECK-SAME: to #{{.+}}(%[[P]]) {
// CHECK: vector<4xf32>
// CHECK: affine.for
// CHECK-SAME: to #{{.+}}(%[[P]]) {
// CHECK: affine.load %[[W]]
// CHECK: return
func.func @row_times_matrix(%x: tensor<1x16xf32>, %w: tensor<16x64xf32>, %b: tensor<64xf32>) -> tensor<1x64xf32> {
  %0 = graph.matmul %x, %w : (tensor<1x16xf32>, tensor<16x64xf32>) -> tensor<1x64xf32>
  %1 = graph.add %0, %b : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
  return %1 : tensor<1x64xf32>
}
