/*
 * One training session (docs/semantics.md; docs/contracts.md "Device filesystem"): reads
 * <session>/session.json, trains its tasks, appends events.jsonl (and trace.jsonl when asked),
 * writes checkpoints and finally result.json (temp then rename). Every failure ends here as one
 * `error` event {phase, message} and a result with status "error"; a cancel (SIGTERM, checked
 * between steps) checkpoints and ends with status "cancelled".
 */
#pragma once

#include <functional>
#include <string>

#include "json_io.h"
#include "model_cache.h"
#include "result.h"

namespace edgecl {

/// Where a session gets its loaded export (a fresh load, or the persistent runner's cache).
using ModelSource = std::function<Result<LoadedModel*>(const std::string& model_dir)>;
/// Polled between steps; true stops the session (checkpoint, status "cancelled").
using CancelCheck = std::function<bool()>;

/// What a session ended with (result.json's content and the model folder it used).
struct SessionOutcome {
  std::string status;  // "ok" | "cancelled" | "error"
  std::string model_dir;  // resolved, empty if session.json could not be read
  OrderedJson result;
};

/// Run the session folder `session_dir` to its end. `launched`: CLOCK_MONOTONIC of this runner's
/// start, where its program load begins (`t_launch` of session_start: the process start of a
/// one-shot runner, the moment the persistent runner took the session); 0 = now.
SessionOutcome run_session(const std::string& session_dir, const ModelSource& models, const CancelCheck& cancelled,
                           double launched = 0.0);

}  // namespace edgecl
