/*
 * Copyright (c) Meta Platforms, Inc. and affiliates.
 * All rights reserved.
 *
 * This source code is licensed under the BSD-style license found in the
 * LICENSE file in the root directory of this source tree.
 *
 * edgecl: ExecuTorch's portable expand_copy (third_party/executorch/kernels/portable/cpu/op_expand_copy.cpp
 * at cff6f4dd32), the same checks, with the copy done by strided_copy (stride 0 on broadcast
 * dimensions) instead of repeat_tensor: the same bytes. The build compiles this file instead.
 */


#include <executorch/kernels/portable/cpu/scalar_utils.h>
#include <executorch/kernels/portable/cpu/util/copy_ops_util.h>
#include <executorch/runtime/kernel/kernel_includes.h>

#include <cstring>

#include "strided_copy.h"

namespace torch {
namespace executor {
namespace native {

using Tensor = executorch::aten::Tensor;
using ScalarType = executorch::aten::ScalarType;
using Scalar = executorch::aten::Scalar;
using SizesType = executorch::aten::SizesType;

constexpr const size_t kTensorDimensionLimit{16};


Tensor& expand_copy_out(
    KernelRuntimeContext& ctx,
    const Tensor& self,
    ArrayRef<int64_t> expand_sizes,
    bool implicit,
    Tensor& out) {
  (void)ctx;

  ET_KERNEL_CHECK(
      ctx,
      check_expand_copy_args(self, expand_sizes, implicit, out),
      InvalidArgument,
      out);

  const auto& self_sizes = self.sizes();

  // Holds the result of converting -1 to the original dim sizes
  executorch::aten::SizesType output_sizes[kTensorDimensionLimit];
  size_t output_rank = 0;
  ET_KERNEL_CHECK(
      ctx,
      get_expand_copy_out_target_size(
          self_sizes, expand_sizes, output_sizes, &output_rank),
      InvalidArgument,
      out);

  ET_KERNEL_CHECK(
      ctx,
      resize_tensor(out, {output_sizes, output_rank}) == Error::Ok,
      InvalidArgument,
      out);

  ET_KERNEL_CHECK(
      ctx, tensors_have_same_dim_order(self, out), InvalidArgument, out);
  ET_KERNEL_CHECK(ctx, tensor_is_default_dim_order(self), InvalidArgument, out);

  // Element strides of self on out's dimensions: 0 where self is broadcast (missing or size 1).
  const size_t nd = out.dim();
  const size_t lead = nd - self.dim();
  int64_t sizes[kTensorDimensionLimit], strides[kTensorDimensionLimit];
  int64_t step = 1;
  for (size_t k = nd; k-- > 0;) {
    sizes[k] = out.size(k);
    if (k < lead) {
      strides[k] = 0;
      continue;
    }
    const int64_t s = self.size(k - lead);
    strides[k] = (s == 1 && sizes[k] != 1) ? 0 : step;
    step *= s;
  }
  edgecl::kernels::strided_copy(
      self.const_data_ptr<char>(), out.mutable_data_ptr<char>(), sizes, strides, nd, out.element_size());

  return out;
}

} // namespace native
} // namespace executor
} // namespace torch
