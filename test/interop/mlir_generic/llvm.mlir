// Interop input for the llvm dialect: MLIR's prints of it are llvm.generic.mlir and llvm.custom.mlir
// (generated once with iree-opt --mlir-print-op-generic / iree-opt).

llvm.mlir.global internal constant @table(dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>) {addr_space = 0 : i32} : !llvm.array<4 x f32>
llvm.mlir.global external @ext_global() {addr_space = 0 : i32} : !llvm.struct<(i32, ptr)>
llvm.mlir.global private @counter(0 : i32) {addr_space = 0 : i32} : i32
llvm.mlir.global private unnamed_addr constant @str("hi\00") {addr_space = 0 : i32, alignment = 8 : i64, dso_local, section = ".rodata"}
llvm.mlir.global external hidden thread_local @tls(1.0 : f64) {addr_space = 0 : i32} : f64
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

llvm.func @arg_attrs(%arg0: !llvm.ptr {llvm.noalias, llvm.align = 16 : i64}, %arg1: i64) -> f32 attributes {passthrough = ["nounwind"]} {
  %0 = llvm.load %arg0 : !llvm.ptr -> f32
  llvm.return %0 : f32
}

llvm.func @constants() {
  %0 = llvm.mlir.constant(1 : i64) : i64
  %1 = llvm.mlir.constant(1.5 : f32) : f32
  %2 = llvm.mlir.constant(true) : i1
  %3 = llvm.mlir.constant(dense<1.0> : vector<2xf32>) : vector<2xf32>
  %4 = llvm.mlir.constant(dense<[1, 2, 3, 4]> : vector<4xi32>) : vector<4xi32>
  %5 = llvm.mlir.undef : !llvm.struct<(i32, f32)>
  %6 = llvm.mlir.poison : f32
  %7 = llvm.mlir.zero : !llvm.ptr
  %8 = llvm.mlir.zero : !llvm.struct<"id", (i32, ptr)>
  %9 = llvm.mlir.addressof @table : !llvm.ptr
  %10 = llvm.mlir.addressof @ext : !llvm.ptr
  llvm.return
}

llvm.func @int_arith(%a: i32, %b: i32) {
  %0 = llvm.add %a, %b overflow<nsw> : i32
  %1 = llvm.sub %a, %b overflow<nuw> : i32
  %2 = llvm.mul %a, %b : i32
  %3 = llvm.shl %a, %b overflow<nsw, nuw> : i32
  %4 = llvm.udiv %a, %b : i32
  %5 = llvm.sdiv exact %a, %b : i32
  %6 = llvm.urem %a, %b : i32
  %7 = llvm.srem %a, %b : i32
  %8 = llvm.and %a, %b : i32
  %9 = llvm.or disjoint %a, %b : i32
  %10 = llvm.xor %a, %b : i32
  %11 = llvm.lshr %a, %b : i32
  %12 = llvm.ashr exact %a, %b : i32
  llvm.return
}

llvm.func @float_arith(%f: f32, %v: vector<2xf32>) {
  %0 = llvm.fadd %f, %f fastmath<fast> : f32
  %1 = llvm.fsub %f, %f : f32
  %2 = llvm.fmul %f, %f fastmath<nnan, ninf> : f32
  %3 = llvm.fdiv %f, %f : f32
  %4 = llvm.frem %f, %f : f32
  %5 = llvm.fneg %v : vector<2xf32>
  %6 = llvm.fadd %v, %v fastmath<contract> : vector<2xf32>
  llvm.return
}

llvm.func @compare_select(%a: i32, %b: i32, %f: f32, %v: vector<2xf32>, %p: !llvm.ptr) {
  %0 = llvm.icmp "eq" %a, %b : i32
  %1 = llvm.icmp "ne" %a, %b : i32
  %2 = llvm.icmp "slt" %a, %b : i32
  %3 = llvm.icmp "sle" %a, %b : i32
  %4 = llvm.icmp "sgt" %a, %b : i32
  %5 = llvm.icmp "sge" %a, %b : i32
  %6 = llvm.icmp "ult" %a, %b : i32
  %7 = llvm.icmp "ule" %a, %b : i32
  %8 = llvm.icmp "ugt" %a, %b : i32
  %9 = llvm.icmp "uge" %a, %b : i32
  %10 = llvm.icmp "eq" %p, %p : !llvm.ptr
  %11 = llvm.fcmp "_false" %f, %f : f32
  %12 = llvm.fcmp "oeq" %f, %f : f32
  %13 = llvm.fcmp "ogt" %f, %f : f32
  %14 = llvm.fcmp "oge" %f, %f : f32
  %15 = llvm.fcmp "olt" %f, %f : f32
  %16 = llvm.fcmp "ole" %f, %f : f32
  %17 = llvm.fcmp "one" %f, %f : f32
  %18 = llvm.fcmp "ord" %f, %f : f32
  %19 = llvm.fcmp "ueq" %f, %f : f32
  %20 = llvm.fcmp "ugt" %f, %f : f32
  %21 = llvm.fcmp "uge" %f, %f : f32
  %22 = llvm.fcmp "ult" %f, %f : f32
  %23 = llvm.fcmp "ule" %f, %f : f32
  %24 = llvm.fcmp "une" %f, %f : f32
  %25 = llvm.fcmp "uno" %f, %f fastmath<fast> : f32
  %26 = llvm.fcmp "_true" %v, %v : vector<2xf32>
  %27 = llvm.select %0, %f, %f : i1, f32
  %28 = llvm.select %26, %v, %v fastmath<nsz> : vector<2xi1>, vector<2xf32>
  llvm.return
}

llvm.func @casts(%i: i32, %l: i64, %f: f32, %d: f64, %p: !llvm.ptr, %v: vector<2xi32>) {
  %0 = llvm.trunc %l : i64 to i32
  %1 = llvm.trunc %l overflow<nsw, nuw> : i64 to i32
  %2 = llvm.zext %i : i32 to i64
  %3 = llvm.zext nneg %i : i32 to i64
  %4 = llvm.sext %i : i32 to i64
  %5 = llvm.fptrunc %d : f64 to f32
  %6 = llvm.fpext %f fastmath<nnan> : f32 to f64
  %7 = llvm.fptosi %f : f32 to i32
  %8 = llvm.fptoui %f : f32 to i32
  %9 = llvm.sitofp %i : i32 to f32
  %10 = llvm.uitofp nneg %i : i32 to f32
  %11 = llvm.ptrtoint %p : !llvm.ptr to i64
  %12 = llvm.inttoptr %l : i64 to !llvm.ptr
  %13 = llvm.bitcast %i : i32 to f32
  %14 = llvm.bitcast %v : vector<2xi32> to i64
  %15 = llvm.addrspacecast %p : !llvm.ptr to !llvm.ptr<1>
  llvm.return
}

llvm.func @elements(%v: vector<4xf32>, %i: i32, %s: !llvm.struct<(i32, array<2 x f32>)>, %x: f32) {
  %0 = llvm.extractelement %v[%i : i32] : vector<4xf32>
  %1 = llvm.insertelement %0, %v[%i : i32] : vector<4xf32>
  %2 = llvm.shufflevector %1, %v [0, 1, 4, 5] : vector<4xf32>
  %3 = llvm.shufflevector %v, %v [3, -1] : vector<4xf32>
  %4 = llvm.extractvalue %s[0] : !llvm.struct<(i32, array<2 x f32>)>
  %5 = llvm.extractvalue %s[1, 1] : !llvm.struct<(i32, array<2 x f32>)>
  %6 = llvm.insertvalue %x, %s[1, 0] : !llvm.struct<(i32, array<2 x f32>)>
  llvm.return
}

llvm.func @intrinsics(%a: f32, %b: f32, %c: f32, %v: vector<4xf32>, %p: !llvm.ptr, %q: !llvm.ptr, %n: i64, %byte: i8) {
  %0 = llvm.intr.fma(%a, %b, %c) : (f32, f32, f32) -> f32
  %1 = llvm.intr.exp(%a) : (f32) -> f32
  %2 = llvm.intr.log(%a) fastmath<afn> : (f32) -> f32
  %3 = llvm.intr.sqrt(%v) : (vector<4xf32>) -> vector<4xf32>
  %4 = llvm.intr.fabs(%a) : (f32) -> f32
  %5 = llvm.intr.maxnum(%v, %v) : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
  %6 = llvm.intr.minnum(%a, %b) fastmath<fast> : (f32, f32) -> f32
  %7 = llvm.intr.pow(%a, %b) : (f32, f32) -> f32
  "llvm.intr.memcpy"(%p, %q, %n) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  "llvm.intr.memset"(%p, %byte, %n) <{isVolatile = true}> : (!llvm.ptr, i8, i64) -> ()
  llvm.return
}

llvm.func @memory(%p: !llvm.ptr, %n: i64, %i: i32, %f: f32) {
  %0 = llvm.alloca %n x f32 {alignment = 8 : i64} : (i64) -> !llvm.ptr
  %1 = llvm.alloca inalloca %n x !llvm.struct<(i32, f32)> : (i64) -> !llvm.ptr
  %2 = llvm.load %p <alignment = 4> : !llvm.ptr -> f32
  %3 = llvm.load volatile %p <alignment = 4, nontemporal> : !llvm.ptr -> f32
  %4 = llvm.load %p atomic syncscope("agent") monotonic invariant <alignment = 4> : !llvm.ptr -> i32
  llvm.store %f, %0 : f32, !llvm.ptr
  llvm.store %f, %0 <alignment = 16> : f32, !llvm.ptr
  llvm.store volatile %f, %0 invariant_group <nontemporal> : f32, !llvm.ptr
  llvm.store %4, %p atomic seq_cst <alignment = 4> : i32, !llvm.ptr
  %5 = llvm.getelementptr %p[1] : (!llvm.ptr) -> !llvm.ptr, f32
  %6 = llvm.getelementptr inbounds %p[%n, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(f32, i32)>
  %7 = llvm.getelementptr nuw %p[%i] : (!llvm.ptr, i32) -> !llvm.ptr, i8
  %8 = llvm.getelementptr inbounds|nuw %p[0, %i, 2] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x struct<(i32, f32, ptr)>>
  %9 = llvm.getelementptr nusw %p[-1] : (!llvm.ptr) -> !llvm.ptr, i64
  llvm.return
}

llvm.func @calls(%a: i64, %p: !llvm.ptr, %i: i32) -> i64 {
  %0 = llvm.call @ext(%a) : (i64) -> i64
  llvm.call @ext_void(%i) : (i32) -> ()
  %1 = llvm.call @printf(%p, %i, %a) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32, i64) -> i32
  %2 = llvm.call fastcc tail @internal_fn(%i) : (i32) -> i32
  %3 = llvm.call @ext(%a) {fastmathFlags = #llvm.fastmath<fast>} : (i64) -> i64
  %4 = llvm.mlir.addressof @ext : !llvm.ptr
  %5 = llvm.call %4(%a) : !llvm.ptr, (i64) -> i64
  llvm.return %5 : i64
}

llvm.func @control_flow(%c: i1, %x: f32, %y: f32, %v: i32) -> f32 {
  llvm.cond_br %c, ^bb1, ^bb2(%x : f32)
^bb1:
  llvm.br ^bb2(%y : f32)
^bb2(%z: f32):
  llvm.cond_br %c weights([90, 10]), ^bb3, ^bb4
^bb3:
  llvm.switch %v : i32, ^bb4 [
    1: ^bb5(%z : f32),
    -2: ^bb4
  ]
^bb4:
  llvm.switch %v : i32, ^bb5(%x : f32) [
  ]
^bb5(%r: f32):
  llvm.return %r : f32
}

llvm.func @unreachable() {
  llvm.unreachable
}
