// A failing run must not delete a non-regular output such as /dev/null (LLVM removes only
// regular files); a regular partial output is removed.
// RUN: not mlc-opt %s -o /dev/null 2>&1 | filecheck %s
// RUN: test -c /dev/null
// RUN: echo stale > %t
// RUN: not mlc-opt %s -o %t 2>&1
// RUN: not test -e %t

// CHECK: error: use of undeclared SSA value name
func.func @f() -> i32 {
  return %x : i32
}
