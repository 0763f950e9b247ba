"""The JIT runtime: LLVM IR text + entry signatures -> callables on NumPy arrays.

llvmlite parses the IR, optimizes it for the host CPU (its name and features, so AVX2/FMA are
used) with loop and SLP vectorization, and MCJIT compiles it. `docs/runtime.md` has the details.

    from mlc.runtime import ArgSpec, Signature, compile_llvm_ir
    sig = Signature(inputs=[ArgSpec("x", "f32", ("n",))], outputs=[ArgSpec("y", "f32", ("n",))])
    m = compile_llvm_ir(llvm_ir, {"main": sig}, opt_level=3, threads=None)
    y = m.main(x)                       # or m["main"](x)

The ABI (what the lowering emits):

- Entry functions return void. Their parameters are the inputs then the outputs, in order.
- A memref of rank r is MLIR's expanded descriptor, 3 + 2r consecutive parameters:
  `ptr allocated, ptr aligned, i64 offset, i64 size[0..r), i64 stride[0..r)`, offset and strides
  in elements. The runtime passes C-contiguous arrays: allocated == aligned, offset 0, identity
  strides. Inputs are never written by the kernel; outputs alias no input and no other output,
  so the aligned pointers may be marked `noalias`. Only element alignment is guaranteed for
  inputs and `out=` arrays (outputs the runtime allocates of 64 KiB or more start on a 64-byte
  boundary).
- Scalars i1/i8/i16/i32/i64/index(=i64)/f16/f32/f64 are passed by value.
- Results are written into output memrefs (destination-passing style): arrays the runtime
  allocates (from `result_pool`, which recycles the buffers of results the caller dropped) or
  the caller's `out=` arrays. A call returns the single output array, a tuple of them, or None
  when there is none.
- Parallel loops: the body is outlined into `void body(i64 begin, i64 end, ptr ctx)` and run by
  `void mlc_parallel_for(ptr body, ptr ctx, i64 lower, i64 upper, i64 step)`, a symbol the
  runtime provides (see `mlc.runtime.parallel`). `malloc`/`free`/`aligned_alloc` resolve from
  the process; the generated code frees what it allocates.

Bad calls raise TypeError (argument count, non-array, dtype, scalar kind) or ValueError (rank,
shape against a static or shared dim, non-contiguous or misaligned array; an `out=` array of the
wrong shape, read-only or overlapping an input), naming the argument.
"""

from typing import TYPE_CHECKING, Any

# The names below load their submodule on first use (PEP 562): `import mlc.runtime.parallel`
# does not load llvmlite, so `mlc.compile` can start the JIT's set-up on another thread (see
# `lowering.compile`) while it parses and lowers.
_EXPORTS = {
    "result_pool": "calling",
    "EntryNotFoundError": "engine",
    "HostTarget": "engine",
    "JITError": "engine",
    "JitOptions": "engine",
    "apply_fast_math": "engine",
    "host_target": "engine",
    "CacheInfo": "module",
    "CompileCache": "module",
    "JitModule": "module",
    "cache": "module",
    "compile_llvm_ir": "module",
    "chunk_bounds": "parallel",
    "default_threads": "parallel",
    "BufferPool": "pool",
    "PoolInfo": "pool",
    "ArgSpec": "signature",
    "DimExpr": "signature",
    "InputDim": "signature",
    "Signature": "signature",
    "SignatureError": "signature",
}


def __getattr__(name: str) -> Any:
    sub = _EXPORTS.get(name)
    if sub is None:
        raise AttributeError(f"module 'mlc.runtime' has no attribute '{name}'")
    import importlib

    value = getattr(importlib.import_module(f"mlc.runtime.{sub}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


if TYPE_CHECKING:
    from mlc.runtime.calling import result_pool
    from mlc.runtime.engine import (
        EntryNotFoundError,
        HostTarget,
        JITError,
        JitOptions,
        apply_fast_math,
        host_target,
    )
    from mlc.runtime.module import CacheInfo, CompileCache, JitModule, cache, compile_llvm_ir
    from mlc.runtime.parallel import chunk_bounds, default_threads
    from mlc.runtime.pool import BufferPool, PoolInfo
    from mlc.runtime.signature import ArgSpec, DimExpr, InputDim, Signature, SignatureError

__all__ = [
    "ArgSpec",
    "BufferPool",
    "CacheInfo",
    "CompileCache",
    "EntryNotFoundError",
    "HostTarget",
    "DimExpr",
    "InputDim",
    "JITError",
    "JitModule",
    "JitOptions",
    "PoolInfo",
    "Signature",
    "SignatureError",
    "apply_fast_math",
    "cache",
    "chunk_bounds",
    "compile_llvm_ir",
    "default_threads",
    "host_target",
    "result_pool",
]
