"""Uniqued, immutable types and attributes: the builtin ones, locations, and the base for dialects.

Constructing a type or attribute twice with the same parameters returns the same object, so
equality is identity and hashing is the default (address) hash. Text forms live in `mlc.syntax`.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterable, Sequence
from operator import itemgetter
from typing import Any

import numpy as np

from mlc.ir.affine import AffineMap, IntegerSet

DYNAMIC = -1
"""A dynamic (`?`) dimension in a shape, or a dynamic stride/offset (MLIR's kDynamic)."""


class Uniqued:
    """Base of types and attributes: immutable, interned by (class, parameters).

    A subclass lists its parameters in `__slots__` (in order) and may override `__new__` to
    normalize arguments before calling `Uniqued.__new__(cls, *params)`.
    """

    __slots__ = ()
    _cache: dict[tuple, Any]
    _params: tuple[str, ...] = ()

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        cls._cache = {}
        params: tuple[str, ...] = ()
        for klass in reversed(cls.__mro__):
            params += tuple(s for s in klass.__dict__.get("__slots__", ()) if not s.startswith("_"))
        cls._params = params

    def __new__(cls, *params: Any) -> Any:
        cache = cls._cache
        try:
            return cache[params]
        except KeyError:
            pass
        except TypeError as e:
            raise TypeError(f"{cls.__name__} parameters must be hashable: {e}") from None
        if len(params) != len(cls._params):
            raise TypeError(
                f"{cls.__name__} takes {len(cls._params)} parameters ({', '.join(cls._params)})"
            )
        obj = object.__new__(cls)
        setter = object.__setattr__
        for name, value in zip(cls._params, params):
            setter(obj, name, value)
        obj._init()
        cache[params] = obj
        return obj

    def _init(self) -> None:
        """Hook run once when a new instance is interned (validation, derived slots)."""

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self) -> tuple:
        return (type(self), tuple(getattr(self, p) for p in self._params))

    def __copy__(self) -> Any:
        return self

    def __deepcopy__(self, memo: Any) -> Any:
        return self

    @property
    def parameters(self) -> tuple:
        return tuple(getattr(self, p) for p in self._params)

    def __str__(self) -> str:
        from mlc.syntax.printer import attr_to_str

        return attr_to_str(self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)})"


class Attribute(Uniqued):
    """Base of all attributes (`#...`, literals, dictionaries, locations)."""

    __slots__ = ()
    name: str = ""  # "dialect.mnemonic" for dialect attributes


class Type(Uniqued):
    """Base of all types (`!...` and the builtin type keywords)."""

    __slots__ = ()
    name: str = ""  # "dialect.mnemonic" for dialect types


# ---------------------------------------------------------------------------------------------
# Builtin types

SIGNLESS, SIGNED, UNSIGNED = 0, 1, 2


class IntegerType(Type):
    """`iN` (signless), `siN`, `uiN`."""

    __slots__ = ("width", "signedness")

    def __new__(cls, width: int, signedness: int = SIGNLESS) -> IntegerType:
        return Uniqued.__new__(cls, width, signedness)

    def _init(self) -> None:
        if not 0 <= self.width <= 16777215:
            raise ValueError(f"integer bitwidth {self.width} is out of range [0, 16777215]")

    @property
    def is_signless(self) -> bool:
        return self.signedness == SIGNLESS

    @property
    def is_signed(self) -> bool:
        return self.signedness == SIGNED

    @property
    def is_unsigned(self) -> bool:
        return self.signedness == UNSIGNED

    def value_range(self) -> tuple[int, int]:
        """Smallest and largest value an attribute of this type may hold (signless: either)."""
        w = self.width
        if w == 0:
            return (0, 0)
        if self.signedness == UNSIGNED:
            return (0, (1 << w) - 1)
        if self.signedness == SIGNED:
            return (-(1 << (w - 1)), (1 << (w - 1)) - 1)
        return (-(1 << (w - 1)), (1 << w) - 1)


class IndexType(Type):
    """`index`: a target-sized integer for sizes and subscripts."""

    __slots__ = ()

    def __new__(cls) -> IndexType:
        return Uniqued.__new__(cls)


_FLOAT_WIDTHS = {
    "f16": 16, "bf16": 16, "f32": 32, "f64": 64, "f80": 80, "f128": 128, "tf32": 19,
    "f8E5M2": 8, "f8E4M3": 8, "f8E4M3FN": 8, "f8E5M2FNUZ": 8, "f8E4M3FNUZ": 8,
    "f8E4M3B11FNUZ": 8, "f8E3M4": 8, "f8E8M0FNU": 8, "f6E2M3FN": 6, "f6E3M2FN": 6, "f4E2M1FN": 4,
}  # fmt: skip


class FloatType(Type):
    """A builtin floating-point type by its keyword (`f16`, `bf16`, `f32`, `f64`, ...)."""

    __slots__ = ("kind",)

    def __new__(cls, kind: str) -> FloatType:
        return Uniqued.__new__(cls, kind)

    def _init(self) -> None:
        if self.kind not in _FLOAT_WIDTHS:
            raise ValueError(f"unknown float type '{self.kind}'")

    @property
    def width(self) -> int:
        return _FLOAT_WIDTHS[self.kind]

    @staticmethod
    def kinds() -> Iterable[str]:
        return _FLOAT_WIDTHS.keys()


class ComplexType(Type):
    """`complex<T>` of an integer or float element type."""

    __slots__ = ("element_type",)

    def __new__(cls, element_type: Type) -> ComplexType:
        return Uniqued.__new__(cls, element_type)


class NoneType(Type):
    """`none`."""

    __slots__ = ()

    def __new__(cls) -> NoneType:
        return Uniqued.__new__(cls)


class FunctionType(Type):
    """`(inputs) -> results`."""

    __slots__ = ("inputs", "results")

    def __new__(cls, inputs: Sequence[Type] = (), results: Sequence[Type] = ()) -> FunctionType:
        return Uniqued.__new__(cls, tuple(inputs), tuple(results))


class TupleType(Type):
    """`tuple<T, ...>`."""

    __slots__ = ("types",)

    def __new__(cls, types: Sequence[Type] = ()) -> TupleType:
        return Uniqued.__new__(cls, tuple(types))


class ShapedType(Type):
    """Common base of tensor, memref and vector types (not instantiable itself)."""

    __slots__ = ()
    shape: tuple[int, ...]
    element_type: Type

    @property
    def rank(self) -> int:
        return len(self.shape)

    def has_rank(self) -> bool:
        return True

    def has_static_shape(self) -> bool:
        return DYNAMIC not in self.shape

    def is_dynamic_dim(self, i: int) -> bool:
        return self.shape[i] == DYNAMIC

    def num_dynamic_dims(self) -> int:
        return self.shape.count(DYNAMIC)

    @property
    def num_elements(self) -> int:
        """Element count of a static shape (raises on dynamic dims)."""
        if DYNAMIC in self.shape:
            raise ValueError(f"{self} has dynamic dimensions")
        return math.prod(self.shape)

    def clone_with(
        self, shape: Sequence[int] | None = None, element_type: Type | None = None
    ) -> ShapedType:
        raise NotImplementedError


def _check_shape(shape: tuple[int, ...]) -> None:
    for d in shape:
        if type(d) is not int or d < DYNAMIC:
            raise ValueError(f"invalid dimension {d!r} in shape {shape}")


class RankedTensorType(ShapedType):
    """`tensor<4x?xf32>` with an optional encoding attribute."""

    __slots__ = ("shape", "element_type", "encoding")

    def __new__(
        cls, shape: Sequence[int], element_type: Type, encoding: Attribute | None = None
    ) -> RankedTensorType:
        return Uniqued.__new__(cls, tuple(shape), element_type, encoding)

    def _init(self) -> None:
        _check_shape(self.shape)

    def clone_with(
        self, shape: Sequence[int] | None = None, element_type: Type | None = None
    ) -> RankedTensorType:  # noqa: E501
        return RankedTensorType(
            self.shape if shape is None else shape,
            self.element_type if element_type is None else element_type,
            self.encoding,
        )


class UnrankedTensorType(ShapedType):
    """`tensor<*xf32>`."""

    __slots__ = ("element_type",)

    def __new__(cls, element_type: Type) -> UnrankedTensorType:
        return Uniqued.__new__(cls, element_type)

    def has_rank(self) -> bool:
        return False

    @property
    def shape(self) -> tuple[int, ...]:  # type: ignore[override]
        raise ValueError("unranked tensor has no shape")

    @property
    def rank(self) -> int:
        raise ValueError("unranked tensor has no rank")

    def has_static_shape(self) -> bool:
        return False

    def clone_with(
        self, shape: Sequence[int] | None = None, element_type: Type | None = None
    ) -> ShapedType:  # noqa: E501
        et = self.element_type if element_type is None else element_type
        return UnrankedTensorType(et) if shape is None else RankedTensorType(shape, et)


class MemRefType(ShapedType):
    """`memref<4x?xf32, layout, memory_space>`; layout is None for the identity layout."""

    __slots__ = ("shape", "element_type", "layout", "memory_space")

    def __new__(
        cls,
        shape: Sequence[int],
        element_type: Type,
        layout: Attribute | None = None,
        memory_space: Attribute | None = None,
    ) -> MemRefType:
        if type(layout) is AffineMapAttr and layout.value.is_identity():
            layout = None
        if type(memory_space) is IntegerAttr and memory_space.value == 0:
            memory_space = None  # MLIR drops the default memory space
        return Uniqued.__new__(cls, tuple(shape), element_type, layout, memory_space)

    def _init(self) -> None:
        _check_shape(self.shape)

    def clone_with(
        self, shape: Sequence[int] | None = None, element_type: Type | None = None
    ) -> MemRefType:  # noqa: E501
        return MemRefType(
            self.shape if shape is None else shape,
            self.element_type if element_type is None else element_type,
            self.layout,
            self.memory_space,
        )

    def strides_and_offset(self) -> tuple[tuple[int, ...], int]:
        """Strides and offset of the layout (identity: row-major; DYNAMIC where unknown)."""
        layout = self.layout
        if layout is None:
            strides = []
            acc = 1
            for d in reversed(self.shape):
                strides.append(acc)
                if acc != DYNAMIC:
                    acc = DYNAMIC if d == DYNAMIC else acc * d
            return tuple(reversed(strides)), 0
        if type(layout) is StridedLayoutAttr:
            return layout.strides, layout.offset
        raise ValueError(f"not supported: strides of layout {layout}")


class UnrankedMemRefType(ShapedType):
    """`memref<*xf32, memory_space>`."""

    __slots__ = ("element_type", "memory_space")

    def __new__(
        cls, element_type: Type, memory_space: Attribute | None = None
    ) -> UnrankedMemRefType:
        if type(memory_space) is IntegerAttr and memory_space.value == 0:
            memory_space = None
        return Uniqued.__new__(cls, element_type, memory_space)

    def has_rank(self) -> bool:
        return False

    def has_static_shape(self) -> bool:
        return False


class VectorType(ShapedType):
    """`vector<4x[8]xf32>`; `scalable[i]` marks a scalable dimension."""

    __slots__ = ("shape", "element_type", "scalable")

    def __new__(
        cls, shape: Sequence[int], element_type: Type, scalable: Sequence[bool] | None = None
    ) -> VectorType:
        shape = tuple(shape)
        scal = (False,) * len(shape) if scalable is None else tuple(bool(s) for s in scalable)
        return Uniqued.__new__(cls, shape, element_type, scal)

    def _init(self) -> None:
        if len(self.scalable) != len(self.shape):
            raise ValueError("vector scalable flags must match the rank")
        for d in self.shape:
            if type(d) is not int or d <= 0:
                raise ValueError(f"vector dimensions must be positive, got {self.shape}")

    def clone_with(
        self, shape: Sequence[int] | None = None, element_type: Type | None = None
    ) -> VectorType:  # noqa: E501
        if shape is None:
            return VectorType(self.shape, element_type or self.element_type, self.scalable)
        return VectorType(shape, element_type or self.element_type)


class OpaqueType(Type):
    """A type of an unregistered dialect: `!dialect.body` kept as text."""

    __slots__ = ("dialect", "data")

    def __new__(cls, dialect: str, data: str) -> OpaqueType:
        return Uniqued.__new__(cls, dialect, data)


# Commonly used instances.
i1 = IntegerType(1)
i8 = IntegerType(8)
i16 = IntegerType(16)
i32 = IntegerType(32)
i64 = IntegerType(64)
index = IndexType()
f16 = FloatType("f16")
bf16 = FloatType("bf16")
f32 = FloatType("f32")
f64 = FloatType("f64")
none_type = NoneType()


def is_integer_like(t: Type) -> bool:
    """Integer or index."""
    return type(t) is IntegerType or type(t) is IndexType


def element_type_of(t: Type) -> Type:
    """The element type of a shaped type, else the type itself."""
    return t.element_type if isinstance(t, ShapedType) else t


# ---------------------------------------------------------------------------------------------
# Builtin attributes


class IntegerAttr(Attribute):
    """`42 : i32`, `true`/`false` (i1), index constants."""

    __slots__ = ("value", "type")

    def __new__(cls, value: int, type: Type = i64) -> IntegerAttr:  # noqa: A002
        if type is i1 and value not in (0, 1):
            value = value & 1
        return Uniqued.__new__(cls, int(value), type)


def BoolAttr(value: bool) -> IntegerAttr:  # noqa: N802 - mirrors MLIR's BoolAttr::get
    """`true` / `false`: an i1 IntegerAttr."""
    return IntegerAttr(1 if value else 0, i1)


class FloatAttr(Attribute):
    """`1.0 : f32`; the value is a Python float rounded to the type's precision."""

    __slots__ = ("value", "type", "_bits")

    def __new__(cls, value: float, type: Type = f64) -> FloatAttr:  # noqa: A002
        value = float(value)
        # Key by bit pattern so that -0.0 and 0.0 (and NaN payloads) stay distinct.
        key = (struct.pack("<d", value), type)
        cache = cls._cache
        obj = cache.get(key)
        if obj is None:
            obj = object.__new__(cls)
            object.__setattr__(obj, "value", value)
            object.__setattr__(obj, "type", type)
            object.__setattr__(obj, "_bits", key[0])
            cache[key] = obj
        return obj

    def __reduce__(self) -> tuple:
        return (FloatAttr, (self.value, self.type))


class StringAttr(Attribute):
    """`"text"` (bytes allowed through escapes), with an optional type."""

    __slots__ = ("value", "type")

    def __new__(cls, value: str | bytes, type: Type | None = None) -> StringAttr:  # noqa: A002
        return Uniqued.__new__(cls, value, type)


class UnitAttr(Attribute):
    """`unit`: presence is the information."""

    __slots__ = ()

    def __new__(cls) -> UnitAttr:
        return Uniqued.__new__(cls)


class ArrayAttr(Attribute):
    """`[a, b, ...]`."""

    __slots__ = ("value",)

    def __new__(cls, value: Sequence[Attribute] = ()) -> ArrayAttr:
        return Uniqued.__new__(cls, tuple(value))

    def __iter__(self) -> Any:
        return iter(self.value)

    def __len__(self) -> int:
        return len(self.value)

    def __getitem__(self, i: int) -> Attribute:
        return self.value[i]


class DictionaryAttr(Attribute):
    """`{a = 1, b}`: entries sorted by name, as MLIR keeps them."""

    __slots__ = ("value",)

    def __new__(
        cls, value: dict[str, Attribute] | Sequence[tuple[str, Attribute]] = ()
    ) -> DictionaryAttr:  # noqa: E501
        items = value.items() if isinstance(value, dict) else value
        return Uniqued.__new__(cls, tuple(sorted(items, key=lambda kv: kv[0])))

    def get(self, name: str, default: Any = None) -> Any:
        for k, v in self.value:
            if k == name:
                return v
        return default

    def to_dict(self) -> dict[str, Attribute]:
        return dict(self.value)

    def __len__(self) -> int:
        return len(self.value)


class TypeAttr(Attribute):
    """A type used as an attribute (e.g. `function_type`)."""

    __slots__ = ("value",)

    def __new__(cls, value: Type) -> TypeAttr:
        return Uniqued.__new__(cls, value)


class SymbolRefAttr(Attribute):
    """`@root::@nested::@leaf`; flat when `nested` is empty."""

    __slots__ = ("root", "nested")

    def __new__(cls, root: str, nested: Sequence[str] = ()) -> SymbolRefAttr:
        return Uniqued.__new__(cls, root, tuple(nested))

    @property
    def leaf(self) -> str:
        return self.nested[-1] if self.nested else self.root

    @property
    def is_flat(self) -> bool:
        return not self.nested


def FlatSymbolRefAttr(name: str) -> SymbolRefAttr:  # noqa: N802 - mirrors MLIR's class name
    return SymbolRefAttr(name)


class AffineMapAttr(Attribute):
    """`affine_map<(d0) -> (d0)>`."""

    __slots__ = ("value",)

    def __new__(cls, value: AffineMap) -> AffineMapAttr:
        return Uniqued.__new__(cls, value)


class IntegerSetAttr(Attribute):
    """`affine_set<(d0) : (d0 >= 0)>`."""

    __slots__ = ("value",)

    def __new__(cls, value: IntegerSet) -> IntegerSetAttr:
        return Uniqued.__new__(cls, value)


class StridedLayoutAttr(Attribute):
    """`strided<[s0, 1], offset: ?>` (DYNAMIC for `?`)."""

    __slots__ = ("strides", "offset")

    def __new__(cls, strides: Sequence[int], offset: int = 0) -> StridedLayoutAttr:
        return Uniqued.__new__(cls, tuple(strides), offset)


class DenseArrayAttr(Attribute):
    """`array<i64: 1, 2>`: a 1-D array of integers or floats of one element type."""

    __slots__ = ("element_type", "values")

    def __new__(cls, element_type: Type, values: Sequence[int | float] = ()) -> DenseArrayAttr:
        if type(element_type) is FloatType:
            values = tuple(float(v) for v in values)
        else:
            values = tuple(int(v) for v in values)
        return Uniqued.__new__(cls, element_type, values)

    def __iter__(self) -> Any:
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, i: int) -> int | float:
        return self.values[i]


def numpy_dtype(t: Type) -> np.dtype:
    """The NumPy dtype holding elements of builtin type `t` (raises for unsupported types)."""
    tt = type(t)
    if tt is FloatType:
        dt = _NP_FLOATS.get(t.kind)  # type: ignore[attr-defined]
        if dt is not None:
            return dt
    elif tt is IntegerType:
        w = t.width  # type: ignore[attr-defined]
        if w == 1:
            return np.dtype(np.bool_)
        unsigned = t.signedness == UNSIGNED  # type: ignore[attr-defined]
        for bits in (8, 16, 32, 64):
            if w <= bits:
                return np.dtype(f"{'u' if unsigned else 'i'}{bits // 8}")
    elif tt is IndexType:
        return np.dtype(np.int64)
    elif tt is ComplexType:
        et = t.element_type  # type: ignore[attr-defined]
        if et is f32:
            return np.dtype(np.complex64)
        if et is f64:
            return np.dtype(np.complex128)
    raise ValueError(f"not supported: element type {t} in dense elements")


_NP_FLOATS = {"f16": np.dtype(np.float16), "f32": np.dtype(np.float32), "f64": np.dtype(np.float64)}


class DenseElementsAttr(Attribute):
    """`dense<...> : tensor<2x2xf32>`: a NumPy array (read-only) with a shaped type.

    bf16 and integers narrower than their NumPy container are stored in the container dtype.
    A splat is stored as a 0-d array and expanded on demand.
    """

    __slots__ = ("type", "_array", "_key")

    def __new__(cls, type: ShapedType, value: Any) -> DenseElementsAttr:  # noqa: A002
        et = type.element_type
        if et is bf16:
            dtype = np.dtype(np.float32)
        else:
            dtype = numpy_dtype(et)
        arr = np.ascontiguousarray(np.asarray(value, dtype=dtype))
        if arr.ndim != 0 and arr.size != 0:
            if not type.has_static_shape():
                raise ValueError(f"dense elements need a static shape, got {type}")
            if arr.size != type.num_elements and arr.size != 1:
                raise ValueError(
                    f"dense elements of shape {list(arr.shape)} do not match type {type}"
                )
            # Splat detection by bit pattern, as MLIR does: equal elements are stored once.
            rows = arr.reshape(-1).view(np.uint8).reshape(arr.size, -1)
            if (rows == rows[0]).all():
                arr = arr.reshape(-1)[:1].reshape(())
            else:
                arr = arr.reshape(type.shape)
        key = (type, arr.shape, arr.tobytes())
        cache = cls._cache
        obj = cache.get(key)
        if obj is None:
            arr.flags.writeable = False
            obj = object.__new__(cls)
            object.__setattr__(obj, "type", type)
            object.__setattr__(obj, "_array", arr)
            object.__setattr__(obj, "_key", key)
            cache[key] = obj
        return obj

    @property
    def is_splat(self) -> bool:
        return self._array.ndim == 0

    @property
    def array(self) -> np.ndarray:
        """The full (broadcast, read-only) array of the attribute's shape."""
        arr = self._array
        shape = tuple(self.type.shape)
        if arr.shape != shape:
            return np.broadcast_to(arr, shape)
        return arr

    @property
    def splat_value(self) -> Any:
        return self._array.reshape(-1)[0].item()

    def __reduce__(self) -> tuple:
        return (DenseElementsAttr, (self.type, self._array))


class OpaqueAttr(Attribute):
    """An attribute of an unregistered dialect: `#dialect.body`, kept as text."""

    __slots__ = ("dialect", "data", "type")

    def __new__(cls, dialect: str, data: str, type: Type | None = None) -> OpaqueAttr:  # noqa: A002
        return Uniqued.__new__(cls, dialect, data, type)


# ---------------------------------------------------------------------------------------------
# Locations (attributes in MLIR). FileLineColLoc is not interned: one per parsed op would cost
# more memory in the intern table than in the op; it compares structurally instead.


class Location(Attribute):
    """Base of locations."""

    __slots__ = ()


class UnknownLoc(Location):
    """`loc(unknown)`."""

    __slots__ = ()

    def __new__(cls) -> UnknownLoc:
        return Uniqued.__new__(cls)


class FileLineColLoc(Location, tuple):
    """`loc("file":line:col)`, optionally a range `"file":l1:c1 to l2:c2`. Not interned.

    A tuple underneath (`(filename, line, col)`, plus `end_line, end_col` for a range): the
    parser makes one per op, and a tuple is built in one call where five slot stores through
    `object.__setattr__` cost several times more. Compare with `==`, read the fields by name.
    """

    __slots__ = ()

    def __new__(
        cls,
        filename: str,
        line: int,
        col: int,
        end_line: int | None = None,
        end_col: int | None = None,
    ) -> FileLineColLoc:
        if end_line is None and end_col is None:
            return _tuple_new(cls, (filename, line, col))
        return _tuple_new(cls, (filename, line, col, end_line, end_col))

    filename = property(itemgetter(0), doc="The file name.")
    line = property(itemgetter(1), doc="The 1-based line.")
    col = property(itemgetter(2), doc="The 1-based column.")

    @property
    def end_line(self) -> int | None:
        return self[3] if len(self) > 3 else None

    @property
    def end_col(self) -> int | None:
        return self[4] if len(self) > 3 else None

    def _key(self) -> tuple:
        return (self.filename, self.line, self.col, self.end_line, self.end_col)

    def __eq__(self, other: object) -> bool:
        return type(other) is FileLineColLoc and _tuple_eq(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = tuple.__hash__


FileLineColLoc._params = ("filename", "line", "col", "end_line", "end_col")
_tuple_new = tuple.__new__
_tuple_eq = tuple.__eq__


class NameLoc(Location):
    """`loc("name")` or `loc("name"(child))`."""

    __slots__ = ("loc_name", "child")

    def __new__(cls, name: str, child: Location | None = None) -> NameLoc:
        return Uniqued.__new__(cls, name, child)


class CallSiteLoc(Location):
    """`loc(callsite(callee at caller))`."""

    __slots__ = ("callee", "caller")

    def __new__(cls, callee: Location, caller: Location) -> CallSiteLoc:
        return Uniqued.__new__(cls, callee, caller)


class FusedLoc(Location):
    """`loc(fused[a, b])` or `loc(fused<metadata>[a, b])`."""

    __slots__ = ("locations", "metadata")

    def __new__(cls, locations: Sequence[Location], metadata: Attribute | None = None) -> Any:
        # MLIR's FusedLoc::get: flatten fused children with the same metadata, drop unknown and
        # duplicate locations; none left is unknown, one without metadata is that location.
        locs: dict[Location, None] = {}
        for loc in locations:
            if type(loc) is FusedLoc and loc.metadata is metadata:
                locs.update(dict.fromkeys(loc.locations))
            elif type(loc) is not UnknownLoc:
                locs[loc] = None
        if not locs:
            if metadata is None:
                return UnknownLoc()
            locs[UnknownLoc()] = None
        if len(locs) == 1 and metadata is None:
            return next(iter(locs))
        return Uniqued.__new__(cls, tuple(locs), metadata)


def file_line_col(loc: Location) -> FileLineColLoc | None:
    """The innermost file location of any location (for diagnostics), else None."""
    t = type(loc)
    if t is FileLineColLoc:
        return loc  # type: ignore[return-value]
    if t is NameLoc:
        return file_line_col(loc.child) if loc.child is not None else None  # type: ignore[attr-defined]
    if t is CallSiteLoc:
        return file_line_col(loc.callee)  # type: ignore[attr-defined]
    if t is FusedLoc:
        for sub in loc.locations:  # type: ignore[attr-defined]
            found = file_line_col(sub)
            if found is not None:
                return found
    return None


# ---------------------------------------------------------------------------------------------
# Bases for dialect-defined types and attributes: `!dialect.mnemonic<...>`, `#dialect.mnemonic<...>`


class DialectType(Type):
    """Base of dialect types. A subclass sets `name = "dialect.mnemonic"`, lists its parameters
    in `__slots__`, and overrides `parse_parameters` / `print_parameters` for what follows the
    mnemonic (by default: nothing, a parameterless type)."""

    __slots__ = ()

    @classmethod
    def parse_parameters(cls, parser: Any) -> DialectType:
        """Parse the text after `!dialect.mnemonic` and return the type."""
        return cls()

    def print_parameters(self, printer: Any) -> None:
        """Print the text after `!dialect.mnemonic`."""


class DialectAttr(Attribute):
    """Base of dialect attributes; the same protocol as DialectType (`#dialect.mnemonic...`)."""

    __slots__ = ()

    @classmethod
    def parse_parameters(cls, parser: Any) -> DialectAttr:
        return cls()

    def print_parameters(self, printer: Any) -> None:
        """Print the text after `#dialect.mnemonic`."""
