/*
 * session.json (docs/semantics.md section 10; android_harness/device/session_spec.py and the
 * tables of spec_tables.py, with their defaults and ranges): what one device session runs.
 * Read-only after the host wrote it. Unknown keys and bad values are one error naming every
 * offending key, before anything runs.
 */
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "result.h"

namespace edgecl {

/// The CL recipe (`train` table).
struct TrainConfig {
  std::string method = "derpp";  // finetune | er | derpp | joint
  int64_t epochs = 5;
  int64_t batch_size = 32;
  double lr = 0.03;
  double alpha = 0.1;
  double beta = 0.5;
  bool current_task_logits_only = true;
};

/// Miro's hierarchy (`replay` table).
struct ReplayConfig {
  int64_t em_size = 200;
  int64_t sb_size = 400;
  double swap_ratio = 0.0;
  int64_t swap_period = 1;
  double storage_budget_mb = 256.0;
};

/// SparCL (`sparcl` table): each part runs when `enabled` and its own flag are true.
struct SparclConfig {
  bool enabled = false;
  double sparsity = 0.75;
  bool structured = false;  // TDM units are output channels
  bool tdm = true;
  double tdm_lambda = 0.5;
  double tdm_update_every = 0.1;
  double tdm_swap = 0.01;
  double tdm_freeze_after = 0.9;
  bool ddr = true;
  double ddr_fraction = 0.3;
  std::vector<double> ddr_steps = {0.1, 0.2, 0.3, 0.4};
  std::string ddr_select = "forgetting";  // or "random": the same counts, rows drawn (a control)
  bool ddr_store_removed = false;  // removed rows still go to S at the task end
  bool dgm = true;
  double dgm_ratio = 0.2;
  int64_t dgm_period = 30;

  bool tdm_on() const { return enabled && tdm; }
  bool ddr_on() const { return enabled && ddr && ddr_fraction > 0.0; }
  bool dgm_on() const { return enabled && dgm; }
};

/// One session (paths are relative to the storage root unless absolute).
struct SessionSpec {
  std::string session_id;
  std::string model_dir;
  std::string data_dir;
  std::string replay_dir;
  std::vector<int64_t> tasks;
  uint64_t seed = 0;
  std::string kind = "task";  // task | profiling
  TrainConfig train;
  ReplayConfig replay;
  SparclConfig sparcl;
  std::string resume_from;
  int64_t checkpoint_every = 0;
  int64_t keep_checkpoints = 2;
  bool checkpoint_at_task_end = true;  // false: a profiling session nobody resumes from writes none
  int64_t step_event_every = 10;
  double resources_every_s = 5.0;
  double subset_fraction = 1.0;
  std::string meminfo_path = "/proc/meminfo";
  bool trace = false;

  /// `path` resolved against the storage root.
  std::string resolve(const std::string& storage_root, const std::string& path) const;
};

/// Parse session.json text; `where` names the file in errors.
Result<SessionSpec> parse_session_spec(const std::string& text, const std::string& where);
/// Read `<session_dir>/session.json`.
Result<SessionSpec> read_session_spec(const std::string& session_dir);

}  // namespace edgecl
