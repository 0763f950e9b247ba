"""IR throughput: parse, verify and print speed of mlc against xDSL and MLIR (C++), in one run.

    python bench/ir_throughput.py                 # 10k and 100k ops, all peers present
    python bench/ir_throughput.py --quick --no-xdsl --no-mlir
    python bench/ir_throughput.py --local-operands   # also the chain with nearby operands

Every tool runs on the same texts; ratios are what matter. mlc and MLIR are timed in
`--processes` fresh processes one after the other (default 3, `--repeats` rounds each), xDSL
once in this one; the best round of all is kept for the speeds, and the linearity verdict
takes the median of the rounds' 100k/10k ratios (each pairs the two sizes run back to back).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import os
import pstats
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Run from a checkout without installing: the repository root holds the `mlc` package.
_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

# Targets from STYLE.md / the bench brief.
TARGET_PARSE_VS_XDSL = 25.0
TARGET_PRINT_VS_XDSL = 10.0
TARGET_VERIFY_VS_XDSL = 20.0
TARGET_LINEARITY = 12.0  # time(100k) / time(10k)
# Rounds from which the linearity verdict takes the median of the per-round ratios.
MIN_PAIRED_ROUNDS = 3
TARGET_BYTES_PER_OP = 600.0
TARGET_STARTUP_MS = 150.0
TARGET_CALLS = {"parse": 60, "print": 30, "verify": 20}

_BINOPS = ("addi", "muli", "subi", "xori")
_OVERFLOW = {"addi", "muli", "subi"}  # ops with MLIR's `overflowFlags` property


# ---------------------------------------------------------------------------------------------
# Inputs


def chain_custom(n: int, seed: int = 0, window: int = 0) -> str:
    """One func.func holding `n` binary arith ops on i32 over earlier values (custom syntax):
    the previous result and one drawn at random from all earlier values, or with `window`
    from the last `window` of them."""
    rng = random.Random(seed)
    names = ["%a", "%b"]
    lines = ["func.func @chain(%a: i32, %b: i32) -> i32 {"]
    for i in range(n):
        op = _BINOPS[i % 4]
        lhs = names[-1]
        lo = max(0, len(names) - window) if window else 0
        rhs = names[rng.randrange(lo, len(names))]
        lines.append(f"  %{i} = arith.{op} {lhs}, {rhs} : i32")
        names.append(f"%{i}")
    lines.append(f"  return {names[-1]} : i32")
    lines.append("}")
    return "\n".join(lines) + "\n"


def chain_generic(n: int, seed: int = 0) -> str:
    """The same module as `chain_custom`, in MLIR's generic form (as `mlir-opt` prints it)."""
    rng = random.Random(seed)
    names = ["%arg0", "%arg1"]
    lines = [
        '"builtin.module"() ({',
        '  "func.func"() <{function_type = (i32, i32) -> i32, sym_name = "chain"}> ({',
        "  ^bb0(%arg0: i32, %arg1: i32):",
    ]
    for i in range(n):
        op = _BINOPS[i % 4]
        lhs = names[-1]
        rhs = names[rng.randrange(len(names))]
        props = " <{overflowFlags = #arith.overflow<none>}>" if op in _OVERFLOW else ""
        lines.append(f'    %{i} = "arith.{op}"({lhs}, {rhs}){props} : (i32, i32) -> i32')
        names.append(f"%{i}")
    lines.append(f'    "func.return"({names[-1]}) : (i32) -> ()')
    lines.append("  }) : () -> ()")
    lines.append("}) : () -> ()")
    return "\n".join(lines) + "\n"


def nested_custom(n: int) -> str:
    """About `n` ops in nested modules (3 levels) of small funcs calling their neighbours."""
    funcs_per_inner, inner_per_mid = 8, 4
    ops_per_func = 7  # func + 4 arith + call + return
    n_funcs = max(1, n // ops_per_func)
    out = ["module {"]
    f = 0
    mid = 0
    while f < n_funcs:
        out.append(f"  module @m{mid} {{")
        for inner in range(inner_per_mid):
            if f >= n_funcs:
                break
            out.append(f"    module @m{mid}_{inner} {{")
            first = f
            for _ in range(funcs_per_inner):
                if f >= n_funcs:
                    break
                out.append(f"      func.func @f{f}(%a: i32, %b: i32) -> i32 {{")
                out.append("        %0 = arith.addi %a, %b : i32")
                out.append("        %1 = arith.muli %0, %a : i32")
                out.append("        %2 = arith.subi %1, %0 : i32")
                out.append("        %3 = arith.xori %2, %b : i32")
                callee = f - 1 if f > first else f
                out.append(f"        %4 = func.call @f{callee}(%3, %1) : (i32, i32) -> i32")
                out.append("        return %4 : i32")
                out.append("      }")
                f += 1
            out.append("    }")
        out.append("  }")
        mid += 1
    out.append("}")
    return "\n".join(out) + "\n"


CASES: dict[str, tuple[Callable[[int], str], bool]] = {
    # name: (generator, generic form?)
    "chain": (chain_custom, False),
    "chain-generic": (chain_generic, True),
    "nested": (nested_custom, False),
}
# `--local-operands`: the chain with every op's second operand among the 64 values before it.
# At 100k ops a random earlier value lies anywhere in ~55 MB of IR, past the caches and the
# TLB's reach: a miss or two per op at 100k that 10k ops (~5 MB) mostly do not take. This case
# separates that from the cost of the algorithms.
LOCAL_WINDOW = 64


def chain_local(n: int) -> str:
    return chain_custom(n, window=LOCAL_WINDOW)


# ---------------------------------------------------------------------------------------------
# Tools under test: parse(text) -> module, verify(module), print(module) -> str


@dataclass
class Tool:
    name: str
    parse: Callable[[str], Any]
    verify: Callable[[Any], None]
    print: Callable[[Any, bool], str]
    note: str = ""
    once: bool = False  # timed in the first round only, on one module (slow peers)


def mlc_tool() -> Tool:
    import mlc

    def verify(m: Any) -> None:
        m.verify()

    def print_(m: Any, generic: bool) -> str:
        return m.print(generic=True) if generic else str(m)

    return Tool("mlc", mlc.parse, verify, print_)


def xdsl_tool() -> Tool | str:
    try:
        try:
            from xdsl.context import Context
        except ImportError:  # older xDSL
            from xdsl.ir import MLContext as Context  # type: ignore[no-redef]
        from xdsl.dialects.arith import Arith
        from xdsl.dialects.builtin import Builtin
        from xdsl.dialects.func import Func
        from xdsl.parser import Parser
        from xdsl.printer import Printer
    except ImportError as e:
        return f"xDSL not available ({e})"
    ctx = Context()
    for d in (Builtin, Func, Arith):
        ctx.load_dialect(d)

    def parse(text: str) -> Any:
        return Parser(ctx, text).parse_module()

    def verify(m: Any) -> None:
        m.verify()

    def print_(m: Any, generic: bool) -> str:
        buf = io.StringIO()
        Printer(stream=buf, print_generic_format=generic).print_op(m)
        return buf.getvalue()

    return Tool("xDSL", parse, verify, print_, once=True)


def mlir_tool() -> Tool | str:
    try:
        from iree.compiler import ir
    except ImportError as e:
        return f"MLIR bindings (iree.compiler.ir) not available ({e})"
    ctx = ir.Context()
    ctx.enable_multithreading(False)  # one thread, like the Python tools

    def parse(text: str) -> Any:
        return ir.Module.parse(text, ctx)

    def verify(m: Any) -> None:
        if not m.operation.verify():
            raise RuntimeError("MLIR verification failed")

    def print_(m: Any, generic: bool) -> str:
        return m.operation.get_asm(print_generic_op_form=generic, assume_verified=True)

    return Tool("MLIR", parse, verify, print_, note="MLIR's parse also verifies")


# ---------------------------------------------------------------------------------------------
# Measurement


# CPU time of this process by default: on a loaded machine wall time measures the neighbours.
# MLIR runs single-threaded (see mlir_tool), so its CPU time is comparable.
CLOCK: Callable[[], float] = time.process_time


@dataclass
class Timings:
    parse: float = float("nan")
    verify: float = float("nan")
    print: float = float("nan")
    error: str = ""


def _timed_each(fn: Callable[[Any], Any], items: list[Any]) -> float:
    """Mean CPU time of `fn` on each item in turn, the cyclic GC's young generation collected
    before each (untimed): mlc's parse, verify and print pause the collector and leave their
    allocations to it when they re-enable it, so a next call in the same timed region would
    pay for the previous one's. (A full collection per item, over up to 10 live modules,
    would make the run take several times longer; `measure` does one per round.)"""
    total = 0.0
    for item in items:
        gc.collect(0)
        t0 = CLOCK()
        fn(item)
        total += CLOCK() - t0
    return total / len(items)


def _parse_copies(tool: Tool, text: str, copies: int) -> tuple[float, list[Any]]:
    """Mean CPU time of `copies` parses of `text` one after the other, and the modules."""
    modules: list[Any] = []
    keep = modules.append
    return _timed_each(lambda s: keep(tool.parse(s)), [text] * copies), modules


def measure(tool: Tool, text: str, generic: bool, copies: int = 1) -> Timings:
    """One round: parse `copies` modules back to back, then verify each, then print each; the
    times are the means per module.

    `copies` gives every size the same work per sample (10 modules of 10k ops for one of
    100k): many short runs on one warm module measure a 10k module in the caches, while a
    100k one never fits, which inflated the 100k/10k ratio.
    """
    try:
        parse_time, modules = _parse_copies(tool, text, copies)
        verify_time = _timed_each(tool.verify, modules)
        print_time = _timed_each(lambda m: tool.print(m, generic), modules)
        t = Timings(parse_time, verify_time, print_time)
    except Exception as e:  # a peer that cannot handle the input is reported, not fatal
        t = Timings(error=f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:120])
    modules = []
    gc.collect()
    return t


def _best(a: Timings | None, b: Timings) -> Timings:
    if a is None or a.error:
        return b
    if b.error:
        return a
    return Timings(min(a.parse, b.parse), min(a.verify, b.verify), min(a.print, b.print))


def count_ops(module: Any) -> int:
    return sum(1 for _ in module.walk())


def bytes_per_op(tool: Tool, text: str, n_ops: int) -> tuple[float, float]:
    """Bytes still allocated by the parsed module, and the parse's peak, per op (tracemalloc)."""
    gc.collect()
    tracemalloc.start()
    try:
        base, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        module = tool.parse(text)
        gc.collect()
        current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del module
    gc.collect()
    return (current - base) / n_ops, (peak - base) / n_ops


def calls_per_op(module_text: str, n_ops: int) -> dict[str, float]:
    """Python function calls per op (cProfile) for mlc's parse, verify and print."""
    import mlc

    out: dict[str, float] = {}
    module = mlc.parse(module_text)  # warm caches (lazy dialect loading) outside the profile
    for phase, fn in (
        ("parse", lambda: mlc.parse(module_text)),
        ("verify", lambda: module.verify()),
        ("print", lambda: str(module)),
    ):
        prof = cProfile.Profile()
        prof.enable()
        fn()
        prof.disable()
        out[phase] = pstats.Stats(prof).total_calls / n_ops  # type: ignore[attr-defined]
    return out


def _run_child(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float, int, str]:
    """Wall and CPU (user + system) seconds of one child process, its exit code and stderr."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.returncode, proc.stderr


def startup_ms(runs: int = 5) -> tuple[float, float, str]:
    """Median wall and CPU milliseconds of `mlc-opt --version` as a subprocess, and how it ran."""
    beside = Path(sys.executable).parent / "mlc-opt"
    exe = str(beside) if beside.exists() else shutil.which("mlc-opt")
    if exe is not None:
        cmd = [exe, "--version"]
        how = "mlc-opt --version"
    else:
        cmd = [
            sys.executable,
            "-c",
            "import sys; from mlc.tools.mlc_opt import main; sys.exit(main(['--version']))",
        ]
        how = "python -c main(['--version']) (no mlc-opt script installed)"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(_ROOT), env.get("PYTHONPATH", "")]))
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu, code, err = _run_child(cmd, env)
        if code != 0:
            raise RuntimeError(f"{how} exited {code}: {err.strip()[:200]}")
        walls.append(wall)
        cpus.append(cpu)
    return statistics.median(walls) * 1e3, statistics.median(cpus) * 1e3, how


def python_startup_ms(runs: int = 5) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu, _, _ = _run_child([sys.executable, "-c", "pass"])
        walls.append(wall)
        cpus.append(cpu)
    return statistics.median(walls) * 1e3, statistics.median(cpus) * 1e3


# ---------------------------------------------------------------------------------------------
# Report


def _rate(n: int, seconds: float) -> str:
    if seconds != seconds:  # NaN
        return "-"
    r = n / seconds
    if r >= 1e6:
        return f"{r / 1e6:.2f}M"
    if r >= 1e3:
        return f"{r / 1e3:.1f}k"
    return f"{r:.0f}"


def _ratio(a: float, b: float) -> float:
    """How many times faster `a` (mlc) is than `b` (a peer): b_time / a_time."""
    if a != a or b != b or a <= 0:
        return float("nan")
    return b / a


def _fmt_ratio(r: float, target: float | None = None) -> str:
    if r != r:
        return "-"
    text = f"{r:.2f}x" if r < 10 else f"{r:.1f}x"
    if target is not None:
        text += f" {'ok' if r >= target else 'MISS'}(>={target:g}x)"
    return text


@dataclass
class Results:
    sizes: list[int]
    n_ops: dict[tuple[str, int], int] = field(default_factory=dict)
    times: dict[tuple[str, str, int], Timings] = field(default_factory=dict)  # (tool, case, size)
    # Every round's timings of the tools timed more than once, for per-round ratios.
    rounds: dict[tuple[str, str, int], list[Timings]] = field(default_factory=dict)
    memory: dict[tuple[str, str, int], tuple[float, float]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def run(
    sizes: list[int],
    use_xdsl: bool | None,
    use_mlir: bool | None,
    log: Callable[[str], None],
    repeats: int = 3,
    use_mlc: bool = True,
    memory: bool = True,
) -> Results:
    res = Results(sizes)
    tools = [mlc_tool()] if use_mlc else []
    for enabled, make, label in ((use_xdsl, xdsl_tool, "xDSL"), (use_mlir, mlir_tool, "MLIR")):
        if enabled is None:  # timed in another process (see run_workers)
            continue
        if not enabled:
            res.notes.append(f"{label}: skipped (--no-{label.lower()})")
            continue
        t = make()
        if isinstance(t, str):
            res.notes.append(f"{label}: skipped, {t}")
        else:
            tools.append(t)
            if t.note:
                res.notes.append(f"{label}: {t.note}")
    import mlc

    texts: dict[tuple[str, int], str] = {}
    for size in sizes:
        for case, (gen, _) in CASES.items():
            text = texts[(case, size)] = gen(size)
            module = mlc.parse(text)
            res.n_ops[(case, size)] = count_ops(module)
            del module
    # Within a round one tool's sizes of one case run back to back, smallest first in even
    # rounds and last in odd ones: the linearity ratio of a round then pairs two samples taken
    # seconds apart, whichever way the host's speed drifts. xDSL runs in the first round only.
    for round_ in range(repeats):
        order = sizes if round_ % 2 == 0 else sizes[::-1]
        for case, (_, generic) in CASES.items():
            for tool in tools:
                for size in order:
                    if tool.once and round_ > 0:
                        continue
                    log(f"  round {round_ + 1}: {tool.name:5s} {case:14s} {size:>7d} ...")
                    # Equal work per sample at every size for the tools timed more than once.
                    copies = 1 if tool.once else max(1, sizes[-1] // size)
                    key = (tool.name, case, size)
                    t = measure(tool, texts[(case, size)], generic, copies)
                    if t.error and round_ == 0:
                        res.notes.append(f"{tool.name} on {case}/{size}: {t.error}")
                    res.times[key] = _best(res.times.get(key), t)
                    if not tool.once and not t.error:
                        res.rounds.setdefault(key, []).append(t)
    # Memory on the chain: every size for mlc, the smallest for xDSL (tracemalloc is slow).
    if memory:
        mem_tools = [mlc_tool()] + [t for t in tools if t.name == "xDSL"]
        for size in sizes:
            for tool in mem_tools:
                if tool.name == "mlc" or size == sizes[0]:
                    log(f"  {tool.name:5s} memory {size:>7d} ...")
                    n = res.n_ops[("chain", size)]
                    res.memory[(tool.name, "chain", size)] = bytes_per_op(
                        tool, texts[("chain", size)], n
                    )
    return res


def _worker_json(res: Results) -> str:
    """A worker's rounds (see `run_workers`) as JSON."""
    rounds = [
        [tool, case, size, [[t.parse, t.verify, t.print] for t in ts]]
        for (tool, case, size), ts in res.rounds.items()
    ]
    return json.dumps({"rounds": rounds, "notes": res.notes})


def run_workers(res: Results, argv: list[str], processes: int, log: Callable[[str], None]) -> None:
    """Time mlc and MLIR in `processes` fresh processes, one after the other, each running
    `argv` (its rounds) as a worker, and pool their rounds into `res`: best-of over all of
    them, and the per-round pairs of each process (a process's heap and the addresses its
    modules land on move its times too, as pyperf's many worker processes account for)."""
    for i in range(processes):
        log(f"  process {i + 1} of {processes} ...")
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", *argv]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
            raise RuntimeError(f"worker process {i + 1} failed: {tail}")
        sys.stderr.write(proc.stderr)
        data = json.loads(proc.stdout.strip().splitlines()[-1])
        got: dict[tuple[str, str], dict[int, list[Timings]]] = {}
        for tool, case, size, ts in data["rounds"]:
            got.setdefault((tool, case), {})[size] = [Timings(*t) for t in ts]
        for (tool, case), by_size in got.items():
            # Pairs within this process only: as many rounds of every size as all have.
            n = min(len(ts) for ts in by_size.values())
            for size, ts in by_size.items():
                key = (tool, case, size)
                res.rounds.setdefault(key, []).extend(ts[:n])
                for t in ts:
                    res.times[key] = _best(res.times.get(key), t)
        for note in data["notes"]:
            if note not in res.notes:
                res.notes.append(note)


def _linearity(
    res: Results, tool: str, case: str, phase: str, small: int, big: int
) -> tuple[float, float, int]:
    """time(big) / time(small) for one phase: the ratio of the best rounds, the median of the
    per-round ratios, and the number of rounds paired."""
    a = getattr(res.times[(tool, case, small)], phase)
    b = getattr(res.times[(tool, case, big)], phase)
    best = b / a if a == a and b == b and a > 0 else float("nan")
    smalls = res.rounds.get((tool, case, small), [])
    bigs = res.rounds.get((tool, case, big), [])
    paired = [
        getattr(y, phase) / getattr(x, phase) for x, y in zip(smalls, bigs) if getattr(x, phase) > 0
    ]
    median = statistics.median(paired) if paired else float("nan")
    return best, median, len(paired)


def report(
    res: Results,
    calls: dict[str, float] | None,
    startup: tuple[float, float, str, tuple[float, float]] | None,
) -> str:
    out: list[str] = []
    w = out.append
    tools_present = sorted({k[0] for k in res.times}, key=["mlc", "xDSL", "MLIR"].index)
    targets = {
        "parse": TARGET_PARSE_VS_XDSL,
        "verify": TARGET_VERIFY_VS_XDSL,
        "print": TARGET_PRINT_VS_XDSL,
    }
    head = f"{'case':14s} {'ops':>7s} {'phase':6s}"
    for t in tools_present:
        head += f" {t + ' ops/s':>11s}"
    if "xDSL" in tools_present:
        head += f"  {'mlc/xDSL':<22s}"
    if "MLIR" in tools_present:
        head += f" {'mlc/MLIR':>9s}"
    w("== throughput (ops/s; ratios are speed-ups of mlc, >1 means mlc is faster) ==")
    w(head)
    for size in res.sizes:
        for case in CASES:
            n = res.n_ops[(case, size)]
            for phase in ("parse", "verify", "print"):
                line = f"{case:14s} {n:>7d} {phase:6s}"
                for t in tools_present:
                    line += f" {_rate(n, getattr(res.times[(t, case, size)], phase)):>11s}"
                mlc_t = getattr(res.times[("mlc", case, size)], phase)
                if "xDSL" in tools_present:
                    r = _ratio(mlc_t, getattr(res.times[("xDSL", case, size)], phase))
                    line += f"  {_fmt_ratio(r, targets[phase]):<22s}"
                if "MLIR" in tools_present:
                    r = _ratio(mlc_t, getattr(res.times[("MLIR", case, size)], phase))
                    line += f" {_fmt_ratio(r):>9s}"
                w(line)
    if len(res.sizes) >= 2:
        small, big = res.sizes[0], res.sizes[-1]
        # The target allows 20% over linear: 12x for 10x the ops.
        limit = TARGET_LINEARITY / 10 * (big / small)
        w("")
        head = f"mlc time({big}) / time({small}), ideal {big / small:g}x, target <= {limit:g}x"
        w(f"== linearity: {head} ==")
        w(
            "(median over the rounds of the ratio of the two sizes' times in the same round, "
            "where the two ran back to back; in brackets the ratio of each size's best round. "
            f"The verdict is on the median when there are at least {MIN_PAIRED_ROUNDS} rounds: "
            "the best rounds of the two sizes may come from different minutes of a host whose "
            "speed moves. MLIR's ratios, when present, show what the host does to C++.)"
        )
        for tool in [t for t in ("mlc", "MLIR") if t in tools_present]:
            for case in CASES:
                parts = []
                for phase in ("parse", "verify", "print"):
                    best, paired, n = _linearity(res, tool, case, phase, small, big)
                    verdict = paired if n >= MIN_PAIRED_ROUNDS else best
                    flag = ""
                    if tool == "mlc" and verdict == verdict:
                        flag = " ok" if verdict <= limit else " MISS"
                    shown = f"{paired:.1f}x" if n else "-"
                    parts.append(f"{phase} {shown}{flag} ({best:.1f}x)")
                w(f"{tool:5s} {case:14s} " + ", ".join(parts))
    if res.memory:
        w("")
        w(
            f"== memory (tracemalloc, chain): bytes per op retained by the parsed module "
            f"(target <= {TARGET_BYTES_PER_OP:g}) / peak during parse =="
        )
        for (tool, _, size), (kept, peak) in sorted(
            res.memory.items(), key=lambda kv: (kv[0][2], kv[0][0] != "mlc")
        ):
            flag = (" ok" if kept <= TARGET_BYTES_PER_OP else " MISS") if tool == "mlc" else ""
            w(f"{tool:5s} {size:>7d} ops: {kept:7.0f} B/op retained{flag}, {peak:7.0f} B/op peak")
    if calls:
        w("")
        w("== Python calls per op (cProfile, mlc, chain at the smallest size) ==")
        parts = []
        for phase in ("parse", "verify", "print"):
            n, limit_calls = calls[phase], TARGET_CALLS[phase]
            parts.append(f"{phase} {n:.1f} {'ok' if n <= limit_calls else 'MISS'}(<={limit_calls})")
        w(", ".join(parts))
    if startup:
        wall, cpu, how, (py_wall, py_cpu) = startup
        ms = cpu if CLOCK is time.process_time else wall
        w("")
        w(
            f"== start-up, median of 5: {how}: {wall:.0f} ms wall, {cpu:.0f} ms CPU "
            f"{'ok' if ms < TARGET_STARTUP_MS else 'MISS'}(<{TARGET_STARTUP_MS:g} ms); "
            f"bare `python -c pass`: {py_wall:.0f} ms wall, {py_cpu:.0f} ms CPU =="
        )
    if res.notes:
        w("")
        w("notes:")
        for note in res.notes:
            w(f"  - {note}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--sizes", default="10000,100000", help="comma-separated op counts")
    ap.add_argument("--quick", action="store_true", help="10k ops only (smoke test)")
    ap.add_argument(
        "--repeats",
        type=int,
        default=4,
        help="rounds of mlc and MLIR per process: the best of all is kept, and linearity takes "
        "the median of the rounds' ratios",
    )
    ap.add_argument(
        "--processes",
        type=int,
        default=3,
        help="fresh processes, one after the other, that time mlc and MLIR (1: this one)",
    )
    ap.add_argument(
        "--local-operands",
        action="store_true",
        help=f"also time the chain with operands among the last {LOCAL_WINDOW} values "
        "(memory locality against algorithmic cost in the linearity)",
    )
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--no-xdsl", action="store_true", help="skip xDSL")
    ap.add_argument("--no-mlir", action="store_true", help="skip MLIR (iree.compiler.ir)")
    ap.add_argument("--no-startup", action="store_true", help="skip the mlc-opt --version timing")
    ap.add_argument(
        "--clock",
        choices=["cpu", "wall"],
        default="cpu",
        help="process CPU time (default; robust on a loaded machine) or wall time",
    )
    ap.add_argument("-v", "--verbose", action="store_true", help="log progress to stderr")
    args = ap.parse_args(argv)
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    sizes = [10000] if args.quick else sorted(int(s) for s in args.sizes.split(",") if s)

    def log(msg: str) -> None:
        if args.verbose:
            print(msg, file=sys.stderr, flush=True)

    repeats, processes = max(1, args.repeats), max(1, args.processes)
    if args.local_operands:
        CASES["chain-local"] = (chain_local, False)
    if args.worker:  # mlc and MLIR only, rounds as JSON on stdout (see run_workers)
        res = run(sizes, None, not args.no_mlir, log, repeats, memory=False)
        print(_worker_json(res))
        return 0
    where = f"{processes} processes x {repeats} rounds" if processes > 1 else f"{repeats} rounds"
    print(
        f"mlc IR throughput: python {sys.version.split()[0]}, sizes {sizes}, {args.clock} time, "
        f"mlc and MLIR: {where} (equal work per sample: {sizes[-1]} ops' worth of modules "
        "back to back), xDSL once",
        flush=True,
    )
    if processes == 1:
        res = run(sizes, not args.no_xdsl, not args.no_mlir, log, repeats)
    else:
        res = run(sizes, not args.no_xdsl, None, log, 1, use_mlc=False)
        worker_argv = ["--sizes", ",".join(map(str, sizes)), "--repeats", str(repeats)]
        worker_argv += (
            ["--clock", args.clock] + ["--no-mlir"] * args.no_mlir + ["-v"] * args.verbose
        )
        worker_argv += ["--local-operands"] * args.local_operands
        run_workers(res, worker_argv, processes, log)
    calls = calls_per_op(CASES["chain"][0](sizes[0]), res.n_ops[("chain", sizes[0])])
    startup = None
    if not args.no_startup:
        try:
            wall, cpu, how = startup_ms()
            startup = (wall, cpu, how, python_startup_ms())
        except (OSError, RuntimeError) as e:
            res.notes.append(f"start-up not measured: {e}")
    print(report(res, calls, startup))
    return 0


if __name__ == "__main__":
    sys.exit(main())
