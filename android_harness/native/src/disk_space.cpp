#include "disk_space.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <vector>

#include "fileio.h"

namespace edgecl {
namespace {

std::string human_size(int64_t bytes) {
  char buf[64];
  if (bytes >= 0 && bytes < 10 * 1024) {
    std::snprintf(buf, sizeof buf, "%lld bytes", static_cast<long long>(bytes));
  } else if (bytes < 1024 * 1024) {
    std::snprintf(buf, sizeof buf, "%.1f KB", static_cast<double>(bytes) / 1024.0);
  } else {
    std::snprintf(buf, sizeof buf, "%.2f MB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  }
  return buf;
}

}  // namespace

int64_t free_bytes(const std::string& path) {
  std::string p = absolute_path(path);
  struct statvfs vfs;
  while (::statvfs(p.c_str(), &vfs) != 0) {
    if (p == "/") return -1;
    p = dir_name(p);
  }
  return static_cast<int64_t>(vfs.f_bavail) * static_cast<int64_t>(vfs.f_frsize);
}

Error no_space_error(const std::string& path, int64_t needed) {
  const int64_t free = free_bytes(path);
  std::string msg = "No space left on device on " + path + ": free " + (free < 0 ? "unknown" : human_size(free));
  msg += needed >= 0 ? ", needed " + human_size(needed) : ", needed more";
  return Error(ErrorCode::AccessFailed, msg);
}

Error check_free_space(const std::string& path, int64_t needed) {
  const int64_t free = free_bytes(path);
  return free >= 0 && free < needed ? no_space_error(path, needed) : Error();
}

Error append_whole(int fd, const std::string& path, const void* data, size_t n) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return errno_error(path, "fstat");
  const auto* p = static_cast<const char*>(data);
  size_t left = n;
  while (left > 0) {
    const ssize_t w = ::write(fd, p, left);
    if (w > 0) {
      p += w;
      left -= static_cast<size_t>(w);
      continue;
    }
    if (w < 0 && errno == EINTR) continue;
    const int e = w < 0 ? errno : ENOSPC;  // write() returning 0 for n > 0: the disk is full
    if (left != n && ::ftruncate(fd, st.st_size) != 0) return errno_error(path, "truncate after a failed write");
    if (e == ENOSPC || e == EDQUOT) return no_space_error(path, static_cast<int64_t>(n));
    errno = e;
    return errno_error(path, "write");
  }
  return Error();
}

Result<std::unique_ptr<SpaceReserve>> SpaceReserve::create(const std::string& path, int64_t bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return errno_error(path, "open");
  std::unique_ptr<SpaceReserve> reserve(new SpaceReserve(path));  // removes the file on any error below
  // Zeros written (not a sparse file): the space is taken at write time (ext4, f2fs and tmpfs
  // account delayed blocks at once), so no fsync is needed at the session's start.
  const std::vector<char> zeros(static_cast<size_t>(bytes), '\0');
  Error err = append_whole(fd, path, zeros.data(), zeros.size());
  ::close(fd);
  if (!err.ok()) return Error(err.code(), err.message() + " (the session's error reserve)");
  return reserve;
}

SpaceReserve::~SpaceReserve() { release(); }

void SpaceReserve::release() {
  if (path_.empty()) return;
  ::unlink(path_.c_str());
  path_.clear();
}

}  // namespace edgecl
