// RUN: mlc-opt %s -split-input-file -verify-diagnostics

func.func @constant_type_mismatch() {
  // expected-error@+1 {{'arith.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "arith.constant"() <{value = 1 : i64}> : () -> i32
  return
}

// -----

func.func @constant_shape_mismatch() {
  // expected-error@+1 {{failed to verify that all of {value, result} have same type}}
  %0 = "arith.constant"() <{value = dense<1> : tensor<2xi32>}> : () -> tensor<3xi32>
  return
}

// -----

func.func @constant_unsigned() {
  // expected-error@+1 {{'arith.constant' op integer return type must be signless}}
  %0 = "arith.constant"() <{value = 1 : ui32}> : () -> ui32
  return
}

// -----

func.func @constant_not_a_number() {
  // expected-error@+1 {{'arith.constant' op value must be an integer, float, or elements attribute}}
  %0 = "arith.constant"() <{value = "text" : i32}> : () -> i32
  return
}

// -----

func.func @constant_scalable_vector() {
  // expected-error@+1 {{'arith.constant' op initializing scalable vectors with elements attribute is not supported unless it's a vector splat}}
  %0 = "arith.constant"() <{value = dense<[1, 2]> : vector<[2]xi32>}> : () -> vector<[2]xi32>
  return
}

// -----

func.func @constant_missing_value() {
  // expected-error@+1 {{'arith.constant' op requires attribute 'value'}}
  %0 = "arith.constant"() : () -> i32
  return
}

// -----

func.func @addi_float(%x: f32) {
  // expected-error@+1 {{'arith.addi' op operand #0 must be signless-integer-like}}
  %0 = arith.addi %x, %x : f32
  return
}

// -----

func.func @addi_signed(%x: si32) {
  // expected-error@+1 {{'arith.addi' op operand #0 must be signless-integer-like}}
  %0 = "arith.addi"(%x, %x) : (si32, si32) -> si32
  return
}

// -----

func.func @addi_mixed_types(%a: i32, %b: i64) {
  // expected-error@+1 {{'arith.addi' op requires the same type for all operands and results}}
  %0 = "arith.addi"(%a, %b) : (i32, i64) -> i32
  return
}

// -----

func.func @addi_bad_flags(%a: i32) {
  // expected-error@+1 {{'arith.addi' op attribute 'overflowFlags' failed to satisfy constraint: Integer overflow arith flags}}
  %0 = "arith.addi"(%a, %a) <{overflowFlags = 1 : i32}> : (i32, i32) -> i32
  return
}

// -----

func.func @addf_integer(%a: i32) {
  // expected-error@+1 {{'arith.addf' op operand #0 must be floating-point-like}}
  %0 = arith.addf %a, %a : i32
  return
}

// -----

func.func @addf_bad_fastmath(%a: f32) {
  // expected-error@+1 {{'arith.addf' op attribute 'fastmath' failed to satisfy constraint: Floating point fast math flags}}
  %0 = "arith.addf"(%a, %a) <{fastmath = #arith.overflow<nsw>}> : (f32, f32) -> f32
  return
}

// -----

func.func @fastmath_keyword(%a: f32) {
  // expected-error@+1 {{expected ::mlir::arith::FastMathFlags to be one of: none, reassoc, nnan, ninf, nsz, arcp, contract, afn, fast}}
  %0 = arith.addf %a, %a fastmath<quick> : f32
  return
}

// -----

func.func @overflow_keyword(%a: i32) {
  // expected-error@+1 {{expected ::mlir::arith::IntegerOverflowFlags to be one of: none, nsw, nuw}}
  %0 = arith.addi %a, %a overflow<nsz> : i32
  return
}

// -----

func.func @negf_types(%a: f32) {
  // expected-error@+1 {{'arith.negf' op requires the same type for all operands and results}}
  %0 = "arith.negf"(%a) : (f32) -> f64
  return
}

// -----

func.func @addui_extended_overflow(%a: i32) {
  // expected-error@+1 {{'arith.addui_extended' op result #1 must be bool-like}}
  %0, %1 = "arith.addui_extended"(%a, %a) : (i32, i32) -> (i32, i32)
  return
}

// -----

func.func @addui_extended_shape(%a: vector<4xi32>) {
  // expected-error@+1 {{'arith.addui_extended' op requires the same shape for all operands and results}}
  %0, %1 = "arith.addui_extended"(%a, %a) : (vector<4xi32>, vector<4xi32>) -> (vector<4xi32>, i1)
  return
}

// -----

func.func @addui_extended_sum(%a: i32) {
  // expected-error@+1 {{'arith.addui_extended' op failed to verify that all of {lhs, rhs, sum} have same type}}
  %0, %1 = "arith.addui_extended"(%a, %a) : (i32, i32) -> (i64, i1)
  return
}

// -----

func.func @mulsi_extended_types(%a: i32) {
  // expected-error@+1 {{'arith.mulsi_extended' op failed to verify that all of {lhs, rhs, low, high} have same type}}
  %0, %1 = "arith.mulsi_extended"(%a, %a) : (i32, i32) -> (i32, i64)
  return
}

// -----

func.func @cmpi_predicate_range(%a: i32) {
  // expected-error@+1 {{'arith.cmpi' op attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}
  %0 = "arith.cmpi"(%a, %a) <{predicate = 10 : i64}> : (i32, i32) -> i1
  return
}

// -----

func.func @cmpi_predicate_type(%a: i32) {
  // expected-error@+1 {{'arith.cmpi' op attribute 'predicate' failed to satisfy constraint}}
  %0 = "arith.cmpi"(%a, %a) <{predicate = 1 : i32}> : (i32, i32) -> i1
  return
}

// -----

func.func @cmpi_missing_predicate(%a: i32) {
  // expected-error@+1 {{'arith.cmpi' op requires attribute 'predicate'}}
  %0 = "arith.cmpi"(%a, %a) : (i32, i32) -> i1
  return
}

// -----

func.func @cmpi_keyword(%a: i32) {
  // expected-error@+1 {{expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge]}}
  %0 = arith.cmpi lt, %a, %a : i32
  return
}

// -----

func.func @cmpi_result(%a: i32) {
  // expected-error@+1 {{'arith.cmpi' op result #0 must be bool-like}}
  %0 = "arith.cmpi"(%a, %a) <{predicate = 1 : i64}> : (i32, i32) -> i32
  return
}

// -----

func.func @cmpi_result_shape(%a: vector<4xi32>) {
  // expected-error@+1 {{'arith.cmpi' op failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "arith.cmpi"(%a, %a) <{predicate = 1 : i64}> : (vector<4xi32>, vector<4xi32>) -> i1
  return
}

// -----

func.func @cmpi_operand_types(%a: i32, %b: i64) {
  // expected-error@+1 {{'arith.cmpi' op requires all operands to have the same type}}
  %0 = "arith.cmpi"(%a, %b) <{predicate = 1 : i64}> : (i32, i64) -> i1
  return
}

// -----

func.func @cmpf_predicate_range(%a: f32) {
  // expected-error@+1 {{'arith.cmpf' op attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}}
  %0 = "arith.cmpf"(%a, %a) <{predicate = 16 : i64}> : (f32, f32) -> i1
  return
}

// -----

func.func @cmpf_keyword(%a: f32) {
  // expected-error@+1 {{expected string or keyword containing one of the following enum values for attribute 'predicate' [false, oeq, ogt, oge, olt, ole, one, ord, ueq, ugt, uge, ult, ule, une, uno, true]}}
  %0 = arith.cmpf slt, %a, %a : f32
  return
}

// -----

func.func @cmpf_result_shape(%a: tensor<2xf32>) {
  // expected-error@+1 {{'arith.cmpf' op failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "arith.cmpf"(%a, %a) <{predicate = 1 : i64}> : (tensor<2xf32>, tensor<2xf32>) -> tensor<3xi1>
  return
}

// -----

func.func @select_condition(%a: i32) {
  // expected-error@+1 {{'arith.select' op operand #0 must be bool-like}}
  %0 = "arith.select"(%a, %a, %a) : (i32, i32, i32) -> i32
  return
}

// -----

func.func @select_types(%c: i1, %a: i32) {
  // expected-error@+1 {{'arith.select' op failed to verify that all of {true_value, false_value, result} have same type}}
  %0 = "arith.select"(%c, %a, %a) : (i1, i32, i32) -> i64
  return
}

// -----

func.func @select_condition_shape(%c: vector<3xi1>, %a: vector<4xi32>) {
  // expected-error@+1 {{'arith.select' op failed to verify that condition is signless i1 or has matching shape}}
  %0 = arith.select %c, %a, %a : vector<3xi1>, vector<4xi32>
  return
}

// -----

func.func @select_vector_condition_scalar(%c: vector<4xi1>, %a: i32) {
  // expected-error@+1 {{'arith.select' op failed to verify that condition is signless i1 or has matching shape}}
  %0 = "arith.select"(%c, %a, %a) : (vector<4xi1>, i32, i32) -> i32
  return
}

// -----

func.func @select_operand_count(%c: i1, %a: i32) {
  // expected-error@+1 {{expected 3 operands}}
  %0 = arith.select %c, %a : i32
  return
}

// -----

func.func @extsi_narrower(%a: i32) {
  // expected-error@+1 {{'arith.extsi' op operand type 'i32' and result type 'i16' are cast incompatible}}
  %0 = arith.extsi %a : i32 to i16
  return
}

// -----

func.func @extui_same(%a: i32) {
  // expected-error@+1 {{'arith.extui' op operand type 'i32' and result type 'i32' are cast incompatible}}
  %0 = arith.extui %a : i32 to i32
  return
}

// -----

func.func @extsi_index(%a: index) {
  // expected-error@+1 {{'arith.extsi' op operand #0 must be signless-fixed-width-integer-like}}
  %0 = arith.extsi %a : index to i64
  return
}

// -----

func.func @trunci_wider(%a: i32) {
  // expected-error@+1 {{'arith.trunci' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = arith.trunci %a : i32 to i64
  return
}

// -----

func.func @extf_narrower(%a: f32) {
  // expected-error@+1 {{'arith.extf' op operand type 'f32' and result type 'f16' are cast incompatible}}
  %0 = arith.extf %a : f32 to f16
  return
}

// -----

func.func @extf_same_width(%a: f16) {
  // expected-error@+1 {{'arith.extf' op operand type 'f16' and result type 'bf16' are cast incompatible}}
  %0 = arith.extf %a : f16 to bf16
  return
}

// -----

func.func @truncf_wider(%a: f32) {
  // expected-error@+1 {{'arith.truncf' op operand type 'f32' and result type 'f64' are cast incompatible}}
  %0 = arith.truncf %a : f32 to f64
  return
}

// -----

func.func @truncf_rounding_mode(%a: f32) {
  // expected-error@+1 {{'arith.truncf' op attribute 'roundingmode' failed to satisfy constraint: allowed 32-bit signless integer cases: 0, 1, 2, 3, 4}}
  %0 = "arith.truncf"(%a) <{roundingmode = 7 : i32}> : (f32) -> f16
  return
}

// -----

func.func @sitofp_to_int(%a: i32) {
  // expected-error@+1 {{'arith.sitofp' op result #0 must be floating-point-like}}
  %0 = arith.sitofp %a : i32 to i64
  return
}

// -----

func.func @uitofp_from_float(%a: f32) {
  // expected-error@+1 {{'arith.uitofp' op operand #0 must be signless-fixed-width-integer-like}}
  %0 = arith.uitofp %a : f32 to f64
  return
}

// -----

func.func @uitofp_nneg(%a: i32) {
  // expected-error@+1 {{'arith.uitofp' op attribute 'nonNeg' failed to satisfy constraint: unit attribute}}
  %0 = "arith.uitofp"(%a) <{nonNeg = 1 : i64}> : (i32) -> f32
  return
}

// -----

func.func @fptosi_to_float(%a: f32) {
  // expected-error@+1 {{'arith.fptosi' op result #0 must be signless-fixed-width-integer-like}}
  %0 = arith.fptosi %a : f32 to f16
  return
}

// -----

func.func @fptoui_from_int(%a: i32) {
  // expected-error@+1 {{'arith.fptoui' op operand #0 must be floating-point-like}}
  %0 = arith.fptoui %a : i32 to i64
  return
}

// -----

func.func @index_cast_no_index(%a: i32) {
  // expected-error@+1 {{'arith.index_cast' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = arith.index_cast %a : i32 to i64
  return
}

// -----

func.func @index_castui_both_index(%a: index) {
  // expected-error@+1 {{'arith.index_castui' op operand type 'index' and result type 'index' are cast incompatible}}
  %0 = arith.index_castui %a : index to index
  return
}

// -----

func.func @bitcast_width(%a: f32) {
  // expected-error@+1 {{'arith.bitcast' op operand type 'f32' and result type 'i64' are cast incompatible}}
  %0 = arith.bitcast %a : f32 to i64
  return
}

// -----

func.func @bitcast_index(%a: index) {
  // expected-error@+1 {{'arith.bitcast' op operand #0 must be signless-integer-or-float-like}}
  %0 = arith.bitcast %a : index to i64
  return
}

// -----

func.func @cast_shape(%a: vector<4xi32>) {
  // expected-error@+1 {{'arith.extsi' op requires the same shape for all operands and results}}
  %0 = arith.extsi %a : vector<4xi32> to vector<5xi64>
  return
}

// -----

func.func @cast_scalar_to_vector(%a: i32) {
  // expected-error@+1 {{'arith.extsi' op requires the same shape for all operands and results}}
  %0 = arith.extsi %a : i32 to vector<1xi64>
  return
}
