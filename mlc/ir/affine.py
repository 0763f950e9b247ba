"""Affine expressions, affine maps and integer sets (core IR): uniqued, simplified on construction
by MLIR's rules, and printed/parsed as the bodies of MLIR's `affine_map<...>` / `affine_set<...>`
(the parser is in `affine_parser`; its entry points can also be imported from here).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from math import gcd
from types import ModuleType
from typing import Any, Self

__all__ = [
    "ADD",
    "CEILDIV",
    "FLOORDIV",
    "MOD",
    "MUL",
    "AffineBinaryExpr",
    "AffineConstantExpr",
    "AffineDimExpr",
    "AffineExpr",
    "AffineMap",
    "AffineParseError",
    "AffineSymbolExpr",
    "IntegerSet",
    "const",
    "dim",
    "parse_affine_expr",
    "parse_affine_map",
    "parse_affine_map_of_ssa_ids",
    "parse_affine_map_or_set",
    "parse_affine_map_or_set_at",
    "parse_integer_set",
    "simplify_affine_expr",
    "sym",
]

ADD = "add"
MUL = "mul"
MOD = "mod"
FLOORDIV = "floordiv"
CEILDIV = "ceildiv"
_SPELLING = {MUL: " * ", MOD: " mod ", FLOORDIV: " floordiv ", CEILDIV: " ceildiv "}
_INT64_MAX = (1 << 63) - 1
_INT64_MIN = -(1 << 63)

_set = object.__setattr__


class _Uniqued:
    """Immutable and interned: fields are set once through `_set`, copies are the object."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        return self


# ---------------------------------------------------------------------------------------------
# Expressions


class AffineExpr(_Uniqued):
    """Base of the uniqued affine expressions; `==` is identity as equal trees are one object."""

    __slots__ = ("_divisor", "_max_dim", "_max_sym", "_pure", "_symbolic", "_text")

    _divisor: int
    _max_dim: int
    _max_sym: int
    _pure: bool
    _symbolic: bool
    _text: str | None

    def __str__(self) -> str:
        text = self._text
        if text is None:
            out: list[str] = []
            _emit(self, False, out, None, None)
            text = "".join(out)
            _set(self, "_text", text)
        return text

    def __repr__(self) -> str:
        return f"AffineExpr({str(self)!r})"

    def format(
        self, dim_names: Sequence[str] | None = None, sym_names: Sequence[str] | None = None
    ) -> str:
        """Print with the given names for dims/symbols (e.g. SSA names in custom op forms)."""
        if dim_names is None and sym_names is None:
            return str(self)
        out: list[str] = []
        _emit(self, False, out, dim_names, sym_names)
        return "".join(out)

    # Operators mirror MLIR's: `a - b` is `a + b * -1`, `-a` is `a * -1`, ints become constants.
    def __add__(self, other: AffineExpr | int) -> AffineExpr:
        rhs = _as_expr(other)
        return NotImplemented if rhs is None else _add(self, rhs)

    def __radd__(self, other: int) -> AffineExpr:
        lhs = _as_expr(other)
        return NotImplemented if lhs is None else _add(self, lhs)

    def __sub__(self, other: AffineExpr | int) -> AffineExpr:
        rhs = _as_expr(other)
        return NotImplemented if rhs is None else _add(self, _mul(rhs, _MINUS_ONE))

    def __rsub__(self, other: int) -> AffineExpr:
        lhs = _as_expr(other)
        return NotImplemented if lhs is None else _add(lhs, _mul(self, _MINUS_ONE))

    def __mul__(self, other: AffineExpr | int) -> AffineExpr:
        rhs = _as_expr(other)
        return NotImplemented if rhs is None else _mul(self, rhs)

    def __rmul__(self, other: int) -> AffineExpr:
        lhs = _as_expr(other)
        return NotImplemented if lhs is None else _mul(self, lhs)

    def __mod__(self, other: AffineExpr | int) -> AffineExpr:
        rhs = _as_expr(other)
        return NotImplemented if rhs is None else _mod(self, rhs)

    def __rmod__(self, other: int) -> AffineExpr:
        lhs = _as_expr(other)
        return NotImplemented if lhs is None else _mod(lhs, self)

    def __floordiv__(self, other: AffineExpr | int) -> AffineExpr:
        rhs = _as_expr(other)
        return NotImplemented if rhs is None else _floordiv(self, rhs)

    def __rfloordiv__(self, other: int) -> AffineExpr:
        lhs = _as_expr(other)
        return NotImplemented if lhs is None else _floordiv(lhs, self)

    def __neg__(self) -> AffineExpr:
        return _mul(self, _MINUS_ONE)

    def floordiv(self, other: AffineExpr | int) -> AffineExpr:
        """`self floordiv other` (rounds toward negative infinity)."""
        return _floordiv(self, _expect_expr(other))

    def ceildiv(self, other: AffineExpr | int) -> AffineExpr:
        """`self ceildiv other` (rounds toward positive infinity)."""
        return _ceildiv(self, _expect_expr(other))

    def is_symbolic_or_constant(self) -> bool:
        """True if the expression uses no dimension."""
        return self._symbolic

    def is_pure_affine(self) -> bool:
        """True unless a product, division or modulo has a non-constant right operand."""
        return self._pure

    def largest_known_divisor(self) -> int:
        """The largest integer known to divide the expression's value (MLIR's rules)."""
        return self._divisor

    def is_multiple_of(self, factor: int) -> bool:
        """True if the expression is known to be a multiple of `factor`."""
        return self._divisor % factor == 0

    def is_function_of_dim(self, position: int) -> bool:
        """True if dimension `position` occurs in the expression."""
        return position <= self._max_dim and _occurs(self, AffineDimExpr, position)

    def is_function_of_symbol(self, position: int) -> bool:
        """True if symbol `position` occurs in the expression."""
        return position <= self._max_sym and _occurs(self, AffineSymbolExpr, position)

    def replace_dims_and_symbols(
        self, dim_repl: Sequence[AffineExpr], sym_repl: Sequence[AffineExpr] = ()
    ) -> AffineExpr:
        """Substitute dims/symbols by position; positions past the replacement lists stay."""
        return _replace(self, tuple(dim_repl), tuple(sym_repl), {})

    def compose(self, amap: AffineMap) -> AffineExpr:
        """Substitute the results of `amap` for this expression's dims."""
        return _replace(self, amap.results, (), {})

    def evaluate(self, dims: Sequence[int], symbols: Sequence[int] = ()) -> int:
        """The value for the given dim and symbol values (floor semantics for div/mod)."""
        return _eval(self, dims, symbols)


class AffineDimExpr(AffineExpr):
    """Dimension identifier `d<position>`."""

    __slots__ = ("position",)
    kind = "dim"
    position: int

    def __new__(cls, position: int) -> AffineDimExpr:
        e = _DIMS.get(position) if type(position) is int else None
        if e is None:
            _check_index(position, "dimension position")
            e = object.__new__(AffineDimExpr)
            _init_leaf(e, False, 1, position, -1)
            _set(e, "position", position)
            e = _DIMS.setdefault(position, e)
        return e

    def __reduce__(self) -> tuple[object, ...]:
        return (AffineDimExpr, (self.position,))


class AffineSymbolExpr(AffineExpr):
    """Symbol identifier `s<position>`."""

    __slots__ = ("position",)
    kind = "symbol"
    position: int

    def __new__(cls, position: int) -> AffineSymbolExpr:
        e = _SYMS.get(position) if type(position) is int else None
        if e is None:
            _check_index(position, "symbol position")
            e = object.__new__(AffineSymbolExpr)
            _init_leaf(e, True, 1, -1, position)
            _set(e, "position", position)
            e = _SYMS.setdefault(position, e)
        return e

    def __reduce__(self) -> tuple[object, ...]:
        return (AffineSymbolExpr, (self.position,))


class AffineConstantExpr(AffineExpr):
    """Integer constant."""

    __slots__ = ("value",)
    kind = "constant"
    value: int

    def __new__(cls, value: int) -> AffineConstantExpr:
        if type(value) is not int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"affine constant must be an int, got {value!r}")
            value = int(value)
        e = _CONSTS.get(value)
        if e is None:
            e = object.__new__(AffineConstantExpr)
            _init_leaf(e, True, abs(value), -1, -1)
            _set(e, "value", value)
            e = _CONSTS.setdefault(value, e)
        return e

    def __reduce__(self) -> tuple[object, ...]:
        return (AffineConstantExpr, (self.value,))


class AffineBinaryExpr(AffineExpr):
    """`lhs <kind> rhs`; constructing one simplifies, so the result may be of another class."""

    __slots__ = ("kind", "lhs", "rhs")
    kind: str
    lhs: AffineExpr
    rhs: AffineExpr

    def __new__(cls, kind: str, lhs: AffineExpr | int, rhs: AffineExpr | int) -> AffineExpr:  # type: ignore[misc]
        build = _BUILDERS.get(kind)
        if build is None:
            raise ValueError(f"unknown affine binary kind {kind!r}")
        return build(_expect_expr(lhs), _expect_expr(rhs))

    def __reduce__(self) -> tuple[object, ...]:
        return (AffineBinaryExpr, (self.kind, self.lhs, self.rhs))


_DIMS: dict[int, AffineDimExpr] = {}
_SYMS: dict[int, AffineSymbolExpr] = {}
_CONSTS: dict[int, AffineConstantExpr] = {}
_BINARY: dict[tuple[str, AffineExpr, AffineExpr], AffineBinaryExpr] = {}


def dim(position: int) -> AffineDimExpr:
    """The uniqued `d<position>`."""
    return AffineDimExpr(position)


def sym(position: int) -> AffineSymbolExpr:
    """The uniqued `s<position>`."""
    return AffineSymbolExpr(position)


def const(value: int) -> AffineConstantExpr:
    """The uniqued integer constant `value`."""
    if type(value) is int:
        e = _CONSTS.get(value)
        if e is not None:
            return e
    return AffineConstantExpr(value)


def _check_index(position: int, what: str) -> None:
    if type(position) is not int or position < 0:
        raise ValueError(f"{what} must be a non-negative int, got {position!r}")


def _init_leaf(e: AffineExpr, symbolic: bool, divisor: int, max_dim: int, max_sym: int) -> None:
    _set(e, "_symbolic", symbolic)
    _set(e, "_pure", True)
    _set(e, "_divisor", divisor)
    _set(e, "_max_dim", max_dim)
    _set(e, "_max_sym", max_sym)
    _set(e, "_text", None)


def _as_expr(x: object) -> AffineExpr | None:
    if isinstance(x, AffineExpr):
        return x
    if isinstance(x, int) and not isinstance(x, bool):
        return const(int(x))
    return None


def _expect_expr(x: AffineExpr | int) -> AffineExpr:
    e = _as_expr(x)
    if e is None:
        raise TypeError(f"expected an AffineExpr or int, got {type(x).__name__}")
    return e


def _intern(kind: str, lhs: AffineExpr, rhs: AffineExpr) -> AffineBinaryExpr:
    """The uniqued binary node, without simplification (callers have simplified)."""
    key = (kind, lhs, rhs)
    e = _BINARY.get(key)
    if e is not None:
        return e
    e = object.__new__(AffineBinaryExpr)
    rconst = type(rhs) is AffineConstantExpr
    if kind is ADD:
        pure = lhs._pure and rhs._pure
        divisor = gcd(lhs._divisor, rhs._divisor)
    elif kind is MUL:
        pure = lhs._pure and rhs._pure and (rconst or type(lhs) is AffineConstantExpr)
        divisor = lhs._divisor * rhs._divisor
    elif kind is MOD:
        pure = lhs._pure and rconst
        divisor = gcd(lhs._divisor, rhs._divisor)
    else:
        pure = lhs._pure and rconst
        divisor = 1
        if type(rhs) is AffineConstantExpr and rhs.value != 0 and lhs._divisor % rhs.value == 0:
            divisor = abs(lhs._divisor // rhs.value)
    _set(e, "_symbolic", lhs._symbolic and rhs._symbolic)
    _set(e, "_pure", pure)
    _set(e, "_divisor", divisor)
    _set(e, "_max_dim", max(lhs._max_dim, rhs._max_dim))
    _set(e, "_max_sym", max(lhs._max_sym, rhs._max_sym))
    _set(e, "_text", None)
    _set(e, "kind", kind)
    _set(e, "lhs", lhs)
    _set(e, "rhs", rhs)
    return _BINARY.setdefault(key, e)  # setdefault: a racing thread's node wins consistently


# ---------------------------------------------------------------------------------------------
# Simplification on construction: the rules of MLIR's AffineExpr operators (AffineExpr.cpp).

_Const = AffineConstantExpr
_Bin = AffineBinaryExpr


def _fold(value: int) -> AffineConstantExpr | None:
    """The constant `value` if it fits in 64 bits; MLIR does not fold what would overflow."""
    return const(value) if _INT64_MIN <= value <= _INT64_MAX else None


def _split_scaled(e: AffineExpr) -> tuple[AffineExpr, int]:
    """`x * c` -> (x, c); anything else -> (e, 1)."""
    if type(e) is _Bin and e.kind is MUL and type(e.rhs) is _Const:
        return e.lhs, e.rhs.value
    return e, 1


def _leaves_out_of_order(lhs: AffineExpr, rhs: AffineExpr) -> bool:
    """Two dims, or two symbols, with the higher position on the left."""
    if type(lhs) is AffineDimExpr and type(rhs) is AffineDimExpr:
        return lhs.position > rhs.position
    if type(lhs) is AffineSymbolExpr and type(rhs) is AffineSymbolExpr:
        return lhs.position > rhs.position
    return False


def _add(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    return _simplify_add(lhs, rhs) or _intern(ADD, lhs, rhs)


def _simplify_add(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr | None:
    """`lhs + rhs` rewritten by MLIR's rules, or None if none applies."""
    if type(lhs) is _Const:
        if type(rhs) is _Const:
            return _fold(lhs.value + rhs.value)
        return _add(rhs, lhs)  # constants go right
    if lhs._symbolic and not rhs._symbolic or _leaves_out_of_order(lhs, rhs):
        return _add(rhs, lhs)  # so does the symbolic side; d1 + d0 -> d0 + d1
    if type(rhs) is _Const:
        if rhs.value == 0:
            return lhs
        if type(lhs) is _Bin and lhs.kind is ADD and type(lhs.rhs) is _Const:
            c = _fold(lhs.rhs.value + rhs.value)
            if c is not None:
                return _add(lhs.lhs, c)  # (x + 2) + 3 -> x + 5
    x1, c1 = _split_scaled(lhs)
    x2, c2 = _split_scaled(rhs)
    if x1 is x2:
        c = _fold(c1 + c2)
        if c is not None:
            return _mul(x1, c)  # c1 * x + c2 * x -> (c1 + c2) * x
    if type(lhs) is _Bin and lhs.kind is ADD and type(lhs.rhs) is _Const:
        return _add(_add(lhs.lhs, rhs), lhs.rhs)  # (x + 2) + y -> (x + y) + 2
    if type(rhs) is _Bin:
        if rhs.kind is MUL:
            folded = _fold_into_mod(lhs, rhs)
            if folded is not None:
                return folded
            # (x + y) + (e floordiv q) * k -> x + (y + (e floordiv q) * k) if the inner sum
            # simplifies, e.g. (d0 + d1) + (d1 floordiv 4) * -4 -> d0 + d1 mod 4.
            lrhs = rhs.lhs
            if type(lrhs) is _Bin and lrhs.kind is FLOORDIV:
                if type(lhs) is _Bin and lhs.kind is ADD:
                    inner = _simplify_add(lhs.rhs, rhs)
                    if inner is not None:
                        return _add(lhs.lhs, inner)
        elif rhs.kind is ADD:
            # Not an MLIR rule: MLIR keeps `x + (y + z)` but prints it as `x + y + z`, which
            # parses back left-nested. Keeping sums left-nested makes printing lossless.
            return _add(_add(lhs, rhs.lhs), rhs.rhs)
    return None


def _fold_into_mod(lhs: AffineExpr, rhs: AffineBinaryExpr) -> AffineExpr | None:
    """`e + ((e floordiv q) * q) * -1` -> `e mod q`; `e + (e floordiv c) * -c` -> `e mod c`."""
    lrhs = rhs.lhs
    rrhs = rhs.rhs
    if type(lrhs) is not _Bin or type(rrhs) is not _Const:
        return None
    if lrhs.kind is MUL and rrhs.value == -1:
        q = lrhs.rhs
        div = lrhs.lhs
        if type(div) is _Bin and div.kind is FLOORDIV and div.rhs is q and div.lhs is lhs:
            return _mod(lhs, q)
        return None
    if lrhs.kind is FLOORDIV and lrhs.lhs is lhs and type(lrhs.rhs) is _Const:
        c = lrhs.rhs.value
        if c >= 1 and c == -rrhs.value:
            return _mod(lhs, lrhs.rhs)
    return None


def _mul(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    if type(lhs) is _Const:
        if type(rhs) is _Const:
            return _fold(lhs.value * rhs.value) or _intern(MUL, lhs, rhs)
        return _mul(rhs, lhs)  # constants go right
    # So does the symbolic side. MLIR asserts that one side is symbolic; a product of two
    # dimensional expressions is kept as is (not affine, but representable).
    if lhs._symbolic and not rhs._symbolic or _leaves_out_of_order(lhs, rhs):
        return _mul(rhs, lhs)
    if type(rhs) is _Const:
        if rhs.value == 1:
            return lhs
        if rhs.value == 0:
            return rhs
        if type(lhs) is _Bin and lhs.kind is MUL and type(lhs.rhs) is _Const:
            c = _fold(lhs.rhs.value * rhs.value)
            if c is not None:
                return _mul(lhs.lhs, c)  # (x * 2) * 3 -> x * 6
    if type(lhs) is _Bin and lhs.kind is MUL and type(lhs.rhs) is _Const:
        return _mul(_mul(lhs.lhs, rhs), lhs.rhs)  # (x * 2) * y -> (x * y) * 2
    return _intern(MUL, lhs, rhs)


def _div_of_scaled(lhs: AffineExpr, c: int) -> AffineExpr | None:
    """`(x * k) div c` -> `x * (k / c)` when `c` divides `k` (either rounding)."""
    if type(lhs) is _Bin and lhs.kind is MUL and type(lhs.rhs) is _Const:
        k = lhs.rhs.value
        if k % c == 0:
            quotient = _fold(k // c)
            if quotient is not None:
                return _mul(lhs.lhs, quotient)
    return None


def _floordiv(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    if type(rhs) is not _Const:
        return _ONE if lhs is rhs else _intern(FLOORDIV, lhs, rhs)
    c = rhs.value
    if c == 0:
        return _intern(FLOORDIV, lhs, rhs)  # undefined: kept as written
    if type(lhs) is _Const:
        return _fold(lhs.value // c) or _intern(FLOORDIV, lhs, rhs)
    if c == 1:
        return lhs
    scaled = _div_of_scaled(lhs, c)
    if scaled is not None:
        return scaled
    if type(lhs) is _Bin and lhs.kind is ADD:
        a = lhs.lhs
        b = lhs.rhs
        if a._divisor % c == 0 or b._divisor % c == 0:
            return _add(_floordiv(a, rhs), _floordiv(b, rhs))
    return _intern(FLOORDIV, lhs, rhs)


def _ceildiv(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    if type(rhs) is not _Const:
        return _ONE if lhs is rhs else _intern(CEILDIV, lhs, rhs)
    c = rhs.value
    if c == 0:
        return _intern(CEILDIV, lhs, rhs)
    if type(lhs) is _Const:
        return _fold(-(-lhs.value // c)) or _intern(CEILDIV, lhs, rhs)
    if c == 1:
        return lhs
    return _div_of_scaled(lhs, c) or _intern(CEILDIV, lhs, rhs)


def _mod(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    if type(rhs) is not _Const:
        return _ZERO if lhs is rhs else _intern(MOD, lhs, rhs)
    c = rhs.value
    if c < 1:
        return _intern(MOD, lhs, rhs)  # undefined: kept as written
    if type(lhs) is _Const:
        return const(lhs.value % c)
    if lhs._divisor % c == 0:
        return _ZERO  # also x mod 1 -> 0
    if type(lhs) is _Bin:
        a = lhs.lhs
        b = lhs.rhs
        if lhs.kind is ADD:
            if a._divisor % c == 0:
                return _mod(b, rhs)
            if b._divisor % c == 0:
                return _mod(a, rhs)
        elif lhs.kind is MOD and type(b) is _Const and b.value >= 1 and b.value % c == 0:
            return _mod(a, rhs)  # (x mod 8) mod 4 -> x mod 4
    return _intern(MOD, lhs, rhs)


_BUILDERS: dict[str, Callable[[AffineExpr, AffineExpr], AffineExpr]] = {
    ADD: _add,
    MUL: _mul,
    MOD: _mod,
    FLOORDIV: _floordiv,
    CEILDIV: _ceildiv,
}
_ZERO = const(0)
_ONE = const(1)
_MINUS_ONE = const(-1)


# ---------------------------------------------------------------------------------------------
# Traversals: printing, evaluation, substitution


def _emit(
    e: AffineExpr,
    strong: bool,
    out: list[str],
    dn: Sequence[str] | None,
    sn: Sequence[str] | None,
) -> None:
    """Append `e` as MLIR prints it; `strong` means the context binds tighter than `+`."""
    if type(e) is AffineDimExpr:
        out.append(f"d{e.position}" if dn is None else dn[e.position])
        return
    if type(e) is AffineSymbolExpr:
        out.append(f"s{e.position}" if sn is None else sn[e.position])
        return
    if type(e) is _Const:
        out.append(str(e.value))
        return
    assert type(e) is _Bin
    kind = e.kind
    lhs = e.lhs
    rhs = e.rhs
    if strong:
        out.append("(")
    if kind is not ADD:
        if kind is MUL and rhs is _MINUS_ONE:
            out.append("-")
            _emit(lhs, True, out, dn, sn)
        else:
            _emit(lhs, True, out, dn, sn)
            out.append(_SPELLING[kind])
            _emit(rhs, True, out, dn, sn)
    else:
        _emit(lhs, False, out, dn, sn)
        y, c = _split_scaled(rhs)
        if c < 0:  # x + y * -c prints as a subtraction
            out.append(" - ")
            if c == -1:
                _emit(y, type(y) is _Bin and y.kind is ADD, out, dn, sn)
            else:
                _emit(y, True, out, dn, sn)
                out.append(f" * {-c}")
        elif type(rhs) is _Const and rhs.value < 0:
            out.append(f" - {-rhs.value}")
        else:
            out.append(" + ")
            _emit(rhs, False, out, dn, sn)
    if strong:
        out.append(")")


def _eval(e: AffineExpr, dims: Sequence[int], syms: Sequence[int]) -> int:
    if type(e) is _Const:
        return e.value
    if type(e) is AffineDimExpr:
        return dims[e.position]
    if type(e) is AffineSymbolExpr:
        return syms[e.position]
    assert type(e) is _Bin
    a = _eval(e.lhs, dims, syms)
    b = _eval(e.rhs, dims, syms)
    kind = e.kind
    if kind is ADD:
        return a + b
    if kind is MUL:
        return a * b
    if kind is FLOORDIV:
        return a // b
    if kind is CEILDIV:
        return -(-a // b)
    return a % b


_PY_OPERATORS = {ADD: "+", MUL: "*", FLOORDIV: "//", MOD: "%"}


def _py_source(e: AffineExpr) -> str:
    """A Python expression over `d` (dims) and `s` (symbols) with floor semantics."""
    if type(e) is _Const:
        return f"({e.value})"
    if type(e) is AffineDimExpr:
        return f"d[{e.position}]"
    if type(e) is AffineSymbolExpr:
        return f"s[{e.position}]"
    assert type(e) is _Bin
    a = _py_source(e.lhs)
    b = _py_source(e.rhs)
    if e.kind is CEILDIV:
        return f"(-((-{a}) // {b}))"
    return f"({a} {_PY_OPERATORS[e.kind]} {b})"


_Evaluator = Callable[[Sequence[int], Sequence[int]], Any]


def _compile(body: str) -> _Evaluator:
    """`lambda d, s: body`, compiled once per map or set and cached on it."""
    # The generated text holds only integers, operators and the parameters `d` and `s`.
    fn: _Evaluator = eval(compile(f"lambda d, s: {body}", "<affine>", "eval"))
    return fn


def _replace(
    e: AffineExpr,
    dims: tuple[AffineExpr, ...],
    syms: tuple[AffineExpr, ...],
    memo: dict[AffineExpr, AffineExpr],
) -> AffineExpr:
    if type(e) is AffineDimExpr:
        return dims[e.position] if e.position < len(dims) else e
    if type(e) is AffineSymbolExpr:
        return syms[e.position] if e.position < len(syms) else e
    if type(e) is not _Bin:
        return e
    done = memo.get(e)
    if done is not None:
        return done
    lhs = _replace(e.lhs, dims, syms, memo)
    rhs = _replace(e.rhs, dims, syms, memo)
    result = e if lhs is e.lhs and rhs is e.rhs else _BUILDERS[e.kind](lhs, rhs)
    memo[e] = result
    return result


def _occurs(e: AffineExpr, cls: type, position: int) -> bool:
    if type(e) is _Bin:
        return _occurs(e.lhs, cls, position) or _occurs(e.rhs, cls, position)
    if type(e) is AffineDimExpr or type(e) is AffineSymbolExpr:
        return type(e) is cls and e.position == position
    return False


# ---------------------------------------------------------------------------------------------
# Flattening simplification (MLIR's simplifyAffineExpr for pure affine expressions)


class _Flattener:
    """Flattens a pure affine expression into a linear form over dims, symbols and locals.

    A form maps a column (dims, then symbols, then local div/mod quotients) to its coefficient;
    column -1 holds the constant term.
    """

    __slots__ = ("local_index", "locals", "num_dims", "num_symbols")

    def __init__(self, num_dims: int, num_symbols: int) -> None:
        self.num_dims = num_dims
        self.num_symbols = num_symbols
        self.locals: list[AffineExpr] = []
        self.local_index: dict[AffineExpr, int] = {}

    def flatten(self, e: AffineExpr) -> dict[int, int] | None:
        if type(e) is AffineDimExpr:
            return {e.position: 1}
        if type(e) is AffineSymbolExpr:
            return {self.num_dims + e.position: 1}
        if type(e) is _Const:
            return {-1: e.value} if e.value else {}
        assert type(e) is _Bin
        lhs = self.flatten(e.lhs)
        rhs = self.flatten(e.rhs)
        if lhs is None or rhs is None:
            return None
        kind = e.kind
        if kind is ADD:
            for col, v in rhs.items():
                lhs[col] = lhs.get(col, 0) + v
            return lhs
        if kind is MUL:
            if rhs.keys() - {-1} and not lhs.keys() - {-1}:
                lhs, rhs = rhs, lhs
            c = rhs.get(-1, 0)
            return {col: v * c for col, v in lhs.items()}
        c = rhs.get(-1, 0)
        if c <= 0:
            return None  # division by zero or a negative number: leave the expression alone
        if kind is MOD:
            return self._mod(lhs, c)
        return self._div(lhs, c, kind is CEILDIV)

    def _div(self, lhs: dict[int, int], c: int, ceil: bool) -> dict[int, int]:
        g = c
        for v in lhs.values():
            g = gcd(g, v)
        if g != 1:
            lhs = {col: v // g for col, v in lhs.items()}
        divisor = c // g
        if divisor == 1:
            return lhs
        a = self.unflatten(lhs)
        q = _ceildiv(a, const(divisor)) if ceil else _floordiv(a, const(divisor))
        return {self._local(q): 1}

    def _mod(self, lhs: dict[int, int], c: int) -> dict[int, int]:
        if all(v % c == 0 for v in lhs.values()):
            return {}
        g = c
        for v in lhs.values():
            g = gcd(g, v)
        dividend = {col: v // g for col, v in lhs.items()} if g != 1 else lhs
        q = _floordiv(self.unflatten(dividend), const(c // g))
        # e mod c == e - c * (e floordiv c)
        result = dict(lhs)
        result[self._local(q)] = -c
        return result

    def _local(self, q: AffineExpr) -> int:
        index = self.local_index.get(q)
        if index is None:
            index = len(self.locals)
            self.locals.append(q)
            self.local_index[q] = index
        return self.num_dims + self.num_symbols + index

    def unflatten(self, form: dict[int, int]) -> AffineExpr:
        """Rebuild the expression: dims, then symbols, then locals, then the constant."""
        nd = self.num_dims
        nds = nd + self.num_symbols
        expr: AffineExpr = _ZERO
        for col in sorted(form):
            v = form[col]
            if col < 0 or v == 0:
                continue
            term: AffineExpr
            if col < nd:
                term = dim(col)
            elif col < nds:
                term = sym(col - nd)
            else:
                term = self.locals[col - nds]
            expr = _add(expr, _mul(term, const(v)))
        c = form.get(-1, 0)
        return _add(expr, const(c)) if c else expr


def simplify_affine_expr(expr: AffineExpr, num_dims: int, num_symbols: int) -> AffineExpr:
    """Canonicalize a pure affine expression through its flattened (linear) form, as MLIR does.

    Semi-affine expressions and divisions by non-positive constants are returned unchanged.
    """
    if expr._max_dim >= num_dims or expr._max_sym >= num_symbols:
        raise ValueError(f"{expr} uses identifiers beyond ({num_dims} dims, {num_symbols} syms)")
    if not expr._pure or type(expr) is not _Bin:
        return expr
    flattener = _Flattener(num_dims, num_symbols)
    form = flattener.flatten(expr)
    return expr if form is None else flattener.unflatten(form)


# ---------------------------------------------------------------------------------------------
# Affine maps and integer sets


def _ids_text(num_dims: int, num_symbols: int) -> str:
    text = "(" + ", ".join(f"d{i}" for i in range(num_dims)) + ")"
    if num_symbols:
        text += "[" + ", ".join(f"s{i}" for i in range(num_symbols)) + "]"
    return text


def _check_exprs(exprs: tuple[AffineExpr, ...], num_dims: int, num_symbols: int, what: str) -> None:
    if type(num_dims) is not int or type(num_symbols) is not int:
        raise TypeError(f"{what}: dim and symbol counts must be ints")
    if num_dims < 0 or num_symbols < 0:
        raise ValueError(f"{what}: negative dim or symbol count")
    for e in exprs:
        if not isinstance(e, AffineExpr):
            raise TypeError(f"{what}: expected AffineExpr, got {type(e).__name__}")
        if e._max_dim >= num_dims or e._max_sym >= num_symbols:
            raise ValueError(
                f"{what}: {e} uses identifiers beyond ({num_dims} dims, {num_symbols} symbols)"
            )


_MAPS: dict[tuple[int, int, tuple[AffineExpr, ...]], AffineMap] = {}
_SETS: dict[tuple[int, int, tuple[AffineExpr, ...], tuple[bool, ...]], IntegerSet] = {}


class AffineMap(_Uniqued):
    """Uniqued map `(d0, ..)[s0, ..] -> (results)`; `==` is identity."""

    __slots__ = ("_fn", "_text", "num_dims", "num_results", "num_symbols", "results")

    num_dims: int
    num_symbols: int
    num_results: int
    results: tuple[AffineExpr, ...]
    _text: str | None
    _fn: _Evaluator | None

    def __new__(
        cls, num_dims: int, num_symbols: int, results: Iterable[AffineExpr] = ()
    ) -> AffineMap:
        if type(results) is not tuple:
            results = tuple(results)
        key = (num_dims, num_symbols, results)
        m = _MAPS.get(key)
        if m is None:
            _check_exprs(results, num_dims, num_symbols, "AffineMap")
            m = object.__new__(AffineMap)
            _set(m, "num_dims", num_dims)
            _set(m, "num_symbols", num_symbols)
            _set(m, "results", results)
            _set(m, "num_results", len(results))
            _set(m, "_text", None)
            _set(m, "_fn", None)
            m = _MAPS.setdefault(key, m)
        return m

    def __reduce__(self) -> tuple[object, ...]:
        return (AffineMap, (self.num_dims, self.num_symbols, self.results))

    def __str__(self) -> str:
        text = self._text
        if text is None:
            body = ", ".join(str(e) for e in self.results)
            text = f"{_ids_text(self.num_dims, self.num_symbols)} -> ({body})"
            _set(self, "_text", text)
        return text

    def __repr__(self) -> str:
        return f"affine_map<{self}>"

    def print_attr(self) -> str:
        """The attribute spelling `affine_map<...>`."""
        return f"affine_map<{self}>"

    @property
    def num_inputs(self) -> int:
        """Dims plus symbols."""
        return self.num_dims + self.num_symbols

    # Constructors --------------------------------------------------------------------------

    @staticmethod
    def identity(num_dims: int) -> AffineMap:
        """`(d0, .., dn-1) -> (d0, .., dn-1)`."""
        return AffineMap(num_dims, 0, tuple(dim(i) for i in range(num_dims)))

    @staticmethod
    def constant(value: int) -> AffineMap:
        """`() -> (value)`."""
        return AffineMap(0, 0, (const(value),))

    @staticmethod
    def permutation(perm: Sequence[int]) -> AffineMap:
        """`(d0, ..) -> (d<perm[0]>, ..)`; `perm` must be a permutation of range(len(perm))."""
        n = len(perm)
        if sorted(perm) != list(range(n)):
            raise ValueError(f"not a permutation: {list(perm)}")
        return AffineMap(n, 0, tuple(dim(p) for p in perm))

    @staticmethod
    def minor_identity(num_dims: int, num_results: int) -> AffineMap:
        """`(d0, .., dn-1) -> (dn-r, .., dn-1)`: the identity on the trailing dims."""
        if not 0 <= num_results <= num_dims:
            raise ValueError(f"minor identity needs 0 <= {num_results} <= {num_dims}")
        first = num_dims - num_results
        return AffineMap(num_dims, 0, tuple(dim(i) for i in range(first, num_dims)))

    # Queries -------------------------------------------------------------------------------

    def is_identity(self) -> bool:
        """Results are exactly d0 .. dn-1 for all n dims (symbols are ignored, as in MLIR)."""
        if self.num_dims != self.num_results:
            return False
        return all(e is _DIMS.get(i) for i, e in enumerate(self.results))

    def is_minor_identity(self) -> bool:
        """True for `AffineMap.minor_identity(num_dims, num_results)`."""
        return (
            self.num_symbols == 0
            and self.num_results <= self.num_dims
            and self is AffineMap.minor_identity(self.num_dims, self.num_results)
        )

    def is_empty(self) -> bool:
        """`() -> ()`."""
        return self.num_dims == 0 and self.num_symbols == 0 and self.num_results == 0

    def is_projected_permutation(self, allow_zero_in_results: bool = False) -> bool:
        """Results are distinct dims (or constant 0 if allowed); no symbols."""
        if self.num_symbols > 0 or self.num_results > self.num_dims:
            return False
        seen = [False] * self.num_dims
        for e in self.results:
            if type(e) is AffineDimExpr:
                if seen[e.position]:
                    return False
                seen[e.position] = True
            elif not (allow_zero_in_results and e is _ZERO):
                return False
        return True

    def is_permutation(self) -> bool:
        """A projected permutation with as many results as dims."""
        return self.num_dims == self.num_results and self.is_projected_permutation()

    def is_constant(self) -> bool:
        """All results are constants."""
        return all(type(e) is _Const for e in self.results)

    def is_single_constant(self) -> bool:
        """Exactly one result, and it is a constant."""
        return self.num_results == 1 and type(self.results[0]) is _Const

    def constant_results(self) -> tuple[int, ...]:
        """The values of a constant map's results."""
        if not self.is_constant():
            raise ValueError(f"map is not constant: {self}")
        return tuple(e.value for e in self.results if type(e) is _Const)

    def is_function_of_dim(self, position: int) -> bool:
        """True if any result uses dimension `position`."""
        return any(e.is_function_of_dim(position) for e in self.results)

    def is_function_of_symbol(self, position: int) -> bool:
        """True if any result uses symbol `position`."""
        return any(e.is_function_of_symbol(position) for e in self.results)

    # Transformations -----------------------------------------------------------------------

    def replace_dims_and_symbols(
        self,
        dim_repl: Sequence[AffineExpr],
        sym_repl: Sequence[AffineExpr],
        new_num_dims: int,
        new_num_symbols: int,
    ) -> AffineMap:
        """Substitute dims/symbols in every result, giving a map with the new counts."""
        dims = tuple(dim_repl)
        syms = tuple(sym_repl)
        memo: dict[AffineExpr, AffineExpr] = {}
        results = tuple(_replace(e, dims, syms, memo) for e in self.results)
        return AffineMap(new_num_dims, new_num_symbols, results)

    def compose(self, other: AffineMap) -> AffineMap:
        """`self ∘ other`: other's results feed self's dims; symbols are self's then other's."""
        if self.num_dims != other.num_results:
            raise ValueError(
                f"cannot compose: {self} has {self.num_dims} dims, "
                f"{other} has {other.num_results} results"
            )
        nsyms = self.num_symbols + other.num_symbols
        shifted = other.replace_dims_and_symbols(
            [dim(i) for i in range(other.num_dims)],
            [sym(self.num_symbols + i) for i in range(other.num_symbols)],
            other.num_dims,
            nsyms,
        )
        memo: dict[AffineExpr, AffineExpr] = {}
        results = tuple(_replace(e, shifted.results, (), memo) for e in self.results)
        return AffineMap(other.num_dims, nsyms, results)

    def get_sub_map(self, result_positions: Iterable[int]) -> AffineMap:
        """The map keeping only the results at `result_positions`, in that order."""
        results = self.results
        return AffineMap(
            self.num_dims, self.num_symbols, tuple(results[i] for i in result_positions)
        )

    def drop_results(self, positions: Iterable[int]) -> AffineMap:
        """The map without the results at `positions`."""
        drop = set(positions)
        kept = tuple(e for i, e in enumerate(self.results) if i not in drop)
        return AffineMap(self.num_dims, self.num_symbols, kept)

    def simplify(self) -> AffineMap:
        """Simplify every result through its flattened form (MLIR's `simplifyAffineMap`)."""
        nd = self.num_dims
        ns = self.num_symbols
        return AffineMap(nd, ns, tuple(simplify_affine_expr(e, nd, ns) for e in self.results))

    def inverse_permutation(self) -> AffineMap:
        """The inverse of a (projected) permutation whose results cover every dim."""
        if self.is_empty():
            return self
        if self.num_symbols:
            raise ValueError(f"inverse_permutation of a map with symbols: {self}")
        inverse: dict[int, AffineExpr] = {}
        for i, e in enumerate(self.results):
            if type(e) is AffineDimExpr and e.position not in inverse:
                inverse[e.position] = dim(i)
        if len(inverse) != self.num_dims:
            raise ValueError(f"map is not invertible as a permutation: {self}")
        return AffineMap(self.num_results, 0, tuple(inverse[i] for i in range(self.num_dims)))

    def evaluate(self, dims: Sequence[int], symbols: Sequence[int] = ()) -> tuple[int, ...]:
        """The result values for the given dim and symbol values (floor semantics)."""
        if len(dims) != self.num_dims or len(symbols) != self.num_symbols:
            raise ValueError(
                f"{self} takes {self.num_dims} dims and {self.num_symbols} symbols, "
                f"got {len(dims)} and {len(symbols)}"
            )
        fn = self._fn
        if fn is None:
            fn = _compile("(" + "".join(_py_source(e) + ", " for e in self.results) + ")")
            _set(self, "_fn", fn)
        result: tuple[int, ...] = fn(dims, symbols)
        return result


class IntegerSet(_Uniqued):
    """Uniqued set `(d0, ..)[s0, ..] : (e >= 0, e == 0, ..)`; `==` is identity."""

    __slots__ = ("_fn", "_text", "constraints", "eq_flags", "num_dims", "num_symbols")

    num_dims: int
    num_symbols: int
    constraints: tuple[AffineExpr, ...]
    eq_flags: tuple[bool, ...]
    _text: str | None
    _fn: _Evaluator | None

    def __new__(
        cls,
        num_dims: int,
        num_symbols: int,
        constraints: Iterable[AffineExpr],
        eq_flags: Iterable[bool],
    ) -> IntegerSet:
        if type(constraints) is not tuple:
            constraints = tuple(constraints)
        if type(eq_flags) is not tuple:
            eq_flags = tuple(eq_flags)
        key = (num_dims, num_symbols, constraints, eq_flags)
        s = _SETS.get(key)
        if s is None:
            _check_exprs(constraints, num_dims, num_symbols, "IntegerSet")
            if not constraints:
                raise ValueError("IntegerSet needs at least one constraint")
            if len(eq_flags) != len(constraints):
                raise ValueError("IntegerSet needs one eq flag per constraint")
            if not all(type(f) is bool for f in eq_flags):
                raise TypeError("IntegerSet eq flags must be bools")
            s = object.__new__(IntegerSet)
            _set(s, "num_dims", num_dims)
            _set(s, "num_symbols", num_symbols)
            _set(s, "constraints", constraints)
            _set(s, "eq_flags", eq_flags)
            _set(s, "_text", None)
            _set(s, "_fn", None)
            s = _SETS.setdefault(key, s)
        return s

    def __reduce__(self) -> tuple[object, ...]:
        return (IntegerSet, (self.num_dims, self.num_symbols, self.constraints, self.eq_flags))

    def __str__(self) -> str:
        text = self._text
        if text is None:
            body = ", ".join(
                f"{e} == 0" if eq else f"{e} >= 0"
                for e, eq in zip(self.constraints, self.eq_flags, strict=True)
            )
            text = f"{_ids_text(self.num_dims, self.num_symbols)} : ({body})"
            _set(self, "_text", text)
        return text

    def __repr__(self) -> str:
        return f"affine_set<{self}>"

    def print_attr(self) -> str:
        """The attribute spelling `affine_set<...>`."""
        return f"affine_set<{self}>"

    @staticmethod
    def empty_set(num_dims: int, num_symbols: int) -> IntegerSet:
        """MLIR's canonical empty set `1 == 0`."""
        return IntegerSet(num_dims, num_symbols, (const(1),), (True,))

    def is_empty_set(self) -> bool:
        """True for the canonical empty set `1 == 0`."""
        return self.constraints == (const(1),) and self.eq_flags == (True,)

    @property
    def num_inputs(self) -> int:
        """Dims plus symbols."""
        return self.num_dims + self.num_symbols

    @property
    def num_constraints(self) -> int:
        """Number of constraints."""
        return len(self.constraints)

    @property
    def num_equalities(self) -> int:
        """Number of `== 0` constraints."""
        return sum(self.eq_flags)

    def evaluate(self, dims: Sequence[int], symbols: Sequence[int] = ()) -> bool:
        """True if the point satisfies every constraint."""
        if len(dims) != self.num_dims or len(symbols) != self.num_symbols:
            raise ValueError(
                f"{self} takes {self.num_dims} dims and {self.num_symbols} symbols, "
                f"got {len(dims)} and {len(symbols)}"
            )
        fn = self._fn
        if fn is None:
            fn = _compile(
                " and ".join(
                    f"{_py_source(e)} {'==' if eq else '>='} 0"
                    for e, eq in zip(self.constraints, self.eq_flags, strict=True)
                )
            )
            _set(self, "_fn", fn)
        return bool(fn(dims, symbols))


class AffineParseError(ValueError):
    """Bad affine map/set text; `position` is the absolute character offset of the problem."""

    def __init__(self, message: str, position: int) -> None:
        super().__init__(message, position)
        self.message = message
        self.position = position

    def __str__(self) -> str:
        return self.message


# The parser is in `affine_parser`, which imports this module: the entry points below load it
# on first call, so that neither module needs the other while it is being loaded.
_parser: ModuleType | None = None


def _load_parser() -> ModuleType:
    global _parser
    from mlc.ir import affine_parser

    _parser = affine_parser
    return affine_parser


def parse_affine_map_or_set_at(text: str, pos: int = 0) -> tuple[AffineMap | IntegerSet, int]:
    """Parse a map or set body at `text[pos]`; see `affine_parser.parse_affine_map_or_set_at`."""
    return (_parser or _load_parser()).parse_affine_map_or_set_at(text, pos)


def parse_affine_map_or_set(text: str, offset: int = 0) -> AffineMap | IntegerSet:
    """Parse `text`, the body of `affine_map<...>` or `affine_set<...>`."""
    return (_parser or _load_parser()).parse_affine_map_or_set(text, offset)


def parse_affine_map(text: str, offset: int = 0) -> AffineMap:
    """Parse the body of `affine_map<...>`, e.g. `(d0, d1)[s0] -> (d0 + s0, d1 floordiv 4)`."""
    return (_parser or _load_parser()).parse_affine_map(text, offset)


def parse_integer_set(text: str, offset: int = 0) -> IntegerSet:
    """Parse the body of `affine_set<...>`, e.g. `(d0)[s0] : (d0 - 10 >= 0, s0 - d0 == 0)`."""
    return (_parser or _load_parser()).parse_integer_set(text, offset)


def parse_affine_expr(
    text: str, offset: int = 0, dim_names: Sequence[str] = (), sym_names: Sequence[str] = ()
) -> AffineExpr:
    """Parse one expression whose identifiers are the given dim and symbol names."""
    return (_parser or _load_parser()).parse_affine_expr(text, offset, dim_names, sym_names)


def parse_affine_map_of_ssa_ids(
    text: str, pos: int = 0, delimiter: str = "["
) -> tuple[AffineMap, tuple[str, ...], tuple[str, ...], int]:
    """Parse expressions over SSA names, as in `affine.load %A[%i + 1, symbol(%n)]`."""
    return (_parser or _load_parser()).parse_affine_map_of_ssa_ids(text, pos, delimiter)
