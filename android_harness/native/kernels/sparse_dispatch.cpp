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

std::unordered_map<const void*, const bool*>& elided() {
  static std::unordered_map<const void*, const bool*> r;
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

Columns DirectColumns::at(int64_t batch) const {
  return {source + batch * batch_stride, row_off.data(), seg_off.data(), 0, seg_len, static_cast<int64_t>(seg_off.size())};
}

void register_elided_copy(const void* key, const bool* skip) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  elided()[key] = skip;
}

void unregister_elided_copy(const void* key) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  elided().erase(key);
}

bool copy_elided(const void* key) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  auto it = elided().find(key);
  return it != elided().end() && *it->second;
}

void run_product(SparseProduct& product, float* z, const float* x, const float* y, int64_t m, int64_t n, int64_t p,
                 int64_t batch) {
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
        if (product.direct != nullptr) {
          spmm_left_direct(z, x, *pat, product.direct->at(batch), m, n);
        } else {
          spmm_left(z, x, *pat, y, m, n, p);
        }
        s.nonzero_flops += 2.0 * nnz * static_cast<double>(p);
        break;
      case SparseProduct::Kind::kRight:
        spmm_right(z, x, y, *pat, m, n, p);
        s.nonzero_flops += 2.0 * nnz * static_cast<double>(m);
        break;
      case SparseProduct::Kind::kOutput:
        if (product.direct != nullptr) {
          sddmm_direct(z, product.direct->at(batch), y, *pat, m, n, p);
        } else {
          sddmm(z, x, y, *pat, m, n, p);
        }
        s.nonzero_flops += 2.0 * nnz * static_cast<double>(n);
        break;
    }
  }
  if (product.timed) s.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace kernels
}  // namespace edgecl
