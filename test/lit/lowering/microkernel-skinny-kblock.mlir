// RUN: mlc-opt %s -p 'builtin.module(graph-shape-inference,convert-graph-to-tensor,bufferize,func.func(contraction-microkernel{vector-width=8 threads=1 min-flops=0}))' --dump-knobs=%t.json > /dev/null
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); json.dump({k['key']: {'kernel': 'axpy-n', 'kblock': 8, 'vecs': 4, 'rows': 1}[k['knob']] for k in d['knobs'] if k['knob'] in ('kernel', 'kblock', 'vecs', 'rows')}, sys.stdout)" %t.json > %t.cfg.json
// RUN: mlc-opt %s -p 'builtin.module(graph-shape-inference,convert-graph-to-tensor,bufferize,func.func(contraction-microkernel{vector-width=8 threads=1 min-flops=0}))' --knobs=%t.cfg.json | filecheck %s

// axpy-n in k blocks of 8 rows (partial sums in C between blocks) starts each block's 4-vector
// tiles at the first column where B is 32-byte aligned (the head H, an affine.apply of B's
// aligned pointer). The columns before it come in pieces that do not overlap (C must not get a
// column's block added twice): a 4-lane vector when bit 2 of H is set, then H mod 4 columns as
// vector<1xf32>; after the tiles, single vectors, then the last columns in pieces again. All
// are straight-line k steps but for the single-lane pieces (rare: B not 16-byte aligned), which
// keep the k loop. The bias is added after the last block.
// CHECK-DAG: #[[BIT2:.+]] = affine_set<(d0) : ((d0 floordiv 4) mod 2 - 1 >= 0)>
// CHECK-DAG: #[[HEAD:.+]] = affine_map<(d0) -> ((-((d0 floordiv 4) mod 8)) mod 8)>
// CHECK-DAG: #[[MOD4:.+]] = affine_map<(d0) -> (d0 mod 4)>
// CHECK-LABEL: func.func @row_times_matrix(
// CHECK-SAME: %[[X:\w+]]: memref<1x16xf32>, %[[W:\w+]]: memref<16x64xf32>, %[[B:\w+]]: memref<64xf32>, %[[OUT:\w+]]: memref<1x64xf32>)
// CHECK: %[[P:.+]] = memref.extract_aligned_pointer_as_index %[[W]] : memref<16x64xf32> -> index
// CHECK: affine.for %[[KB:\w+]] = 0 to 2 {
// CHECK-NEXT: %[[H:.+]] = affine.apply #[[HEAD]](%[[P]])
// CHECK-NEXT: affine.if #[[BIT2]](%[[H]]) {
// CHECK-NOT: affine.for
// CHECK: affine.vector_load %[[W]][%[[KB]] * 8 + 7, (%[[H]] floordiv 8) * 8] : memref<16x64xf32>, vector<4xf32>
// CHECK: affine.for %{{.+}} = 0 to #[[MOD4]](%[[H]]) {
// CHECK: -> (vector<1xf32>) {
// CHECK: affine.for %[[T:\w+]] = 0 to #{{.+}}(%[[H]]) {
// CHECK-NOT: affine.for
// CHECK: affine.vector_load %[[W]][%[[KB]] * 8, %[[H]] + %[[T]] * 32] : memref<16x64xf32>, vector<8xf32>
// CHECK-NOT: affine.for
// CHECK: affine.vector_load %[[W]][%[[KB]] * 8 + 7, %[[H]] + %[[T]] * 32 + 24] : memref<16x64xf32>, vector<8xf32>
// CHECK: arith.addf %{{.+}}, %{{.+}} : vector<8xf32>
// CHECK: %[[CUR:.+]] = affine.apply #{{.+}}(%[[H]])
// CHECK: affine.for %{{.+}} = 0 to #{{.+}}(%[[CUR]]) {
// CHECK-NOT: affine.for
// CHECK: %[[REST:.+]] = affine.apply #{{.+}}(%[[CUR]])
// CHECK-NEXT: affine.if #[[BIT2]](%[[REST]]) {
// CHECK-NOT: affine.for
// CHECK: vector<4xf32>
// CHECK: affine.for %{{.+}} = 0 to #[[MOD4]](%[[REST]]) {
// CHECK: -> (vector<1xf32>) {
// CHECK: return
func.func @row_times_matrix(%x: tensor<1x16xf32>, %w: tensor<16x64xf32>, %b: tensor<64xf32>) -> tensor<1x64xf32> {
  %0 = graph.matmul %x, %w : (tensor<1x16xf32>, tensor<16x64xf32>) -> tensor<1x64xf32>
  %1 = graph.add %0, %b : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x64xf32>
  return %1 : tensor<1x64xf32>
}
