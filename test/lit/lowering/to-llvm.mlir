// RUN: mlc-opt %s -p 'builtin.module(convert-to-llvm)' | filecheck %s
// RUN: mlc-opt %s -p 'builtin.module(convert-to-llvm)' | mlc-opt | filecheck %s

// External declarations come first, in the order the lowering needs them.
// CHECK-LABEL: module {
// CHECK-NEXT:    llvm.func @malloc(i64) -> !llvm.ptr
// CHECK-NEXT:    llvm.func @free(!llvm.ptr)
// CHECK-NEXT:    llvm.func @tanhf(f32) -> f32
// CHECK-NEXT:    llvm.func @erf(f64) -> f64
// CHECK-NEXT:    llvm.func @mlc_parallel_for(!llvm.ptr, !llvm.ptr, i64, i64, i64)

// A memref argument expands into allocated, aligned, offset, sizes and strides; index is i64.
// A memref result is the descriptor struct, built with insertvalue.
// CHECK-LABEL: llvm.func @sig(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64, %arg3: i64, %arg4: i64, %arg5: i64, %arg6: i64, %arg7: f32, %arg8: i64) -> !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK:         %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK:         %[[D0:.*]] = llvm.insertvalue %arg0, %[[U]][0]
// CHECK:         %[[D1:.*]] = llvm.insertvalue %arg1, %[[D0]][1]
// CHECK:         %[[D2:.*]] = llvm.insertvalue %arg2, %[[D1]][2]
// CHECK:         %[[D3:.*]] = llvm.insertvalue %arg3, %[[D2]][3, 0]
// CHECK:         %[[D4:.*]] = llvm.insertvalue %arg4, %[[D3]][3, 1]
// CHECK:         %[[D5:.*]] = llvm.insertvalue %arg5, %[[D4]][4, 0]
// CHECK:         %[[D6:.*]] = llvm.insertvalue %arg6, %[[D5]][4, 1]
// CHECK:         llvm.return %[[D6]]
func.func @sig(%a: memref<?x4xf32>, %s: f32, %i: index) -> memref<?x4xf32> {
  return %a : memref<?x4xf32>
}

// Several results are packed in a struct; index results are i64.
// CHECK-LABEL: llvm.func @two(%arg0: i64, %arg1: f32) -> !llvm.struct<(i64, f32)>
// CHECK:         %[[S0:.*]] = llvm.insertvalue %arg0, %{{.*}}[0] : !llvm.struct<(i64, f32)>
// CHECK:         %[[S1:.*]] = llvm.insertvalue %arg1, %[[S0]][1] : !llvm.struct<(i64, f32)>
// CHECK:         llvm.return %[[S1]] : !llvm.struct<(i64, f32)>
func.func @two(%i: index, %f: f32) -> (index, f32) {
  return %i, %f : index, f32
}

// A call passes a memref's fields (read through the descriptor) and unpacks the results.
// CHECK-LABEL: llvm.func @caller(
// CHECK:         %[[R:.*]] = llvm.call @two(%arg{{[0-9]+}}, %arg{{[0-9]+}}) : (i64, f32) -> !llvm.struct<(i64, f32)>
// CHECK:         llvm.extractvalue %[[R]][1] : !llvm.struct<(i64, f32)>
// CHECK:         llvm.call @sig(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %{{.*}}, %{{.*}})
func.func @caller(%a: memref<?x4xf32>, %i: index, %f: f32) -> f32 {
  %r:2 = func.call @two(%i, %f) : (index, f32) -> (index, f32)
  %m = func.call @sig(%a, %r#1, %r#0) : (memref<?x4xf32>, f32, index) -> memref<?x4xf32>
  return %r#1 : f32
}

// A loop: header block with the induction variable and the iter_args, cond_br to the body or
// to the exit block, whose argument is the loop's result. The constants the lowering makes
// (bounds, step) are made once per function, at the top of the entry block.
// CHECK-LABEL: llvm.func @loop(
// CHECK-DAG:     %[[ZERO:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK-DAG:     %[[LB:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-DAG:     %[[UB:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK:         llvm.br ^bb1(%[[LB]], %[[ZERO]] : i64, f32)
// CHECK:       ^bb1(%[[IV:.*]]: i64, %[[ACC:.*]]: f32):
// CHECK:         %[[C:.*]] = llvm.icmp "slt" %[[IV]], %[[UB]] : i64
// CHECK:         llvm.cond_br %[[C]], ^bb2, ^bb3(%[[ACC]] : f32)
// CHECK:       ^bb2:
// CHECK:         %[[P:.*]] = llvm.getelementptr inbounds %arg1[%[[IV]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         %[[V:.*]] = llvm.load %[[P]] <alignment = 4> : !llvm.ptr -> f32
// CHECK:         %[[S:.*]] = llvm.fadd %[[ACC]], %[[V]] fastmath<nnan, contract> : f32
// CHECK:         %[[NEXT:.*]] = llvm.add %[[IV]], %{{.*}} : i64
// CHECK:         llvm.br ^bb1(%[[NEXT]], %[[S]] : i64, f32)
// CHECK:       ^bb3(%[[R:.*]]: f32):
// CHECK:         llvm.store %[[R]], %{{.*}} <alignment = 4> : f32, !llvm.ptr
func.func @loop(%a: memref<8xf32>, %out: memref<1xf32>) {
  %z = arith.constant 0.0 : f32
  %r = affine.for %i = 0 to 8 iter_args(%acc = %z) -> (f32) {
    %v = affine.load %a[%i] : memref<8xf32>
    %s = arith.addf %acc, %v fastmath<nnan, contract> : f32
    affine.yield %s : f32
  }
  affine.store %r, %out[0] : memref<1xf32>
  return
}

// Dynamic strides of the identity layout are read from the descriptor (here: the argument
// that built it); static ones are constants; a strided layout's static offset is added.
// CHECK-LABEL: llvm.func @strides(
// CHECK-SAME:      %arg5: i64, %arg6: i64, %arg7: i64, %arg8: i64)
// CHECK:         %[[M:.*]] = llvm.mul %arg7, %arg5 : i64
// CHECK:         %[[L:.*]] = llvm.add %[[M]], %arg8 : i64
// CHECK:         llvm.getelementptr inbounds %arg1[%[[L]]] : (!llvm.ptr, i64) -> !llvm.ptr, f64
func.func @strides(%a: memref<?x?xf64>, %i: index, %j: index) -> f64 {
  %v = memref.load %a[%i, %j] : memref<?x?xf64>
  return %v : f64
}

// CHECK-LABEL: llvm.func @strided_layout(
// CHECK:         %[[C3:.*]] = llvm.mlir.constant(3 : i64) : i64
// CHECK:         %[[C10:.*]] = llvm.mlir.constant(10 : i64) : i64
// CHECK:         %[[M:.*]] = llvm.mul %arg5, %[[C10]] : i64
// CHECK:         %[[L:.*]] = llvm.add %[[C3]], %[[M]] : i64
// CHECK:         llvm.getelementptr inbounds %arg1[%[[L]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
func.func @strided_layout(%a: memref<4xf32, strided<[10], offset: 3>>, %i: index) -> f32 {
  %v = memref.load %a[%i] : memref<4xf32, strided<[10], offset: 3>>
  return %v : f32
}

// memref.alloc: malloc of size + 63 bytes, the aligned pointer rounded up to 64; dealloc frees
// the allocated pointer. memref.global becomes an llvm.mlir.global of nested arrays.
// CHECK:       llvm.mlir.global private constant @cst(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) {addr_space = 0 : i32} : !llvm.array<2 x f32>
// CHECK-LABEL: llvm.func @alloc_global(%arg0: i64) -> f32
// CHECK:         %[[PAD:.*]] = llvm.mlir.constant(63 : i64) : i64
// CHECK:         %[[N:.*]] = llvm.mul %arg0, %{{.*}} : i64
// CHECK:         %[[T:.*]] = llvm.add %[[N]], %[[PAD]] : i64
// CHECK:         %[[A:.*]] = llvm.call @malloc(%[[T]]) : (i64) -> !llvm.ptr
// CHECK:         %[[AI:.*]] = llvm.ptrtoint %[[A]] : !llvm.ptr to i64
// CHECK:         llvm.urem %{{.*}}, %{{.*}} : i64
// CHECK:         %[[AL:.*]] = llvm.getelementptr %[[A]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK:         %[[G:.*]] = llvm.mlir.addressof @cst : !llvm.ptr
// CHECK:         %[[GP:.*]] = llvm.getelementptr inbounds %[[G]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         %[[V:.*]] = llvm.load %[[GP]] <alignment = 4> : !llvm.ptr -> f32
// CHECK:         llvm.store %[[V]], %[[AL]] <alignment = 4> : f32, !llvm.ptr
// CHECK:         llvm.call @free(%[[A]]) : (!llvm.ptr) -> ()
memref.global "private" constant @cst : memref<2xf32> = dense<[1.0, 2.0]>
func.func @alloc_global(%n: index) -> f32 {
  %t = memref.alloc(%n) : memref<?xf32>
  %g = memref.get_global @cst : memref<2xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = memref.load %g[%c1] : memref<2xf32>
  memref.store %v, %t[%c0] : memref<?xf32>
  %w = memref.load %t[%c0] : memref<?xf32>
  memref.dealloc %t : memref<?xf32>
  return %w : f32
}

// LLVM intrinsics where LLVM has one; libm (f32: `tanhf`) otherwise; f16 computes in f32.
// CHECK-LABEL: llvm.func @math(
// CHECK:         %[[E:.*]] = llvm.intr.exp(%arg0) : (f32) -> f32
// CHECK:         %[[T:.*]] = llvm.call @tanhf(%[[E]]) : (f32) -> f32
// CHECK:         llvm.call @erf(%arg1) : (f64) -> f64
// CHECK:         %[[W:.*]] = llvm.fpext %arg2 : f16 to f32
// CHECK:         %[[H:.*]] = llvm.call @tanhf(%[[W]]) : (f32) -> f32
// CHECK:         llvm.fptrunc %[[H]] : f32 to f16
// CHECK:         llvm.intr.sqrt(%[[T]]) : (f32) -> f32
func.func @math(%x: f32, %y: f64, %h: f16) -> (f32, f16) {
  %a = math.exp %x : f32
  %b = math.tanh %a : f32
  %c = math.erf %y : f64
  %d = math.tanh %h : f16
  %e = math.sqrt %b : f32
  return %e, %d : f32, f16
}

// affine.if: cond_br on the conjunction of the constraints, joining in a block with results.
// CHECK-LABEL: llvm.func @cond(%arg0: i64, %arg1: i64) -> i64
// CHECK:         %[[C:.*]] = llvm.icmp "sge" %{{.*}}, %{{.*}} : i64
// CHECK:         llvm.cond_br %[[C]], ^bb1, ^bb2
// CHECK:       ^bb1:
// CHECK:         llvm.br ^bb3(%arg0 : i64)
// CHECK:       ^bb2:
// CHECK:         llvm.br ^bb3(%arg1 : i64)
// CHECK:       ^bb3(%[[R:.*]]: i64):
// CHECK:         llvm.return %[[R]] : i64
func.func @cond(%i: index, %n: index) -> index {
  %r = affine.if affine_set<(d0)[s0] : (s0 - d0 - 1 >= 0)>(%i)[%n] -> index {
    affine.yield %i : index
  } else {
    affine.yield %n : index
  }
  return %r : index
}

// floordiv with MLIR's semantics on negative values (sdiv of the adjusted dividend).
// CHECK-LABEL: llvm.func @floordiv(%arg0: i64) -> i64
// CHECK:         %[[NEG:.*]] = llvm.icmp "slt" %arg0, %{{.*}} : i64
// CHECK:         %[[D:.*]] = llvm.select %[[NEG]], %{{.*}}, %arg0 : i1, i64
// CHECK:         %[[Q:.*]] = llvm.sdiv %[[D]], %{{.*}} : i64
// CHECK:         llvm.select %[[NEG]], %{{.*}}, %[[Q]] : i1, i64
func.func @floordiv(%i: index) -> index {
  %r = affine.apply affine_map<(d0) -> (d0 floordiv 4)>(%i)
  return %r : index
}

// affine.parallel with mlc.parallel: the body is outlined into body(begin, end, ctx), the
// captured values go through a stack struct, and the loop is a call of mlc_parallel_for.
// CHECK-LABEL: llvm.func internal @par_parallel_body(%arg0: i64, %arg1: i64, %arg2: !llvm.ptr)
// CHECK:         %[[F:.*]] = llvm.getelementptr %arg2[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i64, struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>)>
// CHECK:         llvm.load %[[F]] : !llvm.ptr -> !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK:         llvm.br ^bb1(%arg0 : i64)
// CHECK:       ^bb1(%[[I:.*]]: i64):
// CHECK:         llvm.icmp "slt" %[[I]], %arg1 : i64
// CHECK-LABEL: llvm.func @par(
// CHECK:         %[[CTX:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(i64, struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>)> : (i64) -> !llvm.ptr
// CHECK:         %[[BODY:.*]] = llvm.mlir.addressof @par_parallel_body : !llvm.ptr
// CHECK:         llvm.call @mlc_parallel_for(%[[BODY]], %[[CTX]], %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64, i64, i64) -> ()
func.func @par(%x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  affine.parallel (%i) = (0) to (%n) step (4) {
    %v = affine.load %x[%i] : memref<?xf32>
    affine.store %v, %x[%i] : memref<?xf32>
  } {mlc.parallel}
  return
}

// Without mlc.parallel: a sequential loop.
// CHECK-LABEL: llvm.func @seq(
// CHECK-NOT:     mlc_parallel_for
// CHECK:         llvm.cond_br
// CHECK:         llvm.return
func.func @seq(%x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  affine.parallel (%i) = (0) to (%n) {
    %v = affine.load %x[%i] : memref<?xf32>
    affine.store %v, %x[%i] : memref<?xf32>
  }
  return
}

// Vectors stay builtin vectors; loads assume only element alignment.
// CHECK-LABEL: llvm.func @vec(
// CHECK:         %[[V:.*]] = llvm.load %{{.*}} <alignment = 4> : !llvm.ptr -> vector<8xf32>
// CHECK:         llvm.intr.fma(%[[V]], %[[V]], %[[V]]) : (vector<8xf32>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
// CHECK:         llvm.store %{{.*}}, %{{.*}} <alignment = 4> : vector<8xf32>, !llvm.ptr
func.func @vec(%x: memref<?xf32>, %i: index) {
  %v = affine.vector_load %x[%i] : memref<?xf32>, vector<8xf32>
  %f = vector.fma %v, %v, %v : vector<8xf32>
  affine.vector_store %f, %x[%i + 8] : memref<?xf32>, vector<8xf32>
  return
}

// Casts between a type and its lowered form fold away; llvm ops already in a body are kept.
// CHECK-LABEL: llvm.func @mixed(
// CHECK-NEXT:    %[[K:.*]] = llvm.add %arg5, %arg5 : i64
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %arg1[%[[K]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    %[[V:.*]] = llvm.load %[[P]] <alignment = 4> : !llvm.ptr -> f32
// CHECK-NEXT:    llvm.return %[[V]] : f32
func.func @mixed(%x: memref<4xf32>, %i: index) -> f32 {
  %c = builtin.unrealized_conversion_cast %x : memref<4xf32> to !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %back = builtin.unrealized_conversion_cast %c : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<4xf32>
  %j = builtin.unrealized_conversion_cast %i : index to i64
  %k = llvm.add %j, %j : i64
  %kk = builtin.unrealized_conversion_cast %k : i64 to index
  %v = memref.load %back[%kk] : memref<4xf32>
  return %v : f32
}

// In-bounds 1-D transfers along the contiguous dimension are vector loads/stores.
// CHECK-LABEL: llvm.func @transfer(
// CHECK:         %[[V:.*]] = llvm.load %{{.*}} <alignment = 4> : !llvm.ptr -> vector<8xf32>
// CHECK:         llvm.store %[[V]], %arg1 <alignment = 4> : vector<8xf32>, !llvm.ptr
func.func @transfer(%x: memref<?x8xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %x[%i, %c0], %pad {in_bounds = [true]} : memref<?x8xf32>, vector<8xf32>
  vector.transfer_write %v, %x[%c0, %c0] {in_bounds = [true]} : vector<8xf32>, memref<?x8xf32>
  return
}

// An entry function made by bufferize (it has mlc.result_shapes) keeps the attribute, and the
// aligned pointers get llvm.noalias (the runtime's arrays: outputs alias nothing, inputs are
// never written).
// CHECK-LABEL: llvm.func @entry(%arg0: !llvm.ptr, %arg1: !llvm.ptr {llvm.noalias}, %arg2: i64, %arg3: i64, %arg4: i64, %arg5: !llvm.ptr, %arg6: !llvm.ptr {llvm.noalias}, %arg7: i64, %arg8: i64, %arg9: i64)
// CHECK-SAME:    attributes {mlc.arg_names = ["x"], mlc.result_shapes = [#{{.*}}]}
func.func @entry(%x: memref<?xf32>, %out0: memref<?xf32>) attributes {mlc.arg_names = ["x"], mlc.result_shapes = [affine_map<()[s0] -> (s0)>]} {
  return
}

// -----

// The aligned pointer of a memref descriptor (its second field) as an integer.
// CHECK-LABEL: llvm.func @aligned_pointer(
// CHECK-SAME: %[[ALLOC:\w+]]: !llvm.ptr, %[[ALIGNED:\w+]]: !llvm.ptr,
// CHECK: %[[P:.+]] = llvm.ptrtoint %[[ALIGNED]] : !llvm.ptr to i64
// CHECK: llvm.return %[[P]] : i64
func.func @aligned_pointer(%m: memref<4x?xf32>) -> index {
  %p = memref.extract_aligned_pointer_as_index %m : memref<4x?xf32> -> index
  return %p : index
}
