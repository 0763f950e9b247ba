// RUN: mlc-opt %s -p 'builtin.module(test-widen-integers)' | filecheck %s
// RUN: mlc-opt %s -p 'builtin.module(test-widen-integers,reconcile-unrealized-casts)' | filecheck %s --check-prefix=RECONCILED

// i32 becomes i64 in function definitions and arith ops. The call to a declaration keeps i32:
// casts bridge the boundary both ways, and a round trip through casts is reconciled away.
// CHECK-LABEL: func.func private @ext(i32) -> i32
// CHECK-LABEL: func.func @f
// CHECK-SAME: (%[[X:.+]]: i64) -> i64
// CHECK-NEXT: %[[C:.+]] = arith.constant 1 : i64
// CHECK-NEXT: %[[A:.+]] = arith.addi %[[X]], %[[C]] : i64
// CHECK-NEXT: %[[DOWN:.+]] = builtin.unrealized_conversion_cast %[[A]] : i64 to i32
// CHECK-NEXT: %[[R:.+]] = call @ext(%[[DOWN]]) : (i32) -> i32
// CHECK-NEXT: %[[UP:.+]] = builtin.unrealized_conversion_cast %[[R]] : i32 to i64
// CHECK-NEXT: %[[M:.+]] = arith.muli %[[UP]], %[[A]] : i64
// CHECK-NEXT: return %[[M]] : i64
func.func private @ext(i32) -> i32
func.func @f(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %x, %c1 : i32
  %1 = call @ext(%0) : (i32) -> i32
  %2 = arith.muli %1, %0 : i32
  return %2 : i32
}

// Values that leave and re-enter converted code through casts fold back.
// RECONCILED-LABEL: func.func @g
// RECONCILED-SAME: (%[[Y:.+]]: i64)
// RECONCILED-NEXT: return %[[Y]] : i64
func.func @g(%y: i32) -> i32 {
  %0 = builtin.unrealized_conversion_cast %y : i32 to f32
  %1 = builtin.unrealized_conversion_cast %0 : f32 to i32
  return %1 : i32
}
