// RUN: %python -m mlc.tools.mlc_translate --mlir-to-llvmir %s | filecheck %s

// A loop annotation becomes the latch's `!llvm.loop` metadata: one distinct node per loop,
// its property nodes shared across the module (MLIR's translation of each key).

// CHECK-LABEL: define void @f(
// CHECK:   br i1 %{{[0-9]+}}, label %bb2, label %bb3, !llvm.loop ![[FIRST:[0-9]+]]
// CHECK:   br label %bb1, !llvm.loop ![[SECOND:[0-9]+]]
// CHECK-DAG: ![[FIRST]] = distinct !{![[FIRST]], ![[VEC:[0-9]+]], ![[UNROLL:[0-9]+]]}
// CHECK-DAG: ![[VEC]] = !{!"llvm.loop.vectorize.enable", i1 false}
// CHECK-DAG: ![[UNROLL]] = !{!"llvm.loop.unroll.disable"}
// CHECK-DAG: ![[SECOND]] = distinct !{![[SECOND]], ![[NONFORCED:[0-9]+]], ![[ISVEC:[0-9]+]], ![[VEC]], ![[PRED:[0-9]+]], ![[WIDTH:[0-9]+]], ![[COUNT:[0-9]+]], ![[RUNTIME:[0-9]+]], ![[FULL:[0-9]+]], ![[PROGRESS:[0-9]+]]}
// CHECK-DAG: ![[NONFORCED]] = !{!"llvm.loop.disable_nonforced"}
// CHECK-DAG: ![[ISVEC]] = !{!"llvm.loop.isvectorized", i32 1}
// CHECK-DAG: ![[PRED]] = !{!"llvm.loop.vectorize.predicate.enable", i1 true}
// CHECK-DAG: ![[WIDTH]] = !{!"llvm.loop.vectorize.width", i32 8}
// CHECK-DAG: ![[COUNT]] = !{!"llvm.loop.unroll.count", i32 4}
// CHECK-DAG: ![[RUNTIME]] = !{!"llvm.loop.unroll.runtime.disable"}
// CHECK-DAG: ![[FULL]] = !{!"llvm.loop.unroll.full"}
// CHECK-DAG: ![[PROGRESS]] = !{!"llvm.loop.mustprogress"}
llvm.func @f(%n: i64) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^bb1(%c0 : i64)
^bb1(%i: i64):
  %c = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %c, ^bb2, ^bb3 loop_annotation = #llvm.loop_annotation<vectorize = #llvm.loop_vectorize<disable = true>, unroll = #llvm.loop_unroll<disable = true>>
^bb2:
  %j = llvm.add %i, %c1 : i64
  llvm.br ^bb1(%j : i64) loop_annotation = #llvm.loop_annotation<disableNonforced = true, vectorize = #llvm.loop_vectorize<disable = true, predicateEnable = true, width = 8>, unroll = #llvm.loop_unroll<count = 4, runtimeDisable = true, full = true>, mustProgress = true, isVectorized = true>
^bb3:
  llvm.return
}
