// Schedules, water filling, stable top-k, DDR, DGM and TDM (docs/semantics.md sections 5, 7-9).
#include <algorithm>
#include <cmath>

#include "policies.h"
#include "pool.h"
#include "schedule.h"
#include "unit.h"

using namespace edgecl;

TEST(tdm_schedule_reference_50_epochs) {
  // schedule.py's docstring: expand at 0, swap at 5..40, final drop at 45.
  const auto ev = tdm_schedule(50, 0.75, 0.1, 0.01, 0.9);
  CHECK_EQ(ev.size(), 10u);
  CHECK(ev[0].kind == "expand" && ev[0].epoch == 0 && ev[0].drop_to == 0.75 && ev[0].grow_to == 0.75 - 0.01);
  for (int i = 1; i <= 8; ++i) CHECK(ev[i].kind == "swap" && ev[i].epoch == 5 * i && !ev[i].freeze);
  CHECK(ev[9].kind == "final" && ev[9].epoch == 45 && ev[9].freeze && ev[9].grow_to == 0.75);
  const auto one = tdm_schedule(1, 0.5, 0.1, 0.01, 0.9);
  CHECK(one.size() == 1 && one[0].drop_to == 0.5 && one[0].grow_to == 0.5);
}

TEST(ddr_schedule_and_counts) {
  const auto points = ddr_schedule(50, {0.1, 0.2, 0.3, 0.4}, 0.3);
  CHECK_EQ(points.size(), 4u);
  CHECK(points.count(5) && points.count(10) && points.count(15) && points.count(20));
  const auto counts = ddr_counts(1000, points);
  int64_t total = 0;
  for (const auto& [e, n] : counts) total += n;
  CHECK_EQ(total, 300);
  CHECK(ddr_schedule(1, {0.5}, 0.3).empty());
  // Merged points add up; a 3-epoch task clamps every point into [1, 2].
  const auto merged = ddr_schedule(3, {0.1, 0.2, 0.9}, 0.3);
  CHECK_EQ(merged.size(), 2u);
  CHECK_EQ(ddr_counts(10, merged).at(1), 2);
}

TEST(keep_count_rounds_half_even_and_keeps_one) {
  CHECK_EQ(keep_count(10, 0.75), 2);   // round(2.5) = 2
  CHECK_EQ(keep_count(14, 0.75), 4);   // round(3.5) = 4
  CHECK_EQ(keep_count(3, 0.99), 1);
  CHECK_EQ(keep_count(5, 0.0), 5);
}

TEST(water_filling) {
  // 10 slots over classes with 2, 10, 10 records: 2 + 4 + 4.
  auto q = em_quotas({{0, 2}, {1, 10}, {3, 10}}, 10);
  CHECK(q.at(0) == 2 && q.at(1) == 4 && q.at(3) == 4);
  // Remainder to the lower labels: 7 over three big classes = 3, 2, 2.
  q = em_quotas({{2, 50}, {5, 50}, {9, 50}}, 7);
  CHECK(q.at(2) == 3 && q.at(5) == 2 && q.at(9) == 2);
  // Fewer records than slots: everything.
  q = em_quotas({{0, 1}, {1, 2}}, 100);
  CHECK(q.at(0) == 1 && q.at(1) == 2);
  CHECK(em_quotas({}, 10).empty());
  const auto refs = build_em_refs(3, 1, {{0, 5}, {4, 3}}, 4);
  CHECK_EQ(refs.size(), 4u);
  CHECK(refs[0].first == 0 && refs[1].first == 0 && refs[2].first == 4 && refs[3].first == 4);
  CHECK(refs[0].second < refs[1].second && refs[2].second < refs[3].second);
}

TEST(stable_top_k_ties_go_to_lower_index) {
  const std::vector<double> score = {1.0, 3.0, 3.0, 2.0, 3.0, NAN};
  CHECK(stable_top_k(score, {0, 1, 2, 3, 4, 5}, 2) == std::vector<int64_t>({1, 2}));
  CHECK(stable_top_k(score, {5, 4, 3, 2}, 2) == std::vector<int64_t>({2, 4}));
  CHECK(stable_top_k(score, {0, 5}, 1) == std::vector<int64_t>({0}));
  CHECK(stable_top_k(score, {0, 1}, 5) == std::vector<int64_t>({0, 1}));
}

TEST(ddr_events_and_removal) {
  DdrState d;
  d.reset(5);
  // row 0: correct, wrong, correct, wrong -> 2 events; row 1 never correct -> inf; row 2 one event;
  // rows 3, 4: always correct -> 0 (tie: lower row first).
  for (bool ok : {true, false, true, false}) d.observe(0, ok);
  d.observe(1, false);
  for (bool ok : {true, false}) d.observe(2, ok);
  d.observe(3, true);
  d.observe(4, true);
  CHECK(d.events == std::vector<int64_t>({2, 0, 1, 0, 0}));
  CHECK(d.remove(3) == std::vector<int64_t>({2, 3, 4}));
  CHECK_EQ(d.active_count(), 2);
  CHECK(d.seen == std::vector<uint8_t>(5, 0));  // the window restarted
  CHECK(d.remove(10) == std::vector<int64_t>({0, 1}));
}

TEST(dgm_mask_keeps_largest_live_gradients) {
  const std::vector<float> g = {0.5f, -2.0f, 1.0f, -1.0f, 3.0f, 0.0f};
  const std::vector<float> live = {1, 1, 1, 1, 0, 1};  // 5 live; ratio 0.4 masks round(2.0) = 2
  std::vector<uint8_t> m;
  DgmScratch scratch;
  dgm_layer_mask(g.data(), live.data(), 6, 0.4, &m, &scratch);
  CHECK(m == std::vector<uint8_t>({0, 1, 1, 1, 0, 0}));  // |g| 2, 1, 1 (tie kept by index), dead unit 4 never
}

// The definition, stable_top_k's rule over live units by double(|g|), NaN below every number, against
// the radix select on layers across its paths: one and four count tables, a vector tail, heavy ties
// (few distinct values), NaN, -0 and +0, every unit live or none.
TEST(dgm_mask_equals_a_stable_sort_of_live_gradients) {
  Stream s(9, Purpose::kEpoch, 1, 0);
  const float specials[] = {0.0f, -0.0f, std::nanf(""), 1.0f, -1.0f, 2.5e-3f, -2.5e-3f, 1e-30f};
  for (int64_t n : {1, 7, 8, 13, 300, 8191, 8192, 20003}) {
    for (int kind = 0; kind < 4; ++kind) {
      std::vector<float> g(static_cast<size_t>(n)), live(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) {
        const uint64_t r = s.next();
        const float v = static_cast<float>(static_cast<double>(r >> 40) / 16777216.0 - 0.5) * 1e-2f;
        g[i] = kind == 1 ? specials[r % 8] : kind == 2 ? static_cast<float>(r % 5) : v;
        live[i] = kind == 3 ? 1.0f : (r >> 8) % 3 != 0 ? 1.0f : 0.0f;
      }
      for (double ratio : {0.0, 0.2, 0.5, 1.0}) {
        std::vector<int64_t> order;
        for (int64_t i = 0; i < n; ++i) {
          if (live[i] != 0.0f) order.push_back(i);
        }
        const auto score = [&](int64_t i) { return std::isnan(g[i]) ? -1.0 : std::fabs(static_cast<double>(g[i])); };
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return score(a) > score(b); });
        const auto n_live = static_cast<int64_t>(order.size());
        const int64_t keep = n_live - static_cast<int64_t>(std::nearbyint(ratio * static_cast<double>(n_live)));
        std::vector<uint8_t> want(static_cast<size_t>(n), 0), got;
        for (int64_t r = 0; r < keep; ++r) want[order[r]] = 1;
        DgmScratch scratch;
        dgm_layer_mask(g.data(), live.data(), n, ratio, &got, &scratch);
        CHECK(got == want);
      }
    }
  }
}

TEST(tdm_update_drops_grows_and_zeroes) {
  std::vector<float> w = {0.1f, -0.9f, 0.5f, 0.0f, 0.0f, 0.3f, 0.0f, 0.0f};
  std::vector<float> live = {1, 1, 1, 0, 0, 1, 0, 0};
  std::vector<uint8_t> kept;
  Stream grow(1, Purpose::kTdmGrow, 0, 0);
  // drop to sparsity 0.75 (keep 2 of 8), grow to 0.5 (4 live).
  tdm_update_layer(w.data(), nullptr, 8, 2, false, 0.5, 0.75, 0.5, grow, &live, &kept);
  CHECK(kept == std::vector<uint8_t>({0, 1, 1, 0, 0, 0, 0, 0}));
  int on = 0;
  for (float v : live) on += v != 0.0f;
  CHECK_EQ(on, 4);
  CHECK(live[1] == 1 && live[2] == 1);
  CHECK(w[0] == 0.0f && w[5] == 0.0f && w[1] == -0.9f && w[2] == 0.5f);
  // With a gradient the score is |w| + lam * |g|: unit 0 now beats unit 2.
  std::vector<float> w2 = {0.1f, -0.9f, 0.5f, 0.3f};
  std::vector<float> g2 = {2.0f, 0.0f, 0.0f, 0.0f};
  std::vector<float> live2 = {1, 1, 1, 1};
  Stream grow2(1, Purpose::kTdmGrow, 0, 1);
  tdm_update_layer(w2.data(), g2.data(), 4, 2, false, 0.5, 0.5, 0.5, grow2, &live2, &kept);
  CHECK(live2 == std::vector<float>({1, 1, 0, 0}));
  CHECK(!std::signbit(w[0]));  // set to +0, not multiplied
}

TEST(tdm_structured_units_are_channels) {
  // 3 channels of 2 weights: channel scores 0.3, 1.1, 0.9 -> keep 2 channels (1, 2), grow none.
  std::vector<float> w = {0.1f, -0.2f, 1.0f, 0.1f, -0.4f, 0.5f};
  std::vector<float> mask(6, 1.0f);
  std::vector<uint8_t> kept;
  Stream grow(1, Purpose::kTdmGrow, 0, 2);
  tdm_update_layer(w.data(), nullptr, 6, 3, true, 0.0, 1.0 / 3.0, 1.0 / 3.0, grow, &mask, &kept);
  CHECK(mask == std::vector<float>({0, 0, 1, 1, 1, 1}));
  CHECK(w[0] == 0.0f && w[1] == 0.0f && w[4] == -0.4f);
  std::vector<double> v(300);
  for (int i = 0; i < 300; ++i) v[i] = 1.0 / (i + 1);
  double seq = 0.0;
  for (double x : v) seq += x;
  CHECK(std::fabs(pairwise_sum(v.data(), 300) - seq) < 1e-12);
}

TEST(epoch_order_wraps_around) {
  const std::vector<uint8_t> removed = {0, 1, 0, 0, 0};  // 4 active SB rows + 3 EM slots = 7 entries
  const EpochOrder o = epoch_order(9, 2, 0, removed, 3, true, 4);
  CHECK_EQ(o.perm.size(), 7u);
  CHECK_EQ(o.steps(), 2);
  const auto last = o.step_entries(1);
  CHECK(last[3] == o.perm[0]);  // entry 7 wraps to entry 0
  std::vector<int64_t> sorted = o.perm;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == std::vector<int64_t>({0, 2, 3, 4, 5, 6, 7}));
  const EpochOrder sb_only = epoch_order(9, 2, 0, removed, 3, false, 8);
  CHECK_EQ(sb_only.perm.size(), 4u);
  CHECK_EQ(sb_only.steps(), 1);
  CHECK_EQ(sb_only.step_entries(0).size(), 8u);  // a pool smaller than B repeats rows
}

TEST(step_weights) {
  StreamBuffer sb(2, 3);
  sb.data.resize(2);
  sb.data.y = {1, 2};
  sb.data.ids = {10, 11};
  EpisodicMemory em(2, 3);
  em.refs = {{0, 0}};
  em.data.resize(1);
  em.data.y = {0};
  em.data.ids = {99};
  em.data.logits = {1.0f, 2.0f, 3.0f};
  StepBatch b(4, 2, 3);
  fill_step({0, 2, 1, 2}, sb, em, {1, 2}, {Method::kDerpp, 0.3, 0.5, true}, &b);
  CHECK(b.ids == std::vector<int64_t>({10, 99, 11, 99}));
  CHECK_EQ(b.ce_weight[0], static_cast<float>(1.0 / 4));
  CHECK_EQ(b.ce_weight[1], static_cast<float>(0.5 / 4));
  CHECK_EQ(b.mse_weight[1], static_cast<float>(0.3 / 4));
  CHECK(b.logit_mask[0] == 0 && b.logit_mask[1] == 1 && b.logit_mask[2] == 1);
  CHECK(b.logit_mask[3] == 1 && b.logit_mask[4] == 1 && b.logit_mask[5] == 1);
  CHECK(b.target[3] == 1.0f && b.target[5] == 3.0f && b.target[0] == 0.0f);
  const float logits[3] = {5.0f, 1.0f, 1.0f};
  const float mask[3] = {0, 1, 1};
  CHECK_EQ(masked_argmax(logits, mask, 3), 1);  // tie between classes 1 and 2: the lowest
}

TEST(sb_rows_and_subset) {
  CHECK(sb_rows(1, 0, 3, 10) == std::vector<int64_t>({0, 1, 2}));
  const auto rows = sb_rows(1, 0, 100, 10);
  CHECK_EQ(rows.size(), 10u);
  CHECK(std::is_sorted(rows.begin(), rows.end()));
  CHECK_EQ(subset(1, 0, 0, 10, 1.0).size(), 10u);
  CHECK_EQ(subset(1, 0, 0, 10, 0.25).size(), 2u);  // round(2.5) = 2
  CHECK_EQ(subset(1, 0, 1, 3, 0.01).size(), 1u);   // at least one
}
