/*
 * Copyright (c) Meta Platforms, Inc. and affiliates.
 * All rights reserved.
 *
 * This source code is licensed under the BSD-style license found in the
 * LICENSE file in the root directory of this source tree.
 *
 * edgecl: ExecuTorch's portable sum (third_party/executorch/kernels/portable/cpu/op_sum.cpp at
 * cff6f4dd32) with one more fast path: float32 over any set of dims of a contiguous tensor, in one
 * linear pass. Each output is the generic path's ((x0 + x1) + x2) + ... over its elements in
 * increasing input index; starting the accumulator at -0.0 (the exact additive identity) instead
 * of x0 gives the same bits. The build compiles this file instead of the portable one.
 */

#include <c10/util/irange.h>

#include <type_traits>

#include <executorch/kernels/portable/cpu/util/reduce_util.h>
#include <executorch/runtime/kernel/kernel_includes.h>
#include <executorch/runtime/platform/assert.h>

#include <optional>

namespace torch {
namespace executor {
namespace native {

using Tensor = executorch::aten::Tensor;
using ScalarType = executorch::aten::ScalarType;

namespace {

/// Sums float32 `in` (contiguous) over the dims flagged in `reduced` into `out` (kept dims in
/// order), visiting the input in increasing index order.
void sum_float_linear(const Tensor& in, const bool* reduced, Tensor& out) {
  const int64_t ndim = in.dim();
  int64_t sizes[kTensorDimensionLimit];
  int64_t out_strides[kTensorDimensionLimit];
  int64_t stride = 1;
  for (int64_t d = ndim - 1; d >= 0; --d) {
    sizes[d] = in.size(d);
    out_strides[d] = reduced[d] ? 0 : stride;
    stride *= reduced[d] ? 1 : sizes[d];
  }
  float* acc = out.mutable_data_ptr<float>();
  const int64_t out_numel = out.numel();
  for (int64_t i = 0; i < out_numel; ++i) {
    acc[i] = -0.0f;
  }
  const float* x = in.const_data_ptr<float>();
  const int64_t inner = sizes[ndim - 1];
  const bool inner_reduced = reduced[ndim - 1];
  int64_t index[kTensorDimensionLimit] = {0};
  int64_t o = 0;
  const int64_t rows = in.numel() / inner;
  for (int64_t r = 0; r < rows; ++r) {
    if (inner_reduced) {
      float a = acc[o];
      for (int64_t j = 0; j < inner; ++j) {
        a += x[j];
      }
      acc[o] = a;
    } else {
      float* ET_RESTRICT dst = acc + o;
      for (int64_t j = 0; j < inner; ++j) {
        dst[j] += x[j];
      }
    }
    x += inner;
    for (int64_t d = ndim - 2; d >= 0; --d) {
      o += out_strides[d];
      if (++index[d] < sizes[d]) {
        break;
      }
      o -= out_strides[d] * sizes[d];
      index[d] = 0;
    }
  }
}

} // namespace

Tensor& sum_dim_out(
    KernelRuntimeContext& ctx,
    const Tensor& in,
    optional<ArrayRef<int64_t>> dim_list,
    bool keepdim,
    optional<ScalarType> dtype,
    Tensor& out) {
  (void)ctx;

  ET_KERNEL_CHECK(
      ctx,
      check_reduction_args(in, dim_list, keepdim, dtype, out),
      InvalidArgument,
      out);

  ET_KERNEL_CHECK(
      ctx,
      resize_reduction_out(in, dim_list, keepdim, out) == Error::Ok,
      InvalidArgument,
      out);

  ET_KERNEL_CHECK(
      ctx, tensors_have_same_dim_order(in, out), InvalidArgument, out);

  ET_KERNEL_CHECK(ctx, tensor_is_default_dim_order(in), InvalidArgument, out);

  // Fast path: contiguous tensor, single innermost dim reduction, same dtype.
  // Bypasses generic MapReduceOverDimListPlan to use a tight vectorizable loop.
  if (in.numel() > 0 && dim_list.has_value() && dim_list.value().size() == 1 &&
      !executorch::runtime::isComplexType(in.scalar_type()) &&
      in.scalar_type() == out.scalar_type()) {
    const int64_t d = dim_list.value()[0] < 0 ? dim_list.value()[0] + in.dim()
                                              : dim_list.value()[0];
    if (d >= 0 && d < in.dim() && d == in.dim() - 1 &&
        tensor_is_contiguous(in)) {
      const int64_t reduce_size = in.size(d);
      const int64_t outer_size = in.numel() / reduce_size;

      // @lint-ignore CLANGTIDY facebook-hte-CArray
      static constexpr const char op_name[] = "sum.IntList_out";
      // For half-precision inputs, accumulate in float to avoid saturation.
      // Matches ATen's acc_type behavior. See also op_grid_sampler_2d.cpp.
      ET_SWITCH_REALHBBF16_TYPES(in.scalar_type(), ctx, op_name, CTYPE, [&] {
        using ACC = std::conditional_t<
            std::is_same_v<CTYPE, executorch::aten::Half> ||
                std::is_same_v<CTYPE, executorch::aten::BFloat16>,
            float,
            CTYPE>;
        const CTYPE* in_data = in.const_data_ptr<CTYPE>();
        CTYPE* out_data = out.mutable_data_ptr<CTYPE>();
        for (int64_t i = 0; i < outer_size; i++) {
          const CTYPE* row = in_data + i * reduce_size;
          ACC acc = 0;
          for (int64_t j = 0; j < reduce_size; j++) {
            acc += row[j];
          }
          out_data[i] = static_cast<CTYPE>(acc);
        }
      });
      return out;
    }
  }

  // edgecl: float32 over any dims of a contiguous tensor, in one pass (see the file header).
  if (in.numel() > 0 && in.dim() > 0 && in.scalar_type() == ScalarType::Float &&
      out.scalar_type() == ScalarType::Float && tensor_is_contiguous(in)) {
    bool reduced[kTensorDimensionLimit] = {false};
    const bool all = !dim_list.has_value() || dim_list.value().empty();
    for (int64_t d = 0; d < in.dim(); ++d) {
      reduced[d] = all;
    }
    if (!all) {
      for (const int64_t d : dim_list.value()) {
        reduced[d < 0 ? d + in.dim() : d] = true;
      }
    }
    sum_float_linear(in, reduced, out);
    return out;
  }

  std::optional<MapReduceOverDimListPlan> plan;
  if (in.numel() > 0) {
    plan.emplace(in, dim_list);
  }
  // @lint-ignore CLANGTIDY facebook-hte-CArray
  static constexpr const char op_name[] = "sum.IntList_out";

  if (executorch::runtime::isComplexType(in.scalar_type())) {
    ET_KERNEL_CHECK(
        ctx, in.scalar_type() == out.scalar_type(), InvalidArgument, out);

    ET_SWITCH_COMPLEXH_TYPES(in.scalar_type(), ctx, op_name, CTYPE, [&] {
      CTYPE* out_data = out.mutable_data_ptr<CTYPE>();
      const bool success = parallel_for_each_reduce_over_dim_list_output_index(
          in, dim_list, out, [&](const auto begin, const auto end) {
            for (const auto out_ix : c10::irange(begin, end)) {
              CTYPE sum(0, 0);
              if (plan.has_value()) {
                sum = plan->execute<CTYPE, CTYPE>(
                    [](CTYPE v) { return v; },
                    [](CTYPE outv, CTYPE acc) { return acc + outv; },
                    out_ix);
              }
              out_data[out_ix] = sum;
            }
          });
      ET_KERNEL_CHECK_MSG(ctx, success, Internal, , "parallel_for failed");
    });
  } else {
    ET_SWITCH_REALHBBF16_TYPES(in.scalar_type(), ctx, op_name, CTYPE_IN, [&] {
      ET_SWITCH_REALHBBF16_TYPES(
          out.scalar_type(), ctx, op_name, CTYPE_OUT, [&] {
            using ACC = std::conditional_t<
                std::is_same_v<CTYPE_OUT, executorch::aten::Half> ||
                    std::is_same_v<CTYPE_OUT, executorch::aten::BFloat16>,
                float,
                CTYPE_OUT>;
            CTYPE_OUT* out_data = out.mutable_data_ptr<CTYPE_OUT>();
            const bool success =
                parallel_for_each_reduce_over_dim_list_output_index(
                    in, dim_list, out, [&](const auto begin, const auto end) {
                      for (const auto out_ix : c10::irange(begin, end)) {
                        ACC sum = 0;
                        if (plan.has_value()) {
                          sum = plan->execute<CTYPE_IN, ACC>(
                              [](CTYPE_IN v) { return static_cast<ACC>(v); },
                              [](ACC outv, ACC acc) { return acc + outv; },
                              out_ix);
                        }
                        out_data[out_ix] = static_cast<CTYPE_OUT>(sum);
                      }
                    });
            ET_KERNEL_CHECK_MSG(
                ctx, success, Internal, , "parallel_for failed");
          });
    });
  }

  return out;
}

} // namespace native
} // namespace executor
} // namespace torch
