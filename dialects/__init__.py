"""Dialects shipped with mlc: builtin, func, arith, math, and the ML levels (graph ... llvm)."""
