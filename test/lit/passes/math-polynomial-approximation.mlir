// RUN: mlc-opt %s -p 'builtin.module(math-polynomial-approximation{ldexp=false})' --split-input-file | filecheck %s
// RUN: mlc-opt %s -p 'builtin.module(math-polynomial-approximation{ldexp=true})' --split-input-file | filecheck %s --check-prefix=LDEXP
// RUN: mlc-opt %s -p 'builtin.module(math-polynomial-approximation{ops=tanh})' --split-input-file | filecheck %s --check-prefix=ONLY-TANH

// exp: clamp, k = bits(fma(x, log2(e), 1.5 * 2^23)) - bits(1.5 * 2^23) (as a float: the fma's
// result - 1.5 * 2^23), Cody-Waite r, Horner
// with math.fma, 2^k as two exponent-field scalings from k + 254; a NaN input stays NaN
// through the arithmetic (no select).
// CHECK-LABEL: func.func @exp_f32(
// CHECK-SAME:      %[[X:.*]]: f32) -> f32
// CHECK:         %[[LO:.*]] = arith.constant -1.040000e+02 : f32
// CHECK:         arith.cmpf olt, %[[X]], %[[LO]] : f32
// CHECK:         arith.constant 8.880000e+01 : f32
// CHECK:         %[[SHIFTER:.*]] = arith.constant 0x4B400000 : f32
// CHECK:         %[[T:.*]] = math.fma %{{.*}}, %{{.*}}, %[[SHIFTER]] : f32
// CHECK:         %[[BITS:.*]] = arith.bitcast %[[T]] : f32 to i32
// CHECK:         %[[KF:.*]] = arith.subf %[[T]], %[[SHIFTER]] : f32
// CHECK:         math.fma %[[KF]], %{{.*}}, %{{.*}} : f32
// CHECK:         %[[CB:.*]] = arith.constant 1262485250 : i32
// CHECK:         %[[KB:.*]] = arith.subi %[[BITS]], %[[CB]] : i32
// CHECK:         %[[K1:.*]] = arith.shrsi %[[KB]], %{{.*}} : i32
// CHECK:         %[[K2:.*]] = arith.subi %[[KB]], %[[K1]] : i32
// CHECK:         arith.shli %[[K1]]
// CHECK:         arith.bitcast %{{.*}} : i32 to f32
// CHECK:         arith.shli %[[K2]]
// CHECK:         %[[S2:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK:         %[[R:.*]] = arith.mulf %{{.*}}, %[[S2]] : f32
// CHECK-NOT:     arith.fptosi
// CHECK-NOT:     arith.select
// CHECK:         return %[[R]] : f32
// CHECK-NOT:     math.exp
// With ldexp: the same k and polynomial, then one llvm.intr.ldexp.
// LDEXP-LABEL: func.func @exp_f32(
// LDEXP:         %[[T:.*]] = math.fma %{{.*}}, %{{.*}}, %{{.*}} : f32
// LDEXP:         %[[BITS:.*]] = arith.bitcast %[[T]] : f32 to i32
// LDEXP:         %[[KF:.*]] = arith.subf %[[T]], %{{.*}} : f32
// LDEXP:         math.fma %[[KF]], %{{.*}}, %{{.*}} : f32
// LDEXP-NOT:     arith.shli
// LDEXP:         %[[K:.*]] = arith.subi %[[BITS]], %{{.*}} : i32
// LDEXP:         %[[R:.*]] = llvm.intr.ldexp(%{{.*}}, %[[K]]) : (f32, i32) -> f32
// LDEXP-NEXT:    return %[[R]] : f32
// ONLY-TANH-LABEL: func.func @exp_f32(
// ONLY-TANH:         math.exp
func.func @exp_f32(%x: f32) -> f32 {
  %0 = math.exp %x : f32
  return %0 : f32
}

// -----

// Vectors: the same ops on vector<8xf32> and vector<8xi32>, splat constants; tanh's exp has
// no float -> int conversion and no NaN select (a NaN stays NaN through the arithmetic).
// CHECK-LABEL: func.func @tanh_vector(
// CHECK:         math.absf %{{.*}} : vector<8xf32>
// CHECK:         arith.constant dense<2.000000e+01> : vector<8xf32>
// CHECK-NOT:     arith.fptosi
// CHECK:         arith.shli %{{.*}} : vector<8xi32>
// CHECK-NOT:     arith.fptosi
// CHECK:         arith.divf %{{.*}} : vector<8xf32>
// CHECK:         arith.andi %{{.*}} : vector<8xi32>
// CHECK:         arith.ori %{{.*}} : vector<8xi32>
// CHECK-NOT:     arith.cmpf uno
// CHECK:         return
// CHECK-NOT:     math.tanh
// tanh's e^(2|x|) is scaled by ldexp too.
// LDEXP-LABEL: func.func @tanh_vector(
// LDEXP:         llvm.intr.ldexp(%{{.*}}, %{{.*}}) : (vector<8xf32>, vector<8xi32>) -> vector<8xf32>
// LDEXP:         arith.divf
// LDEXP:         return
// ONLY-TANH-LABEL: func.func @tanh_vector(
// ONLY-TANH-NOT:     math.tanh
func.func @tanh_vector(%x: vector<8xf32>) -> vector<8xf32> {
  %0 = math.tanh %x : vector<8xf32>
  return %0 : vector<8xf32>
}

// -----

// f16 computes in f32; f64 and tensors are left alone, as are functions without an
// approximation.
// CHECK-LABEL: func.func @types(
// CHECK:         %[[E:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:         arith.truncf %{{.*}} : f32 to f16
// CHECK:         math.log %{{.*}} : f64
// CHECK:         math.erf %{{.*}} : tensor<4xf32>
// CHECK:         math.sin %{{.*}} : f32
func.func @types(%h: f16, %d: f64, %t: tensor<4xf32>, %s: f32) -> (f16, f64, tensor<4xf32>, f32) {
  %0 = math.log1p %h : f16
  %1 = math.log %d : f64
  %2 = math.erf %t : tensor<4xf32>
  %3 = math.sin %s : f32
  return %0, %1, %2, %3 : f16, f64, tensor<4xf32>, f32
}

// -----

// exp marked `mlc.shifted_exp` (softmax's exp(x - max): the argument is <= 0 or NaN): one
// clamp (at -88, where k = -127 gives a zero exponent field, so the result is +0), the same
// reduction and polynomial, one scaling by the field (k + 127) << 23. The shifter carries the
// exponent bias (1.5 * 2^23 + 127, 0x4B40007F): the low 9 bits of the fused sum are k + 127, so
// the field is one shift of its bits, no subtraction.
// CHECK-LABEL: func.func @exp_shifted(
// CHECK-SAME:      %[[X:.*]]: vector<8xf32>)
// CHECK:         %[[LO:.*]] = arith.constant dense<-8.800000e+01> : vector<8xf32>
// CHECK:         arith.cmpf olt, %[[X]], %[[LO]] : vector<8xf32>
// CHECK-NOT:     8.880000e+01
// CHECK:         %[[SH:.*]] = arith.constant dense<0x4B40007F> : vector<8xf32>
// CHECK:         %[[SUM:.*]] = math.fma %{{.*}}, %{{.*}}, %[[SH]] : vector<8xf32>
// CHECK:         %[[BITS:.*]] = arith.bitcast %[[SUM]] : vector<8xf32> to vector<8xi32>
// CHECK:         arith.subf %[[SUM]], %[[SH]] : vector<8xf32>
// CHECK-NOT:     arith.subi
// CHECK:         %[[F:.*]] = arith.shli %[[BITS]], %{{.*}} : vector<8xi32>
// CHECK:         %[[S:.*]] = arith.bitcast %[[F]] : vector<8xi32> to vector<8xf32>
// CHECK:         %[[R:.*]] = arith.mulf %{{.*}}, %[[S]] : vector<8xf32>
// CHECK-NEXT:    return %[[R]]
// LDEXP-LABEL: func.func @exp_shifted(
// LDEXP:         arith.constant dense<-1.040000e+02> : vector<8xf32>
// LDEXP-NOT:     8.880000e+01
// LDEXP:         llvm.intr.ldexp
func.func @exp_shifted(%x: vector<8xf32>) -> vector<8xf32> {
  %0 = math.exp %x {mlc.shifted_exp} : vector<8xf32>
  return %0 : vector<8xf32>
}
