// Dump the knob space of a run, flip every decision, apply it; then the error cases.
// RUN: mlc-opt %s -p 'builtin.module(inline{threshold=2})' --dump-knobs=%t.json | filecheck %s --check-prefix=DEFAULT
// RUN: filecheck %s --check-prefix=DUMP --input-file=%t.json
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); json.dump({k['key']: not k['value'] for k in d['knobs']}, sys.stdout)" %t.json > %t.flipped.json
// RUN: mlc-opt %s -p 'builtin.module(inline{threshold=2})' --knobs=%t.flipped.json | filecheck %s --check-prefix=FLIPPED
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); json.dump({k['key']: 5 for k in d['knobs']}, sys.stdout)" %t.json > %t.bad.json
// RUN: not mlc-opt %s -p 'builtin.module(inline{threshold=2})' --knobs=%t.bad.json 2>&1 | filecheck %s --check-prefix=BAD
// RUN: mlc-opt %s -p 'builtin.module(inline)' --knobs=%S/Inputs/unknown-knob.json 2>&1 | filecheck %s --check-prefix=UNKNOWN

// By default (threshold 2), @small is inlined and @big is not.
// DEFAULT-LABEL: func.func @main
// DEFAULT-NEXT: arith.addi
// DEFAULT-NEXT: call @big

// The space: one bool knob per call site, with its pass, default and location.
// DUMP: "version": 1
// DUMP: "key": "@main/func.call:{{[0-9a-f]+}}/0/inline"
// DUMP-NEXT: "site": "@main/func.call:{{[0-9a-f]+}}/0"
// DUMP-NEXT: "pass": "inline"
// DUMP-NEXT: "knob": "inline"
// DUMP-NEXT: "domain": {
// DUMP-NEXT: "kind": "bool"
// DUMP-NEXT: }
// DUMP-NEXT: "default": true
// DUMP-NEXT: "value": true
// DUMP-NEXT: "source": "default"
// DUMP-NEXT: "location": "{{.*}}knobs.mlir:[[# @LINE + 23]]:8"
// DUMP: "default": false

// Flipped: @big is inlined, @small is not.
// FLIPPED-LABEL: func.func @main
// FLIPPED-NEXT: %[[S:.+]] = call @small
// FLIPPED-NEXT: arith.muli %[[S]]

// A value outside the domain is an error naming the knob and its domain, at the call.
// BAD: knobs.mlir:[[# @LINE + 14]]:8: error: value 5 of knob '@main/func.call:{{[0-9a-f]+}}/0/inline' is outside its domain bool

// UNKNOWN: warning: unknown knob key '@main/func.call:00000000/0/inline' in the configuration
func.func private @small(%x: i32) -> i32 {
  %0 = arith.addi %x, %x : i32
  return %0 : i32
}
func.func private @big(%x: i32) -> i32 {
  %0 = arith.muli %x, %x : i32
  %1 = arith.muli %0, %0 : i32
  %2 = arith.muli %1, %1 : i32
  return %2 : i32
}
func.func @main(%x: i32) -> i32 {
  %0 = call @small(%x) : (i32) -> i32
  %1 = call @big(%0) : (i32) -> i32
  return %1 : i32
}
