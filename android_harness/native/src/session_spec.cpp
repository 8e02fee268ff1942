#include "session_spec.h"

#include <functional>
#include <map>
#include <set>

#include "fileio.h"
#include "json_io.h"

namespace edgecl {
namespace {

/// Binds the keys of one JSON object to fields, collecting every problem.
class Binder {
 public:
  Binder(const Json& obj, std::string where, std::vector<std::string>* problems)
      : obj_(obj), where_(std::move(where)), problems_(problems) {}

  void integer(const std::string& key, int64_t* out, bool required = false) {
    bind(key, required, [&](const Json& v) {
      if (!v.is_number_integer()) return expect(key, v, "an integer");
      *out = v.get<int64_t>();
    });
  }
  void number(const std::string& key, double* out) {
    bind(key, false, [&](const Json& v) {
      if (!v.is_number()) return expect(key, v, "a number");
      *out = v.get<double>();
    });
  }
  void boolean(const std::string& key, bool* out) {
    bind(key, false, [&](const Json& v) {
      if (!v.is_boolean()) return expect(key, v, "true or false");
      *out = v.get<bool>();
    });
  }
  void string(const std::string& key, std::string* out, bool required = false) {
    bind(key, required, [&](const Json& v) {
      if (!v.is_string()) return expect(key, v, "a string");
      *out = v.get<std::string>();
    });
  }
  void integers(const std::string& key, std::vector<int64_t>* out, bool required = false) {
    bind(key, required, [&](const Json& v) {
      if (!v.is_array()) return expect(key, v, "a list of integers");
      out->clear();
      for (const auto& e : v) {
        if (!e.is_number_integer()) return expect(key, v, "a list of integers");
        out->push_back(e.get<int64_t>());
      }
    });
  }
  void numbers(const std::string& key, std::vector<double>* out) {
    bind(key, false, [&](const Json& v) {
      if (!v.is_array()) return expect(key, v, "a list of numbers");
      out->clear();
      for (const auto& e : v) {
        if (!e.is_number()) return expect(key, v, "a list of numbers");
        out->push_back(e.get<double>());
      }
    });
  }
  void table(const std::string& key, const std::function<void(Binder&)>& fill) {
    bind(key, false, [&](const Json& v) {
      if (!v.is_object()) return expect(key, v, "an object");
      Binder inner(v, where_ + key + ".", problems_);
      fill(inner);
      inner.finish();
    });
  }
  /// Reports the keys no binding claimed.
  void finish() {
    if (!obj_.is_object()) return;
    for (auto it = obj_.begin(); it != obj_.end(); ++it) {
      if (!known_.count(it.key())) {
        std::string names;
        for (const auto& k : known_) names += (names.empty() ? "" : ", ") + k;
        problems_->push_back(where_ + it.key() + ": unknown key (known: " + names + ")");
      }
    }
  }

 private:
  void bind(const std::string& key, bool required, const std::function<void(const Json&)>& read) {
    known_.insert(key);
    const auto it = obj_.find(key);
    if (it == obj_.end()) {
      if (required) problems_->push_back(where_ + key + ": required key is missing");
      return;
    }
    read(*it);
  }
  void expect(const std::string& key, const Json& v, const std::string& what) {
    problems_->push_back(where_ + key + ": expected " + what + ", got " + to_json_text(v, JsonStyle::kPython));
  }

  const Json& obj_;
  std::string where_;
  std::vector<std::string>* problems_;
  std::set<std::string> known_;
};

std::string num(double v) { return to_json_text(Json(v), JsonStyle::kPython); }

/// The ranges of spec_tables.py / session_spec.py (spec_field metadata), every problem at once.
void validate(const SessionSpec& s, std::vector<std::string>* p) {
  auto range = [&](const std::string& key, double v, double lo, bool lo_open, double hi, bool hi_open) {
    if (lo_open ? v <= lo : v < lo) p->push_back(key + ": expected a value " + (lo_open ? "> " : ">= ") + num(lo) + ", got " + num(v));
    if (hi_open ? v >= hi : v > hi) p->push_back(key + ": expected a value " + (hi_open ? "< " : "<= ") + num(hi) + ", got " + num(v));
  };
  constexpr double kInf = 1e308;
  const auto& m = s.train.method;
  if (m != "finetune" && m != "er" && m != "derpp" && m != "joint") {
    p->push_back("train.method: expected one of 'finetune', 'er', 'derpp', 'joint', got '" + m + "'");
  }
  if (s.kind != "task" && s.kind != "profiling") p->push_back("kind: expected one of 'task', 'profiling', got '" + s.kind + "'");
  range("train.epochs", s.train.epochs, 1, false, 1000, false);
  range("train.batch_size", s.train.batch_size, 1, false, 4096, false);
  range("train.lr", s.train.lr, 0, true, 10, false);
  range("train.alpha", s.train.alpha, 0, false, kInf, false);
  range("train.beta", s.train.beta, 0, false, kInf, false);
  range("replay.em_size", static_cast<double>(s.replay.em_size), 0, false, kInf, false);
  range("replay.sb_size", static_cast<double>(s.replay.sb_size), 1, false, kInf, false);
  range("replay.swap_ratio", s.replay.swap_ratio, 0, false, 1, false);
  range("replay.swap_period", static_cast<double>(s.replay.swap_period), 1, false, kInf, false);
  range("replay.storage_budget_mb", s.replay.storage_budget_mb, 0, true, kInf, false);
  const auto& sp = s.sparcl;
  range("sparcl.sparsity", sp.sparsity, 0, false, 1, true);
  range("sparcl.tdm_lambda", sp.tdm_lambda, 0, false, kInf, false);
  range("sparcl.tdm_update_every", sp.tdm_update_every, 0, true, 1, false);
  range("sparcl.tdm_swap", sp.tdm_swap, 0, false, 1, true);
  range("sparcl.tdm_freeze_after", sp.tdm_freeze_after, 0, true, 1, false);
  range("sparcl.ddr_fraction", sp.ddr_fraction, 0, false, 1, true);
  if (sp.ddr_select != "forgetting" && sp.ddr_select != "random") {
    p->push_back("sparcl.ddr_select: expected one of 'forgetting', 'random', got '" + sp.ddr_select + "'");
  }
  range("sparcl.dgm_ratio", sp.dgm_ratio, 0, false, 1, true);
  range("sparcl.dgm_period", static_cast<double>(sp.dgm_period), 1, false, kInf, false);
  range("checkpoint_every", static_cast<double>(s.checkpoint_every), 0, false, kInf, false);
  range("keep_checkpoints", static_cast<double>(s.keep_checkpoints), 1, false, kInf, false);
  range("step_event_every", static_cast<double>(s.step_event_every), 0, false, kInf, false);
  range("resources_every_s", s.resources_every_s, 0, true, kInf, false);
  range("subset_fraction", s.subset_fraction, 0, true, 1, false);
  if (!p->empty()) return;  // cross-field checks only on a spec whose fields are all good (as spec_schema)
  for (double f : sp.ddr_steps) {
    if (!(f > 0.0 && f < 1.0)) {
      p->push_back("sparcl.ddr_steps: expected fractions of a task's epochs in (0, 1)");
      break;
    }
  }
  if (s.tasks.empty()) p->push_back("tasks: expected at least one task index");
  std::set<int64_t> distinct(s.tasks.begin(), s.tasks.end());
  bool negative = false;
  for (int64_t t : s.tasks) negative |= t < 0;
  if (negative || distinct.size() != s.tasks.size()) p->push_back("tasks: expected distinct task indices >= 0");
  if (!s.checkpoint_at_task_end && s.kind != "profiling") {
    p->push_back("checkpoint_at_task_end: false only for profiling sessions (a task session's "
                 "task-end checkpoint is where the next task starts)");
  }
}

}  // namespace

std::string SessionSpec::resolve(const std::string& storage_root, const std::string& path) const {
  return join_path(storage_root, path);
}

Result<SessionSpec> parse_session_spec(const std::string& text, const std::string& where) {
  auto parsed = parse_json_text(text, where);
  if (!parsed.ok()) return parsed.error();
  const Json& root = *parsed;
  if (!root.is_object()) return Error(ErrorCode::InvalidArgument, where + ": expected a JSON object");
  SessionSpec s;
  std::vector<std::string> problems;
  Binder b(root, "", &problems);
  int64_t seed = 0;
  b.string("session_id", &s.session_id, true);
  b.string("model_dir", &s.model_dir, true);
  b.string("data_dir", &s.data_dir, true);
  b.string("replay_dir", &s.replay_dir, true);
  b.integers("tasks", &s.tasks, true);
  b.integer("seed", &seed);
  b.string("kind", &s.kind);
  b.table("train", [&](Binder& t) {
    t.string("method", &s.train.method);
    t.integer("epochs", &s.train.epochs);
    t.integer("batch_size", &s.train.batch_size);
    t.number("lr", &s.train.lr);
    t.number("alpha", &s.train.alpha);
    t.number("beta", &s.train.beta);
    t.boolean("current_task_logits_only", &s.train.current_task_logits_only);
  });
  b.table("replay", [&](Binder& t) {
    t.integer("em_size", &s.replay.em_size);
    t.integer("sb_size", &s.replay.sb_size);
    t.number("swap_ratio", &s.replay.swap_ratio);
    t.integer("swap_period", &s.replay.swap_period);
    t.number("storage_budget_mb", &s.replay.storage_budget_mb);
  });
  b.table("sparcl", [&](Binder& t) {
    auto& sp = s.sparcl;
    t.boolean("enabled", &sp.enabled);
    t.number("sparsity", &sp.sparsity);
    t.boolean("structured", &sp.structured);
    t.boolean("tdm", &sp.tdm);
    t.number("tdm_lambda", &sp.tdm_lambda);
    t.number("tdm_update_every", &sp.tdm_update_every);
    t.number("tdm_swap", &sp.tdm_swap);
    t.number("tdm_freeze_after", &sp.tdm_freeze_after);
    t.boolean("ddr", &sp.ddr);
    t.number("ddr_fraction", &sp.ddr_fraction);
    t.numbers("ddr_steps", &sp.ddr_steps);
    t.string("ddr_select", &sp.ddr_select);
    t.boolean("ddr_store_removed", &sp.ddr_store_removed);
    t.boolean("dgm", &sp.dgm);
    t.number("dgm_ratio", &sp.dgm_ratio);
    t.integer("dgm_period", &sp.dgm_period);
  });
  b.string("resume_from", &s.resume_from);
  b.integer("checkpoint_every", &s.checkpoint_every);
  b.integer("keep_checkpoints", &s.keep_checkpoints);
  b.boolean("checkpoint_at_task_end", &s.checkpoint_at_task_end);
  b.integer("step_event_every", &s.step_event_every);
  b.number("resources_every_s", &s.resources_every_s);
  b.number("subset_fraction", &s.subset_fraction);
  b.string("meminfo_path", &s.meminfo_path);
  b.boolean("trace", &s.trace);
  b.finish();
  if (seed < 0) problems.push_back("seed: expected a value >= 0 and < 2^63, got " + std::to_string(seed));
  s.seed = static_cast<uint64_t>(seed);
  validate(s, &problems);
  if (!problems.empty()) {
    std::string msg = where + ": ";
    for (size_t i = 0; i < problems.size(); ++i) msg += (i ? "; " : "") + problems[i];
    return Error(ErrorCode::InvalidArgument, msg);
  }
  return s;
}

Result<SessionSpec> read_session_spec(const std::string& session_dir) {
  const std::string path = join_path(session_dir, "session.json");
  auto text = read_file(path);
  if (!text.ok()) {
    if (text.error().code() == ErrorCode::NotFound) {
      return Error(ErrorCode::NotFound, path + ": missing (the host writes it before starting the runner)");
    }
    return text.error();
  }
  return parse_session_spec(*text, path);
}

}  // namespace edgecl
