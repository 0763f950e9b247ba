// RUN: mlc-opt %s | filecheck %s --check-prefix=CUSTOM
// RUN: mlc-opt %s -mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: mlc-opt %s --mlir-print-debuginfo | filecheck %s --check-prefix=DEBUG
// RUN: mlc-opt %s --no-implicit-module -o %t && filecheck %s --check-prefix=NOMODULE < %t
// RUN: mlc-opt %s | mlc-opt | filecheck %s --check-prefix=CUSTOM

// mlc-opt's printing flags (MLIR's spellings, one or two dashes).

// CUSTOM: module {
// CUSTOM-NEXT: func.func @add(%[[A:.+]]: i32) -> i32 {
// CUSTOM-NEXT: %[[S:.+]] = arith.addi %[[A]], %[[A]] : i32
// CUSTOM-NEXT: return %[[S]] : i32

// GENERIC: "builtin.module"() ({
// GENERIC: "func.func"() <{function_type = (i32) -> i32, sym_name = "add"}> ({
// GENERIC: "func.return"

// DEBUG: arith.addi {{.*}} loc(#[[L:loc[0-9]*]])
// DEBUG: #[[L]] = loc("{{.*}}printing-flags.mlir":[[# @LINE + 6]]:8)

// NOMODULE-NOT: module
// NOMODULE: func.func @add

func.func @add(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  return %0 : i32
}
