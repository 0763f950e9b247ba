"""Constant folds of integer arithmetic wrap modulo 2^N (signed reading), checked against
Python modular arithmetic: convert-to-llvm's index folds (i64) and the arith folders on
i8/i32/i64 followed by convert-to-llvm."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from mlc.lowering.to_llvm import wrap_signed

import mlc


def _returned_constant(text: str, pipeline: str) -> int:
    module = mlc.parse(text)
    mlc.run_pipeline(module, pipeline)
    ret = [op for op in module.walk() if op.name == "llvm.return"][0]
    value = ret.operands[0].defining_op().get_attr("value").value  # type: ignore[union-attr]
    # Every integer constant the lowering made is in its type's signed range.
    for op in module.walk():
        if op.name == "llvm.mlir.constant":
            attr = op.get_attr("value")
            width = attr.type.width  # type: ignore[union-attr]
            if width > 1:
                assert -(1 << (width - 1)) <= attr.value < (1 << (width - 1))  # type: ignore[union-attr]
    return value  # type: ignore[no-any-return]


I64_VALUES = st.one_of(
    st.integers(-(1 << 63), (1 << 63) - 1),
    st.sampled_from([0, 1, -1, (1 << 63) - 1, -(1 << 63), 1 << 62, -(1 << 62), 3]),
)

# One affine op per step, so that map simplification (exact over unbounded integers) cannot
# reassociate across a wrap: each step is what the lowered code computes on i64.
STEPS = st.lists(
    st.one_of(
        st.tuples(st.sampled_from(["add", "min", "max"]), I64_VALUES),
        st.tuples(st.just("mul"), st.integers(-(1 << 40), 1 << 40)),
        st.tuples(st.sampled_from(["floordiv", "ceildiv", "mod"]), st.integers(1, 1 << 20)),
    ),
    min_size=1,
    max_size=8,
)


def _apply(kind: str, a: int, c: int) -> int:
    if kind == "add":
        return wrap_signed(a + c, 64)
    if kind == "mul":
        return wrap_signed(a * c, 64)
    if kind == "min":
        return min(a, c)
    if kind == "max":
        return max(a, c)
    if kind == "floordiv":
        return a // c
    if kind == "ceildiv":
        return -(-a // c)
    return a % c


@settings(max_examples=150, deadline=None)
@given(start=I64_VALUES, steps=STEPS)
def test_index_folds_wrap_like_i64(start: int, steps: list[tuple[str, int]]) -> None:
    lines = [f"  %v0 = arith.constant {start} : index"]
    expected = start
    for i, (kind, c) in enumerate(steps):
        prev, cur = f"%v{i}", f"%v{i + 1}"
        if kind in ("add", "min", "max"):
            lines.append(f"  %k{i} = arith.constant {c} : index")
            op = {"add": "affine.apply", "min": "affine.min", "max": "affine.max"}[kind]
            expr = "d0 + d1" if kind == "add" else "d0, d1"
            lines.append(f"  {cur} = {op} affine_map<(d0, d1) -> ({expr})>({prev}, %k{i})")
        elif kind == "mul":
            lines.append(f"  {cur} = affine.apply affine_map<(d0) -> (d0 * {c})>({prev})")
        else:
            lines.append(f"  {cur} = affine.apply affine_map<(d0) -> (d0 {kind} {c})>({prev})")
        expected = _apply(kind, expected, c)
    body = "\n".join(lines)
    text = f"func.func @f() -> index {{\n{body}\n  return %v{len(steps)} : index\n}}"
    got = _returned_constant(text, "builtin.module(convert-to-llvm)")
    assert got == expected, text


ARITH = {
    "addi": lambda a, b, w: a + b,
    "subi": lambda a, b, w: a - b,
    "muli": lambda a, b, w: a * b,
    "andi": lambda a, b, w: a & b,
    "ori": lambda a, b, w: a | b,
    "xori": lambda a, b, w: a ^ b,
    "maxsi": lambda a, b, w: max(a, b),
    "minsi": lambda a, b, w: min(a, b),
    "maxui": lambda a, b, w: max(a % (1 << w), b % (1 << w)),
    "minui": lambda a, b, w: min(a % (1 << w), b % (1 << w)),
    "divsi": lambda a, b, w: abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1),
    "remsi": lambda a, b, w: abs(a) % abs(b) * (1 if a >= 0 else -1),
    "divui": lambda a, b, w: (a % (1 << w)) // (b % (1 << w)),
    "remui": lambda a, b, w: (a % (1 << w)) % (b % (1 << w)),
}


@st.composite
def _arith_case(draw: st.DrawFn) -> tuple[int, list[tuple[str, int]], int]:
    width = draw(st.sampled_from([8, 32, 64]))
    lo, hi = -(1 << (width - 1)), (1 << (width - 1)) - 1
    values = st.one_of(st.integers(lo, hi), st.sampled_from([0, 1, -1, lo, hi, lo + 1]))
    start = draw(values)
    steps = draw(st.lists(st.tuples(st.sampled_from(sorted(ARITH)), values), max_size=6))
    return width, steps, start


@settings(max_examples=150, deadline=None)
@given(case=_arith_case())
def test_arith_folds_wrap(case: tuple[int, list[tuple[str, int]], int]) -> None:
    width, steps, start = case
    t = f"i{width}"
    lines = [f"  %v0 = arith.constant {start} : {t}"]
    expected, n = start, 0
    for kind, c in steps:
        divides = kind in ("divsi", "remsi", "divui", "remui")
        overflows = kind == "divsi" and c == -1 and expected == -(1 << (width - 1))
        if divides and (c == 0 or overflows):
            continue  # undefined behaviour: not folded, nothing to compare
        lines.append(f"  %k{n} = arith.constant {c} : {t}")
        lines.append(f"  %v{n + 1} = arith.{kind} %v{n}, %k{n} : {t}")
        expected = wrap_signed(ARITH[kind](expected, c, width), width)
        n += 1
    body = "\n".join(lines)
    text = f"func.func @f() -> {t} {{\n{body}\n  return %v{n} : {t}\n}}"
    got = _returned_constant(text, "builtin.module(canonicalize,convert-to-llvm)")
    assert got == expected, text
