// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(llvm-options{fast-math=fast})' | filecheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(llvm-options{fast-math=reassoc,contract})' | filecheck %s --check-prefix=IEEE

// With `fast` (ninf, nnan), infinite constants become the largest finite value of their type
// and sign; a NaN that only meets maxnum (through block arguments and lane moves) becomes
// -largest, one meeting minnum +largest.

// CHECK-LABEL: llvm.func @max_rows
// CHECK-DAG: llvm.mlir.constant(-3.40282347E+38 : f32) : f32
// CHECK-DAG: llvm.mlir.constant(dense<-3.40282347E+38> : vector<8xf32>) : vector<8xf32>
// CHECK-DAG: llvm.mlir.constant(dense<1.797{{[0-9]+}}E+308> : vector<2xf64>) : vector<2xf64>
// CHECK-DAG: llvm.mlir.constant(dense<[6.550400e+04, 1.000000e+00]> : vector<2xf16>) : vector<2xf16>
// CHECK-NOT: 0x7F
// CHECK-NOT: 0xFF
// CHECK: llvm.return %{{.*}} : f32
// IEEE-LABEL: llvm.func @max_rows
// IEEE-DAG: llvm.mlir.constant(0xFF800000 : f32) : f32
// IEEE-DAG: llvm.mlir.constant(dense<0x7FC00000> : vector<8xf32>) : vector<8xf32>
// IEEE-DAG: llvm.mlir.constant(dense<0x7FF8000000000000> : vector<2xf64>) : vector<2xf64>
// IEEE-DAG: llvm.mlir.constant(dense<[0x7C00, 1.000000e+00]> : vector<2xf16>) : vector<2xf16>
llvm.func @max_rows(%x: vector<8xf32>, %y: vector<2xf64>, %n: i64) -> f32 {
  %ninf = llvm.mlir.constant(0xFF800000 : f32) : f32
  %nan = llvm.mlir.constant(dense<0x7FC00000> : vector<8xf32>) : vector<8xf32>
  %nan2 = llvm.mlir.constant(dense<0x7FF8000000000000> : vector<2xf64>) : vector<2xf64>
  %h = llvm.mlir.constant(dense<[0x7C00, 1.0]> : vector<2xf16>) : vector<2xf16>
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^loop(%c0, %nan : i64, vector<8xf32>)
^loop(%i: i64, %acc: vector<8xf32>):
  %more = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %more, ^body, ^done(%acc : vector<8xf32>)
^body:
  %m = llvm.intr.maxnum(%x, %acc) : (vector<8xf32>, vector<8xf32>) -> vector<8xf32>
  %next = llvm.add %i, %c1 : i64
  llvm.br ^loop(%next, %m : i64, vector<8xf32>)
^done(%r: vector<8xf32>):
  %lo = llvm.shufflevector %r, %r [0, 1, 2, 3] : vector<8xf32>
  %hi = llvm.shufflevector %r, %r [4, 5, 6, 7] : vector<8xf32>
  %q = llvm.intr.maxnum(%lo, %hi) : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
  %e = llvm.extractelement %q[%c0 : i64] : vector<4xf32>
  %s = llvm.intr.maxnum(%ninf, %e) : (f32, f32) -> f32
  %d = llvm.intr.minnum(%y, %nan2) : (vector<2xf64>, vector<2xf64>) -> vector<2xf64>
  %hh = llvm.fadd %h, %h : vector<2xf16>
  llvm.return %s : f32
}

// -----

// A NaN that meets something other than maxnum / minnum is left alone (its result is
// undefined under nnan, whatever it is replaced with); so is one meeting both.

// CHECK-LABEL: llvm.func @other_nan
// CHECK: llvm.mlir.constant(0x7FC00000 : f32) : f32
// CHECK: llvm.mlir.constant(0x7FC00000 : f32) : f32
llvm.func @other_nan(%x: f32) -> f32 {
  %nan = llvm.mlir.constant(0x7FC00000 : f32) : f32
  %both = llvm.mlir.constant(0x7FC00000 : f32) : f32
  %a = llvm.fadd %x, %nan : f32
  %b = llvm.intr.maxnum(%a, %both) : (f32, f32) -> f32
  %c = llvm.intr.minnum(%b, %both) : (f32, f32) -> f32
  llvm.return %c : f32
}
