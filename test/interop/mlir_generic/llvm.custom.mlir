module {
  llvm.mlir.global internal constant @table(dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>) {addr_space = 0 : i32} : !llvm.array<4 x f32>
  llvm.mlir.global external @ext_global() {addr_space = 0 : i32} : !llvm.struct<(i32, ptr)>
  llvm.mlir.global private @counter(0 : i32) {addr_space = 0 : i32} : i32
  llvm.mlir.global private unnamed_addr constant @str("hi\00") {addr_space = 0 : i32, alignment = 8 : i64, dso_local, section = ".rodata"}
  llvm.mlir.global external hidden thread_local @tls(1.000000e+00 : f64) {addr_space = 0 : i32} : f64
  llvm.mlir.global weak local_unnamed_addr @gpu(dense<0> : vector<2xi32>) {addr_space = 1 : i32} : vector<2xi32>
  llvm.mlir.global internal @table_ptr() {addr_space = 0 : i32} : !llvm.ptr {
    %0 = llvm.mlir.addressof @table : !llvm.ptr
    llvm.return %0 : !llvm.ptr
  }
  llvm.func @printf(!llvm.ptr, ...) -> i32
  llvm.func @ext(i64) -> i64
  llvm.func local_unnamed_addr @ext_void(i32)
  llvm.func hidden @ext_hidden(!llvm.ptr {llvm.nocapture}) -> (i32 {llvm.zeroext})
  llvm.func @only_varargs(...)
  llvm.func internal fastcc @internal_fn(%arg0: i32) -> i32 attributes {dso_local} {
    llvm.return %arg0 : i32
  }
  llvm.func weak_odr hidden local_unnamed_addr fastcc @keywords(%arg0: i32) -> !llvm.struct<packed (i8, i32)> {
    %0 = llvm.mlir.undef : !llvm.struct<packed (i8, i32)>
    llvm.return %0 : !llvm.struct<packed (i8, i32)>
  }
  llvm.func @arg_attrs(%arg0: !llvm.ptr {llvm.align = 16 : i64, llvm.noalias}, %arg1: i64) -> f32 attributes {passthrough = ["nounwind"]} {
    %0 = llvm.load %arg0 : !llvm.ptr -> f32
    llvm.return %0 : f32
  }
  llvm.func @constants() {
    %0 = llvm.mlir.constant(1 : i64) : i64
    %1 = llvm.mlir.constant(1.500000e+00 : f32) : f32
    %2 = llvm.mlir.constant(true) : i1
    %3 = llvm.mlir.constant(dense<1.000000e+00> : vector<2xf32>) : vector<2xf32>
    %4 = llvm.mlir.constant(dense<[1, 2, 3, 4]> : vector<4xi32>) : vector<4xi32>
    %5 = llvm.mlir.undef : !llvm.struct<(i32, f32)>
    %6 = llvm.mlir.poison : f32
    %7 = llvm.mlir.zero : !llvm.ptr
    %8 = llvm.mlir.zero : !llvm.struct<"id", (i32, ptr)>
    %9 = llvm.mlir.addressof @table : !llvm.ptr
    %10 = llvm.mlir.addressof @ext : !llvm.ptr
    llvm.return
  }
  llvm.func @int_arith(%arg0: i32, %arg1: i32) {
    %0 = llvm.add %arg0, %arg1 overflow<nsw> : i32
    %1 = llvm.sub %arg0, %arg1 overflow<nuw> : i32
    %2 = llvm.mul %arg0, %arg1 : i32
    %3 = llvm.shl %arg0, %arg1 overflow<nsw, nuw> : i32
    %4 = llvm.udiv %arg0, %arg1 : i32
    %5 = llvm.sdiv exact %arg0, %arg1 : i32
    %6 = llvm.urem %arg0, %arg1 : i32
    %7 = llvm.srem %arg0, %arg1 : i32
    %8 = llvm.and %arg0, %arg1 : i32
    %9 = llvm.or disjoint %arg0, %arg1 : i32
    %10 = llvm.xor %arg0, %arg1 : i32
    %11 = llvm.lshr %arg0, %arg1 : i32
    %12 = llvm.ashr exact %arg0, %arg1 : i32
    llvm.return
  }
  llvm.func @float_arith(%arg0: f32, %arg1: vector<2xf32>) {
    %0 = llvm.fadd %arg0, %arg0 fastmath<fast> : f32
    %1 = llvm.fsub %arg0, %arg0 : f32
    %2 = llvm.fmul %arg0, %arg0 fastmath<nnan, ninf> : f32
    %3 = llvm.fdiv %arg0, %arg0 : f32
    %4 = llvm.frem %arg0, %arg0 : f32
    %5 = llvm.fneg %arg1 : vector<2xf32>
    %6 = llvm.fadd %arg1, %arg1 fastmath<contract> : vector<2xf32>
    llvm.return
  }
  llvm.func @compare_select(%arg0: i32, %arg1: i32, %arg2: f32, %arg3: vector<2xf32>, %arg4: !llvm.ptr) {
    %0 = llvm.icmp "eq" %arg0, %arg1 : i32
    %1 = llvm.icmp "ne" %arg0, %arg1 : i32
    %2 = llvm.icmp "slt" %arg0, %arg1 : i32
    %3 = llvm.icmp "sle" %arg0, %arg1 : i32
    %4 = llvm.icmp "sgt" %arg0, %arg1 : i32
    %5 = llvm.icmp "sge" %arg0, %arg1 : i32
    %6 = llvm.icmp "ult" %arg0, %arg1 : i32
    %7 = llvm.icmp "ule" %arg0, %arg1 : i32
    %8 = llvm.icmp "ugt" %arg0, %arg1 : i32
    %9 = llvm.icmp "uge" %arg0, %arg1 : i32
    %10 = llvm.icmp "eq" %arg4, %arg4 : !llvm.ptr
    %11 = llvm.fcmp "_false" %arg2, %arg2 : f32
    %12 = llvm.fcmp "oeq" %arg2, %arg2 : f32
    %13 = llvm.fcmp "ogt" %arg2, %arg2 : f32
    %14 = llvm.fcmp "oge" %arg2, %arg2 : f32
    %15 = llvm.fcmp "olt" %arg2, %arg2 : f32
    %16 = llvm.fcmp "ole" %arg2, %arg2 : f32
    %17 = llvm.fcmp "one" %arg2, %arg2 : f32
    %18 = llvm.fcmp "ord" %arg2, %arg2 : f32
    %19 = llvm.fcmp "ueq" %arg2, %arg2 : f32
    %20 = llvm.fcmp "ugt" %arg2, %arg2 : f32
    %21 = llvm.fcmp "uge" %arg2, %arg2 : f32
    %22 = llvm.fcmp "ult" %arg2, %arg2 : f32
    %23 = llvm.fcmp "ule" %arg2, %arg2 : f32
    %24 = llvm.fcmp "une" %arg2, %arg2 : f32
    %25 = llvm.fcmp "uno" %arg2, %arg2 fastmath<fast> : f32
    %26 = llvm.fcmp "_true" %arg3, %arg3 : vector<2xf32>
    %27 = llvm.select %0, %arg2, %arg2 : i1, f32
    %28 = llvm.select %26, %arg3, %arg3 fastmath<nsz> : vector<2xi1>, vector<2xf32>
    llvm.return
  }
  llvm.func @casts(%arg0: i32, %arg1: i64, %arg2: f32, %arg3: f64, %arg4: !llvm.ptr, %arg5: vector<2xi32>) {
    %0 = llvm.trunc %arg1 : i64 to i32
    %1 = llvm.trunc %arg1 overflow<nsw, nuw> : i64 to i32
    %2 = llvm.zext %arg0 : i32 to i64
    %3 = llvm.zext nneg %arg0 : i32 to i64
    %4 = llvm.sext %arg0 : i32 to i64
    %5 = llvm.fptrunc %arg3 : f64 to f32
    %6 = llvm.fpext %arg2 fastmath<nnan> : f32 to f64
    %7 = llvm.fptosi %arg2 : f32 to i32
    %8 = llvm.fptoui %arg2 : f32 to i32
    %9 = llvm.sitofp %arg0 : i32 to f32
    %10 = llvm.uitofp nneg %arg0 : i32 to f32
    %11 = llvm.ptrtoint %arg4 : !llvm.ptr to i64
    %12 = llvm.inttoptr %arg1 : i64 to !llvm.ptr
    %13 = llvm.bitcast %arg0 : i32 to f32
    %14 = llvm.bitcast %arg5 : vector<2xi32> to i64
    %15 = llvm.addrspacecast %arg4 : !llvm.ptr to !llvm.ptr<1>
    llvm.return
  }
  llvm.func @elements(%arg0: vector<4xf32>, %arg1: i32, %arg2: !llvm.struct<(i32, array<2 x f32>)>, %arg3: f32) {
    %0 = llvm.extractelement %arg0[%arg1 : i32] : vector<4xf32>
    %1 = llvm.insertelement %0, %arg0[%arg1 : i32] : vector<4xf32>
    %2 = llvm.shufflevector %1, %arg0 [0, 1, 4, 5] : vector<4xf32> 
    %3 = llvm.shufflevector %arg0, %arg0 [3, -1] : vector<4xf32> 
    %4 = llvm.extractvalue %arg2[0] : !llvm.struct<(i32, array<2 x f32>)> 
    %5 = llvm.extractvalue %arg2[1, 1] : !llvm.struct<(i32, array<2 x f32>)> 
    %6 = llvm.insertvalue %arg3, %arg2[1, 0] : !llvm.struct<(i32, array<2 x f32>)> 
    llvm.return
  }
  llvm.func @intrinsics(%arg0: f32, %arg1: f32, %arg2: f32, %arg3: vector<4xf32>, %arg4: !llvm.ptr, %arg5: !llvm.ptr, %arg6: i64, %arg7: i8) {
    %0 = llvm.intr.fma(%arg0, %arg1, %arg2) : (f32, f32, f32) -> f32
    %1 = llvm.intr.exp(%arg0) : (f32) -> f32
    %2 = llvm.intr.log(%arg0) fastmath<afn> : (f32) -> f32
    %3 = llvm.intr.sqrt(%arg3) : (vector<4xf32>) -> vector<4xf32>
    %4 = llvm.intr.fabs(%arg0) : (f32) -> f32
    %5 = llvm.intr.maxnum(%arg3, %arg3) : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
    %6 = llvm.intr.minnum(%arg0, %arg1) fastmath<fast> : (f32, f32) -> f32
    %7 = llvm.intr.pow(%arg0, %arg1) : (f32, f32) -> f32
    "llvm.intr.memcpy"(%arg4, %arg5, %arg6) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
    "llvm.intr.memset"(%arg4, %arg7, %arg6) <{isVolatile = true}> : (!llvm.ptr, i8, i64) -> ()
    llvm.return
  }
  llvm.func @memory(%arg0: !llvm.ptr, %arg1: i64, %arg2: i32, %arg3: f32) {
    %0 = llvm.alloca %arg1 x f32 {alignment = 8 : i64} : (i64) -> !llvm.ptr
    %1 = llvm.alloca inalloca %arg1 x !llvm.struct<(i32, f32)> : (i64) -> !llvm.ptr
    %2 = llvm.load %arg0 <alignment = 4> : !llvm.ptr -> f32
    %3 = llvm.load volatile %arg0 <alignment = 4, nontemporal> : !llvm.ptr -> f32
    %4 = llvm.load %arg0 atomic syncscope("agent") monotonic invariant <alignment = 4> : !llvm.ptr -> i32
    llvm.store %arg3, %0 : f32, !llvm.ptr
    llvm.store %arg3, %0 <alignment = 16> : f32, !llvm.ptr
    llvm.store volatile %arg3, %0 invariant_group <nontemporal> : f32, !llvm.ptr
    llvm.store %4, %arg0 atomic seq_cst <alignment = 4> : i32, !llvm.ptr
    %5 = llvm.getelementptr %arg0[1] : (!llvm.ptr) -> !llvm.ptr, f32
    %6 = llvm.getelementptr inbounds %arg0[%arg1, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(f32, i32)>
    %7 = llvm.getelementptr nuw %arg0[%arg2] : (!llvm.ptr, i32) -> !llvm.ptr, i8
    %8 = llvm.getelementptr inbounds|nuw %arg0[0, %arg2, 2] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x struct<(i32, f32, ptr)>>
    %9 = llvm.getelementptr nusw %arg0[-1] : (!llvm.ptr) -> !llvm.ptr, i64
    llvm.return
  }
  llvm.func @calls(%arg0: i64, %arg1: !llvm.ptr, %arg2: i32) -> i64 {
    %0 = llvm.call @ext(%arg0) : (i64) -> i64
    llvm.call @ext_void(%arg2) : (i32) -> ()
    %1 = llvm.call @printf(%arg1, %arg2, %arg0) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32, i64) -> i32
    %2 = llvm.call fastcc tail @internal_fn(%arg2) : (i32) -> i32
    %3 = llvm.call @ext(%arg0) {fastmathFlags = #llvm.fastmath<fast>} : (i64) -> i64
    %4 = llvm.mlir.addressof @ext : !llvm.ptr
    %5 = llvm.call %4(%arg0) : !llvm.ptr, (i64) -> i64
    llvm.return %5 : i64
  }
  llvm.func @control_flow(%arg0: i1, %arg1: f32, %arg2: f32, %arg3: i32) -> f32 {
    llvm.cond_br %arg0, ^bb1, ^bb2(%arg1 : f32)
  ^bb1:  // pred: ^bb0
    llvm.br ^bb2(%arg2 : f32)
  ^bb2(%0: f32):  // 2 preds: ^bb0, ^bb1
    llvm.cond_br %arg0 weights([90, 10]), ^bb3, ^bb4
  ^bb3:  // pred: ^bb2
    llvm.switch %arg3 : i32, ^bb4 [
      1: ^bb5(%0 : f32),
      -2: ^bb4
    ]
  ^bb4:  // 3 preds: ^bb2, ^bb3, ^bb3
    llvm.switch %arg3 : i32, ^bb5(%arg1 : f32) [
    ]
  ^bb5(%1: f32):  // 2 preds: ^bb3, ^bb4
    llvm.return %1 : f32
  }
  llvm.func @unreachable() {
    llvm.unreachable
  }
}

