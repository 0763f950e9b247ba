"""math-polynomial-approximation: the f32 approximations compiled through convert-to-llvm and
the JIT, measured in ulps against float64 references over dense sweeps of each domain
(including 0, -0, subnormals, saturation to inf/0/+-1, NaN and inf), on scalars, vectors and
f16; the rewritten loops have no calls left; the pass's option, knob and diagnostics."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from mlc.lowering.to_llvm import lower_module
from mlc.lowering.translate import translate_module
from mlc.passes.math_approx import APPROXIMATIONS, SHIFTED_EXP_REL_ERROR, host_has_avx512

import mlc
from mlc.runtime import ArgSpec, JitOptions, Signature, compile_llvm_ir

try:
    from scipy.special import erf as _erf
except ImportError:  # pragma: no cover - scipy is optional
    _erf = np.vectorize(math.erf, otypes=[np.float64])

# The documented bound (docs/lowering.md) of each function, in ulps of the f32 result.
MAX_ULPS = {
    "exp": 1.0,
    "exp2": 1.0,
    "expm1": 1.5,
    "log": 1.0,
    "log2": 1.5,
    "log10": 1.5,
    "log1p": 1.0,
    "tanh": 1.5,
    "erf": 1.5,
}

REFERENCE = {
    "exp": np.exp,
    "exp2": np.exp2,
    "expm1": np.expm1,
    "log": np.log,
    "log2": np.log2,
    "log10": np.log10,
    "log1p": np.log1p,
    "tanh": np.tanh,
    "erf": _erf,
}

FUNC = """
func.func @k_{name}(%a: memref<?x{w}xf32>, %b: memref<?x{w}xf32>) {{
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?x{w}xf32>
  affine.for %i = 0 to %n {{
    {body}
  }}
  return
}}
"""
SCALAR_BODY = """affine.for %j = 0 to {w} {{
      %x = affine.load %a[%i, %j] : memref<?x{w}xf32>
      %y = math.{fn} %x : f32
      affine.store %y, %b[%i, %j] : memref<?x{w}xf32>
    }}"""
VECTOR_BODY = """%x = vector.load %a[%i, %c0] : memref<?x{w}xf32>, vector<{w}xf32>
    %y = math.{fn} %x : vector<{w}xf32>
    vector.store %y, %b[%i, %c0] : memref<?x{w}xf32>, vector<{w}xf32>"""


def _module_text(width: int = 8) -> str:
    funcs = []
    for fn in APPROXIMATIONS:
        body = SCALAR_BODY.format(w=width, fn=fn)
        funcs.append(FUNC.format(name=fn, w=width, body=body))
        body = VECTOR_BODY.format(w=width, fn=fn)
        funcs.append(FUNC.format(name=fn + "_vec", w=width, body=body))
    return "\n".join(funcs)


def _compile(
    text: str, pipeline: str, width: int = 8, options: JitOptions | None = None
) -> tuple[object, str]:
    module = mlc.parse(text)
    mlc.run_pipeline(module, pipeline)
    assert lower_module(module)
    ir = translate_module(module)
    sig = Signature([ArgSpec("a", "f32", ("n", width))], [ArgSpec("b", "f32", ("n", width))])
    names = [op.get_attr("sym_name").value for op in module.walk() if op.name == "llvm.func"]  # type: ignore[union-attr]
    public = [n for n in names if n.startswith("k_")]
    return compile_llvm_ir(ir, {n: sig for n in public}, options=options), ir


@pytest.fixture(scope="module", params=["false", "true"], ids=["bits", "ldexp"])
def approx(request: pytest.FixtureRequest) -> tuple[object, str]:
    """Both ways of scaling by 2^k: exponent-field arithmetic and llvm.intr.ldexp (one
    vscalefps with AVX-512, a libm ldexpf call elsewhere: correct on every host)."""
    pipeline = f"builtin.module(math-polynomial-approximation{{ldexp={request.param}}})"
    return _compile(_module_text(), pipeline)


def _ulp(ref: np.ndarray) -> np.ndarray:
    """The f32 ulp at each float64 reference value (2^-149 for subnormals)."""
    _, e = np.frexp(np.abs(ref))
    return np.ldexp(1.0, np.maximum(e - 24, -149))


def ulp_error(got: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """|got - ref| in f32 ulps of ref; 0 where the special values agree with ref rounded to f32
    (NaN, infinities, overflow), inf where they do not."""
    with np.errstate(over="ignore"):
        ref32 = ref.astype(np.float32)
    same_special = (np.isnan(got) & np.isnan(ref)) | (np.isinf(ref32) & (got == ref32))
    special = np.isnan(got) | np.isnan(ref) | np.isinf(ref32) | np.isinf(got)
    with np.errstate(invalid="ignore", over="ignore"):
        err = np.abs(got.astype(np.float64) - ref) / _ulp(ref)
    return np.where(same_special, 0.0, np.where(special, np.inf, err))


SPECIALS = np.array(
    [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1e-40, -1e-40, 1.1754944e-38,
     -1.1754944e-38, 1.0, -1.0, 0.5, -0.5, 2.0, 3.4028235e38, -3.4028235e38],
    dtype=np.float32,
)  # fmt: skip


def _sweep(lo: float, hi: float, n: int = 400_000) -> np.ndarray:
    """Dense in value (linear) and in magnitude (log), plus special values."""
    rng = np.random.default_rng(0)
    lin = np.linspace(lo, hi, n)
    parts = [lin, rng.uniform(lo, hi, n // 4), SPECIALS]
    for sign, bound in ((1.0, hi), (-1.0, -lo)):
        if bound > 0:
            parts.append(sign * np.geomspace(1e-45, bound, n // 2))
    x = np.concatenate(parts).astype(np.float32)
    return x[(np.isnan(x)) | ((x >= lo) & (x <= hi)) | np.isinf(x) | np.isin(x, SPECIALS)]


DOMAINS = {
    "exp": (-110.0, 90.0),
    "exp2": (-155.0, 130.0),
    "expm1": (-20.0, 90.0),
    "log": (-1.0, 3.4028235e38),
    "log2": (-1.0, 3.4028235e38),
    "log10": (-1.0, 3.4028235e38),
    "log1p": (-2.0, 3.4028235e38),
    "tanh": (-12.0, 12.0),
    "erf": (-5.0, 5.0),
}


def _run(mod: object, name: str, x: np.ndarray, width: int = 8) -> np.ndarray:
    pad = (-len(x)) % width
    xp = np.concatenate([x, np.ones(pad, np.float32)]).reshape(-1, width)
    return np.asarray(mod["k_" + name](xp)).reshape(-1)[: len(x)]  # type: ignore[index]


@pytest.mark.parametrize("fn", list(APPROXIMATIONS))
def test_max_ulp_error(approx: tuple[object, str], fn: str) -> None:
    mod, _ = approx
    x = _sweep(*DOMAINS[fn])
    with np.errstate(all="ignore"):
        ref = REFERENCE[fn](x.astype(np.float64))
    for name in (fn, fn + "_vec"):
        got = _run(mod, name, x)
        err = ulp_error(got, ref)
        worst = int(np.argmax(err))
        assert err[worst] <= MAX_ULPS[fn], (name, float(x[worst]), float(got[worst]), ref[worst])


@pytest.mark.parametrize("fn", list(APPROXIMATIONS))
def test_signed_zero_nan_inf(approx: tuple[object, str], fn: str) -> None:
    mod, _ = approx
    x = np.array([0.0, -0.0, np.nan, -np.nan, np.inf, -np.inf], np.float32)
    got = _run(mod, fn + "_vec", x)
    with np.errstate(all="ignore"):
        ref = REFERENCE[fn](x.astype(np.float64)).astype(np.float32)
    assert np.array_equal(np.isnan(got), np.isnan(ref)), (fn, got, ref)
    finite = ~np.isnan(ref)
    assert np.array_equal(got[finite], ref[finite]), (fn, got, ref)
    # The sign of a zero result is NumPy's (exp(-inf) = +0, tanh(-0) = -0, log... ).
    zeros = finite & (ref == 0)
    assert np.array_equal(np.signbit(got[zeros]), np.signbit(ref[zeros])), (fn, got, ref)


def test_fast_math_keeps_finite_results_accurate() -> None:
    """With `fast` on every float instruction (the llvm-options knob), LLVM may reassociate
    and assume no NaN/inf; on finite inputs and results the approximations stay accurate (no
    rounding trick that reassociation folds away)."""
    mod, _ = _compile(
        _module_text(),
        "builtin.module(math-polynomial-approximation)",
        options=JitOptions(fast_math=True),
    )
    for fn in APPROXIMATIONS:
        lo, hi = DOMAINS[fn]
        x = np.linspace(max(lo, -80.0), min(hi, 80.0), 20_001).astype(np.float32)
        with np.errstate(all="ignore"):
            ref = REFERENCE[fn](x.astype(np.float64))
        ok = np.isfinite(ref) & (np.abs(ref) > 1e-30) & (np.abs(ref) < 1e30)
        for name in (fn, fn + "_vec"):
            got = _run(mod, name, x)
            assert ulp_error(got[ok], ref[ok]).max() <= 4 * MAX_ULPS[fn], name


def test_no_calls_left_in_the_loops(approx: tuple[object, str]) -> None:
    _, ir = approx
    calls = [line for line in ir.splitlines() if " call " in line]
    assert calls  # the FMAs
    for line in calls:
        assert "@llvm.fma." in line or "@llvm.fabs." in line or "@llvm.ldexp." in line, line


def test_loops_vectorize(approx: tuple[object, str]) -> None:
    """The scalar loops are vectorized by LLVM: the machine code uses 256-bit FMAs."""
    mod, ir = approx
    asm = mod.asm()  # type: ignore[attr-defined]
    assert "vfmadd" in asm and "ymm" in asm
    # No libm call for the approximated functions (forced ldexp on a host without AVX-512
    # calls libm's ldexpf, whose name contains "expf": match whole symbol names).
    called = set(re.findall(r"\$?\b([A-Za-z_]\w*)\b", asm))
    assert not called & {"expf", "tanhf", "erff"}
    if "@llvm.ldexp." in ir and host_has_avx512():
        assert "vscalefps" in asm and "ldexpf" not in asm


def test_ldexp_default_follows_the_host() -> None:
    """The `ldexp` knob defaults to the host's AVX-512F (option `ldexp=host`); the option
    forces it either way, and the knob decides per op."""
    from mlc.knobs import KnobContext

    text = """
    func.func @f(%x: vector<16xf32>, %y: f32) -> (vector<16xf32>, f32, f32) {
      %0 = math.exp %x : vector<16xf32>
      %1 = math.erf %y : f32
      %2 = math.log %y : f32
      return %0, %1, %2 : vector<16xf32>, f32, f32
    }"""
    kc = KnobContext()
    module = mlc.parse(text)
    mlc.run_pipeline(module, "builtin.module(math-polynomial-approximation)", knobs=kc)
    records = [r for r in kc.space() if r.name == "ldexp"]
    assert len(records) == 2  # exp and erf; log has no 2^k scaling
    assert all(r.default is host_has_avx512() for r in records)
    names = [op.name for op in module.walk()]
    assert names.count("llvm.intr.ldexp") == (2 if host_has_avx512() else 0)
    for forced, count in (("true", 2), ("false", 0)):
        module = mlc.parse(text)
        mlc.run_pipeline(module, f"builtin.module(math-polynomial-approximation{{ldexp={forced}}})")
        assert [op.name for op in module.walk()].count("llvm.intr.ldexp") == count
    module = mlc.parse(text)
    mlc.run_pipeline(
        module,
        "builtin.module(math-polynomial-approximation{ldexp=true})",
        knobs={records[0].key: False},
    )
    assert [op.name for op in module.walk()].count("llvm.intr.ldexp") == 1
    with pytest.raises(mlc.DiagnosticError, match="ldexp"):
        mlc.run_pipeline(mlc.parse(text), "builtin.module(math-polynomial-approximation{ldexp=x})")


def test_f16_and_bf16_compute_in_f32() -> None:
    text = """
    func.func @f(%x: f16, %y: vector<4xbf16>) -> (f16, vector<4xbf16>) {
      %0 = math.tanh %x : f16
      %1 = math.exp %y : vector<4xbf16>
      return %0, %1 : f16, vector<4xbf16>
    }"""
    module = mlc.parse(text)
    mlc.run_pipeline(module, "builtin.module(math-polynomial-approximation)")
    names = [op.name for op in module.walk()]
    assert "math.tanh" not in names and "math.exp" not in names
    assert names.count("arith.extf") == 2 and names.count("arith.truncf") == 2


def test_f64_and_tensors_untouched_and_ops_option() -> None:
    text = """
    func.func @f(%x: f64, %t: tensor<4xf32>, %y: f32) -> (f64, tensor<4xf32>, f32, f32) {
      %0 = math.exp %x : f64
      %1 = math.exp %t : tensor<4xf32>
      %2 = math.exp %y : f32
      %3 = math.log %y : f32
      return %0, %1, %2, %3 : f64, tensor<4xf32>, f32, f32
    }"""
    module = mlc.parse(text)
    mlc.run_pipeline(module, "builtin.module(math-polynomial-approximation{ops=log})")
    names = [op.name for op in module.walk()]
    assert names.count("math.exp") == 3 and "math.log" not in names


def test_unknown_op_in_option_is_an_error() -> None:
    module = mlc.parse("func.func @f() { return }")
    with pytest.raises(mlc.DiagnosticError, match="not supported: ops sin"):
        mlc.run_pipeline(module, "builtin.module(math-polynomial-approximation{ops=exp,sin})")


def test_knob_keeps_an_op() -> None:
    text = """
    func.func @f(%y: f32) -> (f32, f32) {
      %0 = math.exp %y : f32
      %1 = math.tanh %y : f32
      return %0, %1 : f32, f32
    }"""
    from mlc.knobs import KnobContext

    module = mlc.parse(text)
    kc = KnobContext()
    mlc.run_pipeline(module, "builtin.module(math-polynomial-approximation)", knobs=kc)
    records = [r for r in kc.space() if r.name == "approximate"]
    assert len(records) == 2 and all(r.value is True and r.default is True for r in records)
    tanh_key = records[1].key  # asked in program order: exp, then tanh
    module = mlc.parse(text)
    mlc.run_pipeline(
        module, "builtin.module(math-polynomial-approximation)", knobs={tanh_key: False}
    )
    names = [op.name for op in module.walk()]
    assert "math.tanh" in names and "math.exp" not in names
    with pytest.raises(mlc.DiagnosticError, match="outside its domain"):
        mlc.run_pipeline(
            mlc.parse(text), "builtin.module(math-polynomial-approximation)", knobs={tanh_key: 3}
        )


def test_ldexp_and_exponent_field_scaling_give_the_same_bits() -> None:
    """Both scalings round p * 2^k once (llvm.intr.ldexp directly; the exponent-field form
    through an exact first product), so exp, exp2, erf and tanh agree bit for bit, subnormal
    results and overflow included."""
    text = "\n".join(
        FUNC.format(name=fn + "_vec", w=8, body=VECTOR_BODY.format(w=8, fn=fn))
        for fn in ("exp", "exp2", "erf", "tanh")
    )
    mods = [
        _compile(text, f"builtin.module(math-polynomial-approximation{{ldexp={form}}})")[0]
        for form in ("false", "true")
    ]
    for fn in ("exp", "exp2", "erf", "tanh"):
        x = _sweep(*DOMAINS[fn], n=100_000)
        a, b = (_run(m, fn + "_vec", x).view(np.uint32) for m in mods)
        assert np.array_equal(a, b), fn


SHIFTED = """
func.func @k_shifted(%a: memref<?x8xf32>, %b: memref<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?x8xf32>
  affine.for %i = 0 to %n {
    affine.for %j = 0 to 8 {
      %x = affine.load %a[%i, %j] : memref<?x8xf32>
      %y = math.exp %x {mlc.shifted_exp} : f32
      affine.store %y, %b[%i, %j] : memref<?x8xf32>
    }
  }
  return
}
func.func @k_shifted_vec(%a: memref<?x8xf32>, %b: memref<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?x8xf32>
  affine.for %i = 0 to %n {
    %x = vector.load %a[%i, %c0] : memref<?x8xf32>, vector<8xf32>
    %y = math.exp %x {mlc.shifted_exp} : vector<8xf32>
    vector.store %y, %b[%i, %c0] : memref<?x8xf32>, vector<8xf32>
  }
  return
}
"""


@pytest.mark.parametrize("ldexp", ["false", "true"])
def test_shifted_exp_for_non_positive_arguments(ldexp: str) -> None:
    """`math.exp {mlc.shifted_exp}` (softmax's exp(x - max)): for x <= 0, a relative error
    below SHIFTED_EXP_REL_ERROR where e^x >= 2^-126, below that +0 (the flush) or within a
    subnormal ulp; -inf -> +0, NaN -> NaN, +-0 -> 1; near 0 (x > -11, k >= -16) within 3 ulps."""
    pipeline = f"builtin.module(math-polynomial-approximation{{ldexp={ldexp}}})"
    mod, _ = _compile(SHIFTED, pipeline)
    x = _sweep(-110.0, 0.0)
    x = x[np.isnan(x) | (x <= 0)]
    edges = np.array([-0.0, 0.0, -87.3, -87.5, -87.7, -88.0, -103.9], np.float32)
    x = np.concatenate([x, edges])
    with np.errstate(all="ignore"):
        ref = np.exp(x.astype(np.float64))
        normal = ref >= 2.0**-126
    for name in ("shifted", "shifted_vec"):
        got = _run(mod, name, x)
        with np.errstate(all="ignore"):
            rel = np.abs(got / ref - 1)
        good = rel <= SHIFTED_EXP_REL_ERROR
        with np.errstate(all="ignore"):
            # Subnormal results (ldexp keeps them): within a subnormal ulp and the bound.
            near_sub = np.abs(got - ref) <= 2.0**-149 + ref * SHIFTED_EXP_REL_ERROR
        ok = np.where(normal, good, (got == 0) | near_sub) | (np.isnan(x) & np.isnan(got))
        worst = int(np.argmin(ok))
        assert ok.all(), (name, float(x[worst]), float(got[worst]), ref[worst])
        assert np.isnan(got[np.isnan(x)]).all()
        assert (got[x == -np.inf] == 0).all()
        assert (got[x == 0] == 1.0).all()
        near = x > -11
        assert ulp_error(got[near], ref[near]).max() <= 3.0


def test_shifted_exp_under_fast_math() -> None:
    """k as (x log2(e) + shifter) - shifter: `fast` on every float instruction must not fold
    the subtraction into the fma (that would leave r = 0 and a result off by up to 41%)."""
    mod, _ = _compile(
        SHIFTED, "builtin.module(math-polynomial-approximation{ldexp=false})",
        options=JitOptions(fast_math=True),
    )  # fmt: skip
    x = np.linspace(-80.0, 0.0, 20_001).astype(np.float32)
    ref = np.exp(x.astype(np.float64))
    for name in ("shifted", "shifted_vec"):
        got = _run(mod, name, x)
        assert (np.abs(got / ref - 1) <= 4 * SHIFTED_EXP_REL_ERROR).all(), name
