/*
 * A loaded method as the runner runs it: its execution plan walked as a graph (plan_walker.h), its
 * planned memory laid out again (arena.h), and, for a program with masks, its sparse products
 * (sparse_plan.h), found in that graph and read where the arena puts them.
 */
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <executorch/runtime/executor/method.h>

#include "arena.h"
#include "plan_walker.h"
#include "result.h"
#include "signature.h"
#include "sparse_plan.h"

namespace edgecl {

struct MethodLayout {
  std::unique_ptr<Walker> walker;
  std::unique_ptr<Arena> arena;  // null: the export's layout (why_not says why)
  std::string why_not;
  size_t planned_bytes = 0;  // the export's arena (its buffer 0 is reserved and empty)

  /// `method` (of the program at `path`) walked and laid out for the export's schedule.
  [[nodiscard]] static Result<MethodLayout> of(::executorch::runtime::Result<::executorch::runtime::Method*> method,
                                               const std::string& path);
  /// The sparse plan of this method, whose mask inputs are named in `inputs` (the signature's spec list).
  [[nodiscard]] Result<std::unique_ptr<SparsePlan>> sparse_plan(const Signature& sig, const std::vector<TensorSpec>& inputs,
                                                                const std::string& path);
};

}  // namespace edgecl
