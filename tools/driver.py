"""What every mlc command-line tool does around its own work (standard library only, so that
`--version` answers at once): `--version`, Ctrl-C, a closed pipe, and internal errors reported
in one line (the traceback with MLC_DEBUG=1) instead of a Python traceback.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

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
