// RUN: not mlc-opt %s -p 'builtin.module(func.func(canonicalize,test-pass-crash))' --mlir-pass-pipeline-crash-reproducer=%t 2>&1 | filecheck %s --check-prefix=CRASH
// RUN: filecheck %s --check-prefix=REPRO --input-file=%t
// RUN: not mlc-opt %t 2>&1 | filecheck %s --check-prefix=AGAIN
// RUN: not mlc-opt %s -p 'builtin.module(test-pass-failure)' --mlir-pass-pipeline-crash-reproducer=%t.fail 2>&1 | filecheck %s --check-prefix=FAIL
// RUN: filecheck %s --check-prefix=FAILREPRO --input-file=%t.fail

// The error names the pass; a reproducer is written.
// CRASH: error: pass 'test-pass-crash' crashed: RuntimeError: test-pass-crash: crashing on purpose
// CRASH: note: pipeline crash reproducer written to

// It holds the pipeline of the failing pass (anchored as it ran) and the IR from before it:
// @f already canonicalized, as the earlier pass ran on it.
// REPRO: // configuration: -p 'builtin.module(func.func(test-pass-crash))'
// REPRO: func.func @f
// REPRO-NEXT: return %arg0 : i32

// Running mlc-opt on the reproducer alone fails the same way.
// AGAIN: error: pass 'test-pass-crash' crashed

// FAIL: error: test-pass-failure: failing on purpose
// FAILREPRO: // configuration: -p 'builtin.module(test-pass-failure)'
// FAILREPRO: arith.addi

func.func @f(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %x, %c0 : i32
  return %0 : i32
}
