// A task's end (docs/semantics.md section 6): the surviving SB rows to the storage tier, then the
// evaluation of every task seen so far (class-IL and task-IL). See session.h.
#include <algorithm>

#include "session.h"

namespace edgecl {
namespace {

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

Error Session::finish_task(int64_t task) {
  EDGECL_RETURN_IF_ERROR(apply_swap());
  if (spec_.kind == SessionKind::kTask) {
    phase_ = "storage";
    std::vector<RecordSource> rows;
    for (int64_t r = 0; r < sb_.size(); ++r) {
      if (ddr_.removed[r] && !spec_.sparcl.ddr_store_removed) continue;
      rows.push_back({sb_.data.ids[r], sb_.data.y[r], sb_.data.x_row(r),
                      sb_.data.n_logits > 0 ? sb_.data.logits_row(r) : nullptr});
    }
    auto n = storage_->append(rows);
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
  OrderedJson line = trace_line("eval", task);
  line["class_il"] = cn;
  line["task_il"] = tn;
  EDGECL_RETURN_IF_ERROR(trace_->write(line));
  EDGECL_RETURN_IF_ERROR(emit("phase_end", ph));
  phase_ = "training";
  return Error();
}

}  // namespace edgecl
