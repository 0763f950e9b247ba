"""The vector dialect (placeholder while being written)."""

from mlc.ir.context import Dialect

DIALECT = Dialect("vector", ops=[])
