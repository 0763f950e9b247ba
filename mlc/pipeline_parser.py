"""The textual pass pipeline syntax (MLIR's): `builtin.module(func.func(cse),canonicalize{k=v})`.

    pipeline ::= element (`,` element)*
    element  ::= pass-or-pipeline-name options? | op-name `(` pipeline? `)`
    options  ::= `{` (key (`=` value)?)* `}`      space-separated; values may nest {}, (), quotes

Errors are `PipelineError`s located at their column of the pipeline text.
"""

from __future__ import annotations

from typing import Any

from mlc.diagnostics import Diagnostic, register_source
from mlc.ir.attributes import FileLineColLoc
from mlc.pass_manager import OpPassManager, PipelineError, get_pass_class, get_pipeline

_PIPELINE_FILE = "<pass-pipeline>"
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.$")


class PipelineParser:
    """Recursive descent over the grammar in the module docstring, straight into pass managers."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def error(self, message: str, pos: int | None = None) -> PipelineError:
        register_source(_PIPELINE_FILE, self.text)
        col = (self.pos if pos is None else pos) + 1
        return PipelineError(Diagnostic("error", message, FileLineColLoc(_PIPELINE_FILE, 1, col)))

    def skip_ws(self) -> None:
        text, n = self.text, len(self.text)
        while self.pos < n and text[self.pos] in " \t\n\r":
            self.pos += 1

    def peek(self) -> str:
        self.skip_ws()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def parse_into(self, pm: OpPassManager) -> None:
        self.parse_list(pm, top=True)
        if self.peek():
            if self.peek() == ")":
                raise self.error("unbalanced ')' in pass pipeline")
            raise self.error("expected ',' or the end of the pass pipeline")

    def parse_list(self, pm: OpPassManager, top: bool) -> None:
        if not self.peek() or self.peek() == ")":
            return
        while True:
            self.parse_element(pm)
            if self.peek() == ",":
                self.pos += 1
                continue
            return

    def parse_name(self) -> tuple[str, int]:
        self.skip_ws()
        start = self.pos
        text = self.text
        while self.pos < len(text) and text[self.pos] in _NAME_CHARS:
            self.pos += 1
        if self.pos == start:
            c = text[start] if start < len(text) else "end of pipeline"
            raise self.error(
                f"expected a pass or op name, found '{c}'"
                if c != "end of pipeline"
                else "expected a pass or op name at the end of the pipeline"
            )
        return text[start : self.pos], start

    def parse_element(self, pm: OpPassManager) -> None:
        name, start = self.parse_name()
        if self.peek() == "(":
            self.pos += 1
            open_pos = self.pos - 1
            npm = OpPassManager(name)
            self.parse_list(npm, top=False)
            if self.peek() != ")":
                if not self.peek():
                    raise self.error(
                        f"expected ')' to close the '{name}' pipeline opened here", open_pos
                    )
                raise self.error("expected ',' or ')' in the pass pipeline")
            self.pos += 1
            pm.elements.append(npm)
            return
        options: list[tuple[str, str | None, int]] = []
        if self.peek() == "{":
            options = self.parse_options()
        cls = get_pass_class(name)
        if cls is not None:
            pm.add(self.instantiate(cls, name, options, start))
            return
        pipe = get_pipeline(name)
        if pipe is not None:
            instance = self.instantiate(pipe, name, options, start)
            instance.build(pm)  # type: ignore[union-attr]
            return
        raise self.error(f"'{name}' does not refer to a registered pass or pass pipeline", start)

    def parse_options(self) -> list[tuple[str, str | None, int]]:
        text = self.text
        open_pos = self.pos
        self.pos += 1  # '{'
        out: list[tuple[str, str | None, int]] = []
        while True:
            c = self.peek()
            if c == "}":
                self.pos += 1
                return out
            if not c:
                raise self.error("expected '}' to close the options opened here", open_pos)
            start = self.pos
            while self.pos < len(text) and text[self.pos] not in " \t\n=}":
                self.pos += 1
            key = text[start : self.pos]
            if not key:
                raise self.error("expected an option name")
            value: str | None = None
            if self.pos < len(text) and text[self.pos] == "=":
                self.pos += 1
                value = self.parse_value()
            out.append((key, value, start))

    def parse_value(self) -> str:
        text = self.text
        start = self.pos
        depth = 0
        while self.pos < len(text):
            c = text[self.pos]
            if c in "\"'":
                end = text.find(c, self.pos + 1)
                while end > 0 and text[end - 1] == "\\" and c == '"':
                    end = text.find(c, end + 1)
                if end < 0:
                    raise self.error("unterminated string in option value", self.pos)
                self.pos = end + 1
                continue
            if c in "{([":
                depth += 1
            elif c in ")]":
                depth -= 1
            elif c == "}":
                if depth == 0:
                    break
                depth -= 1
            elif c in " \t\n" and depth == 0:
                break
            self.pos += 1
        return text[start : self.pos]

    def instantiate(
        self, cls: type, name: str, options: list[tuple[str, str | None, int]], pos: int
    ) -> Any:
        defs = {o.name: o for o in cls.option_defs()}
        values: dict[str, Any] = {}
        for key, text, kpos in options:
            opt = defs.get(key)
            if opt is None:
                known = ", ".join(sorted(defs)) or "none"
                raise self.error(f"no option '{key}' for '{name}' (options: {known})", kpos)
            try:
                values[opt.attr] = opt.parse(text)
            except ValueError as e:
                raise self.error(
                    f"invalid value '{text}' for option '{key}' of '{name}': {e}", kpos
                ) from None
        return cls(**values)
