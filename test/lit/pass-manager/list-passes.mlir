// RUN: mlc-opt --list-passes | filecheck %s

// Names, summaries, anchors, options with types and defaults, knobs, then pipelines.
// CHECK: Available passes:
// CHECK: canonicalize - Canonicalize operations
// CHECK-NEXT: top-down=<bool> (default: true) -
// CHECK: max-iterations=<int> (default: 10) -
// CHECK: disable-patterns=<list<string>> (default: ) -
// CHECK: cse - Eliminate common subexpressions
// CHECK: inline - Inline function calls
// CHECK-NEXT: threshold=<int> (default: 1000) -
// CHECK-NEXT: knob inline: bool -
// CHECK: loop-invariant-code-motion -
// CHECK: symbol-dce -
// CHECK: Available pass pipelines:
// CHECK: lower-to-cpu - Lower graph-level programs to the llvm dialect (default knobs)
// CHECK-NEXT: simplify - Canonicalize, CSE and canonicalize again
// CHECK-NEXT: max-iterations=<int> (default: 10) -
