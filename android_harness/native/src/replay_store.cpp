#include "replay_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "checksum.h"
#include "disk_space.h"
#include "fileio.h"
#include "json_io.h"

namespace edgecl {
namespace {

constexpr char kMagic[4] = {'E', 'C', 'R', '1'};
constexpr int64_t kHead = 8;   // magic + crc
constexpr int64_t kMeta = 12;  // sample_id i64 + label i32
const char* kFormatFile = "store.json";
constexpr int64_t kChunkBytes = 64 << 10;  // records written per write(2) at most, whole

OrderedJson format_json(const RecordFormat& fmt) {
  OrderedJson j = OrderedJson::object();
  j["version"] = 1;
  j["x_shape"] = fmt.x_shape;
  j["n_logits"] = fmt.n_logits;
  j["x_dtype"] = "float32";
  return j;
}

/// Whether `rec` is a valid record of `label`; its sample id in *sid.
bool check_record(const char* rec, int64_t size, int64_t label, int64_t* sid) {
  if (std::memcmp(rec, kMagic, 4) != 0) return false;
  uint32_t crc;
  std::memcpy(&crc, rec + 4, 4);
  if (crc32(rec + kHead, static_cast<size_t>(size - kHead)) != crc) return false;
  int32_t lab;
  std::memcpy(sid, rec + kHead, 8);
  std::memcpy(&lab, rec + kHead + 8, 4);
  return lab == label;
}

}  // namespace

int64_t RecordFormat::x_numel() const {
  int64_t n = 1;
  for (int64_t d : x_shape) n *= d;
  return n;
}

int64_t RecordFormat::record_size() const { return kHead + kMeta + 4 * x_numel() + 4 * n_logits; }

StorageTier::StorageTier(std::string root, RecordFormat fmt, int64_t budget, bool read_only)
    : root_(std::move(root)), fmt_(std::move(fmt)), budget_(budget), read_only_(read_only) {}

StorageTier::~StorageTier() { close(); }

Result<std::unique_ptr<StorageTier>> StorageTier::open(const std::string& root, RecordFormat fmt, int64_t budget_bytes,
                                                       bool read_only) {
  std::unique_ptr<StorageTier> s(new StorageTier(root, std::move(fmt), budget_bytes, read_only));
  EDGECL_RETURN_IF_ERROR(s->open_format());
  EDGECL_RETURN_IF_ERROR(s->rebuild_index());
  return s;
}

std::string StorageTier::class_file(int64_t label) const {
  return join_path(root_, "class_" + std::to_string(label) + ".rec");
}

Error StorageTier::open_format() {
  const std::string path = join_path(root_, kFormatFile);
  const std::string want_text = to_json_text(format_json(fmt_), JsonStyle::kPython);
  EDGECL_RETURN_IF_ERROR(make_dirs(root_));
  if (is_file(path)) {
    auto found = read_json_file(path);
    if (!found.ok()) return found.error();
    if (*found != *parse_json_text(want_text, "store format")) {
      return Error(ErrorCode::InvalidState, "replay store " + root_ + ": format " +
                                                to_json_text(*found, JsonStyle::kPython) +
                                                " does not match the session's " + want_text);
    }
    return Error();
  }
  if (read_only_) return Error();
  return write_file_atomic(path, want_text);
}

Error StorageTier::rebuild_index() {
  const int64_t size = fmt_.record_size();
  for (const auto& name : list_dir(root_)) {
    if (name.size() < 11 || name.compare(0, 6, "class_") != 0 || name.compare(name.size() - 4, 4, ".rec") != 0) continue;
    const std::string digits = name.substr(6, name.size() - 10);
    char* end = nullptr;
    const long long label = std::strtoll(digits.c_str(), &end, 10);
    if (digits.empty() || *end != '\0') continue;
    const std::string path = join_path(root_, name);
    auto data = read_file(path);
    if (!data.ok()) return data.error();
    const int64_t len = static_cast<int64_t>(data->size());
    const int64_t whole = len - len % size;
    auto& offsets = offsets_[label];
    offsets.clear();
    for (int64_t off = 0; off < whole; off += size) {
      int64_t sid = -1;
      if (check_record(data->data() + off, size, label, &sid)) {
        offsets.push_back(off);
        ids_.insert(sid);
      } else {
        ++skipped_corrupt_;
      }
    }
    if (whole != len && !read_only_) {
      if (::truncate(path.c_str(), whole) != 0) return errno_error(path, "truncate");
      EDGECL_RETURN_IF_ERROR(fsync_path(path));
    }
    ends_[label] = whole;
  }
  return Error();
}

std::vector<int64_t> StorageTier::labels() const {
  std::vector<int64_t> out;
  for (const auto& [label, offs] : offsets_) {
    if (!offs.empty()) out.push_back(label);
  }
  return out;
}

int64_t StorageTier::count(int64_t label) const {
  const auto it = offsets_.find(label);
  return it == offsets_.end() ? 0 : static_cast<int64_t>(it->second.size());
}

int64_t StorageTier::size() const {
  int64_t n = 0;
  for (const auto& [label, offs] : offsets_) n += static_cast<int64_t>(offs.size());
  return n;
}

int64_t StorageTier::used_bytes() const {
  int64_t n = 0;
  for (const auto& [label, end] : ends_) n += end;
  return n;
}

Result<int> StorageTier::write_fd(int64_t label) {
  const auto it = wfds_.find(label);
  if (it != wfds_.end()) return it->second;
  const std::string path = class_file(label);
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return errno_error(path, "open");
  wfds_[label] = fd;
  return fd;
}

Result<int> StorageTier::read_fd(int64_t label) const {
  std::lock_guard<std::mutex> lock(rfds_mutex_);
  const auto it = rfds_.find(label);
  if (it != rfds_.end()) return it->second;
  const std::string path = class_file(label);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno_error(path, "open");
  rfds_[label] = fd;
  return fd;
}

Result<int64_t> StorageTier::append(const std::vector<RecordSource>& samples) {
  if (read_only_) {
    return Error(ErrorCode::InvalidState, "replay store " + root_ + " is open read-only (profiling session)");
  }
  std::vector<size_t> keep;
  std::set<int64_t> batch;
  for (size_t i = 0; i < samples.size(); ++i) {
    if (fmt_.n_logits > 0 && samples[i].logits == nullptr) {
      return Error(ErrorCode::InvalidArgument, "replay store " + root_ + " keeps logits (DER++); append() got none");
    }
    if (!ids_.count(samples[i].sample_id) && batch.insert(samples[i].sample_id).second) keep.push_back(i);
  }
  if (keep.empty()) return int64_t{0};
  const int64_t size = fmt_.record_size(), xn = fmt_.x_numel(), nl = fmt_.n_logits;
  const int64_t need = static_cast<int64_t>(keep.size()) * size;
  if (used_bytes() + need > budget_) {
    return Error(ErrorCode::OutOfResources,
                 "replay storage budget full: " + std::to_string(used_bytes()) + " of " + std::to_string(budget_) +
                     " bytes used in " + root_ + ", " + std::to_string(keep.size()) + " more samples need " +
                     std::to_string(need) + " bytes (raise replay.storage_budget_mb)");
  }
  std::map<int64_t, std::vector<size_t>> by_label;
  for (size_t i : keep) by_label[samples[i].label].push_back(i);
  const size_t per_chunk = static_cast<size_t>(std::max<int64_t>(1, kChunkBytes / size));
  std::vector<char> chunk;
  for (const auto& [label, rows] : by_label) {
    auto fd = write_fd(label);
    if (!fd.ok()) return fd.error();
    auto& offsets = offsets_[label];
    int64_t& end = ends_[label];
    for (size_t first = 0; first < rows.size(); first += per_chunk) {
      const size_t n = std::min(per_chunk, rows.size() - first);
      chunk.resize(n * static_cast<size_t>(size));
      for (size_t k = 0; k < n; ++k) {
        const RecordSource& r = samples[rows[first + k]];
        char* rec = chunk.data() + k * static_cast<size_t>(size);
        const int32_t lab = static_cast<int32_t>(r.label);
        std::memcpy(rec, kMagic, 4);
        std::memcpy(rec + kHead, &r.sample_id, 8);
        std::memcpy(rec + kHead + 8, &lab, 4);
        std::memcpy(rec + kHead + kMeta, r.x, static_cast<size_t>(4 * xn));
        if (nl > 0) std::memcpy(rec + kHead + kMeta + 4 * xn, r.logits, static_cast<size_t>(4 * nl));
        const uint32_t crc = crc32(rec + kHead, static_cast<size_t>(size - kHead));
        std::memcpy(rec + 4, &crc, 4);
      }
      EDGECL_RETURN_IF_ERROR(append_whole(*fd, class_file(label), chunk.data(), chunk.size()));  // whole records
      for (size_t k = 0; k < n; ++k) offsets.push_back(end + static_cast<int64_t>(k) * size);
      end += static_cast<int64_t>(chunk.size());
    }
    dirty_.insert(label);
  }
  for (size_t i : keep) ids_.insert(samples[i].sample_id);
  return static_cast<int64_t>(keep.size());
}

Error StorageTier::commit() {
  for (int64_t label : dirty_) {
    if (::fsync(wfds_.at(label)) != 0) return errno_error(class_file(label), "fsync");
  }
  dirty_.clear();
  return Error();
}

Error StorageTier::truncate_to(const std::map<int64_t, int64_t>& position) {
  EDGECL_RETURN_IF_ERROR(close());
  for (const auto& [label, end] : ends_) {
    const auto it = position.find(label);
    const int64_t target = it == position.end() ? 0 : it->second;
    if (target < end) {
      const std::string path = class_file(label);
      if (::truncate(path.c_str(), target) != 0) return errno_error(path, "truncate");
      EDGECL_RETURN_IF_ERROR(fsync_path(path));
    }
  }
  offsets_.clear();
  ends_.clear();
  ids_.clear();
  skipped_corrupt_ = 0;
  return rebuild_index();
}

Result<StoredSample> StorageTier::read(int64_t label, int64_t k) const {
  const auto it = offsets_.find(label);
  const int64_t n = it == offsets_.end() ? 0 : static_cast<int64_t>(it->second.size());
  if (k < 0 || k >= n) {
    return Error(ErrorCode::InvalidArgument, "replay store " + root_ + " has " + std::to_string(n) +
                                                 " samples of class " + std::to_string(label) + ", asked for #" +
                                                 std::to_string(k));
  }
  auto fd = read_fd(label);
  if (!fd.ok()) return fd.error();
  const int64_t size = fmt_.record_size();
  std::string rec(static_cast<size_t>(size), '\0');
  const ssize_t got = ::pread(*fd, &rec[0], static_cast<size_t>(size), it->second[k]);
  StoredSample s;
  if (got != size || !check_record(rec.data(), size, label, &s.sample_id)) {
    return Error(ErrorCode::InvalidExternalData, class_file(label) + ": record #" + std::to_string(k) +
                                                     " failed its checksum on read");
  }
  s.label = label;
  const int64_t xn = fmt_.x_numel();
  s.x.resize(static_cast<size_t>(xn));
  std::memcpy(s.x.data(), rec.data() + kHead + kMeta, static_cast<size_t>(4 * xn));
  s.logits.resize(static_cast<size_t>(fmt_.n_logits));
  if (fmt_.n_logits > 0) {
    std::memcpy(s.logits.data(), rec.data() + kHead + kMeta + 4 * xn, static_cast<size_t>(4 * fmt_.n_logits));
  }
  return s;
}

Error StorageTier::close() {
  Error err = commit();
  for (auto& [label, fd] : wfds_) ::close(fd);
  wfds_.clear();
  std::lock_guard<std::mutex> lock(rfds_mutex_);
  for (auto& [label, fd] : rfds_) ::close(fd);
  rfds_.clear();
  return err;
}

}  // namespace edgecl
