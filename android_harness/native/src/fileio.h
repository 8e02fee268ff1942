/*
 * Files and folders as the device contract wants them: whole-file reads, writes that a reader
 * never sees half-done (temp then rename, fsynced), folder listing and removal. Every failure is
 * an Error naming the path and the system's reason.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "result.h"

namespace edgecl {

/// `a/b` (b as is when absolute).
std::string join_path(const std::string& a, const std::string& b);
/// The folder part of a path ("." when there is none).
std::string dir_name(const std::string& path);
/// The last component of a path.
std::string base_name(const std::string& path);
/// The absolute form of a path (no symlink resolution; cwd-relative paths get the cwd prepended).
std::string absolute_path(const std::string& path);

bool path_exists(const std::string& path);
bool is_dir(const std::string& path);
bool is_file(const std::string& path);

/// The whole file.
Result<std::string> read_file(const std::string& path);
/// The file start to end in chunks of at most 64 KiB, each handed to `sink` as it is read (a digest
/// needs no copy of the whole file); an Error names the file and the call that failed.
Error read_chunks(const std::string& path, const std::function<void(const char* data, size_t n)>& sink);
/// Write `data` to `path.tmp`, fsync it, rename it over `path`, fsync the folder.
Error write_file_atomic(const std::string& path, const std::string& data);
/// mkdir -p.
Error make_dirs(const std::string& path);
/// rm -rf (no error when it does not exist).
Error remove_tree(const std::string& path);
/// Names in a folder (no "." / ".."), sorted; empty when the folder does not exist.
std::vector<std::string> list_dir(const std::string& path);
/// fsync a file or folder by path.
Error fsync_path(const std::string& path);
/// Total bytes of the regular files under the folders (missing folders count 0).
int64_t folder_bytes(const std::vector<std::string>& folders);

/// "<path>: <strerror(errno)>" as an Error (AccessFailed), for the call that just failed.
Error errno_error(const std::string& path, const std::string& what);

}  // namespace edgecl
