// Every policy factory the library registers, at two table sizes, written into
// real table files by the real RocksDB 7.8.3 (SstFileWriter, through
// AsRocksDbFilterPolicy) and the real LevelDB 1.23 (TableBuilder, through
// AsLevelDbFilterPolicy), then read back the two ways a user reads them:
// TableFilter and the sst_probe tool. Every key is present; absent keys are
// ruled out at the policy's rate. A family registered later is in this test
// without an edit.

#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engines/testing/policy_tables.h"
#include "filter/filter_format.h"
#include "filter/filter_policy.h"
#include "filter/format_registry.h"
#include "filter/range/range_filter.h"
#include "filter/range/range_key.h"
#include "filter/testing/filter_test_util.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "table/table_filter.h"
#include "table/testing/real_tables.h"
#include "table/testing/sst_probe_run.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

constexpr double kTargetFpp = 0.01;
constexpr size_t kAbsentKeys = 100000;
constexpr size_t kProbedKeys = 200;  // each of present and absent, by sst_probe

struct TableCase {
  FamilyVariant factory;
  size_t num_keys;
};

std::vector<TableCase> AllCases() {
  std::vector<TableCase> cases;
  for (const FamilyVariant& factory : RegisteredFamilyVariants()) {
    for (size_t n : {size_t{800}, size_t{30000}}) cases.push_back({factory, n});
  }
  return cases;
}

class EveryPolicyTablesTest : public testing::TestWithParam<TableCase> {
 protected:
  void SetUp() override {
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
        GetParam().factory.factory(FilterOptions::Fpp(kTargetFpp));
    ASSERT_TRUE(policy.ok()) << policy.status();
    policy_ = *std::move(policy);
    keys_ = test::SortedHexKeys(GetParam().num_keys, 1);
    // Another seed with the same prefix: absent keys that interleave with the
    // table's, so only the filter can rule them out.
    absent_ = test::SortedHexKeys(kAbsentKeys, 2);
  }

  // A range filter sees keys through their first 8 bytes (range_key.h): an
  // absent key that shares them with a present key matches whatever the
  // filter's rate. These keys ("key" and 16 hex digits) leave 20 bits there,
  // so some do; they are counted exactly and allowed on top of the rate.
  size_t SharedCodes() const {
    if (!IsRangeFilterFormat(policy_->Name())) return 0;
    std::set<uint64_t> present;
    for (const std::string& key : keys_) present.insert(RangeKeyCode(key));
    size_t shared = 0;
    for (const std::string& key : absent_)
      shared += present.count(RangeKeyCode(key));
    return shared;
  }

  // Reads the table at path back through TableFilter and sst_probe.
  void ExpectReadBack(const std::string& path, IndexKeys index_keys) {
    TableFilterOptions options;
    options.index_keys = index_keys;
    absl::StatusOr<std::unique_ptr<TableFilter>> table =
        TableFilter::OpenFile(path, options);
    ASSERT_TRUE(table.ok()) << table.status();
    ASSERT_NE((*table)->format(), nullptr);
    EXPECT_STREQ((*table)->format()->Name(), policy_->Name());
    ASSERT_TRUE((*table)->corruption().ok()) << (*table)->corruption();

    for (const std::string& key : keys_)
      ASSERT_TRUE((*table)->KeyMayMatch(key)) << "false negative: " << key;
    size_t false_positives = 0;
    for (const std::string& key : absent_)
      false_positives += (*table)->KeyMayMatch(key) ? 1 : 0;
    // The target rate, with five standard deviations of the binomial count
    // and 25% for the formats whose sizing rounds (RocksDB's whole lines,
    // LevelDB's 64-bit minimum) or whose rate the small table's few blocks
    // make vary.
    const double mean = kTargetFpp * kAbsentKeys;
    EXPECT_LE(false_positives,
              1.25 * mean + 5 * std::sqrt(mean) + SharedCodes())
        << "rate " << static_cast<double>(false_positives) / kAbsentKeys;

    // sst_probe: the same answers, and a summary naming the format.
    std::vector<std::string> args = {"--format=json"};
    if (index_keys == IndexKeys::kUser) args.push_back("--index_keys=user");
    args.push_back(path);
    std::vector<std::string> probed(keys_.begin(), keys_.begin() + kProbedKeys);
    probed.insert(probed.end(), absent_.begin(), absent_.begin() + kProbedKeys);
    args.insert(args.end(), probed.begin(), probed.end());
    const test::ProbeRun run = test::RunProbe(dir_, args);
    ASSERT_EQ(run.exit_status, 0) << run.err;
    const std::vector<nlohmann::json> lines = test::JsonLines(run.out);
    ASSERT_EQ(lines.size(), probed.size() + 1) << run.out;
    for (size_t i = 0; i < probed.size(); ++i) {
      EXPECT_EQ(lines[i]["key"], probed[i]);
      EXPECT_EQ(lines[i]["may_match"].get<bool>(),
                (*table)->KeyMayMatch(probed[i]))
          << probed[i];
      if (i < kProbedKeys) {
        EXPECT_TRUE(lines[i]["may_match"].get<bool>()) << "false negative";
      }
    }
    EXPECT_EQ(lines.back()["filter_name"], policy_->Name())
        << lines.back().dump();
  }

  test::TempDir dir_;
  std::shared_ptr<const FilterPolicy> policy_;
  std::vector<std::string> keys_;
  std::vector<std::string> absent_;
};

TEST_P(EveryPolicyTablesTest, RocksDbTableReadsBack) {
  const std::string path = dir_.File("table.sst");
  ASSERT_TRUE(test::WriteRocksDbTableWith(policy_, path, keys_).ok());
  ExpectReadBack(path, IndexKeys::kInternal);
}

TEST_P(EveryPolicyTablesTest, LevelDbTableReadsBack) {
  const std::string path = dir_.File("table.ldb");
  ASSERT_TRUE(test::WriteLevelDbTableWith(policy_, path, keys_).ok());
  // leveldb::TableBuilder's index holds the keys as given.
  ExpectReadBack(path, IndexKeys::kUser);
}

INSTANTIATE_TEST_SUITE_P(EveryPolicy, EveryPolicyTablesTest,
                         testing::ValuesIn(AllCases()),
                         [](const testing::TestParamInfo<TableCase>& param) {
                           return absl::StrCat(
                               test::TestNameOf(param.param.factory.spec), "_",
                               param.param.num_keys, "Keys");
                         });

}  // namespace
}  // namespace sstfilter
