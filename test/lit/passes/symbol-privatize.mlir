// RUN: mlc-opt %s -split-input-file -p 'builtin.module(symbol-privatize)' | filecheck %s
// RUN: mlc-opt %s -split-input-file -p 'builtin.module(symbol-privatize{exclude=a,c})' | filecheck %s --check-prefix=EXCLUDE

// CHECK-LABEL: module
// CHECK-DAG: func.func private @a
// CHECK-DAG: func.func private @b
// CHECK-DAG: func.func private @c
// EXCLUDE-LABEL: module
// EXCLUDE-DAG: func.func @a
// EXCLUDE-DAG: func.func private @b
// EXCLUDE-DAG: func.func private @c
func.func @a() {
  return
}
func.func @b() {
  return
}
func.func private @c() {
  return
}

// -----

// Only the top level: symbols of nested symbol tables keep their visibility.
// CHECK-LABEL: module
// CHECK: module @m {{.*}}sym_visibility = "private"
// CHECK: func.func @nested
module {
  module @m {
    func.func @nested() {
      return
    }
  }
}
