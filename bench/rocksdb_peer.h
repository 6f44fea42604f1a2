// Presents RocksDB 7.8.3's built-in full filters to the harness, driven as
// RocksDB's block-based table builder drives them:
// FilterPolicy::GetBuilderWithContext with the table's BlockBasedTableOptions,
// FilterBitsBuilder::AddKey/Finish, then GetFilterBitsReader and
// FilterBitsReader::MayMatch (single and batched).
//
// Which filter a policy builds depends on the context, so every filter built is
// checked against the expected kind by its 5-byte trailer (see CheckKind).

#ifndef SSTFILTER_BENCH_ROCKSDB_PEER_H_
#define SSTFILTER_BENCH_ROCKSDB_PEER_H_

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "bench/built_filter.h"
#include "filter/filter_policy.h"
#include "filter/rocksdb/rocksdb_filter_bits.h"
#include "rocksdb/table.h"

namespace sstfilter {
namespace bench {

enum class RocksDbFilterKind {
  kFastLocalBloom,  // NewBloomFilterPolicy, format_version 5 (the default)
  kLegacyBloom,     // NewBloomFilterPolicy, format_version 4
  kRibbon,          // NewRibbonFilterPolicy, Ribbon at every level
};

class RocksDbPeer {
 public:
  static constexpr bool kHasBatch = true;

  // RocksDB takes bits/key; an fpp becomes the standard Bloom bits/key for it
  // (for Ribbon: the Bloom-equivalent bits/key, which RocksDB maps to Ribbon's
  // own size).
  static absl::StatusOr<std::unique_ptr<RocksDbPeer>> Create(
      RocksDbFilterKind kind, const FilterOptions& options);

  class Builder {
   public:
    explicit Builder(rocksdb::FilterBitsBuilder* builder) : builder_(builder) {}
    void Add(absl::string_view key) {
      builder_->AddKey(rocksdb::Slice(key.data(), key.size()));
    }
    absl::Status Finish(BuiltFilter* out);

   private:
    std::unique_ptr<rocksdb::FilterBitsBuilder> builder_;
  };

  class Reader {
   public:
    Reader(RocksDbFilterKind kind, absl::string_view filter,
           rocksdb::FilterBitsReader* reader)
        : kind_(kind), filter_(filter), reader_(reader) {}
    bool MayMatch(absl::string_view key) const {
      return reader_->MayMatch(rocksdb::Slice(key.data(), key.size()));
    }
    // REQUIRES: n <= kBatchSize.
    void MayMatchBatch(const absl::string_view* keys, int n,
                       bool* results) const {
      rocksdb::Slice slices[kBatchSize];
      rocksdb::Slice* pointers[kBatchSize];
      for (int i = 0; i < n; ++i) {
        slices[i] = rocksdb::Slice(keys[i].data(), keys[i].size());
        pointers[i] = &slices[i];
      }
      reader_->MayMatch(n, pointers, results);
    }
    // From the filter's trailer and size: cache-local Bloom math for both
    // Blooms, 2^-(solution columns) for Ribbon.
    double ExpectedFpp(size_t num_keys) const;

   private:
    RocksDbFilterKind kind_;
    absl::string_view filter_;
    std::unique_ptr<rocksdb::FilterBitsReader> reader_;
  };

  std::unique_ptr<Builder> NewBuilder() const;
  Reader NewReader(absl::string_view filter) const;
  // OK when the trailer marks the filter as the kind this adapter stands for.
  absl::Status CheckKind(absl::string_view filter) const;
  double ConfiguredBitsPerKey() const { return bits_per_key_; }
  std::string Details() const;
  // The library version this adapter was compiled against.
  static std::string Version();

 private:
  RocksDbPeer(RocksDbFilterKind kind, double bits_per_key);

  const RocksDbFilterKind kind_;
  const double bits_per_key_;
  rocksdb::BlockBasedTableOptions table_options_;
};

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_ROCKSDB_PEER_H_
