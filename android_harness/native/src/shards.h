/*
 * The task data a session trains and evaluates on: `tasks.json` and the shard files of
 * pipeline/datasets/shards.py (magic "EDGECLSH", u32 version, u32 header length, u32 crc32 of the
 * JSON header; records `i64 label | float32 sample | u32 crc32`). Every checksum is verified; a bad
 * byte is an error naming the file and the record.
 */
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "result.h"

namespace edgecl {

/// All samples of one shard (float32, C order) and their labels.
struct Shard {
  int64_t count = 0;
  std::vector<int64_t> sample_shape;
  int64_t sample_numel = 0;
  std::vector<float> x;       // count * sample_numel
  std::vector<int64_t> y;     // count

  const float* row(int64_t i) const { return x.data() + i * sample_numel; }
};

/// Read and verify a whole shard (float32 samples only).
Result<Shard> read_shard(const std::string& path);

/// One entry of tasks.json.
struct TaskEntry {
  int64_t index = 0;
  std::vector<int64_t> classes;
  std::string train_file;
  std::string test_file;
};

/// tasks.json: the run's tasks in order, with their classes and shard files.
struct TaskIndex {
  std::string folder;
  int64_t num_classes = 0;
  std::vector<int64_t> input_shape;
  std::vector<TaskEntry> tasks;  // in tasks.json order

  /// The entry of task `index`, or an error naming tasks.json and the tasks it has.
  Result<const TaskEntry*> entry(int64_t index) const;
  /// Tasks up to and including `index`, in tasks.json order.
  std::vector<int64_t> seen_tasks(int64_t index) const;
};

/// Read `<folder>/tasks.json`.
Result<TaskIndex> read_task_index(const std::string& folder);

}  // namespace edgecl
