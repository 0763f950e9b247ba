// RUN: not mlc-opt %s -p 'builtin.module(func.func(test-pass-invalid-ir))' 2>&1 | filecheck %s
// RUN: mlc-opt %s -p 'builtin.module(func.func(test-pass-invalid-ir))' --verify-each=false | filecheck %s --check-prefix=NOVERIFY

// The verifier runs after each pass and names the pass that broke the IR.
// CHECK: error: operand #0 does not dominate this use
// CHECK: note: the IR is invalid after pass 'test-pass-invalid-ir'

// NOVERIFY: %[[B:.+]] = arith.muli %[[A:.+]], %[[A]]
// NOVERIFY-NEXT: %[[A]] = arith.addi

func.func @f(%x: i32) -> i32 {
  %0 = arith.addi %x, %x : i32
  %1 = arith.muli %0, %0 : i32
  return %1 : i32
}
