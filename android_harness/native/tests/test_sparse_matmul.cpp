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
// {64, 40, 24}: z's rows hold 8 live entries or more at density 0.5, the by-row order; {4, 0, 5}: no k;
// {40, 256, 24} and {300, 1024, 16}: rows a multiple of 1 KB long, the sampled product's streams copied
// to a wider stride (by column; by row).
const int64_t kShapes[][3] = {{1, 1, 1},      {3, 7, 5},      {6, 9, 32},    {7, 13, 70},  {16, 9, 784},
                              {32, 144, 196}, {100, 784, 32}, {32, 400, 400}, {10, 100, 33}, {5, 600, 17},
                              {40, 30, 130},  {300, 900, 10}, {64, 40, 24},  {4, 0, 5},   {40, 256, 24}, {300, 1024, 16}};
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

TEST(sparse_pattern_counts_alone_agree_with_the_entries_and_complete_to_them) {
  edgecl::Stream s(9, edgecl::Purpose::kEpoch, 1, 0);
  for (double d : {0.0, 0.1, 0.5, 1.0}) {
    for (int kind = 0; kind < 4; ++kind) {
      const auto f = flags(s, 37, 53, d, kind);
      const SparsePattern full = SparsePattern::from_flags(f.data(), 37, 53);
      const SparsePattern counts = SparsePattern::from_flags(f.data(), 37, 53, false);
      CHECK(full.has_entries && !counts.has_entries && counts.col.empty() && counts.t_col.empty());
      CHECK(counts.row_ptr == full.row_ptr && counts.rectangular == full.rectangular);
      CHECK(counts.live_rows == full.live_rows && counts.live_cols == full.live_cols);
      int64_t nnz = 0;
      for (int64_t i = 0; i < 37; ++i) {
        for (int64_t j = 0; j < 53; ++j) {
          if (!f[i * 53 + j]) continue;
          CHECK(full.col[static_cast<size_t>(nnz)] == j && full.row_ptr[i] <= nnz && nnz < full.row_ptr[i + 1]);
          ++nnz;
        }
      }
      CHECK(full.nnz() == nnz && static_cast<int64_t>(full.t_col.size()) == nnz);
      SparsePattern completed = counts;
      completed.add_entries(f.data());
      CHECK(completed.has_entries && completed.col == full.col && completed.t_row_ptr == full.t_row_ptr &&
            completed.t_col == full.t_col);
    }
  }
}

namespace {

/// A stride-1 convolution's columns over a padded [c, hp, wp] input with kh x kw taps: rows (c, i, j),
/// one segment per output row y at y * wp (the in-place form), and the same matrix copied (im2col).
struct Windows {
  int64_t c, hp, wp, kh, kw;
  int64_t ho() const { return hp - kh + 1; }
  int64_t wo() const { return wp - kw + 1; }
  int64_t rows() const { return c * kh * kw; }
  std::vector<int64_t> row_off() const {
    std::vector<int64_t> r;
    for (int64_t ch = 0; ch < c; ++ch)
      for (int64_t i = 0; i < kh; ++i)
        for (int64_t j = 0; j < kw; ++j) r.push_back(ch * hp * wp + i * wp + j);
    return r;
  }
  std::vector<int64_t> seg_off() const {
    std::vector<int64_t> s;
    for (int64_t y = 0; y < ho(); ++y) s.push_back(y * wp);
    return s;
  }
  std::vector<float> copied(const std::vector<float>& x) const {
    std::vector<float> cols;
    for (int64_t r : row_off())
      for (int64_t so : seg_off())
        for (int64_t xo = 0; xo < wo(); ++xo) cols.push_back(x[static_cast<size_t>(r + so + xo)]);
    return cols;
  }
};

// 3x3 taps giving output rows (segments) of 32, 24, 16, 14 (two vectors sharing two columns), 10, 8
// and 7 (narrower than a vector), and a 1-D convolution (one output row of 61). Segments of 8 to 32
// run in groups of 8 / (vectors a segment); each 2-D case leaves segments outside a whole group.
const Windows kWindows[] = {{3, 33, 34, 3, 3}, {2, 25, 26, 3, 3}, {5, 17, 18, 3, 3}, {3, 16, 16, 3, 3},
                            {4, 12, 12, 3, 3}, {2, 13, 10, 3, 3}, {2, 9, 9, 3, 3},    {6, 1, 63, 1, 3}};

}  // namespace

TEST(sparse_products_read_columns_in_place_with_the_same_bits) {
  edgecl::Stream s(5, edgecl::Purpose::kEpoch, 4, 0);
  for (const Windows& win : kWindows) {
    const std::vector<float> x = values(s, win.c * win.hp * win.wp);
    const std::vector<float> cols = win.copied(x);
    const auto ro = win.row_off();
    const auto so = win.seg_off();
    const edgecl::kernels::Columns direct{x.data(), ro.data(), so.data(), 0, win.wo(), win.ho()};
    const int64_t k = win.rows(), p = win.ho() * win.wo();
    for (double d : {0.05, 0.1, 0.5, 1.0}) {
      // 7 or 20 outputs: the weight gradient's columns in tiles of one to four entry vectors
      for (int kind = 0; kind < 8; ++kind) {
        const int64_t m = kind < 4 ? 7 : 20;
        std::vector<float> a = values(s, m * k);
        const auto f = flags(s, m, k, d, kind % 4);
        zero_dead(&a, f);
        const SparsePattern pa = SparsePattern::from_flags(f.data(), m, k);
        std::vector<float> want(static_cast<size_t>(m * p)), got(static_cast<size_t>(m * p), 3.0f);
        edgecl::kernels::matmul_f32(want.data(), a.data(), cols.data(), m, k, p);
        edgecl::kernels::spmm_left_direct(got.data(), a.data(), pa, direct, m, k);
        CHECK(same_bits(want, got));
        // The weight gradient: z [k, m] = cols [k, p] @ g [p, m] on a pattern of z.
        const std::vector<float> g = values(s, p * m);
        const auto fz = flags(s, k, m, d, kind % 4);
        const SparsePattern pz = SparsePattern::from_flags(fz.data(), k, m);
        std::vector<float> zw(static_cast<size_t>(k * m), 3.0f), zd(static_cast<size_t>(k * m), 3.0f);
        edgecl::kernels::sddmm(zw.data(), cols.data(), g.data(), pz, k, p, m);
        edgecl::kernels::sddmm_direct(zd.data(), direct, g.data(), pz, k, p, m);
        CHECK(same_bits(zw, zd));
      }
    }
  }
}
