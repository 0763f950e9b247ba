// RUN: mlc-opt %s -split-input-file | mlc-opt -split-input-file | filecheck %s
// RUN: mlc-opt %s -split-input-file --mlir-print-op-generic | mlc-opt -split-input-file | filecheck %s
// RUN: mlc-opt %s -split-input-file -p 'builtin.module(canonicalize,cse)' | filecheck %s --check-prefix=CANON

// The buffer form of tensor.generic: memref operands, no results, no arrow type.
// CHECK-LABEL: func.func @reduce(
// CHECK: tensor.generic {indexing_maps = [#{{.+}}, #{{.+}}], iterator_types = ["parallel", "reduction"]} ins(%{{.+}} : memref<?x8xf32>) outs(%{{.+}} : memref<?xf32, strided<[2]>>) {
// CHECK-NEXT: ^bb0(%[[IN:\w+]]: f32, %[[OUT:\w+]]: f32):
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[IN]], %[[OUT]] : f32
// CHECK-NEXT: tensor.yield %[[S]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: return
// The op writes memory: canonicalize and cse keep it although it has no results.
// CANON-LABEL: func.func @reduce(
// CANON: tensor.generic
func.func @reduce(%a: memref<?x8xf32>, %acc: memref<?xf32, strided<[2]>>) {
  tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<?x8xf32>) outs(%acc : memref<?xf32, strided<[2]>>) {
  ^bb0(%in: f32, %out: f32):
    %1 = arith.addf %in, %out : f32
    tensor.yield %1 : f32
  }
  return
}

// -----

// A fill: no inputs, a zero-rank output.
// CHECK-LABEL: func.func @fill(
// CHECK: tensor.generic {indexing_maps = [#{{.+}}], iterator_types = []} outs(%{{.+}} : memref<f32>) {
// CANON-LABEL: func.func @fill(
// CANON: tensor.generic
func.func @fill(%m: memref<f32>) {
  %c = arith.constant 1.0 : f32
  tensor.generic {indexing_maps = [affine_map<() -> ()>], iterator_types = []} outs(%m : memref<f32>) {
  ^bb0(%out: f32):
    tensor.yield %c : f32
  }
  return
}
