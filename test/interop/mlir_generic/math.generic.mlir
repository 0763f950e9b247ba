"builtin.module"() ({
  "func.func"() <{function_type = (f32, vector<4xf32>, tensor<?xf64>) -> (), sym_name = "unary"}> ({
  ^bb0(%arg7: f32, %arg8: vector<4xf32>, %arg9: tensor<?xf64>):
    %16 = "math.exp"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %17 = "math.log"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %18 = "math.tanh"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %19 = "math.sqrt"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %20 = "math.rsqrt"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %21 = "math.absf"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %22 = "math.erf"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %23 = "math.exp2"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %24 = "math.log2"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %25 = "math.cos"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %26 = "math.sin"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %27 = "math.floor"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %28 = "math.ceil"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %29 = "math.log10"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %30 = "math.log1p"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %31 = "math.expm1"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %32 = "math.tan"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %33 = "math.atan"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %34 = "math.round"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %35 = "math.roundeven"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %36 = "math.trunc"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %37 = "math.cbrt"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %38 = "math.exp"(%arg8) <{fastmath = #arith.fastmath<none>}> : (vector<4xf32>) -> vector<4xf32>
    %39 = "math.tanh"(%arg9) <{fastmath = #arith.fastmath<none>}> : (tensor<?xf64>) -> tensor<?xf64>
    %40 = "math.exp"(%arg7) <{fastmath = #arith.fastmath<fast>}> : (f32) -> f32
    %41 = "math.sqrt"(%arg7) <{fastmath = #arith.fastmath<afn>}> : (f32) -> f32
    %42 = "math.erfc"(%arg7) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (f32, f32, f32, i32, i32) -> (), sym_name = "binary_ternary"}> ({
  ^bb0(%arg2: f32, %arg3: f32, %arg4: f32, %arg5: i32, %arg6: i32):
    %8 = "math.powf"(%arg2, %arg3) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %9 = "math.fma"(%arg2, %arg3, %arg4) <{fastmath = #arith.fastmath<none>}> : (f32, f32, f32) -> f32
    %10 = "math.atan2"(%arg2, %arg3) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %11 = "math.copysign"(%arg2, %arg3) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %12 = "math.fpowi"(%arg2, %arg5) <{fastmath = #arith.fastmath<none>}> : (f32, i32) -> f32
    %13 = "math.ipowi"(%arg5, %arg6) : (i32, i32) -> i32
    %14 = "math.powf"(%arg2, %arg3) <{fastmath = #arith.fastmath<nnan,ninf>}> : (f32, f32) -> f32
    %15 = "math.fma"(%arg2, %arg3, %arg4) <{fastmath = #arith.fastmath<contract>}> : (f32, f32, f32) -> f32
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i32) -> (), sym_name = "integer"}> ({
  ^bb0(%arg1: i32):
    %4 = "math.absi"(%arg1) : (i32) -> i32
    %5 = "math.ctlz"(%arg1) : (i32) -> i32
    %6 = "math.cttz"(%arg1) : (i32) -> i32
    %7 = "math.ctpop"(%arg1) : (i32) -> i32
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

