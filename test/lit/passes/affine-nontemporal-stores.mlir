// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-nontemporal-stores{mode=large min-bytes=65536}))' --split-input-file | filecheck %s
// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-nontemporal-stores{min-bytes=65536}))' --split-input-file | filecheck %s --check-prefix=MODEL
// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-nontemporal-stores{mode=always}))' --split-input-file | filecheck %s --check-prefix=ALWAYS
// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-nontemporal-stores{mode=never}))' --split-input-file | filecheck %s --check-prefix=NEVER
// RUN: mlc-opt %s -p 'builtin.module(func.func(affine-nontemporal-stores{mode=large}))' --dump-knobs=%t.json -o /dev/null
// RUN: filecheck %s --check-prefix=DUMP --input-file=%t.json
// RUN: not mlc-opt %s -p 'builtin.module(func.func(affine-nontemporal-stores{mode=sometimes}))' --split-input-file -o /dev/null 2>&1 | filecheck %s --check-prefix=BAD

// BAD: error: mode must be one of never, large, always, got 'sometimes'

// One knob per versioned store loop, at the loop.
// DUMP: "key": "@rows/affine.for:{{.+}}/0/nontemporal",
// DUMP: "pass": "affine-nontemporal-stores",
// DUMP: "knob": "nontemporal",
// DUMP: "options": [
// DUMP-NEXT: "never",
// DUMP-NEXT: "large",
// DUMP-NEXT: "always"
// DUMP: "default": "large"

// A row kernel: the output %y is only written (and prefetched for writing). The store loop
// gets a version with non-temporal, 16-byte-aligned stores, taken when %y's base is 16-byte
// aligned and %y holds at least min-bytes; the write prefetch of the other pass runs only
// when that version is not taken (it would fetch the lines the stores do not read).
// CHECK-DAG:   #[[SET:.+]] = affine_set<()[s0, s1] : (s0 mod 16 == 0, s1 - 65536 >= 0)>
// CHECK-LABEL: func.func @rows(
// CHECK-SAME:      %[[X:[^:]+]]: memref<?x1024xf32>, %[[Y:[^:]+]]: memref<?x1024xf32>
// CHECK:         %[[P:.+]] = memref.extract_aligned_pointer_as_index %[[Y]] : memref<?x1024xf32> -> index
// CHECK:         %[[D:.+]] = memref.dim %[[Y]], %{{.+}} : memref<?x1024xf32>
// CHECK:         %[[B:.+]] = arith.muli %{{.+}}, %[[D]] : index
// CHECK:         affine.parallel (%[[I:.+]]) =
// CHECK:           affine.for %[[J:.+]] = 0 to 1024 step 16 {
// CHECK:             affine.if #[[SET]]()[%[[P]], %[[B]]] {
// CHECK-NEXT:        } else {
// CHECK-NEXT:          affine.prefetch %[[Y]][%[[I]], %[[J]]], write, locality<3>, data : memref<?x1024xf32>
// CHECK-NEXT:        }
// CHECK:           affine.if #[[SET]]()[%[[P]], %[[B]]] {
// CHECK-NEXT:        affine.for %[[K:.+]] = 0 to 1024 step 8 {
// CHECK-NEXT:          %[[V:.+]] = affine.vector_load %[[X]][%[[I]], %[[K]]]
// CHECK-NEXT:          vector.store %[[V]], %[[Y]][%[[I]], %[[K]]] alignment = 16 nontemporal = true : memref<?x1024xf32>, vector<8xf32>
// CHECK-NEXT:        }
// CHECK-NEXT:      } else {
// CHECK-NEXT:        affine.for %[[K2:.+]] = 0 to 1024 step 8 {
// CHECK-NEXT:          %[[V2:.+]] = affine.vector_load %[[X]][%[[I]], %[[K2]]]
// CHECK-NEXT:          affine.vector_store %[[V2]], %[[Y]][%[[I]], %[[K2]]] : memref<?x1024xf32>, vector<8xf32>
// ALWAYS-DAG:  #[[ASET:.+]] = affine_set<()[s0] : (s0 mod 16 == 0)>
// ALWAYS-LABEL: func.func @rows(
// ALWAYS:        affine.if #[[ASET]]()[%{{.+}}] {
// ALWAYS:          vector.store {{.+}} nontemporal = true
// Without `mode`: `large` on x86 hosts.
// MODEL-LABEL: func.func @rows(
// MODEL:         vector.store {{.+}} nontemporal = true
// NEVER-LABEL: func.func @rows(
// NEVER-NOT:     affine.if
// NEVER-NOT:     vector.store
func.func @rows(%x: memref<?x1024xf32>, %y: memref<?x1024xf32>, %n: index) {
  affine.parallel (%i) = (0) to (symbol(%n)) {
    affine.for %j = 0 to 1024 step 16 {
      %v = affine.vector_load %x[%i, %j] : memref<?x1024xf32>, vector<8xf32>
      affine.prefetch %y[%i, %j], write, locality<3>, data : memref<?x1024xf32>
    }
    affine.for %j = 0 to 1024 step 8 {
      %v = affine.vector_load %x[%i, %j] : memref<?x1024xf32>, vector<8xf32>
      affine.vector_store %v, %y[%i, %j] : memref<?x1024xf32>, vector<8xf32>
    }
  } {mlc.parallel}
  return
}

// -----

// A chunk of a threaded 1-D loop starts at the chunk's index: the version also asks that
// index to be a whole number of 16-byte blocks (4 x f32), and the offset of an unrolled
// store (+8) is computed by an affine.apply. A write prefetch inside the versioned loop is
// dropped from the non-temporal version.
// CHECK-DAG:   #[[CSET:.+]] = affine_set<(d0)[s0, s1] : (d0 mod 4 == 0, s0 mod 16 == 0, s1 - 65536 >= 0)>
// CHECK-LABEL: func.func @chunks(
// CHECK-SAME:      %[[A:[^:]+]]: memref<?xf32>, %[[B:[^:]+]]: memref<?xf32>
// CHECK:         affine.parallel (%[[I:.+]]) =
// CHECK-NEXT:      affine.if #[[CSET]](%[[I]])[%{{.+}}, %{{.+}}] {
// CHECK-NEXT:        affine.for %[[J:.+]] =
// CHECK-NEXT:          %[[V:.+]] = affine.vector_load %[[A]][%[[J]]]
// CHECK-NEXT:          %[[J8:.+]] = affine.apply #{{.+}}(%[[J]])
// CHECK-NEXT:          vector.store %[[V]], %[[B]][%[[J8]]] alignment = 16 nontemporal = true
// CHECK-NEXT:        }
// CHECK-NEXT:      } else {
// CHECK-NEXT:        affine.for
// CHECK-NEXT:          affine.vector_load
// CHECK-NEXT:          affine.prefetch %[[B]]
// CHECK-NEXT:          affine.vector_store %{{.+}}, %[[B]][%{{.+}} + 8]
// MODEL-LABEL: func.func @chunks(
// MODEL:         vector.store {{.+}} nontemporal = true
#lb = affine_map<(d0) -> (d0)>
#ub = affine_map<(d0)[s0] -> (d0 + 1024, d0 + ((s0 - d0) floordiv 16) * 16)>
func.func @chunks(%a: memref<?xf32>, %b: memref<?xf32>, %n: index) {
  affine.parallel (%i) = (0) to (symbol(%n)) step (1024) {
    affine.for %j = #lb(%i) to min #ub(%i)[%n] step 16 {
      %v = affine.vector_load %a[%j] : memref<?xf32>, vector<8xf32>
      affine.prefetch %b[%j], write, locality<3>, data : memref<?xf32>
      affine.vector_store %v, %b[%j + 8] : memref<?xf32>, vector<8xf32>
    }
  } {mlc.parallel}
  return
}

// -----

// A dynamic last dimension: the rows start aligned only when it is a multiple of 2 x f64.
// CHECK-DAG:   #[[DSET:.+]] = affine_set<()[s0, s1, s2] : (s0 mod 16 == 0, s1 mod 2 == 0, s2 - 65536 >= 0)>
// CHECK-LABEL: func.func @dynamic_rows(
// CHECK:         affine.if #[[DSET]]()
// CHECK:           vector.store {{.+}} alignment = 16 nontemporal = true : memref<?x?xf64>, vector<4xf64>
func.func @dynamic_rows(%x: memref<?x?xf64>, %y: memref<?x?xf64>, %n: index, %m: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %m step 4 {
      %v = affine.vector_load %x[%i, %j] : memref<?x?xf64>, vector<4xf64>
      affine.vector_store %v, %y[%i, %j] : memref<?x?xf64>, vector<4xf64>
    }
  }
  return
}

// -----

// Left alone: an output the function reads back (here through a load), a store loop whose
// first store is never 16-byte aligned (columns 2, 10, ...), rows of 1,026 floats (only
// every other row would be aligned), an allocation (not an output), and scalar loops.
// CHECK-LABEL: func.func @not_streamed(
// CHECK-NOT:     nontemporal
// CHECK-NOT:     affine.if
// CHECK:         return
func.func @not_streamed(%x: memref<?x1024xf32>, %y: memref<?x1024xf32>, %z: memref<?x1024xf32>, %w: memref<?x1026xf32>, %u: memref<?xf32>, %n: index) {
  %t = memref.alloc(%n) : memref<?xf32>
  affine.for %i = 0 to %n {
    affine.for %j = 0 to 1024 step 8 {
      %v = affine.vector_load %x[%i, %j] : memref<?x1024xf32>, vector<8xf32>
      affine.vector_store %v, %y[%i, %j] : memref<?x1024xf32>, vector<8xf32>
      affine.vector_store %v, %w[%i, %j] : memref<?x1026xf32>, vector<8xf32>
      affine.vector_store %v, %t[%j] : memref<?xf32>, vector<8xf32>
    }
    affine.for %j = 2 to 1018 step 8 {
      %v = affine.vector_load %x[%i, %j] : memref<?x1024xf32>, vector<8xf32>
      affine.vector_store %v, %z[%i, %j] : memref<?x1024xf32>, vector<8xf32>
    }
    affine.for %j = 0 to 1024 {
      %s = affine.load %x[%i, %j] : memref<?x1024xf32>
      affine.store %s, %u[%j] : memref<?xf32>
    }
  }
  %r = affine.load %y[0, 0] : memref<?x1024xf32>
  memref.dealloc %t : memref<?xf32>
  return
}
