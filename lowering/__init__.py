"""Conversions between IR levels and the translation to LLVM IR.

`PASSES` maps each conversion pass name to `"module:Class"` (a module of this package), as in
`mlc.passes`; the pass manager imports a module only when its pass is used.
"""

PASSES: dict[str, str] = {
    "convert-graph-to-tensor": "graph_to_tensor:ConvertGraphToTensorPass",
    "convert-to-llvm": "to_llvm:ConvertToLLVMPass",
    "bufferize": "bufferize:BufferizePass",
    "convert-tensor-to-affine": "tensor_to_affine:ConvertTensorToAffinePass",
    "contraction-microkernel": "microkernel:ContractionMicrokernelPass",
}

PIPELINES: dict[str, str] = {
    "lower-to-cpu": "pipelines:LowerToCPUPipeline",
}
