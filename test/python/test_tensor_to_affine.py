"""convert-tensor-to-affine: loop-nest structure, and numerics of the whole path so far.

Graph programs covering every graph op kind go through convert-graph-to-tensor, bufferize and
convert-tensor-to-affine; the test-only executor of test_bufferize.py runs the loops (checking
memory discipline) and the results are compared with mlc.interp on the original graph program.
Tolerances as in test_graph_to_tensor.py (the reference accumulates in float64).
"""

from __future__ import annotations

import numpy as np
import pytest
from test_bufferize import check_deallocs, func_named, run_buffers

import mlc
from mlc.interp import run
from mlc.ir.core import Operation
from mlc.pass_manager import PassError

PIPELINE = (
    "builtin.module(convert-graph-to-tensor,canonicalize,cse,bufferize,"
    "convert-tensor-to-affine,canonicalize,cse)"
)
RNG = np.random.default_rng(99)


def f32(*shape: int, pos: bool = False) -> np.ndarray:
    x = RNG.standard_normal(shape) * 2
    return np.asarray(np.abs(x) + 0.1 if pos else x, np.float32)


def i32(*shape: int) -> np.ndarray:
    x = RNG.integers(-20, 20, size=shape).astype(np.int32)
    x[x == 0] = 3
    return x


def lower(text: str) -> Operation:
    module = mlc.parse(text)
    mlc.run_pipeline(module, PIPELINE)
    mlc.verify(module)
    names = {op.name for op in module.walk()}
    assert not any(n.startswith(("graph.", "tensor.")) for n in names), names
    check_deallocs(module)
    return module


# Each program: (body of @main with its signature, inputs); every graph op kind appears.
PROGRAMS: list[tuple[str, list[np.ndarray]]] = [
    (
        """func.func @main(%a: tensor<?x4xf32>, %b: tensor<4xf32>) -> tensor<?x4xf32> {
  %0 = graph.add %a, %b : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %1 = graph.sub %0, %a : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %2 = graph.mul %1, %b : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %3 = graph.div %2, %b : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %4 = graph.max %3, %a : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %5 = graph.min %4, %b : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  return %5 : tensor<?x4xf32>
}""",  # noqa: E501
        [f32(3, 4), f32(4, pos=True)],
    ),
    (
        """func.func @main(%a: tensor<5xf32>, %b: tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>) {
  %0 = graph.pow %a, %b : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
  %1 = graph.log %a : tensor<5xf32>
  %2 = graph.sqrt %0 : tensor<5xf32>
  %3 = graph.rsqrt %b : tensor<5xf32>
  %4 = graph.add %1, %2 : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
  return %4, %3 : tensor<5xf32>, tensor<5xf32>
}""",  # noqa: E501
        [f32(5, pos=True), f32(5, pos=True)],
    ),
    (
        """func.func @main(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %c = graph.cmp "lt", %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %n = graph.neg %a : tensor<2x3xf32>
  %s = graph.select %c, %n, %b : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %t = graph.abs %s : tensor<2x3xf32>
  %e = graph.exp %t : tensor<2x3xf32>
  %h = graph.tanh %e : tensor<2x3xf32>
  %g = graph.sigmoid %h : tensor<2x3xf32>
  %r = graph.relu %g : tensor<2x3xf32>
  %f = graph.erf %r : tensor<2x3xf32>
  %u = graph.gelu %f : tensor<2x3xf32>
  return %u : tensor<2x3xf32>
}""",  # noqa: E501
        [f32(2, 3), f32(3)],
    ),
    (
        """func.func @main(%a: tensor<?xi32>) -> (tensor<?xf32>, tensor<?xi32>, tensor<?xi1>) {
  %0 = graph.cast %a : tensor<?xi32> to tensor<?xf32>
  %1 = graph.neg %a : tensor<?xi32>
  %2 = graph.abs %1 : tensor<?xi32>
  %3 = graph.div %2, %a : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  %4 = graph.cast %a : tensor<?xi32> to tensor<?xi1>
  return %0, %3, %4 : tensor<?xf32>, tensor<?xi32>, tensor<?xi1>
}""",  # noqa: E501
        [i32(7)],
    ),
    (
        """func.func @main(%a: tensor<2x?x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x?x4xf32> {
  %0 = graph.matmul %a, %b : (tensor<2x?x3xf32>, tensor<3x4xf32>) -> tensor<2x?x4xf32>
  return %0 : tensor<2x?x4xf32>
}""",  # noqa: E501
        [f32(2, 5, 3), f32(3, 4)],
    ),
    (
        """func.func @main(%a: tensor<2x3x4xi32>) -> (tensor<4x2x3xi32>, tensor<6x4xi32>, tensor<3x2x2x3x4xi32>) {
  %0 = graph.transpose %a {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xi32>) -> tensor<4x2x3xi32>
  %1 = graph.reshape %a {shape = array<i64: 6, 4>} : (tensor<2x3x4xi32>) -> tensor<6x4xi32>
  %2 = graph.broadcast_to %a {shape = array<i64: 3, 2, 2, 3, 4>} : (tensor<2x3x4xi32>) -> tensor<3x2x2x3x4xi32>
  return %0, %1, %2 : tensor<4x2x3xi32>, tensor<6x4xi32>, tensor<3x2x2x3x4xi32>
}""",  # noqa: E501
        [i32(2, 3, 4)],
    ),
    (
        """func.func @main(%a: tensor<4x6xf32>) -> (tensor<4x3xf32>, tensor<8xf32>, tensor<2x3xf32>) {
  %0 = graph.reshape %a {shape = array<i64: 4, 2, 3>} : (tensor<4x6xf32>) -> tensor<4x2x3xf32>
  %1 = graph.reduce_sum %0 {axes = array<i64: 1>} : (tensor<4x2x3xf32>) -> tensor<4x3xf32>
  %2 = graph.reshape %0 {shape = array<i64: 3, 8>} : (tensor<4x2x3xf32>) -> tensor<3x8xf32>
  %3 = graph.reduce_max %2 {axes = array<i64: 0>} : (tensor<3x8xf32>) -> tensor<8xf32>
  %4 = graph.slice %a {starts = array<i64: 1, 0>, limits = array<i64: 4, 6>, strides = array<i64: 2, 2>} : (tensor<4x6xf32>) -> tensor<2x3xf32>
  return %1, %3, %4 : tensor<4x3xf32>, tensor<8xf32>, tensor<2x3xf32>
}""",  # noqa: E501
        [f32(4, 6)],
    ),
    (
        """func.func @main(%a: tensor<?x3xf32>, %b: tensor<2x3xf32>) -> (tensor<?x3xf32>, tensor<3xf32>, tensor<?x1xf32>) {
  %0 = graph.concat %a, %b, %a {axis = 0 : i64} : (tensor<?x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  %1 = graph.reduce_min %0 {axes = array<i64: 0>} : (tensor<?x3xf32>) -> tensor<3xf32>
  %2 = graph.reduce_mean %a {axes = array<i64: 1>, keepdims = true} : (tensor<?x3xf32>) -> tensor<?x1xf32>
  return %0, %1, %2 : tensor<?x3xf32>, tensor<3xf32>, tensor<?x1xf32>
}""",  # noqa: E501
        [f32(4, 3), f32(2, 3)],
    ),
    (
        """func.func @main(%a: tensor<?x5xf32>) -> tensor<?x5xf32> {
  %0 = graph.softmax %a {axis = 1 : i64} : (tensor<?x5xf32>) -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}""",  # noqa: E501
        [f32(3, 5)],
    ),
    (
        """func.func @main(%x: tensor<1x2x6x6xf32>, %w: tensor<4x2x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x3x3xf32> {
  %0 = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x6x6xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}""",  # noqa: E501
        [f32(1, 2, 6, 6), f32(4, 2, 3, 3), f32(4)],
    ),
    (
        """func.func @main(%x: tensor<1x2x?x?xf32>) -> (tensor<1x2x?x?xf32>, tensor<1x2x?x?xf32>) {
  %0 = graph.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x?x?xf32>) -> tensor<1x2x?x?xf32>
  %1 = graph.avg_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x?x?xf32>) -> tensor<1x2x?x?xf32>
  return %0, %1 : tensor<1x2x?x?xf32>, tensor<1x2x?x?xf32>
}""",  # noqa: E501
        [f32(1, 2, 6, 4)],
    ),
    (
        """func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %c = graph.constant dense<[1.0, -2.0, 3.0, 0.5]> : tensor<4xf32>
  %r = graph.fused ins(%a, %b : tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>, %y: tensor<4xf32>):
    %s = graph.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %t = graph.relu %s : tensor<4xf32>
    graph.yield %t : tensor<4xf32>
  }
  %m = graph.mul %r, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %m : tensor<4xf32>
}""",  # noqa: E501
        [f32(4), f32(4)],
    ),
    (
        """func.func @main(%a: tensor<f32>, %b: tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>) {
  %0 = graph.exp %a : tensor<f32>
  %1 = graph.add %a, %b : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  %2 = graph.reduce_sum %b {axes = array<i64: 0>} : (tensor<3xf32>) -> tensor<f32>
  %3 = graph.add %0, %2 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %3, %1 : tensor<f32>, tensor<3xf32>
}""",  # noqa: E501
        [np.array(0.5, np.float32), f32(3)],
    ),
]

ACCUMULATING = ("matmul", "reduce", "softmax", "conv2d", "avg_pool2d", "erf", "gelu")


def test_every_graph_op_kind_matches_the_interpreter() -> None:
    """All programs in one module (one pipeline run), each checked on its inputs."""
    text = "\n".join(t.replace("@main(", f"@c{i}(") for i, (t, _) in enumerate(PROGRAMS))
    reference = mlc.parse(text)
    kinds = {op.name for op in reference.walk() if op.name.startswith("graph.")}
    assert len(kinds) >= 36, sorted(kinds)  # every graph op kind (yield included)
    module = lower(text)
    for i, (case, inputs) in enumerate(PROGRAMS):
        expected = run(reference, f"c{i}", *inputs, verify=False)
        got = run_buffers(module, f"c{i}", inputs)
        assert len(got) == len(expected)
        tol = (1e-4, 1e-5) if any(k in case for k in ACCUMULATING) else (2e-5, 1e-6)
        for g, e in zip(got, expected):
            assert (g.dtype, g.shape) == (e.dtype, e.shape), case
            if e.dtype.kind in "biu":
                np.testing.assert_array_equal(g, e, err_msg=case)
            else:
                np.testing.assert_allclose(g, e, rtol=tol[0], atol=tol[1], err_msg=case)


@pytest.mark.parametrize("rows", [1, 2, 7])
def test_dynamic_sizes_run_on_several_shapes(rows: int) -> None:
    text, _ = PROGRAMS[7]
    reference = mlc.parse(text)
    module = lower(text)
    inputs = [f32(rows, 3), f32(2, 3)]
    for g, e in zip(run_buffers(module, "main", inputs), run(reference, "main", *inputs)):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)


def loops(op: Operation) -> list[Operation]:
    return [o for o in op.walk(post_order=False) if o.name == "affine.for"]


def test_loop_nest_structure() -> None:
    """One affine.for per loop in iterator order, 0 to the size (memref.dim when dynamic);
    inputs loaded through their maps, reductions load and store the output element."""
    text = """
func.func @main(%a: memref<?x8xf32>, %b: memref<8xf32>, %acc: memref<?xf32>) {
  tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d1)>,
                                   affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a, %b : memref<?x8xf32>, memref<8xf32>) outs(%acc : memref<?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %o : f32
    tensor.yield %s : f32
  }
  return
}
"""
    module = mlc.parse(text)
    mlc.run_pipeline(module, "builtin.module(convert-tensor-to-affine)")
    mlc.verify(module)
    fn = func_named(module, "main")
    outer, inner = loops(fn)
    assert inner.parent_op is outer
    assert str(outer.upper_bound_map) == "()[s0] -> (s0)"
    dim = outer.operands[0].defining_op()
    assert dim.name == "memref.dim" and dim.operands[0] is fn.arguments[0]
    assert str(inner.upper_bound_map) == "() -> (8)"
    body = [o.name for o in inner.body_block]
    assert body == [
        "affine.load", "affine.load", "affine.load", "arith.mulf", "arith.addf",
        "affine.store", "affine.yield",
    ]  # fmt: skip
    loads = [o for o in inner.body_block if o.name == "affine.load"]
    assert [str(o.get_attr("map").value) for o in loads] == [
        "(d0, d1) -> (d0, d1)", "(d0, d1) -> (d1)", "(d0, d1) -> (d0)",
    ]  # fmt: skip
    a = np.arange(24, dtype=np.float32).reshape(3, 8)
    b = np.linspace(0, 1, 8, dtype=np.float32)
    interp_out = np.ones(3, np.float32)
    from test_bufferize import Buf, BufferInterpreter, Rec

    interp = BufferInterpreter(module)
    args = [Buf(x, Rec("arg", x.reshape(-1))) for x in (a, b, interp_out)]
    interp.call(fn, args)
    np.testing.assert_allclose(interp_out, 1 + a @ b, rtol=1e-6)


def test_unread_operands_are_not_loaded() -> None:
    text = """
func.func @main(%a: memref<4xf32>, %o: memref<4xf32>) {
  %c = arith.constant 2.0 : f32
  tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                  iterator_types = ["parallel"]} ins(%a : memref<4xf32>) outs(%o : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    tensor.yield %c : f32
  }
  return
}
"""
    module = mlc.parse(text)
    mlc.run_pipeline(module, "builtin.module(convert-tensor-to-affine)")
    (loop,) = loops(module)
    assert [o.name for o in loop.body_block] == ["affine.store", "affine.yield"]


def test_tensor_form_is_rejected() -> None:
    text = """
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.relu %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""
    module = mlc.parse(text)
    with pytest.raises(PassError) as info:
        mlc.run_pipeline(module, "builtin.module(convert-graph-to-tensor,convert-tensor-to-affine)")
    (d,) = info.value.diagnostics
    assert "failed to legalize operation 'tensor.generic'" in str(d)
    assert "not supported: tensor.generic on tensors; run bufferize first" in str(d)
    assert d.location is not None and d.location.line == 3


# ---------------------------------------------------------------------------------------------
# End to end: the same programs through convert-to-llvm, the translation and the JIT


def jit_signatures(module: Operation, originals: dict) -> dict:
    """Runtime signatures from the original tensor types and `mlc.result_shapes`; functions
    with a result dim the runtime cannot describe (not a constant or an input dim) are left
    out (the executor test covers them)."""
    from mlc.ir import attributes as A
    from mlc.runtime import ArgSpec, InputDim, Signature

    sigs = {}
    for op in module.regions[0].blocks[0]:
        name = op.get_attr("sym_name")
        shapes = op.get_attr("mlc.result_shapes")
        if op.name != "llvm.func" or shapes is None or name.value not in originals:
            continue
        ins, outs = originals[name.value]
        dims = [(k, j, d) for k, t in enumerate(ins) for j, d in enumerate(t.shape)]
        inputs = [
            ArgSpec(
                f"a{k}", str(t.element_type), tuple(None if d == A.DYNAMIC else d for d in t.shape)
            )
            for k, t in enumerate(ins)
        ]
        outputs = []
        for r, (t, m) in enumerate(zip(outs, shapes)):
            shape: list = []
            for e in m.value.results:
                if e.kind == "constant":
                    shape.append(e.value)
                elif e.kind == "symbol":
                    k, j, d = dims[e.position]
                    shape.append(d if d != A.DYNAMIC else InputDim(k, j))
                else:
                    break
            else:
                outputs.append(ArgSpec(f"r{r}", str(t.element_type), tuple(shape)))
                continue
            break
        else:
            sigs[name.value] = Signature(inputs, outputs)
    return sigs


JIT_PROGRAMS = (4, 6, 11, 12)


def test_graph_programs_compiled_match_the_interpreter() -> None:
    translate = pytest.importorskip("mlc.lowering.translate")
    pytest.importorskip("llvmlite")
    from mlc.runtime import compile_llvm_ir

    # A subset keeps LLVM's compile time low: dynamic matmul, views (slices, reshapes) with
    # reductions, a global constant with fused ops, rank 0.
    programs = [PROGRAMS[k] for k in JIT_PROGRAMS]
    text = "\n".join(t.replace("@main(", f"@c{i}(") for i, (t, _) in enumerate(programs))
    reference = mlc.parse(text)
    module = mlc.parse(text)
    originals = {}
    for op in module.regions[0].blocks[0]:
        ft = op.get_attr("function_type").value
        originals[op.get_attr("sym_name").value] = (ft.inputs, ft.results)
    mlc.run_pipeline(
        module,
        PIPELINE[:-1] + ",convert-to-llvm,reconcile-unrealized-casts,canonicalize,cse)",
    )
    sigs = jit_signatures(module, originals)
    assert len(sigs) == len(programs), sorted(sigs)
    jit = compile_llvm_ir(translate.translate_module(module), sigs, opt_level=1)
    for i, (case, inputs) in enumerate(programs):
        name = f"c{i}"
        if name not in sigs:
            continue
        expected = run(reference, name, *inputs, verify=False)
        got = jit[name](*inputs)
        got = got if isinstance(got, tuple) else (got,)
        tol = (1e-4, 1e-5) if any(k in case for k in ACCUMULATING) else (2e-5, 1e-6)
        for g, e in zip(got, expected):
            assert (g.dtype, g.shape) == (e.dtype, e.shape), case
            if e.dtype.kind in "biu":
                np.testing.assert_array_equal(g, e, err_msg=case)
            else:
                np.testing.assert_allclose(g, e, rtol=tol[0], atol=tol[1], err_msg=case)
