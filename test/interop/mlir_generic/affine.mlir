// affine: every op and custom form (bounds, steps, iter_args, min/max groups, reductions,
// if/else with results, subscripts with symbols, rank-0 memrefs, vector accesses).
#lb = affine_map<(d0)[s0] -> (d0, s0 - 4)>
#ub = affine_map<(d0)[s0] -> (d0 + 10, s0)>
#set = affine_set<(d0)[s0] : (d0 - 10 >= 0, s0 - d0 - 1 >= 0)>

func.func @loops(%A: memref<?x?xf32>, %B: memref<100xf32>, %n: index, %z: f32) -> (f32, f32) {
  affine.for %i = 0 to %n step 4 {
    %v = affine.load %A[%i + 1, symbol(%n)] : memref<?x?xf32>
    affine.store %v, %A[%i, %i floordiv 2] : memref<?x?xf32>
    %w = affine.vector_load %B[%i] : memref<100xf32>, vector<8xf32>
    affine.vector_store %w, %B[%i + 8] : memref<100xf32>, vector<8xf32>
    affine.for %j = max #lb(%i)[%n] to min #ub(%i)[%n] step 2 {
      %x = affine.load %A[%i, %j mod 3] : memref<?x?xf32>
    }
  }
  %r = affine.for %i = -2 to 64 iter_args(%acc = %z) -> (f32) {
    %v = affine.load %B[%i + 2] : memref<100xf32>
    %s = arith.addf %acc, %v : f32
    affine.yield %s : f32
  }
  %p:2 = affine.parallel (%i, %j) = (max(0, %n - 8), 0) to (min(%n, 100), %n floordiv 2) step (2, 4) reduce ("addf", "maximumf") -> (f32, f32) {
    %v = affine.load %A[%i, %j] : memref<?x?xf32>
    affine.yield %v, %v : f32, f32
  }
  affine.parallel (%i) = (0) to (symbol(%n) + 1) {
    affine.store %z, %A[%i, 0] : memref<?x?xf32>
  }
  return %r, %p#1 : f32, f32
}

func.func @conditionals(%i: index, %n: index, %a: f32, %b: f32, %S: memref<f32>) -> f32 {
  affine.if #set(%i)[%n] {
    affine.store %a, %S[] : memref<f32>
  }
  affine.if #set(%i)[%n] {
    affine.store %a, %S[] : memref<f32>
  } else {
    affine.store %b, %S[] : memref<f32>
  }
  %r = affine.if #set(%i)[%n] -> f32 {
    affine.yield %a : f32
  } else {
    %x = affine.load %S[] : memref<f32>
    affine.yield %x : f32
  }
  return %r : f32
}

func.func @index_math(%i: index, %n: index) -> (index, index, index, index) {
  %p = affine.apply affine_map<(d0)[s0] -> (d0 * 4 + s0)>(%i)[%n]
  %q = affine.apply affine_map<()[s0] -> (s0 ceildiv 8)>()[%n]
  %mn = affine.min #ub(%i)[%n]
  %mx = affine.max #lb(%p)[%q]
  return %p, %q, %mn, %mx : index, index, index, index
}
