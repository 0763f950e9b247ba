"builtin.module"() ({
  "func.func"() <{function_type = () -> (tensor<4xf32>, tensor<2x2xi32>, tensor<2xi1>, tensor<f64>), sym_name = "constant"}> ({
    %52 = "graph.constant"() <{value = dense<1.000000e+00> : tensor<4xf32>}> : () -> tensor<4xf32>
    %53 = "graph.constant"() <{value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>
    %54 = "graph.constant"() <{value = dense<[true, false]> : tensor<2xi1>}> : () -> tensor<2xi1>
    %55 = "graph.constant"() <{value = dense<2.500000e+00> : tensor<f64>}> : () -> tensor<f64>
    "func.return"(%52, %53, %54, %55) : (tensor<4xf32>, tensor<2x2xi32>, tensor<2xi1>, tensor<f64>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x1xf32>, tensor<5xf32>, tensor<3xi32>, tensor<3xi1>) -> (), sym_name = "binary"}> ({
  ^bb0(%arg18: tensor<4x1xf32>, %arg19: tensor<5xf32>, %arg20: tensor<3xi32>, %arg21: tensor<3xi1>):
    %45 = "graph.add"(%arg18, %arg19) : (tensor<4x1xf32>, tensor<5xf32>) -> tensor<4x5xf32>
    %46 = "graph.sub"(%arg20, %arg20) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
    %47 = "graph.mul"(%arg18, %arg19) : (tensor<4x1xf32>, tensor<5xf32>) -> tensor<4x5xf32>
    %48 = "graph.div"(%arg20, %arg20) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
    %49 = "graph.max"(%arg21, %arg21) : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
    %50 = "graph.min"(%arg18, %arg18) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
    %51 = "graph.pow"(%arg19, %arg18) : (tensor<5xf32>, tensor<4x1xf32>) -> tensor<4x5xf32>
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x1xf32>, tensor<5xf32>, tensor<?xi64>) -> (), sym_name = "cmp_select"}> ({
  ^bb0(%arg15: tensor<4x1xf32>, %arg16: tensor<5xf32>, %arg17: tensor<?xi64>):
    %38 = "graph.cmp"(%arg15, %arg16) <{predicate = "lt"}> : (tensor<4x1xf32>, tensor<5xf32>) -> tensor<4x5xi1>
    %39 = "graph.cmp"(%arg17, %arg17) <{predicate = "eq"}> : (tensor<?xi64>, tensor<?xi64>) -> tensor<?xi1>
    %40 = "graph.cmp"(%arg16, %arg16) <{predicate = "ne"}> : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
    %41 = "graph.cmp"(%arg16, %arg16) <{predicate = "le"}> : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
    %42 = "graph.cmp"(%arg16, %arg16) <{predicate = "gt"}> : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
    %43 = "graph.cmp"(%arg16, %arg16) <{predicate = "ge"}> : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
    %44 = "graph.select"(%38, %arg15, %arg16) : (tensor<4x5xi1>, tensor<4x1xf32>, tensor<5xf32>) -> tensor<4x5xf32>
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x5xf32>, tensor<?xi32>, tensor<*xf16>) -> (), sym_name = "unary"}> ({
  ^bb0(%arg12: tensor<4x5xf32>, %arg13: tensor<?xi32>, %arg14: tensor<*xf16>):
    %24 = "graph.neg"(%arg13) : (tensor<?xi32>) -> tensor<?xi32>
    %25 = "graph.abs"(%arg12) : (tensor<4x5xf32>) -> tensor<4x5xf32>
    %26 = "graph.exp"(%arg14) : (tensor<*xf16>) -> tensor<*xf16>
    %27 = "graph.log"(%arg12) : (tensor<4x5xf32>) -> tensor<4x5xf32>
    %28 = "graph.sqrt"(%arg12) : (tensor<4x5xf32>) -> tensor<4x5xf32>
    %29 = "graph.rsqrt"(%arg12) : (tensor<4x5xf32>) -> tensor<4x5xf32>
    %30 = "graph.tanh"(%arg12) : (tensor<4x5xf32>) -> tensor<4x5xf32>
    %31 = "graph.sigmoid"(%arg12) : (tensor<4x5xf32>) -> tensor<4x5xf32>
    %32 = "graph.relu"(%arg13) : (tensor<?xi32>) -> tensor<?xi32>
    %33 = "graph.erf"(%arg12) : (tensor<4x5xf32>) -> tensor<4x5xf32>
    %34 = "graph.gelu"(%arg12) : (tensor<4x5xf32>) -> tensor<4x5xf32>
    %35 = "graph.cast"(%arg12) : (tensor<4x5xf32>) -> tensor<4x5xi32>
    %36 = "graph.cast"(%arg13) : (tensor<?xi32>) -> tensor<?xi1>
    %37 = "graph.cast"(%arg14) : (tensor<*xf16>) -> tensor<*xf64>
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<2x4x8xf32>, tensor<8x16xf32>, tensor<4x3xf32>) -> (), sym_name = "shapes"}> ({
  ^bb0(%arg9: tensor<2x4x8xf32>, %arg10: tensor<8x16xf32>, %arg11: tensor<4x3xf32>):
    %17 = "graph.matmul"(%arg9, %arg10) : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
    %18 = "graph.transpose"(%arg9) <{perm = array<i64: 2, 0, 1>}> : (tensor<2x4x8xf32>) -> tensor<8x2x4xf32>
    %19 = "graph.reshape"(%arg11) <{shape = array<i64: 2, -1>}> : (tensor<4x3xf32>) -> tensor<2x6xf32>
    %20 = "graph.broadcast_to"(%arg11) <{shape = array<i64: 5, 4, 3>}> : (tensor<4x3xf32>) -> tensor<5x4x3xf32>
    %21 = "graph.concat"(%arg11, %arg11, %arg11) <{axis = 1 : i64}> : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x9xf32>
    %22 = "graph.concat"(%arg11) <{axis = 0 : i64}> : (tensor<4x3xf32>) -> tensor<4x3xf32>
    %23 = "graph.slice"(%arg11) <{limits = array<i64: 4, 3>, starts = array<i64: 1, 0>, strides = array<i64: 2, 2>}> : (tensor<4x3xf32>) -> tensor<2x2xf32>
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x5xf32>, tensor<4x5xi64>) -> (), sym_name = "reductions"}> ({
  ^bb0(%arg7: tensor<4x5xf32>, %arg8: tensor<4x5xi64>):
    %12 = "graph.reduce_sum"(%arg7) <{axes = array<i64: 1>, keepdims = true}> : (tensor<4x5xf32>) -> tensor<4x1xf32>
    %13 = "graph.reduce_max"(%arg8) <{axes = array<i64: 0>, keepdims = false}> : (tensor<4x5xi64>) -> tensor<5xi64>
    %14 = "graph.reduce_min"(%arg7) <{axes = array<i64: 0, 1>, keepdims = false}> : (tensor<4x5xf32>) -> tensor<f32>
    %15 = "graph.reduce_mean"(%arg7) <{axes = array<i64>, keepdims = false}> : (tensor<4x5xf32>) -> tensor<4x5xf32>
    %16 = "graph.softmax"(%arg7) <{axis = 1 : i64}> : (tensor<4x5xf32>) -> tensor<4x5xf32>
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> (), sym_name = "conv_pool"}> ({
  ^bb0(%arg4: tensor<1x4x8x8xf32>, %arg5: tensor<6x2x3x3xf32>, %arg6: tensor<6xf32>):
    %7 = "graph.conv2d"(%arg4, %arg5) <{dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>}> : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x6x6xf32>
    %8 = "graph.conv2d"(%arg4, %arg5, %arg6) <{dilations = array<i64: 2, 1>, groups = 2 : i64, pads = array<i64: 1, 2, 3, 4>, strides = array<i64: 2, 3>}> : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x4x4xf32>
    %9 = "graph.conv2d"(%arg4, %arg5, %arg6) <{dilations = array<i64: 1, 1>, groups = 2 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>}> : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x6x6xf32>
    %10 = "graph.max_pool2d"(%arg4) <{kernel = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>}> : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
    %11 = "graph.avg_pool2d"(%arg4) <{kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}> : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi1>), sym_name = "fused"}> ({
  ^bb0(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>):
    %0:2 = "graph.fused"(%arg0, %arg1) ({
    ^bb0(%arg2: tensor<4xf32>, %arg3: tensor<4xf32>):
      %3 = "graph.add"(%arg2, %arg3) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      %4 = "arith.constant"() <{value = 0.000000e+00 : f32}> : () -> f32
      %5 = "graph.constant"() <{value = dense<0.000000e+00> : tensor<4xf32>}> : () -> tensor<4xf32>
      %6 = "graph.cmp"(%3, %5) <{predicate = "gt"}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
      "graph.yield"(%3, %6) : (tensor<4xf32>, tensor<4xi1>) -> ()
    }) {tag = "k0"} : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi1>)
    %1 = "graph.fused"() ({
      %2 = "graph.constant"() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
      "graph.yield"(%2) : (tensor<2xi32>) -> ()
    }) : () -> tensor<2xi32>
    "func.return"(%0#0, %0#1) : (tensor<4xf32>, tensor<4xi1>) -> ()
  }) : () -> ()
}) : () -> ()

