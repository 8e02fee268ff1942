#include "policies.h"

#include <algorithm>
#include <array>
#include <functional>
#include <cmath>
#include <cstring>
#include <limits>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "cpu_features.h"
#include "schedule.h"

namespace edgecl {

std::vector<int64_t> stable_top_k(const std::vector<double>& score, std::vector<int64_t> candidates, int64_t k) {
  if (!std::is_sorted(candidates.begin(), candidates.end())) std::sort(candidates.begin(), candidates.end());
  k = std::max<int64_t>(0, std::min<int64_t>(k, static_cast<int64_t>(candidates.size())));
  if (k == static_cast<int64_t>(candidates.size())) return candidates;
  if (k == 0) return {};
  // The k-th largest score t, then every candidate above t and the lowest-index ones equal to t:
  // the same set as a stable sort by score, in O(n). NaN ranks below every number.
  auto key = [&](int64_t i) { return std::isnan(score[i]) ? -std::numeric_limits<double>::infinity() : score[i]; };
  std::vector<double> values(candidates.size());
  for (size_t j = 0; j < candidates.size(); ++j) values[j] = key(candidates[j]);
  std::nth_element(values.begin(), values.begin() + (k - 1), values.end(), std::greater<double>());
  const double t = values[k - 1];
  int64_t above = 0;
  for (int64_t c : candidates) above += key(c) > t ? 1 : 0;
  int64_t equal_left = k - above;
  // Branch-free: which candidates pass is as unpredictable as their scores.
  std::vector<int64_t> out(candidates.size());
  size_t n = 0;
  for (int64_t c : candidates) {
    const double v = key(c);
    const int64_t tie = v == t ? 1 : 0;
    const int64_t take = (v > t ? 1 : 0) | (tie & (equal_left > 0 ? 1 : 0));
    out[n] = c;
    n += static_cast<size_t>(take);
    equal_left -= tie & take;
  }
  out.resize(n);
  return out;
}

void DdrState::reset(int64_t n) {
  removed.assign(static_cast<size_t>(n), 0);
  ever_correct.assign(static_cast<size_t>(n), 0);
  last_correct.assign(static_cast<size_t>(n), 0);
  seen.assign(static_cast<size_t>(n), 0);
  events.assign(static_cast<size_t>(n), 0);
}

void DdrState::observe(int64_t r, bool ok) {
  if (seen[r] && last_correct[r] && !ok) events[r] += 1;
  last_correct[r] = ok;
  seen[r] = 1;
  ever_correct[r] |= static_cast<uint8_t>(ok);
}

std::vector<int64_t> DdrState::remove(int64_t k, Stream* draw) {
  const int64_t n = static_cast<int64_t>(removed.size());
  std::vector<int64_t> active;
  for (int64_t r = 0; r < n; ++r) {
    if (!removed[r]) active.push_back(r);
  }
  // Ascending score, ties to the lower row: stable sort of the ascending active rows.
  auto score = [&](int64_t r) {
    return ever_correct[r] ? static_cast<double>(events[r]) : std::numeric_limits<double>::infinity();
  };
  k = std::max<int64_t>(0, std::min<int64_t>(k, static_cast<int64_t>(active.size())));
  std::vector<int64_t> gone;
  if (draw != nullptr) {
    for (int64_t j : draw->sample(static_cast<int64_t>(active.size()), k)) gone.push_back(active[j]);
  } else {
    std::stable_sort(active.begin(), active.end(), [&](int64_t a, int64_t b) { return score(a) < score(b); });
    gone.assign(active.begin(), active.begin() + k);
  }
  std::sort(gone.begin(), gone.end());
  for (int64_t r : gone) removed[r] = 1;
  std::fill(events.begin(), events.end(), 0);
  std::fill(ever_correct.begin(), ever_correct.end(), 0);
  std::fill(last_correct.begin(), last_correct.end(), 0);
  std::fill(seen.begin(), seen.end(), 0);
  return gone;
}

int64_t DdrState::active_count() const {
  int64_t n = 0;
  for (uint8_t r : removed) n += r ? 0 : 1;
  return n;
}

std::vector<int64_t> DdrState::window_counts() const {
  std::vector<int64_t> counts(3, 0);
  for (size_t r = 0; r < removed.size(); ++r) {
    if (removed[r]) continue;
    counts[!ever_correct[r] ? 2 : events[r] == 0 ? 0 : 1] += 1;
  }
  return counts;
}

double pairwise_sum(const double* a, int64_t n) {
  if (n < 8) {
    double res = 0.0;
    for (int64_t i = 0; i < n; ++i) res += a[i];
    return res;
  }
  if (n <= 128) {
    double r[8];
    for (int j = 0; j < 8; ++j) r[j] = a[j];
    int64_t i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (int j = 0; j < 8; ++j) r[j] += a[i + j];
    }
    double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += a[i];
    return res;
  }
  int64_t n2 = n / 2;
  n2 -= n2 % 8;
  return pairwise_sum(a, n2) + pairwise_sum(a + n2, n - n2);
}

void tdm_update_layer(float* weights, const float* g_prev, int64_t n, int64_t channels, bool structured, double lam,
                      double drop_to, double grow_to, Stream& grow, std::vector<float>* mask, std::vector<uint8_t>* kept) {
  const int64_t units = structured ? channels : n;
  const int64_t per = structured ? n / channels : 1;
  std::vector<double> element(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    element[i] = static_cast<double>(std::fabs(weights[i]));
    if (g_prev != nullptr) element[i] = element[i] + lam * static_cast<double>(std::fabs(g_prev[i]));
  }
  std::vector<double> score(static_cast<size_t>(units));
  std::vector<int64_t> alive(static_cast<size_t>(units));
  size_t n_alive = 0;
  for (int64_t u = 0; u < units; ++u) {  // branch-free, as below: the mask's pattern is random
    score[u] = structured ? 0.0 + pairwise_sum(element.data() + u * per, per) : element[u];
    alive[n_alive] = u;
    n_alive += (*mask)[u * per] > 0.0f ? 1 : 0;
  }
  alive.resize(n_alive);
  const int64_t k_drop = keep_count(units, drop_to);
  const std::vector<int64_t> keep =
      static_cast<int64_t>(alive.size()) > k_drop ? stable_top_k(score, alive, k_drop) : alive;
  std::vector<uint8_t> kept_unit(static_cast<size_t>(units), 0);
  for (int64_t u : keep) kept_unit[u] = 1;
  std::vector<uint8_t> live_unit = kept_unit;
  const int64_t n_grow = std::max<int64_t>(0, keep_count(units, grow_to) - static_cast<int64_t>(keep.size()));
  if (n_grow > 0) {
    std::vector<int64_t> dead(static_cast<size_t>(units));
    size_t n_dead = 0;
    for (int64_t u = 0; u < units; ++u) {
      dead[n_dead] = u;
      n_dead += kept_unit[u] ? 0 : 1;
    }
    for (int64_t j : grow.sample(static_cast<int64_t>(n_dead), n_grow)) live_unit[dead[j]] = 1;
  }
  kept->assign(static_cast<size_t>(n), 0);
  uint8_t* k = kept->data();
  float* m = mask->data();
  for (int64_t u = 0, i = 0; u < units; ++u) {
    const uint8_t keep_u = kept_unit[u];
    const float live_u = live_unit[u] ? 1.0f : 0.0f;
    for (int64_t e = 0; e < per; ++e, ++i) {
      k[i] = keep_u;
      m[i] = live_u;
      weights[i] = keep_u ? weights[i] : 0.0f;
    }
  }
}

namespace {

constexpr uint32_t kDigit = (1u << 11) - 1;
/// Units a 32-bit count of live ones covers at a time.
constexpr int64_t kKeyChunk = int64_t{1} << 30;

/// Counts of `keys` per 11-bit digit at `shift`, in four interleaved tables: keys crowd into few
/// digits (the dead units' 0, |g| spanning few exponents), and one counter incremented back to back
/// waits on its own store every time. A few keys (a later pass) count in one table: zeroing four
/// would cost more than they save.
std::array<uint32_t, kDigit + 1> digit_counts(const uint32_t* v, size_t size, int shift) {
  std::array<uint32_t, kDigit + 1> hist{};
  if (size < 4 * (kDigit + 1)) {
    for (size_t i = 0; i < size; ++i) ++hist[(v[i] >> shift) & kDigit];
    return hist;
  }
  std::array<std::array<uint32_t, kDigit + 1>, 4> part{};
  size_t i = 0;
  for (; i + 4 <= size; i += 4) {
    for (size_t c = 0; c < 4; ++c) ++part[c][(v[i + c] >> shift) & kDigit];
  }
  for (; i < size; ++i) ++part[0][(v[i] >> shift) & kDigit];
  for (uint32_t d = 0; d <= kDigit; ++d) hist[d] = part[0][d] + part[1][d] + part[2][d] + part[3][d];
  return hist;
}

/// The keys of `in` whose digit at `shift` is `d`, in order, to `out` (room for n keys); how many.
/// Branch-free: the digit's share is too large to predict.
size_t keep_digit_portable(const uint32_t* in, size_t n, int shift, uint32_t d, uint32_t* out) {
  size_t j = 0;
  for (size_t i = 0; i < n; ++i) {
    out[j] = in[i];
    j += ((in[i] >> shift) & kDigit) == d ? 1 : 0;
  }
  return j;
}

#if defined(__x86_64__)
/// For each 8-bit lane mask, its lanes' indices packed to the front (a permutevar8x32 operand).
struct PackedLanes {
  alignas(32) int32_t lanes[256][8];
  PackedLanes() {
    for (int m = 0; m < 256; ++m) {
      int j = 0;
      for (int e = 0; e < 8; ++e) {
        if (m & (1 << e)) lanes[m][j++] = e;
      }
      while (j < 8) lanes[m][j++] = 0;
    }
  }
};

/// keep_digit_portable eight keys at a time: compare, then the kept lanes packed by one permute and
/// stored whole (the next store overwrites the unkept tail; j <= i keeps every store inside n).
__attribute__((target("avx2,popcnt"))) size_t keep_digit_avx2(const uint32_t* in, size_t n, int shift, uint32_t d,
                                                              uint32_t* out) {
  static const PackedLanes packed;
  const __m256i digit = _mm256_set1_epi32(static_cast<int>(d)), low = _mm256_set1_epi32(static_cast<int>(kDigit));
  const __m128i count = _mm_cvtsi32_si128(shift);
  size_t i = 0, j = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i));
    const __m256i eq = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_srl_epi32(v, count), low), digit);
    const int m = _mm256_movemask_ps(_mm256_castsi256_ps(eq));
    const __m256i perm = _mm256_load_si256(reinterpret_cast<const __m256i*>(packed.lanes[m]));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + j), _mm256_permutevar8x32_epi32(v, perm));
    j += static_cast<size_t>(__builtin_popcount(static_cast<unsigned>(m)));
  }
  return j + keep_digit_portable(in + i, n - i, shift, d, out + j);
}

#endif

size_t keep_digit(const uint32_t* in, size_t n, int shift, uint32_t d, uint32_t* out) {
#if defined(__x86_64__)
  if (kernels::kHasAvx2) return keep_digit_avx2(in, n, shift, d, out);
#endif
  return keep_digit_portable(in, n, shift, d, out);
}

/// The k-th largest key, how many keys are larger and how many equal it.
struct Threshold {
  uint32_t key;
  int64_t above, equal;
};

/// The k-th largest of `keys` (1 <= k <= its size): a most-significant-digit radix select, 11 bits a
/// pass, each pass keeping only the keys whose digit holds the k-th (a few streaming passes instead
/// of nth_element's comparisons). `keys` is only read; `equal` and `spare` are its working memory.
Threshold kth_largest(const std::vector<uint32_t>& keys, std::vector<uint32_t>* equal, std::vector<uint32_t>* spare,
                      int64_t k) {
  int64_t above = 0;
  const uint32_t* in = keys.data();
  size_t size = keys.size();
  for (std::vector<uint32_t>* buf : {equal, spare}) {
    if (buf->size() < size) buf->resize(size);  // grown once, never shrunk: no zeroing per refresh
  }
  uint32_t* out = equal->data();
  for (int s : {22, 11, 0}) {
    const auto hist = digit_counts(in, size, s);
    uint32_t d = kDigit;
    while (above + hist[d] < k) above += hist[d--];
    size = keep_digit(in, size, s, d, out);
    in = out;
    out = out == equal->data() ? spare->data() : equal->data();
  }
  return {in[0], above, static_cast<int64_t>(size)};
}

}  // namespace

void dgm_layer_mask(const float* grad, const float* live, int64_t n, double ratio, std::vector<uint8_t>* mask,
                    DgmScratch* scratch) {
  // stable_top_k's threshold rule on integer keys: the keep-th largest key t, every unit above t,
  // then the lowest-index units equal to t. A dead unit's key is 0; a live one's is 1 when g is NaN
  // (below every number), else |g|'s float bits + 2 (|g| >= 0, whose bits grow with its value; -0
  // and +0 one key). So every live unit ranks above every dead one and keep <= n_live never reaches
  // a dead unit; the passes over the layer are branch-free loops (which units are live is not
  // predictable) on 32-bit lanes, so they vectorize.
  std::vector<uint32_t>& keys = scratch->keys;
  keys.resize(static_cast<size_t>(n));
  uint32_t* key = keys.data();
  int64_t n_live = 0;
  for (int64_t i0 = 0; i0 < n; i0 += kKeyChunk) {
    uint32_t on_count = 0;
    for (int64_t i = i0, i1 = std::min(n, i0 + kKeyChunk); i < i1; ++i) {
      uint32_t bits;
      std::memcpy(&bits, grad + i, sizeof bits);
      const uint32_t a = bits & 0x7fffffffu;  // |g|'s bits; above +inf's a NaN
      const uint32_t on = live[i] != 0.0f ? ~0u : 0u;
      key[i] = (a > 0x7f800000u ? 1u : a + 2u) & on;
      on_count += on & 1u;
    }
    n_live += on_count;
  }
  const int64_t keep = n_live - static_cast<int64_t>(std::nearbyint(ratio * static_cast<double>(n_live)));
  mask->resize(static_cast<size_t>(n));
  uint8_t* m = mask->data();
  if (keep <= 0 || keep == n_live) {
    for (int64_t i = 0; i < n; ++i) m[i] = keep > 0 && key[i] != 0 ? 1 : 0;
    return;
  }
  const auto [t, above, equal] = kth_largest(keys, &scratch->bucket, &scratch->spare, keep);
  const int64_t left = keep - above;  // places for the units equal to t
  if (left == equal) {  // all of them (a unique t, the usual case)
    for (int64_t i = 0; i < n; ++i) m[i] = key[i] >= t ? 1 : 0;
    return;
  }
  for (int64_t i = 0; i < n; ++i) m[i] = key[i] > t ? 1 : 0;
  for (int64_t i = 0, rest = left; rest > 0 && i < n; ++i) {  // else the lowest indices among them
    if (key[i] == t) {
      m[i] = 1;
      --rest;
    }
  }
}

}  // namespace edgecl
