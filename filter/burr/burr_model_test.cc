// The compact filter against its format document: burr_model.h, a reader
// written from filter/burr/README.md alone, gives the same answer as every
// production query path (single, batched and KeyMayMatch) on random filters
// and keys, and matches every key the production builder was given, so the
// builder writes what the document defines. Damaged filters are compared too,
// which checks the document's table of malformed inputs.
//
// Only the policy factories are used from filter/burr (burr.h, and burr_impl.h
// to pin a query path and to force seeds and a layer limit).

#include "filter/burr/burr_model.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "filter/burr/burr.h"
#include "filter/burr/burr_impl.h"
#include "filter/testing/filter_test_util.h"
#include "gtest/gtest.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace {

using ::sstfilter::burr_internal::NewBurrFilterPolicyForTest;
using ::sstfilter::burr_internal::QueryPath;
using ::sstfilter::burr_internal::QueryPathAvailable;
using ::sstfilter::burr_model::ModelFilter;
using ::sstfilter::burr_model::ModelMayMatch;
using ::sstfilter::burr_model::ParseModel;
using ::sstfilter::burr_model::Shape;

std::vector<QueryPath> AvailablePaths() {
  std::vector<QueryPath> paths = {QueryPath::kScalar};
  for (QueryPath path : {QueryPath::kAvx2, QueryPath::kAvx512}) {
    if (QueryPathAvailable(path)) paths.push_back(path);
  }
  return paths;
}

const char* PathName(QueryPath path) {
  switch (path) {
    case QueryPath::kScalar:
      return "scalar";
    case QueryPath::kAvx2:
      return "AVX2";
    case QueryPath::kAvx512:
      return "AVX-512";
  }
  return "?";
}

std::unique_ptr<const FilterPolicy> Policy(const FilterOptions& options,
                                           QueryPath path,
                                           int forced_failures = 0,
                                           int max_layers = 1 << 30) {
  // The model reads the version-1 layout README.md defines; version 2 adds
  // only a checksum trailer (filter/format_version_2.md,
  // self_checksum_test.cc).
  FilterOptions version1 = options;
  version1.self_checksum = false;
  auto policy =
      NewBurrFilterPolicyForTest(version1, path, forced_failures, max_layers);
  EXPECT_TRUE(policy.ok()) << policy.status();
  return std::move(*policy);
}

// Keys of random bytes, 0 to 200 long: the hash's short-key path (up to 16
// bytes), its middle and its long one (above 128) all occur.
std::vector<std::string> RandomKeys(test::Random* rng, size_t n) {
  std::vector<std::string> keys;
  keys.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const size_t length =
        rng->OneIn(4) ? rng->Uniform(201) : 8 + rng->Uniform(17);
    keys.push_back(rng->Bytes(length));
  }
  return keys;
}

// Every path's answers for queries on filter equal the model's, single,
// batched and through KeyMayMatch. Returns how many queries the model matched.
size_t ExpectPathsAgreeWithModel(const FilterOptions& options,
                                 const std::string& filter,
                                 const std::vector<std::string>& queries) {
  const ModelFilter model = ParseModel(filter);
  std::vector<bool> expected;
  size_t matches = 0;
  for (const std::string& key : queries) {
    expected.push_back(ModelMayMatch(model, key));
    matches += expected.back();
  }
  std::vector<absl::string_view> views(queries.begin(), queries.end());
  for (QueryPath path : AvailablePaths()) {
    SCOPED_TRACE(PathName(path));
    const auto policy = Policy(options, path);
    std::unique_ptr<FilterReader> reader = policy->NewReader(filter);
    std::unique_ptr<bool[]> batched(new bool[views.size()]);
    reader->MayMatch(absl::MakeConstSpan(views), batched.get());
    for (size_t i = 0; i < queries.size(); ++i) {
      const char* disagrees = nullptr;
      if (reader->MayMatch(queries[i]) != expected[i]) {
        disagrees = "MayMatch";
      } else if (batched[i] != expected[i]) {
        disagrees = "batched MayMatch";
      } else if (i < 200 &&
                 policy->KeyMayMatch(queries[i], filter) != expected[i]) {
        disagrees = "KeyMayMatch";
      }
      if (disagrees != nullptr) {
        ADD_FAILURE() << disagrees << " of query " << i << " ("
                      << absl::CHexEscape(queries[i]) << ") is not the model's "
                      << expected[i];
        return matches;
      }
    }
  }
  return matches;
}

// Settings that give every column count a reader specialises, and r = 0
// (0.6: lower blocks of no columns, which match every key they keep).
const std::vector<FilterOptions>& Settings() {
  static const auto* settings = new std::vector<FilterOptions>{
      FilterOptions::Fpp(0.6),        FilterOptions::Fpp(0.3),
      FilterOptions::Fpp(0.01),       FilterOptions::Fpp(0.003),
      FilterOptions::Fpp(1.0 / 1024), FilterOptions::Fpp(1e-6),
      FilterOptions::BitsPerKey(7.5), FilterOptions::BitsPerKey(20),
      FilterOptions::BitsPerKey(100),
  };
  return *settings;
}

// Random key sets from empty to several segments (1024 blocks of 64 slots
// hold about 68,000 keys) and random absent keys.
TEST(BurrModelTest, ModelAgreesWithProductionOnRandomFilters) {
  constexpr uint64_t kSeed = 0xb122;
  SCOPED_TRACE(testing::Message() << "random seed " << kSeed);
  test::Random rng(kSeed);
  for (const FilterOptions& options : Settings()) {
    const auto builder_policy = Policy(options, QueryPath::kScalar);
    for (size_t n : {size_t{0}, size_t{1}, size_t{2}, size_t{5}, size_t{32},
                     size_t{33}, size_t{255}, size_t{256}, size_t{257},
                     size_t{1000} + rng.Uniform(3000),
                     size_t{20000} + rng.Uniform(20000), size_t{150000}}) {
      SCOPED_TRACE(absl::StrCat("bits/key ", builder_policy->BitsPerKey(), ", ",
                                n, " keys"));
      std::vector<std::string> keys = RandomKeys(&rng, n);
      // Some repeats, adjacent and not.
      for (size_t i = 0; i < n / 50; ++i) keys.push_back(keys[rng.Uniform(n)]);
      if (n > 0) keys.push_back(keys.back());
      const std::string filter = test::BuildFilter(*builder_policy, keys);
      const ModelFilter model = ParseModel(filter);
      ASSERT_EQ(model.shape, n == 0 ? Shape::kMatchesNothing : Shape::kProbe);
      // The builder satisfies the document: every added key matches.
      for (const std::string& key : keys) {
        ASSERT_TRUE(ModelMayMatch(model, key)) << absl::CHexEscape(key);
      }
      std::vector<std::string> queries = RandomKeys(&rng, 20000);
      for (size_t i = 0; i < std::min<size_t>(n, 5000); ++i) {
        queries.push_back(keys[rng.Uniform(n)]);
      }
      ExpectPathsAgreeWithModel(options, filter, queries);
      if (HasFailure()) return;
    }
  }
}

// Seeds above 0 (forced failed constructions) and keys bumped past the last
// layer (one layer allowed): both parts of the query the common case skips.
TEST(BurrModelTest, ModelAgreesOnSeedsAndKeysPastTheLastLayer) {
  test::Random rng(0x5eed);
  const FilterOptions options = FilterOptions::Fpp(0.01);
  for (int failures : {1, 7, 63}) {
    const auto policy = Policy(options, QueryPath::kScalar, failures);
    const std::vector<std::string> keys = RandomKeys(&rng, 3000);
    const std::string filter = test::BuildFilter(*policy, keys);
    const ModelFilter model = ParseModel(filter);
    ASSERT_EQ(model.shape, Shape::kProbe);
    EXPECT_EQ(model.seed, static_cast<uint64_t>(failures));
    for (const std::string& key : keys) ASSERT_TRUE(ModelMayMatch(model, key));
    ExpectPathsAgreeWithModel(options, filter, RandomKeys(&rng, 20000));
  }
  const auto one_layer = Policy(options, QueryPath::kScalar, 0, 1);
  const std::vector<std::string> keys = RandomKeys(&rng, 5000);
  const std::string filter = test::BuildFilter(*one_layer, keys);
  const ModelFilter model = ParseModel(filter);
  ASSERT_EQ(model.shape, Shape::kProbe);
  ASSERT_EQ(model.layers.size(), 1u);
  for (const std::string& key : keys) ASSERT_TRUE(ModelMayMatch(model, key));
  // About 4% of keys leave the only layer and match: far above 1%.
  const size_t matches =
      ExpectPathsAgreeWithModel(options, filter, RandomKeys(&rng, 20000));
  EXPECT_GT(matches, 20000 * 0.03);
}

// Damaged filters: random bytes changed in the trailer, the header, the
// thresholds and the words, and cut short. The document's table of malformed
// inputs and its query decide every answer, so the model and the readers
// still agree.
TEST(BurrModelTest, ModelAgreesOnDamagedFilters) {
  constexpr uint64_t kSeed = 0xda3a6e;
  SCOPED_TRACE(testing::Message() << "random seed " << kSeed);
  test::Random rng(kSeed);
  int shapes[3] = {0, 0, 0};  // by Shape
  for (const FilterOptions& options :
       {FilterOptions::Fpp(0.01), FilterOptions::Fpp(0.3)}) {
    const auto policy = Policy(options, QueryPath::kScalar);
    for (size_t n : {0, 1, 40, 3000}) {
      const std::string original =
          test::BuildFilter(*policy, RandomKeys(&rng, n));
      for (int round = 0; round < 300; ++round) {
        std::string filter = original;
        const int changes = 1 + static_cast<int>(rng.Uniform(3));
        for (int c = 0; c < changes; ++c) {
          // Mostly the last 24 bytes (trailer, header, the last thresholds).
          const size_t tail = std::min<size_t>(filter.size(), 24);
          const size_t at = rng.OneIn(3)
                                ? rng.Uniform(filter.size())
                                : filter.size() - 1 - rng.Uniform(tail);
          filter[at] = static_cast<char>(rng.OneIn(2) ? rng.Uniform(256)
                                                      : filter[at] ^ 1);
        }
        if (rng.OneIn(8)) filter.resize(rng.Uniform(filter.size() + 1));
        SCOPED_TRACE(absl::StrCat(
            n, " keys, round ", round, ": ",
            absl::BytesToHexString(filter.substr(
                filter.size() - std::min<size_t>(filter.size(), 24)))));
        ++shapes[static_cast<int>(ParseModel(filter).shape)];
        ExpectPathsAgreeWithModel(options, filter, RandomKeys(&rng, 300));
        if (HasFailure()) return;
      }
    }
  }
  // The damage reaches every row kind of the table: filters that match
  // nothing, that may match anything, and that are still probed.
  EXPECT_GT(shapes[static_cast<int>(Shape::kMatchesNothing)], 20);
  EXPECT_GT(shapes[static_cast<int>(Shape::kMayMatch)], 200);
  EXPECT_GT(shapes[static_cast<int>(Shape::kProbe)], 200);
}

// The comparison can fail: one flipped bit of a filter's words, or a raised
// threshold code, changes some answer of the model, which the production
// reader of the intact filter then contradicts.
TEST(BurrModelTest, DamageChangesTheModelsAnswers) {
  test::Random rng(3);
  const FilterOptions options = FilterOptions::Fpp(0.01);
  const auto policy = Policy(options, QueryPath::kScalar);
  const std::vector<std::string> keys = RandomKeys(&rng, 2000);
  const std::string intact = test::BuildFilter(*policy, keys);
  std::unique_ptr<FilterReader> reader = policy->NewReader(intact);
  auto disagreements = [&](const std::string& damaged) {
    const ModelFilter model = ParseModel(damaged);
    EXPECT_EQ(model.shape, Shape::kProbe);
    size_t count = 0;
    for (const std::string& key : keys) {
      count += ModelMayMatch(model, key) != reader->MayMatch(key);
    }
    return count;
  };
  EXPECT_EQ(disagreements(intact), 0u);
  std::string flipped = intact;
  flipped[0] ^= 0x01;  // layer 0, block 0, column 0, slot 0
  EXPECT_GT(disagreements(flipped), 0u);
  // The first threshold byte is right after the words of every layer: find
  // it from the model's own parse, and bump block 0 of layer 0 to code 3.
  const ModelFilter model = ParseModel(intact);
  std::string bumped = intact;
  bumped[model.layers[0].threshold_offset] |= 0x03;
  EXPECT_GT(disagreements(bumped), 0u);
}

}  // namespace
}  // namespace sstfilter
