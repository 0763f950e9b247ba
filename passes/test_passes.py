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
