// Single-bit flips of a filter block in real databases whose block checksum
// does not catch them: LevelDB with its default options (paranoid_checks =
// false, so Table::ReadFilter reads the filter block unverified), RocksDB
// with the block checksum recomputed over the damage, and RocksDB with the
// damage on disk and lookups that do not verify checksums (which 9.7.4 lets
// reach a filter, and 7.8.3 does not). After each flip the
// database is reopened and every key is looked up: with sstfilter's default
// format (version 2, a CRC32C of each filter's own bytes) none is lost. Flips
// of the same region with version 1 (self_checksum = false) do lose keys, for
// each family in each store: the control, which shows that the flips reach a
// filter the engine does not check and that the lookups would see a loss.
// The databases are the same on every run, so every count (flips made, flips
// losing keys, keys lost) is asserted exactly; docs/reliability.md quotes
// them.

#include <functional>
#include <memory>
#include <optional>
#include <ostream>
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
#include "rocksdb/version.h"
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

// A table's filter block: where it is, from sstfilter's table reader, and
// what its checksum needs (the file's checksum type, and the context
// format_version 6 mixes in).
struct FilterBlock {
  BlockHandle handle;
  ChecksumType checksum_type = ChecksumType::kCrc32c;
  BlockChecksumContext context;
};

// The filter block of the table file at path; nullopt, with a test failure,
// when the table cannot be read or has none: a run with no block to flip
// would pass having tested nothing.
std::optional<FilterBlock> FilterBlockOf(const std::string& path) {
  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::OpenFile(path, {});
  if (!table.ok()) {
    ADD_FAILURE() << path << ": " << table.status();
    return std::nullopt;
  }
  const TableFilterInfo& info = (*table)->info();
  if (!info.filter.has_value() || info.filter->handle.size == 0) {
    ADD_FAILURE() << path << ": no filter block";
    return std::nullopt;
  }
  FilterBlock block;
  block.handle = info.filter->handle;
  block.checksum_type = static_cast<ChecksumType>(info.footer.checksum_type);
  block.context = ContextOf(info.footer, block.handle);
  return block;
}

// Every stride-th bit of [begin, end).
std::vector<uint64_t> EveryNthBit(uint64_t begin, uint64_t end,
                                  uint64_t stride) {
  std::vector<uint64_t> bits;
  for (uint64_t bit = begin; bit < end; bit += stride) bits.push_back(bit);
  return bits;
}

// What a run of flips did: each figure is asserted exactly, since the
// databases, and so the blocks and the keys each flip loses, are the same on
// every run.
struct FlipCounts {
  size_t flips = 0;
  size_t flips_losing_keys = 0;  // flips after which some key was lost
  size_t lost = 0;               // lookups of present keys that failed
};

std::ostream& operator<<(std::ostream& os, const FlipCounts& counts) {
  return os << counts.flips << " flips, " << counts.flips_losing_keys
            << " losing keys, " << counts.lost << " keys lost";
}

struct FlipRun {
  FlipCounts counts;
  std::string first_loss;  // the first flip that lost a key, and why
};

void ExpectCounts(const FlipRun& run, const FlipCounts& expected,
                  const std::string& what) {
  EXPECT_EQ(run.counts.flips, expected.flips) << what;
  EXPECT_EQ(run.counts.flips_losing_keys, expected.flips_losing_keys)
      << what << ": " << run.counts << "; first " << run.first_loss;
  EXPECT_EQ(run.counts.lost, expected.lost)
      << what << ": " << run.counts << "; first " << run.first_loss;
}

// The control's verdict: version 1 lost keys (so the sweep can see a loss),
// exactly as many as before.
void ExpectControlLosesKeys(const FlipRun& run, const FlipCounts& expected) {
  EXPECT_GT(run.counts.flips_losing_keys, 0u)
      << "version 1 lost no key: the flips did not reach a filter";
  ExpectCounts(run, expected, "version 1");
}

// A parameterized case's name: its family.
template <typename Case>
std::string CaseName(const testing::TestParamInfo<Case>& param) {
  return param.param.name;
}

// Flips each of bits (numbered from the start of the filter block) in turn,
// calls look_up (which reopens the database and returns how many present
// keys it failed to find, and a note), and restores the table. Fails the
// test unless it flipped every bit given, and at least one.
// With recompute_block_checksum, the block's trailer is rewritten to match
// the damaged contents: damage the host cannot see (a bit flipped in memory
// before the table was written).
template <typename LookUp>
FlipRun FlipEachBit(const std::string& table, const FilterBlock& block,
                    const std::vector<uint64_t>& bits, LookUp look_up,
                    bool recompute_block_checksum = false) {
  FlipRun run;
  EXPECT_FALSE(bits.empty()) << "no bit to flip";
  const absl::StatusOr<std::string> original = ReadFileBytes(table);
  EXPECT_TRUE(original.ok()) << original.status();
  if (!original.ok()) return run;
  const uint64_t offset = block.handle.offset;
  for (uint64_t bit : bits) {
    if (bit >= 8 * block.handle.size) {
      ADD_FAILURE() << "bit " << bit << " is outside the " << block.handle.size
                    << "-byte filter block";
      continue;
    }
    std::string damaged = *original;
    damaged[offset + bit / 8] ^= static_cast<char>(1 << (bit % 8));
    if (recompute_block_checksum) {
      std::string contents = damaged.substr(offset, block.handle.size);
      AppendBlockTrailer(CompressionType::kNone, block.checksum_type, &contents,
                         block.context);
      damaged.replace(offset, contents.size(), contents);
    }
    EXPECT_TRUE(WriteFileBytes(table, damaged).ok());
    std::string note;
    const size_t lost = look_up(&note);
    ++run.counts.flips;
    if (lost > 0) {
      ++run.counts.flips_losing_keys;
      run.counts.lost += lost;
      if (run.first_loss.empty()) {
        run.first_loss =
            absl::StrFormat("bit %d of %d-byte filter block: %d keys lost (%s)",
                            bit, block.handle.size, lost, note);
      }
    }
  }
  EXPECT_TRUE(WriteFileBytes(table, *original).ok());
  EXPECT_EQ(run.counts.flips, bits.size());
  return run;
}

// ---- LevelDB, default options -------------------------------------------

// One table of about ten data blocks, so about twenty filter slices.
constexpr size_t kLevelDbEntries = 500;
// A LevelDB filter block ends with a fixed32 offset and a base_lg byte.
constexpr uint64_t kLevelDbTrailerBytes = 5;

struct LevelDbCase {
  const char* name;
  PolicyFactory factory;
  uint64_t block_bytes;  // the table's filter block, version 2
  // Version 2: every stride-th bit of the filters and offsets (every bit
  // for the native filter; every third of the compact one's, for time).
  uint64_t stride;
  FlipCounts filters_and_offsets;  // lost: always 0
  FlipCounts trailer;              // LevelDB's own 5 bytes
  // The control: version 1, every control_stride-th bit of its filters and
  // offsets.
  uint64_t version1_block_bytes;
  uint64_t control_stride;
  FlipCounts version1;
};

class LevelDbBitFlipTest : public testing::TestWithParam<LevelDbCase> {};

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

// A LevelDB database of one table, written with the family's filters of the
// given version, and the flips of its filter block.
class LevelDbFlips {
 public:
  LevelDbFlips(PolicyFactory factory, bool self_checksum)
      : entries_(RandomEntries(kLevelDbEntries, 60, 17)),
        policy_(AsLevelDbFilterPolicy(Policy(factory, self_checksum))) {
    WriteLevelDb(dir_.path(), policy_.get(), entries_);
    const std::vector<std::string> tables = LevelDbTableFiles(dir_.path());
    EXPECT_EQ(tables.size(), 1u);
    if (tables.size() == 1) {
      table_ = tables[0];
      block_ = FilterBlockOf(table_);
    }
  }

  // The filter block; nullopt (a test failure already) if there is none.
  const std::optional<FilterBlock>& block() const { return block_; }
  // The first bit of LevelDB's own trailing bytes.
  uint64_t trailer_bit() const {
    return 8 * (block_->handle.size - kLevelDbTrailerBytes);
  }

  FlipRun Flip(const std::vector<uint64_t>& bits) {
    return FlipEachBit(table_, *block_, bits, [&](std::string* note) {
      return LevelDbLost(dir_.path(), policy_.get(), entries_, note);
    });
  }

 private:
  const std::vector<Entry> entries_;
  TempDir dir_;
  const std::unique_ptr<leveldb::FilterPolicy> policy_;
  std::string table_;
  std::optional<FilterBlock> block_;
};

// LevelDB's block is the filters, an offset array, then five bytes of its
// own: the offset of that array and base_lg. LevelDB routes a key to a filter
// by those five bytes unverified, and answers an empty slice "no" without
// asking the policy, so a flip there can send a key to an empty slice or to
// another range's (intact) filter, and no filter format can see it. Those 40
// bits are counted apart; no flip of the filters and offsets loses a key.
TEST_P(LevelDbBitFlipTest, NoFlipOutsideLevelDbsTrailerLosesAKey) {
  LevelDbFlips db(GetParam().factory, /*self_checksum=*/true);
  ASSERT_TRUE(db.block().has_value());
  EXPECT_EQ(db.block()->handle.size, GetParam().block_bytes);
  ASSERT_GT(db.block()->handle.size, kLevelDbTrailerBytes);
  const FlipRun run =
      db.Flip(EveryNthBit(0, db.trailer_bit(), GetParam().stride));
  ExpectCounts(run, GetParam().filters_and_offsets, "filters and offsets");
  const FlipRun trailer =
      db.Flip(EveryNthBit(db.trailer_bit(), 8 * db.block()->handle.size, 1));
  ExpectCounts(trailer, GetParam().trailer, "LevelDB's trailer");
}

// The control: version-1 filters, the same keys, flips of the same region
// (the filters and offsets). Keys are lost, so the flips reach filters
// LevelDB does not check and the lookups above would have seen a loss.
TEST_P(LevelDbBitFlipTest, VersionOneLosesKeys) {
  LevelDbFlips db(GetParam().factory, /*self_checksum=*/false);
  ASSERT_TRUE(db.block().has_value());
  EXPECT_EQ(db.block()->handle.size, GetParam().version1_block_bytes);
  const FlipRun run =
      db.Flip(EveryNthBit(0, db.trailer_bit(), GetParam().control_stride));
  ExpectControlLosesKeys(run, GetParam().version1);
}

const LevelDbCase kLevelDbCases[] = {
    {
        /*name=*/"native",
        /*factory=*/&NewBloomFilterPolicy,
        /*block_bytes=*/728,
        /*stride=*/1,
        /*filters_and_offsets=*/{5784, 0, 0},
        /*trailer=*/{40, 8, 2429},
        /*version1_block_bytes=*/686,
        /*control_stride=*/29,
        /*version1=*/{188, 75, 172},
    },
    {
        /*name=*/"compact",
        /*factory=*/&NewBurrFilterPolicy,
        /*block_bytes=*/1156,
        /*stride=*/3,
        /*filters_and_offsets=*/{3070, 0, 0},
        /*trailer=*/{40, 8, 2354},
        /*version1_block_bytes=*/1111,
        /*control_stride=*/29,
        /*version1=*/{306, 274, 3999},
    },
};

INSTANTIATE_TEST_SUITE_P(Families, LevelDbBitFlipTest,
                         testing::ValuesIn(kLevelDbCases),
                         CaseName<LevelDbCase>);

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

// Options under which every lookup reads the filter block from the file
// itself: the filter goes through a block cache of 0 bytes, which keeps none.
rocksdb::Options FilterPerLookupOptions(
    std::shared_ptr<const rocksdb::FilterPolicy> policy) {
  rocksdb::BlockBasedTableOptions table =
      CountingTableOptions(std::move(policy));
  table.cache_index_and_filter_blocks = true;
  rocksdb::Options options = CountingOptions(table);
  options.target_file_size_base = 32 << 10;
  return options;
}

// How a flip reaches the filter.
enum class Damage {
  // The block checksum recomputed over the flip: damage before the table was
  // written, which RocksDB cannot see; the filter is read at table open.
  kUnderBlockChecksum,
  // The block checksum left as written, and the filter read by each lookup
  // (FilterPerLookupOptions) with verify_checksums = false.
  kOnDiskUnverifiedLookups,
};

size_t RocksDbLost(const std::string& dir, const rocksdb::Options& options,
                   const std::vector<Entry>& entries, std::string* note) {
  absl::StatusOr<std::unique_ptr<rocksdb::DB>> db = OpenDb(options, dir);
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
  uint64_t block_bytes;  // the first table's full filter, version 2
  FlipCounts version2;   // every 11th bit and all of the last 16 bytes
  uint64_t version1_block_bytes;
  FlipCounts version1;  // every 37th bit
};

class RocksDbBitFlipTest : public testing::TestWithParam<RocksDbCase> {};

// Flips bits of the first table's full filter in a database of several
// tables written with the family's filters of the given version.
FlipRun FlipRocksDbFilter(
    PolicyFactory factory, bool self_checksum, uint64_t expected_block_bytes,
    const std::function<std::vector<uint64_t>(const BlockHandle&)>& bits_of,
    Damage damage = Damage::kUnderBlockChecksum) {
  const std::vector<Entry> entries = RandomEntries(1500, 40, 23);
  TempDir dir;
  const std::shared_ptr<const rocksdb::FilterPolicy> policy =
      AsRocksDbFilterPolicy(Policy(factory, self_checksum));
  const rocksdb::Options options = damage == Damage::kUnderBlockChecksum
                                       ? RocksDbOptions(policy)
                                       : FilterPerLookupOptions(policy);
  EXPECT_TRUE(WriteFlushAndCompact(options, dir.path(), entries).ok());
  const std::vector<std::string> tables = TableFiles(dir.path());
  EXPECT_GE(tables.size(), 2u);
  if (tables.empty()) return {};
  const std::optional<FilterBlock> block = FilterBlockOf(tables[0]);
  if (!block.has_value()) return {};
  EXPECT_EQ(block->handle.size, expected_block_bytes);
  return FlipEachBit(
      tables[0], *block, bits_of(block->handle),
      [&](std::string* note) {
        return RocksDbLost(dir.path(), options, entries, note);
      },
      /*recompute_block_checksum=*/damage == Damage::kUnderBlockChecksum);
}

// Every 11th bit of the filter, and every bit of its last 16 bytes (the
// trailers, where each bit means the most): no key lost.
TEST_P(RocksDbBitFlipTest, NoFlipOfAFullFilterLosesAKey) {
  const FlipRun run = FlipRocksDbFilter(
      GetParam().factory, /*self_checksum=*/true, GetParam().block_bytes,
      [](const BlockHandle& block) {
        const uint64_t last_bytes = 8 * (block.size - 16);
        std::vector<uint64_t> bits = EveryNthBit(0, last_bytes, 11);
        const std::vector<uint64_t> trailers =
            EveryNthBit(last_bytes, 8 * block.size, 1);
        bits.insert(bits.end(), trailers.begin(), trailers.end());
        return bits;
      });
  ExpectCounts(run, GetParam().version2, "version 2");
}

// The control: version 1, the same keys and tables, every 37th bit: keys are
// lost, so the flips reach a filter RocksDB does not check and the lookups
// see a loss.
TEST_P(RocksDbBitFlipTest, VersionOneLosesKeys) {
  const FlipRun run = FlipRocksDbFilter(
      GetParam().factory, /*self_checksum=*/false,
      GetParam().version1_block_bytes, [](const BlockHandle& block) {
        return EveryNthBit(0, 8 * block.size, 37);
      });
  ExpectControlLosesKeys(run, GetParam().version1);
}

// Damage on disk, the block checksum as written, each lookup reading the
// filter with verify_checksums = false. RocksDB 7.8.3 reads a filter block
// with ReadOptions of its own, which verify the checksum and drop the damaged
// block: neither version loses a key. RocksDB 9.7.4 reads it with the
// caller's (table/block_based/filter_block_reader_common.cc), so the damage
// reaches the filter: version 1 loses keys, version 2 none.
TEST_P(RocksDbBitFlipTest, DamageOnDiskReadWithoutVerifyChecksums) {
  const auto every_37th = [](const BlockHandle& block) {
    return EveryNthBit(0, 8 * block.size, 37);
  };
  const FlipRun version2 = FlipRocksDbFilter(
      GetParam().factory, /*self_checksum=*/true, GetParam().block_bytes,
      every_37th, Damage::kOnDiskUnverifiedLookups);
  EXPECT_EQ(version2.counts.lost, 0u)
      << version2.counts << "; first " << version2.first_loss;
  const FlipRun version1 =
      FlipRocksDbFilter(GetParam().factory, /*self_checksum=*/false,
                        GetParam().version1_block_bytes, every_37th,
                        Damage::kOnDiskUnverifiedLookups);
  if (ROCKSDB_MAJOR < 8) {
    EXPECT_EQ(version1.counts.lost, 0u)
        << "RocksDB " << ROCKSDB_MAJOR
        << " let damage on disk reach a filter: " << version1.counts
        << "; first " << version1.first_loss;
  } else {
    // The control's very losses: the filter reads the same damaged bytes.
    ExpectControlLosesKeys(version1, GetParam().version1);
  }
}

const RocksDbCase kRocksDbCases[] = {
    {
        /*name=*/"native",
        /*factory=*/&NewBloomFilterPolicy,
        /*block_bytes=*/693,
        /*version2=*/{621, 0, 0},
        /*version1_block_bytes=*/687,
        /*version1=*/{149, 64, 82},
    },
    {
        /*name=*/"compact",
        /*factory=*/&NewBurrFilterPolicy,
        /*block_bytes=*/507,
        /*version2=*/{486, 0, 0},
        /*version1_block_bytes=*/501,
        /*version1=*/{109, 105, 3175},
    },
};

INSTANTIATE_TEST_SUITE_P(Families, RocksDbBitFlipTest,
                         testing::ValuesIn(kRocksDbCases),
                         CaseName<RocksDbCase>);

}  // namespace
}  // namespace test
}  // namespace sstfilter
