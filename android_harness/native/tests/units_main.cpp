/*
 * edgecl-units: the runner's C++ unit tests, and the helper commands tests/test_native_units.py
 * uses to hold the C++ parts against their Python counterparts (unit_tools.cpp):
 *   edgecl-units [CASE...]                 run the unit cases (all by default)
 *   rng-json                               a battery of stream outputs (section 1)
 *   schedule-json EPOCHS S EVERY SWAP FREEZE N FRACTION STEP...   tdm_schedule + ddr_counts
 *   shard-read PATH                        a shard's count, shape, labels and x checksum
 *   replay-writer ROOT FIRST SEED          append+commit forever, print committed ids (crash test)
 *   replay-read ROOT N_LOGITS DIM...       every valid record: [label, k, id, crc32(x, logits)]
 *   npy-write DIR                          a few arrays as .npy files
 *   json-floats                            [[float64 bits hex, JSON text, round 6, round 4], ...]
 *   optimizer DIR NAME LR MOMENTUM WD      train p0.npy with grads.npy ([K, N]), write p.npy
 *   tdm-update DIR SEED TASK EPOCH LAM DROP GROW STRUCTURED    one layer's TDM update
 *   dgm-mask DIR RATIO                     one layer's DGM mask
 *   em-refs SEED TASK EM_SIZE LABEL:COUNT...                    the EM build's references
 */
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "unit.h"
#include "unit_tools.h"

namespace {

int run_cases(const std::vector<std::string>& names) {
  int failed = 0, ran = 0;
  for (const auto& c : edgecl_test::registry()) {
    if (!names.empty() && std::find(names.begin(), names.end(), c.name) == names.end()) continue;
    edgecl_test::failure().clear();
    c.fn();
    ++ran;
    if (edgecl_test::failure().empty()) {
      std::printf("ok   %s\n", c.name);
    } else {
      ++failed;
      std::printf("FAIL %s: %s\n", c.name, edgecl_test::failure().c_str());
    }
  }
  std::printf("%d of %d cases passed\n", ran - failed, ran);
  return failed == 0 && ran > 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty()) {
    const int rc = edgecl_tools::run_tool(args[0], std::vector<std::string>(args.begin() + 1, args.end()));
    if (rc >= 0) return rc;
  }
  return run_cases(args);
}
