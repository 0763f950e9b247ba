// Builtin types as function argument types.
!my_tensor = tensor<4x?xf32>
!my_tuple = tuple<i32, !my_tensor>
#my_layout = affine_map<(d0, d1) -> (d1, d0)>
module {
  func.func private @integers(i1, i8, i16, i32, i64, i128, si32, ui8, si1, ui64, i4, i17)
  func.func private @floats(f16, bf16, f32, f64, f80, f128, tf32, f8E4M3FN, f8E5M2)
  func.func private @index_none(index, none)
  func.func private @complex(complex<f32>, complex<f64>, complex<i32>)
  func.func private @tensors(tensor<4xf32>, tensor<4x?xf32>, tensor<*xf32>, tensor<f32>, tensor<?x?x?xi8>, tensor<0xf32>, tensor<4xf32, "enc">, tensor<4x4xf32, #foo.enc<"x">>, tensor<2xcomplex<f32>>, tensor<4xindex>)
  func.func private @memrefs(memref<4x8xf32>, memref<?x8xf32, strided<[8, 1], offset: ?>>, memref<4xf32, 1>, memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>, memref<*xf32>, memref<*xf32, 1>, memref<f32>, memref<?xf32, strided<[?], offset: ?>>, memref<4x?xf32, strided<[?, 1]>>, memref<4xf32, "gpu">, memref<8xi8, strided<[1], offset: 4>>, memref<2x3xf32, affine_map<(d0, d1)[s0] -> (d0 * 3 + d1 + s0)>, 2>)
  func.func private @vectors(vector<4xf32>, vector<[4]xf32>, vector<2x[4]xf32>, vector<4x4xi1>, vector<1xindex>, vector<f32>)
  func.func private @tuples(tuple<i32, f32>, tuple<>, tuple<tuple<i1>, tensor<2xf32>>)
  func.func private @functions((i32) -> i32, () -> (), (i32, f32) -> (i1, i8), ((i32) -> i32) -> (() -> ()))
  func.func private @opaque(!foo.bar, !foo<"baz">, !foo.qux<1, "x", [i32]>)
  func.func private @aliases(!my_tensor, !my_tuple, memref<4x4xf32, #my_layout>)
  // Forms that MLIR canonicalizes or elides when printing.
  func.func private @canonicalized(memref<4xf32, 0>, memref<4x4xf32, affine_map<(d0, d1) -> (d0, d1)>>, memref<4xf32, strided<[1]>>, memref<4x8xf32, strided<[8, 1], offset: 0>>, vector<[4]x[4]xf32>, memref<4xf32, #foo.space>, tensor<4xf32, 0 : i32>, si64, ui1)
  func.func private @small_floats(f8E4M3FNUZ, f8E5M2FNUZ, f8E4M3B11FNUZ, f6E2M3FN, f4E2M1FN, f8E8M0FNU)
  func.func private @with_body(%arg0: tensor<4x?xf32>, %arg1: memref<?x8xf32, strided<[8, 1], offset: ?>>, %arg2: vector<2x[4]xf32>, %arg3: tuple<i32, f32>, %arg4: none, %arg5: complex<f32>, %arg6: (i32) -> i32) {
    return
  }
}
