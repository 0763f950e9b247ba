"""The affine dialect: loops, conditionals and memory accesses with affine index maps."""

from __future__ import annotations

from mlc.ir.context import Dialect

DIALECT = Dialect("affine", ops=[])
