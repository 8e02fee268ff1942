// Driver of bench/native_matmul.py: portable ExecuTorch's naive i-j-k matrix product (vec_matmul,
// edgecl::kernels::matmul_naive_f32) vs edgecl::kernels::matmul_f32 on the shapes the exported programs multiply; prints one
// JSON line per shape with both times and whether the results are byte-identical.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "matmul.h"

namespace {

template <typename F>
double best_us(F f, int reps) {
  double best = 1e30;
  for (int round = 0; round < 3; ++round) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) f();
    best = std::min(best, std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / reps);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  std::mt19937 gen(1);
  std::normal_distribution<float> dist;
  for (int a = 1; a + 2 < argc; a += 3) {
    const int64_t m = std::atoi(argv[a]), n = std::atoi(argv[a + 1]), p = std::atoi(argv[a + 2]);
    std::vector<float> x(m * n), y(n * p), z1(m * p), z2(m * p);
    for (auto& v : x) v = dist(gen);
    for (auto& v : y) v = dist(gen);
    const int reps = 1 + static_cast<int>(4000000 / std::max<int64_t>(1, m * n * p));
    const double t_naive = best_us([&] { edgecl::kernels::matmul_naive_f32(z1.data(), x.data(), y.data(), m, n, p); }, reps);
    const double t_tiled = best_us([&] { edgecl::kernels::matmul_f32(z2.data(), x.data(), y.data(), m, n, p); }, reps);
    std::printf("{\"m\": %ld, \"n\": %ld, \"p\": %ld, \"naive_us\": %.2f, \"tiled_us\": %.2f, \"identical\": %s}\n",
                (long)m, (long)n, (long)p, t_naive, t_tiled,
                std::memcmp(z1.data(), z2.data(), sizeof(float) * m * p) == 0 ? "true" : "false");
  }
}
