// One format name for a tree whose levels hold different families: a hybrid
// filter is the native filter's bytes (filter/bloom/) or the compact filter's
// (filter/burr/), chosen per policy, stored under one name and read by one
// format that dispatches on the filter's marker byte. filter/hybrid/README.md
// defines the format and its bounded build memory.
//
//   sstfilter::HybridOptions hybrid;
//   hybrid.max_build_bytes = 64 << 20;  // above it, the native filter
//   auto policy = sstfilter::NewHybridFilterPolicy(
//       sstfilter::FilterOptions::Fpp(0.01), hybrid);

#ifndef SSTFILTER_FILTER_HYBRID_HYBRID_H_
#define SSTFILTER_FILTER_HYBRID_HYBRID_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "filter/filter_family.h"
#include "filter/filter_policy.h"
#include "filter/policy_spec.h"

namespace sstfilter {

// The family's name in a spec ("hybrid:fpp=0.01:max_build_bytes=67108864",
// filter/filter_spec.h) and the param that sets
// HybridBuildOptions::max_build_bytes.
constexpr char kHybridFamilyName[] = "hybrid";
constexpr char kMaxBuildBytesParam[] = "max_build_bytes";

// Persisted beside each filter; changes iff a filter's bytes would change
// meaning (a family's marker or layout).
constexpr char kHybridFormatName[] = "sstfilter.Hybrid1";
// Format version 2, what the policies write unless FilterOptions::self_checksum
// is false: a version-1 filter with a CRC32C of its bytes
// (filter/format_version_2.md).
constexpr char kCheckedHybridFormatName[] = "sstfilter.Hybrid2";

// Filters finished by the builders (NewBuilder) of the policies that share
// it, by family; sizing builds (NewSizingBuilder) are not counted. Thread-safe:
// read by the host at any time.
struct HybridCounters {
  std::atomic<uint64_t> compact_builds{0};
  std::atomic<uint64_t> native_builds{0};
  // Compact asked, native built because of the memory cap (also counted in
  // native_builds).
  std::atomic<uint64_t> fallbacks{0};
};

// How a hybrid policy's builds are bounded and counted; also what a tree
// policy that chooses the family per level passes to each level's policy.
struct HybridBuildOptions {
  // Bytes a compact filter's build may hold at its peak (hashes + solver
  // buffers); 0 = no cap. When a table's build would exceed it, the builder
  // builds the native filter at the same rate instead, from the same hashes
  // (no key is hashed or kept twice).
  size_t max_build_bytes = 0;
  std::shared_ptr<HybridCounters> counters;  // may be null
};

struct HybridOptions : HybridBuildOptions {
  // kNative or kCompact; kNone is an InvalidArgumentError.
  FilterFamily family = FilterFamily::kCompact;
};

// A policy whose filters are the native filter's or the compact filter's
// bytes, under one name, kHybridFormatName, read by one format that
// dispatches on the filter's marker byte (native 0xB1, compact 0xB7 at
// size-2; any other bytes: "may match"). Sizing is the family's own from
// options; the native fallback of a compact policy is sized for the compact
// filter's rate (with FilterOptions::BitsPerKey(c), the rate c bits/key give
// the compact filter: more bits in the native filter). Returns
// InvalidArgumentError, naming the value, for options the family rejects.
//
// Name(): kCheckedHybridFormatName (format version 2) unless
// FilterOptions::self_checksum is false, then kHybridFormatName. Thread
// safety: policies and readers are immutable and thread-safe; a builder is
// used by one thread at a time.
absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewHybridFilterPolicy(
    const FilterOptions& options, const HybridOptions& hybrid = {});

// HybridBuildOptions::max_build_bytes as a parsed spec gives it: 0 (no cap)
// without kMaxBuildBytesParam, InvalidArgumentError naming the value when it
// is not an unsigned integer. Shared by the family's factory and the tree
// policy built from "hybrid:levels=tree" (engines/rocksdb).
absl::StatusOr<size_t> MaxBuildBytesOfSpec(const PolicySpec& spec);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_HYBRID_HYBRID_H_
