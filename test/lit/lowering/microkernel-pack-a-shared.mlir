// RUN: mlc-opt %s -p 'builtin.module(graph-shape-inference,convert-graph-to-tensor,bufferize,func.func(contraction-microkernel{vector-width=8 threads=2}))' --dump-knobs=%t.json > /dev/null
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); v = {'kernel': 'blis', 'mr': 6, 'nr': 8, 'kc': 128, 'mc': 120, 'nc': 96, 'order': 'jc-pc-ic', 'parallel': 'jc', 'pack-a': True, 'pack-a-shared': True}; json.dump({k['key']: v[k['knob']] for k in d['knobs'] if k['knob'] in v}, sys.stdout)" %t.json > %t.cfg.json
// RUN: mlc-opt %s -p 'builtin.module(graph-shape-inference,convert-graph-to-tensor,bufferize,func.func(contraction-microkernel{vector-width=8 threads=2}))' --knobs=%t.cfg.json | filecheck %s

// pack-a-shared with the jc loop split between threads: one A buffer with a slot per k block and
// row block (3 x 3 blocks of 20 strips of 128 x 6; no slot per thread), filled by a parallel
// loop over the row blocks (each packing its blocks for the 3 k blocks, the partial strip of
// rows 258..261 zero-padded) before the split jc loop, whose kernels read it at (k block, row
// block). The B panels keep a slot per thread.
// CHECK-LABEL: func.func @shared_a(
// CHECK-SAME: %[[A:\w+]]: memref<262x270xf32>
// CHECK-DAG: %[[BP:.+]] = memref.alloc() alignment = 64 {mlc.workspace} : memref<3x12x128x8xf32>
// CHECK-DAG: %[[AP:.+]] = memref.alloc() alignment = 64 {mlc.workspace} : memref<3x3x20x128x6xf32>
// CHECK: affine.parallel (%[[IC:\w+]]) = (0) to (3) {
// CHECK-NEXT: affine.for %[[PC:\w+]] = 0 to 3 {
// CHECK: %[[V:.+]] = affine.load %[[A]][%[[IC]] * 120 + %{{.+}} * 6 + %{{.+}}, %[[PC]] * 128 + %{{.+}}] : memref<262x270xf32>
// CHECK: affine.store %[[V]], %[[AP]][%[[PC]], %[[IC]], %{{.+}}, %{{.+}}, %{{.+}}] : memref<3x3x20x128x6xf32>
// CHECK: affine.store %{{.+}}, %[[AP]][%[[PC]], %[[IC]], %[[IC]] * -20 + 43, %{{.+}}, %{{.+}}] : memref<3x3x20x128x6xf32>
// CHECK: affine.parallel (%[[JC:\w+]]) = (0) to (3) {
// CHECK-NEXT: affine.for %[[PC2:\w+]] = 0 to 3 {
// CHECK: affine.vector_store %{{.+}}, %[[BP]][%[[JC]], %{{.+}}, %{{.+}}, 0] : memref<3x12x128x8xf32>, vector<8xf32>
// CHECK: affine.for %[[ICB:\w+]] = 0 to 3 {
// CHECK-NOT: affine.store %{{.+}}, %[[AP]]
// CHECK: affine.load %[[AP]][%[[PC2]], %[[ICB]], %{{.+}}, %{{.+}}, 0] : memref<3x3x20x128x6xf32>
// CHECK: return
func.func @shared_a(%a: tensor<262x270xf32>, %b: tensor<270x250xf32>) -> tensor<262x250xf32> {
  %0 = graph.matmul %a, %b : (tensor<262x270xf32>, tensor<270x250xf32>) -> tensor<262x250xf32>
  return %0 : tensor<262x250xf32>
}
