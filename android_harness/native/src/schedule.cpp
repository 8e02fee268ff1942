#include "schedule.h"

#include <algorithm>
#include <cmath>

namespace edgecl {
namespace {

int64_t round_even(double x) { return static_cast<int64_t>(std::nearbyint(x)); }

int64_t epoch_point(double fraction, int64_t epochs) {
  return std::min<int64_t>(std::max<int64_t>(round_even(fraction * static_cast<double>(epochs)), 1), epochs - 1);
}

}  // namespace

std::vector<TdmEvent> tdm_schedule(int64_t epochs, double sparsity, double update_every, double swap,
                                   double freeze_after) {
  if (epochs <= 1) return {{0, "expand", sparsity, sparsity, false}};
  const double grow_start = std::max(sparsity - swap, 0.0);
  std::vector<TdmEvent> events{{0, "expand", sparsity, grow_start, false}};
  const int64_t final_epoch = epoch_point(freeze_after, epochs);
  const int64_t period = std::max<int64_t>(round_even(update_every * static_cast<double>(epochs)), 1);
  for (int64_t e = period; e < final_epoch; e += period) {
    events.push_back({e, "swap", std::min(sparsity + swap, 1.0), sparsity, false});
  }
  events.push_back({final_epoch, "final", sparsity, sparsity, true});
  return events;
}

std::map<int64_t, double> ddr_schedule(int64_t epochs, const std::vector<double>& steps, double fraction) {
  std::map<int64_t, double> points;
  if (epochs < 2 || steps.empty() || fraction <= 0.0) return points;
  const double share = fraction / static_cast<double>(steps.size());
  for (double f : steps) {
    const int64_t e = epoch_point(f, epochs);
    const auto it = points.find(e);
    points[e] = (it == points.end() ? 0.0 : it->second) + share;
  }
  return points;
}

std::map<int64_t, int64_t> ddr_counts(int64_t n, const std::map<int64_t, double>& points) {
  std::map<int64_t, int64_t> counts;
  int64_t removed = 0;
  double cum = 0.0;
  for (const auto& [e, share] : points) {
    cum += share;
    const int64_t target = round_even(cum * static_cast<double>(n));
    counts[e] = target - removed;
    removed = target;
  }
  return counts;
}

int64_t keep_count(int64_t units, double sparsity) {
  return std::max<int64_t>(1, std::min<int64_t>(units, round_even((1.0 - sparsity) * static_cast<double>(units))));
}

}  // namespace edgecl
