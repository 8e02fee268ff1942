#include "heartbeat.h"

#include <time.h>

#include <chrono>

namespace edgecl {

double process_cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

void Heartbeat::start() {
  if (thread_.joinable() || log_ == nullptr) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = false;
  }
  thread_ = std::thread([this] { run(); });
}

void Heartbeat::stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Heartbeat::run() {
  const auto period = std::chrono::duration<double>(period_s_);
  std::unique_lock<std::mutex> lock(mu_);
  while (!cv_.wait_for(lock, period, [this] { return stop_; })) {
    OrderedJson ev = OrderedJson::object();
    ev["cpu_s"] = round_digits(process_cpu_seconds(), 4);
    log_->emit("heartbeat", ev);  // a failed write is the main thread's to report on its next event
  }
}

}  // namespace edgecl
