// RUN: mlc-opt %s --allow-unregistered-dialect -split-input-file -p 'builtin.module(cse)' | filecheck %s

// Expressions keyed by shape: no operand, one operand, two, three; one result or two. Ops of
// different shapes, types or attributes are never merged; equal ones are.
// CHECK-LABEL: func.func @shapes
func.func @shapes(%a: i32, %b: i32, %c: i1) -> (i32, i64, i64, i16, i64, i32, i32, i32, i32) {
  // CHECK-NEXT: %[[C1:.+]] = arith.constant 1 : i32
  // CHECK-NEXT: %[[C1L:.+]] = arith.constant 1 : i64
  // CHECK-NEXT: %[[E:.+]] = arith.extsi %{{.*}} : i32 to i64
  // CHECK-NEXT: %[[T:.+]] = arith.trunci %{{.*}} : i32 to i16
  // CHECK-NEXT: %[[U:.+]] = arith.extui %{{.*}} : i32 to i64
  // CHECK-NEXT: %[[S:.+]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
  // CHECK-NEXT: %[[P:.+]]:2 = "test.pair"(%{{.*}}) : (i32) -> (i32, i32)
  // CHECK-NEXT: return %[[C1]], %[[C1L]], %[[E]], %[[T]], %[[U]], %[[S]], %[[S]], %[[P]]#0, %[[P]]#1
  %c1 = arith.constant 1 : i32
  %c1l = arith.constant 1 : i64
  %c1b = arith.constant 1 : i32
  %e = arith.extsi %a : i32 to i64
  %e2 = arith.extsi %a : i32 to i64
  %t = arith.trunci %a : i32 to i16
  %u = arith.extui %a : i32 to i64
  %s = arith.select %c, %a, %b : i32
  %s2 = arith.select %c, %a, %b : i32
  %p:2 = "test.pair"(%c1) : (i32) -> (i32, i32)
  return %c1b, %c1l, %e2, %t, %u, %s, %s2, %p#0, %p#1 : i32, i64, i64, i16, i64, i32, i32, i32, i32
}

// -----

// A function is a fresh scope (isolated from above): its constants are not replaced by the
// equal constants of another function, and a nested region sees its parent's expressions.
// CHECK-LABEL: func.func @first
// CHECK-NEXT: arith.constant 7 : i32
// CHECK-LABEL: func.func @second
// CHECK-NEXT: %[[K:.+]] = arith.constant 7 : i32
// CHECK-NEXT: "test.region"() ({
// CHECK-NEXT: "test.use"(%[[K]]) : (i32) -> ()
// CHECK-NEXT: "test.end"() : () -> ()
func.func @first() -> i32 {
  %k = arith.constant 7 : i32
  return %k : i32
}
func.func @second() -> i32 {
  %k = arith.constant 7 : i32
  "test.region"() ({
    %k2 = arith.constant 7 : i32
    "test.use"(%k2) : (i32) -> ()
    "test.end"() : () -> ()
  }) : () -> ()
  return %k : i32
}
