#include "method_layout.h"

#include <executorch/schema/program_generated.h>

namespace edgecl {

Result<MethodLayout> MethodLayout::of(::executorch::runtime::Result<::executorch::runtime::Method*> method,
                                      const std::string& path) {
  if (!method.ok()) return from_et(method.error(), path + ": no method");
  MethodLayout laid;
  laid.walker = std::make_unique<Walker>(*method.get());
  if (const auto* sizes = laid.walker->plan().non_const_buffer_sizes()) {
    for (uint32_t i = 1; i < sizes->size(); ++i) laid.planned_bytes += static_cast<size_t>(sizes->Get(i));
  }
  laid.arena = Arena::build(*laid.walker, &laid.why_not);
  if (laid.arena) laid.arena->lay_out({});
  return laid;
}

Result<std::unique_ptr<SparsePlan>> MethodLayout::sparse_plan(const Signature& sig, const std::vector<TensorSpec>& inputs,
                                                              const std::string& path) {
  const auto* plan_inputs = walker->plan().inputs();
  std::vector<int> mask_values;
  for (const auto& name : sig.mask_names) {
    const std::string input = Signature::mask_input_name(name);
    const int at = Signature::find(inputs, input);
    if (at < 0 || static_cast<uint32_t>(at) >= plan_inputs->size()) {
      return Error(ErrorCode::InvalidProgram, path + ": no input '" + input + "' for the mask of " + name);
    }
    mask_values.push_back(plan_inputs->Get(static_cast<uint32_t>(at)));
  }
  auto plan = SparsePlan::build(*walker, arena.get(), sig.mask_names, mask_values);
  if (!plan.ok()) return plan.error().with_context(path);
  return plan;
}

}  // namespace edgecl
