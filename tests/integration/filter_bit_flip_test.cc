// Single-bit flips of a filter block in real databases whose block checksum
// does not catch them: LevelDB with its default options (paranoid_checks =
// false, so Table::ReadFilter reads the filter block unverified), and RocksDB
// with the block checksum recomputed over the damage. After each flip the
// database is reopened and every key is looked up: with sstfilter's default
// format (version 2, a CRC32C of each filter's own bytes) none is lost. The
// same flips with version 1 (self_checksum = false) do lose keys, which shows
// that the flips reach a filter the engine does not check and that the lookups
// would see a loss.

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engines/leveldb/leveldb_adapter.h"
#include "engines/rocksdb/rocksdb_adapter.h"
#include "filter/bloom/bloom.h"
#include "filter/burr/burr.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/filter_policy.h"
#include "leveldb/options.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "table/block_trailer.h"
#include "table/format.h"
#include "table/table_filter.h"
#include "table/testing/real_tables.h"
#include "tests/integration/rocksdb_db_util.h"

namespace sstfilter {
namespace test {
namespace {

using PolicyFactory = absl::StatusOr<std::unique_ptr<const FilterPolicy>> (*)(
    const FilterOptions&);

std::shared_ptr<const FilterPolicy> Policy(PolicyFactory factory,
                                           bool self_checksum) {
  FilterOptions options = FilterOptions::Fpp(0.01);
  options.self_checksum = self_checksum;
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy = factory(options);
  EXPECT_TRUE(policy.ok()) << policy.status();
  return *std::move(policy);
}

// The filter block of the table file at path: offset and size, from
// sstfilter's table reader, and what its checksum needs (the file's checksum
// type, and the context format_version 6 mixes in).
BlockHandle FilterBlockOf(const std::string& path,
                          ChecksumType* checksum_type = nullptr,
                          BlockChecksumContext* context = nullptr) {
  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::OpenFile(path, {});
  EXPECT_TRUE(table.ok()) << table.status();
  if (!table.ok() || !(*table)->info().filter.has_value()) return {};
  const TableFilterInfo& info = (*table)->info();
  if (checksum_type != nullptr) {
    *checksum_type = static_cast<ChecksumType>(info.footer.checksum_type);
  }
  if (context != nullptr)
    *context = ContextOf(info.footer, info.filter->handle);
  return info.filter->handle;
}

// The bits a run flips: every stride-th bit of the block, and every bit of its
// last 16 bytes (the trailers, where each bit means the most).
std::vector<uint64_t> BitsToFlip(const BlockHandle& block, uint64_t stride) {
  std::vector<uint64_t> bits;
  const uint64_t total = 8 * block.size;
  for (uint64_t bit = 0; bit < total; ++bit) {
    if (bit % stride == 0 || bit + 128 >= total) bits.push_back(bit);
  }
  return bits;
}

struct FlipRun {
  size_t flips = 0;
  size_t flips_losing_keys = 0;  // flips after which some key was lost
  size_t lost = 0;               // lookups of present keys that failed
  std::string first_loss;        // the first flip that lost a key, and why
};

// Flips each bit of the filter block of table in turn, calls look_up (which
// reopens the database and returns how many present keys it failed to find,
// and a note), and restores the table.
// With recompute_block_checksum, the block's trailer is rewritten to match
// the damaged contents: damage the host cannot see (a bit flipped in memory
// before the table was written).
template <typename LookUp>
FlipRun FlipEachBit(const std::string& table, const std::vector<uint64_t>& bits,
                    LookUp look_up, bool recompute_block_checksum = false) {
  ChecksumType checksum_type = ChecksumType::kCrc32c;
  BlockChecksumContext context;
  const BlockHandle block = FilterBlockOf(table, &checksum_type, &context);
  const absl::StatusOr<std::string> original = ReadFileBytes(table);
  EXPECT_TRUE(original.ok()) << original.status();
  FlipRun run;
  if (!original.ok() || block.size == 0) return run;
  for (uint64_t bit : bits) {
    std::string damaged = *original;
    damaged[block.offset + bit / 8] ^= static_cast<char>(1 << (bit % 8));
    if (recompute_block_checksum) {
      std::string contents = damaged.substr(block.offset, block.size);
      AppendBlockTrailer(CompressionType::kNone, checksum_type, &contents,
                         context);
      damaged.replace(block.offset, contents.size(), contents);
    }
    EXPECT_TRUE(WriteFileBytes(table, damaged).ok());
    std::string note;
    const size_t lost = look_up(&note);
    ++run.flips;
    if (lost > 0) {
      ++run.flips_losing_keys;
      run.lost += lost;
      if (run.first_loss.empty()) {
        run.first_loss =
            absl::StrFormat("bit %d of %d-byte filter block: %d keys lost (%s)",
                            bit, block.size, lost, note);
      }
    }
  }
  EXPECT_TRUE(WriteFileBytes(table, *original).ok());
  return run;
}

// ---- LevelDB, default options -------------------------------------------

struct LevelDbCase {
  const char* name;
  PolicyFactory factory;
  uint64_t stride;  // flip every stride-th bit of the filters and offsets
};

class LevelDbBitFlipTest : public testing::TestWithParam<LevelDbCase> {};

// One table of about ten data blocks, so about twenty filter slices.
constexpr size_t kLevelDbEntries = 500;
// A LevelDB filter block ends with a fixed32 offset and a base_lg byte.
constexpr uint64_t kLevelDbTrailerBytes = 5;

leveldb::Options LevelDbOptions(const leveldb::FilterPolicy* policy) {
  leveldb::Options options;  // paranoid_checks = false: LevelDB's default
  options.filter_policy = policy;
  return options;
}

void WriteLevelDb(const std::string& dir, const leveldb::FilterPolicy* policy,
                  const std::vector<Entry>& entries) {
  leveldb::Options options = LevelDbOptions(policy);
  options.create_if_missing = true;
  leveldb::DB* raw = nullptr;
  ASSERT_TRUE(leveldb::DB::Open(options, dir, &raw).ok());
  std::unique_ptr<leveldb::DB> db(raw);
  for (const Entry& entry : entries) {
    ASSERT_TRUE(db->Put(leveldb::WriteOptions(), entry.key, entry.value).ok());
  }
  db->CompactRange(nullptr, nullptr);
}

// Reopens the LevelDB database and looks up every entry; returns the number
// not found with its value.
size_t LevelDbLost(const std::string& dir, const leveldb::FilterPolicy* policy,
                   const std::vector<Entry>& entries, std::string* note) {
  leveldb::DB* raw = nullptr;
  const leveldb::Status open =
      leveldb::DB::Open(LevelDbOptions(policy), dir, &raw);
  if (!open.ok()) {
    *note = "open: " + open.ToString();
    return entries.size();
  }
  std::unique_ptr<leveldb::DB> db(raw);
  size_t lost = 0;
  for (const Entry& entry : entries) {
    std::string value;
    const leveldb::Status s =
        db->Get(leveldb::ReadOptions(), entry.key, &value);
    if (!s.ok() || value != entry.value) {
      if (lost++ == 0) *note = s.ToString();
    }
  }
  return lost;
}

// Every bit of the table's filter block (every third for the compact filter,
// for time). LevelDB's block is the filters, an
// offset array, then five bytes of its own: the offset of that array and
// base_lg. LevelDB routes a key to a filter by those five bytes unverified, and
// answers an empty slice "no" without asking the policy, so a flip there can
// send a key to an empty slice or to another range's (intact) filter, and no
// filter format can see it. Those 40 bits are counted apart; every other flip
// must lose nothing.
TEST_P(LevelDbBitFlipTest, NoFlipOutsideLevelDbsTrailerLosesAKey) {
  const std::vector<Entry> entries = RandomEntries(kLevelDbEntries, 60, 17);
  TempDir dir;
  const std::unique_ptr<leveldb::FilterPolicy> policy =
      AsLevelDbFilterPolicy(Policy(GetParam().factory, true));
  WriteLevelDb(dir.path(), policy.get(), entries);
  const std::vector<std::string> tables = LevelDbTableFiles(dir.path());
  ASSERT_EQ(tables.size(), 1u);
  const BlockHandle block = FilterBlockOf(tables[0]);
  ASSERT_GT(block.size, kLevelDbTrailerBytes);
  const uint64_t trailer_bit = 8 * (block.size - kLevelDbTrailerBytes);
  std::vector<uint64_t> filters_and_offsets, trailer;
  for (uint64_t bit = 0; bit < 8 * block.size; ++bit) {
    if (bit >= trailer_bit) {
      trailer.push_back(bit);
    } else if (bit % GetParam().stride == 0) {
      filters_and_offsets.push_back(bit);
    }
  }
  const auto look_up = [&](std::string* note) {
    return LevelDbLost(dir.path(), policy.get(), entries, note);
  };
  const FlipRun run = FlipEachBit(tables[0], filters_and_offsets, look_up);
  EXPECT_EQ(run.flips, filters_and_offsets.size());
  EXPECT_EQ(run.lost, 0u) << run.flips_losing_keys << " of " << run.flips
                          << " flips lost keys; first " << run.first_loss;
  const FlipRun framing = FlipEachBit(tables[0], trailer, look_up);
  std::printf(
      "%s: %zu-byte filter block; %zu flips of the filters and offsets, no key "
      "lost; %zu of the %zu flips of LevelDB's own 5 bytes lost keys\n",
      GetParam().name, static_cast<size_t>(block.size), run.flips,
      framing.flips_losing_keys, framing.flips);
}

// The control: version-1 filters, the same database and flips of the first
// table's filter block. Keys are lost, so the flips reach filters LevelDB does
// not check and the lookups above would have seen a loss.
TEST_P(LevelDbBitFlipTest, VersionOneLosesKeys) {
  const std::vector<Entry> entries = RandomEntries(kLevelDbEntries, 60, 17);
  TempDir dir;
  const std::unique_ptr<leveldb::FilterPolicy> policy =
      AsLevelDbFilterPolicy(Policy(GetParam().factory, false));
  WriteLevelDb(dir.path(), policy.get(), entries);
  const std::vector<std::string> tables = LevelDbTableFiles(dir.path());
  ASSERT_FALSE(tables.empty());
  std::vector<uint64_t> bits = BitsToFlip(FilterBlockOf(tables[0]), 11);
  bits.resize(std::min<size_t>(bits.size(), 200));
  const FlipRun run = FlipEachBit(tables[0], bits, [&](std::string* note) {
    return LevelDbLost(dir.path(), policy.get(), entries, note);
  });
  EXPECT_GT(run.flips_losing_keys, 0u);
  std::printf("%s version 1: %zu of %zu flips lost keys\n", GetParam().name,
              run.flips_losing_keys, run.flips);
}

INSTANTIATE_TEST_SUITE_P(
    Families, LevelDbBitFlipTest,
    testing::Values(LevelDbCase{"native", &NewBloomFilterPolicy, 1},
                    LevelDbCase{"compact", &NewBumpedRibbonFilterPolicy, 3}),
    [](const testing::TestParamInfo<LevelDbCase>& param) {
      return std::string(param.param.name);
    });

// ---- RocksDB, damage under a valid block checksum ----------------------
//
// RocksDB 7.8.3 verifies a filter block's checksum whatever
// ReadOptions::verify_checksums says (its filter readers read with ReadOptions
// of their own), so a flip on disk never reaches a filter there: version 1
// loses no key to it either. What RocksDB cannot see is damage done before the
// block checksum was computed; these runs recompute it after each flip.
rocksdb::Options RocksDbOptions(
    std::shared_ptr<const rocksdb::FilterPolicy> policy) {
  rocksdb::Options options = CountingOptions(std::move(policy));
  options.target_file_size_base = 32 << 10;
  return options;
}

size_t RocksDbLost(const std::string& dir,
                   std::shared_ptr<const rocksdb::FilterPolicy> policy,
                   const std::vector<Entry>& entries, std::string* note) {
  absl::StatusOr<std::unique_ptr<rocksdb::DB>> db =
      OpenDb(RocksDbOptions(std::move(policy)), dir);
  if (!db.ok()) {
    *note = db.status().ToString();
    return entries.size();
  }
  rocksdb::ReadOptions read;
  read.verify_checksums = false;  // for the data blocks
  size_t lost = 0;
  for (const Entry& entry : entries) {
    std::string value;
    const rocksdb::Status s = (*db)->Get(read, entry.key, &value);
    if (!s.ok() || value != entry.value) {
      if (lost++ == 0) *note = s.ToString();
    }
  }
  return lost;
}

struct RocksDbCase {
  const char* name;
  PolicyFactory factory;
  bool self_checksum;
};

class RocksDbBitFlipTest : public testing::TestWithParam<RocksDbCase> {};

TEST_P(RocksDbBitFlipTest, FlipsOfAFullFilter) {
  const std::vector<Entry> entries = RandomEntries(1500, 40, 23);
  TempDir dir;
  const std::shared_ptr<const rocksdb::FilterPolicy> policy =
      AsRocksDbFilterPolicy(
          Policy(GetParam().factory, GetParam().self_checksum));
  ASSERT_TRUE(
      WriteFlushAndCompact(RocksDbOptions(policy), dir.path(), entries).ok());
  const std::vector<std::string> tables = TableFiles(dir.path());
  ASSERT_GE(tables.size(), 2u);
  // The control (version 1) needs only enough flips to lose a key.
  std::vector<uint64_t> bits = BitsToFlip(FilterBlockOf(tables[0]), 11);
  if (!GetParam().self_checksum)
    bits.resize(std::min<size_t>(bits.size(), 150));
  const FlipRun run = FlipEachBit(
      tables[0], bits,
      [&](std::string* note) {
        return RocksDbLost(dir.path(), policy, entries, note);
      },
      /*recompute_block_checksum=*/true);
  if (GetParam().self_checksum) {
    EXPECT_EQ(run.lost, 0u) << run.flips_losing_keys << " of " << run.flips
                            << " flips lost keys; first " << run.first_loss;
  } else {
    EXPECT_GT(run.flips_losing_keys, 0u)
        << "version 1 lost no key: the flips did not reach the filter";
  }
  std::printf("%s: %zu of %zu flips lost keys\n", GetParam().name,
              run.flips_losing_keys, run.flips);
}

INSTANTIATE_TEST_SUITE_P(
    Families, RocksDbBitFlipTest,
    testing::Values(RocksDbCase{"native", &NewBloomFilterPolicy, true},
                    RocksDbCase{"compact", &NewBumpedRibbonFilterPolicy, true},
                    RocksDbCase{"native_version1", &NewBloomFilterPolicy,
                                false}),
    [](const testing::TestParamInfo<RocksDbCase>& param) {
      return std::string(param.param.name);
    });

}  // namespace
}  // namespace test
}  // namespace sstfilter
