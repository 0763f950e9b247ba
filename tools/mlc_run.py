"""mlc-run: compile a program, run it on NumPy arrays, check it against the reference interpreter.

    mlc-run examples/mlp.mlir --random-inputs --seed 0 --check --bench 20
    mlc-run prog.mlir --entry main --input arg0=x.npy --input arg1=w.npy -o y.npy

Inputs are named `arg0`, `arg1`, ... (or by index: `0=x.npy`); `--random-inputs` fills the
missing ones (floats ~ N(0, 1), integers in [-8, 8], booleans), binding each dynamic dim to
`--dynamic-size` (default 4). Exit status: 0 on success; 1 on invalid input (IR, pipeline, inputs)
or a `--check` mismatch (diagnostics on stderr); 2 on an internal error of mlc (one line; the
traceback with MLC_DEBUG=1).
"""

from __future__ import annotations

import sys
from typing import Any

PROG = "mlc-run"
EXIT_OK, EXIT_FAILURE, EXIT_INTERNAL = 0, 1, 2

# Tolerances of --check per element type (compiled code may contract to FMA and reassociate).
TOLERANCES = {"float16": (1e-2, 1e-3), "float32": (1e-4, 1e-5), "float64": (1e-10, 1e-12)}


class _UsageError(Exception):
    pass


def main(argv: list[str] | None = None) -> int:
    """Run mlc-run with `argv` (default: the process arguments); return the exit status."""
    from mlc.tools.driver import run_tool

    return run_tool(PROG, _main, argv)


def _build_parser() -> Any:
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> Any:
            raise _UsageError(message)

    p = Parser(prog=PROG, description=(__doc__ or "").split("\n")[0], allow_abbrev=False)
    p.add_argument("input", metavar="FILE", help="MLIR file ('-': stdin)")
    p.add_argument("--entry", default="main", help="function to run (default: main)")
    p.add_argument(
        "--input",
        dest="inputs",
        action="append",
        default=[],
        metavar="NAME=FILE.npy",
        help="an argument's value from a .npy file (NAME: argN or N)",
    )
    p.add_argument("--random-inputs", action="store_true", help="random values for the others")
    p.add_argument("--seed", type=int, default=0, help="seed of --random-inputs (default: 0)")
    p.add_argument(
        "--dynamic-size", type=int, default=4, help="size of dynamic dims in random inputs"
    )
    p.add_argument(
        "-p", "--pass-pipeline", default="lower-to-cpu", help="pipeline to the llvm dialect"
    )
    p.add_argument("--check", action="store_true", help="compare with the reference interpreter")
    p.add_argument("--bench", type=int, default=0, metavar="N", help="time N runs (median)")
    p.add_argument("--threads", type=int, default=None, help="threads for parallel loops")
    p.add_argument("-o", "--output", default=None, metavar="FILE.npy", help="write results to .npy")
    return p


def _fail(message: str) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return EXIT_FAILURE


def _main(argv: list[str]) -> int:
    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
    except _UsageError as e:
        return _fail(str(e))
    except SystemExit as e:  # --help
        return EXIT_OK if not e.code else EXIT_FAILURE
    if args.bench < 0:
        return _fail(f"--bench must be >= 0, got {args.bench}")
    if args.dynamic_size < 0:
        return _fail(f"--dynamic-size must be >= 0, got {args.dynamic_size}")
    if args.threads is not None and args.threads < 1:
        return _fail(f"--threads must be >= 1, got {args.threads}")

    import numpy as np

    import mlc
    from mlc.diagnostics import DiagnosticError, register_source

    filename = "<stdin>" if args.input == "-" else args.input
    try:
        if args.input == "-":
            text = sys.stdin.read()
        else:
            with open(args.input, encoding="utf-8", errors="surrogateescape") as f:
                text = f.read()
    except OSError as e:
        return _fail(f"cannot read '{args.input}': {e.strerror}")
    register_source(filename, text)
    try:
        module = mlc.parse(text, filename=filename)
        module.verify()
        fn = _find_function(module, args.entry)
        if fn is None:
            names = ", ".join(_function_names(module)) or "none"
            return _fail(f"no function '@{args.entry}' in {filename} (functions: {names})")
        arrays = _inputs(fn, args, np)
        compiled = mlc.compile(module, args.pass_pipeline, threads=args.threads)
        entry = compiled[args.entry]
        results = entry(*arrays)
    except DiagnosticError as e:
        print(e.render(), file=sys.stderr)
        return EXIT_FAILURE
    except (_InputError, TypeError, ValueError, KeyError) as e:
        return _fail(str(e).strip("'\""))
    results = results if isinstance(results, tuple) else (() if results is None else (results,))
    if args.output:
        _write(args.output, results, np)
    else:
        for k, r in enumerate(results):
            print(f"result {k}: {r.dtype} {tuple(r.shape)}")
            print(np.array2string(r, threshold=200, edgeitems=3))
    status = EXIT_OK
    if args.check:
        from mlc.interp import run as interpret

        expected = interpret(module, args.entry, *arrays)
        status = _compare(results, expected, np)
    if args.bench:
        _bench(entry, module, args, arrays, np)
    return status


class _InputError(Exception):
    pass


def _function_names(module: Any) -> list[str]:
    return [
        op.get_attr("sym_name").value
        for op in module.regions[0].blocks[0].ops
        if op.name == "func.func"
    ]


def _find_function(module: Any, name: str) -> Any:
    for op in module.regions[0].blocks[0].ops:
        if op.name == "func.func" and op.get_attr("sym_name").value == name:
            return op
    return None


def _inputs(fn: Any, args: Any, np: Any) -> list[Any]:
    from mlc.ir import attributes as A

    types = fn.get_attr("function_type").value.inputs
    given: dict[int, Any] = {}
    for item in args.inputs:
        name, eq, path = item.partition("=")
        if not eq or not path:
            raise _InputError(f"--input expects NAME=FILE.npy, got '{item}'")
        key = name[1:] if name.startswith("%") else name
        key = key[3:] if key.startswith("arg") else key
        if not key.isdigit() or int(key) >= len(types):
            raise _InputError(
                f"--input {name}: no such argument (@{args.entry} has {len(types)}: arg0..)"
            )
        try:
            given[int(key)] = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as e:
            raise _InputError(f"--input {name}: cannot load '{path}': {e}") from None
    rng = np.random.default_rng(args.seed)
    arrays = []
    for k, t in enumerate(types):
        if k in given:
            arrays.append(given[k])
            continue
        if not args.random_inputs:
            raise _InputError(f"argument arg{k} ({t}) has no --input (or use --random-inputs)")
        if isinstance(t, A.RankedTensorType):
            shape = tuple(args.dynamic_size if d < 0 else d for d in t.shape)
            arrays.append(_random(rng, shape, t.element_type, np))
        elif isinstance(t, A.ShapedType):
            raise _InputError(f"argument arg{k}: not supported: random values of type {t}")
        else:
            arrays.append(_random(rng, (), t, np)[()])
    return arrays


def _random(rng: Any, shape: tuple[int, ...], t: Any, np: Any) -> Any:
    from mlc.ir.attributes import numpy_dtype

    dtype = numpy_dtype(t)
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if np.issubdtype(dtype, np.integer):
        return rng.integers(-8, 9, size=shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def _write(path: str, results: tuple, np: Any) -> None:
    if len(results) == 1:
        np.save(path, results[0])
        return
    stem = path[:-4] if path.endswith(".npy") else path
    for k, r in enumerate(results):
        np.save(f"{stem}.{k}.npy", r)


def _compare(results: tuple, expected: tuple, np: Any) -> int:
    if len(results) != len(expected):
        print(
            f"{PROG}: check: {len(results)} results, the interpreter gives {len(expected)}",
            file=sys.stderr,
        )
        return EXIT_FAILURE
    ok = True
    for k, (got, want) in enumerate(zip(results, expected)):
        if got.shape != want.shape or got.dtype != want.dtype:
            print(
                f"{PROG}: check: result {k} is {got.dtype} {got.shape}, "
                f"the interpreter gives {want.dtype} {want.shape}",
                file=sys.stderr,
            )
            ok = False
            continue
        rtol, atol = TOLERANCES.get(str(got.dtype), (0, 0))
        close = np.isclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
        if not close.all():
            bad = int((~close).sum())
            idx = tuple(int(i) for i in np.argwhere(~close)[0])
            print(
                f"{PROG}: check: result {k} differs from the interpreter at {bad} of "
                f"{close.size} elements (rtol={rtol}, atol={atol}); first at {idx}: "
                f"{got[idx]!r} vs {want[idx]!r}",
                file=sys.stderr,
            )
            ok = False
    if ok:
        print(f"check: {len(results)} result(s) match the interpreter")
    return EXIT_OK if ok else EXIT_FAILURE


def _median_time(fn: Any, n: int) -> float:
    import time

    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    times.sort()
    return times[len(times) // 2]


def _bench(entry: Any, module: Any, args: Any, arrays: list, np: Any) -> None:
    from mlc.interp import run as interpret

    entry(*arrays)  # warm-up
    compiled = _median_time(lambda: entry(*arrays), args.bench)
    reference = _median_time(
        lambda: interpret(module, args.entry, *arrays), max(1, min(args.bench, 5))
    )
    print(
        f"bench: mlc {compiled * 1e3:.3f} ms (median of {args.bench}), "
        f"numpy interpreter {reference * 1e3:.3f} ms: {reference / compiled:.2f}x"
    )


if __name__ == "__main__":
    sys.exit(main())
