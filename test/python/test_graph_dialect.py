"""The graph dialect: shape inference against NumPy and independent formulas, the builder API,
folders, normalized attribute accessors, and interop of the generic form with MLIR (iree-opt)."""

from __future__ import annotations

import re
import shutil
import subprocess
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mlc.dialects import func
from mlc.dialects import graph as g
from mlc.dialects.graph import DYNAMIC, ShapeInferenceError, broadcast_shapes

import mlc
from mlc.ir import attributes as A
from mlc.ir.builder import Builder
from mlc.ir.context import default_context
from mlc.ir.core import Block, Region

SETTINGS = settings(max_examples=25, deadline=None, derandomize=True)
F32 = A.f32


def tt(shape: tuple[int, ...] | list[int], et: A.Type = F32) -> A.RankedTensorType:
    return A.RankedTensorType(list(shape), et)


def i64s(*values: int) -> A.DenseArrayAttr:
    return A.DenseArrayAttr(A.i64, values)


def infer(cls: type, shapes: list, attrs: dict | None = None, et: A.Type = F32) -> tuple:
    """The inferred shape of `cls` on operands of `shapes` (element type `et`)."""
    (t,) = cls.infer_result_types([tt(s, et) for s in shapes], attrs or {})
    return t.shape


# ---------------------------------------------------------------------------------------------
# Registration and docs


def test_dialect_registers_every_op() -> None:
    ops = default_context().get_dialect("graph").ops
    assert len(ops) == 38
    assert ops["graph.conv2d"] is g.Conv2DOp and ops["graph.yield"] is g.YieldOp
    for name, cls in ops.items():
        doc = cls.__doc__ or ""
        assert cls.summary and cls.summary == doc.strip().splitlines()[0], name
        # A description paragraph, then an indented example in the custom syntax.
        paragraphs = [p for p in doc.split("\n\n") if p.strip()]
        assert len(paragraphs) >= 3, name
        assert f"{name} " in paragraphs[-1] or f"{name}\n" in paragraphs[-1], name


def example_of(cls: type) -> str:
    """The indented example that ends an op's docstring, dedented."""
    paragraphs = [p for p in (cls.__doc__ or "").split("\n\n") if p.strip()]
    return textwrap.dedent(paragraphs[-1]).strip()


@pytest.mark.parametrize(
    "cls", [c for n, c in sorted(g.DIALECT.ops.items()) if n not in ("graph.fused", "graph.yield")]
)
def test_docstring_example_verifies(cls: type) -> None:
    """Each one-op example parses and verifies, its operands typed from the example's types."""
    line = example_of(cls)
    head, _, types = line.partition(" = ")[2].rpartition(" : ")
    operands = list(dict.fromkeys(re.findall(r"%\w+", head)))
    if types.startswith("("):
        operand_types = re.findall(r"tensor<[^>]*>", types.partition(") -> ")[0])
    else:
        operand_types = [types.partition(" to ")[0]] * len(operands)
    typed = dict(zip(re.findall(r"%\w+", head), operand_types))
    args = ", ".join(f"{o}: {typed[o]}" for o in operands)
    module = mlc.parse(f"func.func @f({args}) {{\n  {line}\n  return\n}}")
    module.verify()
    assert type(module.regions[0].blocks[0].first.regions[0].blocks[0].first) is cls


def test_property_names_and_defaults() -> None:
    assert g.Conv2DOp._prop_names == {"strides", "pads", "dilations", "groups"}
    assert g.MaxPool2DOp._prop_names == {"kernel", "strides", "pads"}
    assert g.ReduceSumOp._prop_names == {"axes", "keepdims"}
    assert g.CmpOp._prop_names == {"predicate"}
    text = (
        "func.func @f(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {\n"
        "  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)"
        " -> tensor<1x4x6x6xf32>\n"
        "  %1 = graph.reduce_sum %x {axes = array<i64: 1>} : (tensor<1x3x8x8xf32>)"
        " -> tensor<1x8x8xf32>\n  return\n}"
    )
    generic = mlc.parse(text).print(generic=True)
    assert (
        "<{dilations = array<i64: 1, 1>, groups = 1 : i64, pads = array<i64: 0, 0, 0, 0>, "
        "strides = array<i64: 1, 1>}>" in generic
    )
    assert "<{axes = array<i64: 1>, keepdims = false}>" in generic
    custom = str(mlc.parse(generic))
    assert "graph.conv2d %arg0, %arg1 : (" in custom
    assert "graph.reduce_sum %arg0 {axes = array<i64: 1>} :" in custom


# ---------------------------------------------------------------------------------------------
# Broadcasting

shapes_st = st.lists(st.sampled_from([0, 1, 1, 2, 3, 4]), min_size=0, max_size=4).map(tuple)


@given(st.lists(shapes_st, min_size=1, max_size=3))
@SETTINGS
def test_broadcast_shapes_matches_numpy(shapes: list[tuple[int, ...]]) -> None:
    try:
        expected = np.broadcast_shapes(*shapes)
    except ValueError:
        with pytest.raises(ShapeInferenceError, match="not broadcast-compatible"):
            broadcast_shapes(*shapes)
        return
    assert broadcast_shapes(*shapes) == expected


@st.composite
def broadcastable(draw: st.DrawFn) -> list[tuple[int, ...]]:
    """2-3 shapes that broadcast: each dim of each shape is the target dim or 1 (or dropped)."""
    target = draw(st.lists(st.integers(0, 5), max_size=4))
    out = []
    for _ in range(draw(st.integers(2, 3))):
        drop = draw(st.integers(0, len(target)))
        out.append(tuple(d if draw(st.booleans()) else 1 for d in target[drop:]))
    return out


@given(broadcastable(), st.sampled_from([g.AddOp, g.SubOp, g.MulOp, g.MaxOp, g.PowOp]))
@SETTINGS
def test_binary_inference_matches_numpy(shapes: list, cls: type) -> None:
    a, b = shapes[0], shapes[1]
    assert infer(cls, [a, b]) == np.broadcast_shapes(a, b)


@given(broadcastable())
@SETTINGS
def test_select_and_cmp_inference_match_numpy(shapes: list) -> None:
    c, a, b = (shapes + [()])[:3]
    (t,) = g.SelectOp.infer_result_types([tt(c, A.i1), tt(a), tt(b)], {})
    assert t.shape == np.broadcast_shapes(c, a, b) and t.element_type is F32
    (t,) = g.CmpOp.infer_result_types([tt(a), tt(b)], {"predicate": A.StringAttr("le")})
    assert t.shape == np.broadcast_shapes(a, b) and t.element_type is A.i1


@pytest.mark.parametrize(
    "a, b, expected",
    [
        ((DYNAMIC,), (1,), (DYNAMIC,)),
        ((1,), (DYNAMIC,), (DYNAMIC,)),
        ((DYNAMIC,), (4,), (4,)),
        ((4,), (DYNAMIC,), (4,)),
        ((DYNAMIC,), (DYNAMIC,), (DYNAMIC,)),
        ((DYNAMIC, 1), (3,), (DYNAMIC, 3)),
        ((2, DYNAMIC), (DYNAMIC, 1, 1), (DYNAMIC, 2, DYNAMIC)),
        ((DYNAMIC,), (0,), (0,)),
    ],
)
def test_broadcast_of_dynamic_dims(a: tuple, b: tuple, expected: tuple) -> None:
    assert broadcast_shapes(a, b) == expected
    assert broadcast_shapes(b, a) == expected


def test_unranked_operands() -> None:
    u = A.UnrankedTensorType(F32)
    assert g.AddOp.infer_result_types([u, tt((4,))], {}) == [u]
    assert g.ExpOp.infer_result_types([u], {}) == [u]
    # The ranked operands are still checked against each other.
    with pytest.raises(ShapeInferenceError, match="not broadcast-compatible"):
        g.SelectOp.infer_result_types([tt((3,), A.i1), u, tt((4,))], {})
    for cls, attrs in [
        (g.TransposeOp, {"perm": i64s(0)}),
        (g.ReduceSumOp, {"axes": i64s()}),
        (g.SoftmaxOp, {"axis": A.IntegerAttr(0, A.i64)}),
    ]:
        with pytest.raises(ShapeInferenceError, match="not supported: unranked tensor operand"):
            cls.infer_result_types([u], attrs)
    with pytest.raises(ShapeInferenceError, match="not supported: unranked tensor operand"):
        g.MatmulOp.infer_result_types([u, tt((2, 2))], {})


def test_element_type_rules() -> None:
    i1, i32 = A.i1, A.i32
    with pytest.raises(ShapeInferenceError, match="not supported on i1"):
        g.AddOp.infer_result_types([tt((2,), i1)] * 2, {})
    assert g.MaxOp.infer_result_types([tt((2,), i1)] * 2, {}) == [tt((2,), i1)]
    with pytest.raises(ShapeInferenceError, match="floating-point"):
        g.PowOp.infer_result_types([tt((2,), i32)] * 2, {})
    with pytest.raises(ShapeInferenceError, match="same element type"):
        g.DivOp.infer_result_types([tt((2,), i32), tt((2,), A.i64)], {})
    assert g.ReluOp.infer_result_types([tt((2,), i32)], {}) == [tt((2,), i32)]
    with pytest.raises(ShapeInferenceError, match="floating-point"):
        g.SigmoidOp.infer_result_types([tt((2,), i32)], {})
    with pytest.raises(ShapeInferenceError, match="floating-point"):
        g.ReduceMeanOp.infer_result_types([tt((2,), i32)], {"axes": i64s(0)})
    assert infer(g.ReduceMaxOp, [(2, 3)], {"axes": i64s(1)}, et=A.i64) == (2,)
    assert infer(g.ReduceMinOp, [(2, 3)], {"axes": i64s(1)}, et=i1) == (2,)
    with pytest.raises(ShapeInferenceError, match="not supported on i1"):
        infer(g.ReduceSumOp, [(2, 3)], {"axes": i64s(1)}, et=i1)
    with pytest.raises(ShapeInferenceError, match="not supported on i1"):
        infer(g.MatmulOp, [(2, 3), (3, 2)], et=i1)


# ---------------------------------------------------------------------------------------------
# Shape ops against NumPy


@st.composite
def matmul_shapes(draw: st.DrawFn) -> tuple:
    batch = draw(broadcastable())
    m, k, n = draw(st.integers(1, 4)), draw(st.integers(1, 4)), draw(st.integers(1, 4))
    return (*batch[0], m, k), (*batch[1], k, n)


@given(matmul_shapes())
@SETTINGS
def test_matmul_inference_matches_numpy(shapes: tuple) -> None:
    a, b = shapes
    assert infer(g.MatmulOp, [a, b]) == np.matmul(np.zeros(a), np.zeros(b)).shape


def test_matmul_dynamic_and_errors() -> None:
    assert infer(g.MatmulOp, [(DYNAMIC, 3, DYNAMIC), (1, 7, 5)]) == (DYNAMIC, 3, 5)
    with pytest.raises(ShapeInferenceError, match="rank >= 2"):
        infer(g.MatmulOp, [(3,), (3, 2)])
    with pytest.raises(ShapeInferenceError, match="contracting dimensions do not match: 3 vs 4"):
        infer(g.MatmulOp, [(2, 3), (4, 2)])


@given(st.lists(st.integers(0, 4), max_size=5), st.randoms(use_true_random=False))
@SETTINGS
def test_transpose_matches_numpy(shape: list, rnd: object) -> None:
    perm = list(range(len(shape)))
    rnd.shuffle(perm)  # type: ignore[attr-defined]
    got = infer(g.TransposeOp, [tuple(shape)], {"perm": i64s(*perm)})
    assert got == np.transpose(np.zeros(shape), perm).shape


@given(st.lists(st.integers(1, 4), max_size=4), st.data())
@SETTINGS
def test_reshape_matches_numpy(shape: list, data: st.DataObject) -> None:
    n = int(np.prod(shape))
    divisors = [d for d in range(1, n + 1) if n % d == 0]
    target = [data.draw(st.sampled_from(divisors))]
    target.append(n // target[0])
    if data.draw(st.booleans()):
        target[data.draw(st.integers(0, 1))] = -1
    got = infer(g.ReshapeOp, [tuple(shape)], {"shape": i64s(*target)})
    assert got == np.zeros(shape).reshape(target).shape


def test_reshape_rules() -> None:
    assert infer(g.ReshapeOp, [(DYNAMIC, 6)], {"shape": i64s(-1, 3)}) == (DYNAMIC, 3)
    assert infer(g.ReshapeOp, [(DYNAMIC, 6)], {"shape": i64s(4, 3)}) == (4, 3)
    with pytest.raises(ShapeInferenceError, match="more than one -1"):
        infer(g.ReshapeOp, [(4, 6)], {"shape": i64s(-1, -1)})
    with pytest.raises(
        ShapeInferenceError, match=r"cannot reshape 24 elements into shape \[5, -1\]"
    ):
        infer(g.ReshapeOp, [(4, 6)], {"shape": i64s(5, -1)})
    with pytest.raises(ShapeInferenceError, match="cannot reshape 0 elements"):
        infer(g.ReshapeOp, [(0, 6)], {"shape": i64s(0, -1)})


@given(st.lists(st.integers(0, 6), min_size=1, max_size=3), st.data())
@SETTINGS
def test_slice_matches_numpy(shape: list, data: st.DataObject) -> None:
    starts, limits, strides = [], [], []
    for d in shape:
        lim = data.draw(st.integers(0, d))
        starts.append(data.draw(st.integers(0, lim)))
        limits.append(lim)
        strides.append(data.draw(st.integers(1, 4)))
    attrs = {"starts": i64s(*starts), "limits": i64s(*limits), "strides": i64s(*strides)}
    index = tuple(slice(s, lim, k) for s, lim, k in zip(starts, limits, strides))
    assert infer(g.SliceOp, [tuple(shape)], attrs) == np.zeros(shape)[index].shape
    # A dynamic operand dim gives the same result size (limits are checked at run time).
    dyn = [DYNAMIC] * len(shape)
    assert infer(g.SliceOp, [tuple(dyn)], attrs) == np.zeros(shape)[index].shape


@given(st.lists(st.integers(0, 4), max_size=4), st.data(), st.booleans())
@SETTINGS
def test_reductions_match_numpy(shape: list, data: st.DataObject, keepdims: bool) -> None:
    axes = sorted(data.draw(st.sets(st.integers(0, max(len(shape) - 1, 0)))) if shape else [])
    attrs = {"axes": i64s(*axes), "keepdims": A.BoolAttr(keepdims)}
    expected = np.sum(np.zeros(shape), axis=tuple(axes), keepdims=keepdims).shape
    for cls in (g.ReduceSumOp, g.ReduceMaxOp, g.ReduceMinOp, g.ReduceMeanOp):
        assert infer(cls, [tuple(shape)], attrs) == expected


@given(st.lists(st.integers(0, 3), min_size=1, max_size=3), st.data())
@SETTINGS
def test_concat_matches_numpy(shape: list, data: st.DataObject) -> None:
    axis = data.draw(st.integers(0, len(shape) - 1))
    shapes = []
    for _ in range(data.draw(st.integers(1, 3))):
        s = list(shape)
        s[axis] = data.draw(st.integers(0, 3))
        shapes.append(tuple(s))
    attrs = {"axis": A.IntegerAttr(axis, A.i64)}
    expected = np.concatenate([np.zeros(s) for s in shapes], axis=axis).shape
    assert infer(g.ConcatOp, shapes, attrs) == expected


def test_concat_and_broadcast_to_dynamic() -> None:
    axis0 = {"axis": A.IntegerAttr(0, A.i64)}
    assert infer(g.ConcatOp, [(2, DYNAMIC), (DYNAMIC, 3)], axis0) == (DYNAMIC, 3)
    target = {"shape": i64s(2, 5)}
    assert infer(g.BroadcastToOp, [(DYNAMIC,)], target) == (2, 5)
    assert infer(g.BroadcastToOp, [(1,)], target) == np.broadcast_to(np.zeros(1), (2, 5)).shape
    with pytest.raises(ShapeInferenceError, match="cannot be broadcast"):
        infer(g.BroadcastToOp, [(3,)], target)


# ---------------------------------------------------------------------------------------------
# Convolution and pooling against an independent count of window positions


def positions(size: int, lo: int, hi: int, extent: int, stride: int) -> int:
    """How many windows of `extent` elements fit in the padded input, stepping by `stride`."""
    count, start = 0, 0
    while start + extent <= size + lo + hi:
        count += 1
        start += stride
    return count


@st.composite
def conv_configs(draw: st.DrawFn) -> dict:
    groups = draw(st.integers(1, 3))
    return {
        "n": draw(st.integers(1, 2)),
        "cg": draw(st.integers(1, 3)),
        "og": draw(st.integers(1, 3)),
        "groups": groups,
        "hw": (draw(st.integers(1, 12)), draw(st.integers(1, 12))),
        "k": (draw(st.integers(1, 4)), draw(st.integers(1, 4))),
        "strides": (draw(st.integers(1, 3)), draw(st.integers(1, 3))),
        "pads": tuple(draw(st.integers(0, 3)) for _ in range(4)),
        "dilations": (draw(st.integers(1, 3)), draw(st.integers(1, 3))),
    }


@given(conv_configs(), st.booleans())
@SETTINGS
def test_conv2d_output_size_matches_window_count(c: dict, with_bias: bool) -> None:
    g_ = c["groups"]
    x = (c["n"], c["cg"] * g_, *c["hw"])
    w = (c["og"] * g_, c["cg"], *c["k"])
    attrs = {
        "strides": i64s(*c["strides"]),
        "pads": i64s(*c["pads"]),
        "dilations": i64s(*c["dilations"]),
        "groups": A.IntegerAttr(g_, A.i64),
    }
    top, left, bottom, right = c["pads"]
    ekh = c["dilations"][0] * (c["k"][0] - 1) + 1
    ekw = c["dilations"][1] * (c["k"][1] - 1) + 1
    oh = positions(c["hw"][0], top, bottom, ekh, c["strides"][0])
    ow = positions(c["hw"][1], left, right, ekw, c["strides"][1])
    shapes = [x, w] + ([(w[0],)] if with_bias else [])
    if oh < 1 or ow < 1:
        with pytest.raises(ShapeInferenceError, match="output size"):
            infer(g.Conv2DOp, shapes, attrs)
    else:
        assert infer(g.Conv2DOp, shapes, attrs) == (x[0], w[0], oh, ow)


@given(conv_configs(), st.sampled_from([g.MaxPool2DOp, g.AvgPool2DOp]))
@SETTINGS
def test_pool2d_output_size_matches_window_count(c: dict, cls: type) -> None:
    kh, kw = c["k"]
    pads = tuple(min(p, (kh, kw)[i % 2] - 1) for i, p in enumerate(c["pads"]))
    attrs = {"kernel": i64s(kh, kw), "strides": i64s(*c["strides"]), "pads": i64s(*pads)}
    x = (c["n"], c["cg"], *c["hw"])
    oh = positions(x[2], pads[0], pads[2], kh, c["strides"][0])
    ow = positions(x[3], pads[1], pads[3], kw, c["strides"][1])
    if oh < 1 or ow < 1:
        with pytest.raises(ShapeInferenceError, match="output size"):
            infer(cls, [x], attrs)
    else:
        assert infer(cls, [x], attrs) == (x[0], x[1], oh, ow)


def test_conv2d_dynamic_dims_and_defaults() -> None:
    assert infer(g.Conv2DOp, [(DYNAMIC, 3, DYNAMIC, 9), (4, 3, 3, DYNAMIC)]) == (
        DYNAMIC, 4, DYNAMIC, DYNAMIC,
    )  # fmt: skip
    # Unknown channels are not checked against groups.
    attrs = {"groups": A.IntegerAttr(2, A.i64)}
    assert infer(g.Conv2DOp, [(1, DYNAMIC, 5, 5), (4, 3, 3, 3)], attrs) == (1, 4, 3, 3)
    with pytest.raises(ShapeInferenceError, match="does not divide the output channels 3"):
        infer(g.Conv2DOp, [(1, 4, 5, 5), (3, 2, 3, 3)], attrs)


# ---------------------------------------------------------------------------------------------
# Builder API, verification, folders, accessors


def build_module() -> tuple:
    """func @f(%x: tensor<2x3xf32>, %w: tensor<3x4xf32>) built op by op from Python."""
    module = mlc.parse("")
    f = func.FuncOp.build_func("f", [tt((2, 3)), tt((3, 4))], [tt((4, 2))])
    module.regions[0].blocks[0].append(f)
    b = Builder.at_end(f.regions[0].blocks[0])
    x, w = f.regions[0].blocks[0].arguments
    mm = b.create(g.MatmulOp, [x, w])
    bias = b.create(g.ConstantOp, [], None, {"value": A.DenseElementsAttr(tt((4,)), 0.5)})
    add = b.create(g.AddOp, [mm.results[0], bias.results[0]])
    body = Region([Block([tt((2, 4))])])
    inner = Builder.at_end(body.blocks[0])
    relu = inner.create(g.ReluOp, [body.blocks[0].arguments[0]])
    inner.create(g.YieldOp, [[relu.results[0]]])
    fused = b.insert(g.FusedOp.from_region([add.results[0]], body))
    tr = b.create(g.TransposeOp, [fused.results[0]], None, {"perm": i64s(1, 0)})
    b.create(func.ReturnOp, [[tr.results[0]]])
    return module, mm, add, fused, tr


def test_build_ops_from_python() -> None:
    module, mm, add, fused, tr = build_module()
    module.verify()
    assert mm.results[0].type is tt((2, 4))
    assert add.results[0].type is tt((2, 4))
    assert fused.results[0].type is tt((2, 4))
    assert tr.results[0].type is tt((4, 2))
    text = str(module)
    assert (
        "graph.matmul %arg0, %arg1 : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>" in text
    )
    assert "%3 = graph.fused ins(%2 : tensor<2x4xf32>) -> tensor<2x4xf32> {" in text
    assert str(mlc.parse(text)) == text
    assert str(mlc.parse(module.print(generic=True))) == text


def test_build_rejects_bad_operands() -> None:
    with pytest.raises(ShapeInferenceError, match="contracting dimensions do not match"):
        x = build_module()[1].operands[0]
        g.MatmulOp.build([x, x])
    with pytest.raises(ShapeInferenceError, match="element type of graph.cast"):
        g.CastOp.infer_result_types([tt((2,))], {})
    cast = g.CastOp.get(build_module()[1].results[0], A.i32)
    assert cast.results[0].type is tt((2, 4), A.i32)


def test_verifier_reports_inference_mismatch_at_the_op() -> None:
    text = (
        "func.func @f(%a: tensor<4x1xf32>, %b: tensor<5xf32>) {\n"
        "  %0 = graph.add %a, %b : (tensor<4x1xf32>, tensor<5xf32>) -> tensor<4x6xf32>\n"
        "  return\n}"
    )
    with pytest.raises(mlc.VerifyError) as e:
        mlc.parse(text).verify()
    rendered = e.value.render()
    assert (
        "2:8: error: 'graph.add' op result type tensor<4x6xf32> is incompatible with the "
        "inferred tensor<4x5xf32>" in rendered
    )


def test_normalized_attribute_values() -> None:
    text = """
    func.func @f(%x: tensor<1x4x8x8xf32>, %w: tensor<6x2x3x3xf32>) {
      %0 = graph.conv2d %x, %w {groups = 2 : i64, pads = array<i64: 1, 2, 3, 4>} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x10x12xf32>
      %1 = graph.avg_pool2d %x {kernel = array<i64: 3, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x6x7xf32>
      %2 = graph.reduce_sum %x {axes = array<i64: 1, 3>} : (tensor<1x4x8x8xf32>) -> tensor<1x8xf32>
      %3 = graph.cmp "ne", %x, %x : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xi1>
      %4 = graph.slice %x {starts = array<i64: 0, 0, 1, 1>, limits = array<i64: 1, 4, 8, 8>, strides = array<i64: 1, 2, 3, 4>} : (tensor<1x4x8x8xf32>) -> tensor<1x2x3x2xf32>
      %5 = graph.softmax %x {axis = 3 : i64} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
      return
    }
    """  # noqa: E501
    module = mlc.parse(text)
    module.verify()
    conv, pool, red, cmp, sl, sm = list(module.regions[0].blocks[0].first.regions[0].blocks[0])[:6]
    assert conv.strides_value() == (1, 1) and conv.dilations_value() == (1, 1)
    assert conv.pads_value() == (1, 2, 3, 4) and conv.groups_value() == 2
    assert pool.kernel_value() == (3, 2) and pool.strides_value() == (1, 1)
    assert pool.pads_value() == (0, 0, 0, 0)
    assert red.axes_value() == (1, 3) and red.keepdims_value() is False
    assert cmp.predicate_value() == "ne"
    assert sl.starts_value() == (0, 0, 1, 1) and sl.strides_value() == (1, 2, 3, 4)
    assert sl.limits_value() == (1, 4, 8, 8) and sm.axis_value() == 3


def test_folders_and_constant_materialization() -> None:
    text = """
    func.func @f(%x: tensor<4x5xf32>, %y: tensor<4x5xf32>) -> (tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<5x4xf32>, tensor<?x5xf32>) {
      %0 = graph.transpose %x {perm = array<i64: 0, 1>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
      %1 = graph.reshape %y {shape = array<i64: 4, 5>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
      %2 = graph.broadcast_to %x {shape = array<i64: 4, 5>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
      %3 = graph.cast %y : tensor<4x5xf32> to tensor<4x5xf32>
      %4 = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<4x5xf32>) -> tensor<5x4xf32>
      %5 = graph.reshape %x {shape = array<i64: -1, 5>} : (tensor<4x5xf32>) -> tensor<?x5xf32>
      return %0, %1, %2, %3, %4, %5 : tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<5x4xf32>, tensor<?x5xf32>
    }
    """  # noqa: E501
    module = mlc.parse(text)
    mlc.run_pipeline(module, "builtin.module(canonicalize)")
    out = str(module)
    assert "return %arg0, %arg1, %arg0, %arg1, %0, %1 :" in out
    assert out.count("graph.transpose") == 1 and out.count("graph.reshape") == 1
    value = A.DenseElementsAttr(tt((2,)), [1.0, 2.0])
    op = g.materialize_constant(value, tt((2,)))
    assert type(op) is g.ConstantOp and op.value is value and op.fold([]) is value
    assert g.materialize_constant(value, tt((2,), A.f64)) is None
    assert g.materialize_constant(A.FloatAttr(1.0, F32), F32) is None


# ---------------------------------------------------------------------------------------------
# Interop: graph is not an MLIR dialect, so MLIR reads its generic form as unregistered ops

ROOT = Path(__file__).resolve().parents[2]
INTEROP = ROOT / "test" / "interop" / "graph"
IREE_OPT = shutil.which("iree-opt")
needs_iree_opt = pytest.mark.skipif(IREE_OPT is None, reason="iree-opt is not installed")


def iree_opt(text: str, *flags: str) -> str:
    proc = subprocess.run(
        [IREE_OPT, "--allow-unregistered-dialect", *flags, "-"],  # type: ignore[list-item]
        input=text, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_mlir_generic_print_reads_back_identically() -> None:
    """MLIR's generic print of the graph ops parses, verifies and prints back the same in mlc."""
    text = (INTEROP / "graph.generic.mlir").read_text(encoding="utf-8")
    module = mlc.parse(text)
    module.verify()
    assert module.print(generic=True).rstrip() == text.rstrip()


@needs_iree_opt
def test_mlc_prints_are_the_same_module_in_mlir() -> None:
    """MLIR reads mlc's generic print of the input (and of its custom round trip) as the
    module it reads from the input itself."""
    source = (INTEROP / "graph.mlir").read_text(encoding="utf-8")
    module = mlc.parse(source)
    module.verify()
    round_trip = mlc.parse(str(module))
    # One iree-opt run: the input, mlc's generic print, and that of mlc's custom round trip.
    texts = [source, module.print(generic=True), round_trip.print(generic=True)]
    out = iree_opt("\n// -----\n".join(texts), "--split-input-file", *FLAGS)
    expected, generic, custom = out.split("// -----")
    assert generic.strip() == expected.strip()
    assert custom.strip() == expected.strip()


FLAGS = ("--mlir-print-op-generic", "--mlir-print-local-scope")
