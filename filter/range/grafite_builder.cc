#include "filter/range/grafite_builder.h"

#include <algorithm>
#include <utility>

#include "filter/range/elias_fano.h"
#include "filter/range/grafite_format.h"
#include "filter/range/range_key.h"
#include "util/coding.h"

namespace sstfilter {
namespace grafite_internal {
namespace {

void SortUnique(std::vector<uint64_t>* values) {
  std::sort(values->begin(), values->end());
  values->erase(std::unique(values->begin(), values->end()), values->end());
}

void AppendTrailer(uint64_t universe, uint64_t num_values, uint64_t num_codes,
                   uint64_t seed, int low_bits, std::string* dst) {
  PutFixed64(dst, universe);
  PutFixed64(dst, num_values);
  PutFixed64(dst, num_codes);
  PutFixed64(dst, seed);
  dst->push_back(static_cast<char>(kFormatMarker));
  dst->push_back(static_cast<char>(low_bits));
}

class GrafiteBuilder final : public FilterBuilder {
 public:
  explicit GrafiteBuilder(const GrafiteSizing& sizing) : sizing_(sizing) {}

  void AddKey(absl::string_view key) override {
    codes_.push_back(RangeKeyCode(key));
  }
  size_t NumAdded() const override { return codes_.size(); }
  void Finish(std::string* dst) override {
    AppendGrafiteFilter(sizing_, std::move(codes_), kDefaultSeed, dst);
    codes_.clear();
  }

 private:
  const GrafiteSizing sizing_;
  std::vector<uint64_t> codes_;
};

}  // namespace

std::unique_ptr<FilterBuilder> NewGrafiteBuilder(const GrafiteSizing& sizing) {
  return std::make_unique<GrafiteBuilder>(sizing);
}

void AppendGrafiteFilter(const GrafiteSizing& sizing,
                         std::vector<uint64_t> codes, uint64_t seed,
                         std::string* dst) {
  SortUnique(&codes);
  const uint64_t num_codes = codes.size();
  if (num_codes == 0) {
    AppendTrailer(/*universe=*/0, 0, 0, seed, sizing.low_bits, dst);
    return;
  }
  const uint64_t universe = UniverseFor(sizing, num_codes);
  const LocalityHash hash(universe, seed);
  for (uint64_t& code : codes) code = hash.Hash(code);
  AppendHashedGrafite(sizing, universe, num_codes, std::move(codes), seed, dst);
}

void AppendHashedGrafite(const GrafiteSizing& sizing, uint64_t universe,
                         uint64_t num_codes, std::vector<uint64_t> hashes,
                         uint64_t seed, std::string* dst) {
  SortUnique(&hashes);
  if (hashes.size() > kMaxValues) {
    // Readers take this trailer as "may match": see kMaxValues.
    AppendTrailer(universe, hashes.size(), num_codes, seed, sizing.low_bits,
                  dst);
    return;
  }
  AppendEliasFano(hashes, universe, sizing.low_bits, dst);
  AppendTrailer(universe, hashes.size(), num_codes, seed, sizing.low_bits, dst);
}

}  // namespace grafite_internal
}  // namespace sstfilter
