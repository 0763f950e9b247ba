"""mlc-opt: parse, verify, transform and print MLIR text (MLIR's mlir-opt driver).

    mlc-opt input.mlir --split-input-file --verify-diagnostics
    mlc-opt - -p 'builtin.module(func.func(cse))' -o out.mlir

Options are MLIR's spellings; like LLVM's command line, `-split-input-file` and
`--split-input-file` are the same, and boolean flags take `=true` / `=false`.
Only the standard library is imported at module level: `--version` answers at once.
"""

from __future__ import annotations

import sys
from typing import IO, Any

PROG = "mlc-opt"
DEFAULT_SPLIT_MARKER = "// -----"

EXIT_OK, EXIT_FAILURE, EXIT_INTERNAL = 0, 1, 2

_DESCRIPTION = "MLIR modular optimizer driver for mlc: parse, verify, run passes, print."
_EPILOG = """\
exit status:
  0  success
  1  invalid input, a failed pass, unmet --verify-diagnostics expectations, or bad options
     (diagnostics on stderr, as file:line:col: error: ... with the source line)
  2  an internal error of mlc (a bug): one line on stderr, the traceback with MLC_DEBUG=1
"""

# Flags taking an optional `=value` in LLVM's syntax; a bare flag means the given value.
_BOOL_FLAGS = (
    "--allow-unregistered-dialect",
    "--mlir-print-op-generic",
    "--mlir-print-debuginfo",
    "--mlir-print-local-scope",
    "--mlir-print-op-on-diagnostic",
    "--no-implicit-module",
)
_SHORT_WITH_VALUE = ("-o", "-p")


def main(argv: list[str] | None = None) -> int:
    """Run mlc-opt with `argv` (default: the process arguments); return the exit status."""
    from mlc.tools.driver import run_tool

    return run_tool(PROG, _main, argv)


# ---------------------------------------------------------------------------------------------
# Command line


class _UsageError(Exception):
    pass


def _build_parser() -> Any:
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> Any:  # LLVM-like one-line usage errors, exit 1
            raise _UsageError(message)

    p = Parser(
        prog=PROG,
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
        add_help=False,
    )
    p.add_argument(
        "input",
        nargs="?",
        default="-",
        metavar="FILE",
        help="input file, '-' for stdin (the default)",
    )
    g = p.add_argument_group("general")
    g.add_argument("-h", "--help", action="store_true", help="show this help and exit")
    g.add_argument("--version", action="store_true", help="print the version and exit")
    g.add_argument(
        "-o",
        dest="output",
        default="-",
        metavar="FILE",
        help="output file, '-' for stdout (the default)",
    )
    g.add_argument(
        "--allow-unregistered-dialect",
        type=_bool,
        default=False,
        metavar="BOOL",
        help="allow ops of unknown dialects (kept and printed generically)",
    )
    g.add_argument(
        "--no-implicit-module",
        type=_bool,
        default=False,
        metavar="BOOL",
        help="do not wrap the input in a builtin.module: it must be one op",
    )
    g.add_argument(
        "--split-input-file",
        nargs="?",
        const=DEFAULT_SPLIT_MARKER,
        default=None,
        metavar="MARKER",
        help=f"process the chunks between lines '{DEFAULT_SPLIT_MARKER}' (or MARKER) independently",
    )
    g.add_argument(
        "--output-split-marker",
        default=DEFAULT_SPLIT_MARKER,
        metavar="MARKER",
        help="the line printed between the outputs of chunks",
    )
    g.add_argument(
        "--verify-diagnostics",
        nargs="?",
        const="all",
        default=None,
        choices=("all", "only-expected"),
        metavar="all|only-expected",
        help="check diagnostics against expected-error/warning/remark/note comments "
        "(only-expected: ignore unexpected ones)",
    )
    g.add_argument(
        "--show-dialects", action="store_true", help="list the registered dialects and exit"
    )
    pr = p.add_argument_group("printing")
    pr.add_argument(
        "--mlir-print-op-generic",
        type=_bool,
        default=False,
        metavar="BOOL",
        help="print every op in the generic form",
    )
    pr.add_argument(
        "--mlir-print-debuginfo", type=_bool, default=False, metavar="BOOL", help="print locations"
    )
    pr.add_argument(
        "--mlir-print-local-scope",
        type=_bool,
        default=False,
        metavar="BOOL",
        help="print without alias definitions",
    )
    pr.add_argument(
        "--mlir-print-op-on-diagnostic",
        type=_bool,
        default=True,
        metavar="BOOL",
        help="attach the op to errors at an op, as a note (default true; off under "
        "--verify-diagnostics)",
    )
    from mlc.pass_manager import add_cli_options

    add_cli_options(p)
    return p


def _bool(text: str) -> bool:
    low = text.lower()
    if low in ("true", "1", "yes", "on", ""):
        return True
    if low in ("false", "0", "no", "off"):
        return False
    raise ValueError(text)


_bool.__name__ = "boolean"


def _normalize(args: list[str], parser: Any) -> list[str]:
    """LLVM's command-line conventions on top of argparse: `-long-option` means
    `--long-option`; `-o=F` means `-o F`; a bare flag with an optional value never takes the
    next argument as its value (`--verify-diagnostics file.mlir`)."""
    optional_value = {
        s: a.const
        for a in parser._actions  # noqa: SLF001 - argparse has no public accessor
        if a.nargs == "?" and a.option_strings
        for s in a.option_strings
    }
    optional_value.update({f: "true" for f in _BOOL_FLAGS})
    out: list[str] = []
    for i, a in enumerate(args):
        if a == "--":
            out.extend(args[i:])
            break
        if a.startswith("-") and not a.startswith("--") and len(a) > 1:
            head = a.split("=", 1)[0]
            if head in _SHORT_WITH_VALUE and "=" in a:
                out.extend([head, a.split("=", 1)[1]])
                continue
            if len(head) > 2:
                a = "-" + a
        if a in optional_value and optional_value[a] is not None:
            a = f"{a}={optional_value[a]}"
        out.append(a)
    return out


# ---------------------------------------------------------------------------------------------
# The driver


class _Options:
    """The parsed flags that the chunk processing needs."""

    __slots__ = ("args", "filename", "text", "verifier", "print_op_on_diag")

    def __init__(self, args: Any, filename: str, text: str, verifier: Any) -> None:
        self.args = args
        self.filename = filename
        self.text = text
        self.verifier = verifier
        self.print_op_on_diag = args.mlir_print_op_on_diagnostic and verifier is None


def _main(argv: list[str]) -> int:
    from mlc.tools.driver import close_output, open_output, read_input, remove_partial_output

    parser = _build_parser()
    try:
        args = parser.parse_args(_normalize(argv, parser))
    except _UsageError as e:
        msg = str(e)
        bad = msg.split(":", 1)[1].split()[0] if "unrecognized arguments" in msg else None
        if bad is not None and not bad.startswith("-"):
            print(
                f"{PROG}: Too many positional arguments specified!\n"
                f"Can specify at most 1 positional arguments: See: {PROG} --help",
                file=sys.stderr,
            )
        elif bad is not None:
            print(
                f"{PROG}: Unknown command line argument '{bad}'.  Try: '{PROG} --help'",
                file=sys.stderr,
            )
            guess = _close_option(bad, parser)
            if guess:
                print(f"{PROG}: Did you mean '{guess}'?", file=sys.stderr)
        else:
            print(f"{PROG}: {msg}", file=sys.stderr)
        return EXIT_FAILURE
    if args.help:
        parser.print_help()
        return EXIT_OK
    if args.show_dialects:
        from mlc.ir.context import default_context

        print("Available Dialects: " + ",".join(default_context().dialect_names))
        return EXIT_OK
    if getattr(args, "list_passes", False):
        from mlc.pass_manager import print_pass_list

        print_pass_list()
        return EXIT_OK

    # Input, then output: opened first, as MLIR does, and removed again if processing fails.
    source = read_input(args.input)
    if source is None:
        return EXIT_FAILURE
    filename, text = source
    out = open_output(args.output)
    if out is None:
        return EXIT_FAILURE

    verifier = None
    if args.verify_diagnostics is not None:
        from mlc.verify_diagnostics import DiagnosticVerifier

        verifier = DiagnosticVerifier(
            text, filename, sys.stderr, only_expected=args.verify_diagnostics == "only-expected"
        )
    opts = _Options(args, filename, text, verifier)
    try:
        ok = _process_file(opts, out)
        if verifier is not None:
            # The chunks' failures were expected or not: the verifier decides.
            ok = verifier.finish()
    finally:
        close_output(out)
    if not ok:
        remove_partial_output(args.output)
    return EXIT_OK if ok else EXIT_FAILURE


def _close_option(bad: str, parser: Any) -> str | None:
    import difflib

    names = [s for a in parser._actions for s in a.option_strings]  # noqa: SLF001
    found = difflib.get_close_matches(bad.split("=", 1)[0], names, n=1)
    return found[0] if found else None


def split_input(text: str, marker: str, filename: str) -> list[tuple[str, int]]:
    """MLIR's splitAndProcessBuffer: the chunks between occurrences of `marker`, each with the
    number of lines before it. The rest of a marker's line starts the next chunk. The marker
    without its last two characters, not followed by them, is a near miss: warned about and
    kept in the chunk. MLIR's quirks are kept too (a file starting with the marker does not
    split there; a trailing marker yields one more, empty, chunk)."""
    if len(marker) < 3:
        return [(text, 0)]
    prefix, suffix = marker[:-2], marker[-2:]
    pieces = text.split(prefix)
    spans: list[tuple[int, int]] = []
    start, end = 0, len(pieces[0])
    pos = end + len(prefix)  # where the next piece starts
    for piece in pieces[1:]:
        if start == end:  # MLIR: an empty chunk so far takes the next piece whole
            start, end = pos, pos + len(piece)
        elif piece.startswith(suffix) and len(piece) > len(suffix):
            spans.append((start, end))
            start, end = pos + len(suffix), pos + len(piece)
        else:
            from mlc.diagnostics import Diagnostic
            from mlc.ir.attributes import FileLineColLoc

            line = text.count("\n", 0, pos) + 1
            col = pos - (text.rfind("\n", 0, pos) + 1) + 1
            diag = Diagnostic(
                "warning", "near miss with file split marker", FileLineColLoc(filename, line, col)
            )
            print(diag.render(), file=sys.stderr)
            end = pos + len(piece)
        pos += len(piece) + len(prefix)
    if start != end:
        spans.append((start, end))
    # A chunk starting mid-line (after a marker) is padded to keep MLIR's columns.
    return [
        (" " * (a - (text.rfind("\n", 0, a) + 1)) + text[a:b], text.count("\n", 0, a))
        for a, b in spans
    ]


def _process_file(opts: _Options, out: IO[str]) -> bool:
    args = opts.args
    from mlc.diagnostics import register_source

    register_source(opts.filename, opts.text)
    if args.split_input_file is None:
        chunks = [(opts.text, 0)]
    else:
        chunks = split_input(opts.text, args.split_input_file, opts.filename)
    separator = args.output_split_marker + "\n"
    ok = True
    for i, (chunk, line_offset) in enumerate(chunks):
        if i:
            out.write(separator)
        printed = _process_chunk(opts, chunk, line_offset)
        if printed is None:
            ok = False
        else:
            out.write(printed)
    return ok


def _report(opts: _Options, diags: list[Any]) -> None:
    from mlc.diagnostics import register_source

    # The parser registered the chunk alone; diagnostics may point anywhere in the file.
    register_source(opts.filename, opts.text)
    for d in diags:
        if opts.verifier is not None:
            opts.verifier.process(d)
        else:
            print(d.render(), file=sys.stderr)


def _process_chunk(opts: _Options, chunk: str, line_offset: int) -> str | None:
    """Parse, verify, run the pipeline and print one chunk; None on failure (reported)."""
    from mlc.diagnostics import DiagnosticError, ParseError, VerifyError, engine
    from mlc.syntax.parser import parse_module
    from mlc.syntax.printer import print_op
    from mlc.verifier import verify

    args = opts.args
    emitted: list[Any] = []
    with engine.handler(emitted.append):
        try:
            module = parse_module(
                chunk,
                filename=opts.filename,
                allow_unregistered=args.allow_unregistered_dialect,
                implicit_module=not args.no_implicit_module,
                line_offset=line_offset,
            )
            verify(module, print_op_on_diagnostic=opts.print_op_on_diag)
        except (ParseError, VerifyError) as e:
            _report(opts, emitted + e.diagnostics)
            return None
        except DiagnosticError as e:
            _report(opts, emitted + e.diagnostics)
            return None
        _report(opts, emitted)
        emitted.clear()
        from mlc.pass_manager import run_cli

        # Pass diagnostics are emitted, not raised: route them like the others.
        with engine.handler(lambda d: _report(opts, [d])):
            ok = run_cli(module, args)
        if not ok:
            return None
        text = print_op(
            module,
            generic=args.mlir_print_op_generic,
            debuginfo=args.mlir_print_debuginfo,
            local_scope=args.mlir_print_local_scope,
        )
    if not text.endswith("\n"):
        text += "\n"
    return text + "\n"


if __name__ == "__main__":
    sys.exit(main())
