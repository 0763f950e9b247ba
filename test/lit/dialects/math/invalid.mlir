// RUN: mlc-opt %s -split-input-file -verify-diagnostics

func.func @exp_integer(%a: i32) {
  // expected-error@+1 {{'math.exp' op operand #0 must be floating-point-like}}
  %0 = math.exp %a : i32
  return
}

// -----

func.func @exp_types(%a: f32) {
  // expected-error@+1 {{'math.exp' op requires the same type for all operands and results}}
  %0 = "math.exp"(%a) : (f32) -> f64
  return
}

// -----

func.func @sqrt_fastmath(%a: f32) {
  // expected-error@+1 {{'math.sqrt' op attribute 'fastmath' failed to satisfy constraint: Floating point fast math flags}}
  %0 = "math.sqrt"(%a) <{fastmath = 1 : i32}> : (f32) -> f32
  return
}

// -----

func.func @powf_types(%a: f32, %b: f64) {
  // expected-error@+1 {{'math.powf' op requires the same type for all operands and results}}
  %0 = "math.powf"(%a, %b) : (f32, f64) -> f32
  return
}

// -----

func.func @fma_types(%a: f32, %b: f32) {
  // expected-error@+1 {{'math.fma' op requires the same type for all operands and results}}
  %0 = "math.fma"(%a, %b, %b) : (f32, f32, f32) -> f16
  return
}

// -----

func.func @fpowi_exponent(%a: f32) {
  // expected-error@+1 {{'math.fpowi' op operand #1 must be signless-integer-like}}
  %0 = math.fpowi %a, %a : f32, f32
  return
}

// -----

func.func @fpowi_result(%a: f32, %n: i32) {
  // expected-error@+1 {{'math.fpowi' op failed to verify that all of {lhs, result} have same type}}
  %0 = "math.fpowi"(%a, %n) : (f32, i32) -> f64
  return
}

// -----

func.func @fpowi_shape(%a: vector<2xf32>, %n: i32) {
  // expected-error@+1 {{'math.fpowi' op requires the same shape for all operands and results}}
  %0 = math.fpowi %a, %n : vector<2xf32>, i32
  return
}

// -----

func.func @ipowi_float(%a: f32) {
  // expected-error@+1 {{'math.ipowi' op operand #0 must be signless-integer-like}}
  %0 = math.ipowi %a, %a : f32
  return
}

// -----

func.func @ctlz_float(%a: f32) {
  // expected-error@+1 {{'math.ctlz' op operand #0 must be signless-integer-like}}
  %0 = math.ctlz %a : f32
  return
}

// -----

func.func @absi_types(%a: i32) {
  // expected-error@+1 {{'math.absi' op requires the same type for all operands and results}}
  %0 = "math.absi"(%a) : (i32) -> i64
  return
}

// -----

func.func @isnan_result(%a: f32) {
  // expected-error@+1 {{'math.isnan' op result #0 must be bool-like}}
  %0 = "math.isnan"(%a) : (f32) -> f32
  return
}

// -----

func.func @isinf_shape(%a: vector<4xf32>) {
  // expected-error@+1 {{'math.isinf' op failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "math.isinf"(%a) : (vector<4xf32>) -> vector<2xi1>
  return
}

// -----

func.func @fastmath_keyword(%a: f32) {
  // expected-error@+1 {{expected ::mlir::arith::FastMathFlags to be one of}}
  %0 = math.exp %a fastmath<fastest> : f32
  return
}
