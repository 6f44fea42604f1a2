// RocksDB's own filter builders and readers (rocksdb_oracle.h).

#include "filter/rocksdb/rocksdb_oracle.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "rocksdb/filter_policy.h"
#include "rocksdb/table.h"

namespace sstfilter {
namespace test {
namespace {

constexpr int kFormatVersionLegacy = 4;  // format_version < 5: legacy Bloom
constexpr int kFormatVersionFast = 5;    // 7.8.3's default: FastLocalBloom
// bloom_before_level below every level: Ribbon everywhere.
constexpr int kRibbonAtEveryLevel = -1;
// RocksDB's largest MultiGet batch (MultiGetContext::MAX_BATCH_SIZE).
constexpr size_t kMaxRocksDbBatch = 32;

rocksdb::Slice ToSlice(absl::string_view s) {
  return rocksdb::Slice(s.data(), s.size());
}

}  // namespace

RocksDbFilterSeries::RocksDbFilterSeries(RocksDbBuilderKind kind,
                                         double bits_per_key,
                                         RocksDbFilterSizing sizing)
    : options_(std::make_unique<rocksdb::BlockBasedTableOptions>()) {
  rocksdb::BlockBasedTableOptions& options = *options_;
  options.optimize_filters_for_memory =
      sizing == RocksDbFilterSizing::kOptimizeForMemory;
  switch (kind) {
    case RocksDbBuilderKind::kFastLocalBloom:
      options.filter_policy.reset(rocksdb::NewBloomFilterPolicy(bits_per_key));
      options.format_version = kFormatVersionFast;
      break;
    case RocksDbBuilderKind::kLegacyBloom:
      options.filter_policy.reset(rocksdb::NewBloomFilterPolicy(bits_per_key));
      options.format_version = kFormatVersionLegacy;
      break;
    case RocksDbBuilderKind::kRibbon:
      options.filter_policy.reset(
          rocksdb::NewRibbonFilterPolicy(bits_per_key, kRibbonAtEveryLevel));
      options.format_version = kFormatVersionFast;
      break;
  }
}

RocksDbFilterSeries::~RocksDbFilterSeries() = default;

std::string RocksDbBuildFilter(RocksDbBuilderKind kind, double bits_per_key,
                               const std::vector<std::string>& keys) {
  return RocksDbFilterSeries(kind, bits_per_key, RocksDbFilterSizing::kExact)
      .Build(keys);
}

std::string RocksDbFilterSeries::Build(const std::vector<std::string>& keys) {
  const rocksdb::BlockBasedTableOptions& options = *options_;
  rocksdb::FilterBuildingContext context(options);
  std::unique_ptr<rocksdb::FilterBitsBuilder> builder(
      options.filter_policy->GetBuilderWithContext(context));
  if (builder == nullptr) {
    std::cerr << "RocksDB returned no filter builder\n";
    std::abort();
  }
  for (const std::string& key : keys) builder->AddKey(ToSlice(key));
  std::unique_ptr<const char[]> buffer;
  rocksdb::Status status;
  const rocksdb::Slice filter = builder->Finish(&buffer, &status);
  if (!status.ok()) {
    std::cerr << "RocksDB filter construction: " << status.ToString() << "\n";
    std::abort();
  }
  return std::string(filter.data(), filter.size());
}

RocksDbOracleReader::RocksDbOracleReader(absl::string_view filter) {
  // Any built-in policy reads any built-in filter.
  std::unique_ptr<const rocksdb::FilterPolicy> policy(
      rocksdb::NewBloomFilterPolicy(10));
  reader_.reset(policy->GetFilterBitsReader(ToSlice(filter)));
}

bool RocksDbOracleReader::MayMatch(absl::string_view key) const {
  return reader_->MayMatch(ToSlice(key));
}

void RocksDbOracleReader::MayMatch(const std::vector<absl::string_view>& keys,
                                   bool* results) const {
  rocksdb::Slice slices[kMaxRocksDbBatch];
  rocksdb::Slice* pointers[kMaxRocksDbBatch];
  for (size_t start = 0; start < keys.size(); start += kMaxRocksDbBatch) {
    const size_t n = std::min(kMaxRocksDbBatch, keys.size() - start);
    for (size_t i = 0; i < n; ++i) {
      slices[i] = ToSlice(keys[start + i]);
      pointers[i] = &slices[i];
    }
    reader_->MayMatch(static_cast<int>(n), pointers, results + start);
  }
}

}  // namespace test
}  // namespace sstfilter
