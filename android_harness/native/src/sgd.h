/*
 * Plain float32 SGD, p -= f32(lr) * g, element by element: the Python runner's update
 * (numpy_optim.py) to the bit, which ExecuTorch's C++ SGD (computed in double) is not.
 */
#pragma once

#include <cstddef>
#include <vector>

#include "program.h"

namespace edgecl {

/// Updates every parameter in place from the gradient at the same index.
inline void sgd_update(const std::vector<MutableTensorRef>& params, const std::vector<ConstTensorRef>& grads, float lr) {
  for (size_t t = 0; t < params.size(); ++t) {
    float* p = params[t].data;
    const float* g = grads[t].data;
    for (size_t i = 0; i < params[t].numel; ++i) {
      p[i] -= lr * g[i];
    }
  }
}

}  // namespace edgecl
