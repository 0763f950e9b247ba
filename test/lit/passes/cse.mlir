// RUN: mlc-opt %s --allow-unregistered-dialect -split-input-file -p 'builtin.module(func.func(cse))' | filecheck %s

// CHECK-LABEL: func.func @simple_constant
func.func @simple_constant() -> (i32, i32) {
  // CHECK-NEXT: %[[C:.+]] = arith.constant 1 : i32
  %0 = arith.constant 1 : i32
  // CHECK-NEXT: return %[[C]], %[[C]] : i32, i32
  %1 = arith.constant 1 : i32
  return %0, %1 : i32, i32
}

// -----

// CHECK-LABEL: func.func @basic
func.func @basic(%a: i32, %b: i32) -> (i32, i32) {
  // CHECK: %[[S:.+]] = arith.addi %{{.*}}, %{{.*}} : i32
  // CHECK-NOT: arith.addi
  // CHECK: return %[[S]], %[[S]]
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %a, %b : i32
  return %0, %1 : i32, i32
}

// -----

// Different attributes, operand orders or result types are different expressions.
// CHECK-LABEL: func.func @different
func.func @different(%a: i32, %b: i32) -> (i32, i32, i32, i32, i1, i1) {
  // CHECK-COUNT-2: arith.constant
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  // CHECK-COUNT-2: arith.subi
  %0 = arith.subi %a, %b : i32
  %1 = arith.subi %b, %a : i32
  // CHECK-COUNT-2: arith.cmpi
  %2 = arith.cmpi slt, %a, %b : i32
  %3 = arith.cmpi sgt, %a, %b : i32
  return %c1, %c2, %0, %1, %2, %3 : i32, i32, i32, i32, i1, i1
}

// -----

// Dead ops met on the way are erased too (only those dead when visited, as in MLIR).
// CHECK-LABEL: func.func @dead
func.func @dead(%a: i32) {
  // CHECK-NEXT: arith.muli
  // CHECK-NEXT: return
  %0 = arith.muli %a, %a : i32
  %1 = arith.addi %0, %0 : i32
  return
}

// -----

// An op in a nested region reuses a dominating op from the enclosing region.
// CHECK-LABEL: func.func @nested_region_reuses_outer
func.func @nested_region_reuses_outer(%a: i32) -> i32 {
  // CHECK: %[[X:.+]] = arith.muli
  %0 = arith.muli %a, %a : i32
  // CHECK: "ptest.loop"
  "ptest.loop"() ({
  ^bb0(%i: index):
    // CHECK-NOT: arith.muli
    // CHECK: "ptest.store"(%[[X]])
    %1 = arith.muli %a, %a : i32
    "ptest.store"(%1) : (i32) -> ()
    "ptest.yield"() : () -> ()
  }) : () -> ()
  return %0 : i32
}

// -----

// An op after a region does not reuse one defined inside it.
// CHECK-LABEL: func.func @outer_does_not_reuse_inner
func.func @outer_does_not_reuse_inner(%a: i32) -> i32 {
  "ptest.loop"() ({
  ^bb0(%i: index):
    // CHECK: %[[IN:.+]] = arith.muli
    %1 = arith.muli %a, %a : i32
    // CHECK: "ptest.store"(%[[IN]])
    "ptest.store"(%1) : (i32) -> ()
    "ptest.yield"() : () -> ()
  }) : () -> ()
  // CHECK: %[[OUT:.+]] = arith.muli
  // CHECK: return %[[OUT]]
  %2 = arith.muli %a, %a : i32
  return %2 : i32
}

// -----

// Reads are reused until something may write; unknown effects are never reused.
// CHECK-LABEL: func.func @memory_effects
func.func @memory_effects(%p: i32) -> (i32, i32, i32, i32, i32) {
  // CHECK: %[[L1:.+]] = "ptest.load"
  // CHECK-NEXT: "ptest.store"
  // CHECK-NEXT: %[[L2:.+]] = "ptest.load"
  // CHECK-NEXT: %[[U1:.+]] = "test.unknown"
  // CHECK-NEXT: %[[U2:.+]] = "test.unknown"
  // CHECK-NEXT: return %[[L1]], %[[L1]], %[[L2]], %[[U1]], %[[U2]]
  %0 = "ptest.load"(%p) : (i32) -> i32
  %1 = "ptest.load"(%p) : (i32) -> i32
  "ptest.store"(%p) : (i32) -> ()
  %2 = "ptest.load"(%p) : (i32) -> i32
  %3 = "test.unknown"(%p) : (i32) -> i32
  %4 = "test.unknown"(%p) : (i32) -> i32
  return %0, %1, %2, %3, %4 : i32, i32, i32, i32, i32
}

// -----

// In a CFG, only dominating blocks are reused: ^bb1 does not dominate ^bb3.
// CHECK-LABEL: func.func @dominance
func.func @dominance(%a: i32, %c: i1) -> i32 {
  // CHECK: %[[TOP:.+]] = arith.muli
  %0 = arith.muli %a, %a : i32
  "ptest.cond_br"(%c) [^bb1, ^bb2] : (i1) -> ()
// CHECK: ^bb1:
^bb1:
  // CHECK-NEXT: %[[L:.+]] = arith.addi %[[TOP]], %[[TOP]]
  %1 = arith.muli %a, %a : i32
  %2 = arith.addi %1, %1 : i32
  "ptest.store"(%2) : (i32) -> ()
  "ptest.br"() [^bb3] : () -> ()
// CHECK: ^bb2:
^bb2:
  "ptest.br"() [^bb3] : () -> ()
// CHECK: ^bb3:
^bb3:
  // CHECK-NEXT: %[[J:.+]] = arith.addi %[[TOP]], %[[TOP]]
  // CHECK-NEXT: return %[[J]]
  %3 = arith.addi %0, %0 : i32
  return %3 : i32
}

// -----

// Functions are separate scopes (isolated from above).
// CHECK-LABEL: func.func @scope_a
// CHECK: arith.constant 7
// CHECK-LABEL: func.func @scope_b
// CHECK: arith.constant 7
func.func @scope_a() -> i32 {
  %0 = arith.constant 7 : i32
  return %0 : i32
}
func.func @scope_b() -> i32 {
  %0 = arith.constant 7 : i32
  return %0 : i32
}
