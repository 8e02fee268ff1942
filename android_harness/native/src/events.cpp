#include "events.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <set>

#include "disk_space.h"
#include "fileio.h"

namespace edgecl {
namespace {

const std::set<std::string>& durable() {
  static const std::set<std::string> types = {"session_start", "session_end", "task_end", "checkpoint", "error", "eval"};
  return types;
}

double clock_seconds(clockid_t id) {
  timespec ts;
  clock_gettime(id, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace

double monotonic_seconds() { return clock_seconds(CLOCK_MONOTONIC); }

double boottime_seconds() { return clock_seconds(CLOCK_BOOTTIME); }

void clock_pair(double* mono, double* boot) {
  double best = 1e300;
  for (int i = 0; i < 4; ++i) {
    const double m0 = monotonic_seconds();
    const double b = boottime_seconds();
    const double m1 = monotonic_seconds();
    if (m1 - m0 < best) {
      best = m1 - m0;
      *mono = (m0 + m1) / 2.0;
      *boot = b;
    }
    if (m1 - m0 <= 1e-3) break;
  }
}

double process_start_monotonic() {
  double mono = 0.0, boot = 0.0;
  clock_pair(&mono, &boot);
  auto stat = read_file("/proc/self/stat");
  if (!stat.ok()) return mono;
  const size_t paren = stat->rfind(')');
  if (paren == std::string::npos) return mono;
  // Fields after "(comm)": state is field 3; starttime is field 22 (clock ticks since boot).
  const char* p = stat->c_str() + paren + 1;
  unsigned long long ticks = 0;
  int field = 2;
  while (*p != '\0' && field < 22) {
    while (*p == ' ') ++p;
    ++field;
    if (field == 22) {
      if (std::sscanf(p, "%llu", &ticks) != 1) return mono;
      break;
    }
    while (*p != '\0' && *p != ' ') ++p;
  }
  const long hz = ::sysconf(_SC_CLK_TCK);
  if (field != 22 || hz <= 0) return mono;
  const double start = static_cast<double>(ticks) / static_cast<double>(hz) - (boot - mono);
  return start > 0.0 && start <= mono ? start : mono;
}

EventLog::EventLog(std::string path, int fd, int64_t next_seq, std::string last_type, double fsync_s)
    : path_(std::move(path)), fd_(fd), next_seq_(next_seq), last_type_(std::move(last_type)), fsync_s_(fsync_s),
      synced_at_(monotonic_seconds()) {}

EventLog::~EventLog() {
  if (fd_ >= 0) {
    ::fsync(fd_);
    ::close(fd_);
  }
}

Result<std::unique_ptr<EventLog>> EventLog::open(const std::string& path, double fsync_s) {
  int64_t next = 0;
  std::string last_type;
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
      if (last->contains("type") && (*last)["type"].is_string()) last_type = (*last)["type"].get<std::string>();
    }
  }
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return errno_error(path, "open");
  return std::unique_ptr<EventLog>(new EventLog(path, fd, next, last_type, fsync_s));
}

int64_t EventLog::next_seq() const {
  std::lock_guard<std::mutex> lock(mu_);
  return next_seq_;
}

std::string EventLog::last_type() const {
  std::lock_guard<std::mutex> lock(mu_);
  return last_type_;
}

Error EventLog::emit(const std::string& type, const OrderedJson& fields) {
  std::lock_guard<std::mutex> lock(mu_);
  OrderedJson ev = OrderedJson::object();
  ev["seq"] = next_seq_;
  double mono = 0.0, boot = 0.0;
  clock_pair(&mono, &boot);
  const double t = round_digits(mono, 6);
  ev["t"] = t;
  ev["t_boot"] = round_digits(boot, 6);
  ev["type"] = type;
  for (auto it = fields.begin(); it != fields.end(); ++it) ev[it.key()] = it.value();
  const std::string line = to_json_text(ev, JsonStyle::kCompact) + "\n";
  EDGECL_RETURN_IF_ERROR(append_whole(fd_, path_, line.data(), line.size()));  // whole lines only
  next_seq_ += 1;
  last_type_ = type;
  if (durable().count(type) || t - synced_at_ >= fsync_s_) return sync_locked();
  return Error();
}

Error EventLog::sync() {
  std::lock_guard<std::mutex> lock(mu_);
  return sync_locked();
}

Error EventLog::sync_locked() {
  if (::fsync(fd_) != 0) return errno_error(path_, "fsync");
  synced_at_ = monotonic_seconds();
  return Error();
}

}  // namespace edgecl
