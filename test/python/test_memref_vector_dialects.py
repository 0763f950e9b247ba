"""The memref and vector dialects: MLIR interop, folders, memory effects, public helpers.

Round trips and verifier messages are in test/lit/dialects/{memref,vector}; this file checks
what lit cannot: the exact match with MLIR's prints (committed under test/interop/mlir_generic,
regenerated with iree-opt), that iree-opt reads mlc's prints as the same module, the effects
that CSE/DCE/LICM rely on, and the Python helpers.
"""

from __future__ import annotations

import inspect
import shutil
import subprocess
from pathlib import Path

import pytest
from mlc.dialects import memref as M
from mlc.dialects import vector as V

import mlc
from mlc.interfaces import (
    ALLOCATE,
    FREE,
    READ,
    WRITE,
    get_effects,
    is_memory_effect_free,
    is_speculatable,
    would_op_be_trivially_dead,
)
from mlc.ir import attributes as A

ROOT = Path(__file__).resolve().parents[2]
REF = ROOT / "test" / "interop" / "mlir_generic"
IREE_OPT = shutil.which("iree-opt")
needs_iree_opt = pytest.mark.skipif(IREE_OPT is None, reason="iree-opt is not installed")
DIALECTS = ["memref", "vector"]


def _ops(module: mlc.ir.core.Operation) -> list:
    return list(module.walk())


def _by_name(module: mlc.ir.core.Operation, name: str) -> list:
    return [op for op in _ops(module) if op.name == name]


# ---------------------------------------------------------------------------------------------
# MLIR interop


@pytest.mark.parametrize("dialect", DIALECTS)
def test_mlir_generic_print_reads_back_identically(dialect: str) -> None:
    """MLIR's generic print parses, verifies and prints back character for character."""
    text = (REF / f"{dialect}.generic.mlir").read_text()
    module = mlc.parse(text, filename=f"{dialect}.generic.mlir")
    module.verify()
    assert module.print(generic=True) + "\n\n" == text


@pytest.mark.parametrize("dialect", DIALECTS)
def test_mlc_custom_print_is_mlirs(dialect: str) -> None:
    """mlc's custom print of the input is MLIR's custom print (value names included)."""
    module = mlc.parse((REF / f"{dialect}.mlir").read_text())
    module.verify()
    assert str(module) + "\n\n" == (REF / f"{dialect}.custom.mlir").read_text()
    # And MLIR's custom print reads back in mlc as the same module.
    again = mlc.parse((REF / f"{dialect}.custom.mlir").read_text())
    again.verify()
    assert again.print(generic=True) == module.print(generic=True)


def _mlir_normal(texts: list[str]) -> list[str]:
    """MLIR's generic, local-scope print of each text (one iree-opt run: its startup is slow)."""
    proc = subprocess.run(
        [
            IREE_OPT,
            "--split-input-file",
            "--mlir-print-op-generic",
            "--mlir-print-local-scope",
            "-",
        ],  # type: ignore[list-item]
        input="\n// -----\n".join(texts),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    outs = proc.stdout.split("// -----\n")
    assert len(outs) == len(texts)
    return [o.strip() for o in outs]


@needs_iree_opt
def test_iree_opt_reads_mlc_prints_as_the_same_module() -> None:
    """iree-opt reads mlc's custom and generic prints of each input (and of the canonicalized
    fold input, whose ops mlc's folders built) as the module it reads from the input."""
    inputs = [(REF / f"{d}.mlir").read_text() for d in DIALECTS]
    folded = mlc.parse(FOLD_INPUT)
    mlc.run_pipeline(folded, "builtin.module(canonicalize)")
    inputs.append(str(folded))
    prints = []
    for text in inputs:
        module = mlc.parse(text)
        prints += [str(module), module.print(generic=True)]
    expected = _mlir_normal(inputs)
    got = _mlir_normal(prints)
    for i, want in enumerate(expected):
        assert got[2 * i] == want, f"custom print of input {i}"
        assert got[2 * i + 1] == want, f"generic print of input {i}"


def test_legacy_attr_dict_spellings_are_accepted() -> None:
    """Older MLIR spelled inherent attributes in the attribute dictionary; mlc reads both."""
    module = mlc.parse(
        """
func.func @f(%m: memref<4xf32>, %i: index) -> f32 {
  %a = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
  %v = memref.load %m[%i] {nontemporal = true} : memref<4xf32>
  return %v : f32
}
"""
    )
    module.verify()
    text = str(module)
    assert "memref.alloc() alignment = 64 : memref<4xf32>" in text
    assert "nontemporal(true)" in text


# ---------------------------------------------------------------------------------------------
# Folders

FOLD_INPUT = """
func.func @f(%m: memref<4x?xf32>, %x: f32, %v: vector<4xf32>)
    -> (index, memref<4x?xf32>, vector<4xf32>, f32, vector<4xf32>, index, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = memref.dim %m, %c0 : memref<4x?xf32>
  %d1 = memref.dim %m, %c1 : memref<4x?xf32>
  %c = memref.cast %m : memref<4x?xf32> to memref<4x?xf32>
  %b = vector.broadcast %v : vector<4xf32> to vector<4xf32>
  %bx = vector.broadcast %x : f32 to vector<4x8xf32>
  %e = vector.extract %bx[1, 2] : f32 from vector<4x8xf32>
  %k = arith.constant 2.0 : f32
  %bk = vector.broadcast %k : f32 to vector<4xf32>
  %ek = vector.extract %bk[3] : f32 from vector<4xf32>
  %dead = memref.alloc() : memref<8xf32>
  %deadload = memref.load %m[%c0, %c1] : memref<4x?xf32>
  return %d0, %c, %b, %e, %bk, %d1, %ek
      : index, memref<4x?xf32>, vector<4xf32>, f32, vector<4xf32>, index, f32
}
"""


def test_canonicalize_folds_and_erases_dead_ops() -> None:
    module = mlc.parse(FOLD_INPUT)
    mlc.run_pipeline(module, "builtin.module(canonicalize)")
    module.verify()
    names = [op.name for op in _ops(module)]
    # Static dim folded to a constant; the dynamic one stays.
    assert names.count("memref.dim") == 1
    assert names.count("memref.cast") == 0
    assert names.count("vector.broadcast") == 0
    assert names.count("vector.extract") == 0
    # An unused alloc and an unused load are dead (allocate-own-result / read effects only).
    assert "memref.alloc" not in names and "memref.load" not in names
    func = _by_name(module, "func.func")[0]
    ret = _by_name(module, "func.return")[0]
    args = func.regions[0].blocks[0].arguments
    values = ret.operands
    assert values[1] is args[0]  # cast to the same type
    assert values[2] is args[2]  # broadcast to the same type
    assert values[3] is args[1]  # extract of a broadcast scalar
    four = values[0].defining_op()
    assert four.name == "arith.constant" and four.get_attr("value") is A.IntegerAttr(4, A.index)
    splat = values[4].defining_op().get_attr("value")
    assert type(splat) is A.DenseElementsAttr and splat.is_splat and splat.splat_value == 2.0
    assert values[6].defining_op().get_attr("value") is A.FloatAttr(2.0, A.f32)


def test_splat_of_constant_folds_to_dense_constant() -> None:
    module = mlc.parse(
        """
func.func @f() -> vector<4xi32> {
  %k = arith.constant 7 : i32
  %s = vector.splat %k : vector<4xi32>
  return %s : vector<4xi32>
}
"""
    )
    mlc.run_pipeline(module, "builtin.module(canonicalize)")
    assert "arith.constant dense<7> : vector<4xi32>" in str(module)
    assert not _by_name(module, "vector.splat")


def test_dim_with_dynamic_dim_does_not_fold() -> None:
    module = mlc.parse(
        """
func.func @f(%m: memref<?xf32>) -> index {
  %c0 = arith.constant 0 : index
  %d = memref.dim %m, %c0 : memref<?xf32>
  return %d : index
}
"""
    )
    mlc.run_pipeline(module, "builtin.module(canonicalize)")
    assert len(_by_name(module, "memref.dim")) == 1


# ---------------------------------------------------------------------------------------------
# Memory effects

EFFECTS_INPUT = """
memref.global @g : memref<4xf32> = uninitialized
func.func @f(%m: memref<?x?xf32>, %s: memref<4xf32>, %i: index, %x: f32, %v: vector<8xf32>,
             %t: tensor<?x?xf32>) {
  %a = memref.alloc(%i) : memref<?xf32>
  %b = memref.alloca() : memref<4xf32>
  %l = memref.load %m[%i, %i] : memref<?x?xf32>
  memref.store %x, %m[%i, %i] : memref<?x?xf32>
  memref.copy %s, %b : memref<4xf32> to memref<4xf32>
  %d = memref.dim %m, %i : memref<?x?xf32>
  %c = memref.cast %m : memref<?x?xf32> to memref<*xf32>
  %sv = memref.subview %m[0, 0] [2, 2] [1, 1] : memref<?x?xf32> to memref<2x2xf32, strided<[?, 1]>>
  %r = memref.reinterpret_cast %s to offset: [0], sizes: [2, 2], strides: [2, 1]
      : memref<4xf32> to memref<2x2xf32, strided<[2, 1]>>
  %g = memref.get_global @g : memref<4xf32>
  %vl = vector.load %m[%i, %i] : memref<?x?xf32>, vector<8xf32>
  vector.store %v, %m[%i, %i] : memref<?x?xf32>, vector<8xf32>
  %tr = vector.transfer_read %m[%i, %i], %x : memref<?x?xf32>, vector<8xf32>
  vector.transfer_write %v, %m[%i, %i] : vector<8xf32>, memref<?x?xf32>
  %tt = vector.transfer_read %t[%i, %i], %x : tensor<?x?xf32>, vector<8xf32>
  %tw = vector.transfer_write %v, %t[%i, %i] : vector<8xf32>, tensor<?x?xf32>
  %e = vector.extract %v[0] : f32 from vector<8xf32>
  memref.dealloc %a : memref<?xf32>
  return
}
"""


def test_memory_effects() -> None:
    module = mlc.parse(EFFECTS_INPUT)
    module.verify()
    ops = {op.name + ("" if not op.results else ""): op for op in _ops(module)}

    def kinds(op: mlc.ir.core.Operation) -> list[tuple[str, object]]:
        return [(e.kind, e.value) for e in get_effects(op)]

    alloc = _by_name(module, "memref.alloc")[0]
    assert kinds(alloc) == [(ALLOCATE, alloc.results[0])]
    assert would_op_be_trivially_dead(alloc)
    alloca = _by_name(module, "memref.alloca")[0]
    assert kinds(alloca) == [(ALLOCATE, alloca.results[0])]
    load = _by_name(module, "memref.load")[0]
    assert kinds(load) == [(READ, load.operand(0))]
    store = _by_name(module, "memref.store")[0]
    assert kinds(store) == [(WRITE, store.operand(1))]
    assert not would_op_be_trivially_dead(store)
    copy = _by_name(module, "memref.copy")[0]
    assert kinds(copy) == [(READ, copy.operand(0)), (WRITE, copy.operand(1))]
    dealloc = ops["memref.dealloc"]
    assert kinds(dealloc) == [(FREE, dealloc.operand(0))]
    for name in ("memref.dim", "memref.cast", "memref.subview", "memref.reinterpret_cast",
                 "memref.get_global", "vector.extract"):  # fmt: skip
        assert is_memory_effect_free(ops[name]), name
    vl, vs = ops["vector.load"], ops["vector.store"]
    assert kinds(vl) == [(READ, vl.operand(0))]
    assert kinds(vs) == [(WRITE, vs.operand(1))]
    reads = _by_name(module, "vector.transfer_read")
    writes = _by_name(module, "vector.transfer_write")
    assert kinds(reads[0]) == [(READ, reads[0].operand(0))]
    assert kinds(writes[0]) == [(WRITE, writes[0].operand(1))]
    # On tensors, transfers are value computations.
    assert is_memory_effect_free(reads[1]) and is_memory_effect_free(writes[1])


def test_cse_merges_views_but_not_loads_across_stores() -> None:
    module = mlc.parse(
        """
func.func @f(%m: memref<8xf32>, %i: index, %x: f32) -> (f32, f32) {
  %a = memref.subview %m[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %b = memref.subview %m[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %l1 = memref.load %a[%i] : memref<4xf32, strided<[1]>>
  memref.store %x, %m[%i] : memref<8xf32>
  %l2 = memref.load %b[%i] : memref<4xf32, strided<[1]>>
  return %l1, %l2 : f32, f32
}
"""
    )
    mlc.run_pipeline(module, "builtin.module(func.func(cse))")
    assert len(_by_name(module, "memref.subview")) == 1
    assert len(_by_name(module, "memref.load")) == 2


# ---------------------------------------------------------------------------------------------
# Public helpers and builders

D = A.DYNAMIC


def test_strides_and_offset() -> None:
    assert M.strides_and_offset(A.MemRefType([4, 8], A.f32)) == ((8, 1), 0)
    assert M.strides_and_offset(A.MemRefType([D, 8, 2], A.f32)) == ((16, 2, 1), 0)
    assert M.strides_and_offset(A.MemRefType([4, D], A.f32)) == ((D, 1), 0)
    strided = A.MemRefType([4, 4], A.f32, A.StridedLayoutAttr([D, 1], D))
    assert M.strides_and_offset(strided) == ((D, 1), D)
    with pytest.raises(ValueError, match="not supported"):
        layout = A.AffineMapAttr(mlc.ir.affine_parser.parse_affine_map("(d0) -> (d0 * 2)"))
        M.strides_and_offset(A.MemRefType([4], A.f32, layout))


def test_infer_subview_type() -> None:
    src = A.MemRefType([8, 16], A.f32)
    t = M.infer_subview_type(src, [2, 4], [4, 4], [1, 2])
    assert t is A.MemRefType([4, 4], A.f32, A.StridedLayoutAttr([16, 2], 36))
    t = M.infer_subview_type(src, [D, 0], [4, D], [1, 1])
    assert t is A.MemRefType([4, D], A.f32, A.StridedLayoutAttr([16, 1], D))
    # MLIR's int64 sentinel is accepted as well as A.DYNAMIC.
    assert M.infer_subview_type(src, [M.DYNAMIC_INDEX, 0], [4, D], [1, 1]) is t
    # Strides of a dynamic source compose to dynamic.
    dyn = A.MemRefType([D, D], A.f32)
    assert M.infer_subview_type(dyn, [0, 0], [2, 2], [1, 1]) is A.MemRefType(
        [2, 2], A.f32, A.StridedLayoutAttr([D, 1], 0)
    )
    # Memory space is kept.
    ms = A.MemRefType([4], A.f32, None, A.IntegerAttr(1, A.i64))
    assert M.infer_subview_type(ms, [1], [2], [1]).memory_space is ms.memory_space


def test_rank_reduced_subviews_verify() -> None:
    module = mlc.parse(
        """
func.func @f(%m: memref<4x4x4xf32>) {
  %0 = memref.subview %m[1, 0, 2] [1, 4, 1] [1, 1, 1]
      : memref<4x4x4xf32> to memref<4xf32, strided<[4], offset: 18>>
  %1 = memref.subview %m[0, 0, 0] [1, 1, 1] [1, 1, 1]
      : memref<4x4x4xf32> to memref<f32, strided<[]>>
  %2 = memref.subview %m[0, 0, 0] [4, 1, 4] [1, 1, 1]
      : memref<4x4x4xf32> to memref<4x4xf32, strided<[16, 1]>>
  %3 = memref.subview %m[0, 1, 0] [4, 1, 4] [1, 1, 1]
      : memref<4x4x4xf32> to memref<4x1x4xf32, strided<[16, 4, 1], offset: 4>>
  return
}
"""
    )
    module.verify()


def test_builders_infer_types() -> None:
    module = mlc.parse(
        "func.func @f(%m: memref<4x8xf32>, %i: index, %v: vector<4x8xf32>) { return }"
    )
    args = _by_name(module, "func.func")[0].regions[0].blocks[0].arguments
    load = M.LoadOp.build([args[0], [args[1], args[1]]])
    assert load.results[0].type is A.f32
    ext = V.ExtractOp.build(
        [args[2], []], attributes={"static_position": A.DenseArrayAttr(A.i64, [1])}
    )
    assert ext.results[0].type is A.VectorType([8], A.f32)


def test_kind_support_table() -> None:
    assert V.kind_supports("add", A.f32) and V.kind_supports("add", A.i32)
    assert V.kind_supports("maxsi", A.index) and not V.kind_supports("maxsi", A.f32)
    assert V.kind_supports("minimumf", A.f16) and not V.kind_supports("minimumf", A.i8)
    assert sorted(V.COMBINING_KINDS) == sorted(V._INT_KINDS | V._FLOAT_KINDS)


def test_bad_custom_syntax_is_a_located_parse_error() -> None:
    with pytest.raises(mlc.ParseError) as e:
        mlc.parse("func.func @f() {\n  %0 = memref.alloc() : i32\n  return\n}")
    assert "expected a ranked memref type, but got 'i32'" in str(e.value)
    assert "2:" in e.value.render()
    with pytest.raises(mlc.ParseError):
        mlc.parse("memref.global @g : memref<2xf32> = 3")


def test_every_op_has_a_summary_and_an_example() -> None:
    for dialect in (M.DIALECT, V.DIALECT):
        for name, cls in dialect.ops.items():
            doc = inspect.getdoc(cls) or ""
            assert cls.summary and cls.summary.endswith("."), name
            examples = [line.strip() for line in doc.splitlines() if line.startswith("    ")]
            assert any(name.split(".")[1] in line for line in examples), name


def test_dim_of_alloc_and_cast_round_trip_fold() -> None:
    module = mlc.parse(
        """
func.func @f(%n: index, %k: index, %m: memref<?x?xf32>) -> (index, index, memref<?x?xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = memref.alloc(%k, %n) : memref<4x?x?xf32>
  %d2 = memref.dim %a, %c2 : memref<4x?x?xf32>
  %d1 = memref.dim %a, %c1 : memref<4x?x?xf32>
  %c = memref.cast %m : memref<?x?xf32> to memref<4x?xf32>
  %cc = memref.cast %c : memref<4x?xf32> to memref<?x?xf32>
  return %d2, %d1, %cc : index, index, memref<?x?xf32>
}
"""
    )
    mlc.run_pipeline(module, "builtin.module(canonicalize)")
    args = _by_name(module, "func.func")[0].regions[0].blocks[0].arguments
    ret = _by_name(module, "func.return")[0]
    assert list(ret.operands) == [args[0], args[1], args[2]]
    assert not _by_name(module, "memref.alloc") and not _by_name(module, "memref.cast")


def test_dim_speculatable_only_with_constant_in_range_index() -> None:
    module = mlc.parse(
        """
func.func @f(%m: memref<?xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %a = memref.dim %m, %c0 : memref<?xf32>
  %b = memref.dim %m, %i : memref<?xf32>
  return
}
"""
    )
    a, b = _by_name(module, "memref.dim")
    assert is_speculatable(a) and not is_speculatable(b)
