/*
 * The persistent runner (docs/contracts.md, android_harness/device/server.py): `serve QUEUE_DIR
 * [IDLE_S]` runs the sessions queued in <storage_root>/runner/queue back to back, one server per
 * storage root (flock on runner/server.lock), its pid in runner/server.pid and a heartbeat in
 * runner/server.json. A queue entry is a file named after the session whose content is the session
 * folder; the server claims it by removing it, writes the session's runner.pid (its own pid),
 * sends its stderr to the session's runner.log while the session runs, and reuses a loaded program
 * for later sessions on the same export. SIGTERM cancels the running session only when it has a
 * `cancel` marker; a queued session with the marker ends "cancelled" without training. The server
 * exits after IDLE_S seconds without work, and re-executes itself when its binary changed.
 *
 * A full disk before a session starts (server.py): the server holds runner/server.reserve (64 KB,
 * taken at start and again, at most every second, while missing). A session that ended without
 * result.json (it could not even make its own reserve) gets its end written into that space: an
 * `error` event (phase "server") and `session_end` unless the log already ends with one, then its
 * result (status error, `No space left on device on <path>: free X, needed Y`).
 */
#pragma once

#include <string>

namespace edgecl {

/// Seconds without work before the server exits (server.py's IDLE_EXIT_S).
constexpr double kIdleExitSeconds = 120.0;

/// Serve `queue_dir` until idle; `binary` is this program's path (for the re-exec check).
/// Returns the process exit code.
int serve(const std::string& queue_dir, double idle_s, const std::string& binary);

/// `run SESSION_DIR`: one session in this process, SIGTERM cancels. Returns 0 (ok), 3
/// (cancelled) or 1 (error).
int run_one(const std::string& session_dir);

}  // namespace edgecl
