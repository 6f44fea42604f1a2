// Fuzzes MutableBloomFilter::Freeze against the native reader: input bytes
// choose a size and a sequence of keys; every key is added (Add must return
// whether the filter matched it before), the filter is frozen, and the native
// reader of the frozen bytes must match every added key and answer exactly as
// MayContain does for added and absent keys, single and batched.
//
// Input format (every byte string decodes; missing bytes read as zero):
//   [1 byte s: bit 0 clear: Fpp(kFpps[(s >> 1) % 8]);
//              bit 0 set: BitsPerKey(1 + (s >> 1) * 99 / 127)]
//   [2 bytes: expected keys, 1 + value % kMaxExpectedKeys]
//   [1 byte: probe path of the reader, bit 0: scalar or the best one]
//   ([1 byte op] ...)*  op < 128: an explicit key of op % 41 bytes, read
//                       next; op >= 128: (op - 127) * 4 synthetic keys
// Keys stop at kMaxKeys and filters at kMaxExpectedKeys expected keys (6.4 KB
// at 100 bits/key, 80 blocks at 10), so that an input costs well under a
// millisecond under the sanitizers: enough to reach many blocks, batches past
// 64 keys, two-byte trailer counts (128 keys and up) and saturated filters
// (kMaxKeys keys in one block). At 2,048 expected keys and 600 keys, fresh
// filter memory cost page faults on every input, and libFuzzer ran 1,070
// inputs a second.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "filter/bloom/bloom_format.h"
#include "filter/bloom/bloom_impl.h"
#include "filter/testing/filter_test_util.h"
#include "inmemory/mutable/mutable_bloom.h"
#include "tests/fuzz/fuzz_checks.h"

namespace sstfilter {
namespace {

constexpr double kFpps[8] = {0.5, 0.2, 0.05, 0.01, 1e-3, 1e-4, 1e-5, 1e-6};
constexpr uint64_t kMaxExpectedKeys = 512;
constexpr size_t kMaxKeys = 320;
constexpr uint64_t kAbsentKeys = 128;

void Fail(const std::string& what) {
  fuzz::AbortIfError(absl::InternalError(what), "mutable freeze check");
}

// The native policy's readers, one per probe path; their options do not
// matter (a filter carries its probe count). Made once: sizing is not what is
// fuzzed here.
const FilterPolicy& Policy(bloom::ProbePath path) {
  static const FilterPolicy* const scalar =
      bloom::NewBloomFilterPolicyWithPath(FilterOptions::BitsPerKey(10),
                                          bloom::ProbePath::kScalar)
          ->release();
  static const FilterPolicy* const best =
      bloom::NewBloomFilterPolicyWithPath(FilterOptions::BitsPerKey(10),
                                          bloom::BestProbePath())
          ->release();
  return path == bloom::ProbePath::kScalar ? *scalar : *best;
}

std::string SyntheticKey(const char* kind, uint64_t i) {
  return absl::StrCat(kind, i);
}

// The keys never added, the same for every input: made once.
const std::vector<std::string>& AbsentKeys() {
  static const std::vector<std::string>* const keys = [] {
    auto* absent = new std::vector<std::string>();
    for (uint64_t i = 0; i < kAbsentKeys; ++i) {
      absent->push_back(SyntheticKey("absent", i));
    }
    return absent;
  }();
  return *keys;
}

// Reader and MayContain agree on keys, single and batched; if `added`, every
// key must match.
void CheckAgree(const MutableBloomFilter& filter, const FilterReader& reader,
                const std::vector<std::string>& keys, bool added) {
  std::vector<absl::string_view> views(keys.begin(), keys.end());
  std::unique_ptr<bool[]> batched(new bool[keys.size() + 1]);
  std::unique_ptr<bool[]> mutable_batched(new bool[keys.size() + 1]);
  reader.MayMatch(absl::MakeConstSpan(views), batched.get());
  filter.MayContain(absl::MakeConstSpan(views), mutable_batched.get());
  for (size_t i = 0; i < keys.size(); ++i) {
    const bool expected = filter.MayContain(keys[i]);
    if (added && !expected) Fail("added key not matched: " + keys[i]);
    if (reader.MayMatch(keys[i]) != expected || batched[i] != expected ||
        mutable_batched[i] != expected) {
      Fail(absl::StrCat("frozen reader and MayContain disagree on key ",
                        absl::CEscape(keys[i]), " (added: ", added, ")"));
    }
  }
}

void CheckFreeze(const uint8_t* data, size_t size) {
  fuzz::ByteReader in(data, size);
  const uint8_t sizing = in.Byte();
  const FilterOptions options =
      (sizing & 1) == 0
          ? FilterOptions::Fpp(kFpps[(sizing >> 1) % 8])
          : FilterOptions::BitsPerKey(1 + (sizing >> 1) * 99.0 / 127);
  const uint64_t expected_keys = 1 + in.Fixed(2) % kMaxExpectedKeys;
  const bloom::ProbePath path =
      (in.Byte() & 1) == 0 ? bloom::ProbePath::kScalar : bloom::BestProbePath();
  absl::StatusOr<MutableBloomFilter> filter =
      MutableBloomFilter::Create(options, expected_keys);
  fuzz::AbortIfError(filter.status(), "MutableBloomFilter::Create");

  std::vector<std::string> keys;
  keys.reserve(kMaxKeys);
  uint64_t synthetic = 0;
  const auto add = [&](std::string key) {
    // On one thread, Add changes bits exactly when the key did not match.
    const bool matched_before = filter->MayContain(key);
    if (filter->Add(key) == matched_before) {
      Fail(absl::StrCat("Add returned ", !matched_before, " for key ",
                        absl::CEscape(key),
                        " that matched before: ", matched_before));
    }
    keys.push_back(std::move(key));
  };
  while (!in.AtEnd() && keys.size() < kMaxKeys) {
    const uint8_t op = in.Byte();
    if (op < 128) {
      add(std::string(in.Bytes(op % 41)));
    } else {
      for (int i = 0; i < (op - 127) * 4 && keys.size() < kMaxKeys; ++i) {
        add(SyntheticKey("added", synthetic++));
      }
    }
  }

  const std::string frozen = filter->Freeze();
  const bloom::ParsedFilter parsed =
      bloom::ParseFilter(test::Version1Filter(frozen));
  if (filter->BitsSet() == 0) {
    if (parsed.verdict != bloom::Verdict::kMatchNothing)
      Fail("an empty filter did not freeze to the native empty filter");
  } else if (parsed.verdict != bloom::Verdict::kProbe ||
             parsed.layout.body_bytes != filter->MemoryBytes() ||
             parsed.num_probes != filter->NumProbes()) {
    Fail(absl::StrCat(
        "the native reader does not probe the frozen filter: ", frozen.size(),
        " bytes, ", filter->BitsSet(), " bits set"));
  }
  const std::unique_ptr<FilterReader> reader = Policy(path).NewReader(frozen);
  CheckAgree(*filter, *reader, keys, /*added=*/true);
  CheckAgree(*filter, *reader, AbsentKeys(), /*added=*/false);
  const double fpp = filter->ExpectedFpp();
  const double reader_fpp = reader->ExpectedFpp();
  if (!(fpp >= 0 && fpp <= 1) || !(reader_fpp >= 0 && reader_fpp <= 1)) {
    Fail(absl::StrCat("ExpectedFpp outside [0, 1]: ", fpp, ", reader ",
                      reader_fpp));
  }
}

// Seeds: both sizings, one key to saturation, explicit and synthetic keys.
std::vector<fuzz::Seed> Seeds() {
  const auto input = [](uint8_t sizing, uint16_t expected, uint8_t path,
                        const std::string& ops) {
    std::string bytes;
    bytes.push_back(static_cast<char>(sizing));
    bytes.push_back(static_cast<char>(expected & 0xff));
    bytes.push_back(static_cast<char>(expected >> 8));
    bytes.push_back(static_cast<char>(path));
    return bytes + ops;
  };
  const std::string hello_world = std::string("\x05hello\x05world", 12);
  return {
      {"empty", ""},
      {"fpp0.01_no_keys", input(3 << 1, 999, 1, "")},
      {"fpp0.01_hello_world", input(3 << 1, 999, 1, hello_world)},
      {"bits10_hello_world_scalar", input(1 | (12 << 1), 1, 0, hello_world)},
      {"bits10_one_block_max_keys",
       input(1 | (12 << 1), 0, 1, std::string(2, '\xff'))},
      {"fpp1e-6_200_keys", input(7 << 1, 199, 1, "\xb1")},
      {"bits100_512_expected", input(1 | (127 << 1), 511, 0, "\xa0\x03key")},
      {"fpp0.5_max_keys", input(0, 50, 1, std::string(3, '\xff'))},
      {"empty_key", input(3 << 1, 9, 0, std::string(1, '\0'))},
  };
}

[[maybe_unused]] const bool kSeedsRegistered =
    (fuzz::RegisterSeedGenerator(&Seeds), true);

}  // namespace
}  // namespace sstfilter

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sstfilter::CheckFreeze(data, size);
  return 0;
}
