// RUN: mlc-opt %s -p 'builtin.module(convert-to-llvm)' | filecheck %s
// RUN: mlc-opt %s -p 'builtin.module(convert-to-llvm)' | mlc-translate --mlir-to-llvmir | filecheck %s --check-prefix=LLVM

// Index arithmetic that convert-to-llvm folds wraps modulo 2^64 as i64 does, and the folds
// that read a folded value back (floordiv, mod, min/max) see the wrapped, signed value.

// (2^63 - 1) + 4 wraps to -2^63 + 3; floordiv 2 of that is -2^62 + 1 (not 2^62 + 1).
// CHECK-LABEL: llvm.func @wrap_then_floordiv
// CHECK:         %[[C:.*]] = llvm.mlir.constant(-4611686018427387903 : i64) : i64
// CHECK-NEXT:    llvm.return %[[C]] : i64
// LLVM-LABEL: define i64 @wrap_then_floordiv
// LLVM:         ret i64 -4611686018427387903
func.func @wrap_then_floordiv() -> index {
  %c = arith.constant 9223372036854775807 : index
  %c4 = arith.constant 4 : index
  %r = affine.apply affine_map<(d0, d1) -> ((d0 + d1) floordiv 2)>(%c, %c4)
  return %r : index
}

// (2^63 - 1) + 1 wraps to -2^63, whose mod 5 is 2 (-2^63 = 5 * -1844674407370955162 + 2).
// CHECK-LABEL: llvm.func @wrap_then_mod
// CHECK:         %[[C:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-NEXT:    llvm.return %[[C]] : i64
func.func @wrap_then_mod() -> index {
  %c = arith.constant 9223372036854775807 : index
  %r = affine.apply affine_map<(d0) -> ((d0 + 1) mod 5)>(%c)
  return %r : index
}

// min(2^62 * 4, 7): the product wraps to 0, so the minimum is 0.
// CHECK-LABEL: llvm.func @wrap_then_min
// CHECK:         %[[C:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT:    llvm.return %[[C]] : i64
func.func @wrap_then_min() -> index {
  %c = arith.constant 4611686018427387904 : index
  %r = affine.min affine_map<(d0) -> (d0 * 4, 7)>(%c)
  return %r : index
}

// max(2^63 - 1 + 2, 5): the sum wraps to -2^63 + 1, so the maximum is 5.
// CHECK-LABEL: llvm.func @wrap_then_max
// CHECK:         %[[C:.*]] = llvm.mlir.constant(5 : i64) : i64
// CHECK-NEXT:    llvm.return %[[C]] : i64
func.func @wrap_then_max() -> index {
  %c = arith.constant 9223372036854775807 : index
  %r = affine.max affine_map<(d0) -> (d0 + 2, 5)>(%c)
  return %r : index
}

// 0 - (-2^63) wraps to -2^63 (ceildiv: -(-a floordiv c) on the wrapped value).
// CHECK-LABEL: llvm.func @wrap_then_ceildiv
// CHECK:         %[[C:.*]] = llvm.mlir.constant(-3074457345618258602 : i64) : i64
// CHECK-NEXT:    llvm.return %[[C]] : i64
func.func @wrap_then_ceildiv() -> index {
  %c = arith.constant -9223372036854775808 : index
  %r = affine.apply affine_map<(d0) -> ((d0 * -1) ceildiv 3)>(%c)
  return %r : index
}
