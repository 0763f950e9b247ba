"""`tensor-fusion`: fuse elementwise `tensor.generic` producers into their consumers (MLIR's linalg
elementwise fusion), so a graph.fused kernel lowered op by op becomes fewer loop nests.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mlc.dialects.tensor import DimOp, GenericOp

from mlc.ir import attributes as A
from mlc.ir.affine import AffineDimExpr, AffineMap
from mlc.ir.core import Block, Operation, Region, Value
from mlc.pass_manager import Option, Pass, PassContext, Statistic

_EXPENSIVE_DIALECTS = ("math",)  # transcendental scalar ops: worth many arith ops


def recompute_cost(producer: Operation) -> int:
    """A rough per-element cost of the producer's body (math ops count 8, others 1)."""
    cost = 0
    for op in producer.regions[0].blocks[0]:
        if op.dialect_name in _EXPENSIVE_DIALECTS:
            cost += 8
        elif op.name != "tensor.yield":
            cost += 1
    return cost


def _only_consumer(value: Value, consumer: Operation) -> bool:
    """`value` is used once, by `consumer`; tensor.dim uses (sizes, answered by the producer's
    init as well) are moved to that init first."""
    producer = value.defining_op()
    init = producer.outputs[0]  # type: ignore[union-attr]
    n = 0
    for use in list(value.uses):
        owner = use.owner
        if type(owner) is DimOp:
            owner.set_operand(0, init)
        elif owner is consumer:
            n += 1
        else:
            return False
    return n == 1


def _fusable_producer(
    consumer: Operation, index: int, same_kernel: KernelTest, broadcast_limit: int
) -> Operation | None:
    """The producer generic of `consumer`'s input `index` if it can be fused into it: tensor form,
    all loops parallel, one output (with a permutation map, its value not read by the body),
    its result used only here (tensor.dim uses aside), in the same kernel. A consumer reading it
    through a non-permutation map (a broadcast) recomputes it per broadcast element: allowed
    when its body costs at most `broadcast_limit`."""
    value = consumer._operands[index].value
    producer = value.defining_op()
    if type(producer) is not GenericOp or producer.parent is not consumer.parent:
        return None
    if producer.has_buffer_semantics or len(producer.results) != 1:
        return None
    if not same_kernel(producer, consumer):
        return None
    if any(k.value != "parallel" for k in producer.iterator_types):
        return None
    maps = producer.indexing_map_list()
    if not maps[-1].is_permutation():
        return None
    block = producer.regions[0].blocks[0]
    if block.arguments[-1].has_uses():
        return None
    c_map = consumer.indexing_map_list()[index]
    if not c_map.is_permutation() and recompute_cost(producer) > broadcast_limit:
        return None
    # The intermediate may be the only operand that gives a loop its size (a broadcast feeding
    # a reduction over the broadcast dim): without it the fused op's loop bounds are unknown.
    defined = set()
    for m in _fused_maps(consumer, index, producer):
        defined.update(r.position for r in m.results if type(r) is AffineDimExpr)
    if len(defined) < len(consumer.iterator_types):
        return None
    if not _only_consumer(value, consumer):
        return None
    return producer


KernelTest = Callable[[Operation, Operation], bool]


def _any_kernel(producer: Operation, consumer: Operation) -> bool:
    return True


def fuse_in_block(
    block: Block,
    same_kernel: KernelTest = _any_kernel,
    broadcast_limit: int = 4,
    on_fused: Callable[[Operation, Operation], None] | None = None,
) -> int:
    """Fuse producers into consumers in `block` (and nested blocks); returns the number fused.
    `same_kernel(producer, consumer)` says whether a pair may fuse; `on_fused(consumer, fused)`
    is told of each replacement."""
    count = 0
    op = block.first
    while op is not None:
        for region in op.regions:
            for nested in region.blocks:
                count += fuse_in_block(nested, same_kernel, broadcast_limit, on_fused)
        nxt = op.next
        if type(op) is GenericOp and not op.has_buffer_semantics:
            changed = True
            while changed:
                changed = False
                for i in range(len(op.inputs)):
                    producer = _fusable_producer(op, i, same_kernel, broadcast_limit)
                    if producer is not None:
                        fused = fuse_into(op, i, producer)
                        if on_fused is not None:
                            on_fused(op, fused)
                        op = fused
                        count += 1
                        changed = True
                        break
            nxt = op.next
        op = nxt
    return count


def _fused_maps(consumer: Operation, index: int, producer: Operation) -> list[AffineMap]:
    """The indexing maps of the op fusing `producer` into `consumer`'s input `index`."""
    c_maps = consumer.indexing_map_list()
    p_maps = producer.indexing_map_list()
    to_producer_loops = p_maps[-1].inverse_permutation().compose(c_maps[index])
    return [
        *c_maps[:index],
        *(m.compose(to_producer_loops) for m in p_maps[:-1]),
        *c_maps[index + 1 :],
    ]


def fuse_into(consumer: Operation, index: int, producer: Operation) -> Operation:
    """Replace `consumer` by a generic computing `producer` inline for its input `index`."""
    inputs = [*consumer.inputs[:index], *producer.inputs, *consumer.inputs[index + 1 :]]
    maps = _fused_maps(consumer, index, producer)
    outputs = list(consumer.outputs)
    block = Block([v.type.element_type for v in (*inputs, *outputs)])
    args = block.arguments
    p_block = producer.regions[0].blocks[0]
    c_block = consumer.regions[0].blocks[0]
    n_p = len(producer.inputs)
    mapping: dict[Any, Any] = {}
    for k, arg in enumerate(p_block.arguments[:n_p]):
        mapping[arg] = args[index + k]
    for op in p_block:
        if op is p_block.last:
            break
        block.append(op.clone(mapping))
    produced = mapping.get(p_block.last._operands[0].value, p_block.last._operands[0].value)
    for k, arg in enumerate(c_block.arguments):
        if k < index:
            mapping[arg] = args[k]
        elif k == index:
            mapping[arg] = produced
        else:
            mapping[arg] = args[k + n_p - 1]
    for op in c_block:
        block.append(op.clone(mapping))
    attrs = {
        "indexing_maps": A.ArrayAttr([A.AffineMapAttr(m) for m in maps]),
        "iterator_types": consumer.get_attr("iterator_types"),
    }
    fused = GenericOp.build(
        [inputs, outputs],
        [[r.type for r in consumer.results]],
        attrs,
        regions=[Region([block])],
        location=consumer.location,
    )
    consumer.parent.insert_before(fused, consumer)
    for old, new in zip(consumer.results, fused.results):
        old.replace_all_uses_with(new)
    consumer.erase()
    producer.erase()
    return fused


class TensorFusionPass(Pass):
    """Fuse elementwise tensor.generic producers into their consumers.

    A producer whose loops are all parallel, with one output through a permutation map that
    its body does not read, and whose result only this consumer uses (tensor.dim uses are
    answered by the producer's init instead), is inlined into the consumer's body: its inputs
    become the fused op's inputs with maps composed through the consumer's map, so no
    intermediate tensor is built. A consumer reading the producer through a permutation
    recomputes nothing; one reading it through a broadcast or projection recomputes it per
    broadcast element, which is allowed when the producer's body is cheap
    (`broadcast-recompute-limit`, math ops counting 8, others 1). Elementwise producers fuse
    into reductions the same way (input fusion). Consumers are visited in order; a fused op is
    tried again, so chains collapse into one generic. Lowering a graph.fused kernel
    (convert-graph-to-tensor) runs the same fusion restricted to each kernel's generics.

        %1 = tensor.generic {... exp ...} ins(%a) outs(%e0)
        %2 = tensor.generic {... addf ...} ins(%1, %b) outs(%e1)
        // becomes
        %2 = tensor.generic {... exp; addf ...} ins(%a, %b) outs(%e1)
    """

    name = "tensor-fusion"
    anchor = "func.func"
    broadcast_recompute_limit = Option(
        int,
        4,
        "Largest body cost of a producer fused through a broadcasting map (recomputed per "
        "broadcast element; math ops count 8, others 1); 0 fuses permutations only",
    )
    num_fused = Statistic("num-fused", "Number of producers fused into their consumers")

    def run(self, op: Operation, ctx: PassContext) -> None:
        if self.broadcast_recompute_limit < 0:
            ctx.error("tensor-fusion: broadcast-recompute-limit must be >= 0", op)
            return
        for region in op.regions:
            for block in region.blocks:
                self.num_fused += fuse_in_block(
                    block, broadcast_limit=self.broadcast_recompute_limit
                )
