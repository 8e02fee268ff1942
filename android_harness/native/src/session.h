/*
 * The state of one running session and the steps of docs/semantics.md on it. Internal to the
 * runner: runner.cpp drives tasks and epochs (sections 3, 5, 7, 8), session_step.cpp a step
 * (section 4), session_end.cpp a task's end (section 6), session_state.cpp sets the session up,
 * restores it from a checkpoint and writes checkpoints (section 10).
 */
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "checkpoint.h"
#include "events.h"
#include "heartbeat.h"
#include "optimizer.h"
#include "policies.h"
#include "profile.h"
#include "pool.h"
#include "replay_memory.h"
#include "replay_store.h"
#include "runner.h"
#include "schedule.h"
#include "session_spec.h"
#include "shards.h"
#include "trace.h"

namespace edgecl {

class Session final {
 public:
  Session(std::string session_dir, const ModelSource& models, const CancelCheck& cancelled, double launched);
  SessionOutcome run();

 private:
  // session_state.cpp
  Error setup();
  Error restore();
  Error write_checkpoint_now();
  ArrayMap checkpoint_arrays() const;
  Error load_arrays(const ArrayMap& arrays, bool own);
  Error open_store();
  std::string relative(const std::string& path) const;

  // runner.cpp, session_step.cpp, session_end.cpp
  Error body();
  Error train_one(int64_t task, bool started);
  Error build_task(int64_t task, const std::vector<RecordRef>* refs);
  Error start_task(int64_t task);
  Error train_task(int64_t task);
  Error epoch_start(int64_t task, int64_t epoch);
  Error tdm_update(int64_t task, int64_t epoch, const TdmEvent& ev);
  Error step(int64_t task, const EpochOrder& order, int64_t k);
  Error plan_swap(int64_t task, const std::vector<int64_t>& entries, std::vector<SwapChange>* plan);
  /// DGM's gradient masks into `grad_masks` (refreshed first when due); none without DGM.
  Error dgm_masks(int64_t task, std::vector<const uint8_t*>* grad_masks);
  void zero_dead_biases();
  void update_norm_stats();
  /// The step's SB rows: DDR's correctness record and the logits DER keeps.
  void observe_rows(const std::vector<int64_t>& entries, const StepBatch& b);
  Error trace_step(int64_t task, const StepBatch& b, float loss, const std::vector<SwapChange>& plan);
  Error count_step(int64_t task, float loss);
  Error apply_swap();
  Error end_epoch(int64_t task, int64_t pool_size, double t0);
  Error finish_task(int64_t task);
  Error evaluate(int64_t task);
  Error emit(const std::string& type, const OrderedJson& fields);
  bool cancel_now() const { return cancelled_ && cancelled_(); }
  const float* grad_prev(size_t layer) const;

  std::string dir_, root_, ckpt_dir_;
  ModelSource models_;
  CancelCheck cancelled_;
  std::string phase_ = "setup";
  bool was_cancelled_ = false;

  SessionSpec spec_;
  std::string model_dir_;
  std::unique_ptr<EventLog> log_;
  std::unique_ptr<Heartbeat> heartbeat_;  // from session_start to the end of body()
  double launched_;                       // CLOCK_MONOTONIC of this runner's start (t_launch)
  std::unique_ptr<Trace> trace_;
  TaskIndex index_;
  LoadedModel* model_ = nullptr;
  Program* prog_ = nullptr;
  std::unique_ptr<StorageTier> storage_;
  std::unique_ptr<SwapWorker> swap_;
  std::optional<Optimizer> opt_;
  std::string resumed_from_;
  bool own_resume_ = false;

  // Shapes and the signature's names mapped to indices.
  int64_t batch_ = 0, classes_ = 0, numel_ = 0;
  std::vector<size_t> mask_param_;           // masked layer -> index in params()
  std::vector<std::pair<size_t, size_t>> dead_bias_;  // structured TDM: (masked layer, its bias's param index)
  std::vector<std::pair<size_t, size_t>> norm_buffers_;  // BatchNorm layer -> (mean, var) buffer index
  std::vector<float> norm_momentum_;
  RowWeights weights_;
  std::unique_ptr<StepBatch> rows_;  // the step's input rows, reused every step
  bool replay_ = false;  // er / derpp: epochs run over EM ∪ SB

  // Position and results (state.json).
  CheckpointState st_;
  // The current task.
  std::vector<int64_t> task_classes_;
  StreamBuffer sb_{0, 0};
  EpisodicMemory em_{0, 0};
  DdrState ddr_;
  std::map<int64_t, int64_t> ddr_counts_;
  std::map<int64_t, TdmEvent> tdm_events_;
  DgmState dgm_;
  // g_prev: the program's gradients of the last step, or restored from a checkpoint.
  bool has_grad_prev_ = false;
  std::vector<std::vector<float>> restored_grad_prev_;
  std::map<int64_t, Shard> test_shards_;
  double last_resources_ = -1e300;
  StepProfile profile_;
  int64_t swapped_ = 0;
  double swap_seconds_ = 0.0;
};

}  // namespace edgecl
