// RUN: mlc-opt %s --allow-unregistered-dialect | mlc-opt --allow-unregistered-dialect | filecheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect --mlir-print-op-generic | mlc-opt --allow-unregistered-dialect | filecheck %s

// builtin.module (named, with attributes and visibility, nested, empty) and
// builtin.unrealized_conversion_cast.

// CHECK: module attributes {test.module_attr = 1 : i32} {
module attributes {test.module_attr = 1 : i32} {
  // CHECK-NEXT: module @named {
  module @named {
    // CHECK-NEXT: func.func @inner()
    // CHECK-NEXT: return
    // CHECK-NEXT: }
    // CHECK-NEXT: }
    func.func @inner() {
      return
    }
  }
  // CHECK-NEXT: module {
  // CHECK-NEXT: }
  module {
  }
  // `builtin.` is implied for `module`, and its properties other than the name print in `<>`.
  // CHECK-NEXT: module @hidden <sym_visibility = "private"> attributes {test.x} {
  builtin.module @hidden <sym_visibility = "private"> attributes {test.x} {
  // CHECK-NEXT: }
  }
  // CHECK-NEXT: module @"quoted name" {
  module @"quoted name" {
    // A module's region is a graph region: uses may precede definitions.
    // CHECK-NEXT: "test.use"(%[[LATE:.+]]) : (i32) -> ()
    "test.use"(%late) : (i32) -> ()
    // CHECK-NEXT: %[[LATE]] = "test.def"() : () -> i32
    %late = "test.def"() : () -> i32
  }

  // CHECK-LABEL: func.func @casts
  // CHECK-SAME: (%[[A:.+]]: i32, %[[B:.+]]: f32)
  func.func @casts(%a: i32, %b: f32) -> (i64, index) {
    // CHECK: %[[C0:.+]] = builtin.unrealized_conversion_cast %[[A]] : i32 to i64
    %0 = builtin.unrealized_conversion_cast %a : i32 to i64
    // CHECK: %[[C1:.+]]:2 = builtin.unrealized_conversion_cast %[[A]], %[[B]] : i32, f32 to index, !test.pair
    %1:2 = builtin.unrealized_conversion_cast %a, %b : i32, f32 to index, !test.pair
    // CHECK: builtin.unrealized_conversion_cast to i8 {test.tag}
    %2 = builtin.unrealized_conversion_cast to i8 {test.tag}
    // CHECK: return %[[C0]], %[[C1]]#0 : i64, index
    return %0, %1#0 : i64, index
  }
}
