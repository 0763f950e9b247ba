// RUN: mlc-opt %s --verify-diagnostics -p 'builtin.module(func.func(symbol-dce))'

// expected-error@+1 {{symbol-dce expects a symbol table op, got 'func.func'}}
func.func @not_a_table() {
  return
}
