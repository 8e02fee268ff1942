/*
 * The training program's planned memory, laid out again when the program loads and whenever the
 * set of skipped copies changes.
 *
 * The export plans one arena for the dense schedule. The sparse products skip the im2col copies
 * whose columns they read in place (direct_columns.h), but the bytes planned for a skipped copy are
 * shared over time with other values, so most of its pages are still written and resident. The
 * runner lays the arena out again from each value's lifetime in the instruction chain: a value and
 * its views are one block, live from the first instruction that names any of them to the last (a
 * program input from the start, an output to the end; a parameter, planned with the bytes the
 * program loads into it, stays where it is); a copy read in place keeps its source live until
 * the copy's last reader, and a skipped one gets no bytes. Blocks are placed largest first, each at the lowest
 * offset free of every block whose lifetime overlaps its own. Only addresses change: every kernel
 * computes the same bits. The evaluation method's arena lives in the training arena's memory (it
 * never runs during a training step), around the training outputs a session reads after the step.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <executorch/runtime/core/exec_aten/exec_aten.h>

namespace edgecl {

class Walker;

/// A copy some of whose readers read its source in place: the source stays live until the copy's
/// last reader, and the copy's output gets no bytes while it is skipped (every reader reads in place).
struct InPlaceRead {
  int copy_out = -1;
  int source = -1;
  int last_reader = -1;
  bool skipped = false;
  bool operator==(const InPlaceRead& o) const {
    return copy_out == o.copy_out && source == o.source && last_reader == o.last_reader && skipped == o.skipped;
  }
};

class Arena final {
 public:
  /// The planned values of the walker's method as blocks with lifetimes; null, with the reason in
  /// `why_not`, for a plan the runner cannot lay out again (the export's layout is then kept).
  static std::unique_ptr<Arena> build(const Walker& w, std::string* why_not);
  ~Arena();
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  /// Places every block but the skipped copies' and points each planned tensor at its new bytes.
  /// Nothing planned may hold a value the program still needs (call it between executions).
  void lay_out(const std::vector<InPlaceRead>& reads);
  size_t bytes() const { return bytes_; }  // the current layout's, parameters included
  /// Counts layouts: a pointer into planned memory taken before a change of generation is stale.
  uint64_t generation() const { return generation_; }

  /// Lay this arena out inside `host`'s memory where it fits, around the host's outputs (the values
  /// read after the host's method returns): for a method that never runs while the host's does, as
  /// evaluation beside training. Stale (lay it out again before running) once the host moves.
  void share_with(const Arena* host);
  bool stale() const { return host_ != nullptr && host_->generation() != host_generation_; }

 private:
  struct Member {
    executorch::runtime::etensor::TensorImpl* impl = nullptr;
    size_t offset = 0;  // in its block
  };
  struct Block {
    size_t bytes = 0;
    int first = 0, last = 0;  // instruction indices; -1 before the first, n after the last
    std::vector<Member> members;
  };
  struct Span {
    size_t lo, hi;
    int first, last;  // the lifetime its bytes are taken for
  };
  Arena() = default;
  int block_of(int value) const;
  /// Offsets of the blocks in `order` (largest first), each at the lowest offset free of every
  /// `taken` span and placed block whose lifetime overlaps its own; returns the top.
  size_t place(const std::vector<size_t>& order, const std::vector<int>& last, std::vector<Span> taken,
               std::vector<size_t>* offset) const;

  std::vector<Block> blocks_;
  std::vector<int> block_of_value_;  // value index -> block, or -1
  std::unique_ptr<uint8_t[]> memory_;
  uint8_t* base_ = nullptr;  // memory_, or the host's
  size_t capacity_ = 0;      // bytes at base_
  int end_ = 0;              // the instruction count: a block live to it is an output
  std::vector<Span> outputs_;  // where the current layout puts the outputs
  size_t pinned_bytes_ = 0, bytes_ = 0;
  uint64_t generation_ = 0;
  const Arena* host_ = nullptr;
  uint64_t host_generation_ = 0;
};

}  // namespace edgecl
