/*
 * SHA-256 (FIPS 180-4), for the manifest's file digests: the runner checks a program's bytes
 * against the manifest before the runtime parses them (android_harness/device/backends/manifest.py
 * does the same with hashlib).
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "result.h"

namespace edgecl {

/// Incremental SHA-256.
class Sha256 final {
 public:
  Sha256();
  void update(const void* data, size_t n);
  /// The digest as 64 lowercase hex digits (the object is spent afterwards).
  std::string hex_digest();

 private:
  void block(const uint8_t* p);
  uint32_t h_[8];
  uint8_t buf_[64];
  size_t used_ = 0;
  uint64_t total_ = 0;
};

/// sha256 of a file's bytes (64 hex digits) and its size, or an Error naming the file.
struct FileDigest {
  std::string sha256;
  int64_t size = 0;
};
Result<FileDigest> sha256_file(const std::string& path);

}  // namespace edgecl
