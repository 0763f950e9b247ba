// Regions, blocks, successors, properties, resources, nested modules, unregistered ops.
module attributes {test.module_attr = 1 : i32} {
  module @nested {
    func.func @inner() {
      return
    }
  }
  "test.props"() <{prop = 1 : i32, other = "s"}> {attr = 2 : i64} : () -> ()
  "test.segments"() {operandSegmentSizes = array<i32: 0, 0>} : () -> ()
  %0:3 = "test.multi"() : () -> (i32, f32, index)
  "test.use"(%0#0, %0#2) : (i32, index) -> ()
  %r = "test.regions"() ({
    "test.yield"() : () -> ()
  }, {
  ^bb0(%a: i32, %b: f32):
    "test.br"(%a)[^bb1] : (i32) -> ()
  ^bb1(%c: i32):
    "test.yield"(%c) : (i32) -> ()
  }, {
  }) : () -> i64
  "test.cfg"() ({
    %c = "test.cond"() : () -> i1
    "test.successors"(%c)[^bb1, ^bb2] : (i1) -> ()
  ^bb1:
    "test.term"() : () -> ()
  ^bb2:
    "test.term"() : () -> ()
  }) : () -> ()
  "test.resource"() {blob = dense_resource<blob1> : tensor<2xf32>} : () -> ()
  "test.graph"() ({
    "test.use2"(%late) : (i32) -> ()
    %late = "test.def"() : () -> i32
  }) : () -> ()
  "test.quoted.op.name"() {"attr"} : () -> ()
}

{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F00000040"
    }
  }
#-}
