// A convolution block: 3x3 conv2d (padding 1) with bias, relu, then 2x2 max pooling with stride 2,
// on a dynamic batch of 3x32x32 images (NCHW) with 16 output channels (OIHW filter).
func.func @main(%x: tensor<?x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) -> tensor<?x16x16x16xf32> {
  %c = graph.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<?x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<?x16x32x32xf32>
  %r = graph.relu %c : tensor<?x16x32x32xf32>
  %p = graph.max_pool2d %r {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x16x32x32xf32>) -> tensor<?x16x16x16xf32>
  return %p : tensor<?x16x16x16xf32>
}
