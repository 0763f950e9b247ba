"""Random legal knob configurations of `lower-to-cpu` on contraction, convolution, softmax,
layer-norm and elementwise programs: every configuration compiles and equals the interpreter.

The knob space is whatever the pipeline meets (fusion decisions, chain orders, micro-kernel
shapes and cache blocks, tiles, loop orders, unroll factors, vector widths, parallel loops,
LLVM options): it is recorded by a first run with default values, then each trial samples every
knob from its domain. Knobs met only under some decisions (sites created by an earlier choice)
keep their defaults in that trial, which is what `complete` gives an autotuner too.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import mlc
import mlc.interp
from mlc.knobs import KnobContext


def _programs() -> dict[str, str]:
    """name -> module text: the `// -----` separated modules of inputs/knob_sweep.mlir, each
    named by the `// name` line right before its function."""
    text = (Path(__file__).parent / "inputs" / "knob_sweep.mlir").read_text()
    out = {}
    for chunk in text.split("// -----"):
        lines = chunk.strip().splitlines()
        at = next(i for i, line in enumerate(lines) if line.startswith("func.func"))
        out[lines[at - 1].removeprefix("//").strip()] = "\n".join(lines[at:])
    return out


PROGRAMS = _programs()

TRIALS = 4


def _inputs(text: str, rng: np.random.Generator, dyn: int) -> list[np.ndarray]:
    module = mlc.parse(text)
    fn = next(iter(module.regions[0].blocks[0].ops))
    out = []
    for t in fn.get_attr("function_type").value.inputs:
        shape = tuple(dyn if d < 0 else d for d in t.shape)
        out.append(rng.standard_normal(shape).astype(np.float32))
    return out


def _space(text: str) -> list:
    ctx = KnobContext()
    mlc.compile(text, knobs=ctx, use_cache=False)
    return ctx.space()


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_random_knob_configurations_equal_interpreter(name: str) -> None:
    text = PROGRAMS[name]
    space = _space(text)
    rng = np.random.default_rng(7)
    pick = random.Random(f"{name}-sweep")
    for dyn in (1, 7):
        args = _inputs(text, rng, dyn)
        if name == "layernorm":
            args[0] = args[0] * 3 + 1
        (want,) = mlc.interp.run(mlc.parse(text), "main", *args)
        for trial in range(TRIALS):
            # fast_math=fast included: llvm-options makes the reductions' -inf / NaN identities
            # finite, so finite inputs keep defined results (passes/llvm_options.py).
            config = {r.key: r.domain.to_json_value(r.domain.sample(pick)) for r in space}
            compiled = mlc.compile(text, knobs=config)
            got = compiled.main(*args)
            np.testing.assert_allclose(
                got, want, rtol=2e-4, atol=2e-5, err_msg=f"{name} dyn={dyn} trial {trial}: {config}"
            )
