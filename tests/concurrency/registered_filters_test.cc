// Every registered filter format and policy factory (filter/format_registry.h)
// shared by threads, as filter_format.h and filter_policy.h allow: one reader
// object, the format's and the policy's one-call KeyMayMatch, ExpectedFpp and
// Describe, asked from several threads at once, and builders made by one
// policy on several threads at once. Each answer must be the one a lone
// thread gets. The formats come from the registry, so a family added later is
// tested here without editing this file; a registered format that no factory
// builds fails a test until this file learns options that build it.
//
// Tagged "tsan": CI runs it under ThreadSanitizer, which fails the test on a
// data race even where the answers happen to agree.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "filter/filter_format.h"
#include "filter/filter_policy.h"
#include "filter/format_registry.h"
#include "filter/testing/filter_test_util.h"
#include "gtest/gtest.h"
#include "tests/concurrency/run_on_threads.h"

namespace sstfilter {
namespace {

using test::BuildFilter;
using test::Key16;
using test::Keys16;
using test::kThreads;
using test::RunOnThreads;

constexpr uint64_t kKeys = 1000;
constexpr uint64_t kAbsentSet = 1000;  // Key16 sets from here on: never added

// Two sizes with different probe counts per family.
std::vector<std::pair<std::string, FilterOptions>> Sizes() {
  // Version 1 of sstfilter's own formats, which the compatible ones write
  // anyway: without its CRC32C (FilterOptions::self_checksum).
  FilterOptions version1 = FilterOptions::Fpp(0.01);
  version1.self_checksum = false;
  return {{"Fpp1Percent", FilterOptions::Fpp(0.01)},
          {"6BitsPerKey", FilterOptions::BitsPerKey(6)},
          {"Version1", version1}};
}

// One filter a registered factory built.
struct BuiltFilter {
  std::string label;  // factory and size, for messages
  std::shared_ptr<const FilterPolicy> policy;
  std::string bytes;
};

std::vector<BuiltFilter> BuildEveryFactorysFilters(
    const std::vector<std::string>& keys) {
  std::vector<BuiltFilter> built;
  for (const FamilyVariant& factory : RegisteredFamilyVariants()) {
    for (const auto& [size, options] : Sizes()) {
      absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
          factory.factory(options);
      EXPECT_TRUE(policy.ok()) << factory.spec << " " << policy.status();
      if (!policy.ok()) continue;
      BuiltFilter filter{absl::StrCat(factory.spec, "_", size),
                         *std::move(policy), ""};
      filter.bytes = BuildFilter(*filter.policy, keys);
      built.push_back(std::move(filter));
    }
  }
  return built;
}

// Added and absent keys, interleaved.
std::vector<std::string> Queries() {
  std::vector<std::string> queries;
  for (uint64_t i = 0; i < kKeys; ++i) {
    queries.push_back(Key16(0, i));
    queries.push_back(Key16(kAbsentSet, i));
  }
  return queries;
}

bool SameFacts(const FilterFacts& a, const FilterFacts& b) {
  return a.kind == b.kind && a.num_keys == b.num_keys &&
         a.keys_estimated == b.keys_estimated && a.body_bits == b.body_bits &&
         a.num_probes == b.num_probes;
}

// What a lone thread learns about one filter through every shared path.
struct LoneAnswers {
  std::vector<char> match;  // per query
  double reader_fpp;
  double format_fpp;
  FilterFacts facts;
};

// The number of answers that differ from a lone thread's when kThreads
// threads at once ask the filter through one reader of the registered format
// (as TableFilter holds it), one of the policy's, the format's and the
// policy's one-call KeyMayMatch, a reader of each thread's own, in batches of
// 64, and ExpectedFpp and Describe. Each thread starts at its own offset, so
// that the threads touch the same bytes at different times. *lone receives
// the lone thread's answers.
uint64_t SharedMismatches(const FilterFormat& format,
                          const FilterPolicy& policy, absl::string_view filter,
                          const std::vector<std::string>& queries,
                          LoneAnswers* lone) {
  const std::unique_ptr<FilterReader> format_reader = format.NewReader(filter);
  const std::unique_ptr<FilterReader> policy_reader = policy.NewReader(filter);
  const size_t n = queries.size();
  lone->match.resize(n);
  for (size_t i = 0; i < n; ++i)
    lone->match[i] = format_reader->MayMatch(queries[i]);
  lone->reader_fpp = format_reader->ExpectedFpp();
  lone->format_fpp = format.ExpectedFpp(filter);
  lone->facts = format.Describe(filter);

  std::vector<uint64_t> mismatches(kThreads, 0);
  RunOnThreads(kThreads, [&](int t) {
    constexpr size_t kBatch = 64;
    const std::unique_ptr<FilterReader> own = format.NewReader(filter);
    std::vector<absl::string_view> batch;
    std::vector<size_t> batch_index;
    bool format_results[kBatch];
    bool policy_results[kBatch];
    uint64_t& mine = mismatches[t];
    for (size_t j = 0; j < n; ++j) {
      const size_t i = (j + static_cast<size_t>(t) * n / kThreads) % n;
      const bool want = lone->match[i];
      mine += format_reader->MayMatch(queries[i]) != want;
      mine += policy_reader->MayMatch(queries[i]) != want;
      mine += own->MayMatch(queries[i]) != want;
      mine += format.KeyMayMatch(queries[i], filter) != want;
      mine += policy.KeyMayMatch(queries[i], filter) != want;
      batch.push_back(queries[i]);
      batch_index.push_back(i);
      if (batch.size() == kBatch || j + 1 == n) {
        format_reader->MayMatch(batch, format_results);
        policy_reader->MayMatch(batch, policy_results);
        for (size_t b = 0; b < batch.size(); ++b) {
          const bool want_b = lone->match[batch_index[b]];
          mine += format_results[b] != want_b;
          mine += policy_results[b] != want_b;
        }
        batch.clear();
        batch_index.clear();
      }
      if (j % 512 == 0) {
        mine += format_reader->ExpectedFpp() != lone->reader_fpp;
        mine += policy_reader->ExpectedFpp() != lone->reader_fpp;
        mine += format.ExpectedFpp(filter) != lone->format_fpp;
        mine += !SameFacts(format.Describe(filter), lone->facts);
      }
    }
  });
  uint64_t total = 0;
  for (uint64_t m : mismatches) total += m;
  return total;
}

// Damaged copies of a filter: a reader answers safely for any bytes, and its
// error paths (a filter too short, an unknown trailer, a failed check) are
// shared as its ordinary path is.
std::vector<std::pair<std::string, std::string>> Damaged(
    const std::string& filter) {
  std::vector<std::pair<std::string, std::string>> damaged;
  damaged.emplace_back("half", filter.substr(0, filter.size() / 2));
  std::string last = filter;
  if (!last.empty()) last.back() = static_cast<char>(last.back() + 1);
  damaged.emplace_back("last byte changed", last);
  std::string body = filter;
  if (!body.empty()) body[body.size() / 3] ^= 0x10;
  damaged.emplace_back("body bit flipped", body);
  return damaged;
}

TEST(RegisteredFiltersTest, EveryFormatsReadersAreShared) {
  const std::vector<std::string> keys = Keys16(0, 0, kKeys);
  const std::vector<std::string> queries = Queries();
  std::map<std::string, int> filters_of_format;
  for (const BuiltFilter& built : BuildEveryFactorysFilters(keys)) {
    SCOPED_TRACE(built.label);
    const FilterFormat* format = FindFilterFormat(built.policy->Name());
    ASSERT_NE(format, nullptr) << built.policy->Name() << " is not registered";
    ++filters_of_format[format->Name()];

    LoneAnswers lone;
    EXPECT_EQ(
        SharedMismatches(*format, *built.policy, built.bytes, queries, &lone),
        0u);
    // The lone answers are right: every added key (the even queries) matches.
    for (size_t i = 0; i < queries.size(); i += 2)
      ASSERT_TRUE(lone.match[i]) << "false negative, key " << i / 2;

    for (const auto& [damage, bytes] : Damaged(built.bytes)) {
      SCOPED_TRACE(damage);
      EXPECT_EQ(SharedMismatches(*format, *built.policy, bytes, queries, &lone),
                0u);
    }
  }
  // Every format a family writes; the layouts families only read share their
  // readers' code with a written one (their packages' tests read them).
  for (const FilterFamilyRecord& family : RegisteredFilterFamilies()) {
    for (const FilterFormat* format : family.formats) {
      EXPECT_GT(filters_of_format[format->Name()], 0)
          << "no registered factory builds " << format->Name()
          << " with the options of Sizes(): add options that do, so that its "
             "readers are tested shared";
    }
  }
}

// One policy's builders on several threads at once (a store flushing and
// compacting in parallel) build the filters a lone thread builds: through
// NewBuilder, NewSizingBuilder and CreateFilter.
TEST(RegisteredFiltersTest, EveryPolicysBuildersRunAtOnce) {
  const std::vector<std::string> keys = Keys16(0, 0, kKeys);
  const std::vector<absl::string_view> key_views(keys.begin(), keys.end());
  for (BuiltFilter& built : BuildEveryFactorysFilters(keys)) {
    SCOPED_TRACE(built.label);
    const FilterPolicy& policy = *built.policy;
    std::vector<std::string> filters(3 * kThreads);
    RunOnThreads(kThreads, [&](int t) {
      std::unique_ptr<FilterBuilder> builder = policy.NewBuilder();
      std::unique_ptr<FilterBuilder> sizing = policy.NewSizingBuilder();
      for (const std::string& key : keys) {
        builder->AddKey(key);
        sizing->AddKey(key);
      }
      builder->Finish(&filters[3 * t]);
      sizing->Finish(&filters[3 * t + 1]);
      policy.CreateFilter(key_views, &filters[3 * t + 2]);
    });
    for (size_t i = 0; i < filters.size(); ++i)
      EXPECT_EQ(filters[i], built.bytes)
          << "thread " << i / 3 << " path " << i % 3;
  }
}

}  // namespace
}  // namespace sstfilter
