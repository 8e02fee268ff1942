/*
 * SparCL's task-aware schedules as pure functions of a task's length, exactly as
 * pipeline/sparcl/core/schedule.py (docs/semantics.md sections 7 and 8): TDM's mask updates
 * (expand at epoch 0, swaps, a final drop that freezes the mask) and DDR's removal counts.
 */
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace edgecl {

/// One mask update at the start of `epoch`: drop to `drop_to` sparsity, grow back to `grow_to`.
struct TdmEvent {
  int64_t epoch;
  std::string kind;  // "expand" | "swap" | "final"
  double drop_to;
  double grow_to;
  bool freeze;
};

/// The TDM updates of one task, in epoch order.
std::vector<TdmEvent> tdm_schedule(int64_t epochs, double sparsity, double update_every, double swap,
                                   double freeze_after);
/// Epoch -> share of the task's SB size removed at that epoch's start.
std::map<int64_t, double> ddr_schedule(int64_t epochs, const std::vector<double>& steps, double fraction);
/// Whole counts per removal epoch (cumulative round-half-even of the shares times n).
std::map<int64_t, int64_t> ddr_counts(int64_t n, const std::map<int64_t, double>& points);
/// Units a layer keeps at sparsity s: max(1, min(units, round((1 - s) * units))).
int64_t keep_count(int64_t units, double sparsity);

}  // namespace edgecl
