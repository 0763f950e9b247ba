"""Index arithmetic on sizes that are ints when static and SSA values when dynamic: constants
fold, `x + 0` and `x * 1` are `x`, and only what stays dynamic becomes an `arith` op.

A class that builds IR mixes it in and provides `index(n)` (an index constant) and
`arith_op(cls, operands)` (create an `arith` op of class `cls` at its insertion point).
"""

from __future__ import annotations

from typing import Any

from mlc.dialects import arith

from mlc.ir.core import Value

__all__ = ["IndexArith"]


class IndexArith:
    __slots__ = ()

    def index(self, n: int) -> Value:
        raise NotImplementedError

    def arith_op(self, cls: Any, operands: list[Value]) -> Value:
        raise NotImplementedError

    def size(self, x: int | Value) -> Value:
        return self.index(x) if isinstance(x, int) else x

    def add(self, a: int | Value, b: int | Value) -> int | Value:
        if isinstance(a, int) and isinstance(b, int):
            return a + b
        if isinstance(b, int) and b == 0:
            return a
        if isinstance(a, int) and a == 0:
            return b
        return self.arith_op(arith.AddIOp, [self.size(a), self.size(b)])

    def sub(self, a: int | Value, b: int | Value) -> int | Value:
        if isinstance(a, int) and isinstance(b, int):
            return a - b
        if isinstance(b, int):
            return self.add(a, -b)
        return self.arith_op(arith.SubIOp, [self.size(a), b])

    def mul(self, a: int | Value, b: int | Value) -> int | Value:
        if isinstance(a, int) and isinstance(b, int):
            return a * b
        if isinstance(b, int) and b == 1:
            return a
        if isinstance(a, int) and a == 1:
            return b
        return self.arith_op(arith.MulIOp, [self.size(a), self.size(b)])

    def floordiv(self, a: int | Value, b: int) -> int | Value:
        """a // b for a >= 0 and a constant b >= 1."""
        if isinstance(a, int):
            return a // b
        if b == 1:
            return a
        return self.arith_op(arith.DivUIOp, [a, self.index(b)])
