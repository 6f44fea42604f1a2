// Checks shared by sstfilter's fuzz targets, and the macros that turn a policy
// factory into a fuzz target with one line. Each check takes the fuzz input
// as raw bytes and returns quietly or reports a violated contract of
// filter/filter_policy.h; the macros' entry points abort on a violation in
// every build mode, and ordinary tests call the checks directly. Adding a
// target: README.md.
//
//   // tests/fuzz/bloom_reader_fuzzer.cc
//   SSTFILTER_READER_FUZZER(sstfilter::NewBloomFilterPolicy)

#ifndef SSTFILTER_TESTS_FUZZ_FUZZ_CHECKS_H_
#define SSTFILTER_TESTS_FUZZ_FUZZ_CHECKS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "filter/filter_format.h"
#include "filter/filter_policy.h"

namespace sstfilter {
namespace fuzz {

// A policy factory with the signature of NewLevelDbFilterPolicy.
using PolicyFactory =
    std::function<absl::StatusOr<std::unique_ptr<const FilterPolicy>>(
        const FilterOptions&)>;

// One seed input: a file name for the corpus directory and its bytes.
struct Seed {
  std::string name;
  std::string bytes;
};

// Reads a fuzz input front to back; past the end every byte is zero, so every
// byte string decodes and no input is wasted on a parse error.
class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }

  uint64_t Fixed(int num_bytes) {
    uint64_t v = 0;
    for (int i = 0; i < num_bytes; ++i)
      v |= static_cast<uint64_t>(Byte()) << (8 * i);
    return v;
  }

  double RawDouble() {
    const uint64_t bits = Fixed(8);
    double d;
    std::memcpy(&d, &bits, sizeof(d));
    return d;
  }

  bool AtEnd() const { return pos_ >= size_; }

  absl::string_view Bytes(size_t n) {
    n = std::min(n, size_ - pos_);
    absl::string_view s(reinterpret_cast<const char*>(data_ + pos_), n);
    pos_ += n;
    return s;
  }

 private:
  const uint8_t* const data_;
  const size_t size_;
  size_t pos_ = 0;
};

// The options the reader fuzzer's policy is made with. Readers of the policies
// so far take everything they need from the filter bytes; the options matter
// only to builders.
FilterOptions ReaderFuzzOptions();

// The keys a reader check asks of a filter: fixed ones, pieces of the filter
// itself (so the fuzzer can steer queries at the bits it sets) and a few
// synthetic ones.
std::vector<std::string> ReaderQueryKeys(absl::string_view filter);

// Which inputs CheckReaderIsTotal asks ExpectedFpp() of: every input, or one
// in kFppCheckEvery (those whose size is a multiple of it, so that mutations
// bring every filter shape to the check). The second is for formats that
// measure their rate over kFppSampleHashes hashes (SampledFpp,
// util/bloom_math.h: LevelDB's Bloom), where the measurement is nine tenths
// of an input's time under ASan; their answers are still checked on every
// input.
enum class FppInputs { kEvery, kSampled };
constexpr size_t kFppCheckEvery = 4;

// Treats data as a filter and queries it: fixed keys, keys cut from the input,
// one at a time, batched and through FilterFormat::KeyMayMatch, and describes
// it (FilterFormat::Describe). Returns an error when the answers disagree with
// each other, ExpectedFpp() is outside [0, 1] (or is 0 while some key
// matches) or the description counts fewer than 0 keys. A crash or
// out-of-bounds read is left for the sanitizers to report: the filter is copied
// into a heap buffer of exactly its size first.
absl::Status CheckReaderIsTotal(const FilterFormat& format, const uint8_t* data,
                                size_t size,
                                FppInputs fpp_inputs = FppInputs::kEvery);

// One format's readers pinned to each probe path this build and CPU can run
// (scalar, AVX2, AVX-512), for the input's filter bytes.
using PathFormats = std::vector<const FilterFormat*> (*)(absl::string_view);

// CheckReaderIsTotal with the path the input's length picks (so the fuzzer
// reaches every path), then checks that every other path answers each key as
// that one does, single and batched. Returns an error naming the key and the
// paths when they disagree.
absl::Status CheckPathsAgree(const std::vector<const FilterFormat*>& paths,
                             const uint8_t* data, size_t size);

// Decodes options and a key set from data (format in fuzz_checks.cc), asks
// factory for a policy, builds two filters with one builder and checks the
// contract:
//  - invalid options give InvalidArgumentError, valid ones a policy (except
//    that an fpp below 1e-6 may be refused with InvalidArgumentError by a
//    format that cannot reach it);
//  - NumAdded() counts the AddKey calls; Finish appends and leaves the
//    builder empty;
//  - every added key matches (single, batched and KeyMayMatch): no false
//    negatives;
//  - ExpectedFpp() is in [0, 1].
// An input holds at most 1,022 keys (see fuzz_checks.cc), so that each round
// trip stays cheap; SyntheticKeys::kHalf halves the synthetic keys an input's
// count byte makes (at most 767 keys), for a builder whose solve costs more a
// key. Returns an error describing the first violation (a false negative names
// the key).
enum class SyntheticKeys { kFull, kHalf };
absl::Status CheckRoundTrip(const PolicyFactory& factory, const uint8_t* data,
                            size_t size,
                            SyntheticKeys synthetic = SyntheticKeys::kFull);

// Seed inputs for the two kinds of target. Reader seeds include real filters
// made by factory's builder, so they depend on the policy; round-trip seeds are
// encoded options and key sets, the same for every policy.
std::vector<Seed> ReaderSeeds(const PolicyFactory& factory);
std::vector<Seed> RoundTripSeeds();

// The seeds of the fuzz target linked into this binary, for the replay main's
// --write_corpus. Set by the macros below at static initialization.
using SeedGenerator = std::vector<Seed> (*)();
void RegisterSeedGenerator(SeedGenerator generator);
SeedGenerator RegisteredSeedGenerator();

// Aborts with the status printed when it is not OK. Used by the fuzz entry
// points.
void AbortIfError(const absl::Status& status, const char* what);

// Returns the policy factory makes from ReaderFuzzOptions(); aborts if that
// fails.
std::unique_ptr<const FilterPolicy> ReaderFuzzPolicy(
    const PolicyFactory& factory);

}  // namespace fuzz
}  // namespace sstfilter

// Defines the libFuzzer entry point of a reader fuzzer for the policies made by
// factory (the input is a filter), and registers its seeds. Use once per fuzz
// target.
#define SSTFILTER_READER_FUZZER(factory) \
  SSTFILTER_READER_FUZZER_WITH(factory, ::sstfilter::fuzz::FppInputs::kEvery)

// SSTFILTER_READER_FUZZER asking ExpectedFpp() of the inputs fpp_inputs names.
#define SSTFILTER_READER_FUZZER_WITH(factory, fpp_inputs)                    \
  namespace {                                                                \
  std::vector<::sstfilter::fuzz::Seed> SstfilterFuzzSeeds() {                \
    return ::sstfilter::fuzz::ReaderSeeds(factory);                          \
  }                                                                          \
  [[maybe_unused]] const bool kSstfilterSeedsRegistered =                    \
      (::sstfilter::fuzz::RegisterSeedGenerator(&SstfilterFuzzSeeds), true); \
  }                                                                          \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {  \
    static const ::sstfilter::FilterPolicy* const policy =                   \
        ::sstfilter::fuzz::ReaderFuzzPolicy(factory).release();              \
    ::sstfilter::fuzz::AbortIfError(                                         \
        ::sstfilter::fuzz::CheckReaderIsTotal(policy->Format(), data, size,  \
                                              fpp_inputs),                   \
        "reader check");                                                     \
    return 0;                                                                \
  }

// A reader fuzzer as above whose readers are those paths(filter) returns
// (see PathFormats and CheckPathsAgree).
#define SSTFILTER_PATHS_READER_FUZZER(factory, paths)                          \
  namespace {                                                                  \
  std::vector<::sstfilter::fuzz::Seed> SstfilterFuzzSeeds() {                  \
    return ::sstfilter::fuzz::ReaderSeeds(factory);                            \
  }                                                                            \
  [[maybe_unused]] const bool kSstfilterSeedsRegistered =                      \
      (::sstfilter::fuzz::RegisterSeedGenerator(&SstfilterFuzzSeeds), true);   \
  }                                                                            \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {    \
    const ::sstfilter::fuzz::PathFormats path_formats = (paths);               \
    ::sstfilter::fuzz::AbortIfError(                                           \
        ::sstfilter::fuzz::CheckPathsAgree(                                    \
            path_formats(                                                      \
                absl::string_view(reinterpret_cast<const char*>(data), size)), \
            data, size),                                                       \
        "probe path check");                                                   \
    return 0;                                                                  \
  }

// Defines the libFuzzer entry point of a builder/reader round-trip fuzzer for
// factory (the input encodes options and keys), and registers its seeds.
#define SSTFILTER_ROUNDTRIP_FUZZER(factory) \
  SSTFILTER_ROUNDTRIP_FUZZER_WITH(factory,  \
                                  ::sstfilter::fuzz::SyntheticKeys::kFull)

// The same, with the synthetic keys of CheckRoundTrip's `synthetic`.
#define SSTFILTER_ROUNDTRIP_FUZZER_WITH(factory, synthetic)                  \
  namespace {                                                                \
  [[maybe_unused]] const bool kSstfilterSeedsRegistered =                    \
      (::sstfilter::fuzz::RegisterSeedGenerator(                             \
           &::sstfilter::fuzz::RoundTripSeeds),                              \
       true);                                                                \
  }                                                                          \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {  \
    ::sstfilter::fuzz::AbortIfError(                                         \
        ::sstfilter::fuzz::CheckRoundTrip(factory, data, size, (synthetic)), \
        "round-trip check");                                                 \
    return 0;                                                                \
  }

#endif  // SSTFILTER_TESTS_FUZZ_FUZZ_CHECKS_H_
