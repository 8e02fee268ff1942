#include "npy.h"

#include <cstring>

#include "fileio.h"

namespace edgecl {
namespace {

NpyArray make(const char* descr, const std::vector<int64_t>& shape, const void* data, size_t elem) {
  NpyArray a;
  a.descr = descr;
  a.shape = shape;
  const size_t n = a.numel() * elem;
  a.bytes.resize(n);
  if (n > 0) std::memcpy(a.bytes.data(), data, n);
  return a;
}

template <typename T>
Error copy_out(const NpyArray& a, const char* descr, int64_t numel, const std::string& where, std::vector<T>* out) {
  if (a.descr != descr) {
    return Error(ErrorCode::InvalidExternalData, where + ": dtype " + a.descr + ", expected " + descr);
  }
  if (numel >= 0 && static_cast<int64_t>(a.numel()) != numel) {
    return Error(ErrorCode::InvalidExternalData, where + ": " + std::to_string(a.numel()) + " values, expected " +
                                                     std::to_string(numel));
  }
  out->resize(a.numel());
  if (!out->empty()) std::memcpy(out->data(), a.bytes.data(), out->size() * sizeof(T));
  return Error();
}

}  // namespace

NpyArray npy_f32(const std::vector<int64_t>& shape, const float* data) { return make("<f4", shape, data, 4); }
NpyArray npy_i64(const std::vector<int64_t>& shape, const int64_t* data) { return make("<i8", shape, data, 8); }
NpyArray npy_u8(const std::vector<int64_t>& shape, const uint8_t* data) { return make("|u1", shape, data, 1); }

std::string npy_file_bytes(const NpyArray& array) {
  std::string shape = "(";
  for (size_t i = 0; i < array.shape.size(); ++i) {
    shape += (i ? ", " : "") + std::to_string(array.shape[i]);
  }
  shape += array.shape.size() == 1 ? ",)" : ")";
  std::string header = "{'descr': '" + array.descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // np.lib.format (numpy 2): room for the first axis to grow to 21 digits, then spaces so that
  // magic + version + length + header + '\n' is a multiple of 64.
  if (!array.shape.empty()) header += std::string(21 - std::to_string(array.shape[0]).size(), ' ');
  const size_t pad = 64 - ((10 + header.size() + 1) % 64);
  header += std::string(pad, ' ') + "\n";
  std::string out("\x93NUMPY\x01\x00", 8);
  out.push_back(static_cast<char>(header.size() & 0xFF));
  out.push_back(static_cast<char>(header.size() >> 8));
  out += header;
  out.append(reinterpret_cast<const char*>(array.bytes.data()), array.bytes.size());
  return out;
}

Result<NpyArray> read_npy(const std::string& path) {
  auto data = read_file(path);
  if (!data.ok()) return data.error();
  NpyArray a;
  EDGECL_RETURN_IF_ERROR(parse_npy(path, reinterpret_cast<const uint8_t*>(data->data()), data->size(), &a));
  return a;
}

Error npy_to_f32(const NpyArray& a, int64_t numel, const std::string& where, std::vector<float>* out) {
  return copy_out(a, "<f4", numel, where, out);
}
Error npy_to_i64(const NpyArray& a, int64_t numel, const std::string& where, std::vector<int64_t>* out) {
  return copy_out(a, "<i8", numel, where, out);
}
Error npy_to_u8(const NpyArray& a, int64_t numel, const std::string& where, std::vector<uint8_t>* out) {
  return copy_out(a, "|u1", numel, where, out);
}

}  // namespace edgecl
