"""The `llvm` dialect: a mirror of LLVM IR (opaque pointers)."""

from __future__ import annotations

from mlc.ir.context import Dialect

DIALECT = Dialect("llvm")
