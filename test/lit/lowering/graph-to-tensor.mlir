// RUN: mlc-opt %s -split-input-file -p convert-graph-to-tensor | filecheck %s
// RUN: mlc-opt %s -split-input-file -p convert-graph-to-tensor --mlir-print-op-generic | mlc-opt -split-input-file | filecheck %s

// Broadcasting: a static size-1 dim reads index 0, a missing leading dim is not indexed, a
// dynamic result dim takes its size from an operand that has it.
// CHECK-DAG: #[[$ROW0:.+]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[$LAST:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @broadcast_add(
// CHECK-SAME: %[[A:\w+]]: tensor<4x1xf32>, %[[B:\w+]]: tensor<?xf32>)
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK: %[[D:.+]] = tensor.dim %[[B]], %[[C0]] : tensor<?xf32>
// CHECK: %[[INIT:.+]] = tensor.empty(%[[D]]) : tensor<4x?xf32>
// CHECK: %[[R:.+]] = tensor.generic {indexing_maps = [#[[$ROW0]], #[[$LAST]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[A]], %[[B]] : tensor<4x1xf32>, tensor<?xf32>) outs(%[[INIT]] : tensor<4x?xf32>) {
// CHECK-NEXT: ^bb0(%[[X:\w+]]: f32, %[[Y:\w+]]: f32, %{{\w+}}: f32):
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT: tensor.yield %[[S]] : f32
// CHECK-NEXT: } -> tensor<4x?xf32>
// CHECK: return %[[R]] : tensor<4x?xf32>
func.func @broadcast_add(%a: tensor<4x1xf32>, %b: tensor<?xf32>) -> tensor<4x?xf32> {
  %0 = graph.add %a, %b : (tensor<4x1xf32>, tensor<?xf32>) -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// -----

// The scalar body of each elementwise op follows the graph semantics.
// CHECK-LABEL: func.func @scalar_bodies(
// CHECK: tensor.generic
// CHECK: arith.divsi %{{.+}}, %{{.+}} : i32
// CHECK: tensor.generic
// CHECK: arith.maximumf %{{.+}}, %{{.+}} : f32
// CHECK: tensor.generic
// CHECK: arith.minsi %{{.+}}, %{{.+}} : i32
// CHECK: tensor.generic
// CHECK: arith.ori %{{.+}}, %{{.+}} : i1
// CHECK: tensor.generic
// CHECK: math.powf %{{.+}}, %{{.+}} : f32
// CHECK: tensor.generic
// CHECK: arith.cmpf olt, %{{.+}}, %{{.+}} : f32
// CHECK: tensor.generic
// CHECK: arith.cmpf une, %{{.+}}, %{{.+}} : f32
// CHECK: tensor.generic
// CHECK: arith.cmpi ult, %{{.+}}, %{{.+}} : i1
// CHECK: tensor.generic
// CHECK: arith.select %{{.+}}, %{{.+}}, %{{.+}} : f32
// CHECK: tensor.generic
// CHECK: ^bb0(%[[X:\w+]]: i32, %{{\w+}}: i32):
// CHECK-NEXT: %[[Z:.+]] = arith.constant 0 : i32
// CHECK-NEXT: arith.subi %[[Z]], %[[X]] : i32
// CHECK: tensor.generic
// CHECK: math.absi %{{.+}} : i32
// CHECK: tensor.generic
// CHECK: ^bb0(%[[X:\w+]]: i32, %{{\w+}}: i32):
// CHECK-NEXT: %[[Z:.+]] = arith.constant 0 : i32
// CHECK-NEXT: arith.maxsi %[[X]], %[[Z]] : i32
// CHECK: tensor.generic
// CHECK: ^bb0(%[[X:\w+]]: f32, %{{\w+}}: f32):
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[N:.+]] = arith.negf %[[X]] : f32
// CHECK-NEXT: %[[E:.+]] = math.exp %[[N]] : f32
// CHECK-NEXT: %[[D:.+]] = arith.addf %[[ONE]], %[[E]] : f32
// CHECK-NEXT: %[[S:.+]] = arith.divf %[[ONE]], %[[D]] : f32
// CHECK-NEXT: tensor.yield %[[S]] : f32
// CHECK: tensor.generic
// CHECK: ^bb0(%[[X:\w+]]: f32, %{{\w+}}: f32):
// CHECK-NEXT: %[[R2:.+]] = arith.constant 0.7071067{{[0-9]+}} : f32
// CHECK-NEXT: %[[XS:.+]] = arith.mulf %[[X]], %[[R2]] : f32
// CHECK-NEXT: %[[ERF:.+]] = math.erf %[[XS]] : f32
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[P:.+]] = arith.addf %[[ONE]], %[[ERF]] : f32
// CHECK-NEXT: %[[HALF:.+]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[H:.+]] = arith.mulf %[[HALF]], %[[X]] : f32
// CHECK-NEXT: %[[G:.+]] = arith.mulf %[[H]], %[[P]] : f32
// CHECK-NEXT: tensor.yield %[[G]] : f32
// CHECK: tensor.generic
// CHECK: math.rsqrt %{{.+}} : f32
func.func @scalar_bodies(%i: tensor<4xi32>, %f: tensor<4xf32>, %b: tensor<4xi1>) {
  %0 = graph.div %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = graph.max %f, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = graph.min %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %3 = graph.max %b, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %4 = graph.pow %f, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %5 = graph.cmp "lt", %f, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %6 = graph.cmp "ne", %f, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %7 = graph.cmp "lt", %b, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %8 = graph.select %b, %f, %f : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %9 = graph.neg %i : tensor<4xi32>
  %10 = graph.abs %i : tensor<4xi32>
  %11 = graph.relu %i : tensor<4xi32>
  %12 = graph.sigmoid %f : tensor<4xf32>
  %13 = graph.gelu %f : tensor<4xf32>
  %14 = graph.rsqrt %f : tensor<4xf32>
  return
}

// -----

// graph.cast picks the arith cast for the element types; x -> i1 is `x != 0`.
// CHECK-LABEL: func.func @casts(
// CHECK: arith.fptosi %{{.+}} : f32 to i32
// CHECK: arith.sitofp %{{.+}} : i32 to f64
// CHECK: arith.truncf %{{.+}} : f64 to f16
// CHECK: arith.extsi %{{.+}} : i32 to i64
// CHECK: arith.trunci %{{.+}} : i64 to i32
// CHECK: ^bb0(%[[X:\w+]]: f32, %{{\w+}}: i1):
// CHECK-NEXT: %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: arith.cmpf une, %[[X]], %[[Z]] : f32
// CHECK: ^bb0(%[[X:\w+]]: i32, %{{\w+}}: i1):
// CHECK-NEXT: %[[Z:.+]] = arith.constant 0 : i32
// CHECK-NEXT: arith.cmpi ne, %[[X]], %[[Z]] : i32
// CHECK: arith.extui %{{.+}} : i1 to i32
// CHECK: arith.uitofp %{{.+}} : i1 to f32
func.func @casts(%f: tensor<4xf32>, %i: tensor<4xi32>, %b: tensor<4xi1>) {
  %0 = graph.cast %f : tensor<4xf32> to tensor<4xi32>
  %1 = graph.cast %i : tensor<4xi32> to tensor<4xf64>
  %2 = graph.cast %1 : tensor<4xf64> to tensor<4xf16>
  %3 = graph.cast %i : tensor<4xi32> to tensor<4xi64>
  %4 = graph.cast %3 : tensor<4xi64> to tensor<4xi32>
  %5 = graph.cast %f : tensor<4xf32> to tensor<4xi1>
  %6 = graph.cast %i : tensor<4xi32> to tensor<4xi1>
  %7 = graph.cast %b : tensor<4xi1> to tensor<4xi32>
  %8 = graph.cast %b : tensor<4xi1> to tensor<4xf32>
  return
}

// -----

// matmul: loops (batch, m, n, k), k a reduction; the size-1 batch dim of the lhs broadcasts.
// CHECK-DAG: #[[$LHS:.+]] = affine_map<(d0, d1, d2, d3) -> (0, d1, d3)>
// CHECK-DAG: #[[$RHS:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[$OUT:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @matmul(
// CHECK-SAME: %[[A:\w+]]: tensor<1x4x8xf32>, %[[B:\w+]]: tensor<3x8x16xf32>)
// CHECK: %[[E:.+]] = tensor.empty() : tensor<3x4x16xf32>
// CHECK: %[[ZERO:.+]] = tensor.generic {indexing_maps = [#{{.+}}], iterator_types = ["parallel", "parallel", "parallel"]} outs(%[[E]] : tensor<3x4x16xf32>) {
// CHECK-NEXT: ^bb0(%{{\w+}}: f32):
// CHECK-NEXT: %[[C:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: tensor.yield %[[C]] : f32
// CHECK: %[[R:.+]] = tensor.generic {indexing_maps = [#[[$LHS]], #[[$RHS]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[A]], %[[B]] : tensor<1x4x8xf32>, tensor<3x8x16xf32>) outs(%[[ZERO]] : tensor<3x4x16xf32>) {
// CHECK-NEXT: ^bb0(%[[X:\w+]]: f32, %[[Y:\w+]]: f32, %[[ACC:\w+]]: f32):
// CHECK-NEXT: %[[M:.+]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[ACC]], %[[M]] : f32
// CHECK-NEXT: tensor.yield %[[S]] : f32
// CHECK: return %[[R]]
func.func @matmul(%a: tensor<1x4x8xf32>, %b: tensor<3x8x16xf32>) -> tensor<3x4x16xf32> {
  %0 = graph.matmul %a, %b : (tensor<1x4x8xf32>, tensor<3x8x16xf32>) -> tensor<3x4x16xf32>
  return %0 : tensor<3x4x16xf32>
}

// -----

// Reductions: identity-filled init, reduction iterators, then expand_shape for keepdims.
// CHECK-DAG: #[[$ID3:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$MID:.+]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @reduce_sum_keepdims(
// CHECK-SAME: %[[X:\w+]]: tensor<?x4x5xf32>)
// CHECK: %[[E:.+]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[INIT:.+]] = tensor.generic
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: %[[SUM:.+]] = tensor.generic {indexing_maps = [#[[$ID3]], #[[$MID]]], iterator_types = ["reduction", "parallel", "reduction"]} ins(%[[X]] : tensor<?x4x5xf32>) outs(%[[INIT]] : tensor<4xf32>)
// CHECK: arith.addf
// CHECK: %[[K:.+]] = tensor.expand_shape %[[SUM]] {{\[\[}}0, 1, 2]] output_shape [1, 4, 1] : tensor<4xf32> into tensor<1x4x1xf32>
// CHECK: return %[[K]] : tensor<1x4x1xf32>
func.func @reduce_sum_keepdims(%x: tensor<?x4x5xf32>) -> tensor<1x4x1xf32> {
  %0 = graph.reduce_sum %x {axes = array<i64: 0, 2>, keepdims = true} : (tensor<?x4x5xf32>) -> tensor<1x4x1xf32>
  return %0 : tensor<1x4x1xf32>
}

// CHECK-LABEL: func.func @reduce_max_int(
// CHECK: arith.constant -2147483648 : i32
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: arith.maxsi
func.func @reduce_max_int(%x: tensor<3x4xi32>) -> tensor<3xi32> {
  %0 = graph.reduce_max %x {axes = array<i64: 1>} : (tensor<3x4xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// The mean divides by the number of reduced elements, from tensor.dim when dynamic.
// CHECK-LABEL: func.func @reduce_mean_dynamic(
// CHECK-SAME: %[[X:\w+]]: tensor<?x6xf64>)
// CHECK: %[[SUM:.+]] = tensor.generic {{.+}} iterator_types = ["reduction", "parallel"]
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK: %[[D:.+]] = tensor.dim %[[X]], %[[C0]] : tensor<?x6xf64>
// CHECK: %[[I:.+]] = arith.index_cast %[[D]] : index to i64
// CHECK: %[[N:.+]] = arith.sitofp %[[I]] : i64 to f64
// CHECK: tensor.generic {{.+}} ins(%[[SUM]] : tensor<6xf64>)
// CHECK-NEXT: ^bb0(%[[S:\w+]]: f64, %{{\w+}}: f64):
// CHECK-NEXT: %[[Q:.+]] = arith.divf %[[S]], %[[N]] : f64
func.func @reduce_mean_dynamic(%x: tensor<?x6xf64>) -> tensor<6xf64> {
  %0 = graph.reduce_mean %x {axes = array<i64: 0>} : (tensor<?x6xf64>) -> tensor<6xf64>
  return %0 : tensor<6xf64>
}

// -----

// softmax: max-reduce (maxnumf: a NaN reaches the row through exp and the sum anyway),
// exp(x - max) marked `mlc.shifted_exp` (its argument is <= 0; knob `shifted_exp`), sum-reduce, times the reciprocal of the sum (knob `reciprocal`: one divide per
// row; the kernel's fusion recomputes it per element in the tensor form, affine-vectorize
// hoists it out of the row's loop).
// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @softmax(
// CHECK-SAME: %[[X:\w+]]: tensor<2x10xf32>)
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: %[[MAX:.+]] = tensor.generic {indexing_maps = [#[[$ID]], #[[$ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<2x10xf32>)
// CHECK: arith.maxnumf
// CHECK: %[[EXP:.+]] = tensor.generic {indexing_maps = [#[[$ID]], #[[$ROW]], #[[$ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[MAX]] : tensor<2x10xf32>, tensor<2xf32>)
// CHECK-NEXT: ^bb0(%[[A:\w+]]: f32, %[[M:\w+]]: f32, %{{\w+}}: f32):
// CHECK-NEXT: %[[D:.+]] = arith.subf %[[A]], %[[M]] : f32
// CHECK-NEXT: %[[E:.+]] = math.exp %[[D]] {mlc.shifted_exp} : f32
// CHECK: %[[SUM:.+]] = tensor.generic {indexing_maps = [#[[$ID]], #[[$ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[EXP]] : tensor<2x10xf32>)
// CHECK: arith.addf
// CHECK: %[[R:.+]] = tensor.generic {indexing_maps = [#[[$ID]], #[[$ROW]], #[[$ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[EXP]], %[[SUM]] : tensor<2x10xf32>, tensor<2xf32>)
// CHECK-NEXT: ^bb0(%[[E2:\w+]]: f32, %[[S2:\w+]]: f32, %{{\w+}}: f32):
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[RCP:.+]] = arith.divf %[[ONE]], %[[S2]] : f32
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[E2]], %[[RCP]] : f32
// CHECK-NEXT: tensor.yield %[[P]]
// CHECK: return %[[R]]
func.func @softmax(%x: tensor<2x10xf32>) -> tensor<2x10xf32> {
  %0 = graph.softmax %x {axis = 1 : i64} : (tensor<2x10xf32>) -> tensor<2x10xf32>
  return %0 : tensor<2x10xf32>
}

// -----

// conv2d: zero padding, the bias broadcast as the initial output, one generic with loops
// (n, o, oh, ow, ci, kh, kw); groups = 2 picks input channel (o floordiv 3) * 2 + ci.
// CHECK-DAG: #[[$BIAS:.+]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-DAG: #[[$ID4:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$IN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, (d1 floordiv 3) * 2 + d4, d2 * 2 + d5 * 2, d3 * 2 + d6)>
// CHECK-DAG: #[[$FILTER:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>
// CHECK-DAG: #[[$OUT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv(
// CHECK-SAME: %[[X:\w+]]: tensor<1x4x9x9xf32>, %[[W:\w+]]: tensor<6x2x3x3xf32>, %[[B:\w+]]: tensor<6xf32>)
// CHECK: %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[P:.+]] = tensor.pad %[[X]] low[0, 0, 1, 2] high[0, 0, 0, 1] {
// CHECK: tensor.yield %[[Z]] : f32
// CHECK: } : tensor<1x4x9x9xf32> to tensor<1x4x10x12xf32>
// CHECK: %[[E:.+]] = tensor.empty() : tensor<1x6x3x5xf32>
// CHECK: %[[INIT:.+]] = tensor.generic {indexing_maps = [#[[$BIAS]], #[[$ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[B]] : tensor<6xf32>) outs(%[[E]] : tensor<1x6x3x5xf32>)
// CHECK: %[[R:.+]] = tensor.generic {indexing_maps = [#[[$IN]], #[[$FILTER]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[P]], %[[W]] : tensor<1x4x10x12xf32>, tensor<6x2x3x3xf32>) outs(%[[INIT]] : tensor<1x6x3x5xf32>)
// CHECK-NEXT: ^bb0(%[[I:\w+]]: f32, %[[F:\w+]]: f32, %[[ACC:\w+]]: f32):
// CHECK-NEXT: %[[M:.+]] = arith.mulf %[[I]], %[[F]] : f32
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[ACC]], %[[M]] : f32
// CHECK: return %[[R]]
func.func @conv(%x: tensor<1x4x9x9xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<6xf32>) -> tensor<1x6x3x5xf32> {
  %0 = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 2, 0, 1>, dilations = array<i64: 2, 1>, groups = 2 : i64} : (tensor<1x4x9x9xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<1x6x3x5xf32>
  return %0 : tensor<1x6x3x5xf32>
}

// -----

// max pooling: -inf init, window loops as reductions over a tensor.empty of the kernel shape.
// CHECK-DAG: #[[$WIN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
// CHECK-DAG: #[[$KER:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-LABEL: func.func @max_pool(
// CHECK-SAME: %[[X:\w+]]: tensor<1x3x8x8xf32>)
// CHECK-NOT: tensor.pad
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: %[[K:.+]] = tensor.empty() : tensor<2x2xf32>
// CHECK: tensor.generic {indexing_maps = [#[[$WIN]], #[[$KER]], #{{.+}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[X]], %[[K]] : tensor<1x3x8x8xf32>, tensor<2x2xf32>)
// CHECK: arith.maximumf
func.func @max_pool(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  %0 = graph.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// Average pooling with padding divides by the window sums of a zero-padded tensor of ones.
// CHECK-LABEL: func.func @avg_pool_padded(
// CHECK-SAME: %[[X:\w+]]: tensor<1x3x8x8xf32>)
// CHECK: %[[P:.+]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 0, 0]
// CHECK: %[[SUMS:.+]] = tensor.generic {{.+}} ins(%[[P]], %{{.+}} : tensor<1x3x9x9xf32>, tensor<3x3xf32>)
// CHECK: arith.addf
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK: %[[PO:.+]] = tensor.pad %{{.+}} low[1, 1] high[0, 0]
// CHECK: } : tensor<8x8xf32> to tensor<9x9xf32>
// CHECK: %[[COUNTS:.+]] = tensor.generic {{.+}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%[[PO]], %{{.+}} : tensor<9x9xf32>, tensor<3x3xf32>) outs(%{{.+}} : tensor<4x4xf32>)
// CHECK: %[[R:.+]] = tensor.generic {{.+}} ins(%[[SUMS]], %[[COUNTS]] : tensor<1x3x4x4xf32>, tensor<4x4xf32>)
// CHECK: arith.divf
// CHECK: return %[[R]]
func.func @avg_pool_padded(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  %0 = graph.avg_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// Without padding every window has kh * kw elements.
// CHECK-LABEL: func.func @avg_pool(
// CHECK-NOT: tensor.pad
// CHECK: %[[N:.+]] = arith.constant 9.000000e+00 : f32
// CHECK: arith.divf %{{.+}}, %[[N]] : f32
func.func @avg_pool(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x2x2xf32> {
  %0 = graph.avg_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 3, 3>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x2x2xf32>
  return %0 : tensor<1x3x2x2xf32>
}

// -----

// Reshapes: one collapse or expand when possible, otherwise through 1-D.
// CHECK-LABEL: func.func @reshape_collapse(
// CHECK: tensor.collapse_shape %{{.+}} {{\[\[}}0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
func.func @reshape_collapse(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %0 = graph.reshape %x {shape = array<i64: 6, 4>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// CHECK-LABEL: func.func @reshape_expand(
// CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0, 1], [2, 3, 4]] output_shape [2, 3, 1, 4, 1] : tensor<6x4xf32> into tensor<2x3x1x4x1xf32>
func.func @reshape_expand(%x: tensor<6x4xf32>) -> tensor<2x3x1x4x1xf32> {
  %0 = graph.reshape %x {shape = array<i64: 2, 3, 1, 4, -1>} : (tensor<6x4xf32>) -> tensor<2x3x1x4x1xf32>
  return %0 : tensor<2x3x1x4x1xf32>
}

// CHECK-LABEL: func.func @reshape_general(
// CHECK: %[[F:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
// CHECK: tensor.expand_shape %[[F]] {{\[\[}}0, 1]] output_shape [4, 6] : tensor<24xf32> into tensor<4x6xf32>
func.func @reshape_general(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %0 = graph.reshape %x {shape = array<i64: 4, 6>} : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// The inferred dynamic size is the element count divided by the static sizes.
// CHECK-LABEL: func.func @reshape_dynamic(
// CHECK-SAME: %[[X:\w+]]: tensor<?x6xf32>)
// CHECK: %[[D:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x6xf32>
// CHECK: %[[C6:.+]] = arith.constant 6 : index
// CHECK: %[[N:.+]] = arith.muli %[[D]], %[[C6]] : index
// CHECK: %[[F:.+]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1]] : tensor<?x6xf32> into tensor<?xf32>
// CHECK: %[[C4:.+]] = arith.constant 4 : index
// CHECK: %[[R:.+]] = arith.divui %[[N]], %[[C4]] : index
// CHECK: tensor.expand_shape %[[F]] {{\[\[}}0, 1]] output_shape [%[[R]], 4] : tensor<?xf32> into tensor<?x4xf32>
func.func @reshape_dynamic(%x: tensor<?x6xf32>) -> tensor<?x4xf32> {
  %0 = graph.reshape %x {shape = array<i64: -1, 4>} : (tensor<?x6xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// CHECK-LABEL: func.func @reshape_rank0(
// CHECK: tensor.collapse_shape %{{.+}} [] : tensor<1x1xf32> into tensor<f32>
func.func @reshape_rank0(%x: tensor<1x1xf32>) -> tensor<f32> {
  %0 = graph.reshape %x {shape = array<i64>} : (tensor<1x1xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// concat: insert_slice per operand at an accumulated offset.
// CHECK-LABEL: func.func @concat(
// CHECK-SAME: %[[A:\w+]]: tensor<?x3xf32>, %[[B:\w+]]: tensor<2x3xf32>)
// CHECK: %[[D:.+]] = tensor.dim %[[A]], %{{.+}} : tensor<?x3xf32>
// CHECK: %[[C2:.+]] = arith.constant 2 : index
// CHECK: %[[N:.+]] = arith.addi %[[D]], %[[C2]] : index
// CHECK: %[[E:.+]] = tensor.empty(%[[N]]) : tensor<?x3xf32>
// CHECK: %[[I0:.+]] = tensor.insert_slice %[[A]] into %[[E]][0, 0] [%[[D]], 3] [1, 1] : tensor<?x3xf32> into tensor<?x3xf32>
// CHECK: %[[I1:.+]] = tensor.insert_slice %[[B]] into %[[I0]][%[[D]], 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<?x3xf32>
// CHECK: return %[[I1]]
func.func @concat(%a: tensor<?x3xf32>, %b: tensor<2x3xf32>) -> tensor<?x3xf32> {
  %0 = graph.concat %a, %b {axis = 0 : i64} : (tensor<?x3xf32>, tensor<2x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// CHECK-LABEL: func.func @concat_static(
// CHECK: %[[E:.+]] = tensor.empty() : tensor<2x6xf32>
// CHECK: %[[I0:.+]] = tensor.insert_slice %{{.+}} into %[[E]][0, 0] [2, 3] [1, 1]
// CHECK: %[[I1:.+]] = tensor.insert_slice %{{.+}} into %[[I0]][0, 3] [2, 1] [1, 1]
// CHECK: %[[I2:.+]] = tensor.insert_slice %{{.+}} into %[[I1]][0, 4] [2, 2] [1, 1]
func.func @concat_static(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>, %c: tensor<2x2xf32>) -> tensor<2x6xf32> {
  %0 = graph.concat %a, %b, %c {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x2xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

// CHECK-LABEL: func.func @slice(
// CHECK: tensor.extract_slice %{{.+}}[1, 2] [2, 3] [2, 2] : tensor<6x8xf32> to tensor<2x3xf32>
func.func @slice(%x: tensor<6x8xf32>) -> tensor<2x3xf32> {
  %0 = graph.slice %x {limits = array<i64: 5, 8>, starts = array<i64: 1, 2>, strides = array<i64: 2, 2>} : (tensor<6x8xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-DAG: #[[$PERM:.+]] = affine_map<(d0, d1, d2) -> (d1, d2, d0)>
// CHECK-DAG: #[[$ID3:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$BCAST:.+]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-LABEL: func.func @transpose(
// CHECK: tensor.generic {indexing_maps = [#[[$PERM]], #[[$ID3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.+}} : tensor<2x3x4xf32>) outs(%{{.+}} : tensor<4x2x3xf32>)
func.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = graph.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// CHECK-LABEL: func.func @broadcast_to(
// CHECK: tensor.generic {indexing_maps = [#[[$BCAST]], #[[$ID3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.+}} : tensor<2x1xf32>) outs(%{{.+}} : tensor<3x2x5xf32>)
func.func @broadcast_to(%x: tensor<2x1xf32>) -> tensor<3x2x5xf32> {
  %0 = graph.broadcast_to %x {shape = array<i64: 3, 2, 5>} : (tensor<2x1xf32>) -> tensor<3x2x5xf32>
  return %0 : tensor<3x2x5xf32>
}

// -----

// graph.fused is inlined: its body is lowered in place, with no boundary left, and the
// kernel's generics are fused into one.
// CHECK-LABEL: func.func @fused(
// CHECK-SAME: %[[A:\w+]]: tensor<4xf32>, %[[B:\w+]]: tensor<4xf32>)
// CHECK-NOT: graph.
// CHECK: %[[R:.+]] = tensor.generic {{.+}} ins(%[[A]], %[[B]] : tensor<4xf32>, tensor<4xf32>)
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK-NOT: tensor.generic
// CHECK: return %[[R]], %[[A]] : tensor<4xf32>, tensor<4xf32>
func.func @fused(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = graph.fused ins(%a, %b : tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%x: tensor<4xf32>, %y: tensor<4xf32>):
    %s = graph.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %t = graph.relu %s : tensor<4xf32>
    graph.yield %t, %x : tensor<4xf32>, tensor<4xf32>
  }
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @constant(
// CHECK: %[[C:.+]] = arith.constant dense<[1, 2, 3]> : tensor<3xi32>
// CHECK: return %[[C]] : tensor<3xi32>
func.func @constant() -> tensor<3xi32> {
  %0 = graph.constant dense<[1, 2, 3]> : tensor<3xi32>
  return %0 : tensor<3xi32>
}

// Ops of other dialects are kept.
// CHECK-LABEL: func.func @calls(
// CHECK: %[[R:.+]] = call @constant() : () -> tensor<3xi32>
// CHECK: return %[[R]]
func.func @calls() -> tensor<3xi32> {
  %0 = func.call @constant() : () -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// Splat constants feed generics as scalar constants in the body (no constant buffer for the
// loops to read); a non-splat constant stays an input.
// CHECK-LABEL: func.func @splat_operands(
// CHECK-SAME: %[[X:\w+]]: tensor<4xf32>)
// CHECK: %[[C:.+]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK: tensor.generic {{.+}} ins(%[[X]], %[[C]] : tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[A:\w+]]: f32, %[[B:\w+]]: f32, %{{\w+}}: f32):
// CHECK-NEXT: %[[H:.+]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[T:.+]] = arith.constant 3.000000e+00 : f32
// CHECK-NEXT: %[[M:.+]] = arith.mulf %[[A]], %[[H]] : f32
// CHECK-NEXT: %[[AD:.+]] = arith.addf %[[M]], %[[T]] : f32
// CHECK-NEXT: %[[R:.+]] = arith.mulf %[[AD]], %[[B]] : f32
func.func @splat_operands(%x: tensor<4xf32>) -> tensor<4xf32> {
  %h = graph.constant dense<0.5> : tensor<f32>
  %t = graph.constant dense<3.0> : tensor<4xf32>
  %c = graph.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = graph.fused ins(%x, %h, %t, %c : tensor<4xf32>, tensor<f32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<f32>, %d: tensor<4xf32>, %e: tensor<4xf32>):
    %1 = graph.mul %a, %b : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    %2 = graph.add %1, %d : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %3 = graph.mul %2, %e : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    graph.yield %3 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
