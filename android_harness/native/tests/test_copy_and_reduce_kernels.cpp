// The native constant_pad_nd (kernels/constant_pad.cpp) and mean (kernels/mean.cpp) against the
// portable kernels they wrap (linked here as portable_<kernel>), and permute_copy
// (kernels/op_permute_copy.cpp: merged runs, transposed planes in tiles), the pooling taps of
// as_strided_copy (every other float by shuffles) and cat (kernels/op_cat.cpp:
// interleaves of one float per input, two of them by vector shuffles) against their definitions
// out[i...] = in[permuted i...] and out = the inputs' chunks side by side: the same bytes on shapes
// around the 8 x 8 tiles and the 4-wide shuffles, with size-1 dims, both pad ranks, zero pads, and
// means over trailing dims kept or dropped.
#include <cstring>
#include <memory>
#include <numeric>
#include <optional>
#include <vector>

#include <executorch/runtime/kernel/kernel_includes.h>

#include "float_tensor.h"
#include "unit.h"

namespace torch {
namespace executor {
namespace native {
Tensor& constant_pad_nd_out(KernelRuntimeContext& ctx, const Tensor& in, IntArrayRef pad, const Scalar& value,
                            Tensor& out);
Tensor& portable_constant_pad_nd_out(KernelRuntimeContext& ctx, const Tensor& in, IntArrayRef pad,
                                     const Scalar& value, Tensor& out);
Tensor& permute_copy_out(KernelRuntimeContext& ctx, const Tensor& in, IntArrayRef dims, Tensor& out);
Tensor& as_strided_copy_out(KernelRuntimeContext& ctx, const Tensor& in, ArrayRef<int64_t> size,
                            ArrayRef<int64_t> stride, std::optional<int64_t> storage_offset, Tensor& out);
Tensor& cat_out(KernelRuntimeContext& ctx, executorch::aten::ArrayRef<Tensor> tensors, int64_t dim, Tensor& out);
Tensor& mean_dim_out(KernelRuntimeContext& ctx, const Tensor& in, std::optional<ArrayRef<int64_t>> dim_list,
                     bool keepdim, std::optional<ScalarType> dtype, Tensor& out);
Tensor& portable_mean_dim_out(KernelRuntimeContext& ctx, const Tensor& in, std::optional<ArrayRef<int64_t>> dim_list,
                              bool keepdim, std::optional<ScalarType> dtype, Tensor& out);
}  // namespace native
}  // namespace executor
}  // namespace torch

namespace {

namespace native = torch::executor::native;
using executorch::aten::ArrayRef;
using executorch::aten::IntArrayRef;
using executorch::aten::Scalar;
using executorch::aten::ScalarType;
using executorch::aten::Tensor;
using executorch::runtime::KernelRuntimeContext;
using edgecl_test::FloatTensor;

/// Distinct values of `shape`'s size, a -0 first.
std::vector<float> values(const std::vector<int>& shape) {
  std::vector<float> v(static_cast<size_t>(std::accumulate(shape.begin(), shape.end(), 1, std::multiplies<int>())));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i) * 0.5f - 7.0f;
  if (!v.empty()) v[0] = -0.0f;
  return v;
}

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
      std::vector<float> x = values(c.in), fast = values(out_shape), slow = values(out_shape);
      FloatTensor in(x, c.in), f(fast, out_shape), p(slow, out_shape);
      KernelRuntimeContext ctx;
      Tensor ti = in.tensor(), tf = f.tensor(), ts = p.tensor();
      const IntArrayRef pad(c.pad.data(), c.pad.size());
      native::constant_pad_nd_out(ctx, ti, pad, value, tf);
      native::portable_constant_pad_nd_out(ctx, ti, pad, value, ts);
      CHECK(ctx.failure_state() == executorch::runtime::Error::Ok);
      CHECK(same_bytes(fast, slow));
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
    std::vector<float> x = values(c.in), got = values(out_shape), want = values(out_shape);
    FloatTensor in(x, c.in), out(got, out_shape);
    std::vector<size_t> in_stride(nd, 1), index(nd, 0);
    for (size_t d = nd - 1; d > 0; --d) in_stride[d - 1] = in_stride[d] * static_cast<size_t>(c.in[d]);
    for (size_t i = 0; i < want.size(); ++i) {  // out's index i, odometer in `index`
      size_t src = 0;
      for (size_t d = 0; d < nd; ++d) src += index[d] * in_stride[static_cast<size_t>(c.dims[d])];
      want[i] = x[src];
      for (size_t d = nd; d-- > 0;) {
        if (++index[d] < static_cast<size_t>(out_shape[d])) break;
        index[d] = 0;
      }
    }
    KernelRuntimeContext ctx;
    Tensor ti = in.tensor(), to = out.tensor();
    native::permute_copy_out(ctx, ti, IntArrayRef(c.dims.data(), c.dims.size()), to);
    CHECK(ctx.failure_state() == executorch::runtime::Error::Ok);
    CHECK(same_bytes(got, want));
  }
}

TEST(pooling_taps_equal_their_definition) {
  // as_strided_copy of every 2 x 2 window's tap (i, j), the last dim stepping by two: runs of 14, 7, 5, 4,
  // 3 and 1 around the four-wide shuffle, the odd taps reading up to the input's last element
  const int shapes[][3] = {{3, 28, 28}, {2, 14, 14}, {1, 10, 10}, {2, 8, 8}, {1, 6, 7}, {4, 2, 2}};
  for (const auto& sh : shapes) {
    const int c = sh[0], h = sh[1], w = sh[2], ho = h / 2, wo = w / 2;
    const std::vector<int> in_shape = {c, h, w}, out_shape = {c, ho, wo};
    std::vector<float> x = values(in_shape);
    FloatTensor in(x, in_shape);
    for (int tap = 0; tap < 4; ++tap) {
      const int i = tap / 2, j = tap % 2;
      std::vector<float> got = values(out_shape), want(got.size());
      for (int k = 0; k < c; ++k) {
        for (int r = 0; r < ho; ++r) {
          for (int q = 0; q < wo; ++q) want[static_cast<size_t>((k * ho + r) * wo + q)] = x[static_cast<size_t>(k * h * w + (2 * r + i) * w + 2 * q + j)];
        }
      }
      const std::vector<int64_t> size = {c, ho, wo}, stride = {h * w, 2 * w, 2};
      FloatTensor out(got, out_shape);
      KernelRuntimeContext ctx;
      Tensor ti = in.tensor(), to = out.tensor();
      native::as_strided_copy_out(ctx, ti, ArrayRef<int64_t>(size.data(), size.size()),
                                  ArrayRef<int64_t>(stride.data(), stride.size()), int64_t{i * w + j}, to);
      CHECK(ctx.failure_state() == executorch::runtime::Error::Ok);
      CHECK(same_bytes(got, want));
    }
  }
}

TEST(cat_equals_its_definition) {
  struct Case {
    int outer, inputs, width;  // each input [outer, width]; out [outer, inputs * width] (cat on the last dim)
  };
  // One float per input (a stack on the last dim): two inputs by shuffles, with and without a tail;
  // three inputs; then chunks of 3 floats and of 20 (the byte-copy paths).
  const Case cases[] = {{16, 2, 1}, {13, 2, 1}, {3, 2, 1}, {1, 2, 1}, {11, 3, 1}, {7, 2, 3}, {5, 3, 20}};
  for (const Case& c : cases) {
    std::vector<std::vector<float>> data;
    for (int j = 0; j < c.inputs; ++j) {
      data.push_back(values({c.outer, c.width}));
      for (float& v : data.back()) v += 100.0f * static_cast<float>(j);
    }
    std::vector<std::unique_ptr<FloatTensor>> owners;
    std::vector<Tensor> ins;
    for (auto& d : data) {
      owners.push_back(std::make_unique<FloatTensor>(d, std::vector<int>{c.outer, c.width}));
      ins.push_back(owners.back()->tensor());
    }
    const std::vector<int> out_shape{c.outer, c.inputs * c.width};
    std::vector<float> got = values(out_shape), want;
    for (int i = 0; i < c.outer; ++i)
      for (int j = 0; j < c.inputs; ++j)
        for (int w = 0; w < c.width; ++w) want.push_back(data[static_cast<size_t>(j)][static_cast<size_t>(i * c.width + w)]);
    FloatTensor out(got, out_shape);
    KernelRuntimeContext ctx;
    Tensor to = out.tensor();
    native::cat_out(ctx, ArrayRef<Tensor>(ins.data(), ins.size()), 1, to);
    CHECK(ctx.failure_state() == executorch::runtime::Error::Ok);
    CHECK(same_bytes(got, want));
  }
}

TEST(mean_over_trailing_dims_equals_the_portable_kernel) {
  struct Case {
    std::vector<int> in;
    std::vector<int64_t> dims;
  };
  const Case cases[] = {{{32, 64, 1, 32}, {-1, -2}}, {{4, 3, 5, 7}, {2, 3}}, {{2, 3, 4, 5}, {3, 1, 2}},
                        {{6, 9, 9}, {1, 2}},        {{3, 5}, {1}},          {{5, 4, 3}, {0, 2}}};
  for (const Case& c : cases) {
    for (bool keepdim : {false, true}) {
      std::vector<int> out_shape;
      for (size_t d = 0; d < c.in.size(); ++d) {
        bool reduced = false;
        for (int64_t r : c.dims) reduced = reduced || (r < 0 ? r + static_cast<int64_t>(c.in.size()) : r) == static_cast<int64_t>(d);
        if (!reduced) out_shape.push_back(c.in[d]);
        else if (keepdim) out_shape.push_back(1);
      }
      std::vector<float> x = values(c.in), fast = values(out_shape), slow = values(out_shape);
      for (size_t i = 0; i < x.size(); i += 7) x[i] = -x[i] * 1e-3f;  // sums that round
      FloatTensor in(x, c.in), f(fast, out_shape), p(slow, out_shape);
      KernelRuntimeContext ctx;
      Tensor ti = in.tensor(), tf = f.tensor(), ts = p.tensor();
      const ArrayRef<int64_t> dims(c.dims.data(), c.dims.size());
      native::mean_dim_out(ctx, ti, dims, keepdim, std::nullopt, tf);
      native::portable_mean_dim_out(ctx, ti, dims, keepdim, std::nullopt, ts);
      CHECK(ctx.failure_state() == executorch::runtime::Error::Ok);
      CHECK(same_bytes(fast, slow));
    }
  }
}
