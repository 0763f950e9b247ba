"builtin.module"() ({
  "func.func"() <{function_type = (f32, vector<4xf32>, tensor<?xf64>) -> (), sym_name = "unary"}> ({
  ^bb0(%arg7: f32, %arg8: vector<4xf32>, %arg9: tensor<?xf64>):
    %0 = "math.exp"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %1 = "math.log"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %2 = "math.tanh"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %3 = "math.sqrt"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %4 = "math.rsqrt"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %5 = "math.absf"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %6 = "math.erf"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %7 = "math.exp2"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %8 = "math.log2"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %9 = "math.cos"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %10 = "math.sin"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %11 = "math.floor"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %12 = "math.ceil"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %13 = "math.log10"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %14 = "math.log1p"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %15 = "math.expm1"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %16 = "math.tan"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %17 = "math.atan"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %18 = "math.round"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %19 = "math.roundeven"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %20 = "math.trunc"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %21 = "math.cbrt"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %22 = "math.exp"(%arg8) <{fastmath = #arith.fastmath<none>}> : (vector<4xf32>) -> vector<4xf32>
    %23 = "math.tanh"(%arg9) <{fastmath = #arith.fastmath<none>}> : (tensor<?xf64>) -> tensor<?xf64>
    %24 = "math.exp"(%arg7) <{fastmath = #arith.fastmath<fast>}> : (f32) -> f32
    %25 = "math.sqrt"(%arg7) <{fastmath = #arith.fastmath<afn>}> : (f32) -> f32
    %26 = "math.erfc"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (f32, f32, f32, i32, i32) -> (), sym_name = "binary_ternary"}> ({
  ^bb0(%arg2: f32, %arg3: f32, %arg4: f32, %arg5: i32, %arg6: i32):
    %0 = "math.powf"(%arg2, %arg3) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %1 = "math.fma"(%arg2, %arg3, %arg4) <{fastmath = #arith.fastmath<none>}> : (f32, f32, f32) -> f32
    %2 = "math.atan2"(%arg2, %arg3) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %3 = "math.copysign"(%arg2, %arg3) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %4 = "math.fpowi"(%arg2, %arg5) <{fastmath = #arith.fastmath<none>}> : (f32, i32) -> f32
    %5 = "math.ipowi"(%arg5, %arg6) : (i32, i32) -> i32
    %6 = "math.powf"(%arg2, %arg3) <{fastmath = #arith.fastmath<nnan,ninf>}> : (f32, f32) -> f32
    %7 = "math.fma"(%arg2, %arg3, %arg4) <{fastmath = #arith.fastmath<contract>}> : (f32, f32, f32) -> f32
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i32) -> (), sym_name = "integer"}> ({
  ^bb0(%arg1: i32):
    %0 = "math.absi"(%arg1) : (i32) -> i32
    %1 = "math.ctlz"(%arg1) : (i32) -> i32
    %2 = "math.cttz"(%arg1) : (i32) -> i32
    %3 = "math.ctpop"(%arg1) : (i32) -> i32
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (f32) -> i1, sym_name = "classify"}> ({
  ^bb0(%arg0: f32):
    %0 = "math.isnan"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> i1
    %1 = "math.isinf"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> i1
    %2 = "math.isfinite"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> i1
    %3 = "math.isnormal"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> i1
    "func.return"(%0) : (i1) -> ()
  }) : () -> ()
}) : () -> ()

