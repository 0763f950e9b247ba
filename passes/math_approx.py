"""`math-polynomial-approximation`: f32 math functions (scalars and vectors) rewritten into
arith ops, `math.fma` and `math.absf` (range reduction + polynomial + exponent bit
manipulation), which LLVM vectorizes, instead of libm calls it cannot vectorize.

Coefficients are minimax fits (Lawson's iteratively reweighted least squares on Chebyshev
points, in float64, for the relative error of the result) rounded to f32. The measured error
of each function against float64 over its whole domain is in docs/math-approximation.md and
checked by test/python/test_math_approx.py.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from functools import lru_cache

from mlc.dialects import arith, math
from mlc.dialects.arith_fold import CMPF_PREDICATES, CMPI_PREDICATES
from mlc.dialects.llvm_ops_elements import LdexpOp

from mlc.ir import attributes as A
from mlc.ir.builder import Builder
from mlc.ir.core import Operation, Value
from mlc.knobs import Bool
from mlc.pass_manager import KnobDecl, ListOption, Option, Pass, PassContext, Statistic

_CMPF = {n: i for i, n in enumerate(CMPF_PREDICATES)}
_CMPI = {n: i for i, n in enumerate(CMPI_PREDICATES)}

LN2_HI = 0.693359375  # 9 significant bits: k * LN2_HI is exact for |k| < 2^15
LN2_LO = -2.12194440e-4  # ln 2 - LN2_HI, rounded to f32
LOG2E = 1.44269504088896341
# fptosi(y + ROUND_BIAS + 0.5) - ROUND_BIAS rounds |y| < ROUND_BIAS to a nearest integer
# (truncation of a positive number is its floor). Unlike the 1.5 * 2^23 trick, no fast-math
# reassociation can fold it away (llvm-options may add `fast` to every float instruction).
ROUND_BIAS = 256

# e^r = 1 + r * (1 + r * P(r)) on [-ln2/2, ln2/2] (relative error of the fit 2^-28.3).
EXP_P = (0.4999999403953552, 0.1666652113199234, 0.04166838899254799,
         0.008368710055947304, 0.001381461275741458)  # fmt: skip
# e^r - 1 = r + r^2 * P(r) on [-ln2/2, ln2/2] (2^-32.0).
EXPM1_P = (0.5, 0.1666666567325592, 0.041666362434625626, 0.008333389647305012,
           0.0013940617209300399, 0.00019845877250190824)  # fmt: skip
# 2^r = 1 + r * Q(r) on [-1/2, 1/2] (2^-28.9).
EXP2_Q = (0.6931471824645996, 0.24022647738456726, 0.055503323674201965,
          0.00961843691766262, 0.0013398875016719103, 0.00015353361959569156)  # fmt: skip
# log(1 + f) = f + f^2 * (-1/2 + f * P(f)) on [sqrt(1/2) - 1, sqrt(2) - 1] (2^-27.4).
LOG_P = (0.3333333134651184, -0.2500081956386566, 0.20001226663589478, -0.16623356938362122,
         0.14201757311820984, -0.13160182535648346, 0.1276158094406128,
         -0.07634498924016953)  # fmt: skip
# The f32 range of 1 + f (rounded inwards) where log1p(f) is the polynomial directly.
LOG1P_NEAR0 = (-0.2928932011127472, 0.41421353816986084)
# tanh(x) = x + x^3 * P(x^2) on [0, 0.55] (2^-29.8); beyond, 1 - 2 / (e^(2|x|) + 1).
TANH_SMALL = 0.55
TANH_P = (-0.33333316445350647, 0.13332585990428925, -0.05385230854153633,
          0.021071678027510643, -0.006274238228797913)  # fmt: skip
# erf(x) = x * (2/sqrt(pi) + x^2 Q(x^2)) on [0, 1] (2^-29.5); beyond, erf(a) = 1 -
# e^R(a - 2.25) with R ~ log(erfc) on [1, 4] (2^-35.8 relative to erf); erf(a) rounds to 1
# in f32 above 3.92.
ERF_SMALL = 1.0
ERF_Q = (-0.3761262893676758, 0.11283617466688156, -0.02685491554439068, 0.00519016245380044,
         -0.0008024818380363286, 7.89869372965768e-05)  # fmt: skip
ERF_C0_HI = 1.128379225730896  # 2/sqrt(pi) = ERF_C0_HI + ERF_C0_LO
ERF_C0_LO = -5.8635382771399236e-08
ERF_CENTER = 2.25
ERF_R = (-6.527460098266602, -4.882914066314697, -0.9348678588867188, -0.013311926275491714,
         0.0027743596583604813, -0.0005522060673683882, 0.00010054156155092642,
         -2.093685179715976e-05, 2.120457764931416e-07)  # fmt: skip

INF = float("inf")
NAN = float("nan")


class _Emitter:
    """Creates arith/math ops on one f32 type (scalar or vector) before an op, with constants
    made once per expansion."""

    __slots__ = ("b", "ft", "it", "bt", "ldexp", "_consts")

    def __init__(self, b: Builder, ft: A.Type, ldexp: bool = False) -> None:
        self.b = b
        self.ft = ft
        # Scale by 2^k with `llvm.intr.ldexp` (one vscalefps with AVX-512) instead of
        # exponent-field arithmetic.
        self.ldexp = ldexp
        vec = type(ft) is A.VectorType
        self.it = ft.clone_with(element_type=A.i32) if vec else A.i32  # type: ignore[attr-defined]
        self.bt = ft.clone_with(element_type=A.i1) if vec else A.i1  # type: ignore[attr-defined]
        self._consts: dict[tuple[str, object], Value] = {}

    def _const(self, kind: str, value: float | int, t: A.Type) -> Value:
        key = (kind, repr(value))
        c = self._consts.get(key)
        if c is None:
            if type(t) is A.VectorType:
                attr: A.Attribute = A.DenseElementsAttr(t, value)  # type: ignore[arg-type]
            elif kind == "f":
                attr = A.FloatAttr(value, t)
            else:
                attr = A.IntegerAttr(value, t)
            c = self._new(arith.ConstantOp, [], t, {"value": attr})
            self._consts[key] = c
        return c

    def f(self, value: float) -> Value:
        return self._const("f", float(value), self.ft)

    def i(self, value: int) -> Value:
        return self._const("i", value, self.it)

    def _new(self, cls: type, operands: list[Value], t: A.Type, attrs: dict | None = None) -> Value:
        op = cls.create(operands, [t], attrs, location=self.b.location)
        self.b.insert(op)
        return op.results[0]  # type: ignore[no-any-return]

    # float arithmetic
    def add(self, a: Value, b: Value) -> Value:
        return self._new(arith.AddFOp, [a, b], self.ft)

    def sub(self, a: Value, b: Value) -> Value:
        return self._new(arith.SubFOp, [a, b], self.ft)

    def mul(self, a: Value, b: Value) -> Value:
        return self._new(arith.MulFOp, [a, b], self.ft)

    def div(self, a: Value, b: Value) -> Value:
        return self._new(arith.DivFOp, [a, b], self.ft)

    def fma(self, a: Value, b: Value, c: Value) -> Value:
        return self._new(math.FmaOp, [a, b, c], self.ft)

    def abs(self, a: Value) -> Value:
        return self._new(math.AbsFOp, [a], self.ft)

    def cmpf(self, pred: str, a: Value, b: Value) -> Value:
        attrs = {"predicate": A.IntegerAttr(_CMPF[pred], A.i64)}
        return self._new(arith.CmpFOp, [a, b], self.bt, attrs)

    def select(self, c: Value, a: Value, b: Value) -> Value:
        return self._new(arith.SelectOp, [c, a, b], a.type)

    def poly(self, x: Value, coeffs: tuple[float, ...]) -> Value:
        """c0 + c1 x + ... by Horner's rule with fused multiply-adds."""
        p = self.f(coeffs[-1])
        for c in reversed(coeffs[:-1]):
            p = self.fma(p, x, self.f(c))
        return p

    def clamp(self, x: Value, lo: float, hi: float) -> Value:
        """x limited to [lo, hi]; NaN stays NaN (ordered compares are false for it)."""
        x = self.select(self.cmpf("olt", x, self.f(lo)), self.f(lo), x)
        return self.select(self.cmpf("ogt", x, self.f(hi)), self.f(hi), x)

    # integer views
    def bits(self, a: Value) -> Value:
        return self._new(arith.BitcastOp, [a], self.it)

    def float_of(self, a: Value) -> Value:
        return self._new(arith.BitcastOp, [a], self.ft)

    def iop(self, cls: type, a: Value, b: Value) -> Value:
        return self._new(cls, [a, b], self.it)

    def cmpi(self, pred: str, a: Value, b: Value) -> Value:
        attrs = {"predicate": A.IntegerAttr(_CMPI[pred], A.i64)}
        return self._new(arith.CmpIOp, [a, b], self.bt, attrs)

    def sitofp(self, a: Value) -> Value:
        return self._new(arith.SIToFPOp, [a], self.ft)

    def ldexp_op(self, p: Value, k: Value) -> Value:
        """p * 2^k rounded once (`llvm.intr.ldexp`; k an i32 of any value)."""
        return self._new(LdexpOp, [p, k], self.ft)

    def pow2(self, k: Value) -> Value:
        """2^k for integer k in [-126, 127], built from its exponent field."""
        biased = self.iop(arith.AddIOp, k, self.i(127))
        return self.float_of(self.iop(arith.ShLIOp, biased, self.i(23)))

    def copysign(self, magnitude: Value, sign_of: Value) -> Value:
        """`magnitude` (non-negative) with the sign bit of `sign_of`."""
        sign = self.iop(arith.AndIOp, self.bits(sign_of), self.i(-(1 << 31)))
        return self.float_of(self.iop(arith.OrIOp, self.bits(magnitude), sign))


# ---------------------------------------------------------------------------------------------
# The approximations (each takes and returns an f32-typed value)


def _round_to_int(e: _Emitter, y: Value) -> tuple[Value, Value]:
    """(float, i32) nearest integer of `y`, |y| < ROUND_BIAS. NaN gives poison (fptosi): the
    callers select their NaN result last."""
    k = e._new(arith.FPToSIOp, [e.add(y, e.f(ROUND_BIAS + 0.5))], e.it)
    k = e.iop(arith.SubIOp, k, e.i(ROUND_BIAS))
    return e.sitofp(k), k


def _nan_guard(e: _Emitter, x: Value, res: Value) -> Value:
    """`res`, or x where x is NaN (res is poison there)."""
    return e.select(e.cmpf("uno", x, x), x, res)


def _scale(e: _Emitter, p: Value, k: Value) -> Value:
    """p * 2^k for k in [-252, 254]: two exact scalings by normal powers of two, so only the
    last product rounds (into the subnormal range or to infinity)."""
    k1 = e.iop(arith.ShRSIOp, k, e.i(1))
    k2 = e.iop(arith.SubIOp, k, k1)
    return e.mul(e.mul(p, e.pow2(k1)), e.pow2(k2))


def _exp_reduce(e: _Emitter, x: Value) -> tuple[Value, Value]:
    """(r, k) with x = k ln2 + r, |r| <= ln2/2 (Cody-Waite: k * LN2_HI is exact)."""
    kf, k = _round_to_int(e, e.mul(x, e.f(LOG2E)))
    r = e.fma(kf, e.f(-LN2_HI), x)
    return e.fma(kf, e.f(-LN2_LO), r), k


# 1.5 * 2^23: for |y| < 2^22, y + SHIFTER rounds y to the nearest integer n (ties to even) and
# the encoding of the sum is SHIFTER's plus n, so n is an integer subtraction away.
SHIFTER = 12582912.0
SHIFTER_BITS = 0x4B400000


def _fused_shift(e: _Emitter, x: Value, shifter: float = SHIFTER) -> tuple[Value, Value]:
    """The bits t of x * log2(e) + shifter (k = round(x * log2(e)) is `_k_of(t)` for SHIFTER)
    and k as a float: the shifted value minus the shifter, one exact subtraction (both in
    [2^23, 2^24)) instead of an integer subtraction and a conversion. Fast-math does not fold it
    to x * log2(e): LLVM does not reassociate through an fma (test_math_approx checks it under
    `fast`). A shifter of SHIFTER + b puts k + b in the low bits of t (for k + b >= 0)."""
    shifted = e.fma(x, e.f(LOG2E), e.f(shifter))
    t = e.bits(shifted)
    return t, e.sub(shifted, e.f(shifter))


def _exp_shifted(e: _Emitter, x: Value) -> tuple[Value, Value]:
    """exp's reduction by the shifter (see `approx_exp`) for x in exp's clamped range: the bits
    t of the fused shift (`_fused_shift`) and p = e^r for the rest r, so that e^x = p * 2^k."""
    t, kf = _fused_shift(e, x)
    r = e.fma(kf, e.f(-LN2_LO), e.fma(kf, e.f(-LN2_HI), x))
    return t, e.fma(e.fma(e.poly(r, EXP_P), r, e.f(1.0)), r, e.f(1.0))


def _k_of(e: _Emitter, t: Value) -> Value:
    """The integer k = round(x log2(e)) from the bits t of the fused shift."""
    return e.iop(arith.SubIOp, t, e.i(SHIFTER_BITS))


def approx_exp(e: _Emitter, x: Value) -> Value:
    """e^x = p * 2^k. The fused x * log2(e) + SHIFTER gives k in its low mantissa bits (k from
    the exact product, one rounding), so no float -> int conversion is needed and no fast-math
    reassociation can fold the rounding away (the integer ops see only the bits). 2^k is
    applied by `llvm.intr.ldexp` (`e.ldexp`: one vscalefps with AVX-512, 15 vector ops in
    all) or by an exact two-step scaling whose exponent fields come from k + 254 by one shift
    and one subtraction (19 ops; k as a float is the fused result minus SHIFTER, exact); both
    round once, so they give the same bits. A NaN input
    stays NaN through r and p (NaN * anything is NaN), so no NaN select is needed."""
    # exp(88.8) overflows and exp(-104) rounds to 0; the clamp keeps k in [-150, 128].
    xc = e.clamp(x, -104.0, 88.8)
    t, p = _exp_shifted(e, xc)
    if e.ldexp:
        return e.ldexp_op(p, _k_of(e, t))
    # p * 2^k1 * 2^k2 with k1 = k >> 1, k2 = k - k1 (both scalings exact, see _scale); with
    # kb = k + 254 >= 104: kb >> 1 = k1 + 127 and kb - (kb >> 1) = k2 + 127, the biased fields.
    kb = e.iop(arith.SubIOp, t, e.i(SHIFTER_BITS - 254))
    k1b = e.iop(arith.ShRSIOp, kb, e.i(1))
    k2b = e.iop(arith.SubIOp, kb, k1b)
    s1 = e.float_of(e.iop(arith.ShLIOp, k1b, e.i(23)))
    s2 = e.float_of(e.iop(arith.ShLIOp, k2b, e.i(23)))
    return e.mul(e.mul(p, s1), s2)


# A discardable attribute on `math.exp` from its producer's lowering (graph.softmax's
# exp(x - max(x)), knob `shifted_exp` of convert-graph-to-tensor): the argument is <= 0 or NaN,
# results below 2^-126 (subnormal) may be flushed to zero, and a relative error up to
# SHIFTED_EXP_REL_ERROR is accepted (softmax: a few ulps of each output).
SHIFTED_EXP = "mlc.shifted_exp"
# k = round(x log2 e) = -127 at the clamp, so that 2^k built from the exponent field is +0.
SHIFTED_EXP_MIN = -88.0
SHIFTED_EXP_REL_ERROR = 2.0**-21  # measured: 2^-21.3 (4.9 ulp) at k = -126, ~1.5 ulp for k > -16
LN2_F32 = 0.6931471824645996  # ln 2 rounded to f32 (k * (ln 2 - LN2_F32) <= 2.4e-7 for |k| <= 127)
# e^r = 1 + r * (1 + r * P(r)) on [-ln2/2, ln2/2], P of degree 3 (relative error 2^-23.2).
EXP_P3 = (0.499992311000824, 0.16667114198207855, 0.04189011827111244,
          0.00831252709031105)  # fmt: skip


def approx_exp_shifted(e: _Emitter, x: Value) -> Value:
    """e^x for x <= 0 or NaN (`SHIFTED_EXP`), 11 vector ops against exp's 20: one clamp (the
    upper one is moot), k from the fused shift as in exp (as a float: the shifted value minus
    the shifter; the shifter carries the exponent bias 127), r = x - k ln2 in one fused
    multiply-add (k ln2's rounding is k (ln 2 - LN2_F32), at most 2.4e-7 relative for k >=
    -127), a polynomial of degree 5, and one scaling by 2^k from the exponent field
    (k + 127) << 23, k in [-127, 0], one shift of the fused sum's bits: exact for results of
    at least 2^-126, rounding once into the subnormal range for k = -126; at the clamp
    (x < -87.68, e^x below 1.2e-38) k = -127 makes the field 0 and the result +0. Relative
    error below 2^-21 where e^x >= 2^-126. A NaN stays NaN through p (a NaN's low 9 bits make
    some scale, +0 for x86's default NaN: NaN * 0 is NaN); x = -inf is clamped and gives +0."""
    lo = -104.0 if e.ldexp else SHIFTED_EXP_MIN  # ldexp: exp's clamp and exact subnormals
    xc = e.select(e.cmpf("olt", x, e.f(lo)), e.f(lo), x)
    # Without ldexp the shifter carries the exponent bias: the low 9 bits of t are then
    # k + 127 in [0, 127] itself, so `t << 23` is 2^k's encoding with no subtraction.
    t, kf = _fused_shift(e, xc, SHIFTER if e.ldexp else SHIFTER + 127.0)
    r = e.fma(kf, e.f(-LN2_F32), xc)
    p = e.fma(e.fma(e.poly(r, EXP_P3), r, e.f(1.0)), r, e.f(1.0))
    if e.ldexp:
        return e.ldexp_op(p, _k_of(e, t))
    return e.mul(p, e.float_of(e.iop(arith.ShLIOp, t, e.i(23))))


def approx_exp2(e: _Emitter, x: Value) -> Value:
    xc = e.clamp(x, -152.0, 129.0)
    kf, k = _round_to_int(e, xc)
    r = e.sub(xc, kf)  # exact
    p = e.fma(e.poly(r, EXP2_Q), r, e.f(1.0))
    return _nan_guard(e, x, e.ldexp_op(p, k) if e.ldexp else _scale(e, p, k))


def approx_expm1(e: _Emitter, x: Value) -> Value:
    # expm1(x) = 2^k (expm1(r) + 1) - 1 = 2^k expm1(r) + (2^k - 1): exact 2^k - 1 and one
    # rounding for |k| <= 24; above, expm1 = exp to f32 precision, scaled by 2^(k-1) * 2 so
    # that k = 128 does not overflow early. Below -18 the result is -1.
    xc = e.clamp(x, -18.0, 88.8)
    r, k = _exp_reduce(e, xc)
    em = e.fma(e.mul(r, r), e.poly(r, EXPM1_P), r)
    s = e.pow2(k)
    small = e.fma(s, em, e.sub(s, e.f(1.0)))
    half = e.pow2(e.iop(arith.SubIOp, k, e.i(1)))
    big = e.mul(e.mul(e.add(em, e.f(1.0)), half), e.f(2.0))
    res = e.select(e.cmpi("sgt", k, e.i(24)), big, small)
    # expm1(+-0) = +-0 (the sum above would give +0 for -0).
    return _nan_guard(e, x, e.select(e.cmpf("oeq", x, e.f(0.0)), x, res))


def _log_reduce(e: _Emitter, x: Value, subnormals: bool) -> tuple[Value, Value]:
    """(f, k) with x = 2^k (1 + f), 1 + f in [sqrt(1/2), sqrt(2)), for x > 0 finite."""
    kbias = e.i(127)
    if subnormals:
        tiny = e.cmpf("olt", x, e.f(2.0**-126))
        x = e.select(tiny, e.mul(x, e.f(2.0**23)), x)
        kbias = e.select(tiny, e.i(127 + 23), kbias)
    # Offsetting the encoding by 1 - sqrt(1/2) makes the exponent field of the sum the k of
    # the reduced range.
    ix = e.iop(arith.AddIOp, e.bits(x), e.i(0x3F800000 - 0x3F3504F3))
    k = e.iop(arith.SubIOp, e.iop(arith.ShRSIOp, ix, e.i(23)), kbias)
    m = e.iop(arith.AddIOp, e.iop(arith.AndIOp, ix, e.i(0x007FFFFF)), e.i(0x3F3504F3))
    return e.sub(e.float_of(m), e.f(1.0)), k


def _log1p_tail(e: _Emitter, f: Value) -> Value:
    """log(1 + f) - f for f in the reduced range."""
    return e.mul(e.mul(f, f), e.fma(f, e.poly(f, LOG_P), e.f(-0.5)))


def _log_specials(e: _Emitter, x: Value, res: Value, zero_at: float) -> Value:
    """+inf at +inf, -inf at `zero_at`, NaN below it and for NaN."""
    res = e.select(e.cmpf("oeq", x, e.f(INF)), e.f(INF), res)
    res = e.select(e.cmpf("oeq", x, e.f(zero_at)), e.f(-INF), res)
    return e.select(e.cmpf("ult", x, e.f(zero_at)), e.f(NAN), res)


def approx_log(e: _Emitter, x: Value) -> Value:
    f, k = _log_reduce(e, x, True)
    kf = e.sitofp(k)
    lo = e.fma(kf, e.f(LN2_LO), _log1p_tail(e, f))
    res = e.fma(kf, e.f(LN2_HI), e.add(f, lo))
    return _log_specials(e, x, res, 0.0)


def _log_scaled(e: _Emitter, x: Value, base: tuple[float, float], k2: tuple[float, float]) -> Value:
    """log_b(x) = log1p(f) * log_b(e) + k * log_b(2), each constant split in hi + lo."""
    (base_hi, base_lo), (k_hi, k_lo) = base, k2
    f, k = _log_reduce(e, x, True)
    kf = e.sitofp(k)
    t = e.mul(_log1p_tail(e, f), e.f(base_hi + base_lo))
    t = e.fma(f, e.f(base_lo), t)
    t = e.fma(f, e.f(base_hi), e.fma(kf, e.f(k_lo), t))
    res = e.fma(kf, e.f(k_hi), t)
    return _log_specials(e, x, res, 0.0)


def _split(v: float) -> tuple[float, float]:
    """v as an f32 with 12 significant bits plus the f32 rest (products by small ints exact)."""
    hi = struct.unpack("<f", struct.pack("<f", v))[0]
    hi_bits = struct.unpack("<I", struct.pack("<f", hi))[0] & 0xFFFFF000
    hi = struct.unpack("<f", struct.pack("<I", hi_bits))[0]
    return hi, v - hi


_LOG2E = _split(LOG2E)
_LOG10E = _split(0.43429448190325182765)
_LOG10_2 = _split(0.30102999566398119521)


def approx_log2(e: _Emitter, x: Value) -> Value:
    return _log_scaled(e, x, _LOG2E, (1.0, 0.0))


def approx_log10(e: _Emitter, x: Value) -> Value:
    return _log_scaled(e, x, _LOG10E, _LOG10_2)


def approx_log1p(e: _Emitter, x: Value) -> Value:
    # In the reduced range the polynomial is log1p itself. Elsewhere log1p(x) = log(u) +
    # log(1 + c/u) ~ log(u) + c/u for u = fl(1 + x) and c = (1 + x) - u, exact (Sterbenz) on
    # either side of 2; there |c/u| is below an ulp of the result, so a fast-math
    # reassociation that folds c to 0 costs at most about an ulp.
    one = e.f(1.0)
    near0 = e.add(x, _log1p_tail(e, x))
    u = e.add(x, one)
    f, k = _log_reduce(e, u, False)
    kf = e.sitofp(k)
    c_big = e.sub(one, e.sub(u, x))
    c_small = e.sub(x, e.sub(u, one))
    c = e.div(e.select(e.cmpf("oge", u, e.f(2.0)), c_big, c_small), u)
    lo = e.fma(kf, e.f(LN2_LO), e.add(_log1p_tail(e, f), c))
    far = e.fma(kf, e.f(LN2_HI), e.add(f, lo))
    lo_end, hi_end = LOG1P_NEAR0
    inside = e.cmpf("oge", x, e.f(lo_end))
    inside = e._new(arith.AndIOp, [inside, e.cmpf("ole", x, e.f(hi_end))], e.bt)
    res = e.select(inside, near0, far)
    return _log_specials(e, x, res, -1.0)


def approx_tanh(e: _Emitter, x: Value) -> Value:
    # Computed on |x|, then the sign of x (tanh is odd, tanh(-0) = -0).
    a = e.abs(x)
    a2 = e.mul(a, a)
    near0 = e.fma(e.mul(a, a2), e.poly(a2, TANH_P), a)
    # 1 - 2 / (e^(2a) + 1), with e^(2a) for 2a in [0, 20] only: tanh rounds to 1 from
    # a = 9.01, so no overflow or subnormal handling (2^k with k <= 29 is one scaling).
    two_a = e.add(a, a)
    t = _exp_upto_20(e, e.select(e.cmpf("ogt", two_a, e.f(20.0)), e.f(20.0), two_a))
    far = e.sub(e.f(1.0), e.div(e.f(2.0), e.add(t, e.f(1.0))))
    res = e.select(e.cmpf("olt", a, e.f(TANH_SMALL)), near0, far)
    # A NaN x is NaN through both branches and keeps being one through the sign copy.
    return e.copysign(res, x)


def _exp_upto_20(e: _Emitter, y: Value) -> Value:
    """e^y for y in [0, 20] or NaN: exp's reduction (k from the bits of the fused shift, no
    float -> int conversion, so a NaN stays NaN without a select) and 2^k, k <= 29, as one
    normal power of two from the exponent field ((t << 23) is k << 23: the shifter's own
    bits vanish in the shift) or by `llvm.intr.ldexp`."""
    t, p = _exp_shifted(e, y)
    if e.ldexp:
        return e.ldexp_op(p, _k_of(e, t))
    scale = e.iop(arith.AddIOp, e.iop(arith.ShLIOp, t, e.i(23)), e.i(127 << 23))
    return e.mul(p, e.float_of(scale))


def approx_erf(e: _Emitter, x: Value) -> Value:
    # Computed on |x|, then the sign of x (erf is odd).
    a = e.abs(x)
    # a * (c0 + a^2 Q(a^2)) with c0 = 2/sqrt(pi) split in two f32s: c0 rounded to f32 alone
    # would cost 0.4 ulp.
    a2 = e.mul(a, a)
    tail = e.mul(a2, e.poly(a2, ERF_Q))
    near0 = e.fma(a, e.f(ERF_C0_HI), e.mul(a, e.add(tail, e.f(ERF_C0_LO))))
    q = e.poly(e.sub(e.clamp(a, ERF_SMALL, 4.0), e.f(ERF_CENTER)), ERF_R)
    far = e.sub(e.f(1.0), approx_exp(e, q))
    return e.copysign(e.select(e.cmpf("olt", a, e.f(ERF_SMALL)), near0, far), x)


APPROXIMATIONS: dict[str, Callable[[_Emitter, Value], Value]] = {
    "exp": approx_exp,
    "exp2": approx_exp2,
    "expm1": approx_expm1,
    "log": approx_log,
    "log2": approx_log2,
    "log10": approx_log10,
    "log1p": approx_log1p,
    "tanh": approx_tanh,
    "erf": approx_erf,
}
_NARROW = ("f16", "bf16")


def _f32_type(t: A.Type) -> A.Type | None:
    """The f32 type an op of type `t` computes in (f16/bf16 widen), or None if unsupported
    (f64 stays with libm; tensors are left to the later levels)."""
    vec = type(t) is A.VectorType
    if not vec and type(t) is not A.FloatType:
        return None
    et = t.element_type if vec else t  # type: ignore[attr-defined]
    if type(et) is not A.FloatType or et.kind not in ("f32", *_NARROW):  # type: ignore[attr-defined]
        return None
    return t.clone_with(element_type=A.f32) if vec else A.f32  # type: ignore[attr-defined]


# The functions whose result is scaled by an arbitrary 2^k (knob `ldexp`).
SCALED = frozenset(("exp", "exp2", "erf", "tanh"))


@lru_cache(maxsize=1)
def host_has_avx512() -> bool:
    """Whether the JIT host has AVX-512F (`llvm.intr.ldexp` is then one vscalefps; without it
    LLVM calls libm's ldexpf per element)."""
    try:
        from mlc.runtime import host_target

        return bool(host_target().has_feature("avx512f"))
    except Exception:  # noqa: BLE001 - no JIT available: assume AVX2
        return False


def approximate(op: Operation, ldexp: bool = False) -> bool:
    """Replace `op` (math.<fn> on f32/f16/bf16 scalars or vectors) by its approximation;
    `ldexp`: scale by 2^k with `llvm.intr.ldexp` (exp, exp2, erf, tanh)."""
    fn = APPROXIMATIONS.get(op.name[5:]) if op.name.startswith("math.") else None
    t = op.results[0].type
    ft = _f32_type(t)
    if fn is None or ft is None:
        return False
    e = _Emitter(Builder.before(op, op.location), ft, ldexp)
    x = op.operands[0]
    if ft is not t:
        x = e._new(arith.ExtFOp, [x], ft)
    if fn is approx_exp and op.get_attr(SHIFTED_EXP) is not None:
        fn = approx_exp_shifted
    res = fn(e, x)
    if ft is not t:
        res = e._new(arith.TruncFOp, [res], t)
    op.results[0].replace_all_uses_with(res)
    op.erase()
    return True


class MathPolynomialApproximationPass(Pass):
    """Expand f32 math functions into polynomial approximations made of arith ops.

    Rewrites `math.exp`, `exp2`, `expm1`, `log`, `log2`, `log10`, `log1p`, `tanh` and `erf` on
    f32 scalars and vectors (f16/bf16 compute in f32) into range reduction, a minimax
    polynomial and exponent bit manipulation (`arith` ops, `math.fma`, `math.absf`), all of
    which LLVM vectorizes, instead of libm calls or scalarized intrinsics. Results are within
    a few ulps of the correctly rounded value over the whole domain, with IEEE special values
    (NaN in -> NaN, overflow to inf, subnormal results, exact signed zeros where the function
    has them). f64 and tensor-typed ops are left alone. The `ops` option selects the
    functions; the per-op knob `approximate` can keep an op as is (a libm call or intrinsic).
    The per-op knob `ldexp` (exp, exp2, erf, tanh; default from the `ldexp` option: on when the
    host has AVX-512F) applies the final 2^k with `llvm.intr.ldexp` (one vscalefps) instead
    of exponent-field arithmetic; both round once and give the same bits.
    """

    name = "math-polynomial-approximation"
    ops = ListOption(
        str, tuple(APPROXIMATIONS), "Math functions to approximate (names without 'math.')"
    )
    ldexp = Option(
        str,
        "host",
        "Default of the `ldexp` knobs: scale exp/exp2/erf/tanh results by 2^k with llvm.intr.ldexp "
        "('host': when the JIT host has AVX-512F, where it is one vscalefps)",
        choices=("host", "true", "false"),
    )
    knobs = (
        KnobDecl("approximate", "bool", "Replace this math op by its polynomial approximation"),
        KnobDecl("ldexp", "bool", "Scale by 2^k with llvm.intr.ldexp (exp, exp2, erf, tanh)"),
    )
    num_approximated = Statistic("num-approximated", "Number of math ops approximated")

    def run(self, op: Operation, ctx: PassContext) -> None:
        selected = set(self.ops)
        unknown = sorted(selected - set(APPROXIMATIONS))
        if unknown:
            ctx.error(
                f"math-polynomial-approximation: not supported: ops {', '.join(unknown)} "
                f"(supported: {', '.join(APPROXIMATIONS)})",
                op,
            )
            return
        names = {"math." + n for n in selected}
        candidates = [
            o
            for o in op.walk()
            if o.name in names and o is not op and _f32_type(o.results[0].type) is not None
        ]
        ldexp_default = self.ldexp == "true" or (self.ldexp == "host" and host_has_avx512())
        for o in candidates:
            if not ctx.knob(o, "approximate", Bool(), True):
                continue
            ldexp = o.name[5:] in SCALED and ctx.knob(o, "ldexp", Bool(), ldexp_default)
            if approximate(o, ldexp):
                self.num_approximated += 1
