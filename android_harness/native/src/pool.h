/*
 * What a task trains on and in which order (docs/semantics.md sections 2, 3, 4.3 and 5.3):
 * the stream buffer's rows, a profiling subset, the EM build by water filling, the epoch's pool
 * EM ∪ SB with its permutation and wrap-around steps, and the rows and loss weights of one step.
 */
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "methods.h"
#include "replay_memory.h"

namespace edgecl {

/// SB rows of a task with `n` training rows: 0..n-1, or sort(sample(n, cap)) from SB_FILL.
std::vector<int64_t> sb_rows(uint64_t seed, int64_t task, int64_t n, int64_t cap);
/// A profiling session's subset of `n` items (which = 0: SB rows, 1: EM slots):
/// sort(sample(n, max(1, round(f * n)))) from SUBSET; all of them when f == 1.
std::vector<int64_t> subset(uint64_t seed, int64_t task, int64_t which, int64_t n, double f);
/// Slots per class by water filling `em_size` over the classes' record counts (ascending labels).
std::map<int64_t, int64_t> em_quotas(const std::map<int64_t, int64_t>& records, int64_t em_size);
/// The EM's slot references at a task start: per class ascending, sort(sample(N_c, take_c)) from
/// EM_BUILD.
std::vector<RecordRef> build_em_refs(uint64_t seed, int64_t task, const std::map<int64_t, int64_t>& records,
                                     int64_t em_size);

/// One epoch's order: pool entries (SB row r = r, EM slot s = n_sb + s) permuted.
struct EpochOrder {
  std::vector<int64_t> perm;
  int64_t batch = 0;

  /// ceil(|P| / B).
  int64_t steps() const;
  /// The B pool entries of step k: perm[(k*B + i) mod |P|].
  std::vector<int64_t> step_entries(int64_t k) const;
};

/// The pool [active SB rows ascending] + [EM slots] (when `use_em`), shuffled with EPOCH(task, epoch).
EpochOrder epoch_order(uint64_t seed, int64_t task, int64_t epoch, const std::vector<uint8_t>& removed, int64_t n_em,
                       bool use_em, int64_t batch);

/// How rows are weighted (section 4.3).
struct RowWeights {
  Method method = Method::kFinetune;
  double alpha = 0.0, beta = 0.0;
  bool current_task_logits_only = true;
};

/// The training program's first six inputs for one step, plus each row's sample id.
struct StepBatch {
  int64_t rows = 0, numel = 0, classes = 0;
  std::vector<float> x, logit_mask, ce_weight, target, mse_weight;
  std::vector<int64_t> y, ids;

  StepBatch(int64_t rows_, int64_t numel_, int64_t classes_);
};

/// Fill `batch` with the rows of `entries` (section 4.2-4.3) from SB and EM; `task_classes` are
/// the current task's classes.
void fill_step(const std::vector<int64_t>& entries, const StreamBuffer& sb, const EpisodicMemory& em,
               const std::vector<int64_t>& task_classes, const RowWeights& w, StepBatch* batch);

/// Argmax of `logits` over the classes whose mask is 1 (ties: lowest class).
int64_t masked_argmax(const float* logits, const float* mask, int64_t classes);

}  // namespace edgecl
