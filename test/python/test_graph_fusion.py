"""graph-fusion: structure of the kernels it forms, its knobs, and numerics against the
reference interpreter on random graphs under random knob configurations."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mlc
from mlc.interp import run
from mlc.knobs import KnobContext, KnobStore

PIPELINE = "builtin.module(func.func(graph-fusion))"

# Shapes of the random graphs: S is the main iteration space, R and V its reductions, M a weight.
SHAPES = {"S": (4, 8), "R": (4, 1), "V": (8,), "M": (8, 8)}


def ttype(kind: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in SHAPES[kind]) + "f32>"


S, R, V, M = (ttype(k) for k in "SRVM")


class RandomFuse(KnobStore):
    """A knob store answering every `fuse` knob with a seeded coin flip."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def get(self, key: str) -> object:
        if key.endswith("/fuse"):
            return random.Random(f"{self.seed}:{key}").random() < 0.5
        return None


class GraphBuilder:
    """Random graphs over the shapes S, R, V, M (every op family the pass treats)."""

    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw
        self.values: dict[str, list[str]] = {"S": ["%s0", "%s1"], "R": ["%r0"], "V": ["%v0"]}
        self.values["M"] = ["%m0"]
        self.lines: list[str] = []
        self.n = 0

    def pick(self, kind: str) -> str:
        return self.draw(st.sampled_from(self.values[kind]))

    def emit(self, kind: str, text: str) -> str:
        name = f"%t{self.n}"
        self.n += 1
        self.lines.append(f"  {name} = {text}")
        self.values[kind].append(name)
        return name

    def step(self) -> None:
        choice = self.draw(
            st.sampled_from(
                [
                    "unary",
                    "unary",
                    "binary",
                    "binary",
                    "bcast",
                    "reduce",
                    "mean",
                    "matmul",
                    "softmax",
                    "select",
                    "transpose",
                    "unary_r",
                ]  # fmt: skip
            )
        )
        if choice == "unary" or choice == "unary_r":
            kind = "S" if choice == "unary" else "R"
            op = self.draw(st.sampled_from(["tanh", "sigmoid", "relu", "neg", "abs", "exp"]))
            x = self.pick(kind)
            if op == "exp":  # keep values bounded
                x = self.emit(kind, f"graph.tanh {x} : {ttype(kind)}")
            self.emit(kind, f"graph.{op} {x} : {ttype(kind)}")
        elif choice == "binary":
            op = self.draw(st.sampled_from(["add", "sub", "mul", "max", "min"]))
            other = self.draw(st.sampled_from("SRV"))
            a, b = self.pick("S"), self.pick(other)
            if self.draw(st.booleans()):
                self.emit("S", f"graph.{op} {a}, {b} : ({S}, {ttype(other)}) -> {S}")
            else:
                self.emit("S", f"graph.{op} {b}, {a} : ({ttype(other)}, {S}) -> {S}")
        elif choice == "bcast":
            kind = self.draw(st.sampled_from("RV"))
            x = self.pick(kind)
            shape = "array<i64: 4, 8>"
            self.emit("S", f"graph.broadcast_to {x} {{shape = {shape}}} : ({ttype(kind)}) -> {S}")
        elif choice == "reduce":
            op = self.draw(st.sampled_from(["reduce_sum", "reduce_max", "reduce_min"]))
            x = self.pick("S")
            attrs = "{axes = array<i64: 1>, keepdims = true}"
            self.emit("R", f"graph.{op} {x} {attrs} : ({S}) -> {R}")
        elif choice == "mean":
            x = self.pick("S")
            self.emit("V", f"graph.reduce_mean {x} {{axes = array<i64: 0>}} : ({S}) -> {V}")
        elif choice == "matmul":
            a, w = self.pick("S"), self.pick("M")
            self.emit("S", f"graph.matmul {a}, {w} : ({S}, {M}) -> {S}")
        elif choice == "softmax":
            x = self.pick("S")
            self.emit("S", f"graph.softmax {x} {{axis = 1 : i64}} : ({S}) -> {S}")
        elif choice == "select":
            a, b, c = self.pick("S"), self.pick("S"), self.pick("R")
            pred = self.draw(st.sampled_from(["lt", "ge"]))
            i1 = "tensor<4x8xi1>"
            name = f"%t{self.n}"
            self.n += 1
            self.lines.append(f'  {name} = graph.cmp "{pred}", {a}, {c} : ({S}, {R}) -> {i1}')
            self.emit("S", f"graph.select {name}, {a}, {b} : ({i1}, {S}, {S}) -> {S}")
        else:
            w = self.pick("M")
            t = self.emit("M", f"graph.transpose {w} {{perm = array<i64: 1, 0>}} : ({M}) -> {M}")
            self.emit("M", f"graph.add {t}, {w} : ({M}, {M}) -> {M}")

    def module(self) -> str:
        results = [v for k in "SRVM" for v in self.values[k] if v.startswith("%t")]
        returned = self.draw(
            st.lists(st.sampled_from(results), min_size=1, max_size=3, unique=True)
        ) if results else ["%s0"]  # fmt: skip
        last = self.lines[-1].split(" = ")[0].strip() if self.lines else "%s0"
        if last not in returned:
            returned.append(last)
        kinds = {v: k for k in "SRVM" for v in self.values[k]}
        types = ", ".join(ttype(kinds[v]) for v in returned)
        return (
            f"func.func @main(%s0: {S}, %s1: {S}, %r0: {R}, %v0: {V}, %m0: {M}) -> ({types}) {{\n"
            + "\n".join(self.lines)
            + f"\n  return {', '.join(returned)} : {types}\n}}\n"
        )


@st.composite
def graphs(draw: st.DrawFn) -> str:
    b = GraphBuilder(draw)
    for _ in range(draw(st.integers(1, 14))):
        b.step()
    return b.module()


def inputs(seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(SHAPES[k]).astype(np.float32) for k in "SSRVM"]


def assert_same(expected: tuple, got: tuple) -> None:
    assert len(expected) == len(got)
    for e, g in zip(expected, got):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-5, equal_nan=True)


def fused(text: str, knobs: object = None) -> tuple[mlc.ir.core.Operation, KnobContext]:
    module = mlc.parse(text)
    ctx = mlc.run_pipeline(module, PIPELINE, knobs=knobs)
    return module, ctx


def count(module: object, name: str) -> int:
    return sum(1 for op in module.walk() if op.name == name)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs(), st.integers(0, 2**16))
def test_random_graphs_random_knobs_match_interpreter(text: str, seed: int) -> None:
    args = inputs(seed)
    expected = run(mlc.parse(text), "main", *args)
    for knobs in (None, KnobContext(store=RandomFuse(seed))):
        module, _ = fused(text, knobs)
        module.verify()
        assert_same(expected, run(module, "main", *args))
        # No op is left both inside a kernel and outside it unless duplicated on purpose, and
        # kernels never nest.
        for op in module.walk():
            if op.name == "graph.fused":
                assert not any(o.name == "graph.fused" for o in op.regions[0].walk())


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs(), st.integers(0, 2**16))
def test_random_graphs_lower_to_tensor_after_fusion(text: str, seed: int) -> None:
    args = inputs(seed)
    expected = run(mlc.parse(text), "main", *args)
    module, _ = fused(text, KnobContext(store=RandomFuse(seed)))
    mlc.run_pipeline(module, "builtin.module(func.func(convert-graph-to-tensor))")
    assert_same(expected, run(module, "main", *args))


SOFTMAX = f"""
func.func @main(%x: {S}) -> {S} {{
  %m = graph.reduce_max %x {{axes = array<i64: 1>, keepdims = true}} : ({S}) -> {R}
  %s = graph.sub %x, %m : ({S}, {R}) -> {S}
  %e = graph.exp %s : {S}
  %z = graph.reduce_sum %e {{axes = array<i64: 1>, keepdims = true}} : ({S}) -> {R}
  %d = graph.div %e, %z : ({S}, {R}) -> {S}
  return %d : {S}
}}
"""


def test_softmax_is_one_kernel() -> None:
    module, ctx = fused(SOFTMAX)
    assert count(module, "graph.fused") == 1
    func = next(op for op in module.walk() if op.name == "func.func")
    assert [op.name for op in func.regions[0].blocks[0]] == ["graph.fused", "func.return"]
    assert [r.value for r in ctx.space()] == [True] * 4  # every producer chose to fuse
    x = inputs(0)[0]
    (got,) = run(module, "main", x)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(got, e / e.sum(axis=1, keepdims=True), rtol=1e-6)


def test_knob_false_materializes_the_producer() -> None:
    _, ctx = fused(SOFTMAX)
    keys = [r.key for r in ctx.space()]
    exp_key = next(k for k in keys if "graph.exp" in k)
    module, ctx2 = fused(SOFTMAX, {exp_key: False})
    # exp is cut out: {max, sub} and {sum, div} with exp alone... the sum and div kernel keeps
    # consuming exp's value, which is now a kernel output.
    assert count(module, "graph.fused") == 2
    fused_ops = [op for op in module.walk() if op.name == "graph.fused"]
    assert sorted(len(list(op.regions[0].blocks[0])) - 1 for op in fused_ops) == [2, 3]
    assert_same(run(mlc.parse(SOFTMAX), "main", inputs(1)[0]), run(module, "main", inputs(1)[0]))


EPILOGUE = f"""
func.func @main(%x: {S}, %w: {M}, %b: {V}, %r: {S}) -> {S} {{
  %bb = graph.broadcast_to %b {{shape = array<i64: 4, 8>}} : ({V}) -> {S}
  %p = graph.relu %x : {S}
  %0 = graph.matmul %p, %w : ({S}, {M}) -> {S}
  %1 = graph.add %0, %bb : ({S}, {S}) -> {S}
  %2 = graph.relu %1 : {S}
  %3 = graph.add %2, %r : ({S}, {S}) -> {S}
  return %3 : {S}
}}
"""


def test_matmul_epilogue_without_prologue() -> None:
    module, _ = fused(EPILOGUE)
    kernels = [op for op in module.walk() if op.name == "graph.fused"]
    assert len(kernels) == 1
    body = [op.name for op in kernels[0].regions[0].blocks[0]]
    assert body == [
        "graph.broadcast_to", "graph.matmul", "graph.add", "graph.relu", "graph.add", "graph.yield"
    ]  # fmt: skip
    # The relu feeding the matmul stays outside (no prologue fusion).
    func = next(op for op in module.walk() if op.name == "func.func")
    assert "graph.relu" in [op.name for op in func.regions[0].blocks[0]]
    args = [np.random.default_rng(2).standard_normal(s).astype(np.float32) for s in
            [(4, 8), (8, 8), (8,), (4, 8)]]  # fmt: skip
    assert_same(run(mlc.parse(EPILOGUE), "main", *args), run(module, "main", *args))


SHARED = f"""
func.func @main(%x: {S}, %v: {V}, %w: {M}) -> ({S}, {S}) {{
  %b = graph.broadcast_to %v {{shape = array<i64: 4, 8>}} : ({V}) -> {S}
  %0 = graph.matmul %x, %w : ({S}, {M}) -> {S}
  %1 = graph.add %0, %b : ({S}, {S}) -> {S}
  %2 = graph.matmul %x, %w : ({S}, {M}) -> {S}
  %3 = graph.mul %2, %b : ({S}, {S}) -> {S}
  return %1, %3 : {S}, {S}
}}
"""


def test_cheap_shared_producer_is_duplicated() -> None:
    module, ctx = fused(SHARED)
    # Two matmul kernels cannot merge, so the broadcast is recomputed in each (cheap: no FLOPs,
    # reads 32 bytes per kernel instead of writing and reading 128).
    assert count(module, "graph.fused") == 2
    assert count(module, "graph.broadcast_to") == 2
    bcast = next(r for r in ctx.space() if "broadcast_to" in r.key)
    assert bcast.default is True
    module2, _ = fused(SHARED, {bcast.key: False})
    assert count(module2, "graph.broadcast_to") == 1
    args = [np.random.default_rng(3).standard_normal(s).astype(np.float32) for s in
            [(4, 8), (8,), (8, 8)]]  # fmt: skip
    expected = run(mlc.parse(SHARED), "main", *args)
    assert_same(expected, run(module, "main", *args))
    assert_same(expected, run(module2, "main", *args))


def test_producer_with_an_illegal_consumer_becomes_a_kernel_output() -> None:
    text = f"""
func.func @main(%x: {S}, %w: {M}) -> ({S}, {S}) {{
  %e = graph.exp %x : {S}
  %1 = graph.matmul %x, %w : ({S}, {M}) -> {S}
  %2 = graph.add %1, %e : ({S}, {S}) -> {S}
  %0 = graph.matmul %e, %w : ({S}, {M}) -> {S}
  return %0, %2 : {S}, {S}
}}
"""
    module, _ = fused(text)
    # exp feeds a matmul (illegal to fuse) and an epilogue: it joins the epilogue's kernel and
    # is a second result of it, read by the matmul after the kernel.
    assert count(module, "graph.exp") == 1
    kernels = [op for op in module.walk() if op.name == "graph.fused"]
    assert len(kernels) == 1 and len(kernels[0].results) == 2
    args = inputs(8)[0], inputs(8)[4]
    assert_same(run(mlc.parse(text), "main", *args), run(module, "main", *args))
    # With the matmul before the kernel, the kernel would have to move above it: exp stays
    # out (recomputing it costs more than reading it back).
    early = text.replace(f"  %0 = graph.matmul %e, %w : ({S}, {M}) -> {S}\n", "").replace(
        "  %1 =", f"  %0 = graph.matmul %e, %w : ({S}, {M}) -> {S}\n  %1 ="
    )
    module, _ = fused(early)
    kernels = [op for op in module.walk() if op.name == "graph.fused"]
    assert len(kernels) == 1 and len(kernels[0].results) == 1
    assert "graph.exp" not in [op.name for op in kernels[0].regions[0].blocks[0]]
    assert_same(run(mlc.parse(early), "main", *args), run(module, "main", *args))


def test_dead_kernels_are_built_without_results() -> None:
    # The broadcast is duplicated into two matmul kernels; the dead one is built too (a
    # clone left in place could precede the kernel of its producer).
    text = f"""
func.func @main(%x: {S}, %v: {V}, %w: {M}) -> {S} {{
  %b = graph.broadcast_to %v {{shape = array<i64: 4, 8>}} : ({V}) -> {S}
  %0 = graph.matmul %x, %w : ({S}, {M}) -> {S}
  %1 = graph.add %0, %b : ({S}, {S}) -> {S}
  %2 = graph.matmul %x, %w : ({S}, {M}) -> {S}
  %3 = graph.mul %2, %b : ({S}, {S}) -> {S}
  return %1 : {S}
}}
"""
    module, _ = fused(text)
    module.verify()
    kernels = [op for op in module.walk() if op.name == "graph.fused"]
    assert sorted(len(k.results) for k in kernels) == [0, 1]
    args = [np.random.default_rng(9).standard_normal(s).astype(np.float32) for s in
            [(4, 8), (8,), (8, 8)]]  # fmt: skip
    assert_same(run(mlc.parse(text), "main", *args), run(module, "main", *args))


def test_not_convex_merge_is_refused() -> None:
    # exp feeds tanh (in the kernel {tanh, add}) and a transpose (not fusible) that feeds the
    # add: exp as an output of that kernel would make a cycle through the transpose.
    text = f"""
func.func @main(%x: {M}) -> {M} {{
  %a = graph.exp %x : {M}
  %t = graph.transpose %a {{perm = array<i64: 1, 0>}} : ({M}) -> {M}
  %b = graph.tanh %a : {M}
  %d = graph.add %b, %t : ({M}, {M}) -> {M}
  return %d : {M}
}}
"""
    x = np.random.default_rng(4).standard_normal((8, 8)).astype(np.float32)
    expected = run(mlc.parse(text), "main", x)
    module, ctx = fused(text)
    (exp_knob,) = [r for r in ctx.space() if "graph.exp" in r.key]
    # Recomputing exp (10 FLOPs per element, plus reading x) costs more than reading it back.
    assert exp_knob.default is False
    kernels = [op for op in module.walk() if op.name == "graph.fused"]
    assert len(kernels) == 1
    assert [op.name for op in kernels[0].regions[0].blocks[0]] == [
        "graph.tanh", "graph.add", "graph.yield"
    ]  # fmt: skip
    assert_same(expected, run(module, "main", x))
    # Forced to fuse, exp is duplicated into the kernel (and kept for the transpose).
    module, _ = fused(text, {exp_knob.key: True})
    module.verify()
    kernels = [op for op in module.walk() if op.name == "graph.fused"]
    assert count(module, "graph.exp") == 2 and len(kernels) == 1
    assert "graph.exp" in [op.name for op in kernels[0].regions[0].blocks[0]]
    assert_same(expected, run(module, "main", x))


def test_siblings_merge_into_one_multi_output_kernel() -> None:
    text = f"""
func.func @main(%x: {S}) -> ({S}, {S}) {{
  %a = graph.exp %x : {S}
  %b = graph.tanh %a : {S}
  %c = graph.sigmoid %a : {S}
  return %b, %c : {S}, {S}
}}
"""
    module, _ = fused(text)
    kernels = [op for op in module.walk() if op.name == "graph.fused"]
    assert len(kernels) == 1 and len(kernels[0].results) == 2
    assert count(module, "graph.exp") == 1
    x = inputs(7)[0]
    assert_same(run(mlc.parse(text), "main", x), run(module, "main", x))


def test_sites_are_stable_across_configurations() -> None:
    _, ctx = fused(SOFTMAX)
    keys = [r.key for r in ctx.space()]
    _, ctx2 = fused(SOFTMAX, {keys[-1]: False})
    assert set(keys) >= {r.key for r in ctx2.space()}


def test_dynamic_shapes_and_unranked_are_handled() -> None:
    text = """
func.func @main(%x: tensor<?x8xf32>, %u: tensor<*xf32>) -> (tensor<?x8xf32>, tensor<*xf32>) {
  %0 = graph.exp %x : tensor<?x8xf32>
  %1 = graph.tanh %0 : tensor<?x8xf32>
  %2 = graph.exp %u : tensor<*xf32>
  %3 = graph.tanh %2 : tensor<*xf32>
  return %1, %3 : tensor<?x8xf32>, tensor<*xf32>
}
"""
    module, _ = fused(text)
    assert count(module, "graph.fused") == 1  # unranked ops are left alone
    x = np.random.default_rng(5).standard_normal((3, 8)).astype(np.float32)
    u = np.random.default_rng(6).standard_normal((2, 5)).astype(np.float32)
    assert_same(run(mlc.parse(text), "main", x, u), run(module, "main", x, u))


def layered_graph(n: int, seed: int) -> str:
    """An MLP-like graph of `n` ops: matmuls, bias adds, activations and elementwise trees
    reaching back up to 50 values (many multi-consumer producers and dead values)."""
    rng = random.Random(seed)
    t, w, b = "tensor<4x8xf32>", "tensor<8x8xf32>", "tensor<8xf32>"
    lines, values = [], ["%x"]
    for k in range(n):
        a = values[-1] if rng.random() < 0.7 else rng.choice(values[-50:])
        r = rng.random()
        if r < 0.15:
            lines.append(f"  %v{k} = graph.matmul {a}, %w : ({t}, {w}) -> {t}")
        elif r < 0.3:
            lines.append(f"  %v{k} = graph.add {a}, %b : ({t}, {b}) -> {t}")
        elif r < 0.6:
            op = rng.choice(["relu", "tanh", "sigmoid", "neg"])
            lines.append(f"  %v{k} = graph.{op} {a} : {t}")
        else:
            op = rng.choice(["add", "mul", "max"])
            other = rng.choice(values[-50:])
            lines.append(f"  %v{k} = graph.{op} {a}, {other} : ({t}, {t}) -> {t}")
        values.append(f"%v{k}")
    returned = sorted({values[-1], rng.choice(values[1:])}, key=values.index)
    types = ", ".join([t] * len(returned))
    return (
        f"func.func @main(%x: {t}, %w: {w}, %b: {b}) -> ({types}) {{\n"
        + "\n".join(lines)
        + f"\n  return {', '.join(returned)} : {types}\n}}\n"
    )


@pytest.mark.parametrize("seed", range(6))
def test_layered_graphs_match_interpreter(seed: int) -> None:
    text = layered_graph(150, seed)
    rng = np.random.default_rng(seed)
    args = [rng.standard_normal(s).astype(np.float32) * 0.3 for s in [(4, 8), (8, 8), (8,)]]
    expected = run(mlc.parse(text), "main", *args)
    for knobs in (None, KnobContext(store=RandomFuse(seed))):
        module, _ = fused(text, knobs)
        assert count(module, "graph.fused") > 0
        assert_same(expected, run(module, "main", *args))


def _sibling_ladder(n: int) -> str:
    """n producers, each used by a long add chain (one big kernel) and by a late negation
    feeding a matmul; the negations come in reverse order, so every sibling merge with the big
    kernel must check the users of all its members against a later position."""
    t = "tensor<4x4xf32>"
    lines = ["  %w = graph.constant dense<1.0> : tensor<4x4xf32>"]
    lines += [f"  %p{i} = graph.exp %x : {t}" for i in range(n)]
    prev = "%x"
    for i in range(n):
        lines.append(f"  %a{i} = graph.add %p{i}, {prev} : ({t}, {t}) -> {t}")
        prev = f"%a{i}"
    for i in reversed(range(n)):
        lines.append(f"  %b{i} = graph.neg %p{i} : {t}")
        lines.append(f"  %m{i} = graph.matmul %b{i}, %w : ({t}, {t}) -> {t}")
    body = "\n".join(lines)
    return f"func.func @main(%x: {t}) -> {t} {{\n{body}\n  return {prev} : {t}\n}}\n"


def test_sibling_merge_checks_are_linear(monkeypatch: pytest.MonkeyPatch) -> None:
    from mlc.passes import graph_fusion

    calls = 0
    original = graph_fusion._BlockFusion._users

    def counted(self: object, v: object) -> object:
        nonlocal calls
        calls += 1
        return original(self, v)  # type: ignore[arg-type]

    monkeypatch.setattr(graph_fusion._BlockFusion, "_users", counted)
    counts = []
    for n in (50, 200):
        calls = 0
        module = mlc.parse(_sibling_ladder(n))
        mlc.run_pipeline(module, "builtin.module(graph-fusion)")
        counts.append(calls)
    # Rescanning the big kernel's members per sibling merge was quadratic (about 16x here).
    assert counts[1] <= 4.5 * counts[0], counts
    x = np.random.default_rng(0).standard_normal((4, 4)).astype(np.float32)
    text = _sibling_ladder(6)
    (want,) = run(mlc.parse(text), "main", x)
    module = mlc.parse(text)
    mlc.run_pipeline(module, "builtin.module(graph-fusion)")
    assert "graph.fused" in str(module)
    np.testing.assert_allclose(run(module, "main", x)[0], want, rtol=1e-5)


def test_site_keys_with_repeated_signatures_match_site_of() -> None:
    # Fingerprints are memoized per (op class, types, attributes): ops with the same types
    # but different attributes (the softmax axes) keep distinct keys, and repeated ops are
    # numbered in block order, as `mlc.knobs.site_of` spells them.
    from mlc.knobs import site_of

    text = f"""
func.func @main(%x: {S}) -> {S} {{
  %a = graph.exp %x : {S}
  %s0 = graph.softmax %a {{axis = 0 : i64}} : ({S}) -> {S}
  %s1 = graph.softmax %a {{axis = 1 : i64}} : ({S}) -> {S}
  %e0 = graph.exp %s0 : {S}
  %e1 = graph.exp %s1 : {S}
  %r = graph.add %e0, %e1 : ({S}, {S}) -> {S}
  return %r : {S}
}}
"""
    module = mlc.parse(text)
    want = {site_of(op).key for op in module.walk() if op.name in ("graph.exp", "graph.softmax")}
    assert len(want) == 5
    _, ctx = fused(text)
    assert {r.site for r in ctx.space()} == want
