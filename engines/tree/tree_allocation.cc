#include "engines/tree/tree_allocation.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <optional>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "filter/burr/burr.h"
#include "filter/filter_policy.h"

namespace sstfilter {
namespace {

// The compact filter's range: one solution column (p = 1/2) up to 30.
constexpr double kCompactMaxFpp = 0.5;
constexpr int kCompactMaxColumns = 30;
// Costs are tabulated at this many rates, evenly in ln p, for the search;
// the final rates are solved with the real costs.
constexpr int kGridPoints = 400;
// The slope a_f is measured over the rates filters are used at.
constexpr double kSlopeLowFpp = 1e-6;
constexpr double kSlopeHighFpp = 0.1;
// Local slopes are secants over this many nats each side of a rate, and the
// rates are re-solved with them this many times (the stationarity condition
// r_i p_i = lambda n_i c'(p_i) then holds with the cost's own slope).
constexpr double kSlopeHalfWidth = 0.25;
constexpr int kSlopeIterations = 6;
// Root finding on ln(lambda) stops when the spend is this close to the
// target (relative) or after this many steps.
constexpr double kSpendTolerance = 1e-9;
constexpr int kMaxSteps = 200;
constexpr int kMaxDescentRounds = 50;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

FilterCost MakeCompactFilterCost() {
  FilterCost cost;
  cost.bits_per_key = [](double fpp) {
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
        NewBurrFilterPolicy(FilterOptions::Fpp(fpp));
    // Callers keep fpp within [min_fpp, max_fpp], which the policy accepts.
    return policy.ok() ? (*policy)->BitsPerKey() : kMaxBitsPerKey;
  };
  cost.min_fpp = std::ldexp(1.0, -kCompactMaxColumns);
  cost.max_fpp = kCompactMaxFpp;
  return cost;
}

// A family's cost: exact, or tabulated for the search.
class Curve {
 public:
  explicit Curve(const FilterCost& cost) : cost_(cost) {
    const double lo = std::log(cost.min_fpp), hi = std::log(cost.max_fpp);
    for (int i = 0; i < kGridPoints; ++i) {
      const double x = lo + (hi - lo) * i / (kGridPoints - 1);
      log_p_.push_back(x);
      bits_.push_back(cost.bits_per_key(std::exp(x)));
    }
    const double p_lo = Clamp(kSlopeLowFpp), p_hi = Clamp(kSlopeHighFpp);
    slope_ = p_hi > p_lo ? (Tabulated(p_lo) - Tabulated(p_hi)) /
                               (std::log(p_hi) - std::log(p_lo))
                         : 1.0;
    slope_ = std::max(slope_, 1e-3);
  }

  double Clamp(double p) const {
    return std::min(std::max(p, cost_.min_fpp), cost_.max_fpp);
  }
  double Exact(double p) const { return cost_.bits_per_key(Clamp(p)); }
  // Linear in ln p between the tabulated rates.
  double Tabulated(double p) const {
    const double x = std::log(Clamp(p));
    const auto it = std::upper_bound(log_p_.begin(), log_p_.end(), x);
    if (it == log_p_.begin()) return bits_.front();
    if (it == log_p_.end()) return bits_.back();
    const size_t i = it - log_p_.begin();
    const double t = (x - log_p_[i - 1]) / (log_p_[i] - log_p_[i - 1]);
    return bits_[i - 1] + t * (bits_[i] - bits_[i - 1]);
  }
  double slope() const { return slope_; }
  // -d bits / d ln p near p: the secant over kSlopeHalfWidth on each side.
  double LocalSlope(double p) const {
    const double x = std::log(Clamp(p));
    const double lo = std::max(x - kSlopeHalfWidth, log_p_.front());
    const double hi = std::min(x + kSlopeHalfWidth, log_p_.back());
    if (!(hi > lo)) return slope_;
    return std::max(
        (Tabulated(std::exp(lo)) - Tabulated(std::exp(hi))) / (hi - lo), 1e-3);
  }
  const FilterCost& cost() const { return cost_; }

 private:
  const FilterCost& cost_;
  std::vector<double> log_p_;
  std::vector<double> bits_;
  double slope_ = 1.0;
};

class Allocator {
 public:
  Allocator(absl::Span<const TreeLevel> tree, double budget,
            const TreeAllocationOptions& options, const FilterCost& native,
            const FilterCost& compact)
      : tree_(tree),
        budget_(budget),
        options_(options),
        native_(native),
        compact_(compact) {
    for (const TreeLevel& level : tree) total_keys_ += level.keys;
  }

  TreeAllocation Run() {
    std::vector<FilterFamily> best = Descend(Seed(FilterFamily::kCompact));
    for (FilterFamily seed : {FilterFamily::kNative, FilterFamily::kNone}) {
      std::vector<FilterFamily> other = Descend(Seed(seed));
      if (Reads(other, /*exact=*/false) < Reads(best, /*exact=*/false)) {
        best = std::move(other);
      }
    }
    return Finish(best);
  }

 private:
  std::vector<FilterFamily> Allowed(size_t level) const {
    if (static_cast<int>(level) < options_.bloom_before_level) {
      return {FilterFamily::kNative, FilterFamily::kNone};
    }
    return {FilterFamily::kNative, FilterFamily::kCompact, FilterFamily::kNone};
  }

  std::vector<FilterFamily> Seed(FilterFamily family) const {
    std::vector<FilterFamily> families(tree_.size());
    for (size_t i = 0; i < tree_.size(); ++i) {
      const std::vector<FilterFamily> allowed = Allowed(i);
      families[i] =
          std::find(allowed.begin(), allowed.end(), family) != allowed.end()
              ? family
              : FilterFamily::kNative;
    }
    return families;
  }

  const Curve& CurveOf(FilterFamily family) const {
    return family == FilterFamily::kCompact ? compact_ : native_;
  }

  // The families of the levels, and the slope each level's rate is solved
  // with.
  struct Plan {
    std::vector<FilterFamily> families;
    std::vector<double> slopes;
  };

  Plan PlanFor(const std::vector<FilterFamily>& families) const {
    Plan plan{families, {}};
    for (FilterFamily family : families) {
      plan.slopes.push_back(
          family == FilterFamily::kNone ? 1.0 : CurveOf(family).slope());
    }
    return plan;
  }

  // Level i's rate for ln(lambda): lambda a_i n_i / r_i, in its range.
  double Rate(const Plan& plan, size_t i, double log_lambda) const {
    if (plan.families[i] == FilterFamily::kNone) return 1.0;
    return CurveOf(plan.families[i])
        .Clamp(std::exp(log_lambda) * plan.slopes[i] * tree_[i].keys /
               tree_[i].runs);
  }

  double Bits(FilterFamily family, double p, bool exact) const {
    if (family == FilterFamily::kNone) return 0.0;
    return exact ? CurveOf(family).Exact(p) : CurveOf(family).Tabulated(p);
  }

  // Bits per key over the tree at ln(lambda).
  double Spend(const Plan& plan, double log_lambda, bool exact) const {
    double bits = 0;
    for (size_t i = 0; i < tree_.size(); ++i) {
      bits += tree_[i].keys *
              Bits(plan.families[i], Rate(plan, i, log_lambda), exact);
    }
    return bits / total_keys_;
  }

  // ln(lambda) whose spend is the budget (the largest spend not above it),
  // or nullopt when even the smallest filters cost more.
  std::optional<double> SolveLambda(const Plan& plan, bool exact) const {
    double lo = kInfinity, hi = -kInfinity;  // every rate at min, at max
    for (size_t i = 0; i < tree_.size(); ++i) {
      if (plan.families[i] == FilterFamily::kNone) continue;
      const Curve& curve = CurveOf(plan.families[i]);
      const double w = plan.slopes[i] * tree_[i].keys / tree_[i].runs;
      lo = std::min(lo, std::log(curve.cost().min_fpp / w) - 1);
      hi = std::max(hi, std::log(curve.cost().max_fpp / w) + 1);
    }
    if (lo == kInfinity) return 0.0;  // no filter anywhere: spends nothing
    if (Spend(plan, hi, exact) > budget_) return std::nullopt;
    if (Spend(plan, lo, exact) <= budget_) return lo;
    for (int step = 0; step < kMaxSteps; ++step) {
      const double mid = 0.5 * (lo + hi);
      const double spend = Spend(plan, mid, exact);
      if (spend > budget_) {
        lo = mid;
      } else {
        hi = mid;
        if (budget_ - spend <= kSpendTolerance * budget_) break;
      }
    }
    return hi;
  }

  // Solves the rates of plan's families, re-solving with each level's local
  // slope at its rate (damped: the costs have kinks where a filter's probe
  // count changes). The ln(lambda) of the last solve, or nullopt when the
  // families cost more than the budget.
  std::optional<double> Solve(Plan* plan, bool exact) const {
    std::optional<double> log_lambda = SolveLambda(*plan, exact);
    for (int it = 0; it < kSlopeIterations && log_lambda.has_value(); ++it) {
      Plan next = *plan;
      for (size_t i = 0; i < tree_.size(); ++i) {
        if (plan->families[i] == FilterFamily::kNone) continue;
        next.slopes[i] = 0.5 * (plan->slopes[i] +
                                CurveOf(plan->families[i])
                                    .LocalSlope(Rate(*plan, i, *log_lambda)));
      }
      const std::optional<double> next_lambda = SolveLambda(next, exact);
      if (!next_lambda.has_value() ||
          ReadsAt(next, *next_lambda) > ReadsAt(*plan, *log_lambda)) {
        break;
      }
      *plan = std::move(next);
      log_lambda = next_lambda;
    }
    return log_lambda;
  }

  double ReadsAt(const Plan& plan, double log_lambda) const {
    double reads = 0;
    for (size_t i = 0; i < tree_.size(); ++i) {
      reads += tree_[i].runs * Rate(plan, i, log_lambda);
    }
    return reads;
  }

  double Reads(const std::vector<FilterFamily>& families, bool exact) const {
    Plan plan = PlanFor(families);
    const std::optional<double> log_lambda = Solve(&plan, exact);
    return log_lambda.has_value() ? ReadsAt(plan, *log_lambda) : kInfinity;
  }

  // Moves one level at a time to the family that lowers the reads most,
  // until none does.
  std::vector<FilterFamily> Descend(std::vector<FilterFamily> families) const {
    double reads = Reads(families, /*exact=*/false);
    for (int round = 0; round < kMaxDescentRounds; ++round) {
      bool improved = false;
      for (size_t i = 0; i < tree_.size(); ++i) {
        for (FilterFamily family : Allowed(i)) {
          if (family == families[i]) continue;
          std::vector<FilterFamily> trial = families;
          trial[i] = family;
          const double trial_reads = Reads(trial, /*exact=*/false);
          if (trial_reads < reads * (1 - 1e-12)) {
            families = std::move(trial);
            reads = trial_reads;
            improved = true;
          }
        }
      }
      if (!improved) break;
    }
    return families;
  }

  // The rates of the chosen families, solved with the real costs.
  TreeAllocation Finish(const std::vector<FilterFamily>& families) const {
    Plan plan = PlanFor(families);
    std::optional<double> log_lambda = Solve(&plan, /*exact=*/true);
    // The tabulated search found these families affordable; should the real
    // costs disagree at the very edge, drop filters from the largest levels
    // (by keys per run) until they are.
    while (!log_lambda.has_value()) {
      size_t drop = tree_.size();
      for (size_t i = 0; i < tree_.size(); ++i) {
        if (plan.families[i] == FilterFamily::kNone) continue;
        if (drop == tree_.size() ||
            tree_[i].keys / tree_[i].runs > tree_[drop].keys / tree_[drop].runs)
          drop = i;
      }
      plan.families[drop] = FilterFamily::kNone;
      log_lambda = Solve(&plan, /*exact=*/true);
    }
    TreeAllocation out;
    double bits = 0;
    for (size_t i = 0; i < tree_.size(); ++i) {
      LevelChoice choice;
      choice.family = plan.families[i];
      choice.fpp = Rate(plan, i, *log_lambda);
      choice.bits_per_key = Bits(choice.family, choice.fpp, /*exact=*/true);
      bits += tree_[i].keys * choice.bits_per_key;
      out.expected_reads += tree_[i].runs * choice.fpp;
      out.levels.push_back(choice);
    }
    out.bits_per_key = bits / total_keys_;
    return out;
  }

  absl::Span<const TreeLevel> tree_;
  const double budget_;
  const TreeAllocationOptions options_;
  const Curve native_;
  const Curve compact_;
  double total_keys_ = 0;
};

absl::Status ValidateCost(const char* what, const FilterCost& cost) {
  if (!cost.bits_per_key || !(cost.min_fpp > 0) ||
      !(cost.min_fpp <= cost.max_fpp) || !(cost.max_fpp < 1)) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " cost: rates [", cost.min_fpp, ", ", cost.max_fpp,
                     "] must lie in (0, 1) and bits_per_key be set"));
  }
  return absl::OkStatus();
}

absl::Status Validate(absl::Span<const TreeLevel> tree, double budget,
                      const TreeAllocationOptions& options,
                      const FilterCost& native, const FilterCost& compact) {
  // The tree and budget rules are Monkey's: reuse its checks.
  if (absl::StatusOr<FilterAllocation> monkey =
          AllocateFilterBits(tree, 0, StandardBloomCost());
      !monkey.ok()) {
    return monkey.status();
  }
  if (!(budget >= 0 && budget <= kMaxBitsPerKey)) {
    return absl::InvalidArgumentError(absl::StrCat("budget_bits_per_key ",
                                                   budget, " is not in [0, ",
                                                   kMaxBitsPerKey, "]"));
  }
  if (options.bloom_before_level < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bloom_before_level ", options.bloom_before_level, " is negative"));
  }
  if (absl::Status s = ValidateCost("native", native); !s.ok()) return s;
  return ValidateCost("compact", compact);
}

}  // namespace

const FilterCost& CompactFilterCost() {
  static const FilterCost* const cost = new FilterCost(MakeCompactFilterCost());
  return *cost;
}

absl::StatusOr<TreeAllocation> AllocateTreeFilters(
    absl::Span<const TreeLevel> tree, double budget_bits_per_key,
    const TreeAllocationOptions& options, const FilterCost& native,
    const FilterCost& compact) {
  if (absl::Status s =
          Validate(tree, budget_bits_per_key, options, native, compact);
      !s.ok()) {
    return s;
  }
  return Allocator(tree, budget_bits_per_key, options, native, compact).Run();
}

absl::StatusOr<TreeAllocation> AllocateTreeFilters(
    absl::Span<const TreeLevel> tree, double budget_bits_per_key,
    const TreeAllocationOptions& options) {
  return AllocateTreeFilters(tree, budget_bits_per_key, options,
                             NativeBloomCost(), CompactFilterCost());
}

}  // namespace sstfilter
