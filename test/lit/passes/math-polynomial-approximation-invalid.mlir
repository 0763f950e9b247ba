// RUN: not mlc-opt %s -p 'builtin.module(math-polynomial-approximation{ops=exp,sin})' 2>&1 | filecheck %s

// CHECK: error: math-polynomial-approximation: not supported: ops sin (supported: exp, exp2, expm1, log, log2, log10, log1p, tanh, erf)
func.func @f(%x: f32) -> f32 {
  %0 = math.sin %x : f32
  return %0 : f32
}
