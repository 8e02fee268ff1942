#include "matmul.h"
#include "float_vectors.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace edgecl {
namespace kernels {
namespace {

// A tile of up to MR rows x NV 8-float vectors of z lives in registers while k runs in order: each
// element is ((0 + x0*y0) + x1*y1) + ..., the portable kernel's order (no fused multiply-add:
// -ffp-contract=off), so the tile's results are bit-identical to the naive loop's. 6 x 16 keeps 12
// independent accumulators in flight, enough to cover the add latency, and loads 2 + 6 values per
// 12 vector multiply-adds. k runs in passes of KC: a pass starts from the partial sums the previous
// one stored in z, which continues each element's sum in the same order (still bit-identical), and
// keeps the packed panel of y in L1. y is packed in blocks of NC columns, read row by row: a
// column block read straight down y touches one cache line per row, at a stride the prefetcher
// does not follow. KC and NC were chosen by measurement (bench/native_matmul.py, the programs' shapes).
constexpr int64_t MR = 6;
constexpr int64_t NR = 16;
constexpr int64_t KC = 512;
constexpr int64_t NC = 1024;
/// Where a tile's operands are: rows k0..k1 of a column block of y, row k at src + (k - k0) * stride
/// (y itself, stride p, or a packed panel, stride NR, zero-padded past p).
struct Panel {
  const float* src;
  int64_t stride;
  int64_t k0, k1;
};

/// Rows [i, i + ROWS) x columns [j, j + min(8 * NV, p - j)) of z += x @ panel (z's partial sums
/// read back when k0 > 0); only the real columns are stored.
template <int64_t ROWS, int64_t NV>
__attribute__((always_inline)) inline void tile(float* z, const float* x, const Panel& y, int64_t i, int64_t j,
                                                int64_t n, int64_t p) {
  constexpr int64_t W = 8 * NV;
  const int64_t cols = std::min<int64_t>(W, p - j);
  vec8 acc[ROWS * NV];
  for (int64_t r = 0; r < ROWS; ++r) {
    if (y.k0 == 0) {
      for (int64_t v = 0; v < NV; ++v) acc[r * NV + v] = vec8{};
    } else if (cols == W) {
      for (int64_t v = 0; v < NV; ++v) acc[r * NV + v] = load8(z + (i + r) * p + j + 8 * v);
    } else {
      float in[W] = {};
      std::memcpy(in, z + (i + r) * p + j, sizeof(float) * cols);
      for (int64_t v = 0; v < NV; ++v) acc[r * NV + v] = load8(in + 8 * v);
    }
  }
  const float* xr[ROWS];
  for (int64_t r = 0; r < ROWS; ++r) xr[r] = x + (i + r) * n;
  const float* yk = y.src;
  for (int64_t k = y.k0; k < y.k1; ++k, yk += y.stride) {
    vec8 b[NV];
#pragma GCC unroll 2
    for (int64_t v = 0; v < NV; ++v) b[v] = load8(yk + 8 * v);
#pragma GCC unroll 6
    for (int64_t r = 0; r < ROWS; ++r) {
      const float a = xr[r][k];
#pragma GCC unroll 2
      for (int64_t v = 0; v < NV; ++v) acc[r * NV + v] += a * b[v];
    }
  }
  if (cols == W) {
    for (int64_t r = 0; r < ROWS; ++r)
      for (int64_t v = 0; v < NV; ++v) store8(z + (i + r) * p + j + 8 * v, acc[r * NV + v]);
    return;
  }
  for (int64_t r = 0; r < ROWS; ++r) {
    float out[W];
    for (int64_t v = 0; v < NV; ++v) store8(out + 8 * v, acc[r * NV + v]);
    std::memcpy(z + (i + r) * p + j, out, sizeof(float) * cols);
  }
}

/// Every row of z for one column block: row tiles of near-equal height (20 rows = 5+5+5+5, not
/// 6+6+6+2: a thin tile runs at a fraction of the speed), one 8-wide vector a row for a narrow tail.
template <int64_t NV>
__attribute__((always_inline)) inline void column_block(float* z, const float* x, const Panel& y, int64_t j,
                                                        int64_t m, int64_t n, int64_t p) {
  const int64_t tiles = (m + MR - 1) / MR;
  for (int64_t t = 0, i = 0; t < tiles; ++t) {
    const int64_t rows = (m - i + (tiles - t) - 1) / (tiles - t);
    switch (rows) {
      case 6: tile<6, NV>(z, x, y, i, j, n, p); break;
      case 5: tile<5, NV>(z, x, y, i, j, n, p); break;
      case 4: tile<4, NV>(z, x, y, i, j, n, p); break;
      case 3: tile<3, NV>(z, x, y, i, j, n, p); break;
      case 2: tile<2, NV>(z, x, y, i, j, n, p); break;
      default: tile<1, NV>(z, x, y, i, j, n, p); break;
    }
    i += rows;
  }
}

/// Columns [j0, j1) of rows k0..k1 of y as panels [k1 - k0, NR], one per column block, the last
/// zero-padded; y read row by row.
void pack(float* dst, const float* y, int64_t p, int64_t k0, int64_t k1, int64_t j0, int64_t j1) {
  const int64_t kn = k1 - k0;
  for (int64_t k = k0; k < k1; ++k) {
    const float* yk = y + k * p;
    for (int64_t j = j0; j < j1; j += NR) {
      float* d = dst + ((j - j0) / NR * kn + (k - k0)) * NR;
      if (j + NR <= j1) {
        std::memcpy(d, yk + j, sizeof(float) * NR);
      } else {
        for (int64_t c = 0; c < NR; ++c) d[c] = j + c < j1 ? yk[j + c] : 0.0f;
      }
    }
  }
}

}  // namespace

#if defined(__x86_64__)
// AVX2 where the CPU has it (same results: the element order is fixed and no FMA is emitted).
__attribute__((target_clones("avx2", "default")))
#endif
void matmul_f32(float* ET_RESTRICT z, const float* ET_RESTRICT x, const float* ET_RESTRICT y, int64_t m, int64_t n,
                int64_t p) {
  if (n == 0) {
    std::fill(z, z + m * p, 0.0f);
    return;
  }
  // One row tile reads each column block of y once: straight from y, no packing (but the tail).
  const bool packed_y = m > MR;
  const int64_t kc = std::min(n, KC);
  const int64_t nc = std::min((p + NR - 1) / NR * NR, NC);
  thread_local std::vector<float> buffer;
  buffer.resize(static_cast<size_t>(kc * (packed_y ? nc : NR)));
  for (int64_t k0 = 0; k0 < n; k0 += kc) {
    const int64_t k1 = std::min(n, k0 + kc);
    for (int64_t j0 = 0; j0 < p; j0 += nc) {
      const int64_t j1 = std::min(p, j0 + nc);
      if (packed_y) pack(buffer.data(), y, p, k0, k1, j0, j1);
      for (int64_t j = j0; j < j1; j += NR) {
        Panel panel{y + k0 * p + j, p, k0, k1};
        if (packed_y) {
          panel = {buffer.data() + (j - j0) / NR * (k1 - k0) * NR, NR, k0, k1};
        } else if (j + NR > p) {   // the tail, zero-padded to a whole block
          pack(buffer.data(), y, p, k0, k1, j, p);
          panel = {buffer.data(), NR, k0, k1};
        }
        if (p - j > 8) {
          column_block<2>(z, x, panel, j, m, n, p);
        } else {
          column_block<1>(z, x, panel, j, m, n, p);
        }
      }
    }
  }
}

}  // namespace kernels
}  // namespace edgecl
