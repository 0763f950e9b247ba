module {
  func.func @constants() -> (i32, f32, index, i1, vector<4xf32>, tensor<2x2xi32>) {
    %c42_i32 = arith.constant 42 : i32
    %c-1_i8 = arith.constant -1 : i8
    %c7_i64 = arith.constant 7 : i64
    %cst = arith.constant 1.500000e+00 : f32
    %cst_0 = arith.constant -0.000000e+00 : f64
    %cst_1 = arith.constant 1.000000e+10 : f64
    %cst_2 = arith.constant 0x7FC00000 : f32
    %cst_3 = arith.constant 0x7F800000 : f32
    %cst_4 = arith.constant 5.000000e-01 : f16
    %cst_5 = arith.constant 2.000000e+00 : bf16
    %c3 = arith.constant 3 : index
    %true = arith.constant true
    %false = arith.constant false
    %true_6 = arith.constant true
    %cst_7 = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : vector<4xf32>
    %cst_8 = arith.constant dense<0.000000e+00> : vector<4xf32>
    %cst_9 = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
    %cst_10 = arith.constant dense<0> : tensor<8xi32>
    %cst_11 = arith.constant dense<true> : tensor<2xi1>
    return %c42_i32, %cst, %c3, %true, %cst_7, %cst_9 : i32, f32, index, i1, vector<4xf32>, tensor<2x2xi32>
  }
  func.func @int_binary(%arg0: i32, %arg1: i32) {
    %0 = arith.addi %arg0, %arg1 : i32
    %1 = arith.subi %arg0, %arg1 : i32
    %2 = arith.muli %arg0, %arg1 : i32
    %3 = arith.divsi %arg0, %arg1 : i32
    %4 = arith.divui %arg0, %arg1 : i32
    %5 = arith.remsi %arg0, %arg1 : i32
    %6 = arith.remui %arg0, %arg1 : i32
    %7 = arith.ceildivsi %arg0, %arg1 : i32
    %8 = arith.floordivsi %arg0, %arg1 : i32
    %9 = arith.ceildivui %arg0, %arg1 : i32
    %10 = arith.addi %arg0, %arg1 overflow<nsw> : i32
    %11 = arith.addi %arg0, %arg1 overflow<nsw, nuw> : i32
    %12 = arith.muli %arg0, %arg1 overflow<nuw> : i32
    %13 = arith.subi %arg0, %arg1 : i32
    %14 = arith.shli %arg0, %arg1 overflow<nsw> : i32
    return
  }
  func.func @int_vector(%arg0: vector<4xi32>, %arg1: vector<4xi32>, %arg2: tensor<?xindex>) {
    %0 = arith.addi %arg0, %arg1 : vector<4xi32>
    %1 = arith.muli %arg2, %arg2 : tensor<?xindex>
    return
  }
  func.func @float_binary(%arg0: f32, %arg1: f32) {
    %0 = arith.addf %arg0, %arg1 : f32
    %1 = arith.subf %arg0, %arg1 : f32
    %2 = arith.mulf %arg0, %arg1 : f32
    %3 = arith.divf %arg0, %arg1 : f32
    %4 = arith.remf %arg0, %arg1 : f32
    %5 = arith.addf %arg0, %arg1 fastmath<fast> : f32
    %6 = arith.mulf %arg0, %arg1 fastmath<nnan,ninf> : f32
    %7 = arith.divf %arg0, %arg1 : f32
    %8 = arith.subf %arg0, %arg1 fastmath<reassoc,contract> : f32
    %9 = arith.negf %arg0 : f32
    %10 = arith.negf %arg0 fastmath<nsz> : f32
    %11 = arith.remf %arg0, %arg1 fastmath<arcp,afn> : f32
    return
  }
  func.func @cmpi(%arg0: i32, %arg1: i32, %arg2: vector<4xi32>) {
    %0 = arith.cmpi eq, %arg0, %arg1 : i32
    %1 = arith.cmpi ne, %arg0, %arg1 : i32
    %2 = arith.cmpi slt, %arg0, %arg1 : i32
    %3 = arith.cmpi sle, %arg0, %arg1 : i32
    %4 = arith.cmpi sgt, %arg0, %arg1 : i32
    %5 = arith.cmpi sge, %arg0, %arg1 : i32
    %6 = arith.cmpi ult, %arg0, %arg1 : i32
    %7 = arith.cmpi ule, %arg0, %arg1 : i32
    %8 = arith.cmpi ugt, %arg0, %arg1 : i32
    %9 = arith.cmpi uge, %arg0, %arg1 : i32
    %10 = arith.cmpi eq, %arg2, %arg2 : vector<4xi32>
    return
  }
  func.func @cmpf(%arg0: f32, %arg1: f32) {
    %0 = arith.cmpf false, %arg0, %arg1 : f32
    %1 = arith.cmpf oeq, %arg0, %arg1 : f32
    %2 = arith.cmpf ogt, %arg0, %arg1 : f32
    %3 = arith.cmpf oge, %arg0, %arg1 : f32
    %4 = arith.cmpf olt, %arg0, %arg1 : f32
    %5 = arith.cmpf ole, %arg0, %arg1 : f32
    %6 = arith.cmpf one, %arg0, %arg1 : f32
    %7 = arith.cmpf ord, %arg0, %arg1 : f32
    %8 = arith.cmpf ueq, %arg0, %arg1 : f32
    %9 = arith.cmpf ugt, %arg0, %arg1 : f32
    %10 = arith.cmpf uge, %arg0, %arg1 : f32
    %11 = arith.cmpf ult, %arg0, %arg1 : f32
    %12 = arith.cmpf ule, %arg0, %arg1 : f32
    %13 = arith.cmpf une, %arg0, %arg1 : f32
    %14 = arith.cmpf uno, %arg0, %arg1 : f32
    %15 = arith.cmpf true, %arg0, %arg1 : f32
    %16 = arith.cmpf olt, %arg0, %arg1 fastmath<nnan> : f32
    return
  }
  func.func @select(%arg0: i1, %arg1: f32, %arg2: f32, %arg3: vector<4xi1>, %arg4: vector<4xf32>) -> (f32, vector<4xf32>, vector<4xf32>) {
    %0 = arith.select %arg0, %arg1, %arg2 : f32
    %1 = arith.select %arg3, %arg4, %arg4 : vector<4xi1>, vector<4xf32>
    %2 = arith.select %arg0, %arg4, %arg4 : vector<4xf32>
    return %0, %1, %2 : f32, vector<4xf32>, vector<4xf32>
  }
  func.func @minmax(%arg0: i32, %arg1: i32, %arg2: f32, %arg3: f32) {
    %0 = arith.maxsi %arg0, %arg1 : i32
    %1 = arith.minsi %arg0, %arg1 : i32
    %2 = arith.maxui %arg0, %arg1 : i32
    %3 = arith.minui %arg0, %arg1 : i32
    %4 = arith.maximumf %arg2, %arg3 : f32
    %5 = arith.minimumf %arg2, %arg3 : f32
    %6 = arith.maxnumf %arg2, %arg3 : f32
    %7 = arith.minnumf %arg2, %arg3 fastmath<fast> : f32
    return
  }
  func.func @casts(%arg0: i32, %arg1: f32, %arg2: index, %arg3: f16, %arg4: i8, %arg5: i64, %arg6: vector<4xi32>) {
    %0 = arith.extsi %arg0 : i32 to i64
    %1 = arith.extui %arg0 : i32 to i64
    %2 = arith.trunci %arg0 : i32 to i8
    %3 = arith.extf %arg1 : f32 to f64
    %4 = arith.truncf %arg1 : f32 to f16
    %5 = arith.sitofp %arg0 : i32 to f32
    %6 = arith.uitofp %arg0 : i32 to f32
    %7 = arith.fptosi %arg1 : f32 to i32
    %8 = arith.fptoui %arg1 : f32 to i32
    %9 = arith.index_cast %arg0 : i32 to index
    %10 = arith.index_cast %arg2 : index to i64
    %11 = arith.index_castui %arg2 : index to i32
    %12 = arith.bitcast %arg1 : f32 to i32
    %13 = arith.bitcast %arg3 : f16 to i16
    %14 = arith.extsi %arg6 : vector<4xi32> to vector<4xi64>
    %15 = arith.extf %arg3 fastmath<contract> : f16 to f32
    %16 = arith.truncf %arg1 to_nearest_even : f32 to bf16
    %17 = arith.trunci %arg5 overflow<nsw> : i64 to i32
    %18 = arith.uitofp %arg4 nneg : i8 to f32
    %19 = arith.extui %arg4 nneg : i8 to i32
    return
  }
  func.func @bitwise(%arg0: i32, %arg1: i32, %arg2: i1) {
    %0 = arith.andi %arg0, %arg1 : i32
    %1 = arith.ori %arg0, %arg1 : i32
    %2 = arith.xori %arg0, %arg1 : i32
    %3 = arith.shli %arg0, %arg1 : i32
    %4 = arith.shrsi %arg0, %arg1 : i32
    %5 = arith.shrui %arg0, %arg1 : i32
    %6 = arith.xori %arg2, %arg2 : i1
    return
  }
  func.func @extended(%arg0: i32, %arg1: i32) {
    %sum, %overflow = arith.addui_extended %arg0, %arg1 : i32, i1
    %low, %high = arith.mulsi_extended %arg0, %arg1 : i32
    %low_0, %high_1 = arith.mului_extended %arg0, %arg1 : i32
    return
  }
}

