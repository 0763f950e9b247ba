// RUN: mlc-opt %s -split-input-file -p 'builtin.module(inline)' | filecheck %s
// RUN: mlc-opt %s -split-input-file -p 'builtin.module(inline{threshold=2})' | filecheck %s --check-prefix=SMALL

// A private callee is inlined at every call site, then erased; a public one is kept.
// CHECK-LABEL: module
// CHECK-NOT: func.func private @double
// CHECK: func.func @double_pub
// CHECK-LABEL: func.func @caller
// CHECK-SAME: (%[[X:.+]]: i32)
// CHECK-NEXT: %[[A:.+]] = arith.addi %[[X]], %[[X]]
// CHECK-NEXT: %[[B:.+]] = arith.addi %[[A]], %[[A]]
// CHECK-NEXT: %[[C:.+]] = arith.muli %[[B]], %[[B]]
// CHECK-NEXT: return %[[C]]
func.func private @double(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  return %0 : i32
}
func.func @double_pub(%a: i32) -> i32 {
  %0 = arith.muli %a, %a : i32
  return %0 : i32
}
func.func @caller(%x: i32) -> i32 {
  %0 = call @double(%x) : (i32) -> i32
  %1 = call @double(%0) : (i32) -> i32
  %2 = call @double_pub(%1) : (i32) -> i32
  return %2 : i32
}

// -----

// Callees are processed first: c into b, then b (now containing c's body) into a.
// CHECK-LABEL: func.func @a
// CHECK-NEXT: arith.constant 3
// CHECK-NEXT: return
// CHECK-NOT: call
func.func @a() -> i32 {
  %0 = call @b() : () -> i32
  return %0 : i32
}
func.func private @b() -> i32 {
  %0 = call @c() : () -> i32
  return %0 : i32
}
func.func private @c() -> i32 {
  %0 = arith.constant 3 : i32
  return %0 : i32
}

// -----

// Recursive functions (self or mutual) are not inlined; neither are declarations or
// callees marked no_inline.
// CHECK-LABEL: func.func @recursive_callers
// CHECK-NEXT: call @self
// CHECK-NEXT: call @even
// CHECK-NEXT: call @ext
// CHECK-NEXT: call @keep_out
func.func @recursive_callers(%x: i32) -> i32 {
  %0 = call @self(%x) : (i32) -> i32
  %1 = call @even(%0) : (i32) -> i32
  %2 = call @ext(%1) : (i32) -> i32
  %3 = call @keep_out(%2) : (i32) -> i32
  return %3 : i32
}
func.func private @self(%x: i32) -> i32 {
  %0 = call @self(%x) : (i32) -> i32
  return %0 : i32
}
func.func private @even(%x: i32) -> i32 {
  %0 = call @odd(%x) : (i32) -> i32
  return %0 : i32
}
func.func private @odd(%x: i32) -> i32 {
  %0 = call @even(%x) : (i32) -> i32
  return %0 : i32
}
func.func private @ext(i32) -> i32
func.func private @keep_out(%x: i32) -> i32 attributes {no_inline} {
  return %x : i32
}

// -----

// The size threshold: a callee with more ops than the threshold keeps its calls.
// CHECK-LABEL: func.func @sizes
// CHECK-NOT: call
// SMALL-LABEL: func.func @sizes
// SMALL-NEXT: %[[S:.+]] = arith.addi
// SMALL-NEXT: call @big(%[[S]])
func.func @sizes(%x: i32) -> i32 {
  %0 = call @small(%x) : (i32) -> i32
  %1 = call @big(%0) : (i32) -> i32
  return %1 : i32
}
func.func private @small(%x: i32) -> i32 {
  %0 = arith.addi %x, %x : i32
  return %0 : i32
}
func.func private @big(%x: i32) -> i32 {
  %0 = arith.addi %x, %x : i32
  %1 = arith.muli %0, %0 : i32
  %2 = arith.subi %1, %x : i32
  return %2 : i32
}
