module {
  func.func @locs(%arg0: f32, %arg1: f32) -> f32 {
    %0 = arith.addf %arg0, %arg1 : f32
    %1 = arith.mulf %0, %0 : f32
    %2 = arith.subf %1, %0 : f32
    %3 = arith.divf %2, %1 : f32
    %4 = arith.negf %3 : f32
    %5 = arith.addf %4, %4 : f32
    %6 = arith.addf %5, %5 : f32
    %7 = arith.addf %6, %6 : f32
    %8 = arith.addf %7, %7 : f32
    %9 = arith.addf %8, %8 : f32
    %10 = arith.addf %9, %9 : f32
    %11 = arith.addf %10, %10 : f32
    %12 = arith.addf %11, %11 : f32
    "test.unregistered"(%12) : (f32) -> ()
    return %12 : f32
  }
}

