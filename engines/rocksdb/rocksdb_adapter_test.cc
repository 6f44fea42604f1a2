// AsRocksDbFilterPolicy driven as RocksDB 7.8.3's table builder and reader
// drive a policy, checked against the wrapped sstfilter policy itself. The
// integration test (tests/integration/rocksdb_db_test.cc) does the same
// through a real database.

#include "engines/rocksdb/rocksdb_adapter.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "filter/bloom/bloom.h"
#include "filter/burr/burr.h"
#include "filter/filter_policy.h"
#include "filter/filter_spec.h"
#include "filter/leveldb/leveldb_bloom.h"
#include "filter/rocksdb/rocksdb_filter_bits.h"
#include "gtest/gtest.h"
#include "rocksdb/slice.h"
#include "rocksdb/table.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

std::shared_ptr<const FilterPolicy> Native(double bits_per_key) {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      NewBloomFilterPolicy(FilterOptions::BitsPerKey(bits_per_key));
  EXPECT_TRUE(policy.ok()) << policy.status();
  return policy.ok() ? std::shared_ptr<const FilterPolicy>(std::move(*policy))
                     : nullptr;
}

// A builder as RocksDB's table builder gets one, for a table of default
// options.
std::unique_ptr<rocksdb::FilterBitsBuilder> NewBitsBuilder(
    const rocksdb::FilterPolicy& policy) {
  rocksdb::BlockBasedTableOptions table_options;
  return std::unique_ptr<rocksdb::FilterBitsBuilder>(
      policy.GetBuilderWithContext(
          rocksdb::FilterBuildingContext(table_options)));
}

// The filter RocksDB would store for keys: one builder, AddKey each, Finish.
std::string BuildThroughRocksDb(const rocksdb::FilterPolicy& policy,
                                const std::vector<std::string>& keys) {
  std::unique_ptr<rocksdb::FilterBitsBuilder> builder = NewBitsBuilder(policy);
  EXPECT_NE(builder, nullptr);
  if (builder == nullptr) return "";
  for (const std::string& key : keys) builder->AddKey(key);
  EXPECT_EQ(builder->EstimateEntriesAdded(), keys.size());
  std::unique_ptr<const char[]> buf;
  const rocksdb::Slice filter = builder->Finish(&buf);
  EXPECT_EQ(filter.data(), buf.get()) << "the slice must point into buf";
  return filter.ToString();
}

std::string CreateFilter(const FilterPolicy& policy,
                         const std::vector<std::string>& keys) {
  std::vector<absl::string_view> views(keys.begin(), keys.end());
  std::string filter;
  policy.CreateFilter(views, &filter);
  return filter;
}

TEST(AsRocksDbFilterPolicyTest, NamesAreThePolicysName) {
  const std::shared_ptr<const rocksdb::FilterPolicy> native =
      AsRocksDbFilterPolicy(Native(10));
  EXPECT_STREQ(native->Name(), "sstfilter.LocalBloom2");
  EXPECT_STREQ(native->CompatibilityName(), "sstfilter.LocalBloom2");

  absl::StatusOr<std::unique_ptr<const FilterPolicy>> leveldb =
      NewLevelDbFilterPolicy(FilterOptions::BitsPerKey(10));
  ASSERT_TRUE(leveldb.ok()) << leveldb.status();
  const std::shared_ptr<const rocksdb::FilterPolicy> adapted =
      AsRocksDbFilterPolicy(std::move(*leveldb));
  EXPECT_STREQ(adapted->Name(), "leveldb.BuiltinBloomFilter2");
  EXPECT_STREQ(adapted->CompatibilityName(), "leveldb.BuiltinBloomFilter2");
}

// A spec string gives the policy it names, adapted: RocksDB's builder and
// reader make and read that policy's filters.
TEST(AsRocksDbFilterPolicyTest, TakesASpecString) {
  for (const char* spec :
       {"bloom:10", "burr:fpp=0.001", "rocksdb.fastbloom:10",
        "hybrid:fpp=0.01:family=native", "bloom:fpp=0.01:checksum=off"}) {
    SCOPED_TRACE(spec);
    absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> adapted =
        AsRocksDbFilterPolicy(spec);
    ASSERT_TRUE(adapted.ok()) << adapted.status();
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
        NewFilterPolicyFromString(spec);
    ASSERT_TRUE(policy.ok()) << policy.status();
    EXPECT_STREQ((*adapted)->Name(), (*policy)->Name());
    test::Random rng(305);
    const std::vector<std::string> keys = test::RandomKeys(&rng, 1000, 8, 24);
    const std::string filter = BuildThroughRocksDb(**adapted, keys);
    EXPECT_EQ(filter, CreateFilter(**policy, keys));
    std::unique_ptr<rocksdb::FilterBitsReader> reader(
        (*adapted)->GetFilterBitsReader(filter));
    for (const std::string& key : keys) ASSERT_TRUE(reader->MayMatch(key));
  }
  RocksDbAdapterOptions options;
  options.verify_builds = true;
  EXPECT_TRUE(AsRocksDbFilterPolicy("burr:10", options).ok());
}

TEST(AsRocksDbFilterPolicyTest, MalformedSpecIsAnInvalidArgument) {
  for (const char* spec : {"", "blom:10", "bloom:10:", "bloom:fpp=2"}) {
    absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> adapted =
        AsRocksDbFilterPolicy(spec);
    EXPECT_EQ(adapted.status().code(), absl::StatusCode::kInvalidArgument)
        << spec;
  }
}

TEST(AsRocksDbFilterPolicyTest, NullPolicyIsNoFilter) {
  EXPECT_EQ(AsRocksDbFilterPolicy(nullptr), nullptr);
}

// The adapter adds nothing and drops nothing: RocksDB stores exactly the bytes
// the sstfilter policy makes of the same keys.
TEST(AsRocksDbFilterPolicyTest, BuildsTheWrappedPolicysBytes) {
  test::Random rng(301);
  for (size_t n : {0, 1, 100, 5000}) {
    const std::vector<std::string> keys = test::RandomKeys(&rng, n, 1, 40);
    const std::shared_ptr<const FilterPolicy> policy = Native(10);
    EXPECT_EQ(BuildThroughRocksDb(*AsRocksDbFilterPolicy(policy), keys),
              CreateFilter(*policy, keys))
        << n << " keys";
  }
}

// With partition_filters RocksDB calls Finish once per partition on one
// builder: each filter holds only the keys added since the previous Finish.
TEST(AsRocksDbFilterPolicyTest, EachFinishStartsAFreshFilter) {
  const std::shared_ptr<const FilterPolicy> policy = Native(10);
  std::unique_ptr<rocksdb::FilterBitsBuilder> builder =
      NewBitsBuilder(*AsRocksDbFilterPolicy(policy));
  test::Random rng(302);
  for (int partition = 0; partition < 3; ++partition) {
    const std::vector<std::string> keys = test::RandomKeys(&rng, 700, 8, 24);
    for (const std::string& key : keys) builder->AddKey(key);
    EXPECT_EQ(builder->EstimateEntriesAdded(), keys.size());
    std::unique_ptr<const char[]> buf;
    EXPECT_EQ(builder->Finish(&buf).ToString(), CreateFilter(*policy, keys))
        << "partition " << partition;
    EXPECT_EQ(builder->EstimateEntriesAdded(), 0u);
  }
}

// Without whole_key_filtering RocksDB adds each key's prefix, so one prefix
// comes many times in a row. Like RocksDB's own builders, the adapter counts
// a repeat right after itself once (the count becomes the table property
// num_filter_entries), and the filter is the one the same keys make.
TEST(AsRocksDbFilterPolicyTest, RepeatsInARowCountOnce) {
  const std::shared_ptr<const FilterPolicy> policy = Native(10);
  const std::vector<std::string> keys = {"p1", "p1", "p1", "p2",
                                         "p2", "p1", "p3"};
  std::unique_ptr<rocksdb::FilterBitsBuilder> builder =
      NewBitsBuilder(*AsRocksDbFilterPolicy(policy));
  for (const std::string& key : keys) builder->AddKey(key);
  EXPECT_EQ(builder->EstimateEntriesAdded(), 4u);  // p1 p2 p1 p3
  std::unique_ptr<const char[]> buf;
  EXPECT_EQ(builder->Finish(&buf).ToString(), CreateFilter(*policy, keys));
  // A new partition counts from nothing, its first key included.
  builder->AddKey("p3");
  EXPECT_EQ(builder->EstimateEntriesAdded(), 1u);
}

// ApproximateNumEntries(b) keys make a filter of at most b bytes, and not
// many fewer keys than b bytes hold at the policy's bits/key.
TEST(AsRocksDbFilterPolicyTest, ApproximateNumEntriesFitsTheBytes) {
  for (double bits_per_key : {4.0, 10.0, 23.5}) {
    const std::shared_ptr<const FilterPolicy> policy = Native(bits_per_key);
    std::unique_ptr<rocksdb::FilterBitsBuilder> builder =
        NewBitsBuilder(*AsRocksDbFilterPolicy(policy));
    EXPECT_EQ(builder->ApproximateNumEntries(0), 0u);
    EXPECT_EQ(builder->ApproximateNumEntries(4), 0u);  // the trailer alone
    for (size_t bytes : {64, 4096, 1 << 18}) {
      const size_t n = builder->ApproximateNumEntries(bytes);
      // At most 23 bytes go to the trailers: version 1's 16, the CRC's 7.
      EXPECT_GE(static_cast<double>(n), (bytes - 23) * 8 / bits_per_key - 1)
          << bits_per_key << " bits/key, " << bytes << " bytes";
      test::Random rng(303);
      const std::vector<std::string> keys = test::RandomKeys(&rng, n, 16, 16);
      EXPECT_LE(CreateFilter(*policy, keys).size(), bytes)
          << bits_per_key << " bits/key, " << n << " keys";
    }
  }
}

// The compact filter's small filters cost more than its bits/key (a layer of
// fewer than 256 keys takes 1.15 slots per key and a block more), so RocksDB's
// filter partitions, cut after ApproximateNumEntries(metadata_block_size less
// 10%) keys, would outgrow the block by up to half at the sizes below 1 KB
// that the bits/key rule alone gives. Each filter fits the bytes within one
// block of a later layer, whose size varies with the keys the first layer
// bumps (64 slots of at most 7 columns at 1%: 56 bytes, and its threshold);
// from RocksDB's default 4 KB up the count is within 5% of the bits/key rule.
TEST(AsRocksDbFilterPolicyTest, ApproximateNumEntriesFitsCompactFilters) {
  constexpr size_t kLaterLayerBlockBytes = 64;
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> made =
      NewBurrFilterPolicy(FilterOptions::Fpp(0.01));
  ASSERT_TRUE(made.ok()) << made.status();
  const std::shared_ptr<const FilterPolicy> policy = std::move(*made);
  std::unique_ptr<rocksdb::FilterBitsBuilder> builder =
      NewBitsBuilder(*AsRocksDbFilterPolicy(policy));
  test::Random rng(306);
  for (size_t bytes : {64, 128, 231, 461, 922, 3687, 16384, 1 << 18}) {
    const size_t n = builder->ApproximateNumEntries(bytes);
    for (int key_set = 0; key_set < 5; ++key_set) {
      const std::vector<std::string> keys = test::RandomKeys(&rng, n, 16, 16);
      EXPECT_LE(CreateFilter(*policy, keys).size(),
                bytes + kLaterLayerBlockBytes)
          << n << " keys for " << bytes << " bytes";
    }
    if (bytes >= 3687) {
      EXPECT_GE(static_cast<double>(n), 0.95 * bytes * 8 / policy->BitsPerKey())
          << bytes << " bytes";
    }
  }
}

// Get's MayMatch and MultiGet's batched MayMatch answer as the wrapped reader
// does, for every batch size around RocksDB's batch of 32 keys.
TEST(AsRocksDbFilterPolicyTest, ReaderAnswersAsTheWrappedReader) {
  test::Random rng(304);
  const std::vector<std::string> keys = test::RandomKeys(&rng, 2000, 16, 16);
  const std::shared_ptr<const FilterPolicy> policy = Native(6);
  const std::string filter = CreateFilter(*policy, keys);
  std::unique_ptr<FilterReader> ours = policy->NewReader(filter);
  std::unique_ptr<rocksdb::FilterBitsReader> theirs(
      AsRocksDbFilterPolicy(policy)->GetFilterBitsReader(filter));

  // Half present, half absent: at 6 bits/key about 5% of the absent keys
  // match, so both answers occur.
  std::vector<std::string> queries(keys.begin(), keys.begin() + 100);
  for (const std::string& key : test::RandomKeys(&rng, 100, 17, 17)) {
    queries.push_back(key);
  }
  for (const std::string& key : queries) {
    EXPECT_EQ(theirs->MayMatch(key), ours->MayMatch(key));
  }
  std::vector<rocksdb::Slice> slices(queries.begin(), queries.end());
  std::vector<rocksdb::Slice*> pointers;
  for (rocksdb::Slice& slice : slices) pointers.push_back(&slice);
  for (int n : {0, 1, 31, 32, 33, 64, 65, 200}) {
    // Each answer starts as the opposite of the right one, so an unwritten
    // answer shows.
    std::unique_ptr<bool[]> got(new bool[n + 1]);
    for (int i = 0; i < n; ++i) got[i] = !ours->MayMatch(queries[i]);
    got[n] = true;  // one past the batch: must stay untouched
    theirs->MayMatch(n, pointers.data(), got.get());
    int matched = 0;
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(got[i], ours->MayMatch(queries[i]))
          << "key " << i << " of " << n;
      matched += got[i];
    }
    EXPECT_TRUE(got[n]) << "wrote past a batch of " << n;
    if (n == 200) {
      EXPECT_GE(matched, 100);  // every present key
      EXPECT_LT(matched, 200);  // and not every absent one
    }
  }
}

// Whatever bytes RocksDB hands over (a corrupt block with a valid checksum,
// an empty one), the reader answers safely, as the wrapped policy does.
TEST(AsRocksDbFilterPolicyTest, ReaderTakesAnyBytes) {
  const std::shared_ptr<const FilterPolicy> policy = Native(10);
  const std::shared_ptr<const rocksdb::FilterPolicy> adapted =
      AsRocksDbFilterPolicy(policy);
  test::Random rng(305);
  for (size_t len : {0, 1, 3, 4, 5, 13, 64, 200}) {
    const std::string bytes = rng.Bytes(len);
    std::unique_ptr<rocksdb::FilterBitsReader> reader(
        adapted->GetFilterBitsReader(bytes));
    EXPECT_EQ(reader->MayMatch("key"), policy->KeyMayMatch("key", bytes))
        << len << " bytes";
  }
}

// The adapted policy owns its share of the sstfilter policy: the caller may
// drop its pointer.
TEST(AsRocksDbFilterPolicyTest, OutlivesTheCallersPointer) {
  std::shared_ptr<const FilterPolicy> policy = Native(10);
  std::weak_ptr<const FilterPolicy> watch = policy;
  std::shared_ptr<const rocksdb::FilterPolicy> adapted =
      AsRocksDbFilterPolicy(std::move(policy));
  EXPECT_FALSE(watch.expired());
  const std::string filter = BuildThroughRocksDb(*adapted, {"apple"});
  std::unique_ptr<rocksdb::FilterBitsReader> reader(
      adapted->GetFilterBitsReader(filter));
  EXPECT_TRUE(reader->MayMatch("apple"));
  adapted.reset();
  EXPECT_TRUE(watch.expired());
  // Readers do not refer to the policy.
  EXPECT_TRUE(reader->MayMatch("apple"));
}

}  // namespace
}  // namespace sstfilter
