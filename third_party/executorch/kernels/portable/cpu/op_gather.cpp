/*
 * Copyright (c) Meta Platforms, Inc. and affiliates.
 * All rights reserved.
 *
 * This source code is licensed under the BSD-style license found in the
 * LICENSE file in the root directory of this source tree.
 */

#include <c10/util/irange.h>
#include <cinttypes>
#include <cstdint>
#include <cstring>

#include <executorch/kernels/portable/cpu/util/index_util.h>
#include <executorch/runtime/kernel/kernel_includes.h>

namespace torch {
namespace executor {
namespace native {

using Tensor = executorch::aten::Tensor;
using ScalarType = executorch::aten::ScalarType;

namespace {

template <typename CTYPE>
void gather_helper(
    const Tensor& in,
    const Tensor& index,
    Tensor& out,
    int64_t dim) {
  const CTYPE* in_data = in.const_data_ptr<CTYPE>();
  const int64_t* index_data = index.const_data_ptr<int64_t>();
  CTYPE* out_data = out.mutable_data_ptr<CTYPE>();

  if (index.dim() == 0) {
    out_data[0] = in_data[index_data[0]];
    return;
  }

  for (const auto ix : c10::irange(index.numel())) {
    size_t ix_coord[kTensorDimensionLimit];
    indexToCoordinate(index, ix, ix_coord);

    size_t in_coord[kTensorDimensionLimit];
    for (const auto i : c10::irange(out.dim())) {
      if (i == dim) {
        in_coord[i] = index_data[ix];
      } else {
        in_coord[i] = ix_coord[i];
      }
    }

    size_t in_ix = coordinateToIndex(in, in_coord);
    size_t out_ix = coordinateToIndex(out, ix_coord);

    out_data[out_ix] = in_data[in_ix];
  }
}

} // namespace

Tensor& gather_out(
    KernelRuntimeContext& ctx,
    const Tensor& in,
    int64_t dim,
    const Tensor& index,
    bool sparse_grad,
    Tensor& out) {
  (void)ctx;

  ET_KERNEL_CHECK(
      ctx,
      check_gather_args(in, dim, index, sparse_grad, out),
      InvalidArgument,
      out);

  if (dim < 0) {
    dim += nonzero_dim(in);
  }

  ET_KERNEL_CHECK(
      ctx,
      resize_tensor(out, index.sizes()) == Error::Ok,
      InvalidArgument,
      out);

  static constexpr auto name = "gather.out";

  ET_SWITCH_REALHBBF16_TYPES(in.scalar_type(), ctx, name, CTYPE, [&]() {
    gather_helper<CTYPE>(in, index, out, dim);
  });

  return out;
}

} // namespace native
} // namespace executor
} // namespace torch
