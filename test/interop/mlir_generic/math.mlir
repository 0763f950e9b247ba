// math dialect ops in custom form.
module {
  func.func @unary(%x: f32, %v: vector<4xf32>, %t: tensor<?xf64>) {
    %0 = math.exp %x : f32
    %1 = math.log %x : f32
    %2 = math.tanh %x : f32
    %3 = math.sqrt %x : f32
    %4 = math.rsqrt %x : f32
    %5 = math.absf %x : f32
    %6 = math.erf %x : f32
    %7 = math.exp2 %x : f32
    %8 = math.log2 %x : f32
    %9 = math.cos %x : f32
    %10 = math.sin %x : f32
    %11 = math.floor %x : f32
    %12 = math.ceil %x : f32
    %13 = math.log10 %x : f32
    %14 = math.log1p %x : f32
    %15 = math.expm1 %x : f32
    %16 = math.tan %x : f32
    %17 = math.atan %x : f32
    %18 = math.round %x : f32
    %19 = math.roundeven %x : f32
    %20 = math.trunc %x : f32
    %21 = math.cbrt %x : f32
    %22 = math.exp %v : vector<4xf32>
    %23 = math.tanh %t : tensor<?xf64>
    %24 = math.exp %x fastmath<fast> : f32
    %25 = math.sqrt %x fastmath<afn> : f32
    %26 = math.erfc %x : f32
    return
  }

  func.func @binary_ternary(%x: f32, %y: f32, %z: f32, %i: i32, %n: i32) {
    %0 = math.powf %x, %y : f32
    %1 = math.fma %x, %y, %z : f32
    %2 = math.atan2 %x, %y : f32
    %3 = math.copysign %x, %y : f32
    %4 = math.fpowi %x, %i : f32, i32
    %5 = math.ipowi %i, %n : i32
    %6 = math.powf %x, %y fastmath<nnan,ninf> : f32
    %7 = math.fma %x, %y, %z fastmath<contract> : f32
    return
  }

  func.func @integer(%i: i32) {
    %0 = math.absi %i : i32
    %1 = math.ctlz %i : i32
    %2 = math.cttz %i : i32
    %3 = math.ctpop %i : i32
    return
  }

  func.func @classify(%x: f32) -> i1 {
    %0 = math.isnan %x : f32
    %1 = math.isinf %x : f32
    %2 = math.isfinite %x : f32
    %3 = math.isnormal %x : f32
    return %0 : i1
  }
}
