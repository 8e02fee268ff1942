/*
 * The native mean.out kernel: a float32 mean over trailing dims of a contiguous tensor (a global
 * average pool: dims {2, 3} of a [N, C, H, W] map) sums each output's elements in memory order, the
 * order the portable kernel's reduction plan visits them (the first element, then + each next one,
 * then / the count), instead of walking that plan's index arithmetic per element, which cost more
 * than the sum (2.3 ns an element). Only when `out` already has the reduced shape; otherwise, and
 * for a reduction over one innermost dim (the portable kernel's own loop, which starts from +0),
 * ExecuTorch's portable kernel runs, compiled as portable_mean_dim_out (Makefile: WRAPPED).
 */
#include <optional>

#include <executorch/runtime/kernel/kernel_includes.h>

#include "elementwise.h"

namespace torch {
namespace executor {
namespace native {

using executorch::aten::ArrayRef;
using executorch::aten::ScalarType;
using executorch::aten::Tensor;
using executorch::runtime::KernelRuntimeContext;

__attribute__((weak)) Tensor& portable_mean_dim_out(KernelRuntimeContext& ctx, const Tensor& in,
                                                    std::optional<ArrayRef<int64_t>> dim_list, bool keepdim,
                                                    std::optional<ScalarType> dtype, Tensor& out);

namespace {

/// The number of trailing dims `dim_list` names (each once, at least two of them), or 0.
ssize_t trailing_dims(const Tensor& in, ArrayRef<int64_t> dim_list) {
  const ssize_t nd = in.dim();
  const ssize_t k = static_cast<ssize_t>(dim_list.size());
  if (k < 2 || k > nd) return 0;
  bool seen[kTensorDimensionLimit] = {};
  for (int64_t d : dim_list) {
    const int64_t n = d < 0 ? d + nd : d;
    if (n < nd - k || n >= nd || seen[n]) return 0;
    seen[n] = true;
  }
  return k;
}

/// Whether `out` is `in` reduced over its last `k` dims (kept as size 1 when `keepdim`).
bool reduced_shape(const Tensor& in, ssize_t k, bool keepdim, const Tensor& out) {
  const ssize_t lead = in.dim() - k;
  if (out.dim() != (keepdim ? in.dim() : lead)) return false;
  for (ssize_t d = 0; d < out.dim(); ++d) {
    if (out.size(d) != (d < lead ? in.size(d) : 1)) return false;
  }
  return true;
}

}  // namespace

Tensor& mean_dim_out(KernelRuntimeContext& ctx, const Tensor& in, std::optional<ArrayRef<int64_t>> dim_list,
                     bool keepdim, std::optional<ScalarType> dtype, Tensor& out) {
  const ssize_t k = dim_list.has_value() ? trailing_dims(in, dim_list.value()) : 0;
  if (k == 0 || in.numel() == 0 || (dtype.has_value() && dtype.value() != ScalarType::Float) ||
      !edgecl::kernels::flat_float(in) || !edgecl::kernels::flat_float(out) || !reduced_shape(in, k, keepdim, out)) {
    return portable_mean_dim_out(ctx, in, dim_list, keepdim, dtype, out);
  }
  const int64_t count = in.numel() / out.numel();
  const float denom = static_cast<float>(count);
  const float* x = in.const_data_ptr<float>();
  float* z = out.mutable_data_ptr<float>();
  for (int64_t i = 0; i < out.numel(); ++i, x += count) {
    float acc = x[0];
    for (int64_t j = 1; j < count; ++j) acc = acc + x[j];
    z[i] = acc / denom;
  }
  return out;
}

}  // namespace native
}  // namespace executor
}  // namespace torch
