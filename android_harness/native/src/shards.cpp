#include "shards.h"

#include <cstring>

#include "checksum.h"
#include "fileio.h"
#include "json_io.h"

namespace edgecl {
namespace {

constexpr char kMagic[8] = {'E', 'D', 'G', 'E', 'C', 'L', 'S', 'H'};
constexpr uint32_t kVersion = 1;
constexpr size_t kPrefix = 20;
constexpr uint32_t kMaxHeader = 1u << 20;

uint32_t le32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

Error bad(const std::string& path, const std::string& why) {
  return Error(ErrorCode::InvalidExternalData, path + ": " + why);
}

}  // namespace

Result<Shard> read_shard(const std::string& path) {
  auto data = read_file(path);
  if (!data.ok()) return data.error();
  const std::string& d = *data;
  if (d.size() < kPrefix) return bad(path, "truncated shard prefix (" + std::to_string(d.size()) + " bytes)");
  if (std::memcmp(d.data(), kMagic, 8) != 0) return bad(path, "not an edgecl shard (bad magic)");
  const uint32_t version = le32(d.data() + 8), hlen = le32(d.data() + 12), hcrc = le32(d.data() + 16);
  if (version != kVersion) {
    return bad(path, "shard version " + std::to_string(version) + ", this reader knows " + std::to_string(kVersion));
  }
  if (hlen > kMaxHeader) return bad(path, "header length " + std::to_string(hlen) + " is implausible (corrupted prefix)");
  if (d.size() < kPrefix + hlen) return bad(path, "truncated shard header");
  const std::string header = d.substr(kPrefix, hlen);
  if (crc32(header.data(), header.size()) != hcrc) return bad(path, "header checksum mismatch (corrupted header)");
  auto h = parse_json_text(header, path + " header");
  if (!h.ok()) return h.error();
  Shard s;
  const std::string where = path + ": header";
  int64_t record_size = 0;
  std::string dtype;
  EDGECL_RETURN_IF_ERROR(get_int(*h, "count", where, &s.count));
  EDGECL_RETURN_IF_ERROR(get_string(*h, "dtype", where, &dtype));
  EDGECL_RETURN_IF_ERROR(get_int(*h, "record_size", where, &record_size));
  if (dtype != "<f4") return Error(ErrorCode::NotSupported, path + ": sample dtype " + dtype + " (the runner reads <f4)");
  const auto shape = h->find("sample_shape");
  if (shape == h->end() || !shape->is_array()) return bad(path, "malformed shard header (sample_shape)");
  s.sample_numel = 1;
  for (const auto& dim : *shape) {
    if (!dim.is_number_integer() || dim.get<int64_t>() < 0) return bad(path, "malformed shard header (sample_shape)");
    s.sample_shape.push_back(dim.get<int64_t>());
    s.sample_numel *= dim.get<int64_t>();
  }
  const int64_t rec = 8 + 4 * s.sample_numel + 4;
  if (record_size != rec) {
    return bad(path, "header record_size " + std::to_string(record_size) + " does not match dtype/shape (" +
                         std::to_string(rec) + ")");
  }
  const int64_t have = static_cast<int64_t>(d.size() - kPrefix - hlen), need = s.count * rec;
  if (have < need) {
    return bad(path, "truncated at record " + std::to_string(have / rec) + " of " + std::to_string(s.count) + " (" +
                         std::to_string(have) + " of " + std::to_string(need) + " data bytes)");
  }
  if (have > need) {
    return bad(path, std::to_string(have - need) + " unexpected bytes after record " + std::to_string(s.count - 1));
  }
  s.x.resize(static_cast<size_t>(s.count * s.sample_numel));
  s.y.resize(static_cast<size_t>(s.count));
  const char* p = d.data() + kPrefix + hlen;
  for (int64_t i = 0; i < s.count; ++i, p += rec) {
    if (crc32(p, static_cast<size_t>(rec - 4)) != le32(p + rec - 4)) {
      return bad(path, "record " + std::to_string(i) + " checksum mismatch (corrupted data)");
    }
    std::memcpy(&s.y[i], p, 8);
    std::memcpy(s.x.data() + i * s.sample_numel, p + 8, static_cast<size_t>(4 * s.sample_numel));
  }
  return s;
}

Result<const TaskEntry*> TaskIndex::entry(int64_t index) const {
  for (const auto& e : tasks) {
    if (e.index == index) return &e;
  }
  std::string have;
  for (const auto& e : tasks) have += (have.empty() ? "" : ", ") + std::to_string(e.index);
  return Error(ErrorCode::InvalidArgument, "tasks: task " + std::to_string(index) + " is not in " +
                                               join_path(folder, "tasks.json") + " (has [" + have + "])");
}

std::vector<int64_t> TaskIndex::seen_tasks(int64_t index) const {
  std::vector<int64_t> out;
  for (const auto& e : tasks) {
    out.push_back(e.index);
    if (e.index == index) break;
  }
  return out;
}

Result<TaskIndex> read_task_index(const std::string& folder) {
  const std::string path = join_path(folder, "tasks.json");
  if (!is_file(path)) {
    return Error(ErrorCode::NotFound, path + ": task index missing (deploy pushes it with the shards)");
  }
  auto j = read_json_file(path);
  if (!j.ok()) return j.error();
  TaskIndex idx;
  idx.folder = folder;
  EDGECL_RETURN_IF_ERROR(get_int(*j, "num_classes", path, &idx.num_classes));
  const auto shape = j->find("input_shape");
  const auto tasks = j->find("tasks");
  if (shape == j->end() || !shape->is_array() || tasks == j->end() || !tasks->is_array()) {
    return bad(path, "expected input_shape and tasks lists");
  }
  for (const auto& d : *shape) idx.input_shape.push_back(d.get<int64_t>());
  for (size_t i = 0; i < tasks->size(); ++i) {
    const Json& t = (*tasks)[i];
    const std::string where = path + ": tasks[" + std::to_string(i) + "]";
    TaskEntry e;
    EDGECL_RETURN_IF_ERROR(get_int(t, "index", where, &e.index));
    const auto classes = t.find("classes");
    if (classes == t.end() || !classes->is_array()) return bad(path, "tasks[" + std::to_string(i) + "].classes missing");
    for (const auto& c : *classes) {
      if (!c.is_number_integer()) return bad(path, "tasks[" + std::to_string(i) + "].classes: expected integers");
      e.classes.push_back(c.get<int64_t>());
    }
    for (auto [split, out] : {std::pair<const char*, std::string*>{"train", &e.train_file}, {"test", &e.test_file}}) {
      const auto s = t.find(split);
      if (s == t.end() || !s->is_object()) return bad(path, "tasks[" + std::to_string(i) + "]." + split + " missing");
      std::string file;
      EDGECL_RETURN_IF_ERROR(get_string(*s, "file", where + "." + split, &file));
      *out = join_path(folder, file);
    }
    idx.tasks.push_back(std::move(e));
  }
  return idx;
}

}  // namespace edgecl
