// The order knob: its space, the orders an autotuner may force, and an out-of-domain value.
// RUN: mlc-opt %s -p 'builtin.module(func.func(graph-matmul-reorder))' --dump-knobs=%t.json 2>/dev/null | filecheck %s --check-prefix=DEFAULT
// RUN: filecheck %s --check-prefix=DUMP --input-file=%t.json
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); json.dump({k['key']: 1 - k['value'] for k in d['knobs']}, sys.stdout)" %t.json > %t.flipped.json
// RUN: mlc-opt %s -p 'builtin.module(func.func(graph-matmul-reorder))' --knobs=%t.flipped.json 2>&1 | filecheck %s --check-prefix=FLIPPED
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); json.dump({k['key']: 2 for k in d['knobs']}, sys.stdout)" %t.json > %t.bad.json
// RUN: not mlc-opt %s -p 'builtin.module(func.func(graph-matmul-reorder))' --knobs=%t.bad.json 2>&1 | filecheck %s --check-prefix=BAD

// DEFAULT-LABEL: func.func @classic
//       DEFAULT: graph.matmul %arg1, %arg2
//       DEFAULT: graph.matmul %arg0, %{{.+}}

// One knob per chain, keyed by function and chain fingerprint; index 0 is (0 (1 2)).
//      DUMP: "key": "@classic/graph-matmul-chain:{{[0-9a-f]+}}/0/order"
//      DUMP: "pass": "graph-matmul-reorder"
//      DUMP: "knob": "order"
//      DUMP: "kind": "int",
// DUMP-NEXT: "min": 0,
// DUMP-NEXT: "max": 1,
//      DUMP: "default": 0,
// DUMP-NEXT: "value": 0,

// Forcing index 1, ((0 1) 2), keeps the program as written and says so.
// FLIPPED: remark: matmul chain [10x1000, 1000x1000, 1000x1]: kept order ((0 1) 2), estimated FLOPs 20020000
// FLIPPED-LABEL: func.func @classic
//       FLIPPED: graph.matmul %arg0, %arg1
//       FLIPPED: graph.matmul %{{.+}}, %arg2

// BAD: error: value 2 of knob '@classic/graph-matmul-chain:{{[0-9a-f]+}}/0/order' is outside its domain int[0..1]

func.func @classic(%a: tensor<10x1000xf32>, %b: tensor<1000x1000xf32>, %c: tensor<1000x1xf32>) -> tensor<10x1xf32> {
  %0 = graph.matmul %a, %b : (tensor<10x1000xf32>, tensor<1000x1000xf32>) -> tensor<10x1000xf32>
  %1 = graph.matmul %0, %c : (tensor<10x1000xf32>, tensor<1000x1xf32>) -> tensor<10x1xf32>
  return %1 : tensor<10x1xf32>
}
