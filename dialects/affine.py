"""The `affine` dialect: loops (`affine.for`, `affine.parallel`), conditionals (`affine.if`) and
memory accesses whose indices are affine maps of loop induction variables and symbols, with
MLIR's properties, custom syntax, verifiers, folders and canonicalizations.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mlc.dialects import affine_analysis as AA
from mlc.dialects import affine_syntax as S
from mlc.dialects.affine_ops import (
    ApplyOp,
    LoadOp,
    MaxOp,
    MinOp,
    PrefetchOp,
    StoreOp,
    VectorLoadOp,
    VectorStoreOp,
    _q,
    notify_dropped,
)
from mlc.dialects.arith import ATOMIC_RMW_KINDS, AtomicRMWKindAttr, atomic_rmw_kind_matches
from mlc.dialects.arith import materialize_constant as _arith_materialize

from mlc.interfaces import (
    ConditionallySpeculatable,
    LoopLikeOpInterface,
)
from mlc.ir import attributes as A
from mlc.ir.affine import (
    AffineConstantExpr,
    AffineMap,
    IntegerSet,
    const,
    sym,
)
from mlc.ir.context import Dialect
from mlc.ir.core import Block, Operation, Region, Value
from mlc.ir.opdef import (
    AffineMapAttrC,
    AnyType,
    AttrSizedOperandSegments,
    Constraint,
    Index,
    IntegerSetAttrC,
    Op,
    OperationState,
    Pure,
    RecursiveMemoryEffects,
    ReturnLike,
    Terminator,
    prop,
    region,
    single_block_implicit_terminator,
    var_operand,
    var_result,
)
from mlc.rewrite.pattern import PatternRewriter

_ONE = A.IntegerAttr(1, A.index)
_IMPLICIT_YIELD = single_block_implicit_terminator("affine.yield")

I32TensorAttrC = Constraint(
    lambda a: (
        type(a) is A.DenseElementsAttr
        and type(a.type) is A.RankedTensorType
        and a.type.element_type is A.i32
        and len(a.type.shape) == 1
    ),
    "32-bit signless integer elements attribute",
)
I64ArrayAttrC = Constraint(
    lambda a: (
        type(a) is A.ArrayAttr
        and all(type(x) is A.IntegerAttr and x.type is A.i64 for x in a.value)
    ),
    "64-bit integer array attribute",
)
ReductionsAttrC = Constraint(
    lambda a: (
        type(a) is A.ArrayAttr and all(AtomicRMWKindAttr.name_of(x) is not None for x in a.value)
    ),
    "Reduction ops",
)
IndexAttrC = Constraint(lambda a: type(a) is A.IntegerAttr and a.type is A.index, "index attribute")


def _i32_tensor(values: Sequence[int]) -> A.DenseElementsAttr:
    return A.DenseElementsAttr(A.RankedTensorType([len(values)], A.i32), list(values))


def _groups(attr: A.DenseElementsAttr) -> list[int]:
    return [int(x) for x in attr.array.reshape(-1)]


# Custom forms elide an operand-less affine.yield, as MLIR does, except when printing debug info:
# a re-parsed implicit yield would get the parent's location, so it is printed with its own.


def _yield_builder(location: A.Location | None) -> Callable[[], Operation]:
    return lambda: YieldOp.create((), (), None, location=location)


# ---------------------------------------------------------------------------------------------
# affine.yield


class YieldOp(Op):
    """Terminate an affine.for, affine.parallel or affine.if region, yielding its values.

    The operand types must be the parent's result types. A yield without operands may be left
    out of the custom syntax: the parser adds it.

        affine.yield %sum, %prod : f32, f32
    """

    name = "affine.yield"
    traits = (Pure, Terminator, ReturnLike)
    operands_ = var_operand(AnyType)
    format = "attr-dict ($operands_^ `:` type($operands_))?"

    def verify_op(self) -> None:
        parent = self.parent_op
        if type(parent) not in (ForOp, IfOp, ParallelOp):
            raise self.error("only terminates affine.if/for/parallel regions")
        results = parent.results  # type: ignore[union-attr]
        uses = self._operands
        if len(results) != len(uses):
            raise self.error(
                "parent of yield must have same number of results as the yield operands"
            )
        for r, u in zip(results, uses):
            if r.type is not u.value.type:
                raise self.error("types mismatch between yield op and its parent")


# ---------------------------------------------------------------------------------------------
# affine.for


class ForOp(Op, LoopLikeOpInterface, ConditionallySpeculatable):
    """A loop with affine bounds, a constant positive step and optional loop-carried values.

    The bounds are affine maps of dims and symbols; a bound with several results is the max
    (lower) or min (upper) of them. The body's first argument is the induction variable, the
    others the `iter_args`, initialized from the init operands and updated by the body's
    affine.yield; the results are their final values. Implements the loop-like interface
    (LICM and the tiling passes use it); constant bounds are folded into the maps, and a loop
    doing nothing is removed by canonicalization.

        %sum = affine.for %i = 0 to %n step 4 iter_args(%acc = %zero) -> (f32) {
          %v = affine.load %A[%i] : memref<?xf32>
          %s = arith.addf %acc, %v : f32
          affine.yield %s : f32
        }
        affine.for %j = max #lb(%i)[%n] to min #ub(%i)[%n] {
        }
    """

    name = "affine.for"
    traits = (AttrSizedOperandSegments, RecursiveMemoryEffects, _IMPLICIT_YIELD)
    lowerBoundOperands = var_operand(Index)  # noqa: N815 - MLIR's names
    upperBoundOperands = var_operand(Index)  # noqa: N815
    inits = var_operand(AnyType)
    res = var_result(AnyType)
    lowerBoundMap = prop(AffineMapAttrC)  # noqa: N815
    upperBoundMap = prop(AffineMapAttrC)  # noqa: N815
    step = prop(IndexAttrC)
    body = region()

    # -- building -------------------------------------------------------------------------------

    @classmethod
    def build_for(
        cls,
        lower: int | Value | tuple[AffineMap, Sequence[Value]],
        upper: int | Value | tuple[AffineMap, Sequence[Value]],
        step: int = 1,
        iter_args: Sequence[Value] = (),
        location: A.Location | None = None,
    ) -> ForOp:
        """A loop with its body block (induction variable, then one argument per iter_arg).

        A bound is an int (constant map), an index Value (`()[s0] -> (s0)`), or a map with its
        operands. Without iter_args the body gets its affine.yield; with them the caller adds
        the yield of the loop-carried values.
        """
        if step <= 0:
            raise ValueError(f"affine.for step must be positive, got {step}")
        lb_map, lb_ops = _bound(lower)
        ub_map, ub_ops = _bound(upper)
        attrs: dict[str, A.Attribute] = {
            "lowerBoundMap": A.AffineMapAttr(lb_map),
            "upperBoundMap": A.AffineMapAttr(ub_map),
            "step": A.IntegerAttr(step, A.index),
            "operandSegmentSizes": A.DenseArrayAttr(
                A.i32, [len(lb_ops), len(ub_ops), len(iter_args)]
            ),
        }
        block = Block(
            [A.index, *(v.type for v in iter_args)],
            [location] * (1 + len(iter_args)) if location else None,
        )
        if not iter_args:
            block.append(_yield_builder(location)())
        operands = [*lb_ops, *ub_ops, *iter_args]
        types = [v.type for v in iter_args]
        return cls.create(operands, types, attrs, [Region([block])], location=location)  # type: ignore[return-value]

    @classmethod
    def build(  # type: ignore[override]
        cls,
        operands: Any = (),
        result_types: Any = None,
        attributes: Any = None,
        regions: Any = None,
        successors: Sequence[Block] = (),
        location: A.Location | None = None,
        *,
        iter_args: Sequence[Value] = (),
    ) -> Operation:
        """`ForOp.build(lb, ub, step=1, iter_args=...)` with int / index Value / (map,
        operands) bounds builds through `build_for`; operand groups build as for any op."""
        lb = operands
        if isinstance(lb, (int, Value)) or (
            type(lb) is tuple and len(lb) == 2 and type(lb[0]) is AffineMap
        ):
            step = 1 if attributes is None else attributes
            return cls.build_for(lb, result_types, step, iter_args, location)
        return super().build(operands, result_types, attributes, regions, successors, location)

    # -- accessors ------------------------------------------------------------------------------

    @property
    def lower_bound_map(self) -> AffineMap:
        return self.get_attr("lowerBoundMap").value  # type: ignore[union-attr, no-any-return]

    @property
    def upper_bound_map(self) -> AffineMap:
        return self.get_attr("upperBoundMap").value  # type: ignore[union-attr, no-any-return]

    @property
    def step_value(self) -> int:
        return self.get_attr("step").value  # type: ignore[union-attr, no-any-return]

    @property
    def body_block(self) -> Block:
        return self.regions[0].blocks[0]

    @property
    def induction_var(self) -> Value:
        return self.regions[0].blocks[0].arguments[0]

    @property
    def region_iter_args(self) -> list[Value]:
        return list(self.regions[0].blocks[0].arguments[1:])

    def induction_vars(self) -> Sequence[Value]:
        return (self.induction_var,)

    def has_constant_lower_bound(self) -> bool:
        return self.lower_bound_map.is_single_constant()

    def has_constant_upper_bound(self) -> bool:
        return self.upper_bound_map.is_single_constant()

    def constant_lower_bound(self) -> int | None:
        """The lower bound when it is a single constant, else None."""
        m = self.lower_bound_map
        return m.results[0].value if m.is_single_constant() else None  # type: ignore[attr-defined]

    def constant_upper_bound(self) -> int | None:
        """The upper bound when it is a single constant, else None."""
        m = self.upper_bound_map
        return m.results[0].value if m.is_single_constant() else None  # type: ignore[attr-defined]

    def constant_trip_count(self) -> int | None:
        """ceil((ub - lb) / step) (0 for an empty range) when both bounds are constants."""
        lb, ub = self.constant_lower_bound(), self.constant_upper_bound()
        if lb is None or ub is None:
            return None
        step = self.step_value
        return 0 if ub <= lb else (ub - lb + step - 1) // step

    # MLIR's LoopLikeOpInterface single-loop queries (constants only, else None).
    def single_induction_var(self) -> Value:
        return self.induction_var

    def single_lower_bound(self) -> int | None:
        return self.constant_lower_bound()

    def single_upper_bound(self) -> int | None:
        return self.constant_upper_bound()

    def single_step(self) -> int:
        return self.step_value

    def set_lower_bound(self, amap: AffineMap, operands: Sequence[Value]) -> None:
        self._set_bound(0, amap, operands)

    def set_upper_bound(self, amap: AffineMap, operands: Sequence[Value]) -> None:
        self._set_bound(1, amap, operands)

    def _set_bound(self, which: int, amap: AffineMap, operands: Sequence[Value]) -> None:
        groups = [list(self.lowerBoundOperands), list(self.upperBoundOperands), list(self.inits)]
        groups[which] = list(operands)
        self.set_operands([v for g in groups for v in g])
        self.set_attr("operandSegmentSizes", A.DenseArrayAttr(A.i32, [len(g) for g in groups]))
        self.set_attr("lowerBoundMap" if which == 0 else "upperBoundMap", A.AffineMapAttr(amap))

    def is_speculatable(self) -> bool:
        # A unit-step loop terminates whatever its bounds (MLIR's RecursivelySpeculatable).
        return self.step_value == 1

    # -- syntax ---------------------------------------------------------------------------------

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        iv = parser.parse_argument(allow_type=False)
        iv.type = A.index
        parser.parse_punct("=")
        lb_map, lb_ops = S.parse_loop_bound(parser, True)
        parser.parse_keyword("to")
        ub_map, ub_ops = S.parse_loop_bound(parser, False)
        attrs = state.attributes
        attrs["step"] = _ONE
        if parser.parse_optional_keyword("step") is not None:
            pos = parser.pos()
            step = parser.parse_attribute(A.index)
            if type(step) is not A.IntegerAttr or step.value <= 0:
                raise parser.error(
                    "expected step to be representable as a positive signed integer", pos
                )
            attrs["step"] = A.IntegerAttr(step.value, A.index)
        args = [iv]
        inits: list[Value] = []
        if parser.parse_optional_keyword("iter_args") is not None:
            pairs: list[tuple[Any, Any]] = []

            def one() -> None:
                arg = parser.parse_argument(allow_type=False)
                parser.parse_punct("=")
                pairs.append((arg, parser.parse_operand()))

            parser.parse_comma_separated_list("paren", one)
            pos = parser.pos()
            types = parser.parse_arrow_type_list()
            if len(types) != len(pairs):
                raise parser.error(
                    "mismatch between the number of loop-carried values and results", pos
                )
            for (arg, use), t in zip(pairs, types):
                arg.type = t
                args.append(arg)
                inits.append(parser.resolve_operand(use, t))
            state.result_types = list(types)
        attrs["lowerBoundMap"] = A.AffineMapAttr(lb_map)
        attrs["upperBoundMap"] = A.AffineMapAttr(ub_map)
        attrs["operandSegmentSizes"] = A.DenseArrayAttr(
            A.i32, [len(lb_ops), len(ub_ops), len(inits)]
        )
        body = parser.parse_region(args)
        parser.ensure_terminator(body, _yield_builder(state.location))
        parser.parse_optional_attr_dict(attrs)
        state.operands = [*lb_ops, *ub_ops, *inits]
        state.regions = [body]

    def print_asm(self, p: Any) -> None:
        block = self.regions[0].blocks[0]
        p.write(" ")
        p.print_region_argument(block.arguments[0], omit_type=True)
        p.write(" = ")
        S.print_loop_bound(p, self.lower_bound_map, self.lowerBoundOperands, "max")
        p.write(" to ")
        S.print_loop_bound(p, self.upper_bound_map, self.upperBoundOperands, "min")
        step = self.step_value
        if step != 1:
            p.write(f" step {step}")
        inits = self.inits
        if inits:
            p.write(" iter_args(")
            for i, (arg, init) in enumerate(zip(block.arguments[1:], inits)):
                if i:
                    p.write(", ")
                p.print_region_argument(arg, omit_type=True)
                p.write(" = ")
                p.print_operand(init)
            p.write(") -> (")
            p.print_types([r.type for r in self.results])
            p.write(")")
        p.write(" ")
        p.print_region(
            self.regions[0],
            print_entry_block_args=False,
            print_block_terminators=bool(inits) or p._debuginfo,
        )
        p.print_op_attrs(
            self, elided=("lowerBoundMap", "upperBoundMap", "step", "operandSegmentSizes")
        )

    # -- verification ---------------------------------------------------------------------------

    def verify_op(self) -> None:
        step = self.step_value
        if step <= 0:
            raise self.error(f"expected step to be a positive integer, got {step}")
        for which, amap, ops in (
            ("lower", self.lower_bound_map, self.lowerBoundOperands),
            ("upper", self.upper_bound_map, self.upperBoundOperands),
        ):
            if amap.num_results == 0:
                raise self.error(f"expected {which} bound map to have at least one result")
            if amap.num_inputs != len(ops):
                raise self.error(
                    f"{which} bound operand count ({len(ops)}) does not match the number of "
                    f"{which} bound map inputs ({amap.num_inputs})"
                )
        blocks = self.regions[0].blocks
        if not blocks:
            raise self.error("expected a body block")
        args = blocks[0].arguments
        if not args or args[0].type is not A.index:
            raise self.error("expected body to have an index argument for the induction variable")
        inits = self.inits
        n_iter = len(args) - 1
        if len(inits) != n_iter:
            raise self.error(
                f"different number of inits and region iter_args: {len(inits)} != {n_iter}"
            )
        for i, (init, arg) in enumerate(zip(inits, args[1:])):
            if init.type is not arg.type:
                raise self.error(
                    f"along control flow edge from parent to Region #0: successor operand type "
                    f"#{i} {_q(init.type)} should match successor input type #{i} {_q(arg.type)}"
                )
        AA.verify_dims_and_symbols(self, self.lowerBoundOperands, self.lower_bound_map.num_dims)
        AA.verify_dims_and_symbols(self, self.upperBoundOperands, self.upper_bound_map.num_dims)

    def verify_regions(self) -> None:
        term = self.regions[0].blocks[0].last
        n_iter = len(self.regions[0].blocks[0].arguments) - 1
        if type(term) is YieldOp and len(term._operands) != n_iter:
            raise self.error(
                "different number of region iter_args and yielded values: "
                f"{n_iter} != {len(term._operands)}"
            )
        if len(self.results) != n_iter:
            raise self.error("mismatch between the number of loop-carried values and results")

    # -- folding --------------------------------------------------------------------------------

    def fold(self, operand_attrs: list) -> Any:
        """A loop with results and zero iterations yields its inits."""
        if self.constant_trip_count() == 0 and self.results:
            return list(self.inits)
        return None

    def canonicalize(self, rewriter: PatternRewriter) -> bool:
        """Fold constant bounds, compose/canonicalize the bound maps, drop an empty loop."""
        if self._canonicalize_bounds(rewriter):
            return True
        return self._fold_empty_loop(rewriter)

    def _canonicalize_bounds(self, rewriter: PatternRewriter) -> bool:
        changed = False
        for which, lower in ((0, True), (1, False)):
            amap = self.lower_bound_map if lower else self.upper_bound_map
            ops = list(self.lowerBoundOperands if lower else self.upperBoundOperands)
            if amap.is_single_constant():
                continue
            values = [AA.constant_index(v) for v in ops]
            folded = AA.fold_map(amap, values)
            if all(v is not None for v in folded):
                new_map, new_ops = AffineMap.constant(max(folded) if lower else min(folded)), []  # type: ignore[type-var]
            else:
                new_map, new_ops = AA.compose_map_and_operands(amap, ops)
                seen: list[Any] = []
                for e in new_map.results:
                    if e not in seen:
                        seen.append(e)
                new_map = AffineMap(new_map.num_dims, new_map.num_symbols, seen)
            if (
                new_map is amap
                and all(a is b for a, b in zip(new_ops, ops))
                and len(new_ops) == len(ops)
            ):
                continue
            rewriter.modify_op_in_place(
                self, lambda w=which, m=new_map, o=new_ops: self._set_bound(w, m, o)
            )
            notify_dropped(rewriter, ops, new_ops)
            changed = True
        return changed

    def _fold_empty_loop(self, rewriter: PatternRewriter) -> bool:
        """MLIR's AffineForEmptyLoopFolder for a body that only yields."""
        block = self.regions[0].blocks[0]
        if block.first is not block.last or not self.results:
            return False
        trip = self.constant_trip_count()
        inits = list(self.inits)
        if trip == 0:
            rewriter.replace_op(self, inits)
            return True
        yielded = [u.value for u in block.last._operands]  # type: ignore[union-attr]
        iter_args = block.arguments[1:]
        replacements = []
        outside = out_of_order = False
        for i, v in enumerate(yielded):
            if v in iter_args:
                pos = iter_args.index(v)  # type: ignore[arg-type]
                out_of_order |= pos != i
                replacements.append(inits[pos])
            else:
                outside = True
                replacements.append(v)
        if trip is None and (outside or out_of_order):
            return False
        if trip is not None and trip >= 2 and out_of_order:
            return False
        rewriter.replace_op(self, replacements)
        return True


def _bound(b: Any) -> tuple[AffineMap, list[Value]]:
    if isinstance(b, int):
        return AffineMap.constant(b), []
    if isinstance(b, Value):
        return AffineMap(0, 1, (sym(0),)), [b]
    amap, ops = b
    if amap.num_inputs != len(ops):
        raise ValueError(f"bound map {amap} takes {amap.num_inputs} operands, got {len(ops)}")
    return amap, list(ops)


# ---------------------------------------------------------------------------------------------
# affine.parallel


class ParallelOp(Op, LoopLikeOpInterface):
    """A multi-dimensional parallel loop nest with optional reductions.

    Each dimension has a lower bound (the max of its group of lower-bound results), an upper
    bound (the min of its group) and a constant step. Each result is the reduction, by its
    `reduce` kind (arith's atomic RMW kinds: "addf", "mulf", "maxs", ...), of the values the
    body yields over all iterations. Implements the loop-like interface.

        %sum = affine.parallel (%i, %j) = (0, 0) to (%n, min(%m, 16)) step (1, 4)
            reduce ("addf") -> (f32) {
          %v = affine.load %A[%i, %j] : memref<?x?xf32>
          affine.yield %v : f32
        }
    """

    name = "affine.parallel"
    traits = (RecursiveMemoryEffects, _IMPLICIT_YIELD)
    reductions = prop(ReductionsAttrC)
    lowerBoundsMap = prop(AffineMapAttrC)  # noqa: N815 - MLIR's names
    lowerBoundsGroups = prop(I32TensorAttrC)  # noqa: N815
    upperBoundsMap = prop(AffineMapAttrC)  # noqa: N815
    upperBoundsGroups = prop(I32TensorAttrC)  # noqa: N815
    steps = prop(I64ArrayAttrC)
    mapOperands = var_operand(Index)  # noqa: N815
    res = var_result(AnyType)
    body = region()

    @classmethod
    def build_parallel(
        cls,
        lower: Sequence[int | Value],
        upper: Sequence[int | Value],
        steps: Sequence[int] | None = None,
        reductions: Sequence[tuple[str, A.Type]] = (),
        location: A.Location | None = None,
    ) -> ParallelOp:
        """A parallel nest over [lower[k], upper[k]) (ints or index symbols), one group per
        dimension; `reductions` gives (kind, result type) pairs. The body block gets one index
        argument per dimension (and an affine.yield when there are no reductions)."""
        if len(lower) != len(upper):
            raise ValueError("lower and upper bounds differ in count")
        steps = [1] * len(lower) if steps is None else list(steps)
        lb_map, lb_ops = _flat_bounds(lower)
        ub_map, ub_ops = _flat_bounds(upper)
        attrs: dict[str, A.Attribute] = {
            "reductions": A.ArrayAttr([AtomicRMWKindAttr.get(k) for k, _ in reductions]),
            "lowerBoundsMap": A.AffineMapAttr(lb_map),
            "lowerBoundsGroups": _i32_tensor([1] * len(lower)),
            "upperBoundsMap": A.AffineMapAttr(ub_map),
            "upperBoundsGroups": _i32_tensor([1] * len(upper)),
            "steps": A.ArrayAttr([A.IntegerAttr(s, A.i64) for s in steps]),
        }
        block = Block([A.index] * len(lower))
        if not reductions:
            block.append(_yield_builder(location)())
        types = [t for _, t in reductions]
        return cls.create([*lb_ops, *ub_ops], types, attrs, [Region([block])], location=location)  # type: ignore[return-value]

    @property
    def lower_bounds_map(self) -> AffineMap:
        return self.get_attr("lowerBoundsMap").value  # type: ignore[union-attr, no-any-return]

    @property
    def upper_bounds_map(self) -> AffineMap:
        return self.get_attr("upperBoundsMap").value  # type: ignore[union-attr, no-any-return]

    @property
    def lower_bounds_operands(self) -> tuple[Value, ...]:
        return self.operands[: self.lower_bounds_map.num_inputs]

    @property
    def upper_bounds_operands(self) -> tuple[Value, ...]:
        return self.operands[self.lower_bounds_map.num_inputs :]

    @property
    def step_values(self) -> list[int]:
        return [a.value for a in self.get_attr("steps").value]  # type: ignore[union-attr]

    @property
    def reduction_kinds(self) -> list[str]:
        """The reduction kind names ("addf", ...) of the results."""
        return [AtomicRMWKindAttr.name_of(a) for a in self.get_attr("reductions").value]  # type: ignore[union-attr]

    def induction_vars(self) -> Sequence[Value]:
        return tuple(self.regions[0].blocks[0].arguments)

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        ivs = parser.parse_argument_list("paren", allow_type=False)
        for iv in ivs:
            iv.type = A.index
        parser.parse_punct("=")
        lb_map, lb_groups, lb_ops = S.parse_parallel_bounds(parser, "max")
        parser.parse_keyword("to")
        ub_map, ub_groups, ub_ops = S.parse_parallel_bounds(parser, "min")
        attrs = state.attributes
        if parser.parse_optional_keyword("step") is not None:
            pos = parser.pos()
            smap, sdims, ssyms = parser.parse_affine_map_of_ssa_ids("(")
            if sdims or ssyms or not smap.is_constant():
                raise parser.error("steps must be constant integers", pos)
            steps = list(smap.constant_results())
        else:
            steps = [1] * len(ivs)
        reductions: list[A.Attribute] = []
        if parser.parse_optional_keyword("reduce") is not None:

            def one() -> None:
                pos = parser.pos()
                kind = parser.parse_string()
                if kind not in ATOMIC_RMW_KINDS:
                    raise parser.error(f'invalid reduction value: "{kind}"', pos)
                reductions.append(AtomicRMWKindAttr.get(kind))

            parser.parse_comma_separated_list("paren", one)
        types = parser.parse_optional_arrow_type_list() or []
        attrs["reductions"] = A.ArrayAttr(reductions)
        attrs["lowerBoundsMap"] = A.AffineMapAttr(lb_map)
        attrs["lowerBoundsGroups"] = _i32_tensor(lb_groups)
        attrs["upperBoundsMap"] = A.AffineMapAttr(ub_map)
        attrs["upperBoundsGroups"] = _i32_tensor(ub_groups)
        attrs["steps"] = A.ArrayAttr([A.IntegerAttr(s, A.i64) for s in steps])
        body = parser.parse_region(ivs)
        parser.parse_optional_attr_dict(attrs)
        parser.ensure_terminator(body, _yield_builder(state.location))
        state.operands = [*lb_ops, *ub_ops]
        state.result_types = list(types)
        state.regions = [body]

    def print_asm(self, p: Any) -> None:
        block = self.regions[0].blocks[0]
        p.write(" (")
        for i, arg in enumerate(block.arguments):
            if i:
                p.write(", ")
            p.print_region_argument(arg, omit_type=True)
        p.write(") = ")
        S.print_parallel_bounds(
            p, self.lower_bounds_map, _groups(self.get_attr("lowerBoundsGroups")),  # type: ignore[arg-type]
            self.lower_bounds_operands, "max",
        )  # fmt: skip
        p.write(" to ")
        S.print_parallel_bounds(
            p, self.upper_bounds_map, _groups(self.get_attr("upperBoundsGroups")),  # type: ignore[arg-type]
            self.upper_bounds_operands, "min",
        )  # fmt: skip
        steps = self.step_values
        if any(s != 1 for s in steps):
            p.write(" step (" + ", ".join(map(str, steps)) + ")")
        if self.results:
            p.write(" reduce (" + ", ".join(f'"{k}"' for k in self.reduction_kinds) + ") -> (")
            p.print_types([r.type for r in self.results])
            p.write(")")
        p.write(" ")
        p.print_region(
            self.regions[0],
            print_entry_block_args=False,
            print_block_terminators=bool(self.results) or p._debuginfo,
        )
        p.print_op_attrs(
            self,
            elided=("reductions", "lowerBoundsMap", "lowerBoundsGroups", "upperBoundsMap",
                    "upperBoundsGroups", "steps"),
        )  # fmt: skip

    def canonicalize(self, rewriter: PatternRewriter) -> bool:
        """Compose affine.apply producers into the bound maps and canonicalize their operands
        (MLIR's fold of affine.parallel)."""
        lb_map, ub_map = self.lower_bounds_map, self.upper_bounds_map
        lb_ops, ub_ops = list(self.lower_bounds_operands), list(self.upper_bounds_operands)
        new_lb, new_lb_ops = AA.compose_map_and_operands(lb_map, lb_ops)
        new_ub, new_ub_ops = AA.compose_map_and_operands(ub_map, ub_ops)
        if (new_lb is lb_map and new_lb_ops == lb_ops) and (
            new_ub is ub_map and new_ub_ops == ub_ops
        ):
            return False

        def change() -> None:
            self.set_attr("lowerBoundsMap", A.AffineMapAttr(new_lb))
            self.set_attr("upperBoundsMap", A.AffineMapAttr(new_ub))
            self.set_operands([*new_lb_ops, *new_ub_ops])

        rewriter.modify_op_in_place(self, change)
        notify_dropped(rewriter, lb_ops + ub_ops, new_lb_ops + new_ub_ops)
        return True

    def verify_op(self) -> None:
        blocks = self.regions[0].blocks
        n_args = len(blocks[0].arguments) if blocks else 0
        n_lbg = self.get_attr("lowerBoundsGroups").type.shape[0]  # type: ignore[union-attr]
        n_ubg = self.get_attr("upperBoundsGroups").type.shape[0]  # type: ignore[union-attr]
        steps = self.step_values
        n = len(steps)
        if n_lbg != n or n_ubg != n or n_args != n:
            raise self.error(
                f"the number of region arguments ({n_args}) and the number of map groups for "
                f"lower ({n_lbg}) and upper bound ({n_ubg}), and the number of steps "
                f"({n}) must all match"
            )
        lbg = _groups(self.get_attr("lowerBoundsGroups"))  # type: ignore[arg-type]
        ubg = _groups(self.get_attr("upperBoundsGroups"))  # type: ignore[arg-type]
        lb_map, ub_map = self.lower_bounds_map, self.upper_bounds_map
        for which, groups, amap in (("lower", lbg, lb_map), ("upper", ubg, ub_map)):
            if any(g <= 0 for g in groups):
                raise self.error(f"expected {which} bounds groups to have positive sizes")
            if sum(groups) != amap.num_results:
                raise self.error(f"expected {which} bounds map to have {sum(groups)} results")
        if lb_map.num_inputs + ub_map.num_inputs != len(self._operands):
            raise self.error(
                f"operand count ({len(self._operands)}) does not match the number of lower and "
                f"upper bound map inputs ({lb_map.num_inputs} + {ub_map.num_inputs})"
            )
        for s in steps:
            if s <= 0:
                raise self.error(f"expected steps to be positive integers, got {s}")
        if not blocks:
            raise self.error("expected a body block")
        for arg in blocks[0].arguments:
            if arg.type is not A.index:
                raise self.error("expected body arguments to be of index type")
        reductions = self.get_attr("reductions").value  # type: ignore[union-attr]
        if len(reductions) != len(self.results):
            raise self.error("a reduction must be specified for each output")
        for attr, r in zip(reductions, self.results):
            if not atomic_rmw_kind_matches(attr, r.type):
                raise self.error("result type cannot match reduction attribute")
        AA.verify_dims_and_symbols(self, self.lower_bounds_operands, lb_map.num_dims)
        AA.verify_dims_and_symbols(self, self.upper_bounds_operands, ub_map.num_dims)


def _flat_bounds(bounds: Sequence[int | Value]) -> tuple[AffineMap, list[Value]]:
    exprs = []
    syms: list[Value] = []
    for b in bounds:
        if isinstance(b, int):
            exprs.append(const(b))
        else:
            exprs.append(sym(len(syms)))
            syms.append(b)
    return AffineMap(0, len(syms), exprs), syms


# ---------------------------------------------------------------------------------------------
# affine.if


class IfOp(Op):
    """Run the `then` region if the operands satisfy an integer set, else the `else` region.

    The else region is optional; results (which need an else region) are what the executed
    region yields.

    Canonicalization composes producing affine.apply ops into the set, removes an empty else
    region, and inlines the taken region when the set is trivially true or false.

        %r = affine.if affine_set<(d0)[s0] : (d0 - 10 >= 0, s0 - d0 - 1 >= 0)>(%i)[%n] -> f32 {
          affine.yield %a : f32
        } else {
          affine.yield %b : f32
        }
    """

    name = "affine.if"
    traits = (RecursiveMemoryEffects, _IMPLICIT_YIELD)
    condition = prop(IntegerSetAttrC)
    operands_ = var_operand(Index)
    res = var_result(AnyType)
    thenRegion = region()  # noqa: N815 - MLIR's names
    elseRegion = region()  # noqa: N815

    @classmethod
    def build_if(
        cls,
        iset: IntegerSet,
        operands: Sequence[Value],
        result_types: Sequence[A.Type] = (),
        with_else: bool = False,
        location: A.Location | None = None,
    ) -> IfOp:
        """An affine.if with a then block (and an else block if asked or if it has results);
        without results the blocks get their affine.yield."""
        with_else = with_else or bool(result_types)
        regions = []
        for present in (True, with_else):
            r = Region()
            if present:
                block = Block()
                if not result_types:
                    block.append(_yield_builder(location)())
                r.add_block(block)
            regions.append(r)
        attrs = {"condition": A.IntegerSetAttr(iset)}
        return cls.create(list(operands), list(result_types), attrs, regions, location=location)  # type: ignore[return-value]

    @property
    def integer_set(self) -> IntegerSet:
        return self.get_attr("condition").value  # type: ignore[union-attr, no-any-return]

    @property
    def has_else(self) -> bool:
        return bool(self.regions[1].blocks)

    @classmethod
    def parse_asm(cls, parser: Any, state: OperationState) -> None:
        pos = parser.pos()
        attr = parser.parse_attribute()
        if type(attr) is not A.IntegerSetAttr:
            raise parser.error("invalid kind of attribute specified", pos)
        operands, num_dims = S.parse_dim_and_symbol_list(parser)
        iset = attr.value
        if iset.num_dims != num_dims:
            raise parser.error("dim operand count and integer set dim count must match", pos)
        if num_dims + iset.num_symbols != len(operands):
            raise parser.error("symbol operand count and integer set symbol count must match", pos)
        state.operands = S.resolve_indices(parser, operands)
        state.result_types = list(parser.parse_optional_arrow_type_list() or [])
        then = parser.parse_region()
        parser.ensure_terminator(then, _yield_builder(state.location))
        other = Region()
        if parser.parse_optional_keyword("else") is not None:
            other = parser.parse_region()
            parser.ensure_terminator(other, _yield_builder(state.location))
        parser.parse_optional_attr_dict(state.attributes)
        state.attributes["condition"] = attr
        state.regions = [then, other]

    def print_asm(self, p: Any) -> None:
        p.write(" ")
        p.print_attribute(self.get_attr("condition"))
        S.print_dim_and_symbol_list(p, self.operands, self.integer_set.num_dims)
        p.print_optional_arrow_type_list([r.type for r in self.results])
        p.write(" ")
        terms = bool(self.results) or p._debuginfo
        p.print_region(self.regions[0], print_entry_block_args=False, print_block_terminators=terms)
        if self.regions[1].blocks:
            p.write(" else ")
            p.print_region(
                self.regions[1], print_entry_block_args=False, print_block_terminators=terms
            )
        p.print_op_attrs(self, elided=("condition",))

    def verify_op(self) -> None:
        iset = self.integer_set
        if len(self._operands) != iset.num_inputs:
            raise self.error(
                "operand count and condition integer set dimension and symbol count must match"
            )
        AA.verify_dims_and_symbols(self, self.operands, iset.num_dims)
        if self.results and not self.regions[1].blocks:
            raise self.error(
                "along control flow edge from parent to Operation affine.if: region branch "
                f"point has 0 operands, but region successor needs {len(self.results)} inputs"
            )
        for i, r in enumerate(self.regions):
            if r.blocks and r.blocks[0].arguments:
                raise self.error(f"region #{i} should have no arguments")

    def canonicalize(self, rewriter: PatternRewriter) -> bool:
        iset = self.integer_set
        ops = self.operands
        new_set, new_ops = AA.canonicalize_set_and_operands(iset, ops)
        if new_set is not iset or list(new_ops) != list(ops):

            def change() -> None:
                self.set_attr("condition", A.IntegerSetAttr(new_set))
                self.set_operands(new_ops)

            rewriter.modify_op_in_place(self, change)
            notify_dropped(rewriter, ops, new_ops)
            return True
        return self._remove_dead_else(rewriter) or self._fold_trivial(rewriter)

    def _remove_dead_else(self, rewriter: PatternRewriter) -> bool:
        other = self.regions[1]
        if not other.blocks or self.results:
            return False
        block = other.blocks[0]
        if block.first is not block.last:
            return False
        rewriter.erase_block(block)
        rewriter.modify_op_in_place(self)
        return True

    def _fold_trivial(self, rewriter: PatternRewriter) -> bool:
        iset = self.integer_set
        if iset.is_empty_set():
            if not self.results and not self.regions[1].blocks:
                rewriter.erase_op(self)
                return True
            if not self.regions[1].blocks:
                return False
            block = self.regions[1].blocks[0]
        elif (
            iset.num_constraints == 1
            and iset.num_equalities == 1
            and type(iset.constraints[0]) is AffineConstantExpr
            and iset.constraints[0].value == 0
        ):
            block = self.regions[0].blocks[0]
        else:
            return False
        term = block.last
        values = [u.value for u in term._operands] if term is not None else []  # type: ignore[union-attr]
        if term is not None:
            rewriter.erase_op(term)
        rewriter.inline_block_before(block, self)
        rewriter.replace_op(self, values)
        return True


# ---------------------------------------------------------------------------------------------
# The dialect


def materialize_constant(
    value: A.Attribute, result_type: A.Type, location: A.Location | None = None
) -> Operation | None:
    """Folded affine values are index constants: an `arith.constant`."""
    return _arith_materialize(value, result_type, location)


DIALECT = Dialect(
    "affine",
    ops=[
        ApplyOp, MinOp, MaxOp, LoadOp, StoreOp, VectorLoadOp, VectorStoreOp,
        YieldOp, ForOp, ParallelOp, IfOp, PrefetchOp,
    ],
    materialize_constant=materialize_constant,
)  # fmt: skip
