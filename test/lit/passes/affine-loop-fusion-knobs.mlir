// The fuse knobs (one per candidate loop, site: the loop fused into its predecessor) and the
// privatize knobs (one per private allocation); every configuration is a valid program.
// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-loop-fusion))' --dump-knobs=%t.json | filecheck %s --check-prefix=DEFAULT
// RUN: filecheck %s --check-prefix=DUMP --input-file=%t.json
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); json.dump({k['key']: not k['value'] for k in d['knobs']}, sys.stdout)" %t.json > %t.flipped.json
// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-loop-fusion))' --knobs=%t.flipped.json | filecheck %s --check-prefix=FLIPPED
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); json.dump({k['key']: 1 for k in d['knobs']}, sys.stdout)" %t.json > %t.bad.json
// RUN: not mlc-opt %s -p 'builtin.module(func.func(affine-loop-fusion))' --knobs=%t.bad.json 2>&1 | filecheck %s --check-prefix=BAD

// DEFAULT-LABEL: func.func @main
//       DEFAULT: affine.for
//  DEFAULT-NEXT:   memref.alloc() : memref<2048xf32>
//   DEFAULT-NOT: affine.for %{{.+}} = 0 to 4
//       DEFAULT: return

// The outer loops fuse, then their inner loops (one level deeper), then the buffer shrinks.
//      DUMP: "key": "@main/affine.for:{{[0-9a-f]+}}/0/fuse"
//      DUMP: "pass": "affine-loop-fusion"
//      DUMP: "knob": "fuse"
//      DUMP: "kind": "bool"
//      DUMP: "default": true
//      DUMP: "location": "{{.+}}affine-loop-fusion-knobs.mlir:{{[0-9]+}}:3"
//      DUMP: "key": "@main/affine.for:{{[0-9a-f]+}}/0/fuse"
//      DUMP: "location": "{{.+}}affine-loop-fusion-knobs.mlir:{{[0-9]+}}:5"
//      DUMP: "key": "@main/memref.alloc:{{[0-9a-f]+}}/0/privatize"
//      DUMP: "default": true
//  DUMP-NOT: "key"

// FLIPPED-LABEL: func.func @main
//       FLIPPED: memref.alloc() : memref<4x2048xf32>
//       FLIPPED: affine.for %{{.+}} = 0 to 4
//       FLIPPED: affine.for %{{.+}} = 0 to 4

// BAD: error: value 1 of knob '@main/affine.for:{{[0-9a-f]+}}/0/fuse' is outside its domain bool

func.func @main(%a: memref<4x2048xf32>, %b: memref<4x2048xf32>) {
  %t = memref.alloc() : memref<4x2048xf32>
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 2048 {
      %0 = affine.load %a[%i, %j] : memref<4x2048xf32>
      %1 = math.exp %0 : f32
      affine.store %1, %t[%i, %j] : memref<4x2048xf32>
    }
  }
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 2048 {
      %0 = affine.load %t[%i, %j] : memref<4x2048xf32>
      affine.store %0, %b[%i, %j] : memref<4x2048xf32>
    }
  }
  memref.dealloc %t : memref<4x2048xf32>
  return
}
