// RUN: %python -m mlc.tools.mlc_translate --mlir-to-llvmir %s --split-input-file --verify-diagnostics
// RUN: not %python -m mlc.tools.mlc_translate --mlir-to-llvmir %s --split-input-file 2>&1 | filecheck %s

// CHECK: error: not supported: 'func.func' in the translation to LLVM IR
// expected-error@+1 {{not supported: 'func.func' in the translation to LLVM IR}}
func.func @f() {
  return
}

// -----

llvm.func @g(%p: !llvm.ptr) -> f32 {
  // expected-error@+1 {{not supported: 'invariantGroup' on 'llvm.load' in the translation}}
  %v = llvm.load %p {invariantGroup} : !llvm.ptr -> f32
  llvm.return %v : f32
}

// -----

// expected-error@+1 {{not supported: argument attribute 'llvm.mystery'}}
llvm.func @h(%p: !llvm.ptr {llvm.mystery}) {
  llvm.return
}

// -----

llvm.func @two_edges(%c: i1, %a: i32, %b: i32) -> i32 {
  // expected-error@+1 {{not supported: two edges to one block with different block arguments}}
  llvm.cond_br %c, ^bb1(%a : i32), ^bb1(%b : i32)
^bb1(%x: i32):
  llvm.return %x : i32
}
