#include "tests/integration/rocksdb_db_fixture.h"

#include <filesystem>
#include <utility>

#include "absl/status/status.h"
#include "engines/rocksdb/rocksdb_adapter.h"
#include "filter/bloom/bloom.h"

namespace sstfilter {
namespace test {
namespace {

constexpr size_t kValueBytes = 24;
// Small tables, so that the database has several (about 8 MB of entries).
constexpr uint64_t kTableBytes = 2 << 20;

struct SharedDb {
  TempDir dir;
  std::vector<Entry> entries;
  std::vector<std::string> absent;
  absl::Status built;
};

SharedDb* shared = nullptr;

absl::Status Build(SharedDb* db_files) {
  rocksdb::Options options =
      CountingOptions(AsRocksDbFilterPolicy(NativePolicy()));
  options.target_file_size_base = kTableBytes;
  return WriteFlushAndCompact(options, db_files->dir.path(), db_files->entries);
}

}  // namespace

std::shared_ptr<const FilterPolicy> NativePolicy() {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      NewBloomFilterPolicy(FilterOptions::Fpp(kFpp));
  return policy.ok() ? std::shared_ptr<const FilterPolicy>(std::move(*policy))
                     : nullptr;
}

void RocksDbDbTest::SetUpTestSuite() {
  shared = new SharedDb;
  shared->entries = RandomEntries(kPresentKeys, kValueBytes, 501);
  shared->absent = AbsentKeys(kAbsentKeys, 502, shared->entries);
  shared->built = Build(shared);
}

void RocksDbDbTest::TearDownTestSuite() {
  delete shared;
  shared = nullptr;
}

void RocksDbDbTest::SetUp() {
  ASSERT_TRUE(shared->built.ok()) << shared->built;
}

const std::string& RocksDbDbTest::path() { return shared->dir.path(); }
const std::vector<Entry>& RocksDbDbTest::entries() { return shared->entries; }
const std::vector<std::string>& RocksDbDbTest::absent() {
  return shared->absent;
}

std::unique_ptr<rocksdb::DB> RocksDbDbTest::Open(
    std::shared_ptr<const rocksdb::FilterPolicy> policy,
    const std::string& path) {
  options_ = CountingOptions(std::move(policy));
  absl::StatusOr<std::unique_ptr<rocksdb::DB>> db =
      OpenDb(options_, path.empty() ? shared->dir.path() : path);
  EXPECT_TRUE(db.ok()) << db.status();
  return db.ok() ? *std::move(db) : nullptr;
}

std::shared_ptr<const rocksdb::FilterPolicy> RocksDbDbTest::Ours() {
  calls_ = std::make_shared<MayMatchCalls>();
  return AsRocksDbFilterPolicy(CountingPolicy(NativePolicy(), calls_));
}

AbsentRun RocksDbDbTest::LookUpAbsent(rocksdb::DB* db, bool multi_get) const {
  AbsentRun run;
  run.in_range = KeysInTableRanges(db, absent());
  const ReadTickers before = Tickers(*options_.statistics);
  run.not_absent = multi_get ? MultiGetAbsent(db, absent(), kMultiGetKeys)
                             : GetAbsent(db, absent());
  run.delta = Tickers(*options_.statistics) - before;
  return run;
}

std::string RocksDbDbTest::Copy() {
  copies_.push_back(std::make_unique<TempDir>());
  std::filesystem::copy(shared->dir.path(), copies_.back()->path(),
                        std::filesystem::copy_options::recursive);
  return copies_.back()->path();
}

}  // namespace test
}  // namespace sstfilter
