#include "fileio.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "disk_space.h"

namespace edgecl {

std::string join_path(const std::string& a, const std::string& b) {
  if (b.empty()) return a;
  if (b[0] == '/' || a.empty()) return b;
  return a.back() == '/' ? a + b : a + "/" + b;
}

std::string dir_name(const std::string& path) {
  std::string p = path;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  const auto slash = p.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return p.substr(0, slash);
}

std::string base_name(const std::string& path) {
  std::string p = path;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  const auto slash = p.rfind('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

std::string absolute_path(const std::string& path) {
  std::string p = path;
  if (p.empty() || p[0] != '/') {
    char buf[4096];
    p = join_path(getcwd(buf, sizeof buf) ? buf : "/", p);
  }
  // Normalise "." and ".." and repeated slashes, as os.path.abspath does.
  std::vector<std::string> parts;
  size_t i = 0;
  while (i < p.size()) {
    const size_t j = p.find('/', i);
    const std::string part = p.substr(i, j == std::string::npos ? std::string::npos : j - i);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    if (j == std::string::npos) break;
    i = j + 1;
  }
  std::string out;
  for (const auto& part : parts) out += "/" + part;
  return out.empty() ? "/" : out;
}

bool path_exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

bool is_dir(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool is_file(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

Error errno_error(const std::string& path, const std::string& what) {
  const int e = errno;
  if (e == ENOSPC || e == EDQUOT) return Error(ErrorCode::AccessFailed, no_space_error(path, -1).message() + " (" + what + ")");
  ErrorCode code = e == ENOENT ? ErrorCode::NotFound : ErrorCode::AccessFailed;
  return Error(code, path + ": " + what + " failed (" + std::strerror(e) + ")");
}

Error read_chunks(const std::string& path, const std::function<void(const char* data, size_t n)>& sink) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno_error(path, "open");
  char buf[1 << 16];
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      Error err = errno_error(path, "read");
      ::close(fd);
      return err;
    }
    if (n == 0) break;
    sink(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return Error();
}

Result<std::string> read_file(const std::string& path) {
  std::string out;
  EDGECL_RETURN_IF_ERROR(read_chunks(path, [&out](const char* data, size_t n) { out.append(data, n); }));
  return out;
}

Error write_file_atomic(const std::string& path, const std::string& data) {
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return errno_error(tmp, "open");
  Error err = append_whole(fd, tmp, data.data(), data.size());
  if (err.ok() && ::fsync(fd) != 0) err = errno_error(tmp, "fsync");
  ::close(fd);
  if (!err.ok()) {
    ::unlink(tmp.c_str());
    return err;
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    err = errno_error(path, "rename");
    ::unlink(tmp.c_str());
    return err;
  }
  return fsync_path(dir_name(path));
}

Error make_dirs(const std::string& path) {
  if (path.empty() || is_dir(path)) return Error();
  const std::string parent = dir_name(path);
  if (parent != path) EDGECL_RETURN_IF_ERROR(make_dirs(parent));
  if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) return errno_error(path, "mkdir");
  return Error();
}

Error remove_tree(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) {
    return errno == ENOENT ? Error() : errno_error(path, "stat");
  }
  if (S_ISDIR(st.st_mode)) {
    for (const auto& name : list_dir(path)) EDGECL_RETURN_IF_ERROR(remove_tree(join_path(path, name)));
    if (::rmdir(path.c_str()) != 0 && errno != ENOENT) return errno_error(path, "rmdir");
  } else if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
    return errno_error(path, "unlink");
  }
  return Error();
}

std::vector<std::string> list_dir(const std::string& path) {
  std::vector<std::string> out;
  DIR* d = ::opendir(path.c_str());
  if (d == nullptr) return out;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") out.push_back(name);
  }
  ::closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

Error fsync_path(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno_error(path, "open");
  const int rc = ::fsync(fd);
  Error err = rc == 0 || errno == EINVAL ? Error() : errno_error(path, "fsync");
  ::close(fd);
  return err;
}

int64_t folder_bytes(const std::vector<std::string>& folders) {
  int64_t total = 0;
  for (const auto& folder : folders) {
    for (const auto& name : list_dir(folder)) {
      const std::string p = join_path(folder, name);
      struct stat st;
      if (::lstat(p.c_str(), &st) != 0) continue;
      if (S_ISDIR(st.st_mode)) {
        total += folder_bytes({p});
      } else if (S_ISREG(st.st_mode)) {
        total += st.st_size;
      }
    }
  }
  return total;
}

}  // namespace edgecl
