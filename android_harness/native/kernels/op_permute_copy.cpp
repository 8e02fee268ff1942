/*
 * Copyright (c) Meta Platforms, Inc. and affiliates.
 * All rights reserved.
 *
 * This source code is licensed under the BSD-style license found in the
 * LICENSE file in the root directory of this source tree.
 *
 * edgecl: ExecuTorch's portable permute_copy (third_party/executorch/kernels/portable/cpu/op_permute_copy.cpp at cff6f4dd32)
 * with an incremental-offset copy loop instead of per-element coordinate arithmetic (dims that are one
 * input run merged, a transposed plane copied in tiles): the same values.
 * The build compiles this file instead of the portable one.
 */


#include <algorithm>
#include <cstring>

#include <c10/util/irange.h>
#include <executorch/kernels/portable/cpu/util/copy_ops_util.h>
#include <executorch/runtime/kernel/kernel_includes.h>

namespace torch {
namespace executor {
namespace native {

using SizesType = executorch::aten::SizesType;
using Tensor = executorch::aten::Tensor;
using IntArrayRef = executorch::aten::ArrayRef<int64_t>;

namespace {

struct Bytes16 {
  uint64_t lo, hi;
};

/// out [rows, cols] = the input plane at `src` whose (i, j) element is src[i + j * stride], in 8 x 8
/// tiles: a tile's reads and writes each stay within eight cache lines (row by row, the reads of one
/// output row would touch `cols` lines).
template <typename T>
void transpose_plane(const T* src, T* dst, size_t rows, size_t cols, size_t stride) {
  constexpr size_t kTile = 8;
  for (size_t i0 = 0; i0 < rows; i0 += kTile) {
    const size_t i1 = std::min(rows, i0 + kTile);
    for (size_t j0 = 0; j0 < cols; j0 += kTile) {
      const size_t j1 = std::min(cols, j0 + kTile);
      for (size_t i = i0; i < i1; ++i) {
        for (size_t j = j0; j < j1; ++j) {
          dst[i * cols + j] = src[i + j * stride];
        }
      }
    }
  }
}

/// Copies `in` permuted into `out`, elements moved as `T` (an unsigned type of the element's size).
/// A block is the last output dim (a strided run, or memcpy at stride 1), or the last two when they
/// transpose an input plane (transpose_plane); an odometer walks the dims before it.
template <typename T>
void permute_elements(const Tensor& in, Tensor& out, size_t ndim, const size_t* out_sizes, const size_t* in_strides) {
  const T* const in_data = static_cast<const T*>(in.const_data_ptr());
  T* dst = static_cast<T*>(out.mutable_data_ptr());
  if (ndim == 0) {
    dst[0] = in_data[0];
    return;
  }
  const size_t last = ndim - 1;
  const size_t inner = out_sizes[last];
  const size_t inner_stride = in_strides[last];
  const bool transpose = ndim >= 2 && in_strides[last - 1] == 1 && inner_stride != 1;
  const size_t rows = transpose ? out_sizes[last - 1] : 1;
  const ssize_t outer = static_cast<ssize_t>(ndim) - (transpose ? 2 : 1);
  size_t index[kTensorDimensionLimit] = {0};
  size_t offset = 0;
  while (true) {
    const T* src = in_data + offset;
    if (transpose) {
      transpose_plane(src, dst, rows, inner, inner_stride);
    } else if (inner_stride == 1) {
      std::memcpy(dst, src, inner * sizeof(T));
    } else {
      for (size_t j = 0; j < inner; ++j) {
        dst[j] = src[j * inner_stride];
      }
    }
    dst += rows * inner;
    ssize_t d = outer - 1;
    for (; d >= 0; --d) {
      offset += in_strides[d];
      if (++index[d] < out_sizes[d]) {
        break;
      }
      offset -= in_strides[d] * out_sizes[d];
      index[d] = 0;
    }
    if (d < 0) {
      break;
    }
  }
}

} // namespace



Tensor& permute_copy_out(
    KernelRuntimeContext& ctx,
    const Tensor& in,
    IntArrayRef dims,
    Tensor& out) {
  (void)ctx;

  ET_KERNEL_CHECK(
      ctx, check_permute_copy_args(in, dims, out), InvalidArgument, out);

  ET_KERNEL_CHECK(
      ctx, tensors_have_same_dim_order(in, out), InvalidArgument, out);

  Tensor::SizesType expected_out_size[kTensorDimensionLimit];
  size_t expected_out_dim = 0;
  get_permute_copy_out_target_size(
      in, dims, expected_out_size, &expected_out_dim);
  ET_KERNEL_CHECK(
      ctx,
      resize_tensor(out, {expected_out_size, expected_out_dim}) == Error::Ok,
      InvalidArgument,
      out);

  // edgecl: the output is written in order; the input offset follows from the permuted
  // strides, kept incrementally (an odometer over all but the last output dim, a strided inner
  // loop over the last one). The same copy, without per-element coordinate arithmetic, moving each
  // element as bytes of its size (one instantiation per size, not per dtype: the same bits).
  size_t trailing_dims_memo[kTensorDimensionLimit];
  executorch::runtime::memoizeTrailingDims(in, trailing_dims_memo);
  const size_t ndim = static_cast<size_t>(in.dim());
  size_t out_sizes[kTensorDimensionLimit];
  size_t in_strides[kTensorDimensionLimit];
  for (size_t d = 0; d < ndim; ++d) {
    const size_t src = dims[d] >= 0 ? dims[d] : dims[d] + in.dim();
    out_sizes[d] = in.size(src);
    in_strides[d] = trailing_dims_memo[src];
  }
  // Output dims that are one run of the input (d's stride spans all of d + 1) merge into one.
  size_t merged = 0;
  for (size_t d = 1; d < ndim; ++d) {
    if (out_sizes[d] == 1) {
      continue;  // one index: no stride
    }
    if (out_sizes[merged] == 1 || in_strides[merged] == out_sizes[d] * in_strides[d]) {
      out_sizes[merged] *= out_sizes[d];
      in_strides[merged] = in_strides[d];
    } else {
      ++merged;
      out_sizes[merged] = out_sizes[d];
      in_strides[merged] = in_strides[d];
    }
  }
  const size_t dims_left = ndim == 0 ? 0 : merged + 1;
  if (out.numel() == 0) {
    return out;
  }
  switch (in.element_size()) {
    case 1:
      permute_elements<uint8_t>(in, out, dims_left, out_sizes, in_strides);
      break;
    case 2:
      permute_elements<uint16_t>(in, out, dims_left, out_sizes, in_strides);
      break;
    case 4:
      permute_elements<uint32_t>(in, out, dims_left, out_sizes, in_strides);
      break;
    case 8:
      permute_elements<uint64_t>(in, out, dims_left, out_sizes, in_strides);
      break;
    case 16:
      permute_elements<Bytes16>(in, out, dims_left, out_sizes, in_strides);
      break;
    default:
      ET_KERNEL_CHECK_MSG(ctx, false, InvalidArgument, out, "permute_copy.out: unsupported element size");
  }

  return out;
}

} // namespace native
} // namespace executor
} // namespace torch
