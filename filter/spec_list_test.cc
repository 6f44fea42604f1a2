#include "filter/spec_list.h"

#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

ABSL_FLAG(sstfilter::SpecList, spec_list_test_filter, {},
          "a --filter flag, as the tools declare it");

namespace sstfilter {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

TEST(SpecListTest, SplitsAtCommasInOrder) {
  absl::StatusOr<SpecList> list =
      ParseSpecList("bloom:fpp=0.01,lib:rocksdb.fastbloom,grafite:16,none");
  ASSERT_TRUE(list.ok()) << list.status();
  EXPECT_THAT(list->entries,
              ElementsAre("bloom:fpp=0.01", "lib:rocksdb.fastbloom",
                          "grafite:16", "none"));
}

TEST(SpecListTest, EmptyTextIsTheEmptyList) {
  absl::StatusOr<SpecList> list = ParseSpecList("");
  ASSERT_TRUE(list.ok()) << list.status();
  EXPECT_THAT(list->entries, IsEmpty());
}

TEST(SpecListTest, RefusesTheListsFaultsNamingThem) {
  const struct {
    const char* text;
    const char* says;
  } cases[] = {
      {"bloom,,burr", "empty entry"},
      {"bloom,", "empty entry"},
      {",bloom", "empty entry"},
      {"bloom,burr,bloom", "\"bloom\" listed twice"},
      {"lib:", "is not lib:NAME"},
      {"lib:rocksdb:fastbloom", "is not lib:NAME"},
      {"bloom:10:", "trailing colon"},
      {"bloom:fpp=0.01:fpp=0.02", "given twice"},
  };
  for (const auto& c : cases) {
    absl::StatusOr<SpecList> list = ParseSpecList(c.text);
    ASSERT_FALSE(list.ok()) << c.text;
    EXPECT_TRUE(absl::IsInvalidArgument(list.status())) << c.text;
    EXPECT_THAT(std::string(list.status().message()), HasSubstr(c.says))
        << c.text;
  }
}

TEST(SpecListTest, PeersAreTheLibPrefixOnly) {
  EXPECT_TRUE(IsPeerName("lib:leveldb.bloom"));
  EXPECT_FALSE(IsPeerName("bloom"));
  EXPECT_FALSE(IsPeerName("rocksdb.fastbloom"));
}

TEST(SpecListTest, IsAnAbseilFlagThatRefusesAMalformedList) {
  absl::CommandLineFlag* flag =
      absl::FindCommandLineFlag("spec_list_test_filter");
  ASSERT_NE(flag, nullptr);
  std::string error;
  ASSERT_TRUE(flag->ParseFrom("burr,lib:leveldb.bloom", &error)) << error;
  EXPECT_THAT(absl::GetFlag(FLAGS_spec_list_test_filter).entries,
              ElementsAre("burr", "lib:leveldb.bloom"));
  EXPECT_EQ(flag->CurrentValue(), "burr,lib:leveldb.bloom");
  EXPECT_FALSE(flag->ParseFrom("burr,burr", &error));
  EXPECT_THAT(error, HasSubstr("listed twice"));
}

}  // namespace
}  // namespace sstfilter
