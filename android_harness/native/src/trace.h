/*
 * trace.jsonl (docs/semantics.md section 11), the conformance record: with "trace": true the
 * runner appends one JSON object a line for every EM build, DDR removal, TDM update, DGM refresh,
 * step (sample ids and the loss's float32 bits) and planned swap, and every evaluation (correct
 * counts). Masks appear as the FNV-1a 64 hash of their float32 bytes. Lines are compact JSON with
 * the keys in the page's order. Two runners conform when their traces are equal line for line; a
 * checkpoint records the trace's length and a resume cuts the file back to it.
 */
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "json_io.h"
#include "result.h"

namespace edgecl {

/// FNV-1a 64 of a mask's float32 bytes, 16 lowercase hex digits.
std::string mask_hash(const float* mask, size_t n);
/// The float32 bit pattern, 8 lowercase hex digits.
std::string float_bits(float v);
/// A trace line's first keys, {"k": kind, "task": task}; the caller adds the rest in the page's order.
OrderedJson trace_line(const char* kind, int64_t task);

class Trace final {
 public:
  /// A trace appending to `path`, or a disabled one (path empty) that writes nothing.
  static Result<std::unique_ptr<Trace>> open(const std::string& path);
  ~Trace();
  Trace(const Trace&) = delete;
  Trace& operator=(const Trace&) = delete;

  bool enabled() const { return fd_ >= 0; }
  /// Append `line` (an object) as one compact JSON line (no-op when disabled).
  Error write(const OrderedJson& line);
  /// The file's length in bytes (0 when disabled): what a checkpoint records as trace_bytes.
  int64_t size() const;
  /// Cut the file back to `bytes` (a resumed session continues where its checkpoint was taken).
  Error reset_to(int64_t bytes);

 private:
  Trace(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  std::string path_;
  int fd_;
};

}  // namespace edgecl
