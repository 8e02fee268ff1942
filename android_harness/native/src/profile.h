/*
 * Where a session's training steps spend their time, for bench/native_runner.py: with
 * EDGECL_PROFILE=<file> in the environment the runner writes, at the session's end, the wall time of
 * its training steps split by part (swap wait, rows, forward_backward, DGM, optimizer, BatchNorm
 * statistics, DDR/logits, swap plan, trace, between-steps work) as one JSON object, with the session's
 * sparse products (which kernel each masked layer's products ran on, and how often). Both sides of the
 * "runner step / bare forward_backward" ratio are then measured in the same steps of one process.
 */
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "json_io.h"
#include "result.h"

namespace edgecl {

class StepProfile final {
 public:
  enum Part { kSwapWait, kRows, kForwardBackward, kDgm, kOptimizer, kNormStats, kObserve, kSwapPlan, kTrace, kBetween, kParts };
  using Clock = std::chrono::steady_clock;

  /// Time since the previous mark (or `start`) goes to `part`.
  void mark(Part part) {
    const Clock::time_point now = Clock::now();
    seconds_[part] += std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }
  /// A step begins now.
  void start() { last_ = Clock::now(); }
  void count_step() { ++steps_; }
  /// Write the totals and `sparse` (the masked layers' products, sparse_report.h) to `path` (temp then rename).
  Error write(const std::string& path, const OrderedJson& sparse) const;

 private:
  double seconds_[kParts] = {};
  int64_t steps_ = 0;
  Clock::time_point last_ = Clock::now();
};

}  // namespace edgecl
