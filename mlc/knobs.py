"""Knobs: the decisions passes expose to autotuners (domains, stable sites, the knob context).

A pass asks at the point of decision, `ctx.knob(op, "inline", Bool(), default)`; with no
configuration it gets the default. The context records every question (the *knob space* a run
met), answers from a candidate configuration, else from a store of best-known values, else the
default (well-formed completion), and dumps/loads JSON.

    >>> k = KnobContext({"@main/func.call:1a2b3c4d/0/inline": False})
    >>> k.dump()  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from mlc.diagnostics import Diagnostic, DiagnosticError, emit_warning
from mlc.ir.attributes import Location, UnknownLoc, file_line_col
from mlc.ir.core import Operation

__all__ = [
    "Domain",
    "IntRange",
    "PowerOfTwo",
    "Choice",
    "Bool",
    "Permutation",
    "domain_from_json",
    "Site",
    "site_of",
    "KnobError",
    "KnobRecord",
    "KnobStore",
    "KnobContext",
    "load_config",
    "complete",
]

# ---------------------------------------------------------------------------------------------
# Domains


class Domain:
    """The set of values a knob may take. Subclasses are small immutable value objects."""

    __slots__ = ()
    kind = ""

    def contains(self, value: Any) -> bool:
        raise NotImplementedError

    def values(self) -> Iterator[Any]:
        """Every value, in a fixed order (for exhaustive search)."""
        raise NotImplementedError

    def size(self) -> int:
        raise NotImplementedError

    def normalize(self, value: Any) -> Any:
        """Map a JSON-decoded value to the domain's Python form (lists -> tuples, ...)."""
        return value

    def to_json_value(self, value: Any) -> Any:
        return value

    def sample(self, rng: random.Random) -> Any:
        return rng.choice(list(self.values()))

    def to_json(self) -> dict[str, Any]:
        raise NotImplementedError

    def __str__(self) -> str:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self}>"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.to_json() == other.to_json()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(str(self))


def _is_int(v: Any) -> bool:
    return type(v) is int


class IntRange(Domain):
    """Integers `lo, lo+step, ..., <= hi` (inclusive)."""

    __slots__ = ("lo", "hi", "step")
    kind = "int"

    def __init__(self, lo: int, hi: int, step: int = 1) -> None:
        if step < 1 or hi < lo:
            raise ValueError(f"empty integer range [{lo}, {hi}] step {step}")
        self.lo, self.hi, self.step = lo, hi, step

    def contains(self, value: Any) -> bool:
        return _is_int(value) and self.lo <= value <= self.hi and (value - self.lo) % self.step == 0

    def values(self) -> Iterator[int]:
        return iter(range(self.lo, self.hi + 1, self.step))

    def size(self) -> int:
        return (self.hi - self.lo) // self.step + 1

    def sample(self, rng: random.Random) -> int:
        return self.lo + self.step * rng.randrange(self.size())

    def to_json(self) -> dict[str, Any]:
        return {"kind": "int", "min": self.lo, "max": self.hi, "step": self.step}

    def __str__(self) -> str:
        step = f" step {self.step}" if self.step != 1 else ""
        return f"int[{self.lo}..{self.hi}{step}]"


class PowerOfTwo(Domain):
    """Powers of two in `[lo, hi]` (both rounded inward to powers of two)."""

    __slots__ = ("lo", "hi")
    kind = "pow2"

    def __init__(self, lo: int, hi: int) -> None:
        lo = max(lo, 1)
        p = 1
        while p < lo:
            p <<= 1
        q = 1
        while q * 2 <= hi:
            q <<= 1
        if p > q:
            raise ValueError(f"no power of two in [{lo}, {hi}]")
        self.lo, self.hi = p, q

    def contains(self, value: Any) -> bool:
        return _is_int(value) and self.lo <= value <= self.hi and value & (value - 1) == 0

    def values(self) -> Iterator[int]:
        v = self.lo
        while v <= self.hi:
            yield v
            v <<= 1

    def size(self) -> int:
        return self.hi.bit_length() - self.lo.bit_length() + 1

    def to_json(self) -> dict[str, Any]:
        return {"kind": "pow2", "min": self.lo, "max": self.hi}

    def __str__(self) -> str:
        return f"pow2[{self.lo}..{self.hi}]"


class Choice(Domain):
    """One of a list of JSON scalars (strings, integers, booleans)."""

    __slots__ = ("options",)
    kind = "choice"

    def __init__(self, *options: Any) -> None:
        if len(options) == 1 and isinstance(options[0], (list, tuple)):
            options = tuple(options[0])
        if not options:
            raise ValueError("a choice needs at least one option")
        self.options = tuple(options)

    def contains(self, value: Any) -> bool:
        # `True == 1` in Python: compare types too, so a bool is not taken for an int.
        return any(type(value) is type(o) and value == o for o in self.options)

    def values(self) -> Iterator[Any]:
        return iter(self.options)

    def size(self) -> int:
        return len(self.options)

    def to_json(self) -> dict[str, Any]:
        return {"kind": "choice", "options": list(self.options)}

    def __str__(self) -> str:
        return "choice[" + ", ".join(json.dumps(o) for o in self.options) + "]"


class Bool(Domain):
    """`false` or `true`."""

    __slots__ = ()
    kind = "bool"

    def contains(self, value: Any) -> bool:
        return type(value) is bool

    def values(self) -> Iterator[bool]:
        return iter((False, True))

    def size(self) -> int:
        return 2

    def to_json(self) -> dict[str, Any]:
        return {"kind": "bool"}

    def __str__(self) -> str:
        return "bool"


class Permutation(Domain):
    """A permutation of `0..n-1` (a tuple; a JSON list)."""

    __slots__ = ("n",)
    kind = "perm"

    def __init__(self, n: int) -> None:
        if n < 0:
            raise ValueError("a permutation needs n >= 0")
        self.n = n

    def normalize(self, value: Any) -> Any:
        return tuple(value) if isinstance(value, list) else value

    def to_json_value(self, value: Any) -> Any:
        return list(value)

    def contains(self, value: Any) -> bool:
        return (
            type(value) is tuple
            and len(value) == self.n
            and all(_is_int(v) for v in value)
            and sorted(value) == list(range(self.n))
        )

    def values(self) -> Iterator[tuple[int, ...]]:
        import itertools

        return itertools.permutations(range(self.n))

    def size(self) -> int:
        import math

        return math.factorial(self.n)

    def sample(self, rng: random.Random) -> tuple[int, ...]:
        perm = list(range(self.n))
        rng.shuffle(perm)
        return tuple(perm)

    def to_json(self) -> dict[str, Any]:
        return {"kind": "perm", "n": self.n}

    def __str__(self) -> str:
        return f"perm({self.n})"


def domain_from_json(data: Mapping[str, Any]) -> Domain:
    """Rebuild a domain from its `to_json()` form."""
    kind = data.get("kind")
    if kind == "int":
        return IntRange(data["min"], data["max"], data.get("step", 1))
    if kind == "pow2":
        return PowerOfTwo(data["min"], data["max"])
    if kind == "choice":
        return Choice(*data["options"])
    if kind == "bool":
        return Bool()
    if kind == "perm":
        return Permutation(data["n"])
    raise ValueError(f"unknown knob domain kind {kind!r}")


# ---------------------------------------------------------------------------------------------
# Sites: stable keys for places in the IR


class Site:
    """A place where decisions are made: `key` = function symbol + structural fingerprint."""

    __slots__ = ("key", "op", "location")

    def __init__(
        self, key: str, op: Operation | None = None, location: Location | None = None
    ) -> None:
        self.key = key
        self.op = op
        self.location = location if location is not None else (op.location if op else UnknownLoc())

    def __repr__(self) -> str:
        return f"<Site {self.key}>"


def _symbol_scope(op: Operation) -> tuple[str, Operation | None]:
    """The name of the nearest enclosing symbol op (the function), and that op."""
    cur = op.parent_op
    while cur is not None:
        name = cur.get_attr("sym_name")
        if name is not None:
            return "@" + str(getattr(name, "value", name)), cur
        cur = cur.parent_op
    return "@", None


def _attr_text(attr: Any) -> str:
    try:
        return str(attr)
    except Exception:  # a dialect attribute without a printer: fall back to its parameters
        return repr(getattr(attr, "parameters", attr))


# Texts of the (interned, immortal) types and short attributes met by fingerprints: printing a
# type is ~10 Python calls, and a function's ops repeat a handful of types thousands of times.
# Long texts (dense constants) are not kept.
_TEXTS: dict[Any, str] = {}
_TEXT_LIMIT = 200


def _text(attr: Any) -> str:
    text = _TEXTS.get(attr)
    if text is None:
        text = _attr_text(attr)
        if len(text) <= _TEXT_LIMIT:
            _TEXTS[attr] = text
    return text


def _signature(op: Operation, memo: dict[Operation, str] | None = None) -> str:
    """A rename-proof structural description of `op` and everything nested in it.

    The items (name, operand types, result types, attributes, and per region its blocks'
    argument types and nested ops) are joined by U+001F. A nested op enters as the digest of its
    own description (16 bytes of BLAKE2b, in hex), not as its text: each op's text is then
    hashed once, where embedding nested descriptions copies it into every enclosing op's
    (quadratic in the depth of a loop nest; the MLP's compile built 1.4 MB of descriptions that
    way, 0.4 MB this way). `memo` (op -> description, valid while the IR does not change) lets
    a walk that fingerprints every op of a nest describe each op once instead of once per
    enclosing op.
    """
    text = _text
    # Operand types only: where an operand comes from changes with earlier decisions (a call
    # inlined before this one), which must not change this op's key.
    parts = [
        op.name,
        "(" + ",".join([text(u.value.type) for u in op._operands]) + ")",
        "->(" + ",".join([text(r.type) for r in op.results]) + ")",
    ]
    attrs = op._attrs
    if attrs:
        for k in sorted(attrs):
            parts.append(f"{k}={text(attrs[k])}")
    for region in op.regions:
        parts.append("{")
        for block in region.blocks:
            parts.append("[" + ",".join([text(a.type) for a in block.arguments]) + "]")
            for child in block:
                nested = memo.get(child) if memo is not None else None
                if nested is None:
                    nested = _signature(child, memo)
                parts.append(hashlib.blake2b(nested.encode(), digest_size=16).hexdigest())
        parts.append("}")
    sig = "\x1f".join(parts)
    if memo is not None:
        memo[op] = sig
    return sig


def fingerprint(op: Operation, memo: dict[Operation, str] | None = None) -> str:
    """A stable 8-hex-digit hash of the op's structure (names, types, attributes, regions).

    SSA names and locations do not enter, so renaming and unrelated edits keep it. `memo`: see
    `_signature`.
    """
    sig = memo.get(op) if memo is not None else None
    if sig is None:
        sig = _signature(op, memo)
    return hashlib.blake2b(sig.encode(), digest_size=4).hexdigest()


class _SiteIndex:
    """Occurrence numbers of fingerprints within one symbol scope.

    The first use of an op name numbers every op of that name in the scope in pre-order. An op
    created after that (a pass asking knobs at ops it just built) is numbered after the ops
    already counted with its fingerprint, in the order it is asked: numbering it by its position
    would re-walk and re-fingerprint the scope for every new op (quadratic in a pass that builds
    many). Both runs of a pipeline (the one that dumps the knobs and the one that applies them)
    create and ask in the same order, so the sites agree.
    """

    __slots__ = ("by_name",)

    def __init__(self) -> None:
        # op name -> (occurrence of each op met, next occurrence of each fingerprint)
        self.by_name: dict[str, tuple[dict[Operation, int], dict[str, int]]] = {}

    def occurrence(
        self, scope: Operation | None, op: Operation, fp: str, memo: dict | None = None
    ) -> int:
        entry = self.by_name.get(op.name)
        if entry is None:
            table: dict[Operation, int] = {}
            counts: dict[str, int] = {}
            root = scope if scope is not None else _root(op)
            name = op.name
            if memo is None:
                memo = {}
            for other in root.walk(post_order=False):
                if other.name == name and other is not root:
                    ofp = fp if other is op else fingerprint(other, memo)
                    n = counts.get(ofp, 0)
                    counts[ofp] = n + 1
                    table[other] = n
            entry = self.by_name[name] = (table, counts)
        table, counts = entry
        n = table.get(op)  # type: ignore[assignment]
        if n is None:  # created since the scope was numbered
            n = table[op] = counts.get(fp, 0)
            counts[fp] = n + 1
        return n


def _root(op: Operation) -> Operation:
    while op.parent_op is not None:
        op = op.parent_op
    return op


def site_of(
    op: Operation,
    cache: dict[int, _SiteIndex] | None = None,
    memo: dict[Operation, str] | None = None,
) -> Site:
    """The site of `op`: `@function/op.name:fingerprint/occurrence`.

    The occurrence counts earlier ops of the same fingerprint in the same function (pre-order),
    so two identical calls in one function get distinct, stable keys. `memo` (see
    `_signature`): descriptions shared by the sites a caller asks while the ops they describe
    do not change (the sites of nested loops then describe each op once, not once per
    enclosing site); the keys are the same with or without it.
    """
    scope_name, scope = _symbol_scope(op)
    fp = fingerprint(op, memo)
    if cache is None:
        index = _SiteIndex()
    else:
        index = cache.get(id(scope))  # type: ignore[assignment]
        if index is None:
            index = cache[id(scope)] = _SiteIndex()
    n = index.occurrence(scope, op, fp, memo)
    return Site(f"{scope_name}/{op.name}:{fp}/{n}", op)


# ---------------------------------------------------------------------------------------------
# The knob context


class KnobError(DiagnosticError):
    """A configuration value outside its knob's domain (or a malformed configuration)."""


class KnobRecord:
    """One knob met during a run: where, which pass, its domain, default and the value used."""

    __slots__ = (
        "key",
        "site",
        "pass_name",
        "name",
        "domain",
        "default",
        "value",
        "source",
        "location",
    )

    def __init__(
        self,
        key: str,
        site: str,
        pass_name: str,
        name: str,
        domain: Domain,
        default: Any,
        value: Any,
        source: str,
        location: Location,
    ) -> None:
        self.key = key
        self.site = site
        self.pass_name = pass_name
        self.name = name
        self.domain = domain
        self.default = default
        self.value = value
        self.source = source
        self.location = location

    def to_json(self) -> dict[str, Any]:
        loc = file_line_col(self.location)
        return {
            "key": self.key,
            "site": self.site,
            "pass": self.pass_name,
            "knob": self.name,
            "domain": self.domain.to_json(),
            "default": self.domain.to_json_value(self.default),
            "value": self.domain.to_json_value(self.value),
            "source": self.source,
            "location": f"{loc.filename}:{loc.line}:{loc.col}" if loc is not None else None,
        }

    def __repr__(self) -> str:
        return f"<Knob {self.key} = {self.value!r} ({self.source})>"


class KnobStore:
    """Best-known values per knob key (e.g. from a tuning database). Subclass `get`."""

    def get(self, key: str) -> Any:
        return None


class _DictStore(KnobStore):
    def __init__(self, values: Mapping[str, Any]) -> None:
        self.values = dict(values)

    def get(self, key: str) -> Any:
        return self.values.get(key)


class KnobContext:
    """Answers knob questions (candidate, else store, else default) and records them.

    `candidate` maps knob keys to values; a value outside its domain raises `KnobError`
    naming the knob and the domain. `store` (a mapping or KnobStore) supplies best-known
    values for keys the candidate does not set; out-of-domain store values are ignored
    (the domain may have changed since they were stored).
    """

    __slots__ = ("candidate", "store", "records", "_used", "_site_cache")

    def __init__(
        self,
        candidate: Mapping[str, Any] | None = None,
        store: KnobStore | Mapping[str, Any] | None = None,
    ) -> None:
        self.candidate: dict[str, Any] = dict(candidate) if candidate else {}
        if store is not None and not isinstance(store, KnobStore):
            store = _DictStore(store)
        self.store: KnobStore | None = store
        self.records: dict[str, KnobRecord] = {}
        self._used: set[str] = set()
        self._site_cache: dict[int, _SiteIndex] = {}

    def site(self, op: Operation, memo: dict[Operation, str] | None = None) -> Site:
        """The site of `op` (cached per function while the IR is unchanged; see `invalidate`).
        `memo`: see `site_of`."""
        return site_of(op, self._site_cache, memo)

    def invalidate(self) -> None:
        """Forget site occurrence numbers (called by the pass manager between passes)."""
        self._site_cache.clear()

    def ask(
        self, site: Site | Operation, name: str, domain: Domain, default: Any, pass_name: str = ""
    ) -> Any:
        """The value for knob `name` at `site`: candidate, else store, else `default`."""
        if isinstance(site, Operation):
            site = self.site(site)
        if not domain.contains(default):
            raise ValueError(f"default {default!r} of knob '{name}' is outside its domain {domain}")
        key = f"{site.key}/{name}"
        rec = self.records.get(key)
        if rec is not None:
            return rec.value
        value, source = default, "default"
        if key in self.candidate:
            self._used.add(key)
            value = domain.normalize(self.candidate[key])
            if not domain.contains(value):
                raise KnobError(
                    Diagnostic(
                        "error",
                        f"value {_shown(self.candidate[key])} of knob '{key}' is outside "
                        f"its domain {domain}",
                        site.location,
                    )
                )
            source = "candidate"
        elif self.store is not None:
            stored = self.store.get(key)
            if stored is not None:
                stored = domain.normalize(stored)
                if domain.contains(stored):
                    value, source = stored, "store"
        self.records[key] = KnobRecord(
            key, site.key, pass_name, name, domain, default, value, source, site.location
        )
        return value

    def unknown_keys(self) -> list[str]:
        """Candidate keys that no pass asked for."""
        return [k for k in self.candidate if k not in self._used]

    def warn_unknown_keys(self) -> None:
        for key in self.unknown_keys():
            emit_warning(f"unknown knob key '{key}' in the configuration (no pass asked for it)")

    def space(self) -> list[KnobRecord]:
        """The knobs met so far, in the order they were asked."""
        return list(self.records.values())

    def config(self) -> dict[str, Any]:
        """The values used, as a configuration (key -> JSON value)."""
        return {k: r.domain.to_json_value(r.value) for k, r in self.records.items()}

    def to_json(self) -> dict[str, Any]:
        return {"version": 1, "knobs": [r.to_json() for r in self.records.values()]}

    def dump(self, path: str | Path | None = None) -> str:
        """The knob space as JSON text; written to `path` when given."""
        text = json.dumps(self.to_json(), indent=2) + "\n"
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text


def _shown(value: Any) -> str:
    """A candidate value as its JSON text, or its repr when it has none (a Python object)."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def _parse_config(data: Any, origin: str) -> dict[str, Any]:
    if isinstance(data, dict) and isinstance(data.get("knobs"), list):
        # A knob-space dump: take each knob's value.
        return {k["key"]: k.get("value", k.get("default")) for k in data["knobs"]}
    if not isinstance(data, dict):
        raise KnobError(f"knob configuration {origin} must be a JSON object (key -> value)")
    return dict(data)


def load_config(source: str | Path | Mapping[str, Any]) -> dict[str, Any]:
    """A configuration from a JSON file path, a JSON text, or a mapping.

    A knob-space dump (`{"knobs": [...]}`) is accepted too: its values are taken.
    """
    if isinstance(source, Mapping):
        return _parse_config(dict(source), "object")
    if not isinstance(source, (str, Path)):
        raise TypeError(
            "knob configuration must be a mapping, JSON text or a file path, "
            f"got {type(source).__name__}"
        )
    text = str(source)
    if not text.lstrip().startswith("{"):
        try:
            text = Path(text).read_text(encoding="utf-8")
        except OSError as e:
            raise KnobError(f"cannot read knob configuration '{source}': {e.strerror}") from None
        except UnicodeDecodeError as e:
            raise KnobError(
                f"knob configuration '{source}' is not UTF-8 text (byte {e.start})"
            ) from None
        origin = f"'{source}'"
    else:
        origin = "text"
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise KnobError(f"knob configuration {origin} is not valid JSON: {e}") from None
    return _parse_config(data, origin)


def complete(
    candidate: Mapping[str, Any],
    space: Iterable[KnobRecord],
    store: KnobStore | Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Make a candidate well-formed for a knob space: per knob, the candidate's value if it is
    in the domain, else the stored best, else the default. Keys outside the space are dropped.
    """
    if store is not None and not isinstance(store, KnobStore):
        store = _DictStore(store)
    out: dict[str, Any] = {}
    for rec in space:
        dom = rec.domain
        value = rec.default
        for source in (candidate.get(rec.key), store.get(rec.key) if store is not None else None):
            if source is None:
                continue
            v = dom.normalize(source)
            if dom.contains(v):
                value = v
                break
        out[rec.key] = dom.to_json_value(value)
    return out


def records_from_json(data: Mapping[str, Any] | Sequence[Any]) -> list[KnobRecord]:
    """Knob records from a dump (`KnobContext.to_json()`), e.g. to `complete` against."""
    items = data["knobs"] if isinstance(data, Mapping) else data
    out = []
    for k in items:
        dom = domain_from_json(k["domain"])
        default = dom.normalize(k["default"])
        value = dom.normalize(k.get("value", k["default"]))
        out.append(
            KnobRecord(
                k["key"],
                k.get("site", ""),
                k.get("pass", ""),
                k["knob"],
                dom,
                default,
                value,
                k.get("source", "default"),
                UnknownLoc(),
            )
        )
    return out
