module {
  func.func @unary(%arg0: f32, %arg1: vector<4xf32>, %arg2: tensor<?xf64>) {
    %0 = math.exp %arg0 : f32
    %1 = math.log %arg0 : f32
    %2 = math.tanh %arg0 : f32
    %3 = math.sqrt %arg0 : f32
    %4 = math.rsqrt %arg0 : f32
    %5 = math.absf %arg0 : f32
    %6 = math.erf %arg0 : f32
    %7 = math.exp2 %arg0 : f32
    %8 = math.log2 %arg0 : f32
    %9 = math.cos %arg0 : f32
    %10 = math.sin %arg0 : f32
    %11 = math.floor %arg0 : f32
    %12 = math.ceil %arg0 : f32
    %13 = math.log10 %arg0 : f32
    %14 = math.log1p %arg0 : f32
    %15 = math.expm1 %arg0 : f32
    %16 = math.tan %arg0 : f32
    %17 = math.atan %arg0 : f32
    %18 = math.round %arg0 : f32
    %19 = math.roundeven %arg0 : f32
    %20 = math.trunc %arg0 : f32
    %21 = math.cbrt %arg0 : f32
    %22 = math.exp %arg1 : vector<4xf32>
    %23 = math.tanh %arg2 : tensor<?xf64>
    %24 = math.exp %arg0 fastmath<fast> : f32
    %25 = math.sqrt %arg0 fastmath<afn> : f32
    %26 = math.erfc %arg0 : f32
    return
  }
  func.func @binary_ternary(%arg0: f32, %arg1: f32, %arg2: f32, %arg3: i32, %arg4: i32) {
    %0 = math.powf %arg0, %arg1 : f32
    %1 = math.fma %arg0, %arg1, %arg2 : f32
    %2 = math.atan2 %arg0, %arg1 : f32
    %3 = math.copysign %arg0, %arg1 : f32
    %4 = math.fpowi %arg0, %arg3 : f32, i32
    %5 = math.ipowi %arg3, %arg4 : i32
    %6 = math.powf %arg0, %arg1 fastmath<nnan,ninf> : f32
    %7 = math.fma %arg0, %arg1, %arg2 fastmath<contract> : f32
    return
  }
  func.func @integer(%arg0: i32) {
    %0 = math.absi %arg0 : i32
    %1 = math.ctlz %arg0 : i32
    %2 = math.cttz %arg0 : i32
    %3 = math.ctpop %arg0 : i32
    return
  }
  func.func @classify(%arg0: f32) -> i1 {
    %0 = math.isnan %arg0 : f32
    %1 = math.isinf %arg0 : f32
    %2 = math.isfinite %arg0 : f32
    %3 = math.isnormal %arg0 : f32
    return %0 : i1
  }
}

