"""Named pipelines of generic passes."""

from __future__ import annotations

from mlc.pass_manager import OpPassManager, Option, PassPipeline


class SimplifyPipeline(PassPipeline):
    """Canonicalize, CSE and canonicalize again (a cheap, generic cleanup)."""

    name = "simplify"
    max_iterations = Option(int, 10, "Iteration limit of each canonicalize")

    def build(self, pm: OpPassManager) -> None:
        canon = f"canonicalize{{max-iterations={self.max_iterations}}}"
        pm.add_text(f"{canon},cse,{canon}")
