// Helpers shared by the tests of filter/rocksdb/: the two policies by name, key
// sets of several shapes, and private copies of filter bytes (so that a read
// past the end is an ASan error, not a neighbour's byte).

#ifndef SSTFILTER_FILTER_ROCKSDB_ROCKSDB_TEST_UTIL_H_
#define SSTFILTER_FILTER_ROCKSDB_ROCKSDB_TEST_UTIL_H_

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "filter/filter_policy.h"
#include "filter/rocksdb/rocksdb_bloom.h"
#include "filter/rocksdb/rocksdb_oracle.h"
#include "filter/testing/filter_test_util.h"
#include "util/coding.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace rocksdb_test {

enum class Format { kFastLocalBloom, kLegacyBloom };

inline const char* FormatName(Format format) {
  return format == Format::kFastLocalBloom ? "FastLocalBloom" : "LegacyBloom";
}

// RocksDB's builder for the same format.
inline test::RocksDbBuilderKind OracleKind(Format format) {
  return format == Format::kFastLocalBloom
             ? test::RocksDbBuilderKind::kFastLocalBloom
             : test::RocksDbBuilderKind::kLegacyBloom;
}

inline std::unique_ptr<const FilterPolicy> MakePolicy(
    Format format, const FilterOptions& options) {
  auto policy = format == Format::kFastLocalBloom
                    ? NewRocksDbFastBloomFilterPolicy(options)
                    : NewRocksDbLegacyBloomFilterPolicy(options);
  if (!policy.ok()) {
    std::cerr << "policy: " << policy.status() << "\n";
    std::abort();
  }
  return *std::move(policy);
}

using ::sstfilter::test::BuildFilter;

// Shapes of key sets.
enum class KeyShape {
  kRandom,            // uniform bytes (ASCII and not), lengths 0..100
  kSequentialText,    // "key000000000", "key000000001", ...: 12-byte ASCII
  kSequentialBinary,  // 8-byte big-endian integers from a random start
  kRepeats,           // random 1..20-byte keys, each repeated 1..3 times in a
                      // row (RocksDB counts a run of equal hashes once)
};

inline const char* KeyShapeName(KeyShape shape) {
  switch (shape) {
    case KeyShape::kRandom:
      return "random";
    case KeyShape::kSequentialText:
      return "sequential text";
    case KeyShape::kSequentialBinary:
      return "sequential binary";
    case KeyShape::kRepeats:
      return "repeats";
  }
  return "?";
}

inline std::vector<std::string> MakeKeys(KeyShape shape, size_t n,
                                         test::Random* rng) {
  std::vector<std::string> keys;
  keys.reserve(n);
  const uint64_t start = rng->Next64() >> 8;
  while (keys.size() < n) {
    const size_t i = keys.size();
    switch (shape) {
      case KeyShape::kRandom:
        keys.push_back(rng->Bytes(rng->Range(0, 100)));
        break;
      case KeyShape::kSequentialText:
        keys.push_back(absl::StrFormat("key%09d", static_cast<int>(i)));
        break;
      case KeyShape::kSequentialBinary: {
        std::string key(8, '\0');
        const uint64_t value = start + i;
        for (int b = 0; b < 8; ++b) {
          key[b] = static_cast<char>(value >> (56 - 8 * b));
        }
        keys.push_back(key);
        break;
      }
      case KeyShape::kRepeats: {
        const std::string key = rng->Bytes(rng->Range(1, 20));
        for (uint64_t r = rng->Range(1, 3); r > 0 && keys.size() < n; --r) {
          keys.push_back(key);
        }
        break;
      }
    }
  }
  return keys;
}

// Keys to ask two readers about, whose answers are compared: random bytes of
// random lengths 0..40, so that every hash path is taken (the 32-bit hash's
// 1-3 byte tails, XXH3's short and medium inputs). Added or not does not
// matter for a comparison.
inline std::vector<std::string> QueryKeys(size_t n, test::Random* rng) {
  std::vector<std::string> keys;
  keys.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    keys.push_back(rng->Bytes(rng->Range(0, 40)));
  }
  return keys;
}

// Trailers, byte by byte (filter/rocksdb/README.md draws them).
inline std::string Bytes(std::initializer_list<int> bytes) {
  std::string s;
  for (int b : bytes) s.push_back(static_cast<char>(b));
  return s;
}

// FastLocalBloom family: 0xFF, sub-implementation, block-size/k byte, two
// reserved bytes.
inline std::string NewBloomTrailer(int sub_impl, int block_and_k, int b3,
                                   int b4) {
  return Bytes({0xFF, sub_impl, block_and_k, b3, b4});
}

// Legacy Bloom: k, then the fixed32 line count.
inline std::string LegacyTrailer(int k, uint32_t lines) {
  std::string trailer(1, static_cast<char>(k));
  PutFixed32(&trailer, lines);
  return trailer;
}

// Ribbon: 0xFE, the ordinal seed, the 24-bit block count.
inline std::string RibbonTrailer(int seed, uint32_t blocks) {
  return Bytes({0xFE, seed, static_cast<int>(blocks & 0xff),
                static_cast<int>((blocks >> 8) & 0xff),
                static_cast<int>(blocks >> 16)});
}

// A heap copy of exactly the filter's bytes.
class PrivateCopy {
 public:
  explicit PrivateCopy(absl::string_view bytes)
      : size_(bytes.size()), data_(new char[size_]) {
    std::copy(bytes.begin(), bytes.end(), data_.get());
  }
  absl::string_view view() const {
    return absl::string_view(data_.get(), size_);
  }

 private:
  size_t size_;
  std::unique_ptr<char[]> data_;
};

}  // namespace rocksdb_test
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ROCKSDB_ROCKSDB_TEST_UTIL_H_
