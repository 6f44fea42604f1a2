// sstfilter's compact static filter: a bumped Ribbon filter (BuRR) for the
// last levels of an LSM tree, where most keys and so most filter memory sit.
// Its size is close to log2(1/fpp) bits per key, where any Bloom filter needs
// at least 1.44 times that; it costs more to build than a Bloom filter and
// takes no keys once built. filter/burr/README.md defines the format.
//
//   absl::StatusOr<std::unique_ptr<const sstfilter::FilterPolicy>> policy =
//       sstfilter::NewBurrFilterPolicy(
//           sstfilter::FilterOptions::Fpp(0.01));
//   if (!policy.ok()) return policy.status();

#ifndef SSTFILTER_FILTER_BURR_BURR_H_
#define SSTFILTER_FILTER_BURR_BURR_H_

#include <memory>

#include "absl/status/statusor.h"
#include "filter/filter_policy.h"

namespace sstfilter {

// Returns InvalidArgumentError, naming the value, for invalid options (see
// ValidateFilterOptions) and for an fpp below 2^-32.
//
// Building: the builder keeps 8 bytes per distinct key added until Finish,
// which needs at most 16 bytes per key plus one solver segment's buffers,
// kept by each building thread for its next filter (filter/burr/README.md,
// "Building"; the hybrid policy, filter/hybrid/hybrid.h, caps it). Keys may
// repeat. Name(): kCheckedBumpedRibbonName (format version 2, with the CRC32C
// of filter/format_version_2.md) unless FilterOptions::self_checksum is
// false, then kBumpedRibbonName (both in burr_format.h). Readers are immutable
// and thread-safe, and accept any bytes: too short to be a filter, they match
// nothing; of an unknown format or with an inconsistent trailer, they may
// match everything.
absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewBurrFilterPolicy(
    const FilterOptions& options);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BURR_BURR_H_
