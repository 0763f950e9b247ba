// Builtin attributes in the attribute dictionary of unregistered ops.
#alias_map = affine_map<(d0, d1)[s0] -> (d0 + s0, d1 floordiv 2, d0 mod 4, d1 ceildiv 3, d0 * 2 - d1)>
module {
  "test.integers"() {i1t = true, i1f = false, a = 42, b = -7 : i32, c = 255 : i8, d = -1 : i64, e = 5 : index, f = 0x2A : i32, g = 7 : si8, h = 200 : ui8, big = 18446744073709551615 : ui64, neg = -128 : i8, wide = 170141183460469231731687303715884105727 : i128, bool_i1 = 1 : i1} : () -> ()
  "test.floats"() {a = 1.0 : f32, b = -0.0 : f32, c = 1.0e+10 : f64, d = 1.5e-7 : f32, e = 0.1 : f64, f = 3.0, g = 2.5 : f16, h = 1.0 : bf16, i = 123456789.0 : f64, j = 1.0e-300 : f64, k = 65504.0 : f16, l = 0.3 : f32} : () -> ()
  "test.special_floats"() {nan = 0x7FC00000 : f32, nan64 = 0x7FF8000000000000 : f64, inf = 0x7F800000 : f32, ninf = 0xFF800000 : f32, pinf64 = 0x7FF0000000000000 : f64, snan = 0x7FA00000 : f32, negnan = 0xFFC00000 : f32, hex_one = 0x3F800000 : f32, hexh = 0x7C00 : f16, hexbf = 0x7FC0 : bf16, denorm = 0x00000001 : f32} : () -> ()
  "test.strings"() {a = "hello", b = "with \"quotes\" and \\ backslash", c = "tab\tnewline\n", d = "hex\00\FF\7F", e = "", f = "unicode é ∀", g = "a\0Ab", h = "bell\07"} : () -> ()
  "test.unit_and_misc"() {u, flag, n = none, t = i32, t2 = tensor<4xf32>, t3 = (i32) -> f32} : () -> ()
  "test.arrays"() {a = [], b = [1, 2, 3], c = [1 : i32, "x", [2.0 : f32, unit], i64], d = [[1], [2, 3]]} : () -> ()
  "test.dicts"() {a = {}, b = {x = 1 : i64, y = "s"}, c = {nested = {deep = [true]}}, d = {"quoted key" = 1, z = 2, a = 3}} : () -> ()
  "test.dense"() {splat = dense<1.0> : tensor<4xf32>, isplat = dense<7> : tensor<2x3xi32>, bsplat = dense<true> : tensor<4xi1>, vec = dense<[1, 2, 3, 4]> : vector<4xi32>, nested = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>, bools = dense<[true, false]> : tensor<2xi1>, hex = dense<"0x0000803F00000040"> : tensor<2xf32>, hexsplat = dense<"0x0000803F"> : tensor<4xf32>, empty = dense<> : tensor<0xf32>, scalar = dense<5> : tensor<i64>, cplx = dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>, idx = dense<[0, 1]> : tensor<2xindex>, neg0 = dense<-0.0> : tensor<2xf64>, big = dense<[1.0e+10, 1.5e-7, 0.1]> : tensor<3xf64>, ints = dense<[[1, -2], [3, -4]]> : tensor<2x2xi8>, strs = dense<["a", "bc"]> : tensor<2x!foo.str>, memr = dense<2> : memref<2xi32>} : () -> ()
  "test.dense_resource_like"() {arr64 = array<i64: 1, 2>, arr32 = array<i32>, arrf = array<f32: 1.0, -2.5>, arrb = array<i1: true, false>, arr8 = array<i8: -1, 127>, arrf64 = array<f64: 0.1>} : () -> ()
  "test.sparse"() {sp = sparse<[[0, 0], [1, 2]], [1.0, 2.0]> : tensor<3x4xf32>} : () -> ()
  "test.types"() {a = i32, b = memref<?xf32>, c = !foo.bar, d = index, e = vector<[4]xf32>} : () -> ()
  "test.symbols"() {a = @a, b = @a::@b, c = @a::@b::@c, d = @"quoted sym", e = [@x, @y::@z]} : () -> ()
  "test.affine"() {m0 = affine_map<() -> ()>, m1 = affine_map<(d0) -> (d0)>, m2 = affine_map<(d0, d1) -> (d1, d0)>, m3 = #alias_map, m4 = affine_map<(d0)[s0, s1] -> (d0 * s0 + s1, 42, -d0)>, m5 = affine_map<(i, j) -> (i + j * 3)>, m6 = affine_map<(d0, d1) -> (d0 - d1 + 1)>, m7 = affine_map<(d0) -> (d0 * -1)>, m8 = affine_map<(d0, d1) -> (d0 * 4 + d1, (d0 + d1) floordiv 8)>} : () -> ()
  "test.sets"() {s0 = affine_set<(d0) : (d0 >= 0)>, s1 = affine_set<(d0, d1)[s0] : (d0 - 1 >= 0, s0 - d1 == 0, -d0 + 10 >= 0)>, s2 = affine_set<() : (0 == 0)>} : () -> ()
  "test.opaque"() {a = #foo.bar<"x">, b = #foo<"raw text">, c = #foo.baz, d = #foo.qux<1, [2, 3], {k = "v"}>} : () -> ()
  "test.builtin_misc"() {strided = strided<[4, 1], offset: ?>, loc_attr = loc("x.py":1:2), dist = distinct[0]<42 : i32>, dist2 = distinct[1]<>} : () -> ()
  "test.typed_attrs"() {int_typed = 1 : i64, unit_typed = 1 : index, fl = 1.000000e+00 : f64, fn_type = () -> ()} : () -> ()
  "test.keys"() {"key with space" = 1, _under = 2, key.with.dots = 4, dollar$ = 5} : () -> ()
}
