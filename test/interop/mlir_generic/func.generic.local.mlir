"builtin.module"() ({
  "func.func"() <{function_type = (i32, f32) -> i32, sym_name = "external_decl", sym_visibility = "private"}> ({
  }) : () -> ()
  "func.func"() <{arg_attrs = [{llvm.noalias}, {llvm.signext}], function_type = (memref<?xf32>, i32) -> i32, res_attrs = [{llvm.zeroext}], sym_name = "external_named", sym_visibility = "private"}> ({
  }) : () -> ()
  "func.func"() <{function_type = () -> (), sym_name = "nested_vis", sym_visibility = "nested"}> ({
    "func.return"() : () -> ()
  }) {foo = "bar"} : () -> ()
  "func.func"() <{arg_attrs = [{llvm.noalias}, {llvm.noalias, llvm.readonly}], function_type = (memref<4xf32>, memref<4xf32>) -> (), sym_name = "public_vis", sym_visibility = "public"}> ({
  ^bb0(%arg8: memref<4xf32>, %arg9: memref<4xf32>):
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = () -> (), sym_name = "no_results"}> ({
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i32, f32) -> (i32, f32), sym_name = "multi_results"}> ({
  ^bb0(%arg6: i32, %arg7: f32):
    "func.return"(%arg6, %arg7) : (i32, f32) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i32) -> (i32, f32), res_attrs = [{test.res}, {test.other = 1 : i64}], sym_name = "result_attrs"}> ({
  ^bb0(%arg5: i32):
    %5 = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32
    "func.return"(%arg5, %5) : (i32, f32) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i32, f32) -> i32, sym_name = "calls"}> ({
  ^bb0(%arg3: i32, %arg4: f32):
    %3 = "func.call"(%arg3, %arg4) <{callee = @external_decl}> : (i32, f32) -> i32
    %4:2 = "func.call"(%3, %arg4) <{callee = @multi_results}> : (i32, f32) -> (i32, f32)
    "func.call"() <{callee = @no_results}> : () -> ()
    "func.return"(%4#0) : (i32) -> ()
  }) : () -> ()
  "func.func"() <{function_type = ((i32) -> i32, i32) -> i32, sym_name = "indirect"}> ({
  ^bb0(%arg1: (i32) -> i32, %arg2: i32):
    %0 = "func.constant"() <{value = @nested_callee}> : () -> ((i32) -> i32)
    %1 = "func.call_indirect"(%arg1, %arg2) : ((i32) -> i32, i32) -> i32
    %2 = "func.call_indirect"(%0, %1) : ((i32) -> i32, i32) -> i32
    "func.return"(%2) : (i32) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i32) -> i32, sym_name = "nested_callee", sym_visibility = "private"}> ({
  ^bb0(%arg0: i32):
    "func.return"(%arg0) : (i32) -> ()
  }) : () -> ()
}) : () -> ()
