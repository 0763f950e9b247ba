"""`llvm-options`: the LLVM-level decisions (opt level, fast-math, vectorizers, unrolling,
unswitching) as knobs, recorded on the module as `mlc.llvm_options` for the JIT (`mlc.compile`,
`mlc-run`).
"""

from __future__ import annotations

from typing import Any

from mlc.ir import attributes as A
from mlc.ir.core import Operation
from mlc.knobs import Bool, Choice, IntRange, Site
from mlc.pass_manager import KnobDecl, Option, Pass, PassContext

__all__ = [
    "ATTR",
    "FAST_MATH",
    "LLVMOptionsPass",
    "SITE",
    "UNROLL_THRESHOLDS",
    "jit_options_of",
]

ATTR = "mlc.llvm_options"
SITE = "@/llvm-options"
"""The site key of the module-level knobs (one set per module, the same key in every program)."""

# Knob value -> the LLVM instruction flags added to every float instruction (JitOptions).
FAST_MATH: dict[str, tuple[str, ...] | None] = {
    "none": None,
    "contract": ("contract",),
    "reassoc,contract": ("contract", "reassoc"),
    "fast": ("fast",),
}
UNROLL_THRESHOLDS = (0, 50, 150, 300, 600, 1200)
"""The unroll cost thresholds offered (LLVM's defaults: 300 at O3, 150 below; 0 disables
unrolling of all but trivially small loops)."""


def _default_threshold(opt_level: int) -> int:
    return 300 if opt_level == 3 else 150


class LLVMOptionsPass(Pass):
    """Choose the LLVM optimization options (knobs) and record them on the module.

    Asks six knobs at the module site `@/llvm-options` and stores the answers as the module
    attribute `mlc.llvm_options`, which `mlc.compile` and `mlc-run` hand to the JIT
    (`mlc.runtime.JitOptions`): `opt_level` (0-3), `fast_math` (`none`: IEEE semantics as
    written; `contract`: a*b+c may become one fma, one rounding instead of two;
    `reassoc,contract`: also reassociate, so LLVM may reorder float sums and products, e.g.
    vectorize a float reduction with partial sums; `fast`: every flag, which also assumes no
    NaN/Inf operands or results, ignores the sign of zero, and allows reciprocal and
    approximate functions: results on NaN/Inf inputs are undefined), `loop_vectorize` and
    `slp_vectorize` (LLVM's vectorizers on/off), `unroll_threshold` (LLVM's unroll cost
    threshold), `loop_unswitch` (LLVM's non-trivial loop unswitching at O3; off by default, see
    `mlc.runtime.JitOptions`). The options supply the knobs' defaults; an explicit `opt_level`
    argument of `mlc.compile` overrides the recorded one.
    """

    name = "llvm-options"
    anchor = "builtin.module"
    opt_level = Option(int, 3, "Default LLVM optimization level (0-3)")
    fast_math = Option(str, "none", "Default fast-math flag set: " + " | ".join(FAST_MATH))
    loop_vectorize = Option(bool, True, "Default: run LLVM's loop vectorizer")
    slp_vectorize = Option(bool, True, "Default: run LLVM's SLP vectorizer")
    unroll_threshold = Option(
        int, -1, "Default unroll threshold (-1: LLVM's for the opt level, 300 at O3, else 150)"
    )
    loop_unswitch = Option(bool, False, "Default: LLVM's non-trivial loop unswitching (O3)")
    knobs = (
        KnobDecl("opt_level", "int", "LLVM optimization level"),
        KnobDecl("fast_math", "choice", "Fast-math flags on every float instruction"),
        KnobDecl("loop_vectorize", "bool", "LLVM loop vectorizer on/off"),
        KnobDecl("slp_vectorize", "bool", "LLVM SLP vectorizer on/off"),
        KnobDecl("unroll_threshold", "choice", "LLVM loop-unroll cost threshold"),
        KnobDecl("loop_unswitch", "bool", "LLVM non-trivial loop unswitching on/off"),
    )

    def run(self, op: Operation, ctx: PassContext) -> None:
        if self.opt_level not in (0, 1, 2, 3):
            ctx.error(f"opt-level must be 0, 1, 2 or 3, got {self.opt_level}", op)
            return
        if self.fast_math not in FAST_MATH:
            ctx.error(
                f"fast-math must be one of {', '.join(FAST_MATH)}, got '{self.fast_math}'", op
            )
            return
        if self.unroll_threshold != -1 and self.unroll_threshold not in UNROLL_THRESHOLDS:
            shown = ", ".join(str(t) for t in UNROLL_THRESHOLDS)
            ctx.error(
                f"unroll-threshold must be -1 or one of {shown}, got {self.unroll_threshold}", op
            )
            return
        site = Site(SITE, op)
        level = ctx.knob(site, "opt_level", IntRange(0, 3), self.opt_level)
        fast = ctx.knob(site, "fast_math", Choice(*FAST_MATH), self.fast_math)
        loop_vec = ctx.knob(site, "loop_vectorize", Bool(), self.loop_vectorize)
        slp_vec = ctx.knob(site, "slp_vectorize", Bool(), self.slp_vectorize)
        default_t = self.unroll_threshold
        if default_t == -1:
            default_t = _default_threshold(level)
        threshold = ctx.knob(site, "unroll_threshold", Choice(*UNROLL_THRESHOLDS), default_t)
        unswitch = ctx.knob(site, "loop_unswitch", Bool(), self.loop_unswitch)
        op.set_attr(
            ATTR,
            A.DictionaryAttr(
                {
                    "opt_level": A.IntegerAttr(level, A.i64),
                    "fast_math": A.StringAttr(fast),
                    "loop_vectorize": A.BoolAttr(loop_vec),
                    "slp_vectorize": A.BoolAttr(slp_vec),
                    "unroll_threshold": A.IntegerAttr(threshold, A.i64),
                    "loop_unswitch": A.BoolAttr(unswitch),
                }
            ),
        )


def jit_options_of(module: Operation) -> dict[str, Any]:
    """The `JitOptions` keywords recorded by `llvm-options` on `module` ({} when absent)."""
    attr = module.get_attr(ATTR)
    if attr is None:
        return {}
    entries = dict(attr.value)  # type: ignore[attr-defined]
    out: dict[str, Any] = {}
    for key in ("opt_level", "unroll_threshold"):
        if key in entries:
            out[key] = int(entries[key].value)
    for key in ("loop_vectorize", "slp_vectorize", "loop_unswitch"):
        if key in entries:
            out[key] = bool(entries[key].value)
    if "fast_math" in entries:
        name = entries["fast_math"].value
        if name not in FAST_MATH:
            raise ValueError(f"{ATTR}: unknown fast_math '{name}' (one of {', '.join(FAST_MATH)})")
        out["fast_math"] = FAST_MATH[name]
    return out
