"""The affine dialect: builders, accessors and loop helpers, interfaces (memory effects,
loop-like), the dim/symbol rules, arith's AtomicRMWKindAttr, and interop with MLIR (iree-opt):
MLIR's prints of the interop input read and print back in mlc, and mlc's prints are the same
module for MLIR."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from mlc.dialects import affine, arith, func
from mlc.dialects.affine_analysis import (
    compose_map_and_operands,
    is_valid_dim,
    is_valid_symbol,
)
from mlc.dialects.arith import AtomicRMWKindAttr, atomic_rmw_kind_matches

import mlc
from mlc.interfaces import (
    READ,
    WRITE,
    get_effects,
    is_memory_effect_free,
    is_pure,
    is_speculatable,
    loop_like,
)
from mlc.ir import attributes as A
from mlc.ir.affine import AffineMap, IntegerSet, dim, sym
from mlc.ir.builder import Builder
from mlc.ir.core import Operation

ROOT = Path(__file__).resolve().parents[2]
REF = ROOT / "test" / "interop" / "mlir_generic"
IREE_OPT = shutil.which("iree-opt")
needs_iree_opt = pytest.mark.skipif(IREE_OPT is None, reason="iree-opt is not installed")


def parse(text: str) -> Operation:
    module = mlc.parse(text)
    module.verify()
    return module


def ops_named(root: Operation, name: str) -> list[Operation]:
    return [op for op in root.walk() if op.name == name]


LOOPS = """
func.func @f(%A: memref<?xf32>, %n: index, %z: f32) -> f32 {
  %r = affine.for %i = 2 to 17 step 4 iter_args(%acc = %z) -> (f32) {
    %v = affine.load %A[%i] : memref<?xf32>
    %s = arith.addf %acc, %v : f32
    affine.yield %s : f32
  }
  affine.for %i = 0 to %n {
    affine.store %z, %A[%i] : memref<?xf32>
  }
  affine.parallel (%i, %j) = (0, 0) to (%n, 8) {
    %v = affine.load %A[%i + %j] : memref<?xf32>
  }
  return %r : f32
}
"""

# ---------------------------------------------------------------------------------------------
# affine.for helpers and builders


def test_for_constant_bounds_and_trip_count() -> None:
    m = parse(LOOPS)
    loop, dyn = ops_named(m, "affine.for")
    assert isinstance(loop, affine.ForOp)
    assert (loop.constant_lower_bound(), loop.constant_upper_bound()) == (2, 17)
    assert loop.step_value == 4
    assert loop.constant_trip_count() == 4  # 2, 6, 10, 14
    assert dyn.constant_upper_bound() is None and dyn.constant_trip_count() is None
    assert loop.induction_var is loop.regions[0].blocks[0].arguments[0]
    assert [v.type for v in loop.region_iter_args] == [A.f32]
    assert list(loop.inits) == [m.regions[0].blocks[0].first.regions[0].blocks[0].arguments[2]]


def test_for_build_with_iter_args_verifies_and_prints() -> None:
    f = func.FuncOp.build_func("g", [A.index, A.f32], [A.f32])
    n, z = f.entry_block.arguments
    b = Builder.at_end(f.entry_block)
    loop = b.insert(affine.ForOp.build_for(0, n, 2, iter_args=[z]))
    body = Builder.at_end(loop.body_block)
    acc = loop.region_iter_args[0]
    s = body.insert(arith.AddFOp.create([acc, acc], [A.f32]))
    body.insert(affine.YieldOp.create([s.results[0]]))
    b.insert(func.ReturnOp.build_return(loop.results))
    module = mlc.parse("")
    module.regions[0].blocks[0].append(f)
    module.verify()
    text = str(module)
    assert "affine.for %arg2 = 0 to %arg0 step 2 iter_args(%arg3 = %arg1) -> (f32) {" in text
    assert mlc.parse(text).print() == module.print()


def test_for_build_without_iter_args_gets_its_yield() -> None:
    loop = affine.ForOp.build_for(0, 10)
    assert loop.body_block.last.name == "affine.yield"
    assert loop.constant_trip_count() == 10
    with pytest.raises(ValueError, match="step must be positive"):
        affine.ForOp.build_for(0, 10, 0)


def test_for_build_positional_and_single_loop_queries() -> None:
    loop = affine.ForOp.build(0, 16, 4)
    assert isinstance(loop, affine.ForOp)
    assert (loop.single_lower_bound(), loop.single_upper_bound(), loop.single_step()) == (0, 16, 4)
    assert loop.single_induction_var() is loop.induction_var
    assert loop.constant_trip_count() == 4
    # The generic group form still builds through Op.build.
    same = affine.ForOp.build(
        [[], [], []],
        [[]],
        {
            "lowerBoundMap": A.AffineMapAttr(AffineMap.constant(0)),
            "upperBoundMap": A.AffineMapAttr(AffineMap.constant(3)),
            "step": A.IntegerAttr(1, A.index),
        },
    )
    assert same.get_attr("operandSegmentSizes").values == (0, 0, 0)
    assert same.constant_trip_count() == 3


def test_for_set_bounds_updates_segments() -> None:
    m = parse(LOOPS)
    loop = ops_named(m, "affine.for")[1]
    n = loop.upperBoundOperands[0]
    loop.set_lower_bound(AffineMap(0, 1, (sym(0) * 2,)), [n])
    assert loop.get_attr("operandSegmentSizes").values == (1, 1, 0)
    m.verify()
    assert "affine.for %arg3 = #map()[%arg1] to %arg1 {" in str(m)


def test_parallel_build_and_accessors() -> None:
    loop = affine.ParallelOp.build_parallel([0, 0], [16, 8], [1, 4], reductions=[("addf", A.f32)])
    assert loop.step_values == [1, 4]
    assert loop.reduction_kinds == ["addf"]
    assert len(loop.induction_vars()) == 2
    assert loop.upper_bounds_map == AffineMap(
        0, 0, (AffineMap.constant(16).results[0], AffineMap.constant(8).results[0])
    )


def test_access_builders_use_identity_maps() -> None:
    f = func.FuncOp.build_func("h", [A.MemRefType([4, 4], A.f32), A.index], [])
    mem, i = f.entry_block.arguments
    load = affine.LoadOp.build_load(mem, [i, i])
    assert load.affine_map == AffineMap.identity(2)
    assert load.results[0].type is A.f32
    store = affine.StoreOp.build_store(
        load.results[0], mem, [i, i], AffineMap(2, 0, (dim(1), dim(0)))
    )
    assert store.map_operands == (i, i)


def test_if_build() -> None:
    iset = IntegerSet(1, 0, (dim(0),), (False,))
    op = affine.IfOp.build_if(iset, [], result_types=[A.f32])
    assert op.has_else and not op.regions[0].blocks[0].arguments
    empty = affine.IfOp.build_if(iset, [])
    assert not empty.has_else and empty.regions[0].blocks[0].last.name == "affine.yield"


# ---------------------------------------------------------------------------------------------
# Interfaces


def test_loop_like_and_effects() -> None:
    m = parse(LOOPS)
    loop, store_loop = ops_named(m, "affine.for")
    par = ops_named(m, "affine.parallel")[0]
    assert loop_like(loop) is loop and loop_like(par) is par
    assert list(par.induction_vars()) == list(par.regions[0].blocks[0].arguments)
    load = ops_named(m, "affine.load")[0]
    store = ops_named(m, "affine.store")[0]
    assert [(e.kind, e.value) for e in get_effects(load)] == [(READ, load.operand(0))]
    assert [(e.kind, e.value) for e in get_effects(store)] == [(WRITE, store.operand(1))]
    # Recursive effects: the loop that only loads reads; the storing loop writes.
    assert {e.kind for e in get_effects(loop)} == {READ}
    assert {e.kind for e in get_effects(store_loop)} == {WRITE}
    apply_text = "%x = affine.apply affine_map<(d0) -> (d0 + 1)>(%n)"
    m2 = parse(f"func.func @k(%n: index) {{\n{apply_text}\nreturn\n}}")
    assert is_pure(ops_named(m2, "affine.apply")[0])
    # A unit-step loop is speculatable (if its body is); a step-4 loop is not.
    assert not is_speculatable(loop)
    assert not is_memory_effect_free(store_loop)


# ---------------------------------------------------------------------------------------------
# Dims and symbols


def test_valid_dims_and_symbols() -> None:
    m = parse(
        """
func.func @s(%A: memref<?xf32>, %n: index) {
  affine.for %i = 0 to 10 {
    %a = arith.addi %n, %n : index
    %b = arith.addi %i, %i : index
    %c = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)
    %d = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%n]
    %e = arith.divui %n, %n : index
  }
  return
}
"""
    )
    loop = ops_named(m, "affine.for")[0]
    iv = loop.induction_var
    a, b, c, d, e = (op.results[0] for op in loop.body_block.ops[:5])
    n = m.regions[0].blocks[0].first.entry_block.arguments[1]
    assert is_valid_symbol(n) and is_valid_dim(n)
    assert is_valid_dim(iv) and not is_valid_symbol(iv)
    assert is_valid_symbol(a)  # pure op of symbols
    assert not is_valid_dim(b)  # arith of an induction variable
    assert is_valid_dim(c) and not is_valid_symbol(c)
    assert is_valid_symbol(d)
    assert not is_valid_symbol(e)  # divui is not speculatable, so not pure


def test_compose_follows_mlir_operand_order() -> None:
    m = parse(
        """
func.func @c(%i: index, %n: index) -> index {
  %0 = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)
  %1 = affine.apply affine_map<(d0)[s0] -> (d0 * 2 + s0)>(%0)[%n]
  return %1 : index
}
"""
    )
    consumer = ops_named(m, "affine.apply")[1]
    amap, ops = compose_map_and_operands(consumer.affine_map, consumer.operands)
    i, n = m.regions[0].blocks[0].first.entry_block.arguments
    assert str(amap) == "()[s0, s1] -> (s0 + s1 * 2 + 2)"
    assert ops == [n, i]


# ---------------------------------------------------------------------------------------------
# arith's AtomicRMWKindAttr


def test_atomic_rmw_kind_attr() -> None:
    assert AtomicRMWKindAttr.get("addf") is A.IntegerAttr(0, A.i64)
    assert AtomicRMWKindAttr.get("xori") is A.IntegerAttr(15, A.i64)
    assert AtomicRMWKindAttr.name_of(A.IntegerAttr(12, A.i64)) == "mulf"
    assert AtomicRMWKindAttr.name_of(A.IntegerAttr(16, A.i64)) is None
    with pytest.raises(ValueError, match="unknown atomic RMW kind"):
        AtomicRMWKindAttr.get("subf")
    si32, ui32 = A.IntegerType(32, A.SIGNED), A.IntegerType(32, A.UNSIGNED)
    get = AtomicRMWKindAttr.get
    assert atomic_rmw_kind_matches(get("addf"), A.f32)
    assert not atomic_rmw_kind_matches(get("addf"), A.i32)
    assert atomic_rmw_kind_matches(get("maxs"), A.i32) and atomic_rmw_kind_matches(
        get("maxs"), si32
    )
    assert not atomic_rmw_kind_matches(get("maxs"), ui32)
    assert not atomic_rmw_kind_matches(get("minu"), si32)
    assert not atomic_rmw_kind_matches(get("addi"), A.index)
    assert atomic_rmw_kind_matches(get("assign"), A.index)
    assert "AtomicRMWKindAttr" in dir(arith)


def test_reductions_print_as_mlir_integers() -> None:
    m = parse(
        """
func.func @r(%A: memref<?xi32>, %n: index) -> (i32, i32) {
  %p:2 = affine.parallel (%i) = (0) to (%n) reduce ("maxs", "xori") -> (i32, i32) {
    %v = affine.load %A[%i] : memref<?xi32>
    affine.yield %v, %v : i32, i32
  }
  return %p#0, %p#1 : i32, i32
}
"""
    )
    generic = m.print(generic=True)
    assert "reductions = [6, 15]" in generic
    assert 'reduce ("maxs", "xori")' in str(mlc.parse(generic))


# ---------------------------------------------------------------------------------------------
# MLIR interop


def iree_opt(text: str, *flags: str) -> str:
    proc = subprocess.run(
        [IREE_OPT, *flags, "-"],
        input=text,
        capture_output=True,
        text=True,
        timeout=60,  # type: ignore[list-item]
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_mlir_prints_read_back() -> None:
    """MLIR's prints of the interop input (generic, local-scope generic, custom) parse and
    verify in mlc; the custom form prints back as MLIR's, character for character."""
    for kind in ("generic", "generic.local", "custom"):
        module = parse((REF / f"affine.{kind}.mlir").read_text())
        if kind == "custom":
            assert module.print() == (REF / "affine.custom.mlir").read_text().rstrip("\n")


@needs_iree_opt
def test_mlc_prints_are_the_same_module_for_mlir() -> None:
    """What mlc prints (custom and generic, from the input and from MLIR's generic prints) is,
    for MLIR, the module MLIR reads from the input (compared as MLIR's local-scope generic
    print, which is the committed affine.generic.local.mlir). One iree-opt run for all."""
    prints = [
        parse((REF / "affine.mlir").read_text()).print(),
        parse((REF / "affine.mlir").read_text()).print(generic=True),
        parse((REF / "affine.generic.mlir").read_text()).print(generic=True),
        parse((REF / "affine.generic.local.mlir").read_text()).print(),
    ]
    out = iree_opt(
        "\n// -----\n".join(prints),
        "--split-input-file",
        "--mlir-print-op-generic",
        "--mlir-print-local-scope",
    )
    expected = (REF / "affine.generic.local.mlir").read_text().strip()
    got = [chunk.strip() for chunk in out.split("// -----")]
    assert got == [expected] * len(prints)


@needs_iree_opt
def test_lit_inputs_print_as_mlir() -> None:
    """The lit round-trip input prints exactly as MLIR prints it (custom form)."""
    path = ROOT / "test" / "lit" / "dialects" / "affine" / "ops.mlir"
    text = path.read_text()
    assert parse(text).print() == iree_opt(text).rstrip("\n")
