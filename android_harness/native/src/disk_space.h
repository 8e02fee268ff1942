/*
 * A full disk, reported with its cause and never leaving a torn file.
 *
 * Appends that fail part-way are cut back to the file's previous end (events.jsonl, trace.jsonl and
 * the replay store stay whole lines / records). A session holds a small reserve file from its start:
 * its error path frees it first, so the `error` event, `session_end` and result.json still fit on a
 * disk the session filled. The error names the path, the free space and what was needed, in one line.
 */
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "result.h"

namespace edgecl {

/// Bytes a session reserves for its error path (events, result.json: a few KB).
constexpr int64_t kErrorReserveBytes = 64 * 1024;

/// Free bytes available to this user on the filesystem holding `path` (or its nearest existing
/// parent); -1 when it cannot be told.
int64_t free_bytes(const std::string& path);

/// "No space left on device on <path>: free X MB, needed Y" (needed < 0: not known).
Error no_space_error(const std::string& path, int64_t needed);

/// An Error (no_space_error) when fewer than `needed` bytes are free where `path` would be written.
Error check_free_space(const std::string& path, int64_t needed);

/// Write all of `data` at the end of `fd` (opened O_APPEND) as one unit: a write that fails part-way
/// is cut back (ftruncate) to the file's previous size, and ENOSPC becomes no_space_error.
Error append_whole(int fd, const std::string& path, const void* data, size_t n);

/// A file of `bytes` zeros held on the session's filesystem until release() or destruction.
class SpaceReserve final {
 public:
  /// Creates `path` (replacing one left by a killed run); an Error when the space is not there.
  static Result<std::unique_ptr<SpaceReserve>> create(const std::string& path, int64_t bytes);
  ~SpaceReserve();
  SpaceReserve(const SpaceReserve&) = delete;
  SpaceReserve& operator=(const SpaceReserve&) = delete;
  /// Remove the file (idempotent): its space is free for the writes that follow.
  void release();

 private:
  explicit SpaceReserve(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

}  // namespace edgecl
