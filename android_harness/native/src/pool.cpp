#include "pool.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "rng.h"

namespace edgecl {

std::vector<int64_t> sb_rows(uint64_t seed, int64_t task, int64_t n, int64_t cap) {
  std::vector<int64_t> rows;
  if (n <= cap) {
    for (int64_t r = 0; r < n; ++r) rows.push_back(r);
    return rows;
  }
  Stream s(seed, Purpose::kSbFill, static_cast<uint64_t>(task), 0);
  rows = s.sample(n, cap);
  std::sort(rows.begin(), rows.end());
  return rows;
}

std::vector<int64_t> subset(uint64_t seed, int64_t task, int64_t which, int64_t n, double f) {
  std::vector<int64_t> out;
  if (f >= 1.0) {
    for (int64_t i = 0; i < n; ++i) out.push_back(i);
    return out;
  }
  if (n == 0) return out;
  const int64_t k = std::max<int64_t>(1, static_cast<int64_t>(std::nearbyint(f * static_cast<double>(n))));
  Stream s(seed, Purpose::kSubset, static_cast<uint64_t>(task), static_cast<uint64_t>(which));
  out = s.sample(n, std::min(k, n));
  std::sort(out.begin(), out.end());
  return out;
}

std::map<int64_t, int64_t> em_quotas(const std::map<int64_t, int64_t>& records, int64_t em_size) {
  std::map<int64_t, int64_t> take;
  std::vector<int64_t> open;
  for (const auto& [c, n] : records) {
    if (n > 0) {
      take[c] = 0;
      open.push_back(c);
    }
  }
  int64_t left = em_size;
  while (left > 0 && !open.empty()) {
    const int64_t k = static_cast<int64_t>(open.size());
    const int64_t base = left / k, extra = left % k;
    for (int64_t i = 0; i < k; ++i) {
      const int64_t c = open[i];
      const int64_t give = base + (i < extra ? 1 : 0);
      const int64_t add = std::min(give, records.at(c) - take[c]);
      take[c] += add;
      left -= add;
    }
    std::vector<int64_t> still;
    for (int64_t c : open) {
      if (take[c] < records.at(c)) still.push_back(c);
    }
    open.swap(still);
  }
  return take;
}

std::vector<RecordRef> build_em_refs(uint64_t seed, int64_t task, const std::map<int64_t, int64_t>& records,
                                     int64_t em_size) {
  std::vector<RecordRef> refs;
  for (const auto& [c, take] : em_quotas(records, em_size)) {
    Stream s(seed, Purpose::kEmBuild, static_cast<uint64_t>(task), static_cast<uint64_t>(c));
    std::vector<int64_t> ks = s.sample(records.at(c), take);
    std::sort(ks.begin(), ks.end());
    for (int64_t k : ks) refs.emplace_back(c, k);
  }
  return refs;
}

int64_t EpochOrder::steps() const {
  const int64_t n = static_cast<int64_t>(perm.size());
  return (n + batch - 1) / batch;
}

std::vector<int64_t> EpochOrder::step_entries(int64_t k) const {
  const int64_t n = static_cast<int64_t>(perm.size());
  std::vector<int64_t> out(static_cast<size_t>(batch));
  for (int64_t i = 0; i < batch; ++i) out[i] = perm[(k * batch + i) % n];
  return out;
}

EpochOrder epoch_order(uint64_t seed, int64_t task, int64_t epoch, const std::vector<uint8_t>& removed, int64_t n_em,
                       bool use_em, int64_t batch) {
  EpochOrder order;
  order.batch = batch;
  const int64_t n_sb = static_cast<int64_t>(removed.size());
  for (int64_t r = 0; r < n_sb; ++r) {
    if (!removed[r]) order.perm.push_back(r);
  }
  if (use_em) {
    for (int64_t s = 0; s < n_em; ++s) order.perm.push_back(n_sb + s);
  }
  Stream(seed, Purpose::kEpoch, static_cast<uint64_t>(task), static_cast<uint64_t>(epoch)).shuffle(order.perm);
  return order;
}

StepBatch::StepBatch(int64_t rows_, int64_t numel_, int64_t classes_)
    : rows(rows_), numel(numel_), classes(classes_),
      x(static_cast<size_t>(rows_ * numel_)), logit_mask(static_cast<size_t>(rows_ * classes_)),
      ce_weight(static_cast<size_t>(rows_)), target(static_cast<size_t>(rows_ * classes_)),
      mse_weight(static_cast<size_t>(rows_)), y(static_cast<size_t>(rows_)), ids(static_cast<size_t>(rows_)) {}

void fill_step(const std::vector<int64_t>& entries, const StreamBuffer& sb, const EpisodicMemory& em,
               const std::vector<int64_t>& task_classes, const RowWeights& w, StepBatch* b) {
  const int64_t n_sb = sb.size(), c = b->classes;
  const double B = static_cast<double>(b->rows);
  const float sb_ce = static_cast<float>(1.0 / B);
  const bool replay = replays(w.method);
  const bool task_only = w.current_task_logits_only && replay;
  const float em_ce = static_cast<float>((keeps_logits(w.method) ? w.beta : 1.0) / B);
  const float em_mse = keeps_logits(w.method) ? static_cast<float>(w.alpha / B) : 0.0f;
  std::vector<float> task_mask(static_cast<size_t>(c), task_only ? 0.0f : 1.0f);
  if (task_only) {
    for (int64_t k : task_classes) task_mask[k] = 1.0f;
  }
  for (int64_t i = 0; i < b->rows; ++i) {
    const int64_t e = entries[i];
    float* mask = b->logit_mask.data() + i * c;
    float* target = b->target.data() + i * c;
    const SampleRows& src = e < n_sb ? sb.data : em.data;
    const int64_t r = e < n_sb ? e : e - n_sb;
    std::memcpy(b->x.data() + i * b->numel, src.x_row(r), sizeof(float) * static_cast<size_t>(b->numel));
    b->y[i] = src.y[r];
    b->ids[i] = src.ids[r];
    if (e < n_sb) {
      std::memcpy(mask, task_mask.data(), sizeof(float) * static_cast<size_t>(c));
      b->ce_weight[i] = sb_ce;
      b->mse_weight[i] = 0.0f;
      std::fill(target, target + c, 0.0f);
    } else {
      std::fill(mask, mask + c, 1.0f);
      b->ce_weight[i] = em_ce;
      b->mse_weight[i] = em_mse;
      if (keeps_logits(w.method)) {
        std::memcpy(target, em.data.logits_row(r), sizeof(float) * static_cast<size_t>(c));
      } else {
        std::fill(target, target + c, 0.0f);
      }
    }
  }
}

int64_t masked_argmax(const float* logits, const float* mask, int64_t classes) {
  int64_t best = -1;
  for (int64_t k = 0; k < classes; ++k) {
    if (mask[k] == 0.0f) continue;
    if (best < 0 || logits[k] > logits[best]) best = k;
  }
  return best;
}

}  // namespace edgecl
