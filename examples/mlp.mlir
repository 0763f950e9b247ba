// A 784-512-512-10 multi-layer perceptron with relu activations and a softmax output, on a
// dynamic batch: the model `make demo` compiles and checks against the reference interpreter.
func.func @main(%x: tensor<?x784xf32>,
                %w1: tensor<784x512xf32>, %b1: tensor<512xf32>,
                %w2: tensor<512x512xf32>, %b2: tensor<512xf32>,
                %w3: tensor<512x10xf32>, %b3: tensor<10xf32>) -> tensor<?x10xf32> {
  %0 = graph.matmul %x, %w1 : (tensor<?x784xf32>, tensor<784x512xf32>) -> tensor<?x512xf32>
  %1 = graph.add %0, %b1 : (tensor<?x512xf32>, tensor<512xf32>) -> tensor<?x512xf32>
  %2 = graph.relu %1 : tensor<?x512xf32>
  %3 = graph.matmul %2, %w2 : (tensor<?x512xf32>, tensor<512x512xf32>) -> tensor<?x512xf32>
  %4 = graph.add %3, %b2 : (tensor<?x512xf32>, tensor<512xf32>) -> tensor<?x512xf32>
  %5 = graph.relu %4 : tensor<?x512xf32>
  %6 = graph.matmul %5, %w3 : (tensor<?x512xf32>, tensor<512x10xf32>) -> tensor<?x10xf32>
  %7 = graph.add %6, %b3 : (tensor<?x10xf32>, tensor<10xf32>) -> tensor<?x10xf32>
  %8 = graph.softmax %7 {axis = 1 : i64} : (tensor<?x10xf32>) -> tensor<?x10xf32>
  return %8 : tensor<?x10xf32>
}
