// RUN: mlc-opt %s --allow-unregistered-dialect -split-input-file -p 'builtin.module(remove-dead-values)' | filecheck %s

// Unused arguments and never-used results of a private function go, at every call site too.
// CHECK-LABEL: func.func private @callee
// CHECK-SAME: (%[[A:.+]]: i32) -> i32
// CHECK-NEXT: %[[N:.+]] = arith.muli %[[A]], %[[A]]
// CHECK-NEXT: return %[[N]] : i32
func.func private @callee(%a: i32, %unused: i32) -> (i32, i32) {
  %0 = arith.muli %a, %a : i32
  %1 = arith.addi %a, %unused : i32
  return %0, %1 : i32, i32
}
// CHECK-LABEL: func.func @caller
// CHECK-SAME: (%[[X:.+]]: i32)
func.func @caller(%x: i32) -> i32 {
  // CHECK-NEXT: %[[R:.+]] = call @callee(%[[X]]) : (i32) -> i32
  // CHECK-NEXT: %[[R2:.+]] = call @callee(%[[X]]) : (i32) -> i32
  // CHECK-NEXT: %[[S:.+]] = arith.addi %[[R]], %[[R2]]
  // CHECK-NEXT: return %[[S]]
  %y = arith.addi %x, %x : i32
  %0:2 = call @callee(%x, %y) : (i32, i32) -> (i32, i32)
  %1:2 = call @callee(%x, %x) : (i32, i32) -> (i32, i32)
  %2 = arith.addi %0#0, %1#0 : i32
  return %2 : i32
}

// -----

// Public functions keep their signature (callers outside the module may exist).
// CHECK-LABEL: func.func @public
// CHECK-SAME: (%{{.+}}: i32, %{{.+}}: i32) -> i32
func.func @public(%a: i32, %unused: i32) -> i32 {
  return %a : i32
}

// -----

// A result used at one call site is kept for all.
// CHECK-LABEL: func.func private @two
// CHECK-SAME: -> (i32, i32)
func.func private @two(%a: i32) -> (i32, i32) {
  return %a, %a : i32, i32
}
// CHECK-LABEL: func.func @use_each_once
// CHECK: call @two(%{{.+}}) : (i32) -> (i32, i32)
// CHECK: call @two(%{{.+}}) : (i32) -> (i32, i32)
func.func @use_each_once(%x: i32) -> (i32, i32) {
  %0:2 = call @two(%x) : (i32) -> (i32, i32)
  %1:2 = call @two(%x) : (i32) -> (i32, i32)
  return %0#0, %1#1 : i32, i32
}

// -----

// A function referenced other than by a call (here: taken as a value) keeps its signature.
// CHECK-LABEL: func.func private @address_taken
// CHECK-SAME: (%{{.+}}: i32, %{{.+}}: i32) -> i32
func.func private @address_taken(%a: i32, %unused: i32) -> i32 {
  return %a : i32
}
func.func @take() -> ((i32, i32) -> i32) {
  %f = func.constant @address_taken : (i32, i32) -> i32
  return %f : (i32, i32) -> i32
}

// -----

// A reference from code that is dead does not pin the signature, even when the walk meets the
// reference before the code that makes it dead (^bb2 is visited before ^bb1).
// CHECK-LABEL: func.func private @pinned_by_dead
// CHECK-SAME: (%{{.+}}: i32) -> i32
func.func private @pinned_by_dead(%a: i32, %unused: i32) -> i32 {
  return %a : i32
}
// CHECK-LABEL: func.func @cfg
// CHECK-NOT: func.constant
// CHECK-NOT: unrealized_conversion_cast
// CHECK: call @pinned_by_dead(%{{[a-z0-9]+}}) : (i32) -> i32
func.func @cfg(%x: i32) -> i32 {
  "ptest.br"() [^bb2] : () -> ()
^bb1:
  %c = builtin.unrealized_conversion_cast %f : (i32, i32) -> i32 to i64
  %r = call @pinned_by_dead(%x, %x) : (i32, i32) -> i32
  return %r : i32
^bb2:
  %f = func.constant @pinned_by_dead : (i32, i32) -> i32
  "ptest.br"() [^bb1] : () -> ()
}

// -----

// A result used nowhere goes; then the argument only it used goes, and so does the code in the
// caller that only computed that argument.
// CHECK-LABEL: func.func private @drop_both
// CHECK-SAME: (%[[A:.+]]: i32) -> i32
// CHECK-NEXT: return %[[A]] : i32
func.func private @drop_both(%a: i32, %b: i32) -> (i32, i32) {
  %sq = arith.muli %b, %b : i32
  return %a, %sq : i32, i32
}
// CHECK-LABEL: func.func @feed
// CHECK-SAME: (%[[X:.+]]: i32)
// CHECK-NEXT: %[[R:.+]] = call @drop_both(%[[X]]) : (i32) -> i32
// CHECK-NEXT: return %[[R]] : i32
func.func @feed(%x: i32) -> i32 {
  %only_for_b = arith.addi %x, %x : i32
  %feeds = arith.muli %only_for_b, %x : i32
  %0:2 = call @drop_both(%x, %feeds) : (i32, i32) -> (i32, i32)
  return %0#0 : i32
}

// -----

// An argument used only in an unreachable block (erased with its block argument) is dead.
// CHECK-LABEL: func.func private @unreachable_use
// CHECK-SAME: (%[[A:.+]]: i32) -> i32
// CHECK-NEXT: return %[[A]] : i32
// CHECK-NEXT: }
func.func private @unreachable_use(%a: i32, %b: i32) -> i32 {
  return %a : i32
^bb1(%z: i32):
  %u = arith.addi %b, %z : i32
  return %u : i32
}
func.func @call_it(%x: i32) -> i32 {
  %0 = call @unreachable_use(%x, %x) : (i32, i32) -> i32
  return %0 : i32
}

// -----

// The signatures changed are those of the processed symbol table's own functions; a nested
// module's functions are only cleaned of dead code.
// CHECK-LABEL: func.func private @outer_unused()
// CHECK-LABEL: module @inner
// CHECK: func.func private @nested(%{{.+}}: i32, %{{.+}}: i32) -> i32
// CHECK-NOT: arith.addi
func.func private @outer_unused(%a: i32) {
  return
}
module @inner {
  func.func private @nested(%a: i32, %b: i32) -> i32 {
    %dead = arith.addi %a, %b : i32
    return %a : i32
  }
  func.func @user(%x: i32) -> i32 {
    %0 = call @nested(%x, %x) : (i32, i32) -> i32
    return %0 : i32
  }
}
