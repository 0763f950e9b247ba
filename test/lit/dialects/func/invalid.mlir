// RUN: mlc-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect

// expected-error@+1 {{'func.func' op entry block must have 1 arguments to match function signature}}
"func.func"() <{function_type = (i32) -> i32, sym_name = "f"}> ({
^bb0(%a: i32, %b: i32):
  "func.return"(%a) : (i32) -> ()
}) : () -> ()

// -----

// expected-error@+1 {{'func.func' op type of entry block argument #0('i64') must match the type of the corresponding argument in function signature('i32')}}
"func.func"() <{function_type = (i32) -> i32, sym_name = "f"}> ({
^bb0(%a: i64):
  %0 = "test.trunc"(%a) : (i64) -> i32
  "func.return"(%0) : (i32) -> ()
}) : () -> ()

// -----

// expected-error@+1 {{'func.func' op expects argument attribute array to have the same number of elements as the number of function arguments, got 2, but expected 1}}
"func.func"() <{arg_attrs = [{}, {}], function_type = (i32) -> (), sym_name = "f", sym_visibility = "private"}> ({
}) : () -> ()

// -----

// expected-error@+1 {{'func.func' op expects result attribute array to have the same number of elements as the number of function results, got 0, but expected 1}}
"func.func"() <{res_attrs = [], function_type = () -> i32, sym_name = "f", sym_visibility = "private"}> ({
}) : () -> ()

// -----

// expected-error@+1 {{'func.func' op arguments may only have dialect attributes}}
func.func private @f(i32 {foo = 1 : i64})

// -----

// expected-error@+1 {{'func.func' op results may only have dialect attributes}}
func.func private @f() -> (i32 {bar})

// -----

// expected-error@+1 {{'func.func' op attribute 'arg_attrs' failed to satisfy constraint: Array of dictionary attributes}}
"func.func"() <{arg_attrs = [1], function_type = (i32) -> (), sym_name = "f", sym_visibility = "private"}> ({
}) : () -> ()

// -----

// expected-error@+1 {{'func.func' op attribute 'function_type' failed to satisfy constraint: type attribute of function type}}
"func.func"() <{function_type = i32, sym_name = "f", sym_visibility = "private"}> ({
}) : () -> ()

// -----

// expected-error@+1 {{'func.func' op requires attribute 'function_type'}}
"func.func"() <{sym_name = "f", sym_visibility = "private"}> ({
}) : () -> ()

// -----

// expected-error@+1 {{'func.func' op requires attribute 'sym_name'}}
"func.func"() <{function_type = () -> (), sym_visibility = "private"}> ({
}) : () -> ()

// -----

// expected-error@+1 {{'func.func' op visibility expected to be one of ["public", "private", "nested"], but got "hidden"}}
"func.func"() <{function_type = () -> (), sym_name = "f", sym_visibility = "hidden"}> ({
  "func.return"() : () -> ()
}) : () -> ()

// -----

// expected-error@+1 {{'func.func' op symbol declaration cannot have public visibility}}
func.func @external(i32)

// -----

// expected-error@+1 {{'func.func' op symbol declaration cannot have public visibility}}
func.func public @external_public(i32)

// -----

// expected-error@+1 {{'sym_name' is an inferred attribute and should not be specified in the explicit attribute dictionary}}
func.func private @f() attributes {sym_name = "g"}

// -----

// expected-error@+1 {{expected non-empty function body}}
func.func @empty_body() {}

// -----

// expected-error@+1 {{expected type instead of SSA identifier}}
func.func private @mixed(i32, %b: i32)

// -----

// expected-error@+1 {{expected SSA identifier}}
func.func private @mixed(%a: i32, i32)

// -----

func.func @return_count() -> i32 {
  // expected-error@+1 {{'func.return' op has 0 operands, but enclosing function (@return_count) returns 1}}
  return
}

// -----

func.func @return_type(%a: i64) -> i32 {
  // expected-error@+1 {{type of return operand 0 ('i64') doesn't match function result type ('i32') in function @return_type}}
  return %a : i64
}

// -----

func.func @return_parent() {
  "test.region"() ({
    // expected-error@+1 {{'func.return' op expects parent op 'func.func'}}
    func.return
  }) : () -> ()
  return
}

// -----

func.func @return_not_last() {
  // expected-error@+1 {{'func.return' op must be the last operation in the parent block}}
  func.return
  "test.op"() : () -> ()
}

// -----

func.func @call_unknown(%a: i32) {
  // expected-error@+1 {{'func.call' op 'nope' does not reference a valid function}}
  %0 = func.call @nope(%a) : (i32) -> i32
  return
}

// -----

func.func @call_not_a_function() {
  // expected-error@+1 {{'func.call' op 'x' does not reference a valid function}}
  func.call @x() : () -> ()
  return
}
"test.symbol"() {sym_name = "x"} : () -> ()

// -----

func.func private @h(i32) -> i32
func.func @call_operand_count(%a: i32) {
  // expected-error@+1 {{'func.call' op incorrect number of operands for callee: expected 1, but got 2}}
  %0 = func.call @h(%a, %a) : (i32, i32) -> i32
  return
}

// -----

func.func private @h(i64) -> i32
func.func @call_operand_type(%a: i32) {
  // expected-error@+1 {{'func.call' op operand type mismatch: expected operand type 'i64', but provided 'i32' for operand number 0}}
  %0 = func.call @h(%a) : (i32) -> i32
  return
}

// -----

func.func private @h(i32) -> i32
func.func @call_result_count(%a: i32) {
  // expected-error@+1 {{'func.call' op incorrect number of results for callee: expected 1, but got 0}}
  func.call @h(%a) : (i32) -> ()
  return
}

// -----

func.func private @h(i32) -> i64
func.func @call_result_type(%a: i32) {
  // expected-error@+3 {{'func.call' op result type mismatch at index 0}}
  // expected-note@+2 {{op result types: 'i32'}}
  // expected-note@+1 {{callee result types: 'i64'}}
  %0 = func.call @h(%a) : (i32) -> i32
  return
}

// -----

func.func @call_nested_ref() {
  // expected-error@+1 {{'func.call' op attribute 'callee' failed to satisfy constraint: flat symbol reference attribute}}
  "func.call"() <{callee = @m::@g}> : () -> ()
  return
}

// -----

func.func @call_indirect_inputs(%f: (i32) -> i32, %a: i64) {
  // expected-error@+1 {{'func.call_indirect' op failed to verify that callee input types match argument types}}
  %0 = "func.call_indirect"(%f, %a) : ((i32) -> i32, i64) -> i32
  return
}

// -----

func.func @call_indirect_results(%f: (i32) -> i32, %a: i32) {
  // expected-error@+1 {{'func.call_indirect' op failed to verify that callee result types match result types}}
  %0 = "func.call_indirect"(%f, %a) : ((i32) -> i32, i32) -> i64
  return
}

// -----

func.func @call_indirect_callee(%f: i32) {
  // expected-error@+1 {{'func.call_indirect' op operand #0 must be function type}}
  "func.call_indirect"(%f) : (i32) -> ()
  return
}

// -----

func.func @constant_undefined() {
  // expected-error@+1 {{'func.constant' op reference to undefined function 'nope'}}
  %0 = func.constant @nope : () -> ()
  return
}

// -----

func.func private @h(i32) -> i32
func.func @constant_type() {
  // expected-error@+1 {{'func.constant' op reference to function with mismatched type}}
  %0 = func.constant @h : (i64) -> ()
  return
}

// -----

// A symbol name that `@name` could not spell (not UTF-8).
// expected-error@+1 {{'func.func' op symbol name 'sym_name' must be valid UTF-8}}
"func.func"() <{function_type = () -> (), sym_name = "a\FFb"}> ({
  "func.return"() : () -> ()
}) : () -> ()
