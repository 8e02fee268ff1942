#include "sparse_plan.h"

#include <algorithm>
#include <map>

#include "direct_columns.h"
#include "plan_walker.h"

namespace edgecl {
namespace {

namespace et = ::executorch;
using kernels::SparseProduct;
using kernels::SparsePattern;

}  // namespace

struct SparsePlan::Product {
  int instr = -1;
  SparseProduct::Kind kind = SparseProduct::Kind::kLeft;
  std::string role;
  int64_t rows = 0, cols = 0;    // the sparse matrix (one matrix of a batch)
  std::vector<int32_t> map;      // kLeft/kRight: entry -> mask index; kOutput: mask index -> entry
  SparsePattern pattern;
  SparseProduct dispatch;
  const void* key = nullptr;
  std::unique_ptr<kernels::DirectColumns> direct;  // its dense side in place, where it may be read so
};

/// An im2col copy every reader of which may read its source in place: skipped while all do.
struct SparsePlan::Copy {
  const void* key = nullptr;
  std::vector<Product*> readers;
  std::vector<int64_t> offsets;  // each reader's first element in the source
  et::runtime::etensor::TensorImpl* source = nullptr;
  InPlaceRead read;  // what the arena allows for while any reader reads in place
  bool skip = false;
};

struct SparsePlan::Layer {
  std::string name;
  int64_t numel = 0;
  std::vector<std::unique_ptr<Product>> products;
};

SparsePlan::SparsePlan() = default;

SparsePlan::~SparsePlan() {
  for (auto& layer : layers_) {
    for (auto& p : layer->products) kernels::unregister_sparse_product(p->key);
  }
  for (auto& c : copies_) kernels::unregister_elided_copy(c->key);
  if (arena_ != nullptr && !reads_.empty()) arena_->lay_out({});  // the export's schedule again
}

namespace {

/// Products reading the weight: every mm / bmm reached from `v` (index tensor `t`) through layout copies.
void trace_forward(const Walker& w, int v, const IndexTensor& t, std::vector<std::pair<int, IndexTensor>>* found,
                   std::vector<int>* operand) {
  for (int c : w.consumers(v)) {
    if (c < 0) continue;
    const Instr& ins = w.instrs()[static_cast<size_t>(c)];
    if (is_product(ins.op)) {
      const int pos = ins.args[0] == v ? 0 : 1;
      found->push_back({c, t});
      operand->push_back(pos);
    } else if (is_layout(ins.op) && ins.args[0] == v) {
      IndexTensor next;
      if (w.apply(ins, t, &next)) trace_forward(w, ins.out(), next, found, operand);
    }
  }
  if (t.repeat != 1) return;
  for (int view : w.views(v)) trace_forward(w, view, {w.shape(view), t.v}, found, operand);
}

/// The weight-gradient product behind `g` (through layout copies read by nothing else, and the
/// batch sum of a bmm): its instruction and, per entry of `g`, the product matrix's entry; or -1.
int trace_gradient(const Walker& w, int g, IndexTensor* map, int64_t* rows, int64_t* cols) {
  std::vector<std::pair<int, int>> chain;  // (layout instruction or -1 for a view, its output value), last first
  int v = g;
  int sum = -1;
  while (true) {
    const auto users = w.consumers(v);
    if (users.size() + w.views(v).size() != 1 || (!users.empty() && users[0] < 0)) return -1;
    const int p = w.producer(v);
    if (sum >= 0 && (p < 0 || !is_product(w.instrs()[static_cast<size_t>(p)].op))) return -1;  // bmm, then its sum
    if (p < 0) {
      const int src = w.view_of(v);
      if (src < 0) return -1;
      chain.push_back({-1, v});
      v = src;
      continue;
    }
    const Instr& ins = w.instrs()[static_cast<size_t>(p)];
    if (is_product(ins.op)) {
      if ((ins.op == "aten::bmm.out") != (sum >= 0)) return -1;
      const auto shape = w.shape(ins.out());
      *rows = shape[shape.size() - 2];
      *cols = shape[shape.size() - 1];
      IndexTensor t = iota({*rows, *cols});
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        IndexTensor next;
        if (it->first < 0) {
          next = {w.shape(it->second), t.v};
        } else if (!w.apply(w.instrs()[static_cast<size_t>(it->first)], t, &next)) {
          return -1;
        }
        t = std::move(next);
      }
      *map = std::move(t);
      return p;
    }
    if (ins.op == "aten::sum.IntList_out") {
      if (sum >= 0) return -1;
      const auto dims = w.int_list(ins.args[1]);
      if (w.shape(ins.args[0]).size() != 3 || dims.size() != 1 || dims[0] != 0 || w.flag(ins.args[2])) return -1;
      sum = p;
    } else if (!is_layout(ins.op) || ins.op == "aten::expand_copy.out" || ins.op == "aten::flip.out") {
      return -1;
    } else {
      chain.push_back({p, v});
    }
    v = ins.args[0];
  }
}

}  // namespace

Result<std::unique_ptr<SparsePlan>> SparsePlan::build(const Walker& w, Arena* arena,
                                                      const std::vector<std::string>& mask_names,
                                                      const std::vector<int>& mask_values) {
  std::unique_ptr<SparsePlan> plan(new SparsePlan());
  plan->arena_ = arena;
  for (size_t l = 0; l < mask_names.size(); ++l) {
    auto layer = std::make_unique<Layer>();
    layer->name = mask_names[l];
    const int mask = mask_values[l];
    if (!w.is_tensor(mask)) return Error(ErrorCode::InvalidProgram, "mask input of " + mask_names[l] + " is not a tensor");
    const auto mshape = w.shape(mask);
    layer->numel = numel(mshape);
    std::vector<std::pair<int, IndexTensor>> found;
    std::vector<int> operand;
    for (int c : w.consumers(mask)) {
      if (c < 0) continue;
      const Instr& mul = w.instrs()[static_cast<size_t>(c)];
      if (mul.op != "aten::mul.out" || mul.args.size() < 3) continue;
      const int other = mul.args[0] == mask ? mul.args[1] : mul.args[0];
      if (!w.is_tensor(other) || numel(w.shape(other)) != layer->numel) continue;
      IndexTensor gmap;
      int64_t rows = 0, cols = 0;
      const int prod = trace_gradient(w, other, &gmap, &rows, &cols);
      if (prod >= 0 && numel(gmap.shape) == layer->numel) {
        auto p = std::make_unique<Product>();
        p->instr = prod;
        p->kind = SparseProduct::Kind::kOutput;
        p->role = "weight_grad";
        p->rows = rows;
        p->cols = cols;
        p->map = std::move(gmap.v);
        p->key = w.impl(w.instrs()[static_cast<size_t>(prod)].out());
        layer->products.push_back(std::move(p));
        continue;
      }
      trace_forward(w, mul.out(), iota(mshape), &found, &operand);
    }
    for (size_t f = 0; f < found.size(); ++f) {
      const Instr& ins = w.instrs()[static_cast<size_t>(found[f].first)];
      IndexTensor& t = found[f].second;
      const size_t rank = t.shape.size();
      if (rank != (ins.op == "aten::mm.out" ? 2u : 3u)) continue;
      const int64_t rows = t.shape[rank - 2], cols = t.shape[rank - 1];
      if (t.repeat != 1 && (t.repeat != t.shape[0] || static_cast<int64_t>(t.v.size()) != rows * cols)) continue;
      if (rank == 3 && t.repeat == 1) {  // every matrix of the batch the same (an expanded weight)
        bool same = true;
        for (size_t e = static_cast<size_t>(rows * cols); e < t.v.size() && same; ++e) same = t.v[e] == t.v[e % (rows * cols)];
        if (!same) continue;
        t.v.resize(static_cast<size_t>(rows * cols));
      }
      auto p = std::make_unique<Product>();
      p->instr = found[f].first;
      p->kind = operand[f] == 0 ? SparseProduct::Kind::kLeft : SparseProduct::Kind::kRight;
      p->rows = rows;
      p->cols = cols;
      p->map = std::move(t.v);
      p->key = w.impl(ins.out());
      layer->products.push_back(std::move(p));
    }
    std::sort(layer->products.begin(), layer->products.end(), [](const auto& a, const auto& b) { return a->instr < b->instr; });
    bool first = true;
    for (auto& p : layer->products) {
      if (p->kind == SparseProduct::Kind::kOutput) continue;
      p->role = first ? "forward" : "input_grad";
      first = false;
    }
    plan->layers_.push_back(std::move(layer));
  }
  if (arena != nullptr) plan->read_columns_in_place(w);
  for (auto& layer : plan->layers_) {
    for (auto& p : layer->products) kernels::register_sparse_product(p->key, &p->dispatch);
  }
  return plan;
}

void SparsePlan::read_columns_in_place(const Walker& w) {
  std::map<int, std::vector<std::pair<Product*, ColumnsSite>>> by_copy;
  for (auto& layer : layers_) {
    for (auto& p : layer->products) {
      if (p->kind == SparseProduct::Kind::kRight) continue;
      ColumnsSite site;
      // kLeft: the weight times the columns; kOutput: the columns times the output gradient.
      const int operand = p->kind == SparseProduct::Kind::kLeft ? 1 : 0;
      if (find_columns(w, p->instr, operand, &site) && fills_vectors(site.columns.seg_len)) {
        by_copy[site.copy].push_back({p.get(), std::move(site)});
      }
    }
  }
  for (auto& [copy, sites] : by_copy) {
    const std::vector<int> readers = copy_readers(w, copy);
    int last = copy;
    bool all = !readers.empty();
    for (int r : readers) {
      all = all && r >= 0 && std::any_of(sites.begin(), sites.end(), [&](const auto& s) { return s.first->instr == r; });
      last = std::max(last, r);
    }
    const int source = sites.front().second.source;
    if (!all || std::any_of(sites.begin(), sites.end(), [&](const auto& s) { return s.second.source != source; })) continue;
    auto c = std::make_unique<Copy>();
    c->key = w.impl(w.instrs()[static_cast<size_t>(copy)].out());
    c->source = w.impl(source);
    c->read = {w.instrs()[static_cast<size_t>(copy)].out(), source, last, false};
    for (auto& [product, site] : sites) {
      site.columns.source = static_cast<const float*>(w.data(source)) + site.offset;
      product->direct = std::make_unique<kernels::DirectColumns>(std::move(site.columns));
      c->readers.push_back(product);
      c->offsets.push_back(site.offset);
    }
    kernels::register_elided_copy(c->key, &c->skip);
    copies_.push_back(std::move(c));
  }
}

namespace {

double crossover(SparseProduct::Kind kind) {
  return kind == SparseProduct::Kind::kLeft ? kLeftCrossover : kind == SparseProduct::Kind::kRight ? kRightCrossover
                                                                                                   : kOutputCrossover;
}

}  // namespace

bool SparsePlan::runs_sparse(const Product& p) const {
  return enabled_ && (p.pattern.rectangular || p.pattern.density() <= crossover(p.kind));
}

void SparsePlan::choose(Product& p) const {
  const double crossover = edgecl::crossover(p.kind);
  p.dispatch.kind = p.kind;
  p.dispatch.pattern = &p.pattern;
  // Counts alone (rebuild found the product dense) cannot drive a sparse kernel: dense until the next rebuild.
  p.dispatch.use_dense = !runs_sparse(p) || !p.pattern.has_entries;
  // A rectangle (a channel mask, a full layer) denser than the crossover runs the dense kernel
  // compacted, on the copy; a sparser one the CSR walk in place (measured: bench-step at channel
  // sparsity 0.9, resnet18_reduced 130 -> 110 ms a step).
  const bool compacted = p.kind == SparseProduct::Kind::kOutput ? kernels::output_compacted(p.pattern)
                                                                 : kernels::left_compacted(p.pattern);
  const bool on_copy = compacted && p.pattern.density() > crossover;
  p.dispatch.direct = p.dispatch.use_dense || on_copy ? nullptr : p.direct.get();
}

void SparsePlan::update_copies() {
  const auto in_place = [](const Product* p) { return p->dispatch.direct != nullptr; };
  std::vector<InPlaceRead> reads;
  for (auto& c : copies_) {
    c->skip = std::all_of(c->readers.begin(), c->readers.end(), in_place);
    c->read.skipped = c->skip;
    if (std::any_of(c->readers.begin(), c->readers.end(), in_place)) reads.push_back(c->read);
  }
  if (arena_ == nullptr || (reads == reads_ && !arena_->stale())) return;
  arena_->lay_out(reads);
  reads_ = std::move(reads);
  for (auto& c : copies_) {
    const float* source = static_cast<const float*>(c->source->data());
    for (size_t r = 0; r < c->readers.size(); ++r) c->readers[r]->direct->source = source + c->offsets[r];
  }
}

void SparsePlan::set_enabled(bool on) {
  enabled_ = on;
  for (auto& layer : layers_) {
    for (auto& p : layer->products) choose(*p);
  }
  update_copies();
}

void SparsePlan::set_timed(bool on) {
  for (auto& layer : layers_) {
    for (auto& p : layer->products) p->dispatch.timed = on;
  }
}

void SparsePlan::rebuild(const std::vector<const float*>& masks, const std::vector<const float*>& grad_masks) {
  for (size_t l = 0; l < layers_.size(); ++l) {
    Layer& layer = *layers_[l];
    const float* mask = masks[l];
    const float* gmask = l < grad_masks.size() ? grad_masks[l] : nullptr;
    for (auto& p : layer.products) {
      std::vector<uint8_t> live(static_cast<size_t>(p->rows * p->cols), 0);
      if (p->kind == SparseProduct::Kind::kOutput) {
        for (size_t q = 0; q < p->map.size(); ++q) {  // & not &&: no branch on a random mask
          live[static_cast<size_t>(p->map[q])] = (mask[q] != 0.0f) & (gmask == nullptr ? true : gmask[q] != 0.0f);
        }
      } else {
        for (size_t e = 0; e < live.size(); ++e) live[e] = mask[p->map[e]] != 0.0f;
      }
      // The entries only where a sparse kernel will walk them: a rebuild (every TDM update) of a layer
      // that runs dense costs a count, not the index lists.
      p->pattern = SparsePattern::from_flags(live.data(), p->rows, p->cols, false);
      if (runs_sparse(*p)) p->pattern.add_entries(live.data());
      choose(*p);
    }
  }
  update_copies();
}

std::vector<LayerReport> SparsePlan::report() const {
  std::vector<LayerReport> out;
  for (const auto& layer : layers_) {
    LayerReport r{layer->name, {}};
    for (const auto& p : layer->products) {
      r.products.push_back({p->role, p->pattern.density(), p->pattern.rectangular, p->dispatch.use_dense,
                            p->dispatch.direct != nullptr, p->dispatch.stats});
    }
    out.push_back(std::move(r));
  }
  return out;
}

void SparsePlan::reset_stats() {
  for (auto& layer : layers_) {
    for (auto& p : layer->products) p->dispatch.stats = {};
  }
}

}  // namespace edgecl
