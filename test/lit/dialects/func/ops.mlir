// RUN: mlc-opt %s --allow-unregistered-dialect | mlc-opt --allow-unregistered-dialect | filecheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect --mlir-print-op-generic | mlc-opt --allow-unregistered-dialect | filecheck %s

// func ops: definitions and declarations with visibility, argument/result attributes and
// function attributes; return; direct and indirect calls; function constants.

// CHECK-LABEL: func.func private @decl(i32, f32) -> i32
func.func private @decl(i32, f32) -> i32

// CHECK-LABEL: func.func private @decl_attrs(memref<?xf32> {llvm.noalias}, i32 {llvm.signext}) -> (i32 {llvm.zeroext})
func.func private @decl_attrs(%arg0: memref<?xf32> {llvm.noalias}, %arg1: i32 {llvm.signext}) -> (i32 {llvm.zeroext})

// CHECK-LABEL: func.func private @decl_no_results()
func.func private @decl_no_results()

// A function-typed result needs parentheses.
// CHECK-LABEL: func.func private @returns_function() -> ((i32) -> i32)
func.func private @returns_function() -> ((i32) -> i32)

// CHECK-LABEL: func.func nested @nested_visibility()
// CHECK-SAME: attributes {foo = "bar"}
func.func nested @nested_visibility() attributes {foo = "bar"} {
  // CHECK-NEXT: return
  return
}

// CHECK-LABEL: func.func public @public_visibility
// CHECK-SAME: (%{{.+}}: memref<4xf32> {llvm.noalias}, %{{.+}}: memref<4xf32> {llvm.noalias, llvm.readonly})
func.func public @public_visibility(%a: memref<4xf32> {llvm.noalias}, %b: memref<4xf32> {llvm.readonly, llvm.noalias}) {
  return
}

// CHECK-LABEL: func.func @no_inline()
// CHECK-SAME: attributes {no_inline}
func.func @no_inline() attributes {no_inline} {
  // `func.return` prints as `return` inside a func.func.
  // CHECK-NEXT: return
  func.return
}

// CHECK-LABEL: func.func @multi_results
// CHECK-SAME: (%[[A:.+]]: i32, %[[B:.+]]: f32) -> (i32, f32)
func.func @multi_results(%a: i32, %b: f32) -> (i32, f32) {
  // CHECK-NEXT: return %[[A]], %[[B]] : i32, f32
  return %a, %b : i32, f32
}

// CHECK-LABEL: func.func @result_attrs
// CHECK-SAME: -> (i32 {test.res}, f32 {test.other = 1 : i64})
func.func @result_attrs(%a: i32, %b: f32) -> (i32 {test.res}, f32 {test.other = 1 : i64}) {
  return %a, %b : i32, f32
}

// Only some arguments have attributes.
// CHECK-LABEL: func.func @some_arg_attrs
// CHECK-SAME: (%{{.+}}: i32, %{{.+}}: i32 {test.only})
func.func @some_arg_attrs(%a: i32, %b: i32 {test.only}) {
  return
}

// A body of several blocks.
// CHECK-LABEL: func.func @blocks
func.func @blocks(%a: i32) -> i32 {
  // CHECK: "test.br"(%{{.+}})[^[[BB1:.+]]] : (i32) -> ()
  "test.br"(%a)[^bb1] : (i32) -> ()
// CHECK: ^[[BB1]](%[[X:.+]]: i32):
^bb1(%x: i32):
  // CHECK-NEXT: return %[[X]] : i32
  return %x : i32
}

// CHECK-LABEL: func.func @calls
// CHECK-SAME: (%[[A:.+]]: i32, %[[B:.+]]: f32) -> i32
func.func @calls(%a: i32, %b: f32) -> i32 {
  // CHECK: %[[R0:.+]] = call @decl(%[[A]], %[[B]]) : (i32, f32) -> i32
  %0 = func.call @decl(%a, %b) : (i32, f32) -> i32
  // CHECK: %[[R1:.+]]:2 = call @multi_results(%[[R0]], %[[B]]) : (i32, f32) -> (i32, f32)
  %1:2 = call @multi_results(%0, %b) : (i32, f32) -> (i32, f32)
  // CHECK: call @decl_no_results() : () -> ()
  call @decl_no_results() : () -> ()
  // CHECK: call @decl_no_results() {test.tag} : () -> ()
  call @decl_no_results() {test.tag} : () -> ()
  // CHECK: return %[[R1]]#0 : i32
  return %1#0 : i32
}

// CHECK-LABEL: func.func @indirect
// CHECK-SAME: (%[[F:.+]]: (i32) -> i32, %[[X:.+]]: i32) -> i32
func.func @indirect(%f: (i32) -> i32, %x: i32) -> i32 {
  // CHECK: %[[G:.+]] = constant @callee : (i32) -> i32
  %g = func.constant @callee : (i32) -> i32
  // CHECK: %[[R0:.+]] = call_indirect %[[F]](%[[X]]) : (i32) -> i32
  %0 = call_indirect %f(%x) : (i32) -> i32
  // CHECK: %[[R1:.+]] = call_indirect %[[G]](%[[R0]]) : (i32) -> i32
  %1 = func.call_indirect %g(%0) : (i32) -> i32
  // CHECK: return %[[R1]] : i32
  return %1 : i32
}

// CHECK-LABEL: func.func private @callee
func.func private @callee(%x: i32) -> i32 {
  return %x : i32
}

// CHECK-LABEL: func.func @"quoted name"
func.func @"quoted name"() {
  // CHECK: call @"quoted name"() : () -> ()
  call @"quoted name"() : () -> ()
  return
}

// Symbols resolve through a nested module.
// CHECK-LABEL: module @inner
module @inner {
  // CHECK: func.func @inner_callee() -> index
  func.func @inner_callee() -> index {
    %c = arith.constant 0 : index
    return %c : index
  }
  // CHECK: func.func @inner_caller() -> index
  func.func @inner_caller() -> index {
    // CHECK: call @inner_callee() : () -> index
    %0 = call @inner_callee() : () -> index
    return %0 : index
  }
}
