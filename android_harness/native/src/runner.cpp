// The session loop of docs/semantics.md sections 3-6. See runner.h and session.h.
#include "runner.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>

#include "fileio.h"
#include "resources.h"
#include "session.h"

namespace edgecl {
namespace {

double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

OrderedJson obj() { return OrderedJson::object(); }

/// Test rows whose argmax over `allowed` (ascending, ties to the lowest class) equals the label.
int64_t correct_count(const std::vector<float>& logits, const std::vector<int64_t>& y, int64_t classes,
                      const std::vector<int64_t>& allowed) {
  int64_t correct = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    const float* row = logits.data() + i * classes;
    int64_t best = allowed.front();
    for (int64_t c : allowed) {
      if (row[c] > row[best]) best = c;
    }
    correct += best == y[i] ? 1 : 0;
  }
  return correct;
}

}  // namespace

Session::Session(std::string session_dir, const ModelSource& models, const CancelCheck& cancelled)
    : dir_(absolute_path(session_dir)), models_(models), cancelled_(cancelled) {
  root_ = dir_name(dir_name(dir_));
  ckpt_dir_ = join_path(dir_, "checkpoints");
}

Error Session::emit(const std::string& type, const OrderedJson& fields) {
  return log_ ? log_->emit(type, fields) : Error();
}

const float* Session::grad_prev(size_t layer) const {
  if (!has_grad_prev_) return nullptr;
  if (!restored_grad_prev_.empty()) return restored_grad_prev_[layer].data();
  return prog_->grads()[mask_param_[layer]].data;
}

SessionOutcome Session::run() {
  const double started = monotonic_seconds();
  Error err;
  auto log = EventLog::open(join_path(dir_, "events.jsonl"));
  if (log.ok()) {
    log_ = std::move(log.get());
    err = body();
  } else {
    err = log.error();
  }
  std::string status = was_cancelled_ ? "cancelled" : err.ok() ? "ok" : "error";
  OrderedJson error_value = nullptr;
  if (status == "error") {
    error_value = err.message();
    OrderedJson ev = obj();
    ev["phase"] = phase_;
    ev["message"] = err.message();
    emit("error", ev);
    std::fprintf(stderr, "edgecl-runner: %s: %s\n", phase_.c_str(), err.message().c_str());
  }
  if (swap_) swap_->apply(&em_, nullptr);
  if (storage_) storage_->close();
  const std::string ckpt = latest_checkpoint(ckpt_dir_);
  OrderedJson r = obj();
  r["session_id"] = spec_.session_id.empty() ? base_name(dir_) : spec_.session_id;
  r["status"] = status;
  r["error"] = error_value;
  r["kind"] = spec_.session_id.empty() ? OrderedJson(nullptr) : OrderedJson(spec_.kind);
  r["tasks"] = spec_.tasks;
  r["iterations"] = st_.iteration;
  r["evals"] = st_.evals;
  r["checkpoint"] = ckpt.empty() ? OrderedJson(nullptr) : OrderedJson(relative(ckpt));
  r["t_start"] = started;
  r["t_end"] = monotonic_seconds();
  OrderedJson end = obj();
  end["status"] = status;
  emit("session_end", end);
  log_.reset();
  Error w = write_file_atomic(join_path(dir_, "result.json"), to_json_text(r, JsonStyle::kIndent1));
  if (!w.ok()) std::fprintf(stderr, "edgecl-runner: %s\n", w.message().c_str());
  return {status, model_dir_, r};
}

Error Session::body() {
  if (cancel_now()) {
    was_cancelled_ = true;
    return Error(ErrorCode::InvalidState, "cancelled before the session started");
  }
  EDGECL_RETURN_IF_ERROR(setup());
  EDGECL_RETURN_IF_ERROR(restore());
  OrderedJson start = obj();
  start["session_id"] = spec_.session_id;
  start["runtime"] = "executorch";
  start["pid"] = static_cast<int64_t>(::getpid());
  start["kind"] = spec_.kind;
  start["resumed_from"] = resumed_from_.empty() ? OrderedJson(nullptr) : OrderedJson(resumed_from_);
  start["device"] = probe_resources(spec_.meminfo_path, {});
  EDGECL_RETURN_IF_ERROR(emit("session_start", start));
  const auto& tasks = spec_.tasks;
  size_t first = 0;
  const auto at = std::find(tasks.begin(), tasks.end(), st_.task);
  if (own_resume_ && at != tasks.end()) {
    if (!st_.task_finished) EDGECL_RETURN_IF_ERROR(train_one(st_.task, /*started=*/true));
    first = static_cast<size_t>(at - tasks.begin()) + 1;
  }
  for (size_t i = first; i < tasks.size() && !was_cancelled_; ++i) EDGECL_RETURN_IF_ERROR(train_one(tasks[i], false));
  return was_cancelled_ ? Error(ErrorCode::InvalidState, "cancelled (SIGTERM)") : Error();
}

Error Session::train_one(int64_t task, bool started) {
  if (!started) EDGECL_RETURN_IF_ERROR(start_task(task));
  OrderedJson ev = obj();
  ev["task"] = task;
  ev["classes"] = task_classes_;
  ev["n_train"] = sb_.size();
  EDGECL_RETURN_IF_ERROR(emit("task_start", ev));
  EDGECL_RETURN_IF_ERROR(train_task(task));
  if (was_cancelled_) return Error();
  EDGECL_RETURN_IF_ERROR(finish_task(task));
  EDGECL_RETURN_IF_ERROR(write_checkpoint_now());
  if (cancel_now()) was_cancelled_ = true;
  return Error();
}

Error Session::build_task(int64_t task, const std::vector<RecordRef>* refs) {
  phase_ = "setup";
  auto entry = index_.entry(task);
  if (!entry.ok()) return entry.error();
  task_classes_ = (*entry)->classes;
  const bool joint = spec_.train.method == "joint";
  const double fraction = spec_.kind == "profiling" ? spec_.subset_fraction : 1.0;
  // SB (section 2): the task's rows (all, or sort(sample(N, cap))); joint: every row of every seen task.
  const std::vector<int64_t> sb_tasks = joint ? index_.seen_tasks(task) : std::vector<int64_t>{task};
  std::vector<Shard> shards;
  std::vector<std::pair<size_t, int64_t>> rows;  // (shard, row)
  for (int64_t t : sb_tasks) {
    const TaskEntry& e = **index_.entry(t);
    auto shard = read_shard(e.train_file);
    if (!shard.ok()) return shard.error();
    if (shard->sample_numel != numel_) {
      return Error(ErrorCode::InvalidArgument, e.train_file + ": samples have " + std::to_string(shard->sample_numel) +
                                                   " values, the program's x has " + std::to_string(numel_));
    }
    const int64_t cap = joint ? shard->count : spec_.replay.sb_size;
    for (int64_t r : sb_rows(spec_.seed, task, shard->count, cap)) rows.emplace_back(shards.size(), r);
    shards.push_back(std::move(shard.get()));
  }
  const std::vector<int64_t> keep = subset(spec_.seed, task, 0, static_cast<int64_t>(rows.size()), fraction);
  sb_.rows.clear();
  sb_.data.resize(static_cast<int64_t>(keep.size()));
  for (size_t r = 0; r < keep.size(); ++r) {
    const auto [which, row] = rows[keep[r]];
    const Shard& shard = shards[which];
    sb_.rows.push_back(row);
    std::copy(shard.row(row), shard.row(row) + numel_, sb_.data.x_row(static_cast<int64_t>(r)));
    sb_.data.y[r] = shard.y[row];
    sb_.data.ids[r] = (sb_tasks[which] << 32) | row;
  }
  std::fill(sb_.data.logits.begin(), sb_.data.logits.end(), 0.0f);
  ddr_.reset(sb_.size());
  ddr_counts_.clear();
  if (spec_.sparcl.ddr_on()) {
    ddr_counts_ = ddr_counts(sb_.size(), ddr_schedule(spec_.train.epochs, spec_.sparcl.ddr_steps, spec_.sparcl.ddr_fraction));
  }
  tdm_events_.clear();
  if (spec_.sparcl.tdm_on()) {
    const auto& sp = spec_.sparcl;
    for (const auto& ev : tdm_schedule(spec_.train.epochs, sp.sparsity, sp.tdm_update_every, sp.tdm_swap, sp.tdm_freeze_after)) {
      tdm_events_.emplace(ev.epoch, ev);
    }
  }
  em_.refs.clear();
  em_.data.resize(0);
  if (!replay_) return Error();
  std::vector<RecordRef> built;
  if (refs == nullptr) {  // EM build (5.3), then a profiling session's subset of its slots
    std::map<int64_t, int64_t> records;
    for (int64_t c : storage_->labels()) records[c] = storage_->count(c);
    const std::vector<RecordRef> all = build_em_refs(spec_.seed, task, records, spec_.replay.em_size);
    for (int64_t s : subset(spec_.seed, task, 1, static_cast<int64_t>(all.size()), fraction)) built.push_back(all[s]);
    refs = &built;
  }
  return load_em(*storage_, *refs, &em_);
}

Error Session::start_task(int64_t task) {
  st_.task = task;
  st_.task_finished = false;
  st_.epoch = st_.batch = st_.task_step = 0;
  st_.epoch_loss_sum = 0.0;
  st_.epoch_loss_n = 0;
  st_.tdm_frozen = false;
  dgm_.clear();
  dgm_.steps_since_refresh = 0;
  EDGECL_RETURN_IF_ERROR(build_task(task, nullptr));
  if (!replay_) return Error();
  OrderedJson line = obj();
  line["k"] = "em";
  line["task"] = task;
  OrderedJson pairs = OrderedJson::array();
  for (const auto& [c, k] : em_.refs) pairs.push_back({c, k});
  line["refs"] = pairs;
  return trace_->write(line);
}

Error Session::train_task(int64_t task) {
  phase_ = "training";
  const std::string phase = spec_.kind == "profiling" ? "profiling" : "training";
  OrderedJson ph = obj();
  ph["phase"] = phase;
  ph["task"] = task;
  EDGECL_RETURN_IF_ERROR(emit("phase_start", ph));
  swapped_ = 0;
  swap_seconds_ = 0.0;
  while (st_.epoch < spec_.train.epochs) {
    const double t0 = now_s();
    if (st_.batch == 0) EDGECL_RETURN_IF_ERROR(epoch_start(task, st_.epoch));
    const EpochOrder order = epoch_order(spec_.seed, task, st_.epoch, ddr_.removed, em_.size(), replay_, batch_);
    const int64_t steps = order.steps(), pool = static_cast<int64_t>(order.perm.size());
    for (int64_t k = st_.batch; k < steps; ++k) {
      EDGECL_RETURN_IF_ERROR(step(task, order, k));
      st_.batch = k + 1;
      const double now = monotonic_seconds();
      if (now - last_resources_ >= spec_.resources_every_s) {
        last_resources_ = now;
        EDGECL_RETURN_IF_ERROR(emit("resources", probe_resources(spec_.meminfo_path, {dir_, storage_->root()})));
      }
      const bool last_of_task = st_.epoch == spec_.train.epochs - 1 && st_.batch == steps;
      const bool stop = cancel_now();
      const bool due = spec_.checkpoint_every > 0 && st_.iteration % spec_.checkpoint_every == 0 && !last_of_task;
      if (stop || due) {
        if (st_.batch == steps) EDGECL_RETURN_IF_ERROR(end_epoch(task, pool, t0));
        EDGECL_RETURN_IF_ERROR(write_checkpoint_now());
        if (stop) {
          was_cancelled_ = true;
          return Error();
        }
      }
    }
    if (st_.batch == steps) EDGECL_RETURN_IF_ERROR(end_epoch(task, pool, t0));
  }
  EDGECL_RETURN_IF_ERROR(apply_swap());
  return emit("phase_end", ph);
}

Error Session::epoch_start(int64_t task, int64_t epoch) {
  const auto count = ddr_counts_.find(epoch);
  if (count != ddr_counts_.end() && count->second > 0) {
    const std::vector<int64_t> gone = ddr_.remove(count->second);
    OrderedJson ev = obj();
    ev["task"] = task;
    ev["epoch"] = epoch;
    ev["removed"] = static_cast<int64_t>(gone.size());
    ev["remaining"] = ddr_.active_count();
    EDGECL_RETURN_IF_ERROR(emit("ddr", ev));
    OrderedJson line = obj();
    line["k"] = "ddr";
    line["task"] = task;
    line["epoch"] = epoch;
    line["removed"] = gone;
    EDGECL_RETURN_IF_ERROR(trace_->write(line));
  }
  const auto ev = tdm_events_.find(epoch);
  if (!st_.tdm_frozen && ev != tdm_events_.end()) {
    EDGECL_RETURN_IF_ERROR(tdm_update(task, epoch, ev->second));
  }
  return Error();
}

Error Session::tdm_update(int64_t task, int64_t epoch, const TdmEvent& ev) {
  Stream grow(spec_.seed, Purpose::kTdmGrow, static_cast<uint64_t>(task), static_cast<uint64_t>(epoch));
  const auto& params = prog_->params();
  const auto& masks = prog_->masks();
  OrderedJson hashes = obj();
  double density = 0.0;
  for (size_t l = 0; l < mask_param_.size(); ++l) {
    const auto& p = params[mask_param_[l]];
    std::vector<float> live(masks[l].data, masks[l].data + masks[l].numel);
    std::vector<uint8_t> kept;
    tdm_update_layer(p.data, grad_prev(l), static_cast<int64_t>(p.numel), p.shape.empty() ? 1 : p.shape[0],
                     spec_.sparcl.structured, spec_.sparcl.tdm_lambda, ev.drop_to, ev.grow_to, grow, &live, &kept);
    std::copy(live.begin(), live.end(), masks[l].data);
    opt_->clear_where(mask_param_[l], kept);
    hashes[prog_->signature().mask_names[l]] = mask_hash(live.data(), live.size());
    int64_t on = 0;
    for (float v : live) on += v != 0.0f ? 1 : 0;
    density += static_cast<double>(on) / static_cast<double>(live.size());
  }
  st_.tdm_frozen = ev.freeze;
  dgm_.clear();
  OrderedJson e = obj();
  e["task"] = task;
  e["epoch"] = epoch;
  e["kind"] = ev.kind;
  e["density"] = round_digits(mask_param_.empty() ? 0.0 : density / static_cast<double>(mask_param_.size()), 6);
  EDGECL_RETURN_IF_ERROR(emit("mask", e));
  OrderedJson line = obj();
  line["k"] = "tdm";
  line["task"] = task;
  line["epoch"] = epoch;
  line["masks"] = hashes;
  return trace_->write(line);
}

Error Session::apply_swap() {
  if (!swap_) return Error();
  auto n = swap_->apply(&em_, &swap_seconds_);
  if (!n.ok()) return n.error();
  swapped_ += *n;
  return Error();
}

Error Session::step(int64_t task, const EpochOrder& order, int64_t k) {
  EDGECL_RETURN_IF_ERROR(apply_swap());
  const std::vector<int64_t> entries = order.step_entries(k);
  StepBatch b(batch_, numel_, classes_);
  fill_step(entries, sb_, em_, task_classes_, weights_, &b);
  std::vector<InputTensor> inputs = {
      {b.x.data(), DType::Float32, b.x.size()},           {b.y.data(), DType::Int64, b.y.size()},
      {b.logit_mask.data(), DType::Float32, b.logit_mask.size()}, {b.ce_weight.data(), DType::Float32, b.ce_weight.size()},
      {b.target.data(), DType::Float32, b.target.size()}, {b.mse_weight.data(), DType::Float32, b.mse_weight.size()}};
  for (const auto& m : prog_->masks()) inputs.push_back({m.data, DType::Float32, m.numel});
  EDGECL_RETURN_IF_ERROR(prog_->forward_backward(inputs));
  const float loss = prog_->loss();
  const ConstTensorRef logits = prog_->output(1);
  const auto& grads = prog_->grads();
  std::vector<const float*> grad_masks(prog_->params().size(), nullptr);
  if (spec_.sparcl.dgm_on()) {
    if (dgm_.due(spec_.sparcl.dgm_period)) {
      dgm_.masks.clear();
      OrderedJson hashes = obj();
      for (size_t l = 0; l < mask_param_.size(); ++l) {
        const auto& m = prog_->masks()[l];
        dgm_.masks.push_back(dgm_layer_mask(grads[mask_param_[l]].data, std::vector<float>(m.data, m.data + m.numel),
                                            spec_.sparcl.dgm_ratio));
        hashes[prog_->signature().mask_names[l]] = mask_hash(dgm_.masks[l].data(), dgm_.masks[l].size());
      }
      dgm_.has_masks = true;
      dgm_.steps_since_refresh = 0;
      OrderedJson line = obj();
      line["k"] = "dgm";
      line["task"] = task;
      line["step"] = st_.task_step;
      line["masks"] = hashes;
      EDGECL_RETURN_IF_ERROR(trace_->write(line));
    }
    for (size_t l = 0; l < mask_param_.size(); ++l) grad_masks[mask_param_[l]] = dgm_.masks[l].data();
  }
  has_grad_prev_ = true;  // g_prev is now this step's raw gradient, held by the program
  restored_grad_prev_.clear();
  opt_->step(prog_->params(), grads, grad_masks, spec_.train.lr);
  for (size_t i = 0; i < norm_buffers_.size(); ++i) {
    const float m = norm_momentum_[i], keep = 1.0f - m;
    for (int j = 0; j < 2; ++j) {
      const auto& buf = prog_->buffers()[j == 0 ? norm_buffers_[i].first : norm_buffers_[i].second];
      const ConstTensorRef stat = prog_->output(2 + 2 * i + j);
      for (size_t e = 0; e < buf.numel; ++e) buf.data[e] = keep * buf.data[e] + m * stat.data[e];
    }
  }
  const int64_t n_sb = sb_.size();
  for (int64_t i = 0; i < batch_; ++i) {
    const int64_t e = entries[i];
    if (e >= n_sb) continue;
    const float* row = logits.data + i * classes_;
    if (spec_.sparcl.ddr_on()) ddr_.observe(e, masked_argmax(row, b.logit_mask.data() + i * classes_, classes_) == b.y[i]);
    if (sb_.data.n_logits > 0) std::copy(row, row + classes_, sb_.data.logits_row(e));
  }
  OrderedJson line = obj();
  line["k"] = "step";
  line["task"] = task;
  line["epoch"] = st_.epoch;
  line["step"] = st_.task_step;
  line["ids"] = b.ids;
  line["loss"] = float_bits(loss);
  EDGECL_RETURN_IF_ERROR(trace_->write(line));
  EDGECL_RETURN_IF_ERROR(plan_swap(task, entries));
  st_.epoch_loss_sum += static_cast<double>(loss);
  st_.epoch_loss_n += 1;
  st_.task_step += 1;
  st_.iteration += 1;
  if (spec_.sparcl.dgm_on()) dgm_.steps_since_refresh += 1;
  if (spec_.step_event_every > 0 && st_.iteration % spec_.step_event_every == 0) {
    OrderedJson ev = obj();
    ev["task"] = task;
    ev["step"] = st_.iteration;
    ev["loss"] = round_digits(static_cast<double>(loss), 6);
    EDGECL_RETURN_IF_ERROR(emit("step", ev));
  }
  return Error();
}

Error Session::plan_swap(int64_t task, const std::vector<int64_t>& entries) {
  const double ratio = spec_.replay.swap_ratio;
  if (!replay_ || ratio <= 0.0 || storage_->size() == 0 || st_.task_step % spec_.replay.swap_period != 0) {
    return Error();
  }
  std::set<int64_t> distinct;
  for (int64_t e : entries) {
    if (e >= sb_.size()) distinct.insert(e - sb_.size());
  }
  const std::vector<int64_t> u(distinct.begin(), distinct.end());
  const auto c = static_cast<int64_t>(u.size());
  const int64_t n = std::min<int64_t>(c, static_cast<int64_t>(std::ceil(ratio * static_cast<double>(c) - 1e-9)));
  Stream rs(spec_.seed, Purpose::kSwap, static_cast<uint64_t>(task), static_cast<uint64_t>(st_.task_step));
  if (n == 0) return Error();
  std::vector<int64_t> chosen;
  for (int64_t j : rs.sample(c, n)) chosen.push_back(u[j]);
  std::sort(chosen.begin(), chosen.end());
  std::vector<SwapChange> plan;
  OrderedJson triples = OrderedJson::array();
  for (int64_t s : chosen) {
    const int64_t cls = em_.refs[s].first, n_cls = storage_->count(cls);
    if (n_cls <= 0) continue;
    const auto kk = static_cast<int64_t>(rs.below(static_cast<uint64_t>(n_cls)));
    plan.push_back({s, {cls, kk}});
    triples.push_back({s, cls, kk});
  }
  if (plan.empty()) return Error();
  OrderedJson line = obj();
  line["k"] = "swap";
  line["task"] = task;
  line["step"] = st_.task_step;
  line["plan"] = triples;
  EDGECL_RETURN_IF_ERROR(trace_->write(line));
  swap_->submit(std::move(plan));
  return Error();
}

Error Session::end_epoch(int64_t task, int64_t pool_size, double t0) {
  OrderedJson ev = obj();
  ev["task"] = task;
  ev["epoch"] = st_.epoch;
  ev["loss"] = round_digits(st_.epoch_loss_sum / static_cast<double>(std::max<int64_t>(st_.epoch_loss_n, 1)), 6);
  ev["n_samples"] = pool_size;
  ev["seconds"] = round_digits(now_s() - t0, 4);
  EDGECL_RETURN_IF_ERROR(emit("epoch", ev));
  if (spec_.replay.swap_ratio > 0.0 && replay_) {
    OrderedJson sw = obj();
    sw["task"] = task;
    sw["epoch"] = st_.epoch;
    sw["n_swapped"] = swapped_;
    sw["seconds"] = round_digits(swap_seconds_, 6);
    EDGECL_RETURN_IF_ERROR(emit("swap", sw));
    swapped_ = 0;
    swap_seconds_ = 0.0;
  }
  st_.epoch += 1;
  st_.batch = 0;
  st_.epoch_loss_sum = 0.0;
  st_.epoch_loss_n = 0;
  return Error();
}

Error Session::finish_task(int64_t task) {
  EDGECL_RETURN_IF_ERROR(apply_swap());
  if (spec_.kind == "task") {
    phase_ = "storage";
    std::vector<int64_t> ids, labels;
    std::vector<float> x, logits;
    const int64_t nl = sb_.data.n_logits;
    for (int64_t r = 0; r < sb_.size(); ++r) {
      if (ddr_.removed[r]) continue;
      ids.push_back(sb_.data.ids[r]);
      labels.push_back(sb_.data.y[r]);
      x.insert(x.end(), sb_.data.x_row(r), sb_.data.x_row(r) + numel_);
      if (nl > 0) logits.insert(logits.end(), sb_.data.logits_row(r), sb_.data.logits_row(r) + nl);
    }
    auto n = storage_->append(ids, x.data(), labels, nl > 0 ? logits.data() : nullptr);
    if (!n.ok()) return n.error();
    EDGECL_RETURN_IF_ERROR(storage_->commit());
  }
  EDGECL_RETURN_IF_ERROR(evaluate(task));
  st_.task_finished = true;
  OrderedJson ev = obj();
  ev["task"] = task;
  return emit("task_end", ev);
}

Error Session::evaluate(int64_t task) {
  phase_ = "evaluation";
  OrderedJson ph = obj();
  ph["phase"] = "evaluation";
  ph["task"] = task;
  EDGECL_RETURN_IF_ERROR(emit("phase_start", ph));
  const std::vector<int64_t> seen = index_.seen_tasks(task);
  std::vector<int64_t> seen_classes;
  for (int64_t t : seen) {
    const auto& c = (*index_.entry(t))->classes;
    seen_classes.insert(seen_classes.end(), c.begin(), c.end());
  }
  std::sort(seen_classes.begin(), seen_classes.end());
  OrderedJson row = obj(), ci = obj(), ti = obj(), cn = obj(), tn = obj();
  row["after_task"] = task;
  for (int64_t t : seen) {
    const TaskEntry& entry = **index_.entry(t);
    if (!test_shards_.count(t)) {
      auto shard = read_shard(entry.test_file);
      if (!shard.ok()) return shard.error();
      test_shards_.emplace(t, std::move(shard.get()));
    }
    const Shard& test = test_shards_.at(t);
    std::vector<float> logits(static_cast<size_t>(test.count * classes_));
    EDGECL_RETURN_IF_ERROR(prog_->eval(test.x.data(), static_cast<int>(test.count), logits.data()));
    std::vector<int64_t> own = entry.classes;
    std::sort(own.begin(), own.end());
    const int64_t nc = correct_count(logits, test.y, classes_, seen_classes);
    const int64_t nt = correct_count(logits, test.y, classes_, own);
    const double n = static_cast<double>(std::max<int64_t>(test.count, 1));
    const double c_il = 100.0 * static_cast<double>(nc) / n, t_il = 100.0 * static_cast<double>(nt) / n;
    ci[std::to_string(t)] = c_il;
    ti[std::to_string(t)] = t_il;
    cn[std::to_string(t)] = nc;
    tn[std::to_string(t)] = nt;
    OrderedJson ev = obj();
    ev["after_task"] = task;
    ev["task"] = t;
    ev["class_il"] = round_digits(c_il, 4);
    ev["task_il"] = round_digits(t_il, 4);
    ev["n"] = test.count;
    EDGECL_RETURN_IF_ERROR(emit("eval", ev));
  }
  row["class_il"] = ci;
  row["task_il"] = ti;
  st_.evals.push_back(row);
  OrderedJson line = obj();
  line["k"] = "eval";
  line["task"] = task;
  line["class_il"] = cn;
  line["task_il"] = tn;
  EDGECL_RETURN_IF_ERROR(trace_->write(line));
  EDGECL_RETURN_IF_ERROR(emit("phase_end", ph));
  phase_ = "training";
  return Error();
}

SessionOutcome run_session(const std::string& session_dir, const ModelSource& models, const CancelCheck& cancelled) {
  Session s(session_dir, models, cancelled);
  return s.run();
}

}  // namespace edgecl
