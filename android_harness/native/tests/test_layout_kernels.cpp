// The native constant_pad_nd (kernels/constant_pad.cpp) against the portable kernel it wraps (linked
// here as portable_constant_pad_nd_out), and permute_copy (kernels/op_permute_copy.cpp: merged runs,
// transposed planes in tiles) against the definition out[i...] = in[permuted i...]: the same bytes on
// shapes around the 8 x 8 tiles, with size-1 dims, both pad ranks and zero pads.
#include <cstring>
#include <numeric>
#include <vector>

#include <executorch/runtime/core/portable_type/tensor_impl.h>
#include <executorch/runtime/kernel/kernel_includes.h>

#include "unit.h"

namespace torch {
namespace executor {
namespace native {
Tensor& constant_pad_nd_out(KernelRuntimeContext& ctx, const Tensor& in, IntArrayRef pad, const Scalar& value,
                            Tensor& out);
Tensor& portable_constant_pad_nd_out(KernelRuntimeContext& ctx, const Tensor& in, IntArrayRef pad,
                                     const Scalar& value, Tensor& out);
Tensor& permute_copy_out(KernelRuntimeContext& ctx, const Tensor& in, IntArrayRef dims, Tensor& out);
}  // namespace native
}  // namespace executor
}  // namespace torch

namespace {

namespace native = torch::executor::native;
using executorch::aten::IntArrayRef;
using executorch::aten::Scalar;
using executorch::aten::ScalarType;
using executorch::aten::Tensor;
using executorch::runtime::KernelRuntimeContext;
using executorch::runtime::etensor::TensorImpl;

/// A contiguous float32 tensor of `sizes` over its own data.
struct Dense {
  std::vector<TensorImpl::SizesType> sizes;
  std::vector<TensorImpl::DimOrderType> order;
  std::vector<TensorImpl::StridesType> strides;
  std::vector<float> data;
  TensorImpl impl;
  explicit Dense(const std::vector<int>& shape)
      : sizes(shape.begin(), shape.end()),
        order(shape.size()),
        strides(shape.size()),
        data(static_cast<size_t>(std::accumulate(shape.begin(), shape.end(), 1, std::multiplies<int>()))),
        impl(ScalarType::Float, static_cast<ssize_t>(shape.size()), sizes.data(), data.data(), order.data(),
             strides.data()) {
    std::iota(order.begin(), order.end(), 0);
    for (int d = static_cast<int>(shape.size()) - 1, s = 1; d >= 0; s *= shape[static_cast<size_t>(d)], --d) {
      strides[static_cast<size_t>(d)] = s;
    }
    for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i) * 0.5f - 7.0f;  // distinct values
    if (!data.empty()) data[0] = -0.0f;                                                          // and a -0
  }
  Tensor tensor() { return Tensor(&impl); }
};

bool same_bytes(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(float) * a.size()) == 0;
}

}  // namespace

TEST(constant_pad_fast_path_equals_the_portable_kernel) {
  struct Case {
    std::vector<int> in;
    std::vector<int64_t> pad;
  };
  const Case cases[] = {{{2, 3, 5, 7}, {1, 1, 1, 1}}, {{4, 1, 9, 9}, {1, 2, 0, 3}}, {{3, 6, 6}, {0, 0, 2, 1}},
                        {{5, 17}, {3, 0}},            {{2, 2, 1, 1}, {1, 1, 1, 1}}, {{32, 20, 16, 16}, {1, 1, 1, 1}}};
  for (const Case& c : cases) {
    std::vector<int> out_shape = c.in;
    for (size_t k = 0; k < c.pad.size() / 2; ++k) {
      out_shape[out_shape.size() - 1 - k] += static_cast<int>(c.pad[2 * k] + c.pad[2 * k + 1]);
    }
    for (const Scalar& value : {Scalar(0.0), Scalar(-1.5), Scalar(static_cast<int64_t>(3))}) {
      Dense in(c.in), fast(out_shape), slow(out_shape);
      KernelRuntimeContext ctx;
      Tensor ti = in.tensor(), tf = fast.tensor(), ts = slow.tensor();
      const IntArrayRef pad(c.pad.data(), c.pad.size());
      native::constant_pad_nd_out(ctx, ti, pad, value, tf);
      native::portable_constant_pad_nd_out(ctx, ti, pad, value, ts);
      CHECK(ctx.failure_state() == executorch::runtime::Error::Ok);
      CHECK(same_bytes(fast.data, slow.data));
    }
  }
}

TEST(permute_copy_equals_its_definition) {
  struct Case {
    std::vector<int> in;
    std::vector<int64_t> dims;
  };
  const Case cases[] = {{{32, 20, 37}, {0, 2, 1}},    {{5, 8, 16}, {0, 2, 1}},      {{9, 17}, {1, 0}},
                        {{7, 3, 4, 4}, {1, 0, 2, 3}}, {{2, 1, 3, 1}, {3, 2, 1, 0}}, {{3, 4, 5, 6}, {2, 0, 3, 1}},
                        {{1, 1}, {1, 0}},             {{6, 10, 3}, {2, 1, 0}}};
  for (const Case& c : cases) {
    const size_t nd = c.in.size();
    std::vector<int> out_shape(nd);
    for (size_t d = 0; d < nd; ++d) out_shape[d] = c.in[static_cast<size_t>(c.dims[d])];
    Dense in(c.in), out(out_shape), want(out_shape);
    std::vector<size_t> in_stride(nd, 1), index(nd, 0);
    for (size_t d = nd - 1; d > 0; --d) in_stride[d - 1] = in_stride[d] * static_cast<size_t>(c.in[d]);
    for (size_t i = 0; i < want.data.size(); ++i) {  // out's index i, odometer in `index`
      size_t src = 0;
      for (size_t d = 0; d < nd; ++d) src += index[d] * in_stride[static_cast<size_t>(c.dims[d])];
      want.data[i] = in.data[src];
      for (size_t d = nd; d-- > 0;) {
        if (++index[d] < static_cast<size_t>(out_shape[d])) break;
        index[d] = 0;
      }
    }
    KernelRuntimeContext ctx;
    Tensor ti = in.tensor(), to = out.tensor();
    native::permute_copy_out(ctx, ti, IntArrayRef(c.dims.data(), c.dims.size()), to);
    CHECK(ctx.failure_state() == executorch::runtime::Error::Ok);
    CHECK(same_bytes(out.data, want.data));
  }
}
