module {
  func.func private @external_decl(i32, f32) -> i32
  func.func private @external_named(memref<?xf32> {llvm.noalias}, i32 {llvm.signext}) -> (i32 {llvm.zeroext})
  func.func nested @nested_vis() attributes {foo = "bar"} {
    return
  }
  func.func public @public_vis(%arg0: memref<4xf32> {llvm.noalias}, %arg1: memref<4xf32> {llvm.noalias, llvm.readonly}) {
    return
  }
  func.func @no_results() {
    return
  }
  func.func @multi_results(%arg0: i32, %arg1: f32) -> (i32, f32) {
    return %arg0, %arg1 : i32, f32
  }
  func.func @result_attrs(%arg0: i32) -> (i32 {test.res}, f32 {test.other = 1 : i64}) {
    %cst = arith.constant 1.000000e+00 : f32
    return %arg0, %cst : i32, f32
  }
  func.func @calls(%arg0: i32, %arg1: f32) -> i32 {
    %0 = call @external_decl(%arg0, %arg1) : (i32, f32) -> i32
    %1:2 = call @multi_results(%0, %arg1) : (i32, f32) -> (i32, f32)
    call @no_results() : () -> ()
    return %1#0 : i32
  }
  func.func @indirect(%arg0: (i32) -> i32, %arg1: i32) -> i32 {
    %f = constant @nested_callee : (i32) -> i32
    %0 = call_indirect %arg0(%arg1) : (i32) -> i32
    %1 = call_indirect %f(%0) : (i32) -> i32
    return %1 : i32
  }
  func.func private @nested_callee(%arg0: i32) -> i32 {
    return %arg0 : i32
  }
}

