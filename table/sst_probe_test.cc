// Runs the sst_probe binary on tables written by the real LevelDB 1.23 and
// RocksDB 7.8.3, and on bad input: every answer for a present key is "may
// match", the summary names the filter, and each kind of bad input gives one
// line on stderr and a non-zero exit status.

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "leveldb/filter_policy.h"
#include "nlohmann/json.hpp"
#include "rocksdb/filter_policy.h"
#include "table/format.h"
#include "table/table_filter.h"
#include "tests/testing/random.h"
#include "tests/testing/real_tables.h"
#include "tests/testing/sst_probe_run.h"

namespace sstfilter {
namespace {

constexpr int kExitBadInput = 1;
constexpr int kExitUsage = 2;

using test::JsonLines;
using test::Lines;
using test::ProbeRun;
using test::RunProbe;

class SstProbeTest : public ::testing::Test {
 protected:
  // Probes present and absent keys of the table at path in JSON: every
  // present key may match, most absent keys are ruled out, and the summary
  // names the policy and format.
  void ExpectProbes(const std::string& path,
                    const std::vector<std::string>& present,
                    const std::string& policy_name, const std::string& format,
                    const std::vector<std::string>& extra_flags = {}) {
    const std::vector<std::string> absent = test::SortedHexKeys(200, 77);
    std::vector<std::string> args = {"--format=json"};
    args.insert(args.end(), extra_flags.begin(), extra_flags.end());
    args.push_back(path);
    args.insert(args.end(), present.begin(), present.begin() + 100);
    args.insert(args.end(), absent.begin(), absent.end());
    const ProbeRun run = RunProbe(dir_, args);
    ASSERT_EQ(run.exit_status, 0) << run.err;
    EXPECT_EQ(run.err, "");
    const std::vector<nlohmann::json> objects = JsonLines(run.out);
    ASSERT_EQ(objects.size(), 100 + absent.size() + 1) << run.out;
    int ruled_out = 0;
    for (size_t i = 0; i < 100; ++i) {
      EXPECT_EQ(objects[i]["key"], present[i]);
      EXPECT_EQ(objects[i]["may_match"], true) << "false negative";
    }
    for (size_t i = 100; i < objects.size() - 1; ++i) {
      ruled_out += objects[i]["may_match"] == false;
    }
    EXPECT_GE(ruled_out, 180) << "10 bits/key rules out about 99%";
    const nlohmann::json& summary = objects.back();
    EXPECT_EQ(summary["filter_name"], policy_name) << summary.dump();
    EXPECT_EQ(summary["filter_format"], format) << summary.dump();

    std::vector<std::string> stats_args = {"--stats"};
    stats_args.insert(stats_args.end(), extra_flags.begin(), extra_flags.end());
    stats_args.push_back(path);
    const ProbeRun text = RunProbe(dir_, stats_args);
    ASSERT_EQ(text.exit_status, 0) << text.err;
    EXPECT_TRUE(absl::StrContains(text.out, policy_name)) << text.out;
  }

  // Expects exactly one line on stderr containing each of words.
  static void ExpectOneErrorLine(const ProbeRun& run, int exit_status,
                                 const std::vector<std::string>& words) {
    EXPECT_EQ(run.exit_status, exit_status) << run.err;
    const std::vector<std::string> lines = Lines(run.err);
    ASSERT_EQ(lines.size(), 1u) << run.err;
    for (const std::string& word : words) {
      EXPECT_TRUE(absl::StrContains(lines[0], word))
          << "'" << word << "' missing from: " << lines[0];
    }
  }

  std::string LevelDbTable(const std::string& name) {
    const std::string path = dir_.File(name);
    test::LevelDbTableOptions options;
    options.filter_policy = leveldb_policy_.get();
    EXPECT_TRUE(test::WriteLevelDbTable(path, keys_, options).ok());
    return path;
  }

  test::TempDir dir_;
  const std::vector<std::string> keys_ = test::SortedHexKeys(3000, 5, "key");
  std::unique_ptr<const leveldb::FilterPolicy> leveldb_policy_{
      leveldb::NewBloomFilterPolicy(10)};
};

TEST_F(SstProbeTest, LevelDbDatabaseTable) {
  absl::StatusOr<std::vector<std::string>> files =
      test::WriteLevelDbDatabase(dir_.File("db"), keys_, leveldb_policy_.get());
  ASSERT_TRUE(files.ok()) << files.status();
  ASSERT_EQ(files->size(), 1u);
  ExpectProbes(files->front(), keys_, "leveldb.BuiltinBloomFilter2",
               "LevelDB Bloom");
}

TEST_F(SstProbeTest, LevelDbTableBuilderTable) {
  ExpectProbes(LevelDbTable("builder.ldb"), keys_,
               "leveldb.BuiltinBloomFilter2", "LevelDB Bloom",
               {"--index_keys=user"});
}

TEST_F(SstProbeTest, RocksDbTables) {
  for (int format_version : {4, 5}) {
    SCOPED_TRACE(format_version);
    const std::string path =
        dir_.File(absl::StrFormat("fv%d.sst", format_version));
    test::RocksDbTableOptions options;
    options.format_version = format_version;
    options.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
    ASSERT_TRUE(test::WriteRocksDbTable(path, keys_, options).ok());
    ExpectProbes(path, keys_, "rocksdb.BuiltinBloomFilter",
                 format_version >= 5 ? "FastLocalBloom" : "LegacyBloom");
  }
}

TEST_F(SstProbeTest, UsageErrors) {
  ExpectOneErrorLine(RunProbe(dir_, {}), kExitUsage, {"FILE"});
  // Abseil's flag parser exits 1 with its own one-line message.
  ExpectOneErrorLine(RunProbe(dir_, {"--no_such_flag", "x"}), 1,
                     {"no_such_flag"});
  ExpectOneErrorLine(RunProbe(dir_, {"--format=xml", "x", "k"}), kExitUsage,
                     {"xml"});
}

TEST_F(SstProbeTest, FilesThatAreNotTables) {
  const std::string missing = dir_.File("missing.ldb");
  ExpectOneErrorLine(RunProbe(dir_, {missing, "k"}), kExitBadInput, {missing});
  ExpectOneErrorLine(RunProbe(dir_, {dir_.path(), "k"}), kExitBadInput,
                     {dir_.path()});

  const std::string garbage = dir_.File("garbage.ldb");
  ASSERT_TRUE(test::WriteFileBytes(garbage, std::string(4096, 'g')).ok());
  ExpectOneErrorLine(RunProbe(dir_, {garbage, "k"}), kExitBadInput,
                     {garbage, "magic"});

  const std::string table = LevelDbTable("whole.ldb");
  const std::string bytes = test::ReadFileBytes(table).value();
  const std::string truncated = dir_.File("truncated.ldb");
  ASSERT_TRUE(
      test::WriteFileBytes(truncated, bytes.substr(0, bytes.size() / 2)).ok());
  ExpectOneErrorLine(RunProbe(dir_, {truncated, "k"}), kExitBadInput,
                     {truncated});
}

TEST_F(SstProbeTest, HandleOutsideTheFile) {
  const std::string table = LevelDbTable("whole.ldb");
  std::string bytes = test::ReadFileBytes(table).value();
  absl::StatusOr<Footer> footer = DecodeFooter(bytes, bytes.size());
  ASSERT_TRUE(footer.ok()) << footer.status();
  const std::string old_footer = EncodeFooter(*footer);
  footer->metaindex.offset = bytes.size() * 2;
  const std::string new_footer = EncodeFooter(*footer);
  ASSERT_EQ(old_footer.size(), new_footer.size());
  bytes.replace(bytes.size() - old_footer.size(), old_footer.size(),
                new_footer);
  const std::string bad = dir_.File("bad_handle.ldb");
  ASSERT_TRUE(test::WriteFileBytes(bad, bytes).ok());
  ExpectOneErrorLine(RunProbe(dir_, {bad, "k"}), kExitBadInput,
                     {bad, "outside"});
}

// A LevelDB filter policy of a name no reader knows.
class UnknownPolicy : public leveldb::FilterPolicy {
 public:
  const char* Name() const override { return "acme.SecretFilter"; }
  void CreateFilter(const leveldb::Slice*, int,
                    std::string* dst) const override {
    dst->append("x");
  }
  bool KeyMayMatch(const leveldb::Slice&,
                   const leveldb::Slice&) const override {
    return true;
  }
};

TEST_F(SstProbeTest, UnknownFilterName) {
  UnknownPolicy policy;
  const std::string path = dir_.File("unknown.ldb");
  test::LevelDbTableOptions options;
  options.filter_policy = &policy;
  ASSERT_TRUE(test::WriteLevelDbTable(path, keys_, options).ok());
  ExpectOneErrorLine(RunProbe(dir_, {"--index_keys=user", path, "k"}),
                     kExitBadInput, {path, "acme.SecretFilter"});
}

TEST_F(SstProbeTest, TableWithoutChecksums) {
  const std::string path = dir_.File("nochecksum.sst");
  test::RocksDbTableOptions options;
  options.checksum = 0;  // rocksdb::kNoChecksum
  options.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  ASSERT_TRUE(test::WriteRocksDbTable(path, keys_, options).ok());
  ExpectOneErrorLine(RunProbe(dir_, {path, "k"}), kExitBadInput,
                     {path, "checksum"});
}

// A bit flipped inside the filter block: the checksum catches it, every key
// is reported as "may match", and the exit status says the filter is corrupt.
TEST_F(SstProbeTest, CorruptFilterBlock) {
  const std::string table = LevelDbTable("whole.ldb");
  TableFilterOptions options;
  options.index_keys = IndexKeys::kUser;
  absl::StatusOr<std::unique_ptr<TableFilter>> reader =
      TableFilter::OpenFile(table, options);
  ASSERT_TRUE(reader.ok()) << reader.status();
  ASSERT_TRUE((*reader)->info().filter.has_value());
  const BlockHandle handle = (*reader)->info().filter->handle;
  std::string bytes = test::ReadFileBytes(table).value();
  bytes[handle.offset + handle.size / 2] ^= 0x10;
  const std::string corrupt = dir_.File("corrupt.ldb");
  ASSERT_TRUE(test::WriteFileBytes(corrupt, bytes).ok());

  const std::vector<std::string> absent = test::SortedHexKeys(20, 3);
  std::vector<std::string> args = {"--index_keys=user", corrupt};
  args.insert(args.end(), absent.begin(), absent.end());
  const ProbeRun run = RunProbe(dir_, args);
  ExpectOneErrorLine(run, kExitBadInput, {"checksum"});
  const std::vector<std::string> lines = Lines(run.out);
  ASSERT_GE(lines.size(), absent.size());
  for (size_t i = 0; i < absent.size(); ++i) {
    EXPECT_TRUE(absl::StartsWith(lines[i], "may match")) << lines[i];
  }
}

}  // namespace
}  // namespace sstfilter
