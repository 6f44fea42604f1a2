#include "engines/tree/per_level_allocation.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "filter/bloom/bloom.h"
#include "filter/bloom/bloom_sizing.h"
#include "filter/filter_policy.h"

namespace sstfilter {
namespace {

constexpr int kMaxTreeLevels = 64;
constexpr double kMaxFanOut = 1000.0;
// Root finding on ln(lambda) or ln(p) stops when the spend is this close to
// the target (relative), or the bracket this narrow: far below the 1e-9 to
// which the native policy itself sizes a filter.
constexpr double kSpendTolerance = 1e-10;
constexpr double kLogBracket = 1e-13;
constexpr int kMaxSteps = 200;

absl::Status ValidateTree(absl::Span<const TreeLevel> tree) {
  if (tree.empty()) {
    return absl::InvalidArgumentError("tree: no levels");
  }
  double total = 0;
  for (size_t i = 0; i < tree.size(); ++i) {
    if (!(std::isfinite(tree[i].keys) && tree[i].keys > 0)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "tree: level ", i, " has keys ", tree[i].keys, "; must be > 0"));
    }
    if (tree[i].runs < 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "tree: level ", i, " has runs ", tree[i].runs, "; must be >= 1"));
    }
    total += tree[i].keys;
  }
  if (!std::isfinite(total)) {
    return absl::InvalidArgumentError(
        "tree: the levels' keys add up to more than a double holds");
  }
  return absl::OkStatus();
}

absl::Status ValidateBudget(double budget) {
  if (!(budget >= 0 && budget <= kMaxBitsPerKey)) {
    return absl::InvalidArgumentError(absl::StrCat("budget_bits_per_key ",
                                                   budget, " is not in [0, ",
                                                   kMaxBitsPerKey, "]"));
  }
  return absl::OkStatus();
}

absl::Status ValidateCost(const FilterCost& cost) {
  if (!cost.bits_per_key || !(cost.min_fpp > 0) ||
      !(cost.min_fpp <= cost.max_fpp) || !(cost.max_fpp < 1)) {
    return absl::InvalidArgumentError(
        absl::StrCat("FilterCost: rates [", cost.min_fpp, ", ", cost.max_fpp,
                     "] must lie in (0, 1) and bits_per_key be set"));
  }
  return absl::OkStatus();
}

absl::Status ValidateInputs(absl::Span<const TreeLevel> tree, double budget,
                            const FilterCost& cost) {
  if (absl::Status s = ValidateTree(tree); !s.ok()) return s;
  if (absl::Status s = ValidateBudget(budget); !s.ok()) return s;
  return ValidateCost(cost);
}

double TotalKeys(absl::Span<const TreeLevel> tree) {
  double total = 0;
  for (const TreeLevel& level : tree) total += level.keys;
  return total;
}

// Sums what an allocation spends and what it saves.
void Summarise(absl::Span<const TreeLevel> tree, FilterAllocation* out) {
  double bits = 0;
  out->expected_reads = 0;
  for (size_t i = 0; i < tree.size(); ++i) {
    bits += tree[i].keys * out->levels[i].bits_per_key;
    out->expected_reads += tree[i].runs * out->levels[i].fpp;
  }
  out->bits_per_key = bits / TotalKeys(tree);
}

// The x in [lo, hi] where the non-increasing f comes down to target, on the
// side where f(x) <= target. Regula falsi with the Illinois step: about ten
// evaluations where bisection takes fifty, and each evaluation of the native
// cost runs the policy's own sizing (0.1-0.3 ms).
// REQUIRES: f(lo) > target >= f(hi).
double Crossing(const std::function<double(double)>& f, double lo, double hi,
                double target) {
  double f_lo = f(lo) - target;  // > 0
  double f_hi = f(hi) - target;  // <= 0
  int last_side = 0;             // which end the previous step moved
  for (int i = 0; i < kMaxSteps && hi - lo > kLogBracket &&
                  -f_hi > kSpendTolerance * std::abs(target);
       ++i) {
    double x = hi - f_hi * (hi - lo) / (f_hi - f_lo);
    if (!(x > lo && x < hi)) x = 0.5 * (lo + hi);  // rounding at the ends
    const double f_x = f(x) - target;
    if (f_x > 0) {
      lo = x;
      f_lo = f_x;
      if (last_side > 0) f_hi *= 0.5;  // Illinois: unstick the far end
      last_side = 1;
    } else {
      hi = x;
      f_hi = f_x;
      if (last_side < 0) f_lo *= 0.5;
      last_side = -1;
    }
  }
  return hi;
}

// The filtered levels of one candidate: p_i = clamp(lambda w_i) with w_i the
// keys per run, lambda such that they spend budget_bits.
class LambdaSolver {
 public:
  LambdaSolver(absl::Span<const TreeLevel> tree,
               const std::vector<size_t>& filtered, const FilterCost& cost)
      : tree_(tree), filtered_(filtered), cost_(cost) {}

  double Rate(size_t level, double lambda) const {
    const double w = tree_[level].keys / tree_[level].runs;
    return std::clamp(lambda * w, cost_.min_fpp, cost_.max_fpp);
  }

  double Spend(double lambda) const {
    double bits = 0;
    for (size_t level : filtered_) {
      bits += tree_[level].keys * cost_.bits_per_key(Rate(level, lambda));
    }
    return bits;
  }

  // The lambda that spends budget_bits, or nullopt when even the smallest
  // filters cost more. With more budget than the largest filters take, the
  // lambda that gives them all the largest.
  std::optional<double> Solve(double budget_bits) const {
    double max_w = 0;
    double min_w = HUGE_VAL;
    for (size_t level : filtered_) {
      const double w = tree_[level].keys / tree_[level].runs;
      max_w = std::max(max_w, w);
      min_w = std::min(min_w, w);
    }
    // Every rate is at its floor below lo and at its ceiling above hi.
    double lo = cost_.min_fpp / max_w;
    double hi = cost_.max_fpp / min_w;
    if (Spend(lo) <= budget_bits) return lo;
    if (Spend(hi) > budget_bits) return std::nullopt;
    // Spend falls as lambda rises (each rate rises, each filter shrinks), and
    // is nearly linear in ln(lambda): the variable to search.
    const double log_lambda =
        Crossing([this](double x) { return Spend(std::exp(x)); }, std::log(lo),
                 std::log(hi), budget_bits);
    return std::exp(log_lambda);
  }

 private:
  absl::Span<const TreeLevel> tree_;
  const std::vector<size_t>& filtered_;
  const FilterCost& cost_;
};

FilterCost MakeNativeBloomCost() {
  FilterCost cost;
  cost.bits_per_key = [](double fpp) {
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
        NewBloomFilterPolicy(FilterOptions::Fpp(fpp));
    // Callers keep fpp within [min_fpp, max_fpp], which the policy accepts;
    // the largest filter is the safe answer should it ever refuse.
    return policy.ok() ? (*policy)->BitsPerKey() : kMaxBitsPerKey;
  };
  // The rates of the policy's own sizing at its smallest and largest sizes.
  cost.min_fpp =
      bloom::LayoutFpp(kMaxBitsPerKey, bloom::OptimalProbes(kMaxBitsPerKey));
  cost.max_fpp =
      bloom::LayoutFpp(kMinBitsPerKey, bloom::OptimalProbes(kMinBitsPerKey));
  return cost;
}

FilterCost MakeStandardBloomCost() {
  static constexpr double kLn2Squared = 0.4804530139182014;  // (ln 2)^2
  FilterCost cost;
  cost.bits_per_key = [](double fpp) { return -std::log(fpp) / kLn2Squared; };
  cost.min_fpp = std::exp(-kMaxBitsPerKey * kLn2Squared);
  cost.max_fpp = std::exp(-kMinBitsPerKey * kLn2Squared);
  return cost;
}

}  // namespace

absl::StatusOr<std::vector<TreeLevel>> LeveledTree(int num_levels,
                                                   double fan_out) {
  if (num_levels < 1 || num_levels > kMaxTreeLevels) {
    return absl::InvalidArgumentError(absl::StrCat(
        "num_levels ", num_levels, " is not in [1, ", kMaxTreeLevels, "]"));
  }
  if (!(fan_out >= 1 && fan_out <= kMaxFanOut)) {
    return absl::InvalidArgumentError(
        absl::StrCat("fan_out ", fan_out, " is not in [1, ", kMaxFanOut, "]"));
  }
  std::vector<TreeLevel> tree(num_levels);
  double keys = 1;
  for (TreeLevel& level : tree) {
    level.keys = keys;
    keys *= fan_out;
  }
  return tree;
}

const FilterCost& NativeBloomCost() {
  static const FilterCost* const cost = new FilterCost(MakeNativeBloomCost());
  return *cost;
}

const FilterCost& StandardBloomCost() {
  static const FilterCost* const cost = new FilterCost(MakeStandardBloomCost());
  return *cost;
}

absl::StatusOr<FilterAllocation> AllocateFilterBits(
    absl::Span<const TreeLevel> tree, double budget_bits_per_key,
    const FilterCost& cost) {
  if (absl::Status s = ValidateInputs(tree, budget_bits_per_key, cost);
      !s.ok()) {
    return s;
  }
  const double budget_bits = budget_bits_per_key * TotalKeys(tree);

  // Levels by keys per run, largest first: the order in which they give up
  // their filters (Monkey's cap at p = 1).
  std::vector<size_t> order(tree.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return tree[a].keys / tree[a].runs > tree[b].keys / tree[b].runs;
  });

  std::optional<FilterAllocation> best;
  double unfiltered_reads = 0;  // runs of the levels without a filter
  for (size_t cut = 0; cut <= order.size(); ++cut) {
    if (cut > 0) unfiltered_reads += tree[order[cut - 1]].runs;
    // Each unfiltered run costs a read: past this, no cut can do better.
    if (best.has_value() && unfiltered_reads >= best->expected_reads) break;
    const std::vector<size_t> filtered(order.begin() + cut, order.end());
    FilterAllocation candidate;
    candidate.levels.resize(tree.size());  // no filter unless set below
    if (!filtered.empty()) {
      const LambdaSolver solver(tree, filtered, cost);
      const std::optional<double> lambda = solver.Solve(budget_bits);
      if (!lambda.has_value()) continue;  // the smallest filters cost too much
      for (size_t level : filtered) {
        LevelFilter& filter = candidate.levels[level];
        filter.fpp = solver.Rate(level, *lambda);
        filter.bits_per_key = cost.bits_per_key(filter.fpp);
      }
    }
    Summarise(tree, &candidate);
    if (!best.has_value() || candidate.expected_reads < best->expected_reads) {
      best = std::move(candidate);
    }
  }
  // The last cut (no filters at all) is always affordable, so best is set.
  return *std::move(best);
}

absl::StatusOr<FilterAllocation> UniformFilterBits(
    absl::Span<const TreeLevel> tree, double budget_bits_per_key,
    const FilterCost& cost) {
  if (absl::Status s = ValidateInputs(tree, budget_bits_per_key, cost);
      !s.ok()) {
    return s;
  }
  FilterAllocation out;
  out.levels.resize(tree.size());
  if (budget_bits_per_key == 0) {
    Summarise(tree, &out);
    return out;
  }
  const double smallest = cost.bits_per_key(cost.max_fpp);
  const double largest = cost.bits_per_key(cost.min_fpp);
  if (budget_bits_per_key < smallest || budget_bits_per_key > largest) {
    return absl::InvalidArgumentError(absl::StrCat(
        "budget_bits_per_key ", budget_bits_per_key,
        " is neither 0 nor a filter size in [", smallest, ", ", largest, "]"));
  }
  // The rate whose filter is budget_bits_per_key, searched on ln(p): the
  // cost falls as p rises.
  double fpp = cost.min_fpp;
  if (largest > budget_bits_per_key) {
    fpp = std::exp(Crossing(
        [&cost](double x) { return cost.bits_per_key(std::exp(x)); },
        std::log(cost.min_fpp), std::log(cost.max_fpp), budget_bits_per_key));
  }
  for (LevelFilter& filter : out.levels) {
    filter.fpp = fpp;
    filter.bits_per_key = cost.bits_per_key(fpp);
  }
  Summarise(tree, &out);
  return out;
}

}  // namespace sstfilter
