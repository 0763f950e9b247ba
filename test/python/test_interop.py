"""Interoperability with MLIR (iree-opt, iree.compiler.ir) and xDSL on the same texts.

- MLIR -> mlc: what MLIR prints (generic, custom, debug info) parses and verifies in mlc.
- mlc -> MLIR: MLIR reads mlc's custom and generic prints as the same module it reads from the
  original input (compared through MLIR's own generic, local-scope print).
- mlc <-> xDSL: xDSL reads mlc's generic print as the module it reads from the input, and mlc
  reads xDSL's generic print as the module mlc reads from the input.
Each peer is optional: its tests skip when it is not installed.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, note

# The random-module strategy of the property test (test/python is on sys.path under pytest).
from test_roundtrip_property import SETTINGS, modules

import mlc

ROOT = Path(__file__).resolve().parents[2]
REF = ROOT / "test" / "interop" / "mlir_generic"
# The venv's iree-opt (next to the running interpreter: `make test` does not put the venv on
# PATH), else one on PATH.
_BESIDE = Path(sys.executable).parent / "iree-opt"
IREE_OPT = str(_BESIDE) if _BESIDE.exists() else shutil.which("iree-opt")
needs_iree_opt = pytest.mark.skipif(IREE_OPT is None, reason="iree-opt is not installed")

try:
    from iree.compiler import ir as mlir_ir
except ImportError:  # pragma: no cover - depends on the environment
    mlir_ir = None
needs_bindings = pytest.mark.skipif(mlir_ir is None, reason="iree.compiler.ir is not installed")

try:
    try:
        from xdsl.context import Context as XdslContext
    except ImportError:  # older xDSL
        from xdsl.ir import MLContext as XdslContext  # type: ignore[no-redef]
    from xdsl.dialects.arith import Arith
    from xdsl.dialects.builtin import Builtin
    from xdsl.dialects.func import Func
    from xdsl.parser import Parser as XdslParser
    from xdsl.printer import Printer as XdslPrinter

    try:
        from xdsl.dialects.math import Math
    except ImportError:
        Math = None
    HAVE_XDSL = True
except ImportError:  # pragma: no cover
    HAVE_XDSL = False
needs_xdsl = pytest.mark.skipif(not HAVE_XDSL, reason="xdsl is not installed")

# Inputs covering builtin/func/arith/math, written for this test (custom syntax, as MLIR reads it).
INLINE_INPUTS: dict[str, str] = {
    "arith_int": """
func.func @ints(%a: i32, %b: i32, %i: index, %v: vector<4xi8>) -> (i32, i1, index, vector<4xi8>) {
  %c = arith.constant 7 : i32
  %m = arith.constant -1 : i8
  %0 = arith.addi %a, %b overflow<nsw> : i32
  %1 = arith.subi %0, %c : i32
  %2 = arith.muli %1, %a overflow<nsw, nuw> : i32
  %3 = arith.divsi %2, %b : i32
  %4 = arith.remui %3, %c : i32
  %5 = arith.andi %4, %a : i32
  %6 = arith.shrsi %5, %b : i32
  %7 = arith.maxsi %6, %c : i32
  %8 = arith.cmpi sge, %7, %a : i32
  %9 = arith.select %8, %7, %a : i32
  %10 = arith.index_cast %9 : i32 to index
  %11 = arith.addi %10, %i : index
  %12 = arith.xori %v, %v : vector<4xi8>
  %13 = arith.extsi %m : i8 to i64
  %14 = arith.trunci %13 : i64 to i16
  return %9, %8, %11, %12 : i32, i1, index, vector<4xi8>
}
""",
    "arith_float": """
func.func @floats(%x: f32, %y: f64, %t: tensor<2x?xf32>) -> (f32, f64, tensor<2x?xf32>) {
  %c = arith.constant 1.5 : f32
  %z = arith.constant -0.0 : f64
  %n = arith.constant 0x7FC00000 : f32
  %h = arith.constant 6.5e-01 : f16
  %b = arith.constant 2.0 : bf16
  %d = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %s = arith.constant dense<0.5> : vector<8xf32>
  %0 = arith.addf %x, %c : f32
  %1 = arith.mulf %0, %n fastmath<fast> : f32
  %2 = arith.divf %1, %x fastmath<nnan,ninf> : f32
  %3 = arith.negf %2 : f32
  %4 = arith.maximumf %3, %c : f32
  %5 = arith.cmpf ult, %4, %x : f32
  %6 = arith.extf %x : f32 to f64
  %7 = arith.addf %6, %y : f64
  %8 = arith.subf %7, %z : f64
  %9 = arith.truncf %8 : f64 to f32
  %10 = arith.fptosi %9 : f32 to i32
  %11 = arith.sitofp %10 : i32 to f32
  %12 = arith.bitcast %11 : f32 to i32
  %13 = arith.addf %t, %t : tensor<2x?xf32>
  return %11, %8, %13 : f32, f64, tensor<2x?xf32>
}
""",
    "math": """
func.func @math(%x: f32, %v: vector<4xf64>, %i: i32) -> (f32, vector<4xf64>, i32) {
  %0 = math.exp %x : f32
  %1 = math.log %0 fastmath<fast> : f32
  %2 = math.sqrt %1 : f32
  %3 = math.tanh %2 : f32
  %4 = math.powf %3, %x : f32
  %5 = math.fma %4, %x, %x : f32
  %6 = math.absf %5 : f32
  %7 = math.sin %v : vector<4xf64>
  %8 = math.cos %7 : vector<4xf64>
  %9 = math.absi %i : i32
  %10 = math.ctlz %9 : i32
  %11 = math.floor %6 : f32
  %12 = math.rsqrt %11 : f32
  return %12, %8, %10 : f32, vector<4xf64>, i32
}
""",
    "func": """
module attributes {test.attr = "m"} {
  func.func private @decl(i32, tensor<4xf32>) -> (i32, tensor<4xf32>)
  func.func @caller(%a: i32 {test.arg}, %t: tensor<4xf32>) -> (i32 {test.res = 1 : i64})
      attributes {test.fn} {
    %0:2 = func.call @decl(%a, %t) : (i32, tensor<4xf32>) -> (i32, tensor<4xf32>)
    %1 = call @id(%0#0) : (i32) -> i32
    return %1 : i32
  }
  func.func @id(%a: i32) -> i32 {
    return %a : i32
  }
  func.func nested @vis() {
    return
  }
  module @inner {
    func.func @f() {
      return
    }
  }
}
""",
    "builtin": """
#map = affine_map<(d0, d1)[s0] -> (d0 * 4 + s0, d1 floordiv 2)>
#set = affine_set<(d0) : (d0 - 1 >= 0, d0 mod 2 == 0)>
func.func @types(%a: memref<4x?xf32, strided<[?, 1], offset: ?>>, %b: memref<8x8xf32, #map>,
                 %c: vector<[4]x2xf32>, %d: tensor<*xi1>, %e: complex<f64>, %f: tuple<i32, f32>,
                 %g: memref<4xi8, 1>, %h: tensor<4xf32, "enc">, %i: f8E4M3FN, %j: none, %k: ui8,
                 %l: si16, %m: (i32) -> f32, %n: memref<*xf32>) attributes {
      test.a = [1, 2.5 : f32, "s\\22\\n\\FF", @sym::@nested, unit, #set, array<i32: 1, 2>,
                array<f64>,
                dense<[1, 2]> : tensor<2xi64>, {x = true, y = i32}, strided<[4, 1], offset: 2>]} {
  return
}
""",
    "locations": """
func.func @locs(%x: f32 loc("arg.py":1:2)) -> f32 {
  %0 = arith.addf %x, %x : f32 loc("a.py":3:4)
  %1 = arith.mulf %0, %0 : f32 loc(fused["b.py":1:1, callsite("c.py":2:2 at "d.py":3:3)])
  %2 = arith.subf %1, %0 : f32 loc("name"("e.py":5:6))
  return %2 : f32 loc(unknown)
} loc("f.py":7:8 to 9:10)
""",
}


# Inputs using dialects mlc does not define (their custom forms cannot parse in mlc).
NON_MLC_DIALECT_FILES = {"cf"}
# mlc's own ops, which MLIR does not have: examples using them are not interop inputs.
MLC_OWN_OPS = ("graph", "tensor.generic")


def corpus() -> dict[str, str]:
    """Inputs for the mlc -> MLIR direction: the interop inputs, examples, and INLINE_INPUTS."""
    out = dict(INLINE_INPUTS)
    for path in sorted(REF.glob("*.mlir")):
        # The inputs, not MLIR's prints of them; cf.mlir is in cf's custom syntax.
        if path.name.count(".") == 1 and path.stem not in NON_MLC_DIALECT_FILES:
            out[f"interop/{path.name}"] = path.read_text(encoding="utf-8")
    for path in sorted((ROOT / "examples").glob("*.mlir")):
        text = path.read_text(encoding="utf-8")
        if not any(f"{d}." in text for d in MLC_OWN_OPS):  # MLIR has no graph dialect
            out[f"examples/{path.name}"] = text
    return out


CORPUS = corpus()

# MLIR features mlc does not support yet, by interop input (file stem): the tests on these inputs
# are expected to fail (strict: they flag when support lands, so that the entry is removed).
UNSUPPORTED = {
    "builtin_attrs": "distinct attributes (distinct[0]<...>) and string dense elements",
    "printing_edge_cases": "dense elements of complex<i32>",
    "structure": "dense_resource elements",
}


def _stem(name: str) -> str:
    return Path(name).name.split(".")[0]


def params(items: list, name_of: object = None) -> list:
    """`items` as pytest params, xfail (strict) where the input needs an unsupported feature."""
    out = []
    for item in items:
        name = str(item) if name_of is None else name_of(item)  # type: ignore[operator]
        reason = UNSUPPORTED.get(_stem(name))
        marks = (
            [pytest.mark.xfail(strict=True, reason=f"not supported: {reason}")] if reason else []
        )
        out.append(pytest.param(item, marks=marks, id=Path(name).name if "/" in name else name))
    return out


def mlc_parse(text: str, filename: str = "<stdin>") -> mlc.ir.core.Operation:
    return mlc.parse(text, allow_unregistered=True, filename=filename)


# ---------------------------------------------------------------------------------------------
# MLIR


def iree_opt(text: str, *flags: str) -> str:
    proc = subprocess.run(
        [IREE_OPT, "--allow-unregistered-dialect", *flags, "-"],  # type: ignore[list-item]
        input=text,
        capture_output=True,
        text=True,
        timeout=60,
    )
    if proc.returncode != 0:
        raise AssertionError(
            f"iree-opt {' '.join(flags)} rejected:\n{proc.stderr}\n--- input:\n{text}"
        )
    return proc.stdout


def mlir_normal(text: str, debuginfo: bool = False) -> str:
    """MLIR's canonical generic, local-scope print of `text` (how modules are compared)."""
    flags = ["--mlir-print-op-generic", "--mlir-print-local-scope"]
    if debuginfo:
        flags.append("--mlir-print-debuginfo")
    return iree_opt(text, *flags)


def mlir_generic_files() -> list[Path]:
    """MLIR's prints (*.generic.mlir, *.custom.mlir, ...), but not custom prints of dialects
    mlc does not have: nothing but that dialect can read those."""
    files = sorted(REF.glob("*.mlir"))
    return [
        p for p in files
        if p.name.count(".") > 1
        and not (".custom." in p.name and p.name.split(".")[0] in NON_MLC_DIALECT_FILES)
    ]  # fmt: skip


@pytest.fixture(scope="module")
def mlir_prints(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """MLIR's prints of the interop inputs; generated with iree-opt when the folder is absent."""
    files = mlir_generic_files()
    if files:
        return files
    if IREE_OPT is None:
        pytest.skip("no MLIR reference prints and no iree-opt to make them")
    out = tmp_path_factory.mktemp("mlir_prints")
    for name, text in INLINE_INPUTS.items():
        for suffix, flags in (("generic", ["--mlir-print-op-generic"]), ("custom", [])):
            (out / f"{name}.{suffix}.mlir").write_text(iree_opt(text, *flags))
    return sorted(out.glob("*.mlir"))


def test_mlir_prints_parse_and_verify_in_mlc(mlir_prints: list[Path]) -> None:
    """Everything MLIR prints (generic, custom, debug info; local scope or not) reads in mlc.

    Custom prints of dialects mlc does not have (cf) are left out: nothing can read those.
    """
    failures = []
    for path in mlir_prints:
        if ".custom." in path.name and path.name.split(".")[0] in NON_MLC_DIALECT_FILES:
            continue
        if path.name.split(".")[0] in UNSUPPORTED:
            continue  # reported by test_mlir_print_reads_back_identically (xfail)
        try:
            module = mlc.parse_file(str(path), allow_unregistered=True)
            module.verify()
        except mlc.DiagnosticError as e:
            failures.append(f"{path.name}: {e.render()[:600]}")
    assert not failures, "\n\n".join(failures)


@pytest.mark.parametrize(
    "path",
    params(mlir_generic_files())
    or [pytest.param(None, marks=pytest.mark.skip("no reference prints"))],
)
def test_mlir_print_reads_back_identically(path: Path) -> None:
    """mlc reads MLIR's generic print and prints it back the way MLIR does (generic form)."""
    text = path.read_text(encoding="utf-8")
    module = mlc.parse(text, allow_unregistered=True, filename=path.name)
    module.verify()
    if ".generic." not in path.name or IREE_OPT is None:
        return
    debug = ".debuginfo." in path.name
    assert mlir_normal(module.print(generic=True, debuginfo=debug), debug) == mlir_normal(
        text, debug
    )


@needs_iree_opt
@pytest.mark.parametrize("name", params(sorted(CORPUS)))
@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_mlc_print_is_the_same_module_in_mlir(name: str, generic: bool) -> None:
    text = CORPUS[name]
    module = mlc_parse(text)
    module.verify()
    printed = module.print(generic=generic)
    assert mlir_normal(printed) == mlir_normal(text)


@needs_iree_opt
@pytest.mark.parametrize("name", params(sorted(CORPUS)))
def test_mlc_debuginfo_print_keeps_mlir_locations(name: str, tmp_path: Path) -> None:
    """With debug info, mlc's print carries the same locations MLIR derives from the file."""
    path = tmp_path / "input.mlir"
    path.write_text(CORPUS[name])
    module = mlc.parse_file(str(path), allow_unregistered=True)
    printed = module.print(debuginfo=True)
    expected = subprocess.run(
        [IREE_OPT, "--allow-unregistered-dialect", "--mlir-print-op-generic",  # type: ignore[list-item]
         "--mlir-print-local-scope", "--mlir-print-debuginfo", str(path)],
        capture_output=True, text=True, timeout=60, check=True,
    ).stdout  # fmt: skip
    assert mlir_normal(printed, debuginfo=True) == expected


@needs_bindings
@given(modules())
@SETTINGS
def test_random_modules_are_the_same_module_in_mlir(text: str) -> None:
    """Random modules (test_roundtrip_property's strategy): MLIR reads mlc's prints as the input,
    locations included (the bindings name the buffer "-", so mlc parses it under that name)."""
    ctx = mlir_ir.Context()
    ctx.allow_unregistered_dialects = True

    def normal(t: str) -> str:
        return mlir_ir.Module.parse(t, ctx).operation.get_asm(
            print_generic_op_form=True, use_local_scope=True, enable_debug_info=True
        )

    expected = normal(text)
    module = mlc_parse(text, filename="-")
    for flags in ({"debuginfo": True}, {"generic": True, "debuginfo": True}):
        printed = module.print(**flags)
        note(f"mlc print {flags}:\n{printed}")
        assert normal(printed) == expected


# ---------------------------------------------------------------------------------------------
# xDSL


def xdsl_context() -> XdslContext:
    try:
        ctx = XdslContext(allow_unregistered=True)
    except TypeError:
        ctx = XdslContext()
    for d in (Builtin, Func, Arith, Math):
        if d is not None:
            ctx.load_dialect(d)
    return ctx


def xdsl_generic(text: str) -> str:
    module = XdslParser(xdsl_context(), text).parse_module()
    module.verify()
    buf = io.StringIO()
    XdslPrinter(stream=buf, print_generic_format=True).print_op(module)
    return buf.getvalue()


# Inputs in xDSL's reach: only builtin/func/arith/math, and no attribute xDSL cannot parse.
XDSL_INPUTS = ["arith_int", "arith_float", "math", "func", "locations"] + [
    n for n in sorted(CORPUS) if n.startswith("examples/")
]


def _xdsl_reads(text: str) -> bool:
    try:
        xdsl_generic(text)
    except Exception:
        return False
    return True


def mlc_normal(text: str) -> str:
    """mlc's generic print of `text`: xDSL keeps value names and property order, so xDSL's prints
    are compared through this normal form."""
    return mlc_parse(text).print(generic=True)


@needs_xdsl
@pytest.mark.parametrize("name", XDSL_INPUTS)
def test_xdsl_reads_mlc_generic_print(name: str) -> None:
    text = CORPUS[name]
    if not _xdsl_reads(text):
        pytest.skip("xDSL cannot read this input itself")
    printed = mlc_parse(text).print(generic=True)
    if IREE_OPT is not None and not _xdsl_reads(iree_opt(text, "--mlir-print-op-generic")):
        pytest.skip(
            "xDSL rejects MLIR's own generic print of this input (xDSL's arith lags MLIR's)"
        )
    assert mlc_normal(xdsl_generic(printed)) == mlc_normal(xdsl_generic(text))


@needs_xdsl
@pytest.mark.parametrize("name", XDSL_INPUTS)
def test_mlc_reads_xdsl_generic_print(name: str) -> None:
    text = CORPUS[name]
    if not _xdsl_reads(text):
        pytest.skip("xDSL cannot read this input itself")
    from_xdsl = mlc_parse(xdsl_generic(text))
    from_xdsl.verify()
    assert from_xdsl.print(generic=True) == mlc_parse(text).print(generic=True)


def xdsl_reference_files() -> list[Path]:
    return sorted((ROOT / "test" / "interop" / "xdsl").glob("*.mlir"))


@pytest.mark.parametrize(
    "path",
    params(xdsl_reference_files())
    or [pytest.param(None, marks=pytest.mark.skip("no xDSL prints"))],
)
def test_mlc_reads_stored_xdsl_prints(path: Path) -> None:
    """xDSL's stored generic prints of MLIR's prints read in mlc as the same module as MLIR's."""
    module = mlc.parse_file(str(path), allow_unregistered=True)
    module.verify()
    mlir_version = REF / path.name
    if mlir_version.exists():
        expected = mlc.parse_file(str(mlir_version), allow_unregistered=True).print(generic=True)
        assert module.print(generic=True) == expected


@needs_bindings
@pytest.mark.parametrize(
    "loc",
    [
        "fused[unknown]",
        "fused[]",
        'fused<"m">[]',
        'fused[fused["a":1:1, "b":2:2], "c":3:3]',
        'fused<"m">[fused<"m">[unknown], "a":1:1]',
        'fused<"m">[fused["a":1:1], unknown]',
        'fused["a":1:1, "a":1:1]',
        'fused[unknown, "a":1:1, unknown]',
        '"n"(unknown)',
        "callsite(unknown at unknown)",
    ],
)
def test_location_normalization_matches_mlir(loc: str) -> None:
    """mlc builds locations as MLIR's FusedLoc::get does (dropping unknowns, flattening)."""
    text = f'"test.op"() : () -> () loc({loc})\n'
    ctx = mlir_ir.Context()
    ctx.allow_unregistered_dialects = True
    expected = mlir_ir.Module.parse(text, ctx).operation.get_asm(
        print_generic_op_form=True, use_local_scope=True, enable_debug_info=True
    )
    printed = mlc_parse(text, filename="-").print(generic=True, debuginfo=True, local_scope=True)
    assert printed == expected
