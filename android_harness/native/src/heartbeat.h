/*
 * The runner's heartbeat (docs/contracts.md, events.jsonl): a `heartbeat` event {cpu_s} every
 * period from its own thread while a session runs, as android_harness/device/events.py's
 * Heartbeat. A stopped process (SIGSTOP) writes none and uses no CPU; a busy one keeps using CPU,
 * so the host tells a pause from a long step (pipeline/energy/timeline.py).
 */
#pragma once

#include <condition_variable>
#include <mutex>
#include <thread>

#include "events.h"

namespace edgecl {

/// Seconds between heartbeats (events.py's HEARTBEAT_S).
constexpr double kHeartbeatSeconds = 0.5;

/// CPU seconds this process used so far (all threads; CLOCK_PROCESS_CPUTIME_ID).
double process_cpu_seconds();

class Heartbeat final {
 public:
  explicit Heartbeat(EventLog* log, double period_s = kHeartbeatSeconds) : log_(log), period_s_(period_s) {}
  ~Heartbeat() { stop(); }
  Heartbeat(const Heartbeat&) = delete;
  Heartbeat& operator=(const Heartbeat&) = delete;

  /// Start beating (once).
  void start();
  /// Stop and join; no heartbeat is written after it returns.
  void stop();
  double period_s() const { return period_s_; }

 private:
  void run();
  EventLog* log_;
  double period_s_;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
};

}  // namespace edgecl
