// RUN: mlc-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect
// RUN: mlc-opt %s --split-input-file --verify-diagnostics=all --allow-unregistered-dialect=true

// Every designator form of --verify-diagnostics, met exactly (MLIR's semantics).

func.func @same_line(%a: i32) {
  %0 = "arith.addi"(%a, %a) : (i32, i32) -> i64 // expected-error {{requires the same type}}
  return
}

// -----

func.func @relative_lines(%a: i32) {
  // expected-error@+3 {{does not dominate this use}}
  // expected-note@+3 {{operand defined here}}

  %0 = arith.addi %1, %a : i32
  %1 = arith.addi %a, %a : i32
  return
}

// -----

func.func @minus(%a: i32) {
  %0 = arith.addi %1, %a : i32
  // expected-error@-1 {{does not dominate this use}}
  %1 = arith.addi %a, %a : i32
  // expected-note@-1 {{operand defined here (op in the same block)}}
  return
}

// -----

func.func @above_and_below(%a: i32) {
  // expected-error@below {{does not dominate}}
  %0 = arith.addi %1, %a : i32
  %1 = arith.addi %a, %a : i32
  // expected-note@above {{op in the same block}}
  return
}

// -----

func.func @regex(%a: i32) {
  // expected-error-re@+1 {{operand #{{[0-9]+}} does not {{(dominate|precede)}} this use}}
  %0 = arith.addi %a, %1 : i32
  // expected-note-re@+1 {{defined here ({{.*}})}}
  %1 = arith.addi %a, %a : i32
  return
}

// -----

func.func @spaces_between_parts(%a: i32) {
  %0 = arith.addi %1, %a : i32 // expected-error   @+0   {{dominate}}
  %1 = arith.addi %a, %a : i32 // expected-note {{}}
  return
}

// -----

// Designators may pile up: several @below apply to the same line.
func.func @below_twice(%a: i32) {
  // expected-error@below {{does not dominate}}
  // expected-note@below {{defined here}}
  %0 = arith.addi %0, %a : i32
  return
}

// -----

// Parse errors are diagnostics too; the rest of the file goes on.
func.func @parse_error() {
  // expected-error@+1 {{use of undeclared SSA value name}}
  "test.op"(%nope) : (i32) -> ()
  return
}

// -----

// A chunk without diagnostics passes.
func.func @fine() {
  return
}

// -----

// A diagnostic without a file location is matched by @unknown.
// expected-error@unknown {{requires the same type for all operands and results}}
func.func @unknown_location(%a: i32) {
  %0 = "arith.addi"(%a, %a) : (i32, i32) -> i64 loc(unknown)
  return
}
