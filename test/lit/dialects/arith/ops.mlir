// RUN: mlc-opt %s | mlc-opt | filecheck %s
// RUN: mlc-opt %s --mlir-print-op-generic | mlc-opt | filecheck %s

// Every arith op in its custom form; both the custom and the generic print read back the same.

// CHECK-LABEL: func.func @constants
func.func @constants() -> (i32, i8, f32, f64, f16, bf16, index, i1, i1, vector<4xf32>, tensor<2x2xi32>, tensor<2xi1>, f32, f32) {
  // CHECK: %[[C42:.+]] = arith.constant 42 : i32
  %c42 = arith.constant 42 : i32
  // CHECK: %[[CM1:.+]] = arith.constant -1 : i8
  %cm1 = arith.constant -1 : i8
  // CHECK: %[[F:.+]] = arith.constant 1.500000e+00 : f32
  %f = arith.constant 1.5 : f32
  // CHECK: %[[NZ:.+]] = arith.constant -0.000000e+00 : f64
  %nz = arith.constant -0.0 : f64
  // CHECK: %[[H:.+]] = arith.constant 5.000000e-01 : f16
  %h = arith.constant 0.5 : f16
  // CHECK: %[[B:.+]] = arith.constant 2.000000e+00 : bf16
  %b = arith.constant 2.0 : bf16
  // CHECK: %[[I:.+]] = arith.constant 3 : index
  %i = arith.constant 3 : index
  // CHECK: %[[T:.+]] = arith.constant true
  %t = arith.constant true
  // CHECK: %[[FA:.+]] = arith.constant false
  %fa = arith.constant false
  // CHECK: %[[V:.+]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : vector<4xf32>
  %v = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
  // CHECK: %[[TS:.+]] = arith.constant dense<{{\[}}[1, 2], [3, 4]]> : tensor<2x2xi32>
  %ts = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  // CHECK: %[[TB:.+]] = arith.constant dense<true> : tensor<2xi1>
  %tb = arith.constant dense<true> : tensor<2xi1>
  // CHECK: %[[NAN:.+]] = arith.constant 0x7FC00000 : f32
  %nan = arith.constant 0x7FC00000 : f32
  // CHECK: %[[INF:.+]] = arith.constant 0x7F800000 : f32
  %inf = arith.constant 0x7F800000 : f32
  // CHECK: return %[[C42]], %[[CM1]], %[[F]], %[[NZ]], %[[H]], %[[B]], %[[I]], %[[T]], %[[FA]], %[[V]], %[[TS]], %[[TB]], %[[NAN]], %[[INF]]
  return %c42, %cm1, %f, %nz, %h, %b, %i, %t, %fa, %v, %ts, %tb, %nan, %inf : i32, i8, f32, f64, f16, bf16, index, i1, i1, vector<4xf32>, tensor<2x2xi32>, tensor<2xi1>, f32, f32
}

// CHECK-LABEL: func.func @int_binary
// CHECK-SAME: (%[[A:.+]]: i32, %[[B:.+]]: i32)
func.func @int_binary(%a: i32, %b: i32) {
  // CHECK: arith.addi %[[A]], %[[B]] : i32
  %0 = arith.addi %a, %b : i32
  // CHECK: arith.subi %[[A]], %[[B]] : i32
  %1 = arith.subi %a, %b : i32
  // CHECK: arith.muli %[[A]], %[[B]] : i32
  %2 = arith.muli %a, %b : i32
  // CHECK: arith.divui %[[A]], %[[B]] : i32
  %3 = arith.divui %a, %b : i32
  // CHECK: arith.divsi %[[A]], %[[B]] : i32
  %4 = arith.divsi %a, %b : i32
  // CHECK: arith.ceildivui %[[A]], %[[B]] : i32
  %5 = arith.ceildivui %a, %b : i32
  // CHECK: arith.ceildivsi %[[A]], %[[B]] : i32
  %6 = arith.ceildivsi %a, %b : i32
  // CHECK: arith.floordivsi %[[A]], %[[B]] : i32
  %7 = arith.floordivsi %a, %b : i32
  // CHECK: arith.remui %[[A]], %[[B]] : i32
  %8 = arith.remui %a, %b : i32
  // CHECK: arith.remsi %[[A]], %[[B]] : i32
  %9 = arith.remsi %a, %b : i32
  // CHECK: arith.andi %[[A]], %[[B]] : i32
  %10 = arith.andi %a, %b : i32
  // CHECK: arith.ori %[[A]], %[[B]] : i32
  %11 = arith.ori %a, %b : i32
  // CHECK: arith.xori %[[A]], %[[B]] : i32
  %12 = arith.xori %a, %b : i32
  // CHECK: arith.shli %[[A]], %[[B]] : i32
  %13 = arith.shli %a, %b : i32
  // CHECK: arith.shrui %[[A]], %[[B]] : i32
  %14 = arith.shrui %a, %b : i32
  // CHECK: arith.shrsi %[[A]], %[[B]] : i32
  %15 = arith.shrsi %a, %b : i32
  // CHECK: arith.maxsi %[[A]], %[[B]] : i32
  %16 = arith.maxsi %a, %b : i32
  // CHECK: arith.maxui %[[A]], %[[B]] : i32
  %17 = arith.maxui %a, %b : i32
  // CHECK: arith.minsi %[[A]], %[[B]] : i32
  %18 = arith.minsi %a, %b : i32
  // CHECK: arith.minui %[[A]], %[[B]] : i32
  %19 = arith.minui %a, %b : i32
  return
}

// CHECK-LABEL: func.func @overflow_flags
func.func @overflow_flags(%a: i64, %b: i64) -> i32 {
  // CHECK: arith.addi %{{.+}}, %{{.+}} overflow<nsw> : i64
  %0 = arith.addi %a, %b overflow<nsw> : i64
  // CHECK: arith.subi %{{.+}}, %{{.+}} overflow<nuw> : i64
  %1 = arith.subi %a, %b overflow<nuw> : i64
  // CHECK: arith.muli %{{.+}}, %{{.+}} overflow<nsw, nuw> : i64
  %2 = arith.muli %a, %b overflow<nsw, nuw> : i64
  // CHECK: arith.shli %{{.+}}, %{{.+}} overflow<nsw> : i64
  %3 = arith.shli %a, %b overflow<nsw> : i64
  // `none` is the default and is not printed.
  // CHECK: arith.addi %{{.+}}, %{{.+}} : i64
  %4 = arith.addi %a, %b overflow<none> : i64
  // CHECK: arith.trunci %{{.+}} overflow<nuw> : i64 to i32
  %5 = arith.trunci %a overflow<nuw> : i64 to i32
  return %5 : i32
}

// CHECK-LABEL: func.func @elementwise_shapes
func.func @elementwise_shapes(%v: vector<4xi8>, %t: tensor<?x3xindex>, %f: tensor<*xf32>) {
  // CHECK: arith.addi %{{.+}}, %{{.+}} : vector<4xi8>
  %0 = arith.addi %v, %v : vector<4xi8>
  // CHECK: arith.muli %{{.+}}, %{{.+}} : tensor<?x3xindex>
  %1 = arith.muli %t, %t : tensor<?x3xindex>
  // CHECK: arith.mulf %{{.+}}, %{{.+}} : tensor<*xf32>
  %2 = arith.mulf %f, %f : tensor<*xf32>
  return
}

// CHECK-LABEL: func.func @extended
func.func @extended(%a: i32, %b: i32, %v: vector<2xi16>) {
  // CHECK: %{{.+}}, %{{.+}} = arith.addui_extended %{{.+}}, %{{.+}} : i32, i1
  %sum, %overflow = arith.addui_extended %a, %b : i32, i1
  // CHECK: arith.addui_extended %{{.+}}, %{{.+}} : vector<2xi16>, vector<2xi1>
  %vs, %vo = arith.addui_extended %v, %v : vector<2xi16>, vector<2xi1>
  // CHECK: %{{.+}}, %{{.+}} = arith.mulsi_extended %{{.+}}, %{{.+}} : i32
  %lo, %hi = arith.mulsi_extended %a, %b : i32
  // CHECK: %{{.+}}, %{{.+}} = arith.mului_extended %{{.+}}, %{{.+}} : i32
  %ulo, %uhi = arith.mului_extended %a, %b : i32
  return
}

// CHECK-LABEL: func.func @float_binary
// CHECK-SAME: (%[[X:.+]]: f32, %[[Y:.+]]: f32)
func.func @float_binary(%x: f32, %y: f32) {
  // CHECK: arith.addf %[[X]], %[[Y]] : f32
  %0 = arith.addf %x, %y : f32
  // CHECK: arith.subf %[[X]], %[[Y]] : f32
  %1 = arith.subf %x, %y : f32
  // CHECK: arith.mulf %[[X]], %[[Y]] : f32
  %2 = arith.mulf %x, %y : f32
  // CHECK: arith.divf %[[X]], %[[Y]] : f32
  %3 = arith.divf %x, %y : f32
  // CHECK: arith.remf %[[X]], %[[Y]] : f32
  %4 = arith.remf %x, %y : f32
  // CHECK: arith.maximumf %[[X]], %[[Y]] : f32
  %5 = arith.maximumf %x, %y : f32
  // CHECK: arith.minimumf %[[X]], %[[Y]] : f32
  %6 = arith.minimumf %x, %y : f32
  // CHECK: arith.maxnumf %[[X]], %[[Y]] : f32
  %7 = arith.maxnumf %x, %y : f32
  // CHECK: arith.minnumf %[[X]], %[[Y]] : f32
  %8 = arith.minnumf %x, %y : f32
  // CHECK: arith.negf %[[X]] : f32
  %9 = arith.negf %x : f32
  return
}

// CHECK-LABEL: func.func @fastmath
func.func @fastmath(%x: f64, %y: f64) {
  // CHECK: arith.addf %{{.+}}, %{{.+}} fastmath<fast> : f64
  %0 = arith.addf %x, %y fastmath<fast> : f64
  // CHECK: arith.mulf %{{.+}}, %{{.+}} fastmath<nnan,ninf> : f64
  %1 = arith.mulf %x, %y fastmath<nnan,ninf> : f64
  // CHECK: arith.subf %{{.+}}, %{{.+}} fastmath<reassoc,nsz,arcp,contract,afn> : f64
  %2 = arith.subf %x, %y fastmath<reassoc,nsz,arcp,contract,afn> : f64
  // All seven flags are `fast`.
  // CHECK: arith.divf %{{.+}}, %{{.+}} fastmath<fast> : f64
  %3 = arith.divf %x, %y fastmath<reassoc,nnan,ninf,nsz,arcp,contract,afn> : f64
  // CHECK: arith.negf %{{.+}} fastmath<nsz> : f64
  %4 = arith.negf %x fastmath<nsz> : f64
  // CHECK: arith.remf %{{.+}}, %{{.+}} : f64
  %5 = arith.remf %x, %y fastmath<none> : f64
  // CHECK: arith.cmpf olt, %{{.+}}, %{{.+}} fastmath<nnan> : f64
  %6 = arith.cmpf olt, %x, %y fastmath<nnan> : f64
  // CHECK: arith.extf %{{.+}} fastmath<contract> : f64 to f128
  %7 = arith.extf %x fastmath<contract> : f64 to f128
  // CHECK: arith.minnumf %{{.+}}, %{{.+}} {some.attr} : f64
  %8 = arith.minnumf %x, %y {some.attr} : f64
  return
}

// CHECK-LABEL: func.func @cmpi
func.func @cmpi(%a: i32, %b: i32, %v: vector<4xindex>) -> vector<4xi1> {
  // CHECK: arith.cmpi eq, %{{.+}}, %{{.+}} : i32
  %0 = arith.cmpi eq, %a, %b : i32
  // CHECK: arith.cmpi ne, %{{.+}}, %{{.+}} : i32
  %1 = arith.cmpi ne, %a, %b : i32
  // CHECK: arith.cmpi slt, %{{.+}}, %{{.+}} : i32
  %2 = arith.cmpi slt, %a, %b : i32
  // CHECK: arith.cmpi sle, %{{.+}}, %{{.+}} : i32
  %3 = arith.cmpi sle, %a, %b : i32
  // CHECK: arith.cmpi sgt, %{{.+}}, %{{.+}} : i32
  %4 = arith.cmpi sgt, %a, %b : i32
  // CHECK: arith.cmpi sge, %{{.+}}, %{{.+}} : i32
  %5 = arith.cmpi sge, %a, %b : i32
  // CHECK: arith.cmpi ult, %{{.+}}, %{{.+}} : i32
  %6 = arith.cmpi ult, %a, %b : i32
  // CHECK: arith.cmpi ule, %{{.+}}, %{{.+}} : i32
  %7 = arith.cmpi ule, %a, %b : i32
  // CHECK: arith.cmpi ugt, %{{.+}}, %{{.+}} : i32
  %8 = arith.cmpi ugt, %a, %b : i32
  // CHECK: arith.cmpi uge, %{{.+}}, %{{.+}} : i32
  %9 = arith.cmpi uge, %a, %b : i32
  // The predicate may also be a string, as in MLIR.
  // CHECK: arith.cmpi ult, %{{.+}}, %{{.+}} : i32
  %10 = arith.cmpi "ult", %a, %b : i32
  // CHECK: %[[R:.+]] = arith.cmpi sge, %{{.+}}, %{{.+}} : vector<4xindex>
  %11 = arith.cmpi sge, %v, %v : vector<4xindex>
  // CHECK: return %[[R]] : vector<4xi1>
  return %11 : vector<4xi1>
}

// CHECK-LABEL: func.func @cmpf
func.func @cmpf(%x: f32, %y: f32) {
  // CHECK: arith.cmpf false, %{{.+}}, %{{.+}} : f32
  %0 = arith.cmpf false, %x, %y : f32
  // CHECK: arith.cmpf oeq, %{{.+}}, %{{.+}} : f32
  %1 = arith.cmpf oeq, %x, %y : f32
  // CHECK: arith.cmpf ogt, %{{.+}}, %{{.+}} : f32
  %2 = arith.cmpf ogt, %x, %y : f32
  // CHECK: arith.cmpf oge, %{{.+}}, %{{.+}} : f32
  %3 = arith.cmpf oge, %x, %y : f32
  // CHECK: arith.cmpf olt, %{{.+}}, %{{.+}} : f32
  %4 = arith.cmpf olt, %x, %y : f32
  // CHECK: arith.cmpf ole, %{{.+}}, %{{.+}} : f32
  %5 = arith.cmpf ole, %x, %y : f32
  // CHECK: arith.cmpf one, %{{.+}}, %{{.+}} : f32
  %6 = arith.cmpf one, %x, %y : f32
  // CHECK: arith.cmpf ord, %{{.+}}, %{{.+}} : f32
  %7 = arith.cmpf ord, %x, %y : f32
  // CHECK: arith.cmpf ueq, %{{.+}}, %{{.+}} : f32
  %8 = arith.cmpf ueq, %x, %y : f32
  // CHECK: arith.cmpf ugt, %{{.+}}, %{{.+}} : f32
  %9 = arith.cmpf ugt, %x, %y : f32
  // CHECK: arith.cmpf uge, %{{.+}}, %{{.+}} : f32
  %10 = arith.cmpf uge, %x, %y : f32
  // CHECK: arith.cmpf ult, %{{.+}}, %{{.+}} : f32
  %11 = arith.cmpf ult, %x, %y : f32
  // CHECK: arith.cmpf ule, %{{.+}}, %{{.+}} : f32
  %12 = arith.cmpf ule, %x, %y : f32
  // CHECK: arith.cmpf une, %{{.+}}, %{{.+}} : f32
  %13 = arith.cmpf une, %x, %y : f32
  // CHECK: arith.cmpf uno, %{{.+}}, %{{.+}} : f32
  %14 = arith.cmpf uno, %x, %y : f32
  // CHECK: arith.cmpf true, %{{.+}}, %{{.+}} : f32
  %15 = arith.cmpf true, %x, %y : f32
  return
}

// CHECK-LABEL: func.func @select
// CHECK-SAME: (%[[C:.+]]: i1, %[[A:.+]]: f32, %[[B:.+]]: f32, %[[VC:.+]]: vector<4xi1>, %[[VA:.+]]: vector<4xf32>)
func.func @select(%c: i1, %a: f32, %b: f32, %vc: vector<4xi1>, %va: vector<4xf32>) -> (f32, vector<4xf32>, vector<4xf32>) {
  // CHECK: %[[S0:.+]] = arith.select %[[C]], %[[A]], %[[B]] : f32
  %0 = arith.select %c, %a, %b : f32
  // CHECK: %[[S1:.+]] = arith.select %[[VC]], %[[VA]], %[[VA]] : vector<4xi1>, vector<4xf32>
  %1 = arith.select %vc, %va, %va : vector<4xi1>, vector<4xf32>
  // A scalar condition selects whole vectors.
  // CHECK: %[[S2:.+]] = arith.select %[[C]], %[[VA]], %[[VA]] : vector<4xf32>
  %2 = arith.select %c, %va, %va : vector<4xf32>
  // CHECK: return %[[S0]], %[[S1]], %[[S2]]
  return %0, %1, %2 : f32, vector<4xf32>, vector<4xf32>
}

// CHECK-LABEL: func.func @casts
func.func @casts(%i: i32, %f: f32, %idx: index, %h: f16, %i8: i8, %i64: i64, %vi: vector<4xi32>, %t: tensor<?xf64>) {
  // CHECK: arith.extsi %{{.+}} : i32 to i64
  %0 = arith.extsi %i : i32 to i64
  // CHECK: arith.extui %{{.+}} : i32 to i64
  %1 = arith.extui %i : i32 to i64
  // CHECK: arith.trunci %{{.+}} : i32 to i8
  %2 = arith.trunci %i : i32 to i8
  // CHECK: arith.extf %{{.+}} : f32 to f64
  %3 = arith.extf %f : f32 to f64
  // CHECK: arith.truncf %{{.+}} : f32 to f16
  %4 = arith.truncf %f : f32 to f16
  // CHECK: arith.sitofp %{{.+}} : i32 to f32
  %5 = arith.sitofp %i : i32 to f32
  // CHECK: arith.uitofp %{{.+}} : i32 to f32
  %6 = arith.uitofp %i : i32 to f32
  // CHECK: arith.fptosi %{{.+}} : f32 to i32
  %7 = arith.fptosi %f : f32 to i32
  // CHECK: arith.fptoui %{{.+}} : f32 to i32
  %8 = arith.fptoui %f : f32 to i32
  // CHECK: arith.index_cast %{{.+}} : i32 to index
  %9 = arith.index_cast %i : i32 to index
  // CHECK: arith.index_cast %{{.+}} : index to i64
  %10 = arith.index_cast %idx : index to i64
  // CHECK: arith.index_castui %{{.+}} : index to i32
  %11 = arith.index_castui %idx : index to i32
  // CHECK: arith.bitcast %{{.+}} : f32 to i32
  %12 = arith.bitcast %f : f32 to i32
  // CHECK: arith.bitcast %{{.+}} : f16 to bf16
  %13 = arith.bitcast %h : f16 to bf16
  // CHECK: arith.extsi %{{.+}} : vector<4xi32> to vector<4xi64>
  %14 = arith.extsi %vi : vector<4xi32> to vector<4xi64>
  // CHECK: arith.truncf %{{.+}} : tensor<?xf64> to tensor<?xf32>
  %15 = arith.truncf %t : tensor<?xf64> to tensor<?xf32>
  // CHECK: arith.truncf %{{.+}} to_nearest_even : f32 to bf16
  %16 = arith.truncf %f to_nearest_even : f32 to bf16
  // CHECK: arith.truncf %{{.+}} toward_zero fastmath<afn> : f64 to f32
  %17 = arith.truncf %3 toward_zero fastmath<afn> : f64 to f32
  // CHECK: arith.uitofp %{{.+}} nneg : i8 to f32
  %18 = arith.uitofp %i8 nneg : i8 to f32
  // CHECK: arith.extui %{{.+}} nneg : i8 to i32
  %19 = arith.extui %i8 nneg : i8 to i32
  // CHECK: arith.trunci %{{.+}} : i64 to i1
  %20 = arith.trunci %i64 : i64 to i1
  return
}
