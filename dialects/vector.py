"""The `vector` dialect: fixed-size SIMD values (broadcast, reductions, element access,
shuffles, vector loads/stores and transfers on memrefs), with MLIR's names, properties,
verifiers and syntax.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlc.dialects.arith import FASTMATH_NONE, FastMathAttrC
from mlc.dialects.memref import (
    DYNAMIC_INDEX,
    AlignmentAttr,
    BoolAttrC,
    access_flags_shown,
    parse_access_flags,
    parse_dynamic_index_list,
    print_access_flags,
    print_dynamic_index_list,
)

from mlc.interfaces import READ, WRITE, EffectInstance, MemoryEffectsOpInterface
from mlc.ir import attributes as A
from mlc.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from mlc.ir.attributes import DialectAttr, Uniqued
from mlc.ir.context import Dialect
from mlc.ir.core import Operation, Value
from mlc.ir.opdef import (
    AffineMapAttrC,
    AnyMemRef,
    AnyType,
    AttrSizedOperandSegments,
    Constraint,
    DenseI64ArrayAttr,
    Index,
    InferTypeOpInterface,
    Op,
    OperationState,
    Pure,
    operand,
    opt_operand,
    opt_prop,
    opt_result,
    prop,
    result,
    var_operand,
)
from mlc.syntax.format import format_constraint

POISON_INDEX = -1
"""A static position of -1 in vector.extract/insert is poison (MLIR's kPoisonIndex)."""

_EMPTY: dict = {}

# ---------------------------------------------------------------------------------------------
# #vector.kind<...>

COMBINING_KINDS = (
    "add", "mul", "minui", "minsi", "minnumf", "maxui", "maxsi", "maxnumf", "and", "or", "xor",
    "minimumf", "maximumf",
)  # fmt: skip
_INT_KINDS = frozenset({"add", "mul", "minui", "minsi", "maxui", "maxsi", "and", "or", "xor"})
_FLOAT_KINDS = frozenset({"add", "mul", "minnumf", "maxnumf", "minimumf", "maximumf"})


class CombiningKindAttr(DialectAttr):
    """`#vector.kind<add>`: the combining operation of a reduction."""

    __slots__ = ("kind",)
    name = "vector.kind"

    def __new__(cls, kind: str) -> CombiningKindAttr:
        return Uniqued.__new__(cls, kind)

    def _init(self) -> None:
        if self.kind not in COMBINING_KINDS:
            raise ValueError(f"unknown vector combining kind '{self.kind}'")

    @classmethod
    def parse_parameters(cls, parser: Any) -> CombiningKindAttr:
        parser.parse_punct("<")
        kw = parser.parse_optional_keyword_in(COMBINING_KINDS)
        if kw is None:
            raise parser.error(
                "expected ::mlir::vector::CombiningKind to be one of: " + ", ".join(COMBINING_KINDS)
            )
        parser.parse_punct(">")
        return cls(kw)

    def print_parameters(self, printer: Any) -> None:
        printer.write(f"<{self.kind}>")


def kind_supports(kind: str, element_type: A.Type) -> bool:
    """Whether a combining kind applies to an element type (MLIR's isSupportedCombiningKind)."""
    if type(element_type) is A.FloatType:
        return kind in _FLOAT_KINDS
    if type(element_type) is A.IntegerType or type(element_type) is A.IndexType:
        return kind in _INT_KINDS
    return False


# ---------------------------------------------------------------------------------------------
# Constraints and helpers


def _fixed_vector(t: Any) -> bool:
    return type(t) is A.VectorType


AnyVectorOfAnyRank = Constraint(_fixed_vector, "vector of any type values")
Scalar = Constraint(
    lambda t: type(t) in (A.IntegerType, A.IndexType, A.FloatType),
    "integer or index or floating-point",
)
KindAttrC = format_constraint(CombiningKindAttr, "Kind of combining function for contractions")
BoolArrayAttrC = Constraint(
    lambda a: (
        type(a) is A.ArrayAttr and all(type(b) is A.IntegerAttr and b.type is A.i1 for b in a.value)
    ),
    "1-bit boolean array attribute",
)
MaskVector = Constraint(
    lambda t: type(t) is A.VectorType and t.element_type is A.i1,
    "vector of 1-bit signless integer values",
)
ShapedSource = Constraint(
    lambda t: type(t) in (A.MemRefType, A.RankedTensorType), "shaped of any type values"
)


def _check_fixed(op: Operation, *types: A.Type) -> None:
    for t in types:
        if type(t) is A.VectorType and any(t.scalable):
            raise op.error("not supported: scalable vectors")


def _constant_int(v: Value) -> int | None:
    d = v.defining_op()
    if d is None or d.name != "arith.constant":
        return None
    a = d.get_attr("value")
    return a.value if type(a) is A.IntegerAttr else None


def _splat_of(attr: A.Attribute | None, t: A.VectorType) -> A.DenseElementsAttr | None:
    """A splat of `t` holding a scalar constant or a splat constant's value."""
    if type(attr) is A.IntegerAttr or type(attr) is A.FloatAttr:
        if attr.type is not t.element_type:
            return None
        return A.DenseElementsAttr(t, attr.value)
    if type(attr) is A.DenseElementsAttr and attr.is_splat:
        if attr.type.element_type is not t.element_type:
            return None
        return A.DenseElementsAttr(t, attr.splat_value)
    return None


# ---------------------------------------------------------------------------------------------
# Broadcasts


class BroadcastOp(Op):
    """Broadcasts a scalar or vector to a vector of higher or equal rank.

    Source dims align with the trailing result dims; each must be 1 or equal to the result's.

        %1 = vector.broadcast %x : f32 to vector<4x8xf32>
    """

    name = "vector.broadcast"
    traits = (Pure,)
    source = operand(AnyType)
    vector = result(AnyVectorOfAnyRank)
    format = "$source attr-dict `:` type($source) `to` type($vector)"

    def verify_op(self) -> None:
        s, d = self.source.type, self.vector.type
        _check_fixed(self, s, d)
        if type(s) is A.VectorType:
            if s.rank > d.rank:
                raise self.error("source rank higher than destination rank")
            lead = d.rank - s.rank
            for i, sd in enumerate(s.shape):
                dd = d.shape[lead + i]
                if sd != 1 and sd != dd:
                    raise self.error(f"dimension mismatch ({sd} vs. {dd})")
        if A.element_type_of(s) is not d.element_type:
            raise self.error(
                "failed to verify that source operand and result have same element type"
            )

    def fold(self, operand_attrs: list) -> Any:
        if self.source.type is self.vector.type:
            return self.source
        return _splat_of(operand_attrs[0], self.vector.type)


class SplatOp(Op):
    """Broadcasts a scalar to every element of a vector (MLIR's historic `vector.splat`).

    Upstream MLIR has since removed this op in favour of `vector.broadcast`; mlc keeps it with
    its historic syntax and generic form (`"vector.splat"(%x) : (f32) -> vector<4xf32>`), so
    such IR still parses. Prefer `vector.broadcast` for IR meant for current MLIR.

        %1 = vector.splat %x : vector<4xf32>
    """

    name = "vector.splat"
    traits = (Pure,)
    input = operand(Scalar)
    aggregate = result(AnyVectorOfAnyRank)

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        u = parser.parse_operand()
        parser.parse_optional_attr_dict(state.attributes)
        parser.parse_punct(":")
        pos = parser.pos()
        t = parser.parse_type()
        if type(t) is not A.VectorType:
            raise parser.error(f"expected a vector type, but got '{t}'", pos)
        state.operands = [parser.resolve_operand(u, t.element_type)]
        state.result_types = [t]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.input)
        p.print_attr_dict(self._attrs)
        p.write(" : ")
        p.print_type(self.aggregate.type)

    def verify_op(self) -> None:
        t = self.aggregate.type
        _check_fixed(self, t)
        if self.input.type is not t.element_type:
            raise self.error("failed to verify that operand type matches element type of result")

    def fold(self, operand_attrs: list) -> Any:
        return _splat_of(operand_attrs[0], self.aggregate.type)


# ---------------------------------------------------------------------------------------------
# Arithmetic


class FMAOp(Op):
    """Fused multiply-add of float vectors, elementwise: `lhs * rhs + acc`.

    All operands and the result have one vector type.

        %r = vector.fma %a, %b, %c : vector<8xf32>
    """

    name = "vector.fma"
    traits = (Pure,)
    lhs = operand(AnyVectorOfAnyRank)
    rhs = operand(AnyVectorOfAnyRank)
    acc = operand(AnyVectorOfAnyRank)
    res = result(AnyVectorOfAnyRank)
    format = "$lhs `,` $rhs `,` $acc attr-dict `:` type($lhs)"
    format_type_equalities = (("lhs", "rhs", "acc", "res"),)

    def verify_op(self) -> None:
        t = self.lhs.type
        if not (self.rhs.type is t and self.acc.type is t and self.res.type is t):
            raise self.error("failed to verify that all of {lhs, rhs, acc, result} have same type")
        _check_fixed(self, t)
        if type(t.element_type) is not A.FloatType:
            raise self.error(f"operand #0 must be vector of floating-point values, but got '{t}'")


class ReductionOp(Op):
    """Reduces a 1-D vector to a scalar with a combining kind, with an optional accumulator.

    Kinds: `add`, `mul` (integers and floats), `minui`/`minsi`/`maxui`/`maxsi`/`and`/`or`/`xor`
    (integers), `minnumf`/`maxnumf`/`minimumf`/`maximumf` (floats); `fastmath` flags apply to
    float reductions.

        %r = vector.reduction <add>, %v : vector<8xf32> into f32
    """

    name = "vector.reduction"
    traits = (Pure,)
    kind = prop(KindAttrC)
    vector = operand(AnyVectorOfAnyRank)
    acc = opt_operand(AnyType)
    fastmath = prop(FastMathAttrC, default=FASTMATH_NONE)
    dest = result(AnyType)

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        attrs = state.attributes
        attrs["kind"] = CombiningKindAttr.parse_parameters(parser)
        parser.parse_punct(",")
        v = parser.parse_operand()
        acc = parser.parse_operand() if parser.parse_optional_punct(",") else None
        if parser.parse_optional_keyword("fastmath"):
            attrs["fastmath"] = type(FASTMATH_NONE).parse_parameters(parser)
        parser.parse_optional_attr_dict(attrs)
        parser.parse_punct(":")
        vt = parser.parse_type()
        parser.parse_keyword("into")
        rt = parser.parse_type()
        state.operands = [parser.resolve_operand(v, vt)]
        if acc is not None:
            state.operands.append(parser.resolve_operand(acc, rt))
        state.result_types = [rt]

    def print_asm(self, p: Any) -> None:
        p.write(f" <{self.kind.kind}>, ")
        p.print_operand(self.vector)
        if self.acc is not None:
            p.write(", ")
            p.print_operand(self.acc)
        attrs = self._attrs or _EMPTY
        fm = attrs.get("fastmath")
        if fm is not None and fm is not FASTMATH_NONE:
            p.write(" fastmath")
            fm.print_parameters(p)
        p.print_attr_dict(attrs, ("kind", "fastmath"))
        p.write(" : ")
        p.print_type(self.vector.type)
        p.write(" into ")
        p.print_type(self.dest.type)

    def verify_op(self) -> None:
        vt = self.vector.type
        _check_fixed(self, vt)
        if vt.rank > 1:
            raise self.error(f"unsupported reduction rank: {vt.rank}")
        et = vt.element_type
        if self.dest.type is not et:
            raise self.error(
                "failed to verify that source operand and result have same element type"
            )
        acc = self.acc
        if acc is not None and acc.type is not self.dest.type:
            raise self.error("failed to verify that dest and acc have the same type")
        kind = self.kind.kind
        if not kind_supports(kind, et):
            raise self.error(f"unsupported reduction type ''{et}'' for kind '{kind}'")


# ---------------------------------------------------------------------------------------------
# Element access: extract / insert


def _position_text(op: Operation, p: Any, dynamic: tuple[Value, ...]) -> None:
    static = op.get_attr("static_position")
    print_dynamic_index_list(p, dynamic, static.values if static is not None else ())


def _verify_positions(
    op: Operation, vt: A.VectorType, dynamic: tuple[Value, ...], what: str
) -> None:
    static = op.get_attr("static_position").values
    n_dyn = sum(1 for s in static if s == DYNAMIC_INDEX)
    if n_dyn != len(dynamic):
        raise op.error(
            "mismatch between dynamic and static positions (kDynamic marker but no "
            "corresponding dynamic position) -- this can only happen due to an incorrect "
            "fold/rewrite"
        )
    it = iter(dynamic)
    for i, s in enumerate(static):
        if s == DYNAMIC_INDEX:
            c = _constant_int(next(it))
            if c is None:
                continue
            s = c
        if not (0 <= s < vt.shape[i] or s == POISON_INDEX):
            raise op.error(
                f"expected position attribute #{i + 1} to be a non-negative integer smaller "
                f"than the corresponding {what}"
            )


def extract_result_type(source: A.VectorType, n_positions: int) -> A.Type:
    """The type extracted at `n_positions` leading positions (the element type when all)."""
    if n_positions >= source.rank:
        return source.element_type
    return A.VectorType(source.shape[n_positions:], source.element_type)


class ExtractOp(Op, InferTypeOpInterface):
    """Extracts a scalar or sub-vector at a static or dynamic position.

    Positions index the leading dims; -1 is a poison position.

        %e = vector.extract %v[%i, 2] : f32 from vector<4x8xf32>
    """

    name = "vector.extract"
    traits = (Pure,)
    source = operand(AnyVectorOfAnyRank)
    dynamic_position = var_operand(Index)
    static_position = prop(DenseI64ArrayAttr)
    res = result(AnyType)

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        return [extract_result_type(operand_types[0], len(attributes["static_position"].values))]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        src = parser.parse_operand()
        dyn, static = parse_dynamic_index_list(parser)
        parser.parse_optional_attr_dict(state.attributes)
        parser.parse_punct(":")
        rt = parser.parse_type()
        parser.parse_keyword("from")
        vt = parser.parse_type()
        state.attributes["static_position"] = A.DenseArrayAttr(A.i64, static)
        state.operands = [
            parser.resolve_operand(src, vt),
            *parser.resolve_operands(dyn, [A.index] * len(dyn)),
        ]
        state.result_types = [rt]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.source)
        _position_text(self, p, self.dynamic_position)
        p.print_attr_dict(self._attrs, ("static_position",))
        p.write(" : ")
        p.print_type(self.res.type)
        p.write(" from ")
        p.print_type(self.source.type)

    def verify_op(self) -> None:
        vt = self.source.type
        _check_fixed(self, vt)
        n = len(self.static_position.values)
        if n > vt.rank:
            raise self.error("expected position attribute of rank no greater than vector rank")
        _verify_positions(self, vt, self.dynamic_position, "vector dimension or poison (-1)")
        inferred = extract_result_type(vt, n)
        rt = self.res.type
        if rt is not inferred:
            one = type(inferred) is A.VectorType and inferred.num_elements == 1
            if not (one and rt is inferred.element_type):
                raise self.error(
                    f"inferred type(s) '{inferred}' are incompatible with return type(s) of "
                    f"operation '{rt}'"
                )

    def fold(self, operand_attrs: list) -> Any:
        src, rt = self.source, self.res.type
        if not self.static_position.values and rt is src.type:
            return src
        if self.dynamic_position:
            return None
        if POISON_INDEX in self.static_position.values:
            return None
        d = src.defining_op()
        if type(d) in (BroadcastOp, SplatOp) and d.operand(0).type is rt:
            return d.operand(0)
        attr = operand_attrs[0]
        if type(attr) is A.DenseElementsAttr and attr.is_splat:
            v = attr.splat_value
            if type(rt) is A.VectorType:
                return A.DenseElementsAttr(rt, v)
            return A.FloatAttr(v, rt) if type(rt) is A.FloatType else A.IntegerAttr(v, rt)
        return None


class InsertOp(Op, InferTypeOpInterface):
    """Inserts a scalar or sub-vector into a vector at a static or dynamic position.

    The result has the destination's type; positions index its leading dims.

        %r = vector.insert %x, %v [1, 2] : f32 into vector<4x8xf32>
    """

    name = "vector.insert"
    traits = (Pure,)
    valueToStore = operand(AnyType)  # noqa: N815 - MLIR's operand name
    dest = operand(AnyVectorOfAnyRank)
    dynamic_position = var_operand(Index)
    static_position = prop(DenseI64ArrayAttr)
    res = result(AnyVectorOfAnyRank)

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        return [operand_types[1]]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        v = parser.parse_operand()
        parser.parse_punct(",")
        dest = parser.parse_operand()
        dyn, static = parse_dynamic_index_list(parser)
        parser.parse_optional_attr_dict(state.attributes)
        parser.parse_punct(":")
        vt = parser.parse_type()
        parser.parse_keyword("into")
        dt = parser.parse_type()
        state.attributes["static_position"] = A.DenseArrayAttr(A.i64, static)
        state.operands = [
            parser.resolve_operand(v, vt),
            parser.resolve_operand(dest, dt),
            *parser.resolve_operands(dyn, [A.index] * len(dyn)),
        ]
        state.result_types = [dt]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.valueToStore)
        p.write(", ")
        p.print_operand(self.dest)
        p.write(" ")
        _position_text(self, p, self.dynamic_position)
        p.print_attr_dict(self._attrs, ("static_position",))
        p.write(" : ")
        p.print_type(self.valueToStore.type)
        p.write(" into ")
        p.print_type(self.dest.type)

    def verify_op(self) -> None:
        dt, vt = self.dest.type, self.valueToStore.type
        _check_fixed(self, dt, vt)
        if self.res.type is not dt:
            raise self.error("failed to verify that all of {dest, result} have same type")
        n = len(self.static_position.values)
        if type(vt) is A.VectorType:
            if n + vt.rank != dt.rank:
                raise self.error(
                    "expected position attribute rank + source rank to match dest vector rank"
                )
            # Not checked by MLIR's verifier; a mismatch is always wrong IR.
            if vt.shape != dt.shape[n:] or vt.element_type is not dt.element_type:
                raise self.error(
                    f"expected source type '{vt}' to match the trailing dims of '{dt}'"
                )
        else:
            if n != dt.rank:
                raise self.error("expected position attribute rank to match the dest vector rank")
            if vt is not dt.element_type:
                raise self.error(f"expected source type '{vt}' to be the element type of '{dt}'")
        _verify_positions(self, dt, self.dynamic_position, "dest vector dimension")


# ---------------------------------------------------------------------------------------------
# Memory: load / store


def _verify_vector_access(
    op: Operation, base: A.MemRefType, vt: A.VectorType, n_idx: int, what: str
) -> None:  # noqa: E501
    _check_fixed(op, vt)
    if n_idx != base.rank:
        raise op.error(f"requires {base.rank} indices")
    et = base.element_type
    if type(et) is A.VectorType:
        if et is not vt:
            raise op.error(f"base memref and {what} vector types should match")
    elif et is not vt.element_type:
        if what == "result":
            raise op.error("base and result element types should match")
        raise op.error("base and valueToStore element type should match")


class ShuffleOp(Op, InferTypeOpInterface):
    """Picks leading-dim slices of two vectors by a constant mask.

    The mask indexes the concatenation of the operands along their leading dim (-1: a poison
    slice); the operands share their trailing dims and element type, and the result has one
    leading slice per mask entry (0-D operands count as one element each).

        %r = vector.shuffle %a, %b [0, 5, 1, -1] : vector<4xf32>, vector<2xf32>
    """

    name = "vector.shuffle"
    traits = (Pure,)
    v1 = operand(AnyVectorOfAnyRank)
    v2 = operand(AnyVectorOfAnyRank)
    mask = prop(DenseI64ArrayAttr)
    vector = result(AnyVectorOfAnyRank)

    @classmethod
    def infer_result_types(cls, operand_types: Any, attributes: Any, regions: Any = ()) -> list:
        v1 = operand_types[0]
        n = len(attributes["mask"].values)
        return [A.VectorType([n, *v1.shape[1:]], v1.element_type)]

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        a = parser.parse_operand()
        parser.parse_punct(",")
        b = parser.parse_operand()
        mask: list[int] = []
        parser.parse_comma_separated_list("square", lambda: mask.append(parser.parse_integer()))
        state.attributes["mask"] = A.DenseArrayAttr(A.i64, mask)
        parser.parse_optional_attr_dict(state.attributes)
        parser.parse_punct(":")
        ta = parser.parse_type()
        parser.parse_punct(",")
        tb = parser.parse_type()
        state.operands = [parser.resolve_operand(a, ta), parser.resolve_operand(b, tb)]
        if type(ta) is not A.VectorType:
            raise parser.error(f"expected a vector type, got {ta}")
        state.result_types = cls.infer_result_types([ta, tb], state.attributes)

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.v1)
        p.write(", ")
        p.print_operand(self.v2)
        p.write(" [" + ", ".join(map(str, self.mask.values)) + "]")
        p.print_attr_dict(self._attrs, ("mask",))
        p.write(" : ")
        p.print_type(self.v1.type)
        p.write(", ")
        p.print_type(self.v2.type)

    def verify_op(self) -> None:
        t1, t2, rt = self.v1.type, self.v2.type, self.vector.type
        _check_fixed(self, t1, t2, rt)
        for which, t in (("first operand v1", t1), ("second operand v2", t2)):
            if t.element_type is not rt.element_type:
                raise self.error(
                    f"failed to verify that {which} and result have same element type"
                )
        zero_d = t1.rank == 0 and t2.rank == 0 and rt.rank == 1
        if not zero_d and not (t1.rank == rt.rank and t2.rank == rt.rank):
            raise self.error("rank mismatch")
        if t1.shape[1:] != rt.shape[1:] or t2.shape[1:] != rt.shape[1:]:
            raise self.error("dimension mismatch")
        mask = self.mask.values
        if not mask:
            raise self.error("invalid mask length")
        if len(mask) != rt.shape[0]:
            raise self.error("mask length mismatch")
        size = (t1.shape[0] if t1.rank else 1) + (t2.shape[0] if t2.rank else 1)
        for i, m in enumerate(mask):
            if not (m == POISON_INDEX or 0 <= m < size):
                raise self.error(f"mask index #{i + 1} out of range")

    def fold(self, operand_attrs: list) -> Any:
        t1, rt = self.v1.type, self.vector.type
        mask = self.mask.values
        if t1 is rt and t1.rank and list(mask) == list(range(t1.shape[0])):
            return self.v1
        a, b = operand_attrs
        if POISON_INDEX in mask or type(a) is not A.DenseElementsAttr:
            return None
        if type(b) is not A.DenseElementsAttr:
            return None
        slices = [np.asarray(x.array).reshape(-1, *rt.shape[1:]) for x in (a, b)]
        return A.DenseElementsAttr(rt, np.concatenate(slices)[list(mask)])


class LoadOp(Op, MemoryEffectsOpInterface):
    """Loads a vector from a memref at the given indices (contiguous along the trailing dims).

    Optional `alignment` (bytes) and `nontemporal` properties.

        %v = vector.load %m[%i, %j] : memref<?x?xf32>, vector<8xf32>
    """

    name = "vector.load"
    base = operand(AnyMemRef)
    indices = var_operand(Index)
    nontemporal = opt_prop(BoolAttrC)
    alignment = opt_prop(AlignmentAttr)
    res = result(AnyVectorOfAnyRank)

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        b = parser.parse_operand()
        idx = parser.parse_operand_list("square")
        parse_access_flags(parser, state.attributes, "equals")
        parser.parse_optional_attr_dict(state.attributes)
        parser.parse_punct(":")
        bt = parser.parse_type()
        parser.parse_punct(",")
        vt = parser.parse_type()
        state.operands = [
            parser.resolve_operand(b, bt),
            *parser.resolve_operands(idx, [A.index] * len(idx)),
        ]
        state.result_types = [vt]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.base)
        p.write("[")
        p.print_operands(self.indices)
        p.write("]")
        attrs = self._attrs or _EMPTY
        print_access_flags(p, attrs, "equals")
        p.print_attr_dict(attrs, access_flags_shown(attrs))
        p.write(" : ")
        p.print_type(self.base.type)
        p.write(", ")
        p.print_type(self.res.type)

    def verify_op(self) -> None:
        _verify_vector_access(self, self.base.type, self.res.type, len(self.indices), "result")

    def get_effects(self) -> list[EffectInstance]:
        return [EffectInstance(READ, self.base)]


class StoreOp(Op, MemoryEffectsOpInterface):
    """Stores a vector into a memref at the given indices.

    The vector's element type is the memref's; optional `alignment` and `nontemporal`.

        vector.store %v, %m[%i, %j] : memref<?x?xf32>, vector<8xf32>
    """

    name = "vector.store"
    valueToStore = operand(AnyVectorOfAnyRank)  # noqa: N815
    base = operand(AnyMemRef)
    indices = var_operand(Index)
    nontemporal = opt_prop(BoolAttrC)
    alignment = opt_prop(AlignmentAttr)

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        v = parser.parse_operand()
        parser.parse_punct(",")
        b = parser.parse_operand()
        idx = parser.parse_operand_list("square")
        parse_access_flags(parser, state.attributes, "equals")
        parser.parse_optional_attr_dict(state.attributes)
        parser.parse_punct(":")
        bt = parser.parse_type()
        parser.parse_punct(",")
        vt = parser.parse_type()
        state.operands = [
            parser.resolve_operand(v, vt),
            parser.resolve_operand(b, bt),
            *parser.resolve_operands(idx, [A.index] * len(idx)),
        ]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.valueToStore)
        p.write(", ")
        p.print_operand(self.base)
        p.write("[")
        p.print_operands(self.indices)
        p.write("]")
        attrs = self._attrs or _EMPTY
        print_access_flags(p, attrs, "equals")
        p.print_attr_dict(attrs, access_flags_shown(attrs))
        p.write(" : ")
        p.print_type(self.base.type)
        p.write(", ")
        p.print_type(self.valueToStore.type)

    def verify_op(self) -> None:
        _verify_vector_access(
            self, self.base.type, self.valueToStore.type, len(self.indices), "valueToStore"
        )

    def get_effects(self) -> list[EffectInstance]:
        return [EffectInstance(WRITE, self.base)]


# ---------------------------------------------------------------------------------------------
# Transfers


def minor_identity_map(source_rank: int, vector_rank: int) -> AffineMap:
    """The default permutation map of a transfer: the source's trailing `vector_rank` dims."""
    return AffineMap.minor_identity(source_rank, min(vector_rank, source_rank))


def infer_mask_type(vector_type: A.VectorType, permutation_map: AffineMap) -> A.VectorType:
    """The mask type of a transfer (MLIR's inferTransferOpMaskType): one i1 per accessed source
    element of the used dims, in source-dim order."""
    where = {}
    for i, e in enumerate(permutation_map.results):
        if type(e) is AffineDimExpr:
            where[e.position] = i
    shape = [vector_type.shape[where[d]] for d in sorted(where)]
    return A.VectorType(shape, A.i1)


class _TransferOp(Op):
    """Base of transfer_read/transfer_write: the permutation map, in_bounds and mask checks."""

    permutation_map = prop(AffineMapAttrC)
    in_bounds = prop(BoolArrayAttrC)

    def _vector_type(self) -> A.VectorType:
        raise NotImplementedError

    def _verify_transfer(self, base_t: A.Type, vt: A.VectorType, n_idx: int) -> None:
        _check_fixed(self, vt)
        if n_idx != base_t.rank:
            raise self.error(f"requires {base_t.rank} indices")
        if type(base_t.element_type) is A.VectorType:
            raise self.error("not supported: transfers on memrefs/tensors of vectors")
        m = self.permutation_map.value
        if m.num_symbols:
            raise self.error("requires permutation_map without symbols")
        if m.num_dims != base_t.rank:
            raise self.error(
                "requires a permutation_map with input dims of the same rank as the source type"
            )
        if m.num_results != vt.rank:
            raise self.error(
                "requires a permutation_map with result dims of the same rank as the vector type"
            )
        seen = set()
        for e in m.results:
            if type(e) is AffineDimExpr:
                if e.position in seen:
                    raise self.error(
                        "requires a permutation_map that is a permutation (found one dim used "
                        "more than once)"
                    )
                seen.add(e.position)
            elif not (type(e) is AffineConstantExpr and e.value == 0):
                raise self.error(
                    "requires a projected permutation_map (at most one dim or the zero constant "
                    "can appear in each result)"
                )
        n_in = len(self.in_bounds.value)
        if n_in != m.num_results:
            raise self.error(
                "expects the in_bounds attr of same rank as permutation_map results: "
                f"{self.permutation_map} vs inBounds of size: {n_in}"
            )
        mask = self.mask
        if mask is not None:
            want = infer_mask_type(vt, m)
            if mask.type is not want:
                raise self.error(
                    f"inferred mask type ('{want}') and mask operand type ('{mask.type}') "
                    "don't match"
                )

    @staticmethod
    def _parse_tail(parser: Any, state: OperationState, vector_first: bool) -> tuple:
        """`attr-dict : t1, t2` with the defaults of permutation_map and in_bounds filled in."""
        attrs = state.attributes
        parser.parse_optional_attr_dict(attrs)
        parser.parse_punct(":")
        pos = parser.pos()
        t1 = parser.parse_type()
        parser.parse_punct(",")
        t2 = parser.parse_type()
        vt, st = (t1, t2) if vector_first else (t2, t1)
        if type(vt) is not A.VectorType:
            raise parser.error(f"requires vector type, but got '{vt}'", pos)
        if type(st) not in (A.MemRefType, A.RankedTensorType):
            raise parser.error("requires memref or ranked tensor type", pos)
        if "permutation_map" not in attrs:
            attrs["permutation_map"] = A.AffineMapAttr(minor_identity_map(st.rank, vt.rank))
        m = attrs["permutation_map"]
        if "in_bounds" not in attrs and type(m) is A.AffineMapAttr:
            attrs["in_bounds"] = A.ArrayAttr([A.BoolAttr(False)] * m.value.num_results)
        return st, vt, m

    def _print_tail(self, p: Any, t1: A.Type, t2: A.Type) -> None:
        attrs = self._attrs or _EMPTY
        elided = ["operandSegmentSizes"]
        m = attrs.get("permutation_map")
        if type(m) is A.AffineMapAttr and m.value is minor_identity_map(
            self.base.type.rank, self._vector_type().rank
        ):
            elided.append("permutation_map")
        ib = attrs.get("in_bounds")
        if type(ib) is A.ArrayAttr and not any(b.value for b in ib.value):
            elided.append("in_bounds")
        p.print_attr_dict(attrs, elided)
        p.write(" : ")
        p.print_type(t1)
        p.write(", ")
        p.print_type(t2)


class TransferReadOp(_TransferOp, MemoryEffectsOpInterface):
    """Reads a vector from a memref or tensor slice, with padding for out-of-bounds elements.

    `permutation_map` maps source dims to vector dims (a projected permutation; a `0` result
    broadcasts), `in_bounds` says per vector dim that no padding is needed, and an optional
    `i1` mask disables lanes. Custom syntax elides the minor-identity map and all-false bounds.

        %v = vector.transfer_read %m[%i, %j], %pad {in_bounds = [true]} : memref<?x?xf32>, vector<8xf32>
    """  # noqa: E501

    name = "vector.transfer_read"
    traits = (AttrSizedOperandSegments,)
    base = operand(ShapedSource)
    indices = var_operand(Index)
    padding = operand(AnyType)
    mask = opt_operand(MaskVector)
    vector = result(AnyVectorOfAnyRank)

    def _vector_type(self) -> A.VectorType:
        return self.vector.type

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        b = parser.parse_operand()
        idx = parser.parse_operand_list("square")
        parser.parse_punct(",")
        pad = parser.parse_operand()
        mask = parser.parse_operand() if parser.parse_optional_punct(",") else None
        st, vt, m = cls._parse_tail(parser, state, vector_first=False)
        state.operands = [
            parser.resolve_operand(b, st),
            *parser.resolve_operands(idx, [A.index] * len(idx)),
            parser.resolve_operand(pad, st.element_type),
        ]
        if mask is not None:
            if type(m) is not A.AffineMapAttr:
                raise parser.error("expected an affine map for 'permutation_map'")
            state.operands.append(parser.resolve_operand(mask, infer_mask_type(vt, m.value)))
        state.attributes["operandSegmentSizes"] = A.DenseArrayAttr(
            A.i32, [1, len(idx), 1, 0 if mask is None else 1]
        )
        state.result_types = [vt]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.base)
        p.write("[")
        p.print_operands(self.indices)
        p.write("], ")
        p.print_operand(self.padding)
        if self.mask is not None:
            p.write(", ")
            p.print_operand(self.mask)
        self._print_tail(p, self.base.type, self.vector.type)

    def verify_op(self) -> None:
        st = self.base.type
        self._verify_transfer(st, self.vector.type, len(self.indices))
        if self.padding.type is not st.element_type:
            raise self.error("requires formal padding and source of the same elemental type")

    def get_effects(self) -> list[EffectInstance]:
        if type(self.base.type) is A.MemRefType:
            return [EffectInstance(READ, self.base)]
        return []


class TransferWriteOp(_TransferOp, MemoryEffectsOpInterface):
    """Writes a vector to a memref slice (or returns the updated tensor for a tensor base).

    The permutation map, `in_bounds` and optional mask are as for `vector.transfer_read`.

        vector.transfer_write %v, %m[%i, %j] {in_bounds = [true]} : vector<8xf32>, memref<?x?xf32>
    """

    name = "vector.transfer_write"
    traits = (AttrSizedOperandSegments,)
    valueToStore = operand(AnyVectorOfAnyRank)  # noqa: N815
    base = operand(ShapedSource)
    indices = var_operand(Index)
    mask = opt_operand(MaskVector)
    res = opt_result(Constraint(lambda t: type(t) is A.RankedTensorType, "ranked tensor"))

    def _vector_type(self) -> A.VectorType:
        return self.valueToStore.type

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        v = parser.parse_operand()
        parser.parse_punct(",")
        b = parser.parse_operand()
        idx = parser.parse_operand_list("square")
        mask = parser.parse_operand() if parser.parse_optional_punct(",") else None
        st, vt, m = cls._parse_tail(parser, state, vector_first=True)
        state.operands = [
            parser.resolve_operand(v, vt),
            parser.resolve_operand(b, st),
            *parser.resolve_operands(idx, [A.index] * len(idx)),
        ]
        if mask is not None:
            if type(m) is not A.AffineMapAttr:
                raise parser.error("expected an affine map for 'permutation_map'")
            state.operands.append(parser.resolve_operand(mask, infer_mask_type(vt, m.value)))
        state.attributes["operandSegmentSizes"] = A.DenseArrayAttr(
            A.i32, [1, 1, len(idx), 0 if mask is None else 1]
        )
        state.result_types = [st] if type(st) is A.RankedTensorType else []

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_operand(self.valueToStore)
        p.write(", ")
        p.print_operand(self.base)
        p.write("[")
        p.print_operands(self.indices)
        p.write("]")
        if self.mask is not None:
            p.write(", ")
            p.print_operand(self.mask)
        self._print_tail(p, self.valueToStore.type, self.base.type)

    def verify_op(self) -> None:
        st = self.base.type
        self._verify_transfer(st, self.valueToStore.type, len(self.indices))
        if type(st) is A.RankedTensorType:
            if len(self.results) != 1 or self.results[0].type is not st:
                raise self.error("expects a result of the tensor type of the base")
        elif self.results:
            raise self.error("expects no result when the base is a memref")

    def get_effects(self) -> list[EffectInstance]:
        if type(self.base.type) is A.MemRefType:
            return [EffectInstance(WRITE, self.base)]
        return []


def materialize_constant(
    value: A.Attribute, result_type: A.Type, location: A.Location | None = None
) -> Operation | None:
    """Constants folded from vector ops (splats, extracted scalars) are `arith.constant`s."""
    from mlc.dialects.arith import materialize_constant as arith_materialize

    return arith_materialize(value, result_type, location)


DIALECT = Dialect(
    "vector",
    ops=[
        BroadcastOp, SplatOp, FMAOp, ReductionOp, ExtractOp, InsertOp, ShuffleOp, LoadOp,
        StoreOp, TransferReadOp, TransferWriteOp,
    ],
    attributes=[CombiningKindAttr],
    materialize_constant=materialize_constant,
)  # fmt: skip
