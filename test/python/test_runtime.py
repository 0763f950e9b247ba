"""mlc.runtime: hand-written LLVM IR in the lowering's form (expanded memref descriptors), compiled
for the host and called on NumPy arrays: numerics, the call-boundary checks, the cache, options,
vectorized machine code and LLVM errors."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import numpy as np
import pytest

from mlc.runtime import (
    ArgSpec,
    EntryNotFoundError,
    InputDim,
    JITError,
    JitModule,
    JitOptions,
    Signature,
    SignatureError,
    apply_fast_math,
    cache,
    calling,
    compile_llvm_ir,
    host_target,
)

# y[i, j] = a[i, j] + b[i, j] on memref<?x?xf32>, using every descriptor field (offset, strides).
ADD2D = """
define void @add(ptr %a.alloc, ptr %a, i64 %a.off, i64 %m, i64 %n, i64 %a.st0, i64 %a.st1,
                 ptr %b.alloc, ptr %b, i64 %b.off, i64 %b.m, i64 %b.n, i64 %b.st0, i64 %b.st1,
                 ptr %y.alloc, ptr %y, i64 %y.off, i64 %y.m, i64 %y.n, i64 %y.st0, i64 %y.st1) {
entry:
  br label %rows
rows:
  %i = phi i64 [ 0, %entry ], [ %i.next, %row.end ]
  %i.ok = icmp slt i64 %i, %m
  br i1 %i.ok, label %cols, label %exit
cols:
  %j = phi i64 [ 0, %rows ], [ %j.next, %body ]
  %j.ok = icmp slt i64 %j, %n
  br i1 %j.ok, label %body, label %row.end
body:
  %ai = mul i64 %i, %a.st0
  %aj = mul i64 %j, %a.st1
  %a.ij = add i64 %ai, %aj
  %a.k = add i64 %a.ij, %a.off
  %pa = getelementptr float, ptr %a, i64 %a.k
  %x = load float, ptr %pa, align 4
  %bi = mul i64 %i, %b.st0
  %bj = mul i64 %j, %b.st1
  %b.ij = add i64 %bi, %bj
  %b.k = add i64 %b.ij, %b.off
  %pb = getelementptr float, ptr %b, i64 %b.k
  %z = load float, ptr %pb, align 4
  %s = fadd float %x, %z
  %yi = mul i64 %i, %y.st0
  %yj = mul i64 %j, %y.st1
  %y.ij = add i64 %yi, %yj
  %y.k = add i64 %y.ij, %y.off
  %py = getelementptr float, ptr %y, i64 %y.k
  store float %s, ptr %py, align 4
  %j.next = add i64 %j, 1
  br label %cols
row.end:
  %i.next = add i64 %i, 1
  br label %rows
exit:
  ret void
}

define void @noop(ptr %a.alloc, ptr %a, i64 %a.off, i64 %m, i64 %n, i64 %a.st0, i64 %a.st1) {
  ret void
}
"""


def add_sig(a: tuple, b: tuple | None = None, y: tuple | None = None) -> Signature:
    return Signature(
        inputs=[ArgSpec("a", "f32", a), ArgSpec("b", "f32", b or a)],
        outputs=[ArgSpec("y", "f32", y or a)],
    )


# Reductions, written as MLIR lowers identity-layout memrefs (offset 0, innermost stride 1).
REDUCE = """
; s = sum(x) over memref<?xf32> into memref<f32>; `reassoc` lets LLVM vectorize it.
define void @sum(ptr %x.alloc, ptr %x, i64 %x.off, i64 %n, i64 %x.st,
                 ptr %s.alloc, ptr %s, i64 %s.off) {
entry:
  %any = icmp sgt i64 %n, 0
  br i1 %any, label %loop, label %done
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %p = getelementptr float, ptr %x, i64 %i
  %v = load float, ptr %p, align 4
  %acc.next = fadd reassoc float %acc, %v
  %i.next = add i64 %i, 1
  %more = icmp slt i64 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  %r = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  store float %r, ptr %s, align 4
  ret void
}

; y[i] = sum_j x[i, j] over memref<?x?xf64>, in order (no fast-math: the result is exact).
define void @rowsum(ptr %x.alloc, ptr %x, i64 %x.off, i64 %m, i64 %n, i64 %x.st0, i64 %x.st1,
                    ptr %y.alloc, ptr %y, i64 %y.off, i64 %y.n, i64 %y.st) {
entry:
  br label %rows
rows:
  %i = phi i64 [ 0, %entry ], [ %i.next, %row.end ]
  %i.ok = icmp slt i64 %i, %m
  br i1 %i.ok, label %row, label %exit
row:
  %base = mul i64 %i, %x.st0
  br label %cols
cols:
  %j = phi i64 [ 0, %row ], [ %j.next, %col ]
  %acc = phi double [ 0.0, %row ], [ %acc.next, %col ]
  %j.ok = icmp slt i64 %j, %n
  br i1 %j.ok, label %col, label %row.end
col:
  %k = add i64 %base, %j
  %p = getelementptr double, ptr %x, i64 %k
  %v = load double, ptr %p, align 8
  %acc.next = fadd double %acc, %v
  %j.next = add i64 %j, 1
  br label %cols
row.end:
  %q = getelementptr double, ptr %y, i64 %i
  store double %acc, ptr %q, align 8
  %i.next = add i64 %i, 1
  br label %rows
exit:
  ret void
}
"""

SUM_SIG = Signature([ArgSpec("x", "f32", (None,))], [ArgSpec("s", "f32", ())])
ROWSUM_SIG = Signature([ArgSpec("x", "f64", (None, None))], [ArgSpec("y", "f64", (("in", 0, 0),))])

# y[i] = x[i] * alpha + (f64(beta) + (flag ? k : 0)): one scalar of each kind between memrefs.
SCALE = """
define void @scale(ptr %x.alloc, ptr %x, i64 %x.off, i64 %n, i64 %x.st,
                   double %alpha, float %beta, i32 %k, i1 %flag, i8 %u,
                   ptr %y.alloc, ptr %y, i64 %y.off, i64 %y.n, i64 %y.st,
                   ptr %z.alloc, ptr %z, i64 %z.off) {
entry:
  %b = fpext float %beta to double
  %kk = select i1 %flag, i32 %k, i32 0
  %kd = sitofp i32 %kk to double
  %add = fadd double %b, %kd
  store i8 %u, ptr %z, align 1
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %ok = icmp slt i64 %i, %n
  br i1 %ok, label %body, label %exit
body:
  %p = getelementptr double, ptr %x, i64 %i
  %v = load double, ptr %p, align 8
  %mul = fmul double %v, %alpha
  %r = fadd double %mul, %add
  %q = getelementptr double, ptr %y, i64 %i
  store double %r, ptr %q, align 8
  %i.next = add i64 %i, 1
  br label %loop
exit:
  ret void
}
"""

SCALE_SIG = Signature(
    inputs=[
        ArgSpec("x", "f64", ("n",)),
        ArgSpec("alpha", "f64"),
        ArgSpec("beta", "f32"),
        ArgSpec("k", "i32"),
        ArgSpec("flag", "i1"),
        ArgSpec("u", "ui8"),
    ],
    outputs=[ArgSpec("y", "f64", ("n",)), ArgSpec("z", "ui8", ())],
)


@pytest.fixture(scope="module")
def add_dyn() -> JitModule:
    return compile_llvm_ir(
        ADD2D, {"add": add_sig(("m", "n")), "noop": Signature([("a", "f32", (None, None))])}
    )


@pytest.fixture(scope="module")
def reduce_mod() -> JitModule:
    return compile_llvm_ir(REDUCE, {"sum": SUM_SIG, "rowsum": ROWSUM_SIG})


@pytest.fixture(scope="module")
def scale_mod() -> JitModule:
    return compile_llvm_ir(SCALE, {"scale": SCALE_SIG})


def rand(*shape: int, dtype: type = np.float32, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


# ---------------------------------------------------------------------------------------------
# (a) elementwise, static and dynamic shapes


@pytest.mark.parametrize("shape", [(3, 5), (1, 1), (17, 33), (0, 4), (64, 1000)])
def test_add_dynamic_shapes(add_dyn: JitModule, shape: tuple) -> None:
    a, b = rand(*shape, seed=1), rand(*shape, seed=2)
    y = add_dyn.add(a, b)
    assert y.shape == shape and y.dtype == np.float32
    np.testing.assert_array_equal(y, a + b)


def test_add_static_and_mixed_signatures() -> None:
    static = compile_llvm_ir(ADD2D, {"add": add_sig((4, 8))})
    a0 = InputDim("a", 0)
    mixed = compile_llvm_ir(ADD2D, {"add": add_sig((None, 8), b=(a0, 8), y=(a0, 8))})
    a, b = rand(4, 8, seed=3), rand(4, 8, seed=4)
    np.testing.assert_array_equal(static.add(a, b), a + b)
    np.testing.assert_array_equal(mixed.add(a, b), a + b)
    a, b = rand(9, 8, seed=5), rand(9, 8, seed=6)
    np.testing.assert_array_equal(mixed["add"](a, b), a + b)
    with pytest.raises(
        ValueError,
        match=r"argument 'b' \(#2\) dim 0 must equal dim 0 of argument "
        r"'a' \(declared equal\): got 2 and 3",
    ):
        mixed.add(rand(3, 8), rand(2, 8))
    with pytest.raises(ValueError, match=r"argument 'a' \(#1\) dim 0 must be 4"):
        static.add(rand(3, 8), rand(3, 8))


def test_output_is_aligned_and_fresh(add_dyn: JitModule) -> None:
    a, b = rand(64, 300, seed=7), rand(64, 300, seed=8)
    y1, y2 = add_dyn.add(a, b), add_dyn.add(a, b)
    assert y1.ctypes.data % 64 == 0  # >= 64 KiB outputs start on a 64-byte boundary
    assert not np.shares_memory(y1, y2) and not np.shares_memory(y1, a)
    assert y1.flags.c_contiguous and y1.flags.writeable


def test_read_only_and_subclass_inputs(add_dyn: JitModule) -> None:
    a, b = rand(3, 4, seed=9), rand(3, 4, seed=10)
    a.setflags(write=False)
    np.testing.assert_array_equal(add_dyn.add(a, b.view(np.matrix)), a + b)


def test_no_outputs_returns_none(add_dyn: JitModule) -> None:
    assert add_dyn.noop(rand(2, 2)) is None


# ---------------------------------------------------------------------------------------------
# (b) reductions and scalars


@pytest.mark.parametrize("n", [0, 1, 7, 1000, 4097])
def test_sum_reduction(reduce_mod: JitModule, n: int) -> None:
    x = rand(n, seed=n)
    s = reduce_mod.sum(x)
    assert s.shape == () and s.dtype == np.float32
    np.testing.assert_allclose(s, x.astype(np.float64).sum(), rtol=1e-5, atol=1e-5)


def test_rowsum_is_exact_in_order(reduce_mod: JitModule) -> None:
    x = rand(13, 101, dtype=np.float64, seed=11)
    y = reduce_mod.rowsum(x)
    assert y.shape == (13,)
    np.testing.assert_array_equal(y, np.cumsum(x, axis=1)[:, -1])  # sequential order


def test_scalar_arguments(scale_mod: JitModule) -> None:
    x = rand(10, dtype=np.float64, seed=12)
    y, z = scale_mod.scale(x, 1.5, 0.1, -7, True, 200)
    np.testing.assert_array_equal(y, x * 1.5 + (float(np.float32(0.1)) + -7))
    assert z.shape == () and z.dtype == np.uint8 and int(z) == 200
    y, _ = scale_mod.scale(x, np.float32(2.0), 3, np.int64(5), False, np.uint8(1))
    np.testing.assert_array_equal(y, x * 2.0 + 3.0)
    y, _ = scale_mod.scale(x, 1.0, 0.0, 2**31 - 1, np.True_, 0)
    np.testing.assert_array_equal(y, x + (2**31 - 1))


# ---------------------------------------------------------------------------------------------
# (d) bad input at the call boundary: the right exception, naming the argument


@pytest.mark.parametrize(
    "args, exc, pattern",
    [
        ((), TypeError, r"add\(\) takes 2 arguments \(a, b\), got 0"),
        ((1, 2, 3), TypeError, r"takes 2 arguments .* got 3"),
        (
            ("L", "B"),
            TypeError,
            r"argument 'a' \(#1\) must be a C-contiguous numpy.ndarray of "
            r"float32 with shape \(m, n\), got list",
        ),
        (("A", "B64"), TypeError, r"argument 'b' \(#2\) must have dtype float32 .*got float64"),
        (("A", "Bmasked"), TypeError, r"argument 'b' \(#2\) must be .* got a masked array"),
        (("A", "Bi32"), TypeError, r"argument 'b' \(#2\) must have dtype float32 .*got int32"),
        (("A3", "B"), ValueError, r"argument 'a' \(#1\) must have rank 2 .*got rank 3"),
        (
            ("A", "Bshort"),
            ValueError,
            r"argument 'b' \(#2\) dim 0 must equal dim 0 of argument "
            r"'a' \(symbol 'm'\): got 2 and 3",
        ),
        (("A", "BT"), ValueError, r"argument 'b' \(#2\) must be C-contiguous"),
        (("Astrided", "B"), ValueError, r"argument 'a' \(#1\) must be C-contiguous"),
        (("Amisaligned", "B"), ValueError, r"argument 'a' \(#1\) must be aligned"),
    ],
)
def test_bad_arrays(add_dyn: JitModule, args: tuple, exc: type, pattern: str) -> None:
    a = rand(3, 4)
    table = {
        "L": [[1.0, 2.0]],
        "A": a,
        "B": rand(3, 4, seed=1),
        "B64": rand(3, 4, dtype=np.float64),
        "Bi32": np.zeros((3, 4), np.int32),
        "Bmasked": np.ma.masked_array(rand(3, 4), mask=np.eye(3, 4, dtype=bool)),
        "A3": rand(3, 4, 1),
        "Bshort": rand(2, 4),
        "BT": rand(4, 3).T,
        "Astrided": rand(3, 8)[:, ::2],
        "Amisaligned": np.zeros(3 * 4 * 4 + 1, np.uint8)[1:].view(np.float32).reshape(3, 4),
    }
    vals = tuple(table[v] if isinstance(v, str) else v for v in args)
    with pytest.raises(exc, match=pattern):
        add_dyn.add(*vals)


def test_static_dim_contradiction() -> None:
    m = compile_llvm_ir(ADD2D, {"add": add_sig((None, 8), y=(InputDim(0, 0), 8))})
    with pytest.raises(
        ValueError,
        match=r"argument 'b' \(#2\) dim 1 must be 8 \(shape \(\?, 8\)\), "
        r"got shape \(2, 7\)",
    ):
        m.add(rand(2, 8), rand(2, 7))
    with pytest.raises(ValueError, match=r"argument 'a' \(#1\) dim 1 must be 8"):
        m.add(rand(2, 9), rand(2, 8))


@pytest.mark.parametrize(
    "index, value, exc, pattern",
    [
        (1, "1.0", TypeError, r"argument 'alpha' \(#2\) must be a real number \(f64\), got str"),
        (1, True, TypeError, r"argument 'alpha' \(#2\) must be a real number"),
        (2, 1 + 2j, TypeError, r"argument 'beta' \(#3\) must be a real number"),
        (2, 10**400, ValueError, r"argument 'beta' \(#3\) = .* is out of range for f32"),
        (3, 1.5, TypeError, r"argument 'k' \(#4\) must be an integer \(i32\), got float"),
        (3, 2**31, ValueError, r"argument 'k' \(#4\) = 2147483648 is out of range for i32"),
        (3, -(2**31) - 1, ValueError, r"argument 'k' \(#4\) = -2147483649 is out of range"),
        (4, 2, TypeError, r"argument 'flag' \(#5\) must be a bool \(i1\), got 2"),
        (4, None, TypeError, r"argument 'flag' \(#5\) must be a bool"),
        (5, -1, ValueError, r"argument 'u' \(#6\) = -1 is out of range for ui8 \[0, 255\]"),
        (5, np.float64(1), TypeError, r"argument 'u' \(#6\) must be an integer \(ui8\)"),
        (0, np.zeros(3, np.float32), TypeError, r"argument 'x' \(#1\) must have dtype float64"),
        (0, 3.0, TypeError, r"argument 'x' \(#1\) must be a C-contiguous numpy.ndarray"),
    ],
)
def test_bad_scalars(
    scale_mod: JitModule, index: int, value: object, exc: type, pattern: str
) -> None:
    args: list[object] = [np.zeros(3), 1.0, 1.0, 1, True, 1]
    args[index] = value
    with pytest.raises(exc, match=pattern):
        scale_mod.scale(*args)


def test_lookup_errors(add_dyn: JitModule) -> None:
    with pytest.raises(EntryNotFoundError, match=r"no entry function 'mul' \(entries: add, noop\)"):
        add_dyn["mul"]
    with pytest.raises(KeyError):  # EntryNotFoundError is a KeyError
        add_dyn["mul"]
    with pytest.raises(AttributeError, match="no entry function 'mul'"):
        add_dyn.mul  # noqa: B018
    assert "add" in add_dyn and sorted(add_dyn) == ["add", "noop"] and len(add_dyn) == 2


# ---------------------------------------------------------------------------------------------
# Signatures


def test_signature_errors() -> None:
    with pytest.raises(
        SignatureError, match=r"output 'y' dim 0 cannot be determined: it is dynamic"
    ):
        Signature([ArgSpec("x", "f32", (None,))], [ArgSpec("y", "f32", (None,))])
    with pytest.raises(SignatureError, match=r"symbol 'k' is not a dim of any input"):
        Signature([ArgSpec("x", "f32", ("n",))], [ArgSpec("y", "f32", ("k",))])
    with pytest.raises(SignatureError, match=r"input 'x' \(memref<\?xf32>\) has no dim 1"):
        Signature([ArgSpec("x", "f32", (None,))], [ArgSpec("y", "f32", (InputDim("x", 1),))])
    with pytest.raises(SignatureError, match=r"no input named 'w'"):
        Signature([ArgSpec("x", "f32", (None,))], [ArgSpec("y", "f32", (("in", "w", 0),))])
    with pytest.raises(SignatureError, match=r"output 'y' is a scalar"):
        Signature([], [ArgSpec("y", "f32")])
    with pytest.raises(SignatureError, match=r"duplicate argument name 'x'"):
        Signature([ArgSpec("x", "f32", (2,)), ArgSpec("x", "f32", (2,))])
    with pytest.raises(SignatureError, match=r"element type not supported: complex64"):
        ArgSpec("x", np.complex64, (2,))
    with pytest.raises(SignatureError, match=r"negative size -1"):
        ArgSpec("x", "f32", (-1,))


def test_signature_normalizes() -> None:
    spec = ArgSpec("x", np.float32, (None, 4))
    assert spec.dtype == "f32" and spec.llvm_params() == ["ptr", "ptr", "i64"] + ["i64"] * 4
    assert ArgSpec("i", "index").llvm_params() == ["i64"]
    sig = Signature([spec], [ArgSpec("y", "f64", (InputDim("x", 0), InputDim(0, 1)))])
    # A reference to a static dim becomes that size; names become indices.
    assert sig.outputs[0].shape == (InputDim(0, 0), 4)
    assert spec.shape == (None, 4)  # the caller's ArgSpec is not modified
    assert sig.text("f") == "f(x: memref<?x4xf32> (?, 4)) -> (y: memref<?x4xf64> (#0[0], 4))"


# ---------------------------------------------------------------------------------------------
# (e) the compiled-module cache


# A kernel that compiles in a few milliseconds: y = x[0].
TINY = """
define void @first(ptr %x.a, ptr %x, i64 %x.o, i64 %n, i64 %x.s, ptr %y.a, ptr %y, i64 %y.o) {
  %v = load float, ptr %x, align 4
  store float %v, ptr %y, align 4
  ret void
}
"""


def tiny_sig(shape: tuple = (None,)) -> dict[str, Signature]:
    return {"first": Signature([("x", "f32", shape)], [("y", "f32", ())])}


def test_cache_reuses_engines() -> None:
    sig = tiny_sig()
    text = TINY + "; cache test\n"  # a text no other test compiles
    before = cache.info()
    m1 = compile_llvm_ir(text, sig, threads=1)
    m2 = compile_llvm_ir(text, sig, threads=2)
    after = cache.info()
    assert m1.engine is m2.engine and m1.threads == 1 and m2.threads == 2
    assert after.compilations == before.compilations + 1
    assert after.hits == before.hits + 1
    # Different optimization options, signatures or text compile again.
    m3 = compile_llvm_ir(text, sig, opt_level=2)
    m4 = compile_llvm_ir(text, sig, options=JitOptions(slp_vectorize=False))
    m5 = compile_llvm_ir(text, tiny_sig((4,)))
    m6 = compile_llvm_ir(text + "\n", sig)
    engines = {id(m.engine) for m in (m1, m3, m4, m5, m6)}
    assert len(engines) == 5
    assert cache.info().compilations == before.compilations + 5
    # JitModule(...) always compiles.
    m7 = JitModule(text, sig)
    assert m7.engine is not m1.engine
    assert cache.info().compilations == before.compilations + 6
    x = np.array([3.0, 4.0], np.float32)
    assert all(float(m.first(x)) == 3.0 for m in (m1, m2, m3, m4, m6, m7))


def test_cache_lru_and_clear() -> None:
    old = cache.maxsize
    try:
        cache.clear()
        cache.maxsize = 2
        texts = [TINY + f"; variant {i}\n" for i in range(3)]
        mods = [compile_llvm_ir(t, tiny_sig()) for t in texts]
        assert len(cache) == 2
        before = cache.info().compilations
        assert compile_llvm_ir(texts[2], tiny_sig()).engine is mods[2].engine
        compile_llvm_ir(texts[0], tiny_sig())  # evicted: compiles again
        assert cache.info().compilations == before + 1
        cache.clear()
        assert len(cache) == 0 and cache.info().size == 0
        # Evicted engines stay alive while a module uses them.
        assert float(mods[0].first(np.ones(1, np.float32))) == 1.0
        with pytest.raises(ValueError, match="cache maxsize must be a non-negative int"):
            cache.maxsize = -1
    finally:
        cache.maxsize = old


def test_concurrent_compiles_of_one_key_compile_once() -> None:
    text = TINY + "; concurrent\n"
    before = cache.info().compilations
    out: list[JitModule] = []
    threads = [
        threading.Thread(target=lambda: out.append(compile_llvm_ir(text, tiny_sig())))
        for _ in range(4)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({id(m.engine) for m in out}) == 1 and len(out) == 4
    assert cache.info().compilations == before + 1


# ---------------------------------------------------------------------------------------------
# Options, machine code (g)


def test_avx_in_vectorized_code(add_dyn: JitModule, reduce_mod: JitModule) -> None:
    target = host_target()
    if not target.has_feature("avx2"):
        pytest.skip("host has no AVX2")
    assert re.search(r"%[yz]mm\d+", add_dyn.asm())
    assert re.search(r"vaddps\s+%[yz]mm", reduce_mod.asm())  # the reassoc reduction vectorized


def test_vectorizers_can_be_turned_off() -> None:
    m = compile_llvm_ir(REDUCE, {"sum": SUM_SIG}, loop_vectorize=False, slp_vectorize=False)
    assert not re.search(r"<\d+ x float>", m.llvm_ir_optimized)
    x = rand(100)
    np.testing.assert_allclose(m.sum(x), x.sum(), rtol=1e-5)


@pytest.mark.parametrize("level", [0, 1, 2])
def test_opt_levels(level: int) -> None:
    m = compile_llvm_ir(SCALE, {"scale": SCALE_SIG}, opt_level=level)
    assert m.options.opt_level == level
    x = rand(9, dtype=np.float64)
    y, z = m.scale(x, 3.0, 0.5, 2, True, 7)
    np.testing.assert_array_equal(y, x * 3.0 + 2.5)
    assert int(z) == 7


UNROLL = """
define void @fill(ptr %y.alloc, ptr %y, i64 %y.off, i64 %n, i64 %st) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %p = getelementptr i64, ptr %y, i64 %i
  %sq = mul i64 %i, %i
  store i64 %sq, ptr %p, align 8
  %i.next = add i64 %i, 1
  %more = icmp slt i64 %i.next, TRIPS
  br i1 %more, label %loop, label %exit
exit:
  ret void
}
"""


def _unrolled(trips: int, options: dict) -> tuple[int, int]:
    """(conditional branches, stores) of UNROLL's optimized `fill` under `options`, checked."""
    sig = {"fill": Signature([], [ArgSpec("y", "i64", (trips,))])}
    text = UNROLL.replace("TRIPS", str(trips))
    m = compile_llvm_ir(text, sig, loop_vectorize=False, slp_vectorize=False, **options)
    body = m.llvm_ir_optimized.split("define void @fill")[1].split("\n}\n")[0]
    np.testing.assert_array_equal(m.fill(), np.arange(trips) ** 2)
    return body.count("br i1"), body.count("store i64")


# How far LLVM unrolls by default depends on the host CPU's cost model (the partial unroll
# factor follows the core's loop buffer: 10 on Intel's Rocket Lake, 20 on AMD's Zen 3, and Zen 3
# also unrolls 20 constant-folding trips at a zero threshold), so these check directions, not
# one CPU's counts.
@pytest.mark.parametrize(
    "trips, options, loops, stores",
    [
        (20, {}, 0, 20),  # LLVM's default threshold unrolls 20 trips fully
        (20, {"loop_unroll": False}, 1, 1),  # no unrolling at all
        (100, {"unroll_threshold": 1000}, 0, 100),  # a threshold above the default: fully
    ],
)
def test_unroll_options(trips: int, options: dict, loops: int, stores: int) -> None:
    assert _unrolled(trips, options) == (loops, stores)


def test_unroll_threshold_limits_unrolling() -> None:
    loops, stores = _unrolled(100, {})
    assert loops == 1 and 1 < stores < 100  # partially unrolled by default
    loops0, stores0 = _unrolled(100, {"unroll_threshold": 0})
    assert loops0 == 1 and stores0 <= stores  # never more than the default


def test_option_validation() -> None:
    with pytest.raises(ValueError, match="opt_level must be 0, 1, 2 or 3, got 4"):
        JitOptions(opt_level=4)
    with pytest.raises(ValueError, match="fast_math flags not supported: \\['fastest'\\]"):
        JitOptions(fast_math=("fastest",))
    with pytest.raises(ValueError, match="unroll_threshold must be a non-negative int"):
        JitOptions(unroll_threshold=-1)
    with pytest.raises(TypeError, match="unknown JIT option"):
        compile_llvm_ir(REDUCE, {"sum": SUM_SIG}, vectorize=True)
    with pytest.raises(ValueError, match="threads must be a positive integer"):
        compile_llvm_ir(REDUCE, {"sum": SUM_SIG}, threads=0)
    assert JitOptions(fast_math=True).fast_math == ("fast",)
    assert JitOptions(fast_math="contract,reassoc").fast_math == ("contract", "reassoc")


def test_fast_math_rewrite() -> None:
    text = (
        "  %a = fadd float %x, %y\n"
        "  %b = fmul contract <8 x float> %u, %v\n"
        '  %"c d" = fcmp olt double %p, %q\n'
        "  %e = tail call float @llvm.fma.f32(float %x, float %y, float %z)\n"
        "  %f = add i32 %i, %j\n"
        "  %g = call i32 @h(float %x)\n"
        "  %n = fneg half %x\n"
    )
    out = apply_fast_math(text, ("contract", "reassoc"))
    assert "%a = fadd contract reassoc float" in out
    assert "%b = fmul contract reassoc <8 x float>" in out
    assert '%"c d" = fcmp contract reassoc olt double' in out
    assert "%e = tail call contract reassoc float @llvm.fma.f32" in out
    assert "%f = add i32" in out and "%g = call i32 @h" in out
    assert "%n = fneg contract reassoc half" in out


def test_fast_math_vectorizes_an_ordered_reduction() -> None:
    ordered = REDUCE.replace("fadd reassoc float", "fadd float")
    strict = compile_llvm_ir(ordered, {"sum": SUM_SIG})
    fast = compile_llvm_ir(ordered, {"sum": SUM_SIG}, fast_math=("reassoc",))
    body = lambda m: m.llvm_ir_optimized.split("define void @sum")[1].split("\n}\n")[0]  # noqa: E731
    assert "<8 x float>" not in body(strict) and "fadd <" not in body(strict)
    assert re.search(r"fadd reassoc <\d+ x float>", body(fast))
    x = rand(1000)
    np.testing.assert_allclose(fast.sum(x), strict.sum(x), rtol=1e-5)


def test_portable_calling_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without NumPy's struct layout the wrappers take data pointers and sizes from Python."""
    monkeypatch.setattr(calling, "ARRAY_STRUCT_OK", False)
    m = compile_llvm_ir(ADD2D, {"add": add_sig((None, 8), y=(InputDim(0, 0), 8))})
    assert not m.engine.from_objects
    s = compile_llvm_ir(SCALE, {"scale": SCALE_SIG})
    a, b = rand(6, 8), rand(6, 8, seed=1)
    np.testing.assert_array_equal(m.add(a, b), a + b)
    x = rand(4, dtype=np.float64)
    y, z = s.scale(x, 2.0, 0.5, 3, True, 9)
    np.testing.assert_array_equal(y, x * 2.0 + 3.5)
    assert int(z) == 9


def test_array_struct_layout_detected() -> None:
    assert calling.ARRAY_STRUCT_OK  # NumPy's documented PyArrayObject layout on CPython


# ---------------------------------------------------------------------------------------------
# (h) errors from LLVM and mismatched entries


def test_llvm_parse_error_names_the_line() -> None:
    bad = "define void @f() {\nentry:\n  %x = add i32 1\n  ret void\n}\n"
    with pytest.raises(
        JITError, match=r"(?s)LLVM IR parse error at line 4:3: expected ','.*\n  ret void\n  \^"
    ):
        compile_llvm_ir(bad, {})


def test_llvm_verifier_error() -> None:
    bad = (
        "define void @f() {\nentry:\n  br label %a\na:\n  %x = add i32 %y, 1\n"
        "  %y = add i32 %x, 1\n  ret void\n}\n"
    )
    with pytest.raises(JITError, match="invalid LLVM IR: Instruction does not dominate all uses"):
        compile_llvm_ir(bad, {})


def test_missing_entry_names_the_defined_ones() -> None:
    with pytest.raises(
        EntryNotFoundError,
        match=r"entry function 'main' is not defined in the "
        r"LLVM module \(defined: rowsum, sum\)",
    ):
        compile_llvm_ir(REDUCE, {"main": SUM_SIG})


def test_entry_signature_mismatch() -> None:
    with pytest.raises(
        JITError,
        match=r"entry function 'sum' parameter 5 is ptr, expected float "
        r"\(the scalar 'alpha' in sum",
    ):
        scalars = [("alpha", "f32"), ("beta", "f32"), ("gamma", "f32")]
        compile_llvm_ir(REDUCE, {"sum": Signature([("x", "f32", (None,)), *scalars])})
    with pytest.raises(
        JITError,
        match=r"entry function 'sum' has 8 parameters, its signature .* "
        r"expands to 5",
    ):
        compile_llvm_ir(REDUCE, {"sum": Signature([("x", "f32", (None,))])})
    with pytest.raises(
        JITError, match=r"entry function 'f' returns i32: entry functions return void"
    ):
        compile_llvm_ir("define i32 @f() {\n  ret i32 0\n}\n", {"f": Signature()})


# spin(sync) -> ok: sets sync[0] = 1, then waits (bounded) for another thread to set sync[1].
SPIN = """
define void @spin(ptr %s.a, ptr %s, i64 %s.o, i64 %s.n, i64 %s.st,
                  ptr %ok.a, ptr %ok, i64 %ok.o) {
entry:
  store volatile i64 1, ptr %s, align 8
  %p1 = getelementptr i64, ptr %s, i64 1
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop.next ]
  %v = load volatile i64, ptr %p1, align 8
  %seen = icmp ne i64 %v, 0
  br i1 %seen, label %done, label %loop.next
loop.next:
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, 20000000000
  br i1 %more, label %loop, label %done
done:
  %r = zext i1 %seen to i64
  store i64 %r, ptr %ok, align 8
  ret void
}
"""


def test_native_calls_release_the_gil() -> None:
    """Another Python thread runs while a kernel runs: the kernel sees its write."""
    m = compile_llvm_ir(SPIN, {"spin": Signature([("sync", "i64", (2,))], [("ok", "i64", ())])})
    sync = np.zeros(2, np.int64)

    def release() -> None:
        while sync[0] == 0:  # the kernel has started (and so released the GIL)
            pass
        sync[1] = 1

    t = threading.Thread(target=release)
    t.start()
    ok = m.spin(sync)
    t.join()
    assert int(ok) == 1


def test_docs_examples_run() -> None:
    """The Python blocks of docs/runtime.md run, in order, in one namespace."""
    doc = Path(__file__).resolve().parents[2] / "docs" / "runtime.md"
    blocks = re.findall(r"```python\n(.*?)```", doc.read_text(), re.S)
    assert len(blocks) >= 5
    old = cache.maxsize
    try:
        ns: dict[str, object] = {}
        for block in blocks:
            exec(compile(block, str(doc), "exec"), ns)
    finally:
        cache.maxsize = old


def test_unresolved_external_symbol() -> None:
    text = "declare void @mlc_no_such_function()\n" + TINY.replace(
        "  ret void", "  call void @mlc_no_such_function()\n  ret void"
    )
    with pytest.raises(JITError, match="external symbol 'mlc_no_such_function' cannot be resolved"):
        compile_llvm_ir(text, tiny_sig())
    text = "@mlc_no_such_global = external global i32\n" + TINY
    with pytest.raises(JITError, match="external symbol 'mlc_no_such_global' cannot be resolved"):
        compile_llvm_ir(text, tiny_sig())


def test_internal_entry_rejected() -> None:
    with pytest.raises(JITError, match="entry function 'first' has internal linkage"):
        compile_llvm_ir(TINY.replace("define void", "define internal void"), tiny_sig())


# A loop with a branch on a loop-invariant flag whose two sides store to different arrays:
# non-trivial unswitching (O3) makes one copy of the loop per side (blocks suffixed `.us`).
# The arguments are memrefs in the expanded calling convention (a, b: ?xf32; flag: i64).
UNSWITCH = """
define void @pick(ptr %a0, ptr noalias %a, i64 %ao, i64 %n, i64 %as, ptr %b0, ptr noalias %b,
                  i64 %bo, i64 %bn, i64 %bs, ptr %f0, ptr %fp, i64 %fo) {
entry:
  %flag = load i64, ptr %fp
  %f = icmp ne i64 %flag, 0
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %latch ]
  %v = sitofp i64 %i to float
  br i1 %f, label %left, label %right
left:
  %pa = getelementptr float, ptr %a, i64 %i
  store float %v, ptr %pa
  br label %latch
right:
  %pb = getelementptr float, ptr %b, i64 %i
  store float %v, ptr %pb
  br label %latch
latch:
  %i1 = add i64 %i, 1
  %c = icmp slt i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
"""


@pytest.mark.parametrize("unswitch", [False, True])
def test_loop_unswitch_option(unswitch: bool) -> None:
    sig = {
        "pick": Signature(
            [ArgSpec("a", "f32", ("n",)), ArgSpec("b", "f32", ("n",)), ArgSpec("flag", "i64", ())],
            [],
        )
    }
    m = compile_llvm_ir(UNSWITCH, sig, loop_unswitch=unswitch, use_cache=False)
    assert m.options.loop_unswitch is unswitch
    assert (".us" in m.llvm_ir_optimized) is unswitch
    for flag in (0, 1):
        a, b = np.zeros(37, np.float32), np.zeros(37, np.float32)
        m.pick(a, b, np.array(flag, np.int64))
        np.testing.assert_array_equal(a if flag else b, np.arange(37, dtype=np.float32))
        assert not (b if flag else a).any()
    with pytest.raises(ValueError, match="loop_unswitch must be a bool"):
        JitOptions(loop_unswitch=1)
