// One conjugate-gradient step for ridge regression, (X^T X + lambda I) w = X^T y, with column
// vectors as n x 1 matrices:
//   q = t(X) @ (X @ p) + lambda * p
//   alpha = (r . r) / (p . q)
//   w' = w + alpha * p,  r' = r - alpha * q
//   beta = (r' . r') / (r . r),  p' = r' + beta * p
// X has a dynamic number of rows and 100 features.
func.func @main(%X: tensor<?x100xf32>, %w: tensor<100x1xf32>, %r: tensor<100x1xf32>,
                %p: tensor<100x1xf32>, %lambda: tensor<f32>)
    -> (tensor<100x1xf32>, tensor<100x1xf32>, tensor<100x1xf32>) {
  %Xt = graph.transpose %X {perm = array<i64: 1, 0>} : (tensor<?x100xf32>) -> tensor<100x?xf32>
  %Xp = graph.matmul %X, %p : (tensor<?x100xf32>, tensor<100x1xf32>) -> tensor<?x1xf32>
  %XtXp = graph.matmul %Xt, %Xp : (tensor<100x?xf32>, tensor<?x1xf32>) -> tensor<100x1xf32>
  %lp = graph.mul %lambda, %p : (tensor<f32>, tensor<100x1xf32>) -> tensor<100x1xf32>
  %q = graph.add %XtXp, %lp : (tensor<100x1xf32>, tensor<100x1xf32>) -> tensor<100x1xf32>

  %rr_e = graph.mul %r, %r : (tensor<100x1xf32>, tensor<100x1xf32>) -> tensor<100x1xf32>
  %rr = graph.reduce_sum %rr_e {axes = array<i64: 0, 1>} : (tensor<100x1xf32>) -> tensor<f32>
  %pq_e = graph.mul %p, %q : (tensor<100x1xf32>, tensor<100x1xf32>) -> tensor<100x1xf32>
  %pq = graph.reduce_sum %pq_e {axes = array<i64: 0, 1>} : (tensor<100x1xf32>) -> tensor<f32>
  %alpha = graph.div %rr, %pq : (tensor<f32>, tensor<f32>) -> tensor<f32>

  %ap = graph.mul %alpha, %p : (tensor<f32>, tensor<100x1xf32>) -> tensor<100x1xf32>
  %w1 = graph.add %w, %ap : (tensor<100x1xf32>, tensor<100x1xf32>) -> tensor<100x1xf32>
  %aq = graph.mul %alpha, %q : (tensor<f32>, tensor<100x1xf32>) -> tensor<100x1xf32>
  %r1 = graph.sub %r, %aq : (tensor<100x1xf32>, tensor<100x1xf32>) -> tensor<100x1xf32>

  %rr1_e = graph.mul %r1, %r1 : (tensor<100x1xf32>, tensor<100x1xf32>) -> tensor<100x1xf32>
  %rr1 = graph.reduce_sum %rr1_e {axes = array<i64: 0, 1>} : (tensor<100x1xf32>) -> tensor<f32>
  %beta = graph.div %rr1, %rr : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %bp = graph.mul %beta, %p : (tensor<f32>, tensor<100x1xf32>) -> tensor<100x1xf32>
  %p1 = graph.add %r1, %bp : (tensor<100x1xf32>, tensor<100x1xf32>) -> tensor<100x1xf32>
  return %w1, %r1, %p1 : tensor<100x1xf32>, tensor<100x1xf32>, tensor<100x1xf32>
}
