#include "bench/impls.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "bench/leveldb_peer.h"
#include "bench/rocksdb_peer.h"
#include "bench/sstfilter_peer.h"
#include "filter/filter_spec.h"

namespace sstfilter {
namespace bench {
namespace {

template <RocksDbFilterKind kKind>
absl::StatusOr<std::unique_ptr<RocksDbPeer>> CreateRocksDb(
    const FilterOptions& o) {
  return RocksDbPeer::Create(kKind, o);
}

// A runner factory for a parsed sstfilter spec: its filters are the size the
// spec gives, or each case's (bits_per_key or fpp) when it gives none.
ImplEntry::Factory SpecFactory(PolicySpec parsed) {
  return MakeFactory<SstFilterPeer>(
      [parsed](const FilterOptions& options)
          -> absl::StatusOr<std::unique_ptr<SstFilterPeer>> {
        PolicySpec sized = parsed;
        if (!sized.options.bits_per_key.has_value() &&
            !sized.options.fpp.has_value()) {
          sized.options.bits_per_key = options.bits_per_key;
          sized.options.fpp = options.fpp;
        }
        if (!sized.options.self_checksum.has_value()) {
          sized.options.self_checksum = options.self_checksum;
        }
        absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
            NewFilterPolicyFromSpec(sized);
        if (!policy.ok()) return policy.status();
        return SstFilterPeer::ForPolicy(*std::move(policy));
      });
}

// The entry of one of sstfilter's families, by an unsized spec that the
// registry knows (a spec that does not parse is a defect here, not input).
ImplEntry FamilyEntry(const char* spec, const char* description,
                      bool in_default_run = true) {
  absl::StatusOr<PolicySpec> parsed =
      ParsePolicySpec(spec, SpecSize::kOptional);
  if (!parsed.ok()) {
    std::fprintf(stderr, "filter_bench: %s\n",
                 std::string(parsed.status().message()).c_str());
    std::abort();
  }
  return {spec, description, SpecFactory(*std::move(parsed)), in_default_run};
}

}  // namespace

const std::vector<ImplEntry>& Registry() {
  static const auto* registry = new std::vector<ImplEntry>{
      // sstfilter's families, by spec.
      FamilyEntry(
          "bloom",
          "sstfilter's native cache-local Bloom (NewBloomFilterPolicy)"),
      // Not in the default run: the portable reader is not what an x86-64
      // CPU with AVX2 runs, and it would lengthen every default run.
      FamilyEntry("bloom:path=portable",
                  "sstfilter's native Bloom through its portable reader (what "
                  "CPUs without AVX2 run: one probe at a time, stopping at the "
                  "first clear bit); only when named in --filter",
                  /*in_default_run=*/false),
      FamilyEntry("leveldb",
                  "sstfilter's LevelDB-compatible Bloom "
                  "(NewLevelDbFilterPolicy)"),
      FamilyEntry("burr",
                  "sstfilter's bumped Ribbon, a compact static filter "
                  "(NewBurrFilterPolicy)"),
      // Peers, each through its own library.
      {"lib:leveldb.bloom",
       "LevelDB 1.23 built-in Bloom (leveldb::NewBloomFilterPolicy)",
       MakeFactory<LevelDbPeer>(LevelDbPeer::Create)},
      {"lib:rocksdb.fastbloom",
       "RocksDB 7.8.3 FastLocalBloom (NewBloomFilterPolicy, format_version 5)",
       MakeFactory<RocksDbPeer>(
           CreateRocksDb<RocksDbFilterKind::kFastLocalBloom>)},
      {"lib:rocksdb.legacybloom",
       "RocksDB 7.8.3 legacy Bloom (NewBloomFilterPolicy, format_version 4)",
       MakeFactory<RocksDbPeer>(
           CreateRocksDb<RocksDbFilterKind::kLegacyBloom>)},
      {"lib:rocksdb.ribbon",
       "RocksDB 7.8.3 Standard128Ribbon (NewRibbonFilterPolicy)",
       MakeFactory<RocksDbPeer>(CreateRocksDb<RocksDbFilterKind::kRibbon>)},
  };
  return *registry;
}

const ImplEntry* FindImpl(absl::string_view name) {
  for (const ImplEntry& entry : Registry()) {
    if (name == entry.name) return &entry;
  }
  return nullptr;
}

absl::StatusOr<std::unique_ptr<const SpecImpl>> MakeSpecImpl(
    absl::string_view spec) {
  if (IsPeerName(spec)) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown peer \"", spec, "\" (--list prints the names)"));
  }
  absl::StatusOr<PolicySpec> parsed =
      ParsePolicySpec(spec, SpecSize::kOptional);
  if (!parsed.ok()) return parsed.status();
  const bool sized = parsed->options.bits_per_key.has_value() ||
                     parsed->options.fpp.has_value();
  auto impl = std::make_unique<SpecImpl>();
  impl->spec = std::string(spec);
  impl->description = absl::StrCat(
      "sstfilter policy ", spec,
      sized ? " (--filter; its own size)" : " (--filter; each case's size)");
  impl->entry.name = impl->spec.c_str();
  impl->entry.description = impl->description.c_str();
  impl->entry.make = SpecFactory(*std::move(parsed));
  return std::unique_ptr<const SpecImpl>(std::move(impl));
}

}  // namespace bench
}  // namespace sstfilter
