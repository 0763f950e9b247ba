"""Compile time of the examples through `lower-to-cpu` to a callable, per stage: parse, the
pipeline's pass groups, the verifier, the translation to LLVM IR, and LLVM's phases (parse and
checks, optimization, machine code, MCJIT linking) compiled whole on one thread and split on
several; then `mlc.compile` cold and with both caches hit, and a fresh process (import, first
compile, first call).

    python bench/compile_time.py                   # every example that compiles, 3 runs each
    python bench/compile_time.py mlp --runs 5      # one example
    python bench/compile_time.py --no-subprocess   # skip the fresh-process figures
    python bench/compile_time.py -v                # also every pass of the pipeline

Stage times are wall clock except the LLVM optimization and machine-code rows, which are thread
CPU seconds summed over the parts (what a single core would spend). Every figure is the best of
`--runs` (the run with the best total); the machine's load average is printed, because the wall
figures of the split compile (and all of them) depend on free cores. The fresh-process line
is followed by how many of mlc's modules that process compiled from source for want of current
bytecode (`make venv` byte-compiles the project; an edited module waits for the next one).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mlc.lowering import compile as lowering_compile

import mlc
from mlc.runtime import cache, compile_llvm_ir, host_target
from mlc.runtime.engine import default_compile_threads

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ("mlp", "attention", "conv", "linreg_cg")
# A pass group starts at each of these passes (the first group: the graph-level passes).
GROUP_STARTS = (
    "convert-graph-to-tensor",
    "bufferize",
    "contraction-microkernel",
    "convert-tensor-to-affine",
    "affine-loop-fusion",
    "convert-to-llvm",
)

FRESH = """
import json, sys, time
t0 = time.perf_counter()
import numpy as np
import mlc
t1, c1 = time.perf_counter(), time.process_time()
compiled = mlc.compile(open(sys.argv[1]).read())
t2, c2 = time.perf_counter(), time.process_time()
sig = compiled.signatures["main"]
rng = np.random.default_rng(0)
args = [rng.standard_normal([d if isinstance(d, int) else 4 for d in a.shape])
        .astype(a.np_dtype) for a in sig.inputs]
compiled.main(*args)
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "compile": t2 - t1, "call": t3 - t2}))
print(json.dumps({"compile_cpu": c2 - c1, **stale_bytecode()}))
"""
# Appended to FRESH: which of mlc's imported modules had no current bytecode (no .pyc, or one
# whose recorded source mtime/size or hash no longer matches), i.e. were compiled from source.
BYTECODE_CHECK = """
def stale_bytecode():
    import os
    from importlib.util import MAGIC_NUMBER, source_hash

    def current(mod):
        src, cached = getattr(mod, "__file__", None), getattr(mod.__spec__, "cached", None)
        if not src or not src.endswith(".py"):
            return True
        try:
            with open(cached, "rb") as f:
                head = f.read(16)
            st = os.stat(src)
        except (OSError, TypeError):
            return False
        flags = int.from_bytes(head[4:8], "little")
        if head[:4] != MAGIC_NUMBER:
            return False
        if flags & 1:  # hash-based (checked when bit 2 is set)
            with open(src, "rb") as f:
                return not flags & 2 or head[8:16] == source_hash(f.read())
        mtime, size = int.from_bytes(head[8:12], "little"), int.from_bytes(head[12:16], "little")
        return mtime == int(st.st_mtime) & 0xFFFFFFFF and size == st.st_size & 0xFFFFFFFF

    own = [m for n, m in list(sys.modules.items()) if n == "mlc" or n.startswith("mlc.")]
    return {"modules": len(own), "from_source": sorted(m.__name__ for m in own if not current(m))}
"""


Staged = tuple[list[tuple[str, float]], str]  # (label, seconds) rows and a text


def ms(s: float) -> str:
    return f"{s * 1e3:8.1f} ms"


def staged(text: str, verbose: bool) -> Staged:
    """Parse, the pass groups (and each pass when `verbose`), the verifier once at the end (as
    `mlc.compile` runs it) and the translation; returns the rows and the LLVM IR."""
    from mlc.lowering.translate import translate_module

    from mlc.diagnostics import REMARK, engine
    from mlc.pass_manager import PassManager

    t0 = time.perf_counter()
    module = mlc.parse(text)
    module.verify()
    t1 = time.perf_counter()
    pm = PassManager.parse("lower-to-cpu", "builtin.module")
    pm.enable_verifier(False)
    pm.enable_timing()
    outer = engine.current_handler
    with engine.handler(lambda d: None if d.severity == REMARK else outer(d)):
        pm.run(module)  # remarks dropped, as mlc.compile keeps them instead of printing
    timing = pm.timing
    assert timing is not None
    t2 = time.perf_counter()
    module.verify()
    t3 = time.perf_counter()
    llvm_ir = translate_module(module)
    t4 = time.perf_counter()
    passes = [(e.name, timing.times.get(id(e), 0.0)) for e in pm.passes()]
    rows = [("parse + verify", t1 - t0)]
    groups: list[list[tuple[str, float]]] = [[]]
    for name, t in passes:
        if name in GROUP_STARTS:
            groups.append([])
        groups[-1].append((name, t))
    for k, group in enumerate(g for g in groups if g):
        head = "graph passes" if k == 0 else group[0][0]
        rows.append((f"  {head} (+{len(group) - 1})", sum(t for _, t in group)))
        if verbose:
            rows += [(f"      {name}", t) for name, t in group]
    rows.append(("pipeline (pass manager, total)", t2 - t1))
    rows.append(("verifier (once)", t3 - t2))
    rows.append(("translate to LLVM IR", t4 - t3))
    return rows, llvm_ir


def llvm_phases(llvm_ir: str, signatures: dict, threads: int) -> Staged:
    m = compile_llvm_ir(llvm_ir, signatures, use_cache=False, compile_threads=threads)
    e = m.engine
    t = e.timings
    rows = [
        ("LLVM parse + checks + split", t["parse"]),
        ("LLVM optimize (CPU, all parts)", t["optimize_cpu"]),
        ("LLVM machine code (CPU, all parts)", t["codegen_cpu"]),
        ("LLVM optimize + machine code (wall)", t["compile"]),
        ("LLVM load (MCJIT link)", t["load"]),
    ]
    rows.append(("  critical path on idle cores (CPU)", critical_path(e.parts, e.threads)))
    rows.append(("LLVM total (wall)", t["parse"] + t["compile"] + t["load"]))
    note = f"{len(e.parts)} part(s) on {e.threads} thread(s): {e.split}"
    return rows, note


def critical_path(parts: tuple, threads: int) -> float:
    """When the last of `threads` idle cores would finish the parts, taken in order (largest
    first, as the engine hands them out) by whichever thread is free, at their CPU times."""
    free = [0.0] * threads
    for p in parts:
        k = free.index(min(free))
        free[k] += p.optimize + p.codegen
    return max(free)


def best_of(runs: int, fn: Callable[[], Staged]) -> Staged:
    """The run of `fn` with the smallest total: its last row if that is a total, else the sum
    of its top-level rows."""

    def total(r: Staged) -> float:
        if "total" in r[0][-1][0]:
            return r[0][-1][1]
        return sum(t for label, t in r[0] if not label.startswith(" "))

    return min((fn() for _ in range(runs)), key=total)


def cold_compile(text: str, threads: int, runs: int) -> dict[int, list[tuple[float, ...]]]:
    """(wall, process CPU, modeled) seconds of `mlc.compile` with both caches cleared, on 1
    and on `threads` compile threads, interleaved so that both see the same machine load.
    Modeled: what the compile would take on idle cores, the serial CPU time (everything but
    LLVM's optimization and machine code) plus the parts' critical path."""
    out: dict[int, list[tuple[float, ...]]] = {1: [], threads: []}
    for _ in range(runs):
        for n in out:
            lowering_compile.clear_cache()
            cache.clear()
            t, c = time.perf_counter(), time.process_time()
            e = mlc.compile(text, compile_threads=n).jit.engine
            wall, cpu = time.perf_counter() - t, time.process_time() - c
            serial = cpu - e.timings["optimize_cpu"] - e.timings["codegen_cpu"]
            out[n].append((wall, cpu, serial + critical_path(e.parts, e.threads)))
    return out


def fresh_process(path: Path, runs: int) -> tuple[dict[str, list[float]], dict[str, Any]]:
    """Seconds of each phase of `runs` fresh processes; the process CPU seconds of their first
    compiles (`compile_cpu`) and the bytecode check of the last one."""
    out: dict[str, list[float]] = {"import": [], "compile": [], "call": []}
    extra: dict[str, Any] = {"compile_cpu": []}
    script = BYTECODE_CHECK + FRESH
    for _ in range(runs):
        proc = subprocess.run(
            [sys.executable, "-c", script, str(path)], capture_output=True, text=True, cwd=ROOT
        )
        if proc.returncode:
            lines = (proc.stderr.strip() or f"exit status {proc.returncode}").splitlines()
            print(f"fresh process failed: {lines[-1]}")
            continue
        times, checks = map(json.loads, proc.stdout.strip().splitlines()[-2:])
        for k, v in times.items():
            out[k].append(v)
        extra["compile_cpu"].append(checks.pop("compile_cpu"))
        extra.update(checks)
    return out, extra


def bench(name: str, runs: int, threads: int, verbose: bool, subproc: bool) -> None:
    path = ROOT / "examples" / f"{name}.mlir"
    text = path.read_text()
    signatures = mlc.compile(text).signatures  # warm: imports done, caches filled
    rows, llvm_ir = best_of(runs, lambda: staged(text, verbose))
    one, note1 = best_of(runs, lambda: llvm_phases(llvm_ir, signatures, 1))
    many, note_n = best_of(runs, lambda: llvm_phases(llvm_ir, signatures, threads))
    print(f"== examples/{name}.mlir: {llvm_ir.count(chr(10))} lines of LLVM IR ==")
    print(f"   1 thread:  {note1}\n   {threads} threads: {note_n}")
    for label, t in rows:
        print(f"{label:44} {ms(t)}")
    print(f"{'':44} {'1 thread':>11} {f'{threads} threads':>11}")
    for (label, a), (_, b) in zip(one, many):
        print(f"{label:44} {ms(a)} {ms(b)}")
    front = rows[0][1] + sum(t for label, t in rows[1:] if not label.startswith("  "))
    for k, (label, _) in enumerate(one):
        if label == "LLVM total (wall)":
            print(f"{'sum of the stages':44} {ms(front + one[k][1])} {ms(front + many[k][1])}")
    cold = cold_compile(text, threads, runs)
    verdicts: list[str] = []
    for k, label in enumerate(("wall", "process CPU", "modeled on idle cores")):
        best = {n: min(r[k] for r in v) for n, v in cold.items()}
        ratio = f"   ({threads} threads / 1: {best[threads] / best[1]:.2f})" if k != 1 else ""
        print(
            f"{'mlc.compile cold, ' + label + ', best':44} {ms(best[1])} {ms(best[threads])}{ratio}"
        )
        if k == 0:
            med = {n: statistics.median(r[0] for r in v) for n, v in cold.items()}
            print(f"{'mlc.compile cold, wall, median':44} {ms(med[1])} {ms(med[threads])}")
            verdicts.append(
                f"cold compile {ms(best[threads]).strip()} best, "
                f"{ms(med[threads]).strip()} median: {_verdict(best[threads], med[threads])}"
            )
    t = time.perf_counter()
    mlc.compile(text)
    print(f"{'mlc.compile, both caches hit':44} {ms(time.perf_counter() - t)}")
    fresh, extra = fresh_process(path, runs) if subproc else ({}, {})
    if fresh.get("import"):
        parts = ", ".join(f"{k} {ms(min(v)).strip()}" for k, v in fresh.items())
        total = min(sum(v) for v in zip(*fresh.values()))
        print(f"{'fresh process, best: ' + parts:>44}   total {ms(total).strip()}")
        cpu = extra["compile_cpu"]
        print(
            f"{'fresh process, first compile, process CPU':44} {ms(min(cpu))} best, "
            f"{ms(statistics.median(cpu)).strip()} median (all threads)"
        )
        stale = extra["from_source"]
        print(
            f"fresh process: {len(stale)} of mlc's {extra['modules']} imported modules had no "
            "current bytecode" + (" (compiled from source each time; `make venv` writes it): "
            + ", ".join(stale[:6]) + (", ..." if len(stale) > 6 else "") if stale else "")
        )
        first = fresh["compile"]
        verdicts.append(
            f"fresh process's first compile {ms(min(first)).strip()} best, "
            f"{ms(statistics.median(first)).strip()} median: "
            f"{_verdict(min(first), statistics.median(first))}"
        )
    # Issue 5's target: examples/mlp.mlir through lower-to-cpu to a callable in under 1 s.
    for v in verdicts:
        print(f"target < 1 s ({threads} compile threads): {v}")
    print()


def _verdict(best: float, median: float) -> str:
    if median < 1.0:
        return "met"
    return "met by the best run only" if best < 1.0 else "missed"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("examples", nargs="*", help=f"example names (default: {', '.join(EXAMPLES)})")
    ap.add_argument("--runs", type=int, default=3, help="runs per figure (best of)")
    ap.add_argument(
        "--threads", type=int, default=default_compile_threads(), help="compile threads"
    )
    ap.add_argument("--no-subprocess", action="store_true", help="skip the fresh-process runs")
    ap.add_argument("-v", "--verbose", action="store_true", help="every pass of the pipeline")
    args = ap.parse_args()
    names = args.examples or list(EXAMPLES)
    for n in names:
        if not (ROOT / "examples" / f"{n}.mlir").exists():
            ap.error(f"no example examples/{n}.mlir")
    if args.runs < 1 or args.threads < 1:
        ap.error("--runs and --threads must be positive")
    print(
        f"host: {host_target().cpu}, {os.cpu_count()} cores; compile threads {args.threads}; "
        f"load average {os.getloadavg()[0]:.1f}\n"
    )
    for n in names:
        bench(n, args.runs, args.threads, args.verbose, not args.no_subprocess)


if __name__ == "__main__":
    main()
