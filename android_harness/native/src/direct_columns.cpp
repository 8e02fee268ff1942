#include "direct_columns.h"

#include <algorithm>

namespace edgecl {
namespace {

/// Offsets of an odometer over `size` with `stride` (last dimension fastest).
std::vector<int64_t> offsets(const std::vector<int64_t>& size, const std::vector<int64_t>& stride) {
  std::vector<int64_t> out{0};
  for (size_t d = 0; d < size.size(); ++d) {
    std::vector<int64_t> next;
    next.reserve(out.size() * static_cast<size_t>(size[d]));
    for (int64_t base : out) {
      for (int64_t i = 0; i < size[d]; ++i) next.push_back(base + i * stride[d]);
    }
    out = std::move(next);
  }
  return out;
}

int64_t product_of(const std::vector<int64_t>& v, size_t lo, size_t hi) {
  int64_t p = 1;
  for (size_t d = lo; d < hi; ++d) p *= v[d];
  return p;
}

}  // namespace

bool find_columns(const Walker& w, int instr, int operand, ColumnsSite* site) {
  const Instr& ins = w.instrs()[static_cast<size_t>(instr)];
  const int v = ins.args[static_cast<size_t>(operand)];
  if (!w.is_tensor(v)) return false;
  const int out = w.producer(v) >= 0 ? v : w.view_of(v);
  if (out < 0 || w.producer(out) < 0) return false;
  const int copy = w.producer(out);
  const Instr& c = w.instrs()[static_cast<size_t>(copy)];
  if (c.op != "aten::as_strided_copy.out" || c.args.size() < 5 || !w.is_tensor(c.args[0])) return false;
  const int source = c.args[0];
  // A program input's bytes may be replaced between calls (set_input); an instruction's output stays put.
  if (w.producer(source) < 0) return false;
  const std::vector<int64_t> size = w.int_list(c.args[1]), stride = w.int_list(c.args[2]);
  const int64_t offset = w.int_or(c.args[3], 0);
  const std::vector<int64_t> matrix = w.shape(v);
  const bool batched = ins.op == "aten::bmm.out";
  if (size.empty() || size.size() != stride.size() || matrix.size() != (batched ? 3u : 2u) || offset < 0) return false;
  if (std::any_of(stride.begin(), stride.end(), [](int64_t s) { return s < 0; })) return false;
  if (std::any_of(size.begin(), size.end(), [](int64_t s) { return s <= 0; })) return false;
  const size_t first = batched ? 1 : 0, rank = size.size();
  if (batched && size[0] != matrix[0]) return false;
  const int64_t rows = matrix[matrix.size() - 2], cols = matrix.back();
  size_t split = first;
  while (split < rank && product_of(size, first, split) < rows) ++split;
  if (split >= rank || product_of(size, first, split) != rows || product_of(size, split, rank) != cols) return false;
  if (stride[rank - 1] != 1) return false;
  // The farthest element read must lie inside the source.
  int64_t last = offset;
  for (size_t d = 0; d < rank; ++d) last += (size[d] - 1) * stride[d];
  if (static_cast<size_t>(last + 1) * sizeof(float) > w.nbytes(source)) return false;
  site->copy = copy;
  site->source = source;
  site->offset = offset;
  site->columns.batch_stride = batched ? stride[0] : 0;
  site->columns.row_off = offsets({size.begin() + static_cast<long>(first), size.begin() + static_cast<long>(split)},
                                  {stride.begin() + static_cast<long>(first), stride.begin() + static_cast<long>(split)});
  site->columns.seg_off = offsets({size.begin() + static_cast<long>(split), size.end() - 1},
                                  {stride.begin() + static_cast<long>(split), stride.end() - 1});
  site->columns.seg_len = size[rank - 1];
  return true;
}

std::vector<int> copy_readers(const Walker& w, int copy) {
  std::vector<int> readers, values{w.instrs()[static_cast<size_t>(copy)].out()};
  while (!values.empty()) {
    const int v = values.back();
    values.pop_back();
    for (int r : w.consumers(v)) readers.push_back(r);
    for (int view : w.views(v)) values.push_back(view);
  }
  return readers;
}

}  // namespace edgecl
