"builtin.module"() ({
  "func.func"() <{function_type = (f32, f32) -> f32, sym_name = "locs"}> ({
  ^bb0(%arg0: f32, %arg1: f32):
    %0 = "arith.addf"(%arg0, %arg1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %1 = "arith.mulf"(%0, %0) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %2 = "arith.subf"(%1, %0) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %3 = "arith.divf"(%2, %1) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %4 = "arith.negf"(%3) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %5 = "arith.addf"(%4, %4) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %6 = "arith.addf"(%5, %5) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %7 = "arith.addf"(%6, %6) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %8 = "arith.addf"(%7, %7) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %9 = "arith.addf"(%8, %8) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %10 = "arith.addf"(%9, %9) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %11 = "arith.addf"(%10, %10) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %12 = "arith.addf"(%11, %11) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    "test.unregistered"(%12) : (f32) -> ()
    "func.return"(%12) : (f32) -> ()
  }) : () -> ()
}) : () -> ()

