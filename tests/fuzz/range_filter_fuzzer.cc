// Fuzzes the range filter (filter/range): its readers on any bytes, and
// filters built from the input's keys against the sorted keys themselves.
//
// Input: a mode byte, then
//   even mode: filter bytes. Every range format's point reader passes
//     CheckReaderIsTotal; the range reader answers 64 code ranges of every
//     length (an empty range "no", RangeFppBound in [0, 1]) without reading
//     outside the bytes.
//   odd mode: a budget byte (3 + b / 8 bits per key), a flags byte (bit 0:
//     version 1; bit 1: keys coded per table), a fixed64 base code, a key count
//     byte, then per key a 2-byte step (keys cluster, so that ranges and the
//     hash's blocks hold several) and a suffix length byte (keys longer than 8
//     bytes share their code), then per range a key index, a signed offset and
//     a length. Every added key matches; every range holding a key's code
//     (oracle: the sorted codes) matches, as codes (the first 8 bytes' only),
//     as inclusive byte-string bounds and as exclusive ones.

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "filter/format_registry.h"
#include "filter/range/range_filter.h"
#include "filter/range/range_key.h"
#include "tests/fuzz/fuzz_checks.h"
#include "util/coding.h"

namespace sstfilter {
namespace {

using fuzz::ByteReader;

// Keys a built filter holds at most: enough for several Elias-Fano words and
// runs of keys sharing a code, few enough that an input stays cheap under
// ASan (the build and the per-key checks are most of an input's time).
constexpr size_t kMaxKeys = 64;
// Code ranges asked of any bytes: one of each power-of-two length.
constexpr int kRangesPerFilter = 64;
// Ranges an input asks of the filter it built, each three ways.
constexpr int kRangesPerBuiltFilter = 32;

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "range_filter_fuzzer: %s\n", what.c_str());
  std::abort();
}

void CheckAnyBytes(const uint8_t* data, size_t size) {
  for (const FilterFormat* format : RegisteredFilterFormats()) {
    if (!format->AnswersRanges()) continue;
    fuzz::AbortIfError(fuzz::CheckReaderIsTotal(*format, data, size),
                       format->Name());
  }
  // A buffer of exactly the input's size, so the sanitizers see any read past
  // it.
  std::unique_ptr<char[]> copy(new char[size]);
  if (size > 0) std::memcpy(copy.get(), data, size);
  const std::unique_ptr<RangeFilterReader> reader =
      NewRangeFilterReader(absl::string_view(copy.get(), size));
  uint64_t state = size * 0x9e3779b97f4a7c15ull + 1;
  for (int i = 0; i < kRangesPerFilter; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const uint64_t lo = state;
    const uint64_t length = uint64_t{1} << (i % 64);
    const uint64_t hi = lo + (length - 1) < lo ? ~uint64_t{0} : lo + length - 1;
    reader->CodeRangeMayMatch(lo, hi);
    if (reader->CodeRangeMayMatch(hi, lo) && hi != lo)
      Fail("an empty code range (hi < lo) matched");
    const double bound = reader->RangeFppBound(length);
    if (!(bound >= 0 && bound <= 1)) Fail(absl::StrCat("bound ", bound));
  }
  reader->RangeMayMatch(KeyOfRangeCode(state), KeyOfRangeCode(state + 5));
}

void CheckBuilt(ByteReader* in) {
  FilterOptions options = FilterOptions::BitsPerKey(3 + in->Byte() / 8.0);
  const uint8_t flags = in->Byte();
  options.self_checksum = (flags & 1) == 0;
  const bool keyed = (flags & 2) != 0;
  const auto policy =
      NewGrafiteFilterPolicy(options, keyed ? RangeKeyCoding::kPerTable
                                            : RangeKeyCoding::kFirst8Bytes);
  if (!policy.ok()) Fail(std::string(policy.status().message()));
  uint64_t code = in->Fixed(8);
  std::vector<std::string> keys;
  std::vector<uint64_t> codes;
  std::unique_ptr<FilterBuilder> builder = (*policy)->NewBuilder();
  const size_t num_keys = in->Byte() % kMaxKeys;
  for (size_t i = 0; i < num_keys && !in->AtEnd(); ++i) {
    code += in->Fixed(2);
    std::string key = KeyOfRangeCode(code);
    key.append(in->Byte() % 4, 'x');
    builder->AddKey(key);
    keys.push_back(key);
    codes.push_back(code);
  }
  std::string filter;
  builder->Finish(&filter);
  std::sort(codes.begin(), codes.end());
  const std::unique_ptr<RangeFilterReader> reader =
      NewRangeFilterReader(filter);
  if (!reader->Corruption().ok()) Fail("a built filter reads as corrupt");
  for (const std::string& key : keys) {
    if (!reader->MayMatch(key)) Fail("false negative for an added key");
  }
  if (keys.empty()) return;
  for (int i = 0; i < kRangesPerBuiltFilter && !in->AtEnd(); ++i) {
    const uint64_t anchor = codes[in->Byte() % codes.size()];
    const uint64_t offset = in->Fixed(2);
    const uint64_t lo = anchor - offset;  // wraps below 0: then lo > anchor
    const uint64_t length = in->Fixed(1 + in->Byte() % 4) + 1;
    const uint64_t hi = lo + (length - 1) < lo ? ~uint64_t{0} : lo + length - 1;
    const auto it = std::lower_bound(codes.begin(), codes.end(), lo);
    const bool holds = it != codes.end() && *it <= hi;
    if (!holds) continue;
    if (!keyed && !reader->CodeRangeMayMatch(lo, hi))
      Fail(absl::StrCat("false negative for codes ", lo, "..", hi));
    if (!reader->RangeMayMatch(KeyOfRangeCode(lo), KeyOfRangeCode(hi) + "\xff"))
      Fail("false negative for an inclusive key range");
    if (hi != ~uint64_t{0} && !reader->RangeMayMatchBefore(
                                  KeyOfRangeCode(lo), KeyOfRangeCode(hi + 1)))
      Fail("false negative for an exclusive key range");
  }
}

void CheckRangeFilter(const uint8_t* data, size_t size) {
  ByteReader in(data, size);
  if (in.Byte() % 2 == 0) {
    CheckAnyBytes(data + std::min<size_t>(size, 1),
                  size - std::min<size_t>(size, 1));
  } else {
    CheckBuilt(&in);
  }
}

std::vector<fuzz::Seed> Seeds() {
  std::vector<fuzz::Seed> seeds;
  for (bool checksum : {true, false}) {
    for (RangeKeyCoding codes :
         {RangeKeyCoding::kFirst8Bytes, RangeKeyCoding::kPerTable}) {
      FilterOptions options = FilterOptions::BitsPerKey(12);
      options.self_checksum = checksum;
      std::unique_ptr<FilterBuilder> builder =
          (*NewGrafiteFilterPolicy(options, codes))->NewBuilder();
      for (int i = 0; i < 40; ++i) {
        builder->AddKey(KeyOfRangeCode(1000 + 7 * i));
      }
      std::string filter;
      builder->Finish(&filter);
      seeds.push_back(
          {absl::StrCat("filter_40_keys_v", checksum ? 2 : 1,
                        codes == RangeKeyCoding::kPerTable ? "_keyed" : ""),
           std::string(1, '\0') + filter});
    }
  }
  // 60 keys of 8 to 11 bytes (a class per length) 33 codes apart from base,
  // then ranges around them.
  const auto built = [](uint8_t flags, uint64_t base) {
    std::string input = "\x01\x68";
    input.push_back(static_cast<char>(flags));
    PutFixed64(&input, base);
    input.push_back('\x3c');
    for (int i = 0; i < 60; ++i) {
      input += std::string("\x21\x00", 2);
      input.push_back(static_cast<char>(i % 4));
    }
    for (int i = 0; i < kRangesPerBuiltFilter; ++i) {
      input += std::string("\x05\x03\x00\x01\x10", 5);
    }
    return input;
  };
  constexpr uint64_t kNearTheTop = 0xfffffffffffff828ull;  // last: top - 27
  constexpr uint64_t kPastTheTop = 0xfffffffffffffc00ull;  // codes wrap to 0
  seeds.push_back({"built_60_keys_near_the_top", built(0, kNearTheTop)});
  seeds.push_back({"built_60_keys_near_the_top_keyed", built(2, kNearTheTop)});
  seeds.push_back({"built_60_keys_past_the_top_v1", built(1, kPastTheTop)});
  seeds.push_back(
      {"built_60_keys_past_the_top_v1_keyed", built(3, kPastTheTop)});
  seeds.push_back({"empty", ""});
  return seeds;
}

[[maybe_unused]] const bool kSeedsRegistered =
    (fuzz::RegisterSeedGenerator(&Seeds), true);

}  // namespace
}  // namespace sstfilter

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sstfilter::CheckRangeFilter(data, size);
  return 0;
}
