"""Floating-point text and bit patterns exactly as MLIR prints them (LLVM APFloat's algorithm).

`format_float(value, kind)` gives the text of a float attribute or dense element: `1.000000e+00`
when six significant digits round-trip, else APFloat's shortest-ish default form (`0.1234567`,
`1.2345678E+20`), else the bit pattern in hex (`0x7FC00000`: infinities, NaNs, and values whose
default form has no `.`). `float_to_bits` / `float_from_bits` convert between a Python float and
the encoding of a float type, keeping NaN payloads (the parser uses them for hex literals).
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction

__all__ = ["format_float", "float_to_bits", "float_from_bits", "round_to_kind", "SEMANTICS"]

# kind -> (total bits, exponent bits, stored mantissa bits, style). Styles: "ieee" (inf and NaN
# at the all-ones exponent), "fn" (no inf; NaN is all ones), "fnuz" (no inf, no -0; NaN is
# the sign bit alone), "x87" (f80 with its explicit integer bit), "e8m0" (exponent only).
SEMANTICS: dict[str, tuple[int, int, int, str]] = {
    "f16": (16, 5, 10, "ieee"), "bf16": (16, 8, 7, "ieee"), "f32": (32, 8, 23, "ieee"),
    "f64": (64, 11, 52, "ieee"), "f80": (80, 15, 64, "x87"), "f128": (128, 15, 112, "ieee"),
    "tf32": (19, 8, 10, "ieee"), "f8E5M2": (8, 5, 2, "ieee"), "f8E4M3": (8, 4, 3, "ieee"),
    "f8E4M3FN": (8, 4, 3, "fn"), "f8E5M2FNUZ": (8, 5, 2, "fnuz"), "f8E4M3FNUZ": (8, 4, 3, "fnuz"),
    "f8E4M3B11FNUZ": (8, 4, 3, "fnuz"), "f8E3M4": (8, 3, 4, "ieee"), "f8E8M0FNU": (8, 8, 0, "e8m0"),
    "f6E2M3FN": (6, 2, 3, "fn"), "f6E3M2FN": (6, 3, 2, "fn"), "f4E2M1FN": (4, 2, 1, "fn"),
}  # fmt: skip

_BIAS_FIX = {"f8E5M2FNUZ": 1, "f8E4M3FNUZ": 1, "f8E4M3B11FNUZ": 4}


def _params(kind: str) -> tuple[int, int, int]:
    """(precision in bits incl. the implicit bit, emin, emax) of a float kind."""
    total, ebits, mbits, style = SEMANTICS[kind]
    bias = (1 << (ebits - 1)) - 1 + _BIAS_FIX.get(kind, 0)
    if style == "x87":
        return 64, 1 - bias, bias
    if style == "e8m0":
        return 1, -127, 127
    emax = (1 << ebits) - 1 - bias - (1 if style == "ieee" else 0)
    return mbits + 1, 1 - bias, emax


_PARAMS = {k: _params(k) for k in SEMANTICS}


def round_to_kind(value: float, kind: str) -> float:
    """`value` rounded (to nearest, ties to even) to the precision and range of `kind`."""
    if kind == "f64" or kind == "f80" or kind == "f128" or not math.isfinite(value) or value == 0:
        return value
    if kind == "f32" or kind == "bf16":
        try:
            bits = struct.unpack("<I", struct.pack("<f", value))[0]
        except OverflowError:
            return math.copysign(math.inf, value)
        if kind == "bf16":  # round the low 16 bits away, ties to even
            bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
        return struct.unpack("<f", struct.pack("<I", bits))[0]
    if kind == "f16":
        try:
            return struct.unpack("<e", struct.pack("<e", value))[0]
        except OverflowError:
            return math.copysign(math.inf, value)
    prec, emin, emax = _PARAMS[kind]
    r = _round_fraction(Fraction(abs(value)), prec, emin, emax)
    out = math.inf if r is None else float(r)
    return -out if value < 0 else out


def _round_fraction(q: Fraction, prec: int, emin: int, emax: int) -> Fraction | None:
    """Positive `q` rounded to nearest-even in (prec, emin, emax); None when it overflows."""
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q:
        e -= 1
    e = max(e, emin)
    ulp = Fraction(2) ** (e - prec + 1)
    scaled = q / ulp
    m = math.floor(scaled)
    rest = scaled - m
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and m % 2 == 1):
        m += 1
    r = m * ulp
    if r >= Fraction(2) ** (emax + 1):
        return None
    return r


def _round_trips(text: str, value: float, kind: str) -> bool:
    """Does `text`, read back in the semantics of `kind`, give `value` bit for bit?"""
    if kind == "f64":
        back = float(text)
        return back == value and math.copysign(1.0, back) == math.copysign(1.0, value)
    prec, emin, emax = _PARAMS[kind]
    q = Fraction(text)
    if q == 0:
        return value == 0 and (text[0] == "-") == (math.copysign(1.0, value) < 0)
    r = _round_fraction(abs(q), prec, emin, emax)
    return r is not None and r == abs(Fraction(value)) and (q < 0) == (value < 0)


def _decimal(value: float) -> tuple[int, int]:
    """Exact |value| = digits * 10**exp, as APFloat builds it before rounding to a precision."""
    num, den = abs(value).as_integer_ratio()
    exp2 = 1 - den.bit_length()  # den is a power of two
    tz = (num & -num).bit_length() - 1
    num >>= tz
    exp2 += tz
    if exp2 >= 0:
        return num << exp2, 0
    return num * 5 ** (-exp2), exp2


def _to_digits(value: float, precision: int) -> tuple[str, int]:
    """APFloat's significant digits (most significant first) and the power of ten of the last."""
    sig, exp = _decimal(value)
    # A first, truncating cut of the integer (APFloat's AdjustToPrecision on the APInt).
    bits = sig.bit_length()
    required = (precision * 196 + 58) // 59
    if bits > required:
        tens = (bits - required) * 59 // 196
        if tens:
            exp += tens
            sig //= 10**tens
    digits = str(sig)
    stripped = digits.rstrip("0")
    exp += len(digits) - len(stripped)
    digits = stripped
    n = len(digits)
    if n <= precision:
        return digits, exp
    # Then round half up on the decimal digits.
    if digits[precision] < "5":
        kept = digits[:precision].rstrip("0")
        return kept, exp + n - len(kept)
    kept = digits[:precision].rstrip("9")
    if not kept:
        return "1", exp + n
    kept = kept[:-1] + chr(ord(kept[-1]) + 1)
    return kept, exp + n - len(kept)


def _scientific(digits: str, exp: int, negative: bool) -> str:
    """APFloat::toString(str, 6, 0, /*TruncateZero=*/false): `d.dddddde+XX`."""
    exp += len(digits) - 1
    mantissa = digits[0] + "." + digits[1:].ljust(6, "0")
    sign = "+" if exp >= 0 else "-"
    return ("-" if negative else "") + mantissa + "e" + sign + str(abs(exp)).rjust(2, "0")


def _default_form(value: float, kind: str) -> str:
    """APFloat::toString(str) with its defaults (precision from the semantics, padding 3)."""
    precision = 2 + _PARAMS[kind][0] * 59 // 196
    digits, exp = _to_digits(value, precision)
    sign = "-" if value < 0 else ""
    n = len(digits)
    if exp >= 0:
        scientific = exp > 3 or n + exp > precision
    else:
        msd = exp + n - 1
        scientific = msd < 0 and -msd > 3
    if scientific:
        e = exp + n - 1
        rest = digits[1:] if n > 1 else "0"
        return f"{sign}{digits[0]}.{rest}E{'+' if e >= 0 else '-'}{abs(e)}"
    if exp >= 0:
        return sign + digits + "0" * exp
    whole = exp + n
    if whole > 0:
        return sign + digits[:whole] + "." + digits[whole:]
    return sign + "0." + "0" * (-whole) + digits


def format_float(value: float, kind: str) -> tuple[str, bool]:
    """MLIR's text for `value` as a float of type `kind`, and whether it is the hex form."""
    if math.isfinite(value):
        if value == 0:
            return ("-0.000000e+00" if math.copysign(1.0, value) < 0 else "0.000000e+00"), False
        digits, exp = _to_digits(value, 6)
        text = _scientific(digits, exp, value < 0)
        if _round_trips(text, value, kind):
            return text, False
        text = _default_form(value, kind)
        if "." in text:
            return text, False
    return "0x" + format(float_to_bits(value, kind), "X"), True


def _nan_payload(value: float, mbits: int) -> int:
    """The top `mbits` mantissa bits of a double NaN (its quiet bit first)."""
    bits = struct.unpack("<Q", struct.pack("<d", value))[0]
    payload = (
        (bits & ((1 << 52) - 1)) >> (52 - mbits)
        if mbits <= 52
        else (bits & ((1 << 52) - 1)) << (mbits - 52)
    )  # noqa: E501
    return payload or (1 << (mbits - 1))


def float_to_bits(value: float, kind: str) -> int:
    """The encoding of `value` (rounded to `kind`) as an unsigned integer."""
    if kind == "f64":
        return struct.unpack("<Q", struct.pack("<d", value))[0]
    total, ebits, mbits, style = SEMANTICS[kind]
    sign = 1 if math.copysign(1.0, value) < 0 else 0
    emask = (1 << ebits) - 1
    if style == "x87":
        return _x87_bits(value, sign)
    if math.isnan(value):
        if style == "fnuz":
            return 1 << (total - 1)
        if style == "fn" or style == "e8m0":
            return (sign << (total - 1)) | ((1 << (total - 1)) - 1) if style == "fn" else 0xFF
        return (sign << (total - 1)) | (emask << mbits) | _nan_payload(value, mbits)
    if math.isinf(value):
        return (sign << (total - 1)) | (emask << mbits)
    value = round_to_kind(value, kind)
    if math.isinf(value):
        return (sign << (total - 1)) | (emask << mbits)
    if value == 0:
        return 0 if style == "fnuz" else sign << (total - 1)
    prec, emin, _ = _PARAMS[kind]
    bias = 1 - emin
    m, e = math.frexp(abs(value))  # abs(value) = m * 2**e, 0.5 <= m < 1
    e -= 1
    if style == "e8m0":
        return e + bias
    if e < emin:  # subnormal
        mant = int(abs(value) * 2.0 ** (prec - 1 - emin))
        return (sign << (total - 1)) | mant
    mant = int((m * 2 - 1) * (1 << mbits))
    return (sign << (total - 1)) | ((e + bias) << mbits) | mant


def _x87_bits(value: float, sign: int) -> int:
    top = sign << 79
    if math.isnan(value):
        return top | (0x7FFF << 64) | (1 << 63) | _nan_payload(value, 63)
    if math.isinf(value):
        return top | (0x7FFF << 64) | (1 << 63)
    if value == 0:
        return top
    m, e = math.frexp(abs(value))
    return top | ((e - 1 + 16383) << 64) | int(m * 2 * (1 << 63))


def float_from_bits(bits: int, kind: str) -> float:
    """The Python float for an encoding of `kind` (NaN payloads kept in the top mantissa bits)."""
    if kind == "f64":
        return struct.unpack("<d", struct.pack("<Q", bits))[0]
    total, ebits, mbits, style = SEMANTICS[kind]
    if style == "x87":
        sign, e, mant = bits >> 79 & 1, bits >> 64 & 0x7FFF, bits & ((1 << 64) - 1)
        frac_bits, mant = 63, mant & ((1 << 63) - 1)
        if e == 0x7FFF:
            return _special(sign, mant, frac_bits)
        return (-1.0 if sign else 1.0) * math.ldexp(
            (1 << 63 if e else 0) + mant, e - 16383 - 63 + (e == 0)
        )  # noqa: E501
    sign = bits >> (total - 1) & 1
    e = bits >> mbits & ((1 << ebits) - 1)
    mant = bits & ((1 << mbits) - 1)
    prec, emin, _ = _PARAMS[kind]
    bias = 1 - emin
    if style == "ieee" and e == (1 << ebits) - 1:
        return _special(sign, mant, mbits)
    if style == "fn" and e == (1 << ebits) - 1 and mant == (1 << mbits) - 1:
        return math.nan
    if style == "fnuz" and bits == 1 << (total - 1):
        return math.nan
    if style == "e8m0":
        return math.nan if bits == 0xFF else math.ldexp(1.0, bits - bias)
    if e == 0:
        mag = math.ldexp(mant, emin - mbits)
    else:
        mag = math.ldexp((1 << mbits) | mant, e - bias - mbits)
    return -mag if sign else mag


def _special(sign: int, mant: int, mbits: int) -> float:
    if mant == 0:
        return -math.inf if sign else math.inf
    payload = mant << (52 - mbits) if mbits <= 52 else mant >> (mbits - 52)
    bits = (sign << 63) | (0x7FF << 52) | (payload or 1 << 51)
    return struct.unpack("<d", struct.pack("<Q", bits))[0]
