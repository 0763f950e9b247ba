// RUN: not mlc-opt %s -p 'builtin.module(cse,nope)' 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not mlc-opt %s -p 'builtin.module(func.func(cse)' 2>&1 | filecheck %s --check-prefix=UNCLOSED
// RUN: not mlc-opt %s -p 'builtin.module(cse))' 2>&1 | filecheck %s --check-prefix=EXTRA
// RUN: not mlc-opt %s -p 'builtin.module(canonicalize{max-iterations=ten})' 2>&1 | filecheck %s --check-prefix=BADVALUE
// RUN: not mlc-opt %s -p 'builtin.module(cse{aggressive=true})' 2>&1 | filecheck %s --check-prefix=BADOPTION
// RUN: not mlc-opt %s -p 'builtin.module(canonicalize{top-down=false' 2>&1 | filecheck %s --check-prefix=OPENBRACE
// RUN: not mlc-opt %s -p 'func.func(symbol-dce),builtin.module(cse)' 2>&1 | filecheck %s --check-prefix=ANCHOR

// UNKNOWN: <pass-pipeline>:1:20: error: 'nope' does not refer to a registered pass or pass pipeline
// UNKNOWN-NEXT: builtin.module(cse,nope)
// UNKNOWN-NEXT: {{^}}                   ^{{$}}

// UNCLOSED: <pass-pipeline>:1:15: error: expected ')' to close the 'builtin.module' pipeline opened here

// EXTRA: <pass-pipeline>:1:20: error: unbalanced ')' in pass pipeline

// BADVALUE: <pass-pipeline>:1:29: error: invalid value 'ten' for option 'max-iterations' of 'canonicalize': expected an integer

// BADOPTION: <pass-pipeline>:1:20: error: no option 'aggressive' for 'cse' (options: none)

// OPENBRACE: <pass-pipeline>:1:28: error: expected '}' to close the options opened here

// A pipeline anchored on another op than the input's top level is nested in it only when it
// is not a root: `builtin.module(...)` on a module is fine, `func.func(...)` nests.
// ANCHOR: error: symbol-dce expects a symbol table op, got 'func.func'

func.func @f() {
  return
}
