// RUN: mlc-opt %s -o %t -p 'builtin.module(func.func(cse,canonicalize),symbol-dce)' --mlir-timing 2>&1 | filecheck %s --check-prefix=TIMING
// RUN: mlc-opt %s -o %t -p 'builtin.module(func.func(cse,canonicalize),symbol-dce)' --mlir-pass-statistics 2>&1 | filecheck %s --check-prefix=STATS

// TIMING: ... Execution time report ...
// TIMING: Total Execution Time: {{[0-9.]+}} seconds
// TIMING: ----Wall Time----  ----Name----
// TIMING-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  'func.func' Pipeline
// TIMING-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)    CSE
// TIMING-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)    Canonicalize
// TIMING-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  SymbolDCE
// TIMING-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  (A) Verifier
// TIMING-NEXT: {{[0-9.]+}} (100.0%)  Total

// STATS: ... Pass statistics report ...
// STATS: 'func.func' Pipeline
// STATS-NEXT: CSE
// STATS-NEXT: (S) 1 num-cse'd - Number of operations CSE'd
// STATS-NEXT: (S) 0 num-dce'd - Number of operations DCE'd
// STATS-NEXT: Canonicalize
// STATS-NEXT: (S) 0 num-rewrites - Number of patterns applied
// STATS-NEXT: (S) 1 num-folds - Number of ops folded
// STATS-NEXT: (S) 2 num-erased - Number of ops erased
// STATS-NEXT: SymbolDCE
// STATS-NEXT: (S) 1 num-dce'd - Number of symbols DCE'd

func.func @f(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %x, %c0 : i32
  %1 = arith.addi %x, %c0 : i32
  %2 = arith.muli %0, %1 : i32
  return %2 : i32
}
func.func private @unused() {
  return
}
