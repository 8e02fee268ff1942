/*
 * session.json (docs/semantics.md section 10): what one device session runs. Its fields, types,
 * defaults and ranges are generated at build time from android_harness/device/session_spec.py and
 * spec_tables.py (session_spec_table.h, android_harness/native/spec_table.py).
 * Read-only after the host wrote it. Unknown keys and bad values are one error naming every
 * offending key, before anything runs.
 */
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "result.h"
#include "session_spec_table.h"

namespace edgecl {

/// Declares one field of a generated table (session_spec_table.h) with its default.
#define EDGECL_SPEC_DECLARE(type, name, default_value, required, doc) type name = default_value;

/// The CL recipe (`train` table).
struct TrainConfig {
  EDGECL_SPEC_TRAIN(EDGECL_SPEC_DECLARE)
};

/// Miro's hierarchy (`replay` table).
struct ReplayConfig {
  EDGECL_SPEC_REPLAY(EDGECL_SPEC_DECLARE)
};

/// SparCL (`sparcl` table): each part runs when `enabled` and its own flag are true.
struct SparclConfig {
  EDGECL_SPEC_SPARCL(EDGECL_SPEC_DECLARE)

  bool tdm_on() const { return enabled && tdm; }
  bool ddr_on() const { return enabled && ddr && ddr_fraction > 0.0; }
  bool dgm_on() const { return enabled && dgm; }
};

/// One session (paths are relative to the storage root unless absolute).
struct SessionSpec {
  EDGECL_SPEC_SESSION(EDGECL_SPEC_DECLARE)
  TrainConfig train;
  ReplayConfig replay;
  SparclConfig sparcl;

  /// `path` resolved against the storage root.
  std::string resolve(const std::string& storage_root, const std::string& path) const;
};

/// Parse session.json text; `where` names the file in errors.
Result<SessionSpec> parse_session_spec(const std::string& text, const std::string& where);
/// Read `<session_dir>/session.json`.
Result<SessionSpec> read_session_spec(const std::string& session_dir);

}  // namespace edgecl
