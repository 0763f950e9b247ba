#distinct = distinct[0]<42 : i32>
#loc = loc("x.py":1:2)
#map = affine_map<() -> ()>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d1, d0)>
#map3 = affine_map<(d0, d1)[s0] -> (d0 + s0, d1 floordiv 2, d0 mod 4, d1 ceildiv 3, d0 * 2 - d1)>
#map4 = affine_map<(d0)[s0, s1] -> (d0 * s0 + s1, 42, -d0)>
#map5 = affine_map<(d0, d1) -> (d0 + d1 * 3)>
#map6 = affine_map<(d0, d1) -> (d0 - d1 + 1)>
#map7 = affine_map<(d0) -> (-d0)>
#map8 = affine_map<(d0, d1) -> (d0 * 4 + d1, (d0 + d1) floordiv 8)>
#set = affine_set<(d0) : (d0 >= 0)>
#set1 = affine_set<(d0, d1)[s0] : (d0 - 1 >= 0, -d1 + s0 == 0, -d0 + 10 >= 0)>
#set2 = affine_set<() : (0 == 0)>
"builtin.module"() ({
  "test.integers"() {a = 42 : i64, b = -7 : i32, big = 18446744073709551615 : ui64, bool_i1 = true, c = -1 : i8, d = -1 : i64, e = 5 : index, f = 42 : i32, g = 7 : si8, h = 200 : ui8, i1f = false, i1t = true, neg = -128 : i8, wide = 170141183460469231731687303715884105727 : i128} : () -> ()
  "test.floats"() {a = 1.000000e+00 : f32, b = -0.000000e+00 : f32, c = 1.000000e+10 : f64, d = 1.500000e-07 : f32, e = 1.000000e-01 : f64, f = 3.000000e+00 : f64, g = 2.500000e+00 : f16, h = 1.000000e+00 : bf16, i = 0x419D6F3454000000 : f64, j = 1.000000e-300 : f64, k = 6.550400e+04 : f16, l = 3.000000e-01 : f32} : () -> ()
  "test.special_floats"() {denorm = 1.401300e-45 : f32, hex_one = 1.000000e+00 : f32, hexbf = 0x7FC0 : bf16, hexh = 0x7C00 : f16, inf = 0x7F800000 : f32, nan = 0x7FC00000 : f32, nan64 = 0x7FF8000000000000 : f64, negnan = 0xFFC00000 : f32, ninf = 0xFF800000 : f32, pinf64 = 0x7FF0000000000000 : f64, snan = 0x7FA00000 : f32} : () -> ()
  "test.strings"() {a = "hello", b = "with \22quotes\22 and \\ backslash", c = "tab\09newline\0A", d = "hex\00\FF\7F", e = "", f = "unicode \C3\A9 \E2\88\80", g = "a\0Ab", h = "bell\07"} : () -> ()
  "test.unit_and_misc"() {flag, n = none, t = i32, t2 = tensor<4xf32>, t3 = (i32) -> f32, u} : () -> ()
  "test.arrays"() {a = [], b = [1, 2, 3], c = [1 : i32, "x", [2.000000e+00 : f32, unit], i64], d = [[1], [2, 3]]} : () -> ()
  "test.dicts"() {a = {}, b = {x = 1 : i64, y = "s"}, c = {nested = {deep = [true]}}, d = {a = 3 : i64, "quoted key" = 1 : i64, z = 2 : i64}} : () -> ()
  "test.dense"() {big = dense<[1.000000e+10, 1.500000e-07, 1.000000e-01]> : tensor<3xf64>, bools = dense<[true, false]> : tensor<2xi1>, bsplat = dense<true> : tensor<4xi1>, cplx = dense<(1.000000e+00,2.000000e+00)> : tensor<2xcomplex<f32>>, empty = dense<> : tensor<0xf32>, hex = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>, hexsplat = dense<1.000000e+00> : tensor<4xf32>, idx = dense<[0, 1]> : tensor<2xindex>, ints = dense<[[1, -2], [3, -4]]> : tensor<2x2xi8>, isplat = dense<7> : tensor<2x3xi32>, memr = dense<2> : memref<2xi32>, neg0 = dense<-0.000000e+00> : tensor<2xf64>, nested = dense<[[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>, scalar = dense<5> : tensor<i64>, splat = dense<1.000000e+00> : tensor<4xf32>, strs = dense<["a", "bc"]> : tensor<2x!foo.str>, vec = dense<[1, 2, 3, 4]> : vector<4xi32>} : () -> ()
  "test.dense_resource_like"() {arr32 = array<i32>, arr64 = array<i64: 1, 2>, arr8 = array<i8: -1, 127>, arrb = array<i1: true, false>, arrf = array<f32: 1.000000e+00, -2.500000e+00>, arrf64 = array<f64: 1.000000e-01>} : () -> ()
  "test.sparse"() {sp = sparse<[[0, 0], [1, 2]], [1.000000e+00, 2.000000e+00]> : tensor<3x4xf32>} : () -> ()
  "test.types"() {a = i32, b = memref<?xf32>, c = !foo.bar, d = index, e = vector<[4]xf32>} : () -> ()
  "test.symbols"() {a = @a, b = @a::@b, c = @a::@b::@c, d = @"quoted sym", e = [@x, @y::@z]} : () -> ()
  "test.affine"() {m0 = #map, m1 = #map1, m2 = #map2, m3 = #map3, m4 = #map4, m5 = #map5, m6 = #map6, m7 = #map7, m8 = #map8} : () -> ()
  "test.sets"() {s0 = #set, s1 = #set1, s2 = #set2} : () -> ()
  "test.opaque"() {a = #foo.bar<"x">, b = #foo<"raw text">, c = #foo.baz, d = #foo.qux<1, [2, 3], {k = "v"}>} : () -> ()
  "test.builtin_misc"() {dist = #distinct, dist2 = distinct[1]<>, loc_attr = #loc, strided = strided<[4, 1], offset: ?>} : () -> ()
  "test.typed_attrs"() {fl = 1.000000e+00 : f64, fn_type = () -> (), int_typed = 1 : i64, unit_typed = 1 : index} : () -> ()
  "test.keys"() {_under = 2 : i64, dollar$ = 5 : i64, "key with space" = 1 : i64, key.with.dots = 4 : i64} : () -> ()
}) : () -> ()

