// RUN: mlc-opt %s | mlc-opt | filecheck %s
// RUN: mlc-opt %s --mlir-print-op-generic | mlc-opt | filecheck %s
// RUN: mlc-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// LLVM dialect types: custom and generic prints read back the same (MLIR's spelling).

// CHECK-LABEL: llvm.func @pointers(
// CHECK-SAME: !llvm.ptr, !llvm.ptr<1>, !llvm.ptr, vector<2x!llvm.ptr>)
llvm.func @pointers(!llvm.ptr, !llvm.ptr<1>, !llvm.ptr<0>, vector<2x!llvm.ptr>)
// CHECK-LABEL: llvm.func @arrays(
// CHECK-SAME: !llvm.array<4 x f32>, !llvm.array<0 x i8>, !llvm.array<2 x array<3 x i32>>, !llvm.array<2 x ptr<3>>, !llvm.array<4 x vector<2xf16>>)
llvm.func @arrays(!llvm.array<4 x f32>, !llvm.array<0 x i8>, !llvm.array<2 x array<3 x i32>>, !llvm.array<2 x ptr<3>>, !llvm.array<4 x vector<2xf16>>)
// CHECK-LABEL: llvm.func @literal_structs(
// CHECK-SAME: !llvm.struct<()>, !llvm.struct<(i32, f32)>, !llvm.struct<packed (i8, i32)>, !llvm.struct<(struct<(i1)>, array<2 x ptr>, vector<4xi8>)>)
llvm.func @literal_structs(!llvm.struct<()>, !llvm.struct<(i32, f32)>, !llvm.struct<packed (i8, i32)>, !llvm.struct<(struct<(i1)>, array<2 x ptr>, vector<4xi8>)>)
// CHECK-LABEL: llvm.func @identified_structs(
// CHECK-SAME: !llvm.struct<"node", (i64, ptr)>, !llvm.struct<"opaque_t", opaque>, !llvm.struct<"packed_t", packed (i8, i64)>)
llvm.func @identified_structs(!llvm.struct<"node", (i64, ptr)>, !llvm.struct<"opaque_t", opaque>, !llvm.struct<"packed_t", packed (i8, i64)>)
// CHECK-LABEL: llvm.func @floats(
// CHECK-SAME: f16, bf16, f32, f64, f80, f128) -> !llvm.struct<(f16, bf16, f32, f64, f80, f128)>
llvm.func @floats(f16, bf16, f32, f64, f80, f128) -> !llvm.struct<(f16, bf16, f32, f64, f80, f128)>

// CHECK-LABEL: llvm.func @function_types(
// CHECK-SAME: ) {
// CHECK: %[[V0:[a-z0-9_]+]] = llvm.mlir.undef : !llvm.array<1 x ptr>
// CHECK: %[[V1:[a-z0-9_]+]] = llvm.mlir.zero : !llvm.struct<(i32, array<2 x struct<packed (i8, f64)>>)>
// CHECK: llvm.return
llvm.func @function_types() {
  %0 = llvm.mlir.undef : !llvm.array<1 x ptr>
  %1 = llvm.mlir.zero : !llvm.struct<(i32, array<2 x struct<packed (i8, f64)>>)>
  llvm.return
}

// CHECK-LABEL: llvm.func @void_fn(
// CHECK-SAME: !llvm.ptr, i32, ...)
llvm.func @void_fn(!llvm.ptr, i32, ...)
// CHECK-LABEL: llvm.func @returns_struct(
// CHECK-SAME: ) -> !llvm.struct<(i32, ptr<1>)>
llvm.func @returns_struct() -> !llvm.struct<(i32, ptr<1>)>

// Nested llvm types print without the `!llvm.` prefix inside `!llvm.func<...>`.
// GENERIC: function_type = !llvm.func<void (ptr, ptr<1>, ptr, vector<2x!llvm.ptr>)>
// GENERIC: function_type = !llvm.func<void (struct<"node", (i64, ptr)>, struct<"opaque_t", opaque>, struct<"packed_t", packed (i8, i64)>)>
// GENERIC: function_type = !llvm.func<void (ptr, i32, ...)>
// GENERIC: function_type = !llvm.func<struct<(i32, ptr<1>)> ()>
