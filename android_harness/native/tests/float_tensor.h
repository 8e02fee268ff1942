// A contiguous float32 ExecuTorch tensor over a vector the test owns: kernels called directly.
#pragma once

#include <numeric>
#include <vector>

#include <executorch/runtime/core/portable_type/tensor_impl.h>
#include <executorch/runtime/kernel/kernel_includes.h>

namespace edgecl_test {

class FloatTensor {
 public:
  using TensorImpl = executorch::runtime::etensor::TensorImpl;
  /// `data` (not copied) as a tensor of `shape` (its product data.size(); empty: zero dimensions).
  FloatTensor(std::vector<float>& data, const std::vector<int>& shape)
      : sizes_(shape.begin(), shape.end()),
        order_(shape.size()),
        strides_(shape.size()),
        impl_(executorch::aten::ScalarType::Float, static_cast<ssize_t>(shape.size()), sizes_.data(), data.data(),
              order_.data(), strides_.data()) {
    std::iota(order_.begin(), order_.end(), 0);
    for (size_t d = shape.size(), s = 1; d-- > 0; s *= static_cast<size_t>(shape[d])) {
      strides_[d] = static_cast<TensorImpl::StridesType>(s);
    }
  }
  FloatTensor(const FloatTensor&) = delete;
  FloatTensor& operator=(const FloatTensor&) = delete;
  executorch::aten::Tensor tensor() { return executorch::aten::Tensor(&impl_); }

 private:
  std::vector<TensorImpl::SizesType> sizes_;
  std::vector<TensorImpl::DimOrderType> order_;
  std::vector<TensorImpl::StridesType> strides_;
  TensorImpl impl_;
};

}  // namespace edgecl_test
