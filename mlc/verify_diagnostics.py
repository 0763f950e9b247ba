"""`--verify-diagnostics`: check emitted diagnostics against `expected-*` comments, as MLIR does.

    // expected-error @+1 {{does not dominate}}
    // expected-note @below {{operand defined here}}
    // expected-warning-re {{value {{[0-9]+}} is unused}}

A designator is `@+N` / `@-N` (relative line), `@above` / `@below` (the nearest line that
holds no designator), `@unknown` (a diagnostic without a file location), or nothing (its own
line). The text between the outer `{{` and `}}` must be a substring of the message; with
`-re`, `{{...}}` inside it are regular expressions. Every diagnostic and each of its notes must
be expected; every expectation must be met.
"""

from __future__ import annotations

import re
import sys
from typing import TextIO

from mlc.diagnostics import Diagnostic

__all__ = ["ExpectedDiagnostic", "DiagnosticVerifier"]

# MLIR's pattern, applied to each line with trailing whitespace removed.
_EXPECTED = re.compile(
    r"expected-(error|note|remark|warning)(-re)? *"
    r"(@([+-][0-9]+|above|below|unknown))? *\{\{(.*)\}\}$"
)


class ExpectedDiagnostic:
    """One `expected-<kind>` comment: where it applies and what it matches."""

    __slots__ = ("kind", "line", "src_line", "src_col", "text", "regex", "matched")

    def __init__(self, kind: str, line: int, src_line: int, src_col: int, text: str) -> None:
        self.kind = kind
        self.line = line  # the line a diagnostic must be on (0: unknown location)
        self.src_line = src_line  # where the comment is (for messages about it)
        self.src_col = src_col
        self.text = text
        self.regex: re.Pattern[str] | None = None
        self.matched = False

    def match(self, message: str) -> bool:
        if self.regex is not None:
            return self.regex.search(message) is not None
        return self.text in message

    def __repr__(self) -> str:
        return f"<expected-{self.kind}@{self.line} {{{{{self.text}}}}}>"


def _compile_regex(text: str) -> tuple[re.Pattern[str] | None, str | None]:
    """MLIR's computeRegex: literal text with `{{regex}}` parts. Returns (regex, error)."""
    parts: list[str] = []
    rest = text
    while rest:
        start = rest.find("{{")
        if start < 0:
            parts.append(re.escape(rest))
            break
        parts.append(re.escape(rest[:start]))
        rest = rest[start + 2 :]
        end = rest.find("}}")
        if end < 0:
            return None, "found start of regex with no end '}}'"
        piece = rest[:end]
        try:
            re.compile(piece)
        except re.error as e:
            return None, f"invalid regex: {e}"
        parts.append(f"({piece})")
        rest = rest[end + 2 :]
    return re.compile("".join(parts)), None


class DiagnosticVerifier:
    """MLIR's SourceMgrDiagnosticVerifierHandler for one input file.

    Feed every diagnostic to `process` in emission order; `finish()` reports expectations that
    were not met and returns whether everything matched. Problems are written to `out` as they
    are found, rendered like any diagnostic.
    """

    __slots__ = ("filename", "lines", "expected", "unknown", "ok", "out", "only_expected")

    def __init__(
        self,
        text: str,
        filename: str,
        out: TextIO | None = None,
        *,
        only_expected: bool = False,
    ) -> None:
        self.filename = filename
        self.lines = text.split("\n")
        self.expected: list[ExpectedDiagnostic] = []
        self.unknown: list[ExpectedDiagnostic] = []
        self.ok = True
        self.out = out if out is not None else sys.stderr
        self.only_expected = only_expected
        self._scan()

    def _scan(self) -> None:
        last_plain = 0  # 0-based index of the last line without a designator
        pending_below: list[ExpectedDiagnostic] = []
        n_lines = len(self.lines)
        for i, line in enumerate(self.lines):
            m = _EXPECTED.search(line.rstrip())
            if m is None:
                for e in pending_below:
                    e.line = i + 1
                pending_below.clear()
                last_plain = i
                continue
            kind, is_re, _, where, text = m.groups()
            e = ExpectedDiagnostic(kind, i + 1, i + 1, m.start() + 1, text)
            if is_re:
                regex, error = _compile_regex(text)
                if error is not None:
                    self._emit_at(e, error, len(text))
                    continue
                e.regex = regex
            if where is not None:
                if where[0] in "+-":
                    offset = int(where[1:])
                    e.line += offset if where[0] == "+" else -offset
                elif where == "unknown":
                    e.line = 0
                    self.unknown.append(e)
                    continue
                elif where == "above":
                    e.line = last_plain + 1
                else:  # below: the next line without a designator (the last line if none)
                    e.line = n_lines
                    pending_below.append(e)
            self.expected.append(e)

    # -- output ---------------------------------------------------------------------------------

    def _emit_at(self, e: ExpectedDiagnostic, message: str, underline: int = 0) -> None:
        """An error at an expectation's comment, with its text underlined (LLVM's ^~~~)."""
        self.ok = False
        head = f"{self.filename}:{e.src_line}:{e.src_col}: error: {message}"
        source = self.lines[e.src_line - 1] if e.src_line <= len(self.lines) else ""
        caret = " " * (e.src_col - 1) + "^" + "~" * max(underline - 1, 0)
        print(f"{head}\n{source}\n{caret}", file=self.out)

    def _emit(self, diag: Diagnostic) -> None:
        self.ok = False
        print(diag.render(), file=self.out)

    # -- checking -------------------------------------------------------------------------------

    def process(self, diag: Diagnostic) -> None:
        """Check a diagnostic and each of its notes."""
        self._process_one(diag)
        for note in diag.notes:
            self._process_one(note)

    def _process_one(self, diag: Diagnostic) -> None:
        loc = diag.file_loc
        if loc is None:
            candidates = self.unknown
        elif loc.filename == self.filename:
            candidates = self.expected
        else:
            candidates = []
        near_miss: ExpectedDiagnostic | None = None
        message = diag.message
        for e in candidates:
            if loc is not None and loc.line != e.line:
                continue
            if e.match(message):
                if e.kind == diag.severity:
                    e.matched = True
                    return
                near_miss = e
        if self.only_expected:
            return
        if near_miss is not None:
            self._emit_at(
                near_miss,
                f"'{diag.severity}' diagnostic emitted when expecting a '{near_miss.kind}'",
            )
        else:
            self._emit(Diagnostic("error", f"unexpected {diag.severity}: {message}", diag.location))

    def finish(self) -> bool:
        """Report every expectation that was not met; True when all went as expected."""
        for e in self.expected + self.unknown:
            if not e.matched:
                self._emit_at(e, f'expected {e.kind} "{e.text}" was not produced', len(e.text))
        return self.ok
