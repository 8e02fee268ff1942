#include "sparse_plan.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include <executorch/schema/program_generated.h>

namespace edgecl {
namespace {

namespace et = ::executorch;
using et::runtime::EValue;
using kernels::SparseProduct;
using kernels::SparsePattern;

/// One kernel instruction: operator name ("aten::mm.out") and argument value indices (the output last).
struct Instr {
  std::string op;
  std::vector<int> args;
  int out() const { return args.empty() ? -1 : args.back(); }
};

/// Values of a tensor's elements (mask or product entry indices) in its shape.
struct IndexTensor {
  std::vector<int64_t> shape;
  std::vector<int32_t> v;
};

int64_t numel(const std::vector<int64_t>& shape) {
  return std::accumulate(shape.begin(), shape.end(), int64_t{1}, std::multiplies<int64_t>());
}

std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d) s[d] = s[d + 1] * shape[d + 1];
  return s;
}

/// out[c] = in[base + sum_d c[d] * step[d]] over out's shape (an odometer).
IndexTensor gather_strided(const IndexTensor& in, const std::vector<int64_t>& out_shape, int64_t base,
                           const std::vector<int64_t>& step) {
  IndexTensor out{out_shape, std::vector<int32_t>(static_cast<size_t>(numel(out_shape)))};
  std::vector<int64_t> c(out_shape.size(), 0);
  int64_t off = base;
  for (size_t e = 0; e < out.v.size(); ++e) {
    out.v[e] = in.v[static_cast<size_t>(off)];
    for (int64_t d = static_cast<int64_t>(c.size()) - 1; d >= 0; --d) {
      if (++c[d] < out_shape[d]) {
        off += step[d];
        break;
      }
      off -= step[d] * (out_shape[d] - 1);
      c[d] = 0;
    }
  }
  return out;
}

const char* const kIdentity[] = {"aten::view_copy.out", "executorch_prim::et_view.default", "aten::squeeze_copy.dims_out",
                                 "aten::squeeze_copy.dim_out", "aten::unsqueeze_copy.out", "aten::clone.out",
                                 "aten::alias_copy.out", "dim_order_ops::_clone_dim_order.out"};

bool is_identity(const std::string& op) {
  return std::find(std::begin(kIdentity), std::end(kIdentity), op) != std::end(kIdentity);
}

bool is_layout(const std::string& op) {
  return is_identity(op) || op == "aten::permute_copy.out" || op == "aten::t_copy.out" || op == "aten::flip.out" ||
         op == "aten::expand_copy.out";
}

bool is_product(const std::string& op) { return op == "aten::mm.out" || op == "aten::bmm.out"; }

std::vector<int64_t> wrap_dims(et::aten::ArrayRef<int64_t> dims, size_t rank) {
  std::vector<int64_t> out;
  for (int64_t d : dims) out.push_back(d < 0 ? d + static_cast<int64_t>(rank) : d);
  return out;
}

class Walker {
 public:
  explicit Walker(const et::runtime::Method& method) : method_(method) {
    const auto* plan = method.serialization_plan();
    for (const auto* chain : *plan->chains()) {
      for (const auto* ins : *chain->instructions()) {
        Instr instr;
        if (ins->instr_args_type() == executorch_flatbuffer::InstructionArguments::KernelCall) {
          const auto* call = ins->instr_args_as_KernelCall();
          const auto* op = plan->operators()->Get(call->op_index());
          instr.op = op->name()->str() + (op->overload() && op->overload()->size() ? "." + op->overload()->str() : "");
          instr.args.assign(call->args()->begin(), call->args()->end());
        }
        const int idx = static_cast<int>(instrs_.size());
        instrs_.push_back(std::move(instr));
        const Instr& in = instrs_.back();
        if (in.args.empty()) continue;
        producer_[in.out()] = idx;
        std::set<int> read(in.args.begin(), in.args.end() - 1);
        read.erase(in.out());
        for (int v : read) consumers_[v].push_back(idx);
      }
    }
    for (int v : *plan->outputs()) consumers_[v].push_back(-1);
    find_views(*plan);
  }

  /// A view (reshape) in the plan is no instruction: a value with no producer that shares its
  /// source's memory. Its source is the last value written at that address before the view's
  /// first use (the memory plan keeps the source alive while the view lives), of the same size.
  void find_views(const executorch_flatbuffer::ExecutionPlan& plan) {
    std::map<const void*, std::vector<int>> writes;  // address -> instructions writing there, in order
    for (size_t i = 0; i < instrs_.size(); ++i) {
      const int out = instrs_[i].out();
      if (is_tensor(out) && data(out) != nullptr) writes[data(out)].push_back(static_cast<int>(i));
    }
    std::set<int> inputs(plan.inputs()->begin(), plan.inputs()->end());
    for (const auto& [v, users] : consumers_) {
      if (producer(v) >= 0 || inputs.count(v) || !is_tensor(v) || data(v) == nullptr) continue;
      int first = -1;
      for (int u : users) first = u >= 0 && (first < 0 || u < first) ? u : first;
      auto it = writes.find(data(v));
      if (first < 0 || it == writes.end()) continue;
      int src = -1;
      for (int i : it->second) src = i < first ? instrs_[static_cast<size_t>(i)].out() : src;
      if (src >= 0 && src != v && numel(shape(src)) == numel(shape(v))) {
        view_of_[v] = src;
        views_[src].push_back(v);
      }
    }
  }

  /// The value `v` is a view of (or -1), and the views of `v`.
  int view_of(int v) const {
    auto it = view_of_.find(v);
    return it == view_of_.end() ? -1 : it->second;
  }
  std::vector<int> views(int v) const {
    auto it = views_.find(v);
    return it == views_.end() ? std::vector<int>{} : it->second;
  }

  const std::vector<Instr>& instrs() const { return instrs_; }
  std::vector<int> consumers(int v) const {
    auto it = consumers_.find(v);
    return it == consumers_.end() ? std::vector<int>{} : it->second;
  }
  int producer(int v) const {
    auto it = producer_.find(v);
    return it == producer_.end() ? -1 : it->second;
  }
  bool is_tensor(int v) const { return v >= 0 && static_cast<size_t>(v) < method_.values_size() && method_.value(v).isTensor(); }
  std::vector<int64_t> shape(int v) const {
    const auto sizes = method_.value(v).toTensor().sizes();
    return std::vector<int64_t>(sizes.begin(), sizes.end());
  }
  std::vector<int64_t> int_list(int v) const {
    if (!method_.value(v).isIntList()) return {};
    const auto l = method_.value(v).toIntList();
    return std::vector<int64_t>(l.begin(), l.end());
  }
  bool flag(int v) const { return method_.value(v).isBool() && method_.value(v).toBool(); }
  const void* data(int v) const { return method_.value(v).toTensor().const_data_ptr(); }
  const void* impl(int v) const { return method_.value(v).toTensor().unsafeGetTensorImpl(); }

  /// `in` carried through the layout instruction `i` (its output's index tensor), or false.
  bool apply(const Instr& i, const IndexTensor& in, IndexTensor* out) const {
    if (!is_tensor(i.out())) return false;
    const std::vector<int64_t> oshape = shape(i.out());
    const size_t rank = in.shape.size();
    const std::vector<int64_t> istr = contiguous_strides(in.shape);
    if (is_identity(i.op)) {
      if (numel(oshape) != numel(in.shape)) return false;
      *out = {oshape, in.v};
      return true;
    }
    if (i.op == "aten::permute_copy.out" || i.op == "aten::t_copy.out") {
      std::vector<int64_t> dims = {1, 0};
      if (i.op == "aten::permute_copy.out") dims = wrap_dims(method_.value(i.args[1]).toIntList(), rank);
      if (dims.size() != rank || oshape.size() != rank) return false;
      std::vector<int64_t> step(rank);
      for (size_t d = 0; d < rank; ++d) step[d] = istr[static_cast<size_t>(dims[d])];
      *out = gather_strided(in, oshape, 0, step);
      return true;
    }
    if (i.op == "aten::flip.out") {
      const auto dims = wrap_dims(method_.value(i.args[1]).toIntList(), rank);
      std::vector<int64_t> step = istr;
      int64_t base = 0;
      for (int64_t d : dims) {
        base += (in.shape[static_cast<size_t>(d)] - 1) * istr[static_cast<size_t>(d)];
        step[static_cast<size_t>(d)] = -istr[static_cast<size_t>(d)];
      }
      *out = gather_strided(in, oshape, base, step);
      return true;
    }
    if (i.op == "aten::expand_copy.out") {
      if (oshape.size() < rank) return false;
      const size_t lead = oshape.size() - rank;
      std::vector<int64_t> step(oshape.size(), 0);
      for (size_t d = 0; d < rank; ++d) {
        if (in.shape[d] == oshape[lead + d]) {
          step[lead + d] = istr[d];
        } else if (in.shape[d] != 1) {
          return false;
        }
      }
      *out = gather_strided(in, oshape, 0, step);
      return true;
    }
    return false;
  }

 private:
  const et::runtime::Method& method_;
  std::vector<Instr> instrs_;
  std::map<int, int> producer_;
  std::map<int, std::vector<int>> consumers_;
  std::map<int, int> view_of_;
  std::map<int, std::vector<int>> views_;
};

IndexTensor iota(const std::vector<int64_t>& shape) {
  IndexTensor t{shape, std::vector<int32_t>(static_cast<size_t>(numel(shape)))};
  std::iota(t.v.begin(), t.v.end(), 0);
  return t;
}

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

Result<std::unique_ptr<SparsePlan>> SparsePlan::build(const et::runtime::Method& method,
                                                      const std::vector<std::string>& mask_names,
                                                      const std::vector<int>& mask_values) {
  std::unique_ptr<SparsePlan> plan(new SparsePlan());
  const Walker w(method);
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
      if (rank == 3) {  // every matrix of the batch the same (an expanded weight)
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
  for (auto& layer : plan->layers_) {
    for (auto& p : layer->products) kernels::register_sparse_product(p->key, &p->dispatch);
  }
  return plan;
}

void SparsePlan::choose(Product& p) const {
  const double crossover = p.kind == SparseProduct::Kind::kLeft    ? kLeftCrossover
                           : p.kind == SparseProduct::Kind::kRight ? kRightCrossover
                                                                   : kOutputCrossover;
  p.dispatch.kind = p.kind;
  p.dispatch.pattern = &p.pattern;
  p.dispatch.use_dense = !enabled_ || (!p.pattern.rectangular && p.pattern.density() > crossover);
}

void SparsePlan::set_enabled(bool on) {
  enabled_ = on;
  for (auto& layer : layers_) {
    for (auto& p : layer->products) choose(*p);
  }
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
        for (size_t q = 0; q < p->map.size(); ++q) {
          live[static_cast<size_t>(p->map[q])] = mask[q] != 0.0f && (gmask == nullptr || gmask[q] != 0.0f);
        }
      } else {
        for (size_t e = 0; e < live.size(); ++e) live[e] = mask[p->map[e]] != 0.0f;
      }
      p->pattern = SparsePattern::from_flags(live.data(), p->rows, p->cols);
      choose(*p);
    }
  }
}

std::vector<LayerReport> SparsePlan::report() const {
  std::vector<LayerReport> out;
  for (const auto& layer : layers_) {
    LayerReport r{layer->name, {}};
    for (const auto& p : layer->products) {
      r.products.push_back({p->role, p->pattern.density(), p->pattern.rectangular, p->dispatch.use_dense, p->dispatch.stats});
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
