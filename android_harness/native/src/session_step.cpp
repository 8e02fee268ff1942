// One step of docs/semantics.md section 4: Session::step runs its parts in order, each a function
// named for what it does (rows, swap plan, program, DGM masks, optimizer, BatchNorm statistics,
// row observation, trace, counters). See session.h.
#include <algorithm>
#include <cmath>

#include "session.h"

namespace edgecl {
namespace {

OrderedJson obj() { return OrderedJson::object(); }

}  // namespace

Error Session::apply_swap() {
  if (!swap_) return Error();
  auto n = swap_->apply(&em_, &swap_seconds_);
  if (!n.ok()) return n.error();
  swapped_ += *n;
  return Error();
}

Error Session::step(int64_t task, const EpochOrder& order, int64_t k) {
  // 4.1: the swap planned at the previous step (its records were read during that step).
  EDGECL_RETURN_IF_ERROR(apply_swap());
  const std::vector<int64_t> entries = order.step_entries(k);
  profile_.mark(StepProfile::kSwapWait);
  StepBatch& b = *rows_;
  fill_step(entries, sb_, em_, task_classes_, weights_, &b);
  std::vector<InputTensor> inputs = {
      {b.x.data(), DType::Float32, b.x.size()},           {b.y.data(), DType::Int64, b.y.size()},
      {b.logit_mask.data(), DType::Float32, b.logit_mask.size()}, {b.ce_weight.data(), DType::Float32, b.ce_weight.size()},
      {b.target.data(), DType::Float32, b.target.size()}, {b.mse_weight.data(), DType::Float32, b.mse_weight.size()}};
  for (const auto& m : prog_->masks()) inputs.push_back({m.data, DType::Float32, m.numel});
  profile_.mark(StepProfile::kRows);
  // 4.10 planned from the rows alone (nothing of 4.4-4.9 changes it): the reader thread reads the
  // records while the program runs; the plan's trace line still follows the step's.
  std::vector<SwapChange> plan;
  EDGECL_RETURN_IF_ERROR(plan_swap(task, entries, &plan));
  profile_.mark(StepProfile::kSwapPlan);
  EDGECL_RETURN_IF_ERROR(prog_->forward_backward(inputs));  // 4.4
  profile_.mark(StepProfile::kForwardBackward);
  const float loss = prog_->loss();
  std::vector<const uint8_t*> grad_masks(prog_->params().size(), nullptr);
  EDGECL_RETURN_IF_ERROR(dgm_masks(task, &grad_masks));  // 4.5
  profile_.mark(StepProfile::kDgm);
  has_grad_prev_ = true;  // 4.6: g_prev is now this step's raw gradient, held by the program
  restored_grad_prev_.clear();
  opt_->step(prog_->params(), prog_->grads(), grad_masks, spec_.train.lr);  // 4.7
  zero_dead_biases();
  profile_.mark(StepProfile::kOptimizer);
  update_norm_stats();  // 4.8
  profile_.mark(StepProfile::kNormStats);
  observe_rows(entries, b);  // 4.9
  profile_.mark(StepProfile::kObserve);
  EDGECL_RETURN_IF_ERROR(trace_step(task, b, loss, plan));
  profile_.mark(StepProfile::kTrace);
  return count_step(task, loss);  // 4.11
}

Error Session::dgm_masks(int64_t task, std::vector<const uint8_t*>* grad_masks) {
  if (!spec_.sparcl.dgm_on()) return Error();
  if (dgm_.due(spec_.sparcl.dgm_period)) {
    const auto& grads = prog_->grads();
    dgm_.masks.resize(mask_param_.size());
    OrderedJson hashes = obj();
    for (size_t l = 0; l < mask_param_.size(); ++l) {
      const auto& m = prog_->masks()[l];
      dgm_layer_mask(grads[mask_param_[l]].data, m.data, static_cast<int64_t>(m.numel), spec_.sparcl.dgm_ratio,
                     &dgm_.masks[l], &dgm_.scratch);
      if (trace_->enabled()) {
        const std::vector<float> values(dgm_.masks[l].begin(), dgm_.masks[l].end());
        hashes[prog_->signature().mask_names[l]] = mask_hash(values.data(), values.size());
      }
    }
    dgm_.has_masks = true;
    dgm_.steps_since_refresh = 0;
    OrderedJson line = trace_line("dgm", task);
    line["step"] = st_.task_step;
    line["masks"] = hashes;
    EDGECL_RETURN_IF_ERROR(trace_->write(line));
  }
  for (size_t l = 0; l < mask_param_.size(); ++l) (*grad_masks)[mask_param_[l]] = dgm_.masks[l].data();
  return Error();
}

void Session::update_norm_stats() {
  for (size_t i = 0; i < norm_buffers_.size(); ++i) {
    const float m = norm_momentum_[i], keep = 1.0f - m;
    for (int j = 0; j < 2; ++j) {
      const auto& buf = prog_->buffers()[j == 0 ? norm_buffers_[i].first : norm_buffers_[i].second];
      const ConstTensorRef stat = prog_->output(2 + 2 * i + j);
      for (size_t e = 0; e < buf.numel; ++e) buf.data[e] = keep * buf.data[e] + m * stat.data[e];
    }
  }
}

void Session::observe_rows(const std::vector<int64_t>& entries, const StepBatch& b) {
  const ConstTensorRef logits = prog_->output(1);
  const int64_t n_sb = sb_.size();
  for (int64_t i = 0; i < batch_; ++i) {
    const int64_t e = entries[i];
    if (e >= n_sb) continue;
    const float* row = logits.data + i * classes_;
    if (spec_.sparcl.ddr_on()) ddr_.observe(e, masked_argmax(row, b.logit_mask.data() + i * classes_, classes_) == b.y[i]);
    if (sb_.data.n_logits > 0) std::copy(row, row + classes_, sb_.data.logits_row(e));
  }
}

Error Session::trace_step(int64_t task, const StepBatch& b, float loss, const std::vector<SwapChange>& plan) {
  if (!trace_->enabled()) return Error();
  OrderedJson line = trace_line("step", task);
  line["epoch"] = st_.epoch;
  line["step"] = st_.task_step;
  line["ids"] = b.ids;
  line["loss"] = float_bits(loss);
  EDGECL_RETURN_IF_ERROR(trace_->write(line));
  if (plan.empty()) return Error();
  OrderedJson triples = OrderedJson::array();
  for (const auto& change : plan) triples.push_back({change.slot, change.ref.first, change.ref.second});
  OrderedJson swap = trace_line("swap", task);
  swap["step"] = st_.task_step;
  swap["plan"] = triples;
  return trace_->write(swap);
}

Error Session::count_step(int64_t task, float loss) {
  st_.epoch_loss_sum += static_cast<double>(loss);
  st_.epoch_loss_n += 1;
  st_.task_step += 1;
  st_.iteration += 1;
  if (spec_.sparcl.dgm_on()) dgm_.steps_since_refresh += 1;
  if (spec_.step_event_every <= 0 || st_.iteration % spec_.step_event_every != 0) return Error();
  OrderedJson ev = obj();
  ev["task"] = task;
  ev["step"] = st_.iteration;
  ev["loss"] = round_digits(static_cast<double>(loss), 6);
  return emit("step", ev);
}

Error Session::plan_swap(int64_t task, const std::vector<int64_t>& entries, std::vector<SwapChange>* plan) {
  const double ratio = spec_.replay.swap_ratio;
  if (!replay_ || ratio <= 0.0 || storage_->size() == 0 || st_.task_step % spec_.replay.swap_period != 0) {
    return Error();
  }
  std::vector<int64_t> u;  // the step's distinct EM slots, ascending
  for (int64_t e : entries) {
    if (e >= sb_.size()) u.push_back(e - sb_.size());
  }
  std::sort(u.begin(), u.end());
  u.erase(std::unique(u.begin(), u.end()), u.end());
  const auto c = static_cast<int64_t>(u.size());
  const int64_t n = std::min<int64_t>(c, static_cast<int64_t>(std::ceil(ratio * static_cast<double>(c) - 1e-9)));
  if (n == 0) return Error();
  Stream rs(spec_.seed, Purpose::kSwap, static_cast<uint64_t>(task), static_cast<uint64_t>(st_.task_step));
  std::vector<int64_t> chosen;
  for (int64_t j : rs.sample(c, n)) chosen.push_back(u[j]);
  std::sort(chosen.begin(), chosen.end());
  for (int64_t s : chosen) {
    const int64_t cls = em_.refs[s].first, n_cls = storage_->count(cls);
    if (n_cls <= 0) continue;
    plan->push_back({s, {cls, static_cast<int64_t>(rs.below(static_cast<uint64_t>(n_cls)))}});
  }
  if (!plan->empty()) swap_->submit(*plan);
  return Error();
}

void Session::zero_dead_biases() {
  for (const auto& [layer, bias] : dead_bias_) {
    const auto& mask = prog_->masks()[layer];
    const auto& b = prog_->params()[bias];
    const size_t per = mask.numel / b.numel;
    for (size_t c = 0; c < b.numel; ++c) {
      if (mask.data[c * per] == 0.0f) b.data[c] = 0.0f;
    }
  }
}

}  // namespace edgecl
