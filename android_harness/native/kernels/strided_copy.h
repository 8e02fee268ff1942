/*
 * edgecl: the copy loop behind the native expand_copy, as_strided_copy, flip and permute_copy kernels.
 *
 * Each op is a gather of the input at (up to 16) per-dimension element strides (0 on a broadcast,
 * negative on a flip, permuted on a permute) into a contiguous output. Dimensions that are one run of
 * the input merge. The innermost output dimension is a run: memcpy when its stride is 1, one value
 * repeated when it is 0, a strided loop otherwise; where the last two transpose an input plane (a
 * permute's [.., C, HW] -> [.., HW, C]) they are copied in 8 x 8 tiles instead, so neither the reads nor
 * the writes stride through memory. The outer dimensions advance an odometer, so there is no per-row
 * recursion or coordinate arithmetic per element (the portable kernels spent more on those than on the
 * bytes of an im2col, a pooling tap, a flipped weight or a transpose). Bytes only: the output is the
 * same bytes.
 */
#pragma once

#include <cstddef>
#include <cstdint>

namespace edgecl {
namespace kernels {

/** Copy `out[i0..in-1] = in[sum_k ik * stride[k]]` (strides in elements) for every index of `sizes`
 * (row-major, `ndim` <= 16) into the contiguous `out`; `elem` is the element size in bytes. Any size 0:
 * nothing to copy. */
void strided_copy(const char* in, char* out, const int64_t* sizes, const int64_t* strides, size_t ndim,
                  size_t elem);

}  // namespace kernels
}  // namespace edgecl
