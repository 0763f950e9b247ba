module {
  func.func @blocks(%arg0: i1, %arg1: i32) -> i32 {
    cf.cond_br %arg0, ^bb1(%arg1 : i32), ^bb2
  ^bb1(%0: i32):  // pred: ^bb0
    cf.br ^bb2
  ^bb2:  // 2 preds: ^bb0, ^bb1
    return %arg1 : i32
  }
  func.func @switch(%arg0: i32, %arg1: i32) -> i32 {
    cf.switch %arg0 : i32, [
      default: ^bb1(%arg1 : i32),
      42: ^bb2
    ]
  ^bb1(%0: i32):  // pred: ^bb0
    return %0 : i32
  ^bb2:  // pred: ^bb0
    %true = arith.constant true
    cf.assert %true, "must be true"
    return %arg1 : i32
  }
}

