"""contraction-microkernel with threads: the parallel default's cost model (serial when the work
does not pay for the pool, the loop it splits), every parallel schedule equal to NumPy on odd
shapes, and the runtime's malloc settings that keep scratch buffers from being page-faulted in
on every call."""

from __future__ import annotations

import ctypes
import os
import resource
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mlc
from mlc.knobs import KnobContext
from mlc.runtime import calling

_HERE = Path(__file__).resolve().parent


def _matmul(m: int, k: int, n: int) -> str:
    a, b, c = f"tensor<{m}x{k}xf32>", f"tensor<{k}x{n}xf32>", f"tensor<{m}x{n}xf32>"
    return (
        f"func.func @main(%a: {a}, %b: {b}) -> {c} {{\n"
        f"  %0 = graph.matmul %a, %b : ({a}, {b}) -> {c}\n"
        f"  return %0 : {c}\n}}\n"
    )


def _operands(m: int, k: int, n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    return a, b


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc malloc settings")
def test_scratch_buffers_are_not_faulted_in_every_call(monkeypatch: pytest.MonkeyPatch) -> None:
    # 512^3 at 2 threads: 3 MiB of packing buffers and a 1 MiB result per call, which glibc's
    # dynamic trim threshold returned to the OS after every call (992 faults per call).
    monkeypatch.setenv("MLC_NUM_THREADS", "2")
    assert calling.tune_malloc()
    a, b = _operands(512, 512, 512)
    fn = mlc.compile(_matmul(512, 512, 512), threads=2).main
    for _ in range(3):
        fn(a, b)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(10):
        got = fn(a, b)
        del got
    faults = (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / 10
    assert faults < 64, f"{faults} page faults per call"
    np.testing.assert_allclose(fn(a, b), a @ b, rtol=1e-4, atol=1e-3)


def _workspace_fns() -> tuple[Any, Any]:
    from mlc.runtime import engine, workspace

    engine.host_target()  # registers the workspace symbols
    sym = workspace.symbols()
    acquire = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_int64)(sym[workspace.ACQUIRE])
    release = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(sym[workspace.RELEASE])
    return acquire, release


def test_workspace_is_a_stack_kept_per_thread() -> None:
    acquire, release = _workspace_fns()
    sizes = (1000, 50_000, 100)

    def one_call() -> list[int]:
        ptrs = [acquire(n) for n in sizes]
        for p, n in zip(ptrs, sizes):
            ctypes.memset(p, 7, n)  # usable, and not overlapping (checked below)
        for p in reversed(ptrs):
            release(p)
        return ptrs

    def calls() -> list[list[int]]:
        return [one_call() for _ in range(3)]

    here = calls()
    for ptrs in here:
        assert all(p % 64 == 0 for p in ptrs)
    # From the second call on, the same arena: consecutive blocks, same addresses every call.
    assert here[1] == here[2]
    assert [here[1][1] - here[1][0], here[1][2] - here[1][1]] == [1024, 50_048]
    # Another thread has its own arena (freed when that thread ends).
    there: list[list[list[int]]] = []
    worker = threading.Thread(target=lambda: there.append(calls()))
    worker.start()
    worker.join()
    assert there[0][1] == there[0][2] and there[0][1][0] != here[1][0]
    # A block asked for while the arena is in use and full comes from the heap, and the
    # arena grows to the high-water mark once it is empty again.
    def nested() -> tuple[int, int]:
        outer = acquire(8)
        big = acquire(10 << 20)
        ctypes.memset(big, 1, 10 << 20)
        release(big)
        release(outer)
        return outer, big

    outer, big = nested()
    assert big - outer != 64  # the heap
    outer, big = nested()
    assert big - outer == 64  # both in the grown arena
    assert one_call() == one_call()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="getrusage page faults")
def test_packing_buffers_reuse_the_workspace_without_malloc_tuning() -> None:
    # The packing buffers no longer depend on glibc's thresholds (MLC_TUNE_MALLOC=0): a call
    # at 2 threads faults no page in and spends no system time returning memory.
    code = f"""
import resource, sys
sys.path.insert(0, {str(_HERE)!r})
import numpy as np, mlc
from test_microkernel_parallel import _matmul, _operands
a, b = _operands(512, 512, 512)
fn = mlc.compile(_matmul(512, 512, 512), threads=2).main
out = np.empty((512, 512), np.float32)
for _ in range(3):
    fn(a, b, out=out)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(10):
    fn(a, b, out=out)
print((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / 10)
np.testing.assert_allclose(out, a @ b, rtol=1e-4, atol=1e-3)
"""
    env = dict(os.environ, MLC_TUNE_MALLOC="0", MLC_NUM_THREADS="2")
    proc = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    faults = float(proc.stdout.split()[-1])
    assert faults < 16, f"{faults} page faults per call"


def _defaults(text: str, threads: int) -> dict[str, object]:
    ctx = KnobContext()
    module = mlc.parse(text)
    mlc.run_pipeline(
        module,
        "builtin.module(graph-shape-inference,convert-graph-to-tensor,bufferize,"
        f"func.func(contraction-microkernel{{vector-width=16 threads={threads}}}))",
        ctx,
    )
    return {r.name: r.value for r in ctx.space() if r.pass_name == "contraction-microkernel"}


def _batched(b: int, m: int, k: int, n: int) -> str:
    a, bb, c = f"tensor<{b}x{m}x{k}xf32>", f"tensor<{b}x{k}x{n}xf32>", f"tensor<{b}x{m}x{n}xf32>"
    return (
        f"func.func @main(%a: {a}, %b: {bb}) -> {c} {{\n"
        f"  %0 = graph.matmul %a, %b : ({a}, {bb}) -> {c}\n"
        f"  return %0 : {c}\n}}\n"
    )


@pytest.mark.parametrize(
    ("text", "kernel", "parallel"),
    [
        (_matmul(48, 48, 48), "axpy-n", "none"),  # a few us: a hand-off would not pay
        (_matmul(96, 96, 96), "blis", "ic"),  # ~20 us: the native pool's 1-2 us hand-off pays
        (_matmul(512, 512, 512), "blis", "jc"),
        (_matmul(4000, 64, 64), "blis", "ic"),  # one strip of N per thread would not do
        (_matmul(512, 100, 1), "dot-m", "none"),  # memory-bound, ~5 us
        (_matmul(2048, 100, 1), "dot-m", "ic"),  # ~16 us: 12-14 us on 2 threads
        (_matmul(8192, 256, 1), "dot-m", "ic"),
        (_matmul(1, 128, 128), "axpy-n", "none"),
        (_matmul(1, 784, 512), "axpy-n", "jc"),
        (_matmul(1, 4096, 4096), "axpy-n", "jc"),
        (_batched(8, 64, 64, 64), "axpy-n", "batch"),
        (_batched(16, 128, 64, 128), "blis", "batch"),
    ],
)
def test_parallel_default_by_cost(text: str, kernel: str, parallel: str) -> None:
    chosen = _defaults(text, 2)
    assert (chosen["kernel"], chosen["parallel"]) == (kernel, parallel)
    # Planned for one thread, nothing is split.
    assert _defaults(text, 1)["parallel"] == "none"


def test_split_dim_block_covers_a_share_per_thread() -> None:
    chosen = _defaults(_matmul(512, 512, 512), 2)
    assert chosen["parallel"] == "jc" and chosen["nc"] == 256
    chosen = _defaults(_matmul(4000, 64, 64), 2)
    assert chosen["parallel"] == "ic" and chosen["mc"] <= 2000


def test_b_panel_of_a_single_row_block_is_not_capped_by_l2() -> None:
    """One row block (M at most mc): the B panel serves one pass of the strip loops, so nc is
    all of N (under the half-L3 cap), not the L2-sized panels in two halves of 512^3's."""
    from mlc.lowering.microkernel import PANEL_L2S, cache_sizes

    caches = cache_sizes()
    one = _defaults(_matmul(64, 784, 512), 1)
    assert one["mc"] >= 64
    if 784 * 512 * 4 <= caches.l3 // 2:
        assert one["nc"] == 512
    many = _defaults(_matmul(1024, 1024, 1024), 1)
    assert many["mc"] < 1024 and many["nc"] < 1024
    assert many["nc"] * many["kc"] * 4 <= PANEL_L2S * caches.l2
    # A split jc loop still gives each thread its share.
    assert _defaults(_matmul(64, 784, 512), 2)["nc"] == 256


@pytest.mark.parametrize("threads", [2, 3])
@pytest.mark.parametrize(
    "shape", [(768, 768, 768), (1280, 1280, 1280), (1536, 1536, 1536), (4000, 64, 64), (2000, 96, 96)]
)
def test_split_loop_blocks_come_in_a_multiple_of_the_threads(
    shape: tuple[int, int, int], threads: int
) -> None:
    """The pool hands each thread a contiguous run of the split loop's blocks: 3 blocks on 2
    threads would leave one thread twice the work of the other."""
    m, k, n = shape
    chosen = _defaults(_matmul(m, k, n), threads)
    par = chosen["parallel"]
    assert par in ("jc", "ic")
    size, block = (n, chosen["nc"]) if par == "jc" else (m, chosen["mc"])
    assert -(-size // block) % threads == 0, (par, block)


@pytest.mark.parametrize(
    ("shape", "calls"),
    [((48, 48, 48), 0), ((512, 100, 1), 0), ((2048, 100, 1), 1), ((300, 301, 299), 1)],
)
def test_serial_nests_get_no_pool_call(
    shape: tuple[int, int, int], calls: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # affine-parallelize, later in lower-to-cpu, leaves the nests marked mlc.serial alone.
    monkeypatch.setenv("MLC_NUM_THREADS", "2")
    compiled = mlc.compile(_matmul(*shape), threads=2, opt_level=1)
    assert compiled.llvm_ir.count("call void @mlc_parallel_for") == calls
    a, b = _operands(*shape)
    np.testing.assert_allclose(compiled.main(a, b), a @ b, rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize(
    ("text", "shapes"),
    [
        (_matmul(4000, 64, 67), [(4000, 64), (64, 67)]),  # ic, edge strips in N
        (_matmul(299, 301, 293), [(299, 301), (301, 293)]),  # jc, edges in M and N
        (_batched(9, 127, 65, 131), [(9, 127, 65), (9, 65, 131)]),  # batch, odd count
    ],
)
def test_parallel_defaults_match_numpy_on_odd_shapes(
    text: str, shapes: list[tuple[int, ...]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MLC_NUM_THREADS", "2")
    rng = np.random.default_rng(1)
    a, b = (rng.standard_normal(s).astype(np.float32) for s in shapes)
    got = [mlc.compile(text, threads=t, opt_level=1).main(a, b) for t in (1, 2)]
    np.testing.assert_allclose(got[1], a @ b, rtol=1e-4, atol=1e-3)
    # Planned for 1 thread, the nest is serial; the split changes no sum's order.
    assert np.array_equal(got[0], got[1])


def test_compile_plans_for_its_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    # mlc.compile's threads, not MLC_NUM_THREADS or the cores, set what the pass plans for.
    monkeypatch.setenv("MLC_NUM_THREADS", "2")
    text = _matmul(512, 512, 512)
    serial = mlc.compile(text, threads=1, opt_level=1)
    split = mlc.compile(text, threads=2, opt_level=1)
    assert "@mlc_parallel_for" not in serial.llvm_ir
    assert "call void @mlc_parallel_for" in split.llvm_ir
    assert mlc.compile(text, opt_level=1).llvm_ir == split.llvm_ir  # MLC_NUM_THREADS=2
    a, b = _operands(512, 512, 512)
    np.testing.assert_array_equal(serial.main(a, b), split.main(a, b))


@pytest.mark.parametrize(
    ("k", "n", "split"), [(128, 64, False), (784, 512, True), (4096, 4096, True)]
)
def test_small_m_variant_split_by_cost_at_one_row(k: int, n: int, split: bool) -> None:
    a, b, c = f"tensor<?x{k}xf32>", f"tensor<{k}x{n}xf32>", f"tensor<?x{n}xf32>"
    text = (
        f"func.func @main(%a: {a}, %b: {b}) -> {c} {{\n"
        f"  %0 = graph.matmul %a, %b : ({a}, {b}) -> {c}\n"
        f"  return %0 : {c}\n}}\n"
    )
    chosen = _defaults(text, 2)
    assert chosen["small-m"] > 0 and chosen["small-parallel"] is split
    assert _defaults(text, 1)["small-parallel"] is False


def test_axpy_k_blocks_when_the_weights_do_not_stay_in_l2() -> None:
    from mlc.lowering.microkernel import KBLOCK_STREAMED, cache_sizes

    # One 784 x 512 weight (1.6 MB) stays in a 2 MiB L2 between calls: no k blocks. Two
    # layers' weights together exceed L2 (as in examples/mlp.mlir): blocks that read whole
    # rows of the streamed operand.
    one = _defaults(_matmul(1, 784, 512), 1)
    w = 784 * 512 * 4
    assert one["kernel"] == "axpy-n"
    assert one["kblock"] == (0 if w <= cache_sizes().l2 else KBLOCK_STREAMED)
    x, w1, w2 = "tensor<1x784xf32>", "tensor<784x1024xf32>", "tensor<1024x512xf32>"
    h, y = "tensor<1x1024xf32>", "tensor<1x512xf32>"
    two = (
        f"func.func @main(%x: {x}, %w1: {w1}, %w2: {w2}) -> {y} {{\n"
        f"  %0 = graph.matmul %x, %w1 : ({x}, {w1}) -> {h}\n"
        f"  %1 = graph.matmul %0, %w2 : ({h}, {w2}) -> {y}\n"
        f"  return %1 : {y}\n}}\n"
    )
    ctx = KnobContext()
    module = mlc.parse(two)
    mlc.run_pipeline(
        module,
        "builtin.module(graph-shape-inference,convert-graph-to-tensor,bufferize,"
        "func.func(contraction-microkernel{vector-width=16 threads=1}))",
        ctx,
    )
    blocks = [r.value for r in ctx.space() if r.name == "kblock"]
    assert blocks == [KBLOCK_STREAMED, KBLOCK_STREAMED]
    rng = np.random.default_rng(3)
    args = [rng.standard_normal(s).astype(np.float32) for s in ((1, 784), (784, 1024), (1024, 512))]
    got = mlc.compile(two, threads=1, opt_level=1).main(*args)
    np.testing.assert_allclose(got, args[0] @ args[1] @ args[2], rtol=1e-4, atol=1e-3)
