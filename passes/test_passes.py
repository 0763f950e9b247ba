"""Passes that exercise the pass manager in tests: failing, crashing, breaking the IR,
and echoing options."""

from __future__ import annotations

from mlc.ir.core import Operation
from mlc.pass_manager import ListOption, Option, Pass, PassContext, Statistic


class TestPassFailure(Pass):
    """Fail, with an error at the anchor op (or silently with `silent=true`)."""

    name = "test-pass-failure"
    silent = Option(bool, False, "Signal failure without emitting an error")

    def run(self, op: Operation, ctx: PassContext) -> None:
        if self.silent:
            ctx.signal_failure()
        else:
            ctx.error("test-pass-failure: failing on purpose", op)


class TestPassCrash(Pass):
    """Raise a Python exception (a pass bug)."""

    name = "test-pass-crash"

    def run(self, op: Operation, ctx: PassContext) -> None:
        raise RuntimeError("test-pass-crash: crashing on purpose")


class TestPassInvalidIR(Pass):
    """Break the IR (move a definition after its first use), to test verify-each."""

    name = "test-pass-invalid-ir"

    def run(self, op: Operation, ctx: PassContext) -> None:
        # Move the first op that has uses after its first user: a dominance violation.
        for region in op.regions:
            for block in region.blocks:
                for child in block:
                    for r in child.results:
                        for user in r.users:
                            if user.parent is block:
                                child.move_after(user)
                                return


class TestOptionsPass(Pass):
    """Report its option values as a remark on the anchor op."""

    name = "test-options"
    count = Option(int, 0, "An integer")
    flag = Option(bool, False, "A boolean")
    label = Option(str, "", "A string")
    sizes = ListOption(int, (), "A list of integers")
    mode = Option(str, "fast", "One of fast or slow", choices=("fast", "slow"))
    num_runs = Statistic("num-runs", "Number of times the pass ran")

    def run(self, op: Operation, ctx: PassContext) -> None:
        self.num_runs += 1
        ctx.remark(f"test-options: {self.options_text(all_options=True)}", op)


# ---------------------------------------------------------------------------------------------
# Dialect conversion in lit tests


class TestLegalizeMath(Pass):
    """Expand math.absi into arith ops with the conversion framework (math is illegal).

    With `full=true` every op must end up in arith, func or builtin.
    """

    name = "test-legalize-math"
    full = Option(bool, False, "Full conversion (unknown ops are errors) instead of partial")

    def run(self, op: Operation, ctx: PassContext) -> None:
        from mlc.rewrite.conversion import (
            ConversionTarget,
            apply_full_conversion,
            apply_partial_conversion,
        )

        target = ConversionTarget()
        target.add_legal_dialect("arith", "func", "builtin")
        target.add_illegal_dialect("math")
        apply = apply_full_conversion if self.full else apply_partial_conversion
        if not apply(op, target, [_ExpandAbsI()]):
            ctx.signal_failure()


class TestWidenIntegers(Pass):
    """Convert i32 to i64 in arith ops and function definitions (calls, declarations stay).

    Exercises the type converter: operands arrive converted, and where converted and
    unconverted code meet, `builtin.unrealized_conversion_cast` ops bridge the types.
    """

    name = "test-widen-integers"

    def run(self, op: Operation, ctx: PassContext) -> None:
        from mlc.ir import attributes as A
        from mlc.rewrite.conversion import (
            ConversionTarget,
            TypeConverter,
            apply_partial_conversion,
        )

        tc = TypeConverter()
        tc.add_conversion(lambda t: A.i64 if t is A.i32 else None)

        def signature_legal(f: Operation) -> bool:
            # Declarations keep their signature: their callers are the boundary.
            ftype = f.get_attr("function_type").value  # type: ignore[union-attr]
            return not f.regions[0].blocks or tc.is_signature_legal(ftype)

        target = ConversionTarget()
        target.add_dynamically_legal_dialect("arith", tc.is_legal)
        target.add_dynamically_legal_op("func.func", signature_legal)
        target.add_dynamically_legal_op("func.return", tc.is_legal)
        patterns = [_WidenArith(tc), _WidenFunc(tc), _WidenReturn(tc)]
        if not apply_partial_conversion(op, target, patterns, tc):
            ctx.signal_failure()


def _conversion_pattern_base() -> type:
    from mlc.rewrite.conversion import ConversionPattern

    return ConversionPattern


class _ExpandAbsI(_conversion_pattern_base()):  # type: ignore[misc]
    """math.absi x -> select(x < 0, 0 - x, x)"""

    root = "math.absi"

    def match_and_rewrite(self, op: Operation, operands: list, rewriter: object) -> bool:
        from mlc.dialects.arith import CmpIOp, ConstantOp, SelectOp, SubIOp

        (x,) = operands
        zero = rewriter.insert(ConstantOp.from_int(0, x.type)).results[0]  # type: ignore[attr-defined]
        neg = rewriter.create(SubIOp, [zero, x]).results[0]  # type: ignore[attr-defined]
        is_neg = rewriter.insert(CmpIOp.get("slt", x, zero)).results[0]  # type: ignore[attr-defined]
        rewriter.replace_op_with_new(op, SelectOp, [is_neg, neg, x])  # type: ignore[attr-defined]
        return True


class _WidenArith(_conversion_pattern_base()):  # type: ignore[misc]
    """Any arith op: the same op on converted operands and result types."""

    root = None

    def match_and_rewrite(self, op: Operation, operands: list, rewriter: object) -> bool:
        if op.dialect_name != "arith":
            return False
        tc = self.type_converter
        new_types = [tc.convert_type(r.type) for r in op.results]
        attrs = dict(op._attrs) if op._attrs else None
        if attrs and "value" in attrs and new_types[0] is not op.results[0].type:
            from mlc.ir.attributes import IntegerAttr

            attrs["value"] = IntegerAttr(attrs["value"].value, new_types[0])
        new = type(op).create(operands, new_types, attrs, (), (), op.location)
        rewriter.insert(new)  # type: ignore[attr-defined]
        rewriter.replace_op(op, new.results)  # type: ignore[attr-defined]
        return True


class _WidenFunc(_conversion_pattern_base()):  # type: ignore[misc]
    """func.func: convert the signature and the entry block's arguments."""

    root = "func.func"

    def match_and_rewrite(self, op: Operation, operands: list, rewriter: object) -> bool:
        from mlc.ir.attributes import TypeAttr

        tc = self.type_converter
        new_type = tc.convert_signature(op.get_attr("function_type").value)  # type: ignore[union-attr]
        if op.regions[0].blocks:
            rewriter.convert_region_types(op.regions[0], tc, entry_only=True)  # type: ignore[attr-defined]
        rewriter.modify_op_in_place(op, lambda: op.set_attr("function_type", TypeAttr(new_type)))  # type: ignore[attr-defined]
        return True


class _WidenReturn(_conversion_pattern_base()):  # type: ignore[misc]
    """func.return: return the converted values."""

    root = "func.return"

    def match_and_rewrite(self, op: Operation, operands: list, rewriter: object) -> bool:
        rewriter.modify_op_in_place(op, lambda: op.set_operands(operands))  # type: ignore[attr-defined]
        return True
