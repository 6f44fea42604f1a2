// The table layer's own builders (full and partitioned filter blocks, of
// whole keys, prefixes or both) in tables laid out as an engine writes them,
// read back by TableFilter; and what TableFilter does with partitioned and
// prefix metadata that is wrong.

#include "table/partitioned_filter_block.h"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "filter/bloom/bloom.h"
#include "filter/burr/burr.h"
#include "filter/prefix_extractor.h"
#include "gtest/gtest.h"
#include "table/block_builder.h"
#include "table/filter_block.h"
#include "table/meta_blocks.h"
#include "table/random_access_file.h"
#include "table/table_filter.h"
#include "table/testing/table_assembler.h"
#include "util/coding.h"
#include "util/grouped_keys.h"

namespace sstfilter {
namespace {

constexpr double kFpp = 0.01;
constexpr size_t kKeysPerDataBlock = 16;
constexpr size_t kPartitionBytes = 1024;
constexpr size_t kAbsent = 4000;
constexpr size_t kSmallFilterOverhead = 128;  // bytes
constexpr char kIndexKeyIsUserKey[] = "rocksdb.index.key.is.user.key";

// See partitioned_table_filter_test.cc: twice the rate plus 4 sigma.
double MaxMatches(size_t n) {
  const double p = 2 * kFpp;
  return n * p + 4 * std::sqrt(p * n);
}

const GroupedKeys& Keys() {
  static const GroupedKeys* keys =
      new GroupedKeys(MakeReadableGroupedKeys(300, 20, kAbsent, /*seed=*/7));
  return *keys;
}

std::shared_ptr<const PrefixExtractor> GroupExtractor() {
  return NewFixedPrefixExtractor(kGroupPrefixBytes);
}

using Built = test::AssembledTable;

Built BuildPartitionedTable(const FilterPolicy& policy,
                            const PartitionedFilterOptions& options,
                            const std::vector<std::string>& keys,
                            bool user_keys) {
  return test::AssemblePartitionedTable(policy, options, keys,
                                        kKeysPerDataBlock, user_keys);
}

std::unique_ptr<TableFilter> OpenBytes(const std::string& bytes,
                                       TableFilterOptions options = {}) {
  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::Open(NewStringFile(bytes), options);
  EXPECT_TRUE(table.ok()) << table.status();
  return table.ok() ? std::move(*table) : nullptr;
}

// Every key and prefix present matches; absent ones are ruled out at about
// the filter's rate, as keys says the filter holds them.
void ExpectAnswers(const TableFilter& table, FilterKeys keys) {
  ASSERT_TRUE(table.corruption().ok()) << table.corruption();
  const GroupedKeys& k = Keys();
  for (const std::string& key : k.keys) {
    ASSERT_TRUE(table.KeyMayMatch(key)) << "false negative: " << key;
    ASSERT_TRUE(table.PrefixMayMatch(key.substr(0, kGroupPrefixBytes)))
        << "prefix false negative: " << key;
  }
  size_t absent_keys = 0, absent_group_keys = 0, absent_prefixes = 0;
  for (const std::string& key : k.absent_in_present_groups) {
    absent_keys += table.KeyMayMatch(key);
  }
  for (const std::string& key : k.absent_in_absent_groups) {
    absent_group_keys += table.KeyMayMatch(key);
    absent_prefixes += table.PrefixMayMatch(key.substr(0, kGroupPrefixBytes));
  }
  if (keys == FilterKeys::kPrefixes) {
    EXPECT_GT(absent_keys, kAbsent / 2) << "only prefixes to ask";
  } else {
    EXPECT_LE(absent_keys, MaxMatches(kAbsent));
  }
  EXPECT_LE(absent_group_keys, MaxMatches(kAbsent));
  if (keys == FilterKeys::kWholeKeys) {
    EXPECT_EQ(absent_prefixes, kAbsent) << "no prefixes: all may match";
  } else {
    EXPECT_LE(absent_prefixes, MaxMatches(kAbsent));
  }
}

struct Case {
  bool compact;  // the compact filter, else the native one
  FilterKeys keys;
  bool user_keys;
};

class OwnBuilderTest : public testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    policy_ = GetParam().compact
                  ? std::move(*NewBurrFilterPolicy(FilterOptions::Fpp(kFpp)))
                  : std::move(*NewBloomFilterPolicy(FilterOptions::Fpp(kFpp)));
  }
  FilterBlockOptions KeysOptions() const {
    FilterBlockOptions options;
    options.keys = GetParam().keys;
    options.prefix_extractor = GroupExtractor();
    return options;
  }
  std::unique_ptr<const FilterPolicy> policy_;
};

TEST_P(OwnBuilderTest, PartitionedTable) {
  PartitionedFilterOptions options;
  options.keys = KeysOptions();
  // A filter of prefixes only holds one string per group: smaller
  // partitions, to have several.
  const size_t target = GetParam().keys == FilterKeys::kPrefixes
                            ? kPartitionBytes / 16
                            : kPartitionBytes;
  options.partition_bytes = target;
  const Built built = BuildPartitionedTable(*policy_, options, Keys().keys,
                                            GetParam().user_keys);
  std::unique_ptr<TableFilter> table = OpenBytes(built.file);
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->info().filter->layout, FilterLayout::kPartitioned);
  ASSERT_EQ(table->info().num_filters, built.partition_bytes.size());
  ASSERT_GT(built.partition_bytes.size(), 4u);
  // Cut at the first data-block boundary past the target: each partition
  // but the last is the target or up to one data block's keys (and
  // prefixes) more, give or take the filter's own rounding and a small
  // filter's fixed overhead (kSmallFilterOverhead).
  const double block_bytes = 2 * kKeysPerDataBlock * policy_->BitsPerKey() / 8;
  for (size_t i = 0; i + 1 < built.partition_bytes.size(); ++i) {
    EXPECT_GE(built.partition_bytes[i], 0.9 * target) << i;
    EXPECT_LE(built.partition_bytes[i],
              1.1 * (target + block_bytes) + kSmallFilterOverhead)
        << i;
  }
  ExpectAnswers(*table, GetParam().keys);
}

TEST_P(OwnBuilderTest, FullTable) {
  absl::StatusOr<std::unique_ptr<FullFilterBlockBuilder>> builder =
      FullFilterBlockBuilder::New(*policy_, KeysOptions());
  ASSERT_TRUE(builder.ok()) << builder.status();
  for (const std::string& key : Keys().keys) (*builder)->AddKey(key);
  test::TableAssembler assembler;
  assembler.AddMetaBlock(absl::StrCat(kFullFilterPrefix, policy_->Name()),
                         assembler.AddBlock((*builder)->Finish()));
  for (const auto& [name, value] : FilterKeysProperties(KeysOptions())) {
    assembler.AddProperty(name, value);
  }
  std::unique_ptr<TableFilter> table = OpenBytes(assembler.Finish());
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->info().filter->layout, FilterLayout::kFull);
  ExpectAnswers(*table, GetParam().keys);
}

INSTANTIATE_TEST_SUITE_P(
    Policies, OwnBuilderTest,
    testing::Values(Case{false, FilterKeys::kWholeKeys, true},
                    Case{false, FilterKeys::kWholeKeysAndPrefixes, false},
                    Case{false, FilterKeys::kPrefixes, true},
                    Case{true, FilterKeys::kWholeKeys, false},
                    Case{true, FilterKeys::kWholeKeysAndPrefixes, true},
                    Case{true, FilterKeys::kPrefixes, false}));

class PartitionedBadInputTest : public testing::Test {
 protected:
  void SetUp() override {
    policy_ = std::move(*NewBloomFilterPolicy(FilterOptions::Fpp(kFpp)));
  }
  // A table whose partition index is `index` (partitions: whatever blocks
  // the caller added to assembler first).
  std::string TableWithIndex(test::TableAssembler* assembler,
                             const std::string& index) {
    assembler->AddMetaBlock(
        absl::StrCat(kPartitionedFilterPrefix, policy_->Name()),
        assembler->AddBlock(index));
    assembler->AddVarintProperty(kIndexKeyIsUserKey, 1);
    return assembler->Finish();
  }
  void ExpectEveryKeyMatches(const TableFilter& table) {
    for (const std::string& key : Keys().absent_in_absent_groups) {
      ASSERT_TRUE(table.KeyMayMatch(key)) << key;
    }
  }
  std::unique_ptr<const FilterPolicy> policy_;
};

TEST_F(PartitionedBadInputTest, BuilderRefusesInvalidOptions) {
  PartitionedFilterOptions options;
  options.keys.keys = FilterKeys::kPrefixes;
  EXPECT_TRUE(absl::IsInvalidArgument(
      PartitionedFilterBlockBuilder::New(*policy_, options).status()));
  EXPECT_TRUE(absl::IsInvalidArgument(
      FullFilterBlockBuilder::New(*policy_, options.keys).status()));
  options.keys.keys = FilterKeys::kWholeKeys;
  options.partition_bytes = 0;
  absl::Status zero =
      PartitionedFilterBlockBuilder::New(*policy_, options).status();
  EXPECT_TRUE(absl::IsInvalidArgument(zero));
  EXPECT_NE(zero.message().find("partition_bytes"), std::string::npos);
}

TEST_F(PartitionedBadInputTest, FinishRefusesKeysAfterTheLastDataBlock) {
  std::unique_ptr<PartitionedFilterBlockBuilder> builder =
      std::move(*PartitionedFilterBlockBuilder::New(*policy_, {}));
  builder->AddKey("a");
  builder->EndDataBlock("a", absl::string_view("b"));
  builder->AddKey("b");
  absl::StatusOr<std::string> index = builder->Finish([](absl::string_view) {
    return BlockHandle{0, 0};
  });
  EXPECT_TRUE(absl::IsFailedPrecondition(index.status())) << index.status();
}

TEST_F(PartitionedBadInputTest, TableWithoutKeysMatchesEverything) {
  std::unique_ptr<PartitionedFilterBlockBuilder> builder =
      std::move(*PartitionedFilterBlockBuilder::New(*policy_, {}));
  test::TableAssembler assembler;
  absl::StatusOr<std::string> index = builder->Finish(
      [&](absl::string_view p) { return assembler.AddBlock(p); });
  ASSERT_TRUE(index.ok());
  std::unique_ptr<TableFilter> table =
      OpenBytes(TableWithIndex(&assembler, *index));
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->info().num_filters, 0u);
  ExpectEveryKeyMatches(*table);
}

TEST_F(PartitionedBadInputTest, PartitionOutsideTheFile) {
  test::TableAssembler assembler;
  const BlockHandle real = assembler.AddBlock("filter bytes");
  BlockBuilder index;
  std::string handle;
  EncodeBlockHandle(real, &handle);
  index.Add("m", handle);
  handle.clear();
  EncodeBlockHandle({1u << 30, 100}, &handle);
  index.Add("z", handle);
  std::unique_ptr<TableFilter> table =
      OpenBytes(TableWithIndex(&assembler, index.Finish()));
  ASSERT_NE(table, nullptr);
  EXPECT_TRUE(absl::IsDataLoss(table->corruption()));
  EXPECT_NE(table->corruption().message().find("outside the file"),
            std::string::npos)
      << table->corruption();
  ExpectEveryKeyMatches(*table);
}

TEST_F(PartitionedBadInputTest, PartitionsOutOfOrder) {
  test::TableAssembler assembler;
  BlockBuilder index;
  for (const char* key : {"m", "c"}) {  // "c" after "m": out of order
    std::string handle;
    EncodeBlockHandle(assembler.AddBlock(std::string(64, '\0')), &handle);
    index.Add(key, handle);
  }
  std::unique_ptr<TableFilter> table =
      OpenBytes(TableWithIndex(&assembler, index.Finish()));
  ASSERT_NE(table, nullptr);
  EXPECT_NE(table->corruption().message().find("out of order"),
            std::string::npos)
      << table->corruption();
  EXPECT_TRUE(table->KeyMayMatch("a"));
  EXPECT_TRUE(table->KeyMayMatch("zz"));
}

TEST_F(PartitionedBadInputTest, MalformedIndex) {
  for (const std::string& index :
       {std::string("\x01"), std::string("\x00\x05\x02"
                                         "ab",
                                         5) +
                                 std::string("\0\0\0\0\1\0\0\0", 8)}) {
    test::TableAssembler assembler;
    std::unique_ptr<TableFilter> table =
        OpenBytes(TableWithIndex(&assembler, index));
    ASSERT_NE(table, nullptr);
    EXPECT_TRUE(absl::IsDataLoss(table->corruption())) << table->corruption();
    ExpectEveryKeyMatches(*table);
  }
}

TEST_F(PartitionedBadInputTest, CorruptPartitionCostsOnlyItsKeys) {
  PartitionedFilterOptions options;
  options.partition_bytes = kPartitionBytes;
  Built built = BuildPartitionedTable(*policy_, options, Keys().keys,
                                      /*user_keys=*/true);
  std::unique_ptr<TableFilter> sound = OpenBytes(built.file);
  ASSERT_NE(sound, nullptr);
  const std::vector<FilterPartition> partitions = sound->info().partitions;
  ASSERT_GT(partitions.size(), 3u);
  constexpr size_t kDamaged = 1;
  built.file[partitions[kDamaged].handle.offset + 10] ^= 0x20;
  // The smallest tail: partitions are read, and checked, when first asked.
  TableFilterOptions options_read;
  options_read.tail_prefetch_bytes = 0;
  std::unique_ptr<TableFilter> table = OpenBytes(built.file, options_read);
  ASSERT_NE(table, nullptr);
  EXPECT_TRUE(table->corruption().ok()) << "found only when read";
  size_t in_damaged = 0, in_damaged_matched = 0, elsewhere = 0,
         elsewhere_matched = 0;
  for (const std::string& key : Keys().absent_in_absent_groups) {
    const bool match = table->KeyMayMatch(key);
    if (table->PartitionOf(key) == kDamaged) {
      ++in_damaged;
      in_damaged_matched += match;
    } else {
      ++elsewhere;
      elsewhere_matched += match;
    }
  }
  ASSERT_GT(in_damaged, 0u);
  EXPECT_EQ(in_damaged_matched, in_damaged) << "its keys may all match";
  EXPECT_LE(elsewhere_matched, MaxMatches(elsewhere)) << "others filtered";
  for (const std::string& key : Keys().keys) {
    ASSERT_TRUE(table->KeyMayMatch(key)) << key;
  }
  EXPECT_TRUE(absl::IsDataLoss(table->corruption()));
  EXPECT_NE(table->corruption().message().find("filter partition 1"),
            std::string::npos)
      << table->corruption();
}

// A table whose filter holds prefixes cut by an extractor named `name`.
std::string PrefixTable(const FilterPolicy& policy, const std::string& name,
                        FilterKeys keys) {
  FilterBlockOptions options;
  options.keys = keys;
  options.prefix_extractor = GroupExtractor();
  std::unique_ptr<FullFilterBlockBuilder> builder =
      std::move(*FullFilterBlockBuilder::New(policy, options));
  for (const std::string& key : Keys().keys) builder->AddKey(key);
  test::TableAssembler assembler;
  assembler.AddMetaBlock(absl::StrCat(kFullFilterPrefix, policy.Name()),
                         assembler.AddBlock(builder->Finish()));
  assembler.AddProperty(kPrefixExtractorNameProperty, name);
  assembler.AddProperty(kWholeKeyFilteringProperty,
                        keys == FilterKeys::kPrefixes ? "0" : "1");
  return assembler.Finish();
}

TEST_F(PartitionedBadInputTest, UnknownExtractorMatchesEveryPrefix) {
  const std::string bytes =
      PrefixTable(*policy_, "com.example.Custom", FilterKeys::kPrefixes);
  std::unique_ptr<TableFilter> table = OpenBytes(bytes);
  ASSERT_NE(table, nullptr);
  EXPECT_FALSE(table->FiltersPrefixes());
  EXPECT_NE(table->info().prefix_note.find("com.example.Custom"),
            std::string::npos)
      << table->info().prefix_note;
  ExpectEveryKeyMatches(*table);
  for (const std::string& prefix : Keys().absent_prefixes) {
    ASSERT_TRUE(table->PrefixMayMatch(prefix));
  }
  // A reader that brings an extractor of that name has its prefixes.
  class Custom : public PrefixExtractor {
   public:
    const std::string& Name() const override { return name_; }
    bool InDomain(absl::string_view key) const override {
      return key.size() >= kGroupPrefixBytes;
    }
    absl::string_view Transform(absl::string_view key) const override {
      return key.substr(0, kGroupPrefixBytes);
    }

   private:
    const std::string name_ = "com.example.Custom";
  };
  TableFilterOptions options;
  options.prefix_extractor = std::make_shared<Custom>();
  std::unique_ptr<TableFilter> with_custom = OpenBytes(bytes, options);
  ASSERT_NE(with_custom, nullptr);
  EXPECT_TRUE(with_custom->FiltersPrefixes());
  ExpectAnswers(*with_custom, FilterKeys::kPrefixes);
}

TEST_F(PartitionedBadInputTest, ReaderWithAnotherExtractor) {
  const std::string bytes =
      PrefixTable(*policy_, GroupExtractor()->Name(), FilterKeys::kPrefixes);
  TableFilterOptions options;
  options.prefix_extractor = NewFixedPrefixExtractor(kGroupPrefixBytes - 1);
  std::unique_ptr<TableFilter> table = OpenBytes(bytes, options);
  ASSERT_NE(table, nullptr);
  EXPECT_FALSE(table->FiltersPrefixes());
  for (const std::string& prefix : Keys().absent_prefixes) {
    ASSERT_TRUE(table->PrefixMayMatch(prefix.substr(0, kGroupPrefixBytes - 1)));
  }
  // Whole keys are still answered through the table's own extractor.
  size_t matched = 0;
  for (const std::string& key : Keys().absent_in_absent_groups) {
    matched += table->KeyMayMatch(key);
  }
  EXPECT_LE(matched, MaxMatches(kAbsent));
  for (const std::string& key : Keys().keys)
    ASSERT_TRUE(table->KeyMayMatch(key));
}

TEST_F(PartitionedBadInputTest, PrefixQuestionsNeedAPrefix) {
  const std::string bytes = PrefixTable(*policy_, GroupExtractor()->Name(),
                                        FilterKeys::kWholeKeysAndPrefixes);
  std::unique_ptr<TableFilter> table = OpenBytes(bytes);
  ASSERT_NE(table, nullptr);
  ASSERT_TRUE(table->FiltersPrefixes());
  // Shorter or longer than the extractor cuts: not a prefix it holds.
  const std::string& absent = Keys().absent_prefixes[0];
  EXPECT_TRUE(table->PrefixMayMatch(absent.substr(0, 3)));
  EXPECT_TRUE(table->PrefixMayMatch(absent + "x"));
}

// Keys shorter than a fixed extractor's length have no prefix (RocksDB's
// InDomain): nothing is added for them, so a prefix-only filter must answer
// "may match" for them, never "no".
TEST_F(PartitionedBadInputTest, KeysOutsideTheDomainMayMatch) {
  FilterBlockOptions options;
  options.keys = FilterKeys::kPrefixes;
  options.prefix_extractor = GroupExtractor();
  std::unique_ptr<FullFilterBlockBuilder> builder =
      std::move(*FullFilterBlockBuilder::New(*policy_, options));
  const std::vector<std::string> keys = {"ab", "abc", "g0000002xyz", "zz"};
  for (const std::string& key : keys) builder->AddKey(key);
  test::TableAssembler assembler;
  assembler.AddMetaBlock(absl::StrCat(kFullFilterPrefix, policy_->Name()),
                         assembler.AddBlock(builder->Finish()));
  for (const auto& [name, value] : FilterKeysProperties(options)) {
    assembler.AddProperty(name, value);
  }
  std::unique_ptr<TableFilter> table = OpenBytes(assembler.Finish());
  ASSERT_NE(table, nullptr);
  for (const std::string& key : keys) EXPECT_TRUE(table->KeyMayMatch(key));
  EXPECT_TRUE(table->KeyMayMatch("a")) << "short: no prefix to ask";
  EXPECT_TRUE(table->PrefixMayMatch("ab")) << "not a prefix the extractor cuts";
  EXPECT_TRUE(table->PrefixMayMatch("g0000002"));
  size_t matched = 0;
  for (const std::string& prefix : Keys().absent_prefixes) {
    matched += table->PrefixMayMatch(prefix);
  }
  EXPECT_LE(matched, MaxMatches(Keys().absent_prefixes.size()));
}

}  // namespace
}  // namespace sstfilter
