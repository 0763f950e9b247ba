"""`canonicalize`: every registered canonicalization pattern and folder, applied greedily."""

from __future__ import annotations

from typing import Any

from mlc.ir.core import Operation
from mlc.pass_manager import ListOption, Option, Pass, PassContext, Statistic
from mlc.rewrite import FrozenPatternSet, GreedyRewriteConfig, apply_patterns_greedily


class CanonicalizePass(Pass):
    """Canonicalize operations.

    Folds, applies canonicalization patterns and erases dead code, greedily: the patterns of
    every registered dialect (op classes' `canonicalization_patterns` and `canonicalize`
    methods, the dialect's own) and every op's `fold`. Unreachable blocks are erased.
    """

    name = "canonicalize"
    top_down = Option(bool, True, "Seed the worklist in program order (false: reverse post-order)")
    region_simplify = Option(
        str,
        "normal",
        "Region simplification: disabled, normal or aggressive",
        choices=("disabled", "normal", "aggressive"),
    )
    max_iterations = Option(int, 10, "Iteration limit of the greedy driver (-1: no limit)")
    max_num_rewrites = Option(int, -1, "Limit on rewrites per run (-1: no limit)")
    test_convergence = Option(
        bool, False, "Fail (instead of warn) when the driver does not converge"
    )
    disable_patterns = ListOption(str, (), "Labels of patterns to skip (pattern class names)")
    enable_patterns = ListOption(str, (), "Labels of the only patterns to use")

    num_rewrites = Statistic("num-rewrites", "Number of patterns applied")
    num_folds = Statistic("num-folds", "Number of ops folded")
    num_erased = Statistic("num-erased", "Number of ops erased")

    def initialize(self, ctx: Any) -> None:
        self._patterns = FrozenPatternSet.canonicalization(
            ctx, disabled=self.disable_patterns, enabled=self.enable_patterns
        )

    def run(self, op: Operation, ctx: PassContext) -> None:
        patterns = getattr(self, "_patterns", None)
        if patterns is None:
            self.initialize(ctx.context)
            patterns = self._patterns
        max_iter = self.max_iterations if self.max_iterations >= 0 else 1 << 40
        config = GreedyRewriteConfig(
            max_iterations=max_iter,
            max_num_rewrites=self.max_num_rewrites,
            top_down=self.top_down,
            region_simplification=self.region_simplify != "disabled",
        )
        result = apply_patterns_greedily(op, patterns, config, ctx=ctx.context)
        self.num_rewrites += result.num_rewrites
        self.num_folds += result.num_folds
        self.num_erased += result.num_erased
        if not result.converged:
            message = (
                f"canonicalization did not converge within {self.max_iterations} iterations"
                if self.max_num_rewrites < 0
                else f"canonicalization stopped after {self.max_num_rewrites} rewrites"
            )
            if self.test_convergence:
                ctx.error(message, op)
            elif self.max_num_rewrites < 0:
                ctx.warning(message, op)
