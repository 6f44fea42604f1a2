#include "tests/fuzz/fuzz_checks.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace sstfilter {
namespace fuzz {
namespace {

// Round-trip input format. Every byte string decodes (missing bytes read as
// zero), so the fuzzer never wastes an input on a parse error:
//   [1 byte: options selector, mod kNumSelectors, see Selector]
//   [0, 1, 2 or 8 bytes: the selector's option value]
//   [1 byte: synthetic key count, in units of kSyntheticKeysPerUnit, or of
//    half that under SyntheticKeys::kHalf]
//   [1 byte: synthetic key salt]
//   ([1 byte: key length L] [L bytes: key])*   explicit keys; the last may be
//   cut short
enum Selector : uint8_t {
  kBitsInteger = 0,  // 1 byte b: bits_per_key = b (0 and > 100 are invalid)
  kBitsQuarter = 1,  // 1 byte b: bits_per_key = b / 4 (below 1 is invalid)
  kFppLinear = 2,    // 2 bytes u: fpp = u / 65536 (0 is invalid)
  kFppLog = 3,       // 1 byte b: fpp = exp(-b / 8), from 1 (invalid) to 1.4e-14
  kBitsRaw = 4,  // 8 bytes: bits_per_key is any double, NaN and infinities too
  kFppRaw = 5,   // 8 bytes: fpp is any double
  kBothSet = 6,  // 2 bytes: bits_per_key and fpp both set (invalid)
  kNoneSet = 7,  // 0 bytes: neither set (invalid)
  kNumSelectors = 8,
};
// Keys per input: at most 510 synthetic (255 under kHalf) and 512 explicit
// ones. Each key costs about 1 us under the sanitizers (added, then asked three
// ways), so a round trip stays near 1 ms at worst and libFuzzer runs thousands
// a second. The bounds still reach what key counts change in a filter: native
// filters of many blocks (from 52 keys at 10 bits/key, 513 at 1 bit/key),
// batches past 64 keys, key counts that need a two-byte varint (128 and up).
// They stop short of the LevelDB-compatible builder's measure-and-grow pass,
// which starts at 2^16 bits (1,490 keys at 44 bits/key, the most an fpp gives)
// and samples up to 9 * 2^20 hashes per filter (about 0.1 s under the
// sanitizers): leveldb_bloom_test covers it.
constexpr size_t kSyntheticKeysPerUnit = 2;  // keys per unit of the count byte
constexpr size_t kMaxExplicitKeys = 512;

struct RoundTripInput {
  FilterOptions options;
  std::vector<std::string> explicit_keys;
  std::vector<std::string> synthetic_keys;
};

RoundTripInput DecodeRoundTripInput(const uint8_t* data, size_t size,
                                    SyntheticKeys synthetic) {
  ByteReader in(data, size);
  RoundTripInput input;
  switch (in.Byte() % kNumSelectors) {
    case kBitsInteger:
      input.options.bits_per_key = in.Byte();
      break;
    case kBitsQuarter:
      input.options.bits_per_key = in.Byte() / 4.0;
      break;
    case kFppLinear:
      input.options.fpp = static_cast<double>(in.Fixed(2)) / 65536.0;
      break;
    case kFppLog:
      input.options.fpp = std::exp(-in.Byte() / 8.0);
      break;
    case kBitsRaw:
      input.options.bits_per_key = in.RawDouble();
      break;
    case kFppRaw:
      input.options.fpp = in.RawDouble();
      break;
    case kBothSet:
      input.options.bits_per_key = in.Byte();
      input.options.fpp = in.Byte() / 256.0;
      break;
    default:  // kNoneSet
      break;
  }
  const size_t units = in.Byte();
  const size_t num_synthetic = synthetic == SyntheticKeys::kFull
                                   ? units * kSyntheticKeysPerUnit
                                   : units * kSyntheticKeysPerUnit / 2;
  const char salt = static_cast<char>(in.Byte());
  for (size_t i = 0; i < num_synthetic; ++i) {
    input.synthetic_keys.push_back(absl::StrCat(i) + salt);
  }
  while (!in.AtEnd() && input.explicit_keys.size() < kMaxExplicitKeys) {
    const size_t length = in.Byte();
    input.explicit_keys.emplace_back(in.Bytes(length));
  }
  return input;
}

// What a policy must do with some options.
enum class Validity {
  kInvalid,     // outside filter_policy.h's rules: InvalidArgumentError
  kMayRefuse,   // valid, but a format may be unable to reach it: a policy or
                // InvalidArgumentError
  kMustAccept,  // a policy
};

// Every format reaches this fpp within kMaxBitsPerKey (a standard Bloom filter
// needs about 29 bits/key for it); below it a format may refuse, as the native
// Bloom refuses an fpp it cannot reach at 100 bits/key and the
// LevelDB-compatible one an fpp that would need more than 30 probes.
constexpr double kLowestFppAllMustAccept = 1e-6;

// The validity rules of FilterOptions as filter_policy.h states them, written
// independently of ValidateFilterOptions so that the two check each other.
Validity OptionsValidity(const FilterOptions& options) {
  if (options.fpp.has_value() == options.bits_per_key.has_value()) {
    return Validity::kInvalid;
  }
  if (options.fpp.has_value()) {
    const double p = *options.fpp;
    if (!(p > 0.0 && p < 1.0)) return Validity::kInvalid;
    return p >= kLowestFppAllMustAccept ? Validity::kMustAccept
                                        : Validity::kMayRefuse;
  }
  const double bits = *options.bits_per_key;
  return bits >= kMinBitsPerKey && bits <= kMaxBitsPerKey
             ? Validity::kMustAccept
             : Validity::kInvalid;
}

std::string DescribeOptions(const FilterOptions& options) {
  std::string s = "{";
  if (options.bits_per_key.has_value())
    absl::StrAppend(&s, "bits_per_key=", *options.bits_per_key);
  if (options.fpp.has_value())
    absl::StrAppend(&s, s.size() > 1 ? " " : "", "fpp=", *options.fpp);
  return s + "}";
}

// Owns a heap copy of exactly the filter's bytes, so that AddressSanitizer
// reports any read past either end (a std::string would hide one byte past the
// end behind its NUL).
class ExactBuffer {
 public:
  explicit ExactBuffer(absl::string_view bytes)
      : size_(bytes.size()), data_(new char[bytes.size()]) {
    if (size_ > 0) std::memcpy(data_.get(), bytes.data(), size_);
  }
  absl::string_view view() const {
    return absl::string_view(data_.get(), size_);
  }

 private:
  const size_t size_;
  const std::unique_ptr<char[]> data_;
};

absl::Status CheckFpp(double fpp, absl::string_view what) {
  if (!(fpp >= 0.0 && fpp <= 1.0)) {
    return absl::InternalError(
        absl::StrCat(what, ": ExpectedFpp() = ", fpp, " is outside [0, 1]"));
  }
  return absl::OkStatus();
}

// KeyMayMatch parses the filter on every call: for a 1,022-key input, checking
// every key through it spent a quarter of a round trip parsing the same bytes
// again (a fifth of the Ribbon round trip at 128 keys and every 8th). It
// answers every key up to this many, and every kKeyMayMatchStride-th key after
// them; the reader's single and batched paths answer every key, and the reader
// fuzzers compare KeyMayMatch with them on every input.
constexpr size_t kKeyMayMatchEveryKey = 32;
constexpr size_t kKeyMayMatchStride = 32;

// Whether CheckAllMatch also checks the reader's ExpectedFpp(). For the formats
// that sample their rate (LevelDB's, RocksDB's legacy Bloom) it costs 2^16
// probes, more than half of a round trip under the sanitizers even when asked
// of one filter, which kept the LevelDB round trip near 1,000 inputs/s. A round
// trip asks it of its first filter, for inputs of even size: every kind of
// filter the builders write still has its rate checked, at half the cost (the
// reader fuzzers check it too: see FppInputs).
enum class FppCheck { kCheck, kSkip };

// Checks that every key in keys matches filter, through each of the three query
// paths (KeyMayMatch on the keys above).
absl::Status CheckAllMatch(const FilterPolicy& policy, absl::string_view filter,
                           const std::vector<absl::string_view>& keys,
                           absl::string_view what, FppCheck fpp_check) {
  const ExactBuffer buffer(filter);
  const std::unique_ptr<FilterReader> reader = policy.NewReader(buffer.view());
  if (fpp_check == FppCheck::kCheck) {
    if (absl::Status s = CheckFpp(reader->ExpectedFpp(), what); !s.ok()) {
      return s;
    }
  }
  const std::unique_ptr<bool[]> batched(new bool[keys.size()]);
  reader->MayMatch(keys, batched.get());
  for (size_t i = 0; i < keys.size(); ++i) {
    const char* path = nullptr;
    if (!reader->MayMatch(keys[i])) {
      path = "MayMatch";
    } else if (!batched[i]) {
      path = "batched MayMatch";
    } else if ((i < kKeyMayMatchEveryKey || i % kKeyMayMatchStride == 0) &&
               !policy.KeyMayMatch(keys[i], buffer.view())) {
      path = "KeyMayMatch";
    }
    if (path != nullptr) {
      return absl::InternalError(absl::StrCat(
          what, ": false negative from ", path, " for added key \"",
          absl::CHexEscape(keys[i]), "\" (", i, " of ", keys.size(),
          " keys, filter of ", filter.size(), " bytes, ", policy.Name(), ")"));
    }
  }
  return absl::OkStatus();
}

// Encodes a round-trip seed; see the format above.
std::string RoundTripBytes(Selector selector, absl::string_view option_bytes,
                           uint8_t synthetic_units, uint8_t salt,
                           const std::vector<std::string>& keys) {
  std::string s(1, static_cast<char>(selector));
  s.append(option_bytes.data(), option_bytes.size());
  s.push_back(static_cast<char>(synthetic_units));
  s.push_back(static_cast<char>(salt));
  for (const std::string& key : keys) {
    s.push_back(static_cast<char>(key.size()));
    s += key;
  }
  return s;
}

// The host's byte order, as ByteReader::RawDouble reads it: seeds are written
// and read on little-endian hosts.
std::string DoubleBytes(double d) {
  std::string s(sizeof(d), '\0');
  std::memcpy(&s[0], &d, sizeof(d));
  return s;
}

SeedGenerator registered_generator = nullptr;

}  // namespace

std::vector<std::string> ReaderQueryKeys(absl::string_view filter) {
  std::vector<std::string> keys = {
      "", "hello", "world", "a", std::string(1, '\0'), std::string(200, 'x')};
  const size_t size = filter.size();
  for (size_t offset : {size_t{0}, size / 3, size / 2}) {
    for (size_t length : {1, 4, 8, 16}) {
      if (offset + length <= size)
        keys.push_back(std::string(filter.substr(offset, length)));
    }
  }
  for (int i = 0; i < 32; ++i) keys.push_back(absl::StrCat(i));
  return keys;
}

FilterOptions ReaderFuzzOptions() { return FilterOptions::BitsPerKey(10); }

absl::Status CheckReaderIsTotal(const FilterFormat& format, const uint8_t* data,
                                size_t size, FppInputs fpp_inputs) {
  const ExactBuffer buffer(
      absl::string_view(reinterpret_cast<const char*>(data), size));
  const absl::string_view filter = buffer.view();
  const std::unique_ptr<FilterReader> reader = format.NewReader(filter);
  const std::vector<std::string> owned = ReaderQueryKeys(filter);
  const std::vector<absl::string_view> keys(owned.begin(), owned.end());

  std::optional<double> fpp;
  if (fpp_inputs == FppInputs::kEvery || size % kFppCheckEvery == 0) {
    fpp = reader->ExpectedFpp();
    if (absl::Status s = CheckFpp(*fpp, "reader"); !s.ok()) return s;
  }
  // The description parses the same bytes: total too.
  const FilterFacts facts = format.Describe(filter);
  if (facts.num_keys.has_value() && !(*facts.num_keys >= 0)) {
    return absl::InternalError(
        absl::StrCat("Describe: num_keys ", *facts.num_keys));
  }
  const std::unique_ptr<bool[]> batched(new bool[keys.size()]);
  reader->MayMatch(keys, batched.get());
  for (size_t i = 0; i < keys.size(); ++i) {
    const bool single = reader->MayMatch(keys[i]);
    const bool once = format.KeyMayMatch(keys[i], filter);
    if (single != batched[i] || single != once) {
      return absl::InternalError(
          absl::StrCat("reader: answers disagree for key \"",
                       absl::CHexEscape(keys[i]), "\": MayMatch ", single,
                       ", batched ", batched[i], ", KeyMayMatch ", once));
    }
    if (single && fpp == 0.0) {  // an unasked fpp (nullopt) is not 0
      return absl::InternalError(
          absl::StrCat("reader: ExpectedFpp() is 0 but key \"",
                       absl::CHexEscape(keys[i]), "\" matches"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckPathsAgree(const std::vector<const FilterFormat*>& paths,
                             const uint8_t* data, size_t size) {
  if (paths.empty()) return absl::InternalError("no probe path to check");
  const FilterFormat& chosen = *paths[size % paths.size()];
  if (absl::Status s = CheckReaderIsTotal(chosen, data, size); !s.ok()) {
    return s;
  }
  if (paths.size() == 1) return absl::OkStatus();
  const ExactBuffer buffer(
      absl::string_view(reinterpret_cast<const char*>(data), size));
  const absl::string_view filter = buffer.view();
  const std::vector<std::string> owned = ReaderQueryKeys(filter);
  const std::vector<absl::string_view> keys(owned.begin(), owned.end());
  const std::unique_ptr<FilterReader> reference = chosen.NewReader(filter);
  const std::unique_ptr<bool[]> batched(new bool[keys.size()]);
  for (size_t p = 0; p < paths.size(); ++p) {
    if (paths[p] == &chosen) continue;
    const std::unique_ptr<FilterReader> reader = paths[p]->NewReader(filter);
    reader->MayMatch(keys, batched.get());
    for (size_t i = 0; i < keys.size(); ++i) {
      const bool want = reference->MayMatch(keys[i]);
      const bool single = reader->MayMatch(keys[i]);
      if (single != want || batched[i] != want) {
        return absl::InternalError(absl::StrCat(
            "probe paths disagree for key \"", absl::CHexEscape(keys[i]),
            "\": path ", size % paths.size(), " says ", want, ", path ", p,
            " says ", single, " (batched ", batched[i], ")"));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status CheckRoundTrip(const PolicyFactory& factory, const uint8_t* data,
                            size_t size, SyntheticKeys synthetic) {
  const RoundTripInput input = DecodeRoundTripInput(data, size, synthetic);
  const std::string options = DescribeOptions(input.options);
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      factory(input.options);
  const Validity validity = OptionsValidity(input.options);
  if (!policy.ok()) {
    if (validity == Validity::kMustAccept) {
      return absl::InternalError(
          absl::StrCat("valid options ", options,
                       " were refused: ", policy.status().ToString()));
    }
    if (!absl::IsInvalidArgument(policy.status()) ||
        policy.status().message().empty()) {
      return absl::InternalError(absl::StrCat(
          "options ", options, " gave ", policy.status().ToString(),
          ", want InvalidArgumentError with a message"));
    }
    return absl::OkStatus();
  }
  if (validity == Validity::kInvalid) {
    return absl::InternalError(
        absl::StrCat("invalid options ", options, " were accepted"));
  }
  const FilterPolicy& p = **policy;
  if (!(p.BitsPerKey() > 0.0 && std::isfinite(p.BitsPerKey()))) {
    return absl::InternalError(absl::StrCat(
        "options ", options, " gave BitsPerKey() ", p.BitsPerKey()));
  }

  // Two filters from one builder, appended to one string after a prefix: all
  // keys, then the explicit keys alone (checks that Finish resets the builder
  // and only appends).
  std::vector<absl::string_view> all(input.explicit_keys.begin(),
                                     input.explicit_keys.end());
  all.insert(all.end(), input.synthetic_keys.begin(),
             input.synthetic_keys.end());
  const std::vector<absl::string_view> explicit_only(
      input.explicit_keys.begin(), input.explicit_keys.end());
  const std::string kPrefix = "prefix";
  std::string dst = kPrefix;
  const std::unique_ptr<FilterBuilder> builder = p.NewBuilder();
  size_t ends[2];
  int round = 0;
  const std::vector<absl::string_view>* const rounds[] = {&all, &explicit_only};
  for (const std::vector<absl::string_view>* keys : rounds) {
    for (absl::string_view key : *keys) builder->AddKey(key);
    if (builder->NumAdded() != keys->size()) {
      return absl::InternalError(
          absl::StrCat("NumAdded() = ", builder->NumAdded(), " after ",
                       keys->size(), " keys"));
    }
    builder->Finish(&dst);
    if (builder->NumAdded() != 0) {
      return absl::InternalError(
          absl::StrCat("NumAdded() = ", builder->NumAdded(), " after Finish"));
    }
    ends[round++] = dst.size();
  }
  if (absl::string_view(dst).substr(0, kPrefix.size()) != kPrefix) {
    return absl::InternalError("Finish overwrote the bytes already in *dst");
  }
  const absl::string_view first =
      absl::string_view(dst).substr(kPrefix.size(), ends[0] - kPrefix.size());
  const absl::string_view second =
      absl::string_view(dst).substr(ends[0], ends[1] - ends[0]);
  const std::string what = absl::StrCat("options ", options);
  const FppCheck first_fpp_check =
      size % 2 == 0 ? FppCheck::kCheck : FppCheck::kSkip;
  if (absl::Status s = CheckAllMatch(p, first, all, what + ", first filter",
                                     first_fpp_check);
      !s.ok()) {
    return s;
  }
  return CheckAllMatch(p, second, explicit_only, what + ", second filter",
                       FppCheck::kSkip);
}

std::vector<Seed> ReaderSeeds(const PolicyFactory& factory) {
  std::vector<Seed> seeds = {
      {"empty", ""},
      {"one_byte", std::string(1, '\x06')},
      {"two_bytes_k1", std::string("\xff\x01", 2)},
      {"ones_k6", std::string(8, '\xff') + '\x06'},
      {"zeros_k30", std::string(8, '\0') + '\x1e'},
  };
  auto build = [&](const FilterOptions& options,
                   const std::vector<std::string>& keys) {
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
        factory(options);
    AbortIfError(policy.status(), "making a seed policy");
    std::string filter;
    (*policy)->CreateFilter(
        std::vector<absl::string_view>(keys.begin(), keys.end()), &filter);
    return filter;
  };
  std::vector<std::string> hundred;
  for (int i = 0; i < 100; ++i) hundred.push_back(absl::StrCat(i));
  std::vector<std::string> thousand;
  for (int i = 0; i < 1000; ++i) thousand.push_back(absl::StrCat("key", i));

  // {"hello", "world"} at 10 bits/key: the golden filter of the
  // LevelDB-compatible policy.
  const std::string hello_world =
      build(FilterOptions::BitsPerKey(10), {"hello", "world"});
  seeds.push_back({"hello_world_bits10", hello_world});
  seeds.push_back({"hello_world_fpp0.01",
                   build(FilterOptions::Fpp(0.01), {"hello", "world"})});
  seeds.push_back({"no_keys_bits10", build(FilterOptions::BitsPerKey(10), {})});
  seeds.push_back(
      {"keys100_bits10", build(FilterOptions::BitsPerKey(10), hundred)});
  seeds.push_back(
      {"keys1000_bits4", build(FilterOptions::BitsPerKey(4), thousand)});
  seeds.push_back(
      {"keys100_fpp1e-6", build(FilterOptions::Fpp(1e-6), hundred)});
  seeds.push_back({"hello_world_cut_first_byte", hello_world.substr(1)});
  seeds.push_back({"hello_world_cut_last_byte",
                   hello_world.substr(0, hello_world.size() - 1)});
  // The golden filter with its last byte (the probe count, for LevelDB's
  // format) replaced: 0 and the reserved values above 30 must all give a safe
  // answer.
  for (uint8_t k : {0x00, 0x1e, 0x1f, 0x80, 0xff}) {
    std::string bad = hello_world;
    if (!bad.empty()) bad.back() = static_cast<char>(k);
    seeds.push_back(
        {absl::StrCat("hello_world_last_byte_", absl::Hex(k, absl::kZeroPad2)),
         bad});
  }
  return seeds;
}

std::vector<Seed> RoundTripSeeds() {
  const std::vector<std::string> hello_world = {"hello", "world"};
  const std::string b = "";  // no option bytes
  auto byte = [](int v) { return std::string(1, static_cast<char>(v)); };
  std::vector<std::string> numbered;
  for (size_t i = 0; i < kMaxExplicitKeys; ++i) {
    numbered.push_back(absl::StrCat("e", i));
  }
  return {
      {"bits10_hello_world",
       RoundTripBytes(kBitsInteger, byte(10), 0, 0, hello_world)},
      {"bits10_no_keys", RoundTripBytes(kBitsInteger, byte(10), 0, 0, {})},
      {"bits10_empty_key", RoundTripBytes(kBitsInteger, byte(10), 0, 0, {""})},
      {"bits10_duplicates",
       RoundTripBytes(kBitsInteger, byte(10), 0, 0, {"a", "a", "a", "b"})},
      {"bits10_long_key",
       RoundTripBytes(kBitsInteger, byte(10), 0, 0, {std::string(255, 'k')})},
      {"bits10_510_keys", RoundTripBytes(kBitsInteger, byte(10), 255, 7, {})},
      {"bits1_256_keys",
       RoundTripBytes(kBitsInteger, byte(1), 127, 1, hello_world)},
      {"bits1_1022_keys",  // the most keys an input holds: two blocks
       RoundTripBytes(kBitsInteger, byte(1), 255, 4, numbered)},
      {"bits100_hello_world",
       RoundTripBytes(kBitsInteger, byte(100), 0, 0, hello_world)},
      {"bits2.5_64_keys",
       RoundTripBytes(kBitsQuarter, byte(10), 31, 2, hello_world)},
      {"fpp0.5_hello_world",
       RoundTripBytes(kFppLinear, std::string("\x00\x80", 2), 0, 0,
                      hello_world)},
      {"fpp0.0098_160_keys",
       RoundTripBytes(kFppLog, byte(37), 79, 3, hello_world)},
      {"fpp1.07e-6_hello_world",  // just above kLowestFppAllMustAccept
       RoundTripBytes(kFppLog, byte(110), 0, 0, hello_world)},
      {"fpp1.4e-14_hello_world",
       RoundTripBytes(kFppLog, byte(255), 0, 0, hello_world)},
      {"fpp0.001_raw",
       RoundTripBytes(kFppRaw, DoubleBytes(0.001), 1, 0, hello_world)},
      {"bits7.3_raw",
       RoundTripBytes(kBitsRaw, DoubleBytes(7.3), 1, 0, hello_world)},
      {"invalid_bits0",
       RoundTripBytes(kBitsInteger, byte(0), 0, 0, hello_world)},
      {"invalid_bits101",
       RoundTripBytes(kBitsInteger, byte(101), 0, 0, hello_world)},
      {"invalid_bits0.75",
       RoundTripBytes(kBitsQuarter, byte(3), 0, 0, hello_world)},
      {"invalid_bits_nan",
       RoundTripBytes(kBitsRaw,
                      DoubleBytes(std::numeric_limits<double>::quiet_NaN()), 0,
                      0, hello_world)},
      {"invalid_bits_inf",
       RoundTripBytes(kBitsRaw,
                      DoubleBytes(std::numeric_limits<double>::infinity()), 0,
                      0, hello_world)},
      {"invalid_bits_negative",
       RoundTripBytes(kBitsRaw, DoubleBytes(-10), 0, 0, hello_world)},
      {"invalid_fpp0",
       RoundTripBytes(kFppLinear, std::string(2, '\0'), 0, 0, hello_world)},
      {"invalid_fpp1", RoundTripBytes(kFppLog, byte(0), 0, 0, hello_world)},
      {"invalid_fpp_nan",
       RoundTripBytes(kFppRaw,
                      DoubleBytes(std::numeric_limits<double>::quiet_NaN()), 0,
                      0, hello_world)},
      {"invalid_fpp_negative",
       RoundTripBytes(kFppRaw, DoubleBytes(-0.5), 0, 0, hello_world)},
      {"invalid_both_set",
       RoundTripBytes(kBothSet, byte(10) + byte(3), 0, 0, hello_world)},
      {"invalid_none_set", RoundTripBytes(kNoneSet, b, 0, 0, hello_world)},
  };
}

void RegisterSeedGenerator(SeedGenerator generator) {
  registered_generator = generator;
}

SeedGenerator RegisteredSeedGenerator() { return registered_generator; }

void AbortIfError(const absl::Status& status, const char* what) {
  if (status.ok()) return;
  std::fprintf(stderr, "%s failed: %s\n", what, status.ToString().c_str());
  std::fflush(stderr);
  std::abort();
}

std::unique_ptr<const FilterPolicy> ReaderFuzzPolicy(
    const PolicyFactory& factory) {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      factory(ReaderFuzzOptions());
  AbortIfError(policy.status(), "making the reader fuzzer's policy");
  return *std::move(policy);
}

}  // namespace fuzz
}  // namespace sstfilter
