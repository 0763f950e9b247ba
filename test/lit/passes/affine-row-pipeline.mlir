// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-row-pipeline))' --split-input-file | filecheck %s
// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-row-pipeline{mode=false}))' --split-input-file | filecheck %s --check-prefix=OFF
// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-row-pipeline{mode=true rows=4}))' --split-input-file | filecheck %s --check-prefix=ON
// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-row-pipeline))' --dump-knobs=%t.json -o /dev/null
// RUN: filecheck %s --check-prefix=DUMP --input-file=%t.json
// RUN: not mlc-opt %s -p 'builtin.module(func.func(affine-row-pipeline{rows=3}))' --split-input-file 2>&1 | filecheck %s --check-prefix=BAD
// BAD: rows must be one of 0, 2, 4, 8, 16, 32, 64, got 3

// The knobs sit at the row loop, asked where the pattern is found: 16 rows by default for a
// heavy pass (softmax's exp), 0 (off) for a light one.
// DUMP: "key": "@softmax_rows/affine.parallel:{{.+}}/row_pipeline",
// DUMP: "pass": "affine-row-pipeline",
// DUMP: "default": 16
// DUMP: "key": "@softmax_rows/affine.parallel:{{.+}}/row_pipeline_columns",
// DUMP: "default": 64
// DUMP: "key": "@light_rows/affine.for:{{.+}}/row_pipeline",
// DUMP: "default": 0

// Softmax's shape after affine-vectorize: an exp-and-sum pass into a per-row buffer, then the
// pass scaling the buffer into the output row. The parallel loop runs 16 rows per iteration;
// the first row's passes run alone (the prologue), then each next row r runs its exp pass in
// chunks of 64 columns, each followed by the scale of the same 64 columns of row r - 1 (one
// loop of one trip, unrolled 8 times, so affine-nontemporal-stores can version its stores);
// the row buffer is doubled (row r uses [r mod 2]) and the scale of the chunk's last row,
// min(i + 16, n) - 1, runs after the rows (one of two loops of at most one trip: a full
// chunk, or the last, partial one).
// CHECK-LABEL: func.func @softmax_rows(
// CHECK-SAME:      %[[X:.*]]: memref<?x1024xf32>, %[[Y:.*]]: memref<?x1024xf32>)
// CHECK:         %[[N:.*]] = memref.dim %[[X]]
// CHECK:         affine.parallel (%[[I:.*]]) = (0) to (symbol(%[[N]])) step (16) {
// CHECK-NEXT:      %[[BUF:.*]] = memref.alloc() alignment = 64 : memref<2x1024xf32>
// CHECK-NEXT:      %[[S0:.*]] = affine.for %[[J0:.*]] = 0 to 1024 step 8
// CHECK:             affine.vector_store %{{.*}}, %[[BUF]][%[[I]] mod 2, %[[J0]]]
// CHECK:           %[[B0:.*]] = vector.broadcast
// CHECK:           %[[LAST:.*]] = affine.for %[[R:.*]] = #{{.*}}(%[[I]])[%[[N]]] to min #{{.*}}(%[[I]])[%[[N]]] iter_args(%[[PB:.*]] = %[[B0]]) -> (vector<8xf32>) {
// CHECK-NEXT:        %[[P:.*]] = affine.apply #{{.*}}(%[[R]])
// CHECK-NEXT:        %[[S:.*]] = affine.for %[[JJ:.*]] = 0 to 1024 step 64 iter_args(
// CHECK-NEXT:          %[[H:.*]] = affine.for %[[J:.*]] = #{{.*}}(%[[JJ]]) to #{{.*}}(%[[JJ]]) step 8 iter_args(
// CHECK:                 math.exp
// CHECK:                 affine.vector_store %{{.*}}, %[[BUF]][%[[R]] mod 2, %[[J]]]
// CHECK:               affine.for %[[K:.*]] = #{{.*}}(%[[JJ]]) to #{{.*}}(%[[JJ]]) step 64 {
// CHECK-NEXT:            affine.vector_load %[[BUF]][%[[P]] mod 2, %[[K]]]
// CHECK-NEXT:            arith.mulf %{{.*}}, %[[PB]]
// CHECK-NEXT:            affine.vector_store %{{.*}}, %[[Y]][%[[P]], %[[K]]]
// CHECK-COUNT-7:         affine.vector_store %{{.*}}, %[[Y]][%[[P]], %[[K]] + {{[0-9]+}}]
// CHECK-NEXT:          }
// CHECK-NEXT:          affine.yield %[[H]]
// CHECK:             %[[B:.*]] = vector.broadcast
// CHECK-NEXT:        affine.yield %[[B]] : vector<8xf32>
// CHECK:           affine.for %[[E:.*]] = #{{.*}}(%[[I]])[%[[N]]] to min #{{.*}}(%[[I]])[%[[N]]] {
// CHECK-NEXT:        affine.for %[[K1:.*]] = 0 to 1024 step 8 {
// CHECK-NEXT:          affine.vector_load %[[BUF]][%[[E]] mod 2, %[[K1]]]
// CHECK-NEXT:          arith.mulf %{{.*}}, %[[LAST]]
// CHECK-NEXT:          affine.vector_store %{{.*}}, %[[Y]][%[[E]], %[[K1]]]
// CHECK:           affine.for %[[F:.*]] = max #{{.*}}(%[[I]])[%[[N]]] to min #{{.*}}(%[[I]])[%[[N]]] {
// CHECK:             affine.vector_store %{{.*}}, %[[Y]][%[[F]], %{{.*}}]
// CHECK:           memref.dealloc %[[BUF]] : memref<2x1024xf32>
// CHECK-NEXT:    }
// OFF-LABEL: func.func @softmax_rows(
// OFF:         affine.parallel (%{{.*}}) = (0) to (symbol(%{{.*}})) {
// OFF:           memref.alloc() alignment = 64 : memref<1024xf32>
// OFF-NOT:       affine.apply
func.func @softmax_rows(%x: memref<?x1024xf32>, %y: memref<?x1024xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x1024xf32>
  %zero = arith.constant dense<0.0> : vector<8xf32>
  %one = arith.constant 1.0 : f32
  %fzero = arith.constant 0.0 : f32
  affine.parallel (%i) = (0) to (symbol(%n)) {
    %buf = memref.alloc() alignment = 64 : memref<1024xf32>
    %s = affine.for %j = 0 to 1024 step 8 iter_args(%acc = %zero) -> (vector<8xf32>) {
      %v = affine.vector_load %x[%i, %j] : memref<?x1024xf32>, vector<8xf32>
      %e = math.exp %v : vector<8xf32>
      affine.vector_store %e, %buf[%j] : memref<1024xf32>, vector<8xf32>
      %r = arith.addf %e, %acc : vector<8xf32>
      affine.yield %r : vector<8xf32>
    }
    %t = vector.reduction <add>, %s, %fzero : vector<8xf32> into f32
    %inv = arith.divf %one, %t : f32
    %b = vector.broadcast %inv : f32 to vector<8xf32>
    affine.for %j = 0 to 1024 step 8 {
      %e = affine.vector_load %buf[%j] : memref<1024xf32>, vector<8xf32>
      %o = arith.mulf %e, %b : vector<8xf32>
      affine.vector_store %o, %y[%i, %j] : memref<?x1024xf32>, vector<8xf32>
    }
    memref.dealloc %buf : memref<1024xf32>
  }
  return
}

// -----

// A light row kernel (layernorm's shape: a sum, the centered row into the buffer, the output
// pass): about one vector op per vector of the row in its heaviest pass, so not pipelined by
// default; `mode=true` pipelines it (the sum pass, the heaviest, carries the output chunks;
// the centering pass of row r writes [r mod 2] while the output pass reads row r - 1's).
// CHECK-LABEL: func.func @light_rows(
// CHECK:         affine.for %{{.*}} = 0 to %{{.*}} {
// CHECK-NOT:     memref<2x1024xf32>
// CHECK:         return
// ON-LABEL: func.func @light_rows(
// ON:         affine.for %[[I:.*]] = 0 to %{{.*}} step 4 {
// ON:           %[[BUF:.*]] = memref.alloc() : memref<2x1024xf32>
// ON:           affine.for %[[R:.*]] = #{{.*}}(%[[I]])[%{{.*}}] to min #{{.*}}(%[[I]])[%{{.*}}] iter_args(
// ON-NEXT:        %[[P:.*]] = affine.apply #{{.*}}(%[[R]])
// ON-NEXT:        affine.for %[[JJ:.*]] = 0 to 1024 step 64 iter_args(
// ON-NEXT:          affine.for %{{.*}} = #{{.*}}(%[[JJ]]) to #{{.*}}(%[[JJ]]) step 8 iter_args(
// ON:               affine.for %[[K:.*]] = #{{.*}}(%[[JJ]]) to #{{.*}}(%[[JJ]]) step 64 {
// ON-NEXT:            affine.vector_load %[[BUF]][%[[P]] mod 2, %[[K]]]
// ON:             affine.for %[[C:.*]] = 0 to 1024 step 8 {
// ON:               affine.vector_store %{{.*}}, %[[BUF]][%[[R]] mod 2, %[[C]]]
func.func @light_rows(%x: memref<?x1024xf32>, %y: memref<?x1024xf32>, %n: index) {
  %zero = arith.constant dense<0.0> : vector<8xf32>
  %fzero = arith.constant 0.0 : f32
  affine.for %i = 0 to %n {
    %buf = memref.alloc() : memref<1024xf32>
    %s = affine.for %j = 0 to 1024 step 8 iter_args(%acc = %zero) -> (vector<8xf32>) {
      %v = affine.vector_load %x[%i, %j] : memref<?x1024xf32>, vector<8xf32>
      %r = arith.addf %v, %acc : vector<8xf32>
      affine.yield %r : vector<8xf32>
    }
    %t = vector.reduction <add>, %s, %fzero : vector<8xf32> into f32
    %m = vector.broadcast %t : f32 to vector<8xf32>
    affine.for %j = 0 to 1024 step 8 {
      %v = affine.vector_load %x[%i, %j] : memref<?x1024xf32>, vector<8xf32>
      %d = arith.subf %v, %m : vector<8xf32>
      affine.vector_store %d, %buf[%j] : memref<1024xf32>, vector<8xf32>
    }
    affine.for %j = 0 to 1024 step 8 {
      %d = affine.vector_load %buf[%j] : memref<1024xf32>, vector<8xf32>
      %o = arith.mulf %d, %m : vector<8xf32>
      affine.vector_store %o, %y[%i, %j] : memref<?x1024xf32>, vector<8xf32>
    }
    memref.dealloc %buf : memref<1024xf32>
  }
  return
}

// -----

// The output pass reads %z, which the exp pass writes: it cannot run a row late (row r's exp
// pass would overwrite what row r - 1's output pass reads). Not pipelined, even when asked.
// CHECK-LABEL: func.func @reads_written(
// CHECK:         affine.parallel (%{{.*}}) = (0) to (symbol(%{{.*}})) {
// CHECK-NOT:     step (16)
// ON-LABEL: func.func @reads_written(
// ON:         affine.parallel (%{{.*}}) = (0) to (symbol(%{{.*}})) {
func.func @reads_written(%x: memref<?x1024xf32>, %z: memref<?x1024xf32>, %y: memref<?x1024xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x1024xf32>
  %zero = arith.constant dense<0.0> : vector<8xf32>
  affine.parallel (%i) = (0) to (symbol(%n)) {
    %s = affine.for %j = 0 to 1024 step 8 iter_args(%acc = %zero) -> (vector<8xf32>) {
      %v = affine.vector_load %x[%i, %j] : memref<?x1024xf32>, vector<8xf32>
      %e = math.exp %v : vector<8xf32>
      affine.vector_store %e, %z[%i, %j] : memref<?x1024xf32>, vector<8xf32>
      %r = arith.addf %e, %acc : vector<8xf32>
      affine.yield %r : vector<8xf32>
    }
    affine.for %j = 0 to 1024 step 8 {
      %e = affine.vector_load %z[%i, %j] : memref<?x1024xf32>, vector<8xf32>
      %o = arith.mulf %e, %s : vector<8xf32>
      affine.vector_store %o, %y[%i, %j] : memref<?x1024xf32>, vector<8xf32>
    }
  }
  return
}

// -----

// Static rows (5, a partial chunk of 4 at the end) in a serial row loop, each row's scale
// reading the exponentials of its row only through the doubled buffer; the two tail loops
// cover the last row of a full chunk (3) and of the partial one (4).
// ON-LABEL: func.func @static_rows(
// ON:         affine.for %[[I:.*]] = 0 to 5 step 4 {
// ON:           memref.alloc() : memref<2x1024xf32>
// ON:           affine.for %{{.*}} = #{{.*}}(%[[I]]) to min #[[UB:.*]](%[[I]]) iter_args(
// ON:           affine.for %{{.*}} = #{{.*}}(%[[I]]) to min #[[UB]](%[[I]]) {
// ON:           affine.for %{{.*}} = max #{{.*}}(%[[I]]) to min #{{.*}}(%[[I]]) {
func.func @static_rows(%x: memref<5x1024xf32>, %y: memref<5x1024xf32>) {
  %zero = arith.constant dense<0.0> : vector<8xf32>
  %fzero = arith.constant 0.0 : f32
  affine.for %i = 0 to 5 {
    %buf = memref.alloc() : memref<1024xf32>
    %s = affine.for %j = 0 to 1024 step 8 iter_args(%acc = %zero) -> (vector<8xf32>) {
      %v = affine.vector_load %x[%i, %j] : memref<5x1024xf32>, vector<8xf32>
      %e = math.exp %v : vector<8xf32>
      affine.vector_store %e, %buf[%j] : memref<1024xf32>, vector<8xf32>
      %r = arith.addf %e, %acc : vector<8xf32>
      affine.yield %r : vector<8xf32>
    }
    affine.for %j = 0 to 1024 step 8 {
      %e = affine.vector_load %buf[%j] : memref<1024xf32>, vector<8xf32>
      %o = arith.mulf %e, %s : vector<8xf32>
      affine.vector_store %o, %y[%i, %j] : memref<5x1024xf32>, vector<8xf32>
    }
    memref.dealloc %buf : memref<1024xf32>
  }
  return
}

// -----

// The output pass reads the per-row buffer through a view: the doubling would miss it. Not
// pipelined, even when asked.
// CHECK-LABEL: func.func @viewed_buffer(
// CHECK:         affine.parallel (%{{.*}}) = (0) to (symbol(%{{.*}})) {
// CHECK:           memref.alloc() : memref<1024xf32>
// ON-LABEL: func.func @viewed_buffer(
// ON:         affine.parallel (%{{.*}}) = (0) to (symbol(%{{.*}})) {
// ON-NOT:       memref<2x1024xf32>
func.func @viewed_buffer(%x: memref<?x1024xf32>, %y: memref<?x1024xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x1024xf32>
  %zero = arith.constant dense<0.0> : vector<8xf32>
  affine.parallel (%i) = (0) to (symbol(%n)) {
    %buf = memref.alloc() : memref<1024xf32>
    %s = affine.for %j = 0 to 1024 step 8 iter_args(%acc = %zero) -> (vector<8xf32>) {
      %v = affine.vector_load %x[%i, %j] : memref<?x1024xf32>, vector<8xf32>
      %e = math.exp %v : vector<8xf32>
      affine.vector_store %e, %buf[%j] : memref<1024xf32>, vector<8xf32>
      %r = arith.addf %e, %acc : vector<8xf32>
      affine.yield %r : vector<8xf32>
    }
    %view = memref.cast %buf : memref<1024xf32> to memref<?xf32>
    affine.for %j = 0 to 1024 step 8 {
      %e = affine.vector_load %view[%j] : memref<?xf32>, vector<8xf32>
      %o = arith.mulf %e, %s : vector<8xf32>
      affine.vector_store %o, %y[%i, %j] : memref<?x1024xf32>, vector<8xf32>
    }
    memref.dealloc %buf : memref<1024xf32>
  }
  return
}
