"""Fuzzing the parser, verifier and printer with mutated .mlir files (fixed seed, deterministic).

Every `.mlir` file under test/lit and examples (and MLIR's reference prints under test/interop)
is cut at `// -----` and mutated: byte flips, truncation, token and line edits, inserted
punctuation/keywords/types, deep nesting, huge integers, invalid UTF-8. On each mutant,
parse + verify + print may only raise `mlc.ParseError` / `mlc.VerifyError`; a module that
verifies must print, and its print must parse again. A subset goes through `mlc-opt`'s `main`,
which must exit 0 or 1 without a traceback.

`MLC_FUZZ_CASES=N` changes the number of mutants (default 4000), `MLC_FUZZ_SEED` the seed.
"""

from __future__ import annotations

import os
import random
import re
import signal
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import mlc

ROOT = Path(__file__).resolve().parents[2]
CASES = int(os.environ.get("MLC_FUZZ_CASES", "4000"))
SEED = int(os.environ.get("MLC_FUZZ_SEED", "20240611"))
SHARDS = 16
CLI_CASES = 200
CASE_TIMEOUT_S = 10  # a mutant that takes longer is reported as a hang

# Used when the repository has no .mlir files yet, and always as extra seeds.
BUILTIN_SEEDS = [
    """func.func @f(%a: i32, %b: i32) -> i32 {
  %c = arith.constant 42 : i32
  %0 = arith.addi %a, %b : i32
  %1 = arith.muli %0, %c overflow<nsw> : i32
  %2 = arith.cmpi slt, %1, %a : i32
  %3 = arith.select %2, %1, %a : i32
  return %3 : i32
}
""",
    """#map = affine_map<(d0, d1)[s0] -> (d0 + s0, d1 floordiv 2)>
module attributes {test.m = #map} {
  func.func private @ext(tensor<?x4xf32>, memref<4xf32, strided<[1], offset: ?>>) -> vector<[4]xf32>
  func.func @g(%x: f32, %t: tensor<2x2xf32>) -> (f32, tensor<2x2xf32>) {
    %cst = arith.constant dense<[[1.0, -0.0], [0x7FC00000, 2.5e+10]]> : tensor<2x2xf32>
    %0 = arith.addf %t, %cst fastmath<fast> : tensor<2x2xf32>
    %1 = math.sqrt %x : f32 loc("g.py":3:4)
    %2 = math.fma %1, %1, %x : f32
    %i = arith.fptosi %2 : f32 to i32
    %e = arith.extsi %i : i32 to i64
    %c = func.call @h(%2) : (f32) -> f32
    return %c, %0 : f32, tensor<2x2xf32>
  }
  func.func @h(%x: f32) -> f32 {
    return %x : f32
  }
}
""",
    """"test.op"() ({
^bb0(%a: i32, %b: !test.t<1>):
  %0:2 = "test.multi"(%a) {s = "esc\\22\\n\\FF", arr = [1, [2.5 : f16, unit]],
                           d = array<i32: 1, 2>} : (i32) -> (i8, tuple<i1, index>)
  "test.br"(%0#0)[^bb1] : (i8) -> ()
^bb1:
  "test.ret"() : () -> () loc(fused["a":1:2, callsite("b":3:4 at "c":5:6)])
}) {sym = @a::@b, e = #test.e<x>} : () -> ()
""",
    """"builtin.module"() ({
  "func.func"() <{function_type = (i64) -> i64, sym_name = "k"}> ({
  ^bb0(%arg0: i64):
    %0 = "arith.addi"(%arg0, %arg0) <{overflowFlags = #arith.overflow<none>}> : (i64, i64) -> i64
    "func.return"(%0) : (i64) -> ()
  }) : () -> ()
}) : () -> ()
""",
]

PUNCT = list("(){}[]<>,:=?*+-%^#!@\"'\\/.x") + ["->", "::", "...", "{-#", "#-}", "//"]
KEYWORDS = [
    "func.func", "arith.addi", "math.exp", "module", "return", "loc", "dense", "array",
    "affine_map", "affine_set", "strided", "offset", "unit", "true", "false", "attributes",
    "private", "unknown", "fused", "callsite", "to", "at", "overflow", "fastmath", "builtin.module",
    "\"test.op\"", "\"builtin.module\"", "\"func.return\"", "%0", "%arg0", "^bb0", "^bb1", "@f",
    "#map", "!t", "#loc", "%0#1", "%x:2", "{-# dialect_resources: {} #-}",
]  # fmt: skip
TYPES = [
    "i32", "i0", "si8", "ui64", "i16777215", "i99999999", "index", "f32", "bf16", "f8E4M3FN",
    "none", "tensor<?x4xf32>", "tensor<*xi1>", "memref<4xf32, 1>", "vector<[4]xf32>",
    "vector<0xf32>", "complex<f64>", "tuple<>", "() -> ()", "(i32) -> (i32, f32)",
    "tensor<4xf32, #enc>", "memref<?xf32, strided<[?], offset: ?>>", "!test.t<{}>",
]  # fmt: skip
HUGE_INTS = [
    "9" * 40, "-" + "9" * 40, "18446744073709551616", "-9223372036854775809", "0x" + "F" * 40,
    "1" + "0" * 400, "0.0e99999", "1.0e-99999", "99999999999999999999999.5", "1e5",
]  # fmt: skip

_TOKEN = re.compile(r'\s+|"(?:[^"\\\n]|\\.)*"|[%^@#!]?[\w.$-]+(?:#\d+)?|->|::|\.\.\.|.', re.DOTALL)


# ---------------------------------------------------------------------------------------------
# Seeds and mutations


def seed_texts() -> list[tuple[str, str]]:
    """(name, text) of every seed: files split at `// -----`, plus the built-in seeds."""
    paths: list[Path] = []
    for folder in ("test/lit", "examples", "test/interop"):
        paths += sorted((ROOT / folder).rglob("*.mlir"))
    seeds: list[tuple[str, str]] = []
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        for i, chunk in enumerate(re.split(r"^// -----.*$", text, flags=re.M)):
            if chunk.strip():
                seeds.append((f"{path.relative_to(ROOT)}#{i}", chunk))
    seeds += [(f"<builtin {i}>", t) for i, t in enumerate(BUILTIN_SEEDS)]
    return seeds


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _token_edit(rng: random.Random, text: str) -> tuple[str, str]:
    toks = tokens(text)
    if len(toks) < 2:
        return text + rng.choice(PUNCT), "append punct"
    idx = [i for i, t in enumerate(toks) if not t.isspace()] or [0]
    i = rng.choice(idx)
    how = rng.randrange(4)
    if how == 0:
        desc = f"delete token {toks[i]!r}"
        del toks[i]
    elif how == 1:
        desc = f"duplicate token {toks[i]!r}"
        toks.insert(i, toks[i])
    elif how == 2:
        j = rng.choice(idx)
        toks[i], toks[j] = toks[j], toks[i]
        desc = f"swap tokens {toks[j]!r} and {toks[i]!r}"
    else:
        j = rng.choice(idx)
        desc = f"replace token {toks[i]!r} with {toks[j]!r}"
        toks[i] = toks[j]
    return "".join(toks), desc


def _line_edit(rng: random.Random, text: str) -> tuple[str, str]:
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    how = rng.randrange(3)
    if how == 0:
        desc = f"delete line {i + 1}"
        del lines[i]
    elif how == 1:
        desc = f"duplicate line {i + 1}"
        lines.insert(i, lines[i])
    else:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        desc = f"swap lines {i + 1} and {j + 1}"
    return "\n".join(lines), desc


def _insert(rng: random.Random, text: str) -> tuple[str, str]:
    toks = tokens(text)
    i = rng.randrange(len(toks) + 1)
    piece = rng.choice([rng.choice(PUNCT), rng.choice(KEYWORDS), rng.choice(TYPES)])
    sep = rng.choice(["", " "])
    toks.insert(i, sep + piece + sep)
    return "".join(toks), f"insert {piece!r} at token {i}"


def _nesting(rng: random.Random, text: str) -> tuple[str, str]:
    depth = rng.choice([50, 200, 1000, 5000, 20000])
    opener = rng.choice(
        [
            "(",
            "[",
            "{",
            "<",
            "tensor<",
            "vector<",
            "tuple<",
            "[[",
            "loc(fused[",
            "!test.t<",
            "affine_map<(d0) -> (",
            "dense<[",
            "complex<",
        ]
    )
    closer = {"(": ")", "[": "]", "{": "}", "<": ">"}
    tail = (
        "".join(closer.get(c, "") for c in reversed(opener)) * depth if rng.random() < 0.5 else ""
    )
    pos = rng.randrange(len(text) + 1)
    return text[:pos] + opener * depth + tail + text[pos:], f"nest {opener!r} x{depth} at {pos}"


def _huge_int(rng: random.Random, text: str) -> tuple[str, str]:
    nums = [m for m in re.finditer(r"(?<![\w%^#@!])\d+(?:\.\d+)?", text)]
    big = rng.choice(HUGE_INTS)
    if not nums:
        return text + big, f"append {big!r}"
    m = rng.choice(nums)
    return text[: m.start()] + big + text[m.end() :], f"replace {m.group()!r} with {big!r}"


def _byte_flip(rng: random.Random, text: str) -> tuple[str, str]:
    data = bytearray(text.encode("utf-8", errors="surrogateescape"))
    if not data:
        return "\udcff", "invalid byte"
    flips = []
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(data))
        bit = 1 << rng.randrange(8)
        data[i] ^= bit
        flips.append((i, bit))
    # Undecodable bytes become lone surrogates (what Python gives for invalid UTF-8).
    return data.decode("utf-8", errors="surrogateescape"), f"flip bits {flips}"


def _invalid_utf8(rng: random.Random, text: str) -> tuple[str, str]:
    junk = rng.choice(
        [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80\x80", b"\x00"]
    )
    data = text.encode("utf-8", errors="surrogateescape")
    pos = rng.randrange(len(data) + 1)
    out = (data[:pos] + junk + data[pos:]).decode("utf-8", errors="surrogateescape")
    return out, f"insert bytes {junk!r} at byte {pos}"


def _truncate(rng: random.Random, text: str) -> tuple[str, str]:
    pos = rng.randrange(len(text) + 1)
    return text[:pos], f"truncate at {pos}"


MUTATORS: list[tuple[Callable[[random.Random, str], tuple[str, str]], int]] = [
    (_token_edit, 6),
    (_line_edit, 3),
    (_insert, 5),
    (_truncate, 2),
    (_byte_flip, 2),
    (_huge_int, 2),
    (_nesting, 1),
    (_invalid_utf8, 1),
]
_WEIGHTED = [m for m, w in MUTATORS for _ in range(w)]


def mutants(count: int, seed: int) -> Iterator[tuple[int, str, str, str]]:
    """(case number, seed name, mutation description, text) for `count` mutants."""
    rng = random.Random(seed)
    seeds = seed_texts()
    for case in range(count):
        name, text = seeds[case % len(seeds)]
        descs = []
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            text, desc = rng.choice(_WEIGHTED)(rng, text)
            descs.append(desc)
        yield case, name, "; ".join(descs), text


# ---------------------------------------------------------------------------------------------
# Running one case


class Hang(Exception):
    pass


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    def on_alarm(signum: int, frame: object) -> None:
        raise Hang(f"no result after {seconds} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def run_case(text: str, allow_unregistered: bool) -> str | None:
    """Parse, verify and print `text`; None if all went as allowed, else what went wrong."""
    stage = "parse"
    try:
        with time_limit(CASE_TIMEOUT_S):
            module = mlc.parse(text, allow_unregistered=allow_unregistered, filename="fuzz.mlir")
            stage = "generic print (before verify)"
            module.print(generic=True)
            stage = "verify"
            try:
                module.verify()
            except mlc.VerifyError as e:
                stage = "render verify diagnostic"
                e.render()
                return None
            for flags in ({}, {"generic": True}, {"debuginfo": True}):
                stage = f"print {flags}"
                printed = module.print(**flags)
                stage = f"re-parse of print {flags}"
                again = mlc.parse(printed, allow_unregistered=allow_unregistered)
                stage = f"re-verify of print {flags}"
                again.verify()
    except (mlc.ParseError, mlc.VerifyError) as e:
        if stage.startswith("re-"):
            return f"{stage} failed: {type(e).__name__}: {e}\n--- printed:\n{printed}"
        try:
            e.render()
        except Exception:
            return f"rendering the {stage} diagnostic raised:\n{traceback.format_exc()}"
        return None
    except BaseException as e:  # noqa: BLE001 - anything else is the bug being hunted
        if isinstance(e, KeyboardInterrupt):
            raise
        return f"{stage}: {type(e).__name__}:\n{traceback.format_exc(limit=-8)}"
    return None


def _report(failures: list[str]) -> str:
    shown = failures[:5]
    more = f"\n... and {len(failures) - len(shown)} more" if len(failures) > len(shown) else ""
    return f"{len(failures)} mutant(s) misbehaved:\n\n" + "\n\n".join(shown) + more


@pytest.mark.parametrize("shard", range(SHARDS))
def test_mutants_raise_only_diagnostics(shard: int) -> None:
    failures = []
    for case, name, desc, text in mutants(CASES, SEED):
        if case % SHARDS != shard:
            continue
        allow = case % 3 != 0
        problem = run_case(text, allow)
        if problem is not None:
            shown = text if len(text) < 3000 else text[:3000] + f"... [{len(text)} chars]"
            failures.append(
                f"case {case} (seed {name}; {desc}; allow_unregistered={allow}): {problem}\n"
                f"--- reproducer:\n{shown!r}"
            )
    assert not failures, _report(failures)


def test_seeds_exist_and_mostly_parse() -> None:
    """The corpus is not empty, and the unmutated valid seeds parse (so mutants hit deep code)."""
    seeds = seed_texts()
    assert len(seeds) >= len(BUILTIN_SEEDS)
    builtin_ok = 0
    for _, text in seeds[-len(BUILTIN_SEEDS) :]:
        mlc.parse(text, allow_unregistered=True).verify()
        builtin_ok += 1
    assert builtin_ok == len(BUILTIN_SEEDS)


def test_mutations_are_deterministic() -> None:
    a = [t for *_, t in mutants(50, SEED)]
    b = [t for *_, t in mutants(50, SEED)]
    assert a == b
    assert len(set(a)) > 40


# ---------------------------------------------------------------------------------------------
# The command line


def _cli_main() -> Callable[[list[str]], int | None]:
    mod = pytest.importorskip("mlc.tools.mlc_opt")
    return mod.main


def test_mlc_opt_exits_cleanly_on_mutants(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main = _cli_main()
    rng = random.Random(SEED + 1)
    failures = []
    for case, name, desc, text in mutants(CLI_CASES, SEED + 2):
        path = tmp_path / f"case{case}.mlir"
        # Write the original bytes: invalid UTF-8 reaches the tool as it would from a file.
        path.write_bytes(text.encode("utf-8", errors="surrogateescape"))
        flags = [f for f in ("--allow-unregistered-dialect", "--mlir-print-op-generic",
                             "--split-input-file", "--verify-diagnostics", "--mlir-print-debuginfo")
                 if rng.random() < 0.3]  # fmt: skip
        argv = [str(path), *flags, "-o", str(tmp_path / "out.mlir")]
        try:
            with time_limit(CASE_TIMEOUT_S):
                code = main(argv)
        except SystemExit as e:
            code = e.code
        except BaseException as e:  # noqa: BLE001
            if isinstance(e, KeyboardInterrupt):
                raise
            code = f"raised {type(e).__name__}: {traceback.format_exc(limit=-6)}"
        out, err = capsys.readouterr()
        if code not in (0, 1, None) or "Traceback" in out + err:
            failures.append(
                f"case {case} (seed {name}; {desc}) mlc-opt {' '.join(flags)}: exit {code}\n"
                f"stderr: {err[-2000:]}\n--- reproducer:\n{text[:3000]!r}"
            )
    assert not failures, _report(failures)


def test_mlc_opt_invalid_utf8_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file that is not UTF-8 is bad input: exit 1 with a diagnostic, no traceback."""
    main = _cli_main()
    path = tmp_path / "bad.mlir"
    path.write_bytes(b'func.func @f() {\n  "test.op"() {s = "\xff\xfe"} : () -> ()\n  return\n}\n')
    try:
        code = main([str(path), "--allow-unregistered-dialect"])
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    # MLIR accepts any bytes inside a string literal; mlc may accept them or reject the file.
    assert code in (0, 1)
    if code == 1:
        assert "error" in err
