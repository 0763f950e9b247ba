// RUN: mlc-opt %s --allow-unregistered-dialect -split-input-file -p 'builtin.module(func.func(canonicalize))' | filecheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect -split-input-file -p 'builtin.module(func.func(canonicalize{top-down=false}))' | filecheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect -split-input-file -p 'builtin.module(func.func(canonicalize{region-simplify=disabled}))' | filecheck %s --check-prefix=NOSIMPLIFY

// Constants fold through a chain; the result is one constant at the top.
// CHECK-LABEL: func.func @fold_chain
func.func @fold_chain() -> i32 {
  // CHECK-NEXT: %[[C:.+]] = arith.constant 10 : i32
  // CHECK-NEXT: return %[[C]] : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %0 = arith.addi %c1, %c2 : i32
  %1 = arith.addi %0, %c3 : i32
  %2 = arith.addi %1, %c4 : i32
  return %2 : i32
}

// -----

// Folding to an existing value (x + 0 -> x, x * 1 -> x); dead ops disappear.
// CHECK-LABEL: func.func @identities
// CHECK-SAME: (%[[X:.+]]: i32)
func.func @identities(%x: i32) -> i32 {
  // CHECK-NEXT: return %[[X]] : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %x, %c0 : i32
  %1 = arith.muli %0, %c1 : i32
  %dead = arith.subi %x, %1 : i32
  return %1 : i32
}

// -----

// Equal constants are merged and moved to the start of the function.
// CHECK-LABEL: func.func @constants_merged_and_hoisted
func.func @constants_merged_and_hoisted(%x: i32) -> (i32, i32) {
  // CHECK-DAG: %[[C5:.+]] = arith.constant 5 : i32
  // CHECK-DAG: %[[C6:.+]] = arith.constant 6 : i32
  // CHECK: %[[A:.+]] = arith.muli %{{.*}}, %[[C5]]
  // CHECK: %[[B:.+]] = arith.muli %[[A]], %[[C5]]
  // CHECK: %[[D:.+]] = arith.muli %[[B]], %[[C6]]
  // CHECK: return %[[B]], %[[D]]
  %c5 = arith.constant 5 : i32
  %0 = arith.muli %x, %c5 : i32
  %c5b = arith.constant 5 : i32
  %1 = arith.muli %0, %c5b : i32
  %c6 = arith.constant 6 : i32
  %2 = arith.muli %1, %c6 : i32
  return %1, %2 : i32, i32
}

// -----

// Constants inside a nested region go to the function entry too.
// CHECK-LABEL: func.func @hoist_from_region
func.func @hoist_from_region(%p: i32) {
  // CHECK-NEXT: %[[C:.+]] = arith.constant 7 : i32
  // CHECK-NEXT: "ptest.loop"
  // CHECK-NEXT: ^bb0
  // CHECK-NEXT: "ptest.store"(%[[C]])
  "ptest.loop"() ({
  ^bb0(%i: index):
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %s = arith.addi %c3, %c4 : i32
    "ptest.store"(%s) : (i32) -> ()
    "ptest.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

// Ops with effects stay even when unused; effect-free ones do not.
// CHECK-LABEL: func.func @effects_kept
func.func @effects_kept(%p: i32) {
  // CHECK-NEXT: "ptest.store"
  // CHECK-NEXT: "test.unknown"
  // CHECK-NEXT: return
  %0 = "ptest.load"(%p) : (i32) -> i32
  "ptest.store"(%p) : (i32) -> ()
  %1 = "test.unknown"(%p) : (i32) -> i32
  %2 = arith.addi %p, %p : i32
  return
}

// -----

// A branch on a constant folds, and the blocks it made unreachable are erased.
// CHECK-LABEL: func.func @unreachable_blocks
// NOSIMPLIFY-LABEL: func.func @unreachable_blocks
func.func @unreachable_blocks(%x: i32) -> i32 {
  // CHECK-NEXT: "ptest.br"()[^bb1]
  // CHECK-NEXT: ^bb1:
  // CHECK-NEXT: return
  // CHECK-NOT: ^bb
  // NOSIMPLIFY: "ptest.br"()[^bb1]
  // NOSIMPLIFY: ^bb2:
  // NOSIMPLIFY: ^bb3:
  %true = arith.constant true
  "ptest.cond_br"(%true) [^bb1, ^bb2] : (i1) -> ()
^bb1:
  return %x : i32
^bb2:
  "ptest.br"() [^bb3] : () -> ()
^bb3:
  %0 = arith.addi %x, %x : i32
  return %0 : i32
}

// -----

// Already canonical: nothing changes.
// CHECK-LABEL: func.func @fixpoint
// CHECK-SAME: (%[[X:.+]]: i32, %[[Y:.+]]: i32)
func.func @fixpoint(%x: i32, %y: i32) -> i32 {
  // CHECK-NEXT: %[[S:.+]] = arith.addi %[[X]], %[[Y]] : i32
  // CHECK-NEXT: return %[[S]]
  %0 = arith.addi %x, %y : i32
  return %0 : i32
}

// -----

// An empty function.
// CHECK-LABEL: func.func @empty
// CHECK-NEXT: return
func.func @empty() {
  return
}
