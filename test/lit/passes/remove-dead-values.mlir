// RUN: mlc-opt %s -split-input-file -p 'builtin.module(remove-dead-values)' | filecheck %s

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
