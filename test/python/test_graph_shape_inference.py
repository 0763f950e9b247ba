"""graph-shape-inference: the type lattice, DimEquivalence, and random programs whose declared
types were erased (dims to `?`, some values unranked, private callees generic) and must be
recovered exactly, with the same values from the interpreter before and after."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mlc.passes.graph_shape_inference import DimEquivalence, generalize_types, refine_type

import mlc
from mlc.interp import run
from mlc.ir import attributes as A
from mlc.pass_manager import PassError, PassManager

PIPELINE = "builtin.module(graph-shape-inference)"
D = A.DYNAMIC


def t(shape: tuple[int, ...] | None, et: A.Type = A.f32) -> A.Type:
    return A.UnrankedTensorType(et) if shape is None else A.RankedTensorType(shape, et)


def test_refine_type_is_the_meet() -> None:
    assert refine_type(t((D, 4)), t((3, D))) is t((3, 4))
    assert refine_type(t(None), t((2, D))) is t((2, D))
    assert refine_type(t((2, D)), t(None)) is t((2, D))
    assert refine_type(t((2,)), t((3,))) is None
    assert refine_type(t((2,)), t((2, 1))) is None
    assert refine_type(t((2,)), t((2,), A.i32)) is None


def test_generalize_types_is_the_join() -> None:
    assert generalize_types([t((2, 4)), t((3, 4))]) is t((D, 4))
    assert generalize_types([t((2,)), t((2, 4))]) is t(None)
    assert generalize_types([t((2,)), t(None)]) is t(None)
    assert generalize_types([t((2,)), t((2,), A.i32)]) is None
    assert generalize_types([t((5,))]) is t((5,))


MLP = """
func.func @mlp(%x: tensor<?x8xf32>, %w1: tensor<8x16xf32>, %b1: tensor<16xf32>,
               %w2: tensor<16x4xf32>, %y: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = graph.matmul %x, %w1 : (tensor<?x8xf32>, tensor<8x16xf32>) -> tensor<?x16xf32>
  %1 = graph.add %0, %b1 : (tensor<?x16xf32>, tensor<16xf32>) -> tensor<?x16xf32>
  %2 = graph.relu %1 : tensor<?x16xf32>
  %3 = graph.matmul %2, %w2 : (tensor<?x16xf32>, tensor<16x4xf32>) -> tensor<?x4xf32>
  %4 = graph.sub %3, %y : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %4 : tensor<?x4xf32>
}
"""


def test_dim_equivalence_tracks_the_batch_dim() -> None:
    module = mlc.parse(MLP)
    func = module.regions[0].blocks[0].first
    x, w1, b1, w2, y = func.regions[0].blocks[0].arguments
    ops = list(func.regions[0].blocks[0])
    eq = DimEquivalence(module)
    mm1, add, relu, mm2, sub = (op.results[0] for op in ops[:5])
    for v in (mm1, add, relu, mm2):
        assert eq.equivalent(x, 0, v, 0)
    # %y's `?` and %3's `?` could differ (one may be 1 and broadcast), so sub's result is only
    # known equal to them if they were already equal: it is not.
    assert not eq.equivalent(x, 0, y, 0)
    assert not eq.equivalent(x, 0, sub, 0)
    # The contracting dims are equal, and static sizes are known through the class.
    assert eq.equivalent(relu, 1, w2, 0)
    assert eq.static_size(relu, 1) == 16
    assert eq.static_size(x, 0) is None
    assert not eq.conflicts
    assert any(len(c) >= 5 for c in eq.classes())


def test_dim_equivalence_through_equal_operands() -> None:
    module = mlc.parse("""
    func.func @f(%a: tensor<?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
      %0 = graph.exp %a : tensor<?xf32>
      %1 = graph.add %a, %0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      %2 = graph.mul %b, %1 : (tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
      return %2 : tensor<?x?xf32>
    }""")
    func = module.regions[0].blocks[0].first
    a, b = func.regions[0].blocks[0].arguments
    e, s, m = (op.results[0] for op in list(func.regions[0].blocks[0])[:3])
    eq = DimEquivalence(module)
    assert eq.equivalent(a, 0, s, 0)  # both operands are in a's class
    assert not eq.equivalent(a, 0, m, 1)  # b's dim 1 could be 1 or a's size
    assert eq.equivalent(b, 0, m, 0)  # the only operand with a dim 0


def test_annotation_survives_printing() -> None:
    pipeline = "builtin.module(graph-shape-inference{annotate-dims=true})"
    module = mlc.parse(MLP)
    mlc.run_pipeline(module, pipeline)
    assert "graph.dim_classes" not in str(module)  # the sub with %y may broadcast
    module = mlc.parse(MLP.replace("graph.sub %3, %y", "graph.sub %3, %3"))
    mlc.run_pipeline(module, pipeline)
    text = str(module)
    assert 'graph.dim_classes = [["arg0:0", "res0:0"]]' in text
    assert str(mlc.parse(text)) == text


def test_conflict_is_a_located_error() -> None:
    module = mlc.parse(
        """
    func.func @f(%a: tensor<4xf32>, %b: tensor<5xf32>) -> tensor<?xf32> {
      %0 = graph.cast %a : tensor<4xf32> to tensor<?xf32>
      %1 = graph.add %0, %b : (tensor<?xf32>, tensor<5xf32>) -> tensor<?xf32>
      return %1 : tensor<?xf32>
    }""",
        filename="conflict.mlir",
    )
    with pytest.raises(PassError) as info:
        mlc.run_pipeline(module, PIPELINE)
    diag = info.value.diagnostic
    assert "shape conflict" in diag.message
    assert "conflict.mlir:4:" in str(diag)


def test_specialization_knob_off_generalizes() -> None:
    text = """
    func.func @main(%a: tensor<2x3xf32>, %b: tensor<5x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
      %a0 = graph.cast %a : tensor<2x3xf32> to tensor<*xf32>
      %b0 = graph.cast %b : tensor<5x3xf32> to tensor<*xf32>
      %0 = call @g(%a0) : (tensor<*xf32>) -> tensor<*xf32>
      %1 = call @g(%b0) : (tensor<*xf32>) -> tensor<*xf32>
      return %0, %1 : tensor<*xf32>, tensor<*xf32>
    }
    func.func private @g(%x: tensor<*xf32>) -> tensor<*xf32> {
      %0 = graph.sigmoid %x : tensor<*xf32>
      return %0 : tensor<*xf32>
    }"""
    module = mlc.parse(text)
    knobs = mlc.run_pipeline(module, PIPELINE)
    (knob,) = [k for k in knobs.space() if k.name == "specialize"]
    assert knob.value is True
    assert "func.func private @g_0(%arg0: tensor<5x3xf32>) -> tensor<5x3xf32>" in str(module)
    module = mlc.parse(text)
    mlc.run_pipeline(module, PIPELINE, knobs={knob.key: False})
    out = str(module)
    assert "@g_0" not in out
    assert "func.func private @g(%arg0: tensor<?x3xf32>) -> tensor<?x3xf32>" in out
    assert out.count("tensor.cast") == 2  # each call site passes its value as tensor<?x3xf32>
    a = np.ones((2, 3), np.float32)
    b = np.zeros((5, 3), np.float32)
    r0, r1 = run(module, "main", a, b)
    np.testing.assert_allclose(r0, 1 / (1 + np.exp(-a)), rtol=1e-6)
    np.testing.assert_allclose(r1, np.full((5, 3), 0.5, np.float32))


def test_recursive_function_is_not_specialized() -> None:
    module = mlc.parse("""
    func.func @main(%a: tensor<3xf32>) -> tensor<*xf32> {
      %0 = graph.cast %a : tensor<3xf32> to tensor<*xf32>
      %1 = call @r(%0) : (tensor<*xf32>) -> tensor<*xf32>
      return %1 : tensor<*xf32>
    }
    func.func private @r(%x: tensor<*xf32>) -> tensor<*xf32> {
      %0 = call @r(%x) : (tensor<*xf32>) -> tensor<*xf32>
      return %0 : tensor<*xf32>
    }""")
    mlc.run_pipeline(module, PIPELINE)
    out = str(module)
    assert "@r_0" not in out
    assert "func.func private @r(%arg0: tensor<*xf32>) -> tensor<*xf32>" in out


# ---------------------------------------------------------------------------------------------
# Random programs: exact types erased, then recovered


UNARY = ("exp", "tanh", "relu", "neg", "abs", "sigmoid")
BINARY = ("add", "sub", "mul", "max")


def ttext(shape: tuple[int, ...] | None) -> str:
    if shape is None:
        return "tensor<*xf32>"
    return "tensor<" + "".join(("?" if d == D else str(d)) + "x" for d in shape) + "f32>"


class Program:
    """A random graph program: `values` are (name, exact shape); ops as text templates with the
    result type left as `{T}` so it can be written exact or erased."""

    def __init__(self, rng: random.Random, n_ops: int) -> None:
        self.rng = rng
        self.args: list[tuple[str, tuple[int, ...]]] = []
        self.values: list[tuple[str, tuple[int, ...]]] = []
        self.ops: list[tuple[str, str, tuple[int, ...], bool]] = []  # name, text, shape, ew-only
        self.uses: dict[str, set[str]] = {}
        for _ in range(rng.randint(1, 3)):
            shape = tuple(rng.randint(1, 4) for _ in range(rng.randint(1, 3)))
            self._arg(shape)
        for _ in range(n_ops):
            self._op()
        # A unary result has its operand's type: the operand needs a rank if the result does.
        for name, template, _, _ in reversed(self.ops):
            words = template.split()
            if "(" not in template and words[1].startswith("%"):
                self.uses.setdefault(words[1], set()).update(self.uses.get(name, set()))

    def _arg(self, shape: tuple[int, ...]) -> str:
        name = f"%a{len(self.args)}"
        self.args.append((name, shape))
        self.values.append((name, shape))
        return name

    def _new(self, text: str, shape: tuple[int, ...], operands: list[str], kind: str) -> None:
        name = f"%v{len(self.ops)}"
        self.ops.append((name, text, shape, kind))
        for o in operands:
            self.uses.setdefault(o, set()).add(kind)
        self.values.append((name, shape))

    def _op(self) -> None:
        rng = self.rng
        x, xs = rng.choice(self.values)
        kind = rng.random()
        if kind < 0.3:
            op = rng.choice(UNARY)
            self._new(f"graph.{op} {x} : {{T}}", xs, [x], "ew")
        elif kind < 0.55:
            # A second operand broadcasting against x: drop leading dims or set some to 1.
            tail = xs[rng.randint(0, max(len(xs) - 1, 0)) :]
            ys = tuple(1 if rng.random() < 0.3 else d for d in tail)
            y = next((n for n, s in self.values if s == ys and n != x), None) or self._arg(ys)
            out = np.broadcast_shapes(xs, ys)
            op = rng.choice(BINARY)
            lhs, rhs = (x, y) if rng.random() < 0.5 else (y, x)
            self._new(f"graph.{op} {lhs}, {rhs} : ({{O0}}, {{O1}}) -> {{T}}", out, [lhs, rhs], "ew")
        elif kind < 0.65 and len(xs) >= 2:
            perm = list(range(len(xs)))
            rng.shuffle(perm)
            out = tuple(xs[p] for p in perm)
            attr = "{perm = array<i64: " + ", ".join(map(str, perm)) + ">}"
            self._new(f"graph.transpose {x} {attr} : ({{O0}}) -> {{T}}", out, [x], "ranked")
        elif kind < 0.75:
            n = int(np.prod(xs))
            out = (n,) if rng.random() < 0.5 else (1, n)
            shape = ", ".join(str(d) if rng.random() < 0.5 else "-1" for d in out[:1]) + (
                ", " + str(out[1]) if len(out) == 2 else ""
            )
            attr = "{shape = array<i64: " + shape + ">}"
            self._new(f"graph.reshape {x} {attr} : ({{O0}}) -> {{T}}", out, [x], "ranked")
        elif kind < 0.85:
            axes = sorted(rng.sample(range(len(xs)), rng.randint(0, len(xs))))
            keep = rng.random() < 0.5
            out = tuple((1 if i in axes else d) for i, d in enumerate(xs) if keep or i not in axes)
            attr = (
                "{axes = array<i64" + (": " + ", ".join(map(str, axes)) if axes else "") + ">, "
                f"keepdims = {'true' if keep else 'false'}}}"
            )
            self._new(f"graph.reduce_sum {x} {attr} : ({{O0}}) -> {{T}}", out, [x], "ranked")
        elif len(xs) >= 2:
            n = rng.randint(1, 3)
            ws = (*xs[:-2], xs[-1], n) if rng.random() < 0.5 else (xs[-1], n)
            w = self._arg(ws)
            out = (*xs[:-2], xs[-2], n)
            self._new(f"graph.matmul {x}, {w} : ({{O0}}, {{O1}}) -> {{T}}", out, [x, w], "ranked")
        else:
            op = rng.choice(UNARY)
            self._new(f"graph.{op} {x} : {{T}}", xs, [x], "ew")

    def param_types(self, erase: bool) -> list[str]:
        """Argument types: exact, or erased (unranked where only elementwise ops use the
        argument, else all dims `?`)."""
        if not erase:
            return [ttext(s) for _, s in self.args]
        return [
            ttext(None) if self.uses.get(n, set()) <= {"ew"} else ttext((D,) * len(s))
            for n, s in self.args
        ]

    def text(self, erase: bool, name: str = "main", params: list[str] | None = None) -> str:
        """The program as function `name`, exact or with every op result type erased (dims to
        `?`; values only elementwise ops use may become unranked); `params` are the argument
        types (exact by default)."""
        rng = random.Random(len(self.ops))
        params = params or self.param_types(False)
        types: dict[str, str] = {n: p for (n, _), p in zip(self.args, params)}
        lines = []
        for vname, template, shape, _ in self.ops:
            operands = [tok.rstrip(",") for tok in template.split() if tok.startswith("%")]
            if template.split()[1] == operands[0] and "(" not in template:
                rt = types[operands[0]]  # unary: the result type is the operand type
            elif erase:
                if self.uses.get(vname, set()) <= {"ew"} and rng.random() < 0.4:
                    rt = ttext(None)
                else:
                    rt = ttext(tuple(D if rng.random() < 0.7 else d for d in shape))
            else:
                rt = ttext(shape)
            body = template.replace("{T}", rt)
            for i, o in enumerate(operands):
                body = body.replace("{O" + str(i) + "}", types[o])
            lines.append(f"  {vname} = {body}")
            types[vname] = rt
        last = self.ops[-1][0]
        ret = types[last] if erase else ttext(self.ops[-1][2])
        if erase and rng.random() < 0.5:
            ret = ttext(None)
            lines.append(f"  %ret = tensor.cast {last} : {types[last]} to {ret}")
            last = "%ret"
        elif not erase and types[last] != ret:
            lines.append(f"  %ret = tensor.cast {last} : {types[last]} to {ret}")
            last = "%ret"
        sig = ", ".join(f"{n}: {p}" for (n, _), p in zip(self.args, params))
        vis = "private " if name != "main" else ""
        return (
            f"func.func {vis}@{name}({sig}) -> {ret} {{\n"
            + "\n".join(lines)
            + f"\n  return {last} : {ret}\n}}\n"
        )

    def inputs(self, seed: int) -> list[np.ndarray]:
        g = np.random.default_rng(seed)
        return [g.standard_normal(s).astype(np.float32) for _, s in self.args]


def _result_types(module: object) -> list[str]:
    func = module.regions[0].blocks[0].first  # type: ignore[attr-defined]
    return [str(op.results[0].type) for op in func.regions[0].blocks[0] if op.results]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31))
def test_erased_types_are_recovered(seed: int) -> None:
    prog = Program(random.Random(seed), n_ops=random.Random(seed).randint(1, 8))
    exact = mlc.parse(prog.text(erase=False))
    erased = mlc.parse(prog.text(erase=True))
    erased.verify()
    inputs = prog.inputs(seed)
    before = run(erased, "main", *inputs)
    mlc.run_pipeline(erased, PIPELINE)
    want = _result_types(exact)
    got = _result_types(erased)
    assert got[: len(want)] == want
    after = run(erased, "main", *inputs)
    reference = run(exact, "main", *inputs)
    for b, a, r in zip(before, after, reference):
        np.testing.assert_array_equal(a, r)
        np.testing.assert_array_equal(np.asarray(b).reshape(r.shape), r)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31))
def test_private_callee_types_are_recovered(seed: int) -> None:
    """The same programs as private callees with unranked parameters, called from @main."""
    prog = Program(random.Random(seed), n_ops=random.Random(seed).randint(1, 6))
    params = prog.param_types(erase=True)
    body = prog.text(erase=True, name="body", params=params)
    ret_t = body.splitlines()[0].split("->")[-1].strip(" {")
    exact = prog.param_types(erase=False)
    sig = ", ".join(f"{n}: {t}" for (n, _), t in zip(prog.args, exact))
    casts = "\n".join(
        f"  %c{i} = tensor.cast {n} : {t} to {p}"
        for i, ((n, _), t, p) in enumerate(zip(prog.args, exact, params))
    )
    call_args = ", ".join(f"%c{i}" for i in range(len(params)))
    main = (
        f"func.func @main({sig}) -> {ret_t} {{\n{casts}\n"
        f"  %r = call @body({call_args}) : ({', '.join(params)}) -> {ret_t}\n"
        f"  return %r : {ret_t}\n}}\n"
    )
    module = mlc.parse(main + body)
    module.verify()
    inputs = prog.inputs(seed)
    before = run(module, "main", *inputs)
    mlc.run_pipeline(module, PIPELINE)
    text = str(module)
    sig_exact = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(exact))
    assert f"func.func private @body({sig_exact}) -> {ttext(prog.ops[-1][2])}" in text
    after = run(module, "main", *inputs)
    for b, a in zip(before, after):
        np.testing.assert_array_equal(np.asarray(b).reshape(a.shape), a)


def test_specialized_copies_keep_casts_for_foreign_uses() -> None:
    module = mlc.parse(
        """
    func.func @main(%a: tensor<2xf32>, %b: tensor<3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
      %a0 = graph.cast %a : tensor<2xf32> to tensor<*xf32>
      %b0 = graph.cast %b : tensor<3xf32> to tensor<*xf32>
      %0 = call @g(%a0) : (tensor<*xf32>) -> tensor<*xf32>
      %1 = call @g(%b0) : (tensor<*xf32>) -> tensor<*xf32>
      return %0, %1 : tensor<*xf32>, tensor<*xf32>
    }
    func.func private @g(%x: tensor<*xf32>) -> tensor<*xf32> {
      %0 = graph.exp %x : tensor<*xf32>
      %1 = arith.addf %0, %0 : tensor<*xf32>
      return %1 : tensor<*xf32>
    }"""
    )
    mlc.run_pipeline(module, PIPELINE)  # verifies: arith.addf needs its old operand type
    out = str(module)
    assert "tensor.cast %0 : tensor<3xf32> to tensor<*xf32>" in out
    assert "tensor.cast %0 : tensor<2xf32> to tensor<*xf32>" in out
    r0, r1 = run(module, "main", np.ones(2, np.float32), np.zeros(3, np.float32))
    np.testing.assert_allclose(r0, 2 * np.exp(np.ones(2, np.float32)), rtol=1e-6)
    np.testing.assert_array_equal(r1, np.full(3, 2.0, np.float32))


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize(
    "name,classes",
    [
        ("mlp", '[["arg0:0", "res0:0"]]'),
        ("attention", '[["arg0:0", "res0:0"], ["arg1:0", "arg2:0"]]'),
        ("conv", '[["arg0:0", "res0:0"]]'),
        ("linreg_cg", None),
    ],
)
def test_examples(name: str, classes: str | None) -> None:
    """The example programs: the dim classes the analysis finds (attention: the query length is
    the output's, the key and value lengths are equal), and equal values after the pass and
    canonicalize."""
    text = (EXAMPLES / f"{name}.mlir").read_text()
    module = mlc.parse(text)
    func = next(op for op in module.regions[0].blocks[0] if op.name == "func.func")
    g = np.random.default_rng(7)
    inputs = [
        g.standard_normal([3 if d == D else d for d in t.shape]).astype(np.float32)
        for t in func.func_type.inputs
    ]
    before = run(module, "main", *inputs)
    mlc.run_pipeline(
        module, "builtin.module(graph-shape-inference{annotate-dims=true},canonicalize)"
    )
    attr = next(op for op in module.regions[0].blocks[0] if op.name == "func.func").get_attr(
        "graph.dim_classes"
    )
    assert (str(attr) if attr is not None else None) == classes
    after = run(module, "main", *inputs)
    for b, a in zip(before, after):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def _call_chain(n: int) -> str:
    """A public function calling n private generic functions in a chain (callers first)."""
    u = "tensor<*xf32>"
    body = [f"  %c = tensor.cast %x : tensor<4x8xf32> to {u}"]
    v = "%c"
    for i in range(n):
        body.append(f"  %v{i} = call @f{i}({v}) : ({u}) -> {u}")
        v = f"%v{i}"
    funcs = [
        "func.func @main(%x: tensor<4x8xf32>) -> tensor<*xf32> {\n"
        + "\n".join(body)
        + f"\n  return {v} : {u}\n}}"
    ]
    for i in range(n):
        funcs.append(
            f"func.func private @f{i}(%a: {u}) -> {u} {{\n"
            f"  %0 = graph.relu %a : {u}\n  return %0 : {u}\n}}"
        )
    return "\n".join(funcs) + "\n"


def _refine_op_calls(text: str, monkeypatch: pytest.MonkeyPatch) -> int:
    from mlc.passes import graph_shape_inference as gsi

    count = 0
    original = gsi._Refiner.refine_op

    def counted(self: object, op: object) -> None:
        nonlocal count
        count += 1
        original(self, op)  # type: ignore[arg-type]

    monkeypatch.setattr(gsi._Refiner, "refine_op", counted)
    module = mlc.parse(text)
    mlc.run_pipeline(module, PIPELINE)
    return count


def test_call_chain_work_is_linear(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each callee's refined result used to re-sweep the whole caller (quadratic in the calls);
    # now only the uses of what changed are revisited.
    small = _refine_op_calls(_call_chain(25), monkeypatch)
    big = _refine_op_calls(_call_chain(100), monkeypatch)
    assert big <= 4.5 * small, (small, big)
    module = mlc.parse(_call_chain(3))
    mlc.run_pipeline(module, PIPELINE)
    text = str(module)
    assert "func.func private @f2(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32>" in text
    assert "func.func @main(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {" in text


def test_inference_is_computed_once_per_signature(monkeypatch: pytest.MonkeyPatch) -> None:
    # Refined result types are memoized per (op class, operand/result types, attributes): a
    # chain of identical layers infers once, and every layer still gets its refined type.
    import mlc.dialects.graph as G

    calls = 0
    original = G.MatmulOp.infer_from.__func__

    def counted(cls: type, *args: object) -> object:
        nonlocal calls
        calls += 1
        return original(cls, *args)

    monkeypatch.setattr(G.MatmulOp, "infer_from", classmethod(counted))
    # Every result is declared ?x?; each layer's operand is refined to ?x8 before the layer is
    # visited, so all 40 layers have one signature.
    lines, h, ht = [], "%x", "tensor<?x8xf32>"
    for i in range(40):
        lines.append(f"  %h{i} = graph.matmul {h}, %w : ({ht}, tensor<8x8xf32>) -> tensor<?x?xf32>")
        h, ht = f"%h{i}", "tensor<?x?xf32>"
    text = (
        "func.func @main(%x: tensor<?x8xf32>, %w: tensor<8x8xf32>, %v: tensor<4x8xf32>)"
        " -> tensor<?x?xf32> {\n" + "\n".join(lines) + f"\n  return {h} : {ht}\n}}\n"
    )
    module = mlc.parse(text)
    calls = 0  # (the parser's verifier infers too)
    pm = PassManager.parse(PIPELINE)
    pm.enable_verifier(False)
    assert pm.run(module)
    assert calls == 1, calls
    types = [str(op.results[0].type) for op in module.walk() if op.name == "graph.matmul"]
    assert types == ["tensor<?x8xf32>"] * 40
    # A conflicting op of a signature seen before is still an error.
    bad = text.replace(
        "%h5 = graph.matmul %h4, %w : (tensor<?x?xf32>, tensor<8x8xf32>)",
        "%h5 = graph.matmul %h4, %v : (tensor<?x?xf32>, tensor<4x8xf32>)",
    )
    assert bad != text
    with pytest.raises(PassError):
        mlc.run_pipeline(mlc.parse(bad), PIPELINE)
