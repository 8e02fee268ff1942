/*
 * A loaded program's execution plan as a graph: its kernel instructions in order, which instruction
 * writes and which read each value, and which values are views (reshapes the memory plan places on
 * their source's bytes, with no instruction). The sparse plan walks it once when a program loads.
 */
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <executorch/runtime/executor/method.h>

namespace executorch_flatbuffer {
struct ExecutionPlan;
}

namespace edgecl {

/// One kernel instruction: operator name ("aten::mm.out") and argument value indices (the output last).
struct Instr {
  std::string op;
  std::vector<int> args;
  int out() const { return args.empty() ? -1 : args.back(); }
};

/// Values of a tensor's elements (mask or product entry indices) in its shape. An expand over
/// leading dimensions (a weight broadcast over the batch) keeps one block: v holds the entries of the
/// trailing dimensions once, the same for each of the `repeat` leading positions.
struct IndexTensor {
  std::vector<int64_t> shape;
  std::vector<int32_t> v;
  int64_t repeat = 1;
};

int64_t numel(const std::vector<int64_t>& shape);
/// An index tensor of `shape` whose entries are their own flat indices.
IndexTensor iota(const std::vector<int64_t>& shape);

bool is_layout(const std::string& op);   // a copy that only moves entries (view, permute, flip, expand)
bool is_product(const std::string& op);  // mm or bmm

class Walker {
 public:
  explicit Walker(const executorch::runtime::Method& method);

  const executorch_flatbuffer::ExecutionPlan& plan() const { return *method_.serialization_plan(); }
  /// Kernel instructions in chain order (another kind of instruction: an empty op).
  const std::vector<Instr>& instrs() const { return instrs_; }
  /// Instructions reading `v`, directly or as an item of a tensor list, or writing it as an
  /// output other than the last (-1: a program output).
  std::vector<int> consumers(int v) const;
  /// The instruction writing `v`, or -1.
  int producer(int v) const;
  /// The value `v` is a view of (or -1), and the views of `v`.
  int view_of(int v) const;
  std::vector<int> views(int v) const;

  bool is_tensor(int v) const;
  std::vector<int64_t> shape(int v) const;
  std::vector<int64_t> int_list(int v) const;
  /// An int argument's value, `fallback` when it is None.
  int64_t int_or(int v, int64_t fallback) const;
  bool flag(int v) const;
  const void* data(int v) const;
  size_t nbytes(int v) const;
  executorch::runtime::etensor::TensorImpl* impl(int v) const;

  /// `in` carried through the layout instruction `i` (its output's index tensor), or false; a
  /// repeated block goes through no further layout copy.
  bool apply(const Instr& i, const IndexTensor& in, IndexTensor* out) const;

 private:
  void find_views(const executorch_flatbuffer::ExecutionPlan& plan);

  const executorch::runtime::Method& method_;
  std::vector<Instr> instrs_;
  std::map<int, int> producer_;
  std::map<int, std::vector<int>> consumers_;
  std::map<int, int> view_of_;
  std::map<int, std::vector<int>> views_;
};

}  // namespace edgecl
