#include "filter/leveldb/leveldb_bloom.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "filter/bloom_like_policy.h"
#include "filter/format_registry.h"
#include "filter/internal/verdict.h"
#include "filter/policy_spec.h"
#include "util/bloom_math.h"
#include "util/hash.h"

namespace sstfilter {
namespace {

using filter_internal::ConstantAnswer;
using filter_internal::Verdict;

// LevelDB's floor on the bit array: tiny filters stay useful.
constexpr size_t kMinFilterBits = 64;
// delta = hash rotated right by this many bits.
constexpr int kDeltaRotation = 17;
// LevelDB's k = floor(0.69 * bits/key).
constexpr double kLevelDbProbesPerBit = 0.69;
// A filter built from an fpp and at least this many bits is checked against
// sample hashes: below it LevelDB's probe sequence behaves as an ideal Bloom
// filter's, above it (from about 2^18 bits) its correlated probes drift.
constexpr size_t kCheckedFilterBits = size_t{1} << 16;
// Sample hashes for that check (SampledFpp, util/bloom_math.h): enough for
// about kCheckSampleMatches matches at the target rate, within
// [kMinCheckSamples, kMaxCheckSamples].
constexpr double kCheckSampleMatches = 1024;
constexpr size_t kMinCheckSamples = size_t{1} << 12;
constexpr size_t kMaxCheckSamples = size_t{1} << 20;
// A filter that misses its target is rebuilt this much larger, at most
// kMaxGrowths times (and never past kMaxBitsPerKey).
constexpr double kGrowthFactor = 1.2;
constexpr int kMaxGrowths = 8;

uint32_t ProbeDelta(uint32_t h) {
  return (h >> kDeltaRotation) | (h << (32 - kDeltaRotation));
}

// Sets the bits of one key hash in an array of num_bits bits. Bits is uint32_t
// for arrays under 2^32 bits (a 32-bit division is several times cheaper than a
// 64-bit one; h < 2^32, so both give the same bit).
template <typename Bits>
void SetProbes(uint32_t h, int k, Bits num_bits, char* array) {
  const uint32_t delta = ProbeDelta(h);
  for (int i = 0; i < k; ++i) {
    const Bits bit = h % num_bits;
    array[bit / 8] = static_cast<char>(array[bit / 8] | (1 << (bit % 8)));
    h += delta;
  }
}

// Always inlined, so that each sampled rate below holds its own copy.
template <typename Bits>
__attribute__((always_inline)) inline bool TestProbes(uint32_t h, int k,
                                                      Bits num_bits,
                                                      const char* array) {
  const uint32_t delta = ProbeDelta(h);
  for (int i = 0; i < k; ++i) {
    const Bits bit = h % num_bits;
    if ((array[bit / 8] & (1 << (bit % 8))) == 0) return false;
    h += delta;
  }
  return true;
}

bool FitsUint32(size_t num_bits) { return num_bits <= UINT32_MAX; }

bool ProbesMatch(uint32_t h, int k, size_t num_bits, const char* array) {
  if (FitsUint32(num_bits)) {
    return TestProbes(h, k, static_cast<uint32_t>(num_bits), array);
  }
  return TestProbes(h, k, num_bits, array);
}

// The fraction of num_samples evenly spread 32-bit hash values that match
// (SampledFpp, util/bloom_math.h): the false-positive rate of the filter for a
// uniformly distributed hash, measured rather than modelled, because no
// formula captures LevelDB's correlated probes.
double SampledFilterFpp(const char* array, size_t num_bits, int k,
                        size_t num_samples) {
  if (FitsUint32(num_bits)) {
    const auto bits32 = static_cast<uint32_t>(num_bits);
    return SampledFpp(
        [=](uint32_t h) { return TestProbes(h, k, bits32, array); },
        num_samples);
  }
  return SampledFpp(
      [=](uint32_t h) { return TestProbes(h, k, num_bits, array); },
      num_samples);
}

class LevelDbBloomBuilder : public FilterBuilder {
 public:
  // target_fpp > 0: the policy was built from this fpp, and large filters are
  // checked against it (see Finish).
  LevelDbBloomBuilder(double bits_per_key, int k, double target_fpp)
      : bits_per_key_(bits_per_key), k_(k), target_fpp_(target_fpp) {}

  void AddKey(absl::string_view key) override {
    hashes_.push_back(LevelDbBloomHash(key));
  }

  size_t NumAdded() const override { return hashes_.size(); }

  // With a target fpp, a filter of kCheckedFilterBits or more is measured
  // against sample hashes and rebuilt kGrowthFactor larger until it meets the
  // target: LevelDB's probe sequence makes large filters worse than the
  // standard formula says (1.5% instead of 1% at 100,000 keys), and a policy
  // built from an fpp promises that rate. Filters stay readable by LevelDB,
  // which takes the size from the filter.
  void Finish(std::string* dst) override {
    const size_t start = dst->size();
    double bits_per_key = bits_per_key_;
    for (int growths = 0;; ++growths) {
      dst->resize(start);
      const size_t num_bits = Write(bits_per_key, dst);
      if (!(target_fpp_ > 0) || num_bits < kCheckedFilterBits ||
          growths == kMaxGrowths || bits_per_key >= kMaxBitsPerKey) {
        break;
      }
      const double samples = std::clamp(kCheckSampleMatches / target_fpp_,
                                        static_cast<double>(kMinCheckSamples),
                                        static_cast<double>(kMaxCheckSamples));
      if (SampledFilterFpp(dst->data() + start, num_bits, k_,
                           static_cast<size_t>(samples)) <= target_fpp_) {
        break;
      }
      bits_per_key = std::min(bits_per_key * kGrowthFactor, kMaxBitsPerKey);
    }
    hashes_.clear();
  }

 private:
  // Appends the filter of hashes_ at bits_per_key; returns its number of bits.
  size_t Write(double bits_per_key, std::string* dst) const {
    // LevelDB computes n * bits_per_key in integers; for an integer
    // bits_per_key the floor below is the same number.
    size_t num_bits =
        static_cast<size_t>(static_cast<double>(hashes_.size()) * bits_per_key);
    num_bits = std::max(num_bits, kMinFilterBits);
    const size_t num_bytes = (num_bits + 7) / 8;
    num_bits = num_bytes * 8;

    const size_t start = dst->size();
    dst->resize(start + num_bytes, 0);
    dst->push_back(static_cast<char>(k_));  // Remember # of probes in filter
    char* array = &(*dst)[start];
    if (FitsUint32(num_bits)) {
      const auto bits32 = static_cast<uint32_t>(num_bits);
      for (uint32_t h : hashes_) SetProbes(h, k_, bits32, array);
    } else {
      for (uint32_t h : hashes_) SetProbes(h, k_, num_bits, array);
    }
    return num_bits;
  }

  const double bits_per_key_;
  const int k_;
  const double target_fpp_;
  std::vector<uint32_t> hashes_;  // 4 bytes per key; the keys are not kept
};

class LevelDbBloomReader : public FilterReader {
 public:
  explicit LevelDbBloomReader(absl::string_view filter) {
    if (filter.size() < 2) {
      verdict_ = Verdict::kMatchNothing;
      return;
    }
    const uint8_t k = static_cast<uint8_t>(filter.back());
    if (k > kMaxProbes || k == 0) {
      verdict_ = Verdict::kMatchAll;
      return;
    }
    verdict_ = Verdict::kProbe;
    array_ = filter.data();
    num_bits_ = (filter.size() - 1) * 8;
    k_ = k;
  }

  bool MayMatch(absl::string_view key) const override {
    if (verdict_ != Verdict::kProbe) return ConstantAnswer(verdict_);
    return ProbesMatch(LevelDbBloomHash(key), k_, num_bits_, array_);
  }
  using FilterReader::MayMatch;

  // Measured on the filter itself, since the format stores no key count: the
  // fraction of kFppSampleHashes (util/bloom_math.h) evenly spread 32-bit hash
  // values that match. A formula from the fill would not do: LevelDB's probe
  // sequence correlates probes, so large filters set fewer bits yet match more
  // often than an ideal Bloom filter (1.3% measured against a 0.43% fill
  // estimate at 10^6 keys and 10 bits/key), and the sample sees that. Sampling
  // error is about 1 / sqrt(kFppSampleHashes * p) relative (4% at p = 1%).
  // When no sample matches, the fill estimate (bits set / bits)^k stands in.
  // Costs kFppSampleHashes probes.
  double ExpectedFpp() const override {
    if (verdict_ != Verdict::kProbe) {
      return verdict_ == Verdict::kMatchAll ? 1.0 : 0.0;
    }
    const double sampled =
        SampledFilterFpp(array_, num_bits_, k_, kFppSampleHashes);
    if (sampled > 0) return sampled;
    size_t set = 0;
    for (size_t i = 0; i < num_bits_ / 8; ++i) {
      set += static_cast<size_t>(
          __builtin_popcount(static_cast<uint8_t>(array_[i])));
    }
    if (set == 0) return 0.0;  // no probe can match
    // Never 0 for a filter that can match: the API reserves 0 for "matches
    // nothing" (the power underflows for very sparse, very large arrays).
    return std::max(
        std::pow(static_cast<double>(set) / static_cast<double>(num_bits_), k_),
        std::numeric_limits<double>::min());
  }

 private:
  Verdict verdict_ = Verdict::kMatchNothing;
  const char* array_ = nullptr;
  size_t num_bits_ = 0;
  int k_ = 0;
};

// Keys in a standard Bloom filter of m bits with x set, k probes: the
// estimate n = -(m / k) ln(1 - x / m) (Swamidass and Baldi, 2007), the one
// Guava's approximateElementCount uses.
double EstimateKeysFromFill(absl::string_view body, int k) {
  const double m = 8.0 * static_cast<double>(body.size());
  double x = 0;
  for (char c : body) x += __builtin_popcount(static_cast<uint8_t>(c));
  if (m == 0 || k <= 0 || x >= m) return 0;
  return -(m / k) * std::log1p(-x / m);
}

class LevelDbBloomFormat final : public FilterFormat {
 public:
  const char* Name() const override { return kLevelDbBloomName; }

  std::unique_ptr<FilterReader> NewReader(
      absl::string_view filter) const override {
    return std::make_unique<LevelDbBloomReader>(filter);
  }

  bool KeyMayMatch(absl::string_view key,
                   absl::string_view filter) const override {
    return LevelDbBloomReader(filter).MayMatch(key);  // no allocation per query
  }

  // The format stores no key count: it is estimated from the bits set.
  FilterFacts Describe(absl::string_view filter) const override {
    FilterFacts facts;
    facts.kind = "LevelDB Bloom";
    if (filter.size() < 2) return facts;
    const int k = static_cast<uint8_t>(filter.back());
    if (k < kMinProbes || k > kMaxProbes) return facts;
    facts.num_probes = k;
    facts.body_bits = 8 * (filter.size() - 1);
    facts.num_keys =
        EstimateKeysFromFill(filter.substr(0, filter.size() - 1), k);
    facts.keys_estimated = true;
    return facts;
  }
};

const LevelDbBloomFormat& TheLevelDbBloomFormat() {
  static const LevelDbBloomFormat* const format = new LevelDbBloomFormat;
  return *format;
}

class LevelDbBloomPolicy final : public BloomLikeFilterPolicy {
 public:
  LevelDbBloomPolicy(double bits_per_key, int k, double target_fpp,
                     std::string spec)
      : BloomLikeFilterPolicy(std::move(spec)),
        bits_per_key_(bits_per_key),
        k_(k),
        target_fpp_(target_fpp) {}

  const FilterFormat& Format() const override {
    return TheLevelDbBloomFormat();
  }
  double BitsPerKey() const override { return bits_per_key_; }
  int NumProbes() const override { return k_; }

  std::unique_ptr<FilterBuilder> NewBuilder() const override {
    return std::make_unique<LevelDbBloomBuilder>(bits_per_key_, k_,
                                                 target_fpp_);
  }

 private:
  const double bits_per_key_;
  const int k_;
  const double target_fpp_;  // 0 when built from bits_per_key
};

}  // namespace

absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewLevelDbFilterPolicy(
    const FilterOptions& options) {
  if (absl::Status status =
          ValidateCompatibleFilterOptions(options, "LevelDB's Bloom filter");
      !status.ok())
    return status;
  double bits_per_key;
  int k;
  double target_fpp = 0;
  if (options.fpp.has_value()) {
    if (*options.fpp < kLevelDbBloomMinFpp) {
      return absl::InvalidArgumentError(
          absl::StrCat("FilterOptions: fpp ", *options.fpp, " is below ",
                       kLevelDbBloomMinFpp, ", the lowest ", kLevelDbBloomName,
                       " reaches with at most ", kMaxProbes, " probes"));
    }
    target_fpp = *options.fpp;
    bits_per_key = StandardBloomBitsPerKey(*options.fpp);
    k = StandardBloomProbes(bits_per_key);
    if (k == 1) {
      // The optimum's c assumes k = ln 2 * c probes; held at one probe (p
      // above about 0.35), the filter needs c with 1 - e^(-1/c) = p, which
      // for p above about 0.59 is more than the optimum's (at p = 0.9: 0.43
      // against 0.22 bits/key, whose rate would be 99%).
      bits_per_key = std::max(bits_per_key, -1.0 / std::log1p(-*options.fpp));
    }
  } else {
    bits_per_key = *options.bits_per_key;
    k = std::clamp(static_cast<int>(bits_per_key * kLevelDbProbesPerBit),
                   kMinProbes, kMaxProbes);
  }
  return std::unique_ptr<const FilterPolicy>(
      new LevelDbBloomPolicy(bits_per_key, k, target_fpp,
                             PolicySpec::Of("leveldb", options).ToString()));
}

SSTFILTER_REGISTER_FAMILY(LevelDb, {"leveldb",
                                    {},
                                    FromOptions(&NewLevelDbFilterPolicy),
                                    {&TheLevelDbBloomFormat()}});

}  // namespace sstfilter
