"builtin.module"() ({
  "func.func"() <{function_type = (i1, i32) -> i32, sym_name = "blocks"}> ({
  ^bb0(%arg2: i1, %arg3: i32):
    "cf.cond_br"(%arg2, %arg3) [^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i1, i32) -> ()
  ^bb1(%0: i32):
    "cf.br"() [^bb2] : () -> ()
  ^bb2:
    "func.return"(%arg3) : (i32) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i32, i32) -> i32, sym_name = "switch"}> ({
  ^bb0(%arg0: i32, %arg1: i32):
    "cf.switch"(%arg0, %arg1) [^bb1, ^bb2] <{case_operand_segments = array<i32: 0>, case_values = dense<42> : vector<1xi32>, operandSegmentSizes = array<i32: 1, 1, 0>}> : (i32, i32) -> ()
  ^bb1(%0: i32):
    "func.return"(%0) : (i32) -> ()
  ^bb2:
    %1 = "arith.constant"() <{value = true}> : () -> i1
    "cf.assert"(%1) <{msg = "must be true"}> : (i1) -> ()
    "func.return"(%arg1) : (i32) -> ()
  }) : () -> ()
}) : () -> ()

