module attributes {test.module_attr = 1 : i32} {
  module @nested {
    func.func @inner() {
      return
    }
  }
  "test.props"() <{other = "s", prop = 1 : i32}> {attr = 2 : i64} : () -> ()
  "test.segments"() {operandSegmentSizes = array<i32: 0, 0>} : () -> ()
  %0:3 = "test.multi"() : () -> (i32, f32, index)
  "test.use"(%0#0, %0#2) : (i32, index) -> ()
  %1 = "test.regions"() ({
    "test.yield"() : () -> ()
  }, {
  ^bb0(%arg0: i32, %arg1: f32):
    "test.br"(%arg0)[^bb1] : (i32) -> ()
  ^bb1(%2: i32):  // pred: ^bb0
    "test.yield"(%2) : (i32) -> ()
  }, {
  }) : () -> i64
  "test.cfg"() ({
    %2 = "test.cond"() : () -> i1
    "test.successors"(%2)[^bb1, ^bb2] : (i1) -> ()
  ^bb1:  // pred: ^bb0
    "test.term"() : () -> ()
  ^bb2:  // pred: ^bb0
    "test.term"() : () -> ()
  }) : () -> ()
  "test.resource"() {blob = dense_resource<blob1> : tensor<2xf32>} : () -> ()
  "test.graph"() ({
    "test.use2"(%2) : (i32) -> ()
    %2 = "test.def"() : () -> i32
  }) : () -> ()
  "test.quoted.op.name"() {attr} : () -> ()
}

{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F00000040"
    }
  }
#-}

