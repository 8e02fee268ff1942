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

/// A shard parsed as its bytes arrive: prefix, header, then each record straight into the samples,
/// so reading a shard holds its samples once, never the file's bytes beside them.
class ShardParser {
 public:
  explicit ShardParser(const std::string& path) : path_(path) {}

  /// Takes the next bytes of the file; after the first error the rest are only counted.
  void feed(const char* p, size_t n) {
    bytes_ += n;
    while (n > 0 && err_.ok()) {
      if (stage_ == Stage::kRecords && done_ == s_.count) {
        extra_ += n;
        return;
      }
      if (stage_ == Stage::kRecords && pending_.empty() && n >= rec_) {  // a whole record in place
        err_ = take_record(p);
        p += rec_;
        n -= rec_;
        continue;
      }
      const size_t want = need() - pending_.size(), take = std::min(want, n);
      pending_.append(p, take);
      p += take;
      n -= take;
      if (pending_.size() == need()) {
        err_ = stage_ == Stage::kPrefix ? take_prefix() : stage_ == Stage::kHeader ? take_header() : take_record(pending_.data());
        pending_.clear();
      }
    }
  }

  Result<Shard> finish() {
    if (!err_.ok()) return err_;
    if (stage_ == Stage::kPrefix) return bad(path_, "truncated shard prefix (" + std::to_string(bytes_) + " bytes)");
    if (stage_ == Stage::kHeader) return bad(path_, "truncated shard header");
    if (done_ < s_.count) {
      const int64_t have = done_ * static_cast<int64_t>(rec_) + static_cast<int64_t>(pending_.size());
      return bad(path_, "truncated at record " + std::to_string(done_) + " of " + std::to_string(s_.count) + " (" +
                            std::to_string(have) + " of " + std::to_string(s_.count * static_cast<int64_t>(rec_)) +
                            " data bytes)");
    }
    if (extra_ > 0) {
      return bad(path_, std::to_string(extra_) + " unexpected bytes after record " + std::to_string(s_.count - 1));
    }
    return std::move(s_);
  }

 private:
  enum class Stage { kPrefix, kHeader, kRecords };

  size_t need() const { return stage_ == Stage::kPrefix ? kPrefix : stage_ == Stage::kHeader ? hlen_ : rec_; }

  Error take_prefix() {
    const char* d = pending_.data();
    if (std::memcmp(d, kMagic, 8) != 0) return bad(path_, "not an edgecl shard (bad magic)");
    const uint32_t version = le32(d + 8);
    hlen_ = le32(d + 12);
    hcrc_ = le32(d + 16);
    if (version != kVersion) {
      return bad(path_, "shard version " + std::to_string(version) + ", this reader knows " + std::to_string(kVersion));
    }
    if (hlen_ > kMaxHeader) return bad(path_, "header length " + std::to_string(hlen_) + " is implausible (corrupted prefix)");
    stage_ = Stage::kHeader;
    return Error();
  }

  Error take_header() {
    if (crc32(pending_.data(), pending_.size()) != hcrc_) return bad(path_, "header checksum mismatch (corrupted header)");
    auto h = parse_json_text(pending_, path_ + " header");
    if (!h.ok()) return h.error();
    const std::string where = path_ + ": header";
    int64_t record_size = 0;
    std::string dtype;
    EDGECL_RETURN_IF_ERROR(get_int(*h, "count", where, &s_.count));
    EDGECL_RETURN_IF_ERROR(get_string(*h, "dtype", where, &dtype));
    EDGECL_RETURN_IF_ERROR(get_int(*h, "record_size", where, &record_size));
    if (dtype != "<f4") return Error(ErrorCode::NotSupported, path_ + ": sample dtype " + dtype + " (the runner reads <f4)");
    const auto shape = h->find("sample_shape");
    if (s_.count < 0) return bad(path_, "malformed shard header (count " + std::to_string(s_.count) + ")");
    if (shape == h->end() || !shape->is_array()) return bad(path_, "malformed shard header (sample_shape)");
    s_.sample_numel = 1;
    for (const auto& dim : *shape) {
      if (!dim.is_number_integer() || dim.get<int64_t>() < 0) return bad(path_, "malformed shard header (sample_shape)");
      s_.sample_shape.push_back(dim.get<int64_t>());
      s_.sample_numel *= dim.get<int64_t>();
    }
    const int64_t rec = 8 + 4 * s_.sample_numel + 4;
    if (record_size != rec) {
      return bad(path_, "header record_size " + std::to_string(record_size) + " does not match dtype/shape (" +
                            std::to_string(rec) + ")");
    }
    rec_ = static_cast<size_t>(rec);
    s_.x.resize(static_cast<size_t>(s_.count * s_.sample_numel));
    s_.y.resize(static_cast<size_t>(s_.count));
    stage_ = Stage::kRecords;
    return Error();
  }

  Error take_record(const char* p) {
    if (crc32(p, rec_ - 4) != le32(p + rec_ - 4)) {
      return bad(path_, "record " + std::to_string(done_) + " checksum mismatch (corrupted data)");
    }
    std::memcpy(&s_.y[static_cast<size_t>(done_)], p, 8);
    std::memcpy(s_.x.data() + done_ * s_.sample_numel, p + 8, rec_ - 12);
    ++done_;
    return Error();
  }

  std::string path_;
  Stage stage_ = Stage::kPrefix;
  std::string pending_;  // a part of the prefix, the header or one record
  uint32_t hlen_ = 0, hcrc_ = 0;
  size_t rec_ = 0, bytes_ = 0, extra_ = 0;
  int64_t done_ = 0;
  Shard s_;
  Error err_;
};

}  // namespace

Result<Shard> read_shard(const std::string& path) {
  ShardParser parser(path);
  EDGECL_RETURN_IF_ERROR(read_chunks(path, [&parser](const char* data, size_t n) { parser.feed(data, n); }));
  return parser.finish();
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
