"""`mlc.compile` and `mlc-run`: graph programs through lower-to-cpu and the JIT equal the reference
interpreter; the call boundary rejects wrong arrays by name; compiling twice is free."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from mlc.lowering.compile import CompileError

import mlc
import mlc.interp

ROOT = Path(__file__).resolve().parents[2]

# One function per graph op case (every graph op kind, with broadcasting, dynamic dims, keepdims,
# strides/pads/dilations/groups), compiled together as one module.
PROGRAM = (Path(__file__).parent / "inputs" / "graph_ops.mlir").read_text()
CASES = re.findall(r"^func\.func @(\w+)", PROGRAM, flags=re.M)


def _function(name: str, args: list[str], body: str, result: str) -> str:
    params = ", ".join(f"%a{i}: {t}" for i, t in enumerate(args))
    return (
        f"func.func @{name}({params}) -> {result} {{\n  %r = {body}\n  return %r : {result}\n}}\n"
    )


@pytest.fixture(scope="module")
def compiled() -> mlc.lowering.compile.CompiledModule:  # type: ignore[name-defined]
    return mlc.compile(PROGRAM)


def _random_input(
    rng: np.random.Generator, t: mlc.ir.attributes.RankedTensorType, dyn: int
) -> np.ndarray:  # type: ignore[name-defined]
    shape = tuple(dyn if d < 0 else d for d in t.shape)
    dtype = mlc.ir.attributes.numpy_dtype(t.element_type)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    if np.issubdtype(dtype, np.integer):
        return rng.integers(-9, 10, shape).astype(dtype)
    return (rng.standard_normal(shape) * 2).astype(dtype)


@pytest.mark.parametrize("case", CASES)
def test_graph_op_compiled_equals_interpreter(compiled, case: str) -> None:  # type: ignore[no-untyped-def]
    module = mlc.parse(PROGRAM)
    fn = next(op for op in module.regions[0].blocks[0].ops if op.get_attr("sym_name").value == case)
    rng = np.random.default_rng(abs(hash(case)) % 2**32)
    for dyn in (1, 3):
        inputs = [_random_input(rng, t, dyn) for t in fn.get_attr("function_type").value.inputs]
        if case in ("log_f64", "sqrt_f32", "rsqrt_f32", "pow_f32"):
            inputs[0] = np.abs(inputs[0]) + 0.5
        if case == "div_f32":
            inputs[1] = np.where(np.abs(inputs[1]) < 0.1, 1.0, inputs[1]).astype(np.float32)
        got = compiled[case](*inputs)
        (want,) = mlc.interp.run(module, case, *inputs)
        assert got.shape == want.shape and got.dtype == want.dtype
        if want.dtype.kind == "f":
            tol = 1e-10 if want.dtype == np.float64 else 2e-5
            np.testing.assert_allclose(got, want, rtol=tol * 5, atol=tol)
        else:
            np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", ["mlp", "attention", "conv", "linreg_cg"])
def test_examples_compiled_equal_interpreter(name: str) -> None:
    text = (ROOT / "examples" / f"{name}.mlir").read_text()
    module = mlc.parse(text)
    fn = next(iter(module.regions[0].blocks[0].ops))
    rng = np.random.default_rng(3)
    types = fn.get_attr("function_type").value.inputs
    inputs = [np.asarray(_random_input(rng, t, 2) * np.float32(0.2)) for t in types]
    got = mlc.compile(text).main(*inputs)
    got = got if isinstance(got, tuple) else (got,)
    want = mlc.interp.run(module, "main", *inputs)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)


def test_call_boundary_errors_name_the_argument(compiled) -> None:  # type: ignore[no-untyped-def]
    add = compiled.add_bcast
    x, y = np.ones((2, 4), np.float32), np.ones(4, np.float32)
    with pytest.raises(TypeError, match="argument|arguments"):
        add(x)
    with pytest.raises(TypeError, match="arg1"):
        add(x, y.astype(np.float64))
    with pytest.raises(ValueError, match="arg0"):
        add(np.ones(4, np.float32), y)  # rank
    with pytest.raises(ValueError, match="arg0"):
        add(np.ones((2, 5), np.float32), y)  # static dim 4
    with pytest.raises(ValueError, match="arg0"):
        add(np.ones((4, 2), np.float32).T, y)  # not contiguous
    with pytest.raises(AttributeError, match="nope"):
        compiled.nope  # noqa: B018


def test_compile_does_not_change_its_input_and_caches() -> None:
    module = mlc.parse(PROGRAM)
    before = module.print(generic=True)
    first = mlc.compile(module)
    assert module.print(generic=True) == before
    again = mlc.compile(module)
    assert again.jit.llvm_ir_optimized == first.jit.llvm_ir_optimized
    assert "pipeline" not in again.timings  # the lowering came from the cache


def test_unsupported_signature_and_unlowerable_ops() -> None:
    with pytest.raises(CompileError, match="scalar"):
        mlc.compile("func.func @f(%a: f32) -> f32 { return %a : f32 }")
    with pytest.raises(CompileError, match="no public function"):
        mlc.compile("func.func private @f() { return }")
    with pytest.raises(CompileError, match="ranked tensors only"):
        mlc.compile(
            "func.func @f(%a: tensor<*xf32>) -> tensor<*xf32> {\n"
            "  %r = graph.exp %a : tensor<*xf32>\n  return %r : tensor<*xf32>\n}"
        )
    # Grouped conv2d needs static channel counts: a located legalization failure, not a crash.
    with pytest.raises(mlc.DiagnosticError, match="failed to legalize operation 'graph.conv2d'"):
        mlc.compile(
            "func.func @f(%x: tensor<1x?x5x5xf32>, %w: tensor<?x2x3x3xf32>)"
            " -> tensor<1x?x3x3xf32> {\n"
            "  %r = graph.conv2d %x, %w {groups = 2 : i64} : (tensor<1x?x5x5xf32>, "
            "tensor<?x2x3x3xf32>) -> tensor<1x?x3x3xf32>\n"
            "  return %r : tensor<1x?x3x3xf32>\n}"
        )


def _mlc_run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mlc.tools.mlc_run", *args],
        capture_output=True,
        text=True,
        check=False,
    )


def test_mlc_run_check_and_errors(tmp_path: Path) -> None:
    prog = tmp_path / "p.mlir"
    add = "graph.add %a0, %a1 : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>"
    prog.write_text(_function("main", ["tensor<?x4xf32>", "tensor<4xf32>"], add, "tensor<?x4xf32>"))
    x = tmp_path / "x.npy"
    np.save(x, np.arange(8, dtype=np.float32).reshape(2, 4))
    ok = _mlc_run(
        str(prog),
        "--input",
        f"arg0={x}",
        "--random-inputs",
        "--check",
        "-o",
        str(tmp_path / "y.npy"),
    )
    assert ok.returncode == 0, ok.stderr
    assert "match the interpreter" in ok.stdout
    assert np.load(tmp_path / "y.npy").shape == (2, 4)
    missing = _mlc_run(str(prog))
    assert (
        missing.returncode == 1 and "arg0" in missing.stderr and "Traceback" not in missing.stderr
    )
    bad = _mlc_run(str(prog), "--input", f"arg0={tmp_path / 'none.npy'}")
    assert bad.returncode == 1 and "cannot load" in bad.stderr
    wrong = np.ones((2, 5), np.float32)
    np.save(tmp_path / "w.npy", wrong)
    shape = _mlc_run(str(prog), "--input", f"arg0={tmp_path / 'w.npy'}", "--random-inputs")
    assert shape.returncode == 1 and "arg0" in shape.stderr and "Traceback" not in shape.stderr


def test_compile_leaves_its_ir_to_a_young_collection() -> None:
    # mlc.compile pauses the cyclic GC from the parse to the translation, so the IR it builds
    # (reference cycles throughout) is still in the youngest generation when it dies: the first
    # young collection frees it, instead of a full collection of the whole heap much later.
    import gc

    from mlc.lowering import compile as lowering_compile

    from mlc.ir.core import Operation

    text = (ROOT / "examples" / "linreg_cg.mlir").read_text()
    mlc.compile(text)  # imports and first-use caches
    lowering_compile.clear_cache()
    gc.collect()

    def ops() -> int:
        return sum(1 for o in gc.get_objects() if isinstance(o, Operation))

    before = ops()
    mlc.compile(text)  # the JIT's cache hits: the lowering runs, LLVM does not
    gc.collect(0)
    assert ops() <= before
