/*
 * edgecl's matrix product for the portable mm, bmm and addmm kernels.
 *
 * Portable ExecuTorch computes z[i][j] = sum_k x[i][k] * y[k][j] with the naive i-j-k loop: each
 * output element starts at 0 and adds x[i][k] * y[k][j] for k = 0, 1, ..., n-1 in that order.
 * matmul() keeps exactly that per-element order, so its results are bit-identical to the portable
 * kernels (given -ffp-contract=off), but it computes a tile of outputs at once in vector registers
 * (float32) or walks memory i-k-j (other types), which vectorizes.
 */
#pragma once

#include <cstdint>

#include <executorch/runtime/platform/compiler.h>

namespace edgecl {
namespace kernels {

/// Portable ExecuTorch's naive i-j-k product (vec_matmul): the order matmul_f32 must reproduce bit for
/// bit, kept here as the reference the unit case (tests/test_matmul.cpp) and bench/native_matmul.cpp hold it to.
inline void matmul_naive_f32(float* z, const float* x, const float* y, int64_t m, int64_t n, int64_t p) {
  for (int64_t i = 0; i < m; i++) {
    for (int64_t j = 0; j < p; j++) {
      float sum = 0;
      for (int64_t k = 0; k < n; k++) sum += x[i * n + k] * y[k * p + j];
      z[i * p + j] = sum;
    }
  }
}

/// float32 z = x @ y (row-major x [m, n], y [n, p], z [m, p]), register-tiled.
void matmul_f32(float* ET_RESTRICT z, const float* ET_RESTRICT x, const float* ET_RESTRICT y, int64_t m, int64_t n,
                int64_t p);

/// z = x @ y for row-major x [m, n], y [n, p], z [m, p]; z must not alias x or y.
template <typename T>
void matmul(T* ET_RESTRICT z, const T* ET_RESTRICT x, const T* ET_RESTRICT y, int64_t m, int64_t n, int64_t p) {
  for (int64_t i = 0; i < m; ++i) {
    T* ET_RESTRICT zi = z + i * p;
    for (int64_t j = 0; j < p; ++j) {
      zi[j] = static_cast<T>(0);
    }
    for (int64_t k = 0; k < n; ++k) {
      const T a = x[i * n + k];
      const T* ET_RESTRICT yk = y + k * p;
      for (int64_t j = 0; j < p; ++j) {
        zi[j] += a * yk[j];
      }
    }
  }
}

template <>
inline void matmul<float>(float* ET_RESTRICT z, const float* ET_RESTRICT x, const float* ET_RESTRICT y, int64_t m,
                          int64_t n, int64_t p) {
  matmul_f32(z, x, y, m, n, p);
}

}  // namespace kernels
}  // namespace edgecl
