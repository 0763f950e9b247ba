// RUN: mlc-opt %s -split-input-file --allow-unregistered-dialect --verify-diagnostics -p 'builtin.module(test-legalize-math)' | filecheck %s

// A pattern expands the illegal op; its users see the replacement.
// CHECK-LABEL: func.func @expand
// CHECK-SAME: (%[[X:.+]]: i32)
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK-DAG: %[[NEG:.+]] = arith.subi %[[ZERO]], %[[X]]
// CHECK-DAG: %[[LT:.+]] = arith.cmpi slt, %[[X]], %[[ZERO]]
// CHECK: %[[ABS:.+]] = arith.select %[[LT]], %[[NEG]], %[[X]]
// CHECK: %[[R:.+]] = arith.addi %[[ABS]], %[[ABS]]
// CHECK: return %[[R]]
func.func @expand(%x: i32) -> i32 {
  %0 = math.absi %x : i32
  %1 = arith.addi %0, %0 : i32
  return %1 : i32
}

// -----

// An illegal op without a pattern is an error at the op.
func.func @no_pattern(%x: i32) -> i32 {
  // expected-error@+1 {{failed to legalize operation 'math.ctlz' that was explicitly marked illegal}}
  %0 = math.ctlz %x : i32
  return %0 : i32
}

// -----

// An op the target does not know is left alone by a partial conversion.
// CHECK-LABEL: func.func @unknown
// CHECK: "test.unknown"
func.func @unknown() {
  "test.unknown"() : () -> ()
  return
}
