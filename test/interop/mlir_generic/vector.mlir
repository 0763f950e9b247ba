// vector ops in custom form (vector.splat is left out: current MLIR no longer has it).
func.func @v(%x: f32, %v: vector<8xf32>, %w: vector<4x8xf32>, %m: memref<?x?xf32>, %i: index, %j: index, %vi: vector<8xi32>, %acc: f32, %mk: vector<8x4xi1>, %t: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %b = vector.broadcast %x : f32 to vector<4x8xf32>
  %b2 = vector.broadcast %v {test.x} : vector<8xf32> to vector<4x8xf32>
  %f = vector.fma %v, %v, %v : vector<8xf32>
  %r = vector.reduction <add>, %v : vector<8xf32> into f32
  %r2 = vector.reduction <maxnumf>, %v, %acc fastmath<fast> : vector<8xf32> into f32
  %r3 = vector.reduction <minui>, %vi : vector<8xi32> into i32
  %e = vector.extract %w[1] : vector<8xf32> from vector<4x8xf32>
  %e2 = vector.extract %w[%i, 2] : f32 from vector<4x8xf32>
  %e3 = vector.extract %w[-1, 2] : f32 from vector<4x8xf32>
  %in = vector.insert %x, %w[1, 2] : f32 into vector<4x8xf32>
  %in2 = vector.insert %v, %w[%i] : vector<8xf32> into vector<4x8xf32>
  %l = vector.load %m[%i, %j] : memref<?x?xf32>, vector<8xf32>
  %l2 = vector.load %m[%i, %j] nontemporal = true alignment = 16 : memref<?x?xf32>, vector<8xf32>
  vector.store %v, %m[%i, %j] : memref<?x?xf32>, vector<8xf32>
  vector.store %v, %m[%i, %j] alignment = 32 : memref<?x?xf32>, vector<8xf32>
  %t1 = vector.transfer_read %m[%i, %j], %x {in_bounds = [true]} : memref<?x?xf32>, vector<8xf32>
  %t2 = vector.transfer_read %m[%i, %j], %x {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<?x?xf32>, vector<8xf32>
  %t3 = vector.transfer_read %m[%i, %j], %x : memref<?x?xf32>, vector<4x8xf32>
  %t4 = vector.transfer_read %m[%i, %j], %x, %mk {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<?x?xf32>, vector<4x8xf32>
  %t5 = vector.transfer_read %m[%i, %j], %x {in_bounds = [true, false], permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<?x?xf32>, vector<4x8xf32>
  vector.transfer_write %v, %m[%i, %j] {in_bounds = [true]} : vector<8xf32>, memref<?x?xf32>
  vector.transfer_write %w, %m[%i, %j] : vector<4x8xf32>, memref<?x?xf32>
  %tw = vector.transfer_write %v, %t[%i, %j] : vector<8xf32>, tensor<?x?xf32>
  %sh = vector.shuffle %v, %v [0, 8, 1, -1] : vector<8xf32>, vector<8xf32>
  %sh2 = vector.shuffle %w, %b [7, 0] {test.x} : vector<4x8xf32>, vector<4x8xf32>
  return %tw : tensor<?x?xf32>
}
