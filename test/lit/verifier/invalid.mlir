// RUN: mlc-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

// Every rule of the IR verifier, with MLIR's messages. Branches are unregistered ops
// ("test.br") so that the file means the same to mlir-opt.

func.func @use_before_def(%a: i32) -> i32 {
  // expected-error @+1 {{operand #0 does not dominate this use}}
  %0 = arith.addi %1, %a : i32
  // expected-note @+1 {{operand defined here (op in the same block)}}
  %1 = arith.addi %a, %a : i32
  return %0 : i32
}

// -----

func.func @self_use() {
  // expected-error @below {{operand #0 does not dominate this use}}
  // expected-note @below {{operand defined here (op in the same block)}}
  %0 = arith.addi %0, %0 : i32
  return
}

// -----

func.func @not_dominating_block(%c: i1) {
  "test.cond_br"(%c)[^bb1, ^bb2] : (i1) -> ()
^bb1:
  // expected-note @+1 {{operand defined here (op in the same region)}}
  %0 = arith.constant 0 : i32
  "test.br"()[^bb2] : () -> ()
^bb2:
  // expected-error @+1 {{operand #0 does not dominate this use}}
  %1 = arith.addi %0, %0 : i32
  return
}

// -----

// expected-note @+1 {{operand defined as a block argument (block #2 in the same region)}}
func.func @not_dominating_block_argument(%c: i1, %v: i32) {
  "test.cond_br"(%c)[^bb1, ^bb3] : (i1) -> ()
^bb1:
  "test.br"(%v)[^bb2] : (i32) -> ()
^bb2(%x: i32):
  return
^bb3:
  // expected-error @+1 {{operand #0 does not dominate this use}}
  %0 = arith.addi %x, %x : i32
  return
}

// -----

func.func @unreachable_blocks_are_not_checked() {
  return
^bb1:
  %0 = arith.addi %1, %1 : i32
  "test.br"()[^bb2] : () -> ()
^bb2:
  %1 = arith.constant 1 : i32
  return
}

// -----

func.func @nested_use_of_later_value() {
  "test.region"() ({
    // expected-error @+1 {{operand #0 does not dominate this use}}
    "test.use"(%0) : (i32) -> ()
  }) : () -> ()
  // expected-note @+1 {{operand defined here (op in a parent region)}}
  %0 = arith.constant 0 : i32
  return
}

// -----

// Unregistered ops' single-block regions, and module bodies, are graph regions.
"test.graph"() ({
  %0 = "test.a"(%1) : (i32) -> i32
  %1 = "test.b"(%0) : (i32) -> i32
  %2 = "test.c"(%2) : (i32) -> i32
}) : () -> ()
%3 = "test.top"(%4) : (i32) -> i32
%4 = "test.top"(%3) : (i32) -> i32

// -----

func.func @ops_in_graph_regions_are_checked_inside() {
  "test.graph"() ({
    "test.region"() ({
    ^bb0:
      // expected-error @+1 {{operand #0 does not dominate this use}}
      "test.use"(%1) : (i32) -> ()
      "test.br"()[^bb1] : () -> ()
    ^bb1:
      // expected-note @+1 {{operand defined here (op in the same region)}}
      %1 = arith.constant 1 : i32
      "test.br"()[^bb1] : () -> ()
    }) : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @missing_terminator() {
  // expected-error @+1 {{block with no terminator, has %0 = "arith.constant"() <{value = 0 : i32}> : () -> i32}}
  %0 = arith.constant 0 : i32
}

// -----

func.func @terminator_not_last() {
  // expected-error @+1 {{'func.return' op must be the last operation in the parent block}}
  return
  "test.after"() : () -> ()
}

// -----

func.func @unregistered_ops_may_terminate() {
  "test.anything"() : () -> ()
}

// -----

func.func @empty_block() {
  "test.br"()[^bb1] : () -> ()
^bb1:
^bb2:
  return
}
// expected-error @-6 {{empty block: expect at least a terminator}}

// -----

// expected-error @+1 {{entry block of region may not have predecessors}}
func.func @entry_block_predecessor() {
^bb0:
  "test.br"()[^bb0] : () -> ()
}

// -----

func.func @successor_in_the_middle() {
  // expected-error @+1 {{operation with block successors must terminate its parent block}}
  "test.br"()[^bb1] : () -> ()
  return
^bb1:
  return
}

// -----

func.func @isolated_from_above(%a: i32) {
  "test.region"() ({
    // expected-note @+1 {{required by region isolation constraints}}
    func.func @inner() -> i32 {
      // expected-error @+1 {{'func.return' op using value defined outside the region}}
      return %a : i32
    }
  }) : () -> ()
  return
}

// -----

// expected-note @+1 {{see existing symbol definition here}}
func.func private @f()
// expected-error @+1 {{redefinition of symbol named 'f'}}
func.func private @f()

// -----

// expected-note @+1 {{see existing symbol definition here}}
module @m {
}
// expected-error @+1 {{redefinition of symbol named 'm'}}
module @m {
}

// -----

// An unregistered op's sym_name does not make it a symbol.
func.func private @s()
"test.symbolish"() {sym_name = "s"} : () -> ()

// -----

func.func @symbol_use() {
  // expected-error @+1 {{'func.call' op 'nope' does not reference a valid function}}
  call @nope() : () -> ()
  return
}

// -----

module {
  func.func private @inner_only()
}
func.func @nested_module_is_its_own_scope() {
  // expected-error @+1 {{'func.call' op 'inner_only' does not reference a valid function}}
  call @inner_only() : () -> ()
  return
}

// -----

func.func @op_verifier(%a: i32) {
  // expected-error @+1 {{'arith.addi' op requires the same type for all operands and results}}
  %0 = "arith.addi"(%a, %a) : (i32, i32) -> i64
  return
}

// -----

// One error per function: each isolated op is verified on its own, and verification of one
// stops at its first error.
func.func @first(%a: i32) {
  // expected-error @+1 {{'arith.addi' op requires the same type for all operands and results}}
  %0 = "arith.addi"(%a, %a) : (i32, i32) -> i64
  %1 = "arith.addi"(%a, %a) : (i32, i32) -> i64
  return
}
func.func @second(%a: i32) {
  // expected-error @+1 {{'arith.addi' op requires the same type for all operands and results}}
  %0 = "arith.addi"(%a, %a) : (i32, i32) -> i64
  return
}

// -----

// Op errors are found before dominance errors.
func.func @op_error_before_dominance(%a: i32) {
  %0 = arith.addi %1, %a : i32
  %1 = arith.addi %a, %a : i32
  // expected-error @+1 {{'arith.addi' op requires the same type for all operands and results}}
  %2 = "arith.addi"(%a, %a) : (i32, i32) -> i64
  return
}

// -----

// MLIR checks the ops of a region before the regions nested in them.
func.func @dominance_order(%a: i32) {
  "test.region"() ({
    "test.use"(%1) : (i32) -> ()
  }) : () -> ()
  // expected-error @+1 {{operand #0 does not dominate this use}}
  %0 = arith.addi %1, %a : i32
  // expected-note @+1 {{operand defined here (op in the same block)}}
  %1 = arith.addi %a, %a : i32
  return
}

// -----

// A use before a function of a value defined in the function's body (a forward reference
// from the module's block into a child region): not isolation, dominance.
// expected-error @+1 {{operand #0 does not dominate this use}}
"test.use"(%q) : (i32) -> ()
func.func @defines_q() {
  // expected-note @+1 {{operand defined here (op in a child region)}}
  %q = "test.def"() : () -> i32
  return
}

// -----

"test.use"(%p) : (i32) -> ()
// expected-error @+2 {{region entry argument '%p' is already in use}}
// expected-note @-2 {{previously referenced here}}
func.func @argument_named_as_a_forward_reference(%p: i32) {
  return
}
