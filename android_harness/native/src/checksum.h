/*
 * The checksums the file formats use: CRC-32 (zlib's, for shard and replay records) and
 * FNV-1a 64 (the trace's mask hashes).
 */
#pragma once

#include <cstddef>
#include <cstdint>

namespace edgecl {

/// zlib.crc32(data) continued from `crc` (0 to start).
uint32_t crc32(const void* data, size_t n, uint32_t crc = 0);

/// FNV-1a 64-bit hash of the bytes.
uint64_t fnv1a64(const void* data, size_t n);

}  // namespace edgecl
