// The sparse products (kernels/sparse_matmul.cpp) against the dense tiled product with the same
// zeros: byte-identical on random masks at densities 0 to 1, with empty rows and columns, channel
// (rectangular) masks, negative zeros and live entries that are exactly zero; the weight-gradient
// product differs from dense-then-mask only in the sign of the masked entries' zeros (+0 here).
#include <cmath>
#include <cstring>
#include <vector>

#include "matmul.h"
#include "rng.h"
#include "sparse_matmul.h"
#include "unit.h"

namespace {

using edgecl::kernels::SparsePattern;

std::vector<float> values(edgecl::Stream& s, int64_t count) {
  std::vector<float> v(static_cast<size_t>(count));
  for (auto& f : v) {
    const uint64_t r = s.next();
    f = (r & 15) == 0 ? -0.0f : (r & 15) == 1 ? 0.0f : static_cast<float>(static_cast<int64_t>(r >> 40) - (1 << 23)) / 1048576.0f;
  }
  return v;
}

/// Flags of a [rows, cols] mask: density d at random, or (kind 1) whole rows, (kind 2) whole
/// columns, (kind 3) random with every other row empty.
std::vector<uint8_t> flags(edgecl::Stream& s, int64_t rows, int64_t cols, double d, int kind) {
  std::vector<uint8_t> f(static_cast<size_t>(rows * cols));
  std::vector<uint8_t> row_live(static_cast<size_t>(rows)), col_live(static_cast<size_t>(cols));
  for (auto& r : row_live) r = s.below(1000) < d * 1000;
  for (auto& c : col_live) c = s.below(1000) < d * 1000;
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) {
      const bool random = s.below(1000) < d * 1000;
      f[i * cols + j] = kind == 1 ? row_live[i] : kind == 2 ? col_live[j] : kind == 3 ? (i % 2 == 0 && random) : random;
    }
  }
  return f;
}

void zero_dead(std::vector<float>* v, const std::vector<uint8_t>& f) {
  for (size_t i = 0; i < v->size(); ++i) {
    if (!f[i]) (*v)[i] *= 0.0f;  // +-0, as w * mask gives
  }
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(float) * a.size()) == 0;
}

// {300, 900, 10}: the sampled product's streams exceed its cache slice (k runs in two passes);
// {64, 40, 24}: z's rows hold 8 live entries or more at density 0.5, the by-row order; {4, 0, 5}: no k.
const int64_t kShapes[][3] = {{1, 1, 1},      {3, 7, 5},      {6, 9, 32},    {7, 13, 70},  {16, 9, 784},
                              {32, 144, 196}, {100, 784, 32}, {32, 400, 400}, {10, 100, 33}, {5, 600, 17},
                              {40, 30, 130},  {300, 900, 10}, {64, 40, 24},  {4, 0, 5}};
const double kDensities[] = {0.0, 0.05, 0.1, 0.25, 0.5, 0.9, 1.0};

}  // namespace

TEST(sparse_left_equals_dense) {
  edgecl::Stream s(5, edgecl::Purpose::kEpoch, 1, 0);
  for (const auto& sh : kShapes) {
    const int64_t m = sh[0], n = sh[1], p = sh[2];
    for (double d : kDensities) {
      for (int kind = 0; kind < 4; ++kind) {
        std::vector<float> a = values(s, m * n);
        const std::vector<float> b = values(s, n * p);
        const auto f = flags(s, m, n, d, kind);
        zero_dead(&a, f);
        const SparsePattern pat = SparsePattern::from_flags(f.data(), m, n);
        std::vector<float> want(static_cast<size_t>(m * p)), got(static_cast<size_t>(m * p), 3.0f);
        edgecl::kernels::matmul_f32(want.data(), a.data(), b.data(), m, n, p);
        edgecl::kernels::spmm_left(got.data(), a.data(), pat, b.data(), m, n, p);
        CHECK(same_bits(want, got));
      }
    }
  }
}

TEST(sparse_right_equals_dense) {
  edgecl::Stream s(5, edgecl::Purpose::kEpoch, 2, 0);
  for (const auto& sh : kShapes) {
    const int64_t m = sh[0], n = sh[1], p = sh[2];
    for (double d : kDensities) {
      for (int kind = 0; kind < 4; ++kind) {
        const std::vector<float> a = values(s, m * n);
        std::vector<float> b = values(s, n * p);
        const auto f = flags(s, n, p, d, kind);
        zero_dead(&b, f);
        const SparsePattern pat = SparsePattern::from_flags(f.data(), n, p);
        std::vector<float> want(static_cast<size_t>(m * p)), got(static_cast<size_t>(m * p), 3.0f);
        edgecl::kernels::matmul_f32(want.data(), a.data(), b.data(), m, n, p);
        edgecl::kernels::spmm_right(got.data(), a.data(), b.data(), pat, m, n, p);
        CHECK(same_bits(want, got));
      }
    }
  }
}

TEST(sparse_output_equals_dense_then_mask) {
  edgecl::Stream s(5, edgecl::Purpose::kEpoch, 3, 0);
  for (const auto& sh : kShapes) {
    const int64_t m = sh[0], n = sh[1], p = sh[2];
    for (double d : kDensities) {
      for (int kind = 0; kind < 4; ++kind) {
        const std::vector<float> a = values(s, m * n), b = values(s, n * p);
        const auto f = flags(s, m, p, d, kind);
        const SparsePattern pat = SparsePattern::from_flags(f.data(), m, p);
        std::vector<float> dense(static_cast<size_t>(m * p)), got(static_cast<size_t>(m * p), 3.0f);
        edgecl::kernels::matmul_f32(dense.data(), a.data(), b.data(), m, n, p);
        edgecl::kernels::sddmm(got.data(), a.data(), b.data(), pat, m, n, p);
        for (size_t e = 0; e < dense.size(); ++e) {
          if (f[e]) {
            CHECK(std::memcmp(&dense[e], &got[e], sizeof(float)) == 0);
          } else {
            const float masked = dense[e] * 0.0f;  // the dense path: +-0
            CHECK(masked == 0.0f && !std::signbit(got[e]) && got[e] == 0.0f);
          }
        }
      }
    }
  }
}

TEST(sparse_pattern_finds_rectangles) {
  const uint8_t rows[] = {1, 1, 1, 0, 0, 0, 1, 1, 1};  // rows 0 and 2 live
  const SparsePattern r = SparsePattern::from_flags(rows, 3, 3);
  CHECK(r.rectangular && r.live_rows.size() == 2 && r.live_cols.size() == 3 && r.nnz() == 6);
  const uint8_t diag[] = {1, 0, 0, 1};
  const SparsePattern d = SparsePattern::from_flags(diag, 2, 2);
  CHECK(!d.rectangular && d.nnz() == 2);
  const uint8_t none[] = {0, 0, 0, 0};
  const SparsePattern z = SparsePattern::from_flags(none, 2, 2);
  CHECK(z.rectangular && z.nnz() == 0 && z.density() == 0.0);
}
