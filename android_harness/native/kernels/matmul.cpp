#include "matmul.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace edgecl {
namespace kernels {
namespace {

// A tile of MR rows x NR columns of z lives in registers while k runs 0..n-1 in order: each
// element is ((0 + x0*y0) + x1*y1) + ..., the portable kernel's order (no fused multiply-add:
// -ffp-contract=off), so the tile's results are bit-identical to the naive loop's. 6 x 16 (two
// 8-float vectors a row) keeps 12 independent accumulators in flight, enough to cover the add
// latency, and loads 2 + 6 values per 12 vector multiply-adds (4 x 8 loaded 5 per 4).
constexpr int64_t MR = 6;
constexpr int64_t NV = 2;
constexpr int64_t NR = 8 * NV;
typedef float vec8 __attribute__((vector_size(32)));

inline vec8 load8(const float* p) {
  vec8 v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

inline void store8(float* p, vec8 v) { std::memcpy(p, &v, sizeof(v)); }

/// Rows [i, i + ROWS) x columns [j, j + min(NR, p - j)) of z, ROWS <= MR, from a column block of y:
/// row k of the block is the NR floats at src + k * stride (y itself, stride p, or the block packed
/// [n, NR] and zero-padded past p, stride NR); only the real columns are stored.
template <int64_t ROWS>
__attribute__((always_inline)) inline void tile(float* z, const float* x, const float* src, int64_t stride, int64_t i, int64_t j, int64_t n,
                 int64_t p) {
  vec8 acc[ROWS * NV];
  for (int64_t r = 0; r < ROWS; ++r)
    for (int64_t v = 0; v < NV; ++v) acc[r * NV + v] = vec8{};
  const float* xr[ROWS];
  for (int64_t r = 0; r < ROWS; ++r) xr[r] = x + (i + r) * n;
  for (int64_t k = 0; k < n; ++k) {
    vec8 yk[NV];
#pragma GCC unroll 2
    for (int64_t v = 0; v < NV; ++v) yk[v] = load8(src + k * stride + 8 * v);
#pragma GCC unroll 6
    for (int64_t r = 0; r < ROWS; ++r) {
      const float a = xr[r][k];
#pragma GCC unroll 2
      for (int64_t v = 0; v < NV; ++v) acc[r * NV + v] += a * yk[v];
    }
  }
  if (j + NR <= p) {
    for (int64_t r = 0; r < ROWS; ++r)
      for (int64_t v = 0; v < NV; ++v) store8(z + (i + r) * p + j + 8 * v, acc[r * NV + v]);
    return;
  }
  for (int64_t r = 0; r < ROWS; ++r) {
    float out[NR];
    for (int64_t v = 0; v < NV; ++v) store8(out + 8 * v, acc[r * NV + v]);
    std::memcpy(z + (i + r) * p + j, out, sizeof(float) * (p - j));
  }
}

}  // namespace

#if defined(__x86_64__)
// AVX2 where the CPU has it (same results: the element order is fixed and no FMA is emitted).
__attribute__((target_clones("avx2", "default")))
#endif
void matmul_f32(float* ET_RESTRICT z, const float* ET_RESTRICT x, const float* ET_RESTRICT y, int64_t m, int64_t n,
                int64_t p) {
  const int64_t pv = p - p % NR;
  // Column blocks of y are packed [n, NR] (contiguous, the tail zero-padded) when several row
  // tiles reuse them: a row stride of y that is a multiple of 4 KiB would thrash the L1 sets.
  const bool pack = m > MR;
  thread_local std::vector<float> packed;
  packed.resize(static_cast<size_t>(n * NR));
  for (int64_t j = 0; j < p; j += NR) {
    const bool from_packed = j >= pv || pack;
    if (from_packed) {
      const size_t cols = static_cast<size_t>(std::min<int64_t>(NR, p - j));
      if (cols == NR) {
        for (int64_t k = 0; k < n; ++k) std::memcpy(&packed[k * NR], y + k * p + j, sizeof(float) * NR);
      } else {
        for (int64_t k = 0; k < n; ++k) {
          for (size_t c = 0; c < NR; ++c) packed[k * NR + c] = c < cols ? y[k * p + j + c] : 0.0f;
        }
      }
    }
    const float* src = from_packed ? packed.data() : y + j;
    const int64_t stride = from_packed ? NR : p;
    int64_t i = 0;
    for (; i + MR <= m; i += MR) tile<MR>(z, x, src, stride, i, j, n, p);
    switch (m - i) {
      case 5: tile<5>(z, x, src, stride, i, j, n, p); break;
      case 4: tile<4>(z, x, src, stride, i, j, n, p); break;
      case 3: tile<3>(z, x, src, stride, i, j, n, p); break;
      case 2: tile<2>(z, x, src, stride, i, j, n, p); break;
      case 1: tile<1>(z, x, src, stride, i, j, n, p); break;
      default: break;
    }
  }
}

}  // namespace kernels
}  // namespace edgecl
