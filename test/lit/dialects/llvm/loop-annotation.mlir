// RUN: mlc-opt %s | mlc-opt | filecheck %s
// RUN: mlc-opt %s --mlir-print-op-generic | mlc-opt | filecheck %s

// The loop annotation of llvm.br / llvm.cond_br (MLIR's syntax); every key of the subset
// survives a round trip, `width`/`count` print with their i32 type.

// CHECK-LABEL: llvm.func @latches
// CHECK: llvm.cond_br %{{.*}}, ^bb2, ^bb3 loop_annotation = #llvm.loop_annotation<mustProgress = true>
// CHECK: llvm.br ^bb1(%{{.*}} : i64) loop_annotation = #llvm.loop_annotation<disableNonforced = false, vectorize = #llvm.loop_vectorize<disable = true, predicateEnable = false, scalableEnable = false, width = 4 : i32>, unroll = #llvm.loop_unroll<disable = false, count = 2 : i32, runtimeDisable = true, full = false>, mustProgress = true, isVectorized = true>
llvm.func @latches(%n: i64) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^bb1(%c0 : i64)
^bb1(%i: i64):
  %c = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %c, ^bb2, ^bb3 loop_annotation = #llvm.loop_annotation<mustProgress = true>
^bb2:
  %j = llvm.add %i, %c1 : i64
  llvm.br ^bb1(%j : i64) loop_annotation = #llvm.loop_annotation<isVectorized = true, mustProgress = true, unroll = #llvm.loop_unroll<full = false, runtimeDisable = true, count = 2, disable = false>, vectorize = #llvm.loop_vectorize<width = 4 : i32, scalableEnable = false, predicateEnable = false, disable = true>, disableNonforced = false>
^bb3:
  llvm.return
}
