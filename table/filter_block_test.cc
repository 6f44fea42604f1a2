// Tests of the filter block builders and readers, and a differential test of
// the per-2 KB layout against the filter blocks real LevelDB 1.23 writes.

#include "table/filter_block.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_format.h"
#include "filter/bloom/bloom.h"
#include "filter/leveldb/leveldb_bloom.h"
#include "gtest/gtest.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/options.h"
#include "leveldb/table.h"
#include "table/table_filter.h"
#include "table/testing/real_tables.h"
#include "util/coding.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

std::unique_ptr<const FilterPolicy> LevelDbPolicy() {
  return *NewLevelDbFilterPolicy(FilterOptions::BitsPerKey(10));
}

TEST(LevelDbFilterBlockTest, EmptyBuilder) {
  const auto policy = LevelDbPolicy();
  LevelDbFilterBlockBuilder builder(*policy);
  const std::string block = builder.Finish();
  // LevelDB 1.23 filter_block_test.cc, EmptyBuilder: no filters, the offset
  // array starts at 0, base_lg 11.
  EXPECT_EQ(absl::BytesToHexString(block), "000000000b");
  const auto reader = NewLevelDbFilterBlockReader(policy->Format(), block);
  EXPECT_TRUE(reader->KeyMayMatch("foo", 0)) << "past the last filter";
  EXPECT_TRUE(reader->KeyMayMatch("foo", 100000));
}

TEST(LevelDbFilterBlockTest, MultiChunk) {
  for (bool native : {false, true}) {
    const auto policy =
        native ? *NewBloomFilterPolicy(FilterOptions::BitsPerKey(10))
               : LevelDbPolicy();
    LevelDbFilterBlockBuilder builder(*policy);
    // Filter 0: blocks at 0 and 2000 (both below 2048).
    builder.StartBlock(0);
    builder.AddKey("foo");
    builder.StartBlock(2000);
    builder.AddKey("bar");
    // Filter 1: block at 3100.
    builder.StartBlock(3100);
    builder.AddKey("box");
    // Filters 2 and 3 are empty; filter 4: block at 9000.
    builder.StartBlock(9000);
    builder.AddKey("box");
    builder.AddKey("hello");
    const std::string block = builder.Finish();
    const auto reader = NewLevelDbFilterBlockReader(policy->Format(), block);
    EXPECT_EQ(reader->NumFilters(), 5u);
    EXPECT_TRUE(reader->KeyMayMatch("foo", 0));
    EXPECT_TRUE(reader->KeyMayMatch("bar", 2000));
    EXPECT_TRUE(reader->KeyMayMatch("box", 3100));
    EXPECT_TRUE(reader->KeyMayMatch("box", 9000));
    EXPECT_TRUE(reader->KeyMayMatch("hello", 9000));
    // Empty filters match nothing.
    EXPECT_FALSE(reader->KeyMayMatch("foo", 4100));
    EXPECT_FALSE(reader->KeyMayMatch("box", 6200));
    EXPECT_TRUE(reader->Filter(2).empty());
  }
}

// Malformed blocks: each case says why it answers as it does.
TEST(LevelDbFilterBlockTest, MalformedBlocks) {
  const auto policy = LevelDbPolicy();
  LevelDbFilterBlockBuilder builder(*policy);
  builder.StartBlock(0);
  builder.AddKey("foo");
  builder.StartBlock(5000);  // filters 1 empty, 2 holds "bar"
  builder.AddKey("bar");
  const std::string good = builder.Finish();
  const size_t array = DecodeFixed32(good.data() + good.size() - 5);
  struct Case {
    const char* why;
    std::string block;
    uint64_t offset;
    bool expect;
  };
  std::string bad_array = good;
  EncodeFixed32(&bad_array[bad_array.size() - 5],
                static_cast<uint32_t>(good.size()));
  std::string start_after_limit = good;
  EncodeFixed32(&start_after_limit[array], 1000);  // filter 0 starts past 1
  std::string limit_past_array = good;
  EncodeFixed32(&limit_past_array[array + 8], 0x7fffffff);  // filter 2's start
  std::string huge_base_lg = good;
  huge_base_lg.back() = 64;
  std::string ragged_array = good;  // a stray byte after the offset array
  ragged_array.insert(ragged_array.size() - 5, 1, 'x');
  const Case cases[] = {
      {"under 5 bytes: no filter can be read, so every key may match",
       good.substr(0, 4), 0, true},
      {"offset array past the block: errors are potential matches", bad_array,
       0, true},
      {"a filter past the last one: no filter covers it, may match", good,
       uint64_t{1} << 40, true},
      {"start after limit: bounds inconsistent, may match", start_after_limit,
       0, true},
      {"a filter whose bounds pass the offset array: may match",
       limit_past_array, 4096, true},
      {"an empty filter: its range holds no keys", good, 2048, false},
      {"base_lg 64: no range can be computed (undefined in LevelDB), may match",
       huge_base_lg, 2048, true},
      {"array length not a multiple of 4: the whole entries are read, as "
       "LevelDB does, so filter 1 is still empty",
       ragged_array, 2048, false},
  };
  for (const Case& c : cases) {
    const auto reader = NewLevelDbFilterBlockReader(policy->Format(), c.block);
    EXPECT_EQ(reader->KeyMayMatch("foo-not-added", c.offset), c.expect)
        << c.why;
  }
}

// Every truncation and single-bit flip of a small block, read by this
// reader (stricter than LevelDB's: base_lg must be 11, offsets start at 0 and
// never decrease), for each added key at its data-block offset. Returns the
// lookups that answered "no", counting apart those whose damage lay in the
// filters' own bytes (before the offset array).
struct DamageMisses {
  size_t in_filters = 0;
  size_t elsewhere = 0;  // in the offset array or the trailer, or a truncation
};

DamageMisses DamageEveryBit(const FilterPolicy& policy) {
  LevelDbFilterBlockBuilder builder(policy);
  std::vector<std::pair<std::string, uint64_t>> added;
  for (int i = 0; i < 40; ++i) {
    const uint64_t offset = 700 * i;
    builder.StartBlock(offset);
    const std::string key = absl::StrFormat("key%d", i);
    builder.AddKey(key);
    added.emplace_back(key, offset);
  }
  const std::string block = builder.Finish();
  const uint64_t array_offset = DecodeFixed32(block.data() + block.size() - 5);
  DamageMisses misses;
  const auto count = [&](absl::string_view damaged, bool in_filters) {
    const auto reader = NewLevelDbFilterBlockReader(policy.Format(), damaged);
    size_t n = 0;
    for (const auto& [key, offset] : added)
      n += !reader->KeyMayMatch(key, offset);
    reader->ExpectedFpp();
    (in_filters ? misses.in_filters : misses.elsewhere) += n;
  };
  for (size_t n = 0; n < block.size(); ++n) {
    std::string cut = block.substr(0, n);
    cut.shrink_to_fit();  // ASan then sees a read past the end
    count(cut, false);
  }
  for (size_t bit = 0; bit < 8 * block.size(); ++bit) {
    std::string flipped = block;
    flipped[bit / 8] ^= static_cast<char>(1 << (bit % 8));
    count(flipped, bit / 8 < array_offset);
  }
  return misses;
}

// With the native filter's version 2 (a CRC32C in each filter), no damage
// anywhere in the block loses a key.
TEST(LevelDbFilterBlockTest, DamageNeverLosesAKeyWithSelfCheckingFilters) {
  const auto policy = *NewBloomFilterPolicy(FilterOptions::BitsPerKey(10));
  const DamageMisses misses = DamageEveryBit(*policy);
  EXPECT_EQ(misses.in_filters, 0u);
  EXPECT_EQ(misses.elsewhere, 0u);
}

// The control: LevelDB's own filters carry no checksum, and the same damage
// does lose keys with them (a flip inside a filter, or in an offset, which
// hands a filter other bytes); in a table the block checksum is what catches
// it (table_filter_test.cc). Reading every damaged block is still total: no
// crash, no read outside it (under ASan).
TEST(LevelDbFilterBlockTest, DamageLosesKeysWithoutSelfCheckingFilters) {
  const DamageMisses misses = DamageEveryBit(*LevelDbPolicy());
  EXPECT_GT(misses.in_filters, 0u);
  EXPECT_GT(misses.elsewhere, 0u);
}

TEST(FullFilterBlockTest, IsThePolicysFilter) {
  const auto policy = *NewBloomFilterPolicy(FilterOptions::Fpp(0.01));
  FullFilterBlockBuilder builder(*policy);
  std::string expected;
  std::unique_ptr<FilterBuilder> direct = policy->NewBuilder();
  for (int i = 0; i < 1000; ++i) {
    builder.AddKey(absl::StrFormat("k%d", i));
    direct->AddKey(absl::StrFormat("k%d", i));
  }
  direct->Finish(&expected);
  const std::string block = builder.Finish();
  EXPECT_EQ(block, expected);
  const auto reader = NewFullFilterBlockReader(policy->Format(), block);
  EXPECT_FALSE(reader->NeedsDataBlockOffset());
  for (int i = 0; i < 1000; ++i) {
    EXPECT_TRUE(reader->KeyMayMatch(absl::StrFormat("k%d", i), 0));
  }
}

// The filter block real LevelDB writes, rebuilt from the same StartBlock /
// AddKey sequence: identical bytes. Each key's data-block offset comes from
// leveldb::Table::ApproximateOffsetOf, which for a key in the table returns
// the offset of the data block holding it (LevelDB table/table.cc).
TEST(LevelDbFilterBlockTest, SameBytesAsLevelDb) {
  std::unique_ptr<const leveldb::FilterPolicy> leveldb_policy(
      leveldb::NewBloomFilterPolicy(10));
  const auto policy = LevelDbPolicy();
  test::TempDir dir;
  for (int round = 0; round < 12; ++round) {
    test::Random random(round);
    std::vector<std::string> keys;
    const size_t n = random.Range(1, 3000);
    for (size_t i = 0; i < n; ++i) {
      keys.push_back(random.Bytes(random.Range(1, 40)));
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    const std::string path = dir.File(absl::StrFormat("t%d.ldb", round));
    test::LevelDbTableOptions options;
    options.filter_policy = leveldb_policy.get();
    // Every third round writes blocks far larger than 2 KB, so the last data
    // block spans several filter ranges.
    options.block_size =
        round % 3 == 2 ? 64 * 1024 : static_cast<int>(random.Range(64, 4096));
    options.compression = round % 2 == 0;
    ASSERT_TRUE(test::WriteLevelDbTable(path, keys, options).ok());

    leveldb::RandomAccessFile* file = nullptr;
    ASSERT_TRUE(leveldb::Env::Default()->NewRandomAccessFile(path, &file).ok());
    std::unique_ptr<leveldb::RandomAccessFile> owned_file(file);
    uint64_t size = 0;
    ASSERT_TRUE(leveldb::Env::Default()->GetFileSize(path, &size).ok());
    leveldb::Options open_options;
    open_options.filter_policy = leveldb_policy.get();
    leveldb::Table* raw_table = nullptr;
    ASSERT_TRUE(
        leveldb::Table::Open(open_options, file, size, &raw_table).ok());
    std::unique_ptr<leveldb::Table> table(raw_table);

    TableFilterOptions read_options;
    read_options.index_keys = IndexKeys::kUser;
    absl::StatusOr<std::unique_ptr<TableFilter>> theirs =
        TableFilter::OpenFile(path, read_options);
    ASSERT_TRUE(theirs.ok()) << theirs.status();
    ASSERT_TRUE((*theirs)->info().filter.has_value());

    LevelDbFilterBlockBuilder builder(*policy);
    uint64_t current = UINT64_MAX;
    for (const std::string& key : keys) {
      const uint64_t offset = table->ApproximateOffsetOf(key);
      if (offset != current) builder.StartBlock(offset);
      current = offset;
      builder.AddKey(key);
    }
    // leveldb::TableBuilder::Finish starts one more block at the end of the
    // data blocks, which is where the filter block begins; when the last data
    // block ends past a 2 KB boundary this adds empty filters' offsets.
    builder.StartBlock((*theirs)->info().filter->handle.offset);
    const std::string ours = builder.Finish();

    ASSERT_EQ(absl::BytesToHexString(ours),
              absl::BytesToHexString((*theirs)->filter_block_contents()))
        << "round " << round << ", " << keys.size() << " keys";
    for (const std::string& key : keys) {
      ASSERT_TRUE((*theirs)->KeyMayMatch(key));
    }
  }
}

}  // namespace
}  // namespace sstfilter
