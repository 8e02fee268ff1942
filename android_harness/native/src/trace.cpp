#include "trace.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "checksum.h"
#include "disk_space.h"
#include "fileio.h"

namespace edgecl {

std::string mask_hash(const float* mask, size_t n) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fnv1a64(mask, n * sizeof(float))));
  return buf;
}

std::string float_bits(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", bits);
  return buf;
}

OrderedJson trace_line(const char* kind, int64_t task) {
  OrderedJson line = OrderedJson::object();
  line["k"] = kind;
  line["task"] = task;
  return line;
}

Result<std::unique_ptr<Trace>> Trace::open(const std::string& path) {
  if (path.empty()) return std::unique_ptr<Trace>(new Trace("", -1));
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return errno_error(path, "open");
  return std::unique_ptr<Trace>(new Trace(path, fd));
}

Trace::~Trace() {
  if (fd_ >= 0) ::close(fd_);
}

Error Trace::write(const OrderedJson& line) {
  if (fd_ < 0) return Error();
  const std::string text = to_json_text(line, JsonStyle::kCompact) + "\n";
  return append_whole(fd_, path_, text.data(), text.size());
}

}  // namespace edgecl

namespace edgecl {

int64_t Trace::size() const {
  struct stat st;
  if (fd_ < 0 || ::fstat(fd_, &st) != 0) return 0;
  return static_cast<int64_t>(st.st_size);
}

Error Trace::reset_to(int64_t bytes) {
  if (fd_ < 0 || size() <= bytes) return Error();
  if (::ftruncate(fd_, static_cast<off_t>(bytes)) != 0) return errno_error(path_, "truncate");
  return Error();
}

}  // namespace edgecl
