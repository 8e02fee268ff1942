/*
 * The native add, mul, sub, maximum, relu and sign kernels: a flat float32 loop (elementwise.h) where it
 * applies, else ExecuTorch's portable kernel, which the build compiles under the name
 * portable_<kernel> (Makefile: WRAPPED). The flat loop runs only when `out` already has the result's
 * shape, so the portable kernel's checks and resize have nothing to add; each lane computes the
 * portable kernel's expression, so the output is the same bits.
 *
 * A selective build compiles the portable file only for the operators its program calls; the weak
 * declarations let the others' wrappers link, unreferenced by any registration.
 */
#include <executorch/kernels/portable/cpu/scalar_utils.h>
#include <executorch/runtime/kernel/kernel_includes.h>

#include "elementwise.h"

namespace torch {
namespace executor {
namespace native {

using executorch::aten::Scalar;
using executorch::aten::Tensor;
using executorch::runtime::KernelRuntimeContext;

__attribute__((weak)) Tensor& portable_add_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b,
                                               const Scalar& alpha, Tensor& out);
__attribute__((weak)) Tensor& portable_mul_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out);
__attribute__((weak)) Tensor& portable_sub_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b,
                                               const Scalar& alpha, Tensor& out);
__attribute__((weak)) Tensor& portable_maximum_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b,
                                                   Tensor& out);
__attribute__((weak)) Tensor& portable_relu_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out);
__attribute__((weak)) Tensor& portable_sign_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out);

using edgecl::kernels::flat_binary;
using edgecl::kernels::flat_unary;
using edgecl::kernels::map1;
using edgecl::kernels::map2;
using edgecl::kernels::pick;

Tensor& add_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, const Scalar& alpha, Tensor& out) {
  if (!flat_binary(a, b, out) || alpha.isBoolean()) return portable_add_out(ctx, a, b, alpha, out);
  const float val_alpha = utils::scalar_to<float>(alpha);
  map2(a, b, out, [val_alpha](auto x, auto y) { return x + val_alpha * y; });
  return out;
}

Tensor& mul_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out) {
  if (!flat_binary(a, b, out)) return portable_mul_out(ctx, a, b, out);
  map2(a, b, out, [](auto x, auto y) { return x * y; });
  return out;
}

Tensor& sub_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, const Scalar& alpha, Tensor& out) {
  if (!flat_binary(a, b, out) || alpha.isBoolean()) return portable_sub_out(ctx, a, b, alpha, out);
  const float val_alpha = utils::scalar_to<float>(alpha);
  map2(a, b, out, [val_alpha](auto x, auto y) { return x - val_alpha * y; });
  return out;
}

Tensor& maximum_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out) {
  if (!flat_binary(a, b, out)) return portable_maximum_out(ctx, a, b, out);
  // utils::max_override: a if a is NaN, else b if b is NaN, else std::max (a unless a < b)
  map2(a, b, out, [](auto x, auto y) { return pick(x != x, x, pick(y != y, y, pick(x < y, y, x))); });
  return out;
}

Tensor& relu_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  if (!flat_unary(in, out)) return portable_relu_out(ctx, in, out);
  // (isnan(x) || x >= 0) ? x : 0, as x < 0 ? +0 : x (false for NaN and -0)
  map1(in, out, [](auto x) {
    const decltype(x) zero{};
    return pick(x < zero, zero, x);
  });
  return out;
}

Tensor& sign_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  if (!flat_unary(in, out)) return portable_sign_out(ctx, in, out);
  // NaN passed through; otherwise (x > 0) - (x < 0), +0 for either zero
  map1(in, out, [](auto x) {
    const decltype(x) zero{}, one = zero + 1.0f;
    return pick(x > zero, one, pick(x < zero, -one, pick(x != x, x, zero)));
  });
  return out;
}

}  // namespace native
}  // namespace executor
}  // namespace torch
