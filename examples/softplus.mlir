// softplus(x) = log(1 + exp(x)), computed as max(x, 0) + log1p(exp(-|x|)) for stability,
// with a call between two functions and a private helper.
func.func private @stable_tail(%x: f32) -> f32 {
  %a = math.absf %x : f32
  %n = arith.negf %a : f32
  %e = math.exp %n : f32
  %l = math.log1p %e : f32
  return %l : f32
}

func.func @softplus(%x: f32) -> f32 {
  %zero = arith.constant 0.0 : f32
  %m = arith.maximumf %x, %zero : f32
  %t = func.call @stable_tail(%x) : (f32) -> f32
  %y = arith.addf %m, %t fastmath<contract> : f32
  return %y : f32
}
