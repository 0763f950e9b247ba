// RUN: %python -m mlc.tools.mlc_translate --mlir-to-llvmir %s | filecheck %s
// RUN: %python -m mlc.tools.mlc_translate --mlir-to-llvmir %s -o %t.ll && %python -c "import llvmlite.binding as b, sys; b.parse_assembly(open(sys.argv[1]).read()).verify()" %t.ll

// CHECK: ; ModuleID = 'LLVMDialectModule'

// Globals: initializers from dense elements (nested arrays), strings, external declarations.
// CHECK: @table = private constant [2 x [2 x float]] {{\[}}[2 x float] [float 0x3FF0000000000000, float 0x4000000000000000], [2 x float] [float 0x4008000000000000, float 0x4010000000000000]], align 16
llvm.mlir.global private constant @table(dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>) {alignment = 16 : i64} : !llvm.array<2 x array<2 x f32>>
// CHECK: @msg = internal constant [3 x i8] c"hi\0A"
llvm.mlir.global internal constant @msg("hi\0A")
// CHECK: @counter = external global i64
llvm.mlir.global external @counter() : i64
// CHECK: @zeros = internal global [4 x i32] zeroinitializer
llvm.mlir.global internal @zeros(dense<0> : tensor<4xi32>) : !llvm.array<4 x i32>

// CHECK: declare float @tanhf(float)
llvm.func @tanhf(f32) -> f32
// CHECK: declare i32 @printf(ptr, ...)
llvm.func @printf(!llvm.ptr, ...) -> i32

// Block arguments become phis with one entry per incoming edge, from br and cond_br.
// CHECK-LABEL: define float @sum(ptr align 4 noalias %arg0, i64 %arg1) {
// CHECK:       bb0:
// CHECK-NEXT:    br label %bb1
// CHECK:       bb1:
// CHECK-NEXT:    %[[I:[0-9]+]] = phi i64 [ 0, %bb0 ], [ %[[NEXT:[0-9]+]], %bb2 ]
// CHECK-NEXT:    %[[ACC:[0-9]+]] = phi float [ 0x0000000000000000, %bb0 ], [ %[[S:[0-9]+]], %bb2 ]
// CHECK-NEXT:    %[[C:[0-9]+]] = icmp slt i64 %[[I]], %arg1
// CHECK-NEXT:    br i1 %[[C]], label %bb2, label %bb3
// CHECK:       bb2:
// CHECK-NEXT:    %[[P:[0-9]+]] = getelementptr inbounds float, ptr %arg0, i64 %[[I]]
// CHECK-NEXT:    %[[V:[0-9]+]] = load float, ptr %[[P]], align 4
// CHECK-NEXT:    %[[S]] = fadd reassoc contract float %[[ACC]], %[[V]]
// CHECK-NEXT:    %[[NEXT]] = add nuw nsw i64 %[[I]], 1
// CHECK-NEXT:    br label %bb1
// CHECK:       bb3:
// CHECK-NEXT:    %[[R:[0-9]+]] = phi float [ %[[ACC]], %bb1 ]
// CHECK-NEXT:    ret float %[[R]]
llvm.func @sum(%p: !llvm.ptr {llvm.noalias, llvm.align = 4 : i64}, %n: i64) -> f32 {
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^head(%c0, %zero : i64, f32)
^head(%i: i64, %acc: f32):
  %c = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %c, ^body, ^exit(%acc : f32)
^body:
  %q = llvm.getelementptr inbounds %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %v = llvm.load %q {alignment = 4 : i64} : !llvm.ptr -> f32
  %s = llvm.fadd %acc, %v fastmath<reassoc, contract> : f32
  %next = llvm.add %i, %c1 overflow<nsw, nuw> : i64
  llvm.br ^head(%next, %s : i64, f32)
^exit(%r: f32):
  llvm.return %r : f32
}

// switch edges feed phis too; branch weights become !prof metadata.
// CHECK-LABEL: define internal i32 @pick(i32 %arg0) {
// CHECK:         switch i32 %arg0, label %bb1 [ i32 1, label %bb2 i32 7, label %bb3 ]
// CHECK:       bb1:
// CHECK-NEXT:    br i1 true, label %bb3, label %bb3, !prof ![[W:[0-9]+]]
// CHECK:       bb3:
// CHECK-NEXT:    %{{[0-9]+}} = phi i32 [ 10, %bb0 ], [ 30, %bb1 ], [ 30, %bb1 ], [ 20, %bb2 ]
llvm.func internal @pick(%x: i32) -> i32 {
  %a = llvm.mlir.constant(10 : i32) : i32
  %b = llvm.mlir.constant(20 : i32) : i32
  %c = llvm.mlir.constant(30 : i32) : i32
  %t = llvm.mlir.constant(true) : i1
  llvm.switch %x : i32, ^default [
    1: ^one,
    7: ^join(%a : i32)
  ]
^default:
  llvm.cond_br %t weights([3, 1]), ^join(%c : i32), ^join(%c : i32)
^one:
  llvm.br ^join(%b : i32)
^join(%r: i32):
  llvm.return %r : i32
}

// Intrinsics get their overload suffix and a declaration; memcpy/memset their length type and
// isvolatile operand; calls of declared functions, variadic calls with the function type.
// CHECK-LABEL: define void @ops(ptr %arg0, ptr %arg1, <8 x float> %arg2, float %arg3, half %arg4)
// CHECK:         %{{[0-9]+}} = call fast <8 x float> @llvm.fma.v8f32(<8 x float> %arg2, <8 x float> %arg2, <8 x float> %arg2)
// CHECK:         %[[E:[0-9]+]] = call float @llvm.exp.f32(float %arg3)
// CHECK:         %{{[0-9]+}} = call float @llvm.maxnum.f32(float %[[E]], float 0x7FF0000000000000)
// CHECK:         %{{[0-9]+}} = call half @llvm.sqrt.f16(half %arg4)
// CHECK:         %{{[0-9]+}} = call float @tanhf(float %arg3)
// CHECK:         call void @llvm.memcpy.p0.p0.i64(ptr %arg0, ptr %arg1, i64 64, i1 false)
// CHECK:         call void @llvm.memset.p0.i64(ptr %arg0, i8 0, i64 64, i1 true)
// CHECK:         %{{[0-9]+}} = call i32 (ptr, ...) @printf(ptr @msg, i32 7)
// Call-site function attributes; an indirect call through a pointer.
// CHECK:         %{{[0-9]+}} = call float @tanhf(float %arg3) noinline
// CHECK:         %{{[0-9]+}} = call float %arg0(float %arg3) nounwind
// CHECK:         ret void
llvm.func @ops(%p: !llvm.ptr, %q: !llvm.ptr, %v: vector<8xf32>, %x: f32, %h: f16) {
  %0 = llvm.intr.fma(%v, %v, %v) fastmath<fast> : (vector<8xf32>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
  %1 = llvm.intr.exp(%x) : (f32) -> f32
  %inf = llvm.mlir.constant(0x7F800000 : f32) : f32
  %2 = llvm.intr.maxnum(%1, %inf) : (f32, f32) -> f32
  %3 = llvm.intr.sqrt(%h) : (f16) -> f16
  %4 = llvm.call @tanhf(%x) : (f32) -> f32
  %n = llvm.mlir.constant(64 : i64) : i64
  "llvm.intr.memcpy"(%p, %q, %n) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  %z = llvm.mlir.constant(0 : i8) : i8
  "llvm.intr.memset"(%p, %z, %n) <{isVolatile = true}> : (!llvm.ptr, i8, i64) -> ()
  %s = llvm.mlir.addressof @msg : !llvm.ptr
  %seven = llvm.mlir.constant(7 : i32) : i32
  %5 = llvm.call @printf(%s, %seven) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
  %6 = llvm.call @tanhf(%x) {no_inline} : (f32) -> f32
  %7 = llvm.call %p(%x) {no_unwind} : !llvm.ptr, (f32) -> f32
  llvm.return
}

// Vector element ops, shuffles with poison lanes, aggregates, casts, compares and select;
// constants inline: dense vectors, splats, undef/poison/zero.
// CHECK-LABEL: define { i32, float } @values(<4 x float> %arg0, i64 %arg1, i32 %arg2)
// CHECK:         %[[X:[0-9]+]] = extractelement <4 x float> %arg0, i64 %arg1
// CHECK:         %[[V:[0-9]+]] = insertelement <4 x float> %arg0, float %[[X]], i64 0
// CHECK:         %{{[0-9]+}} = shufflevector <4 x float> %[[V]], <4 x float> <float 0x3FF0000000000000, float 0x4000000000000000, float 0x4008000000000000, float 0x4010000000000000>, <4 x i32> <i32 0, i32 5, i32 poison, i32 3>
// CHECK:         %{{[0-9]+}} = fadd <4 x float> %[[V]], <float 0x3FE0000000000000, float 0x3FE0000000000000, float 0x3FE0000000000000, float 0x3FE0000000000000>
// CHECK:         %[[W:[0-9]+]] = sext i32 %arg2 to i64
// CHECK:         %[[T:[0-9]+]] = trunc i64 %[[W]] to i16
// CHECK:         %[[Z:[0-9]+]] = zext nneg i16 %[[T]] to i32
// CHECK:         %[[F:[0-9]+]] = sitofp i32 %[[Z]] to float
// CHECK:         %[[C:[0-9]+]] = fcmp nnan olt float %[[F]], %[[X]]
// CHECK:         %[[B:[0-9]+]] = icmp uge i32 %[[Z]], %arg2
// CHECK:         %[[AND:[0-9]+]] = and i1 %[[C]], %[[B]]
// CHECK:         %[[SEL:[0-9]+]] = select i1 %[[AND]], float %[[F]], float %[[X]]
// CHECK:         %[[A0:[0-9]+]] = insertvalue { i32, float } undef, i32 %[[Z]], 0
// CHECK:         %[[A1:[0-9]+]] = insertvalue { i32, float } %[[A0]], float %[[SEL]], 1
// CHECK:         %{{[0-9]+}} = extractvalue { i32, float } %[[A1]], 1
// CHECK:         %{{[0-9]+}} = insertvalue { i32, float } zeroinitializer, i32 poison, 0
// CHECK:         ret { i32, float } %[[A1]]
llvm.func @values(%v: vector<4xf32>, %i: i64, %k: i32) -> !llvm.struct<(i32, f32)> {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %x = llvm.extractelement %v[%i : i64] : vector<4xf32>
  %w = llvm.insertelement %x, %v[%c0 : i64] : vector<4xf32>
  %d = llvm.mlir.constant(dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>) : vector<4xf32>
  %sh = llvm.shufflevector %w, %d [0, 5, -1, 3] : vector<4xf32>
  %half = llvm.mlir.constant(dense<0.5> : vector<4xf32>) : vector<4xf32>
  %add = llvm.fadd %w, %half : vector<4xf32>
  %e = llvm.sext %k : i32 to i64
  %t = llvm.trunc %e : i64 to i16
  %z = llvm.zext nneg %t : i16 to i32
  %f = llvm.sitofp %z : i32 to f32
  %c = llvm.fcmp "olt" %f, %x fastmath<nnan> : f32
  %b = llvm.icmp "uge" %z, %k : i32
  %and = llvm.and %c, %b : i1
  %sel = llvm.select %and, %f, %x : i1, f32
  %u = llvm.mlir.undef : !llvm.struct<(i32, f32)>
  %a0 = llvm.insertvalue %z, %u[0] : !llvm.struct<(i32, f32)>
  %a1 = llvm.insertvalue %sel, %a0[1] : !llvm.struct<(i32, f32)>
  %back = llvm.extractvalue %a1[1] : !llvm.struct<(i32, f32)>
  %zs = llvm.mlir.zero : !llvm.struct<(i32, f32)>
  %pz = llvm.mlir.poison : i32
  %a2 = llvm.insertvalue %pz, %zs[0] : !llvm.struct<(i32, f32)>
  llvm.return %a1 : !llvm.struct<(i32, f32)>
}

// Stack slots, struct GEPs with i32 field indices, volatile and atomic accesses.
// CHECK-LABEL: define i64 @memory(i64 %arg0)
// CHECK:         %[[S:[0-9]+]] = alloca { i64, [2 x i64] }, i64 1, align 8
// CHECK:         %[[F:[0-9]+]] = getelementptr { i64, [2 x i64] }, ptr %[[S]], i32 0, i32 1, i64 %arg0
// CHECK:         store volatile i64 %arg0, ptr %[[F]], align 8
// CHECK:         %{{[0-9]+}} = load atomic i64, ptr %[[F]] monotonic, align 8
llvm.func @memory(%i: i64) -> i64 {
  %one = llvm.mlir.constant(1 : i64) : i64
  %s = llvm.alloca %one x !llvm.struct<(i64, array<2 x i64>)> {alignment = 8 : i64} : (i64) -> !llvm.ptr
  %f = llvm.getelementptr %s[0, 1, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i64, array<2 x i64>)>
  llvm.store volatile %i, %f {alignment = 8 : i64} : i64, !llvm.ptr
  %v = llvm.load %f atomic monotonic {alignment = 8 : i64} : !llvm.ptr -> i64
  llvm.return %v : i64
}

// CHECK-DAG: declare <8 x float> @llvm.fma.v8f32(<8 x float>, <8 x float>, <8 x float>)
// CHECK-DAG: declare float @llvm.exp.f32(float)
// CHECK-DAG: declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
// CHECK: = !{!"branch_weights", i32 3, i32 1}
