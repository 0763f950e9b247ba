"""Matmul chains where the order matters: the order `graph-matmul-reorder` picks against
left-to-right evaluation and NumPy's `a @ b @ c` (also left to right), as ratios measured in one
run. Each chain is evaluated with NumPy in the pass's order and left to right; with `--compiled`,
also compiled by mlc.compile with and without the pass (plain loop nests: small chains only).

    python bench/matmul_chain.py              # NumPy evaluation of each order
    python bench/matmul_chain.py --compiled   # plus compiled code (slower to run)
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
from mlc.passes.graph_matmul_reorder import chain_flops, optimal_order, order_text

import mlc
from mlc.diagnostics import engine
from mlc.interp import run as interp_run

# name -> the chain's matrix shapes (each consecutive pair agrees).
CHAINS: dict[str, list[tuple[int, int]]] = {
    "vector at the end": [(10, 1000), (1000, 1000), (1000, 1)],
    "skinny (outer product inside)": [(1000, 20), (20, 1000), (1000, 20)],
    "vector at the front": [(1, 1000), (1000, 1000), (1000, 1000)],
    "six matrices": [(400, 30), (30, 500), (500, 8), (8, 600), (600, 50), (50, 1)],
    "low-rank update applied to a vector": [(800, 800), (800, 4), (4, 800), (800, 1)],
}

# Small enough for the plain loop nests the compiler emits today (no tiling or BLAS).
COMPILED_CHAINS: dict[str, list[tuple[int, int]]] = {
    "vector at the end (small)": [(10, 200), (200, 200), (200, 1)],
    "skinny (small)": [(200, 8), (8, 200), (200, 8)],
}


def best_of(fn: Callable[..., object], *args: object, repeat: int = 7) -> float:
    """Best time of `repeat` calls after a warm-up call."""
    fn(*args)
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - t)
    return best


def chain_ir(shapes: list[tuple[int, int]]) -> str:
    """A left-to-right chain as graph IR (`@main`)."""

    def ty(s: tuple[int, int]) -> str:
        return f"tensor<{s[0]}x{s[1]}xf32>"

    params = ", ".join(f"%a{i}: {ty(s)}" for i, s in enumerate(shapes))
    lines, acc, acc_shape = [], "%a0", shapes[0]
    for i, s in enumerate(shapes[1:], 1):
        out = (acc_shape[0], s[1])
        lines.append(
            f"  %p{i} = graph.matmul {acc}, %a{i} : ({ty(acc_shape)}, {ty(s)}) -> {ty(out)}"
        )
        acc, acc_shape = f"%p{i}", out
    body = "\n".join(lines)
    result = ty(acc_shape)
    return f"func.func @main({params}) -> {result} {{\n{body}\n  return {acc} : {result}\n}}\n"


def evaluate(tree: object, mats: list[np.ndarray]) -> np.ndarray:
    if type(tree) is int:
        return mats[tree]
    return evaluate(tree[0], mats) @ evaluate(tree[1], mats)  # type: ignore[index]


def numpy_chain(mats: list[np.ndarray]) -> np.ndarray:
    """NumPy's `a @ b @ c @ ...` (left to right)."""
    out = mats[0] @ mats[1]
    for m in mats[2:]:
        out = out @ m
    return out


def reorder(text: str) -> tuple[object, str]:
    module = mlc.parse(text)
    with engine.capture() as diags:
        mlc.run_pipeline(module, "builtin.module(func.func(graph-matmul-reorder))")
    return module, diags[0].message if diags else ""


def numpy_rows(rng: np.random.Generator) -> None:
    print("NumPy evaluation (best of 7); ratios are left-to-right time / chosen-order time")
    header = (
        f"{'chain':38} {'order':22} {'GFLOP l-to-r':>12} {'GFLOP chosen':>12} "
        f"{'vs l-to-r':>9} {'vs a@b@c':>9} {'interp':>7}"
    )
    print(header)
    for name, shapes in CHAINS.items():
        dims = [shapes[0][0]] + [s[1] for s in shapes]
        mats = [rng.standard_normal(s).astype(np.float32) for s in shapes]
        left: object = 0
        for i in range(1, len(shapes)):
            left = (left, i)
        tree = optimal_order(dims)
        text = chain_ir(shapes)
        module, remark = reorder(text)
        assert order_text(tree) in remark or "kept" in remark, remark
        t_left = best_of(evaluate, left, mats)
        t_best = best_of(evaluate, tree, mats)
        t_np = best_of(numpy_chain, mats)
        # The reference interpreter runs the IR before and after the pass (one NumPy call per op).
        t_interp_before = best_of(interp_run, mlc.parse(text), "main", *mats, repeat=3)
        t_interp_after = best_of(interp_run, module, "main", *mats, repeat=3)
        np.testing.assert_allclose(evaluate(tree, mats), evaluate(left, mats), rtol=2e-3, atol=2e-3)
        print(
            f"{name:38} {order_text(tree):22} {chain_flops(left, dims) / 1e9:12.4f} "
            f"{chain_flops(tree, dims) / 1e9:12.4f} {t_left / t_best:8.1f}x {t_np / t_best:8.1f}x "
            f"{t_interp_before / t_interp_after:6.1f}x"
        )


def compiled_rows(rng: np.random.Generator) -> None:
    print("\nCompiled (mlc.compile, lower-to-cpu with and without graph-matmul-reorder first)")
    print(f"{'chain':38} {'without':>10} {'with':>10} {'speed-up':>9} {'NumPy a@b@c':>12}")
    for name, shapes in COMPILED_CHAINS.items():
        text = chain_ir(shapes)
        mats = [rng.standard_normal(s).astype(np.float32) for s in shapes]
        plain = mlc.compile(text)
        module, _ = reorder(text)
        reordered = mlc.compile(str(module))
        expected = evaluate(0, mats)
        for i in range(1, len(mats)):
            expected = expected @ mats[i]
        for fn in (plain, reordered):
            np.testing.assert_allclose(fn.main(*mats), expected, rtol=1e-3, atol=1e-3)
        t_plain = best_of(plain.main, *mats)
        t_re = best_of(reordered.main, *mats)
        t_np = best_of(numpy_chain, mats)
        print(
            f"{name:38} {t_plain * 1e3:8.2f}ms {t_re * 1e3:8.2f}ms {t_plain / t_re:8.1f}x "
            f"{t_np * 1e3:10.3f}ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compiled", action="store_true", help="also time compiled code")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    numpy_rows(rng)
    if args.compiled:
        compiled_rows(rng)


if __name__ == "__main__":
    main()
