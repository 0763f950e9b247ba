// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-vectorize{vector-bits=256 accumulators=1},canonicalize))' | filecheck %s
// RUN: mlc-opt %s -split-input-file -p 'builtin.module(func.func(affine-vectorize{vector-bits=256 accumulators=1 int-minmax=false},canonicalize))' | filecheck %s --check-prefix=OFF
// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-vectorize{vector-bits=256}))' --dump-knobs=%t.json -o /dev/null
// RUN: filecheck %s --check-prefix=DUMP --input-file=%t.json

// Knob `int_minmax` (default true) at loops with an f32 maximumf/minimumf reduction: the
// elements' bits as i32 go into three integer accumulators (3 vector ops, where LLVM's vector
// maximum is 7 on AVX2), from which the result is exact: NaN if the signed maximum is above
// +inf's bits (a positive NaN) or the unsigned maximum above -inf's (a negative NaN); else for
// maximumf the signed maximum when it is >= 0 (a non-negative element), otherwise the
// unsigned minimum (the negative of least magnitude, -0 first); for minimumf the unsigned
// maximum when it is negative (a negative element), otherwise the signed minimum. The
// initial value is folded in by the scalar op.
// DUMP: "key": "@max_iter/affine.for:{{.+}}/0/int_minmax",
// DUMP: "knob": "int_minmax",
// DUMP: "default": true
// DUMP: "key": "@min_iter/affine.for:{{.+}}/0/int_minmax",
// DUMP-NOT: /int_minmax"

// CHECK-LABEL: func.func @max_iter(
// CHECK-SAME: %[[X:.+]]: memref<1000xf32>, %[[Z:.+]]: f32
// CHECK-DAG: %[[SMIN:.+]] = arith.constant dense<-2147483648> : vector<8xi32>
// CHECK-DAG: %[[NINF:.+]] = arith.constant dense<-8388608> : vector<8xi32>
// CHECK-DAG: %[[ZERO:.+]] = arith.constant dense<0> : vector<8xi32>
// CHECK: %[[P:.+]]:3 = affine.for %{{.+}} = 0 to 1000 step 8 iter_args(%[[S:.+]] = %[[SMIN]], %[[U:.+]] = %[[NINF]], %[[V:.+]] = %[[ZERO]])
// CHECK-NEXT: %[[L:.+]] = affine.vector_load %[[X]]
// CHECK-NEXT: %[[B:.+]] = arith.bitcast %[[L]] : vector<8xf32> to vector<8xi32>
// CHECK-NEXT: %[[S2:.+]] = arith.maxsi %[[S]], %[[B]] : vector<8xi32>
// CHECK-NEXT: %[[U2:.+]] = arith.minui %[[U]], %[[B]] : vector<8xi32>
// CHECK-NEXT: %[[V2:.+]] = arith.maxui %[[V]], %[[B]] : vector<8xi32>
// CHECK-NEXT: affine.yield %[[S2]], %[[U2]], %[[V2]]
// CHECK: %[[RS:.+]] = vector.reduction <maxsi>, %[[P]]#0 : vector<8xi32> into i32
// CHECK-NEXT: %[[RU:.+]] = vector.reduction <minui>, %[[P]]#1 : vector<8xi32> into i32
// CHECK-NEXT: %[[RV:.+]] = vector.reduction <maxui>, %[[P]]#2 : vector<8xi32> into i32
// CHECK-NEXT: %[[N1:.+]] = arith.cmpi ugt, %[[RV]], %{{.+}} : i32
// CHECK-NEXT: %[[N2:.+]] = arith.cmpi sgt, %[[RS]], %{{.+}} : i32
// CHECK-NEXT: %[[NAN:.+]] = arith.ori %[[N1]], %[[N2]] : i1
// CHECK-NEXT: %[[NONNEG:.+]] = arith.cmpi sge, %[[RS]], %{{.+}} : i32
// CHECK-NEXT: %[[VAL:.+]] = arith.select %[[NONNEG]], %[[RS]], %[[RU]] : i32
// CHECK-NEXT: %[[BITS:.+]] = arith.select %[[NAN]], %{{.+}}, %[[VAL]] : i32
// CHECK-NEXT: %[[F:.+]] = arith.bitcast %[[BITS]] : i32 to f32
// CHECK-NEXT: %[[R:.+]] = arith.maximumf %[[Z]], %[[F]] : f32
// CHECK-NEXT: return %[[R]] : f32
// OFF-LABEL: func.func @max_iter(
// OFF: arith.maximumf %{{.+}}, %{{.+}} : vector<8xf32>
// OFF: vector.reduction <maximumf>
func.func @max_iter(%x: memref<1000xf32>, %z: f32) -> f32 {
  %r = affine.for %i = 0 to 1000 iter_args(%acc = %z) -> (f32) {
    %0 = affine.load %x[%i] : memref<1000xf32>
    %1 = arith.maximumf %acc, %0 : f32
    affine.yield %1 : f32
  }
  return %r : f32
}

// -----

// minimumf, with a scalar epilogue (1003 = 125 x 8 + 3) that continues from the result.
// CHECK-LABEL: func.func @min_iter(
// CHECK-DAG: %[[PINF:.+]] = arith.constant dense<2139095040> : vector<8xi32>
// CHECK: %[[P:.+]]:3 = affine.for %{{.+}} = 0 to 1000 step 8 iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %[[PINF]], %{{.+}} = %{{.+}})
// CHECK: arith.maxui
// CHECK-NEXT: arith.minsi
// CHECK-NEXT: arith.maxsi
// CHECK: %[[RV:.+]] = vector.reduction <maxui>, %[[P]]#0 : vector<8xi32> into i32
// CHECK-NEXT: %[[RS:.+]] = vector.reduction <minsi>, %[[P]]#1 : vector<8xi32> into i32
// CHECK-NEXT: vector.reduction <maxsi>, %[[P]]#2 : vector<8xi32> into i32
// CHECK: %[[NEG:.+]] = arith.cmpi slt, %[[RV]], %{{.+}} : i32
// CHECK-NEXT: arith.select %[[NEG]], %[[RV]], %[[RS]] : i32
// CHECK: %[[R:.+]] = arith.minimumf %{{.+}}, %{{.+}} : f32
// CHECK-NEXT: affine.for %{{.+}} = 1000 to 1003 iter_args(%{{.+}} = %[[R]]) -> (f32) {
// CHECK: arith.minimumf %{{.+}}, %{{.+}} : f32
func.func @min_iter(%x: memref<1003xf32>, %z: f32) -> f32 {
  %r = affine.for %i = 0 to 1003 iter_args(%acc = %z) -> (f32) {
    %0 = affine.load %x[%i] : memref<1003xf32>
    %1 = arith.minimumf %0, %acc : f32
    affine.yield %1 : f32
  }
  return %r : f32
}

// -----

// f64 keeps the float form (AVX2 has no 64-bit integer min/max), as do maxnumf reductions.
// CHECK-LABEL: func.func @max_f64(
// CHECK: arith.maximumf %{{.+}}, %{{.+}} : vector<4xf64>
// CHECK: vector.reduction <maximumf>
// CHECK-LABEL: func.func @maxnum_f32(
// CHECK: arith.maxnumf %{{.+}}, %{{.+}} : vector<8xf32>
// CHECK: vector.reduction <maxnumf>
func.func @max_f64(%x: memref<1000xf64>, %z: f64) -> f64 {
  %r = affine.for %i = 0 to 1000 iter_args(%acc = %z) -> (f64) {
    %0 = affine.load %x[%i] : memref<1000xf64>
    %1 = arith.maximumf %acc, %0 : f64
    affine.yield %1 : f64
  }
  return %r : f64
}

func.func @maxnum_f32(%x: memref<1000xf32>, %z: f32) -> f32 {
  %r = affine.for %i = 0 to 1000 iter_args(%acc = %z) -> (f32) {
    %0 = affine.load %x[%i] : memref<1000xf32>
    %1 = arith.maxnumf %acc, %0 : f32
    affine.yield %1 : f32
  }
  return %r : f32
}
