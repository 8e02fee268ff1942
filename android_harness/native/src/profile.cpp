#include "profile.h"

#include "fileio.h"
#include "json_io.h"

namespace edgecl {

Error StepProfile::write(const std::string& path, const OrderedJson& sparse) const {
  static const char* kNames[kParts] = {"swap_wait", "rows", "forward_backward", "dgm", "optimizer", "norm_stats",
                                       "observe", "swap_plan", "trace", "between_steps"};
  OrderedJson out = OrderedJson::object();
  out["steps"] = steps_;
  double total = 0.0;
  OrderedJson parts = OrderedJson::object();
  for (int i = 0; i < kParts; ++i) {
    parts[kNames[i]] = seconds_[i];
    total += seconds_[i];
  }
  out["step_seconds"] = total;
  out["parts"] = parts;
  out["sparse_layers"] = sparse;
  return write_file_atomic(path, to_json_text(out, JsonStyle::kIndent1) + "\n");
}

}  // namespace edgecl
