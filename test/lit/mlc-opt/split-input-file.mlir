// RUN: not mlc-opt %s -split-input-file 2> %t.err | filecheck %s
// RUN: filecheck %s --check-prefix=ERR < %t.err
// RUN: not mlc-opt %s --split-input-file --output-split-marker='// ==== next' 2> /dev/null \
// RUN:   | filecheck %s --check-prefix=MARKER
// RUN: not mlc-opt %s 2>&1 | filecheck %s --check-prefix=WHOLE

// Chunks are parsed, verified and printed on their own, in order, joined by the marker; a bad
// chunk prints nothing, the others still print, and the exit status is 1.

// CHECK-LABEL: func.func @first
// CHECK-NEXT: return
// CHECK: {{^// -{5}$}}
// CHECK-LABEL: func.func @second
// CHECK: {{^// -{5}$}}
// CHECK-NEXT: {{^// -{5}$}}
// CHECK-NEXT: module
// CHECK-LABEL: func.func @fourth

// MARKER: @first
// MARKER: {{^// ==== next$}}
// MARKER: @second

// WHOLE: error: redefinition of symbol named 'x'

// ERR: split-input-file.mlir:[[# @LINE + 17]]:{{[0-9]+}}: error: redefinition of symbol named 'x'
// ERR-NOT: error:

func.func @first() {
  return
}

// -----

func.func @second() {
  return
}
func.func private @x()

// -----

func.func private @x()
func.func private @x()

// -----

func.func @fourth() {
  return
}
