/*
 * Checkpoints (docs/semantics.md section 10): `checkpoints/ckpt-<iteration>/` holding state.json
 * (position, evaluations, storage position, policy flags) and arrays/<name>.npy (parameters,
 * optimizer state, BatchNorm statistics, masks, g_prev, SB rows and logits, DDR arrays, EM refs),
 * with the names both runners write and read, and runtime/ (empty: ExecuTorch's state is all in
 * the arrays). Written as a temp folder, fsynced, then renamed;
 * the newest `keep_checkpoints` are kept. No generator state: streams are keyed by position.
 */
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "json_io.h"
#include "npz.h"
#include "result.h"

namespace edgecl {

/// state.json, format 2.
struct CheckpointState {
  std::string runtime = "executorch";
  int64_t task = -1;
  bool task_finished = true;
  int64_t epoch = 0;
  int64_t batch = 0;  // next step of the epoch (0: the epoch has not started)
  int64_t task_step = 0;
  int64_t iteration = 0;
  double epoch_loss_sum = 0.0;
  int64_t epoch_loss_n = 0;
  OrderedJson evals = OrderedJson::array();
  std::map<int64_t, int64_t> storage_position;
  int64_t dgm_steps_since_refresh = 0;
  bool dgm_has_masks = false;
  bool tdm_frozen = false;
  bool has_grad_prev = false;
  int64_t opt_step = 0;
  int64_t trace_bytes = 0;
};

/// Arrays by name without ".npy" ("param.features.1.weight", "em_refs", ...).
using ArrayMap = std::map<std::string, NpyArray>;

/// The folder name of the checkpoint at `iteration` ("ckpt-000000012").
std::string checkpoint_name(int64_t iteration);
/// Write the checkpoint under `folder` atomically and drop all but the newest `keep`; returns its path.
Result<std::string> write_checkpoint(const std::string& folder, const CheckpointState& state, const ArrayMap& arrays,
                                     int64_t keep);
/// Complete checkpoints in `folder`, oldest first (folder names).
std::vector<std::string> list_checkpoints(const std::string& folder);
/// The newest complete checkpoint's path, or "" when there is none.
std::string latest_checkpoint(const std::string& folder);
/// Read a checkpoint folder.
Result<CheckpointState> read_checkpoint_state(const std::string& path);
Result<ArrayMap> read_checkpoint_arrays(const std::string& path);

}  // namespace edgecl
