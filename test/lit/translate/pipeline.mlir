// RUN: mlc-opt %s -p 'builtin.module(convert-to-llvm)' | %python -m mlc.tools.mlc_translate --mlir-to-llvmir | filecheck %s

// The lowered function keeps its name, takes the expanded descriptors and loops with phis.
// CHECK-LABEL: define void @scale(ptr %arg0, ptr %arg1, i64 %arg2, i64 %arg3, i64 %arg4, ptr %arg5, ptr %arg6, i64 %arg7, i64 %arg8, i64 %arg9)
// CHECK:         %[[IV:[0-9]+]] = phi i64 [ 0, %bb0 ], [ %{{[0-9]+}}, %bb2 ]
// CHECK:         icmp slt i64 %[[IV]], %arg3
// CHECK:         %[[P:[0-9]+]] = getelementptr inbounds float, ptr %arg1, i64 %[[IV]]
// CHECK:         %[[V:[0-9]+]] = load float, ptr %[[P]], align 4
// CHECK:         %[[E:[0-9]+]] = call float @llvm.exp.f32(float %[[V]])
// CHECK:         %[[T:[0-9]+]] = call float @tanhf(float %[[E]])
// CHECK:         %[[Q:[0-9]+]] = getelementptr inbounds float, ptr %arg6, i64 %[[IV]]
// CHECK:         store float %[[T]], ptr %[[Q]], align 4
// CHECK:         ret void
// CHECK:       declare float @llvm.exp.f32(float)
func.func @scale(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  affine.for %i = 0 to %n {
    %v = affine.load %x[%i] : memref<?xf32>
    %e = math.exp %v : f32
    %t = math.tanh %e : f32
    affine.store %t, %y[%i] : memref<?xf32>
  }
  return
}
