// Every arith op in custom form.
module {
  func.func @constants() -> (i32, f32, index, i1, vector<4xf32>, tensor<2x2xi32>) {
    %c42 = arith.constant 42 : i32
    %cneg = arith.constant -1 : i8
    %c64 = arith.constant 7 : i64
    %f = arith.constant 1.5 : f32
    %fneg0 = arith.constant -0.0 : f64
    %fbig = arith.constant 1.0e+10 : f64
    %fnan = arith.constant 0x7FC00000 : f32
    %finf = arith.constant 0x7F800000 : f32
    %fh = arith.constant 0.5 : f16
    %fbf = arith.constant 2.0 : bf16
    %idx = arith.constant 3 : index
    %t = arith.constant true
    %fa = arith.constant false
    %i1one = arith.constant 1 : i1
    %v = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
    %vs = arith.constant dense<0.0> : vector<4xf32>
    %ts = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
    %tz = arith.constant dense<0> : tensor<8xi32>
    %tb = arith.constant dense<true> : tensor<2xi1>
    return %c42, %f, %idx, %t, %v, %ts : i32, f32, index, i1, vector<4xf32>, tensor<2x2xi32>
  }

  func.func @int_binary(%a: i32, %b: i32) {
    %0 = arith.addi %a, %b : i32
    %1 = arith.subi %a, %b : i32
    %2 = arith.muli %a, %b : i32
    %3 = arith.divsi %a, %b : i32
    %4 = arith.divui %a, %b : i32
    %5 = arith.remsi %a, %b : i32
    %6 = arith.remui %a, %b : i32
    %7 = arith.ceildivsi %a, %b : i32
    %8 = arith.floordivsi %a, %b : i32
    %9 = arith.ceildivui %a, %b : i32
    %10 = arith.addi %a, %b overflow<nsw> : i32
    %11 = arith.addi %a, %b overflow<nsw, nuw> : i32
    %12 = arith.muli %a, %b overflow<nuw> : i32
    %13 = arith.subi %a, %b overflow<none> : i32
    %14 = arith.shli %a, %b overflow<nsw> : i32
    return
  }

  func.func @int_vector(%a: vector<4xi32>, %b: vector<4xi32>, %t: tensor<?xindex>) {
    %0 = arith.addi %a, %b : vector<4xi32>
    %1 = arith.muli %t, %t : tensor<?xindex>
    return
  }

  func.func @float_binary(%a: f32, %b: f32) {
    %0 = arith.addf %a, %b : f32
    %1 = arith.subf %a, %b : f32
    %2 = arith.mulf %a, %b : f32
    %3 = arith.divf %a, %b : f32
    %4 = arith.remf %a, %b : f32
    %5 = arith.addf %a, %b fastmath<fast> : f32
    %6 = arith.mulf %a, %b fastmath<nnan,ninf> : f32
    %7 = arith.divf %a, %b fastmath<none> : f32
    %8 = arith.subf %a, %b fastmath<reassoc,contract> : f32
    %9 = arith.negf %a : f32
    %10 = arith.negf %a fastmath<nsz> : f32
    %11 = arith.remf %a, %b fastmath<arcp,afn> : f32
    return
  }

  func.func @cmpi(%a: i32, %b: i32, %va: vector<4xi32>) {
    %0 = arith.cmpi eq, %a, %b : i32
    %1 = arith.cmpi ne, %a, %b : i32
    %2 = arith.cmpi slt, %a, %b : i32
    %3 = arith.cmpi sle, %a, %b : i32
    %4 = arith.cmpi sgt, %a, %b : i32
    %5 = arith.cmpi sge, %a, %b : i32
    %6 = arith.cmpi ult, %a, %b : i32
    %7 = arith.cmpi ule, %a, %b : i32
    %8 = arith.cmpi ugt, %a, %b : i32
    %9 = arith.cmpi uge, %a, %b : i32
    %10 = arith.cmpi eq, %va, %va : vector<4xi32>
    return
  }

  func.func @cmpf(%a: f32, %b: f32) {
    %0 = arith.cmpf false, %a, %b : f32
    %1 = arith.cmpf oeq, %a, %b : f32
    %2 = arith.cmpf ogt, %a, %b : f32
    %3 = arith.cmpf oge, %a, %b : f32
    %4 = arith.cmpf olt, %a, %b : f32
    %5 = arith.cmpf ole, %a, %b : f32
    %6 = arith.cmpf one, %a, %b : f32
    %7 = arith.cmpf ord, %a, %b : f32
    %8 = arith.cmpf ueq, %a, %b : f32
    %9 = arith.cmpf ugt, %a, %b : f32
    %10 = arith.cmpf uge, %a, %b : f32
    %11 = arith.cmpf ult, %a, %b : f32
    %12 = arith.cmpf ule, %a, %b : f32
    %13 = arith.cmpf une, %a, %b : f32
    %14 = arith.cmpf uno, %a, %b : f32
    %15 = arith.cmpf true, %a, %b : f32
    %16 = arith.cmpf olt, %a, %b fastmath<nnan> : f32
    return
  }

  func.func @select(%c: i1, %a: f32, %b: f32, %vc: vector<4xi1>, %va: vector<4xf32>) -> (f32, vector<4xf32>, vector<4xf32>) {
    %0 = arith.select %c, %a, %b : f32
    %1 = arith.select %vc, %va, %va : vector<4xi1>, vector<4xf32>
    %2 = arith.select %c, %va, %va : vector<4xf32>
    return %0, %1, %2 : f32, vector<4xf32>, vector<4xf32>
  }

  func.func @minmax(%a: i32, %b: i32, %x: f32, %y: f32) {
    %0 = arith.maxsi %a, %b : i32
    %1 = arith.minsi %a, %b : i32
    %2 = arith.maxui %a, %b : i32
    %3 = arith.minui %a, %b : i32
    %4 = arith.maximumf %x, %y : f32
    %5 = arith.minimumf %x, %y : f32
    %6 = arith.maxnumf %x, %y : f32
    %7 = arith.minnumf %x, %y fastmath<fast> : f32
    return
  }

  func.func @casts(%i: i32, %f: f32, %idx: index, %h: f16, %i8: i8, %i64: i64, %vi: vector<4xi32>) {
    %0 = arith.extsi %i : i32 to i64
    %1 = arith.extui %i : i32 to i64
    %2 = arith.trunci %i : i32 to i8
    %3 = arith.extf %f : f32 to f64
    %4 = arith.truncf %f : f32 to f16
    %5 = arith.sitofp %i : i32 to f32
    %6 = arith.uitofp %i : i32 to f32
    %7 = arith.fptosi %f : f32 to i32
    %8 = arith.fptoui %f : f32 to i32
    %9 = arith.index_cast %i : i32 to index
    %10 = arith.index_cast %idx : index to i64
    %11 = arith.index_castui %idx : index to i32
    %12 = arith.bitcast %f : f32 to i32
    %13 = arith.bitcast %h : f16 to i16
    %14 = arith.extsi %vi : vector<4xi32> to vector<4xi64>
    %15 = arith.extf %h fastmath<contract> : f16 to f32
    %16 = arith.truncf %f to_nearest_even : f32 to bf16
    %17 = arith.trunci %i64 overflow<nsw> : i64 to i32
    %18 = arith.uitofp %i8 nneg : i8 to f32
    %19 = arith.extui %i8 nneg : i8 to i32
    return
  }

  func.func @bitwise(%a: i32, %b: i32, %c: i1) {
    %0 = arith.andi %a, %b : i32
    %1 = arith.ori %a, %b : i32
    %2 = arith.xori %a, %b : i32
    %3 = arith.shli %a, %b : i32
    %4 = arith.shrsi %a, %b : i32
    %5 = arith.shrui %a, %b : i32
    %6 = arith.xori %c, %c : i1
    return
  }

  func.func @extended(%a: i32, %b: i32) {
    %sum, %overflow = arith.addui_extended %a, %b : i32, i1
    %low, %high = arith.mulsi_extended %a, %b : i32
    %low2, %high2 = arith.mului_extended %a, %b : i32
    return
  }
}
