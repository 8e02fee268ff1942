#include "resources.h"

#include <cstdlib>
#include <fstream>

#include "fileio.h"

namespace edgecl {
namespace {

/// The kB value of the first line starting with `key` in a /proc style file, in bytes.
int64_t kb_field(const std::string& path, const std::string& key) {
  std::ifstream f(path);
  std::string line;
  while (std::getline(f, line)) {
    if (line.compare(0, key.size(), key) == 0) return std::strtoll(line.c_str() + key.size(), nullptr, 10) * 1024;
  }
  return -1;
}

}  // namespace

OrderedJson probe_resources(const std::string& meminfo_path, const std::vector<std::string>& folders) {
  OrderedJson out = OrderedJson::object();
  out["rss_bytes"] = kb_field("/proc/self/status", "VmRSS:");
  out["peak_rss_bytes"] = kb_field("/proc/self/status", "VmHWM:");
  out["mem_available_bytes"] = kb_field(meminfo_path, "MemAvailable:");
  out["storage_used_bytes"] = folder_bytes(folders);
  return out;
}

}  // namespace edgecl
