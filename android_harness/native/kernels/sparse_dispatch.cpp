#include "sparse_dispatch.h"

#include <chrono>
#include <mutex>
#include <unordered_map>

#include "matmul.h"

namespace edgecl {
namespace kernels {
namespace {

/// Programs load and unload on the server's threads; kernels look up on the running one.
std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}

std::unordered_map<const void*, SparseProduct*>& registry() {
  static std::unordered_map<const void*, SparseProduct*> r;
  return r;
}

}  // namespace

void register_sparse_product(const void* key, SparseProduct* product) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry()[key] = product;
}

void unregister_sparse_product(const void* key) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry().erase(key);
}

SparseProduct* find_sparse_product(const void* key) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  auto it = registry().find(key);
  return it == registry().end() ? nullptr : it->second;
}

void run_product(SparseProduct& product, float* z, const float* x, const float* y, int64_t m, int64_t n, int64_t p) {
  const auto t0 = product.timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
  const SparsePattern* pat = product.pattern;
  ProductStats& s = product.stats;
  s.dense_flops += 2.0 * static_cast<double>(m * n * p);
  if (product.use_dense || pat == nullptr) {
    matmul_f32(z, x, y, m, n, p);
    ++s.dense_calls;
    s.nonzero_flops += 2.0 * static_cast<double>(m * n * p);
  } else {
    ++s.sparse_calls;
    const double nnz = static_cast<double>(pat->nnz());
    switch (product.kind) {
      case SparseProduct::Kind::kLeft:
        spmm_left(z, x, *pat, y, m, n, p);
        s.nonzero_flops += 2.0 * nnz * static_cast<double>(p);
        break;
      case SparseProduct::Kind::kRight:
        spmm_right(z, x, y, *pat, m, n, p);
        s.nonzero_flops += 2.0 * nnz * static_cast<double>(m);
        break;
      case SparseProduct::Kind::kOutput:
        sddmm(z, x, y, *pat, m, n, p);
        s.nonzero_flops += 2.0 * nnz * static_cast<double>(n);
        break;
    }
  }
  if (product.timed) s.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace kernels
}  // namespace edgecl
