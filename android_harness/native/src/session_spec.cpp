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

  // One overload per C++ type of the generated table (session_spec_table.h).
  void value(const std::string& key, int64_t* out, bool required) {
    bind(key, required, [&](const Json& v) {
      if (!v.is_number_integer()) return expect(key, v, "an integer");
      *out = v.get<int64_t>();
    });
  }
  void value(const std::string& key, double* out, bool required) {
    bind(key, required, [&](const Json& v) {
      if (!v.is_number()) return expect(key, v, "a number");
      *out = v.get<double>();
    });
  }
  void value(const std::string& key, bool* out, bool required) {
    bind(key, required, [&](const Json& v) {
      if (!v.is_boolean()) return expect(key, v, "true or false");
      *out = v.get<bool>();
    });
  }
  void value(const std::string& key, std::string* out, bool required) {
    bind(key, required, [&](const Json& v) {
      if (!v.is_string()) return expect(key, v, "a string");
      *out = v.get<std::string>();
    });
  }
  void value(const std::string& key, std::vector<int64_t>* out, bool required) {
    bind(key, required, [&](const Json& v) {
      if (!v.is_array()) return expect(key, v, "a list of integers");
      out->clear();
      for (const auto& e : v) {
        if (!e.is_number_integer()) return expect(key, v, "a list of integers");
        out->push_back(e.get<int64_t>());
      }
    });
  }
  void value(const std::string& key, std::vector<double>* out, bool required) {
    bind(key, required, [&](const Json& v) {
      if (!v.is_array()) return expect(key, v, "a list of numbers");
      out->clear();
      for (const auto& e : v) {
        if (!e.is_number()) return expect(key, v, "a list of numbers");
        out->push_back(e.get<double>());
      }
    });
  }
  /// A field with choices: its enum, parsed here once from the spec's name.
  template <typename E>
  void value(const std::string& key, E* out, bool required) {
    bind(key, required, [&](const Json& v) {
      const auto& names = names_of(E{});
      std::string listed;
      for (const char* n : names) listed += (listed.empty() ? "'" : ", '") + std::string(n) + "'";
      if (!v.is_string()) return expect(key, v, "one of " + listed);
      for (size_t i = 0; i < names.size(); ++i) {
        if (v.get<std::string>() == names[i]) {
          *out = static_cast<E>(i);
          return;
        }
      }
      expect(key, v, "one of " + listed);
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

/// The generated ranges (spec_field metadata), every problem at once.
void validate(const SessionSpec& s, std::vector<std::string>* p) {
  auto range = [&](const std::string& key, double v, double lo, bool lo_open, double hi, bool hi_open) {
    if (lo_open ? v <= lo : v < lo) p->push_back(key + ": expected a value " + (lo_open ? "> " : ">= ") + num(lo) + ", got " + num(v));
    if (hi_open ? v >= hi : v > hi) p->push_back(key + ": expected a value " + (hi_open ? "< " : "<= ") + num(hi) + ", got " + num(v));
  };
#define EDGECL_SPEC_CHECK(name, lo, lo_open, hi, hi_open) \
  range(prefix + #name, static_cast<double>(obj.name), lo, lo_open, hi, hi_open);
  {
    const std::string prefix;
    const SessionSpec& obj = s;
    EDGECL_SPEC_SESSION_RANGES(EDGECL_SPEC_CHECK)
  }
  {
    const std::string prefix = "train.";
    const TrainConfig& obj = s.train;
    EDGECL_SPEC_TRAIN_RANGES(EDGECL_SPEC_CHECK)
  }
  {
    const std::string prefix = "replay.";
    const ReplayConfig& obj = s.replay;
    EDGECL_SPEC_REPLAY_RANGES(EDGECL_SPEC_CHECK)
  }
  {
    const std::string prefix = "sparcl.";
    const SparclConfig& obj = s.sparcl;
    EDGECL_SPEC_SPARCL_RANGES(EDGECL_SPEC_CHECK)
  }
#undef EDGECL_SPEC_CHECK
  if (!p->empty()) return;  // cross-field checks only on a spec whose fields are all good (as spec_schema)
  for (double f : s.sparcl.ddr_steps) {
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
  if (!s.checkpoint_at_task_end && s.kind != SessionKind::kProfiling) {
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
#define EDGECL_SPEC_BIND(type, name, default_value, required, doc) b.value(#name, &obj.name, required);
  {
    SessionSpec& obj = s;
    EDGECL_SPEC_SESSION(EDGECL_SPEC_BIND)
  }
  b.table("train", [&](Binder& b) {
    TrainConfig& obj = s.train;
    EDGECL_SPEC_TRAIN(EDGECL_SPEC_BIND)
  });
  b.table("replay", [&](Binder& b) {
    ReplayConfig& obj = s.replay;
    EDGECL_SPEC_REPLAY(EDGECL_SPEC_BIND)
  });
  b.table("sparcl", [&](Binder& b) {
    SparclConfig& obj = s.sparcl;
    EDGECL_SPEC_SPARCL(EDGECL_SPEC_BIND)
  });
#undef EDGECL_SPEC_BIND
  b.finish();
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
