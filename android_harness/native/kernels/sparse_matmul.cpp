#include "sparse_matmul.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "cpu_features.h"
#include "float_vectors.h"
#include "matmul.h"

namespace edgecl {
namespace kernels {
namespace {

bool all_of(const std::vector<int32_t>& live, int64_t n) { return static_cast<int64_t>(live.size()) == n; }

/// Columns [j, j + 8 * NV) of one output row's segment (b's rows read at `bs` + their offset): the
/// row's live k in ascending order, 8 * NV accumulators in registers.
template <int NV>
__attribute__((always_inline)) inline void left_block(float* zs, const float* ai, int64_t vk, const int32_t* col,
                                                      int64_t e0, int64_t e1, const Columns& b, const float* bs,
                                                      int64_t j) {
  vec8 acc[NV];
  for (int v = 0; v < NV; ++v) acc[v] = vec8{};
  for (int64_t e = e0; e < e1; ++e) {
    const int64_t k = col[e];
    const float av = ai[k * vk];
    const float* bk = bs + b.row(k) + j;
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) acc[v] += av * load8(bk + 8 * v);
  }
  for (int v = 0; v < NV; ++v) store8(zs + j + 8 * v, acc[v]);
}

/// G whole segments s0 .. s0 + G of one output row, each of `len` columns in V vectors (the last ending
/// at the segment's end, so for a width that is not a multiple of 8 it shares columns with the one
/// before: computed again in the same order, the same values): the row's live k in ascending order,
/// G * V accumulators in registers. Short segments (a convolution's output rows of 8 to 32) thus share
/// each k's weight and tap offset over G segments instead of reloading them for one or two vectors.
template <int G, int V>
__attribute__((always_inline)) inline void left_segments(float* zr, const float* ai, int64_t vk, const int32_t* col,
                                                         int64_t e0, int64_t e1, const Columns& b, int64_t s0,
                                                         int64_t len) {
  vec8 acc[G * V];
  for (int q = 0; q < G * V; ++q) acc[q] = vec8{};
  const float* bs[G];
  for (int g = 0; g < G; ++g) bs[g] = b.data + b.seg(s0 + g);
  int64_t off[V];
  for (int v = 0; v < V; ++v) off[v] = v + 1 < V ? 8 * v : len - 8;
  for (int64_t e = e0; e < e1; ++e) {
    const int64_t k = col[e];
    const float av = ai[k * vk];
    const int64_t rk = b.row(k);
#pragma GCC unroll 8
    for (int g = 0; g < G; ++g) {
#pragma GCC unroll 4
      for (int v = 0; v < V; ++v) acc[g * V + v] += av * load8(bs[g] + rk + off[v]);
    }
  }
  for (int g = 0; g < G; ++g) {
    for (int v = 0; v < V; ++v) store8(zr + (s0 + g) * len + off[v], acc[g * V + v]);
  }
}

/// Every segment of one output row, in groups of G = 8 / V (V vectors a segment), the rest one by one.
template <int V>
__attribute__((always_inline)) inline void left_row_short(float* zr, const float* ai, int64_t vk, const int32_t* col,
                                                          int64_t e0, int64_t e1, const Columns& b) {
  constexpr int G = 8 / V;
  int64_t s = 0;
  for (; s + G <= b.segs; s += G) left_segments<G, V>(zr, ai, vk, col, e0, e1, b, s, b.seg_len);
  for (; s < b.segs; ++s) left_segments<1, V>(zr, ai, vk, col, e0, e1, b, s, b.seg_len);
}

/// z [m, p] = v @ b, v's live entries (pattern row_ptr/col over [m, n]) at vals[i * vi + k * vk];
/// z's row is b's segments side by side.
#if defined(__x86_64__)
__attribute__((target_clones("avx2", "default")))
#endif
void spmm_left_csr(float* z, const float* vals, int64_t vi, int64_t vk, const int64_t* row_ptr, const int32_t* col,
                   const Columns& b, int64_t m) {
  const int64_t len = b.seg_len, p = b.segs * len;
  if (b.segs > 1 && len >= 8 && len <= 32) {
    for (int64_t i = 0; i < m; ++i) {
      const int64_t e0 = row_ptr[i], e1 = row_ptr[i + 1];
      switch ((len + 7) / 8) {
        case 1: left_row_short<1>(z + i * p, vals + i * vi, vk, col, e0, e1, b); break;
        case 2: left_row_short<2>(z + i * p, vals + i * vi, vk, col, e0, e1, b); break;
        case 3: left_row_short<3>(z + i * p, vals + i * vi, vk, col, e0, e1, b); break;
        default: left_row_short<4>(z + i * p, vals + i * vi, vk, col, e0, e1, b); break;
      }
    }
    return;
  }
  for (int64_t i = 0; i < m; ++i) {
    const float* ai = vals + i * vi;
    const int64_t e0 = row_ptr[i], e1 = row_ptr[i + 1];
    for (int64_t s = 0; s < b.segs; ++s) {
      float* zs = z + i * p + s * len;
      const float* bs = b.data + b.seg(s);
      int64_t j = 0;
      for (; j + 64 <= len; j += 64) left_block<8>(zs, ai, vk, col, e0, e1, b, bs, j);
      switch ((len - j) / 8) {
        case 7: left_block<7>(zs, ai, vk, col, e0, e1, b, bs, j); break;
        case 6: left_block<6>(zs, ai, vk, col, e0, e1, b, bs, j); break;
        case 5: left_block<5>(zs, ai, vk, col, e0, e1, b, bs, j); break;
        case 4: left_block<4>(zs, ai, vk, col, e0, e1, b, bs, j); break;
        case 3: left_block<3>(zs, ai, vk, col, e0, e1, b, bs, j); break;
        case 2: left_block<2>(zs, ai, vk, col, e0, e1, b, bs, j); break;
        case 1: left_block<1>(zs, ai, vk, col, e0, e1, b, bs, j); break;
        default: break;
      }
      j += (len - j) / 8 * 8;
      // A tail of a segment 8 or more wide: one more vector ending at its end. The columns it shares
      // with the last block are computed again in the same order: the same values.
      if (j < len && len >= 8) {
        left_block<1>(zs, ai, vk, col, e0, e1, b, bs, len - 8);
        j = len;
      }
      for (; j < len; ++j) {
        float sum = 0.0f;
        for (int64_t e = e0; e < e1; ++e) sum += ai[col[e] * vk] * bs[b.row(col[e]) + j];
        zs[j] = sum;
      }
    }
  }
}

/// Up to eight entries of z on one line (a row, or by column a column): lane e's sum continues with
/// a[k * as] * the streams' row `row[e]` at k. A short vector's unused lanes repeat its last entry.
struct EntryVector {
  const float* a;
  int64_t row[8];
  int64_t out[8];  // the lanes' places in z
  int count;
};

/// A tile of NV entry vectors (NV * 8 sums, `sum`) continued over k in [k0, k1) ascending, the
/// streams read segment by segment (stream value at k in segment g: data + row + seg(g) + k - g * len),
/// the sums in registers throughout: a segment costs no more than its k (a convolution's output rows
/// are segments of 8 to 32).
template <int NV>
__attribute__((always_inline)) inline void sddmm_tile(float* sum, const EntryVector* v, int64_t as, const Columns& src,
                                                      int64_t k0, int64_t k1) {
  vec8 acc[NV];
  const float* s[NV][8];
  for (int q = 0; q < NV; ++q) {
    acc[q] = load8(sum + 8 * q);
    for (int e = 0; e < 8; ++e) s[q][e] = src.data + v[q].row[e];
  }
  const int64_t len = src.seg_len;
  for (int64_t g = k0 / len; g * len < k1; ++g) {
    const int64_t base = g * len, off = src.seg(g) - base;
    for (int64_t k = std::max(k0, base), hi = std::min(k1, base + len); k < hi; ++k) {
#pragma GCC unroll 4
      for (int q = 0; q < NV; ++q) {
        const float* const* c = s[q];
        const int64_t i = off + k;
        const vec8 col = {c[0][i], c[1][i], c[2][i], c[3][i], c[4][i], c[5][i], c[6][i], c[7][i]};
        acc[q] += v[q].a[k * as] * col;
      }
    }
  }
  for (int q = 0; q < NV; ++q) store8(sum + 8 * q, acc[q]);
}

#if defined(__x86_64__)
/// Four k of eight streams as four vectors, lane e = stream e at k + q: the streams' halves loaded
/// into the two 128-bit lanes (one insert each, no lane-crossing shuffle), then a 4 x 4 transpose
/// within each lane.
__attribute__((target("avx2"), always_inline)) inline void columns4(__m256 r[4], const float* const* s, int64_t k) {
  __m256 t[4];
  for (int e = 0; e < 4; ++e) {
    t[e] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(s[e] + k)), _mm_loadu_ps(s[e + 4] + k), 1);
  }
  const __m256 u0 = _mm256_unpacklo_ps(t[0], t[1]), u1 = _mm256_unpackhi_ps(t[0], t[1]);
  const __m256 u2 = _mm256_unpacklo_ps(t[2], t[3]), u3 = _mm256_unpackhi_ps(t[2], t[3]);
  r[0] = _mm256_shuffle_ps(u0, u2, 0x44);
  r[1] = _mm256_shuffle_ps(u0, u2, 0xEE);
  r[2] = _mm256_shuffle_ps(u1, u3, 0x44);
  r[3] = _mm256_shuffle_ps(u1, u3, 0xEE);
}

/// Two k of eight streams as two vectors, lane e = stream e at k + q: each stream's pair loaded as one
/// 64-bit value, streams {0, 1, 4, 5} and {2, 3, 6, 7} gathered into two registers, then one shuffle per k.
__attribute__((target("avx2"), always_inline)) inline void columns2(__m256 r[2], const float* const* s, int64_t k) {
  const auto pair = [&](int e) { return _mm_castpd_ps(_mm_load_sd(reinterpret_cast<const double*>(s[e] + k))); };
  const auto two = [&](int e, int f) { return _mm_movelh_ps(pair(e), pair(f)); };  // {e[k], e[k+1], f[k], f[k+1]}
  const __m256 lo = _mm256_insertf128_ps(_mm256_castps128_ps256(two(0, 1)), two(4, 5), 1);
  const __m256 hi = _mm256_insertf128_ps(_mm256_castps128_ps256(two(2, 3)), two(6, 7), 1);
  r[0] = _mm256_shuffle_ps(lo, hi, 0x88);  // lanes {0, 2} of each: streams' k
  r[1] = _mm256_shuffle_ps(lo, hi, 0xDD);  // lanes {1, 3}: streams' k + 1
}

/// acc continues with a[(k + q) * as] * t[q] for q in [0, Q), in order.
template <int Q>
__attribute__((target("avx2"), always_inline)) inline void add_columns(__m256& acc, const __m256* t, const float* a,
                                                                      int64_t as, int64_t k) {
  for (int q = 0; q < Q; ++q) acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_broadcast_ss(a + (k + q) * as), t[q]));
}

/// sddmm_tile on AVX2: within a segment four k at a time from contiguous loads of the streams
/// (columns4), then two (columns2), then one, added in order.
template <int NV>
__attribute__((target("avx2"))) void sddmm_tile_avx2(float* sum, const EntryVector* v, int64_t as, const Columns& src,
                                                    int64_t k0, int64_t k1) {
  __m256 acc[NV];
  const float* s[NV][8];
  for (int q = 0; q < NV; ++q) {
    acc[q] = _mm256_loadu_ps(sum + 8 * q);
    for (int e = 0; e < 8; ++e) s[q][e] = src.data + v[q].row[e];
  }
  const int64_t len = src.seg_len;
  for (int64_t g = k0 / len; g * len < k1; ++g) {
    const int64_t base = g * len, off = src.seg(g) - base, hi = std::min(k1, base + len);
    int64_t k = std::max(k0, base);
    for (; k + 4 <= hi; k += 4) {
      for (int q = 0; q < NV; ++q) {
        __m256 t[4];
        columns4(t, s[q], off + k);
        add_columns<4>(acc[q], t, v[q].a, as, k);
      }
    }
    if (k + 2 <= hi) {
      for (int q = 0; q < NV; ++q) {
        __m256 t[2];
        columns2(t, s[q], off + k);
        add_columns<2>(acc[q], t, v[q].a, as, k);
      }
      k += 2;
    }
    if (k < hi) {
      for (int q = 0; q < NV; ++q) {
        const float* const* c = s[q];
        const int64_t i = off + k;
        const __m256 t = _mm256_setr_ps(c[0][i], c[1][i], c[2][i], c[3][i], c[4][i], c[5][i], c[6][i], c[7][i]);
        add_columns<1>(acc[q], &t, v[q].a, as, k);
      }
    }
  }
  for (int q = 0; q < NV; ++q) _mm256_storeu_ps(sum + 8 * q, acc[q]);
}
#endif

/// Entry vectors a tile holds (two to four measured alike: the streams' transposes bound the kernel).
constexpr int kTile = 4;

/// One tile of `nv` (1 .. kTile) entry vectors, on AVX2 where the CPU has it.
void sddmm_tile_any(float* sum, const EntryVector* v, int nv, int64_t as, const Columns& src, int64_t k0, int64_t k1) {
#if defined(__x86_64__)
  if (kHasAvx2) {
    switch (nv) {
      case 1: sddmm_tile_avx2<1>(sum, v, as, src, k0, k1); return;
      case 2: sddmm_tile_avx2<2>(sum, v, as, src, k0, k1); return;
      case 3: sddmm_tile_avx2<3>(sum, v, as, src, k0, k1); return;
      default: sddmm_tile_avx2<4>(sum, v, as, src, k0, k1); return;
    }
  }
#endif
  switch (nv) {
    case 1: sddmm_tile<1>(sum, v, as, src, k0, k1); return;
    case 2: sddmm_tile<2>(sum, v, as, src, k0, k1); return;
    case 3: sddmm_tile<3>(sum, v, as, src, k0, k1); return;
    default: sddmm_tile<4>(sum, v, as, src, k0, k1); return;
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

/// The sampled product reads its streams in slices of this many bytes in all, to stay in L2
/// (measured with bench-step's per-product GFLOP/s on a 2 MB L2).
constexpr int64_t kSddmmStreamBytes = 1024 * 1024;

thread_local std::vector<EntryVector> entry_vectors;

/// The row stride the sampled product's streams are read at: rows of n floats whose byte stride is a
/// multiple of 1 KB fall into a few L1 sets, so a tile's 32 streams evict each other at every k (4x
/// slower at n = 1024, measured); such rows are copied one cache line further apart.
int64_t stream_stride(int64_t n) {
  const int64_t bytes = static_cast<int64_t>(sizeof(float)) * n;
  return bytes >= 1024 && bytes % 1024 == 0 ? n + 16 : n;
}

/// The sampled product's CSR walk. By row: row i of a (`shared`, [m, n]) is shared by its entries,
/// their streams b's columns (`streams`: b transposed). By column: column j of b (`shared`, [n, p],
/// read down its stride) is shared, the streams a's rows. Each line's entries go eight to a vector,
/// kTile vectors to a tile; k runs in passes that keep the streams' slices in cache (whole segments
/// of a segmented operand), each pass continuing the entries' sums from z in the same order.
void sddmm_csr(float* z, const float* shared, const Columns& streams, const SparsePattern& pz, bool by_row, int64_t m,
               int64_t n, int64_t p) {
  const int64_t lines = by_row ? m : p;
  const int64_t* ptr = by_row ? pz.row_ptr.data() : pz.t_row_ptr.data();
  const int32_t* idx = by_row ? pz.col.data() : pz.t_col.data();
  const int64_t line_step = by_row ? n : 1, as = by_row ? 1 : p, out_line = by_row ? p : 1, out_entry = by_row ? 1 : p;
  std::vector<EntryVector>& vecs = entry_vectors;
  vecs.clear();
  for (int64_t l = 0; l < lines; ++l) {
    for (int64_t e0 = ptr[l]; e0 < ptr[l + 1]; e0 += 8) {
      EntryVector v;
      v.a = shared + l * line_step;
      v.count = static_cast<int>(std::min<int64_t>(8, ptr[l + 1] - e0));
      for (int e = 0; e < 8; ++e) {
        const int32_t j = idx[e0 + std::min(e, v.count - 1)];
        v.row[e] = streams.row(j);
        v.out[e] = l * out_line + j * out_entry;
      }
      vecs.push_back(v);
    }
  }
  const int64_t bytes = static_cast<int64_t>(sizeof(float)) * (by_row ? p : m) * n;
  const int64_t passes = std::max<int64_t>(1, (bytes + kSddmmStreamBytes - 1) / kSddmmStreamBytes);
  int64_t kc = std::max<int64_t>(4, (n + passes - 1) / passes + 3) / 4 * 4;
  if (streams.segs > 1) kc = std::max(streams.seg_len, kc / streams.seg_len * streams.seg_len);
  float sum[8 * kTile];
  for (int64_t k0 = 0; k0 < n; k0 += kc) {
    const int64_t k1 = std::min(n, k0 + kc);
    for (size_t t = 0; t < vecs.size(); t += kTile) {
      const int nv = static_cast<int>(std::min<size_t>(kTile, vecs.size() - t));
      for (int q = 0; q < nv; ++q) {
        for (int e = 0; e < 8; ++e) sum[8 * q + e] = z[vecs[t + q].out[e]];
      }
      sddmm_tile_any(sum, &vecs[t], nv, as, streams, k0, k1);
      for (int q = 0; q < nv; ++q) {
        for (int e = 0; e < vecs[t + q].count; ++e) z[vecs[t + q].out[e]] = sum[8 * q + e];
      }
    }
  }
}

}  // namespace

bool left_compacted(const SparsePattern& pa) {
  return pa.rectangular && static_cast<int64_t>(pa.live_rows.size()) >= kMinRows;
}

bool output_compacted(const SparsePattern& pz) {
  return pz.rectangular && static_cast<int64_t>(pz.live_rows.size()) >= kMinRows &&
         static_cast<int64_t>(pz.live_cols.size()) >= kMinCols;
}

SparsePattern SparsePattern::from_flags(const uint8_t* live, int64_t rows, int64_t cols, bool entries) {
  SparsePattern pat;
  pat.rows = rows;
  pat.cols = cols;
  pat.row_ptr.assign(static_cast<size_t>(rows) + 1, 0);
  std::vector<uint8_t> col_live(static_cast<size_t>(cols), 0);
  // Branch-free, here and in add_entries: a random mask's flags would mispredict every other branch.
  for (int64_t i = 0; i < rows; ++i) {
    const uint8_t* li = live + i * cols;
    int64_t count = 0;
    for (int64_t j = 0; j < cols; ++j) {
      const uint8_t on = li[j] != 0;
      count += on;
      col_live[j] |= on;
    }
    pat.row_ptr[i + 1] = pat.row_ptr[i] + count;
    if (count > 0) pat.live_rows.push_back(static_cast<int32_t>(i));
  }
  for (int64_t j = 0; j < cols; ++j) {
    if (col_live[j]) pat.live_cols.push_back(static_cast<int32_t>(j));
  }
  pat.rectangular = pat.nnz() == static_cast<int64_t>(pat.live_rows.size() * pat.live_cols.size());
  if (!pat.rectangular) {
    pat.live_rows.clear();
    pat.live_cols.clear();
  }
  if (entries) pat.add_entries(live);
  return pat;
}

void SparsePattern::add_entries(const uint8_t* live) {
  if (has_entries) return;
  // Each row's columns at its row_ptr; one slot past the end takes the last row's unkept writes.
  col.resize(static_cast<size_t>(nnz()) + 1);
  for (int64_t i = 0; i < rows; ++i) {
    const uint8_t* li = live + i * cols;
    int32_t* out = col.data() + row_ptr[i];
    int64_t count = 0;
    for (int64_t j = 0; j < cols; ++j) {
      out[count] = static_cast<int32_t>(j);
      count += li[j] != 0;
    }
  }
  col.resize(static_cast<size_t>(nnz()));
  t_row_ptr.assign(static_cast<size_t>(cols) + 1, 0);
  for (int32_t c : col) ++t_row_ptr[static_cast<size_t>(c) + 1];
  for (int64_t j = 0; j < cols; ++j) t_row_ptr[j + 1] += t_row_ptr[j];
  t_col.resize(col.size());
  std::vector<int64_t> fill(t_row_ptr.begin(), t_row_ptr.end() - 1);
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t e = row_ptr[i]; e < row_ptr[i + 1]; ++e) t_col[fill[col[e]]++] = static_cast<int32_t>(i);
  }
  has_entries = true;
}

void spmm_left(float* z, const float* a, const SparsePattern& pa, const float* b, int64_t m, int64_t n, int64_t p) {
  if (!left_compacted(pa)) {  // a few rows: CSR keeps 8 sums in flight
    spmm_left_csr(z, a, n, 1, pa.row_ptr.data(), pa.col.data(), Columns::dense(b, p), m);
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
  spmm_left_csr(scratch_z.data(), b, 1, p, pb.t_row_ptr.data(), pb.t_col.data(), Columns::dense(scratch_a.data(), m), p);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < p; ++j) z[i * p + j] = scratch_z[j * m + i];
  }
}

void sddmm(float* z, const float* a, const float* b, const SparsePattern& pz, int64_t m, int64_t n, int64_t p) {
  if (output_compacted(pz)) {
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
  // One operand row (or column) is shared by the entries of its row (column) of z; the other side's
  // rows (columns) are each entry's stream. By row needs b transposed; it pays only where a
  // outgrows the cache slice and z's rows fill the vectors (8 entries or more), measured.
  const bool by_row = pz.nnz() >= 8 * m && static_cast<int64_t>(sizeof(float)) * m * n > kSddmmStreamBytes;
  const int64_t ld = stream_stride(n);
  if (!by_row) {
    if (ld == n) {
      sddmm_csr(z, b, Columns::dense(a, n), pz, false, m, n, p);
      return;
    }
    scratch_a.resize(static_cast<size_t>(m * ld));
    for (int64_t i = 0; i < m; ++i) std::memcpy(scratch_a.data() + i * ld, a + i * n, sizeof(float) * n);
    sddmm_csr(z, b, Columns{scratch_a.data(), nullptr, nullptr, ld, n, 1}, pz, false, m, n, p);
    return;
  }
  scratch_b.resize(static_cast<size_t>(ld * p));
  for (int64_t k = 0; k < n; ++k) {
    for (int64_t j = 0; j < p; ++j) scratch_b[j * ld + k] = b[k * p + j];
  }
  sddmm_csr(z, a, Columns{scratch_b.data(), nullptr, nullptr, ld, n, 1}, pz, true, m, n, p);
}

void spmm_left_direct(float* z, const float* a, const SparsePattern& pa, const Columns& b, int64_t m, int64_t n) {
  spmm_left_csr(z, a, n, 1, pa.row_ptr.data(), pa.col.data(), b, m);
}

void sddmm_direct(float* z, const Columns& a, const float* b, const SparsePattern& pz, int64_t m, int64_t n, int64_t p) {
  std::fill(z, z + m * p, 0.0f);
  sddmm_csr(z, b, a, pz, false, m, n, p);
}

}  // namespace kernels
}  // namespace edgecl
