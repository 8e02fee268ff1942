// Session setup, restore and checkpoints (docs/semantics.md section 10). See session.h.
#include <cstring>

#include "fileio.h"
#include "json_io.h"
#include "npy.h"
#include "session.h"

namespace edgecl {
namespace {

Error invalid(const std::string& msg) { return Error(ErrorCode::InvalidArgument, msg); }

std::vector<int64_t> shape_of(const MutableTensorRef& t) { return t.shape; }

}  // namespace

std::string Session::relative(const std::string& path) const {
  const std::string prefix = root_ + "/";
  return path.compare(0, prefix.size(), prefix) == 0 ? path.substr(prefix.size()) : path;
}

Error Session::setup() {
  auto spec = read_session_spec(dir_);
  if (!spec.ok()) return spec.error();
  spec_ = std::move(spec.get());
  model_dir_ = spec_.resolve(root_, spec_.model_dir);
  auto index = read_task_index(spec_.resolve(root_, spec_.data_dir));
  if (!index.ok()) return index.error();
  index_ = std::move(index.get());
  for (int64_t t : spec_.tasks) {
    auto e = index_.entry(t);
    if (!e.ok()) return e.error();
  }
  auto model = models_(model_dir_);
  if (!model.ok()) return model.error();
  model_ = model.get();
  prog_ = &model_->program();
  const Manifest& man = prog_->manifest();
  const Signature& sig = prog_->signature();
  const std::string mpath = join_path(model_dir_, "manifest.json");
  if (man.runtime != "executorch") {
    return Error(ErrorCode::NotSupported, mpath + ": runtime '" + man.runtime + "' (the native runner runs executorch)");
  }
  batch_ = sig.batch_size;
  classes_ = sig.num_classes;
  if (spec_.train.batch_size != batch_) {
    return invalid(join_path(dir_, "session.json") + ": train.batch_size: " + std::to_string(spec_.train.batch_size) +
                   ", but the program in " + model_dir_ + " takes " + std::to_string(batch_) + " rows per step");
  }
  if (classes_ != index_.num_classes) {
    return invalid(mpath + ": the program has " + std::to_string(classes_) + " classes, " +
                   join_path(index_.folder, "tasks.json") + " has " + std::to_string(index_.num_classes));
  }
  numel_ = static_cast<int64_t>(sig.inputs.at(0).numel()) / batch_;
  // The masked layers' products run on sparse kernels where their density makes them faster, with the
  // dense kernels' bits (docs/semantics.md 12); every mask write below says so to the program.
  if (!sig.mask_names.empty()) {
    EDGECL_RETURN_IF_ERROR(prog_->set_sparse(true));
    prog_->reset_sparse_stats(false);   // this session's counts (a served program outlives its sessions)
  }
  for (const auto& name : sig.mask_names) {
    size_t i = 0;
    while (i < sig.parameter_names.size() && sig.parameter_names[i] != name) ++i;
    if (i == sig.parameter_names.size()) return invalid(mpath + ": mask " + name + " is not a parameter");
    mask_param_.push_back(i);
  }
  // Structured TDM: a non-live channel's bias is kept at 0 too (docs/semantics.md 8).
  for (size_t l = 0; spec_.sparcl.tdm_on() && spec_.sparcl.structured && l < sig.mask_names.size(); ++l) {
    const std::string& w = sig.mask_names[l];
    if (w.size() < 6 || w.compare(w.size() - 6, 6, "weight") != 0) continue;
    const std::string bias = w.substr(0, w.size() - 6) + "bias";
    for (size_t i = 0; i < sig.parameter_names.size(); ++i) {
      if (sig.parameter_names[i] == bias) dead_bias_.emplace_back(l, i);
    }
  }
  for (const auto& layer : sig.norm_stats) {
    auto find = [&](const std::string& n) {
      size_t i = 0;
      while (i < sig.buffer_names.size() && sig.buffer_names[i] != n) ++i;
      return i;
    };
    const size_t mean = find(layer + ".running_mean"), var = find(layer + ".running_var");
    if (mean == sig.buffer_names.size() || var == sig.buffer_names.size()) {
      return invalid(mpath + ": BatchNorm layer " + layer + " has no running statistics in buffer_names");
    }
    norm_buffers_.emplace_back(mean, var);
    const auto m = man.norm_momentum.find(layer);
    norm_momentum_.push_back(static_cast<float>(m == man.norm_momentum.end() ? 0.1 : m->second));
  }
  const auto& opt = man.optimizer;
  if (spec_.sparcl.dgm_on() && (opt.name != "sgd" || opt.momentum != 0.0 || opt.weight_decay != 0.0)) {
    return invalid(join_path(dir_, "session.json") + " sparcl.dgm: gradient masking is defined for plain SGD only "
                   "(a masked weight must not move in that step); the export " + mpath + " trains with " + opt.name +
                   ", momentum " + to_json_text(Json(opt.momentum), JsonStyle::kPython) + ", weight_decay " +
                   to_json_text(Json(opt.weight_decay), JsonStyle::kPython) +
                   " (set sparcl.dgm = false or export with sgd without momentum and weight decay)");
  }
  std::vector<size_t> sizes;
  for (const auto& p : prog_->params()) sizes.push_back(p.numel);
  auto o = Optimizer::create(opt, sizes);
  if (!o.ok()) return o.error().with_context(mpath);
  opt_.emplace(std::move(o.get()));
  weights_ = {spec_.train.method, spec_.train.alpha, spec_.train.beta, spec_.train.current_task_logits_only};
  rows_ = std::make_unique<StepBatch>(batch_, numel_, classes_);
  replay_ = replays(spec_.train.method);
  const int64_t n_logits = keeps_logits(spec_.train.method) ? classes_ : 0;
  sb_ = StreamBuffer(numel_, n_logits);
  em_ = EpisodicMemory(numel_, n_logits);
  EDGECL_RETURN_IF_ERROR(open_store());
  auto trace = Trace::open(spec_.trace ? join_path(dir_, "trace.jsonl") : "");
  if (!trace.ok()) return trace.error();
  trace_ = std::move(trace.get());
  return Error();
}

Error Session::open_store() {
  RecordFormat fmt;
  const auto& shape = prog_->signature().inputs.at(0).shape;
  fmt.x_shape.assign(shape.begin() + 1, shape.end());
  fmt.n_logits = sb_.data.n_logits;
  const auto budget = static_cast<int64_t>(spec_.replay.storage_budget_mb * 1024.0 * 1024.0);
  auto store = StorageTier::open(spec_.resolve(root_, spec_.replay_dir), fmt, budget, spec_.kind == SessionKind::kProfiling);
  if (!store.ok()) return store.error();
  storage_ = std::move(store.get());
  swap_ = std::make_unique<SwapWorker>(storage_.get());
  return Error();
}

Error Session::restore() {
  const std::string own = latest_checkpoint(ckpt_dir_);
  const std::string path = !own.empty() ? own : spec_.resume_from.empty() ? "" : spec_.resolve(root_, spec_.resume_from);
  if (path.empty()) {  // the export's initial state: nothing stored yet
    if (spec_.kind == SessionKind::kTask) EDGECL_RETURN_IF_ERROR(storage_->truncate_to({}));
    return trace_->reset_to(0);
  }
  auto state = read_checkpoint_state(path);
  if (!state.ok()) return state.error();
  const CheckpointState& saved = *state;
  if (saved.runtime != "executorch") {
    return invalid(path + ": written by the " + saved.runtime + " runtime, this program runs executorch");
  }
  if (own.empty() && !saved.task_finished) {
    return invalid(path + ": resume_from must be a checkpoint at a task end (this one is mid-task)");
  }
  auto arrays = read_checkpoint_arrays(path);
  if (!arrays.ok()) return arrays.error();
  if (spec_.kind == SessionKind::kTask) EDGECL_RETURN_IF_ERROR(storage_->truncate_to(saved.storage_position));
  own_resume_ = !own.empty();
  // A hand-over (resume_from) takes the model, optimizer, masks, g_prev and the iteration; the
  // session then trains its tasks from their start. The session's own checkpoint continues.
  st_.iteration = saved.iteration;
  st_.task = saved.task;
  st_.task_finished = saved.task_finished;
  st_.opt_step = saved.opt_step;
  st_.has_grad_prev = saved.has_grad_prev;
  if (own_resume_) {
    st_ = saved;
  }
  EDGECL_RETURN_IF_ERROR(load_arrays(*arrays, own_resume_).with_context(path));
  resumed_from_ = path;
  return trace_->reset_to(own_resume_ ? saved.trace_bytes : 0);
}

Error Session::load_arrays(const ArrayMap& arrays, bool own) {
  const Signature& sig = prog_->signature();
  auto get = [&](const std::string& key) -> Result<const NpyArray*> {
    const auto it = arrays.find(key);
    if (it == arrays.end()) return Error(ErrorCode::InvalidExternalData, "arrays/" + key + ".npy: missing");
    return &it->second;
  };
  auto into = [&](const std::string& key, float* dst, size_t n) -> Error {
    auto a = get(key);
    if (!a.ok()) return a.error();
    std::vector<float> v;
    EDGECL_RETURN_IF_ERROR(npy_to_f32(**a, static_cast<int64_t>(n), "arrays/" + key + ".npy", &v));
    std::memcpy(dst, v.data(), n * sizeof(float));
    return Error();
  };
  const auto& params = prog_->params();
  for (size_t i = 0; i < params.size(); ++i) {
    EDGECL_RETURN_IF_ERROR(into("param." + sig.parameter_names[i], params[i].data, params[i].numel));
  }
  for (size_t i = 0; i < prog_->buffers().size(); ++i) {
    const auto& b = prog_->buffers()[i];
    EDGECL_RETURN_IF_ERROR(into("buffer." + sig.buffer_names[i], b.data, b.numel));
  }
  for (size_t i = 0; i < prog_->masks().size(); ++i) {
    const auto& m = prog_->masks()[i];
    EDGECL_RETURN_IF_ERROR(into("mask." + sig.mask_names[i], m.data, m.numel));
  }
  prog_->masks_changed();
  opt_->set_step_count(st_.opt_step);
  if (opt_->has_state()) {
    for (const auto& stem : opt_->state_names()) {
      auto& state = opt_->state(stem);
      for (size_t i = 0; i < params.size(); ++i) {
        EDGECL_RETURN_IF_ERROR(into("opt." + stem + "." + sig.parameter_names[i], state[i].data(), state[i].size()));
      }
    }
  }
  has_grad_prev_ = st_.has_grad_prev;
  restored_grad_prev_.clear();
  for (size_t l = 0; has_grad_prev_ && l < mask_param_.size(); ++l) {
    restored_grad_prev_.emplace_back(params[mask_param_[l]].numel);
    EDGECL_RETURN_IF_ERROR(into("grad_prev." + sig.mask_names[l], restored_grad_prev_[l].data(), restored_grad_prev_[l].size()));
  }
  if (!own) return Error();
  dgm_.clear();
  dgm_.steps_since_refresh = st_.dgm_steps_since_refresh;
  if (st_.dgm_has_masks) {
    dgm_.has_masks = true;
    dgm_.masks.resize(mask_param_.size());
    for (size_t l = 0; l < mask_param_.size(); ++l) {
      const std::string key = "gmask." + sig.mask_names[l];
      std::vector<float> values(params[mask_param_[l]].numel);
      EDGECL_RETURN_IF_ERROR(into(key, values.data(), values.size()));
      auto& mask = dgm_.masks[l];
      mask.resize(values.size());
      for (size_t i = 0; i < values.size(); ++i) {
        if (values[i] != 0.0f && values[i] != 1.0f) {
          return Error(ErrorCode::InvalidExternalData, "arrays/" + key + ".npy: a gradient mask holds 0 and 1 only");
        }
        mask[i] = values[i] != 0.0f ? 1 : 0;
      }
    }
  }
  if (st_.task_finished) return Error();
  // Mid-task: SB and EM rebuilt (SB from its streams, checked against sb_rows; EM from em_refs).
  auto refs = get("em_refs");
  if (!refs.ok()) return refs.error();
  std::vector<int64_t> flat;
  EDGECL_RETURN_IF_ERROR(npy_to_i64(**refs, -1, "arrays/em_refs.npy", &flat));
  std::vector<RecordRef> pairs;
  for (size_t i = 0; i + 1 < flat.size(); i += 2) pairs.emplace_back(flat[i], flat[i + 1]);
  EDGECL_RETURN_IF_ERROR(build_task(st_.task, &pairs));
  auto rows = get("sb_rows");
  if (!rows.ok()) return rows.error();
  std::vector<int64_t> saved_rows;
  EDGECL_RETURN_IF_ERROR(npy_to_i64(**rows, -1, "arrays/sb_rows.npy", &saved_rows));
  if (saved_rows != sb_.rows) {
    return Error(ErrorCode::InvalidExternalData, "its stream buffer rows differ from the ones this session draws "
                                                 "(another seed, sb_size or subset?)");
  }
  const int64_t n_sb = sb_.size();
  if (sb_.data.n_logits > 0) EDGECL_RETURN_IF_ERROR(into("sb_logits", sb_.data.logits.data(), sb_.data.logits.size()));
  if (!spec_.sparcl.ddr_on()) return Error();
  for (auto [key, dst] : {std::pair<const char*, std::vector<uint8_t>*>{"ddr_removed", &ddr_.removed},
                          {"ddr_ever_correct", &ddr_.ever_correct}, {"ddr_last_correct", &ddr_.last_correct},
                          {"ddr_seen", &ddr_.seen}}) {
    auto a = get(key);
    if (!a.ok()) return a.error();
    EDGECL_RETURN_IF_ERROR(npy_to_u8(**a, n_sb, std::string("arrays/") + key + ".npy", dst));
  }
  auto events = get("ddr_events");
  if (!events.ok()) return events.error();
  return npy_to_i64(**events, n_sb, "arrays/ddr_events.npy", &ddr_.events);
}

ArrayMap Session::checkpoint_arrays() const {
  const Signature& sig = prog_->signature();
  ArrayMap a;
  const auto& params = prog_->params();
  for (size_t i = 0; i < params.size(); ++i) a["param." + sig.parameter_names[i]] = npy_f32(shape_of(params[i]), params[i].data);
  for (size_t i = 0; i < prog_->buffers().size(); ++i) {
    const auto& b = prog_->buffers()[i];
    a["buffer." + sig.buffer_names[i]] = npy_f32(b.shape, b.data);
  }
  for (size_t i = 0; i < prog_->masks().size(); ++i) {
    const auto& m = prog_->masks()[i];
    a["mask." + sig.mask_names[i]] = npy_f32(m.shape, m.data);
  }
  for (size_t l = 0; l < mask_param_.size(); ++l) {
    const auto& shape = params[mask_param_[l]].shape;
    if (dgm_.has_masks) {
      const std::vector<float> values(dgm_.masks[l].begin(), dgm_.masks[l].end());
      a["gmask." + sig.mask_names[l]] = npy_f32(shape, values.data());
    }
    if (has_grad_prev_) a["grad_prev." + sig.mask_names[l]] = npy_f32(shape, grad_prev(l));
  }
  if (opt_->has_state()) {
    for (const auto& stem : opt_->state_names()) {
      auto& state = const_cast<Optimizer&>(*opt_).state(stem);
      for (size_t i = 0; i < params.size(); ++i) {
        a["opt." + stem + "." + sig.parameter_names[i]] = npy_f32(params[i].shape, state[i].data());
      }
    }
  }
  std::vector<int64_t> refs;
  for (const auto& [c, k] : em_.refs) {
    refs.push_back(c);
    refs.push_back(k);
  }
  a["em_refs"] = npy_i64({em_.size(), 2}, refs.data());
  const int64_t n_sb = sb_.size();
  a["sb_rows"] = npy_i64({n_sb}, sb_.rows.data());
  if (sb_.data.n_logits > 0) a["sb_logits"] = npy_f32({n_sb, sb_.data.n_logits}, sb_.data.logits.data());
  if (spec_.sparcl.ddr_on()) {
    a["ddr_removed"] = npy_u8({n_sb}, ddr_.removed.data());
    a["ddr_ever_correct"] = npy_u8({n_sb}, ddr_.ever_correct.data());
    a["ddr_last_correct"] = npy_u8({n_sb}, ddr_.last_correct.data());
    a["ddr_seen"] = npy_u8({n_sb}, ddr_.seen.data());
    a["ddr_events"] = npy_i64({n_sb}, ddr_.events.data());
  }
  return a;
}

Error Session::write_checkpoint_now() {
  EDGECL_RETURN_IF_ERROR(apply_swap());
  const std::string saved = phase_;
  phase_ = "checkpoint";
  st_.storage_position = storage_->position();
  st_.dgm_steps_since_refresh = dgm_.steps_since_refresh;
  st_.dgm_has_masks = dgm_.has_masks;
  st_.has_grad_prev = has_grad_prev_;
  st_.opt_step = opt_->step_count();
  st_.trace_bytes = trace_->size();
  auto path = write_checkpoint(ckpt_dir_, st_, checkpoint_arrays(), spec_.keep_checkpoints);
  if (!path.ok()) return path.error();
  OrderedJson ev = OrderedJson::object();
  ev["path"] = relative(*path);
  ev["step"] = st_.iteration;
  EDGECL_RETURN_IF_ERROR(emit("checkpoint", ev));
  phase_ = saved;
  return Error();
}

}  // namespace edgecl
