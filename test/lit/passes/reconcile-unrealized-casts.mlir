// RUN: mlc-opt %s --allow-unregistered-dialect -split-input-file -p 'builtin.module(reconcile-unrealized-casts)' | filecheck %s

// A round trip folds to the original value.
// CHECK-LABEL: func.func @round_trip
// CHECK-SAME: (%[[X:.+]]: i32)
func.func @round_trip(%x: i32) -> i32 {
  // CHECK-NEXT: return %[[X]]
  %0 = builtin.unrealized_conversion_cast %x : i32 to i64
  %1 = builtin.unrealized_conversion_cast %0 : i64 to i32
  return %1 : i32
}

// -----

// Longer chains fold too, and casts left unused go.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.+]]: i32)
func.func @chain(%x: i32) -> i32 {
  // CHECK-NEXT: return %[[X]]
  %0 = builtin.unrealized_conversion_cast %x : i32 to i64
  %1 = builtin.unrealized_conversion_cast %0 : i64 to f32
  %2 = builtin.unrealized_conversion_cast %1 : f32 to i32
  %3 = builtin.unrealized_conversion_cast %x : i32 to index
  return %2 : i32
}

// -----

// A cast that does not cancel out stays (a later conversion must deal with it).
// CHECK-LABEL: func.func @live
// CHECK-NEXT: %[[C:.+]] = builtin.unrealized_conversion_cast %{{.+}} : i32 to i64
// CHECK-NEXT: "test.use"(%[[C]])
func.func @live(%x: i32) {
  %0 = builtin.unrealized_conversion_cast %x : i32 to i64
  "test.use"(%0) : (i64) -> ()
  return
}

// -----

// Multi-value casts: the round trip folds when all values come back in order.
// CHECK-LABEL: func.func @multi
// CHECK-SAME: (%[[A:.+]]: i32, %[[B:.+]]: f32)
func.func @multi(%a: i32, %b: f32) -> (i32, f32) {
  // CHECK-NEXT: return %[[A]], %[[B]]
  %0 = builtin.unrealized_conversion_cast %a, %b : i32, f32 to i64
  %1:2 = builtin.unrealized_conversion_cast %0 : i64 to i32, f32
  return %1#0, %1#1 : i32, f32
}
