// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-vectorize{vector-bits=256 accumulators=1},canonicalize))' | filecheck %s

// Elementwise: contiguous loads/stores become vector accesses, a scalar argument is broadcast
// once before the loop, a loop-invariant load stays scalar and is broadcast in the body, and
// the dynamic trip count gets a scalar epilogue from floor(n/8)*8.
// CHECK-DAG: #[[$UB:.+]] = affine_map<()[s0] -> ((s0 floordiv 8) * 8)>
// CHECK-DAG: #[[$EPI:.+]] = affine_map<()[s0] -> (0, (s0 floordiv 8) * 8)>
// CHECK-LABEL: func.func @elementwise
// CHECK-SAME: (%[[A:.+]]: memref<?xf32>, %[[B:.+]]: memref<?xf32>, %[[S:.+]]: memref<f32>, %[[X:.+]]: f32, %[[N:.+]]: index)
// CHECK: %[[XV:.+]] = vector.broadcast %[[X]] : f32 to vector<8xf32>
// CHECK: affine.for %[[I:.+]] = 0 to #[[$UB]]()[%[[N]]] step 8 {
// CHECK-NEXT: %[[V:.+]] = affine.vector_load %[[A]][%[[I]]] : memref<?xf32>, vector<8xf32>
// CHECK-NEXT: %[[L:.+]] = affine.load %[[S]][] : memref<f32>
// CHECK-NEXT: %[[M:.+]] = arith.mulf %[[V]], %[[XV]] : vector<8xf32>
// CHECK-NEXT: %[[LV:.+]] = vector.broadcast %[[L]] : f32 to vector<8xf32>
// CHECK-NEXT: %[[T:.+]] = arith.addf %[[M]], %[[LV]] : vector<8xf32>
// CHECK-NEXT: %[[E:.+]] = math.exp %[[T]] : vector<8xf32>
// CHECK-NEXT: affine.vector_store %[[E]], %[[B]][%[[I]]] : memref<?xf32>, vector<8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: affine.for %[[J:.+]] = max #[[$EPI]]()[%[[N]]] to %[[N]] {
// CHECK-NEXT: affine.load %[[A]][%[[J]]] : memref<?xf32>
// CHECK: math.exp %{{.+}} : f32
// CHECK: affine.store
func.func @elementwise(%a: memref<?xf32>, %b: memref<?xf32>, %s: memref<f32>, %x: f32, %n: index) {
  affine.for %i = 0 to %n {
    %0 = affine.load %a[%i] : memref<?xf32>
    %1 = affine.load %s[] : memref<f32>
    %2 = arith.mulf %0, %x : f32
    %3 = arith.addf %2, %1 : f32
    %4 = math.exp %3 : f32
    affine.store %4, %b[%i] : memref<?xf32>
  }
  return
}

// -----

// A static trip count that is not a multiple of the width: a constant scalar epilogue.
// CHECK-LABEL: func.func @remainder
// CHECK: affine.for %[[I:.+]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[J:.+]] = 0 to 16 step 8 {
// CHECK-NEXT: affine.vector_load %{{.+}}[%[[I]], %[[J]]] : memref<2x21xf32>, vector<8xf32>
// CHECK-NEXT: arith.negf %{{.+}} : vector<8xf32>
// CHECK-NEXT: affine.vector_store
// CHECK-NEXT: }
// CHECK-NEXT: affine.for %[[K:.+]] = 16 to 21 {
// CHECK-NEXT: affine.load %{{.+}}[%[[I]], %[[K]]] : memref<2x21xf32>
func.func @remainder(%a: memref<2x21xf32>, %b: memref<2x21xf32>) {
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 21 {
      %0 = affine.load %a[%i, %j] : memref<2x21xf32>
      %1 = arith.negf %0 : f32
      affine.store %1, %b[%i, %j] : memref<2x21xf32>
    }
  }
  return
}

// -----

// A multiple of the width needs no epilogue (in-place update: same address read and written);
// fewer iterations than the narrowest vector stay scalar.
// CHECK-LABEL: func.func @exact_and_short
// CHECK: affine.for %[[I:.+]] = 0 to 32 step 8 {
// CHECK-NEXT: %[[V:.+]] = affine.vector_load %{{.+}}[%[[I]]] : memref<32xi32>, vector<8xi32>
// CHECK-NEXT: %[[S:.+]] = arith.addi %[[V]], %[[V]] : vector<8xi32>
// CHECK-NEXT: affine.vector_store %[[S]], %{{.+}}[%[[I]]] : memref<32xi32>, vector<8xi32>
// CHECK-NEXT: }
// CHECK-NEXT: affine.for %{{.+}} = 0 to 3 {
// CHECK-NEXT: affine.load
// CHECK-NEXT: arith.muli %{{.+}} : i32
func.func @exact_and_short(%a: memref<32xi32>, %b: memref<3xi32>) {
  affine.for %i = 0 to 32 {
    %0 = affine.load %a[%i] : memref<32xi32>
    %1 = arith.addi %0, %0 : i32
    affine.store %1, %a[%i] : memref<32xi32>
  }
  affine.for %i = 0 to 3 {
    %0 = affine.load %b[%i] : memref<3xi32>
    %1 = arith.muli %0, %0 : i32
    affine.store %1, %b[%i] : memref<3xi32>
  }
  return
}

// -----

// Reductions: a sum carried in iter_args gets a vector accumulator starting at the neutral
// element (-0.0), vector.reduction folds in the initial value, and the epilogue continues
// from there. The f32 max into a loop-invariant element is reduced on its bits as integers
// (three accumulators, see affine-vectorize-int-minmax.mlir), then folded into the initial
// value by a scalar maximumf.
// CHECK-LABEL: func.func @reductions
// CHECK-SAME: (%[[A:.+]]: memref<?x?xf32>, %[[M:.+]]: memref<?xf32>, %[[Z:.+]]: f32)
// CHECK-DAG: %[[NEG0:.+]] = arith.constant dense<-0.000000e+00> : vector<8xf32>
// CHECK: %[[VS:.+]] = affine.for %[[J:.+]] = 0 to #{{.+}} step 8 iter_args(%[[ACC:.+]] = %[[NEG0]]) -> (vector<8xf32>) {
// CHECK-NEXT: %[[V:.+]] = affine.vector_load %[[A]][0, %[[J]]]
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[ACC]], %[[V]] : vector<8xf32>
// CHECK-NEXT: affine.yield %[[S]] : vector<8xf32>
// CHECK: %[[R:.+]] = vector.reduction <add>, %[[VS]], %[[Z]] fastmath<reassoc> : vector<8xf32> into f32
// CHECK-NEXT: %[[SUM:.+]] = affine.for %{{.+}} = max #{{.+}} to %{{.+}} iter_args(%{{.+}} = %[[R]]) -> (f32) {
// CHECK: affine.for %[[I:.+]] = 0 to %{{.+}} {
// CHECK-NEXT: %[[INIT:.+]] = affine.load %[[M]][%[[I]]] : memref<?xf32>
// CHECK-NEXT: %[[VM:.+]]:3 = affine.for %{{.+}} step 8 iter_args({{.+}}) -> (vector<8xi32>, vector<8xi32>, vector<8xi32>) {
// CHECK-NEXT: %[[W:.+]] = affine.vector_load %[[A]][%[[I]], %{{.+}}]
// CHECK-NEXT: %[[WB:.+]] = arith.bitcast %[[W]] : vector<8xf32> to vector<8xi32>
// CHECK-NEXT: arith.maxsi %{{.+}}, %[[WB]] : vector<8xi32>
// CHECK-NEXT: arith.minui %{{.+}}, %[[WB]] : vector<8xi32>
// CHECK-NEXT: arith.maxui %{{.+}}, %[[WB]] : vector<8xi32>
// CHECK-NEXT: affine.yield
// CHECK-NEXT: }
// CHECK: %[[F:.+]] = arith.bitcast %{{.+}} : i32 to f32
// CHECK-NEXT: %[[RM:.+]] = arith.maximumf %[[INIT]], %[[F]] : f32
// CHECK-NEXT: affine.store %[[RM]], %[[M]][%[[I]]] : memref<?xf32>
// CHECK-NEXT: affine.for
// CHECK-NEXT: affine.load %[[A]]
// CHECK-NEXT: affine.load %[[M]][%[[I]]]
// CHECK-NEXT: arith.maximumf %{{.+}} : f32
// CHECK-NEXT: affine.store %{{.+}}, %[[M]][%[[I]]]
// CHECK: return %[[SUM]] : f32
func.func @reductions(%a: memref<?x?xf32>, %m: memref<?xf32>, %z: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.dim %a, %c0 : memref<?x?xf32>
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  %sum = affine.for %j = 0 to %n iter_args(%acc = %z) -> (f32) {
    %0 = affine.load %a[0, %j] : memref<?x?xf32>
    %1 = arith.addf %acc, %0 : f32
    affine.yield %1 : f32
  }
  affine.for %i = 0 to %r {
    affine.for %j = 0 to %n {
      %0 = affine.load %a[%i, %j] : memref<?x?xf32>
      %1 = affine.load %m[%i] : memref<?xf32>
      %2 = arith.maximumf %0, %1 : f32
      affine.store %2, %m[%i] : memref<?xf32>
    }
  }
  return %sum : f32
}

// -----

// A chunk of a parallel loop (upper bound min(i + 1024, n)): the vector loop ends at the
// smaller of i + 1024 and the last full vector before n; the epilogue starts after it.
// CHECK-DAG: #[[$VUB:.+]] = affine_map<(d0)[s0] -> (d0 + 1024, d0 + ((-d0 + s0) floordiv 8) * 8)>
// CHECK-DAG: #[[$ELB:.+]] = affine_map<(d0)[s0] -> (d0, d0 + ((-d0 + s0) floordiv 8) * 8)>
// CHECK-LABEL: func.func @strip_mined
// CHECK: affine.parallel (%[[P:.+]]) =
// CHECK-NEXT: affine.for %[[J:.+]] = #{{.+}}(%[[P]]) to min #[[$VUB]](%[[P]])[%{{.+}}] step 8 {
// CHECK-NEXT: affine.vector_load
// CHECK: affine.for %{{.+}} = max #[[$ELB]](%[[P]])[%{{.+}}] to min #{{.+}}(%[[P]])[%{{.+}}] {
// CHECK-NEXT: affine.load
// CHECK: {mlc.parallel}
func.func @strip_mined(%a: memref<?xf32>, %n: index) {
  affine.parallel (%i) = (0) to (symbol(%n)) step (1024) {
    affine.for %j = affine_map<(d0) -> (d0)>(%i) to min affine_map<(d0)[s0] -> (d0 + 1024, s0)>(%i)[%n] {
      %0 = affine.load %a[%j] : memref<?xf32>
      %1 = arith.mulf %0, %0 : f32
      affine.store %1, %a[%j] : memref<?xf32>
    }
  } {mlc.parallel}
  return
}

// -----

// The induction variable used as a value: broadcast plus [0, 1, ..., 7].
// CHECK-LABEL: func.func @iota
// CHECK: %[[STEPS:.+]] = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xindex>
// CHECK: affine.for %[[I:.+]] = 0 to #{{.+}} step 8 {
// CHECK-NEXT: %[[B:.+]] = vector.broadcast %[[I]] : index to vector<8xindex>
// CHECK-NEXT: %[[IV:.+]] = arith.addi %[[B]], %[[STEPS]] : vector<8xindex>
// CHECK-NEXT: arith.index_cast %[[IV]] : vector<8xindex> to vector<8xi64>
func.func @iota(%a: memref<?xf32>, %n: index) {
  affine.for %i = 0 to %n {
    %0 = arith.index_cast %i : index to i64
    %1 = arith.sitofp %0 : i64 to f32
    affine.store %1, %a[%i] : memref<?xf32>
  }
  return
}

// -----

// Two rows of one buffer, one read and one written: not the same address, but the dependence
// analysis (affine_dependence.is_parallel) proves that no iteration depends on another.
// CHECK-LABEL: func.func @rows_of_one_buffer
// CHECK: affine.vector_load %[[A:.+]][0, %[[I:.+]]] : memref<4x?xf32>, vector<8xf32>
// CHECK: affine.vector_store %{{.+}}, %[[A]][1, %[[I]]] : memref<4x?xf32>, vector<8xf32>
func.func @rows_of_one_buffer(%a: memref<4x?xf32>, %n: index) {
  affine.for %i = 0 to %n {
    %0 = affine.load %a[0, %i] : memref<4x?xf32>
    %1 = arith.addf %0, %0 : f32
    affine.store %1, %a[1, %i] : memref<4x?xf32>
  }
  return
}

// -----

// Left scalar: a strided access, a column walk, a shifted read of the written buffer (a
// loop-carried dependence), a call, an i1 buffer (bit-packed in vectors), two unknown upper
// bounds (no affine epilogue), a store to a loop-invariant address that is not a reduction.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: vector
// CHECK: return
func.func private @f(f32) -> f32
func.func @left_alone(%a: memref<?x?xf32>, %b: memref<?xf32>, %c: memref<?xi1>, %n: index, %m: index) {
  affine.for %i = 0 to %n {
    %0 = affine.load %b[%i * 2] : memref<?xf32>
    affine.store %0, %b[%i] : memref<?xf32>
  }
  affine.for %i = 0 to %n {
    %0 = affine.load %a[%i, 0] : memref<?x?xf32>
    affine.store %0, %a[%i, 1] : memref<?x?xf32>
  }
  affine.for %i = 0 to %n {
    %0 = affine.load %b[%i + 1] : memref<?xf32>
    affine.store %0, %b[%i] : memref<?xf32>
  }
  affine.for %i = 0 to %n {
    %0 = affine.load %b[%i] : memref<?xf32>
    %1 = func.call @f(%0) : (f32) -> f32
    affine.store %1, %b[%i] : memref<?xf32>
  }
  affine.for %i = 0 to %n {
    %0 = affine.load %c[%i] : memref<?xi1>
    %1 = arith.xori %0, %0 : i1
    affine.store %1, %c[%i] : memref<?xi1>
  }
  affine.for %i = 0 to min affine_map<()[s0, s1] -> (s0, s1)>()[%n, %m] {
    %0 = affine.load %b[%i] : memref<?xf32>
    %1 = arith.negf %0 : f32
    affine.store %1, %b[%i] : memref<?xf32>
  }
  affine.for %i = 0 to %n {
    %0 = affine.load %a[%i, %i] : memref<?x?xf32>
    affine.store %0, %b[0] : memref<?xf32>
  }
  return
}
