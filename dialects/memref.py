"""The memref dialect (placeholder while being written)."""

from mlc.ir.context import Dialect

DIALECT = Dialect("memref", ops=[])
