// RUN: mlc-opt %s -split-input-file -p 'builtin.module(symbol-dce)' | filecheck %s

// Private symbols reachable from public ones stay (transitively); the others go.
// CHECK-LABEL: module
// CHECK-DAG: func.func @public
// CHECK-DAG: func.func private @used
// CHECK-DAG: func.func private @transitive
// CHECK-NOT: @dead
func.func @public() {
  call @used() : () -> ()
  return
}
func.func private @used() {
  call @transitive() : () -> ()
  return
}
func.func private @transitive() {
  return
}
func.func private @dead() {
  call @dead_too() : () -> ()
  return
}
func.func private @dead_too() {
  return
}

// -----

// A dead cycle of private functions goes; a declaration used only by it too.
// CHECK-LABEL: module
// CHECK-NEXT: func.func @keep
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @keep() {
  return
}
func.func private @ping() {
  call @pong() : () -> ()
  return
}
func.func private @pong() {
  call @ping() : () -> ()
  call @ext() : () -> ()
  return
}
func.func private @ext()

// -----

// References from ops that are not symbols (a function value) keep a symbol alive; nested
// symbol tables are cleaned on their own.
// CHECK-LABEL: module
// CHECK: func.func private @by_value
// CHECK: module @inner
// CHECK-NEXT: func.func @inner_public
// CHECK-NOT: @inner_dead
module {
  func.func private @by_value() {
    return
  }
  func.func @taker() -> (() -> ()) {
    %f = func.constant @by_value : () -> ()
    return %f : () -> ()
  }
  module @inner {
    func.func @inner_public() {
      return
    }
    func.func private @inner_dead() {
      return
    }
  }
}


// -----

// A private nested symbol table that nothing references goes whole, public symbols and
// private ones used inside it included (as mlir-opt --symbol-dce does).
// CHECK-LABEL: func.func @main
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NOT: @gone
// CHECK-NOT: @inside
// CHECK-NOT: @helper
module {
  func.func @main() {
    return
  }
  "builtin.module"() <{sym_name = "gone", sym_visibility = "private"}> ({
    func.func @inside() {
      call @helper() : () -> ()
      return
    }
    func.func private @helper() {
      return
    }
  }) : () -> ()
}
