// Multi-block function with the cf dialect (not an mlc dialect: its generic form shows
// operandSegmentSizes as a property; mlc parses it only with --allow-unregistered-dialect).
module {
  func.func @blocks(%c: i1, %x: i32) -> i32 {
    cf.cond_br %c, ^bb1(%x : i32), ^bb2
  ^bb1(%v: i32):
    cf.br ^bb2
  ^bb2:
    return %x : i32
  }
  func.func @switch(%flag: i32, %x: i32) -> i32 {
    cf.switch %flag : i32, [
      default: ^bb1(%x : i32),
      42: ^bb2
    ]
  ^bb1(%v: i32):
    return %v : i32
  ^bb2:
    %t = arith.constant true
    cf.assert %t, "must be true"
    return %x : i32
  }
}
