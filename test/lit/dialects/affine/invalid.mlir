// RUN: mlc-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect

// One case per verifier rule and custom-syntax error of the affine dialect (MLIR's messages).

func.func @load_rank(%A: memref<?x?xf32>, %i: index) {
  // expected-error@+1 {{'affine.load' op affine map num results must equal memref rank}}
  %v = affine.load %A[%i] : memref<?x?xf32>
  return
}

// -----

func.func @load_result_type(%A: memref<?xf32>, %i: index) {
  // expected-error@+1 {{'affine.load' op result type must match element type of memref}}
  %v = "affine.load"(%A, %i) <{map = affine_map<(d0) -> (d0)>}> : (memref<?xf32>, index) -> f64
  return
}

// -----

func.func @load_subscript_count(%A: memref<?xf32>, %i: index) {
  // expected-error@+1 {{'affine.load' op expects as many subscripts as affine map inputs}}
  %v = "affine.load"(%A, %i, %i) <{map = affine_map<(d0) -> (d0)>}> : (memref<?xf32>, index, index) -> f32
  return
}

// -----

func.func @load_index_type(%A: memref<?xf32>, %i: i64) {
  // expected-error@+1 {{'affine.load' op operand #1 must be index, but got i64}}
  %v = "affine.load"(%A, %i) <{map = affine_map<(d0) -> (d0)>}> : (memref<?xf32>, i64) -> f32
  return
}

// -----

func.func @load_invalid_dim(%A: memref<?xf32>, %n: index) {
  affine.for %i = 0 to %n {
    %x = arith.muli %i, %i : index
    // expected-error@+1 {{'affine.load' op operand cannot be used as a dimension id}}
    %v = affine.load %A[%x] : memref<?xf32>
  }
  return
}

// -----

func.func @load_invalid_symbol(%A: memref<?xf32>) {
  affine.for %i = 0 to 10 {
    // expected-error@+1 {{'affine.load' op operand cannot be used as a symbol}}
    %v = affine.load %A[symbol(%i)] : memref<?xf32>
  }
  return
}

// -----

func.func @load_not_memref(%A: memref<?xf32>, %i: index) {
  // expected-error@+1 {{invalid kind of type specified: expected builtin.memref, but found 'f32'}}
  %v = affine.load %A[%i] : f32
  return
}

// -----

func.func @store_value_type(%A: memref<?xf32>, %v: f64, %i: index) {
  // expected-error@+1 {{'affine.store' op value to store must have the same type as memref element type}}
  "affine.store"(%v, %A, %i) <{map = affine_map<(d0) -> (d0)>}> : (f64, memref<?xf32>, index) -> ()
  return
}

// -----

func.func @store_rank(%A: memref<?xf32>, %v: f32, %i: index) {
  // expected-error@+1 {{'affine.store' op affine map num results must equal memref rank}}
  affine.store %v, %A[%i, %i] : memref<?xf32>
  return
}

// -----

func.func @vector_load_element_type(%A: memref<?xf32>, %i: index) {
  // expected-error@+1 {{'affine.vector_load' op requires memref and vector types of the same elemental type}}
  %w = affine.vector_load %A[%i] : memref<?xf32>, vector<8xf64>
  return
}

// -----

func.func @vector_store_element_type(%A: memref<?xf32>, %w: vector<4xi32>, %i: index) {
  // expected-error@+1 {{'affine.vector_store' op requires memref and vector types of the same elemental type}}
  affine.vector_store %w, %A[%i] : memref<?xf32>, vector<4xi32>
  return
}

// -----

func.func @vector_load_rank(%A: memref<?x?xf32>, %i: index) {
  // expected-error@+1 {{'affine.vector_load' op affine map num results must equal memref rank}}
  %w = affine.vector_load %A[%i] : memref<?x?xf32>, vector<8xf32>
  return
}

// -----

func.func @apply_operand_count(%n: index) {
  // expected-error@+1 {{'affine.apply' op operand count and affine map dimension and symbol count must match}}
  %x = "affine.apply"(%n) <{map = affine_map<(d0, d1) -> (d0)>}> : (index) -> index
  return
}

// -----

func.func @apply_two_results(%n: index) {
  // expected-error@+1 {{'affine.apply' op mapping must produce one value}}
  %x = "affine.apply"(%n) <{map = affine_map<(d0) -> (d0, d0)>}> : (index) -> index
  return
}

// -----

func.func @apply_dim_as_symbol(%n: index) {
  affine.for %i = 0 to 10 {
    // expected-error@+1 {{dimensional operand cannot be used as a symbol}}
    %y = affine.apply affine_map<()[s0] -> (s0)>()[%i]
  }
  return
}

// -----

func.func @apply_count_mismatch(%n: index) {
  // expected-error@+1 {{dimension or symbol index mismatch}}
  %r = affine.apply affine_map<(d0) -> (d0)>(%n)[%n]
  return
}

// -----

func.func @min_no_result() {
  // expected-error@+1 {{'affine.min' op affine map expect at least one result}}
  %x = affine.min affine_map<() -> ()>()
  return
}

// -----

func.func @max_operand_count(%n: index) {
  // expected-error@+1 {{'affine.max' op operand count and affine map dimension and symbol count must match}}
  %x = "affine.max"(%n) <{map = affine_map<(d0, d1) -> (d0)>}> : (index) -> index
  return
}

// -----

func.func @for_step_zero(%n: index) {
  // expected-error@+1 {{'affine.for' op expected step to be a positive integer, got 0}}
  "affine.for"(%n) <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 0, 1, 0>, step = 0 : index, upperBoundMap = affine_map<()[s0] -> (s0)>}> ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @for_step_negative_custom(%n: index) {
  // expected-error@+1 {{expected step to be representable as a positive signed integer}}
  affine.for %i = 0 to %n step -1 {
  }
  return
}

// -----

func.func @for_bound_operand_count(%n: index) {
  // expected-error@+1 {{'affine.for' op lower bound operand count (1) does not match the number of lower bound map inputs (0)}}
  "affine.for"(%n) <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 1, 0, 0>, step = 1 : index, upperBoundMap = affine_map<() -> (8)>}> ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @for_empty_bound_map() {
  // expected-error@+1 {{'affine.for' op expected lower bound map to have at least one result}}
  "affine.for"() <{lowerBoundMap = affine_map<() -> ()>, operandSegmentSizes = array<i32: 0, 0, 0>, step = 1 : index, upperBoundMap = affine_map<() -> (4)>}> ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @for_iv_type() {
  // expected-error@+1 {{'affine.for' op expected body to have an index argument for the induction variable}}
  "affine.for"() <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 0, 0, 0>, step = 1 : index, upperBoundMap = affine_map<() -> (4)>}> ({
  ^bb0(%i: i32):
    "affine.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @for_invalid_symbol(%n: index) {
  affine.for %i = 0 to %n {
    %x = arith.addi %i, %i : index
    // expected-error@+1 {{'affine.for' op operand cannot be used as a symbol}}
    affine.for %j = 0 to %x {
    }
  }
  return
}

// -----

func.func @for_inits_vs_iter_args(%z: f32) {
  // expected-error@+1 {{'affine.for' op different number of inits and region iter_args: 1 != 0}}
  %r = "affine.for"(%z) <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 0, 0, 1>, step = 1 : index, upperBoundMap = affine_map<() -> (4)>}> ({
  ^bb0(%i: index):
    "affine.yield"(%z) : (f32) -> ()
  }) : (f32) -> f32
  return
}

// -----

func.func @for_iter_args_vs_yield(%z: f32) {
  // expected-error@+1 {{'affine.for' op different number of region iter_args and yielded values: 1 != 2}}
  %r:2 = "affine.for"(%z) <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 0, 0, 1>, step = 1 : index, upperBoundMap = affine_map<() -> (4)>}> ({
  ^bb0(%i: index, %a: f32):
    "affine.yield"(%z, %z) : (f32, f32) -> ()
  }) : (f32) -> (f32, f32)
  return
}

// -----

func.func @for_init_type(%z: f32) {
  // expected-error@+1 {{'affine.for' op along control flow edge from parent to Region #0: successor operand type #0 'f32' should match successor input type #0 'i32'}}
  %r = "affine.for"(%z) <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 0, 0, 1>, step = 1 : index, upperBoundMap = affine_map<() -> (4)>}> ({
  ^bb0(%i: index, %a: i32):
    "affine.yield"(%z) : (f32) -> ()
  }) : (f32) -> f32
  return
}

// -----

// The yield is verified before its loop: it reports the missing result.
func.func @for_results_count(%z: f32) {
  "affine.for"(%z) <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 0, 0, 1>, step = 1 : index, upperBoundMap = affine_map<() -> (4)>}> ({
  ^bb0(%i: index, %a: f32):
    // expected-error@+1 {{'affine.yield' op parent of yield must have same number of results as the yield operands}}
    "affine.yield"(%a) : (f32) -> ()
  }) : (f32) -> ()
  return
}

// -----

func.func @for_iter_args_count_custom(%n: index) {
  // expected-error@+1 {{mismatch between the number of loop-carried values and results}}
  %r = affine.for %i = 0 to %n iter_args(%a = %n, %b = %n) -> (index) {
    affine.yield %a : index
  }
  return
}

// -----

func.func @for_min_prefix(%n: index) {
  // expected-error@+1 {{upper loop bound affine map with multiple results requires 'min' prefix}}
  affine.for %i = 0 to affine_map<(d0, d1) -> (d0, d1)>(%n, %n) {
  }
  return
}

// -----

func.func @for_max_prefix(%n: index) {
  // expected-error@+1 {{lower loop bound affine map with multiple results requires 'max' prefix}}
  affine.for %i = affine_map<(d0, d1) -> (d0, d1)>(%n, %n) to 10 {
  }
  return
}

// -----

func.func @for_bound_symbol_count(%n: index) {
  // expected-error@+1 {{symbol operand count and affine map symbol count must match}}
  affine.for %i = 0 to affine_map<(d0) -> (d0)>(%n)[%n] {
  }
  return
}

// -----

func.func @for_bound_dim_count(%n: index) {
  // expected-error@+1 {{dim operand count and affine map dim count must match}}
  affine.for %i = 0 to affine_map<(d0, d1) -> (d0)>(%n) {
  }
  return
}

// -----

func.func @for_bound_not_a_map(%n: index) {
  // expected-error@+1 {{expected valid affine map representation for loop bounds}}
  affine.for %i = 0 to "ten" {
  }
  return
}

// -----

func.func @yield_type(%n: index, %z: f32) {
  %r = affine.for %i = 0 to %n iter_args(%a = %z) -> (f32) {
    %c = arith.constant 0 : i32
    // expected-error@+1 {{'affine.yield' op types mismatch between yield op and its parent}}
    affine.yield %c : i32
  }
  return
}

// -----

func.func @yield_count(%z: f32) {
  %r:2 = "affine.for"(%z) <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 0, 0, 1>, step = 1 : index, upperBoundMap = affine_map<() -> (4)>}> ({
  ^bb0(%i: index, %a: f32):
    // expected-error@+1 {{'affine.yield' op parent of yield must have same number of results as the yield operands}}
    "affine.yield"(%z) : (f32) -> ()
  }) : (f32) -> (f32, f32)
  return
}

// -----

func.func @yield_parent(%n: index) {
  "test.region"() ({
    // expected-error@+1 {{'affine.yield' op only terminates affine.if/for/parallel regions}}
    affine.yield
  }) : () -> ()
  return
}

// -----

func.func @parallel_reduction_count(%n: index) {
  // expected-error@+1 {{'affine.parallel' op a reduction must be specified for each output}}
  %r = affine.parallel (%i) = (0) to (%n) -> (f32) {
    %c = arith.constant 0.0 : f32
    affine.yield %c : f32
  }
  return
}

// -----

func.func @parallel_reduction_type(%n: index) {
  // expected-error@+1 {{'affine.parallel' op result type cannot match reduction attribute}}
  %r = affine.parallel (%i) = (0) to (%n) reduce ("addi") -> (f32) {
    %c = arith.constant 0.0 : f32
    affine.yield %c : f32
  }
  return
}

// -----

func.func @parallel_invalid_reduction_attr(%n: index) {
  // expected-error@+1 {{'affine.parallel' op attribute 'reductions' failed to satisfy constraint: Reduction ops}}
  %r = "affine.parallel"(%n) <{lowerBoundsGroups = dense<1> : tensor<1xi32>, lowerBoundsMap = affine_map<() -> (0)>, reductions = [16], steps = [1], upperBoundsGroups = dense<1> : tensor<1xi32>, upperBoundsMap = affine_map<()[s0] -> (s0)>}> ({
  ^bb0(%i: index):
    %c = arith.constant 0.0 : f32
    "affine.yield"(%c) : (f32) -> ()
  }) : (index) -> f32
  return
}

// -----

func.func @parallel_unknown_reduction(%n: index) {
  // expected-error@+1 {{invalid reduction value: "foo"}}
  %r = affine.parallel (%i) = (0) to (%n) reduce ("foo") -> (f32) {
    %c = arith.constant 0.0 : f32
    affine.yield %c : f32
  }
  return
}

// -----

func.func @parallel_group_count(%n: index) {
  // expected-error@+1 {{'affine.parallel' op the number of region arguments (1) and the number of map groups for lower (2) and upper bound (1), and the number of steps (1) must all match}}
  "affine.parallel"(%n) <{lowerBoundsGroups = dense<1> : tensor<2xi32>, lowerBoundsMap = affine_map<() -> (0, 0)>, reductions = [], steps = [1], upperBoundsGroups = dense<1> : tensor<1xi32>, upperBoundsMap = affine_map<()[s0] -> (s0)>}> ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @parallel_group_sizes(%n: index) {
  // expected-error@+1 {{'affine.parallel' op expected lower bounds map to have 2 results}}
  "affine.parallel"(%n) <{lowerBoundsGroups = dense<2> : tensor<1xi32>, lowerBoundsMap = affine_map<() -> (0)>, reductions = [], steps = [1], upperBoundsGroups = dense<1> : tensor<1xi32>, upperBoundsMap = affine_map<()[s0] -> (s0)>}> ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @parallel_operand_count(%n: index) {
  // expected-error@+1 {{'affine.parallel' op operand count (2) does not match the number of lower and upper bound map inputs (0 + 1)}}
  "affine.parallel"(%n, %n) <{lowerBoundsGroups = dense<1> : tensor<1xi32>, lowerBoundsMap = affine_map<() -> (0)>, reductions = [], steps = [1], upperBoundsGroups = dense<1> : tensor<1xi32>, upperBoundsMap = affine_map<()[s0] -> (s0)>}> ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) : (index, index) -> ()
  return
}

// -----

func.func @parallel_step_zero(%n: index) {
  // expected-error@+1 {{'affine.parallel' op expected steps to be positive integers, got 0}}
  affine.parallel (%i) = (0) to (%n) step (0) {
  }
  return
}

// -----

func.func @parallel_symbolic_step(%n: index) {
  // expected-error@+1 {{steps must be constant integers}}
  affine.parallel (%i) = (0) to (%n) step (%n) {
  }
  return
}

// -----

func.func @parallel_invalid_dim(%n: index) {
  affine.for %i = 0 to 10 {
    %x = arith.muli %i, %i : index
    // expected-error@+1 {{'affine.parallel' op operand cannot be used as a dimension id}}
    affine.parallel (%j) = (%x) to (%n) {
    }
  }
  return
}

// -----

func.func @if_operand_count(%n: index) {
  // expected-error@+1 {{'affine.if' op operand count and condition integer set dimension and symbol count must match}}
  "affine.if"(%n) <{condition = affine_set<(d0, d1) : (d0 - d1 >= 0)>}> ({
    "affine.yield"() : () -> ()
  }, {
  }) : (index) -> ()
  return
}

// -----

func.func @if_custom_dim_count(%n: index) {
  // expected-error@+1 {{dim operand count and integer set dim count must match}}
  affine.if affine_set<(d0) : (d0 >= 0)>(%n, %n) {
  }
  return
}

// -----

func.func @if_invalid_dim(%n: index) {
  affine.for %i = 0 to 10 {
    %x = arith.muli %i, %i : index
    // expected-error@+1 {{'affine.if' op operand cannot be used as a dimension id}}
    affine.if affine_set<(d0) : (d0 >= 0)>(%x) {
    }
  }
  return
}

// -----

func.func @if_results_without_else(%n: index) {
  %x = arith.constant 1.0 : f32
  // expected-error@+1 {{'affine.if' op along control flow edge from parent to Operation affine.if: region branch point has 0 operands, but region successor needs 1 inputs}}
  %r = affine.if affine_set<(d0) : (d0 >= 0)>(%n) -> f32 {
    affine.yield %x : f32
  }
  return
}

// -----

func.func @if_two_blocks(%n: index) {
  // expected-error@+1 {{'affine.if' op expects region #1 to have 0 or 1 blocks}}
  "affine.if"(%n) <{condition = affine_set<(d0) : (d0 >= 0)>}> ({
    "affine.yield"() : () -> ()
  }, {
    "affine.yield"() : () -> ()
  ^bb1:
    "affine.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @parallel_empty_group(%n: index) {
  // expected-error@+1 {{'affine.parallel' op expected upper bounds groups to have positive sizes}}
  "affine.parallel"(%n) <{lowerBoundsGroups = dense<1> : tensor<1xi32>, lowerBoundsMap = affine_map<() -> (0)>, reductions = [], steps = [1], upperBoundsGroups = dense<0> : tensor<1xi32>, upperBoundsMap = affine_map<()[s0] -> ()>}> ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @load_unranked(%A: memref<*xf32>, %i: index) {
  // expected-error@+1 {{'affine.load' op expects a ranked memref, but got 'memref<*xf32>'}}
  %v = "affine.load"(%A, %i) <{map = affine_map<(d0) -> (d0)>}> : (memref<*xf32>, index) -> f32
  return
}

// -----

func.func @for_missing_step() {
  // expected-error@+1 {{'affine.for' op requires attribute 'step'}}
  "affine.for"() <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 0, 0, 0>, upperBoundMap = affine_map<() -> (4)>}> ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) : () -> ()
  return
}
