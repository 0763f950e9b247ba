// RUN: mlc-opt %s | mlc-opt | filecheck %s
// RUN: mlc-opt %s --mlir-print-op-generic | mlc-opt | filecheck %s

// Every math op in its custom form; both the custom and the generic print read back the same.

// CHECK-LABEL: func.func @float_unary
// CHECK-SAME: (%[[X:.+]]: f32)
func.func @float_unary(%x: f32) {
  // CHECK: math.absf %[[X]] : f32
  %0 = math.absf %x : f32
  // CHECK: math.acos %[[X]] : f32
  %1 = math.acos %x : f32
  // CHECK: math.acosh %[[X]] : f32
  %2 = math.acosh %x : f32
  // CHECK: math.asin %[[X]] : f32
  %3 = math.asin %x : f32
  // CHECK: math.asinh %[[X]] : f32
  %4 = math.asinh %x : f32
  // CHECK: math.atan %[[X]] : f32
  %5 = math.atan %x : f32
  // CHECK: math.atanh %[[X]] : f32
  %6 = math.atanh %x : f32
  // CHECK: math.cbrt %[[X]] : f32
  %7 = math.cbrt %x : f32
  // CHECK: math.ceil %[[X]] : f32
  %8 = math.ceil %x : f32
  // CHECK: math.cos %[[X]] : f32
  %9 = math.cos %x : f32
  // CHECK: math.cosh %[[X]] : f32
  %10 = math.cosh %x : f32
  // CHECK: math.erf %[[X]] : f32
  %11 = math.erf %x : f32
  // CHECK: math.erfc %[[X]] : f32
  %12 = math.erfc %x : f32
  // CHECK: math.exp %[[X]] : f32
  %13 = math.exp %x : f32
  // CHECK: math.exp2 %[[X]] : f32
  %14 = math.exp2 %x : f32
  // CHECK: math.expm1 %[[X]] : f32
  %15 = math.expm1 %x : f32
  // CHECK: math.floor %[[X]] : f32
  %16 = math.floor %x : f32
  // CHECK: math.log %[[X]] : f32
  %17 = math.log %x : f32
  // CHECK: math.log10 %[[X]] : f32
  %18 = math.log10 %x : f32
  // CHECK: math.log1p %[[X]] : f32
  %19 = math.log1p %x : f32
  // CHECK: math.log2 %[[X]] : f32
  %20 = math.log2 %x : f32
  // CHECK: math.round %[[X]] : f32
  %21 = math.round %x : f32
  // CHECK: math.roundeven %[[X]] : f32
  %22 = math.roundeven %x : f32
  // CHECK: math.rsqrt %[[X]] : f32
  %23 = math.rsqrt %x : f32
  // CHECK: math.sin %[[X]] : f32
  %24 = math.sin %x : f32
  // CHECK: math.sinh %[[X]] : f32
  %25 = math.sinh %x : f32
  // CHECK: math.sqrt %[[X]] : f32
  %26 = math.sqrt %x : f32
  // CHECK: math.tan %[[X]] : f32
  %27 = math.tan %x : f32
  // CHECK: math.tanh %[[X]] : f32
  %28 = math.tanh %x : f32
  // CHECK: math.trunc %[[X]] : f32
  %29 = math.trunc %x : f32
  return
}

// CHECK-LABEL: func.func @shapes_and_fastmath
func.func @shapes_and_fastmath(%v: vector<4xf32>, %t: tensor<?x2xf64>, %h: f16, %b: bf16) {
  // CHECK: math.exp %{{.+}} : vector<4xf32>
  %0 = math.exp %v : vector<4xf32>
  // CHECK: math.tanh %{{.+}} : tensor<?x2xf64>
  %1 = math.tanh %t : tensor<?x2xf64>
  // CHECK: math.sqrt %{{.+}} fastmath<afn> : f16
  %2 = math.sqrt %h fastmath<afn> : f16
  // CHECK: math.exp %{{.+}} fastmath<fast> : bf16
  %3 = math.exp %b fastmath<fast> : bf16
  // CHECK: math.log %{{.+}} : f16
  %4 = math.log %h fastmath<none> : f16
  // CHECK: math.sin %{{.+}} {some.attr = 1 : i32} : f16
  %5 = math.sin %h {some.attr = 1 : i32} : f16
  return
}

// CHECK-LABEL: func.func @binary_ternary
// CHECK-SAME: (%[[X:.+]]: f32, %[[Y:.+]]: f32, %[[Z:.+]]: f32, %[[N:.+]]: i32, %[[M:.+]]: i32)
func.func @binary_ternary(%x: f32, %y: f32, %z: f32, %n: i32, %m: i32) {
  // CHECK: math.atan2 %[[X]], %[[Y]] : f32
  %0 = math.atan2 %x, %y : f32
  // CHECK: math.copysign %[[X]], %[[Y]] : f32
  %1 = math.copysign %x, %y : f32
  // CHECK: math.powf %[[X]], %[[Y]] : f32
  %2 = math.powf %x, %y : f32
  // CHECK: math.powf %[[X]], %[[Y]] fastmath<nnan,ninf> : f32
  %3 = math.powf %x, %y fastmath<nnan,ninf> : f32
  // CHECK: math.fpowi %[[X]], %[[N]] : f32, i32
  %4 = math.fpowi %x, %n : f32, i32
  // CHECK: math.fpowi %[[X]], %[[N]] fastmath<contract> : f32, i32
  %5 = math.fpowi %x, %n fastmath<contract> : f32, i32
  // CHECK: math.ipowi %[[N]], %[[M]] : i32
  %6 = math.ipowi %n, %m : i32
  // CHECK: math.fma %[[X]], %[[Y]], %[[Z]] : f32
  %7 = math.fma %x, %y, %z : f32
  // CHECK: math.fma %[[X]], %[[Y]], %[[Z]] fastmath<contract> : f32
  %8 = math.fma %x, %y, %z fastmath<contract> : f32
  return
}

// CHECK-LABEL: func.func @vector_powers
func.func @vector_powers(%x: vector<2xf64>, %n: vector<2xi64>) -> vector<2xf64> {
  // CHECK: %[[P:.+]] = math.fpowi %{{.+}}, %{{.+}} : vector<2xf64>, vector<2xi64>
  %0 = math.fpowi %x, %n : vector<2xf64>, vector<2xi64>
  // CHECK: return %[[P]] : vector<2xf64>
  return %0 : vector<2xf64>
}

// CHECK-LABEL: func.func @integer
// CHECK-SAME: (%[[I:.+]]: i32, %[[V:.+]]: vector<3xi8>)
func.func @integer(%i: i32, %v: vector<3xi8>) {
  // CHECK: math.absi %[[I]] : i32
  %0 = math.absi %i : i32
  // CHECK: math.ctlz %[[I]] : i32
  %1 = math.ctlz %i : i32
  // CHECK: math.cttz %[[I]] : i32
  %2 = math.cttz %i : i32
  // CHECK: math.ctpop %[[I]] : i32
  %3 = math.ctpop %i : i32
  // CHECK: math.ctpop %[[V]] : vector<3xi8>
  %4 = math.ctpop %v : vector<3xi8>
  return
}

// CHECK-LABEL: func.func @classify
// CHECK-SAME: (%[[X:.+]]: f32, %[[V:.+]]: vector<4xf16>)
func.func @classify(%x: f32, %v: vector<4xf16>) -> (i1, i1, i1, i1, vector<4xi1>) {
  // CHECK: %[[A:.+]] = math.isnan %[[X]] : f32
  %0 = math.isnan %x : f32
  // CHECK: %[[B:.+]] = math.isinf %[[X]] : f32
  %1 = math.isinf %x : f32
  // CHECK: %[[C:.+]] = math.isfinite %[[X]] : f32
  %2 = math.isfinite %x : f32
  // CHECK: %[[D:.+]] = math.isnormal %[[X]] fastmath<nnan> : f32
  %3 = math.isnormal %x fastmath<nnan> : f32
  // CHECK: %[[E:.+]] = math.isnan %[[V]] : vector<4xf16>
  %4 = math.isnan %v : vector<4xf16>
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]] : i1, i1, i1, i1, vector<4xi1>
  return %0, %1, %2, %3, %4 : i1, i1, i1, i1, vector<4xi1>
}
