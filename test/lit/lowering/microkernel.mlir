// RUN: mlc-opt %s -split-input-file -p 'func.func(contraction-microkernel{vector-width=8 min-flops=0 threads=2 skinny=false})' | filecheck %s

// A zero fill, a matmul, a bias add in place and a relu into the out-parameter become one
// nest: B packed into 16-wide strips (vector copies), a 6x16 micro-kernel keeping 12
// vector<8xf32> accumulators in iter_args over k (A read in place: its rows are 128 bytes
// apart and 24 is a multiple of 6, so nothing of it is packed; broadcast A, vector.fma with
// packed B), and the bias and relu applied to the accumulators before the vector stores into
// %out.
// CHECK-LABEL: func.func @matmul_bias_relu(
// CHECK-SAME: %[[A:\w+]]: memref<24x32xf32>, %[[B:\w+]]: memref<32x16xf32>, %[[BIAS:\w+]]: memref<16xf32>, %[[OUT:\w+]]: memref<24x16xf32>)
// CHECK-NOT: tensor.generic
// CHECK-DAG: %[[BP:.+]] = memref.alloc() alignment = 64 {mlc.workspace} : memref<1x32x16xf32>
// CHECK-DAG: %[[Z:.+]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// CHECK: %[[BV0:.+]] = affine.vector_load %[[B]][%{{.+}}, %{{.+}}] : memref<32x16xf32>, vector<8xf32>
// CHECK: affine.vector_store %[[BV0]], %[[BP]]
// CHECK: %[[ACC:.+]]:12 = affine.for %[[K:\w+]] = 0 to 32 iter_args(%[[C0:\w+]] = %[[Z]], {{.*}}) -> (vector<8xf32>, vector<8xf32>,
// CHECK: %[[B0:.+]] = affine.vector_load %[[BP]][%{{.+}}, %[[K]], 0] : memref<1x32x16xf32>, vector<8xf32>
// CHECK: %[[B1:.+]] = affine.vector_load %[[BP]][%{{.+}}, %[[K]], 8] : memref<1x32x16xf32>, vector<8xf32>
// CHECK: %[[A0:.+]] = affine.load %[[A]][%{{.+}}, %[[K]]] : memref<24x32xf32>
// CHECK: %[[A0V:.+]] = vector.broadcast %[[A0]] : f32 to vector<8xf32>
// CHECK: %{{.+}} = vector.fma %[[A0V]], %[[B0]], %[[C0]] : vector<8xf32>
// CHECK: affine.yield
// CHECK: %[[BV:.+]] = affine.vector_load %[[BIAS]][%{{.+}}] : memref<16xf32>, vector<8xf32>
// CHECK: %[[S:.+]] = arith.addf %[[ACC]]#0, %[[BV]] : vector<8xf32>
// CHECK: %[[R:.+]] = arith.maximumf %[[S]], %{{.+}} : vector<8xf32>
// CHECK: affine.vector_store %[[R]], %[[OUT]][%{{.+}}, %{{.+}}] : memref<24x16xf32>, vector<8xf32>
// Too small for the thread pool: the nest's loops are marked for affine-parallelize to leave.
// CHECK: } {mlc.serial}
// The buffers come from the thread's workspace (mlc.workspace).
// CHECK: memref.dealloc %[[BP]]
// CHECK: return
#id = affine_map<(d0, d1) -> (d0, d1)>
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @matmul_bias_relu(%A: memref<24x32xf32>, %B: memref<32x16xf32>, %bias: memref<16xf32>, %out: memref<24x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %C = memref.alloc() {alignment = 64 : i64} : memref<24x16xf32>
  tensor.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%C : memref<24x16xf32>) {
  ^bb0(%o: f32):
    tensor.yield %zero : f32
  }
  tensor.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%A, %B : memref<24x32xf32>, memref<32x16xf32>) outs(%C : memref<24x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    tensor.yield %s : f32
  }
  tensor.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%C, %bias : memref<24x16xf32>, memref<16xf32>) outs(%C : memref<24x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    tensor.yield %s : f32
  }
  tensor.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%C : memref<24x16xf32>) outs(%out : memref<24x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    tensor.yield %r : f32
  }
  memref.dealloc %C : memref<24x16xf32>
  return
}

// -----

// Edge tiles (M = 5, N = 10 with a 6x16 tile): packing zero-pads the partial strips, a full
// tile stores vectors, an edge tile stores its accumulators into a scratch tile and copies the
// valid min(6, M - i) x min(16, N - j) part element by element. No initializer was absorbed,
// so C's current values are added.
// CHECK-LABEL: func.func @edges(
// CHECK-SAME: %[[A:\w+]]: memref<5x20xf32>, %[[B:\w+]]: memref<20x10xf32>, %[[C:\w+]]: memref<5x10xf32>)
// CHECK-DAG: %[[SCRATCH:.+]] = memref.alloc() alignment = 64 {mlc.workspace} : memref<6x16xf32>
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: affine.store %[[ZERO]], %{{.+}}[{{.+}}] : memref<1x20x16xf32>
// CHECK: affine.store %[[ZERO]], %{{.+}}[{{.+}}] : memref<1x20x6xf32>
// CHECK: affine.if #{{.+}}(%{{.+}}, %{{.+}}) -> (vector<8xf32>,
// CHECK: affine.vector_load %[[C]]
// CHECK: vector.fma
// CHECK: affine.if
// CHECK: affine.vector_store %{{.+}}, %[[C]]
// CHECK: } else {
// CHECK: affine.vector_store %{{.+}}, %[[SCRATCH]][0, 0]
// CHECK: affine.for %[[R:\w+]] = 0 to min
// CHECK: affine.for %[[COL:\w+]] = 0 to min
// CHECK: %[[V:.+]] = affine.load %[[SCRATCH]][%[[R]], %[[COL]]]
// CHECK: %[[OLD:.+]] = affine.load %[[C]]
// CHECK: %[[SUM:.+]] = arith.addf %[[OLD]], %[[V]] : f32
// CHECK: affine.store %[[SUM]], %[[C]]
// CHECK: memref.dealloc %[[SCRATCH]]
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @edges(%A: memref<5x20xf32>, %B: memref<20x10xf32>, %C: memref<5x10xf32>) {
  tensor.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%A, %B : memref<5x20xf32>, memref<20x10xf32>) outs(%C : memref<5x10xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    tensor.yield %s : f32
  }
  return
}

// -----

// A dynamic K may be 0: then only the initializer runs (a copy of the fill under affine.if).
// CHECK-LABEL: func.func @dynamic_k(
// CHECK: %[[K:.+]] = memref.dim
// CHECK: vector.fma
// CHECK: affine.if #{{.+}}(%[[K]]) {
// CHECK-NEXT: tensor.generic
// CHECK: tensor.yield
#id = affine_map<(d0, d1) -> (d0, d1)>
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @dynamic_k(%A: memref<8x?xf32>, %B: memref<?x16xf32>, %C: memref<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  tensor.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%C : memref<8x16xf32>) {
  ^bb0(%o: f32):
    tensor.yield %zero : f32
  }
  tensor.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%A, %B : memref<8x?xf32>, memref<?x16xf32>) outs(%C : memref<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    tensor.yield %s : f32
  }
  return
}

// -----

// Large enough for the thread pool: the jc loop is an affine.parallel {mlc.parallel} and the
// buffers packed under it get a leading dimension per iteration (2 chunks of N).
// CHECK-LABEL: func.func @parallel(
// CHECK-NOT: mlc.serial
// CHECK: memref.alloc() alignment = 64 {mlc.workspace} : memref<2x
// CHECK: affine.parallel (%{{.+}}) = (0) to (2) {
// CHECK: vector.fma
// CHECK: } {mlc.parallel}
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @parallel(%A: memref<64x512xf32>, %B: memref<512x64xf32>, %C: memref<64x64xf32>) {
  tensor.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%A, %B : memref<64x512xf32>, memref<512x64xf32>) outs(%C : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    tensor.yield %s : f32
  }
  return
}

// -----

// 26 rows: four full 6-row strips of A are read in place, the partial fifth from its packed
// copy (zero past M). The two k loops are the branches of one affine.if that yields the
// accumulators, and the tile's stores follow it once (full tile: vector stores; edge: the
// scratch tile, then its valid rows).
// CHECK-LABEL: func.func @partial_rows(
// CHECK: %[[INIT:.+]]:12 = affine.if #{{.+}}(%{{.+}}, %{{.+}}) -> (vector<8xf32>,
// CHECK: %[[ACC:.+]]:12 = affine.if #{{.+}}(%{{[^,]+}}) -> (vector<8xf32>,
// CHECK: affine.for %{{.+}} = 0 to 32 iter_args(%{{.+}} = %[[INIT]]#0,
// CHECK: affine.load %{{.+}} : memref<26x32xf32>
// CHECK: } else {
// CHECK: affine.for %{{.+}} = 0 to 32 iter_args(%{{.+}} = %[[INIT]]#0,
// CHECK: affine.load %{{.+}} : memref<1x32x6xf32>
// CHECK: affine.if
// CHECK: affine.vector_store %[[ACC]]#0, %{{.+}} : memref<26x16xf32>, vector<8xf32>
// CHECK: } else {
// CHECK: affine.vector_store %[[ACC]]#0, %{{.+}} : memref<6x16xf32>, vector<8xf32>
// CHECK-NOT: vector.fma
// CHECK: return
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @partial_rows(%A: memref<26x32xf32>, %B: memref<32x16xf32>, %C: memref<26x16xf32>) {
  tensor.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%A, %B : memref<26x32xf32>, memref<32x16xf32>) outs(%C : memref<26x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    tensor.yield %s : f32
  }
  return
}

// -----

// Not contractions: a reduction without a product and an elementwise product stay.
// CHECK-LABEL: func.func @not_contractions(
// CHECK-NOT: vector.fma
// CHECK: tensor.generic
// CHECK: tensor.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#r = affine_map<(d0, d1) -> (d0)>
func.func @not_contractions(%A: memref<16x32xf32>, %B: memref<16x32xf32>, %s: memref<16xf32>) {
  tensor.generic {indexing_maps = [#id, #r], iterator_types = ["parallel", "reduction"]} ins(%A : memref<16x32xf32>) outs(%s : memref<16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %acc, %x : f32
    tensor.yield %t : f32
  }
  tensor.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%A, %B : memref<16x32xf32>, memref<16x32xf32>) outs(%B : memref<16x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %t = arith.mulf %x, %y : f32
    tensor.yield %t : f32
  }
  return
}
