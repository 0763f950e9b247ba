// The fuse knobs: one per producer with a consumer kernel it may join; any configuration is
// a valid program (here: every decision flipped, and a value outside the domain).
// RUN: mlc-opt %s -p 'builtin.module(func.func(graph-fusion))' --dump-knobs=%t.json | filecheck %s --check-prefix=DEFAULT
// RUN: filecheck %s --check-prefix=DUMP --input-file=%t.json
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); json.dump({k['key']: not k['value'] for k in d['knobs']}, sys.stdout)" %t.json > %t.flipped.json
// RUN: mlc-opt %s -p 'builtin.module(func.func(graph-fusion))' --knobs=%t.flipped.json | filecheck %s --check-prefix=FLIPPED
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); json.dump({k['key']: 1 for k in d['knobs']}, sys.stdout)" %t.json > %t.bad.json
// RUN: not mlc-opt %s -p 'builtin.module(func.func(graph-fusion))' --knobs=%t.bad.json 2>&1 | filecheck %s --check-prefix=BAD

// DEFAULT-LABEL: func.func @main
//       DEFAULT: graph.fused
//  DEFAULT-NEXT: ^bb0
//  DEFAULT-NEXT:   graph.exp
//  DEFAULT-NEXT:   graph.add
//  DEFAULT-NEXT:   graph.tanh
//  DEFAULT-NEXT:   graph.yield
//   DEFAULT-NOT: graph.fused

// Producers are asked consumers first: add, then exp.
//      DUMP: "key": "@main/graph.add:{{[0-9a-f]+}}/0/fuse"
//      DUMP: "pass": "graph-fusion"
//      DUMP: "knob": "fuse"
//      DUMP: "kind": "bool"
//      DUMP: "default": true
//      DUMP: "key": "@main/graph.exp:{{[0-9a-f]+}}/0/fuse"
//  DUMP-NOT: "key"

// FLIPPED-LABEL: func.func @main
//   FLIPPED-NOT: graph.fused
//       FLIPPED: graph.exp
//  FLIPPED-NEXT: graph.add
//  FLIPPED-NEXT: graph.tanh
//  FLIPPED-NEXT: return

// BAD: error: value 1 of knob '@main/graph.add:{{[0-9a-f]+}}/0/fuse' is outside its domain bool

func.func @main(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %0 = graph.exp %x : tensor<8xf32>
  %1 = graph.add %0, %y : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %2 = graph.tanh %1 : tensor<8xf32>
  return %2 : tensor<8xf32>
}
