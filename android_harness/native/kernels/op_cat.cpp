/*
 * Copyright (c) Meta Platforms, Inc. and affiliates.
 * All rights reserved.
 *
 * This source code is licensed under the BSD-style license found in the
 * LICENSE file in the root directory of this source tree.
 *
 * edgecl: ExecuTorch's portable cat (third_party/executorch/kernels/portable/cpu/op_cat.cpp at cff6f4dd32)
 * with a same-dtype fast path (byte copies from sources resolved once, the dtype switch out of the
 * loop, a one-float-per-input interleave loop, vectorized for two inputs): the same bytes.
 * The build compiles this file instead of the portable one.
 */


#include <cstring>

#include <executorch/kernels/portable/cpu/util/copy_ops_util.h>
#include <executorch/runtime/kernel/kernel_includes.h>

#include "float_vectors.h"

namespace torch {
namespace executor {
namespace native {

using Tensor = executorch::aten::Tensor;

namespace {
constexpr size_t kSmallChunkBytes = 64;
constexpr size_t kMaxFastInputs = 64;  // more inputs: the portable path below

/// out[2i] = a[i], out[2i + 1] = b[i]: `stack` of two on the last dim (a 2-wide pooling window's
/// gradient), four pairs at a time by lane shuffles (unpcklps / unpckhps, zip1 / zip2).
void interleave2(float* out, const float* a, const float* b, size_t count) {
  using edgecl::kernels::ivec4;
  using edgecl::kernels::load4;
  using edgecl::kernels::store4;
  size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    const auto x = load4(a + i), y = load4(b + i);
    store4(out + 2 * i, __builtin_shuffle(x, y, ivec4{0, 4, 1, 5}));
    store4(out + 2 * i + 4, __builtin_shuffle(x, y, ivec4{2, 6, 3, 7}));
  }
  for (; i < count; ++i) {
    out[2 * i] = a[i];
    out[2 * i + 1] = b[i];
  }
}
} // namespace

Tensor& cat_out(
    KernelRuntimeContext& ctx,
    executorch::aten::ArrayRef<Tensor> tensors,
    int64_t dim,
    Tensor& out) {
  if (dim < 0) {
    dim += out.dim();
  }

  ET_KERNEL_CHECK(ctx, check_cat_args(tensors, dim, out), InvalidArgument, out);

  Tensor::SizesType expected_out_size[kTensorDimensionLimit];
  size_t expected_out_dim = 0;
  get_cat_out_target_size(tensors, dim, expected_out_size, &expected_out_dim);

  ET_KERNEL_CHECK(
      ctx,
      resize_tensor(out, {expected_out_size, expected_out_dim}) == Error::Ok,
      InvalidArgument,
      out);

  // Special handling when all inputs are 1D-empty tensors for aten consistency
  // In that case, just return an 1D-empty tensor without checking dim
  bool all_1d_empty = true;
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (tensors[i].numel() != 0 || tensors[i].dim() != 1) {
      all_1d_empty = false;
      break;
    }
  }
  if (all_1d_empty) {
    return out;
  }

  const size_t outer = getLeadingDims(out, dim);
  const size_t dim_stride = getTrailingDims(out, dim);
  const size_t ninputs = tensors.size();

  const auto out_type = out.scalar_type();

  // edgecl: every input of out's dtype (the common case): byte copies, without a dtype switch per
  // chunk, from sources resolved once (not through each Tensor per chunk). Chunks of an interleave
  // (`stack` on the last dim: one float per input) or a pad column are a few bytes: copied inline.
  bool all_out_type = ninputs <= kMaxFastInputs;
  for (size_t j = 0; j < ninputs && all_out_type; ++j) {
    all_out_type = tensors[j].scalar_type() == out_type;
  }
  if (all_out_type) {
    const size_t element_size = out.element_size();
    const char* src[kMaxFastInputs];
    size_t bytes[kMaxFastInputs];
    size_t n = 0;
    bool all_one_float = element_size == 4;
    for (size_t j = 0; j < ninputs; ++j) {
      if (tensors[j].numel() == 0) {
        continue;
      }
      src[n] = tensors[j].const_data_ptr<char>();
      bytes[n] = tensors[j].size(dim) * dim_stride * element_size;
      all_one_float = all_one_float && bytes[n] == 4;
      ++n;
    }
    char* out_bytes = out.mutable_data_ptr<char>();
    if (all_one_float && n == 2) {
      interleave2(reinterpret_cast<float*>(out_bytes), reinterpret_cast<const float*>(src[0]),
                  reinterpret_cast<const float*>(src[1]), outer);
      return out;
    }
    if (all_one_float) {
      float* o = reinterpret_cast<float*>(out_bytes);
      for (size_t i = 0; i < outer; ++i) {
        for (size_t j = 0; j < n; ++j) {
          std::memcpy(o++, src[j] + 4 * i, 4);
        }
      }
      return out;
    }
    for (size_t i = 0; i < outer; ++i) {
      for (size_t j = 0; j < n; ++j) {
        const size_t inner_bytes = bytes[j];
        const char* in_bytes = src[j] + i * inner_bytes;
        if (element_size == 4 && inner_bytes <= kSmallChunkBytes) {
          for (size_t b = 0; b < inner_bytes; b += 4) {
            std::memcpy(out_bytes + b, in_bytes + b, 4);
          }
        } else {
          std::memcpy(out_bytes, in_bytes, inner_bytes);
        }
        out_bytes += inner_bytes;
      }
    }
    return out;
  }

  const bool out_is_complex =
      executorch::runtime::isComplexType(out.scalar_type());

  // @lint-ignore CLANGTIDY facebook-hte-CArray
  static constexpr const char op_name[] = "cat.out";

  if (out_is_complex) {
    // TODO: The current support for complex dtype enforces that input and
    // output tensors have the same dtype. Support mixed dtypes in the future.
    for (size_t i = 0; i < ninputs; ++i) {
      const auto in_type = tensors[i].scalar_type();
      ET_KERNEL_CHECK(ctx, out_type == in_type, InvalidArgument, out);
    }
    ET_SWITCH_COMPLEXH_TYPES(out_type, ctx, op_name, CTYPE, [&] {
      CTYPE* out_ptr = out.mutable_data_ptr<CTYPE>();
      for (size_t i = 0; i < outer; ++i) {
        for (size_t j = 0; j < ninputs; ++j) {
          if (tensors[j].numel() == 0) {
            return;
          }
          size_t inner = tensors[j].size(dim) * dim_stride;
          const CTYPE* const in_ptr =
              tensors[j].const_data_ptr<CTYPE>() + i * inner;
          memcpy(out_ptr, in_ptr, inner * sizeof(CTYPE));
          out_ptr += inner;
        }
      }
    });
  } else {
    ET_SWITCH_REALHBBF16_TYPES(out_type, ctx, op_name, CTYPE_OUT, [&] {
      CTYPE_OUT* out_ptr = out.mutable_data_ptr<CTYPE_OUT>();
      for (size_t i = 0; i < outer; ++i) {
        for (size_t j = 0; j < ninputs; ++j) {
          const auto in_type = tensors[j].scalar_type();
          ET_SWITCH_REALHBBF16_TYPES(in_type, ctx, op_name, CTYPE_IN, [&] {
            if (tensors[j].numel() == 0) {
              return;
            }
            size_t inner = tensors[j].size(dim) * dim_stride;
            const CTYPE_IN* const in_ptr =
                tensors[j].const_data_ptr<CTYPE_IN>() + i * inner;

            if (sizeof(CTYPE_IN) == sizeof(CTYPE_OUT)) {
              memcpy(out_ptr, in_ptr, inner * sizeof(CTYPE_IN));
            } else {
              for (size_t k = 0; k < inner; ++k) {
                out_ptr[k] = static_cast<CTYPE_OUT>(in_ptr[k]);
              }
            }
            out_ptr += inner;
          });
        }
      }
    });
  }

  return out;
}

} // namespace native
} // namespace executor
} // namespace torch
