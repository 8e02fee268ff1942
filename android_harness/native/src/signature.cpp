#include "signature.h"

namespace edgecl {
namespace {

constexpr const char* kFormat = "edgecl-signature/1";

Result<std::vector<TensorSpec>> parse_specs(const Json& obj, const std::string& key, const std::string& where) {
  const Json* items = nullptr;
  EDGECL_RETURN_IF_ERROR(get_array(obj, key, where, &items));
  std::vector<TensorSpec> out;
  for (size_t i = 0; i < items->size(); ++i) {
    const std::string at = where + "." + key + "[" + std::to_string(i) + "]";
    const Json& item = (*items)[i];
    TensorSpec spec;
    std::string dtype;
    EDGECL_RETURN_IF_ERROR(get_string(item, "name", at, &spec.name));
    EDGECL_RETURN_IF_ERROR(get_ints(item, "shape", at, &spec.shape));
    EDGECL_RETURN_IF_ERROR(get_string(item, "dtype", at, &dtype));
    if (dtype == "float32") {
      spec.dtype = DType::Float32;
    } else if (dtype == "int64") {
      spec.dtype = DType::Int64;
    } else {
      return Error(ErrorCode::InvalidArgument, at + ".dtype: '" + dtype + "', expected float32 or int64");
    }
    for (int64_t d : spec.shape) {
      if (d < 0) return Error(ErrorCode::InvalidArgument, at + ".shape: negative dimension");
    }
    out.push_back(std::move(spec));
  }
  return out;
}

}  // namespace

const char* dtype_name(DType dtype) { return dtype == DType::Float32 ? "float32" : "int64"; }

::executorch::aten::ScalarType scalar_type(DType dtype) {
  using ::executorch::aten::ScalarType;
  return dtype == DType::Float32 ? ScalarType::Float : ScalarType::Long;
}

size_t TensorSpec::numel() const {
  size_t n = 1;
  for (int64_t d : shape) n *= static_cast<size_t>(d);
  return n;
}

size_t TensorSpec::nbytes() const { return numel() * (dtype == DType::Float32 ? 4 : 8); }

std::string Signature::mask_input_name(const std::string& param) {
  std::string out = "mask__";
  for (char c : param) {
    if (c == '.') {
      out += "__";
    } else {
      out += c;
    }
  }
  return out;
}

int Signature::find(const std::vector<TensorSpec>& specs, const std::string& name) {
  for (size_t i = 0; i < specs.size(); ++i) {
    if (specs[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

Result<Signature> parse_signature(const Json& value, const std::string& where) {
  std::string format;
  EDGECL_RETURN_IF_ERROR(get_string(value, "format", where, &format));
  if (format != kFormat) {
    return Error(ErrorCode::NotSupported, where + ".format: '" + format + "', expected '" + kFormat + "'");
  }
  Signature sig;
  auto inputs = parse_specs(value, "inputs", where);
  if (!inputs.ok()) return inputs.error();
  sig.inputs = std::move(inputs.get());
  EDGECL_RETURN_IF_ERROR(get_strings(value, "mask_names", where, &sig.mask_names));
  EDGECL_RETURN_IF_ERROR(get_strings(value, "outputs", where, &sig.outputs));
  EDGECL_RETURN_IF_ERROR(get_strings(value, "parameter_names", where, &sig.parameter_names));
  if (has(value, "norm_stats")) EDGECL_RETURN_IF_ERROR(get_strings(value, "norm_stats", where, &sig.norm_stats));
  if (has(value, "buffer_names")) EDGECL_RETURN_IF_ERROR(get_strings(value, "buffer_names", where, &sig.buffer_names));
  EDGECL_RETURN_IF_ERROR(get_int(value, "batch_size", where, &sig.batch_size));
  EDGECL_RETURN_IF_ERROR(get_int(value, "num_classes", where, &sig.num_classes));
  if (has(value, "eval_inputs")) {
    auto eval = parse_specs(value, "eval_inputs", where);
    if (!eval.ok()) return eval.error();
    sig.eval_inputs = std::move(eval.get());
  }
  // The fixed part of the contract (signature.py): the runner fills these inputs by name.
  static const char* kFixed[] = {"x", "y", "logit_mask", "ce_weight", "target_logits", "mse_weight"};
  if (sig.inputs.size() != 6 + sig.mask_names.size()) {
    return Error(ErrorCode::InvalidArgument, where + ".inputs: " + std::to_string(sig.inputs.size()) +
                 " inputs, expected 6 + one per mask_names entry (" + std::to_string(6 + sig.mask_names.size()) + ")");
  }
  for (size_t i = 0; i < sig.inputs.size(); ++i) {
    const std::string expected = i < 6 ? kFixed[i] : Signature::mask_input_name(sig.mask_names[i - 6]);
    if (sig.inputs[i].name != expected) {
      return Error(ErrorCode::InvalidArgument, where + ".inputs[" + std::to_string(i) + "].name: '" +
                   sig.inputs[i].name + "', expected '" + expected + "'");
    }
  }
  if (sig.outputs.size() != 2 + 2 * sig.norm_stats.size()) {
    return Error(ErrorCode::InvalidArgument, where + ".outputs: expected loss, logits and a mean and var per norm_stats layer");
  }
  if (sig.batch_size < 1 || sig.num_classes < 1) {
    return Error(ErrorCode::InvalidArgument, where + ": batch_size and num_classes must be >= 1");
  }
  return sig;
}

}  // namespace edgecl
