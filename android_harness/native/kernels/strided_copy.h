/*
 * edgecl: the copy loop behind the native expand_copy, as_strided_copy and flip kernels.
 *
 * Each op is a gather of the input at (up to 16) per-dimension element strides (0 on a broadcast,
 * negative on a flip) into a contiguous output. The innermost output dimension is a run: memcpy
 * when its stride is 1, one value repeated when it is 0, a strided loop otherwise; the outer
 * dimensions advance an odometer, so there is no per-row recursion or coordinate arithmetic per
 * element (the portable kernels spent more on those than on the bytes of an im2col, a pooling tap
 * or a flipped weight). Bytes only: the output is the same bytes.
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
