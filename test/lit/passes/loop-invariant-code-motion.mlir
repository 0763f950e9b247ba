// RUN: mlc-opt %s --allow-unregistered-dialect -split-input-file -p 'builtin.module(func.func(loop-invariant-code-motion))' | filecheck %s

// Invariant pure ops move before the loop, including chains of them; ops that use the
// induction variable, read or write memory, or have unknown effects stay.
// CHECK-LABEL: func.func @hoist
// CHECK-SAME: (%[[P:.+]]: i32, %[[Q:.+]]: index)
func.func @hoist(%p: i32, %q: index) {
  // CHECK-NEXT: %[[C:.+]] = arith.constant 4 : i32
  // CHECK-NEXT: %[[A:.+]] = arith.addi %[[P]], %[[C]]
  // CHECK-NEXT: %[[M:.+]] = arith.muli %[[A]], %[[A]]
  // CHECK-NEXT: "ptest.loop"
  // CHECK-NEXT: ^bb0(%[[I:.+]]: index):
  // CHECK-NEXT: %[[J:.+]] = arith.addi %[[I]], %[[Q]]
  // CHECK-NEXT: %[[L:.+]] = "ptest.load"(%[[M]])
  // CHECK-NEXT: "ptest.store"(%[[L]])
  // CHECK-NEXT: "test.unknown"(%[[P]])
  // CHECK-NEXT: "ptest.store"(%[[J]])
  // CHECK-NEXT: "ptest.yield"
  "ptest.loop"() ({
  ^bb0(%i: index):
    %c = arith.constant 4 : i32
    %a = arith.addi %p, %c : i32
    %m = arith.muli %a, %a : i32
    %j = arith.addi %i, %q : index
    %v = "ptest.load"(%m) : (i32) -> i32
    "ptest.store"(%v) : (i32) -> ()
    "test.unknown"(%p) : (i32) -> ()
    "ptest.store"(%j) : (index) -> ()
    "ptest.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

// Division by a variable may trap: not speculatable, not hoisted. By a non-zero constant: hoisted.
// CHECK-LABEL: func.func @speculation
func.func @speculation(%p: i32, %d: i32) {
  // CHECK: arith.constant 2
  // CHECK-NEXT: arith.divsi %{{.*}}, %{{.*}} : i32
  // CHECK-NEXT: "ptest.loop"
  // CHECK-NEXT: ^bb0
  // CHECK-NEXT: arith.divsi
  "ptest.loop"() ({
  ^bb0(%i: index):
    %c2 = arith.constant 2 : i32
    %safe = arith.divsi %p, %c2 : i32
    %unsafe = arith.divsi %p, %d : i32
    "ptest.store"(%safe) : (i32) -> ()
    "ptest.store"(%unsafe) : (i32) -> ()
    "ptest.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

// Nested loops: invariant code leaves the whole nest (inner loops first).
// CHECK-LABEL: func.func @nest
func.func @nest(%p: i32) {
  // CHECK-NEXT: arith.muli
  // CHECK-NEXT: "ptest.loop"
  // CHECK-NEXT: ^bb0
  // CHECK-NEXT: "ptest.loop"
  // CHECK-NEXT: ^bb0
  // CHECK-NEXT: "ptest.store"
  "ptest.loop"() ({
  ^bb0(%i: index):
    "ptest.loop"() ({
    ^bb0(%j: index):
      %m = arith.muli %p, %p : i32
      "ptest.store"(%m) : (i32) -> ()
      "ptest.yield"() : () -> ()
    }) : () -> ()
    "ptest.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

// Nothing invariant: unchanged.
// CHECK-LABEL: func.func @nothing
// CHECK-NEXT: "ptest.loop"
func.func @nothing() {
  "ptest.loop"() ({
  ^bb0(%i: index):
    "ptest.store"(%i) : (index) -> ()
    "ptest.yield"() : () -> ()
  }) : () -> ()
  return
}
