"""The programs in examples/: they parse, verify, and the reference interpreter computes what the
same model written directly in NumPy computes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import mlc
import mlc.interp

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _rand(rng: np.random.Generator, *shape: int, scale: float = 1.0) -> np.ndarray:
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def _softmax(z: np.ndarray, axis: int) -> np.ndarray:
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _mlp(rng: np.random.Generator, batch: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    x = _rand(rng, batch, 784)
    w1, b1 = _rand(rng, 784, 512, scale=0.05), _rand(rng, 512)
    w2, b2 = _rand(rng, 512, 512, scale=0.05), _rand(rng, 512)
    w3, b3 = _rand(rng, 512, 10, scale=0.05), _rand(rng, 10)
    h = np.maximum(x @ w1 + b1, 0)
    h = np.maximum(h @ w2 + b2, 0)
    return [x, w1, b1, w2, b2, w3, b3], [_softmax(h @ w3 + b3, axis=1)]


def _attention(rng: np.random.Generator, seq: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    q, k, v = (_rand(rng, seq, 64) for _ in range(3))
    return [q, k, v], [_softmax(q @ k.T / 8.0, axis=1) @ v]


def _conv(rng: np.random.Generator, batch: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    x, w, b = _rand(rng, batch, 3, 32, 32), _rand(rng, 16, 3, 3, 3), _rand(rng, 16)
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    conv = np.zeros((batch, 16, 32, 32), np.float32)
    for kh in range(3):
        for kw in range(3):
            window = xp[:, :, kh : kh + 32, kw : kw + 32]
            conv += np.einsum("nchw,oc->nohw", window, w[:, :, kh, kw])
    r = np.maximum(conv + b[None, :, None, None], 0)
    pooled = r.reshape(batch, 16, 16, 2, 16, 2).max(axis=(3, 5))
    return [x, w, b], [pooled]


def _linreg_cg(rng: np.random.Generator, rows: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    x, w, r, p = _rand(rng, rows, 100), _rand(rng, 100, 1), _rand(rng, 100, 1), _rand(rng, 100, 1)
    lam = np.float32(0.1)
    q = x.T @ (x @ p) + lam * p
    alpha = (r * r).sum() / (p * q).sum()
    w1, r1 = w + alpha * p, r - alpha * q
    beta = (r1 * r1).sum() / (r * r).sum()
    return [x, w, r, p, np.array(lam)], [w1, r1, r1 + beta * p]


CASES = {"mlp": _mlp, "attention": _attention, "conv": _conv, "linreg_cg": _linreg_cg}


@pytest.mark.parametrize("name", sorted(CASES))
def test_example_matches_numpy(name: str) -> None:
    module = mlc.parse_file(str(EXAMPLES / f"{name}.mlir"))
    module.verify()
    rng = np.random.default_rng(7)
    for size in (1, 5):  # the dynamic dim bound to two sizes
        inputs, expected = CASES[name](rng, size)
        got = mlc.interp.run(module, "main", *inputs)
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert g.shape == e.shape and g.dtype == np.float32
            np.testing.assert_allclose(g, e, rtol=2e-4, atol=2e-5)


def test_every_example_is_covered() -> None:
    graph_examples = {p.stem for p in EXAMPLES.glob("*.mlir") if "graph." in p.read_text()}
    assert graph_examples == set(CASES)
