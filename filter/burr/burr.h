// sstfilter's compact static filter: a bumped Ribbon filter (BuRR, Dillinger,
// Hübschle-Schneider, Sanders and Walzer 2021) for the last levels of an LSM
// tree, where most keys and so most filter memory sit. Its size is close to
// the information-theoretic floor, log2(1/fpp) bits per key, where any Bloom
// filter, the native one (bloom.h) included, needs at least 1.44 times that
// (filter/burr/README.md, "Sizing", gives the sizes). Queries read
// one block pair of one layer (a few percent of keys go on to a second,
// smaller layer); building costs more than a Bloom filter
// (docs/compact_filter_vs_ribbon.md) and a filter cannot take keys once built.
//
// Example:
//
//   absl::StatusOr<std::unique_ptr<const sstfilter::FilterPolicy>> policy =
//       sstfilter::NewBumpedRibbonFilterPolicy(
//           sstfilter::FilterOptions::Fpp(0.01));
//   if (!policy.ok()) return policy.status();
//   std::string filter;
//   (*policy)->CreateFilter(keys, &filter);
//   std::unique_ptr<sstfilter::FilterReader> reader =
//       (*policy)->NewReader(filter);
//   if (reader->MayMatch(key)) { /* read the data block */ }
//
// Sizing: with fpp = p, a key is checked against r fingerprint bits in some
// blocks and r + 1 in the others, r = floor(log2(1/p)), the share of each
// chosen so that the rate is exactly p (any p from just below 1 down to
// 2^-32; below that, InvalidArgumentError naming the value). With
// bits_per_key = c, the columns are c / 1.01 on average (at most 32).
//
// Building: the builder keeps 8 bytes per distinct key added (its hash) until
// Finish; Finish then needs, beyond that and the filter itself, 8 bytes per
// key bumped out of the first layer (a few percent of keys, so less than the
// filter's own size) and about 2.1 MB for one segment of the solver (at most
// 2.9 MB), which each building thread keeps for its next filter. The peak is
// 16 bytes per key from about 470,000 keys (filter/burr/README.md); a policy
// that must stay under a cap is the hybrid one (filter/hybrid/hybrid.h).
// Duplicate keys are accepted. A construction that leaves keys unplaced
// retries with the next seed, recorded in the filter.
//
// Format: filter/burr/README.md. Name(): kCheckedBumpedRibbonName (format
// version 2, with the CRC32C of filter/format_version_2.md) with
// FilterOptions::self_checksum unset (the default) or true;
// kBumpedRibbonName with self_checksum false. Both constants are in
// burr_format.h.
//
// Readers are immutable and thread-safe, and accept any bytes: too short to be
// a filter -> matches nothing; unknown format or inconsistent trailer -> may
// match everything.

#ifndef SSTFILTER_FILTER_BURR_BURR_H_
#define SSTFILTER_FILTER_BURR_BURR_H_

#include <memory>

#include "absl/status/statusor.h"
#include "filter/filter_policy.h"

namespace sstfilter {

// Returns InvalidArgumentError, naming the value, for invalid options (see
// ValidateFilterOptions) and for an fpp below 2^-32.
absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewBumpedRibbonFilterPolicy(
    const FilterOptions& options);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BURR_BURR_H_
