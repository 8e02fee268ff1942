#include "checkpoint.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "disk_space.h"
#include "fileio.h"
#include "npy.h"

namespace edgecl {
namespace {

constexpr const char* kPrefix = "ckpt-";
constexpr int kFormat = 2;

/// Slack per file for .npy headers and state.json in the up-front free-space check.
constexpr int64_t kPerFileBytes = 4096;

Error write_fsynced(const std::string& path, const std::string& data) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return errno_error(path, "open");
  Error err = append_whole(fd, path, data.data(), data.size());
  if (err.ok() && ::fsync(fd) != 0) err = errno_error(path, "fsync");
  ::close(fd);
  return err;
}

/// The checkpoint's files into `tmp` (the caller renames it, or removes it on an error).
Error write_files(const std::string& tmp, const std::string& state_json, const ArrayMap& arrays) {
  EDGECL_RETURN_IF_ERROR(make_dirs(join_path(tmp, "arrays")));
  EDGECL_RETURN_IF_ERROR(make_dirs(join_path(tmp, "runtime")));
  for (const auto& [key, array] : arrays) {
    EDGECL_RETURN_IF_ERROR(write_fsynced(join_path(tmp, "arrays/" + key + ".npy"), npy_file_bytes(array)));
  }
  EDGECL_RETURN_IF_ERROR(write_fsynced(join_path(tmp, "state.json"), state_json));
  EDGECL_RETURN_IF_ERROR(fsync_path(join_path(tmp, "arrays")));
  return fsync_path(tmp);
}

}  // namespace

std::string checkpoint_name(int64_t iteration) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s%09lld", kPrefix, static_cast<long long>(iteration));
  return buf;
}

Result<std::string> write_checkpoint(const std::string& folder, const CheckpointState& s, const ArrayMap& arrays,
                                     int64_t keep) {
  EDGECL_RETURN_IF_ERROR(make_dirs(folder));
  const std::string name = checkpoint_name(s.iteration);
  const std::string final_path = join_path(folder, name);
  const std::string tmp = join_path(folder, "." + name + ".tmp");
  EDGECL_RETURN_IF_ERROR(remove_tree(tmp));
  OrderedJson j = OrderedJson::object();
  j["format"] = kFormat;
  j["runtime"] = s.runtime;
  j["task"] = s.task;
  j["task_finished"] = s.task_finished;
  j["epoch"] = s.epoch;
  j["batch"] = s.batch;
  j["task_step"] = s.task_step;
  j["iteration"] = s.iteration;
  j["epoch_loss_sum"] = s.epoch_loss_sum;
  j["epoch_loss_n"] = s.epoch_loss_n;
  j["evals"] = s.evals;
  OrderedJson pos = OrderedJson::object();
  for (const auto& [label, bytes] : s.storage_position) pos[std::to_string(label)] = bytes;
  j["storage_position"] = pos;
  j["dgm_steps_since_refresh"] = s.dgm_steps_since_refresh;
  j["dgm_has_masks"] = s.dgm_has_masks;
  j["tdm_frozen"] = s.tdm_frozen;
  j["has_grad_prev"] = s.has_grad_prev;
  j["opt_step"] = s.opt_step;
  j["trace_bytes"] = s.trace_bytes;
  const std::string state_json = to_json_text(j, JsonStyle::kIndent1);
  // A full disk fails here, before a byte is written, or part-way: the temp folder is removed
  // either way, so no half-written checkpoint is ever left (or listed: only renamed ones count).
  int64_t needed = static_cast<int64_t>(state_json.size()) + kPerFileBytes;
  for (const auto& [key, array] : arrays) needed += static_cast<int64_t>(array.bytes.size()) + kPerFileBytes;
  Error err = check_free_space(folder, needed);
  if (err.ok()) err = write_files(tmp, state_json, arrays);
  if (!err.ok()) {
    remove_tree(tmp);
    return Error(err.code(), err.message() + " (checkpoint " + name + ")");
  }
  EDGECL_RETURN_IF_ERROR(remove_tree(final_path));
  if (std::rename(tmp.c_str(), final_path.c_str()) != 0) return errno_error(final_path, "rename");
  EDGECL_RETURN_IF_ERROR(fsync_path(folder));
  const auto names = list_checkpoints(folder);
  for (size_t i = 0; i + static_cast<size_t>(keep) < names.size(); ++i) {
    EDGECL_RETURN_IF_ERROR(remove_tree(join_path(folder, names[i])));
  }
  return final_path;
}

std::vector<std::string> list_checkpoints(const std::string& folder) {
  std::vector<std::string> out;
  for (const auto& name : list_dir(folder)) {
    if (name.compare(0, 5, kPrefix) == 0 && is_file(join_path(folder, name + "/state.json"))) out.push_back(name);
  }
  return out;
}

std::string latest_checkpoint(const std::string& folder) {
  const auto names = list_checkpoints(folder);
  return names.empty() ? "" : join_path(folder, names.back());
}

Result<CheckpointState> read_checkpoint_state(const std::string& path) {
  const std::string file = join_path(path, "state.json");
  auto text = read_file(file);
  if (!text.ok()) return text.error();
  auto parsed = parse_ordered_json(*text, file);
  if (!parsed.ok()) return parsed.error();
  auto plain = parse_json_text(*text, file);
  const Json& j = *plain;
  CheckpointState s;
  int64_t format = 0;
  EDGECL_RETURN_IF_ERROR(get_int(j, "format", file, &format));
  if (format != kFormat) {
    return Error(ErrorCode::NotSupported, file + ": checkpoint format " + std::to_string(format) + ", this runner reads " +
                                              std::to_string(kFormat));
  }
  auto flag = [&](const char* key, bool* out) -> Error {
    if (!j.contains(key) || !j[key].is_boolean()) {
      return Error(ErrorCode::InvalidExternalData, file + "." + key + ": expected true or false");
    }
    *out = j[key].get<bool>();
    return Error();
  };
  EDGECL_RETURN_IF_ERROR(get_string(j, "runtime", file, &s.runtime));
  EDGECL_RETURN_IF_ERROR(get_int(j, "task", file, &s.task));
  EDGECL_RETURN_IF_ERROR(flag("task_finished", &s.task_finished));
  EDGECL_RETURN_IF_ERROR(get_int(j, "epoch", file, &s.epoch));
  EDGECL_RETURN_IF_ERROR(get_int(j, "batch", file, &s.batch));
  EDGECL_RETURN_IF_ERROR(get_int(j, "task_step", file, &s.task_step));
  EDGECL_RETURN_IF_ERROR(get_int(j, "iteration", file, &s.iteration));
  EDGECL_RETURN_IF_ERROR(get_number(j, "epoch_loss_sum", file, &s.epoch_loss_sum));
  EDGECL_RETURN_IF_ERROR(get_int(j, "epoch_loss_n", file, &s.epoch_loss_n));
  EDGECL_RETURN_IF_ERROR(get_int(j, "dgm_steps_since_refresh", file, &s.dgm_steps_since_refresh));
  EDGECL_RETURN_IF_ERROR(flag("dgm_has_masks", &s.dgm_has_masks));
  EDGECL_RETURN_IF_ERROR(flag("tdm_frozen", &s.tdm_frozen));
  EDGECL_RETURN_IF_ERROR(flag("has_grad_prev", &s.has_grad_prev));
  EDGECL_RETURN_IF_ERROR(get_int(j, "opt_step", file, &s.opt_step));
  EDGECL_RETURN_IF_ERROR(get_int(j, "trace_bytes", file, &s.trace_bytes));
  if (!parsed->contains("evals") || !(*parsed)["evals"].is_array()) {
    return Error(ErrorCode::InvalidExternalData, file + ".evals: expected a list");
  }
  s.evals = (*parsed)["evals"];
  if (!j.contains("storage_position") || !j["storage_position"].is_object()) {
    return Error(ErrorCode::InvalidExternalData, file + ".storage_position: expected an object");
  }
  for (auto it = j["storage_position"].begin(); it != j["storage_position"].end(); ++it) {
    char* end = nullptr;
    const long long label = std::strtoll(it.key().c_str(), &end, 10);
    if (!it.value().is_number_integer() || it.key().empty() || *end != '\0') {
      return Error(ErrorCode::InvalidExternalData, file + ".storage_position." + it.key() + ": expected an integer");
    }
    s.storage_position[label] = it.value().get<int64_t>();
  }
  return s;
}

Result<ArrayMap> read_checkpoint_arrays(const std::string& path) {
  ArrayMap out;
  const std::string dir = join_path(path, "arrays");
  for (const auto& name : list_dir(dir)) {
    if (name.size() < 5 || name.compare(name.size() - 4, 4, ".npy") != 0) continue;
    auto a = read_npy(join_path(dir, name));
    if (!a.ok()) return a.error();
    out.emplace(name.substr(0, name.size() - 4), std::move(*a));
  }
  return out;
}

}  // namespace edgecl
