"""Named pipelines of the lowering path."""

from __future__ import annotations

from mlc.pass_manager import OpPassManager, PassPipeline


class LowerToCPUPipeline(PassPipeline):
    """The whole path from the graph dialect to the llvm dialect with default knob values.

    graph level: shape refinement, canonicalize, matmul-chain reordering, fusion, cse; then
    each conversion of DESIGN.md section 1 with canonicalize/cse between levels:
    convert-graph-to-tensor (which fuses each kernel's generics), bufferize,
    convert-tensor-to-affine, convert-to-llvm, reconcile-unrealized-casts, canonicalize. The
    result is what `mlc-translate --mlir-to-llvmir` turns into LLVM IR and `mlc.compile`
    JIT-compiles. No cse after convert-to-llvm: the conversion builds each effect-free op once
    per dominating block (what cse would leave), and what the canonicalize after it folds,
    LLVM's own CSE sees.
    """

    name = "lower-to-cpu"
    summary = "Lower graph-level programs to the llvm dialect (default knobs)"

    def build(self, pm: OpPassManager) -> None:
        pm.add_text(
            "graph-shape-inference,canonicalize,graph-matmul-reorder,graph-fusion,cse,"
            "convert-graph-to-tensor,canonicalize,cse,"
            "bufferize,contraction-microkernel,convert-tensor-to-affine,canonicalize,cse,"
            "affine-loop-fusion,"
            "affine-parallelize{threads-only=true},"
            "affine-vectorize,affine-nontemporal-stores,math-polynomial-approximation,"
            "canonicalize,cse,"
            "convert-to-llvm,reconcile-unrealized-casts,canonicalize,"
            "llvm-options"
        )
