// RUN: mlc-opt %s -o %t -p 'builtin.module(func.func(canonicalize,cse),symbol-dce)' --mlir-print-ir-before=cse --mlir-print-ir-after=symbol-dce 2>&1 | filecheck %s --check-prefix=NAMED
// RUN: mlc-opt %s -o %t -p 'builtin.module(func.func(canonicalize,cse))' --mlir-print-ir-after-all 2>&1 | filecheck %s --check-prefix=ALL
// RUN: mlc-opt %s -o %t -p 'builtin.module(func.func(canonicalize,cse))' --mlir-print-ir-before-all --mlir-print-ir-module-scope 2>&1 | filecheck %s --check-prefix=SCOPE
// RUN: mlc-opt %s -o %t -p 'builtin.module(func.func(canonicalize,cse))' --mlir-print-ir-after-change 2>&1 | filecheck %s --check-prefix=CHANGE
// RUN: not mlc-opt %s -o %t -p 'builtin.module(func.func(cse,test-pass-failure))' --mlir-print-ir-after-failure 2>&1 | filecheck %s --check-prefix=FAILURE

// NAMED: // -----// IR Dump Before CSE (cse) //----- //
// NAMED-NEXT: func.func @changes
// NAMED: // -----// IR Dump Before CSE (cse) //----- //
// NAMED-NEXT: func.func @canonical
// NAMED: // -----// IR Dump After SymbolDCE (symbol-dce) //----- //
// NAMED-NEXT: module {
// NAMED-NOT: IR Dump

// ALL: IR Dump After Canonicalize (canonicalize)
// ALL-NEXT: func.func @changes
// ALL: IR Dump After CSE (cse)
// ALL-NEXT: func.func @changes
// ALL: IR Dump After Canonicalize (canonicalize)
// ALL-NEXT: func.func @canonical
// ALL: IR Dump After CSE (cse)
// ALL-NEXT: func.func @canonical

// With module scope, the whole module is printed each time.
// SCOPE: IR Dump Before Canonicalize (canonicalize)
// SCOPE-NEXT: module {
// SCOPE-NEXT: func.func @changes

// Only passes that changed the IR print: canonicalize changes @changes, nothing else does.
// CHANGE: IR Dump After Canonicalize (canonicalize)
// CHANGE-NEXT: func.func @changes
// CHANGE-NOT: IR Dump

// FAILURE: error: test-pass-failure: failing on purpose
// FAILURE: // -----// IR Dump After TestPassFailure Failed (test-pass-failure) //----- //
// FAILURE-NEXT: func.func @changes

func.func @changes(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %x, %c0 : i32
  return %0 : i32
}
func.func @canonical(%x: i32) -> i32 {
  return %x : i32
}
