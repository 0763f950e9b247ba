"""Declarative op definitions: operands, results, properties, regions, successors, traits.

    class AddIOp(Op):
        '''Integer addition.'''
        name = "arith.addi"
        traits = (Pure, Commutative, SameOperandsAndResultType)
        lhs = operand(SignlessIntegerLike)
        rhs = operand(SignlessIntegerLike)
        res = result(SignlessIntegerLike)
        format = "$lhs `,` $rhs attr-dict `:` type($res)"

All definition work (accessors, the structural verifier, the assembly format) is done once,
when the class is created; per-op work is plain slot access.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mlc.ir import attributes as A
from mlc.ir.core import Block, Operation, Region, Value

# ---------------------------------------------------------------------------------------------
# Constraints


class Constraint:
    """A predicate on a type or attribute with a description for diagnostics."""

    __slots__ = ("check", "description")

    def __init__(self, check: Callable[[Any], bool], description: str) -> None:
        self.check = check
        self.description = description

    def __or__(self, other: Constraint) -> Constraint:
        a, b = self.check, other.check
        return Constraint(lambda x: a(x) or b(x), f"{self.description} or {other.description}")

    def __repr__(self) -> str:
        return f"<Constraint {self.description}>"


def type_is(*classes: type, description: str | None = None) -> Constraint:
    """A type (or attribute) of one of these classes."""
    cls_set = frozenset(classes)
    desc = description or " or ".join(c.__name__ for c in classes)
    return Constraint(lambda t: type(t) in cls_set, desc)


def exactly(*values: Any, description: str | None = None) -> Constraint:
    vs = frozenset(values)
    return Constraint(lambda t: t in vs, description or " or ".join(str(v) for v in values))


def _is_signless_int(t: Any) -> bool:
    return type(t) is A.IntegerType and t.signedness == A.SIGNLESS


def _is_float(t: Any) -> bool:
    return type(t) is A.FloatType


def _is_index(t: Any) -> bool:
    return type(t) is A.IndexType


def _like(pred: Callable[[Any], bool]) -> Callable[[Any], bool]:
    """Lift a scalar predicate to scalars, vectors and tensors of such scalars (MLIR's *Like)."""

    def check(t: Any) -> bool:
        tt = type(t)
        if tt is A.VectorType or tt is A.RankedTensorType or tt is A.UnrankedTensorType:
            return pred(t.element_type)
        return pred(t)

    return check


AnyType = Constraint(lambda t: isinstance(t, A.Type), "any type")
AnyAttr = Constraint(lambda a: isinstance(a, A.Attribute), "any attribute")
Index = Constraint(_is_index, "index")
AnyInteger = Constraint(lambda t: type(t) is A.IntegerType, "integer")
AnySignlessInteger = Constraint(_is_signless_int, "signless integer")
AnyFloat = Constraint(_is_float, "floating-point")
SignlessIntegerOrIndex = Constraint(
    lambda t: _is_signless_int(t) or _is_index(t), "signless integer or index"
)
SignlessIntegerLike = Constraint(
    _like(lambda t: _is_signless_int(t) or _is_index(t)),
    "signless-integer-like (integer, index, or vector/tensor of them)",
)
FloatLike = Constraint(_like(_is_float), "floating-point-like (float, or vector/tensor of floats)")
BoolLike = Constraint(
    _like(lambda t: type(t) is A.IntegerType and t.width == 1 and t.signedness == A.SIGNLESS),
    "bool-like (i1, or vector/tensor of i1)",
)
AnyRankedTensor = type_is(A.RankedTensorType, description="ranked tensor")
AnyTensor = type_is(A.RankedTensorType, A.UnrankedTensorType, description="tensor")
AnyMemRef = type_is(A.MemRefType, A.UnrankedMemRefType, description="memref")
AnyVector = type_is(A.VectorType, description="vector")

# Attribute constraints.
IntegerAttrC = type_is(A.IntegerAttr, description="integer attribute")
FloatAttrC = type_is(A.FloatAttr, description="float attribute")
StrAttr = type_is(A.StringAttr, description="string attribute")
UnitAttrC = type_is(A.UnitAttr, description="unit attribute")
ArrayAttrC = type_is(A.ArrayAttr, description="array attribute")
DictAttrC = type_is(A.DictionaryAttr, description="dictionary attribute")
SymbolRefAttrC = type_is(A.SymbolRefAttr, description="symbol reference attribute")
FlatSymbolRefAttrC = Constraint(
    lambda a: type(a) is A.SymbolRefAttr and not a.nested, "flat symbol reference attribute"
)
AffineMapAttrC = type_is(A.AffineMapAttr, description="AffineMap attribute")
IntegerSetAttrC = type_is(A.IntegerSetAttr, description="integer set attribute")
TypeAttrC = type_is(A.TypeAttr, description="type attribute")
DenseElementsAttrC = type_is(A.DenseElementsAttr, description="dense elements attribute")
TypedAttr = Constraint(lambda a: getattr(a, "type", None) is not None, "typed attribute")


def dense_array_of(element_type: A.Type, description: str) -> Constraint:
    return Constraint(
        lambda a: type(a) is A.DenseArrayAttr and a.element_type is element_type, description
    )


DenseI32ArrayAttr = dense_array_of(A.i32, "i32 dense array attribute")
DenseI64ArrayAttr = dense_array_of(A.i64, "i64 dense array attribute")
DenseBoolArrayAttr = dense_array_of(A.i1, "i1 dense array attribute")


def type_attr_of(cls: type, description: str) -> Constraint:
    return Constraint(lambda a: type(a) is A.TypeAttr and type(a.value) is cls, description)


def int_attr_of(t: A.Type) -> Constraint:
    return Constraint(lambda a: type(a) is A.IntegerAttr and a.type is t, f"{t} integer attribute")


# ---------------------------------------------------------------------------------------------
# Definition entries (placed in the class body, replaced by accessors at class creation)

SINGLE, VARIADIC, OPTIONAL = 0, 1, 2


class _Def:
    __slots__ = ("constraint", "arity", "default", "attr_name")
    kind = ""

    def __init__(self, constraint: Constraint | None, arity: int, default: Any = None) -> None:
        self.constraint = constraint
        self.arity = arity
        self.default = default
        self.attr_name = ""


class OperandDef(_Def):
    __slots__ = ()
    kind = "operand"


class ResultDef(_Def):
    __slots__ = ()
    kind = "result"


class PropDef(_Def):
    __slots__ = ()
    kind = "property"


class RegionDef(_Def):
    __slots__ = ()
    kind = "region"


class SuccessorDef(_Def):
    __slots__ = ()
    kind = "successor"


def operand(c: Constraint = AnyType) -> Any:
    return OperandDef(c, SINGLE)


def var_operand(c: Constraint = AnyType) -> Any:
    return OperandDef(c, VARIADIC)


def opt_operand(c: Constraint = AnyType) -> Any:
    return OperandDef(c, OPTIONAL)


def result(c: Constraint = AnyType) -> Any:
    return ResultDef(c, SINGLE)


def var_result(c: Constraint = AnyType) -> Any:
    return ResultDef(c, VARIADIC)


def opt_result(c: Constraint = AnyType) -> Any:
    return ResultDef(c, OPTIONAL)


def prop(c: Constraint = AnyAttr, default: A.Attribute | None = None) -> Any:
    """A required inherent attribute; with `default`, a missing one reads as the default."""
    return PropDef(c, SINGLE if default is None else OPTIONAL, default)


def opt_prop(c: Constraint = AnyAttr) -> Any:
    """An optional inherent attribute (absent reads as None)."""
    return PropDef(c, OPTIONAL)


def region() -> Any:
    return RegionDef(None, SINGLE)


def var_region() -> Any:
    return RegionDef(None, VARIADIC)


def successor() -> Any:
    return SuccessorDef(None, SINGLE)


def var_successor() -> Any:
    return SuccessorDef(None, VARIADIC)


# ---------------------------------------------------------------------------------------------
# Traits and interfaces


class Trait:
    """A property of an op class; `verify(op)` may raise VerifyError."""

    @staticmethod
    def verify(op: Operation) -> None:
        pass


class Pure(Trait):
    """No side effects and speculatable."""


class ConstantLike(Trait):
    """Materializes a constant attribute (folds to its `value`)."""


class Terminator(Trait):
    """Must be the last op of its block."""


class ReturnLike(Trait):
    """Returns control to the parent op (func.return, graph.yield ...)."""


class NoTerminator(Trait):
    """Its single-block regions need no terminator (builtin.module)."""


class IsolatedFromAbove(Trait):
    """Its regions may not use values defined outside the op."""


class SymbolTable(Trait):
    """Defines a symbol scope; nested symbols must have unique names."""


class Symbol(Trait):
    """Defines a symbol through its `sym_name` attribute (optional `sym_visibility`)."""


class AffineScope(Trait):
    """Starts a new affine symbol scope (func.func, builtin.module)."""


class GraphRegions(Trait):
    """Its regions are graph regions: no dominance requirement (MLIR's RegionKind::Graph)."""


class RecursiveMemoryEffects(Trait):
    """Its effects are those of the ops in its regions."""


class Commutative(Trait):
    """Operands may be reordered (canonical form puts constants last)."""


class Idempotent(Trait):
    """f(f(x)) = f(x)."""


class Involution(Trait):
    """f(f(x)) = x."""


class Elementwise(Trait):
    """Applies elementwise over vectors/tensors."""


class SingleBlock(Trait):
    """Each region has at most one block."""

    @staticmethod
    def verify(op: Operation) -> None:
        for i, r in enumerate(op.regions):
            if len(r.blocks) > 1:
                raise op.error(f"expects region #{i} to have 0 or 1 blocks")


def _types_of(values: Sequence[Value]) -> list[A.Type]:
    return [v.type for v in values]


class SameOperandsAndResultType(Trait):
    """All operands and results have one type."""

    @staticmethod
    def verify(op: Operation) -> None:
        # Plain loops: this runs for most arithmetic ops, so no comprehensions or generators.
        first = None
        for u in op._operands:
            t = u.value.type
            if first is None:
                first = t
            elif t is not first:
                raise op.error("requires the same type for all operands and results")
        for r in op.results:
            if first is None:
                first = r.type
            elif r.type is not first:
                raise op.error("requires the same type for all operands and results")


class SameTypeOperands(Trait):
    """All operands have one type."""

    @staticmethod
    def verify(op: Operation) -> None:
        first = None
        for u in op._operands:
            t = u.value.type
            if first is None:
                first = t
            elif t is not first:
                raise op.error("requires all operands to have the same type")


def _shape_of(t: A.Type) -> tuple[int, ...] | None:
    tt = type(t)
    if tt is A.VectorType or tt is A.RankedTensorType or tt is A.MemRefType:
        return t.shape  # type: ignore[attr-defined]
    if tt is A.UnrankedTensorType or tt is A.UnrankedMemRefType:
        return None
    return ()


class SameOperandsAndResultShape(Trait):
    """Operands and results share a shape (scalars: all scalars; `?` is compatible)."""

    @staticmethod
    def verify(op: Operation) -> None:
        shapes = [_shape_of(u.value.type) for u in op._operands] + [
            _shape_of(r.type) for r in op.results
        ]
        ranked = [s for s in shapes if s is not None]
        if not ranked:
            return
        first = ranked[0]
        for s in ranked[1:]:
            if len(s) != len(first) or any(
                a != b and a != A.DYNAMIC and b != A.DYNAMIC for a, b in zip(s, first)
            ):
                raise op.error("requires the same shape for all operands and results")


class SameOperandsAndResultElementType(Trait):
    """Operands and results share an element type."""

    @staticmethod
    def verify(op: Operation) -> None:
        types = [A.element_type_of(u.value.type) for u in op._operands]
        types += [A.element_type_of(r.type) for r in op.results]
        if types and any(t is not types[0] for t in types):
            raise op.error("requires the same element type for all operands and results")


class AttrSizedOperandSegments(Trait):
    """Operand group sizes are in the `operandSegmentSizes` property."""


class AttrSizedResultSegments(Trait):
    """Result group sizes are in the `resultSegmentSizes` property."""


def has_parent(*op_names: str) -> type[Trait]:
    """A trait: the op must be directly nested in one of these ops."""
    names = frozenset(op_names)

    class HasParent(Trait):
        parents = names

        @staticmethod
        def verify(op: Operation) -> None:
            parent = op.parent_op
            if parent is None or parent.name not in names:
                expected = ", ".join(f"'{n}'" for n in sorted(names))
                raise op.error(
                    f"expects parent op {'to be one of ' if len(names) > 1 else ''}{expected}"
                )

    return HasParent


def single_block_implicit_terminator(op_name: str) -> type[Trait]:
    """A trait: regions have one block ending in `op_name`, which custom syntax may elide."""

    class SingleBlockImplicitTerminator(Trait):
        terminator = op_name

        @staticmethod
        def verify(op: Operation) -> None:
            SingleBlock.verify(op)
            for r in op.regions:
                if r.blocks:
                    last = r.blocks[0].last
                    if last is None or last.name != op_name:
                        raise op.error(f"expects regions to end with '{op_name}'")

    return SingleBlockImplicitTerminator


class OpInterface:
    """Base of op interfaces: mixin classes whose methods an op class implements."""

    __slots__ = ()


class InferTypeOpInterface(OpInterface):
    """Ops that compute their result types from operands and attributes."""

    __slots__ = ()

    @classmethod
    def infer_result_types(
        cls,
        operand_types: Sequence[A.Type],
        attributes: dict[str, A.Attribute],
        regions: Sequence[Region] = (),
    ) -> list[A.Type]:
        raise NotImplementedError(f"{cls.__name__} does not implement infer_result_types")


class SymbolUserOpInterface(OpInterface):
    """Ops that refer to symbols and check them in `verify_symbol_uses(symbol_table)`."""

    __slots__ = ()

    def verify_symbol_uses(self, tables: Any) -> None:
        raise NotImplementedError


# ---------------------------------------------------------------------------------------------
# The Op base class and its definition machinery


class OperationState:
    """What a custom parser collects before the op is created in one step."""

    __slots__ = (
        "op_class",
        "operands",
        "result_types",
        "attributes",
        "regions",
        "successors",
        "location",
    )

    def __init__(self, op_class: type, location: A.Location | None = None) -> None:
        self.op_class = op_class
        self.operands: list[Value] = []
        self.result_types: list[A.Type] = []
        self.attributes: dict[str, A.Attribute] = {}
        self.regions: list[Region] = []
        self.successors: list[Block] = []
        self.location = location

    def create(self) -> Operation:
        return self.op_class.create(
            self.operands,
            self.result_types,
            self.attributes,
            self.regions,
            self.successors,
            self.location,
        )


class _OpMeta(type):
    """Gives op classes empty `__slots__` and runs the definition work once per class."""

    def __new__(mcls, cls_name: str, bases: tuple, ns: dict[str, Any]) -> type:
        ns.setdefault("__slots__", ())
        cls = super().__new__(mcls, cls_name, bases, ns)
        if ns.get("name"):
            _define(cls, ns)  # type: ignore[arg-type]
        return cls


class Op(Operation, metaclass=_OpMeta):
    """Base of registered op classes (see the module docstring)."""

    traits: tuple[type[Trait], ...] = ()
    format: str | None = None
    canonicalization_patterns: tuple = ()
    summary: str = ""

    # Filled by _define.
    _operand_defs: tuple[tuple[str, OperandDef], ...] = ()
    _result_defs: tuple[tuple[str, ResultDef], ...] = ()
    _prop_defs: tuple[tuple[str, PropDef], ...] = ()
    _region_defs: tuple[tuple[str, RegionDef], ...] = ()
    _successor_defs: tuple[tuple[str, SuccessorDef], ...] = ()
    _trait_verifiers: tuple[Callable[[Operation], None], ...] = ()

    @classmethod
    def build(
        cls,
        operands: Sequence[Value | Sequence[Value] | None] = (),
        result_types: Sequence[A.Type | Sequence[A.Type] | None] | None = None,
        attributes: dict[str, A.Attribute] | None = None,
        regions: Sequence[Region] | int | None = None,
        successors: Sequence[Block] = (),
        location: A.Location | None = None,
    ) -> Operation:
        """Create an op from per-definition groups (lists for variadic, None for absent optional).

        Segment sizes are filled in for ops with several variadic groups; result types are
        inferred when omitted and the op implements InferTypeOpInterface.
        """
        attrs = dict(attributes) if attributes else {}
        flat_operands = _flatten_groups(
            cls, operands, cls._operand_defs, attrs, "operandSegmentSizes"
        )
        if result_types is None:
            if not isinstance(cls, type) or not issubclass(cls, InferTypeOpInterface):
                if any(d.arity == SINGLE for _, d in cls._result_defs):
                    raise TypeError(f"{cls.__name__}.build needs result_types")
                flat_results: list[A.Type] = []
            else:
                flat_results = list(cls.infer_result_types([v.type for v in flat_operands], attrs))
        else:
            flat_results = _flatten_groups(
                cls, result_types, cls._result_defs, attrs, "resultSegmentSizes"
            )
        if regions is None:
            regions = sum(1 for _, d in cls._region_defs if d.arity == SINGLE)
        return cls.create(flat_operands, flat_results, attrs, regions, successors, location)

    def _verify_defs(self) -> None:
        """Check counts and constraints of operands, results, properties, regions, successors."""
        _verify_structure(self)


_OP_BASES = frozenset(Op.__mro__)


def _flatten_groups(
    cls: type, groups: Sequence[Any], defs: tuple, attrs: dict[str, A.Attribute], seg_name: str
) -> list[Any]:
    if len(groups) != len(defs):
        # Allow a flat list for ops without variadic groups.
        if all(d.arity == SINGLE for _, d in defs):
            return list(groups)
        raise TypeError(f"{cls.__name__}.build expects {len(defs)} groups, got {len(groups)}")
    flat: list[Any] = []
    sizes: list[int] = []
    for g, (_, d) in zip(groups, defs):
        if d.arity == SINGLE:
            flat.append(g)
            sizes.append(1)
        elif g is None:
            sizes.append(0)
        elif d.arity == OPTIONAL and not isinstance(g, (list, tuple)):
            flat.append(g)
            sizes.append(1)
        else:
            flat.extend(g)
            sizes.append(len(g))
    if sum(1 for _, d in defs if d.arity != SINGLE) > 1:
        attrs[seg_name] = A.DenseArrayAttr(A.i32, sizes)
    return flat


def _segment_ranges(op: Operation, defs: tuple, count: int, seg_name: str) -> list[tuple[int, int]]:
    """Start/end of each definition group among `count` actual operands (or results)."""
    n_var = op._n_variadic_operands if seg_name == "operandSegmentSizes" else op._n_variadic_results  # type: ignore[attr-defined]  # noqa: E501
    if n_var == 0:
        return [(i, i + 1) for i in range(len(defs))]
    if n_var == 1:
        n_fixed = len(defs) - 1
        var_len = count - n_fixed
        ranges = []
        pos = 0
        for _, d in defs:
            n = 1 if d.arity == SINGLE else var_len
            ranges.append((pos, pos + n))
            pos += n
        return ranges
    seg = op.get_attr(seg_name)
    if type(seg) is not A.DenseArrayAttr:
        raise op.error(f"requires dense i32 array attribute '{seg_name}'")  # type: ignore[attr-defined]
    ranges = []
    pos = 0
    for n in seg.values:
        ranges.append((pos, pos + n))
        pos += n
    return ranges


def _group_accessor(index: int, defs_attr: str, operands: bool) -> property:
    seg_name = "operandSegmentSizes" if operands else "resultSegmentSizes"

    def get(self: Operation) -> Any:
        defs = getattr(type(self), defs_attr)
        items = self._operands if operands else self.results
        start, end = _segment_ranges(self, defs, len(items), seg_name)[index]
        arity = defs[index][1].arity
        if operands:
            vals = tuple([u.value for u in items[start:end]])
        else:
            vals = tuple(items[start:end])
        if arity != VARIADIC:
            return vals[0] if vals else None
        return vals

    return property(get)


def _define(cls: type[Op], ns: dict[str, Any]) -> None:
    """Turn the class body's definition entries into accessors and class-level facts."""
    name = cls.name
    if "." not in name:
        raise TypeError(f"op name '{name}' must be 'dialect.mnemonic'")

    operand_defs, result_defs, prop_defs, region_defs, successor_defs = [], [], [], [], []
    # Inherit definitions from a dialect-local base, then add this class's own (Op and its
    # bases define none: their dictionaries are not scanned).
    for base in reversed(cls.__mro__[1:]):
        if base in _OP_BASES:
            continue
        for key, value in base.__dict__.items():
            if isinstance(value, _Def):
                ns.setdefault(key, value)
    for key, value in list(ns.items()):
        if not isinstance(value, _Def):
            continue
        value.attr_name = key
        {
            OperandDef: operand_defs,
            ResultDef: result_defs,
            PropDef: prop_defs,
            RegionDef: region_defs,
            SuccessorDef: successor_defs,
        }[type(value)].append((key, value))
        if hasattr(Operation, key):
            raise TypeError(f"{cls.__name__}: definition '{key}' shadows an Operation member")

    cls._operand_defs = tuple(operand_defs)
    cls._result_defs = tuple(result_defs)
    cls._prop_defs = tuple(prop_defs)
    cls._region_defs = tuple(region_defs)
    cls._successor_defs = tuple(successor_defs)
    cls._n_variadic_operands = sum(1 for _, d in operand_defs if d.arity != SINGLE)  # type: ignore[attr-defined]
    cls._n_variadic_results = sum(1 for _, d in result_defs if d.arity != SINGLE)  # type: ignore[attr-defined]

    # Accessors.
    for i, (key, _d) in enumerate(operand_defs):
        if cls._n_variadic_operands == 0:  # type: ignore[attr-defined]
            setattr(cls, key, property(lambda self, i=i: self._operands[i].value))
        else:
            setattr(cls, key, _group_accessor(i, "_operand_defs", True))
    for i, (key, _d) in enumerate(result_defs):
        if cls._n_variadic_results == 0:  # type: ignore[attr-defined]
            setattr(cls, key, property(lambda self, i=i: self.results[i]))
        else:
            setattr(cls, key, _group_accessor(i, "_result_defs", False))
    for key, d in prop_defs:
        default = d.default

        def get_prop(self: Operation, key: str = key, default: Any = default) -> Any:
            attrs = self._attrs
            if attrs is None:
                return default
            return attrs.get(key, default)

        def set_prop(self: Operation, value: Any, key: str = key) -> None:
            if value is None:
                self.remove_attr(key)
            else:
                self.set_attr(key, value)

        setattr(cls, key, property(get_prop, set_prop))
    for i, (key, d) in enumerate(region_defs):
        if d.arity == SINGLE and all(dd.arity == SINGLE for _, dd in region_defs[:i]):
            setattr(cls, key, property(lambda self, i=i: self.regions[i]))
        else:
            setattr(cls, key, property(lambda self, i=i: tuple(self.regions[i:])))
    for i, (key, d) in enumerate(successor_defs):
        if d.arity == SINGLE:
            setattr(cls, key, property(lambda self, i=i: self.successors[i]))
        else:
            setattr(cls, key, property(lambda self, i=i: tuple(self.successors[i:])))

    # Class-level facts.
    traits: set[type] = set()
    for base in reversed(cls.__mro__):
        traits.update(base.__dict__.get("traits", ()))
    cls._traits = frozenset(traits)
    cls._prop_defaults = {k: d.default for k, d in prop_defs if d.default is not None}
    segments = set()
    if cls._n_variadic_operands > 1:  # type: ignore[attr-defined]
        segments.add("operandSegmentSizes")
    if cls._n_variadic_results > 1:  # type: ignore[attr-defined]
        segments.add("resultSegmentSizes")
    cls._prop_names = frozenset(k for k, _ in prop_defs) | frozenset(segments)
    cls._is_terminator = Terminator in traits
    cls._is_isolated = IsolatedFromAbove in traits
    cls._has_symbol_table = SymbolTable in traits
    cls._is_registered = True
    cls._trait_verifiers = tuple(
        t.verify for t in sorted(traits, key=lambda t: t.__name__) if t.verify is not Trait.verify
    )
    if not cls.summary and cls.__doc__:
        cls.summary = cls.__doc__.strip().splitlines()[0]

    fmt = ns.get("format")
    if fmt is not None:
        from mlc.syntax.format import define_format

        define_format(cls, fmt)


def _describe_count(defs: tuple, what: str) -> str:
    n_single = sum(1 for _, d in defs if d.arity == SINGLE)
    if n_single == len(defs):
        return f"expected {n_single} {what}{'s' if n_single != 1 else ''}"
    return f"expected {n_single} or more {what}s"


def _verify_structure(op: Op) -> None:
    cls = type(op)
    # Operands.
    defs = cls._operand_defs
    n = len(op._operands)
    n_var = cls._n_variadic_operands  # type: ignore[attr-defined]
    if n_var == 0:
        if n != len(defs):
            raise op.error(f"{_describe_count(defs, 'operand')}, but found {n}")
        for (_key, d), u in zip(defs, op._operands):
            if not d.constraint.check(u.value.type):  # type: ignore[union-attr]
                raise op.error(
                    f"operand #{u.index} must be {d.constraint.description}, but got {u.value.type}"
                )  # type: ignore[union-attr]  # noqa: E501
    else:
        _verify_groups(
            op, defs, [u.value.type for u in op._operands], "operand", "operandSegmentSizes"
        )
    # Results.
    defs = cls._result_defs
    n = len(op.results)
    if cls._n_variadic_results == 0:  # type: ignore[attr-defined]
        if n != len(defs):
            raise op.error(f"{_describe_count(defs, 'result')}, but found {n}")
        for (_key, d), r in zip(defs, op.results):
            if not d.constraint.check(r.type):  # type: ignore[union-attr]
                raise op.error(
                    f"result #{r.index} must be {d.constraint.description}, but got {r.type}"
                )  # type: ignore[union-attr]  # noqa: E501
    else:
        _verify_groups(op, defs, [r.type for r in op.results], "result", "resultSegmentSizes")
    # Properties.
    attrs = op._attrs or {}
    for key, d in cls._prop_defs:
        value = attrs.get(key)
        if value is None:
            if d.arity == SINGLE:
                raise op.error(f"requires attribute '{key}'")
            continue
        if not d.constraint.check(value):  # type: ignore[union-attr]
            raise op.error(
                f"attribute '{key}' failed to satisfy constraint: {d.constraint.description}"
            )  # type: ignore[union-attr]  # noqa: E501
    # Regions and successors.
    rdefs = cls._region_defs
    n_single = sum(1 for _, d in rdefs if d.arity == SINGLE)
    if len(op.regions) < n_single or (n_single == len(rdefs) and len(op.regions) != n_single):
        raise op.error(
            f"requires {n_single} region{'s' if n_single != 1 else ''}, but found {len(op.regions)}"
        )  # noqa: E501
    sdefs = cls._successor_defs
    n_single = sum(1 for _, d in sdefs if d.arity == SINGLE)
    ns = len(op.successors)
    if ns < n_single or (n_single == len(sdefs) and ns != n_single):
        raise op.error(
            f"requires {n_single} successor{'s' if n_single != 1 else ''}, but found {ns}"
        )


def _verify_groups(op: Op, defs: tuple, types: list[A.Type], what: str, seg_name: str) -> None:
    n_var = sum(1 for _, d in defs if d.arity != SINGLE)
    if n_var > 1:
        seg = op.get_attr(seg_name)
        if type(seg) is not A.DenseArrayAttr or seg.element_type is not A.i32:
            raise op.error(f"requires dense i32 array attribute '{seg_name}'")
        if len(seg.values) != len(defs):
            raise op.error(
                f"'{seg_name}' attribute for specifying {what} segments must have "
                f"{len(defs)} elements, but got {len(seg.values)}"
            )
        if sum(seg.values) != len(types):
            raise op.error(
                f"{what} count ({len(types)}) does not match with the total size "
                f"({sum(seg.values)}) specified in attribute '{seg_name}'"
            )
    else:
        n_fixed = len(defs) - n_var
        if len(types) < n_fixed:
            raise op.error(f"{_describe_count(defs, what)}, but found {len(types)}")
    ranges = _segment_ranges(op, defs, len(types), seg_name)
    for (key, d), (start, end) in zip(defs, ranges):
        if d.arity == SINGLE and end - start != 1:
            raise op.error(
                f"{what} group '{key}' requires exactly one value, but found {end - start}"
            )
        if d.arity == OPTIONAL and end - start > 1:
            raise op.error(
                f"{what} group '{key}' requires at most one value, but found {end - start}"
            )
        for i in range(start, end):
            if not d.constraint.check(types[i]):
                raise op.error(
                    f"{what} #{i} must be {d.constraint.description}, but got {types[i]}"
                )
