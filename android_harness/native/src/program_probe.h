/*
 * A trial of a loaded program before any session trains on it: one training step and one evaluation
 * on zero inputs (sparse execution on where the program has masks, as a session runs it), in a child
 * process. ExecuTorch does not check the kinds of a kernel call's arguments
 * (an EValue of the wrong kind aborts the process), so a program that passes program_check.h can still
 * crash the runtime at its first step; the trial's child dies instead of the (persistent) runner, and
 * the program is refused with one line.
 */
#pragma once

#include <string>

#include "program.h"
#include "result.h"

namespace edgecl {

/// Ok unless the trial of `program` (loaded from `model_dir`) died of a signal.
[[nodiscard]] Error probe_program(Program& program, const std::string& model_dir);

}  // namespace edgecl
