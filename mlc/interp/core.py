"""The interpreter machinery: handler tables, the value environment, type checks, func ops.

Dialect handlers live in sibling modules (`scalar`, `graph`, `tensor`) as mixin classes whose
methods are marked with `@handles("dialect.op")`; `mlc.interp.Interpreter` composes them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from mlc.ir import attributes as A
from mlc.ir.core import Block, Operation, Value

__all__ = ["InterpreterError", "handles", "BaseInterpreter", "FunctionRef", "FuncHandlers"]

Handler = Callable[..., Any]


class InterpreterError(Exception):
    """An op the interpreter cannot execute, or a run-time fact that contradicts the IR."""


def handles(*names: str) -> Callable[[Handler], Handler]:
    """Mark an interpreter method as the handler of the ops `names`.

    The method is called as `method(op, *operand_values)` and returns the result value (one
    result), a sequence of values (several results) or None (no result).
    """

    def mark(fn: Handler) -> Handler:
        fn._interp_handles = names  # type: ignore[attr-defined]
        return fn

    return mark


def location_text(op: Operation) -> str:
    """`file:line:col` of an op (or its location's text when it has no file position)."""
    loc = op.location
    flc = A.file_line_col(loc)
    if flc is not None:
        return f"{flc.filename}:{flc.line}:{flc.col}"
    if type(loc) is A.UnknownLoc:
        return "unknown location"
    return str(loc)


def unsupported(op: Operation, what: str | None = None) -> InterpreterError:
    """The located "not supported" error for `op` (to raise)."""
    detail = op.name if what is None else f"{op.name} {what}"
    return InterpreterError(f"not supported: {detail} (at {location_text(op)})")


def op_error(op: Operation, message: str) -> InterpreterError:
    """A located run-time error of `op` (to raise)."""
    return InterpreterError(f"'{op.name}' (at {location_text(op)}): {message}")


class FunctionRef:
    """A function value (`func.constant`): the `func.func` op it names."""

    __slots__ = ("func",)

    def __init__(self, func: Operation) -> None:
        self.func = func

    def __repr__(self) -> str:
        return f"FunctionRef(@{self.func.get_attr('sym_name').value})"  # type: ignore[union-attr]


# ---------------------------------------------------------------------------------------------
# Types -> NumPy


class TypeInfo:
    """What a value of an IR type looks like at run time (computed once per type)."""

    __slots__ = ("type", "shaped", "dtype", "shape", "error")

    def __init__(self, t: A.Type) -> None:
        self.type = t
        self.shaped = isinstance(t, A.ShapedType)
        self.dtype: np.dtype | None = None
        self.shape: tuple[int, ...] | None = None
        self.error: str | None = None
        if type(t) is A.FunctionType:
            return
        et = t.element_type if self.shaped else t  # type: ignore[attr-defined]
        try:
            if et is A.bf16:
                raise ValueError
            self.dtype = A.numpy_dtype(et)
        except ValueError:
            self.error = f"element type {et}"
            return
        if self.shaped and type(t) is not A.UnrankedTensorType:
            if type(t) not in (A.RankedTensorType, A.VectorType):
                self.error = f"type {t}"
                return
            self.shape = t.shape  # type: ignore[attr-defined]

    def shape_text(self) -> str:
        dims = ["?" if d == A.DYNAMIC else str(d) for d in self.shape or ()]
        return f"({', '.join(dims)}{',' if len(dims) == 1 else ''})"


_TYPE_INFO: dict[A.Type, TypeInfo] = {}


def type_info(t: A.Type) -> TypeInfo:
    info = _TYPE_INFO.get(t)
    if info is None:
        info = _TYPE_INFO[t] = TypeInfo(t)
    return info


def dtype_of(t: A.Type) -> np.dtype:
    """The NumPy dtype of a scalar type or of a shaped type's elements.

    Raises ValueError for types without one (bf16, ...), which `run_block` locates at the op.
    """
    info = type_info(t)
    if info.dtype is None:
        raise ValueError(f"not supported: {info.error or t}")
    return info.dtype


def _shape_matches(shape: tuple[int, ...], expected: tuple[int, ...]) -> bool:
    if len(shape) != len(expected):
        return False
    for d, e in zip(shape, expected):
        if e != A.DYNAMIC and d != e:
            return False
    return True


def _describe(v: Any) -> str:
    if isinstance(v, np.ndarray):
        return f"{v.dtype} array of shape {v.shape}"
    if isinstance(v, np.generic):
        return f"{v.dtype} scalar"
    return f"{type(v).__name__} {v!r}"


# ---------------------------------------------------------------------------------------------
# The base interpreter


class BaseInterpreter:
    """Executes functions of a module on NumPy values, one handler per op name.

    Handlers come from methods marked `@handles(...)` anywhere in the class's MRO (a subclass
    overriding a method by its Python name overrides the handler) and from `register`.
    """

    max_call_depth = 200
    """Nested `func.call`s allowed before a run is stopped (IR has no other way to end recursion
    without a branch op, so deeper nesting is almost surely unbounded)."""

    _registered: dict[str, Handler] = {}
    _version = 0  # bumped by every `register`, so cached tables are rebuilt
    _table_cache: tuple[int, dict[str, tuple[str, Any]]] | None = None

    def __init__(self, module: Operation) -> None:
        self.module = module
        self.env: dict[Value, Any] = {}
        # > 0 while a region body runs vectorized: scalar-typed values are then arrays.
        self.lanes = 0
        self.depth = 0
        self._symbols: dict[int, dict[str, Operation]] = {}
        table: dict[str, Handler] = {}
        for name, (kind, target) in type(self)._handler_specs().items():
            if kind == "method":
                table[name] = getattr(self, target)
            else:
                table[name] = functools.partial(target, self)
        self._table = table

    # -- handler tables ---------------------------------------------------------------------------

    @classmethod
    def _handler_specs(cls) -> dict[str, tuple[str, Any]]:
        cached = cls.__dict__.get("_table_cache")
        if cached is not None and cached[0] == BaseInterpreter._version:
            return cached[1]
        specs: dict[str, tuple[str, Any]] = {}
        for klass in reversed(cls.__mro__):
            for attr_name, attr in klass.__dict__.items():
                for name in getattr(attr, "_interp_handles", ()):
                    specs[name] = ("method", attr_name)
            for name, fn in klass.__dict__.get("_registered", {}).items():
                specs[name] = ("function", fn)
        cls._table_cache = (BaseInterpreter._version, specs)
        return specs

    @classmethod
    def register(cls, name: str, fn: Handler) -> None:
        """Handle op `name` with `fn(interpreter, op, *operand_values)` in this class and below.

        >>> from mlc.interp import Interpreter
        >>> class MyInterpreter(Interpreter): ...
        >>> MyInterpreter.register("mydialect.twice", lambda interp, op, x: x * 2)
        >>> "mydialect.twice" in MyInterpreter.handled_ops()
        True
        """
        if "_registered" not in cls.__dict__:
            cls._registered = {}
        cls._registered[name] = fn
        BaseInterpreter._version += 1

    @classmethod
    def handled_ops(cls) -> frozenset[str]:
        """The names of all ops this interpreter class executes."""
        return frozenset(cls._handler_specs())

    # -- running ----------------------------------------------------------------------------------

    def lookup_function(self, name: str, near: Operation | None = None) -> Operation:
        """The `func.func` named `name` in the symbol table enclosing `near` (or the module)."""
        table_op: Operation | None = near.parent_op if near is not None else self.module
        while table_op is not None and not table_op._has_symbol_table:
            table_op = table_op.parent_op
        if table_op is None:
            table_op = self.module
        symbols = self._symbols.get(id(table_op))
        if symbols is None:
            symbols = {}
            for block in table_op.regions[0].blocks:
                for op in block:
                    sym = op.get_attr("sym_name")
                    if sym is not None and op.name == "func.func":
                        symbols[sym.value] = op  # type: ignore[attr-defined]
            self._symbols[id(table_op)] = symbols
        func = symbols.get(name)
        if func is None:
            where = f" (at {location_text(near)})" if near is not None else ""
            raise InterpreterError(f"no function named @{name}{where}")
        return func

    def call(self, func: Operation, args: Sequence[Any]) -> list[Any]:
        """Run a `func.func` on already-checked argument values; its returned values."""
        body = func.regions[0]
        if not body.blocks:
            name = func.get_attr("sym_name").value  # type: ignore[union-attr]
            raise unsupported(func, f"call to the external function @{name}")
        if len(body.blocks) != 1:
            raise unsupported(func, "with several blocks")
        if self.depth >= self.max_call_depth:
            name = func.get_attr("sym_name").value  # type: ignore[union-attr]
            raise InterpreterError(
                f"call depth above {self.max_call_depth} (unbounded recursion?) calling @{name}"
            )
        saved = self.env
        self.env = {}
        self.depth += 1
        try:
            return self.run_block(body.blocks[0], args, ("func.return",))
        finally:
            self.env = saved
            self.depth -= 1

    def run_block(
        self, block: Block, args: Sequence[Any], terminators: tuple[str, ...]
    ) -> list[Any]:
        """Execute `block` with its arguments bound to `args`; the terminator's operand values.

        The block must end in one of the `terminators` (op names).
        """
        env = self.env
        for arg, value in zip(block.arguments, args):
            env[arg] = value
        table = self._table
        last = block.last
        op = block.first
        while op is not last:
            handler = table.get(op.name)
            if handler is None:
                raise unsupported(op)
            try:
                out = handler(op, *[env[u.value] for u in op._operands])
            except (ValueError, IndexError) as e:
                # Kernels report cases the semantics leave undefined (a dynamic dim that does
                # not broadcast, an empty max) as ValueError: locate them at the op.
                raise op_error(op, str(e)) from None
            self.bind_results(op, out)
            op = op.next
        if last is None or last.name not in terminators:
            raise unsupported(
                block.parent_op or last,  # type: ignore[arg-type]
                f"block not ending in {' or '.join(terminators)}",
            )
        return [env[u.value] for u in last._operands]

    def bind_results(self, op: Operation, out: Any) -> None:
        """Check handler output against the op's result types and bind it in the environment."""
        results = op.results
        n = len(results)
        if n == 1:
            self.env[results[0]] = self.check_value(op, results[0].type, out, 0)
            return
        if n == 0:
            if out is not None:
                raise op_error(op, "handler returned a value for an op without results")
            return
        if not isinstance(out, (tuple, list)) or len(out) != n:
            raise op_error(op, f"handler did not return {n} results")
        for i, (r, v) in enumerate(zip(results, out)):
            self.env[r] = self.check_value(op, r.type, v, i)

    def check_value(self, op: Operation, t: A.Type, v: Any, index: int) -> Any:
        """`v` normalized (0-d arrays vs scalars) if it is a value of type `t`, else an error."""
        info = type_info(t)
        dtype = info.dtype
        if dtype is None:
            if type(t) is A.FunctionType and type(v) is FunctionRef:
                return v
            raise unsupported(op, f"result of {info.error or t}")
        if info.shaped:
            if type(v) is not np.ndarray:
                if isinstance(v, np.generic):
                    v = np.asarray(v)
                else:
                    raise self._mismatch(op, t, v, index)
            if v.dtype != dtype:
                raise self._mismatch(op, t, v, index)
            shape = info.shape
            if shape is not None and not _shape_matches(v.shape, shape):
                raise self._mismatch(op, t, v, index)
            return v
        if type(v) is np.ndarray:
            if v.dtype != dtype:
                raise self._mismatch(op, t, v, index)
            if v.ndim == 0:
                return v[()]
            if self.lanes:
                return v
            raise self._mismatch(op, t, v, index)
        if not isinstance(v, np.generic) or v.dtype != dtype:
            raise self._mismatch(op, t, v, index)
        return v

    @staticmethod
    def _mismatch(op: Operation, t: A.Type, v: Any, index: int) -> InterpreterError:
        return op_error(op, f"result {index} is a {_describe(v)}, expected a value of type {t}")

    def run_function(self, name: str, args: Sequence[Any]) -> tuple[Any, ...]:
        """Check `args` against the signature of function `name`, run it, return its results."""
        func = self.lookup_function(name)
        ftype = func.get_attr("function_type").value  # type: ignore[union-attr]
        inputs = ftype.inputs
        if len(args) != len(inputs):
            raise TypeError(f"@{name} takes {len(inputs)} arguments, got {len(args)}")
        checked = [check_argument(i, t, a) for i, (t, a) in enumerate(zip(inputs, args))]
        try:
            with np.errstate(all="ignore"):
                results = self.call(func, checked)
        except RecursionError:
            raise InterpreterError(
                f"Python recursion limit reached running @{name} (nesting too deep)"
            ) from None
        return tuple(_fresh(r) for r in results)


def check_argument(i: int, t: A.Type, a: Any) -> Any:
    """Argument `i` of type `t` as the interpreter holds it (a read-only view for arrays)."""
    info = type_info(t)
    what = f"argument {i} (%arg{i})"
    if info.dtype is None:
        raise TypeError(f"{what}: not supported: {info.error or t}")
    dtype = info.dtype
    if info.shaped:
        if isinstance(a, np.generic) and info.shape == ():
            a = np.asarray(a)  # a NumPy scalar stands for a rank-0 tensor
        if not isinstance(a, np.ndarray):
            raise TypeError(f"{what}: expected a NumPy array ({t}), got {type(a).__name__}")
        if a.dtype != dtype:
            raise TypeError(f"{what}: expected dtype {dtype} ({t}), got {a.dtype}")
        shape = info.shape
        if shape is not None:
            if a.ndim != len(shape):
                raise ValueError(f"{what}: expected rank {len(shape)} ({t}), got rank {a.ndim}")
            if not _shape_matches(a.shape, shape):
                raise ValueError(
                    f"{what}: expected shape {info.shape_text()} ({t}), got {tuple(a.shape)}"
                )
        view = a.view(np.ndarray)  # subclasses (matrix, masked) would change the semantics
        view.flags.writeable = False
        return view
    if isinstance(a, np.ndarray) and a.ndim == 0:
        a = a[()]
    if isinstance(a, np.generic):
        if a.dtype != dtype:
            raise TypeError(f"{what}: expected dtype {dtype} ({t}), got {a.dtype}")
        return a
    kind = dtype.kind
    if kind == "b" and type(a) is bool:
        return np.bool_(a)
    if kind in "iu" and type(a) is int:
        lo, hi = np.iinfo(dtype).min, np.iinfo(dtype).max
        if t is not A.index and type(t) is A.IntegerType:
            lo, hi = t.value_range()  # type: ignore[attr-defined]
        if not lo <= a <= hi:
            raise ValueError(f"{what}: {a} does not fit in {t}")
        return dtype.type(a)
    if kind == "f" and type(a) in (int, float):
        return dtype.type(a)
    raise TypeError(f"{what}: expected a {t} scalar, got {type(a).__name__}")


def _fresh(v: Any) -> Any:
    """A result the caller owns: views (of inputs, of other values) and constants are copied."""
    if type(v) is np.ndarray and (not v.flags.writeable or v.base is not None):
        return np.array(v, order="C")
    return v


# ---------------------------------------------------------------------------------------------
# func


class FuncHandlers:
    """func.call, func.call_indirect, func.constant (func.func and func.return drive `call`)."""

    @handles("func.call")
    def _call(self, op: Operation, *args: Any) -> Any:
        callee = self.lookup_function(op.get_attr("callee").root, op)  # type: ignore
        return self._results_of(op, self.call(callee, args))  # type: ignore[attr-defined]

    @handles("func.call_indirect")
    def _call_indirect(self, op: Operation, fn: Any, *args: Any) -> Any:
        return self._results_of(op, self.call(fn.func, args))  # type: ignore[attr-defined]

    @handles("func.constant")
    def _func_constant(self, op: Operation) -> FunctionRef:
        return FunctionRef(self.lookup_function(op.get_attr("value").root, op))  # type: ignore

    @staticmethod
    def _results_of(op: Operation, values: list[Any]) -> Any:
        n = len(op.results)
        if n == 1:
            return values[0]
        return values if n else None
