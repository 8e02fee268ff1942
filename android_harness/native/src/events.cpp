#include "events.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <set>

#include "disk_space.h"
#include "fileio.h"

namespace edgecl {
namespace {

const std::set<std::string>& durable() {
  static const std::set<std::string> types = {"session_start", "session_end", "task_end", "checkpoint", "error", "eval"};
  return types;
}

}  // namespace

double monotonic_seconds() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

EventLog::EventLog(std::string path, int fd, int64_t next_seq, double fsync_s)
    : path_(std::move(path)), fd_(fd), next_seq_(next_seq), fsync_s_(fsync_s), synced_at_(monotonic_seconds()) {}

EventLog::~EventLog() {
  if (fd_ >= 0) {
    ::fsync(fd_);
    ::close(fd_);
  }
}

Result<std::unique_ptr<EventLog>> EventLog::open(const std::string& path, double fsync_s) {
  int64_t next = 0;
  if (path_exists(path)) {
    auto data = read_file(path);
    if (!data.ok()) return data.error();
    const size_t end = data->rfind('\n') == std::string::npos ? 0 : data->rfind('\n') + 1;
    if (end != data->size()) {
      if (::truncate(path.c_str(), static_cast<off_t>(end)) != 0) return errno_error(path, "truncate");
    }
    if (end > 0) {
      const size_t prev = end >= 2 ? data->rfind('\n', end - 2) : std::string::npos;
      const size_t start = prev == std::string::npos ? 0 : prev + 1;
      auto last = parse_json_text(data->substr(start, end - start), path + " (last line)");
      if (!last.ok()) return last.error();
      int64_t seq = 0;
      EDGECL_RETURN_IF_ERROR(get_int(*last, "seq", path + ": last line", &seq));
      next = seq + 1;
    }
  }
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return errno_error(path, "open");
  return std::unique_ptr<EventLog>(new EventLog(path, fd, next, fsync_s));
}

Error EventLog::emit(const std::string& type, const OrderedJson& fields) {
  OrderedJson ev = OrderedJson::object();
  ev["seq"] = next_seq_;
  const double t = round_digits(monotonic_seconds(), 6);
  ev["t"] = t;
  ev["type"] = type;
  for (auto it = fields.begin(); it != fields.end(); ++it) ev[it.key()] = it.value();
  const std::string line = to_json_text(ev, JsonStyle::kCompact) + "\n";
  EDGECL_RETURN_IF_ERROR(append_whole(fd_, path_, line.data(), line.size()));  // whole lines only
  next_seq_ += 1;
  if (durable().count(type) || t - synced_at_ >= fsync_s_) return sync();
  return Error();
}

Error EventLog::sync() {
  if (::fsync(fd_) != 0) return errno_error(path_, "fsync");
  synced_at_ = monotonic_seconds();
  return Error();
}

}  // namespace edgecl
