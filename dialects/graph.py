"""The `graph` dialect: value-semantic tensor operators, the top level of mlc. Shapes follow
NumPy broadcasting; every op infers its result types (`graph_infer`) and the verifier checks the
declared types against them (`?` dims and unranked tensors are compatible with any size).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mlc.dialects import graph_infer as G
from mlc.dialects.graph_infer import (
    DYNAMIC,
    ELEMENT_TYPES,
    FLOAT_TYPES,
    PREDICATES,
    ShapeInferenceError,
    broadcast_shapes,
    types_compatible,
)

from mlc.ir import attributes as A
from mlc.ir.context import Dialect
from mlc.ir.core import Operation, Region, Value
from mlc.ir.opdef import (
    Commutative,
    ConstantLike,
    Constraint,
    DenseI64ArrayAttr,
    Elementwise,
    InferTypeOpInterface,
    IsolatedFromAbove,
    Op,
    OperationState,
    Pure,
    RecursiveMemoryEffects,
    ReturnLike,
    SameOperandsAndResultType,
    SingleBlock,
    StrAttr,
    Terminator,
    Trait,
    has_parent,
    int_attr_of,
    operand,
    opt_operand,
    prop,
    region,
    result,
    var_operand,
    var_result,
)

__all__ = [
    "DYNAMIC",
    "ELEMENT_TYPES",
    "FLOAT_TYPES",
    "PREDICATES",
    "ShapeInferenceError",
    "broadcast_shapes",
    "types_compatible",
    "DIALECT",
]

# ---------------------------------------------------------------------------------------------
# Constraints and traits

_ELEMENTS = frozenset(ELEMENT_TYPES)
_FLOATS = frozenset(FLOAT_TYPES)


def _is_graph_tensor(t: Any) -> bool:
    tt = type(t)
    return (tt is A.RankedTensorType or tt is A.UnrankedTensorType) and t.element_type in _ELEMENTS


GraphTensor = Constraint(_is_graph_tensor, "tensor of f16, f32, f64, i1, i32 or i64 values")
I64Attr = int_attr_of(A.i64)
BoolAttrC = Constraint(lambda a: type(a) is A.IntegerAttr and a.type is A.i1, "bool attribute")
_TensorDenseAttr = Constraint(
    lambda a: type(a) is A.DenseElementsAttr and type(a.type) is A.RankedTensorType,
    "dense elements attribute of tensor type",
)


class ResultsBroadcastableShape(Trait):
    """Result shape is the NumPy broadcast of the operand shapes (checked by inference)."""


def _i64_array(values: Sequence[int]) -> A.DenseArrayAttr:
    return A.DenseArrayAttr(A.i64, values)


FALSE = A.BoolAttr(False)

# Assembly formats shared by op families.
UNARY = "$input attr-dict `:` type($res)"
BINARY = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)"
WITH_ATTRS = "$input attr-dict `:` functional-type(operands, results)"


class GraphOp(Op, InferTypeOpInterface):
    """Base of graph ops: `verify_op` checks the declared result types against inference.

    `infer_from(operand_types, attributes, result_types, regions)` is the refinement hook for
    passes: like `infer_result_types`, but it may take what inference cannot know (graph.cast's
    element type) from the current result types.
    """

    @classmethod
    def infer_result_types(
        cls,
        operand_types: Sequence[A.Type],
        attributes: dict[str, A.Attribute],
        regions: Sequence[Region] = (),
    ) -> list[A.Type]:
        return cls._infer(list(operand_types), attributes or {})

    @classmethod
    def _infer(cls, types: list[A.Type], attrs: dict[str, Any]) -> list[A.Type]:
        raise NotImplementedError

    @classmethod
    def infer_from(
        cls,
        operand_types: Sequence[A.Type],
        attributes: dict[str, A.Attribute],
        result_types: Sequence[A.Type],
        regions: Sequence[Region] = (),
    ) -> list[A.Type]:
        return cls.infer_result_types(operand_types, attributes, regions)

    def verify_op(self) -> None:
        try:
            inferred = type(self).infer_from(
                [u.value.type for u in self._operands],
                self._attrs or {},
                [r.type for r in self.results],
                self.regions,
            )
        except ShapeInferenceError as e:
            raise self.error(str(e)) from None
        for r, t in zip(self.results, inferred):
            if not types_compatible(t, r.type):
                raise self.error(f"result type {r.type} is incompatible with the inferred {t}")

    def _ints(self, key: str) -> tuple[int, ...]:
        defaults = type(self)._int_defaults
        return G.int_list(self._attrs or {}, key, defaults.get(key))

    _int_defaults: dict[str, tuple[int, ...]] = {}


# ---------------------------------------------------------------------------------------------
# Constants


class ConstantOp(GraphOp):
    """A tensor constant.

    The result has the type of the dense elements attribute `value` (a ranked tensor of a graph
    element type). The op is ConstantLike: it folds to `value`, and the dialect materializes
    folded tensor constants as graph.constant.

        %0 = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
    """

    name = "graph.constant"
    traits = (Pure, ConstantLike)
    value = prop(_TensorDenseAttr)
    res = result(GraphTensor)
    format = "attr-dict $value"

    @classmethod
    def infer_result_types(
        cls,
        operand_types: Sequence[A.Type],
        attributes: dict[str, A.Attribute],
        regions: Sequence[Region] = (),
    ) -> list[A.Type]:
        value = (attributes or {}).get("value")
        if value is None:
            raise ShapeInferenceError("requires attribute 'value'")
        t = getattr(value, "type", None)
        if not _is_graph_tensor(t):
            raise ShapeInferenceError(f"value must have a graph tensor type, but has {t}")
        return [t]  # type: ignore[list-item]

    @classmethod
    def from_attr(cls, value: A.DenseElementsAttr, location: A.Location | None = None) -> Operation:
        """graph.constant holding `value`."""
        return cls.create((), [value.type], {"value": value}, location=location)

    def verify_op(self) -> None:
        super().verify_op()
        if self.value.type is not self.res.type:
            raise self.error(
                f"value type {self.value.type} does not match the result type {self.res.type}"
            )

    def fold(self, operand_attrs: list) -> A.Attribute:
        return self.value


def materialize_constant(
    value: A.Attribute, result_type: A.Type, location: A.Location | None = None
) -> Operation | None:
    """A graph.constant for a dense tensor attribute of `result_type` (None otherwise)."""
    if type(value) is not A.DenseElementsAttr or value.type is not result_type:
        return None
    if type(result_type) is not A.RankedTensorType or result_type.element_type not in _ELEMENTS:
        return None
    return ConstantOp.from_attr(value, location)


# ---------------------------------------------------------------------------------------------
# Broadcasting binary ops


class _BinaryOp(GraphOp):
    """Base of the broadcasting binary ops."""

    traits = (Pure, Elementwise, ResultsBroadcastableShape)
    lhs = operand(GraphTensor)
    rhs = operand(GraphTensor)
    res = result(GraphTensor)
    format = BINARY
    _float_only = False
    _allow_i1 = False

    @classmethod
    def _infer(cls, types: list[A.Type], attrs: dict[str, Any]) -> list[A.Type]:
        return G.infer_binary(types, cls._float_only, cls._allow_i1)

    def verify_op(self) -> None:
        # Fast path for the common case: one ranked type everywhere and an accepted element.
        ops = self._operands
        t = ops[0].value.type
        if ops[1].value.type is t and self.results[0].type is t and type(t) is A.RankedTensorType:
            et = t.element_type
            if et in _FLOATS or not (self._float_only or (et is A.i1 and not self._allow_i1)):
                return
        GraphOp.verify_op(self)


class AddOp(_BinaryOp):
    """Elementwise addition with NumPy broadcasting.

    Operands have the same element type (no implicit promotion); the result shape is the
    broadcast of the operand shapes. Integer addition wraps (two's complement); i1 is not
    supported.

        %2 = graph.add %0, %1 : (tensor<4x1xf32>, tensor<5xf32>) -> tensor<4x5xf32>
    """

    name = "graph.add"
    format = BINARY
    traits = (Pure, Elementwise, ResultsBroadcastableShape, Commutative)


class SubOp(_BinaryOp):
    """Elementwise subtraction `lhs - rhs` with NumPy broadcasting.

    Same element type for both operands; integers wrap; i1 is not supported.

        %2 = graph.sub %0, %1 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    """

    name = "graph.sub"
    format = BINARY


class MulOp(_BinaryOp):
    """Elementwise multiplication with NumPy broadcasting.

    Same element type for both operands; integers wrap; i1 is not supported.

        %2 = graph.mul %0, %1 : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
    """

    name = "graph.mul"
    format = BINARY
    traits = (Pure, Elementwise, ResultsBroadcastableShape, Commutative)


class DivOp(_BinaryOp):
    """Elementwise division `lhs / rhs` with NumPy broadcasting.

    Floats: IEEE division. Integers: truncation toward zero (arith.divsi); division by zero is
    undefined behaviour. i1 is not supported.

        %2 = graph.div %0, %1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    """

    name = "graph.div"
    format = BINARY


class MaxOp(_BinaryOp):
    """Elementwise maximum with NumPy broadcasting.

    Floats propagate NaN (np.maximum, arith.maximumf); on i1 it is logical or.

        %2 = graph.max %0, %1 : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    """

    name = "graph.max"
    format = BINARY
    traits = (Pure, Elementwise, ResultsBroadcastableShape, Commutative)
    _allow_i1 = True


class MinOp(_BinaryOp):
    """Elementwise minimum with NumPy broadcasting.

    Floats propagate NaN (np.minimum, arith.minimumf); on i1 it is logical and.

        %2 = graph.min %0, %1 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    """

    name = "graph.min"
    format = BINARY
    traits = (Pure, Elementwise, ResultsBroadcastableShape, Commutative)
    _allow_i1 = True


class PowOp(_BinaryOp):
    """Elementwise power `lhs ** rhs` with NumPy broadcasting, on floats only.

    Follows np.power on floats (a negative base with a non-integer exponent gives NaN).

        %2 = graph.pow %0, %1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    """

    name = "graph.pow"
    format = BINARY
    _float_only = True


class CmpOp(GraphOp):
    """Elementwise comparison by predicate, with NumPy broadcasting, giving i1.

    `predicate` is one of "eq", "ne", "lt", "le", "gt", "ge"; the operands have the same element
    type. Float comparisons are ordered: a NaN operand compares false, except "ne" which is
    true (NumPy's semantics).

        %2 = graph.cmp "lt", %0, %1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    """

    name = "graph.cmp"
    traits = (Pure, Elementwise, ResultsBroadcastableShape)
    predicate = prop(StrAttr)
    lhs = operand(GraphTensor)
    rhs = operand(GraphTensor)
    res = result(GraphTensor)
    format = "$predicate `,` $lhs `,` $rhs attr-dict `:` functional-type(operands, results)"

    @classmethod
    def _infer(cls, types: list[A.Type], attrs: dict[str, Any]) -> list[A.Type]:
        return G.infer_cmp(types, attrs)

    def predicate_value(self) -> str:
        """The predicate name ("eq", "ne", "lt", "le", "gt" or "ge")."""
        return G.predicate_value(self._attrs or {})


class SelectOp(GraphOp):
    """Elementwise choice `condition ? true_value : false_value`, broadcasting all three.

    The condition has i1 elements; both values have the same element type, which the result
    has; the result shape is the three-way NumPy broadcast.

        %3 = graph.select %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    """

    name = "graph.select"
    traits = (Pure, Elementwise, ResultsBroadcastableShape)
    condition = operand(GraphTensor)
    true_value = operand(GraphTensor)
    false_value = operand(GraphTensor)
    res = result(GraphTensor)
    format = (
        "$condition `,` $true_value `,` $false_value attr-dict `:` "
        "functional-type(operands, results)"
    )

    @classmethod
    def _infer(cls, types: list[A.Type], attrs: dict[str, Any]) -> list[A.Type]:
        return G.infer_select(types)


# ---------------------------------------------------------------------------------------------
# Unary ops


class _UnaryOp(GraphOp):
    """Base of the unary elementwise ops (result type = operand type)."""

    traits = (Pure, Elementwise, SameOperandsAndResultType)
    input = operand(GraphTensor)
    res = result(GraphTensor)
    format = UNARY
    _float_only = True

    @classmethod
    def _infer(cls, types: list[A.Type], attrs: dict[str, Any]) -> list[A.Type]:
        return G.infer_unary(types, cls._float_only)


class NegOp(_UnaryOp):
    """Elementwise negation, on floats and signed integers.

    Integers wrap (two's complement: -INT_MIN = INT_MIN); i1 is not supported.

        %1 = graph.neg %0 : tensor<4xi32>
    """

    name = "graph.neg"
    format = UNARY
    _float_only = False


class AbsOp(_UnaryOp):
    """Elementwise absolute value, on floats and signed integers.

    abs(INT_MIN) wraps to INT_MIN; abs(NaN) is NaN; i1 is not supported.

        %1 = graph.abs %0 : tensor<4xf32>
    """

    name = "graph.abs"
    format = UNARY
    _float_only = False


class ExpOp(_UnaryOp):
    """Elementwise base-e exponential, on floats.

    Overflow gives inf; exp(NaN) is NaN.

        %1 = graph.exp %0 : tensor<4xf32>
    """

    name = "graph.exp"
    format = UNARY


class LogOp(_UnaryOp):
    """Elementwise natural logarithm, on floats.

    log(0) = -inf, log(x < 0) = NaN, log(NaN) = NaN.

        %1 = graph.log %0 : tensor<4xf32>
    """

    name = "graph.log"
    format = UNARY


class SqrtOp(_UnaryOp):
    """Elementwise square root, on floats.

    sqrt(-0.0) = -0.0, sqrt(x < 0) = NaN.

        %1 = graph.sqrt %0 : tensor<4xf32>
    """

    name = "graph.sqrt"
    format = UNARY


class RsqrtOp(_UnaryOp):
    """Elementwise reciprocal square root, on floats.

    rsqrt(x) = 1 / sqrt(x): rsqrt(0) = inf, rsqrt(x < 0) = NaN.

        %1 = graph.rsqrt %0 : tensor<4xf32>
    """

    name = "graph.rsqrt"
    format = UNARY


class TanhOp(_UnaryOp):
    """Elementwise hyperbolic tangent, on floats.

    Saturates to -1/1; tanh(NaN) is NaN.

        %1 = graph.tanh %0 : tensor<4xf32>
    """

    name = "graph.tanh"
    format = UNARY


class SigmoidOp(_UnaryOp):
    """Elementwise logistic sigmoid, on floats.

    sigmoid(x) = 1 / (1 + exp(-x)), in [0, 1]; sigmoid(NaN) is NaN.

        %1 = graph.sigmoid %0 : tensor<4xf32>
    """

    name = "graph.sigmoid"
    format = UNARY


class ReluOp(_UnaryOp):
    """Elementwise rectifier, on floats and signed integers.

    relu(x) = max(x, 0) with NaN propagated (np.maximum); i1 is not supported.

        %1 = graph.relu %0 : tensor<4x5xf32>
    """

    name = "graph.relu"
    format = UNARY
    _float_only = False


class ErfOp(_UnaryOp):
    """Elementwise Gauss error function, on floats.

    erf(x) = 2 / sqrt(pi) * integral of exp(-t^2) from 0 to x, in [-1, 1].

        %1 = graph.erf %0 : tensor<4xf32>
    """

    name = "graph.erf"
    format = UNARY


class GeluOp(_UnaryOp):
    """Elementwise GELU, on floats.

    The exact form gelu(x) = 0.5 * x * (1 + erf(x / sqrt(2))), not the tanh approximation.

        %1 = graph.gelu %0 : tensor<4xf32>
    """

    name = "graph.gelu"
    format = UNARY


class CastOp(GraphOp):
    """Elementwise element-type conversion; the shape is preserved.

    The target element type is the result's. float->float rounds to nearest; int->float is
    exact or rounds; float->int truncates toward zero (out-of-range values are undefined);
    int->int sign-extends or wraps (two's complement); any->i1 is `x != 0`; i1->int gives
    0/1 and i1->float 0.0/1.0. Inference cannot know the target element type, so
    `infer_result_types` fails; `infer_from` takes it from the current result type.

        %1 = graph.cast %0 : tensor<4xf32> to tensor<4xi32>
    """

    name = "graph.cast"
    traits = (Pure, Elementwise)
    input = operand(GraphTensor)
    res = result(GraphTensor)
    format = "$input attr-dict `:` type($input) `to` type($res)"

    @classmethod
    def _infer(cls, types: list[A.Type], attrs: dict[str, Any]) -> list[A.Type]:
        raise ShapeInferenceError(
            "not supported: inferring the result element type of graph.cast "
            "(it comes from the result type)"
        )

    @classmethod
    def infer_from(
        cls,
        operand_types: Sequence[A.Type],
        attributes: dict[str, A.Attribute],
        result_types: Sequence[A.Type],
        regions: Sequence[Region] = (),
    ) -> list[A.Type]:
        return G.infer_cast(operand_types[0], A.element_type_of(result_types[0]))

    @classmethod
    def get(cls, value: Value, element_type: A.Type) -> Operation:
        """graph.cast of `value` to `element_type` (shape preserved)."""
        return cls.create([value], G.infer_cast(value.type, element_type))

    def fold(self, operand_attrs: list) -> Value | None:
        return self.input if self.input.type is self.res.type else None


# ---------------------------------------------------------------------------------------------
# Linear algebra and data movement


class MatmulOp(GraphOp):
    """Matrix product with broadcast batch dimensions (np.matmul on rank >= 2).

    `lhs[..., m, k] @ rhs[..., k, n] -> [..., m, n]`: both ranks >= 2 (rank-1 operands are
    rejected, unlike NumPy), equal element types (not i1), the two k dims equal (or one is `?`),
    and the batch dims broadcast by NumPy's rules. Integer products and sums wrap.

        %2 = graph.matmul %0, %1 : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
    """

    name = "graph.matmul"
    traits = (Pure,)
    lhs = operand(GraphTensor)
    rhs = operand(GraphTensor)
    res = result(GraphTensor)
    format = BINARY

    @classmethod
    def _infer(cls, types: list[A.Type], attrs: dict[str, Any]) -> list[A.Type]:
        return G.infer_matmul(types)


class TransposeOp(GraphOp):
    """Permutation of the dimensions: `result.shape[i] = input.shape[perm[i]]` (np.transpose).

    `perm` is a permutation of 0..rank-1. The identity permutation folds to the operand.

        %1 = graph.transpose %0 {perm = array<i64: 1, 0>} : (tensor<4x5xf32>) -> tensor<5x4xf32>
    """

    name = "graph.transpose"
    traits = (Pure,)
    input = operand(GraphTensor)
    res = result(GraphTensor)
    perm = prop(DenseI64ArrayAttr)
    format = WITH_ATTRS

    @classmethod
    def _infer(cls, types: list[A.Type], attrs: dict[str, Any]) -> list[A.Type]:
        return G.infer_transpose(types[0], attrs)

    def perm_value(self) -> tuple[int, ...]:
        return self._ints("perm")

    def fold(self, operand_attrs: list) -> Value | None:
        perm = self.perm_value()
        if self.input.type is self.res.type and perm == tuple(range(len(perm))):
            return self.input
        return None


class ReshapeOp(GraphOp):
    """Reshape in row-major (C) order to `shape`.

    Entries are >= 0 or a single -1. With a static operand the element counts must match and
    the -1 entry is inferred; with a dynamic operand the -1 dim is `?`. The result type may
    have `?` where `shape` has -1. A reshape to the identical type folds to the operand.

        %1 = graph.reshape %0 {shape = array<i64: 2, -1>} : (tensor<4x3xf32>) -> tensor<2x6xf32>
    """

    name = "graph.reshape"
    traits = (Pure,)
    input = operand(GraphTensor)
    res = result(GraphTensor)
    shape = prop(DenseI64ArrayAttr)
    format = WITH_ATTRS

    @classmethod
    def _infer(cls, types: list[A.Type], attrs: dict[str, Any]) -> list[A.Type]:
        return G.infer_reshape(types[0], attrs)

    def shape_value(self) -> tuple[int, ...]:
        """The `shape` entries as written (-1 included)."""
        return self._ints("shape")

    def fold(self, operand_attrs: list) -> Value | None:
        return self.input if self.input.type is self.res.type else None


class BroadcastToOp(GraphOp):
    """Broadcast to `shape` with NumPy's broadcast_to semantics.

    The target rank is >= the operand rank; dims align at the end; each operand dim is 1 or
    equal to the target dim. Broadcasting to the identical type folds to the operand.

        %1 = graph.broadcast_to %0 {shape = array<i64: 4, 3>} : (tensor<3xf32>) -> tensor<4x3xf32>
    """

    name = "graph.broadcast_to"
    traits = (Pure,)
    input = operand(GraphTensor)
    res = result(GraphTensor)
    shape = prop(DenseI64ArrayAttr)
    format = WITH_ATTRS

    @classmethod
    def _infer(cls, types: list[A.Type], attrs: dict[str, Any]) -> list[A.Type]:
        return G.infer_broadcast_to(types[0], attrs)

    def shape_value(self) -> tuple[int, ...]:
        return self._ints("shape")

    def fold(self, operand_attrs: list) -> Value | None:
        return self.input if self.input.type is self.res.type else None


class ConcatOp(GraphOp):
    """Concatenation of one or more tensors along `axis`.

    Operands have the same rank and element type; `axis` is in [0, rank) (negative axes are
    rejected); all dims but the axis dim are equal, the axis dims sum (`?` if any is `?`).

        %2 = graph.concat %0, %1 {axis = 0 : i64} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
    """  # noqa: E501

    name = "graph.concat"
    traits = (Pure,)
    inputs = var_operand(GraphTensor)
    res = result(GraphTensor)
    axis = prop(I64Attr)
    format = "$inputs attr-dict `:` functional-type(operands, results)"

    @classmethod
    def _infer(cls, types: list[A.Type], attrs: dict[str, Any]) -> list[A.Type]:
        return G.infer_concat(types, attrs)

    def axis_value(self) -> int:
        return G.int_value(self._attrs or {}, "axis")


class SliceOp(GraphOp):
    """Strided slice `input[starts:limits:strides]` per dimension (like stablehlo.slice).

    `starts`, `limits`, `strides` each have one entry per dim; strides >= 1 and
    0 <= start <= limit <= dim (checked when the dim is static). Result dim i is
    ceil((limits[i] - starts[i]) / strides[i]).

        %1 = graph.slice %0 {limits = array<i64: 4, 6>, starts = array<i64: 0, 1>, strides = array<i64: 2, 2>} : (tensor<4x6xf32>) -> tensor<2x3xf32>
    """  # noqa: E501

    name = "graph.slice"
    traits = (Pure,)
    input = operand(GraphTensor)
    res = result(GraphTensor)
    starts = prop(DenseI64ArrayAttr)
    limits = prop(DenseI64ArrayAttr)
    strides = prop(DenseI64ArrayAttr)
    format = WITH_ATTRS

    @classmethod
    def _infer(cls, types: list[A.Type], attrs: dict[str, Any]) -> list[A.Type]:
        return G.infer_slice(types[0], attrs)

    def starts_value(self) -> tuple[int, ...]:
        return self._ints("starts")

    def limits_value(self) -> tuple[int, ...]:
        return self._ints("limits")

    def strides_value(self) -> tuple[int, ...]:
        return self._ints("strides")


# ---------------------------------------------------------------------------------------------
# Reductions and softmax


class _ReduceOp(GraphOp):
    """Base of the reductions over `axes` with `keepdims`."""

    traits = (Pure,)
    input = operand(GraphTensor)
    res = result(GraphTensor)
    axes = prop(DenseI64ArrayAttr)
    keepdims = prop(BoolAttrC, default=FALSE)
    format = WITH_ATTRS
    _float_only = False
    _allow_i1 = False

    @classmethod
    def _infer(cls, types: list[A.Type], attrs: dict[str, Any]) -> list[A.Type]:
        return G.infer_reduce(types[0], attrs, cls._float_only, cls._allow_i1)

    def axes_value(self) -> tuple[int, ...]:
        return self._ints("axes")

    def keepdims_value(self) -> bool:
        return G.bool_value(self._attrs or {}, "keepdims", False)


class ReduceSumOp(_ReduceOp):
    """Sum over `axes` (strictly increasing, in [0, rank), possibly empty).

    With keepdims (default false) the reduced dims stay as size 1. An empty reduced dim gives
    0. Integer sums wrap; i1 is not supported (as graph.add).

        %1 = graph.reduce_sum %0 {axes = array<i64: 1>, keepdims = true} : (tensor<4x5xf32>) -> tensor<4x1xf32>
    """  # noqa: E501

    name = "graph.reduce_sum"
    format = WITH_ATTRS


class ReduceMaxOp(_ReduceOp):
    """Maximum over `axes` (strictly increasing, in [0, rank), possibly empty).

    NaN propagates (np.max); on i1 it is logical or. Reducing an empty dim is undefined.

        %1 = graph.reduce_max %0 {axes = array<i64: 0>} : (tensor<4x5xf32>) -> tensor<5xf32>
    """

    name = "graph.reduce_max"
    format = WITH_ATTRS
    _allow_i1 = True


class ReduceMinOp(_ReduceOp):
    """Minimum over `axes` (strictly increasing, in [0, rank), possibly empty).

    NaN propagates (np.min); on i1 it is logical and. Reducing an empty dim is undefined.

        %1 = graph.reduce_min %0 {axes = array<i64: 0, 1>} : (tensor<4x5xi32>) -> tensor<i32>
    """

    name = "graph.reduce_min"
    format = WITH_ATTRS
    _allow_i1 = True


class ReduceMeanOp(_ReduceOp):
    """Arithmetic mean over `axes`, on floats only.

    `axes` and `keepdims` as graph.reduce_sum; an empty reduced dim gives NaN.

        %1 = graph.reduce_mean %0 {axes = array<i64: 1>} : (tensor<4x5xf32>) -> tensor<4xf32>
    """

    name = "graph.reduce_mean"
    format = WITH_ATTRS
    _float_only = True


class SoftmaxOp(GraphOp):
    """Softmax along `axis`, on floats: exp(x - max) / sum(exp(x - max)) (numerically stable).

    `axis` is in [0, rank); the result type is the operand type.

        %1 = graph.softmax %0 {axis = 1 : i64} : (tensor<2x10xf32>) -> tensor<2x10xf32>
    """

    name = "graph.softmax"
    traits = (Pure,)
    input = operand(GraphTensor)
    res = result(GraphTensor)
    axis = prop(I64Attr)
    format = WITH_ATTRS

    @classmethod
    def _infer(cls, types: list[A.Type], attrs: dict[str, Any]) -> list[A.Type]:
        return G.infer_softmax(types[0], attrs)

    def axis_value(self) -> int:
        return G.int_value(self._attrs or {}, "axis")


# ---------------------------------------------------------------------------------------------
# Convolution and pooling


class Conv2DOp(GraphOp):
    """2-D convolution (cross-correlation), NCHW input, OIHW filter, optional bias [O].

    input [N, C, H, W], filter [O, C/G, KH, KW] -> [N, O, OH, OW] with
    OH = (H + top + bottom - dh * (KH - 1) - 1) // sh + 1 and
    OW = (W + left + right - dw * (KW - 1) - 1) // sw + 1 (>= 1 when static). Properties:
    strides [sh, sw] (default [1, 1]), pads [top, left, bottom, right] (default zeros, zero
    padding), dilations [dh, dw] (default [1, 1]), groups G (default 1) with C == G * C/G and
    O % G == 0. Float element types only.

        %2 = graph.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32>
    """  # noqa: E501

    name = "graph.conv2d"
    traits = (Pure,)
    input = operand(GraphTensor)
    filter = operand(GraphTensor)
    bias = opt_operand(GraphTensor)
    res = result(GraphTensor)
    strides = prop(DenseI64ArrayAttr, default=_i64_array(G.CONV_DEFAULTS["strides"]))
    pads = prop(DenseI64ArrayAttr, default=_i64_array(G.CONV_DEFAULTS["pads"]))
    dilations = prop(DenseI64ArrayAttr, default=_i64_array(G.CONV_DEFAULTS["dilations"]))
    groups = prop(I64Attr, default=A.IntegerAttr(1, A.i64))
    format = "$input `,` $filter (`,` $bias^)? attr-dict `:` functional-type(operands, results)"
    _int_defaults = G.CONV_DEFAULTS

    @classmethod
    def _infer(cls, types: list[A.Type], attrs: dict[str, Any]) -> list[A.Type]:
        return G.infer_conv2d(types, attrs)

    def strides_value(self) -> tuple[int, ...]:
        return self._ints("strides")

    def pads_value(self) -> tuple[int, ...]:
        """(top, left, bottom, right)."""
        return self._ints("pads")

    def dilations_value(self) -> tuple[int, ...]:
        return self._ints("dilations")

    def groups_value(self) -> int:
        return G.int_value(self._attrs or {}, "groups", 1)


class _Pool2DOp(GraphOp):
    """Base of the 2-D poolings."""

    traits = (Pure,)
    input = operand(GraphTensor)
    res = result(GraphTensor)
    kernel = prop(DenseI64ArrayAttr)
    strides = prop(DenseI64ArrayAttr, default=_i64_array(G.POOL_DEFAULTS["strides"]))
    pads = prop(DenseI64ArrayAttr, default=_i64_array(G.POOL_DEFAULTS["pads"]))
    format = WITH_ATTRS
    _int_defaults = G.POOL_DEFAULTS

    @classmethod
    def _infer(cls, types: list[A.Type], attrs: dict[str, Any]) -> list[A.Type]:
        return G.infer_pool2d(types[0], attrs)

    def kernel_value(self) -> tuple[int, ...]:
        return self._ints("kernel")

    def strides_value(self) -> tuple[int, ...]:
        return self._ints("strides")

    def pads_value(self) -> tuple[int, ...]:
        """(top, left, bottom, right)."""
        return self._ints("pads")


class MaxPool2DOp(_Pool2DOp):
    """2-D max pooling over NCHW windows; padding is -inf.

    input [N, C, H, W] -> [N, C, OH, OW] with OH = (H + top + bottom - kh) // sh + 1 and
    OW = (W + left + right - kw) // sw + 1 (>= 1 when static). kernel [kh, kw] is required,
    strides default [1, 1], pads [top, left, bottom, right] default zeros, each pad smaller
    than the kernel in its dim. Float element types only; NaN propagates.

        %1 = graph.max_pool2d %0 {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
    """  # noqa: E501

    name = "graph.max_pool2d"
    format = WITH_ATTRS


class AvgPool2DOp(_Pool2DOp):
    """2-D average pooling over NCHW windows, not counting padding.

    Output sizes as graph.max_pool2d. Each window sum is divided by the number of non-padded
    elements in it (count_include_pad = false, as ONNX's default and TOSA). Float only.

        %1 = graph.avg_pool2d %0 {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
    """  # noqa: E501

    name = "graph.avg_pool2d"
    format = WITH_ATTRS


# ---------------------------------------------------------------------------------------------
# Fusion


class FusedOp(GraphOp):
    """A fused group of graph ops, which lowering turns into one kernel.

    The unit that fusion produces. The single-block region is isolated from above; its entry
    block arguments bind the inputs (same count and types) and its graph.yield gives the
    results (types equal to the op's result types). The body may hold graph, arith and math
    ops.

        %r = graph.fused ins(%a, %b : tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
        ^bb0(%x: tensor<4xf32>, %y: tensor<4xf32>):
          %s = graph.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
          %t = graph.relu %s : tensor<4xf32>
          graph.yield %t : tensor<4xf32>
        }
    """

    name = "graph.fused"
    traits = (IsolatedFromAbove, SingleBlock, RecursiveMemoryEffects)
    inputs = var_operand(GraphTensor)
    outputs = var_result(GraphTensor)
    body = region()

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        # [ins(%a, %b : ta, tb)] [-> t | -> (t1, t2)] [attributes {...}] region
        if parser.parse_optional_keyword("ins"):
            parser.parse_punct("(")
            names = parser.parse_operand_list()
            parser.parse_punct(":")
            types = parser.parse_type_list()
            parser.parse_punct(")")
            state.operands = parser.resolve_operands(names, types)
        state.result_types = list(parser.parse_optional_arrow_type_list() or ())
        parser.parse_optional_attr_dict_with_keyword(state.attributes)
        state.regions.append(parser.parse_region())

    def print_asm(self, p: Any) -> None:
        inputs = self.operands
        if inputs:
            p.write(" ins(")
            p.print_operands(inputs)
            p.write(" : ")
            p.print_types([v.type for v in inputs])
            p.write(")")
        if self.results:
            p.write(" ")
            p.print_arrow_type_list([r.type for r in self.results])
        p.print_attr_dict_with_keyword(self.attributes)
        p.write(" ")
        p.print_region(self.regions[0])

    @classmethod
    def infer_result_types(
        cls,
        operand_types: Sequence[A.Type],
        attributes: dict[str, A.Attribute],
        regions: Sequence[Region] = (),
    ) -> list[A.Type]:
        if not regions or not regions[0].blocks:
            raise ShapeInferenceError("requires a body block ending in graph.yield")
        last = regions[0].blocks[0].last
        if type(last) is not YieldOp:
            raise ShapeInferenceError("body must end with graph.yield")
        return [u.value.type for u in last._operands]

    @classmethod
    def from_region(
        cls, inputs: Sequence[Value], body: Region, location: A.Location | None = None
    ) -> Operation:
        """graph.fused over `inputs` with detached region `body`; the result types are those of
        its graph.yield."""
        types = cls.infer_result_types([v.type for v in inputs], {}, [body])
        return cls.create(list(inputs), types, None, [body], (), location)

    def verify_op(self) -> None:
        body = self.regions[0]
        if not body.blocks:
            raise self.error("requires a body block ending in graph.yield")
        args = body.blocks[0].arguments
        inputs = self._operands
        if len(args) != len(inputs):
            raise self.error(f"body has {len(args)} arguments, but the op has {len(inputs)} inputs")
        for i, (arg, u) in enumerate(zip(args, inputs)):
            if arg.type is not u.value.type:
                raise self.error(
                    f"body argument #{i} has type {arg.type}, but input #{i} has type "
                    f"{u.value.type}"
                )
        if type(body.blocks[0].last) is not YieldOp:
            raise self.error("body must end with graph.yield")


class YieldOp(Op):
    """Terminator of graph.fused: gives the fused op's results.

    Its operand types equal the parent graph.fused's result types.

        graph.yield %0, %1 : tensor<4xf32>, tensor<4xi1>
    """

    name = "graph.yield"
    traits = (Pure, Terminator, ReturnLike, has_parent("graph.fused"))
    values = var_operand(GraphTensor)
    format = "attr-dict ($values^ `:` type($values))?"

    def verify_op(self) -> None:
        parent = self.parent_op
        if type(parent) is not FusedOp:
            return  # the HasParent trait reports it
        types = [u.value.type for u in self._operands]
        expected = [r.type for r in parent.results]
        if len(types) != len(expected):
            raise self.error(
                f"has {len(types)} operands, but the enclosing graph.fused has "
                f"{len(expected)} results"
            )
        for i, (t, e) in enumerate(zip(types, expected)):
            if t is not e:
                raise self.error(
                    f"operand #{i} has type {t}, but the enclosing graph.fused result #{i} "
                    f"has type {e}"
                )


DIALECT = Dialect(
    "graph",
    ops=[
        ConstantOp,
        AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp, PowOp, CmpOp, SelectOp,
        NegOp, AbsOp, ExpOp, LogOp, SqrtOp, RsqrtOp, TanhOp, SigmoidOp, ReluOp, ErfOp, GeluOp,
        CastOp, MatmulOp, TransposeOp, ReshapeOp, BroadcastToOp, ConcatOp, SliceOp,
        ReduceSumOp, ReduceMaxOp, ReduceMinOp, ReduceMeanOp, SoftmaxOp,
        Conv2DOp, MaxPool2DOp, AvgPool2DOp, FusedOp, YieldOp,
    ],
    materialize_constant=materialize_constant,
)  # fmt: skip

# The canonicalization patterns use the op classes above: importing the module attaches them to
# DIALECT (see graph_canon).
from mlc.dialects import graph_canon as _graph_canon  # noqa: E402, F401
