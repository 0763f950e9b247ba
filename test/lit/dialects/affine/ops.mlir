// RUN: mlc-opt %s | mlc-opt | filecheck %s
// RUN: mlc-opt %s --mlir-print-op-generic | mlc-opt | filecheck %s
// RUN: mlc-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// Every affine op in its custom forms; the custom and the generic print read back the same.

// CHECK-DAG: #[[$LB:.+]] = affine_map<(d0)[s0] -> (d0, s0 - 4)>
// CHECK-DAG: #[[$UB:.+]] = affine_map<(d0)[s0] -> (d0 + 10, s0)>
// CHECK-DAG: #[[$SET:.+]] = affine_set<(d0)[s0] : (d0 - 10 >= 0, -d0 + s0 - 1 >= 0)>
// CHECK-DAG: #[[$SHIFT:.+]] = affine_map<(d0)[s0] -> (d0 * 4 + s0)>
#lb = affine_map<(d0)[s0] -> (d0, s0 - 4)>
#ub = affine_map<(d0)[s0] -> (d0 + 10, s0)>
#set = affine_set<(d0)[s0] : (d0 - 10 >= 0, s0 - d0 - 1 >= 0)>

// CHECK-LABEL: func.func @for_forms
// CHECK-SAME: (%[[A:.+]]: memref<?xf32>, %[[N:.+]]: index, %[[Z:.+]]: f32)
func.func @for_forms(%A: memref<?xf32>, %n: index, %z: f32) -> f32 {
  // CHECK: affine.for %[[I:.+]] = 0 to 128 {
  // CHECK-NEXT: }
  // GENERIC: "affine.for"() <{lowerBoundMap = #{{.*}}, operandSegmentSizes = array<i32: 0, 0, 0>, step = 1 : index, upperBoundMap = #{{.*}}}>
  // GENERIC: "affine.yield"() : () -> ()
  affine.for %i = 0 to 128 {
  }
  // CHECK: affine.for %[[I:.+]] = -4 to %[[N]] step 4 {
  // GENERIC: operandSegmentSizes = array<i32: 0, 1, 0>, step = 4 : index
  affine.for %i = -4 to %n step 4 {
  }
  // CHECK: affine.for %[[I:.+]] = %[[N]] to 10 {
  affine.for %i = %n to 10 {
  }
  // CHECK: affine.for %[[I:.+]] = 0 to %[[N]] {
  // CHECK-NEXT: affine.for %[[J:.+]] = max #[[$LB]](%[[I]])[%[[N]]] to min #[[$UB]](%[[I]])[%[[N]]] step 2 {
  // CHECK-NEXT: affine.load %[[A]][%[[J]]]
  affine.for %i = 0 to %n {
    affine.for %j = max #lb(%i)[%n] to min #ub(%i)[%n] step 2 {
      %v = affine.load %A[%j] : memref<?xf32>
    }
  }
  // A single-result map keeps its map form; the `min` prefix is optional then.
  // CHECK: affine.for %[[I:.+]] = 0 to #[[$SHIFT]](%[[N]])[%[[N]]] {
  affine.for %i = 0 to affine_map<(d0)[s0] -> (d0 * 4 + s0)>(%n)[%n] {
  }
  // CHECK: %[[R:.+]]:2 = affine.for %[[I:.+]] = 0 to %[[N]] iter_args(%[[X:.+]] = %[[Z]], %[[Y:.+]] = %[[Z]]) -> (f32, f32) {
  // CHECK-NEXT: %[[V:.+]] = affine.load %[[A]][%[[I]]] : memref<?xf32>
  // CHECK-NEXT: %[[S:.+]] = arith.addf %[[X]], %[[V]] : f32
  // CHECK-NEXT: affine.yield %[[S]], %[[Y]] : f32, f32
  // CHECK-NEXT: }
  // GENERIC: operandSegmentSizes = array<i32: 0, 1, 2>
  %r:2 = affine.for %i = 0 to %n iter_args(%x = %z, %y = %z) -> (f32, f32) {
    %v = affine.load %A[%i] : memref<?xf32>
    %s = arith.addf %x, %v : f32
    affine.yield %s, %y : f32, f32
  }
  // Discardable attributes follow the body.
  // CHECK: affine.for %{{.*}} = 0 to 4 {
  // CHECK: } {some.tag = 3 : i32}
  affine.for %i = 0 to 4 {
  } {some.tag = 3 : i32}
  return %r#0 : f32
}

// CHECK-LABEL: func.func @parallel_forms
// CHECK-SAME: (%[[A:.+]]: memref<?x?xf32>, %[[N:.+]]: index, %[[M:.+]]: index)
func.func @parallel_forms(%A: memref<?x?xf32>, %n: index, %m: index) -> (f32, f32) {
  // CHECK: affine.parallel (%[[I:.+]], %[[J:.+]]) = (0, 0) to (%[[N]], 16) {
  // CHECK-NEXT: affine.load %[[A]][%[[I]], %[[J]]]
  // CHECK-NEXT: }
  // GENERIC: "affine.parallel"(%{{.*}}) <{lowerBoundsGroups = dense<1> : tensor<2xi32>, lowerBoundsMap = #{{.*}}, reductions = [], steps = [1, 1], upperBoundsGroups = dense<1> : tensor<2xi32>, upperBoundsMap = #{{.*}}}>
  affine.parallel (%i, %j) = (0, 0) to (%n, 16) {
    %v = affine.load %A[%i, %j] : memref<?x?xf32>
  }
  // Groups of bounds under max/min, steps, reductions.
  // CHECK: %[[P:.+]]:2 = affine.parallel (%[[I:.+]], %[[J:.+]]) = (max(0, %[[M]] - 8), 0) to (min(%[[N]], %[[M]]), %[[N]] floordiv 2) step (2, 4) reduce ("addf", "maximumf") -> (f32, f32) {
  // CHECK-NEXT: %[[V:.+]] = affine.load %[[A]][%[[I]], %[[J]]]
  // CHECK-NEXT: affine.yield %[[V]], %[[V]] : f32, f32
  // GENERIC: lowerBoundsGroups = dense<[2, 1]> : tensor<2xi32>
  // GENERIC-SAME: reductions = [0, 4], steps = [2, 4], upperBoundsGroups = dense<[2, 1]> : tensor<2xi32>
  %p:2 = affine.parallel (%i, %j) = (max(0, %m - 8), 0) to (min(%n, %m), %n floordiv 2) step (2, 4) reduce ("addf", "maximumf") -> (f32, f32) {
    %v = affine.load %A[%i, %j] : memref<?x?xf32>
    affine.yield %v, %v : f32, f32
  }
  // Bounds over symbols print with symbol(...).
  // CHECK: affine.parallel (%{{.*}}) = (0) to (symbol(%[[N]]) + symbol(%[[M]])) {
  affine.parallel (%i) = (0) to (symbol(%n) + symbol(%m)) {
  }
  return %p#0, %p#1 : f32, f32
}

// CHECK-LABEL: func.func @if_forms
// CHECK-SAME: (%[[I:.+]]: index, %[[N:.+]]: index, %[[A:.+]]: f32, %[[B:.+]]: f32)
func.func @if_forms(%i: index, %n: index, %a: f32, %b: f32) -> f32 {
  // CHECK: affine.if #[[$SET]](%[[I]])[%[[N]]] {
  // CHECK-NEXT: arith.addf
  // CHECK-NEXT: }
  // GENERIC: "affine.if"(%{{.*}}, %{{.*}}) <{condition = #{{.*}}}> ({
  // GENERIC: }, {
  // GENERIC-NEXT: }) : (index, index) -> ()
  affine.if #set(%i)[%n] {
    %s = arith.addf %a, %b : f32
  }
  // CHECK: affine.if #[[$SET]](%[[I]])[%[[N]]] {
  // CHECK-NEXT: } else {
  // CHECK-NEXT: arith.subf
  // CHECK-NEXT: }
  affine.if #set(%i)[%n] {
  } else {
    %s = arith.subf %a, %b : f32
  }
  // CHECK: %[[R:.+]] = affine.if #[[$SET]](%[[I]])[%[[N]]] -> f32 {
  // CHECK-NEXT: affine.yield %[[A]] : f32
  // CHECK-NEXT: } else {
  // CHECK-NEXT: affine.yield %[[B]] : f32
  // CHECK-NEXT: }
  %r = affine.if #set(%i)[%n] -> f32 {
    affine.yield %a : f32
  } else {
    affine.yield %b : f32
  }
  return %r : f32
}

// CHECK-LABEL: func.func @access_forms
// CHECK-SAME: (%[[A:.+]]: memref<?x?xf32>, %[[B:.+]]: memref<100xf32>, %[[S:.+]]: memref<f32>, %[[N:.+]]: index)
func.func @access_forms(%A: memref<?x?xf32>, %B: memref<100xf32>, %S: memref<f32>, %n: index) {
  affine.for %i = 0 to 10 {
    // CHECK: %[[V:.+]] = affine.load %[[A]][%[[I:.+]] + 1, symbol(%[[N]]) * 2] : memref<?x?xf32>
    // GENERIC: "affine.load"(%{{.*}}, %{{.*}}, %{{.*}}) <{map = #{{.*}}}> : (memref<?x?xf32>, index, index) -> f32
    %v = affine.load %A[%i + 1, symbol(%n) * 2] : memref<?x?xf32>
    // CHECK: affine.store %[[V]], %[[A]][%[[I]] floordiv 2, %[[I]] mod 3] : memref<?x?xf32>
    affine.store %v, %A[%i floordiv 2, %i mod 3] : memref<?x?xf32>
    // CHECK: %[[W:.+]] = affine.vector_load %[[B]][%[[I]] * 8] : memref<100xf32>, vector<8xf32>
    %w = affine.vector_load %B[%i * 8] : memref<100xf32>, vector<8xf32>
    // CHECK: affine.vector_store %[[W]], %[[B]][%[[I]] * 8 + 1] : memref<100xf32>, vector<8xf32>
    affine.vector_store %w, %B[%i * 8 + 1] : memref<100xf32>, vector<8xf32>
    // A rank-0 memref takes no subscripts.
    // CHECK: %[[X:.+]] = affine.load %[[S]][] : memref<f32>
    %x = affine.load %S[] : memref<f32>
    // CHECK: affine.store %[[X]], %[[S]][] {some.tag} : memref<f32>
    affine.store %x, %S[] {some.tag} : memref<f32>
  }
  return
}

// CHECK-LABEL: func.func @apply_min_max
// CHECK-SAME: (%[[I:.+]]: index, %[[N:.+]]: index)
func.func @apply_min_max(%i: index, %n: index) -> (index, index, index, index) {
  // CHECK: %[[P:.+]] = affine.apply #[[$SHIFT]](%[[I]])[%[[N]]]
  // GENERIC: "affine.apply"(%{{.*}}, %{{.*}}) <{map = #{{.*}}}> : (index, index) -> index
  %p = affine.apply affine_map<(d0)[s0] -> (d0 * 4 + s0)>(%i)[%n]
  // CHECK: %[[Q:.+]] = affine.apply #{{.*}}()[%[[N]]]
  %q = affine.apply affine_map<()[s0] -> (s0 ceildiv 8)>()[%n]
  // CHECK: %[[MIN:.+]] = affine.min #[[$UB]](%[[I]])[%[[N]]]
  // GENERIC: "affine.min"(%{{.*}}, %{{.*}}) <{map = #{{.*}}}> : (index, index) -> index
  %min = affine.min #ub(%i)[%n]
  // CHECK: %[[MAX:.+]] = affine.max #[[$LB]](%[[I]])[%[[N]]]
  %max = affine.max #lb(%i)[%n]
  return %p, %q, %min, %max : index, index, index, index
}
