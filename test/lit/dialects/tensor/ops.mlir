// RUN: mlc-opt %s | mlc-opt | filecheck %s
// RUN: mlc-opt %s --mlir-print-op-generic | mlc-opt | filecheck %s

// Every tensor op in its custom form; both the custom and the generic print read back the same.

// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (d0)>

// CHECK-LABEL: func.func @empty_dim_cast
// CHECK-SAME: (%[[T:[^:]+]]: tensor<?x?xf32>, %[[D:[^:]+]]: index
func.func @empty_dim_cast(%t: tensor<?x?xf32>, %d: index) -> (tensor<?x4xf32>, tensor<4xf32>, index, tensor<4x?xf32>, tensor<*xf32>) {
  // CHECK: %[[E:.+]] = tensor.empty(%[[D]]) : tensor<?x4xf32>
  %e = tensor.empty(%d) : tensor<?x4xf32>
  // CHECK: %[[E2:.+]] = tensor.empty() : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  // CHECK: %[[DIM:.+]] = tensor.dim %[[T]], %[[D]] : tensor<?x?xf32>
  %dim = tensor.dim %t, %d : tensor<?x?xf32>
  // CHECK: %[[C:.+]] = tensor.cast %[[T]] : tensor<?x?xf32> to tensor<4x?xf32>
  %c = tensor.cast %t : tensor<?x?xf32> to tensor<4x?xf32>
  // CHECK: %[[U:.+]] = tensor.cast %[[T]] : tensor<?x?xf32> to tensor<*xf32>
  %u = tensor.cast %t : tensor<?x?xf32> to tensor<*xf32>
  // CHECK: return %[[E]], %[[E2]], %[[DIM]], %[[C]], %[[U]]
  return %e, %e2, %dim, %c, %u : tensor<?x4xf32>, tensor<4xf32>, index, tensor<4x?xf32>, tensor<*xf32>
}

// CHECK-LABEL: func.func @elements
// CHECK-SAME: (%[[T:[^:]+]]: tensor<?x4xf32>, %[[I:[^:]+]]: index, %[[V:[^:]+]]: f32
func.func @elements(%t: tensor<?x4xf32>, %i: index, %v: f32, %z0: tensor<i32>) -> (f32, tensor<?x4xf32>, tensor<4xf32>, tensor<?x4xf32>, i32) {
  // CHECK: %[[X:.+]] = tensor.extract %[[T]][%[[I]], %[[I]]] : tensor<?x4xf32>
  %x = tensor.extract %t[%i, %i] : tensor<?x4xf32>
  // CHECK: %[[Y:.+]] = tensor.insert %[[V]] into %[[T]][%[[I]], %[[I]]] : tensor<?x4xf32>
  %y = tensor.insert %v into %t[%i, %i] : tensor<?x4xf32>
  // CHECK: %[[S:.+]] = tensor.splat %[[V]] : tensor<4xf32>
  %s = tensor.splat %v : tensor<4xf32>
  // CHECK: %[[SD:.+]] = tensor.splat %[[V]][%[[I]]] : tensor<?x4xf32>
  %sd = tensor.splat %v[%i] : tensor<?x4xf32>
  // CHECK: %[[Z:.+]] = tensor.extract %{{.+}}[] : tensor<i32>
  %z = tensor.extract %z0[] : tensor<i32>
  return %x, %y, %s, %sd, %z : f32, tensor<?x4xf32>, tensor<4xf32>, tensor<?x4xf32>, i32
}

// CHECK-LABEL: func.func @slices
// CHECK-SAME: (%[[T:[^:]+]]: tensor<8x?xf32>, %[[I:[^:]+]]: index, %[[S:[^:]+]]: tensor<4x4xf32>
func.func @slices(%t: tensor<8x?xf32>, %i: index, %s: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>, tensor<?x?xf32>, tensor<8x?xf32>, tensor<8x?xf32>) {
  // CHECK: %[[A:.+]] = tensor.extract_slice %[[T]][0, %[[I]]] [4, 4] [1, 1] : tensor<8x?xf32> to tensor<4x4xf32>
  %a = tensor.extract_slice %t[0, %i] [4, 4] [1, 1] : tensor<8x?xf32> to tensor<4x4xf32>
  // Rank-reducing: the unit dimension is dropped.
  // CHECK: %[[B:.+]] = tensor.extract_slice %[[T]][2, 0] [1, 4] [1, 1] : tensor<8x?xf32> to tensor<4xf32>
  %b = tensor.extract_slice %t[2, 0] [1, 4] [1, 1] : tensor<8x?xf32> to tensor<4xf32>
  // CHECK: %[[C:.+]] = tensor.extract_slice %[[T]][%[[I]], %[[I]]] [%[[I]], %[[I]]] [%[[I]], 2] : tensor<8x?xf32> to tensor<?x?xf32>
  %c = tensor.extract_slice %t[%i, %i] [%i, %i] [%i, 2] : tensor<8x?xf32> to tensor<?x?xf32>
  // CHECK: %[[D:.+]] = tensor.insert_slice %[[S]] into %[[T]][0, %[[I]]] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<8x?xf32>
  %d = tensor.insert_slice %s into %t[0, %i] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<8x?xf32>
  // CHECK: %[[E:.+]] = tensor.insert_slice %[[B]] into %[[T]][%[[I]], 0] [1, 4] [1, %[[I]]] {tag} : tensor<4xf32> into tensor<8x?xf32>
  %e = tensor.insert_slice %b into %t[%i, 0] [1, 4] [1, %i] {tag} : tensor<4xf32> into tensor<8x?xf32>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]]
  return %a, %b, %c, %d, %e : tensor<4x4xf32>, tensor<4xf32>, tensor<?x?xf32>, tensor<8x?xf32>, tensor<8x?xf32>
}

// Like MLIR, a slice may drop the source's encoding.
// CHECK-LABEL: func.func @slice_encoding
func.func @slice_encoding(%t: tensor<8xf32, "enc">) -> (tensor<4xf32>, tensor<4xf32, "enc">) {
  // CHECK: tensor.extract_slice %{{.+}}[0] [4] [1] : tensor<8xf32, "enc"> to tensor<4xf32>
  %0 = tensor.extract_slice %t[0] [4] [1] : tensor<8xf32, "enc"> to tensor<4xf32>
  // CHECK: tensor.extract_slice %{{.+}}[4] [4] [1] : tensor<8xf32, "enc"> to tensor<4xf32, "enc">
  %1 = tensor.extract_slice %t[4] [4] [1] : tensor<8xf32, "enc"> to tensor<4xf32, "enc">
  return %0, %1 : tensor<4xf32>, tensor<4xf32, "enc">
}

// CHECK-LABEL: func.func @reshapes
// CHECK-SAME: (%[[A:[^:]+]]: tensor<?xf32>, %[[B:[^:]+]]: tensor<4x8x?xf32>, %[[D:[^:]+]]: index
func.func @reshapes(%a: tensor<?xf32>, %b: tensor<4x8x?xf32>, %d: index, %s: tensor<32xf32>, %z: tensor<f32>) -> (tensor<?x4xf32>, tensor<32x?xf32>, tensor<2x16xf32>, tensor<1x1xf32>) {
  // CHECK: %[[E:.+]] = tensor.expand_shape %[[A]] {{\[}}[0, 1]] output_shape [%[[D]], 4] : tensor<?xf32> into tensor<?x4xf32>
  %e = tensor.expand_shape %a [[0, 1]] output_shape [%d, 4] : tensor<?xf32> into tensor<?x4xf32>
  // CHECK: %[[C:.+]] = tensor.collapse_shape %[[B]] {{\[}}[0, 1], [2]] : tensor<4x8x?xf32> into tensor<32x?xf32>
  %c = tensor.collapse_shape %b [[0, 1], [2]] : tensor<4x8x?xf32> into tensor<32x?xf32>
  // CHECK: tensor.expand_shape %{{.+}} {{\[}}[0, 1]] output_shape [2, 16] : tensor<32xf32> into tensor<2x16xf32>
  %f = tensor.expand_shape %s [[0, 1]] output_shape [2, 16] : tensor<32xf32> into tensor<2x16xf32>
  // A rank-0 tensor expands with an empty reassociation.
  // CHECK: tensor.expand_shape %{{.+}} [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
  %g = tensor.expand_shape %z [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
  return %e, %c, %f, %g : tensor<?x4xf32>, tensor<32x?xf32>, tensor<2x16xf32>, tensor<1x1xf32>
}

// CHECK-LABEL: func.func @pad
// CHECK-SAME: (%[[T:[^:]+]]: tensor<?x?xf32>, %[[H:[^:]+]]: index, %[[CST:[^:]+]]: f32
func.func @pad(%t: tensor<?x?xf32>, %h: index, %cst: f32) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  // CHECK: %[[P:.+]] = tensor.pad %[[T]] low[1, 2] high[%[[H]], 0] {
  // CHECK-NEXT: ^bb0(%{{.+}}: index, %{{.+}}: index):
  // CHECK-NEXT: tensor.yield %[[CST]] : f32
  // CHECK-NEXT: } : tensor<?x?xf32> to tensor<?x?xf32>
  %p = tensor.pad %t low[1, 2] high[%h, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<?x?xf32> to tensor<?x?xf32>
  // CHECK: %[[Q:.+]] = tensor.pad %[[T]] nofold low[0, 0] high[0, 0] {
  // CHECK: arith.index_cast
  // CHECK: } {tag} : tensor<?x?xf32> to tensor<?x?xf32>
  %q = tensor.pad %t nofold low[0, 0] high[0, 0] {
  ^bb0(%i: index, %j: index):
    %x = arith.index_cast %i : index to i32
    %y = arith.sitofp %x : i32 to f32
    tensor.yield %y : f32
  } {tag} : tensor<?x?xf32> to tensor<?x?xf32>
  // CHECK: return %[[P]], %[[Q]]
  return %p, %q : tensor<?x?xf32>, tensor<?x?xf32>
}

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// CHECK-LABEL: func.func @generic_reduce
// CHECK-SAME: (%[[A:[^:]+]]: tensor<4x8xf32>, %[[B:[^:]+]]: tensor<4x8xf32>, %[[C:[^:]+]]: tensor<4xf32>
func.func @generic_reduce(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[R:.+]] = tensor.generic {doc = "row dot", indexing_maps = [#[[ID]], #[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"], library_call = "rowdot"} ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<4x8xf32>) outs(%[[C]] : tensor<4xf32>) attrs = {tag = 1 : i64} {
  // CHECK-NEXT: ^bb0(%[[IN:[^:]+]]: f32, %[[IN0:[^:]+]]: f32, %[[OUT:[^:]+]]: f32):
  // CHECK-NEXT: %[[M:.+]] = arith.mulf %[[IN]], %[[IN0]] : f32
  // CHECK-NEXT: %[[S:.+]] = arith.addf %[[M]], %[[OUT]] : f32
  // CHECK-NEXT: tensor.yield %[[S]] : f32
  // CHECK-NEXT: } -> tensor<4xf32>
  %0 = tensor.generic {indexing_maps = [#id, #id, #row], iterator_types = ["parallel", "reduction"], doc = "row dot", library_call = "rowdot"} ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%c : tensor<4xf32>) attrs = {tag = 1} {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %1 = arith.mulf %in, %in_0 : f32
    %2 = arith.addf %1, %out : f32
    tensor.yield %2 : f32
  } -> tensor<4xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @generic_multi
func.func @generic_multi(%a: tensor<?x8xf32>, %o1: tensor<?x8xf32>, %o2: tensor<?x8xi32>) -> (tensor<?x8xf32>, tensor<?x8xi32>) {
  // CHECK: %[[R:.+]]:2 = tensor.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%{{.+}} : tensor<?x8xf32>) outs(%{{.+}}, %{{.+}} : tensor<?x8xf32>, tensor<?x8xi32>) {
  // CHECK-NEXT: ^bb0(%[[IN:[^:]+]]: f32, %{{.+}}: f32, %{{.+}}: i32):
  // CHECK: tensor.yield %{{.+}}, %{{.+}} : f32, i32
  // CHECK-NEXT: } -> (tensor<?x8xf32>, tensor<?x8xi32>)
  %0:2 = tensor.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<?x8xf32>) outs(%o1, %o2 : tensor<?x8xf32>, tensor<?x8xi32>) {
  ^bb0(%in: f32, %out: f32, %out_0: i32):
    %1 = arith.negf %in : f32
    %2 = arith.fptosi %in : f32 to i32
    tensor.yield %1, %2 : f32, i32
  } -> (tensor<?x8xf32>, tensor<?x8xi32>)
  return %0#0, %0#1 : tensor<?x8xf32>, tensor<?x8xi32>
}

// A generic with no inputs (a fill) and a transposed output map.
// CHECK-LABEL: func.func @generic_fill
func.func @generic_fill(%o: tensor<8x4xf32>, %v: f32) -> tensor<8x4xf32> {
  // CHECK: tensor.generic {indexing_maps = [#{{.+}}], iterator_types = ["parallel", "parallel"]} outs(%{{.+}} : tensor<8x4xf32>) {
  %0 = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} outs(%o : tensor<8x4xf32>) {
  ^bb0(%out: f32):
    tensor.yield %v : f32
  } -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// A 1-D convolution: the input is indexed by d0 + d1 (its size is not a loop bound).
// CHECK-LABEL: func.func @generic_conv
func.func @generic_conv(%a: tensor<5xf32>, %k: tensor<3xf32>, %o: tensor<3xf32>) -> tensor<3xf32> {
  // CHECK: tensor.generic {indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}], iterator_types = ["parallel", "reduction"]} ins(%{{.+}}, %{{.+}} : tensor<5xf32>, tensor<3xf32>) outs(%{{.+}} : tensor<3xf32>)
  %0 = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a, %k : tensor<5xf32>, tensor<3xf32>) outs(%o : tensor<3xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %1 = arith.mulf %in, %in_0 : f32
    %2 = arith.addf %1, %out : f32
    tensor.yield %2 : f32
  } -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
