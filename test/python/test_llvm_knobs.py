"""llvm-options: the LLVM-level knobs (opt level, fast-math, vectorizers, unroll threshold)
reach the JIT through `mlc.compile`, each value compiles and runs correctly, and fast-math
flags change the generated code."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys

import numpy as np
import pytest
from mlc.passes.llvm_options import FAST_MATH, SITE, UNROLL_THRESHOLDS

import mlc
from mlc.knobs import KnobContext
from mlc.pass_manager import PassError

PROGRAM = """
func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>, %c: tensor<?xf32>)
    -> (tensor<?xf32>, tensor<f32>) {
  %0 = graph.mul %a, %b : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %1 = graph.add %0, %c : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %2 = graph.reduce_sum %1 {axes = array<i64: 0>} : (tensor<?xf32>) -> tensor<f32>
  return %1, %2 : tensor<?xf32>, tensor<f32>
}
"""

SUM = """
func.func @main(%a: tensor<?xf32>) -> tensor<f32> {
  %0 = graph.reduce_sum %a {axes = array<i64: 0>} : (tensor<?xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}
"""

# The float sum left to LLVM: affine-vectorize may not reorder it (reassoc=false).
SCALAR_SUM = (
    "builtin.module(graph-shape-inference,canonicalize,convert-graph-to-tensor,canonicalize,cse,"
    "bufferize,convert-tensor-to-affine,canonicalize,cse,"
    "func.func(affine-vectorize{reassoc=false}),canonicalize,"
    "convert-to-llvm,reconcile-unrealized-casts,canonicalize,cse,llvm-options)"
)


def _inputs(n: int = 1003) -> list[np.ndarray]:
    rng = np.random.default_rng(n)
    return [rng.standard_normal(n).astype(np.float32) for _ in range(3)]


def _check(compiled: mlc.lowering.compile.CompiledModule) -> None:  # type: ignore[name-defined]
    a, b, c = _inputs()
    got, total = compiled.main(a, b, c)
    want = a.astype(np.float64) * b + c
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(total, want.sum(), rtol=1e-4, atol=1e-3)


def _key(name: str) -> str:
    return f"{SITE}/{name}"


def test_lower_to_cpu_records_the_defaults_at_one_module_site() -> None:
    knobs = mlc.run_pipeline(mlc.parse(PROGRAM), "lower-to-cpu")
    records = {r.name: r for r in knobs.space() if r.pass_name == "llvm-options"}
    assert set(records) == {
        "opt_level",
        "fast_math",
        "loop_vectorize",
        "slp_vectorize",
        "unroll_threshold",
        "loop_unswitch",
    }
    assert all(r.site == SITE for r in records.values())
    assert {n: r.default for n, r in records.items()} == {
        "opt_level": 3,
        "fast_math": "none",
        "loop_vectorize": True,
        "slp_vectorize": True,
        "unroll_threshold": 300,
        "loop_unswitch": False,
    }
    compiled = mlc.compile(PROGRAM)
    opts = compiled.jit.options
    assert (opts.opt_level, opts.fast_math, opts.unroll_threshold) == (3, None, 300)
    assert opts.loop_vectorize and opts.slp_vectorize


@pytest.mark.parametrize(
    ("name", "values"),
    [
        ("opt_level", [0, 1, 2, 3]),
        ("fast_math", list(FAST_MATH)),
        ("loop_vectorize", [False, True]),
        ("slp_vectorize", [False, True]),
        ("unroll_threshold", list(UNROLL_THRESHOLDS)),
        ("loop_unswitch", [False, True]),
    ],
)
def test_every_value_compiles_runs_and_reaches_the_jit(name: str, values: list) -> None:
    for value in values:
        compiled = mlc.compile(PROGRAM, knobs={_key(name): value})
        _check(compiled)
        got = getattr(compiled.jit.options, name)
        assert got == (FAST_MATH[value] if name == "fast_math" else value)


def test_unroll_default_follows_the_opt_level() -> None:
    compiled = mlc.compile(PROGRAM, knobs={_key("opt_level"): 2})
    assert compiled.jit.options.unroll_threshold == 150


@pytest.mark.parametrize(
    ("name", "value", "domain"),
    [
        ("opt_level", 4, r"int\[0\.\.3\]"),
        ("fast_math", "unsafe", r"choice\["),
        ("loop_vectorize", 1, "bool"),
        ("unroll_threshold", 299, r"choice\[0, 50"),
        ("opt_level", object(), r"int\[0\.\.3\]"),  # no JSON text: shown by its repr
    ],
)
def test_out_of_domain_values_name_the_knob(name: str, value: object, domain: str) -> None:
    with pytest.raises(PassError, match=f"knob '{SITE}/{name}' is outside its domain {domain}"):
        mlc.compile(PROGRAM, knobs={_key(name): value})


@pytest.mark.parametrize("knobs", [123, [1], 2.5])
def test_knobs_of_the_wrong_type_are_a_type_error(knobs: object) -> None:
    with pytest.raises(TypeError, match="knob configuration must be a mapping, JSON text or"):
        mlc.compile(PROGRAM, knobs=knobs)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ("opt-level=5", "opt-level must be 0, 1, 2 or 3"),
        ("fast-math=ieee", "fast-math must be one of none, contract"),
        ("unroll-threshold=7", "unroll-threshold must be -1 or one of 0, 50"),
    ],
)
def test_bad_pass_options(options: str, message: str) -> None:
    with pytest.raises(PassError, match=message):
        mlc.run_pipeline(mlc.parse(PROGRAM), f"builtin.module(llvm-options{{{options}}})")


def test_explicit_opt_level_argument_overrides_the_knob() -> None:
    compiled = mlc.compile(PROGRAM, knobs={_key("opt_level"): 1}, opt_level=0)
    assert compiled.jit.options.opt_level == 0
    _check(compiled)


def test_reassoc_lets_llvm_vectorize_a_float_sum() -> None:
    vector_fadd = re.compile(r"= fadd [a-z ]*<\d+ x float>")
    strict = mlc.compile(SUM, SCALAR_SUM, {_key("fast_math"): "none"})
    loose = mlc.compile(SUM, SCALAR_SUM, {_key("fast_math"): "reassoc,contract"})
    assert not vector_fadd.search(strict.jit.llvm_ir_optimized)
    assert vector_fadd.search(loose.jit.llvm_ir_optimized)
    assert "fadd reassoc contract" in loose.jit.llvm_ir_optimized
    x = np.arange(1001, dtype=np.float32) / 7
    assert strict.main(x) == np.float32(np.add.accumulate(x)[-1])  # the sequential order
    np.testing.assert_allclose(loose.main(x), x.astype(np.float64).sum(), rtol=1e-5)


def test_contract_fuses_multiply_add() -> None:
    from mlc.runtime import host_target

    if not host_target().has_feature("fma"):
        pytest.skip("host without FMA")
    pipeline = (
        "builtin.module(graph-shape-inference,canonicalize,graph-fusion,convert-graph-to-tensor,"
        "tensor-fusion,canonicalize,cse,bufferize,convert-tensor-to-affine,canonicalize,cse,"
        "convert-to-llvm,reconcile-unrealized-casts,canonicalize,cse,llvm-options)"
    )
    plain = mlc.compile(PROGRAM, pipeline, {_key("fast_math"): "none"})
    fused = mlc.compile(PROGRAM, pipeline, {_key("fast_math"): "contract"})
    assert "vfmadd" not in plain.jit.asm() and "vfmadd" in fused.jit.asm()


def test_mlc_opt_dump_knobs_lists_llvm_and_vectorizer_knobs(tmp_path) -> None:  # type: ignore[no-untyped-def]
    src = tmp_path / "p.mlir"
    src.write_text(PROGRAM)
    dump = tmp_path / "knobs.json"
    cmd = [sys.executable, "-m", "mlc.tools.mlc_opt", str(src), "-p", "lower-to-cpu"]
    subprocess.run([*cmd, f"--dump-knobs={dump}"], check=True, capture_output=True)
    knobs = json.loads(dump.read_text())["knobs"]
    names = {(k["pass"], k["knob"]) for k in knobs}
    assert ("affine-vectorize", "width") in names and ("llvm-options", "fast_math") in names
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    assert 'mlc.llvm_options = {fast_math = "none"' in out


# Reductions whose identities are infinite (max, min, max pooling's padding) or NaN (the
# NaN-ignoring maxnum of the vectorized row max, at some knob settings).
EXTREMES = """
func.func @main(%x: tensor<7x10xf32>, %img: tensor<1x2x6x6xf32>)
    -> (tensor<7x10xf32>, tensor<10xf32>, tensor<7xf32>, tensor<1x2x3x3xf32>) {
  %s = graph.softmax %x {axis = 1 : i64} : (tensor<7x10xf32>) -> tensor<7x10xf32>
  %m = graph.reduce_max %x {axes = array<i64: 0>} : (tensor<7x10xf32>) -> tensor<10xf32>
  %n = graph.reduce_min %x {axes = array<i64: 1>} : (tensor<7x10xf32>) -> tensor<7xf32>
  %p = graph.max_pool2d %img {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                              pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x2x6x6xf32>) -> tensor<1x2x3x3xf32>
  return %s, %m, %n, %p : tensor<7x10xf32>, tensor<10xf32>, tensor<7xf32>, tensor<1x2x3x3xf32>
}
"""


@pytest.mark.parametrize("opt_level", [0, 1, 3])
def test_fast_math_fast_keeps_finite_results_of_max_and_min_reductions(opt_level: int) -> None:
    # `fast` assumes no NaN/Inf: the -inf/+inf/NaN identities mlc itself builds would be poison
    # under it (softmax came out NaN at O0); llvm-options makes them finite.
    import mlc.interp

    rng = np.random.default_rng(3)
    x = (rng.standard_normal((7, 10)) * 30).astype(np.float32)
    img = rng.standard_normal((1, 2, 6, 6)).astype(np.float32)
    want = mlc.interp.run(mlc.parse(EXTREMES), "main", x, img)
    ctx = KnobContext()
    mlc.compile(EXTREMES, knobs=ctx)
    space = [r for r in ctx.space() if r.pass_name != "llvm-options"]
    pick = random.Random(opt_level)
    for trial in range(3):
        # The defaults, then random settings of the other knobs (some vectorize the row max
        # with a NaN identity).
        config = {r.key: r.domain.sample(pick) for r in space} if trial else {}
        config |= {_key("fast_math"): "fast", _key("opt_level"): opt_level}
        got = mlc.compile(EXTREMES, knobs=config).main(x, img)
        for g, w in zip(got, want, strict=True):
            np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-6, err_msg=str(config))


def test_finite_constants_only_with_no_inf_or_no_nan_flags() -> None:
    from mlc.passes.llvm_options import finite_constants

    text = """
    llvm.func @f(%x: f32) -> f32 {
      %a = llvm.mlir.constant(0xFF800000 : f32) : f32
      %b = llvm.mlir.constant(0x7FC00000 : f32) : f32
      %m = llvm.intr.maxnum(%x, %a) : (f32, f32) -> f32
      %n = llvm.intr.minnum(%m, %b) : (f32, f32) -> f32
      llvm.return %n : f32
    }
    """
    for flags, changed, shown in (
        ((), 0, ("0xFF800000", "0x7FC00000")),
        (("contract", "reassoc"), 0, ("0xFF800000", "0x7FC00000")),
        (("ninf",), 1, ("-3.40282347E+38", "0x7FC00000")),
        (("nnan",), 1, ("0xFF800000", "3.40282347E+38")),
        (("fast",), 2, ("-3.40282347E+38", "3.40282347E+38")),
    ):
        module = mlc.parse(text)
        assert finite_constants(module, flags) == changed, flags
        out = str(module)
        for literal in shown:
            assert f"constant({literal} : f32)" in out, (flags, out)


@pytest.mark.parametrize("cols", [10, 13])
@pytest.mark.parametrize("width", [1, 16])
def test_short_softmax_rows_without_unrolling(cols: int, width: int) -> None:
    """Softmax rows of 10 and 13 columns whose max loop mlc leaves scalar (width 1, or 16 >
    the row) with LLVM's unroller off: LLVM 22 vectorized the maxnum loop and dropped its last
    iterations, so a row maximum there overflowed exp to inf and the output to NaN (found by
    fuzzing the MLP's knobs). The loop now keeps LLVM's vectorizer away."""
    text = (
        f"func.func @main(%x: tensor<?x{cols}xf32>) -> tensor<?x{cols}xf32> {{\n"
        f"  %0 = graph.softmax %x {{axis = 1 : i64}} "
        f": (tensor<?x{cols}xf32>) -> tensor<?x{cols}xf32>\n"
        f"  return %0 : tensor<?x{cols}xf32>\n}}\n"
    )
    space = mlc.run_pipeline(mlc.parse(text), "lower-to-cpu").space()
    knobs = {r.key: width for r in space if r.name == "width"}
    knobs[_key("unroll_threshold")] = 0
    f = mlc.compile(text, knobs=knobs).main
    x = np.zeros((cols, cols), np.float32)
    np.fill_diagonal(x, 100.0)  # row i: its maximum in column i, the others e^-100 below it
    want = np.exp(x - 100.0, dtype=np.float64)
    want /= want.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(f(x), want, rtol=1e-5, atol=1e-30)
