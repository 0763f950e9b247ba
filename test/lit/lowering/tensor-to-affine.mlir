// RUN: mlc-opt %s -split-input-file -p convert-tensor-to-affine | filecheck %s
// RUN: mlc-opt %s -split-input-file -p convert-tensor-to-affine --mlir-print-op-generic | mlc-opt -split-input-file | filecheck %s

// A reduction with a dynamic parallel loop: one affine.for per loop in iterator order, the
// dynamic size from memref.dim of an operand dim that the loop indexes; inputs loaded through
// their maps (broadcast: `d1` only), the output element loaded, updated and stored.
// CHECK-LABEL: func.func @matvec(
// CHECK-SAME: %[[A:\w+]]: memref<?x8xf32>, %[[X:\w+]]: memref<8xf32>, %[[Y:\w+]]: memref<?xf32>)
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK: %[[N:.+]] = memref.dim %[[A]], %[[C0]] : memref<?x8xf32>
// CHECK: affine.for %[[I:\w+]] = 0 to %[[N]] {
// CHECK-NEXT: affine.for %[[J:\w+]] = 0 to 8 {
// CHECK-NEXT: %[[AV:.+]] = affine.load %[[A]][%[[I]], %[[J]]] : memref<?x8xf32>
// CHECK-NEXT: %[[XV:.+]] = affine.load %[[X]][%[[J]]] : memref<8xf32>
// CHECK-NEXT: %[[YV:.+]] = affine.load %[[Y]][%[[I]]] : memref<?xf32>
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[AV]], %[[XV]] : f32
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[P]], %[[YV]] : f32
// CHECK-NEXT: affine.store %[[S]], %[[Y]][%[[I]]] : memref<?xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @matvec(%a: memref<?x8xf32>, %x: memref<8xf32>, %y: memref<?xf32>) {
  tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d1)>,
                                   affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a, %x : memref<?x8xf32>, memref<8xf32>) outs(%y : memref<?xf32>) {
  ^bb0(%av: f32, %xv: f32, %yv: f32):
    %p = arith.mulf %av, %xv : f32
    %s = arith.addf %p, %yv : f32
    tensor.yield %s : f32
  }
  return
}

// -----

// Constant and `d0 + d1` map results (broadcast of a size-1 dim, a sliding window); strided
// operands; an output not read is only stored; values from above are used directly.
// CHECK-LABEL: func.func @windows(
// CHECK-SAME: %[[A:\w+]]: memref<1x10xf32>, %[[B:\w+]]: memref<8xf32, strided<[2], offset: 3>>, %[[C:\w+]]: f32, %[[O:\w+]]: memref<8x3xf32>)
// CHECK: affine.for %[[I:\w+]] = 0 to 8 {
// CHECK-NEXT: affine.for %[[K:\w+]] = 0 to 3 {
// CHECK-NEXT: %[[W:.+]] = affine.load %[[A]][0, %[[I]] + %[[K]]] : memref<1x10xf32>
// CHECK-NEXT: %[[V:.+]] = affine.load %[[B]][%[[I]]] : memref<8xf32, strided<[2], offset: 3>>
// CHECK-NEXT: %[[M:.+]] = arith.mulf %[[W]], %[[V]] : f32
// CHECK-NEXT: %[[R:.+]] = arith.addf %[[M]], %[[C]] : f32
// CHECK-NEXT: affine.store %[[R]], %[[O]][%[[I]], %[[K]]] : memref<8x3xf32>
func.func @windows(%a: memref<1x10xf32>, %b: memref<8xf32, strided<[2], offset: 3>>, %c: f32, %o: memref<8x3xf32>) {
  tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d0 + d1)>,
                                   affine_map<(d0, d1) -> (d0)>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<1x10xf32>, memref<8xf32, strided<[2], offset: 3>>) outs(%o : memref<8x3xf32>) {
  ^bb0(%w: f32, %v: f32, %out: f32):
    %m = arith.mulf %w, %v : f32
    %r = arith.addf %m, %c : f32
    tensor.yield %r : f32
  }
  return
}

// -----

// A zero-rank generic has no loops; other buffer ops stay.
// CHECK-LABEL: func.func @scalar(
// CHECK-SAME: %[[A:\w+]]: memref<f32>, %[[O:\w+]]: memref<f32>)
// CHECK-NEXT: %[[V:.+]] = affine.load %[[A]][] : memref<f32>
// CHECK-NEXT: %[[E:.+]] = math.exp %[[V]] : f32
// CHECK-NEXT: affine.store %[[E]], %[[O]][] : memref<f32>
// CHECK-NEXT: memref.copy %[[O]], %[[A]] : memref<f32> to memref<f32>
// CHECK-NEXT: return
func.func @scalar(%a: memref<f32>, %o: memref<f32>) {
  tensor.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%a : memref<f32>) outs(%o : memref<f32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    tensor.yield %e : f32
  }
  memref.copy %o, %a : memref<f32> to memref<f32>
  return
}
