#include "server.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "disk_space.h"
#include "events.h"
#include "fileio.h"
#include "json_io.h"
#include "model_cache.h"
#include "runner.h"

namespace edgecl {
namespace {

constexpr double kPollSeconds = 0.05;
constexpr double kHeartbeatSeconds = 1.0;
constexpr double kLockWaitSeconds = 5.0;
constexpr const char* kCancelMarker = "cancel";
constexpr const char* kReserveFile = "server.reserve";
constexpr double kReserveRetrySeconds = 1.0;

volatile std::sig_atomic_t g_sigterm = 0;

void on_sigterm(int) { g_sigterm = 1; }

void sleep_s(double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); }

/// Queue entry names, oldest first (names starting with "." or ending in ".tmp" are not entries yet).
std::vector<std::string> queue_entries(const std::string& queue) {
  std::vector<std::pair<int64_t, std::string>> stamped;
  for (const auto& name : list_dir(queue)) {
    if (name[0] == '.' || (name.size() >= 4 && name.compare(name.size() - 4, 4, ".tmp") == 0)) continue;
    struct stat st;
    if (::stat(join_path(queue, name).c_str(), &st) != 0) continue;
    stamped.emplace_back(static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec, name);
  }
  std::sort(stamped.begin(), stamped.end());
  std::vector<std::string> out;
  for (auto& s : stamped) out.push_back(std::move(s.second));
  return out;
}

std::pair<int64_t, int64_t> file_stamp(const std::string& path) {
  struct stat st;
  if (path.empty() || ::stat(path.c_str(), &st) != 0) return {-1, -1};
  return {static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec, static_cast<int64_t>(st.st_size)};
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

class Server {
 public:
  Server(std::string queue, double idle_s, std::string binary)
      : queue_(absolute_path(queue)), home_(dir_name(queue_)), idle_s_(idle_s), binary_(std::move(binary)),
        stamp_(file_stamp(binary_)), started_(monotonic_seconds()) {}

  int serve() {
    if (!acquire()) {
      std::fprintf(stderr, "another server holds %s/server.lock; exiting\n", home_.c_str());
      return 0;
    }
    std::signal(SIGTERM, on_sigterm);
    std::signal(SIGHUP, SIG_IGN);
    publish();
    keep_reserve(true);
    std::thread beat([this] { heartbeat(); });
    double last_work = monotonic_seconds();
    int rc = 0;
    while (true) {
      keep_reserve(false);
      const auto entries = queue_entries(queue_);
      if (!entries.empty() && file_stamp(binary_) != stamp_) {
        stop_heartbeat(beat);
        reexec();
        break;
      }
      if (!entries.empty()) {
        serve_entry(entries.front());
        last_work = monotonic_seconds();
        continue;
      }
      if (monotonic_seconds() - last_work > idle_s_) {
        ::unlink(join_path(home_, "server.pid").c_str());
        if (!queue_entries(queue_).empty()) {  // a host enqueued while we were deciding: keep serving
          publish();
          continue;
        }
        break;
      }
      sleep_s(kPollSeconds);
    }
    stop_heartbeat(beat);
    unpublish_if_mine();
    reserve_.reset();
    return rc;
  }

 private:
  bool acquire() {
    if (!make_dirs(queue_).ok()) return false;
    const std::string path = join_path(home_, "server.lock");
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return false;
    const double deadline = monotonic_seconds() + kLockWaitSeconds;
    while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      if (monotonic_seconds() > deadline) {
        ::close(fd);
        return false;
      }
      sleep_s(0.1);
    }
    lock_fd_ = fd;  // held until exit (or exec: O_CLOEXEC releases it)
    return true;
  }

  /// Hold runner/server.reserve; while the disk is too full for it, try again at most every
  /// kReserveRetrySeconds (`now`: at once).
  void keep_reserve(bool now) {
    if (reserve_ || (!now && monotonic_seconds() - reserve_tried_ < kReserveRetrySeconds)) return;
    reserve_tried_ = monotonic_seconds();
    auto reserve = SpaceReserve::create(join_path(home_, kReserveFile), kErrorReserveBytes);
    if (reserve.ok()) reserve_ = std::move(reserve.get());
  }

  /// The end a session could not write (events, result.json), in the space of the server's reserve;
  /// what does not fit even then goes to the server's stderr only.
  void write_end(const std::string& session, const SessionOutcome& out) {
    reserve_.reset();  // frees its space for the writes below
    const OrderedJson none(nullptr);
    const OrderedJson error = out.result.is_object() ? out.result.value("error", none) : none;
    const std::string cause = error.is_string() ? error.get<std::string>() : out.status;
    std::fprintf(stderr, "edgecl-runner: %s: %s\n", session.c_str(), cause.c_str());
    Error err;
    auto log = EventLog::open(join_path(session, "events.jsonl"));
    if (!log.ok()) {
      err = log.error();
    } else if ((*log)->last_type() != "session_end") {
      if (error.is_string() && (*log)->last_type() != "error") {  // the session's own may be written
        OrderedJson ev = OrderedJson::object();
        ev["phase"] = "server";
        ev["message"] = cause;
        err = (*log)->emit("error", ev);
      }
      OrderedJson end = OrderedJson::object();
      end["status"] = out.status;
      if (err.ok()) err = (*log)->emit("session_end", end);
    }
    if (log.ok()) log.get().reset();
    if (err.ok()) {
      err = write_file_atomic(join_path(session, "result.json"), to_json_text(out.result, JsonStyle::kIndent1));
    }
    if (!err.ok()) {
      std::fprintf(stderr, "edgecl-runner: %s: its end was not written: %s\n", session.c_str(), err.message().c_str());
    }
    keep_reserve(true);
  }

  void publish() { write_file_atomic(join_path(home_, "server.pid"), std::to_string(::getpid())); }

  void unpublish_if_mine() {
    auto pid = read_file(join_path(home_, "server.pid"));
    if (pid.ok() && trim(*pid) == std::to_string(::getpid())) ::unlink(join_path(home_, "server.pid").c_str());
  }

  void write_state() {
    OrderedJson s = OrderedJson::object();
    {
      std::lock_guard<std::mutex> lock(mu_);
      s["pid"] = static_cast<int64_t>(::getpid());
      s["t"] = monotonic_seconds();
      s["started"] = started_;
      s["served"] = served_;
      s["session"] = current_.empty() ? OrderedJson(nullptr) : OrderedJson(current_);
      s["backend_loads"] = cache_loads_;
      s["backend_reuses"] = cache_reuses_;
    }
    write_file_atomic(join_path(home_, "server.json"), to_json_text(s, JsonStyle::kPython));
  }

  void heartbeat() {
    std::unique_lock<std::mutex> lock(beat_mu_);
    while (!stop_) {
      lock.unlock();
      write_state();
      lock.lock();
      beat_cv_.wait_for(lock, std::chrono::duration<double>(kHeartbeatSeconds), [this] { return stop_; });
    }
  }

  void stop_heartbeat(std::thread& beat) {
    {
      std::lock_guard<std::mutex> lock(beat_mu_);
      stop_ = true;
    }
    beat_cv_.notify_all();
    if (beat.joinable()) beat.join();
  }

  void reexec() {
    ::unlink(join_path(home_, "server.pid").c_str());
    std::fflush(stderr);
    char idle[64];
    std::snprintf(idle, sizeof idle, "%g", idle_s_);
    const char* argv[] = {binary_.c_str(), "serve", queue_.c_str(), idle, nullptr};
    ::execv(binary_.c_str(), const_cast<char* const*>(argv));
    std::fprintf(stderr, "edgecl-runner: re-exec of %s failed\n", binary_.c_str());
  }

  int64_t served_count() {
    std::lock_guard<std::mutex> lock(mu_);
    return served_;
  }

  void serve_entry(const std::string& name) {
    const std::string path = join_path(queue_, name);
    // The first session pays this server's start, never time before it was queued (server.py).
    double launched = monotonic_seconds();
    struct stat st;
    if (served_count() == 0 && ::stat(path.c_str(), &st) == 0) {
      timespec real;
      clock_gettime(CLOCK_REALTIME, &real);
      const double age = static_cast<double>(real.tv_sec - st.st_mtim.tv_sec) +
                         static_cast<double>(real.tv_nsec - st.st_mtim.tv_nsec) * 1e-9;
      launched = std::max(process_start_monotonic(), launched - std::max(age, 0.0));
    }
    auto content = read_file(path);
    if (!content.ok()) return;
    ::unlink(path.c_str());  // claimed: the queue has one reader (the lock holder)
    const std::string session = trim(*content);
    if (!is_file(join_path(session, "session.json"))) {
      std::fprintf(stderr, "queue entry %s: no session.json in '%s'; skipped\n", name.c_str(), session.c_str());
      return;
    }
    keep_reserve(true);
    // On a full disk this fails and the host's copy (the same pid) stands.
    write_file_atomic(join_path(session, "runner.pid"), std::to_string(::getpid()));
    std::fflush(stderr);
    const int saved = ::dup(2);
    const int log = ::open(join_path(session, "runner.log").c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (log >= 0) ::dup2(log, 2);
    {
      std::lock_guard<std::mutex> lock(mu_);
      current_ = base_name(session);
    }
    const std::string marker = join_path(session, kCancelMarker);
    const bool queued_cancel = path_exists(marker);
    bool cancel = false;
    g_sigterm = 0;
    auto cancelled = [&]() {
      if (g_sigterm) {
        g_sigterm = 0;
        if (path_exists(marker)) cancel = true;
      }
      return queued_cancel || cancel;
    };
    auto models = [this](const std::string& dir) { return cache_.get(dir); };
    const SessionOutcome out = run_session(session, models, cancelled, launched);
    if (out.status != "ok" && !out.model_dir.empty()) cache_.drop(out.model_dir);
    std::fflush(stderr);
    if (saved >= 0) {
      ::dup2(saved, 2);
      ::close(saved);
    }
    if (log >= 0) ::close(log);
    if (!is_file(join_path(session, "result.json"))) write_end(session, out);
    {
      std::lock_guard<std::mutex> lock(mu_);
      current_.clear();
      served_ += 1;
      cache_loads_ = cache_.loads();
      cache_reuses_ = cache_.reuses();
    }
    write_state();
  }

  std::string queue_, home_;
  double idle_s_;
  std::string binary_;
  std::pair<int64_t, int64_t> stamp_;
  double started_;
  int lock_fd_ = -1;
  std::unique_ptr<SpaceReserve> reserve_;  // runner/server.reserve: a failing session's end (write_end)
  double reserve_tried_ = -1e18;
  ModelCache cache_;
  std::mutex mu_;  // current_, served_, cache counters (read by the heartbeat)
  std::string current_;
  int64_t served_ = 0, cache_loads_ = 0, cache_reuses_ = 0;
  std::mutex beat_mu_;
  std::condition_variable beat_cv_;
  bool stop_ = false;
};

}  // namespace

int serve(const std::string& queue_dir, double idle_s, const std::string& binary) {
  Server server(queue_dir, idle_s, binary);
  return server.serve();
}

int run_one(const std::string& session_dir) {
  write_file_atomic(join_path(session_dir, "runner.pid"), std::to_string(::getpid()));
  std::signal(SIGTERM, on_sigterm);
  std::unique_ptr<LoadedModel> model;
  auto models = [&model](const std::string& dir) -> Result<LoadedModel*> {
    auto loaded = LoadedModel::load(dir);
    if (!loaded.ok()) return loaded.error();
    model = std::move(loaded.get());
    return model.get();
  };
  const SessionOutcome out = run_session(session_dir, models, [] { return g_sigterm != 0; }, process_start_monotonic());
  return out.status == "ok" ? 0 : out.status == "cancelled" ? 3 : 1;
}

}  // namespace edgecl
