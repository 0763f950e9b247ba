// RUN: mlc-opt %s -p 'builtin.module(func.func(tensor-fusion{broadcast-recompute-limit=0}))' | filecheck %s
// RUN: not mlc-opt %s -p 'builtin.module(func.func(tensor-fusion{broadcast-recompute-limit=-1}))' 2>&1 | filecheck %s --check-prefix=BAD

// With a zero limit only producers read through permutations fuse: the broadcast one stays.
// CHECK-LABEL: func.func @broadcast_kept
//  CHECK-COUNT-2: tensor.generic
// BAD: error: tensor-fusion: broadcast-recompute-limit must be >= 0
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#v = affine_map<(d0) -> (d0)>
func.func @broadcast_kept(%a: tensor<4x8xf32>, %v: tensor<8xf32>) -> tensor<4x8xf32> {
  %e1 = tensor.empty() : tensor<8xf32>
  %0 = tensor.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%v : tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.negf %x : f32
    tensor.yield %m : f32
  } -> tensor<8xf32>
  %e0 = tensor.empty() : tensor<4x8xf32>
  %1 = tensor.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %0 : tensor<4x8xf32>, tensor<8xf32>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    tensor.yield %s : f32
  } -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
