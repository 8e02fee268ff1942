/*
 * SparCL's three policies on the runner's arrays (docs/semantics.md sections 7-9):
 *  - DDR: forgetting statistics over SB rows and removal of the least-forgotten rows,
 *  - TDM: one mask update of one layer (drop by |w| + lam*|g_prev|, grow at random),
 *  - DGM: gradient masks keeping the largest |g| of the live units, refreshed every period.
 * Scores are doubles computed exactly as written; "stable top-k" keeps the k largest scores,
 * ties going to the lower index.
 */
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rng.h"

namespace edgecl {

/// The k best of `candidates` (indices into `score`, any order) by score, ties to the lower
/// index; returned ascending. NaN scores rank below every number.
std::vector<int64_t> stable_top_k(const std::vector<double>& score, std::vector<int64_t> candidates, int64_t k);

/// DDR state over the SB rows of the current task (section 7); arrays are checkpointed as is.
struct DdrState {
  std::vector<uint8_t> removed, ever_correct, last_correct, seen;
  std::vector<int64_t> events;

  /// n rows, none removed, an empty window.
  void reset(int64_t n);
  /// One observation of row r (section 4.9), sequential.
  void observe(int64_t r, bool ok);
  /// Remove the k active rows of lowest score (events; +inf if never correct in the window),
  /// ties to the lower row, or with `draw` the active rows at draw->sample(active count, k);
  /// restart the window. Returns the removed rows, ascending.
  std::vector<int64_t> remove(int64_t k, Stream* draw = nullptr);
  int64_t active_count() const;
  /// The active rows' window: {no events, forgotten at least once, never correct}.
  std::vector<int64_t> window_counts() const;
};

/// One TDM update of one layer (section 8). A unit is one weight, or with `structured` one of the
/// `channels` output channels (its score the sum of its weights' scores, summed as numpy does).
/// `mask` (0/1 float32, n values) is replaced by the new mask; every weight outside the kept units
/// is set to +0 and `kept` (n flags) marks the kept weights, so the caller zeroes the optimizer
/// state elsewhere. `g_prev` is null before the run's first step. Grow draws come from `grow`
/// (one stream for all layers, in order; no draw when nothing grows).
void tdm_update_layer(float* weights, const float* g_prev, int64_t n, int64_t channels, bool structured, double lam,
                      double drop_to, double grow_to, Stream& grow, std::vector<float>* mask, std::vector<uint8_t>* kept);

/// numpy's pairwise float64 sum of n values (np.add.reduce over a contiguous axis).
double pairwise_sum(const double* a, int64_t n);

/// Memory dgm_layer_mask works in, kept across refreshes so a refresh allocates nothing.
struct DgmScratch {
  std::vector<uint32_t> keys, bucket, spare;
};

/// DGM's mask of one layer of n weights (section 9): among live units (`live` != 0) keep
/// n_live - round(ratio * n_live) by stable top-k of |g|; `mask` (resized to n) is 1 there, 0 elsewhere.
void dgm_layer_mask(const float* grad, const float* live, int64_t n, double ratio, std::vector<uint8_t>* mask,
                    DgmScratch* scratch);

/// The DGM refresh clock and masks (one 0/1 byte per weight: the optimizer reads them every step).
struct DgmState {
  bool has_masks = false;
  int64_t steps_since_refresh = 0;
  std::vector<std::vector<uint8_t>> masks;  // one per masked layer when has_masks
  DgmScratch scratch;

  bool due(int64_t period) const { return !has_masks || steps_since_refresh >= period; }
  /// No masks (their memory is kept for the next refresh).
  void clear() { has_masks = false; }
};

}  // namespace edgecl
