// The registry of implementations filter_bench knows: name -> factory. Adding
// an implementation is one line in impls.cc.

#ifndef SSTFILTER_BENCH_IMPLS_H_
#define SSTFILTER_BENCH_IMPLS_H_

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "bench/drop_one_key_peer.h"
#include "bench/measure.h"
#include "filter/filter_policy.h"
#include "filter/spec_list.h"

namespace sstfilter {
namespace bench {

// The implementation ratios are taken against.
constexpr char kBaselineImpl[] = "lib:rocksdb.fastbloom";

struct ImplEntry {
  // Creates a runner for the given size; drop_one_key wraps the adapter so that
  // one added key reads "no" (the harness's self-test).
  using Factory = std::function<absl::StatusOr<std::unique_ptr<ImplRunner>>(
      const FilterOptions& options, bool drop_one_key)>;

  const char* name;
  const char* description;
  Factory make;
  // Whether a run without --filter includes it; the others run only when
  // named.
  bool in_default_run = true;
};

// The implementations the tool knows by name, in the order the table lists
// them: sstfilter's families by unsized spec ("bloom"; each case sizes them),
// then the peers ("lib:rocksdb.fastbloom").
const std::vector<ImplEntry>& Registry();
const ImplEntry* FindImpl(absl::string_view name);

// Any other sstfilter spec string (filter/filter_spec.h) named in --filter,
// run under that name: the size it gives, or each case's when it gives none.
struct SpecImpl {
  std::string spec;
  std::string description;
  ImplEntry entry;  // entry.name and entry.description point into this
};

// InvalidArgumentError with the parser's one line for a malformed spec, or
// for a "lib:" name that is no peer.
absl::StatusOr<std::unique_ptr<const SpecImpl>> MakeSpecImpl(
    absl::string_view spec);

// Makes a Factory from an adapter's creation function
// (absl::StatusOr<std::unique_ptr<Adapter>>(const FilterOptions&)).
template <typename Adapter, typename Create>
ImplEntry::Factory MakeFactory(Create create) {
  return [create](
             const FilterOptions& options,
             bool drop_one_key) -> absl::StatusOr<std::unique_ptr<ImplRunner>> {
    absl::StatusOr<std::unique_ptr<Adapter>> adapter = create(options);
    if (!adapter.ok()) return adapter.status();
    if (drop_one_key) {
      return std::unique_ptr<ImplRunner>(new Runner<DropOneKeyPeer<Adapter>>(
          std::make_unique<DropOneKeyPeer<Adapter>>(*std::move(adapter))));
    }
    return std::unique_ptr<ImplRunner>(
        new Runner<Adapter>(*std::move(adapter)));
  };
}

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_IMPLS_H_
