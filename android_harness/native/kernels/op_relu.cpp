/*
 * Copyright (c) Meta Platforms, Inc. and affiliates.
 * All rights reserved.
 *
 * This source code is licensed under the BSD-style license found in the
 * LICENSE file in the root directory of this source tree.
 *
 * edgecl: ExecuTorch's portable relu (third_party/executorch/kernels/portable/cpu/op_relu.cpp at cff6f4dd32)
 * with a float32 fast path (elementwise.h): x for NaN and x >= 0, else +0, one flat vector loop, the same bits.
 * The build compiles this file instead of the portable one.
 */

#include <cmath>

#include <executorch/kernels/portable/cpu/util/functional_util.h>
#include <executorch/kernels/portable/cpu/util/math_util.h>
#include <executorch/runtime/kernel/kernel_includes.h>

#include "elementwise.h"
#include <executorch/runtime/platform/assert.h>

namespace torch {
namespace executor {
namespace native {

using Tensor = executorch::aten::Tensor;
using ScalarType = executorch::aten::ScalarType;

Tensor& relu_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  (void)ctx;

  // Resize for dynamic shape
  ET_KERNEL_CHECK_MSG(
      ctx,
      resize_tensor(out, in.sizes()) == Error::Ok,
      InvalidArgument,
      out,
      "Failed to resize output tensor.");

  ET_KERNEL_CHECK(
      ctx, tensors_have_same_shape_and_dtype(in, out), InvalidArgument, out);

  ET_KERNEL_CHECK(
      ctx,
      executorch::runtime::tensor_is_realhbf16_type(out),
      InvalidArgument,
      out);

  ET_KERNEL_CHECK(
      ctx, tensors_have_same_dim_order(in, out), InvalidArgument, out);

  if (edgecl::kernels::flat_float(in) && edgecl::kernels::flat_float(out)) {
    // x < 0 is false for NaN and -0: those pass through, as in the portable (isnan || x >= 0)
    edgecl::kernels::map1(in, out, [](auto x) {
      const decltype(x) zero{};
      return edgecl::kernels::pick(x < zero, zero, x);
    });
    return out;
  }

  ET_SWITCH_REALHBF16_TYPES(in.scalar_type(), ctx, "relu.out", CTYPE, [&]() {
    apply_unary_map_fn(
        [](const CTYPE val_in) {
          return (utils::isnan_override(val_in) || val_in >= CTYPE(0))
              ? val_in
              : CTYPE(0);
        },
        in.const_data_ptr<CTYPE>(),
        out.mutable_data_ptr<CTYPE>(),
        in.numel());
  });

  return out;
}

} // namespace native
} // namespace executor
} // namespace torch
