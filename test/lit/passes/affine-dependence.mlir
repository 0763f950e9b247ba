// RUN: mlc-opt %s -split-input-file --allow-unregistered-dialect -p 'builtin.module(func.func(test-affine-dependence))' --verify-diagnostics

// Direction vectors of the dependence analysis, reported per loop: parallel, reduction, or
// sequential with the first dependence it carries (directions over the nest, outermost first).
func.func @matmul() {
  %A = memref.alloc() : memref<16x4xf32>
  %B = memref.alloc() : memref<4x8xf32>
  %C = memref.alloc() : memref<16x8xf32>
  // expected-remark@+1 {{parallel}}
  affine.for %i = 0 to 16 {
    // expected-remark@+1 {{parallel}}
    affine.for %j = 0 to 8 {
      // expected-remark@+1 {{reduction}}
      affine.for %k = 0 to 4 {
        %a = affine.load %A[%i, %k] : memref<16x4xf32>
        %b = affine.load %B[%k, %j] : memref<4x8xf32>
        %c = affine.load %C[%i, %j] : memref<16x8xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<16x8xf32>
      }
    }
  }
  return
}

// -----

// A (1, -1) distance: carried by the outer loop, so the inner loop is parallel.
func.func @wavefront(%A: memref<100x100xf32>) {
  // expected-remark@+1 {{sequential: 'affine.store' -> 'affine.load' (<, >)}}
  affine.for %i = 1 to 100 {
    // expected-remark@+1 {{parallel}}
    affine.for %j = 0 to 99 {
      %a = affine.load %A[%i - 1, %j + 1] : memref<100x100xf32>
      affine.store %a, %A[%i, %j] : memref<100x100xf32>
    }
  }
  return
}

// -----

// Edge cases of the subscript test: a distance beyond the trip count (independent), a
// distance that is not a multiple of the step (independent), a distance with a dynamic trip
// count (dependent), and vector accesses that overlap their neighbours in both directions.
func.func @distances(%A: memref<200xf32>, %n: index) {
  // expected-remark@+1 {{parallel}}
  affine.for %i = 0 to 50 {
    %a = affine.load %A[%i + 50] : memref<200xf32>
    affine.store %a, %A[%i] : memref<200xf32>
  }
  // expected-remark@+1 {{parallel}}
  affine.for %i = 0 to 100 step 2 {
    %a = affine.load %A[%i + 1] : memref<200xf32>
    affine.store %a, %A[%i] : memref<200xf32>
  }
  // expected-remark@+1 {{sequential: 'affine.load' -> 'affine.store' (<)}}
  affine.for %i = 0 to %n {
    %a = affine.load %A[%i + 50] : memref<200xf32>
    affine.store %a, %A[%i] : memref<200xf32>
  }
  // expected-remark@+1 {{parallel}}
  affine.for %i = 0 to 96 step 8 {
    %v = affine.vector_load %A[%i] : memref<200xf32>, vector<8xf32>
    affine.vector_store %v, %A[%i] : memref<200xf32>, vector<8xf32>
  }
  // expected-remark@+1 {{sequential: 'affine.vector_load' -> 'affine.vector_store' (*)}}
  affine.for %i = 0 to 96 step 4 {
    %v = affine.vector_load %A[%i] : memref<200xf32>, vector<8xf32>
    affine.vector_store %v, %A[%i] : memref<200xf32>, vector<8xf32>
  }
  return
}

// -----

// Aliasing: two arguments of an ordinary function may be the same array; a fresh allocation
// aliases nothing; an allocation inside the loop is private to each iteration; an op with
// unknown effects makes the loop sequential.
func.func @aliasing(%A: memref<64xf32>, %B: memref<64xf32>) {
  // expected-remark@+1 {{sequential: 'affine.load' -> 'affine.store' (*)}}
  affine.for %i = 0 to 64 {
    %v = affine.load %A[%i] : memref<64xf32>
    affine.store %v, %B[%i] : memref<64xf32>
  }
  %C = memref.alloc() : memref<64xf32>
  // expected-remark@+1 {{parallel}}
  affine.for %i = 0 to 64 {
    %v = affine.load %A[%i] : memref<64xf32>
    affine.store %v, %C[%i] : memref<64xf32>
  }
  // expected-remark@+1 {{parallel}}
  affine.for %i = 0 to 64 {
    %T = memref.alloc() : memref<1xf32>
    %v = affine.load %A[%i] : memref<64xf32>
    affine.store %v, %T[0] : memref<1xf32>
    memref.dealloc %T : memref<1xf32>
  }
  // expected-remark@+1 {{sequential: unknown memory effects}}
  affine.for %i = 0 to 64 {
    "test.unknown"() : () -> ()
  }
  return
}
