// The order knob: a legal order asked for is applied; an illegal one is refused with a
// warning naming the dependence; an order of the wrong size is outside the domain.
// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-interchange))' --dump-knobs=%t.json | filecheck %s --check-prefix=DEFAULT
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); json.dump({k['key']: [1, 0] for k in d['knobs']}, sys.stdout)" %t.json > %t.swap.json
// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-interchange))' --knobs=%t.swap.json 2>&1 | filecheck %s --check-prefix=SWAP
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); json.dump({k['key']: [0, 1, 2] for k in d['knobs']}, sys.stdout)" %t.json > %t.bad.json
// RUN: not mlc-opt %s -p 'builtin.module(func.func(affine-interchange))' --knobs=%t.bad.json 2>&1 | filecheck %s --check-prefix=BAD

// DEFAULT-LABEL: func.func @legal
// DEFAULT: affine.for %[[I:.+]] = 0 to 8 {
// DEFAULT-NEXT: affine.for %[[J:.+]] = 0 to 16 {
// DEFAULT-LABEL: func.func @illegal
// DEFAULT: affine.for %{{.+}} = 1 to 100 {

// SWAP: warning: affine-interchange: loop order [1, 0] not applied: it reverses the dependence from 'affine.store' to 'affine.load' with direction (<, >)
// SWAP-LABEL: func.func @legal
// SWAP: affine.for %[[J:.+]] = 0 to 16 {
// SWAP-NEXT: affine.for %[[I:.+]] = 0 to 8 {
// SWAP-LABEL: func.func @illegal
// SWAP: affine.for %{{.+}} = 1 to 100 {
// SWAP-NEXT: affine.for %{{.+}} = 0 to 99 {

// BAD: error: value [0, 1, 2] of knob '@legal/affine.for:{{.*}}/order' is outside its domain

func.func @legal(%A: memref<8x16xf32>) {
  %B = memref.alloc() : memref<8x16xf32>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 16 {
      %v = affine.load %A[%i, %j] : memref<8x16xf32>
      affine.store %v, %B[%i, %j] : memref<8x16xf32>
    }
  }
  return
}

func.func @illegal(%A: memref<100x100xf32>) {
  affine.for %i = 1 to 100 {
    affine.for %j = 0 to 99 {
      %a = affine.load %A[%i - 1, %j + 1] : memref<100x100xf32>
      affine.store %a, %A[%i, %j] : memref<100x100xf32>
    }
  }
  return
}
