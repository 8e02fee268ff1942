// The session loop (docs/semantics.md sections 3, 5, 7, 8): the result, tasks, task starts,
// epochs and their TDM/DDR events. Steps are session_step.cpp, task ends session_end.cpp.
#include "runner.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "disk_space.h"
#include "fileio.h"
#include "resources.h"
#include "session.h"
#include "sparse_report.h"

namespace edgecl {
namespace {

constexpr const char* kReserveFile = "runner.reserve";

double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

OrderedJson obj() { return OrderedJson::object(); }

}  // namespace

Session::Session(std::string session_dir, const ModelSource& models, const CancelCheck& cancelled, double launched)
    : dir_(absolute_path(session_dir)), models_(models), cancelled_(cancelled), launched_(launched) {
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
  if (!(launched_ > 0.0) || launched_ > started) launched_ = started;
  // The reserve is freed before the session's last writes, so they fit on a disk it filled.
  auto reserve = SpaceReserve::create(join_path(dir_, kReserveFile), kErrorReserveBytes);
  Error err = reserve.error();
  auto log = EventLog::open(join_path(dir_, "events.jsonl"));
  if (log.ok()) {
    log_ = std::move(log.get());
    heartbeat_ = std::make_unique<Heartbeat>(log_.get());
    if (err.ok()) err = body();
    heartbeat_->stop();
  } else if (err.ok()) {
    err = log.error();
  }
  if (reserve.ok()) reserve.get()->release();
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
  // a session that trained ends with a probe: its peak RSS is known however short it was (the periodic
  // probes come every resources_every_s)
  if (status == "ok" && storage_) emit("resources", probe_resources(spec_.meminfo_path, {dir_, storage_->root()}));
  if (swap_) swap_->apply(&em_, nullptr);
  if (storage_) storage_->close();
  const std::string ckpt = latest_checkpoint(ckpt_dir_);
  OrderedJson r = obj();
  r["session_id"] = spec_.session_id.empty() ? base_name(dir_) : spec_.session_id;
  r["status"] = status;
  r["error"] = error_value;
  r["kind"] = spec_.session_id.empty() ? OrderedJson(nullptr) : OrderedJson(name_of(spec_.kind));
  r["tasks"] = spec_.tasks;
  r["iterations"] = st_.iteration;
  r["evals"] = st_.evals;
  r["checkpoint"] = ckpt.empty() ? OrderedJson(nullptr) : OrderedJson(relative(ckpt));
  r["t_start"] = started;
  r["t_end"] = monotonic_seconds();
  if (const char* profile = std::getenv("EDGECL_PROFILE")) {
    const Error w = profile_.write(profile, sparse_layers_json(prog_->sparse_report()));
    if (!w.ok()) std::fprintf(stderr, "edgecl-runner: %s\n", w.message().c_str());
  }
  OrderedJson end = obj();
  end["status"] = status;
  // result.json means the session is over and its log says so: without session_end in the log (a full
  // disk refused it) none is written, and the server writes both from its reserve (server.cpp write_end).
  Error w = log_ ? emit("session_end", end) : Error(ErrorCode::AccessFailed, "events.jsonl is not open");
  log_.reset();
  if (w.ok()) w = write_file_atomic(join_path(dir_, "result.json"), to_json_text(r, JsonStyle::kIndent1));
  if (!w.ok()) std::fprintf(stderr, "edgecl-runner: the session's end was not written: %s\n", w.message().c_str());
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
  start["kind"] = name_of(spec_.kind);
  start["resumed_from"] = resumed_from_.empty() ? OrderedJson(nullptr) : OrderedJson(resumed_from_);
  start["device"] = probe_resources(spec_.meminfo_path, {});
  start["t_launch"] = round_digits(launched_, 6);
  start["heartbeat_s"] = heartbeat_->period_s();
  EDGECL_RETURN_IF_ERROR(emit("session_start", start));
  heartbeat_->start();
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
  if (spec_.checkpoint_at_task_end) EDGECL_RETURN_IF_ERROR(write_checkpoint_now());
  if (cancel_now()) was_cancelled_ = true;
  return Error();
}

Error Session::build_task(int64_t task, const std::vector<RecordRef>* refs) {
  phase_ = "setup";
  auto entry = index_.entry(task);
  if (!entry.ok()) return entry.error();
  task_classes_ = (*entry)->classes;
  const bool joint = trains_seen_tasks(spec_.train.method);
  const double fraction = spec_.kind == SessionKind::kProfiling ? spec_.subset_fraction : 1.0;
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
  OrderedJson line = trace_line("em", task);
  OrderedJson pairs = OrderedJson::array();
  for (const auto& [c, k] : em_.refs) pairs.push_back({c, k});
  line["refs"] = pairs;
  return trace_->write(line);
}

Error Session::train_task(int64_t task) {
  phase_ = "training";
  const std::string phase = spec_.kind == SessionKind::kProfiling ? "profiling" : "training";
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
    if (steps == 0) EDGECL_RETURN_IF_ERROR(end_epoch(task, 0, t0));  // an empty pool: an epoch of zero steps
    for (int64_t k = st_.batch; k < steps; ++k) {
      profile_.start();
      EDGECL_RETURN_IF_ERROR(step(task, order, k));
      st_.batch = k + 1;
      if (st_.batch == steps) EDGECL_RETURN_IF_ERROR(end_epoch(task, pool, t0));
      // Between steps: resources, then a checkpoint when due (not at the task's last step: the
      // task end writes one) or when cancelled.
      const double now = monotonic_seconds();
      if (now - last_resources_ >= spec_.resources_every_s) {
        last_resources_ = now;
        EDGECL_RETURN_IF_ERROR(emit("resources", probe_resources(spec_.meminfo_path, {dir_, storage_->root()})));
      }
      const bool last_of_task = st_.epoch == spec_.train.epochs;
      const bool stop = cancel_now();
      if (stop || (spec_.checkpoint_every > 0 && st_.iteration % spec_.checkpoint_every == 0 && !last_of_task)) {
        EDGECL_RETURN_IF_ERROR(write_checkpoint_now());
        if (stop) {
          was_cancelled_ = true;
          return Error();
        }
      }
      profile_.mark(StepProfile::kBetween);
      profile_.count_step();
    }
  }
  EDGECL_RETURN_IF_ERROR(apply_swap());
  return emit("phase_end", ph);
}

Error Session::epoch_start(int64_t task, int64_t epoch) {
  const auto count = ddr_counts_.find(epoch);
  if (count != ddr_counts_.end() && count->second > 0) {
    Stream draw(spec_.seed, Purpose::kDdrDraw, static_cast<uint64_t>(task), static_cast<uint64_t>(epoch));
    const std::vector<int64_t> window = ddr_.window_counts();
    const std::vector<int64_t> gone = ddr_.remove(count->second, spec_.sparcl.ddr_select == DdrSelect::kRandom ? &draw : nullptr);
    OrderedJson ev = obj();
    ev["task"] = task;
    ev["epoch"] = epoch;
    ev["removed"] = static_cast<int64_t>(gone.size());
    ev["remaining"] = ddr_.active_count();
    ev["window"] = window;
    EDGECL_RETURN_IF_ERROR(emit("ddr", ev));
    OrderedJson line = trace_line("ddr", task);
    line["epoch"] = epoch;
    line["removed"] = gone;
    line["window"] = window;
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
    prog_->masks_changed();
    opt_->clear_where(mask_param_[l], kept);
    if (trace_->enabled()) hashes[prog_->signature().mask_names[l]] = mask_hash(live.data(), live.size());
    int64_t on = 0;
    for (float v : live) on += v != 0.0f ? 1 : 0;
    density += static_cast<double>(on) / static_cast<double>(live.size());
  }
  zero_dead_biases();
  st_.tdm_frozen = ev.freeze;
  dgm_.clear();
  OrderedJson e = obj();
  e["task"] = task;
  e["epoch"] = epoch;
  e["kind"] = ev.kind;
  e["density"] = round_digits(mask_param_.empty() ? 0.0 : density / static_cast<double>(mask_param_.size()), 6);
  EDGECL_RETURN_IF_ERROR(emit("mask", e));
  OrderedJson line = trace_line("tdm", task);
  line["epoch"] = epoch;
  line["masks"] = hashes;
  return trace_->write(line);
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

SessionOutcome run_session(const std::string& session_dir, const ModelSource& models, const CancelCheck& cancelled,
                           double launched) {
  Session s(session_dir, models, cancelled, launched);
  return s.run();
}

}  // namespace edgecl
