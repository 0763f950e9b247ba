// RUN: not mlc-opt %s -split-input-file -verify-diagnostics 2>&1 | filecheck %s
// RUN: not mlc-opt %s -split-input-file -verify-diagnostics=only-expected 2>&1 \
// RUN:   | filecheck %s --check-prefix=ONLY

// --verify-diagnostics failing, MLIR's way: problems with the expectations themselves first,
// then unexpected diagnostics as they come, then the expectations nobody met.

// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 2]]:6: error: invalid regex
func.func @bad_regex() {
  // expected-error-re@+1 {{unbalanced {{(}} paren}}
  return
}

// -----

// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 1]]:4: error: found start of regex with no end '}}'
// expected-warning-re {{a {{b}}

// -----

func.func @unexpected(%a: i32) {
  %0 = arith.addi %1, %a : i32
  %1 = arith.addi %a, %a : i32
  return
}
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE - 4]]:{{[0-9]+}}: error: unexpected error: operand #0 does not dominate this use
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE - 4]]:{{[0-9]+}}: error: unexpected note: operand defined here (op in the same block)

// -----

func.func @wrong_kind(%a: i32) {
  // expected-note@+1 {{requires the same type}}
  %0 = "arith.addi"(%a, %a) : (i32, i32) -> i64
  return
}
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE - 4]]:6: error: 'error' diagnostic emitted when expecting a 'note'

// -----

func.func @never_produced() {
  // expected-error@+1 {{this error never happens}}
  return
}

// -----

// A diagnostic meets one expectation only.
func.func @met_once(%a: i32) {
  // expected-error@+2 {{requires the same type}}
  // expected-error@+1 {{requires the same type}}
  %0 = "arith.addi"(%a, %a) : (i32, i32) -> i64
  return
}

// CHECK: verify-diagnostics-failures.mlir:32:6: error: expected note "requires the same type" was not produced
// CHECK-NEXT: {{^  // expected}}-note@+1
// CHECK-NEXT: {{^     \^~~~~~~~~~~~~~~~~~~~~~$}}
// CHECK: verify-diagnostics-failures.mlir:41:6: error: expected error "this error never happens" was not produced
// CHECK: verify-diagnostics-failures.mlir:50:6: error: expected error "requires the same type" was not produced

// With only-expected, unexpected diagnostics and near misses are not errors; unmet
// expectations still are.
// ONLY-NOT: unexpected error
// ONLY-NOT: diagnostic emitted when expecting
// ONLY: error: invalid regex
// ONLY: error: expected note "requires the same type" was not produced
