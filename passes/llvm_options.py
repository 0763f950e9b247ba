"""`llvm-options`: the LLVM-level decisions (opt level, fast-math, vectorizers, unrolling,
unswitching) as knobs, recorded on the module as `mlc.llvm_options` for the JIT (`mlc.compile`,
`mlc-run`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

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
    "finite_constants",
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
# The largest finite value of each float type, for `ninf` / `nnan` (see `finite_constants`).
_LARGEST_FINITE = {
    "f16": 65504.0,
    "bf16": float.fromhex("0x1.fep127"),
    "f32": float.fromhex("0x1.fffffep127"),
    "f64": float.fromhex("0x1.fffffffffffffp1023"),
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
    approximate functions: results on NaN/Inf inputs are undefined; mlc's own infinite
    and NaN constants then become finite, see `finite_constants`), `loop_vectorize` and
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
        finite_constants(op, FAST_MATH[fast] or ())
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


# Ops through which a float value moves unchanged (into or out of vector lanes, or picked).
_MOVES = frozenset(
    {"llvm.shufflevector", "llvm.extractelement", "llvm.insertelement", "llvm.select"}
)
_NAN_SIDES = {"llvm.intr.maxnum": -1.0, "llvm.intr.minnum": 1.0}


def _nan_side(value: Any) -> float | None:
    """-1.0 when every op combining `value` (followed through branches into block arguments
    and through lane moves) is a `maxnum`, 1.0 when every one is a `minnum`, else None: a NaN
    constant is then the identity of that reduction, as `-largest` / `largest` is."""
    from mlc.interfaces import branch_like

    sides: set[float] = set()
    seen = {value}
    work = [value]
    while work:
        for use in work.pop().uses:
            owner = use.owner
            side = _NAN_SIDES.get(owner.name)
            if side is not None:
                sides.add(side)
                continue
            if owner.name in _MOVES:
                targets = [owner.results[0]]
            else:
                branch = branch_like(owner)
                if branch is None:
                    return None
                targets = [
                    block.arguments[k]
                    for i, block in enumerate(owner.successors)
                    for k, operand in enumerate(branch.successor_operands(i))
                    if operand is use
                ]
            for t in targets:
                if t not in seen:
                    seen.add(t)
                    work.append(t)
    return sides.pop() if len(sides) == 1 else None


def finite_constants(module: Operation, flags: tuple[str, ...]) -> int:
    """For fast-math `flags` assuming no infinities (`ninf`) or no NaNs (`nnan`; `fast` is
    both), make the float `llvm.mlir.constant`s of `module` that hold them finite; return how
    many constants changed.

    Under `ninf` or `nnan` an instruction reading such a value yields poison, and the ones in
    lowered code are mostly mlc's own: the identities of reductions (`-inf` for `maximumf`,
    NaN for `maxnum`, whose NaN-ignoring combine returns the other operand), max pooling's
    padding, the exp's overflow result. Made finite, they give the same results on finite
    inputs (`max(x, -largest) == x`), which the flags promise the program has, instead of
    undefined ones. An infinity becomes the largest finite value of its type and sign; a NaN
    becomes `-largest` when it only meets `maxnum`s (`largest` for `minnum`s) and stays
    otherwise (a NaN result is undefined under `nnan` anyway). MLIR picks the same finite
    identities for reductions flagged `ninf`.
    """
    no_inf = "fast" in flags or "ninf" in flags
    no_nan = "fast" in flags or "nnan" in flags
    if not (no_inf or no_nan):
        return 0
    changed = 0
    for op in module.walk():
        if op.name != "llvm.mlir.constant":
            continue
        value = op.get_attr("value")
        vt = type(value)
        if vt is A.FloatAttr:
            x = value.value
            if x - x == 0:  # finite (inf - inf and NaN - NaN are NaN)
                continue
            et = value.type
        elif vt is A.DenseElementsAttr:
            if value.is_splat:
                x = value.splat_value
                if type(x) is not float or x - x == 0:
                    continue
            elif value.array.dtype.kind != "f" or np.isfinite(value.array).all():
                continue
            et = A.element_type_of(value.type)
        else:
            continue
        big = _LARGEST_FINITE.get(getattr(et, "kind", None))
        if type(et) is not A.FloatType or big is None:
            continue
        arr = np.asarray(value.value if vt is A.FloatAttr else value.array)
        inf = np.isinf(arr) if no_inf else np.zeros(arr.shape, bool)
        nan = np.isnan(arr) if no_nan else np.zeros(arr.shape, bool)
        side = _nan_side(op.results[0]) if nan.any() else None
        if side is None and not inf.any():
            continue
        fixed = np.where(inf, np.copysign(big, arr), arr)
        if side is not None:
            fixed = np.where(nan, side * big, fixed)
        if vt is A.FloatAttr:
            op.set_attr("value", A.FloatAttr(float(fixed), value.type))
        else:
            op.set_attr("value", A.DenseElementsAttr(value.type, fixed.astype(arr.dtype)))
        changed += 1
    return changed


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
