"builtin.module"() ({
  "func.func"() <{function_type = () -> (i32, f32, index, i1, vector<4xf32>, tensor<2x2xi32>), sym_name = "constants"}> ({
    %98 = "arith.constant"() <{value = 42 : i32}> : () -> i32
    %99 = "arith.constant"() <{value = -1 : i8}> : () -> i8
    %100 = "arith.constant"() <{value = 7 : i64}> : () -> i64
    %101 = "arith.constant"() <{value = 1.500000e+00 : f32}> : () -> f32
    %102 = "arith.constant"() <{value = -0.000000e+00 : f64}> : () -> f64
    %103 = "arith.constant"() <{value = 1.000000e+10 : f64}> : () -> f64
    %104 = "arith.constant"() <{value = 0x7FC00000 : f32}> : () -> f32
    %105 = "arith.constant"() <{value = 0x7F800000 : f32}> : () -> f32
    %106 = "arith.constant"() <{value = 5.000000e-01 : f16}> : () -> f16
    %107 = "arith.constant"() <{value = 2.000000e+00 : bf16}> : () -> bf16
    %108 = "arith.constant"() <{value = 3 : index}> : () -> index
    %109 = "arith.constant"() <{value = true}> : () -> i1
    %110 = "arith.constant"() <{value = false}> : () -> i1
    %111 = "arith.constant"() <{value = true}> : () -> i1
    %112 = "arith.constant"() <{value = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : vector<4xf32>}> : () -> vector<4xf32>
    %113 = "arith.constant"() <{value = dense<0.000000e+00> : vector<4xf32>}> : () -> vector<4xf32>
    %114 = "arith.constant"() <{value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>
    %115 = "arith.constant"() <{value = dense<0> : tensor<8xi32>}> : () -> tensor<8xi32>
    %116 = "arith.constant"() <{value = dense<true> : tensor<2xi1>}> : () -> tensor<2xi1>
    "func.return"(%98, %101, %108, %109, %112, %114) : (i32, f32, index, i1, vector<4xf32>, tensor<2x2xi32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i32, i32) -> (), sym_name = "int_binary"}> ({
  ^bb0(%arg31: i32, %arg32: i32):
    %83 = "arith.addi"(%arg31, %arg32) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %84 = "arith.subi"(%arg31, %arg32) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %85 = "arith.muli"(%arg31, %arg32) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %86 = "arith.divsi"(%arg31, %arg32) : (i32, i32) -> i32
    %87 = "arith.divui"(%arg31, %arg32) : (i32, i32) -> i32
    %88 = "arith.remsi"(%arg31, %arg32) : (i32, i32) -> i32
    %89 = "arith.remui"(%arg31, %arg32) : (i32, i32) -> i32
    %90 = "arith.ceildivsi"(%arg31, %arg32) : (i32, i32) -> i32
    %91 = "arith.floordivsi"(%arg31, %arg32) : (i32, i32) -> i32
    %92 = "arith.ceildivui"(%arg31, %arg32) : (i32, i32) -> i32
    %93 = "arith.addi"(%arg31, %arg32) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32
    %94 = "arith.addi"(%arg31, %arg32) <{overflowFlags = #arith.overflow<nsw, nuw>}> : (i32, i32) -> i32
    %95 = "arith.muli"(%arg31, %arg32) <{overflowFlags = #arith.overflow<nuw>}> : (i32, i32) -> i32
    %96 = "arith.subi"(%arg31, %arg32) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %97 = "arith.shli"(%arg31, %arg32) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (vector<4xi32>, vector<4xi32>, tensor<?xindex>) -> (), sym_name = "int_vector"}> ({
  ^bb0(%arg28: vector<4xi32>, %arg29: vector<4xi32>, %arg30: tensor<?xindex>):
    %81 = "arith.addi"(%arg28, %arg29) <{overflowFlags = #arith.overflow<none>}> : (vector<4xi32>, vector<4xi32>) -> vector<4xi32>
    %82 = "arith.muli"(%arg30, %arg30) <{overflowFlags = #arith.overflow<none>}> : (tensor<?xindex>, tensor<?xindex>) -> tensor<?xindex>
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (f32, f32) -> (), sym_name = "float_binary"}> ({
  ^bb0(%arg26: f32, %arg27: f32):
    %69 = "arith.addf"(%arg26, %arg27) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %70 = "arith.subf"(%arg26, %arg27) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %71 = "arith.mulf"(%arg26, %arg27) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %72 = "arith.divf"(%arg26, %arg27) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %73 = "arith.remf"(%arg26, %arg27) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %74 = "arith.addf"(%arg26, %arg27) <{fastmath = #arith.fastmath<fast>}> : (f32, f32) -> f32
    %75 = "arith.mulf"(%arg26, %arg27) <{fastmath = #arith.fastmath<nnan,ninf>}> : (f32, f32) -> f32
    %76 = "arith.divf"(%arg26, %arg27) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %77 = "arith.subf"(%arg26, %arg27) <{fastmath = #arith.fastmath<reassoc,contract>}> : (f32, f32) -> f32
    %78 = "arith.negf"(%arg26) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
    %79 = "arith.negf"(%arg26) <{fastmath = #arith.fastmath<nsz>}> : (f32) -> f32
    %80 = "arith.remf"(%arg26, %arg27) <{fastmath = #arith.fastmath<arcp,afn>}> : (f32, f32) -> f32
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i32, i32, vector<4xi32>) -> (), sym_name = "cmpi"}> ({
  ^bb0(%arg23: i32, %arg24: i32, %arg25: vector<4xi32>):
    %58 = "arith.cmpi"(%arg23, %arg24) <{predicate = 0 : i64}> : (i32, i32) -> i1
    %59 = "arith.cmpi"(%arg23, %arg24) <{predicate = 1 : i64}> : (i32, i32) -> i1
    %60 = "arith.cmpi"(%arg23, %arg24) <{predicate = 2 : i64}> : (i32, i32) -> i1
    %61 = "arith.cmpi"(%arg23, %arg24) <{predicate = 3 : i64}> : (i32, i32) -> i1
    %62 = "arith.cmpi"(%arg23, %arg24) <{predicate = 4 : i64}> : (i32, i32) -> i1
    %63 = "arith.cmpi"(%arg23, %arg24) <{predicate = 5 : i64}> : (i32, i32) -> i1
    %64 = "arith.cmpi"(%arg23, %arg24) <{predicate = 6 : i64}> : (i32, i32) -> i1
    %65 = "arith.cmpi"(%arg23, %arg24) <{predicate = 7 : i64}> : (i32, i32) -> i1
    %66 = "arith.cmpi"(%arg23, %arg24) <{predicate = 8 : i64}> : (i32, i32) -> i1
    %67 = "arith.cmpi"(%arg23, %arg24) <{predicate = 9 : i64}> : (i32, i32) -> i1
    %68 = "arith.cmpi"(%arg25, %arg25) <{predicate = 0 : i64}> : (vector<4xi32>, vector<4xi32>) -> vector<4xi1>
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (f32, f32) -> (), sym_name = "cmpf"}> ({
  ^bb0(%arg21: f32, %arg22: f32):
    %41 = "arith.cmpf"(%arg21, %arg22) <{fastmath = #arith.fastmath<none>, predicate = 0 : i64}> : (f32, f32) -> i1
    %42 = "arith.cmpf"(%arg21, %arg22) <{fastmath = #arith.fastmath<none>, predicate = 1 : i64}> : (f32, f32) -> i1
    %43 = "arith.cmpf"(%arg21, %arg22) <{fastmath = #arith.fastmath<none>, predicate = 2 : i64}> : (f32, f32) -> i1
    %44 = "arith.cmpf"(%arg21, %arg22) <{fastmath = #arith.fastmath<none>, predicate = 3 : i64}> : (f32, f32) -> i1
    %45 = "arith.cmpf"(%arg21, %arg22) <{fastmath = #arith.fastmath<none>, predicate = 4 : i64}> : (f32, f32) -> i1
    %46 = "arith.cmpf"(%arg21, %arg22) <{fastmath = #arith.fastmath<none>, predicate = 5 : i64}> : (f32, f32) -> i1
    %47 = "arith.cmpf"(%arg21, %arg22) <{fastmath = #arith.fastmath<none>, predicate = 6 : i64}> : (f32, f32) -> i1
    %48 = "arith.cmpf"(%arg21, %arg22) <{fastmath = #arith.fastmath<none>, predicate = 7 : i64}> : (f32, f32) -> i1
    %49 = "arith.cmpf"(%arg21, %arg22) <{fastmath = #arith.fastmath<none>, predicate = 8 : i64}> : (f32, f32) -> i1
    %50 = "arith.cmpf"(%arg21, %arg22) <{fastmath = #arith.fastmath<none>, predicate = 9 : i64}> : (f32, f32) -> i1
    %51 = "arith.cmpf"(%arg21, %arg22) <{fastmath = #arith.fastmath<none>, predicate = 10 : i64}> : (f32, f32) -> i1
    %52 = "arith.cmpf"(%arg21, %arg22) <{fastmath = #arith.fastmath<none>, predicate = 11 : i64}> : (f32, f32) -> i1
    %53 = "arith.cmpf"(%arg21, %arg22) <{fastmath = #arith.fastmath<none>, predicate = 12 : i64}> : (f32, f32) -> i1
    %54 = "arith.cmpf"(%arg21, %arg22) <{fastmath = #arith.fastmath<none>, predicate = 13 : i64}> : (f32, f32) -> i1
    %55 = "arith.cmpf"(%arg21, %arg22) <{fastmath = #arith.fastmath<none>, predicate = 14 : i64}> : (f32, f32) -> i1
    %56 = "arith.cmpf"(%arg21, %arg22) <{fastmath = #arith.fastmath<none>, predicate = 15 : i64}> : (f32, f32) -> i1
    %57 = "arith.cmpf"(%arg21, %arg22) <{fastmath = #arith.fastmath<nnan>, predicate = 4 : i64}> : (f32, f32) -> i1
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i1, f32, f32, vector<4xi1>, vector<4xf32>) -> (f32, vector<4xf32>, vector<4xf32>), sym_name = "select"}> ({
  ^bb0(%arg16: i1, %arg17: f32, %arg18: f32, %arg19: vector<4xi1>, %arg20: vector<4xf32>):
    %38 = "arith.select"(%arg16, %arg17, %arg18) : (i1, f32, f32) -> f32
    %39 = "arith.select"(%arg19, %arg20, %arg20) : (vector<4xi1>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
    %40 = "arith.select"(%arg16, %arg20, %arg20) : (i1, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
    "func.return"(%38, %39, %40) : (f32, vector<4xf32>, vector<4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i32, i32, f32, f32) -> (), sym_name = "minmax"}> ({
  ^bb0(%arg12: i32, %arg13: i32, %arg14: f32, %arg15: f32):
    %30 = "arith.maxsi"(%arg12, %arg13) : (i32, i32) -> i32
    %31 = "arith.minsi"(%arg12, %arg13) : (i32, i32) -> i32
    %32 = "arith.maxui"(%arg12, %arg13) : (i32, i32) -> i32
    %33 = "arith.minui"(%arg12, %arg13) : (i32, i32) -> i32
    %34 = "arith.maximumf"(%arg14, %arg15) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %35 = "arith.minimumf"(%arg14, %arg15) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %36 = "arith.maxnumf"(%arg14, %arg15) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
    %37 = "arith.minnumf"(%arg14, %arg15) <{fastmath = #arith.fastmath<fast>}> : (f32, f32) -> f32
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i32, f32, index, f16, i8, i64, vector<4xi32>) -> (), sym_name = "casts"}> ({
  ^bb0(%arg5: i32, %arg6: f32, %arg7: index, %arg8: f16, %arg9: i8, %arg10: i64, %arg11: vector<4xi32>):
    %10 = "arith.extsi"(%arg5) : (i32) -> i64
    %11 = "arith.extui"(%arg5) : (i32) -> i64
    %12 = "arith.trunci"(%arg5) <{overflowFlags = #arith.overflow<none>}> : (i32) -> i8
    %13 = "arith.extf"(%arg6) : (f32) -> f64
    %14 = "arith.truncf"(%arg6) : (f32) -> f16
    %15 = "arith.sitofp"(%arg5) : (i32) -> f32
    %16 = "arith.uitofp"(%arg5) : (i32) -> f32
    %17 = "arith.fptosi"(%arg6) : (f32) -> i32
    %18 = "arith.fptoui"(%arg6) : (f32) -> i32
    %19 = "arith.index_cast"(%arg5) : (i32) -> index
    %20 = "arith.index_cast"(%arg7) : (index) -> i64
    %21 = "arith.index_castui"(%arg7) : (index) -> i32
    %22 = "arith.bitcast"(%arg6) : (f32) -> i32
    %23 = "arith.bitcast"(%arg8) : (f16) -> i16
    %24 = "arith.extsi"(%arg11) : (vector<4xi32>) -> vector<4xi64>
    %25 = "arith.extf"(%arg8) <{fastmath = #arith.fastmath<contract>}> : (f16) -> f32
    %26 = "arith.truncf"(%arg6) <{roundingmode = 0 : i32}> : (f32) -> bf16
    %27 = "arith.trunci"(%arg10) <{overflowFlags = #arith.overflow<nsw>}> : (i64) -> i32
    %28 = "arith.uitofp"(%arg9) <{nonNeg}> : (i8) -> f32
    %29 = "arith.extui"(%arg9) <{nonNeg}> : (i8) -> i32
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i32, i32, i1) -> (), sym_name = "bitwise"}> ({
  ^bb0(%arg2: i32, %arg3: i32, %arg4: i1):
    %3 = "arith.andi"(%arg2, %arg3) : (i32, i32) -> i32
    %4 = "arith.ori"(%arg2, %arg3) : (i32, i32) -> i32
    %5 = "arith.xori"(%arg2, %arg3) : (i32, i32) -> i32
    %6 = "arith.shli"(%arg2, %arg3) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
    %7 = "arith.shrsi"(%arg2, %arg3) : (i32, i32) -> i32
    %8 = "arith.shrui"(%arg2, %arg3) : (i32, i32) -> i32
    %9 = "arith.xori"(%arg4, %arg4) : (i1, i1) -> i1
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (i32, i32) -> (), sym_name = "extended"}> ({
  ^bb0(%arg0: i32, %arg1: i32):
    %0:2 = "arith.addui_extended"(%arg0, %arg1) : (i32, i32) -> (i32, i1)
    %1:2 = "arith.mulsi_extended"(%arg0, %arg1) : (i32, i32) -> (i32, i32)
    %2:2 = "arith.mului_extended"(%arg0, %arg1) : (i32, i32) -> (i32, i32)
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

