// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-vectorize{vector-bits=256},canonicalize))' | filecheck %s
// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-vectorize{vector-bits=256 accumulators=1},canonicalize))' | filecheck %s --check-prefix=ONE
// RUN: not mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-vectorize{accumulators=3}))' 2>&1 | filecheck %s --check-prefix=BAD
// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-vectorize{vector-bits=256}))' --dump-knobs=%t.json -o /dev/null
// RUN: filecheck %s --check-prefix=DUMP --input-file=%t.json
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); json.dump({k['key']: 3 for k in d['knobs'] if k['knob'] == 'accumulators'}, sys.stdout)" %t.json > %t.bad.json
// RUN: not mlc-opt %s -p 'builtin.module(func.func(affine-vectorize{vector-bits=256}))' --knobs=%t.bad.json 2>&1 | filecheck %s --check-prefix=DOMAIN

// Knob `accumulators` (default 4): a reduction loop carries several partial-result vectors,
// so consecutive vectors combine into independent dependence chains.

// ONE-LABEL: func.func @sum_static(
// ONE: affine.for %{{.+}} = 0 to 1000 step 8 iter_args(%{{.+}} = %{{.+}}) -> (vector<8xf32>) {
// ONE: affine.yield
// ONE-NEXT: }
// ONE-NEXT: vector.reduction <add>
// ONE-NEXT: return
// BAD: accumulators must be 1, 2, 4 or 8, got 3
// DUMP: "key": "@sum_static/affine.for:{{.+}}/0/accumulators",
// DUMP: "pass": "affine-vectorize",
// DUMP: "knob": "accumulators",
// DUMP: "options": [
// DUMP-NEXT: 1,
// DUMP-NEXT: 2,
// DUMP-NEXT: 4,
// DUMP-NEXT: 8
// DUMP: "default": 4,
// DOMAIN: error: value 3 of knob '@sum_static/affine.for:{{.+}}/0/accumulators' is outside its domain choice[1, 2, 4, 8]

// A float sum over 1000 elements: a main loop of four 8-lane partial sums (step 32) up to
// 992, the partial sums combined pairwise, one more vector (992..1000) on the combined sum,
// then one vector.reduction. 1000 is a multiple of 8: no scalar epilogue.
// CHECK-LABEL: func.func @sum_static(
// CHECK: %[[NEG0:.+]] = arith.constant dense<-0.000000e+00> : vector<8xf32>
// CHECK: %[[P:.+]]:4 = affine.for %[[I:.+]] = 0 to 992 step 32 iter_args(%[[A0:.+]] = %[[NEG0]], %[[A1:.+]] = %[[NEG0]], %[[A2:.+]] = %[[NEG0]], %[[A3:.+]] = %[[NEG0]]) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// CHECK:   affine.vector_load %{{.+}}[%[[I]]] : memref<1000xf32>, vector<8xf32>
// CHECK:   affine.vector_load %{{.+}}[%[[I]] + 8] : memref<1000xf32>, vector<8xf32>
// CHECK:   affine.vector_load %{{.+}}[%[[I]] + 16] : memref<1000xf32>, vector<8xf32>
// CHECK:   affine.vector_load %{{.+}}[%[[I]] + 24] : memref<1000xf32>, vector<8xf32>
// CHECK:   affine.yield
// CHECK: %[[S01:.+]] = arith.addf %[[P]]#0, %[[P]]#1 : vector<8xf32>
// CHECK: %[[S23:.+]] = arith.addf %[[P]]#2, %[[P]]#3 : vector<8xf32>
// CHECK: %[[S:.+]] = arith.addf %[[S01]], %[[S23]] : vector<8xf32>
// CHECK: %[[R:.+]] = affine.for %{{.+}} = 992 to 1000 step 8 iter_args(%{{.+}} = %[[S]]) -> (vector<8xf32>) {
// CHECK: %[[F:.+]] = vector.reduction <add>, %[[R]], %{{.+}} fastmath<reassoc> : vector<8xf32> into f32
// CHECK-NOT: affine.for
// CHECK: return %[[F]] : f32

func.func @sum_static(%x: memref<1000xf32>) -> f32 {
  %c0 = arith.constant 0.0 : f32
  %r = affine.for %i = 0 to 1000 iter_args(%acc = %c0) -> (f32) {
    %0 = affine.load %x[%i] : memref<1000xf32>
    %1 = arith.addf %acc, %0 : f32
    affine.yield %1 : f32
  }
  return %r : f32
}

// -----

// maximumf (exact under reordering) in the memory form: 64 = 2 x 32, so the main loop is all.
// On f32 bits as integers (knob int_minmax): each of the 4 copies carries the 3 integer
// accumulators (iter_args by copy, then accumulator), combined pairwise per accumulator.
// CHECK-LABEL: func.func @max_exact(
// CHECK: %[[INIT:.+]] = affine.load %{{.+}}[%{{.+}}] : memref<?xf32>
// CHECK: %[[P:.+]]:12 = affine.for %{{.+}} = 0 to 64 step 32 iter_args(
// CHECK-COUNT-4: arith.maxui %{{.+}}, %{{.+}} : vector<8xi32>
// CHECK: affine.yield
// CHECK: arith.maxsi %[[P]]#0, %[[P]]#3 : vector<8xi32>
// CHECK: arith.maxsi %[[P]]#6, %[[P]]#9 : vector<8xi32>
// CHECK: arith.minui %[[P]]#1, %[[P]]#4 : vector<8xi32>
// CHECK: arith.maxui %[[P]]#2, %[[P]]#5 : vector<8xi32>
// CHECK: vector.reduction <maxsi>
// CHECK: vector.reduction <minui>
// CHECK: vector.reduction <maxui>
// CHECK: %[[R:.+]] = arith.maximumf %[[INIT]], %{{.+}} : f32
// CHECK: affine.store %[[R]]
// CHECK-NOT: affine.for
// CHECK: return

func.func @max_exact(%x: memref<?x64xf32>, %m: memref<?xf32>, %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to 64 {
      %0 = affine.load %x[%i, %j] : memref<?x64xf32>
      %1 = affine.load %m[%i] : memref<?xf32>
      %2 = arith.maximumf %1, %0 : f32
      affine.store %2, %m[%i] : memref<?xf32>
    }
  }
  return
}

// -----

// 20 iterations: four accumulators of 8 lanes do not fit, two do (16); the rest is scalar.
// CHECK-LABEL: func.func @short(
// CHECK: %[[P:.+]]:2 = affine.for %{{.+}} = 0 to 16 step 16 iter_args(
// CHECK: %[[S:.+]] = arith.addi %[[P]]#0, %[[P]]#1 : vector<8xi32>
// CHECK: %[[R:.+]] = vector.reduction <add>, %[[S]], %{{.+}} : vector<8xi32> into i32
// CHECK: affine.for %{{.+}} = 16 to 20 iter_args(%{{.+}} = %[[R]]) -> (i32) {

func.func @short(%x: memref<20xi32>) -> i32 {
  %c0 = arith.constant 0 : i32
  %r = affine.for %i = 0 to 20 iter_args(%acc = %c0) -> (i32) {
    %0 = affine.load %x[%i] : memref<20xi32>
    %1 = arith.addi %acc, %0 : i32
    affine.yield %1 : i32
  }
  return %r : i32
}

// -----

// A dynamic trip count: the main loop ends at floor(n/32)*32, the one-accumulator vector loop
// at floor(n/8)*8, the scalar epilogue at n.
// CHECK-DAG: #[[MAIN:.+]] = affine_map<()[s0] -> ((s0 floordiv 32) * 32)>
// CHECK-DAG: #[[FROM:.+]] = affine_map<()[s0] -> (0, (s0 floordiv 32) * 32)>
// CHECK-DAG: #[[VEC:.+]] = affine_map<()[s0] -> ((s0 floordiv 8) * 8)>
// CHECK-DAG: #[[TAIL:.+]] = affine_map<()[s0] -> (0, (s0 floordiv 8) * 8)>
// CHECK-LABEL: func.func @dynamic_dot(
// CHECK-SAME: %{{.+}}: memref<?xf32>, %{{.+}}: memref<?xf32>, %[[N:.+]]: index
// CHECK: %[[P:.+]]:4 = affine.for %{{.+}} = 0 to #[[MAIN]]()[%[[N]]] step 32 iter_args(
// CHECK-COUNT-4: arith.mulf
// CHECK: affine.yield
// CHECK: arith.addf %[[P]]#0, %[[P]]#1 : vector<8xf32>
// CHECK: arith.addf %[[P]]#2, %[[P]]#3 : vector<8xf32>
// CHECK: %[[S:.+]] = arith.addf %{{.+}}, %{{.+}} : vector<8xf32>
// CHECK: %[[V:.+]] = affine.for %{{.+}} = max #[[FROM]]()[%[[N]]] to #[[VEC]]()[%[[N]]] step 8 iter_args(%{{.+}} = %[[S]]) -> (vector<8xf32>) {
// CHECK: %[[R:.+]] = vector.reduction <add>, %[[V]]
// CHECK: affine.for %{{.+}} = max #[[TAIL]]()[%[[N]]] to %[[N]] iter_args(%{{.+}} = %[[R]]) -> (f32) {

func.func @dynamic_dot(%x: memref<?xf32>, %y: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0.0 : f32
  %r = affine.for %i = 0 to %n iter_args(%acc = %c0) -> (f32) {
    %0 = affine.load %x[%i] : memref<?xf32>
    %1 = affine.load %y[%i] : memref<?xf32>
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    affine.yield %3 : f32
  }
  return %r : f32
}

// -----

// Loops without reductions are not replicated.
// CHECK-LABEL: func.func @no_reduction(
// CHECK: affine.for %{{.+}} = 0 to 64 step 8 {
// CHECK-NEXT: affine.vector_load
// CHECK-NEXT: affine.vector_store
// CHECK-NEXT: }

func.func @no_reduction(%x: memref<64xf32>, %y: memref<64xf32>) {
  affine.for %i = 0 to 64 {
    %0 = affine.load %x[%i] : memref<64xf32>
    affine.store %0, %y[%i] : memref<64xf32>
  }
  return
}

// -----

// maxnumf into an iter_arg with a constant initial value that is not NaN (softmax's row max
// starts at -inf): the partials start at -inf, never become NaN, and combine with
// `select(x > acc, x, acc)` (one vmaxps on x86, against maxnum's max, NaN compare and blend);
// the partials and the initial value combine with maxnumf after the loop, so the result is
// maxnum's. minnumf likewise with +inf and `<`.
// CHECK-LABEL: func.func @maxnum_select(
// CHECK-DAG: %[[NINF:.+]] = arith.constant dense<0xFF800000> : vector<8xf32>
// CHECK-DAG: %[[PINF:.+]] = arith.constant dense<0x7F800000> : vector<8xf32>
// CHECK: %[[P:.+]]:8 = affine.for %{{.+}} = 0 to 1024 step 32 iter_args(%[[A0:[a-z0-9_]+]] = %[[NINF]], %[[B0:[a-z0-9_]+]] = %[[PINF]],
// CHECK:   %[[V:[a-z0-9_]+]] = affine.vector_load
// CHECK-NEXT:   %[[C:[a-z0-9_]+]] = arith.cmpf ogt, %[[V]], %[[A0]] : vector<8xf32>
// CHECK-NEXT:   %{{.+}} = arith.select %[[C]], %[[V]], %[[A0]] : vector<8xi1>, vector<8xf32>
// CHECK-NEXT:   %[[D:[a-z0-9_]+]] = arith.cmpf olt, %[[V]], %[[B0]] : vector<8xf32>
// CHECK-NEXT:   %{{.+}} = arith.select %[[D]], %[[V]], %[[B0]] : vector<8xi1>, vector<8xf32>
// CHECK-NOT: arith.maxnumf {{.*}} vector
// CHECK: affine.yield
// CHECK: arith.maxnumf %[[P]]#0, %[[P]]#2 : vector<8xf32>
// CHECK: vector.reduction <maxnumf>, %{{.+}}, %{{.+}} : vector<8xf32> into f32
// CHECK: vector.reduction <minnumf>, %{{.+}}, %{{.+}} : vector<8xf32> into f32
// A NaN initial value (maxnum's neutral element) or one not known: maxnumf on vectors.
// CHECK-LABEL: func.func @maxnum_nan_init(
// CHECK: arith.constant dense<0x7FC00000> : vector<8xf32>
// CHECK: arith.maxnumf %{{.+}}, %{{.+}} : vector<8xf32>
// CHECK-NOT: arith.select
// CHECK: arith.maxnumf %{{.+}}, %{{.+}} : vector<8xf32>
// CHECK-NOT: arith.select
// CHECK: return
func.func @maxnum_select(%x: memref<1024xf32>) -> (f32, f32) {
  %ninf = arith.constant 0xFF800000 : f32
  %pinf = arith.constant 0x7F800000 : f32
  %r:2 = affine.for %i = 0 to 1024 iter_args(%m = %ninf, %n = %pinf) -> (f32, f32) {
    %v = affine.load %x[%i] : memref<1024xf32>
    %0 = arith.maxnumf %v, %m : f32
    %1 = arith.minnumf %n, %v : f32
    affine.yield %0, %1 : f32, f32
  }
  return %r#0, %r#1 : f32, f32
}
func.func @maxnum_nan_init(%x: memref<1024xf32>, %init: f32) -> (f32, f32) {
  %nan = arith.constant 0x7FC00000 : f32
  %r = affine.for %i = 0 to 1024 iter_args(%m = %nan) -> (f32) {
    %v = affine.load %x[%i] : memref<1024xf32>
    %0 = arith.maxnumf %v, %m : f32
    affine.yield %0 : f32
  }
  %s = affine.for %i = 0 to 1024 iter_args(%m = %init) -> (f32) {
    %v = affine.load %x[%i] : memref<1024xf32>
    %0 = arith.maxnumf %m, %v : f32
    affine.yield %0 : f32
  }
  return %r, %s : f32, f32
}

// -----

// A heavy body (math.exp, which math-polynomial-approximation expands into ~16 vector ops)
// gets at most 2 accumulators by default: the body's own work overlaps the combining chain,
// and 4 copies of it spilled on AVX2's 16 registers. `accumulators=1` still gives 1.
// CHECK-LABEL: func.func @exp_sum(
// CHECK: %[[P:.+]]:2 = affine.for %{{.+}} = 0 to 1024 step 16 iter_args(
// CHECK-COUNT-2: math.exp %{{.+}} : vector<8xf32>
// CHECK: affine.yield
// CHECK: arith.addf %[[P]]#0, %[[P]]#1 : vector<8xf32>
// ONE-LABEL: func.func @exp_sum(
// ONE: affine.for %{{.+}} = 0 to 1024 step 8 iter_args(%{{.+}} = %{{.+}}) -> (vector<8xf32>) {

func.func @exp_sum(%x: memref<1024xf32>) -> f32 {
  %c0 = arith.constant 0.0 : f32
  %r = affine.for %i = 0 to 1024 iter_args(%acc = %c0) -> (f32) {
    %0 = affine.load %x[%i] : memref<1024xf32>
    %1 = math.exp %0 : f32
    %2 = arith.addf %acc, %1 : f32
    affine.yield %2 : f32
  }
  return %r : f32
}

// -----

// The limit is more than 4 vector ops per element (the combining op included): 4 keep the
// option's 4 accumulators (@light4), 5 get 2 (@heavy5).
// CHECK-LABEL: func.func @light4(
// CHECK: affine.for %{{.+}} = 0 to 1024 step 32 iter_args(
// CHECK-LABEL: func.func @heavy5(
// CHECK: affine.for %{{.+}} = 0 to 1024 step 16 iter_args(

func.func @light4(%x: memref<1024xf32>, %s: f32) -> f32 {
  %c0 = arith.constant 0.0 : f32
  %r = affine.for %i = 0 to 1024 iter_args(%acc = %c0) -> (f32) {
    %0 = affine.load %x[%i] : memref<1024xf32>
    %1 = arith.subf %0, %s : f32
    %2 = arith.mulf %1, %1 : f32
    %3 = arith.mulf %2, %s : f32
    %4 = arith.addf %acc, %3 : f32
    affine.yield %4 : f32
  }
  return %r : f32
}

func.func @heavy5(%x: memref<1024xf32>, %s: f32) -> f32 {
  %c0 = arith.constant 0.0 : f32
  %r = affine.for %i = 0 to 1024 iter_args(%acc = %c0) -> (f32) {
    %0 = affine.load %x[%i] : memref<1024xf32>
    %1 = arith.subf %0, %s : f32
    %2 = arith.mulf %1, %1 : f32
    %3 = arith.mulf %2, %s : f32
    %4 = arith.addf %3, %s : f32
    %5 = arith.addf %acc, %4 : f32
    affine.yield %5 : f32
  }
  return %r : f32
}
