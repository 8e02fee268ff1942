/*
 * A program's own structure checked before the runtime reads it: the flatbuffer verified whole (every
 * offset, vector and string inside the file) and the indices the runtime follows without a check of
 * its own: each execution plan's inputs and outputs (Method reads them with an assert that aborts the
 * process) and each kernel call's operator (Method::init forgets an out-of-range one when a later
 * instruction resolves, and execution calls a null kernel); then a training program's layout
 * (check_training_layout). A malformed .pte is then an InvalidProgram naming the file, never a crash
 * at load. Once loaded, a method's inputs are checked against the manifest's signature.
 */
#pragma once

#include <string>

#include <executorch/extension/module/module.h>

#include "result.h"
#include "signature.h"

namespace edgecl {

/// `path` (a .pte) verified as above; Ok, or InvalidProgram saying what is out of bounds.
[[nodiscard]] Error check_program_file(const std::string& path);

/// A training program's layout as TrainingModule reads it without checks (it asserts, or throws from
/// vector::at): its fqn method gives strings, its gradient and parameter index methods give ints with
/// user outputs < gradients < parameters <= outputs, one gradient and one parameter per name, each a tensor.
[[nodiscard]] Error check_training_layout(::executorch::extension::Module& module, const std::string& method,
                                          const std::string& path);

/// `module` loaded with `path` checked whole first (check_program_file, then the runtime's own
/// InternalConsistency: tensor sizes that do not overflow): a malformed program is an error, never a crash.
[[nodiscard]] Error verify_program(::executorch::extension::Module& module, const std::string& path);

/// `method`'s view of its inputs must be the signature's `specs`: same count, shapes and dtypes.
[[nodiscard]] Error check_inputs(::executorch::extension::Module& module, const std::string& method,
                                 const std::vector<TensorSpec>& specs, const std::string& path);

}  // namespace edgecl
