// RUN: mlc-opt %s -split-input-file -p bufferize | filecheck %s
// RUN: mlc-opt %s -split-input-file -p bufferize --mlir-print-op-generic | mlc-opt -split-input-file | filecheck %s

// Destination-passing style: the result becomes a trailing out-parameter, written directly by
// the last generic; the intermediate is allocated (dynamic size from memref.dim) and freed
// after its last use; mlc.result_shapes gives the result dims from the input dims.
// CHECK-DAG: #[[$RS:.+]] = affine_map<()[s0, s1, s2] -> (s0, 4)>
// CHECK-LABEL: func.func @chain(
// CHECK-SAME: %[[A:\w+]]: memref<?x4xf32>, %[[B:\w+]]: memref<4xf32>, %[[OUT:\w+]]: memref<?x4xf32>)
// CHECK-SAME: attributes {mlc.result_shapes = [#[[$RS]]]}
// CHECK: %[[D:.+]] = memref.dim %[[A]], %{{.+}} : memref<?x4xf32>
// CHECK: %[[T:.+]] = memref.alloc(%[[D]]) alignment = 64 : memref<?x4xf32>
// CHECK: tensor.generic {{.+}} ins(%[[A]], %[[B]] : memref<?x4xf32>, memref<4xf32>) outs(%[[T]] : memref<?x4xf32>) {
// CHECK: arith.addf
// CHECK: tensor.generic {{.+}} ins(%[[T]] : memref<?x4xf32>) outs(%[[OUT]] : memref<?x4xf32>) {
// CHECK: arith.maximumf
// CHECK: }
// CHECK-NEXT: memref.dealloc %[[T]] : memref<?x4xf32>
// CHECK-NEXT: return
// CHECK-NEXT: }
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @chain(%a: tensor<?x4xf32>, %b: tensor<4xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?x4xf32>
  %e = tensor.empty(%d) : tensor<?x4xf32>
  %0 = tensor.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<?x4xf32>, tensor<4xf32>) outs(%e : tensor<?x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    tensor.yield %s : f32
  } -> tensor<?x4xf32>
  %e2 = tensor.empty(%d) : tensor<?x4xf32>
  %1 = tensor.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<?x4xf32>) outs(%e2 : tensor<?x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %m = arith.maximumf %x, %z : f32
    tensor.yield %m : f32
  } -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

// -----

// A reduction: the fill and the accumulation both write the out-parameter (the fill's result
// has no other use, so the reduction updates it in place).
// CHECK-LABEL: func.func @row_sums(
// CHECK-SAME: %[[A:\w+]]: memref<3x4xf32>, %[[OUT:\w+]]: memref<3xf32>)
// CHECK-NOT: memref.alloc
// CHECK: tensor.generic {{.+}} outs(%[[OUT]] : memref<3xf32>) {
// CHECK: tensor.generic {{.+}} iterator_types = ["parallel", "reduction"]} ins(%[[A]] : memref<3x4xf32>) outs(%[[OUT]] : memref<3xf32>) {
// CHECK-NOT: memref.copy
// CHECK: return
func.func @row_sums(%a: tensor<3x4xf32>) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  %z = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%e : tensor<3xf32>) {
  ^bb0(%o: f32):
    %c = arith.constant 0.0 : f32
    tensor.yield %c : f32
  } -> tensor<3xf32>
  %r = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<3x4xf32>) outs(%z : tensor<3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    tensor.yield %s : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// Constants become private constant globals; a function argument is never written: updating
// it in place works on a copy.
// CHECK: memref.global "private" constant @__constant_2xi32 : memref<2xi32> = dense<[1, 2]>
// CHECK-LABEL: func.func @args_read_only(
// CHECK-SAME: %[[A:\w+]]: memref<2xi32>, %[[OUT:\w+]]: memref<2xi32>)
// CHECK: %[[G:.+]] = memref.get_global @__constant_2xi32 : memref<2xi32>
// CHECK: memref.copy %[[A]], %[[OUT]] : memref<2xi32> to memref<2xi32>
// CHECK: tensor.generic {{.+}} ins(%[[G]] : memref<2xi32>) outs(%[[OUT]] : memref<2xi32>) {
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @args_read_only(%a: tensor<2xi32>) -> tensor<2xi32> {
  %c = arith.constant dense<[1, 2]> : tensor<2xi32>
  %r = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%c : tensor<2xi32>) outs(%a : tensor<2xi32>) {
  ^bb0(%x: i32, %o: i32):
    %s = arith.addi %x, %o : i32
    tensor.yield %s : i32
  } -> tensor<2xi32>
  return %r : tensor<2xi32>
}

// -----

// Slices are subviews; insert_slice copies into a subview of its destination (here the
// out-parameter, as the concatenation is returned); reshapes reinterpret contiguous buffers.
// CHECK-LABEL: func.func @views(
// CHECK-SAME: %[[A:\w+]]: memref<4x6xf32>, %[[O0:\w+]]: memref<8x6xf32>, %[[O1:\w+]]: memref<24xf32>, %[[O2:\w+]]: memref<2x3xf32>)
// CHECK: %[[S0:.+]] = memref.subview %[[O0]][0, 0] [4, 6] [1, 1] : memref<8x6xf32> to memref<4x6xf32, strided<[6, 1]>>
// CHECK: memref.copy %[[A]], %[[S0]] : memref<4x6xf32> to memref<4x6xf32, strided<[6, 1]>>
// CHECK: %[[S1:.+]] = memref.subview %[[O0]][4, 0] [4, 6] [1, 1] : memref<8x6xf32> to memref<4x6xf32, strided<[6, 1], offset: 24>>
// CHECK: memref.copy %[[A]], %[[S1]]
// CHECK: %[[R:.+]] = memref.reinterpret_cast %[[A]] to offset: [0], sizes: [24], strides: [1] : memref<4x6xf32> to memref<24xf32>
// CHECK: %[[V:.+]] = memref.subview %[[A]][1, 0] [2, 3] [2, 2] : memref<4x6xf32> to memref<2x3xf32, strided<[12, 2], offset: 6>>
// CHECK: memref.copy %[[R]], %[[O1]] : memref<24xf32> to memref<24xf32>
// CHECK: memref.copy %[[V]], %[[O2]] : memref<2x3xf32, strided<[12, 2], offset: 6>> to memref<2x3xf32>
// CHECK-NEXT: return
func.func @views(%a: tensor<4x6xf32>) -> (tensor<8x6xf32>, tensor<24xf32>, tensor<2x3xf32>) {
  %e = tensor.empty() : tensor<8x6xf32>
  %0 = tensor.insert_slice %a into %e[0, 0] [4, 6] [1, 1] : tensor<4x6xf32> into tensor<8x6xf32>
  %1 = tensor.insert_slice %a into %0[4, 0] [4, 6] [1, 1] : tensor<4x6xf32> into tensor<8x6xf32>
  %2 = tensor.collapse_shape %a [[0, 1]] : tensor<4x6xf32> into tensor<24xf32>
  %3 = tensor.extract_slice %a[1, 0] [2, 3] [2, 2] : tensor<4x6xf32> to tensor<2x3xf32>
  return %1, %2, %3 : tensor<8x6xf32>, tensor<24xf32>, tensor<2x3xf32>
}

// -----

// tensor.pad: the result buffer is filled with the padding value (a buffer generic), then the
// source is copied into the interior subview; sizes from the dynamic amounts.
// CHECK-DAG: #[[$PS:.+]] = affine_map<()[s0] -> (s0 + 3)>
// CHECK-LABEL: func.func @pad(
// CHECK-SAME: %[[A:\w+]]: memref<?xf32>, %[[V:\w+]]: f32, %[[OUT:\w+]]: memref<?xf32>) attributes {mlc.result_shapes = [#[[$PS]]]}
// CHECK: %[[D:.+]] = memref.dim %[[A]]
// CHECK-NOT: arith.addi
// CHECK: tensor.generic {{.+}} outs(%[[OUT]] : memref<?xf32>) {
// CHECK-NEXT: ^bb0(%{{.+}}: f32):
// CHECK-NEXT: tensor.yield %[[V]] : f32
// CHECK: %[[S:.+]] = memref.subview %[[OUT]][1] [%[[D]]] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: 1>>
// CHECK: memref.copy %[[A]], %[[S]]
func.func @pad(%a: tensor<?xf32>, %v: f32) -> tensor<?xf32> {
  %0 = tensor.pad %a low[1] high[2] {
  ^bb0(%i: index):
    tensor.yield %v : f32
  } : tensor<?xf32> to tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Calls pass memrefs and out-buffers; the inner call's result is allocated (size from the
// callee's mlc.result_shapes) and freed after the outer call, which writes the out-parameter.
// CHECK-LABEL: func.func private @inner(
// CHECK-SAME: memref<?xf32>, %{{.+}}: memref<?xf32>)
// CHECK-LABEL: func.func @outer(
// CHECK-SAME: %[[A:\w+]]: memref<?xf32>, %[[OUT:\w+]]: memref<?xf32>)
// CHECK: %[[T:.+]] = memref.alloc(%{{.+}}) alignment = 64 : memref<?xf32>
// CHECK: call @inner(%[[A]], %[[T]]) : (memref<?xf32>, memref<?xf32>) -> ()
// CHECK: call @inner(%[[T]], %[[OUT]]) : (memref<?xf32>, memref<?xf32>) -> ()
// CHECK-NEXT: memref.dealloc %[[T]]
func.func private @inner(%a: tensor<?xf32>) -> tensor<?xf32> {
  return %a : tensor<?xf32>
}
func.func @outer(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = call @inner(%a) : (tensor<?xf32>) -> tensor<?xf32>
  %1 = call @inner(%0) : (tensor<?xf32>) -> tensor<?xf32>
  return %1 : tensor<?xf32>
}

// -----

// An elementwise generic whose output is a tensor.empty writes over a dead input buffer of the
// same type and map (read and written in the same iteration): one allocation for the chain.
// CHECK-LABEL: func.func @reuse_input(
// CHECK-SAME: %[[A:\w+]]: memref<8xf32>, %[[OUT:\w+]]: memref<8xf32>)
// CHECK: %[[T:.+]] = memref.alloc() alignment = 64 : memref<8xf32>
// CHECK: tensor.generic {{.+}} ins(%[[A]] : memref<8xf32>) outs(%[[T]] : memref<8xf32>)
// CHECK: tensor.generic {{.+}} ins(%[[T]] : memref<8xf32>) outs(%[[T]] : memref<8xf32>)
// CHECK: tensor.generic {{.+}} ins(%[[T]] : memref<8xf32>) outs(%[[OUT]] : memref<8xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: math.exp
// CHECK-NEXT: tensor.yield
// CHECK-NEXT: }
// CHECK-NEXT: memref.dealloc %[[T]] : memref<8xf32>
#id = affine_map<(d0) -> (d0)>
func.func @reuse_input(%a: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %0 = tensor.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    tensor.yield %s : f32
  } -> tensor<8xf32>
  %1 = tensor.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%0 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    tensor.yield %s : f32
  } -> tensor<8xf32>
  %2 = tensor.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%1 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    tensor.yield %s : f32
  } -> tensor<8xf32>
  return %2 : tensor<8xf32>
}
