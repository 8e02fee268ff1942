#include "rng.h"

#include <cstddef>
#include <utility>

namespace edgecl {
namespace {
constexpr uint64_t kGolden = 0x9E3779B97F4A7C15ull;
constexpr uint64_t kInit = 0x6A09E667F3BCC909ull;
}  // namespace

uint64_t Stream::mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

Stream::Stream(uint64_t seed, Purpose purpose, uint64_t a, uint64_t b) {
  uint64_t h = kInit;
  for (uint64_t k : {seed, static_cast<uint64_t>(purpose), a, b}) {
    h = mix(h ^ k) + kGolden;
  }
  state_ = h;
}

uint64_t Stream::next() {
  state_ += kGolden;
  return mix(state_);
}

uint64_t Stream::below(uint64_t n) {
  const unsigned __int128 p = static_cast<unsigned __int128>(next() >> 11) * n;
  return static_cast<uint64_t>(p >> 53);
}

void Stream::shuffle(std::vector<int64_t>& a) {
  for (size_t i = a.size(); i-- > 1;) {
    std::swap(a[i], a[below(i + 1)]);
  }
}

std::vector<int64_t> Stream::sample(int64_t n, int64_t k) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = i;
  for (int64_t i = 0; i < k; ++i) {
    const int64_t j = i + static_cast<int64_t>(below(static_cast<uint64_t>(n - i)));
    std::swap(v[i], v[j]);
  }
  v.resize(static_cast<size_t>(k));
  return v;
}

}  // namespace edgecl
