// RUN: mlc-opt %s --allow-unregistered-dialect -split-input-file -p 'builtin.module(func.func(dce))' | filecheck %s

// A chain of dead pure ops goes, whatever the order of its uses.
// CHECK-LABEL: func.func @dead_chain
// CHECK-SAME: (%[[X:.+]]: i32)
func.func @dead_chain(%x: i32) -> i32 {
  // CHECK-NEXT: return %[[X]]
  %c = arith.constant 3 : i32
  %0 = arith.muli %x, %c : i32
  %1 = arith.addi %0, %0 : i32
  %2 = math.absi %1 : i32
  return %x : i32
}

// -----

// Ops with memory effects or unknown effects are kept; read-only unused ops are not.
// CHECK-LABEL: func.func @effects
func.func @effects(%p: i32) {
  // CHECK-NEXT: "ptest.store"
  // CHECK-NEXT: "test.unknown"
  // CHECK-NEXT: return
  %0 = "ptest.load"(%p) : (i32) -> i32
  "ptest.store"(%p) : (i32) -> ()
  "test.unknown"() : () -> ()
  return
}

// -----

// Dead code inside a nested region, and unreachable blocks.
// CHECK-LABEL: func.func @regions_and_blocks
func.func @regions_and_blocks(%p: i32) -> i32 {
  // CHECK: "ptest.loop"
  // CHECK-NEXT: ^bb0
  // CHECK-NEXT: "ptest.store"
  // CHECK-NEXT: "ptest.yield"
  "ptest.loop"() ({
  ^bb0(%i: index):
    %0 = arith.addi %p, %p : i32
    "ptest.store"(%p) : (i32) -> ()
    "ptest.yield"() : () -> ()
  }) : () -> ()
  // A loop without effects is itself dead.
  // CHECK-NOT: "ptest.loop"
  "ptest.loop"() ({
  ^bb0(%i: index):
    %0 = arith.addi %p, %p : i32
    "ptest.yield"() : () -> ()
  }) : () -> ()
  // CHECK: "ptest.br"()[^bb1]
  "ptest.br"() [^bb1] : () -> ()
// CHECK: ^bb1:
^bb1:
  // CHECK-NEXT: return
  // CHECK-NOT: ^bb
  return %p : i32
^bb2:
  %1 = arith.addi %p, %p : i32
  "ptest.br"() [^bb3] : () -> ()
^bb3:
  "ptest.br"() [^bb2] : () -> ()
}

// -----

// Nothing to do.
// CHECK-LABEL: func.func @live
// CHECK: arith.addi
// CHECK: return
func.func @live(%x: i32) -> i32 {
  %0 = arith.addi %x, %x : i32
  return %0 : i32
}
