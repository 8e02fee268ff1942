/*
 * Copyright (c) Meta Platforms, Inc. and affiliates.
 * All rights reserved.
 *
 * This source code is licensed under the BSD-style license found in the
 * LICENSE file in the root directory of this source tree.
 *
 * edgecl: ExecuTorch's portable flip (third_party/executorch/kernels/portable/cpu/op_flip.cpp at
 * cff6f4dd32), the same checks, with the copy done by strided_copy (negative strides on the flipped
 * dimensions, from the input's last element along them) instead of a coordinate round trip per
 * element: the same bytes. The build compiles this file instead of the portable one.
 */


#include <c10/util/irange.h>

#include <executorch/kernels/portable/cpu/util/reduce_util.h>
#include <executorch/runtime/kernel/kernel_includes.h>
#include <executorch/runtime/platform/assert.h>

#include "strided_copy.h"

namespace torch {
namespace executor {
namespace native {
namespace {

bool check_flip_args(const Tensor& in, IntArrayRef dims, const Tensor& out) {
  ET_LOG_AND_RETURN_IF_FALSE(tensors_have_same_dtype(in, out));
  return check_dim_list_is_valid(in, dims);
}

} // namespace

Tensor& flip_out(
    KernelRuntimeContext& ctx,
    const Tensor& in,
    IntArrayRef dims,
    Tensor& out) {
  (void)ctx;

  ET_KERNEL_CHECK(
      ctx, resize_tensor(out, in.sizes()) == Error::Ok, InvalidArgument, out);

  ET_KERNEL_CHECK(
      ctx, tensors_have_same_dim_order(in, out), InvalidArgument, out);

  ET_KERNEL_CHECK(ctx, check_flip_args(in, dims, out), InvalidArgument, out);

  bool flip_dim_data[kTensorDimensionLimit];
  for (const auto i : c10::irange(in.dim())) {
    flip_dim_data[i] = false;
  }
  for (const auto i : c10::irange(dims.size())) {
    const auto d = dims[i] < 0 ? dims[i] + nonzero_dim(in) : dims[i];
    flip_dim_data[d] = true;
  }
  // Element strides of the contiguous input, negated on flipped dimensions, starting at the element
  // every flipped dimension reads first (its last).
  int64_t sizes[kTensorDimensionLimit], strides[kTensorDimensionLimit];
  int64_t step = 1, start = 0;
  for (size_t d = in.dim(); d-- > 0;) {
    sizes[d] = in.size(d);
    strides[d] = flip_dim_data[d] ? -step : step;
    if (flip_dim_data[d]) start += (sizes[d] - 1) * step;
    step *= sizes[d];
  }
  const size_t elem = in.element_size();
  edgecl::kernels::strided_copy(
      in.const_data_ptr<char>() + start * static_cast<int64_t>(elem), out.mutable_data_ptr<char>(), sizes,
      strides, in.dim(), elem);

  return out;
}

} // namespace native
} // namespace executor
} // namespace torch
