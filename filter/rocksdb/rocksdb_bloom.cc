// The two RocksDB Bloom policies (rocksdb_bloom.h): options to RocksDB's
// settings, builders of each format, and the shared reader.

#include "filter/rocksdb/rocksdb_bloom.h"

#include <string>
#include <utility>

#include "filter/bloom_like_policy.h"
#include "filter/format_registry.h"
#include "filter/policy_spec.h"
#include "filter/rocksdb/fast_local_bloom.h"
#include "filter/rocksdb/legacy_bloom.h"
#include "filter/rocksdb/rocksdb_reader.h"
#include "filter/rocksdb/rocksdb_sizing.h"

namespace sstfilter {
namespace {

using rocksdb_internal::FastLocalBloomMillibitsForFpp;
using rocksdb_internal::FastLocalBloomProbes;
using rocksdb_internal::LegacyBloomProbes;
using rocksdb_internal::LegacyBloomWholeBitsForFpp;
using rocksdb_internal::RocksDbMillibitsPerKey;
using rocksdb_internal::RocksDbWholeBitsPerKey;

// Every RocksDB built-in filter is stored under one name: its reader takes the
// format (FastLocalBloom, legacy Bloom or Ribbon) from each filter's trailer.
class RocksDbBuiltinFormat final : public FilterFormat {
 public:
  const char* Name() const override { return kRocksDbBuiltinFilterName; }

  std::unique_ptr<FilterReader> NewReader(
      absl::string_view filter) const override {
    return NewRocksDbFilterReader(filter);
  }

  // Parses the trailer and probes in place: no allocation per query.
  bool KeyMayMatch(absl::string_view key,
                   absl::string_view filter) const override {
    return rocksdb_internal::FilterMayMatch(filter, key);
  }

  // The key count is not in the filter (RocksDB keeps it in the table's
  // properties).
  FilterFacts Describe(absl::string_view filter) const override {
    const RocksDbFilterInfo info = DescribeRocksDbFilter(filter);
    FilterFacts facts;
    facts.kind = RocksDbFilterFormatName(info.format);
    if (info.num_probes > 0) facts.num_probes = info.num_probes;
    if (info.body_bytes > 0) facts.body_bits = 8 * info.body_bytes;
    return facts;
  }
};

const RocksDbBuiltinFormat& TheRocksDbBuiltinFormat() {
  static const RocksDbBuiltinFormat* const format = new RocksDbBuiltinFormat;
  return *format;
}

// What the two policies share: the format.
class RocksDbPolicy : public BloomLikeFilterPolicy {
 public:
  using BloomLikeFilterPolicy::BloomLikeFilterPolicy;

  const FilterFormat& Format() const override {
    return TheRocksDbBuiltinFormat();
  }
};

class FastLocalBloomPolicy : public RocksDbPolicy {
 public:
  FastLocalBloomPolicy(int millibits_per_key, std::string spec)
      : RocksDbPolicy(std::move(spec)), millibits_per_key_(millibits_per_key) {}

  double BitsPerKey() const override { return millibits_per_key_ / 1000.0; }
  int NumProbes() const override {
    return FastLocalBloomProbes(millibits_per_key_);
  }
  std::unique_ptr<FilterBuilder> NewBuilder() const override {
    return rocksdb_internal::NewFastLocalBloomBuilder(millibits_per_key_);
  }

 private:
  const int millibits_per_key_;
};

class LegacyBloomPolicy : public RocksDbPolicy {
 public:
  LegacyBloomPolicy(int whole_bits_per_key, std::string spec)
      : RocksDbPolicy(std::move(spec)),
        whole_bits_per_key_(whole_bits_per_key) {}

  double BitsPerKey() const override { return whole_bits_per_key_; }
  int NumProbes() const override {
    return LegacyBloomProbes(whole_bits_per_key_);
  }
  std::unique_ptr<FilterBuilder> NewBuilder() const override {
    return rocksdb_internal::NewLegacyBloomBuilder(whole_bits_per_key_);
  }

 private:
  const int whole_bits_per_key_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<const FilterPolicy>>
NewRocksDbFastBloomFilterPolicy(const FilterOptions& options) {
  if (absl::Status status =
          ValidateCompatibleFilterOptions(options, "RocksDB's FastLocalBloom");
      !status.ok()) {
    return status;
  }
  int millibits;
  if (options.fpp.has_value()) {
    absl::StatusOr<int> chosen = FastLocalBloomMillibitsForFpp(*options.fpp);
    if (!chosen.ok()) return chosen.status();
    millibits = *chosen;
  } else {
    millibits = RocksDbMillibitsPerKey(*options.bits_per_key);
  }
  return std::unique_ptr<const FilterPolicy>(new FastLocalBloomPolicy(
      millibits, PolicySpec::Of("rocksdb.fastbloom", options).ToString()));
}

absl::StatusOr<std::unique_ptr<const FilterPolicy>>
NewRocksDbLegacyBloomFilterPolicy(const FilterOptions& options) {
  if (absl::Status status =
          ValidateCompatibleFilterOptions(options, "RocksDB's legacy Bloom");
      !status.ok()) {
    return status;
  }
  int whole_bits;
  if (options.fpp.has_value()) {
    absl::StatusOr<int> chosen = LegacyBloomWholeBitsForFpp(*options.fpp);
    if (!chosen.ok()) return chosen.status();
    whole_bits = *chosen;
  } else {
    whole_bits =
        RocksDbWholeBitsPerKey(RocksDbMillibitsPerKey(*options.bits_per_key));
  }
  return std::unique_ptr<const FilterPolicy>(new LegacyBloomPolicy(
      whole_bits, PolicySpec::Of("rocksdb.legacybloom", options).ToString()));
}

// Both write RocksDB's one built-in format; its reader tells them apart.
SSTFILTER_REGISTER_FAMILY(RocksDbFastBloom,
                          {"rocksdb.fastbloom",
                           {},
                           FromOptions(&NewRocksDbFastBloomFilterPolicy),
                           {&TheRocksDbBuiltinFormat()}});
SSTFILTER_REGISTER_FAMILY(RocksDbLegacyBloom,
                          {"rocksdb.legacybloom",
                           {},
                           FromOptions(&NewRocksDbLegacyBloomFilterPolicy),
                           {&TheRocksDbBuiltinFormat()}});

}  // namespace sstfilter
