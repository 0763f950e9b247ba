// RUN: mlc-opt %s -p 'func.func(contraction-microkernel{vector-width=8 min-flops=0 skinny=false})' --dump-knobs=%t.json | filecheck %s --check-prefix=DEFAULT
// RUN: filecheck %s --check-prefix=DUMP --input-file=%t.json
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); json.dump({k['key']: {'mr': 2, 'nr': 24, 'mc': 4, 'kc': 8, 'nc': 24, 'order': 'ic-pc-jc', 'parallel': 'ic', 'pack': True, 'pack-a': True, 'inline-pack-b': False, 'k-unroll': 1, 'prefetch': 0, 'prefetch-c': False}[k['knob']] for k in d['knobs']}, sys.stdout)" %t.json > %t.cfg.json
// RUN: mlc-opt %s -p 'func.func(contraction-microkernel{vector-width=8 min-flops=0 skinny=false})' --knobs=%t.cfg.json | filecheck %s --check-prefix=CONFIGURED
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); json.dump({k['key']: 5 for k in d['knobs'] if k['knob'] == 'mr'}, sys.stdout)" %t.json > %t.bad.json
// RUN: not mlc-opt %s -p 'func.func(contraction-microkernel{vector-width=8 min-flops=0 skinny=false})' --knobs=%t.bad.json 2>&1 | filecheck %s --check-prefix=BAD
// RUN: not mlc-opt %s -p 'func.func(contraction-microkernel{vector-width=12})' 2>&1 | filecheck %s --check-prefix=WIDTH

// DEFAULT-LABEL: func.func @mm(
// DEFAULT: iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)

// DUMP-DAG: "knob": "mr"
// DUMP-DAG: "knob": "nr"
// DUMP-DAG: "knob": "kc"
// DUMP-DAG: "knob": "mc"
// DUMP-DAG: "knob": "nc"
// DUMP-DAG: "knob": "order"
// DUMP-DAG: "knob": "parallel"
// DUMP-DAG: "knob": "pack"
// DUMP-DAG: "knob": "pack-a"
// DUMP-DAG: "site": "@mm/tensor.generic:{{[0-9a-f]+}}/0"
// DUMP-DAG: "pass": "contraction-microkernel"

// A 2x24 tile (6 accumulators), ic outermost and parallel (A and B buffers private per ic
// block: 10 blocks of 4 rows), 8-deep k blocks.
// CONFIGURED-LABEL: func.func @mm(
// CONFIGURED-DAG: memref.alloc() alignment = 64 {mlc.workspace} : memref<10x1x8x24xf32>
// CONFIGURED-DAG: memref.alloc() alignment = 64 {mlc.workspace} : memref<10x2x8x2xf32>
// CONFIGURED: affine.parallel (%{{.+}}) = (0) to (10) {
// CONFIGURED: iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CONFIGURED: } {mlc.parallel}

// BAD: error: value 5 of knob '@mm/tensor.generic:{{[0-9a-f]+}}/0/mr' is outside its domain choice[1, 2, 3, 4, 6, 8, 10, 12, 14]

// WIDTH: error: contraction-microkernel: vector-width must be 0, 8 or 16, got 12

#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @mm(%A: memref<40x24xf32>, %B: memref<24x24xf32>, %C: memref<40x24xf32>) {
  tensor.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%A, %B : memref<40x24xf32>, memref<24x24xf32>) outs(%C : memref<40x24xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    tensor.yield %s : f32
  }
  return
}
