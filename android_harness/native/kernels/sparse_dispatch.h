/*
 * Which matrix products run sparse: edgecl's mm and bmm kernels look up the TensorImpl of their
 * output (one per value of a loaded program, so one per instruction) in a registry the runner fills
 * when it loads a program (src/sparse_plan.h), and run a registered product with the sparse kernels
 * of sparse_matmul.h, counting and timing every call per product.
 */
#pragma once

#include <cstdint>

#include "sparse_matmul.h"

namespace edgecl {
namespace kernels {

/// Calls and work of one product since the runner last reset them.
struct ProductStats {
  int64_t sparse_calls = 0, dense_calls = 0;
  double seconds = 0.0;
  double nonzero_flops = 0.0, dense_flops = 0.0;  // 2 per multiply-add: live entries only / every entry
};

struct SparseProduct {
  /// Which operand is sparse: the left (a masked weight times activations), the right, or the
  /// output (a weight gradient a mask multiplies next).
  enum class Kind { kLeft, kRight, kOutput };
  Kind kind = Kind::kLeft;
  const SparsePattern* pattern = nullptr;  // of one matrix of the batch; null: run dense
  bool use_dense = true;                   // the dense kernel (sparse execution off, or denser than the crossover)
  bool timed = false;
  ProductStats stats;
};

/// `key`: the TensorImpl of the product's output. The runner owns `product` until it unregisters it.
void register_sparse_product(const void* key, SparseProduct* product);
void unregister_sparse_product(const void* key);
/// The product registered for `key`, or null.
SparseProduct* find_sparse_product(const void* key);

/// z [m, p] = x [m, n] @ y [n, p] (one matrix of a batch) as `product` says; counts (and times) the call.
void run_product(SparseProduct& product, float* z, const float* x, const float* y, int64_t m, int64_t n, int64_t p);

}  // namespace kernels
}  // namespace edgecl
