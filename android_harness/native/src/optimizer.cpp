#include "optimizer.h"

#include <cmath>

namespace edgecl {
namespace {

/// Plain SGD (no momentum, no weight decay): p = p - lr * (g [* gm]) in unit-stride loops the
/// compiler vectorizes; the same float32 operations per element as the general loop below (the
/// 0/1 mask byte becomes the float 0 or 1 it multiplies by, so a masked NaN still poisons). On
/// x86_64 an AVX2 clone where the CPU has it (8 lanes instead of 4; no FMA is emitted, so the
/// rounding is the same): the update streams ~1 MB per mlp step out of L2, so lanes matter.
#if defined(__x86_64__)
__attribute__((target_clones("avx2", "default")))
#endif
void plain_sgd(float* __restrict p, const float* __restrict g, const uint8_t* __restrict gm, size_t n, float lr) {
  if (gm == nullptr) {
    for (size_t i = 0; i < n; ++i) p[i] = p[i] - lr * g[i];
  } else {
    for (size_t i = 0; i < n; ++i) p[i] = p[i] - lr * (g[i] * static_cast<float>(gm[i]));
  }
}

}  // namespace

Result<Optimizer> Optimizer::create(const OptimizerSpec& spec, const std::vector<size_t>& sizes) {
  if (spec.name != "sgd" && spec.name != "adamw") {
    return Error(ErrorCode::NotSupported, "manifest.json optimizer.name: the runner implements sgd and adamw, got '" +
                                              spec.name + "'");
  }
  Optimizer o;
  o.name_ = spec.name;
  o.momentum_ = spec.momentum;
  o.weight_decay_ = spec.weight_decay;
  o.beta1_ = spec.beta1;
  o.beta2_ = spec.beta2;
  o.eps_ = spec.eps;
  for (size_t n : sizes) {
    o.a_.emplace_back(n, 0.0f);
    if (o.name_ == "adamw") o.b_.emplace_back(n, 0.0f);
  }
  return o;
}

std::vector<std::string> Optimizer::state_names() const {
  if (name_ == "adamw") return {"m", "v"};
  if (momentum_ > 0.0) return {"momentum"};
  return {};
}

std::vector<std::vector<float>>& Optimizer::state(const std::string& stem) { return stem == "v" ? b_ : a_; }

void Optimizer::step(const std::vector<MutableTensorRef>& params, const std::vector<ConstTensorRef>& grads,
                     const std::vector<const uint8_t*>& grad_masks, double lr) {
  step_count_ += 1;
  const float flr = static_cast<float>(lr);
  const float fwd = static_cast<float>(weight_decay_), fm = static_cast<float>(momentum_);
  const bool first = step_count_ == 1;
  for (size_t t = 0; t < params.size(); ++t) {
    float* p = params[t].data;
    const float* g0 = grads[t].data;
    const uint8_t* gm = t < grad_masks.size() ? grad_masks[t] : nullptr;
    const size_t n = params[t].numel;
    if (name_ == "sgd" && weight_decay_ <= 0.0 && momentum_ <= 0.0) {
      plain_sgd(p, g0, gm, n, flr);
      continue;
    }
    if (name_ == "sgd") {
      float* buf = a_[t].data();
      for (size_t i = 0; i < n; ++i) {
        float g = gm != nullptr ? g0[i] * static_cast<float>(gm[i]) : g0[i];
        if (weight_decay_ > 0.0) g = g + fwd * p[i];
        if (momentum_ > 0.0) {
          buf[i] = first ? g : buf[i] * fm + g;
          g = buf[i];
        }
        p[i] = p[i] - flr * g;
      }
      continue;
    }
    // AdamW exactly as numpy_optim.py: scalars in double, arrays in float32.
    const double tt = static_cast<double>(step_count_);
    const float decay = static_cast<float>(1.0 - lr * weight_decay_);
    const float b1 = static_cast<float>(beta1_), c1 = static_cast<float>(1.0 - beta1_);
    const float b2 = static_cast<float>(beta2_), c2 = static_cast<float>(1.0 - beta2_);
    const float step_size = static_cast<float>(lr / (1.0 - std::pow(beta1_, tt)));
    const float bias2 = static_cast<float>(std::sqrt(1.0 - std::pow(beta2_, tt)));
    const float eps = static_cast<float>(eps_);
    float* m = a_[t].data();
    float* v = b_[t].data();
    for (size_t i = 0; i < n; ++i) {
      const float g = gm != nullptr ? g0[i] * static_cast<float>(gm[i]) : g0[i];
      p[i] = p[i] * decay;
      m[i] = m[i] * b1 + c1 * g;
      v[i] = v[i] * b2 + c2 * g * g;
      const float denom = std::sqrt(v[i]) / bias2 + eps;
      p[i] = p[i] - step_size * m[i] / denom;
    }
  }
}

void Optimizer::clear_where(size_t i, const std::vector<uint8_t>& kept) {
  for (auto* state : {&a_, &b_}) {
    if (i >= state->size()) continue;
    auto& s = (*state)[i];
    for (size_t k = 0; k < s.size() && k < kept.size(); ++k) {
      if (!kept[k]) s[k] = 0.0f;
    }
  }
}

}  // namespace edgecl
