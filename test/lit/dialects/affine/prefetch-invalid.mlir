// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @locality(%A: memref<8xf32>) {
  // expected-error@+1 {{locality hint has to be within 0 to 3}}
  affine.prefetch %A[0], read, locality<4>, data : memref<8xf32>
  return
}

// -----

func.func @rw(%A: memref<8xf32>) {
  // expected-error@+1 {{rw specifier has to be 'read' or 'write'}}
  affine.prefetch %A[0], load, locality<3>, data : memref<8xf32>
  return
}

// -----

func.func @rank(%A: memref<8x8xf32>, %i: index) {
  // expected-error@+1 {{affine map num results must equal memref rank}}
  affine.prefetch %A[%i], read, locality<3>, data : memref<8x8xf32>
  return
}

// -----

llvm.func @llvm_hint(%p: !llvm.ptr) {
  // expected-error@+1 {{'hint' must be an i32 within 0 to 3}}
  "llvm.intr.prefetch"(%p) <{cache = 1 : i32, hint = 5 : i32, rw = 0 : i32}> : (!llvm.ptr) -> ()
  llvm.return
}
