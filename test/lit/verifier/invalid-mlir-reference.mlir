// REQUIRES: iree
// RUN: iree-opt %S/invalid.mlir -split-input-file -verify-diagnostics -allow-unregistered-dialect
// RUN: iree-opt %S/../mlc-opt/verify-diagnostics.mlir -split-input-file -verify-diagnostics -allow-unregistered-dialect

// MLIR itself (iree-opt) accepts the expectations of the verifier tests: they state MLIR's
// behaviour, not only mlc's.
