// RUN: mlc-opt %s --split-input-file --verify-diagnostics

llvm.func @ldexp_shape(%v: vector<8xf32>, %k: i32) -> vector<8xf32> {
  // expected-error@+1 {{expected the exponent 'i32' to have the shape of 'vector<8xf32>'}}
  %0 = llvm.intr.ldexp(%v, %k) : (vector<8xf32>, i32) -> vector<8xf32>
  llvm.return %0 : vector<8xf32>
}

// -----

llvm.func @ldexp_float_exponent(%x: f32, %k: f32) -> f32 {
  // expected-error@+1 {{operand #1 must be signless integer or LLVM dialect-compatible vector of signless integer}}
  %0 = llvm.intr.ldexp(%x, %k) : (f32, f32) -> f32
  llvm.return %0 : f32
}
