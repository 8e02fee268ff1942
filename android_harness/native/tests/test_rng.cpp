// SplitMix64 streams (docs/semantics.md section 1), pinned against an independent Python
// implementation of the page (tests/test_native_units.py re-derives these values).
#include "rng.h"
#include "unit.h"

using edgecl::Purpose;
using edgecl::Stream;

TEST(rng_first_outputs) {
  Stream s(0, Purpose::kSbFill, 0, 0);
  CHECK_EQ(s.next(), 0xc8e59fd7eebd5441ull);
  CHECK_EQ(s.next(), 0x42b15cb56fd7954eull);
  CHECK_EQ(s.next(), 0x3dbebc4d73710562ull);
}

TEST(rng_pins_of_the_python_side) {
  // tests/test_rng.py on branch sem (android_harness/device/rng.py) pins these.
  Stream s(0, static_cast<Purpose>(0), 0, 0);
  for (uint64_t w : {0xE21C24ACB4115588ull, 0xFEFC2EC81D0A1389ull, 0x56F60EB04C686E9Bull, 0xCC3F524B09CA933Full}) {
    CHECK_EQ(s.next(), w);
  }
  Stream b(42, Purpose::kEpoch, 1, 3);
  for (uint64_t w : {7, 4, 8, 0, 1, 7, 6, 5, 7, 2, 4, 4}) CHECK_EQ(b.below(10), w);
  std::vector<int64_t> a = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  Stream(7, Purpose::kEpoch, 0, 0).shuffle(a);
  CHECK(a == std::vector<int64_t>({9, 5, 7, 2, 6, 0, 8, 3, 4, 1}));
  CHECK(Stream(7, Purpose::kEmBuild, 2, 4).sample(100, 6) == std::vector<int64_t>({1, 39, 64, 78, 31, 52}));
  Stream big((1ull << 63) - 1, Purpose::kTdmGrow, 4, 9);
  CHECK_EQ(big.below(1ull << 40), 347719011544ull);
  CHECK_EQ(big.below(3), 1ull);
  CHECK_EQ(big.below(1ull << 62), 89898324773306368ull);
}

TEST(rng_below) {
  Stream s(12345, Purpose::kEpoch, 2, 7);
  const std::vector<uint64_t> want = {0, 5, 9, 2, 2, 9, 6, 3, 7, 6};
  for (uint64_t w : want) CHECK_EQ(s.below(10), w);
}

TEST(rng_shuffle) {
  Stream s(7, Purpose::kTdmGrow, 1, 4);
  std::vector<int64_t> a = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  s.shuffle(a);
  CHECK(a == std::vector<int64_t>({2, 7, 5, 9, 3, 4, 8, 1, 6, 0}));
}

TEST(rng_sample) {
  Stream s((1ull << 63) - 1, Purpose::kEmBuild, 3, 9);
  CHECK(s.sample(100, 8) == std::vector<int64_t>({17, 72, 67, 24, 49, 19, 18, 54}));
}

TEST(rng_below_edges) {
  Stream s(1, Purpose::kSwap, 0, 0);
  for (int i = 0; i < 100; ++i) CHECK_EQ(s.below(1), 0u);
  Stream big(1, Purpose::kSwap, 0, 1);
  for (int i = 0; i < 100; ++i) CHECK(big.below(~0ull) < ~0ull);
  Stream empty(1, Purpose::kSwap, 0, 2);
  CHECK(empty.sample(5, 0).empty());
  std::vector<int64_t> none;
  empty.shuffle(none);
  CHECK(none.empty());
}
