// Runs the sst_probe binary on tables written by the real LevelDB 1.23 and
// RocksDB 7.8.3, on format_version 6 tables assembled block by block, and on
// bad input: every answer for a present key (or a range
// that holds one) is "may match", the summary names the filter, and each kind
// of bad input gives one line on stderr and a non-zero exit status.

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "filter/bloom/bloom.h"
#include "filter/range/range_filter.h"
#include "filter/range/range_key.h"
#include "gtest/gtest.h"
#include "leveldb/filter_policy.h"
#include "nlohmann/json.hpp"
#include "rocksdb/filter_policy.h"
#include "table/block_trailer.h"
#include "table/format.h"
#include "table/random_access_file.h"
#include "table/range_test_tables.h"
#include "table/table_filter.h"
#include "table/testing/real_tables.h"
#include "table/testing/sst_probe_run.h"
#include "table/testing/table_assembler.h"
#include "util/coding.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

constexpr int kExitBadInput = 1;
constexpr int kExitUsage = 2;
constexpr size_t kRangesAsked = 100;  // of each kind
constexpr uint64_t kMaxQueryCodes = 16;

using test::JsonLines;
using test::Lines;
using test::ProbeRun;
using test::RunProbe;

std::string Hex(const std::string& bytes) {
  return absl::BytesToHexString(bytes);
}

// Expects exactly one line on stderr containing each of words.
void ExpectOneErrorLine(const ProbeRun& run, int exit_status,
                        const std::vector<std::string>& words) {
  EXPECT_EQ(run.exit_status, exit_status) << run.err;
  const std::vector<std::string> lines = Lines(run.err);
  ASSERT_EQ(lines.size(), 1u) << run.err;
  for (const std::string& word : words) {
    EXPECT_TRUE(absl::StrContains(lines[0], word))
        << "'" << word << "' missing from: " << lines[0];
  }
}

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

// The summary names the spec family that writes the table's filter, and
// --filter checks it: a table whose filter none of its families writes is
// status 1 with one line, a malformed spec a usage error.
TEST_F(SstProbeTest, FilterFamilies) {
  const std::string path = dir_.File("fv5.sst");
  test::RocksDbTableOptions options;
  options.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  ASSERT_TRUE(test::WriteRocksDbTable(path, keys_, options).ok());
  const ProbeRun json = RunProbe(dir_, {"--stats", "--format=json", path});
  ASSERT_EQ(json.exit_status, 0) << json.err;
  const std::vector<nlohmann::json> objects = JsonLines(json.out);
  ASSERT_EQ(objects.size(), 1u) << json.out;
  // RocksDB's one reader of "rocksdb.BuiltinBloomFilter" reads what both
  // of its Bloom families write.
  EXPECT_EQ(objects[0]["filter_families"],
            nlohmann::json::array({"rocksdb.fastbloom", "rocksdb.legacybloom"}))
      << json.out;
  const ProbeRun text = RunProbe(dir_, {"--stats", path});
  EXPECT_TRUE(absl::StrContains(
      text.out, "\nfamily:  rocksdb.fastbloom, rocksdb.legacybloom\n"))
      << text.out;

  for (const char* filter : {"--filter=rocksdb.fastbloom",
                             "--filter=bloom,rocksdb.fastbloom:fpp=0.01"}) {
    const ProbeRun run = RunProbe(dir_, {filter, path, keys_[0]});
    EXPECT_EQ(run.exit_status, 0) << filter << ": " << run.err;
    EXPECT_EQ(run.err, "") << filter;
  }
  const ProbeRun other = RunProbe(dir_, {"--filter=bloom,burr", path, "k"});
  ExpectOneErrorLine(
      other, kExitBadInput,
      {path, "FastLocalBloom", "none of --filter's families", "bloom, burr"});
  EXPECT_TRUE(absl::StrContains(other.out, "family:  rocksdb.fastbloom"))
      << "the answers and summary are printed before the verdict";
  ExpectOneErrorLine(RunProbe(dir_, {"--filter=blom", path, "k"}), kExitUsage,
                     {"--filter", "blom"});

  const std::string unfiltered = dir_.File("unfiltered.sst");
  ASSERT_TRUE(
      test::WriteRocksDbTable(unfiltered, keys_, test::RocksDbTableOptions())
          .ok());
  ExpectOneErrorLine(RunProbe(dir_, {"--filter=bloom", unfiltered, "k"}),
                     kExitBadInput, {"(none)", "bloom"});
  EXPECT_EQ(RunProbe(dir_, {unfiltered, "k"}).exit_status, 0);
}

TEST_F(SstProbeTest, UsageErrors) {
  ExpectOneErrorLine(RunProbe(dir_, {}), kExitUsage, {"FILE"});
  // An unknown flag, wherever it stands, is a usage error too; Abseil's
  // parser alone would exit 1.
  ExpectOneErrorLine(RunProbe(dir_, {"--nope", "x", "k"}), kExitUsage,
                     {"unknown flag", "--nope"});
  ExpectOneErrorLine(RunProbe(dir_, {"x", "-no_such_flag=1", "k"}), kExitUsage,
                     {"unknown flag", "--no_such_flag"});
  // After "--" every argument is positional; Abseil's usage flags are known.
  ExpectOneErrorLine(RunProbe(dir_, {"--", dir_.File("x"), "--nope"}),
                     kExitBadInput, {dir_.File("x")});
  const ProbeRun help = RunProbe(dir_, {"--help"});
  EXPECT_NE(help.exit_status, kExitUsage) << help.err;
  EXPECT_TRUE(absl::StrContains(help.out, "--range_before")) << help.out;
  // So is a value a known flag's type refuses.
  ExpectOneErrorLine(RunProbe(dir_, {"--tail_prefetch_bytes=lots", "x", "k"}),
                     kExitUsage, {"tail_prefetch_bytes", "lots"});
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

// RocksDB format_version 6 (RocksDB 9.7.4's default), as TableAssembler
// writes it, for every checksum type: every present key may match, the
// summary says format_version 6; a changed footer byte, and a filter block
// checksummed without its context, are reported as the damage they are.
TEST_F(SstProbeTest, FormatVersion6Tables) {
  std::unique_ptr<const FilterPolicy> policy =
      *NewBloomFilterPolicy(FilterOptions::BitsPerKey(10));
  for (ChecksumType checksum : {ChecksumType::kCrc32c, ChecksumType::kXxHash,
                                ChecksumType::kXxHash64, ChecksumType::kXxh3}) {
    SCOPED_TRACE(ChecksumTypeName(static_cast<uint8_t>(checksum)));
    test::TableFileOptions file;
    file.checksum = checksum;
    file.format_version = 6;
    PartitionedFilterOptions options;
    options.partition_bytes = 512;
    const std::string bytes =
        test::AssemblePartitionedTable(*policy, options, keys_, 100,
                                       /*user_keys=*/true, file)
            .file;
    const std::string path = dir_.File("fv6.sst");
    ASSERT_TRUE(test::WriteFileBytes(path, bytes).ok());
    const std::vector<std::string> absent = test::SortedHexKeys(200, 77);
    std::vector<std::string> args = {"--format=json", path};
    args.insert(args.end(), keys_.begin(), keys_.begin() + 100);
    args.insert(args.end(), absent.begin(), absent.end());
    const ProbeRun run = RunProbe(dir_, args);
    ASSERT_EQ(run.exit_status, 0) << run.err;
    const std::vector<nlohmann::json> objects = JsonLines(run.out);
    ASSERT_EQ(objects.size(), 100 + absent.size() + 1) << run.out;
    int ruled_out = 0;
    for (size_t i = 0; i < 100; ++i) {
      EXPECT_EQ(objects[i]["may_match"], true) << "false negative";
    }
    for (size_t i = 100; i < objects.size() - 1; ++i) {
      ruled_out += objects[i]["may_match"] == false;
    }
    EXPECT_GE(ruled_out, 180) << "10 bits/key rules out about 99%";
    const nlohmann::json& summary = objects.back();
    EXPECT_EQ(summary["table_format"], "RocksDB") << summary.dump();
    EXPECT_EQ(summary["format_version"], 6) << summary.dump();
    EXPECT_EQ(summary["filter_name"], policy->Name()) << summary.dump();

    std::string damaged = bytes;
    damaged[damaged.size() - 30] ^= 0x01;  // a reserved byte
    const std::string bad_footer = dir_.File("fv6_footer.sst");
    ASSERT_TRUE(test::WriteFileBytes(bad_footer, damaged).ok());
    ExpectOneErrorLine(RunProbe(dir_, {bad_footer, "k"}), kExitBadInput,
                       {bad_footer, "footer", "checksum mismatch"});

    absl::StatusOr<std::unique_ptr<TableFilter>> table =
        TableFilter::Open(NewStringFile(bytes), TableFilterOptions());
    ASSERT_TRUE(table.ok()) << table.status();
    const BlockHandle index = (*table)->info().filter->handle;
    damaged = bytes;
    EncodeFixed32(
        &damaged[index.offset + index.size + 1],
        BlockChecksum(absl::string_view(bytes).substr(index.offset, index.size),
                      0, checksum));
    const std::string stale = dir_.File("fv6_stale.sst");
    ASSERT_TRUE(test::WriteFileBytes(stale, damaged).ok());
    const ProbeRun stale_run = RunProbe(dir_, {stale, keys_[0], absent[0]});
    ExpectOneErrorLine(stale_run, kExitBadInput,
                       {"partition index", "format_version 6 context"});
    const std::vector<std::string> lines = Lines(stale_run.out);
    ASSERT_GE(lines.size(), 2u);
    EXPECT_TRUE(absl::StartsWith(lines[0], "may match")) << lines[0];
    EXPECT_TRUE(absl::StartsWith(lines[1], "may match")) << lines[1];
  }
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

// Range questions (--range, --range_before) on a table of our layer with a
// range filter meta block and on a RocksDB table with the filter in a user
// property: ranges that hold a key may match, most empty ranges are ruled
// out, the summary describes the range filter, and a table without one, a
// damaged one and bad arguments answer as documented.
class SstProbeRangeTest : public ::testing::Test {
 protected:
  std::string OurTable(const std::string& name, bool with_range_filter) {
    const std::string path = dir_.File(name);
    EXPECT_TRUE(test::WriteFileBytes(
                    path, test::AssembleRangeTable(
                              keys_, nullptr,
                              with_range_filter ? policy_.get() : nullptr))
                    .ok());
    return path;
  }

  // Asks, in hex and JSON, kRangesAsked ranges each of which holds one key
  // ([key, key] inclusive, [key, key + "\0") exclusive) and as many empty
  // ones; every range with a key may match, most empty ones are ruled out,
  // and the summary names the range filter and where it was found.
  void ExpectRangeProbes(const std::string& path, bool inclusive,
                         const std::string& source) {
    std::vector<std::string> args = {"--format=json", "--hex",
                                     inclusive ? "--range" : "--range_before",
                                     path};
    for (size_t i = 0; i < kRangesAsked; ++i) {
      const std::string& key = keys_[i * keys_.size() / kRangesAsked];
      args.push_back(Hex(key));
      args.push_back(Hex(inclusive ? key : key + '\0'));
    }
    for (const test::EmptyRange& r :
         test::EmptyCodeRanges(keys_, kRangesAsked, kMaxQueryCodes, 5)) {
      args.push_back(Hex(KeyOfRangeCode(r.first)));
      // Exclusive: the least key after the range's last code's 8-byte key.
      args.push_back(Hex(KeyOfRangeCode(r.last) + (inclusive ? "" : "\0")));
    }
    const ProbeRun run = RunProbe(dir_, args);
    ASSERT_EQ(run.exit_status, 0) << run.err;
    EXPECT_EQ(run.err, "");
    const std::vector<nlohmann::json> lines = JsonLines(run.out);
    ASSERT_EQ(lines.size(), 2 * kRangesAsked + 1) << run.out;
    size_t ruled_out = 0;
    for (size_t i = 0; i < 2 * kRangesAsked; ++i) {
      EXPECT_EQ(lines[i]["lo"], args[4 + 2 * i]);
      EXPECT_EQ(lines[i]["hi"], args[5 + 2 * i]);
      EXPECT_EQ(lines[i]["hi_inclusive"], inclusive);
      if (i < kRangesAsked) {
        EXPECT_EQ(lines[i]["may_match"], true) << "false negative " << i;
      } else {
        ruled_out += lines[i]["may_match"] == false;
      }
    }
    // 16 bits/key: a range of 16 codes matches wrongly about 0.1% of the time.
    EXPECT_GE(ruled_out, kRangesAsked - 5);
    const nlohmann::json& summary = lines.back();
    EXPECT_EQ(summary["has_range_filter"], true) << summary.dump();
    EXPECT_EQ(summary["range_filter"]["format"], "sstfilter.Grafite2");
    EXPECT_EQ(summary["range_filter"]["source"], source);
    EXPECT_GT(summary["range_filter"]["num_codes"], keys_.size() / 2);
  }

  test::TempDir dir_;
  const std::vector<std::string> keys_ = test::MixedRangeKeys(3000, 9);
  const std::unique_ptr<const FilterPolicy> policy_ =
      NewGrafiteFilterPolicy(FilterOptions::BitsPerKey(16)).value();
};

TEST_F(SstProbeRangeTest, OurTable) {
  const std::string path = OurTable("range.sst", true);
  ExpectRangeProbes(path, /*inclusive=*/true, "meta block");
  ExpectRangeProbes(path, /*inclusive=*/false, "meta block");
}

TEST_F(SstProbeRangeTest, RocksDbTable) {
  const std::string path = dir_.File("rocksdb.sst");
  ASSERT_TRUE(test::WriteRocksDbRangeTable(path, keys_, *policy_).ok());
  ExpectRangeProbes(path, /*inclusive=*/true, "property");
  ExpectRangeProbes(path, /*inclusive=*/false, "property");
}

TEST_F(SstProbeRangeTest, TextAndStats) {
  const std::string path = OurTable("range.sst", true);
  const ProbeRun run = RunProbe(dir_, {"--range", path, "a", "b"});
  ASSERT_EQ(run.exit_status, 0) << run.err;
  const std::vector<std::string> lines = Lines(run.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_TRUE(absl::EndsWith(lines[0], "  [a, b]")) << lines[0];

  const ProbeRun before = RunProbe(dir_, {"--range_before", path, "a", "b"});
  ASSERT_EQ(before.exit_status, 0) << before.err;
  EXPECT_TRUE(absl::EndsWith(Lines(before.out)[0], "  [a, b)")) << before.out;

  const ProbeRun stats = RunProbe(dir_, {"--stats", path});
  ASSERT_EQ(stats.exit_status, 0) << stats.err;
  EXPECT_TRUE(
      absl::StrContains(stats.out, "range:   sstfilter.Grafite2 (meta block)"))
      << stats.out;
  EXPECT_TRUE(absl::StrContains(stats.out, "bits/code")) << stats.out;
}

TEST_F(SstProbeRangeTest, TableWithoutRangeFilter) {
  const std::string path = OurTable("plain.sst", false);
  const ProbeRun run = RunProbe(dir_, {"--range", path, "a", "b"});
  ASSERT_EQ(run.exit_status, 0) << run.err;
  const std::vector<std::string> lines = Lines(run.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "may match  [a, b]");
  EXPECT_TRUE(
      absl::StrContains(run.out, "range:   none (every range may match)"))
      << run.out;

  const ProbeRun json =
      RunProbe(dir_, {"--format=json", "--range", path, "a", "b"});
  ASSERT_EQ(json.exit_status, 0) << json.err;
  const std::vector<nlohmann::json> objects = JsonLines(json.out);
  ASSERT_EQ(objects.size(), 2u) << json.out;
  EXPECT_EQ(objects[0]["may_match"], true);
  EXPECT_EQ(objects[1]["has_range_filter"], false);
}

// A byte flipped inside the range filter block: every range may match, and
// the exit status and one line on stderr say the filter is corrupt.
TEST_F(SstProbeRangeTest, CorruptRangeFilter) {
  const std::string path = OurTable("range.sst", true);
  absl::StatusOr<std::unique_ptr<TableFilter>> table =
      TableFilter::OpenFile(path, {});
  ASSERT_TRUE(table.ok()) << table.status();
  const BlockHandle handle = (*table)->info().range_filter->handle;
  std::string bytes = test::ReadFileBytes(path).value();
  bytes[handle.offset + handle.size / 2] ^= 0x10;
  const std::string corrupt = dir_.File("corrupt.sst");
  ASSERT_TRUE(test::WriteFileBytes(corrupt, bytes).ok());

  std::vector<std::string> args = {"--hex", "--range", corrupt};
  for (const test::EmptyRange& r :
       test::EmptyCodeRanges(keys_, 20, kMaxQueryCodes, 3)) {
    args.push_back(Hex(KeyOfRangeCode(r.first)));
    args.push_back(Hex(KeyOfRangeCode(r.last)));
  }
  const ProbeRun run = RunProbe(dir_, args);
  ExpectOneErrorLine(run, kExitBadInput, {"range filter", "checksum"});
  const std::vector<std::string> lines = Lines(run.out);
  ASSERT_GE(lines.size(), 20u);
  for (size_t i = 0; i < 20; ++i) {
    EXPECT_TRUE(absl::StartsWith(lines[i], "may match")) << lines[i];
  }
  EXPECT_TRUE(absl::StrContains(run.out, "every range may match")) << run.out;
}

TEST_F(SstProbeRangeTest, UsageErrors) {
  const std::string path = OurTable("range.sst", true);
  ExpectOneErrorLine(RunProbe(dir_, {"--range", path, "a"}), kExitUsage,
                     {"pairs"});
  ExpectOneErrorLine(RunProbe(dir_, {"--range", path, "b", "a"}), kExitUsage,
                     {"'b' is after HI 'a'"});
  ExpectOneErrorLine(
      RunProbe(dir_, {"--range", "--range_before", path, "a", "b"}), kExitUsage,
      {"one"});
  ExpectOneErrorLine(RunProbe(dir_, {"--range", "--prefix", path, "a", "b"}),
                     kExitUsage, {"one"});
  ExpectOneErrorLine(RunProbe(dir_, {"--range", path}), kExitUsage, {"FILE"});
}

}  // namespace
}  // namespace sstfilter
