"builtin.module"() ({
  "memref.global"() <{constant, initial_value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>, sym_name = "c", sym_visibility = "private", type = memref<2xf32>}> : () -> ()
  "memref.global"() <{alignment = 16 : i64, initial_value, sym_name = "u", type = memref<4xi32>}> : () -> ()
  "memref.global"() <{sym_name = "z", sym_visibility = "public", type = memref<3xf32>}> : () -> ()
  "memref.global"() <{initial_value = dense<0.000000e+00> : tensor<f32>, sym_name = "e", sym_visibility = "private", type = memref<f32>}> {test.attr} : () -> ()
  "func.func"() <{function_type = (index, memref<?x?xf32>, index, index, f32, memref<4xf32>, memref<*xf32>) -> (), sym_name = "f"}> ({
  ^bb0(%arg0: index, %arg1: memref<?x?xf32>, %arg2: index, %arg3: index, %arg4: f32, %arg5: memref<4xf32>, %arg6: memref<*xf32>):
    %0 = "memref.alloc"(%arg0) <{alignment = 64 : i64, operandSegmentSizes = array<i32: 1, 0>}> : (index) -> memref<?x4xf32>
    %1 = "memref.alloca"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4x4xf32, 1>
    %2 = "memref.alloc"(%arg0, %arg2) <{operandSegmentSizes = array<i32: 1, 1>}> : (index, index) -> memref<?x4xf32, affine_map<(d0, d1)[s0] -> (d0 * 4 + d1 + s0)>>
    %3 = "memref.load"(%arg1, %arg2, %arg3) : (memref<?x?xf32>, index, index) -> f32
    %4 = "memref.load"(%arg1, %arg2, %arg3) <{alignment = 8 : i64, nontemporal = true}> : (memref<?x?xf32>, index, index) -> f32
    "memref.store"(%arg4, %arg1, %arg2, %arg3) : (f32, memref<?x?xf32>, index, index) -> ()
    "memref.store"(%3, %arg1, %arg2, %arg3) <{nontemporal = true}> {test.x} : (f32, memref<?x?xf32>, index, index) -> ()
    %5 = "memref.dim"(%arg1, %arg2) : (memref<?x?xf32>, index) -> index
    %6 = "memref.dim"(%arg6, %arg2) : (memref<*xf32>, index) -> index
    %7 = "memref.cast"(%arg1) : (memref<?x?xf32>) -> memref<4x?xf32>
    %8 = "memref.cast"(%arg1) : (memref<?x?xf32>) -> memref<*xf32>
    %9 = "memref.cast"(%arg5) : (memref<4xf32>) -> memref<?xf32, strided<[?], offset: ?>>
    %10 = "memref.subview"(%arg1, %arg2) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, static_offsets = array<i64: -9223372036854775808, 0>, static_sizes = array<i64: 4, 4>, static_strides = array<i64: 1, 1>}> : (memref<?x?xf32>, index) -> memref<4x4xf32, strided<[?, 1], offset: ?>>
    %11 = "memref.subview"(%arg1, %arg2, %arg0) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>, static_offsets = array<i64: -9223372036854775808, 0>, static_sizes = array<i64: 1, -9223372036854775808>, static_strides = array<i64: 1, 2>}> : (memref<?x?xf32>, index, index) -> memref<?xf32, strided<[2], offset: ?>>
    %12 = "memref.subview"(%arg5) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 1>, static_sizes = array<i64: 2>, static_strides = array<i64: 1>}> : (memref<4xf32>) -> memref<2xf32, strided<[1], offset: 1>>
    "memref.copy"(%arg5, %arg5) : (memref<4xf32>, memref<4xf32>) -> ()
    %13 = "memref.get_global"() <{name = @c}> : () -> memref<2xf32>
    %14 = "memref.reinterpret_cast"(%arg1, %arg0) <{operandSegmentSizes = array<i32: 1, 0, 1, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: -9223372036854775808, 4>, static_strides = array<i64: 4, 1>}> : (memref<?x?xf32>, index) -> memref<?x4xf32, strided<[4, 1]>>
    %15 = "memref.reinterpret_cast"(%arg6, %arg2) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, static_offsets = array<i64: -9223372036854775808>, static_sizes = array<i64: 10>, static_strides = array<i64: 1>}> : (memref<*xf32>, index) -> memref<10xf32, strided<[1], offset: ?>>
    "memref.dealloc"(%0) : (memref<?x4xf32>) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
