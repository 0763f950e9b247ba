// RUN: mlc-opt %s -p 'func.func(test-options{count=1})' 2>&1 | filecheck %s --check-prefix=IMPLICIT
// RUN: mlc-opt %s -p 'test-options{count=2}' 2>&1 | filecheck %s --check-prefix=BARE
// RUN: mlc-opt %s -p 'builtin.module(any(test-options{count=3}))' 2>&1 | filecheck %s --check-prefix=ANY
// RUN: mlc-opt %s -p 'builtin.module(simplify{max-iterations=3})' --mlir-pass-statistics 2>&1 | filecheck %s --check-prefix=NAMED
// RUN: mlc-opt %s -p 'test-options{sizes=4,8 label="two words" flag mode=slow}' 2>&1 | filecheck %s --check-prefix=OPTIONS

// `func.func(...)` on a module nests implicitly; a bare list runs on the top-level op; `any`
// runs on every op directly nested.
// IMPLICIT: remark: test-options: {count=1
// IMPLICIT-NEXT: func.func @f
// IMPLICIT: remark: test-options: {count=1
// IMPLICIT-NEXT: func.func @g
// BARE: nesting.mlir:0:0: remark: test-options: {count=2
// ANY-COUNT-2: remark: test-options: {count=3

// A named pipeline expands to its passes (with its option applied to them).
// NAMED: Canonicalize
// NAMED: CSE
// NAMED: Canonicalize

// Option values of each type.
// OPTIONS: remark: test-options: {count=0 flag=true label="two words" sizes=4,8 mode=slow}

func.func @f() {
  return
}
func.func @g() {
  return
}
