/*
 * Copyright (c) Meta Platforms, Inc. and affiliates.
 * All rights reserved.
 *
 * This source code is licensed under the BSD-style license found in the
 * LICENSE file in the root directory of this source tree.
 *
 * edgecl: ExecuTorch's portable sign (third_party/executorch/kernels/portable/cpu/op_sign.cpp at
 * cff6f4dd32) with a float32 fast path (elementwise.h). Same values: 1 for x > 0, -1 for x < 0,
 * +0 for either zero (the portable (x > 0) - (x < 0) gives +0 for -0 too), NaN passed through.
 * The build compiles this file instead of the portable one.
 */


#include <cmath>
#include <cstring>

#include <executorch/kernels/portable/cpu/util/functional_util.h>
#include <executorch/kernels/portable/cpu/util/math_util.h>
#include <executorch/runtime/kernel/kernel_includes.h>
#include <executorch/runtime/platform/assert.h>

#include "elementwise.h"

namespace torch {
namespace executor {
namespace native {

using executorch::aten::Tensor;

Tensor& sign_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  (void)ctx;

  // Resize for dynamic shape
  ET_KERNEL_CHECK_MSG(
      ctx,
      resize_tensor(out, in.sizes()) == Error::Ok,
      InvalidArgument,
      out,
      "Failed to resize output tensor.");

  ET_KERNEL_CHECK(
      ctx, tensors_have_same_dim_order(in, out), InvalidArgument, out);

  ET_KERNEL_CHECK(
      ctx, tensors_have_same_shape_and_dtype(in, out), InvalidArgument, out);

  if (edgecl::kernels::flat_float(in) && edgecl::kernels::flat_float(out)) {
    edgecl::kernels::map1(in, out, [](auto x) {
      const decltype(x) zero{}, one = zero + 1.0f;
      using edgecl::kernels::pick;
      return pick(x > zero, one, pick(x < zero, -one, pick(x != x, x, zero)));
    });
    return out;
  }

  if (in.scalar_type() == executorch::aten::ScalarType::Bool) {
    memcpy(out.mutable_data_ptr(), in.const_data_ptr(), in.nbytes());
  } else {
    ET_SWITCH_REALHBF16_TYPES(in.scalar_type(), ctx, "sign.out", CTYPE, [&] {
      apply_unary_map_fn(
          [](const CTYPE val_in) {
            if (utils::isnan_override(val_in)) {
              return val_in;
            } else {
              return static_cast<CTYPE>((val_in > 0) - (val_in < 0));
            }
          },
          in.const_data_ptr<CTYPE>(),
          out.mutable_data_ptr<CTYPE>(),
          in.numel());
    });
  }

  return out;
}

} // namespace native
} // namespace executor
} // namespace torch
