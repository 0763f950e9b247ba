"""Compiled calls with `out=` (the caller's arrays, checked like inputs) and the recycled
result-buffer pool (`mlc.runtime.result_pool`): reuse happens, a buffer is never handed out while
any view of the result it backs is alive, and the memory held stays bounded."""

from __future__ import annotations

import contextlib
import gc
import threading
import tracemalloc
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mlc
from mlc.runtime import BufferPool, result_pool
from mlc.runtime.pool import size_class

# One result, dynamic length: y = (a + b * 2) * c. Tensors of different lengths are not passed
# (the runtime does not check dims that the program relates only through broadcasting).
CHAIN = """
func.func @main(%a: tensor<?xf32>, %b: tensor<?xf32>, %c: tensor<?xf32>) -> tensor<?xf32> {
  %s = graph.constant dense<2.0> : tensor<f32>
  %0 = graph.mul %b, %s : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  %1 = graph.add %a, %0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %2 = graph.mul %1, %c : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %2 : tensor<?xf32>
}
"""

# Two results of different shapes and dtypes.
PAIR = """
func.func @pair(%x: tensor<?x4xf64>, %y: tensor<?x4xf64>) -> (tensor<?x4xf64>, tensor<4xf64>) {
  %0 = graph.sub %x, %y : (tensor<?x4xf64>, tensor<?x4xf64>) -> tensor<?x4xf64>
  %1 = graph.reduce_sum %x {axes = array<i64: 0>} : (tensor<?x4xf64>) -> tensor<4xf64>
  return %0, %1 : tensor<?x4xf64>, tensor<4xf64>
}
"""


@pytest.fixture(scope="module")
def chain() -> object:
    return mlc.compile(CHAIN, threads=1).main


@pytest.fixture(scope="module")
def pair() -> object:
    return mlc.compile(PAIR, threads=1).pair


@contextlib.contextmanager
def serving_all(collect: bool = True) -> Iterator[BufferPool]:
    """The process-wide pool, serving every size, emptied before and after (results in
    reference cycles are collected first unless `collect` is false)."""
    old = result_pool.min_bytes, result_pool.max_bytes
    if collect:
        gc.collect()
    result_pool.clear()
    result_pool.min_bytes = 0
    try:
        yield result_pool
    finally:
        if collect:
            gc.collect()
        result_pool.min_bytes, result_pool.max_bytes = old
        result_pool.clear()


@pytest.fixture
def pool() -> Iterator[BufferPool]:
    with serving_all() as p:
        yield p


def vectors(n: int, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(n).astype(np.float32) for _ in range(3)]


def expect_chain(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    return (a + b * np.float32(2)) * c


def address(a: np.ndarray) -> int:
    return a.__array_interface__["data"][0]


# ---------------------------------------------------------------------------------------------
# out=


def test_out_single_result(chain) -> None:  # type: ignore[no-untyped-def]
    a, b, c = vectors(1000)
    out = np.full(1000, np.nan, np.float32)
    r = chain(a, b, c, out=out)
    assert r is out
    np.testing.assert_allclose(out, expect_chain(a, b, c), rtol=1e-6)
    r = chain(b, a, c, out=(out,))  # a 1-tuple, as NumPy's ufuncs take it
    assert r is out
    np.testing.assert_allclose(out, expect_chain(b, a, c), rtol=1e-6)


def test_out_plain_array_skips_the_general_check(chain) -> None:  # type: ignore[no-untyped-def]
    """One result into an ndarray that owns its data: the caller's inline check accepts it
    without `_Outputs` (replaced here by one that fails); anything else still reaches it."""
    a, b, c = vectors(16)
    env = chain.__globals__
    saved = env["_out"]

    def refuse(*args: object) -> None:
        raise AssertionError("general out= check called")

    env["_out"] = refuse
    try:
        out = np.empty(16, np.float32)
        assert chain(a, b, c, out=out) is out
        np.testing.assert_allclose(out, expect_chain(a, b, c), rtol=1e-6)
        for other in (a, np.empty(32, np.float32)[:16], np.empty(16, np.float64)):
            with pytest.raises(AssertionError, match="general out= check"):
                chain(a, b, c, out=other)
    finally:
        env["_out"] = saved


def test_out_rank_zero() -> None:
    f = mlc.compile(
        "func.func @main(%x: tensor<f32>, %y: tensor<?xf32>) -> tensor<f32> {\n"
        "  %0 = graph.reduce_sum %y {axes = array<i64: 0>} : (tensor<?xf32>) -> tensor<f32>\n"
        "  %1 = graph.add %0, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
        "  return %1 : tensor<f32>\n}\n",
        threads=1,
    ).main
    x, y, out = np.array(1.5, np.float32), np.arange(4, dtype=np.float32), np.empty((), np.float32)
    assert f(x, y, out=out) is out and out == 7.5
    with pytest.raises(ValueError, match=r"shares memory with argument 'arg0' \(#1\)"):
        f(x, y, out=x)


def test_out_multiple_results(pair) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal((2, 5, 4))
    d, s = np.empty((5, 4)), np.empty(4)
    r = pair(x, y, out=(d, s))
    assert type(r) is tuple and r[0] is d and r[1] is s
    np.testing.assert_allclose(d, x - y)
    np.testing.assert_allclose(s, x.sum(axis=0))
    # None: that result is allocated as without out=.
    r = pair(x, y, out=[None, s])
    assert r[1] is s and r[0] is not d
    np.testing.assert_allclose(r[0], x - y)


def test_out_subclass_written_and_returned(chain) -> None:  # type: ignore[no-untyped-def]
    class Tagged(np.ndarray):
        pass

    a, b, c = vectors(64)
    out = np.zeros(64, np.float32).view(Tagged)
    assert chain(a, b, c, out=out) is out
    np.testing.assert_allclose(np.asarray(out), expect_chain(a, b, c), rtol=1e-6)


def test_out_empty_arrays(chain) -> None:  # type: ignore[no-untyped-def]
    e = np.empty(0, np.float32)
    out = np.empty(0, np.float32)
    assert chain(e, e, e, out=out) is out


@pytest.mark.parametrize(
    ("make_out", "error", "message"),
    [
        (lambda: np.zeros(8, np.float64), TypeError, r"out \(result 'result0'\) must have dtype "),
        (lambda: np.zeros(7, np.float32), ValueError, r"must have shape \(8,\) .*got \(7,\)"),
        (lambda: np.zeros((8, 1), np.float32), ValueError, r"must have shape \(8,\)"),
        (lambda: np.zeros(16, np.float32)[::2], ValueError, r"out .* must be C-contiguous"),
        (lambda: np.zeros(8, np.float32).view(np.ma.MaskedArray), TypeError, "masked array"),
        (lambda: [0.0] * 8, TypeError, r"has 1 result: out= must be an array or a tuple of 1"),
        (lambda: "abc", TypeError, "out= must be an array .* got str"),
        (lambda: (np.zeros(8, np.float32),) * 2, TypeError, "got a tuple of 2"),
        (lambda: (None,) and (5,), TypeError, "out .* must be a writeable .* got int"),
        (lambda: np.zeros(9, np.uint8)[1:].view(np.float32)[:2], ValueError, "shape"),
    ],
)
def test_out_rejected(chain, make_out, error, message) -> None:  # type: ignore[no-untyped-def]
    a, b, c = vectors(8)
    with pytest.raises(error, match=message):
        chain(a, b, c, out=make_out())


def test_out_misaligned_and_read_only(chain) -> None:  # type: ignore[no-untyped-def]
    a, b, c = vectors(8)
    misaligned = np.zeros(33, np.uint8)[1:].view(np.float32)
    assert not misaligned.flags.aligned
    with pytest.raises(ValueError, match="must be aligned to its element size"):
        chain(a, b, c, out=misaligned)
    frozen = np.zeros(8, np.float32)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match=r"main\(\): out \(result 'result0'\) must be writeable"):
        chain(a, b, c, out=frozen)
    assert not frozen.any()


def test_out_overlap_rejected(chain, pair) -> None:  # type: ignore[no-untyped-def]
    a, b, c = vectors(8)
    keep = a.copy()
    with pytest.raises(ValueError, match=r"out .* shares memory with argument 'arg0' \(#1\)"):
        chain(a, b, c, out=a)
    big = np.zeros(20, np.float32)
    big[2:10] = b
    with pytest.raises(ValueError, match="shares memory with argument 'arg1' \\(#2\\)"):
        chain(a, big[2:10], c, out=big[6:14])  # partial overlap
    np.testing.assert_array_equal(a, keep)
    # Adjacent but disjoint is fine.
    r = chain(a, big[2:10], c, out=big[10:18])
    np.testing.assert_allclose(r, expect_chain(a, b, c), rtol=1e-6)
    x = np.ones((3, 4))
    both = np.zeros(16)
    with pytest.raises(ValueError, match=r"out\[1\] \(result 'result1'\) shares memory with out"):
        pair(x, x, out=(both[:12].reshape(3, 4), both[8:12]))


def test_out_checked_before_running(pair) -> None:  # type: ignore[no-untyped-def]
    x = np.ones((3, 4))
    d = np.full((3, 4), 7.0)
    with pytest.raises(TypeError, match=r"out\[1\] \(result 'result1'\) must have dtype float64"):
        pair(x, x, out=(d, np.zeros(4, np.float32)))
    assert (d == 7.0).all()  # nothing ran
    with pytest.raises(TypeError, match=r"pair\(\) has 2 results: out= must be a tuple of 2"):
        pair(x, x, out=d)


# ---------------------------------------------------------------------------------------------
# The pool


def test_size_classes() -> None:
    for n in (1, 4095, 4096, 65536, 262145, 300_000, 1 << 22, 40_000_000):
        c = size_class(n)
        assert c >= n and c % 4096 == 0 and (c - n < 4096 or c - n <= c // 16)
    assert size_class(1 << 22) == 1 << 22


def test_pool_reuses_a_dropped_result(chain, pool) -> None:  # type: ignore[no-untyped-def]
    a, b, c = vectors(100_000)
    y = chain(a, b, c)
    assert pool.owns(y) and address(y) % 4096 == 0
    first = address(y)
    del y
    before = pool.info()
    z = chain(a, b, c)
    assert address(z) == first  # the same buffer, recycled
    assert pool.info().hits == before.hits + 1
    np.testing.assert_allclose(z, expect_chain(a, b, c), rtol=1e-6)


@pytest.mark.parametrize(
    "make_view",
    [
        lambda y: y[10:],
        lambda y: y.reshape(100, 500).T,
        lambda y: memoryview(y),
        lambda y: np.frombuffer(y, np.uint8),
        lambda y: y.base,  # the lease itself
    ],
)
def test_pool_never_aliases_a_live_view(chain, pool, make_view) -> None:  # type: ignore[no-untyped-def]
    a, b, c = vectors(50_000)
    y = chain(a, b, c)
    keep = make_view(y)
    start, end = address(y), address(y) + y.nbytes

    def values(k: object) -> np.ndarray:
        if isinstance(k, np.ndarray):
            return k.copy()
        return np.frombuffer(k, np.uint8)[: end - start].copy()  # type: ignore[call-overload]

    snapshot = values(keep)
    del y
    others = [chain(c, b, a) for _ in range(3)]
    for o in others:
        assert address(o) + o.nbytes <= start or address(o) >= end
    np.testing.assert_array_equal(values(keep), snapshot)
    released = pool.info().released
    del keep
    assert pool.info().released == released + 1


def test_pool_views_keep_values(chain, pool) -> None:  # type: ignore[no-untyped-def]
    a, b, c = vectors(40_000)
    want = expect_chain(a, b, c)
    y = chain(a, b, c)
    tail = y[100:]
    block = y.reshape(200, 200)[::2].T
    mv = memoryview(y)
    del y
    junk = [chain(c, c, c) for _ in range(4)]
    np.testing.assert_allclose(tail, want[100:], rtol=1e-6)
    np.testing.assert_allclose(block, want.reshape(200, 200)[::2].T, rtol=1e-6)
    np.testing.assert_allclose(np.frombuffer(mv, np.float32), want, rtol=1e-6)
    released = pool.info().released
    del tail, block
    assert pool.info().released == released  # the memoryview still holds it
    del mv
    assert pool.info().released == released + 1
    del junk


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["call", "drop", "view"]), st.integers(0, 7), st.integers(1, 3)),
        min_size=1,
        max_size=40,
    )
)
def test_pool_random_calls_and_drops(chain, steps) -> None:  # type: ignore[no-untyped-def]
    """Random sequences of calls (lengths from 3 sizes), drops and views: every live result
    and view keeps its values, and no two live results share memory."""
    with serving_all(collect=False) as pool:  # the test makes no cycles
        random_calls_and_drops(chain, pool, steps)


def random_calls_and_drops(chain, pool, steps) -> None:  # type: ignore[no-untyped-def]
    pool.max_bytes = 1 << 20  # small, so eviction happens too
    live: list[tuple[np.ndarray, np.ndarray]] = []  # (array or view, its expected values)
    for kind, pick, size in steps:
        if kind == "call":
            n = 5000 * size
            a, b, c = vectors(n, seed=pick)
            live.append((chain(a, b, c), expect_chain(a, b, c)))
        elif live and kind == "drop":
            live.pop(pick % len(live))
        elif live:
            arr, want = live.pop(pick % len(live))
            live.append((arr[pick:], want[pick:]))  # only the view survives
        for arr, want in live:
            np.testing.assert_array_equal(arr, want)
        for i, (x, _) in enumerate(live):
            for y, _ in live[i + 1 :]:
                assert not np.may_share_memory(x, y)
    info = pool.info()
    assert info.pooled_bytes <= pool.max_bytes


def test_pool_cap_and_lru(pool) -> None:  # type: ignore[no-untyped-def]
    pool.max_bytes = 3 * size_class(1 << 20)
    evicted = pool.info().evicted
    arrays = [pool.empty((1 << 18,), np.dtype(np.float32)) for _ in range(5)]
    addrs = [address(a) for a in arrays]
    while arrays:
        arrays.pop(0)  # given back in order: 0 is the least recent
    info = pool.info()
    assert info.pooled_bytes == pool.max_bytes and info.leased_bytes == 0
    assert info.evicted == evicted + 2
    # The two given back first were evicted; the most recent comes back first.
    again = pool.empty((1 << 18,), np.dtype(np.float32))
    assert address(again) == addrs[4]
    more = [pool.empty((1 << 18,), np.dtype(np.float32)) for _ in range(3)]
    assert {address(m) for m in more[:2]} == set(addrs[2:4])
    del more
    pool.max_bytes = 0  # frees all, and disables reuse
    assert pool.info().pooled_bytes == 0
    del again
    assert pool.info().pooled_bytes == 0
    with pytest.raises(ValueError, match="max_bytes must be a non-negative int"):
        pool.max_bytes = -1


def test_pool_small_and_disabled(chain, pool) -> None:  # type: ignore[no-untyped-def]
    pool.min_bytes = 1 << 16
    a, b, c = vectors(100)
    assert not pool.owns(chain(a, b, c))  # 400 bytes: plain np.empty
    pool.max_bytes = 0
    a, b, c = vectors(1 << 17)
    y = chain(a, b, c)
    assert not pool.owns(y) and address(y) % 4096 == 0
    np.testing.assert_allclose(y, expect_chain(a, b, c), rtol=1e-6)


def test_pool_threads(chain, pool) -> None:  # type: ignore[no-untyped-def]
    """Four threads calling and dropping at once: every result is right, the books balance."""
    errors: list[BaseException] = []

    def work(seed: int) -> None:
        try:
            a, b, c = vectors(30_000, seed)
            want = expect_chain(a, b, c)
            kept = []
            for i in range(60):
                y = chain(a, b, c)
                if i % 7 == 0:
                    kept.append(y)
                np.testing.assert_array_equal(y, want)
            for y in kept:
                np.testing.assert_array_equal(y, want)
        except BaseException as e:  # noqa: BLE001 - reported by the main thread
            errors.append(e)

    before = pool.info()
    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]
    info = pool.info()
    assert info.leased_bytes == 0 and info.hits > before.hits
    calls = info.hits + info.misses - before.hits - before.misses
    assert calls == 4 * 60 == info.released - before.released  # every result given back


def test_pool_memory_bounded(chain, pool) -> None:  # type: ignore[no-untyped-def]
    """Many calls, the caller keeping a rolling window of results alive: the traced heap and the
    pool's books stay flat after a warm-up."""
    pool.max_bytes = 8 << 20
    a, b, c = vectors(1 << 18)  # 1 MiB results
    window: list[np.ndarray] = []
    misses = pool.info().misses
    tracemalloc.start()
    try:
        for i in range(400):
            window.append(chain(a, b, c))
            if len(window) > 5:
                window.pop(i % 5)
            if i == 99:
                base = tracemalloc.get_traced_memory()[0]
        grown = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    info = pool.info()
    assert grown < 1 << 20, grown  # a leak of one result per call would be 300 MiB
    assert info.pooled_bytes <= pool.max_bytes
    assert info.leased_bytes == len(window) * size_class(a.nbytes)
    assert info.misses - misses < 20  # the other 380 were recycled
    del window
    assert pool.info().leased_bytes == 0


def test_private_pool_fallback_and_env(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    made: list[tuple[int, ...]] = []

    def fallback(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        made.append(shape)
        return np.empty(shape, dtype)

    pool = BufferPool(max_bytes=1 << 20, min_bytes=1 << 12, fallback=fallback)
    small = pool.empty((10,), np.float32)  # a dtype-like is accepted
    big = pool.empty((32, 32), "f8")
    assert made == [(10,)] and not pool.owns(small) and pool.owns(big)
    assert big.dtype == np.float64 and big.flags.c_contiguous and big.flags.writeable
    assert not result_pool.owns(big)
    with pytest.raises(ValueError, match="min_bytes must be a non-negative int"):
        BufferPool(min_bytes=-1)
    from mlc.runtime.pool import _env_bytes

    monkeypatch.setenv("MLC_POOL_MAX_BYTES", "123")
    assert _env_bytes("MLC_POOL_MAX_BYTES", 5) == 123
    monkeypatch.setenv("MLC_POOL_MAX_BYTES", "lots")
    with pytest.raises(ValueError, match="MLC_POOL_MAX_BYTES must be a non-negative number"):
        _env_bytes("MLC_POOL_MAX_BYTES", 5)


def test_out_on_an_entry_without_results() -> None:
    from mlc.runtime import ArgSpec, Signature, compile_llvm_ir

    text = "define void @touch(ptr %a, ptr %b, i64 %o, i64 %n, i64 %s) {\n  ret void\n}\n"
    m = compile_llvm_ir(text, {"touch": Signature([ArgSpec("x", "f32", (None,))], [])})
    x = np.ones(3, np.float32)
    assert m.touch(x) is None and m.touch(x, out=()) is None
    with pytest.raises(TypeError, match=r"touch\(\) has 0 results: out= must be None or \(\)"):
        m.touch(x, out=x)
