#include "elementwise.h"

namespace edgecl {
namespace kernels {

using executorch::aten::ScalarType;
using executorch::aten::Tensor;

bool flat_float(const Tensor& t) {
  return t.scalar_type() == ScalarType::Float &&
         executorch::runtime::is_contiguous_dim_order(t.dim_order().data(), t.dim());
}

namespace {

bool same_shape(const Tensor& a, const Tensor& b) { return a.sizes() == b.sizes(); }

}  // namespace

bool flat_binary(const Tensor& a, const Tensor& b, const Tensor& out) {
  if (!flat_float(a) || !flat_float(b) || !flat_float(out)) return false;
  const auto fits = [&out](const Tensor& t) { return same_shape(t, out) || (t.numel() == 1 && t.dim() <= out.dim()); };
  return (same_shape(a, out) || same_shape(b, out)) && fits(a) && fits(b);
}

bool flat_unary(const Tensor& in, const Tensor& out) { return flat_float(in) && flat_float(out) && same_shape(in, out); }

}  // namespace kernels
}  // namespace edgecl
