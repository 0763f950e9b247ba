"""The llvm dialect: types and their LLVM IR spelling, op building and verification, folders,
memory effects, the tables the LLVM IR translation reads, and interop with MLIR (iree-opt)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from mlc.dialects import llvm as L
from mlc.dialects import llvm_ops_arith as LA
from mlc.dialects import llvm_ops_elements as LE
from mlc.dialects import llvm_types as T

import mlc
from mlc.interfaces import READ, WRITE, get_effects, is_pure
from mlc.ir import attributes as A

ROOT = Path(__file__).resolve().parents[2]
REF = ROOT / "test" / "interop" / "mlir_generic"
IREE_OPT = shutil.which("iree-opt")
needs_iree_opt = pytest.mark.skipif(IREE_OPT is None, reason="iree-opt is not installed")


def parse(text: str) -> mlc.ir.core.Operation:
    module = mlc.parse(text)
    module.verify()
    return module


def ops_named(module: mlc.ir.core.Operation, name: str) -> list:
    return [op for op in module.walk() if op.name == name]


# ---------------------------------------------------------------------------------------------
# Types


@pytest.mark.parametrize(
    ("text", "ir"),
    [
        ("i32", "i32"),
        ("i1", "i1"),
        ("f16", "half"),
        ("bf16", "bfloat"),
        ("f32", "float"),
        ("f64", "double"),
        ("!llvm.ptr", "ptr"),
        ("!llvm.ptr<3>", "ptr addrspace(3)"),
        ("vector<8xf32>", "<8 x float>"),
        ("vector<[4]xi32>", "<vscale x 4 x i32>"),
        ("!llvm.array<4 x f32>", "[4 x float]"),
        ("!llvm.array<2 x array<3 x i8>>", "[2 x [3 x i8]]"),
        ("!llvm.struct<(i32, f32)>", "{ i32, float }"),
        ("!llvm.struct<packed (i8, i32)>", "<{ i8, i32 }>"),
        ("!llvm.struct<()>", "{}"),
        ('!llvm.struct<"node", (i64, ptr)>', "%node"),
        ('!llvm.struct<"a b", opaque>', '%"a b"'),
        ("!llvm.func<void (ptr, i32, ...)>", "void (ptr, i32, ...)"),
        ("!llvm.func<i64 ()>", "i64 ()"),
    ],
)
def test_llvm_ir_spelling(text: str, ir: str) -> None:
    module = mlc.parse(f'"test.op"() : () -> {text}', allow_unregistered=True)
    op = module.regions[0].blocks[0].first
    assert T.llvm_ir_type(op.results[0].type) == ir


def test_llvm_ir_spelling_of_struct_bodies_and_unsupported_types() -> None:
    node = T.LLVMStructType([A.i64, T.ptr], identifier="node")
    assert T.llvm_ir_struct_body(node) == "{ i64, ptr }"
    assert T.llvm_ir_struct_body(T.LLVMStructType(identifier="o", opaque=True)) == "opaque"
    with pytest.raises(ValueError, match="not supported"):
        T.llvm_ir_type(A.index)
    with pytest.raises(ValueError, match="not supported"):
        T.llvm_ir_type(A.RankedTensorType([2], A.f32))


def test_types_are_uniqued_and_print_like_mlir() -> None:
    assert T.LLVMPointerType(0) is T.ptr
    assert T.LLVMArrayType(4, A.f32) is T.LLVMArrayType(4, A.f32)
    s = T.LLVMStructType([A.i32, T.LLVMArrayType(2, T.LLVMPointerType(1))], packed=True)
    assert str(s) == "!llvm.struct<packed (i32, array<2 x ptr<1>>)>"
    ft = T.LLVMFunctionType(T.void, [T.ptr], var_arg=True)
    assert str(ft) == "!llvm.func<void (ptr, ...)>"
    assert ft.results == () and T.LLVMFunctionType(A.i32).results == (A.i32,)


def test_compatible_types() -> None:
    assert T.is_compatible_type(A.i32)
    assert T.is_compatible_type(A.VectorType([4], T.ptr))
    assert not T.is_compatible_type(A.index)
    assert not T.is_compatible_type(A.RankedTensorType([2], A.f32))
    assert not T.is_compatible_type(A.IntegerType(32, A.SIGNED))
    assert not T.is_valid_element_type(T.void)


# ---------------------------------------------------------------------------------------------
# Building, verifying, folding


def test_build_function_with_call_and_return() -> None:
    module = mlc.parse("")
    block = module.regions[0].blocks[0]
    ext = L.LLVMFuncOp.build_func("ext", [A.i64], A.i64, declaration=True)
    fn = L.LLVMFuncOp.build_func("f", [A.i64], A.i64, linkage="internal")
    block.append(ext)
    block.append(fn)
    entry = fn.regions[0].blocks[0]
    call = L.CallOp.build_call("ext", [entry.arguments[0]], ext.func_type)
    entry.append(call)
    entry.append(L.ReturnOp.create([call.results[0]]))
    module.verify()
    text = str(module)
    assert "llvm.func internal @f(%arg0: i64) -> i64 {" in text
    assert "llvm.call @ext(%arg0) : (i64) -> i64" in text
    assert fn.callable_argument_types() == (A.i64,)
    assert call.arg_operands() == (entry.arguments[0],)


def test_call_of_variadic_function_needs_callee_type() -> None:
    module = parse(
        "llvm.func @printf(!llvm.ptr, ...) -> i32\n"
        "llvm.func @f(%p: !llvm.ptr, %x: f64) {\n"
        "  %0 = llvm.call @printf(%p, %x) vararg(!llvm.func<i32 (ptr, ...)>)"
        " : (!llvm.ptr, f64) -> i32\n"
        "  llvm.return\n}"
    )
    (call,) = ops_named(module, "llvm.call")
    call.remove_attr("var_callee_type")
    with pytest.raises(mlc.VerifyError, match="missing var_callee_type"):
        module.verify()


def test_gep_indices_and_flags() -> None:
    module = parse(
        "llvm.func @f(%p: !llvm.ptr, %i: i64) {\n"
        "  %0 = llvm.getelementptr inbounds|nuw %p[%i, 1, 0] : (!llvm.ptr, i64) -> !llvm.ptr,"
        " !llvm.struct<(i32, array<2 x f32>)>\n"
        "  llvm.return\n}"
    )
    (gep,) = ops_named(module, "llvm.getelementptr")
    (fn,) = ops_named(module, "llvm.func")
    assert gep.indices == [fn.regions[0].blocks[0].arguments[1], 1, 0]
    assert gep.rawConstantIndices.values == (L.GEP_DYNAMIC_INDEX, 1, 0)
    assert L.gep_flag_names(gep.noWrapFlags.value) == ["inbounds", "nuw"]


def test_constant_and_bitcast_fold() -> None:
    module = parse(
        "llvm.func @f(%x: i32) -> i32 {\n"
        "  %c = llvm.mlir.constant(7 : i32) : i32\n"
        "  %0 = llvm.bitcast %x : i32 to i32\n"
        "  %1 = llvm.add %0, %c : i32\n"
        "  llvm.return %1 : i32\n}"
    )
    (const,) = ops_named(module, "llvm.mlir.constant")
    (cast,) = ops_named(module, "llvm.bitcast")
    assert const.fold([]) is A.IntegerAttr(7, A.i32)
    (fn,) = ops_named(module, "llvm.func")
    assert cast.fold([None]) is fn.regions[0].blocks[0].arguments[0]
    mlc.run_pipeline(module, "builtin.module(canonicalize)")
    assert not ops_named(module, "llvm.bitcast")
    made = L.DIALECT.materialize_constant(A.FloatAttr(1.5, A.f32), A.f32)
    assert made.name == "llvm.mlir.constant" and made.value is A.FloatAttr(1.5, A.f32)
    assert L.DIALECT.materialize_constant(A.IntegerAttr(1, A.index), A.index) is None


def test_memory_effects() -> None:
    module = parse(
        "llvm.func @g()\n"
        "llvm.func @f(%p: !llvm.ptr, %v: f32, %n: i64) {\n"
        "  %a = llvm.alloca %n x f32 : (i64) -> !llvm.ptr\n"
        "  %0 = llvm.load %p : !llvm.ptr -> f32\n"
        "  llvm.store %v, %a : f32, !llvm.ptr\n"
        "  %1 = llvm.fadd %0, %v : f32\n"
        "  %2 = llvm.udiv %n, %n : i64\n"
        "  llvm.call @g() : () -> ()\n"
        "  llvm.return\n}"
    )
    (load,) = ops_named(module, "llvm.load")
    (store,) = ops_named(module, "llvm.store")
    (fadd,) = ops_named(module, "llvm.fadd")
    (udiv,) = ops_named(module, "llvm.udiv")
    (call,) = ops_named(module, "llvm.call")
    (alloca,) = ops_named(module, "llvm.alloca")
    assert [(e.kind, e.value) for e in get_effects(load)] == [(READ, load.operand(0))]
    assert [(e.kind, e.value) for e in get_effects(store)] == [(WRITE, store.operand(1))]
    assert [e.kind for e in get_effects(alloca)] == ["allocate"]
    assert is_pure(fadd)
    assert get_effects(udiv) == [] and not is_pure(udiv)
    assert get_effects(call) is None


def test_translation_tables() -> None:
    assert LA.FAddOp.llvm_opcode == "fadd"
    assert LA.AddOp.llvm_opcode == "add" and LA.AShrOp.llvm_opcode == "ashr"
    assert LE.FMAOp.llvm_opcode == "llvm.fma" and LE.MemcpyOp.llvm_opcode == "llvm.memcpy"
    assert L.LoadOp.llvm_opcode == "load" and L.GEPOp.llvm_opcode == "getelementptr"
    assert len(LA.ICmpOp.predicates) == 10 and LA.ICmpOp.predicates[2] == "slt"
    assert len(LA.FCmpOp.predicates) == 16 and LA.FCmpOp.predicates[4] == "olt"
    assert LA.FCmpOp.ir_predicates[0] == "false" and LA.FCmpOp.ir_predicates[15] == "true"
    assert LA.ICmpOp.ir_predicates == LA.ICmpOp.predicates
    assert T.FastmathFlagsAttr.from_names("nnan", "ninf").names == ["nnan", "ninf"]
    assert T.FastmathFlagsAttr.from_names("fast").names == ["fast"]
    assert T.FastmathFlagsAttr(0).names == []
    assert LA.overflow_names(3) == ["nsw", "nuw"]
    for cls in L.OPS:
        assert cls.summary and cls.__doc__ and "\n\n" in cls.__doc__, cls.name


def test_unsupported_features_are_reported() -> None:
    with pytest.raises(mlc.ParseError, match="not supported"):
        mlc.parse(
            "llvm.func @f(%p: !llvm.ptr) {\n"
            "  %0 = llvm.load %p <alignment = 4, tbaa = 1> : !llvm.ptr -> f32\n"
            "  llvm.return\n}"
        )


# ---------------------------------------------------------------------------------------------
# MLIR interop: MLIR's prints read and print back identically; mlc's prints read in MLIR


def test_mlir_generic_print_reads_back_identically() -> None:
    text = (REF / "llvm.generic.mlir").read_text(encoding="utf-8")
    module = parse(text)
    assert module.print(generic=True) == text.rstrip("\n")


def test_mlir_custom_print_reads_back_identically() -> None:
    text = (REF / "llvm.custom.mlir").read_text(encoding="utf-8")
    module = parse(text)

    def norm(s: str) -> list[str]:  # MLIR leaves a space after some ops' attr-dict
        return [line.rstrip() for line in s.strip().splitlines()]

    assert norm(str(module)) == norm(text)


def iree_opt(text: str, *flags: str) -> str:
    proc = subprocess.run(
        [IREE_OPT, *flags, "-"],  # type: ignore[list-item]
        input=text,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@needs_iree_opt
@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_mlc_print_is_the_same_module_in_mlir(generic: bool) -> None:
    text = (REF / "llvm.mlir").read_text(encoding="utf-8")
    printed = parse(text).print(generic=generic)
    normal = ("--mlir-print-op-generic", "--mlir-print-local-scope")
    assert iree_opt(printed, *normal) == iree_opt(text, *normal)


@needs_iree_opt
def test_mlc_and_mlir_verifiers_agree_on_bad_calls() -> None:
    text = (
        "llvm.func @g(i32)\n"
        "llvm.func @f(%x: i64) {\n  llvm.call @g(%x) : (i64) -> ()\n  llvm.return\n}"
    )
    with pytest.raises(mlc.VerifyError) as err:
        parse(text)
    proc = subprocess.run([IREE_OPT, "-"], input=text, capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
    expected = "operand type mismatch: expected operand type 'i32', but provided 'i64'"
    assert expected in proc.stderr and expected in str(err.value)
