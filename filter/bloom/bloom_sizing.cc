// Sizing of the native Bloom filter (see bloom_sizing.h).

#include "filter/bloom/bloom_sizing.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <optional>

#include "absl/base/thread_annotations.h"
#include "absl/strings/str_cat.h"
#include "filter/filter_policy.h"
#include "util/bloom_math.h"
#include "util/mutex.h"

namespace sstfilter {
namespace bloom {

namespace {

// The layout's rates for every k, prepared once per process. Static storage,
// not the heap: the table is 30 KB, and held in the middle of a process's heap
// it can change when glibc returns freed memory to the system (filter_bench's
// builds of 10^4 keys took twice as long, faulting their pages back in on every
// repetition).
const LocalBloomLayout& Layout() {
  static const LocalBloomLayout layout(static_cast<double>(kBlockBits));
  return layout;
}

// The sizings SizeForFpp found for the last few fpps. Each search bisects
// bits/key to a relative 1e-9, evaluating the layout's rate about a thousand
// times (tens of microseconds), while a program asks for few distinct fpps:
// one per configuration, or one per layer of a scalable filter.
class RecentSizings {
 public:
  std::optional<BloomSizing> Find(double fpp) {
    MutexLock lock(&mutex_);
    for (size_t i = 0; i < used_; ++i) {
      if (entries_[i].fpp == fpp) return entries_[i].sizing;
    }
    return std::nullopt;
  }

  // Replaces the oldest entry once every one is used.
  void Add(double fpp, const BloomSizing& sizing) {
    MutexLock lock(&mutex_);
    entries_[next_] = {fpp, sizing};
    next_ = (next_ + 1) % entries_.size();
    used_ = std::min(used_ + 1, entries_.size());
  }

 private:
  struct Entry {
    double fpp;
    BloomSizing sizing;
  };
  Mutex mutex_;
  std::array<Entry, 16> entries_ ABSL_GUARDED_BY(mutex_) = {};
  size_t used_ ABSL_GUARDED_BY(mutex_) = 0;
  size_t next_ ABSL_GUARDED_BY(mutex_) = 0;
};

RecentSizings& Recent() {
  static RecentSizings* const recent = new RecentSizings;
  return *recent;
}

}  // namespace

double LayoutFpp(double bits_per_key, int num_probes) {
  return Layout().Fpp(bits_per_key, num_probes);
}

int OptimalProbes(double bits_per_key) {
  return Layout().OptimalProbes(bits_per_key);
}

absl::StatusOr<BloomSizing> SizeForFpp(double fpp) {
  if (absl::Status status = ValidateFilterOptions(FilterOptions::Fpp(fpp));
      !status.ok()) {
    return status;
  }
  static const double best_fpp = Layout().OptimalFpp(kMaxBitsPerKey);
  if (best_fpp > fpp) {
    return absl::InvalidArgumentError(absl::StrCat(
        "FilterOptions: fpp ", fpp, " is below ", best_fpp,
        ", the lowest this format reaches at ", kMaxBitsPerKey, " bits/key"));
  }
  if (std::optional<BloomSizing> known = Recent().Find(fpp)) return *known;
  const BloomSizing sizing = SizeForBitsPerKey(
      Layout().SmallestBitsPerKey(fpp, kMinBitsPerKey, kMaxBitsPerKey));
  Recent().Add(fpp, sizing);
  return sizing;
}

BloomSizing SizeForBitsPerKey(double bits_per_key) {
  BloomSizing sizing;
  sizing.bits_per_key = bits_per_key;
  sizing.num_probes = OptimalProbes(bits_per_key);
  return sizing;
}

uint64_t BodyBytes(uint64_t num_keys, double bits_per_key) {
  if (num_keys == 0) return 0;
  const long double bits = static_cast<long double>(num_keys) * bits_per_key;
  return std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(bits / 8.0L)));
}

absl::StatusOr<BloomSizing> SizeForOptions(const FilterOptions& options) {
  if (options.fpp.has_value()) return SizeForFpp(*options.fpp);
  return SizeForBitsPerKey(*options.bits_per_key);
}

}  // namespace bloom

namespace bloom_internal {

double FilterFpp(const BodyLayout& layout, uint64_t num_keys, int num_probes) {
  const double keys = static_cast<double>(num_keys);
  const double body_bits = static_cast<double>(layout.body_bits);
  const double last_bits = static_cast<double>(layout.last_block_bits);
  if (layout.num_blocks == 1)
    return LocalBloomFppWithKeys(keys, num_probes, body_bits);
  const double bits_per_key = body_bits / keys;
  const double regular_share = (body_bits - last_bits) / body_bits;
  return regular_share * LayoutFpp(bits_per_key, num_probes) +
         (1.0 - regular_share) *
             LocalBloomFpp(bits_per_key, num_probes, last_bits);
}

}  // namespace bloom_internal
}  // namespace sstfilter
