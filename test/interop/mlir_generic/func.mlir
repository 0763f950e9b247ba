// func dialect: visibility, argument/result attributes, declarations, calls.
module {
  func.func private @external_decl(i32, f32) -> i32
  func.func private @external_named(%arg0: memref<?xf32> {llvm.noalias}, %arg1: i32 {llvm.signext}) -> (i32 {llvm.zeroext})
  func.func nested @nested_vis() attributes {foo = "bar"} {
    return
  }
  func.func public @public_vis(%a: memref<4xf32> {llvm.noalias}, %b: memref<4xf32> {llvm.noalias, llvm.readonly}) {
    return
  }
  func.func @no_results() {
    func.return
  }
  func.func @multi_results(%arg0: i32, %arg1: f32) -> (i32, f32) {
    return %arg0, %arg1 : i32, f32
  }
  func.func @result_attrs(%arg0: i32) -> (i32 {test.res}, f32 {test.other = 1 : i64}) {
    %f = arith.constant 1.0 : f32
    return %arg0, %f : i32, f32
  }
  func.func @calls(%arg0: i32, %arg1: f32) -> i32 {
    %0 = func.call @external_decl(%arg0, %arg1) : (i32, f32) -> i32
    %1:2 = call @multi_results(%0, %arg1) : (i32, f32) -> (i32, f32)
    call @no_results() : () -> ()
    return %1#0 : i32
  }
  func.func @indirect(%f: (i32) -> i32, %x: i32) -> i32 {
    %g = func.constant @nested_callee : (i32) -> i32
    %0 = call_indirect %f(%x) : (i32) -> i32
    %1 = func.call_indirect %g(%0) : (i32) -> i32
    return %1 : i32
  }
  func.func private @nested_callee(%x: i32) -> i32 {
    return %x : i32
  }
}
