// RUN: mlc-opt %s -split-input-file --verify-diagnostics -p 'builtin.module(func.func(canonicalize{max-num-rewrites=1 test-convergence=true}))'
// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(canonicalize{max-num-rewrites=1}))' | filecheck %s

// A rewrite limit that stops the driver early is an error under test-convergence, and silent
// otherwise (the IR is valid, just not fully canonical).
// CHECK-LABEL: func.func @limited
// CHECK: arith.addi
// expected-error@+1 {{canonicalization stopped after 1 rewrites}}
func.func @limited() -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %0 = arith.addi %c1, %c2 : i32
  %1 = arith.addi %0, %c3 : i32
  %2 = arith.addi %1, %c3 : i32
  return %2 : i32
}

// -----

// Within the limit: converges, no diagnostic.
// CHECK-LABEL: func.func @within_limit
func.func @within_limit(%x: i32) -> i32 {
  return %x : i32
}
