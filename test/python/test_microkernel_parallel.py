"""contraction-microkernel with threads: the parallel default's cost model (serial when the work
does not pay for the pool, the loop it splits), every parallel schedule equal to NumPy on odd
shapes, and the runtime's malloc settings that keep scratch buffers from being page-faulted in
on every call."""

from __future__ import annotations

import resource
import sys

import numpy as np
import pytest

import mlc
from mlc.runtime import calling


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
