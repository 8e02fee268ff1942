/*
 * The optimizer of docs/semantics.md section 4.7, float32 in place on the runtime's weights,
 * bit-identical to android_harness/device/backends/numpy_optim.py:
 *   sgd:   g' = g + f32(wd) * p (wd > 0); buf = g' (first step) else buf * f32(m) + g' (m > 0);
 *          p = p - f32(lr) * g'
 *   adamw: PyTorch's AdamW rule with numpy_optim.py's exact float32/float64 mix.
 * A gradient mask (DGM) multiplies the gradient first. State is checkpointed by the runner.
 */
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "manifest.h"
#include "program.h"
#include "result.h"

namespace edgecl {

class Optimizer final {
 public:
  /// The export's optimizer for parameters of these sizes; an unknown name is an error.
  static Result<Optimizer> create(const OptimizerSpec& spec, const std::vector<size_t>& sizes);

  /// One update of every parameter. `grad_masks[i]` (0/1 bytes, as floats) multiplies gradient i
  /// first when not null.
  void step(const std::vector<MutableTensorRef>& params, const std::vector<ConstTensorRef>& grads,
            const std::vector<const uint8_t*>& grad_masks, double lr);
  /// Zero the state of parameter i outside `kept` (TDM: dropped and grown weights have no state).
  void clear_where(size_t i, const std::vector<uint8_t>& kept);

  const std::string& name() const { return name_; }
  int64_t step_count() const { return step_count_; }
  /// Whether per-parameter state exists (sgd with momentum or adamw, after the first step).
  bool has_state() const { return step_count_ > 0 && (name_ == "adamw" || momentum_ > 0.0); }
  /// The state arrays by checkpoint key stem ("momentum", or "m" and "v"), per parameter.
  std::vector<std::string> state_names() const;
  std::vector<std::vector<float>>& state(const std::string& stem);
  /// After a restore: the step count and that the state arrays were filled.
  void set_step_count(int64_t n) { step_count_ = n; }

 private:
  Optimizer() = default;
  std::string name_;
  double momentum_ = 0.0, weight_decay_ = 0.0, beta1_ = 0.9, beta2_ = 0.999, eps_ = 1e-8;
  int64_t step_count_ = 0;
  std::vector<std::vector<float>> a_, b_;  // sgd: momentum buffers; adamw: m and v
};

}  // namespace edgecl
