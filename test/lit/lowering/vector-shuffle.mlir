// RUN: mlc-opt %s -split-input-file -p 'builtin.module(convert-to-llvm,reconcile-unrealized-casts)' | filecheck %s

// vector.shuffle of two 1-D vectors of one type is one llvm.shufflevector; operands of two
// lengths go lane by lane (LLVM's shuffle takes one type), poison lanes left undefined.

// CHECK-LABEL: llvm.func @same_type
// CHECK: llvm.shufflevector %arg0, %arg1 [0, 4, 1, -1] : vector<4xf32>
func.func @same_type(%a: vector<4xf32>, %b: vector<4xf32>) -> vector<4xf32> {
  %0 = vector.shuffle %a, %b [0, 4, 1, -1] : vector<4xf32>, vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

// CHECK-LABEL: llvm.func @two_lengths
// CHECK-DAG: %[[C0:.+]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-DAG: %[[C1:.+]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-DAG: %[[C3:.+]] = llvm.mlir.constant(3 : i64) : i64
// CHECK: %[[U:.+]] = llvm.mlir.undef : vector<3xf32>
// CHECK: %[[E0:.+]] = llvm.extractelement %arg0[%[[C3]] : i64] : vector<4xf32>
// CHECK: %[[I0:.+]] = llvm.insertelement %[[E0]], %[[U]][%[[C0]] : i64] : vector<3xf32>
// CHECK: %[[E1:.+]] = llvm.extractelement %arg1[%[[C1]] : i64] : vector<2xf32>
// CHECK: %[[I1:.+]] = llvm.insertelement %[[E1]], %[[I0]][%[[C1]] : i64] : vector<3xf32>
// CHECK-NOT: llvm.insertelement
// CHECK: llvm.return %[[I1]]
func.func @two_lengths(%a: vector<4xf32>, %b: vector<2xf32>) -> vector<3xf32> {
  %0 = vector.shuffle %a, %b [3, 5, -1] : vector<4xf32>, vector<2xf32>
  return %0 : vector<3xf32>
}
