#include "program_check.h"

#include <algorithm>
#include <fstream>
#include <vector>

#include <executorch/schema/extended_header.h>
#include <executorch/schema/program_generated.h>

namespace edgecl {
namespace {

using ::executorch::runtime::ExtendedHeader;

Error invalid(const std::string& path, const std::string& why) {
  return Error(ErrorCode::InvalidProgram, path + ": not a valid ExecuTorch program (" + why + ")");
}

/// Every index of `indices` names one of the plan's `n` values.
Error check_indices(const flatbuffers::Vector<int32_t>* indices, size_t n, const std::string& what,
                    const std::string& path) {
  if (indices == nullptr) return Error();
  for (flatbuffers::uoffset_t i = 0; i < indices->size(); ++i) {
    const int32_t v = indices->Get(i);
    if (v < 0 || static_cast<size_t>(v) >= n) {
      return invalid(path, what + " " + std::to_string(i) + " names value " + std::to_string(v) + " of " +
                           std::to_string(n));
    }
  }
  return Error();
}

}  // namespace

Error check_program_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) return Error(ErrorCode::AccessFailed, path + ": cannot open the program");
  const auto file_size = static_cast<size_t>(f.tellg());
  std::vector<uint8_t> head(std::min(file_size, ExtendedHeader::kNumHeadBytes));
  f.seekg(0);
  f.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size()));
  auto eh = ExtendedHeader::Parse(head.data(), head.size());
  const size_t size = eh.ok() ? static_cast<size_t>(eh->program_size) : file_size;
  if (size > file_size) return invalid(path, "its header declares " + std::to_string(size) + " bytes of " + std::to_string(file_size));
  std::vector<uint8_t> data(size);
  f.seekg(0);
  f.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(size));
  if (!f) return Error(ErrorCode::AccessFailed, path + ": cannot read the program");
  flatbuffers::Verifier verifier(data.data(), data.size());
  if (!executorch_flatbuffer::ProgramBufferHasIdentifier(data.data()) ||
      !executorch_flatbuffer::VerifyProgramBuffer(verifier)) {
    return invalid(path, "truncated, corrupt or from another version");
  }
  const auto* plans = executorch_flatbuffer::GetProgram(data.data())->execution_plan();
  if (plans == nullptr) return invalid(path, "no execution plan");
  for (const auto* plan : *plans) {
    const size_t n = plan->values() == nullptr ? 0 : plan->values()->size();
    const std::string name = plan->name() == nullptr ? "?" : plan->name()->str();
    EDGECL_RETURN_IF_ERROR(check_indices(plan->inputs(), n, "method '" + name + "' input", path));
    EDGECL_RETURN_IF_ERROR(check_indices(plan->outputs(), n, "method '" + name + "' output", path));
    const size_t n_ops = plan->operators() == nullptr ? 0 : plan->operators()->size();
    if (plan->chains() == nullptr) continue;
    for (const auto* chain : *plan->chains()) {
      if (chain->instructions() == nullptr) continue;
      for (const auto* instr : *chain->instructions()) {
        const auto* call = instr->instr_args_as_KernelCall();
        if (call != nullptr && (call->op_index() < 0 || static_cast<size_t>(call->op_index()) >= n_ops)) {
          return invalid(path, "method '" + name + "' calls operator " + std::to_string(call->op_index()) + " of " +
                               std::to_string(n_ops));
        }
      }
    }
  }
  return Error();
}

Error check_training_layout(::executorch::extension::Module& module, const std::string& method,
                            const std::string& path) {
  using ::executorch::runtime::Tag;
  auto one_int = [&](const std::string& name) -> Result<int64_t> {
    auto out = module.execute(name);
    if (!out.ok()) return from_et(out.error(), path + ": not a training program (no " + name + ")");
    if (out->empty() || !out->at(0).isInt()) return invalid(path, name + " gives no index");
    return out->at(0).toInt();
  };
  auto names = module.execute("__et_training_fqn_" + method);
  if (!names.ok()) return from_et(names.error(), path + ": not a training program (no __et_training_fqn_" + method + ")");
  for (const auto& v : names.get()) {
    if (!v.isString()) return invalid(path, "a parameter name is not a string");
  }
  auto grad = one_int("__et_training_gradients_index_" + method);
  if (!grad.ok()) return grad.error();
  auto param = one_int("__et_training_parameters_index_" + method);
  if (!param.ok()) return param.error();
  auto meta = module.method_meta(method);
  if (!meta.ok()) return from_et(meta.error(), path + ": no '" + method + "' method");
  const int64_t n_out = static_cast<int64_t>(meta->num_outputs());
  const int64_t n_names = static_cast<int64_t>(names->size());
  if (*grad < 0 || *grad > *param || *param - *grad != n_names || n_out - *param != n_names) {
    return invalid(path, "gradients from output " + std::to_string(*grad) + ", parameters from " +
                         std::to_string(*param) + " of " + std::to_string(n_out) + " outputs for " +
                         std::to_string(n_names) + " parameter names");
  }
  for (int64_t i = *grad; i < n_out; ++i) {
    auto tag = meta->output_tag(static_cast<size_t>(i));
    if (!tag.ok() || *tag != Tag::Tensor) return invalid(path, "output " + std::to_string(i) + " is not a tensor");
  }
  return Error();
}

Error verify_program(::executorch::extension::Module& module, const std::string& path) {
  EDGECL_RETURN_IF_ERROR(check_program_file(path));
  return from_et(module.load(::executorch::runtime::Program::Verification::InternalConsistency),
                 path + ": not a valid ExecuTorch program (truncated, corrupt or from another version)");
}

Error check_inputs(::executorch::extension::Module& module, const std::string& method,
                   const std::vector<TensorSpec>& specs, const std::string& path) {
  auto meta = module.method_meta(method);
  if (!meta.ok()) return from_et(meta.error(), path + ": no '" + method + "' method");
  if (meta->num_inputs() != specs.size()) {
    return Error(ErrorCode::InvalidProgram, path + ": program takes " + std::to_string(meta->num_inputs()) +
                 " inputs, the manifest's signature declares " + std::to_string(specs.size()));
  }
  for (size_t i = 0; i < specs.size(); ++i) {
    auto info = meta->input_tensor_meta(i);
    if (!info.ok()) return from_et(info.error(), path + ": input " + std::to_string(i) + " is not a tensor");
    const auto sizes = info->sizes();
    const bool same_shape = std::equal(sizes.begin(), sizes.end(), specs[i].shape.begin(), specs[i].shape.end());
    if (!same_shape || info->scalar_type() != scalar_type(specs[i].dtype)) {
      return Error(ErrorCode::InvalidProgram, path + ": input " + std::to_string(i) + " ('" + specs[i].name +
                   "') differs from the signature's " + dtype_name(specs[i].dtype) + " shape");
    }
  }
  return Error();
}

}  // namespace edgecl
