// Deterministic pseudo-random numbers and keys for tests (see random.h).

#include "util/testing/random.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "util/coding.h"

namespace sstfilter {
namespace test {

uint64_t Random::Next64() {
  const uint64_t z = Mix64(state_);
  state_ += kSplitMixGamma;  // Mix64's own increment: the Weyl step
  return z;
}

uint64_t Random::Uniform(uint64_t n) {
  // Multiply-shift reduction (Lemire): the bias is at most n / 2^64, far below
  // anything a test could notice.
  return static_cast<uint64_t>((static_cast<unsigned __int128>(Next64()) * n) >>
                               64);
}

std::string Random::Bytes(size_t len) {
  std::string out(len, '\0');
  for (size_t i = 0; i < len; i += 8) {
    uint64_t bits = Next64();
    for (size_t j = i; j < len && j < i + 8; ++j, bits >>= 8) {
      out[j] = static_cast<char>(bits & 0xff);
    }
  }
  return out;
}

std::vector<std::string> RandomKeys(Random* rng, size_t n, size_t min_len,
                                    size_t max_len) {
  std::vector<std::string> keys;
  keys.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    keys.push_back(rng->Bytes(rng->Range(min_len, max_len)));
  }
  return keys;
}

std::string NumberedKey(const char* prefix, int i) {
  return absl::StrCat(prefix, i);
}

std::string Fixed32Key(uint32_t i) {
  std::string key;
  PutFixed32(&key, i);
  return key;
}

std::vector<std::string> SortedHexKeys(size_t n, uint64_t seed,
                                       const std::string& prefix) {
  Random random(seed);
  std::vector<std::string> keys;
  keys.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    keys.push_back(absl::StrFormat("%s%016x", prefix, random.Next64()));
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

}  // namespace test
}  // namespace sstfilter
