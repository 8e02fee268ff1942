#include "plan_walker.h"

#include <algorithm>
#include <numeric>
#include <set>

#include <executorch/schema/program_generated.h>

namespace edgecl {

namespace et = ::executorch;

int64_t numel(const std::vector<int64_t>& shape) {
  return std::accumulate(shape.begin(), shape.end(), int64_t{1}, std::multiplies<int64_t>());
}

namespace {

std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d) s[d] = s[d + 1] * shape[d + 1];
  return s;
}

/// `in` gathered at offsets base + sum(c[d] * step[d]) over the coordinates c of `out_shape`; false
/// (a malformed program) when an offset would fall outside `in`.
bool gather_strided(const IndexTensor& in, const std::vector<int64_t>& out_shape, int64_t base,
                    const std::vector<int64_t>& step, IndexTensor* out) {
  if (std::any_of(out_shape.begin(), out_shape.end(), [](int64_t n) { return n < 0; })) return false;
  *out = {out_shape, std::vector<int32_t>(static_cast<size_t>(numel(out_shape)))};
  if (out->v.empty()) return true;
  int64_t lo = base, hi = base;
  for (size_t d = 0; d < out_shape.size(); ++d) {
    const int64_t reach = (out_shape[d] - 1) * step[d];
    (reach < 0 ? lo : hi) += reach;
  }
  if (lo < 0 || hi >= static_cast<int64_t>(in.v.size())) return false;
  std::vector<int64_t> c(out_shape.size(), 0);
  int64_t off = base;
  for (size_t e = 0; e < out->v.size(); ++e) {
    out->v[e] = in.v[static_cast<size_t>(off)];
    for (int64_t d = static_cast<int64_t>(c.size()) - 1; d >= 0; --d) {
      if (++c[d] < out_shape[d]) {
        off += step[d];
        break;
      }
      off -= step[d] * (out_shape[d] - 1);
      c[d] = 0;
    }
  }
  return true;
}

const char* const kIdentity[] = {"aten::view_copy.out", "executorch_prim::et_view.default", "aten::squeeze_copy.dims_out",
                                 "aten::squeeze_copy.dim_out", "aten::unsqueeze_copy.out", "aten::clone.out",
                                 "aten::alias_copy.out", "dim_order_ops::_clone_dim_order.out"};

bool is_identity(const std::string& op) {
  return std::find(std::begin(kIdentity), std::end(kIdentity), op) != std::end(kIdentity);
}

/// Distinct dims in [-rank, rank), counted from 0; false (a malformed program) otherwise.
bool wrap_dims(et::aten::ArrayRef<int64_t> dims, size_t rank, std::vector<int64_t>* out) {
  const int64_t r = static_cast<int64_t>(rank);
  std::vector<bool> seen(rank, false);
  for (int64_t d : dims) {
    if (d < -r || d >= r) return false;
    const int64_t w = d < 0 ? d + r : d;
    if (seen[static_cast<size_t>(w)]) return false;
    seen[static_cast<size_t>(w)] = true;
    out->push_back(w);
  }
  return true;
}

}  // namespace

bool is_layout(const std::string& op) {
  return is_identity(op) || op == "aten::permute_copy.out" || op == "aten::t_copy.out" || op == "aten::flip.out" ||
         op == "aten::expand_copy.out";
}

bool is_product(const std::string& op) { return op == "aten::mm.out" || op == "aten::bmm.out"; }

Walker::Walker(const et::runtime::Method& method) : method_(method) {
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
      std::set<int> read;
      for (auto a = in.args.begin(); a != in.args.end() - 1; ++a) {
        read.insert(*a);
        const auto* v = plan->values()->Get(static_cast<uint32_t>(*a));
        if (const auto* list = v->val_as_TensorList()) read.insert(list->items()->begin(), list->items()->end());
        if (const auto* list = v->val_as_OptionalTensorList()) {
          for (int item : *list->items()) {
            if (item >= 0) read.insert(item);
          }
        }
      }
      read.erase(in.out());
      for (int v : read) consumers_[v].push_back(idx);
    }
  }
  for (int v : *plan->outputs()) consumers_[v].push_back(-1);
  find_views(*plan);
}

/// A view's source is the last value written at its address before the view's first use (the
/// memory plan keeps the source alive while the view lives), of the same size; a program input is
/// written before the first instruction.
void Walker::find_views(const executorch_flatbuffer::ExecutionPlan& plan) {
  std::map<const void*, std::vector<std::pair<int, int>>> writes;  // address -> (instruction, value), in order
  std::set<int> inputs(plan.inputs()->begin(), plan.inputs()->end());
  for (int v : inputs) {
    if (is_tensor(v) && data(v) != nullptr) writes[data(v)].push_back({-1, v});
  }
  for (size_t i = 0; i < instrs_.size(); ++i) {
    const int out = instrs_[i].out();
    if (is_tensor(out) && data(out) != nullptr) writes[data(out)].push_back({static_cast<int>(i), out});
  }
  for (const auto& [v, users] : consumers_) {
    if (producer(v) >= 0 || inputs.count(v) || !is_tensor(v) || data(v) == nullptr) continue;
    int first = -1;  // a program output read by no instruction is first used after the last
    for (int u : users) {
      const int at = u >= 0 ? u : static_cast<int>(instrs_.size());
      first = first < 0 || at < first ? at : first;
    }
    auto it = writes.find(data(v));
    if (first < 0 || it == writes.end()) continue;
    int src = -1;
    for (const auto& [i, out] : it->second) src = i < first ? out : src;
    if (src >= 0 && src != v && numel(shape(src)) == numel(shape(v))) {
      view_of_[v] = src;
      views_[src].push_back(v);
    }
  }
}

int Walker::view_of(int v) const {
  auto it = view_of_.find(v);
  return it == view_of_.end() ? -1 : it->second;
}

std::vector<int> Walker::views(int v) const {
  auto it = views_.find(v);
  return it == views_.end() ? std::vector<int>{} : it->second;
}

std::vector<int> Walker::consumers(int v) const {
  auto it = consumers_.find(v);
  return it == consumers_.end() ? std::vector<int>{} : it->second;
}

int Walker::producer(int v) const {
  auto it = producer_.find(v);
  return it == producer_.end() ? -1 : it->second;
}

bool Walker::is_tensor(int v) const {
  return v >= 0 && static_cast<size_t>(v) < method_.values_size() && method_.value(v).isTensor();
}

std::vector<int64_t> Walker::shape(int v) const {
  const auto sizes = method_.value(v).toTensor().sizes();
  return std::vector<int64_t>(sizes.begin(), sizes.end());
}

std::vector<int64_t> Walker::int_list(int v) const {
  if (!method_.value(v).isIntList()) return {};
  const auto l = method_.value(v).toIntList();
  return std::vector<int64_t>(l.begin(), l.end());
}

bool Walker::flag(int v) const { return method_.value(v).isBool() && method_.value(v).toBool(); }
const void* Walker::data(int v) const { return method_.value(v).toTensor().const_data_ptr(); }
et::runtime::etensor::TensorImpl* Walker::impl(int v) const { return method_.value(v).toTensor().unsafeGetTensorImpl(); }
size_t Walker::nbytes(int v) const { return method_.value(v).toTensor().nbytes(); }
int64_t Walker::int_or(int v, int64_t fallback) const {
  return method_.value(v).isInt() ? method_.value(v).toInt() : fallback;
}

bool Walker::apply(const Instr& i, const IndexTensor& in, IndexTensor* out) const {
  if (!is_tensor(i.out()) || in.repeat != 1) return false;
  const std::vector<int64_t> oshape = shape(i.out());
  const size_t rank = in.shape.size();
  const std::vector<int64_t> istr = contiguous_strides(in.shape);
  if (is_identity(i.op)) {
    if (numel(oshape) != numel(in.shape)) return false;
    *out = {oshape, in.v};
    return true;
  }
  if (i.op == "aten::permute_copy.out" || i.op == "aten::t_copy.out") {
    std::vector<int64_t> dims;
    if (i.op == "aten::t_copy.out") {
      dims = {1, 0};
    } else if (!wrap_dims(method_.value(i.args[1]).toIntList(), rank, &dims)) {
      return false;
    }
    if (dims.size() != rank || oshape.size() != rank) return false;
    std::vector<int64_t> step(rank);
    for (size_t d = 0; d < rank; ++d) {
      if (oshape[d] != in.shape[static_cast<size_t>(dims[d])]) return false;
      step[d] = istr[static_cast<size_t>(dims[d])];
    }
    return gather_strided(in, oshape, 0, step, out);
  }
  if (i.op == "aten::flip.out") {
    std::vector<int64_t> dims;
    if (!wrap_dims(method_.value(i.args[1]).toIntList(), rank, &dims) || oshape != in.shape) return false;
    std::vector<int64_t> step = istr;
    int64_t base = 0;
    for (int64_t d : dims) {
      base += (in.shape[static_cast<size_t>(d)] - 1) * istr[static_cast<size_t>(d)];
      step[static_cast<size_t>(d)] = -istr[static_cast<size_t>(d)];
    }
    return gather_strided(in, oshape, base, step, out);
  }
  if (i.op == "aten::expand_copy.out") {
    if (oshape.size() < rank) return false;
    const size_t lead = oshape.size() - rank;
    // Broadcast over leading dimensions only (each new, or 1 in `in`; every later one equal): one
    // block, repeated.
    size_t k = 0;
    while (k < oshape.size() && (k < lead || in.shape[k - lead] == 1)) ++k;
    bool rest_equal = k > 0;
    for (size_t d = k; d < oshape.size() && rest_equal; ++d) rest_equal = in.shape[d - lead] == oshape[d];
    if (rest_equal) {
      int64_t repeat = 1;
      for (size_t d = 0; d < k; ++d) repeat *= oshape[d];
      *out = {oshape, in.v, repeat};
      return true;
    }
    std::vector<int64_t> step(oshape.size(), 0);
    for (size_t d = 0; d < rank; ++d) {
      if (in.shape[d] == oshape[lead + d]) {
        step[lead + d] = istr[d];
      } else if (in.shape[d] != 1) {
        return false;
      }
    }
    return gather_strided(in, oshape, 0, step, out);
  }
  return false;
}

IndexTensor iota(const std::vector<int64_t>& shape) {
  IndexTensor t{shape, std::vector<int32_t>(static_cast<size_t>(numel(shape)))};
  std::iota(t.v.begin(), t.v.end(), 0);
  return t;
}


}  // namespace edgecl
