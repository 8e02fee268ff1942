/*
 * Copyright (c) Meta Platforms, Inc. and affiliates.
 * All rights reserved.
 *
 * This source code is licensed under the BSD-style license found in the
 * LICENSE file in the root directory of this source tree.
 *
 * edgecl: ExecuTorch's portable bmm (third_party/executorch/kernels/portable/cpu/op_bmm.cpp at cff6f4dd32)
 * with its matrix product replaced by edgecl::kernels::matmul (same per-element summation order,
 * bit-identical results, vectorizable), and a product the runner registered as sparse
 * (sparse_dispatch.h, keyed by the output's TensorImpl) run by edgecl's sparse kernels on each
 * matrix of the batch (same bits), its sparse operand read from the batch's first matrix. The build
 * compiles this file instead of the portable one.
 */


#include <executorch/kernels/portable/cpu/util/matmul_ops_util.h>
#include <executorch/runtime/kernel/kernel_includes.h>

#include "matmul.h"
#include "sparse_dispatch.h"

namespace torch {
namespace executor {
namespace native {

using Tensor = executorch::aten::Tensor;

namespace {

/// internal::bmm_out_impl with each batch's product done by edgecl::kernels::matmul.
template <typename CTYPE>
void bmm_real(const Tensor& in, const Tensor& mat2, Tensor& out) {
  const CTYPE* in_data = in.const_data_ptr<CTYPE>();
  const CTYPE* mat2_data = mat2.const_data_ptr<CTYPE>();
  CTYPE* out_data = out.mutable_data_ptr<CTYPE>();
  const int64_t batch_size = in.size(0);
  const int64_t m = in.size(1);
  const int64_t n = in.size(2);
  const int64_t p = mat2.size(2);
  for (int64_t b = 0; b < batch_size; ++b) {
    edgecl::kernels::matmul<CTYPE>(out_data + b * m * p, in_data + b * m * n, mat2_data + b * n * p, m, n, p);
  }
}

} // namespace

Tensor& bmm_out(
    KernelRuntimeContext& ctx,
    const Tensor& in,
    const Tensor& mat2,
    Tensor& out) {
  ET_KERNEL_CHECK(ctx, check_bmm_args(in, mat2, out), InvalidArgument, out);

  ET_KERNEL_CHECK(
      ctx, tensors_have_same_dim_order(in, mat2, out), InvalidArgument, out);

  ET_KERNEL_CHECK(ctx, tensor_is_default_dim_order(in), InvalidArgument, out);

  size_t output_ndim = 0;
  executorch::aten::SizesType output_sizes[kTensorDimensionLimit];
  get_bmm_out_target_size(in, mat2, output_sizes, &output_ndim);
  ET_KERNEL_CHECK(
      ctx,
      resize_tensor(out, {output_sizes, output_ndim}) == Error::Ok,
      InvalidArgument,
      out);

  // @lint-ignore CLANGTIDY facebook-hte-CArray
  static constexpr const char op_name[] = "bmm.out";

  auto in_type = in.scalar_type();

  if (in_type == ScalarType::Float) {
    if (auto* product = edgecl::kernels::find_sparse_product(out.unsafeGetTensorImpl())) {
      const int64_t m = in.size(1), n = in.size(2), p = mat2.size(2);
      const float* x = in.const_data_ptr<float>();
      const float* y = mat2.const_data_ptr<float>();
      float* z = out.mutable_data_ptr<float>();
      // A sparse operand is one weight expanded over the batch (the runner registers no other): every
      // sample reads the first copy, which stays in cache, instead of its own.
      const bool left = product->kind == edgecl::kernels::SparseProduct::Kind::kLeft;
      const bool right = product->kind == edgecl::kernels::SparseProduct::Kind::kRight;
      for (int64_t b = 0; b < in.size(0); ++b) {
        edgecl::kernels::run_product(*product, z + b * m * p, left ? x : x + b * m * n, right ? y : y + b * n * p, m, n, p,
                                     b);
      }
      return out;
    }
  }

  if (executorch::runtime::isComplexType(in_type)) {
    ET_SWITCH_COMPLEXH_TYPES(in_type, ctx, op_name, CTYPE, [&]() {
      internal::bmm_out_impl<CTYPE>(in, mat2, out);
    });
  } else {
    ET_SWITCH_REALHBF16_TYPES(in_type, ctx, op_name, CTYPE, [&]() {
      bmm_real<CTYPE>(in, mat2, out);
    });
  }

  return out;
}

} // namespace native
} // namespace executor
} // namespace torch
