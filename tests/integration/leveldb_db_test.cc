// sstfilter's policies inside a real LevelDB 1.23 database, through
// AsLevelDbFilterPolicy: every key written reads back, and a lookup of an
// absent key reads a data block only about as often as the filters' expected
// false-positive rate says. Databases written by LevelDB's own Bloom filter
// and by sstfilter's LevelDB-compatible one read each other's filters with the
// same answers; a database reopened under another filter name ignores its
// filters and still returns every key. How reads are counted:
// leveldb_db_reads.h.

#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engines/leveldb/leveldb_adapter.h"
#include "filter/bloom/bloom.h"
#include "filter/filter_policy.h"
#include "filter/leveldb/leveldb_bloom.h"
#include "gtest/gtest.h"
#include "leveldb/filter_policy.h"
#include "table/testing/real_tables.h"
#include "tests/integration/leveldb_db_reads.h"

namespace sstfilter {
namespace {

using test::ReadCounts;
using test::TestDbKeys;

constexpr int kBitsPerKey = 10;
// Read bounds: reads <= lookups * factor + kReadSlack.
constexpr double kFppMargin = 2.0;  // absent keys, times the expected fpp
constexpr double kPresentReadsPerKey = 1.02;
constexpr double kReadSlack = 100;
// With its filters ignored, an absent key inside a table's key range costs a
// data block; only the few before the first key or after the last cost none.
constexpr double kUnfilteredMinReadsPerKey = 0.99;
// What 10 bits/key gives these filters is about 1%. A larger expected rate
// means the filters were not written as configured, and would let the
// absent-key bound pass without them.
constexpr double kMaxExpectedFpp = 0.02;

enum class Policy {
  kNone,
  kNative,             // NewBloomFilterPolicy, adapted
  kLevelDbCompatible,  // NewLevelDbFilterPolicy, adapted
  kLevelDbsOwn,        // leveldb::NewBloomFilterPolicy
};

// nullptr for kNone, and (with a test failure) for a policy that cannot be
// made.
std::unique_ptr<const leveldb::FilterPolicy> MakePolicy(Policy policy) {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> ours;
  switch (policy) {
    case Policy::kNone:
      return nullptr;
    case Policy::kLevelDbsOwn:
      return std::unique_ptr<const leveldb::FilterPolicy>(
          leveldb::NewBloomFilterPolicy(kBitsPerKey));
    case Policy::kNative:
      ours = NewBloomFilterPolicy(FilterOptions::BitsPerKey(kBitsPerKey));
      break;
    case Policy::kLevelDbCompatible:
      ours = NewLevelDbFilterPolicy(FilterOptions::BitsPerKey(kBitsPerKey));
      break;
  }
  EXPECT_TRUE(ours.ok()) << ours.status();
  if (!ours.ok()) return nullptr;
  return AsLevelDbFilterPolicy(*std::move(ours));
}

// A database written with one policy, and what the tests measured of it.
struct Database {
  test::TempDir dir;
  double expected_fpp = 1;
  std::map<Policy, ReadCounts> reads;  // by the policy it was reopened with
};

// Each database is written once and shared by the tests that read it, and the
// counts of each reopening are kept: writing and reading 200,000 keys is most
// of this test's time (about 30 s under ASan on two idle cores). The databases
// are removed at exit.
absl::StatusOr<Database*> WrittenBy(Policy writer) {
  static std::map<Policy, std::unique_ptr<Database>> databases;
  std::unique_ptr<Database>& db = databases[writer];
  if (db != nullptr) return db.get();
  const std::unique_ptr<const leveldb::FilterPolicy> policy =
      MakePolicy(writer);
  if (policy == nullptr) return absl::InternalError("no writing policy");
  auto written = std::make_unique<Database>();
  absl::StatusOr<std::vector<std::string>> tables =
      test::WriteTestDatabase(written->dir.path(), policy.get());
  if (!tables.ok()) return tables.status();
  absl::StatusOr<double> fpp =
      test::FiltersExpectedFpp(*tables, policy->Name());
  if (!fpp.ok()) return fpp.status();
  written->expected_fpp = *fpp;
  db = std::move(written);
  return db.get();
}

absl::StatusOr<ReadCounts> Reads(Database& db, Policy reader) {
  const auto known = db.reads.find(reader);
  if (known != db.reads.end()) return known->second;
  const std::unique_ptr<const leveldb::FilterPolicy> policy =
      MakePolicy(reader);
  if (reader != Policy::kNone && policy == nullptr) {
    return absl::InternalError("no reading policy");
  }
  absl::StatusOr<ReadCounts> counts =
      test::CountReads(db.dir.path(), policy.get());
  if (counts.ok()) db.reads[reader] = *counts;
  return counts;
}

void RecordCounts(const std::string& prefix, const ReadCounts& counts) {
  testing::Test::RecordProperty(prefix + "absent_reads",
                                static_cast<int>(counts.absent));
  testing::Test::RecordProperty(prefix + "present_reads",
                                static_cast<int>(counts.present));
}

// Each present key's data block is read once: at least one read per key shows
// that the counter sees lookups, at most a little more that nothing else is
// read.
void ExpectPresentReads(const ReadCounts& counts) {
  const double n = static_cast<double>(TestDbKeys().present.size());
  EXPECT_GE(counts.present, n);
  EXPECT_LE(counts.present, n * kPresentReadsPerKey + kReadSlack);
}

// The filters' own rate rather than the policy's design rate sets the bound,
// because it is what is on disk: LevelDB makes one small filter per 2 KB of
// data (a native filter of one cache line holding n keys does better than
// its formula at 10 bits/key), and a database may be read with a policy other
// than the one that wrote it.
void ExpectFilteredReads(const Database& db, const ReadCounts& counts) {
  ASSERT_LT(db.expected_fpp, kMaxExpectedFpp);
  testing::Test::RecordProperty("expected_fpp_ppm",
                                static_cast<int>(db.expected_fpp * 1e6));
  const double n = static_cast<double>(TestDbKeys().absent.size());
  EXPECT_LE(counts.absent, n * kFppMargin * db.expected_fpp + kReadSlack)
      << "expected fpp " << db.expected_fpp;
  ExpectPresentReads(counts);
}

// Reads of a database whose filters are ignored: about one per absent key.
void ExpectUnfilteredReads(const ReadCounts& counts) {
  const double n = static_cast<double>(TestDbKeys().absent.size());
  EXPECT_GE(counts.absent, n * kUnfilteredMinReadsPerKey);
  EXPECT_LE(counts.absent, n * kPresentReadsPerKey + kReadSlack);
  ExpectPresentReads(counts);
}

struct PolicyCase {
  const char* name;
  Policy policy;
};

// Names the case in gtest's messages, rather than its bytes.
void PrintTo(const PolicyCase& c, std::ostream* os) { *os << c.name; }

class LevelDbDbTest : public testing::TestWithParam<PolicyCase> {};

TEST_P(LevelDbDbTest, FiltersSpareReadsOfAbsentKeys) {
  const absl::StatusOr<Database*> db = WrittenBy(GetParam().policy);
  ASSERT_TRUE(db.ok()) << db.status();
  const absl::StatusOr<ReadCounts> counts = Reads(**db, GetParam().policy);
  ASSERT_TRUE(counts.ok()) << counts.status();
  RecordCounts("", *counts);
  ExpectFilteredReads(**db, *counts);
}

INSTANTIATE_TEST_SUITE_P(Policies, LevelDbDbTest,
                         testing::Values(PolicyCase{"Native", Policy::kNative},
                                         PolicyCase{
                                             "LevelDbCompatible",
                                             Policy::kLevelDbCompatible}),
                         [](const testing::TestParamInfo<PolicyCase>& param) {
                           return std::string(param.param.name);
                         });

// A database written with writer, read with writer and with reader, a policy
// of the same name and format: the filters are the same bytes and both
// policies answer alike, so the counts must be equal.
void ExpectSameReads(Policy writer, const std::string& writer_prefix,
                     Policy reader, const std::string& reader_prefix) {
  const absl::StatusOr<Database*> db = WrittenBy(writer);
  ASSERT_TRUE(db.ok()) << db.status();
  const absl::StatusOr<ReadCounts> by_writer = Reads(**db, writer);
  ASSERT_TRUE(by_writer.ok()) << by_writer.status();
  const absl::StatusOr<ReadCounts> by_reader = Reads(**db, reader);
  ASSERT_TRUE(by_reader.ok()) << by_reader.status();
  RecordCounts(writer_prefix, *by_writer);
  RecordCounts(reader_prefix, *by_reader);
  ExpectFilteredReads(**db, *by_reader);
  EXPECT_EQ(by_reader->absent, by_writer->absent)
      << "absent-key reads differ: " << reader_prefix << " vs "
      << writer_prefix;
  EXPECT_EQ(by_reader->present, by_writer->present)
      << "present-key reads differ: " << reader_prefix << " vs "
      << writer_prefix;
}

TEST(LevelDbCompatibilityTest, ReadsLevelDbsOwnFilters) {
  ExpectSameReads(Policy::kLevelDbsOwn, "leveldb_", Policy::kLevelDbCompatible,
                  "sstfilter_");
}

TEST(LevelDbCompatibilityTest, LevelDbReadsOurFilters) {
  ExpectSameReads(Policy::kLevelDbCompatible, "sstfilter_",
                  Policy::kLevelDbsOwn, "leveldb_");
}

// LevelDB looks a table's filter up by the reading policy's name; under
// another name (or with no policy) it finds none and reads a data block for
// every lookup: slower, never wrong.
TEST(LevelDbCompatibilityTest, OtherPolicyIgnoresNativeFilters) {
  const absl::StatusOr<Database*> db = WrittenBy(Policy::kNative);
  ASSERT_TRUE(db.ok()) << db.status();
  const absl::StatusOr<ReadCounts> no_policy = Reads(**db, Policy::kNone);
  ASSERT_TRUE(no_policy.ok()) << no_policy.status();
  RecordCounts("no_policy_", *no_policy);
  ExpectUnfilteredReads(*no_policy);

  const absl::StatusOr<ReadCounts> leveldb_bloom =
      Reads(**db, Policy::kLevelDbsOwn);
  ASSERT_TRUE(leveldb_bloom.ok()) << leveldb_bloom.status();
  RecordCounts("leveldb_bloom_", *leveldb_bloom);
  ExpectUnfilteredReads(*leveldb_bloom);
}

}  // namespace
}  // namespace sstfilter
