// RUN: mlc-opt %s -p 'builtin.module(func.func(tensor-fusion))' --split-input-file | filecheck %s

// An elementwise chain collapses into one generic; the maps of the producer's inputs are
// composed through the consumer's (here a broadcast input).
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @chain
//  CHECK-SAME: (%[[A:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<8xf32>)
//       CHECK: %[[R:.+]] = tensor.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8xf32>) outs(%{{.+}} : tensor<4x8xf32>) {
//  CHECK-NEXT: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
//  CHECK-NEXT:   %[[S:.+]] = arith.addf %[[X]], %[[Y]] : f32
//  CHECK-NEXT:   %[[E:.+]] = math.exp %[[S]] : f32
//  CHECK-NEXT:   tensor.yield %[[E]] : f32
//       CHECK: return %[[R]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %0 = tensor.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    tensor.yield %s : f32
  } -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4x8xf32>
  %1 = tensor.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<4x8xf32>) outs(%e1 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    tensor.yield %e : f32
  } -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// A transposing producer fused into a reduction: its input map becomes (d0, d1) -> (d1, d0).
// CHECK-DAG: #[[T:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @into_reduction
//       CHECK: tensor.generic {indexing_maps = [#[[T]], #{{.+}}], iterator_types = ["reduction", "parallel"]} ins(%arg0 : tensor<4x8xf32>)
//  CHECK-NEXT: ^bb0
//  CHECK-NEXT:   arith.negf
//  CHECK-NEXT:   arith.addf
//   CHECK-NOT: tensor.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @into_reduction(%a: tensor<4x8xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %e0 = tensor.empty() : tensor<8x4xf32>
  %0 = tensor.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e0 : tensor<8x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    tensor.yield %n : f32
  } -> tensor<8x4xf32>
  %1 = tensor.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]} ins(%0 : tensor<8x4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    tensor.yield %s : f32
  } -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Not fused: a producer used twice (by one consumer), and a consumer reading the
// producer through a broadcast (the producer would be recomputed per row).
// CHECK-LABEL: func.func @not_fused
// CHECK-COUNT-4: tensor.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#v = affine_map<(d0) -> (d0)>
func.func @not_fused(%a: tensor<4x8xf32>, %v: tensor<8xf32>, %init: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %0 = tensor.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %n = arith.negf %x : f32
    tensor.yield %n : f32
  } -> tensor<4x8xf32>
  %1 = tensor.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%0, %0 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    tensor.yield %m : f32
  } -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %2 = tensor.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%v : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    tensor.yield %e : f32
  } -> tensor<8xf32>
  %3 = tensor.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %2 : tensor<4x8xf32>, tensor<8xf32>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    tensor.yield %s : f32
  } -> tensor<4x8xf32>
  return %1, %3 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A cheap producer read through a broadcast is recomputed per row (cost 1 <= 4); a tensor.dim
// of the intermediate does not keep it alive (it asks the producer's init instead).
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[COL:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @through_broadcast
//  CHECK-SAME: (%[[A:.+]]: tensor<?x8xf32>, %[[V:.+]]: tensor<8xf32>, %[[W:.+]]: tensor<8xf32>)
//       CHECK: %[[R:.+]] = tensor.generic {indexing_maps = [#[[ID]], #[[COL]], #[[COL]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[A]], %[[V]], %[[W]] : tensor<?x8xf32>, tensor<8xf32>, tensor<8xf32>)
//  CHECK-NEXT: ^bb0(%[[X:.+]]: f32, %[[P:.+]]: f32, %[[Q:.+]]: f32, %{{.+}}: f32):
//  CHECK-NEXT:   %[[S:.+]] = arith.mulf %[[P]], %[[Q]] : f32
//  CHECK-NEXT:   %[[T:.+]] = arith.addf %[[X]], %[[S]] : f32
//  CHECK-NEXT:   tensor.yield %[[T]] : f32
//   CHECK-NOT: tensor.generic
//       CHECK: return %[[R]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#v = affine_map<(d0) -> (d0)>
func.func @through_broadcast(%a: tensor<?x8xf32>, %v: tensor<8xf32>, %w: tensor<8xf32>) -> (tensor<?x8xf32>, index) {
  %c0 = arith.constant 0 : index
  %e1 = tensor.empty() : tensor<8xf32>
  %0 = tensor.generic {indexing_maps = [#v, #v, #v], iterator_types = ["parallel"]} ins(%v, %w : tensor<8xf32>, tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    tensor.yield %m : f32
  } -> tensor<8xf32>
  %d = tensor.dim %0, %c0 : tensor<8xf32>
  %n = tensor.dim %a, %c0 : tensor<?x8xf32>
  %e0 = tensor.empty(%n) : tensor<?x8xf32>
  %1 = tensor.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %0 : tensor<?x8xf32>, tensor<8xf32>) outs(%e0 : tensor<?x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    tensor.yield %s : f32
  } -> tensor<?x8xf32>
  return %1, %d : tensor<?x8xf32>, index
}
