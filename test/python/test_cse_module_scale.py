"""cse anchored on a module of many functions (the shape bench/pass_throughput.py times): each
isolated function is its own scope, every function gets the same eliminations, and the counts
in the statistics are exact (no op is visited twice, none is missed)."""

from __future__ import annotations

import mlc
from mlc.pass_manager import PassManager

_FN = """func.func @f{i}(%a: i32, %p: memref<4xi32>) -> i32 {{
  %c1 = arith.constant 1 : i32
  %c1b = arith.constant 1 : i32
  %0 = arith.addi %a, %c1 : i32
  %1 = arith.addi %a, %c1b : i32
  %dead = arith.subi %0, %1 : i32
  %i = arith.constant 0 : index
  %l0 = memref.load %p[%i] : memref<4xi32>
  %l1 = memref.load %p[%i] : memref<4xi32>
  memref.store %l1, %p[%i] : memref<4xi32>
  %l2 = memref.load %p[%i] : memref<4xi32>
  %s = arith.addi %0, %1 : i32
  %t = arith.addi %l0, %l1 : i32
  %u = arith.addi %s, %t : i32
  %v = arith.addi %u, %l2 : i32
  return %v : i32
}}"""

_CSE_PER_FN = 3  # %c1b, %1, %l1
_DCE_PER_FN = 1  # %dead (dead when visited)


def _run(text: str) -> tuple[mlc.Operation, str]:
    m = mlc.parse(text)
    pm = PassManager.parse("builtin.module(cse)")
    pm.enable_statistics()
    pm.run(m)
    return m, pm.statistics_report()


def _stat(report: str, name: str) -> int:
    for line in report.splitlines():
        if f" {name} " in line:
            return int(line.split("(S)")[1].split()[0])
    raise AssertionError(f"no statistic {name!r} in:\n{report}")


def test_each_function_is_its_own_scope_and_counts_are_exact() -> None:
    n = 300
    m, report = _run("\n".join(_FN.format(i=i) for i in range(n)) + "\n")
    assert _stat(report, "num-cse'd") == n * _CSE_PER_FN
    assert _stat(report, "num-dce'd") == n * _DCE_PER_FN
    one, _ = _run(_FN.format(i=0) + "\n")
    expected = one.print().splitlines()[1:-1]  # the function, without `module {` and `}`
    body = m.print().splitlines()[1:-1]
    fn_lines = len(expected)
    assert len(body) == n * fn_lines
    for i in range(n):
        got = body[i * fn_lines : (i + 1) * fn_lines]
        assert got == [line.replace("@f0(", f"@f{i}(") for line in expected]


def test_one_function_result() -> None:
    m, _ = _run(_FN.format(i=0) + "\n")
    text = m.print()
    # Constants, the add and the load before the store are reused; the load after the store
    # is not (the store may write what it reads); the dead subi is gone.
    assert text.count("arith.constant 1 ") == 1
    assert text.count("memref.load") == 2
    assert "arith.subi" not in text
    lines = [ln.strip() for ln in text.splitlines()]
    store = next(i for i, ln in enumerate(lines) if ln.startswith("memref.store"))
    loads = [i for i, ln in enumerate(lines) if "memref.load" in ln]
    assert loads[0] < store < loads[1]
