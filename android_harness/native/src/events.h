/*
 * events.jsonl (docs/contracts.md), written exactly as android_harness/device/events.py does:
 * one compact JSON object a line, {"seq", "t", "t_boot", "type", ...fields}, `seq` 0, 1, 2, ...
 * without gaps over the whole session (also across a resume), `t` CLOCK_MONOTONIC and `t_boot`
 * CLOCK_BOOTTIME seconds of the same instant (6 decimals; "Clocks" in docs/contracts.md). A line
 * is one write() call; on open a torn last line is cut and the sequence continues from the last
 * complete line. Important types fsync at once, the rest at most every `fsync_s` seconds. Safe to
 * call from several threads (the heartbeat, heartbeat.h).
 */
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "json_io.h"
#include "result.h"

namespace edgecl {

/// The device clock shared by events and the power sampler.
double monotonic_seconds();
/// CLOCK_BOOTTIME: CLOCK_MONOTONIC plus the time suspended (/proc/uptime's clock, the shell sampler's).
double boottime_seconds();
/// (CLOCK_MONOTONIC, CLOCK_BOOTTIME) of one instant: boottime read between two monotonic reads,
/// retried when a preemption split them (events.py's clock_pair).
void clock_pair(double* mono, double* boot);
/// CLOCK_MONOTONIC of this process's start (/proc/self/stat starttime); now if unreadable.
double process_start_monotonic();

class EventLog final {
 public:
  /// Open (or create) the log at `path`, recovering its sequence.
  static Result<std::unique_ptr<EventLog>> open(const std::string& path, double fsync_s = 2.0);
  ~EventLog();
  EventLog(const EventLog&) = delete;
  EventLog& operator=(const EventLog&) = delete;

  /// Append one event; `fields` (an object) follow seq, t and type in their order.
  Error emit(const std::string& type, const OrderedJson& fields);
  /// fsync now.
  Error sync();
  int64_t next_seq() const;
  /// The type of the log's last complete line (then of the last emit); empty for an empty log.
  std::string last_type() const;

 private:
  EventLog(std::string path, int fd, int64_t next_seq, std::string last_type, double fsync_s);
  Error sync_locked();
  std::string path_;
  int fd_;
  int64_t next_seq_;
  std::string last_type_;
  double fsync_s_;
  double synced_at_;
  mutable std::mutex mu_;  // seq, the line's write and fsync bookkeeping
};

}  // namespace edgecl
