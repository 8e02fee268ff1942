#include "sparse_matmul.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "matmul.h"
#include "vec8.h"

namespace edgecl {
namespace kernels {
namespace {

bool all_of(const std::vector<int32_t>& live, int64_t n) { return static_cast<int64_t>(live.size()) == n; }

/// Columns [j, j + 8 * NV) of one output row: the row's live k in ascending order, 8 * NV
/// accumulators in registers.
template <int NV>
__attribute__((always_inline)) inline void left_block(float* zi, const float* ai, int64_t vk, const int32_t* col,
                                                      int64_t e0, int64_t e1, const float* b, int64_t p, int64_t j) {
  vec8 acc[NV];
  for (int v = 0; v < NV; ++v) acc[v] = vec8{};
  for (int64_t e = e0; e < e1; ++e) {
    const int64_t k = col[e];
    const float av = ai[k * vk];
    const float* bk = b + k * p + j;
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) acc[v] += av * load8(bk + 8 * v);
  }
  for (int v = 0; v < NV; ++v) store8(zi + j + 8 * v, acc[v]);
}

/// z [m, p] = v @ b, v's live entries (pattern row_ptr/col over [m, n]) at vals[i * vi + k * vk].
#if defined(__x86_64__)
__attribute__((target_clones("avx2", "default")))
#endif
void spmm_left_csr(float* z, const float* vals, int64_t vi, int64_t vk, const int64_t* row_ptr, const int32_t* col,
                   const float* b, int64_t m, int64_t p) {
  for (int64_t i = 0; i < m; ++i) {
    float* zi = z + i * p;
    const float* ai = vals + i * vi;
    const int64_t e0 = row_ptr[i], e1 = row_ptr[i + 1];
    int64_t j = 0;
    for (; j + 64 <= p; j += 64) left_block<8>(zi, ai, vk, col, e0, e1, b, p, j);
    switch ((p - j) / 8) {
      case 7: left_block<7>(zi, ai, vk, col, e0, e1, b, p, j); break;
      case 6: left_block<6>(zi, ai, vk, col, e0, e1, b, p, j); break;
      case 5: left_block<5>(zi, ai, vk, col, e0, e1, b, p, j); break;
      case 4: left_block<4>(zi, ai, vk, col, e0, e1, b, p, j); break;
      case 3: left_block<3>(zi, ai, vk, col, e0, e1, b, p, j); break;
      case 2: left_block<2>(zi, ai, vk, col, e0, e1, b, p, j); break;
      case 1: left_block<1>(zi, ai, vk, col, e0, e1, b, p, j); break;
      default: break;
    }
    j += (p - j) / 8 * 8;
    for (; j < p; ++j) {
      float s = 0.0f;
      for (int64_t e = e0; e < e1; ++e) s += ai[col[e] * vk] * b[col[e] * p + j];
      zi[j] = s;
    }
  }
}

/// 8 * NV entries of row i: out[e] = sum over k ascending of a[i, k] * bt[col[e], k] (bt = b
/// transposed, so each entry reads one contiguous stream), the accumulators in registers.
template <int NV>
__attribute__((always_inline)) inline void sddmm_block(float* out, const float* ai, const int32_t* col, const float* bt,
                                                       int64_t n) {
  vec8 acc[NV];
  const float* s[8 * NV];
  for (int v = 0; v < NV; ++v) acc[v] = vec8{};
  for (int e = 0; e < 8 * NV; ++e) s[e] = bt + static_cast<int64_t>(col[e]) * n;
  for (int64_t k = 0; k < n; ++k) {
    const float av = ai[k];
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) {
      const float* const* c = s + 8 * v;
      const vec8 g = {c[0][k], c[1][k], c[2][k], c[3][k], c[4][k], c[5][k], c[6][k], c[7][k]};
      acc[v] += av * g;
    }
  }
  for (int v = 0; v < NV; ++v) store8(out + 8 * v, acc[v]);
}

#if defined(__x86_64__)
/// sddmm_block with AVX2 gathers: lane e of `idx` is stream e's offset in floats (col[e] * n).
template <int NV>
__attribute__((target("avx2"), always_inline)) inline void sddmm_block_avx2(float* out, const float* ai,
                                                                           const int32_t* idx, const float* src,
                                                                           int64_t n) {
  __m256 acc[NV];
  __m256i off[NV];
  for (int v = 0; v < NV; ++v) {
    acc[v] = _mm256_setzero_ps();
    off[v] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx + 8 * v));
  }
  for (int64_t k = 0; k < n; ++k) {
    const __m256 av = _mm256_set1_ps(ai[k]);
    for (int v = 0; v < NV; ++v) {
      acc[v] = _mm256_add_ps(acc[v], _mm256_mul_ps(av, _mm256_i32gather_ps(src + k, off[v], 4)));
    }
  }
  for (int v = 0; v < NV; ++v) _mm256_storeu_ps(out + 8 * v, acc[v]);
}

__attribute__((target("avx2"))) void sddmm_row_avx2(float* out, int64_t stride, const int32_t* col, int64_t cnt,
                                                    const float* ai, const float* src, int64_t n) {
  int32_t idx[32];
  float got[32];
  for (int64_t e0 = 0; e0 < cnt; e0 += 32) {
    const int64_t c = std::min<int64_t>(32, cnt - e0);
    for (int64_t e = 0; e < 32; ++e) idx[e] = col[e0 + std::min(e, c - 1)] * static_cast<int32_t>(n);
    switch ((c + 7) / 8) {
      case 4: sddmm_block_avx2<4>(got, ai, idx, src, n); break;
      case 3: sddmm_block_avx2<3>(got, ai, idx, src, n); break;
      case 2: sddmm_block_avx2<2>(got, ai, idx, src, n); break;
      default: sddmm_block_avx2<1>(got, ai, idx, src, n); break;
    }
    for (int64_t e = 0; e < c; ++e) out[col[e0 + e] * stride] = got[e];
  }
}

const bool kHasAvx2 = __builtin_cpu_supports("avx2");
#endif

/// One row (or, transposed, one column) of the sampled product: out[col[e] * stride] = the dot
/// product over k ascending of `ai` and stream col[e] of `src` (rows of n), 16 entries at a time.
#if defined(__x86_64__)
__attribute__((target_clones("avx2", "default")))
#endif
void sddmm_row(float* out, int64_t stride, const int32_t* col, int64_t cnt, const float* ai, const float* src,
               int64_t n, int64_t streams) {
#if defined(__x86_64__)
  if (kHasAvx2 && streams * n < INT32_MAX) {
    sddmm_row_avx2(out, stride, col, cnt, ai, src, n);
    return;
  }
#endif
  int32_t idx[16];
  float got[16];
  for (int64_t e0 = 0; e0 < cnt; e0 += 16) {
    const int64_t c = std::min<int64_t>(16, cnt - e0);
    for (int64_t e = 0; e < 16; ++e) idx[e] = col[e0 + std::min(e, c - 1)];
    if (c > 8) {
      sddmm_block<2>(got, ai, idx, src, n);
    } else {
      sddmm_block<1>(got, ai, idx, src, n);
    }
    for (int64_t e = 0; e < c; ++e) out[col[e0 + e] * stride] = got[e];
  }
}

/// dst [rows.size(), cols.size()] = src [*, ld] at (rows, cols); an empty selector takes all `n`.
void gather(float* dst, const float* src, int64_t ld, const std::vector<int32_t>& rows, int64_t nrows,
            const std::vector<int32_t>& cols, int64_t ncols, bool all_rows, bool all_cols) {
  for (int64_t r = 0; r < nrows; ++r) {
    const float* s = src + (all_rows ? r : rows[r]) * ld;
    float* d = dst + r * ncols;
    if (all_cols) {
      std::memcpy(d, s, sizeof(float) * ncols);
    } else {
      for (int64_t c = 0; c < ncols; ++c) d[c] = s[cols[c]];
    }
  }
}

thread_local std::vector<float> scratch_a, scratch_b, scratch_z;

/// A rectangle runs the dense kernel compacted only when it fills its row tiles and column vectors;
/// thinner ones are faster on the CSR kernels (measured: bench-step's per-product GFLOP/s).
constexpr int64_t kMinRows = 6;
constexpr int64_t kMinCols = 16;

}  // namespace

SparsePattern SparsePattern::from_flags(const uint8_t* live, int64_t rows, int64_t cols) {
  SparsePattern pat;
  pat.rows = rows;
  pat.cols = cols;
  pat.row_ptr.assign(static_cast<size_t>(rows) + 1, 0);
  std::vector<uint8_t> col_live(static_cast<size_t>(cols), 0);
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) {
      if (live[i * cols + j]) {
        pat.col.push_back(static_cast<int32_t>(j));
        col_live[j] = 1;
      }
    }
    pat.row_ptr[i + 1] = static_cast<int64_t>(pat.col.size());
    if (pat.row_ptr[i + 1] > pat.row_ptr[i]) pat.live_rows.push_back(static_cast<int32_t>(i));
  }
  for (int64_t j = 0; j < cols; ++j) {
    if (col_live[j]) pat.live_cols.push_back(static_cast<int32_t>(j));
  }
  pat.t_row_ptr.assign(static_cast<size_t>(cols) + 1, 0);
  for (int32_t c : pat.col) ++pat.t_row_ptr[static_cast<size_t>(c) + 1];
  for (int64_t j = 0; j < cols; ++j) pat.t_row_ptr[j + 1] += pat.t_row_ptr[j];
  pat.t_col.resize(pat.col.size());
  std::vector<int64_t> fill(pat.t_row_ptr.begin(), pat.t_row_ptr.end() - 1);
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t e = pat.row_ptr[i]; e < pat.row_ptr[i + 1]; ++e) pat.t_col[fill[pat.col[e]]++] = static_cast<int32_t>(i);
  }
  pat.rectangular = pat.nnz() == static_cast<int64_t>(pat.live_rows.size() * pat.live_cols.size());
  if (!pat.rectangular) {
    pat.live_rows.clear();
    pat.live_cols.clear();
  }
  return pat;
}

void spmm_left(float* z, const float* a, const SparsePattern& pa, const float* b, int64_t m, int64_t n, int64_t p) {
  if (!pa.rectangular || static_cast<int64_t>(pa.live_rows.size()) < kMinRows) {  // a few rows: CSR keeps 8 sums in flight
    spmm_left_csr(z, a, n, 1, pa.row_ptr.data(), pa.col.data(), b, m, p);
    return;
  }
  const int64_t r = static_cast<int64_t>(pa.live_rows.size()), c = static_cast<int64_t>(pa.live_cols.size());
  const bool all_r = all_of(pa.live_rows, m), all_c = all_of(pa.live_cols, n);
  if (all_r && all_c) {
    matmul_f32(z, a, b, m, n, p);
    return;
  }
  std::fill(z, z + m * p, 0.0f);
  if (r == 0 || c == 0) return;
  scratch_a.resize(static_cast<size_t>(r * c));
  gather(scratch_a.data(), a, n, pa.live_rows, r, pa.live_cols, c, all_r, all_c);
  const float* bc = b;
  if (!all_c) {
    scratch_b.resize(static_cast<size_t>(c * p));
    gather(scratch_b.data(), b, p, pa.live_cols, c, {}, p, false, true);
    bc = scratch_b.data();
  }
  if (all_r) {
    matmul_f32(z, scratch_a.data(), bc, m, c, p);
    return;
  }
  scratch_z.resize(static_cast<size_t>(r * p));
  matmul_f32(scratch_z.data(), scratch_a.data(), bc, r, c, p);
  for (int64_t i = 0; i < r; ++i) std::memcpy(z + pa.live_rows[i] * p, scratch_z.data() + i * p, sizeof(float) * p);
}

void spmm_right(float* z, const float* a, const float* b, const SparsePattern& pb, int64_t m, int64_t n, int64_t p) {
  if (pb.rectangular) {
    const int64_t r = static_cast<int64_t>(pb.live_rows.size()), c = static_cast<int64_t>(pb.live_cols.size());
    const bool all_r = all_of(pb.live_rows, n), all_c = all_of(pb.live_cols, p);
    if (all_r && all_c) {
      matmul_f32(z, a, b, m, n, p);
      return;
    }
    std::fill(z, z + m * p, 0.0f);
    if (r == 0 || c == 0) return;
    scratch_a.resize(static_cast<size_t>(m * r));
    gather(scratch_a.data(), a, n, {}, m, pb.live_rows, r, true, all_r);
    scratch_b.resize(static_cast<size_t>(r * c));
    gather(scratch_b.data(), b, p, pb.live_rows, r, pb.live_cols, c, all_r, all_c);
    scratch_z.resize(static_cast<size_t>(m * c));
    matmul_f32(scratch_z.data(), scratch_a.data(), scratch_b.data(), m, r, c);
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < c; ++j) z[i * p + pb.live_cols[j]] = scratch_z[i * c + j];
    }
    return;
  }
  // z^T [p, m] = b^T (sparse, its pattern's columns as rows) @ a^T: each z[i, j] sums k ascending.
  scratch_a.resize(static_cast<size_t>(n * m));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t k = 0; k < n; ++k) scratch_a[k * m + i] = a[i * n + k];
  }
  scratch_z.resize(static_cast<size_t>(p * m));
  spmm_left_csr(scratch_z.data(), b, 1, p, pb.t_row_ptr.data(), pb.t_col.data(), scratch_a.data(), p, m);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < p; ++j) z[i * p + j] = scratch_z[j * m + i];
  }
}

void sddmm(float* z, const float* a, const float* b, const SparsePattern& pz, int64_t m, int64_t n, int64_t p) {
  if (pz.rectangular && static_cast<int64_t>(pz.live_rows.size()) >= kMinRows &&
      static_cast<int64_t>(pz.live_cols.size()) >= kMinCols) {
    const int64_t r = static_cast<int64_t>(pz.live_rows.size()), c = static_cast<int64_t>(pz.live_cols.size());
    const bool all_r = all_of(pz.live_rows, m), all_c = all_of(pz.live_cols, p);
    if (all_r && all_c) {
      matmul_f32(z, a, b, m, n, p);
      return;
    }
    std::fill(z, z + m * p, 0.0f);
    if (r == 0 || c == 0) return;
    scratch_a.resize(static_cast<size_t>(r * n));
    gather(scratch_a.data(), a, n, pz.live_rows, r, {}, n, all_r, true);
    scratch_b.resize(static_cast<size_t>(n * c));
    gather(scratch_b.data(), b, p, {}, n, pz.live_cols, c, true, all_c);
    scratch_z.resize(static_cast<size_t>(r * c));
    matmul_f32(scratch_z.data(), scratch_a.data(), scratch_b.data(), r, n, c);
    for (int64_t i = 0; i < r; ++i) {
      float* zi = z + pz.live_rows[i] * p;
      for (int64_t j = 0; j < c; ++j) zi[pz.live_cols[j]] = scratch_z[i * c + j];
    }
    return;
  }
  std::fill(z, z + m * p, 0.0f);
  scratch_b.resize(static_cast<size_t>(n * p));  // b transposed: its columns as contiguous streams
  for (int64_t k = 0; k < n; ++k) {
    for (int64_t j = 0; j < p; ++j) scratch_b[j * n + k] = b[k * p + j];
  }
  if (m >= p) {  // by column: more entries share one vector operand (a column of b)
    for (int64_t j = 0; j < p; ++j) {
      const int64_t e0 = pz.t_row_ptr[j], cnt = pz.t_row_ptr[j + 1] - e0;
      if (cnt > 0) sddmm_row(z + j, p, pz.t_col.data() + e0, cnt, scratch_b.data() + j * n, a, n, m);
    }
    return;
  }
  for (int64_t i = 0; i < m; ++i) {
    const int64_t e0 = pz.row_ptr[i], cnt = pz.row_ptr[i + 1] - e0;
    if (cnt > 0) sddmm_row(z + i * p, 1, pz.col.data() + e0, cnt, a + i * n, scratch_b.data(), n, p);
  }
}

}  // namespace kernels
}  // namespace edgecl
