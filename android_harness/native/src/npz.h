/*
 * Reading numpy's .npz archives (np.savez: an uncompressed zip of .npy files), e.g. an export's
 * initial_state.npz (initial weight masks and BatchNorm running statistics).
 */
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "result.h"

namespace edgecl {

/// One array of an .npz: numpy's dtype string ("<f4", "<i8", "|b1"), C-order shape and raw bytes.
struct NpyArray {
  std::string descr;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;

  /// Number of elements (1 for a 0-d array).
  size_t numel() const;
};

/// Parse one .npy file's bytes (`where` names it in errors).
Error parse_npy(const std::string& where, const uint8_t* p, uint64_t n, NpyArray* out);

/// Every array of the archive at `path`, by name without ".npy". Fails (naming the file and the
/// entry) on a compressed entry (np.savez_compressed), Fortran order or a malformed header.
Result<std::map<std::string, NpyArray>> read_npz(const std::string& path);

}  // namespace edgecl
