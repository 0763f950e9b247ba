"""Mixed static/dynamic index lists, shared by the tensor, memref and vector dialects (MLIR's
`parseDynamicIndexList`/`printDynamicIndexList` of the view-like interface): `[0, %i, 4]` is
stored as the SSA operands plus an `array<i64>` property with DYNAMIC_INDEX where an operand
stands.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mlc.ir.core import Value

DYNAMIC_INDEX = -(1 << 63)
"""MLIR's ShapedType::kDynamic in `static_offsets`/`static_sizes`/`static_strides`/... arrays
(types use `A.DYNAMIC` instead; the properties keep MLIR's int64 sentinel so that the generic
form matches MLIR's)."""


def parse_dynamic_index_list(
    parser: Any, sentinel: int = DYNAMIC_INDEX, delimiter: str = "square"
) -> tuple[list[Any], list[int]]:
    """`[%a, 4, %b]` (or `(...)`): the operands and the static values (`sentinel` where an
    operand stands)."""
    operands: list[Any] = []
    static: list[int] = []

    def element() -> None:
        u = parser.parse_optional_operand()
        if u is not None:
            operands.append(u)
            static.append(sentinel)
            return
        pos = parser.pos()
        v = parser.parse_optional_integer()
        if v is None:
            raise parser.error("expected SSA value or integer")
        if not -(1 << 63) <= v < (1 << 63):
            raise parser.error("integer value too large", pos)
        static.append(v)

    parser.parse_comma_separated_list(delimiter, element)
    return operands, static


def print_dynamic_index_list(
    p: Any, values: Sequence[Value], static: Sequence[int], sentinel: int = DYNAMIC_INDEX
) -> None:
    """The inverse of parse_dynamic_index_list (no leading space)."""
    parts = []
    it = iter(values)
    for s in static:
        if s == sentinel:
            v = next(it, None)
            parts.append(p.value_name(v) if v is not None else "<<missing operand>>")
        else:
            parts.append(str(s))
    p.write("[" + ", ".join(parts) + "]")
