/*
 * Which matrix products run sparse: edgecl's mm and bmm kernels look up the TensorImpl of their
 * output (one per value of a loaded program, so one per instruction) in a registry the runner fills
 * when it loads a program (src/sparse_plan.h), and run a registered product with the sparse kernels
 * of sparse_matmul.h, counting and timing every call per product. A product whose dense side is a
 * convolution's im2col copy may read the copy's source in place instead; the as_strided_copy kernel
 * skips a registered copy while every reader does.
 */
#pragma once

#include <cstdint>
#include <vector>

#include "sparse_matmul.h"

namespace edgecl {
namespace kernels {

/// Calls and work of one product since the runner last reset them.
struct ProductStats {
  int64_t sparse_calls = 0, dense_calls = 0;
  double seconds = 0.0;
  double nonzero_flops = 0.0, dense_flops = 0.0;  // 2 per multiply-add: live entries only / every entry
};

/// A convolution's columns read from the copy's source: one matrix of a batch at
/// source + batch * batch_stride, laid out as `columns` says (its data the first matrix's).
struct DirectColumns {
  const float* source = nullptr;
  int64_t batch_stride = 0;
  std::vector<int64_t> row_off, seg_off;
  int64_t seg_len = 0;

  Columns at(int64_t batch) const;
};

struct SparseProduct {
  /// Which operand is sparse: the left (a masked weight times activations), the right, or the
  /// output (a weight gradient a mask multiplies next).
  enum class Kind { kLeft, kRight, kOutput };
  Kind kind = Kind::kLeft;
  const SparsePattern* pattern = nullptr;  // of one matrix of the batch; null: run dense
  bool use_dense = true;                   // the dense kernel (sparse execution off, or denser than the crossover)
  const DirectColumns* direct = nullptr;   // the dense side (kLeft's right, kOutput's left) read in place
  bool timed = false;
  ProductStats stats;
};

/// `key`: the TensorImpl of the product's output. The runner owns `product` until it unregisters it.
void register_sparse_product(const void* key, SparseProduct* product);
void unregister_sparse_product(const void* key);
/// The product registered for `key`, or null.
SparseProduct* find_sparse_product(const void* key);

/// z [m, p] = x [m, n] @ y [n, p] (matrix `batch` of a batch) as `product` says; counts (and times)
/// the call. A sparse product with `direct` set reads its dense side from there, not from x or y.
void run_product(SparseProduct& product, float* z, const float* x, const float* y, int64_t m, int64_t n, int64_t p,
                 int64_t batch);

/// An im2col copy whose readers may all read its source in place: skipped while `*skip` holds.
void register_elided_copy(const void* key, const bool* skip);
void unregister_elided_copy(const void* key);
/// Whether the copy whose output is `key` is skipped now.
bool copy_elided(const void* key);

}  // namespace kernels
}  // namespace edgecl
