/*
 * The masked layers' sparse products as JSON: per layer, per product (forward, input_grad, weight_grad)
 * the density, the kernel its density picked and the counters of what ran (sparse and dense calls,
 * seconds when timed, non-zero and dense GFLOP). bench-step, steps and a session's step profile print
 * it, so a product that silently ran dense shows (tests/test_native_sparse.py).
 */
#pragma once

#include <vector>

#include "json_io.h"
#include "sparse_plan.h"

namespace edgecl {

OrderedJson sparse_layers_json(const std::vector<LayerReport>& layers);

}  // namespace edgecl
