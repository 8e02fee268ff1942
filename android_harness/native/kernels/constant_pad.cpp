/*
 * The native constant_pad_nd kernel: a float32 tensor padded on its last one or two dims (a
 * convolution's input: 60 pads a resnet18_reduced step) is copied row by row (fill, memcpy, fill)
 * instead of through the portable kernel's per-dimension recursion, which cost more than the copy.
 * Only when `out` already has the padded shape and every pad is >= 0 (no crop); otherwise
 * ExecuTorch's portable kernel runs, compiled as portable_constant_pad_nd_out (Makefile: WRAPPED).
 * The same bytes: the input's, and the fill value converted as the portable kernel converts it.
 */
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include <executorch/runtime/kernel/kernel_includes.h>

#include "elementwise.h"

namespace torch {
namespace executor {
namespace native {

using executorch::aten::IntArrayRef;
using executorch::aten::Scalar;
using executorch::aten::Tensor;
using executorch::runtime::KernelRuntimeContext;

__attribute__((weak)) Tensor& portable_constant_pad_nd_out(KernelRuntimeContext& ctx, const Tensor& in, IntArrayRef pad,
                                                           const Scalar& value, Tensor& out);

namespace {

/// The fill value as float, where the portable kernel's overflow-checked cast gives the same float;
/// false for a value it would refuse or that is not a number of float's range.
bool fill_value(const Scalar& value, float* out) {
  if (value.isIntegral(/*includeBool=*/false)) {
    *out = static_cast<float>(value.to<int64_t>());
    return true;
  }
  if (!value.isFloatingPoint()) return false;
  const double v = value.to<double>();
  if (!std::isfinite(v) || std::fabs(v) > std::numeric_limits<float>::max()) return false;
  *out = static_cast<float>(v);
  return true;
}

/// Whether `out` is `in` padded by `pad` (left, right of the last dim, then of the one before), every
/// pad >= 0, on at most the last two dims.
bool padded_shape(const Tensor& in, IntArrayRef pad, const Tensor& out) {
  const size_t np = pad.size();
  if ((np != 2 && np != 4) || static_cast<ssize_t>(np / 2) > in.dim() || in.dim() != out.dim()) return false;
  for (size_t k = 0; k < np; ++k) {
    if (pad[k] < 0) return false;
  }
  for (ssize_t d = 0; d < in.dim(); ++d) {
    const size_t from_last = static_cast<size_t>(in.dim() - 1 - d);
    const int64_t extra = from_last < np / 2 ? pad[2 * from_last] + pad[2 * from_last + 1] : 0;
    if (out.size(d) != in.size(d) + extra) return false;
  }
  return true;
}

}  // namespace

Tensor& constant_pad_nd_out(KernelRuntimeContext& ctx, const Tensor& in, IntArrayRef pad, const Scalar& value,
                            Tensor& out) {
  float fill = 0.0f;
  if (!edgecl::kernels::flat_float(in) || !edgecl::kernels::flat_float(out) || in.numel() == 0 ||
      !padded_shape(in, pad, out) || !fill_value(value, &fill)) {
    return portable_constant_pad_nd_out(ctx, in, pad, value, out);
  }
  const int64_t w = in.size(in.dim() - 1), h = pad.size() == 4 ? in.size(in.dim() - 2) : 1;
  const int64_t left = pad[0], right = pad[1], top = pad.size() == 4 ? pad[2] : 0,
                bottom = pad.size() == 4 ? pad[3] : 0;
  const int64_t ow = w + left + right, planes = in.numel() / (h * w);
  const float* src = in.const_data_ptr<float>();
  float* dst = out.mutable_data_ptr<float>();
  for (int64_t p = 0; p < planes; ++p) {
    dst = std::fill_n(dst, top * ow, fill);
    for (int64_t r = 0; r < h; ++r, src += w) {
      dst = std::fill_n(dst, left, fill);
      std::memcpy(dst, src, sizeof(float) * static_cast<size_t>(w));
      dst = std::fill_n(dst + w, right, fill);
    }
    dst = std::fill_n(dst, bottom * ow, fill);
  }
  return out;
}

}  // namespace native
}  // namespace executor
}  // namespace torch
