"""Entry-function signatures for the JIT: `ArgSpec` (a memref or a scalar), `Signature` (inputs and
destination-passing outputs), and how each argument is laid out in the expanded-descriptor ABI.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, NamedTuple

import numpy as np

__all__ = ["ArgSpec", "DimExpr", "InputDim", "Signature", "SignatureError", "element_type_name"]


class SignatureError(ValueError):
    """A `Signature` that the runtime cannot call: a bad dtype or dim, or an output dim that no
    input determines."""


class InputDim(NamedTuple):
    """An output (or input) dim equal to dim `dim` of input `arg` (an index or an input's name).

    `("in", arg, dim)` tuples are accepted wherever an `InputDim` is.
    """

    arg: int | str
    dim: int


class DimExpr(NamedTuple):
    """An output dim computed from input dims: `lhs <op> rhs`, as an affine map computes it.

    `op` is "add", "mul", "floordiv", "ceildiv" or "mod"; operands are ints, symbols, `InputDim`s
    or `DimExpr`s. The divisions and `mod` need a positive constant `rhs` (floor and ceiling
    division and a non-negative remainder, as in affine maps); `mul` needs a constant on one
    side. A dim that comes out negative at call time is a `ValueError` naming the output.

        DimExpr("add", InputDim("a", 0), InputDim("b", 0))      # concat of a and b along dim 0
        DimExpr("add", DimExpr("floordiv", InputDim(0, 2), 2), 1)
    """

    op: str
    lhs: Any
    rhs: Any

    def leaves(self) -> list[Any]:
        out = []
        for side in (self.lhs, self.rhs):
            out += side.leaves() if isinstance(side, DimExpr) else [side]
        return out

    def text(self) -> str:
        sym = _EXPR_TEXT[self.op]
        return f"({_dim_text(self.lhs)} {sym} {_dim_text(self.rhs)})"


_EXPR_TEXT = {"add": "+", "mul": "*", "floordiv": "floordiv", "ceildiv": "ceildiv", "mod": "mod"}


# Element types: MLIR spelling -> (NumPy dtype, LLVM scalar type). `index` is i64 on the host.
_ELEMENT_TYPES: dict[str, tuple[np.dtype, str]] = {
    "i1": (np.dtype(np.bool_), "i1"),
    "i8": (np.dtype(np.int8), "i8"),
    "i16": (np.dtype(np.int16), "i16"),
    "i32": (np.dtype(np.int32), "i32"),
    "i64": (np.dtype(np.int64), "i64"),
    "index": (np.dtype(np.int64), "i64"),
    "ui8": (np.dtype(np.uint8), "i8"),
    "ui16": (np.dtype(np.uint16), "i16"),
    "ui32": (np.dtype(np.uint32), "i32"),
    "ui64": (np.dtype(np.uint64), "i64"),
    "f16": (np.dtype(np.float16), "half"),
    "f32": (np.dtype(np.float32), "float"),
    "f64": (np.dtype(np.float64), "double"),
}
# NumPy dtype -> MLIR spelling, for dtypes given as NumPy objects (native byte order only).
_FROM_NUMPY: dict[np.dtype, str] = {}
for _name, (_dt, _llvm) in _ELEMENT_TYPES.items():
    _FROM_NUMPY.setdefault(_dt, _name)


def element_type_name(dtype: Any) -> str:
    """The MLIR element type name ("f32", "i64", ...) for an MLIR name or a NumPy dtype-like."""
    if isinstance(dtype, str) and dtype in _ELEMENT_TYPES:
        return dtype
    try:
        dt = np.dtype(dtype)
    except TypeError as e:
        raise SignatureError(f"element type not supported: {dtype!r}") from e
    name = _FROM_NUMPY.get(dt)
    if name is None:
        supported = ", ".join(_ELEMENT_TYPES)
        raise SignatureError(f"element type not supported: {dt} (supported: {supported})")
    return name


Dim = int | None | str | InputDim | DimExpr


def _dim_text(dim: Any) -> str:
    if dim is None:
        return "?"
    if isinstance(dim, DimExpr):
        return dim.text()
    if isinstance(dim, InputDim):
        return f"#{dim.arg}[{dim.dim}]" if isinstance(dim.arg, int) else f"{dim.arg}[{dim.dim}]"
    return str(dim)


@dataclass(frozen=True)
class ArgSpec:
    """One argument of an entry function: a memref (`shape` is a tuple) or a scalar (`shape=None`).

    `dtype` is an MLIR element type name (`"f32"`, `"i64"`, `"index"`, `"i1"`, ...) or a NumPy
    dtype. Each dim of `shape` is an `int` (static), `None` (dynamic, inputs only), a `str` symbol
    (all dims with the same symbol must agree at call time; an output's symbol must appear in an
    input) or an `InputDim(arg, dim)` / `("in", arg, dim)` (equal to that dim of that input).

        ArgSpec("x", "f32", (None, 4))     # memref<?x4xf32>
        ArgSpec("alpha", "f64")            # f64 scalar
    """

    name: str
    dtype: str
    shape: tuple[Dim, ...] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "dtype", element_type_name(self.dtype))
        if not isinstance(self.name, str) or not self.name:
            raise SignatureError(f"argument name must be a non-empty string, got {self.name!r}")
        if self.shape is None:
            return
        if isinstance(self.shape, int | str) or not hasattr(self.shape, "__iter__"):
            raise SignatureError(f"argument '{self.name}': shape must be a tuple or None")
        dims: list[Dim] = []
        for i, d in enumerate(self.shape):
            if isinstance(d, DimExpr):
                d = _check_expr(d, f"argument '{self.name}' dim {i}")
            elif isinstance(d, tuple) and not isinstance(d, InputDim):
                if len(d) == 3 and d[0] == "in":
                    d = InputDim(d[1], d[2])
                else:
                    raise SignatureError(
                        f"argument '{self.name}' dim {i}: expected ('in', arg, dim), got {d!r}"
                    )
            if isinstance(d, bool) or not (
                d is None or isinstance(d, int | str | InputDim | DimExpr)
            ):
                raise SignatureError(f"argument '{self.name}' dim {i}: bad dim {d!r}")
            if isinstance(d, int) and d < 0:
                raise SignatureError(f"argument '{self.name}' dim {i}: negative size {d}")
            if isinstance(d, str) and not d:
                raise SignatureError(f"argument '{self.name}' dim {i}: empty symbol name")
            dims.append(d)
        object.__setattr__(self, "shape", tuple(dims))

    @property
    def is_memref(self) -> bool:
        return self.shape is not None

    @property
    def rank(self) -> int:
        return len(self.shape) if self.shape is not None else 0

    @property
    def np_dtype(self) -> np.dtype:
        return _ELEMENT_TYPES[self.dtype][0]

    @property
    def llvm_type(self) -> str:
        """The LLVM type of the scalar, or of one memref element."""
        return _ELEMENT_TYPES[self.dtype][1]

    def llvm_params(self) -> list[str]:
        """The LLVM parameter types this argument expands to (the ABI)."""
        if self.shape is None:
            return [self.llvm_type]
        return ["ptr", "ptr", "i64"] + ["i64"] * (2 * len(self.shape))

    def param_roles(self) -> list[str]:
        """What each expanded parameter is, for error messages."""
        if self.shape is None:
            return [f"scalar '{self.name}'"]
        r = range(len(self.shape))
        return (
            [f"allocated pointer of '{self.name}'", f"aligned pointer of '{self.name}'"]
            + [f"offset of '{self.name}'"]
            + [f"size[{i}] of '{self.name}'" for i in r]
            + [f"stride[{i}] of '{self.name}'" for i in r]
        )

    def type_text(self) -> str:
        """The MLIR type: `memref<?x4xf32>` (every non-static dim is `?`) or the scalar type."""
        if self.shape is None:
            return self.dtype
        dims = "".join((str(d) if isinstance(d, int) else "?") + "x" for d in self.shape)
        return f"memref<{dims}{self.dtype}>"

    def shape_text(self) -> str:
        """`(n, 4)`: symbols by name, `?` for free dynamic dims, `x[0]` for input references."""
        assert self.shape is not None
        inner = ", ".join(_dim_text(d) for d in self.shape)
        return f"({inner},)" if len(self.shape) == 1 else f"({inner})"


def _as_specs(args: Any, kind: str) -> tuple[ArgSpec, ...]:
    specs = []
    for i, a in enumerate(args):
        if isinstance(a, ArgSpec):
            specs.append(a)
        elif isinstance(a, tuple) and 2 <= len(a) <= 3:
            specs.append(ArgSpec(*a))
        else:
            raise SignatureError(f"{kind} {i}: expected an ArgSpec or (name, dtype[, shape])")
    return tuple(specs)


@dataclass(frozen=True)
class Signature:
    """The signature of an entry function `void @f(<inputs>, <outputs>)`.

    Inputs are memrefs or scalars; outputs are memrefs the runtime allocates (destination-passing
    style), so every output dim must be static, a symbol bound by an input, or an `InputDim`.

        Signature(
            inputs=[ArgSpec("x", "f32", ("n", 4)), ArgSpec("w", "f32", (4, 8))],
            outputs=[ArgSpec("y", "f32", ("n", 8))],
        )
    """

    inputs: tuple[ArgSpec, ...] = ()
    outputs: tuple[ArgSpec, ...] = ()
    # (input index, dim, kind, value): conditions on dynamic input dims that the call checks,
    # kind "min" (at least value: a slice reads up to its limit) or "multiple" (a multiple of
    # value: a reshape must keep the element count).
    dim_checks: tuple[tuple[int, int, str, int], ...] = ()

    def __post_init__(self) -> None:
        inputs = _as_specs(self.inputs, "input")
        outputs = _as_specs(self.outputs, "output")
        checks = tuple(tuple(c) for c in self.dim_checks)
        for c in checks:
            ok = len(c) == 4 and type(c[0]) is type(c[1]) is type(c[3]) is int
            ok = ok and c[2] in ("min", "multiple") and 0 <= c[0] < len(inputs)
            if ok:
                shape = inputs[c[0]].shape
                ok = shape is not None and 0 <= c[1] < len(shape)
                ok = ok and (c[3] >= 0 if c[2] == "min" else c[3] >= 1)
            if not ok:
                raise SignatureError(
                    f"dim_checks entry {c!r}: expected (input, dim, 'min' or 'multiple', value)"
                )
        object.__setattr__(self, "dim_checks", checks)
        object.__setattr__(self, "inputs", inputs)
        object.__setattr__(self, "outputs", outputs)
        seen: set[str] = set()
        for a in inputs + outputs:
            if a.name in seen:
                raise SignatureError(f"duplicate argument name '{a.name}'")
            seen.add(a.name)
        index = {a.name: i for i, a in enumerate(inputs)}
        bound: set[str] = set()
        for a in inputs:
            for d in a.shape or ():
                if isinstance(d, str):
                    bound.add(d)
        # Resolve InputDim references to input indices on copies (ArgSpecs may be shared).
        resolved = []
        for k, a in enumerate(inputs + outputs):
            if a.shape is None:
                resolved.append(a)
                continue
            dims = list(a.shape)
            for i, d in enumerate(dims):
                if isinstance(d, InputDim):
                    dims[i] = _resolve_ref(a, i, d, inputs, index)
                elif isinstance(d, DimExpr):
                    if k < len(inputs):
                        raise SignatureError(
                            f"input '{a.name}' dim {i}: computed dims are for outputs only"
                        )
                    dims[i] = _resolve_expr(a, i, d, inputs, index, bound)
            shape = tuple(dims)
            resolved.append(a if shape == a.shape else replace(a, shape=shape))
        inputs, outputs = tuple(resolved[: len(inputs)]), tuple(resolved[len(inputs) :])
        object.__setattr__(self, "inputs", inputs)
        object.__setattr__(self, "outputs", outputs)
        for a in outputs:
            if a.shape is None:
                raise SignatureError(
                    f"output '{a.name}' is a scalar: results are memrefs (use shape=() for a "
                    "rank-0 memref)"
                )
            for i, d in enumerate(a.shape):
                if d is None:
                    raise SignatureError(
                        f"output '{a.name}' dim {i} cannot be determined: it is dynamic ('?'); "
                        "give a symbol shared with an input dim or InputDim(arg, dim)"
                    )
                if isinstance(d, str) and d not in bound:
                    raise SignatureError(
                        f"output '{a.name}' dim {i} cannot be determined: symbol '{d}' is not a "
                        "dim of any input"
                    )

    @property
    def args(self) -> tuple[ArgSpec, ...]:
        return self.inputs + self.outputs

    def llvm_params(self) -> list[str]:
        return [t for a in self.args for t in a.llvm_params()]

    def text(self, name: str = "f") -> str:
        """`f(x: memref<?x4xf32> (n, 4), alpha: f32) -> (y: memref<?x4xf32> (n, 4))`."""

        def one(a: ArgSpec) -> str:
            if a.shape is None or all(isinstance(d, int) for d in a.shape):
                return f"{a.name}: {a.type_text()}"
            return f"{a.name}: {a.type_text()} {a.shape_text()}"

        ins = ", ".join(map(one, self.inputs))
        outs = ", ".join(map(one, self.outputs))
        return f"{name}({ins}) -> ({outs})"


def _resolve_ref(
    a: ArgSpec,
    i: int,
    d: InputDim,
    inputs: tuple[ArgSpec, ...],
    index: dict[str, int],
) -> Dim:
    """The InputDim `d` (dim `i` of `a`, or a leaf of it) with an integer input index, checked;
    a reference to a static dim is that size."""
    arg = d.arg
    if isinstance(arg, str):
        if arg not in index:
            raise SignatureError(f"argument '{a.name}' dim {i}: no input named '{arg}'")
        arg = index[arg]
    if isinstance(arg, bool) or not isinstance(arg, int) or not 0 <= arg < len(inputs):
        raise SignatureError(f"argument '{a.name}' dim {i}: input index {arg!r} out of range")
    ref = inputs[arg]
    if ref.name == a.name:
        raise SignatureError(f"argument '{a.name}' dim {i}: refers to itself")
    if ref.shape is None or not (isinstance(d.dim, int) and 0 <= d.dim < len(ref.shape)):
        raise SignatureError(
            f"argument '{a.name}' dim {i}: input '{ref.name}' ({ref.type_text()}) "
            f"has no dim {d.dim}"
        )
    target = ref.shape[d.dim]
    if isinstance(target, InputDim | DimExpr):
        raise SignatureError(
            f"argument '{a.name}' dim {i}: refers to '{ref.name}' dim {d.dim}, itself a reference"
        )
    return target if isinstance(target, int) else InputDim(arg, d.dim)


def _check_expr(e: DimExpr, where: str) -> DimExpr:
    """`e` with `("in", arg, dim)` leaves made InputDims; a malformed expression raises."""
    if e.op not in _EXPR_TEXT:
        ops = ", ".join(_EXPR_TEXT)
        raise SignatureError(f"{where}: unknown dim expression operator {e.op!r} (one of {ops})")
    sides = []
    for side in (e.lhs, e.rhs):
        if isinstance(side, DimExpr):
            side = _check_expr(side, where)
        elif isinstance(side, tuple) and not isinstance(side, InputDim):
            if len(side) != 3 or side[0] != "in":
                raise SignatureError(f"{where}: expected ('in', arg, dim), got {side!r}")
            side = InputDim(side[1], side[2])
        elif isinstance(side, bool) or not isinstance(side, int | str | InputDim):
            raise SignatureError(f"{where}: bad operand {side!r} of a dim expression")
        sides.append(side)
    lhs, rhs = sides
    if e.op in ("floordiv", "ceildiv", "mod") and not (isinstance(rhs, int) and rhs > 0):
        raise SignatureError(f"{where}: '{e.op}' needs a positive constant divisor, got {rhs!r}")
    if e.op == "mul" and not (isinstance(lhs, int) or isinstance(rhs, int)):
        raise SignatureError(f"{where}: 'mul' needs a constant operand (dims are affine)")
    return DimExpr(e.op, lhs, rhs)


def eval_dim_expr(op: str, lhs: int, rhs: int) -> int:
    """The value of `lhs <op> rhs` on integers (affine semantics)."""
    if op == "add":
        return lhs + rhs
    if op == "mul":
        return lhs * rhs
    if op == "floordiv":
        return lhs // rhs
    if op == "ceildiv":
        return -(-lhs // rhs)
    return lhs % rhs


def _resolve_expr(
    a: ArgSpec,
    i: int,
    e: DimExpr,
    inputs: tuple[ArgSpec, ...],
    index: dict[str, int],
    bound: set[str],
) -> Dim:
    """`e` with InputDim leaves resolved and checked, folded to an int when it is constant."""
    sides: list[Any] = []
    for side in (e.lhs, e.rhs):
        if isinstance(side, DimExpr):
            side = _resolve_expr(a, i, side, inputs, index, bound)
        elif isinstance(side, InputDim):
            side = _resolve_ref(a, i, side, inputs, index)
        elif isinstance(side, str) and side not in bound:
            raise SignatureError(
                f"output '{a.name}' dim {i} cannot be determined: symbol '{side}' is not a dim "
                "of any input"
            )
        sides.append(side)
    lhs, rhs = sides
    if isinstance(lhs, int) and isinstance(rhs, int):
        return eval_dim_expr(e.op, lhs, rhs)
    return DimExpr(e.op, lhs, rhs)
