// Programs of test_knob_sweep.py, one module each (separated like --split-input-file).

// matmul_bias_relu
func.func @main(%x: tensor<?x37xf32>, %w: tensor<37x29xf32>, %b: tensor<29xf32>) -> tensor<?x29xf32> {
  %m = graph.matmul %x, %w : (tensor<?x37xf32>, tensor<37x29xf32>) -> tensor<?x29xf32>
  %a = graph.add %m, %b : (tensor<?x29xf32>, tensor<29xf32>) -> tensor<?x29xf32>
  %r = graph.relu %a : tensor<?x29xf32>
  return %r : tensor<?x29xf32>
}

// -----

// batch_matmul
func.func @main(%a: tensor<3x17x9xf32>, %b: tensor<3x9x13xf32>) -> tensor<3x17x13xf32> {
  %r = graph.matmul %a, %b : (tensor<3x17x9xf32>, tensor<3x9x13xf32>) -> tensor<3x17x13xf32>
  return %r : tensor<3x17x13xf32>
}

// -----

// conv2d
func.func @main(%x: tensor<2x3x9x8xf32>, %w: tensor<5x3x3x3xf32>, %b: tensor<5xf32>) -> tensor<2x5x5x4xf32> {
  %r = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x3x9x8xf32>, tensor<5x3x3x3xf32>, tensor<5xf32>) -> tensor<2x5x5x4xf32>
  return %r : tensor<2x5x5x4xf32>
}

// -----

// softmax
func.func @main(%x: tensor<?x33xf32>) -> tensor<?x33xf32> {
  %r = graph.softmax %x {axis = 1 : i64} : (tensor<?x33xf32>) -> tensor<?x33xf32>
  return %r : tensor<?x33xf32>
}

// -----

// layernorm
func.func @main(%x: tensor<?x40xf32>, %g: tensor<40xf32>) -> tensor<?x40xf32> {
  %m = graph.reduce_mean %x {axes = array<i64: 1>, keepdims = true} : (tensor<?x40xf32>) -> tensor<?x1xf32>
  %d = graph.sub %x, %m : (tensor<?x40xf32>, tensor<?x1xf32>) -> tensor<?x40xf32>
  %s = graph.mul %d, %d : (tensor<?x40xf32>, tensor<?x40xf32>) -> tensor<?x40xf32>
  %v = graph.reduce_mean %s {axes = array<i64: 1>, keepdims = true} : (tensor<?x40xf32>) -> tensor<?x1xf32>
  %r = graph.rsqrt %v : tensor<?x1xf32>
  %n = graph.mul %d, %r : (tensor<?x40xf32>, tensor<?x1xf32>) -> tensor<?x40xf32>
  %y = graph.mul %n, %g : (tensor<?x40xf32>, tensor<40xf32>) -> tensor<?x40xf32>
  return %y : tensor<?x40xf32>
}

// -----

// elementwise
func.func @main(%a: tensor<?x45xf32>, %b: tensor<?x45xf32>, %c: tensor<45xf32>) -> tensor<?x45xf32> {
  %e = graph.exp %a : tensor<?x45xf32>
  %m = graph.mul %e, %b : (tensor<?x45xf32>, tensor<?x45xf32>) -> tensor<?x45xf32>
  %d = graph.sub %c, %a : (tensor<45xf32>, tensor<?x45xf32>) -> tensor<?x45xf32>
  %r = graph.relu %d : tensor<?x45xf32>
  %y = graph.add %m, %r : (tensor<?x45xf32>, tensor<?x45xf32>) -> tensor<?x45xf32>
  return %y : tensor<?x45xf32>
}
