// TableFilter's range questions on tables that carry a range filter: one laid
// out by our table layer (a meta block) and one written by the real RocksDB
// 7.8.3 (a user property). The oracle is the sorted key list: every range
// that holds a key matches, ranges that hold none are ruled out at about the
// filter's proven rate, and damaged, unknown or absent filters match every
// range.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "filter/bloom/bloom.h"
#include "filter/range/range_filter.h"
#include "filter/range/range_key.h"
#include "gtest/gtest.h"
#include "table/block_trailer.h"
#include "table/random_access_file.h"
#include "table/range_filter_block.h"
#include "table/range_filter_key.h"
#include "table/range_test_tables.h"
#include "table/table_filter.h"
#include "table/testing/real_tables.h"
#include "table/testing/table_assembler.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

using test::CodeOf;

constexpr double kRangeBitsPerKey = 16;
constexpr uint64_t kMaxQueryCodes = 32;  // longest empty range asked
constexpr char kCheckedGrafite[] = "sstfilter.Grafite2";

// The least key after key, bytewise.
std::string Successor(const std::string& key) { return key + '\0'; }

class RangeTableFilterTest : public ::testing::Test {
 protected:
  std::unique_ptr<TableFilter> Open(const std::string& bytes,
                                    TableFilterOptions options = {}) {
    absl::StatusOr<std::unique_ptr<TableFilter>> table =
        TableFilter::Open(NewStringFile(bytes), options);
    EXPECT_TRUE(table.ok()) << table.status();
    return table.ok() ? std::move(*table) : nullptr;
  }

  // Whether any key k has lo <= k <= hi (hi_inclusive) or lo <= k < hi.
  bool HoldsKey(const std::string& lo, const std::string& hi,
                bool hi_inclusive) const {
    const auto it = std::lower_bound(keys_.begin(), keys_.end(), lo);
    return it != keys_.end() && (hi_inclusive ? *it <= hi : *it < hi);
  }

  // Every range that holds a key matches: each key alone, between its
  // neighbours, at the table's ends, and ranges cut from keys at random.
  void ExpectNoFalseNegatives(const TableFilter& table) {
    for (size_t i = 0; i < keys_.size(); ++i) {
      const std::string& key = keys_[i];
      ASSERT_TRUE(table.RangeMayMatch(key, key)) << i;
      ASSERT_TRUE(table.RangeMayMatchBefore(key, Successor(key))) << i;
      if (i > 0) {
        // Only this key lies after the one before and up to it.
        ASSERT_TRUE(table.RangeMayMatch(Successor(keys_[i - 1]), key)) << i;
      }
      if (i + 1 < keys_.size()) {
        ASSERT_TRUE(table.RangeMayMatchBefore(key, keys_[i + 1])) << i;
      }
    }
    EXPECT_TRUE(table.RangeMayMatch("", keys_.front()));
    EXPECT_TRUE(table.RangeMayMatchBefore("", Successor(keys_.front())));
    EXPECT_TRUE(table.RangeMayMatch(keys_.back(), std::string(30, '\xff')));

    test::Random rng(7);
    int holding = 0;
    for (int q = 0; q < 20000; ++q) {
      // Bounds near keys: a key cut short, extended or as it is.
      std::string a = keys_[rng.Uniform(keys_.size())];
      std::string b = keys_[rng.Uniform(keys_.size())];
      a.resize(rng.Range(0, a.size() + 2), static_cast<char>(rng.Next64()));
      b.resize(rng.Range(0, b.size() + 2), static_cast<char>(rng.Next64()));
      if (b < a) std::swap(a, b);
      for (const bool inclusive : {true, false}) {
        if (!HoldsKey(a, b, inclusive)) continue;
        ++holding;
        ASSERT_TRUE(inclusive ? table.RangeMayMatch(a, b)
                              : table.RangeMayMatchBefore(a, b))
            << "false negative, query " << q;
      }
    }
    EXPECT_GT(holding, 10000) << "too few ranges held a key to test";
  }

  // Asks ranges of 1..kMaxQueryCodes codes that hold no key's code, starting
  // just after a key (the correlated ranges a scan asks) or anywhere, and
  // expects them ruled out at the filter's proven rate: at most the mean
  // RangeFppBound plus 4 standard deviations.
  void ExpectEmptyRangesRuledOut(const TableFilter& table) {
    const RangeFilterReader* reader = table.range_filter()->reader();
    ASSERT_NE(reader, nullptr);
    size_t false_positives = 0;
    double expected = 0;
    const std::vector<test::EmptyRange> ranges =
        test::EmptyCodeRanges(keys_, 100000, kMaxQueryCodes, 11);
    for (const test::EmptyRange& r : ranges) {
      expected += reader->RangeFppBound(r.last - r.first + 1);
      // [KeyOfRangeCode(first), KeyOfRangeCode(last)] holds no key: each key
      // has a code outside [first, last].
      false_positives +=
          table.RangeMayMatch(KeyOfRangeCode(r.first), KeyOfRangeCode(r.last));
    }
    const double sigma = std::sqrt(expected);
    EXPECT_LE(false_positives, expected + 4 * sigma + 5)
        << "of " << ranges.size() << " empty ranges";
    EXPECT_LT(false_positives, ranges.size() / 100) << "mostly ruled out";
    RecordProperty("empty_range_false_positives",
                   static_cast<int>(false_positives));
    RecordProperty("empty_range_bound", static_cast<int>(expected));
  }

  // A table without a usable range filter: ranges that hold no key may match
  // too.
  void ExpectEveryRangeMayMatch(const TableFilter& table) {
    for (const test::EmptyRange& r :
         test::EmptyCodeRanges(keys_, 200, kMaxQueryCodes, 13)) {
      ASSERT_TRUE(
          table.RangeMayMatch(KeyOfRangeCode(r.first), KeyOfRangeCode(r.last)));
      ASSERT_TRUE(table.RangeMayMatchBefore(KeyOfRangeCode(r.first),
                                            KeyOfRangeCode(r.last + 1)));
    }
  }

  std::string FilterOf(const FilterPolicy& policy) const {
    std::string filter;
    const std::vector<absl::string_view> views(keys_.begin(), keys_.end());
    policy.CreateFilter(views, &filter);
    return filter;
  }

  // A table whose only meta block is contents, named as a range filter of
  // this format.
  std::unique_ptr<TableFilter> OpenWithRangeBlock(absl::string_view format,
                                                  absl::string_view contents) {
    test::TableAssembler assembler;
    assembler.AddMetaBlock(RangeFilterKey(format),
                           assembler.AddBlock(contents));
    return Open(assembler.Finish());
  }

  std::unique_ptr<const FilterPolicy> Policy(bool self_checksum = true) {
    FilterOptions options = FilterOptions::BitsPerKey(kRangeBitsPerKey);
    options.self_checksum = self_checksum;
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
        NewGrafiteFilterPolicy(options);
    EXPECT_TRUE(policy.ok()) << policy.status();
    return std::move(*policy);
  }

  const std::vector<std::string> keys_ = test::MixedRangeKeys(20000, 3);
  const std::unique_ptr<const FilterPolicy> range_policy_ = Policy();
  const std::unique_ptr<const FilterPolicy> point_policy_ =
      NewBloomFilterPolicy(FilterOptions::BitsPerKey(10)).value();
};

TEST_F(RangeTableFilterTest, OurTable) {
  const std::unique_ptr<TableFilter> table = Open(test::AssembleRangeTable(
      keys_, point_policy_.get(), range_policy_.get()));
  ASSERT_NE(table, nullptr);
  EXPECT_TRUE(table->corruption().ok()) << table->corruption();
  const std::optional<RangeFilterInfo>& info = table->info().range_filter;
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->format_name, kCheckedGrafite);
  EXPECT_EQ(info->source, RangeFilterSource::kMetaBlock);
  EXPECT_EQ(info->note, "");
  // Keys in groups share a code.
  EXPECT_LT(info->num_codes, keys_.size());
  EXPECT_GT(info->num_codes, keys_.size() / 2);
  EXPECT_NEAR(info->bits_per_key, kRangeBitsPerKey, 1.5);
  EXPECT_GE(info->max_range_length, kMaxQueryCodes);
  ExpectNoFalseNegatives(*table);
  ExpectEmptyRangesRuledOut(*table);
  // The point filter answers as before.
  for (const std::string& key : keys_) ASSERT_TRUE(table->KeyMayMatch(key));
}

// The keyed coding, read from the table by its name like the plain one.
TEST_F(RangeTableFilterTest, KeyedFilter) {
  FilterOptions options = FilterOptions::BitsPerKey(kRangeBitsPerKey);
  const std::unique_ptr<const FilterPolicy> policy =
      NewGrafiteFilterPolicy(options, RangeKeyCoding::kPerTable).value();
  const std::unique_ptr<TableFilter> table =
      Open(test::AssembleRangeTable(keys_, nullptr, policy.get()));
  ASSERT_NE(table, nullptr);
  EXPECT_TRUE(table->corruption().ok()) << table->corruption();
  ASSERT_TRUE(table->info().range_filter.has_value());
  EXPECT_EQ(table->info().range_filter->format_name,
            "sstfilter.KeyedGrafiteByLength2");
  EXPECT_EQ(table->info().range_filter->note, "");
  ExpectNoFalseNegatives(*table);
}

TEST_F(RangeTableFilterTest, VersionOneFilter) {
  const std::unique_ptr<const FilterPolicy> policy = Policy(false);
  const std::unique_ptr<TableFilter> table =
      Open(test::AssembleRangeTable(keys_, nullptr, policy.get()));
  ASSERT_NE(table, nullptr);
  ASSERT_TRUE(table->info().range_filter.has_value());
  EXPECT_EQ(table->info().range_filter->format_name, "sstfilter.Grafite1");
  ExpectNoFalseNegatives(*table);
  ExpectEmptyRangesRuledOut(*table);
}

TEST_F(RangeTableFilterTest, RocksDbTableWithRangeProperty) {
  test::TempDir dir;
  const std::string path = dir.File("range.sst");
  ASSERT_TRUE(test::WriteRocksDbRangeTable(path, keys_, *range_policy_).ok());
  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::OpenFile(path, {});
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_TRUE((*table)->corruption().ok()) << (*table)->corruption();
  const std::optional<RangeFilterInfo>& info = (*table)->info().range_filter;
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->format_name, kCheckedGrafite);
  EXPECT_EQ(info->source, RangeFilterSource::kProperty);
  EXPECT_EQ((*table)->info().filter->policy_name, "rocksdb.BuiltinBloomFilter");
  EXPECT_EQ((*table)->io().reads, 1) << "the property is in the tail";
  ExpectNoFalseNegatives(**table);
  ExpectEmptyRangesRuledOut(**table);
}

// A damaged property value: the filter's own CRC32C catches it.
TEST_F(RangeTableFilterTest, RocksDbPropertyFailsItsCrc) {
  test::TempDir dir;
  const std::string path = dir.File("damaged.sst");
  ASSERT_TRUE(test::WriteRocksDbRangeTable(path, keys_, *range_policy_,
                                           [](std::string* filter) {
                                             (*filter)[filter->size() / 2] ^= 1;
                                           })
                  .ok());
  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::OpenFile(path, {});
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_TRUE(absl::IsDataLoss((*table)->corruption()))
      << (*table)->corruption();
  EXPECT_EQ((*table)->range_filter()->reader(), nullptr);
  ExpectEveryRangeMayMatch(**table);
}

// Damaged bytes inside the range filter block: its block checksum catches
// them, every range may match, and the point filter still answers.
TEST_F(RangeTableFilterTest, BlockFailsItsChecksum) {
  std::string bytes =
      test::AssembleRangeTable(keys_, point_policy_.get(), range_policy_.get());
  const std::unique_ptr<TableFilter> intact = Open(bytes);
  ASSERT_NE(intact, nullptr);
  const BlockHandle handle = intact->info().range_filter->handle;
  bytes[handle.offset + handle.size / 2] ^= 0x10;
  const std::unique_ptr<TableFilter> table = Open(bytes);
  ASSERT_NE(table, nullptr);
  EXPECT_TRUE(absl::IsDataLoss(table->corruption())) << table->corruption();
  EXPECT_TRUE(absl::StrContains(table->corruption().message(), "range filter"))
      << table->corruption();
  EXPECT_EQ(table->range_filter(), nullptr);
  ASSERT_TRUE(table->info().range_filter.has_value());
  EXPECT_NE(table->info().range_filter->note, "");
  EXPECT_EQ(table->info().range_filter->filter_bytes, handle.size);
  int ruled_out = 0;
  ExpectEveryRangeMayMatch(*table);
  for (uint64_t code = 1; code < 1000; ++code) {
    ruled_out += !table->KeyMayMatch(KeyOfRangeCode(code << 40));
  }
  EXPECT_GT(ruled_out, 900) << "the point filter still filters";
}

// A block whose trailer is sound but whose filter fails its own CRC32C (a
// writer that damaged it before the trailer was computed).
TEST_F(RangeTableFilterTest, FilterFailsItsCrc) {
  std::string filter = FilterOf(*range_policy_);
  filter[filter.size() / 3] ^= 0x04;
  const std::unique_ptr<TableFilter> table =
      OpenWithRangeBlock(kCheckedGrafite, filter);
  ASSERT_NE(table, nullptr);
  EXPECT_TRUE(absl::IsDataLoss(table->corruption())) << table->corruption();
  EXPECT_EQ(table->range_filter()->reader(), nullptr);
  ExpectEveryRangeMayMatch(*table);
}

// Version-1 bytes under the version-2 name: the name promises a CRC32C the
// bytes do not carry, so they are not trusted.
TEST_F(RangeTableFilterTest, NameAndBytesDisagree) {
  const std::unique_ptr<TableFilter> table =
      OpenWithRangeBlock(kCheckedGrafite, FilterOf(*Policy(false)));
  ASSERT_NE(table, nullptr);
  EXPECT_TRUE(absl::IsDataLoss(table->corruption())) << table->corruption();
  ExpectEveryRangeMayMatch(*table);
}

// Range filters of formats this library does not read as range filters: a
// note, every range may match, no corruption.
TEST_F(RangeTableFilterTest, UnknownFormat) {
  for (const char* format : {"acme.RangeFilter9", "sstfilter.LocalBloom2"}) {
    SCOPED_TRACE(format);
    const std::unique_ptr<TableFilter> table =
        OpenWithRangeBlock(format, FilterOf(*range_policy_));
    ASSERT_NE(table, nullptr);
    EXPECT_TRUE(table->corruption().ok()) << table->corruption();
    ASSERT_TRUE(table->info().range_filter.has_value());
    EXPECT_TRUE(absl::StrContains(table->info().range_filter->note, format))
        << table->info().range_filter->note;
    ExpectEveryRangeMayMatch(*table);
  }
}

TEST_F(RangeTableFilterTest, NoRangeFilter) {
  const std::unique_ptr<TableFilter> table =
      Open(test::AssembleRangeTable(keys_, point_policy_.get(), nullptr));
  ASSERT_NE(table, nullptr);
  EXPECT_FALSE(table->info().range_filter.has_value());
  EXPECT_EQ(table->range_filter(), nullptr);
  ExpectEveryRangeMayMatch(*table);
}

// A range filter block outside the tail costs one read of its own.
TEST_F(RangeTableFilterTest, BlockOutsideTheTailIsOneRead) {
  TableFilterOptions options;
  options.tail_prefetch_bytes = 0;  // the footer only
  const std::unique_ptr<TableFilter> without = Open(
      test::AssembleRangeTable(keys_, point_policy_.get(), nullptr), options);
  const std::unique_ptr<TableFilter> with = Open(
      test::AssembleRangeTable(keys_, point_policy_.get(), range_policy_.get()),
      options);
  ASSERT_NE(without, nullptr);
  ASSERT_NE(with, nullptr);
  EXPECT_EQ(with->io().reads, without->io().reads + 1);
  // Its bytes, and its entry in the metaindex.
  EXPECT_GE(with->io().bytes - without->io().bytes,
            with->info().range_filter->filter_bytes + kBlockTrailerBytes);
}

TEST(RangeFilterBlockBuilderTest, RefusesPointFilterPolicies) {
  const std::unique_ptr<const FilterPolicy> point =
      NewBloomFilterPolicy(FilterOptions::BitsPerKey(10)).value();
  absl::StatusOr<std::unique_ptr<RangeFilterBlockBuilder>> builder =
      RangeFilterBlockBuilder::New(*point);
  EXPECT_TRUE(absl::IsInvalidArgument(builder.status())) << builder.status();
}

}  // namespace
}  // namespace sstfilter
