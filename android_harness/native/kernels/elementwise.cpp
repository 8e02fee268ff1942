#include "elementwise.h"

namespace edgecl {
namespace kernels {

using executorch::aten::ScalarType;
using executorch::aten::Tensor;

bool flat_float(const Tensor& t) {
  return t.scalar_type() == ScalarType::Float &&
         executorch::runtime::is_contiguous_dim_order(t.dim_order().data(), t.dim());
}

bool flat_binary(const Tensor& a, const Tensor& b, const Tensor& out) {
  const auto n = out.numel();
  const auto fits = [n](const Tensor& t) { return t.numel() == n || t.numel() == 1; };
  return flat_float(a) && flat_float(b) && flat_float(out) && fits(a) && fits(b);
}

}  // namespace kernels
}  // namespace edgecl
