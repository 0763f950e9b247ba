// RUN: mlc-opt %s -split-input-file -p 'builtin.module(convert-graph-to-tensor,canonicalize,cse)' | filecheck %s

// A transposed matmul operand is read in place through a permuted map: no transposed copy.
// CHECK-DAG: #[[$AT:.+]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[$B:.+]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[$OUT:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @transposed_lhs(
// CHECK-SAME: %[[A:\w+]]: tensor<8x4xf32>, %[[B:\w+]]: tensor<8x5xf32>)
// CHECK-NOT: tensor.generic {{.+}} ins(%[[A]] : tensor<8x4xf32>)
// CHECK: tensor.generic {indexing_maps = [#[[$AT]], #[[$B]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[A]], %[[B]] : tensor<8x4xf32>, tensor<8x5xf32>)
// CHECK-NOT: tensor.generic
// CHECK: return
func.func @transposed_lhs(%a: tensor<8x4xf32>, %b: tensor<8x5xf32>) -> tensor<4x5xf32> {
  %t = graph.transpose %a {perm = array<i64: 1, 0>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %0 = graph.matmul %t, %b : (tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// Batched, with a dynamic batch taken from the untransposed operand's source.
// CHECK-DAG: #[[$A3:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[$BT3:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-LABEL: func.func @transposed_rhs_batched(
// CHECK-SAME: %[[A:\w+]]: tensor<?x4x8xf32>, %[[B:\w+]]: tensor<?x5x8xf32>)
// CHECK: tensor.generic {indexing_maps = [#[[$A3]], #[[$BT3]], #{{.+}}], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[A]], %[[B]] : tensor<?x4x8xf32>, tensor<?x5x8xf32>)
func.func @transposed_rhs_batched(%a: tensor<?x4x8xf32>, %b: tensor<?x5x8xf32>) -> tensor<?x4x5xf32> {
  %t = graph.transpose %b {perm = array<i64: 0, 2, 1>} : (tensor<?x5x8xf32>) -> tensor<?x8x5xf32>
  %0 = graph.matmul %a, %t : (tensor<?x4x8xf32>, tensor<?x8x5xf32>) -> tensor<?x4x5xf32>
  return %0 : tensor<?x4x5xf32>
}

// -----

// Both operands transposed, the batch dims permuted too (perm moves the batch dim last).
// CHECK-DAG: #[[$AP:.+]] = affine_map<(d0, d1, d2, d3) -> (d1, d3, d0)>
// CHECK-DAG: #[[$BP:.+]] = affine_map<(d0, d1, d2, d3) -> (d2, d0, d3)>
// CHECK-LABEL: func.func @both_transposed(
// CHECK-SAME: %[[A:\w+]]: tensor<4x8x2xf32>, %[[B:\w+]]: tensor<5x2x8xf32>)
// CHECK: tensor.generic {indexing_maps = [#[[$AP]], #[[$BP]], #{{.+}}], {{.+}} ins(%[[A]], %[[B]] : tensor<4x8x2xf32>, tensor<5x2x8xf32>)
func.func @both_transposed(%a: tensor<4x8x2xf32>, %b: tensor<5x2x8xf32>) -> tensor<2x4x5xf32> {
  %ta = graph.transpose %a {perm = array<i64: 2, 0, 1>} : (tensor<4x8x2xf32>) -> tensor<2x4x8xf32>
  %tb = graph.transpose %b {perm = array<i64: 1, 2, 0>} : (tensor<5x2x8xf32>) -> tensor<2x8x5xf32>
  %0 = graph.matmul %ta, %tb : (tensor<2x4x8xf32>, tensor<2x8x5xf32>) -> tensor<2x4x5xf32>
  return %0 : tensor<2x4x5xf32>
}

// -----

// A transpose with another user stays materialized for it; the matmul still reads the source.
// CHECK-LABEL: func.func @shared_transpose(
// CHECK-SAME: %[[A:\w+]]: tensor<8x4xf32>
// CHECK: %[[T:.+]] = tensor.generic {{.+}} ins(%[[A]] : tensor<8x4xf32>)
// CHECK: tensor.generic {{.+}} ins(%[[A]], %{{.+}} : tensor<8x4xf32>, tensor<8x5xf32>)
// CHECK: return %{{.+}}, %[[T]]
func.func @shared_transpose(%a: tensor<8x4xf32>, %b: tensor<8x5xf32>) -> (tensor<4x5xf32>, tensor<4x8xf32>) {
  %t = graph.transpose %a {perm = array<i64: 1, 0>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %0 = graph.matmul %t, %b : (tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  return %0, %t : tensor<4x5xf32>, tensor<4x8xf32>
}
