"""Split compilation (mlc.runtime.split + the engine): a module's functions compiled as separate
LLVM modules on several threads and linked in one MCJIT engine: what goes together, what is
declared where, what is not split, and results equal with 1 and 2 compile threads."""

from __future__ import annotations

import gc
import threading

import llvmlite.binding as llvm
import numpy as np
import pytest

import mlc
from mlc.runtime import (
    ArgSpec,
    EntryNotFoundError,
    JITError,
    JitModule,
    Signature,
    cache,
    compile_llvm_ir,
    engine,
    split,
)
from mlc.runtime.split import split_module

# y = 2x + x^2 + 1 on memref<?xf32>: @main calls @one directly and hands two outlined bodies to
# mlc_parallel_for; @body_b calls @sq directly; @body_a and @main read the global @two.
PROGRAM = """
%ctx = type { ptr, ptr }

@two = private constant float 2.0, align 4
@label = private constant [13 x i8] c"@sq( @main \\22\\00", align 1

declare void @mlc_parallel_for(ptr, ptr, i64, i64, i64)

define internal float @one() {
entry:
  %c = load float, ptr @two, align 4
  %r = fmul float %c, 5.000000e-01
  ret float %r
}

define internal void @body_a(i64 %begin, i64 %end, ptr %c) {
entry:
  %xp = getelementptr %ctx, ptr %c, i32 0, i32 0
  %x = load ptr, ptr %xp
  %yp = getelementptr %ctx, ptr %c, i32 0, i32 1
  %y = load ptr, ptr %yp
  %k = load float, ptr @two, align 4
  br label %loop
loop:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %body ]
  %ok = icmp slt i64 %i, %end
  br i1 %ok, label %body, label %exit
body:
  %px = getelementptr float, ptr %x, i64 %i
  %v = load float, ptr %px
  %w = fmul float %v, %k
  %py = getelementptr float, ptr %y, i64 %i
  store float %w, ptr %py
  %i.next = add i64 %i, 1
  br label %loop
exit:
  ret void
}

define internal float @sq(float %v) {
entry:
  %r = fmul float %v, %v
  ret float %r
}

define internal void @body_b(i64 %begin, i64 %end, ptr %c) {
entry:
  %xp = getelementptr %ctx, ptr %c, i32 0, i32 0
  %x = load ptr, ptr %xp
  %yp = getelementptr %ctx, ptr %c, i32 0, i32 1
  %y = load ptr, ptr %yp
  br label %loop
loop:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %body ]
  %ok = icmp slt i64 %i, %end
  br i1 %ok, label %body, label %exit
body:
  %px = getelementptr float, ptr %x, i64 %i
  %v = load float, ptr %px
  %s = call float @sq(float %v)
  %py = getelementptr float, ptr %y, i64 %i
  %old = load float, ptr %py
  %new = fadd float %old, %s
  store float %new, ptr %py
  %i.next = add i64 %i, 1
  br label %loop
exit:
  ret void
}

define void @main(ptr %xa, ptr noalias %x, i64 %xo, i64 %n, i64 %xs,
                  ptr %ya, ptr noalias %y, i64 %yo, i64 %yn, i64 %ys) {
entry:
  %c = alloca %ctx
  %xp = getelementptr %ctx, ptr %c, i32 0, i32 0
  store ptr %x, ptr %xp
  %yp = getelementptr %ctx, ptr %c, i32 0, i32 1
  store ptr %y, ptr %yp
  call void @mlc_parallel_for(ptr @body_a, ptr %c, i64 0, i64 %n, i64 1)
  call void @mlc_parallel_for(ptr @body_b, ptr %c, i64 0, i64 %n, i64 1)
  %one = call float @one()
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %ok = icmp slt i64 %i, %n
  br i1 %ok, label %body, label %exit
body:
  %py = getelementptr float, ptr %y, i64 %i
  %old = load float, ptr %py
  %new = fadd float %old, %one
  store float %new, ptr %py
  %i.next = add i64 %i, 1
  br label %loop
exit:
  ret void
}
"""
SIG = {
    "main": Signature(inputs=[ArgSpec("x", "f32", ("n",))], outputs=[ArgSpec("y", "f32", ("n",))])
}


@pytest.fixture
def small_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the test's small functions count as worth a part of their own."""
    monkeypatch.setattr(split, "MIN_PART_LINES", 1)


def _parts(text: str, max_parts: int = 8) -> dict[str, str]:
    parts, why = split_module(text, max_parts)
    assert parts, why
    return {",".join(sorted(p.functions)): p.text for p in parts}


def test_split_keeps_callers_and_globals_together(small_parts: None) -> None:
    parts = _parts(PROGRAM)
    # @main calls @one, which reads @two, which @body_a reads too; @body_b calls @sq.
    assert sorted(parts) == ["body_a,main,one", "body_b,sq"]
    main = parts["body_a,main,one"]
    assert "declare hidden void @body_b(i64, i64, ptr)" in main
    assert "define internal void @body_a(" in main  # not referenced from another part
    other = parts["body_b,sq"]
    assert "define hidden void @body_b(i64 %begin" in other  # exported: hidden, external
    assert "@two = " not in other and "@main(" not in other
    for text in parts.values():  # every part is a module of its own
        llvm.parse_assembly(text, context=llvm.create_context()).verify()


def test_split_string_literals_are_not_references(small_parts: None) -> None:
    # @label's text holds "@sq(" and "@main": it must not tie @label to @sq or @main.
    parts = _parts(PROGRAM)
    assert sum("@label = private constant" in t for t in parts.values()) == 1


def test_split_respects_max_parts_and_sizes(small_parts: None) -> None:
    assert split_module(PROGRAM, 1) == ([], "one compile thread")
    parts, why = split_module(PROGRAM, 2)
    assert len(parts) == 2 and why == "split into 2 parts"
    assert parts[0].lines >= parts[1].lines  # the larger part first


def test_split_small_functions_stay_whole() -> None:
    # With the default minimum size, none of the functions is worth a part of its own.
    parts, why = split_module(PROGRAM, 8)
    assert parts == [] and why.startswith("one part")


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        ("@alias = alias float, ptr @two", "aliases"),
        ("@0 = private constant i32 1", "unnamed global"),
        ("!0 = !{ptr @main}", "metadata"),
        ("define linkonce_odr void @odr() {\n  ret void\n}", "linkonce_odr linkage"),
        ('module asm "nop"', "unrecognized top-level"),
        ("$c = comdat any", "unrecognized top-level"),
        ("define void @tiny() { ret void }", "on one line"),
    ],
)
def test_split_declines_what_it_does_not_handle(small_parts: None, extra: str, reason: str) -> None:
    parts, why = split_module(PROGRAM + extra + "\n", 8)
    assert parts == [] and why.startswith("not split") and reason in why


def test_split_multiline_header(small_parts: None) -> None:
    text = PROGRAM.replace(
        "define internal void @body_b(i64 %begin,", "define internal void @body_b(\n  i64 %begin,"
    )
    main = _parts(text)["body_a,main,one"]
    assert "declare hidden void @body_b(i64, i64, ptr)" in main
    m = JitModule(text, SIG, compile_threads=2)
    assert m.engine.split == "split into 2 parts"
    _run(m)


def test_split_declaration_keeps_the_abi(small_parts: None) -> None:
    text = (
        PROGRAM.replace(
            "define internal void @body_b(i64 %begin, i64 %end, ptr %c) {",
            "define internal fastcc void @body_b(i64 signext %begin, i64 %end, ptr noalias "
            'readonly %c) #0 section "x" {',
        ).replace("ptr @body_b,", "ptr @body_b,")
        + "attributes #0 = { nounwind }\n"
    )
    main = _parts(text)["body_a,main,one"]
    assert "declare hidden fastcc void @body_b(i64 signext, i64, ptr noalias readonly) #0" in main


def _run(m: JitModule, n: int = 1000) -> None:
    x = np.linspace(-2, 2, n, dtype=np.float32)
    np.testing.assert_allclose(m.main(x), 2 * x + x * x + 1, rtol=1e-6)


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_split_compile_runs(small_parts: None, workers: int) -> None:
    m = JitModule(PROGRAM, SIG, compile_threads=workers, threads=2)
    _run(m)
    e = m.engine
    if workers == 1:
        assert e.split == "one compile thread" and len(e.parts) == 1
    else:
        assert e.split == "split into 2 parts" and e.threads == 2
        assert sorted(sorted(p.functions) for p in e.parts) == [
            ["body_a", "main", "one"],
            ["body_b", "sq"],
        ]
    assert set(e.timings) == {"parse", "compile", "load", "optimize_cpu", "codegen_cpu"}
    # Inspection recompiles the same parts: every function is there, each once.
    ir = m.llvm_ir_optimized
    assert ir.count("define hidden void @body_b(") == (workers > 1)
    assert "@__mlc_call.main" in ir and "define void @main(" in ir
    assert "body_b" in m.asm()


GRAPH = """
func.func @main(%x: tensor<?x64xf32>, %w: tensor<64x32xf32>, %b: tensor<32xf32>)
    -> tensor<?x32xf32> {
  %0 = graph.matmul %x, %w : (tensor<?x64xf32>, tensor<64x32xf32>) -> tensor<?x32xf32>
  %1 = graph.add %0, %b : (tensor<?x32xf32>, tensor<32xf32>) -> tensor<?x32xf32>
  %2 = graph.relu %1 : tensor<?x32xf32>
  %3 = graph.softmax %2 {axis = 1 : i64} : (tensor<?x32xf32>) -> tensor<?x32xf32>
  return %3 : tensor<?x32xf32>
}
"""


def test_split_compile_of_a_graph_program_equals_interpreter() -> None:
    rng = np.random.default_rng(0)
    args = [rng.standard_normal(s).astype(np.float32) for s in [(37, 64), (64, 32), (32,)]]
    (want,) = mlc.interp.run(mlc.parse(GRAPH), "main", *args)
    for workers in (1, 2):
        c = mlc.compile(GRAPH, compile_threads=workers, use_cache=False)
        assert (len(c.jit.engine.parts) > 1) == (workers > 1)
        np.testing.assert_allclose(c.main(*args), want, rtol=1e-4, atol=1e-6)
        assert {"llvm_parse", "llvm_compile", "llvm_load"} <= set(c.timings)


def test_split_errors_are_still_located(small_parts: None) -> None:
    bad = PROGRAM.replace("%r = fmul float %v, %v", "%r = fmul float %v, %nope")
    with pytest.raises(JITError, match=r"line \d+:\d+: use of undefined value '%nope'"):
        JitModule(bad, SIG, compile_threads=2)
    with pytest.raises(EntryNotFoundError, match="entry function 'absent'"):
        JitModule(PROGRAM, {"absent": SIG["main"]}, compile_threads=2)
    with pytest.raises(ValueError, match="compile_threads must be a positive integer"):
        JitModule(PROGRAM, SIG, compile_threads=0)


def test_split_part_rejected_falls_back_to_whole(
    small_parts: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = engine.split_module

    def broken(text: str, max_parts: int) -> tuple[list[split.Part], str]:
        parts, why = real(text, max_parts)
        return [split.Part(p.text.replace("@sq(", "@nowhere("), p.functions, p.lines)
                for p in parts], why  # fmt: skip

    monkeypatch.setattr(engine, "split_module", broken)
    m = JitModule(PROGRAM, SIG, compile_threads=2)
    assert m.engine.split.startswith("not split: a part was rejected")
    assert len(m.engine.parts) == 1
    _run(m)


def test_split_cache_ignores_compile_threads(small_parts: None) -> None:
    cache.clear()
    a = compile_llvm_ir(PROGRAM, SIG, compile_threads=2)
    b = compile_llvm_ir(PROGRAM, SIG, compile_threads=1)
    assert a.built and not b.built and a.engine is b.engine


def test_split_compiles_concurrently_from_threads(small_parts: None) -> None:
    errors: list[BaseException] = []

    def work(k: int) -> None:
        try:
            text = PROGRAM + f"; variant {k}\n"
            _run(compile_llvm_ir(text, SIG, compile_threads=2, use_cache=False))
        except BaseException as e:  # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_engine_dropped_in_a_compile_worker_is_closed_later(small_parts: None) -> None:
    victim = JitModule(PROGRAM, SIG, compile_threads=1).engine
    ee = victim._ee
    done = threading.Event()

    def worker() -> None:
        nonlocal victim
        engine._WORKER.active = True
        victim = None  # noqa: F841 - the last reference: __del__ runs in this thread
        gc.collect()
        done.set()

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert done.is_set() and ee in engine._DEFERRED and not ee.closed
    _run(JitModule(PROGRAM, SIG, compile_threads=2))  # the next compile closes it
    assert ee.closed and not engine._DEFERRED
