/*
 * The replay store's RAM tier (docs/semantics.md section 2): the stream buffer SB (the current
 * task's training rows) and the episodic memory EM (slots referring to records (class, k) of the
 * storage tier, with the record's input, label, id and stored logits held in RAM), plus Miro's
 * swap worker: one background thread that reads the records a swap planned while the next step
 * computes; the runner applies them at the start of that step.
 */
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "replay_store.h"
#include "result.h"

namespace edgecl {

/// Fixed-width sample rows: input (numel floats), label, sample id, logits (n_logits floats).
struct SampleRows {
  int64_t numel = 0;
  int64_t n_logits = 0;
  std::vector<float> x;
  std::vector<float> logits;
  std::vector<int64_t> y;
  std::vector<int64_t> ids;

  SampleRows(int64_t numel_, int64_t n_logits_) : numel(numel_), n_logits(n_logits_) {}
  int64_t size() const { return static_cast<int64_t>(y.size()); }
  void resize(int64_t n);
  float* x_row(int64_t i) { return x.data() + i * numel; }
  const float* x_row(int64_t i) const { return x.data() + i * numel; }
  float* logits_row(int64_t i) { return logits.data() + i * n_logits; }
  const float* logits_row(int64_t i) const { return logits.data() + i * n_logits; }
};

/// SB: row r is task row rows[r] (sample id (task << 32) | rows[r]); DER++ logits start at 0.
struct StreamBuffer {
  SampleRows data;
  std::vector<int64_t> rows;
  StreamBuffer(int64_t numel, int64_t n_logits) : data(numel, n_logits) {}
  int64_t size() const { return data.size(); }
};

/// A reference to a record of the storage tier: (class, k).
using RecordRef = std::pair<int64_t, int64_t>;

/// EM: slot s refers to record refs[s]; data holds that record's contents.
struct EpisodicMemory {
  SampleRows data;
  std::vector<RecordRef> refs;
  EpisodicMemory(int64_t numel, int64_t n_logits) : data(numel, n_logits) {}
  int64_t size() const { return static_cast<int64_t>(refs.size()); }
  /// Point slot `s` at `sample` (its ref, input, label, id, logits).
  void set_slot(int64_t s, const RecordRef& ref, const StoredSample& sample);
};

/// Fill `em` with the records `refs` of `storage`, in order.
Error load_em(const StorageTier& storage, const std::vector<RecordRef>& refs, EpisodicMemory* em);

/// One planned slot change: slot `slot` will refer to `ref`.
struct SwapChange {
  int64_t slot;
  RecordRef ref;
};

/// Reads planned swaps on a background thread; at most one plan in flight. When the step is faster
/// than the thread gets scheduled, apply() reads a plan the thread has not started itself, so a
/// busy CPU never makes the step wait (the result is the same either way).
class SwapWorker final {
 public:
  explicit SwapWorker(const StorageTier* storage);
  ~SwapWorker();
  SwapWorker(const SwapWorker&) = delete;
  SwapWorker& operator=(const SwapWorker&) = delete;

  /// Start reading `plan` (a plan still in flight must have been applied).
  void submit(std::vector<SwapChange> plan);
  bool pending() const { return pending_; }
  /// Wait for the plan in flight and write it into `em`; returns the slots changed (0 if none)
  /// and adds the reading time to *seconds.
  Result<int64_t> apply(EpisodicMemory* em, double* seconds);

 private:
  void run();
  /// Read `plan` (no lock held); the records, or the first error.
  void read_plan(const std::vector<SwapChange>& plan, std::vector<StoredSample>* out, Error* err, double* secs) const;

  const StorageTier* storage_;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool has_job_ = false;
  bool done_ = false;
  bool pending_ = false;
  std::vector<SwapChange> plan_;
  std::vector<StoredSample> read_;
  Error error_;
  double seconds_ = 0.0;
};

}  // namespace edgecl
