/*
 * Loaded exports the runner trains, and the persistent runner's cache of them: loading a program
 * is most of a session's start, so `serve` keeps up to four by model folder (and the manifest's
 * mtime and size) and hands a later session on the same export the same Program reset to the
 * export's initial parameters, masks and running statistics (as android_harness/device/server.py's
 * BackendCache does with reset()).
 */
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <vector>

#include "program.h"
#include "result.h"

namespace edgecl {

/// One loaded export with a copy of its initial state.
class LoadedModel final {
 public:
  static Result<std::unique_ptr<LoadedModel>> load(const std::string& model_dir);
  Program& program() { return *program_; }
  /// Parameters, masks and running statistics back to their values right after load.
  void reset();

 private:
  std::unique_ptr<Program> program_;
  std::vector<std::vector<float>> params_, masks_, buffers_;
};

/// Least-recently-used loaded exports.
class ModelCache final {
 public:
  explicit ModelCache(size_t capacity = 4) : capacity_(capacity) {}
  /// The export in `model_dir`, loaded or reused (then reset).
  Result<LoadedModel*> get(const std::string& model_dir);
  /// Forget `model_dir` (its session failed: its state is not trusted for the next one).
  void drop(const std::string& model_dir);
  int64_t loads() const { return loads_; }
  int64_t reuses() const { return reuses_; }

 private:
  struct Entry {
    std::string real_dir;
    int64_t mtime_ns, size;
    std::unique_ptr<LoadedModel> model;
  };
  size_t capacity_;
  std::list<Entry> entries_;  // most recent first
  int64_t loads_ = 0, reuses_ = 0;
};

}  // namespace edgecl
