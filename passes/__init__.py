"""Transformations within one level of the IR (canonicalize, cse, fusion, tiling, ...).

`PASSES` maps each pass name to `"module:Class"` (a module of this package, or a dotted
absolute one); the pass manager imports a module only when its pass is used. `PIPELINES` does
the same for named pipelines.
"""

PASSES: dict[str, str] = {
    "canonicalize": "canonicalize:CanonicalizePass",
    "cse": "cse:CSEPass",
    "dce": "dce:DCEPass",
    "remove-dead-values": "dce:RemoveDeadValuesPass",
    "symbol-dce": "symbol_dce:SymbolDCEPass",
    "symbol-privatize": "symbol_privatize:SymbolPrivatizePass",
    "inline": "inline:InlinerPass",
    "loop-invariant-code-motion": "licm:LoopInvariantCodeMotionPass",
    "reconcile-unrealized-casts": "reconcile_casts:ReconcileUnrealizedCastsPass",
    "graph-shape-inference": "graph_shape_inference:GraphShapeInferencePass",
    "graph-matmul-reorder": "graph_matmul_reorder:GraphMatmulReorderPass",
    "graph-fusion": "graph_fusion:GraphFusionPass",
    "tensor-fusion": "tensor_fusion:TensorFusionPass",
    "affine-loop-fusion": "affine_loop_fusion:AffineLoopFusionPass",
    "math-polynomial-approximation": "math_approx:MathPolynomialApproximationPass",
    "affine-tile": "affine_tile:AffineTilePass",
    "affine-loop-tile": "affine_tile:AffineLoopTilePass",
    "affine-parallelize": "affine_parallelize:AffineParallelizePass",
    "affine-interchange": "affine_interchange:AffineInterchangePass",
    "affine-unroll": "affine_unroll:AffineUnrollPass",
    "affine-loop-unroll": "affine_unroll:AffineLoopUnrollPass",
    "affine-unroll-jam": "affine_unroll:AffineUnrollJamPass",
    "affine-loop-unroll-jam": "affine_unroll:AffineLoopUnrollJamPass",
    "test-affine-dependence": "affine_dependence:TestAffineDependencePass",
    "affine-vectorize": "affine_vectorize:AffineVectorizePass",
    "affine-row-pipeline": "affine_row_pipeline:AffineRowPipelinePass",
    "affine-nontemporal-stores": "affine_nontemporal:AffineNontemporalStoresPass",
    "llvm-options": "llvm_options:LLVMOptionsPass",
    # Passes for testing the pass manager itself (failures, crashes, knobs).
    "test-pass-failure": "test_passes:TestPassFailure",
    "test-pass-crash": "test_passes:TestPassCrash",
    "test-pass-invalid-ir": "test_passes:TestPassInvalidIR",
    "test-options": "test_passes:TestOptionsPass",
    "test-legalize-math": "test_passes:TestLegalizeMath",
    "test-widen-integers": "test_passes:TestWidenIntegers",
}

PIPELINES: dict[str, str] = {
    "simplify": "pipelines:SimplifyPipeline",
}
