"""The Python side of an entry call: a function generated once per entry that checks the arguments
against the `Signature`, binds dynamic dims, allocates the outputs (from the process-wide
`result_pool`) or checks the caller's `out=` arrays, packs the arguments into 8-byte slots and
calls the native wrapper through ctypes (which releases the GIL).
"""

from __future__ import annotations

import ctypes
import math
import operator
import os
import struct
import sys
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from mlc.runtime import parallel
from mlc.runtime.engine import ARRAY_DATA_OFFSET, ARRAY_DIMS_OFFSET
from mlc.runtime.pool import default_pool, page_aligned
from mlc.runtime.signature import ArgSpec, DimExpr, InputDim, Signature

__all__ = [
    "ARRAY_STRUCT_OK",
    "CallerTemplate",
    "aligned_empty",
    "caller_template",
    "make_caller",
    "result_pool",
    "tune_malloc",
]

_ALIGN_MIN = 1 << 16  # below this, the aligned path costs more than it gains (bench)
_WRAPPER_TYPE = ctypes.CFUNCTYPE(None, ctypes.c_char_p)


def _array_struct_ok() -> bool:
    """Whether ndarray objects have NumPy's documented struct layout (data pointer at +16,
    dimensions pointer at +32, strides right after the dimensions), which the fast wrappers read;
    checked on live arrays. Only CPython's `id()` is an address; only 64-bit layouts match."""
    if sys.implementation.name != "cpython" or sys.maxsize < 2**63 - 1:
        return False
    base = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    for a in (base, base[1:, 2:], np.zeros((7,), np.int8)[3:], np.zeros((), np.float64)):
        data = ctypes.c_void_p.from_address(id(a) + ARRAY_DATA_OFFSET).value
        if data != a.ctypes.data:
            return False
        if a.ndim:
            dims = ctypes.c_void_p.from_address(id(a) + ARRAY_DIMS_OFFSET).value
            strides = ctypes.c_void_p.from_address(id(a) + ARRAY_DIMS_OFFSET + 8).value
            if dims is None or strides != dims + 8 * a.ndim:  # NumPy allocates them together
                return False
            if list((ctypes.c_int64 * (2 * a.ndim)).from_address(dims)) != [*a.shape, *a.strides]:
                return False
    return True


ARRAY_STRUCT_OK = _array_struct_ok()


_pointer_at = ctypes.c_void_p.from_address


def _data_address(a: np.ndarray) -> int:
    if ARRAY_STRUCT_OK:  # ~10x cheaper than a.ctypes.data
        return _pointer_at(id(a) + ARRAY_DATA_OFFSET).value or 0
    return a.ctypes.data


def aligned_empty(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """`np.empty(shape, dtype)`, starting on a page boundary when it is 64 KiB or more (see
    `mlc.runtime.pool.page_aligned`)."""
    nbytes = math.prod(shape) * dtype.itemsize
    if nbytes < _ALIGN_MIN:
        return np.empty(shape, dtype)
    buf, addr = page_aligned(nbytes)
    return np.ndarray(shape, dtype, buf, addr - _data_address(buf))  # its base keeps buf alive


# Process-wide, so that a buffer one module's result gave back serves the next module's result
# (chains of compiled functions) and one cap bounds the memory held for reuse.
result_pool = default_pool(aligned_empty)


# glibc's mallopt parameters, and the values tune_malloc sets: the ceiling glibc's own dynamic
# mmap threshold reaches on 64-bit hosts, and twice that for trimming (glibc's dynamic rule).
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
MMAP_THRESHOLD = 32 << 20
TRIM_THRESHOLD = 64 << 20
_malloc_tuned: bool | None = None


def tune_malloc() -> bool:
    """Make glibc's malloc keep freed heap memory for the next call (once per process; called
    when the first entry is bound; `MLC_TUNE_MALLOC=0` leaves malloc alone). True if set.

    Compiled code mallocs its scratch buffers (packed matmul panels: megabytes) on every call
    and frees them before returning. With glibc's dynamic thresholds, a call that frees more
    than twice the largest block ever returned to the OS trims the heap top at every call, and
    the next call faults every page back in: 512 x 512 x 512 at 2 threads took 992 page faults
    and 2-3 ms of kernel time per call (2x its compute). These are the values the dynamic
    thresholds reach by themselves after a 32 MiB block is freed once.
    """
    global _malloc_tuned
    if _malloc_tuned is not None:
        return _malloc_tuned
    _malloc_tuned = False
    if os.environ.get("MLC_TUNE_MALLOC", "1").strip() == "0" or not sys.platform.startswith(
        "linux"
    ):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    ok = mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1
    ok = ok and mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1
    _malloc_tuned = ok
    return ok


# ---------------------------------------------------------------------------------------------
# Errors at the call boundary (the slow path: only reached when an argument is wrong)


# Python for each DimExpr operator (affine semantics on ints: floor division, non-negative mod).
_EXPR_CODE = {
    "add": "({} + {})",
    "mul": "({} * {})",
    "floordiv": "({} // {})",
    "ceildiv": "(-(-{} // {}))",
    "mod": "({} % {})",
}


def _shape_text(shape: tuple[int, ...]) -> str:
    return f"({shape[0]},)" if len(shape) == 1 else f"({', '.join(map(str, shape))})"


class _Errors:
    """Raises the TypeError/ValueError for a bad argument, naming it and what was expected."""

    def __init__(self, name: str, sig: Signature) -> None:
        self.name = name
        self.sig = sig

    def _arg(self, k: int) -> str:
        return f"{self.name}(): argument '{self.sig.inputs[k].name}' (#{k + 1})"

    def _want(self, a: ArgSpec) -> str:
        return f"a C-contiguous numpy.ndarray of {a.np_dtype} with shape {a.shape_text()}"

    def count(self, args: tuple[Any, ...]) -> None:
        n = len(self.sig.inputs)
        raise TypeError(
            f"{self.name}() takes {n} argument{'s' if n != 1 else ''} "
            f"({', '.join(a.name for a in self.sig.inputs)}), got {len(args)}: "
            f"{self.sig.text(self.name)}"
        )

    def not_array(self, k: int, v: Any) -> np.ndarray:
        """An ndarray subclass as a plain ndarray view (checked and passed by its real shape and
        dtype, whatever the subclass reports); raise for anything else."""
        a = self.sig.inputs[k]
        if not isinstance(v, np.ndarray):
            raise TypeError(f"{self._arg(k)} must be {self._want(a)}, got {type(v).__name__}")
        if isinstance(v, np.ma.MaskedArray):  # the kernel would silently ignore the mask
            raise TypeError(
                f"{self._arg(k)} must be {self._want(a)}, got a masked array (pass x.filled(...))"
            )
        return v.view(np.ndarray)

    def dtype(self, k: int, v: np.ndarray) -> None:
        a = self.sig.inputs[k]
        raise TypeError(
            f"{self._arg(k)} must have dtype {a.np_dtype} ({a.type_text()}), got {v.dtype} "
            "(no implicit conversion: pass x.astype(...))"
        )

    def rank(self, k: int, v: np.ndarray) -> None:
        a = self.sig.inputs[k]
        raise ValueError(
            f"{self._arg(k)} must have rank {a.rank} (shape {a.shape_text()}), got rank "
            f"{v.ndim} with shape {_shape_text(v.shape)}"
        )

    def dim(self, k: int, v: np.ndarray, i: int) -> None:
        a = self.sig.inputs[k]
        assert a.shape is not None
        raise ValueError(
            f"{self._arg(k)} dim {i} must be {a.shape[i]} (shape {a.shape_text()}), got shape "
            f"{_shape_text(v.shape)}"
        )

    def layout(self, k: int, v: np.ndarray) -> None:
        if not v.flags.c_contiguous:
            raise ValueError(
                f"{self._arg(k)} must be C-contiguous, got strides {v.strides} for shape "
                f"{_shape_text(v.shape)} (pass np.ascontiguousarray(...))"
            )
        raise ValueError(
            f"{self._arg(k)} must be aligned to its element size ({v.dtype.alignment} bytes), "
            f"got an array at an unaligned address (pass a copy: np.array(...))"
        )

    def same(self, k: int, i: int, k0: int, i0: int, args: tuple[Any, ...], why: str) -> None:
        ref = self.sig.inputs[k0].name
        raise ValueError(
            f"{self._arg(k)} dim {i} must equal dim {i0} of argument '{ref}' ({why}): got "
            f"{args[k].shape[i]} and {args[k0].shape[i0]}"
        )

    def dim_check(self, k: int, i: int, kind: str, value: int, args: tuple[Any, ...]) -> None:
        want = f"at least {value}" if kind == "min" else f"a multiple of {value}"
        why = "the compiled code reads that far" if kind == "min" else "a reshape keeps the size"
        raise ValueError(
            f"{self._arg(k)} dim {i} must be {want} ({why}), got shape {_shape_text(args[k].shape)}"
        )

    def negative(self, j: int, i: int, size: int, args: tuple[Any, ...]) -> None:
        a = self.sig.outputs[j]
        shapes = ", ".join(
            f"{spec.name}={_shape_text(v.shape)}"
            for spec, v in zip(self.sig.inputs, args)
            if spec.shape is not None
        )
        raise ValueError(
            f"{self.name}(): result '{a.name}' dim {i} = {a.shape_text()[1:-1].split(', ')[i]} "
            f"would be {size} for the input shapes {shapes}"
        )

    def scalar(self, k: int, v: Any) -> Any:
        """`v` converted for scalar argument k (int, float or 0/1), or raise."""
        a = self.sig.inputs[k]
        t = a.dtype
        if t[0] == "f":
            bad = isinstance(v, bool | np.bool_ | np.complexfloating)
            if bad or not isinstance(v, int | float | np.number):
                what = v.dtype if isinstance(v, np.generic) else type(v).__name__
                raise TypeError(f"{self._arg(k)} must be a real number ({t}), got {what}")
            try:
                return float(v)
            except OverflowError:
                raise ValueError(f"{self._arg(k)} = {v} is out of range for {t}") from None
        if t == "i1":
            if not isinstance(v, bool | np.bool_ | int | np.integer) or v not in (0, 1):
                raise TypeError(f"{self._arg(k)} must be a bool (i1), got {v!r}")
            return 1 if v else 0
        try:
            iv = operator.index(v)
        except TypeError:
            raise TypeError(
                f"{self._arg(k)} must be an integer ({t}), got {type(v).__name__}"
            ) from None
        lo, hi = _int_range(t)
        if not lo <= iv <= hi:
            raise ValueError(f"{self._arg(k)} = {iv} is out of range for {t} [{lo}, {hi}]")
        return iv


class _Outputs:
    """Checks the `out=` argument of a call: one writeable C-contiguous array per result, of the
    result's dtype and exact shape, sharing no memory with an array input or another output
    (the kernel marks its pointers `noalias`); an element None is allocated as usual. Returns
    the arrays to pass, then the value the call returns."""

    def __init__(self, name: str, sig: Signature, array_inputs: list[int]) -> None:
        self.name = name
        self.sig = sig
        self.array_inputs = array_inputs  # positions of the memref inputs passed as `inputs`
        self.dtypes = tuple(a.np_dtype for a in sig.outputs)

    def __call__(
        self, out: Any, shapes: tuple[tuple[int, ...], ...], inputs: tuple[np.ndarray, ...]
    ) -> list[Any]:
        # Fast path: plain ndarrays that pass every check. Anything else, including every error,
        # takes the general path, which checks again in order and says what is wrong.
        items = (out,) if type(out) is np.ndarray else out
        if type(items) is not tuple or len(items) != len(shapes):
            return self.general(out, shapes, inputs)
        # Arrays that own their data (NumPy allocated it for each) are disjoint unless they are
        # the same array: then no address is needed (reading one costs ~0.3 us).
        owned = True
        for v in inputs:
            if not v.flags.owndata:
                owned = False
                break
        for v, shape, dtype in zip(items, shapes, self.dtypes, strict=True):
            if type(v) is not np.ndarray or v.dtype != dtype or v.shape != shape:
                return self.general(out, shapes, inputs)
            f = v.flags
            if not (f.c_contiguous and f.aligned and f.writeable):
                return self.general(out, shapes, inputs)
            if owned and not f.owndata:
                owned = False
        if owned:
            seen = [*inputs]
            for v in items:
                for u in seen:  # `is`, not `in`: `in` would fall back to the arrays' `==`
                    if u is v:
                        return self.general(out, shapes, inputs)
                seen.append(v)
            if len(items) == 1:
                return [items[0], items[0]]
            return [*items, out if items else None]
        spans = []
        for v in inputs:
            nbytes = v.nbytes
            if nbytes:
                start = _data_address(v)
                spans.append((start, start + nbytes))
        for v in items:
            nbytes = v.nbytes
            if nbytes:
                start = _data_address(v)
                end = start + nbytes
                for lo, hi in spans:  # contiguous spans: bounds overlap is memory overlap
                    if start < hi and lo < end:
                        return self.general(out, shapes, inputs)
                spans.append((start, end))
        if len(items) == 1:
            return [items[0], items[0]]
        return [*items, out if items else None]

    def _arg(self, j: int) -> str:
        res = self.sig.outputs[j].name
        where = "out" if len(self.sig.outputs) == 1 else f"out[{j}]"
        return f"{self.name}(): {where} (result '{res}')"

    def _items(self, out: Any) -> tuple[Any, ...]:
        n = len(self.sig.outputs)
        names = ", ".join(a.name for a in self.sig.outputs)
        if isinstance(out, np.ndarray) and n == 1:
            return (out,)
        if isinstance(out, tuple | list) and len(out) == n:
            return tuple(out)
        if isinstance(out, tuple | list):
            got = f"a {type(out).__name__} of {len(out)}"
        else:
            got = type(out).__name__
        want = "None or ()" if n == 0 else f"a tuple of {n} arrays ({names})"
        if n == 1:
            want = f"an array or a tuple of 1 array ({names})"
        raise TypeError(
            f"{self.name}() has {n} result{'s' if n != 1 else ''}: out= must be {want}, got {got}"
        )

    def _check(self, j: int, v: Any, shape: tuple[int, ...]) -> np.ndarray:
        a = self.sig.outputs[j]
        want = (
            f"a writeable C-contiguous numpy.ndarray of {a.np_dtype} with shape "
            f"{_shape_text(shape)}"
        )
        if not isinstance(v, np.ndarray):
            raise TypeError(f"{self._arg(j)} must be {want}, got {type(v).__name__}")
        if isinstance(v, np.ma.MaskedArray):  # the kernel would write around the mask
            raise TypeError(f"{self._arg(j)} must be {want}, got a masked array")
        v = v.view(np.ndarray)
        if v.dtype != a.np_dtype:
            raise TypeError(
                f"{self._arg(j)} must have dtype {a.np_dtype} ({a.type_text()}), got {v.dtype}"
            )
        if v.shape != shape:
            raise ValueError(
                f"{self._arg(j)} must have shape {_shape_text(shape)} (the result's shape for "
                f"these inputs), got {_shape_text(v.shape)}"
            )
        if not v.flags.c_contiguous:
            raise ValueError(
                f"{self._arg(j)} must be C-contiguous, got strides {v.strides} for shape "
                f"{_shape_text(v.shape)}"
            )
        if not v.flags.aligned:
            raise ValueError(
                f"{self._arg(j)} must be aligned to its element size ({v.dtype.alignment} bytes)"
            )
        if not v.flags.writeable:
            raise ValueError(f"{self._arg(j)} must be writeable, got a read-only array")
        return v

    def general(
        self, out: Any, shapes: tuple[tuple[int, ...], ...], inputs: tuple[np.ndarray, ...]
    ) -> list[Any]:
        items = self._items(out)
        passed: list[np.ndarray] = []
        spans: list[tuple[int, int, str]] = []  # [start, end) of every array that is not empty
        for pos, v in zip(self.array_inputs, inputs, strict=True):
            if v.nbytes:
                start = _data_address(v)
                what = f"argument '{self.sig.inputs[pos].name}' (#{pos + 1})"
                spans.append((start, start + v.nbytes, what))
        given = []
        for j, (v, shape) in enumerate(zip(items, shapes, strict=True)):
            if v is None:
                passed.append(result_pool.empty(shape, self.sig.outputs[j].np_dtype))
                continue
            p = self._check(j, v, shape)
            passed.append(p)
            given.append(j)
            if not p.nbytes:
                continue
            start = _data_address(p)
            end = start + p.nbytes
            for lo, hi, what in spans:  # contiguous spans: bounds overlap is memory overlap
                if start < hi and lo < end:
                    raise ValueError(
                        f"{self._arg(j)} shares memory with {what}: outputs must not overlap "
                        "the inputs or each other"
                    )
            where = "out" if len(items) == 1 else f"out[{j}]"
            spans.append((start, end, where))
        results = [passed[j] if items[j] is None else items[j] for j in range(len(items))]
        if len(results) == 1:
            ret: Any = results[0]
        else:
            ret = tuple(results) if results else None
        return [*passed, ret]


def _int_range(t: str) -> tuple[int, int]:
    bits = 64 if t == "index" else int(t.lstrip("ui"))
    if t.startswith("ui"):
        return 0, (1 << bits) - 1
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


def _raise_pending() -> None:
    e = parallel.take_pending()
    if e is None:
        return
    err, fatal = e
    if fatal:
        if isinstance(err, Exception):
            raise RuntimeError(f"parallel loop failed: {err!r}") from err
        raise err
    warnings.warn(f"parallel loop ran serially: {err!r}", RuntimeWarning, stacklevel=3)


# ---------------------------------------------------------------------------------------------
# The generated caller


class CallerTemplate:
    """The compiled Python code of one entry's caller and the globals it needs, made once per
    engine and entry; `make_caller` binds it to a thread count and the engine."""

    __slots__ = ("code", "doc", "env", "name", "source")

    def __init__(self, name: str, sig: Signature, source: str, env: dict[str, Any]) -> None:
        self.name = name
        self.doc = f"JIT-compiled entry {sig.text(name)}."
        self.source = source
        self.env = env
        self.code = compile(source, f"<mlc.runtime entry {name}>", "exec")


def make_caller(
    template: CallerTemplate, wrapper_address: int, *, threads: int, keepalive: Any
) -> Callable[..., Any]:
    """The Python function that validates, allocates, packs and calls the template's entry."""
    tune_malloc()
    env = dict(template.env)
    env["_call"] = _WRAPPER_TYPE(wrapper_address)
    env["_threads"] = threads
    env["_keepalive"] = keepalive  # the engine owning the code must outlive this function
    exec(template.code, env)
    fn = env.pop("call")  # no function <-> globals cycle: the engine is freed by refcount
    name = template.name
    fn.__name__ = fn.__qualname__ = name if name.isidentifier() else "entry"
    fn.__doc__ = template.doc
    fn.__mlc_source__ = template.source
    return fn


def caller_template(
    name: str, sig: Signature, *, uses_parallel: bool, from_objects: bool
) -> CallerTemplate:
    """Generate the caller of entry `name`: checks, output allocation, packing, the call."""
    env: dict[str, Any] = {
        "_ndarray": np.ndarray,
        "_empty": np.empty,
        "_alloc": aligned_empty,
        "_err": _Errors(name, sig),
        "_new": result_pool.empty,
        "_out": _Outputs(name, sig, [k for k, a in enumerate(sig.inputs) if a.shape is not None]),
        "_tls": parallel._TLS,
        "_raise_pending": _raise_pending,
    }
    n = len(sig.inputs)
    params = [f"a{k}" for k in range(n)]
    lines = ["def call(*args, out=None):", f"    if len(args) != {n}: _err.count(args)"]
    emit = lines.append
    if n:
        emit(f"    {', '.join(params)}{',' if n == 1 else ''} = args")
    dim_var: dict[tuple[int, int], str] = {}
    for k, a in enumerate(sig.inputs):
        v = f"a{k}"
        if a.shape is None:
            conv = _scalar_check(a)
            if conv:
                emit(f"    if {conv.format(v=v)}: {v} = _err.scalar({k}, {v})")
            continue
        env[f"_dt{k}"] = a.np_dtype
        emit(f"    if type({v}) is not _ndarray: {v} = _err.not_array({k}, {v})")
        emit(f"    if {v}.dtype is not _dt{k} and {v}.dtype != _dt{k}: _err.dtype({k}, {v})")
        emit(f"    s{k} = {v}.shape")
        emit(f"    if len(s{k}) != {a.rank}: _err.rank({k}, {v})")
        if a.rank:
            names = [f"s{k}_{i}" for i in range(a.rank)]
            emit(f"    {', '.join(names)}{',' if a.rank == 1 else ''} = s{k}")
            for i, d in enumerate(a.shape):
                dim_var[(k, i)] = names[i]
                if isinstance(d, int):
                    emit(f"    if {names[i]} != {d}: _err.dim({k}, {v}, {i})")
        emit(f"    f{k} = {v}.flags")
        emit(f"    if not (f{k}.c_contiguous and f{k}.aligned): _err.layout({k}, {v})")
    # Dims that must agree across inputs: shared symbols and references.
    first: dict[str, tuple[int, int]] = {}
    for k, a in enumerate(sig.inputs):
        for i, d in enumerate(a.shape or ()):
            if isinstance(d, str):
                if d in first:
                    k0, i0 = first[d]
                    why = f"symbol '{d}'"
                    emit(f"    if s{k}_{i} != s{k0}_{i0}: _err.same({k}, {i}, {k0}, {i0}, args, ")
                    lines[-1] += f"{why!r})"
                else:
                    first[d] = (k, i)
            elif isinstance(d, InputDim):
                k0, i0 = int(d.arg), d.dim
                emit(f"    if s{k}_{i} != s{k0}_{i0}: _err.same({k}, {i}, {k0}, {i0}, args, ")
                lines[-1] += "'declared equal')"

    for k, i, kind, value in sig.dim_checks:
        if isinstance(sig.inputs[k].shape[i], int):  # type: ignore[index]
            continue  # static: its exact size is checked above
        test = f"s{k}_{i} < {value}" if kind == "min" else f"s{k}_{i} % {value}"
        emit(f"    if {test}: _err.dim_check({k}, {i}, {kind!r}, {value}, args)")

    # Output dims computed from input dims (e.g. a concat's sum), checked non-negative.
    def dim_code(d: Any) -> str:
        if isinstance(d, int):
            return str(d)
        if isinstance(d, str):
            return dim_var[first[d]]
        if isinstance(d, InputDim):
            return dim_var[(int(d.arg), d.dim)]
        assert isinstance(d, DimExpr)
        lhs, rhs = dim_code(d.lhs), dim_code(d.rhs)
        return _EXPR_CODE[d.op].format(lhs, rhs)

    out_dims: list[list[str]] = []
    for j, a in enumerate(sig.outputs):
        assert a.shape is not None
        dims = []
        for i, d in enumerate(a.shape):
            if isinstance(d, DimExpr):
                emit(f"    e{j}_{i} = {dim_code(d)}")
                emit(f"    if e{j}_{i} < 0: _err.negative({j}, {i}, e{j}_{i}, args)")
                dims.append(f"e{j}_{i}")
            else:
                dims.append(dim_code(d))
        out_dims.append(dims)
    outs, shapes = [], []
    emit("    if out is None:")
    for j, a in enumerate(sig.outputs):
        assert a.shape is not None
        dims = out_dims[j]
        shape = f"({', '.join(dims)}{',' if len(dims) == 1 else ''})"
        env[f"_odt{j}"] = a.np_dtype
        small = all(isinstance(d, int) for d in a.shape) and (
            math.prod(a.shape) * a.np_dtype.itemsize < _ALIGN_MIN
        )
        # The pool decides for the others (it serves min_bytes and up, else aligned_empty).
        emit(f"        o{j} = {'_empty' if small else '_new'}({shape}, _odt{j})")
        outs.append(f"o{j}")
        shapes.append(shape)
    if not outs:
        emit("        pass")
    arrays = [f"a{k}" for k, a in enumerate(sig.inputs) if a.shape is not None]
    if len(outs) == 1:
        # One result and `out=` one plain ndarray: `_Outputs`' fast path written out here, on
        # the input flags already read (an 8x8 matmul with `out=`: 3.2 -> 1.65 us, 1.6-1.9
        # without `out=`). Anything else takes `_out`, which says what is wrong. Arrays that
        # own their data are disjoint unless they are the same array.
        cond = f"type(out) is _ndarray and out.dtype is _odt0 and out.shape == {shapes[0]}"
        emit(f"    elif {cond}:")
        emit("        fo = out.flags")
        inputs = [k for k in range(n) if sig.inputs[k].shape is not None]
        owned = " and ".join(["fo.owndata", *(f"f{k}.owndata and a{k} is not out" for k in inputs)])
        emit("        if fo.c_contiguous and fo.aligned and fo.writeable and " + owned + ":")
        emit("            o0 = _r = out")
        emit("        else:")
        ins = f"({', '.join(arrays)}{',' if len(arrays) == 1 else ''})"
        emit(f"            o0, _r = _out(out, ({shapes[0]},), {ins})")
    emit("    else:")
    emit(
        f"        {', '.join([*outs, '_r'])}{'' if outs else ','} = _out(out, ({', '.join(shapes)}"
    )
    lines[-1] += f"{',' if len(shapes) == 1 else ''}), ({', '.join(arrays)}"
    lines[-1] += f"{',' if len(arrays) == 1 else ''}))"
    fmt, values = "<", []
    for k, a in enumerate(sig.args):
        v = f"a{k}" if k < n else f"o{k - n}"
        if a.shape is None:
            fmt += "d" if a.dtype[0] == "f" else ("Q" if a.dtype == "ui64" else "q")
            values.append(v)
        elif from_objects:
            fmt += "Q"
            values.append(f"id({v})")
        else:
            fmt += "Q" + "q" * a.rank
            values.append(f"{v}.ctypes.data")
            values += [f"{v}.shape[{i}]" for i in range(a.rank)]
    env["_pack"] = struct.Struct(fmt).pack
    if uses_parallel:
        emit("    _tls.threads = _threads")
    emit(f"    _call(_pack({', '.join(values)}))")
    if uses_parallel:
        emit("    if _tls.pending is not None: _raise_pending()")
    emit("    if out is not None: return _r")
    if len(outs) == 1:
        emit(f"    return {outs[0]}")
    elif outs:
        emit(f"    return ({', '.join(outs)})")
    return CallerTemplate(name, sig, "\n".join(lines) + "\n", env)


def _scalar_check(a: ArgSpec) -> str:
    """A condition on `{v}` that sends a scalar argument to the slow check/convert path."""
    t = a.dtype
    if t[0] == "f":
        return "type({v}) is not float"
    if t == "i1":
        return "type({v}) is not bool"
    lo, hi = _int_range(t)
    return f"type({{v}}) is not int or not {lo} <= {{v}} <= {hi}"
