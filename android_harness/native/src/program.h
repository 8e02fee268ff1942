/*
 * An export folder's training and eval programs, loaded into the ExecuTorch runtime.
 *
 * Program owns the joint forward+backward program (training.pte, through extension/training's
 * TrainingModule), the eval program (eval.pte), the weight masks and the BatchNorm running
 * statistics (initial values from initial_state.npz). It runs steps and evaluations; it does not
 * update weights: the runner's optimizer writes through params() (float32, in place), because
 * ExecuTorch's C++ SGD computes in double and would not match the Python runner bit for bit.
 */
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "manifest.h"
#include "result.h"
#include "signature.h"
#include "sparse_plan.h"

namespace edgecl {

/// A training input the caller owns, for one forward_backward call: `numel` float32 or int64
/// values in the shape the signature gives that input.
struct InputTensor {
  const void* data = nullptr;
  DType dtype = DType::Float32;
  size_t numel = 0;
};

/// A named float32 tensor in memory the Program or its runtime owns; valid while the Program lives.
template <typename T>
struct TensorRef {
  std::string name;
  T* data = nullptr;
  size_t numel = 0;
  std::vector<int64_t> shape;
};
using MutableTensorRef = TensorRef<float>;
using ConstTensorRef = TensorRef<const float>;

class Program final {
 public:
  /// Loads `model_dir` (an ExecuTorch export: manifest.json, training.pte, eval.pte,
  /// initial_state.npz), after checking every file's size and sha256 against the manifest (before
  /// the runtime parses a byte), and checks both programs against the manifest's signature: input
  /// count, shapes and dtypes, parameter names and order. Errors name the file.
  static Result<std::unique_ptr<Program>> load(const std::string& model_dir);

  ~Program();
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  Program(Program&&) = delete;
  Program& operator=(Program&&) = delete;

  const Manifest& manifest() const;
  const Signature& signature() const;

  /// One forward and backward pass. `inputs` are the signature's training inputs in order (x, y,
  /// logit_mask, ce_weight, target_logits, mse_weight, then the masks); each must have the
  /// input's dtype and element count. Afterwards loss(), output(i) and grads() hold this step.
  Error forward_backward(const std::vector<InputTensor>& inputs);

  /// The loss of the last forward_backward (output 0).
  float loss() const;
  /// Number of user outputs: loss, logits, then a mean and a var per BatchNorm layer.
  size_t num_outputs() const;
  /// User output `i` of the last forward_backward (signature().outputs[i] names it); it lives in
  /// the runtime's memory until the next forward_backward.
  ConstTensorRef output(size_t i) const;

  /// Trainable parameters in signature order, aliasing the runtime's weights: writing through
  /// `data` changes the weights the next forward_backward and eval use.
  const std::vector<MutableTensorRef>& params() const;
  /// Gradients of the last forward_backward, in params() order (empty before the first one).
  const std::vector<ConstTensorRef>& grads() const;
  /// Weight masks in mask_names order and running statistics in buffer_names order, owned by the
  /// Program (initial_state.npz values at load). eval() reads them; pass masks() as the mask inputs
  /// of forward_backward. The caller may overwrite their data (TDM, the running-stat update).
  const std::vector<MutableTensorRef>& masks() const;
  const std::vector<MutableTensorRef>& buffers() const;

  /// Sparse execution of the masked layers' matrix products (src/sparse_plan.h): forward, input
  /// gradient and weight gradient, and eval()'s forward, bit-identical to the dense kernels (the
  /// weight gradient's unused entries are +0 where the dense path gives +-0). Off by default. The
  /// first call walks both programs; `on = false` keeps the products on the dense kernels, still counted.
  Error set_sparse(bool on);
  /// The weight masks changed (TDM): the sparse patterns are rebuilt before the next step and the
  /// next eval. Without this call they reuse the last patterns, so a caller that changes masks()
  /// must make it.
  void masks_changed();
  /// DGM's gradient masks, one per masked layer in mask_names order (empty: none); the caller
  /// keeps them alive and calls this again when they change.
  void set_grad_masks(std::vector<const float*> grad_masks);
  /// Whether the next steps need every live weight's gradient (true, the default) or only where
  /// the gradient masks keep it (false: the other entries of a masked layer's gradient are +0).
  void need_full_weight_grad(bool full);
  /// Per masked layer, its products' densities, kernels and counters (empty before set_sparse).
  std::vector<LayerReport> sparse_report() const;
  /// The same for eval()'s products (each layer's forward).
  std::vector<LayerReport> eval_sparse_report() const;
  void reset_sparse_stats(bool timed);
  /// The training program's planned memory: the export's arena, the runner's current layout of it
  /// (src/arena.h; the same when the export's layout is kept) and why it is kept (empty: laid out).
  struct ArenaReport {
    size_t planned_bytes = 0, bytes = 0;
    std::string kept_because;
  };
  ArenaReport arena_report() const;

  /// Logits of `rows` samples (x: rows * sample size floats, row-major) with the eval program and
  /// the current params(), buffers() and masks(); writes rows * num_classes floats to logits_out.
  /// The program's fixed batch is filled with zeros past the last row.
  Error eval(const float* x, int rows, float* logits_out);

 private:
  struct Impl;
  explicit Program(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace edgecl
