#include "arena.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include <executorch/schema/program_generated.h>

#include "plan_walker.h"

namespace edgecl {
namespace {

namespace fb = ::executorch_flatbuffer;

constexpr size_t kAlign = 64;  // a cache line: no two blocks share one
constexpr int kNever = std::numeric_limits<int>::max();

size_t aligned(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

}  // namespace

Arena::~Arena() = default;

int Arena::block_of(int value) const {
  return value >= 0 && static_cast<size_t>(value) < block_of_value_.size() ? block_of_value_[static_cast<size_t>(value)] : -1;
}

std::unique_ptr<Arena> Arena::build(const Walker& w, std::string* why_not) {
  const fb::ExecutionPlan& plan = w.plan();
  const auto& instrs = w.instrs();
  const int n = static_cast<int>(instrs.size());
  const size_t num_values = plan.values()->size();
  std::unique_ptr<Arena> arena(new Arena());
  arena->end_ = n;
  for (int i = 0; i < n; ++i) {
    if (instrs[static_cast<size_t>(i)].op.empty()) {
      *why_not = "instruction " + std::to_string(i) + " is not a kernel call";
      return nullptr;
    }
  }
  // Each value's first and last instruction: a program input is live before the first, an output after the last.
  std::vector<int> first(num_values, kNever), last(num_values, -1);
  for (int v = 0; v < static_cast<int>(num_values); ++v) {
    int& f = first[static_cast<size_t>(v)];
    int& l = last[static_cast<size_t>(v)];
    if (const int p = w.producer(v); p >= 0) f = l = p;
    for (int c : w.consumers(v)) {
      f = c >= 0 ? std::min(f, c) : f;
      l = std::max(l, c >= 0 ? c : n);
    }
  }
  for (int v : *plan.inputs()) first[static_cast<size_t>(v)] = -1;

  const auto planned = [&](int v) {
    const auto* t = plan.values()->Get(static_cast<uint32_t>(v))->val_as_Tensor();
    return t != nullptr && t->allocation_info() != nullptr;
  };
  const auto initial = [&](int v) {  // a parameter: planned with bytes the program loads into it
    return plan.values()->Get(static_cast<uint32_t>(v))->val_as_Tensor()->data_buffer_idx() != 0;
  };
  arena->block_of_value_.assign(num_values, -1);
  std::vector<const char*> at;  // each block's address in the export's layout
  std::vector<std::pair<const char*, const char*>> pinned;  // parameters' bytes, which stay where they are
  for (int v = 0; v < static_cast<int>(num_values); ++v) {
    if (!planned(v)) continue;
    int root = v;
    while (w.view_of(root) >= 0) root = w.view_of(root);
    if (!planned(root)) {
      *why_not = "value " + std::to_string(v) + " views a value outside the plan";
      return nullptr;
    }
    const char* p = static_cast<const char*>(w.data(v));
    if (initial(root)) {
      if (root == v) arena->pinned_bytes_ += w.nbytes(v);
      pinned.push_back({p, p + w.nbytes(v)});
      continue;
    }
    if (arena->block_of_value_[static_cast<size_t>(root)] < 0) {
      arena->block_of_value_[static_cast<size_t>(root)] = static_cast<int>(arena->blocks_.size());
      Block b;
      b.bytes = w.nbytes(root);
      b.first = kNever;
      b.last = -1;
      arena->blocks_.push_back(std::move(b));
      at.push_back(static_cast<const char*>(w.data(root)));
    }
    const int id = arena->block_of_value_[static_cast<size_t>(root)];
    arena->block_of_value_[static_cast<size_t>(v)] = id;
    Block& b = arena->blocks_[static_cast<size_t>(id)];
    if (p < at[static_cast<size_t>(id)] || p + w.nbytes(v) > at[static_cast<size_t>(id)] + b.bytes) {
      *why_not = "value " + std::to_string(v) + " reaches outside the value it views";
      return nullptr;
    }
    b.members.push_back({w.impl(v), static_cast<size_t>(p - at[static_cast<size_t>(id)])});
    b.first = std::min(b.first, first[static_cast<size_t>(v)]);
    b.last = std::max(b.last, last[static_cast<size_t>(v)]);
  }
  for (size_t b = 0; b < arena->blocks_.size(); ++b) {
    for (const auto& [lo, hi] : pinned) {
      if (at[b] < hi && lo < at[b] + arena->blocks_[b].bytes) {
        *why_not = "a value shares bytes with a parameter";
        return nullptr;
      }
    }
  }

  // The export's layout must agree with these lifetimes: blocks it places on common bytes are
  // never live together. Otherwise some aliasing is not understood and the layout stays.
  std::vector<size_t> order(arena->blocks_.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return at[a] < at[b]; });
  for (size_t i = 0; i < order.size(); ++i) {
    const Block& a = arena->blocks_[order[i]];
    for (size_t j = i + 1; j < order.size() && at[order[j]] < at[order[i]] + a.bytes; ++j) {
      const Block& b = arena->blocks_[order[j]];
      if (a.first <= b.last && b.first <= a.last) {
        *why_not = "two values the export places on common bytes are live together";
        return nullptr;
      }
    }
  }
  return arena;
}

void Arena::lay_out(const std::vector<InPlaceRead>& reads) {
  std::vector<int> last(blocks_.size());
  std::vector<bool> skip(blocks_.size(), false);
  for (size_t b = 0; b < blocks_.size(); ++b) last[b] = blocks_[b].last;
  for (const InPlaceRead& e : reads) {
    const int copy = block_of(e.copy_out), source = block_of(e.source);
    if (copy >= 0 && e.skipped) skip[static_cast<size_t>(copy)] = true;
    if (source >= 0) last[static_cast<size_t>(source)] = std::max(last[static_cast<size_t>(source)], e.last_reader);
  }
  std::vector<size_t> order;
  size_t spare = 0;  // bytes a skipped or never-named block's pointers may span (never written)
  for (size_t b = 0; b < blocks_.size(); ++b) {
    if (skip[b] || blocks_[b].first == kNever) {
      spare = std::max(spare, blocks_[b].bytes);
    } else {
      order.push_back(b);
    }
  }
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return blocks_[a].bytes != blocks_[b].bytes ? blocks_[a].bytes > blocks_[b].bytes : blocks_[a].first < blocks_[b].first;
  });
  std::vector<size_t> offset(blocks_.size(), 0);
  const size_t least = std::max(spare, kAlign);
  size_t top = 0;
  bool hosted = false;
  if (host_ != nullptr) {
    std::vector<Span> taken = host_->outputs_;
    for (Span& t : taken) t = {t.lo, t.hi, -1, kNever};  // kept across every instruction of this method
    top = place(order, last, std::move(taken), &offset);
    hosted = std::max(top, least) <= host_->capacity_;
    host_generation_ = host_->generation();
  }
  if (hosted) {
    memory_.reset();
    base_ = host_->base_;
    capacity_ = host_->capacity_;
  } else {
    top = place(order, last, {}, &offset);
    // Default-initialized: a page no value writes is never resident.
    capacity_ = std::max(top, least);
    memory_.reset(new uint8_t[capacity_]);
    base_ = memory_.get();
  }
  outputs_.clear();
  for (size_t b = 0; b < blocks_.size(); ++b) {
    for (const Member& m : blocks_[b].members) m.impl->set_data(base_ + offset[b] + m.offset);
    if (!skip[b] && blocks_[b].first != kNever && last[b] >= end_) {
      outputs_.push_back({offset[b], offset[b] + aligned(blocks_[b].bytes), blocks_[b].first, last[b]});
    }
  }
  bytes_ = top + pinned_bytes_;
  ++generation_;
}

size_t Arena::place(const std::vector<size_t>& order, const std::vector<int>& last, std::vector<Span> taken,
                    std::vector<size_t>* offset) const {
  size_t top = 0;
  for (const Span& t : taken) top = std::max(top, t.hi);
  std::vector<Span> placed = std::move(taken);
  for (size_t b : order) {
    const size_t size = aligned(blocks_[b].bytes);
    std::vector<std::pair<size_t, size_t>> busy;
    for (const Span& p : placed) {
      if (p.first <= last[b] && blocks_[b].first <= p.last) busy.push_back({p.lo, p.hi});
    }
    std::sort(busy.begin(), busy.end());
    size_t off = 0;
    for (const auto& [lo, hi] : busy) {
      if (off + size <= lo) break;
      off = std::max(off, hi);
    }
    (*offset)[b] = off;
    placed.push_back({off, off + size, blocks_[b].first, last[b]});
    top = std::max(top, off + size);
  }
  return top;
}

void Arena::share_with(const Arena* host) {
  host_ = host;
  host_generation_ = host->generation() - 1;  // stale until laid out inside the host
}

}  // namespace edgecl
