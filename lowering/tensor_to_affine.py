"""`convert-tensor-to-affine`: buffer-form `tensor.generic` to affine loop nests.

Each buffer-form generic (memref operands, no results: what `bufferize` produces) becomes a
perfect nest of `affine.for` loops, one per loop dimension in iterator order (outermost first),
from 0 to the loop size, step 1. The size is a constant when an operand dimension that the loop
indexes directly is static, else a `memref.dim` of such an operand (`shape_to_loops`), emitted
before the nest. Parallel and reduction dimensions alike become `affine.for`: later passes
(affine-parallelize, tiling, interchange) decide what runs in parallel, and a plain nest keeps
reductions simple (the output element is read and written in every iteration).

In the innermost body: one `affine.load` per input whose body argument is used, through its
indexing map (any affine map of the loop indices: constants for broadcast dims, `d0 + d1` for
windows); an `affine.load` of each output whose current value the body reads; the body's scalar
ops, cloned; and an `affine.store` of each yielded value through the output's map.

The tensor form is not accepted ("not supported: tensor.generic on tensors; run bufferize
first"). Other buffer-level ops (memref.copy, views, allocations) stay for convert-to-llvm.
"""

from __future__ import annotations

from typing import Any

from mlc.dialects import affine, affine_ops, arith, memref, tensor

from mlc.diagnostics import Diagnostic, engine
from mlc.ir import attributes as A
from mlc.ir.core import Block, Operation, Value
from mlc.pass_manager import Pass, PassContext, Statistic

__all__ = ["ConvertTensorToAffinePass", "lower_generic", "Unsupported"]


class Unsupported(Exception):
    """A generic this conversion cannot lower; `op` is where to report it."""

    def __init__(self, op: Operation, what: str) -> None:
        super().__init__(f"not supported: {what}")
        self.op = op


def check_generic(op: Any) -> None:
    """Raise Unsupported unless `op` is a lowerable buffer-form generic."""
    if not op.has_buffer_semantics:
        raise Unsupported(op, "tensor.generic on tensors; run bufferize first")
    for v in op.operands:
        t = v.type
        try:
            t.strides_and_offset()
        except ValueError:
            raise Unsupported(
                op, f"operand of type {t} (only identity and strided layouts)"
            ) from None
    body = op.body
    term = body.last
    if term is None or term.name != "tensor.yield":
        raise Unsupported(op, "tensor.generic body not ending in tensor.yield")
    try:
        op.shape_to_loops()
    except ValueError as e:
        raise Unsupported(op, str(e)) from None


def lower_generic(op: Any) -> Operation:
    """Replace buffer-form generic `op` by its loop nest; returns the outermost op built (the
    first op of the nest, or the first op of the body for a zero-loop generic)."""
    block = op.parent
    loc = op.location
    made: list[Operation] = []

    def before(new: Operation) -> Operation:
        new.location = loc
        block.insert_before(new, op)
        made.append(new)
        return new

    # Loop sizes.
    operands = list(op.operands)
    static = op.loop_sizes()
    sources = op.shape_to_loops()
    uppers: list[int | Value] = []
    for d, size in enumerate(static):
        if size != A.DYNAMIC:
            uppers.append(size)
            continue
        k, dim = sources[d]
        c = before(arith.ConstantOp.from_int(dim, A.index)).results[0]
        uppers.append(before(memref.DimOp.build([operands[k], c])).results[0])
    # The nest.
    ivs: list[Value] = []
    inner_block: Block = block
    anchor: Operation | None = op
    first: Operation | None = made[0] if made else None
    for ub in uppers:
        loop = affine.ForOp.build_for(0, ub, 1, location=loc)
        if anchor is not None:
            inner_block.insert_before(loop, anchor)
        else:
            inner_block.insert_before(loop, inner_block.last)  # before the affine.yield
        if first is None:
            first = loop
        ivs.append(loop.induction_var)
        inner_block = loop.body_block
        anchor = None

    def emit(new: Operation) -> Operation:
        nonlocal first
        new.location = new.location or loc
        if anchor is not None:
            inner_block.insert_before(new, anchor)
        else:
            inner_block.insert_before(new, inner_block.last)
        if first is None:
            first = new
        return new

    body = op.body
    maps = op.indexing_map_list()
    n_in = len(op.inputs)
    mapping: dict[Any, Any] = {}
    for arg, v, m in zip(body.arguments, operands, maps):
        if not arg.has_uses():
            continue  # an input not read, or an output whose current value is not read
        load = emit(affine_ops.LoadOp.build_load(v, ivs, m, location=loc))
        mapping[arg] = load.results[0]
    term = body.last
    for inner in body:
        if inner is term:
            break
        emit(inner.clone(mapping))
    for j, y in enumerate(term.operands):
        value = mapping.get(y, y)
        k = n_in + j
        emit(affine_ops.StoreOp.build_store(value, operands[k], ivs, maps[k], location=loc))
    op.erase()
    assert first is not None
    return first


class ConvertTensorToAffinePass(Pass):
    """Lower buffer-form tensor.generic ops to affine.for nests with affine loads and stores.

    One affine.for per loop dimension (iterator order, 0 to the size, step 1); inputs are read
    through their indexing maps, the body's scalar ops cloned, yielded values stored through
    the outputs' maps (reductions read and write the output element in every iteration). A
    tensor.generic on tensors is an error: run bufferize first.
    """

    name = "convert-tensor-to-affine"
    num_lowered = Statistic("num-lowered", "Number of tensor.generic ops lowered")

    def run(self, op: Operation, ctx: PassContext) -> None:
        generics = [o for o in op.walk() if type(o) is tensor.GenericOp and o is not op]
        try:
            for g in generics:
                check_generic(g)
        except Unsupported as e:
            diag = Diagnostic(
                "error", "failed to legalize operation 'tensor.generic'", e.op.location
            )
            diag.attach_note(str(e))
            engine.emit(diag)
            ctx.signal_failure()
            return
        for g in generics:
            lower_generic(g)
        self.num_lowered += len(generics)
