/*
 * edgecl: the float32 fast path of the native elementwise kernels (elementwise_ops.cpp: add, mul,
 * sub, maximum, relu, sign), over float_vectors.h's four-lane vectors; flat_float also gates the pad and
 * mean fast paths.
 *
 * The portable kernels walk their operands through per-element conversion and broadcast indexing,
 * about 0.35 ns per element here: as much as a sparse convolution's products in a masked CNN's step.
 * When every tensor is float32 in the contiguous dim order and each input has the output's shape
 * (or is one element), the kernel is one flat loop over 4-lane vectors instead. Each lane computes the
 * portable kernel's own expression on the same floats (-ffp-contract=off), so the output is the same
 * bits; any other case runs the portable code.
 */
#pragma once

#include <cstdint>

#include <executorch/runtime/kernel/kernel_includes.h>

#include "float_vectors.h"

namespace edgecl {
namespace kernels {

/// Whether `t` is float32 in the contiguous dim order: readable as one flat array.
bool flat_float(const executorch::aten::Tensor& t);

/// Whether a binary kernel may run as map2 with no check or resize left to do: out, a and b float32
/// in the contiguous dim order, one of a and b of out's shape, the other of out's shape or one element
/// of at most out's rank.
bool flat_binary(const executorch::aten::Tensor& a, const executorch::aten::Tensor& b,
                 const executorch::aten::Tensor& out);
/// The same for a unary kernel: in and out float32, contiguous, of one shape.
bool flat_unary(const executorch::aten::Tensor& in, const executorch::aten::Tensor& out);

inline vec4 splat4(float v) { return vec4{v, v, v, v}; }

/// `when ? a : b` per lane, for a lambda that maps floats and vec4 alike.
inline float pick(bool when, float a, float b) { return when ? a : b; }
inline vec4 pick(ivec4 when, vec4 a, vec4 b) { return (vec4)(((ivec4)a & when) | ((ivec4)b & ~when)); }

/// out[i] = f(a[i], b[i]) (a one-element operand read as its element); f takes two vec4 or two floats.
template <class F>
void map2(const executorch::aten::Tensor& a, const executorch::aten::Tensor& b, executorch::aten::Tensor& out, F f) {
  const float* x = a.const_data_ptr<float>();
  const float* y = b.const_data_ptr<float>();
  float* z = out.mutable_data_ptr<float>();
  const int64_t n = out.numel();
  const bool xs = a.numel() == 1 && n != 1, ys = b.numel() == 1 && n != 1;
  int64_t i = 0;
  if (xs) {
    const vec4 xv = splat4(x[0]);
    for (; i + 4 <= n; i += 4) store4(z + i, f(xv, load4(y + i)));
    for (; i < n; ++i) z[i] = f(x[0], y[i]);
  } else if (ys) {
    const vec4 yv = splat4(y[0]);
    for (; i + 4 <= n; i += 4) store4(z + i, f(load4(x + i), yv));
    for (; i < n; ++i) z[i] = f(x[i], y[0]);
  } else {
    for (; i + 4 <= n; i += 4) store4(z + i, f(load4(x + i), load4(y + i)));
    for (; i < n; ++i) z[i] = f(x[i], y[i]);
  }
}

/// out[i] = f(in[i]); f takes a vec4 or a float.
template <class F>
void map1(const executorch::aten::Tensor& in, executorch::aten::Tensor& out, F f) {
  const float* x = in.const_data_ptr<float>();
  float* z = out.mutable_data_ptr<float>();
  const int64_t n = out.numel();
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) store4(z + i, f(load4(x + i)));
  for (; i < n; ++i) z[i] = f(x[i]);
}

}  // namespace kernels
}  // namespace edgecl
