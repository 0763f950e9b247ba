// RUN: mlc-opt %s | mlc-opt | filecheck %s
// RUN: mlc-opt %s --mlir-print-op-generic | mlc-opt | filecheck %s

// Every vector op in its custom form; both the custom and the generic print read back the same.

// CHECK-LABEL: func.func @broadcast_splat_fma
func.func @broadcast_splat_fma(%x: f32, %v: vector<8xf32>, %u: vector<1x8xf32>) -> vector<4x8xf32> {
  // CHECK: vector.broadcast %{{.+}} : f32 to vector<4x8xf32>
  %0 = vector.broadcast %x : f32 to vector<4x8xf32>
  // CHECK: vector.broadcast %{{.+}} : vector<8xf32> to vector<4x8xf32>
  %1 = vector.broadcast %v : vector<8xf32> to vector<4x8xf32>
  // CHECK: vector.broadcast %{{.+}} {test.x} : vector<1x8xf32> to vector<2x4x8xf32>
  %2 = vector.broadcast %u {test.x} : vector<1x8xf32> to vector<2x4x8xf32>
  // CHECK: vector.splat %{{.+}} : vector<4xf32>
  %3 = vector.splat %x : vector<4xf32>
  // CHECK: %[[F:.+]] = vector.fma %{{.+}}, %{{.+}}, %{{.+}} : vector<4x8xf32>
  %4 = vector.fma %0, %1, %1 : vector<4x8xf32>
  // CHECK: return %[[F]]
  return %4 : vector<4x8xf32>
}

// CHECK-LABEL: func.func @reductions
func.func @reductions(%v: vector<8xf32>, %acc: f32, %vi: vector<8xi32>, %vx: vector<4xindex>, %v0: vector<f32>) {
  // CHECK: vector.reduction <add>, %{{.+}} : vector<8xf32> into f32
  %0 = vector.reduction <add>, %v : vector<8xf32> into f32
  // CHECK: vector.reduction <maxnumf>, %{{.+}}, %{{.+}} fastmath<fast> : vector<8xf32> into f32
  %1 = vector.reduction <maxnumf>, %v, %acc fastmath<fast> : vector<8xf32> into f32
  // CHECK: vector.reduction <minimumf>, %{{.+}} fastmath<nnan,ninf> : vector<8xf32> into f32
  %2 = vector.reduction <minimumf>, %v fastmath<nnan,ninf> : vector<8xf32> into f32
  // CHECK: vector.reduction <minui>, %{{.+}} : vector<8xi32> into i32
  %3 = vector.reduction <minui>, %vi : vector<8xi32> into i32
  // CHECK: vector.reduction <xor>, %{{.+}} : vector<4xindex> into index
  %4 = vector.reduction <xor>, %vx : vector<4xindex> into index
  // CHECK: vector.reduction <mul>, %{{.+}} : vector<f32> into f32
  %5 = vector.reduction <mul>, %v0 : vector<f32> into f32
  return
}

// CHECK-LABEL: func.func @extract_insert
func.func @extract_insert(%w: vector<4x8xf32>, %x: f32, %v: vector<8xf32>, %i: index) {
  // CHECK: vector.extract %{{.+}}[1] : vector<8xf32> from vector<4x8xf32>
  %0 = vector.extract %w[1] : vector<8xf32> from vector<4x8xf32>
  // CHECK: vector.extract %{{.+}}[%{{.+}}, 2] : f32 from vector<4x8xf32>
  %1 = vector.extract %w[%i, 2] : f32 from vector<4x8xf32>
  // CHECK: vector.extract %{{.+}}[-1, 2] : f32 from vector<4x8xf32>
  %2 = vector.extract %w[-1, 2] : f32 from vector<4x8xf32>
  // CHECK: vector.extract %{{.+}}[] : vector<4x8xf32> from vector<4x8xf32>
  %3 = vector.extract %w[] : vector<4x8xf32> from vector<4x8xf32>
  // CHECK: vector.insert %{{.+}}, %{{.+}} [1, 2] : f32 into vector<4x8xf32>
  %4 = vector.insert %x, %w[1, 2] : f32 into vector<4x8xf32>
  // CHECK: vector.insert %{{.+}}, %{{.+}} [%{{.+}}] {test.y} : vector<8xf32> into vector<4x8xf32>
  %5 = vector.insert %v, %w [%i] {test.y} : vector<8xf32> into vector<4x8xf32>
  return
}

// CHECK-LABEL: func.func @load_store
func.func @load_store(%m: memref<?x?xf32>, %i: index, %j: index, %v: vector<8xf32>, %mv: memref<4xvector<8xf32>>) {
  // CHECK: vector.load %{{.+}}[%{{.+}}, %{{.+}}] : memref<?x?xf32>, vector<8xf32>
  %0 = vector.load %m[%i, %j] : memref<?x?xf32>, vector<8xf32>
  // CHECK: vector.load %{{.+}}[%{{.+}}, %{{.+}}] alignment = 16 nontemporal = true : memref<?x?xf32>, vector<2x8xf32>
  %1 = vector.load %m[%i, %j] nontemporal = true alignment = 16 : memref<?x?xf32>, vector<2x8xf32>
  // CHECK: vector.load %{{.+}}[%{{.+}}] : memref<4xvector<8xf32>>, vector<8xf32>
  %2 = vector.load %mv[%i] : memref<4xvector<8xf32>>, vector<8xf32>
  // CHECK: vector.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] : memref<?x?xf32>, vector<8xf32>
  vector.store %v, %m[%i, %j] : memref<?x?xf32>, vector<8xf32>
  // CHECK: vector.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] alignment = 32 : memref<?x?xf32>, vector<8xf32>
  vector.store %v, %m[%i, %j] alignment = 32 : memref<?x?xf32>, vector<8xf32>
  return
}

// CHECK-LABEL: func.func @transfers
func.func @transfers(%m: memref<?x?xf32>, %i: index, %x: f32, %v: vector<8xf32>, %w: vector<4x8xf32>, %mk: vector<8x4xi1>, %t: tensor<?x?xf32>) -> tensor<?x?xf32> {
  // CHECK: vector.transfer_read %{{.+}}[%{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [true]} : memref<?x?xf32>, vector<8xf32>
  %0 = vector.transfer_read %m[%i, %i], %x {in_bounds = [true]} : memref<?x?xf32>, vector<8xf32>
  // CHECK: vector.transfer_read %{{.+}}[%{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [true], permutation_map = #{{.+}}} : memref<?x?xf32>, vector<8xf32>
  %1 = vector.transfer_read %m[%i, %i], %x {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<?x?xf32>, vector<8xf32>
  // CHECK: vector.transfer_read %{{.+}}[%{{.+}}, %{{.+}}], %{{.+}} : memref<?x?xf32>, vector<4x8xf32>
  %2 = vector.transfer_read %m[%i, %i], %x : memref<?x?xf32>, vector<4x8xf32>
  // Masked, transposed, and broadcast reads.
  // CHECK: vector.transfer_read %{{.+}}[%{{.+}}, %{{.+}}], %{{.+}}, %{{.+}} {permutation_map = #{{.+}}} : memref<?x?xf32>, vector<4x8xf32>
  %3 = vector.transfer_read %m[%i, %i], %x, %mk {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<?x?xf32>, vector<4x8xf32>
  // CHECK: vector.transfer_read %{{.+}}[%{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [true, false], permutation_map = #{{.+}}} : memref<?x?xf32>, vector<4x8xf32>
  %4 = vector.transfer_read %m[%i, %i], %x {in_bounds = [true, false], permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<?x?xf32>, vector<4x8xf32>
  // CHECK: vector.transfer_write %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] {in_bounds = [true]} : vector<8xf32>, memref<?x?xf32>
  vector.transfer_write %v, %m[%i, %i] {in_bounds = [true]} : vector<8xf32>, memref<?x?xf32>
  // CHECK: vector.transfer_write %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] : vector<4x8xf32>, memref<?x?xf32>
  vector.transfer_write %w, %m[%i, %i] : vector<4x8xf32>, memref<?x?xf32>
  // CHECK: %[[T:.+]] = vector.transfer_write %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] : vector<8xf32>, tensor<?x?xf32>
  %5 = vector.transfer_write %v, %t[%i, %i] : vector<8xf32>, tensor<?x?xf32>
  // CHECK: return %[[T]]
  return %5 : tensor<?x?xf32>
}

// CHECK-LABEL: func.func @shuffle
func.func @shuffle(%a: vector<4xf32>, %b: vector<2xf32>, %c: vector<f32>, %d: vector<2x3xi8>) -> vector<3xf32> {
  // CHECK: vector.shuffle %{{.+}}, %{{.+}} [0, 5, -1] : vector<4xf32>, vector<2xf32>
  %0 = vector.shuffle %a, %b [0, 5, -1] : vector<4xf32>, vector<2xf32>
  // CHECK: vector.shuffle %{{.+}}, %{{.+}} [1, 0] {test.x} : vector<f32>, vector<f32>
  %1 = vector.shuffle %c, %c [1, 0] {test.x} : vector<f32>, vector<f32>
  // CHECK: vector.shuffle %{{.+}}, %{{.+}} [3, 0, 1] : vector<2x3xi8>, vector<2x3xi8>
  %2 = vector.shuffle %d, %d [3, 0, 1] : vector<2x3xi8>, vector<2x3xi8>
  return %0 : vector<3xf32>
}
