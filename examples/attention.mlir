// Scaled dot-product attention, softmax(Q K^T / sqrt(d)) V, for one head with d = 64 and a
// dynamic sequence length.
func.func @main(%q: tensor<?x64xf32>, %k: tensor<?x64xf32>, %v: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %kt = graph.transpose %k {perm = array<i64: 1, 0>} : (tensor<?x64xf32>) -> tensor<64x?xf32>
  %s = graph.matmul %q, %kt : (tensor<?x64xf32>, tensor<64x?xf32>) -> tensor<?x?xf32>
  // 1 / sqrt(64)
  %scale = graph.constant dense<0.125> : tensor<f32>
  %ss = graph.mul %s, %scale : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  %p = graph.softmax %ss {axis = 1 : i64} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %o = graph.matmul %p, %v : (tensor<?x?xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
  return %o : tensor<?x64xf32>
}
