// RUN: mlc-opt %s | mlc-opt | filecheck %s
// RUN: mlc-opt %s --mlir-print-op-generic | mlc-opt | filecheck %s

// Every llvm op in its custom form; the custom and the generic print read back the same.

// CHECK: llvm.mlir.global internal constant @table(dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>) {addr_space = 0 : i32} : !llvm.array<4 x f32>
llvm.mlir.global internal constant @table(dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>) {addr_space = 0 : i32} : !llvm.array<4 x f32>
// CHECK: llvm.mlir.global external @ext_global() {addr_space = 0 : i32} : !llvm.struct<(i32, ptr)>
llvm.mlir.global external @ext_global() {addr_space = 0 : i32} : !llvm.struct<(i32, ptr)>
// CHECK: llvm.mlir.global private @counter(0 : i32) {addr_space = 0 : i32} : i32
llvm.mlir.global private @counter(0 : i32) {addr_space = 0 : i32} : i32
// CHECK: llvm.mlir.global private unnamed_addr constant @str("hi\00") {addr_space = 0 : i32, alignment = 8 : i64, dso_local, section = ".rodata"}
llvm.mlir.global private unnamed_addr constant @str("hi\00") {addr_space = 0 : i32, alignment = 8 : i64, dso_local, section = ".rodata"}
// CHECK: llvm.mlir.global external hidden thread_local @tls(1.000000e+00 : f64) {addr_space = 0 : i32} : f64
llvm.mlir.global external hidden thread_local @tls(1.0 : f64) {addr_space = 0 : i32} : f64
// CHECK: llvm.mlir.global weak local_unnamed_addr @gpu(dense<0> : vector<2xi32>) {addr_space = 1 : i32} : vector<2xi32>
llvm.mlir.global weak local_unnamed_addr @gpu(dense<0> : vector<2xi32>) {addr_space = 1 : i32} : vector<2xi32>
// CHECK: llvm.mlir.global internal @table_ptr() {addr_space = 0 : i32} : !llvm.ptr {
// CHECK: %[[V0:[a-z0-9_]+]] = llvm.mlir.addressof @table : !llvm.ptr
// CHECK: llvm.return %[[V0]] : !llvm.ptr
llvm.mlir.global internal @table_ptr() {addr_space = 0 : i32} : !llvm.ptr {
  %0 = llvm.mlir.addressof @table : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}

// CHECK-LABEL: llvm.func @printf(
// CHECK-SAME: !llvm.ptr, ...) -> i32
llvm.func @printf(!llvm.ptr, ...) -> i32
// CHECK-LABEL: llvm.func @ext(
// CHECK-SAME: i64) -> i64
llvm.func @ext(i64) -> i64
// CHECK-LABEL: llvm.func local_unnamed_addr @ext_void(
// CHECK-SAME: i32)
llvm.func local_unnamed_addr @ext_void(i32)
// CHECK-LABEL: llvm.func hidden @ext_hidden(
// CHECK-SAME: !llvm.ptr {llvm.nocapture}) -> (i32 {llvm.zeroext})
llvm.func hidden @ext_hidden(!llvm.ptr {llvm.nocapture}) -> (i32 {llvm.zeroext})
// CHECK-LABEL: llvm.func @only_varargs(
// CHECK-SAME: ...)
llvm.func @only_varargs(...)

// CHECK-LABEL: llvm.func internal fastcc @internal_fn(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: i32) -> i32 attributes {dso_local} {
// CHECK: llvm.return %[[ARG0]] : i32
llvm.func internal fastcc @internal_fn(%arg0: i32) -> i32 attributes {dso_local} {
  llvm.return %arg0 : i32
}

// CHECK-LABEL: llvm.func weak_odr hidden local_unnamed_addr fastcc @keywords(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: i32) -> !llvm.struct<packed (i8, i32)> {
// CHECK: %[[V0:[a-z0-9_]+]] = llvm.mlir.undef : !llvm.struct<packed (i8, i32)>
// CHECK: llvm.return %[[V0]] : !llvm.struct<packed (i8, i32)>
llvm.func weak_odr hidden local_unnamed_addr fastcc @keywords(%arg0: i32) -> !llvm.struct<packed (i8, i32)> {
  %0 = llvm.mlir.undef : !llvm.struct<packed (i8, i32)>
  llvm.return %0 : !llvm.struct<packed (i8, i32)>
}

// CHECK-LABEL: llvm.func @arg_attrs(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: !llvm.ptr {llvm.align = 16 : i64, llvm.noalias}, %[[ARG1:[a-z0-9_]+]]: i64) -> f32 attributes {passthrough = ["nounwind"]} {
// CHECK: %[[V0:[a-z0-9_]+]] = llvm.load %[[ARG0]] : !llvm.ptr -> f32
// CHECK: llvm.return %[[V0]] : f32
llvm.func @arg_attrs(%arg0: !llvm.ptr {llvm.noalias, llvm.align = 16 : i64}, %arg1: i64) -> f32 attributes {passthrough = ["nounwind"]} {
  %0 = llvm.load %arg0 : !llvm.ptr -> f32
  llvm.return %0 : f32
}

// CHECK-LABEL: llvm.func @constants(
// CHECK-SAME: ) {
// CHECK: %[[V0:[a-z0-9_]+]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[V1:[a-z0-9_]+]] = llvm.mlir.constant(1.500000e+00 : f32) : f32
// CHECK: %[[V2:[a-z0-9_]+]] = llvm.mlir.constant(true) : i1
// CHECK: %[[V3:[a-z0-9_]+]] = llvm.mlir.constant(dense<1.000000e+00> : vector<2xf32>) : vector<2xf32>
// CHECK: %[[V4:[a-z0-9_]+]] = llvm.mlir.constant(dense<[1, 2, 3, 4]> : vector<4xi32>) : vector<4xi32>
// CHECK: %[[V5:[a-z0-9_]+]] = llvm.mlir.undef : !llvm.struct<(i32, f32)>
// CHECK: %[[V6:[a-z0-9_]+]] = llvm.mlir.poison : f32
// CHECK: %[[V7:[a-z0-9_]+]] = llvm.mlir.zero : !llvm.ptr
// CHECK: %[[V8:[a-z0-9_]+]] = llvm.mlir.zero : !llvm.struct<"id", (i32, ptr)>
// CHECK: %[[V9:[a-z0-9_]+]] = llvm.mlir.addressof @table : !llvm.ptr
// CHECK: %[[V10:[a-z0-9_]+]] = llvm.mlir.addressof @ext : !llvm.ptr
// CHECK: llvm.return
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

// CHECK-LABEL: llvm.func @int_arith(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: i32, %[[ARG1:[a-z0-9_]+]]: i32) {
// CHECK: %[[V0:[a-z0-9_]+]] = llvm.add %[[ARG0]], %[[ARG1]] overflow<nsw> : i32
// CHECK: %[[V1:[a-z0-9_]+]] = llvm.sub %[[ARG0]], %[[ARG1]] overflow<nuw> : i32
// CHECK: %[[V2:[a-z0-9_]+]] = llvm.mul %[[ARG0]], %[[ARG1]] : i32
// CHECK: %[[V3:[a-z0-9_]+]] = llvm.shl %[[ARG0]], %[[ARG1]] overflow<nsw, nuw> : i32
// CHECK: %[[V4:[a-z0-9_]+]] = llvm.udiv %[[ARG0]], %[[ARG1]] : i32
// CHECK: %[[V5:[a-z0-9_]+]] = llvm.sdiv exact %[[ARG0]], %[[ARG1]] : i32
// CHECK: %[[V6:[a-z0-9_]+]] = llvm.urem %[[ARG0]], %[[ARG1]] : i32
// CHECK: %[[V7:[a-z0-9_]+]] = llvm.srem %[[ARG0]], %[[ARG1]] : i32
// CHECK: %[[V8:[a-z0-9_]+]] = llvm.and %[[ARG0]], %[[ARG1]] : i32
// CHECK: %[[V9:[a-z0-9_]+]] = llvm.or disjoint %[[ARG0]], %[[ARG1]] : i32
// CHECK: %[[V10:[a-z0-9_]+]] = llvm.xor %[[ARG0]], %[[ARG1]] : i32
// CHECK: %[[V11:[a-z0-9_]+]] = llvm.lshr %[[ARG0]], %[[ARG1]] : i32
// CHECK: %[[V12:[a-z0-9_]+]] = llvm.ashr exact %[[ARG0]], %[[ARG1]] : i32
// CHECK: llvm.return
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

// CHECK-LABEL: llvm.func @float_arith(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: f32, %[[ARG1:[a-z0-9_]+]]: vector<2xf32>) {
// CHECK: %[[V0:[a-z0-9_]+]] = llvm.fadd %[[ARG0]], %[[ARG0]] fastmath<fast> : f32
// CHECK: %[[V1:[a-z0-9_]+]] = llvm.fsub %[[ARG0]], %[[ARG0]] : f32
// CHECK: %[[V2:[a-z0-9_]+]] = llvm.fmul %[[ARG0]], %[[ARG0]] fastmath<nnan, ninf> : f32
// CHECK: %[[V3:[a-z0-9_]+]] = llvm.fdiv %[[ARG0]], %[[ARG0]] : f32
// CHECK: %[[V4:[a-z0-9_]+]] = llvm.frem %[[ARG0]], %[[ARG0]] : f32
// CHECK: %[[V5:[a-z0-9_]+]] = llvm.fneg %[[ARG1]] : vector<2xf32>
// CHECK: %[[V6:[a-z0-9_]+]] = llvm.fadd %[[ARG1]], %[[ARG1]] fastmath<contract> : vector<2xf32>
// CHECK: llvm.return
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

// CHECK-LABEL: llvm.func @compare_select(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: i32, %[[ARG1:[a-z0-9_]+]]: i32, %[[ARG2:[a-z0-9_]+]]: f32, %[[ARG3:[a-z0-9_]+]]: vector<2xf32>, %[[ARG4:[a-z0-9_]+]]: !llvm.ptr) {
// CHECK: %[[V0:[a-z0-9_]+]] = llvm.icmp "eq" %[[ARG0]], %[[ARG1]] : i32
// CHECK: %[[V1:[a-z0-9_]+]] = llvm.icmp "ne" %[[ARG0]], %[[ARG1]] : i32
// CHECK: %[[V2:[a-z0-9_]+]] = llvm.icmp "slt" %[[ARG0]], %[[ARG1]] : i32
// CHECK: %[[V3:[a-z0-9_]+]] = llvm.icmp "sle" %[[ARG0]], %[[ARG1]] : i32
// CHECK: %[[V4:[a-z0-9_]+]] = llvm.icmp "sgt" %[[ARG0]], %[[ARG1]] : i32
// CHECK: %[[V5:[a-z0-9_]+]] = llvm.icmp "sge" %[[ARG0]], %[[ARG1]] : i32
// CHECK: %[[V6:[a-z0-9_]+]] = llvm.icmp "ult" %[[ARG0]], %[[ARG1]] : i32
// CHECK: %[[V7:[a-z0-9_]+]] = llvm.icmp "ule" %[[ARG0]], %[[ARG1]] : i32
// CHECK: %[[V8:[a-z0-9_]+]] = llvm.icmp "ugt" %[[ARG0]], %[[ARG1]] : i32
// CHECK: %[[V9:[a-z0-9_]+]] = llvm.icmp "uge" %[[ARG0]], %[[ARG1]] : i32
// CHECK: %[[V10:[a-z0-9_]+]] = llvm.icmp "eq" %[[ARG4]], %[[ARG4]] : !llvm.ptr
// CHECK: %[[V11:[a-z0-9_]+]] = llvm.fcmp "_false" %[[ARG2]], %[[ARG2]] : f32
// CHECK: %[[V12:[a-z0-9_]+]] = llvm.fcmp "oeq" %[[ARG2]], %[[ARG2]] : f32
// CHECK: %[[V13:[a-z0-9_]+]] = llvm.fcmp "ogt" %[[ARG2]], %[[ARG2]] : f32
// CHECK: %[[V14:[a-z0-9_]+]] = llvm.fcmp "oge" %[[ARG2]], %[[ARG2]] : f32
// CHECK: %[[V15:[a-z0-9_]+]] = llvm.fcmp "olt" %[[ARG2]], %[[ARG2]] : f32
// CHECK: %[[V16:[a-z0-9_]+]] = llvm.fcmp "ole" %[[ARG2]], %[[ARG2]] : f32
// CHECK: %[[V17:[a-z0-9_]+]] = llvm.fcmp "one" %[[ARG2]], %[[ARG2]] : f32
// CHECK: %[[V18:[a-z0-9_]+]] = llvm.fcmp "ord" %[[ARG2]], %[[ARG2]] : f32
// CHECK: %[[V19:[a-z0-9_]+]] = llvm.fcmp "ueq" %[[ARG2]], %[[ARG2]] : f32
// CHECK: %[[V20:[a-z0-9_]+]] = llvm.fcmp "ugt" %[[ARG2]], %[[ARG2]] : f32
// CHECK: %[[V21:[a-z0-9_]+]] = llvm.fcmp "uge" %[[ARG2]], %[[ARG2]] : f32
// CHECK: %[[V22:[a-z0-9_]+]] = llvm.fcmp "ult" %[[ARG2]], %[[ARG2]] : f32
// CHECK: %[[V23:[a-z0-9_]+]] = llvm.fcmp "ule" %[[ARG2]], %[[ARG2]] : f32
// CHECK: %[[V24:[a-z0-9_]+]] = llvm.fcmp "une" %[[ARG2]], %[[ARG2]] : f32
// CHECK: %[[V25:[a-z0-9_]+]] = llvm.fcmp "uno" %[[ARG2]], %[[ARG2]] fastmath<fast> : f32
// CHECK: %[[V26:[a-z0-9_]+]] = llvm.fcmp "_true" %[[ARG3]], %[[ARG3]] : vector<2xf32>
// CHECK: %[[V27:[a-z0-9_]+]] = llvm.select %[[V0]], %[[ARG2]], %[[ARG2]] : i1, f32
// CHECK: %[[V28:[a-z0-9_]+]] = llvm.select %[[V26]], %[[ARG3]], %[[ARG3]] fastmath<nsz> : vector<2xi1>, vector<2xf32>
// CHECK: llvm.return
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

// CHECK-LABEL: llvm.func @casts(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: i32, %[[ARG1:[a-z0-9_]+]]: i64, %[[ARG2:[a-z0-9_]+]]: f32, %[[ARG3:[a-z0-9_]+]]: f64, %[[ARG4:[a-z0-9_]+]]: !llvm.ptr, %[[ARG5:[a-z0-9_]+]]: vector<2xi32>) {
// CHECK: %[[V0:[a-z0-9_]+]] = llvm.trunc %[[ARG1]] : i64 to i32
// CHECK: %[[V1:[a-z0-9_]+]] = llvm.trunc %[[ARG1]] overflow<nsw, nuw> : i64 to i32
// CHECK: %[[V2:[a-z0-9_]+]] = llvm.zext %[[ARG0]] : i32 to i64
// CHECK: %[[V3:[a-z0-9_]+]] = llvm.zext nneg %[[ARG0]] : i32 to i64
// CHECK: %[[V4:[a-z0-9_]+]] = llvm.sext %[[ARG0]] : i32 to i64
// CHECK: %[[V5:[a-z0-9_]+]] = llvm.fptrunc %[[ARG3]] : f64 to f32
// CHECK: %[[V6:[a-z0-9_]+]] = llvm.fpext %[[ARG2]] fastmath<nnan> : f32 to f64
// CHECK: %[[V7:[a-z0-9_]+]] = llvm.fptosi %[[ARG2]] : f32 to i32
// CHECK: %[[V8:[a-z0-9_]+]] = llvm.fptoui %[[ARG2]] : f32 to i32
// CHECK: %[[V9:[a-z0-9_]+]] = llvm.sitofp %[[ARG0]] : i32 to f32
// CHECK: %[[V10:[a-z0-9_]+]] = llvm.uitofp nneg %[[ARG0]] : i32 to f32
// CHECK: %[[V11:[a-z0-9_]+]] = llvm.ptrtoint %[[ARG4]] : !llvm.ptr to i64
// CHECK: %[[V12:[a-z0-9_]+]] = llvm.inttoptr %[[ARG1]] : i64 to !llvm.ptr
// CHECK: %[[V13:[a-z0-9_]+]] = llvm.bitcast %[[ARG0]] : i32 to f32
// CHECK: %[[V14:[a-z0-9_]+]] = llvm.bitcast %[[ARG5]] : vector<2xi32> to i64
// CHECK: %[[V15:[a-z0-9_]+]] = llvm.addrspacecast %[[ARG4]] : !llvm.ptr to !llvm.ptr<1>
// CHECK: llvm.return
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

// CHECK-LABEL: llvm.func @elements(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: vector<4xf32>, %[[ARG1:[a-z0-9_]+]]: i32, %[[ARG2:[a-z0-9_]+]]: !llvm.struct<(i32, array<2 x f32>)>, %[[ARG3:[a-z0-9_]+]]: f32) {
// CHECK: %[[V0:[a-z0-9_]+]] = llvm.extractelement %[[ARG0]][%[[ARG1]] : i32] : vector<4xf32>
// CHECK: %[[V1:[a-z0-9_]+]] = llvm.insertelement %[[V0]], %[[ARG0]][%[[ARG1]] : i32] : vector<4xf32>
// CHECK: %[[V2:[a-z0-9_]+]] = llvm.shufflevector %[[V1]], %[[ARG0]] [0, 1, 4, 5] : vector<4xf32>
// CHECK: %[[V3:[a-z0-9_]+]] = llvm.shufflevector %[[ARG0]], %[[ARG0]] [3, -1] : vector<4xf32>
// CHECK: %[[V4:[a-z0-9_]+]] = llvm.extractvalue %[[ARG2]][0] : !llvm.struct<(i32, array<2 x f32>)>
// CHECK: %[[V5:[a-z0-9_]+]] = llvm.extractvalue %[[ARG2]][1, 1] : !llvm.struct<(i32, array<2 x f32>)>
// CHECK: %[[V6:[a-z0-9_]+]] = llvm.insertvalue %[[ARG3]], %[[ARG2]][1, 0] : !llvm.struct<(i32, array<2 x f32>)>
// CHECK: llvm.return
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

// CHECK-LABEL: llvm.func @intrinsics(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: f32, %[[ARG1:[a-z0-9_]+]]: f32, %[[ARG2:[a-z0-9_]+]]: f32, %[[ARG3:[a-z0-9_]+]]: vector<4xf32>, %[[ARG4:[a-z0-9_]+]]: !llvm.ptr, %[[ARG5:[a-z0-9_]+]]: !llvm.ptr, %[[ARG6:[a-z0-9_]+]]: i64, %[[ARG7:[a-z0-9_]+]]: i8) {
// CHECK: %[[V0:[a-z0-9_]+]] = llvm.intr.fma(%[[ARG0]], %[[ARG1]], %[[ARG2]]) : (f32, f32, f32) -> f32
// CHECK: %[[V1:[a-z0-9_]+]] = llvm.intr.exp(%[[ARG0]]) : (f32) -> f32
// CHECK: %[[V2:[a-z0-9_]+]] = llvm.intr.log(%[[ARG0]]) fastmath<afn> : (f32) -> f32
// CHECK: %[[V3:[a-z0-9_]+]] = llvm.intr.sqrt(%[[ARG3]]) : (vector<4xf32>) -> vector<4xf32>
// CHECK: %[[V4:[a-z0-9_]+]] = llvm.intr.fabs(%[[ARG0]]) : (f32) -> f32
// CHECK: %[[V5:[a-z0-9_]+]] = llvm.intr.maxnum(%[[ARG3]], %[[ARG3]]) : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// CHECK: %[[V6:[a-z0-9_]+]] = llvm.intr.minnum(%[[ARG0]], %[[ARG1]]) fastmath<fast> : (f32, f32) -> f32
// CHECK: %[[V7:[a-z0-9_]+]] = llvm.intr.pow(%[[ARG0]], %[[ARG1]]) : (f32, f32) -> f32
// CHECK: "llvm.intr.memcpy"(%[[ARG4]], %[[ARG5]], %[[ARG6]]) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK: "llvm.intr.memset"(%[[ARG4]], %[[ARG7]], %[[ARG6]]) <{isVolatile = true}> : (!llvm.ptr, i8, i64) -> ()
// CHECK: llvm.return
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

// CHECK-LABEL: llvm.func @memory(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: !llvm.ptr, %[[ARG1:[a-z0-9_]+]]: i64, %[[ARG2:[a-z0-9_]+]]: i32, %[[ARG3:[a-z0-9_]+]]: f32) {
// CHECK: %[[V0:[a-z0-9_]+]] = llvm.alloca %[[ARG1]] x f32 {alignment = 8 : i64} : (i64) -> !llvm.ptr
// CHECK: %[[V1:[a-z0-9_]+]] = llvm.alloca inalloca %[[ARG1]] x !llvm.struct<(i32, f32)> : (i64) -> !llvm.ptr
// CHECK: %[[V2:[a-z0-9_]+]] = llvm.load %[[ARG0]] <alignment = 4> : !llvm.ptr -> f32
// CHECK: %[[V3:[a-z0-9_]+]] = llvm.load volatile %[[ARG0]] <alignment = 4, nontemporal> : !llvm.ptr -> f32
// CHECK: %[[V4:[a-z0-9_]+]] = llvm.load %[[ARG0]] atomic syncscope("agent") monotonic invariant <alignment = 4> : !llvm.ptr -> i32
// CHECK: llvm.store %[[ARG3]], %[[V0]] : f32, !llvm.ptr
// CHECK: llvm.store %[[ARG3]], %[[V0]] <alignment = 16> : f32, !llvm.ptr
// CHECK: llvm.store volatile %[[ARG3]], %[[V0]] invariant_group <nontemporal> : f32, !llvm.ptr
// CHECK: llvm.store %[[V4]], %[[ARG0]] atomic seq_cst <alignment = 4> : i32, !llvm.ptr
// CHECK: %[[V5:[a-z0-9_]+]] = llvm.getelementptr %[[ARG0]][1] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK: %[[V6:[a-z0-9_]+]] = llvm.getelementptr inbounds %[[ARG0]][%[[ARG1]], 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(f32, i32)>
// CHECK: %[[V7:[a-z0-9_]+]] = llvm.getelementptr nuw %[[ARG0]][%[[ARG2]]] : (!llvm.ptr, i32) -> !llvm.ptr, i8
// CHECK: %[[V8:[a-z0-9_]+]] = llvm.getelementptr inbounds|nuw %[[ARG0]][0, %[[ARG2]], 2] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x struct<(i32, f32, ptr)>>
// CHECK: %[[V9:[a-z0-9_]+]] = llvm.getelementptr nusw %[[ARG0]][-1] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK: llvm.return
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

// CHECK-LABEL: llvm.func @calls(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: i64, %[[ARG1:[a-z0-9_]+]]: !llvm.ptr, %[[ARG2:[a-z0-9_]+]]: i32) -> i64 {
// CHECK: %[[V0:[a-z0-9_]+]] = llvm.call @ext(%[[ARG0]]) : (i64) -> i64
// CHECK: llvm.call @ext_void(%[[ARG2]]) : (i32) -> ()
// CHECK: %[[V1:[a-z0-9_]+]] = llvm.call @printf(%[[ARG1]], %[[ARG2]], %[[ARG0]]) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32, i64) -> i32
// CHECK: %[[V2:[a-z0-9_]+]] = llvm.call fastcc tail @internal_fn(%[[ARG2]]) : (i32) -> i32
// CHECK: %[[V3:[a-z0-9_]+]] = llvm.call @ext(%[[ARG0]]) {fastmathFlags = #llvm.fastmath<fast>} : (i64) -> i64
// CHECK: %[[V4:[a-z0-9_]+]] = llvm.mlir.addressof @ext : !llvm.ptr
// CHECK: %[[V5:[a-z0-9_]+]] = llvm.call %[[V4]](%[[ARG0]]) : !llvm.ptr, (i64) -> i64
// CHECK: llvm.return %[[V5]] : i64
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

// CHECK-LABEL: llvm.func @control_flow(
// CHECK-SAME: %[[ARG0:[a-z0-9_]+]]: i1, %[[ARG1:[a-z0-9_]+]]: f32, %[[ARG2:[a-z0-9_]+]]: f32, %[[ARG3:[a-z0-9_]+]]: i32) -> f32 {
// CHECK: llvm.cond_br %[[ARG0]], ^bb1, ^bb2(%[[ARG1]] : f32)
// CHECK: ^bb1:
// CHECK: llvm.br ^bb2(%[[ARG2]] : f32)
// CHECK: ^bb2(%[[V0:[a-z0-9_]+]]: f32):
// CHECK: llvm.cond_br %[[ARG0]] weights([90, 10]), ^bb3, ^bb4
// CHECK: ^bb3:
// CHECK: llvm.switch %[[ARG3]] : i32, ^bb4 [
// CHECK: 1: ^bb5(%[[V0]] : f32),
// CHECK: -2: ^bb4
// CHECK: ^bb4:
// CHECK: llvm.switch %[[ARG3]] : i32, ^bb5(%[[ARG1]] : f32) [
// CHECK: ^bb5(%[[V1:[a-z0-9_]+]]: f32):
// CHECK: llvm.return %[[V1]] : f32
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

// CHECK-LABEL: llvm.func @unreachable(
// CHECK-SAME: ) {
// CHECK: llvm.unreachable
llvm.func @unreachable() {
  llvm.unreachable
}

// Older MLIR spelled some inherent attributes in the attribute dictionary; they read the same
// and print in the current syntax.
// CHECK-LABEL: llvm.func @legacy_spellings(
llvm.func @legacy_spellings(%p: !llvm.ptr) {
  // CHECK: %[[L:.+]] = llvm.load %{{.+}} <alignment = 4> : !llvm.ptr -> f32
  %0 = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> f32
  // CHECK: %[[S:.+]] = llvm.fadd %[[L]], %[[L]] fastmath<fast> : f32
  %1 = llvm.fadd %0, %0 {fastmathFlags = #llvm.fastmath<fast>} : f32
  // CHECK: llvm.store %[[S]], %{{.+}} <alignment = 4> : f32, !llvm.ptr
  llvm.store %1, %p {alignment = 4 : i64} : f32, !llvm.ptr
  llvm.return
}
