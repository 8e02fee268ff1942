/*
 * The training contract of an export (android_harness/device/backends/signature.py, format
 * edgecl-signature/1): names, shapes and order of the training and eval programs' inputs and outputs.
 *
 * Training inputs: x, y, logit_mask, ce_weight, target_logits, mse_weight, then one weight mask per
 * masked parameter (mask_names order). User outputs: loss, logits, then <layer>.mean and <layer>.var
 * per BatchNorm layer (norm_stats). Eval inputs: x, parameters, running stats, masks (eval_inputs).
 */
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <executorch/runtime/core/exec_aten/exec_aten.h>

#include "json_fields.h"
#include "result.h"

namespace edgecl {

enum class DType { Float32, Int64 };

/// "float32" / "int64", as numpy names them in the signature.
const char* dtype_name(DType dtype);
/// The runtime's scalar type for `dtype`.
::executorch::aten::ScalarType scalar_type(DType dtype);

/// One input tensor of a program.
struct TensorSpec {
  std::string name;
  std::vector<int64_t> shape;
  DType dtype = DType::Float32;

  size_t numel() const;
  size_t nbytes() const;
};

struct Signature {
  std::vector<TensorSpec> inputs;
  std::vector<std::string> mask_names;  // model parameter names whose mask is an input
  std::vector<std::string> outputs;  // user outputs, in order
  std::vector<std::string> parameter_names;  // trainable parameters (model names, no "model." prefix)
  std::vector<std::string> norm_stats;  // BatchNorm layers
  std::vector<std::string> buffer_names;  // running statistics (eval inputs)
  int64_t batch_size = 0;
  int64_t num_classes = 0;
  std::vector<TensorSpec> eval_inputs;

  /// "mask__features__0__weight" for "features.0.weight" (the mask's input name).
  static std::string mask_input_name(const std::string& param);
  /// Index of the input called `name` in `specs`, or -1.
  static int find(const std::vector<TensorSpec>& specs, const std::string& name);
};

/// Reads the signature object `value`; `where` ("<file>: signature") prefixes every error.
Result<Signature> parse_signature(const Json& value, const std::string& where);

}  // namespace edgecl
