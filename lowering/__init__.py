"""Conversions between IR levels and the translation to LLVM IR."""
