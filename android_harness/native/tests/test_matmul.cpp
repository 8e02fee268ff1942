// The tiled float32 matrix product (kernels/matmul.cpp) against the portable kernel's naive loop:
// byte-identical on shapes around every blocking edge (row tiles of 1..6, 8- and 16-wide column
// blocks, the k passes of 512 and the packed blocks of 1024 columns), with negative zeros, on the
// ABI the binary is built for (AVX2 or the default clone on x86_64, NEON on arm64).
#include <cstring>
#include <vector>

#include "matmul.h"
#include "rng.h"
#include "unit.h"

namespace {

std::vector<float> values(edgecl::Stream& s, int64_t count) {
  std::vector<float> v(static_cast<size_t>(count));
  for (auto& f : v) {
    const uint64_t r = s.next();
    f = (r & 7) == 0 ? -0.0f : static_cast<float>(static_cast<int64_t>(r >> 40) - (1 << 23)) / 1048576.0f;
  }
  return v;
}

}  // namespace

TEST(matmul_tiles_equal_the_naive_loop) {
  edgecl::Stream s(3, edgecl::Purpose::kEpoch, 0, 0);
  const int64_t shapes[][3] = {{0, 4, 5},   {3, 0, 7},    {4, 6, 0},   {1, 1, 1},    {1, 7, 3},    {5, 3, 8},
                               {6, 9, 9},   {7, 5, 16},   {11, 13, 17}, {12, 2, 24},  {13, 31, 33}, {20, 180, 20},
                               {2, 520, 5}, {9, 1030, 40}, {7, 3, 1030}, {8, 600, 1041}, {40, 16, 2050}};
  for (const auto& sh : shapes) {
    const int64_t m = sh[0], n = sh[1], p = sh[2];
    const std::vector<float> x = values(s, m * n), y = values(s, n * p);
    std::vector<float> want(static_cast<size_t>(m * p), 1.0f), got(static_cast<size_t>(m * p), 2.0f);
    edgecl::kernels::matmul_naive_f32(want.data(), x.data(), y.data(), m, n, p);
    edgecl::kernels::matmul_f32(got.data(), x.data(), y.data(), m, n, p);
    CHECK(std::memcmp(want.data(), got.data(), sizeof(float) * want.size()) == 0);
  }
}
