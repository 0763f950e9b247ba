"""The tensor dialect: builders and type inference, tensor.generic's loop queries, folders and
canonicalization, memory effects, docstrings, and interop with MLIR (iree-opt) both ways."""

from __future__ import annotations

import functools
import math
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from mlc.dialects import tensor as T

import mlc
from mlc.interfaces import is_memory_effect_free, is_pure, would_op_be_trivially_dead
from mlc.ir import attributes as A
from mlc.ir.affine import AffineMap, dim
from mlc.ir.context import BUILTIN_DIALECT_MODULES, Context
from mlc.ir.core import Block, Operation, Region
from mlc.rewrite import FrozenPatternSet, GreedyRewriteConfig, apply_patterns_greedily

ROOT = Path(__file__).resolve().parents[2]
REF = ROOT / "test" / "interop" / "mlir_generic"
IREE_OPT = shutil.which("iree-opt")
needs_iree_opt = pytest.mark.skipif(IREE_OPT is None, reason="iree-opt is not installed")

F32 = A.f32


def tensor(*shape: int, et: A.Type = F32) -> A.RankedTensorType:
    return A.RankedTensorType(shape, et)


def parse_func(body: str, args: str = "", results: str = "") -> Operation:
    ret = f" -> ({results})" if results else ""
    module = mlc.parse(f"func.func @f({args}){ret} {{\n{body}\n}}\n")
    module.verify()
    return module.regions[0].blocks[0].first  # type: ignore[return-value]


def ops_of(func_op: Operation) -> list[Operation]:
    return list(func_op.regions[0].blocks[0])


# ---------------------------------------------------------------------------------------------
# Helpers, builders and type inference


def test_infer_extract_slice_type_and_rank_reduction() -> None:
    src = tensor(8, A.DYNAMIC)
    t = T.infer_extract_slice_type(src, [4, T.DYNAMIC_INDEX])
    assert t is tensor(4, A.DYNAMIC)
    assert T.rank_reduction_mask((1, 4, 1), (4,)) == [0, 2]
    assert T.rank_reduction_mask((1, 1, 4), (1, 4)) == [1]
    assert T.rank_reduction_mask((4, 4), (4,)) is None
    assert T.rank_reduction_mask((2, 3), (3, 2)) is None


def test_extract_slice_build_infers_the_result_type() -> None:
    block = Block([tensor(8, 16)])
    src = block.arguments[0]
    attrs = {
        "static_offsets": T.i64_array([0, 2]),
        "static_sizes": T.i64_array([4, 4]),
        "static_strides": T.i64_array([1, 1]),
    }
    op = T.ExtractSliceOp.build([src, [], [], []], attributes=attrs)
    assert op.result.type is tensor(4, 4)
    assert op.get_attr("operandSegmentSizes") is A.DenseArrayAttr(A.i32, [1, 0, 0, 0])
    block.append(op)
    op.verify()
    assert "[0, 2] [4, 4] [1, 1] : tensor<8x16xf32> to tensor<4x4xf32>" in str(op)


def test_slice_builders_take_mixed_lists() -> None:
    block = Block([tensor(8, A.DYNAMIC), A.index])
    src, i = block.arguments
    ex = T.ExtractSliceOp.of(src, [0, i], [4, 1], [1, 1], result_type=tensor(4))
    block.append(ex)
    ins = T.InsertSliceOp.of(ex.result, src, [0, i], [4, 1], [1, 1])
    block.append(ins)
    ex.verify()
    ins.verify()
    assert ex.static_offsets.values == (0, T.DYNAMIC_INDEX)
    assert ex.offsets == (i,) and ex.sizes == () and ex.strides == ()
    assert ex.dropped_dims() == [1]
    assert ins.result.type is src.type
    assert ins.get_attr("operandSegmentSizes") is A.DenseArrayAttr(A.i32, [1, 1, 1, 0, 0])
    inferred = T.ExtractSliceOp.of(src, [0, 0], [2, i], [1, 1])
    assert inferred.result.type is tensor(2, A.DYNAMIC)


def test_dynamic_entries_use_mlir_sentinel() -> None:
    f = parse_func(
        "%0 = tensor.extract_slice %t[%i, 0] [4, %i] [1, 1] : tensor<8x8xf32> to tensor<4x?xf32>\n"
        "return",
        "%t: tensor<8x8xf32>, %i: index",
    )
    op = ops_of(f)[0]
    assert op.static_offsets.values == (-(2**63), 0)
    assert op.static_sizes.values == (4, -(2**63))
    assert op.dropped_dims() == []
    assert "array<i64: -9223372036854775808, 0>" in op.print(generic=True)


def test_dynamic_index_list_error_is_located() -> None:
    with pytest.raises(mlc.ParseError) as e:
        mlc.parse(
            "func.func @f(%t: tensor<8xf32>) {\n"
            "  %0 = tensor.extract_slice %t[x] [4] [1] : tensor<8xf32> to tensor<4xf32>\n"
            "  return\n}\n"
        )
    assert "expected SSA value or integer" in str(e.value)
    assert ":2:" in e.value.render()
    with pytest.raises(mlc.ParseError) as e:
        mlc.parse(
            "func.func @f(%t: tensor<8xf32>) {\n"
            "  %0 = tensor.extract_slice %t[-9223372036854775809] [4] [1]"
            " : tensor<8xf32> to tensor<4xf32>\n  return\n}\n"
        )
    assert "integer value too large" in str(e.value)


def test_dim_infers_index_and_extract_infers_element_type() -> None:
    assert T.DimOp.infer_result_types([tensor(4), A.index], {}) == [A.index]
    assert T.ExtractOp.infer_result_types([tensor(4, et=A.i8), A.index], {}) == [A.i8]


def test_cast_compatibility() -> None:
    assert T.cast_compatible(tensor(4, A.DYNAMIC), tensor(A.DYNAMIC, 3))
    assert T.cast_compatible(tensor(4), A.UnrankedTensorType(F32))
    assert not T.cast_compatible(tensor(4), tensor(5))
    assert not T.cast_compatible(tensor(4), tensor(4, 1))
    assert not T.cast_compatible(tensor(4), tensor(4, et=A.f64))


def test_pad_result_type_inference() -> None:
    t = T.PadOp.infer_result_type(tensor(4, A.DYNAMIC), [1, 2], [0, T.DYNAMIC_INDEX])
    assert t is tensor(5, A.DYNAMIC)
    assert T.PadOp.infer_result_type(tensor(4, 4), [1], [0, 0]) is None


def test_pad_padding_value() -> None:
    f = parse_func(
        "%0 = tensor.pad %t low[1] high[1] {\n^bb0(%i: index):\n  tensor.yield %c : f32\n}"
        " : tensor<4xf32> to tensor<6xf32>\nreturn",
        "%t: tensor<4xf32>, %c: f32",
    )
    pad = ops_of(f)[0]
    assert pad.padding_value() is f.regions[0].blocks[0].arguments[1]


# ---------------------------------------------------------------------------------------------
# tensor.generic


MATVEC = """
%0 = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                      affine_map<(d0, d1) -> (d1)>,
                                      affine_map<(d0, d1) -> (d0)>],
                     iterator_types = ["parallel", "reduction"]}
    ins(%a, %x : tensor<?x8xf32>, tensor<?xf32>) outs(%y : tensor<4xf32>) {
^bb0(%in: f32, %in_0: f32, %out: f32):
  %1 = arith.mulf %in, %in_0 : f32
  %2 = arith.addf %1, %out : f32
  tensor.yield %2 : f32
} -> tensor<4xf32>
return
"""


def test_generic_loop_queries() -> None:
    f = parse_func(MATVEC, "%a: tensor<?x8xf32>, %x: tensor<?xf32>, %y: tensor<4xf32>")
    g = ops_of(f)[0]
    assert isinstance(g, T.GenericOp)
    assert g.num_loops == 2
    assert g.loop_sizes() == [4, 8]
    # Static sources are preferred: d0 from the output (operand 2), d1 from %a's dim 1.
    assert g.shape_to_loops() == [(2, 0), (0, 1)]
    assert [g.is_reduction(d) for d in range(2)] == [False, True]
    assert g.iterator_kinds() == ["parallel", "reduction"]
    assert g.input_maps() == [
        AffineMap(2, 0, [dim(0), dim(1)]),
        AffineMap(2, 0, [dim(1)]),
    ]
    assert g.output_maps() == [AffineMap(2, 0, [dim(0)])]
    assert len(g.inputs) == 2 and len(g.outputs) == 1
    assert [a.type for a in g.body.arguments] == [F32, F32, F32]
    assert type(g.body.last) is T.YieldOp


def test_generic_dynamic_loop_size() -> None:
    f = parse_func(
        MATVEC.replace("tensor<4xf32>", "tensor<?xf32>"),
        "%a: tensor<?x8xf32>, %x: tensor<?xf32>, %y: tensor<?xf32>",
    )
    g = ops_of(f)[0]
    assert g.loop_sizes() == [A.DYNAMIC, 8]
    assert g.shape_to_loops()[0] == (0, 0)


def test_generic_builds_and_prints_custom_form() -> None:
    block = Block([tensor(4), tensor(4)])
    a, o = block.arguments
    ident = A.AffineMapAttr(AffineMap(1, 0, [dim(0)]))
    body = Block([F32, F32])
    body.append(T.YieldOp.build([[body.arguments[0]]]))
    g = T.GenericOp.build(
        [[a], [o]],
        [[tensor(4)]],
        {
            "indexing_maps": A.ArrayAttr([ident, ident]),
            "iterator_types": A.ArrayAttr([A.StringAttr("parallel")]),
        },
        regions=[Region([body])],
    )
    block.append(g)
    g.verify()
    text = str(g)
    assert 'iterator_types = ["parallel"]' in text
    assert " : tensor<4xf32>) outs(" in text and text.endswith("} -> tensor<4xf32>")
    assert "^bb0(%in: f32, %out: f32):" in text
    generic = g.print(generic=True)
    assert "operandSegmentSizes = array<i32: 1, 1>" in generic


def test_generic_of_builds_the_body() -> None:
    from mlc.dialects import arith

    block = Block([tensor(4, 8), tensor(4)])
    a, o = block.arguments

    def body(b: Block) -> list:
        add = b.append(arith.AddFOp.build([b.arguments[0], b.arguments[1]]))
        return [add.result]

    g = T.GenericOp.of(
        [a],
        [o],
        [AffineMap(2, 0, [dim(0), dim(1)]), AffineMap(2, 0, [dim(0)])],
        ["parallel", "reduction"],
        body,
        doc=A.StringAttr("row sum"),
    )
    block.append(g)
    g.verify()
    assert g.loop_sizes() == [4, 8]
    assert g.result.type is tensor(4)
    assert g.doc is A.StringAttr("row sum")
    assert [op.name for op in g.body] == ["arith.addf", "tensor.yield"]


def test_generic_reports_inconsistent_loop_sizes_at_the_op() -> None:
    text = """func.func @f(%a: tensor<4xf32>, %o: tensor<5xf32>) {
  %0 = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%o : tensor<5xf32>) {
  ^bb0(%in: f32, %out: f32):
    tensor.yield %in : f32
  } -> tensor<5xf32>
  return
}
"""
    module = mlc.parse(text)
    with pytest.raises(mlc.VerifyError) as e:
        module.verify()
    message = e.value.render()
    assert (
        "loop d0 has inconsistent sizes: 4 from operand #0 dim 0 and 5 from operand #1" in message
    )
    assert ":2:8" in message


# ---------------------------------------------------------------------------------------------
# Folding and canonicalization (a context with only the dialects these tests use)


def canonicalize(body: str, args: str, results: str) -> str:
    ctx = Context({k: BUILTIN_DIALECT_MODULES[k] for k in ("builtin", "func", "arith", "tensor")})
    f = parse_func(body, args, results)
    patterns = FrozenPatternSet.canonicalization(ctx)
    apply_patterns_greedily(f, patterns, GreedyRewriteConfig(), ctx=ctx)
    f.verify()
    return str(f)


def test_dim_folds_static_dims_and_empty_sizes() -> None:
    out = canonicalize(
        "%c0 = arith.constant 0 : index\n%c1 = arith.constant 1 : index\n"
        "%e = tensor.empty(%n) : tensor<4x?xf32>\n"
        "%0 = tensor.dim %e, %c0 : tensor<4x?xf32>\n%1 = tensor.dim %e, %c1 : tensor<4x?xf32>\n"
        "return %0, %1 : index, index",
        "%n: index",
        "index, index",
    )
    assert "tensor." not in out
    assert "arith.constant 4 : index" in out
    assert "return %c4, %arg0" in out


def test_empty_constant_sizes_fold_into_the_type() -> None:
    out = canonicalize(
        "%c4 = arith.constant 4 : index\n%0 = tensor.empty(%c4, %n) : tensor<?x?xf32>\n"
        "return %0 : tensor<?x?xf32>",
        "%n: index",
        "tensor<?x?xf32>",
    )
    assert "tensor.empty(%arg0) : tensor<4x?xf32>" in out
    assert "tensor.cast %0 : tensor<4x?xf32> to tensor<?x?xf32>" in out


def test_identity_ops_fold_to_their_source() -> None:
    out = canonicalize(
        "%0 = tensor.cast %t : tensor<4x8xf32> to tensor<4x8xf32>\n"
        "%1 = tensor.extract_slice %0[0, 0] [4, 8] [1, 1] : tensor<4x8xf32> to tensor<4x8xf32>\n"
        "%2 = tensor.insert_slice %1 into %t[0, 0] [4, 8] [1, 1]"
        " : tensor<4x8xf32> into tensor<4x8xf32>\n"
        "%3 = tensor.collapse_shape %2 [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>\n"
        "%4 = tensor.expand_shape %3 [[0, 1]] output_shape [4, 8]"
        " : tensor<32xf32> into tensor<4x8xf32>\n"
        "%5 = tensor.pad %4 low[0, 0] high[0, 0] {\n^bb0(%i: index, %j: index):\n"
        "  tensor.yield %c : f32\n} : tensor<4x8xf32> to tensor<4x8xf32>\n"
        "return %5 : tensor<4x8xf32>",
        "%t: tensor<4x8xf32>, %c: f32",
        "tensor<4x8xf32>",
    )
    assert "tensor." not in out
    assert "return %arg0 : tensor<4x8xf32>" in out


def test_partial_slices_and_nofold_pads_stay() -> None:
    out = canonicalize(
        "%0 = tensor.extract_slice %t[0, 1] [4, 7] [1, 1] : tensor<4x8xf32> to tensor<4x7xf32>\n"
        "%1 = tensor.pad %t nofold low[0, 0] high[0, 0] {\n^bb0(%i: index, %j: index):\n"
        "  tensor.yield %c : f32\n} : tensor<4x8xf32> to tensor<4x8xf32>\n"
        "return %0, %1 : tensor<4x7xf32>, tensor<4x8xf32>",
        "%t: tensor<4x8xf32>, %c: f32",
        "tensor<4x7xf32>, tensor<4x8xf32>",
    )
    assert "tensor.extract_slice" in out and "tensor.pad" in out


def test_splat_and_extract_fold_to_constants() -> None:
    out = canonicalize(
        "%c = arith.constant 2 : i32\n%s = tensor.splat %c : tensor<2x2xi32>\n"
        "%d = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>\n"
        "%c1 = arith.constant 1 : index\n%c0 = arith.constant 0 : index\n"
        "%0 = tensor.extract %d[%c1, %c0] : tensor<2x2xi32>\n"
        "%v = tensor.splat %x : tensor<3xf32>\n%1 = tensor.extract %v[%i] : tensor<3xf32>\n"
        "return %s, %0, %1 : tensor<2x2xi32>, i32, f32",
        "%x: f32, %i: index",
        "tensor<2x2xi32>, i32, f32",
    )
    assert "arith.constant dense<2> : tensor<2x2xi32>" in out
    assert "arith.constant 3 : i32" in out
    assert "tensor." not in out
    assert "return %cst, %c3_i32, %arg0" in out


# ---------------------------------------------------------------------------------------------
# Effects and documentation


def test_all_ops_are_pure() -> None:
    f = parse_func(MATVEC, "%a: tensor<?x8xf32>, %x: tensor<?xf32>, %y: tensor<4xf32>")
    g = ops_of(f)[0]
    assert is_pure(g) and would_op_be_trivially_dead(g)
    module = mlc.parse((REF / "tensor.mlir").read_text())
    seen = set()
    for op in module.walk():
        if op.name.startswith("tensor."):
            seen.add(op.name)
            assert is_memory_effect_free(op), op.name
            assert op.name == "tensor.yield" or would_op_be_trivially_dead(op), op.name
    assert len(seen) == 12


def test_every_op_has_a_summary_and_an_example() -> None:
    for name, cls in T.DIALECT.ops.items():
        assert cls.summary and cls.summary.endswith("."), name
        doc = cls.__doc__ or ""
        example = [line for line in doc.splitlines() if line.startswith("        ")]
        assert any(name in line for line in example), name


# ---------------------------------------------------------------------------------------------
# Interop with MLIR


def iree_opt(text: str, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [IREE_OPT, *flags, "-"],  # type: ignore[list-item]
        input=text,
        capture_output=True,
        text=True,
        timeout=60,
    )


def mlir_normal_all(texts: list[str]) -> list[str]:
    """MLIR's generic, local-scope prints of `texts`, from one iree-opt run (split input)."""
    proc = iree_opt(
        "\n// -----\n".join(texts),
        "--split-input-file",
        "--mlir-print-op-generic",
        "--mlir-print-local-scope",
    )
    assert proc.returncode == 0, proc.stderr
    outputs = [chunk.strip() for chunk in proc.stdout.split("// -----")]
    assert len(outputs) == len(texts)
    return outputs


@pytest.mark.parametrize("name", ["tensor.generic.mlir", "tensor.custom.mlir"])
def test_mlir_prints_read_and_print_back_identically(name: str) -> None:
    """MLIR's stored prints parse and verify in mlc; mlc prints them exactly as MLIR did."""
    module = mlc.parse((REF / name).read_text(), filename=name)
    module.verify()
    expected = (REF / "tensor.generic.mlir").read_text().rstrip("\n")
    assert module.print(generic=True).rstrip("\n") == expected
    assert module.print().rstrip("\n") == (REF / "tensor.custom.mlir").read_text().rstrip("\n")


def _mlir_subset_of_ops_mlir() -> str:
    """The functions of the lit round-trip test without tensor.generic (MLIR has no such op)."""
    text = (ROOT / "test" / "lit" / "dialects" / "tensor" / "ops.mlir").read_text()
    return text.split("#id = ")[0]


SOURCES = {
    "interop": lambda: (REF / "tensor.mlir").read_text(),
    "lit": _mlir_subset_of_ops_mlir,
}


@functools.cache
def normalized_prints() -> dict[tuple[str, str], str]:
    """MLIR's normal form of each source and of mlc's custom and generic prints of it."""
    keys, texts = [], []
    for name, read in SOURCES.items():
        text = read()
        module = mlc.parse(text)
        module.verify()
        for form, printed in (
            ("input", text),
            ("custom", module.print()),
            ("generic", module.print(generic=True)),
        ):
            keys.append((name, form))
            texts.append(printed)
    return dict(zip(keys, mlir_normal_all(texts)))


@needs_iree_opt
@pytest.mark.parametrize("source", sorted(SOURCES))
@pytest.mark.parametrize("form", ["custom", "generic"])
def test_mlc_prints_are_the_same_module_in_mlir(source: str, form: str) -> None:
    prints = normalized_prints()
    assert "tensor." in prints[(source, "input")]
    assert prints[(source, form)] == prints[(source, "input")]


# Invalid IR that mlc rejects with the message MLIR gives (checked against MLIR in invalid.mlir).
REJECTED = [
    (
        "%0 = tensor.empty(%d) : tensor<4xf32>",
        "incorrect number of dynamic sizes, has 1, expected 0",
    ),
    ("%0 = tensor.cast %t : tensor<4x4xf32> to tensor<5x4xf32>", "are cast incompatible"),
    (
        "%0 = tensor.extract_slice %t[0, 0] [4, 4] [1, 1] : tensor<4x4xf32> to tensor<4x5xf32>",
        "expected type to be 'tensor<4x4xf32>' or a rank-reduced version. (size mismatch)",
    ),
    (
        "%0 = tensor.extract_slice %t[3, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>",
        "slice along dimension 0 runs out-of-bounds: 4 >= 4",
    ),
    (
        "%0 = tensor.collapse_shape %t [[0, 1]] : tensor<4x4xf32> into tensor<15xf32>",
        "expected dimension 0 of collapsed type to be static value of 16",
    ),
    (
        "%0 = tensor.collapse_shape %t [[1], [0]] : tensor<4x4xf32> into tensor<4x4xf32>",
        "expected reassociation map #0 to be valid and contiguous.",
    ),
    (
        "%0 = tensor.expand_shape %t [[0, 1], [2]] output_shape [2, 2, 5] "
        ": tensor<4x4xf32> into tensor<2x2x5xf32>",
        "expected dimension 1 of collapsed type to be static value of 5",
    ),
    (
        "%0 = tensor.pad %t low[1, 0] high[1, 0] {\n^bb0(%i: index, %j: index):\n"
        "  tensor.yield %c : f32\n} : tensor<4x4xf32> to tensor<6x5xf32>",
        "specified type 'tensor<6x5xf32>' does not match the inferred type 'tensor<6x4xf32>'",
    ),
    (
        "%0 = tensor.splat %c : tensor<?xf32>",
        "incorrect number of dynamic sizes, has 0, expected 1",
    ),
]


def _rejected_text(body: str) -> str:
    return "func.func @f(%t: tensor<4x4xf32>, %d: index, %c: f32) {\n" + body + "\n  return\n}\n"


@pytest.mark.parametrize("body,message", REJECTED)
def test_mlc_rejects_with_mlir_message(body: str, message: str) -> None:
    module = mlc.parse(_rejected_text(body))
    with pytest.raises(mlc.VerifyError) as e:
        module.verify()
    assert message in e.value.render()
    assert ":2:" in e.value.render()


# invalid.mlir cases for rules MLIR does not have (or words differently): tensor.generic is
# mlc's; MLIR does not bound-check a constant tensor.dim index nor count tensor.pad's dynamic
# entries; its tensor.yield has other parents; its region errors on tensor.pad come with a note.
MLC_ONLY_CASES = (
    "@dim_out_of_range",
    "@pad_dynamic_entries",
    "@yield_parent",
    "@pad_no_block",
    "@pad_terminator",
)


@needs_iree_opt
def test_mlir_gives_the_lit_invalid_cases_the_same_diagnostics() -> None:
    """MLIR's own --verify-diagnostics accepts invalid.mlir's cases of MLIR's ops (one run)."""
    text = (ROOT / "test" / "lit" / "dialects" / "tensor" / "invalid.mlir").read_text()
    chunks = [
        c
        for c in text.split("// -----")
        if "tensor.generic" not in c and not any(name in c for name in MLC_ONLY_CASES)
    ]
    assert len(chunks) > 40
    proc = iree_opt(
        "// -----".join(chunks),
        "--split-input-file",
        "--verify-diagnostics",
        "--allow-unregistered-dialect",
    )
    assert proc.returncode == 0, proc.stderr


# ---------------------------------------------------------------------------------------------
# Differential test: random slices, reshapes and pads; MLIR must accept exactly what mlc accepts
# and reject the rest with mlc's message (one iree-opt --verify-diagnostics run).


def _shape_text(shape: list[int]) -> str:
    return "tensor<" + "".join(("?" if d == A.DYNAMIC else str(d)) + "x" for d in shape) + "f32>"


def _entries(rng: random.Random, rank: int, choices: tuple) -> list[str]:
    return [str(rng.choice(choices)) for _ in range(rank)]


def _perturb(rng: random.Random, shape: list[int]) -> list[int]:
    """Usually `shape`; sometimes one dim changed, a unit dim dropped, or a dim made dynamic."""
    shape = list(shape)
    r = rng.random()
    if r < 0.55 or not shape:
        return shape
    i = rng.randrange(len(shape))
    if r < 0.7:
        shape[i] = rng.choice([1, 2, 3, 4, 5, 8])
    elif r < 0.85 and 1 in shape:
        shape.remove(1)
    else:
        shape[i] = A.DYNAMIC
    return shape


def _random_slice(rng: random.Random) -> str:
    src = [rng.choice([1, 2, 4, 8, A.DYNAMIC]) for _ in range(rng.randint(1, 3))]
    offs = _entries(rng, len(src), (0, 1, 3, "%i"))
    sizes = _entries(rng, len(src), (1, 2, 4, "%i"))
    strides = _entries(rng, len(src), (1, 2, "%i"))
    inferred = [A.DYNAMIC if s == "%i" else int(s) for s in sizes]
    res = _perturb(rng, inferred)
    lists = f"[{', '.join(offs)}] [{', '.join(sizes)}] [{', '.join(strides)}]"
    if rng.random() < 0.5:
        return (
            f"%0 = tensor.extract_slice %t{lists} : {_shape_text(src)} to {_shape_text(res)}",
            src,
            res,
        )
    return (
        f"%0 = tensor.insert_slice %s into %t{lists} : {_shape_text(res)} into {_shape_text(src)}",
        src,
        res,
    )


def _random_reshape(rng: random.Random) -> tuple:
    expanded = [rng.choice([1, 2, 3, 4, A.DYNAMIC]) for _ in range(rng.randint(1, 4))]
    cuts = sorted(rng.sample(range(1, len(expanded)), rng.randint(0, len(expanded) - 1)))
    bounds = [0, *cuts, len(expanded)]
    groups = [list(range(a, b)) for a, b in zip(bounds, bounds[1:])]
    if rng.random() < 0.1 and len(groups) > 1:
        groups[0], groups[1] = groups[1], groups[0]
    collapsed = []
    for g in groups:
        dims = [expanded[d] for d in g if d < len(expanded)]
        collapsed.append(A.DYNAMIC if A.DYNAMIC in dims else math.prod(dims))
    collapsed = _perturb(rng, collapsed)
    reassoc = "[" + ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups) + "]"
    if rng.random() < 0.5:
        return (
            f"%0 = tensor.collapse_shape %t {reassoc} : {_shape_text(expanded)} into "
            f"{_shape_text(collapsed)}",
            expanded,
            collapsed,
        )
    out = ["%i" if d == A.DYNAMIC else str(d) for d in expanded]
    return (
        f"%0 = tensor.expand_shape %t {reassoc} output_shape [{', '.join(out)}] : "
        f"{_shape_text(collapsed)} into {_shape_text(expanded)}",
        collapsed,
        expanded,
    )


def _random_pad(rng: random.Random) -> tuple:
    src = [rng.choice([1, 4, A.DYNAMIC]) for _ in range(rng.randint(1, 3))]
    low = _entries(rng, len(src), (0, 1, 2, "%i"))
    high = _entries(rng, len(src), (0, 3, "%i"))
    res = []
    for d, lo, hi in zip(src, low, high):
        dynamic = d == A.DYNAMIC or "%i" in (lo, hi)
        res.append(A.DYNAMIC if dynamic else d + int(lo) + int(hi))
    res = _perturb(rng, res)
    args = ", ".join(f"%a{k}: index" for k in range(len(src)))
    return (
        f"%0 = tensor.pad %t low[{', '.join(low)}] high[{', '.join(high)}] {{\n"
        f"^bb0({args}):\n  tensor.yield %c : f32\n}} : {_shape_text(src)} to {_shape_text(res)}",
        src,
        res,
    )


def _random_cast_or_creation(rng: random.Random) -> tuple:
    src = [rng.choice([1, 4, A.DYNAMIC]) for _ in range(rng.randint(0, 3))]
    dst = _perturb(rng, src) if rng.random() < 0.8 else [4] * (len(src) + 1)
    kind = rng.choice(["cast", "empty", "splat"])
    if kind == "cast":
        return f"%0 = tensor.cast %t : {_shape_text(src)} to {_shape_text(dst)}", src, dst
    n = dst.count(A.DYNAMIC) + rng.choice([0, 0, 0, 1, -1])
    sizes = ", ".join(["%i"] * max(n, 0))
    if kind == "empty":
        return f"%0 = tensor.empty({sizes}) : {_shape_text(dst)}", src, dst
    operands = f"[{sizes}]" if sizes else ""
    return f"%0 = tensor.splat %c{operands} : {_shape_text(dst)}", src, dst


def random_cases(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    makers = (_random_slice, _random_reshape, _random_pad, _random_cast_or_creation)
    cases = []
    for k in range(n):
        body, src, other = makers[k % len(makers)](rng)
        cases.append(
            f"func.func @case{k}(%t: {_shape_text(src)}, %s: {_shape_text(other)}, %i: index, "
            f"%c: f32) {{\n{body}\n  return\n}}\n"
        )
    return cases


@needs_iree_opt
def test_random_shape_ops_verify_like_mlir() -> None:
    annotated = []
    verdicts = {"accepted": 0, "rejected": 0}
    for text in random_cases(seed=7, n=200):
        module = mlc.parse(text)
        try:
            module.verify()
            verdicts["accepted"] += 1
            annotated.append(text)
        except mlc.VerifyError as e:
            verdicts["rejected"] += 1
            message = e.diagnostics[0].message.split(" op ", 1)[-1]
            lines = text.split("\n")
            lines.insert(1, f"// expected-error@+1 {{{{{message}}}}}")
            annotated.append("\n".join(lines))
    # Both outcomes are well represented, so the comparison means something either way.
    assert min(verdicts.values()) > 40, verdicts
    proc = iree_opt("// -----\n".join(annotated), "--split-input-file", "--verify-diagnostics")
    assert proc.returncode == 0, proc.stderr[:4000]


def _random_generic(rng: random.Random, k: int) -> str:
    """A tensor.generic with projected-permutation maps and outputs on parallel loops only, so
    that it is valid exactly when linalg.generic (same maps and shapes) is."""
    n = rng.randint(1, 3)
    kinds = [rng.choice(["parallel", "parallel", "reduction"]) for _ in range(n)]
    sizes = [rng.choice([2, 3, 4]) for _ in range(n)]
    parallel = [d for d in range(n) if kinds[d] == "parallel"]
    dims_of = [rng.sample(range(n), rng.randint(0, n)) for _ in range(rng.randint(1, 2))]
    dims_of.append(rng.sample(parallel, rng.randint(0, len(parallel))))
    maps, types = [], []
    for dims in dims_of:
        exprs = ", ".join(f"d{d}" for d in dims)
        maps.append(f"affine_map<({', '.join(f'd{d}' for d in range(n))}) -> ({exprs})>")
        shape = []
        for d in dims:
            r = rng.random()
            shape.append(A.DYNAMIC if r < 0.2 else sizes[d] + 1 if r < 0.3 else sizes[d])
        types.append(_shape_text(shape))
    n_in = len(dims_of) - 1
    args = ", ".join(f"%x{i}: {t}" for i, t in enumerate(types))
    bb = ", ".join(f"%b{i}: f32" for i in range(len(types)))
    ins = ", ".join(f"%x{i}" for i in range(n_in))
    iters = ", ".join(f'"{kind}"' for kind in kinds)
    return (
        f"func.func @g{k}({args}) {{\n"
        f"  %0 = tensor.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = [{iters}]}}"
        f" ins({ins} : {', '.join(types[:n_in])}) outs(%x{n_in} : {types[-1]}) {{\n"
        f"  ^bb0({bb}):\n    tensor.yield %b{n_in} : f32\n  }} -> {types[-1]}\n  return\n}}\n"
    )


@needs_iree_opt
def test_random_generics_verify_like_linalg() -> None:
    """Loop-size inference agrees with linalg.generic's on random maps and shapes: linalg
    rejects (with its own words) exactly the ops that mlc rejects.

    Not compared: rejected ops with a dynamic dimension. linalg skips its shape checks when a
    loop's first defining dimension is dynamic; mlc still reports two static sizes of one loop
    that differ, since no run of such an op can be valid."""
    rng = random.Random(11)
    annotated = []
    verdicts = {"accepted": 0, "rejected": 0}
    for k in range(200):
        text = _random_generic(rng, k)
        try:
            mlc.parse(text).verify()
            verdicts["accepted"] += 1
        except mlc.VerifyError:
            if "?" in text:
                continue
            verdicts["rejected"] += 1
            lines = text.split("\n")
            lines.insert(1, "// expected-error@+1 {{'linalg.generic' op}}")
            text = "\n".join(lines)
        annotated.append(
            text.replace("tensor.generic", "linalg.generic").replace("tensor.yield", "linalg.yield")
        )
    assert min(verdicts.values()) > 30, verdicts
    proc = iree_opt("// -----\n".join(annotated), "--split-input-file", "--verify-diagnostics")
    assert proc.returncode == 0, proc.stderr[:4000]
