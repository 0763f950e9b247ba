// The width knob per loop (domain: 1 and 128/256/512-bit vectors of the widest element) and
// the reassoc knob of loops with float add/mul reductions.
// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-vectorize{vector-bits=256}))' --dump-knobs=%t.json | filecheck %s --check-prefix=DEFAULT
// RUN: filecheck %s --check-prefix=DUMP --input-file=%t.json
// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-vectorize{virtual-vector-size=4}))' | filecheck %s --check-prefix=FOUR
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); json.dump({k['key']: (16 if 'sum_rows' in k['key'] else 8) for k in d['knobs'] if k['knob'] == 'width'}, sys.stdout)" %t.json > %t.wide.json
// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-vectorize{vector-bits=256}))' --knobs=%t.wide.json | filecheck %s --check-prefix=WIDE
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); json.dump({k['key']: False for k in d['knobs'] if k['knob'] == 'reassoc'}, sys.stdout)" %t.json > %t.noassoc.json
// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-vectorize{vector-bits=256}))' --knobs=%t.noassoc.json | filecheck %s --check-prefix=NOASSOC
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); json.dump({k['key']: 3 for k in d['knobs'] if k['knob'] == 'width'}, sys.stdout)" %t.json > %t.bad.json
// RUN: not mlc-opt %s -p 'builtin.module(func.func(affine-vectorize{vector-bits=256}))' --knobs=%t.bad.json 2>&1 | filecheck %s --check-prefix=BAD

// DEFAULT-LABEL: func.func @sum_rows
// DEFAULT: affine.vector_load {{.+}} vector<8xf32>
// DEFAULT: vector.reduction <add>
// DEFAULT-LABEL: func.func @scale_f64
// DEFAULT: affine.vector_load {{.+}} vector<4xf64>

// DUMP: "key": "@sum_rows/affine.for:{{[0-9a-f]+}}/0/reassoc"
// DUMP: "pass": "affine-vectorize"
// DUMP: "kind": "bool"
// DUMP: "default": true
// DUMP: "key": "@sum_rows/affine.for:{{[0-9a-f]+}}/0/width"
// DUMP-NEXT: "site": "@sum_rows/affine.for:{{[0-9a-f]+}}/0"
// DUMP: "options": [
// DUMP-NEXT: 1,
// DUMP-NEXT: 4,
// DUMP-NEXT: 8,
// DUMP-NEXT: 16
// DUMP: "default": 8
// DUMP: "key": "@scale_f64/affine.for:{{[0-9a-f]+}}/0/width"
// DUMP: "options": [
// DUMP-NEXT: 1,
// DUMP-NEXT: 2,
// DUMP-NEXT: 4,
// DUMP-NEXT: 8
// DUMP: "default": 4

// FOUR-LABEL: func.func @sum_rows
// FOUR: vector<4xf32>
// FOUR-LABEL: func.func @scale_f64
// FOUR: vector<4xf64>

// WIDE-LABEL: func.func @sum_rows
// WIDE: affine.for %{{.+}} step 16 iter_args(%{{.+}} = %{{.+}}) -> (vector<16xf32>)
// WIDE: vector.reduction <add>, %{{.+}}, %{{.+}} fastmath<reassoc> : vector<16xf32> into f32
// WIDE-LABEL: func.func @scale_f64
// WIDE: vector<8xf64>

// With reassoc=false the float sum stays scalar.
// NOASSOC-LABEL: func.func @sum_rows
// NOASSOC-NOT: vector
// NOASSOC-LABEL: func.func @scale_f64
// NOASSOC: vector<4xf64>

// BAD: error: value 3 of knob '@sum_rows/affine.for:{{[0-9a-f]+}}/0/width' is outside its domain choice[1, 4, 8, 16]

func.func @sum_rows(%a: memref<?x?xf32>, %s: memref<?xf32>, %n: index, %m: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %m {
      %0 = affine.load %a[%i, %j] : memref<?x?xf32>
      %1 = affine.load %s[%i] : memref<?xf32>
      %2 = arith.addf %1, %0 : f32
      affine.store %2, %s[%i] : memref<?xf32>
    }
  }
  return
}

func.func @scale_f64(%a: memref<?xf64>, %x: f64, %n: index) {
  affine.for %i = 0 to %n {
    %0 = affine.load %a[%i] : memref<?xf64>
    %1 = arith.mulf %0, %x : f64
    affine.store %1, %a[%i] : memref<?xf64>
  }
  return
}
