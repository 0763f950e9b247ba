"""contraction-microkernel's skinny kernels (axpy-n, axpy-m, dot-m, dot-n) and the run-time
small-M variant: the cost model's choices on matrix-vector shapes, and compiled results equal to
the interpreter/NumPy for every kernel, tile, k blocking, epilogue, edge and thread count."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest
from mlc.lowering.microkernel_skinny import KINDS
from test_microkernel import BEFORE, _after_pass, _check, _matmul, _pipeline, _site

import mlc
from mlc.knobs import KnobContext


def _chosen(text: str, vl: int = 16) -> dict:
    ctx = KnobContext()
    _after_pass(text, vl, ctx)
    return {r.name: r.value for r in ctx.space() if r.pass_name == "contraction-microkernel"}


def _domain(text: str, name: str, vl: int = 16) -> list:
    ctx = KnobContext()
    _after_pass(text, vl, ctx)
    return next(r.domain.options for r in ctx.space() if r.name == name)


TRANSPOSED_A_MATVEC = """
func.func @main(%x: tensor<?x37xf32>, %v: tensor<?x1xf32>, %r: tensor<37x1xf32>) -> tensor<37x1xf32> {
  %xt = graph.transpose %x {perm = array<i64: 1, 0>} : (tensor<?x37xf32>) -> tensor<37x?xf32>
  %0 = graph.matmul %xt, %v : (tensor<37x?xf32>, tensor<?x1xf32>) -> tensor<37x1xf32>
  %1 = graph.add %0, %r : (tensor<37x1xf32>, tensor<37x1xf32>) -> tensor<37x1xf32>
  return %1 : tensor<37x1xf32>
}
"""  # noqa: E501

ROW_TIMES_TRANSPOSED_B = """
func.func @main(%x: tensor<1x40xf32>, %w: tensor<23x40xf32>) -> tensor<1x23xf32> {
  %wt = graph.transpose %w {perm = array<i64: 1, 0>} : (tensor<23x40xf32>) -> tensor<40x23xf32>
  %0 = graph.matmul %x, %wt : (tensor<1x40xf32>, tensor<40x23xf32>) -> tensor<1x23xf32>
  %1 = graph.relu %0 : tensor<1x23xf32>
  return %1 : tensor<1x23xf32>
}
"""


@pytest.mark.parametrize(
    ("text", "kernel"),
    [
        (_matmul("1", "784", "512", "bias,relu"), "axpy-n"),
        (_matmul("?", "100", "1"), "dot-m"),
        (_matmul("256", "512", "10", "bias"), "dot-m"),
        (TRANSPOSED_A_MATVEC, "axpy-m"),
        (ROW_TIMES_TRANSPOSED_B, "dot-n"),
        (_matmul("256", "256", "256"), "blis"),
        (_matmul("64", "784", "512"), "blis"),
    ],
)
def test_cost_model_picks_the_kernel(text: str, kernel: str) -> None:
    assert _chosen(text)["kernel"] == kernel


@pytest.mark.parametrize("vl", [8, 16])
def test_dot_rows_at_most_the_l1_ways(vl: int) -> None:
    """dot-m reads its R rows in step: rows 4 KiB apart (K = 1024) all map to one L1 set, so
    the default tile keeps R within the L1d's ways (16 rows fit the AVX-512 registers)."""
    from mlc.lowering.microkernel import cache_sizes

    chosen = _chosen(_matmul("1024", "1024", "1"), vl)
    assert chosen["kernel"] == "dot-m"
    assert chosen["rows"] <= cache_sizes().l1_ways


def test_dynamic_m_gets_a_small_variant() -> None:
    chosen = _chosen(_matmul("?", "784", "512", "bias,relu"))
    assert chosen["kernel"] == "blis" and chosen["small-m"] >= 8
    ir = _after_pass(_matmul("?", "784", "512", "bias,relu"), 16)
    assert "affine.if" in ir and "tensor.generic" not in ir


@pytest.mark.parametrize("rows", [1, 2, 3, 7, 300])
def test_dynamic_m_one_compiled_function(rows: int) -> None:
    """Batch 1 and 300 through the same compiled function: the small variant and the nest."""
    text = _matmul("?", "70", "40", "bias,relu")
    site = _site(text)
    knobs = {f"{site}/small-m": 8, f"{site}/kernel": "blis"}
    _check(text, dyn={0: rows}, knobs=knobs)


def test_kernel_domain_lists_only_applicable_kernels() -> None:
    # B is K x N row-major: contiguous along n (axpy-n), not along k; A along k (dot-m).
    assert _domain(_matmul("3", "64", "5"), "kernel") == ("blis", "axpy-n", "dot-m")
    # A matrix-vector product with A transposed: axpy-m (vectors along m), and axpy-n (along
    # n, which has one element: the operands are contiguous along it), no dot-m.
    assert _domain(TRANSPOSED_A_MATVEC, "kernel") == ("blis", "axpy-n", "axpy-m")


def test_kernel_outside_its_domain_is_an_error_naming_the_knob() -> None:
    text = _matmul("?", "100", "1")
    site = _site(text)
    with pytest.raises(mlc.DiagnosticError, match="kernel"):
        mlc.compile(text, pipeline=_pipeline(8), knobs={f"{site}/kernel": "axpy-m"})


def test_skinny_option_off_keeps_matrix_vector_on_the_generic_path() -> None:
    text = _matmul("64", "64", "1")
    module = mlc.parse(text)
    mlc.run_pipeline(
        module,
        "builtin.module(graph-shape-inference,convert-graph-to-tensor,bufferize,"
        "func.func(contraction-microkernel{vector-width=16 skinny=false}))",
    )
    assert "tensor.generic" in str(module)


SHAPES = [("1", "37", "45"), ("5", "16", "33"), ("?", "100", "1"), ("?", "3", "7"), ("1", "1", "1")]


@pytest.mark.parametrize("vl", [8, 16])
@pytest.mark.parametrize("kernel", KINDS)
@pytest.mark.parametrize("shape", SHAPES)
def test_every_kernel_on_every_shape(shape: tuple[str, str, str], kernel: str, vl: int) -> None:
    text = _matmul(*shape, "bias,relu,residual")
    if kernel not in _domain(text, "kernel", vl):
        pytest.skip(f"{kernel} does not apply")
    site = _site(text, vl)
    _check(text, dyn={0: 9}, knobs={f"{site}/kernel": kernel}, vl=vl)


def test_transposed_a_matrix_vector_product() -> None:
    ir = _after_pass(TRANSPOSED_A_MATVEC, 16)
    # One k loop over rows of x: vectors at m = 0, 16 and 21 (the last overlapping), the
    # residual added before the stores (the generics left are the copies for an empty K).
    assert ir.count("vector.fma") == 3 and "[%arg4, 21]" in ir
    for rows in (1, 40):
        _check(TRANSPOSED_A_MATVEC, dyn={0: rows}, vl=16)


def test_row_times_transposed_b() -> None:
    assert "vector.reduction <add>" in _after_pass(ROW_TIMES_TRANSPOSED_B, 16)
    _check(ROW_TIMES_TRANSPOSED_B, vl=16)


def test_dot_tail_is_exact_for_infinities() -> None:
    """The masked last vector of a dot product must not turn inf * 0 into nan."""
    text = _matmul("?", "100", "1")
    compiled = mlc.compile(text, pipeline=_pipeline(16))
    a = np.ones((4, 100), np.float32)
    b = np.ones((100, 1), np.float32)
    a[0, 90], a[1, 97], a[2, 3] = np.inf, -np.inf, np.nan
    with np.errstate(all="ignore"):
        want = a @ b
    got = compiled.main(a, b)
    np.testing.assert_array_equal(got, want)


def test_batched_matrix_vector_product() -> None:
    text = """
func.func @main(%a: tensor<3x?x50xf32>, %b: tensor<3x50x1xf32>) -> tensor<3x?x1xf32> {
  %0 = graph.matmul %a, %b : (tensor<3x?x50xf32>, tensor<3x50x1xf32>) -> tensor<3x?x1xf32>
  return %0 : tensor<3x?x1xf32>
}
"""
    assert "vector.reduction" in _after_pass(text, 16)
    _check(text, dyn={1: 21}, vl=16)


def _random_config(rng: random.Random, site: str, kinds: tuple, batch: bool) -> dict:
    return {
        f"{site}/kernel": rng.choice(kinds),
        f"{site}/rows": rng.choice([1, 2, 3, 4, 6, 8, 12, 16]),
        f"{site}/vecs": rng.choice([1, 2, 4, 8]),
        f"{site}/kblock": rng.choice([0, 1, 4, 16]),
        f"{site}/small-m": rng.choice([0, 1, 5, 64]),
        f"{site}/small-parallel": rng.choice([True, False]),
        f"{site}/parallel": rng.choice(["none", "jc", "ic"] + (["batch"] if batch else [])),
    }


@pytest.mark.parametrize("seed", range(8))
def test_random_skinny_knobs_and_threads(seed: int) -> None:
    rng = random.Random(seed)
    vl = rng.choice([8, 16])
    n = str(rng.choice([1, 3, 10, 17, 40]))
    text = _matmul("?", str(rng.randint(1, 70)), n, rng.choice(["", "bias", "bias,relu"]))
    site = _site(text, vl)
    kinds = _domain(text, "kernel", vl)
    knobs = _random_config(rng, site, kinds, batch=False)
    rows = rng.choice([1, 2, 5, 13, 33])
    one = _check(text, dyn={0: rows}, knobs=knobs, vl=vl, threads=1, seed=seed)
    two = _check(text, dyn={0: rows}, knobs=knobs, vl=vl, threads=2, seed=seed)
    assert np.array_equal(one, two), knobs


TRANSPOSED_B_DYNAMIC = """
func.func @main(%x: tensor<3x?xf32>, %w: tensor<?x?xf32>, %bias: tensor<?xf32>) -> tensor<3x?xf32> {
  %wt = graph.transpose %w {perm = array<i64: 1, 0>} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %0 = graph.matmul %x, %wt : (tensor<3x?xf32>, tensor<?x?xf32>) -> tensor<3x?xf32>
  %1 = graph.add %0, %bias : (tensor<3x?xf32>, tensor<?xf32>) -> tensor<3x?xf32>
  %2 = graph.relu %1 : tensor<3x?xf32>
  return %2 : tensor<3x?xf32>
}
"""


@pytest.mark.parametrize("kernel", ["axpy-n", "dot-n"])
@pytest.mark.parametrize("parallel", ["none", "jc", "ic"])
def test_dynamic_n_and_k(kernel: str, parallel: str) -> None:
    """Dynamic K and N (every tile and tail behind run-time bounds), an empty K included."""
    text = _matmul("3", "?", "?", "bias,relu") if kernel == "axpy-n" else TRANSPOSED_B_DYNAMIC
    assert kernel in _domain(text, "kernel", 16)
    site = _site(text, 16)
    knobs = {f"{site}/kernel": kernel, f"{site}/parallel": parallel}
    compiled = mlc.compile(text, pipeline=_pipeline(16), knobs=knobs, threads=2, opt_level=1)
    rng = np.random.default_rng(3)
    for k, n in [(37, 45), (1, 1), (0, 20), (100, 130)]:
        a = rng.standard_normal((3, k)).astype(np.float32)
        b = rng.standard_normal((k, n)).astype(np.float32)
        bias = rng.standard_normal(n).astype(np.float32)
        w = b if kernel == "axpy-n" else np.ascontiguousarray(b.T)
        np.testing.assert_allclose(
            compiled.main(a, w, bias), np.maximum(a @ b + bias, 0), rtol=1e-4, atol=1e-4
        )


@pytest.mark.parametrize(
    ("m", "k", "n", "kblock", "ranges"),
    [
        (1, 100, 512, 0, 2),  # two equal ranges of 256 columns, aligned heads
        (1, 100, 520, 4, 2),  # 288 + 232 columns: the last range behind an affine.if, k blocks
        (3, 37, 72, 0, 2),  # 64 + 8 columns: too short for the aligned head
        (2, 64, 40, 8, 2),  # 32 + 8
        (1, 50, 20, 0, 1),  # one tile: nothing to split
    ],
)
def test_axpy_split_in_column_ranges(m: int, k: int, n: int, kblock: int, ranges: int) -> None:
    """axpy-n split along n: one contiguous column range per planned thread, each swept as the
    serial kernel sweeps it; the same bits as the serial kernel at 1 and 2 threads."""
    text = _matmul(str(m), str(k), str(n), "bias,relu")
    site = _site(text, 8)
    knobs = {
        f"{site}/kernel": "axpy-n",
        f"{site}/parallel": "jc",
        f"{site}/vecs": 4,
        f"{site}/rows": 2,
        f"{site}/kblock": kblock,
    }
    module = mlc.parse(text)
    mlc.run_pipeline(
        module,
        f"builtin.module({BEFORE},"
        "func.func(contraction-microkernel{vector-width=8 min-flops=0 threads=2}))",
        KnobContext(knobs),
    )
    assert re.search(rf"affine.parallel \(%\w+\) = \(0\) to \({ranges}\)", str(module))
    serial = _check(text, knobs={**knobs, f"{site}/parallel": "none"}, threads=1)
    for threads in (1, 2):
        got = _check(text, knobs=knobs, threads=threads)
        assert np.array_equal(got, serial)


@pytest.mark.parametrize(
    ("shape", "kblock", "unrolled"),
    [
        (("1", "64", "40"), 8, True),  # K a multiple of the block: straight-line blocks
        (("3", "36", "40"), 8, False),  # a partial last block: the k loop stays
        (("1", "64", "40"), 16, False),  # longer than UNROLL_KBLOCK: the k loop stays
        (("?", "64", "40"), 8, False),  # a dynamic size keeps the loop (compile time)
    ],
)
def test_axpy_k_blocks_unrolled_for_static_sizes(
    shape: tuple[str, str, str], kblock: int, unrolled: bool
) -> None:
    """A static axpy's whole k blocks of at most UNROLL_KBLOCK steps are straight-line code
    (no affine.for with the tile's accumulators as iter_args, but for the single-lane pieces
    of the aligned sweep's head and tail), with the same results on 1 and 2 threads as the
    interpreter's, epilogues included."""
    from mlc.lowering.microkernel_skinny import UNROLL_KBLOCK

    text = _matmul(*shape, "bias,relu")
    site = _site(text)
    knobs = {f"{site}/kernel": "axpy-n", f"{site}/kblock": kblock, f"{site}/parallel": "none"}
    ir = _after_pass(text, 8, KnobContext(knobs))
    k_loops = [
        line
        for line in ir.splitlines()
        if "affine.for" in line and "iter_args" in line and "vector<1xf32>" not in line
    ]
    assert (not k_loops) == unrolled, ir
    if unrolled:
        assert kblock <= UNROLL_KBLOCK
        assert ir.count("vector.fma") >= kblock
    for threads in (1, 2):
        for_threads = {**knobs, f"{site}/parallel": "jc" if threads == 2 else "none"}
        _check(text, dyn={0: 5}, knobs=for_threads, threads=threads)


def _offset_copy(x: np.ndarray, offset: int) -> np.ndarray:
    """A copy of `x` whose data starts `offset` bytes past a 64-byte boundary."""
    buf = np.empty(x.size + 32, np.float32)
    start = (-buf.ctypes.data % 64) // 4 + offset // 4
    y = buf[start : start + x.size].reshape(x.shape)
    y[...] = x
    return y


@pytest.mark.parametrize(
    ("m", "k", "n", "vl", "kblock", "threads"),
    [
        ("1", "64", "40", 8, 8, 1),  # K a multiple of the block: straight-line blocks
        ("1", "36", "72", 8, 8, 1),  # a partial last block; tails of 4 lanes and scalars
        ("1", "48", "112", 16, 4, 1),  # 16 lanes: head pieces of 8 and 4 lanes, then scalars
        ("1", "40", "160", 8, 8, 2),  # two column ranges of 96 + 64, each with its head
        ("?", "24", "56", 8, 8, 1),  # the small-M variant: no aligned k blocks (compile time)
    ],
)
def test_axpy_k_blocks_start_at_the_aligned_column(
    m: str, k: str, n: str, vl: int, kblock: int, threads: int
) -> None:
    """axpy-n in k blocks sweeps each block from the first vl-aligned column of B (C holds
    partial sums, so the head is taken in pieces that do not overlap: vl/2 .. 4 lanes by its
    bits, then single lanes; B's rows a multiple of vl elements long; static M only): the
    same results as NumPy for B at every 4-byte offset from a 64-byte boundary, epilogues
    included, on 1 and 2 threads."""
    text = _matmul(m, k, n, "bias,relu")
    site = _site(text, vl)
    knobs = {
        f"{site}/kernel": "axpy-n",
        f"{site}/kblock": kblock,
        f"{site}/parallel": "jc" if threads == 2 else "none",
    }
    if m == "?":
        knobs = {
            f"{site}/kernel": "blis",
            f"{site}/small-m": 4,
            f"{site}/kblock": kblock,
            f"{site}/parallel": "none",
        }
    ir = _after_pass(text, vl, KnobContext(knobs))
    assert ("memref.extract_aligned_pointer_as_index" in ir) == (m != "?")
    assert (f"vector<{vl // 2}xf32>" in ir) == (m != "?")  # a head piece of half a vector
    compiled = mlc.compile(text, pipeline=_pipeline(vl), knobs=knobs, threads=threads)
    rng = np.random.default_rng(7)
    K, N = int(k), int(n)
    for rows in (1, 3) if m == "?" else (int(m),):
        a = rng.standard_normal((rows, K)).astype(np.float32)
        b = rng.standard_normal((K, N)).astype(np.float32)
        bias = rng.standard_normal(N).astype(np.float32)
        want = np.maximum(a.astype(np.float64) @ b + bias, 0)
        for offset in range(0, 64, 4):
            got = compiled.main(a, _offset_copy(b, offset), bias)
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4, err_msg=f"{offset=}")
