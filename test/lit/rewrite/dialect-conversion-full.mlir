// RUN: mlc-opt %s -split-input-file --allow-unregistered-dialect --verify-diagnostics -p 'builtin.module(test-legalize-math{full=true})' | filecheck %s

// A full conversion succeeds when everything ends up legal.
// CHECK-LABEL: func.func @expand
// CHECK: arith.select
// CHECK-NOT: math.absi
func.func @expand(%x: i32) -> i32 {
  %0 = math.absi %x : i32
  return %0 : i32
}

// -----

// It fails at an op the target does not know...
func.func @unknown() {
  // expected-error@+1 {{failed to legalize operation 'test.unknown'}}
  "test.unknown"() : () -> ()
  return
}

// -----

// ...and at an illegal op no pattern converts; only the first failure is reported.
func.func @illegal(%x: i32) -> i32 {
  // expected-error@+1 {{failed to legalize operation 'math.ctlz'}}
  %0 = math.ctlz %x : i32
  %1 = math.cttz %0 : i32
  return %1 : i32
}
