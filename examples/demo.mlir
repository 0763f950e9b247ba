// A small scalar kernel: y = exp(p(x)) for p(x) = 0.5 x^3 - 2 x^2 + 3 x + 1 (Horner form),
// then clamped to `limit` with a compare and a select.
func.func @poly_exp(%x: f32, %limit: f32) -> f32 {
  %a3 = arith.constant 0.5 : f32
  %a2 = arith.constant -2.0 : f32
  %a1 = arith.constant 3.0 : f32
  %a0 = arith.constant 1.0 : f32
  %0 = arith.mulf %a3, %x : f32
  %1 = arith.addf %0, %a2 : f32
  %2 = arith.mulf %1, %x : f32
  %3 = arith.addf %2, %a1 : f32
  %4 = arith.mulf %3, %x : f32
  %p = arith.addf %4, %a0 : f32
  %e = math.exp %p : f32
  %big = arith.cmpf ogt, %e, %limit : f32
  %y = arith.select %big, %limit, %e : f32
  return %y : f32
}
