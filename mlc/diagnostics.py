"""Located diagnostics (errors, warnings, remarks, notes), their rendering, and the engine.

A diagnostic renders as MLIR's: `file:line:col: error: message`, the source line, a caret.
Errors that stop work are raised as `DiagnosticError` (`ParseError`, `VerifyError`); warnings
and remarks go to the current handler of the engine (stderr unless captured).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mlc.ir.attributes import FileLineColLoc, Location

# The IR's attributes (and numpy with them) load on first use, so that `import mlc` stays
# cheap: `mlc-opt --version` must start in well under 150 ms.


def _unknown_loc() -> Location:
    from mlc.ir.attributes import UnknownLoc

    return UnknownLoc()


def _is_unknown(loc: Location) -> bool:
    from mlc.ir.attributes import UnknownLoc

    return type(loc) is UnknownLoc


ERROR, WARNING, REMARK, NOTE = "error", "warning", "remark", "note"

# Source texts by file name, so that a diagnostic can show its line. `mlc.parse` registers the
# text it parses; the newest text under a name wins.
_SOURCES: dict[str, str] = {}


def register_source(filename: str, text: str) -> None:
    _SOURCES[filename] = text


# Line start offsets per source (built on the first diagnostic in it), so rendering many
# diagnostics (e.g. a remark per matmul chain of a 100k-op graph) stays linear.
_LINE_STARTS: dict[str, tuple[str, list[int]]] = {}


def source_line(filename: str, line: int) -> str | None:
    text = _SOURCES.get(filename)
    if text is None:
        return None
    cached = _LINE_STARTS.get(filename)
    if cached is None or cached[0] is not text:
        starts = [0]
        pos = text.find("\n")
        while pos >= 0:
            starts.append(pos + 1)
            pos = text.find("\n", pos + 1)
        cached = _LINE_STARTS[filename] = (text, starts)
    starts = cached[1]
    if line > len(starts):
        return None
    start = starts[line - 1] if line >= 1 else 0
    end = text.find("\n", start)
    return text[start:] if end < 0 else text[start:end]


class Diagnostic:
    """One message with a severity, a location and attached notes."""

    __slots__ = ("severity", "message", "location", "notes")

    def __init__(
        self,
        severity: str,
        message: str,
        location: Location | None = None,
        notes: list[Diagnostic] | None = None,
    ) -> None:
        self.severity = severity
        self.message = message
        self.location = location if location is not None else _unknown_loc()
        self.notes: list[Diagnostic] = notes if notes is not None else []

    def attach_note(self, message: str, location: Location | None = None) -> Diagnostic:
        note = Diagnostic(NOTE, message, location if location is not None else self.location)
        self.notes.append(note)
        return note

    @property
    def file_loc(self) -> FileLineColLoc | None:
        from mlc.ir.attributes import file_line_col

        return file_line_col(self.location)

    def render(self, *, show_source: bool = True) -> str:
        """MLIR's form: location prefix, severity, message, then the source line and a caret."""
        parts = [self._render_one(show_source)]
        prev = self.location
        for note in self.notes:
            # As MLIR: a note repeats the source line only when its location differs from the
            # previous diagnostic's.
            parts.append(note._render_one(show_source and note.location != prev))
            prev = note.location
        return "\n".join(parts)

    def _render_one(self, show_source: bool) -> str:
        loc = self.file_loc
        if loc is None:
            # MLIR (llvm::SourceMgr) prints a location-less diagnostic as `<unknown>:0:`, with
            # a non-file location in front of the message.
            where = "" if _is_unknown(self.location) else f"{self.location}: "
            return f"<unknown>:0: {self.severity}: {where}{self.message}"
        head = f"{loc.filename}:{loc.line}:{loc.col}: {self.severity}: {self.message}"
        if not show_source:
            return head
        line = source_line(loc.filename, loc.line)
        if line is None:
            return head
        if not line.isascii():
            # Bytes that are not UTF-8 (kept as lone surrogates by `mlc.parse_file`) show as
            # U+FFFD, as `mlc-opt` reads them, not as `\udcff` escapes.
            line = line.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        caret = " " * max(loc.col - 1, 0) + "^"
        return f"{head}\n{line}\n{caret}"

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"<Diagnostic {self.severity}: {self.message}>"


class DiagnosticError(Exception):
    """An error carrying one or more located diagnostics."""

    def __init__(
        self, diagnostics: Diagnostic | list[Diagnostic] | str, location: Location | None = None
    ) -> None:
        if isinstance(diagnostics, str):
            diagnostics = Diagnostic(ERROR, diagnostics, location)
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics: list[Diagnostic] = diagnostics
        super().__init__(diagnostics[0].message if diagnostics else "")

    @property
    def diagnostic(self) -> Diagnostic:
        return self.diagnostics[0]

    def render(self) -> str:
        return "\n".join(d.render() for d in self.diagnostics)

    def __str__(self) -> str:
        return self.render()


class ParseError(DiagnosticError):
    """Malformed textual IR."""


class VerifyError(DiagnosticError):
    """IR that breaks an op's, a trait's or the SSA rules."""


Handler = Callable[[Diagnostic], None]


def _print_to_stderr(diag: Diagnostic) -> None:
    print(diag.render(), file=sys.stderr)


class DiagnosticEngine:
    """Routes emitted (non-raised) diagnostics to the innermost handler."""

    __slots__ = ("_handlers",)

    def __init__(self) -> None:
        self._handlers: list[Handler] = [_print_to_stderr]

    def emit(self, diag: Diagnostic) -> None:
        self._handlers[-1](diag)

    @property
    def current_handler(self) -> Handler:
        """The innermost handler (for a handler that filters and forwards the rest)."""
        return self._handlers[-1]

    @contextmanager
    def handler(self, fn: Handler) -> Iterator[None]:
        self._handlers.append(fn)
        try:
            yield
        finally:
            self._handlers.pop()

    @contextmanager
    def capture(self) -> Iterator[list[Diagnostic]]:
        """Collect emitted diagnostics into a list instead of printing them."""
        caught: list[Diagnostic] = []
        with self.handler(caught.append):
            yield caught


engine = DiagnosticEngine()


def emit_warning(message: str, location: Location | None = None) -> Diagnostic:
    diag = Diagnostic(WARNING, message, location)
    engine.emit(diag)
    return diag


def emit_remark(message: str, location: Location | None = None) -> Diagnostic:
    diag = Diagnostic(REMARK, message, location)
    engine.emit(diag)
    return diag
