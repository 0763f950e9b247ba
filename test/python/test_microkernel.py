"""contraction-microkernel: compiled contractions (matmul, batched, transposed, conv2d) with their
absorbed initializers and epilogues equal NumPy/the interpreter across shapes, edge tiles,
dynamic dims and random legal knob configurations; thread counts do not change the bits."""

from __future__ import annotations

import random

import numpy as np
import pytest
from mlc.lowering.microkernel import ORDERS, legal_tiles

import mlc
import mlc.interp
from mlc.knobs import KnobContext

BEFORE = (
    "graph-shape-inference,canonicalize,graph-fusion,cse,convert-graph-to-tensor,tensor-fusion,"
    "canonicalize,cse,bufferize"
)
AFTER = (
    "convert-tensor-to-affine,canonicalize,cse,convert-to-llvm,reconcile-unrealized-casts,"
    "canonicalize,cse"
)


def _pass(vl: int) -> str:
    return f"func.func(contraction-microkernel{{vector-width={vl} min-flops=0}})"


def _pipeline(vl: int) -> str:
    return f"builtin.module({BEFORE},{_pass(vl)},{AFTER})"


def _matmul(m: str, k: str, n: str, epilogue: str = "") -> str:
    """`@main(a: MxK, b: KxN [, bias: N] [, res: MxN])` with an optional epilogue."""
    a, b, c = f"tensor<{m}x{k}xf32>", f"tensor<{k}x{n}xf32>", f"tensor<{m}x{n}xf32>"
    params = [f"%a: {a}", f"%b: {b}"]
    body = [f"%0 = graph.matmul %a, %b : ({a}, {b}) -> {c}"]
    last = "%0"
    if "bias" in epilogue:
        params.append(f"%bias: tensor<{n}xf32>")
        body.append(f"%1 = graph.add %0, %bias : ({c}, tensor<{n}xf32>) -> {c}")
        last = "%1"
    if "relu" in epilogue:
        body.append(f"%2 = graph.relu {last} : {c}")
        last = "%2"
    if "residual" in epilogue:
        params.append(f"%res: {c}")
        body.append(f"%3 = graph.add {last}, %res : ({c}, {c}) -> {c}")
        last = "%3"
    lines = "\n  ".join(body)
    return f"func.func @main({', '.join(params)}) -> {c} {{\n  {lines}\n  return {last} : {c}\n}}\n"


def _inputs(module: mlc.ir.core.Operation, dyn: dict[int, int], seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    fn = module.regions[0].blocks[0].first
    out = []
    for t in fn.get_attr("function_type").value.inputs:
        shape = []
        for i, d in enumerate(t.shape):
            shape.append(dyn.get(i, 5) if d < 0 else d)
        out.append(rng.standard_normal(shape).astype(np.float32))
    return out


def _check(
    text: str,
    dyn: dict[int, int] | None = None,
    knobs: dict | None = None,
    vl: int = 8,
    threads: int = 1,
    opt_level: int = 1,
    seed: int = 0,
) -> np.ndarray:
    compiled = mlc.compile(
        text, pipeline=_pipeline(vl), knobs=knobs, threads=threads, opt_level=opt_level
    )
    module = mlc.parse(text)
    args = _inputs(module, dyn or {}, seed)
    expected = mlc.interp.run(module, "main", *args)[0]
    got = compiled.main(*args)
    scale = max(1.0, float(np.abs(expected).max()))
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4 * scale)
    return got  # type: ignore[no-any-return]


def _after_pass(text: str, vl: int = 8, knobs: KnobContext | None = None) -> str:
    module = mlc.parse(text)
    mlc.run_pipeline(module, f"builtin.module({BEFORE},{_pass(vl)})", knobs)
    return str(module)


def _site(text: str, vl: int = 8) -> str:
    ctx = KnobContext()
    _after_pass(text, vl, ctx)
    keys = {r.site for r in ctx.space() if r.pass_name == "contraction-microkernel"}
    assert len(keys) == 1, keys
    return keys.pop()


def test_matmul_with_bias_relu_is_one_nest() -> None:
    ir = _after_pass(_matmul("?", "20", "19", "bias,relu"))
    assert "tensor.generic" not in ir  # fill, contraction, bias and relu all absorbed
    assert "vector.fma" in ir and "iter_args" in ir and "arith.maximumf" in ir
    assert ir.count("memref.alloc(") == ir.count("memref.dealloc")


def test_non_contractions_are_left_alone() -> None:
    text = """
func.func @main(%x: tensor<8x16xf32>) -> tensor<8xf32> {
  %0 = graph.reduce_sum %x {axes = array<i64: 1>} : (tensor<8x16xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""
    ir = _after_pass(text)
    assert "tensor.generic" in ir and "vector.fma" not in ir


def test_knobs_are_listed_with_legal_domains() -> None:
    ctx = KnobContext()
    _after_pass(_matmul("64", "784", "512"), 16, ctx)
    names = {r.name: r for r in ctx.space() if r.pass_name == "contraction-microkernel"}
    blis = {"mr", "nr", "kc", "mc", "nc", "order", "parallel", "pack", "pack-a", "inline-pack-b"}
    blis |= {"k-unroll", "prefetch", "prefetch-c"}
    blis |= {"pack-a-once", "edge-m-kernel", "pack-a-shared"}  # static, >= 2^24 madds
    assert set(names) == blis | {"kernel", "rows", "vecs", "kblock"}
    assert names["kernel"].value == "blis"
    mr, nr = names["mr"].value, names["nr"].value
    assert (mr, nr) in legal_tiles(16)
    assert names["mc"].value % mr == 0 and names["nc"].value % nr == 0


def test_out_of_domain_tile_is_an_error_naming_the_knob() -> None:
    text = _matmul("16", "16", "16")
    site = _site(text)
    with pytest.raises(mlc.DiagnosticError, match="nr"):
        mlc.compile(text, pipeline=_pipeline(8), knobs={f"{site}/nr": 20})


def test_tile_too_big_for_the_registers_is_capped() -> None:
    text = _matmul("?", "16", "32")
    site = _site(text)
    # 56 accumulators for AVX2 (the nest only: no axpy-n kernel or variant for few rows)
    # A packed: one kernel (in place, a dynamic M also gets the edge strip's packed variant).
    config = {
        f"{site}/mr": 14, f"{site}/nr": 32, f"{site}/kernel": "blis", f"{site}/small-m": 0,
        f"{site}/pack-a": True,
    }
    knobs = KnobContext(config)
    ir = _after_pass(text, 8, knobs)
    # nr stays 32 (4 vectors); mr becomes 2, the largest with 2*4 + 4 + 1 <= 16 registers.
    assert ir.count("vector.fma") == 8
    _check(text, dyn={0: 5}, knobs=config)


SHAPES = [
    (1, 1, 8),
    (1, 784, 512),
    (3, 5, 9),
    (17, 33, 29),
    (64, 70, 48),
    (6, 300, 16),
    (37, 1, 41),
]


@pytest.mark.parametrize("vl", [8, 16])
@pytest.mark.parametrize("shape", SHAPES)
def test_matmul_shapes(shape: tuple[int, int, int], vl: int) -> None:
    m, k, n = shape
    text = _matmul(str(m), str(k), str(n))
    assert "tensor.generic" not in _after_pass(text, vl)  # the nest or a skinny kernel
    _check(text, vl=vl)


def test_matrix_vector_products_take_the_dot_kernel() -> None:
    text = _matmul("64", "64", "1")
    ir = _after_pass(text, 16)
    assert "tensor.generic" not in ir and "vector.reduction <add>" in ir
    _check(text, vl=16)


@pytest.mark.parametrize("pack", [True, False])
def test_b_in_place_or_packed(pack: bool) -> None:
    text = _matmul("?", "37", "45", "bias")
    site = _site(text)
    # Serial: a split loop would give the buffers a leading per-thread dim.
    knobs = {f"{site}/pack": pack, f"{site}/kc": 16, f"{site}/nc": 32, f"{site}/parallel": "none"}
    ir = _after_pass(text, 8, KnobContext(knobs))
    assert ("memref<1x16x16xf32>" in ir) == (not pack)  # only the partial strip is packed
    for rows in (1, 7, 13):
        _check(text, dyn={0: rows}, knobs=knobs)


@pytest.mark.parametrize("pack", [True, False])
def test_a_in_place_or_packed(pack: bool) -> None:
    text = _matmul("?", "37", "45", "bias")
    site = _site(text)
    knobs = {f"{site}/pack-a": pack, f"{site}/kc": 16, f"{site}/mc": 12, f"{site}/mr": 6}
    knobs[f"{site}/parallel"] = "none"  # (serial: no per-thread dim on the buffers)
    ir = _after_pass(text, 8, KnobContext(knobs))
    # In place, only the partial last strip of A is packed (one 6-row strip, zero-padded).
    assert ("memref<1x16x6xf32>" in ir) == (not pack)
    for rows in (1, 6, 7, 13, 24):
        _check(text, dyn={0: rows}, knobs=knobs)
    for b_pack in (True, False):  # with B in place too: four kernel variants
        _check(text, dyn={0: 17}, knobs={**knobs, f"{site}/pack": b_pack})


@pytest.mark.parametrize("mc", [12, 48])  # several ic blocks / one
def test_b_strips_packed_inline(mc: int) -> None:
    # Each B strip packed right before the first A block uses it; with one ic block the
    # panel is a single strip reused. Unrolled k loop and prefetches on top.
    text = _matmul("?", "40", "45", "bias")
    site = _site(text)
    knobs = {
        f"{site}/inline-pack-b": True, f"{site}/mr": 6, f"{site}/nr": 16, f"{site}/kc": 16,
        f"{site}/mc": mc, f"{site}/nc": 32, f"{site}/k-unroll": 4, f"{site}/prefetch": 8,
        f"{site}/prefetch-c": True,
    }
    ir = _after_pass(text, 8, KnobContext(knobs))
    assert "affine.prefetch" in ir
    for rows in (1, 7, 13, 37):
        _check(text, dyn={0: rows}, knobs=knobs)
    one = _matmul("40", "40", "45", "bias")
    site1 = _site(one)
    knobs1 = {k.replace(site, site1): v for k, v in knobs.items()}
    assert "memref<1x16x16xf32>" in _after_pass(one, 8, KnobContext(knobs1)) or mc < 40
    _check(one, knobs=knobs1)


def test_dynamic_dims_and_empty_k() -> None:
    text = _matmul("?", "?", "?", "bias,relu")
    for m, k, n in [(7, 13, 21), (1, 1, 1), (20, 0, 9), (0, 5, 3)]:
        compiled = mlc.compile(text, pipeline=_pipeline(8), opt_level=1)
        rng = np.random.default_rng(m * 100 + k)
        a = rng.standard_normal((m, k)).astype(np.float32)
        b = rng.standard_normal((k, n)).astype(np.float32)
        bias = rng.standard_normal(n).astype(np.float32)
        np.testing.assert_allclose(
            compiled.main(a, b, bias), np.maximum(a @ b + bias, 0), rtol=1e-4, atol=1e-4
        )


@pytest.mark.parametrize("epilogue", ["bias", "bias,relu", "residual", "bias,relu,residual"])
def test_epilogues(epilogue: str) -> None:
    text = _matmul("?", "45", "37", epilogue)
    assert "tensor.generic" not in _after_pass(text)
    site = _site(text)
    # Several kc blocks: the epilogue must wait for the last one.
    _check(text, dyn={0: 23}, knobs={f"{site}/kc": 16})


def test_batched_and_broadcast_batch_matmul() -> None:
    text = """
func.func @main(%a: tensor<3x?x20xf32>, %b: tensor<3x20x18xf32>, %c: tensor<20x18xf32>) -> tensor<3x?x18xf32> {
  %0 = graph.matmul %a, %b : (tensor<3x?x20xf32>, tensor<3x20x18xf32>) -> tensor<3x?x18xf32>
  %1 = graph.matmul %a, %c : (tensor<3x?x20xf32>, tensor<20x18xf32>) -> tensor<3x?x18xf32>
  %2 = graph.add %0, %1 : (tensor<3x?x18xf32>, tensor<3x?x18xf32>) -> tensor<3x?x18xf32>
  return %2 : tensor<3x?x18xf32>
}
"""  # noqa: E501
    assert "vector.fma" in _after_pass(text)
    _check(text, dyn={1: 11})


def test_transposed_operands() -> None:
    text = """
func.func @main(%a: tensor<20x13xf32>, %b: tensor<17x20xf32>) -> tensor<13x17xf32> {
  %at = graph.transpose %a {perm = array<i64: 1, 0>} : (tensor<20x13xf32>) -> tensor<13x20xf32>
  %bt = graph.transpose %b {perm = array<i64: 1, 0>} : (tensor<17x20xf32>) -> tensor<20x17xf32>
  %0 = graph.matmul %at, %bt : (tensor<13x20xf32>, tensor<20x17xf32>) -> tensor<13x17xf32>
  return %0 : tensor<13x17xf32>
}
"""
    _check(text)


def test_conv2d_implicit_gemm() -> None:
    text = """
func.func @main(%x: tensor<?x3x12x12xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>) -> tensor<?x8x12x12xf32> {
  %c = graph.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<?x3x12x12xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<?x8x12x12xf32>
  %r = graph.relu %c : tensor<?x8x12x12xf32>
  return %r : tensor<?x8x12x12xf32>
}
"""  # noqa: E501
    assert "vector.fma" in _after_pass(text)
    _check(text, dyn={0: 2})


def _random_config(rng: random.Random, site: str, vl: int, batch: bool) -> dict:
    mr, nr = rng.choice(legal_tiles(vl))
    return {
        f"{site}/mr": mr,
        f"{site}/nr": nr,
        f"{site}/kc": rng.choice([8, 16, 24, 64]),
        f"{site}/mc": mr * rng.randint(1, 4),
        f"{site}/nc": nr * rng.randint(1, 3),
        f"{site}/order": rng.choice(ORDERS),
        f"{site}/parallel": rng.choice(["none", "jc", "ic"] + (["batch"] if batch else [])),
        f"{site}/pack": rng.choice([True, False]),
        f"{site}/pack-a": rng.choice([True, False]),
        f"{site}/inline-pack-b": rng.choice([True, False]),
        f"{site}/k-unroll": rng.choice([1, 2, 4, 8]),
        f"{site}/prefetch": rng.choice([0, 4, 8, 16, 32]),
        f"{site}/prefetch-c": rng.choice([True, False]),
    }


@pytest.mark.parametrize("seed", range(6))
def test_random_legal_knobs(seed: int) -> None:
    rng = random.Random(seed)
    vl = rng.choice([8, 16])
    text = _matmul("?", str(rng.randint(1, 70)), str(rng.randint(8, 70)), "bias,relu")
    site = _site(text, vl)
    knobs = _random_config(rng, site, vl, batch=False)
    one = _check(text, dyn={0: rng.randint(1, 40)}, knobs=knobs, vl=vl, threads=1, seed=seed)
    two = _check(text, dyn={0: one.shape[0]}, knobs=knobs, vl=vl, threads=2, seed=seed)
    assert np.array_equal(one, two)


@pytest.mark.parametrize("parallel", ["jc", "ic", "batch"])
def test_threads_do_not_change_the_bits(parallel: str) -> None:
    text = """
func.func @main(%a: tensor<4x50x40xf32>, %b: tensor<4x40x70xf32>) -> tensor<4x50x70xf32> {
  %0 = graph.matmul %a, %b : (tensor<4x50x40xf32>, tensor<4x40x70xf32>) -> tensor<4x50x70xf32>
  return %0 : tensor<4x50x70xf32>
}
"""
    site = _site(text)
    knobs = {
        f"{site}/parallel": parallel,
        f"{site}/mr": 6,
        f"{site}/nr": 8,
        f"{site}/mc": 12,
        f"{site}/nc": 16,
        f"{site}/kc": 16,
    }
    results = [_check(text, knobs=knobs, threads=t) for t in (1, 2, 3)]
    assert np.array_equal(results[0], results[1]) and np.array_equal(results[0], results[2])


@pytest.mark.parametrize("shape", [(1, 784, 512), (100, 70, 300), (37, 512, 10), (300, 100, 1)])
def test_lower_to_cpu_default_knobs(shape: tuple[int, int, int]) -> None:
    """Through the whole lower-to-cpu (with the affine passes after this one), 1 and 2 threads;
    the skinny shapes take the unpacked kernels (a dynamic M of 1 the run-time small-M one)."""
    m, k, n = shape
    text = _matmul("?", str(k), str(n), "bias,relu")
    rng = np.random.default_rng(m)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    bias = rng.standard_normal(n).astype(np.float32)
    expected = np.maximum(a @ b + bias, 0)
    got = [mlc.compile(text, threads=t, opt_level=1).main(a, b, bias) for t in (1, 2)]
    np.testing.assert_allclose(got[0], expected, rtol=1e-4, atol=1e-3)
    assert np.array_equal(got[0], got[1])


def test_large_products_default_schedule() -> None:
    """Products of at least LARGE_MADDS multiply-adds default to the k loop unrolled (4 times
    when static, twice with a dynamic size), C prefetched and an A block of a quarter of L2
    (at least LARGE_MIN_STRIPS strips); smaller ones keep k-unroll 1, no C prefetch and the
    half-L2 block."""
    from mlc.lowering.microkernel import LARGE_MADDS, LARGE_MIN_STRIPS, cache_sizes

    def chosen(m: int, k: int, n: int) -> tuple[dict, str]:
        ctx = KnobContext()
        ir = _after_pass(_matmul(str(m), str(k), str(n)), 8, ctx)
        values = {r.name: r.value for r in ctx.space() if r.pass_name == "contraction-microkernel"}
        return values, ir

    def chosen_dynamic(m: str, k: int, n: int) -> dict:
        ctx = KnobContext()
        _after_pass(_matmul(m, str(k), str(n)), 8, ctx)
        return {r.name: r.value for r in ctx.space() if r.pass_name == "contraction-microkernel"}

    l2 = cache_sizes().l2
    big, ir = chosen(512, 512, 512)
    assert 512**3 >= LARGE_MADDS
    assert big["k-unroll"] == 4 and big["prefetch-c"] is True  # (static: 4; dynamic: 2)
    assert chosen_dynamic("?", 1024, 1024)["k-unroll"] == 2
    mr, kc = big["mr"], big["kc"]
    assert big["mc"] == min(max((l2 // 4) // (kc * 4) // mr * mr, LARGE_MIN_STRIPS * mr, mr), 516)
    assert "affine.prefetch" in ir
    # Four k steps per iteration of the kernel loop: 4 x mr x nr/vl FMAs in one loop body.
    fmas_per_step = mr * big["nr"] // 8
    bodies = [b for b in ir.split("affine.for") if b.count("vector.fma") >= 4 * fmas_per_step]
    assert bodies
    small, ir = chosen(256, 256, 256)
    assert 256**3 < LARGE_MADDS
    assert small["prefetch-c"] is False
    assert "affine.prefetch" not in ir
    mr, kc = small["mr"], small["kc"]
    assert small["mc"] == min(max((l2 // 2) // (kc * 4) // mr * mr, mr), 258)


def test_static_products_unrolled() -> None:
    """Static products of at least UNROLL_STATIC_MADDS multiply-adds get k-unroll 4 (without
    the rest of the large-product schedule); smaller ones and dynamic sizes below LARGE_MADDS
    keep 1 (the unrolled loop's LLVM time)."""
    from mlc.lowering.microkernel import LARGE_MADDS, UNROLL_STATIC_MADDS

    def chosen(m: str, k: int, n: int) -> dict:
        ctx = KnobContext()
        _after_pass(_matmul(m, str(k), str(n)), 8, ctx)
        return {r.name: r.value for r in ctx.space() if r.pass_name == "contraction-microkernel"}

    assert 256**3 >= UNROLL_STATIC_MADDS and 64 * 784 * 512 >= UNROLL_STATIC_MADDS
    for m, k, n in ((256, 256, 256), (64, 784, 512)):
        got = chosen(str(m), k, n)
        assert got["k-unroll"] == 4 and got["prefetch-c"] is False
    assert 128**3 < UNROLL_STATIC_MADDS
    assert chosen("128", 128, 128)["k-unroll"] == 1
    # The MLP's first layer: a dynamic batch, planned for size-hint rows (256 x 784 x 512).
    assert 256 * 784 * 512 < LARGE_MADDS
    assert chosen("?", 784, 512)["k-unroll"] == 1


@pytest.mark.parametrize(
    "shape", [(520, 514, 530), (512, 1023, 512), (260, 1100, 522), (302, 1024, 520)]
)
def test_large_products_numerics(shape: tuple[int, int, int]) -> None:
    """The large-product defaults through lower-to-cpu (an even K unrolled with edge tiles in M
    and N, an odd K where the unroll falls back to 1, K over two kc blocks with C read back
    and prefetched, and A packed (rows 4 KiB apart) once for two column blocks on one thread),
    against NumPy, and the same bits on 1 and 2 threads."""
    m, k, n = shape
    text = _matmul(str(m), str(k), str(n), "bias,relu")
    rng = np.random.default_rng(k)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    bias = rng.standard_normal(n).astype(np.float32)
    expected = np.maximum(a.astype(np.float64) @ b + bias, 0)
    got = [mlc.compile(text, threads=t, opt_level=1).main(a, b, bias) for t in (1, 2)]
    np.testing.assert_allclose(got[0], expected, rtol=1e-4, atol=1e-3)
    assert np.array_equal(got[0], got[1])


def _numpy_check(text: str, knobs: dict, threads: int = 1) -> np.ndarray:
    """Compiled with `knobs` against NumPy in float64 (inputs as `_inputs` makes them)."""
    module = mlc.parse(text)
    args = _inputs(module, {}, 0)
    got = mlc.compile(text, pipeline=_pipeline(8), knobs=knobs, threads=threads).main(*args)
    want = args[0].astype(np.float64) @ args[1]
    if len(args) > 2:  # bias, relu
        want = np.maximum(want + args[2], 0)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)
    return got  # type: ignore[no-any-return]


@pytest.mark.parametrize("order", ["jc-pc-ic", "jc-ic-pc"])
def test_a_packed_once_for_all_column_blocks(order: str) -> None:
    """pack-a-once: the first column block packs every A block (a buffer with a slot per k
    block and row block) and the later column blocks reuse them; edge tiles in M and N, three
    k blocks (C read back), the epilogues on the last."""
    text = _matmul("262", "270", "250", "bias,relu")  # 17.7 M multiply-adds: asked
    site = _site(text)
    knobs = {
        f"{site}/pack-a-once": True, f"{site}/pack-a": True, f"{site}/mr": 6, f"{site}/nr": 8,
        f"{site}/kc": 128, f"{site}/mc": 120, f"{site}/nc": 96, f"{site}/order": order,
        f"{site}/parallel": "none", f"{site}/kernel": "blis",
    }
    once = "memref<3x3x20x128x6xf32>"  # 3 k blocks x 3 row blocks x 20 strips of 128 x 6
    assert once in _after_pass(text, 8, KnobContext(knobs))
    assert once not in _after_pass(text, 8, KnobContext({**knobs, f"{site}/pack-a-once": False}))
    one = _numpy_check(text, knobs)
    # Not applied when another loop is outermost, with a split loop or with A in place.
    for other in (
        {f"{site}/order": "pc-jc-ic"}, {f"{site}/parallel": "jc"}, {f"{site}/pack-a": False}
    ):
        config = {**knobs, **other}
        assert once not in _after_pass(text, 8, KnobContext(config))
        assert np.array_equal(_numpy_check(text, config, threads=2), one)


@pytest.mark.parametrize("batch", [False, True])
def test_a_packed_shared_before_the_split_loop(batch: bool) -> None:
    """pack-a-shared: with jc split, a parallel loop over the row blocks packs every A block
    (a slot per k block and row block, no slot per thread) before the split loop, whose
    threads read them; edge tiles in M and N, three k blocks, the epilogues on the last; the
    same bits as packing per thread, on 1 and 2 threads. Not applied without the jc split."""
    if batch:
        a, b, c = "tensor<2x262x270xf32>", "tensor<2x270x250xf32>", "tensor<2x262x250xf32>"
        text = (
            f"func.func @main(%a: {a}, %b: {b}) -> {c} {{\n"
            f"  %0 = graph.matmul %a, %b : ({a}, {b}) -> {c}\n  return %0 : {c}\n}}\n"
        )
    else:
        text = _matmul("262", "270", "250", "bias,relu")
    site = _site(text)
    knobs = {
        f"{site}/pack-a-shared": True, f"{site}/pack-a": True, f"{site}/mr": 6, f"{site}/nr": 8,
        f"{site}/kc": 128, f"{site}/mc": 120, f"{site}/nc": 96, f"{site}/order": "jc-pc-ic",
        f"{site}/parallel": "jc", f"{site}/kernel": "blis",
    }
    shared = "memref<3x3x20x128x6xf32>"  # 3 k blocks x 3 row blocks x 20 strips of 128 x 6
    ir = _after_pass(text, 8, KnobContext(knobs))
    assert shared in ir and ir.count("affine.parallel") == 2
    per_thread = {**knobs, f"{site}/pack-a-shared": False}
    assert shared not in _after_pass(text, 8, KnobContext(per_thread))
    for threads in (1, 2):
        want = _numpy_check(text, per_thread, threads=threads)
        assert np.array_equal(_numpy_check(text, knobs, threads=threads), want)
    for other in ({f"{site}/parallel": "none"}, {f"{site}/order": "pc-jc-ic"}):
        assert shared not in _after_pass(text, 8, KnobContext({**knobs, **other}))


def test_a_packed_once_batched_and_default() -> None:
    """With batch loops the buffer is refilled per batch iteration. The knob is asked for
    static products of at least UNROLL_STATIC_MADDS multiply-adds; its default is on for
    large ones whose A fits the L3 share (the emitter applies it to the serial nest only)."""
    from mlc.lowering.microkernel import LARGE_MADDS, UNROLL_STATIC_MADDS, cache_sizes

    a, b, c = "tensor<3x100x300xf32>", "tensor<3x300x200xf32>", "tensor<3x100x200xf32>"
    text = (
        f"func.func @main(%a: {a}, %b: {b}) -> {c} {{\n"
        f"  %0 = graph.matmul %a, %b : ({a}, {b}) -> {c}\n  return %0 : {c}\n}}\n"
    )
    assert 3 * 100 * 300 * 200 >= UNROLL_STATIC_MADDS
    site = _site(text)
    knobs = {
        f"{site}/pack-a-once": True, f"{site}/pack-a": True, f"{site}/kc": 128,
        f"{site}/mc": 48, f"{site}/nc": 64, f"{site}/parallel": "none", f"{site}/mr": 6,
        f"{site}/nr": 8, f"{site}/kernel": "blis",
    }
    assert "memref<3x3x8x128x6xf32>" in _after_pass(text, 8, KnobContext(knobs))
    module = mlc.parse(text)
    x, y = _inputs(module, {}, 0)
    got = mlc.compile(text, pipeline=_pipeline(8), knobs=knobs, threads=1).main(x, y)
    np.testing.assert_allclose(got, x.astype(np.float64) @ y, rtol=1e-4, atol=1e-3)

    def chosen(m: str, k: int, n: int) -> bool | None:
        ctx = KnobContext()
        _after_pass(_matmul(m, str(k), str(n)), 8, ctx)
        got = [r.value for r in ctx.space() if r.name == "pack-a-once"]
        return bool(got[0]) if got else None

    assert 1024**3 >= LARGE_MADDS and 256**3 < LARGE_MADDS
    assert chosen("1024", 1024, 1024) == (1024 * 1024 * 4 <= cache_sizes().l3)
    assert chosen("256", 256, 256) is False
    assert chosen("128", 128, 128) is None and chosen("?", 1024, 1024) is None


def _accumulator_counts(ir: str) -> set[int]:
    """The numbers of vector<8xf32> iter_args of the k loops (micro-kernels) in `ir`."""
    import re

    return {
        m.group(1).count("vector<8xf32>")
        for m in re.finditer(r"iter_args\([^)]*\) -> \(([^)]*)\)", ir)
    }


@pytest.mark.parametrize("pack_a", [True, False])
@pytest.mark.parametrize("pack_b", [True, False])
def test_edge_m_kernel(pack_a: bool, pack_b: bool) -> None:
    """edge-m-kernel: with a static M not a multiple of mr the last row strip runs a kernel of
    M mod mr rows (262 = 43 x 6 + 4: a 4 x 16 kernel beside the 6 x 16 one), in the row block
    holding it; A packed or in place, B packed or in place, three k blocks, the epilogues; the
    same bits on 1 and 2 threads."""
    text = _matmul("262", "270", "250", "bias,relu")
    site = _site(text)
    knobs = {
        f"{site}/edge-m-kernel": True, f"{site}/pack-a": pack_a, f"{site}/pack": pack_b,
        f"{site}/mr": 6, f"{site}/nr": 16, f"{site}/kc": 128, f"{site}/mc": 120,
        f"{site}/nc": 96, f"{site}/kernel": "blis", f"{site}/k-unroll": 1,
    }
    on = _accumulator_counts(_after_pass(text, 8, KnobContext(knobs)))
    off = _accumulator_counts(
        _after_pass(text, 8, KnobContext({**knobs, f"{site}/edge-m-kernel": False}))
    )
    assert on == {12, 8} and off == {12}
    one = _numpy_check(text, knobs)
    two = _numpy_check(text, {**knobs, f"{site}/parallel": "ic"}, threads=2)
    assert np.array_equal(one, two)
    assert np.array_equal(one, _numpy_check(text, {**knobs, f"{site}/parallel": "jc"}, 2))


def test_edge_m_kernel_default() -> None:
    """On by default where asked (static products of at least UNROLL_STATIC_MADDS
    multiply-adds); not asked for a dynamic M or a small product."""

    def chosen(m: str, k: int, n: int) -> bool | None:
        ctx = KnobContext()
        _after_pass(_matmul(m, str(k), str(n)), 8, ctx)
        got = [r.value for r in ctx.space() if r.name == "edge-m-kernel"]
        return bool(got[0]) if got else None

    assert chosen("64", 784, 512) is True and chosen("256", 256, 256) is True
    assert chosen("?", 784, 512) is None and chosen("64", 64, 64) is None
