/*
 * The replay store's storage tier (Miro's flash level), byte-compatible with
 * android_harness/device/replay/storage.py:
 *
 *     store.json          {"version": 1, "x_shape": [...], "n_logits": C, "x_dtype": "float32"}
 *     class_<label>.rec   append-only fixed-size records of one class:
 *                         "ECR1" | u32 crc32(rest) | i64 sample_id | i32 label | f32 x | f32 logits
 *
 * The index (offsets of the valid records per class) is rebuilt from the files on every open: a
 * torn tail left by a kill -9 is cut off, a record failing its checksum is skipped and never
 * returned. Record (class, k) is the k-th valid record of the class. commit() fsyncs what was
 * appended: a sample is committed once commit() returned. truncate_to() rolls back to a
 * checkpoint's byte position. Reads (pread) may run on another thread than appends of other
 * classes; the runner never appends while a swap read is in flight.
 */
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "result.h"

namespace edgecl {

/// Shape of one stored sample.
struct RecordFormat {
  std::vector<int64_t> x_shape;
  int64_t n_logits = 0;

  int64_t x_numel() const;
  /// Bytes of one record.
  int64_t record_size() const;
};

/// One sample to append, read where it lies: `x` holds x_numel floats, `logits` n_logits floats
/// (null when the store keeps none).
struct RecordSource {
  int64_t sample_id = 0;
  int64_t label = 0;
  const float* x = nullptr;
  const float* logits = nullptr;
};

/// One record read back.
struct StoredSample {
  int64_t sample_id = 0;
  int64_t label = 0;
  std::vector<float> x;
  std::vector<float> logits;  // n_logits values (empty when the store keeps none)
};

class StorageTier final {
 public:
  /// Open (creating when writable) the store at `root`; the format must match store.json.
  static Result<std::unique_ptr<StorageTier>> open(const std::string& root, RecordFormat fmt, int64_t budget_bytes,
                                                   bool read_only);
  ~StorageTier();
  StorageTier(const StorageTier&) = delete;
  StorageTier& operator=(const StorageTier&) = delete;

  const std::string& root() const { return root_; }
  const RecordFormat& format() const { return fmt_; }
  /// Labels with at least one valid record, ascending.
  std::vector<int64_t> labels() const;
  /// Valid records of `label`.
  int64_t count(int64_t label) const;
  /// Valid records in total.
  int64_t size() const;
  bool contains(int64_t sample_id) const { return ids_.count(sample_id) != 0; }
  /// Records skipped as corrupt when the index was built.
  int64_t skipped_corrupt() const { return skipped_corrupt_; }
  /// Bytes of all class files.
  int64_t used_bytes() const;
  /// Byte end of each class file (what a checkpoint records).
  std::map<int64_t, int64_t> position() const { return ends_; }

  /// Append the samples whose id is not stored yet, each class's records in the order given, written
  /// in chunks of at most 64 KiB (a task's whole stream buffer is never copied); returns how many
  /// were written (not yet committed). Over the budget, nothing is written.
  Result<int64_t> append(const std::vector<RecordSource>& samples);
  /// fsync every class file appended to since the last commit.
  Error commit();
  /// Cut every class file back to `position` (missing classes: 0 bytes) and rebuild the index.
  Error truncate_to(const std::map<int64_t, int64_t>& position);
  /// Record (label, k), checksum re-verified.
  Result<StoredSample> read(int64_t label, int64_t k) const;
  /// Commit and close every file.
  Error close();

 private:
  StorageTier(std::string root, RecordFormat fmt, int64_t budget, bool read_only);
  Error open_format();
  Error rebuild_index();
  Result<int> write_fd(int64_t label);
  Result<int> read_fd(int64_t label) const;
  std::string class_file(int64_t label) const;

  std::string root_;
  RecordFormat fmt_;
  int64_t budget_;
  bool read_only_;
  std::map<int64_t, std::vector<int64_t>> offsets_;
  std::map<int64_t, int64_t> ends_;
  std::set<int64_t> ids_;
  std::map<int64_t, int> wfds_;
  mutable std::mutex rfds_mutex_;  // read() may run on the swap thread
  mutable std::map<int64_t, int> rfds_;
  std::set<int64_t> dirty_;
  int64_t skipped_corrupt_ = 0;
};

}  // namespace edgecl
