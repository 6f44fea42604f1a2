// rocksdb::FilterPolicy, FilterBitsBuilder and FilterBitsReader over an
// sstfilter policy, builder and reader (see rocksdb_adapter.h).

#include "engines/rocksdb/rocksdb_adapter.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/filter_spec.h"
#include "filter/format_registry.h"
#include "filter/rocksdb/rocksdb_filter_bits.h"
#include "filter/verified_build.h"
#include "rocksdb/slice.h"
#include "rocksdb/table.h"

namespace sstfilter {
namespace {

// RocksDB's MultiGet batch (MultiGetContext::MAX_BATCH_SIZE in 7.8.3's
// table/multiget_context.h): the most keys one batched MayMatch call gets
// from RocksDB. Larger calls are answered in chunks of this many.
constexpr int kBatchKeys = 32;

// A filter's trailer is what an empty one takes, plus up to this many bytes:
// the native trailer stores the key count as a varint64, 1 byte for none and
// at most 10.
constexpr size_t kKeyCountGrowth = 9;  // bytes

absl::string_view View(const rocksdb::Slice& slice) {
  return absl::string_view(slice.data(), slice.size());
}

// The bytes of a filter of num_keys distinct synthetic keys built by policy
// (with its sizing builder: the filter is only measured).
size_t FilterBytes(const FilterPolicy& policy, size_t num_keys) {
  std::unique_ptr<FilterBuilder> builder = policy.NewSizingBuilder();
  char key[sizeof(uint64_t)];
  for (uint64_t i = 0; i < num_keys; ++i) {
    std::memcpy(key, &i, sizeof(key));
    builder->AddKey(absl::string_view(key, sizeof(key)));
  }
  std::string filter;
  builder->Finish(&filter);
  return filter.size();
}

class BitsBuilder final : public rocksdb::FilterBitsBuilder {
 public:
  BitsBuilder(std::shared_ptr<const FilterPolicy> policy, double bits_per_key,
              size_t trailer_bytes, bool verify)
      : policy_(std::move(policy)),
        builder_(policy_->NewBuilder()),
        bits_per_key_(bits_per_key),
        trailer_bytes_(trailer_bytes),
        verify_(verify) {}

  // A key added right after itself is dropped and not counted, as RocksDB's
  // own builders do: without whole_key_filtering RocksDB adds each key's
  // prefix, so a prefix comes once per key, and EstimateEntriesAdded becomes
  // the table property num_filter_entries, which readers (sst_probe among
  // them) take for the filter's key count. sstfilter's builders drop such
  // repeats from the filter too, so the filter is the same either way.
  void AddKey(const rocksdb::Slice& key) override {
    if (entries_ > 0 && View(key) == last_entry_) return;
    Add(View(key));
  }

#if SSTFILTER_ROCKSDB_HAS_ADD_KEY_AND_ALT
  // RocksDB 9 adds a key and its prefix (the alternate) in one call, with
  // whole_key_filtering and a prefix extractor. Each is added once, dropped
  // when it repeats the entry added last, the previous call's alternate, or
  // (the alternate) its own key, which is what RocksDB 9.7's builders drop
  // (table/block_based/filter_policy.cc, XXPH3FilterBitsBuilder::AddKeyAndAlt;
  // the contract is in filter_policy_internal.h). Compared by value, not by
  // hash as RocksDB does, since the filter hashes keys its own way.
  void AddKeyAndAlt(const rocksdb::Slice& key,
                    const rocksdb::Slice& alt) override {
    const bool has_last = entries_ > 0;
    const bool alt_repeats = (has_last && View(alt) == last_entry_) ||
                             (has_last_alt_ && View(alt) == last_alt_) ||
                             View(alt) == View(key);
    const bool key_repeats = (has_last && View(key) == last_entry_) ||
                             (has_last_alt_ && View(key) == last_alt_);
    if (!alt_repeats) Add(View(alt));
    last_alt_.assign(alt.data(), alt.size());
    has_last_alt_ = true;
    if (!key_repeats) Add(View(key));
  }
#endif

  size_t EstimateEntriesAdded() override { return entries_; }

  rocksdb::Slice Finish(std::unique_ptr<const char[]>* buf) override {
    std::string filter;
    builder_->Finish(&filter);
    entries_ = 0;
    has_last_alt_ = false;
    std::unique_ptr<char[]> bytes(new char[filter.size()]);
    std::memcpy(bytes.get(), filter.data(), filter.size());
    const rocksdb::Slice result(bytes.get(), filter.size());
    *buf = std::move(bytes);
    return result;
  }

  // RocksDB calls it with the bytes Finish returned, before it writes them
  // (each partition's, with partition_filters): a Corruption status fails the
  // table's build, so the flush or compaction fails and installs nothing.
  // The keys of the filter are dropped either way.
  rocksdb::Status MaybePostVerify(
      const rocksdb::Slice& filter_content) override {
    if (!verify_) return rocksdb::Status::OK();
    const absl::Status status =
        added_.CheckEveryKeyMatches(*policy_->NewReader(View(filter_content)));
    added_.Clear();
    if (status.ok()) return rocksdb::Status::OK();
    return rocksdb::Status::Corruption(
        absl::StrCat(policy_->Name(), " filter: ", status.message()));
  }

  // Keys whose filter fits in bytes: RocksDB cuts a filter partition after
  // this many keys (metadata_block_size less block_size_deviation; once per
  // table it writes with partition_filters). The body at the policy's
  // bits/key after the trailer is the guess; it fits the native filter at any
  // size, but a small compact filter costs more than its bits/key (a layer of
  // fewer than 256 keys takes 1.15 slots per key and a block more: 340 bytes
  // for the 254 keys the guess allows in 231), so the guess is checked by
  // building a filter of as many synthetic keys, and bisected down to the
  // most keys whose filter fits. (The compact filter's later layers hold the
  // keys the first one bumps, which vary with the keys: another key set of
  // the same size may take one block of 64 slots more.) Costs one build of
  // the guess, and about log2(guess) builds when it does not fit.
  size_t ApproximateNumEntries(size_t bytes) override {
    if (bytes <= trailer_bytes_) return 0;
    size_t fits = 0;
    size_t too_many = static_cast<size_t>(
        static_cast<double>(bytes - trailer_bytes_) * 8.0 / bits_per_key_);
    if (FilterBytes(*policy_, too_many) <= bytes) return too_many;
    while (too_many - fits > 1) {
      const size_t mid = fits + (too_many - fits) / 2;
      if (FilterBytes(*policy_, mid) <= bytes) {
        fits = mid;
      } else {
        too_many = mid;
      }
    }
    return fits;
  }

 private:
  const std::shared_ptr<const FilterPolicy> policy_;
  const std::unique_ptr<FilterBuilder> builder_;
  const double bits_per_key_;
  const size_t trailer_bytes_;
  const bool verify_;
  // Adds one entry (a key or a prefix) to the filter.
  void Add(absl::string_view entry) {
    last_entry_.assign(entry.data(), entry.size());
    ++entries_;
    builder_->AddKey(entry);
    if (verify_) added_.Add(entry);
  }

  AddedKeys added_;         // the filter's keys, kept for MaybePostVerify
  std::string last_entry_;  // the entry added last, when entries_ > 0
  std::string last_alt_;    // the last call's alternate, when has_last_alt_
  bool has_last_alt_ = false;
  size_t entries_ = 0;  // entries added since Finish, repeats dropped
};

class BitsReader final : public rocksdb::FilterBitsReader {
 public:
  explicit BitsReader(std::unique_ptr<FilterReader> reader)
      : reader_(std::move(reader)) {}

  bool MayMatch(const rocksdb::Slice& key) override {
    return reader_->MayMatch(View(key));
  }

  // RocksDB's batch is an array of pointers to slices; sstfilter's is a span
  // of views, filled here on the stack a chunk at a time.
  void MayMatch(int num_keys, rocksdb::Slice** keys, bool* may_match) override {
    absl::string_view views[kBatchKeys];
    for (int start = 0; start < num_keys; start += kBatchKeys) {
      const int n = std::min(kBatchKeys, num_keys - start);
      for (int i = 0; i < n; ++i) views[i] = View(*keys[start + i]);
      reader_->MayMatch(absl::MakeConstSpan(views, n), may_match + start);
    }
  }

 private:
  const std::unique_ptr<FilterReader> reader_;
};

class RocksDbPolicy final : public rocksdb::FilterPolicy {
 public:
  RocksDbPolicy(std::shared_ptr<const sstfilter::FilterPolicy> policy,
                const RocksDbAdapterOptions& options)
      : policy_(std::move(policy)),
        options_(options),
        bits_per_key_(std::max(policy_->BitsPerKey(), kMinBitsPerKey)),
        trailer_bytes_(FilterBytes(*policy_, 0) + kKeyCountGrowth) {}

  // One name for both: the filters of one format read each other whatever
  // their bits/key, and no other format reads them.
  const char* Name() const override { return policy_->Name(); }
  const char* CompatibilityName() const override { return policy_->Name(); }

  rocksdb::FilterBitsBuilder* GetBuilderWithContext(
      const rocksdb::FilterBuildingContext& context) const override {
    return new BitsBuilder(
        policy_, bits_per_key_, trailer_bytes_,
        options_.verify_builds ||
            context.table_options.detect_filter_construct_corruption);
  }

  rocksdb::FilterBitsReader* GetFilterBitsReader(
      const rocksdb::Slice& contents) const override {
    return new BitsReader(policy_->NewReader(View(contents)));
  }

 private:
  const std::shared_ptr<const sstfilter::FilterPolicy> policy_;
  const RocksDbAdapterOptions options_;
  const double bits_per_key_;
  const size_t trailer_bytes_;
};

// Reads the filters of one registered format and builds none.
class ReadOnlyRocksDbPolicy final : public rocksdb::FilterPolicy {
 public:
  explicit ReadOnlyRocksDbPolicy(const FilterFormat& format)
      : format_(format) {}

  const char* Name() const override { return format_.Name(); }
  const char* CompatibilityName() const override { return format_.Name(); }

  // RocksDB writes a table without a filter when the builder is null.
  rocksdb::FilterBitsBuilder* GetBuilderWithContext(
      const rocksdb::FilterBuildingContext& /*context*/) const override {
    return nullptr;
  }

  rocksdb::FilterBitsReader* GetFilterBitsReader(
      const rocksdb::Slice& contents) const override {
    return new BitsReader(format_.NewReader(View(contents)));
  }

 private:
  const FilterFormat& format_;
};

}  // namespace

absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>>
NewRocksDbReadOnlyFilterPolicy(absl::string_view format_name) {
  const FilterFormat* format = FindFilterFormat(format_name);
  if (format == nullptr) {
    return absl::NotFoundError(absl::StrCat(
        "filter format '", format_name,
        "' is not registered; registered: ", RegisteredFormatNames()));
  }
  return std::make_shared<const ReadOnlyRocksDbPolicy>(*format);
}

std::shared_ptr<const rocksdb::FilterPolicy> AsRocksDbFilterPolicy(
    std::shared_ptr<const FilterPolicy> policy,
    const RocksDbAdapterOptions& options) {
  if (policy == nullptr) return nullptr;
  return std::make_shared<const RocksDbPolicy>(std::move(policy), options);
}

std::shared_ptr<const rocksdb::FilterPolicy> AsRocksDbFilterPolicy(
    std::shared_ptr<const FilterPolicy> policy) {
  return AsRocksDbFilterPolicy(std::move(policy), RocksDbAdapterOptions());
}

absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>>
AsRocksDbFilterPolicy(absl::string_view spec,
                      const RocksDbAdapterOptions& options) {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      NewFilterPolicyFromString(spec);
  if (!policy.ok()) return policy.status();
  return AsRocksDbFilterPolicy(
      std::shared_ptr<const FilterPolicy>(*std::move(policy)), options);
}

}  // namespace sstfilter
