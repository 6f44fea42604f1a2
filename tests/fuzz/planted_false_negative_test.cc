// Shows that the round-trip check catches a false negative: a policy with a
// planted off-by-one (planted_policy.h) must fail CheckRoundTrip on some input
// of the checked-in round-trip corpus, while the real LevelDB-compatible policy
// passes on all of them.
//
// Usage (from the BUILD rule): planted_false_negative_test CORPUS_DIR

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "filter/leveldb/leveldb_bloom.h"
#include "filter/testing/planted_policy.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/fuzz/fuzz_checks.h"

namespace sstfilter {
namespace fuzz {
namespace {

std::string corpus_dir;  // from argv

std::vector<std::string> ReadCorpus() {
  std::vector<std::string> inputs;
  for (const auto& entry : std::filesystem::directory_iterator(corpus_dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    inputs.emplace_back(std::istreambuf_iterator<char>(in),
                        std::istreambuf_iterator<char>());
  }
  return inputs;
}

absl::Status Check(const PolicyFactory& factory, const std::string& input) {
  return CheckRoundTrip(factory, reinterpret_cast<const uint8_t*>(input.data()),
                        input.size());
}

TEST(PlantedFalseNegativeTest, RealPolicyPassesTheCorpus) {
  const std::vector<std::string> inputs = ReadCorpus();
  ASSERT_FALSE(inputs.empty()) << corpus_dir;
  for (const std::string& input : inputs) {
    EXPECT_TRUE(Check(NewLevelDbFilterPolicy, input).ok())
        << Check(NewLevelDbFilterPolicy, input);
  }
}

TEST(PlantedFalseNegativeTest, CheckCatchesTheDroppedKey) {
  const std::vector<std::string> inputs = ReadCorpus();
  ASSERT_FALSE(inputs.empty()) << corpus_dir;
  int caught = 0;
  for (const std::string& input : inputs) {
    const absl::Status status = Check(NewDropLastKeyPolicy, input);
    if (!status.ok()) {
      ++caught;
      EXPECT_THAT(std::string(status.message()),
                  testing::HasSubstr("false negative"));
    }
  }
  EXPECT_GT(caught, 0) << "no input of " << corpus_dir
                       << " exposes the dropped key";
}

// The one-key case needs no corpus: the only key is the dropped one, and a
// filter built from no keys matches nothing.
TEST(PlantedFalseNegativeTest, CheckNamesTheMissedKey) {
  // Options selector 0 (integer bits/key) = 10, no synthetic keys, one key
  // "hello".
  const std::string input = std::string("\x00\x0a\x00\x00\x05", 5) + "hello";
  const absl::Status status = Check(NewDropLastKeyPolicy, input);
  EXPECT_THAT(std::string(status.message()), testing::HasSubstr("\"hello\""));
  EXPECT_TRUE(Check(NewLevelDbFilterPolicy, input).ok());
}

}  // namespace
}  // namespace fuzz
}  // namespace sstfilter

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
    return 2;
  }
  sstfilter::fuzz::corpus_dir = argv[1];
  return RUN_ALL_TESTS();
}
