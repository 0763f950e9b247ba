"""`tensor-fusion`: fuse elementwise `tensor.generic` producers into their consumers (MLIR's linalg
elementwise fusion), so a graph.fused kernel lowered op by op becomes fewer loop nests.
"""

from __future__ import annotations

from typing import Any

from mlc.dialects.tensor import GenericOp

from mlc.ir import attributes as A
from mlc.ir.affine import AffineDimExpr, AffineMap
from mlc.ir.core import Block, Operation, Region
from mlc.pass_manager import Pass, PassContext, Statistic


def _fusable_producer(consumer: Operation, index: int) -> Operation | None:
    """The producer generic of `consumer`'s input `index` if it can be fused into it: tensor form,
    all loops parallel, one output (with a permutation map, its value not read by the body),
    its result used only here, and the consumer reading it through a permutation map (so no
    element is recomputed)."""
    value = consumer._operands[index].value
    producer = value.defining_op()
    if type(producer) is not GenericOp or producer.parent is not consumer.parent:
        return None
    if producer.has_buffer_semantics or len(producer.results) != 1 or not value.has_one_use():
        return None
    if any(k.value != "parallel" for k in producer.iterator_types):
        return None
    maps = producer.indexing_map_list()
    if not maps[-1].is_permutation():
        return None
    block = producer.regions[0].blocks[0]
    if block.arguments[-1].has_uses():
        return None
    if not consumer.indexing_map_list()[index].is_permutation():
        return None
    # The intermediate may be the only operand that gives a loop its size (a broadcast feeding
    # a reduction over the broadcast dim): without it the fused op's loop bounds are unknown.
    defined = set()
    for m in _fused_maps(consumer, index, producer):
        defined.update(r.position for r in m.results if type(r) is AffineDimExpr)
    if len(defined) < len(consumer.iterator_types):
        return None
    return producer


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
    its body does not read, and whose result only this consumer uses (through a permutation
    map), is inlined into the consumer's body: its inputs become the fused op's inputs with
    maps composed through the consumer's map, so no intermediate tensor is built and no element
    is recomputed. Consumers are visited in order; a fused op is tried again, so chains collapse
    into one generic.

        %1 = tensor.generic {... exp ...} ins(%a) outs(%e0)
        %2 = tensor.generic {... addf ...} ins(%1, %b) outs(%e1)
        // becomes
        %2 = tensor.generic {... exp; addf ...} ins(%a, %b) outs(%e1)
    """

    name = "tensor-fusion"
    anchor = "func.func"
    num_fused = Statistic("num-fused", "Number of producers fused into their consumers")

    def run(self, op: Operation, ctx: PassContext) -> None:
        for region in op.regions:
            for block in region.blocks:
                self._run_on_block(block)

    def _run_on_block(self, block: Block) -> None:
        op = block.first
        while op is not None:
            for region in op.regions:
                for nested in region.blocks:
                    self._run_on_block(nested)
            nxt = op.next
            if type(op) is GenericOp and not op.has_buffer_semantics:
                changed = True
                while changed:
                    changed = False
                    for i in range(len(op.inputs)):
                        producer = _fusable_producer(op, i)
                        if producer is not None:
                            op = fuse_into(op, i, producer)
                            self.num_fused += 1
                            changed = True
                            break
                nxt = op.next
            op = nxt
