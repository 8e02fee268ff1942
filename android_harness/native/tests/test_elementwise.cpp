// The float32 fast paths of the native add, mul, sub, maximum, relu and sign kernels
// (kernels/elementwise_ops.cpp) against the portable kernels they wrap (linked here as
// portable_<op>_out) and against the portable per-element expressions: the same bits on every pair of special values
// (signed zeros, infinities, NaN, subnormals, the largest float) and on random values, with a
// one-element operand on either side and lengths that leave a tail after the vectors. A NaN result
// matches any NaN (see same_bits).
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include <executorch/kernels/portable/cpu/util/math_util.h>
#include <executorch/runtime/kernel/kernel_includes.h>

#include "float_tensor.h"
#include "rng.h"
#include "unit.h"

namespace torch {
namespace executor {
namespace native {
Tensor& add_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, const Scalar& alpha, Tensor& out);
Tensor& mul_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out);
Tensor& sub_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, const Scalar& alpha, Tensor& out);
Tensor& maximum_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out);
Tensor& relu_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out);
Tensor& sign_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out);
Tensor& portable_add_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, const Scalar& alpha, Tensor& out);
Tensor& portable_mul_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out);
Tensor& portable_sub_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, const Scalar& alpha, Tensor& out);
Tensor& portable_maximum_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out);
Tensor& portable_relu_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out);
Tensor& portable_sign_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out);
}  // namespace native
}  // namespace executor
}  // namespace torch

namespace {

namespace native = torch::executor::native;
using executorch::aten::Scalar;
using executorch::aten::Tensor;
using executorch::runtime::KernelRuntimeContext;
using edgecl_test::FloatTensor;

std::vector<float> specials() {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  return {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -2.75f, inf, -inf, nan, -nan, 1e-40f, -1e-40f,
          std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(), 3.3f};
}

/// Bit for bit, but any NaN equals any NaN: where both operands are NaN, which one's payload and sign
/// survive depends on the order the compiler gives a commutative instruction, in the portable kernel too.
bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::memcmp(&a[i], &b[i], sizeof(float)) != 0 && !(std::isnan(a[i]) && std::isnan(b[i]))) return false;
  }
  return true;
}

/// Every pair of `v` as two operands, then `extra` random values appended to both.
void operands(const std::vector<float>& v, int extra, std::vector<float>* a, std::vector<float>* b) {
  edgecl::Stream s(11, edgecl::Purpose::kEpoch, 0, 0);
  for (float x : v) {
    for (float y : v) {
      a->push_back(x);
      b->push_back(y);
    }
  }
  for (int i = 0; i < extra; ++i) {
    a->push_back(static_cast<float>(static_cast<int64_t>(s.next() >> 40) - (1 << 23)) / 4096.0f);
    b->push_back(static_cast<float>(static_cast<int64_t>(s.next() >> 40) - (1 << 23)) / 4096.0f);
  }
}

enum class Op { kAdd, kAdd2, kMul, kSub, kSub2, kMaximum };

float portable(Op op, float x, float y) {
  switch (op) {
    case Op::kAdd: return x + 1.0f * y;
    case Op::kAdd2: return x + 2.5f * y;
    case Op::kMul: return x * y;
    case Op::kSub: return x - 1.0f * y;
    case Op::kSub2: return x - 2.5f * y;
    case Op::kMaximum: return torch::executor::native::utils::max_override(x, y);
  }
  return 0.0f;
}

/// The kernel's output on (a, b), either side possibly one element (`a_scalar`, `b_scalar`); the
/// portable kernel's when `portable`.
std::vector<float> run(Op op, std::vector<float> a, std::vector<float> b, bool a_scalar, bool b_scalar,
                       bool portable = false) {
  KernelRuntimeContext ctx;
  std::vector<float> out(std::max(a.size(), b.size()));
  FloatTensor fa(a, a_scalar ? std::vector<int>{} : std::vector<int>{static_cast<int>(a.size())});
  FloatTensor fb(b, b_scalar ? std::vector<int>{} : std::vector<int>{static_cast<int>(b.size())});
  FloatTensor fo(out, {static_cast<int>(out.size())});
  Tensor ta = fa.tensor(), tb = fb.tensor(), to = fo.tensor();
  const Scalar one(static_cast<int64_t>(1)), other(2.5);
  switch (op) {
    case Op::kAdd: (portable ? native::portable_add_out : native::add_out)(ctx, ta, tb, one, to); break;
    case Op::kAdd2: (portable ? native::portable_add_out : native::add_out)(ctx, ta, tb, other, to); break;
    case Op::kMul: (portable ? native::portable_mul_out : native::mul_out)(ctx, ta, tb, to); break;
    case Op::kSub: (portable ? native::portable_sub_out : native::sub_out)(ctx, ta, tb, one, to); break;
    case Op::kSub2: (portable ? native::portable_sub_out : native::sub_out)(ctx, ta, tb, other, to); break;
    case Op::kMaximum: (portable ? native::portable_maximum_out : native::maximum_out)(ctx, ta, tb, to); break;
  }
  return ctx.failure_state() == executorch::runtime::Error::Ok ? out : std::vector<float>{};
}

}  // namespace

TEST(binary_fast_paths_give_the_portable_bits) {
  std::vector<float> a, b;
  operands(specials(), 1003, &a, &b);
  for (Op op : {Op::kAdd, Op::kAdd2, Op::kMul, Op::kSub, Op::kSub2, Op::kMaximum}) {
    std::vector<float> want(a.size());
    for (size_t i = 0; i < a.size(); ++i) want[i] = portable(op, a[i], b[i]);
    CHECK(same_bits(run(op, a, b, false, false), want));
    CHECK(same_bits(run(op, a, b, false, false, true), want));
    for (float c : specials()) {  // one element on the left, then on the right
      std::vector<float> left(a.size()), right(a.size());
      for (size_t i = 0; i < a.size(); ++i) {
        left[i] = portable(op, c, b[i]);
        right[i] = portable(op, a[i], c);
      }
      CHECK(same_bits(run(op, {c}, b, true, false), left));
      CHECK(same_bits(run(op, {c}, b, true, false, true), left));
      CHECK(same_bits(run(op, a, {c}, false, true), right));
      CHECK(same_bits(run(op, a, {c}, false, true, true), right));
    }
  }
}

TEST(unary_fast_paths_give_the_portable_bits) {
  std::vector<float> a, unused;
  operands(specials(), 1001, &a, &unused);
  std::vector<float> relu(a.size()), sign(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    const float v = a[i];
    relu[i] = (std::isnan(v) || v >= 0.0f) ? v : 0.0f;
    sign[i] = std::isnan(v) ? v : static_cast<float>((v > 0.0f) - (v < 0.0f));
  }
  KernelRuntimeContext ctx;
  std::vector<float> out_relu(a.size()), out_sign(a.size()), portable_relu(a.size()), portable_sign(a.size());
  const std::vector<int> n{static_cast<int>(a.size())};
  FloatTensor fa(a, n), fr(out_relu, n), fs(out_sign, n), pr(portable_relu, n), ps(portable_sign, n);
  Tensor in = fa.tensor(), tr = fr.tensor(), ts = fs.tensor(), tpr = pr.tensor(), tps = ps.tensor();
  native::relu_out(ctx, in, tr);
  native::sign_out(ctx, in, ts);
  native::portable_relu_out(ctx, in, tpr);
  native::portable_sign_out(ctx, in, tps);
  CHECK(ctx.failure_state() == executorch::runtime::Error::Ok);
  CHECK(same_bits(out_relu, relu));
  CHECK(same_bits(out_sign, sign));
  CHECK(same_bits(portable_relu, relu));
  CHECK(same_bits(portable_sign, sign));
}
