"builtin.module"() ({
  "func.func"() <{function_type = (memref<?x?xf32>, memref<100xf32>, index, f32) -> (f32, f32), sym_name = "loops"}> ({
  ^bb0(%arg7: memref<?x?xf32>, %arg8: memref<100xf32>, %arg9: index, %arg10: f32):
    "affine.for"(%arg9) <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 0, 1, 0>, step = 4 : index, upperBoundMap = affine_map<()[s0] -> (s0)>}> ({
    ^bb0(%arg16: index):
      %11 = "affine.load"(%arg7, %arg16, %arg9) <{map = affine_map<(d0)[s0] -> (d0 + 1, s0)>}> : (memref<?x?xf32>, index, index) -> f32
      "affine.store"(%11, %arg7, %arg16) <{map = affine_map<(d0) -> (d0, d0 floordiv 2)>}> : (f32, memref<?x?xf32>, index) -> ()
      %12 = "affine.vector_load"(%arg8, %arg16) <{map = affine_map<(d0) -> (d0)>}> : (memref<100xf32>, index) -> vector<8xf32>
      "affine.vector_store"(%12, %arg8, %arg16) <{map = affine_map<(d0) -> (d0 + 8)>}> : (vector<8xf32>, memref<100xf32>, index) -> ()
      "affine.for"(%arg16, %arg9, %arg16, %arg9) <{lowerBoundMap = affine_map<(d0)[s0] -> (d0, s0 - 4)>, operandSegmentSizes = array<i32: 2, 2, 0>, step = 2 : index, upperBoundMap = affine_map<(d0)[s0] -> (d0 + 10, s0)>}> ({
      ^bb0(%arg17: index):
        %13 = "affine.load"(%arg7, %arg16, %arg17) <{map = affine_map<(d0, d1) -> (d0, d1 mod 3)>}> : (memref<?x?xf32>, index, index) -> f32
        "affine.yield"() : () -> ()
      }) : (index, index, index, index) -> ()
      "affine.yield"() : () -> ()
    }) : (index) -> ()
    %6 = "affine.for"(%arg10) <{lowerBoundMap = affine_map<() -> (-2)>, operandSegmentSizes = array<i32: 0, 0, 1>, step = 1 : index, upperBoundMap = affine_map<() -> (64)>}> ({
    ^bb0(%arg14: index, %arg15: f32):
      %9 = "affine.load"(%arg8, %arg14) <{map = affine_map<(d0) -> (d0 + 2)>}> : (memref<100xf32>, index) -> f32
      %10 = "arith.addf"(%arg15, %9) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
      "affine.yield"(%10) : (f32) -> ()
    }) : (f32) -> f32
    %7:2 = "affine.parallel"(%arg9, %arg9) <{lowerBoundsGroups = dense<[2, 1]> : tensor<2xi32>, lowerBoundsMap = affine_map<(d0) -> (0, d0 - 8, 0)>, reductions = [0, 4], steps = [2, 4], upperBoundsGroups = dense<[2, 1]> : tensor<2xi32>, upperBoundsMap = affine_map<(d0) -> (d0, 100, d0 floordiv 2)>}> ({
    ^bb0(%arg12: index, %arg13: index):
      %8 = "affine.load"(%arg7, %arg12, %arg13) <{map = affine_map<(d0, d1) -> (d0, d1)>}> : (memref<?x?xf32>, index, index) -> f32
      "affine.yield"(%8, %8) : (f32, f32) -> ()
    }) : (index, index) -> (f32, f32)
    "affine.parallel"(%arg9) <{lowerBoundsGroups = dense<1> : tensor<1xi32>, lowerBoundsMap = affine_map<() -> (0)>, reductions = [], steps = [1], upperBoundsGroups = dense<1> : tensor<1xi32>, upperBoundsMap = affine_map<()[s0] -> (s0 + 1)>}> ({
    ^bb0(%arg11: index):
      "affine.store"(%arg10, %arg7, %arg11) <{map = affine_map<(d0) -> (d0, 0)>}> : (f32, memref<?x?xf32>, index) -> ()
      "affine.yield"() : () -> ()
    }) : (index) -> ()
    "func.return"(%6, %7#1) : (f32, f32) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (index, index, f32, f32, memref<f32>) -> f32, sym_name = "conditionals"}> ({
  ^bb0(%arg2: index, %arg3: index, %arg4: f32, %arg5: f32, %arg6: memref<f32>):
    "affine.if"(%arg2, %arg3) <{condition = affine_set<(d0)[s0] : (d0 - 10 >= 0, -d0 + s0 - 1 >= 0)>}> ({
      "affine.store"(%arg4, %arg6) <{map = affine_map<() -> ()>}> : (f32, memref<f32>) -> ()
      "affine.yield"() : () -> ()
    }, {
    }) : (index, index) -> ()
    "affine.if"(%arg2, %arg3) <{condition = affine_set<(d0)[s0] : (d0 - 10 >= 0, -d0 + s0 - 1 >= 0)>}> ({
      "affine.store"(%arg4, %arg6) <{map = affine_map<() -> ()>}> : (f32, memref<f32>) -> ()
      "affine.yield"() : () -> ()
    }, {
      "affine.store"(%arg5, %arg6) <{map = affine_map<() -> ()>}> : (f32, memref<f32>) -> ()
      "affine.yield"() : () -> ()
    }) : (index, index) -> ()
    %4 = "affine.if"(%arg2, %arg3) <{condition = affine_set<(d0)[s0] : (d0 - 10 >= 0, -d0 + s0 - 1 >= 0)>}> ({
      "affine.yield"(%arg4) : (f32) -> ()
    }, {
      %5 = "affine.load"(%arg6) <{map = affine_map<() -> ()>}> : (memref<f32>) -> f32
      "affine.yield"(%5) : (f32) -> ()
    }) : (index, index) -> f32
    "func.return"(%4) : (f32) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (index, index) -> (index, index, index, index), sym_name = "index_math"}> ({
  ^bb0(%arg0: index, %arg1: index):
    %0 = "affine.apply"(%arg0, %arg1) <{map = affine_map<(d0)[s0] -> (d0 * 4 + s0)>}> : (index, index) -> index
    %1 = "affine.apply"(%arg1) <{map = affine_map<()[s0] -> (s0 ceildiv 8)>}> : (index) -> index
    %2 = "affine.min"(%arg0, %arg1) <{map = affine_map<(d0)[s0] -> (d0 + 10, s0)>}> : (index, index) -> index
    %3 = "affine.max"(%0, %1) <{map = affine_map<(d0)[s0] -> (d0, s0 - 4)>}> : (index, index) -> index
    "func.return"(%0, %1, %2, %3) : (index, index, index, index) -> ()
  }) : () -> ()
}) : () -> ()
