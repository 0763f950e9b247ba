"""Splitting LLVM IR text into parts that LLVM optimizes and compiles to machine code
independently (one thread each), for MCJIT to link back together.

Functions that call each other directly stay in one part (so the inliner still sees them), and
so do the globals they use; a function that another part only takes the address of (an outlined
`affine.parallel` body handed to `mlc_parallel_for`) is exported with hidden visibility from its
part and declared in the other. A module this does not understand (aliases, comdats, unnamed
globals, metadata that names globals, discardable linkages, ...) is not split: the caller
compiles it whole.

    parts, why = split_module(text, max_parts=8)   # [] and the reason when not split
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Part", "split_module"]

_LINKAGES = frozenset(
    "private internal available_externally linkonce weak common appending extern_weak "
    "linkonce_odr weak_odr external".split()
)
_LOCAL = frozenset(("private", "internal"))
_PREEMPTION = frozenset(("dso_local", "dso_preemptable"))
_VISIBILITY = frozenset(("default", "hidden", "protected"))
# A global symbol (quoted or not, with `(` after it when it is a callee) or a string literal
# (`c"..."`, `!"..."`, a quoted local name), which is skipped so that its text is not scanned.
_TOKEN = re.compile(r'@(?:"([^"]*)"|([-A-Za-z$._0-9]+))(\(?)|"[^"]*"')
_LOCAL_NAME = re.compile(r'\s+%(?:"[^"]*"|[-A-Za-z$._0-9]+)$')
_OPEN = {"(": ")", "[": "]", "{": "}", "<": ">"}
_CUT_AFTER_PARAMS = re.compile(
    r"\s(?:section|partition|comdat|align|gc|prefix|prologue|personality)\b|\s!|\s*\{\s*$"
)
_TOP_LEVEL = ("define ", "declare ", "@", "}", "attributes ", "!", "%", "target ")
# A function smaller than this (in lines) is not worth a part (and the LLVM set-up) of its own.
MIN_PART_LINES = 32


@dataclass(frozen=True)
class Part:
    """One independently compiled piece: its IR text and the functions it defines."""

    text: str
    functions: tuple[str, ...]
    lines: int  # the size estimate it was scheduled by (lines of function bodies)


class _Unsplittable(Exception):
    pass


@dataclass
class _Item:
    """A top-level entity of the module, in text order."""

    kind: str  # "common" (copied to every part), "function", "global"
    lines: list[str]
    name: str = ""
    linkage: str = ""


def _unquote(name: str) -> str:
    return re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), name)


def _symbols(text: str) -> list[tuple[str, bool]]:
    """The global symbols `text` names, each with whether it is a direct callee (`@f(`)."""
    out = []
    for m in _TOKEN.finditer(text):
        quoted, plain, paren = m.group(1), m.group(2), m.group(3)
        if plain is not None:
            if plain.isdigit():
                raise _Unsplittable("unnamed global values")
            out.append((plain, bool(paren)))
        elif quoted is not None:
            out.append((_unquote(quoted), bool(paren)))
    return out


def _prefix_words(words: list[str], k: int) -> tuple[str, str, str, int]:
    """(linkage, preemption, visibility, index after them) from `words[k:]`."""
    linkage = preemption = visibility = ""
    if k < len(words) and words[k] in _LINKAGES:
        linkage, k = words[k], k + 1
    if k < len(words) and words[k] in _PREEMPTION:
        preemption, k = words[k], k + 1
    if k < len(words) and words[k] in _VISIBILITY:
        visibility, k = words[k], k + 1
    return linkage, preemption, visibility, k


def _scan(text: str) -> list[_Item]:
    """The module's top-level items; raises _Unsplittable on what the splitter does not handle."""
    lines = text.split("\n")
    items: list[_Item] = []
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        head = line[:1]
        if line.startswith("define "):
            if "{" in line and not line.rstrip().endswith("{"):
                raise _Unsplittable("a function defined on one line")
            h = i  # a header may span lines (parameters one per line): joined into one
            while h < n and not lines[h].rstrip().endswith("{"):
                h += 1
                if h < n and lines[h].startswith(_TOP_LEVEL):
                    raise _Unsplittable("a function defined on one line")
            header = " ".join(x.strip() for x in lines[i : h + 1])
            j = h + 1
            while j < n and lines[j] != "}":
                j += 1
            if j >= n:
                raise _Unsplittable("a function body not closed by a '}' line")
            syms = _symbols(header)
            if not syms:
                raise _Unsplittable("a function without a name")
            linkage = _prefix_words(header.split(), 1)[0] or "external"
            items.append(_Item("function", [header, *lines[h + 1 : j + 1]], syms[0][0], linkage))
            i = j + 1
            continue
        if head == "@":
            m = _TOKEN.match(line)
            rest_text = line[m.end() :].lstrip() if m is not None else ""
            if m is None or not rest_text.startswith("="):
                raise _Unsplittable(f"unrecognized global: {line[:60]}")
            name = _symbols(line[: m.end()])[0][0]
            words = rest_text[1:].split()
            linkage, _, _, k = _prefix_words(words, 0)
            rest = words[k:]
            if "alias" in rest[:4] or "ifunc" in rest[:4]:
                raise _Unsplittable("aliases and ifuncs")
            if linkage in ("external", "extern_weak"):
                items.append(_Item("common", [line]))  # a declaration
            else:
                items.append(_Item("global", [line], name, linkage or "external"))
        elif line.startswith("declare ") or not line.strip() or head == ";":
            items.append(_Item("common", [line]))
        elif head == "!":
            if "@" in line:
                raise _Unsplittable("metadata that refers to global values")
            items.append(_Item("common", [line]))
        elif head == "%" and " = type " in line:
            items.append(_Item("common", [line]))
        elif line.startswith(("attributes #", "source_filename", "target ")):
            items.append(_Item("common", [line]))
        else:
            raise _Unsplittable(f"unrecognized top-level entity: {line[:60]}")
        i += 1
    return items


def _matching(text: str, start: int) -> int:
    """The index of the bracket closing the one at `text[start]`, skipping string literals."""
    depth, k = 0, start
    closers = set(_OPEN.values())
    while k < len(text):
        c = text[k]
        if c == '"':
            k = text.index('"', k + 1)
        elif c in _OPEN:
            depth += 1
        elif c in closers and not (c == ">" and text[k - 1] == "-"):
            depth -= 1
            if depth == 0:
                return k
        k += 1
    raise _Unsplittable("unbalanced brackets in a function header")


def _declaration(header: str, exported_local: bool) -> str:
    """`declare ...` for the function whose `define ... {` line is `header`."""
    m = _TOKEN.search(header)
    assert m is not None
    open_paren = m.end() - 1
    if header[open_paren] != "(":
        raise _Unsplittable("a function header without a parameter list")
    close = _matching(header, open_paren)
    words = header[: m.start()].split()
    linkage, preemption, visibility, k = _prefix_words(words, 1)
    if exported_local:
        visibility = "hidden"
    params = []
    depth, start = 0, open_paren + 1
    for pos in range(open_paren + 1, close + 1):
        c = header[pos]
        if c in "([{<":
            depth += 1
        elif c in ")]}>" and not (c == ">" and header[pos - 1] == "-"):
            depth -= 1
        if (c == "," and depth == 0) or pos == close:
            p = header[start:pos].strip()
            if p:
                stripped = _LOCAL_NAME.sub("", p)
                params.append(stripped if stripped else p)
            start = pos + 1
    tail = header[close + 1 :]
    cut = _CUT_AFTER_PARAMS.search(tail)
    tail = tail[: cut.start()] if cut else tail
    words = ["declare", preemption, visibility] + words[k:]
    name = header[m.start() : open_paren]
    return " ".join(w for w in words if w) + f" {name}({', '.join(params)}){tail.rstrip()}"


_LOCAL_PREFIX = re.compile(
    r"^(define\s+|@(?:\"[^\"]*\"|[-A-Za-z$._0-9]+)\s*=\s*)(?:private|internal)\s+"
    r"((?:dso_local|dso_preemptable)\s+)?(?:(?:default|hidden|protected)\s+)?"
)


def _exported(line: str) -> str:
    """The `define` line of a local function, or the line of a local global, that another
    part refers to: external linkage, hidden visibility."""
    m = _LOCAL_PREFIX.match(line)
    assert m is not None
    return f"{m.group(1)}{m.group(2) or ''}hidden {line[m.end() :]}"


class _Sets:
    """Union-find over symbol names."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        root = x
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[x] != root:
            self.parent[x], x = root, self.parent[x]
        return root

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra


def split_module(text: str, max_parts: int, min_lines: int | None = None) -> tuple[list[Part], str]:
    """At most `max_parts` parts of the module `text`, or ([], why) when it is not split
    (one part only, or a construct the splitter does not handle). A group of functions under
    `min_lines` lines (default `MIN_PART_LINES`) does not count towards the parts."""
    if max_parts < 2:
        return [], "one compile thread"
    try:
        return _split(text, max_parts, MIN_PART_LINES if min_lines is None else min_lines)
    except _Unsplittable as e:
        return [], f"not split: {e}"


def _split(text: str, max_parts: int, min_lines: int) -> tuple[list[Part], str]:
    items = _scan(text)
    defined = {it.name: it for it in items if it.kind != "common"}
    functions = [it for it in items if it.kind == "function"]
    if len(functions) < 2:
        return [], "fewer than two functions"
    sets = _Sets()
    for name in defined:
        sets.parent[name] = name
    address_refs: dict[str, set[str]] = {}
    for it in items:
        if it.kind == "common":
            continue
        if it.linkage not in ("external",) and it.linkage not in _LOCAL:
            raise _Unsplittable(f"{it.linkage} linkage")
        refs = address_refs.setdefault(it.name, set())
        for sym, called in _symbols("\n".join(it.lines)):
            target = defined.get(sym)
            if target is None or sym == it.name:
                continue
            if it.kind == "function" and target.kind == "function" and not called:
                refs.add(sym)  # only its address: may live in another part
            else:
                sets.union(it.name, sym)
    # Components, with their size; then largest first into the currently smallest part.
    sizes: dict[str, int] = {}
    for it in functions:
        root = sets.find(it.name)
        sizes[root] = sizes.get(root, 0) + len(it.lines)
    big = sum(1 for s in sizes.values() if s >= min_lines)
    nparts = min(max_parts, max(big, 1), len(sizes))
    if nparts < 2:
        return [], "one part (functions that call each other stay together)"
    loads = [0] * nparts
    part_of_root: dict[str, int] = {}
    for root in sorted(sizes, key=lambda r: (-sizes[r], r)):
        k = loads.index(min(loads))
        part_of_root[root] = k
        loads[k] += sizes[root]
    part_of: dict[str, int] = {}
    for name in defined:
        root = sets.find(name)
        part_of[name] = part_of_root.get(root, 0)  # globals no function uses: part 0
    exported: set[str] = set()
    declared: list[set[str]] = [set() for _ in range(nparts)]
    for name, refs in address_refs.items():
        for ref in refs:
            if part_of[ref] != part_of[name]:
                exported.add(ref)
                declared[part_of[name]].add(ref)
    parts = []
    for k in range(nparts):
        out: list[str] = []
        names: list[str] = []
        for it in items:
            if it.kind == "common":
                out.extend(it.lines)
            elif part_of[it.name] == k:
                local_export = it.name in exported and it.linkage in _LOCAL
                if it.kind == "function":
                    names.append(it.name)
                    head = _exported(it.lines[0]) if local_export else it.lines[0]
                    out.append(head)
                    out.extend(it.lines[1:])
                else:
                    out.append(_exported(it.lines[0]) if local_export else it.lines[0])
            elif it.name in declared[k]:
                out.append(_declaration(it.lines[0], it.linkage in _LOCAL))
        parts.append(Part("\n".join(out) + "\n", tuple(names), loads[k]))
    order = sorted(range(nparts), key=lambda k: -loads[k])
    return [parts[k] for k in order], f"split into {nparts} parts"
