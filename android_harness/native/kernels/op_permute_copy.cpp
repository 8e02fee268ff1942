/*
 * Copyright (c) Meta Platforms, Inc. and affiliates.
 * All rights reserved.
 *
 * This source code is licensed under the BSD-style license found in the
 * LICENSE file in the root directory of this source tree.
 *
 * edgecl: ExecuTorch's portable permute_copy (third_party/executorch/kernels/portable/cpu/op_permute_copy.cpp at cff6f4dd32)
 * through edgecl's strided-copy loop (kernels/strided_copy.h) instead of per-element coordinate
 * arithmetic: the same values.
 * The build compiles this file instead of the portable one.
 */


#include <c10/util/irange.h>
#include <executorch/kernels/portable/cpu/util/copy_ops_util.h>
#include <executorch/runtime/kernel/kernel_includes.h>

#include "strided_copy.h"

namespace torch {
namespace executor {
namespace native {

using SizesType = executorch::aten::SizesType;
using Tensor = executorch::aten::Tensor;
using IntArrayRef = executorch::aten::ArrayRef<int64_t>;




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

  // edgecl: a gather of the input at the permuted strides into the contiguous output, through the
  // strided-copy loop the other layout kernels share (kernels/strided_copy.h: runs merged, a
  // transposed plane copied in tiles, elements moved as bytes of their size): the same bits.
  size_t trailing_dims_memo[kTensorDimensionLimit];
  executorch::runtime::memoizeTrailingDims(in, trailing_dims_memo);
  const size_t ndim = static_cast<size_t>(in.dim());
  int64_t out_sizes[kTensorDimensionLimit];
  int64_t in_strides[kTensorDimensionLimit];
  for (size_t d = 0; d < ndim; ++d) {
    const size_t src = dims[d] >= 0 ? dims[d] : dims[d] + in.dim();
    out_sizes[d] = in.size(src);
    in_strides[d] = static_cast<int64_t>(trailing_dims_memo[src]);
  }
  if (out.numel() == 0) {
    return out;
  }
  edgecl::kernels::strided_copy(
      static_cast<const char*>(in.const_data_ptr()), static_cast<char*>(out.mutable_data_ptr()), out_sizes,
      in_strides, ndim, in.element_size());
  return out;
}

} // namespace native
} // namespace executor
} // namespace torch
