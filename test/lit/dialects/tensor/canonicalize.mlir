// RUN: mlc-opt %s -p 'builtin.module(func.func(canonicalize,cse))' --split-input-file | filecheck %s

// CHECK-LABEL: func.func @dim_static
// CHECK-SAME: (%[[T:[^:]+]]: tensor<4x?xf32>
func.func @dim_static(%t: tensor<4x?xf32>) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
  // CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
  // CHECK: %[[D:.+]] = tensor.dim %[[T]], %[[C1]]
  %0 = tensor.dim %t, %c0 : tensor<4x?xf32>
  %1 = tensor.dim %t, %c1 : tensor<4x?xf32>
  // CHECK: return %[[C4]], %[[D]]
  return %0, %1 : index, index
}

// -----

// CHECK-LABEL: func.func @dim_of_empty
// CHECK-SAME: (%[[N:[^:]+]]: index
func.func @dim_of_empty(%n: index, %v: f32) -> (index, index) {
  %c0 = arith.constant 0 : index
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %s = tensor.splat %v[%n] : tensor<?xf32>
  %0 = tensor.dim %e, %c0 : tensor<?x4xf32>
  %1 = tensor.dim %s, %c0 : tensor<?xf32>
  // CHECK-NOT: tensor.empty
  // CHECK-NOT: tensor.splat
  // CHECK: return %[[N]], %[[N]]
  return %0, %1 : index, index
}

// -----

// CHECK-LABEL: func.func @cast_identity
// CHECK-SAME: (%[[T:[^:]+]]: tensor<?xf32>
func.func @cast_identity(%t: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %0 = tensor.cast %t : tensor<?xf32> to tensor<?xf32>
  %1 = tensor.cast %t : tensor<?xf32> to tensor<4xf32>
  %2 = tensor.cast %1 : tensor<4xf32> to tensor<?xf32>
  // CHECK-NOT: tensor.cast
  // CHECK: return %[[T]], %[[T]]
  return %0, %2 : tensor<?xf32>, tensor<?xf32>
}

// -----

// CHECK-LABEL: func.func @full_slices
// CHECK-SAME: (%[[T:[^:]+]]: tensor<4x8xf32>, %[[S:[^:]+]]: tensor<4x8xf32>
func.func @full_slices(%t: tensor<4x8xf32>, %s: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<2x8xf32>) {
  %0 = tensor.extract_slice %t[0, 0] [4, 8] [1, 1] : tensor<4x8xf32> to tensor<4x8xf32>
  %1 = tensor.insert_slice %s into %t[0, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<4x8xf32>
  // A partial slice stays.
  // CHECK: %[[P:.+]] = tensor.extract_slice %[[T]][2, 0] [2, 8] [1, 1]
  %2 = tensor.extract_slice %t[2, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>
  // CHECK: return %[[T]], %[[S]], %[[P]]
  return %0, %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<2x8xf32>
}

// -----

// CHECK-LABEL: func.func @empty_constant_sizes
// CHECK-SAME: (%[[N:[^:]+]]: index
func.func @empty_constant_sizes(%n: index) -> tensor<?x?xf32> {
  %c4 = arith.constant 4 : index
  // CHECK: %[[E:.+]] = tensor.empty(%[[N]]) : tensor<4x?xf32>
  // CHECK: %[[C:.+]] = tensor.cast %[[E]] : tensor<4x?xf32> to tensor<?x?xf32>
  %0 = tensor.empty(%c4, %n) : tensor<?x?xf32>
  // CHECK: return %[[C]]
  return %0 : tensor<?x?xf32>
}

// -----

// CHECK-LABEL: func.func @splat_and_extract
func.func @splat_and_extract(%v: f32, %i: index) -> (tensor<4xf32>, f32, f32, i32) {
  %c = arith.constant 2.0 : f32
  // CHECK-DAG: %[[SPLAT:.+]] = arith.constant dense<2.000000e+00> : tensor<4xf32>
  %0 = tensor.splat %c : tensor<4xf32>
  %s = tensor.splat %v : tensor<4xf32>
  %1 = tensor.extract %s[%i] : tensor<4xf32>
  %d = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %2 = tensor.extract %0[%i] : tensor<4xf32>
  %3 = tensor.extract %d[%c1, %c0] : tensor<2x2xi32>
  // CHECK-DAG: %[[TWO:.+]] = arith.constant 2.000000e+00 : f32
  // CHECK-DAG: %[[THREE:.+]] = arith.constant 3 : i32
  // CHECK: return %[[SPLAT]], %{{.+}}, %[[TWO]], %[[THREE]]
  return %0, %1, %2, %3 : tensor<4xf32>, f32, f32, i32
}

// -----

// CHECK-LABEL: func.func @reshape_pairs
// CHECK-SAME: (%[[T:[^:]+]]: tensor<4x8xf32>
func.func @reshape_pairs(%t: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tensor.collapse_shape %t [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %1 = tensor.expand_shape %0 [[0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
  // CHECK-NOT: tensor.
  // CHECK: return %[[T]]
  return %1 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @pad_noop
// CHECK-SAME: (%[[T:[^:]+]]: tensor<4x8xf32>, %[[C:[^:]+]]: f32
func.func @pad_noop(%t: tensor<4x8xf32>, %c: f32) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = tensor.pad %t low[0, 0] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<4x8xf32> to tensor<4x8xf32>
  // CHECK: %[[K:.+]] = tensor.pad %[[T]] nofold
  %1 = tensor.pad %t nofold low[0, 0] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<4x8xf32> to tensor<4x8xf32>
  // CHECK: return %[[T]], %[[K]]
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Unused tensor ops are pure: DCE removes them, and CSE merges duplicates.
// CHECK-LABEL: func.func @pure
func.func @pure(%t: tensor<?xf32>, %i: index) -> f32 {
  // CHECK-NOT: tensor.empty
  %e = tensor.empty(%i) : tensor<?xf32>
  %g = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%t : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    tensor.yield %in : f32
  } -> tensor<?xf32>
  // CHECK: %[[X:.+]] = tensor.extract
  // CHECK-NOT: tensor.extract
  %x = tensor.extract %t[%i] : tensor<?xf32>
  %y = tensor.extract %t[%i] : tensor<?xf32>
  %z = arith.addf %x, %y : f32
  // CHECK: arith.addf %[[X]], %[[X]]
  return %z : f32
}
