// The builder of version-1 range filters (kGrafiteName): codes of the keys
// added, then at Finish their hashes, sorted, in Elias-Fano coding.
//
// Internal to the range filter family.

#ifndef SSTFILTER_FILTER_RANGE_GRAFITE_BUILDER_H_
#define SSTFILTER_FILTER_RANGE_GRAFITE_BUILDER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "filter/filter_policy.h"
#include "filter/range/grafite_sizing.h"

namespace sstfilter {
namespace grafite_internal {

std::unique_ptr<FilterBuilder> NewGrafiteBuilder(const GrafiteSizing& sizing);

// Appends the filter of codes (any order, repeats allowed) to dst.
void AppendGrafiteFilter(const GrafiteSizing& sizing,
                         std::vector<uint64_t> codes, uint64_t seed,
                         std::string* dst);

// The same from num_codes distinct codes (at least one) already hashed into
// [0, universe), universe being UniverseFor(sizing, num_codes).
void AppendHashedGrafite(const GrafiteSizing& sizing, uint64_t universe,
                         uint64_t num_codes, std::vector<uint64_t> hashes,
                         uint64_t seed, std::string* dst);

}  // namespace grafite_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_RANGE_GRAFITE_BUILDER_H_
