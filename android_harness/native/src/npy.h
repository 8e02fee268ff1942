/*
 * Single .npy files (NumPy format v1, little-endian): what checkpoints keep their arrays in
 * (docs/semantics.md section 10: `<f4`, `<i8`, `|u1`). Written byte-identical to np.save.
 */
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "npz.h"
#include "result.h"

namespace edgecl {

/// An array from typed values (descr "<f4", "<i8" or "|u1").
NpyArray npy_f32(const std::vector<int64_t>& shape, const float* data);
NpyArray npy_i64(const std::vector<int64_t>& shape, const int64_t* data);
NpyArray npy_u8(const std::vector<int64_t>& shape, const uint8_t* data);

/// The .npy file bytes of `array`, as np.save writes them.
std::string npy_file_bytes(const NpyArray& array);
/// Read one .npy file.
Result<NpyArray> read_npy(const std::string& path);

/// Copy a `<f4` / `<i8` / `|u1` array's values out, checking dtype and element count (`numel` < 0:
/// any); `where` names the array in the error.
Error npy_to_f32(const NpyArray& a, int64_t numel, const std::string& where, std::vector<float>* out);
Error npy_to_i64(const NpyArray& a, int64_t numel, const std::string& where, std::vector<int64_t>* out);
Error npy_to_u8(const NpyArray& a, int64_t numel, const std::string& where, std::vector<uint8_t>* out);

}  // namespace edgecl
