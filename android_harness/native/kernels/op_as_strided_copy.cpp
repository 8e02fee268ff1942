/*
 * Copyright (c) Meta Platforms, Inc. and affiliates.
 * All rights reserved.
 *
 * This source code is licensed under the BSD-style license found in the
 * LICENSE file in the root directory of this source tree.
 *
 * edgecl: ExecuTorch's portable as_strided_copy (third_party/executorch/kernels/portable/cpu/
 * op_as_strided_copy.cpp at cff6f4dd32), the same checks, with the copy done by strided_copy (runs
 * and an odometer) instead of a per-row recursion: the same bytes; a copy the runner registered as
 * elided (sparse_dispatch.h: every reader reads its source in place) is not made. The build compiles
 * this file instead.
 */


#include <executorch/kernels/portable/cpu/util/copy_ops_util.h>
#include <executorch/runtime/kernel/kernel_includes.h>

#include "sparse_dispatch.h"
#include "strided_copy.h"

namespace torch {
namespace executor {
namespace native {

using Tensor = executorch::aten::Tensor;
using ScalarType = executorch::aten::ScalarType;

Tensor& as_strided_copy_out(
    KernelRuntimeContext& ctx,
    const Tensor& in,
    ArrayRef<int64_t> size,
    ArrayRef<int64_t> stride,
    optional<int64_t> storage_offset,
    Tensor& out) {
  (void)ctx;

  ET_KERNEL_CHECK(
      ctx,
      check_as_strided_copy_args(in, size, stride, storage_offset, out),
      InvalidArgument,
      out);

  ET_KERNEL_CHECK(
      ctx,
      resize_tensor(out, size) == torch::executor::Error::Ok,
      InvalidArgument,
      out);

  ET_KERNEL_CHECK(
      ctx, tensors_have_same_dim_order(in, out), InvalidArgument, out);

  ET_KERNEL_CHECK(ctx, tensor_is_default_dim_order(in), InvalidArgument, out);

  if (in.numel() == 0 || edgecl::kernels::copy_elided(out.unsafeGetTensorImpl())) {
    return out;
  }

  size_t offset = storage_offset.has_value() ? storage_offset.value() : 0;

  ET_KERNEL_CHECK(ctx, size.size() <= kTensorDimensionLimit, InvalidArgument, out);
  const size_t elem = in.element_size();
  edgecl::kernels::strided_copy(
      in.const_data_ptr<char>() + offset * elem, out.mutable_data_ptr<char>(), size.data(), stride.data(),
      size.size(), elem);

  return out;
}

} // namespace native
} // namespace executor
} // namespace torch
