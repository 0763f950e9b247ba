"""mlc-translate: translate llvm-dialect MLIR text to LLVM IR text (MLIR's mlir-translate).

    mlc-translate --mlir-to-llvmir input.mlir -o out.ll
    mlc-opt in.mlir -p 'builtin.module(convert-to-llvm)' | mlc-translate --mlir-to-llvmir

Flags are MLIR's spellings (`-mlir-to-llvmir` and `--mlir-to-llvmir` are the same). Exit
status: 0 on success; 1 on invalid input, a construct the translation does not support, or bad
options (located diagnostics on stderr); 2 on an internal error of mlc (one line; the
traceback with MLC_DEBUG=1).
"""

from __future__ import annotations

import sys
from typing import IO, Any

PROG = "mlc-translate"
DEFAULT_SPLIT_MARKER = "// -----"
EXIT_OK, EXIT_FAILURE, EXIT_INTERNAL = 0, 1, 2


def main(argv: list[str] | None = None) -> int:
    """Run mlc-translate with `argv` (default: the process arguments); return the exit status."""
    from mlc.tools.driver import run_tool

    return run_tool(PROG, _main, argv)


class _UsageError(Exception):
    pass


def _build_parser() -> Any:
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> Any:
            raise _UsageError(message)

    p = Parser(prog=PROG, description=__doc__.split("\n")[0], allow_abbrev=False, add_help=False)
    p.add_argument("input", nargs="?", default="-", metavar="FILE", help="input file ('-': stdin)")
    p.add_argument("-h", "--help", action="store_true", help="show this help and exit")
    p.add_argument("--version", action="store_true", help="print the version and exit")
    p.add_argument("-o", dest="output", default="-", metavar="FILE", help="output file")
    p.add_argument(
        "--mlir-to-llvmir",
        action="store_true",
        help="translate the llvm dialect to LLVM IR (the one translation)",
    )
    p.add_argument(
        "--split-input-file",
        nargs="?",
        const=DEFAULT_SPLIT_MARKER,
        default=None,
        metavar="MARKER",
        help=f"translate the chunks between lines '{DEFAULT_SPLIT_MARKER}' independently",
    )
    p.add_argument("--output-split-marker", default=DEFAULT_SPLIT_MARKER, metavar="MARKER")
    p.add_argument(
        "--verify-diagnostics",
        action="store_true",
        help="check diagnostics against expected-error/... comments",
    )
    p.add_argument(
        "--allow-unregistered-dialect",
        action="store_true",
        help="parse ops of unknown dialects (the translation then rejects them)",
    )
    return p


def _normalize(args: list[str]) -> list[str]:
    out = []
    for a in args:
        if a.startswith("-") and not a.startswith("--") and len(a) > 2 and not a.startswith("-o"):
            a = "-" + a
        elif a.startswith("-o="):
            out.extend(["-o", a[3:]])
            continue
        if a == "--split-input-file":  # a bare flag never takes the next argument as its value
            a = f"{a}={DEFAULT_SPLIT_MARKER}"
        out.append(a)
    return out


def _main(argv: list[str]) -> int:
    from mlc.tools.driver import close_output, open_output, read_input, remove_partial_output

    parser = _build_parser()
    try:
        args = parser.parse_args(_normalize(argv))
    except _UsageError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return EXIT_FAILURE
    if args.help:
        parser.print_help()
        return EXIT_OK
    if not args.mlir_to_llvmir:
        print(f"{PROG}: no translation given (use --mlir-to-llvmir)", file=sys.stderr)
        return EXIT_FAILURE
    # Input, then output: opened first, as MLIR does, and removed again if processing fails.
    source = read_input(args.input)
    if source is None:
        return EXIT_FAILURE
    filename, text = source
    out = open_output(args.output)
    if out is None:
        return EXIT_FAILURE
    verifier = None
    if args.verify_diagnostics:
        from mlc.verify_diagnostics import DiagnosticVerifier

        verifier = DiagnosticVerifier(text, filename, sys.stderr)
    try:
        ok = _process(args, filename, text, out, verifier)
        if verifier is not None:
            ok = verifier.finish()
    finally:
        close_output(out)
    if not ok:
        remove_partial_output(args.output)
    return EXIT_OK if ok else EXIT_FAILURE


def _process(args: Any, filename: str, text: str, out: IO[str], verifier: Any) -> bool:
    from mlc.tools.mlc_opt import split_input

    from mlc.diagnostics import register_source

    register_source(filename, text)
    if args.split_input_file is None:
        chunks = [(text, 0)]
    else:
        chunks = split_input(text, args.split_input_file, filename)
    ok = True
    for i, (chunk, line_offset) in enumerate(chunks):
        if i:
            out.write(args.output_split_marker + "\n")
        result = _translate_chunk(args, filename, text, chunk, line_offset, verifier)
        if result is None:
            ok = False
        else:
            out.write(result)
    return ok


def _translate_chunk(
    args: Any, filename: str, text: str, chunk: str, line_offset: int, verifier: Any
) -> str | None:
    from mlc.lowering.translate import translate_module

    from mlc.diagnostics import DiagnosticError, engine, register_source
    from mlc.syntax.parser import parse_module
    from mlc.verifier import verify

    emitted: list[Any] = []

    def report(diags: list[Any]) -> None:
        register_source(filename, text)
        for d in diags:
            if verifier is not None:
                verifier.process(d)
            else:
                print(d.render(), file=sys.stderr)

    with engine.handler(emitted.append):
        try:
            module = parse_module(
                chunk,
                filename=filename,
                allow_unregistered=args.allow_unregistered_dialect,
                line_offset=line_offset,
            )
            verify(module)
            result = translate_module(module)
        except DiagnosticError as e:
            report(emitted + e.diagnostics)
            return None
    report(emitted)
    return result


if __name__ == "__main__":
    sys.exit(main())
