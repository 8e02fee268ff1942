/*
 * The resource probes behind the `resources` event and session_start's `device` field
 * (android_harness/device/resources.py): the runner's RSS, the device's available memory and the
 * bytes the session's folders use. Unreadable values are -1.
 */
#pragma once

#include <string>
#include <vector>

#include "json_io.h"

namespace edgecl {

/// {"rss_bytes", "mem_available_bytes", "storage_used_bytes"}.
OrderedJson probe_resources(const std::string& meminfo_path, const std::vector<std::string>& folders);

}  // namespace edgecl
