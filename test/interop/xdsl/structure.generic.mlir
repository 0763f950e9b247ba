"builtin.module"() ({
  "builtin.module"() <{sym_name = "nested"}> ({
    "func.func"() <{function_type = () -> (), sym_name = "inner"}> ({
      "func.return"() : () -> ()
    }) : () -> ()
  }) : () -> ()
  "test.props"() <{other = "s", prop = 1 : i32}> {attr = 2 : i64} : () -> ()
  "test.segments"() {operandSegmentSizes = array<i32: 0, 0>} : () -> ()
  %0, %1, %2 = "test.multi"() : () -> (i32, f32, index)
  "test.use"(%0, %2) : (i32, index) -> ()
  %3 = "test.regions"() ({
    "test.yield"() : () -> ()
  }, {
  ^bb0(%arg0: i32, %arg1: f32):
    "test.br"(%arg0) [^bb1] : (i32) -> ()
  ^bb1(%4: i32):
    "test.yield"(%4) : (i32) -> ()
  }, {
  }) : () -> i64
  "test.cfg"() ({
    %5 = "test.cond"() : () -> i1
    "test.successors"(%5) [^bb1, ^bb2] : (i1) -> ()
  ^bb1:
    "test.term"() : () -> ()
  ^bb2:
    "test.term"() : () -> ()
  }) : () -> ()
  "test.resource"() {blob = dense_resource<blob1> : tensor<2xf32>} : () -> ()
  "test.graph"() ({
    "test.use2"(%6) : (i32) -> ()
    %6 = "test.def"() : () -> i32
  }) : () -> ()
  "test.quoted.op.name"() {attr} : () -> ()
}) {test.module_attr = 1 : i32} : () -> ()

{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F00000040"
    }
  }
#-}

