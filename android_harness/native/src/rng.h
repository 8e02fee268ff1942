/*
 * The run's random generator (docs/semantics.md section 1): SplitMix64 streams keyed by
 * (seed, purpose, a, b). No stream state is ever checkpointed: every draw is keyed by where it
 * is used, so a resumed session regenerates exactly the draws a straight run makes.
 */
#pragma once

#include <cstdint>
#include <vector>

namespace edgecl {

/// What a stream is used for (the `purpose` key of section 1's table).
enum class Purpose : uint64_t {
  kSbFill = 1,    // a = task: which training rows of a task enter the stream buffer
  kSubset = 2,    // a = task, b = 0 (SB) / 1 (EM): a profiling session's subset
  kEpoch = 3,     // a = task, b = epoch: the epoch's permutation of the pool
  kSwap = 4,      // a = task, b = task_step: Miro's swap of one step
  kEmBuild = 5,   // a = task, b = class label: the records of one class entering EM
  kTdmGrow = 6,   // a = task, b = epoch: TDM's random regrowth (layers in order, one stream)
  kDdrDraw = 7,   // a = task, b = epoch: the rows of one DDR removal with ddr_select = "random"
};

/// One SplitMix64 stream.
class Stream final {
 public:
  /// The stream keyed by (seed, purpose, a, b).
  Stream(uint64_t seed, Purpose purpose, uint64_t a, uint64_t b);

  /// The next 64-bit output.
  uint64_t next();
  /// A value in [0, n) (n >= 1): ((next() >> 11) * n) >> 53 with a 128-bit product.
  uint64_t below(uint64_t n);
  /// Fisher-Yates from the back: for i = len-1 down to 1, swap(a[i], a[below(i + 1)]).
  void shuffle(std::vector<int64_t>& a);
  /// k distinct values of [0, n) in draw order (a partial Fisher-Yates from the front).
  std::vector<int64_t> sample(int64_t n, int64_t k);

  /// SplitMix64's finaliser (exposed for tests).
  static uint64_t mix(uint64_t z);

 private:
  uint64_t state_;
};

}  // namespace edgecl
