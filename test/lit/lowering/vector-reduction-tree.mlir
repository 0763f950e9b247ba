// RUN: mlc-opt %s -split-input-file -p 'builtin.module(convert-to-llvm,reconcile-unrealized-casts)' | filecheck %s

// vector.reduction combines by halving (log2(n) steps) when the order may change: integer and
// min/max kinds, float add/mul with `reassoc`; a float add without it stays a chain in lane
// order (LLVM's ordered reduction).

// CHECK-LABEL: llvm.func @max_tree
// CHECK-SAME: (%[[V:.+]]: vector<8xf32>, %[[ACC:.+]]: f32)
// CHECK: %[[LO:.+]] = llvm.shufflevector %[[V]], %[[V]] [0, 1, 2, 3] : vector<8xf32>
// CHECK: %[[HI:.+]] = llvm.shufflevector %[[V]], %[[V]] [4, 5, 6, 7] : vector<8xf32>
// CHECK: llvm.fcmp "ogt" %[[LO]], %[[HI]] : vector<4xf32>
// CHECK: llvm.shufflevector %{{.+}} [0, 1] : vector<4xf32>
// CHECK: llvm.shufflevector %{{.+}} [0] : vector<2xf32>
// CHECK: %[[E:.+]] = llvm.extractelement %{{.+}} : vector<1xf32>
// CHECK: llvm.fcmp "ogt" %[[ACC]], %[[E]] : f32
func.func @max_tree(%v: vector<8xf32>, %acc: f32) -> f32 {
  %r = vector.reduction <maximumf>, %v, %acc : vector<8xf32> into f32
  return %r : f32
}

// -----

// CHECK-LABEL: llvm.func @sum_reassoc
// CHECK: llvm.shufflevector %{{.+}} [0, 1] : vector<4xf32>
// CHECK: llvm.shufflevector %{{.+}} [2, 3] : vector<4xf32>
// CHECK: llvm.fadd %{{.+}}, %{{.+}} fastmath<reassoc> : vector<2xf32>
func.func @sum_reassoc(%v: vector<4xf32>) -> f32 {
  %r = vector.reduction <add>, %v fastmath<reassoc> : vector<4xf32> into f32
  return %r : f32
}

// -----

// CHECK-LABEL: llvm.func @sum_ordered
// CHECK-NOT: llvm.shufflevector
// CHECK: %[[E0:.+]] = llvm.extractelement %{{.+}}[%{{.+}} : i64] : vector<4xf32>
// CHECK: %[[E1:.+]] = llvm.extractelement
// CHECK: %[[S1:.+]] = llvm.fadd %[[E0]], %[[E1]] : f32
// CHECK: %[[E2:.+]] = llvm.extractelement
// CHECK: llvm.fadd %[[S1]], %[[E2]] : f32
func.func @sum_ordered(%v: vector<4xf32>) -> f32 {
  %r = vector.reduction <add>, %v : vector<4xf32> into f32
  return %r : f32
}

// -----

// CHECK-LABEL: llvm.func @ints
// CHECK: llvm.shufflevector %{{.+}} [0, 1] : vector<4xi32>
// CHECK: llvm.add %{{.+}}, %{{.+}} : vector<2xi32>
func.func @ints(%v: vector<4xi32>) -> i32 {
  %r = vector.reduction <add>, %v : vector<4xi32> into i32
  return %r : i32
}
