/*
 * Copyright (c) Meta Platforms, Inc. and affiliates.
 * All rights reserved.
 *
 * This source code is licensed under the BSD-style license found in the
 * LICENSE file in the root directory of this source tree.
 *
 * edgecl: ExecuTorch's portable permute_copy (third_party/executorch/kernels/portable/cpu/op_permute_copy.cpp at cff6f4dd32)
 * with an incremental-offset copy loop instead of per-element coordinate arithmetic: the same values.
 * The build compiles this file instead of the portable one.
 */


#include <c10/util/irange.h>
#include <executorch/kernels/portable/cpu/util/copy_ops_util.h>
#include <executorch/runtime/kernel/kernel_includes.h>

namespace torch {
namespace executor {
namespace native {

using SizesType = executorch::aten::SizesType;
using Tensor = executorch::aten::Tensor;
using IntArrayRef = executorch::aten::ArrayRef<int64_t>;

namespace {

struct Bytes16 {
  uint64_t lo, hi;
};

/// Copies `in` permuted into `out`, elements moved as `T` (an unsigned type of the element's size).
template <typename T>
void permute_elements(const Tensor& in, Tensor& out, size_t ndim, const size_t* out_sizes, const size_t* in_strides) {
  const T* const in_data = static_cast<const T*>(in.const_data_ptr());
  T* dst = static_cast<T*>(out.mutable_data_ptr());
  if (ndim == 0) {
    dst[0] = in_data[0];
    return;
  }
  const size_t last = ndim - 1;
  const size_t inner = out_sizes[last];
  const size_t inner_stride = in_strides[last];
  size_t index[kTensorDimensionLimit] = {0};
  size_t offset = 0;
  while (true) {
    const T* src = in_data + offset;
    for (size_t j = 0; j < inner; ++j) {
      dst[j] = src[j * inner_stride];
    }
    dst += inner;
    ssize_t d = static_cast<ssize_t>(last) - 1;
    for (; d >= 0; --d) {
      offset += in_strides[d];
      if (++index[d] < out_sizes[d]) {
        break;
      }
      offset -= in_strides[d] * out_sizes[d];
      index[d] = 0;
    }
    if (d < 0) {
      break;
    }
  }
}

} // namespace



Tensor& permute_copy_out(
    KernelRuntimeContext& ctx,
    const Tensor& in,
    IntArrayRef dims,
    Tensor& out) {
  (void)ctx;

  ET_KERNEL_CHECK(
      ctx, check_permute_copy_args(in, dims, out), InvalidArgument, out);

  ET_KERNEL_CHECK(
      ctx, tensors_have_same_dim_order(in, out), InvalidArgument, out);

  Tensor::SizesType expected_out_size[kTensorDimensionLimit];
  size_t expected_out_dim = 0;
  get_permute_copy_out_target_size(
      in, dims, expected_out_size, &expected_out_dim);
  ET_KERNEL_CHECK(
      ctx,
      resize_tensor(out, {expected_out_size, expected_out_dim}) == Error::Ok,
      InvalidArgument,
      out);

  // edgecl: the output is written in order; the input offset follows from the permuted
  // strides, kept incrementally (an odometer over all but the last output dim, a strided inner
  // loop over the last one). The same copy, without per-element coordinate arithmetic, moving each
  // element as bytes of its size (one instantiation per size, not per dtype: the same bits).
  size_t trailing_dims_memo[kTensorDimensionLimit];
  executorch::runtime::memoizeTrailingDims(in, trailing_dims_memo);
  const size_t ndim = static_cast<size_t>(in.dim());
  size_t out_sizes[kTensorDimensionLimit];
  size_t in_strides[kTensorDimensionLimit];
  for (size_t d = 0; d < ndim; ++d) {
    const size_t src = dims[d] >= 0 ? dims[d] : dims[d] + in.dim();
    out_sizes[d] = in.size(src);
    in_strides[d] = trailing_dims_memo[src];
  }
  if (out.numel() == 0) {
    return out;
  }
  switch (in.element_size()) {
    case 1:
      permute_elements<uint8_t>(in, out, ndim, out_sizes, in_strides);
      break;
    case 2:
      permute_elements<uint16_t>(in, out, ndim, out_sizes, in_strides);
      break;
    case 4:
      permute_elements<uint32_t>(in, out, ndim, out_sizes, in_strides);
      break;
    case 8:
      permute_elements<uint64_t>(in, out, ndim, out_sizes, in_strides);
      break;
    case 16:
      permute_elements<Bytes16>(in, out, ndim, out_sizes, in_strides);
      break;
    default:
      ET_KERNEL_CHECK_MSG(ctx, false, InvalidArgument, out, "permute_copy.out: unsupported element size");
  }

  return out;
}

} // namespace native
} // namespace executor
} // namespace torch
