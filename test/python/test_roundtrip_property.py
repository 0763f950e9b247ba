"""Property tests of the textual format: random well-formed modules print to a fixpoint.

Hypothesis builds MLIR text (builtin types and attributes, func/arith/math ops, unregistered ops
with regions, blocks and successors, locations, aliases). For each module: it parses and
verifies, and print -> parse -> print is a fixpoint in the custom, generic and debug-info forms.
The strategies are also used by test_interop.py to check the same modules against MLIR.
"""

from __future__ import annotations

import functools
import math
import os
import struct
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import (
    HealthCheck,
    Phase,
    currently_in_test_context,
    example,
    given,
    note,
    settings,
)
from hypothesis import strategies as st

import mlc
from mlc.ir import affine as aff

# Shrinking a whole module takes Hypothesis minutes (it gives up after five), so it is off unless
# MLC_HYPOTHESIS_SHRINK=1; failures still print the module and each print of it.
_PHASES = (
    tuple(Phase)
    if os.environ.get("MLC_HYPOTHESIS_SHRINK")
    else (Phase.explicit, Phase.reuse, Phase.generate, Phase.target)
)
SETTINGS = settings(
    max_examples=200,
    deadline=None,
    phases=_PHASES,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# Attributes and types alone are cheap to shrink.
SMALL_SETTINGS = settings(SETTINGS, phases=tuple(Phase))

# Strategies are built once and reused: building one per draw costs more than the draw.


@functools.cache
def I(lo: int, hi: int) -> st.SearchStrategy[int]:  # noqa: E743, N802
    return st.integers(lo, hi)


@functools.lru_cache(maxsize=8192)
def _sampled(items: tuple) -> st.SearchStrategy:
    return st.sampled_from(items)


def S(items: list | tuple) -> st.SearchStrategy:  # noqa: N802
    return _sampled(tuple(items))


@functools.cache
def L(
    elements: st.SearchStrategy, min_size: int = 0, max_size: int | None = None
) -> st.SearchStrategy:  # noqa: N802
    return st.lists(elements, min_size=min_size, max_size=max_size)


B = st.booleans()


@functools.cache
def F(width: int) -> st.SearchStrategy[float]:  # noqa: N802
    return st.floats(width=width, allow_nan=False, allow_infinity=False)


# ---------------------------------------------------------------------------------------------
# Types: text plus what the op generators need to know about them


@dataclass(frozen=True)
class Ty:
    """A type's text and shape facts. kind: int, index, float, vector, tensor, other."""

    text: str
    kind: str
    elem: Ty | None = None  # element type of vector/tensor
    shape: tuple[int, ...] | None = None  # None: unranked or not shaped; -1 = dynamic
    width: int = 0  # int/float bit width
    signless: bool = True
    scalable: tuple[bool, ...] = ()  # per-dimension flags of a scalable vector

    @property
    def scalar(self) -> Ty:
        return self.elem if self.elem is not None else self

    @property
    def static(self) -> bool:
        return self.shape is not None and -1 not in self.shape and not any(self.scalable)


def int_ty(width: int, sign: str = "i") -> Ty:
    return Ty(f"{sign}{width}", "int", width=width, signless=sign == "i")


INDEX = Ty("index", "index", width=64)
I1 = int_ty(1)
FLOAT_WIDTHS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}
# Types that only appear as types (never as constants): exotic floats, f80/f128.
EXOTIC_FLOATS = [
    "f80", "f128", "tf32", "f8E5M2", "f8E4M3FN", "f8E5M2FNUZ", "f8E4M3FNUZ", "f8E4M3B11FNUZ",
    "f8E4M3", "f8E3M4", "f8E8M0FNU", "f6E2M3FN", "f6E3M2FN", "f4E2M1FN",
]  # fmt: skip


def float_ty(kind: str) -> Ty:
    return Ty(kind, "float", width=FLOAT_WIDTHS.get(kind, 0))


def shape_text(shape: tuple[int, ...], scal: tuple[bool, ...] = ()) -> str:
    parts = []
    for i, d in enumerate(shape):
        s = "?" if d == -1 else str(d)
        parts.append(f"[{s}]" if scal and scal[i] else s)
    return "".join(p + "x" for p in parts)


def vector_ty(shape: tuple[int, ...], elem: Ty, scal: tuple[bool, ...] = ()) -> Ty:
    return Ty(f"vector<{shape_text(shape, scal)}{elem.text}>", "vector", elem, shape, scalable=scal)


def tensor_ty(shape: tuple[int, ...], elem: Ty, enc: str = "") -> Ty:
    enc_text = f", {enc}" if enc else ""
    return Ty(f"tensor<{shape_text(shape)}{elem.text}{enc_text}>", "tensor", elem, shape)


def other_ty(text: str) -> Ty:
    return Ty(text, "other")


# Arith-capable scalar types (signless ints, index, the four common floats).
arith_int_scalars = st.one_of(
    S([1, 8, 16, 32, 64]).map(int_ty),
    I(2, 128).map(int_ty),
    st.just(INDEX),
)
arith_float_scalars = S(sorted(FLOAT_WIDTHS)).map(float_ty)
arith_scalars = st.one_of(arith_int_scalars, arith_float_scalars)

small_dims = L(I(1, 4), min_size=0, max_size=3)


@functools.cache
@st.composite
def arith_types(draw: st.DrawFn) -> Ty:
    """A type arith ops accept: a scalar or a vector/tensor of one."""
    elem = draw(arith_scalars)
    kind = draw(S(["scalar", "scalar", "vector", "tensor"]))
    if kind == "scalar":
        return elem
    dims = tuple(draw(small_dims))
    if kind == "vector":
        if dims and draw(B) and draw(B):
            scal = tuple(draw(B) for _ in dims)
            return vector_ty(dims, elem, scal)
        return vector_ty(dims, elem)
    if dims and draw(I(0, 3)) == 0:
        dims = tuple(-1 if draw(B) else d for d in dims)
    return tensor_ty(dims, elem)


@functools.cache
@st.composite
def any_types(draw: st.DrawFn, depth: int = 0, aliases: bool = True) -> Ty:
    """Any builtin type (and opaque dialect types), for block arguments and unregistered ops."""
    choice = draw(I(0, 13 if depth < 2 else 5))
    if choice == 0:
        return draw(arith_types())
    if choice == 1:
        w = draw(I(0, 256))
        return int_ty(w, draw(S(["i", "si", "ui"])))
    if choice == 2:
        return other_ty(draw(S(EXOTIC_FLOATS)))
    if choice == 3:
        return other_ty("none")
    if choice == 4:
        return INDEX
    if choice == 5:
        return draw(arith_scalars)
    sub = any_types(depth + 1, aliases)
    elem = draw(st.one_of(arith_scalars, S(EXOTIC_FLOATS).map(other_ty)))
    if choice == 6:
        return other_ty(f"complex<{draw(S(['f32', 'f64', 'i32', 'f16']))}>")
    if choice == 7:
        ts = draw(L(sub, max_size=3))
        return other_ty(f"tuple<{', '.join(t.text for t in ts)}>")
    if choice == 8:
        ins = draw(L(sub, max_size=2))
        outs = draw(L(sub, max_size=2))
        outs_text = (
            outs[0].text
            if len(outs) == 1 and not outs[0].text.startswith("(")
            else (f"({', '.join(t.text for t in outs)})")
        )
        return other_ty(f"({', '.join(t.text for t in ins)}) -> {outs_text}")
    if choice == 9:
        # Tensors: ranked (static/dynamic), unranked, with an encoding.
        if draw(I(0, 4)) == 0:
            return other_ty(f"tensor<*x{elem.text}>")
        dims = tuple(draw(L(S([-1, 0, 1, 2, 7, 100]), max_size=4)))
        enc = ""
        if draw(I(0, 2)) == 0:
            enc = draw(S(['"sparse"', "#test.enc<1>", "{a = 1 : i32}", "42 : i64"]))
        return Ty(tensor_ty(dims, elem, enc).text, "other")
    if choice == 10:
        return other_ty(draw(memref_types(elem)))
    if choice == 11:
        dims = tuple(draw(L(I(1, 8), min_size=0, max_size=3)))
        scal = tuple(draw(B) for _ in dims)
        return other_ty(vector_ty(dims, elem, scal).text)
    if choice == 12:
        opaque = ["!test.t", "!test.t<1, [2]>", '!test<"x">'] + (["!t_alias"] if aliases else [])
        return other_ty(draw(S(opaque)))
    return draw(arith_types())


@functools.cache
@st.composite
def memref_types(draw: st.DrawFn, elem: Ty) -> str:
    if draw(I(0, 5)) == 0:
        space = draw(S(["", ", 1", ", 3"]))
        return f"memref<*x{elem.text}{space}>"
    dims = tuple(draw(L(S([-1, 1, 4, 16]), max_size=3)))
    rank = len(dims)
    layout = ""
    which = draw(I(0, 3))
    if which == 1:
        strides = [draw(S(["?", "1", "4", "16"])) for _ in dims]
        offset = draw(S(["?", "0", "8"]))
        layout = f", strided<[{', '.join(strides)}], offset: {offset}>"
    elif which == 2:
        layout = ", " + draw(affine_maps(num_dims=rank))
    space = draw(S(["", "", ", 1", ", 7 : i64", ', "gpu"']))
    return f"memref<{shape_text(dims)}{elem.text}{layout}{space}>"


# ---------------------------------------------------------------------------------------------
# Attributes


@functools.cache
@st.composite
def affine_exprs(draw: st.DrawFn, num_dims: int, num_syms: int, depth: int = 0) -> aff.AffineExpr:
    leaves = [aff.dim(i) for i in range(num_dims)] + [aff.sym(i) for i in range(num_syms)]
    if depth >= 3 or draw(I(0, 2)) == 0 or not leaves:
        if leaves and draw(B):
            return draw(S(leaves))
        return aff.const(draw(I(-20, 20)))
    lhs = draw(affine_exprs(num_dims, num_syms, depth + 1))
    op = draw(S(["add", "sub", "mul", "mod", "floordiv", "ceildiv"]))
    if op in ("add", "sub"):
        rhs = draw(affine_exprs(num_dims, num_syms, depth + 1))
        return lhs + rhs if op == "add" else lhs - rhs
    k = draw(I(1, 9))
    if op == "mul":
        return lhs * (k if draw(B) else -k)
    if op == "mod":
        return lhs % k
    if op == "floordiv":
        return lhs.floordiv(k)
    return lhs.ceildiv(k)


@functools.cache
@st.composite
def affine_maps(draw: st.DrawFn, num_dims: int | None = None) -> str:
    nd = draw(I(0, 3)) if num_dims is None else num_dims
    ns = draw(I(0, 2))
    n_res = draw(I(0 if num_dims is None else nd, 3 if num_dims is None else nd))
    exprs = [draw(affine_exprs(nd, ns)) for _ in range(n_res)]
    return aff.AffineMap(nd, ns, exprs).print_attr()


@functools.cache
@st.composite
def integer_sets(draw: st.DrawFn) -> str:
    nd = draw(I(1, 3))
    ns = draw(I(0, 2))
    n = draw(I(1, 3))
    cons = [draw(affine_exprs(nd, ns)) for _ in range(n)]
    flags = [draw(B) for _ in range(n)]
    return f"affine_set<{aff.IntegerSet(nd, ns, cons, flags)}>"


def float_text(x: float) -> str:
    """A float literal MLIR's lexer accepts (a '.' is required); non-finite values via hex."""
    if math.isnan(x) or math.isinf(x):
        return "0x" + struct.pack(">d", x).hex().upper()
    r = repr(x)
    mant, e, exp = r.partition("e")
    if "." not in mant:
        mant += ".0"
    return mant + (f"e{exp}" if e else "")


def float_literal(draw: st.DrawFn, kind: str) -> str:
    """A literal of float type `kind`: decimal (incl. -0.0, huge, tiny) or a hex bit pattern."""
    width = FLOAT_WIDTHS[kind]
    how = draw(I(0, 4))
    if how == 0:
        # Any bit pattern: NaNs with payloads, infinities, denormals.
        special = {
            "f32": ["0x7FC00000", "0x7F800000", "0xFF800000", "0x00000001", "0x80000000"],
            "f64": ["0x7FF8000000000000", "0x7FF0000000000000", "0xFFF0000000000000"],
            "f16": ["0x7C00", "0xFC00", "0x7E00", "0x0001"],
            "bf16": ["0x7F80", "0xFF80", "0x7FC0", "0x0001"],
        }[kind]
        return draw(S(special))
    if how == 1:
        return draw(S(["0.0", "-0.0", "1.0", "-1.5", "0.5", "2.0", "100.0", "1.0e+10"]))
    if kind in ("f32", "f64"):
        x = draw(F(width))
    else:
        x = float(draw(I(-2048, 2048))) / 8
    return float_text(x)


def int_literal(draw: st.DrawFn, t: Ty) -> str:
    if t.kind == "index":
        return str(draw(I(-(2**63), 2**63 - 1)))
    w = t.width
    if w == 1 and t.signless:
        return draw(S(["true", "false"]))
    if t.signless:
        lo, hi = -(2 ** (w - 1)), 2**w - 1
    elif t.text.startswith("si"):
        lo, hi = -(2 ** (w - 1)), 2 ** (w - 1) - 1
    else:
        lo, hi = 0, 2**w - 1
    v = draw(st.one_of(I(lo, hi), S([lo, hi, 0, -1 if lo < 0 else 1])))
    if draw(I(0, 4)) == 0 and v >= 0:
        return hex(v)
    return str(v)


STRING_CHARS = st.one_of(
    st.characters(codec="utf-8", exclude_categories=["Cs"]),
    S(['"', "\\", "\n", "\t", "\x00", "\x7f", "é", "中", "\U0001f600"]),
)


def string_literal(draw: st.DrawFn) -> str:
    """A string literal with MLIR escapes: `\\"`, `\\\\`, `\\n`, `\\t`, `\\XX` (raw bytes)."""
    parts = []
    for item in draw(L(st.one_of(STRING_CHARS, I(0x80, 0xFF)), max_size=12)):
        if isinstance(item, int):  # a raw byte (possibly invalid UTF-8)
            parts.append(f"\\{item:02X}")
        elif item == '"':
            parts.append('\\"')
        elif item == "\\":
            parts.append("\\\\")
        elif item == "\n":
            parts.append("\\n")
        elif item == "\t":
            parts.append("\\t")
        elif ord(item) < 0x20 or item == "\x7f":
            parts.append(f"\\{ord(item):02X}")
        else:
            parts.append(item)
    return '"' + "".join(parts) + '"'


def dense_body(draw: st.DrawFn, shape: tuple[int, ...], elem: Ty) -> str:
    def one() -> str:
        if elem.kind == "float":
            if elem.text in ("f32", "f64"):
                x = draw(F(FLOAT_WIDTHS[elem.text]))
                return float_text(x)
            return draw(S(["0.0", "-0.0", "1.5", "-2.0", "0.25"]))
        return int_literal(draw, elem)

    if draw(I(0, 2)) == 0 and 0 not in shape:
        return one()  # splat

    def nest(dims: tuple[int, ...]) -> str:
        if not dims:
            return one()
        return "[" + ", ".join(nest(dims[1:]) for _ in range(dims[0])) + "]"

    if shape and 0 in shape:
        return "" if len(shape) == 1 else nest(shape)
    return nest(shape)


# mlc stores dense elements in NumPy arrays: integers wider than 64 bits are not supported there
# (test_dense_of_wide_integers covers them), so random dense literals stay within 64 bits.
def dense_ok(elem: Ty) -> bool:
    return elem.kind != "int" or elem.width <= 64


@functools.cache
@st.composite
def dense_elements(draw: st.DrawFn) -> str:
    if draw(I(0, 4)) == 0:
        return draw(hex_dense_elements())
    elem = draw(arith_scalars.filter(dense_ok))
    dims = tuple(draw(L(I(0, 3), max_size=3)))
    # Only a last dimension may be 0: MLIR infers literal shapes no further than an empty list.
    dims = tuple(d or 1 for d in dims[:-1]) + dims[-1:]
    if draw(B):
        container = tensor_ty(dims, elem).text
    else:
        dims = tuple(d or 1 for d in dims)
        container = vector_ty(dims, elem).text
    return f"dense<{dense_body(draw, dims, elem)}> : {container}"


HEX_DENSE_TYPES = {"i8": "<b", "i16": "<h", "i32": "<i", "i64": "<q", "f32": "<f", "f64": "<d"}


@functools.cache
@st.composite
def hex_dense_elements(draw: st.DrawFn) -> str:
    """Dense elements around MLIR's 100-element threshold for printing as hex, written either
    way: `dense<"0x...">` (little-endian element bytes) or a list."""
    et = draw(S(sorted(HEX_DENSE_TYPES)))
    n = draw(S([1, 2, 99, 100, 101, 128]))
    fmt = HEX_DENSE_TYPES[et]
    if et.startswith("i"):
        bits = int(et[1:])
        vals: list = [draw(I(-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)) for _ in range(n)]
        texts = [str(v) for v in vals]
    else:
        vals = [draw(F(int(et[1:]))) for _ in range(n)]
        texts = [float_text(v) for v in vals]
    container = f"tensor<{n}x{et}>" if draw(B) else f"vector<{n}x{et}>"
    if draw(B):
        body = "".join(struct.pack(fmt, v).hex().upper() for v in vals)
        return f'dense<"0x{body}"> : {container}'
    return f"dense<[{', '.join(texts)}]> : {container}"


@functools.cache
@st.composite
def dense_arrays(draw: st.DrawFn) -> str:
    et = draw(S(["i1", "i8", "i16", "i32", "i64", "f32", "f64"]))
    n = draw(I(0, 5))
    if et == "i1":
        vals = [draw(S(["true", "false"])) for _ in range(n)]
    elif et.startswith("i"):
        w = int(et[1:])
        vals = [str(draw(I(-(2 ** (w - 1)), 2 ** (w - 1) - 1))) for _ in range(n)]
    else:
        vals = [float_literal(draw, et) for _ in range(n)]
        vals = [v for v in vals if not v.startswith("0x")]  # hex is not allowed in dense arrays
    return f"array<{et}: {', '.join(vals)}>" if vals else f"array<{et}>"


ATTR_NAMES = st.one_of(
    S(["a", "b", "foo", "x.y", "test.attr", "_priv", "n$1", "value", "sym_name2"]),
    st.from_regex(r"[a-z_][a-z0-9_.$]{0,8}", fullmatch=True),
)


QUOTED_NAMES = ['"quoted name"', '"with \\"esc\\""', '"\u00e9t\u00e9"', '"0digit"', '"a-b"']


def attr_name(draw: st.DrawFn, prefix: str = "") -> str:
    if draw(I(0, 7)) == 0:
        name = draw(S(QUOTED_NAMES))  # a quoted attribute name
        return f'"{prefix}{name[1:]}' if prefix else name
    return prefix + draw(ATTR_NAMES)


@functools.cache
@st.composite
def attributes(draw: st.DrawFn, depth: int = 0, aliases: bool = True) -> str:
    """Any builtin attribute (and opaque dialect attributes), as text."""
    n = 16 if depth < 2 else 9
    choice = draw(I(0, n))
    if choice == 0:
        t = draw(
            st.one_of(
                arith_int_scalars,
                I(1, 64).map(lambda w: int_ty(w, "si")),
                I(1, 64).map(lambda w: int_ty(w, "ui")),
            )
        )
        lit = int_literal(draw, t)
        return lit if t.width == 1 and t.signless else f"{lit} : {t.text}"
    if choice == 1:
        return str(draw(I(-(2**63), 2**63 - 1)))  # i64 by default
    if choice == 2:
        kind = draw(S(sorted(FLOAT_WIDTHS)))
        return f"{float_literal(draw, kind)} : {kind}"
    if choice == 3:
        return string_literal(draw)
    if choice == 4:
        return draw(S(["unit", "true", "false"]))
    if choice == 5:
        return draw(any_types(1, aliases)).text  # a type attribute
    if choice == 6:
        return draw(S(["@sym", "@a::@b", '@"quoted sym"', "@a::@b::@c", '@"x y"::@z']))
    if choice == 7:
        return draw(dense_arrays())
    if choice == 8:
        return draw(affine_maps())
    if choice == 9:
        opaque = ["#test.attr", '#test.attr<1, "x">', '#test<"opaque">']
        return draw(S(opaque + (["#alias_attr"] if aliases else [])))
    sub = attributes(depth + 1, aliases)
    if choice in (10, 11):
        return "[" + ", ".join(draw(L(sub, max_size=4))) + "]"
    if choice == 12:
        return draw(attr_dicts(depth + 1, allow_empty=True, aliases=aliases))
    if choice == 13:
        return draw(dense_elements())
    if choice == 14:
        return draw(integer_sets())
    if choice == 15:
        return f"strided<[{', '.join(draw(L(S(['?', '1', '8']), max_size=3)))}]" + (
            f", offset: {draw(S(['?', '0', '4']))}>"
        )
    return f"{float_literal(draw, 'f64')}"  # an untyped float literal is f64


@functools.cache
@st.composite
def attr_dicts(
    draw: st.DrawFn,
    depth: int = 0,
    allow_empty: bool = False,
    aliases: bool = True,
    prefix: str = "",
) -> str:
    entries: dict[str, str] = {}
    for _ in range(draw(I(0, 3))):
        name = attr_name(draw, prefix)
        if draw(I(0, 4)) == 0:
            entries[name] = ""  # unit attribute written by its name alone
        else:
            entries[name] = draw(attributes(depth, aliases))
    if not entries and not allow_empty:
        return ""
    return "{" + ", ".join(k if not v else f"{k} = {v}" for k, v in entries.items()) + "}"


@functools.cache
@st.composite
def locations(draw: st.DrawFn, depth: int = 0) -> str:
    """The body of `loc(...)`."""
    file = draw(S(['"a.mlir"', '"dir/b.py"', '"with \\"quote\\""', '""']))
    line, col = draw(I(0, 9999)), draw(I(0, 999))
    choice = draw(I(0, 8 if depth < 2 else 3))
    if choice == 0:
        return "unknown"
    if choice == 1:
        return f"{file}:{line}:{col}"
    if choice == 2:
        return f"{file}:{line}:{col} to {line + 1}:{col}"
    if choice == 3:
        return draw(S(['"name"', '"op name"']))
    sub = locations(depth + 1)
    if choice == 4:
        return f'"named"({draw(sub)})'
    if choice == 5:
        return f"callsite({draw(sub)} at {draw(sub)})"
    if choice == 6:
        return f"fused[{', '.join(draw(L(sub, max_size=3)))}]"
    if choice == 7:
        # Metadata differs per depth: MLIR flattens a fused child with the same metadata and may
        # leave an `unknown` inside, which its own print -> parse does not keep (not a fixpoint
        # in MLIR either); test_location_normalization_matches_mlir covers the flattening.
        meta = f"meta{depth}"
        return f'fused<"{meta}">[{", ".join(draw(L(sub, min_size=1, max_size=2)))}]'
    return "#loc_alias"


# ---------------------------------------------------------------------------------------------
# Modules


INT_BINOPS = [
    "addi", "subi", "muli", "divsi", "divui", "remsi", "remui", "ceildivsi", "floordivsi",
    "ceildivui", "andi", "ori", "xori", "shli", "shrsi", "shrui", "maxsi", "maxui", "minsi", "minui",  # noqa: E501
]  # fmt: skip
OVERFLOW_OPS = {"addi", "subi", "muli", "shli"}
FLOAT_BINOPS = [
    "addf",
    "subf",
    "mulf",
    "divf",
    "remf",
    "maximumf",
    "minimumf",
    "maxnumf",
    "minnumf",
]
MATH_FLOAT_UNARY = [
    "absf", "ceil", "floor", "sqrt", "rsqrt", "exp", "exp2", "expm1", "log", "log10", "log2",
    "log1p", "sin", "cos", "tan", "tanh", "atan", "erf", "round", "roundeven", "trunc",
]  # fmt: skip
MATH_FLOAT_BINARY = ["atan2", "powf", "copysign"]
MATH_INT_UNARY = ["absi", "ctlz", "cttz", "ctpop"]
CMPI = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
CMPF = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult",
        "ule", "une", "uno", "true"]  # fmt: skip
FASTMATH = ["none", "reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "fast",
            "nnan,ninf", "reassoc,nsz,contract"]  # fmt: skip
OVERFLOW = ["none", "nsw", "nuw", "nsw, nuw"]

# Ops mlc does not register are left out of generation; test_registered_op_coverage lists them.
_REGISTERED: dict[str, bool] = {}


def registered(name: str) -> bool:
    found = _REGISTERED.get(name)
    if found is None:
        from mlc.ir.context import default_context

        try:
            found = default_context().get_op(name) is not None
        except ImportError:
            found = False
        _REGISTERED[name] = found
    return found


def shaped_like(t: Ty, elem: Ty) -> Ty:
    """`t` with element type `elem` (scalars: `elem` itself)."""
    if t.kind == "vector":
        return vector_ty(t.shape, elem, t.scalable)  # type: ignore[arg-type]
    if t.kind == "tensor":
        return tensor_ty(t.shape, elem)  # type: ignore[arg-type]
    return elem


@dataclass
class Scope:
    """Values visible at a point: (name, type) pairs."""

    values: list[tuple[str, Ty]] = field(default_factory=list)

    def of_type(self, t: Ty) -> list[str]:
        return [n for n, vt in self.values if vt == t]

    def child(self) -> Scope:
        return Scope(list(self.values))


class ModuleGen:
    """Draws one module's text. Names are globally unique so nested regions may use outer values."""

    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw
        self.n = 0
        self.lines: list[str] = []
        self.funcs: list[tuple[str, list[Ty], list[Ty]]] = []

    def pick(self, items: list) -> Any:
        """One of `items` (a list that changes between draws, so not a cached strategy)."""
        return items[self.draw(I(0, len(items) - 1))]

    def picks(self, items: list, max_size: int) -> list:
        if not items:
            return []
        return [self.pick(items) for _ in range(self.draw(I(0, max_size)))]

    def fresh(self) -> str:
        self.n += 1
        return f"%v{self.n}"

    def block_label(self) -> str:
        self.n += 1
        return f"^bb{self.n}"

    def maybe_loc(self) -> str:
        if self.draw(I(0, 3)) == 0:
            return f" loc({self.draw(locations())})"
        return ""

    def emit(self, indent: int, text: str) -> None:
        self.lines.append("  " * indent + text)

    def generic(self) -> bool:
        return self.draw(I(0, 3)) == 0

    # -- values ---------------------------------------------------------------------------------

    def value_of(self, scope: Scope, t: Ty, indent: int) -> str | None:
        """An existing value of type `t`, or a new constant when one can be made."""
        have = scope.of_type(t)
        if have and self.draw(I(0, 3)) != 0:
            return self.pick(have)
        const = self.constant(t)
        if const is None:
            return self.pick(have) if have else None
        name = self.fresh()
        body, generic_value = const
        if self.generic() or not registered("arith.constant"):
            self.emit(
                indent,
                f'{name} = "arith.constant"() <{{value = {generic_value}}}> : () -> {t.text}{self.maybe_loc()}',  # noqa: E501
            )
        else:
            self.emit(indent, f"{name} = arith.constant {body}{self.maybe_loc()}")
        scope.values.append((name, t))
        return name

    def constant(self, t: Ty) -> tuple[str, str] | None:
        """(custom body, generic value attribute) of an arith.constant of type `t`."""
        draw = self.draw
        if t.kind == "int" and not t.signless:
            return None  # arith.constant makes signless integers only
        if t.kind in ("int", "index"):
            lit = int_literal(draw, t)
            if t.kind == "int" and t.width == 1:
                return lit, lit
            return f"{lit} : {t.text}", f"{lit} : {t.text}"
        if t.kind == "float":
            lit = float_literal(draw, t.text)
            return f"{lit} : {t.text}", f"{lit} : {t.text}"
        if t.kind in ("vector", "tensor") and t.static and dense_ok(t.scalar):
            body = dense_body(draw, t.shape, t.scalar)  # type: ignore[arg-type]
            return f"dense<{body}> : {t.text}", f"dense<{body}> : {t.text}"
        return None

    # -- ops ------------------------------------------------------------------------------------

    def op(self, scope: Scope, indent: int, depth: int) -> None:
        draw = self.draw
        kind = draw(S(
            ["int", "int", "float", "float", "cmp", "cast", "select", "math", "unreg", "unreg",
             "region", "call", "const"]
        ))  # fmt: skip
        if kind == "region" and depth < 2:
            self.region_op(scope, indent, depth)
        elif kind in ("unreg", "region"):
            self.unregistered_op(scope, indent)
        elif kind == "call" and depth == 0:
            # Not inside unregistered ops: MLIR treats them as possible symbol tables.
            self.call_op(scope, indent)
        elif kind == "const":
            self.value_of(scope, draw(arith_types()), indent)
        elif kind == "cast":
            self.cast_op(scope, indent)
        elif kind == "select":
            self.select_op(scope, indent)
        else:
            self.arith_op(scope, indent, kind)

    def arith_op(self, scope: Scope, indent: int, kind: str) -> None:
        draw = self.draw
        t = draw(arith_types())
        # The drawn type decides between the integer and float variants of the op kind.
        is_float = t.scalar.kind == "float"
        if kind == "math":
            names = [
                f"math.{n}"
                for n in (
                    MATH_FLOAT_UNARY + MATH_FLOAT_BINARY + ["fma"] if is_float else MATH_INT_UNARY
                )
            ]
        elif kind == "cmp":
            names = ["arith.cmpf" if is_float else "arith.cmpi"]
        elif is_float:
            names = [f"arith.{n}" for n in FLOAT_BINOPS] + ["arith.negf"]
        else:
            names = [f"arith.{n}" for n in INT_BINOPS]
        names = [n for n in names if registered(n)]
        if not names:
            return
        if kind == "math" and t.scalar.kind == "index":
            return  # math's integer ops take signless integers, not index
        name = draw(S(names))
        mnemonic = name.partition(".")[2]
        arity = (
            1
            if mnemonic in MATH_FLOAT_UNARY + MATH_INT_UNARY + ["negf"]
            else (3 if mnemonic == "fma" else 2)
        )
        operands = []
        for _ in range(arity):
            v = self.value_of(scope, t, indent)
            if v is None:
                return
            operands.append(v)
        res_t = shaped_like(t, I1) if kind == "cmp" else t
        res = self.fresh()
        ops_text = ", ".join(operands)
        flag_custom, flag_prop = "", ""
        if is_float and (name.startswith("math.") or kind != "cmp") or name == "arith.cmpf":
            fm = draw(S(FASTMATH))
            if draw(B):
                flag_custom = f" fastmath<{fm}>" if fm != "none" else ""
                flag_prop = f"fastmath = #arith.fastmath<{fm}>"
        elif mnemonic in OVERFLOW_OPS and draw(B):
            ov = draw(S(OVERFLOW))
            flag_custom = f" overflow<{ov}>" if ov != "none" else ""
            flag_prop = f"overflowFlags = #arith.overflow<{ov}>"
        if kind == "cmp":
            preds = CMPF if is_float else CMPI
            pred = draw(S(preds))
            if self.generic():
                props = [f"predicate = {preds.index(pred)} : i64"] + (
                    [flag_prop] if flag_prop else []
                )
                types = ", ".join([t.text] * 2)
                self.emit(
                    indent,
                    f'{res} = "{name}"({ops_text}) <{{{", ".join(props)}}}> : ({types}) -> {res_t.text}{self.maybe_loc()}',  # noqa: E501
                )
            else:
                self.emit(
                    indent,
                    f"{res} = {name} {pred}, {ops_text}{flag_custom} : {t.text}{self.maybe_loc()}",
                )
        elif self.generic():
            props = f" <{{{flag_prop}}}>" if flag_prop else ""
            types = ", ".join([t.text] * arity)
            self.emit(
                indent,
                f'{res} = "{name}"({ops_text}){props} : ({types}) -> {res_t.text}{self.maybe_loc()}',  # noqa: E501
            )
        else:
            self.emit(
                indent, f"{res} = {name} {ops_text}{flag_custom} : {t.text}{self.maybe_loc()}"
            )
        scope.values.append((res, res_t))

    def cast_op(self, scope: Scope, indent: int) -> None:
        draw = self.draw
        ints = [int_ty(w) for w in (1, 8, 16, 32, 64)]
        choice = draw(I(0, 5))
        if choice == 0:
            a, b = sorted(draw(st.permutations(ints))[:2], key=lambda t: t.width)
            name, src, dst = draw(S([("extsi", a, b), ("extui", a, b), ("trunci", b, a)]))
        elif choice == 1:
            it, ft = draw(S(ints[1:])), draw(arith_float_scalars)
            name, src, dst = draw(
                S([("sitofp", it, ft), ("uitofp", it, ft), ("fptosi", ft, it), ("fptoui", ft, it)])
            )
        elif choice == 2:
            name, src, dst = draw(
                S(
                    [
                        ("extf", float_ty("f16"), float_ty("f32")),
                        ("extf", float_ty("f32"), float_ty("f64")),
                        ("truncf", float_ty("f64"), float_ty("f16")),
                    ]
                )
            )
        elif choice == 3:
            it = draw(S(ints))
            name, src, dst = draw(
                S(
                    [
                        ("index_cast", it, INDEX),
                        ("index_cast", INDEX, it),
                        ("index_castui", INDEX, it),
                    ]
                )
            )
        else:
            name, src, dst = draw(
                S(
                    [
                        ("bitcast", int_ty(32), float_ty("f32")),
                        ("bitcast", float_ty("f64"), int_ty(64)),
                        ("bitcast", int_ty(16), float_ty("bf16")),
                    ]
                )
            )
        full = f"arith.{name}"
        if not registered(full):
            return
        v = self.value_of(scope, src, indent)
        if v is None:
            return
        res = self.fresh()
        if self.generic():
            self.emit(
                indent, f'{res} = "{full}"({v}) : ({src.text}) -> {dst.text}{self.maybe_loc()}'
            )
        else:
            self.emit(indent, f"{res} = {full} {v} : {src.text} to {dst.text}{self.maybe_loc()}")
        scope.values.append((res, dst))

    def select_op(self, scope: Scope, indent: int) -> None:
        if not registered("arith.select"):
            return
        t = self.draw(arith_types())
        c = self.value_of(scope, I1, indent)
        a = self.value_of(scope, t, indent)
        b = self.value_of(scope, t, indent)
        if c is None or a is None or b is None:
            return
        res = self.fresh()
        if self.generic():
            self.emit(
                indent,
                f'{res} = "arith.select"({c}, {a}, {b}) : (i1, {t.text}, {t.text}) -> {t.text}',
            )
        else:
            self.emit(indent, f"{res} = arith.select {c}, {a}, {b} : {t.text}{self.maybe_loc()}")
        scope.values.append((res, t))

    def call_op(self, scope: Scope, indent: int) -> None:
        if not self.funcs or not registered("func.call"):
            return
        callee, ins, outs = self.pick(self.funcs)
        args = []
        for t in ins:
            v = self.value_of(scope, t, indent)
            if v is None:
                return
            args.append(v)
        res = self.fresh()
        bind = "" if not outs else (f"{res} = " if len(outs) == 1 else f"{res}:{len(outs)} = ")
        ft = f"({', '.join(t.text for t in ins)}) -> ({', '.join(t.text for t in outs)})"
        if self.generic():
            self.emit(
                indent,
                f'{bind}"func.call"({", ".join(args)}) <{{callee = {callee}}}> : {ft}{self.maybe_loc()}',  # noqa: E501
            )
        else:
            self.emit(
                indent, f"{bind}func.call {callee}({', '.join(args)}) : {ft}{self.maybe_loc()}"
            )
        for i, t in enumerate(outs):
            scope.values.append((res if len(outs) == 1 else f"{res}#{i}", t))

    def unregistered_op(
        self,
        scope: Scope,
        indent: int,
        name: str | None = None,
        successors: list[str] | None = None,
        n_results: int | None = None,
    ) -> None:
        draw = self.draw
        name = name or draw(S(["test.op", "test.other", "foo.bar_baz", "t.x$y"]))
        operands = self.picks(scope.values, 3)
        if n_results is None:
            n_results = draw(I(0, 3))
        res_types = [draw(any_types()) for _ in range(n_results)]
        res = self.fresh()
        bind = (
            ""
            if not res_types
            else (f"{res} = " if len(res_types) == 1 else f"{res}:{len(res_types)} = ")
        )
        props = ""
        if draw(I(0, 3)) == 0:
            # Property names differ from attribute names: mlc keeps both in one dictionary.
            d = draw(attr_dicts(prefix="p_"))
            props = f" <{d}>" if d else ""
        attrs = ""
        if draw(B):
            d = draw(attr_dicts())
            attrs = f" {d}" if d else ""
        succ = f"[{', '.join(successors)}]" if successors else ""
        ins = ", ".join(t.text for _, t in operands)
        outs = ", ".join(t.text for t in res_types)
        outs = f"({outs})" if len(res_types) != 1 or res_types[0].text.startswith("(") else outs
        self.emit(
            indent,
            f'{bind}"{name}"({", ".join(n for n, _ in operands)}){succ}{props}{attrs} : ({ins}) -> {outs}{self.maybe_loc()}',  # noqa: E501
        )
        for i, t in enumerate(res_types):
            scope.values.append((res if len(res_types) == 1 else f"{res}#{i}", t))

    def region_op(self, scope: Scope, indent: int, depth: int) -> None:
        """An unregistered op with 1-2 regions of 1-3 blocks, branching between blocks."""
        draw = self.draw
        name = draw(S(["test.region", "test.loop"]))
        operands = self.picks(scope.values, 2)
        self.emit(indent, f'"{name}"({", ".join(n for n, _ in operands)}) ({{')
        n_regions = draw(I(1, 2))
        for r in range(n_regions):
            if r:
                self.emit(indent, "}, {")
            n_blocks = draw(I(1, 3))
            labels = [self.block_label() for _ in range(n_blocks)]
            for b, label in enumerate(labels):
                inner = scope.child()
                args = [(self.fresh(), draw(any_types())) for _ in range(draw(I(0, 2)))]
                if args or b > 0 or draw(B):
                    arg_text = ", ".join(f"{n}: {t.text}{self.maybe_loc()}" for n, t in args)
                    self.emit(indent, f"{label}({arg_text}):" if args else f"{label}:")
                inner.values.extend(args)
                for _ in range(draw(I(0, 2))):
                    self.op(inner, indent + 1, depth + 1)
                later = labels[b + 1 :] if b + 1 < len(labels) else []
                succs = self.picks(labels[1:], 2)
                if not later and not succs:
                    self.unregistered_op(inner, indent + 1, name="test.yield", n_results=0)
                else:
                    self.unregistered_op(
                        inner,
                        indent + 1,
                        name="test.br",
                        successors=succs or later[:1],
                        n_results=0,
                    )
        attrs = draw(attr_dicts())
        self.emit(
            indent,
            f"}}){' ' + attrs if attrs else ''} : ({', '.join(t.text for _, t in operands)}) -> (){self.maybe_loc()}",  # noqa: E501
        )

    # -- functions and the module ---------------------------------------------------------------

    def func(self, indent: int, index: int) -> None:
        draw = self.draw
        arg_types = draw(L(st.one_of(arith_types(), any_types()), max_size=4))
        sym = draw(S([f"@f{index}", f'@"f {index}"', f"@f{index}_x.y"]))
        scope = Scope()
        args = [(self.fresh(), t) for t in arg_types]
        scope.values.extend(args)
        is_generic = self.generic() or not registered("func.func")
        body_start = len(self.lines)
        for _ in range(draw(I(0, 6))):
            self.op(scope, indent + 1, 0)
        body = self.lines[body_start:]
        del self.lines[body_start:]
        rets = self.picks(scope.values, 3)
        res_types = [t for _, t in rets]
        ret_vals = ", ".join(n for n, _ in rets)
        if is_generic:
            ins, outs = (", ".join(t.text for t in ts) for ts in (arg_types, res_types))
            ft = f"({ins}) -> ({outs})"
            self.emit(
                indent,
                f'"func.func"() <{{function_type = {ft}, sym_name = "{sym[1:].strip(chr(34))}"}}> ({{',  # noqa: E501
            )
            if args:
                self.emit(
                    indent,
                    f"^bb0({', '.join(f'{n}: {t.text}{self.maybe_loc()}' for n, t in args)}):",
                )
            self.lines.extend(body)
            ret_types = ", ".join(t.text for t in res_types)
            self.emit(
                indent + 1, f'"func.return"({ret_vals}) : ({ret_types}) -> (){self.maybe_loc()}'
            )
            self.emit(indent, f"}}) : () -> (){self.maybe_loc()}")
        else:
            arg_text = []
            for n, t in args:
                a = f"{n}: {t.text}"
                if draw(I(0, 4)) == 0:
                    d = draw(attr_dicts(prefix="test."))  # arg attributes need a dialect prefix
                    a += f" {d}" if d else ""
                arg_text.append(a + self.maybe_loc())
            res_text = ""
            if res_types:
                parts = []
                for t in res_types:
                    d = draw(attr_dicts(prefix="test.")) if draw(I(0, 4)) == 0 else ""
                    parts.append(t.text + (f" {d}" if d else ""))
                res_text = f" -> ({', '.join(parts)})"
            attrs = ""
            if draw(I(0, 3)) == 0:
                d = draw(attr_dicts(prefix="test."))
                attrs = f" attributes {d}" if d else ""
            self.emit(indent, f"func.func {sym}({', '.join(arg_text)}){res_text}{attrs} {{")
            self.lines.extend(body)
            if rets:
                self.emit(
                    indent + 1,
                    f"return {ret_vals} : {', '.join(t.text for t in res_types)}{self.maybe_loc()}",
                )
            else:
                self.emit(indent + 1, f"return{self.maybe_loc()}")
            self.emit(indent, f"}}{self.maybe_loc()}")
        if not is_generic and not sym.startswith('@"'):
            self.funcs.append((sym, arg_types, res_types))

    def declaration(self, indent: int, index: int) -> None:
        ins = self.draw(L(arith_types(), max_size=3))
        outs = self.draw(L(arith_types(), max_size=2))
        sym = f"@decl{index}"
        res = f" -> ({', '.join(t.text for t in outs)})" if outs else ""
        self.emit(
            indent,
            f"func.func private {sym}({', '.join(t.text for t in ins)}){res}{self.maybe_loc()}",
        )
        self.funcs.append((sym, ins, outs))

    def module(self) -> str:
        draw = self.draw
        # Aliases: defined before use (attribute, type and location aliases).
        self.emit(0, f"#alias_attr = {draw(attributes(1, aliases=False))}")
        self.emit(0, f"!t_alias = {draw(any_types(1, aliases=False)).text}")
        self.emit(0, f"#loc_alias = loc({draw(locations(2))})")
        style = draw(S(["implicit", "plain", "attrs", "named"]))
        indent = 0 if style == "implicit" else 1
        if style == "plain":
            self.emit(0, "module {")
        elif style == "attrs":
            self.emit(0, f"module attributes {draw(attr_dicts(prefix='test.')) or '{}'} {{")
        elif style == "named":
            self.emit(0, "module @m {")
        for i in range(draw(I(0, 3))):
            which = draw(I(0, 5))
            if which == 0 and registered("func.func"):
                self.declaration(indent, i)
            elif which == 1:
                # A nested symbol table: its functions are not callable from outside.
                self.emit(indent, f"module @inner{i} {{")
                outer, self.funcs = self.funcs, []
                self.func(indent + 1, 100 + i)
                self.funcs = outer
                self.emit(indent, "}")
            elif which == 2:
                scope = Scope()
                self.unregistered_op(scope, indent)
            else:
                self.func(indent, i)
        if style != "implicit":
            self.emit(0, f"}}{self.maybe_loc()}")
        return "\n".join(self.lines) + "\n"


@functools.cache
@st.composite
def modules(draw: st.DrawFn) -> str:
    """The text of a random well-formed module (parse with allow_unregistered=True)."""
    return ModuleGen(draw).module()


# ---------------------------------------------------------------------------------------------
# Properties


def parse(text: str) -> mlc.ir.core.Operation:
    return mlc.parse(text, allow_unregistered=True)


def check_fixpoint(text: str, **flags: bool) -> None:
    module = parse(text)
    module.verify()
    first = module.print(**flags)
    if currently_in_test_context():
        note(f"first print ({flags}):\n{first}")
    again = parse(first)
    again.verify()
    second = again.print(**flags)
    assert second == first


@SETTINGS
@given(modules())
@example("func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n  return %0 : i32\n}\n")
def test_print_parse_print_is_a_fixpoint(text: str) -> None:
    """All properties on each module (generating modules costs more than checking them):
    it verifies; custom, generic and debug-info prints are fixpoints; and the custom and
    generic prints parse to the same module."""
    check_fixpoint(text)
    check_fixpoint(text, generic=True)
    check_fixpoint(text, debuginfo=True)
    check_fixpoint(text, generic=True, debuginfo=True)
    module = parse(text)
    generic = module.print(generic=True, debuginfo=True)
    from_custom = parse(module.print(debuginfo=True)).print(generic=True, debuginfo=True)
    assert from_custom == generic
    assert parse(generic).print(generic=True, debuginfo=True) == generic


@SMALL_SETTINGS
@given(L(attributes(), min_size=1, max_size=4), L(any_types(), max_size=3))
def test_attributes_and_types_round_trip(attrs: list[str], types: list[Ty]) -> None:
    """Attributes and types alone (shrinks better than whole modules)."""
    body = ", ".join(f"a{i} = {a}" for i, a in enumerate(attrs))
    outs = ", ".join(t.text for t in types)
    text = f'#alias_attr = 1\n!t_alias = i32\n"test.op"() {{{body}}} : () -> ({outs})\n'
    check_fixpoint(text)
    check_fixpoint(text, generic=True)


def test_registered_op_coverage() -> None:
    """Every op the generators know is registered (MLIR has them all in these dialects)."""
    names = (
        [
            f"arith.{n}"
            for n in INT_BINOPS + FLOAT_BINOPS + ["negf", "cmpi", "cmpf", "select", "constant"]
        ]
        + [
            f"arith.{n}"
            for n in [
                "extsi",
                "extui",
                "trunci",
                "sitofp",
                "uitofp",
                "fptosi",
                "fptoui",
                "extf",
                "truncf",
                "index_cast",
                "index_castui",
                "bitcast",
            ]
        ]
        + [f"math.{n}" for n in MATH_FLOAT_UNARY + MATH_FLOAT_BINARY + MATH_INT_UNARY + ["fma"]]
        + ["func.func", "func.call", "func.return"]
    )
    missing = [n for n in names if not registered(n)]
    assert missing == []


def test_dense_of_wide_integers_is_a_clean_diagnostic() -> None:
    """Until supported, dense elements wider than 64 bits are refused with a located diagnostic."""
    text = "func.func @f() {\n  %0 = arith.constant dense<[1, -1]> : tensor<2xi65>\n  return\n}\n"
    with pytest.raises(mlc.ParseError) as info:
        parse(text)
    diag = info.value.diagnostic
    assert "not supported: element type i65 in dense elements" in diag.message
    assert diag.file_loc is not None and diag.file_loc.line == 2


@pytest.mark.xfail(strict=True, reason="not supported yet: dense elements wider than 64 bits")
def test_dense_of_wide_integers() -> None:
    """MLIR allows dense elements of any integer width."""
    text = "func.func @f() {\n  %0 = arith.constant dense<[1, -1]> : tensor<2xi65>\n  return\n}\n"
    check_fixpoint(text)
    assert "dense<[1, -1]> : tensor<2xi65>" in str(parse(text))


@pytest.mark.parametrize(
    "text",
    [
        # Values whose text is easy to get wrong.
        "%0 = arith.constant -0.0 : f64\n",
        "%0 = arith.constant 0x7FC00001 : f32\n",
        "%0 = arith.constant 0xFFF0000000000000 : f64\n",
        "%0 = arith.constant 1.0e-320 : f64\n",
        "%0 = arith.constant 170141183460469231731687303715884105727 : i128\n",
        "%0 = arith.constant -1 : i1\n",
        '"test.op"() {s = "\\FF\\00\\22\\\\\\n\\t\\C3\\A9\\E4\\B8\\AD"} : () -> ()\n',
        '"test.op"() {"quoted name" = unit, a.b = [], c = {}} : () -> ()\n',
        '"test.op"() {m = affine_map<(d0)[s0] -> (d0 floordiv 4, s0 mod 3, -d0)>} : () -> ()\n',
        '"test.op"() : () -> (memref<?x4xf32, strided<[?, 1], offset: ?>, 1>, vector<2x[4]xi8>)\n',
    ],
)
def test_tricky_literals_round_trip(text: str) -> None:
    text = "func.func @f() {\n  " + text + "  return\n}\n"
    check_fixpoint(text)
    check_fixpoint(text, generic=True)
