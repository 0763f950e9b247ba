// Hand-written AVX2 + FMA row kernels for `vectorize.py --c-reference`: softmax and layernorm
// over rows of 1024 f32, the schedule mlc generates for them (per row: a reduction pass that
// reads the row from memory, passes over the row in L1, an output pass with non-temporal
// stores; the rows split in contiguous halves over the threads). They show what a C compiler
// makes of the same work on this machine, in the same run as mlc's kernels and the triad.
//
//   gcc -O3 -mavx2 -mfma -fopenmp -shared -fPIC c_rows.c -o c_rows.so
#include <immintrin.h>
#include <math.h>
#include <stdint.h>

#define N 1024
#define PREFETCH_ROWS 2

// e^x for x <= 0 (softmax's x - max): clamp at -88, k = round(x log2 e) from a shifter that
// also carries the exponent bias, r = x - k ln 2, a degree-5 polynomial, times 2^k from the
// shifted sum's bits. The same 11 operations as mlc's shifted exp.
static inline __m256 exp_nonpositive(__m256 x) {
  const __m256 shifter = _mm256_set1_ps(12582912.0f + 127.0f);
  __m256 t = _mm256_max_ps(x, _mm256_set1_ps(-88.0f));
  __m256 kb = _mm256_fmadd_ps(t, _mm256_set1_ps(1.44269504f), shifter);
  __m256 k = _mm256_sub_ps(kb, shifter);
  __m256 r = _mm256_fmadd_ps(k, _mm256_set1_ps(-0.693147182f), t);
  __m256 p = _mm256_fmadd_ps(_mm256_set1_ps(1.0f / 120), r, _mm256_set1_ps(1.0f / 24));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 6));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(0.5f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f));
  return _mm256_mul_ps(p, _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_castps_si256(kb), 23)));
}

static inline float hmax(__m256 v) {
  __m128 a = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  a = _mm_max_ps(a, _mm_movehl_ps(a, a));
  return _mm_cvtss_f32(_mm_max_ss(a, _mm_shuffle_ps(a, a, 1)));
}

static inline float hsum(__m256 v) {
  __m128 a = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  a = _mm_add_ps(a, _mm_movehl_ps(a, a));
  return _mm_cvtss_f32(_mm_add_ss(a, _mm_shuffle_ps(a, a, 1)));
}

// 8 floats to y: non-temporal when `nt` (y 16-byte aligned: two 16-byte streaming stores, as
// for NumPy's arrays, which sit 16 bytes past a 32-byte boundary), else a plain store.
static inline void put(float *y, __m256 v, int nt) {
  if (nt) {
    _mm_stream_ps(y, _mm256_castps256_ps128(v));
    _mm_stream_ps(y + 4, _mm256_extractf128_ps(v, 1));
  } else {
    _mm256_storeu_ps(y, v);
  }
}

static inline void prefetch_row(const float *row) {
  for (int j = 0; j < N; j += 16) _mm_prefetch((const char *)(row + j), _MM_HINT_T0);
}

void softmax_rows(const float *x, float *y, long rows, int nt) {
  nt = nt && ((uintptr_t)y & 15) == 0;
#pragma omp parallel
  {
#pragma omp for schedule(static) nowait
  for (long r = 0; r < rows; r++) {
    float buf[N] __attribute__((aligned(64)));
    const float *xr = x + r * N;
    float *yr = y + r * N;
    __m256 m0 = _mm256_set1_ps(-INFINITY), m1 = m0, m2 = m0, m3 = m0;
    for (int j = 0; j < N; j += 32) {
      m0 = _mm256_max_ps(_mm256_loadu_ps(xr + j), m0);
      m1 = _mm256_max_ps(_mm256_loadu_ps(xr + j + 8), m1);
      m2 = _mm256_max_ps(_mm256_loadu_ps(xr + j + 16), m2);
      m3 = _mm256_max_ps(_mm256_loadu_ps(xr + j + 24), m3);
    }
    __m256 mv = _mm256_set1_ps(hmax(_mm256_max_ps(_mm256_max_ps(m0, m1), _mm256_max_ps(m2, m3))));
    if (r + PREFETCH_ROWS < rows) prefetch_row(xr + PREFETCH_ROWS * N);
    __m256 s0 = _mm256_setzero_ps(), s1 = s0;
    for (int j = 0; j < N; j += 16) {
      __m256 e0 = exp_nonpositive(_mm256_sub_ps(_mm256_loadu_ps(xr + j), mv));
      __m256 e1 = exp_nonpositive(_mm256_sub_ps(_mm256_loadu_ps(xr + j + 8), mv));
      _mm256_store_ps(buf + j, e0);
      _mm256_store_ps(buf + j + 8, e1);
      s0 = _mm256_add_ps(s0, e0);
      s1 = _mm256_add_ps(s1, e1);
    }
    __m256 iv = _mm256_set1_ps(1.0f / hsum(_mm256_add_ps(s0, s1)));
    for (int j = 0; j < N; j += 8) put(yr + j, _mm256_mul_ps(_mm256_load_ps(buf + j), iv), nt);
  }
  if (nt) _mm_sfence();  // each thread orders its own streaming stores before the join
  }
}

void layernorm_rows(const float *x, float *y, long rows, int nt) {
  nt = nt && ((uintptr_t)y & 15) == 0;
#pragma omp parallel
  {
#pragma omp for schedule(static) nowait
  for (long r = 0; r < rows; r++) {
    const float *xr = x + r * N;
    float *yr = y + r * N;
    __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
    for (int j = 0; j < N; j += 32) {
      s0 = _mm256_add_ps(_mm256_loadu_ps(xr + j), s0);
      s1 = _mm256_add_ps(_mm256_loadu_ps(xr + j + 8), s1);
      s2 = _mm256_add_ps(_mm256_loadu_ps(xr + j + 16), s2);
      s3 = _mm256_add_ps(_mm256_loadu_ps(xr + j + 24), s3);
    }
    __m256 mean = _mm256_set1_ps(hsum(_mm256_add_ps(_mm256_add_ps(s0, s1), _mm256_add_ps(s2, s3))) / N);
    if (r + PREFETCH_ROWS < rows) prefetch_row(xr + PREFETCH_ROWS * N);
    __m256 q0 = _mm256_setzero_ps(), q1 = q0;
    for (int j = 0; j < N; j += 16) {
      __m256 d0 = _mm256_sub_ps(_mm256_loadu_ps(xr + j), mean);
      __m256 d1 = _mm256_sub_ps(_mm256_loadu_ps(xr + j + 8), mean);
      q0 = _mm256_fmadd_ps(d0, d0, q0);
      q1 = _mm256_fmadd_ps(d1, d1, q1);
    }
    float var = hsum(_mm256_add_ps(q0, q1)) / N;
    __m256 inv = _mm256_set1_ps(1.0f / sqrtf(var + 1e-5f));
    for (int j = 0; j < N; j += 8)
      put(yr + j, _mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(xr + j), mean), inv), nt);
  }
  if (nt) _mm_sfence();  // each thread orders its own streaming stores before the join
  }
}
