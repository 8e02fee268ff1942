/*
 * Copyright (c) Meta Platforms, Inc. and affiliates.
 * All rights reserved.
 *
 * This source code is licensed under the BSD-style license found in the
 * LICENSE file in the root directory of this source tree.
 *
 * edgecl: ExecuTorch's portable mm (third_party/executorch/kernels/portable/cpu/op_mm.cpp at cff6f4dd32)
 * with its matrix product replaced by edgecl::kernels::matmul (same per-element summation order,
 * bit-identical results, vectorizable), and a product the runner registered as sparse
 * (sparse_dispatch.h, keyed by the output's TensorImpl) run by edgecl's sparse kernels (same bits).
 * The build compiles this file instead of the portable one.
 */


#include <executorch/kernels/portable/cpu/util/matmul_ops_util.h>
#include <executorch/kernels/portable/cpu/vec_ops.h>
#include <executorch/runtime/kernel/kernel_includes.h>

#include "matmul.h"
#include "sparse_dispatch.h"

namespace torch {
namespace executor {
namespace native {

using Tensor = executorch::aten::Tensor;

Tensor& mm_out(
    KernelRuntimeContext& ctx,
    const Tensor& in,
    const Tensor& mat2,
    Tensor& out) {
  ET_KERNEL_CHECK(ctx, check_mm_args(in, mat2, out), InvalidArgument, out);

  size_t output_ndim = 0;
  executorch::aten::SizesType output_sizes[kTensorDimensionLimit];
  get_mm_out_target_size(in, mat2, output_sizes, &output_ndim);
  ET_KERNEL_CHECK(
      ctx,
      resize_tensor(out, {output_sizes, output_ndim}) == Error::Ok,
      InvalidArgument,
      out);

  ET_KERNEL_CHECK(
      ctx, tensors_have_same_dim_order(in, mat2, out), InvalidArgument, out);

  ET_KERNEL_CHECK(ctx, tensor_is_default_dim_order(in), InvalidArgument, out);

  if (in.scalar_type() == ScalarType::Float) {
    if (auto* product = edgecl::kernels::find_sparse_product(out.unsafeGetTensorImpl())) {
      edgecl::kernels::run_product(*product, out.mutable_data_ptr<float>(), in.const_data_ptr<float>(),
                                   mat2.const_data_ptr<float>(), in.size(0), in.size(1), mat2.size(1), 0);
      return out;
    }
  }

  ET_SWITCH_REAL_TYPES_AND2(
      Half, BFloat16, in.scalar_type(), ctx, "mm.out", CTYPE, [&]() {
        size_t m = in.size(0);
        size_t n = in.size(1);
        size_t p = mat2.size(1);

        edgecl::kernels::matmul<CTYPE>(
            out.mutable_data_ptr<CTYPE>(),
            in.const_data_ptr<CTYPE>(),
            mat2.const_data_ptr<CTYPE>(),
            m,
            n,
            p);
      });

  return out;
}

} // namespace native
} // namespace executor
} // namespace torch
