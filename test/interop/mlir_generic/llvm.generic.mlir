"builtin.module"() ({
  "llvm.mlir.global"() <{addr_space = 0 : i32, constant, global_type = !llvm.array<4 x f32>, linkage = #llvm.linkage<internal>, sym_name = "table", tls_mode = 0 : i64, unnamed_addr = 0 : i64, value = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>, visibility_ = 0 : i64}> ({
  }) : () -> ()
  "llvm.mlir.global"() <{addr_space = 0 : i32, global_type = !llvm.struct<(i32, ptr)>, linkage = #llvm.linkage<external>, sym_name = "ext_global", tls_mode = 0 : i64, unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
  }) : () -> ()
  "llvm.mlir.global"() <{addr_space = 0 : i32, global_type = i32, linkage = #llvm.linkage<private>, sym_name = "counter", tls_mode = 0 : i64, unnamed_addr = 0 : i64, value = 0 : i32, visibility_ = 0 : i64}> ({
  }) : () -> ()
  "llvm.mlir.global"() <{addr_space = 0 : i32, alignment = 8 : i64, constant, dso_local, global_type = !llvm.array<3 x i8>, linkage = #llvm.linkage<private>, section = ".rodata", sym_name = "str", tls_mode = 0 : i64, unnamed_addr = 2 : i64, value = "hi\00", visibility_ = 0 : i64}> ({
  }) : () -> ()
  "llvm.mlir.global"() <{addr_space = 0 : i32, global_type = f64, linkage = #llvm.linkage<external>, sym_name = "tls", tls_mode = 1 : i64, unnamed_addr = 0 : i64, value = 1.000000e+00 : f64, visibility_ = 1 : i64}> ({
  }) : () -> ()
  "llvm.mlir.global"() <{addr_space = 1 : i32, global_type = vector<2xi32>, linkage = #llvm.linkage<weak>, sym_name = "gpu", tls_mode = 0 : i64, unnamed_addr = 1 : i64, value = dense<0> : vector<2xi32>, visibility_ = 0 : i64}> ({
  }) : () -> ()
  "llvm.mlir.global"() <{addr_space = 0 : i32, global_type = !llvm.ptr, linkage = #llvm.linkage<internal>, sym_name = "table_ptr", tls_mode = 0 : i64, unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
    %111 = "llvm.mlir.addressof"() <{global_name = @table}> : () -> !llvm.ptr
    "llvm.return"(%111) : (!llvm.ptr) -> ()
  }) : () -> ()
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<i32 (ptr, ...)>, linkage = #llvm.linkage<external>, sym_name = "printf", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
  }) : () -> ()
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<i64 (i64)>, linkage = #llvm.linkage<external>, sym_name = "ext", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
  }) : () -> ()
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (i32)>, linkage = #llvm.linkage<external>, sym_name = "ext_void", unnamed_addr = 1 : i64, visibility_ = 0 : i64}> ({
  }) : () -> ()
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, arg_attrs = [{llvm.nocapture}], function_type = !llvm.func<i32 (ptr)>, linkage = #llvm.linkage<external>, res_attrs = [{llvm.zeroext}], sym_name = "ext_hidden", unnamed_addr = 0 : i64, visibility_ = 1 : i64}> ({
  }) : () -> ()
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (...)>, linkage = #llvm.linkage<external>, sym_name = "only_varargs", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
  }) : () -> ()
  "llvm.func"() <{CConv = #llvm.cconv<fastcc>, dso_local, function_type = !llvm.func<i32 (i32)>, linkage = #llvm.linkage<internal>, sym_name = "internal_fn", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
  ^bb0(%arg41: i32):
    "llvm.return"(%arg41) : (i32) -> ()
  }) : () -> ()
  "llvm.func"() <{CConv = #llvm.cconv<fastcc>, function_type = !llvm.func<struct<packed (i8, i32)> (i32)>, linkage = #llvm.linkage<weak_odr>, sym_name = "keywords", unnamed_addr = 1 : i64, visibility_ = 1 : i64}> ({
  ^bb0(%arg40: i32):
    %110 = "llvm.mlir.undef"() : () -> !llvm.struct<packed (i8, i32)>
    "llvm.return"(%110) : (!llvm.struct<packed (i8, i32)>) -> ()
  }) : () -> ()
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, arg_attrs = [{llvm.align = 16 : i64, llvm.noalias}, {}], function_type = !llvm.func<f32 (ptr, i64)>, linkage = #llvm.linkage<external>, passthrough = ["nounwind"], sym_name = "arg_attrs", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
  ^bb0(%arg38: !llvm.ptr, %arg39: i64):
    %109 = "llvm.load"(%arg38) <{ordering = 0 : i64}> : (!llvm.ptr) -> f32
    "llvm.return"(%109) : (f32) -> ()
  }) : () -> ()
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void ()>, linkage = #llvm.linkage<external>, sym_name = "constants", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
    %98 = "llvm.mlir.constant"() <{value = 1 : i64}> : () -> i64
    %99 = "llvm.mlir.constant"() <{value = 1.500000e+00 : f32}> : () -> f32
    %100 = "llvm.mlir.constant"() <{value = true}> : () -> i1
    %101 = "llvm.mlir.constant"() <{value = dense<1.000000e+00> : vector<2xf32>}> : () -> vector<2xf32>
    %102 = "llvm.mlir.constant"() <{value = dense<[1, 2, 3, 4]> : vector<4xi32>}> : () -> vector<4xi32>
    %103 = "llvm.mlir.undef"() : () -> !llvm.struct<(i32, f32)>
    %104 = "llvm.mlir.poison"() : () -> f32
    %105 = "llvm.mlir.zero"() : () -> !llvm.ptr
    %106 = "llvm.mlir.zero"() : () -> !llvm.struct<"id", (i32, ptr)>
    %107 = "llvm.mlir.addressof"() <{global_name = @table}> : () -> !llvm.ptr
    %108 = "llvm.mlir.addressof"() <{global_name = @ext}> : () -> !llvm.ptr
    "llvm.return"() : () -> ()
  }) : () -> ()
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (i32, i32)>, linkage = #llvm.linkage<external>, sym_name = "int_arith", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
  ^bb0(%arg36: i32, %arg37: i32):
    %85 = "llvm.add"(%arg36, %arg37) <{overflowFlags = 1 : i32}> : (i32, i32) -> i32
    %86 = "llvm.sub"(%arg36, %arg37) <{overflowFlags = 2 : i32}> : (i32, i32) -> i32
    %87 = "llvm.mul"(%arg36, %arg37) <{overflowFlags = 0 : i32}> : (i32, i32) -> i32
    %88 = "llvm.shl"(%arg36, %arg37) <{overflowFlags = 3 : i32}> : (i32, i32) -> i32
    %89 = "llvm.udiv"(%arg36, %arg37) : (i32, i32) -> i32
    %90 = "llvm.sdiv"(%arg36, %arg37) <{isExact}> : (i32, i32) -> i32
    %91 = "llvm.urem"(%arg36, %arg37) : (i32, i32) -> i32
    %92 = "llvm.srem"(%arg36, %arg37) : (i32, i32) -> i32
    %93 = "llvm.and"(%arg36, %arg37) : (i32, i32) -> i32
    %94 = "llvm.or"(%arg36, %arg37) <{isDisjoint}> : (i32, i32) -> i32
    %95 = "llvm.xor"(%arg36, %arg37) : (i32, i32) -> i32
    %96 = "llvm.lshr"(%arg36, %arg37) : (i32, i32) -> i32
    %97 = "llvm.ashr"(%arg36, %arg37) <{isExact}> : (i32, i32) -> i32
    "llvm.return"() : () -> ()
  }) : () -> ()
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (f32, vector<2xf32>)>, linkage = #llvm.linkage<external>, sym_name = "float_arith", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
  ^bb0(%arg34: f32, %arg35: vector<2xf32>):
    %78 = "llvm.fadd"(%arg34, %arg34) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32, f32) -> f32
    %79 = "llvm.fsub"(%arg34, %arg34) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, f32) -> f32
    %80 = "llvm.fmul"(%arg34, %arg34) <{fastmathFlags = #llvm.fastmath<nnan, ninf>}> : (f32, f32) -> f32
    %81 = "llvm.fdiv"(%arg34, %arg34) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, f32) -> f32
    %82 = "llvm.frem"(%arg34, %arg34) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, f32) -> f32
    %83 = "llvm.fneg"(%arg35) <{fastmathFlags = #llvm.fastmath<none>}> : (vector<2xf32>) -> vector<2xf32>
    %84 = "llvm.fadd"(%arg35, %arg35) <{fastmathFlags = #llvm.fastmath<contract>}> : (vector<2xf32>, vector<2xf32>) -> vector<2xf32>
    "llvm.return"() : () -> ()
  }) : () -> ()
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (i32, i32, f32, vector<2xf32>, ptr)>, linkage = #llvm.linkage<external>, sym_name = "compare_select", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
  ^bb0(%arg29: i32, %arg30: i32, %arg31: f32, %arg32: vector<2xf32>, %arg33: !llvm.ptr):
    %49 = "llvm.icmp"(%arg29, %arg30) <{predicate = 0 : i64}> : (i32, i32) -> i1
    %50 = "llvm.icmp"(%arg29, %arg30) <{predicate = 1 : i64}> : (i32, i32) -> i1
    %51 = "llvm.icmp"(%arg29, %arg30) <{predicate = 2 : i64}> : (i32, i32) -> i1
    %52 = "llvm.icmp"(%arg29, %arg30) <{predicate = 3 : i64}> : (i32, i32) -> i1
    %53 = "llvm.icmp"(%arg29, %arg30) <{predicate = 4 : i64}> : (i32, i32) -> i1
    %54 = "llvm.icmp"(%arg29, %arg30) <{predicate = 5 : i64}> : (i32, i32) -> i1
    %55 = "llvm.icmp"(%arg29, %arg30) <{predicate = 6 : i64}> : (i32, i32) -> i1
    %56 = "llvm.icmp"(%arg29, %arg30) <{predicate = 7 : i64}> : (i32, i32) -> i1
    %57 = "llvm.icmp"(%arg29, %arg30) <{predicate = 8 : i64}> : (i32, i32) -> i1
    %58 = "llvm.icmp"(%arg29, %arg30) <{predicate = 9 : i64}> : (i32, i32) -> i1
    %59 = "llvm.icmp"(%arg33, %arg33) <{predicate = 0 : i64}> : (!llvm.ptr, !llvm.ptr) -> i1
    %60 = "llvm.fcmp"(%arg31, %arg31) <{fastmathFlags = #llvm.fastmath<none>, predicate = 0 : i64}> : (f32, f32) -> i1
    %61 = "llvm.fcmp"(%arg31, %arg31) <{fastmathFlags = #llvm.fastmath<none>, predicate = 1 : i64}> : (f32, f32) -> i1
    %62 = "llvm.fcmp"(%arg31, %arg31) <{fastmathFlags = #llvm.fastmath<none>, predicate = 2 : i64}> : (f32, f32) -> i1
    %63 = "llvm.fcmp"(%arg31, %arg31) <{fastmathFlags = #llvm.fastmath<none>, predicate = 3 : i64}> : (f32, f32) -> i1
    %64 = "llvm.fcmp"(%arg31, %arg31) <{fastmathFlags = #llvm.fastmath<none>, predicate = 4 : i64}> : (f32, f32) -> i1
    %65 = "llvm.fcmp"(%arg31, %arg31) <{fastmathFlags = #llvm.fastmath<none>, predicate = 5 : i64}> : (f32, f32) -> i1
    %66 = "llvm.fcmp"(%arg31, %arg31) <{fastmathFlags = #llvm.fastmath<none>, predicate = 6 : i64}> : (f32, f32) -> i1
    %67 = "llvm.fcmp"(%arg31, %arg31) <{fastmathFlags = #llvm.fastmath<none>, predicate = 7 : i64}> : (f32, f32) -> i1
    %68 = "llvm.fcmp"(%arg31, %arg31) <{fastmathFlags = #llvm.fastmath<none>, predicate = 8 : i64}> : (f32, f32) -> i1
    %69 = "llvm.fcmp"(%arg31, %arg31) <{fastmathFlags = #llvm.fastmath<none>, predicate = 9 : i64}> : (f32, f32) -> i1
    %70 = "llvm.fcmp"(%arg31, %arg31) <{fastmathFlags = #llvm.fastmath<none>, predicate = 10 : i64}> : (f32, f32) -> i1
    %71 = "llvm.fcmp"(%arg31, %arg31) <{fastmathFlags = #llvm.fastmath<none>, predicate = 11 : i64}> : (f32, f32) -> i1
    %72 = "llvm.fcmp"(%arg31, %arg31) <{fastmathFlags = #llvm.fastmath<none>, predicate = 12 : i64}> : (f32, f32) -> i1
    %73 = "llvm.fcmp"(%arg31, %arg31) <{fastmathFlags = #llvm.fastmath<none>, predicate = 13 : i64}> : (f32, f32) -> i1
    %74 = "llvm.fcmp"(%arg31, %arg31) <{fastmathFlags = #llvm.fastmath<fast>, predicate = 14 : i64}> : (f32, f32) -> i1
    %75 = "llvm.fcmp"(%arg32, %arg32) <{fastmathFlags = #llvm.fastmath<none>, predicate = 15 : i64}> : (vector<2xf32>, vector<2xf32>) -> vector<2xi1>
    %76 = "llvm.select"(%49, %arg31, %arg31) <{fastmathFlags = #llvm.fastmath<none>}> : (i1, f32, f32) -> f32
    %77 = "llvm.select"(%75, %arg32, %arg32) <{fastmathFlags = #llvm.fastmath<nsz>}> : (vector<2xi1>, vector<2xf32>, vector<2xf32>) -> vector<2xf32>
    "llvm.return"() : () -> ()
  }) : () -> ()
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (i32, i64, f32, f64, ptr, vector<2xi32>)>, linkage = #llvm.linkage<external>, sym_name = "casts", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
  ^bb0(%arg23: i32, %arg24: i64, %arg25: f32, %arg26: f64, %arg27: !llvm.ptr, %arg28: vector<2xi32>):
    %33 = "llvm.trunc"(%arg24) <{overflowFlags = 0 : i32}> : (i64) -> i32
    %34 = "llvm.trunc"(%arg24) <{overflowFlags = 3 : i32}> : (i64) -> i32
    %35 = "llvm.zext"(%arg23) : (i32) -> i64
    %36 = "llvm.zext"(%arg23) <{nonNeg}> : (i32) -> i64
    %37 = "llvm.sext"(%arg23) : (i32) -> i64
    %38 = "llvm.fptrunc"(%arg26) <{fastmathFlags = #llvm.fastmath<none>}> : (f64) -> f32
    %39 = "llvm.fpext"(%arg25) <{fastmathFlags = #llvm.fastmath<nnan>}> : (f32) -> f64
    %40 = "llvm.fptosi"(%arg25) : (f32) -> i32
    %41 = "llvm.fptoui"(%arg25) : (f32) -> i32
    %42 = "llvm.sitofp"(%arg23) : (i32) -> f32
    %43 = "llvm.uitofp"(%arg23) <{nonNeg}> : (i32) -> f32
    %44 = "llvm.ptrtoint"(%arg27) : (!llvm.ptr) -> i64
    %45 = "llvm.inttoptr"(%arg24) : (i64) -> !llvm.ptr
    %46 = "llvm.bitcast"(%arg23) : (i32) -> f32
    %47 = "llvm.bitcast"(%arg28) : (vector<2xi32>) -> i64
    %48 = "llvm.addrspacecast"(%arg27) : (!llvm.ptr) -> !llvm.ptr<1>
    "llvm.return"() : () -> ()
  }) : () -> ()
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (vector<4xf32>, i32, struct<(i32, array<2 x f32>)>, f32)>, linkage = #llvm.linkage<external>, sym_name = "elements", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
  ^bb0(%arg19: vector<4xf32>, %arg20: i32, %arg21: !llvm.struct<(i32, array<2 x f32>)>, %arg22: f32):
    %26 = "llvm.extractelement"(%arg19, %arg20) : (vector<4xf32>, i32) -> f32
    %27 = "llvm.insertelement"(%arg19, %26, %arg20) : (vector<4xf32>, f32, i32) -> vector<4xf32>
    %28 = "llvm.shufflevector"(%27, %arg19) <{mask = array<i32: 0, 1, 4, 5>}> : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
    %29 = "llvm.shufflevector"(%arg19, %arg19) <{mask = array<i32: 3, -1>}> : (vector<4xf32>, vector<4xf32>) -> vector<2xf32>
    %30 = "llvm.extractvalue"(%arg21) <{position = array<i64: 0>}> : (!llvm.struct<(i32, array<2 x f32>)>) -> i32
    %31 = "llvm.extractvalue"(%arg21) <{position = array<i64: 1, 1>}> : (!llvm.struct<(i32, array<2 x f32>)>) -> f32
    %32 = "llvm.insertvalue"(%arg21, %arg22) <{position = array<i64: 1, 0>}> : (!llvm.struct<(i32, array<2 x f32>)>, f32) -> !llvm.struct<(i32, array<2 x f32>)>
    "llvm.return"() : () -> ()
  }) : () -> ()
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (f32, f32, f32, vector<4xf32>, ptr, ptr, i64, i8)>, linkage = #llvm.linkage<external>, sym_name = "intrinsics", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
  ^bb0(%arg11: f32, %arg12: f32, %arg13: f32, %arg14: vector<4xf32>, %arg15: !llvm.ptr, %arg16: !llvm.ptr, %arg17: i64, %arg18: i8):
    %18 = "llvm.intr.fma"(%arg11, %arg12, %arg13) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, f32, f32) -> f32
    %19 = "llvm.intr.exp"(%arg11) <{fastmathFlags = #llvm.fastmath<none>}> : (f32) -> f32
    %20 = "llvm.intr.log"(%arg11) <{fastmathFlags = #llvm.fastmath<afn>}> : (f32) -> f32
    %21 = "llvm.intr.sqrt"(%arg14) <{fastmathFlags = #llvm.fastmath<none>}> : (vector<4xf32>) -> vector<4xf32>
    %22 = "llvm.intr.fabs"(%arg11) <{fastmathFlags = #llvm.fastmath<none>}> : (f32) -> f32
    %23 = "llvm.intr.maxnum"(%arg14, %arg14) <{fastmathFlags = #llvm.fastmath<none>}> : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
    %24 = "llvm.intr.minnum"(%arg11, %arg12) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32, f32) -> f32
    %25 = "llvm.intr.pow"(%arg11, %arg12) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, f32) -> f32
    "llvm.intr.memcpy"(%arg15, %arg16, %arg17) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
    "llvm.intr.memset"(%arg15, %arg18, %arg17) <{isVolatile = true}> : (!llvm.ptr, i8, i64) -> ()
    "llvm.return"() : () -> ()
  }) : () -> ()
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (ptr, i64, i32, f32)>, linkage = #llvm.linkage<external>, sym_name = "memory", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
  ^bb0(%arg7: !llvm.ptr, %arg8: i64, %arg9: i32, %arg10: f32):
    %8 = "llvm.alloca"(%arg8) <{alignment = 8 : i64, elem_type = f32}> : (i64) -> !llvm.ptr
    %9 = "llvm.alloca"(%arg8) <{elem_type = !llvm.struct<(i32, f32)>, inalloca}> : (i64) -> !llvm.ptr
    %10 = "llvm.load"(%arg7) <{alignment = 4 : i64, ordering = 0 : i64}> : (!llvm.ptr) -> f32
    %11 = "llvm.load"(%arg7) <{alignment = 4 : i64, nontemporal, ordering = 0 : i64, volatile_}> : (!llvm.ptr) -> f32
    %12 = "llvm.load"(%arg7) <{alignment = 4 : i64, invariant, ordering = 2 : i64, syncscope = "agent"}> : (!llvm.ptr) -> i32
    "llvm.store"(%arg10, %8) <{ordering = 0 : i64}> : (f32, !llvm.ptr) -> ()
    "llvm.store"(%arg10, %8) <{alignment = 16 : i64, ordering = 0 : i64}> : (f32, !llvm.ptr) -> ()
    "llvm.store"(%arg10, %8) <{invariantGroup, nontemporal, ordering = 0 : i64, volatile_}> : (f32, !llvm.ptr) -> ()
    "llvm.store"(%12, %arg7) <{alignment = 4 : i64, ordering = 7 : i64}> : (i32, !llvm.ptr) -> ()
    %13 = "llvm.getelementptr"(%arg7) <{elem_type = f32, noWrapFlags = 0 : i32, rawConstantIndices = array<i32: 1>}> : (!llvm.ptr) -> !llvm.ptr
    %14 = "llvm.getelementptr"(%arg7, %arg8) <{elem_type = !llvm.struct<(f32, i32)>, noWrapFlags = 3 : i32, rawConstantIndices = array<i32: -2147483648, 1>}> : (!llvm.ptr, i64) -> !llvm.ptr
    %15 = "llvm.getelementptr"(%arg7, %arg9) <{elem_type = i8, noWrapFlags = 4 : i32, rawConstantIndices = array<i32: -2147483648>}> : (!llvm.ptr, i32) -> !llvm.ptr
    %16 = "llvm.getelementptr"(%arg7, %arg9) <{elem_type = !llvm.array<4 x struct<(i32, f32, ptr)>>, noWrapFlags = 7 : i32, rawConstantIndices = array<i32: 0, -2147483648, 2>}> : (!llvm.ptr, i32) -> !llvm.ptr
    %17 = "llvm.getelementptr"(%arg7) <{elem_type = i64, noWrapFlags = 2 : i32, rawConstantIndices = array<i32: -1>}> : (!llvm.ptr) -> !llvm.ptr
    "llvm.return"() : () -> ()
  }) : () -> ()
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<i64 (i64, ptr, i32)>, linkage = #llvm.linkage<external>, sym_name = "calls", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
  ^bb0(%arg4: i64, %arg5: !llvm.ptr, %arg6: i32):
    %2 = "llvm.call"(%arg4) <{CConv = #llvm.cconv<ccc>, TailCallKind = #llvm.tailcallkind<none>, callee = @ext, fastmathFlags = #llvm.fastmath<none>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 1, 0>}> : (i64) -> i64
    "llvm.call"(%arg6) <{CConv = #llvm.cconv<ccc>, TailCallKind = #llvm.tailcallkind<none>, callee = @ext_void, fastmathFlags = #llvm.fastmath<none>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 1, 0>}> : (i32) -> ()
    %3 = "llvm.call"(%arg5, %arg6, %arg4) <{CConv = #llvm.cconv<ccc>, TailCallKind = #llvm.tailcallkind<none>, callee = @printf, fastmathFlags = #llvm.fastmath<none>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 3, 0>, var_callee_type = !llvm.func<i32 (ptr, ...)>}> : (!llvm.ptr, i32, i64) -> i32
    %4 = "llvm.call"(%arg6) <{CConv = #llvm.cconv<fastcc>, TailCallKind = #llvm.tailcallkind<tail>, callee = @internal_fn, fastmathFlags = #llvm.fastmath<none>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 1, 0>}> : (i32) -> i32
    %5 = "llvm.call"(%arg4) <{CConv = #llvm.cconv<ccc>, TailCallKind = #llvm.tailcallkind<none>, callee = @ext, fastmathFlags = #llvm.fastmath<fast>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 1, 0>}> : (i64) -> i64
    %6 = "llvm.mlir.addressof"() <{global_name = @ext}> : () -> !llvm.ptr
    %7 = "llvm.call"(%6, %arg4) <{CConv = #llvm.cconv<ccc>, TailCallKind = #llvm.tailcallkind<none>, fastmathFlags = #llvm.fastmath<none>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 2, 0>}> : (!llvm.ptr, i64) -> i64
    "llvm.return"(%7) : (i64) -> ()
  }) : () -> ()
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<f32 (i1, f32, f32, i32)>, linkage = #llvm.linkage<external>, sym_name = "control_flow", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
  ^bb0(%arg0: i1, %arg1: f32, %arg2: f32, %arg3: i32):
    "llvm.cond_br"(%arg0, %arg1)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (i1, f32) -> ()
  ^bb1:  // pred: ^bb0
    "llvm.br"(%arg2)[^bb2] : (f32) -> ()
  ^bb2(%0: f32):  // 2 preds: ^bb0, ^bb1
    "llvm.cond_br"(%arg0)[^bb3, ^bb4] <{branch_weights = array<i32: 90, 10>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i1) -> ()
  ^bb3:  // pred: ^bb2
    "llvm.switch"(%arg3, %0)[^bb4, ^bb5, ^bb4] <{case_operand_segments = array<i32: 1, 0>, case_values = dense<[1, -2]> : vector<2xi32>, operandSegmentSizes = array<i32: 1, 0, 1>}> : (i32, f32) -> ()
  ^bb4:  // 3 preds: ^bb2, ^bb3, ^bb3
    "llvm.switch"(%arg3, %arg1)[^bb5] <{case_operand_segments = array<i32>, operandSegmentSizes = array<i32: 1, 1, 0>}> : (i32, f32) -> ()
  ^bb5(%1: f32):  // 2 preds: ^bb3, ^bb4
    "llvm.return"(%1) : (f32) -> ()
  }) : () -> ()
  "llvm.func"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void ()>, linkage = #llvm.linkage<external>, sym_name = "unreachable", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({
    "llvm.unreachable"() : () -> ()
  }) : () -> ()
}) : () -> ()

