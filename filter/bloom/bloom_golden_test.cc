// Golden vectors of the native Bloom filter format ("sstfilter.LocalBloom1"):
// exact key hashes, whole filters for small key sets, a hash of the bytes of
// larger filters, and the first false-positive indices. Any change here is a
// format change: a filter written before would read differently. Such a change
// needs a new marker and Name(), not new vectors.
//
// To regenerate after a deliberate format change: set kRegenerate to true, run
//   bazel test //filter/bloom:bloom_golden_test --test_output=all
// paste the printed values, and set it back (while it is on, every test fails).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "filter/bloom/bloom.h"
#include "filter/testing/filter_test_util.h"
#include "gtest/gtest.h"
#include "util/hash.h"
#include "util/testing/golden.h"

namespace sstfilter {
namespace {

using ::sstfilter::test::BuildFilter;
using ::sstfilter::test::FirstMatches;
using ::sstfilter::test::Key16;
using ::sstfilter::test::Keys16;

using ::sstfilter::test::Hex64;

constexpr bool kRegenerate = false;

void CheckGoldenHex(const char* name, const std::string& actual,
                    const char* hex) {
  test::CheckGolden(kRegenerate, name, absl::BytesToHexString(actual),
                    std::string(hex));
}

std::unique_ptr<const FilterPolicy> Policy(const FilterOptions& options) {
  return std::move(*NewBloomFilterPolicy(options));
}

TEST(BloomGoldenTest, KeyHash) {
  // XXH3-64, seed 0. The empty-input value is the one xxHash documents for
  // XXH3_64bits (0x2D06800538D394C2, in its sanity tests); the others pin
  // libxxhash's output.
  test::CheckGolden(kRegenerate, "hash('')", Hex64(Hash64("")),
                    std::string("2d06800538d394c2"));
  test::CheckGolden(kRegenerate, "hash('a')", Hex64(Hash64("a")),
                    std::string("e6c632b61e964e1f"));
  test::CheckGolden(kRegenerate, "hash('hello')", Hex64(Hash64("hello")),
                    std::string("9555e8555c62dcfd"));
  test::CheckGolden(kRegenerate, "hash(Key16(0, 0))",
                    Hex64(Hash64(Key16(0, 0))),
                    std::string("a80e9a467e21a67d"));
  test::CheckGolden(kRegenerate, "hash(200 x 'x')",
                    Hex64(Hash64(std::string(200, 'x'))),
                    std::string("50ef124fb1e4de53"));
}

TEST(BloomGoldenTest, SmallFilters) {
  std::unique_ptr<const FilterPolicy> policy =
      Policy(test::Version1(FilterOptions::BitsPerKey(10)));
  CheckGoldenHex("{}", BuildFilter(*policy, {}), "0001b106");
  CheckGoldenHex("{hello, world}", BuildFilter(*policy, {"hello", "world"}),
                 "14ef090201b106");
  // 100 keys: body of 125 bytes, one block absorbing the 61 bytes beyond 64.
  CheckGoldenHex(
      "100 keys at 10 bits/key", BuildFilter(*policy, Keys16(0, 0, 100)),
      "f10f244fca8ad82242844d9ab5882672abe2e3a06e00110a65e22c435d1bc00e2eb4175e"
      "4c8302b17448a56bef0277cc7219178c4c8e3a16394e574f306009562a060fb885bb1392"
      "04b5e501f43e6664a830fc6a18b1742ed0f4243c712c8f390fe3376419ee54f9e97000d2"
      "126514d96b16ad931573e485608440adc26401b106");
  // From fpp: pins the sizing too (bits/key and k derive from the formula).
  std::unique_ptr<const FilterPolicy> by_fpp =
      Policy(test::Version1(FilterOptions::Fpp(0.001)));
  CheckGoldenHex("60 keys at fpp 0.1%", BuildFilter(*by_fpp, Keys16(0, 0, 60)),
                 "538ff39632012d2a202dedba91817268b934a815302ab1b2d60c3926d20e1"
                 "65e9d8f6d60b05bc3e176964577cca89498804aa8d3c079518fe46048254c"
                 "c043a2303be330c75c4e28374b34444c360940691710d6d330e3700e1b673"
                 "8a70c259ecd87c209a514658be48e117672846739a413925cc13c01b109");
}

TEST(BloomGoldenTest, LargeFilters) {
  struct Case {
    const char* name;
    FilterOptions options;
    uint64_t n;
    uint64_t size;
    const char* hash;  // Hash64 of the filter bytes
  };
  const std::vector<Case> cases = {
      {"10^4 keys at 10 bits/key",
       test::Version1(FilterOptions::BitsPerKey(10)), 10000, 12505,
       "e4a7e4cd4660fb55"},
      {"10^6 keys at 10 bits/key",
       test::Version1(FilterOptions::BitsPerKey(10)), 1000000, 1250006,
       "47d6330f7ef91581"},
      {"10^5 keys at fpp 1%", test::Version1(FilterOptions::Fpp(0.01)), 100000,
       123981, "c6b54c0853e0168c"},
      {"10^5 keys at fpp 0.01%", test::Version1(FilterOptions::Fpp(0.0001)),
       100000, 275384, "9f36401c85b269a9"},
  };
  for (const Case& c : cases) {
    const std::string filter =
        BuildFilter(*Policy(c.options), Keys16(0, 0, c.n));
    test::CheckGolden(kRegenerate, c.name,
                      absl::StrCat(filter.size(), " ", Hex64(Hash64(filter))),
                      absl::StrCat(c.size, " ", c.hash));
  }
}

TEST(BloomGoldenTest, FirstFalsePositives) {
  std::unique_ptr<const FilterPolicy> policy =
      Policy(test::Version1(FilterOptions::BitsPerKey(10)));
  const std::string filter = BuildFilter(*policy, Keys16(0, 0, 10000));
  std::unique_ptr<FilterReader> reader = policy->NewReader(filter);
  test::CheckGolden(kRegenerate, "first false positives",
                    FirstMatches(*reader, 1, 8),
                    std::string("320,461,483,529,757,853,888,925"));
}

}  // namespace
}  // namespace sstfilter
