"""What every mlc command-line tool does around its own work (standard library only, so that
`--version` answers at once): `--version`, Ctrl-C, a closed pipe, and internal errors reported
in one line (the traceback with MLC_DEBUG=1) instead of a Python traceback.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable
from typing import IO

EXIT_OK, EXIT_FAILURE, EXIT_INTERNAL = 0, 1, 2


def run_tool(prog: str, body: Callable[[list[str]], int], argv: list[str] | None) -> int:
    """Run `body(args)` for tool `prog` with `argv` (default: the process arguments)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if any(a in ("--version", "-version") for a in args):
        from mlc import __version__

        print(f"{prog} (mlc) version {__version__}")
        return EXIT_OK
    try:
        return body(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`mlc-opt ... | head`): not an error of ours.
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the final flush
        except OSError:
            pass
        return EXIT_OK
    except Exception as e:  # noqa: BLE001 - an internal error must never show a traceback
        if os.environ.get("MLC_DEBUG"):
            import traceback

            traceback.print_exc()
        print(f"{prog}: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        if not os.environ.get("MLC_DEBUG"):
            print(f"{prog}: set MLC_DEBUG=1 for the traceback", file=sys.stderr)
        return EXIT_INTERNAL


def read_input(path: str) -> tuple[str, str] | None:
    """(name for diagnostics, text) of input FILE, or of stdin for '-'; bytes are decoded
    leniently (the lexer reports a stray byte as a located error). None, after printing why,
    when the file cannot be read."""
    if path == "-":
        return "<stdin>", sys.stdin.buffer.read().decode("utf-8", errors="replace")
    try:
        with open(path, "rb") as f:
            return path, f.read().decode("utf-8", errors="replace")
    except OSError as e:
        print(f"error: cannot open input file '{path}': {e.strerror}", file=sys.stderr)
        return None


def open_output(path: str) -> IO[str] | None:
    """The output stream for `-o path` (stdout for '-'), opened before processing as MLIR's
    tools do; None, after printing why, when it cannot be opened."""
    if path == "-":
        return sys.stdout
    try:
        return open(path, "w", encoding="utf-8")  # noqa: SIM115 - closed by close_output
    except OSError as e:
        print(f"error: cannot open output file '{path}': {e.strerror}", file=sys.stderr)
        return None


def close_output(out: IO[str]) -> None:
    if out is not sys.stdout:
        out.close()


def remove_partial_output(path: str) -> None:
    """After a failure, drop the output file like LLVM's ToolOutputFile, but only ever a
    regular file (never /dev/null or another device, which as root would really be deleted)."""
    if path == "-":
        return
    try:
        if stat.S_ISREG(os.stat(path).st_mode):
            os.remove(path)
    except OSError:
        pass
