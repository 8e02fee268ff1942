#include "npz.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

namespace edgecl {
namespace {

constexpr uint32_t kEndOfCentralDir = 0x06054b50;
constexpr uint32_t kZip64EndLocator = 0x07064b50;
constexpr uint32_t kZip64End = 0x06064b50;
constexpr uint32_t kCentralEntry = 0x02014b50;
constexpr uint32_t kLocalHeader = 0x04034b50;
constexpr uint32_t kU32Max = 0xffffffffu;

/// Little-endian reads with bounds checks over the whole archive in memory.
class Reader {
 public:
  explicit Reader(const std::vector<uint8_t>& data) : data_(data) {}
  bool has(uint64_t off, uint64_t n) const { return off <= data_.size() && n <= data_.size() - off; }
  uint64_t le(uint64_t off, int n) const {
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i) {
      v = (v << 8) | data_[off + i];
    }
    return v;
  }

 private:
  const std::vector<uint8_t>& data_;
};

Error bad(const std::string& path, const std::string& why) {
  return Error(ErrorCode::InvalidExternalData, path + ": " + why);
}

}  // namespace

/// Parses numpy's header dict, e.g. {'descr': '<f4', 'fortran_order': False, 'shape': (4, 3), }.
Error parse_npy(const std::string& where, const uint8_t* p, uint64_t n, NpyArray* out) {
  static const char kMagic[] = "\x93NUMPY";
  if (n < 10 || std::memcmp(p, kMagic, 6) != 0) {
    return Error(ErrorCode::InvalidExternalData, where + ": not an .npy array");
  }
  const int major = p[6];
  const uint64_t hlen_size = major == 1 ? 2 : 4;
  uint64_t hlen = p[8] | (p[9] << 8);
  if (hlen_size == 4) {
    if (n < 12) return Error(ErrorCode::InvalidExternalData, where + ": truncated .npy header");
    hlen = p[8] | (p[9] << 8) | (uint64_t(p[10]) << 16) | (uint64_t(p[11]) << 24);
  }
  const uint64_t start = 8 + hlen_size;
  if (start + hlen > n) {
    return Error(ErrorCode::InvalidExternalData, where + ": truncated .npy header");
  }
  const std::string header(reinterpret_cast<const char*>(p + start), hlen);
  auto value_of = [&](const std::string& key) -> std::string {
    const auto k = header.find("'" + key + "':");
    if (k == std::string::npos) return "";
    auto v = header.find_first_not_of(' ', k + key.size() + 3);
    return v == std::string::npos ? "" : header.substr(v);
  };
  const std::string descr = value_of("descr");
  const std::string order = value_of("fortran_order");
  const std::string shape = value_of("shape");
  if (descr.size() < 2 || descr[0] != '\'' || order.empty() || shape.empty() || shape[0] != '(') {
    return Error(ErrorCode::InvalidExternalData, where + ": malformed .npy header " + header);
  }
  if (order.compare(0, 5, "False") != 0) {
    return Error(ErrorCode::NotSupported, where + ": Fortran-order arrays are not supported");
  }
  out->descr = descr.substr(1, descr.find('\'', 1) - 1);
  out->shape.clear();
  const std::string dims = shape.substr(1, shape.find(')') - 1);
  for (size_t i = 0; i < dims.size();) {
    if (dims[i] == ' ' || dims[i] == ',') {
      ++i;
      continue;
    }
    char* end = nullptr;
    const long long d = std::strtoll(dims.c_str() + i, &end, 10);
    if (end == dims.c_str() + i || d < 0) {
      return Error(ErrorCode::InvalidExternalData, where + ": malformed shape in .npy header " + header);
    }
    out->shape.push_back(d);
    i = end - dims.c_str();
  }
  const std::string itemsize = out->descr.substr(2);
  const uint64_t elem = std::strtoull(itemsize.c_str(), nullptr, 10);
  const uint64_t nbytes = elem * out->numel();
  if (elem == 0 || start + hlen + nbytes != n) {
    return Error(ErrorCode::InvalidExternalData, where + ": data size does not match dtype " + out->descr);
  }
  out->bytes.assign(p + start + hlen, p + n);
  return Error();
}

size_t NpyArray::numel() const {
  size_t n = 1;
  for (int64_t d : shape) {
    n *= static_cast<size_t>(d);
  }
  return n;
}

Result<std::map<std::string, NpyArray>> read_npz(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    return Error(ErrorCode::NotFound, path + ": cannot open");
  }
  const std::vector<uint8_t> data((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const Reader r(data);
  // The end-of-central-directory record: the last 22+ bytes (a comment may follow it).
  int64_t eocd = -1;
  for (int64_t off = int64_t(data.size()) - 22; off >= 0 && off >= int64_t(data.size()) - 22 - 65535; --off) {
    if (r.le(off, 4) == kEndOfCentralDir) {
      eocd = off;
      break;
    }
  }
  if (eocd < 0) {
    return bad(path, "not a zip archive (no end of central directory)");
  }
  uint64_t entries = r.le(eocd + 10, 2);
  uint64_t cd = r.le(eocd + 16, 4);
  if ((entries == 0xffff || cd == kU32Max) && eocd >= 20 && r.le(eocd - 20, 4) == kZip64EndLocator) {
    const uint64_t z64 = r.le(eocd - 20 + 8, 8);
    if (!r.has(z64, 56) || r.le(z64, 4) != kZip64End) {
      return bad(path, "broken zip64 end record");
    }
    entries = r.le(z64 + 32, 8);
    cd = r.le(z64 + 48, 8);
  }
  std::map<std::string, NpyArray> out;
  uint64_t off = cd;
  for (uint64_t e = 0; e < entries; ++e) {
    if (!r.has(off, 46) || r.le(off, 4) != kCentralEntry) {
      return bad(path, "broken central directory");
    }
    const uint64_t method = r.le(off + 10, 2);
    uint64_t csize = r.le(off + 20, 4), usize = r.le(off + 24, 4), local = r.le(off + 42, 4);
    const uint64_t nlen = r.le(off + 28, 2), xlen = r.le(off + 30, 2), clen = r.le(off + 32, 2);
    if (!r.has(off + 46, nlen + xlen)) {
      return bad(path, "broken central directory");
    }
    const std::string name(reinterpret_cast<const char*>(data.data() + off + 46), nlen);
    // zip64 extra field: the 64-bit values of whichever of usize, csize, local were 0xffffffff.
    for (uint64_t x = off + 46 + nlen; x + 4 <= off + 46 + nlen + xlen;) {
      const uint64_t id = r.le(x, 2), len = r.le(x + 2, 2);
      if (id == 0x0001) {
        uint64_t f = x + 4;
        if (usize == kU32Max) { usize = r.le(f, 8); f += 8; }
        if (csize == kU32Max) { csize = r.le(f, 8); f += 8; }
        if (local == kU32Max) { local = r.le(f, 8); }
      }
      x += 4 + len;
    }
    off += 46 + nlen + xlen + clen;
    const std::string where = path + ": " + name;
    if (method != 0 || csize != usize) {
      return Error(ErrorCode::NotSupported, where + ": compressed entry (write it with np.savez, not savez_compressed)");
    }
    if (!r.has(local, 30) || r.le(local, 4) != kLocalHeader) {
      return bad(where, "broken local header");
    }
    const uint64_t begin = local + 30 + r.le(local + 26, 2) + r.le(local + 28, 2);
    if (!r.has(begin, usize)) {
      return bad(where, "truncated entry");
    }
    const std::string key = name.size() > 4 && name.compare(name.size() - 4, 4, ".npy") == 0
                                ? name.substr(0, name.size() - 4) : name;
    NpyArray arr;
    EDGECL_RETURN_IF_ERROR(parse_npy(where, data.data() + begin, usize, &arr));
    out.emplace(key, std::move(arr));
  }
  return out;
}

}  // namespace edgecl
