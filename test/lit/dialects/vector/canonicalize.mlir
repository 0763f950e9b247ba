// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(canonicalize))' | filecheck %s

// vector folders: broadcasts to the same type and extracts of broadcast scalars disappear,
// splats and broadcasts of constants become dense constants.

// CHECK-LABEL: func.func @broadcast_same_type
// CHECK-SAME: (%[[V:.+]]: vector<4xf32>)
func.func @broadcast_same_type(%v: vector<4xf32>) -> vector<4xf32> {
  // CHECK-NEXT: return %[[V]]
  %b = vector.broadcast %v : vector<4xf32> to vector<4xf32>
  return %b : vector<4xf32>
}

// -----

// CHECK-LABEL: func.func @extract_of_broadcast
// CHECK-SAME: (%[[X:.+]]: f32, %[[V:.+]]: vector<8xf32>)
func.func @extract_of_broadcast(%x: f32, %v: vector<8xf32>) -> (f32, f32, vector<8xf32>) {
  // CHECK-NEXT: return %[[X]], %[[X]], %[[V]]
  %b = vector.broadcast %x : f32 to vector<4x8xf32>
  %e = vector.extract %b[1, 2] : f32 from vector<4x8xf32>
  %s = vector.splat %x : vector<8xf32>
  %e2 = vector.extract %s[3] : f32 from vector<8xf32>
  %bv = vector.broadcast %v : vector<8xf32> to vector<4x8xf32>
  %e3 = vector.extract %bv[2] : vector<8xf32> from vector<4x8xf32>
  return %e, %e2, %e3 : f32, f32, vector<8xf32>
}

// -----

// CHECK-LABEL: func.func @extract_of_stretching_broadcast_kept
func.func @extract_of_stretching_broadcast_kept(%v: vector<1xf32>) -> vector<8xf32> {
  // CHECK: vector.broadcast
  // CHECK: vector.extract
  %b = vector.broadcast %v : vector<1xf32> to vector<4x8xf32>
  %e = vector.extract %b[1] : vector<8xf32> from vector<4x8xf32>
  return %e : vector<8xf32>
}

// -----

// CHECK-LABEL: func.func @constants
func.func @constants() -> (vector<4xf32>, vector<2x3xi32>, f32) {
  // CHECK-DAG: %[[A:.+]] = arith.constant dense<2.000000e+00> : vector<4xf32>
  // CHECK-DAG: %[[B:.+]] = arith.constant dense<7> : vector<2x3xi32>
  // CHECK-DAG: %[[C:.+]] = arith.constant 2.000000e+00 : f32
  // CHECK-NOT: vector.
  // CHECK: return %[[A]], %[[B]], %[[C]]
  %k = arith.constant 2.0 : f32
  %i = arith.constant 7 : i32
  %s = vector.splat %k : vector<4xf32>
  %b = vector.broadcast %i : i32 to vector<2x3xi32>
  %e = vector.extract %s[1] : f32 from vector<4xf32>
  return %s, %b, %e : vector<4xf32>, vector<2x3xi32>, f32
}

// -----

// CHECK-LABEL: func.func @dynamic_or_poison_extract_kept
func.func @dynamic_or_poison_extract_kept(%i: index) -> (f32, f32) {
  // CHECK-COUNT-2: vector.extract
  %c = arith.constant dense<1.0> : vector<4xf32>
  %e = vector.extract %c[%i] : f32 from vector<4xf32>
  %p = vector.extract %c[-1] : f32 from vector<4xf32>
  return %e, %p : f32, f32
}

// -----

// A shuffle picking its first operand unchanged is that operand; shuffles of constants fold.

// CHECK-LABEL: func.func @shuffle_identity
// CHECK-SAME: (%[[A:.+]]: vector<4xf32>, %{{.+}}: vector<4xf32>)
func.func @shuffle_identity(%a: vector<4xf32>, %b: vector<4xf32>) -> vector<4xf32> {
  // CHECK-NEXT: return %[[A]]
  %0 = vector.shuffle %a, %b [0, 1, 2, 3] : vector<4xf32>, vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

// CHECK-LABEL: func.func @shuffle_constants
func.func @shuffle_constants() -> (vector<3xf32>, vector<3x2xi32>, vector<2xf32>) {
  // CHECK-DAG: arith.constant dense<[4.000000e+00, 1.000000e+00, 5.000000e+00]> : vector<3xf32>
  // CHECK-DAG: arith.constant dense<{{\[}}[7, 7], [1, 2], [3, 4]]> : vector<3x2xi32>
  // CHECK-DAG: arith.constant dense<[2.000000e+00, 1.000000e+00]> : vector<2xf32>
  // CHECK-NOT: vector.shuffle
  %a = arith.constant dense<[1.0, 2.0, 3.0]> : vector<3xf32>
  %b = arith.constant dense<[4.0, 5.0]> : vector<2xf32>
  %0 = vector.shuffle %a, %b [3, 0, 4] : vector<3xf32>, vector<2xf32>
  %c = arith.constant dense<[[1, 2], [3, 4]]> : vector<2x2xi32>
  %d = arith.constant dense<7> : vector<1x2xi32>
  %1 = vector.shuffle %c, %d [2, 0, 1] : vector<2x2xi32>, vector<1x2xi32>
  %e = arith.constant dense<1.0> : vector<f32>
  %f = arith.constant dense<2.0> : vector<f32>
  %2 = vector.shuffle %e, %f [1, 0] : vector<f32>, vector<f32>
  return %0, %1, %2 : vector<3xf32>, vector<3x2xi32>, vector<2xf32>
}

// -----

// A poison lane is not folded.

// CHECK-LABEL: func.func @shuffle_poison_kept
func.func @shuffle_poison_kept() -> vector<2xf32> {
  // CHECK: vector.shuffle %{{.+}}, %{{.+}} [0, -1]
  %a = arith.constant dense<[1.0, 2.0]> : vector<2xf32>
  %0 = vector.shuffle %a, %a [0, -1] : vector<2xf32>, vector<2xf32>
  return %0 : vector<2xf32>
}
