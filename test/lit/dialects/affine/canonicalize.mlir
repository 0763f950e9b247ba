// RUN: mlc-opt %s -split-input-file --allow-unregistered-dialect -p 'builtin.module(canonicalize)' | filecheck %s

// Folders and canonicalization patterns of the affine dialect (results as MLIR's canonicalize).

// CHECK-LABEL: func.func @apply_constant_operands
// CHECK-NEXT: %[[C:.+]] = arith.constant 10 : index
// CHECK-NEXT: return %[[C]]
func.func @apply_constant_operands() -> index {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %0 = affine.apply affine_map<(d0)[s0] -> (d0 * 2 + s0)>(%c3)[%c4]
  return %0 : index
}

// -----

// CHECK-LABEL: func.func @apply_identity
// CHECK-SAME: (%[[I:.+]]: index)
// CHECK-NEXT: return %[[I]]
func.func @apply_identity(%i: index) -> index {
  %0 = affine.apply affine_map<(d0) -> (d0)>(%i)
  return %0 : index
}

// -----

// A division by zero is not folded.
// CHECK-LABEL: func.func @apply_no_fold_division_by_zero
// CHECK: affine.apply
func.func @apply_no_fold_division_by_zero() -> index {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %0 = affine.apply affine_map<(d0)[s0] -> (d0 floordiv s0)>(%c3)[%c0]
  return %0 : index
}

// -----

// Producers are composed into the consumer (MLIR's operand order), then erased.
// CHECK: #[[$MAP:.+]] = affine_map<()[s0, s1] -> (s0 + s1 * 2 + 2)>
// CHECK-LABEL: func.func @apply_compose
// CHECK-SAME: (%[[I:.+]]: index, %[[N:.+]]: index)
// CHECK-NEXT: %[[R:.+]] = affine.apply #[[$MAP]]()[%[[N]], %[[I]]]
// CHECK-NEXT: return %[[R]]
func.func @apply_compose(%i: index, %n: index) -> index {
  %0 = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)
  %1 = affine.apply affine_map<(d0)[s0] -> (d0 * 2 + s0)>(%0)[%n]
  return %1 : index
}

// -----

// CHECK-LABEL: func.func @load_store_compose
// CHECK: affine.for %[[I:.+]] = 0 to
// CHECK-NEXT: %[[V:.+]] = affine.load %{{.*}}[%[[I]] + 1]
// CHECK-NEXT: affine.store %[[V]], %{{.*}}[%[[I]] + 3]
// CHECK-NEXT: }
func.func @load_store_compose(%A: memref<?xf32>, %n: index) {
  affine.for %i = 0 to %n {
    %0 = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)
    %v = affine.load %A[%0] : memref<?xf32>
    affine.store %v, %A[%0 + 2] : memref<?xf32>
  }
  return
}

// -----

// Top-level values used as dims become symbols.
// CHECK-LABEL: func.func @store_promotes_symbol
// CHECK: affine.store %{{.*}}, %{{.*}}[symbol(%{{.*}})]
func.func @store_promotes_symbol(%i: index, %A: memref<?xf32>, %v: f32) {
  affine.store %v, %A[%i] : memref<?xf32>
  return
}

// -----

// CHECK-LABEL: func.func @min_max_constant
// CHECK-NEXT: %[[C:.+]] = arith.constant 12 : index
// CHECK-NEXT: return %[[C]]
func.func @min_max_constant() -> index {
  %c3 = arith.constant 3 : index
  %0 = affine.min affine_map<(d0) -> (d0, 10, 2)>(%c3)
  %1 = affine.max affine_map<(d0) -> (d0, 10, 2)>(%c3)
  %2 = arith.addi %0, %1 : index
  return %2 : index
}

// -----

// CHECK: #[[$MAP:.+]] = affine_map<()[s0] -> ({{s0, 10|10, s0}})>
// CHECK-LABEL: func.func @min_duplicates
// CHECK-NEXT: affine.min #[[$MAP]]()[%{{.*}}]
func.func @min_duplicates(%i: index) -> index {
  %0 = affine.min affine_map<(d0) -> (d0, d0, 10)>(%i)
  return %0 : index
}

// -----

// CHECK-LABEL: func.func @max_single_symbol
// CHECK-SAME: (%[[N:.+]]: index)
// CHECK-NEXT: return %[[N]]
func.func @max_single_symbol(%n: index) -> index {
  %0 = affine.max affine_map<()[s0] -> (s0)>()[%n]
  return %0 : index
}

// -----

// Constant bound operands fold into the maps.
// CHECK-LABEL: func.func @for_constant_bounds
// CHECK-NEXT: affine.for %{{.*}} = 2 to 10 {
func.func @for_constant_bounds(%A: memref<?xf32>) {
  %c2 = arith.constant 2 : index
  %c10 = arith.constant 10 : index
  affine.for %i = %c2 to %c10 {
    %v = affine.load %A[%i] : memref<?xf32>
    affine.store %v, %A[%i] : memref<?xf32>
  }
  return
}

// -----

// CHECK: #[[$MAP:.+]] = affine_map<()[s0] -> (s0 * 2)>
// CHECK-LABEL: func.func @for_bound_compose
// CHECK-SAME: (%{{.*}}: memref<?xf32>, %[[N:.+]]: index
// CHECK-NEXT: affine.for %{{.*}} = 0 to #[[$MAP]]()[%[[N]]] {
func.func @for_bound_compose(%A: memref<?xf32>, %n: index, %x: f32) {
  %0 = affine.apply affine_map<()[s0] -> (s0 * 2)>()[%n]
  affine.for %i = 0 to %0 {
    affine.store %x, %A[%i] : memref<?xf32>
  }
  return
}

// -----

// Empty loops go away; loops yielding their iter_args give the inits.
// CHECK-LABEL: func.func @for_empty
// CHECK-SAME: (%{{.*}}: index, %[[Z:.+]]: f32)
// CHECK-NEXT: return %[[Z]]
func.func @for_empty(%n: index, %z: f32) -> f32 {
  affine.for %i = 0 to %n {
  }
  %r = affine.for %i = 0 to %n iter_args(%a = %z) -> (f32) {
    affine.yield %a : f32
  }
  return %r : f32
}

// -----

// A zero-trip loop with results folds to its inits.
// CHECK-LABEL: func.func @for_zero_trip
// CHECK-SAME: (%[[Z:.+]]: f32
// CHECK-NEXT: return %[[Z]]
func.func @for_zero_trip(%z: f32, %A: memref<?xf32>) -> f32 {
  %r = affine.for %i = 10 to 5 iter_args(%a = %z) -> (f32) {
    %v = affine.load %A[%i] : memref<?xf32>
    %s = arith.addf %a, %v : f32
    affine.yield %s : f32
  }
  return %r : f32
}

// -----

// A loop with side effects stays.
// CHECK-LABEL: func.func @for_kept
// CHECK-NEXT: affine.for
// CHECK-NEXT: affine.store
func.func @for_kept(%A: memref<?xf32>, %n: index, %x: f32) {
  affine.for %i = 0 to %n {
    affine.store %x, %A[%i] : memref<?xf32>
  }
  return
}

// -----

// CHECK-LABEL: func.func @if_dead_else
// CHECK-NEXT: affine.if
// CHECK-NEXT: affine.store
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @if_dead_else(%i: index, %A: memref<?xf32>, %v: f32) {
  affine.if affine_set<(d0) : (d0 >= 0)>(%i) {
    affine.store %v, %A[%i] : memref<?xf32>
  } else {
  }
  return
}

// -----

// CHECK-LABEL: func.func @if_always_true
// CHECK-NEXT: affine.store
// CHECK-NEXT: return
func.func @if_always_true(%i: index, %A: memref<?xf32>, %v: f32) {
  affine.if affine_set<() : (0 == 0)>() {
    affine.store %v, %A[%i] : memref<?xf32>
  }
  return
}

// -----

// CHECK-LABEL: func.func @if_always_false
// CHECK-SAME: (%{{.*}}: index, %{{.*}}: f32, %[[B:.+]]: f32)
// CHECK-NEXT: return %[[B]]
func.func @if_always_false(%i: index, %a: f32, %b: f32) -> f32 {
  %r = affine.if affine_set<() : (1 == 0)>() -> f32 {
    affine.yield %a : f32
  } else {
    affine.yield %b : f32
  }
  return %r : f32
}

// -----

// CHECK: #[[$SET:.+]] = affine_set<()[s0] : (s0 - 4 >= 0)>
// CHECK-LABEL: func.func @if_compose
// CHECK-SAME: (%[[I:.+]]: index
// CHECK-NEXT: affine.if #[[$SET]]()[%[[I]]] {
func.func @if_compose(%i: index, %A: memref<?xf32>, %v: f32) {
  %0 = affine.apply affine_map<(d0) -> (d0 - 4)>(%i)
  affine.if affine_set<(d0) : (d0 >= 0)>(%0) {
    affine.store %v, %A[%i] : memref<?xf32>
  }
  return
}

// -----

// CHECK-LABEL: func.func @parallel_bound_compose
// CHECK-NEXT: affine.parallel (%{{.*}}) = (0) to (symbol(%{{.*}}) + 1) {
func.func @parallel_bound_compose(%A: memref<?xf32>, %n: index, %x: f32) {
  %0 = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%n]
  affine.parallel (%i) = (0) to (%0) {
    affine.store %x, %A[%i] : memref<?xf32>
  }
  return
}

// -----

// A single-result min/max is an affine.apply.
// CHECK-LABEL: func.func @min_max_single_result
// CHECK: affine.for %[[J:.+]] = 0 to 10 {
// CHECK-NEXT: %[[A:.+]] = affine.apply #{{.*}}(%[[J]])
// CHECK-NEXT: %[[B:.+]] = affine.apply #{{.*}}(%[[J]])
// CHECK-NEXT: "test.use"(%[[A]], %[[B]])
func.func @min_max_single_result(%i: index) {
  affine.for %j = 0 to 10 {
    %0 = affine.min affine_map<(d0) -> (d0 + 1)>(%j)
    %1 = affine.max affine_map<(d0, d1) -> (d0 + d1, d1 + d0)>(%j, %j)
    "test.use"(%0, %1) : (index, index) -> ()
  }
  return
}
