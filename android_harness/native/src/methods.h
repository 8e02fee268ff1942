/*
 * The CL methods (`train.method`, an enum generated from android_harness/device/spec_tables.py) and
 * what each does differently (docs/semantics.md 4.3): the one place a method is asked about.
 */
#pragma once

#include "session_spec_table.h"

namespace edgecl {

/// ER and DER++ train over EM ∪ SB (the others over SB alone).
inline bool replays(Method m) { return m == Method::kEr || m == Method::kDerpp; }
/// DER++ stores a row's logits and weights an EM row's MSE to them by alpha, its CE by beta.
inline bool keeps_logits(Method m) { return m == Method::kDerpp; }
/// Joint (the upper bound): SB holds every row of every seen task.
inline bool trains_seen_tasks(Method m) { return m == Method::kJoint; }

}  // namespace edgecl
